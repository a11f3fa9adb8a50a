//! Shared clause encodings, written once and proven by exhaustive tests on small sizes.
//!
//! - at-most-one / exactly-one: pairwise up to [`PAIRWISE_LIMIT`] literals, the sequential
//!   (ladder) encoding beyond, which is linear in size;
//! - at-most-k / at-least-k / exactly-k: a totalizer (unary sum tree truncated at k+1), whose
//!   outputs also serve kinds that need "at least j of these" literals;
//! - equality and difference helpers: equivalence, xor, and/or gates, "these two vectors differ";
//! - order: "if g then a < b" and "if g then a = b" over binary numbers (order labels, as
//!   Numberlink's exact loop ban and Shisen-sho's ranks);
//! - binary codes of a value out of `d` (Numberlink's path labels): the width, "the code is
//!   below `d`", "if g then the code is `v`", "if the code is `v` then g".
//!
//! Every function adds clauses to a [`Formula`]; none simplifies what it is given, so clause
//! counts stay predictable (the `models/*.md` documents give them as formulas).

use super::{Formula, Lit};

/// Groups of at most this many literals get pairwise at-most-one clauses; larger ones the ladder.
pub const PAIRWISE_LIMIT: usize = 6;

/// At most one of `lits` is true.
pub fn at_most_one(f: &mut Formula, lits: &[Lit]) {
    if lits.len() <= PAIRWISE_LIMIT {
        at_most_one_pairwise(f, lits);
    } else {
        at_most_one_ladder(f, lits);
    }
}

/// At most one of `lits` is true, with one binary clause per pair: n(n-1)/2 clauses, no new variables.
pub fn at_most_one_pairwise(f: &mut Formula, lits: &[Lit]) {
    for i in 0..lits.len() {
        for j in i + 1..lits.len() {
            f.add_clause(&[!lits[i], !lits[j]]);
        }
    }
}

/// The pairwise at-most-one clauses of `lits` for the pairs `(i, j)` (indices into `lits`,
/// `i < j`) that `need` keeps: for a group some of whose pairs other groups already exclude
/// (a Sudoku box's cells that share a row or column), so each "not both" clause is written once.
/// With `need` always true this is [`at_most_one_pairwise`].
pub fn at_most_one_pairwise_where(
    f: &mut Formula,
    lits: &[Lit],
    mut need: impl FnMut(usize, usize) -> bool,
) {
    for i in 0..lits.len() {
        for j in i + 1..lits.len() {
            if need(i, j) {
                f.add_clause(&[!lits[i], !lits[j]]);
            }
        }
    }
}

/// At most one of `lits` is true, sequential (ladder) encoding: n-1 new variables `s_i` meaning
/// "one of the first i+1 literals is true", and 3n-4 binary clauses (for n >= 2).
pub fn at_most_one_ladder(f: &mut Formula, lits: &[Lit]) {
    let n = lits.len();
    if n < 2 {
        return;
    }
    let s: Vec<Lit> = (0..n - 1).map(|_| f.new_var().pos()).collect();
    f.add_clause(&[!lits[0], s[0]]);
    for i in 1..n - 1 {
        f.add_clause(&[!lits[i], s[i]]);
        f.add_clause(&[!s[i - 1], s[i]]);
        f.add_clause(&[!lits[i], !s[i - 1]]);
    }
    f.add_clause(&[!lits[n - 1], !s[n - 2]]);
}

/// Exactly one of `lits` is true: one clause for "at least one" plus [`at_most_one`].
pub fn exactly_one(f: &mut Formula, lits: &[Lit]) {
    f.add_clause(lits);
    at_most_one(f, lits);
}

/// Unary counter outputs over some literals: `outputs[j]` is true exactly when at least `j + 1`
/// of the inputs are true (up to the truncation bound the totalizer was built with).
#[derive(Clone, Debug)]
pub struct Totalizer {
    /// `outputs[j]` ⇔ "at least j+1 inputs are true".
    pub outputs: Vec<Lit>,
}

impl Totalizer {
    /// Builds a totalizer over `lits`, keeping at most `bound` outputs (counts above `bound`
    /// are all reported by the last output). Clauses go both ways, so outputs are exact.
    pub fn new(f: &mut Formula, lits: &[Lit], bound: usize) -> Totalizer {
        Totalizer {
            outputs: build_totalizer(f, lits, bound.max(1)),
        }
    }
    /// A literal true iff at least `j` inputs are true (`None` for j = 0: always true, and for
    /// j beyond the bound or the input count: not representable / always false).
    pub fn at_least(&self, j: usize) -> Option<Lit> {
        if j == 0 {
            None
        } else {
            self.outputs.get(j - 1).copied()
        }
    }
}

