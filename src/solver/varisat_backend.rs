//! The embedded backend: varisat, a CDCL solver in pure Rust, used incrementally.

use super::{Backend, Outcome, SolverError};
use crate::cnf::{Assignment, Lit};

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
