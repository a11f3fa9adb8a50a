//! The Tectonic CNF model (see `models/tectonic.md` for the clause families and their counts).
//!
//! Direct encoding through [`crate::cnf::vocab`]: one integer variable per open cell over its
//! candidates (`rXcY=V`, exactly one true), each piece holds each of its missing values exactly
//! once, and two touching cells of different pieces never take the same value (cells of one
//! piece already differ by the piece's at-most-one per value). With givens folded, a cell's
//! candidates are 1..n for its piece of n cells minus the values given in its piece or in a
//! touching cell.

use super::{Filling, Tectonic};
use crate::cnf::vocab::{self, IntVar};
use crate::cnf::{Assignment, Formula, Lit};
use crate::puzzle::{cell_name, CellValue, Given, GivenMode, Model};

/// Which variable is which cell and value.
#[derive(Clone, Debug, Default)]
pub struct TectonicMap {
    /// For each cell (row-major), its variable (none for a given when givens are folded).
    pub cells: Vec<Option<IntVar>>,
    /// For each variable index: the cell and value it stands for.
    pub var_cell: Vec<(u32, u8)>,
}

/// The bit of value `v` in a candidate mask.
pub fn bit(v: u8) -> u64 {
    1u64 << (v - 1)
}

/// The mask of values 1..=n.
pub fn full(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Candidate masks (bit v-1 for value v) for every cell after the givens' eliminations; a given
/// cell's mask is 0.
pub fn candidates(t: &Tectonic) -> Vec<u64> {
    let sizes = t.piece_sizes();
    let mut piece_given = vec![0u64; t.piece_count()];
    for (i, &v) in t.givens.iter().enumerate() {
        if v != 0 {
            piece_given[t.regions[i]] |= bit(v);
        }
    }
    (0..t.givens.len())
        .map(|i| {
            if t.givens[i] != 0 {
                return 0;
            }
            let mut m = full(sizes[t.regions[i]]) & !piece_given[t.regions[i]];
            for j in t.neighbours(i) {
                if t.givens[j] != 0 {
                    m &= !bit(t.givens[j]);
                }
            }
            m
        })
        .collect()
}

/// Builds the model.
pub fn build(t: &Tectonic, mode: GivenMode, names: bool) -> Model<TectonicMap> {
    let mut f = Formula::with_names(names);
    let sizes = t.piece_sizes();
    let masks: Vec<u64> = match mode {
        GivenMode::Fold => candidates(t),
        GivenMode::Assume => t.regions.iter().map(|&r| full(sizes[r])).collect(),
    };
    let w = t.width;
    let mut map = TectonicMap {
        cells: Vec::with_capacity(masks.len()),
        var_cell: Vec::new(),
    };
    let mut answer = Vec::new();
    // Each open cell takes exactly one of its candidates.
    for (i, &m) in masks.iter().enumerate() {
        if mode == GivenMode::Fold && t.givens[i] != 0 {
            map.cells.push(None);
            continue;
        }
        let domain = (1..=64u8).filter(|&v| m & bit(v) != 0).map(i32::from);
        let x = IntVar::new(&mut f, domain, |v| {
            format!("{}={v}", cell_name(i / w, i % w))
        });
        for &(v, l) in x.values() {
            map.var_cell.push((i as u32, v as u8));
            answer.push(l.var());
        }
        map.cells.push(Some(x));
    }
    // Each piece holds each value it still misses exactly once.
    for cells in t.pieces() {
        let mut given = 0u64;
        if mode == GivenMode::Fold {
            for &i in &cells {
                if t.givens[i] != 0 {
                    given |= bit(t.givens[i]);
                }
            }
        }
        let vars: Vec<&IntVar> = cells
            .iter()
            .filter_map(|&i| map.cells[i].as_ref())
            .collect();
        let missing = (1..=cells.len() as u8)
            .filter(|&v| given & bit(v) == 0)
            .map(i32::from);
        vocab::each_value_once(&mut f, &vars, missing);
    }
    // Touching cells of different pieces differ.
    for i in 0..masks.len() {
        let Some(x) = &map.cells[i] else { continue };
        for j in t.neighbours(i).filter(|&j| j > i) {
            if t.regions[j] == t.regions[i] {
                continue;
            }
            if let Some(y) = &map.cells[j] {
                vocab::differ(&mut f, x, y);
            }
        }
    }
    let mut givens = Vec::new();
    if mode == GivenMode::Assume {
        for (i, &v) in t.givens.iter().enumerate() {
            if v != 0 {
                let lit = map.cells[i]
                    .as_ref()
                    .and_then(|x| x.eq(v as i32))
                    .expect("a given fits its piece (checked when read)");
                givens.push(Given {
                    label: format!("{}={v}", cell_name(i / w, i % w)),
                    lit,
                });
            }
        }
    }
    Model {
        formula: f,
        answer,
        one_hot: true,
        givens,
        normal: Vec::new(),
        map,
    }
}

/// Reads the filled grid from an assignment.
pub fn decode(t: &Tectonic, map: &TectonicMap, a: &Assignment) -> Filling {
    Filling(
        t.givens
            .iter()
            .zip(&map.cells)
            .map(|(&given, x)| {
                x.as_ref()
                    .and_then(|x| x.value(a))
                    .map_or(given, |v| v as u8)
            })
            .collect(),
    )
}

/// The literal "cell `i` holds `v`", when the model has one.
pub fn lit(map: &TectonicMap, i: usize, v: u8) -> Option<Lit> {
    map.cells[i].as_ref().and_then(|x| x.eq(v as i32))
}

/// The cell values that positive backbone literals stand for, givens left out.
pub fn forced(t: &Tectonic, map: &TectonicMap, lits: &[Lit]) -> Vec<CellValue> {
    lits.iter()
        .filter(|l| l.is_positive())
        .filter_map(|l| map.var_cell.get(l.var().index()))
        .filter(|&&(i, _)| t.givens[i as usize] == 0)
        .map(|&(i, v)| CellValue {
            row: i as usize / t.width,
            col: i as usize % t.width,
            value: v as i64,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{self, Puzzle, Solutions};
    use crate::solver::SolverChoice;

    /// The seed's own example (3 wide, 5 high).
    pub(super) fn seed_example() -> Tectonic {
        let names: Vec<String> = "112 312 311 334 544"
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(String::from)
            .collect();
        let givens = vec![0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1];
        Tectonic::new(3, 5, &names, givens, None).unwrap()
    }

    #[test]
    fn folded_candidates_leave_out_piece_and_neighbour_givens() {
        let t = seed_example();
        let c = candidates(&t);
        // r1c1: piece 1 (5 cells, given 3 and 2), touches the 3 at r2c2: 1, 4, 5.
        assert_eq!(c[0], bit(1) | bit(4) | bit(5));
        // r5c1: a piece of one cell.
        assert_eq!(c[12], bit(1));
        assert_eq!(c[4], 0);
    }

    #[test]
    fn counts_match_models_doc_for_the_full_model() {
        // Pieces of 5, 2, 4, 3, 1 cells (sum 15); Assume mode gives every cell 1..n.
        let t = seed_example();
        let m = build(&t, GivenMode::Assume, true);
        let sizes = t.piece_sizes();
        let vars: usize = sizes.iter().map(|n| n * n).sum();
        assert_eq!(m.formula.num_vars(), vars);
        // Cells and piece values: n exactly-one groups of n literals each, twice per piece.
        let eo = |n: usize| 1 + n * (n - 1) / 2;
        let mut clauses: usize = sizes.iter().map(|&n| 2 * n * eo(n)).sum();
        // Touching pairs of different pieces: min(n_a, n_b) clauses each.
        for i in 0..15 {
            for j in t.neighbours(i).filter(|&j| j > i) {
                if t.regions[i] != t.regions[j] {
                    clauses += sizes[t.regions[i]].min(sizes[t.regions[j]]);
                }
            }
        }
        assert_eq!(m.formula.num_clauses(), clauses);
        // The figures models/tectonic.md gives for this example.
        assert_eq!((m.formula.num_vars(), clauses), (55, 269));
        let folded = build(&t, GivenMode::Fold, false);
        assert_eq!(
            (folded.formula.num_vars(), folded.formula.num_clauses()),
            (28, 91)
        );
        assert_eq!(m.givens.len(), 3);
        assert_eq!(m.givens[0].label, "r2c2=3");
        assert_eq!(m.formula.name_of(m.givens[0].lit.var()), Some("r2c2=3"));
    }

    #[test]
    fn solves_the_seed_example_uniquely_in_both_modes() {
        let t = seed_example();
        let Solutions::Unique(s) = puzzle::verdict(&t, &SolverChoice::Embedded).unwrap() else {
            panic!("the seed's example has one solution")
        };
        assert_eq!(t.check(&s), Ok(()));
        assert_eq!(s.0, vec![1, 4, 2, 2, 3, 1, 1, 5, 2, 3, 4, 3, 1, 2, 1]);
        assert_eq!(
            puzzle::conflicts(&t, &SolverChoice::Embedded).unwrap(),
            None
        );
    }
}
