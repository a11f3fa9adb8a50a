//! `solve`, `check` and `count` over batches: one report per puzzle (the library's
//! [`crate::record::Report`], printed as text or a JSON Lines object), timed here, pictures and
//! proofs added here, a summary line for batches, and the exit code. [`super::batch`] runs
//! the puzzles side by side and hands the reports back in input order.

use super::args::{InputArgs, ProofArgs, RunArgs};
use super::batch::{self, Input, Watchdog};
use super::output::{say, Stdout};
use super::{picture, solver_choice};
use crate::cnf::limits::{self, Limits};
use crate::error::{Error, Result};
use crate::kinds::AnyPuzzle;
use crate::puzzle::{Puzzle, Style};
pub use crate::record::Mode;
use crate::record::{self, Report};
use crate::solver::{SolverChoice, SolverError, Stop};
use crate::with_puzzle;
use std::time::Instant;

/// The library's record of `p` (see [`crate::record`]), with its pictures when asked.
fn analyze<P: Puzzle>(
    p: &P,
    mode: Mode,
    choice: &SolverChoice,
    style: Option<Style>,
    draw: Option<&picture::Request>,
) -> Result<Report> {
    let found = record::find(p, mode, choice)?;
    let mut r = record::report(p, &found, mode, style);
    if let Some(q) = draw {
        r.pictures = record::pictures::of_finding(p, &found, q.show, q.look);
    }
    Ok(r)
}

/// The report for one puzzle of a batch: the verdict, `unknown` when the time ran out, or the
/// error in its place. This is what a worker runs.
#[allow(clippy::too_many_arguments)] // one per option of the run that touches a puzzle
fn analyze_input(
    input: &Input,
    mode: Mode,
    choice: &SolverChoice,
    watchdog: Option<&Watchdog>,
    style: Option<Style>,
    draw: Option<&picture::Request>,
    proofs: Option<&super::proof::Proofs>,
    verify: bool,
    budget: u64,
) -> Report {
    let verify = verify && is_external(choice);
    let t = Instant::now();
    let limit = watchdog.map(|w| w.limit().as_secs_f64());
    let mut r = match &input.puzzle {
        Err(e) => Report::failed(e),
        Ok(any) => {
            let got = batch::timed(watchdog, choice, |c| {
                let limits = Limits {
                    stop: c.stop().map(Stop::flag),
                    max_bytes: Some(budget),
                };
                limits::with_limits(limits, || {
                    with_puzzle!(any, p => analyze(p, mode, c, style, draw).and_then(|r| {
                        if verify && r.rests_on_unsat() {
                            recheck(p, mode, c, &r)?;
                        }
                        Ok(r)
                    }))
                })
            });
            with_puzzle!(any, p => Report::of_run(p, got, limit))
        }
    };
    r.finish(t.elapsed().as_secs_f64() * 1e3, limit);
    r.file = input.file.to_string();
    r.index = input.index;
    if let (Some(proofs), Ok(any)) = (proofs, &input.puzzle) {
        if r.status != "error" && r.status != "unknown" {
            match with_puzzle!(any, p => proofs.prove(p, &r, choice)) {
                Ok(files) => r.proof = files,
                Err(e) => {
                    let (file, index, time_ms) = (r.file.clone(), r.index, r.time_ms);
                    r = Report::failed(&e);
                    (r.file, r.index, r.time_ms) = (file, index, time_ms);
                }
            }
        }
    }
    if is_external(choice) {
        r.verified = match r.status {
            "error" | "unknown" => None,
            _ => Some(!r.rests_on_unsat() || verify || r.proof.is_some()),
        };
    }
    r
}

/// True for an external solver (`--solver`), whose UNSATISFIABLE is its word alone.
fn is_external(choice: &SolverChoice) -> bool {
    match choice {
        SolverChoice::Stoppable(inner, _) => is_external(inner),
        SolverChoice::Command { .. } => true,
        _ => false,
    }
}

/// `--verify`: the verdict of an external solver found again with the embedded one (under the
/// same time limit); a different verdict is the external solver's wrong answer.
fn recheck<P: Puzzle>(p: &P, mode: Mode, choice: &SolverChoice, r: &Report) -> Result<()> {
    let embedded = match choice.stop() {
        Some(stop) => SolverChoice::Embedded.until(stop),
        None => SolverChoice::Embedded,
    };
    let again = record::analyze(p, mode, &embedded, None)?;
    if again.status == r.status && again.count == r.count {
        return Ok(());
    }
    let command = match choice {
        SolverChoice::Stoppable(inner, _) => inner.as_ref(),
        other => other,
    };
    let command = match command {
        SolverChoice::Command { command, .. } => command.clone(),
        _ => "?".into(),
    };
    let said = |r: &Report| match r.count {
        Some(n) => format!("{n} solutions"),
        None => r.status.to_string(),
    };
    Err(Error::Solver(SolverError::Wrong {
        command,
        detail: format!(
            "its answers make the verdict `{}`, but the embedded solver finds `{}` (--verify)",
            said(r),
            said(&again)
        ),
    }))
}

