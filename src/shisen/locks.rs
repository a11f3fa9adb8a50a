//! Dead-lock lemmas of the play search: positions that cannot be cleared, seen without
//! searching them. A tile can only ever go with a partner along a route whose tiles are all
//! gone by then, so the tiles that can go at all are at most the least fixpoint of "a pair whose
//! tiles are both still here goes when some route of it holds only tiles that can go"
//! ([`Sealed::dead`]). A tile outside that fixpoint is sealed in for good: two kinds whose tiles
//! each wait for the other (a cycle of "after"), or a kind walled in by tiles that wait for
//! it; the position is dead. `models/shisen.md` ("Why each lemma is sound") has the proof.
//!
//! The fixpoint costs passes over every route, so a position after another starts from the
//! releases found there (each a pair and a route): those whose pair is still here and whose
//! route is still clear of tiles not yet released hold again, in the same order, and only the
//! tiles left are searched for. A lock new after a move holds a tile of a class the move took
//! from, so the fixpoint stops as soon as those are released.

use super::routes::{Counters, Routes};

/// The routes as bit sets of tiles, the fixpoint's scratch space, and the stack of derivations
/// (the releases in order, each a pair and its route) of the positions on the search's path.
#[derive(Clone, Debug)]
pub struct Sealed {
    /// Words per tile set.
    words: usize,
    /// Every route's tiles, `words` words each, pair by pair.
    bits: Vec<u64>,
    /// Per pair: its routes in `bits` (start, end, in routes).
    of_pair: Vec<(usize, usize)>,
    /// Per tile: the candidate pairs it is in.
    pairs_of: Vec<Vec<usize>>,
    /// Per tile: the tiles of its class (`words` words).
    class_mask: Vec<u64>,
    /// Locks found lately, most recent first, each `(sealed, barred)`: a position where every
    /// tile of `sealed` is here and no tile of `barred` is, is dead (see [`Sealed::dead`]).
    locks: Vec<(Vec<u64>, Vec<u64>)>,
    pending: Vec<usize>,
    deferred: Vec<(u32, u32)>,
    /// Per pair: queued in `pending` (scratch, all false between calls).
    queued: Vec<bool>,
    /// Per position on the path: the tiles here and the derivation.
    by: Vec<Derivation>,
    /// Fixpoints computed (for figures).
    pub computed: usize,
    /// Positions found dead by a lock kept from another position (for figures).
    pub reused: usize,
}

/// A position's tiles here (`words` words) and its releases in order, each a pair and its route.
type Derivation = (Vec<u64>, Vec<(u32, u32)>);

/// Locks kept to try on later positions before computing the fixpoint.
const LOCKS_KEPT: usize = 16;

/// The first of routes `start..end` (`W` words each in `bits`) that holds no tile of
/// `blocking`. `W` is fixed per board, so the words of a route are tested without a loop.
fn first_clear<const W: usize>(
    bits: &[u64],
    start: usize,
    end: usize,
    blocking: &[u64],
) -> Option<usize> {
    let b: [u64; W] = blocking[..W].try_into().expect("W words");
    bits[start * W..end * W]
        .chunks_exact(W)
        .position(|s| (0..W).fold(0, |acc, x| acc | (s[x] & b[x])) == 0)
        .map(|k| start + k)
}

/// [`first_clear`] for any number of words per route.
fn first_clear_any(bits: &[u64], start: usize, end: usize, blocking: &[u64]) -> Option<usize> {
    let w = blocking.len();
    (start..end).find(|&k| {
        bits[k * w..(k + 1) * w]
            .iter()
            .zip(blocking)
            .all(|(s, b)| s & b == 0)
    })
}

/// Words per tile set for `tiles` tiles, rounded up to a size [`first_clear`] has a copy for.
fn words_for(tiles: usize) -> usize {
    match tiles.div_ceil(64).max(1) {
        w @ 1..=4 => w,
        5..=8 => 8,
        w => w,
    }
}

