//! A quick heuristic routing of a Numberlink board, used only as a hint for the SAT solver:
//! the value each variable of the model is first tried at ([`crate::solver::Backend::prefer`]).
//!
//! Under nikoli rules the model is weak on open boards with long parallel lines (ADC2015 Q07,
//! Q09): a CDCL solver left to itself finds no solution in minutes, while a circuit router's
//! *negotiated congestion* (every line takes its cheapest route; cells wanted by several lines
//! grow dearer, round after round, until the lines share none) draws such boards at once. The
//! routes are then rewritten into the nikoli normal form (`models/numberlink.md`) by the same
//! steps the normal form's argument uses, so that the routing is a model of the first solve
//! and the solver confirms it without a conflict.
//!
//! Nothing here decides anything: a hint changes only where the solver looks first, never a
//! verdict, and every solution still comes from SAT and passes the rule checker. A routing
//! that fails (lines still sharing cells after the last round) gives no hint at all.

use super::model::{CellLabel, NumberlinkMap};
use super::{Links, Numberlink, DOWN, LEFT, RIGHT, SIDES};
use crate::cnf::{Formula, Lit};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Rounds of negotiated congestion before the router gives up.
pub const ROUNDS: usize = 300;
/// Passes of [`complete`] over the clauses.
pub const PASSES: usize = 16;
/// The price of sharing a cell starts at this factor of its cost per other line on it...
const PRESENT: f64 = 0.5;
/// ... grows by this factor each round ...
const GROWTH: f64 = 1.3;
/// ... up to this factor: sharing stays possible, so lines keep negotiating.
const PRESENT_MAX: f64 = 10.0;
/// What each round that a cell is shared adds to its cost for good (per extra line on it).
const HISTORY: f64 = 5.0;
/// The seed of the order in which the lines are routed each round.
const SEED: u64 = 1;

/// Each path's cells from its first end to its second, routed by negotiated congestion over at
/// most `rounds` rounds (every line takes its cheapest route, in a shuffled order each round;
/// a cell several lines want costs more, for now and, after each round it stays shared, for
/// good): the routing of the first round in which no cell is shared. `None` when no round
/// separates the lines, or some path has no route even through other paths (the other ends
/// wall it off): a routing with shared cells is a wrong guess, and as a hint it misled CaDiCaL
/// (ADC2015 Q06, BENCHMARKS.md). Deterministic: the shuffles come from a fixed seed.
pub fn route(p: &Numberlink, rounds: usize) -> Option<Vec<Vec<usize>>> {
    let r = negotiate(p, rounds, SEED, &Schedule::DEFAULT);
    (r.shared == 0).then_some(r.routes)
}

/// What one run of the router did.
pub struct Negotiation {
    /// Each path's cells from its first end to its second (empty when some path has no route).
    pub routes: Vec<Vec<usize>>,
    /// The rounds run.
    pub rounds: usize,
    /// Cells on more than one route after the last round (0: the lines are separated), or
    /// `usize::MAX` when some path has no route at all.
    pub shared: usize,
}

/// The router's prices (see [`negotiate`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// The price of sharing a cell at the first round, per other line on it ...
    pub present: f64,
    /// ... its growth factor each round ...
    pub growth: f64,
    /// ... and its cap.
    pub present_max: f64,
    /// What each round a cell stays shared adds to its cost for good, per extra line on it.
    pub history: f64,
    /// After the first round, reroute only the lines that are on a shared cell.
    pub only_shared: bool,
}

impl Schedule {
    /// The settings [`route`] uses.
    pub const DEFAULT: Schedule = Schedule {
        present: PRESENT,
        growth: GROWTH,
        present_max: PRESENT_MAX,
        history: HISTORY,
        only_shared: false,
    };
}

