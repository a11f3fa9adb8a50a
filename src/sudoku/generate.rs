//! The Sudoku generator: a random full grid drawn from the SAT solver, then givens removed one
//! symmetry orbit at a time while SAT still proves the puzzle unique ([`crate::generate`]),
//! steered towards a grade band, a clue-count range and (on request) minimality, with a
//! bounded number of attempts.
//!
//! What the words mean here:
//! - an *orbit* is a set of cells the chosen [`Symmetry`] maps onto each other; givens are
//!   removed (and so kept) an orbit at a time, so the pattern of givens has the symmetry;
//! - *orbit-minimal*: no whole orbit can be removed without losing uniqueness. Every puzzle
//!   reduced without a clue floor or grade ceiling is orbit-minimal;
//! - *minimal* (`--minimal`): no single given can be removed without losing uniqueness. With
//!   [`Symmetry::None`] the two are the same. With a symmetry, an orbit-minimal puzzle is
//!   checked given by given; when one could still go, the grid is reduced again with the
//!   orbits of such givens tried first ([`MINIMAL_ROUNDS`] times), then a new grid is tried.
//!   Only puzzles that pass the check are returned.
//!
//! Difficulty comes two ways, kept apart: a *grade level* ([`LEVELS`], from the Sudoku
//! strategy engine's [`Explain`] grade; removals that would push the grade above the level are
//! refused, and the result must reach the level), and a *clue count* (a range, or a named band
//! from [`CLUE_BANDS`]; the low end is a floor for removals, the high end must be reached).
//! Every target has a bounded number of attempts (one fresh grid each); missing it is reported
//! with what was seen, never by looping on.
//!
//! Plain reduction leaves 21 to 27 givens on 9x9. When an attempt stays above the clue range,
//! a *low-clue search* ([`low_clue_search`]) goes on with the same grid: a local search over
//! its orbit-minimal puzzles (remove an orbit, add back orbits that separate the other
//! solutions, reduce again), a bounded number of moves per grid. It runs only then, so every
//! puzzle plain reduction finds stays the same.

use super::strategies::grade_within;
use super::strategies::grid::Geometry;
use super::strategies::singles::Singles;
use super::{model, Grid, Sudoku};
use crate::cnf::{Assignment, Lit};
use crate::error::{Error, Result};
use crate::explain::{verify_steps, Explain, ExplainOptions, Grade};
use crate::generate::{
    random_solution, removable_givens, rng, stop_between, stop_point, Generated,
};
use crate::puzzle::{GivenMode, Puzzle};
use crate::solver::{Lite, Outcome as SatOutcome, Session, Stop, Varisat};
use rand::seq::SliceRandom;

/// The grade levels, easiest first, as the Sudoku strategy engine names them.
pub const LEVELS: [&str; 5] = crate::explain::LEVELS;

/// The clue-count bands of a 9x9 puzzle as in the generator of the Korean seed article
/// (name, fewest givens, most givens). Other sizes scale them by the number of cells.
pub const CLUE_BANDS: [(&str, usize, usize); 4] = [
    ("easy", 36, 45),
    ("medium", 27, 35),
    ("hard", 19, 26),
    ("evil", 16, 18),
];

/// `--minimal` with a symmetry: how many reductions one grid gets. An orbit-minimal puzzle
/// that is not minimal sends the orbits of its removable givens to the front of the order,
/// and the grid is reduced again from full.
pub const MINIMAL_ROUNDS: usize = 8;

/// How many attempts (fresh grids) a puzzle gets by default before the target counts as missed.
pub const DEFAULT_ATTEMPTS: usize = 100;

/// Moves of the low-clue search on each grid whose plain reduction stayed above the clue range
/// ([`NEAR_MOVES`] on a grid that comes close), so `--attempts N` bounds the search at
/// `N * NEAR_MOVES` moves.
pub const SEARCH_MOVES: usize = 300;

/// Moves of the low-clue search on a grid where it comes within one orbit of the clue range
/// (instead of [`SEARCH_MOVES`]): such grids are the ones worth staying on.
pub const NEAR_MOVES: usize = 10_000;

/// The symmetry of the pattern of givens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// Any pattern.
    None,
    /// 180° rotation about the centre: r,c and (n-1-r),(n-1-c) are both given or both open.
    Rotational,
    /// 90° rotation: the four cells r,c → c,(n-1-r) → ... together.
    QuarterTurn,
    /// Left-right mirror about the vertical middle line: r,c with r,(n-1-c).
    Mirror,
    /// Mirror about the main diagonal (top left to bottom right): r,c with c,r.
    Diagonal,
}

impl Symmetry {
    /// Every symmetry, in the order `--symmetry` lists them.
    pub const ALL: [Symmetry; 5] = [
        Symmetry::None,
        Symmetry::Rotational,
        Symmetry::QuarterTurn,
        Symmetry::Mirror,
        Symmetry::Diagonal,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
            Symmetry::QuarterTurn => "quarter-turn",
            Symmetry::Mirror => "mirror",
            Symmetry::Diagonal => "diagonal",
        }
    }

    /// The symmetry for a name or a common alias (`180`, `90`, `quarter`, `horizontal`...).
    pub fn from_name(s: &str) -> Option<Symmetry> {
        Some(match s.to_ascii_lowercase().as_str() {
            "none" | "no" | "random" => Symmetry::None,
            "rotational" | "rotation" | "180" | "rotational-180" | "central" => {
                Symmetry::Rotational
            }
            "quarter-turn" | "quarter" | "quarterturn" | "90" | "rotational-90" => {
                Symmetry::QuarterTurn
            }
            "mirror" | "horizontal" | "left-right" => Symmetry::Mirror,
            "diagonal" | "transpose" => Symmetry::Diagonal,
            _ => return None,
        })
    }

    /// The cell (row-major index) that `cell` maps to under one application of the symmetry.
    fn map(self, n: usize, cell: usize) -> usize {
        let (r, c) = (cell / n, cell % n);
        let (r2, c2) = match self {
            Symmetry::None => (r, c),
            Symmetry::Rotational => (n - 1 - r, n - 1 - c),
            Symmetry::QuarterTurn => (c, n - 1 - r),
            Symmetry::Mirror => (r, n - 1 - c),
            Symmetry::Diagonal => (c, r),
        };
        r2 * n + c2
    }

    /// The orbit of a cell: every cell the symmetry's repeated application reaches, sorted.
    pub fn orbit(self, n: usize, cell: usize) -> Vec<usize> {
        let mut orbit = vec![cell];
        let mut next = self.map(n, cell);
        while next != cell {
            orbit.push(next);
            next = self.map(n, next);
        }
        crate::sort::all(&mut orbit);
        orbit
    }

    /// The orbits of an `n` x `n` grid: each cell in exactly one, ordered by their first cell.
    pub fn orbits(self, n: usize) -> Vec<Vec<usize>> {
        let mut seen = vec![false; n * n];
        let mut out = Vec::new();
        for cell in 0..n * n {
            if !seen[cell] {
                let orbit = self.orbit(n, cell);
                for &c in &orbit {
                    seen[c] = true;
                }
                out.push(orbit);
            }
        }
        out
    }

    /// True when the pattern of givens of `cells` (row-major, 0 open) has this symmetry.
    pub fn holds(self, n: usize, cells: &[u8]) -> bool {
        (0..n * n).all(|i| (cells[i] != 0) == (cells[self.map(n, i)] != 0))
    }
}

/// The position of a level word in [`LEVELS`].
pub fn level_rank(level: &str) -> Option<usize> {
    LEVELS.iter().position(|&l| l == level)
}

