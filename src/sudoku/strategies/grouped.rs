//! Grouped chains: alternating chains (AIC, continuous and discontinuous nice loops) whose
//! nodes may be groups as well as single candidates. A group is "the value is in one of these
//! cells": the places of a value where a box meets a row or a column (two or three cells), or,
//! with almost locked sets, the places of one value inside an ALS (N cells holding N+1 values:
//! any two of its values, one is in it, a strong link between the two groups).
//!
//! Two groups of one value link weakly when every cell of one sees every cell of the other; a
//! unit whose places for a value are exactly two nodes links them strongly. A chain A = ... = B
//! proves "A or B": what conflicts with both ends goes. A loop removes, for each of its weak
//! links, what sees both ends. The search is breadth-first from every node, as in
//! [`super::chains`], so each deduction comes with a shortest chain; where the shortest path
//! overlaps itself (a lasso), a bounded depth-first search looks for the shortest chain that
//! does not (HoDoKu's reglib has such loops that place their start and such AICs).

use super::grid::{bit, digits, Board, Found};
use super::rating::{base, length_bonus};
use crate::explain::{Link, Step};
use std::collections::HashMap;

/// A node: a value in one of a set of cells (one cell: a plain candidate).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    pub digit: u8,
    pub cells: u128,
    /// The almost locked set it belongs to (its cells), for the text; 0 for a group or a
    /// candidate.
    pub als: u128,
}

fn cells(mut m: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(b)
        }
    })
}

fn one(i: usize) -> u128 {
    1u128 << i
}

/// The link graph over candidates, groups and (optionally) ALS nodes.
pub struct Net {
    pub nodes: Vec<Node>,
    strong: Vec<Vec<u32>>,
    weak: Vec<Vec<u32>>,
    /// For each node and value: the cells holding that value which conflict with the node
    /// (cannot hold it when the node is true).
    conflicts: Vec<Vec<u128>>,
    /// Candidates and groups by (value, cells).
    index: HashMap<(u8, u128), u32>,
}

/// Per value, the cells that hold it.
fn holders(b: &Board) -> Vec<u128> {
    let n = b.n();
    let mut h = vec![0u128; n + 1];
    for i in b.open() {
        for d in digits(b.masks[i]) {
            h[d as usize] |= one(i);
        }
    }
    h
}

