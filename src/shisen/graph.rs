//! The position-graph model with gravity (`models/shisen.md`, "Gravity"): a model that grows
//! with the moves actually possible. With gravity the columns stay packed in order, so a
//! position is the set of tiles left; [`explore`] visits every position reachable from the
//! start (each once, by the quick search's move walk) and records, for each, the moves
//! playable there and the position each leads to. The CNF then says "a path of moves from the
//! start to the empty board":
//!
//! - `on X` (position X is on the path): the start is on; an on position other than the empty
//!   board takes exactly one of its moves (`go X->Y`); a move taken puts its source and its
//!   target on; a position other than the start that is on was entered by exactly one move.
//! - The answer, as in the other models, is the pairing: `r1c1+r1c4` is true exactly when
//!   some move taken removes those two tiles.
//!
//! Positions only lose tiles, so the on positions form one path from the start, which ends at
//! the empty board (the only on position allowed no move): every model is a plan, and a board
//! that cannot be cleared is a formula the solver refutes (by unit propagation, from the
//! positions with no move up). Its size is the number of positions and moves reachable, not
//! the number of column states: a deal whose tiles mostly match early has few; a dead board
//! whose reachable positions exceed [`BUDGET`] is not modelled ([`explore`] answers `None`).

use super::model::{PairVar, ShisenMap};
use super::quick::{Board, WordHasher};
use super::routes::Routes;
use super::{Plan, Shisen};
use crate::cnf::{encode, Assignment, Formula, Lit};
use crate::puzzle::Model;
use crate::solver::Stop;
use std::collections::HashMap;

/// Positions [`explore`] may record: with the model built on them (about
/// [`BYTES_PER_POSITION`] each, moves and clauses included) this keeps a gravity board's
/// model within a few hundred megabytes.
pub const BUDGET: usize = 100_000;

/// Memory per position of the graph and its model, measured on 18x8 deals (an estimate for
/// messages).
pub const BYTES_PER_POSITION: usize = 3_000;

/// The positions reachable from the start and the moves between them.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// Per position (0 is the start): its moves, each the two tiles (by starting cell) and the
    /// position it leads to.
    pub moves: Vec<Vec<(u32, u32, u32)>>,
    /// The empty board, if it is reachable.
    pub goal: Option<u32>,
}

/// Which variable is which position and move.
#[derive(Clone, Debug)]
pub struct GraphMap {
    /// Per position: its `on` literal.
    pub on: Vec<Lit>,
    /// Per position: its moves, each with its `go` literal, its tiles and its target.
    pub moves: Vec<Vec<(Lit, u32, u32, u32)>>,
}

/// Visits every position reachable from the start of `p` (with gravity or without; without
/// gravity no move is made at once, so the graph is the game's own). `None` when there are
/// more than `budget` positions or `stop` is raised first.
pub fn explore(p: &Shisen, budget: usize, stop: Option<&Stop>) -> Option<Graph> {
    let mut board = Board::new(p);
    let mut index: HashMap<Box<[u64]>, u32, std::hash::BuildHasherDefault<WordHasher>> =
        HashMap::default();
    let mut g = Graph::default();
    index.insert(board.key().into(), 0);
    g.moves.push(Vec::new());
    if board.left() == 0 {
        // An empty board is its own goal: the path of no moves.
        g.goal = Some(0);
    }
    // Depth-first, with an explicit stack of (position, its moves to try, next move, the grid
    // before them).
    struct Frame {
        at: u32,
        moves: Vec<(usize, usize)>,
        next: usize,
        grid: Vec<u32>,
    }
    let first = Frame {
        at: 0,
        moves: board.all_moves(),
        next: 0,
        grid: board.grid().to_vec(),
    };
    let mut stack = vec![first];
    let mut visited = 0usize;
    while let Some(top) = stack.last_mut() {
        if top.next == top.moves.len() {
            stack.pop();
            continue;
        }
        let (s, t) = top.moves[top.next];
        top.next += 1;
        let at = top.at;
        board.restore(&top.grid);
        let (a, b) = board.remove_at(s, t);
        let key = board.key();
        let (child, new) = match index.get(key) {
            Some(&i) => (i, false),
            None => {
                let i = g.moves.len() as u32;
                index.insert(key.into(), i);
                g.moves.push(Vec::new());
                (i, true)
            }
        };
        g.moves[at as usize].push((a, b, child));
        if board.left() == 0 {
            g.goal = Some(child);
            continue;
        }
        if new {
            visited += 1;
            if visited >= budget {
                return None;
            }
            if visited.is_multiple_of(1024) && stop.is_some_and(Stop::is_raised) {
                return None;
            }
            let moves = board.all_moves();
            let grid = board.grid().to_vec();
            stack.push(Frame {
                at: child,
                moves,
                next: 0,
                grid,
            });
        }
    }
    Some(g)
}

