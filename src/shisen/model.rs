//! The Shisen-sho CNF model without gravity (see `models/shisen.md` for the clause families
//! and their counts).
//!
//! Removing tiles only ever empties cells, so no time steps are needed: a plan is a pairing of
//! matching tiles plus an order in which every pair has a route whose tiles are gone before
//! it. The answer variables are the pairs (`r1c1+r1c4`: these two go together; exactly one
//! partner per tile): two models are one solution when they pair the same tiles.
//!
//! How the order is found depends on [`Order`]. [`Order::Blocked`] (the default) keeps only
//! the pairing in the CNF: a line that is open stays open as more tiles go, so a pairing can
//! be cleared exactly when playing its playable pairs greedily clears it
//! ([`routes::closure`]); when that gets stuck, the pairs left contain a set that block each
//! other, and a clause forbids that set ([`blocking_cuts`]). Pairs of pairs that block each
//! other are forbidden up front. [`Order::Cycles`] and [`Order::Ranks`] put the order in the
//! CNF: a route choice per pair (`r1c1+r1c4 route 2`) and a precedence per tile a route
//! crosses (`r2c2<r1c1`: the tile in r2c2 leaves before the pair of r1c1), kept acyclic by
//! cutting the cycles a model shows ([`cycle_cuts`]) or by a binary rank per tile, equal
//! within a pair and smaller before (every model a plan: what `dimacs` writes).

use super::gravity::GravityMap;
use super::pair::{join, Grid};
use super::routes::{self, Routes};
use super::{Move, Order, Plan, Shisen};
use crate::cnf::{encode, Assignment, Clause, Formula, Lit};
use crate::puzzle::{Given, GivenMode, Model};
use crate::solver::Stop;
use std::collections::HashMap;

/// One route of a candidate pair: its choice literal (`None` when it is the pair's only
/// route, which the pair literal then stands for) and the tiles it waits for, each with its
/// precedence literal.
#[derive(Clone, Debug)]
pub struct RouteVar {
    pub lit: Option<Lit>,
    pub waits: Vec<(usize, Lit)>,
}

/// A candidate pair: its tiles (indices into [`ShisenMap::tiles`]), its literal, its routes.
#[derive(Clone, Debug)]
pub struct PairVar {
    pub a: usize,
    pub b: usize,
    pub p: Lit,
    pub routes: Vec<RouteVar>,
}

/// Which variable is which pair, route and precedence.
#[derive(Clone, Debug)]
pub struct ShisenMap {
    /// Each tile's cell (row-major), in the order tiles are numbered.
    pub tiles: Vec<usize>,
    /// The candidate pairs, in the order of [`Routes::pairs`] (same tiles, same index).
    pub pairs: Vec<PairVar>,
    /// The candidate pairs of each tile (indices into `pairs`).
    pub of_tile: Vec<Vec<usize>>,
    /// The routes of the candidate pairs (for greedy play and blocking sets).
    pub routes: Routes,
    /// How the order is kept (which lazy clauses [`refine`] adds).
    pub order: Order,
    /// Pairs that blocking sets keep when they can (set by a caller that assumes them, such
    /// as the [`super::play::Oracle`]: a clause over assumed pairs and few others is strong).
    pub prefer: std::cell::RefCell<Vec<usize>>,
    /// The step-indexed part of a gravity model ([`super::gravity`]).
    pub gravity: Option<GravityMap>,
    /// The positions and moves of a position-graph model ([`super::graph`]).
    pub graph: Option<super::graph::GraphMap>,
    /// The kinds model ([`build_kinds`]): each kind's literal (the kind is on the board) and
    /// its tiles (cells); empty for the other models.
    pub kinds: Vec<(Lit, Vec<usize>)>,
}

impl ShisenMap {
    /// The pair literals of the pairing of a model.
    pub fn pairing(&self, a: &Assignment) -> Vec<usize> {
        (0..self.pairs.len())
            .filter(|&i| a.lit(self.pairs[i].p))
            .collect()
    }
}

