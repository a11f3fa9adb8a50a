//! The CNF compiler's vocabulary: variables, literals, clauses, and a [`Formula`] that remembers
//! a readable name for every variable that matters (`r3c5=7`), so a DIMACS export can carry a map.
//!
//! Encodings of common constraints (exactly-one, cardinality, equality) live in [`encode`]; the
//! small modelling vocabulary that puzzle models are written in lives in [`vocab`]; reading and
//! writing the DIMACS text formats lives in [`dimacs`].

pub mod dimacs;
pub mod encode;
pub mod limits;
pub mod vocab;

use std::fmt;
use std::ops::Not;

/// A propositional variable, numbered from 0 (DIMACS numbers it from 1).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(u32);

impl Var {
    /// The variable with the given 0-based index.
    pub fn from_index(index: usize) -> Var {
        Var(index as u32)
    }
    /// The 0-based index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// The DIMACS number (1-based).
    pub fn dimacs(self) -> i64 {
        self.0 as i64 + 1
    }
    /// The literal of this variable with the given polarity.
    pub fn lit(self, positive: bool) -> Lit {
        Lit(self.0 << 1 | (!positive) as u32)
    }
    /// The positive literal.
    pub fn pos(self) -> Lit {
        self.lit(true)
    }
    /// The negative literal.
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> Lit {
        self.lit(false)
    }
}

impl fmt::Debug for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.dimacs())
    }
}

/// A literal: a variable or its negation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(u32);

impl Lit {
    /// The variable of this literal.
    pub fn var(self) -> Var {
        Var(self.0 >> 1)
    }
    /// True for a positive literal.
    pub fn is_positive(self) -> bool {
        self.0 & 1 == 0
    }
    /// True for a negative literal.
    pub fn is_negative(self) -> bool {
        !self.is_positive()
    }
    /// The DIMACS form: `+n` or `-n` with `n` the 1-based variable number.
    pub fn to_dimacs(self) -> i64 {
        let v = self.var().dimacs();
        if self.is_positive() {
            v
        } else {
            -v
        }
    }
    /// The literal of a DIMACS number; `None` for 0.
    pub fn from_dimacs(n: i64) -> Option<Lit> {
        if n == 0 {
            return None;
        }
        Some(Var::from_index((n.unsigned_abs() - 1) as usize).lit(n > 0))
    }
    /// A dense code (2 * variable index + sign), handy for indexing arrays.
    pub fn code(self) -> usize {
        self.0 as usize
    }
}

impl Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Debug for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

/// A clause: a disjunction of literals.
pub type Clause = Vec<Lit>;

/// A total assignment of the variables of a formula, as found by a solver.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Assignment {
    values: Vec<bool>,
}

impl Assignment {
    /// An assignment from values indexed by variable.
    pub fn new(values: Vec<bool>) -> Assignment {
        Assignment { values }
    }
    /// The value of a variable (false for a variable the solver never saw).
    pub fn var(&self, v: Var) -> bool {
        self.values.get(v.index()).copied().unwrap_or(false)
    }
    /// The value of a literal.
    pub fn lit(&self, l: Lit) -> bool {
        self.var(l.var()) == l.is_positive()
    }
    /// The number of variables assigned.
    pub fn len(&self) -> usize {
        self.values.len()
    }
    /// True when no variable is assigned.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
    /// True when every clause of `formula` has a true literal.
    pub fn satisfies(&self, formula: &Formula) -> bool {
        formula.clauses().all(|c| c.iter().any(|&l| self.lit(l)))
    }
}

/// A CNF formula under construction: clauses stored flat, plus names of variables.
#[derive(Clone, Debug, Default)]
pub struct Formula {
    num_vars: usize,
    lits: Vec<Lit>,
    ends: Vec<u32>,
    names: Vec<(Var, String)>,
    /// When false, [`Formula::name_with`] skips building names (the hot solving path).
    pub keep_names: bool,
    /// The limits it was made under ([`limits::with_limits`]), and what became of them.
    guard: Option<Box<Guard>>,
}

