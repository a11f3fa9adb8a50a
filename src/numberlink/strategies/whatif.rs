//! The "what if": give a cell to a path (or to none of some paths, or draw a link from a loose
//! end, or leave a cell empty) on a copy of the board, let the easier techniques run, and when
//! they reach a contradiction, the opposite holds. The length of a what-if is the number of
//! deductions the easier techniques took to get there; the engine looks for the shortest
//! (trying every assumption with a small bound first, then larger ones, up to
//! [`MAX_LENGTH`]), and rates it by that length as Sudoku's forcing chains are rated. A cell
//! refuted for one path is tried for more at once ("on path 3, 5 or 7") when the same bound
//! refutes them together.
//!
//! The easier techniques run here as propagation: a queue of cells to look at again after each
//! deduction (the cells it touched and their neighbours), then the whole-board techniques
//! (reach, areas) for the paths and areas the deductions touched.
//!
//! A search looks at the loose ends first, then beside the paths drawn, then at every cell:
//! beside the paths and at every cell, the short what-ifs first (up to [`SHORT`] deductions),
//! and only then the longer ones, in the same order. It finds every assumption refuted at the
//! shortest length, and keeps those refuted within the round's bound too, though none past
//! the expert level unless the shortest is past it ([`keep_up_to`]); the engine takes them one
//! at a time, shortest first ([`Pending`]), each tested again on the board of its turn, before
//! it searches again. (Until the thirteenth round a search tried every bound beside the paths
//! before any cell elsewhere, and kept the shortest only: #160 took 1.16x the instructions;
//! see BENCHMARKS.md.)
//!
//! The runs of one board share their work: each runs on one copy that it puts back as it was
//! (only the cells it changed, [`Board::restore`]), and reads the sides each cell may be
//! linked by as earlier runs worked them out, except near a piece of path it changed
//! ([`Scratch`]). A search tries first what the last search refuted, so that a short
//! refutation bounds the other runs early. A run stopped at a round's bound (a cell's, or
//! one of a loose end's ways) is kept ([`Paused`]) and goes on from there in the next round,
//! with the same deductions as a run from the start.
//!
//! Searches on later boards share their work too ([`Carry`]): an assumption whose run ended
//! without a contradiction on an earlier board is not run again while no cell near what it
//! changed has changed since (one that stopped at its bound, not below that bound). This is
//! the one place where a shorter what-if can be missed (one turned by a whole-board technique
//! far from its cells); see [`super::carry`].

use super::board::{Board, Changes, Contradiction, Shape, Why, NONE};
use super::carry::{Carry, Outcome};
use super::paths::Scratch;
use super::{apply, areas, describe_contradiction, local, name, path_name, paths};
use super::{Deduction, Technique};
use crate::numberlink::{Numberlink, Rules};
use std::collections::VecDeque;

/// The longest what-if looked for (in deductions).
pub const MAX_LENGTH: usize = 400;

/// The bounds tried in turn: every assumption at the first, then the second...
const BOUNDS: [usize; 6] = [4, 10, 25, 60, 150, MAX_LENGTH];

/// The longest what-if looked for beside the paths drawn ([`Reach::Near`]) before every cell
/// is tried as far ([`Reach::Wide`]); only then are the longer ones looked for, beside the
/// paths first (the bounds of [`BOUNDS`] above it). A short what-if anywhere comes before a
/// long one beside a path.
const SHORT: usize = 10;

/// The longest what-if of the expert level as docs/numberlink.md gives it (rated 6.0, see
/// [`super::what_if_rating`]; rounded to a tenth, 17 deductions rate 6.0 too).
const EXPERT: usize = 16;

/// How long a what-if a round keeps once `best` is the shortest it found at `bound`: every
/// one refuted within the round's bound, but none past the expert level unless the shortest
/// is past it already. (A search then serves several steps; the runs go on to this length
/// instead of stopping at the shortest.)
fn keep_up_to(best: usize, bound: usize) -> usize {
    if best > EXPERT {
        bound
    } else {
        bound.min(EXPERT)
    }
}

/// What a what-if assumes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Assume {
    /// The cell is on the path (or, for the empty bit, stays empty): what a search tries,
    /// without a list to allocate.
    On(usize, usize),
    /// The cell is on one of these paths (or, for the empty bit, stays empty).
    Among(usize, Vec<usize>),
    /// The cell is not on the path (or, for the empty bit, is on some path).
    Not(usize, usize),
    /// The loose end is linked to the neighbour.
    Link(usize, usize),
}

impl Assume {
    /// For "on one of these paths" (one or more): the cell and the paths.
    pub fn cell_on(&self) -> Option<(&usize, &[usize])> {
        match self {
            Assume::On(c, k) => Some((c, std::slice::from_ref(k))),
            Assume::Among(c, ks) => Some((c, ks)),
            _ => None,
        }
    }
}

/// The outcome of running the easier techniques on an assumption.
pub struct Run {
    /// Deductions made (up to the contradiction, if any).
    pub len: usize,
    pub contradiction: Option<Contradiction>,
    /// The deductions, when traced.
    pub trace: Vec<Deduction>,
    /// True when the run stopped at its bound, undecided.
    pub cut: bool,
}

/// Buffers a run needs, kept from run to run.
pub struct Work {
    board: Option<Board>,
    queued: Vec<bool>,
    q: VecDeque<usize>,
    touched: Vec<usize>,
    /// Per path, one bit (in the candidate words' layout): its room may have changed since its
    /// ends were last seen to meet.
    dirty: Vec<u64>,
    /// The bits of the paths in those words (not the empty bit).
    path_bits: Vec<u64>,
    scratch: Scratch,
    /// Ways found between each path's ends (see [`Routes`]).
    routes: Routes,
    /// Cell lists of a run, kept to save allocating them at each deduction.
    cells: Vec<usize>,
    roots: Vec<usize>,
    near: Vec<usize>,
    /// Per cell: the last deduction (counted in `tick`) whose cells listed it, to look at each
    /// cell of a deduction once.
    listed: Vec<u32>,
    tick: u32,
    /// The paths an assumption takes from its cells.
    lost: Vec<usize>,
    /// The assumptions the last search refuted, with their lengths: tried first in the next.
    hints: Hints,
    /// How runs of earlier searches ended, while nothing near them changed.
    carry: Carry,
    /// The slots a search tried at a narrower reach, and which are set (see [`search`]).
    done: Vec<bool>,
    done_set: Vec<usize>,
    /// The cells whose marks the last run's deductions changed (see [`Carry`]).
    footprint: Vec<u32>,
    /// The same for the run going on (kept in [`Paused`] when it pauses).
    marked: Vec<u32>,
    /// True when a run stopped at its bound is to be kept in `paused`.
    pause: bool,
    paused: Option<Paused>,
    /// Paused runs no longer needed, kept for their memory (a search pauses thousands).
    spare: Vec<Paused>,
    /// The lists of the stages of past searches, kept for their memory.
    stages: Vec<Stage>,
    /// True when the open areas of the what-if's board say nothing (set by [`what_if`]).
    areas_quiet: bool,
    /// For a run that assumes something of an open cell's paths: the cell and the sides it
    /// could be linked by on the what-if's board ([`Board::way`]), to see whether the
    /// assumption alone left the open areas as they were ([`propagate`]).
    probe: Option<(usize, u8)>,
}