/// The number of bits of a rank for `pairs` moves (ranks 0 to pairs-1, at least one bit).
pub fn rank_bits(pairs: usize) -> usize {
    let top = pairs.saturating_sub(1);
    ((usize::BITS - top.leading_zeros()) as usize).max(1)
}

/// The most memory the route model of a board may take by [`route_bytes`]'s estimate;
/// larger boards are refused unless the quick search clears them.
pub const MAX_BYTES: usize = 400 << 20;

/// An upper bound of the memory the routes of `p` take with the play search's bit sets
/// (every line of the sweep of every candidate pair a route of its own, one bit per tile):
/// 10 MB for a 30x16 KShisen deal, 4 GB for a 100x100 board of four tiles per kind.
pub fn route_bytes(p: &Shisen) -> usize {
    let mut per_class: HashMap<usize, usize> = HashMap::new();
    for k in p.classes().into_iter().flatten() {
        *per_class.entry(k).or_default() += 1;
    }
    let pairs: usize = per_class.values().map(|&n| n * (n - 1) / 2).sum();
    let lines = p.width + p.height + 4;
    let words = p.cells.iter().flatten().count().div_ceil(64);
    pairs.saturating_mul(lines).saturating_mul(words * 8 + 16)
}

/// Builds the model. In [`GivenMode::Assume`] each tile is a given (`r1c1=A`: this tile is
/// cleared); a tile not given may stay on the board, in the way of the others.
pub fn build(p: &Shisen, mode: GivenMode, names: bool, order: Order) -> Model<ShisenMap> {
    let r = routes::build(p);
    let mut f = Formula::with_names(names);
    let cell = |t: usize| p.cell_name(r.tiles[t]);
    let assume = mode == GivenMode::Assume;

    let mut givens = Vec::new();
    let given: Vec<Option<Lit>> = r
        .tiles
        .iter()
        .map(|&c| {
            assume.then(|| {
                let label = p.tile_label(c);
                let v = f.named_var(|| format!("cleared {label}")).pos();
                givens.push(Given { label, lit: v });
                v
            })
        })
        .collect();

    // Pairs.
    let mut of_tile: Vec<Vec<usize>> = vec![Vec::new(); r.tiles.len()];
    let mut pairs: Vec<PairVar> = Vec::with_capacity(r.pairs.len());
    for (i, c) in r.pairs.iter().enumerate() {
        let v = f.named_var(|| format!("{}+{}", cell(c.a), cell(c.b)));
        of_tile[c.a].push(i);
        of_tile[c.b].push(i);
        pairs.push(PairVar {
            a: c.a,
            b: c.b,
            p: v.pos(),
            routes: Vec::new(),
        });
    }

    // Each tile has one partner (Assume: at most one, and one when it is given).
    let partners: Vec<Vec<Lit>> = (0..r.tiles.len())
        .map(|t| of_tile[t].iter().map(|&i| pairs[i].p).collect())
        .collect();
    for t in 0..r.tiles.len() {
        let ls = &partners[t];
        match given[t] {
            None => encode::exactly_one(&mut f, ls),
            Some(g) => {
                encode::at_most_one(&mut f, ls);
                let mut cl = vec![!g];
                cl.extend(ls);
                f.add_clause(&cl);
            }
        }
    }

    if order == Order::Blocked {
        // Pairs that block each other never all go: within every two classes that touch.
        let classes = routes::classes(p, &r);
        for set in routes::group_blocks(&r, &classes, 2) {
            let cl: Vec<Lit> = set.iter().map(|&i| !pairs[i].p).collect();
            f.add_clause(&cl);
        }
        // A plan's first move is a pair free at the start (Fold: every tile goes; an empty
        // board's plan has no move, and the clause would be the empty one).
        if !assume && !r.tiles.is_empty() {
            let first: Vec<Lit> = (0..r.pairs.len())
                .filter(|&i| r.pairs[i].free())
                .map(|i| pairs[i].p)
                .collect();
            f.add_clause(&first);
        }
        return model_of(f, givens, assume, pairs, of_tile, r, order);
    }

    // Routes and precedences: q(t, x) says tile t leaves before tile x; a pair's routes use
    // its first tile as x.
    let mut prec: HashMap<(usize, usize), Lit> = HashMap::new();
    for (i, c) in r.pairs.iter().enumerate() {
        if c.free() {
            continue;
        }
        let x = c.a;
        let single = c.routes.len() == 1;
        let mut choice = vec![!pairs[i].p];
        for (k, set) in c.routes.iter().enumerate() {
            let lit = if single {
                None
            } else {
                let v = f.named_var(|| format!("{}+{} route {}", cell(c.a), cell(c.b), k + 1));
                choice.push(v.pos());
                Some(v.pos())
            };
            let mut waits = Vec::with_capacity(set.len());
            for &t in set {
                let q = *prec.entry((t, x)).or_insert_with(|| {
                    let q = f.named_var(|| format!("{}<{}", cell(t), cell(x))).pos();
                    // A tile that goes first must go at all (Assume: it may stay).
                    if given[t].is_some() {
                        let mut cl = vec![!q];
                        cl.extend(&partners[t]);
                        f.add_clause(&cl);
                    }
                    q
                });
                f.add_clause(&[!lit.unwrap_or(pairs[i].p), q]);
                waits.push((t, q));
            }
            pairs[i].routes.push(RouteVar { lit, waits });
        }
        if !single {
            f.add_clause(&choice);
        }
    }

    // Two tiles never each go before the other.
    let mut keys: Vec<(usize, usize)> = prec.keys().copied().collect();
    crate::sort::all(&mut keys);
    for &(t, x) in &keys {
        if t < x {
            if let Some(&back) = prec.get(&(x, t)) {
                f.add_clause(&[!prec[&(t, x)], !back]);
            }
        }
    }

    if order == Order::Ranks {
        let bits = rank_bits(r.tiles.len() / 2);
        let rank: Vec<Vec<Lit>> = (0..r.tiles.len())
            .map(|t| {
                (0..bits)
                    .map(|b| f.named_var(|| format!("rank {} bit {b}", cell(t))).pos())
                    .collect()
            })
            .collect();
        for pv in &pairs {
            encode::equal_if(&mut f, pv.p, &rank[pv.a], &rank[pv.b]);
        }
        for &(t, x) in &keys {
            encode::less_than_if(&mut f, prec[&(t, x)], &rank[t], &rank[x]);
        }
    }

    model_of(f, givens, assume, pairs, of_tile, r, order)
}

