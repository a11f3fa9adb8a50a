//! What one path can still do, seen on the whole board: the cells it could run through and the
//! links it could use between them (its *room*). Two techniques read it:
//!
//! - *out of reach*: cells of the room the path can not get to from its ends are not on it
//!   (and when its two ends can not meet, the position is impossible);
//! - *bottleneck* / *bridge*: a cell (or a link) that every way from one end to the other
//!   passes through is on the path (is drawn).
//!
//! (Cells the path could enter but never leave are the local *dead end* technique; they do
//! not change what the two techniques here find.)

use super::board::{Board, Contradiction, Shape, Why, NONE, WHOLE};
use super::{cells_text, name, path_name, Deduction, Found, Technique};
use crate::numberlink::{Numberlink, SIDES};

/// Scratch space reused from path to path.
///
/// The sides each cell may be linked by are worked out on first use and kept until the board
/// changes ([`Scratch::prepare`]). Within a what-if ([`Scratch::keep`]), the sides worked out
/// on the board of the what-if are kept from run to run: a run only works out again those of
/// the cells near a piece of path it changed ([`Scratch::changed`]), and those only when such
/// a change came after they were last worked out.
#[derive(Default)]
pub struct Scratch {
    /// Per cell, the sides by which it is linked or may be linked (any path), and the
    /// `epoch` they were worked out in: outside a what-if they hold in that epoch only, inside
    /// one until a change near the cell.
    open: Vec<u8>,
    open_at: Vec<u64>,
    /// Counts the changes of the board (each [`Scratch::prepare`], each run).
    epoch: u64,
    /// Per cell: the sides last read, and the epoch they were read in (the board does not
    /// change within an epoch, so a second read in it needs no look at what changed).
    read: Vec<u8>,
    read_at: Vec<u64>,
    /// The same on the board of the what-if, for cells no change of the run is near.
    base: Vec<u8>,
    /// True while `base` is in use (inside a what-if).
    keeping: bool,
    /// Per cell: the epoch from which a change of a piece of path it is on or beside shows.
    near: Vec<u64>,
    /// The epoch the current run started in.
    run_start: u64,
    /// The cells [`Scratch::changed`] marked in the current run (each with its piece's
    /// neighbours), with the epoch of the change: in epoch order.
    marks: Vec<(u32, u64)>,
    /// How many of the board's [`Board::near_changes`] were there at the last
    /// [`Scratch::prepare`] (those after are the changes being marked).
    seen_changes: usize,
    /// Links to look at (see [`way_breaks_by_place`]).
    links: Vec<u32>,
    stack: Vec<usize>,
    /// Per cell: the search that last saw it (see `mark`).
    seen: Vec<u32>,
    mark: u32,
    disc: Vec<u32>,
    low: Vec<u32>,
    parent: Vec<u32>,
    dfs: Vec<(usize, u8)>,
    /// Per cell: `mark` and its place in a way being mended (see [`mend_way`]).
    goal: Vec<(u32, u32)>,
    mended: Vec<u32>,
    /// Per cell, its state in the search of open areas (see [`super::areas`]); all zero
    /// between searches.
    pub area: Vec<u8>,
    /// The cells of an open area being searched, kept when the area says nothing.
    pub area_cells: Vec<usize>,
    /// The cells the search of open areas marked (kept to save allocating it each time).
    pub area_marked: Vec<usize>,
    /// The loose ends beside an open area being searched, and the cells each could enter by
    /// (see [`super::areas`]).
    pub area_tips: Vec<usize>,
    pub area_entries: Vec<(u32, u32)>,
}

impl Scratch {
    /// Forgets the sides worked out on the board before, which has changed.
    pub fn prepare(&mut self, s: &Shape, b: &Board) {
        self.seen_changes = b.near_changes().len();
        let n = s.cells();
        if self.open_at.len() != n {
            self.open.clear();
            self.open.resize(n, UNKNOWN);
            self.open_at.clear();
            self.open_at.resize(n, 0);
            self.read.clear();
            self.read.resize(n, UNKNOWN);
            self.read_at.clear();
            self.read_at.resize(n, 0);
        }
        self.epoch += 1;
    }

