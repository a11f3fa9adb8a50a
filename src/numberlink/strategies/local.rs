//! The techniques a person sees at one cell and its neighbours: *same path side by side*
//! (flow: two neighbours of one path are linked), *only way on* (a loose end with one way
//! left), *corner* and *narrow cell* (a cell that must be covered with exactly two ways left
//! uses both), *left empty* (nikoli: a cell with at most one way left stays empty) and *no
//! touching* (flow: a cell beside a finished cell of a path, or beside two cells of one piece of
//! it, or beside three of its cells, is not on that path: linking it would close a loop or leave
//! a path running alongside itself).
//!
//! Each function looks at one cell and returns a deduction, a contradiction, or nothing. With
//! `say` (the puzzle, for names) it also writes the step's text and only draws links whose path
//! is known, so that every link of an explanation can be checked against the solution.

use super::board::{Board, Contradiction, Shape, Why};
use super::{name, on_path, path_name, Deduction, Found, Technique};
use crate::numberlink::{Numberlink, Rules, SIDES};

/// A cell and the sides it may still be linked by, worked out once (on first use) for all the
/// techniques.
pub struct At<'b> {
    pub c: usize,
    s: &'b Shape,
    b: &'b Board,
    /// The two masks below, packed, or [`UNSEEN`].
    masks: std::cell::Cell<u16>,
}

/// Not worked out yet.
const UNSEEN: u16 = u16::MAX;

impl<'b> At<'b> {
    pub fn new(s: &'b Shape, b: &'b Board, c: usize) -> At<'b> {
        At {
            c,
            s,
            b,
            masks: std::cell::Cell::new(UNSEEN),
        }
    }

    /// The cell with its sides already worked out: `open` ([`At::open`]) and `ways`
    /// ([`At::ways`]).
    pub fn known(s: &'b Shape, b: &'b Board, c: usize, open: u8, ways: u8) -> At<'b> {
        At {
            c,
            s,
            b,
            masks: std::cell::Cell::new(u16::from(open) << 8 | u16::from(ways)),
        }
    }

    fn masks(&self) -> (u8, u8) {
        if self.masks.get() == UNSEEN {
            let (mut open, mut ways) = (0u8, 0u8);
            for (i, &side) in SIDES.iter().enumerate() {
                if let Some(m) = self.b.way_open(self.s, self.c, i) {
                    open |= side;
                    if self.b.share(self.s, self.c, m) {
                        ways |= side;
                    }
                }
            }
            self.masks.set(u16::from(open) << 8 | u16::from(ways));
        }
        let m = self.masks.get();
        ((m >> 8) as u8, m as u8)
    }

    /// Sides it may be linked by whatever the path ([`Board::way_open`]).
    pub fn open(&self) -> u8 {
        self.masks().0
    }

    /// Sides it may be linked by to a neighbour with a path in common ([`Board::way`]).
    pub fn ways(&self) -> u8 {
        self.masks().1
    }

    /// The neighbours across the sides of `mask`.
    fn cells(&self, mask: u8) -> Few {
        let mut out = Few::default();
        for i in (0..4).filter(|&i| mask & SIDES[i] != 0) {
            if let Some(m) = self.s.nb(self.c, i) {
                out.push(m);
            }
        }
        out
    }
}

/// Up to four neighbours (or sides and neighbours), kept on the stack: the local techniques
/// run at every deduction of every what-if, where an allocation each time costs.
#[derive(Clone, Copy, Default)]
struct Few<T: Copy + Default = usize> {
    items: [T; 4],
    len: usize,
}

impl<T: Copy + Default> Few<T> {
    fn push(&mut self, x: T) {
        self.items[self.len] = x;
        self.len += 1;
    }
}

impl<T: Copy + Default> std::ops::Deref for Few<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..self.len]
    }
}

/// The cells of a deduction's pattern ([`Deduction::at`]), kept only when its text is written:
/// inside a what-if (no `say`) no step is shown, so they are never read and not allocated.
fn pattern(say: Option<&Numberlink>, cells: &[usize]) -> Vec<usize> {
    if say.is_some() {
        cells.to_vec()
    } else {
        Vec::new()
    }
}

