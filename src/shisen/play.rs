//! Playing a board: positions and the moves playable in them (by the seed's pair test), the
//! greedy player of KShisen's "solvable" check, random players (for the grade), an exhaustive
//! search (the tests' reference on small boards), and the [`Oracle`]: one SAT session on the
//! board that says which of the moves playable after some moves keep the board clearable.
//!
//! Without gravity a move that is playable now can go first in any plan that contains it
//! (removing tiles only empties cells, so every later line stays open), so after moves `R`
//! the move `M` keeps the board clearable exactly when some clearing pairing contains `R` and
//! `M`: one solve under assumptions on the pair variables, on one incremental session. With
//! gravity the order matters, and the assumptions are the step variables of the moves so far.

use super::model::ShisenMap;
use super::pair::{join, Grid};
use super::routes;
use super::rules::fall;
use super::Shisen;
use crate::cnf::{Assignment, Lit, Var};
use crate::generate::{rng, Rand};
use crate::puzzle::{GivenMode, Model, Puzzle};
use crate::solver::{Outcome, Session, SolverChoice, SolverError, Stop};
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::HashSet;

/// A position: the tile in each cell now (by the cell it started in), row-major.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub at: Vec<Option<usize>>,
}

impl Position {
    /// The board as given.
    pub fn start(p: &Shisen) -> Position {
        Position {
            at: (0..p.cells_len()).map(|c| p.cells[c].map(|_| c)).collect(),
        }
    }

    /// True when no tile is left.
    pub fn cleared(&self) -> bool {
        self.at.iter().all(|t| t.is_none())
    }

    /// The cell a tile is in now.
    pub fn cell_of(&self, tile: usize) -> Option<usize> {
        self.at.iter().position(|&t| t == Some(tile))
    }

    /// The moves playable now, as pairs of cells (`x < y`): matching tiles the pair test joins.
    pub fn playable(&self, p: &Shisen) -> Vec<(usize, usize)> {
        let w = p.width;
        let occupied: Vec<bool> = self.at.iter().map(|t| t.is_some()).collect();
        let grid = Grid {
            width: w,
            height: p.height,
            outline: p.rules.outline,
            occupied: &occupied,
        };
        let mut out = Vec::new();
        let here: Vec<usize> = (0..self.at.len()).filter(|&c| occupied[c]).collect();
        for (i, &x) in here.iter().enumerate() {
            for &y in &here[i + 1..] {
                let (tx, ty) = (self.at[x].expect("tile"), self.at[y].expect("tile"));
                if p.matches(tx, ty) && join(&grid, (x / w, x % w), (y / w, y % w)).is_some() {
                    out.push((x, y));
                }
            }
        }
        out
    }

    /// Removes the tiles in cells `x` and `y` (then, with gravity, the tiles above fall).
    pub fn remove(&mut self, p: &Shisen, x: usize, y: usize) {
        self.at[x] = None;
        self.at[y] = None;
        if p.rules.gravity {
            fall(&mut self.at, p.width, x % p.width);
            fall(&mut self.at, p.width, y % p.width);
        }
    }

    /// The tiles (by starting cell) of a move given by cells.
    pub fn tiles_of(&self, (x, y): (usize, usize)) -> (usize, usize) {
        (self.at[x].expect("tile"), self.at[y].expect("tile"))
    }
}

/// What a greedy run did: whether it cleared the board, and how many moves it made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Greedy {
    pub cleared: bool,
    pub moves: usize,
}

/// KShisen's "solvable" check: play the first pair found, again and again. Tiles are visited
/// column by column (left to right, top to bottom within a column), and for the first tile
/// that has a match the pair test can join, the first such match in the same order is taken.
/// A board it clears is clearable; one it does not clear may well be clearable too. (KShisen
/// ignores gravity in this check; here the tiles fall when the board has gravity.)
pub fn greedy(p: &Shisen) -> Greedy {
    let (w, h) = (p.width, p.height);
    let mut pos = Position::start(p);
    let order: Vec<usize> = (0..w)
        .flat_map(|c| (0..h).map(move |r| r * w + c))
        .collect();
    let mut moves = 0;
    'play: loop {
        let occupied: Vec<bool> = pos.at.iter().map(|t| t.is_some()).collect();
        let grid = Grid {
            width: w,
            height: h,
            outline: p.rules.outline,
            occupied: &occupied,
        };
        for &x in &order {
            let Some(tx) = pos.at[x] else { continue };
            for &y in &order {
                let Some(ty) = pos.at[y] else { continue };
                if x != y
                    && p.matches(tx, ty)
                    && join(&grid, (x / w, x % w), (y / w, y % w)).is_some()
                {
                    pos.remove(p, x, y);
                    moves += 1;
                    continue 'play;
                }
            }
        }
        break;
    }
    Greedy {
        cleared: pos.cleared(),
        moves,
    }
}