fn build_totalizer(f: &mut Formula, lits: &[Lit], bound: usize) -> Vec<Lit> {
    if lits.len() <= 1 {
        return lits.to_vec();
    }
    let mid = lits.len() / 2;
    let a = build_totalizer(f, &lits[..mid], bound);
    let b = build_totalizer(f, &lits[mid..], bound);
    let m = (a.len() + b.len()).min(bound);
    let out: Vec<Lit> = (0..m).map(|_| f.new_var().pos()).collect();
    // Upward: a_i ∧ b_j ⇒ out_{i+j} (indices as counts; count 0 is "true").
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            let sum = i + j;
            if sum == 0 || sum > m {
                continue;
            }
            let mut c = Vec::with_capacity(3);
            if i > 0 {
                c.push(!a[i - 1]);
            }
            if j > 0 {
                c.push(!b[j - 1]);
            }
            c.push(out[sum - 1]);
            f.add_clause(&c);
        }
    }
    // Downward: ¬a_{i+1} ∧ ¬b_{j+1} ⇒ ¬out_{i+j+1}.
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            let sum = i + j + 1;
            if sum > m {
                continue;
            }
            let mut c = Vec::with_capacity(3);
            if i < a.len() {
                c.push(a[i]);
            }
            if j < b.len() {
                c.push(b[j]);
            }
            c.push(!out[sum - 1]);
            f.add_clause(&c);
        }
    }
    out
}

/// At most `k` of `lits` are true.
pub fn at_most_k(f: &mut Formula, lits: &[Lit], k: usize) {
    if k >= lits.len() {
        return;
    }
    if k == 0 {
        for &l in lits {
            f.add_clause(&[!l]);
        }
        return;
    }
    if k == 1 {
        return at_most_one(f, lits);
    }
    let t = Totalizer::new(f, lits, k + 1);
    f.add_clause(&[!t.outputs[k]]);
}

/// At least `k` of `lits` are true.
pub fn at_least_k(f: &mut Formula, lits: &[Lit], k: usize) {
    if k == 0 {
        return;
    }
    if k > lits.len() {
        f.add_clause(&[]);
        return;
    }
    if k == 1 {
        f.add_clause(lits);
        return;
    }
    // At least k true ⇔ at most n-k false.
    let neg: Vec<Lit> = lits.iter().map(|&l| !l).collect();
    at_most_k(f, &neg, lits.len() - k);
}

/// Exactly `k` of `lits` are true (one totalizer, both bounds on its outputs).
pub fn exactly_k(f: &mut Formula, lits: &[Lit], k: usize) {
    if k > lits.len() {
        f.add_clause(&[]);
        return;
    }
    if k == 0 {
        return at_most_k(f, lits, 0);
    }
    if k == lits.len() {
        for &l in lits {
            f.add_clause(&[l]);
        }
        return;
    }
    if k == 1 {
        return exactly_one(f, lits);
    }
    let t = Totalizer::new(f, lits, k + 1);
    f.add_clause(&[t.outputs[k - 1]]);
    f.add_clause(&[!t.outputs[k]]);
}

/// `a` ⇔ `b`.
pub fn equiv(f: &mut Formula, a: Lit, b: Lit) {
    f.add_clause(&[!a, b]);
    f.add_clause(&[a, !b]);
}

/// `out` ⇔ (`a` xor `b`).
pub fn xor(f: &mut Formula, out: Lit, a: Lit, b: Lit) {
    f.add_clause(&[!out, a, b]);
    f.add_clause(&[!out, !a, !b]);
    f.add_clause(&[out, !a, b]);
    f.add_clause(&[out, a, !b]);
}

/// `out` ⇔ all of `ins`.
pub fn and(f: &mut Formula, out: Lit, ins: &[Lit]) {
    for &i in ins {
        f.add_clause(&[!out, i]);
    }
    let mut c: Vec<Lit> = ins.iter().map(|&i| !i).collect();
    c.push(out);
    f.add_clause(&c);
}

/// `out` ⇔ any of `ins`.
pub fn or(f: &mut Formula, out: Lit, ins: &[Lit]) {
    for &i in ins {
        f.add_clause(&[!i, out]);
    }
    let mut c: Vec<Lit> = ins.to_vec();
    c.push(!out);
    f.add_clause(&c);
}