/// A named clue band for an `size` x `size` grid: the 9x9 band of [`CLUE_BANDS`] scaled by the
/// number of cells (rounded), or `None` for an unknown name.
pub fn clue_band(name: &str, size: usize) -> Option<(usize, usize)> {
    let &(_, lo, hi) = CLUE_BANDS.iter().find(|(b, _, _)| *b == name)?;
    let cells = (size * size) as f64;
    let scale = |k: usize| ((k as f64) * cells / 81.0).round() as usize;
    Some((scale(lo), scale(hi)))
}

/// The fewest givens a puzzle of this shape can have and still be unique, where it is known,
/// with where that fact comes from.
pub fn known_minimum(
    size: usize,
    box_rows: usize,
    box_cols: usize,
) -> Option<(usize, &'static str)> {
    match (size, box_rows, box_cols) {
        (9, 3, 3) => Some((
            17,
            "no 9x9 Sudoku with 16 givens has a unique solution (McGuire, Tugemann and Civario, 2012: an exhaustive search), so 17 is the fewest",
        )),
        (4, 2, 2) => Some((
            4,
            "no 4x4 Sudoku with 3 givens has a unique solution (every 3 cells of all 288 grids checked: none), so 4 is the fewest",
        )),
        _ => None,
    }
}

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub size: usize,
    pub box_rows: usize,
    pub box_cols: usize,
    pub symmetry: Symmetry,
    /// A grade level to hit, as an index into [`LEVELS`].
    pub level: Option<usize>,
    /// The number of givens wanted: fewest, most (both inclusive).
    pub clues: Option<(usize, usize)>,
    /// No single given may be removable (see the module documentation).
    pub minimal: bool,
    /// Fresh grids to try before the target counts as missed.
    pub attempts: usize,
}

impl Options {
    /// Plain options for a grid shape: no symmetry, no target, the default attempts.
    pub fn new(size: usize, box_rows: usize, box_cols: usize) -> Options {
        Options {
            size,
            box_rows,
            box_cols,
            symmetry: Symmetry::None,
            level: None,
            clues: None,
            minimal: false,
            attempts: DEFAULT_ATTEMPTS,
        }
    }

    /// Checks the options before any work, and adjusts a clue range that starts below the
    /// known minimum (returned as a note). `Err` says what cannot be generated and why.
    pub fn validate(&mut self) -> std::result::Result<Vec<String>, String> {
        let n = self.size;
        let mut notes = Vec::new();
        if !(4..=25).contains(&n) {
            return Err(format!("Sudoku generation supports sides 4 to 25, not {n}"));
        }
        if self.box_rows * self.box_cols != n {
            return Err(format!(
                "boxes of {}x{} do not tile a {n}x{n} grid",
                self.box_rows, self.box_cols
            ));
        }
        if self.attempts == 0 {
            return Err("--attempts must be at least 1".into());
        }
        if n > 16 && self.minimal {
            notes.push(format!(
                "--minimal on {n}x{n}: near minimality a single solve can take the solver minutes; expect a long run"
            ));
        }
        let Some((mut lo, hi)) = self.clues else {
            if let Some(f) = default_floor(n).filter(|_| !self.minimal) {
                notes.push(format!(
                    "{n}x{n}: removal stops at {f} givens (half the cells) unless --clues or --minimal says otherwise; below that single solves get slow"
                ));
            }
            return Ok(notes);
        };
        if lo > hi {
            return Err(format!(
                "the clue range {lo}-{hi} is empty (the fewest is above the most)"
            ));
        }
        if hi > n * n {
            return Err(format!(
                "a {n}x{n} grid has {} cells, so it cannot have {hi} givens",
                n * n
            ));
        }
        if let Some((min, why)) = known_minimum(n, self.box_rows, self.box_cols) {
            if hi < min {
                return Err(format!(
                    "{why}: no puzzle with {} givens exists; try --clues {min}",
                    range_text(lo, hi)
                ));
            }
            if lo < min {
                notes.push(format!(
                    "{why}: the clue range {lo}-{hi} becomes {min}-{hi}"
                ));
                lo = min;
            }
        }
        if n > 16 && !self.minimal && lo * 100 < n * n * 45 {
            notes.push(format!(
                "{n}x{n} below about 45% of the cells given ({} givens): single solves there can take the solver seconds to minutes; expect a long run",
                n * n * 45 / 100
            ));
        }
        // With symmetric orbits only sums of orbit sizes are possible counts.
        let sizes: Vec<usize> = self.symmetry.orbits(n).iter().map(Vec::len).collect();
        let reachable = reachable_counts(&sizes);
        if !(lo..=hi).any(|k| reachable[k]) {
            let near: Vec<String> = (0..reachable.len())
                .filter(|&k| reachable[k])
                .filter(|&k| k + 4 >= lo && k <= hi + 4)
                .map(|k| k.to_string())
                .collect();
            return Err(format!(
                "with {} symmetry a {n}x{n} puzzle cannot have {} givens (givens come in orbits of {}); possible counts nearby: {}",
                self.symmetry.name(),
                range_text(lo, hi),
                orbit_sizes_text(&sizes),
                near.join(", ")
            ));
        }
        self.clues = Some((lo, hi));
        Ok(notes)
    }
}

/// Which sums of orbit sizes are possible (index = number of givens).
fn reachable_counts(sizes: &[usize]) -> Vec<bool> {
    let total: usize = sizes.iter().sum();
    let mut can = vec![false; total + 1];
    can[0] = true;
    for &s in sizes {
        for k in (s..=total).rev() {
            if can[k - s] {
                can[k] = true;
            }
        }
    }
    can
}

fn range_text(lo: usize, hi: usize) -> String {
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}-{hi}")
    }
}

fn orbit_sizes_text(sizes: &[usize]) -> String {
    let mut distinct: Vec<usize> = sizes.to_vec();
    crate::sort::all(&mut distinct);
    distinct.dedup();
    let words: Vec<String> = distinct.iter().map(|s| s.to_string()).collect();
    words.join(" or ")
}

/// A generated puzzle with its proof of work.
#[derive(Clone, Debug)]
pub struct Found {
    pub puzzle: Sudoku,
    /// The only solution (SAT proved it unique; it passed the rule checker).
    pub solution: Grid,
    /// The grade from the strategy engine (with solver fallback, every step verified).
    pub grade: Grade,
    /// Which attempt (1-based) gave it.
    pub attempts: usize,
    /// When the low-clue search found it: the givens plain reduction left on its grid, and
    /// the moves the search made there.
    pub searched: Option<(usize, usize)>,
}

/// What the attempts saw when the target was missed.
#[derive(Clone, Debug, Default)]
pub struct Miss {
    pub attempts: usize,
    /// The fewest and most givens among the reduced puzzles.
    pub fewest: Option<usize>,
    pub most: Option<usize>,
    /// How many reduced puzzles got each grade level.
    pub levels: Vec<(String, usize)>,
    /// Orbit-minimal puzzles thrown away because a single given could still go (`--minimal`).
    pub not_minimal: usize,
    /// Moves the low-clue search made, over all grids.
    pub search_moves: usize,
    /// The fewest givens of a unique puzzle the low-clue search reached.
    pub search_fewest: Option<usize>,
}

/// The outcome of [`generate`].
#[derive(Clone, Debug)]
pub enum Outcome {
    Found(Box<Found>),
    Missed(Miss),
}

