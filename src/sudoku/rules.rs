//! The independent Sudoku rule checker, written from the rules, not from the CNF model: every
//! cell filled with 1..n, every row, column and box a permutation, every given kept.

use super::{Grid, Sudoku};
use crate::puzzle::cell_name;

/// `Ok` when `g` is a solution of `s`; otherwise which rule it breaks and where.
pub fn check(s: &Sudoku, g: &Grid) -> Result<(), String> {
    let n = s.size;
    if g.0.len() != n * n {
        return Err(format!(
            "the grid has {} cells, expected {}",
            g.0.len(),
            n * n
        ));
    }
    for (i, (&v, &given)) in g.0.iter().zip(&s.cells).enumerate() {
        if v == 0 || v as usize > n {
            return Err(format!(
                "{} holds {v}, not a value 1-{n}",
                cell_name(i / n, i % n)
            ));
        }
        if given != 0 && v != given {
            return Err(format!(
                "{} holds {v} but the given is {given}",
                cell_name(i / n, i % n)
            ));
        }
        if let Some(marks) = &s.marks {
            if given == 0 && marks[i] >> (v - 1) & 1 == 0 {
                return Err(format!(
                    "{} holds {v}, which its pencil marks rule out",
                    cell_name(i / n, i % n)
                ));
            }
        }
    }
    // Every value is in 1..=n now, so a unit of n cells is a permutation exactly when the union
    // of its values is all of 1..=n: one pass over the grid decides it for every unit. Only a
    // grid that breaks a unit goes on to the unit-by-unit pass below, which names the first.
    if units_are_permutations(s, g) {
        return Ok(());
    }
    // Each unit's values as a mask: a value seen twice breaks the rule (values are 1..=n here).
    let check_unit = |what: &str, k: usize, cells: &mut dyn Iterator<Item = usize>| {
        let mut seen = 0u64;
        for i in cells {
            let v = g.0[i];
            let bit = 1u64 << (v - 1);
            if seen & bit != 0 {
                return Err(format!("{what} {} holds {v} twice", k + 1));
            }
            seen |= bit;
        }
        Ok(())
    };
    for r in 0..n {
        check_unit("row", r, &mut (0..n).map(|c| r * n + c))?;
    }
    for c in 0..n {
        check_unit("column", c, &mut (0..n).map(|r| r * n + c))?;
    }
    let (br, bc) = (s.box_rows, s.box_cols);
    for b in 0..n {
        let r0 = b / (n / bc) * br;
        let c0 = b % (n / bc) * bc;
        let mut cells = (r0..r0 + br).flat_map(|r| (c0..c0 + bc).map(move |c| r * n + c));
        check_unit("box", b, &mut cells)?;
    }
    Ok(())
}

/// Whether every row, column and box of `g` (whose values are all in 1..=n) holds every value:
/// the union of each unit's values, gathered in one pass over the grid.
fn units_are_permutations(s: &Sudoku, g: &Grid) -> bool {
    let n = s.size;
    let full = super::model::full_mask(n);
    let (br, bc) = (s.box_rows, s.box_cols);
    let mut cols = vec![0u64; n];
    let mut boxes = vec![0u64; n];
    for (r, row) in g.0.chunks_exact(n).enumerate() {
        let band = &mut boxes[r / br * (n / bc)..][..n / bc];
        let mut seen = 0u64;
        for ((col, cells), bx) in cols
            .chunks_exact_mut(bc)
            .zip(row.chunks_exact(bc))
            .zip(band)
        {
            for (c, &v) in col.iter_mut().zip(cells) {
                let bit = 1u64 << (v - 1);
                seen |= bit;
                *c |= bit;
                *bx |= bit;
            }
        }
        if seen != full {
            return false;
        }
    }
    cols.iter().chain(&boxes).all(|&m| m == full)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_a_solution_and_names_each_broken_rule() {
        let s = Sudoku {
            size: 4,
            box_rows: 2,
            box_cols: 2,
            cells: vec![1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            marks: None,
        };
        let good = Grid(vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]);
        assert_eq!(check(&s, &good), Ok(()));
        let mut g = good.clone();
        g.0[0] = 2;
        g.0[1] = 1;
        assert!(check(&s, &g).unwrap_err().contains("given is 1"));
        // Swap two rows inside a band: rows and columns still fine, boxes break? No: swap columns
        // 1 and 2 (across boxes): rows fine, columns fine, boxes break.
        let mut g = good.clone();
        for r in 0..4 {
            g.0.swap(r * 4 + 1, r * 4 + 2);
        }
        assert!(check(&s, &g).unwrap_err().contains("box"));
        let mut g = good.clone();
        g.0[5] = 3;
        assert!(check(&s, &g).unwrap_err().contains("twice"));
        let mut g = good;
        g.0[7] = 0;
        assert!(check(&s, &g).unwrap_err().contains("not a value"));
    }
}