/// A run stopped at its bound, kept to go on from where it stopped when a later round of the
/// same search gives it a larger bound ([`resume`]): the entries of the cells it changed and
/// the propagation's queue. Going on gives the same deductions as running again from the
/// start, without making the first ones again.
#[derive(Default)]
pub struct Paused {
    len: usize,
    board: Changes,
    q: Vec<u32>,
    dirty: Vec<u64>,
    touched: Vec<u32>,
    marked: Vec<u32>,
}

/// The assumptions the last search refuted, with their lengths, by their place in the
/// carry ([`Carry::slot`]: every assumption a search lists has one).
#[derive(Default)]
struct Hints {
    /// Per slot: the length, or `usize::MAX` for an assumption not refuted.
    len: Vec<usize>,
    /// The slots set.
    set: Vec<usize>,
}

impl Hints {
    /// The length slot `i`'s assumption was refuted at, or `usize::MAX`.
    fn get(&self, i: usize) -> usize {
        self.len.get(i).copied().unwrap_or(usize::MAX)
    }

    fn insert(&mut self, s: &Shape, i: usize, len: usize) {
        if self.len.len() != Carry::slots(s) {
            self.len = vec![usize::MAX; Carry::slots(s)];
        }
        self.len[i] = len;
        self.set.push(i);
    }

    fn clear(&mut self) {
        for i in self.set.drain(..) {
            self.len[i] = usize::MAX;
        }
    }
}

/// Appends the cells whose marks a deduction changes ([`Deduction::cells_changed`]).
fn changed(d: &Deduction, out: &mut Vec<usize>) {
    for &(c, m) in &d.links {
        out.extend([c, m]);
    }
    out.extend(d.places.iter().map(|&(c, _)| c));
    out.extend(d.elims.iter().map(|&(c, _)| c));
}

/// A way between the two ends of each path, kept so that the check that the ends can still
/// meet is only made again when a deduction touches a cell of that way (or a neighbour).
/// The ways found on the board of a search serve every run of that search.
#[derive(Default)]
struct Routes {
    /// On the board of the current what-if (set by [`what_if`]): a way per path.
    base: Vec<Vec<u32>>,
    /// Per path and cell (`k * cells + c`): the cell's place in the path's way in `base`, or
    /// [`NONE`] (the ways `ends_meet` finds pass a cell once).
    place: Vec<u32>,
    /// Per path, the way checked during the current run (see [`Own`]).
    own: Vec<Own>,
    /// Paths with a way checked in this run.
    owned: Vec<usize>,
    /// Per cell: the count of deductions when it last changed in this run (a way is touched
    /// where a cell of it or a neighbour changed: that is looked up when a way is checked).
    stamp: Vec<u32>,
    stamped: Vec<usize>,
}

/// A path's way as checked in the current run: the deduction count when it was last seen to
/// hold (`None`: not checked in this run), and whether it is still the way of `base` (most
/// checks find it whole: it is then not copied) or one of its own, kept in `way` (whose
/// memory is kept from run to run).
#[derive(Clone, Default)]
struct Own {
    since: Option<u32>,
    is_base: bool,
    way: Vec<u32>,
    /// The [`Scratch`] epoch of that check.
    epoch: u64,
}

impl Routes {
    /// Forgets what the last run did.
    fn reset(&mut self, s: &Shape) {
        if self.own.len() != s.paths {
            self.own = vec![Own::default(); s.paths];
            self.stamp = vec![0; s.cells()];
        }
        for k in self.owned.drain(..) {
            self.own[k].since = None;
        }
        for c in self.stamped.drain(..) {
            self.stamp[c] = 0;
        }
    }

    /// Notes that a cell changed at deduction `t`.
    fn touch(&mut self, c: usize, t: u32) {
        if self.stamp[c] == 0 {
            self.stamped.push(c);
        }
        self.stamp[c] = t;
    }

    /// The way known for path `k` in this run and since when it held (0: the base's).
    fn way(&self, k: usize) -> (u32, &[u32]) {
        let o = &self.own[k];
        let base = self.base.get(k).map_or(&[][..], |w| &w[..]);
        match o.since {
            Some(t) if o.is_base => (t, base),
            Some(t) => (t, &o.way),
            None => (0, base),
        }
    }

    /// True when a way known for path `k` has not been touched since it was found: no cell of
    /// it or beside it changed since. (A way of the run's own that is empty was checked with
    /// the ends joined.)
    fn holds(&self, s: &Shape, k: usize) -> bool {
        let (since, way) = self.way(k);
        let on_base = self.own[k].since.is_none() || self.own[k].is_base;
        if way.is_empty() && on_base {
            return false;
        }
        // (`nb_or_self` holds the cell itself for a missing neighbour.)
        let quiet = |c: usize| {
            self.stamp[c] <= since
                && s.nb_or_self[c]
                    .iter()
                    .all(|&m| self.stamp[m as usize] <= since)
        };
        if on_base && self.stamped.len() < way.len() {
            // Fewer cells changed than the way has: look them and their neighbours up in it.
            let n = self.stamp.len();
            let place = &self.place[k * n..(k + 1) * n];
            let holds = self.stamped.iter().all(|&c| {
                self.stamp[c] <= since
                    || place[c] == NONE
                        && s.nb_or_self[c].iter().all(|&m| place[m as usize] == NONE)
            });
            debug_assert_eq!(holds, way.iter().all(|&c| quiet(c as usize)));
            return holds;
        }
        way.iter().all(|&c| quiet(c as usize))
    }

    /// Takes the places of the ways of `base` out of `place` (before the ways change).
    fn unplace_base(&mut self, s: &Shape) {
        let n = s.cells();
        if self.place.len() == s.paths * n {
            for (k, way) in self.base.iter().enumerate() {
                for &c in way {
                    self.place[k * n + c as usize] = NONE;
                }
            }
        }
    }

    /// Puts the ways of `base` in `place` (the places of the ways before taken out,
    /// [`Routes::unplace_base`]).
    fn place_base(&mut self, s: &Shape) {
        let n = s.cells();
        if self.place.len() != s.paths * n {
            self.place = vec![NONE; s.paths * n];
        }
        for (k, way) in self.base.iter().enumerate() {
            for (i, &c) in way.iter().enumerate() {
                debug_assert_eq!(self.place[k * n + c as usize], NONE, "a way passes once");
                self.place[k * n + c as usize] = i as u32;
            }
        }
    }
}

impl Work {
    /// Makes the board the runs work on a copy of `b`, which each run puts back as it was.
    fn sync(&mut self, b: &Board) {
        match &mut self.board {
            Some(c) => c.copy_from(b),
            None => self.board = Some(b.clone()),
        }
        if let Some(c) = &mut self.board {
            c.start_log();
        }
    }

    pub fn new(s: &Shape) -> Work {
        Work {
            board: None,
            queued: vec![false; s.cells()],
            q: VecDeque::new(),
            touched: Vec::new(),
            dirty: vec![0; s.words],
            path_bits: (0..s.words)
                .map(|j| match s.paths.saturating_sub(j * 64) {
                    0 => 0,
                    x if x >= 64 => !0,
                    x => (1 << x) - 1,
                })
                .collect(),
            scratch: Scratch::default(),
            routes: Routes::default(),
            cells: Vec::new(),
            roots: Vec::new(),
            near: Vec::new(),
            listed: vec![0; s.cells()],
            tick: 0,
            lost: Vec::new(),
            hints: Hints::default(),
            carry: Carry::default(),
            done: Vec::new(),
            done_set: Vec::new(),
            footprint: Vec::new(),
            marked: Vec::new(),
            pause: false,
            paused: None,
            spare: Vec::new(),
            stages: Vec::new(),
            areas_quiet: false,
            probe: None,
        }
    }
}

