//! DRAT proofs of a verdict, so that "unique" and "no solution" can be checked with standard
//! tools instead of taken on gridsat's word.
//!
//! A proof is about the puzzle's complete model ([`Puzzle::complete_model`]): every rule in the
//! clauses, the givens as literals. The [`Statement`] is the CNF a refutation is asked for:
//! - **unique**: that model, one unit clause per given, and last a clause that excludes the
//!   solution; unsatisfiable means no other solution exists;
//! - **none**: that model with unit clauses for the conflicting givens gridsat names (none when
//!   the rules alone have no solution); unsatisfiable means those givens cannot all hold, so
//!   the puzzle has no solution.
//!
//! The refutation comes from a fresh varisat run ([`crate::solver::solve_with_proof`]) or an
//! external solver that writes DRAT; [`judge`] turns a model found instead into the error it
//! is. Writing files and running the checker is the command line's part (`src/cli/proof.rs`).
//! "Multiple" needs no proof: the two solutions, both rule-checked, are the certificate.

use crate::cnf::{Assignment, Clause, Formula};
use crate::error::{Error, Result};
use crate::puzzle::{Model, Puzzle};
use crate::solver::{Outcome, Session, SolverChoice, SolverError};
use serde::Serialize;

/// The proof of one verdict: the `proof` object of `--json`.
#[derive(Serialize, Debug, Clone)]
pub struct ProofFiles {
    pub cnf: String,
    /// The solution as a SAT answer to the CNF without its last clause (unique only).
    pub solution: Option<String>,
    pub drat: String,
    /// The checker's verdict; `null` when it was not run (no `--verify-proof`).
    pub verified: Option<bool>,
    /// The checker command that was run (`null` when none was).
    pub checker: Option<String>,
    /// What wrote the DRAT proof: `varisat`, or the external solver's command.
    pub prover: String,
    /// Time to write the files and the proof, in milliseconds.
    pub time_ms: f64,
    /// Time the checker took, in milliseconds (`null` when it was not run).
    pub check_ms: Option<f64>,
}

impl ProofFiles {
    /// The text line under a report's headline.
    pub fn line(&self) -> String {
        let f = self;
        let files = [Some(&f.cnf), f.solution.as_ref(), Some(&f.drat)]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(" ");
        let by = if f.prover == "varisat" {
            String::new()
        } else {
            format!(" by {}", f.prover)
        };
        match (f.verified, &f.checker) {
            (Some(true), Some(c)) => format!("proof{by}: {files} (verified by {c})"),
            (Some(false), Some(c)) => format!("proof{by}: {files} (NOT verified by {c})"),
            _ => format!("proof{by}: {files} (not checked; --verify-proof checks it)"),
        }
    }
}

/// What a refutation of [`Statement::formula`] proves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The solution is the only one.
    Unique,
    /// These givens (labels) cannot all hold; empty: the rules alone have no solution.
    None(Vec<String>),
}

/// The CNF a proof refutes, with what it means.
#[derive(Clone, Debug)]
pub struct Statement<M> {
    pub claim: Claim,
    /// The puzzle's complete model ([`Puzzle::complete_model`]): its formula is the rules.
    pub model: Model<M>,
    /// The complete model's clauses (with variable names), then the givens' unit clauses, then
    /// for [`Claim::Unique`] the clause that excludes the solution.
    pub formula: Formula,
    /// How many clauses are the rules (the rest are givens and the exclusion).
    pub rules: usize,
    /// The givens in the formula, as `given LITERAL LABEL` comment lines.
    pub givens: Vec<String>,
    /// For [`Claim::Unique`]: the solution as an assignment of the formula's variables. It
    /// satisfies every clause but the last.
    pub solution: Option<Assignment>,
}

