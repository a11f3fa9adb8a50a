//! `gridsat explain`, `hint` and `grade`: SAT proves the puzzle unique first, then the kind's
//! human-strategy engine explains it, and every step is held to the SAT solution before it is
//! printed.

use super::args::ExplainArgs;
use super::batch::{self, Input, Watchdog};
use super::progress_counter;
use super::report::written;
use crate::error::{Error, Result};
use crate::explain::{Explain, ExplainOptions, Explanation, Step};
use crate::puzzle::{self, Puzzle, Solutions, Style};
use crate::solver::{SolverChoice, SolverError};
use crate::with_puzzle;
use std::io::Write;

/// Which of the three commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    Explain,
    Hint,
    Grade,
}

/// A step for people: its text, after the technique's name unless the text starts with it.
fn step_line(s: &Step) -> String {
    if s.text
        .to_lowercase()
        .starts_with(&s.technique.to_lowercase())
    {
        s.text.clone()
    } else {
        format!("{}: {}", s.technique, s.text)
    }
}

struct Outcome {
    json: serde_json::Value,
    text: String,
    ok: bool,
    /// The exit code this puzzle asks for.
    code: i32,
}

fn one<P: Explain>(
    p: &P,
    verb: Verb,
    fallback: bool,
    choice: &SolverChoice,
    style: Style,
) -> Result<Outcome> {
    let mut json = serde_json::Map::new();
    json.insert("kind".into(), p.kind().name().into());
    json.insert("description".into(), p.describe().into());
    let solution = match puzzle::verdict(p, choice)? {
        Solutions::Unique(s) => s,
        Solutions::Multiple(_, _, cells) => {
            json.insert("status".into(), "multiple".into());
            return Ok(Outcome {
                json: json.into(),
                text: format!(
                    "several solutions (they differ in {} cells), so there is no single path to explain; `gridsat check` shows two\n",
                    cells.len()
                ),
                ok: false,
                code: 1,
            });
        }
        Solutions::None => {
            json.insert("status".into(), "none".into());
            return Ok(Outcome {
                json: json.into(),
                text: "no solution, so nothing to explain; `gridsat check` names the givens that conflict\n".into(),
                ok: false,
                code: 1,
            });
        }
    };
    let opts = ExplainOptions {
        fallback: fallback || verb == Verb::Grade,
        unique: true,
    };
    let e: Explanation = p.explain(&solution, opts);
    p.verify(&solution, &e.steps).map_err(|why| {
        Error::Bug(format!(
            "the {} strategy engine made a wrong step: {why}",
            p.kind().name()
        ))
    })?;
    let mut text = String::new();
    let ok;
    match verb {
        Verb::Explain => {
            for (k, s) in e.steps.iter().enumerate() {
                text.push_str(&format!("{:>4}. {}\n", k + 1, step_line(s)));
            }
            if e.solved {
                text.push_str(&format!(
                    "solved in {} steps; grade: {} (rating {:.1}, hardest: {})\n",
                    e.steps.len(),
                    e.grade.level,
                    e.grade.rating,
                    e.grade.hardest
                ));
                text.push_str(&p.render(Some(&solution), style));
            } else {
                text.push_str(&format!(
                    "stuck after {} steps: no technique applies here (--fallback continues with solver-proven steps)\n",
                    e.steps.len()
                ));
                if let Some(st) = &e.stuck {
                    text.push_str(st);
                }
            }
            ok = e.solved;
            json.insert(
                "status".into(),
                (if e.solved { "explained" } else { "stuck" }).into(),
            );
            json.insert(
                "steps".into(),
                serde_json::to_value(&e.steps).unwrap_or_default(),
            );
            json.insert(
                "grade".into(),
                serde_json::to_value(&e.grade).unwrap_or_default(),
            );
            json.insert(
                "solution".into(),
                serde_json::to_value(p.rows(&solution)).unwrap_or_default(),
            );
            if let Some(st) = &e.stuck {
                json.insert("stuck".into(), st.clone().into());
            }
        }
        Verb::Hint => match e.steps.first() {
            Some(s) => {
                text = format!("{}\n", step_line(s));
                json.insert("status".into(), "hint".into());
                json.insert("step".into(), serde_json::to_value(s).unwrap_or_default());
                ok = true;
            }
            None => {
                text = if e.solved {
                    "the puzzle is already solved\n".into()
                } else {
                    "no technique applies (--fallback gives a step proven by the solver); the position:\n"
                        .into()
                };
                if let Some(st) = &e.stuck {
                    text.push_str(st);
                    json.insert("stuck".into(), st.clone().into());
                }
                json.insert(
                    "status".into(),
                    (if e.solved { "solved" } else { "stuck" }).into(),
                );
                ok = e.solved;
            }
        },
        Verb::Grade => {
            text = format!(
                "{} (rating {:.1}; hardest: {}; {} steps)\n",
                e.grade.level,
                e.grade.rating,
                e.grade.hardest,
                e.steps.len()
            );
            json.insert("status".into(), "graded".into());
            json.insert(
                "grade".into(),
                serde_json::to_value(&e.grade).unwrap_or_default(),
            );
            ok = true;
        }
    }
    Ok(Outcome {
        json: json.into(),
        text,
        ok,
        code: i32::from(!ok),
    })
}

