//! The candidate pairs of a board and, for each, the routes a line between them can take: the
//! lines of the seed's sweep ([`super::pair::sweeps`]), each reduced to the tiles that stand on
//! it. Without gravity a route is open once those tiles are gone, so a route whose tiles
//! include all of another route's tiles is never needed and is dropped: what is left are the
//! minimal sets. A pair with a route through no tile at all (neighbours, or a line over empty
//! cells and the ring) can always be removed while both tiles are there.
//!
//! On top of the routes: [`Counters`], which keep each route's count of tiles still standing,
//! so the pairs playable in a position are known without running the pair test again;
//! [`closure`], the greedy play of a fixed pairing (removing tiles only opens lines, so a
//! pairing can be cleared exactly when playing its playable pairs in any order clears it); and
//! [`blocking_set`], why a pairing gets stuck: a smallest-found set of its pairs each of whose
//! routes crosses a tile of another pair of the set, so none of them can ever go first.

use super::pair::{sweeps, trace};
use super::Shisen;

/// Two tiles that match (indices into [`Routes::tiles`], `a < b`) and the minimal sets of tiles
/// (indices, sorted) that block each route between them; `[[]]` for a pair that is always free.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub a: usize,
    pub b: usize,
    pub routes: Vec<Vec<usize>>,
}

impl Candidate {
    /// True when some route between the two crosses no tile.
    pub fn free(&self) -> bool {
        self.routes.iter().any(|r| r.is_empty())
    }
}

/// The tiles of a board (by cell, row-major), the tile in each cell, and every candidate pair.
#[derive(Clone, Debug)]
pub struct Routes {
    pub tiles: Vec<usize>,
    pub index: Vec<Option<usize>>,
    pub pairs: Vec<Candidate>,
}

/// True when the sorted `a` is a subset of the sorted `b`.
fn subset(a: &[usize], b: &[usize]) -> bool {
    let mut j = 0;
    for &x in a {
        while j < b.len() && b[j] < x {
            j += 1;
        }
        if j == b.len() || b[j] != x {
            return false;
        }
    }
    true
}

/// The minimal tile sets of the routes between tiles in cells `a` and `b` on `p`'s board as
/// given (which tiles stand where), `index` giving each cell's tile.
pub fn minimal_routes(p: &Shisen, index: &[Option<usize>], a: usize, b: usize) -> Vec<Vec<usize>> {
    let w = p.width;
    let pa = ((a / w) as i64, (a % w) as i64);
    let pb = ((b / w) as i64, (b % w) as i64);
    let mut sets: Vec<Vec<usize>> = Vec::new();
    for corners in sweeps(p.width, p.height, p.rules.outline, pa, pb) {
        let line = trace(&corners);
        if line.len() < 2 {
            continue;
        }
        let inner = &line[1..line.len() - 1];
        if inner.iter().any(|&q| q == pa || q == pb) {
            continue;
        }
        let mut set: Vec<usize> = inner
            .iter()
            .filter(|&&(r, c)| r >= 0 && c >= 0 && (r as usize) < p.height && (c as usize) < w)
            .filter_map(|&(r, c)| index[r as usize * w + c as usize])
            .collect();
        crate::sort::all(&mut set);
        set.dedup();
        sets.push(set);
    }
    crate::sort::by(&mut sets, |x, y| {
        x.len().cmp(&y.len()).then_with(|| x.cmp(y))
    });
    sets.dedup();
    let mut kept: Vec<Vec<usize>> = Vec::new();
    for s in sets {
        if !kept.iter().any(|k| subset(k, &s)) {
            kept.push(s);
        }
    }
    kept
}

/// Every pair of matching tiles with its minimal routes.
pub fn build(p: &Shisen) -> Routes {
    let tiles = p.tiles();
    let mut index = vec![None; p.cells_len()];
    for (i, &c) in tiles.iter().enumerate() {
        index[c] = Some(i);
    }
    let mut pairs = Vec::new();
    for i in 0..tiles.len() {
        for j in i + 1..tiles.len() {
            if p.matches(tiles[i], tiles[j]) {
                pairs.push(Candidate {
                    a: i,
                    b: j,
                    routes: minimal_routes(p, &index, tiles[i], tiles[j]),
                });
            }
        }
    }
    Routes {
        tiles,
        index,
        pairs,
    }
}

