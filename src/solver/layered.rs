//! The embedded default: each puzzle starts on [`Lite`], which loads a small board at a
//! fraction of the other solvers' cost and decides most boards in a few conflicts; a puzzle
//! that spends more than a conflict budget in it (over all its solver calls) moves to the
//! stronger solver, loaded with every clause so far, and is asked the same question again. A
//! formula too large to be worth a first try goes to the stronger solver at once. The stronger
//! solver is CaDiCaL when it is built in (the `cadical` feature, on by default), else varisat
//! (a wasm32 build): on the hard ADC2015 boards CaDiCaL finds solutions varisat does not find
//! in a minute. The thresholds are measured in BENCHMARKS.md.

use super::{Backend, Lite, Outcome, Search, SolverError, Stop};
use crate::cnf::{Formula, Lit};

/// Conflicts a puzzle may spend in the lite solver before it moves to the stronger solver.
pub const LITE_CONFLICTS: u64 = 2_000;
/// Formulas with more variables than this go to the stronger solver directly.
pub const LITE_MAX_VARS: usize = 200_000;

/// The lite solver, then CaDiCaL or varisat (see the module comment).
pub struct Layered {
    lite: Lite,
    strong: Option<Box<dyn Backend>>,
    stop: Option<Stop>,
    budget: u64,
    /// The variables the lite solver knew when the puzzle moved (its memory is then freed).
    lite_vars: usize,
    /// The preferred literals ([`Backend::prefer`]), handed to the stronger solver on the move.
    preferred: Vec<Lit>,
}

/// The stronger solver a puzzle moves to, stopping once `stop` is raised.
fn strong_solver(stop: Option<Stop>) -> Box<dyn Backend> {
    #[cfg(feature = "cadical")]
    {
        let mut c = super::Cadical::new();
        if let Some(s) = stop {
            c.set_stop(s);
        }
        Box::new(c)
    }
    #[cfg(not(feature = "cadical"))]
    {
        Box::new(super::Varisat::with_stop(stop))
    }
}

impl Layered {
    /// A backend that moves to the stronger solver after `budget` conflicts; both stop once
    /// `stop` is raised.
    pub fn new(budget: u64, stop: Option<Stop>) -> Layered {
        Layered {
            lite: Lite::with_stop(stop.clone()),
            strong: None,
            stop,
            budget,
            lite_vars: 0,
            preferred: Vec::new(),
        }
    }

    /// True once the puzzle has moved to the stronger solver.
    pub fn switched(&self) -> bool {
        self.strong.is_some()
    }

    fn switch(&mut self) -> &mut Box<dyn Backend> {
        let mut v = strong_solver(self.stop.clone());
        self.lite.export(|c| v.add_clause(c));
        // The lite solver's memory is not needed any more.
        self.lite_vars = self.lite.num_vars();
        self.lite = Lite::new();
        v.prefer(&std::mem::take(&mut self.preferred));
        self.strong.insert(v)
    }
}

impl Backend for Layered {
    fn add_clause(&mut self, clause: &[Lit]) {
        match &mut self.strong {
            Some(v) => v.add_clause(clause),
            None => self.lite.add(clause),
        }
    }

    fn add_formula(&mut self, f: &Formula) {
        if self.strong.is_none() && f.num_vars() > LITE_MAX_VARS {
            self.switch();
        }
        match &mut self.strong {
            Some(v) => v.add_formula(f),
            None => self.lite.add_formula(f),
        }
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Outcome, SolverError> {
        if let Some(v) = &mut self.strong {
            return v.solve(assumptions);
        }
        let before = self.lite.conflicts();
        let answer = self.lite.solve_limited(assumptions, self.budget)?;
        self.budget = self.budget.saturating_sub(self.lite.conflicts() - before);
        match answer {
            Some(out) => Ok(out),
            None => self.switch().solve(assumptions),
        }
    }

    /// On the lite solver, within `conflicts` (which do not count against the move to the
    /// stronger solver: a spent budget is the caller's to handle); after the move, none.
    fn solve_budget(
        &mut self,
        assumptions: &[Lit],
        conflicts: u64,
    ) -> Result<Option<Outcome>, SolverError> {
        match &mut self.strong {
            Some(_) => Ok(None),
            None => self.lite.solve_limited(assumptions, conflicts),
        }
    }

    fn num_vars(&self) -> usize {
        match &self.strong {
            Some(v) => v.num_vars().max(self.lite_vars),
            None => self.lite.num_vars(),
        }
    }

    /// The lite solver's search (the stronger solver's is its own).
    fn set_search(&mut self, search: Search) {
        if self.strong.is_none() {
            self.lite.set_search(search);
        }
    }

    /// The lite solver's phases, and after the move CaDiCaL's (varisat has none).
    fn prefer(&mut self, lits: &[Lit]) {
        match &mut self.strong {
            Some(v) => v.prefer(lits),
            None => {
                self.lite.prefer(lits);
                self.preferred.extend_from_slice(lits);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Var;
    use crate::solver::testing::random_3sat;
    use crate::solver::Varisat;

    #[test]
    fn easy_questions_stay_on_the_lite_solver() {
        let f = random_3sat(30, 3);
        let mut l = Layered::new(LITE_CONFLICTS, None);
        l.add_formula(&f);
        l.solve(&[]).unwrap();
        l.solve(&[Var::from_index(0).pos()]).unwrap();
        assert!(!l.switched());
    }

    #[test]
    fn a_spent_budget_moves_the_puzzle_to_the_stronger_solver_with_every_clause() {
        for seed in 0..6 {
            let f = random_3sat(200, seed);
            let mut plain = Varisat::new();
            plain.add_formula(&f);
            let a = [Var::from_index(1).pos(), Var::from_index(2).neg()];
            let expected = plain.solve(&a).unwrap();
            let mut l = Layered::new(5, None);
            l.add_formula(&f);
            // A unit learnt or given before the move must reach the stronger solver too.
            let got = l.solve(&a).unwrap();
            assert!(l.switched(), "seed {seed}: decided in 5 conflicts");
            match (&expected, &got) {
                (Outcome::Sat(_), Outcome::Sat(m)) => {
                    assert!(m.satisfies(&f) && m.lit(a[0]) && m.lit(a[1]))
                }
                (Outcome::Unsat(_), Outcome::Unsat(core)) => {
                    assert!(core.iter().all(|l| a.contains(l)))
                }
                _ => panic!("varisat said {expected:?}, the layered backend {got:?}"),
            }
            assert!(l.num_vars() >= 200);
            // Later clauses go to the stronger solver.
            let x = Var::from_index(0);
            l.add_clause(&[x.pos()]);
            l.add_clause(&[x.neg()]);
            assert_eq!(l.solve(&[]).unwrap(), Outcome::Unsat(Vec::new()));
        }
    }
}
