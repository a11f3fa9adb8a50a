//! The quick search: a depth-first search for a plan on the board itself, with and without
//! gravity, before any route or CNF is built. It is how `solve` and `check` answer a clearable
//! deal in about the time a player's program takes: without gravity each tile is put to the
//! seed's sweep against the other tiles of its kind ([`Board::joins`]), with gravity the
//! tiles it can be joined to now are found by a walk over (cell, direction) states with at
//! most two turns; a position (the set
//! of tiles left; with gravity the columns stay packed in order, so that set is the position
//! too) found dead is remembered, and without gravity a kind whose last two tiles can be joined
//! now is removed at once (removing tiles only opens lines, so that loses nothing:
//! `models/shisen.md`, "Dominance").
//!
//! A plan it finds is replayed by the rule checker before anyone sees it. It never decides
//! "cannot be cleared" on its own: [`Found::Dead`] is what the exhaustive search saw, and the
//! callers hand the board to the SAT models for that verdict ([`super::model`],
//! [`super::gravity`]), where the positions it saw can become the model ([`Graph`]).

use super::{Plan, Shisen};
use crate::solver::Stop;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// A cell of the padded grid with no tile.
const EMPTY: u32 = u32::MAX;
/// A cell a line may not cross (the ring under `--no-outline`).
const WALL: u32 = u32::MAX - 1;

/// A multiplicative hash of a few words (the positions' keys are bit sets).
#[derive(Default)]
pub struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

/// A set of positions (bit sets of the tiles left).
pub type Positions = HashSet<Box<[u64]>, BuildHasherDefault<WordHasher>>;

/// What the quick search found out about a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// A plan: the pairs of tiles (by the cell they start in) in the order removed.
    Plan(Vec<(usize, usize)>),
    /// Every position reachable from the start was searched and none leads to a clear board.
    Dead,
    /// The budget ran out, or the stop flag was raised.
    Unknown,
}

/// The board as the search plays it: a padded grid (one ring of cells around the board)
/// holding tile ids (a tile's id is the cell it starts in), each tile's match class, and the
/// bit set of the tiles left.
#[derive(Clone)]
pub struct Board {
    pw: usize,
    gravity: bool,
    grid: Vec<u32>,
    class: Vec<u32>,
    /// Tiles (ids) of each class.
    of_class: Vec<Vec<u32>>,
    /// Tiles left per class.
    count: Vec<u32>,
    here: Vec<u64>,
    left: usize,
    stamp: Vec<u32>,
    now: u32,
    rays: Vec<(u32, u8)>,
    next: Vec<(u32, u8)>,
    /// The padded cells in the order the search looks at them (row by row, until
    /// [`Board::shuffle`]), and each cell's place in it (a move is found from the tile that
    /// comes first).
    order: Vec<u32>,
    rank: Vec<u32>,
    /// Cells walked by [`Board::reach`] and looked at by [`Board::joins`] in
    /// [`Board::moves_of`] so far (the search's measure of work).
    walked: u64,
}

impl Board {
    /// The board `p` as given.
    pub fn new(p: &Shisen) -> Board {
        let (w, h) = (p.width, p.height);
        let pw = w + 2;
        let ring = if p.rules.outline { EMPTY } else { WALL };
        let mut grid = vec![ring; pw * (h + 2)];
        let classes = p.classes();
        let mut names: Vec<usize> = Vec::new();
        let mut class = vec![u32::MAX; p.cells_len()];
        let mut of_class: Vec<Vec<u32>> = Vec::new();
        let mut here = vec![0u64; p.cells_len().div_ceil(64).max(1)];
        let mut left = 0;
        for r in 0..h {
            for c in 0..w {
                let t = r * w + c;
                grid[(r + 1) * pw + c + 1] = match classes[t] {
                    Some(k) => {
                        let i = match names.iter().position(|&x| x == k) {
                            Some(i) => i,
                            None => {
                                names.push(k);
                                of_class.push(Vec::new());
                                names.len() - 1
                            }
                        };
                        class[t] = i as u32;
                        of_class[i].push(t as u32);
                        here[t / 64] |= 1 << (t % 64);
                        left += 1;
                        t as u32
                    }
                    None => EMPTY,
                };
            }
        }
        let count = of_class.iter().map(|v| v.len() as u32).collect();
        let n = grid.len();
        Board {
            pw,
            gravity: p.rules.gravity,
            stamp: vec![0; grid.len() * 4],
            grid,
            class,
            of_class,
            count,
            here,
            left,
            now: 0,
            rays: Vec::new(),
            next: Vec::new(),
            walked: 0,
            order: (0..n as u32).collect(),
            rank: (0..n as u32).collect(),
        }
    }

    /// The tiles left.
    pub fn left(&self) -> usize {
        self.left
    }

    /// The bit set of the tiles left (by id).
    pub fn key(&self) -> &[u64] {
        &self.here
    }