/// The tiles (indices into `r.tiles`) of each match class, classes in the order their first
/// tile comes.
pub fn classes(p: &Shisen, r: &Routes) -> Vec<Vec<usize>> {
    let classes_of = p.classes();
    let mut classes: Vec<Vec<usize>> = Vec::new();
    let mut names: Vec<usize> = Vec::new();
    for (t, &cell) in r.tiles.iter().enumerate() {
        let k = classes_of[cell].expect("a tile");
        match names.iter().position(|&x| x == k) {
            Some(i) => classes[i].push(t),
            None => {
                names.push(k);
                classes.push(vec![t]);
            }
        }
    }
    classes
}

/// Each route's count of tiles still standing, and the pairs it makes playable.
#[derive(Clone, Debug)]
pub struct Counters {
    /// Per route: (pair, tiles left on it).
    routes: Vec<(usize, usize)>,
    /// Per tile: the routes it stands on.
    on: Vec<Vec<usize>>,
    /// Per pair: routes with no tile left.
    pub open: Vec<usize>,
    /// Per tile: still on the board.
    pub here: Vec<bool>,
}

impl Counters {
    /// Every tile standing.
    pub fn new(r: &Routes) -> Counters {
        let n = r.tiles.len();
        let mut c = Counters {
            routes: Vec::new(),
            on: vec![Vec::new(); n],
            open: Vec::with_capacity(r.pairs.len()),
            here: vec![true; n],
        };
        for (i, cand) in r.pairs.iter().enumerate() {
            let mut open = 0;
            for set in &cand.routes {
                let k = c.routes.len();
                c.routes.push((i, set.len()));
                open += usize::from(set.is_empty());
                for &t in set {
                    c.on[t].push(k);
                }
            }
            c.open.push(open);
        }
        c
    }

    /// Sets the counts back to those of `to`, counters of the same routes.
    pub fn reset(&mut self, to: &Counters) {
        self.routes.copy_from_slice(&to.routes);
        self.open.copy_from_slice(&to.open);
        self.here.copy_from_slice(&to.here);
    }

    /// Removes tile `t`; `opened` is called with each pair that gets its first open route.
    pub fn remove(&mut self, t: usize, mut opened: impl FnMut(usize)) {
        self.here[t] = false;
        for &k in &self.on[t] {
            let (pair, ref mut count) = self.routes[k];
            *count -= 1;
            if *count == 0 {
                self.open[pair] += 1;
                if self.open[pair] == 1 {
                    opened(pair);
                }
            }
        }
    }

    /// Puts tile `t` back (undoes [`Counters::remove`]).
    pub fn restore(&mut self, t: usize) {
        self.here[t] = true;
        for &k in &self.on[t] {
            let (pair, ref mut count) = self.routes[k];
            if *count == 0 {
                self.open[pair] -= 1;
            }
            *count += 1;
        }
    }

    /// True when some route of pair `i` has no tile standing but `x` and `y`: the pair can go
    /// once they are gone.
    pub fn open_without(&self, r: &Routes, i: usize, x: usize, y: usize) -> bool {
        r.pairs[i]
            .routes
            .iter()
            .any(|set| set.iter().all(|&t| t == x || t == y || !self.here[t]))
    }

    /// True when pair `i` (both tiles standing) can be played now.
    pub fn playable(&self, r: &Routes, i: usize) -> bool {
        let c = &r.pairs[i];
        self.open[i] > 0 && self.here[c.a] && self.here[c.b]
    }
}