impl Miss {
    /// Why the target was missed, for a person.
    pub fn message(&self, opts: &Options) -> String {
        let n = opts.size;
        let mut want = Vec::new();
        if let Some(l) = opts.level {
            want.push(format!("graded {}", LEVELS[l]));
        }
        if let Some((lo, hi)) = opts.clues {
            want.push(format!("with {} givens", range_text(lo, hi)));
        }
        if opts.minimal {
            want.push("minimal".into());
        }
        let mut s = format!(
            "no {n}x{n} puzzle {} in {} attempts",
            want.join(", "),
            self.attempts
        );
        if let (Some(f), Some(m)) = (self.fewest, self.most) {
            let had = if f == m {
                format!("{f}")
            } else {
                format!("{f} to {m}")
            };
            s.push_str(&format!("; the reduced puzzles had {had} givens"));
        }
        if let Some(f) = self.search_fewest {
            s.push_str(&format!(
                "; the low-clue search ({} moves) got down to {f} givens",
                self.search_moves
            ));
        }
        if !self.levels.is_empty() {
            let seen: Vec<String> = self
                .levels
                .iter()
                .map(|(l, k)| format!("{l} {k}"))
                .collect();
            s.push_str(&format!("; grades seen: {}", seen.join(", ")));
        }
        if let Some(l) = opts.level {
            if !self
                .levels
                .iter()
                .any(|(seen, _)| level_rank(seen) == Some(l))
            {
                s.push_str(&format!(
                    "; none of them graded {}: the grade comes from the hardest technique a puzzle needs, and random reductions land on the harder levels rarely",
                    LEVELS[l]
                ));
                if LEVELS[l] == "extreme" && n == 9 {
                    // cbg-000 (Berthier's controlled-bias sample of random minimal puzzles):
                    // 1,177 of 21,375 have a Sudoku Explainer rating of 7.5 or more.
                    s.push_str(" (about 1 random minimal 9x9 puzzle in 18 rates 7.5 or more on Sudoku Explainer's scale, fewer under a symmetry)");
                }
            }
        }
        if self.not_minimal > 0 {
            s.push_str(&format!(
                "; {} were orbit-minimal under {} symmetry but not minimal",
                self.not_minimal,
                opts.symmetry.name()
            ));
        }
        if let (Some((lo, _)), Some(f)) = (opts.clues, self.fewest) {
            if f > lo && n == 9 {
                s.push_str(
                    ". Removing givens at random rarely gets a 9x9 puzzle below about 21 givens",
                );
                if self.search_moves > 0 && opts.symmetry == Symmetry::None {
                    s.push_str("; the low-clue search after it gets 20 or 19 in about a second, 18 on about one grid in a few hundred (try --attempts 500), and 17 practically never (Royle's 49,158 puzzles with 17 givens, believed to be all of them, come from fewer than 1 in 100,000 of the 5.47 billion essentially different grids)");
                } else if self.search_moves > 0 {
                    s.push_str(&format!(
                        "; the low-clue search after it moves whole orbits under {} symmetry and rarely gets below 21 givens",
                        opts.symmetry.name()
                    ));
                }
            }
        }
        s.push_str(". Try a wider target or more --attempts");
        s
    }
}

/// The puzzle left by the kept givens of a full grid.
fn puzzle_from(empty: &Sudoku, grid: &[u8], kept: &[bool]) -> Sudoku {
    let mut p = empty.clone();
    for (i, cell) in p.cells.iter_mut().enumerate() {
        *cell = if kept[i] { grid[i] } else { 0 };
    }
    p
}

/// The strategy engine's grade of a unique puzzle (fallback on, uniqueness techniques allowed),
/// after every step was checked against the solution.
pub fn grade(p: &Sudoku, solution: &Grid) -> Result<Grade> {
    let e = p.explain(
        solution,
        ExplainOptions {
            fallback: true,
            unique: true,
        },
    );
    verify_steps(&p.rows(solution), &e.steps).map_err(|why| {
        Error::Bug(format!(
            "the Sudoku strategy engine made a wrong step while grading: {why}"
        ))
    })?;
    Ok(e.grade)
}

/// The order in which orbits are tried. On grids of 256 cells and more, the first orbits go in
/// groups (a fast path: with most givens still there, a whole group almost always goes in one
/// solve): half of the `expected` removals in groups of about `expected / 8` orbits, half of
/// the rest in groups half that size, and so on down to pairs. Then every orbit once on its own,
/// which is what makes the result orbit-minimal (orbits already gone are skipped for free).
pub fn schedule(orbits: &[Vec<usize>], n: usize, expected: usize) -> Vec<Vec<usize>> {
    let mut groups = Vec::new();
    if n * n >= 256 {
        let mut left = expected.min(orbits.len());
        let mut size = 1;
        while size * 2 <= left / 8 {
            size *= 2;
        }
        let mut start = 0;
        while size >= 2 {
            let take = left / 2 / size * size;
            for c in orbits[start..start + take].chunks(size) {
                groups.push(c.concat());
            }
            start += take;
            left -= take;
            size /= 2;
        }
    }
    groups.extend(orbits.iter().cloned());
    groups
}

/// A random relabelling of a full grid that keeps it a solution: values permuted, rows
/// permuted within their band of boxes and bands among themselves, the same for columns, and
/// (square boxes) a transposition half of the time. It spreads the solver's own preferences in
/// [`random_solution`] over all grids of the same shape.
pub fn shuffle_grid(s: &Sudoku, grid: &[u8], rand: &mut crate::generate::Rand) -> Vec<u8> {
    use rand::Rng;
    let n = s.size;
    let mut values: Vec<u8> = (1..=n as u8).collect();
    values.shuffle(rand);
    let lines = |rand: &mut crate::generate::Rand, per: usize| -> Vec<usize> {
        let mut bands: Vec<usize> = (0..n / per).collect();
        bands.shuffle(rand);
        let mut order = Vec::with_capacity(n);
        for b in bands {
            let mut inner: Vec<usize> = (b * per..(b + 1) * per).collect();
            inner.shuffle(rand);
            order.extend(inner);
        }
        order
    };
    let rows = lines(rand, s.box_rows);
    let cols = lines(rand, s.box_cols);
    let transpose = s.box_rows == s.box_cols && rand.gen_bool(0.5);
    let mut out = vec![0u8; n * n];
    for r in 0..n {
        for c in 0..n {
            let v = values[grid[rows[r] * n + cols[c]] as usize - 1];
            let at = if transpose { c * n + r } else { r * n + c };
            out[at] = v;
        }
    }
    out
}

/// Solver decisions [`random_solution`] spends on a grid of side `n`: a quarter of the cells on
/// small grids (each solve re-decides every wish kept so far, so a decision per cell, as
/// before, made drawing the grid 30% of `generate sudoku`'s instructions); on large ones each
/// solve costs more. [`shuffle_grid`] does the rest of the mixing.
fn decisions(n: usize) -> usize {
    if n <= 9 {
        n * n / 4
    } else {
        16
    }
}

/// The default floor of givens for large grids: on sides over 16 the last single removals,
/// near minimality, can each take the solver seconds to minutes (25x25: measured in
/// BENCHMARKS.md), so without `--clues` or `--minimal` removal stops at half the cells.
pub fn default_floor(n: usize) -> Option<usize> {
    (n > 16).then(|| (n * n).div_ceil(2))
}

