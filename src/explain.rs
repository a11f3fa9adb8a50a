//! Explanations shared by every kind: a [`Step`] a person can follow, the whole path
//! ([`Explanation`]), a [`Grade`], and [`verify_steps`], which holds every step to the SAT
//! solution ("SAT decides; people's techniques explain": a step that places a wrong value or
//! removes the true one is a bug).

use crate::draw::{Look, Picture};
use crate::puzzle::{cell_name, CellValue, Puzzle};
use serde::Serialize;

/// One step of a human-style solution.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    /// The technique's name as players know it (`hidden single`, `X-Wing`), or `solver` for a
    /// step proven by SAT when the techniques ran out (`--fallback`).
    pub technique: String,
    /// How hard this step is, on the kind's rating scale.
    pub rating: f64,
    /// The cells and candidates that make the pattern (value 0: the cell as a whole).
    pub pattern: Vec<CellValue>,
    /// Values placed by this step.
    pub placements: Vec<CellValue>,
    /// Candidates removed by this step.
    pub eliminations: Vec<CellValue>,
    /// The links of a chain, in order (chain techniques; empty for the others): each joins
    /// two candidates, strongly (one of the two is true) or weakly (not both). Pictures draw
    /// them; the text writes them in Eureka notation. Numberlink: the links a step draws
    /// between neighbouring cells (strong), each end with its path's number, or 0 while that is
    /// not known; `verify_links` holds them to the solution.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<Link>,
    /// One line in the form players use (`hidden pair in row 4 removes 7 from r4c9`).
    pub text: String,
}

/// A link of a chain between two candidates (cell and value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Link {
    pub from: CellValue,
    pub to: CellValue,
    /// True for a strong link (one of the two is true), false for a weak one (not both).
    pub strong: bool,
}

impl Step {
    /// True for a step proven by the solver rather than found by a technique.
    pub fn by_solver(&self) -> bool {
        self.technique == SOLVER_TECHNIQUE
    }
}

/// The technique name of fallback steps.
pub const SOLVER_TECHNIQUE: &str = "solver";

/// The level words of every kind's grade, easiest first (what each means per kind:
/// docs/levels.md). `generate --difficulty` takes the same words ([`crate::generate::difficulty`]).
pub const LEVELS: [&str; 5] = ["easy", "medium", "hard", "expert", "extreme"];

/// How hard a puzzle is.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Grade {
    /// A level word of [`LEVELS`].
    pub level: String,
    /// A number on the kind's scale (for Sudoku, comparable to Sudoku Explainer's).
    pub rating: f64,
    /// The hardest technique the path needed.
    pub hardest: String,
    /// How many steps of each technique the path took, hardest first.
    pub techniques: Vec<(String, usize)>,
}

/// The grade of a path: its hardest step's rating, the level word `level` gives for it, and
/// how many steps each technique took, hardest first. Kinds pass their own rating scale.
pub fn grade_by_hardest(steps: &[Step], level: impl Fn(f64) -> &'static str) -> Grade {
    let hardest = steps.iter().max_by(|a, b| a.rating.total_cmp(&b.rating));
    let rating = hardest.map_or(0.0, |s| s.rating);
    let mut techniques: Vec<(String, usize, f64)> = Vec::new();
    for s in steps {
        match techniques.iter_mut().find(|(t, _, _)| *t == s.technique) {
            Some(t) => t.1 += 1,
            None => techniques.push((s.technique.clone(), 1, s.rating)),
        }
    }
    crate::sort::by(&mut techniques, |a, b| b.2.total_cmp(&a.2));
    Grade {
        level: level(rating).into(),
        rating,
        hardest: hardest.map_or("none".into(), |s| s.technique.clone()),
        techniques: techniques.into_iter().map(|(t, k, _)| (t, k)).collect(),
    }
}

/// A whole path from the givens.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    pub steps: Vec<Step>,
    /// True when the path ends with every cell solved.
    pub solved: bool,
    /// When the techniques ran out (and no fallback was allowed): where the path stands, drawn
    /// for a person (candidates or the partial grid).
    pub stuck: Option<String>,
    pub grade: Grade,
}

/// What an explanation may use.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExplainOptions {
    /// Continue with solver-proven steps when the techniques run out.
    pub fallback: bool,
    /// SAT has proven the puzzle unique, so uniqueness-based techniques are allowed.
    pub unique: bool,
}

