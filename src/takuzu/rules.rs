//! The independent Takuzu rule checker, written from the rules, not from the CNF model. It
//! judges a partial grid (givens, or the state of an explanation: no rule may already be
//! broken) as well as a full solution (every cell filled, every given kept, every rule holds).

use super::{digits, Grid, Orientation, Takuzu};
use crate::puzzle::cell_name;
use crate::text::count_of;

/// A broken rule: the cell where it shows (for error positions) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Row-major index of a cell that takes part.
    pub cell: usize,
    pub message: String,
}

fn line_word(o: Orientation) -> &'static str {
    match o {
        Orientation::Row => "row",
        Orientation::Column => "column",
    }
}

/// The first rule that the filled cells of `cells` already break, if any: three equal digits
/// side by side, more 0s or 1s than a line may hold, two complete equal lines of one region
/// (when distinct lines are a rule).
pub fn violation(t: &Takuzu, cells: &[Option<u8>]) -> Option<Violation> {
    let w = t.width;
    let lines = t.lines();
    for l in &lines {
        let name = t.line_name(l);
        // Three in a row.
        for k in 2..l.cells.len() {
            let (a, b, c) = (
                cells[l.cells[k - 2]],
                cells[l.cells[k - 1]],
                cells[l.cells[k]],
            );
            if let (Some(x), Some(y), Some(z)) = (a, b, c) {
                if x == y && y == z {
                    let i = l.cells[k - 2];
                    return Some(Violation {
                        cell: i,
                        message: format!(
                            "three {x}s side by side in {name} from {}",
                            cell_name(i / w, i % w)
                        ),
                    });
                }
            }
        }
        // Counts.
        let len = l.cells.len();
        let (lo, hi) = t.ones_range(len);
        let ones = l.cells.iter().filter(|&&i| cells[i] == Some(1)).count();
        let zeros = l.cells.iter().filter(|&&i| cells[i] == Some(0)).count();
        if ones > hi || zeros > len - lo {
            let (d, n, max) = if ones > hi {
                (1, ones, hi)
            } else {
                (0, zeros, len - lo)
            };
            let i = *l
                .cells
                .iter()
                .filter(|&&i| cells[i] == Some(d))
                .nth(max)
                .expect("more than max");
            return Some(Violation {
                cell: i,
                message: format!(
                    "{name} holds {} but a line of {} holds at most {max}",
                    digits(n, d),
                    count_of(len, "cell")
                ),
            });
        }
    }
    if t.rules.distinct_lines {
        for (a, la) in lines.iter().enumerate() {
            if la.cells.iter().any(|&i| cells[i].is_none()) {
                continue;
            }
            for lb in &lines[a + 1..] {
                if lb.family != la.family
                    || lb.cells.len() != la.cells.len()
                    || lb.cells.iter().any(|&i| cells[i].is_none())
                {
                    continue;
                }
                if la
                    .cells
                    .iter()
                    .zip(&lb.cells)
                    .all(|(&x, &y)| cells[x] == cells[y])
                {
                    return Some(Violation {
                        cell: lb.cells[0],
                        message: format!(
                            "{}s {} and {} are equal (no two {}s may be)",
                            line_word(la.orientation),
                            la.index + 1,
                            lb.index + 1,
                            line_word(la.orientation)
                        ),
                    });
                }
            }
        }
    }
    None
}

