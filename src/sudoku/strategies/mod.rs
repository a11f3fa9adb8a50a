//! The Sudoku human-strategy engine: works on pencil marks ([`grid::Board`]), never on the SAT
//! model, and only explains: every step is checked against the SAT solution by the caller
//! (`explain::verify_steps`).
//!
//! At every point the engine takes the easiest step available, trying the techniques in the
//! order of their ratings (Sudoku Explainer's scale, see [`rating`]): singles, locked
//! candidates, subsets, fish, wings, unique rectangles (only when SAT has proven the puzzle
//! unique), chains, then forcing chains (dynamic, and nested up to three levels on grids up to
//! 9x9: enough for every famous hardest puzzle). When they run out (larger grids, or the nested
//! search's work budget), `--fallback` continues with a step proven by SAT: the solution's value
//! in an open cell with the fewest candidates, with, for each other candidate, the
//! contradiction it leads to.

pub mod als;
pub mod chains;
pub mod colors;
pub mod fins;
pub mod fish;
pub mod forcing;
pub mod grid;
pub mod grouped;
pub mod intersections;
pub mod nested;
pub mod rating;
pub mod single_digit;
pub mod singles;
pub mod subsets;
pub mod sue_de_coq;
pub mod templates;
pub mod uniqueness;
pub mod wings;

pub use grid::{Board, Found};
pub use rating::{grade, level};

use super::{Grid, Sudoku};
use crate::draw::{Look, Picture};
use crate::explain::{Explain, ExplainOptions, Explanation, Step, SOLVER_TECHNIQUE};
use fins::Shape;
use rating::base;

/// One technique of the engine.
pub struct Technique {
    /// The family name (a step may carry a more precise name: `locked pair` from `naked pair`).
    pub name: &'static str,
    /// Its base rating (chains add to it with their length).
    pub rating: f64,
    /// Only allowed once SAT has proven the puzzle unique.
    pub needs_unique: bool,
    /// Tried by the engine (else only named for tests: a family the engine finds through a
    /// broader search, such as X-Chain through `chains`).
    pub engine: bool,
    /// Pushes the instances found on a board.
    pub find: fn(&Board, &mut Found),
    /// The nesting level of a nested forcing chain search (2 and up; 0 for the others): the
    /// engine gives these its [`nested::Leads`].
    pub nesting: usize,
}

const fn t(name: &'static str, rating: f64, find: fn(&Board, &mut Found)) -> Technique {
    Technique {
        name,
        rating,
        needs_unique: false,
        engine: true,
        find,
        nesting: 0,
    }
}

/// A technique that relies on the puzzle's solution being unique.
const fn unique(name: &'static str, rating: f64, find: fn(&Board, &mut Found)) -> Technique {
    Technique {
        needs_unique: true,
        ..t(name, rating, find)
    }
}

/// A nested forcing chain search at `level` (2 and up).
const fn nested_at(name: &'static str, rating: f64, level: usize) -> Technique {
    let find: fn(&Board, &mut Found) = match level {
        2 => |b, f| nested::contradiction(b, f, 2),
        3 => |b, f| nested::contradiction(b, f, 3),
        _ => |b, f| nested::contradiction(b, f, 4),
    };
    Technique {
        nesting: level,
        ..t(name, rating, find)
    }
}

/// A family only named for tests (the engine finds it through `chains`).
const fn named(name: &'static str, rating: f64, find: fn(&Board, &mut Found)) -> Technique {
    Technique {
        engine: false,
        ..t(name, rating, find)
    }
}

