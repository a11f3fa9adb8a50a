//! The Shisen-sho CNF model with gravity (see `models/shisen.md`): tiles fall, so where a tile
//! is and which cells are empty depend on what has gone before, and the model has time steps.
//!
//! With `n` tiles there are `n/2` steps. Variables: a tile is still there before step `s`
//! (`r1c1@s`, monotone); pair `i` goes at step `s` (`r1c1+r1c4@s`, one move per step); the
//! pairing (`r1c1+r1c4`, the answer, true when the pair goes at some step). Columns stay packed
//! at the bottom (the file must have them so), so a board is known from which tiles are left:
//! a column's height and a tile's row come from counting tiles still there (totalizers:
//! `cnf::encode::Totalizer`), a cell is empty when its column is lower than it, and since
//! everything above an empty cell is empty too, a line needs only the lowest of its cells in
//! each column empty. For each pair, step, and the rows its two tiles can be in, the routes of
//! the seed's sweep become clauses on those counts.

use super::model::{PairVar, ShisenMap};
use super::pair::{join, sweeps, trace, Grid};
use super::rules::fall;
use super::{Move, Plan, Shisen};
use crate::cnf::encode::{self, Totalizer};
use crate::cnf::{Assignment, Formula, Lit};
use crate::puzzle::{Given, GivenMode, Model};

/// The largest board (in tiles) the step model is built for: it grows with steps x pairs x
/// rows x lines, and a 10x6 board is the largest decided in seconds (BENCHMARKS.md); larger
/// gravity boards use the position-graph model ([`super::graph`]) or are refused.
pub const MAX_TILES: usize = 60;

/// Which variable is which move.
#[derive(Clone, Debug)]
pub struct GravityMap {
    /// `moves[s][i]`: candidate pair `i` (an index into [`ShisenMap::pairs`]) goes at step `s`.
    pub moves: Vec<Vec<Lit>>,
}

/// A route's condition: for each column it crosses, the lowest row of it that must be empty.
type Needs = Vec<(usize, usize)>;

/// True when `a`'s needs are implied by `b`'s (every column `a` needs empty down to a row, `b`
/// needs empty down to that row or lower): `b` is never needed when `a` is there.
fn weaker(a: &Needs, b: &Needs) -> bool {
    a.iter()
        .all(|&(c, r)| b.iter().any(|&(c2, r2)| c2 == c && r2 >= r))
}

/// The minimal route conditions between a tile at `(ra, ca)` and one at `(rb, cb)`, each
/// present, in packed columns: `None` entries are lines that can never be open (through a
/// cell below one of the tiles).
fn route_needs(p: &Shisen, a: (usize, usize), b: (usize, usize)) -> Vec<Needs> {
    let pa = (a.0 as i64, a.1 as i64);
    let pb = (b.0 as i64, b.1 as i64);
    let mut all: Vec<Needs> = Vec::new();
    'line: for corners in sweeps(p.width, p.height, p.rules.outline, pa, pb) {
        let line = trace(&corners);
        if line.len() < 2 {
            continue;
        }
        let mut needs: Needs = Vec::new();
        for &(r, c) in &line[1..line.len() - 1] {
            if (r, c) == pa || (r, c) == pb {
                continue 'line;
            }
            if r < 0 || c < 0 || r >= p.height as i64 || c >= p.width as i64 {
                continue; // the ring
            }
            let (r, c) = (r as usize, c as usize);
            // Below a tile that is there, a packed column is full.
            if (c == a.1 && r > a.0) || (c == b.1 && r > b.0) {
                continue 'line;
            }
            match needs.iter_mut().find(|x| x.0 == c) {
                Some(x) => x.1 = x.1.max(r),
                None => needs.push((c, r)),
            }
        }
        crate::sort::all(&mut needs);
        all.push(needs);
    }
    crate::sort::by_key(&mut all, |n| n.len());
    all.dedup();
    let mut kept: Vec<Needs> = Vec::new();
    for n in all {
        if !kept.iter().any(|k| weaker(k, &n)) {
            kept.push(n);
        }
    }
    kept
}