/// The path a link between `c` and `m` would be on, when only one is possible.
fn link_path(s: &Shape, b: &Board, cells: &[usize]) -> Option<usize> {
    // The candidate words the cells have in common, the paths only (not the empty bit).
    let mut found = None;
    for j in 0..b.words() {
        let from = j * 64;
        if from >= s.paths {
            break;
        }
        let mut x = cells.iter().fold(!0u64, |x, &c| x & b.cand(c)[j]);
        if s.paths - from < 64 {
            x &= (1u64 << (s.paths - from)) - 1;
        }
        if x == 0 {
            continue;
        }
        if found.is_some() || x & (x - 1) != 0 {
            return None;
        }
        found = Some(from + x.trailing_zeros() as usize);
    }
    debug_assert_eq!(found, {
        let mut one = None;
        let mut many = false;
        for k in (0..s.paths).filter(|&k| cells.iter().all(|&c| b.has(c, k))) {
            many |= one.is_some();
            one = Some(k);
        }
        one.filter(|_| !many)
    });
    found
}

/// Flow: two neighbours known to be on one path and not linked must be.
pub fn side_by_side(s: &Shape, b: &Board, at: &At, say: Option<&Numberlink>) -> Found {
    let c = at.c;
    if s.rules != Rules::Flow {
        return None;
    }
    let k = b.path_of(s, c)?;
    for (i, m) in s.around(c) {
        if b.arms[c] & SIDES[i] != 0 || b.path_of(s, m) != Some(k) {
            continue;
        }
        if at.ways() & SIDES[i] == 0 {
            return Some(Err(Contradiction::new(Why::Touching, vec![c, m], Some(k))));
        }
        let mut d = Deduction::new(Technique::SideBySide, Some(k), pattern(say, &[c, m]));
        d.links.push((c, m));
        if let Some(p) = say {
            d.text = format!(
                "{} and {} are both on {} and side by side, so they are linked (a path never runs alongside itself)",
                name(p, c),
                name(p, m),
                path_name(p, k)
            );
        }
        return Some(Ok(d));
    }
    None
}

/// A loose end with exactly one way left takes it; with none, the position is impossible.
pub fn only_way_on(s: &Shape, b: &Board, at: &At, say: Option<&Numberlink>) -> Found {
    let c = at.c;
    if !b.loose(s, c) {
        return None;
    }
    let ways = at.cells(at.ways());
    match ways.len() {
        0 => Some(Err(Contradiction::new(
            Why::Stuck,
            vec![c],
            b.path_of(s, c),
        ))),
        1 => {
            let m = ways[0];
            let k = b.path_of(s, c);
            let mut d = Deduction::new(Technique::OnlyWayOn, k, pattern(say, &[c]));
            d.links.push((c, m));
            if let Some(p) = say {
                d.text = format!(
                    "{} at {} has only one way on: to {}",
                    on_path(p, k),
                    name(p, c),
                    name(p, m)
                );
            }
            Some(Ok(d))
        }
        _ => None,
    }
}

/// A cell with no link that must be on a path and has exactly two ways left uses both (a corner
/// of the board, or a cell narrowed by other paths); with fewer, the position is impossible.
pub fn narrow_cell(s: &Shape, b: &Board, at: &At, say: Option<&Numberlink>) -> Found {
    let c = at.c;
    if !b.open(s, c) || b.may_be_empty(s, c) || b.is_empty(s, c) {
        return None;
    }
    let ways = at.cells(at.ways());
    if ways.len() < 2 {
        return Some(Err(Contradiction::new(Why::Uncovered, vec![c], None)));
    }
    if ways.len() > 2 {
        return None;
    }
    let k = link_path(s, b, &[c, ways[0], ways[1]]);
    let corner = s.is_corner(c);
    let technique = if corner {
        Technique::Corner
    } else {
        Technique::NarrowCell
    };
    let mut d = Deduction::new(technique, k, pattern(say, &[c]));
    d.links = vec![(c, ways[0]), (c, ways[1])];
    if let Some(p) = say {
        let which = match k {
            Some(k) => path_name(p, k),
            None => "a path".into(),
        };
        d.text = if corner {
            format!(
                "{} is a corner of the board: {which} turns there, from {} to {}",
                name(p, c),
                name(p, ways[0]),
                name(p, ways[1]),
            )
        } else {
            format!(
                "{} must be on a path and has only two ways left, {} and {}: {which} runs through it",
                name(p, c),
                name(p, ways[0]),
                name(p, ways[1]),
            )
        };
    }
    Some(Ok(d))
}