/// Every technique, easiest first: the order the engine tries them in.
pub static TECHNIQUES: &[Technique] = &[
    t("full house", base::FULL_HOUSE, singles::full_house),
    t(
        "hidden single",
        base::HIDDEN_SINGLE_BOX,
        singles::hidden_single,
    ),
    t(
        "direct pointing",
        base::DIRECT_POINTING,
        intersections::direct_pointing,
    ),
    t(
        "direct claiming",
        base::DIRECT_CLAIMING,
        intersections::direct_claiming,
    ),
    t("direct hidden pair", base::DIRECT_HIDDEN_PAIR, |b, f| {
        subsets::hidden(b, f, 2, true)
    }),
    t("naked single", base::NAKED_SINGLE, singles::naked_single),
    t(
        "direct hidden triple",
        base::DIRECT_HIDDEN_TRIPLE,
        |b, f| subsets::hidden(b, f, 3, true),
    ),
    t("pointing", base::POINTING, intersections::pointing),
    t("claiming", base::CLAIMING, intersections::claiming),
    t("naked pair", base::NAKED_PAIR, |b, f| {
        subsets::naked(b, f, 2)
    }),
    t("X-Wing", base::X_WING, |b, f| fish::basic(b, f, 2)),
    t("hidden pair", base::HIDDEN_PAIR, |b, f| {
        subsets::hidden(b, f, 2, false)
    }),
    t("naked triple", base::NAKED_TRIPLE, |b, f| {
        subsets::naked(b, f, 3)
    }),
    t("Swordfish", base::SWORDFISH, |b, f| fish::basic(b, f, 3)),
    t("hidden triple", base::HIDDEN_TRIPLE, |b, f| {
        subsets::hidden(b, f, 3, false)
    }),
    t("XY-Wing", base::XY_WING, wings::xy_wing),
    t("XYZ-Wing", base::XYZ_WING, wings::xyz_wing),
    unique("unique rectangle type 1", base::UR_1, uniqueness::type_1),
    unique("unique rectangle type 2", base::UR_2, uniqueness::type_2),
    unique("unique rectangle type 4", base::UR_4, uniqueness::type_4),
    unique("unique rectangle type 3", base::UR_3, uniqueness::type_3),
    unique("unique rectangle type 5", base::UR_5, uniqueness::type_5),
    unique("unique rectangle type 6", base::UR_6, uniqueness::type_6),
    unique(
        "hidden rectangle",
        base::HIDDEN_RECTANGLE,
        uniqueness::hidden_rectangle,
    ),
    t("naked quad", base::NAKED_QUAD, |b, f| {
        subsets::naked(b, f, 4)
    }),
    t("Jellyfish", base::JELLYFISH, |b, f| fish::basic(b, f, 4)),
    t("hidden quad", base::HIDDEN_QUAD, |b, f| {
        subsets::hidden(b, f, 4, false)
    }),
    unique("BUG+1", base::BUG_1, uniqueness::bug_plus_one),
    t("Skyscraper", base::X_CHAIN, single_digit::skyscraper),
    t(
        "2-String Kite",
        base::X_CHAIN,
        single_digit::two_string_kite,
    ),
    t("Turbot Fish", base::X_CHAIN, single_digit::turbot_fish),
    t(
        "empty rectangle",
        base::X_CHAIN,
        single_digit::empty_rectangle,
    ),
    t("remote pair", base::AIC, chains::remote_pair),
    t("W-Wing", base::AIC, wings::w_wing),
    // Every chain family in one search; the lowest-rated deduction wins (a named pattern
    // above keeps its name when the search only finds the same rating).
    t("chains", base::X_CHAIN, chains::any_chain),
    t("Nishio", base::NISHIO, forcing::nishio),
    t(
        "forcing chains",
        base::FORCING_CHAINS,
        forcing::forcing_chains,
    ),
    t(
        "dynamic forcing chain",
        base::DYNAMIC_CHAIN,
        forcing::dynamic,
    ),
    t("dynamic forcing chain (+)", base::DYNAMIC_PLUS, |b, f| {
        nested::contradiction(b, f, 1)
    }),
    nested_at("nested forcing chain", base::NESTED, 2),
    nested_at("nested forcing chain (+)", base::NESTED_PLUS, 3),
    nested_at("nested forcing chain (level 3)", base::NESTED_3, 4),
    named("X-Chain", base::X_CHAIN, chains::x_chain),
    named("XY-Chain", base::AIC, chains::xy_chain),
    named("AIC", base::AIC, chains::aic),
    named(
        "continuous nice loop",
        base::X_CYCLE,
        chains::continuous_loop,
    ),
    named(
        "discontinuous nice loop",
        base::X_CHAIN,
        chains::discontinuous_loop,
    ),
    named("finned X-Wing", base::X_WING, |b, f| {
        fins::find(b, f, 2, Shape::Basic)
    }),
    named("finned Swordfish", base::SWORDFISH, |b, f| {
        fins::find(b, f, 3, Shape::Basic)
    }),
    named("finned Jellyfish", base::JELLYFISH, |b, f| {
        fins::find(b, f, 4, Shape::Basic)
    }),
    named("siamese Swordfish", base::SWORDFISH, |b, f| {
        fins::siamese(b, f, 3, Shape::Basic)
    }),
    named("siamese Jellyfish", base::JELLYFISH, |b, f| {
        fins::siamese(b, f, 4, Shape::Basic)
    }),
    named("Franken X-Wing", base::X_WING, |b, f| {
        fins::find(b, f, 2, Shape::Franken)
    }),
    named("Franken Swordfish", base::SWORDFISH, |b, f| {
        fins::find(b, f, 3, Shape::Franken)
    }),
    named("Franken Jellyfish", base::JELLYFISH, |b, f| {
        fins::find(b, f, 4, Shape::Franken)
    }),
    named("siamese Franken Swordfish", base::SWORDFISH, |b, f| {
        fins::siamese(b, f, 3, Shape::Franken)
    }),
    named("siamese Franken Jellyfish", base::JELLYFISH, |b, f| {
        fins::siamese(b, f, 4, Shape::Franken)
    }),
    named("mutant Swordfish", base::SWORDFISH, |b, f| {
        fins::find(b, f, 3, Shape::Mutant)
    }),
    named("mutant Jellyfish", base::JELLYFISH, |b, f| {
        fins::find(b, f, 4, Shape::Mutant)
    }),
    named("mutant Squirmbag", base::JELLYFISH, |b, f| {
        fins::find(b, f, 5, Shape::Mutant)
    }),
    named("mutant Whale", base::JELLYFISH, |b, f| {
        fins::find(b, f, 6, Shape::Mutant)
    }),
    named("grouped AIC", base::AIC, |b, f| {
        grouped::find(b, f, grouped::Kind::Aic, false)
    }),
    named("grouped continuous nice loop", base::AIC, |b, f| {
        grouped::find(b, f, grouped::Kind::Continuous, false)
    }),
    named("grouped discontinuous nice loop", base::AIC, |b, f| {
        grouped::find(b, f, grouped::Kind::Discontinuous, false)
    }),
    named("AIC with ALS", base::AIC, |b, f| {
        grouped::find(b, f, grouped::Kind::Aic, true)
    }),
    named("continuous nice loop with ALS", base::AIC, |b, f| {
        grouped::find(b, f, grouped::Kind::Continuous, true)
    }),
    named("discontinuous nice loop with ALS", base::AIC, |b, f| {
        grouped::find(b, f, grouped::Kind::Discontinuous, true)
    }),
    named(
        "dual 2-String Kite",
        base::X_CHAIN,
        single_digit::dual_two_string_kite,
    ),
    named(
        "dual empty rectangle",
        base::X_CHAIN,
        single_digit::dual_empty_rectangle,
    ),
    named("simple colors", base::X_CHAIN, colors::simple),
    named("multi-colors", base::X_CHAIN, colors::multi),
    named(
        "avoidable rectangle type 1",
        base::UR_1,
        uniqueness::avoidable_type_1,
    ),
    named(
        "avoidable rectangle type 2",
        base::UR_2,
        uniqueness::avoidable_type_2,
    ),
    named("ALS-XZ", base::ALS_XZ, als::xz),
    named("ALS-XY-Wing", base::ALS_XZ, |b, f| {
        als::chain(b, f, 3, 3, true)
    }),
    named("ALS chain", base::ALS_XZ, |b, f| {
        als::chain(b, f, 3, 6, true)
    }),
    named("death blossom", base::ALS_XZ, |b, f| {
        als::death_blossom(b, f, true)
    }),
    named("Sue de Coq", base::SUE_DE_COQ, sue_de_coq::sue_de_coq),
    named("template set", base::TEMPLATE, templates::set),
    named("template delete", base::TEMPLATE, templates::delete),
    named("siamese mutant Jellyfish", base::JELLYFISH, |b, f| {
        fins::siamese(b, f, 4, Shape::Mutant)
    }),
];