/// Propagates the easier techniques on `b` from the cells in `start` (whose paths in
/// `start_paths` may have lost room), or from where a paused run stopped (`b` then holds its
/// board), until a contradiction, a fixpoint, or `bound` deductions.
pub fn propagate(
    s: &Shape,
    b: &mut Board,
    w: &mut Work,
    (start, start_paths): (&[usize], &[usize]),
    from: Option<&Paused>,
    bound: usize,
    trace: bool,
) -> Run {
    let mut run = Run {
        len: from.map_or(0, |p| p.len),
        contradiction: None,
        trace: Vec::new(),
        cut: false,
    };
    for &c in w.q.iter() {
        w.queued[c] = false;
    }
    w.q.clear();
    w.touched.clear();
    w.dirty.iter_mut().for_each(|d| *d = 0);
    w.routes.reset(s);
    let Work {
        queued,
        q,
        touched,
        dirty,
        path_bits,
        scratch,
        routes,
        cells,
        roots,
        near,
        listed,
        tick,
        pause,
        paused,
        spare,
        marked,
        probe,
        ..
    } = w;
    if let Some(p) = from {
        marked.clear();
        marked.extend_from_slice(&p.marked);
    }
    fn push(q: &mut VecDeque<usize>, queued: &mut [bool], c: usize) {
        if !queued[c] {
            queued[c] = true;
            q.push_back(c);
        }
    }
    // Deduction counts start at 1 for the assumption itself.
    let touch = |routes: &mut Routes, c: usize, t: u32| routes.touch(c, t);
    let start = if from.is_some() { &[][..] } else { start };
    let start_paths = if from.is_some() { &[][..] } else { start_paths };
    for &c in start {
        push(q, queued, c);
        for (_, m) in s.around(c) {
            push(q, queued, m);
        }
        touched.push(c);
        touch(routes, c, 1);
    }
    for &k in start_paths {
        if k < s.paths {
            dirty[k / 64] |= 1 << (k % 64);
        }
    }
    if let Some(p) = from {
        // The sides and ways near every cell the run changed are worked out again, and the
        // paths whose way crossed them are looked at again: that only repeats work.
        // (Each piece once: marking a piece marks all its cells.)
        roots.clear();
        for &c in &p.board.cells {
            roots.push(b.root(c as usize));
            touch(routes, c as usize, 1);
        }
        crate::sort::all(roots);
        roots.dedup();
        for &r in roots.iter() {
            scratch.changed(s, b, r);
        }
        for &c in &p.q {
            push(q, queued, c as usize);
        }
        dirty.copy_from_slice(&p.dirty);
        touched.extend(p.touched.iter().map(|&c| c as usize));
    }
    scratch.prepare(s, b);
    loop {
        let mut found: Option<Result<Deduction, Contradiction>> = None;
        'cells: while let Some(c) = q.pop_front() {
            queued[c] = false;
            let sides = scratch.sides(s, b, c);
            let ways = paths::ways_of(s, b, c, sides);
            let open = sides & !b.arms[c];
            let at = local::At::known(s, b, c, open, ways);
            let here = local::first(s, b, &at, None);
            debug_assert!(
                local::same(
                    &here,
                    &local::LOCAL.iter().find_map(|rule| rule(s, b, &at, None))
                ),
                "the local techniques' first answer, calling only those that apply"
            );
            // Moved only when there is something: most cells give nothing, and moving the
            // answer each time copied it.
            if here.is_some() {
                found = here;
                break 'cells;
            }
        }
        if found.is_none() {
            // An assumption that only took paths from an open cell, with no deduction after
            // it, that left the cell's ways as they were, left the open areas as they were on
            // the what-if's board, where they say nothing: the same areas with the same loose
            // ends, the cell's fewer candidates only. Their check is skipped (it would find
            // nothing).
            let areas = match *probe {
                Some((x, ways)) if run.len == 0 && from.is_none() => {
                    let sides = scratch.sides(s, b, x);
                    paths::ways_of(s, b, x, sides) != ways
                }
                _ => true,
            };
            found = global(
                s,
                b,
                dirty,
                routes,
                run.len as u32 + 1,
                (touched, areas.then_some(&mut *near)),
                scratch,
            );
            touched.clear();
        }
        let d = match found {
            None => return run,
            Some(Err(x)) => {
                run.len += 1;
                run.contradiction = Some(x);
                return run;
            }
            Some(Ok(d)) => d,
        };
        run.len += 1;
        // The paths whose room may change, and every cell the deduction touches, are looked
        // at again.
        for &(_, k) in &d.elims {
            if k < s.paths {
                dirty[k / 64] |= 1 << (k % 64);
            }
        }
        for &c in d
            .places
            .iter()
            .map(|(c, _)| c)
            .chain(d.links.iter().flat_map(|(c, m)| [c, m]))
        {
            for ((d, &word), &bits) in dirty.iter_mut().zip(b.cand(c)).zip(path_bits.iter()) {
                *d |= word & bits;
            }
        }
        cells.clear();
        changed(&d, cells);
        if s.rules == Rules::Flow {
            for &(c, m) in &d.links {
                let small = if b.piece_size(c) <= b.piece_size(m) {
                    c
                } else {
                    m
                };
                b.each_member(small, |x| cells.push(x));
            }
        }
        for &(c, m) in &d.links {
            cells.push(b.other_tip(c));
            cells.push(b.other_tip(m));
        }
        if let Err(x) = apply(s, b, &d) {
            run.contradiction = Some(x);
            if trace {
                run.trace.push(d);
            }
            return run;
        }
        // The pieces the deduction changed (once each: pieces only grow).
        roots.clear();
        changed(&d, roots);
        marked.extend(roots.iter().map(|&c| c as u32));
        for r in roots.iter_mut() {
            *r = b.root(*r);
        }
        crate::sort::all(roots);
        roots.dedup();
        let only_candidates = d.links.is_empty() && d.places.is_empty();
        for &r in roots.iter() {
            if only_candidates && b.single(r).is_none() {
                scratch.changed_candidates(s, b, r);
            } else {
                scratch.changed(s, b, r);
            }
        }
        scratch.prepare(s, b);
        // Each cell once (the first time it is listed: the queue's order is the same).
        if *tick == u32::MAX {
            listed.iter_mut().for_each(|x| *x = 0);
            *tick = 0;
        }
        *tick += 1;
        for &c in cells.iter() {
            if std::mem::replace(&mut listed[c], *tick) == *tick {
                continue;
            }
            touched.push(c);
            touch(routes, c, run.len as u32 + 1);
            push(q, queued, c);
            for (_, m) in s.around(c) {
                push(q, queued, m);
            }
        }
        if trace {
            run.trace.push(d);
        }
        if run.len >= bound {
            run.cut = true;
            if *pause {
                let mut p = paused.take().or_else(|| spare.pop()).unwrap_or_default();
                p.len = run.len;
                b.changes(&mut p.board);
                p.q.clear();
                p.q.extend(q.iter().map(|&c| c as u32));
                p.dirty.clear();
                p.dirty.extend_from_slice(dirty);
                p.touched.clear();
                p.touched.extend(touched.iter().map(|&c| c as u32));
                p.marked.clear();
                p.marked.extend_from_slice(marked);
                *paused = Some(p);
            }
            return run;
        }
    }
}