/// Negotiated congestion with the order of the lines shuffled from `seed` and the prices of
/// `s`, over at most `rounds` rounds: [`route`] is this with [`SEED`] and
/// [`Schedule::DEFAULT`]. Kept apart so that how robust the router is (how many seeds
/// separate a board's lines) can be measured (`examples/route_seeds.rs`).
pub fn negotiate(p: &Numberlink, rounds: usize, seed: u64, s: &Schedule) -> Negotiation {
    use rand::seq::SliceRandom;
    let n = p.cells();
    let ep = p.endpoint_map();
    let mut history = vec![0.0f64; n];
    let mut occupied = vec![0u32; n];
    let mut routes: Vec<Vec<usize>> = vec![Vec::new(); p.ends.len()];
    let mut present = s.present;
    let mut rng = crate::generate::rng(seed);
    let mut order: Vec<usize> = (0..p.ends.len()).collect();
    let rounds = rounds.max(1);
    for round in 0..rounds {
        order.shuffle(&mut rng);
        for &k in &order {
            if s.only_shared && round > 0 && routes[k].iter().all(|&c| occupied[c] <= 1) {
                continue;
            }
            for &c in &routes[k] {
                occupied[c] -= 1;
            }
            let cost = |c: usize| (1.0 + history[c]) * (1.0 + present * occupied[c] as f64);
            let Some(r) = cheapest(p, &ep, k, cost) else {
                return Negotiation {
                    routes: Vec::new(),
                    rounds: round + 1,
                    shared: usize::MAX,
                };
            };
            routes[k] = r;
            for &c in &routes[k] {
                occupied[c] += 1;
            }
        }
        let shared = occupied.iter().filter(|&&o| o > 1).count();
        if shared == 0 || round + 1 == rounds {
            return Negotiation {
                routes,
                rounds: round + 1,
                shared,
            };
        }
        for c in 0..n {
            if occupied[c] > 1 {
                history[c] += s.history * (occupied[c] - 1) as f64;
            }
        }
        present = (present * s.growth).min(s.present_max);
    }
    unreachable!("the last round returns")
}

/// The cheapest route of path `k` (Dijkstra over cell costs) through cells that are not
/// another path's end.
fn cheapest(
    p: &Numberlink,
    ep: &[Option<usize>],
    k: usize,
    cost: impl Fn(usize) -> f64,
) -> Option<Vec<usize>> {
    let (a, b) = p.ends[k];
    let n = p.cells();
    let mut dist = vec![f64::INFINITY; n];
    let mut from = vec![usize::MAX; n];
    let mut heap = BinaryHeap::new();
    dist[a] = 0.0;
    // Non-negative floats order like their bit patterns.
    heap.push(Reverse((0.0f64.to_bits(), a)));
    while let Some(Reverse((d, c))) = heap.pop() {
        let d = f64::from_bits(d);
        if d > dist[c] {
            continue;
        }
        if c == b {
            break;
        }
        for side in SIDES {
            let Some(m) = p.neighbour(c, side) else {
                continue;
            };
            if m != b && ep[m].is_some() {
                continue;
            }
            let step = if m == b { 0.0 } else { cost(m) };
            if d + step < dist[m] {
                dist[m] = d + step;
                from[m] = c;
                heap.push(Reverse(((d + step).to_bits(), m)));
            }
        }
    }
    if dist[b].is_infinite() {
        return None;
    }
    let mut path = vec![b];
    let mut c = b;
    while c != a {
        c = from[c];
        path.push(c);
    }
    path.reverse();
    Some(path)
}

/// Rewrites routes that share no cell into the nikoli normal form, by the steps of its
/// argument (`models/numberlink.md`): a route that touches itself is cut short there; a route
/// with an empty cell beside two of its cells more than two steps apart goes through that
/// cell; a `┏` (`┓`) whose down-right (down-left) cell is empty moves into it. Each step keeps
/// the routes disjoint and raises (−length, Σ(row+col), Σrow), so the rewriting ends; the
/// number of steps is capped all the same (a hint needs no proof).
pub fn normalise(p: &Numberlink, routes: &mut [Vec<usize>]) {
    let n = p.cells();
    let w = p.width;
    let mut owner = vec![usize::MAX; n];
    for (k, r) in routes.iter().enumerate() {
        for &c in r {
            if owner[c] != usize::MAX {
                return; // routes that share cells: nothing to normalise
            }
            owner[c] = k;
        }
    }

    let mut pos = vec![0usize; n];
    let mut steps = 0;
    let cap = 4 * n * n.max(1);
    let mut changed = true;
    while changed && steps < cap {
        changed = false;
        for (k, route) in routes.iter_mut().enumerate() {
            while steps < cap && step(p, w, &mut owner, &mut pos, k, route) {
                steps += 1;
                changed = true;
            }
        }
    }
}

