//! `gridsat dimacs`, `gridsat decode` and `gridsat sat`: the bridge to external SAT solvers.

use super::args::{DecodeArgs, DimacsArgs, SatArgs};
use super::output::{cannot_write, Stdout};
use super::{load, parse_kind, read_options, read_text};
use crate::cnf::dimacs::{read_cnf, write_model};
use crate::error::{Error, Result};
use crate::kinds::{self, AnyPuzzle};
use crate::puzzle::{Puzzle, Style};
use crate::record::dimacs::{self, Decoded};
use crate::solver::{Backend, Outcome, Varisat};
use crate::with_puzzle;

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

/// `gridsat dimacs FILE`.
pub fn dimacs(a: &DimacsArgs) -> Result<i32> {
    if a.input.files.len() != 1 {
        return Err(Error::Usage("dimacs takes one puzzle file".into()));
    }
    let index = a.input.index.unwrap_or(1);
    let (file, p) = pick(load(&a.input)?, index)?;
    dimacs::writable(&p, &file, index)?;
    match &a.output {
        Some(path) => {
            let res = std::fs::File::create(path).and_then(
                |mut f| with_puzzle!(&p, q => dimacs::write(q, &file, index, a.folded, &mut f)),
            );
            res.map_err(|e| cannot_write(path, &e))?;
        }
        None => {
            let mut out = Stdout::new();
            out.put(|w| with_puzzle!(&p, q => dimacs::write(q, &file, index, a.folded, w)))?;
            out.finish()?;
        }
    }
    Ok(0)
}

fn decode_one<P: Puzzle>(
    p: &P,
    a: &DecodeArgs,
    text: &str,
    style: Style,
    out: &mut Stdout,
) -> Result<i32> {
    let s = match dimacs::decode(p, &a.answer, text, &a.file, a.index, a.folded)? {
        Decoded::Solved(s) => s,
        Decoded::Unsat => {
            if a.json {
                out.line(format_args!(
                    "{{\"kind\":\"{}\",\"status\":\"none\"}}",
                    p.kind().name()
                ))?;
            } else {
                out.line("no solution: the solver answered UNSATISFIABLE")?;
            }
            return Ok(1);
        }
    };
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
        out.line(serde_json::Value::Object(obj))?;
    } else {
        out.text(&p.render(Some(&s), style))?;
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
    let mut out = Stdout::new();
    let code = with_puzzle!(&p, q => decode_one(q, a, &answer, style, &mut out))?;
    out.finish()?;
    Ok(code)
}

/// `gridsat sat CNF`: the embedded solver as a DIMACS command (exit 10 SAT, 20 UNSAT).
pub fn sat(a: &SatArgs) -> Result<i32> {
    let text = read_text(&a.file)?;
    let f = read_cnf(&text).map_err(|e| {
        Error::Input(crate::error::InputError::new(
            &a.file, e.line, e.col, e.message,
        ))
    })?;
    // The solver's memory follows the header's variables as much as the clauses.
    let budget = super::memory::per_job(a.max_memory, 1)?;
    if f.memory_bytes() > budget {
        return Err(Error::Solver(crate::solver::SolverError::TooLarge {
            needed: f.memory_bytes(),
            budget,
        }));
    }
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
    let mut stdout = Stdout::new();
    stdout.text(&out)?;
    stdout.finish()?;
    Ok(code)
}