/// Builds the step model. In [`GivenMode::Assume`] each tile is a given (`r1c1=A`: this tile
/// is cleared by the end), a step may pass without a move, and tiles not given may stay.
pub fn build(p: &Shisen, mode: GivenMode, names: bool) -> Model<ShisenMap> {
    let (w, h) = (p.width, p.height);
    let assume = mode == GivenMode::Assume;
    let mut f = Formula::with_names(names);
    let tiles = p.tiles();
    let n = tiles.len();
    let steps = n / 2;
    let cell = |t: usize| p.cell_name(tiles[t]);

    let mut givens = Vec::new();
    let given: Vec<Option<Lit>> = tiles
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

    // Candidate pairs and the pairing (the answer).
    let mut pairs: Vec<PairVar> = Vec::new();
    let mut of_tile: Vec<Vec<usize>> = vec![Vec::new(); n];
    for a in 0..n {
        for b in a + 1..n {
            if p.matches(tiles[a], tiles[b]) {
                let v = f.named_var(|| format!("{}+{}", cell(a), cell(b)));
                of_tile[a].push(pairs.len());
                of_tile[b].push(pairs.len());
                pairs.push(PairVar {
                    a,
                    b,
                    p: v.pos(),
                    routes: Vec::new(),
                });
            }
        }
    }
    let answer = pairs.iter().map(|pv| pv.p.var()).collect();
    for t in 0..n {
        let ls: Vec<Lit> = of_tile[t].iter().map(|&i| pairs[i].p).collect();
        match given[t] {
            None => encode::exactly_one(&mut f, &ls),
            Some(_) => encode::at_most_one(&mut f, &ls),
        }
    }

    // Presence: x[t][s], tile t is there before step s (s = 0..=steps).
    let x: Vec<Vec<Lit>> = (0..n)
        .map(|t| {
            (0..=steps)
                .map(|s| f.named_var(|| format!("{}@{s}", cell(t))).pos())
                .collect()
        })
        .collect();
    for t in 0..n {
        f.add_clause(&[x[t][0]]);
        match given[t] {
            None => f.add_clause(&[!x[t][steps]]),
            Some(g) => f.add_clause(&[!g, !x[t][steps]]),
        }
        for s in 0..steps {
            f.add_clause(&[!x[t][s + 1], x[t][s]]);
        }
    }

    // Moves: one per step (Assume: at most one); a move takes its two tiles; a tile that
    // leaves leaves by a move; the pairing is the pairs that move.
    let moves: Vec<Vec<Lit>> = (0..steps)
        .map(|s| {
            pairs
                .iter()
                .map(|pv| {
                    f.named_var(|| format!("{}+{}@{s}", cell(pv.a), cell(pv.b)))
                        .pos()
                })
                .collect()
        })
        .collect();
    for s in 0..steps {
        if assume {
            encode::at_most_one(&mut f, &moves[s]);
        } else {
            encode::exactly_one(&mut f, &moves[s]);
        }
        for (i, pv) in pairs.iter().enumerate() {
            let m = moves[s][i];
            for t in [pv.a, pv.b] {
                f.add_clause(&[!m, x[t][s]]);
                f.add_clause(&[!m, !x[t][s + 1]]);
            }
        }
        for t in 0..n {
            let mut cl = vec![!x[t][s], x[t][s + 1]];
            cl.extend(of_tile[t].iter().map(|&i| moves[s][i]));
            f.add_clause(&cl);
        }
    }
    for (i, pv) in pairs.iter().enumerate() {
        let ms: Vec<Lit> = (0..steps).map(|s| moves[s][i]).collect();
        encode::or(&mut f, pv.p, &ms);
    }

    // Columns, bottom first; each tile's column and the tiles below it.
    let mut column: Vec<Vec<usize>> = vec![Vec::new(); w];
    for r in (0..h).rev() {
        for (c, col) in column.iter_mut().enumerate() {
            if let Some(t) = tiles.iter().position(|&x| x == r * w + c) {
                col.push(t);
            }
        }
    }
    let place = |t: usize| {
        let c = tiles[t] % w;
        let k = column[c]
            .iter()
            .position(|&u| u == t)
            .expect("in its column");
        (c, k)
    };

    for s in 0..steps {
        // Heights: occupied(r, c) ⇔ at least h - r tiles left in column c.
        let height: Vec<Totalizer> = column
            .iter()
            .map(|ts| {
                let ls: Vec<Lit> = ts.iter().map(|&t| x[t][s]).collect();
                Totalizer::new(&mut f, &ls, h)
            })
            .collect();
        let empty = |r: usize, c: usize| -> Option<Lit> {
            // None: always empty (the column never reaches that high).
            height[c].at_least(h - r).map(|l| !l)
        };
        // Tiles below each tile that are still there.
        let below: Vec<Totalizer> = (0..n)
            .map(|t| {
                let (c, k) = place(t);
                let ls: Vec<Lit> = column[c][..k].iter().map(|&u| x[u][s]).collect();
                Totalizer::new(&mut f, &ls, k.max(1))
            })
            .collect();
        // Tile t is in row r: exactly h-1-r tiles below it are left.
        let at_row = |t: usize, r: usize| -> Vec<Lit> {
            let k = h - 1 - r;
            let mut ls = Vec::new();
            if let Some(l) = below[t].at_least(k) {
                ls.push(l);
            }
            if let Some(l) = below[t].at_least(k + 1) {
                ls.push(!l);
            }
            ls
        };
        for (i, pv) in pairs.iter().enumerate() {
            let m = moves[s][i];
            let (ca, ka) = place(pv.a);
            let (cb, kb) = place(pv.b);
            let mut ways = vec![!m];
            // A tile k from the bottom is in row h-1-k or lower (it only falls).
            for ra in (h - 1 - ka)..h {
                for rb in (h - 1 - kb)..h {
                    if (ra, ca) == (rb, cb) {
                        continue;
                    }
                    let routes: Vec<Vec<Lit>> = route_needs(p, (ra, ca), (rb, cb))
                        .into_iter()
                        .map(|needs| needs.iter().filter_map(|&(c, r)| empty(r, c)).collect())
                        .collect();
                    if routes.is_empty() {
                        continue;
                    }
                    let z = f
                        .named_var(|| {
                            format!(
                                "{}+{}@{s} at r{}/r{}",
                                cell(pv.a),
                                cell(pv.b),
                                ra + 1,
                                rb + 1
                            )
                        })
                        .pos();
                    ways.push(z);
                    for l in at_row(pv.a, ra).into_iter().chain(at_row(pv.b, rb)) {
                        f.add_clause(&[!z, l]);
                    }
                    if routes.iter().any(|r| r.is_empty()) {
                        continue;
                    }
                    if routes.len() == 1 {
                        for &l in &routes[0] {
                            f.add_clause(&[!z, l]);
                        }
                        continue;
                    }
                    let mut choice = vec![!z];
                    for route in &routes {
                        let v = f.new_var().pos();
                        choice.push(v);
                        for &l in route {
                            f.add_clause(&[!v, l]);
                        }
                    }
                    f.add_clause(&choice);
                }
            }
            f.add_clause(&ways);
        }
    }

    Model {
        formula: f,
        answer,
        one_hot: !assume,
        givens,
        normal: Vec::new(),
        map: ShisenMap {
            routes: super::routes::build(p),
            tiles,
            pairs,
            of_tile,
            order: super::Order::Ranks,
            prefer: Default::default(),
            kinds: Vec::new(),
            gravity: Some(GravityMap { moves }),
            graph: None,
        },
    }
}

