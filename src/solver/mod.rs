//! SAT backends behind one small trait, and the engine written once for every puzzle kind.
//!
//! - [`Backend`]: add clauses, solve under assumptions, get a model or the failed assumptions.
//! - [`Lite`]: gridsat's own small CDCL solver, cheap to load; [`Layered`], the embedded
//!   default, starts every puzzle on it and moves a puzzle that outlasts a conflict budget to
//!   CaDiCaL (varisat in a build without it).
//! - [`Varisat`]: a CDCL solver in pure Rust (with [`Lite`], the backends of a wasm32 build).
//! - [`Cadical`]: CaDiCaL built in (the `cadical` feature, on by default), for hard boards;
//!   [`Auto`] starts each puzzle on varisat and moves it to CaDiCaL after a time budget.
//! - [`External`]: any DIMACS solver command on the PATH (`cadical -q`, `kissat`, `gridsat sat`).
//! - [`engine`]: solve, count up to k, uniqueness, backbone (forced cells), conflicting givens.
//! - [`Stop`]: the hook that ends a solve early (a time limit), shared by every backend.
//!
//! ## Stopping a solve: the [`Stop`] hook
//!
//! The library has no clock (it stays wasm32-friendly). Whoever wants a time limit (the command
//! line's `--timeout`) owns the clock and raises a [`Stop`] flag when the time is up; the solving
//! side only polls it. A choice carries a flag as [`SolverChoice::Stoppable`]; every backend it
//! builds gets the flag in its constructor and, once the flag is raised, returns
//! [`SolverError::Stopped`] from [`Backend::solve`] (at the latest when the running solve notices,
//! and at once for every later call), so the engine and the verbs above it unwind with that error.
//! How each backend notices:
//!
//! - [`Lite`]: polls the flag every 256 conflicts and stays usable; [`Layered`] passes its
//!   flag to the lite solver and, after a move, to CaDiCaL (or varisat).
//! - [`Varisat`]: varisat 0.2 has no interrupt call, but it aborts a solve when writing its proof
//!   fails. A stoppable `Varisat` writes its proof (varisat's own format: DRAT takes no
//!   assumptions) into a sink that fails once the flag is up; varisat writes every 8 KiB of
//!   proof, every few hundred conflicts. The solver cannot be used after that, which is fine: a
//!   stopped puzzle is given up. The proof costs about a fifth more solving time (BENCHMARKS.md),
//!   so only a choice with a flag pays it.
//! - [`External`]: the wait loop polls the flag every 2 ms and kills the solver's whole process
//!   group (a wrapper script's children too).
//! - [`Cadical`]: CaDiCaL's terminator callback polls the flag; the stopped call returns
//!   [`SolverError::Stopped`] and the solver stays usable.
//! - [`Auto`]: its varisat polls the flag and its budget's deadline; a spent budget moves the
//!   puzzle to CaDiCaL, a raised flag stops both.

#[cfg(feature = "cadical")]
mod auto;
#[cfg(feature = "cadical")]
mod cadical_backend;
pub mod engine;
mod external;
mod layered;
mod lite;
mod varisat_backend;

#[cfg(feature = "cadical")]
pub use auto::Auto;
#[cfg(feature = "cadical")]
pub use cadical_backend::Cadical;
pub use engine::{Session, Verdict};
pub use external::External;
pub use layered::{Layered, LITE_CONFLICTS, LITE_MAX_VARS};
pub use lite::Lite;
pub use varisat_backend::{solve_with_proof, Varisat};

use crate::cnf::{Assignment, Formula, Lit};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A flag that asks a solve to stop (see the module documentation). Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A flag that is not raised.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Asks every solve that polls this flag to stop.
    pub fn raise(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// True once [`Stop::raise`] was called.
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag itself, for what polls it below the solvers (a model being built:
    /// [`crate::cnf::limits::Limits::stop`]).
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}

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
    /// The [`Stop`] flag was raised (a time limit ran out): no answer.
    #[error("stopped before the solver answered (the time limit ran out)")]
    Stopped,
    /// The model, with the solver that would load it, takes more than the memory budget
    /// ([`crate::cnf::limits`]): bytes needed (about), bytes allowed.
    #[error(
        "too large for the memory this run may use: about {} MB, budget {} MB; --max-memory raises it",
        mb(*needed),
        mb(*budget)
    )]
    TooLarge { needed: u64, budget: u64 },
}