    /// Starts keeping the sides worked out on `b` from run to run (a what-if on `b`): until
    /// the next call, every run starts from `b` and says what it changes.
    pub fn keep(&mut self, s: &Shape, b: &Board) {
        let n = s.cells();
        self.prepare(s, b);
        self.base.clear();
        self.base.resize(n, UNKNOWN);
        self.keeping = true;
        self.new_run(s);
    }

    /// A run starts again from the board of the what-if.
    pub fn new_run(&mut self, s: &Shape) {
        let n = s.cells();
        if self.near.len() != n {
            self.near.clear();
            self.near.resize(n, 0);
        }
        self.epoch += 1;
        self.run_start = self.epoch;
        self.marks.clear();
        self.seen_changes = 0;
    }

    /// The run changed the piece of path through `c` (a link, or its candidates), before the
    /// next [`Scratch::prepare`]: the sides of the cells up to two steps from the piece are
    /// worked out again; or, when the board says that this piece changed only by links that
    /// left the bigger piece's candidates as they were ([`Board::near_changes`]), those up to
    /// two steps from the cells it names.
    pub fn changed(&mut self, s: &Shape, b: &Board, c: usize) {
        if !self.keeping {
            return;
        }
        let changes = b.near_changes();
        let changes = &changes[self.seen_changes.min(changes.len())..];
        let r = b.root(c);
        let (mut ours, mut whole) = (false, false);
        for &x in changes {
            if b.root((x & !WHOLE) as usize) == r {
                ours = true;
                whole |= x & WHOLE != 0;
            }
        }
        if !ours || whole {
            self.mark(s, b, c, true);
            return;
        }
        let at = self.epoch + 1;
        for &x in changes {
            if b.root(x as usize) == r {
                self.marks.push((x, at));
                for &m in &s.ball[x as usize] {
                    self.near[m as usize] = at;
                }
            }
        }
    }

    /// The run changed only the candidates of the piece through `c`, and it has not one
    /// left (so that what it has is not single, as before): [`Scratch::changed`], but the
    /// change is marked over the cells of the piece and their neighbours only (not two steps
    /// out). The sides of a cell read the candidates of its own piece and of its neighbours'
    /// only (whether the two have one path in common), and the single candidate of other
    /// pieces near it; a link reads the candidates of its two cells.
    pub fn changed_candidates(&mut self, s: &Shape, b: &Board, c: usize) {
        if !self.keeping {
            return;
        }
        debug_assert!(b.single(c).is_none());
        self.mark(s, b, c, false);
    }

    /// Marks the cells of the piece through `c` (and, given the shape, their neighbours) as
    /// changed in the coming epoch.
    fn mark(&mut self, s: &Shape, b: &Board, c: usize, wide: bool) {
        if !self.keeping {
            return;
        }
        let at = self.epoch + 1;
        let near = &mut self.near;
        let marks = &mut self.marks;
        // `near` holds, per cell, the epoch of the last change within reach (two steps of a
        // cell whose piece changed, one step of a cell whose candidates only changed): the
        // epochs only grow, so the last written is the largest.
        match wide {
            true => b.each_member(c, |x| {
                marks.push((x as u32, at));
                for &m in &s.ball[x] {
                    near[m as usize] = at;
                }
            }),
            false => b.each_member(c, |x| {
                marks.push((x as u32, at));
                near[x] = at;
                for &m in &s.nb_or_self[x] {
                    near[m as usize] = at;
                }
            }),
        }
    }

    /// The epoch from which the last change on or beside a cell beside `c` (or `c`) shows
    /// ([`Scratch::mark`] writes it over every cell it reaches).
    #[inline]
    fn changed_at(&self, c: usize) -> u64 {
        self.near[c]
    }

    /// The current epoch: a way whose links all held now holds later as long as no change
    /// near them shows after it ([`Scratch::link_may_have_changed`]).
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// The epoch the current run started in (every link of a way found on the board of the
    /// what-if held then).
    pub fn run_start(&self) -> u64 {
        self.run_start
    }

    /// Inside a what-if: true when a change after epoch `v` shows near the link from `from` to
    /// `to` (`from`'s sides, or either cell's piece). When false, [`step`] across it reads
    /// what it read at `v`: the sides of `from` are those kept since, and the two pieces'
    /// candidates and `from`'s links are unchanged (a change of a piece marks every cell of
    /// it, [`Scratch::changed`]).
    #[inline]
    fn link_may_have_changed(&self, s: &Shape, from: usize, to: usize, v: u64) -> bool {
        debug_assert!(s.nb[from].contains(&(to as u32)));
        // `to` is a neighbour of `from`: what shows at it shows in `changed_at(from)`.
        !self.keeping || self.changed_at(from) > v
    }