/// A formula's limits, and once they cut it, what its builder added since (only counted).
#[derive(Clone, Debug)]
struct Guard {
    limits: limits::Limits,
    /// Why the clauses are no longer kept, once they are not.
    cut: Option<limits::Cut>,
    /// Clauses and literals added in all (kept or not).
    clauses: u64,
    lits: u64,
}

/// Clauses between two looks at a formula's limits.
const POLL_CLAUSES: usize = 4096;

impl Formula {
    /// An empty formula that keeps variable names.
    pub fn new() -> Formula {
        Formula {
            keep_names: true,
            ..Formula::without_names()
        }
    }

    /// An empty formula that does not build names (for batch solving, where no one reads them).
    /// It takes up the limits in force on this thread ([`limits::with_limits`]).
    pub fn without_names() -> Formula {
        let limits = limits::current();
        Formula {
            guard: (!limits.is_none()).then(|| {
                Box::new(Guard {
                    limits,
                    cut: None,
                    clauses: 0,
                    lits: 0,
                })
            }),
            ..Formula::default()
        }
    }

    /// Why the formula stopped keeping clauses ([`limits`]): it is then incomplete, and only
    /// its counts ([`Formula::num_clauses`], [`Formula::num_lits`]) are right.
    pub fn cut(&self) -> Option<limits::Cut> {
        self.guard.as_ref().and_then(|g| g.cut)
    }

    /// About how many bytes this formula and an embedded solver loaded with it take
    /// ([`limits::memory_bytes`]), from its counts (whole also when it was cut).
    pub fn memory_bytes(&self) -> u64 {
        limits::memory_bytes(
            self.num_vars as u64,
            self.num_clauses() as u64,
            self.num_lits() as u64,
        )
    }

    /// The memory budget it was made under, if any.
    pub fn max_bytes(&self) -> Option<u64> {
        self.guard.as_ref().and_then(|g| g.limits.max_bytes)
    }

    /// Counts a clause of `n` literals that is not kept, or looks at the limits every
    /// [`POLL_CLAUSES`] clauses: true when the clause is to be kept. The common case (no limits,
    /// or no poll due) is inlined into every `add_clause`; the poll is out of line.
    #[inline(always)]
    fn keep(&mut self, n: usize) -> bool {
        let Some(g) = self.guard.as_deref_mut() else {
            return true;
        };
        g.clauses += 1;
        g.lits += n as u64;
        if g.cut.is_none() && g.clauses % POLL_CLAUSES as u64 != 0 && n <= POLL_CLAUSES {
            return true;
        }
        self.poll()
    }

    /// [`Formula::keep`]'s look at the limits: false once they cut the formula.
    #[cold]
    #[inline(never)]
    fn poll(&mut self) -> bool {
        let Some(g) = self.guard.as_mut() else {
            return true;
        };
        if g.cut.is_some() {
            return false;
        }
        let over = g
            .limits
            .max_bytes
            .is_some_and(|max| limits::memory_bytes(self.num_vars as u64, g.clauses, g.lits) > max);
        let cut = if g.limits.stopped() {
            Some(limits::Cut::Stopped)
        } else if over {
            Some(limits::Cut::TooLarge)
        } else {
            None
        };
        if cut.is_some() {
            g.cut = cut;
            // Give the memory back: the builder goes on only to count.
            self.lits = Vec::new();
            self.ends = Vec::new();
            return false;
        }
        true
    }

    /// An empty formula that keeps variable names only when `names` is true (a model builder's
    /// `names` flag: on for DIMACS export and explanations, off for batch solving).
    pub fn with_names(names: bool) -> Formula {
        if names {
            Formula::new()
        } else {
            Formula::without_names()
        }
    }

