//! What every kind's generator shares: the seeded random source (ChaCha, so a seed gives the
//! same puzzles on every machine), a random solution drawn from the SAT solver
//! ([`random_solution`]), the removal of givens while SAT still proves the puzzle unique
//! ([`reduce_givens`], [`reduce_givens_with`]), the test that no given can go
//! ([`removable_givens`]), and the [`Generated`] record every generator returns.

use crate::cnf::{Assignment, Lit, Var};
use crate::explain::Grade;
use crate::solver::{Outcome, Session, SolverError};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde::Serialize;

/// The random generator every kind uses.
pub type Rand = rand_chacha::ChaCha8Rng;

/// The random source for a seed.
pub fn rng(seed: u64) -> Rand {
    Rand::seed_from_u64(seed)
}

/// A random solution of the session's formula, or `None` when it has none.
///
/// The answer variables are visited in a random order and each gets a random wish (for
/// `one_hot` answers: true, since a false literal says little; otherwise a fair coin). A wish
/// the current model already grants is kept as an assumption for free; any other costs one
/// solve and is kept when the solver still finds a solution, else its negation is kept. After
/// `decisions` such solves the last model stands, so the cost is bounded while the first,
/// most influential choices are random. Same `rng` state, same solution.
pub fn random_solution(
    session: &mut Session,
    answer: &[Var],
    one_hot: bool,
    decisions: usize,
    rng: &mut Rand,
) -> Result<Option<Assignment>, SolverError> {
    let mut model = match session.solve(&[])? {
        Outcome::Sat(a) => a,
        Outcome::Unsat(_) => return Ok(None),
    };
    let mut order = answer.to_vec();
    order.shuffle(rng);
    let mut assumptions: Vec<Lit> = Vec::new();
    let mut solves = 0;
    for v in order {
        if solves >= decisions {
            break;
        }
        let wish = v.lit(one_hot || rng.gen_bool(0.5));
        if model.lit(wish) {
            assumptions.push(wish);
            continue;
        }
        assumptions.push(wish);
        solves += 1;
        match session.solve(&assumptions)? {
            Outcome::Sat(a) => model = a,
            Outcome::Unsat(_) => {
                assumptions.pop();
                assumptions.push(!wish);
            }
        }
    }
    Ok(Some(model))
}

/// Removes givens while the puzzle keeps exactly one solution, and returns which givens stay.
///
/// `givens` are the literals of a full set of givens whose only solution is `solution` (for
/// example every cell of a filled grid, from a [`crate::puzzle::GivenMode::Assume`] model).
/// The clause "differ from `solution`" is added to the session for good; then each group of
/// `groups` (indices into `givens`: one given, or a symmetry orbit removed together) is tried
/// in order: with the remaining givens as assumptions, UNSAT proves the solution is still the
/// only one, so the group goes; SAT means another solution appears, so it stays. One
/// incremental solve per try. `allow(kept, group)` may refuse a removal before it is tried
/// (a clue-count floor, say). The session should not be used for other questions afterwards.
pub fn reduce_givens(
    session: &mut Session,
    givens: &[Lit],
    solution: &Assignment,
    groups: &[Vec<usize>],
    allow: impl FnMut(&[bool], &[usize]) -> bool,
) -> Result<Vec<bool>, SolverError> {
    reduce_givens_with(session, givens, solution, groups, allow, |_| true)
}

/// [`reduce_givens`] with a second say: a removal that SAT has proven keeps the solution unique
/// is kept only when `accept(kept)` (the givens that would stay) agrees, for a test that only
/// makes sense on a unique puzzle or costs more than a solve (a difficulty ceiling, say).
pub fn reduce_givens_with(
    session: &mut Session,
    givens: &[Lit],
    solution: &Assignment,
    groups: &[Vec<usize>],
    mut allow: impl FnMut(&[bool], &[usize]) -> bool,
    mut accept: impl FnMut(&[bool]) -> bool,
) -> Result<Vec<bool>, SolverError> {
    let block = session.blocking_clause(solution);
    session.add_clause(&block);
    let mut kept = vec![true; givens.len()];
    let mut trial: Vec<Lit> = Vec::with_capacity(givens.len());
    for group in groups {
        if group.iter().all(|&i| !kept[i]) || !allow(&kept, group) {
            continue;
        }
        trial.clear();
        trial.extend(
            givens
                .iter()
                .enumerate()
                .filter(|&(i, _)| kept[i] && !group.contains(&i))
                .map(|(_, &l)| l),
        );
        if let Outcome::Unsat(_) = session.solve(&trial)? {
            let before = kept.clone();
            for &i in group {
                kept[i] = false;
            }
            if !accept(&kept) {
                kept = before;
            }
        }
    }
    Ok(kept)
}