    /// Starts a new search: no cell seen.
    fn new_search(&mut self, n: usize) {
        if self.seen.len() != n || self.mark == u32::MAX {
            self.seen.clear();
            self.seen.resize(n, 0);
            self.goal.clear();
            self.goal.resize(n, (0, 0));
            self.mark = 0;
        }
        self.mark += 1;
    }

    /// True when the last search saw `c`.
    #[inline]
    fn was_seen(&self, c: usize) -> bool {
        self.seen[c] == self.mark
    }

    /// Marks `c` seen; false when it already was.
    #[inline]
    fn see(&mut self, c: usize) -> bool {
        let fresh = self.seen[c] != self.mark;
        self.seen[c] = self.mark;
        fresh
    }

    /// The sides by which `c` is linked or may be linked, worked out on first use.
    /// (After [`Scratch::prepare`] on this board.)
    #[inline]
    pub fn sides(&mut self, s: &Shape, b: &Board, c: usize) -> u8 {
        // A cell with all its links has no other side ([`Board::sides`]): nothing to keep.
        let arms = b.arms[c];
        if super::board::degree(arms) >= b.need(s, c) {
            debug_assert_eq!(arms, work_out(s, b, c), "sides of cell {c}");
            return arms;
        }
        if self.read_at[c] == self.epoch {
            debug_assert_eq!(self.read[c], work_out(s, b, c), "sides of cell {c}");
            return self.read[c];
        }
        let at = if self.keeping { self.changed_at(c) } else { 0 };
        let v = if self.keeping && at < self.run_start {
            if self.base[c] == UNKNOWN {
                self.base[c] = work_out(s, b, c);
            }
            self.base[c]
        } else if self.keeping {
            if self.open_at[c] < at {
                self.open_at[c] = self.epoch;
                self.open[c] = work_out(s, b, c);
            }
            self.open[c]
        } else {
            if self.open_at[c] != self.epoch {
                self.open_at[c] = self.epoch;
                self.open[c] = work_out(s, b, c);
            }
            self.open[c]
        };
        debug_assert_eq!(v, work_out(s, b, c), "sides of cell {c}");
        self.read[c] = v;
        self.read_at[c] = self.epoch;
        v
    }

    /// The sides by which `c` may still be linked ([`Board::way`]), as arm bits.
    #[inline]
    pub fn ways(&mut self, s: &Shape, b: &Board, c: usize) -> u8 {
        let sides = self.sides(s, b, c);
        ways_of(s, b, c, sides)
    }
}

/// The sides by which `c` (linked or may be linked by `sides`) may still be linked
/// ([`Board::way`]), as arm bits.
#[inline]
pub fn ways_of(s: &Shape, b: &Board, c: usize, sides: u8) -> u8 {
    let ways = b.sharing(s, c, sides & !b.arms[c]);
    debug_assert_eq!(
        ways,
        SIDES.iter().enumerate().fold(0, |w, (i, &side)| {
            if sides & !b.arms[c] & side != 0 && b.share(s, c, s.nb[c][i] as usize) {
                w | side
            } else {
                w
            }
        }),
        "ways of cell {c}"
    );
    ways
}

/// In [`Scratch::base`]: the cell's sides are not worked out yet.
const UNKNOWN: u8 = 0x80;

/// The sides by which `c` is linked or may be linked.
#[inline]
fn work_out(s: &Shape, b: &Board, c: usize) -> u8 {
    let sides = b.sides(s, c);
    debug_assert_eq!(
        sides,
        SIDES.iter().enumerate().fold(b.arms[c], |m, (i, &side)| {
            if m & side == 0 && b.way_open(s, c, i).is_some() {
                m | side
            } else {
                m
            }
        }),
        "sides of cell {c}"
    );
    sides
}

/// The neighbour across side `i` when `c` (whose sides are `open`) and it may be linked on
/// path `k`, or are linked.
#[inline]
fn step(s: &Shape, b: &Board, open: u8, k: usize, c: usize, i: usize) -> Option<usize> {
    if open & SIDES[i] == 0 {
        return None;
    }
    let m = s.nb(c, i)?;
    if b.arms[c] & SIDES[i] != 0 || b.has(c, k) && b.has(m, k) {
        Some(m)
    } else {
        None
    }
}