impl<M> Statement<M> {
    /// Comment lines that say what the formula holds and what its refutation proves.
    pub fn describe(&self) -> Vec<String> {
        let n = self.givens.len();
        match &self.claim {
            Claim::Unique => vec![
                format!(
                    "proof formula: the puzzle's rules ({} clauses), its {n} givens as unit clauses (c given lines), and last one clause that excludes the solution (the .solution file beside this one)",
                    self.rules
                ),
                "a DRAT refutation of this formula proves that the puzzle has no other solution"
                    .into(),
            ],
            Claim::None(labels) if labels.is_empty() => vec![
                format!(
                    "proof formula: the puzzle's rules ({} clauses) and no given",
                    self.rules
                ),
                "a DRAT refutation of this formula proves that the rules have no solution, whatever the givens"
                    .into(),
            ],
            Claim::None(labels) => vec![
                format!(
                    "proof formula: the puzzle's rules ({} clauses) and the {n} givens that conflict, as unit clauses: {}",
                    self.rules,
                    labels.join(" ")
                ),
                "a DRAT refutation of this formula proves that these givens cannot all hold, so the puzzle has no solution"
                    .into(),
            ],
        }
    }
}

/// The error for a model where a refutation was expected, or an answer that contradicts the
/// verdict: a bug when the embedded solver made both, a wrong answer from an external solver.
fn disagree(choice: &SolverChoice, detail: String) -> Error {
    match choice {
        SolverChoice::Command { command, .. } => Error::Solver(SolverError::Wrong {
            command: command.clone(),
            detail,
        }),
        SolverChoice::Stoppable(inner, _) => disagree(inner, detail),
        // varisat, CaDiCaL and auto are all built in: their mistakes are gridsat's.
        _ => Error::Bug(detail),
    }
}

/// The complete model with its givens (those `keep` accepts) as unit clauses.
fn with_givens<M>(model: &Model<M>, keep: impl Fn(&str) -> bool) -> (Formula, Vec<String>) {
    let mut f = model.formula.clone();
    let mut lines = Vec::new();
    for g in model.givens.iter().filter(|g| keep(&g.label)) {
        f.add_clause(&[g.lit]);
        lines.push(g.comment());
    }
    (f, lines)
}

/// The statement for a puzzle whose only solution is `rows` (as [`Puzzle::rows`] writes it).
/// The solution is found again in the complete model (with `choice`'s solver, without proof),
/// checked against `rows` and the rule checker, and excluded by the last clause.
pub fn unique<P: Puzzle>(
    p: &P,
    choice: &SolverChoice,
    rows: &[Vec<i64>],
) -> Result<Statement<P::Map>> {
    let model = p.complete_model();
    let (formula, givens) = with_givens(&model, |_| true);
    let mut session = Session::new(
        choice.backend(),
        &formula,
        model.answer.clone(),
        model.one_hot,
    );
    let name = p.kind().name();
    let a = match session.solve(&[])? {
        Outcome::Sat(a) => a,
        Outcome::Unsat(_) => {
            return Err(disagree(
                choice,
                format!("the complete {name} model has no solution, but the puzzle has one"),
            ))
        }
    };
    if !p.refine(&model, &a).is_empty() {
        return Err(Error::Bug(format!(
            "the complete {name} model is not complete: a model of it breaks a rule added lazily"
        )));
    }
    let s = p.decode(&model, &a);
    p.check(&s).map_err(|why| {
        Error::Bug(format!(
            "the complete {name} model produced a solution that breaks the rules: {why}"
        ))
    })?;
    if p.rows(&s) != rows {
        return Err(disagree(
            choice,
            format!("the complete {name} model has another solution than the unique one found"),
        ));
    }
    let exclusion: Clause = session.blocking_clause(&a);
    let rules = model.formula.num_clauses();
    let mut formula = formula;
    formula.add_clause(&exclusion);
    let values = (0..formula.num_vars())
        .map(|i| a.var(crate::cnf::Var::from_index(i)))
        .collect();
    Ok(Statement {
        claim: Claim::Unique,
        model,
        formula,
        rules,
        givens,
        solution: Some(Assignment::new(values)),
    })
}