/// One random player: uniformly among the moves playable at each turn, until none is left.
/// Returns true when it cleared the board. Without gravity the playable pairs come from the
/// route counters ([`routes::Counters`]), the same moves as the pair test gives (a test checks
/// it) in a fraction of the time: `c`, the counters with every tile standing, and
/// `of_tile`, each tile's candidate pairs (`c` is played on; the caller resets it).
fn random_play(
    p: &Shisen,
    r: &routes::Routes,
    c: &mut routes::Counters,
    of_tile: &[Vec<usize>],
    rng: &mut Rand,
) -> bool {
    if p.rules.gravity {
        let mut pos = Position::start(p);
        loop {
            let moves = pos.playable(p);
            if moves.is_empty() {
                return pos.cleared();
            }
            let (x, y) = moves[rng.gen_range(0..moves.len())];
            pos.remove(p, x, y);
        }
    }
    let mut left = r.tiles.len();
    // The playable pairs, with each pair's place in the list.
    let mut list: Vec<usize> = Vec::new();
    let mut place = vec![usize::MAX; r.pairs.len()];
    fn add(i: usize, list: &mut Vec<usize>, place: &mut [usize]) {
        if place[i] == usize::MAX {
            place[i] = list.len();
            list.push(i);
        }
    }
    fn drop(i: usize, list: &mut Vec<usize>, place: &mut [usize]) {
        if place[i] != usize::MAX {
            let k = place[i];
            let last = *list.last().expect("listed");
            list.swap_remove(k);
            if last != i {
                place[last] = k;
            }
            place[i] = usize::MAX;
        }
    }
    for i in 0..r.pairs.len() {
        if c.open[i] > 0 {
            add(i, &mut list, &mut place);
        }
    }
    while !list.is_empty() {
        let i = list[rng.gen_range(0..list.len())];
        for t in [r.pairs[i].a, r.pairs[i].b] {
            left -= 1;
            for &k in &of_tile[t] {
                drop(k, &mut list, &mut place);
            }
            let mut opened = Vec::new();
            c.remove(t, |j| opened.push(j));
            for j in opened {
                if c.playable(r, j) {
                    add(j, &mut list, &mut place);
                }
            }
        }
    }
    left == 0
}

/// Depth-first search for a plan without gravity, over the candidate pairs' routes. Two facts
/// keep it small. A class whose tiles left can all go now (a pair, or two pairs one after the
/// other) can go at once: every plan removes them some time, and removing tiles earlier only
/// opens lines for the rest, so doing it first loses nothing. And the order of the other moves
/// does not matter for where the search stands (a position is the set of tiles gone), so dead
/// ends are remembered. Moves are tried in a seeded random order; the search gives up after
/// `budget` positions.
pub struct Search<'r> {
    r: &'r routes::Routes,
    classes: Vec<Vec<usize>>,
    /// Per class of `n` tiles: the candidate pair of its tiles `x` and `y` at `x * n + y`.
    class_pairs: Vec<Vec<usize>>,
    nodes: usize,
    /// The search gives up when `nodes` reaches this.
    pub budget: usize,
    seen: super::quick::Positions,
    /// The key of the position being looked at (scratch).
    key: Vec<u64>,
    rng: Rand,
    /// The dead-lock lemmas' fixpoint ([`super::locks`]).
    pub sealed: super::locks::Sealed,
    /// Whether positions are checked for sealed tiles ([`super::locks`]; on by default).
    pub locks: bool,
    /// Positions found dead by [`super::locks`] without searching them.
    pub locked: usize,
    /// Raised: give up (polled every 1,024 positions); `stopped` once it was seen raised.
    stop: Option<Stop>,
    stopped: bool,
}

