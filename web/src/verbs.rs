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
use gridsat::explain::Explain;
use gridsat::kinds::AnyPuzzle;
use gridsat::puzzle::{self, cell_name, Checked, Puzzle, Solutions, Style};
use gridsat::record;
pub use gridsat::record::explain::Verb;
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

fn err(e: Error) -> String {
    e.to_string()
}

/// The verdict, as `gridsat solve` finds it (check, with the solution drawn): `record` is the
/// library's record, the line `gridsat check --json` prints for the puzzle (`file` and
/// `index` as given; `time_ms` 0, for the caller's clock to fill); `status` its word
/// (`unique`, `multiple`, `none`); `text` what `gridsat solve` prints under its first line;
/// `pictures` the solution, or two solutions with the cells they differ in shaded, or the
/// puzzle with its conflicting givens shaded; `marks` the cells to shade on the board.
pub fn check(p: &AnyPuzzle, file: &str, index: usize) -> Result<Value, String> {
    with_puzzle!(p, q => check_one(q, file, index))
}

fn check_one<P: Puzzle>(p: &P, file: &str, index: usize) -> Result<Value, String> {
    let choice = SolverChoice::Embedded;
    let mode = record::Mode::Verdict {
        forced: false,
        grids: true,
    };
    let finding = record::find(p, mode, &choice).map_err(err)?;
    let mut r = record::report(p, &finding, mode, Some(Style::default()));
    r.file = file.to_string();
    r.index = index;
    r.finish(0.0, None);
    let pictures: Vec<String> = record::pictures::of_finding(
        p,
        &finding,
        record::pictures::Show::Solution,
        Look::default(),
    )
    .iter()
    .map(svg)
    .collect();
    let marks: Vec<(usize, usize)> = match &finding {
        record::Finding::Multiple { cells, .. } => cells.clone(),
        record::Finding::None { conflicting, .. } => conflicting
            .iter()
            .flat_map(|g| gridsat::draw::named_cells(g))
            .collect(),
        _ => Vec::new(),
    };
    let record: Value = serde_json::from_str(&r.to_json()).map_err(|e| e.to_string())?;
    Ok(json!({
        "status": r.status,
        "kind": r.kind,
        "description": r.description,
        "differing_cells": r.differing_cells,
        "conflicting_givens": r.conflicting_givens,
        "text": r.text,
        "pictures": pictures,
        "marks": marks,
        "record": r.to_json(),
        "solution": record["solution"],
        "second_solution": record.get("second_solution"),
    }))
}

/// The verdict alone, as `gridsat check --json` finds it, with nothing drawn: the work the
/// page's speed is measured on. With `givens`, the conflicting givens of a puzzle without
/// solution are named too (as `check` does); without, the verdict comes first and at once,
/// which is what the live verdict shows while the givens are still being named.
pub fn verdict(p: &AnyPuzzle, givens: bool) -> Result<Value, String> {
    with_puzzle!(p, q => {
        let choice = SolverChoice::Embedded;
        let status = match puzzle::check(q, &choice).map_err(err)? {
            Checked::Decided(Solutions::Unique(_)) => "unique",
            Checked::Decided(Solutions::Multiple(..)) => "multiple",
            Checked::Decided(Solutions::None) => {
                if givens {
                    puzzle::conflicts(q, &choice).map_err(err)?;
                }
                "none"
            }
            Checked::Found(..) => "solved",
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

/// Hint (the first step), explain (every step, each drawn on the position before it, then the
/// end) or grade, as `gridsat hint|explain|grade` find them (the library's record): SAT proves
/// the puzzle unique first (Shisen-sho: clearable), then the kind's techniques explain it,
/// every step held to the SAT solution, with solver-proven steps where they run out when
/// `fallback` (always for grade). `lines` are the pictures' captions.
pub fn explain(p: &AnyPuzzle, verb: Verb, fallback: bool) -> Result<Value, String> {
    with_puzzle!(p, q => explain_one(q, verb, fallback))
}

fn explain_one<P: Explain>(p: &P, verb: Verb, fallback: bool) -> Result<Value, String> {
    let look = (verb != Verb::Grade).then(Look::default);
    let e = record::explain::explain(
        p,
        verb,
        fallback,
        &SolverChoice::Embedded,
        Style::default(),
        look,
    )
    .map_err(err)?;
    let (lines, pictures): (Vec<String>, Vec<String>) = e
        .pictures
        .iter()
        .take(MAX_STEP_PICTURES)
        .map(|(_, pic)| (pic.caption.clone(), svg(&pic.clone().with_caption(""))))
        .unzip();
    Ok(json!({
        "status": e.status(),
        "record": e.to_json(),
        "message": e.text.trim_end(),
        "lines": lines,
        "pictures": pictures,
        "grade": e.json.get("grade"),
    }))
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