/// The model [`build`] made from its parts (the answer: the pair variables).
fn model_of(
    formula: Formula,
    givens: Vec<Given>,
    assume: bool,
    pairs: Vec<PairVar>,
    of_tile: Vec<Vec<usize>>,
    routes: Routes,
    order: Order,
) -> Model<ShisenMap> {
    Model {
        formula,
        answer: pairs.iter().map(|pv| pv.p.var()).collect(),
        one_hot: !assume,
        givens,
        normal: Vec::new(),
        map: ShisenMap {
            tiles: routes.tiles.clone(),
            pairs,
            of_tile,
            routes,
            order,
            prefer: Default::default(),
            gravity: None,
            graph: None,
            kinds: Vec::new(),
        },
    }
}

/// The lazy clauses a model violates under the map's [`Order`] (none for ranks and gravity).
pub fn refine(p: &Shisen, map: &ShisenMap, a: &Assignment) -> Vec<Clause> {
    if map.gravity.is_some() || map.graph.is_some() {
        return Vec::new();
    }
    if !map.kinds.is_empty() {
        return kind_cuts(p, map, a);
    }
    match map.order {
        Order::Blocked => blocking_cuts(map, a),
        Order::Cycles => cycle_cuts(map, a),
        Order::Ranks => Vec::new(),
    }
}