impl<'r> Search<'r> {
    /// A search on `p`'s routes `r`, with `budget` positions and moves shuffled by `seed`.
    pub fn new(p: &Shisen, r: &'r routes::Routes, budget: usize, seed: u64) -> Search<'r> {
        let classes = routes::classes(p, r);
        let pair_of: std::collections::HashMap<(usize, usize), usize> = r
            .pairs
            .iter()
            .enumerate()
            .map(|(i, c)| ((c.a, c.b), i))
            .collect();
        let class_pairs = classes
            .iter()
            .map(|ts| {
                let n = ts.len();
                let mut m = vec![usize::MAX; n * n];
                for x in 0..n {
                    for y in 0..n {
                        if let Some(&i) = pair_of.get(&(ts[x].min(ts[y]), ts[x].max(ts[y]))) {
                            m[x * n + y] = i;
                        }
                    }
                }
                m
            })
            .collect();
        let sealed = super::locks::Sealed::new(r, &classes);
        Search {
            r,
            classes,
            class_pairs,

            nodes: 0,
            budget,
            seen: Default::default(),
            key: Vec::new(),
            rng: rng(seed),
            sealed,
            locks: true,
            locked: 0,
            stop: None,
            stopped: false,
        }
    }

    /// The same search, giving up (as if out of budget) once `stop` is raised.
    pub fn until(mut self, stop: Option<Stop>) -> Self {
        self.stop = stop;
        self
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// Dead positions remembered now.
    pub fn memo(&self) -> usize {
        self.seen.len()
    }

    fn play(&self, c: &mut routes::Counters, i: usize) {
        c.remove(self.r.pairs[i].a, |_| {});
        c.remove(self.r.pairs[i].b, |_| {});
    }

    fn undo(&self, c: &mut routes::Counters, i: usize) {
        c.restore(self.r.pairs[i].b);
        c.restore(self.r.pairs[i].a);
    }

    /// Pairs that remove every tile left of class `k` now, if there are such (a class with two
    /// or four tiles left), into `out`.
    fn completion(&self, c: &routes::Counters, k: usize, out: &mut Vec<usize>) -> bool {
        let class = &self.classes[k];
        let n = class.len();
        let mut left = [0usize; 4];
        let mut m = 0;
        for (x, &t) in class.iter().enumerate() {
            if c.here[t] {
                if m == 4 {
                    return false;
                }
                left[m] = x;
                m += 1;
            }
        }
        let pair = |x: usize, y: usize| self.class_pairs[k][x * n + y];
        match m {
            2 => {
                let i = pair(left[0], left[1]);
                let ok = c.playable(self.r, i);
                if ok {
                    out.push(i);
                }
                ok
            }
            4 => {
                let [w, x, y, z] = left;
                for (a, b) in [((w, x), (y, z)), ((w, y), (x, z)), ((w, z), (x, y))] {
                    let (i, j) = (pair(a.0, a.1), pair(b.0, b.1));
                    for (first, second) in [(i, j), (j, i)] {
                        let f = &self.r.pairs[first];
                        if c.playable(self.r, first)
                            && (c.open[second] > 0 || c.open_without(self.r, second, f.a, f.b))
                        {
                            out.extend([first, second]);
                            return true;
                        }
                    }
                }
                false
            }
            _ => false,
        }
    }

    /// The position's key (the bit set of the tiles here) into `k`.
    fn key(c: &routes::Counters, k: &mut Vec<u64>) {
        k.clear();
        k.resize(c.here.len().div_ceil(64), 0);
        for (t, &h) in c.here.iter().enumerate() {
            if h {
                k[t / 64] |= 1 << (t % 64);
            }
        }
    }

    /// Searches on from the position of `c` (with `left` tiles), appending moves (candidate
    /// pair indices) to `plan`. `Some(true)`: `plan` clears the board; `Some(false)`: no plan
    /// from here; `None`: out of budget. `c` and `plan` are as they were unless a plan is found.
    pub fn run(
        &mut self,
        c: &mut routes::Counters,
        left: usize,
        plan: &mut Vec<usize>,
    ) -> Option<bool> {
        self.step(c, left, plan, &[])
    }

    /// True when candidate pairs `i` and `j` share no tile: the two moves commute.
    fn apart(&self, i: usize, j: usize) -> bool {
        let (p, q) = (&self.r.pairs[i], &self.r.pairs[j]);
        p.a != q.a && p.a != q.b && p.b != q.a && p.b != q.b
    }

    /// [`Search::run`] with a sleep set: moves `asleep` were tried in a position before this
    /// one, and every move since commutes with them, so the positions after them are known
    /// dead and they are not tried here (models/shisen.md, "Why each lemma is sound").
    fn step(
        &mut self,
        c: &mut routes::Counters,
        left: usize,
        plan: &mut Vec<usize>,
        asleep: &[usize],
    ) -> Option<bool> {
        if left == 0 {
            return Some(true);
        }
        if self.nodes >= self.budget || self.stopped {
            return None;
        }
        if self.nodes.is_multiple_of(1024) && self.stop.as_ref().is_some_and(Stop::is_raised) {
            self.stopped = true;
            return None;
        }
        self.nodes += 1;
        let mut buf = std::mem::take(&mut self.key);
        Self::key(c, &mut buf);
        if self.seen.contains(buf.as_slice()) {
            self.key = buf;
            return Some(false);
        }
        let key: Box<[u64]> = buf.as_slice().into();
        self.key = buf;
        let mark = plan.len();
        let mut left = left;
        loop {
            let mut progressed = false;
            for k in 0..self.classes.len() {
                let mut pairs = Vec::new();
                if self.completion(c, k, &mut pairs) {
                    for i in pairs {
                        self.play(c, i);
                        plan.push(i);
                        left -= 2;
                    }
                    progressed = true;
                }
            }
            if !progressed {
                break;
            }
        }
        let depth = self.sealed.depth();
        let result = if left == 0 {
            Some(true)
        } else if self.locks && self.sealed.dead(self.r, c) {
            self.locked += 1;
            Some(false)
        } else {
            // Sleeping moves stay asleep while the moves made since commute with them.
            let mut sleep: Vec<usize> = asleep
                .iter()
                .copied()
                .filter(|&z| plan[mark..].iter().all(|&d| self.apart(z, d)))
                .collect();
            let mut moves: Vec<usize> = (0..self.r.pairs.len())
                .filter(|&i| c.playable(self.r, i) && !sleep.contains(&i))
                .collect();
            moves.shuffle(&mut self.rng);
            let mut result = Some(false);
            for i in moves {
                let after: Vec<usize> = sleep
                    .iter()
                    .copied()
                    .filter(|&z| self.apart(z, i))
                    .collect();
                self.play(c, i);
                plan.push(i);
                let r = self.step(c, left - 2, plan, &after);
                if r == Some(true) {
                    return r;
                }
                plan.pop();
                self.undo(c, i);
                if r.is_none() {
                    result = None;
                    break;
                }
                sleep.push(i);
            }
            result
        };
        self.sealed.truncate(depth);
        if result == Some(true) {
            return result;
        }
        if result == Some(false) {
            self.seen.insert(key);
        }
        while plan.len() > mark {
            let i = plan.pop().expect("a completion");
            self.undo(c, i);
        }
        result
    }
}

/// What [`Search::decide`] found out about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// A plan from the position (candidate pair indices, in order).
    Plan(Vec<usize>),
    /// No plan from the position: every way of playing on gets stuck.
    Dead,
    /// The budget ran out first.
    Unknown,
}

impl Search<'_> {
    /// Decides the position of `c` (with `left` tiles) within `total` more positions: runs of
    /// growing budgets (1,000, then doubling), each with its own move order; the dead ends
    /// found are shared between runs, so no work on them is lost. `c` is left as it was.
    pub fn decide(&mut self, c: &mut routes::Counters, left: usize, total: usize) -> Found {
        let end = self.nodes + total;
        let mut run = 1_000;
        loop {
            self.sealed.truncate(0);
            self.budget = (self.nodes + run).min(end);
            let mut plan = Vec::new();
            match self.run(c, left, &mut plan) {
                Some(true) => {
                    for &i in plan.iter().rev() {
                        self.undo(c, i);
                    }
                    return Found::Plan(plan);
                }
                Some(false) => return Found::Dead,
                None if self.nodes >= end || self.stopped => return Found::Unknown,
                None => run *= 2,
            }
        }
    }
}