/// Nikoli: a cell with no link and at most one way left can not be on a path: it stays empty.
pub fn left_empty(s: &Shape, b: &Board, at: &At, say: Option<&Numberlink>) -> Found {
    let c = at.c;
    if !b.open(s, c) || !b.may_be_empty(s, c) || b.is_empty(s, c) {
        return None;
    }
    let ways = at.cells(at.ways());
    if ways.len() > 1 {
        return None;
    }
    let mut d = Deduction::new(Technique::LeftEmpty, None, pattern(say, &[c]));
    d.places.push((c, s.empty));
    if let Some(p) = say {
        d.text = match ways.first() {
            None => format!("{} has no way left: it stays empty", name(p, c)),
            Some(&m) => format!(
                "{} has one way left, to {}: a path could enter it but not leave, so it stays empty",
                name(p, c),
                name(p, m)
            ),
        };
    }
    Some(Ok(d))
}

/// Why a path can not run through a cell under flow rules.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Touch {
    /// It touches a cell of the path that has all its links.
    Finished(usize),
    /// It touches two cells of one piece of the path: linking both closes a loop.
    Loop(usize, usize),
    /// It touches more cells of the path than it could still be linked to.
    Crowded,
    /// It has all its links and touches a cell of the path.
    Full(usize),
    /// It touches a cell of the path it can not be linked to: the link would leave the path
    /// running alongside itself.
    Blocked(usize),
}

