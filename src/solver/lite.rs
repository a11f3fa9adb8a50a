//! `lite`: a small CDCL SAT solver of gridsat's own, for the small instances that make up most
//! batches (a 9x9 Sudoku, a Takuzu, a Tectonic). varisat spends about half of an easy puzzle
//! loading its clauses (a restart per clause, a variable map, per-variable arrays grown one
//! variable at a time); here loading is a copy into one flat clause arena (and the formula's
//! three-literal clauses, most of a puzzle model, into a table of their own without headers).
//!
//! The search is textbook MiniSat/Glucose: two watched literals (binary clauses on their own
//! watch lists), 1UIP conflict analysis with recursive clause minimisation, VSIDS on a binary
//! heap, phase saving, Glucose-style restarts (when the recent learnt clauses' LBD rises above
//! the average), learnt clauses deleted by LBD. A model's kind may ask for another search
//! ([`Search::Direct`], Sudoku's): true first without saved phases, faster decay, Luby
//! restarts. Assumptions are decided one
//! per level, and an assumption found false is explained by the final conflict analysis, which
//! returns the assumptions it rests on. Clauses may be added between solves; a model found
//! without assumptions stays on the trail, so a clause that blocks it (a uniqueness check's
//! second question, a lazy cut) takes the search back only to where the clause is unit, as a
//! learnt clause does, instead of to the root. A [`Stop`] flag is
//! polled every 256 conflicts, and [`Lite::solve_limited`] gives up after a conflict budget
//! (the embedded default hands such an instance to CaDiCaL, or varisat in a build without
//! it, see [`super::Layered`]).
//!
//! Pure Rust without threads, clocks or files: it builds for wasm32.

use super::{Backend, Outcome, Search, SolverError, Stop};
use crate::cnf::{Assignment, Formula, Lit, Var};

/// "No clause" (a decision or a level-0 unit) and "not in the heap".
const NONE: u32 = u32::MAX;
/// A conflict on a binary clause (its literals are in `Lite::bin_conflict`).
const BIN_CONFLICT: u32 = u32::MAX - 1;
/// A reason that is a binary clause: this bit, and the clause's other literal (binary clauses
/// live only in the watch lists, not in the arena).
const BIN: u32 = 1 << 31;
/// A clause of three literals loaded with the first formula: this bit, and where its literals
/// start in `Lite::tern` (three words, no header: most clauses of a puzzle model have three
/// literals, and without the arena's two header words they take 0.6x the memory that
/// propagation reads). Arena offsets stay below it.
const TERN: u32 = 1 << 30;
/// Words before a clause's literals in the arena: its length and its flags.
const HEADER: usize = 2;
const LEARNT: u32 = 1;
const DELETED: u32 = 2;
/// The flag word keeps the LBD above these bits.
const LBD_SHIFT: u32 = 2;
/// Restart when the recent LBD average (over about this many conflicts) times the margin
/// exceeds the average since the start, and at least this many conflicts since the last.
const RESTART_WINDOW: f64 = 32.0;
const RESTART_MARGIN: f64 = 0.8;
const RESTART_MIN: u64 = 50;
/// Conflicts before the first deletion of learnt clauses, and the growth of that interval.
const FIRST_REDUCE: u64 = 2000;
const REDUCE_STEP: u64 = 300;
/// Conflicts between two polls of the stop flag (a power of two minus one, as a mask).
const POLL_MASK: u64 = 255;
const VAR_DECAY: f64 = 0.95;
/// [`Search::Direct`]: the activity decay, and the conflicts of the unit of the Luby
/// sequence of restarts (measured on the forum's hardest Sudokus, BENCHMARKS.md).
const DIRECT_DECAY: f64 = 0.9;
const DIRECT_LUBY_UNIT: u64 = 8;

/// A watch of a clause of three or more literals: the clause (its arena offset) and one of its
/// other literals; when that literal is true the clause need not be visited.
#[derive(Clone, Copy)]
struct Watch {
    cref: u32,
    blocker: u32,
}

/// The buffers of a solver dropped on this thread, for the next one made here: a batch makes a
/// solver per puzzle, and most of what loading one allocates is a watch list and a list of
/// binary clauses per literal (about a million allocations over the 270 Janko puzzles). Only
/// capacity passes on: every buffer is empty, so a solver made from them answers exactly as a
/// new one. A buffer of a solver above [`SPARE_MAX_VARS`] variables is let go.
#[derive(Default)]
struct Spare {
    arena: Vec<u32>,
    tern: Vec<u32>,
    lists: Vec<Vec<Watch>>,
    bin_lists: Vec<Vec<u32>>,
    bin_flat: Vec<u32>,
    bin_start: Vec<u32>,
    bin_pairs: Vec<u32>,
    has_bins: Vec<bool>,
    value: Vec<i8>,
    level: Vec<u32>,
    reason: Vec<u32>,
    phase: Vec<bool>,
    activity: Vec<f64>,
    heap: Vec<u32>,
    heap_pos: Vec<u32>,
    trail: Vec<u32>,
    seen: Vec<bool>,
    level_stamp: Vec<u64>,
}

/// Solvers larger than this give their buffers back to the allocator.
const SPARE_MAX_VARS: usize = 1 << 20;

thread_local! {
    static SPARE: std::cell::Cell<Option<Box<Spare>>> = const { std::cell::Cell::new(None) };
}

/// Makes `lists` at least `len` long (the per-literal lists of a dropped solver may be longer:
/// those past the literals in use are empty).
fn grow_lists<T>(lists: &mut Vec<Vec<T>>, len: usize) {
    if lists.len() < len {
        lists.resize_with(len, Vec::new);
    }
}

/// `v` emptied, keeping its capacity.
fn emptied<T>(mut v: Vec<T>) -> Vec<T> {
    v.clear();
    v
}

/// The solver. Literals are `cnf::Lit` codes (2 × variable + 1 when negative).
pub struct Lite {
    /// False once the clauses are unsatisfiable without assumptions.
    ok: bool,
    /// Every clause: `[len, flags, lit, lit, ...]`, addressed by offset.
    arena: Vec<u32>,
    /// The three-literal clauses of the first formula loaded, three words each (see [`TERN`]);
    /// they are never deleted.
    tern: Vec<u32>,
    /// Arena words held by deleted clauses.
    wasted: usize,
    /// The learnt clauses of three or more literals (binary ones are kept for good).
    learnts: Vec<u32>,
    /// Per literal: the long clauses watching it. (Lists past the `2 * num_vars` literals may
    /// be there, empty, when the buffers came from a dropped solver: see [`Spare`].)
    watches: Vec<Vec<Watch>>,
    /// Binary clauses of the first formula loaded, per literal `l`: the other literals of the
    /// clauses containing `l`, at `bin_flat[bin_start[l]..bin_start[l + 1]]` (one allocation
    /// for all of them).
    bin_flat: Vec<u32>,
    bin_start: Vec<u32>,
    /// Scratch for loading: the first formula's binary clauses as pairs of literals.
    bin_pairs: Vec<u32>,
    /// Binary clauses added later or learnt, the same way per literal.
    bins: Vec<Vec<u32>>,
    /// Per literal: true when its list in `bins` may be non-empty. Propagation reads this byte
    /// instead of the list's header (24 bytes a literal, about a megabyte on a large board,
    /// most of them empty lists), which missed the cache once per assignment.
    has_bins: Vec<bool>,
    bin_conflict: [u32; 2],
    /// Per literal: 1 true, -1 false, 0 unassigned.
    value: Vec<i8>,
    /// Per variable: its decision level, the clause that implied it, its saved phase.
    level: Vec<u32>,
    reason: Vec<u32>,
    phase: Vec<bool>,
    activity: Vec<f64>,
    var_inc: f64,
    /// The branching heap (greatest activity first) and each variable's place in it.
    heap: Vec<u32>,
    heap_pos: Vec<u32>,
    trail: Vec<u32>,
    /// Where each decision level starts on the trail.
    trail_lim: Vec<usize>,
    qhead: usize,
    /// Scratch for conflict analysis.
    seen: Vec<bool>,
    to_clear: Vec<u32>,
    stack: Vec<u32>,
    learnt: Vec<u32>,
    level_stamp: Vec<u64>,
    stamp: u64,
    clause_buf: Vec<u32>,
    conflicts: u64,
    /// The learnt clauses' LBD: a moving average of the recent ones, and the sum of all.
    lbd_recent: f64,
    lbd_sum: f64,
    next_reduce: u64,
    reduce_step: u64,
    num_vars: usize,
    stop: Option<Stop>,
    /// No clause yet: the first formula may be loaded in bulk.
    fresh: bool,
    /// How the search goes ([`Lite::set_search`]); under [`Search::Direct`], the restarts
    /// made so far (the place in the Luby sequence).
    search: Search,
    restarts: u64,
}

