//! One report per puzzle (text or a JSON Lines object), a summary line for batches, and the
//! exit code. The verbs are the generic ones of [`crate::puzzle`].

use super::args::{ProofArgs, RunArgs};
use super::solver_choice;
use crate::error::Result;
use crate::kinds::AnyPuzzle;
use crate::puzzle::{self, cell_name, Puzzle, Solutions, Style};
use crate::solver::SolverChoice;
use crate::with_puzzle;
use serde::Serialize;
use std::io::{BufWriter, Write};
use std::time::Instant;

/// What to find out about each puzzle.
#[derive(Clone, Copy, Debug)]
pub enum Mode {
    /// Any solution.
    Solve,
    /// Unique / several / none; `forced` adds the forced cells of a puzzle with several
    /// solutions; `grids` prints a unique solution's grid in text mode.
    Verdict { forced: bool, grids: bool },
    /// Count solutions up to a limit.
    Count(usize),
}

/// The result for one puzzle (the JSON Lines object).
#[derive(Serialize, Debug, Default)]
pub struct Report {
    pub file: String,
    pub index: usize,
    pub kind: &'static str,
    pub description: String,
    /// `unique`, `multiple`, `none`, or `solved` (a solution, uniqueness not asked).
    pub status: &'static str,
    /// Always present: `null` when there is no solution, so scripts need not test for the key.
    pub solution: Option<Vec<Vec<i64>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second_solution: Option<Vec<Vec<i64>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub differing_cells: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflicting_givens: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forced_cells: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count_complete: Option<bool>,
    pub time_ms: f64,
    /// With `--proof`: the files that prove a unique or none verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<super::proof::ProofFiles>,
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
    #[serde(skip)]
    pub text: String,
}

/// `style` is `None` for JSON output, where no text is drawn.
fn analyze<P: Puzzle>(
    p: &P,
    mode: Mode,
    choice: &SolverChoice,
    style: Option<Style>,
) -> Result<Report> {
    let mut r = Report {
        kind: p.kind().name(),
        description: p.describe(),
        ..Report::default()
    };
    let mut text = String::new();
    let add_extra = |r: &mut Report, s: &P::Solution| {
        for (k, v) in p.json_extra(s) {
            r.extra.insert(k.to_string(), v);
        }
    };
    match mode {
        Mode::Solve => match puzzle::solve(p, choice)? {
            Some(s) => {
                r.status = "solved";
                r.solution = Some(p.rows(&s));
                add_extra(&mut r, &s);
                if let Some(style) = style {
                    text.push_str(&p.render(Some(&s), style));
                }
            }
            None => none(p, choice, &mut r)?,
        },
        Mode::Verdict { forced, grids } => match puzzle::verdict(p, choice)? {
            Solutions::Unique(s) => {
                r.status = "unique";
                r.solution = Some(p.rows(&s));
                add_extra(&mut r, &s);
                if let (true, Some(style)) = (grids, style) {
                    text.push_str(&p.render(Some(&s), style));
                }
            }
            Solutions::Multiple(a, b, cells) => {
                r.status = "multiple";
                r.solution = Some(p.rows(&a));
                r.second_solution = Some(p.rows(&b));
                add_extra(&mut r, &a);
                r.differing_cells = Some(cells.iter().map(|&(y, x)| cell_name(y, x)).collect());
                if let Some(style) = style {
                    text.push_str("first solution:\n");
                    text.push_str(&p.render(Some(&a), style));
                    text.push_str("second solution:\n");
                    text.push_str(&p.render(Some(&b), style));
                }
                if forced {
                    let cells = puzzle::forced(p, choice)?.unwrap_or_default();
                    r.forced_cells = Some(
                        cells
                            .iter()
                            .map(|c| format!("{}={}", cell_name(c.row, c.col), c.value))
                            .collect(),
                    );
                }
            }
            Solutions::None => none(p, choice, &mut r)?,
        },
        Mode::Count(max) => {
            let sols = puzzle::count(p, choice, max)?;
            let complete = sols.len() < max;
            // The same words as a verdict, so scripts read `count` like `check`; a count
            // stopped at `--max 1` proves only that the puzzle is solvable.
            r.status = match (sols.len(), complete) {
                (0, _) => "none",
                (1, true) => "unique",
                (1, false) => "solved",
                _ => "multiple",
            };
            r.count = Some(sols.len());
            r.count_complete = Some(complete);
            if let Some(s) = sols.first() {
                r.solution = Some(p.rows(s));
            }
        }
    }
    r.text = text;
    Ok(r)
}

fn none<P: Puzzle>(p: &P, choice: &SolverChoice, r: &mut Report) -> Result<()> {
    r.status = "none";
    r.conflicting_givens = Some(puzzle::conflicts(p, choice)?.unwrap_or_default());
    Ok(())
}

/// The first line of a report in text mode.
fn headline(r: &Report, mode: Mode) -> String {
    let what = match r.status {
        "unique" => "unique".to_string(),
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
            Some([]) | None => "no solution (the rules have none even without givens)".to_string(),
            Some([g]) => format!("no solution; this given alone conflicts with the rules: {g}"),
            Some(g) => format!(
                "no solution; these {} givens conflict: {}",
                g.len(),
                g.join(" ")
            ),
        },
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
    format!(
        "{} #{} ({} {}): {}",
        r.file, r.index, r.kind, r.description, what
    )
}

