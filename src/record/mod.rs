//! The records gridsat reports, built once for every front end (the command line, the web page,
//! the Python package), so that each prints the same JSON for the same puzzle:
//! - [`Report`]: what `solve`, `check` and `count` found about one puzzle (the JSON Lines object
//!   of `--json`, and its text form), from the verdict analysis [`find`];
//! - [`explain`]: the records of `explain`, `hint` and `grade`;
//! - [`generated`]: the record of a generated puzzle;
//! - [`dimacs`]: the CNF of `gridsat dimacs` and an external solver's answer read back;
//! - [`pictures`]: the pictures of what was found (differing cells, conflicting givens shaded).
//!
//! No clocks here: a caller that times a run fills `time_ms` (and `timeout_s` when its time
//! limit ran out) and stops a run by raising the [`crate::solver::Stop`] flag of its
//! [`SolverChoice`].

pub mod dimacs;
pub mod explain;
pub mod generated;
pub mod pictures;

use crate::error::{Error, Result};
use crate::proof::ProofFiles;
use crate::puzzle::{self, cell_name, CellValue, Checked, Puzzle, Solutions, Style};
use crate::solver::SolverChoice;
use serde::Serialize;

/// What to find out about a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Any solution.
    Solve,
    /// Unique / several / none; `forced` adds the forced cells of a puzzle with several
    /// solutions; `grids` draws a unique solution's grid in the text form.
    Verdict { forced: bool, grids: bool },
    /// Count solutions up to a limit.
    Count(usize),
}

/// What the solver found about one puzzle, with the solutions themselves (a front end draws
/// them; [`report`] turns them into the record).
#[derive(Clone, Debug)]
pub enum Finding<S> {
    /// A solution; uniqueness not asked ([`Mode::Solve`]).
    Solved(S),
    /// A solution; the time limit stopped the search for a second one (`None`), or the model
    /// that would look for it is too large (`Some(why)`).
    Open(S, Option<String>),
    /// The only solution.
    Unique(S),
    /// Two solutions, the cells (row, col) where they differ, and with `forced` the cells that
    /// are the same in every solution.
    Multiple {
        first: S,
        second: S,
        cells: Vec<(usize, usize)>,
        forced: Option<Vec<CellValue>>,
    },
    /// No solution, and a set of givens that conflict (empty: the rules alone have none):
    /// minimal unless the time limit ran out while they were narrowed down (`minimal` false,
    /// [`crate::puzzle::conflicts_until_stopped`]).
    None {
        conflicting: Vec<String>,
        minimal: bool,
    },
    /// Up to the limit of solutions; `complete` when they are all there are.
    Counted { solutions: Vec<S>, complete: bool },
}

/// The verdict analysis: runs `mode` on `p` with the generic verbs of [`crate::puzzle`]. A
/// stop flag raised in `choice` ends it with [`crate::solver::SolverError::Stopped`] (or, once
/// a first solution is known, with [`Finding::Open`]).
pub fn find<P: Puzzle>(p: &P, mode: Mode, choice: &SolverChoice) -> Result<Finding<P::Solution>> {
    let none = || -> Result<Finding<P::Solution>> {
        let found = puzzle::conflicts_until_stopped(p, choice)?;
        Ok(Finding::None {
            minimal: found.as_ref().is_none_or(|c| c.minimal),
            conflicting: found.map(|c| c.givens).unwrap_or_default(),
        })
    };
    Ok(match mode {
        Mode::Solve => match puzzle::solve(p, choice)? {
            Some(s) => Finding::Solved(s),
            None => none()?,
        },
        Mode::Verdict { forced, .. } => match puzzle::check(p, choice)? {
            Checked::Found(s, why) => Finding::Open(s, why),
            Checked::Decided(Solutions::Unique(s)) => Finding::Unique(s),
            Checked::Decided(Solutions::Multiple(first, second, cells)) => {
                let forced = if forced {
                    Some(puzzle::forced(p, choice)?.unwrap_or_default())
                } else {
                    None
                };
                Finding::Multiple {
                    first,
                    second,
                    cells,
                    forced,
                }
            }
            Checked::Decided(Solutions::None) => none()?,
        },
        Mode::Count(max) => {
            let solutions = puzzle::count(p, choice, max)?;
            let complete = solutions.len() < max;
            Finding::Counted {
                solutions,
                complete,
            }
        }
    })
}