    /// The padded cell holding tile `t` now (without gravity where it started; with gravity
    /// a scan, off the hot path), `None` when it is gone.
    fn cell_of(&self, t: u32) -> Option<usize> {
        if !self.gravity {
            let w = self.pw - 2;
            let c = (t as usize / w + 1) * self.pw + t as usize % w + 1;
            return (self.grid[c] == t).then_some(c);
        }
        self.grid.iter().position(|&v| v == t)
    }

    /// The tiles the tile in padded cell `s` can be joined to now, whatever their class (as
    /// padded cells, appended to `out`): a line of at most three straight segments through
    /// empty cells (and the ring when the outline is allowed). Each (cell, direction) is walked
    /// once, at the fewest turns it can be reached with.
    fn reach(&mut self, s: usize, out: &mut Vec<usize>) {
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.stamp.iter_mut().for_each(|x| *x = 0);
            self.now = 1;
        }
        let pw = self.pw as isize;
        let steps = [-pw, 1, pw, -1];
        let n = self.grid.len() as isize;
        let mut rays = std::mem::take(&mut self.rays);
        let mut next = std::mem::take(&mut self.next);
        rays.clear();
        rays.extend((0..4).map(|d| (s as u32, d as u8)));
        for level in 0..3 {
            next.clear();
            for &(from, d) in &rays {
                let d = d as usize;
                let mut c = from as isize;
                loop {
                    c += steps[d];
                    if c < 0 || c >= n {
                        break;
                    }
                    let col = c % pw;
                    if (d == 1 && col == 0) || (d == 3 && col == pw - 1) {
                        break;
                    }
                    let cu = c as usize;
                    let v = self.grid[cu];
                    if v == WALL {
                        break;
                    }
                    if v != EMPTY {
                        if cu != s {
                            out.push(cu);
                        }
                        break;
                    }
                    let k = cu * 4 + d;
                    if self.stamp[k] == self.now {
                        break;
                    }
                    self.stamp[k] = self.now;
                    self.walked += 1;
                    if level < 2 {
                        next.push((cu as u32, ((d + 1) % 4) as u8));
                        next.push((cu as u32, ((d + 3) % 4) as u8));
                    }
                }
            }
            std::mem::swap(&mut rays, &mut next);
        }
        self.rays = rays;
        self.next = next;
    }

    /// The moves of the tile in padded cell `s`: matching tiles it can be joined to that come
    /// later in row-major order (each move is found once), into `out` (cleared first).
    /// Without gravity each later tile of its class is put to [`Board::joins`] (a tile has
    /// few partners, and a walk over every cell it reaches costs more on an open board); with
    /// gravity, where tiles move, the tiles it reaches are filtered.
    fn moves_of(&mut self, s: usize, out: &mut Vec<usize>) {
        out.clear();
        let a = self.grid[s];
        if a >= WALL {
            return;
        }
        if !self.gravity {
            let (w, mut work) = (self.pw - 2, 0);
            for &t in &self.of_class[self.class[a as usize] as usize] {
                let t = t as usize;
                let c = (t / w + 1) * self.pw + t % w + 1;
                // A class's tiles are listed row-major, as their cells are.
                if c > s
                    && self.here[t / 64] & (1 << (t % 64)) != 0
                    && self.joins_counting(s, c, &mut work)
                {
                    out.push(c);
                }
            }
            self.walked += work;
            return;
        }
        self.reach(s, out);
        let k = self.class[a as usize];
        let (grid, class) = (&self.grid, &self.class);
        let rank = &self.rank;
        out.retain(|&t| rank[t] > rank[s] && class[grid[t] as usize] == k);
        crate::sort::all(out);
        out.dedup();
    }

    /// True when the tiles in padded cells `s` and `t` can be joined now: the seed's sweep
    /// (a middle segment on every row, then every column), each tile first going straight
    /// as far as its column (row) is empty, so only the middle segment is walked.
    fn joins(&self, s: usize, t: usize) -> bool {
        self.joins_counting(s, t, &mut 0)
    }

    /// [`Board::joins`], adding the cells it looked at to `work`.
    fn joins_counting(&self, s: usize, t: usize, work: &mut u64) -> bool {
        let pw = self.pw;
        let rows = self.grid.len() / pw;
        let free = |r: usize, c: usize| self.grid[r * pw + c] == EMPTY;
        let (ra, ca, rb, cb) = (s / pw, s % pw, t / pw, t % pw);
        // The rows a tile reaches straight up and down its column (its own row included),
        // and the columns it reaches along its row.
        let span = |r: usize, c: usize, vertical: bool| {
            let (mut lo, mut hi) = (if vertical { r } else { c }, if vertical { r } else { c });
            let end = if vertical { rows - 1 } else { pw - 1 };
            let at = |k: usize| if vertical { free(k, c) } else { free(r, k) };
            while lo > 0 && at(lo - 1) {
                lo -= 1;
            }
            while hi < end && at(hi + 1) {
                hi += 1;
            }
            (lo, hi)
        };
        // A middle segment on each of `lines` (rows or columns) between `from` and `to`.
        let middle = |lines: std::ops::RangeInclusive<usize>,
                      (from, to): (usize, usize),
                      vertical: bool,
                      work: &mut u64| {
            for l in lines {
                *work += 1;
                let open = (from + 1..to).all(|k| {
                    *work += 1;
                    if vertical {
                        free(k, l)
                    } else {
                        free(l, k)
                    }
                });
                if open {
                    return true;
                }
            }
            false
        };
        let (a_lo, a_hi) = span(ra, ca, true);
        let (b_lo, b_hi) = span(rb, cb, true);
        *work += (a_hi - a_lo + b_hi - b_lo + 6) as u64;
        // The ends of the middle segment are the tiles or inside their spans: only the cells
        // strictly between them are left to look at.
        let cols = (ca.min(cb), ca.max(cb));
        if middle(a_lo.max(b_lo)..=a_hi.min(b_hi), cols, false, work) {
            return true;
        }
        let (a_lo, a_hi) = span(ra, ca, false);
        let (b_lo, b_hi) = span(rb, cb, false);
        *work += (a_hi - a_lo + b_hi - b_lo + 6) as u64;
        let rows = (ra.min(rb), ra.max(rb));
        middle(a_lo.max(b_lo)..=a_hi.min(b_hi), rows, true, work)
    }

    /// Removes the tiles in padded cells `s` and `t` (then, with gravity, the tiles above
    /// fall); returns their ids.
    fn remove(&mut self, s: usize, t: usize) -> (u32, u32) {
        let (a, b) = (self.grid[s], self.grid[t]);
        self.grid[s] = EMPTY;
        self.grid[t] = EMPTY;
        for x in [a, b] {
            let x = x as usize;
            self.here[x / 64] &= !(1 << (x % 64));
            self.count[self.class[x] as usize] -= 1;
        }
        self.left -= 2;
        if self.gravity {
            self.fall(s % self.pw);
            if t % self.pw != s % self.pw {
                self.fall(t % self.pw);
            }
        }
        (a, b)
    }

    /// A new order to look at the cells in (a seeded shuffle). Only with gravity: without,
    /// [`Board::moves_of`] takes a tile's partners row by row.
    fn shuffle(&mut self, seed: u64) {
        use rand::seq::SliceRandom;
        self.order.shuffle(&mut crate::generate::rng(seed));
        for (i, &c) in self.order.iter().enumerate() {
            self.rank[c as usize] = i as u32;
        }
    }

    /// Every move playable now, as pairs of padded cells.
    pub fn all_moves(&mut self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut ts = Vec::new();
        for s in 0..self.grid.len() {
            if self.grid[s] < WALL {
                self.moves_of(s, &mut ts);
                out.extend(ts.iter().map(|&t| (s, t)));
            }
        }
        out
    }

    /// The padded grid (tile ids, [`u32::MAX`] for an empty cell).
    pub fn grid(&self) -> &[u32] {
        &self.grid
    }

    /// Sets the grid to `grid` (one [`Board::grid`] gave) and the tiles left from it.
    pub fn restore(&mut self, grid: &[u32]) {
        self.grid.copy_from_slice(grid);
        self.here.iter_mut().for_each(|w| *w = 0);
        self.count.iter_mut().for_each(|c| *c = 0);
        self.left = 0;
        for &v in grid {
            if v < WALL {
                let x = v as usize;
                self.here[x / 64] |= 1 << (x % 64);
                self.count[self.class[x] as usize] += 1;
                self.left += 1;
            }
        }
    }

    /// [`Board::remove`] for callers outside the search: removes the tiles in padded cells
    /// `s` and `t` and returns their ids.
    pub fn remove_at(&mut self, s: usize, t: usize) -> (u32, u32) {
        self.remove(s, t)
    }

    /// Undoes [`Board::remove`] without gravity: tiles `a` and `b` back in cells `s`, `t`.
    fn put_back(&mut self, s: usize, t: usize, (a, b): (u32, u32)) {
        self.grid[s] = a;
        self.grid[t] = b;
        for x in [a, b] {
            let x = x as usize;
            self.here[x / 64] |= 1 << (x % 64);
            self.count[self.class[x] as usize] += 1;
        }
        self.left += 2;
    }

    /// Gravity: the tiles of padded column `c` fall to the board's bottom row, in order.
    fn fall(&mut self, c: usize) {
        let pw = self.pw;
        let rows = self.grid.len() / pw;
        let mut to = rows - 2;
        for r in (1..rows - 1).rev() {
            let v = self.grid[r * pw + c];
            if v != EMPTY {
                self.grid[r * pw + c] = EMPTY;
                self.grid[to * pw + c] = v;
                to -= 1;
            }
        }
    }
}