/// Runs `mode` on every puzzle, prints reports and a summary, and returns the exit code.
pub fn run_batch(
    files: &[(String, Vec<AnyPuzzle>)],
    mode: Mode,
    run: &RunArgs,
    proof: &ProofArgs,
    color: super::args::ColorWhen,
) -> Result<i32> {
    let choice = solver_choice(run)?;
    let proofs = super::proof::Proofs::new(proof, files)?;
    // `--format`: the puzzles are written back with their solutions at the end; checked first.
    let mut written: Vec<(&AnyPuzzle, Option<Vec<Vec<i64>>>)> = Vec::new();
    if let Some(f) = &run.format {
        if run.json {
            return Err(crate::error::Error::Usage(
                "--format and --json do not go together".into(),
            ));
        }
        let all: Vec<(&AnyPuzzle, Option<&Vec<Vec<i64>>>)> = files
            .iter()
            .flat_map(|(_, ps)| ps.iter().map(|p| (p, None)))
            .collect();
        crate::kinds::write_solutions(f, &all).map_err(crate::error::Error::Usage)?;
    }
    let total: usize = files.iter().map(|(_, ps)| ps.len()).sum();
    let style = super::style(color);
    let bar = super::progress_bar(run.no_progress, total, 20);
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let (mut unique, mut multiple, mut none, mut solved) = (0usize, 0usize, 0usize, 0usize);
    let start = Instant::now();
    for (file, puzzles) in files {
        for (i, any) in puzzles.iter().enumerate() {
            let t = Instant::now();
            let text_style = (!run.json).then_some(style);
            let mut r = with_puzzle!(any, p => analyze(p, mode, &choice, text_style))?;
            r.time_ms = (t.elapsed().as_secs_f64() * 1e6).round() / 1e3;
            r.file = file.clone();
            r.index = i + 1;
            if let Some(proofs) = &proofs {
                r.proof = with_puzzle!(any, p => proofs.prove(p, &r, &choice))?;
            }
            match r.status {
                "unique" => unique += 1,
                "multiple" => multiple += 1,
                "none" => none += 1,
                _ => solved += 1,
            }
            if run.format.is_some() {
                let solved = matches!(r.status, "unique" | "solved");
                written.push((any, r.solution.clone().filter(|_| solved)));
            }
            let mut write = || -> std::io::Result<()> {
                let proof_line = r.proof.as_ref().map(super::proof::line);
                if run.format.is_some() {
                    eprintln!("{}", headline(&r, mode));
                    if let Some(l) = &proof_line {
                        eprintln!("{l}");
                    }
                    Ok(())
                } else if run.json {
                    serde_json::to_writer(&mut out, &r)?;
                    writeln!(out)
                } else {
                    writeln!(out, "{}", headline(&r, mode))?;
                    if let Some(forced) = &r.forced_cells {
                        writeln!(out, "forced cells ({}): {}", forced.len(), forced.join(" "))?;
                    }
                    if let Some(l) = &proof_line {
                        writeln!(out, "{l}")?;
                    }
                    write!(out, "{}", r.text)?;
                    if !r.text.is_empty() {
                        writeln!(out)?;
                    }
                    Ok(())
                }
            };
            let res = match &bar {
                Some(b) => b.suspend(&mut write),
                None => write(),
            };
            if let Err(e) = res {
                if e.kind() == std::io::ErrorKind::BrokenPipe {
                    return Ok(0);
                }
                return Err(crate::error::Error::Usage(format!(
                    "cannot write output: {e}"
                )));
            }
            if let Some(b) = &bar {
                b.inc(1);
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(f) = &run.format {
        let items: Vec<(&AnyPuzzle, Option<&Vec<Vec<i64>>>)> =
            written.iter().map(|(p, s)| (*p, s.as_ref())).collect();
        let doc = crate::kinds::write_solutions(f, &items).map_err(crate::error::Error::Usage)?;
        if let Err(e) = out.write_all(doc.as_bytes()) {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                return Err(crate::error::Error::Usage(format!(
                    "cannot write output: {e}"
                )));
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    if total > 1 {
        let rate = if secs > 0.0 { total as f64 / secs } else { 0.0 };
        let line = match mode {
            Mode::Verdict { .. } | Mode::Count(_) if solved == 0 => format!(
                "summary: {total} puzzles: {unique} unique, {multiple} multiple, {none} none in {secs:.3} s ({rate:.0} puzzles/s)"
            ),
            _ => format!("summary: {total} puzzles: {solved} solved, {none} none in {secs:.3} s ({rate:.0} puzzles/s)"),
        };
        if run.json || run.format.is_some() {
            eprintln!("{line}");
        } else {
            let _ = writeln!(out, "{line}");
        }
    }
    let _ = out.flush();
    Ok(if multiple > 0 || none > 0 { 1 } else { 0 })
}