/// The result for one puzzle (the JSON Lines object of `solve`, `check` and `count`).
#[derive(Serialize, Debug, Default, Clone)]
pub struct Report {
    pub file: String,
    pub index: usize,
    pub kind: &'static str,
    pub description: String,
    /// `unique`, `multiple`, `none`, `solved` (a solution: uniqueness not asked, or, with
    /// `timeout_s`, the time limit ran out looking for a second one), `unknown` (the time limit
    /// ran out before any answer) or `error` (bad input, or the solver failed).
    pub status: &'static str,
    /// Always present: `null` when there is no solution, so scripts need not test for the key.
    pub solution: Option<Vec<Vec<i64>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second_solution: Option<Vec<Vec<i64>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub differing_cells: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflicting_givens: Option<Vec<String>>,
    /// `false` when the time limit ran out while the conflicting givens were narrowed down:
    /// they conflict, but some may not be needed (absent when they are minimal).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflicts_minimal: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forced_cells: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count_complete: Option<bool>,
    pub time_ms: f64,
    /// With `--proof`: the files that prove a unique or none verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<ProofFiles>,
    /// With an external solver (`--solver`): whether the verdict was checked. Its models are
    /// (against the clauses and the rule checker), so `solved` and `multiple` are; `unique`,
    /// `none` and a complete count rest on its UNSATISFIABLE alone (`false`) unless a proof or a
    /// second solver checked them (see [`Report::rests_on_unsat`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
    /// `unknown`, or `solved` by `check`/`solve`: the limit that ran out, in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_s: Option<f64>,
    /// `error`: what went wrong (with file, line and column for bad input).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub col: Option<usize>,
    /// Kind-specific fields of the solution (Numberlink's `paths`).
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
    /// The solution grids of the text form (drawn when a style was given).
    #[serde(skip)]
    pub text: String,
    /// The exit code this puzzle asks for (0 to 3, see [`crate::error::Error::exit_code`]).
    #[serde(skip)]
    pub code: i32,
    /// Pictures a front end drew for the record (the command line's `--format svg|png|pdf`).
    #[serde(skip)]
    pub pictures: Vec<crate::draw::Picture>,
    /// A verdict was asked, a solution found, and the time limit stopped the search for a
    /// second one.
    #[serde(skip)]
    pub uniqueness_open: bool,
    /// Why uniqueness is open when it is not the time limit: the model that would look for a
    /// second solution is too large (Shisen-sho's big gravity boards).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_reason: Option<String>,
}

/// The record of `finding` about `p`. `style` draws the solution grids of the text form
/// (`None` for JSON, where no text is drawn).
pub fn report<P: Puzzle>(
    p: &P,
    finding: &Finding<P::Solution>,
    mode: Mode,
    style: Option<Style>,
) -> Report {
    let mut r = Report {
        kind: p.kind().name(),
        description: p.describe(),
        ..Report::default()
    };
    let add_extra = |r: &mut Report, s: &P::Solution| {
        for (k, v) in p.json_extra(s) {
            r.extra.insert(k.to_string(), v);
        }
    };
    let grids = match mode {
        Mode::Solve => true,
        Mode::Verdict { grids, .. } => grids,
        Mode::Count(_) => false,
    };
    // One solution: its rows and extras, and its grid in the text form when `grid`.
    let one = |r: &mut Report, s: &P::Solution, grid: bool| {
        r.solution = Some(p.rows(s));
        add_extra(r, s);
        if let (true, Some(style)) = (grid, style) {
            r.text.push_str(&p.render(Some(s), style));
        }
    };
    match finding {
        Finding::Solved(s) => {
            r.status = "solved";
            one(&mut r, s, true);
        }
        Finding::Open(s, why) => {
            r.status = "solved";
            r.uniqueness_open = true;
            r.open_reason.clone_from(why);
            one(&mut r, s, grids);
        }
        Finding::Unique(s) => {
            r.status = "unique";
            one(&mut r, s, grids);
        }
        Finding::Multiple {
            first,
            second,
            cells,
            forced,
        } => {
            r.status = "multiple";
            r.solution = Some(p.rows(first));
            r.second_solution = Some(p.rows(second));
            add_extra(&mut r, first);
            r.differing_cells = Some(cells.iter().map(|&(y, x)| cell_name(y, x)).collect());
            if let Some(style) = style {
                r.text.push_str("first solution:\n");
                r.text.push_str(&p.render(Some(first), style));
                r.text.push_str("second solution:\n");
                r.text.push_str(&p.render(Some(second), style));
            }
            r.forced_cells = forced.as_ref().map(|cells| {
                cells
                    .iter()
                    .map(|c| format!("{}={}", cell_name(c.row, c.col), c.value))
                    .collect()
            });
        }
        Finding::None {
            conflicting,
            minimal,
        } => {
            r.status = "none";
            r.conflicting_givens = Some(conflicting.clone());
            r.conflicts_minimal = (!minimal).then_some(false);
        }
        Finding::Counted {
            solutions,
            complete,
        } => {
            // The same words as a verdict, so scripts read `count` like `check`; a count
            // stopped at `--max 1` proves only that the puzzle is solvable.
            r.status = match (solutions.len(), complete) {
                (0, _) => "none",
                (1, true) => "unique",
                (1, false) => "solved",
                _ => "multiple",
            };
            r.count = Some(solutions.len());
            r.count_complete = Some(*complete);
            if let Some(s) = solutions.first() {
                r.solution = Some(p.rows(s));
            }
        }
    }
    r
}