impl Net {
    /// Builds the net; `als` adds the nodes of almost locked sets.
    pub fn new(b: &Board, als: bool) -> Net {
        let g = &b.geo;
        let n = g.n;
        let peers: Vec<u128> = (0..n * n)
            .map(|i| g.peers[i].iter().fold(0u128, |m, &j| m | one(j)))
            .collect();
        let hold = holders(b);
        let mut nodes: Vec<Node> = Vec::new();
        let mut index: HashMap<(u8, u128), u32> = HashMap::new();
        fn add(
            nodes: &mut Vec<Node>,
            index: &mut HashMap<(u8, u128), u32>,
            d: u8,
            c: u128,
            als: u128,
        ) -> u32 {
            if als == 0 {
                if let Some(&k) = index.get(&(d, c)) {
                    return k;
                }
            }
            nodes.push(Node {
                digit: d,
                cells: c,
                als,
            });
            let k = nodes.len() as u32 - 1;
            if als == 0 {
                index.insert((d, c), k);
            }
            k
        }
        // Candidates, then groups (box meets line, two or three places).
        for i in b.open() {
            for d in digits(b.masks[i]) {
                add(&mut nodes, &mut index, d, one(i), 0);
            }
        }
        let unit_set = |u: usize, d: u8| -> u128 {
            b.cells_for(u, d).into_iter().fold(0u128, |m, i| m | one(i))
        };
        for d in 1..=n as u8 {
            for bx in 2 * n..3 * n {
                let in_box = unit_set(bx, d);
                for line in 0..2 * n {
                    let part = in_box & unit_set(line, d);
                    if part.count_ones() >= 2 {
                        add(&mut nodes, &mut index, d, part, 0);
                    }
                }
            }
        }
        let plain = nodes.len();
        let mut strong: Vec<Vec<u32>> = vec![Vec::new(); plain];
        let link = |s: &mut Vec<Vec<u32>>, a: u32, c: u32| {
            if !s[a as usize].contains(&c) {
                s[a as usize].push(c);
            }
            if !s[c as usize].contains(&a) {
                s[c as usize].push(a);
            }
        };
        // Strong links inside bivalue cells.
        for i in b.open() {
            if b.masks[i].count_ones() == 2 {
                let ds: Vec<u8> = digits(b.masks[i]).collect();
                let (x, y) = (index[&(ds[0], one(i))], index[&(ds[1], one(i))]);
                link(&mut strong, x, y);
            }
        }
        // Strong links in units: the places are exactly two nodes (split by box for a line,
        // by line for a box).
        for u in 0..3 * n {
            for d in 1..=n as u8 {
                let p = unit_set(u, d);
                if p.count_ones() < 2 {
                    continue;
                }
                let split: Vec<u128> = if u < 2 * n {
                    (2 * n..3 * n)
                        .map(|bx| p & unit_set(bx, d))
                        .filter(|&m| m != 0)
                        .collect()
                } else {
                    let mut found = Vec::new();
                    for lines in [0..n, n..2 * n] {
                        let parts: Vec<u128> = lines
                            .map(|l| p & unit_set(l, d))
                            .filter(|&m| m != 0)
                            .collect();
                        if parts.len() == 2 {
                            found = parts;
                            break;
                        }
                    }
                    found
                };
                if split.len() == 2 {
                    if let (Some(&x), Some(&y)) =
                        (index.get(&(d, split[0])), index.get(&(d, split[1])))
                    {
                        link(&mut strong, x, y);
                    }
                }
            }
        }
        if als {
            for set in almost_locked_sets(b) {
                let ds: Vec<u8> = digits(set.1).collect();
                let first = nodes.len() as u32;
                for &d in &ds {
                    let c = set.0 & hold[d as usize];
                    add(&mut nodes, &mut index, d, c, set.0);
                    strong.push(Vec::new());
                }
                for x in 0..ds.len() as u32 {
                    for y in x + 1..ds.len() as u32 {
                        link(&mut strong, first + x, first + y);
                    }
                }
            }
        }
        // Conflicts and weak links.
        let mut conflicts: Vec<Vec<u128>> = Vec::with_capacity(nodes.len());
        for nd in &nodes {
            let mut conf = vec![0u128; n + 1];
            let mut seen = u128::MAX;
            for c in cells(nd.cells) {
                seen &= peers[c];
            }
            conf[nd.digit as usize] = seen & hold[nd.digit as usize] & !nd.cells;
            if nd.cells.count_ones() == 1 && nd.als == 0 {
                let i = nd.cells.trailing_zeros() as usize;
                for e in digits(b.masks[i] & !bit(nd.digit)) {
                    conf[e as usize] |= one(i);
                }
            }
            conflicts.push(conf);
        }
        let mut by_digit: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
        for (k, nd) in nodes.iter().enumerate() {
            by_digit[nd.digit as usize].push(k as u32);
        }
        let mut weak: Vec<Vec<u32>> = vec![Vec::new(); nodes.len()];
        for (k, nd) in nodes.iter().enumerate() {
            let conf = &conflicts[k];
            // Same value: every cell of the other node conflicts.
            for &o in &by_digit[nd.digit as usize] {
                let other = &nodes[o as usize];
                if o as usize != k && other.cells & !conf[nd.digit as usize] == 0 {
                    weak[k].push(o);
                }
            }
            // Other values in the same single cell.
            if nd.cells.count_ones() == 1 && nd.als == 0 {
                let i = nd.cells.trailing_zeros() as usize;
                for e in digits(b.masks[i] & !bit(nd.digit)) {
                    weak[k].push(index[&(e, one(i))]);
                }
            }
        }
        Net {
            nodes,
            strong,
            weak,
            conflicts,
            index,
        }
    }