/// The search: the board, the dead positions, the budget.
pub struct Search {
    pub board: Board,
    /// Positions found dead (without gravity: after the dominant moves were made).
    pub dead: Positions,
    nodes: usize,
    budget: usize,
    /// The work budget: cells [`Board::reach`] may walk in all.
    walk_limit: u64,
    stop: Option<Stop>,
    stopped: bool,
    /// The moves made (tile ids, in order).
    plan: Vec<(u32, u32)>,
    /// Pad to board cell.
    width: usize,
    /// Scratch lists of cells, one per depth.
    pool: Vec<Vec<usize>>,
}

impl Search {
    /// A search on `p` that gives up after `budget` positions or once `stop` is raised.
    pub fn new(p: &Shisen, budget: usize, stop: Option<&Stop>) -> Search {
        Search {
            board: Board::new(p),
            dead: Positions::default(),
            nodes: 0,
            budget,
            walk_limit: budget as u64 * WALK_PER_POSITION,
            stop: stop.cloned(),
            stopped: false,
            plan: Vec::new(),
            width: p.width,
            pool: Vec::new(),
        }
    }

    /// Positions visited.
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// The moves made, as pairs of tiles by starting cell.
    fn pairs(&self) -> Vec<(usize, usize)> {
        self.plan
            .iter()
            .map(|&(a, b)| (a as usize, b as usize))
            .collect()
    }