/// The sides [`step`] follows from `c` (whose sides are `open`) on path `k`, as a mask over
/// side indices (bit `i` for side `i`).
#[inline]
fn moves(s: &Shape, b: &Board, open: u8, k: usize, c: usize) -> u8 {
    // Side `i`'s arm bit is bit `i` (`SIDES`): the links are followed as they are, and the
    // other open sides only to a neighbour that may be on `k`, when `c` may.
    let arms = b.arms[c];
    let mut out = open & arms;
    if !b.has(c, k) {
        return out;
    }
    let nb = &s.nb[c];
    let mut free = open & !arms & 0x0f;
    while free != 0 {
        let i = free.trailing_zeros() as usize;
        free &= free - 1;
        let m = nb[i];
        if m != NONE && b.has(m as usize, k) {
            out |= 1 << i;
        }
    }
    debug_assert_eq!(
        out,
        (0..4).fold(0, |o, i| o | u8::from(step(s, b, open, k, c, i).is_some())
            << i)
    );
    out
}

/// Marks in `x.seen` the cells of path `k`'s room reached from its first end.
fn reach(s: &Shape, b: &Board, k: usize, x: &mut Scratch) {
    x.new_search(s.cells());
    let (a, _) = s.ends[k];
    x.stack.clear();
    x.stack.push(a);
    x.see(a);
    while let Some(c) = x.stack.pop() {
        let open = x.sides(s, b, c);
        for i in 0..4 {
            if let Some(m) = step(s, b, open, k, c, i) {
                if x.see(m) {
                    x.stack.push(m);
                }
            }
        }
    }
}

/// Cells path `k` can not get to from its ends; a contradiction when its ends can not meet
/// (after [`Scratch::prepare`] on this board).
pub fn out_of_reach_of(
    s: &Shape,
    b: &Board,
    k: usize,
    say: Option<&Numberlink>,
    x: &mut Scratch,
) -> Found {
    let (a, z) = s.ends[k];
    if b.same_piece(a, z) {
        // Finished: no other cell is on it.
        let rest: Vec<usize> = (0..s.cells())
            .filter(|&c| b.has(c, k) && !b.same_piece(c, a))
            .collect();
        if rest.is_empty() {
            return None;
        }
        let mut d = Deduction::new(Technique::OutOfReach, Some(k), rest.clone());
        d.elims = rest.iter().map(|&c| (c, k)).collect();
        if let Some(p) = say {
            d.text = format!(
                "{} is finished, so {} not on it",
                path_name(p, k),
                if rest.len() == 1 {
                    format!("{} is", cells_text(p, &rest))
                } else {
                    format!("{} are", cells_text(p, &rest))
                }
            );
        }
        return Some(Ok(d));
    }
    reach(s, b, k, x);
    let seen = |c: usize| x.was_seen(c);
    room_left(s, b, k, say, seen)
}

/// What *out of reach* finds for path `k` (not finished) once the cells its first end reaches
/// are known (`reached`).
fn room_left(
    s: &Shape,
    b: &Board,
    k: usize,
    say: Option<&Numberlink>,
    reached: impl Fn(usize) -> bool,
) -> Found {
    let (a, z) = s.ends[k];
    if !reached(z) {
        return Some(Err(Contradiction::new(Why::Apart, vec![a, z], Some(k))));
    }
    let far: Vec<usize> = (0..s.cells())
        .filter(|&c| !reached(c) && b.has(c, k))
        .collect();
    if far.is_empty() {
        return None;
    }
    if let Some(&c) = far.iter().find(|&&c| b.path_of(s, c) == Some(k)) {
        return Some(Err(Contradiction::new(Why::Apart, vec![c, a], Some(k))));
    }
    let mut d = Deduction::new(Technique::OutOfReach, Some(k), far.clone());
    d.elims = far.iter().map(|&c| (c, k)).collect();
    if let Some(p) = say {
        d.text = format!(
            "{} can not reach {} from its ends: every way there is blocked, so {} not on it",
            path_name(p, k),
            cells_text(p, &far),
            if far.len() == 1 { "it is" } else { "they are" }
        );
    }
    Some(Ok(d))
}