impl Sealed {
    /// The routes of `r` as bit sets; `classes` lists each match class's tiles.
    pub fn new(r: &Routes, classes: &[Vec<usize>]) -> Sealed {
        let words = words_for(r.tiles.len());
        let mut bits = Vec::new();
        let mut of_pair = Vec::with_capacity(r.pairs.len());
        let mut k = 0;
        for p in &r.pairs {
            let start = k;
            for route in &p.routes {
                let at = bits.len();
                bits.resize(at + words, 0);
                for &t in route {
                    bits[at + t / 64] |= 1 << (t % 64);
                }
                k += 1;
            }
            of_pair.push((start, k));
        }
        let mut class_mask = vec![0u64; r.tiles.len() * words];
        for ts in classes {
            for &t in ts {
                for &u in ts {
                    class_mask[t * words + u / 64] |= 1 << (u % 64);
                }
            }
        }
        let mut pairs_of = vec![Vec::new(); r.tiles.len()];
        for (i, p) in r.pairs.iter().enumerate() {
            pairs_of[p.a].push(i);
            pairs_of[p.b].push(i);
        }
        Sealed {
            words,
            pairs_of,
            bits,
            of_pair,
            class_mask,
            locks: Vec::new(),
            pending: Vec::new(),
            deferred: Vec::new(),
            queued: vec![false; r.pairs.len()],
            by: Vec::new(),
            computed: 0,
            reused: 0,
        }
    }

    /// Derivations on the stack (to [`Sealed::truncate`] back to when leaving a position).
    pub fn depth(&self) -> usize {
        self.by.len()
    }

    /// Drops the derivations of positions left.
    pub fn truncate(&mut self, depth: usize) {
        self.by.truncate(depth);
    }