/// Decides a board without gravity from the start with [`Search::decide`] (`Unknown` with
/// gravity, which the search does not play).
pub fn search(p: &Shisen, r: &routes::Routes, budget: usize, seed: u64) -> Found {
    if p.rules.gravity {
        return Found::Unknown;
    }
    let mut c = routes::Counters::new(r);
    Search::new(p, r, budget, seed).decide(&mut c, r.tiles.len(), budget)
}

/// How many of `count` random players (seeded by `seed`) get stuck before clearing the board.
pub fn stuck_players(p: &Shisen, count: usize, seed: u64) -> usize {
    let r = routes::build(p);
    let mut g = rng(seed);
    let start = routes::Counters::new(&r);
    let mut c = start.clone();
    let mut of_tile: Vec<Vec<usize>> = vec![Vec::new(); r.tiles.len()];
    for (i, cand) in r.pairs.iter().enumerate() {
        of_tile[cand.a].push(i);
        of_tile[cand.b].push(i);
    }
    (0..count)
        .filter(|_| {
            c.reset(&start);
            !random_play(p, &r, &mut c, &of_tile, &mut g)
        })
        .count()
}

/// Exhaustive search (for tests on small boards): can the board be cleared? Positions already
/// seen are not searched again.
pub fn clearable_by_brute_force(p: &Shisen) -> bool {
    fn go(p: &Shisen, pos: &Position, seen: &mut HashSet<Vec<bool>>) -> bool {
        if pos.cleared() {
            return true;
        }
        // Without gravity a position is the set of tiles left; with it, where they are too.
        let key: Vec<bool> = if p.rules.gravity {
            pos.at
                .iter()
                .map(|t| t.is_some())
                .chain((0..pos.at.len()).map(|c| pos.at.contains(&Some(c))))
                .collect()
        } else {
            pos.at.iter().map(|t| t.is_some()).collect()
        };
        if !seen.insert(key) {
            return false;
        }
        for (x, y) in pos.playable(p) {
            let mut next = pos.clone();
            next.remove(p, x, y);
            if go(p, &next, seen) {
                return true;
            }
        }
        false
    }
    go(p, &Position::start(p), &mut HashSet::new())
}