/// The vectors `a` and `b` (same length) differ in at least one position. Adds one variable
/// `d_i` per position with `d_i ⇒ a_i ≠ b_i` (two clauses each) and the clause `d_1 ∨ … ∨ d_n`.
pub fn vectors_differ(f: &mut Formula, a: &[Lit], b: &[Lit]) {
    let any = difference_lits(f, a, b);
    f.add_clause(&any);
}

/// One new literal `d_i` per position with `d_i ⇒ a_i ≠ b_i` (two clauses each), for callers
/// that build the "some position differs" clause themselves (for example with extra literals
/// for positions where one side is a known constant).
pub fn difference_lits(f: &mut Formula, a: &[Lit], b: &[Lit]) -> Vec<Lit> {
    assert_eq!(a.len(), b.len(), "vectors_differ needs equal lengths");
    let mut any = Vec::with_capacity(a.len());
    for (&x, &y) in a.iter().zip(b) {
        let d = f.new_var().pos();
        f.add_clause(&[!d, x, y]);
        f.add_clause(&[!d, !x, !y]);
        any.push(d);
    }
    any
}

/// `guard` ⇒ `a` < `b`, both unsigned binary numbers of the same width, most significant bit
/// first (a comparator for order labels). Adds one variable per bit after the first, meaning
/// "from this bit on, `a` < `b` must still be shown", and three clauses per bit but the last
/// (two): 3n-1 clauses for n bits. Only the implication is encoded; `a` < `b` may hold when
/// `guard` is false.
pub fn less_than_if(f: &mut Formula, guard: Lit, a: &[Lit], b: &[Lit]) {
    assert_eq!(a.len(), b.len(), "less_than_if needs equal widths");
    let n = a.len();
    if n == 0 {
        f.add_clause(&[!guard]);
        return;
    }
    let mut x = guard;
    for i in 0..n - 1 {
        let next = f.new_var().pos();
        // x ∧ a_i ⇒ b_i; x ∧ a_i ⇒ next; x ∧ ¬b_i ⇒ next.
        f.add_clause(&[!x, !a[i], b[i]]);
        f.add_clause(&[!x, !a[i], next]);
        f.add_clause(&[!x, b[i], next]);
        x = next;
    }
    // The last bit decides: ¬a ∧ b.
    f.add_clause(&[!x, !a[n - 1]]);
    f.add_clause(&[!x, b[n - 1]]);
}

/// `guard` ⇒ `a` = `b`, two vectors of the same width (order labels that must agree, as the two
/// tiles of a Shisen-sho pair share one removal rank): two clauses per position, no new
/// variables. Only the implication is encoded.
pub fn equal_if(f: &mut Formula, guard: Lit, a: &[Lit], b: &[Lit]) {
    assert_eq!(a.len(), b.len(), "equal_if needs equal widths");
    for (&x, &y) in a.iter().zip(b) {
        f.add_clause(&[!guard, !x, y]);
        f.add_clause(&[!guard, x, !y]);
    }
}

/// The width of a binary code for `d` values, `⌈log2 d⌉`: 0 for one value (or none).
pub fn code_width(d: usize) -> usize {
    if d <= 1 {
        0
    } else {
        (usize::BITS - (d - 1).leading_zeros()) as usize
    }
}

/// The unsigned binary number `bits` (most significant bit first) is below `d`: one clause per
/// 0 bit of `d − 1` in the width of `bits` (none when `d` is `2^n` or more), the empty clause
/// when `d` is 0. For bit `i` where `d − 1` has a 0: not (1 there and every higher 1 of `d − 1`
/// matched).
pub fn below(f: &mut Formula, bits: &[Lit], d: usize) {
    let n = bits.len();
    if d == 0 {
        f.add_clause(&[]);
        return;
    }
    if n < usize::BITS as usize && d >> n != 0 {
        return;
    }
    let m = d - 1;
    let bit = |i: usize| m >> (n - 1 - i) & 1 == 1; // bit `i` of `m`, most significant first
    for i in 0..n {
        if !bit(i) {
            f.add_clause_from(
                (0..i)
                    .filter(|&j| bit(j))
                    .map(|j| !bits[j])
                    .chain(std::iter::once(!bits[i])),
            );
        }
    }
}

/// The literal of bit `i` of `bits` (most significant first) that holds when the code is `v`.
fn code_lit(bits: &[Lit], v: usize, i: usize) -> Lit {
    if v >> (bits.len() - 1 - i) & 1 == 1 {
        bits[i]
    } else {
        !bits[i]
    }
}