/// The plan of a model: step by step, the pair that goes, where its tiles are then, and the
/// pair test's line between them.
pub fn decode(p: &Shisen, map: &ShisenMap, g: &GravityMap, a: &Assignment) -> Plan {
    let w = p.width;
    let mut at: Vec<Option<usize>> = (0..p.cells_len()).map(|c| p.cells[c].map(|_| c)).collect();
    let mut moves = Vec::new();
    for step in &g.moves {
        let Some(i) = step.iter().position(|&l| a.lit(l)) else {
            continue;
        };
        let pv = &map.pairs[i];
        let (x, y) = (map.tiles[pv.a], map.tiles[pv.b]);
        let find = |t: usize, at: &[Option<usize>]| {
            let c = at.iter().position(|&u| u == Some(t)).unwrap_or(t);
            (c / w, c % w)
        };
        let (px, py) = (find(x, &at), find(y, &at));
        let occupied: Vec<bool> = at.iter().map(|t| t.is_some()).collect();
        let grid = Grid {
            width: w,
            height: p.height,
            outline: p.rules.outline,
            occupied: &occupied,
        };
        let path = join(&grid, px, py).unwrap_or_default();
        at[px.0 * w + px.1] = None;
        at[py.0 * w + py.1] = None;
        fall(&mut at, w, px.1);
        fall(&mut at, w, py.1);
        moves.push(Move {
            tiles: [x, y],
            cells: [px, py],
            path,
        });
    }
    Plan { moves }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{self, Puzzle};
    use crate::shisen::format::{parse, ReadOptions};
    use crate::solver::SolverChoice;

    fn board(text: &str) -> Shisen {
        let o = ReadOptions {
            gravity: true,
            ..Default::default()
        };
        parse("t", text, &o).unwrap().remove(0)
    }

    #[test]
    fn route_needs_keep_the_lowest_cell_per_column() {
        let p = board("A B\nB A\n");
        // A r1c1 and A r2c2 where they are: every route needs a B's cell empty; over the top
        // ring it is r1c2 (column 1, row 0).
        let needs = route_needs(&p, (0, 0), (1, 1));
        assert!(needs.contains(&vec![(1, 0)]), "{needs:?}");
        for n in &needs {
            assert!(!n.is_empty());
        }
    }

    #[test]
    fn small_boards_solve_and_the_plans_replay() {
        // Nothing can be joined in a crossed square, gravity or not.
        let p = board("A B\nB A\n");
        assert!(puzzle::solve(&p, &SolverChoice::Embedded)
            .unwrap()
            .is_none());
        for text in ["A B\nA B\n", "A C\nB B\nA C\n"] {
            let q = board(text);
            let s = puzzle::solve(&q, &SolverChoice::Embedded).unwrap().unwrap();
            assert_eq!(q.check(&s), Ok(()), "{text}");
        }
    }
}
