//! The embedded backend: varisat, a CDCL solver in pure Rust, used incrementally.

use super::{Backend, Outcome, SolverError};
use crate::cnf::{Assignment, Formula, Lit};

/// The varisat solver behind the [`Backend`] trait.
pub struct Varisat {
    solver: varisat::Solver<'static>,
    num_vars: usize,
    buf: Vec<varisat::Lit>,
}

impl Default for Varisat {
    fn default() -> Self {
        Varisat::new()
    }
}

impl Varisat {
    /// A new, empty solver.
    pub fn new() -> Varisat {
        Varisat {
            solver: varisat::Solver::new(),
            num_vars: 0,
            buf: Vec::new(),
        }
    }
}

/// Solves `formula` once with a fresh varisat solver that writes a binary DRAT proof to `proof`
/// as it goes: on `Unsat`, `proof` refutes `formula` for any DRAT checker. varisat 0.2 writes a
/// valid DRAT proof only for such a run: the proof is asked for before any clause, there are no
/// assumptions, and no clause comes after a SAT answer.
pub fn solve_with_proof(
    formula: &Formula,
    proof: &mut dyn std::io::Write,
) -> Result<Outcome, SolverError> {
    let mut solver = varisat::Solver::new();
    solver.write_proof(proof, varisat::ProofFormat::BinaryDrat);
    let mut buf = Vec::new();
    for c in formula.clauses() {
        use varisat::ExtendFormula;
        buf.clear();
        buf.extend(c.iter().map(|&l| to_varisat(l)));
        solver.add_clause(&buf);
    }
    let failed = |e: varisat::solver::SolverError| SolverError::Internal(e.to_string());
    let sat = solver.solve().map_err(failed)?;
    let out = if sat {
        let mut values = vec![false; formula.num_vars()];
        for l in solver.model().unwrap_or_default() {
            if let Some(v) = values.get_mut(l.index()) {
                *v = l.is_positive();
            }
        }
        Outcome::Sat(Assignment::new(values))
    } else {
        Outcome::Unsat(Vec::new())
    };
    solver.close_proof().map_err(failed)?;
    Ok(out)
}

fn to_varisat(l: Lit) -> varisat::Lit {
    varisat::Lit::from_index(l.var().index(), l.is_positive())
}

fn from_varisat(l: varisat::Lit) -> Lit {
    crate::cnf::Var::from_index(l.index()).lit(l.is_positive())
}

impl Backend for Varisat {
    fn add_clause(&mut self, clause: &[Lit]) {
        use varisat::ExtendFormula;
        self.buf.clear();
        for &l in clause {
            self.num_vars = self.num_vars.max(l.var().index() + 1);
            self.buf.push(to_varisat(l));
        }
        self.solver.add_clause(&self.buf);
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Outcome, SolverError> {
        let lits: Vec<varisat::Lit> = assumptions
            .iter()
            .map(|&l| {
                self.num_vars = self.num_vars.max(l.var().index() + 1);
                to_varisat(l)
            })
            .collect();
        self.solver.assume(&lits);
        let sat = self
            .solver
            .solve()
            .map_err(|e| SolverError::Internal(e.to_string()))?;
        if sat {
            let mut values = vec![false; self.num_vars];
            for l in self.solver.model().unwrap_or_default() {
                if let Some(v) = values.get_mut(l.index()) {
                    *v = l.is_positive();
                }
            }
            Ok(Outcome::Sat(Assignment::new(values)))
        } else {
            let core = self
                .solver
                .failed_core()
                .map(|c| c.iter().map(|&l| from_varisat(l)).collect())
                .unwrap_or_default();
            Ok(Outcome::Unsat(core))
        }
    }

    fn num_vars(&self) -> usize {
        self.num_vars
    }
}
