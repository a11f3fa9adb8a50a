//! The embedded default: each puzzle starts on [`Lite`], which loads a small board at a
//! fraction of varisat's cost and decides most boards in a few conflicts; a puzzle that spends
//! more than a conflict budget in it (over all its solver calls) moves to varisat, loaded with
//! every clause so far, and is asked the same question again. A formula too large to be worth a
//! first try goes to varisat at once. The thresholds are measured in BENCHMARKS.md.
//!
//! Under [`Search::Direct`] (Sudoku) a formula made mostly of exactly-one groups goes first to
//! [`Cover`], an exact-cover search without learning, for at most [`COVER_NODES`] nodes over
//! all its calls; past them, or for a call under assumptions that it proves unsatisfiable (lite
//! names a smaller set of them), lite takes over as above. Loading lite waits for the first
//! solve (the search hint comes after the formula), so a puzzle that the exact-cover search
//! decides never loads it.

use super::cover::Cover;
use super::{Backend, Lite, Outcome, Search, SolverError, Stop, Varisat};
use crate::cnf::{Formula, Lit};

/// Conflicts a puzzle may spend in the lite solver before it moves to varisat.
pub const LITE_CONFLICTS: u64 = 2_000;
/// Formulas with more variables than this go to varisat directly.
pub const LITE_MAX_VARS: usize = 200_000;
/// Nodes a puzzle may spend in the exact-cover search before it moves to lite.
pub const COVER_NODES: u64 = 10_000;

/// Whether the exact-cover search is still to be tried, in use, or out.
enum CoverState {
    Untried,
    On(Box<Cover>),
    Off,
}

/// The exact-cover search or the lite solver, then varisat (see the module comment).
pub struct Layered {
    lite: Lite,
    /// Every clause so far while the lite solver is not loaded yet.
    held: Option<Formula>,
    cover: CoverState,
    search: Search,
    preferred: Vec<Lit>,
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
            held: Some(Formula::without_names()),
            cover: CoverState::Untried,
            search: Search::Standard,
            preferred: Vec::new(),
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

    /// True while the exact-cover search answers.
    pub fn covering(&self) -> bool {
        matches!(self.cover, CoverState::On(_))
    }

    /// Loads the lite solver with the clauses held, then the search hint and phases it was
    /// given (the order in which the engine gives them).
    fn load_lite(&mut self) {
        if let Some(h) = self.held.take() {
            self.lite.add_formula(&h);
            if self.search != Search::Standard {
                self.lite.set_search(self.search);
            }
            if !self.preferred.is_empty() {
                self.lite.prefer(&self.preferred);
            }
        }
    }

    fn switch(&mut self) -> &mut Varisat {
        let mut v = Varisat::with_stop(self.stop.clone());
        match self.held.take() {
            Some(h) => v.add_formula(&h),
            None => self.lite.export(|c| v.add_clause(c)),
        }
        self.cover = CoverState::Off;
        // The lite solver's memory is not needed any more.
        self.lite_vars = self.lite.num_vars();
        self.lite = Lite::new();
        self.varisat.insert(v)
    }

    /// The exact-cover search's answer, when it gives one (see the module comment).
    fn cover_solve(&mut self, assumptions: &[Lit]) -> Result<Option<Outcome>, SolverError> {
        if matches!(self.cover, CoverState::Untried) {
            self.cover = CoverState::Off;
            if let (Search::Direct, Some(h)) = (self.search, &self.held) {
                let c = Cover::new(h, self.stop.clone());
                if c.mostly_groups() {
                    self.cover = CoverState::On(Box::new(c));
                }
            }
        }
        let CoverState::On(c) = &mut self.cover else {
            return Ok(None);
        };
        match c.solve_limited(assumptions, COVER_NODES)? {
            Some(Outcome::Unsat(core)) if !assumptions.is_empty() && !core.is_empty() => Ok(None),
            Some(out) => Ok(Some(out)),
            None => {
                self.cover = CoverState::Off;
                Ok(None)
            }
        }
    }
}

impl Backend for Layered {
    fn add_clause(&mut self, clause: &[Lit]) {
        if let Some(v) = &mut self.varisat {
            return v.add_clause(clause);
        }
        match &mut self.cover {
            CoverState::On(c) => c.add(clause),
            // Without the exact-cover search, lite takes clauses as it always did.
            _ => self.load_lite(),
        }
        match &mut self.held {
            Some(h) => {
                let top = clause.iter().map(|l| l.var().index() + 1).max();
                while h.num_vars() < top.unwrap_or(0) {
                    h.new_var();
                }
                h.add_clause(clause);
            }
            None => self.lite.add(clause),
        }
    }

    fn add_formula(&mut self, f: &Formula) {
        if self.varisat.is_none() && f.num_vars() > LITE_MAX_VARS {
            self.switch();
        }
        if let Some(v) = &mut self.varisat {
            return v.add_formula(f);
        }
        match &mut self.held {
            // The first formula is held as it is until the first solve.
            Some(h) if h.num_clauses() == 0 && h.num_vars() <= f.num_vars() => {
                let mut copy = Formula::continuing(f.num_vars());
                copy.reserve(f.num_clauses(), f.num_lits());
                for c in f.clauses() {
                    copy.add_clause(c);
                }
                *h = copy;
            }
            Some(_) if !matches!(self.cover, CoverState::On(_)) => {
                self.load_lite();
                self.lite.add_formula(f);
            }
            None => self.lite.add_formula(f),
            Some(_) => {
                for c in f.clauses() {
                    self.add_clause(c);
                }
            }
        }
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Outcome, SolverError> {
        if let Some(v) = &mut self.varisat {
            return v.solve(assumptions);
        }
        if let Some(out) = self.cover_solve(assumptions)? {
            return Ok(out);
        }
        self.load_lite();
        let before = self.lite.conflicts();
        let answer = self.lite.solve_limited(assumptions, self.budget)?;
        self.budget = self.budget.saturating_sub(self.lite.conflicts() - before);
        match answer {
            Some(out) => Ok(out),
            None => self.switch().solve(assumptions),
        }
    }

    fn num_vars(&self) -> usize {
        match (&self.varisat, &self.held, &self.cover) {
            (Some(v), _, _) => v.num_vars().max(self.lite_vars),
            (None, Some(h), CoverState::On(c)) => h.num_vars().max(c.num_vars()),
            (None, Some(h), _) => h.num_vars(),
            (None, None, CoverState::On(c)) => self.lite.num_vars().max(c.num_vars()),
            (None, None, _) => self.lite.num_vars(),
        }
    }

    /// The lite solver's search (varisat's is its own); [`Search::Direct`] tries the
    /// exact-cover search first.
    fn set_search(&mut self, search: Search) {
        self.search = search;
        if self.varisat.is_none() && self.held.is_none() {
            self.lite.set_search(search);
        }
    }

    /// The lite solver's phases (varisat and the exact-cover search have none).
    fn prefer(&mut self, lits: &[Lit]) {
        if self.varisat.is_some() {
            return;
        }
        match self.held {
            Some(_) => self.preferred.extend_from_slice(lits),
            None => self.lite.prefer(lits),
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
