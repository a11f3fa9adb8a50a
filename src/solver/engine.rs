//! The engine, written once for every kind: solve, count solutions up to k, uniqueness,
//! backbone (forced answer literals) and a small set of conflicting givens.
//!
//! A [`Session`] wraps a backend loaded with a formula and knows the kind's *answer variables*:
//! two models are different solutions only when they differ on those. Temporary constraints
//! ("differ from these models") are guarded by fresh activation literals that are retired after
//! use, so one session can answer several questions in a row. A kind whose local clauses admit
//! spurious models (Numberlink's detached loops) gives a `refine` callback that returns clauses
//! forbidding what it finds in a model; the session adds them and solves again (lazy constraints).

use super::{Backend, Outcome, Search, SolverError};
use crate::cnf::{Assignment, Clause, Formula, Lit, Var};
use std::collections::HashSet;

/// Lazy constraints: clauses that a model violates, or none when the model is a real solution.
pub type Refine<'a> = dyn Fn(&Assignment) -> Vec<Clause> + 'a;

/// Where a second solution must be, given the first (see [`Session::into_verdict_normal`]):
/// clauses, over the model's variables and fresh ones of the formula passed in, that some other
/// solution satisfies whenever there is one and the first is the only one in normal form.
pub type Near<'a> = dyn Fn(&Assignment, &mut Formula) + 'a;

/// What the engine found out about a puzzle's number of solutions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exactly one solution.
    Unique(Assignment),
    /// At least two solutions: two that differ on the answer variables.
    Multiple(Assignment, Assignment),
    /// No solution.
    None,
    /// A solution, but the search for a second one was stopped (the [`super::Stop`] flag was
    /// raised: a time limit ran out), so whether it is the only one is not known.
    Found(Assignment),
}

/// A backend loaded with one formula, plus what the engine needs to know about it.
pub struct Session<'a> {
    backend: Box<dyn Backend>,
    answer: Vec<Var>,
    one_hot: bool,
    /// How many of the first answer variables blocking clauses name (see
    /// [`Session::with_distinct`]).
    distinct: usize,
    refine: Option<&'a Refine<'a>>,
    next_var: usize,
    /// Solver calls made so far (for statistics and tests).
    pub calls: usize,
}