    /// Searches from the start. With gravity in runs of growing budgets ([`FIRST_RUN`]
    /// positions, then doubling) until the whole budget is spent, each after the first
    /// looking at the cells in another seeded order: a search that went astray early into a
    /// large dead part of the game starts again elsewhere. The dead positions found are kept
    /// from run to run (a position is dead whatever the order it is searched in).
    pub fn run(&mut self) -> Found {
        let total = self.budget;
        let mut run = if self.board.gravity { FIRST_RUN } else { total };
        let mut seed = 0;
        loop {
            self.budget = (self.nodes + run).min(total);
            match self.step() {
                Some(true) => return Found::Plan(self.pairs()),
                Some(false) => return Found::Dead,
                None if self.nodes >= total
                    || self.stopped
                    || self.board.walked > self.walk_limit =>
                {
                    self.budget = total;
                    return Found::Unknown;
                }
                None => {
                    seed += 1;
                    run *= 2;
                    self.board.shuffle(seed);
                }
            }
        }
    }

    /// Without gravity: while a class has exactly two tiles left and they can be joined now
    /// ([`Board::joins`]), removes them (dominance). Returns how many moves it made (to undo).
    fn dominant(&mut self) -> usize {
        if self.board.gravity {
            return 0;
        }
        let pw = self.board.pw;
        let w = self.width;
        let cell = |t: u32| (t as usize / w + 1) * pw + t as usize % w + 1;
        let mut made = 0;
        loop {
            let mut any = false;
            for k in 0..self.board.of_class.len() {
                if self.board.count[k] != 2 {
                    continue;
                }
                let mut two = [0u32; 2];
                let mut m = 0;
                for &t in &self.board.of_class[k] {
                    let t = t as usize;
                    if self.board.here[t / 64] & (1 << (t % 64)) != 0 {
                        two[m] = t as u32;
                        m += 1;
                    }
                }
                let (s, t) = (cell(two[0]), cell(two[1]));
                if self.board.joins(s, t) {
                    let ab = self.board.remove(s, t);
                    self.plan.push(ab);
                    made += 1;
                    any = true;
                }
            }
            if !any {
                return made;
            }
        }
    }

    fn undo_dominant(&mut self, made: usize) {
        let pw = self.board.pw;
        let w = self.width;
        for _ in 0..made {
            let (a, b) = self.plan.pop().expect("a dominant move");
            let cell = |t: u32| (t as usize / w + 1) * pw + t as usize % w + 1;
            self.board.put_back(cell(a), cell(b), (a, b));
        }
    }

    /// `Some(true)`: the moves in `plan` clear the board; `Some(false)`: no plan from here;
    /// `None`: out of budget. The board is as it was unless a plan is found.
    fn step(&mut self) -> Option<bool> {
        if self.board.left == 0 {
            return Some(true);
        }
        if self.nodes >= self.budget || self.stopped || self.board.walked > self.walk_limit {
            return None;
        }
        if self.nodes.is_multiple_of(64) && self.stop.as_ref().is_some_and(Stop::is_raised) {
            self.stopped = true;
            return None;
        }
        self.nodes += 1;
        let depth = self.plan.len();
        if self.pool.len() <= depth {
            self.pool.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.pool[depth]);
        let made = self.dominant();
        if self.board.left == 0 {
            self.pool[depth] = moves;
            return Some(true);
        }
        if self.dead.contains(self.board.key()) {
            self.undo_dominant(made);
            self.pool[depth] = moves;
            return Some(false);
        }
        let saved = self.board.gravity.then(|| self.board.grid.clone());
        let mut result = Some(false);
        'scan: for i in 0..self.board.order.len() {
            let s = self.board.order[i] as usize;
            if self.board.grid[s] >= WALL {
                continue;
            }
            self.board.moves_of(s, &mut moves);
            for k in 0..moves.len() {
                let t = moves[k];
                let ab = self.board.remove(s, t);
                self.plan.push(ab);
                let r = self.step();
                if r == Some(true) {
                    self.pool[depth] = moves;
                    return r;
                }
                self.plan.pop();
                match &saved {
                    Some(g) => {
                        self.board.grid.copy_from_slice(g);
                        for x in [ab.0, ab.1] {
                            let x = x as usize;
                            self.board.here[x / 64] |= 1 << (x % 64);
                            self.board.count[self.board.class[x] as usize] += 1;
                        }
                        self.board.left += 2;
                    }
                    None => self.board.put_back(s, t, ab),
                }
                if r.is_none() {
                    result = None;
                    break 'scan;
                }
            }
        }
        if result == Some(false) {
            self.dead.insert(self.board.key().into());
        }
        self.undo_dominant(made);
        self.pool[depth] = moves;
        result
    }
}