impl Drop for Lite {
    /// Leaves the buffers, emptied, for the next solver made on this thread (see [`Spare`]).
    fn drop(&mut self) {
        if self.num_vars > SPARE_MAX_VARS {
            return;
        }
        use std::mem::take;
        // The lists past the solver's literals are empty already.
        let lits = 2 * self.num_vars;
        let mut lists = take(&mut self.watches);
        lists[..lits].iter_mut().for_each(Vec::clear);
        let mut bin_lists = take(&mut self.bins);
        bin_lists[..lits].iter_mut().for_each(Vec::clear);
        let spare = Spare {
            arena: take(&mut self.arena),
            tern: take(&mut self.tern),
            lists,
            bin_lists,
            bin_flat: take(&mut self.bin_flat),
            bin_start: take(&mut self.bin_start),
            bin_pairs: take(&mut self.bin_pairs),
            has_bins: take(&mut self.has_bins),
            value: take(&mut self.value),
            level: take(&mut self.level),
            reason: take(&mut self.reason),
            phase: take(&mut self.phase),
            activity: take(&mut self.activity),
            heap: take(&mut self.heap),
            heap_pos: take(&mut self.heap_pos),
            trail: take(&mut self.trail),
            seen: take(&mut self.seen),
            level_stamp: take(&mut self.level_stamp),
        };
        // A thread being torn down has no slot left; the buffers are then simply freed.
        let _ = SPARE.try_with(|s| s.set(Some(Box::new(spare))));
    }
}

impl Default for Lite {
    fn default() -> Self {
        Lite::new()
    }
}

/// Moves the variable at heap slot `i` up to its place (greatest activity first).
fn sift_up(heap: &mut [u32], heap_pos: &mut [u32], activity: &[f64], mut i: usize) {
    let v = heap[i];
    let a = activity[v as usize];
    while i > 0 {
        let p = (i - 1) / 2;
        let pv = heap[p];
        if activity[pv as usize] >= a {
            break;
        }
        heap[i] = pv;
        heap_pos[pv as usize] = i as u32;
        i = p;
    }
    heap[i] = v;
    heap_pos[v as usize] = i as u32;
}

/// Raises the activity of `v` by `inc` (all of them scaled down when it grows too large) and
/// moves it up the heap if it is there.
fn bump(activity: &mut [f64], inc: &mut f64, heap: &mut [u32], heap_pos: &mut [u32], v: usize) {
    activity[v] += *inc;
    if activity[v] > 1e100 {
        for x in activity.iter_mut() {
            *x *= 1e-100;
        }
        *inc *= 1e-100;
    }
    let pos = heap_pos[v];
    if pos != NONE {
        sift_up(heap, heap_pos, activity, pos as usize);
    }
}

/// The `i`th term (from 0) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...
fn luby(mut i: u64) -> u64 {
    // The smallest complete run 2^k - 1 terms long that holds term i, then down into the
    // run of which it is a part.
    let (mut size, mut k) = (1u64, 0u32);
    while size < i + 1 {
        k += 1;
        size = 2 * size + 1;
    }
    while size - 1 != i {
        size = (size - 1) >> 1;
        k -= 1;
        i %= size;
    }
    1 << k
}

fn lit_of(code: u32) -> Lit {
    Var::from_index((code >> 1) as usize).lit(code & 1 == 0)
}

impl Lite {
    /// An empty solver.
    pub fn new() -> Lite {
        Lite::with_stop(None)
    }

    /// An empty solver that answers [`SolverError::Stopped`] once `stop` is raised.
    pub fn with_stop(stop: Option<Stop>) -> Lite {
        let spare = SPARE.with(|s| s.take()).unwrap_or_default();
        let mut bin_start = emptied(spare.bin_start);
        bin_start.push(0);
        Lite {
            ok: true,
            arena: emptied(spare.arena),
            tern: emptied(spare.tern),
            wasted: 0,
            learnts: Vec::new(),
            watches: spare.lists,
            bin_flat: emptied(spare.bin_flat),
            bin_start,
            bin_pairs: spare.bin_pairs,
            bins: spare.bin_lists,
            has_bins: emptied(spare.has_bins),
            bin_conflict: [0; 2],
            value: emptied(spare.value),
            level: emptied(spare.level),
            reason: emptied(spare.reason),
            phase: emptied(spare.phase),
            activity: emptied(spare.activity),
            var_inc: 1.0,
            heap: emptied(spare.heap),
            heap_pos: emptied(spare.heap_pos),
            trail: emptied(spare.trail),
            trail_lim: Vec::new(),
            qhead: 0,
            seen: emptied(spare.seen),
            to_clear: Vec::new(),
            stack: Vec::new(),
            learnt: Vec::new(),
            level_stamp: emptied(spare.level_stamp),
            stamp: 0,
            clause_buf: Vec::new(),
            conflicts: 0,
            lbd_recent: 0.0,
            lbd_sum: 0.0,
            next_reduce: FIRST_REDUCE,
            reduce_step: FIRST_REDUCE,
            num_vars: 0,
            stop,
            fresh: true,
            search: Search::Standard,
            restarts: 0,
        }
    }

    /// Chooses how the search goes (see [`Search`]): under [`Search::Direct`] every
    /// variable's phase becomes true and is not saved any more, the activities decay faster
    /// and restarts follow the Luby sequence. It changes where the search looks, never an
    /// answer.
    pub fn set_search(&mut self, search: Search) {
        self.search = search;
        if search == Search::Direct {
            self.phase.fill(true);
        }
    }

    /// The conflicts met so far, over every solve.
    pub fn conflicts(&self) -> u64 {
        self.conflicts
    }

    /// Makes room for `n` variables at once (loading a formula calls it with its count).
    pub fn reserve_vars(&mut self, n: usize) {
        if n <= self.num_vars {
            return;
        }
        let old = self.num_vars;
        self.value.resize(2 * n, 0);
        self.level.resize(n, 0);
        self.reason.resize(n, NONE);
        // Under `Search::Direct` a variable is decided true first.
        self.phase.resize(n, self.search == Search::Direct);
        self.activity.resize(n, 0.0);
        self.heap_pos.resize(n, NONE);
        self.seen.resize(n, false);
        self.level_stamp.resize(n + 1, 0);
        grow_lists(&mut self.watches, 2 * n);
        grow_lists(&mut self.bins, 2 * n);
        self.has_bins.resize(2 * n, false);
        let end = *self.bin_start.last().unwrap_or(&0);
        self.bin_start.resize(2 * n + 1, end);
        // Activities are never negative, so a new variable (activity 0) can go last.
        self.heap.reserve(n - old);
        for v in old..n {
            self.heap_pos[v] = self.heap.len() as u32;
            self.heap.push(v as u32);
        }
        self.num_vars = n;
    }

    /// Every clause the solver holds that is not learnt (as simplified by the units found at
    /// level 0), then those units: together they are equivalent to every clause added.
    pub fn export(&self, mut clause: impl FnMut(&[Lit])) {
        let mut buf = Vec::new();
        let mut at = 0;
        while at < self.arena.len() {
            let len = self.arena[at] as usize;
            let flags = self.arena[at + 1];
            if flags & (LEARNT | DELETED) == 0 {
                buf.clear();
                buf.extend(
                    self.arena[at + HEADER..at + HEADER + len]
                        .iter()
                        .map(|&c| lit_of(c)),
                );
                clause(&buf);
            }
            at += HEADER + len;
        }
        for c in self.tern.chunks_exact(3) {
            buf.clear();
            buf.extend(c.iter().map(|&l| lit_of(l)));
            clause(&buf);
        }
        for l in 0..2 * self.num_vars as u32 {
            let from = self.bin_start[l as usize] as usize;
            let to = self.bin_start[l as usize + 1] as usize;
            for &o in self.bin_flat[from..to].iter().chain(&self.bins[l as usize]) {
                if l < o {
                    clause(&[lit_of(l), lit_of(o)]);
                }
            }
        }
        let units = if self.trail_lim.is_empty() {
            self.trail.len()
        } else {
            self.trail_lim[0]
        };
        for &l in &self.trail[..units] {
            clause(&[lit_of(l)]);
        }
        if !self.ok {
            clause(&[]);
        }
    }

