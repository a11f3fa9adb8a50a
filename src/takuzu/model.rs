//! The Takuzu CNF model (see `models/takuzu.md` for the clause families and their counts).
//!
//! One variable per open cell, true for 1. No three equal side by side: two clauses per
//! window of three cells. Balance: the number of 1s of each line through a totalizer from
//! [`crate::cnf::encode`] (exactly k, or a range of two values for an odd line that may lean
//! either way). Distinct lines: eagerly with difference variables per pair of lines of a family,
//! or lazily through [`refine`], which forbids a repeated line when a model shows one. Givens
//! are folded (their cells are constants that simplify every clause) or kept as assumptions.

use super::{DistinctEncoding, Grid, Line, Takuzu};
use crate::cnf::encode::{self, Totalizer};
use crate::cnf::{Assignment, Clause, Formula, Lit};
use crate::puzzle::{cell_name, CellValue, Given, GivenMode, Model};
use std::collections::{HashMap, HashSet};

/// Which variable is which cell.
#[derive(Clone, Debug, Default)]
pub struct TakuzuMap {
    /// Per cell (row-major): its literal ("this cell is 1"), or `None` for a folded given.
    pub cell_lit: Vec<Option<Lit>>,
    /// Per cell variable index: its cell.
    pub var_cell: Vec<usize>,
    /// The lines [`refine`] checks for repeats (empty when nothing is left to it).
    pub lazy_lines: Vec<Line>,
}

/// A cell in a clause: a literal, or a value known in advance (a folded given).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Term {
    Const(u8),
    Var(Lit),
}

impl Term {
    /// The term "this cell holds `v`".
    fn is(self, v: u8) -> Term {
        match self {
            Term::Const(x) => Term::Const((x == v) as u8),
            Term::Var(l) => Term::Var(if v == 1 { l } else { !l }),
        }
    }
}

/// Adds the clause "one of these terms holds" (each a "cell is 1"-style term read as
/// true/false), dropping false constants and skipping the clause when a constant is true.
fn add_terms(f: &mut Formula, terms: &[Term]) {
    let mut c: Vec<Lit> = Vec::with_capacity(terms.len());
    for t in terms {
        match *t {
            Term::Const(1) => return,
            Term::Const(_) => {}
            Term::Var(l) => c.push(l),
        }
    }
    f.add_clause(&c);
}

/// Windows of three consecutive cells over all lines, each once.
pub fn windows(lines: &[Line]) -> Vec<[usize; 3]> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for l in lines {
        for w in l.cells.windows(3) {
            let k = [w[0], w[1], w[2]];
            if seen.insert(k) {
                out.push(k);
            }
        }
    }
    out
}