/// Plays a pairing (indices into `r.pairs`, each tile at most once) greedily: among its pairs
/// that can go, the one whose first tile comes first row by row, again and again. Returns the
/// pairs in the order played and the pairs left stuck. Tiles of no pair of the pairing stay on
/// the board throughout.
pub fn closure(r: &Routes, pairing: &[usize]) -> (Vec<usize>, Vec<usize>) {
    use std::cmp::Reverse;
    let mut c = Counters::new(r);
    let mut chosen = vec![false; r.pairs.len()];
    for &i in pairing {
        chosen[i] = true;
    }
    let key = |i: usize| Reverse((r.tiles[r.pairs[i].a], r.tiles[r.pairs[i].b], i));
    let mut ready: std::collections::BinaryHeap<Reverse<(usize, usize, usize)>> = pairing
        .iter()
        .filter(|&&i| c.open[i] > 0)
        .map(|&i| key(i))
        .collect();
    let mut done = vec![false; r.pairs.len()];
    let mut order = Vec::with_capacity(pairing.len());
    while let Some(Reverse((_, _, i))) = ready.pop() {
        if done[i] {
            continue;
        }
        done[i] = true;
        order.push(i);
        for t in [r.pairs[i].a, r.pairs[i].b] {
            c.remove(t, |j| {
                if chosen[j] && !done[j] {
                    ready.push(key(j));
                }
            });
        }
    }
    let stuck = pairing.iter().copied().filter(|&i| !done[i]).collect();
    (order, stuck)
}

/// True when every route of pair `i` crosses a tile in `blockers` other than its own two.
fn blocked(r: &Routes, i: usize, blockers: &[bool]) -> bool {
    let c = &r.pairs[i];
    c.routes
        .iter()
        .all(|set| set.iter().any(|&t| t != c.a && t != c.b && blockers[t]))
}

/// The largest part of `set` whose every pair is blocked by the tiles of the part's other
/// pairs and the tiles in `stay`.
fn closed(r: &Routes, set: &[usize], stay: &[bool]) -> Vec<usize> {
    let mut cur = set.to_vec();
    loop {
        let mut blockers = stay.to_vec();
        for &i in &cur {
            blockers[r.pairs[i].a] = true;
            blockers[r.pairs[i].b] = true;
        }
        let before = cur.len();
        // A pair does not block itself: its own tiles are skipped by `blocked`.
        cur.retain(|&i| blocked(r, i, &blockers));
        if cur.len() == before {
            return cur;
        }
    }
}

/// A closed set grown from pair `seed` within `stuck`: while some pair of the set has a route
/// that no tile of the set's other pairs (nor of `stay`) blocks, the stuck pair that blocks the
/// most such routes joins. `pair_of[t]` is the stuck pair holding tile `t`, if any.
fn grow(r: &Routes, seed: usize, pair_of: &[Option<usize>], stay: &[bool]) -> Vec<usize> {
    let mut set = vec![seed];
    let mut blockers = stay.to_vec();
    blockers[r.pairs[seed].a] = true;
    blockers[r.pairs[seed].b] = true;
    let mut votes: Vec<usize> = vec![0; r.pairs.len()];
    loop {
        let mut any = false;
        let mut best: Option<usize> = None;
        for &i in &set {
            let c = &r.pairs[i];
            for route in &c.routes {
                if route.iter().any(|&t| t != c.a && t != c.b && blockers[t]) {
                    continue;
                }
                any = true;
                for &t in route {
                    if let Some(j) = pair_of[t] {
                        votes[j] += 1;
                        if best.is_none_or(|b| votes[j] > votes[b]) {
                            best = Some(j);
                        }
                    }
                }
            }
        }
        if !any {
            return set;
        }
        let Some(j) = best else {
            // A route with no stuck tile on it: the position was not stuck there.
            return Vec::new();
        };
        for v in votes.iter_mut() {
            *v = 0;
        }
        set.push(j);
        blockers[r.pairs[j].a] = true;
        blockers[r.pairs[j].b] = true;
    }
}