/// True when path `k`'s two ends can still meet (after [`Scratch::prepare`]): a search from
/// one end that tries the neighbours nearest the other end first, so that on an open board it
/// goes straight there. The way found is left in `route` (from the second end back to the
/// first; empty when the ends are already joined).
pub fn ends_meet(s: &Shape, b: &Board, k: usize, x: &mut Scratch, route: &mut Vec<u32>) -> bool {
    route.clear();
    let (a, z) = s.ends[k];
    if b.same_piece(a, z) {
        return true;
    }
    let n = s.cells();
    x.new_search(n);
    // A parent is only read for a cell seen in this search, which wrote it.
    x.parent.resize(n, u32::MAX);
    x.stack.clear();
    x.stack.push(a);
    x.see(a);
    let (zr, zc) = s.at[z];
    let dist = |c: usize| {
        let (r, col) = s.at[c];
        (r - zr).abs() + (col - zc).abs()
    };
    while let Some(c) = x.stack.pop() {
        if c == z {
            let mut at = z;
            while at != a {
                route.push(at as u32);
                at = x.parent[at] as usize;
            }
            route.push(a as u32);
            return true;
        }
        push_nearest_last(s, b, k, x, c, &dist);
    }
    false
}

/// Pushes the cells path `k` may step to from `c`, unseen in this search, onto the search
/// stack with `c` as their parent: the farthest (by `dist`) first, so the nearest is taken
/// next.
#[inline]
fn push_nearest_last(
    s: &Shape,
    b: &Board,
    k: usize,
    x: &mut Scratch,
    c: usize,
    dist: &impl Fn(usize) -> i32,
) {
    let mut next: [(i32, usize); 4] = [(i32::MAX, 0); 4];
    let mut k_next = 0;
    let open = x.sides(s, b, c);
    // The four sides in one go (what `step` says of each, reading `c`'s candidates once).
    let mut ways = moves(s, b, open, k, c);
    while ways != 0 {
        let i = ways.trailing_zeros() as usize;
        ways &= ways - 1;
        let m = s.nb[c][i] as usize;
        if x.see(m) {
            x.parent[m] = c as u32;
            next[k_next] = (dist(m), m);
            k_next += 1;
        }
    }
    crate::sort::by_key(&mut next[..k_next], |p| std::cmp::Reverse(p.0));
    x.stack.extend(next[..k_next].iter().map(|&(_, m)| m));
}

/// True when every link of `route` (a way [`ends_meet`] found, from the second end back to the
/// first) may still be drawn on path `k`: its ends still meet, and no search is needed.
pub fn way_holds(s: &Shape, b: &Board, k: usize, x: &mut Scratch, route: &[u32]) -> bool {
    route.len() > 1 && (0..route.len() - 1).all(|j| link_holds(s, b, k, x, route, j))
}

/// True when the link from `route[j + 1]` to `route[j]` may still be drawn on path `k`.
#[inline]
fn link_holds(s: &Shape, b: &Board, k: usize, x: &mut Scratch, route: &[u32], j: usize) -> bool {
    let (to, from) = (route[j], route[j + 1] as usize);
    let open = x.sides(s, b, from);
    (0..4).any(|i| s.nb[from][i] == to && step(s, b, open, k, from, i).is_some())
}

/// [`link_holds`] for a link of a way all of whose links held at epoch `v`: only a link near
/// a change since is looked at again.
#[inline]
fn link_holds_since(
    s: &Shape,
    b: &Board,
    k: usize,
    x: &mut Scratch,
    route: &[u32],
    j: usize,
    v: u64,
) -> bool {
    !x.link_may_have_changed(s, route[j + 1] as usize, route[j] as usize, v)
        || link_holds(s, b, k, x, route, j)
}

