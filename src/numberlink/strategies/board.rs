//! What a person has pencilled in on a Numberlink board, for the strategy engine: the links
//! drawn, the pieces of path they form (kept as a union-find: each piece knows the paths it
//! could still belong to and its two extremities), and for every other cell the paths that could
//! still run through it (and, under `nikoli`, whether it may stay empty). Techniques read a
//! [`Board`]; their deductions change it; a [`Contradiction`] is what a "what if" looks for.
//! Copies are cheap (a few flat vectors), so a what-if works on its own copy.

use super::super::{Numberlink, Rules, SIDES};

/// No cell (off the board, or not an end).
pub const NONE: u32 = u32::MAX;

/// The fixed shape of a puzzle, shared by every copy of its board.
pub struct Shape {
    pub width: usize,
    pub height: usize,
    pub rules: Rules,
    /// The number of paths.
    pub paths: usize,
    /// The candidate bit that means "stays empty" (`nikoli`): bit `paths`.
    pub empty: usize,
    /// 64-bit words per cell for the candidate bits.
    pub words: usize,
    /// Each cell's neighbour across side 0..4 (up, right, down, left), or [`NONE`].
    pub nb: Vec<[u32; 4]>,
    /// The same with the cell itself in place of a missing neighbour (to read a value of the
    /// cell and its neighbours without a test per side).
    pub nb_or_self: Vec<[u32; 4]>,
    /// The cells within two steps of each cell (the cell itself where there are fewer than
    /// twelve others).
    pub ball: Vec<[u32; 13]>,
    /// The path whose end is in the cell, or [`NONE`].
    pub end: Vec<u32>,
    /// Each path's two ends.
    pub ends: Vec<(usize, usize)>,
    /// Each cell's row and column.
    pub at: Vec<(i32, i32)>,
}

impl Shape {
    pub fn new(p: &Numberlink) -> Shape {
        let n = p.cells();
        let nb: Vec<[u32; 4]> = (0..n)
            .map(|c| {
                let mut a = [NONE; 4];
                for (i, &s) in SIDES.iter().enumerate() {
                    if let Some(m) = p.neighbour(c, s) {
                        a[i] = m as u32;
                    }
                }
                a
            })
            .collect();
        let nb_or_self = nb
            .iter()
            .enumerate()
            .map(|(c, a)| a.map(|m| if m == NONE { c as u32 } else { m }))
            .collect();
        let ball = (0..n)
            .map(|c| {
                let mut a = [c as u32; 13];
                let mut len = 1;
                for &m in &nb[c] {
                    for z in
                        std::iter::once(m).chain(if m == NONE { [NONE; 4] } else { nb[m as usize] })
                    {
                        if z != NONE && !a[..len].contains(&z) {
                            a[len] = z;
                            len += 1;
                        }
                    }
                }
                a
            })
            .collect();
        let mut end = vec![NONE; n];
        for (k, &(a, b)) in p.ends.iter().enumerate() {
            end[a] = k as u32;
            end[b] = k as u32;
        }
        let paths = p.ends.len();
        Shape {
            width: p.width,
            height: p.height,
            rules: p.rules,
            paths,
            empty: paths,
            words: (paths + 1).div_ceil(64),
            nb,
            nb_or_self,
            ball,
            end,
            ends: p.ends.clone(),
            at: (0..n)
                .map(|c| ((c / p.width) as i32, (c % p.width) as i32))
                .collect(),
        }
    }

    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// The neighbour of `c` across side `i`, if any.
    #[inline]
    pub fn nb(&self, c: usize, i: usize) -> Option<usize> {
        let m = self.nb[c][i];
        (m != NONE).then_some(m as usize)
    }

    /// The neighbours of `c` with the side index they are across.
    pub fn around(&self, c: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..4).filter_map(move |i| self.nb(c, i).map(|m| (i, m)))
    }

    #[inline]
    pub fn is_end(&self, c: usize) -> bool {
        self.end[c] != NONE
    }

    /// True for a cell with only two neighbours (a corner of the board).
    pub fn is_corner(&self, c: usize) -> bool {
        self.around(c).count() == 2
    }

    /// The side index across which `m` is from `c` (they must be neighbours).
    pub fn side(&self, c: usize, m: usize) -> usize {
        (0..4)
            .find(|&i| self.nb[c][i] == m as u32)
            .expect("neighbours")
    }

    /// The square colour of a cell on a chessboard pattern (for parity).
    pub fn dark(&self, c: usize) -> bool {
        (c / self.width + c % self.width).is_multiple_of(2)
    }
}