/// The whole-board techniques, on the paths marked dirty (whose ends are checked to meet
/// unless a way between them found before is untouched) and (given `near`, a buffer for
/// the cells) the areas around `touched`.
fn global(
    s: &Shape,
    b: &Board,
    dirty: &mut [u64],
    routes: &mut Routes,
    t: u32,
    (touched, near): (&[usize], Option<&mut Vec<usize>>),
    x: &mut Scratch,
) -> Option<Result<Deduction, Contradiction>> {
    // Path by path in order, each bit cleared as it is looked at.
    for (j, d) in dirty.iter_mut().enumerate() {
        while *d != 0 {
            let k = j * 64 + d.trailing_zeros() as usize;
            *d &= *d - 1;
            if routes.holds(s, k) {
                continue;
            }
            // A way touched since it was found may still be open; when not, it is mended from
            // the break (which decides as a new search would). The base's way is copied only
            // to be mended.
            // Every link of the way held at epoch `v` (when it was found or last checked): only
            // those near a change since are looked at again.
            let (_, way) = routes.way(k);
            let v = match routes.own[k].since {
                Some(_) => routes.own[k].epoch,
                None => x.run_start(),
            };
            let on_base = routes.own[k].since.is_none() || routes.own[k].is_base;
            let n = s.cells();
            let mut breaks = || {
                on_base
                    .then(|| paths::way_breaks_by_place(s, b, k, x, way, v, &routes.place[k * n..]))
                    .flatten()
                    .unwrap_or_else(|| paths::way_breaks(s, b, k, x, way, v))
            };
            let (meet, is_base) = if way.len() < 2 {
                let own = &mut routes.own[k].way;
                (paths::ends_meet(s, b, k, x, own), false)
            } else if let Some(at) = breaks() {
                let o = &routes.own[k];
                if o.since.is_none() || o.is_base {
                    let base = routes.base.get(k).map_or(&[][..], |w| &w[..]);
                    let own = &mut routes.own[k].way;
                    own.clear();
                    own.extend_from_slice(base);
                }
                let own = &mut routes.own[k].way;
                (paths::mend_way(s, b, k, x, own, at), false)
            } else {
                let o = &routes.own[k];
                (true, o.since.is_none() || o.is_base)
            };
            if routes.own[k].since.is_none() {
                routes.owned.push(k);
            }
            let o = &mut routes.own[k];
            o.since = Some(t);
            o.is_base = is_base;
            o.epoch = x.epoch();
            if !meet {
                let (a, z) = s.ends[k];
                return Some(Err(Contradiction::new(Why::Apart, vec![a, z], Some(k))));
            }
        }
    }
    // Without `near`, the areas are not looked at.
    let near = near?;
    if s.rules.covers() {
        near.clear();
        near.extend_from_slice(touched);
        for &c in touched {
            near.extend(s.around(c).map(|(_, m)| m));
        }
        if let Some(r) = areas::sealed_area_in(s, b, None, Some(near), x) {
            return Some(r);
        }
    }
    None
}

/// Runs an assumption on a copy of `b`.
pub fn test(s: &Shape, b: &Board, w: &mut Work, a: &Assume, bound: usize, trace: bool) -> Run {
    run_from(s, b, w, a, None, bound, trace)
}

/// Goes on with a run of `a` paused at a smaller bound, up to `bound`.
fn resume(s: &Shape, b: &Board, w: &mut Work, a: &Assume, p: &Paused, bound: usize) -> Run {
    run_from(s, b, w, a, Some(p), bound, false)
}

/// Runs `a` from the start, or from where it was paused.
fn run_from(
    s: &Shape,
    b: &Board,
    w: &mut Work,
    a: &Assume,
    from: Option<&Paused>,
    bound: usize,
    trace: bool,
) -> Run {
    // The copy is `b` already ([`Work::sync`]); what the run changes is put back after it.
    let mut c = match w.board.take() {
        Some(c) => c,
        None => {
            let mut c = b.clone();
            c.start_log();
            c
        }
    };
    w.scratch.new_run(s);
    // The sides read here are those of `b` (nothing of the run is marked yet).
    w.probe = match a {
        Assume::On(x, _) | Assume::Among(x, _) | Assume::Not(x, _)
            if w.areas_quiet && from.is_none() && b.open(s, *x) =>
        {
            let sides = w.scratch.sides(s, b, *x);
            Some((*x, paths::ways_of(s, b, *x, sides)))
        }
        _ => None,
    };
    let mut first: Result<(), Contradiction>;
    let mut paths = std::mem::take(&mut w.lost);
    paths.clear();
    let cand = |x: usize, out: &mut Vec<usize>, keep: &[usize]| {
        for (j, &word) in b.cand(x).iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let k = j * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if !keep.contains(&k) {
                    out.push(k);
                }
            }
        }
    };
    let start: &[usize] = match (a, a.cell_on()) {
        (_, Some((x, ks))) => {
            cand(*x, &mut paths, ks);
            first = c.keep_only(*x, ks).map(|_| ());
            debug_assert!(
                {
                    let mut one = b.clone();
                    let one_by_one = paths
                        .iter()
                        .try_for_each(|&k| one.remove(*x, k).map(|_| ()));
                    one_by_one.is_ok() == first.is_ok()
                        && (first.is_err() || one.cand(*x) == c.cand(*x))
                },
                "keeping {ks:?} in cell {x} is removing every other candidate"
            );
            std::slice::from_ref(x)
        }
        (Assume::Not(x, k), _) => {
            first = c.remove(*x, *k).map(|_| ());
            paths.push(*k);
            std::slice::from_ref(x)
        }
        (Assume::Link(t, m), _) => {
            first = c.link(s, *t, *m);
            cand(*t, &mut paths, &[]);
            cand(*m, &mut paths, &[]);
            &[*t, *m]
        }
        (Assume::On(..) | Assume::Among(..), None) => unreachable!("a cell and its paths"),
    };
    if let Some(p) = from {
        c.restore(b);
        c.replay(&p.board);
        first = Ok(());
    }
    if first.is_ok() {
        match a {
            Assume::On(x, _) | Assume::Among(x, _) | Assume::Not(x, _)
                if from.is_none() && c.single(*x).is_none() =>
            {
                w.scratch.changed_candidates(s, &c, *x)
            }
            _ => w.scratch.changed(s, &c, start[0]),
        }
    }
    let r = match first {
        Err(x) => Run {
            len: 1,
            contradiction: Some(x),
            trace: Vec::new(),
            cut: false,
        },
        Ok(()) => propagate(s, &mut c, w, (start, &paths), from, bound, trace),
    };
    // What the run changed, for the carry: the cells of its deductions, not every cell whose
    // entries on the board changed (a link rewrites the root of every cell of the smaller
    // piece, and a piece's candidates sit in its root, an arbitrary cell of it).
    std::mem::swap(&mut w.footprint, &mut w.marked);
    w.marked.clear();
    c.restore(b);
    w.board = Some(c);
    w.lost = paths;
    r
}

