//! What the top-level step keeps from board to board. Between two steps the board changes by
//! one deduction, so most of what a step looks at is as it was.
//!
//! Every cell's marks that the easier techniques read (its links, its piece, its candidates,
//! the sides it may be linked by) are compared with those of the last board. A local technique
//! reads a cell and its neighbours only, so at a cell where neither changed it gives the same
//! answer as before: each local scan looks again only at the cells near a change and at those
//! it did not get to, and still finds the first cell in index order for the first technique
//! that applies. *Out of reach* and *bottleneck* read a path's room: the cells its first end
//! reaches, their marks and their neighbours' candidates; a path whose room found nothing and
//! holds no cell near a change finds nothing again, and its room is not searched. So the step
//! found is the one a look at the whole board finds (a `debug_assert` in the engine holds it
//! to that).

use super::board::{Board, Shape, NONE};
use super::local::{self, At, Rule};
use super::paths::{self, Scratch};
use super::{Deduction, Found, Technique};
use crate::numberlink::{Numberlink, SIDES};

/// The local scans in the order the engine makes them: a technique, and the one technique
/// wanted of its answers when only one is (corners before other narrow cells).
pub const SCANS: [(Rule, Option<Technique>); 7] = [
    (local::side_by_side, None),
    (local::only_way_on, None),
    (local::narrow_cell, Some(Technique::Corner)),
    (local::narrow_cell, None),
    (local::left_empty, None),
    (local::no_touching, None),
    (local::dead_end, None),
];

/// The marks of the last board, and what each scan and each path's room found on it.
#[derive(Default)]
pub struct Memo {
    started: bool,
    /// Per cell, as on the last board: its links, its piece's root, its candidate words, the
    /// sides it is linked or may be linked by (any path), and those it may be linked by to a
    /// neighbour with a path in common.
    arms: Vec<u8>,
    root: Vec<u32>,
    cand: Vec<u64>,
    sides: Vec<u8>,
    ways: Vec<u8>,
    /// Per scan, one bit per cell: the scan must look at the cell (again).
    look: Vec<Vec<u64>>,
    /// Per path: its room found nothing, and no cell of it (or beside it) changed since.
    quiet: Vec<bool>,
    /// Per path, the cells of its room when it was last searched.
    reached: Vec<Vec<u32>>,
    /// Per cell, one bit per path (`path_words` words): the room of a quiet path holds it.
    rooms_at: Vec<u64>,
    path_words: usize,
    scratch: Scratch,
    /// The cells changed since the last board: (cell, its links or sides changed), and per
    /// cell the candidate bits that changed (`words` words each).
    changes: Vec<(usize, bool)>,
    flips: Vec<u64>,
    /// The cells whose sides are worked out again (`stamp` holds `epoch` for them), and the
    /// pieces walked for them.
    todo: Vec<usize>,
    stamp: Vec<u32>,
    epoch: u32,
    walked: Vec<usize>,
    piece: Vec<usize>,
}

/// Paths `j * 64 + i` for the bits `i` of `x` are no longer quiet.
fn forget(quiet: &mut [bool], j: usize, mut x: u64) {
    while x != 0 {
        quiet[j * 64 + x.trailing_zeros() as usize] = false;
        x &= x - 1;
    }
}