    /// True when the node is a group or an ALS node.
    fn grouped(&self, v: u32) -> bool {
        let nd = &self.nodes[v as usize];
        nd.cells.count_ones() > 1 || nd.als != 0
    }
}

/// Almost locked sets: N cells of one unit holding N+1 values together (a bivalue cell is
/// one). Each as (cells, values).
pub fn almost_locked_sets(b: &Board) -> Vec<(u128, u64)> {
    let g = &b.geo;
    let mut out: Vec<(u128, u64)> = Vec::new();
    for u in 0..3 * g.n {
        let open: Vec<usize> = g.units[u]
            .iter()
            .copied()
            .filter(|&i| b.values[i] == 0)
            .collect();
        for k in 1..open.len() {
            super::grid::subsets(&open, k, &mut |set| {
                let m = set.iter().fold(0u64, |m, &i| m | b.masks[i]);
                if m.count_ones() as usize == k + 1 {
                    let c = set.iter().fold(0u128, |m, &i| m | one(i));
                    if !out.iter().any(|x| x.0 == c) {
                        out.push((c, m));
                    }
                }
                false
            });
        }
    }
    out
}

/// BFS state over the net: node `v` off (`2v`) or on (`2v+1`).
struct Bfs {
    stamp: Vec<u32>,
    parent: Vec<u32>,
    dist: Vec<u16>,
    gen: u32,
    queue: Vec<u32>,
}

impl Bfs {
    fn new(size: usize) -> Bfs {
        Bfs {
            stamp: vec![0; 2 * size],
            parent: vec![0; 2 * size],
            dist: vec![0; 2 * size],
            gen: 0,
            queue: Vec::new(),
        }
    }

    /// From node `s` off; nodes touching the cells of `banned` are left out (but `s`).
    fn run(&mut self, net: &Net, s: u32, max_nodes: usize, banned: u128) {
        self.gen += 1;
        self.queue.clear();
        let start = 2 * s;
        self.stamp[start as usize] = self.gen;
        self.dist[start as usize] = 0;
        self.queue.push(start);
        let mut head = 0;
        while head < self.queue.len() {
            let st = self.queue[head];
            head += 1;
            let (v, on) = (st / 2, st % 2 == 1);
            let d = self.dist[st as usize];
            if d as usize + 2 > max_nodes {
                continue;
            }
            let links = if on {
                &net.weak[v as usize]
            } else {
                &net.strong[v as usize]
            };
            for &w in links {
                if banned != 0 && w != s && net.nodes[w as usize].cells & banned != 0 {
                    continue;
                }
                let nst = 2 * w + u32::from(!on);
                if self.stamp[nst as usize] == self.gen {
                    continue;
                }
                self.stamp[nst as usize] = self.gen;
                self.dist[nst as usize] = d + 1;
                self.parent[nst as usize] = st;
                self.queue.push(nst);
            }
        }
    }

    fn reached(&self, st: u32) -> bool {
        self.stamp[st as usize] == self.gen
    }

    /// True when state `st` was reached by a path whose nodes do not overlap.
    fn reached_distinct(&self, net: &Net, st: u32) -> bool {
        self.reached(st) && distinct(net, &self.path(st), true)
    }

    fn path(&self, st: u32) -> Vec<u32> {
        let mut nodes = vec![st / 2];
        let mut cur = st;
        while self.dist[cur as usize] > 0 {
            cur = self.parent[cur as usize];
            nodes.push(cur / 2);
        }
        nodes.reverse();
        nodes
    }
}