    /// An empty formula (no names) whose fresh variables come after the first `num_vars`: for
    /// clauses over another formula's variables plus new ones.
    pub fn continuing(num_vars: usize) -> Formula {
        Formula {
            num_vars,
            ..Formula::default()
        }
    }

    /// An empty formula (no names) that never takes up the thread's limits: for the clauses a
    /// solver keeps, which must stay whole.
    pub fn unlimited() -> Formula {
        Formula::default()
    }

    /// Reserves room for `clauses` more clauses with `lits` literals in all (saves regrowing
    /// when a model knows its size in advance).
    pub fn reserve(&mut self, clauses: usize, lits: usize) {
        if let Some(g) = &self.guard {
            let fits = g.limits.max_bytes.is_none_or(|max| {
                let clauses = g.clauses.saturating_add(clauses as u64);
                let lits = g.lits.saturating_add(lits as u64);
                limits::memory_bytes(self.num_vars as u64, clauses, lits) <= max
            });
            // Room it may not take is not reserved: the clauses, as they come, are cut.
            if !fits || g.cut.is_some() {
                return;
            }
        }
        self.ends.reserve(clauses);
        self.lits.reserve(lits);
    }

    /// A fresh variable.
    pub fn new_var(&mut self) -> Var {
        self.num_vars += 1;
        Var::from_index(self.num_vars - 1)
    }

    /// A fresh variable with a name.
    #[inline]
    pub fn named_var(&mut self, name: impl FnOnce() -> String) -> Var {
        let v = self.new_var();
        self.name_with(v, name);
        v
    }

    /// Gives `v` a name, built only when names are kept.
    #[inline]
    pub fn name_with(&mut self, v: Var, name: impl FnOnce() -> String) {
        if self.keep_names {
            self.names.push((v, name()));
        }
    }

    /// The number of variables.
    pub fn num_vars(&self) -> usize {
        self.num_vars
    }

    /// The number of clauses (added, also when the formula was cut).
    pub fn num_clauses(&self) -> usize {
        match &self.guard {
            Some(g) => usize::try_from(g.clauses).unwrap_or(usize::MAX),
            None => self.ends.len(),
        }
    }

    /// The number of literals over all clauses (added, also when the formula was cut).
    pub fn num_lits(&self) -> usize {
        match &self.guard {
            Some(g) => usize::try_from(g.lits).unwrap_or(usize::MAX),
            None => self.lits.len(),
        }
    }

    /// Adds a clause. Clauses are kept as given (no simplification), so counts match the model docs.
    #[inline]
    pub fn add_clause(&mut self, clause: &[Lit]) {
        if !self.keep(clause.len()) {
            return;
        }
        for &l in clause {
            debug_assert!(
                l.var().index() < self.num_vars,
                "literal of unknown variable"
            );
        }
        self.lits.extend_from_slice(clause);
        self.ends.push(self.lits.len() as u32);
    }

    /// Adds a clause given as literals one by one (no slice to build first: for model builders
    /// that write hundreds of thousands of short clauses).
    pub fn add_clause_from(&mut self, clause: impl IntoIterator<Item = Lit>) {
        let start = self.lits.len();
        self.lits.extend(clause);
        if self.guard.is_some() && !self.keep(self.lits.len() - start) {
            self.lits.truncate(start);
            return;
        }
        for &l in &self.lits[start..] {
            debug_assert!(
                l.var().index() < self.num_vars,
                "literal of unknown variable"
            );
        }
        self.ends.push(self.lits.len() as u32);
    }