/// Where a way of path `k` (of two cells or more, every link of which held at epoch `v`) is
/// broken now: `None` when every link still holds ([`way_holds`]), else the first and the
/// last broken link (link `j` runs from `route[j + 1]` to `route[j]`), for [`mend_way`].
pub fn way_breaks(
    s: &Shape,
    b: &Board,
    k: usize,
    x: &mut Scratch,
    route: &[u32],
    v: u64,
) -> Option<(usize, usize)> {
    let len = route.len();
    debug_assert!(len >= 2, "a way of path {k} to check");
    let breaks = (0..len - 1)
        .find(|&j| !link_holds_since(s, b, k, x, route, j, v))
        .map(|bot| {
            let top = (bot + 1..len - 1)
                .rev()
                .find(|&j| !link_holds_since(s, b, k, x, route, j, v))
                .unwrap_or(bot);
            (bot, top)
        });
    debug_assert_eq!(
        breaks,
        (0..len - 1)
            .find(|&j| !link_holds(s, b, k, x, route, j))
            .map(|bot| {
                let top = (0..len - 1)
                    .rev()
                    .find(|&j| !link_holds(s, b, k, x, route, j))
                    .unwrap_or(bot);
                (bot, top)
            }),
        "the links of path {k}'s way near a change since epoch {v} break where all do"
    );
    breaks
}

/// [`way_breaks`] for a way that passes each cell once, whose places are in `place` (per cell:
/// its index in the way, or [`NONE`]): instead of walking the way, looks only at the links
/// from cells within two steps of a cell marked changed since `v` (those whose
/// [`Scratch::link_may_have_changed`] is true; the others held at `v` and still do). `None`
/// when so many cells were marked that walking the way costs less.
pub fn way_breaks_by_place(
    s: &Shape,
    b: &Board,
    k: usize,
    x: &mut Scratch,
    route: &[u32],
    v: u64,
    place: &[u32],
) -> Option<Option<(usize, usize)>> {
    if !x.keeping {
        return None;
    }
    let from = x.marks.partition_point(|&(_, e)| e <= v);
    if (x.marks.len() - from) * 8 > route.len() {
        return None;
    }
    let mut links = std::mem::take(&mut x.links);
    links.clear();
    let mut look = |c: u32| {
        let i = place[c as usize];
        if i != NONE && i > 0 {
            links.push(i - 1);
        }
    };
    for &(m, _) in &x.marks[from..] {
        look(m);
        for &y in &s.nb[m as usize] {
            if y == NONE {
                continue;
            }
            look(y);
            for &z in &s.nb[y as usize] {
                if z != NONE {
                    look(z);
                }
            }
        }
    }
    crate::sort::all(&mut links);
    links.dedup();
    let broken = |x: &mut Scratch, j: &u32| !link_holds(s, b, k, x, route, *j as usize);
    let bot = links.iter().find(|j| broken(x, j)).copied();
    let breaks = bot.map(|bot| {
        let top = links.iter().rev().find(|j| broken(x, j)).copied();
        (bot as usize, top.unwrap_or(bot) as usize)
    });
    x.links = links;
    debug_assert_eq!(
        breaks,
        way_breaks(s, b, k, x, route, v),
        "the links of path {k}'s way near the cells marked since epoch {v}"
    );
    Some(breaks)
}

/// Mends a way of path `k` that [`way_breaks`] found broken between links `bot` and `top`
/// (the first and the last broken): keeps its parts from each end up to the break, and
/// searches from the end of the part at the first end for a cell of the part at the second
/// end. That part still links the search's start to the first end, so the search reaches the
/// second end (a cell of its part) exactly when the two ends can meet: the answer is
/// [`ends_meet`]'s. When true, `route` is the mended way (a walk that may pass a cell twice:
/// every link of it may be drawn, which is all [`way_holds`] reads).
pub fn mend_way(
    s: &Shape,
    b: &Board,
    k: usize,
    x: &mut Scratch,
    route: &mut Vec<u32>,
    (bot, top): (usize, usize),
) -> bool {
    let n = s.cells();
    x.new_search(n);
    x.parent.resize(n, u32::MAX);
    let mark = x.mark;
    for (j, &c) in route[..=bot].iter().enumerate() {
        x.goal[c as usize] = (mark, j as u32);
    }
    let start = route[top + 1] as usize;
    x.see(start);
    let (zr, zc) = s.at[route[bot] as usize];
    let dist = |c: usize| {
        let (r, col) = s.at[c];
        (r - zr).abs() + (col - zc).abs()
    };
    x.stack.clear();
    x.stack.push(start);
    while let Some(c) = x.stack.pop() {
        if x.goal[c].0 == mark && c != start {
            let j = x.goal[c].1 as usize;
            // The second end's part up to c, the detour back to the start, the first end's
            // part.
            let mut mended = std::mem::take(&mut x.mended);
            mended.clear();
            mended.extend_from_slice(&route[..j]);
            let mut at = c;
            while at != start {
                mended.push(at as u32);
                at = x.parent[at] as usize;
            }
            mended.extend_from_slice(&route[top + 1..]);
            std::mem::swap(route, &mut mended);
            x.mended = mended;
            let (a, z) = s.ends[k];
            debug_assert!(
                route.first() == Some(&(z as u32))
                    && route.last() == Some(&(a as u32))
                    && way_holds(s, b, k, x, route),
                "a mended way of path {k} runs from end to end"
            );
            return true;
        }
        push_nearest_last(s, b, k, x, c, &dist);
    }
    debug_assert!(
        !ends_meet(s, b, k, x, &mut Vec::new()),
        "the ends of path {k} meet, but the way was not mended"
    );
    false
}