/// A chain from `s` off to state `target` (node `t` on) whose nodes share no candidate (the
/// last node may be the first), for when the breadth-first path there overlaps itself (a
/// lasso): a depth-first search deepened one node at a time, pruned by the distances of
/// `back`, a breadth-first search run from `t` off (links being symmetric, the distance from
/// a state to `t` on is that of the flipped state from `t` off). Gives up after
/// [`SIMPLE_PATH_BUDGET`] states tried.
fn simple_path(net: &Net, back: &Bfs, s: u32, target: u32, max_nodes: usize) -> Option<Vec<u32>> {
    let to_go = |st: u32| -> Option<usize> {
        back.reached(st ^ 1)
            .then(|| back.dist[(st ^ 1) as usize] as usize)
    };
    struct Walk<'a> {
        net: &'a Net,
        target: u32,
        path: Vec<u32>,
        used: Vec<u128>,
        budget: usize,
    }
    fn go(w: &mut Walk, st: u32, limit: usize, to_go: &dyn Fn(u32) -> Option<usize>) -> bool {
        if st == w.target {
            return true;
        }
        if w.budget == 0 {
            return false;
        }
        w.budget -= 1;
        let (v, on) = (st / 2, st % 2 == 1);
        let links = if on {
            &w.net.weak[v as usize]
        } else {
            &w.net.strong[v as usize]
        };
        for &x in links {
            let nst = 2 * x + u32::from(!on);
            let nd = &w.net.nodes[x as usize];
            let closing = nst == w.target;
            if !closing && w.used[nd.digit as usize] & nd.cells != 0 {
                continue;
            }
            match to_go(nst) {
                Some(h) if w.path.len() + 1 + h <= limit => {}
                _ => continue,
            }
            if !closing {
                w.used[nd.digit as usize] |= nd.cells;
            }
            w.path.push(x);
            if go(w, nst, limit, to_go) {
                return true;
            }
            w.path.pop();
            if !closing {
                w.used[nd.digit as usize] &= !nd.cells;
            }
        }
        false
    }
    let first = to_go(2 * s)? + 1;
    let sn = &net.nodes[s as usize];
    let mut w = Walk {
        net,
        target,
        path: vec![s],
        used: vec![0; 65],
        budget: SIMPLE_PATH_BUDGET,
    };
    w.used[sn.digit as usize] = sn.cells;
    for limit in first..=max_nodes {
        if go(&mut w, 2 * s, limit, &to_go) {
            return Some(w.path);
        }
        if w.budget == 0 {
            break;
        }
    }
    None
}

/// States a [`simple_path`] search may try.
const SIMPLE_PATH_BUDGET: usize = 200_000;

/// True when no two nodes of a chain share a candidate (the last may be the first when
/// `closed`).
fn distinct(net: &Net, nodes: &[u32], closed: bool) -> bool {
    let body = if closed {
        &nodes[..nodes.len() - 1]
    } else {
        nodes
    };
    let mut used: HashMap<u8, u128> = HashMap::new();
    for &v in body {
        let nd = &net.nodes[v as usize];
        let e = used.entry(nd.digit).or_insert(0);
        if *e & nd.cells != 0 {
            return false;
        }
        *e |= nd.cells;
    }
    true
}

/// Candidates conflicting with both nodes.
fn either(b: &Board, net: &Net, s: u32, t: u32) -> Vec<(usize, u8)> {
    let (cs, ct) = (&net.conflicts[s as usize], &net.conflicts[t as usize]);
    let mut out = Vec::new();
    for d in 1..=b.n() as u8 {
        for i in cells(cs[d as usize] & ct[d as usize]) {
            out.push((i, d));
        }
    }
    out
}