/// The model of a complete graph ([`explore`]): see the module's comment. The answer is the
/// pairing (one variable per pair of tiles some move removes).
pub fn model(p: &Shisen, g: &Graph, names: bool) -> Model<ShisenMap> {
    let mut f = Formula::with_names(names);
    let tiles = p.tiles();
    let mut index = vec![None; p.cells_len()];
    for (i, &c) in tiles.iter().enumerate() {
        index[c] = Some(i);
    }
    let n = g.moves.len();
    let on: Vec<Lit> = (0..n)
        .map(|x| f.named_var(|| format!("position {x}")).pos())
        .collect();
    // The pairs some move removes, in order of first use.
    let mut pair_of: HashMap<(u32, u32), usize> = HashMap::new();
    let mut pairs: Vec<PairVar> = Vec::new();
    let mut of_tile: Vec<Vec<usize>> = vec![Vec::new(); tiles.len()];
    let mut moves: Vec<Vec<(Lit, u32, u32, u32)>> = Vec::with_capacity(n);
    let mut into: Vec<Vec<Lit>> = vec![Vec::new(); n];
    let mut by_pair: Vec<Vec<Lit>> = Vec::new();
    for (x, ms) in g.moves.iter().enumerate() {
        let mut out = Vec::with_capacity(ms.len());
        for &(a, b, y) in ms {
            let (a, b) = (a.min(b), a.max(b));
            let go = f
                .named_var(|| {
                    format!(
                        "position {x} {}+{} to {y}",
                        p.cell_name(a as usize),
                        p.cell_name(b as usize)
                    )
                })
                .pos();
            f.add_clause(&[!go, on[x]]);
            f.add_clause(&[!go, on[y as usize]]);
            into[y as usize].push(go);
            let k = *pair_of.entry((a, b)).or_insert_with(|| {
                let (ta, tb) = (
                    index[a as usize].expect("a tile"),
                    index[b as usize].expect("a tile"),
                );
                let v = f
                    .named_var(|| {
                        format!("{}+{}", p.cell_name(a as usize), p.cell_name(b as usize))
                    })
                    .pos();
                of_tile[ta].push(pairs.len());
                of_tile[tb].push(pairs.len());
                pairs.push(PairVar {
                    a: ta,
                    b: tb,
                    p: v,
                    routes: Vec::new(),
                });
                by_pair.push(Vec::new());
                pairs.len() - 1
            });
            by_pair[k].push(go);
            out.push((go, a, b, y));
        }
        moves.push(out);
    }
    f.add_clause(&[on[0]]);
    for x in 0..n {
        if Some(x as u32) != g.goal {
            let mut cl = vec![!on[x]];
            cl.extend(moves[x].iter().map(|m| m.0));
            f.add_clause(&cl);
            let gos: Vec<Lit> = moves[x].iter().map(|m| m.0).collect();
            encode::at_most_one(&mut f, &gos);
        }
        if x != 0 {
            let mut cl = vec![!on[x]];
            cl.extend(&into[x]);
            f.add_clause(&cl);
            encode::at_most_one(&mut f, &into[x]);
        }
    }
    for (k, gos) in by_pair.iter().enumerate() {
        encode::or(&mut f, pairs[k].p, gos);
    }
    Model {
        formula: f,
        answer: pairs.iter().map(|pv| pv.p.var()).collect(),
        one_hot: true,
        givens: Vec::new(),
        normal: Vec::new(),
        map: ShisenMap {
            routes: Routes {
                tiles: tiles.clone(),
                index,
                pairs: Vec::new(),
            },
            tiles,
            pairs,
            of_tile,
            order: super::Order::Ranks,
            prefer: Default::default(),
            gravity: None,
            graph: Some(GraphMap { on, moves }),
            kinds: Vec::new(),
        },
    }
}

