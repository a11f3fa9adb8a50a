//! The bridge to external SAT solvers, for every front end: the CNF `gridsat dimacs` writes
//! (the export model with its variable map and a header that says what it is), and an
//! external solver's answer to it read back as a solution ([`decode`]), checked clause by
//! clause and by the kind's rule checker.

use crate::cnf::dimacs::{read_answer, write_cnf, Answer};
use crate::cnf::{Formula, Lit};
use crate::error::{Error, InputError, Result};
use crate::kinds::AnyPuzzle;
use crate::puzzle::{GivenMode, Model, Puzzle};
use std::io::Write;

/// The most clauses `dimacs` writes (a CNF of that size is already gigabytes of text).
pub const MAX_EXPORT_CLAUSES: usize = 20_000_000;

/// The export's given mode: the full model with givens as unit clauses unless `folded`.
pub fn mode(folded: bool) -> GivenMode {
    if folded {
        GivenMode::Fold
    } else {
        GivenMode::Assume
    }
}

/// The model's formula with the givens (if any) appended as unit clauses: what `dimacs` writes.
pub fn exported<M>(model: &Model<M>) -> (Formula, Vec<Lit>) {
    let units: Vec<Lit> = model.givens.iter().map(|g| g.lit).collect();
    (model.formula.clone(), units)
}

/// The first comment lines of every CNF gridsat writes for a puzzle (`dimacs`, `--proof`): what
/// wrote it, the kind, the puzzle, and the answer variables.
pub fn puzzle_header<P: Puzzle>(
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

/// Refuses a puzzle whose CNF would be too large to write (a big Takuzu's eager distinct-lines
/// rule), with what to do instead; `file` and `index` name it.
pub fn writable(p: &AnyPuzzle, file: &str, index: usize) -> Result<()> {
    if let AnyPuzzle::Takuzu(t) = p {
        let eager = t
            .rules
            .encoding
            .unwrap_or(crate::takuzu::DistinctEncoding::Eager)
            == crate::takuzu::DistinctEncoding::Eager;
        let n = t.eager_distinct_clauses();
        if eager && n > MAX_EXPORT_CLAUSES as u64 {
            return Err(Error::Usage(format!(
                "{file} #{index}: the distinct-lines rule of a {}x{} Takuzu takes about {n} clauses in the CNF, more than gridsat writes ({MAX_EXPORT_CLAUSES}); export it without that rule (--distinct-encoding lazy, which the solver adds as needed) or without distinct lines (--no-distinct-lines)",
                t.width, t.height
            )));
        }
    }
    Ok(())
}

/// Writes puzzle `index` of `file` in DIMACS as `gridsat dimacs` does: the export model (the
/// full model with the givens as unit clauses, or with `folded` the compact one), named
/// variables and a header that says how to read the answer back.
pub fn write<P: Puzzle>(
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

/// [`write`] into a string, with the variable map: each named variable's name and number.
pub fn to_text<P: Puzzle>(
    p: &P,
    file: &str,
    index: usize,
    folded: bool,
) -> Result<(String, Vec<(String, i64)>)> {
    let mut out = Vec::new();
    write(p, file, index, folded, &mut out).map_err(|e| Error::Usage(e.to_string()))?;
    let names = p
        .export_model(mode(folded))
        .formula
        .names()
        .iter()
        .map(|(v, n)| (n.clone(), v.dimacs()))
        .collect();
    Ok((String::from_utf8_lossy(&out).into_owned(), names))
}

/// What an external solver's answer says about the puzzle.
#[derive(Clone, Debug)]
pub enum Decoded<S> {
    /// A solution: it satisfies every clause, keeps the givens and passed the rule checker.
    Solved(S),
    /// The solver answered UNSATISFIABLE.
    Unsat,
}

/// Reads `text`, a solver's answer (named `answer` in messages) to the CNF [`write`] wrote for
/// puzzle `index` of `file` (with `folded` as it was written), as a solution of `p`.
pub fn decode<P: Puzzle>(
    p: &P,
    answer: &str,
    text: &str,
    file: &str,
    index: usize,
    folded: bool,
) -> Result<Decoded<P::Solution>> {
    // Built as `dimacs` built it, so the variables match the exported CNF.
    let model = p.export_model(mode(folded));
    let (f, units) = exported(&model);
    let got = read_answer(text, f.num_vars())
        .map_err(|e| Error::Input(InputError::new(answer, e.line, e.col, e.message)))?;
    let assignment = match got {
        Answer::Sat(x) => x,
        Answer::Unsat => return Ok(Decoded::Unsat),
        Answer::Unknown => {
            return Err(Error::Usage(format!(
            "{answer}: the solver gave no verdict (no `s SATISFIABLE` or `s UNSATISFIABLE` line)"
        )))
        }
    };
    let broken = f
        .clauses()
        .position(|c| !c.iter().any(|&l| assignment.lit(l)));
    if let Some(k) = broken {
        return Err(Error::Usage(format!(
            "{answer}: this assignment does not satisfy clause {} of the CNF for {file} #{index} — was the CNF written by `gridsat dimacs` for this puzzle{}?",
            k + 1,
            if folded { " with --folded" } else { " without --folded" }
        )));
    }
    if units.iter().any(|&u| !assignment.lit(u)) {
        return Err(Error::Usage(format!(
            "{answer}: this assignment does not keep the puzzle's givens"
        )));
    }
    if !p.refine(&model, &assignment).is_empty() {
        return Err(Error::Usage(format!(
            "{answer}: the assignment satisfies the clauses but is not a solution of the puzzle (see models/{}.md)",
            p.kind().name()
        )));
    }
    let s = p.decode(&model, &assignment);
    p.check(&s).map_err(|why| {
        Error::Usage(format!(
            "{answer}: the decoded grid breaks the rules: {why}"
        ))
    })?;
    Ok(Decoded::Solved(s))
}