    fn decision_level(&self) -> usize {
        self.trail_lim.len()
    }

    // The branching heap.

    fn heap_down(&mut self, mut i: usize) {
        let (heap, heap_pos, activity) = (
            &mut self.heap[..],
            &mut self.heap_pos[..],
            &self.activity[..],
        );
        let v = heap[i];
        let a = activity[v as usize];
        let n = heap.len();
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            let c = if r < n && activity[heap[r] as usize] > activity[heap[l] as usize] {
                r
            } else {
                l
            };
            let cv = heap[c];
            if activity[cv as usize] <= a {
                break;
            }
            heap[i] = cv;
            heap_pos[cv as usize] = i as u32;
            i = c;
        }
        heap[i] = v;
        heap_pos[v as usize] = i as u32;
    }

    fn heap_pop(&mut self) -> Option<u32> {
        let last = self.heap.pop()?;
        if self.heap.is_empty() {
            self.heap_pos[last as usize] = NONE;
            return Some(last);
        }
        let top = self.heap[0];
        self.heap_pos[top as usize] = NONE;
        self.heap[0] = last;
        self.heap_pos[last as usize] = 0;
        self.heap_down(0);
        Some(top)
    }

    // Clauses and assignments.

    fn alloc(&mut self, lits: &[u32], learnt: bool, lbd: u32) -> u32 {
        let cref = self.arena.len() as u32;
        assert!(cref < TERN, "the clause arena is full");
        self.arena.push(lits.len() as u32);
        self.arena
            .push((lbd << LBD_SHIFT) | if learnt { LEARNT } else { 0 });
        self.arena.extend_from_slice(lits);
        cref
    }

    /// Watches a clause of three or more literals on its first two.
    fn attach(&mut self, cref: u32) {
        let at = cref as usize + HEADER;
        let (a, b) = (self.arena[at], self.arena[at + 1]);
        self.watches[a as usize].push(Watch { cref, blocker: b });
        self.watches[b as usize].push(Watch { cref, blocker: a });
    }

    fn add_binary(&mut self, a: u32, b: u32) {
        self.bins[a as usize].push(b);
        self.bins[b as usize].push(a);
        self.has_bins[a as usize] = true;
        self.has_bins[b as usize] = true;
    }

    /// The number of false literals of a reason (all but the one it implied).
    fn reason_len(&self, r: u32) -> usize {
        if r & BIN != 0 {
            1
        } else if r & TERN != 0 {
            2
        } else {
            self.arena[r as usize] as usize - 1
        }
    }

    /// The `k`th false literal of a reason.
    fn reason_lit(&self, r: u32, k: usize) -> u32 {
        if r & BIN != 0 {
            r & !BIN
        } else if r & TERN != 0 {
            self.tern[(r & !TERN) as usize + 1 + k]
        } else {
            self.arena[r as usize + HEADER + 1 + k]
        }
    }

    #[inline(always)]
    fn enqueue(&mut self, l: u32, reason: u32) {
        self.value[l as usize] = 1;
        self.value[(l ^ 1) as usize] = -1;
        let v = (l >> 1) as usize;
        self.level[v] = self.trail_lim.len() as u32;
        self.reason[v] = reason;
        self.trail.push(l);
    }

    /// Unit propagation; the conflicting clause, or [`NONE`].
    fn propagate(&mut self) -> u32 {
        // The fields it touches, borrowed apart: the loops then keep them in registers instead
        // of reloading them through `self` after every assignment.
        let Lite {
            trail,
            qhead,
            bin_start,
            bin_flat,
            bins,
            has_bins,
            value,
            level,
            reason,
            trail_lim,
            bin_conflict,
            watches,
            arena,
            tern,
            ..
        } = self;
        // As slices: their pointers and lengths then stay in registers across the pushes onto
        // the trail and the watch lists.
        let (value, level, reason) = (&mut value[..], &mut level[..], &mut reason[..]);
        let (bin_start, bin_flat, bins, has_bins, watches, arena, tern) = (
            &bin_start[..],
            &bin_flat[..],
            &bins[..],
            &has_bins[..],
            &mut watches[..],
            &mut arena[..],
            &mut tern[..],
        );
        let mut qh = *qhead;
        let current = trail_lim.len() as u32;
        let mut assign = |trail: &mut Vec<u32>, value: &mut [i8], l: u32, r: u32| {
            value[l as usize] = 1;
            value[(l ^ 1) as usize] = -1;
            let v = (l >> 1) as usize;
            level[v] = current;
            reason[v] = r;
            trail.push(l);
        };
        while qh < trail.len() {
            let p = trail[qh];
            qh += 1;
            let false_lit = p ^ 1;
            let fl = false_lit as usize;
            // Binary clauses: those loaded first, then the others.
            let (from, to) = (bin_start[fl] as usize, bin_start[fl + 1] as usize);
            let later: &[u32] = if has_bins[fl] { &bins[fl] } else { &[] };
            for list in [&bin_flat[from..to], later] {
                for &other in list {
                    match value[other as usize] {
                        1 => {}
                        0 => assign(trail, value, other, BIN | false_lit),
                        _ => {
                            *bin_conflict = [false_lit, other];
                            *qhead = trail.len();
                            return BIN_CONFLICT;
                        }
                    }
                }
            }
            // Longer clauses.
            if watches[fl].is_empty() {
                continue;
            }
            let mut ws = std::mem::take(&mut watches[fl]);
            let mut conflict = NONE;
            let mut i = 0;
            let mut j = 0;
            while i < ws.len() {
                let w = ws[i];
                i += 1;
                if value[w.blocker as usize] == 1 {
                    ws[j] = w;
                    j += 1;
                    continue;
                }
                let c = if w.cref & TERN != 0 {
                    let at = (w.cref & !TERN) as usize;
                    &mut tern[at..at + 3]
                } else {
                    let at = w.cref as usize;
                    let len = arena[at] as usize;
                    &mut arena[at + HEADER..at + HEADER + len]
                };
                let len = c.len();
                // The false literal goes second.
                let first = if c[0] == false_lit {
                    let first = c[1];
                    c[0] = first;
                    c[1] = false_lit;
                    first
                } else {
                    c[0]
                };
                let nw = Watch {
                    cref: w.cref,
                    blocker: first,
                };
                if first != w.blocker && value[first as usize] == 1 {
                    ws[j] = nw;
                    j += 1;
                    continue;
                }
                // A literal not false to watch instead (most clauses here have three).
                let mut moved = false;
                for k in 2..len {
                    let l = c[k];
                    if value[l as usize] != -1 {
                        c[1] = l;
                        c[k] = false_lit;
                        watches[l as usize].push(nw);
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                ws[j] = nw;
                j += 1;
                if value[first as usize] == -1 {
                    conflict = w.cref;
                    ws.copy_within(i.., j);
                    j += ws.len() - i;
                    break;
                }
                assign(trail, value, first, w.cref);
            }
            ws.truncate(j);
            watches[fl] = ws;
            if conflict != NONE {
                *qhead = trail.len();
                return conflict;
            }
        }
        *qhead = qh;
        NONE
    }

    fn cancel_until(&mut self, level: usize) {
        if self.decision_level() <= level {
            return;
        }
        let lim = self.trail_lim[level];
        // Under `Search::Direct` the phases stay true (a decision makes a literal of a
        // direct encoding true: a cell takes a value).
        let save = self.search == Search::Standard;
        // A variable's level and reason are read only while it is assigned, so they are left
        // as they were. The fields borrowed apart, as in `propagate`.
        let Lite {
            trail,
            value,
            phase,
            heap,
            heap_pos,
            activity,
            ..
        } = self;
        let (value, phase, heap_pos, activity) = (
            &mut value[..],
            &mut phase[..],
            &mut heap_pos[..],
            &activity[..],
        );
        for &l in trail[lim..].iter().rev() {
            let v = (l >> 1) as usize;
            // Both literals of the variable at once.
            value[2 * v..2 * v + 2].fill(0);
            if save {
                phase[v] = l & 1 == 0;
            }
            if heap_pos[v] == NONE {
                heap_pos[v] = heap.len() as u32;
                heap.push(v as u32);
                let last = heap.len() - 1;
                sift_up(heap, heap_pos, activity, last);
            }
        }
        trail.truncate(lim);
        self.trail_lim.truncate(level);
        self.qhead = lim;
    }

    // Conflict analysis.

    /// 1UIP analysis of `confl`: leaves the learnt clause in `self.learnt` (the asserting
    /// literal first, a literal of the backjump level second) and returns that level.
    fn analyze(&mut self, confl: u32) -> usize {
        let current = self.decision_level() as u32;
        // The fields it touches, borrowed apart (as in `propagate`).
        let Lite {
            learnt,
            seen,
            level,
            reason,
            trail,
            arena,
            tern,
            bin_conflict,
            activity,
            var_inc,
            heap,
            heap_pos,
            ..
        } = self;
        let (seen, level, reason, trail, arena, tern) = (
            &mut seen[..],
            &level[..],
            &reason[..],
            &trail[..],
            &arena[..],
            &tern[..],
        );
        let (activity, heap, heap_pos) = (&mut activity[..], &mut heap[..], &mut heap_pos[..]);
        learnt.clear();
        learnt.push(0);
        let mut path = 0u32;
        let mut p = NONE;
        let mut idx = trail.len();
        let mut cref = confl;
        loop {
            // The clause's literals: all of the conflict, a reason's false ones.
            let one;
            let lits: &[u32] = if p == NONE {
                if cref == BIN_CONFLICT {
                    &bin_conflict[..]
                } else if cref & TERN != 0 {
                    let at = (cref & !TERN) as usize;
                    &tern[at..at + 3]
                } else {
                    let at = cref as usize;
                    &arena[at + HEADER..at + HEADER + arena[at] as usize]
                }
            } else if cref & BIN != 0 {
                one = [cref & !BIN];
                &one
            } else if cref & TERN != 0 {
                let at = (cref & !TERN) as usize;
                &tern[at + 1..at + 3]
            } else {
                let at = cref as usize;
                &arena[at + HEADER + 1..at + HEADER + arena[at] as usize]
            };
            for &q in lits {
                let v = (q >> 1) as usize;
                if !seen[v] && level[v] > 0 {
                    bump(activity, var_inc, heap, heap_pos, v);
                    seen[v] = true;
                    if level[v] >= current {
                        path += 1;
                    } else {
                        learnt.push(q);
                    }
                }
            }
            loop {
                idx -= 1;
                if seen[(trail[idx] >> 1) as usize] {
                    break;
                }
            }
            p = trail[idx];
            let v = (p >> 1) as usize;
            cref = reason[v];
            seen[v] = false;
            path -= 1;
            if path == 0 {
                break;
            }
        }
        self.learnt[0] = p ^ 1;

        // Recursive minimisation: drop a literal implied by the others.
        self.to_clear.clear();
        self.to_clear.extend_from_slice(&self.learnt[1..]);
        let mut levels = 0u32;
        for &q in &self.learnt[1..] {
            levels |= 1 << (self.level[(q >> 1) as usize] & 31);
        }
        let mut j = 1;
        for i in 1..self.learnt.len() {
            let q = self.learnt[i];
            if self.reason[(q >> 1) as usize] == NONE || !self.redundant(q, levels) {
                self.learnt[j] = q;
                j += 1;
            }
        }
        self.learnt.truncate(j);
        for i in 0..self.to_clear.len() {
            self.seen[(self.to_clear[i] >> 1) as usize] = false;
        }

        if self.learnt.len() == 1 {
            return 0;
        }
        let mut max = 1;
        for i in 2..self.learnt.len() {
            if self.level[(self.learnt[i] >> 1) as usize]
                > self.level[(self.learnt[max] >> 1) as usize]
            {
                max = i;
            }
        }
        self.learnt.swap(1, max);
        self.level[(self.learnt[1] >> 1) as usize] as usize
    }

    /// True when `p` (a false literal of the learnt clause, implied) follows from literals
    /// already in the clause.
    fn redundant(&mut self, p: u32, levels: u32) -> bool {
        self.stack.clear();
        self.stack.push(p);
        let top = self.to_clear.len();
        while let Some(q) = self.stack.pop() {
            let r = self.reason[(q >> 1) as usize];
            for k in 0..self.reason_len(r) {
                let l = self.reason_lit(r, k);
                let v = (l >> 1) as usize;
                if self.seen[v] || self.level[v] == 0 {
                    continue;
                }
                if self.reason[v] != NONE && (1 << (self.level[v] & 31)) & levels != 0 {
                    self.seen[v] = true;
                    self.stack.push(l);
                    self.to_clear.push(l);
                } else {
                    for t in top..self.to_clear.len() {
                        self.seen[(self.to_clear[t] >> 1) as usize] = false;
                    }
                    self.to_clear.truncate(top);
                    return false;
                }
            }
        }
        true
    }

    /// The number of distinct decision levels in `self.learnt`.
    fn lbd(&mut self) -> u32 {
        self.stamp += 1;
        let mut n = 0;
        for &q in &self.learnt {
            let l = self.level[(q >> 1) as usize] as usize;
            if l >= self.level_stamp.len() {
                self.level_stamp.resize(l + 1, 0);
            }
            if self.level_stamp[l] != self.stamp {
                self.level_stamp[l] = self.stamp;
                n += 1;
            }
        }
        n
    }

    /// The assumptions that force the assumption `p` false: `p` and the assumptions (decisions)
    /// its negation was implied from.
    fn analyze_final(&mut self, p: u32) -> Vec<Lit> {
        let mut out = vec![lit_of(p)];
        let v = (p >> 1) as usize;
        if self.level[v] == 0 {
            return out;
        }
        self.seen[v] = true;
        for i in (self.trail_lim[0]..self.trail.len()).rev() {
            let l = self.trail[i];
            let x = (l >> 1) as usize;
            if !self.seen[x] {
                continue;
            }
            let r = self.reason[x];
            if r == NONE {
                // Below the assumption levels every decision is an assumption.
                out.push(lit_of(l));
            } else {
                for k in 0..self.reason_len(r) {
                    let q = self.reason_lit(r, k);
                    if self.level[(q >> 1) as usize] > 0 {
                        self.seen[(q >> 1) as usize] = true;
                    }
                }
            }
            self.seen[x] = false;
        }
        out
    }

    // Learnt clause deletion.

    fn locked(&self, cref: u32) -> bool {
        let first = self.arena[cref as usize + HEADER];
        self.value[first as usize] == 1 && self.reason[(first >> 1) as usize] == cref
    }

    /// Deletes the worse half of the learnt clauses (by LBD; glue clauses and reasons stay).
    fn reduce(&mut self) {
        let arena = &self.arena;
        self.learnts
            .sort_by_key(|&c| std::cmp::Reverse(arena[c as usize + 1] >> LBD_SHIFT));
        let half = self.learnts.len() / 2;
        let mut kept = Vec::with_capacity(self.learnts.len());
        for i in 0..self.learnts.len() {
            let c = self.learnts[i];
            let lbd = self.arena[c as usize + 1] >> LBD_SHIFT;
            if i < half && lbd > 2 && !self.locked(c) {
                self.arena[c as usize + 1] |= DELETED;
                self.wasted += HEADER + self.arena[c as usize] as usize;
            } else {
                kept.push(c);
            }
        }
        self.learnts = kept;
        let arena = &self.arena;
        for ws in &mut self.watches[..2 * self.num_vars] {
            ws.retain(|w| w.cref & TERN != 0 || arena[w.cref as usize + 1] & DELETED == 0);
        }
        if self.wasted * 2 > self.arena.len() {
            self.collect();
        }
    }

    /// Compacts the arena: every clause moves down over the deleted ones.
    fn collect(&mut self) {
        let mut fresh = Vec::with_capacity(self.arena.len() - self.wasted);
        let mut at = 0;
        while at < self.arena.len() {
            let len = self.arena[at] as usize;
            let flags = self.arena[at + 1];
            if flags & DELETED == 0 {
                let to = fresh.len() as u32;
                fresh.extend_from_slice(&self.arena[at..at + HEADER + len]);
                // The old flag word now says where the clause went.
                self.arena[at + 1] = to;
            }
            at += HEADER + len;
        }
        let old = std::mem::replace(&mut self.arena, fresh);
        let moved = |c: u32| old[c as usize + 1];
        for ws in &mut self.watches[..2 * self.num_vars] {
            for w in ws.iter_mut() {
                if w.cref & TERN == 0 {
                    w.cref = moved(w.cref);
                }
            }
        }
        for &l in &self.trail {
            let r = &mut self.reason[(l >> 1) as usize];
            if *r != NONE && *r & (BIN | TERN) == 0 {
                *r = moved(*r);
            }
        }
        for c in &mut self.learnts {
            *c = moved(*c);
        }
        self.wasted = 0;
    }

    // The interface.

    /// Loads the first formula in one pass over its clauses: a binary clause goes to a list of
    /// pairs (the flat table is built from them once each literal's count is known), a longer
    /// one straight into the arena and onto its two watch lists; units (and clauses with a
    /// repeated variable) go through [`Lite::add`] once every other clause is in place, since
    /// their propagation must see them all. Clauses keep their order in every list, so the
    /// search is the same as with clauses added one by one in the bulk tables.
    fn load(&mut self, f: &Formula) {
        self.fresh = false;
        self.reserve_vars(f.num_vars());
        let lits = 2 * self.num_vars;
        let (all, ends) = f.flat();
        // Nothing is loaded yet, so the binary table's starts are all zero (`reserve_vars`).
        let mut start = std::mem::take(&mut self.bin_start);
        debug_assert!(start.len() == lits + 1 && start.iter().all(|&s| s == 0));
        let mut pairs = std::mem::take(&mut self.bin_pairs);
        pairs.clear();
        // Room for every clause as a pair: no growing in the loop.
        pairs.reserve(2 * ends.len());
        let mut others = Vec::new();
        let Lite {
            arena,
            tern,
            watches,
            ..
        } = self;
        arena.reserve(all.len() + HEADER * ends.len());
        // Sliced to the literals in use, so that the checks below (`< lits`) also bound the
        // indices.
        let watches = &mut watches[..lits];
        let counts = &mut start[1..=lits];
        let mut from = 0;
        for &end in ends {
            let end = end as usize;
            let c = &all[from..end];
            let at = from;
            from = end;
            match *c {
                [a, b] => {
                    let (a, b) = (a.code(), b.code());
                    if a >> 1 != b >> 1 && a.max(b) < lits {
                        counts[a] += 1;
                        counts[b] += 1;
                        pairs.extend_from_slice(&[a as u32, b as u32]);
                        continue;
                    }
                }
                [a, b, d] => {
                    let (a, b, d) = (a.code(), b.code(), d.code());
                    if a >> 1 != b >> 1
                        && a >> 1 != d >> 1
                        && b >> 1 != d >> 1
                        && a.max(b).max(d) < lits
                    {
                        let cref = TERN | tern.len() as u32;
                        assert!(tern.len() + 3 < TERN as usize, "too many clauses");
                        tern.extend([a as u32, b as u32, d as u32]);
                        watches[a].push(Watch {
                            cref,
                            blocker: b as u32,
                        });
                        watches[b].push(Watch {
                            cref,
                            blocker: a as u32,
                        });
                        continue;
                    }
                }
                // Three to sixteen distinct literals, none the negation of another (longer
                // ones are checked by `add`, which sorts them).
                _ if (4..=16).contains(&c.len())
                    && c.iter().all(|l| l.code() < lits)
                    && c.iter()
                        .enumerate()
                        .all(|(i, a)| c[..i].iter().all(|b| a.var() != b.var())) =>
                {
                    let cref = arena.len() as u32;
                    assert!(cref < TERN, "the clause arena is full");
                    arena.push(c.len() as u32);
                    arena.push(0);
                    arena.extend(c.iter().map(|l| l.code() as u32));
                    let (a, b) = (c[0].code() as u32, c[1].code() as u32);
                    watches[a as usize].push(Watch { cref, blocker: b });
                    watches[b as usize].push(Watch { cref, blocker: a });
                    continue;
                }
                _ => {}
            }
            others.push(at..end);
        }
        for l in 0..lits {
            start[l + 1] += start[l];
        }
        // The flat table from the pairs, each literal's others in clause order.
        let mut flat = std::mem::take(&mut self.bin_flat);
        flat.clear();
        flat.resize(start[lits] as usize, 0);
        let mut fill = start.clone();
        for p in pairs.chunks_exact(2) {
            let (a, b) = (p[0] as usize, p[1] as usize);
            flat[fill[a] as usize] = p[1];
            fill[a] += 1;
            flat[fill[b] as usize] = p[0];
            fill[b] += 1;
        }
        self.bin_flat = flat;
        self.bin_start = start;
        self.bin_pairs = pairs;
        for r in others {
            self.add(&all[r]);
        }
    }

    /// Adds a clause between solves. After a model found without assumptions the solver is
    /// still at that model's decision level: a clause the model falsifies is added there (see
    /// [`Lite::add_below_model`]); any other first takes the solver back to level 0.
    pub fn add(&mut self, clause: &[Lit]) {
        self.fresh = false;
        let top = clause
            .iter()
            .map(|l| l.var().index() + 1)
            .max()
            .unwrap_or(0);
        self.reserve_vars(top);
        if !self.ok {
            return;
        }
        if self.decision_level() > 0 {
            if self.add_below_model(clause) {
                return;
            }
            self.cancel_until(0);
        }
        let mut buf = std::mem::take(&mut self.clause_buf);
        buf.clear();
        buf.extend(clause.iter().map(|l| l.code() as u32));
        buf.sort_unstable();
        buf.dedup();
        let mut j = 0;
        let mut drop = false;
        for i in 0..buf.len() {
            let l = buf[i];
            if (i > 0 && buf[i - 1] == l ^ 1) || self.value[l as usize] == 1 {
                drop = true; // a tautology, or true for good
                break;
            }
            if self.value[l as usize] == 0 {
                buf[j] = l;
                j += 1;
            }
        }
        buf.truncate(j);
        if !drop {
            match buf.len() {
                0 => self.ok = false,
                1 => {
                    self.enqueue(buf[0], NONE);
                    if self.propagate() != NONE {
                        self.ok = false;
                    }
                }
                2 => self.add_binary(buf[0], buf[1]),
                _ => {
                    let cref = self.alloc(&buf, false, 0);
                    self.attach(cref);
                }
            }
        }
        self.clause_buf = buf;
    }

    /// Adds `clause` while the last model is still on the trail, when every literal of it is
    /// false there (a clause that blocks the model, or a lazy cut of it): as a learnt clause
    /// would be, it goes back to the second-highest decision level among its literals, where
    /// it is unit, and implies its literal of the highest level (or, with two or more of them
    /// there, to just below that level, where it has two free literals). The trail below
    /// stays: nothing on it depended on the clause. False when the clause is of another kind
    /// (a literal true or free, a repeated variable) or has fewer than two literals above
    /// level 0; the caller then goes back to level 0. Under [`Search::Direct`] a clause of
    /// three or more literals is analysed as a conflict instead: its first UIP clause is
    /// learnt and asserted, further back (a Sudoku's blocking clause names every open cell;
    /// the learnt one, the few decisions it rests on), unless that would leave the clause
    /// itself unit and unpropagated; then it implies its literal as above.
    fn add_below_model(&mut self, clause: &[Lit]) -> bool {
        let mut buf = std::mem::take(&mut self.clause_buf);
        buf.clear();
        for &l in clause {
            let code = l.code() as u32;
            if self.value[code as usize] != -1 {
                self.clause_buf = buf;
                return false;
            }
            // False literals of level 0 are false for good.
            if self.level[(code >> 1) as usize] > 0 {
                buf.push(code);
            }
        }
        buf.sort_unstable();
        buf.dedup();
        if buf.len() < 2 {
            self.clause_buf = buf;
            return false;
        }
        // The highest level first, the next highest second.
        let level = |l: u32| self.level[(l >> 1) as usize];
        let mut top = 0;
        for i in 1..buf.len() {
            if level(buf[i]) > level(buf[top]) {
                top = i;
            }
        }
        buf.swap(0, top);
        let mut next = 1;
        for i in 2..buf.len() {
            if level(buf[i]) > level(buf[next]) {
                next = i;
            }
        }
        buf.swap(1, next);
        let (high, second) = (level(buf[0]) as usize, level(buf[1]) as usize);
        if self.search == Search::Direct && buf.len() >= 3 {
            self.cancel_until(high);
            let cref = self.alloc(&buf, false, 0);
            self.attach(cref);
            let back = self.analyze(cref);
            if back < second {
                let lbd = self.lbd();
                self.cancel_until(back);
                self.learn(lbd);
            } else {
                self.cancel_until(second);
                self.enqueue(buf[0], cref);
            }
            self.clause_buf = buf;
            return true;
        }
        let unit = second < high;
        self.cancel_until(if unit { second } else { high - 1 });
        let reason = if buf.len() == 2 {
            self.add_binary(buf[0], buf[1]);
            BIN | buf[1]
        } else {
            let cref = self.alloc(&buf, false, 0);
            self.attach(cref);
            cref
        };
        if unit {
            self.enqueue(buf[0], reason);
        }
        self.clause_buf = buf;
        true
    }

    /// Stores the clause [`Lite::analyze`] left in `self.learnt` (of LBD `lbd`) and asserts its
    /// first literal, once the caller went back to the level the analysis returned.
    fn learn(&mut self, lbd: u32) {
        let asserting = self.learnt[0];
        if self.learnt.len() == 1 {
            self.enqueue(asserting, NONE);
        } else if self.learnt.len() == 2 {
            let other = self.learnt[1];
            self.add_binary(asserting, other);
            self.enqueue(asserting, BIN | other);
        } else {
            let learnt = std::mem::take(&mut self.learnt);
            let cref = self.alloc(&learnt, true, lbd);
            self.learnt = learnt;
            self.attach(cref);
            self.learnts.push(cref);
            self.enqueue(asserting, cref);
        }
    }

    /// Solves under `assumptions`, giving up (`Ok(None)`, nothing changed but learnt clauses)
    /// after `budget` conflicts in this call.
    pub fn solve_limited(
        &mut self,
        assumptions: &[Lit],
        budget: u64,
    ) -> Result<Option<Outcome>, SolverError> {
        if self.stop.as_ref().is_some_and(Stop::is_raised) {
            return Err(SolverError::Stopped);
        }
        let top = assumptions
            .iter()
            .map(|l| l.var().index() + 1)
            .max()
            .unwrap_or(0);
        self.reserve_vars(top);
        if !self.ok {
            return Ok(Some(Outcome::Unsat(Vec::new())));
        }
        let assumed: Vec<u32> = assumptions.iter().map(|l| l.code() as u32).collect();
        // A model kept from the last call (see `add_below_model`) was found without
        // assumptions; with some, the search starts from the root.
        if !assumed.is_empty() {
            self.cancel_until(0);
        }
        let start = self.conflicts;
        let mut since_restart = 0u64;
        let mut decisions = 0u64;
        loop {
            let confl = self.propagate();
            if confl != NONE {
                self.conflicts += 1;
                if self.decision_level() == 0 {
                    self.ok = false;
                    return Ok(Some(Outcome::Unsat(Vec::new())));
                }
                since_restart += 1;
                let back = self.analyze(confl);
                let lbd = self.lbd();
                self.lbd_recent += (lbd as f64 - self.lbd_recent) / RESTART_WINDOW;
                self.lbd_sum += lbd as f64;
                self.cancel_until(back);
                self.learn(lbd);
                self.var_inc /= match self.search {
                    Search::Standard => VAR_DECAY,
                    Search::Direct => DIRECT_DECAY,
                };
                if self.conflicts & POLL_MASK == 0
                    && self.stop.as_ref().is_some_and(Stop::is_raised)
                {
                    self.cancel_until(0);
                    return Err(SolverError::Stopped);
                }
                if self.conflicts - start >= budget {
                    self.cancel_until(0);
                    return Ok(None);
                }
                continue;
            }
            let restart = match self.search {
                Search::Standard => {
                    since_restart >= RESTART_MIN
                        && self.lbd_recent * RESTART_MARGIN > self.lbd_sum / self.conflicts as f64
                }
                Search::Direct => since_restart >= DIRECT_LUBY_UNIT * luby(self.restarts),
            };
            if restart {
                self.restarts += 1;
                since_restart = 0;
                self.cancel_until(0);
            }
            if self.conflicts >= self.next_reduce {
                self.reduce_step += REDUCE_STEP;
                self.next_reduce = self.conflicts + self.reduce_step;
                self.reduce();
            }
            let mut next = NONE;
            while self.decision_level() < assumed.len() {
                let p = assumed[self.decision_level()];
                match self.value[p as usize] {
                    1 => self.trail_lim.push(self.trail.len()),
                    -1 => {
                        let core = self.analyze_final(p);
                        self.cancel_until(0);
                        return Ok(Some(Outcome::Unsat(core)));
                    }
                    _ => {
                        next = p;
                        break;
                    }
                }
            }
            // Every variable assigned: a model, without draining the heap of the variables
            // propagation assigned (on a small formula that is most of them, and each pop
            // sifts; left in the heap, they need no reinsertion on the way back to level 0).
            if next == NONE {
                while self.trail.len() < self.num_vars {
                    match self.heap_pop() {
                        None => break,
                        Some(v) if self.value[2 * v as usize] == 0 => {
                            next = if self.phase[v as usize] {
                                2 * v
                            } else {
                                2 * v + 1
                            };
                            break;
                        }
                        Some(_) => {}
                    }
                }
                if next == NONE {
                    let values = (0..self.num_vars).map(|v| self.value[2 * v] == 1).collect();
                    // Without assumptions the model stays on the trail: a clause that blocks
                    // it (the next question of a uniqueness check or a lazy cut) then takes
                    // the search back only as far as it must (see `add_below_model`), not to
                    // the root, from where every decision would be made and propagated again.
                    if !assumed.is_empty() {
                        self.cancel_until(0);
                    }
                    return Ok(Some(Outcome::Sat(Assignment::new(values))));
                }
            }
            // A big formula can take seconds of decisions between conflicts: the stop flag is
            // looked at between decisions too.
            decisions += 1;
            if decisions & POLL_MASK == 0 && self.stop.as_ref().is_some_and(Stop::is_raised) {
                self.cancel_until(0);
                return Err(SolverError::Stopped);
            }
            self.trail_lim.push(self.trail.len());
            self.enqueue(next, NONE);
        }
    }
}

impl Backend for Lite {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.add(clause);
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Outcome, SolverError> {
        match self.solve_limited(assumptions, u64::MAX)? {
            Some(out) => Ok(out),
            None => Err(SolverError::Internal(
                "lite gave up without a budget".into(),
            )),
        }
    }

    fn solve_budget(
        &mut self,
        assumptions: &[Lit],
        conflicts: u64,
    ) -> Result<Option<Outcome>, SolverError> {
        self.solve_limited(assumptions, conflicts)
    }

    fn add_formula(&mut self, f: &Formula) {
        if self.fresh {
            self.load(f);
        } else {
            for c in f.clauses() {
                self.add(c);
            }
        }
    }

    fn num_vars(&self) -> usize {
        self.num_vars
    }

    fn set_search(&mut self, search: Search) {
        Lite::set_search(self, search);
    }

    /// Sets the saved phases: a decision takes the preferred value until the variable has
    /// been assigned otherwise (phase saving then remembers that; under [`Search::Direct`]
    /// nothing is saved and the preferred value stays).
    fn prefer(&mut self, lits: &[Lit]) {
        if let Some(m) = lits.iter().map(|l| l.var().index()).max() {
            self.reserve_vars(m + 1);
        }
        for &l in lits {
            self.phase[l.var().index()] = l.is_positive();
        }
    }
}

#[cfg(test)]
mod tests {
    //! The lite solver against varisat and against brute force: same verdicts, models that
    //! satisfy every clause, failed assumptions that are a subset of the assumptions and
    //! unsatisfiable on their own. Fixed seeds.

    use super::*;
    use crate::solver::testing::random_formula;
    use crate::solver::Varisat;
    use rand::Rng;

    fn random_assumptions(rng: &mut impl Rng, vars: usize, n: usize) -> Vec<Lit> {
        (0..n)
            .map(|_| Var::from_index(rng.gen_range(0..vars)).lit(rng.gen_bool(0.5)))
            .collect()
    }

    fn varisat_says(clauses: &[Vec<Lit>], assumptions: &[Lit]) -> bool {
        let mut v = Varisat::new();
        for c in clauses {
            v.add_clause(c);
        }
        matches!(v.solve(assumptions), Ok(Outcome::Sat(_)))
    }

    /// Checks one answer of the lite solver against varisat on the same clauses.
    fn check(clauses: &[Vec<Lit>], assumptions: &[Lit], got: &Outcome) {
        let sat = varisat_says(clauses, assumptions);
        match got {
            Outcome::Sat(m) => {
                assert!(sat, "lite says SAT, varisat UNSAT");
                for c in clauses {
                    assert!(c.iter().any(|&l| m.lit(l)), "clause {c:?} falsified");
                }
                for &a in assumptions {
                    assert!(m.lit(a), "assumption {a:?} false in the model");
                }
            }
            Outcome::Unsat(core) => {
                assert!(!sat, "lite says UNSAT, varisat SAT");
                for l in core {
                    assert!(assumptions.contains(l), "{l:?} is not an assumption");
                }
                assert!(
                    !varisat_says(clauses, core),
                    "the failed assumptions {core:?} are satisfiable"
                );
            }
        }
    }

    fn clauses_of(f: &Formula) -> Vec<Vec<Lit>> {
        f.clauses().map(|c| c.to_vec()).collect()
    }

    /// The first clause that `m` falsifies.
    fn falsified<'c>(m: &Assignment, clauses: &'c [Vec<Lit>]) -> Option<&'c Vec<Lit>> {
        clauses.iter().find(|c| !c.iter().any(|&l| m.lit(l)))
    }

    /// The models of `clauses` over the first `vars` variables, by brute force.
    fn brute_count(vars: usize, clauses: &[Vec<Lit>]) -> usize {
        (0..1u32 << vars)
            .filter(|m| {
                clauses.iter().all(|c| {
                    c.iter()
                        .any(|l| (m >> l.var().index() & 1 == 1) == l.is_positive())
                })
            })
            .count()
    }

    #[test]
    fn random_3sat_agrees_with_varisat() {
        let mut rng = crate::generate::rng(15);
        let mut seen = [0; 2];
        for round in 0..400 {
            let vars = [5, 10, 20, 40, 60][round % 5];
            let f = random_formula(&mut rng, vars, vars * 426 / 100, 3);
            let mut s = Lite::new();
            s.add_formula(&f);
            let got = s.solve(&[]).unwrap();
            seen[matches!(got, Outcome::Sat(_)) as usize] += 1;
            check(&clauses_of(&f), &[], &got);
        }
        assert!(seen[0] > 50 && seen[1] > 50, "a one-sided sample: {seen:?}");
    }

    #[test]
    fn the_direct_search_agrees_with_varisat() {
        // `Search::Direct` (true first, no saved phases, Luby restarts) on formulas with
        // thousands of conflicts, under assumptions and with clauses added between solves.
        let mut rng = crate::generate::rng(23);
        let mut restarts = 0;
        for round in 0..60 {
            let vars = [20, 60, 120, 160][round % 4];
            let f = random_formula(&mut rng, vars, vars * 426 / 100, 3);
            let mut clauses = clauses_of(&f);
            let mut s = Lite::new();
            s.add_formula(&f);
            s.set_search(Search::Direct);
            for _ in 0..3 {
                let a = random_assumptions(&mut rng, vars, round % 3);
                let got = s.solve(&a).unwrap();
                check(&clauses, &a, &got);
                let c = random_assumptions(&mut rng, vars, 3);
                s.add_clause(&c);
                clauses.push(c);
            }
            restarts += s.restarts;
        }
        assert!(restarts > 100, "only {restarts} restarts");
    }

    #[test]
    fn the_luby_sequence() {
        let first: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn loading_in_bulk_takes_every_clause_shape() {
        // The one-pass load sorts clauses by shape: binary, three literals, four to sixteen,
        // and the rest (units, empty, repeated or opposite literals, longer ones) through
        // `add`. Formulas mixing all of them, then a solve with and without assumptions, against
        // varisat.
        let mut rng = crate::generate::rng(29);
        let mut seen = [0; 2];
        for round in 0..600 {
            let vars = [3, 6, 12, 24][round % 4];
            let mut f = Formula::without_names();
            for _ in 0..vars {
                f.new_var();
            }
            for _ in 0..vars * 3 {
                let width = match rng.gen_range(0..10) {
                    0 => rng.gen_range(0..2),
                    1 => rng.gen_range(17..24),
                    2..=4 => 2,
                    5..=7 => 3,
                    _ => rng.gen_range(4..=16),
                };
                let c: Vec<Lit> = (0..width)
                    .map(|_| Var::from_index(rng.gen_range(0..vars)).lit(rng.gen_bool(0.5)))
                    .collect();
                if !c.is_empty() || round % 50 == 0 {
                    f.add_clause(&c);
                }
            }
            let clauses = clauses_of(&f);
            let assumptions = random_assumptions(&mut rng, vars, 2);
            let mut s = Lite::new();
            s.add_formula(&f);
            let got = s.solve(&[]).unwrap();
            seen[matches!(got, Outcome::Sat(_)) as usize] += 1;
            check(&clauses, &[], &got);
            let got = s.solve(&assumptions).unwrap();
            check(&clauses, &assumptions, &got);
        }
        assert!(seen[0] > 50 && seen[1] > 50, "a one-sided sample: {seen:?}");
    }

    /// Loads `f`, solves it, blocks the model's first variables, adds a few binary clauses and
    /// solves again: every answer and the conflicts met.
    fn session(f: &Formula) -> (Vec<Outcome>, u64) {
        let mut s = Lite::new();
        s.add_formula(f);
        let mut answers = vec![s.solve(&[]).unwrap()];
        if let Outcome::Sat(m) = &answers[0] {
            let block: Vec<Lit> = (0..f.num_vars().min(8))
                .map(|v| Var::from_index(v).lit(!m.lit(Var::from_index(v).pos())))
                .collect();
            s.add(&block);
        }
        for v in (0..f.num_vars().saturating_sub(1)).step_by(7) {
            s.add(&[Var::from_index(v).neg(), Var::from_index(v + 1).pos()]);
        }
        answers.push(s.solve(&[Var::from_index(0).pos()]).unwrap());
        (answers, s.conflicts())
    }

    #[test]
    fn a_solver_made_from_a_dropped_ones_buffers_answers_as_a_new_one() {
        // Solvers made one after another on this thread take the buffers the one before left
        // (larger and smaller ones in turn, so some lists are past the literals in use); each
        // is held to a solver made on a thread of its own, which starts from nothing.
        let mut rng = crate::generate::rng(17);
        let formulas: Vec<Formula> = [150, 20, 170, 60, 5, 160]
            .iter()
            .map(|&vars| random_formula(&mut rng, vars, vars * 426 / 100, 3))
            .collect();
        let mut conflicts = 0;
        for f in &formulas {
            let here = session(f);
            let alone = std::thread::scope(|t| t.spawn(|| session(f)).join().unwrap());
            assert_eq!(here, alone);
            conflicts += here.1;
        }
        assert!(conflicts > 1000, "too easy to tell: {conflicts} conflicts");
    }

    #[test]
    fn medium_random_3sat_with_many_conflicts_agrees_with_varisat() {
        // 150-200 variables at the threshold: thousands of conflicts, so learnt clauses are
        // deleted and the arena compacted along the way.
        let mut rng = crate::generate::rng(16);
        let mut most = 0;
        for round in 0..6 {
            let vars = 150 + 10 * round;
            let f = random_formula(&mut rng, vars, vars * 426 / 100, 3);
            let mut s = Lite::new();
            s.add_formula(&f);
            let got = s.solve(&[]).unwrap();
            check(&clauses_of(&f), &[], &got);
            most = most.max(s.conflicts());
        }
        assert!(
            most > 2 * FIRST_REDUCE,
            "no learnt clause was deleted ({most} conflicts)"
        );
    }

    #[test]
    fn assumptions_and_clauses_added_between_solves_agree_with_varisat() {
        let mut rng = crate::generate::rng(17);
        let mut cores = 0;
        for round in 0..150 {
            let vars = [8, 15, 30, 50][round % 4];
            let f = random_formula(&mut rng, vars, vars * 3, 3);
            let mut clauses = clauses_of(&f);
            let mut s = Lite::new();
            // Half the rounds load in bulk, half clause by clause.
            if round % 2 == 0 {
                s.add_formula(&f);
            } else {
                for c in &clauses {
                    s.add_clause(c);
                }
            }
            for _ in 0..8 {
                let n = rng.gen_range(0..6);
                let a = random_assumptions(&mut rng, vars, n);
                let got = s.solve(&a).unwrap();
                if matches!(&got, Outcome::Unsat(c) if !c.is_empty()) {
                    cores += 1;
                }
                check(&clauses, &a, &got);
                // New clauses of every length between solves.
                for _ in 0..3 {
                    let width = rng.gen_range(1..5);
                    let c = random_assumptions(&mut rng, vars, width);
                    s.add_clause(&c);
                    clauses.push(c);
                }
            }
        }
        assert!(cores > 50, "only {cores} answers named failed assumptions");
    }

    #[test]
    fn every_model_of_small_formulas_is_counted_once() {
        // Enumerate by blocking clauses, as the engine counts, and compare with brute force.
        let mut rng = crate::generate::rng(18);
        for round in 0..60 {
            let vars = 4 + round % 8;
            let f = random_formula(&mut rng, vars, vars * 2, 2 + round % 3);
            let clauses = clauses_of(&f);
            let brute = brute_count(vars, &clauses);
            let mut s = Lite::new();
            s.add_formula(&f);
            let mut count = 0;
            while let Outcome::Sat(m) = s.solve(&[]).unwrap() {
                count += 1;
                assert_eq!(
                    falsified(&m, &clauses),
                    None,
                    "round {round}: model {count} {m:?} falsifies a clause of {clauses:?}"
                );
                assert!(count <= brute, "more models than there are");
                let block: Vec<Lit> = (0..vars)
                    .map(|v| Var::from_index(v).lit(!m.var(Var::from_index(v))))
                    .collect();
                s.add_clause(&block);
            }
            assert_eq!(count, brute, "round {round}");
        }
    }

    #[test]
    fn clauses_added_below_a_kept_model_count_projections_exactly() {
        projections_counted_exactly(Search::Standard);
    }

    #[test]
    fn under_the_direct_search_too() {
        // There a clause added below the model is analysed as a conflict (its first UIP
        // clause learnt), so this takes another path.
        projections_counted_exactly(Search::Direct);
    }

    fn projections_counted_exactly(search: Search) {
        // A model found without assumptions stays on the trail, and a clause it falsifies is
        // added there (`add_below_model`): enumerate the models' projections onto the first
        // `k` variables by blocking each (short clauses, several literals often of one level)
        // check that every model satisfies every clause so far and that the last answer,
        // UNSAT, is right (brute force). Every third model also brings a clause the model
        // satisfies (`x ∨ y` over its true literals), which goes through level 0 instead.
        let mut rng = crate::generate::rng(31);
        let mut below = 0;
        for round in 0..120 {
            let vars = 6 + round % 9;
            let k = 2 + round % (vars - 2);
            let f = random_formula(&mut rng, vars, vars * 3, 2 + round % 3);
            let mut clauses = clauses_of(&f);
            let mut s = Lite::new();
            s.add_formula(&f);
            s.set_search(search);
            let mut seen = std::collections::HashSet::new();
            let mut count = 0;
            while let Outcome::Sat(m) = s.solve(&[]).unwrap() {
                count += 1;
                assert_eq!(falsified(&m, &clauses), None, "round {round}");
                let key: Vec<bool> = (0..k).map(|v| m.var(Var::from_index(v))).collect();
                assert!(
                    seen.insert(key.clone()),
                    "round {round}: projection found twice"
                );
                below += usize::from(s.decision_level() > 0);
                let block: Vec<Lit> = (0..k).map(|v| Var::from_index(v).lit(!key[v])).collect();
                s.add(&block);
                clauses.push(block);
                if count % 3 == 0 {
                    let x = Var::from_index(rng.gen_range(0..vars));
                    let y = Var::from_index(rng.gen_range(0..vars));
                    let c = vec![x.lit(m.var(x)), y.lit(m.var(y))];
                    s.add(&c);
                    clauses.push(c);
                }
            }
            assert_eq!(
                brute_count(vars, &clauses),
                0,
                "round {round}: the blocked formula still has models"
            );
        }
        assert!(below > 200, "only {below} models were kept on the trail");
    }

    #[test]
    fn every_set_of_full_clauses_on_three_variables_under_every_assumption() {
        // The 8 clauses of three literals over x1..x3, every subset of them (256 formulas),
        // each under the 27 ways to assume or not each variable, against brute force.
        let v: Vec<Var> = (0..3).map(Var::from_index).collect();
        let full: Vec<Vec<Lit>> = (0..8u32)
            .map(|signs| (0..3).map(|i| v[i].lit(signs >> i & 1 == 1)).collect())
            .collect();
        for set in 0..256u32 {
            let clauses: Vec<Vec<Lit>> = (0..8)
                .filter(|i| set >> i & 1 == 1)
                .map(|i| full[i].clone())
                .collect();
            let mut s = Lite::new();
            for c in &clauses {
                s.add_clause(c);
            }
            for pick in 0..27u32 {
                let mut a = Vec::new();
                let mut p = pick;
                for &x in &v {
                    match p % 3 {
                        1 => a.push(x.pos()),
                        2 => a.push(x.neg()),
                        _ => {}
                    }
                    p /= 3;
                }
                let models = |assumed: &[Lit]| {
                    (0..8u32).any(|m| {
                        let val = |l: Lit| (m >> l.var().index() & 1 == 1) == l.is_positive();
                        assumed.iter().all(|&l| val(l))
                            && clauses.iter().all(|c| c.iter().any(|&l| val(l)))
                    })
                };
                match s.solve(&a).unwrap() {
                    Outcome::Sat(m) => {
                        assert!(models(&a));
                        assert!(a.iter().all(|&l| m.lit(l)));
                        assert!(clauses.iter().all(|c| c.iter().any(|&l| m.lit(l))));
                    }
                    Outcome::Unsat(core) => {
                        assert!(!models(&a), "set {set}, assumptions {a:?}");
                        assert!(core.iter().all(|l| a.contains(l)));
                        assert!(!models(&core), "set {set}: core {core:?} is satisfiable");
                    }
                }
            }
        }
    }

    #[test]
    fn contradictory_and_repeated_assumptions() {
        let x = Var::from_index(0);
        let y = Var::from_index(1);
        let mut s = Lite::new();
        s.add_clause(&[x.pos(), y.pos()]);
        match s.solve(&[x.neg(), x.neg(), x.pos()]).unwrap() {
            Outcome::Unsat(core) => {
                assert!(
                    core.contains(&x.pos()) && core.contains(&x.neg()),
                    "{core:?}"
                )
            }
            other => panic!("{other:?}"),
        }
        match s.solve(&[x.neg(), y.neg()]).unwrap() {
            Outcome::Unsat(core) => assert_eq!(core.len(), 2),
            other => panic!("{other:?}"),
        }
        // A unit at level 0 makes one assumption fail on its own.
        s.add_clause(&[y.neg()]);
        assert_eq!(
            s.solve(&[y.pos(), x.pos()]).unwrap(),
            Outcome::Unsat(vec![y.pos()])
        );
        assert!(matches!(s.solve(&[]).unwrap(), Outcome::Sat(m) if m.var(x) && !m.var(y)));
        s.add_clause(&[]);
        assert_eq!(s.solve(&[]).unwrap(), Outcome::Unsat(Vec::new()));
    }

    #[test]
    fn a_spent_budget_gives_up_and_the_next_call_still_answers() {
        let mut rng = crate::generate::rng(19);
        let f = random_formula(&mut rng, 200, 852, 3);
        let mut s = Lite::new();
        s.add_formula(&f);
        assert_eq!(s.solve_limited(&[], 10).unwrap(), None);
        let got = s.solve(&[]).unwrap();
        check(&clauses_of(&f), &[], &got);
    }

    #[test]
    fn a_raised_flag_stops_the_solve() {
        let stop = Stop::new();
        stop.raise();
        let mut s = Lite::with_stop(Some(stop));
        s.add_clause(&[Var::from_index(0).pos()]);
        assert_eq!(s.solve(&[]), Err(SolverError::Stopped));
    }

    #[test]
    fn export_gives_an_equivalent_formula() {
        let mut rng = crate::generate::rng(20);
        for round in 0..40 {
            let vars = 10 + round;
            let f = random_formula(&mut rng, vars, vars * 4, 2 + round % 3);
            let mut s = Lite::new();
            s.add_formula(&f);
            s.add_clause(&[Var::from_index(round % vars).pos()]);
            let _ = s.solve(&[]).unwrap();
            let mut exported = Vec::new();
            s.export(|c| exported.push(c.to_vec()));
            let mut all = clauses_of(&f);
            all.push(vec![Var::from_index(round % vars).pos()]);
            for _ in 0..5 {
                let a = random_assumptions(&mut rng, vars, 3);
                assert_eq!(varisat_says(&exported, &a), varisat_says(&all, &a));
            }
        }
    }
}