/// The kept givens that could still go one at a time: each is removed alone (the other kept
/// givens as assumptions) and listed when SAT still proves the solution unique. Empty means
/// the kept givens are minimal. Call it on the session [`reduce_givens`] left behind (it holds
/// the clause "differ from the solution", which this question needs too).
pub fn removable_givens(
    session: &mut Session,
    givens: &[Lit],
    kept: &[bool],
) -> Result<Vec<usize>, SolverError> {
    let mut removable = Vec::new();
    let mut trial: Vec<Lit> = Vec::with_capacity(givens.len());
    for i in (0..givens.len()).filter(|&i| kept[i]) {
        trial.clear();
        trial.extend(
            givens
                .iter()
                .enumerate()
                .filter(|&(j, _)| kept[j] && j != i)
                .map(|(_, &l)| l),
        );
        if let Outcome::Unsat(_) = session.solve(&trial)? {
            removable.push(i);
        }
    }
    Ok(removable)
}

/// A `--difficulty` word, the same for every kind: `Ok(None)` for `any` (every unique puzzle),
/// `Ok(Some(i))` for the level [`crate::explain::LEVELS`]`[i]` (case, `-`, `_` and spaces
/// ignored; binarypuzzle.com's `very hard` is `expert`, and `beyond` is `extreme`), or the one
/// message every kind gives for a word it does not know.
pub fn difficulty(word: &str) -> std::result::Result<Option<usize>, String> {
    let w: String = word
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .collect::<String>()
        .to_ascii_lowercase();
    let known = crate::explain::LEVELS.iter().position(|&l| l == w);
    match (w.as_str(), known) {
        ("any", _) => Ok(None),
        (_, Some(i)) => Ok(Some(i)),
        ("veryhard", _) => Ok(Some(3)),
        ("beyond", _) => Ok(Some(4)),
        _ => Err(format!(
            "unknown difficulty `{word}`: expected any, {}",
            crate::explain::LEVELS.join(", ")
        )),
    }
}

/// One generated puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct Generated {
    pub kind: &'static str,
    /// The seed that makes this puzzle again (with `--count 1`).
    pub seed: u64,
    /// The puzzle in its kind's file format, ready to save and read back.
    pub puzzle: String,
    /// The puzzle as rows of numbers (0 for an open cell).
    pub rows: Vec<Vec<i64>>,
    /// The number of givens.
    pub givens: usize,
    /// The grade, when the kind grades its puzzles.
    pub grade: Option<Grade>,
    /// Remarks for the user (for example why a clue target was changed).
    pub notes: Vec<String>,
}

impl Generated {
    /// The comment lines (`#`) with seed, givens, grade and notes that come before the puzzle.
    pub fn header(&self) -> String {
        let mut s = format!(
            "# gridsat {} seed {} givens {}",
            self.kind, self.seed, self.givens
        );
        if let Some(g) = &self.grade {
            s.push_str(&format!(" grade {} rating {:.1}", g.level, g.rating));
        }
        s.push('\n');
        for n in &self.notes {
            s.push_str(&format!("# {n}\n"));
        }
        s
    }