/// What a continuous loop removes: for each weak link, what conflicts with both its ends and
/// is not in the loop; an ALS passed through keeps its other values inside.
fn loop_eliminations(b: &Board, net: &Net, nodes: &[u32]) -> Vec<(usize, u8)> {
    let k = nodes.len();
    let mut in_loop: HashMap<u8, u128> = HashMap::new();
    for &v in nodes {
        let nd = &net.nodes[v as usize];
        *in_loop.entry(nd.digit).or_insert(0) |= nd.cells;
    }
    let mut out = Vec::new();
    for w in (1..k).step_by(2) {
        let (a, c) = (nodes[w], nodes[(w + 1) % k]);
        for (i, d) in either(b, net, a, c) {
            if in_loop.get(&d).is_none_or(|m| m & one(i) == 0) {
                out.push((i, d));
            }
        }
    }
    // Strong links through an ALS: both its entry and exit values are now bound to the
    // loop, so the ALS's other values are locked in it.
    for w in (0..k).step_by(2) {
        let (a, c) = (
            &net.nodes[nodes[w] as usize],
            &net.nodes[nodes[w + 1] as usize],
        );
        if a.als == 0 || a.als != c.als {
            continue;
        }
        let all = a.als;
        for d in 1..=b.n() as u8 {
            if d == a.digit || d == c.digit {
                continue;
            }
            let holders: Vec<usize> = cells(all).filter(|&i| b.has(i, d)).collect();
            if holders.is_empty() {
                continue;
            }
            for q in b.geo.seen_by_all(&holders) {
                if all & one(q) == 0 && b.has(q, d) {
                    out.push((q, d));
                }
            }
        }
    }
    crate::sort::all(&mut out);
    out.dedup();
    out
}

/// `(4)r1c2`, `(4)r1c23` style names: cells of a group listed by row.
fn node_name(b: &Board, nd: &Node) -> String {
    let list: Vec<usize> = cells(nd.cells).collect();
    let names = if list.len() == 1 {
        b.geo.cell_name(list[0])
    } else {
        format!("{{{}}}", b.geo.cell_list(&list).replace(", ", ","))
    };
    if nd.als != 0 {
        let all: Vec<usize> = cells(nd.als).collect();
        format!(
            "({}){names}[ALS {}]",
            nd.digit,
            b.geo.cell_list(&all).replace(", ", ",")
        )
    } else {
        format!("({}){names}", nd.digit)
    }
}

/// A chain in Eureka-like notation, strong `=`, weak `-`.
pub fn notation(b: &Board, net: &Net, nodes: &[u32], looped: bool) -> String {
    let mut out = String::new();
    for (k, &v) in nodes.iter().enumerate() {
        if k > 0 {
            out.push(if k % 2 == 1 { '=' } else { '-' });
        }
        out.push_str(&node_name(b, &net.nodes[v as usize]));
    }
    if looped {
        out.push('-');
        out.push_str(&node_name(b, &net.nodes[nodes[0] as usize]));
    }
    out
}

struct Chain {
    nodes: Vec<u32>,
    looped: bool,
    placements: Vec<(usize, u8)>,
    eliminations: Vec<(usize, u8)>,
}

/// The longest grouped chain looked for (in nodes).
const MAX_NODES: usize = 20;

/// What to look for: AIC, continuous loops, discontinuous loops (placements or eliminations of
/// the start).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Aic,
    Continuous,
    Discontinuous,
}

fn name(kind: Kind, als: bool) -> &'static str {
    match (kind, als) {
        (Kind::Aic, false) => "grouped AIC",
        (Kind::Continuous, false) => "grouped continuous nice loop",
        (Kind::Discontinuous, false) => "grouped discontinuous nice loop",
        (Kind::Aic, true) => "AIC with ALS",
        (Kind::Continuous, true) => "continuous nice loop with ALS",
        (Kind::Discontinuous, true) => "discontinuous nice loop with ALS",
    }
}

