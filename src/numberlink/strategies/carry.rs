//! What a what-if search carries to the next board: the assumptions whose run ended without a
//! contradiction (it reached a fixpoint, or stopped at its bound), with the cells the run
//! changed: the assumption's cells and those of the run's deductions (the cells of the links it
//! drew, of the cells it placed, of the candidates it removed). On the next board, such an
//! assumption is not run again (or, when it had stopped at its bound, not below that bound)
//! unless a cell within [`NEAR`] of what its run changed has changed on the board since.
//!
//! (Until the eighth round the cells were those whose entries on the board changed, which
//! also held board bookkeeping: a link rewrites the root of every cell of the smaller piece it
//! joins, and a piece's candidates sit in its root, an arbitrary cell of it. A far cell of a
//! long piece then made the run be forgotten for changes nowhere near its deductions.)
//!
//! This is a judgement, not a proof: the easier techniques a run uses are local, except the
//! whole-board ones (a path's ends meeting, sealed areas), which a change far away can turn.
//! Such a what-if is then found later, or a longer one in its place; BENCHMARKS.md
//! ("Numberlink explained") gives what it changes on the Janko puzzles.

use super::board::{Board, Shape};
use super::whatif::Assume;

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
    /// Per assumption (see [`Carry::slot`]): how its run ended, and the cells it changed.
    kept: Vec<Option<(Outcome, Vec<u32>)>>,
    /// The slots in use.
    used: Vec<u32>,
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
            self.kept = vec![None; Carry::slots(s)];
            self.used.clear();
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
        let (kept, near) = (&mut self.kept, &self.near);
        self.used.retain(|&i| {
            let slot = &mut kept[i as usize];
            let hit = slot
                .as_ref()
                .is_some_and(|(_, cells)| cells.iter().any(|&c| near[c as usize]));
            if hit {
                *slot = None;
            }
            slot.is_some()
        });
    }

    /// Where an assumption is kept: one slot per cell and path for "on" and "not on", one per
    /// cell and side for a link (none for a cell on one of several paths).
    pub fn slot(s: &Shape, a: &Assume) -> Option<usize> {
        let n = s.cells();
        let per = s.empty + 1;
        match a {
            Assume::On(c, k) => Some(c * per + k),
            Assume::Among(c, ks) if ks.len() == 1 => Some(c * per + ks[0]),
            Assume::Among(..) => None,
            Assume::Not(c, k) => Some(n * per + c * per + k),
            Assume::Link(t, m) => Some(2 * n * per + t * 4 + s.side(*t, *m)),
        }
    }

    /// How many slots there are (see [`Carry::slot`]).
    pub fn slots(s: &Shape) -> usize {
        s.cells() * (2 * (s.empty + 1) + 4)
    }

    /// How the assumption's run ended when it was last run, if nothing near it changed since.
    pub fn get(&self, s: &Shape, a: &Assume) -> Option<Outcome> {
        self.get_at(Carry::slot(s, a)?)
    }

    /// [`Carry::get`] for the assumption in slot `i`.
    pub fn get_at(&self, i: usize) -> Option<Outcome> {
        self.kept.get(i)?.as_ref().map(|(o, _)| *o)
    }

    /// Keeps how a run ended and the cells it changed (or forgets it, when refuted: `None`).
    pub fn put(&mut self, s: &Shape, a: &Assume, outcome: Option<Outcome>, cells: &[u32]) {
        if let Some(i) = Carry::slot(s, a) {
            self.put_at(i, a, outcome, cells);
        }
    }

    /// [`Carry::put`] for `a`, whose slot is `i`.
    pub fn put_at(&mut self, i: usize, a: &Assume, outcome: Option<Outcome>, cells: &[u32]) {
        if i >= self.kept.len() {
            return;
        }
        let slot = &mut self.kept[i];
        match outcome {
            None => *slot = None,
            Some(o) => {
                if slot.is_none() {
                    self.used.push(i as u32);
                }
                let (was, kept) = slot.get_or_insert_with(|| (o, Vec::new()));
                *was = o;
                kept.clear();
                kept.extend_from_slice(cells);
                match a {
                    Assume::On(c, _) | Assume::Among(c, _) | Assume::Not(c, _) => {
                        kept.push(*c as u32)
                    }
                    Assume::Link(t, m) => kept.extend([*t as u32, *m as u32]),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_run_is_forgotten_when_a_cell_near_what_it_changed_changes() {
        let p = super::super::tests::whatif8();
        let s = Shape::new(&p);
        let b = Board::new(&s, &p);
        let at = |r: usize, c: usize| r * s.width + c;
        let (here, beside, far, far_run) = (at(4, 0), at(4, 1), at(0, 7), at(5, 1));
        let k = b.list(here)[0];
        let mut carry = Carry::default();
        carry.update(&s, &b);
        let near_cell = Assume::On(here, k);
        let far_cell = Assume::Not(far, b.list(far)[0]);
        // Its assumption is far away, but its run changed a cell next to the change below.
        let far_reach = Assume::Among(at(7, 7), vec![b.list(at(7, 7))[0]]);
        // (The same slot as "on" that path.)
        assert_eq!(
            Carry::slot(&s, &far_reach),
            Carry::slot(&s, &Assume::On(at(7, 7), b.list(at(7, 7))[0]))
        );
        carry.put(&s, &near_cell, Some(Outcome::Settled), &[]);
        carry.put(&s, &far_cell, Some(Outcome::Cut(10)), &[]);
        carry.put(&s, &far_reach, Some(Outcome::Settled), &[far_run as u32]);
        carry.update(&s, &b);
        assert_eq!(carry.get(&s, &near_cell), Some(Outcome::Settled));
        assert_eq!(carry.get(&s, &far_cell), Some(Outcome::Cut(10)));

        let mut changed = b.clone();
        let gone = b.list(beside)[0];
        assert!(b.count(beside) > 1);
        changed.remove(beside, gone).unwrap();
        carry.update(&s, &changed);
        assert_eq!(carry.get(&s, &near_cell), None);
        assert_eq!(carry.get(&s, &far_reach), None);
        assert_eq!(carry.get(&s, &far_cell), Some(Outcome::Cut(10)));
        // A refuted run is not kept.
        carry.put(&s, &far_cell, None, &[]);
        assert_eq!(carry.get(&s, &far_cell), None);
    }
}