/// The technique of that family name.
pub fn technique(name: &str) -> Option<&'static Technique> {
    TECHNIQUES.iter().find(|t| t.name == name)
}

/// Every instance of one technique on a board (for tests against the regression library);
/// `None` for a name the engine does not know.
pub fn find_all(b: &Board, name: &str) -> Option<Vec<Step>> {
    let t = technique(name)?;
    let mut f = Found::every();
    (t.find)(b, &mut f);
    Some(f.steps)
}

/// The easiest step available on `b`, if any technique applies. Techniques are tried in the
/// order of their base ratings; once one finds a step, the later ones are still asked while
/// their base rating is below that step's (a long chain rates above a short one of a harder
/// family), and the lowest-rated step wins.
pub fn next_step(b: &Board, unique: bool) -> Option<Step> {
    next_step_with(b, unique, &mut nested::Leads::default())
}

/// [`next_step`] along a path: the nested searches start from the `leads` earlier searches
/// left.
pub fn next_step_with(b: &Board, unique: bool, leads: &mut nested::Leads) -> Option<Step> {
    next_step_within(b, unique, leads, &|_| true)
}

/// [`next_step_with`] among the techniques whose base rating `fits`: a step rated beyond them
/// is never looked for, so when the result is `None` or does not fit either, the easiest step
/// does not fit (a step never rates below its technique's base). For a grade ceiling.
fn next_step_within(
    b: &Board,
    unique: bool,
    leads: &mut nested::Leads,
    fits: &dyn Fn(f64) -> bool,
) -> Option<Step> {
    let mut best: Option<Step> = None;
    for t in TECHNIQUES {
        if !t.engine || (t.needs_unique && !unique) || !fits(t.rating) {
            continue;
        }
        if best.as_ref().is_some_and(|s| s.rating <= t.rating) {
            continue;
        }
        // Nested chains are costly: only when nothing easier was found.
        if best.is_some() && t.rating >= base::NESTED {
            continue;
        }
        let mut f = Found::first();
        if t.nesting >= 2 {
            nested::contradiction_with(b, &mut f, t.nesting, leads);
        } else {
            (t.find)(b, &mut f);
        }
        if let Some(s) = f.steps.into_iter().next() {
            if best.as_ref().is_none_or(|bs| s.rating < bs.rating) {
                best = Some(s);
            }
        }
    }
    best
}

