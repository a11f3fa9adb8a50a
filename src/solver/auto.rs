//! The automatic backend (`--backend auto`): each puzzle starts on varisat, which is quickest
//! on the easy boards that are most of any collection; when its solver calls have taken more
//! than a budget, varisat is stopped (through its stop hook) and the puzzle moves to CaDiCaL,
//! which is loaded with every clause added so far (rules, blocking clauses, lazy constraints)
//! and asked the same question again. Native builds only: it reads the clock.

use super::{Backend, Cadical, Outcome, SolverError, Stop, Varisat};
use crate::cnf::Lit;
use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// varisat, then CaDiCaL after `budget` (see the module comment).
pub struct Auto {
    budget: Duration,
    /// When varisat is to give up: set by the first solve call.
    deadline: Rc<Cell<Option<Instant>>>,
    varisat: Varisat,
    cadical: Option<Cadical>,
    /// The batch's `--timeout` flag: it stops either solver, and is no reason to switch.
    stop: Option<Stop>,
    /// Every clause added, kept for CaDiCaL: the literals one after another, and each
    /// clause's length.
    lits: Vec<Lit>,
    lens: Vec<u32>,
    /// The preferred literals ([`Backend::prefer`]), for CaDiCaL (varisat has no phases).
    preferred: Vec<Lit>,
}

impl Auto {
    /// A backend that moves to CaDiCaL after `budget` seconds of varisat, and gives up
    /// altogether once `stop` is raised.
    pub fn new(budget: f64, stop: Option<Stop>) -> Auto {
        let deadline: Rc<Cell<Option<Instant>>> = Rc::new(Cell::new(None));
        let seen = deadline.clone();
        let flag = stop.clone();
        let poll = move || {
            flag.as_ref().is_some_and(Stop::is_raised)
                || seen.get().is_some_and(|d| Instant::now() >= d)
        };
        Auto {
            // Any number: NaN and below 0 are no budget, above a billion seconds (and
            // infinity) a budget that never runs out.
            budget: Duration::try_from_secs_f64(budget.clamp(0.0, 1e9)).unwrap_or(Duration::ZERO),
            deadline,
            varisat: Varisat::with_poll(Box::new(poll)),
            cadical: None,
            stop,
            lits: Vec::new(),
            lens: Vec::new(),
            preferred: Vec::new(),
        }
    }

    /// True once the puzzle has moved to CaDiCaL.
    pub fn switched(&self) -> bool {
        self.cadical.is_some()
    }

    fn switch(&mut self) -> &mut Cadical {
        let mut c = Cadical::new();
        if let Some(s) = &self.stop {
            c.set_stop(s.clone());
        }
        let mut at = 0;
        for &n in &self.lens {
            let end = at + n as usize;
            c.add_clause(&self.lits[at..end]);
            at = end;
        }
        self.lits = Vec::new();
        self.lens = Vec::new();
        c.prefer(&std::mem::take(&mut self.preferred));
        self.cadical.insert(c)
    }
}

impl Backend for Auto {
    fn add_clause(&mut self, clause: &[Lit]) {
        match &mut self.cadical {
            Some(c) => c.add_clause(clause),
            None => {
                self.varisat.add_clause(clause);
                self.lits.extend_from_slice(clause);
                self.lens.push(clause.len() as u32);
            }
        }
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Outcome, SolverError> {
        if let Some(c) = &mut self.cadical {
            return c.solve(assumptions);
        }
        if self.deadline.get().is_none() {
            self.deadline.set(Instant::now().checked_add(self.budget));
        }
        match self.varisat.solve(assumptions) {
            Err(SolverError::Stopped) if !self.stop.as_ref().is_some_and(Stop::is_raised) => {
                self.switch().solve(assumptions)
            }
            other => other,
        }
    }

    fn prefer(&mut self, lits: &[Lit]) {
        match &mut self.cadical {
            Some(c) => c.prefer(lits),
            None => self.preferred.extend_from_slice(lits),
        }
    }

    fn num_vars(&self) -> usize {
        match &self.cadical {
            Some(c) => c.num_vars().max(self.varisat.num_vars()),
            None => self.varisat.num_vars(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::{encode, Formula, Var};
    use crate::solver::testing::random_3sat;

    /// The pigeonhole formula, `p` pigeons into `p - 1` holes (unsatisfiable, hard for CDCL),
    /// with a selector: the hole constraints hold only when `sel` is assumed.
    fn pigeons(p: usize) -> (Formula, Var, Var) {
        let mut f = Formula::new();
        let sel = f.new_var();
        let x: Vec<Vec<Var>> = (0..p)
            .map(|_| (0..p - 1).map(|_| f.new_var()).collect())
            .collect();
        for row in &x {
            let mut c: Vec<Lit> = row.iter().map(|v| v.pos()).collect();
            c.push(sel.neg());
            f.add_clause(&c);
        }
        for j in 0..p - 1 {
            let col: Vec<Lit> = x.iter().map(|row| row[j].pos()).collect();
            encode::at_most_one(&mut f, &col);
        }
        (f, sel, x[0][0])
    }

    #[test]
    fn easy_questions_stay_on_varisat() {
        let (f, sel, x) = pigeons(5);
        let mut a = Auto::new(60.0, None);
        a.add_formula(&f);
        assert!(matches!(a.solve(&[sel.pos()]), Ok(Outcome::Unsat(_))));
        assert!(matches!(a.solve(&[x.pos()]), Ok(Outcome::Sat(_))));
        assert!(!a.switched());
    }

    #[test]
    fn a_spent_budget_moves_the_puzzle_to_cadical_with_every_clause() {
        let f = random_3sat(250, 7);
        let mut plain = Varisat::new();
        plain.add_formula(&f);
        let expected = plain.solve(&[]).unwrap();
        // A zero budget: varisat gives up at its first proof flush, CaDiCaL answers.
        let mut a = Auto::new(0.0, None);
        a.add_formula(&f);
        let got = a.solve(&[]).unwrap();
        assert!(
            a.switched(),
            "varisat finished before its first proof flush"
        );
        match (&expected, &got) {
            (Outcome::Sat(_), Outcome::Sat(m)) => assert!(m.satisfies(&f)),
            (Outcome::Unsat(_), Outcome::Unsat(_)) => {}
            _ => panic!("varisat said {expected:?}, CaDiCaL {got:?}"),
        }
        // Later clauses and questions go to CaDiCaL.
        let x = Var::from_index(0);
        a.add_clause(&[x.pos()]);
        a.add_clause(&[x.neg()]);
        assert!(matches!(a.solve(&[]), Ok(Outcome::Unsat(_))));
    }
}