/// Why a position is impossible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// A loose end with no way on.
    Stuck,
    /// A cell that must be covered but no path can run through.
    Uncovered,
    /// A cell with no path left.
    NoPath,
    /// A path whose two ends can no longer meet.
    Apart,
    /// Two cells of one path side by side that can not be linked (flow).
    Touching,
    /// A link that would join two paths, or close a loop.
    BadLink,
    /// An open area with too few ways in to be filled.
    Area,
    /// An open area whose checkerboard count no path through it can match.
    Parity,
}

/// A position that can not lead to a solution, with the cells that show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contradiction {
    pub why: Why,
    pub at: Vec<usize>,
    pub path: Option<usize>,
}

impl Contradiction {
    pub fn new(why: Why, at: Vec<usize>, path: Option<usize>) -> Contradiction {
        Contradiction { why, at, path }
    }
}

/// The entries of some cells of a [`Board`] ([`Board::changes`]).
#[derive(Clone, Debug, Default)]
pub struct Changes {
    /// The cells, each once.
    pub cells: Vec<u32>,
    /// Per cell: its links, and its root, next cell, size, single candidate and tip.
    small: Vec<(u8, [u32; 5])>,
    /// Per cell: its candidate words.
    cand: Vec<u64>,
}

/// How many links arm bits hold (a table: the target may have no instruction for it).
#[inline]
pub fn degree(arms: u8) -> u32 {
    const LINKS: [u8; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];
    u32::from(LINKS[usize::from(arms & 15)])
}

/// The pencil marks.
#[derive(Clone, Debug)]
pub struct Board {
    /// Links drawn, as arm bits per cell.
    pub arms: Vec<u8>,
    /// The root (a cell of the piece that stands for it) of each cell's piece of path.
    rt: Vec<u32>,
    /// The pieces' cells as circular lists: the next cell of the same piece.
    next: Vec<u32>,
    /// At a root: how many cells the piece has.
    size: Vec<u32>,
    /// Candidate bits (`words` per cell), meaningful at roots.
    cand: Vec<u64>,
    /// At a root: the only candidate left, or [`NONE`].
    one: Vec<u32>,
    /// At an extremity of a piece of path: the other extremity.
    tip: Vec<u32>,
    words: usize,
    /// Bit mask of the paths in the last word (the empty bit left out).
    last_mask: u64,
    /// While a what-if runs on this copy ([`Board::start_log`]): the cells whose entries
    /// changed, so that [`Board::restore`] puts back only those.
    log: Option<Log>,
}

/// The cells whose entries changed since the log started, each noted once.
#[derive(Clone, Debug, Default)]
struct Log {
    cells: Vec<u32>,
    /// Per cell: `mark` when it is in `cells`.
    at: Vec<u32>,
    mark: u32,
    /// What changed, per piece, since the log started ([`Board::near_changes`]).
    near: Vec<u32>,
}

/// In [`Board::near_changes`]: the whole piece of the cell changed.
pub const WHOLE: u32 = 1 << 31;

impl Log {
    /// Empties the log.
    fn clear(&mut self, n: usize) {
        self.cells.clear();
        self.near.clear();
        if self.at.len() != n || self.mark == u32::MAX {
            self.at.clear();
            self.at.resize(n, 0);
            self.mark = 0;
        }
        self.mark += 1;
    }
}

impl Board {
    /// The board before any step: ends known, every other cell open to the paths whose two
    /// ends touch the area of non-end cells it lies in (and to staying empty under `nikoli`).
    pub fn new(s: &Shape, p: &Numberlink) -> Board {
        let n = s.cells();
        let reach = super::super::model::reachable_labels(p);
        let last = s.empty / 64;
        let mut b = Board {
            arms: vec![0; n],
            rt: (0..n as u32).collect(),
            next: (0..n as u32).collect(),
            size: vec![1; n],
            cand: vec![0; n * s.words],
            one: vec![NONE; n],
            tip: (0..n as u32).collect(),
            words: s.words,
            last_mask: if last + 1 == s.words {
                !(1u64 << (s.empty % 64))
            } else {
                !0
            },
            log: None,
        };
        for (c, paths) in reach.iter().enumerate().take(n) {
            if s.is_end(c) {
                b.set_bit(c, s.end[c] as usize);
            } else {
                for &v in paths {
                    b.set_bit(c, v as usize - 1);
                }
                if s.rules == Rules::Nikoli {
                    b.set_bit(c, s.empty);
                }
            }
            b.refresh(c);
        }
        b
    }