/// [`find`] and [`report`] in one call.
pub fn analyze<P: Puzzle>(
    p: &P,
    mode: Mode,
    choice: &SolverChoice,
    style: Option<Style>,
) -> Result<Report> {
    Ok(report(p, &find(p, mode, choice)?, mode, style))
}

impl Report {
    /// The report for an error in a puzzle's place.
    pub fn failed(e: &Error) -> Report {
        let (line, col) = match e {
            Error::Input(i) => (Some(i.line), Some(i.col)),
            _ => (None, None),
        };
        Report {
            status: "error",
            error: Some(e.to_string()),
            line,
            col,
            code: e.exit_code(),
            ..Report::default()
        }
    }

    /// The report for a puzzle whose time limit (`timeout_s` seconds) ran out before any answer.
    pub fn stopped<P: Puzzle>(p: &P, timeout_s: Option<f64>) -> Report {
        Report {
            status: "unknown",
            kind: p.kind().name(),
            description: p.describe(),
            timeout_s,
            code: 1,
            ..Report::default()
        }
    }

    /// The report of a run: [`analyze`]'s record, [`Report::stopped`] when the stop flag
    /// ended it, [`Report::failed`] for any other error.
    pub fn of_run<P: Puzzle>(p: &P, got: Result<Report>, timeout_s: Option<f64>) -> Report {
        match got {
            Ok(r) => r,
            Err(Error::Solver(crate::solver::SolverError::Stopped)) => {
                Report::stopped(p, timeout_s)
            }
            Err(e) => Report::failed(&e),
        }
    }

    /// Completes the record once the caller's clock is read: the time spent (milliseconds,
    /// rounded to microseconds), the time limit when it left uniqueness open, and the exit code
    /// (1 for no solution, several, unknown or an open uniqueness).
    pub fn finish(&mut self, time_ms: f64, timeout_s: Option<f64>) {
        if self.uniqueness_open || self.conflicts_minimal == Some(false) {
            if self.open_reason.is_none() {
                self.timeout_s = timeout_s;
            }
            self.code = self.code.max(1);
        }
        self.time_ms = (time_ms * 1e3).round() / 1e3;
        if self.code == 0 && matches!(self.status, "multiple" | "none") {
            self.code = 1;
        }
    }