/// `guard` ⇒ the code `bits` (most significant bit first) is `v`: one binary clause per bit.
pub fn equal_const_if(f: &mut Formula, guard: Lit, bits: &[Lit], v: usize) {
    for i in 0..bits.len() {
        f.add_clause(&[!guard, code_lit(bits, v, i)]);
    }
}

/// The code `bits` (most significant bit first) is `v` ⇒ `then`: one clause of `n + 1`
/// literals.
pub fn if_equal_const(f: &mut Formula, bits: &[Lit], v: usize, then: Lit) {
    f.add_clause_from(
        (0..bits.len())
            .map(|i| !code_lit(bits, v, i))
            .chain(std::iter::once(then)),
    );
}

#[cfg(test)]
mod tests {
    //! Exhaustive checks: for every assignment of the inputs, the encoding must be satisfiable
    //! (with some values of its auxiliary variables) exactly when the definition holds.
    use super::*;
    use crate::solver::{Backend, Outcome, Varisat};

    /// Runs `encode` over `n` fresh inputs and compares with `definition` for all 2^n inputs.
    fn exhaustive(
        n: usize,
        encode: impl Fn(&mut Formula, &[Lit]),
        definition: impl Fn(&[bool]) -> bool,
    ) {
        let mut f = Formula::new();
        let inputs: Vec<Lit> = (0..n).map(|_| f.new_var().pos()).collect();
        encode(&mut f, &inputs);
        let mut solver = Varisat::new();
        solver.add_formula(&f);
        for bits in 0..(1u32 << n) {
            let values: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
            let assumptions: Vec<Lit> = inputs
                .iter()
                .zip(&values)
                .map(|(&l, &v)| if v { l } else { !l })
                .collect();
            let sat = matches!(solver.solve(&assumptions).unwrap(), Outcome::Sat(_));
            assert_eq!(sat, definition(&values), "n={n} inputs={values:?}");
        }
    }

    fn count(v: &[bool]) -> usize {
        v.iter().filter(|&&b| b).count()
    }

    #[test]
    fn at_most_one_all_encodings() {
        for n in 0..=9 {
            exhaustive(n, at_most_one, |v| count(v) <= 1);
            exhaustive(n, at_most_one_pairwise, |v| count(v) <= 1);
            exhaustive(n, at_most_one_ladder, |v| count(v) <= 1);
            exhaustive(n, exactly_one, |v| count(v) == 1);
        }
    }

    #[test]
    fn at_most_one_pairwise_where_forbids_exactly_the_kept_pairs() {
        // Keep the pairs whose index sum is odd: a set of true inputs is allowed exactly when
        // no two of them have an odd sum (all even indices, or all odd).
        for n in 0..=7 {
            exhaustive(
                n,
                |f, l| at_most_one_pairwise_where(f, l, |i, j| (i + j) % 2 == 1),
                |v| {
                    let on: Vec<usize> = (0..v.len()).filter(|&i| v[i]).collect();
                    on.iter()
                        .all(|&i| on.iter().all(|&j| i >= j || (i + j) % 2 == 0))
                },
            );
            exhaustive(
                n,
                |f, l| at_most_one_pairwise_where(f, l, |_, _| true),
                |v| count(v) <= 1,
            );
        }
    }

    #[test]
    fn cardinality_all_bounds() {
        for n in 0..=8 {
            for k in 0..=n + 1 {
                exhaustive(n, |f, l| at_most_k(f, l, k), |v| count(v) <= k);
                exhaustive(n, |f, l| at_least_k(f, l, k), |v| count(v) >= k);
                exhaustive(n, |f, l| exactly_k(f, l, k), |v| count(v) == k);
            }
        }
    }

    #[test]
    fn totalizer_outputs_are_exact_counts() {
        for n in 1..=7 {
            for bound in 1..=n + 1 {
                for j in 1..=bound.min(n) {
                    // Constrain "output j ⇔ input count >= j" by asserting the output equals a fresh
                    // literal we then test both ways.
                    exhaustive(
                        n,
                        |f, l| {
                            let t = Totalizer::new(f, l, bound);
                            f.add_clause(&[t.at_least(j).unwrap()]);
                        },
                        |v| count(v) >= j,
                    );
                    exhaustive(
                        n,
                        |f, l| {
                            let t = Totalizer::new(f, l, bound);
                            f.add_clause(&[!t.at_least(j).unwrap()]);
                        },
                        |v| count(v) < j,
                    );
                }
            }
        }
    }