/// A random full grid: a solution of the empty grid's model drawn by [`random_solution`],
/// shuffled by [`shuffle_grid`] and checked by the rule checker; with its cells as given
/// literals and the model's assignment for it.
fn draw_grid(
    empty: &Sudoku,
    model: &crate::puzzle::Model<model::SudokuMap>,
    session: &mut Session,
    rand: &mut crate::generate::Rand,
) -> Result<(Grid, Vec<Lit>, Assignment)> {
    let n = empty.size;
    let Some(first) = random_solution(session, &model.answer, true, decisions(n), rand)? else {
        return Err(Error::Bug(format!(
            "the empty {n}x{n} Sudoku model has no solution"
        )));
    };
    let drawn = empty.decode(model, &first);
    let solution = Grid(shuffle_grid(empty, &drawn.0, rand));
    empty
        .check(&solution)
        .map_err(|why| Error::Bug(format!("the random full grid breaks the rules: {why}")))?;
    let givens: Vec<Lit> = (0..n * n)
        .map(|i| {
            let v = solution.0[i];
            model.map.lit(i, v).ok_or_else(|| {
                Error::Bug(format!(
                    "the Sudoku model has no literal for {v} in cell {i}"
                ))
            })
        })
        .collect::<Result<_>>()?;
    // The model's assignment for the shuffled grid (every cell assumed: propagation finds it).
    match session.solve(&givens)? {
        SatOutcome::Sat(full) => Ok((solution, givens, full)),
        SatOutcome::Unsat(_) => Err(Error::Bug(
            "the shuffled full grid does not satisfy the Sudoku model".into(),
        )),
    }
}

/// What the session of a reduction is asked after it, which decides the short cuts the
/// reduction may take (see [`reduce`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum After {
    /// Perhaps the low-clue search, which follows the solver's answers (its other solutions):
    /// its puzzles would change with the session's history, so none.
    LowClues,
    /// Which givens could still go one at a time (`--minimal` with a symmetry), and perhaps
    /// another reduction of the same grid.
    Minimality,
    /// Nothing.
    Nothing,
}

/// One reduction of a full grid: `groups` tried in order, none taking the count below
/// `floor`, none accepted when it grades above the `ceiling` level. Returns the kept givens
/// and, when the last removal was graded, the grade of the final puzzle.
///
/// As [`crate::generate::reduce_givens_with`], one incremental solve per try, with short cuts
/// unless the low-clue search may follow ([`After`]); each keeps every answer as it was:
/// - a group whose kept cells singles place from the other givens goes without a solve
///   ([`Singles`]: the proof SAT would find by propagation alone); the final puzzle is then
///   proven unique by SAT once if its last removal was not;
/// - a single given's try assumes the cell's other values (any other solution differs there),
///   which SAT refutes sooner than the clause "differ somewhere";
/// - a puzzle that singles solve is within every ceiling from medium up (hidden singles alone:
///   easy too), ungraded; other puzzles are graded only up to the ceiling ([`grade_within`]);
/// - when nothing follows, a given refused at its last try stays for good, and becomes a unit
///   clause instead of an assumption of every later solve.
fn reduce(
    session: &mut Session,
    (givens, full): (&[Lit], &Assignment),
    groups: &[Vec<usize>],
    (floor, ceiling, after): (usize, Option<usize>, After),
    (empty, solution): (&Sudoku, &Grid),
) -> Result<(Vec<bool>, Option<Grade>)> {
    let block = session.blocking_clause(full);
    session.add_clause(&block);
    let short = after != After::LowClues;
    let geo = Geometry::shared(empty.size, empty.box_rows, empty.box_cols);
    // Naked singles rate 2.3, above easy: with an easy ceiling only hidden singles count.
    let naked = ceiling != Some(0);
    let cells = givens.len();
    let mut kept = vec![true; cells];
    // The group after which a cell is never tried again, and the givens that stay for good.
    let mut last_try = vec![0; cells];
    for (k, group) in groups.iter().enumerate() {
        for &i in group {
            last_try[i] = k;
        }
    }
    let mut fixed = vec![false; cells];
    let mut left = cells;
    let mut last: Option<Grade> = None;
    let mut proven = true;
    let mut trial: Vec<Lit> = Vec::with_capacity(cells);
    let mut values = vec![0u8; cells];
    for (k, group) in groups.iter().enumerate() {
        let going: Vec<usize> = group.iter().copied().filter(|&i| kept[i]).collect();
        if going.is_empty() || left - going.len() < floor {
            continue;
        }
        // Singles from the givens left: do they place the group again, or solve the puzzle?
        let (mut placed, mut solved) = (false, false);
        if short {
            for (i, v) in values.iter_mut().enumerate() {
                *v = if kept[i] && !going.contains(&i) {
                    solution.0[i]
                } else {
                    0
                };
            }
            let mut singles = Singles::new(&geo, &values);
            let until = (ceiling.is_none() && going.len() == 1).then(|| going[0]);
            solved = singles.play(naked, until);
            placed = going.iter().all(|&i| singles.values[i] != 0);
            solved &= until.is_none();
        }
        let mut stays = false;
        if !placed {
            trial.clear();
            trial.extend(
                (0..cells)
                    .filter(|&i| kept[i] && !fixed[i] && !going.contains(&i))
                    .map(|i| givens[i]),
            );
            if short && going.len() == 1 {
                trial.push(!givens[going[0]]);
            }
            stays = matches!(session.solve(&trial)?, SatOutcome::Sat(_));
        }
        if let Some(ceiling) = ceiling.filter(|_| !stays && !solved) {
            for &i in &going {
                kept[i] = false;
            }
            let fits =
                |r: f64| level_rank(super::strategies::level(r)).is_some_and(|l| l <= ceiling);
            let graded = grade_within(
                &puzzle_from(empty, &solution.0, &kept),
                solution,
                true,
                &fits,
            )
            .map_err(|why| {
                Error::Bug(format!(
                    "the Sudoku strategy engine made a wrong step while grading: {why}"
                ))
            })?;
            for &i in &going {
                kept[i] = true;
            }
            match graded {
                Some(g) => last = Some(g),
                None => stays = true,
            }
        } else if !stays {
            last = None;
        }
        if stays {
            if after == After::Nothing {
                for &i in going.iter().filter(|&&i| last_try[i] == k) {
                    session.add_clause(&[givens[i]]);
                    fixed[i] = true;
                }
            }
            continue;
        }
        for &i in &going {
            kept[i] = false;
        }
        left -= going.len();
        proven = !placed;
    }
    if !proven {
        let trial: Vec<Lit> = (0..cells)
            .filter(|&i| kept[i] && !fixed[i])
            .map(|i| givens[i])
            .collect();
        if let SatOutcome::Sat(_) = session.solve(&trial)? {
            return Err(Error::Bug(
                "singles placed a removed given, yet SAT finds another solution".into(),
            ));
        }
    }
    Ok((kept, last))
}

/// The local search for fewer givens than plain reduction reaches, on one grid (see
/// [`low_clue_search`]). Works on orbits: a move removes one orbit and adds others back.
///
/// It remembers the last [`WITNESSES`] other solutions the solver found (as the cells where
/// they differ from the grid): one that agrees with every kept given outside an orbit proves
/// that the orbit cannot go, and one that agrees with every kept given is a second solution,
/// each without a solve. Every answer still comes from SAT, only sometimes from an earlier call.
struct LowClues<'g> {
    /// The solver, with the clause "differ from the grid".
    session: Session<'static>,
    /// The model, for a fresh session every [`RENEW_CALLS`] solves.
    model: &'g crate::puzzle::Model<model::SudokuMap>,
    /// The model's assignment for the grid.
    full: &'g Assignment,
    /// The literal of each cell's value in the grid (the givens of the full grid).
    givens: &'g [Lit],
    orbits: &'g [Vec<usize>],
    /// The orbit of each cell.
    orbit_of: Vec<usize>,
    /// The cell of each given literal, by [`Lit::code`].
    cell_of: Vec<Option<usize>>,
    /// No reduction goes below this many givens.
    floor: usize,
    /// Other solutions seen, as bit sets of the cells where they differ from the grid.
    witnesses: Vec<Vec<u64>>,
    /// Where the next witness goes once [`WITNESSES`] are kept.
    next: usize,
    /// The caller's stop flag, for each fresh session.
    stop: Option<&'g Stop>,
}