    /// The JSON Lines object (one line, no newline): an error is only where and what went
    /// wrong.
    pub fn to_json(&self) -> String {
        if self.status == "error" {
            let rec = ErrorRecord {
                file: &self.file,
                index: self.index,
                status: "error",
                error: self.error.as_deref().unwrap_or(""),
                line: self.line,
                col: self.col,
                time_ms: self.time_ms,
            };
            return serde_json::to_string(&rec).unwrap_or_default();
        }
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The first line of the text form: `file #index (kind description): verdict`.
    pub fn headline(&self, mode: Mode) -> String {
        let r = self;
        let what = match r.status {
            "unique" => "unique".to_string(),
            "solved" if r.uniqueness_open && r.open_reason.is_some() => format!(
                "solved; unique or not is unknown: {} ({:.3} s spent)",
                r.open_reason.as_deref().unwrap_or_default(),
                r.time_ms / 1e3
            ),
            "solved" if r.uniqueness_open => format!(
                "solved; unique or not is unknown: the time limit ran out looking for a second \
                 solution ({} s; {:.3} s spent)",
                r.timeout_s.unwrap_or_default(),
                r.time_ms / 1e3
            ),
            "solved" => "solved (uniqueness not checked)".to_string(),
            "multiple" => {
                let cells = r.differing_cells.as_deref().unwrap_or(&[]);
                format!(
                    "several solutions; two of them differ in {}: {}",
                    crate::text::count_of(cells.len(), "cell"),
                    cells.join(" ")
                )
            }
            "none" => match r.conflicting_givens.as_deref() {
                Some([]) => "no solution (the rules have none even without givens)".to_string(),
                None => "no solution".to_string(),
                Some([g]) => format!("no solution; this given alone conflicts with the rules: {g}"),
                Some(g) if r.conflicts_minimal == Some(false) => format!(
                    "no solution; these {} givens conflict (the time limit ran out before each \
                     was shown needed): {}",
                    g.len(),
                    g.join(" ")
                ),
                Some(g) => format!(
                    "no solution; these {} givens conflict: {}",
                    g.len(),
                    g.join(" ")
                ),
            },
            "unknown" => format!(
                "unknown: no answer within the time limit ({} s; {:.3} s spent)",
                r.timeout_s.unwrap_or_default(),
                r.time_ms / 1e3
            ),
            _ => String::new(),
        };
        let what = match (mode, r.count) {
            (Mode::Count(max), Some(n)) if n >= max => {
                let s = if n == 1 { "" } else { "s" };
                format!("at least {n} solution{s} (counting stopped at --max {max})")
            }
            (Mode::Count(_), Some(n)) => format!("{n} solution{}", if n == 1 { "" } else { "s" }),
            _ => what,
        };
        let unverified = if r.verified == Some(false) {
            " (unverified: this rests on the external solver's UNSATISFIABLE; --verify or --proof checks it)"
        } else {
            ""
        };
        format!(
            "{} #{} ({} {}): {what}{unverified}",
            r.file, r.index, r.kind, r.description
        )
    }

    /// True when the verdict rests on a solver's UNSATISFIABLE: no solution, no second one, or
    /// a complete count.
    pub fn rests_on_unsat(&self) -> bool {
        match self.count_complete {
            Some(complete) => complete,
            None => matches!(self.status, "unique" | "none"),
        }
    }

    /// The text form of a record that is not an error: the headline, the forced cells, the
    /// proof's line, and the solution grids, each line ending in a newline.
    pub fn to_text(&self, mode: Mode) -> String {
        let mut s = self.headline(mode);
        s.push('\n');
        if let Some(forced) = &self.forced_cells {
            s.push_str(&format!(
                "forced cells ({}): {}\n",
                forced.len(),
                forced.join(" ")
            ));
        }
        if let Some(p) = &self.proof {
            s.push_str(&p.line());
            s.push('\n');
        }
        s.push_str(&self.text);
        if !self.text.is_empty() {
            s.push('\n');
        }
        s
    }
}

/// The JSON Lines object for an error in a puzzle's place: where, and what went wrong.
#[derive(Serialize)]
struct ErrorRecord<'a> {
    file: &'a str,
    index: usize,
    status: &'static str,
    error: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    col: Option<usize>,
    time_ms: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::{self, AnyPuzzle, ReadOptions};
    use crate::puzzle::Kind;
    use crate::solver::Stop;

    fn sudoku(text: &str) -> AnyPuzzle {
        kinds::read("t.txt", text, Kind::Sudoku, &ReadOptions::default())
            .unwrap()
            .remove(0)
    }

    fn check(text: &str, mode: Mode) -> Report {
        let AnyPuzzle::Sudoku(p) = sudoku(text) else {
            unreachable!()
        };
        let mut r = analyze(&p, mode, &SolverChoice::Embedded, Some(Style::default())).unwrap();
        r.finish(1.2345678, None);
        r.file = "t.txt".into();
        r.index = 1;
        r
    }

    const UNIQUE: &str = "......24..4.1...\n";
    const SEVERAL: &str =
        ".3..2..7......39...8...42.....541..6...8.....6....2.8..7......9.....64.21.4.98..7\n";
    const NONE: &str =
        ".3..6..7......39...8...42....8541..6...8.....6....2.8..7......9.....64.21.4.98..7\n";
    const VERDICT: Mode = Mode::Verdict {
        forced: true,
        grids: false,
    };