/// Positions the quick search visits before the board goes to the models (each a few
/// microseconds on an 18x8 deal). A clearable deal it misses is cleared by the play search
/// on the routes there; a dead deal pays this much for nothing, so it is kept small.
pub const BUDGET: usize = 5_000;

/// Positions of the first run of the search with gravity (the cells row by row), before it
/// starts again in a shuffled order ([`Search::run`]).
pub const FIRST_RUN: usize = 1_000;

/// Cells the search may walk per position of its budget on average: on large boards a
/// position costs more, and the budget is of work, not of positions alone.
pub const WALK_PER_POSITION: u64 = 2_000;

/// Positions [`another`] searches in all when [`exchange`] finds no second pairing.
pub const ANOTHER_BUDGET: usize = 20_000;

/// [`ANOTHER_BUDGET`] with gravity, where no model can look for a second pairing on a
/// player's board (the step model and the position graph are built for small boards only).
pub const GRAVITY_ANOTHER_BUDGET: usize = 1_000_000;

/// [`PER_PARTNER`] with gravity.
pub const GRAVITY_PER_PARTNER: usize = 20_000;

/// Positions [`another`] searches from each other partner it tries.
pub const PER_PARTNER: usize = 2_000;

/// Exchanges of partners [`exchange`] tries before [`another`] searches.
pub const EXCHANGES: usize = 20;

/// Positions the quick search visits with gravity (where it is the only search): about
/// 50 bytes each remembered; 18x8 deals that need the most take about 50,000.
pub const GRAVITY_BUDGET: usize = 2_000_000;

/// Searches `p` for a plan within `budget` positions (see the module's comment).
pub fn search(p: &Shisen, budget: usize, stop: Option<&Stop>) -> Found {
    Search::new(p, budget, stop).run()
}

/// A plan whose pairing differs from the plan `first`'s by two pairs of one kind exchanging
/// partners (`a-b`, `c-d` become `a-c`, `b-d` or `a-d`, `b-c`), if one of at most `tries`
/// exchanges still plays: `first` is replayed, the new pairs taking the old ones' turns, and
/// every move is checked playable at its turn.
pub fn exchange(p: &Shisen, first: &[(usize, usize)], tries: usize) -> Option<Vec<(usize, usize)>> {
    let mut base = Board::new(p);
    let mut scratch = Vec::new();
    let mut left = tries;
    let n = first.len();
    for i in 0..n {
        let (a, b) = first[i];
        let k = base.class[a];
        let sa = base.cell_of(a as u32)?;
        scratch.clear();
        base.reach(sa, &mut scratch);
        for j in i + 1..n {
            let (c, d) = first[j];
            if base.class[c] != k {
                continue;
            }
            for (x, y) in [((a, c), (b, d)), ((a, d), (b, c))] {
                // The new first pair must be playable now.
                let Some(sx) = base.cell_of(x.1 as u32) else {
                    continue;
                };
                if !scratch.contains(&sx) {
                    continue;
                }
                if left == 0 {
                    return None;
                }
                left -= 1;
                let mut board = base.clone();
                let mut plan: Vec<(usize, usize)> = first[..i].to_vec();
                let mut ok = true;
                for (m, &mv) in first.iter().enumerate().skip(i) {
                    let mv = if m == i {
                        x
                    } else if m == j {
                        y
                    } else {
                        mv
                    };
                    let (Some(s), Some(t)) =
                        (board.cell_of(mv.0 as u32), board.cell_of(mv.1 as u32))
                    else {
                        ok = false;
                        break;
                    };
                    if !board.joins(s, t) {
                        ok = false;
                        break;
                    }
                    board.remove(s, t);
                    plan.push(mv);
                }
                if ok {
                    return Some(plan);
                }
            }
        }
        let sb = base.cell_of(b as u32)?;
        base.remove(sa, sb);
    }
    None
}