/// How many other solutions [`LowClues`] remembers.
const WITNESSES: usize = 4096;

/// Solves after which [`LowClues`] starts a fresh session (an incremental session slows down
/// as it collects learnt clauses over thousands of calls).
const RENEW_CALLS: usize = 200;

/// The cells of `kept` as a bit set.
fn bits(kept: &[bool]) -> Vec<u64> {
    let mut b = vec![0u64; kept.len().div_ceil(64)];
    for (i, _) in kept.iter().enumerate().filter(|(_, &k)| k) {
        b[i / 64] |= 1 << (i % 64);
    }
    b
}

impl LowClues<'_> {
    /// The search on the grid `full` (`givens`, its cells' literals) of `model`, continuing
    /// with `session`, which already holds the clause "differ from the grid".
    fn new<'g>(
        (model, session, full): (
            &'g crate::puzzle::Model<model::SudokuMap>,
            Session<'static>,
            &'g Assignment,
        ),
        givens: &'g [Lit],
        orbits: &'g [Vec<usize>],
        floor: usize,
        stop: Option<&'g Stop>,
    ) -> LowClues<'g> {
        let mut orbit_of = vec![0; givens.len()];
        for (k, o) in orbits.iter().enumerate() {
            for &c in o {
                orbit_of[c] = k;
            }
        }
        let top = givens.iter().map(|l| l.code()).max().unwrap_or(0);
        let mut cell_of = vec![None; top + 1];
        for (i, l) in givens.iter().enumerate() {
            cell_of[l.code()] = Some(i);
        }
        LowClues {
            session,
            model,
            full,
            givens,
            orbits,
            orbit_of,
            cell_of,
            floor,
            witnesses: Vec::new(),
            next: 0,
            stop,
        }
    }

    /// The assumptions for the kept givens.
    fn lits(&self, kept: &[bool]) -> Vec<Lit> {
        (0..kept.len())
            .filter(|&i| kept[i])
            .map(|i| self.givens[i])
            .collect()
    }

    /// The kept orbits, by index.
    fn kept_orbits(&self, kept: &[bool]) -> Vec<usize> {
        (0..self.orbits.len())
            .filter(|&k| kept[self.orbits[k][0]])
            .collect()
    }

    /// One solve for the kept givens; another solution is remembered as a witness.
    fn solve(&mut self, kept: &[bool]) -> Result<SatOutcome> {
        if self.session.calls >= RENEW_CALLS {
            self.session = session_for(self.model, self.stop);
            let block = self.session.blocking_clause(self.full);
            self.session.add_clause(&block);
        }
        let out = self.session.solve(&self.lits(kept))?;
        if let SatOutcome::Sat(other) = &out {
            let w = self.differs(other);
            if self.witnesses.len() < WITNESSES {
                self.witnesses.push(w);
            } else {
                self.witnesses[self.next] = w;
                self.next = (self.next + 1) % WITNESSES;
            }
        }
        Ok(out)
    }

    /// The cells where `other` (another solution) differs from the grid, as a bit set.
    fn differs(&self, other: &Assignment) -> Vec<u64> {
        bits(
            &self
                .givens
                .iter()
                .map(|&l| !other.lit(l))
                .collect::<Vec<_>>(),
        )
    }

    /// A remembered other solution that agrees with every given of `kept` (its cells where it
    /// differs from the grid), if any.
    fn witness(&self, kept: &[bool]) -> Option<&Vec<u64>> {
        let mask = bits(kept);
        self.witnesses
            .iter()
            .find(|w| w.iter().zip(&mask).all(|(a, b)| a & b == 0))
    }

    /// Drops every kept orbit that holds no cell of `core` (givens that alone prove the grid
    /// the only solution), in random order, as far as the floor allows.
    fn drop_outside(&self, kept: &mut [bool], core: &[Lit], rand: &mut crate::generate::Rand) {
        let mut needed = vec![false; self.orbits.len()];
        for l in core {
            if let Some(&Some(i)) = self.cell_of.get(l.code()) {
                needed[self.orbit_of[i]] = true;
            }
        }
        let mut spare: Vec<usize> = self
            .kept_orbits(kept)
            .into_iter()
            .filter(|&k| !needed[k])
            .collect();
        spare.shuffle(rand);
        let mut left = kept.iter().filter(|&&k| k).count();
        for k in spare {
            let o = &self.orbits[k];
            if left - o.len() >= self.floor {
                left -= o.len();
                for &c in o {
                    kept[c] = false;
                }
            }
        }
    }

    /// Reduces unique `kept` (with `core` from the solve that proved it) until no orbit can
    /// go or the floor stops it: each kept orbit tried once in random order, one solve each
    /// (unless a witness answers), every proof's core dropping the orbits it did not need.
    /// One pass is enough: an orbit that could not go cannot go after others went.
    fn reduce(
        &mut self,
        kept: &mut [bool],
        core: &[Lit],
        rand: &mut crate::generate::Rand,
    ) -> Result<()> {
        self.drop_outside(kept, core, rand);
        let mut order = self.kept_orbits(kept);
        order.shuffle(rand);
        for k in order {
            let o = &self.orbits[k];
            let left = kept.iter().filter(|&&b| b).count();
            if !kept[o[0]] || left - o.len() < self.floor {
                continue;
            }
            for &c in o {
                kept[c] = false;
            }
            let stays = self.witness(kept).is_some()
                || match self.solve(kept)? {
                    SatOutcome::Unsat(core) => {
                        self.drop_outside(kept, &core, rand);
                        false
                    }
                    SatOutcome::Sat(_) => true,
                };
            if stays {
                for &c in &self.orbits[k] {
                    kept[c] = true;
                }
            }
        }
        Ok(())
    }

    /// Makes `kept` unique again after orbit `removed` went: while another solution exists,
    /// one orbit (not `removed`) holding a cell where it differs from the grid is added back.
    /// Returns the core of the final proof, or `None` when only `removed` could separate them.
    fn separate(
        &mut self,
        kept: &mut [bool],
        removed: usize,
        rand: &mut crate::generate::Rand,
    ) -> Result<Option<Vec<Lit>>> {
        loop {
            let differs = match self.witness(kept) {
                Some(w) => w.clone(),
                None => match self.solve(kept)? {
                    SatOutcome::Unsat(core) => return Ok(Some(core)),
                    SatOutcome::Sat(other) => self.differs(&other),
                },
            };
            let mut candidates: Vec<usize> = (0..kept.len())
                .filter(|&i| differs[i / 64] >> (i % 64) & 1 == 1)
                .map(|i| self.orbit_of[i])
                .filter(|&k| k != removed)
                .collect();
            crate::sort::all(&mut candidates);
            candidates.dedup();
            let Some(&k) = candidates.choose(rand) else {
                return Ok(None);
            };
            for &c in &self.orbits[k] {
                kept[c] = true;
            }
        }
    }
}