/// What a batch saw, for the summary line and the exit code.
#[derive(Default)]
pub struct Tally {
    pub total: usize,
    pub unique: usize,
    pub multiple: usize,
    pub none: usize,
    pub solved: usize,
    pub unknown: usize,
    pub errors: usize,
    /// The worst exit code asked for.
    pub code: i32,
}

impl Tally {
    fn add(&mut self, r: &Report) {
        self.total += 1;
        match r.status {
            "unique" => self.unique += 1,
            "multiple" => self.multiple += 1,
            "none" => self.none += 1,
            "unknown" => self.unknown += 1,
            "error" => self.errors += 1,
            _ => self.solved += 1,
        }
        self.code = self.code.max(r.code);
    }

    /// `, 2 unknown, 1 error` when there were any.
    pub fn trouble(&self) -> String {
        let mut s = String::new();
        if self.unknown > 0 {
            s.push_str(&format!(", {} unknown", self.unknown));
        }
        if self.errors > 0 {
            s.push_str(&format!(
                ", {}",
                crate::text::count_of(self.errors, "error")
            ));
        }
        s
    }
}

/// The pictures `--format svg|png|pdf` asks for, checked before anything is read: not with
/// `--json` or `count`.
fn pictures_asked(mode: Mode, run: &RunArgs) -> Result<Option<picture::Request>> {
    let (default, verb) = match mode {
        Mode::Solve => (picture::Show::Solution, "solve"),
        Mode::Verdict { grids: true, .. } => (picture::Show::Solution, "solve"),
        Mode::Verdict { .. } => (picture::Show::Puzzle, "check"),
        Mode::Count(_) => (picture::Show::Puzzle, "count"),
    };
    let Some(q) = picture::request(run.format.as_deref(), &run.pictures, default, verb)? else {
        return Ok(None);
    };
    if run.json {
        return Err(Error::Usage(
            "--format and --json do not go together".into(),
        ));
    }
    if let Mode::Count(_) = mode {
        return Err(Error::Usage(
            "count draws no pictures: use solve or check with --format svg, png or pdf".into(),
        ));
    }
    Ok(Some(q))
}