/// A refuted assumption waiting for its turn: for a loose end, the ways that failed and the one
/// left.
#[derive(Clone, Debug)]
enum Refuted {
    Cell(Assume),
    Way {
        t: usize,
        m: usize,
        failed: Vec<usize>,
    },
}

/// What the last search found that has not been used yet.
#[derive(Default)]
pub struct Pending {
    /// With the length each was refuted at, shortest first.
    items: VecDeque<(usize, Refuted)>,
}

/// How widely a search looks for assumptions.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Reach {
    /// The ways of each loose end, and the cells with two candidates left.
    LooseEnds,
    /// Also the cells beside a path already drawn, as "on this path" ("not on this path" is
    /// left to the widest reach).
    Near,
    /// Every open cell, as "on this path".
    Wide,
    /// Every open cell, also as "not on this path" (tried last: such a what-if explains two
    /// steps of the 5369 of the Janko puzzles, both in #160, where its runs were a quarter of
    /// the runs).
    Everywhere,
}

/// The assumptions of a reach, as [`list`] lists them (for the tests).
#[cfg(test)]
fn assumptions(s: &Shape, b: &Board, reach: Reach) -> (Vec<Assume>, Vec<(usize, Vec<usize>)>) {
    let mut st = Stage::default();
    list(s, b, reach, &mut st, |_| false);
    (st.cells, st.groups)
}

/// The assumptions worth trying, as a person would: first, for each loose end, each way it
/// could go (as "that neighbour is on its path" under flow, where the two are the same, and as
/// the link otherwise), and each path of a cell with two candidates left; then (with `reach`)
/// for each cell beside a path already drawn, or every open cell, fewest candidates first,
/// "not on this path" (which places it when refuted; every open cell only) and "on this path".
///
/// (Until the eleventh round "not on this path" was tried with "on this path" in one search
/// of every open cell; it now comes after it, in a search of its own. Only #160 of the Janko
/// puzzles explains otherwise, with 4% fewer instructions; see BENCHMARKS.md.)
///
/// (Until the tenth round the cells beside a path were also assumed "not on" each of their
/// paths there. Leaving those to the widest reach changes no explanation of the Janko
/// puzzles, and saves 4-17% of the propagation of the five slowest.)
///
/// They go into a stage's lists (cleared first), each cell assumption with its slot
/// ([`Carry::slot`]), but for those whose slot `skip` says was tried already (they count in
/// the number returned, that of all the assumptions of the reach).
fn list(s: &Shape, b: &Board, reach: Reach, st: &mut Stage, skip: impl Fn(usize) -> bool) -> usize {
    let n = s.cells();
    st.cells.clear();
    st.slots.clear();
    st.groups.clear();
    let mut count = 0;
    let mut add = |st: &mut Stage, a: Assume| {
        count += 1;
        let i = Carry::slot(s, &a).expect("a cell assumption of a search has a slot");
        if !skip(i) {
            st.cells.push(a);
            st.slots.push(i);
        }
    };
    // Per cell and path: an assumption that the cell is on the path is listed.
    let per = s.empty + 1;
    let mut listed = vec![false; n * per];
    let mut seen = |(c, k): (usize, usize)| !std::mem::replace(&mut listed[c * per + k], true);
    for t in 0..n {
        if !b.loose(s, t) {
            continue;
        }
        let mut ways = [0; 4];
        let mut count_ways = 0;
        for i in 0..4 {
            if let Some(m) = b.way(s, t, i) {
                ways[count_ways] = m;
                count_ways += 1;
            }
        }
        let ways = &ways[..count_ways];
        if ways.len() < 2 {
            continue;
        }
        match b.path_of(s, t) {
            Some(k) => {
                for &m in ways {
                    if b.path_of(s, m).is_none() && seen((m, k)) {
                        add(st, Assume::On(m, k));
                    }
                }
                if s.rules != Rules::Flow {
                    st.groups.push((t, ways.to_vec()));
                }
            }
            None => st.groups.push((t, ways.to_vec())),
        }
    }
    let candidate = |c: usize| {
        b.path_of(s, c).is_none() && !b.is_empty(s, c) && (b.open(s, c) || b.loose(s, c))
    };
    for c in (0..n).filter(|&c| candidate(c) && b.count(c) == 2) {
        b.each_candidate(c, |k| {
            if seen((c, k)) {
                add(st, Assume::On(c, k));
            }
        });
    }
    if reach != Reach::LooseEnds {
        let near = |c: usize| s.around(c).any(|(_, m)| b.arms[m] != 0 || s.is_end(m));
        let mut rest: Vec<(u32, usize)> = (0..n)
            .filter(|&c| candidate(c) && b.count(c) > 2)
            .filter(|&c| reach >= Reach::Wide || b.loose(s, c) || near(c))
            .map(|c| (b.count(c), c))
            .collect();
        crate::sort::all(&mut rest);
        for (_, c) in rest {
            if reach == Reach::Everywhere {
                b.each_candidate(c, |k| add(st, Assume::Not(c, k)));
            }
            b.each_candidate(c, |k| {
                if seen((c, k)) {
                    add(st, Assume::On(c, k));
                }
            });
        }
    }
    count + st.groups.len()
}

/// True when the refuted assumption would still change the board.
fn useful(s: &Shape, b: &Board, r: &Refuted) -> bool {
    match r {
        Refuted::Cell(Assume::On(c, k)) => b.has(*c, *k),
        Refuted::Cell(Assume::Among(c, ks)) => ks.iter().any(|&k| b.has(*c, k)),
        Refuted::Cell(Assume::Not(c, k)) => b.single(*c) != Some(*k) && b.has(*c, *k),
        Refuted::Cell(Assume::Link(..)) => false,
        Refuted::Way { t, m, .. } => b.loose(s, *t) && b.way(s, *t, s.side(*t, *m)).is_some(),
    }
}

/// The next what-if: one left from the last search if it still holds, else the shortest a new
/// search finds (with its text when `say`). `areas_quiet`: the open areas of `b` say nothing
/// ([`areas::sealed_area`] found nothing on it).
pub fn what_if(
    s: &Shape,
    b: &Board,
    say: Option<&Numberlink>,
    pending: &mut Pending,
    w: &mut Work,
    areas_quiet: bool,
) -> Option<Deduction> {
    // Every run of this call starts from `b`, with a way between each path's ends on `b`.
    w.areas_quiet = areas_quiet;
    w.sync(b);
    w.scratch.keep(s, b);
    w.scratch.new_run(s);
    w.scratch.prepare(s, b);
    // A path's way on the board of the last call that still holds here is kept (it only
    // spares the checks of runs that do not touch it; a check of a way touched decides as a
    // new search would, whichever way it was).
    w.routes.unplace_base(s);
    let mut base = std::mem::take(&mut w.routes.base);
    base.resize_with(s.paths, Vec::new);
    for (k, way) in base.iter_mut().enumerate() {
        if !paths::way_holds(s, b, k, &mut w.scratch, way) {
            paths::ends_meet(s, b, k, &mut w.scratch, way);
        }
    }
    w.routes.base = base;
    w.routes.place_base(s);
    while let Some((len, r)) = pending.items.pop_front() {
        if !useful(s, b, &r) {
            continue;
        }
        if let Some(d) = conclude(s, b, &r, len, say, w) {
            return Some(d);
        }
    }
    search(s, b, pending, w)?;
    while let Some((len, r)) = pending.items.pop_front() {
        if let Some(d) = conclude(s, b, &r, len, say, w) {
            return Some(d);
        }
    }
    None
}