/// Builds the model, with the distinct-lines rule encoded as `encoding` says.
pub fn build(
    t: &Takuzu,
    mode: GivenMode,
    names: bool,
    encoding: DistinctEncoding,
) -> Model<TakuzuMap> {
    let w = t.width;
    let mut f = Formula::with_names(names);
    let mut map = TakuzuMap {
        cell_lit: vec![None; t.cells.len()],
        var_cell: Vec::new(),
        lazy_lines: Vec::new(),
    };
    let mut answer = Vec::new();
    let mut givens = Vec::new();
    for (i, &g) in t.cells.iter().enumerate() {
        if mode == GivenMode::Fold && g.is_some() {
            continue;
        }
        let v = f.named_var(|| format!("{}=1", cell_name(i / w, i % w)));
        map.cell_lit[i] = Some(v.pos());
        map.var_cell.push(i);
        answer.push(v);
        if let Some(x) = g {
            givens.push(Given {
                label: format!("{}={x}", cell_name(i / w, i % w)),
                lit: v.lit(x == 1),
            });
        }
    }
    let term = |i: usize| match map.cell_lit[i] {
        Some(l) => Term::Var(l),
        None => Term::Const(t.cells[i].expect("folded cells are givens")),
    };
    let lines = t.lines();
    // No three equal side by side: (a ∨ b ∨ c) and (¬a ∨ ¬b ∨ ¬c) per window.
    for [a, b, c] in windows(&lines) {
        for v in [0u8, 1] {
            add_terms(&mut f, &[term(a).is(v), term(b).is(v), term(c).is(v)]);
        }
    }
    // Balance: the number of 1s of each line (each distinct cell list once).
    let mut seen: HashSet<&[usize]> = HashSet::new();
    for l in &lines {
        if !seen.insert(&l.cells) {
            continue;
        }
        let (lo, hi) = t.ones_range(l.cells.len());
        let mut lits = Vec::new();
        let mut ones = 0;
        for &i in &l.cells {
            match term(i) {
                Term::Var(x) => lits.push(x),
                Term::Const(v) => ones += v as usize,
            }
        }
        if ones > hi || lo > ones + lits.len() {
            f.add_clause(&[]);
            continue;
        }
        let (lo, hi) = (lo.saturating_sub(ones), hi - ones);
        if lo == hi {
            encode::exactly_k(&mut f, &lits, lo);
        } else if lo > 0 || hi < lits.len() {
            let tot = Totalizer::new(&mut f, &lits, hi + 1);
            if let Some(x) = tot.at_least(lo) {
                f.add_clause(&[x]);
            }
            if let Some(x) = tot.at_least(hi + 1) {
                f.add_clause(&[!x]);
            }
        }
    }
    // Counting: a region's ones, counted row by row and column by column, are the same ones.
    // When the rows' total and the columns' total can not meet (a 10x9 grid whose odd rows
    // hold one more 0), the rules alone have no solution, which a CDCL solver could only find
    // by counting through its conflicts (a pigeonhole argument, exponential in resolution):
    // the empty clause says it at once. Implied by the balance clauses, so it removes nothing.
    for g in t.regions() {
        let (rlo, rhi) = t.ones_range(g.width);
        let (clo, chi) = t.ones_range(g.height);
        if g.height * rlo > g.width * chi || g.width * clo > g.height * rhi {
            f.add_clause(&[]);
        }
    }
    // Distinct lines.
    if t.rules.distinct_lines {
        match encoding {
            DistinctEncoding::Eager => {
                for (a, la) in lines.iter().enumerate() {
                    for lb in &lines[a + 1..] {
                        if lb.family == la.family && lb.cells.len() == la.cells.len() {
                            lines_differ(&mut f, &la.cells, &lb.cells, term);
                        }
                    }
                }
            }
            DistinctEncoding::Lazy => map.lazy_lines = lines.clone(),
        }
    }
    Model {
        formula: f,
        answer,
        one_hot: false,
        givens,
        normal: Vec::new(),
        map,
    }
}

/// "These two lines differ": positions where both are known contribute nothing (or settle it),
/// a position with one known side contributes the other side's literal, and positions with two
/// open cells get difference variables from [`encode::difference_lits`].
fn lines_differ(f: &mut Formula, a: &[usize], b: &[usize], term: impl Fn(usize) -> Term) {
    let mut extra = Vec::new();
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for (&i, &j) in a.iter().zip(b) {
        match (term(i), term(j)) {
            (Term::Const(x), Term::Const(y)) => {
                if x != y {
                    return; // already different
                }
            }
            (Term::Const(x), Term::Var(l)) | (Term::Var(l), Term::Const(x)) => {
                extra.push(if x == 1 { !l } else { l });
            }
            (Term::Var(x), Term::Var(y)) => {
                xs.push(x);
                ys.push(y);
            }
        }
    }
    let mut clause = encode::difference_lits(f, &xs, &ys);
    clause.extend(extra);
    f.add_clause(&clause);
}

/// The grid an assignment stands for.
pub fn decode(t: &Takuzu, map: &TakuzuMap, a: &Assignment) -> Grid {
    Grid(
        t.cells
            .iter()
            .zip(&map.cell_lit)
            .map(|(&g, &l)| match l {
                Some(l) => a.lit(l) as u8,
                None => g.unwrap_or(0),
            })
            .collect(),
    )
}