    /// The text form: the [`Generated::header`] comment lines, then the puzzle.
    pub fn text(&self) -> String {
        let mut s = self.header();
        s.push_str(&self.puzzle);
        if !self.puzzle.ends_with('\n') {
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::{encode, Formula};
    use crate::solver::{Session, Varisat, Verdict};

    /// A 4x4 Latin square: cell (r, c) takes value v when x[(r*4+c)*4+v] is true.
    fn latin4() -> (Formula, Vec<Var>) {
        let mut f = Formula::new();
        let x: Vec<Var> = (0..64).map(|_| f.new_var()).collect();
        let lit = |r: usize, c: usize, v: usize| x[(r * 4 + c) * 4 + v].pos();
        for a in 0..4 {
            for b in 0..4 {
                encode::exactly_one(&mut f, &(0..4).map(|v| lit(a, b, v)).collect::<Vec<_>>());
                encode::exactly_one(&mut f, &(0..4).map(|c| lit(a, c, b)).collect::<Vec<_>>());
                encode::exactly_one(&mut f, &(0..4).map(|r| lit(r, a, b)).collect::<Vec<_>>());
            }
        }
        (f, x)
    }

    fn session(f: &Formula, x: &[Var]) -> Session<'static> {
        Session::new(Box::new(Varisat::new()), f, x.to_vec(), true)
    }

    /// A session, a random full square from `seed`, and its cells as givens.
    fn drawn(f: &Formula, x: &[Var], seed: u64) -> (Session<'static>, Assignment, Vec<Lit>) {
        let mut s = session(f, x);
        let sol = random_solution(&mut s, x, true, 20, &mut rng(seed))
            .unwrap()
            .unwrap();
        let givens = x.iter().filter(|&&v| sol.var(v)).map(|v| v.pos()).collect();
        (s, sol, givens)
    }

    /// The givens that `kept` keeps.
    fn kept_lits(givens: &[Lit], kept: &[bool]) -> Vec<Lit> {
        givens
            .iter()
            .zip(kept)
            .filter(|&(_, &k)| k)
            .map(|(&l, _)| l)
            .collect()
    }

    #[test]
    fn random_solutions_are_solutions_and_follow_the_seed() {
        let (f, x) = latin4();
        let draw = |seed: u64| {
            let mut s = session(&f, &x);
            random_solution(&mut s, &x, true, 20, &mut rng(seed))
                .unwrap()
                .unwrap()
        };
        let a = draw(1);
        assert!(a.satisfies(&f));
        assert_eq!(a, draw(1), "same seed, same solution");
        let distinct: std::collections::HashSet<Vec<bool>> = (0..12)
            .map(|s| x.iter().map(|&v| draw(s).var(v)).collect())
            .collect();
        assert!(distinct.len() > 3, "seeds should give different squares");
        // No solution at all: None.
        let mut g = f.clone();
        g.add_clause(&[]);
        let mut s = session(&g, &x);
        assert_eq!(
            random_solution(&mut s, &x, true, 5, &mut rng(0)).unwrap(),
            None
        );
    }

    #[test]
    fn reduced_givens_keep_the_solution_unique() {
        let (f, x) = latin4();
        let (mut s, sol, givens) = drawn(&f, &x, 3);
        assert_eq!(givens.len(), 16);
        let groups: Vec<Vec<usize>> = (0..16).map(|i| vec![i]).collect();
        let kept = reduce_givens(&mut s, &givens, &sol, &groups, |_, _| true).unwrap();
        let left = kept_lits(&givens, &kept);
        assert!(left.len() < 16);
        // A fresh session proves the reduced set unique and minimal.
        let mut fresh = session(&f, &x);
        assert!(matches!(fresh.verdict(&left).unwrap(), Verdict::Unique(_)));
        for i in 0..left.len() {
            let fewer: Vec<Lit> = [&left[..i], &left[i + 1..]].concat();
            assert!(matches!(
                fresh.verdict(&fewer).unwrap(),
                Verdict::Multiple(..)
            ));
        }
        // The session left behind knows the reduced set is minimal.
        assert_eq!(
            removable_givens(&mut s, &givens, &kept).unwrap(),
            Vec::<usize>::new()
        );
        // A floor refuses every removal: all givens stay, and all of them could go alone.
        let mut s = session(&f, &x);
        let kept = reduce_givens(&mut s, &givens, &sol, &groups, |_, _| false).unwrap();
        assert!(kept.iter().all(|&k| k));
        assert_eq!(
            removable_givens(&mut s, &givens, &kept).unwrap(),
            (0..16).collect::<Vec<_>>()
        );
    }

    #[test]
    fn accept_has_the_last_word_on_unique_removals() {
        let (f, x) = latin4();
        let (mut s, sol, givens) = drawn(&f, &x, 5);
        let groups: Vec<Vec<usize>> = (0..16).map(|i| vec![i]).collect();
        // accept sees only unique candidates, and refusing below 12 givens keeps 12.
        let mut seen = 0;
        let kept = reduce_givens_with(
            &mut s,
            &givens,
            &sol,
            &groups,
            |_, _| true,
            |k| {
                seen += 1;
                k.iter().filter(|&&b| b).count() >= 12
            },
        )
        .unwrap();
        assert_eq!(kept.iter().filter(|&&b| b).count(), 12);
        assert!(seen > 4, "accept is asked after each proven removal");
        let left = kept_lits(&givens, &kept);
        let mut fresh = session(&f, &x);
        assert!(matches!(fresh.verdict(&left).unwrap(), Verdict::Unique(_)));
    }
}