impl<'a> Session<'a> {
    /// Loads `formula` into `backend`. `answer` are the variables that make up a solution; when
    /// `one_hot` is set they form exactly-one groups, so a solution is identified by its true
    /// answer literals alone (shorter blocking clauses).
    pub fn new(
        mut backend: Box<dyn Backend>,
        formula: &Formula,
        answer: Vec<Var>,
        one_hot: bool,
    ) -> Session<'a> {
        backend.add_formula(formula);
        let next_var = formula.num_vars().max(backend.num_vars());
        Session {
            backend,
            distinct: answer.len(),
            answer,
            one_hot,
            refine: None,
            next_var,
            calls: 0,
        }
    }

    /// Says that the first `n` answer variables already tell solutions apart (the others
    /// follow from them in every model that counts), so that the clause blocking a solution
    /// names only those: a shorter clause that propagates sooner. Backbones still range over
    /// every answer variable.
    pub fn with_distinct(mut self, n: usize) -> Session<'a> {
        self.distinct = n.min(self.answer.len());
        self
    }

    /// Asks the backend to try these literals first ([`Backend::prefer`]): a hint, such as a
    /// kind's heuristic guess at a solution, that changes no answer.
    pub fn with_preferred(mut self, lits: &[Lit]) -> Session<'a> {
        if !lits.is_empty() {
            self.backend.prefer(lits);
        }
        self
    }

    /// Tells the backend how to search ([`Backend::set_search`]): a hint that changes no
    /// answer.
    pub fn with_search(mut self, search: Search) -> Session<'a> {
        if search != Search::Standard {
            self.backend.set_search(search);
        }
        self
    }

    /// Sets the lazy-constraint callback.
    pub fn with_refine(mut self, refine: &'a Refine<'a>) -> Session<'a> {
        self.refine = Some(refine);
        self
    }

    fn fresh(&mut self) -> Lit {
        let v = Var::from_index(self.next_var);
        self.next_var += 1;
        v.pos()
    }

    /// Adds a permanent clause.
    pub fn add_clause(&mut self, clause: &[Lit]) {
        if let Some(m) = clause.iter().map(|l| l.var().index() + 1).max() {
            self.next_var = self.next_var.max(m);
        }
        self.backend.add_clause(clause);
    }

    /// One solve under assumptions, with lazy refinement: a model is returned only once the
    /// refine callback accepts it.
    pub fn solve(&mut self, assumptions: &[Lit]) -> Result<Outcome, SolverError> {
        loop {
            self.calls += 1;
            let out = self.backend.solve(assumptions)?;
            if let (Outcome::Sat(a), Some(refine)) = (&out, self.refine) {
                let extra = refine(a);
                if !extra.is_empty() {
                    for c in &extra {
                        self.add_clause(c);
                    }
                    continue;
                }
            }
            return Ok(out);
        }
    }

    /// [`Session::solve`] within about `conflicts` conflicts per solver call
    /// ([`Backend::solve_budget`]): `None` when the backend gave up or has no budgets.
    pub fn solve_budget(
        &mut self,
        assumptions: &[Lit],
        conflicts: u64,
    ) -> Result<Option<Outcome>, SolverError> {
        loop {
            self.calls += 1;
            let Some(out) = self.backend.solve_budget(assumptions, conflicts)? else {
                return Ok(None);
            };
            if let (Outcome::Sat(a), Some(refine)) = (&out, self.refine) {
                let extra = refine(a);
                if !extra.is_empty() {
                    for c in &extra {
                        self.add_clause(c);
                    }
                    continue;
                }
            }
            return Ok(Some(out));
        }
    }

    /// The clause "differ from `a` on the answer variables".
    pub fn blocking_clause(&self, a: &Assignment) -> Clause {
        let answer = &self.answer[..self.distinct];
        if self.one_hot {
            answer
                .iter()
                .filter(|&&v| a.var(v))
                .map(|&v| v.neg())
                .collect()
        } else {
            answer.iter().map(|&v| v.lit(!a.var(v))).collect()
        }
    }

    /// Solves with `clauses` added only for this call (guarded by a retired activation literal).
    fn solve_with_temporary(
        &mut self,
        clauses: &[Clause],
        assumptions: &[Lit],
    ) -> Result<Outcome, SolverError> {
        let act = self.fresh();
        for c in clauses {
            let mut g = c.clone();
            g.push(!act);
            self.backend.add_clause(&g);
        }
        let mut assume = assumptions.to_vec();
        assume.push(act);
        let out = self.solve(&assume);
        self.backend.add_clause(&[!act]);
        let out = out?;
        Ok(match out {
            Outcome::Unsat(core) => {
                Outcome::Unsat(core.into_iter().filter(|&l| l != act).collect())
            }
            sat => sat,
        })
    }

    /// Up to `max` solutions that differ on the answer variables, under `assumptions`.
    /// Fewer than `max` means these are all of them. The blocking clauses are guarded by an
    /// activation literal that is retired afterwards, so the session can be asked again.
    pub fn solutions(
        &mut self,
        max: usize,
        assumptions: &[Lit],
    ) -> Result<Vec<Assignment>, SolverError> {
        let act = self.fresh();
        let out = self.enumerate(max, assumptions, Some(act));
        self.backend.add_clause(&[!act]);
        out
    }

    /// [`Session::solutions`] for a session that is not asked anything afterwards: the
    /// blocking clauses are added for good, without an activation literal (a little faster,
    /// which matters when one session is built per puzzle).
    pub fn into_solutions(
        mut self,
        max: usize,
        assumptions: &[Lit],
    ) -> Result<Vec<Assignment>, SolverError> {
        self.enumerate(max, assumptions, None)
    }

    fn enumerate(
        &mut self,
        max: usize,
        assumptions: &[Lit],
        guard: Option<Lit>,
    ) -> Result<Vec<Assignment>, SolverError> {
        let mut found: Vec<Assignment> = Vec::new();
        let mut assume = assumptions.to_vec();
        assume.extend(guard);
        while found.len() < max {
            match self.solve(&assume)? {
                Outcome::Sat(a) => {
                    let mut block = self.blocking_clause(&a);
                    block.extend(guard.map(|g| !g));
                    self.backend.add_clause(&block);
                    found.push(a);
                }
                Outcome::Unsat(_) => break,
            }
        }
        Ok(found)
    }

    /// Unique, several, or none (under `assumptions`); [`Verdict::Found`] when the search for
    /// a second solution is stopped.
    pub fn verdict(&mut self, assumptions: &[Lit]) -> Result<Verdict, SolverError> {
        let act = self.fresh();
        let out = self.first_two(assumptions, Some(act));
        self.backend.add_clause(&[!act]);
        out
    }

    /// [`Session::verdict`] for a session that is not asked anything afterwards (see
    /// [`Session::into_solutions`]).
    pub fn into_verdict(mut self, assumptions: &[Lit]) -> Result<Verdict, SolverError> {
        self.first_two(assumptions, None)
    }

    /// The first solution, then a second that differs from it (the blocking clause guarded by
    /// `guard` when given): [`Session::enumerate`] up to two, except that a stop during the
    /// second search keeps the first solution.
    fn first_two(
        &mut self,
        assumptions: &[Lit],
        guard: Option<Lit>,
    ) -> Result<Verdict, SolverError> {
        let mut assume = assumptions.to_vec();
        assume.extend(guard);
        let first = match self.solve(&assume)? {
            Outcome::Sat(a) => a,
            Outcome::Unsat(_) => return Ok(Verdict::None),
        };
        let mut block = self.blocking_clause(&first);
        block.extend(guard.map(|g| !g));
        self.backend.add_clause(&block);
        second(first, self.solve(&assume))
    }

    /// [`Session::into_verdict`] for a formula with a normal form (see
    /// [`crate::puzzle::Model::normal`]): `normal` are assumptions that keep at least one
    /// solution whenever there is any, but not every solution. The first solution is sought
    /// under them (no model there proves there is none at all) and blocked. Two questions
    /// follow: a second solution under `normal`, and one without them restricted by the
    /// clauses `near` writes for the first solution (any model there is a second solution).
    /// When neither has one, the first is the only solution in normal form, so any other would
    /// have shown up near it: the first is unique. With `near_first` the near search is asked
    /// first (a kind whose near search is small: where it finds the second solution, ADC2015
    /// Q17, the normal-form question, which can take minutes, is not asked); else the
    /// normal-form one, and `near` is only called when that has no model. With `normal` empty
    /// this is `into_verdict(&[])`.
    pub fn into_verdict_normal(
        mut self,
        normal: &[Lit],
        near: &Near,
        near_first: bool,
    ) -> Result<Verdict, SolverError> {
        if normal.is_empty() {
            return self.into_verdict(&[]);
        }
        let first = match self.solve(normal)? {
            Outcome::Sat(a) => a,
            Outcome::Unsat(_) => return Ok(Verdict::None),
        };
        let block = self.blocking_clause(&first);
        self.add_clause(&block);
        if !near_first {
            match self.solve(normal) {
                Ok(Outcome::Unsat(_)) => {}
                other => return second(first, other),
            }
        }
        let mut extra = Formula::continuing(self.next_var);
        near(&first, &mut extra);
        self.next_var = self.next_var.max(extra.num_vars());
        let clauses: Vec<Clause> = extra.clauses().map(|c| c.to_vec()).collect();
        let out = self.solve_with_temporary(&clauses, &[]);
        if !near_first {
            return second(first, out);
        }
        match out {
            Ok(Outcome::Unsat(_)) => {}
            other => return second(first, other),
        }
        second(first, self.solve(normal))
    }

    /// The answer literals that hold in every solution (the backbone over the answer variables),
    /// given one solution `first`. Each round asks for a solution that flips at least one
    /// remaining candidate; a model drops every candidate it flips, an UNSAT answer proves the
    /// rest. The number of solver calls is one more than the number of models needed, not one
    /// per variable. With `one_hot` only the true literals are candidates (a forced cell value).
    pub fn backbone(
        &mut self,
        first: &Assignment,
        assumptions: &[Lit],
    ) -> Result<Vec<Lit>, SolverError> {
        let mut cand: Vec<Lit> = if self.one_hot {
            self.answer
                .iter()
                .filter(|&&v| first.var(v))
                .map(|&v| v.pos())
                .collect()
        } else {
            self.answer.iter().map(|&v| v.lit(first.var(v))).collect()
        };
        while !cand.is_empty() {
            let flip: Clause = cand.iter().map(|&l| !l).collect();
            match self.solve_with_temporary(&[flip], assumptions)? {
                Outcome::Sat(m) => cand.retain(|&l| m.lit(l)),
                Outcome::Unsat(_) => break,
            }
        }
        Ok(cand)
    }

    /// For a formula that is unsatisfiable under `givens` (one literal per given), a small set
    /// of givens that already conflict: the solver's failed assumptions, shrunk by deletion
    /// until removing any one of them makes the rest satisfiable. Returns indices into `givens`,
    /// sorted; empty when the rules alone have no solution. `None` when the givens are satisfiable.
    ///
    /// Each deletion trial (the core without one given) is asked dense first ([`Self::dense`]):
    /// a sparse set of givens can take seconds to solve where the dense one takes milliseconds
    /// (a 60x60 Takuzu with one given changed: 0.1 to 5 s a trial).
    pub fn conflicting_givens(
        &mut self,
        givens: &[Lit],
    ) -> Result<Option<Vec<usize>>, SolverError> {
        match self.conflicting_givens_until_stopped(givens)? {
            Some((_, false)) => Err(SolverError::Stopped),
            found => Ok(found.map(|(idx, _)| idx)),
        }
    }

    /// [`Session::conflicting_givens`], keeping what it found when the stop flag is raised
    /// while it shrinks the set: the givens kept so far (they conflict: a given is only ever
    /// left out when the rest still has no solution), with `false` for "not minimal".
    pub fn conflicting_givens_until_stopped(
        &mut self,
        givens: &[Lit],
    ) -> Result<Option<(Vec<usize>, bool)>, SolverError> {
        let mut core: Vec<Lit> = match self.solve(givens)? {
            Outcome::Sat(_) => return Ok(None),
            Outcome::Unsat(core) => core.into_iter().filter(|l| givens.contains(l)).collect(),
        };
        // Keep the core in the givens' order, so results are deterministic.
        core.sort_by_key(|l| givens.iter().position(|g| g == l));
        core.dedup();
        let minimal = match self.shrink(givens, &mut core) {
            Ok(()) => true,
            Err(SolverError::Stopped) => false,
            Err(e) => return Err(e),
        };
        let mut idx: Vec<usize> = core
            .iter()
            .filter_map(|l| givens.iter().position(|g| g == l))
            .collect();
        idx.sort_unstable();
        Ok(Some((idx, minimal)))
    }

    /// The deletion of [`Session::conflicting_givens`]: `core` (givens that conflict) loses
    /// every given the rest conflicts without. `core` conflicts at every step.
    fn shrink(&mut self, givens: &[Lit], core: &mut Vec<Lit>) -> Result<(), SolverError> {
        // Givens that solutions of earlier trials broke besides the one left out: a
        // superset of a trial is asked without them first (see [`Self::dense`]).
        let mut suspects: Vec<Lit> = Vec::new();
        let mut i = 0;
        while i < core.len() {
            let trial: Vec<Lit> = core
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &l)| l)
                .collect();
            let out = match self.dense(givens, &trial, core[i], &mut suspects)? {
                Some(out) => out,
                None => self.solve(&trial)?,
            };
            match out {
                Outcome::Unsat(smaller) => {
                    *core = trial.into_iter().filter(|l| smaller.contains(l)).collect();
                    // Stay at i: the element now at i has not been tried.
                }
                Outcome::Sat(_) => i += 1,
            }
        }
        Ok(())
    }

    /// Whether `trial` (the givens of a core but `left`) has a solution, asked on a superset:
    /// every given but `left`, the `suspects` outside `trial` and those dropped so far. A
    /// solution there is one of `trial` (the givens it breaks join `suspects`); no solution
    /// with a core inside `trial` answers too; a core that needs givens outside `trial`
    /// ([`Self::trimmed`] first) drops all of them and asks again, at most [`DENSE_ROUNDS`]
    /// times, each within [`DENSE_CONFLICTS`]. `None`: not answered (ask `trial` itself).
    ///
    /// Dropping the givens of the core one at a time, as this did before, rarely reached a
    /// solution within its rounds on a 60x60 Takuzu (cores of 200-800 givens); without
    /// `suspects` every trial paid again for the solution that breaks the same few givens.
    fn dense(
        &mut self,
        givens: &[Lit],
        trial: &[Lit],
        left: Lit,
        suspects: &mut Vec<Lit>,
    ) -> Result<Option<Outcome>, SolverError> {
        let inside: HashSet<Lit> = trial.iter().copied().collect();
        let mut dropped: Vec<Lit> = vec![left];
        dropped.extend(suspects.iter().copied().filter(|l| !inside.contains(l)));
        let mut out: HashSet<Lit> = dropped.iter().copied().collect();
        let given: HashSet<Lit> = givens.iter().copied().collect();
        for _ in 0..DENSE_ROUNDS {
            let set: Vec<Lit> = givens
                .iter()
                .copied()
                .filter(|l| !out.contains(l))
                .collect();
            // Decisions on the dropped givens' cells take the givens' values first.
            self.backend.prefer(&dropped);
            match self.solve_budget(&set, DENSE_CONFLICTS)? {
                Some(Outcome::Sat(a)) => {
                    for &l in givens {
                        if l != left && !a.lit(l) && !suspects.contains(&l) {
                            suspects.push(l);
                        }
                    }
                    return Ok(Some(Outcome::Sat(a)));
                }
                Some(Outcome::Unsat(core)) => {
                    let core = self.trimmed(core)?;
                    let before = dropped.len();
                    for &l in &core {
                        if !inside.contains(&l) && given.contains(&l) && out.insert(l) {
                            dropped.push(l);
                        }
                    }
                    if dropped.len() == before {
                        return Ok(Some(Outcome::Unsat(core)));
                    }
                }
                None => return Ok(None),
            }
        }
        Ok(None)
    }

    /// A core of failed assumptions made smaller by asking it again (the solver's proof from
    /// these givens alone usually needs fewer), up to three times while it shrinks by a tenth.
    fn trimmed(&mut self, mut core: Vec<Lit>) -> Result<Vec<Lit>, SolverError> {
        for _ in 0..3 {
            match self.solve_budget(&core, DENSE_CONFLICTS)? {
                Some(Outcome::Unsat(smaller)) if smaller.len() < core.len() => {
                    let shrunk = smaller.len() * 10 < core.len() * 9;
                    core = smaller;
                    if !shrunk {
                        break;
                    }
                }
                _ => break,
            }
        }
        Ok(core)
    }
}