/// Runs `mode` on every puzzle, prints reports and a summary, and returns the exit code.
pub fn run_batch(
    input: &InputArgs,
    mode: Mode,
    run: &RunArgs,
    proof: &ProofArgs,
    color: super::args::ColorWhen,
) -> Result<i32> {
    let choice = solver_choice(run)?;
    // `--format svg|png|pdf`: pictures, written at the end; checked first.
    let draw = pictures_asked(mode, run)?;
    let mut drawn: Vec<(String, Vec<crate::draw::Picture>)> = Vec::new();
    let labels: Vec<String> = input
        .files
        .iter()
        .map(|f| {
            if f == "-" {
                "<stdin>".to_string()
            } else {
                f.clone()
            }
        })
        .collect();
    let proofs = super::proof::Proofs::new(proof, &labels)?;
    let jobs = batch::jobs(run.jobs)?;
    let budget = super::memory::per_job(run.max_memory, jobs)?;
    let watchdog = batch::timeout(run.timeout)?.map(Watchdog::start);
    if run.format.is_some() && run.json {
        return Err(Error::Usage(
            "--format and --json do not go together".into(),
        ));
    }
    let puzzles = batch::Puzzles::new(input)?;
    // Puzzles coming live (a pipe): each answer goes out as soon as it is known.
    let live = batch::live(input);
    // Pictures are laid out when the run ends, so with them every input is read first: the
    // kinds and the number of pictures are checked before anything is solved.
    let puzzles: Box<dyn Iterator<Item = Input> + Send> = match &draw {
        Some(q) => {
            let all: Vec<Input> = puzzles.collect();
            for any in all.iter().filter_map(|i| i.puzzle.as_ref().ok()) {
                with_puzzle!(any, p => picture::check_kind(p, q.look))?;
            }
            picture::check_room(q, all.iter().filter(|i| i.puzzle.is_ok()).count(), true)?;
            Box::new(all.into_iter())
        }
        None => Box::new(puzzles),
    };
    // `--format`: the puzzles are written back with their solutions at the end.
    let mut written_back: Vec<(AnyPuzzle, Option<Vec<Vec<i64>>>)> = Vec::new();
    let style = super::style(color);
    let text_style = (!run.json && run.format.is_none()).then_some(style);
    let bar = super::progress_counter(run.no_progress);
    let mut out = Stdout::new();
    let mut tally = Tally::default();
    let start = Instant::now();
    let work = |i: &Input| -> std::result::Result<Report, String> {
        // `--format`: a puzzle its kind cannot write (or whose URL pzprjs cannot hold) ends the
        // run before it is solved.
        if let (Some(f), Ok(any), None) = (&run.format, &i.puzzle, &draw) {
            crate::kinds::write_solutions(f, &[(any, None)])?;
        }
        Ok(analyze_input(
            i,
            mode,
            &choice,
            watchdog.as_ref(),
            text_style,
            draw.as_ref(),
            proofs.as_ref(),
            run.verify,
            budget,
        ))
    };
    let mut repeats = super::repeats::Repeats::default();
    let write = |i: Input, r: std::result::Result<Report, String>| -> Result<bool> {
        let mut r = r.map_err(Error::Usage)?;
        tally.add(&r);
        if draw.is_some() {
            if !r.pictures.is_empty() {
                let name = format!("{}-{}", picture::stem(&r.file), r.index);
                drawn.push((name, std::mem::take(&mut r.pictures)));
            }
        } else if run.format.is_some() {
            if let Ok(any) = &i.puzzle {
                let solved = matches!(r.status, "unique" | "solved");
                written_back.push((any.clone(), r.solution.clone().filter(|_| solved)));
            }
        }
        let proof_line = r.proof.as_ref().map(|f| f.line());
        let mut emit = || -> Result<bool> {
            if r.status == "error" && !run.json {
                let open = out.flush()?;
                // Errors alike in a row are said once, with their count.
                let said = repeats.error(&r.file, r.error.as_deref().unwrap_or(""), r.line);
                for l in said {
                    say(l);
                }
                return Ok(open);
            }
            if let Some(l) = repeats.end() {
                out.flush()?;
                say(l);
            }
            if run.format.is_some() {
                say(r.headline(mode));
                if let Some(l) = &proof_line {
                    say(l);
                }
                Ok(true)
            } else if run.json {
                out.line(r.to_json())
            } else {
                out.text(&r.to_text(mode))
            }
        };
        let res = match &bar {
            Some(b) => b.suspend(&mut emit),
            None => emit(),
        };
        if let Some(b) = &bar {
            b.inc(1);
        }
        match res {
            Ok(true) if live => out.flush(),
            res => res,
        }
    };
    let chunk = if live { 1 } else { batch::MAX_CHUNK };
    batch::run_chunked(puzzles, jobs, chunk, work, write)?;
    if let Some(l) = repeats.end() {
        out.flush()?;
        say(l);
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(q) = &draw {
        let (name, title) = match &labels[..] {
            [file] => (picture::stem(file), file.clone()),
            _ => ("pictures".to_string(), "gridsat".to_string()),
        };
        out.flush()?;
        picture::write(q, drawn, &title, &name)?;
    } else if let Some(f) = &run.format {
        let items: Vec<(&AnyPuzzle, Option<&Vec<Vec<i64>>>)> =
            written_back.iter().map(|(p, s)| (p, s.as_ref())).collect();
        if !items.is_empty() {
            let doc = crate::kinds::write_solutions(f, &items).map_err(Error::Usage)?;
            out.text(&doc)?;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let total = tally.total;
    if total > 1 {
        let rate = if secs > 0.0 { total as f64 / secs } else { 0.0 };
        let Tally {
            unique,
            multiple,
            none,
            solved,
            ..
        } = tally;
        let trouble = tally.trouble();
        let line = match mode {
            // A time limit can leave a solved puzzle's uniqueness open.
            Mode::Verdict { .. } if solved > 0 => format!(
                "summary: {total} puzzles: {unique} unique, {multiple} multiple, {none} none, {solved} solved with uniqueness unknown{trouble} in {secs:.3} s ({rate:.0} puzzles/s)"
            ),
            Mode::Verdict { .. } | Mode::Count(_) if solved == 0 => format!(
                "summary: {total} puzzles: {unique} unique, {multiple} multiple, {none} none{trouble} in {secs:.3} s ({rate:.0} puzzles/s)"
            ),
            _ => format!("summary: {total} puzzles: {solved} solved, {none} none{trouble} in {secs:.3} s ({rate:.0} puzzles/s)"),
        };
        if run.json || run.format.is_some() {
            say(line);
        } else {
            out.line(line)?;
        }
    }
    out.finish()?;
    Ok(tally.code)
}
