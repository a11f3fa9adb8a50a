//! The independent Tectonic rule checker, written from the rules, not from the CNF model:
//! every cell holds a value from 1 to its piece's size, no piece holds a value twice, no two
//! touching cells (diagonals included) hold the same value, and every given is kept.

use super::{Filling, Tectonic};
use crate::puzzle::cell_name;

/// `Ok` when `g` is a solution of `t`; otherwise which rule it breaks and where.
pub fn check(t: &Tectonic, g: &Filling) -> Result<(), String> {
    let (w, h) = (t.width, t.height);
    if g.0.len() != w * h {
        return Err(format!(
            "the grid has {} cells, expected {}",
            g.0.len(),
            w * h
        ));
    }
    let name = |i: usize| cell_name(i / w, i % w);
    // Piece sizes, counted here rather than taken from the puzzle's helpers.
    let mut size = std::collections::HashMap::new();
    for &r in &t.regions {
        *size.entry(r).or_insert(0usize) += 1;
    }
    for (i, &v) in g.0.iter().enumerate() {
        let n = size[&t.regions[i]];
        if v == 0 || v as usize > n {
            return Err(format!(
                "{} holds {v}, but its piece has {} (values 1-{n})",
                name(i),
                crate::text::count_of(n, "cell")
            ));
        }
        if t.givens[i] != 0 && t.givens[i] != v {
            return Err(format!(
                "{} holds {v} but the given is {}",
                name(i),
                t.givens[i]
            ));
        }
    }
    let mut seen = std::collections::HashMap::new();
    for (i, &v) in g.0.iter().enumerate() {
        if let Some(j) = seen.insert((t.regions[i], v), i) {
            return Err(format!(
                "{} and {} of piece {} both hold {v}",
                name(j),
                name(i),
                t.region_names[t.regions[i]]
            ));
        }
    }
    for r in 0..h {
        for c in 0..w {
            // Right, down-left, down, down-right: every touching pair once.
            for (dr, dc) in [(0isize, 1isize), (1, -1), (1, 0), (1, 1)] {
                let (y, x) = (r as isize + dr, c as isize + dc);
                if y < 0 || x < 0 || y as usize >= h || x as usize >= w {
                    continue;
                }
                let (a, b) = (r * w + c, y as usize * w + x as usize);
                if g.0[a] == g.0[b] {
                    return Err(format!(
                        "{} and {} touch and both hold {}",
                        name(a),
                        name(b),
                        g.0[a]
                    ));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// a a b b / a a b b with the given r1c1=1.
    fn puzzle() -> Tectonic {
        let names: Vec<String> = "aabbaabb".chars().map(String::from).collect();
        let mut givens = vec![0; 8];
        givens[0] = 1;
        Tectonic::new(4, 2, &names, givens, None).unwrap()
    }

    #[test]
    fn accepts_a_solution_and_names_each_broken_rule() {
        let t = puzzle();
        assert_eq!(check(&t, &Filling(vec![1, 2, 3, 4, 3, 4, 1, 2])), Ok(()));
        let e = check(&t, &Filling(vec![1, 2, 4, 3, 3, 4, 1, 2])).unwrap_err();
        assert_eq!(e, "r1c3 and r2c2 touch and both hold 4");
        let e = check(&t, &Filling(vec![2, 1, 3, 4, 3, 4, 1, 2])).unwrap_err();
        assert!(e.contains("given is 1"), "{e}");
        let e = check(&t, &Filling(vec![1, 2, 3, 4, 3, 5, 1, 2])).unwrap_err();
        assert!(e.contains("r2c2 holds 5, but its piece has 4 cells"), "{e}");
        let e = check(&t, &Filling(vec![1, 2, 3, 4, 3, 1, 1, 2])).unwrap_err();
        assert_eq!(e, "r1c1 and r2c2 of piece a both hold 1");
        assert!(check(&t, &Filling(vec![1; 3])).is_err());
    }
}