/// A kind that can explain itself like a person.
pub trait Explain: Puzzle {
    /// The whole path from the givens. `solution` is the SAT solution: techniques never read it,
    /// but fallback steps take their value from it.
    fn explain(&self, solution: &Self::Solution, opts: ExplainOptions) -> Explanation;

    /// Pictures of a path from the givens ([`crate::draw`]): one per step, showing the
    /// position before it with the step drawn on it, then one of the position after the last
    /// step. `None` for a kind that has no pictures.
    fn step_pictures(&self, _steps: &[Step], _look: Look) -> Option<Vec<Picture>> {
        None
    }

    /// True when only a puzzle with exactly one solution is explained (the default). A kind
    /// whose every solution makes a path worth explaining (any plan that clears a Shisen-sho
    /// board) says false, and gets the first solution SAT finds.
    fn needs_unique(&self) -> bool {
        true
    }

    /// Holds steps to the SAT solution: by default [`verify_steps`] on [`Puzzle::rows`]. A kind
    /// whose steps decide more than cell values (Numberlink's links) checks that too.
    fn verify(&self, solution: &Self::Solution, steps: &[Step]) -> Result<(), String> {
        verify_steps(&self.rows(solution), steps)
    }
}

/// Checks every step against the solution (`rows` as [`Puzzle::rows`] gives it): placements
/// must be the solution's values, eliminations must never remove them.
pub fn verify_steps(rows: &[Vec<i64>], steps: &[Step]) -> Result<(), String> {
    let value = |c: &CellValue| rows.get(c.row).and_then(|r| r.get(c.col)).copied();
    for (k, s) in steps.iter().enumerate() {
        for p in &s.placements {
            if value(p) != Some(p.value) {
                return Err(format!(
                    "step {} ({}) places {}={} but the solution has {:?}: {}",
                    k + 1,
                    s.technique,
                    cell_name(p.row, p.col),
                    p.value,
                    value(p),
                    s.text
                ));
            }
        }
        for e in &s.eliminations {
            if value(e) == Some(e.value) {
                return Err(format!(
                    "step {} ({}) removes {} from {}, the solution's value: {}",
                    k + 1,
                    s.technique,
                    e.value,
                    cell_name(e.row, e.col),
                    s.text
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cv(row: usize, col: usize, value: i64) -> CellValue {
        CellValue { row, col, value }
    }

    #[test]
    fn grade_takes_the_hardest_step_and_counts_techniques() {
        let step = |technique: &str, rating: f64| Step {
            technique: technique.into(),
            rating,
            pattern: vec![],
            placements: vec![],
            eliminations: vec![],
            links: vec![],
            text: String::new(),
        };
        let steps = [step("a", 1.0), step("b", 3.0), step("a", 1.0)];
        let g = grade_by_hardest(&steps, |r| if r > 2.0 { "hard" } else { "easy" });
        assert_eq!(
            (g.level.as_str(), g.rating, g.hardest.as_str()),
            ("hard", 3.0, "b")
        );
        assert_eq!(
            g.techniques,
            vec![("b".to_string(), 1), ("a".to_string(), 2)]
        );
        assert_eq!(grade_by_hardest(&[], |_| "easy").hardest, "none");
    }

    #[test]
    fn steps_must_agree_with_the_solution() {
        let rows = vec![vec![1, 2], vec![2, 1]];
        let good = Step {
            technique: "naked single".into(),
            rating: 1.0,
            pattern: vec![],
            placements: vec![cv(0, 0, 1)],
            eliminations: vec![cv(0, 1, 1)],
            links: vec![],
            text: "r1c1=1".into(),
        };
        assert_eq!(verify_steps(&rows, std::slice::from_ref(&good)), Ok(()));
        let mut wrong_place = good.clone();
        wrong_place.placements = vec![cv(0, 0, 2)];
        assert!(verify_steps(&rows, &[good.clone(), wrong_place])
            .unwrap_err()
            .starts_with("step 2"));
        let mut wrong_elim = good;
        wrong_elim.eliminations = vec![cv(1, 1, 1)];
        assert!(verify_steps(&rows, &[wrong_elim])
            .unwrap_err()
            .contains("removes 1 from r2c2"));
    }
}