/// Finds the assumptions refuted at the shortest length (with those a round keeps past it,
/// [`keep_up_to`]), into `pending`.
fn search(s: &Shape, b: &Board, pending: &mut Pending, w: &mut Work) -> Option<()> {
    w.carry.update(s, b);
    // The loose ends first, then beside the paths drawn, then everywhere ("on" this path,
    // then "not on" it); beside the paths and everywhere "on", the short what-ifs first
    // ([`SHORT`]), then the long ones in the same order.
    // A wider reach tries again only what the narrower ones did not: on the same board, an
    // assumption not refuted within the longest bound never is (and the loose ends' ways are
    // the same at every reach).
    // BOUNDS is sorted: the short rounds are its first part.
    let (short, long) = BOUNDS.split_at(BOUNDS.partition_point(|&x| x <= SHORT));
    let mut found = None;
    let mut tried = 0;
    // Per slot ([`Carry::slot`]): tried at a narrower reach of this search. Kept from search
    // to search (all false between them; the slots set are in `done_set`).
    let mut done = std::mem::take(&mut w.done);
    let mut done_set = std::mem::take(&mut w.done_set);
    done.resize(Carry::slots(s), false);
    let mut groups_done = false;
    // The stages tried up to [`SHORT`], whose longer rounds come before "not on".
    let mut later: Vec<Stage> = Vec::new();
    let mut stages: Vec<Stage> = Vec::new();
    for reach in [
        Reach::LooseEnds,
        Reach::Near,
        Reach::Wide,
        Reach::Everywhere,
    ] {
        if reach == Reach::Everywhere {
            for st in later.iter_mut() {
                found = rounds(s, b, pending, w, st, long);
                if found.is_some() {
                    break;
                }
            }
            if found.is_some() {
                break;
            }
        }
        // (The stages' lists are kept from search to search, in `w.stages`.)
        let mut st = w.stages.pop().unwrap_or_default();
        let count = list(s, b, reach, &mut st, |i| done[i]);
        if count <= tried {
            w.stages.push(st);
            continue;
        }
        tried = count;
        if groups_done {
            st.groups.clear();
        }
        st.start();
        let short_first = matches!(reach, Reach::Near | Reach::Wide);
        found = rounds(
            s,
            b,
            pending,
            w,
            &mut st,
            if short_first { short } else { &BOUNDS },
        );
        for &i in &st.slots {
            if !done[i] {
                done[i] = true;
                done_set.push(i);
            }
        }
        if short_first {
            later.push(st);
        } else {
            stages.push(st);
        }
        if found.is_some() {
            break;
        }
        groups_done = true;
    }
    for mut st in later.into_iter().chain(stages) {
        w.spare.extend(st.paused.drain(..).flatten());
        w.spare.extend(st.ways_paused.drain(..).flatten().flatten());
        w.stages.push(st);
    }
    for i in done_set.drain(..) {
        done[i] = false;
    }
    w.done = done;
    w.done_set = done_set;
    found
}

/// The assumptions of one reach of a search, and how their runs stand between its rounds.
#[derive(Default)]
struct Stage {
    cells: Vec<Assume>,
    /// Each cell assumption's slot ([`Carry::slot`]).
    slots: Vec<usize>,
    groups: Vec<(usize, Vec<usize>)>,
    /// Per assumption, a run stopped at a round's bound (to go on from in the next).
    paused: Vec<Option<Paused>>,
    ways_paused: Vec<Vec<Option<Paused>>>,
    /// Assumptions whose run ended without a contradiction stay out of later rounds.
    settled: Vec<bool>,
    ways_settled: Vec<Vec<bool>>,
}

impl Stage {
    /// No run paused or settled yet, for the assumptions listed.
    fn start(&mut self) {
        self.paused.clear();
        self.paused.resize_with(self.cells.len(), || None);
        self.ways_paused = self
            .groups
            .iter()
            .map(|(_, ways)| ways.iter().map(|_| None).collect())
            .collect();
        self.settled.clear();
        self.settled.resize(self.cells.len(), false);
        self.ways_settled = self
            .groups
            .iter()
            .map(|(_, ways)| vec![false; ways.len()])
            .collect();
    }
}

/// Runs `a` up to `bound`, going on from `paused` (a run of `a` stopped at a smaller bound)
/// when there is one, and keeps the run in `paused` when it stops at its bound (below the
/// last bound).
fn run_or_resume(
    s: &Shape,
    b: &Board,
    w: &mut Work,
    a: &Assume,
    paused: &mut Option<Paused>,
    bound: usize,
    last: bool,
) -> Run {
    w.pause = !last;
    let r = match paused.take() {
        Some(p) if p.len < bound => {
            let r = resume(s, b, w, a, &p, bound);
            match &w.paused {
                None => w.paused = Some(p),
                Some(_) => w.spare.push(p),
            }
            r
        }
        Some(p) => {
            w.spare.push(p);
            test(s, b, w, a, bound, false)
        }
        None => test(s, b, w, a, bound, false),
    };
    w.pause = false;
    if r.cut {
        *paused = w.paused.take();
    }
    r
}