/// Cells some path can not get to from its ends (the engine uses [`reach_then_bottleneck`]).
#[cfg(test)]
pub fn out_of_reach(s: &Shape, b: &Board, say: Option<&Numberlink>, x: &mut Scratch) -> Found {
    x.prepare(s, b);
    (0..s.paths).find_map(|k| out_of_reach_of(s, b, k, say, x))
}

/// Cells (and links) every way of path `k` passes through (after [`Scratch::prepare`]).
pub fn bottleneck_of(
    s: &Shape,
    b: &Board,
    k: usize,
    say: Option<&Numberlink>,
    x: &mut Scratch,
) -> Found {
    let (a, z) = s.ends[k];
    if b.same_piece(a, z) {
        return None;
    }
    low_points(s, b, k, x);
    if x.disc[z] == 0 {
        return Some(Err(Contradiction::new(Why::Apart, vec![a, z], Some(k))));
    }
    cuts(s, b, k, say, x)
}

/// A depth-first search of path `k`'s room from its first end, with discovery times and low
/// points (`x.disc`, `x.low`, `x.parent`; a cell not reached has time 0).
fn low_points(s: &Shape, b: &Board, k: usize, x: &mut Scratch) {
    low_points_by(s, k, x, |x, c| moves(s, b, x.sides(s, b, c), k, c));
}

/// [`low_points`], with the sides the path may step by from each cell given by `moves_of`
/// (a mask over side indices, as [`moves`]).
fn low_points_by(
    s: &Shape,
    k: usize,
    x: &mut Scratch,
    moves_of: impl Fn(&mut Scratch, usize) -> u8,
) {
    let n = s.cells();
    let (a, _) = s.ends[k];
    // Depth-first search from a with discovery times and low points; each frame holds the
    // sides still to follow from its cell.
    x.disc.clear();
    x.disc.resize(n, 0);
    x.low.clear();
    x.low.resize(n, 0);
    x.parent.clear();
    x.parent.resize(n, u32::MAX);
    x.dfs.clear();
    let first = moves_of(x, a);
    x.dfs.push((a, first));
    let mut time = 1;
    x.disc[a] = 1;
    x.low[a] = 1;
    while let Some(top) = x.dfs.last_mut() {
        let (v, left) = *top;
        if left != 0 {
            let i = left.trailing_zeros() as usize;
            top.1 = left & (left - 1);
            let w = s.nb[v][i] as usize;
            if x.disc[w] == 0 {
                time += 1;
                x.disc[w] = time;
                x.low[w] = time;
                x.parent[w] = v as u32;
                let more = moves_of(x, w);
                x.dfs.push((w, more));
            } else if w as u32 != x.parent[v] {
                x.low[v] = x.low[v].min(x.disc[w]);
            }
        } else {
            x.dfs.pop();
            let pv = x.parent[v];
            if pv != u32::MAX {
                let pv = pv as usize;
                x.low[pv] = x.low[pv].min(x.low[v]);
            }
        }
    }
}

