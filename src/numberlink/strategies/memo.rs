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
    /// The cells changed since the last board: (cell, the sides whose link or whose being
    /// open changed), and per cell the candidate bits that changed (`words` words each);
    /// `change_of` holds each changed cell's place in them ([`NONE`] for the others).
    changes: Vec<(usize, u8)>,
    change_of: Vec<u32>,
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
        for &(c, _) in &self.changes {
            self.change_of[c] = NONE;
        }
        self.changes.clear();
        self.flips.clear();
        for c in 0..n {
            let root = b.root(c) as u32;
            let cand = b.cand(c);
            let links = b.arms[c] ^ self.arms[c];
            if links == 0 && root == self.root[c] && cand == &self.cand[c * w..(c + 1) * w] {
                continue;
            }
            self.arms[c] = b.arms[c];
            self.root[c] = root;
            let old = &mut self.cand[c * w..(c + 1) * w];
            self.flips.extend(old.iter().zip(cand).map(|(o, x)| o ^ x));
            old.copy_from_slice(cand);
            self.change_of[c] = self.changes.len() as u32;
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
            let diff = sides ^ self.sides[c];
            if diff != 0 {
                self.sides[c] = sides;
                match self.change_of[c] {
                    NONE => {
                        self.change_of[c] = self.changes.len() as u32;
                        self.changes.push((c, diff));
                        self.flips.extend(std::iter::repeat_n(0, w));
                    }
                    x => self.changes[x as usize].1 |= diff,
                }
            }
        }
        debug_assert!(
            (0..n).all(|c| self.sides[c] == b.sides(s, c)),
            "every cell whose sides changed was looked at"
        );
        // What a change may have turned.
        for i in 0..self.changes.len() {
            let (c, diff) = self.changes[i];
            self.near(s, b, c);
            for &m in &s.nb[c] {
                if m != NONE {
                    self.near(s, b, m as usize);
                }
            }
            // A room reads the links and sides of its cells, and the candidates of its path
            // in its cells and beside them. A path only moves from a cell of its room to a
            // neighbour by a link, or by a side both may be linked by and both could be on it
            // by: a side or link that changed matters to the paths both cells had (a cell of
            // its room is on it or linked to its piece).
            let pw = self.path_words;
            for (side, &bit) in SIDES.iter().enumerate() {
                let m = s.nb[c][side];
                if diff & bit == 0 || m == NONE {
                    continue;
                }
                for j in 0..pw {
                    let both = self.had(c, j, w) & self.had(m as usize, j, w);
                    forget(&mut self.quiet, j, self.rooms_at[c * pw + j] & both);
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

    /// Word `j` of the candidates `c` had on the last board or has now.
    fn had(&self, c: usize, j: usize, w: usize) -> u64 {
        let now = self.cand[c * w + j];
        match self.change_of[c] {
            NONE => now,
            i => now | now ^ self.flips[i as usize * w + j],
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
        self.ways = (0..n)
            .map(|c| paths::ways_of(s, b, c, self.sides[c]))
            .collect();
        let bits = n.div_ceil(64);
        let mut all = vec![!0u64; bits];
        if !n.is_multiple_of(64) {
            all[bits - 1] = (1u64 << (n % 64)) - 1;
        }
        self.look = vec![all; SCANS.len()];
        self.quiet = vec![false; s.paths];
        self.reached = vec![Vec::new(); s.paths];
        self.path_words = s.paths.div_ceil(64);
        self.rooms_at = vec![0; n * self.path_words];
        self.change_of = vec![NONE; n];
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
        self.ways[c] = paths::ways_of(s, b, c, self.sides[c]);
    }

    /// The first deduction of the local scans, in their order (the first cell in index order
    /// for the first scan that finds one), as a scan of the whole board finds it.
    pub fn local(&mut self, s: &Shape, b: &Board, say: Option<&Numberlink>) -> Option<Deduction> {
        for (bits, &(rule, want)) in self.look.iter_mut().zip(&SCANS) {
            for (i, word) in bits.iter_mut().enumerate() {
                while *word != 0 {
                    let bit = word.trailing_zeros() as usize;
                    let c = i * 64 + bit;
                    let at = At::known(s, b, c, self.sides[c] & !b.arms[c], self.ways[c]);
                    match rule(s, b, &at, say) {
                        Some(Ok(d)) if want.is_none_or(|t| d.technique == t) => return Some(d),
                        // Nothing here (a contradiction is a bug in a technique, and not a
                        // step) until the cell or a neighbour changes.
                        _ => *word &= !(1 << bit),
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
            let (sides, cand) = (&self.sides, &self.cand);
            let w = b.words();
            let (j, bit) = (k / 64, 1u64 << (k % 64));
            // The sides path k may step by from c (`paths::moves`), from the marks kept here.
            let moves_of = |_: &mut Scratch, c: usize| {
                let arms = b.arms[c];
                let mut out = arms;
                if cand[c * w + j] & bit != 0 {
                    let mut open = sides[c] & !arms;
                    while open != 0 {
                        let i = open.trailing_zeros() as usize;
                        open &= open - 1;
                        if cand[s.nb[c][i] as usize * w + j] & bit != 0 {
                            out |= 1 << i;
                        }
                    }
                }
                out
            };
            let (found, here) = paths::room_by(s, b, k, say, x, moves_of);
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