/// The rounds of a stage of [`search`], bound after bound (those of `bounds`), going on
/// from the runs its earlier rounds paused.
fn rounds(
    s: &Shape,
    b: &Board,
    pending: &mut Pending,
    w: &mut Work,
    st: &mut Stage,
    bounds: &[usize],
) -> Option<()> {
    let Stage {
        cells,
        slots,
        groups,
        paused,
        ways_paused,
        settled,
        ways_settled,
    } = st;
    // The assumptions the last search refuted first: a short refutation found early bounds
    // the runs of the others. The order changes nothing else: every assumption refuted at the
    // shortest length is found whatever the order, and they are kept in the list's order.
    // (Sorted by length, then by place: only the few refuted need sorting, the others follow
    // in their places.)
    let mut first: Vec<(usize, usize)> = slots
        .iter()
        .enumerate()
        .map(|(i, &x)| (w.hints.get(x), i))
        .filter(|&(len, _)| len != usize::MAX)
        .collect();
    crate::sort::all(&mut first);
    let mut hinted: Vec<usize> = first.iter().map(|&(_, i)| i).collect();
    crate::sort::all(&mut hinted);
    for &bound in bounds {
        // The others in their places.
        let mut h = 0;
        let rest = (0..cells.len()).filter(|&i| {
            let skip = hinted.get(h) == Some(&i);
            h += skip as usize;
            !skip
        });
        let order = first.iter().map(|&(_, i)| i).chain(rest);
        // The shortest length found in the round, and how far the runs go (see `keep_up_to`).
        let mut best = bound;
        let mut upto = bound;
        let mut found: Vec<(usize, Refuted)> = Vec::new();
        let mut refuted: Vec<(usize, usize)> = Vec::new();
        for i in order {
            if settled[i] {
                continue;
            }
            match w.carry.get_at(slots[i]) {
                Some(Outcome::Settled) => {
                    settled[i] = true;
                    continue;
                }
                Some(Outcome::Cut(at)) if upto <= at => continue,
                _ => {}
            }
            // A run stopped at a smaller bound goes on from where it stopped.
            let last = bound == MAX_LENGTH;
            let r = run_or_resume(s, b, w, &cells[i], &mut paused[i], upto, last);
            w.carry
                .put_at(slots[i], &cells[i], outcome(&r, upto), &w.footprint);
            match r.contradiction {
                Some(_) => {
                    best = best.min(r.len);
                    upto = keep_up_to(best, bound);
                    refuted.push((i, r.len));
                }
                None if !r.cut => settled[i] = true,
                None => {}
            }
        }
        if !refuted.is_empty() {
            w.hints.clear();
            for &(i, len) in &refuted {
                w.hints.insert(s, slots[i], len);
            }
        }
        crate::sort::all(&mut refuted);
        found.extend(
            refuted
                .into_iter()
                .map(|(i, len)| (len, Refuted::Cell(cells[i].clone()))),
        );
        // A loose end all of whose ways but one fail takes that one.
        let (mut failed, mut open) = (Vec::new(), Vec::new());
        for (g, (t, ways)) in groups.iter().enumerate() {
            failed.clear();
            open.clear();
            let mut longest = 0;
            for (j, &m) in ways.iter().enumerate() {
                let a = Assume::Link(*t, m);
                let kept = w.carry.get(s, &a);
                if kept == Some(Outcome::Settled) {
                    ways_settled[g][j] = true;
                }
                if ways_settled[g][j] || matches!(kept, Some(Outcome::Cut(at)) if upto <= at) {
                    open.push(m);
                } else {
                    let last = bound == MAX_LENGTH;
                    let r = run_or_resume(s, b, w, &a, &mut ways_paused[g][j], upto, last);
                    w.carry.put(s, &a, outcome(&r, upto), &w.footprint);
                    match r.contradiction {
                        Some(_) => {
                            failed.push(m);
                            longest = longest.max(r.len);
                        }
                        None => {
                            ways_settled[g][j] |= !r.cut;
                            open.push(m);
                        }
                    }
                }
                if open.len() > 1 {
                    break;
                }
            }
            if open.len() == 1 {
                best = best.min(longest);
                upto = keep_up_to(best, bound);
                found.push((
                    longest,
                    Refuted::Way {
                        t: *t,
                        m: open[0],
                        failed: failed.clone(),
                    },
                ));
            }
        }
        if found.is_empty() {
            continue;
        }
        // Shortest first; of one length, in the list's order (the cells', then the loose
        // ends').
        found.retain(|&(l, _)| l <= upto);
        crate::sort::by_key(&mut found, |&(l, _)| l);
        pending.items = found.into_iter().collect();
        return Some(());
    }
    None
}

/// How a run of a search ended, to carry to the next board (`None`: refuted).
fn outcome(r: &Run, bound: usize) -> Option<Outcome> {
    match (&r.contradiction, r.cut) {
        (Some(_), _) => None,
        (None, false) => Some(Outcome::Settled),
        (None, true) => Some(Outcome::Cut(bound)),
    }
}

/// The deduction of a refuted assumption, tested again on `b` (None when it no longer leads
/// to a contradiction within `len`... or twice that, the board having changed).
fn conclude(
    s: &Shape,
    b: &Board,
    r: &Refuted,
    len: usize,
    say: Option<&Numberlink>,
    w: &mut Work,
) -> Option<Deduction> {
    let bound = (2 * len).max(4);
    // With a text to write, the runs are traced: a run that reaches its contradiction within
    // a bound is the same run as one bounded at its length, which the text shows.
    let trace = say.is_some();
    match r {
        Refuted::Cell(a) => {
            let run = test(s, b, w, a, bound, trace);
            run.contradiction.as_ref()?;
            let mut a = a.clone();
            let len = run.len;
            let mut shown = run;
            // A cell refuted for one path: try more paths with it (each within `len`).
            if let Some((c, ks)) = a.cell_on() {
                let c = *c;
                let mut ks = ks.to_vec();
                for k in b.list(c) {
                    if ks.contains(&k) || k == s.empty {
                        continue;
                    }
                    let mut more = ks.clone();
                    more.push(k);
                    if more.len() == b.count(c) as usize {
                        break;
                    }
                    let t = test(s, b, w, &Assume::Among(c, more.clone()), len, trace);
                    if t.contradiction.is_some() {
                        ks = more;
                        shown = t;
                    }
                }
                a = Assume::Among(c, ks);
            }
            Some(conclude_cell(s, &a, len, say, &shown))
        }
        Refuted::Way { t, m, failed } => {
            let mut runs = Vec::new();
            for &x in failed {
                let run = test(s, b, w, &Assume::Link(*t, x), bound, trace);
                run.contradiction.as_ref()?;
                runs.push((x, run));
            }
            let len = runs.iter().map(|(_, r)| r.len).max().unwrap_or(1);
            Some(conclude_link(s, b, *t, *m, len, &runs, say))
        }
    }
}

/// The what-if that refutes a cell's paths (or its staying empty), or its not being on one
/// (`r`: its run, traced when `say`).
fn conclude_cell(
    s: &Shape,
    a: &Assume,
    len: usize,
    say: Option<&Numberlink>,
    r: &Run,
) -> Deduction {
    let (c, ks, on) = match (a, a.cell_on()) {
        (_, Some((c, ks))) => (*c, ks.to_vec(), true),
        (Assume::Not(c, k), _) => (*c, vec![*k], false),
        _ => unreachable!("cell assumptions only"),
    };
    let path = (ks.len() == 1 && ks[0] < s.paths).then(|| ks[0]);
    let mut d = Deduction::new(Technique::WhatIf, path, vec![c]);
    if on {
        d.elims = ks.iter().map(|&k| (c, k)).collect();
    } else {
        d.places.push((c, ks[0]));
    }
    d.len = len;
    if let Some(p) = say {
        d.at.extend(trace_cells(r));
        // Under nikoli the empty bit may be among the paths (staying empty refuted, then
        // widened to paths): it is named apart.
        let others: Vec<usize> = ks.iter().copied().filter(|&k| k != s.empty).collect();
        let stays = others.len() < ks.len();
        let empty = stays && others.is_empty();
        let paths = || {
            let names: Vec<String> = others.iter().map(|&k| path_name(p, k)).collect();
            match names.split_last() {
                Some((last, rest)) if !rest.is_empty() => {
                    format!("{} or {}", rest.join(", "), last)
                }
                _ => names.join(""),
            }
        };
        let what = match (on, empty) {
            (true, true) => format!("{} stayed empty", name(p, c)),
            (true, false) if stays => {
                format!("{} stayed empty or were on {}", name(p, c), paths())
            }
            (true, false) => format!("{} were on {}", name(p, c), paths()),
            (false, true) => format!("{} were on a path", name(p, c)),
            (false, false) => format!("{} were not on {}", name(p, c), paths()),
        };
        let so = match (on, empty) {
            (true, true) => format!("{} is on a path", name(p, c)),
            (true, false) if stays => {
                format!("{} is on a path, and not on {}", name(p, c), paths())
            }
            (true, false) if ks.len() > 1 => format!("{} is on none of them", name(p, c)),
            (true, false) => format!("{} is not on {}", name(p, c), paths()),
            (false, true) => format!("{} stays empty", name(p, c)),
            (false, false) => format!("{} is on {}", name(p, c), paths()),
        };
        d.text = format!("what if {what}: {}; so {so}", chain(p, s, r));
    }
    d
}