    /// Makes this board a copy of `other` (of the same puzzle), reusing its memory.
    pub fn copy_from(&mut self, other: &Board) {
        self.arms.clone_from(&other.arms);
        self.rt.clone_from(&other.rt);
        self.next.clone_from(&other.next);
        self.size.clone_from(&other.size);
        self.cand.clone_from(&other.cand);
        self.one.clone_from(&other.one);
        self.tip.clone_from(&other.tip);
        self.words = other.words;
        self.last_mask = other.last_mask;
        let n = self.arms.len();
        if let Some(log) = &mut self.log {
            log.clear(n);
        }
    }

    /// Starts noting the cells that change, for [`Board::restore`].
    pub fn start_log(&mut self) {
        let mut log = self.log.take().unwrap_or_default();
        log.clear(self.arms.len());
        self.log = Some(log);
    }

    /// Makes this board (a copy of `other` when the log started) a copy of `other` again,
    /// putting back only the cells that changed since.
    pub fn restore(&mut self, other: &Board) {
        let Some(mut log) = self.log.take() else {
            self.copy_from(other);
            return;
        };
        let w = self.words;
        for &i in &log.cells {
            let i = i as usize;
            self.arms[i] = other.arms[i];
            self.rt[i] = other.rt[i];
            self.next[i] = other.next[i];
            self.size[i] = other.size[i];
            self.one[i] = other.one[i];
            self.tip[i] = other.tip[i];
            self.cand[i * w..(i + 1) * w].copy_from_slice(&other.cand[i * w..(i + 1) * w]);
        }
        log.clear(self.arms.len());
        self.log = Some(log);
    }

    /// The entries of the cells changed since [`Board::start_log`], to put on a copy of the
    /// same board again ([`Board::replay`]): a what-if stopped at its bound goes on from there.
    pub fn changes(&self, out: &mut Changes) {
        out.cells.clear();
        out.small.clear();
        out.cand.clear();
        out.cells.extend_from_slice(self.logged());
        let w = self.words;
        for &i in &out.cells {
            let i = i as usize;
            out.small.push((
                self.arms[i],
                [
                    self.rt[i],
                    self.next[i],
                    self.size[i],
                    self.one[i],
                    self.tip[i],
                ],
            ));
            out.cand.extend_from_slice(&self.cand[i * w..(i + 1) * w]);
        }
    }

    /// Puts the entries of [`Board::changes`] on this board (a copy of the board they were
    /// taken from, as it was when that log started), noting them for [`Board::restore`].
    pub fn replay(&mut self, ch: &Changes) {
        let w = self.words;
        for (j, (&i, &(arms, [rt, next, size, one, tip]))) in
            ch.cells.iter().zip(&ch.small).enumerate()
        {
            let i = i as usize;
            self.note(i);
            self.arms[i] = arms;
            self.rt[i] = rt;
            self.next[i] = next;
            self.size[i] = size;
            self.one[i] = one;
            self.tip[i] = tip;
            self.cand[i * w..(i + 1) * w].copy_from_slice(&ch.cand[j * w..(j + 1) * w]);
        }
    }

    /// The cells noted as changed since [`Board::start_log`], each once.
    pub fn logged(&self) -> &[u32] {
        self.log.as_ref().map_or(&[], |log| &log.cells)
    }

    /// While the log runs, in order: for each change of a piece, either the cells near which
    /// what [`Board::sides`] and [`Board::has`] read may have changed (each a cell of the
    /// piece after the change), or a cell of the piece with [`WHOLE`] set when anything of
    /// the whole piece may have (its candidates). A link whose bigger piece keeps its
    /// candidates changes, as far as those read: the two cells' links, the root of every cell
    /// of the smaller piece (hence its candidates), and which pieces the new piece touches,
    /// which matters only at its two extremities (the only cells of it not done). So it notes
    /// its two cells, the smaller piece's cells and the two extremities.
    pub fn near_changes(&self) -> &[u32] {
        self.log.as_ref().map_or(&[], |log| &log.near)
    }

    /// Notes, for [`Board::near_changes`], a change near cell `x` (or with [`WHOLE`], of its
    /// whole piece).
    #[inline]
    fn near_change(&mut self, x: u32) {
        if let Some(log) = &mut self.log {
            log.near.push(x);
        }
    }

    /// Notes that the entries of cell `i` change.
    #[inline]
    fn note(&mut self, i: usize) {
        if let Some(log) = &mut self.log {
            if log.at[i] != log.mark {
                log.at[i] = log.mark;
                log.cells.push(i as u32);
            }
        }
    }

    fn set_bit(&mut self, c: usize, k: usize) {
        let w = self.words;
        self.cand[c * w + k / 64] |= 1 << (k % 64);
    }

