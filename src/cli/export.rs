//! `gridsat dimacs`, `gridsat decode` and `gridsat sat`: the bridge to external SAT solvers.

use super::args::{DecodeArgs, DimacsArgs, SatArgs};
use super::{load, parse_kind, read_options, read_text};
use crate::cnf::dimacs::{read_answer, read_cnf, write_cnf, write_model, Answer};
use crate::cnf::{Formula, Lit};
use crate::error::{Error, Result};
use crate::kinds::{self, AnyPuzzle};
use crate::puzzle::{GivenMode, Model, Puzzle, Style};
use crate::solver::{Backend, Outcome, Varisat};
use crate::with_puzzle;
use std::io::Write;

fn pick(files: Vec<(String, Vec<AnyPuzzle>)>, index: usize) -> Result<(String, AnyPuzzle)> {
    let (file, mut puzzles) = files.into_iter().next().expect("one file");
    if index == 0 || index > puzzles.len() {
        return Err(Error::Usage(format!(
            "{file} holds {} puzzle{}; --index {index} is out of range",
            puzzles.len(),
            if puzzles.len() == 1 { "" } else { "s" }
        )));
    }
    Ok((file, puzzles.swap_remove(index - 1)))
}

/// The export's given mode: the full model with givens as unit clauses unless `--folded`.
fn mode(folded: bool) -> GivenMode {
    if folded {
        GivenMode::Fold
    } else {
        GivenMode::Assume
    }
}

/// The model's formula with the givens (if any) appended as unit clauses: what `dimacs` writes.
fn exported<M>(model: &Model<M>) -> (Formula, Vec<Lit>) {
    let units: Vec<Lit> = model.givens.iter().map(|g| g.lit).collect();
    (model.formula.clone(), units)
}

/// The first comment lines of every CNF gridsat writes for a puzzle (`dimacs`, `--proof`): what
/// wrote it, the kind, the puzzle, and the answer variables.
pub(super) fn puzzle_header<P: Puzzle>(
    p: &P,
    title: &str,
    file: &str,
    index: usize,
    model: &Model<P::Map>,
) -> Vec<String> {
    vec![
        title.to_string(),
        format!("kind: {}", p.kind().name()),
        format!("puzzle: {} #{index} ({})", file, p.describe()),
        format!(
            "answer variables: {}{}",
            model.answer.len(),
            if model.one_hot {
                " (one-hot: a solution is its true answer variables)"
            } else {
                ""
            }
        ),
    ]
}

fn write_dimacs<P: Puzzle>(
    p: &P,
    file: &str,
    index: usize,
    folded: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let model = p.export_model(mode(folded));
    let mut header = puzzle_header(p, "gridsat DIMACS export", file, index, &model);
    header.extend([
        if folded {
            format!(
                "givens: folded into the model (cells they decide have no variables; see models/{}.md)",
                p.kind().name()
            )
        } else {
            format!(
                "givens: {} unit clauses at the end, one per given (c given lines); --folded writes the compact form",
                model.givens.len()
            )
        },
        format!(
            "read the answer back with: gridsat decode {file} ANSWER --index {index}{}",
            if folded { " --folded" } else { "" }
        ),
    ]);
    if folded && model.formula.num_vars() == 0 && model.formula.clauses().next().is_none() {
        header.push(
            "the givens decide every cell, so the folded formula is empty; without --folded the full model is written"
                .into(),
        );
    }
    header.extend(model.givens.iter().map(|g| g.comment()));
    let (f, units) = exported(&model);
    if f.num_clauses() > MAX_EXPORT_CLAUSES {
        return Err(std::io::Error::other(format!(
            "the CNF has {} clauses, more than gridsat writes ({MAX_EXPORT_CLAUSES})",
            f.num_clauses()
        )));
    }
    write_cnf(&f, &header, &units, out)
}

/// The most clauses `dimacs` writes (a CNF of that size is already gigabytes of text).
pub const MAX_EXPORT_CLAUSES: usize = 20_000_000;

/// `gridsat dimacs FILE`.
pub fn dimacs(a: &DimacsArgs) -> Result<i32> {
    if a.input.files.len() != 1 {
        return Err(Error::Usage("dimacs takes one puzzle file".into()));
    }
    let (file, p) = pick(load(&a.input)?, a.index)?;
    if let AnyPuzzle::Takuzu(t) = &p {
        let eager = t
            .rules
            .encoding
            .unwrap_or(crate::takuzu::DistinctEncoding::Eager)
            == crate::takuzu::DistinctEncoding::Eager;
        let n = t.eager_distinct_clauses();
        if eager && n > MAX_EXPORT_CLAUSES as u64 {
            return Err(Error::Usage(format!(
                "{file} #{}: the distinct-lines rule of a {}x{} Takuzu takes about {n} clauses in the CNF, more than gridsat writes ({MAX_EXPORT_CLAUSES}); export it without that rule (--distinct-encoding lazy, which the solver adds as needed) or without distinct lines (--no-distinct-lines)",
                a.index, t.width, t.height
            )));
        }
    }
    let res = match &a.output {
        Some(path) => std::fs::File::create(path)
            .and_then(
                |mut f| with_puzzle!(&p, q => write_dimacs(q, &file, a.index, a.folded, &mut f)),
            )
            .map_err(|e| Error::Usage(format!("cannot write {path}: {e}"))),
        None => {
            let stdout = std::io::stdout();
            let mut lock = stdout.lock();
            match with_puzzle!(&p, q => write_dimacs(q, &file, a.index, a.folded, &mut lock)) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                r => r.map_err(|e| Error::Usage(format!("cannot write output: {e}"))),
            }
        }
    };
    res.map(|_| 0)
}

