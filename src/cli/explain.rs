//! `gridsat explain`, `hint` and `grade` over batches: the library's record of each puzzle
//! ([`crate::record::explain`]: SAT proves the puzzle unique first, then the kind's
//! human-strategy engine explains it, every step held to the SAT solution), timed here, printed
//! as text or JSON, its pictures written here, and a summary line.

use super::args::ExplainArgs;
use super::batch::{self, Input, Watchdog};
use super::output::{say, Stdout};
use super::{picture, progress_counter};
use crate::cnf::limits::{self, Limits};
use crate::draw::Picture;
use crate::error::{Error, Result};
use crate::puzzle::{Puzzle, Style};
pub use crate::record::explain::Verb;
use crate::record::explain::{explain, Explained};
use crate::solver::{SolverChoice, Stop};
use crate::with_puzzle;

/// The record of one puzzle of a batch (what a worker runs): explained, `unknown` when the
/// SAT verdict ran out of time, or the error in its place.
fn one_input(
    input: &Input,
    verb: Verb,
    fallback: bool,
    watchdog: Option<&Watchdog>,
    style: Style,
    draw: Option<&picture::Request>,
    budget: u64,
) -> Explained {
    let t = std::time::Instant::now();
    let look = draw.map(|q| q.look);
    let mut o = match &input.puzzle {
        Err(e) => Explained::failed(verb, e, None, None),
        Ok(any) => {
            let got = batch::timed(watchdog, &SolverChoice::Embedded, |c| {
                let limits = Limits {
                    stop: c.stop().map(Stop::flag),
                    max_bytes: Some(budget),
                };
                limits::with_limits(
                    limits,
                    || with_puzzle!(any, p => explain(p, verb, fallback, c, style, look)),
                )
            });
            got.unwrap_or_else(|e| {
                let about = with_puzzle!(any, p => (p.kind().name(), p.describe()));
                let limit = watchdog.map(|w| w.limit().as_secs_f64());
                Explained::failed(verb, &e, Some(about), limit)
            })
        }
    };
    o.finish(&input.file, input.index, t.elapsed().as_secs_f64() * 1e3);
    o
}

/// Runs `verb` on every puzzle of the files.
pub fn run(a: &ExplainArgs, verb: Verb, style: Style) -> Result<i32> {
    let verb_name = verb.name();
    let draw = picture::request(
        a.format.as_deref(),
        &a.pictures,
        picture::Show::Puzzle,
        verb_name,
    )?;
    if draw.is_none() {
        if let Some(f) = &a.format {
            return Err(Error::Usage(format!(
                "unknown --format `{f}` for {verb_name}: expected svg, png or pdf"
            )));
        }
    }
    if draw.is_some() {
        if verb == Verb::Grade {
            return Err(Error::Usage(
                "grade draws no pictures: use explain or hint with --format".into(),
            ));
        }
        if a.json {
            return Err(Error::Usage(
                "--format and --json do not go together".into(),
            ));
        }
    }
    let puzzles = batch::Puzzles::new(&a.input)?;
    // Puzzles coming live (a pipe): each answer goes out as soon as it is known.
    let live = batch::live(&a.input);
    let jobs = batch::jobs(a.jobs)?;
    let watchdog = batch::timeout(a.timeout)?.map(Watchdog::start);
    // Pictures are laid out when the run ends, so with them every input is read first: the
    // kinds and the number of pictures are checked before anything is solved.
    let puzzles: Box<dyn Iterator<Item = Input> + Send> = match &draw {
        Some(q) => {
            let all: Vec<Input> = puzzles.collect();
            for any in all.iter().filter_map(|i| i.puzzle.as_ref().ok()) {
                with_puzzle!(any, p => picture::check_kind(p, q.look))?;
            }
            // explain draws a step and the end at least; hint one picture a puzzle.
            let puzzles = all.iter().filter(|i| i.puzzle.is_ok()).count();
            let least = if verb == Verb::Explain {
                2 * puzzles
            } else {
                puzzles
            };
            picture::check_room(q, least, verb != Verb::Explain)?;
            Box::new(all.into_iter())
        }
        None => Box::new(puzzles),
    };
    let mut drawn: Vec<(String, Vec<Picture>)> = Vec::new();
    let bar = progress_counter(a.no_progress);
    let mut out = Stdout::new();
    let start = std::time::Instant::now();
    let (mut total, mut not_ok, mut errors, mut unknown, mut code) = (0, 0, 0, 0, 0);
    let budget = super::memory::per_job(a.max_memory, jobs)?;
    let work = |i: &Input| {
        one_input(
            i,
            verb,
            a.fallback,
            watchdog.as_ref(),
            style,
            draw.as_ref(),
            budget,
        )
    };
    let write = |i: Input, mut o: Explained| -> Result<bool> {
        total += 1;
        not_ok += usize::from(!o.ok);
        code = code.max(o.code);
        let status = o.status().to_string();
        errors += usize::from(status == "error");
        unknown += usize::from(status == "unknown");
        let res = if status == "error" && !a.json {
            let open = out.flush()?;
            say(format!("gridsat: {}", o.text));
            Ok(open)
        } else if draw.is_some() {
            let stem = format!("{}-{}", picture::stem(&i.file), i.index);
            for (suffix, pic) in std::mem::take(&mut o.pictures) {
                drawn.push((format!("{stem}{suffix}"), vec![pic]));
            }
            // The verdict line: how the explanation ended, or the hint.
            let verdict = o
                .text
                .lines()
                .find(|l| l.starts_with("solved in") || l.starts_with("stuck after"))
                .filter(|_| verb == Verb::Explain)
                .or_else(|| o.text.lines().next())
                .unwrap_or("");
            say(format!(
                "{} #{} ({} {}): {verdict}",
                i.file,
                i.index,
                o.field("kind"),
                o.field("description")
            ));
            Ok(true)
        } else if a.json {
            out.line(o.to_json())
        } else {
            out.text(&o.to_text())
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
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(q) = &draw {
        let labels: Vec<&str> = a
            .input
            .files
            .iter()
            .map(|f| if f == "-" { "<stdin>" } else { f.as_str() })
            .collect();
        let (name, title) = match &labels[..] {
            [file] => (picture::stem(file), format!("{file}: {verb_name}")),
            _ => ("pictures".to_string(), verb_name.to_string()),
        };
        out.flush()?;
        picture::write(q, drawn, &title, &name)?;
    }
    let secs = start.elapsed().as_secs_f64();
    if total > 1 {
        // As `solve` does for batches: counts and speed (standard error with --json or
        // pictures).
        let rate = if secs > 0.0 { total as f64 / secs } else { 0.0 };
        let (word, other) = match verb {
            Verb::Grade => ("graded", "without a unique solution"),
            _ => ("explained", "stuck or without a unique solution"),
        };
        let mut trouble = String::new();
        if unknown > 0 {
            trouble.push_str(&format!(", {unknown} unknown"));
        }
        if errors > 0 {
            trouble.push_str(&format!(", {}", crate::text::count_of(errors, "error")));
        }
        let line = format!(
            "summary: {total} puzzles: {} {word}, {} {other}{trouble} in {secs:.3} s ({rate:.0} puzzles/s)",
            total - not_ok,
            not_ok - errors - unknown
        );
        if a.json || draw.is_some() {
            say(line);
        } else {
            out.line(line)?;
        }
    }
    out.finish()?;
    Ok(code)
}