    #[test]
    fn gates_match_their_truth_tables() {
        exhaustive(2, |f, l| equiv(f, l[0], l[1]), |v| v[0] == v[1]);
        exhaustive(
            3,
            |f, l| xor(f, l[0], l[1], l[2]),
            |v| v[0] == (v[1] ^ v[2]),
        );
        for n in 1..=4 {
            exhaustive(
                n + 1,
                |f, l| and(f, l[0], &l[1..]),
                |v| v[0] == v[1..].iter().all(|&b| b),
            );
            exhaustive(
                n + 1,
                |f, l| or(f, l[0], &l[1..]),
                |v| v[0] == v[1..].iter().any(|&b| b),
            );
        }
    }

    #[test]
    fn vectors_differ_matches_definition() {
        for half in 1..=4 {
            exhaustive(
                2 * half,
                |f, l| vectors_differ(f, &l[..half], &l[half..]),
                |v| v[..half] != v[half..],
            );
            // The difference literals plus an extra literal: "differ, or the extra holds".
            exhaustive(
                2 * half + 1,
                |f, l| {
                    let mut c = difference_lits(f, &l[1..=half], &l[half + 1..]);
                    c.push(l[0]);
                    f.add_clause(&c);
                },
                |v| v[0] || v[1..=half] != v[half + 1..],
            );
        }
    }

    #[test]
    fn ladder_clause_and_variable_counts() {
        let mut f = Formula::new();
        let l: Vec<Lit> = (0..10).map(|_| f.new_var().pos()).collect();
        at_most_one_ladder(&mut f, &l);
        assert_eq!(f.num_vars(), 10 + 9);
        assert_eq!(f.num_clauses(), 3 * 10 - 4);
    }

    #[test]
    fn less_than_if_is_unsigned_comparison() {
        for bits in 1..=3 {
            exhaustive(
                2 * bits + 1,
                |f, l| less_than_if(f, l[0], &l[1..=bits], &l[bits + 1..]),
                |v| {
                    let num = |s: &[bool]| s.iter().fold(0u32, |acc, &b| acc * 2 + b as u32);
                    !v[0] || num(&v[1..=bits]) < num(&v[bits + 1..])
                },
            );
        }
    }

    #[test]
    fn equal_if_is_equality_under_the_guard() {
        for bits in 1..=3 {
            exhaustive(
                2 * bits + 1,
                |f, l| equal_if(f, l[0], &l[1..=bits], &l[bits + 1..]),
                |v| !v[0] || v[1..=bits] == v[bits + 1..],
            );
        }
    }

    /// The unsigned number of `bits`, most significant first.
    fn num(bits: &[bool]) -> usize {
        bits.iter().fold(0, |acc, &b| acc * 2 + b as usize)
    }

    #[test]
    fn code_width_holds_every_value() {
        assert_eq!(
            (0..=9).map(code_width).collect::<Vec<_>>(),
            [0, 0, 1, 2, 2, 3, 3, 3, 3, 4]
        );
        for d in 2..300 {
            let n = code_width(d);
            assert!(d <= 1 << n && d > 1 << (n - 1), "d={d}");
        }
    }

    #[test]
    fn below_is_unsigned_comparison_with_a_constant() {
        for n in 0..=4 {
            for d in 0..=(1 << n) + 1 {
                exhaustive(n, |f, l| below(f, l, d), |v| num(v) < d);
                // One clause per 0 bit of d − 1 within the width.
                let mut f = Formula::new();
                let l: Vec<Lit> = (0..n).map(|_| f.new_var().pos()).collect();
                below(&mut f, &l, d);
                let zeros = match d {
                    0 => 1,
                    _ if d >= 1 << n => 0,
                    _ => (0..n).filter(|&i| (d - 1) >> i & 1 == 0).count(),
                };
                assert_eq!(f.num_clauses(), zeros, "n={n} d={d}");
            }
        }
    }

    #[test]
    fn constant_codes_under_a_guard_and_as_a_premise() {
        for n in 0..=4 {
            for v in 0..1 << n {
                exhaustive(
                    n + 1,
                    |f, l| equal_const_if(f, l[0], &l[1..], v),
                    |b| !b[0] || num(&b[1..]) == v,
                );
                exhaustive(
                    n + 1,
                    |f, l| if_equal_const(f, &l[1..], v, l[0]),
                    |b| b[0] || num(&b[1..]) != v,
                );
            }
        }
    }
}