/// One rewriting step on route `k` (see [`normalise`]); false when none applies.
fn step(
    p: &Numberlink,
    w: usize,
    owner: &mut [usize],
    pos: &mut [usize],
    k: usize,
    route: &mut Vec<usize>,
) -> bool {
    for (i, &c) in route.iter().enumerate() {
        pos[c] = i;
    }
    let on = |owner: &[usize], c: usize| owner[c] == k;
    for i in 0..route.len() {
        let c = route[i];
        for side in SIDES {
            let Some(m) = p.neighbour(c, side) else {
                continue;
            };
            // Touches itself: cut the loop out.
            if on(owner, m) && pos[m] > i + 1 {
                let j = pos[m];
                for &x in &route[i + 1..j] {
                    owner[x] = usize::MAX;
                }
                route.drain(i + 1..j);
                return true;
            }
            // An empty cell beside two cells far apart on the route: go through it.
            if owner[m] == usize::MAX {
                for s2 in SIDES {
                    let Some(x) = p.neighbour(m, s2) else {
                        continue;
                    };
                    if on(owner, x) && pos[x] > i + 2 {
                        let j = pos[x];
                        for &y in &route[i + 1..j] {
                            owner[y] = usize::MAX;
                        }
                        route.splice(i + 1..j, [m]);
                        owner[m] = k;
                        return true;
                    }
                }
            }
        }
    }
    // A `┏` or `┓` with an empty cell on its lower diagonal: move the corner there.
    for i in 1..route.len().saturating_sub(1) {
        let c = route[i];
        let arms = arm(p, c, route[i - 1]) | arm(p, c, route[i + 1]);
        let d = match arms {
            a if a == RIGHT | DOWN => c + w + 1,
            a if a == LEFT | DOWN => c + w - 1,
            _ => continue,
        };
        if owner[d] == usize::MAX && !is_end(p, d) {
            owner[c] = usize::MAX;
            owner[d] = k;
            route[i] = d;
            return true;
        }
    }
    false
}

fn is_end(p: &Numberlink, c: usize) -> bool {
    p.ends.iter().any(|&(a, b)| a == c || b == c)
}

/// The side of `c` that `m` (a neighbour) is on.
fn arm(p: &Numberlink, c: usize, m: usize) -> u8 {
    SIDES
        .into_iter()
        .find(|&s| p.neighbour(c, s) == Some(m))
        .expect("consecutive cells of a route are neighbours")
}

/// The board the routes draw: each cell's arms and path (a cell on several routes, in a
/// routing that failed, takes the first).
pub fn links(p: &Numberlink, routes: &[Vec<usize>]) -> Links {
    let n = p.cells();
    let mut arms = vec![0u8; n];
    let mut path = vec![0u32; n];
    for (k, r) in routes.iter().enumerate() {
        for (i, &c) in r.iter().enumerate() {
            if path[c] != 0 {
                continue;
            }
            path[c] = k as u32 + 1;
            if i > 0 {
                arms[c] |= arm(p, c, r[i - 1]);
            }
            if i + 1 < r.len() {
                arms[c] |= arm(p, c, r[i + 1]);
            }
        }
    }
    Links { arms, path }
}

/// The preferred value of every link, piece and label variable of a model for these routes
/// ([`links`]): a cell on a route has its route's links, piece and path; a cell on none is
/// empty.
pub fn hint(p: &Numberlink, map: &NumberlinkMap, routes: &[Vec<usize>]) -> Vec<Lit> {
    let Links { arms, path } = links(p, routes);
    let mut lits = Vec::new();
    for c in 0..p.cells() {
        for &(a, l) in &map.pieces[c] {
            lits.push(if a == arms[c] { l } else { !l });
        }
        if let CellLabel::Var(x) = &map.labels[c] {
            for &(v, l) in x.values() {
                lits.push(if v as u32 == path[c] { l } else { !l });
            }
        }
        for side in [RIGHT, DOWN] {
            if let Some(e) = map.link(p, c, side) {
                lits.push(e.lit(arms[c] & side != 0));
            }
        }
    }
    lits
}

