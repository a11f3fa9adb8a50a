//! SAT backends behind one small trait, and the engine written once for every puzzle kind.
//!
//! - [`Backend`]: add clauses, solve under assumptions, get a model or the failed assumptions.
//! - [`Varisat`]: the embedded default.
//! - [`External`]: any DIMACS solver command on the PATH (`cadical -q`, `kissat`, `gridsat sat`).
//! - [`engine`]: solve, count up to k, uniqueness, backbone (forced cells), conflicting givens.

pub mod engine;
mod external;
mod varisat_backend;

pub use engine::{Session, Verdict};
pub use external::External;
pub use varisat_backend::{solve_with_proof, Varisat};

use crate::cnf::{Assignment, Formula, Lit};

/// The result of one solver call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A model.
    Sat(Assignment),
    /// No model under the assumptions; the assumptions that were used to prove it (a subset,
    /// not necessarily minimal; a backend that cannot tell returns all of them).
    Unsat(Vec<Lit>),
}

/// Why a solver call did not give an answer.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SolverError {
    #[error("solver command `{0}` was not found or could not be started: {1}")]
    NotFound(String, String),
    #[error("solver command `{command}` did not answer within {seconds} s")]
    Timeout { command: String, seconds: f64 },
    #[error("solver command `{command}` gave no usable answer: {detail}")]
    BadOutput { command: String, detail: String },
    #[error("solver command `{command}` gave a wrong answer: {detail}")]
    Wrong { command: String, detail: String },
    #[error("solver failed: {0}")]
    Internal(String),
}

/// A SAT solver. Variables are created implicitly by the clauses that use them.
pub trait Backend {
    /// Adds a clause.
    fn add_clause(&mut self, clause: &[Lit]);
    /// Solves the clauses added so far under `assumptions`.
    fn solve(&mut self, assumptions: &[Lit]) -> Result<Outcome, SolverError>;
    /// Adds every clause of a formula.
    fn add_formula(&mut self, f: &Formula) {
        for c in f.clauses() {
            self.add_clause(c);
        }
    }
    /// The number of variables the backend knows of (at least every variable in its clauses).
    fn num_vars(&self) -> usize;
}

/// How to build a backend: the embedded solver, or an external command.
#[derive(Clone, Debug, Default)]
pub enum SolverChoice {
    /// The embedded varisat solver.
    #[default]
    Embedded,
    /// An external DIMACS solver command (split on whitespace), with an optional time limit.
    Command {
        command: String,
        timeout: Option<f64>,
    },
}

impl SolverChoice {
    /// A fresh backend of this kind.
    pub fn backend(&self) -> Box<dyn Backend> {
        match self {
            SolverChoice::Embedded => Box::new(Varisat::new()),
            SolverChoice::Command { command, timeout } => {
                Box::new(External::new(command, *timeout))
            }
        }
    }
}
