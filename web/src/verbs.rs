//! The library's verbs for the page, each taking a draft (or text) and answering in plain
//! data: check (unique / several / none, with the cells two solutions differ in, or the givens
//! that conflict, and the solutions drawn), more solutions to browse, forced cells and true
//! candidates, hint / explain / grade with every step drawn, a DRAT proof of a verdict, and
//! generate. Every solution here comes from the library's generic verbs, so it has passed the
//! kind's rule checker; every step has been held to the SAT solution. Nothing here keeps time:
//! the worker that calls these measures it.

use crate::board;
use crate::draft::Draft;
use gridsat::draw::{layout, Look, Mark, Picture, Tone};
use gridsat::error::Error;
use gridsat::explain::{Explain, ExplainOptions, Step};
use gridsat::kinds::AnyPuzzle;
use gridsat::puzzle::{self, cell_name, Checked, Puzzle, Solutions, Style};
use gridsat::solver::SolverChoice;
use gridsat::with_puzzle;
use serde_json::{json, Value};

/// The most solutions the page lists for a puzzle with several.
pub const MAX_BROWSE: usize = 50;
/// The most steps of an explanation drawn (each picture is a few kilobytes of SVG).
pub const MAX_STEP_PICTURES: usize = 600;

fn svg(p: &Picture) -> String {
    layout::single(p).to_svg()
}

/// A picture with cells shaded in a tone (the cells two solutions differ in).
fn shaded(mut pic: Picture, cells: &[(usize, usize)], tone: Tone) -> Picture {
    for &(row, col) in cells {
        pic.marks.insert(1, Mark::Highlight { row, col, tone });
    }
    pic
}

fn pic_of<P: Puzzle>(p: &P, s: Option<&P::Solution>) -> Picture {
    p.picture(s, Look::default())
        .unwrap_or_else(|| Picture::new(0, 0))
}

/// A step for people: its text, after the technique's name unless the text starts with it
/// (as `gridsat explain` prints it).
pub fn step_line(s: &Step) -> String {
    if s.text
        .to_lowercase()
        .starts_with(&s.technique.to_lowercase())
    {
        s.text.clone()
    } else {
        format!("{}: {}", s.technique, s.text)
    }
}

fn err(e: Error) -> String {
    e.to_string()
}

/// The verdict: `status` is the word of `gridsat check --json` (`unique`, `multiple`, `none`);
/// `text` is what `gridsat solve` prints under its first line; `pictures` the solution (or
/// two solutions, the cells they differ in shaded); `conflicting_givens` and `differing_cells`
/// as the command line names them, with `marks` the cells to shade on the board.
pub fn check(p: &AnyPuzzle) -> Result<Value, String> {
    with_puzzle!(p, q => check_one(q))
}

fn check_one<P: Puzzle>(p: &P) -> Result<Value, String> {
    let choice = SolverChoice::Embedded;
    let style = Style::default();
    let base = json!({
        "kind": p.kind().name(),
        "description": p.describe(),
    });
    let mut out = base.as_object().cloned().unwrap_or_default();
    let solutions = match puzzle::check(p, &choice).map_err(err)? {
        Checked::Decided(s) => s,
        Checked::Found(_) => return Err("the search was stopped".into()),
    };
    match solutions {
        Solutions::Unique(s) => {
            out.insert("status".into(), "unique".into());
            out.insert("solution".into(), json!(p.rows(&s)));
            out.insert("text".into(), p.render(Some(&s), style).into());
            out.insert("pictures".into(), json!([svg(&pic_of(p, Some(&s)))]));
            out.insert("marks".into(), json!([]));
        }
        Solutions::Multiple(a, b, cells) => {
            out.insert("status".into(), "multiple".into());
            out.insert("solution".into(), json!(p.rows(&a)));
            out.insert("second_solution".into(), json!(p.rows(&b)));
            let names: Vec<String> = cells.iter().map(|&(r, c)| cell_name(r, c)).collect();
            out.insert("differing_cells".into(), json!(names));
            let mut text = String::from("first solution:\n");
            text.push_str(&p.render(Some(&a), style));
            text.push_str("second solution:\n");
            text.push_str(&p.render(Some(&b), style));
            out.insert("text".into(), text.into());
            out.insert(
                "pictures".into(),
                json!([
                    svg(&shaded(pic_of(p, Some(&a)), &cells, Tone::Differ)),
                    svg(&shaded(pic_of(p, Some(&b)), &cells, Tone::Differ)),
                ]),
            );
            out.insert("marks".into(), json!(cells));
        }
        Solutions::None => {
            out.insert("status".into(), "none".into());
            out.insert("solution".into(), Value::Null);
            let givens = puzzle::conflicts(p, &choice)
                .map_err(err)?
                .unwrap_or_default();
            let cells: Vec<(usize, usize)> = givens
                .iter()
                .flat_map(|g| gridsat::draw::named_cells(g))
                .collect();
            out.insert("conflicting_givens".into(), json!(givens));
            out.insert("text".into(), "".into());
            out.insert("pictures".into(), json!([]));
            out.insert("marks".into(), json!(cells));
        }
    }
    Ok(Value::Object(out))
}