/// Flow: a cell (and its piece) is not on path k when, on k, it would have to be linked to
/// every neighbour known to be on k and can not: one of them is finished, two are on one piece
/// (a loop), there are more than the links it still needs, or the link would leave the path
/// running alongside itself elsewhere.
pub fn no_touching(s: &Shape, b: &Board, at: &At, say: Option<&Numberlink>) -> Found {
    let c = at.c;
    if s.rules != Rules::Flow || s.is_end(c) || b.path_of(s, c).is_some() {
        return None;
    }
    // The path each neighbour not linked to `c` is known to be on, read once (most cells
    // have none that `c` could be on, and nothing more is looked at).
    let arms = b.arms[c];
    let mut known = [usize::MAX; 4];
    let mut any = false;
    for (i, &side) in SIDES.iter().enumerate() {
        let m = s.nb[c][i];
        if m == super::board::NONE || arms & side != 0 {
            continue;
        }
        if let Some(k) = b.path_of(s, m as usize) {
            if b.has(c, k) {
                known[i] = k;
                any = true;
            }
        }
    }
    if !any {
        return None;
    }
    let free = b.need(s, c).saturating_sub(b.degree(c)) as usize;
    let mut elims = Vec::new();
    let mut reasons = Vec::new();
    for i in 0..4 {
        let k = known[i];
        if k == usize::MAX || reasons.iter().any(|&(j, _)| j == k) {
            continue;
        }
        let mut on_k: Few<(usize, usize)> = Few::default();
        for (j, &kj) in known.iter().enumerate() {
            if kj == k {
                on_k.push((j, s.nb[c][j] as usize));
            }
        }
        let why = if let Some(&(_, f)) = on_k.iter().find(|&&(_, x)| b.done(s, x)) {
            Some(Touch::Finished(f))
        } else if on_k.len() > free {
            Some(if free == 0 {
                Touch::Full(on_k[0].1)
            } else {
                Touch::Crowded
            })
        } else if on_k.len() == 2 && b.same_piece(on_k[0].1, on_k[1].1) {
            Some(Touch::Loop(on_k[0].1, on_k[1].1))
        } else {
            on_k.iter()
                .find(|&&(j, _)| at.open() & SIDES[j] == 0)
                .map(|&(_, x)| Touch::Blocked(x))
        };
        if let Some(w) = why {
            elims.push((c, k));
            reasons.push((k, w));
        }
    }
    if elims.is_empty() {
        return None;
    }
    let mut d = Deduction::new(Technique::NoTouching, Some(elims[0].1), pattern(say, &[c]));
    for &(_, w) in reasons.iter().filter(|_| say.is_some()) {
        match w {
            Touch::Finished(f) | Touch::Blocked(f) | Touch::Full(f) => d.at.push(f),
            Touch::Loop(x, y) => d.at.extend([x, y]),
            Touch::Crowded => {}
        }
    }
    d.elims = elims;
    if let Some(p) = say {
        let piece = b.degree(c) > 0;
        let parts: Vec<String> = reasons
            .iter()
            .map(|&(k, w)| match w {
                Touch::Finished(f) => format!(
                    "not on {}: it touches {}, which is finished and not linked to it",
                    path_name(p, k),
                    name(p, f)
                ),
                Touch::Full(f) => format!(
                    "not on {}: it has all its links and touches {}, on that path, without being linked to it",
                    path_name(p, k),
                    name(p, f)
                ),
                Touch::Loop(x, y) => format!(
                    "not on {}: it touches {} and {} of one piece of it, and linking both would close a loop",
                    path_name(p, k),
                    name(p, x),
                    name(p, y)
                ),
                Touch::Crowded => format!(
                    "not on {}: it touches more of its cells than it could be linked to",
                    path_name(p, k)
                ),
                Touch::Blocked(f) => format!(
                    "not on {}: it touches {}, on that path, and linking the two would leave the path running alongside itself",
                    path_name(p, k),
                    name(p, f)
                ),
            })
            .collect();
        let whose = if piece {
            " (nor is its piece of path)"
        } else {
            ""
        };
        d.text = format!("{} is {}{whose}", name(p, c), parts.join("; and "));
    }
    Some(Ok(d))
}

/// The most candidate words the per-cell bit tricks handle (511 paths).
const MOST_WORDS: usize = 8;