    /// Recomputes the single candidate of a root.
    fn refresh(&mut self, r: usize) {
        let w = self.words;
        let mut found = NONE;
        for (i, &x) in self.cand[r * w..(r + 1) * w].iter().enumerate() {
            if x == 0 {
                continue;
            }
            if found != NONE || x.count_ones() > 1 {
                self.one[r] = NONE;
                return;
            }
            found = (i * 64 + x.trailing_zeros() as usize) as u32;
        }
        self.one[r] = found;
    }

    /// 64-bit words of candidates per cell.
    pub fn words(&self) -> usize {
        self.words
    }

    /// The root of a cell's piece of path.
    #[inline]
    pub fn root(&self, c: usize) -> usize {
        self.rt[c] as usize
    }

    /// The candidate words of a cell (its piece's).
    #[inline]
    pub fn cand(&self, c: usize) -> &[u64] {
        let w = self.words;
        let r = self.root(c);
        &self.cand[r * w..(r + 1) * w]
    }

    /// True when `k` (a path, or the empty bit) is still possible in `c`.
    #[inline]
    pub fn has(&self, c: usize, k: usize) -> bool {
        self.cand[self.root(c) * self.words + k / 64] >> (k % 64) & 1 == 1
    }

    /// Calls `f` with each candidate of a cell, in order (paths, and the empty bit last),
    /// without building a list.
    #[inline]
    pub fn each_candidate(&self, c: usize, mut f: impl FnMut(usize)) {
        for (i, &w) in self.cand(c).iter().enumerate() {
            let mut x = w;
            while x != 0 {
                f(i * 64 + x.trailing_zeros() as usize);
                x &= x - 1;
            }
        }
    }

    /// The candidates of a cell as a list (paths, and the empty bit last).
    pub fn list(&self, c: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.each_candidate(c, |k| out.push(k));
        out
    }

    /// How many candidates a cell has (the empty bit included).
    pub fn count(&self, c: usize) -> u32 {
        self.cand(c).iter().map(|w| w.count_ones()).sum()
    }

    /// The only candidate of a cell, if it has one (a path, or the empty bit).
    #[inline]
    pub fn single(&self, c: usize) -> Option<usize> {
        let x = self.one[self.root(c)];
        (x != NONE).then_some(x as usize)
    }

    /// The path a cell is known to be on.
    #[inline]
    pub fn path_of(&self, s: &Shape, c: usize) -> Option<usize> {
        self.single(c).filter(|&k| k != s.empty)
    }

    /// True when the cell is known to stay empty (`nikoli`; under the other rules no cell has
    /// the empty bit, so none is, and its piece is not read).
    #[inline]
    pub fn is_empty(&self, s: &Shape, c: usize) -> bool {
        s.rules == Rules::Nikoli && self.one[self.root(c)] == s.empty as u32
    }

    /// True when the cell may stay empty (`nikoli`).
    pub fn may_be_empty(&self, s: &Shape, c: usize) -> bool {
        s.rules == Rules::Nikoli && self.has(c, s.empty)
    }

    /// True when two cells have a path in common.
    #[inline]
    pub fn share(&self, _s: &Shape, c: usize, m: usize) -> bool {
        let w = self.words;
        let (rc, rm) = (self.root(c) * w, self.root(m) * w);
        if w == 1 {
            return self.cand[rc] & self.cand[rm] & self.last_mask != 0;
        }
        (0..w).any(|j| {
            let both = self.cand[rc + j] & self.cand[rm + j];
            let both = if j + 1 == w {
                both & self.last_mask
            } else {
                both
            };
            both != 0
        })
    }

    /// The sides of `open` (arm bits; each with a neighbour) across which `c` and the
    /// neighbour have a path in common ([`Board::share`]), reading `c`'s candidates once.
    #[inline]
    pub fn sharing(&self, s: &Shape, c: usize, open: u8) -> u8 {
        let mut out = 0;
        if open == 0 {
            return out;
        }
        if self.words == 1 {
            let cc = self.cand[self.root(c)] & self.last_mask;
            for (i, &side) in SIDES.iter().enumerate() {
                if open & side != 0 && cc & self.cand[self.root(s.nb[c][i] as usize)] != 0 {
                    out |= side;
                }
            }
        } else {
            for (i, &side) in SIDES.iter().enumerate() {
                if open & side != 0 && self.share(s, c, s.nb[c][i] as usize) {
                    out |= side;
                }
            }
        }
        out
    }

    /// The links a cell has in the end, as far as known: 1 at an end, 0 when it stays empty,
    /// 2 otherwise.
    #[inline]
    pub fn need(&self, s: &Shape, c: usize) -> u32 {
        if s.is_end(c) {
            1
        } else if self.is_empty(s, c) {
            0
        } else {
            2
        }
    }