/// True when `plan` (tiles by starting cell) plays from `board`: each move's tiles are on the
/// board and can be joined at its turn.
fn plays(mut board: Board, plan: &[(usize, usize)]) -> bool {
    for &(a, b) in plan {
        let (Some(s), Some(t)) = (board.cell_of(a as u32), board.cell_of(b as u32)) else {
            return false;
        };
        if !board.joins(s, t) {
            return false;
        }
        board.remove(s, t);
    }
    true
}

/// With gravity, a plan whose pairing differs from the plan `first`'s by one tile: when a
/// move of `first` removes a tile `x` that stands right above or below a tile `c` of its kind,
/// and `c` can be joined to `x`'s partner at that turn, removing `c` instead leaves the same
/// kinds in the same cells (what stood above falls alike, `x` taking `c`'s place), so the rest
/// of `first`, with `x` playing `c`'s moves, plays as before; `x`'s partner goes with `c`
/// instead. Each candidate is replayed before it is returned. `None` without gravity.
pub fn twin(p: &Shisen, first: &[(usize, usize)]) -> Option<Vec<(usize, usize)>> {
    if !p.rules.gravity {
        return None;
    }
    let mut board = Board::new(p);
    for (i, &(a, b)) in first.iter().enumerate() {
        let (sa, sb) = (board.cell_of(a as u32)?, board.cell_of(b as u32)?);
        for (x, sx, sy) in [(a, sa, sb), (b, sb, sa)] {
            for sc in [sx - board.pw, sx + board.pw] {
                let c = board.grid[sc];
                if c >= WALL
                    || c as usize == a
                    || c as usize == b
                    || board.class[c as usize] != board.class[x]
                    || !board.joins(sc, sy)
                {
                    continue;
                }
                let c = c as usize;
                let swap = |t: usize| if t == c { x } else { t };
                let mut plan = first[..i].to_vec();
                plan.push(if x == a { (c, b) } else { (a, c) });
                plan.extend(first[i + 1..].iter().map(|&(s, t)| (swap(s), swap(t))));
                if plays(board.clone(), &plan[i..]) {
                    return Some(plan);
                }
            }
        }
        board.remove(sa, sb);
    }
    None
}

/// A plan whose pairing differs from the plan `first`'s, within `budget` positions: `first`
/// is replayed, and before each of its moves `(a, b)` every other tile of `a`'s kind that `a`
/// can be joined to then is tried as `a`'s partner, the search going on from there for at
/// most [`PER_PARTNER`] positions (a partner that leads into a large dead part of the game
/// must not take the whole budget). Any plan found pairs `a` otherwise, so it is a second
/// solution.
pub fn another(
    p: &Shisen,
    first: &[(usize, usize)],
    budget: usize,
    stop: Option<&Stop>,
) -> Option<Vec<(usize, usize)>> {
    if p.rules.gravity {
        return another_backwards(p, first, budget, stop);
    }
    let mut s = Search::new(p, budget, stop);
    let mut moves = Vec::new();
    for &(a, b) in first {
        let (sa, sb) = (s.board.cell_of(a as u32)?, s.board.cell_of(b as u32)?);
        moves.clear();
        s.board.reach(sa, &mut moves);
        let k = s.board.class[a];
        let (grid, class) = (&s.board.grid, &s.board.class);
        moves.retain(|&t| t != sb && class[grid[t] as usize] == k);
        for &t in &moves {
            let saved = s.board.grid.clone();
            let ab = s.board.remove(sa, t);
            s.plan.push(ab);
            s.budget = (s.nodes + PER_PARTNER).min(budget);
            if s.step() == Some(true) {
                return Some(s.pairs());
            }
            s.plan.pop();
            s.board.grid.copy_from_slice(&saved);
            for x in [ab.0, ab.1] {
                let x = x as usize;
                s.board.here[x / 64] |= 1 << (x % 64);
                s.board.count[s.board.class[x] as usize] += 1;
            }
            s.board.left += 2;
            if s.nodes >= budget || s.stopped || s.board.walked > s.walk_limit {
                return None;
            }
        }
        let ab = s.board.remove(sa, sb);
        s.plan.push(ab);
    }
    None
}

