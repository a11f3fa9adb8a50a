//! The strong embedded backend: CaDiCaL (through the `cadical-sys` crate, which builds its C++
//! source with cargo), used incrementally like varisat. Native builds only (the `cadical`
//! feature, on by default); a wasm32 build has varisat alone.
//!
//! A stop hook ([`Cadical::set_stop`]) is polled by CaDiCaL's terminator while it searches; a
//! stopped call returns [`SolverError::Stopped`] and the solver can be asked again. A DRAT
//! proof of the UNSAT answers can be written to a file ([`Cadical::write_proof`]).

use super::{Backend, Outcome, SolverError, Stop};
use crate::cnf::{Assignment, Lit};
use cadical_sys::{CaDiCal, Status, Terminator};

/// CaDiCaL behind the [`Backend`] trait.
pub struct Cadical {
    solver: CaDiCal,
    /// Variables declared to CaDiCaL (it requires a declaration before a variable is used).
    declared: usize,
    buf: Vec<i32>,
    /// The flag of [`Cadical::set_stop`]: an UNKNOWN answer while it is raised is a stop,
    /// otherwise a spent budget ([`Backend::solve_budget`]).
    stop: Option<Stop>,
}

impl Default for Cadical {
    fn default() -> Self {
        Cadical::new()
    }
}

/// Adapts a [`Stop`] flag to CaDiCaL's terminator callback.
struct Hook(Stop);

impl Terminator for Hook {
    fn terminated(&mut self) -> bool {
        self.0.is_raised()
    }
}

fn to_dimacs(l: Lit) -> i32 {
    let v = (l.var().index() + 1) as i32;
    if l.is_positive() {
        v
    } else {
        -v
    }
}

impl Cadical {
    /// A new, empty solver with CaDiCaL's default options.
    pub fn new() -> Cadical {
        Cadical {
            solver: CaDiCal::new(),
            declared: 0,
            buf: Vec::new(),
            stop: None,
        }
    }

    /// CaDiCaL's name and version (`cadical-3.0.1`).
    pub fn signature() -> String {
        CaDiCal::signature()
    }

    /// Polls `stop` while solving: once it is raised the current call ends with
    /// [`SolverError::Stopped`]. Replaces an earlier flag.
    pub fn set_stop(&mut self, stop: Stop) {
        self.stop = Some(stop.clone());
        self.solver.connect_terminator(Hook(stop));
    }

    /// Writes a DRAT proof of every UNSAT answer to `path` (the clauses CaDiCaL learns and
    /// deletes; check it with `drat-trim` against the formula). Must be called before any
    /// clause is added; false when the file cannot be opened.
    pub fn write_proof(&mut self, path: &str) -> bool {
        self.declared == 0 && self.solver.trace_proof2(path)
    }

    /// Flushes and closes the proof file opened by [`Cadical::write_proof`].
    pub fn close_proof(&mut self) {
        self.solver.close_proof_trace(false);
    }

    /// One solve call under `assumptions`, within `conflicts` when given (CaDiCaL resets
    /// its limits after each call).
    fn answer(
        &mut self,
        assumptions: &[Lit],
        conflicts: Option<u64>,
    ) -> Result<Outcome, SolverError> {
        if let Some(m) = assumptions.iter().map(|l| l.var().index()).max() {
            self.declare(m);
        }
        for &l in assumptions {
            self.solver.assume(to_dimacs(l));
        }
        if let Some(n) = conflicts {
            self.solver
                .limit("conflicts", n.min(i32::MAX as u64) as i32);
        }
        match self.solver.solve() {
            Status::SATISFIABLE => {
                let values = (1..=self.declared as i32)
                    .map(|v| self.solver.val(v) > 0)
                    .collect();
                Ok(Outcome::Sat(Assignment::new(values)))
            }
            Status::UNSATISFIABLE => {
                let core = assumptions
                    .iter()
                    .copied()
                    .filter(|&l| self.solver.failed(to_dimacs(l)))
                    .collect();
                Ok(Outcome::Unsat(core))
            }
            Status::UNKNOWN => Err(SolverError::Stopped),
        }
    }
    fn declare(&mut self, var_index: usize) {
        if var_index + 1 > self.declared {
            self.declared = var_index + 1;
            self.solver.resize(self.declared as i32);
        }
    }
}