    /// How many links the cell has.
    #[inline]
    pub fn degree(&self, c: usize) -> u32 {
        degree(self.arms[c])
    }

    /// True when the cell has all the links it will have.
    #[inline]
    pub fn done(&self, s: &Shape, c: usize) -> bool {
        self.degree(c) >= self.need(s, c)
    }

    /// True for a loose end: an end not yet linked, or a cell with one link that needs two.
    #[inline]
    pub fn loose(&self, s: &Shape, c: usize) -> bool {
        !self.done(s, c) && (s.is_end(c) || self.arms[c] != 0)
    }

    /// True for a cell with no link that is not an end.
    #[inline]
    pub fn open(&self, s: &Shape, c: usize) -> bool {
        self.arms[c] == 0 && !s.is_end(c)
    }

    /// The other extremity of the piece of path whose extremity is `c`.
    pub fn other_tip(&self, c: usize) -> usize {
        self.tip[c] as usize
    }

    /// True when `c` and `m` are on one piece of path.
    pub fn same_piece(&self, c: usize, m: usize) -> bool {
        self.root(c) == self.root(m)
    }

    /// The neighbour across side `i` when `c` may still be linked to it: neither has all its
    /// links, they have a path in common, they are not on one piece already (a loop), and
    /// (flow) neither would end up beside a cell of its new piece it is not linked to.
    #[inline]
    pub fn way(&self, s: &Shape, c: usize, i: usize) -> Option<usize> {
        let m = self.way_open(s, c, i)?;
        self.share(s, c, m).then_some(m)
    }

    /// [`Board::way`] without looking at the paths the two cells could be on.
    #[inline]
    pub fn way_open(&self, s: &Shape, c: usize, i: usize) -> Option<usize> {
        let m = s.nb(c, i)?;
        if self.arms[c] & SIDES[i] != 0
            || self.done(s, c)
            || self.done(s, m)
            || self.is_empty(s, c)
            || self.is_empty(s, m)
        {
            return None;
        }
        let (rc, rm) = (self.root(c), self.root(m));
        if rc == rm {
            return None;
        }
        if s.rules == Rules::Flow
            && (self.touches(s, c, m, rm)
                || self.touches(s, m, c, rc)
                || self.pieces_touch(s, c, m, rc, rm))
        {
            return None;
        }
        Some(m)
    }

    /// The sides by which `c` is linked or may still be linked (any path): its links and
    /// every side [`Board::way_open`] allows, worked out in one go (what is known of `c`
    /// itself, and of each neighbour, is read once for the four sides).
    #[inline]
    pub fn sides(&self, s: &Shape, c: usize) -> u8 {
        let arms = self.arms[c];
        // A cell that stays empty needs no link: it is done.
        let need_c = self.need(s, c);
        let deg_c = degree(arms);
        if deg_c >= need_c {
            return arms;
        }
        if s.rules == Rules::Flow {
            return self.sides_flow(s, c, arms, deg_c + 1 >= need_c);
        }
        let rc = self.rt[c];
        let nbc = s.nb[c];
        let mut out = arms;
        for (i, &side) in SIDES.iter().enumerate() {
            let m = nbc[i];
            if m == NONE || arms & side != 0 {
                continue;
            }
            let m = m as usize;
            if self.done(s, m) || self.rt[m] == rc {
                continue;
            }
            out |= side;
        }
        out
    }