/// The statement for a puzzle without solution: the complete model and the givens named in
/// `conflicting` (labels as [`crate::puzzle::conflicts`] gives them; empty: no given at all).
pub fn none<P: Puzzle>(p: &P, conflicting: &[String]) -> Result<Statement<P::Map>> {
    let model = p.complete_model();
    if let Some(l) = conflicting
        .iter()
        .find(|l| !model.givens.iter().any(|g| &g.label == *l))
    {
        return Err(Error::Bug(format!(
            "the conflicting given {l} is not a given of the complete {} model",
            p.kind().name()
        )));
    }
    let (formula, givens) = with_givens(&model, |l| conflicting.iter().any(|c| c == l));
    Ok(Statement {
        claim: Claim::None(conflicting.to_vec()),
        rules: model.formula.num_clauses(),
        model,
        formula,
        givens,
        solution: None,
    })
}

/// Judges the answer of the run that was to refute `st`: `Unsat` is what a proof needs; a
/// model means the verdict was wrong, and the error says how. A second solution of a "unique"
/// puzzle is decoded and rule-checked first; a model of the rules with the givens said to
/// conflict may break the other givens, so it is reported as it is.
pub fn judge<P: Puzzle>(
    p: &P,
    st: &Statement<P::Map>,
    outcome: &Outcome,
    choice: &SolverChoice,
) -> Result<()> {
    let Outcome::Sat(a) = outcome else {
        return Ok(());
    };
    let name = p.kind().name();
    let detail = match &st.claim {
        Claim::Unique => {
            let s = p.decode(&st.model, a);
            if let Err(why) = p.check(&s) {
                return Err(Error::Bug(format!(
                    "the complete {name} model produced a solution that breaks the rules: {why}"
                )));
            }
            "the puzzle was found unique, but the proof run found a second solution, which passes the rule checker".to_string()
        }
        Claim::None(labels) if labels.is_empty() => {
            "the puzzle was found to have no solution, and its rules none even without givens, but the proof run finds that the rules have one".to_string()
        }
        Claim::None(labels) => format!(
            "the puzzle was found to have no solution, but the proof run finds that the givens said to conflict ({}) can all hold",
            labels.join(" ")
        ),
    };
    Err(disagree(choice, detail))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::{read_any, ReadOptions};
    use crate::solver::solve_with_proof;
    use crate::with_puzzle;

    fn one(file: &str, text: &str) -> crate::kinds::AnyPuzzle {
        read_any(file, file, text, None, &ReadOptions::default())
            .unwrap()
            .remove(0)
    }

    #[test]
    fn unique_statement_excludes_exactly_the_solution() {
        let p = one(
            "x.txt",
            "1.34\n3..2\n2..3\n43.1\n", // 4x4 Sudoku, unique
        );
        with_puzzle!(&p, q => {
            let choice = SolverChoice::Embedded;
            let rows = match crate::puzzle::verdict(q, &choice).unwrap() {
                crate::puzzle::Solutions::Unique(s) => q.rows(&s),
                _ => panic!("unique expected"),
            };
            let st = unique(q, &choice, &rows).unwrap();
            let a = st.solution.clone().unwrap();
            let clauses: Vec<&[crate::cnf::Lit]> = st.formula.clauses().collect();
            let (last, rest) = clauses.split_last().unwrap();
            assert!(rest.iter().all(|c| c.iter().any(|&l| a.lit(l))));
            assert!(!last.iter().any(|&l| a.lit(l)));
            assert_eq!(st.givens.len(), 10);
            let mut proof = Vec::new();
            let out = solve_with_proof(&st.formula, &mut proof).unwrap();
            assert!(matches!(out, Outcome::Unsat(_)));
            judge(q, &st, &out, &choice).unwrap();
            // A wrong row is a disagreement, never a statement.
            let mut wrong = rows.clone();
            wrong[0].swap(1, 2);
            assert!(matches!(unique(q, &choice, &wrong), Err(Error::Bug(_))));
        });
    }

    /// The solutions of a complete model with all givens as unit clauses, without lazy
    /// constraints (what a proof is about), as rows; each passes the rule checker.
    fn complete_solutions<P: Puzzle>(p: &P) -> Vec<Vec<Vec<i64>>> {
        let model = p.complete_model();
        let (f, _) = with_givens(&model, |_| true);
        let s = Session::new(
            SolverChoice::Embedded.backend(),
            &f,
            model.answer.clone(),
            model.one_hot,
        );
        let mut rows: Vec<_> = s
            .into_solutions(10_000, &[])
            .unwrap()
            .iter()
            .map(|a| {
                assert!(p.refine(&model, a).is_empty(), "a lazy rule broken");
                let sol = p.decode(&model, a);
                p.check(&sol).unwrap();
                p.rows(&sol)
            })
            .collect();
        crate::sort::all(&mut rows);
        rows
    }

    #[test]
    fn complete_models_have_exactly_the_solutions_of_the_solving_models() {
        // The solving models (folded givens, lazy loop cuts and distinct lines, the Numberlink
        // normal form) are checked against brute force in each kind's tests; the complete model
        // a proof is about must have the same solutions, whatever the options chose.
        let root = env!("CARGO_MANIFEST_DIR");
        let cases: [(&str, &str, ReadOptions); 7] = [
            ("sudoku/several.txt", "", ReadOptions::default()),
            ("takuzu/several-6x6.takuzu", "", ReadOptions::default()),
            (
                "takuzu/distinct-needed-6x6.takuzu",
                "",
                ReadOptions::default(),
            ),
            ("tectonic/several.tectonic", "", ReadOptions::default()),
            ("numberlink/rules.txt", "cover", ReadOptions::default()),
            ("numberlink/rules.txt", "nikoli", ReadOptions::default()),
            ("numberlink/letters.flow", "flow", ReadOptions::default()),
        ];
        for (file, rules, mut opts) in cases {
            if !rules.is_empty() {
                opts.rules = crate::numberlink::Rules::from_name(rules);
            }
            let path = format!("{root}/puzzles/{file}");
            let text = std::fs::read_to_string(&path).unwrap();
            for p in read_any(&path, file, &text, None, &opts).unwrap() {
                with_puzzle!(&p, q => {
                    let mut want: Vec<_> = crate::puzzle::count(q, &SolverChoice::Embedded, 10_000)
                        .unwrap()
                        .iter()
                        .map(|s| q.rows(s))
                        .collect();
                    crate::sort::all(&mut want);
                    assert!(want.len() < 10_000);
                    assert_eq!(complete_solutions(q), want, "{file} {rules}");
                });
            }
        }
    }

    #[test]
    fn a_model_instead_of_a_refutation_is_an_error() {
        // Several solutions: the "unique" statement's formula is satisfiable.
        let p = one("x.txt", "1...\n....\n....\n....\n");
        with_puzzle!(&p, q => {
            let st = none(q, &[]).unwrap();
            assert_eq!(st.claim, Claim::None(vec![]));
            assert!(st.givens.is_empty());
            let mut proof = Vec::new();
            let out = solve_with_proof(&st.formula, &mut proof).unwrap();
            assert!(matches!(out, Outcome::Sat(_)));
            let e = judge(q, &st, &out, &SolverChoice::Embedded).unwrap_err();
            assert!(e.to_string().contains("the rules have one"), "{e}");
            let liar = SolverChoice::Command { command: "liar".into(), timeout: None };
            let e = judge(q, &st, &out, &liar).unwrap_err();
            assert_eq!(e.exit_code(), 2);
            assert!(e.to_string().contains("`liar`"), "{e}");
            assert!(matches!(none(q, &["r9c9=1".to_string()]), Err(Error::Bug(_))));
        });
    }
}