/// Every grouped chain of one kind (ALS nodes allowed when `als`), one per deduction.
pub fn find(b: &Board, f: &mut Found, kind: Kind, als: bool) {
    if b.n() * b.n() > 128 {
        return;
    }
    let net = Net::new(b, als);
    let mut bfs = Bfs::new(net.nodes.len());
    let mut back = Bfs::new(net.nodes.len());
    let mut every = Every::new();
    for s in 0..net.nodes.len() as u32 {
        if net.strong[s as usize].is_empty() {
            continue;
        }
        bfs.run(&net, s, MAX_NODES, 0);
        let mut reached: Vec<u32> = bfs.queue.iter().copied().filter(|st| st % 2 == 1).collect();
        let snd = &net.nodes[s as usize];
        let place_again = kind == Kind::Discontinuous
            && snd.cells.count_ones() == 1
            && snd.als == 0
            && !bfs.reached_distinct(&net, 2 * s + 1);
        if place_again && bfs.reached(2 * s + 1) {
            // The shortest way back overlaps itself: look for a longer one that does not.
            if let Some(nodes) = simple_path(&net, &bfs, s, 2 * s + 1, MAX_NODES) {
                let placements = vec![(snd.cells.trailing_zeros() as usize, snd.digit)];
                keep(
                    &mut every,
                    Chain {
                        nodes,
                        looped: false,
                        placements,
                        eliminations: vec![],
                    },
                );
            }
        }
        for pass in 0..2 {
            if pass == 1 {
                // The shortest way back to the start may pass through its cell again: look
                // again around that cell for a placement.
                if !place_again {
                    break;
                }
                bfs.run(&net, s, MAX_NODES, snd.cells);
                if !bfs.reached(2 * s + 1) {
                    break;
                }
                reached = vec![2 * s + 1];
            }
            for &st in &reached {
                let t = st / 2;
                let len = bfs.dist[st as usize] as usize + 1;
                if len < 4 {
                    continue;
                }
                let snd = &net.nodes[s as usize];
                let mut chain = if t == s {
                    if kind != Kind::Discontinuous || snd.cells.count_ones() != 1 || snd.als != 0 {
                        continue;
                    }
                    Chain {
                        nodes: bfs.path(st),
                        looped: false,
                        placements: vec![(snd.cells.trailing_zeros() as usize, snd.digit)],
                        eliminations: vec![],
                    }
                } else if net.weak[t as usize].contains(&s) {
                    if kind != Kind::Continuous {
                        continue;
                    }
                    let nodes = bfs.path(st);
                    let el = loop_eliminations(b, &net, &nodes);
                    if el.is_empty() {
                        continue;
                    }
                    Chain {
                        nodes,
                        looped: true,
                        placements: vec![],
                        eliminations: el,
                    }
                } else {
                    let el = either(b, &net, s, t);
                    if el.is_empty() {
                        continue;
                    }
                    // A discontinuous loop removes a candidate both ends conflict with and that
                    // links weakly to both (the chain read from it and back); an AIC the rest.
                    let el = if kind == Kind::Discontinuous {
                        el.into_iter()
                            .filter(|&(i, d)| {
                                net.index.get(&(d, one(i))).is_some_and(|&c| {
                                    net.weak[s as usize].contains(&c)
                                        && net.weak[t as usize].contains(&c)
                                })
                            })
                            .collect::<Vec<_>>()
                    } else {
                        el
                    };
                    if el.is_empty() {
                        continue;
                    }
                    Chain {
                        nodes: bfs.path(st),
                        looped: false,
                        placements: vec![],
                        eliminations: el,
                    }
                };
                let (sn, tn) = (&net.nodes[s as usize], &net.nodes[t as usize]);
                let one_cell = sn.cells == tn.cells && sn.cells.count_ones() == 1 && sn.als == 0;
                let split = kind == Kind::Discontinuous && chain.placements.is_empty() && !one_cell;
                if !distinct(&net, &chain.nodes, t == s) {
                    // A lasso: for a deduction not made yet, look for a chain that does not
                    // overlap itself (a loop's eliminations depend on its path: not there).
                    let new = if split {
                        chain
                            .eliminations
                            .iter()
                            .any(|&e| !every.contains_key(&(vec![], vec![e])))
                    } else {
                        !every.contains_key(&(chain.placements.clone(), chain.eliminations.clone()))
                    };
                    if t == s || chain.looped || !new {
                        continue;
                    }
                    back.run(&net, t, MAX_NODES, 0);
                    match simple_path(&net, &back, s, st, MAX_NODES) {
                        Some(nodes) => chain.nodes = nodes,
                        None => continue,
                    }
                }
                if split {
                    // One step per removed candidate, as HoDoKu shows them.
                    for &e in &chain.eliminations {
                        keep(
                            &mut every,
                            Chain {
                                nodes: chain.nodes.clone(),
                                looped: false,
                                placements: vec![],
                                eliminations: vec![e],
                            },
                        );
                    }
                    continue;
                }
                keep(&mut every, chain);
            }
        }
    }
    let mut found: Vec<Chain> = every.into_values().collect();
    crate::sort::by(&mut found, |a, c| {
        a.nodes
            .len()
            .cmp(&c.nodes.len())
            .then(a.eliminations.cmp(&c.eliminations))
            .then(a.placements.cmp(&c.placements))
    });
    for c in found {
        if f.push(to_step(b, &net, &c, kind, als)) {
            return;
        }
    }
}