/// A SAT session on a board that answers, for the position after some moves, which of the
/// moves playable there keep the board clearable. Built by [`with_oracle`]. Without gravity a
/// move is first tried by play ([`Search::decide`], from the position after it): a plan it
/// finds shows the move safe (and every other playable move in that plan); a position it
/// proves stuck becomes a lemma of the solver's; the solver then answers for the rest.
pub struct Oracle<'s, 'm> {
    model: &'m Model<ShisenMap>,
    session: Session<'s>,
    next_var: usize,
    search: Option<Search<'m>>,
    /// The route counters of the position after the history of the last call to play, and
    /// that history: the next call (an explanation asks move after move) only plays the moves
    /// that differ instead of counting every route again.
    at: Option<(routes::Counters, Vec<usize>)>,
    /// Pairings (a flag per candidate pair) play found to clear the board from the start, the
    /// latest last, at most [`KEPT_PLANS`].
    cleared: Vec<Vec<bool>>,
    /// Solver calls made (for figures).
    pub calls: usize,
}

/// Positions the oracle's search may visit per move before the solver is asked alone.
pub const ORACLE_BUDGET: usize = 1_000_000;

/// Pairings the oracle keeps to answer later positions with.
const KEPT_PLANS: usize = 16;

/// Runs `f` with an oracle for `p` (the model and session live as long as the call).
pub fn with_oracle<R>(p: &Shisen, f: impl FnOnce(&mut Oracle) -> R) -> R {
    let model = if p.rules.gravity {
        super::gravity::build(p, GivenMode::Fold, false)
    } else {
        super::model::build(p, GivenMode::Fold, false, super::Order::Blocked)
    };
    let refine = |a: &Assignment| p.refine(&model, a);
    let session = Session::new(
        SolverChoice::Embedded.backend(),
        &model.formula,
        model.answer.clone(),
        model.one_hot,
    )
    .with_refine(&refine);
    let search = (!p.rules.gravity).then(|| Search::new(p, &model.map.routes, ORACLE_BUDGET, 0));
    let mut o = Oracle {
        model: &model,
        session,
        next_var: model.formula.num_vars(),
        search,
        at: None,
        cleared: Vec::new(),
        calls: 0,
    };
    f(&mut o)
}

impl Oracle<'_, '_> {
    /// The candidate pair of tiles `x` and `y` (starting cells).
    fn pair(&self, (x, y): (usize, usize)) -> Option<usize> {
        let map = &self.model.map;
        map.pairs.iter().position(|pv| {
            let (a, b) = (map.tiles[pv.a], map.tiles[pv.b]);
            (a, b) == (x, y) || (a, b) == (y, x)
        })
    }

    /// The literal of pair `i` as move number `step` (0-based): the pair literal without
    /// gravity, the step literal with it.
    fn lit(&self, i: usize, step: usize) -> Option<Lit> {
        let map = &self.model.map;
        Some(match &map.gravity {
            None => map.pairs[i].p,
            Some(g) => *g.moves.get(step)?.get(i)?,
        })
    }