/// Bytes as whole megabytes (2^20 bytes, as `--max-memory` and `ulimit` count), rounded up.
fn mb(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20)
}

/// How a backend with a search of its own ([`Lite`]) looks for a model: a hint from the
/// model's kind, which changes how long a search takes, never an answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Search {
    /// MiniSat/Glucose: saved phases (false first), Glucose-style restarts.
    #[default]
    Standard,
    /// For small, hard direct encodings whose variables say "this cell holds this value"
    /// (Sudoku): a decision makes its variable true (a cell takes a value, which its peers
    /// and units then propagate) and phases are not saved, activities decay faster, and
    /// restarts follow the Luby sequence. On the forum's hardest Sudokus it meets a fifth
    /// fewer conflicts than `Standard` (BENCHMARKS.md); on other kinds it was not measured.
    Direct,
}

/// A SAT solver. Variables are created implicitly by the clauses that use them.
pub trait Backend {
    /// Adds a clause.
    fn add_clause(&mut self, clause: &[Lit]);
    /// Solves the clauses added so far under `assumptions`.
    fn solve(&mut self, assumptions: &[Lit]) -> Result<Outcome, SolverError>;
    /// Solves like [`Backend::solve`], but gives up (`Ok(None)`) after about `conflicts`
    /// conflicts in this call. A backend without such a budget answers `Ok(None)` at once
    /// (all but lite, CaDiCaL and the embedded default while it is on lite): the caller then
    /// asks another way.
    fn solve_budget(
        &mut self,
        assumptions: &[Lit],
        conflicts: u64,
    ) -> Result<Option<Outcome>, SolverError> {
        let _ = (assumptions, conflicts);
        Ok(None)
    }
    /// Adds every clause of a formula.
    fn add_formula(&mut self, f: &Formula) {
        for c in f.clauses() {
            self.add_clause(c);
        }
    }
    /// The number of variables the backend knows of (at least every variable in its clauses).
    fn num_vars(&self) -> usize;
    /// Asks the solver to try these literals first when it decides their variables (a phase
    /// hint, such as a kind's heuristic guess at a solution): it changes where the search
    /// looks, never an answer. Backends without phases ignore it (varisat, external commands).
    fn prefer(&mut self, lits: &[Lit]) {
        let _ = lits;
    }
    /// Chooses how the search goes ([`Search`]): a hint that changes where the search looks,
    /// never an answer. Backends with a search of their own ignore it (all but lite).
    fn set_search(&mut self, search: Search) {
        let _ = search;
    }
}

/// How to build a backend: an embedded solver, or an external command.
#[derive(Clone, Debug, Default)]
pub enum SolverChoice {
    /// The embedded default: the lite solver, then CaDiCaL (varisat in a build without it)
    /// for a puzzle that outlasts [`LITE_CONFLICTS`] conflicts ([`Layered`]).
    #[default]
    Embedded,
    /// The embedded varisat solver alone.
    Varisat,
    /// The lite solver alone, however long it takes.
    Lite,
    /// The embedded CaDiCaL solver.
    #[cfg(feature = "cadical")]
    Cadical,
    /// varisat first; a puzzle it has not finished within `budget` seconds (of solver calls
    /// since the first) moves to CaDiCaL with every clause so far.
    #[cfg(feature = "cadical")]
    Auto { budget: f64 },
    /// An external DIMACS solver command (split on whitespace), with an optional time limit.
    Command {
        command: String,
        timeout: Option<f64>,
    },
    /// Another choice whose backends stop with [`SolverError::Stopped`] once the flag is raised.
    Stoppable(Box<SolverChoice>, Stop),
}

impl SolverChoice {
    /// A fresh backend of this kind.
    pub fn backend(&self) -> Box<dyn Backend> {
        self.backend_with(None)
    }

    /// The flag this choice stops at, if any ([`SolverChoice::until`]): work done before the
    /// solver (a kind's own search while building its model) can stop at it too.
    pub fn stop(&self) -> Option<&Stop> {
        match self {
            SolverChoice::Stoppable(_, own) => Some(own),
            _ => None,
        }
    }

