//! The embedded backend: varisat, a CDCL solver in pure Rust, used incrementally. A
//! [`Stop`] flag (or, for `--backend auto`, any poll) ends a solve through varisat's proof
//! output (see [`super`]).

use super::{Backend, Outcome, SolverError, Stop};
use crate::cnf::{Assignment, Formula, Lit};
use std::cell::Cell;
use std::rc::Rc;

/// The varisat solver behind the [`Backend`] trait.
pub struct Varisat {
    solver: varisat::Solver<'static>,
    num_vars: usize,
    buf: Vec<varisat::Lit>,
    stop: Option<Stop>,
    /// Set by the proof sink when its poll said stop (a raised flag, or another owner's
    /// condition such as `--backend auto`'s budget).
    tripped: Rc<Cell<bool>>,
    /// Stopped once: varisat refuses to solve after an aborted proof, so every later call
    /// answers [`SolverError::Stopped`] without asking it.
    stopped: bool,
    /// Clauses added, to look at the stop flag every few thousand while a big formula loads.
    added: u64,
}

/// The proof "file" of a stoppable solver: it keeps nothing, and fails once its poll says
/// stop, which makes varisat abandon the solve.
struct StopSink {
    poll: Box<dyn FnMut() -> bool>,
    tripped: Rc<Cell<bool>>,
}

impl std::io::Write for StopSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if (self.poll)() {
            self.tripped.set(true);
            Err(std::io::Error::other("stopped"))
        } else {
            Ok(buf.len())
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.write(&[]).map(|_| ())
    }
}

impl Default for Varisat {
    fn default() -> Self {
        Varisat::new()
    }
}

impl Varisat {
    /// A new, empty solver.
    pub fn new() -> Varisat {
        Varisat::with_stop(None)
    }

    /// A new, empty solver that gives up with [`SolverError::Stopped`] once `stop` is raised.
    pub fn with_stop(stop: Option<Stop>) -> Varisat {
        let poll: Option<Box<dyn FnMut() -> bool>> = stop.clone().map(|s| {
            let poll: Box<dyn FnMut() -> bool> = Box::new(move || s.is_raised());
            poll
        });
        Varisat::polling(stop, poll)
    }

    /// A new, empty solver that gives up with [`SolverError::Stopped`] once `poll` returns
    /// true (polled every few hundred conflicts); `--backend auto` stops varisat this way at
    /// the end of its budget.
    pub fn with_poll(poll: Box<dyn FnMut() -> bool>) -> Varisat {
        Varisat::polling(None, Some(poll))
    }

    fn polling(stop: Option<Stop>, poll: Option<Box<dyn FnMut() -> bool>>) -> Varisat {
        let mut solver = varisat::Solver::new();
        let tripped = Rc::new(Cell::new(false));
        if let Some(poll) = poll {
            // Must come before the first clause. Varisat's own format, the only one that takes
            // assumptions and clauses added between solves; the search is the same as without
            // a proof, but hashing and writing its steps costs about a fifth more time.
            let sink = StopSink {
                poll,
                tripped: tripped.clone(),
            };
            solver.write_proof(sink, varisat::ProofFormat::Varisat);
        }
        Varisat {
            solver,
            num_vars: 0,
            buf: Vec::new(),
            stop,
            tripped,
            stopped: false,
            added: 0,
        }
    }

    fn stop_raised(&self) -> bool {
        self.stopped || self.tripped.get() || self.stop.as_ref().is_some_and(Stop::is_raised)
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
        if self.stopped {
            return;
        }
        // Loading millions of clauses takes seconds: a time limit that runs out meanwhile
        // stops the loading (the next solve answers Stopped).
        self.added += 1;
        if self.added.is_multiple_of(4096) && self.stop.as_ref().is_some_and(Stop::is_raised) {
            self.stopped = true;
            return;
        }
        self.buf.clear();
        for &l in clause {
            self.num_vars = self.num_vars.max(l.var().index() + 1);
            self.buf.push(to_varisat(l));
        }
        self.solver.add_clause(&self.buf);
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Outcome, SolverError> {
        if self.stop_raised() {
            self.stopped = true;
            return Err(SolverError::Stopped);
        }
        let lits: Vec<varisat::Lit> = assumptions
            .iter()
            .map(|&l| {
                self.num_vars = self.num_vars.max(l.var().index() + 1);
                to_varisat(l)
            })
            .collect();
        self.solver.assume(&lits);
        let sat = match self.solver.solve() {
            Ok(sat) => sat,
            Err(_) if self.stop_raised() => {
                self.stopped = true;
                return Err(SolverError::Stopped);
            }
            Err(e) => return Err(SolverError::Internal(e.to_string())),
        };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::{encode, Formula};

    /// Pigeons in holes: n + 1 pigeons, n holes (unsatisfiable, and hard for CDCL).
    fn pigeons(n: usize) -> Formula {
        let mut f = Formula::new();
        let x: Vec<Vec<Lit>> = (0..=n)
            .map(|_| (0..n).map(|_| f.new_var().pos()).collect())
            .collect();
        for p in &x {
            f.add_clause(p);
        }
        for h in 0..n {
            let col: Vec<Lit> = x.iter().map(|p| p[h]).collect();
            encode::at_most_one(&mut f, &col);
        }
        f
    }

    #[test]
    fn a_raised_flag_stops_a_long_solve_and_every_later_one() {
        let stop = Stop::new();
        let mut s = Varisat::with_stop(Some(stop.clone()));
        s.add_formula(&pigeons(12));
        let raiser = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(100));
                stop.raise();
            })
        };
        assert_eq!(s.solve(&[]), Err(SolverError::Stopped));
        raiser.join().unwrap();
        assert_eq!(s.solve(&[]), Err(SolverError::Stopped));
    }

    #[test]
    fn a_flag_never_raised_changes_no_answer() {
        let f = pigeons(5);
        let mut plain = Varisat::new();
        let mut stoppable = Varisat::with_stop(Some(Stop::new()));
        plain.add_formula(&f);
        stoppable.add_formula(&f);
        assert!(matches!(plain.solve(&[]), Ok(Outcome::Unsat(_))));
        assert!(matches!(stoppable.solve(&[]), Ok(Outcome::Unsat(_))));
    }
}