    /// Play's answers (no gravity), after `history` (candidate pairs): the moves of `moves` it
    /// finds a plan with are safe (and so is every other move of `moves` in that plan); for a
    /// move after which it proves the position stuck, the lemma "not all of the history and
    /// this move" goes to the solver (a plan with them all could play them first).
    fn played(&mut self, history: &[usize], moves: &[usize], safe: &mut [bool]) {
        let Some(search) = self.search.as_mut() else {
            return;
        };
        let map = &self.model.map;
        let r = &map.routes;
        let (mut c, mut done) = self
            .at
            .take()
            .unwrap_or_else(|| (routes::Counters::new(r), Vec::new()));
        // Back to the longest history both share, then forward along this one.
        let same = done.iter().zip(history).take_while(|(a, b)| a == b).count();
        while done.len() > same {
            let i = done.pop().expect("a move past the shared history");
            c.restore(r.pairs[i].b);
            c.restore(r.pairs[i].a);
        }
        for &i in &history[same..] {
            c.remove(r.pairs[i].a, |_| {});
            c.remove(r.pairs[i].b, |_| {});
            done.push(i);
        }
        let left = c.here.iter().filter(|&&h| h).count();
        // A pairing that clears the board and holds every move made so far still clears it
        // from here, in its own order without those moves (without gravity, tiles gone
        // earlier only open lines): each move of it playable now is safe.
        for s in &self.cleared {
            if history.iter().all(|&i| s[i]) {
                for (j, &m) in moves.iter().enumerate() {
                    safe[j] |= s[m];
                }
            }
        }
        for k in 0..moves.len() {
            if safe[k] {
                continue;
            }
            let m = moves[k];
            c.remove(r.pairs[m].a, |_| {});
            c.remove(r.pairs[m].b, |_| {});
            match search.decide(&mut c, left - 2, ORACLE_BUDGET) {
                Found::Plan(plan) => {
                    safe[k] = true;
                    for (j, &other) in moves.iter().enumerate() {
                        safe[j] |= plan.contains(&other);
                    }
                    let mut s = vec![false; r.pairs.len()];
                    for &i in history.iter().chain([&m]).chain(&plan) {
                        s[i] = true;
                    }
                    if self.cleared.len() == KEPT_PLANS {
                        self.cleared.remove(0);
                    }
                    self.cleared.push(s);
                }
                Found::Dead => {
                    let lemma: Vec<Lit> = history
                        .iter()
                        .chain([&m])
                        .map(|&i| !map.pairs[i].p)
                        .collect();
                    self.session.add_clause(&lemma);
                }
                Found::Unknown => {}
            }
            c.restore(r.pairs[m].b);
            c.restore(r.pairs[m].a);
        }
        self.at = Some((c, done));
    }

    /// Tells the oracle that `plan` (moves as tiles by starting cell) clears the board, so
    /// the positions along it are answered from it first (an explanation walks its plan).
    pub fn knows(&mut self, plan: &[(usize, usize)]) {
        let mut s = vec![false; self.model.map.routes.pairs.len()];
        for &m in plan {
            match self.pair(m) {
                Some(i) => s[i] = true,
                None => return,
            }
        }
        if self.cleared.len() == KEPT_PLANS {
            self.cleared.remove(0);
        }
        self.cleared.push(s);
    }

