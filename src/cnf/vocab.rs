//! A small modelling vocabulary so a kind's model reads like its rules: integer variables over
//! small domains (direct encoding: one literal per value), `x == v` literals, "these differ",
//! "each value exactly once", "count of these is k". The encodings behind them are in
//! [`super::encode`]; the vocabulary picks them.

use super::encode;
use super::{Assignment, Formula, Lit};

/// An integer variable over a small domain, direct (one-hot) encoding: one literal per value,
/// exactly one of them true. Values left out of the domain (for example eliminated by givens
/// before encoding) have no literal.
#[derive(Clone, Debug)]
pub struct IntVar {
    values: Vec<(i32, Lit)>,
}

impl IntVar {
    /// A new variable over `domain`, with exactly-one over its literals. Each literal is named
    /// `name(v)` when the formula keeps names.
    pub fn new(
        f: &mut Formula,
        domain: impl IntoIterator<Item = i32>,
        name: impl Fn(i32) -> String,
    ) -> IntVar {
        let x = IntVar::unconstrained(f, domain, name);
        let lits: Vec<Lit> = x.lits().collect();
        encode::exactly_one(f, &lits);
        x
    }

    /// A variable over `domain` with only its at-least-one clause: for a model whose other
    /// clauses already keep two values from holding together in every model it accepts (the
    /// caller says why), where the at-most-one would only add clauses and, beyond six values,
    /// the ladder's auxiliary variables.
    pub fn at_least_one(
        f: &mut Formula,
        domain: impl IntoIterator<Item = i32>,
        name: impl Fn(i32) -> String,
    ) -> IntVar {
        let x = IntVar::unconstrained(f, domain, name);
        f.add_clause_from(x.lits());
        x
    }

    /// A literal per value of `domain`, named `name(v)`, with no clause yet.
    fn unconstrained(
        f: &mut Formula,
        domain: impl IntoIterator<Item = i32>,
        name: impl Fn(i32) -> String,
    ) -> IntVar {
        let values = domain
            .into_iter()
            .map(|v| (v, f.named_var(|| name(v)).pos()))
            .collect();
        IntVar { values }
    }

    /// The literal `self == v`, or `None` when `v` is not in the domain.
    pub fn eq(&self, v: i32) -> Option<Lit> {
        self.values.iter().find(|&&(w, _)| w == v).map(|&(_, l)| l)
    }

    /// The domain with its literals.
    pub fn values(&self) -> &[(i32, Lit)] {
        &self.values
    }

    /// The literals, in domain order.
    pub fn lits(&self) -> impl Iterator<Item = Lit> + '_ {
        self.values.iter().map(|&(_, l)| l)
    }

    /// The value taken in a solver's assignment (the first true literal).
    pub fn value(&self, a: &Assignment) -> Option<i32> {
        self.values
            .iter()
            .find(|&&(_, l)| a.lit(l))
            .map(|&(v, _)| v)
    }
}

/// No two of `vars` take the same value: at-most-one per value over the literals that have it.
pub fn all_different(f: &mut Formula, vars: &[&IntVar]) {
    let mut by_value: Vec<(i32, Vec<Lit>)> = Vec::new();
    for x in vars {
        for &(v, l) in x.values() {
            match by_value.iter_mut().find(|(w, _)| *w == v) {
                Some((_, ls)) => ls.push(l),
                None => by_value.push((v, vec![l])),
            }
        }
    }
    for (_, ls) in &by_value {
        encode::at_most_one(f, ls);
    }
}

/// Each value of `values` is taken by exactly one of `vars` (a permutation when the counts
/// match). The "at least one" clause per value is what lets unit propagation find hidden singles.
pub fn each_value_once(f: &mut Formula, vars: &[&IntVar], values: impl IntoIterator<Item = i32>) {
    for v in values {
        let ls: Vec<Lit> = vars.iter().filter_map(|x| x.eq(v)).collect();
        encode::exactly_one(f, &ls);
    }
}

/// `x` and `y` never take the same value.
pub fn differ(f: &mut Formula, x: &IntVar, y: &IntVar) {
    for &(v, l) in x.values() {
        if let Some(m) = y.eq(v) {
            f.add_clause(&[!l, !m]);
        }
    }
}

/// Exactly one of `lits` is true.
pub fn exactly_one(f: &mut Formula, lits: &[Lit]) {
    encode::exactly_one(f, lits);
}

/// Exactly `k` of `lits` are true.
pub fn count_is(f: &mut Formula, lits: &[Lit], k: usize) {
    encode::exactly_k(f, lits, k);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{Backend, Outcome, Varisat};

    fn count_models(f: &Formula, vars: &[&IntVar]) -> usize {
        let mut s = Varisat::new();
        s.add_formula(f);
        let mut n = 0;
        while let Outcome::Sat(a) = s.solve(&[]).unwrap() {
            n += 1;
            let block: Vec<Lit> = vars
                .iter()
                .map(|x| !x.eq(x.value(&a).unwrap()).unwrap())
                .collect();
            s.add_clause(&block);
        }
        n
    }

    #[test]
    fn all_different_counts_injections() {
        // 3 variables over 1..=4 all different: 4*3*2 = 24 assignments.
        let mut f = Formula::new();
        let xs: Vec<IntVar> = (0..3)
            .map(|i| IntVar::new(&mut f, 1..=4, |v| format!("x{i}={v}")))
            .collect();
        let refs: Vec<&IntVar> = xs.iter().collect();
        all_different(&mut f, &refs);
        assert_eq!(count_models(&f, &refs), 24);
        assert_eq!(f.name_of(xs[2].eq(4).unwrap().var()), Some("x2=4"));
    }

    #[test]
    fn each_value_once_counts_permutations() {
        let mut f = Formula::new();
        let xs: Vec<IntVar> = (0..4)
            .map(|_| IntVar::new(&mut f, 1..=4, |_| String::new()))
            .collect();
        let refs: Vec<&IntVar> = xs.iter().collect();
        each_value_once(&mut f, &refs, 1..=4);
        assert_eq!(count_models(&f, &refs), 24);
    }

    #[test]
    fn differ_and_partial_domains() {
        let mut f = Formula::new();
        let x = IntVar::new(&mut f, [1, 2], |_| String::new());
        let y = IntVar::new(&mut f, [2, 3], |_| String::new());
        differ(&mut f, &x, &y);
        assert_eq!(x.eq(3), None);
        assert_eq!(count_models(&f, &[&x, &y]), 3); // all pairs but (2,2)
    }
}