/// The cells (or, when none, the link) every way of path `k` passes through, read from
/// [`low_points`] (which reached its second end).
fn cuts(s: &Shape, b: &Board, k: usize, say: Option<&Numberlink>, x: &Scratch) -> Found {
    let (a, z) = s.ends[k];
    // Up the tree from z: a parent u whose child's subtree (holding z) only reaches back
    // through u separates the ends; when it does not even reach u, the link is the only way
    // across.
    let mut cells = Vec::new();
    let mut bridges = Vec::new();
    let mut v = z;
    while v != a {
        let u = x.parent[v] as usize;
        if x.low[v] > x.disc[u] && b.arms[u] & SIDES[s.side(u, v)] == 0 {
            bridges.push((u, v));
        }
        if u != a && x.low[v] >= x.disc[u] && b.path_of(s, u) != Some(k) {
            cells.push(u);
        }
        v = u;
    }
    if !cells.is_empty() {
        cells.reverse();
        let mut d = Deduction::new(Technique::Bottleneck, Some(k), cells.clone());
        d.at.extend([a, z]);
        d.places = cells.iter().map(|&c| (c, k)).collect();
        if let Some(p) = say {
            d.text = format!(
                "every way {} can take from {} to {} passes through {}: {} on it",
                path_name(p, k),
                name(p, a),
                name(p, z),
                cells_text(p, &cells),
                if cells.len() == 1 {
                    "it is"
                } else {
                    "they are"
                }
            );
        }
        return Some(Ok(d));
    }
    let &(u, v) = bridges.first()?;
    let mut d = Deduction::new(Technique::Bridge, Some(k), vec![u, v, a, z]);
    d.links.push((u, v));
    if let Some(p) = say {
        d.text = format!(
            "{} can only get from {} to {} across the link {}-{}: it is drawn",
            path_name(p, k),
            name(p, a),
            name(p, z),
            name(p, u),
            name(p, v)
        );
    }
    Some(Ok(d))
}

/// Cells (and links) every way of some path passes through.
pub fn bottleneck(s: &Shape, b: &Board, say: Option<&Numberlink>, x: &mut Scratch) -> Found {
    x.prepare(s, b);
    (0..s.paths).find_map(|k| bottleneck_of(s, b, k, say, x))
}

/// What *out of reach* and *bottleneck* find for path `k` from one search of its room (after
/// [`Scratch::prepare`] on this board): *out of reach* first, then the cells (or link) every
/// way passes through. For a path that is not finished, the cells its first end reached are
/// then those [`reached`] lists.
pub fn room(
    s: &Shape,
    b: &Board,
    k: usize,
    say: Option<&Numberlink>,
    x: &mut Scratch,
) -> (Found, Found) {
    room_by(s, b, k, say, x, |x, c| moves(s, b, x.sides(s, b, c), k, c))
}

/// [`room`], with the sides path `k` may step by from each cell given by `moves_of` (what
/// [`moves`] says on this board, as a mask over side indices).
pub fn room_by(
    s: &Shape,
    b: &Board,
    k: usize,
    say: Option<&Numberlink>,
    x: &mut Scratch,
    moves_of: impl Fn(&mut Scratch, usize) -> u8,
) -> (Found, Found) {
    let (a, z) = s.ends[k];
    if b.same_piece(a, z) {
        return (out_of_reach_of(s, b, k, say, x), None);
    }
    low_points_by(s, k, x, moves_of);
    let disc = &x.disc;
    let found = room_left(s, b, k, say, |c| disc[c] != 0);
    if found.is_some() {
        return (found, None);
    }
    (None, cuts(s, b, k, say, x))
}

/// The cells the last [`room`] of a path that is not finished reached from its first end.
pub fn reached(x: &Scratch, out: &mut Vec<u32>) {
    out.clear();
    out.extend(
        x.disc
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t != 0)
            .map(|(c, _)| c as u32),
    );
}

/// *Out of reach* for every path, then, when it finds nothing, *bottleneck* for every path:
/// the same as [`out_of_reach`] followed by [`bottleneck`] (the second only when the first
/// finds nothing), with one search of each path's room serving both (the cells reached from a
/// path's first end are those its low-point search discovers). The engine keeps each path's
/// answer from step to step ([`super::memo`]); this is the whole-board reference.
pub fn reach_then_bottleneck(
    s: &Shape,
    b: &Board,
    say: Option<&Numberlink>,
    x: &mut Scratch,
) -> (Found, Found) {
    x.prepare(s, b);
    let mut cut: Found = None;
    for k in 0..s.paths {
        let (found, here) = room(s, b, k, say, x);
        if found.is_some() {
            return (found, None);
        }
        if cut.is_none() {
            cut = here;
        }
    }
    (None, cut)
}