/// [`another`] with gravity: the moves of `first` are looked at from the last to the first,
/// each of its two tiles with each other partner of its kind it can be joined to then. Near
/// the end few tiles are left, so a search from there is short; from the front, the first
/// moves' searches (on hard deals as long as the first plan's) spent the whole budget.
fn another_backwards(
    p: &Shisen,
    first: &[(usize, usize)],
    budget: usize,
    stop: Option<&Stop>,
) -> Option<Vec<(usize, usize)>> {
    let mut s = Search::new(p, budget, stop);
    // The board before each move of `first`.
    let mut grids = Vec::with_capacity(first.len());
    for &(a, b) in first {
        grids.push(s.board.grid().to_vec());
        let (sa, sb) = (s.board.cell_of(a as u32)?, s.board.cell_of(b as u32)?);
        s.board.remove(sa, sb);
    }
    let mut partners = Vec::new();
    for i in (0..first.len()).rev() {
        let (a, b) = first[i];
        for (x, y) in [(a, b), (b, a)] {
            s.board.restore(&grids[i]);
            let (sx, sy) = (s.board.cell_of(x as u32)?, s.board.cell_of(y as u32)?);
            partners.clear();
            s.board.reach(sx, &mut partners);
            let k = s.board.class[x];
            let (grid, class) = (&s.board.grid, &s.board.class);
            partners.retain(|&t| t != sy && class[grid[t] as usize] == k);
            for &t in &partners {
                s.board.restore(&grids[i]);
                s.plan.clear();
                s.plan
                    .extend(first[..i].iter().map(|&(u, v)| (u as u32, v as u32)));
                let xt = s.board.remove(sx, t);
                s.plan.push(xt);
                s.budget = (s.nodes + GRAVITY_PER_PARTNER).min(budget);
                if s.step() == Some(true) {
                    return Some(s.pairs());
                }
                if s.nodes >= budget || s.stopped || s.board.walked > s.walk_limit {
                    return None;
                }
            }
        }
    }
    None
}