/// The verdict alone, as `gridsat check --json` finds it (the conflicting givens of a puzzle
/// without solution too), with nothing drawn: the work the page's speed is measured on.
pub fn verdict(p: &AnyPuzzle) -> Result<Value, String> {
    with_puzzle!(p, q => {
        let choice = SolverChoice::Embedded;
        let status = match puzzle::check(q, &choice).map_err(err)? {
            Checked::Decided(Solutions::Unique(_)) => "unique",
            Checked::Decided(Solutions::Multiple(..)) => "multiple",
            Checked::Decided(Solutions::None) => {
                puzzle::conflicts(q, &choice).map_err(err)?;
                "none"
            }
            Checked::Found(_) => "solved",
        };
        Ok(json!({ "status": status }))
    })
}

/// Up to [`MAX_BROWSE`] solutions, each drawn with the cells where it differs from the first
/// shaded, and whether that is all of them.
pub fn solutions(p: &AnyPuzzle) -> Result<Value, String> {
    with_puzzle!(p, q => {
        let all = puzzle::count(q, &SolverChoice::Embedded, MAX_BROWSE).map_err(err)?;
        let first = all.first().cloned();
        let pictures: Vec<String> = all
            .iter()
            .map(|s| {
                let cells = first.as_ref().map(|f| q.differing(f, s)).unwrap_or_default();
                svg(&shaded(pic_of(q, Some(s)), &cells, Tone::Differ))
            })
            .collect();
        let texts: Vec<String> = all.iter().map(|s| q.render(Some(s), Style::default())).collect();
        Ok(json!({
            "count": all.len(),
            "complete": all.len() < MAX_BROWSE,
            "pictures": pictures,
            "texts": texts,
        }))
    })
}

/// The forced cells (`r1c2=5`, the same in every solution) and the true candidates (every value
/// some solution has) of the open cells, drawn on the board; `null`s when there is no solution.
pub fn candidates(d: &Draft, p: &AnyPuzzle) -> Result<Value, String> {
    let cands =
        with_puzzle!(p, q => puzzle::candidates(q, &SolverChoice::Embedded)).map_err(err)?;
    let Some(cands) = cands else {
        return Ok(json!({ "status": "none", "forced_cells": null, "counts": null }));
    };
    let mut counts: Vec<Vec<i64>> = vec![vec![0; d.width]; d.height];
    for c in &cands {
        if c.row < d.height && c.col < d.width {
            counts[c.row][c.col] += 1;
        }
    }
    let forced: Vec<String> = cands
        .iter()
        .filter(|c| counts[c.row][c.col] == 1)
        .map(|c| format!("{}={}", cell_name(c.row, c.col), c.value))
        .collect();
    let values: Vec<Value> = cands
        .iter()
        .map(|c| json!([c.row, c.col, c.value]))
        .collect();
    Ok(json!({
        "status": "ok",
        "forced_cells": forced,
        "counts": counts,
        "candidates": values,
        "svg": board::svg(d, &board::Overlay { counts: Some(counts.clone()), ..Default::default() }, p),
    }))
}

/// Which of hint, explain and grade.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Hint,
    Explain,
    Grade,
}

/// Hint (the first step), explain (every step, each drawn on the position before it, then the
/// end) or grade, as `gridsat hint|explain|grade` find them: SAT proves the puzzle unique
/// first (Shisen-sho: clearable), then the kind's techniques explain it, with solver-proven
/// steps where they run out when `fallback` (always for grade).
pub fn explain(p: &AnyPuzzle, verb: Verb, fallback: bool) -> Result<Value, String> {
    with_puzzle!(p, q => explain_one(q, verb, fallback))
}