impl Backend for Cadical {
    fn add_clause(&mut self, clause: &[Lit]) {
        if let Some(m) = clause.iter().map(|l| l.var().index()).max() {
            self.declare(m);
        }
        self.buf.clear();
        self.buf.extend(clause.iter().map(|&l| to_dimacs(l)));
        self.solver.clause6(&self.buf);
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Outcome, SolverError> {
        self.answer(assumptions, None)
    }

    /// CaDiCaL's conflict limit for this call: an UNKNOWN answer with the stop flag down is
    /// a spent budget. The failed assumptions of an UNSAT answer are CaDiCaL's, often a much
    /// smaller core than the lite solver's.
    fn solve_budget(
        &mut self,
        assumptions: &[Lit],
        conflicts: u64,
    ) -> Result<Option<Outcome>, SolverError> {
        match self.answer(assumptions, Some(conflicts)) {
            Err(SolverError::Stopped) if !self.stop.as_ref().is_some_and(Stop::is_raised) => {
                Ok(None)
            }
            other => other.map(Some),
        }
    }

    fn num_vars(&self) -> usize {
        self.declared
    }

    /// CaDiCaL's `phase`: the literal's value is the one its decisions try first.
    fn prefer(&mut self, lits: &[Lit]) {
        if let Some(m) = lits.iter().map(|l| l.var().index()).max() {
            self.declare(m);
        }
        for &l in lits {
            self.solver.phase(to_dimacs(l));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::{encode, Formula, Var};

    #[test]
    fn solves_incrementally_with_cores() {
        // Exactly one of x0..x3.
        let mut f = Formula::new();
        let v: Vec<Var> = (0..4).map(|_| f.new_var()).collect();
        let l: Vec<Lit> = v.iter().map(|x| x.pos()).collect();
        encode::exactly_one(&mut f, &l);
        let mut s = Cadical::new();
        s.add_formula(&f);
        let Outcome::Sat(a) = s.solve(&[v[2].pos()]).unwrap() else {
            panic!("satisfiable")
        };
        assert!(a.satisfies(&f) && a.var(v[2]) && !a.var(v[0]));
        // x1 and x3 conflict; ¬x0 is not part of the reason.
        let Outcome::Unsat(core) = s.solve(&[v[0].neg(), v[1].pos(), v[3].pos()]).unwrap() else {
            panic!("unsatisfiable")
        };
        assert!(core.contains(&v[1].pos()) && core.contains(&v[3].pos()));
        assert!(!core.contains(&v[0].neg()));
        // The solver is reusable, and a variable first seen in an assumption is declared.
        let fresh = Var::from_index(10);
        assert!(matches!(s.solve(&[fresh.pos()]), Ok(Outcome::Sat(_))));
        assert_eq!(s.num_vars(), 11);
        s.add_clause(&[v[0].pos()]);
        assert!(matches!(s.solve(&[v[1].pos()]), Ok(Outcome::Unsat(_))));
    }

    /// The pigeonhole formula 9 into 8 holes (far beyond a first poll of the hook, and
    /// thousands of conflicts), with its variables pigeon by pigeon.
    fn pigeons() -> (Formula, Vec<Vec<Var>>) {
        let mut f = Formula::new();
        let (p, h) = (9, 8);
        let x: Vec<Vec<Var>> = (0..p)
            .map(|_| (0..h).map(|_| f.new_var()).collect())
            .collect();
        for row in &x {
            f.add_clause(&row.iter().map(|v| v.pos()).collect::<Vec<_>>());
        }
        for j in 0..h {
            let col: Vec<Lit> = x.iter().map(|row| row[j].pos()).collect();
            encode::at_most_one(&mut f, &col);
        }
        (f, x)
    }

    #[test]
    fn a_conflict_budget_leaves_a_hard_question_open_and_cores_are_real_conflicts() {
        let (f, x) = pigeons();
        let mut s = Cadical::new();
        s.add_formula(&f);
        s.set_stop(Stop::new());
        // Open within 10 conflicts (not a stop: the flag is down), and asked again.
        assert_eq!(s.solve_budget(&[], 10), Ok(None));
        assert_eq!(s.solve_budget(&[], 5), Ok(None));
        // Within a budget, an easy question gets its answer: pigeons 0 and 1 in hole 0
        // conflict, pigeon 2 in hole 1 is not part of it; the core alone conflicts again.
        let assume = [x[2][1].pos(), x[0][0].pos(), x[1][0].pos()];
        let Ok(Some(Outcome::Unsat(core))) = s.solve_budget(&assume, 10) else {
            panic!("answered within the budget")
        };
        assert!(core.contains(&x[0][0].pos()) && core.contains(&x[1][0].pos()));
        assert!(!core.contains(&x[2][1].pos()));
        assert!(matches!(s.solve(&core), Ok(Outcome::Unsat(_))));
    }

    #[test]
    fn a_stop_hook_interrupts_and_the_solver_recovers() {
        let (f, x) = pigeons();
        let mut s = Cadical::new();
        s.add_formula(&f);
        let raised = Stop::new();
        raised.raise();
        s.set_stop(raised);
        assert_eq!(s.solve(&[]), Err(SolverError::Stopped));
        // With a flag that is not raised, a small question still gets its answer.
        s.set_stop(Stop::new());
        assert!(matches!(
            s.solve(&[x[0][0].pos(), x[1][0].pos()]),
            Ok(Outcome::Unsat(_))
        ));
    }
}
