//! What a what-if search carries to the next board: the assumptions whose run ended without a
//! contradiction (it reached a fixpoint, or stopped at its bound), with the cells the run
//! changed. On the next board, such an assumption is not run again (or, when it had stopped
//! at its bound, not below that bound) unless a cell within [`NEAR`] of what its run changed
//! has changed on the board since.
//!
//! This is a judgement, not a proof: the easier techniques a run uses are local, except the
//! whole-board ones (a path's ends meeting, sealed areas), which a change far away can turn.
//! Such a what-if is then found later, or a longer one in its place; BENCHMARKS.md
//! ("Numberlink explained") gives what it changes on the Janko puzzles.

use super::board::{Board, Shape};
use super::whatif::Assume;
use std::collections::HashMap;

/// How far (in steps between neighbours) from a changed cell a kept run is forgotten: the
/// local techniques read two cells around the cells they look at.
pub const NEAR: usize = 2;

/// How a run ended without a contradiction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing more followed: no bound refutes it on this board.
    Settled,
    /// Stopped undecided at this bound.
    Cut(usize),
}

/// The kept runs, and the board they were kept on.
#[derive(Default)]
pub struct Carry {
    kept: HashMap<Assume, (Outcome, Vec<u32>)>,
    /// Per cell on the board of the last search: its links, and its candidate words.
    arms: Vec<u8>,
    cand: Vec<u64>,
    /// Per cell: changed, or within [`NEAR`] of a change, since the last search.
    near: Vec<bool>,
    front: Vec<usize>,
}

impl Carry {
    /// Moves to the board of a new search: forgets the runs near a cell that changed since
    /// the last one.
    pub fn update(&mut self, s: &Shape, b: &Board) {
        let n = s.cells();
        let w = b.words();
        if self.arms.len() != n {
            self.kept.clear();
            self.arms = b.arms.clone();
            self.cand = (0..n).flat_map(|c| b.cand(c).to_vec()).collect();
            self.near = vec![false; n];
            return;
        }
        self.near.iter_mut().for_each(|x| *x = false);
        self.front.clear();
        for c in 0..n {
            let now = b.cand(c);
            if self.arms[c] != b.arms[c] || self.cand[c * w..(c + 1) * w] != *now {
                self.arms[c] = b.arms[c];
                self.cand[c * w..(c + 1) * w].copy_from_slice(now);
                self.near[c] = true;
                self.front.push(c);
            }
        }
        if self.front.is_empty() {
            return;
        }
        for _ in 0..NEAR {
            let front = std::mem::take(&mut self.front);
            for &c in &front {
                for (_, m) in s.around(c) {
                    if !self.near[m] {
                        self.near[m] = true;
                        self.front.push(m);
                    }
                }
            }
        }
        let near = &self.near;
        self.kept
            .retain(|_, (_, cells)| !cells.iter().any(|&c| near[c as usize]));
    }

    /// How the assumption's run ended when it was last run, if nothing near it changed since.
    pub fn get(&self, a: &Assume) -> Option<Outcome> {
        self.kept.get(a).map(|(o, _)| *o)
    }

    /// Keeps how a run ended and the cells it changed (or forgets it, when refuted: `None`).
    pub fn put(&mut self, a: &Assume, outcome: Option<Outcome>, cells: &[u32]) {
        match outcome {
            None => {
                self.kept.remove(a);
            }
            Some(o) => {
                let mut cells = cells.to_vec();
                cells.extend(start_cells(a));
                cells.sort_unstable();
                cells.dedup();
                self.kept.insert(a.clone(), (o, cells));
            }
        }
    }
}

/// The cells an assumption is about.
fn start_cells(a: &Assume) -> Vec<u32> {
    match a {
        Assume::Among(c, _) | Assume::Not(c, _) => vec![*c as u32],
        Assume::Link(t, m) => vec![*t as u32, *m as u32],
    }
}