    #[test]
    fn a_unique_puzzle_is_recorded_with_its_solution() {
        let r = check(UNIQUE, VERDICT);
        assert_eq!((r.status, r.code), ("unique", 0));
        assert_eq!(r.time_ms, 1.235, "rounded to microseconds");
        let json = r.to_json();
        assert!(
            json.starts_with(r#"{"file":"t.txt","index":1,"kind":"sudoku","description":"4x4, boxes 2x2, 4 givens","status":"unique","solution":[["#),
            "{json}"
        );
        assert!(json.ends_with(r#""time_ms":1.235}"#), "{json}");
        assert_eq!(
            r.to_text(VERDICT),
            "t.txt #1 (sudoku 4x4, boxes 2x2, 4 givens): unique\n"
        );
        // `solve` draws the grid under the headline.
        let r = check(UNIQUE, Mode::Solve);
        assert_eq!(r.status, "solved");
        assert!(r.to_text(Mode::Solve).lines().count() > 4);
    }

    #[test]
    fn several_solutions_name_the_differing_and_forced_cells() {
        let r = check(SEVERAL, VERDICT);
        assert_eq!((r.status, r.code), ("multiple", 1));
        let cells = r.differing_cells.clone().unwrap();
        assert!(!cells.is_empty());
        assert_ne!(r.solution, r.second_solution);
        let forced = r.forced_cells.clone().unwrap();
        assert!(
            !forced.is_empty()
                && forced
                    .iter()
                    .all(|c| !cells.iter().any(|d| c.starts_with(&format!("{d}="))))
        );
        let text = r.to_text(VERDICT);
        assert!(
            text.contains("several solutions; two of them differ in"),
            "{text}"
        );
        assert!(text.contains(&format!("forced cells ({}): ", forced.len())));
    }

    #[test]
    fn no_solution_names_the_conflicting_givens() {
        let r = check(NONE, VERDICT);
        assert_eq!((r.status, r.code), ("none", 1));
        assert_eq!(r.solution, None);
        assert!(!r.conflicting_givens.clone().unwrap().is_empty());
        assert!(r.to_json().contains(r#""solution":null"#));
    }

    #[test]
    fn counts_use_the_verdict_words() {
        let r = check(SEVERAL, Mode::Count(1));
        assert_eq!(
            (r.status, r.count, r.count_complete),
            ("solved", Some(1), Some(false))
        );
        assert!(r
            .to_text(Mode::Count(1))
            .contains("at least 1 solution (counting stopped at --max 1)"));
        let r = check(UNIQUE, Mode::Count(5));
        assert_eq!((r.status, r.count), ("unique", Some(1)));
    }

    #[test]
    fn an_open_uniqueness_says_why_the_time_limit_or_the_models_size() {
        let AnyPuzzle::Sudoku(p) = sudoku(SEVERAL) else {
            unreachable!()
        };
        let s = crate::puzzle::solve(&p, &SolverChoice::Embedded)
            .unwrap()
            .unwrap();
        let mut timed = report(&p, &Finding::Open(s.clone(), None), VERDICT, None);
        timed.finish(100.0, Some(30.0));
        assert_eq!((timed.code, timed.timeout_s), (1, Some(30.0)));
        assert!(timed.headline(VERDICT).ends_with(
            "the time limit ran out looking for a second solution (30 s; 0.100 s spent)"
        ));
        let why = "the board is too large for the models".to_string();
        let mut large = report(&p, &Finding::Open(s, Some(why)), VERDICT, None);
        large.finish(100.0, Some(30.0));
        assert_eq!(
            (large.status, large.code, large.timeout_s),
            ("solved", 1, None)
        );
        let line = large.headline(VERDICT);
        assert!(
            line.ends_with("solved; unique or not is unknown: the board is too large for the models (0.100 s spent)"),
            "{line}"
        );
        assert!(large
            .to_json()
            .contains(r#""open_reason":"the board is too large for the models""#));
    }

    #[test]
    fn a_raised_stop_flag_is_unknown_and_an_error_is_where_and_what() {
        let AnyPuzzle::Sudoku(p) = sudoku(SEVERAL) else {
            unreachable!()
        };
        let stop = Stop::new();
        stop.raise();
        let choice = SolverChoice::Embedded.until(&stop);
        let got = analyze(&p, VERDICT, &choice, None);
        let mut r = Report::of_run(&p, got, Some(2.5));
        r.finish(250.0, Some(2.5));
        assert_eq!((r.status, r.code, r.timeout_s), ("unknown", 1, Some(2.5)));
        assert!(r
            .headline(VERDICT)
            .ends_with("unknown: no answer within the time limit (2.5 s; 0.250 s spent)"));
        let e = kinds::read("bad.txt", "12x\n", Kind::Sudoku, &ReadOptions::default()).unwrap_err();
        let mut r = Report::failed(&Error::Input(e));
        r.finish(0.0, None);
        assert_eq!(r.code, 2);
        let json = r.to_json();
        assert!(
            json.starts_with(r#"{"file":"","index":0,"status":"error","error":"bad.txt:1:"#)
                && json.contains(r#""line":1,"col":"#),
            "{json}"
        );
    }
}