/// A fresh embedded session on the Sudoku model (the generator's and the low-clue search's),
/// stopping between solves once `stop` is raised. Up to 9x9 on lite, gridsat's own solver:
/// `generate sudoku --count 300` takes 0.7x the CPU time it took on varisat (the thousands of
/// small incremental solves of a reduction are lite's strength); larger grids on varisat,
/// which was faster there (25x25: lite took 1.6x the time; BENCHMARKS.md, Sudoku: generate).
fn session_for(
    model: &crate::puzzle::Model<model::SudokuMap>,
    stop: Option<&Stop>,
) -> Session<'static> {
    let backend: Box<dyn crate::solver::Backend> = if model.map.cell_vars.len() <= 81 {
        Box::new(Lite::new())
    } else {
        Box::new(Varisat::new())
    };
    Session::new(
        stop_between(backend, stop),
        &model.formula,
        model.answer.clone(),
        model.one_hot,
    )
}

/// How far a count of givens is from the range `lo..=hi`.
fn distance(count: usize, (lo, hi): (usize, usize)) -> usize {
    if count > hi {
        count - hi
    } else {
        lo.saturating_sub(count)
    }
}

/// What [`low_clue_search`] did on one grid.
struct Searched {
    /// The puzzle (kept givens) that met every target, with its grade.
    found: Option<(Vec<bool>, Grade)>,
    /// The fewest givens of a unique puzzle the search held.
    fewest: usize,
    /// Moves made.
    moves: usize,
}

/// The local search over the orbit-minimal puzzles of one grid, for a clue range below what
/// plain reduction reached. From the reduced puzzle `start`, each move removes one random
/// orbit, adds back orbits where another solution differs from the grid (never the removed
/// one) until SAT proves the puzzle unique again, and reduces it again
/// ([`LowClues::reduce`]). A move is kept when the count gets no farther from the range (so
/// the search walks plateaus of equal counts), otherwise undone. [`SEARCH_MOVES`] moves, or
/// [`NEAR_MOVES`] once the count comes within one orbit of the range. A puzzle in the range
/// is returned once it passes `--minimal` and the grade level (the grade is not a ceiling
/// here, only checked at the end).
fn low_clue_search(
    search: &mut LowClues,
    start: &[bool],
    opts: &Options,
    (empty, solution): (&Sudoku, &Grid),
    rand: &mut crate::generate::Rand,
) -> Result<Searched> {
    let target = opts.clues.unwrap_or((0, usize::MAX));
    let mut moves = SEARCH_MOVES;
    let count = |kept: &[bool]| kept.iter().filter(|&&b| b).count();
    let mut kept = start.to_vec();
    let SatOutcome::Unsat(core) = search.solve(&kept)? else {
        return Err(Error::Bug(
            "a reduced Sudoku is no longer unique in the low-clue search".into(),
        ));
    };
    search.reduce(&mut kept, &core, rand)?;
    let widest = search.orbits.iter().map(Vec::len).max().unwrap_or(1);
    let mut now = count(&kept);
    let mut fewest = now;
    let mut unchecked = true;
    let mut made = 0;
    loop {
        stop_point(search.stop)?;
        if unchecked && distance(now, target) == 0 {
            unchecked = false;
            let minimal = !opts.minimal
                || opts.symmetry == Symmetry::None
                || removable_givens(&mut search.session, search.givens, &kept)?.is_empty();
            if minimal {
                let g = grade(&puzzle_from(empty, &solution.0, &kept), solution)?;
                if opts.level.is_none_or(|l| level_rank(&g.level) == Some(l)) {
                    return Ok(Searched {
                        found: Some((kept, g)),
                        fewest,
                        moves: made,
                    });
                }
            }
        }
        if made == moves {
            break;
        }
        made += 1;
        let before = kept.clone();
        let Some(&out) = search.kept_orbits(&kept).choose(rand) else {
            break;
        };
        for &c in &search.orbits[out] {
            kept[c] = false;
        }
        let Some(core) = search.separate(&mut kept, out, rand)? else {
            kept = before;
            continue;
        };
        search.reduce(&mut kept, &core, rand)?;
        let (was, is) = (distance(now, target), distance(count(&kept), target));
        if is <= was {
            now = count(&kept);
            if now < fewest && is <= widest {
                moves = moves.max(NEAR_MOVES);
            }
            fewest = fewest.min(now);
            unchecked |= kept != before;
        } else {
            kept = before;
        }
    }
    Ok(Searched {
        found: None,
        fewest,
        moves: made,
    })
}

/// The model of the empty grid `empty`, with givens as assumptions: kept for the shape asked
/// last on this thread (as the strategies' `Geometry::shared`), since building it for every
/// puzzle was 3% of the instructions of `generate sudoku --count 300`.
fn empty_model(empty: &Sudoku) -> std::rc::Rc<crate::puzzle::Model<model::SudokuMap>> {
    thread_local! {
        static LAST: super::LastShape<crate::puzzle::Model<model::SudokuMap>> =
            const { super::LastShape::new() };
    }
    let shape = (empty.size, empty.box_rows, empty.box_cols);
    LAST.with(|last| last.get(shape, || empty.model(GivenMode::Assume, false)))
}

/// One puzzle for `opts` (which [`Options::validate`] has accepted) from `seed`: the same seed
/// and options give the same puzzle on every machine.
pub fn generate(opts: &Options, seed: u64) -> Result<Outcome> {
    generate_until(opts, seed, None)
}