/// The what-if that leaves a loose end one way (`failed`: the other ways with their runs,
/// traced when `say`).
fn conclude_link(
    s: &Shape,
    b: &Board,
    t: usize,
    m: usize,
    len: usize,
    failed: &[(usize, Run)],
    say: Option<&Numberlink>,
) -> Deduction {
    let k = b.path_of(s, t);
    let mut d = Deduction::new(Technique::WhatIf, k, vec![t]);
    d.links.push((t, m));
    d.len = len;
    if let Some(p) = say {
        let parts: Vec<String> = failed
            .iter()
            .map(|(x, r)| {
                d.at.extend(trace_cells(r));
                format!("to {}: {}", name(p, *x), chain(p, s, r))
            })
            .collect();
        d.text = format!(
            "what if {} at {} went on {}; so it goes to {}",
            super::on_path(p, k),
            name(p, t),
            parts.join("; "),
            name(p, m)
        );
    }
    d
}

/// The cells a traced run used.
fn trace_cells(r: &Run) -> Vec<usize> {
    let mut out: Vec<usize> = r.trace.iter().flat_map(|d| d.cells_changed()).collect();
    if let Some(x) = &r.contradiction {
        out.extend(x.at.iter().copied());
    }
    crate::sort::all(&mut out);
    out.dedup();
    out
}

/// How many deductions of a run are written out.
const SHOWN: usize = 6;

/// A run in words: its first deductions, then the contradiction.
fn chain(p: &Numberlink, s: &Shape, r: &Run) -> String {
    let mut parts: Vec<String> = r.trace.iter().take(SHOWN).map(|d| short(p, s, d)).collect();
    if r.trace.len() > SHOWN {
        parts.push(format!("... ({} steps)", r.trace.len()));
    }
    let end = match &r.contradiction {
        Some(x) => describe_contradiction(p, x),
        None => "a contradiction".into(),
    };
    if parts.is_empty() {
        end
    } else {
        format!("then {}, and {}", parts.join(", "), end)
    }
}

/// One deduction in a few words.
fn short(p: &Numberlink, s: &Shape, d: &Deduction) -> String {
    if !d.links.is_empty() {
        let links: Vec<String> = d
            .links
            .iter()
            .map(|&(c, m)| format!("{}-{}", name(p, c), name(p, m)))
            .collect();
        return format!("{} ({})", links.join(" "), d.technique.name());
    }
    if let Some(&(c, k)) = d.places.first() {
        return if k == s.empty {
            format!("{} empty ({})", name(p, c), d.technique.name())
        } else {
            format!(
                "{} on {} ({})",
                name(p, c),
                path_name(p, k),
                d.technique.name()
            )
        };
    }
    if let Some(&(c, k)) = d.elims.first() {
        let more = if d.elims.len() > 1 {
            format!(" and {} more", d.elims.len() - 1)
        } else {
            String::new()
        };
        return if k == s.empty {
            format!("{} covered{more} ({})", name(p, c), d.technique.name())
        } else {
            format!(
                "{} not on {}{more} ({})",
                name(p, c),
                path_name(p, k),
                d.technique.name()
            )
        };
    }
    d.technique.name().into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numberlink::format::{self, ReadOptions};

    #[test]
    fn a_round_keeps_what_it_refuted_within_its_bound_but_not_past_the_expert_level() {
        // The expert level ends at EXPERT deductions.
        assert_eq!(super::super::what_if_rating(EXPERT), 6.0);
        assert_eq!(
            super::super::level(super::super::what_if_rating(EXPERT)),
            "expert"
        );
        // (Rounded to a tenth, 17 deductions rate 6.0 too; 18 rate 6.1.)
        assert_eq!(
            super::super::level(super::super::what_if_rating(EXPERT + 2)),
            "extreme"
        );
        assert_eq!(keep_up_to(3, 4), 4);
        assert_eq!(keep_up_to(5, 10), 10);
        assert_eq!(keep_up_to(11, 25), EXPERT);
        assert_eq!(keep_up_to(EXPERT, 25), EXPERT);
        assert_eq!(keep_up_to(EXPERT + 1, 25), 25);
        assert_eq!(keep_up_to(61, 150), 150);
        assert!(BOUNDS.contains(&SHORT), "the short rounds end at a bound");
    }

    #[test]
    fn not_on_a_path_is_assumed_at_the_widest_reach_only() {
        let p = super::super::tests::whatif8();
        let s = Shape::new(&p);
        let b = Board::new(&s, &p);
        let count = |r: Reach| {
            let (cells, _) = assumptions(&s, &b, r);
            let not = cells
                .iter()
                .filter(|a| matches!(a, Assume::Not(..)))
                .count();
            (cells.len(), not)
        };
        let (loose, near, wide, every) = (
            count(Reach::LooseEnds),
            count(Reach::Near),
            count(Reach::Wide),
            count(Reach::Everywhere),
        );
        assert_eq!((loose.1, near.1, wide.1), (0, 0, 0));
        assert!(
            wide.0 > near.0 && every.0 == wide.0 + every.1,
            "{wide:?} {every:?}"
        );
        assert!(near.0 > loose.0, "{near:?} {loose:?}");
        assert!(
            every.1 > 0 && every.0 >= near.0 + every.1,
            "{every:?} {near:?}"
        );
    }

    #[test]
    fn a_run_stopped_at_its_bound_goes_on_to_the_same_end_as_a_run_from_the_start() {
        let puzzles = [
            (
                include_str!("../../../puzzles/numberlink/whatif8.txt"),
                Rules::Flow,
            ),
            (
                include_str!("../../../puzzles/numberlink/cover6x5.txt"),
                Rules::Cover,
            ),
            (
                include_str!("../../../puzzles/numberlink/nikoli6.txt"),
                Rules::Nikoli,
            ),
        ];
        let mut resumed = 0;
        for (text, rules) in puzzles {
            let opts = ReadOptions {
                rules: Some(rules),
                ..Default::default()
            };
            let p = format::parse("t", text, opts).unwrap().remove(0);
            let s = Shape::new(&p);
            let b = Board::new(&s, &p);
            let mut w = Work::new(&s);
            w.sync(&b);
            w.scratch.keep(&s, &b);
            let (cells, _) = assumptions(&s, &b, Reach::Everywhere);
            assert!(!cells.is_empty());
            for a in &cells {
                let whole = test(&s, &b, &mut w, a, MAX_LENGTH, false);
                w.pause = true;
                let part = test(&s, &b, &mut w, a, 2, false);
                w.pause = false;
                if !part.cut {
                    continue;
                }
                let paused = w.paused.take().expect("a run cut at its bound is kept");
                let rest = resume(&s, &b, &mut w, a, &paused, MAX_LENGTH);
                assert_eq!(
                    (rest.len, rest.contradiction, rest.cut),
                    (whole.len, whole.contradiction, whole.cut),
                    "{a:?} under {rules:?}"
                );
                resumed += 1;
            }
        }
        assert!(resumed > 10, "only {resumed} runs went past the bound");
    }
}
