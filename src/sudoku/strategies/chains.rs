//! Chains of candidates alternating strong links (one of the two is true: a bivalue cell, or a
//! value's two places in a unit) and weak links (not both: two candidates of one cell, or one
//! value in two cells that see each other).
//!
//! A chain A = ... = B that starts and ends with a strong link proves "A or B": every candidate
//! that sees both ends goes. X-Chain: one value, unit links only; XY-Chain: bivalue cells only;
//! AIC: any mix. A chain whose ends are also weakly linked closes into a continuous nice loop,
//! and every weak link of the loop then removes what sees both its ends. A chain from a
//! candidate back to itself (A off ⇒ A on) places it (discontinuous nice loop).
//!
//! The search is breadth-first from every candidate, so for every pair of ends the chain shown
//! is a shortest one; among all deductions the engine takes the lowest-rated (shortest, and
//! single-digit before mixed), as Sudoku Explainer does.

use super::grid::{bit, digit_list, digits, Board, Found};
use super::rating::{base, length_bonus};
use crate::explain::{Link, Step};
use std::collections::HashMap;

/// Which links a search may use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// One value, unit links only.
    X(u8),
    /// Bivalue cells only (strong links inside cells, weak links between cells).
    XY,
    /// Any alternating chain.
    Any,
}

/// The link graph of a board: node `cell * n + value - 1`, links in flat lists (one slice
/// per node) so a search touches little memory.
pub(super) struct Graph {
    pub(super) n: usize,
    /// The number of node slots (`n³`).
    pub(super) size: usize,
    strong_at: Vec<u32>,
    /// Strong links: (target, inside one cell).
    strong_to: Vec<(u32, bool)>,
    weak_at: Vec<u32>,
    /// Weak links: (target, inside one cell).
    weak_to: Vec<(u32, bool)>,
}

impl Graph {
    pub(super) fn new(b: &Board) -> Graph {
        let g = &b.geo;
        let n = g.n;
        let size = n * n * n;
        let mut gr = Graph {
            n,
            size,
            strong_at: vec![0; size + 1],
            strong_to: Vec::new(),
            weak_at: vec![0; size + 1],
            weak_to: Vec::new(),
        };
        for v in 0..size {
            let (i, d) = (v / n, (v % n) as u8 + 1);
            gr.strong_at[v] = gr.strong_to.len() as u32;
            gr.weak_at[v] = gr.weak_to.len() as u32;
            if b.values[i] != 0 || !b.has(i, d) {
                continue;
            }
            let m = b.masks[i];
            for e in digits(m & !bit(d)) {
                let w = (i * n + e as usize - 1) as u32;
                gr.weak_to.push((w, true));
                if m.count_ones() == 2 {
                    gr.strong_to.push((w, true));
                }
            }
            for &j in &g.peers[i] {
                if b.has(j, d) {
                    gr.weak_to.push(((j * n + d as usize - 1) as u32, false));
                }
            }
            let first = gr.strong_to.len();
            for k in 0..3 {
                let u = g.cell_units[i][k];
                let p = b.places(u, d);
                if p.count_ones() == 2 {
                    let other = g.cell_at(
                        u,
                        (p & !(1u64 << g.cell_pos[i][k])).trailing_zeros() as usize,
                    );
                    let w = (other * n + d as usize - 1) as u32;
                    if !gr.strong_to[first..].contains(&(w, false)) {
                        gr.strong_to.push((w, false));
                    }
                }
            }
        }
        gr.strong_at[size] = gr.strong_to.len() as u32;
        gr.weak_at[size] = gr.weak_to.len() as u32;
        gr
    }

    /// The strong links of node `v`.
    pub(super) fn strong(&self, v: u32) -> &[(u32, bool)] {
        &self.strong_to
            [self.strong_at[v as usize] as usize..self.strong_at[v as usize + 1] as usize]
    }

    /// The weak links of node `v`.
    pub(super) fn weak(&self, v: u32) -> &[(u32, bool)] {
        &self.weak_to[self.weak_at[v as usize] as usize..self.weak_at[v as usize + 1] as usize]
    }

    pub(super) fn cell(&self, v: u32) -> usize {
        v as usize / self.n
    }

    pub(super) fn digit(&self, v: u32) -> u8 {
        (v as usize % self.n) as u8 + 1
    }

    fn allowed(&self, mode: Mode, from: u32, to: u32, in_cell: bool, strong: bool) -> bool {
        match mode {
            Mode::X(d) => !in_cell && self.digit(to) == d && self.digit(from) == d,
            Mode::XY => in_cell == strong,
            Mode::Any => true,
        }
    }
}