/// [`generate`], ending with [`crate::solver::SolverError::Stopped`] soon after `stop` is
/// raised (see [`crate::generate::stop_point`]).
pub fn generate_until(opts: &Options, seed: u64, stop: Option<&Stop>) -> Result<Outcome> {
    let n = opts.size;
    let empty = Sudoku::empty(n, opts.box_rows, opts.box_cols);
    let model = empty_model(&empty);
    let orbits = opts.symmetry.orbits(n);
    let mut rand = rng(seed);
    let mut miss = Miss::default();
    let cells = n * n;
    // Possible numbers of givens with these orbits, for drawing a clue target.
    let reachable = match opts.clues {
        Some(_) => reachable_counts(&orbits.iter().map(Vec::len).collect::<Vec<_>>()),
        None => Vec::new(),
    };
    // A level ceiling during reduction, unless the level is the top one or --minimal asks for
    // a full reduction.
    let ceiling = opts
        .level
        .filter(|&l| !opts.minimal && l + 1 < LEVELS.len());
    for attempt in 1..=opts.attempts {
        stop_point(stop)?;
        miss.attempts = attempt;
        // The floor of this attempt: a count drawn from the clue range (so a batch spreads over
        // it), none for --minimal, half the cells on large grids without a range.
        let floor = match (opts.minimal, opts.clues) {
            (true, _) => 0,
            (false, Some((lo, hi))) => {
                let counts: Vec<usize> = (lo..=hi).filter(|&k| reachable[k]).collect();
                counts.choose(&mut rand).copied().unwrap_or(lo)
            }
            (false, None) => default_floor(n).unwrap_or(0),
        };
        let mut session = session_for(&model, stop);
        let (solution, givens, full) = draw_grid(&empty, &model, &mut session, &mut rand)?;
        let mut order = orbits.clone();
        order.shuffle(&mut rand);
        let expected = if floor > 0 {
            (cells.saturating_sub(floor)) * orbits.len() / cells
        } else {
            orbits.len() * 3 / 5
        };
        let symmetric_minimal = opts.minimal && opts.symmetry != Symmetry::None;
        let after = if opts.clues.is_some() {
            After::LowClues
        } else if symmetric_minimal {
            After::Minimality
        } else {
            After::Nothing
        };
        let mut kept;
        let mut last_grade;
        let mut round = 0;
        let mut loose: Vec<usize> = Vec::new();
        loop {
            round += 1;
            let groups = schedule(&order, n, expected);
            (kept, last_grade) = reduce(
                &mut session,
                (&givens, &full),
                &groups,
                (floor, ceiling, after),
                (&empty, &solution),
            )?;
            if !symmetric_minimal {
                break;
            }
            loose = removable_givens(&mut session, &givens, &kept)?;
            if loose.is_empty() || round == MINIMAL_ROUNDS {
                break;
            }
            // Orbit-minimal, not minimal: the orbits holding a removable given are tried
            // first in the next round, when removing them is easiest, on the same grid.
            let (mut first, rest): (Vec<Vec<usize>>, Vec<Vec<usize>>) = order
                .into_iter()
                .partition(|o| o.iter().any(|i| loose.contains(i)));
            first.extend(rest);
            order = first;
        }
        let puzzle = puzzle_from(&empty, &solution.0, &kept);
        let count = puzzle.clue_count();
        miss.fewest = Some(miss.fewest.map_or(count, |f| f.min(count)));
        miss.most = Some(miss.most.map_or(count, |m| m.max(count)));
        if opts.clues.is_some_and(|(_, hi)| count > hi) {
            // Above the range: the low-clue search on this grid, or the next grid.
            let floor = match opts.clues {
                Some((lo, _)) if !opts.minimal => lo,
                _ => 0,
            };
            let mut search = LowClues::new((&model, session, &full), &givens, &orbits, floor, stop);
            let s = low_clue_search(&mut search, &kept, opts, (&empty, &solution), &mut rand)?;
            miss.search_moves += s.moves;
            miss.search_fewest = Some(miss.search_fewest.map_or(s.fewest, |f| f.min(s.fewest)));
            let Some((kept, g)) = s.found else {
                continue;
            };
            return Ok(Outcome::Found(Box::new(Found {
                puzzle: puzzle_from(&empty, &solution.0, &kept),
                solution,
                grade: g,
                attempts: attempt,
                searched: Some((count, s.moves)),
            })));
        }
        if !loose.is_empty() {
            miss.not_minimal += 1;
            continue;
        }
        if let Some((lo, hi)) = opts.clues {
            if count < lo || count > hi {
                continue;
            }
        }
        let g = match last_grade {
            Some(g) => g,
            None => grade(&puzzle, &solution)?,
        };
        match miss.levels.iter_mut().find(|(l, _)| *l == g.level) {
            Some(e) => e.1 += 1,
            None => miss.levels.push((g.level.clone(), 1)),
        }
        if let Some(l) = opts.level {
            if level_rank(&g.level) != Some(l) {
                continue;
            }
        }
        return Ok(Outcome::Found(Box::new(Found {
            puzzle,
            solution,
            grade: g,
            attempts: attempt,
            searched: None,
        })));
    }
    Ok(Outcome::Missed(miss))
}

/// How a generated puzzle is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One line, one character per cell (`.` open; `A`... for 10 and up).
    Line,
    /// A grid drawn in boxes, numbers for sides over 9; a blank line ends it.
    Grid,
}

impl Layout {
    /// The default for a side: one line up to 9x9, a grid above.
    pub fn default_for(size: usize) -> Layout {
        if size > 9 {
            Layout::Grid
        } else {
            Layout::Line
        }
    }
}