    /// [`Board::sides`] under `flow` for a cell `c` that is not done (`full_after`: it is
    /// after one more link): besides the links a cell may still take, neither cell may end up
    /// beside a cell of its new piece, or beside a cell of its path once it has all its links
    /// ([`Board::touches`], [`Board::pieces_touch`]).
    #[inline]
    fn sides_flow(&self, s: &Shape, c: usize, arms: u8, full_after: bool) -> u8 {
        let rc = self.rt[c];
        let nbc = s.nb[c];
        // Per side not linked, with a neighbour: the neighbour's root, and (when `c` is full
        // after one more link) that piece's single candidate; [`NONE`] elsewhere (it matches
        // no root, and no path looked for). The sides to look at are those whose neighbour
        // is on another piece (bit `i` is side `i`, as in `SIDES`).
        let mut zr = [NONE; 4];
        let mut zo = [NONE; 4];
        let mut look = 0u8;
        for j in 0..4 {
            let m = nbc[j];
            if m != NONE && arms & SIDES[j] == 0 {
                let r = self.rt[m as usize];
                zr[j] = r;
                if r != rc {
                    look |= SIDES[j];
                }
            }
        }
        if look == 0 {
            return arms;
        }
        if full_after {
            for j in 0..4 {
                if zr[j] != NONE {
                    zo[j] = self.one[zr[j] as usize];
                }
            }
        }
        let piece_c = arms != 0;
        // `pieces_touch` looks only when both pieces have two cells or more.
        let long_c = self.size[rc as usize] >= 2;
        let mut out = arms;
        while look != 0 {
            let i = look.trailing_zeros() as usize & 3;
            look &= look - 1;
            let rm = zr[i];
            let m = nbc[i] as usize;
            let am = self.arms[m];
            // Flow: an end needs one link, any other cell two.
            let end_m = s.is_end(m);
            let piece_m = am != 0;
            let done_m = if end_m {
                piece_m
            } else {
                am & am.wrapping_sub(1) != 0
            };
            debug_assert_eq!(done_m, self.done(s, m));
            if done_m {
                continue;
            }
            // `touches(c, m, rm)` and `touches(m, c, rc)`, sharing what they read.
            let m_full_after = end_m || piece_m;
            let path = if full_after || m_full_after {
                self.common_single(rc as usize, rm as usize)
            } else {
                NONE
            };
            let pc = if full_after { path } else { NONE };
            let c_touches = (piece_m || pc != NONE)
                && (0..4).any(|j| j != i && (piece_m && zr[j] == rm || pc != NONE && zo[j] == pc));
            debug_assert_eq!(c_touches, self.touches(s, c, m, rm as usize));
            if c_touches {
                continue;
            }
            let pm = if m_full_after { path } else { NONE };
            let back = (i + 2) % 4;
            let m_touches = (piece_c || pm != NONE)
                && (0..4).any(|j| {
                    let z = s.nb[m][j];
                    if j == back || z == NONE || am & SIDES[j] != 0 {
                        return false;
                    }
                    let rz = self.rt[z as usize];
                    piece_c && rz == rc || pm != NONE && self.one[rz as usize] == pm
                });
            debug_assert_eq!(m_touches, self.touches(s, m, c, rc as usize));
            if m_touches
                || long_c
                    && self.size[rm as usize] >= 2
                    && self.pieces_touch(s, c, m, rc as usize, rm as usize)
            {
                continue;
            }
            out |= 1 << i;
        }
        out
    }

    /// Flow: two pieces of several cells each, joined by the link `c`-`m`, that touch
    /// somewhere else (the path would run alongside itself there).
    fn pieces_touch(&self, s: &Shape, c: usize, m: usize, rc: usize, rm: usize) -> bool {
        if self.size[rc] < 2 || self.size[rm] < 2 {
            return false; // a one-cell piece: `touches` has looked
        }
        let (small, other) = if self.size[rc] <= self.size[rm] {
            (rc, rm)
        } else {
            (rm, rc)
        };
        let mut x = small;
        loop {
            for j in 0..4 {
                let Some(y) = s.nb(x, j) else { continue };
                if self.rt[y] as usize == other && !(x == c && y == m || x == m && y == c) {
                    return true;
                }
            }
            x = self.next[x] as usize;
            if x == small {
                return false;
            }
        }
    }

    /// Flow: linking `c` to `m` (whose piece has root `rm`) would leave `c` beside another cell
    /// of that piece, or (when `c` then has all its links) beside another cell known to be on
    /// the piece's path.
    #[inline]
    fn touches(&self, s: &Shape, c: usize, m: usize, rm: usize) -> bool {
        let full_after = self.degree(c) + 1 >= self.need(s, c);
        let piece = self.arms[m] != 0;
        if !full_after && !piece {
            return false;
        }
        let path = if full_after {
            self.common_single(self.root(c), rm)
        } else {
            NONE
        };
        if !piece && path == NONE {
            return false;
        }
        (0..4).any(|j| {
            let z = s.nb[c][j];
            if z == NONE || z as usize == m || self.arms[c] & SIDES[j] != 0 {
                return false;
            }
            let rz = self.rt[z as usize];
            piece && rz as usize == rm || path != NONE && self.one[rz as usize] == path
        })
    }

    /// The only candidate two pieces have in common, or [`NONE`].
    #[inline(always)]
    fn common_single(&self, ra: usize, rb: usize) -> u32 {
        if self.words == 1 {
            let x = self.cand[ra] & self.cand[rb];
            return if x.is_power_of_two() {
                x.trailing_zeros()
            } else {
                NONE
            };
        }
        self.common_single_wide(ra, rb)
    }