    /// True when some tile still on the board of `c` can never be removed, whatever is played:
    /// the position is dead. When it is not, its derivation (the releases in order, each with
    /// its pair and route) is kept for the positions after it (until [`Sealed::truncate`]):
    /// they start by replaying it, and each release whose pair is still here and whose route is
    /// still clear of tiles not yet released holds again; only what is left is searched for.
    pub fn dead(&mut self, r: &Routes, c: &Counters) -> bool {
        let w = self.words;
        // The tiles here not known to go yet.
        let mut blocking = vec![0u64; w];
        let mut left = 0;
        for (t, &h) in c.here.iter().enumerate() {
            if h {
                blocking[t / 64] |= 1 << (t % 64);
                left += 1;
            }
        }
        let here = blocking.clone();
        for (k, (sealed, barred)) in self.locks.iter().enumerate() {
            let holds = (0..w).all(|x| sealed[x] & !here[x] == 0 && barred[x] & here[x] == 0);
            if holds {
                self.locks[..=k].rotate_right(1);
                self.reused += 1;
                return true;
            }
        }
        self.computed += 1;
        let mut steps: Vec<(u32, u32)> = Vec::with_capacity(left);
        let first: fn(&[u64], usize, usize, &[u64]) -> Option<usize> = match w {
            1 => first_clear::<1>,
            2 => first_clear::<2>,
            3 => first_clear::<3>,
            4 => first_clear::<4>,
            8 => first_clear::<8>,
            _ => first_clear_any,
        };
        let clear = |bits: &[u64], route: usize, blocking: &[u64]| {
            first(bits, route, route + 1, blocking).is_some()
        };
        let release = |i: usize, blocking: &mut [u64], left: &mut usize| {
            let p = &r.pairs[i];
            let mut any = false;
            for t in [p.a, p.b] {
                if blocking[t / 64] & (1 << (t % 64)) != 0 {
                    blocking[t / 64] &= !(1 << (t % 64));
                    *left -= 1;
                    any = true;
                }
            }
            any
        };
        let mut pending = std::mem::take(&mut self.pending);
        pending.clear();
        // The releases of the position before, in order. A release whose pair is gone broke
        // for the partner still here: that tile's pairs are searched again. One whose route
        // waits for a tile not released yet is deferred, and tried again on the same route
        // once the tiles before it are.
        let mut deferred = std::mem::take(&mut self.deferred);
        deferred.clear();
        // A lock that was not there in the position before holds a tile of a class that lost
        // tiles since (models/shisen.md): once those are released, the position is not dead.
        let mut must = vec![0u64; w];
        if let Some((was, _)) = self.by.last() {
            for x in 0..w {
                let mut gone = was[x] & !here[x];
                while gone != 0 {
                    let t = x * 64 + gone.trailing_zeros() as usize;
                    gone &= gone - 1;
                    for y in 0..w {
                        must[y] |= self.class_mask[t * w + y] & here[y];
                    }
                }
            }
        }
        if let Some((_, before)) = self.by.last() {
            for &(i, route) in before {
                let p = &r.pairs[i as usize];
                if !(c.here[p.a] && c.here[p.b]) {
                    for t in [p.a, p.b] {
                        if c.here[t] {
                            for &j in &self.pairs_of[t] {
                                let q = &r.pairs[j];
                                if c.here[q.a] && c.here[q.b] {
                                    pending.push(j);
                                }
                            }
                        }
                    }
                    continue;
                }
                if clear(&self.bits, route as usize, &blocking) {
                    if release(i as usize, &mut blocking, &mut left) {
                        steps.push((i, route));
                    }
                } else {
                    deferred.push((i, route));
                }
            }
        }
        let open_route = |bits: &[u64], i: usize, blocking: &[u64]| {
            let (start, end) = self.of_pair[i];
            first(bits, start, end, blocking).map(|k| k as u32)
        };
        let waiting = |t: usize, blocking: &[u64]| blocking[t / 64] & (1 << (t % 64)) != 0;
        // One pass over `pending`: a pair whose tiles wait goes when a route of it is clear
        // now, a pair neither of whose tiles waits any more leaves the list. True when one went.
        let sweep = |pending: &mut Vec<usize>,
                     blocking: &mut [u64],
                     left: &mut usize,
                     steps: &mut Vec<(u32, u32)>| {
            let mut changed = false;
            let mut k = 0;
            while k < pending.len() {
                let i = pending[k];
                let p = &r.pairs[i];
                if !waiting(p.a, blocking) && !waiting(p.b, blocking) {
                    pending.swap_remove(k);
                    continue;
                }
                match open_route(&self.bits, i, blocking) {
                    Some(route) => {
                        release(i, blocking, left);
                        steps.push((i as u32, route));
                        pending.swap_remove(k);
                        changed = true;
                    }
                    None => k += 1,
                }
            }
            changed
        };
        let mut widened = false;
        // With a position before (not dead), this one is not dead once `must` is released.
        let known = !self.by.is_empty();
        let settled = |blocking: &[u64]| known && (0..w).all(|x| must[x] & blocking[x] == 0);
        while left > 0 && !settled(&blocking) {
            let mut changed = false;
            deferred.retain(|&(i, route)| {
                let p = &r.pairs[i as usize];
                if !waiting(p.a, &blocking) && !waiting(p.b, &blocking) {
                    return false;
                }
                if clear(&self.bits, route as usize, &blocking) {
                    release(i as usize, &mut blocking, &mut left);
                    steps.push((i, route));
                    changed = true;
                    return false;
                }
                true
            });
            changed |= sweep(&mut pending, &mut blocking, &mut left, &mut steps);
            if !changed {
                if widened || deferred.is_empty() {
                    break;
                }
                // The blocked releases on any route of their pairs.
                widened = true;
                pending.extend(deferred.drain(..).map(|(i, _)| i as usize));
            }
        }
        if settled(&blocking) {
            // Not dead. The releases that failed stay in the derivation, to be tried again
            // after the next move.
            steps.extend_from_slice(&deferred);
            self.pending = pending;
            self.deferred = deferred;
            self.by.push((here, steps));
            return false;
        }
        pending.clear();
        // What is left: every pair of a tile not released yet, until none more goes.
        let mut all = false;
        while left > 0 && !settled(&blocking) {
            let changed = sweep(&mut pending, &mut blocking, &mut left, &mut steps);
            if !changed {
                if all {
                    break;
                }
                // Every pair of a tile not released yet.
                all = true;
                pending.clear();
                for (t, &h) in c.here.iter().enumerate() {
                    if h && waiting(t, &blocking) {
                        for &i in &self.pairs_of[t] {
                            let p = &r.pairs[i];
                            if c.here[p.a] && c.here[p.b] && !self.queued[i] {
                                self.queued[i] = true;
                                pending.push(i);
                            }
                        }
                    }
                }
                for &i in &pending {
                    self.queued[i] = false;
                }
            }
        }
        self.pending = pending;
        self.deferred = deferred;
        if left > 0 && !settled(&blocking) {
            // The lock: the sealed tiles, and the tiles of their classes gone now. A position
            // with all the sealed tiles and none of those is dead too (models/shisen.md).
            let mut barred = vec![0u64; w];
            for t in 0..c.here.len() {
                if blocking[t / 64] & (1 << (t % 64)) != 0 {
                    for x in 0..w {
                        barred[x] |= self.class_mask[t * w + x] & !here[x];
                    }
                }
            }
            if self.locks.len() == LOCKS_KEPT {
                self.locks.pop();
            }
            self.locks.insert(0, (blocking, barred));
            return true;
        }
        self.by.push((here, steps));
        false
    }
}