    /// After `history` (moves as tiles by starting cell, in order), which of `moves` (tiles
    /// by starting cell) keep the board clearable: `true` for a safe move, each proven by a
    /// plan that clears the board with it (found by play, or a model of the solver), `false`
    /// for a losing one, proven by the solver finding no such model. One solve per round: "some
    /// move not yet known is in a plan".
    pub fn classify(
        &mut self,
        history: &[(usize, usize)],
        moves: &[(usize, usize)],
    ) -> Result<Vec<bool>, SolverError> {
        let Some(hist) = history
            .iter()
            .map(|&m| self.pair(m))
            .collect::<Option<Vec<usize>>>()
        else {
            return Ok(vec![false; moves.len()]);
        };
        let mut assume: Vec<Lit> = Vec::new();
        for (k, &i) in hist.iter().enumerate() {
            match self.lit(i, k) {
                Some(l) => assume.push(l),
                None => return Ok(vec![false; moves.len()]),
            }
        }
        let pairs: Vec<Option<usize>> = moves.iter().map(|&m| self.pair(m)).collect();
        let mut safe = vec![false; moves.len()];
        let known: Vec<usize> = pairs.iter().map(|p| p.unwrap_or(usize::MAX)).collect();
        if pairs.iter().all(|p| p.is_some()) {
            self.played(&hist, &known, &mut safe);
        }
        let lits: Vec<Option<Lit>> = pairs
            .iter()
            .map(|p| p.and_then(|i| self.lit(i, hist.len())))
            .collect();
        let mut open: Vec<usize> = (0..moves.len())
            .filter(|&i| lits[i].is_some() && !safe[i])
            .collect();
        if open.is_empty() {
            return Ok(safe);
        }
        let mut prefer = hist.clone();
        prefer.extend(open.iter().filter_map(|&i| pairs[i]));
        *self.model.map.prefer.borrow_mut() = prefer;
        while !open.is_empty() {
            let act = Var::from_index(self.next_var).pos();
            self.next_var += 1;
            let mut clause = vec![!act];
            clause.extend(
                open.iter()
                    .map(|&i| lits[i].expect("open moves have literals")),
            );
            self.session.add_clause(&clause);
            let mut a = assume.clone();
            a.push(act);
            self.calls += 1;
            let out = self.session.solve(&a);
            self.session.add_clause(&[!act]);
            match out? {
                Outcome::Sat(model) => {
                    open.retain(|&i| {
                        let yes = model.lit(lits[i].expect("open"));
                        safe[i] |= yes;
                        !yes
                    });
                }
                Outcome::Unsat(_) => break,
            }
        }
        self.model.map.prefer.borrow_mut().clear();
        Ok(safe)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle;
    use crate::shisen::format::{parse, ReadOptions};
    use crate::shisen::{Order, Rules};

    fn board(text: &str) -> Shisen {
        parse("t", text, &ReadOptions::default()).unwrap().remove(0)
    }

    /// A random deal: `kinds` kinds of `per` tiles each, shuffled on a `w` x `h` board (the
    /// rest empty), under `rules`.
    pub(crate) fn deal(
        w: usize,
        h: usize,
        kinds: usize,
        per: usize,
        rules: Rules,
        r: &mut Rand,
    ) -> Shisen {
        let mut cells: Vec<Option<usize>> = (0..kinds)
            .flat_map(|k| std::iter::repeat_n(Some(k), per))
            .collect();
        cells.resize(w * h, None);
        cells.shuffle(r);
        if rules.gravity {
            // Pack every column at the bottom.
            for c in 0..w {
                fall(&mut cells, w, c);
            }
        }
        Shisen {
            width: w,
            height: h,
            cells,
            faces: (0..kinds)
                .map(|k| ((b'A' + k as u8) as char).to_string())
                .collect(),
            rules,
            order: Default::default(),
        }
    }

    #[test]
    fn a_raised_stop_gives_up_and_a_quiet_one_changes_nothing() {
        // `--timeout` raises the flag: the search then answers Unknown at once, whatever its
        // budget; a flag never raised leaves the answer as it was.
        let p = board(&std::fs::read_to_string("puzzles/shisen/kshisen-14x6.shisen").unwrap());
        let r = routes::build(&p);
        let tiles = r.tiles.len();
        let decide = |stop: Option<Stop>| {
            let mut c = routes::Counters::new(&r);
            Search::new(&p, &r, 0, 0)
                .until(stop)
                .decide(&mut c, tiles, 1_000_000)
        };
        let free = decide(None);
        assert!(matches!(free, Found::Plan(_)), "the board clears");
        assert_eq!(decide(Some(Stop::new())), free);
        let raised = Stop::new();
        raised.raise();
        assert_eq!(decide(Some(raised)), Found::Unknown);
    }

    #[test]
    fn counters_agree_with_the_pair_test() {
        // Random players on the counters and on the pair test see the same playable moves:
        // compare them along random games.
        let mut r = rng(3);
        for trial in 0..40 {
            let p = deal(6, 4, 5, 4, Rules::default(), &mut r);
            let routes = routes::build(&p);
            let mut pos = Position::start(&p);
            let mut here = vec![true; routes.tiles.len()];
            loop {
                let by_test: HashSet<(usize, usize)> = pos.playable(&p).into_iter().collect();
                let by_counts: HashSet<(usize, usize)> = routes
                    .pairs
                    .iter()
                    .filter(|c| here[c.a] && here[c.b])
                    .filter(|c| c.routes.iter().any(|s| s.iter().all(|&t| !here[t])))
                    .map(|c| (routes.tiles[c.a], routes.tiles[c.b]))
                    .collect();
                assert_eq!(by_test, by_counts, "trial {trial}");
                let Some(&(x, y)) = by_test.iter().next() else {
                    break;
                };
                pos.remove(&p, x, y);
                here[routes.index[x].unwrap()] = false;
                here[routes.index[y].unwrap()] = false;
            }
        }
    }

    #[test]
    fn sat_agrees_with_exhaustive_search_and_greedy_never_beats_it() {
        // Small random boards under every rule set: the SAT verdict equals the search's, and
        // a greedy or random player never clears a board SAT calls not clearable.
        let mut r = rng(17);
        let mut seen = [0usize; 2];
        for trial in 0..240 {
            let rules = Rules {
                outline: trial % 3 == 0,
                gravity: trial % 4 == 1,
                chinese: false,
            };
            let (w, h, kinds, per) =
                [(4, 3, 3, 4), (4, 4, 8, 2), (4, 3, 6, 2), (4, 4, 4, 4)][trial % 4];
            let mut p = deal(w, h, kinds, per, rules, &mut r);
            p.order = [Order::Blocked, Order::Cycles, Order::Ranks][trial % 3];
            let want = clearable_by_brute_force(&p);
            let got = puzzle::solve(&p, &SolverChoice::Embedded).unwrap();
            assert_eq!(got.is_some(), want, "trial {trial}: {p:?}");
            if let Some(plan) = got {
                assert_eq!(p.check(&plan), Ok(()));
            } else {
                assert!(!greedy(&p).cleared, "trial {trial}");
                assert_eq!(stuck_players(&p, 5, trial as u64), 5);
            }
            seen[usize::from(want)] += 1;
        }
        assert!(
            seen[0] >= 20 && seen[1] >= 20,
            "not clearable / clearable: {seen:?}"
        );
    }

    #[test]
    fn the_search_with_its_lemmas_agrees_with_the_brute_force() {
        // Locks, kept locks, sleep sets and dominance on many small boards without gravity,
        // a good share of them dead: the search's verdict is the brute force's.
        let mut r = rng(29);
        let mut seen = [0usize; 2];
        for trial in 0..400 {
            let rules = Rules {
                outline: trial % 3 == 0,
                gravity: false,
                chinese: false,
            };
            let (w, h, kinds, per) = [
                (4, 4, 4, 4),
                (5, 4, 5, 4),
                (6, 3, 9, 2),
                (4, 4, 6, 2),
                (6, 4, 6, 4),
            ][trial % 5];
            let p = deal(w, h, kinds, per, rules, &mut r);
            let want = clearable_by_brute_force(&p);
            let routes = routes::build(&p);
            let got = search(&p, &routes, 10_000_000, trial as u64);
            match got {
                Found::Plan(plan) => {
                    assert!(want, "trial {trial}: a plan on a dead board {p:?}");
                    let mut c = routes::Counters::new(&routes);
                    for i in plan {
                        assert!(c.playable(&routes, i), "trial {trial}");
                        c.remove(routes.pairs[i].a, |_| {});
                        c.remove(routes.pairs[i].b, |_| {});
                    }
                    assert!(c.here.iter().all(|&h| !h), "trial {trial}");
                }
                Found::Dead => assert!(!want, "trial {trial}: called dead {p:?}"),
                Found::Unknown => panic!("trial {trial}: undecided"),
            }
            seen[usize::from(want)] += 1;
        }
        assert!(
            seen[0] >= 40 && seen[1] >= 40,
            "not clearable / clearable: {seen:?}"
        );
    }

    #[test]
    fn the_oracle_finds_the_losing_moves() {
        // Every first move of small random boards, checked against the search.
        let mut r = rng(5);
        for trial in 0..30 {
            let rules = Rules {
                outline: trial % 2 == 0,
                gravity: trial % 3 == 2,
                chinese: false,
            };
            let p = deal(4, 4, 4, 4, rules, &mut r);
            if !clearable_by_brute_force(&p) {
                continue;
            }
            let pos = Position::start(&p);
            let moves = pos.playable(&p);
            let tiles: Vec<(usize, usize)> = moves.iter().map(|&m| pos.tiles_of(m)).collect();
            let safe = with_oracle(&p, |o| o.classify(&[], &tiles)).unwrap();
            for (k, &(x, y)) in moves.iter().enumerate() {
                let mut next = p.clone();
                let mut after = pos.clone();
                after.remove(&p, x, y);
                // The position after the move, as a board of its own.
                next.cells = after
                    .at
                    .iter()
                    .map(|t| t.and_then(|t| p.cells[t]))
                    .collect();
                assert_eq!(
                    safe[k],
                    clearable_by_brute_force(&next),
                    "trial {trial} move {k}"
                );
            }
        }
        let p = board("# shisen: no-outline\nA B A B\nC C D D\n");
        let pos = Position::start(&p);
        let tiles: Vec<(usize, usize)> =
            pos.playable(&p).iter().map(|&m| pos.tiles_of(m)).collect();
        assert_eq!(tiles, vec![(4, 5), (6, 7)]);
        // Without the ring only the C's and the D's can go first, and both keep the board
        // clearable (C, D, then the A's through row 2, then the B's).
        assert_eq!(
            with_oracle(&p, |o| o.classify(&[], &tiles)).unwrap(),
            vec![true, true]
        );
    }
}