/// Lazy distinct lines: for every pair of equal lines of a family in the model, the clause
/// "not both of these lines hold this pattern" over their open cells (no new variables).
pub fn refine(t: &Takuzu, map: &TakuzuMap, a: &Assignment) -> Vec<Clause> {
    if map.lazy_lines.is_empty() {
        return Vec::new();
    }
    let g = decode(t, map, a);
    let mut first: HashMap<(usize, Vec<u8>), usize> = HashMap::new();
    let mut out = Vec::new();
    for (k, l) in map.lazy_lines.iter().enumerate() {
        let pattern: Vec<u8> = l.cells.iter().map(|&i| g.0[i]).collect();
        match first.entry((l.family, pattern)) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(k);
            }
            std::collections::hash_map::Entry::Occupied(e) => {
                let other = &map.lazy_lines[*e.get()];
                let mut c = Vec::new();
                for (&i, &j) in l.cells.iter().zip(&other.cells) {
                    for cell in [i, j] {
                        if let Some(x) = map.cell_lit[cell] {
                            // "this cell differs from the pattern"
                            c.push(if g.0[cell] == 1 { !x } else { x });
                        }
                    }
                }
                out.push(c);
            }
        }
    }
    out
}

/// The cell values that backbone literals stand for, givens left out.
pub fn forced(t: &Takuzu, map: &TakuzuMap, lits: &[Lit]) -> Vec<CellValue> {
    lits.iter()
        .filter_map(|l| {
            let i = *map.var_cell.get(l.var().index())?;
            if t.cells[i].is_some() {
                return None;
            }
            Some(CellValue {
                row: i / t.width,
                col: i % t.width,
                value: l.is_positive() as i64,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{self, Puzzle, Solutions};
    use crate::solver::SolverChoice;
    use crate::takuzu::{rules, OddLines, Rules};

    /// Every grid of `w` x `h` that the independent checker accepts (brute force).
    fn brute_force(t: &Takuzu) -> usize {
        let n = t.width * t.height;
        (0..1u64 << n)
            .filter(|bits| {
                let g = Grid((0..n).map(|i| (bits >> i & 1) as u8).collect());
                rules::check(t, &g).is_ok()
            })
            .count()
    }

    #[test]
    fn model_counts_match_the_checker_on_small_grids() {
        for (w, h) in [(2, 2), (4, 2), (3, 3), (4, 4), (3, 4), (5, 3)] {
            for distinct in [true, false] {
                for odd in [OddLines::Either, OddLines::Ones, OddLines::Zeros] {
                    if w % 2 == 0 && h % 2 == 0 && odd != OddLines::Either {
                        continue;
                    }
                    let mut t = Takuzu::empty(w, h, Rules::default());
                    t.rules.distinct_lines = distinct;
                    t.rules.odd_lines = odd;
                    let expect = brute_force(&t);
                    for enc in [DistinctEncoding::Eager, DistinctEncoding::Lazy] {
                        t.rules.encoding = Some(enc);
                        let got = puzzle::count(&t, &SolverChoice::Embedded, 100_000)
                            .unwrap()
                            .len();
                        assert_eq!(got, expect, "{w}x{h} distinct={distinct} {odd:?} {enc:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn folded_and_assumed_givens_agree() {
        let mut t = Takuzu::empty(4, 4, Rules::default());
        t.cells[0] = Some(0);
        t.cells[5] = Some(0);
        t.cells[15] = Some(1);
        for enc in [DistinctEncoding::Eager, DistinctEncoding::Lazy] {
            t.rules.encoding = Some(enc);
            let n = puzzle::count(&t, &SolverChoice::Embedded, 1000)
                .unwrap()
                .len();
            let expect = brute_force(&t);
            assert_eq!(n, expect);
            let m = t.model(GivenMode::Assume, true);
            assert_eq!(m.givens.len(), 3);
            assert_eq!(m.givens[2].label, "r4c4=1");
            assert_eq!(m.formula.name_of(m.answer[1]), Some("r1c2=1"));
        }
    }

    #[test]
    fn conflicting_givens_are_named() {
        // 0 . 0 0 in a row of four: three 0s can't fit (at most two) — the core names them.
        let mut t = Takuzu::empty(4, 4, Rules::default());
        t.cells[0] = Some(1);
        t.cells[4] = Some(1);
        t.cells[12] = Some(1);
        assert!(matches!(
            puzzle::verdict(&t, &SolverChoice::Embedded).unwrap(),
            Solutions::None
        ));
        let c = puzzle::conflicts(&t, &SolverChoice::Embedded)
            .unwrap()
            .unwrap();
        assert_eq!(c, vec!["r1c1=1", "r2c1=1", "r4c1=1"]);
    }
}
