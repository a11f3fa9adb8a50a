//! `gridsat explain`, `hint` and `grade`: SAT proves the puzzle unique first, then the kind's
//! human-strategy engine explains it, and every step is held to the SAT solution before it is
//! printed.

use super::args::ExplainArgs;
use super::{load, progress_bar};
use crate::error::{Error, Result};
use crate::explain::{Explain, ExplainOptions, Explanation, Step};
use crate::puzzle::{self, Solutions, Style};
use crate::solver::SolverChoice;
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
}

fn one<P: Explain>(p: &P, verb: Verb, fallback: bool, style: Style) -> Result<Outcome> {
    let mut json = serde_json::Map::new();
    json.insert("kind".into(), p.kind().name().into());
    json.insert("description".into(), p.describe().into());
    let solution = match puzzle::verdict(p, &SolverChoice::Embedded)? {
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
            });
        }
        Solutions::None => {
            json.insert("status".into(), "none".into());
            return Ok(Outcome {
                json: json.into(),
                text: "no solution, so nothing to explain; `gridsat check` names the givens that conflict\n".into(),
                ok: false,
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
    })
}

/// Runs `verb` on every puzzle of the files.
pub fn run(a: &ExplainArgs, verb: Verb, style: Style) -> Result<i32> {
    let files = load(&a.input)?;
    let total: usize = files.iter().map(|(_, ps)| ps.len()).sum();
    let bar = progress_bar(a.no_progress, total, 20);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut all_ok = true;
    let start = std::time::Instant::now();
    let mut not_ok = 0;
    for (file, puzzles) in &files {
        for (i, any) in puzzles.iter().enumerate() {
            let t = std::time::Instant::now();
            let mut o = with_puzzle!(any, p => one(p, verb, a.fallback, style))?;
            all_ok &= o.ok;
            not_ok += usize::from(!o.ok);
            let res = if a.json {
                if let serde_json::Value::Object(m) = &mut o.json {
                    m.insert("file".into(), file.clone().into());
                    m.insert("index".into(), (i + 1).into());
                    m.insert("time_ms".into(), (t.elapsed().as_secs_f64() * 1e3).into());
                }
                writeln!(out, "{}", o.json)
            } else {
                let desc = o
                    .json
                    .get("description")
                    .and_then(|d| d.as_str())
                    .unwrap_or("");
                let kind = o.json.get("kind").and_then(|d| d.as_str()).unwrap_or("");
                let sep = if verb == Verb::Explain { "\n" } else { " " };
                write!(out, "{file} #{} ({kind} {desc}):{sep}{}", i + 1, o.text)
            };
            if let Err(e) = res {
                if e.kind() == std::io::ErrorKind::BrokenPipe {
                    return Ok(0);
                }
                return Err(Error::Usage(format!("cannot write output: {e}")));
            }
            if let Some(b) = &bar {
                b.inc(1);
            }
        }
    }
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
        let line = format!(
            "summary: {total} puzzles: {} {word}, {not_ok} {other} in {secs:.3} s ({rate:.0} puzzles/s)",
            total - not_ok
        );
        if a.json {
            eprintln!("{line}");
        } else {
            let _ = writeln!(out, "{line}");
        }
    }
    let _ = out.flush();
    Ok(if all_ok { 0 } else { 1 })
}