/// The tiles sealed in at the position of `c` (a closed set, see [`Sealed::dead`]; indices
/// into `r.tiles`), empty when no tile is.
pub fn sealed_tiles(r: &Routes, classes: &[Vec<usize>], c: &Counters) -> Vec<usize> {
    let mut s = Sealed::new(r, classes);
    if !s.dead(r, c) {
        return Vec::new();
    }
    let sealed = &s.locks[0].0;
    (0..r.tiles.len())
        .filter(|&t| sealed[t / 64] & (1 << (t % 64)) != 0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shisen::format::{parse, ReadOptions};
    use crate::shisen::routes;

    fn dead(text: &str) -> bool {
        let p = parse("t", text, &ReadOptions::default()).unwrap().remove(0);
        let r = routes::build(&p);
        let classes = routes::classes(&p, &r);
        Sealed::new(&r, &classes).dead(&r, &Counters::new(&r))
    }

    #[test]
    fn a_cycle_of_after_is_a_lock_and_an_open_board_is_not() {
        // The A's can only meet through a B and the B's through an A (even round the ring, a
        // line of three segments has to pass a neighbour).
        assert!(dead("# shisen: no-outline\nA B\nB A\n"));
        assert!(dead("A B\nB A\n"));
        assert!(!dead("A A\nB B\n"));
        // The C's wait for the A's, the A's for the B's: nothing waits in a cycle.
        assert!(!dead("# shisen: no-outline\nA B B A\nC C D D\n"));
        // Two kinds walled in by each other, beside a pair that could go.
        assert!(dead("# shisen: no-outline\nA B C C\nB A D D\n"));
    }

    #[test]
    fn after_a_move_the_shortcut_gives_the_verdict_of_the_whole_fixpoint() {
        // Random games on small random boards: after each move, the fixpoint that starts from
        // the position before (and stops once the classes the move took from are released)
        // says dead exactly when a fixpoint computed from nothing does.
        use crate::generate::rng;
        use rand::seq::SliceRandom;
        use rand::Rng;
        let mut g = rng(41);
        let mut seen = [0usize; 2];
        for trial in 0..300 {
            let mut faces: Vec<char> = (0..6).flat_map(|k| [(b'A' + k) as char; 4]).collect();
            faces.shuffle(&mut g);
            let rows: Vec<String> = faces.chunks(6).map(|r| r.iter().collect()).collect();
            let ring = if trial % 2 == 0 {
                ""
            } else {
                "# shisen: no-outline\n"
            };
            let text = format!("{ring}{}\n", rows.join("\n"));
            let p = parse("t", &text, &ReadOptions::default())
                .unwrap()
                .remove(0);
            let r = routes::build(&p);
            let classes = routes::classes(&p, &r);
            let mut s = Sealed::new(&r, &classes);
            let mut c = Counters::new(&r);
            if s.dead(&r, &c) {
                continue;
            }
            loop {
                let moves: Vec<usize> = (0..r.pairs.len()).filter(|&i| c.playable(&r, i)).collect();
                if moves.is_empty() {
                    break;
                }
                let i = moves[g.gen_range(0..moves.len())];
                c.remove(r.pairs[i].a, |_| {});
                c.remove(r.pairs[i].b, |_| {});
                let fresh = Sealed::new(&r, &classes).dead(&r, &c);
                assert_eq!(s.dead(&r, &c), fresh, "trial {trial}: {text}");
                seen[usize::from(fresh)] += 1;
                if fresh {
                    break;
                }
            }
        }
        assert!(seen[0] >= 100 && seen[1] >= 20, "alive / dead: {seen:?}");
    }
}