/// How many supersets [`Session::conflicting_givens`] asks before it asks a trial itself.
pub const DENSE_ROUNDS: usize = 20;

/// Conflicts each superset of [`Session::conflicting_givens`] may spend.
pub const DENSE_CONFLICTS: u64 = 1_000;

/// The verdict for up to two solutions found.
/// The verdict once `first` is known, from the search for a second solution (which excludes
/// `first`): several, unique, or [`Verdict::Found`] when that search was stopped.
fn second(first: Assignment, out: Result<Outcome, SolverError>) -> Result<Verdict, SolverError> {
    match out {
        Ok(Outcome::Sat(b)) => Ok(Verdict::Multiple(first, b)),
        Ok(Outcome::Unsat(_)) => Ok(Verdict::Unique(first)),
        Err(SolverError::Stopped) => Ok(Verdict::Found(first)),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::encode;
    use crate::solver::Varisat;

    /// x0..x3 with exactly one true: 4 solutions.
    fn four() -> (Formula, Vec<Var>) {
        let mut f = Formula::new();
        let v: Vec<Var> = (0..4).map(|_| f.new_var()).collect();
        let l: Vec<Lit> = v.iter().map(|x| x.pos()).collect();
        encode::exactly_one(&mut f, &l);
        (f, v)
    }

    #[test]
    fn counts_and_verdicts() {
        let (f, v) = four();
        let mut s = Session::new(Box::new(Varisat::new()), &f, v.clone(), true);
        assert_eq!(s.solutions(10, &[]).unwrap().len(), 4);
        // The temporary blocking clauses were retired: counting again gives the same answer.
        assert_eq!(s.solutions(3, &[]).unwrap().len(), 3);
        assert!(matches!(s.verdict(&[]).unwrap(), Verdict::Multiple(..)));
        assert!(matches!(
            s.verdict(&[v[2].pos()]).unwrap(),
            Verdict::Unique(_)
        ));
        assert_eq!(s.verdict(&[v[2].pos(), v[1].pos()]).unwrap(), Verdict::None);
        let mut s = Session::new(Box::new(Varisat::new()), &f, v.clone(), false);
        assert_eq!(s.solutions(10, &[]).unwrap().len(), 4);
        // The consuming forms give the same answers.
        let one = |assume: &[Lit]| {
            Session::new(Box::new(Varisat::new()), &f, v.clone(), true)
                .into_verdict(assume)
                .unwrap()
        };
        assert!(matches!(one(&[]), Verdict::Multiple(..)));
        assert!(matches!(one(&[v[2].pos()]), Verdict::Unique(_)));
        assert_eq!(one(&[v[2].pos(), v[1].pos()]), Verdict::None);
        let s = Session::new(Box::new(Varisat::new()), &f, v.clone(), true);
        assert_eq!(s.into_solutions(10, &[v[0].neg()]).unwrap().len(), 3);
    }

    /// A refine callback that raises `stop` when it sees a model (and adds no clause).
    fn raising(stop: &crate::solver::Stop) -> impl Fn(&Assignment) -> Vec<Clause> {
        let stop = stop.clone();
        move |_: &Assignment| {
            stop.raise();
            Vec::new()
        }
    }

    #[test]
    fn a_stop_after_the_first_solution_keeps_it() {
        // The refine callback raises the stop flag when it sees the first model: the search
        // for a second solution is stopped, and the verdict keeps the first.
        use crate::solver::{Lite, Stop};
        let (f, v) = four();
        let stop = Stop::new();
        let raise = raising(&stop);
        let backend = Box::new(Lite::with_stop(Some(stop.clone())));
        let s = Session::new(backend, &f, v.clone(), true).with_refine(&raise);
        let Verdict::Found(first) = s.into_verdict(&[]).unwrap() else {
            panic!("expected a solution with uniqueness open")
        };
        assert_eq!(v.iter().filter(|x| first.var(**x)).count(), 1);
        // Stopped before the first solution: no verdict at all.
        let mut s = Session::new(Box::new(Lite::with_stop(Some(stop))), &f, v, true);
        assert_eq!(s.verdict(&[]), Err(SolverError::Stopped));
    }

    #[test]
    fn backbone_finds_forced_literals() {
        // a ∧ (b ∨ c), exactly one of b, c: a is forced, b and c are not.
        let mut f = Formula::new();
        let (a, b, c) = (f.new_var(), f.new_var(), f.new_var());
        f.add_clause(&[a.pos()]);
        encode::exactly_one(&mut f, &[b.pos(), c.pos()]);
        let mut s = Session::new(Box::new(Varisat::new()), &f, vec![a, b, c], false);
        let Outcome::Sat(m) = s.solve(&[]).unwrap() else {
            panic!()
        };
        assert_eq!(s.backbone(&m, &[]).unwrap(), vec![a.pos()]);
        assert_eq!(s.backbone(&m, &[b.pos()]).unwrap().len(), 3);
    }

    #[test]
    fn conflicting_givens_are_minimal() {
        // Givens g0..g4 over the exactly-one of four(): g1 = x1, g3 = x3 conflict; g0 = ¬x0 and
        // g2 = ¬x2, g4 = x1 again are harmless extras.
        let (f, v) = four();
        let givens = vec![v[0].neg(), v[1].pos(), v[2].neg(), v[3].pos()];
        let mut s = Session::new(Box::new(Varisat::new()), &f, v.clone(), true);
        assert_eq!(s.conflicting_givens(&givens).unwrap(), Some(vec![1, 3]));
        assert_eq!(s.conflicting_givens(&givens[..2]).unwrap(), None);
        // Rules alone unsatisfiable: an empty set.
        let mut g = f.clone();
        g.add_clause(&[]);
        let mut s = Session::new(Box::new(Varisat::new()), &g, v, true);
        assert_eq!(s.conflicting_givens(&givens).unwrap(), Some(vec![]));
    }

    #[test]
    fn a_stop_while_shrinking_keeps_conflicting_givens() {
        // The first solution any trial finds raises the stop flag: the search ends with the
        // givens it kept so far, which conflict, marked not minimal.
        use crate::solver::{Lite, Stop};
        let (f, v) = four();
        let givens = vec![v[0].neg(), v[1].pos(), v[2].neg(), v[3].pos()];
        let stop = Stop::new();
        let raise = raising(&stop);
        let backend = Box::new(Lite::with_stop(Some(stop)));
        let mut s = Session::new(backend, &f, v.clone(), true).with_refine(&raise);
        let (idx, minimal) = s
            .conflicting_givens_until_stopped(&givens)
            .unwrap()
            .unwrap();
        assert!(!minimal);
        assert!(idx.contains(&1) && idx.contains(&3), "{idx:?}");
        let kept: Vec<Lit> = idx.iter().map(|&i| givens[i]).collect();
        let mut fresh = Session::new(Box::new(Varisat::new()), &f, v, true);
        assert!(matches!(fresh.solve(&kept).unwrap(), Outcome::Unsat(_)));
    }

    #[test]
    fn refine_rejects_models_lazily() {
        // Forbid x0 lazily: the callback returns a clause when it sees x0 true.
        let (f, v) = four();
        let x0 = v[0];
        let refine = move |a: &Assignment| {
            if a.var(x0) {
                vec![vec![x0.neg()]]
            } else {
                vec![]
            }
        };
        let mut s =
            Session::new(Box::new(Varisat::new()), &f, v.clone(), true).with_refine(&refine);
        let sols = s.solutions(10, &[]).unwrap();
        assert_eq!(sols.len(), 3);
        assert!(sols.iter().all(|a| !a.var(x0)));
    }
}