/// The outcome for one puzzle of a batch (what a worker runs): explained, `unknown` when the
/// SAT verdict ran out of time, or the error in its place.
fn one_input(
    input: &Input,
    verb: Verb,
    fallback: bool,
    watchdog: Option<&Watchdog>,
    style: Style,
) -> Outcome {
    let t = std::time::Instant::now();
    let got = match &input.puzzle {
        Err(e) => Err(clone_error(e)),
        Ok(any) => batch::timed(
            watchdog,
            &SolverChoice::Embedded,
            |c| with_puzzle!(any, p => one(p, verb, fallback, c, style)),
        ),
    };
    let mut o = match got {
        Ok(o) => o,
        Err(e) => {
            let stopped = matches!(e, Error::Solver(SolverError::Stopped));
            let mut json = serde_json::Map::new();
            if let Ok(any) = &input.puzzle {
                json.insert(
                    "kind".into(),
                    with_puzzle!(any, p => p.kind().name()).into(),
                );
                json.insert(
                    "description".into(),
                    with_puzzle!(any, p => p.describe()).into(),
                );
            }
            if stopped {
                let limit = watchdog.map_or(0.0, |w| w.limit().as_secs_f64());
                json.insert("status".into(), "unknown".into());
                json.insert("timeout_s".into(), limit.into());
                Outcome {
                    json: json.into(),
                    text: format!("unknown: no SAT verdict within the time limit ({limit} s)\n"),
                    ok: false,
                    code: 1,
                }
            } else {
                json.insert("status".into(), "error".into());
                json.insert("error".into(), e.to_string().into());
                if let Error::Input(i) = &e {
                    json.insert("line".into(), i.line.into());
                    json.insert("col".into(), i.col.into());
                }
                Outcome {
                    json: json.into(),
                    text: e.to_string(),
                    ok: false,
                    code: e.exit_code(),
                }
            }
        }
    };
    if let serde_json::Value::Object(m) = &mut o.json {
        m.insert("file".into(), input.file.to_string().into());
        m.insert("index".into(), input.index.into());
        m.insert("time_ms".into(), (t.elapsed().as_secs_f64() * 1e3).into());
    }
    o
}

/// A copy of an error (the input's stays with it for the writer).
fn clone_error(e: &Error) -> Error {
    match e {
        Error::Input(i) => Error::Input(i.clone()),
        Error::Solver(s) => Error::Solver(s.clone()),
        Error::Usage(m) => Error::Usage(m.clone()),
        Error::Bug(m) => Error::Bug(m.clone()),
    }
}

/// Runs `verb` on every puzzle of the files.
pub fn run(a: &ExplainArgs, verb: Verb, style: Style) -> Result<i32> {
    let puzzles = batch::Puzzles::new(&a.input)?;
    let jobs = batch::jobs(a.jobs)?;
    let limit = batch::timeout(&super::args::RunArgs {
        json: a.json,
        solver: None,
        timeout: a.timeout,
        jobs: a.jobs,
        no_progress: a.no_progress,
        format: None,
    })?;
    let watchdog = limit.map(Watchdog::start);
    let bar = progress_counter(a.no_progress);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let start = std::time::Instant::now();
    let (mut total, mut not_ok, mut errors, mut unknown, mut code) = (0, 0, 0, 0, 0);
    let work = |i: &Input| one_input(i, verb, a.fallback, watchdog.as_ref(), style);
    let write = |i: Input, o: Outcome| -> Result<bool> {
        total += 1;
        not_ok += usize::from(!o.ok);
        code = code.max(o.code);
        let status = o.json.get("status").and_then(|d| d.as_str()).unwrap_or("");
        errors += usize::from(status == "error");
        unknown += usize::from(status == "unknown");
        let res = if a.json {
            writeln!(out, "{}", o.json)
        } else if status == "error" {
            out.flush().map(|_| eprintln!("gridsat: {}", o.text))
        } else {
            let desc = o
                .json
                .get("description")
                .and_then(|d| d.as_str())
                .unwrap_or("");
            let kind = o.json.get("kind").and_then(|d| d.as_str()).unwrap_or("");
            let sep = if verb == Verb::Explain && status != "unknown" {
                "\n"
            } else {
                " "
            };
            write!(
                out,
                "{} #{} ({kind} {desc}):{sep}{}",
                i.file, i.index, o.text
            )
        };
        if let Some(b) = &bar {
            b.inc(1);
        }
        written(res)
    };
    batch::run(puzzles, jobs, work, write)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let secs = start.elapsed().as_secs_f64();
    if total > 1 {
        // As `solve` does for batches: counts and speed (standard error with --json).
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
        if a.json {
            eprintln!("{line}");
        } else {
            let _ = writeln!(out, "{line}");
        }
    }
    let _ = out.flush();
    Ok(code)
}