/// The plan of a list of pairs of tiles (by starting cell) in order: each move with the
/// cells its tiles are in at its turn (they fall with gravity) and the pair test's line then
/// (an empty line where there is none, which the rule checker refuses).
pub fn replay(p: &Shisen, pairs: &[(usize, usize)]) -> Plan {
    use super::pair::{join, Grid};
    use super::play::Position;
    let w = p.width;
    let mut pos = Position::start(p);
    let mut moves = Vec::with_capacity(pairs.len());
    for &(x, y) in pairs {
        let (cx, cy) = (pos.cell_of(x).unwrap_or(x), pos.cell_of(y).unwrap_or(y));
        let occupied: Vec<bool> = pos.at.iter().map(|t| t.is_some()).collect();
        let grid = Grid {
            width: w,
            height: p.height,
            outline: p.rules.outline,
            occupied: &occupied,
        };
        let at = |c: usize| (c / w, c % w);
        let path = join(&grid, at(cx), at(cy)).unwrap_or_default();
        pos.remove(p, cx, cy);
        moves.push(super::Move {
            tiles: [x, y],
            cells: [at(cx), at(cy)],
            path,
        });
    }
    Plan { moves }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::rng;
    use crate::shisen::format::{parse, ReadOptions};
    use crate::shisen::play::clearable_by_brute_force;
    use crate::shisen::Rules;
    use rand::seq::SliceRandom;

    fn board(text: &str) -> Shisen {
        parse("t", text, &ReadOptions::default()).unwrap().remove(0)
    }

    fn random(w: usize, h: usize, kinds: usize, per: usize, rules: Rules, seed: u64) -> Shisen {
        let mut cells: Vec<Option<usize>> = (0..kinds)
            .flat_map(|k| std::iter::repeat_n(Some(k), per))
            .collect();
        cells.resize(w * h, None);
        cells.shuffle(&mut rng(seed));
        if rules.gravity {
            for c in 0..w {
                crate::shisen::rules::fall(&mut cells, w, c);
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
    fn plans_replay_and_verdicts_agree_with_the_brute_force() {
        // Small random boards under every rule set: a plan the search finds passes the rule
        // checker, and it finds one exactly when the brute force clears the board.
        let mut seen = [0usize; 2];
        for trial in 0..300u64 {
            let rules = Rules {
                outline: trial % 3 == 0,
                gravity: trial % 2 == 1,
                chinese: false,
            };
            let (w, h, kinds, per) =
                [(4, 3, 3, 4), (4, 4, 4, 4), (5, 4, 5, 4), (6, 3, 9, 2)][trial as usize % 4];
            let p = random(w, h, kinds, per, rules, trial);
            let want = clearable_by_brute_force(&p);
            match search(&p, 10_000_000, None) {
                Found::Plan(pairs) => {
                    assert!(want, "trial {trial}: a plan on a dead board");
                    assert_eq!(
                        crate::shisen::rules::check(&p, &replay(&p, &pairs)),
                        Ok(()),
                        "trial {trial}"
                    );
                }
                Found::Dead => assert!(!want, "trial {trial}: called dead"),
                Found::Unknown => panic!("trial {trial}: undecided"),
            }
            seen[usize::from(want)] += 1;
        }
        assert!(seen[0] >= 20 && seen[1] >= 20, "{seen:?}");
    }

    #[test]
    fn joins_agrees_with_the_pair_test() {
        use crate::shisen::pair::{join, Grid};
        use crate::shisen::play::Position;
        // Random games on random boards, with and without the ring: at every position, for
        // every two tiles, the board's quick test and the seed's pair test agree.
        for trial in 0..40u64 {
            let rules = Rules {
                outline: trial % 2 == 0,
                ..Rules::default()
            };
            let p = random(7, 5, 8, 4, rules, trial);
            let mut b = Board::new(&p);
            let mut pos = Position::start(&p);
            let w = p.width;
            let pad = |c: usize| (c / w + 1) * (w + 2) + c % w + 1;
            loop {
                let occupied: Vec<bool> = pos.at.iter().map(|t| t.is_some()).collect();
                let g = Grid {
                    width: w,
                    height: p.height,
                    outline: rules.outline,
                    occupied: &occupied,
                };
                let here: Vec<usize> = (0..occupied.len()).filter(|&c| occupied[c]).collect();
                for &x in &here {
                    for &y in &here {
                        if x != y {
                            let seed = join(&g, (x / w, x % w), (y / w, y % w)).is_some();
                            assert_eq!(b.joins(pad(x), pad(y)), seed, "trial {trial}");
                        }
                    }
                }
                let Some(&(x, y)) = pos.playable(&p).first() else {
                    break;
                };
                pos.remove(&p, x, y);
                b.remove(pad(x), pad(y));
            }
        }
    }

    /// KShisen-style deals of `size`, with or without gravity.
    fn kshisen(size: (usize, usize), gravity: bool) -> crate::shisen::generate::Options {
        let rules = Rules {
            gravity,
            ..Rules::default()
        };
        crate::shisen::generate::Options::from_args(
            Some(size),
            None,
            None,
            None,
            None,
            false,
            rules,
        )
        .unwrap()
    }

    #[test]
    fn a_second_plan_pairs_some_tile_otherwise() {
        // KShisen deals, with and without gravity: the exchange (or the search from another
        // partner) gives a plan the rule checker passes, with another pairing.
        for (size, gravity) in [((18, 8), false), ((30, 16), false), ((18, 8), true)] {
            let o = kshisen(size, gravity);
            for seed in 1..=3 {
                let p = crate::shisen::generate::deal(&o, &mut rng(seed));
                let Found::Plan(first) = search(&p, GRAVITY_BUDGET, None) else {
                    continue;
                };
                let second = exchange(&p, &first, EXCHANGES)
                    .or_else(|| another(&p, &first, BUDGET, None))
                    .expect("a second pairing on a KShisen deal");
                let (a, b) = (replay(&p, &first), replay(&p, &second));
                assert_eq!(crate::shisen::rules::check(&p, &a), Ok(()));
                assert_eq!(crate::shisen::rules::check(&p, &b), Ok(()));
                assert_ne!(a.partners(p.cells_len()), b.partners(p.cells_len()));
            }
        }
    }

    #[test]
    fn with_gravity_a_twin_or_a_later_partner_gives_a_second_pairing() {
        // KShisen deals with gravity: each second plan passes the rule checker with another
        // pairing; a twin (a tile of the kind standing next to a removed one) is found on
        // some of them, and the search from the last move back finds one on the others.
        let o = kshisen((14, 6), true);
        let (mut twins, mut later) = (0, 0);
        for seed in 1..=8 {
            let p = crate::shisen::generate::deal(&o, &mut rng(seed));
            let Found::Plan(first) = search(&p, GRAVITY_BUDGET, None) else {
                continue;
            };
            let second = match twin(&p, &first) {
                Some(s) => {
                    twins += 1;
                    s
                }
                None => {
                    later += 1;
                    another(&p, &first, GRAVITY_ANOTHER_BUDGET, None)
                        .expect("a second pairing on a KShisen deal")
                }
            };
            let (a, b) = (replay(&p, &first), replay(&p, &second));
            assert_eq!(crate::shisen::rules::check(&p, &a), Ok(()));
            assert_eq!(crate::shisen::rules::check(&p, &b), Ok(()));
            assert_ne!(a.partners(p.cells_len()), b.partners(p.cells_len()));
        }
        assert!(twins > 0, "no twin on 8 deals");
        assert!(
            later > 0,
            "a twin on every deal: the search from the back is not tried"
        );
        // Without gravity a twin is no second plan (the cells left differ).
        let p = board("A A\nA A\n");
        assert_eq!(twin(&p, &[(0, 1), (2, 3)]), None);
    }

    #[test]
    fn the_ring_and_gravity_change_what_can_go() {
        assert!(matches!(
            search(&board("A B B A\n"), 100, None),
            Found::Plan(_)
        ));
        assert_eq!(
            search(&board("# shisen: no-outline\nA B\nB A\n"), 100, None),
            Found::Dead
        );
        let raised = Stop::new();
        raised.raise();
        let p = board(&std::fs::read_to_string("puzzles/shisen/kshisen-18x8.shisen").unwrap());
        assert_eq!(search(&p, 1_000_000, Some(&raised)), Found::Unknown);
        let Found::Plan(pairs) = search(&p, 1_000_000, None) else {
            panic!("the 18x8 deal clears");
        };
        assert_eq!(crate::shisen::rules::check(&p, &replay(&p, &pairs)), Ok(()));
    }
}