impl Memo {
    /// Compares the board with the last one, and forgets what a change may have turned.
    pub fn update(&mut self, s: &Shape, b: &Board) {
        let n = s.cells();
        let w = b.words();
        if !self.started {
            self.start(s, b);
            return;
        }
        // The cells whose links, piece or candidates changed (cheap to compare), with the
        // candidates that changed.
        self.changes.clear();
        self.flips.clear();
        for c in 0..n {
            let root = b.root(c) as u32;
            let cand = b.cand(c);
            let links = b.arms[c] != self.arms[c];
            if !links && root == self.root[c] && cand == &self.cand[c * w..(c + 1) * w] {
                continue;
            }
            self.arms[c] = b.arms[c];
            self.root[c] = root;
            let old = &mut self.cand[c * w..(c + 1) * w];
            self.flips.extend(old.iter().zip(cand).map(|(o, x)| o ^ x));
            old.copy_from_slice(cand);
            self.changes.push((c, links));
        }
        // The sides of a cell ([`Board::sides`]) read the cells up to two steps away, its
        // piece and its neighbours' pieces (and the cells beside them): only cells within two
        // steps of a change, or on (or beside) a piece on or beside a changed cell, may have
        // other sides.
        self.new_stamp(n);
        self.todo.clear();
        for i in 0..self.changes.len() {
            let c = self.changes[i].0;
            self.see(c);
            for &m in &s.nb[c] {
                if m == NONE {
                    continue;
                }
                self.see(m as usize);
                for &z in &s.nb[m as usize] {
                    if z != NONE {
                        self.see(z as usize);
                    }
                }
            }
        }
        self.walked.clear();
        for i in 0..self.changes.len() {
            let c = self.changes[i].0;
            self.walk(s, b, c);
            for &m in &s.nb[c] {
                if m != NONE {
                    self.walk(s, b, m as usize);
                }
            }
        }
        let mut i = 0;
        while i < self.todo.len() {
            let c = self.todo[i];
            i += 1;
            let sides = b.sides(s, c);
            if sides != self.sides[c] {
                self.sides[c] = sides;
                match self.changes.iter_mut().find(|(x, _)| *x == c) {
                    Some(ch) => ch.1 = true,
                    None => {
                        self.changes.push((c, true));
                        self.flips.extend(std::iter::repeat_n(0, w));
                    }
                }
            }
        }
        debug_assert!(
            (0..n).all(|c| self.sides[c] == b.sides(s, c)),
            "every cell whose sides changed was looked at"
        );
        // What a change may have turned.
        for i in 0..self.changes.len() {
            let (c, links) = self.changes[i];
            self.near(s, b, c);
            for &m in &s.nb[c] {
                if m != NONE {
                    self.near(s, b, m as usize);
                }
            }
            // A room reads the links and sides of its cells, and the candidates of its path
            // in its cells and beside them.
            let pw = self.path_words;
            if links {
                for j in 0..pw {
                    let x = self.rooms_at[c * pw + j];
                    forget(&mut self.quiet, j, x);
                }
            }
            for j in 0..w.min(pw) {
                let flip = self.flips[i * w + j];
                if flip == 0 {
                    continue;
                }
                let mut x = self.rooms_at[c * pw + j];
                for &m in &s.nb[c] {
                    if m != NONE {
                        x |= self.rooms_at[m as usize * pw + j];
                    }
                }
                forget(&mut self.quiet, j, x & flip);
            }
        }
    }

    /// The first board: every scan looks at every cell, every room is searched.
    fn start(&mut self, s: &Shape, b: &Board) {
        let n = s.cells();
        self.started = true;
        self.arms = b.arms.clone();
        self.root = (0..n).map(|c| b.root(c) as u32).collect();
        self.cand = (0..n).flat_map(|c| b.cand(c).to_vec()).collect();
        self.sides = (0..n).map(|c| b.sides(s, c)).collect();
        self.ways = (0..n).map(|c| ways(s, b, c, self.sides[c])).collect();
        let bits = n.div_ceil(64);
        let mut all = vec![!0u64; bits];
        if n % 64 != 0 {
            all[bits - 1] = (1u64 << (n % 64)) - 1;
        }
        self.look = vec![all; SCANS.len()];
        self.quiet = vec![false; s.paths];
        self.reached = vec![Vec::new(); s.paths];
        self.path_words = s.paths.div_ceil(64);
        self.rooms_at = vec![0; n * self.path_words];
    }

    /// Starts a new set of cells to work the sides of out again.
    fn new_stamp(&mut self, n: usize) {
        if self.stamp.len() != n || self.epoch == u32::MAX {
            self.stamp.clear();
            self.stamp.resize(n, 0);
            self.epoch = 0;
        }
        self.epoch += 1;
    }

    /// Adds `c` to the cells to work the sides of out again.
    #[inline]
    fn see(&mut self, c: usize) {
        if self.stamp[c] != self.epoch {
            self.stamp[c] = self.epoch;
            self.todo.push(c);
        }
    }