/// A cell not known to be on a path, with a path it could only reach from fewer sides than it
/// needs (two to run through an open cell, one more at the loose end of a piece), is not on it.
pub fn dead_end(s: &Shape, b: &Board, at: &At, say: Option<&Numberlink>) -> Found {
    let c = at.c;
    let w = b.words();
    if w > MOST_WORDS || b.path_of(s, c).is_some() || b.is_empty(s, c) {
        return None;
    }
    let need = if b.open(s, c) {
        2
    } else if b.loose(s, c) {
        1
    } else {
        return None;
    };
    if w == 1 {
        // Most cells have nothing to remove: with one word of candidates, that is seen
        // without the per-word arrays below.
        let open = at.open();
        let (mut one, mut two) = (0u64, 0u64);
        for (i, &side) in SIDES.iter().enumerate() {
            if open & side != 0 {
                let cm = b.cand(s.nb[c][i] as usize)[0];
                two |= one & cm;
                one |= cm;
            }
        }
        let enough = if need == 2 { two } else { one };
        let paths = if s.paths >= 64 {
            !0
        } else {
            (1u64 << s.paths) - 1
        };
        if b.cand(c)[0] & !enough & paths == 0 {
            return None;
        }
    }
    let mut one = [0u64; MOST_WORDS];
    let mut two = [0u64; MOST_WORDS];
    // The open sides' neighbours (at most four; an array, as this runs in every what-if).
    let mut from = [0usize; 4];
    let mut froms = 0;
    for (i, &side) in SIDES.iter().enumerate() {
        if at.open() & side != 0 {
            let m = s.nb(c, i).expect("an open side has a neighbour");
            let cm = b.cand(m);
            for j in 0..w {
                two[j] |= one[j] & cm[j];
                one[j] |= cm[j];
            }
            from[froms] = m;
            froms += 1;
        }
    }
    let enough = if need == 2 { &two } else { &one };
    let cc = b.cand(c);
    let mut elims = Vec::new();
    for j in 0..w {
        let mut x = cc[j] & !enough[j];
        while x != 0 {
            let k = j * 64 + x.trailing_zeros() as usize;
            x &= x - 1;
            if k < s.paths {
                elims.push((c, k));
            }
        }
    }
    if elims.is_empty() {
        return None;
    }
    let mut d = Deduction::new(
        Technique::DeadEnd,
        (elims.len() == 1).then(|| elims[0].1),
        pattern(say, &[c]),
    );
    d.elims = elims;
    if let Some(p) = say {
        let dead: Vec<usize> = d.elims.iter().map(|&(_, k)| k).collect();
        let names: Vec<String> = dead.iter().map(|&k| path_name(p, k)).collect();
        let sides: Vec<usize> = from[..froms]
            .iter()
            .copied()
            .filter(|&m| dead.iter().any(|&k| b.has(m, k)))
            .collect();
        let what = if need == 2 {
            "would have no way out"
        } else {
            "could not go on from this piece"
        };
        d.text = match (dead.len(), sides.as_slice()) {
            (1, []) => format!(
                "{} is not on {}: the path has no way into it",
                name(p, c),
                names[0]
            ),
            (1, [m]) if need == 2 => format!(
                "{} is not on {}: the path could only come in from {} and {what}",
                name(p, c),
                names[0],
                name(p, *m)
            ),
            (1, _) => format!("{} is not on {}: the path {what}", name(p, c), names[0]),
            _ => format!(
                "{} is not on {}: none of them could come in and go out again",
                name(p, c),
                names.join(", ")
            ),
        };
    }
    Some(Ok(d))
}

/// A local technique.
pub type Rule = fn(&Shape, &Board, &At, Option<&Numberlink>) -> Found;

/// The first of [`LOCAL`] that finds something at the cell, in that order: each technique is
/// only called where the cell is of the kind it looks at (the checks it would make first
/// itself), which saves most calls in a what-if's propagation.
#[inline]
pub fn first(s: &Shape, b: &Board, at: &At, say: Option<&Numberlink>) -> Found {
    let c = at.c;
    let flow = s.rules == Rules::Flow;
    let known = b.path_of(s, c).is_some();
    let open = b.open(s, c);
    let loose = b.loose(s, c);
    if flow && known {
        if let r @ Some(_) = side_by_side(s, b, at, say) {
            return r;
        }
    }
    if loose {
        if let r @ Some(_) = only_way_on(s, b, at, say) {
            return r;
        }
    }
    if open {
        if let r @ Some(_) = narrow_cell(s, b, at, say) {
            return r;
        }
        if s.rules == Rules::Nikoli {
            if let r @ Some(_) = left_empty(s, b, at, say) {
                return r;
            }
        }
    }
    if known {
        return None;
    }
    if flow && !s.is_end(c) {
        if let r @ Some(_) = no_touching(s, b, at, say) {
            return r;
        }
    }
    if open || loose {
        return dead_end(s, b, at, say);
    }
    None
}

/// True when two answers of the local techniques are the same (what [`first`] is held to).
pub fn same(a: &Found, b: &Found) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(Err(x)), Some(Err(y))) => x == y,
        (Some(Ok(x)), Some(Ok(y))) => {
            (
                x.technique,
                x.path,
                &x.links,
                &x.places,
                &x.elims,
                &x.at,
                &x.text,
            ) == (
                y.technique,
                y.path,
                &y.links,
                &y.places,
                &y.elims,
                &y.at,
                &y.text,
            )
        }
        _ => false,
    }
}

/// The local techniques in the order they are tried, easiest first.
pub const LOCAL: [Rule; 6] = [
    side_by_side,
    only_way_on,
    narrow_cell,
    left_empty,
    no_touching,
    dead_end,
];