/// Why a pairing is stuck: from the pairs `stuck` (left by [`closure`]) and the tiles that
/// stay on the board (`stay`: tiles of no pair), a small set of pairs each of whose routes
/// crosses a tile of another pair of the set or a staying tile. Sets are grown from each stuck
/// pair ([`grow`]), the smallest is shrunk while it stays so (pairs in `prefer` are dropped
/// last and win ties). Returns the pairs and the staying tiles on their routes. No plan can
/// contain all these pairs while those tiles stay: the first of them to go would find every
/// line blocked.
pub fn blocking_set(
    r: &Routes,
    stuck: &[usize],
    stay: &[bool],
    prefer: &[usize],
) -> (Vec<usize>, Vec<usize>) {
    let mut pair_of = vec![None; r.tiles.len()];
    for &i in stuck {
        pair_of[r.pairs[i].a] = Some(i);
        pair_of[r.pairs[i].b] = Some(i);
    }
    let preferred = |set: &[usize]| set.iter().filter(|i| prefer.contains(i)).count();
    let mut best: Vec<usize> = closed(r, stuck, stay);
    for &seed in stuck {
        let g = grow(r, seed, &pair_of, stay);
        if g.is_empty() {
            continue;
        }
        if g.len() < best.len() || (g.len() == best.len() && preferred(&g) > preferred(&best)) {
            best = g;
        }
    }
    // Shrink: drop pairs (not preferred ones first) while a closed part is left.
    let mut set = best;
    crate::sort::by_key(&mut set, |i| (prefer.contains(i), *i));
    let mut k = 0;
    while k < set.len() {
        let mut trial = set.clone();
        trial.remove(k);
        let smaller = closed(r, &trial, stay);
        if smaller.is_empty() {
            k += 1;
        } else {
            set = smaller;
            k = 0;
        }
    }
    let mut staying: Vec<usize> = set
        .iter()
        .flat_map(|&i| r.pairs[i].routes.iter().flatten().copied())
        .filter(|&t| stay[t])
        .collect();
    crate::sort::all(&mut staying);
    staying.dedup();
    (set, staying)
}

/// Pairs of candidate pairs (indices, disjoint tiles) that block each other: every route of
/// each crosses a tile of the other, so no plan has both.
pub fn blocking_twos(r: &Routes) -> Vec<(usize, usize)> {
    let n = r.tiles.len();
    let mut out = Vec::new();
    let mut mark = vec![false; n];
    for i in 0..r.pairs.len() {
        let pi = &r.pairs[i];
        if pi.free() {
            continue;
        }
        for j in i + 1..r.pairs.len() {
            let pj = &r.pairs[j];
            if pj.free() || pj.a == pi.a || pj.a == pi.b || pj.b == pi.a || pj.b == pi.b {
                continue;
            }
            mark[pj.a] = true;
            mark[pj.b] = true;
            let ij = blocked(r, i, &mark);
            mark[pj.a] = false;
            mark[pj.b] = false;
            if !ij {
                continue;
            }
            mark[pi.a] = true;
            mark[pi.b] = true;
            let ji = blocked(r, j, &mark);
            mark[pi.a] = false;
            mark[pi.b] = false;
            if ji {
                out.push((i, j));
            }
        }
    }
    out
}