/// One chain found: nodes from the start (assumed false) to the end (then true).
#[derive(Clone, Debug)]
struct Chain {
    nodes: Vec<u32>,
    /// True when the end weakly links back to the start (a continuous loop).
    looped: bool,
    placements: Vec<(usize, u8)>,
    eliminations: Vec<(usize, u8)>,
}

/// Breadth-first search state, reused from start to start.
pub(super) struct Search {
    stamp: Vec<u32>,
    parent: Vec<u32>,
    dist: Vec<u16>,
    gen: u32,
    queue: Vec<u32>,
}

impl Search {
    pub(super) fn new(size: usize) -> Search {
        Search {
            stamp: vec![0; 2 * size],
            parent: vec![0; 2 * size],
            dist: vec![0; 2 * size],
            gen: 0,
            queue: Vec::new(),
        }
    }

    /// From state (s, off): fills distances to every (node, on/off) state within `max_nodes`.
    fn run(&mut self, gr: &Graph, mode: Mode, s: u32, max_nodes: usize) {
        self.run_from(gr, mode, s, false, max_nodes)
    }

    /// From state (s, on) or (s, off): fills distances to every state within `max_nodes`.
    pub(super) fn run_from(&mut self, gr: &Graph, mode: Mode, s: u32, on: bool, max_nodes: usize) {
        self.gen += 1;
        self.queue.clear();
        let start = 2 * s + u32::from(on); // even: off, odd: on
        self.stamp[start as usize] = self.gen;
        self.dist[start as usize] = 0;
        self.queue.push(start);
        let mut head = 0;
        while head < self.queue.len() {
            let st = self.queue[head];
            head += 1;
            let v = st / 2;
            let on = st % 2 == 1;
            let d = self.dist[st as usize];
            if d as usize + 2 > max_nodes {
                continue;
            }
            let links = if on { gr.weak(v) } else { gr.strong(v) };
            for &(w, in_cell) in links {
                if !gr.allowed(mode, v, w, in_cell, !on) {
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

    /// The states reached by the last run, nearest first.
    pub(super) fn reached_states(&self) -> &[u32] {
        &self.queue
    }

    pub(super) fn reached(&self, st: u32) -> bool {
        self.stamp[st as usize] == self.gen
    }

    /// The nodes from the start to state `st` (the start, then each link's target).
    pub(super) fn path(&self, st: u32) -> Vec<u32> {
        let mut nodes = vec![st / 2];
        let mut cur = st;
        while self.dist[cur as usize] > 0 {
            cur = self.parent[cur as usize];
            nodes.push(cur / 2);
        }
        nodes.reverse();
        nodes
    }

    pub(super) fn len(&self, st: u32) -> usize {
        self.dist[st as usize] as usize + 1
    }
}

/// True when no node repeats (the last one may equal the first when `closed`).
fn distinct(nodes: &[u32], closed: bool) -> bool {
    let body = if closed {
        &nodes[..nodes.len() - 1]
    } else {
        nodes
    };
    let mut sorted = body.to_vec();
    crate::sort::all(&mut sorted);
    sorted.dedup();
    sorted.len() == body.len()
}

/// What "s or t" removes (s, t candidates as nodes).
fn either_eliminations(b: &Board, gr: &Graph, s: u32, t: u32) -> Vec<(usize, u8)> {
    let g = &b.geo;
    let (i, x, j, y) = (gr.cell(s), gr.digit(s), gr.cell(t), gr.digit(t));
    let mut out = Vec::new();
    if i == j {
        for e in digits(b.masks[i] & !bit(x) & !bit(y)) {
            out.push((i, e));
        }
    } else if x == y {
        for &k in &g.peers[i] {
            if k != j && b.has(k, x) && g.sees(k, j) {
                out.push((k, x));
            }
        }
    } else if g.sees(i, j) {
        if b.has(i, y) {
            out.push((i, y));
        }
        if b.has(j, x) {
            out.push((j, x));
        }
    }
    out
}

/// What a continuous loop removes: for every weak link, what sees both its ends.
fn loop_eliminations(b: &Board, gr: &Graph, nodes: &[u32]) -> Vec<(usize, u8)> {
    let mut out = Vec::new();
    let k = nodes.len();
    // Weak links are (1,2), (3,4), ..., (k-1, 0).
    for w in (1..k).step_by(2) {
        let (a, c) = (nodes[w], nodes[(w + 1) % k]);
        let (i, x, j, y) = (gr.cell(a), gr.digit(a), gr.cell(c), gr.digit(c));
        if i == j {
            for e in digits(b.masks[i] & !bit(x) & !bit(y)) {
                out.push((i, e));
            }
        } else if x == y {
            for q in b.geo.seen_by_all(&[i, j]) {
                if b.has(q, x) && !nodes.contains(&((q * gr.n + x as usize - 1) as u32)) {
                    out.push((q, x));
                }
            }
        }
    }
    crate::sort::all(&mut out);
    out.dedup();
    out
}

/// The chain's family: (name, base rating).
fn family(gr: &Graph, c: &Chain) -> (&'static str, f64) {
    let k = c.nodes.len();
    let one_digit = c.nodes.iter().all(|&v| gr.digit(v) == gr.digit(c.nodes[0]));
    // Strong links (0,1), (2,3)...: all inside cells, all between cells?
    let strong_in_cell: Vec<bool> = (0..k)
        .step_by(2)
        .map(|a| gr.cell(c.nodes[a]) == gr.cell(c.nodes[a + 1]))
        .collect();
    let weak_in_cell = (1..k.saturating_sub(1))
        .step_by(2)
        .any(|a| gr.cell(c.nodes[a]) == gr.cell(c.nodes[a + 1]));
    let xy = strong_in_cell.iter().all(|&x| x) && !weak_in_cell;
    if c.looped {
        let b = if one_digit || xy {
            base::X_CYCLE
        } else {
            base::AIC
        };
        return ("continuous nice loop", b);
    }
    if !c.placements.is_empty() {
        let b = if one_digit { base::X_CHAIN } else { base::AIC };
        return ("discontinuous nice loop", b);
    }
    if one_digit {
        ("X-Chain", base::X_CHAIN)
    } else if xy && gr.digit(c.nodes[0]) == gr.digit(c.nodes[k - 1]) {
        ("XY-Chain", base::AIC)
    } else {
        ("AIC", base::AIC)
    }
}

fn rating_of(gr: &Graph, c: &Chain) -> f64 {
    family(gr, c).1 + length_bonus(c.nodes.len())
}

/// Eureka notation: `(4)r1c2=r1c8-r3c7=(4-7)r3c1`.
fn eureka(b: &Board, gr: &Graph, nodes: &[u32], looped: bool) -> String {
    let mut out = String::new();
    let mut k = 0;
    let mut last_digit = 0;
    while k < nodes.len() {
        if k > 0 {
            out.push(if k % 2 == 1 { '=' } else { '-' });
        }
        let v = nodes[k];
        let (i, d) = (gr.cell(v), gr.digit(v));
        if k + 1 < nodes.len() && gr.cell(nodes[k + 1]) == i {
            let link = if k % 2 == 0 { '=' } else { '-' };
            let e = gr.digit(nodes[k + 1]);
            out.push_str(&format!("({d}{link}{e}){}", b.geo.cell_name(i)));
            last_digit = e;
            k += 2;
            continue;
        }
        if d != last_digit || k + 1 == nodes.len() {
            out.push_str(&format!("({d})"));
        }
        out.push_str(&b.geo.cell_name(i));
        last_digit = d;
        k += 1;
    }
    if looped {
        let v = nodes[0];
        out.push_str(&format!(
            "-({}){}",
            gr.digit(v),
            b.geo.cell_name(gr.cell(v))
        ));
    }
    out
}

fn to_step(b: &Board, gr: &Graph, c: &Chain) -> Step {
    let (name, base_rating) = family(gr, c);
    let rating = base_rating + length_bonus(c.nodes.len());
    let chain = eureka(b, gr, &c.nodes, c.looped);
    let what = if c.placements.is_empty() {
        b.elim_text(&c.eliminations)
    } else {
        let (i, d) = c.placements[0];
        format!("places {}={d}", b.geo.cell_name(i))
    };
    let on = match name {
        "X-Chain" => format!(" on {}", gr.digit(c.nodes[0])),
        _ => String::new(),
    };
    let text = format!("{name}{on}: {chain} {what}");
    let pattern = c
        .nodes
        .iter()
        .map(|&v| b.cv(gr.cell(v), gr.digit(v)))
        .collect();
    let mut step = b.step(name, rating, pattern, &c.placements, &c.eliminations, text);
    step.links = chain_links(b, gr, &c.nodes, c.looped);
    step
}

/// The links of a chain (strong from the first node to the second, then alternating), and for
/// a loop the weak link from the last node back to the first.
fn chain_links(b: &Board, gr: &Graph, nodes: &[u32], looped: bool) -> Vec<Link> {
    let cv = |v: u32| b.cv(gr.cell(v), gr.digit(v));
    let mut links: Vec<Link> = nodes
        .windows(2)
        .enumerate()
        .map(|(k, w)| Link {
            from: cv(w[0]),
            to: cv(w[1]),
            strong: k % 2 == 0,
        })
        .collect();
    if looped {
        if let (Some(&last), Some(&first)) = (nodes.last(), nodes.first()) {
            links.push(Link {
                from: cv(last),
                to: cv(first),
                strong: false,
            });
        }
    }
    links
}

/// Placements and eliminations, the key that tells deductions apart.
type Deduction = (Vec<(usize, u8)>, Vec<(usize, u8)>);

/// What to look for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Want {
    /// Chains proving "A or B".
    pub chains: bool,
    /// Continuous loops.
    pub loops: bool,
    /// Placements from a candidate's chain back to itself.
    pub placements: bool,
}

/// Searches `modes` for chains: every distinct deduction with its lowest-rated chain (all
/// mode), or the lowest-rated deduction of all (first mode).
fn search(b: &Board, f: &mut Found, modes: &[Mode], want: Want, max_nodes: usize) {
    let gr = Graph::new(b);
    let size = gr.size;
    let mut se = Search::new(size);
    let mut every: HashMap<Deduction, (f64, Chain)> = HashMap::new();
    let mut best: Option<(f64, Chain)> = None;
    let better = |r: f64, c: &Chain, old: &(f64, Chain)| {
        r < old.0
            || (r == old.0
                && (c.nodes.len(), std::cmp::Reverse(c.eliminations.len()))
                    < (
                        old.1.nodes.len(),
                        std::cmp::Reverse(old.1.eliminations.len()),
                    ))
    };
    for &mode in modes {
        let mode_base = match mode {
            Mode::Any => base::AIC,
            _ => base::X_CYCLE,
        };
        for s in 0..size as u32 {
            if gr.strong(s).is_empty() {
                continue;
            }
            if let Mode::X(d) = mode {
                if gr.digit(s) != d {
                    continue;
                }
            }
            // The longest chain that could still beat the best so far.
            let mut cap = max_nodes;
            if let Some((br, _)) = &best {
                while cap > 2 && mode_base + length_bonus(cap) > *br {
                    cap -= 1;
                }
                if mode_base > *br {
                    break;
                }
            }
            se.run(&gr, mode, s, cap);
            let reached: Vec<u32> = se
                .reached_states()
                .iter()
                .copied()
                .filter(|st| st % 2 == 1)
                .collect();
            for st in reached {
                let t = st / 2;
                let len = se.len(st);
                if len < 4 || (mode == Mode::XY && gr.digit(t) != gr.digit(s)) {
                    continue;
                }
                if let Some((br, _)) = &best {
                    if mode_base + length_bonus(len) > *br {
                        // Breadth-first: every later state is at least as long.
                        break;
                    }
                }
                let chain = if t == s {
                    // s off ⇒ ... ⇒ s on: s is true.
                    if !want.placements {
                        continue;
                    }
                    Chain {
                        nodes: se.path(st),
                        looped: false,
                        placements: vec![(gr.cell(s), gr.digit(s))],
                        eliminations: vec![],
                    }
                } else if want.loops
                    && gr
                        .weak(t)
                        .iter()
                        .any(|&(w, in_cell)| w == s && gr.allowed(mode, t, s, in_cell, false))
                {
                    let nodes = se.path(st);
                    let el = loop_eliminations(b, &gr, &nodes);
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
                    if !want.chains {
                        continue;
                    }
                    let mut el = either_eliminations(b, &gr, s, t);
                    if el.is_empty() {
                        continue;
                    }
                    crate::sort::all(&mut el);
                    Chain {
                        nodes: se.path(st),
                        looped: false,
                        placements: vec![],
                        eliminations: el,
                    }
                };
                if !distinct(&chain.nodes, t == s) {
                    continue;
                }
                let r = rating_of(&gr, &chain);
                if f.all {
                    let key = (chain.placements.clone(), chain.eliminations.clone());
                    match every.get(&key) {
                        Some(old) if !better(r, &chain, old) => {}
                        _ => {
                            every.insert(key, (r, chain));
                        }
                    }
                } else if best.as_ref().is_none_or(|old| better(r, &chain, old)) {
                    best = Some((r, chain));
                }
            }
        }
    }
    let mut found: Vec<(f64, Chain)> = every.into_values().chain(best).collect();
    crate::sort::by(&mut found, |a, b| {
        a.0.total_cmp(&b.0)
            .then(a.1.nodes.len().cmp(&b.1.nodes.len()))
            .then(b.1.eliminations.len().cmp(&a.1.eliminations.len()))
            .then(a.1.nodes.cmp(&b.1.nodes))
    });
    for (_, c) in found {
        if f.push(to_step(b, &gr, &c)) {
            return;
        }
    }
}

/// The longest chain the engine looks for (in candidates).
pub const MAX_NODES: usize = 24;

fn x_modes(b: &Board) -> Vec<Mode> {
    (1..=b.n() as u8).map(Mode::X).collect()
}

const CHAINS: Want = Want {
    chains: true,
    loops: false,
    placements: false,
};

pub fn x_chain(b: &Board, f: &mut Found) {
    search(b, f, &x_modes(b), CHAINS, MAX_NODES)
}

pub fn xy_chain(b: &Board, f: &mut Found) {
    search(b, f, &[Mode::XY], CHAINS, MAX_NODES)
}

pub fn aic(b: &Board, f: &mut Found) {
    search(b, f, &[Mode::Any], CHAINS, MAX_NODES)
}

fn all_modes(b: &Board) -> Vec<Mode> {
    let mut modes = x_modes(b);
    modes.extend([Mode::XY, Mode::Any]);
    modes
}

pub fn continuous_loop(b: &Board, f: &mut Found) {
    let want = Want {
        chains: false,
        loops: true,
        placements: false,
    };
    search(b, f, &all_modes(b), want, MAX_NODES)
}

pub fn discontinuous_loop(b: &Board, f: &mut Found) {
    let want = Want {
        chains: true,
        loops: false,
        placements: true,
    };
    search(b, f, &all_modes(b), want, MAX_NODES)
}

/// The engine's chain step: the lowest-rated chain, loop or placement of every family, found
/// in one search per mode.
pub fn any_chain(b: &Board, f: &mut Found) {
    let want = Want {
        chains: true,
        loops: true,
        placements: true,
    };
    search(b, f, &all_modes(b), want, MAX_NODES)
}

/// Remote pair: bivalue cells with the same two values, linked cell to cell, alternate the two
/// values; a cell that sees two of them an odd number (three or more) of links apart holds
/// neither.
pub fn remote_pair(b: &Board, f: &mut Found) {
    let g = &b.geo;
    let mut done: Vec<usize> = Vec::new();
    for start in b.open() {
        let m = b.masks[start];
        if m.count_ones() != 2 || done.contains(&start) {
            continue;
        }
        // The component of same-pair cells, coloured by parity.
        let mut comp: Vec<(usize, usize, usize)> = vec![(start, 0, usize::MAX)];
        let mut k = 0;
        while k < comp.len() {
            let (c, col, _) = comp[k];
            for &j in &g.peers[c] {
                if b.values[j] == 0 && b.masks[j] == m && !comp.iter().any(|x| x.0 == j) {
                    comp.push((j, 1 - col, k));
                }
            }
            k += 1;
        }
        done.extend(comp.iter().map(|x| x.0));
        if comp.len() < 4 {
            continue;
        }
        let cells: Vec<usize> = comp.iter().map(|x| x.0).collect();
        let mut elims = Vec::new();
        for q in b.open() {
            if cells.contains(&q) || b.masks[q] & m == 0 {
                continue;
            }
            // Two cells of opposite colours it sees, too far apart to be a naked pair.
            let seen = |c: usize| {
                comp.iter()
                    .filter(move |x| x.1 == c && g.sees(q, x.0))
                    .map(|x| x.0)
            };
            if seen(0).any(|a| seen(1).any(|z| !g.sees(a, z))) {
                elims.extend(b.present(&[q], m));
            }
        }
        let longest = comp.len();
        if elims.is_empty() {
            continue;
        }
        let colour = |c: usize| {
            let v: Vec<usize> = comp.iter().filter(|x| x.1 == c).map(|x| x.0).collect();
            g.cell_list(&v)
        };
        let text = format!(
            "remote pair {}: the cells {} and {} alternate the two values, so a cell seeing both kinds {}",
            digit_list(m, "/"),
            colour(0),
            colour(1),
            b.elim_text(&elims)
        );
        let rating = base::AIC + length_bonus(2 * longest);
        if f.push(b.step(
            "remote pair",
            rating,
            b.cands_cv(&cells, m),
            &[],
            &elims,
            text,
        )) {
            return;
        }
    }
}