    /// [`Board::common_single`] with more than one word of candidates.
    fn common_single_wide(&self, ra: usize, rb: usize) -> u32 {
        let w = self.words;
        let mut only = NONE;
        for j in 0..w {
            let x = self.cand[ra * w + j] & self.cand[rb * w + j];
            if x == 0 {
                continue;
            }
            if only != NONE || !x.is_power_of_two() {
                return NONE;
            }
            only = (j * 64) as u32 + x.trailing_zeros();
        }
        only
    }

    /// The sides by which `c` may still be linked (any path, [`Board::way_open`]), as arm
    /// bits.
    #[inline]
    pub fn open_mask(&self, s: &Shape, c: usize) -> u8 {
        let mut m = 0;
        for (i, &side) in SIDES.iter().enumerate() {
            if self.way_open(s, c, i).is_some() {
                m |= side;
            }
        }
        m
    }

    /// The sides by which `c` may still be linked ([`Board::way`]), as arm bits.
    #[inline]
    pub fn way_mask(&self, s: &Shape, c: usize) -> u8 {
        let mut m = 0;
        for (i, &side) in SIDES.iter().enumerate() {
            if self.way_open(s, c, i).is_some_and(|x| self.share(s, c, x)) {
                m |= side;
            }
        }
        m
    }

    /// [`Board::way`] for path `k`: both cells may be on `k`.
    #[inline]
    pub fn way_for(&self, s: &Shape, c: usize, i: usize, k: usize) -> Option<usize> {
        let m = s.nb(c, i)?;
        if !self.has(c, k) || !self.has(m, k) {
            return None;
        }
        self.way_open(s, c, i)
    }

    /// The neighbours `c` may still be linked to.
    pub fn ways(&self, s: &Shape, c: usize) -> Vec<usize> {
        (0..4).filter_map(|i| self.way(s, c, i)).collect()
    }

    /// How many neighbours `c` may still be linked to.
    pub fn way_count(&self, s: &Shape, c: usize) -> usize {
        (0..4).filter(|&i| self.way(s, c, i).is_some()).count()
    }

    /// The cells of the piece of path through `c`, from one extremity to the other.
    pub fn piece(&self, s: &Shape, c: usize) -> Vec<usize> {
        if self.arms[c] == 0 {
            return vec![c];
        }
        // Walk to one extremity, then along to the other.
        let start = self.extremity(s, c);
        let mut out = vec![start];
        let mut prev = usize::MAX;
        let mut at = start;
        loop {
            let next = self.linked_beyond(s, at, prev);
            match next {
                Some(m) => {
                    prev = at;
                    at = m;
                    out.push(m);
                }
                None => break,
            }
        }
        out
    }

    /// The neighbour `at` is linked to other than `prev`, if any (a step along a piece).
    fn linked_beyond(&self, s: &Shape, at: usize, prev: usize) -> Option<usize> {
        s.around(at)
            .find(|&(i, m)| self.arms[at] & SIDES[i] != 0 && m != prev)
            .map(|(_, m)| m)
    }

    /// An extremity of the piece through `c`.
    fn extremity(&self, s: &Shape, c: usize) -> usize {
        if self.degree(c) <= 1 {
            return c;
        }
        let mut prev = usize::MAX;
        let mut at = c;
        loop {
            let next = self.linked_beyond(s, at, prev);
            match next {
                Some(m) if m != c => {
                    prev = at;
                    at = m;
                }
                _ => return at,
            }
        }
    }

    /// Draws the link between neighbours `c` and `m`: their pieces become one, with the paths
    /// both could be on.
    pub fn link(&mut self, s: &Shape, c: usize, m: usize) -> Result<(), Contradiction> {
        let i = s.side(c, m);
        if self.arms[c] & SIDES[i] != 0 {
            return Ok(());
        }
        if self.way(s, c, i).is_none() {
            return Err(Contradiction::new(Why::BadLink, vec![c, m], None));
        }
        let a = self.tip[c] as usize;
        let b = self.tip[m] as usize;
        self.note(c);
        self.note(m);
        self.note(a);
        self.note(b);
        self.arms[c] |= SIDES[i];
        self.arms[m] |= SIDES[(i + 2) % 4];
        let (rc, rm) = (self.root(c), self.root(m));
        let w = self.words;
        let (big, small) = if self.size[rc] >= self.size[rm] {
            (rc, rm)
        } else {
            (rm, rc)
        };
        // Relabel the smaller piece and splice the two member lists.
        self.note(big);
        // (Each cell once: `a` is `c` and `b` is `m` at a one-cell piece.)
        self.near_change(c as u32);
        self.near_change(m as u32);
        for t in [a, b] {
            if t != c && t != m {
                self.near_change(t as u32);
            }
        }
        let mut x = small;
        loop {
            self.note(x);
            if x != c && x != m && x != a && x != b {
                self.near_change(x as u32);
            }
            self.rt[x] = big as u32;
            x = self.next[x] as usize;
            if x == small {
                break;
            }
        }
        self.next.swap(big, small);
        self.size[big] += self.size[small];
        let mut any = false;
        let mut same = true;
        for j in 0..w {
            let old = self.cand[big * w + j];
            let v = old & self.cand[small * w + j];
            same &= v == old;
            self.cand[big * w + j] = v;
        }
        // A linked cell is on a path: it does not stay empty.
        if s.rules == Rules::Nikoli {
            let old = self.cand[big * w + s.empty / 64];
            let v = old & !(1u64 << (s.empty % 64));
            same &= v == old;
            self.cand[big * w + s.empty / 64] = v;
        }
        if !same {
            self.near_change(big as u32 | WHOLE);
        }
        for j in 0..w {
            any |= self.cand[big * w + j] != 0;
        }
        self.refresh(big);
        self.tip[a] = b as u32;
        self.tip[b] = a as u32;
        if !any {
            return Err(Contradiction::new(Why::BadLink, vec![c, m], None));
        }
        Ok(())
    }

