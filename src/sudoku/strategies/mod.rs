//! The Sudoku human-strategy engine: works on candidates, never on the SAT model, and only
//! explains: every step is checked against the SAT solution by the caller.
//!
//! Techniques, easiest first: full house, naked single, hidden single. When they run out, a
//! fallback step (with `--fallback`) places the solution's value in the open cell with the
//! fewest candidates: SAT has proven the puzzle unique, so every other value of that cell leads
//! to a contradiction.

use super::{Grid, Sudoku};
use crate::explain::{Explain, ExplainOptions, Explanation, Grade, Step, SOLVER_TECHNIQUE};
use crate::puzzle::{cell_name, CellValue};

/// Pencil marks: the values still possible in every cell, and the values placed.
#[derive(Clone, Debug)]
pub struct Candidates {
    pub size: usize,
    pub values: Vec<u8>,
    /// Bit v-1 set when v is still possible (0 for a placed cell).
    pub masks: Vec<u64>,
}

impl Candidates {
    /// The candidates left by the givens.
    pub fn new(s: &Sudoku) -> Candidates {
        Candidates {
            size: s.size,
            values: s.cells.clone(),
            masks: super::model::candidates(s),
        }
    }

    /// Places `v` in cell `i` and removes `v` from its peers.
    pub fn place(&mut self, s: &Sudoku, i: usize, v: u8) {
        self.values[i] = v;
        self.masks[i] = 0;
        let bit = !(1u64 << (v - 1));
        for unit in units_of(s, i) {
            for j in unit {
                self.masks[j] &= bit;
            }
        }
    }

    /// True when every cell holds a value.
    pub fn solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }
}

/// The three units (row, column, box) of a cell, as cell lists.
fn units_of(s: &Sudoku, i: usize) -> [Vec<usize>; 3] {
    let n = s.size;
    let (r, c) = (i / n, i % n);
    let r0 = r / s.box_rows * s.box_rows;
    let c0 = c / s.box_cols * s.box_cols;
    [
        (0..n).map(|k| r * n + k).collect(),
        (0..n).map(|k| k * n + c).collect(),
        (r0..r0 + s.box_rows)
            .flat_map(|y| (c0..c0 + s.box_cols).map(move |x| y * n + x))
            .collect(),
    ]
}

fn cv(n: usize, i: usize, v: u8) -> CellValue {
    CellValue {
        row: i / n,
        col: i % n,
        value: v as i64,
    }
}

/// The easiest single available: a naked single (one candidate left in a cell) or a hidden
/// single (a value with one place left in a unit), with full house for a unit's last cell.
fn find_single(s: &Sudoku, c: &Candidates) -> Option<Step> {
    let n = s.size;
    let names = ["row", "column", "box"];
    // Full house: a unit with one open cell.
    for (u, unit) in s.units().iter().enumerate() {
        let open: Vec<usize> = unit.iter().copied().filter(|&i| c.values[i] == 0).collect();
        if open.len() == 1 && c.masks[open[0]].count_ones() == 1 {
            let i = open[0];
            let v = c.masks[i].trailing_zeros() as u8 + 1;
            return Some(Step {
                technique: "full house".into(),
                rating: 1.0,
                pattern: unit.iter().map(|&j| cv(n, j, 0)).collect(),
                placements: vec![cv(n, i, v)],
                eliminations: vec![],
                text: format!(
                    "{}={} is the last open cell of {} {}",
                    cell_name(i / n, i % n),
                    v,
                    names[u / n],
                    u % n + 1
                ),
            });
        }
    }
    // Hidden single.
    for (u, unit) in s.units().iter().enumerate() {
        for v in 1..=n as u8 {
            let bit = 1u64 << (v - 1);
            let places: Vec<usize> = unit
                .iter()
                .copied()
                .filter(|&i| c.masks[i] & bit != 0)
                .collect();
            if places.len() == 1 {
                let i = places[0];
                return Some(Step {
                    technique: "hidden single".into(),
                    rating: if u / n == 2 { 1.2 } else { 1.5 },
                    pattern: unit.iter().map(|&j| cv(n, j, 0)).collect(),
                    placements: vec![cv(n, i, v)],
                    eliminations: vec![],
                    text: format!(
                        "{}={}: the only place for {v} in {} {}",
                        cell_name(i / n, i % n),
                        v,
                        names[u / n],
                        u % n + 1
                    ),
                });
            }
        }
    }
    // Naked single.
    for i in 0..n * n {
        if c.values[i] == 0 && c.masks[i].count_ones() == 1 {
            let v = c.masks[i].trailing_zeros() as u8 + 1;
            return Some(Step {
                technique: "naked single".into(),
                rating: 2.3,
                pattern: vec![cv(n, i, 0)],
                placements: vec![cv(n, i, v)],
                eliminations: vec![],
                text: format!(
                    "{}={}: the only candidate left in the cell",
                    cell_name(i / n, i % n),
                    v
                ),
            });
        }
    }
    None
}

fn solver_step(s: &Sudoku, c: &Candidates, solution: &Grid) -> Option<Step> {
    let n = s.size;
    let i = (0..n * n)
        .filter(|&i| c.values[i] == 0)
        .min_by_key(|&i| (c.masks[i].count_ones(), i))?;
    let v = solution.0[i];
    Some(Step {
        technique: SOLVER_TECHNIQUE.into(),
        rating: 11.0,
        pattern: vec![cv(n, i, 0)],
        placements: vec![cv(n, i, v)],
        eliminations: vec![],
        text: format!(
            "{}={}: every other candidate of the cell leads to a contradiction (proven by SAT)",
            cell_name(i / n, i % n),
            v
        ),
    })
}

/// A level word for a rating on the Sudoku Explainer-like scale.
pub fn level(rating: f64) -> &'static str {
    match rating {
        r if r <= 1.5 => "easy",
        r if r <= 2.5 => "medium",
        r if r <= 4.5 => "hard",
        r if r <= 7.0 => "expert",
        _ => "extreme",
    }
}

/// The grade of a path: its hardest step.
pub fn grade(steps: &[Step]) -> Grade {
    let hardest = steps.iter().max_by(|a, b| a.rating.total_cmp(&b.rating));
    let rating = hardest.map_or(0.0, |s| s.rating);
    let mut techniques: Vec<(String, usize, f64)> = Vec::new();
    for s in steps {
        match techniques.iter_mut().find(|(t, _, _)| *t == s.technique) {
            Some(t) => t.1 += 1,
            None => techniques.push((s.technique.clone(), 1, s.rating)),
        }
    }
    techniques.sort_by(|a, b| b.2.total_cmp(&a.2));
    Grade {
        level: level(rating).into(),
        rating,
        hardest: hardest.map_or("none".into(), |s| s.technique.clone()),
        techniques: techniques.into_iter().map(|(t, k, _)| (t, k)).collect(),
    }
}

impl Explain for Sudoku {
    fn explain(&self, solution: &Grid, opts: ExplainOptions) -> Explanation {
        let mut c = Candidates::new(self);
        let mut steps = Vec::new();
        while !c.solved() {
            let step = match find_single(self, &c) {
                Some(st) => st,
                None if opts.fallback => match solver_step(self, &c, solution) {
                    Some(st) => st,
                    None => break,
                },
                None => break,
            };
            for p in &step.placements {
                c.place(self, p.row * self.size + p.col, p.value as u8);
            }
            steps.push(step);
        }
        let solved = c.solved();
        Explanation {
            grade: grade(&steps),
            stuck: (!solved).then(|| super::render::grid(self, &c.values)),
            steps,
            solved,
        }
    }
}
