//! One report per puzzle (text or a JSON Lines object), a summary line for batches, and the
//! exit code. The verbs are the generic ones of [`crate::puzzle`]; [`super::batch`] runs them
//! on every puzzle, side by side, and hands the reports back in input order.

use super::args::{InputArgs, ProofArgs, RunArgs};
use super::batch::{self, Input, Watchdog};
use super::{picture, solver_choice};
use crate::error::{Error, Result};
use crate::kinds::AnyPuzzle;
use crate::puzzle::{self, cell_name, Checked, Puzzle, Solutions, Style};
use crate::solver::{SolverChoice, SolverError};
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
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
    #[serde(skip)]
    pub text: String,
    /// The exit code this puzzle asks for (0 to 3, see [`crate::error::Error::exit_code`]).
    #[serde(skip)]
    pub code: i32,
    /// With `--format svg|png|pdf`: the puzzle's pictures, drawn side by side.
    #[serde(skip)]
    pub pictures: Vec<crate::draw::Picture>,
    /// A verdict was asked, a solution found, and the time limit stopped the search for a
    /// second one.
    #[serde(skip)]
    pub uniqueness_open: bool,
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
}

/// `style` is `None` for JSON output, where no text is drawn; `draw` asks for pictures.
fn analyze<P: Puzzle>(
    p: &P,
    mode: Mode,
    choice: &SolverChoice,
    style: Option<Style>,
    draw: Option<&picture::Request>,
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
    // One solution: its rows and extras, its grid in text mode when `grid`, its picture.
    let one = |r: &mut Report, text: &mut String, s: &P::Solution, grid: bool| {
        r.solution = Some(p.rows(s));
        add_extra(r, s);
        if let (true, Some(style)) = (grid, style) {
            text.push_str(&p.render(Some(s), style));
        }
        if let Some(q) = draw {
            r.pictures = picture::solved(p, s, q);
        }
    };
    match mode {
        Mode::Solve => match puzzle::solve(p, choice)? {
            Some(s) => {
                r.status = "solved";
                one(&mut r, &mut text, &s, true);
            }
            None => none(p, choice, &mut r, draw)?,
        },
        Mode::Verdict { forced, grids } => match puzzle::check(p, choice)? {
            Checked::Found(s) => {
                r.status = "solved";
                r.uniqueness_open = true;
                one(&mut r, &mut text, &s, grids);
            }
            Checked::Decided(Solutions::Unique(s)) => {
                r.status = "unique";
                one(&mut r, &mut text, &s, grids);
            }
            Checked::Decided(Solutions::Multiple(a, b, cells)) => {
                r.status = "multiple";
                r.solution = Some(p.rows(&a));
                r.second_solution = Some(p.rows(&b));
                add_extra(&mut r, &a);
                r.differing_cells = Some(cells.iter().map(|&(y, x)| cell_name(y, x)).collect());
                if let Some(q) = draw {
                    r.pictures = picture::several(p, &a, &b, &cells, q);
                }
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
            Checked::Decided(Solutions::None) => none(p, choice, &mut r, draw)?,
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

fn none<P: Puzzle>(
    p: &P,
    choice: &SolverChoice,
    r: &mut Report,
    draw: Option<&picture::Request>,
) -> Result<()> {
    r.status = "none";
    let givens = puzzle::conflicts(p, choice)?.unwrap_or_default();
    if let Some(q) = draw {
        r.pictures = picture::unsolvable(p, &givens, q);
    }
    r.conflicting_givens = Some(givens);
    Ok(())
}

/// The first line of a report in text mode.
fn headline(r: &Report, mode: Mode) -> String {
    let what = match r.status {
        "unique" => "unique".to_string(),
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
            Some([]) | None => "no solution (the rules have none even without givens)".to_string(),
            Some([g]) => format!("no solution; this given alone conflicts with the rules: {g}"),
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
    format!(
        "{} #{} ({} {}): {}",
        r.file, r.index, r.kind, r.description, what
    )
}

/// The report for one puzzle of a batch: the verdict, `unknown` when the time ran out, or the
/// error in its place. This is what a worker runs.
fn analyze_input(
    input: &Input,
    mode: Mode,
    choice: &SolverChoice,
    watchdog: Option<&Watchdog>,
    style: Option<Style>,
    draw: Option<&picture::Request>,
    proofs: Option<&super::proof::Proofs>,
) -> Report {
    let t = Instant::now();
    let mut r = match &input.puzzle {
        Err(e) => Report::failed(e),
        Ok(any) => {
            let got = batch::timed(
                watchdog,
                choice,
                |c| with_puzzle!(any, p => analyze(p, mode, c, style, draw)),
            );
            match got {
                Ok(r) => r,
                Err(Error::Solver(SolverError::Stopped)) => Report {
                    status: "unknown",
                    kind: with_puzzle!(any, p => p.kind().name()),
                    description: with_puzzle!(any, p => p.describe()),
                    timeout_s: watchdog.map(|w| w.limit().as_secs_f64()),
                    code: 1,
                    ..Report::default()
                },
                Err(e) => Report::failed(&e),
            }
        }
    };
    if r.uniqueness_open {
        r.timeout_s = watchdog.map(|w| w.limit().as_secs_f64());
        r.code = r.code.max(1);
    }
    r.time_ms = (t.elapsed().as_secs_f64() * 1e6).round() / 1e3;
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
    if r.code == 0 && matches!(r.status, "multiple" | "none") {
        r.code = 1;
    }
    r
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

fn error_json(r: &Report) -> String {
    let rec = ErrorRecord {
        file: &r.file,
        index: r.index,
        status: "error",
        error: r.error.as_deref().unwrap_or(""),
        line: r.line,
        col: r.col,
        time_ms: r.time_ms,
    };
    serde_json::to_string(&rec).unwrap_or_default()
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

/// A write that failed: a closed pipe ends the batch quietly, anything else is an error.
pub fn written(res: std::io::Result<()>) -> Result<bool> {
    match res {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(Error::Usage(format!("cannot write output: {e}"))),
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
    let watchdog = batch::timeout(run.timeout)?.map(Watchdog::start);
    if run.format.is_some() && run.json {
        return Err(Error::Usage(
            "--format and --json do not go together".into(),
        ));
    }
    let puzzles = batch::Puzzles::new(input)?;
    // Pictures are laid out when the run ends, so with them every input is read first: the
    // kinds and the number of pictures are checked before anything is solved.
    let puzzles: Box<dyn Iterator<Item = Input> + Send> = match &draw {
        Some(q) => {
            let all: Vec<Input> = puzzles.collect();
            for any in all.iter().filter_map(|i| i.puzzle.as_ref().ok()) {
                with_puzzle!(any, p => picture::check_kind(p, q.look))?;
            }
            picture::check_room(q, all.iter().filter(|i| i.puzzle.is_ok()).count())?;
            Box::new(all.into_iter())
        }
        None => Box::new(puzzles),
    };
    // `--format`: the puzzles are written back with their solutions at the end.
    let mut written_back: Vec<(AnyPuzzle, Option<Vec<Vec<i64>>>)> = Vec::new();
    let style = super::style(color);
    let text_style = (!run.json && run.format.is_none()).then_some(style);
    let bar = super::progress_counter(run.no_progress);
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
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
        let proof_line = r.proof.as_ref().map(super::proof::line);
        let mut emit = || -> std::io::Result<()> {
            if r.status == "error" && !run.json {
                out.flush()?;
                // Errors alike in a row are said once, with their count.
                let said = repeats.error(&r.file, r.error.as_deref().unwrap_or(""), r.line);
                for l in said {
                    eprintln!("{l}");
                }
                return Ok(());
            }
            if let Some(l) = repeats.end() {
                out.flush()?;
                eprintln!("{l}");
            }
            if run.format.is_some() {
                eprintln!("{}", headline(&r, mode));
                if let Some(l) = &proof_line {
                    eprintln!("{l}");
                }
                Ok(())
            } else if run.json && r.status == "error" {
                writeln!(out, "{}", error_json(&r))
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
            Some(b) => b.suspend(&mut emit),
            None => emit(),
        };
        if let Some(b) = &bar {
            b.inc(1);
        }
        written(res)
    };
    batch::run(puzzles, jobs, work, write)?;
    if let Some(l) = repeats.end() {
        let _ = out.flush();
        eprintln!("{l}");
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(q) = &draw {
        let (name, title) = match &labels[..] {
            [file] => (picture::stem(file), file.clone()),
            _ => ("pictures".to_string(), "gridsat".to_string()),
        };
        let _ = out.flush();
        picture::write(q, drawn, &title, &name)?;
    } else if let Some(f) = &run.format {
        let items: Vec<(&AnyPuzzle, Option<&Vec<Vec<i64>>>)> =
            written_back.iter().map(|(p, s)| (p, s.as_ref())).collect();
        if !items.is_empty() {
            let doc = crate::kinds::write_solutions(f, &items).map_err(Error::Usage)?;
            written(out.write_all(doc.as_bytes()))?;
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
            eprintln!("{line}");
        } else {
            let _ = writeln!(out, "{line}");
        }
    }
    let _ = out.flush();
    Ok(tally.code)
}
