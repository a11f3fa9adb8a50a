//! The embedded default: each puzzle starts on [`Lite`], which loads a small board at a
//! fraction of varisat's cost and decides most boards in a few conflicts; a puzzle that spends
//! more than a conflict budget in it (over all its solver calls) moves to varisat, loaded with
//! every clause so far, and is asked the same question again. A formula too large to be worth a
//! first try goes to varisat at once. The thresholds are measured in BENCHMARKS.md.

use super::{Backend, Lite, Outcome, Search, SolverError, Stop, Varisat};
use crate::cnf::{Formula, Lit};

/// Conflicts a puzzle may spend in the lite solver before it moves to varisat.
pub const LITE_CONFLICTS: u64 = 2_000;
/// Formulas with more variables than this go to varisat directly.
pub const LITE_MAX_VARS: usize = 200_000;

/// The lite solver, then varisat (see the module comment).
pub struct Layered {
    lite: Lite,
    varisat: Option<Varisat>,
    stop: Option<Stop>,
    budget: u64,
    /// The variables the lite solver knew when the puzzle moved (its memory is then freed).
    lite_vars: usize,
}

impl Layered {
    /// A backend that moves to varisat after `budget` conflicts; both stop once `stop` is
    /// raised.
    pub fn new(budget: u64, stop: Option<Stop>) -> Layered {
        Layered {
            lite: Lite::with_stop(stop.clone()),
            varisat: None,
            stop,
            budget,
            lite_vars: 0,
        }
    }

    /// True once the puzzle has moved to varisat.
    pub fn switched(&self) -> bool {
        self.varisat.is_some()
    }

    fn switch(&mut self) -> &mut Varisat {
        let mut v = Varisat::with_stop(self.stop.clone());
        self.lite.export(|c| v.add_clause(c));
        // The lite solver's memory is not needed any more.
        self.lite_vars = self.lite.num_vars();
        self.lite = Lite::new();
        self.varisat.insert(v)
    }
}

impl Backend for Layered {
    fn add_clause(&mut self, clause: &[Lit]) {
        match &mut self.varisat {
            Some(v) => v.add_clause(clause),
            None => self.lite.add(clause),
        }
    }

    fn add_formula(&mut self, f: &Formula) {
        if self.varisat.is_none() && f.num_vars() > LITE_MAX_VARS {
            self.switch();
        }
        match &mut self.varisat {
            Some(v) => v.add_formula(f),
            None => self.lite.add_formula(f),
        }
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Outcome, SolverError> {
        if let Some(v) = &mut self.varisat {
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

    /// On the lite solver, within `conflicts` (which do not count against the move to
    /// varisat: a spent budget is the caller's to handle); after the move, none.
    fn solve_budget(
        &mut self,
        assumptions: &[Lit],
        conflicts: u64,
    ) -> Result<Option<Outcome>, SolverError> {
        match &mut self.varisat {
            Some(_) => Ok(None),
            None => self.lite.solve_limited(assumptions, conflicts),
        }
    }

    fn num_vars(&self) -> usize {
        match &self.varisat {
            Some(v) => v.num_vars().max(self.lite_vars),
            None => self.lite.num_vars(),
        }
    }

    /// The lite solver's search (varisat's is its own).
    fn set_search(&mut self, search: Search) {
        if self.varisat.is_none() {
            self.lite.set_search(search);
        }
    }

    /// The lite solver's phases (varisat has none).
    fn prefer(&mut self, lits: &[Lit]) {
        if self.varisat.is_none() {
            self.lite.prefer(lits);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Var;
    use crate::solver::testing::random_3sat;

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
    fn a_spent_budget_moves_the_puzzle_to_varisat_with_every_clause() {
        for seed in 0..6 {
            let f = random_3sat(200, seed);
            let mut plain = Varisat::new();
            plain.add_formula(&f);
            let a = [Var::from_index(1).pos(), Var::from_index(2).neg()];
            let expected = plain.solve(&a).unwrap();
            let mut l = Layered::new(5, None);
            l.add_formula(&f);
            // A unit learnt or given before the move must reach varisat too.
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
            // Later clauses go to varisat.
            let x = Var::from_index(0);
            l.add_clause(&[x.pos()]);
            l.add_clause(&[x.neg()]);
            assert_eq!(l.solve(&[]).unwrap(), Outcome::Unsat(Vec::new()));
        }
    }
}
