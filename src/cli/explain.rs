//! `gridsat explain`, `hint` and `grade`: SAT proves the puzzle unique first, then the kind's
//! human-strategy engine explains it, and every step is held to the SAT solution before it is
//! printed.

use super::args::ExplainArgs;
use super::batch::{self, Input, Watchdog};
use super::output::{say, Stdout};
use super::{picture, progress_counter};
use crate::cnf::limits::{self, Limits};
use crate::draw::Picture;
use crate::error::{Error, Result};
use crate::explain::{Explain, ExplainOptions, Explanation, Step};
use crate::puzzle::{self, Puzzle, Solutions, Style};
use crate::solver::{SolverChoice, SolverError, Stop};
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
    /// With `--format svg|png|pdf`: (name suffix, picture) for each picture.
    pictures: Vec<(String, Picture)>,
}

fn one<P: Explain>(
    p: &P,
    verb: Verb,
    fallback: bool,
    choice: &SolverChoice,
    style: Style,
    draw: Option<&picture::Request>,
) -> Result<Outcome> {
    let mut json = serde_json::Map::new();
    json.insert("kind".into(), p.kind().name().into());
    json.insert("description".into(), p.describe().into());
    // A kind whose explanation does not need a unique solution (Shisen-sho: any clearing
    // plan is explained) asks only for one.
    let verdict = if p.needs_unique() {
        puzzle::verdict(p, choice)?
    } else {
        match puzzle::solve(p, choice)? {
            Some(s) => Solutions::Unique(s),
            None => Solutions::None,
        }
    };
    let solution = match verdict {
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
                pictures: Vec::new(),
            });
        }
        Solutions::None => {
            json.insert("status".into(), "none".into());
            return Ok(Outcome {
                json: json.into(),
                text: "no solution, so nothing to explain; `gridsat check` names the givens that conflict\n".into(),
                ok: false,
                code: 1,
                pictures: Vec::new(),
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
    let mut pictures = Vec::new();
    if let Some(q) = draw {
        pictures = step_pictures(p, &e, verb, q);
    }
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
        pictures,
    })
}

/// The pictures of an explanation, each with its name suffix and caption: explain draws every
/// step (`-step07`) and the end (`-end`: solved, or where it is stuck); hint the first step,
/// or the position when there is none.
fn step_pictures<P: Explain>(
    p: &P,
    e: &Explanation,
    verb: Verb,
    q: &picture::Request,
) -> Vec<(String, Picture)> {
    let Some(mut pics) = p.step_pictures(&e.steps, q.look) else {
        return Vec::new();
    };
    let end = pics.pop().unwrap_or_else(|| Picture::new(0, 0));
    let end_caption = if e.solved {
        format!(
            "solved in {} steps; grade: {} (rating {:.1}, hardest: {})",
            e.steps.len(),
            e.grade.level,
            e.grade.rating,
            e.grade.hardest
        )
    } else {
        format!(
            "stuck after {} steps: no technique applies here",
            e.steps.len()
        )
    };
    match verb {
        Verb::Hint => match (pics.into_iter().next(), e.steps.first()) {
            (Some(pic), Some(s)) => vec![(String::new(), pic.with_caption(step_line(s)))],
            _ => {
                let caption = if e.solved {
                    "the puzzle is already solved"
                } else {
                    "no technique applies (--fallback gives a step proven by the solver)"
                };
                vec![(String::new(), end.with_caption(caption))]
            }
        },
        _ => {
            let width = e.steps.len().max(1).to_string().len();
            let mut out: Vec<(String, Picture)> = pics
                .into_iter()
                .zip(&e.steps)
                .enumerate()
                .map(|(k, (pic, s))| {
                    (
                        format!("-step{:0width$}", k + 1),
                        pic.with_caption(format!("{}. {}", k + 1, step_line(s))),
                    )
                })
                .collect();
            out.push(("-end".to_string(), end.with_caption(end_caption)));
            out
        }
    }
}

/// The outcome for one puzzle of a batch (what a worker runs): explained, `unknown` when the
/// SAT verdict ran out of time, or the error in its place.
fn one_input(
    input: &Input,
    verb: Verb,
    fallback: bool,
    watchdog: Option<&Watchdog>,
    style: Style,
    draw: Option<&picture::Request>,
    budget: u64,
) -> Outcome {
    let t = std::time::Instant::now();
    let got = match &input.puzzle {
        Err(e) => Err(clone_error(e)),
        Ok(any) => batch::timed(watchdog, &SolverChoice::Embedded, |c| {
            let limits = Limits {
                stop: c.stop().map(Stop::flag),
                max_bytes: Some(budget),
            };
            limits::with_limits(
                limits,
                || with_puzzle!(any, p => one(p, verb, fallback, c, style, draw)),
            )
        }),
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
                    pictures: Vec::new(),
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
                    pictures: Vec::new(),
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
    let verb_name = match verb {
        Verb::Explain => "explain",
        Verb::Hint => "hint",
        Verb::Grade => "grade",
    };
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
            picture::check_room(q, least)?;
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
    let write = |i: Input, mut o: Outcome| -> Result<bool> {
        total += 1;
        not_ok += usize::from(!o.ok);
        code = code.max(o.code);
        let status = o.json.get("status").and_then(|d| d.as_str()).unwrap_or("");
        errors += usize::from(status == "error");
        unknown += usize::from(status == "unknown");
        let desc = o
            .json
            .get("description")
            .and_then(|d| d.as_str())
            .unwrap_or("");
        let kind = o.json.get("kind").and_then(|d| d.as_str()).unwrap_or("");
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
                "{} #{} ({kind} {desc}): {verdict}",
                i.file, i.index
            ));
            Ok(true)
        } else if a.json {
            out.line(&o.json)
        } else {
            let sep = if verb == Verb::Explain && status != "unknown" {
                "\n"
            } else {
                " "
            };
            out.put(|w| write!(w, "{} #{} ({kind} {desc}):{sep}{}", i.file, i.index, o.text))
        };
        if let Some(b) = &bar {
            b.inc(1);
        }
        res
    };
    batch::run(puzzles, jobs, work, write)?;
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