/// `Ok` when `g` is a solution of `t`; otherwise which rule it breaks and where.
pub fn check(t: &Takuzu, g: &Grid) -> Result<(), String> {
    let w = t.width;
    if g.0.len() != t.width * t.height {
        return Err(format!(
            "the grid has {} cells, expected {}",
            g.0.len(),
            t.width * t.height
        ));
    }
    for (i, (&v, &given)) in g.0.iter().zip(&t.cells).enumerate() {
        if v > 1 {
            return Err(format!("{} holds {v}, not 0 or 1", cell_name(i / w, i % w)));
        }
        if let Some(x) = given {
            if x != v {
                return Err(format!(
                    "{} holds {v} but the given is {x}",
                    cell_name(i / w, i % w)
                ));
            }
        }
    }
    let cells: Vec<Option<u8>> = g.0.iter().map(|&v| Some(v)).collect();
    // A full line must also hold enough of each digit (a partial grid is only held to maxima,
    // which for a full line is the same thing: len - max(zeros) = min(ones)).
    match violation(t, &cells) {
        Some(v) => Err(v.message),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::takuzu::{OddLines, Region, Rules};

    fn grid(rows: &[&str]) -> Grid {
        Grid(
            rows.iter()
                .flat_map(|r| r.bytes().map(|b| b - b'0'))
                .collect(),
        )
    }

    #[test]
    fn accepts_a_solution_and_names_each_broken_rule() {
        let t = Takuzu::empty(4, 4, Rules::default());
        let good = grid(&["0011", "1100", "0101", "1010"]);
        assert_eq!(check(&t, &good), Ok(()));
        let bad = grid(&["0011", "0011", "1100", "1100"]);
        assert!(check(&t, &bad)
            .unwrap_err()
            .contains("rows 1 and 2 are equal"));
        let lax = Rules {
            distinct_lines: false,
            ..Rules::default()
        };
        let t2 = Takuzu::empty(4, 4, lax);
        // Rows repeat, columns 0101/0101 repeat too: fine without the rule.
        assert_eq!(check(&t2, &bad), Ok(()));
        let three = grid(&["0001", "1110", "0101", "1010"]);
        assert!(check(&t2, &three).unwrap_err().contains("three 0s"));
        let unbalanced = grid(&["0101", "1010", "0110", "1011"]);
        assert!(check(&t2, &unbalanced).unwrap_err().contains("at most 2"));
        let mut given = Takuzu::empty(4, 4, Rules::default());
        given.cells[0] = Some(1);
        assert!(check(&given, &good).unwrap_err().contains("given is 1"));
    }

    #[test]
    fn odd_lines_and_regions() {
        let mut rules = Rules {
            odd_lines: OddLines::Ones,
            ..Rules::default()
        };
        let t = Takuzu::empty(3, 3, rules.clone());
        // Each line one more 1 than 0: rows 101/110/011 columns 1,1,0 / 0,1,1 / 1,0,1.
        let g = grid(&["101", "110", "011"]);
        assert_eq!(check(&t, &g), Ok(()));
        rules.odd_lines = OddLines::Zeros;
        let t = Takuzu::empty(3, 3, rules.clone());
        assert!(check(&t, &g).is_err());
        rules.odd_lines = OddLines::Either;
        let t = Takuzu::empty(3, 3, rules);
        assert_eq!(check(&t, &g), Ok(()));
        // A region: the top-left 2x2 of a 4x4 must hold distinct balanced lines.
        let rules = Rules {
            regions: vec![
                Region {
                    row: 0,
                    col: 0,
                    height: 2,
                    width: 2,
                },
                Region {
                    row: 0,
                    col: 0,
                    height: 4,
                    width: 4,
                },
            ],
            ..Rules::default()
        };
        let t = Takuzu::empty(4, 4, rules);
        assert_eq!(check(&t, &grid(&["0110", "1001", "0011", "1100"])), Ok(()));
        let bad = grid(&["0011", "1100", "0101", "1010"]);
        assert!(check(&t, &bad).unwrap_err().contains("row 1 of the 2x2"));
    }

    #[test]
    fn partial_grids() {
        let t = Takuzu::empty(6, 6, Rules::default());
        let mut cells = vec![None; 36];
        cells[0] = Some(1);
        cells[1] = Some(1);
        assert_eq!(violation(&t, &cells), None);
        cells[2] = Some(1);
        let v = violation(&t, &cells).unwrap();
        assert_eq!(v.cell, 0);
        cells[2] = None;
        cells[3] = Some(1);
        cells[5] = Some(1);
        let v = violation(&t, &cells).unwrap();
        assert!(v.message.contains("holds 4 1s"), "{}", v.message);
        assert_eq!(v.cell, 5);
    }
}