/// Closed sets within small groups of classes: for every group of `size` classes that touch
/// (a pair of one class has a route crossing a tile of another, as far as the group reaches)
/// and every way of pairing the group's tiles among themselves, the pairs of that pairing
/// that block each other ([`closed`] with nothing staying), shrunk. Each set is a clause no
/// plan breaks (not all of these pairs), found before solving. `classes` lists each class's
/// tiles.
pub fn group_blocks(r: &Routes, classes: &[Vec<usize>], size: usize) -> Vec<Vec<usize>> {
    let n = r.tiles.len();
    let mut class_of = vec![usize::MAX; n];
    for (k, ts) in classes.iter().enumerate() {
        for &t in ts {
            class_of[t] = k;
        }
    }
    let index: std::collections::HashMap<(usize, usize), usize> = r
        .pairs
        .iter()
        .enumerate()
        .map(|(i, c)| ((c.a, c.b), i))
        .collect();
    // Every perfect pairing of a class's tiles (as candidate pair indices).
    fn pairings(
        ts: &[usize],
        index: &std::collections::HashMap<(usize, usize), usize>,
    ) -> Vec<Vec<usize>> {
        if ts.is_empty() {
            return vec![Vec::new()];
        }
        let mut out = Vec::new();
        for k in 1..ts.len() {
            let Some(&i) = index.get(&(ts[0].min(ts[k]), ts[0].max(ts[k]))) else {
                continue;
            };
            let rest: Vec<usize> = ts[1..].iter().copied().filter(|&t| t != ts[k]).collect();
            for mut p in pairings(&rest, index) {
                p.push(i);
                out.push(p);
            }
        }
        out
    }
    let per_class: Vec<Vec<Vec<usize>>> = classes
        .iter()
        .map(|ts| {
            if ts.len() <= 4 {
                pairings(ts, &index)
            } else {
                Vec::new()
            }
        })
        .collect();
    // Classes whose pairs have routes crossing each other's tiles.
    let mut touch = vec![vec![false; classes.len()]; classes.len()];
    for c in &r.pairs {
        let k = class_of[c.a];
        for route in &c.routes {
            for &t in route {
                touch[k][class_of[t]] = true;
                touch[class_of[t]][k] = true;
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = (0..classes.len()).map(|k| vec![k]).collect();
    for _ in 1..size {
        let mut next = Vec::new();
        for g in &groups {
            let last = *g.last().expect("a class");
            for k in (last + 1)..classes.len() {
                if g.iter().any(|&x| touch[x].get(k) == Some(&true)) {
                    let mut h = g.clone();
                    h.push(k);
                    next.push(h);
                }
            }
        }
        groups = next;
    }
    let stay = vec![false; n];
    let mut out: Vec<Vec<usize>> = Vec::new();
    for g in groups {
        if g.iter().any(|&k| per_class[k].is_empty()) {
            continue;
        }
        // Every combination of one pairing per class of the group.
        let mut combos: Vec<Vec<usize>> = vec![Vec::new()];
        for &k in &g {
            let mut next = Vec::new();
            for c in &combos {
                for p in &per_class[k] {
                    let mut x = c.clone();
                    x.extend(p);
                    next.push(x);
                }
            }
            combos = next;
        }
        for combo in combos {
            let set = closed(r, &combo, &stay);
            if set.is_empty() {
                continue;
            }
            let (mut set, _) = blocking_set(r, &set, &stay, &[]);
            crate::sort::all(&mut set);
            if !out.contains(&set) {
                out.push(set);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shisen::format::{parse, ReadOptions};

    fn board(text: &str) -> Shisen {
        parse("t", text, &ReadOptions::default()).unwrap().remove(0)
    }

    #[test]
    fn neighbours_are_free_and_blocked_pairs_list_their_blockers() {
        let p = board("A A B\nB C C\n");
        let r = build(&p);
        let ab = |x: usize, y: usize| {
            r.pairs
                .iter()
                .find(|c| r.tiles[c.a] == x && r.tiles[c.b] == y)
                .unwrap()
        };
        assert!(ab(0, 1).free());
        // B r1c3 and B r2c1: every route crosses an A or a C, even round the ring.
        let c = ab(2, 3);
        assert!(!c.free());
        for s in &c.routes {
            assert!(!s.is_empty());
            for t in s {
                assert!(
                    ![2, 3].contains(&r.tiles[*t]),
                    "a route never counts its own ends"
                );
            }
        }
        // Minimal: no set contains another.
        for (i, x) in c.routes.iter().enumerate() {
            for (j, y) in c.routes.iter().enumerate() {
                assert!(i == j || !subset(x, y));
            }
        }
    }

    #[test]
    fn without_the_outline_fewer_routes_are_free() {
        let p = board("A B B A\n");
        let r = build(&p);
        assert!(r.pairs[0].free(), "over the ring");
        let q = board("# shisen: no-outline\nA B B A\n");
        let r = build(&q);
        assert_eq!(r.pairs[0].routes, vec![vec![1, 2]], "only through the B's");
    }
}