    /// Adds `lit` to every clause added since the formula had `mark` clauses (a mark taken with
    /// [`Formula::num_clauses`]): the constraints built since then hold only when `!lit` is
    /// false, so `!lit` can be assumed to switch them on (and a core names them).
    pub fn guard_since(&mut self, mark: usize, lit: Lit) {
        if let Some(g) = self.guard.as_mut() {
            // Each clause since the mark gets one literal more (kept or only counted).
            let since = g.clauses.saturating_sub(mark as u64);
            if g.cut.is_some() {
                g.lits += since;
                return;
            }
            // Re-added below, where they are counted again.
            g.clauses -= since;
            g.lits -= self.lits.len() as u64
                - if mark == 0 {
                    0
                } else {
                    self.ends[mark - 1] as u64
                };
        }
        let start = if mark == 0 {
            0
        } else {
            self.ends[mark - 1] as usize
        };
        let tail: Vec<Lit> = self.lits.split_off(start);
        let ends: Vec<u32> = self.ends.split_off(mark);
        let mut from = start;
        for e in ends {
            let e = e as usize;
            let mut c = tail[from - start..e - start].to_vec();
            c.push(lit);
            self.add_clause(&c);
            from = e;
        }
    }

    /// Every clause's literals end to end, in the order they were added, and where each clause
    /// ends in them (for a solver that loads a whole formula in one pass).
    pub fn flat(&self) -> (&[Lit], &[u32]) {
        (&self.lits, &self.ends)
    }

    /// The clauses in the order they were added.
    pub fn clauses(&self) -> impl Iterator<Item = &[Lit]> + '_ {
        let mut start = 0usize;
        self.ends.iter().map(move |&e| {
            let c = &self.lits[start..e as usize];
            start = e as usize;
            c
        })
    }

    /// The named variables, in the order they were named.
    pub fn names(&self) -> &[(Var, String)] {
        &self.names
    }

    /// The name of a variable, if it has one (linear search: for messages, not hot loops).
    pub fn name_of(&self, v: Var) -> Option<&str> {
        self.names
            .iter()
            .find(|(w, _)| *w == v)
            .map(|(_, n)| n.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_round_trip_through_dimacs() {
        for n in [-5i64, -1, 1, 2, 77] {
            assert_eq!(Lit::from_dimacs(n).unwrap().to_dimacs(), n);
        }
        assert_eq!(Lit::from_dimacs(0), None);
        let v = Var::from_index(3);
        assert_eq!(!v.pos(), v.neg());
        assert!(v.pos().is_positive() && v.neg().is_negative());
        assert_eq!(v.neg().var(), v);
    }

    #[test]
    fn guard_since_extends_only_the_later_clauses() {
        let mut f = Formula::new();
        let (a, b, g) = (f.new_var(), f.new_var(), f.new_var());
        f.add_clause(&[a.pos()]);
        let mark = f.num_clauses();
        f.add_clause(&[b.pos()]);
        f.add_clause(&[a.neg(), b.neg()]);
        f.guard_since(mark, g.neg());
        let cs: Vec<Vec<Lit>> = f.clauses().map(|c| c.to_vec()).collect();
        assert_eq!(
            cs,
            vec![
                vec![a.pos()],
                vec![b.pos(), g.neg()],
                vec![a.neg(), b.neg(), g.neg()]
            ]
        );
        f.guard_since(0, b.pos());
        assert_eq!(f.clauses().next(), Some(&[a.pos(), b.pos()][..]));
        assert_eq!(f.num_clauses(), 3);
    }

    #[test]
    fn formula_stores_clauses_in_order() {
        let mut f = Formula::new();
        let a = f.named_var(|| "a".into());
        let b = f.new_var();
        f.add_clause(&[a.pos(), b.neg()]);
        f.add_clause(&[]);
        f.add_clause(&[b.pos()]);
        let cs: Vec<Vec<Lit>> = f.clauses().map(|c| c.to_vec()).collect();
        assert_eq!(cs, vec![vec![a.pos(), b.neg()], vec![], vec![b.pos()]]);
        assert_eq!(f.name_of(a), Some("a"));
        assert_eq!(f.name_of(b), None);
        let s = Assignment::new(vec![true, true]);
        assert!(!s.satisfies(&f)); // the empty clause
    }
}