/// The plan of a model of [`model`]: the moves taken, from the start on.
pub fn decode(p: &Shisen, m: &GraphMap, a: &Assignment) -> Plan {
    let mut pairs = Vec::new();
    let mut x = 0usize;
    let mut guard = 0;
    while let Some(&(_, s, t, y)) = m.moves[x].iter().find(|mv| a.lit(mv.0)) {
        pairs.push((s as usize, t as usize));
        x = y as usize;
        guard += 1;
        if guard > m.moves.len() {
            break;
        }
    }
    super::quick::replay(p, &pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::rng;
    use crate::puzzle::{self, Puzzle, Solutions};
    use crate::shisen::play::clearable_by_brute_force;
    use crate::shisen::Rules;
    use crate::solver::{Outcome, Session, SolverChoice};
    use rand::seq::SliceRandom;

    fn random(w: usize, h: usize, kinds: usize, per: usize, outline: bool, seed: u64) -> Shisen {
        let mut cells: Vec<Option<usize>> = (0..kinds)
            .flat_map(|k| std::iter::repeat_n(Some(k), per))
            .collect();
        cells.resize(w * h, None);
        cells.shuffle(&mut rng(seed));
        for c in 0..w {
            crate::shisen::rules::fall(&mut cells, w, c);
        }
        Shisen {
            width: w,
            height: h,
            cells,
            faces: (0..kinds)
                .map(|k| ((b'A' + k as u8) as char).to_string())
                .collect(),
            rules: Rules {
                outline,
                gravity: true,
                chinese: false,
            },
            order: Default::default(),
        }
    }

    #[test]
    fn the_graph_model_is_satisfiable_exactly_when_the_board_clears() {
        // Small gravity boards, a good share of them dead: the solver's verdict on the graph
        // model is the brute force's, and every model decodes to a plan the rule checker
        // passes.
        let mut seen = [0usize; 2];
        for trial in 0..160u64 {
            let (w, h, kinds, per) =
                [(4, 3, 3, 4), (4, 4, 4, 4), (6, 3, 9, 2), (4, 4, 8, 2)][trial as usize % 4];
            let p = random(w, h, kinds, per, trial % 4 == 0, trial);
            let want = clearable_by_brute_force(&p);
            let g = explore(&p, BUDGET, None).expect("a small graph");
            assert_eq!(g.goal.is_some(), want, "trial {trial}");
            let m = model(&p, &g, false);
            let mut s = Session::new(
                SolverChoice::Embedded.backend(),
                &m.formula,
                m.answer.clone(),
                m.one_hot,
            );
            match s.solve(&[]).unwrap() {
                Outcome::Sat(a) => {
                    assert!(want, "trial {trial}: a plan on a dead board");
                    let plan = p.decode(&m, &a);
                    assert_eq!(p.check(&plan), Ok(()), "trial {trial}");
                }
                Outcome::Unsat(_) => assert!(!want, "trial {trial}: refuted a clearable board"),
            }
            seen[usize::from(want)] += 1;
        }
        assert!(seen[0] >= 8 && seen[1] >= 40, "{seen:?}");
    }

    #[test]
    fn the_pairing_is_the_answer_with_gravity_too() {
        // One kind of four in a column of four: with gravity the pairings (1,2)(3,4) and
        // (1,4)(2,3)... the verdict counts pairings, not orders.
        let p = crate::shisen::format::parse(
            "t",
            "# shisen: gravity no-outline\nA\nA\nA\nA\n",
            &Default::default(),
        )
        .unwrap()
        .remove(0);
        let g = explore(&p, BUDGET, None).unwrap();
        let m = model(&p, &g, false);
        let sols = Session::new(
            SolverChoice::Embedded.backend(),
            &m.formula,
            m.answer.clone(),
            m.one_hot,
        )
        .into_solutions(10, &[])
        .unwrap();
        // Neighbours in a column: the top two, then the bottom two; or the middle two first.
        assert_eq!(sols.len(), 2);
        assert!(matches!(
            puzzle::verdict(&p, &SolverChoice::Embedded).unwrap(),
            Solutions::Multiple(..)
        ));
    }
}