    /// Adds the cells of the piece through `c` (of two cells or more) and their neighbours,
    /// once per piece.
    fn walk(&mut self, s: &Shape, b: &Board, c: usize) {
        if b.piece_size(c) < 2 {
            return;
        }
        let r = b.root(c);
        if self.walked.contains(&r) {
            return;
        }
        self.walked.push(r);
        let mut cells = std::mem::take(&mut self.piece);
        cells.clear();
        b.each_member(c, |x| cells.push(x));
        for &x in &cells {
            self.see(x);
            for &m in &s.nb[x] {
                if m != NONE {
                    self.see(m as usize);
                }
            }
        }
        self.piece = cells;
    }

    /// Cell `c` is a changed cell or beside one: every scan looks at it again, and its ways
    /// are worked out again (they read its neighbours' candidates).
    fn near(&mut self, s: &Shape, b: &Board, c: usize) {
        for bits in &mut self.look {
            bits[c / 64] |= 1 << (c % 64);
        }
        self.ways[c] = ways(s, b, c, self.sides[c]);
    }

    /// The first deduction of the local scans, in their order (the first cell in index order
    /// for the first scan that finds one), as a scan of the whole board finds it.
    pub fn local(&mut self, s: &Shape, b: &Board, say: Option<&Numberlink>) -> Option<Deduction> {
        for (j, &(rule, want)) in SCANS.iter().enumerate() {
            let bits = &mut self.look[j];
            for i in 0..bits.len() {
                while bits[i] != 0 {
                    let bit = bits[i].trailing_zeros() as usize;
                    let c = i * 64 + bit;
                    let at = At::known(s, b, c, self.sides[c] & !b.arms[c], self.ways[c]);
                    match rule(s, b, &at, say) {
                        Some(Ok(d)) if want.is_none_or(|t| d.technique == t) => return Some(d),
                        // Nothing here (a contradiction is a bug in a technique, and not a
                        // step) until the cell or a neighbour changes.
                        _ => bits[i] &= !(1 << bit),
                    }
                }
            }
        }
        None
    }

    /// *Out of reach* for every path, then *bottleneck*: what [`paths::reach_then_bottleneck`]
    /// finds, searching again only the rooms of the paths that are not quiet.
    pub fn rooms(&mut self, s: &Shape, b: &Board, say: Option<&Numberlink>) -> (Found, Found) {
        let x = &mut self.scratch;
        x.prepare(s, b);
        let pw = self.path_words;
        let mut cut: Found = None;
        for k in 0..s.paths {
            if self.quiet[k] {
                continue;
            }
            let (found, here) = paths::room(s, b, k, say, x);
            let (j, bit) = (k / 64, 1u64 << (k % 64));
            let mut cells = std::mem::take(&mut self.reached[k]);
            for &c in &cells {
                self.rooms_at[c as usize * pw + j] &= !bit;
            }
            cells.clear();
            if found.is_none() && here.is_none() {
                // Quiet. A finished path stays quiet: no cell can be on it any more.
                let (a, z) = s.ends[k];
                if !b.same_piece(a, z) {
                    paths::reached(x, &mut cells);
                }
                for &c in &cells {
                    self.rooms_at[c as usize * pw + j] |= bit;
                }
                self.quiet[k] = true;
            }
            self.reached[k] = cells;
            if found.is_some() {
                return (found, None);
            }
            if cut.is_none() {
                cut = here;
            }
        }
        (None, cut)
    }

    /// Scratch space for the whole-board techniques of the step.
    pub fn scratch(&mut self) -> &mut Scratch {
        &mut self.scratch
    }
}

/// The sides `c` (whose sides are `sides`) may be linked by to a neighbour with a path in
/// common ([`At::ways`]).
fn ways(s: &Shape, b: &Board, c: usize, sides: u8) -> u8 {
    let open = sides & !b.arms[c];
    let mut out = 0;
    for (i, &side) in SIDES.iter().enumerate() {
        if open & side != 0 && b.share(s, c, s.nb[c][i] as usize) {
            out |= side;
        }
    }
    out
}