    /// `self` stopping when `stop` is raised.
    pub fn until(&self, stop: &Stop) -> SolverChoice {
        SolverChoice::Stoppable(Box::new(self.clone()), stop.clone())
    }

    fn backend_with(&self, stop: Option<&Stop>) -> Box<dyn Backend> {
        match self {
            SolverChoice::Embedded => Box::new(Layered::new(LITE_CONFLICTS, stop.cloned())),
            SolverChoice::Varisat => Box::new(Varisat::with_stop(stop.cloned())),
            SolverChoice::Lite => Box::new(Lite::with_stop(stop.cloned())),
            #[cfg(feature = "cadical")]
            SolverChoice::Cadical => {
                let mut c = Cadical::new();
                if let Some(s) = stop {
                    c.set_stop(s.clone());
                }
                Box::new(c)
            }
            #[cfg(feature = "cadical")]
            SolverChoice::Auto { budget } => Box::new(Auto::new(*budget, stop.cloned())),
            SolverChoice::Command { command, timeout } => {
                Box::new(External::new(command, *timeout).with_stop(stop.cloned()))
            }
            SolverChoice::Stoppable(inner, own) => inner.backend_with(Some(own)),
        }
    }
}

/// Random formulas for the backends' tests.
#[cfg(test)]
pub(crate) mod testing {
    use crate::cnf::{Formula, Lit, Var};
    use rand::Rng;

    /// `clauses` random clauses of `width` literals over `vars` variables.
    pub fn random_formula(
        rng: &mut impl Rng,
        vars: usize,
        clauses: usize,
        width: usize,
    ) -> Formula {
        let mut f = Formula::without_names();
        for _ in 0..vars {
            f.new_var();
        }
        for _ in 0..clauses {
            let c: Vec<Lit> = (0..width)
                .map(|_| Var::from_index(rng.gen_range(0..vars)).lit(rng.gen_bool(0.5)))
                .collect();
            f.add_clause(&c);
        }
        f
    }

    /// A random 3-SAT formula at the threshold ratio (clauses = 4.26 × variables) from `seed`:
    /// thousands of conflicts for a CDCL solver at a few hundred variables, seconds for none.
    pub fn random_3sat(vars: usize, seed: u64) -> Formula {
        random_formula(&mut crate::generate::rng(seed), vars, vars * 426 / 100, 3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Var;

    #[test]
    fn a_preferred_model_is_the_first_answer() {
        // Random 3-SAT below the threshold: satisfiable, with many models. Whichever model
        // varisat finds, a backend with phases that is given it as preferred values decides
        // every variable its way, so propagation never contradicts it: that model comes back.
        let mut checked = 0;
        for seed in 0..8 {
            let f = testing::random_formula(&mut crate::generate::rng(seed), 80, 240, 3);
            let mut v = Varisat::new();
            v.add_formula(&f);
            let Outcome::Sat(m) = v.solve(&[]).unwrap() else {
                continue;
            };
            let lits: Vec<Lit> = (0..f.num_vars())
                .map(|i| Var::from_index(i).lit(m.var(Var::from_index(i))))
                .collect();
            let backends: [Box<dyn Backend>; 2] = [
                Box::new(Lite::new()),
                Box::new(Layered::new(LITE_CONFLICTS, None)),
            ];
            for (i, mut b) in backends.into_iter().enumerate() {
                b.add_formula(&f);
                b.prefer(&lits);
                assert_eq!(
                    b.solve(&[]).unwrap(),
                    Outcome::Sat(m.clone()),
                    "seed {seed} {i}"
                );
            }
            // CaDiCaL tries its own "lucky" assignments and simplifies before it searches, so
            // its first model need not be the preferred one (on this formula about half the
            // values agree); the phases are taken after loading and the answer is a model.
            #[cfg(feature = "cadical")]
            {
                let mut c = Cadical::new();
                c.add_formula(&f);
                c.prefer(&lits);
                let Outcome::Sat(got) = c.solve(&[]).unwrap() else {
                    panic!("seed {seed}: satisfiable")
                };
                assert!(got.satisfies(&f), "seed {seed}");
            }
            checked += 1;
        }
        assert!(checked >= 6);
    }
}