/// The chains found, one per deduction (placements, eliminations).
type Every = HashMap<(Vec<(usize, u8)>, Vec<(usize, u8)>), Chain>;

/// Keeps `chain` unless a chain as short makes the same deduction.
fn keep(every: &mut Every, chain: Chain) {
    let key = (chain.placements.clone(), chain.eliminations.clone());
    if every
        .get(&key)
        .is_none_or(|old| chain.nodes.len() < old.nodes.len())
    {
        every.insert(key, chain);
    }
}

fn to_step(b: &Board, net: &Net, c: &Chain, kind: Kind, als: bool) -> Step {
    let uses_als = c.nodes.iter().any(|&v| net.nodes[v as usize].als != 0);
    let grouped = c.nodes.iter().any(|&v| net.grouped(v));
    let name = if uses_als {
        name(kind, true)
    } else if grouped {
        name(kind, false)
    } else {
        match kind {
            Kind::Aic => "AIC",
            Kind::Continuous => "continuous nice loop",
            Kind::Discontinuous => "discontinuous nice loop",
        }
    };
    let _ = als;
    let chain = notation(b, net, &c.nodes, c.looped);
    let what = if c.placements.is_empty() {
        b.elim_text(&c.eliminations)
    } else {
        let (i, d) = c.placements[0];
        format!("places {}={d}", b.geo.cell_name(i))
    };
    let text = format!("{name}: {chain} {what}");
    let mut pattern = Vec::new();
    for &v in &c.nodes {
        let nd = &net.nodes[v as usize];
        for i in cells(nd.cells) {
            pattern.push(b.cv(i, nd.digit));
        }
    }
    let rating = base::AIC + 0.3 + length_bonus(c.nodes.len());
    let mut step = b.step(name, rating, pattern, &c.placements, &c.eliminations, text);
    step.links = links(b, net, &c.nodes, c.looped);
    step
}

/// The links of a chain between the first cells of its nodes (a group's first cell stands for
/// the group).
fn links(b: &Board, net: &Net, nodes: &[u32], looped: bool) -> Vec<Link> {
    let cv = |v: u32| {
        let nd = &net.nodes[v as usize];
        b.cv(nd.cells.trailing_zeros() as usize, nd.digit)
    };
    let mut out: Vec<Link> = nodes
        .windows(2)
        .enumerate()
        .map(|(k, w)| Link {
            from: cv(w[0]),
            to: cv(w[1]),
            strong: k % 2 == 0,
        })
        .collect();
    if looped {
        out.push(Link {
            from: cv(nodes[nodes.len() - 1]),
            to: cv(nodes[0]),
            strong: false,
        });
    }
    out
}
