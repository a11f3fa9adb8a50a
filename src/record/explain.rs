//! The records of `explain`, `hint` and `grade`: SAT proves the puzzle unique first, then the
//! kind's human-strategy engine explains it, and every step is held to the SAT solution before
//! it goes in the record. [`explain`] builds the JSON object and the text the command line
//! prints, and with a [`Look`] the pictures of the steps.

use crate::draw::{Look, Picture};
use crate::error::{Error, Result};
use crate::explain::{Explain, ExplainOptions, Explanation, Step};
use crate::puzzle::{self, Solutions, Style};
use crate::solver::{SolverChoice, SolverError};

/// Which of the three verbs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    Explain,
    Hint,
    Grade,
}

impl Verb {
    /// The command's name.
    pub fn name(self) -> &'static str {
        match self {
            Verb::Explain => "explain",
            Verb::Hint => "hint",
            Verb::Grade => "grade",
        }
    }
}

/// A step for people: its text, after the technique's name unless the text starts with it.
pub fn step_line(s: &Step) -> String {
    // ASCII case only: technique names are ASCII, and std's Unicode case tables would cost
    // the page's module about 5 KB.
    let named = s.text.get(..s.technique.len());
    if named.is_some_and(|t| t.eq_ignore_ascii_case(&s.technique)) {
        s.text.clone()
    } else {
        format!("{}: {}", s.technique, s.text)
    }
}

/// The record of one puzzle explained, hinted or graded.
#[derive(Clone, Debug)]
pub struct Explained {
    pub verb: Verb,
    /// The JSON object of `--json` (`status`: explained, stuck, hint, solved, graded, multiple,
    /// none, unknown or error).
    pub json: serde_json::Map<String, serde_json::Value>,
    /// The text after the `file #index (kind description):` prefix ([`Explained::to_text`]).
    pub text: String,
    /// Explained to the end, a hint given, or graded.
    pub ok: bool,
    /// The exit code this puzzle asks for.
    pub code: i32,
    /// With a [`Look`]: (name suffix, picture) for each picture: explain draws every step
    /// (`-step07`) and the end (`-end`: solved, or where it is stuck); hint the first step,
    /// or the position when there is none.
    pub pictures: Vec<(String, Picture)>,
}

/// Explains (hints, grades) `p`: the SAT verdict first, then the strategy engine, each of its
/// steps checked against the solution. `fallback` continues with solver-proven steps where
/// the techniques run out (grade always does); `look` asks for the pictures of the steps.
pub fn explain<P: Explain>(
    p: &P,
    verb: Verb,
    fallback: bool,
    choice: &SolverChoice,
    style: Style,
    look: Option<Look>,
) -> Result<Explained> {
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
    let refused = |json, text| Explained {
        verb,
        json,
        text,
        ok: false,
        code: 1,
        pictures: Vec::new(),
    };
    let solution = match verdict {
        Solutions::Unique(s) => s,
        Solutions::Multiple(_, _, cells) => {
            json.insert("status".into(), "multiple".into());
            return Ok(refused(json, format!(
                "several solutions (they differ in {} cells), so there is no single path to explain; `gridsat check` shows two\n",
                cells.len()
            )));
        }
        Solutions::None => {
            json.insert("status".into(), "none".into());
            return Ok(refused(json, "no solution, so nothing to explain; `gridsat check` names the givens that conflict\n".into()));
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
    if let Some(look) = look {
        pictures = step_pictures(p, &e, verb, look);
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
    Ok(Explained {
        verb,
        json,
        text,
        ok,
        code: i32::from(!ok),
        pictures,
    })
}

/// The pictures of an explanation, each with its name suffix and caption (see
/// [`Explained::pictures`]); none for a kind without step pictures.
pub fn step_pictures<P: Explain>(
    p: &P,
    e: &Explanation,
    verb: Verb,
    look: Look,
) -> Vec<(String, Picture)> {
    let Some(mut pics) = p.step_pictures(&e.steps, look) else {
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

impl Explained {
    /// The record of a run that ended in `e`: `unknown` when the stop flag ended it (the time
    /// limit of `timeout_s` seconds ran out before the SAT verdict), else the error. `about`
    /// is the puzzle's kind and description when it was read.
    pub fn failed(
        verb: Verb,
        e: &Error,
        about: Option<(&'static str, String)>,
        timeout_s: Option<f64>,
    ) -> Explained {
        let mut json = serde_json::Map::new();
        if let Some((kind, description)) = about {
            json.insert("kind".into(), kind.into());
            json.insert("description".into(), description.into());
        }
        if matches!(e, Error::Solver(SolverError::Stopped)) {
            let limit = timeout_s.unwrap_or(0.0);
            json.insert("status".into(), "unknown".into());
            json.insert("timeout_s".into(), limit.into());
            return Explained {
                verb,
                json,
                text: format!("unknown: no SAT verdict within the time limit ({limit} s)\n"),
                ok: false,
                code: 1,
                pictures: Vec::new(),
            };
        }
        json.insert("status".into(), "error".into());
        json.insert("error".into(), e.to_string().into());
        if let Error::Input(i) = e {
            json.insert("line".into(), i.line.into());
            json.insert("col".into(), i.col.into());
        }
        Explained {
            verb,
            json,
            text: e.to_string(),
            ok: false,
            code: e.exit_code(),
            pictures: Vec::new(),
        }
    }

    /// Completes the record with where the puzzle came from and the caller's clock.
    pub fn finish(&mut self, file: &str, index: usize, time_ms: f64) {
        self.json.insert("file".into(), file.into());
        self.json.insert("index".into(), index.into());
        self.json.insert("time_ms".into(), time_ms.into());
    }

    /// A string field of the JSON object (`""` when absent).
    pub fn field(&self, key: &str) -> &str {
        self.json.get(key).and_then(|v| v.as_str()).unwrap_or("")
    }

    /// The status word (`explained`, `hint`, `graded`, `unknown`, `error`...).
    pub fn status(&self) -> &str {
        self.field("status")
    }

    /// The JSON object on one line.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.json).unwrap_or_default()
    }

    /// The text form: `file #index (kind description):` and the text, on the same line for a
    /// hint or a grade, below it for an explanation.
    pub fn to_text(&self) -> String {
        let sep = if self.verb == Verb::Explain && self.status() != "unknown" {
            "\n"
        } else {
            " "
        };
        let index = self.json.get("index").and_then(|v| v.as_u64()).unwrap_or(0);
        format!(
            "{} #{index} ({} {}):{sep}{}",
            self.field("file"),
            self.field("kind"),
            self.field("description"),
            self.text
        )
    }
}