fn explain_one<P: Explain>(p: &P, verb: Verb, fallback: bool) -> Result<Value, String> {
    let choice = SolverChoice::Embedded;
    let verdict = if p.needs_unique() {
        puzzle::verdict(p, &choice).map_err(err)?
    } else {
        match puzzle::solve(p, &choice).map_err(err)? {
            Some(s) => Solutions::Unique(s),
            None => Solutions::None,
        }
    };
    let solution = match verdict {
        Solutions::Unique(s) => s,
        Solutions::Multiple(_, _, cells) => {
            return Ok(json!({
                "status": "multiple",
                "message": format!("several solutions (they differ in {} cells), so there is no single path to explain", cells.len()),
            }))
        }
        Solutions::None => {
            return Ok(json!({
                "status": "none",
                "message": "no solution, so nothing to explain",
            }))
        }
    };
    let opts = ExplainOptions {
        fallback: fallback || verb == Verb::Grade,
        unique: true,
    };
    let e = p.explain(&solution, opts);
    p.verify(&solution, &e.steps).map_err(|why| {
        format!(
            "the {} strategy engine made a wrong step: {why}",
            p.kind().name()
        )
    })?;
    let grade = json!({
        "level": e.grade.level,
        "rating": e.grade.rating,
        "hardest": e.grade.hardest,
        "steps": e.steps.len(),
        "techniques": e.grade.techniques,
    });
    let lines: Vec<String> = e.steps.iter().map(step_line).collect();
    let status = if e.solved { "explained" } else { "stuck" };
    match verb {
        Verb::Grade => Ok(json!({ "status": "graded", "grade": grade, "solved": e.solved })),
        Verb::Hint => {
            let picture = e.steps.first().and_then(|s| {
                p.step_pictures(std::slice::from_ref(s), Look::default())
                    .and_then(|pics| pics.into_iter().next())
            });
            Ok(json!({
                "status": if e.steps.is_empty() { if e.solved { "solved" } else { "stuck" } } else { "hint" },
                "step": lines.first(),
                "steps": e.steps.first().map(|s| vec![s.clone()]).unwrap_or_default(),
                "svg": picture.as_ref().map(svg),
                "stuck": e.stuck,
            }))
        }
        Verb::Explain => {
            let mut pictures: Vec<String> = Vec::new();
            if e.steps.len() <= MAX_STEP_PICTURES {
                if let Some(pics) = p.step_pictures(&e.steps, Look::default()) {
                    pictures = pics.iter().map(svg).collect();
                }
            }
            Ok(json!({
                "status": status,
                "lines": lines,
                "steps": e.steps,
                "pictures": pictures,
                "grade": grade,
                "solved": e.solved,
                "stuck": e.stuck,
                "solution": p.rows(&solution),
            }))
        }
    }
}

/// The files that prove a unique or none verdict, made in memory as `gridsat check --proof`
/// writes them: the CNF (the puzzle's complete rules, its givens as unit clauses, and for
/// unique the clause that excludes the solution) and varisat's binary DRAT refutation of it.
pub fn proof(p: &AnyPuzzle) -> Result<Value, String> {
    with_puzzle!(p, q => proof_one(q))
}

fn proof_one<P: Puzzle>(p: &P) -> Result<Value, String> {
    use gridsat::proof;
    let choice = SolverChoice::Embedded;
    let st = match puzzle::verdict(p, &choice).map_err(err)? {
        Solutions::Unique(s) => proof::unique(p, &choice, &p.rows(&s)).map_err(err)?,
        Solutions::None => {
            let givens = puzzle::conflicts(p, &choice)
                .map_err(err)?
                .unwrap_or_default();
            proof::none(p, &givens).map_err(err)?
        }
        Solutions::Multiple(..) => {
            return Ok(json!({
                "status": "multiple",
                "message": "several solutions: the two solutions are the certificate, no proof is needed",
            }))
        }
    };
    let mut header = vec![format!(
        "gridsat proof formula: {} {}",
        p.kind().name(),
        p.describe()
    )];
    header.extend(st.describe());
    header.extend(st.givens.iter().cloned());
    let mut cnf = Vec::new();
    gridsat::cnf::dimacs::write_cnf(&st.formula, &header, &[], &mut cnf)
        .map_err(|e| e.to_string())?;
    let mut drat = Vec::new();
    let outcome =
        gridsat::solver::solve_with_proof(&st.formula, &mut drat).map_err(|e| e.to_string())?;
    proof::judge(p, &st, &outcome, &choice).map_err(err)?;
    Ok(json!({
        "status": match st.claim { proof::Claim::Unique => "unique", proof::Claim::None(_) => "none" },
        "cnf": String::from_utf8_lossy(&cnf),
        "drat": drat,
    }))
}