/// The shared record of a found puzzle, its text in `layout` (both read back by
/// [`super::format::parse`]).
pub fn to_generated(found: &Found, seed: u64, layout: Layout) -> Generated {
    let p = &found.puzzle;
    let text = match layout {
        Layout::Line => format!("{}\n", p.to_line()),
        Layout::Grid => format!(
            "{}\n",
            super::render::grid(p, &p.cells, crate::puzzle::Style::default())
        ),
    };
    Generated {
        kind: "sudoku",
        seed,
        puzzle: text,
        rows: p
            .cells
            .chunks(p.size)
            .map(|r| r.iter().map(|&v| v as i64).collect())
            .collect(),
        givens: p.clue_count(),
        grade: Some(found.grade.clone()),
        notes: (found.attempts > 1)
            .then(|| {
                format!(
                    "found on attempt {} (each attempt is a fresh grid)",
                    found.attempts
                )
            })
            .into_iter()
            .chain(found.searched.map(|(plain, moves)| {
                format!("found by the low-clue search: plain removal left {plain} givens on this grid, then {moves} moves")
            }))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{verdict, Solutions};
    use crate::solver::SolverChoice;

    #[test]
    fn orbits_partition_the_grid() {
        // (symmetry, orbits of 9x9, orbits of 4x4)
        let expected = [
            (Symmetry::None, 81, 16),
            (Symmetry::Rotational, 41, 8),
            (Symmetry::QuarterTurn, 21, 4),
            (Symmetry::Mirror, 45, 8),
            (Symmetry::Diagonal, 45, 10),
        ];
        for (sym, o9, o4) in expected {
            for (n, want) in [(9, o9), (4, o4)] {
                let orbits = sym.orbits(n);
                assert_eq!(orbits.len(), want, "{} {n}", sym.name());
                let mut all: Vec<usize> = orbits.concat();
                crate::sort::all(&mut all);
                assert_eq!(all, (0..n * n).collect::<Vec<_>>());
                for o in &orbits {
                    // An orbit is closed: marking it alone gives a symmetric pattern.
                    let mut cells = vec![0u8; n * n];
                    for &c in o {
                        cells[c] = 1;
                    }
                    assert!(sym.holds(n, &cells), "{} {o:?}", sym.name());
                }
            }
            assert_eq!(Symmetry::from_name(sym.name()), Some(sym));
        }
        assert_eq!(Symmetry::QuarterTurn.orbit(9, 1), vec![1, 17, 63, 79]);
        assert_eq!(Symmetry::Mirror.orbit(9, 10), vec![10, 16]);
        assert_eq!(Symmetry::Diagonal.orbit(9, 1), vec![1, 9]);
        assert_eq!(Symmetry::Rotational.orbit(9, 40), vec![40]);
        assert_eq!(Symmetry::from_name("180"), Some(Symmetry::Rotational));
        assert_eq!(Symmetry::from_name("spiral"), None);
        // One given off the axis breaks mirror symmetry.
        let mut cells = vec![0u8; 81];
        cells[10] = 5;
        assert!(!Symmetry::Mirror.holds(9, &cells));
        assert!(Symmetry::None.holds(9, &cells));
    }

    #[test]
    fn reachable_counts_follow_orbit_sizes() {
        let sizes: Vec<usize> = Symmetry::QuarterTurn
            .orbits(9)
            .iter()
            .map(Vec::len)
            .collect();
        let r = reachable_counts(&sizes);
        assert!(r[28] && r[29] && !r[30] && !r[31] && r[32] && r[81]);
        let sizes: Vec<usize> = Symmetry::Rotational
            .orbits(16)
            .iter()
            .map(Vec::len)
            .collect();
        let r = reachable_counts(&sizes);
        assert!(r[100] && !r[101]);
    }

    #[test]
    fn clue_bands_and_their_scaling() {
        assert_eq!(clue_band("easy", 9), Some((36, 45)));
        assert_eq!(clue_band("evil", 9), Some((16, 18)));
        assert_eq!(clue_band("medium", 16), Some((85, 111)));
        assert_eq!(clue_band("hard", 4), Some((4, 5)));
        assert_eq!(clue_band("brutal", 9), None);
        assert_eq!(level_rank("medium"), Some(1));
        assert_eq!(level_rank("evil"), None);
    }

    #[test]
    fn validation_refuses_the_impossible_and_explains_16() {
        let with = |clues: (usize, usize), sym: Symmetry| {
            let mut o = Options::new(9, 3, 3);
            o.clues = Some(clues);
            o.symmetry = sym;
            let r = o.validate();
            (r, o.clues)
        };
        let (r, _) = with((16, 16), Symmetry::None);
        let e = r.unwrap_err();
        assert!(e.contains("McGuire") && e.contains("--clues 17"), "{e}");
        let (r, clues) = with((16, 18), Symmetry::None);
        assert!(r.unwrap()[0].contains("becomes 17-18"));
        assert_eq!(clues, Some((17, 18)));
        let (r, _) = with((30, 30), Symmetry::QuarterTurn);
        let e = r.unwrap_err();
        assert!(e.contains("orbits of 1 or 4") && e.contains("29"), "{e}");
        assert!(with((30, 31), Symmetry::Rotational).0.is_ok());
        assert!(with((20, 90), Symmetry::None).0.is_err());
        let mut o = Options::new(4, 2, 2);
        o.clues = Some((3, 3));
        assert!(o.validate().unwrap_err().contains("288 grids"));
        let mut o = Options::new(26, 2, 13);
        assert!(o.validate().is_err());
        let mut o = Options::new(9, 2, 4);
        assert!(o.validate().is_err());
        let mut o = Options::new(9, 3, 3);
        o.attempts = 0;
        assert!(o.validate().is_err());
        let mut o = Options::new(25, 5, 5);
        assert!(o.validate().unwrap()[0].contains("313 givens"));
        o.clues = Some((200, 250));
        assert!(o.validate().unwrap()[0].contains("expect a long run"));
    }

    #[test]
    fn shuffled_grids_stay_solutions() {
        let s = Sudoku::empty(6, 2, 3);
        // A 6x6 solution built by shifting rows.
        let base: Vec<u8> = (0..36)
            .map(|i| {
                let (r, c) = (i / 6, i % 6);
                ((c + 3 * (r % 2) + r / 2) % 6 + 1) as u8
            })
            .collect();
        s.check(&Grid(base.clone())).unwrap();
        let mut rand = rng(9);
        let mut distinct = std::collections::HashSet::new();
        for _ in 0..10 {
            let g = shuffle_grid(&s, &base, &mut rand);
            s.check(&Grid(g.clone())).unwrap();
            distinct.insert(g);
        }
        assert!(distinct.len() > 5);
    }

    #[test]
    fn schedules_try_every_orbit_alone_last() {
        let orbits = Symmetry::None.orbits(9);
        assert_eq!(schedule(&orbits, 9, 50), orbits);
        let orbits = Symmetry::Rotational.orbits(16);
        let s = schedule(&orbits, 16, 80);
        assert!(s[0].len() > 2, "large grids start with groups");
        assert_eq!(&s[s.len() - orbits.len()..], &orbits[..]);
        // Groups never overlap each other.
        let grouped: Vec<usize> = s[..s.len() - orbits.len()].concat();
        let mut dedup = grouped.clone();
        crate::sort::all(&mut dedup);
        dedup.dedup();
        assert_eq!(dedup.len(), grouped.len());
    }

    fn found(o: &Options, seed: u64) -> Found {
        match generate(o, seed).unwrap() {
            Outcome::Found(f) => *f,
            Outcome::Missed(m) => panic!("{}", m.message(o)),
        }
    }

    #[test]
    fn small_puzzles_are_unique_minimal_symmetric_and_repeatable() {
        for (n, br, bc) in [(4, 2, 2), (6, 2, 3)] {
            // (A 6x6 puzzle with quarter-turn symmetry that is minimal is rare: 100 attempts
            // found none; orbit-minimal ones are tested with 9x9 in tests/sudoku_generate.rs.)
            for sym in Symmetry::ALL
                .into_iter()
                .filter(|&s| n == 4 || s != Symmetry::QuarterTurn)
            {
                let mut o = Options::new(n, br, bc);
                o.symmetry = sym;
                o.minimal = true;
                o.validate().unwrap();
                let f = found(&o, 3);
                let p = &f.puzzle;
                assert!(sym.holds(n, &p.cells), "{}", sym.name());
                match verdict(p, &SolverChoice::Embedded).unwrap() {
                    Solutions::Unique(s) => assert_eq!(s, f.solution),
                    other => panic!("not unique: {other:?}"),
                }
                for i in (0..n * n).filter(|&i| p.cells[i] != 0) {
                    let mut q = p.clone();
                    q.cells[i] = 0;
                    assert!(
                        matches!(
                            verdict(&q, &SolverChoice::Embedded).unwrap(),
                            Solutions::Multiple(..)
                        ),
                        "{n}x{n} {}: given {i} could go",
                        sym.name()
                    );
                }
                assert_eq!(found(&o, 3).puzzle, f.puzzle, "same seed, same puzzle");
            }
        }
    }

    #[test]
    fn the_low_clue_search_goes_below_plain_reduction() {
        // 6x6: plain reduction leaves 9 to 12 givens, the search finds 8, the fewest there is.
        for (sym, seed) in [(Symmetry::None, 1), (Symmetry::Rotational, 1)] {
            let mut o = Options::new(6, 2, 3);
            o.symmetry = sym;
            o.clues = Some((8, 8));
            o.minimal = true;
            o.validate().unwrap();
            let f = found(&o, seed);
            let (plain, moves) = f.searched.expect("found by the low-clue search");
            assert!(plain > 8 && moves > 0, "{plain} {moves}");
            let p = &f.puzzle;
            assert_eq!(p.clue_count(), 8);
            assert!(sym.holds(6, &p.cells), "{}", sym.name());
            match verdict(p, &SolverChoice::Embedded).unwrap() {
                Solutions::Unique(s) => assert_eq!(s, f.solution),
                other => panic!("not unique: {other:?}"),
            }
            for i in (0..36).filter(|&i| p.cells[i] != 0) {
                let mut q = p.clone();
                q.cells[i] = 0;
                assert!(matches!(
                    verdict(&q, &SolverChoice::Embedded).unwrap(),
                    Solutions::Multiple(..)
                ));
            }
            assert_eq!(found(&o, seed).puzzle, f.puzzle, "same seed, same puzzle");
        }
        assert_eq!(distance(22, (19, 20)), 2);
        assert_eq!(distance(19, (19, 20)), 0);
        assert_eq!(distance(17, (19, 20)), 2);
    }

    #[test]
    fn grade_and_clue_targets_are_met() {
        let mut o = Options::new(9, 3, 3);
        o.level = Some(0);
        o.validate().unwrap();
        let f = found(&o, 11);
        assert_eq!(f.grade.level, "easy");
        assert_eq!(grade(&f.puzzle, &f.solution).unwrap(), f.grade);
        let mut o = Options::new(9, 3, 3);
        o.clues = Some((30, 32));
        o.symmetry = Symmetry::Rotational;
        o.validate().unwrap();
        for seed in 0..3 {
            let f = found(&o, seed);
            let k = f.puzzle.clue_count();
            assert!((30..=32).contains(&k), "{k}");
        }
        // A target out of reach is missed after the attempts, with what was seen.
        let mut o = Options::new(9, 3, 3);
        o.clues = Some((17, 17));
        o.attempts = 3;
        o.validate().unwrap();
        match generate(&o, 1).unwrap() {
            Outcome::Missed(m) => {
                assert_eq!(m.attempts, 3);
                assert!(m.fewest.unwrap() > 17);
                let text = m.message(&o);
                assert!(text.contains("with 17 givens in 3 attempts"), "{text}");
            }
            Outcome::Found(f) => panic!("17 givens by random removal? {:?}", f.puzzle),
        }
    }
}