/// [`Order::Blocked`]: plays the model's pairing greedily; when pairs are left stuck, one
/// clause: not all of a blocking set of them, unless a tile that stays on the board in the way
/// (a tile of no pair, possible only when tiles are givens) gets a partner.
pub fn blocking_cuts(map: &ShisenMap, a: &Assignment) -> Vec<Clause> {
    let pairing = map.pairing(a);
    let (_, stuck) = routes::closure(&map.routes, &pairing);
    if stuck.is_empty() {
        return Vec::new();
    }
    let mut stay = vec![true; map.tiles.len()];
    for &i in &pairing {
        stay[map.pairs[i].a] = false;
        stay[map.pairs[i].b] = false;
    }
    let prefer = map.prefer.borrow();
    let (set, staying) = routes::blocking_set(&map.routes, &stuck, &stay, &prefer);
    let mut clause: Clause = set.iter().map(|&i| !map.pairs[i].p).collect();
    for t in staying {
        clause.extend(map.of_tile[t].iter().map(|&i| map.pairs[i].p));
    }
    vec![clause]
}

/// The pairs of a model with, for each, the tiles its chosen route waits for (with their
/// precedence literals): the first route whose literal is true.
fn chosen(map: &ShisenMap, a: &Assignment) -> Vec<(usize, Vec<(usize, Lit)>)> {
    map.pairing(a)
        .into_iter()
        .map(|i| {
            let pv = &map.pairs[i];
            let waits = pv
                .routes
                .iter()
                .find(|rv| rv.lit.is_none_or(|l| a.lit(l)))
                .map(|rv| rv.waits.clone())
                .unwrap_or_default();
            (i, waits)
        })
        .collect()
}

/// The "waits for" graph of a model's pairs ([`Order::Cycles`]): for each chosen pair (by position in `pairs`),
/// the pairs it waits for, with the tile and literal behind each edge.
struct WaitGraph {
    pairs: Vec<usize>,
    /// `into[v]`: (u, tile of u, q literal): v waits for u.
    into: Vec<Vec<(usize, usize, Lit)>>,
}

fn wait_graph(map: &ShisenMap, a: &Assignment) -> WaitGraph {
    let ch = chosen(map, a);
    let mut pair_of_tile = vec![usize::MAX; map.tiles.len()];
    for (k, &(i, _)) in ch.iter().enumerate() {
        pair_of_tile[map.pairs[i].a] = k;
        pair_of_tile[map.pairs[i].b] = k;
    }
    let into = ch
        .iter()
        .map(|(_, waits)| {
            waits
                .iter()
                .filter(|&&(t, _)| pair_of_tile[t] != usize::MAX)
                .map(|&(t, q)| (pair_of_tile[t], t, q))
                .collect()
        })
        .collect();
    WaitGraph {
        pairs: ch.into_iter().map(|(i, _)| i).collect(),
        into,
    }
}