    /// How many cells the piece through `c` has.
    pub fn piece_size(&self, c: usize) -> usize {
        self.size[self.root(c)] as usize
    }

    /// The cells of the piece through `c`, in no particular order.
    pub fn members(&self, c: usize) -> Vec<usize> {
        let mut out = vec![c];
        let mut x = self.next[c] as usize;
        while x != c {
            out.push(x);
            x = self.next[x] as usize;
        }
        out
    }

    /// Calls `f` with every cell of the piece through `c`.
    #[inline]
    pub fn each_member(&self, c: usize, mut f: impl FnMut(usize)) {
        let mut x = c;
        loop {
            f(x);
            x = self.next[x] as usize;
            if x == c {
                return;
            }
        }
    }

    /// Removes candidate `k` from a cell (and its piece). Returns whether anything changed.
    pub fn remove(&mut self, c: usize, k: usize) -> Result<bool, Contradiction> {
        let w = self.words;
        let r = self.root(c);
        let bit = 1u64 << (k % 64);
        if self.cand[r * w + k / 64] & bit == 0 {
            return Ok(false);
        }
        self.note(r);
        self.near_change(r as u32 | WHOLE);
        self.cand[r * w + k / 64] &= !bit;
        self.refresh(r);
        if self.cand[r * w..(r + 1) * w].iter().all(|&x| x == 0) {
            return Err(Contradiction::new(Why::NoPath, vec![c], None));
        }
        Ok(true)
    }

    /// Keeps only the candidates `ks` (those it has) in a cell and its piece: what removing
    /// each other candidate in turn with [`Board::remove`] does, in one pass.
    pub fn keep_only(&mut self, c: usize, ks: &[usize]) -> Result<bool, Contradiction> {
        let w = self.words;
        let r = self.root(c);
        let mask = |j: usize| {
            ks.iter()
                .filter(|&&k| k / 64 == j)
                .fold(0u64, |m, &k| m | 1 << (k % 64))
        };
        if (0..w).all(|j| self.cand[r * w + j] & !mask(j) == 0) {
            return Ok(false);
        }
        self.note(r);
        self.near_change(r as u32 | WHOLE);
        for j in 0..w {
            self.cand[r * w + j] &= mask(j);
        }
        self.refresh(r);
        if self.cand[r * w..(r + 1) * w].iter().all(|&x| x == 0) {
            return Err(Contradiction::new(Why::NoPath, vec![c], None));
        }
        Ok(true)
    }

    /// Keeps only candidate `k` in a cell (and its piece).
    pub fn set(&mut self, c: usize, k: usize) -> Result<bool, Contradiction> {
        if !self.has(c, k) {
            return Err(Contradiction::new(Why::NoPath, vec![c], None));
        }
        let w = self.words;
        let r = self.root(c);
        self.note(r);
        self.near_change(r as u32 | WHOLE);
        let changed = self.one[r] != k as u32;
        for j in 0..w {
            self.cand[r * w + j] = if j == k / 64 { 1u64 << (k % 64) } else { 0 };
        }
        self.one[r] = k as u32;
        Ok(changed)
    }

    /// True when every path joins its ends (and, where cells must be covered, every cell is on
    /// one).
    pub fn solved(&self, s: &Shape) -> bool {
        s.ends.iter().all(|&(a, b)| self.same_piece(a, b))
            && (s.rules == Rules::Nikoli || (0..s.cells()).all(|c| self.done(s, c)))
    }
}