/// Extends preferred literals to the formula's other variables (the ladders' auxiliary
/// variables, the normal form's selector) by unit propagation over its clauses, so that the
/// solver's first decisions on them do not contradict the hint: a clause whose literals are
/// all false but one unset sets that one. Passes go forward and backward over the clauses
/// (a ladder's chain runs either way) until nothing changes, at most `passes` times; a
/// clause the hint falsifies is left alone.
pub fn complete(f: &Formula, lits: &[Lit], passes: usize) -> Vec<Lit> {
    let mut value: Vec<i8> = vec![0; f.num_vars()];
    for &l in lits {
        value[l.var().index()] = if l.is_positive() { 1 } else { -1 };
    }
    let of = |value: &[i8], l: Lit| {
        let v = value[l.var().index()];
        if l.is_positive() {
            v
        } else {
            -v
        }
    };
    let clauses: Vec<&[Lit]> = f.clauses().collect();
    let mut added = Vec::new();
    for pass in 0..passes {
        let mut changed = false;
        let mut visit = |c: &[Lit]| {
            let mut open = None;
            for &l in c {
                match of(&value, l) {
                    1 => return,
                    0 if open.is_some() => return,
                    0 => open = Some(l),
                    _ => {}
                }
            }
            if let Some(l) = open {
                value[l.var().index()] = if l.is_positive() { 1 } else { -1 };
                added.push(l);
                changed = true;
            }
        };
        if pass % 2 == 0 {
            clauses.iter().for_each(|c| visit(c));
        } else {
            clauses.iter().rev().for_each(|c| visit(c));
        }
        if !changed {
            break;
        }
    }
    let mut all = lits.to_vec();
    all.extend(added);
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::rng;
    use crate::numberlink::{format, Rules};
    use crate::puzzle::{GivenMode, Puzzle};
    use crate::solver::{Backend, Lite, Outcome};
    use rand::seq::SliceRandom;

    /// No rewriting step applies (see [`normalise`]): no route touches itself, no empty cell
    /// touches two cells of one route more than two steps apart, no `┏` or `┓` has an empty
    /// cell on its lower diagonal.
    fn in_normal_form(p: &Numberlink, routes: &[Vec<usize>]) -> bool {
        let b = links(p, routes);
        let at = |r: &[usize], c: usize| r.iter().position(|&x| x == c);
        routes.iter().all(|r| {
            r.iter().enumerate().all(|(i, &c)| {
                SIDES.iter().filter_map(|&s| p.neighbour(c, s)).all(|m| {
                    let touch = at(r, m).is_some_and(|j| j > i + 1);
                    let through = b.path[m] == 0
                        && SIDES
                            .iter()
                            .filter_map(|&s| p.neighbour(m, s))
                            .any(|x| at(r, x).is_some_and(|j| j > i + 2));
                    !touch && !through
                })
            })
        }) && (0..p.cells()).all(|c| {
            let d = match b.arms[c] {
                a if a == RIGHT | DOWN => c + p.width + 1,
                a if a == LEFT | DOWN => c + p.width - 1,
                _ => return true,
            };
            b.path[d] != 0
        })
    }

    #[test]
    fn negotiation_is_deterministic_and_route_is_its_default() {
        // The project's nikoli puzzles, under both schedules: the same seed gives the same
        // routes, in at most the rounds allowed; a routing said to be separated shares no
        // cell; `route` is the default schedule's seed 1, and says "no routing" exactly when
        // cells stay shared.
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/puzzles/numberlink/nikoli6.txt"
        ))
        .unwrap();
        let boards = format::parse("nikoli6.txt", &text, format::ReadOptions::default()).unwrap();
        assert!(!boards.is_empty());
        let only = Schedule {
            only_shared: true,
            ..Schedule::DEFAULT
        };
        for p in &boards {
            for s in [Schedule::DEFAULT, only] {
                let a = negotiate(p, ROUNDS, 7, &s);
                let b = negotiate(p, ROUNDS, 7, &s);
                assert_eq!(
                    (&a.routes, a.rounds, a.shared),
                    (&b.routes, b.rounds, b.shared)
                );
                assert!(a.rounds >= 1 && a.rounds <= ROUNDS);
                if a.shared == 0 {
                    let cells: usize = a.routes.iter().map(Vec::len).sum();
                    let b = links(p, &a.routes);
                    assert_eq!(b.path.iter().filter(|&&k| k != 0).count(), cells);
                }
            }
            let d = negotiate(p, ROUNDS, SEED, &Schedule::DEFAULT);
            assert_eq!(route(p, ROUNDS), (d.shared == 0).then_some(d.routes));
        }
    }

    #[test]
    fn a_detour_is_rewritten_into_the_straight_route() {
        // 4x3, one path along the top row that dips into the middle row: the empty r1c2
        // touches r1c1 and r1c3, four steps apart on the route.
        let p = Numberlink {
            rules: Rules::Nikoli,
            ..Numberlink::new(4, 3, vec![(0, 3)])
        };
        let mut routes = vec![vec![0, 4, 5, 6, 2, 3]];
        assert!(!in_normal_form(&p, &routes));
        normalise(&p, &mut routes);
        assert_eq!(routes, vec![vec![0, 1, 2, 3]]);
        // Corners `┏` with an empty cell down-right move there, one diagonal step at a time:
        // 3x3, from r1c3 to r3c1 along the top row and the left column ends along the right
        // column and the bottom row.
        let p = Numberlink {
            rules: Rules::Nikoli,
            ..Numberlink::new(3, 3, vec![(2, 6)])
        };
        let mut routes = vec![vec![2, 1, 0, 3, 6]];
        assert!(!in_normal_form(&p, &routes));
        normalise(&p, &mut routes);
        assert_eq!(routes, vec![vec![2, 5, 8, 7, 6]]);
        assert!(in_normal_form(&p, &routes));
        assert_eq!(Ok(()), p.check(&links(&p, &routes)));
    }

    #[test]
    fn a_routing_that_shares_no_cell_is_the_first_solve_s_answer() {
        // Random boards and the project's nikoli puzzles: when the router separates the
        // lines, the normalised routes are a solution in normal form, and the lite solver
        // given them as preferred values answers the first solve with exactly that board and
        // no conflict.
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/puzzles/numberlink/nikoli6.txt"
        ))
        .unwrap();
        let mut boards: Vec<Numberlink> =
            format::parse("nikoli6.txt", &text, format::ReadOptions::default())
                .unwrap()
                .into_iter()
                .map(|p| Numberlink {
                    rules: Rules::Nikoli,
                    ..p
                })
                .collect();
        let mut r = rng(11);
        for trial in 0..300 {
            let (w, h) = [(4, 4), (5, 4), (6, 5), (7, 7)][trial % 4];
            let mut cells: Vec<usize> = (0..w * h).collect();
            cells.shuffle(&mut r);
            let k = 1 + trial % 5;
            let ends = (0..k).map(|i| (cells[2 * i], cells[2 * i + 1])).collect();
            boards.push(Numberlink {
                rules: Rules::Nikoli,
                ..Numberlink::new(w, h, ends)
            });
        }
        let mut routed = 0;
        for p in &boards {
            let Some(mut routes) = route(p, ROUNDS) else {
                continue;
            };
            let b = links(p, &routes);
            let cells: usize = routes.iter().map(Vec::len).sum();
            assert_eq!(
                b.path.iter().filter(|&&k| k != 0).count(),
                cells,
                "shared cells"
            );
            normalise(p, &mut routes);
            let b = links(p, &routes);
            assert_eq!(p.check(&b), Ok(()), "{:?}", p.ends);
            assert!(in_normal_form(p, &routes), "{:?} {routes:?}", p.ends);
            let model = p.model(GivenMode::Fold, false);
            let mut lite = Lite::new();
            lite.add_formula(&model.formula);
            lite.prefer(&p.preferred(&model));
            let Ok(Outcome::Sat(a)) = lite.solve(&model.normal) else {
                panic!("{:?}: no model in normal form", p.ends);
            };
            assert_eq!(p.decode(&model, &a), b, "{:?}", p.ends);
            assert_eq!(lite.conflicts(), 0, "{:?}", p.ends);
            routed += 1;
        }
        assert!(routed >= 100, "only {routed} boards routed");
    }
}