/// [`Order::Cycles`]: for each strongly connected group of pairs that wait for each other in a
/// model, a clause that cuts a shortest cycle through it: not all of its precedences, or not
/// all of its pairs (a pair enters the clause when the cycle reaches it at one tile and
/// leaves from the other). Empty when the model's order is acyclic.
pub fn cycle_cuts(map: &ShisenMap, a: &Assignment) -> Vec<Clause> {
    let g = wait_graph(map, a);
    let n = g.pairs.len();
    // out-edges: u -> v when v waits for u.
    let mut out: Vec<Vec<(usize, usize, Lit)>> = vec![Vec::new(); n];
    for (v, ins) in g.into.iter().enumerate() {
        for &(u, t, q) in ins {
            out[u].push((v, t, q));
        }
    }
    let comp = strongly_connected(&out);
    let mut done = vec![false; n];
    let mut cuts = Vec::new();
    for s in 0..n {
        let c = comp[s];
        if done[c] || !out[s].iter().any(|&(v, _, _)| comp[v] == c) {
            continue;
        }
        done[c] = true;
        // Shortest cycle through s inside its component (breadth first).
        let mut prev: Vec<Option<(usize, usize, Lit)>> = vec![None; n];
        let mut queue = std::collections::VecDeque::from([s]);
        let mut seen = vec![false; n];
        seen[s] = true;
        let mut closing = None;
        'bfs: while let Some(u) = queue.pop_front() {
            for &(v, t, q) in &out[u] {
                if comp[v] != c {
                    continue;
                }
                if v == s {
                    closing = Some((u, t, q));
                    break 'bfs;
                }
                if !seen[v] {
                    seen[v] = true;
                    prev[v] = Some((u, t, q));
                    queue.push_back(v);
                }
            }
        }
        let Some(last) = closing else { continue };
        // Edges of the cycle, each (from pair, tile of from, q, to pair).
        let mut edges = vec![(last.0, last.1, last.2, s)];
        let mut v = last.0;
        while v != s {
            let (u, t, q) = prev[v].expect("on the BFS tree");
            edges.push((u, t, q, v));
            v = u;
        }
        let mut clause: Clause = Vec::new();
        for &(from, t, q, _) in &edges {
            clause.push(!q);
            // The edge into `from` names its first tile; the edge out names tile t.
            let pv = &map.pairs[g.pairs[from]];
            if t != pv.a {
                clause.push(!pv.p);
            }
        }
        crate::sort::all(&mut clause);
        clause.dedup();
        cuts.push(clause);
    }
    cuts
}

