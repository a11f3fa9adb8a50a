//! The Sudoku CNF model (see `models/sudoku.md` for the clause families and their counts).
//!
//! Direct encoding: one variable `rXcY=V` per open cell and candidate value. With givens
//! folded, a cell's candidates are the values no given in its row, column or box already holds,
//! and units only constrain the values they still miss. Clauses: each cell takes exactly one
//! candidate; each unit holds each missing value exactly once (the "at least once" clauses are
//! what let unit propagation find hidden singles).

use super::{Grid, Sudoku};
use crate::cnf::{encode, Assignment, Formula, Lit};
use crate::puzzle::{cell_name, CellValue, Given, GivenMode, Model};

/// Which variable is which cell and value.
#[derive(Clone, Debug, Default)]
pub struct SudokuMap {
    /// For each cell (row-major), its candidate values with their literals (empty for a given
    /// when givens are folded).
    pub cell_lits: Vec<Vec<(u8, Lit)>>,
    /// For each variable index: the cell and value it stands for.
    pub var_cell: Vec<(u32, u8)>,
}

/// Candidate masks (bit v-1 for value v) for every cell after the givens' eliminations; a given
/// cell's mask is 0.
pub fn candidates(s: &Sudoku) -> Vec<u64> {
    let n = s.size;
    let full: u64 = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut row = vec![0u64; n];
    let mut col = vec![0u64; n];
    let mut bx = vec![0u64; n];
    for (i, &v) in s.cells.iter().enumerate() {
        if v != 0 {
            let bit = 1u64 << (v - 1);
            let (r, c) = (i / n, i % n);
            row[r] |= bit;
            col[c] |= bit;
            bx[s.box_of(r, c)] |= bit;
        }
    }
    s.cells
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            if v != 0 {
                0
            } else {
                let (r, c) = (i / n, i % n);
                full & !(row[r] | col[c] | bx[s.box_of(r, c)])
            }
        })
        .collect()
}

/// Builds the model.
pub fn build(s: &Sudoku, mode: GivenMode, names: bool) -> Model<SudokuMap> {
    let n = s.size;
    let mut f = if names {
        Formula::new()
    } else {
        Formula::without_names()
    };
    let masks: Vec<u64> = match mode {
        GivenMode::Fold => candidates(s),
        GivenMode::Assume => {
            let full: u64 = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
            vec![full; n * n]
        }
    };
    let mut map = SudokuMap {
        cell_lits: vec![Vec::new(); n * n],
        var_cell: Vec::new(),
    };
    let mut answer = Vec::new();
    for (i, &m) in masks.iter().enumerate() {
        let mut bits = m;
        while bits != 0 {
            let v = bits.trailing_zeros() as u8 + 1;
            bits &= bits - 1;
            let var = f.named_var(|| format!("{}={}", cell_name(i / n, i % n), v));
            map.var_cell.push((i as u32, v));
            map.cell_lits[i].push((v, var.pos()));
            answer.push(var);
        }
    }
    // Each open cell takes exactly one value.
    for (i, lits) in map.cell_lits.iter().enumerate() {
        if mode == GivenMode::Fold && s.cells[i] != 0 {
            continue;
        }
        let ls: Vec<Lit> = lits.iter().map(|&(_, l)| l).collect();
        encode::exactly_one(&mut f, &ls);
    }
    // Each unit holds each value it still misses exactly once.
    let mut ls = Vec::with_capacity(n);
    for unit in s.units() {
        let mut given: u64 = 0;
        if mode == GivenMode::Fold {
            for &i in &unit {
                if s.cells[i] != 0 {
                    given |= 1u64 << (s.cells[i] - 1);
                }
            }
        }
        for v in 1..=n as u8 {
            if given >> (v - 1) & 1 == 1 {
                continue;
            }
            ls.clear();
            for &i in &unit {
                if let Some(&(_, l)) = map.cell_lits[i].iter().find(|&&(w, _)| w == v) {
                    ls.push(l);
                }
            }
            encode::exactly_one(&mut f, &ls);
        }
    }
    let mut givens = Vec::new();
    if mode == GivenMode::Assume {
        for (i, &v) in s.cells.iter().enumerate() {
            if v != 0 {
                let lit = map.cell_lits[i][v as usize - 1].1;
                givens.push(Given {
                    label: format!("{}={}", cell_name(i / n, i % n), v),
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
        map,
    }
}

/// Reads the grid from an assignment.
pub fn decode(s: &Sudoku, map: &SudokuMap, a: &Assignment) -> Grid {
    Grid(
        s.cells
            .iter()
            .enumerate()
            .map(|(i, &given)| {
                map.cell_lits[i]
                    .iter()
                    .find(|&&(_, l)| a.lit(l))
                    .map(|&(v, _)| v)
                    .unwrap_or(given)
            })
            .collect(),
    )
}

/// The cell values that positive backbone literals stand for, givens left out.
pub fn forced(s: &Sudoku, map: &SudokuMap, lits: &[Lit]) -> Vec<CellValue> {
    lits.iter()
        .filter(|l| l.is_positive())
        .filter_map(|l| map.var_cell.get(l.var().index()))
        .filter(|&&(i, _)| s.cells[i as usize] == 0)
        .map(|&(i, v)| CellValue {
            row: i as usize / s.size,
            col: i as usize % s.size,
            value: v as i64,
        })
        .collect()
}