fn decode_one<P: Puzzle>(p: &P, a: &DecodeArgs, text: &str, style: Style) -> Result<i32> {
    // Built as `dimacs` built it, so the variables match the exported CNF.
    let model = p.export_model(mode(a.folded));
    let (f, units) = exported(&model);
    let answer = read_answer(text, f.num_vars()).map_err(|e| {
        Error::Input(crate::error::InputError::new(
            &a.answer, e.line, e.col, e.message,
        ))
    })?;
    let assignment = match answer {
        Answer::Sat(x) => x,
        Answer::Unsat => {
            if a.json {
                println!("{{\"kind\":\"{}\",\"status\":\"none\"}}", p.kind().name());
            } else {
                println!("no solution: the solver answered UNSATISFIABLE");
            }
            return Ok(1);
        }
        Answer::Unknown => {
            return Err(Error::Usage(format!(
                "{}: the solver gave no verdict (no `s SATISFIABLE` or `s UNSATISFIABLE` line)",
                a.answer
            )))
        }
    };
    let broken = f
        .clauses()
        .position(|c| !c.iter().any(|&l| assignment.lit(l)));
    if let Some(k) = broken {
        return Err(Error::Usage(format!(
            "{}: this assignment does not satisfy clause {} of the CNF for {} #{} — was the CNF written by `gridsat dimacs` for this puzzle{}?",
            a.answer,
            k + 1,
            a.file,
            a.index,
            if a.folded { " with --folded" } else { " without --folded" }
        )));
    }
    if units.iter().any(|&u| !assignment.lit(u)) {
        return Err(Error::Usage(format!(
            "{}: this assignment does not keep the puzzle's givens",
            a.answer
        )));
    }
    if !p.refine(&model, &assignment).is_empty() {
        return Err(Error::Usage(format!(
            "{}: the assignment satisfies the clauses but is not a solution of the puzzle (see models/{}.md)",
            a.answer,
            p.kind().name()
        )));
    }
    let s = p.decode(&model, &assignment);
    p.check(&s).map_err(|why| {
        Error::Usage(format!(
            "{}: the decoded grid breaks the rules: {why}",
            a.answer
        ))
    })?;
    if a.json {
        let mut obj = serde_json::Map::new();
        obj.insert("kind".into(), p.kind().name().into());
        obj.insert("status".into(), "solved".into());
        obj.insert(
            "solution".into(),
            serde_json::to_value(p.rows(&s)).unwrap_or_default(),
        );
        for (k, v) in p.json_extra(&s) {
            obj.insert(k.into(), v);
        }
        println!("{}", serde_json::Value::Object(obj));
    } else {
        print!("{}", p.render(Some(&s), style));
    }
    Ok(0)
}

/// `gridsat decode FILE ANSWER`.
pub fn decode(a: &DecodeArgs, style: Style) -> Result<i32> {
    let kind = parse_kind(&a.read.kind)?;
    let opts = read_options(&a.read)?;
    let (label, text) = super::input(&a.file)?;
    let opts = super::options_for(&a.file, &opts);
    let puzzles = kinds::read_any(&a.file, &label, &text, kind, &opts)?;
    let (_, p) = pick(vec![(a.file.clone(), puzzles)], a.index)?;
    let answer = read_text(&a.answer)?;
    with_puzzle!(&p, q => decode_one(q, a, &answer, style))
}

/// `gridsat sat CNF`: the embedded solver as a DIMACS command (exit 10 SAT, 20 UNSAT).
pub fn sat(a: &SatArgs) -> Result<i32> {
    let text = read_text(&a.file)?;
    let f = read_cnf(&text).map_err(|e| {
        Error::Input(crate::error::InputError::new(
            &a.file, e.line, e.col, e.message,
        ))
    })?;
    let mut s = Varisat::new();
    s.add_formula(&f);
    let mut out = String::new();
    let code = match s.solve(&[])? {
        Outcome::Sat(m) => {
            write_model(&m, f.num_vars(), &mut out);
            10
        }
        Outcome::Unsat(_) => {
            out.push_str("s UNSATISFIABLE\n");
            20
        }
    };
    print!("{out}");
    Ok(code)
}