/// Tarjan's strongly connected components: a component number per node.
fn strongly_connected(out: &[Vec<(usize, usize, Lit)>]) -> Vec<usize> {
    let n = out.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut comp = vec![usize::MAX; n];
    let mut next = 0;
    let mut ncomp = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // Iterative DFS: (node, next edge).
        let mut work = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (u, ref mut e)) = work.last_mut() {
            if *e < out[u].len() {
                let v = out[u][*e].0;
                *e += 1;
                if index[v] == usize::MAX {
                    index[v] = next;
                    low[v] = next;
                    next += 1;
                    stack.push(v);
                    on_stack[v] = true;
                    work.push((v, 0));
                } else if on_stack[v] {
                    low[u] = low[u].min(index[v]);
                }
            } else {
                work.pop();
                if let Some(&(p, _)) = work.last() {
                    low[p] = low[p].min(low[u]);
                }
                if low[u] == index[u] {
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp[w] = ncomp;
                        if w == u {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
    }
    comp
}

/// The plan of a model: its pairing played greedily ([`routes::closure`]: among the pairs free
/// to go, the one whose first tile comes first row by row), each move drawn with the pair
/// test's line at its turn. Pairs left stuck (never, for a model the lazy clauses accept) come
/// last, for the rule checker to refuse.
pub fn decode(p: &Shisen, map: &ShisenMap, a: &Assignment) -> Plan {
    let (mut order, stuck) = routes::closure(&map.routes, &map.pairing(a));
    order.extend(stuck);
    let cells: Vec<(usize, usize)> = order
        .iter()
        .map(|&i| (map.tiles[map.pairs[i].a], map.tiles[map.pairs[i].b]))
        .collect();
    plan_of(p, &cells)
}

/// Positions the searches of [`near`] may visit.
pub const SEARCH_BUDGET: usize = 200_000;

/// Positions the search of [`kind_cuts`] may visit on each set of kinds the solver tries
/// (each try of the minimisation is one): a set it cannot decide within them is taken as
/// clearable, so the kinds named still conflict but may be more than the fewest. With 200,000
/// the "these kinds conflict" line of a dead 18x8 deal took up to 9 G instructions, nine tenths
/// of the whole answer (BENCHMARKS.md, "Shisen-sho, round 4").
pub const KIND_BUDGET: usize = 10_000;

/// Positions the search of [`play_into`] may visit to decide the board, and then each of its
/// lemmas (about 3.5 s of CPU at most on an 18x8 deal; `--timeout` stops it sooner). SAT alone, after the search gives up, decided none of the 18x8
/// deals the search could not (BENCHMARKS.md, "Shisen-sho"), while four of the ten deals
/// undecided at 200,000 positions are decided within a million.
pub const DECIDE_BUDGET: usize = 1_000_000;

/// What play finds ([`super::play::Search::decide`], up to [`DECIDE_BUDGET`] positions) enters
/// the [`Order::Blocked`] model. A plan
/// gives the normal form: its pair literals, under which the formula keeps a solution whenever
/// it has any (a played plan is one), which is all the engine asks of a normal form: it looks
/// for the first solution under them and drops them to look for a second. A board that play
/// proves stuck gives lemmas: for each pair free at the start, the position after it is
/// stuck too (it is reachable from the stuck start), so no plan has that pair (it could go
/// first): the clause `¬p`; with the clause that a plan's first move is a pair free at the
/// start, the solver refutes the board.
pub fn play_into(p: &Shisen, m: &mut Model<ShisenMap>, stop: Option<&Stop>) {
    use super::play::{Found, Search};
    let r = &m.map.routes;
    let mut c = routes::Counters::new(r);
    let mut search = Search::new(p, r, 0, 0).until(stop.cloned());
    let n = r.tiles.len();
    match search.decide(&mut c, n, DECIDE_BUDGET) {
        Found::Plan(plan) => m.normal = plan.iter().map(|&i| m.map.pairs[i].p).collect(),
        Found::Dead => {
            // The position after a free pair is reachable from the dead start, so it is dead
            // too (a plan from it would be one from the start): no plan contains that pair.
            for i in 0..r.pairs.len() {
                if r.pairs[i].free() {
                    m.formula.add_clause(&[!m.map.pairs[i].p]);
                }
            }
        }
        Found::Unknown => {}
    }
}

/// The name of match class `k` as a given of the kinds models: its face, or `seasons` and
/// `flowers` under `--chinese`.
fn kind_label(p: &Shisen, k: usize) -> String {
    if k >= p.faces.len() {
        if k == p.faces.len() {
            "seasons"
        } else {
            "flowers"
        }
        .to_string()
    } else {
        p.faces[k].clone()
    }
}

/// Turns the per-tile givens of a model built in [`GivenMode::Assume`] (`r1c1=A`: this tile
/// is cleared) into one given per kind (`A`: every tile of the kind is cleared), the givens
/// [`build_kinds`] has, so a `--proof` of "these kinds conflict" is about this CNF. The claim
/// it proves is implied by the kinds model's: a plan of the whole board that clears the kinds
/// named would, without its other moves, clear their board alone (lines only get emptier).
pub fn kind_givens(p: &Shisen, m: &mut Model<ShisenMap>) {
    let classes = p.classes();
    let mut kinds: Vec<(usize, Given)> = Vec::new();
    let tiles = std::mem::take(&mut m.givens);
    for (t, g) in tiles.iter().enumerate() {
        let k = classes[m.map.tiles[t]].expect("a tile");
        let lit = match kinds.iter().find(|(c, _)| *c == k) {
            Some((_, kg)) => kg.lit,
            None => {
                let label = kind_label(p, k);
                let lit = m.formula.named_var(|| format!("kind {label}")).pos();
                kinds.push((k, Given { label, lit }));
                lit
            }
        };
        m.formula.add_clause(&[!lit, g.lit]);
    }
    m.givens = kinds.into_iter().map(|(_, g)| g).collect();
}

/// The model `conflicts` asks (`GivenMode::Assume`): one given per kind (`A`: the kind's tiles
/// are on the board; a kind left out is as if its cells were empty), nothing else in the CNF.
/// The lazy clauses ([`kind_cuts`]) say which sets of kinds can not be cleared on their own. A
/// board of fewer kinds is never harder (its plan is any plan of the whole board without the
/// other kinds' moves), so a set of kinds that can not be cleared makes every larger set
/// fail too, and "not all of these kinds" is a clause every clearable sub-board keeps.
pub fn build_kinds(p: &Shisen, names: bool) -> Model<ShisenMap> {
    let r = routes::build(p);
    let mut f = Formula::with_names(names);
    let classes = p.classes();
    let mut keys: Vec<usize> = Vec::new();
    let mut kinds: Vec<(Lit, Vec<usize>)> = Vec::new();
    let mut givens = Vec::new();
    for (c, &class) in classes.iter().enumerate() {
        let Some(k) = class else { continue };
        match keys.iter().position(|&x| x == k) {
            Some(i) => kinds[i].1.push(c),
            None => {
                let label = kind_label(p, k);
                let v = f.named_var(|| format!("kind {label}")).pos();
                givens.push(Given { label, lit: v });
                keys.push(k);
                kinds.push((v, vec![c]));
            }
        }
    }
    Model {
        formula: f,
        answer: kinds.iter().map(|(l, _)| l.var()).collect(),
        one_hot: false,
        givens,
        normal: Vec::new(),
        map: ShisenMap {
            tiles: r.tiles.clone(),
            pairs: Vec::new(),
            of_tile: Vec::new(),
            routes: r,
            order: Order::Blocked,
            prefer: Default::default(),
            gravity: None,
            graph: None,
            kinds,
        },
    }
}

/// The lazy clause of the kinds model: when the kinds a model keeps can not be cleared on
/// their own (play proves their board stuck), not all of them. A board play can not decide
/// within its budget is taken as clearable, so a conflict it names stays a conflict, but may
/// not be the smallest.
pub fn kind_cuts(p: &Shisen, map: &ShisenMap, a: &Assignment) -> Vec<Clause> {
    let mut sub = p.clone();
    sub.cells = vec![None; p.cells_len()];
    let mut kept = Vec::new();
    for (l, cells) in &map.kinds {
        if a.lit(*l) {
            kept.push(!*l);
            for &c in cells {
                sub.cells[c] = p.cells[c];
            }
        }
    }
    let r = routes::build(&sub);
    if super::play::search(&sub, &r, KIND_BUDGET, 0) != super::play::Found::Dead {
        return Vec::new();
    }
    // Locked at the start: the kinds of the sealed tiles alone are locked too (the sealed
    // set stays closed on their board: each line of a pair touching it still crosses one of
    // its tiles), so the clause need only name them.
    let classes = routes::classes(&sub, &r);
    let sealed = super::locks::sealed_tiles(&r, &classes, &routes::Counters::new(&r));
    if !sealed.is_empty() {
        let cells: Vec<usize> = sealed.iter().map(|&t| r.tiles[t]).collect();
        kept = map
            .kinds
            .iter()
            .filter(|(l, cs)| a.lit(*l) && cs.iter().any(|c| cells.contains(c)))
            .map(|(l, _)| !*l)
            .collect();
    }
    vec![kept]
}

/// Where a second solution is when `first` is the only one in the normal form (the played
/// pairing): the pairing of another plan, if play finds one, as unit clauses. Tried first: each
/// class of four paired the two other ways, the rest as in `first` (played greedily); then the
/// search with other seeds. When neither finds one, nothing is added and the solver searches
/// alone.
pub fn near(p: &Shisen, map: &ShisenMap, first: &Assignment, f: &mut Formula) {
    let pairing = map.pairing(first);
    let r = &map.routes;
    let mut partner = vec![usize::MAX; map.tiles.len()];
    for &i in &pairing {
        partner[map.pairs[i].a] = i;
        partner[map.pairs[i].b] = i;
    }
    let index: HashMap<(usize, usize), usize> = map
        .pairs
        .iter()
        .enumerate()
        .map(|(i, pv)| ((pv.a, pv.b), i))
        .collect();
    let pair = |x: usize, y: usize| index.get(&(x.min(y), x.max(y))).copied();
    let mut found: Option<Vec<usize>> = None;
    'classes: for &i in &pairing {
        let (a, b) = (map.pairs[i].a, map.pairs[i].b);
        for &j in &pairing {
            let (c, d) = (map.pairs[j].a, map.pairs[j].b);
            if j <= i || !p.matches(map.tiles[a], map.tiles[c]) {
                continue;
            }
            for (x, y) in [((a, c), (b, d)), ((a, d), (b, c))] {
                let (Some(k), Some(l)) = (pair(x.0, x.1), pair(y.0, y.1)) else {
                    continue;
                };
                let other: Vec<usize> = pairing
                    .iter()
                    .copied()
                    .filter(|&m| m != i && m != j)
                    .chain([k, l])
                    .collect();
                if routes::closure(r, &other).1.is_empty() {
                    found = Some(other);
                    break 'classes;
                }
            }
        }
    }
    if found.is_none() {
        let mut mine = pairing.clone();
        crate::sort::all(&mut mine);
        for seed in 1..=4 {
            if let super::play::Found::Plan(mut plan) =
                super::play::search(p, r, SEARCH_BUDGET / 10, seed)
            {
                crate::sort::all(&mut plan);
                if plan != mine {
                    found = Some(plan);
                    break;
                }
            }
        }
    }
    for i in found.unwrap_or_default() {
        f.add_clause(&[map.pairs[i].p]);
    }
}

/// A plan from pairs of cells in order (no gravity): each move gets the pair test's line at
/// its turn (an empty line where there is none, which the rule checker refuses).
pub fn plan_of(p: &Shisen, pairs: &[(usize, usize)]) -> Plan {
    let w = p.width;
    let mut occupied: Vec<bool> = p.cells.iter().map(|c| c.is_some()).collect();
    let mut moves = Vec::with_capacity(pairs.len());
    for &(x, y) in pairs {
        let grid = Grid {
            width: w,
            height: p.height,
            outline: p.rules.outline,
            occupied: &occupied,
        };
        let at = |c: usize| (c / w, c % w);
        let path = join(&grid, at(x), at(y)).unwrap_or_default();
        occupied[x] = false;
        occupied[y] = false;
        moves.push(Move {
            tiles: [x, y],
            cells: [at(x), at(y)],
            path,
        });
    }
    Plan { moves }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{self, Puzzle, Solutions};
    use crate::shisen::format::{parse, ReadOptions};
    use crate::solver::SolverChoice;

    fn board(text: &str, order: Order) -> Shisen {
        let opts = ReadOptions {
            order,
            ..Default::default()
        };
        parse("t", text, &opts).unwrap().remove(0)
    }

    #[test]
    fn rank_bits_cover_every_move() {
        assert_eq!(rank_bits(1), 1);
        assert_eq!(rank_bits(2), 1);
        assert_eq!(rank_bits(3), 2);
        assert_eq!(rank_bits(72), 7);
        assert_eq!(rank_bits(240), 8);
    }

    #[test]
    fn a_crossed_square_cannot_be_cleared_either_way() {
        for order in [Order::Blocked, Order::Cycles, Order::Ranks] {
            let p = board("A B\nB A\n", order);
            assert!(puzzle::solve(&p, &SolverChoice::Embedded)
                .unwrap()
                .is_none());
            let c = puzzle::conflicts(&p, &SolverChoice::Embedded)
                .unwrap()
                .unwrap();
            if order == Order::Blocked {
                // Either kind alone is easy: the conflict is both kinds.
                assert_eq!(c, vec!["A", "B"]);
            } else {
                // One tile alone can not be cleared: the B's stay in its way.
                assert_eq!(c.len(), 1, "{c:?}");
            }
        }
    }

    #[test]
    fn waiting_pairs_are_ordered() {
        // The A's can only meet once the B's between them are gone (no ring).
        for order in [Order::Blocked, Order::Cycles, Order::Ranks] {
            let p = board("# shisen: no-outline\nA B B A\n", order);
            let s = puzzle::solve(&p, &SolverChoice::Embedded).unwrap().unwrap();
            let rows = p.rows(&s);
            assert!(rows[0][0] > rows[0][1], "A after B: {rows:?}");
            assert!(matches!(
                puzzle::verdict(&p, &SolverChoice::Embedded).unwrap(),
                Solutions::Unique(_)
            ));
        }
    }
}