/// A step proven by SAT: the solution's value in the open cell with the fewest candidates.
/// The text says why, value by value: each other candidate played out with singles, locked
/// candidates and pairs breaks the grid in a way it names, or SAT found no solution with it.
fn solver_step(b: &Board, solution: &Grid) -> Option<Step> {
    let i = b.open().min_by_key(|&i| (b.masks[i].count_ones(), i))?;
    let v = solution.0[i];
    let cell = b.geo.cell_name(i);
    let mut budget = nested::Budget(nested::budget_for(1));
    let reasons: Vec<String> = grid::digits(b.masks[i] & !grid::bit(v))
        .map(|d| {
            let out = nested::play_out(b, i, d, 1, &mut budget);
            match out.broke {
                Some(why) => format!(
                    "{cell}={d} breaks the grid after {} consequences: {why}",
                    out.facts.len().saturating_sub(1)
                ),
                None => format!("{cell}={d}: SAT finds no solution with it"),
            }
        })
        .collect();
    let text = if reasons.is_empty() {
        format!("{cell}={v}: the cell's only candidate (proven by SAT)")
    } else {
        format!(
            "{cell}={v}: the solver chose {cell}, the open cell with the fewest candidates; every other candidate leads to a contradiction:\n  {}",
            reasons.join("\n  ")
        )
    };
    Some(b.step(
        SOLVER_TECHNIQUE,
        base::SOLVER,
        b.cells_cv(&[i]),
        &[(i, v)],
        &[],
        text,
    ))
}

/// The whole path from the board's state: easiest step first, until solved or stuck.
pub fn solve_path(b: &mut Board, solution: Option<&Grid>, opts: ExplainOptions) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut leads = nested::Leads::default();
    while !b.solved() {
        let step = match next_step_with(b, opts.unique, &mut leads) {
            Some(s) => s,
            None => match solution.filter(|_| opts.fallback) {
                Some(sol) => match solver_step(b, sol) {
                    Some(s) => s,
                    None => break,
                },
                None => break,
            },
        };
        b.apply(&step);
        steps.push(step);
    }
    steps
}

/// The grade of the path from `s` when every step's rating `fits` (a level ceiling: `fits`
/// true up to some rating), else `None` as soon as the easiest step does not fit: the
/// techniques rated beyond the ceiling, the rest of the path and the fallback are never tried.
/// The steps taken are held to `solution` as [`crate::explain::Explain::explain`]'s are by its
/// callers; `Err` names a wrong one.
pub fn grade_within(
    s: &Sudoku,
    solution: &Grid,
    unique: bool,
    fits: &dyn Fn(f64) -> bool,
) -> Result<Option<crate::explain::Grade>, String> {
    let mut b = Board::new(s);
    let mut steps = Vec::new();
    let mut leads = nested::Leads::default();
    while !b.solved() {
        match next_step_within(&b, unique, &mut leads, fits) {
            Some(step) if fits(step.rating) => {
                b.apply(&step);
                steps.push(step);
            }
            _ => {
                crate::explain::verify_steps(&crate::puzzle::Puzzle::rows(s, solution), &steps)?;
                return Ok(None);
            }
        }
    }
    crate::explain::verify_steps(&crate::puzzle::Puzzle::rows(s, solution), &steps)?;
    Ok(Some(grade(&steps)))
}

impl Explain for Sudoku {
    fn step_pictures(&self, steps: &[Step], _look: Look) -> Option<Vec<Picture>> {
        Some(super::render::step_pictures(self, steps))
    }

    fn explain(&self, solution: &Grid, opts: ExplainOptions) -> Explanation {
        let mut b = Board::new(self);
        let steps = solve_path(&mut b, Some(solution), opts);
        let solved = b.solved();
        Explanation {
            grade: grade(&steps),
            stuck: (!solved).then(|| b.render_candidates()),
            steps,
            solved,
        }
    }
}

#[cfg(test)]
mod tests;
