//! The Sudoku CNF model (see `models/sudoku.md` for the clause families, their counts and the
//! measurements behind the choices).
//!
//! Direct encoding: one variable `rXcY=V` per open cell and candidate value. With givens
//! folded ([`GivenMode::Fold`]), the givens' eliminations and then the naked and hidden singles
//! they imply are applied before encoding ([`fold_singles`]): cells those fill get no variables,
//! a cell's variables are its remaining candidates, and units only constrain the values they
//! still miss. This is a sound simplification (every solution of the puzzle agrees with every
//! single), so the folded model has exactly the puzzle's solutions; the SAT solver decides
//! everything else. Clauses: each open cell takes at least one candidate; each unit holds each
//! missing value exactly once (the "at least once" clauses let unit propagation find hidden
//! singles, the pairwise "at most once" clauses naked singles' consequences). [`Encoding`] lists
//! the alternatives that were measured; [`build`] uses the chosen ones.

use super::{Grid, Sudoku};
use crate::cnf::{encode, Assignment, Formula, Lit, Var};
use crate::puzzle::{cell_name, CellValue, Given, GivenMode, Model};

/// Which variable is which cell and value.
#[derive(Clone, Debug, Default)]
pub struct SudokuMap {
    /// For each cell variable (variables `0..var_cell.len()`, created cell by cell, values
    /// ascending): the cell and value it stands for. Auxiliary variables of the at-most-one
    /// encodings, if any, come after.
    pub var_cell: Vec<(u32, u8)>,
    /// For each cell (row-major): its first variable and how many it has (none for a cell whose
    /// value was fixed before encoding).
    pub cell_vars: Vec<(u32, u32)>,
    /// The value of every cell fixed before encoding: the givens, and when folding, the cells
    /// singles fill (0 for a cell with variables).
    pub fixed: Vec<u8>,
}

impl SudokuMap {
    /// Cell `i`'s candidate values with their literals.
    pub fn cell_lits(&self, i: usize) -> impl Iterator<Item = (u8, Lit)> + '_ {
        let (first, count) = self.cell_vars[i];
        let (a, b) = (first as usize, (first + count) as usize);
        self.var_cell[a..b]
            .iter()
            .enumerate()
            .map(move |(k, &(_, v))| (v, Var::from_index(a + k).pos()))
    }

    /// The literal "cell `i` holds `v`", if the model has one.
    pub fn lit(&self, i: usize, v: u8) -> Option<Lit> {
        self.cell_lits(i).find(|&(w, _)| w == v).map(|(_, l)| l)
    }
}

/// The at-most-one encoding for a group of literals.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AtMostOne {
    /// Whatever [`encode::at_most_one`] picks for the group's size.
    Auto,
    /// [`encode::at_most_one_pairwise`].
    Pairwise,
    /// [`encode::at_most_one_ladder`].
    Ladder,
}

/// The encoding choices, so the alternatives can be measured against each other (the bench
/// `encodings` group does it). [`Encoding::CHOSEN`] is what [`build`] uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Encoding {
    /// In [`GivenMode::Fold`], also fill the naked and hidden singles the givens imply.
    pub singles: bool,
    /// At-most-one over each cell's candidates (logically redundant next to the units'
    /// exactly-once clauses, but it adds propagation).
    pub cell_at_most_one: bool,
    /// At-least-once per unit and missing value (the hidden-single clauses; logically
    /// redundant next to the cells' at-least-one, but it adds propagation).
    pub unit_at_least_one: bool,
    /// How "at most one" is encoded for cells and for unit values.
    pub at_most_one: AtMostOne,
    /// With pairwise at-most-one: two cells that share a row (or column) and a box get their
    /// "not both v" clause once, from the row or column, not again from the box.
    pub peers_once: bool,
    /// Number the variables of cells with fewer candidates first (the solver's first
    /// decisions then fall on the most constrained cells).
    pub order_by_candidates: bool,
}

impl Encoding {
    /// The measured best (see `models/sudoku.md`).
    pub const CHOSEN: Encoding = Encoding {
        singles: true,
        cell_at_most_one: true,
        unit_at_least_one: true,
        at_most_one: AtMostOne::Pairwise,
        peers_once: true,
        order_by_candidates: false,
    };
    /// The first model gridsat had: givens folded without singles, exactly-one everywhere,
    /// the shared at-most-one (ladder above six literals).
    pub const FULL: Encoding = Encoding {
        singles: false,
        cell_at_most_one: true,
        unit_at_least_one: true,
        at_most_one: AtMostOne::Auto,
        peers_once: false,
        order_by_candidates: false,
    };
}

impl Default for Encoding {
    fn default() -> Self {
        Encoding::CHOSEN
    }
}

/// Every value of a side-`n` grid as a candidate mask.
pub fn full_mask(n: usize) -> u64 {
    if n == 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Candidate masks (bit v-1 for value v) for every cell after the givens' eliminations and the
/// puzzle's pencil marks, if it has any; a given cell's mask is 0.
pub fn candidates(s: &Sudoku) -> Vec<u64> {
    let n = s.size;
    let full = full_mask(n);
    let mut row = vec![0u64; n];
    let mut col = vec![0u64; n];
    let mut bx = vec![0u64; n];
    for (i, &v) in s.cells.iter().enumerate() {
        if v != 0 {
            let bit = 1u64 << (v - 1);
            let (r, c) = (i / n, i % n);
            row[r] |= bit;
            col[c] |= bit;
            bx[s.box_of(r, c)] |= bit;
        }
    }
    s.cells
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            if v != 0 {
                0
            } else {
                let (r, c) = (i / n, i % n);
                full & !(row[r] | col[c] | bx[s.box_of(r, c)]) & !s.struck(i)
            }
        })
        .collect()
}

/// The grid after the givens and every naked and hidden single they imply: the values
/// (givens, singles, 0 for still open) and the candidate masks of the open cells (0 for a
/// filled cell). `None` when the singles run into a contradiction (two equal givens in a unit,
/// an open cell without candidates, or a value with no place left in a unit): then the puzzle
/// has no solution.
///
/// Sound: a naked single (a cell with one candidate) and a hidden single (a value with one
/// place in a unit) hold in every solution, so the puzzle and the filled grid have the same
/// solutions.
pub fn fold_singles(s: &Sudoku, units: &[Vec<usize>]) -> Option<(Vec<u8>, Vec<u64>)> {
    let n = s.size;
    let full = full_mask(n);
    let mut values = s.cells.clone();
    // Two equal givens in a unit: no solution (the parser refuses them, but a puzzle built in
    // code may have them).
    for unit in units {
        let mut seen = 0u64;
        for &i in unit {
            if values[i] != 0 {
                let bit = 1u64 << (values[i] - 1);
                if seen & bit != 0 {
                    return None;
                }
                seen |= bit;
            }
        }
    }
    let mut masks = candidates(s);
    // The units of each cell, for removing a placed value from its peers.
    let mut cell_units = vec![[0u32; 3]; n * n];
    let mut fill = vec![0usize; n * n];
    for (u, unit) in units.iter().enumerate() {
        for &i in unit {
            cell_units[i][fill[i]] = u as u32;
            fill[i] += 1;
        }
    }
    let place = |values: &mut Vec<u8>, masks: &mut Vec<u64>, i: usize, v: u8| {
        values[i] = v;
        masks[i] = 0;
        let keep = !(1u64 << (v - 1));
        for &u in &cell_units[i] {
            for &j in &units[u as usize] {
                masks[j] &= keep;
            }
        }
    };
    loop {
        let mut changed = false;
        // Naked singles.
        for i in 0..n * n {
            if values[i] != 0 {
                continue;
            }
            let m = masks[i];
            if m == 0 {
                return None;
            }
            if m & (m - 1) == 0 {
                place(&mut values, &mut masks, i, m.trailing_zeros() as u8 + 1);
                changed = true;
            }
        }
        // Hidden singles, one unit at a time (recounted after each placement).
        for unit in units {
            loop {
                let (mut placed, mut once, mut twice) = (0u64, 0u64, 0u64);
                for &i in unit {
                    if values[i] != 0 {
                        placed |= 1u64 << (values[i] - 1);
                    } else {
                        twice |= once & masks[i];
                        once |= masks[i];
                    }
                }
                let missing = full & !placed;
                if missing & !once != 0 {
                    return None;
                }
                let hidden = missing & once & !twice;
                if hidden == 0 {
                    break;
                }
                let v = hidden.trailing_zeros() as u8 + 1;
                let bit = 1u64 << (v - 1);
                let i = *unit
                    .iter()
                    .find(|&&i| values[i] == 0 && masks[i] & bit != 0)
                    .expect("a hidden single has its cell");
                place(&mut values, &mut masks, i, v);
                changed = true;
            }
        }
        if !changed {
            return Some((values, masks));
        }
    }
}

/// Builds the model with the chosen encoding.
pub fn build(s: &Sudoku, mode: GivenMode, names: bool) -> Model<SudokuMap> {
    build_with(s, mode, names, Encoding::CHOSEN)
}

fn at_most_one(f: &mut Formula, lits: &[Lit], how: AtMostOne) {
    match how {
        AtMostOne::Auto => encode::at_most_one(f, lits),
        AtMostOne::Pairwise => encode::at_most_one_pairwise(f, lits),
        AtMostOne::Ladder => encode::at_most_one_ladder(f, lits),
    }
}

/// Builds the model with the given encoding choices.
pub fn build_with(s: &Sudoku, mode: GivenMode, names: bool, enc: Encoding) -> Model<SudokuMap> {
    let n = s.size;
    let mut f = Formula::with_names(names);
    let units = s.units();
    let (fixed, masks): (Vec<u8>, Vec<u64>) = match mode {
        GivenMode::Fold if enc.singles => match fold_singles(s, &units) {
            Some(x) => x,
            None => {
                // The singles found a contradiction: no solution, and the model says so.
                f.add_clause(&[]);
                return Model {
                    formula: f,
                    answer: Vec::new(),
                    one_hot: true,
                    givens: Vec::new(),
                    normal: Vec::new(),
                    map: SudokuMap {
                        var_cell: Vec::new(),
                        cell_vars: vec![(0, 0); n * n],
                        fixed: s.cells.clone(),
                    },
                };
            }
        },
        GivenMode::Fold => (s.cells.clone(), candidates(s)),
        GivenMode::Assume => (vec![0; n * n], vec![full_mask(n); n * n]),
    };
    let num_lits: usize = masks.iter().map(|m| m.count_ones() as usize).sum();
    let mut map = SudokuMap {
        var_cell: Vec::with_capacity(num_lits),
        cell_vars: vec![(0, 0); n * n],
        fixed,
    };
    let mut order: Vec<usize> = (0..n * n).collect();
    if enc.order_by_candidates {
        order.sort_by_key(|&i| masks[i].count_ones());
    }
    for &i in &order {
        let m = masks[i];
        map.cell_vars[i] = (map.var_cell.len() as u32, m.count_ones());
        let mut bits = m;
        while bits != 0 {
            let v = bits.trailing_zeros() as u8 + 1;
            bits &= bits - 1;
            f.named_var(|| format!("{}={}", cell_name(i / n, i % n), v));
            map.var_cell.push((i as u32, v));
        }
    }
    let answer: Vec<Var> = (0..num_lits).map(Var::from_index).collect();
    // Room for the clauses: at most one at-least-one clause per cell and per unit value, and
    // at most 2 * n binary clauses per literal (its cell's and its units' pairs).
    f.reserve(n * n + 3 * n * n + num_lits * n, 2 * num_lits * (1 + 2 * n));
    // Each open cell takes at least one (and, if chosen, at most one) of its candidates.
    let mut ls: Vec<Lit> = Vec::with_capacity(n);
    for i in 0..n * n {
        if map.fixed[i] != 0 {
            continue;
        }
        ls.clear();
        ls.extend(map.cell_lits(i).map(|(_, l)| l));
        f.add_clause(&ls);
        if enc.cell_at_most_one {
            at_most_one(&mut f, &ls, enc.at_most_one);
        }
    }
    // Each unit holds each value it still misses exactly once (at least once if chosen).
    let pairwise_boxes = enc.peers_once && enc.at_most_one == AtMostOne::Pairwise;
    // by_value[v - 1]: the unit's cells that have candidate v, with their literals.
    let mut by_value: Vec<Vec<(usize, Lit)>> = vec![Vec::with_capacity(n); n];
    for (u, unit) in units.iter().enumerate() {
        let is_box = u >= 2 * n;
        let mut placed: u64 = 0;
        for group in by_value.iter_mut() {
            group.clear();
        }
        for &i in unit {
            if map.fixed[i] != 0 {
                placed |= 1u64 << (map.fixed[i] - 1);
            }
            for (v, l) in map.cell_lits(i) {
                by_value[v as usize - 1].push((i, l));
            }
        }
        for (v, group) in by_value.iter().enumerate() {
            if placed >> v & 1 == 1 {
                continue;
            }
            ls.clear();
            ls.extend(group.iter().map(|&(_, l)| l));
            if enc.unit_at_least_one {
                f.add_clause(&ls);
            }
            if is_box && pairwise_boxes {
                // "Not both" for two cells of the box in different rows and columns; pairs in
                // one row or column already have their clause from that unit.
                encode::at_most_one_pairwise_where(&mut f, &ls, |a, b| {
                    let (i, j) = (group[a].0, group[b].0);
                    i / n != j / n && i % n != j % n
                });
            } else {
                at_most_one(&mut f, &ls, enc.at_most_one);
            }
        }
    }
    let mut givens = Vec::new();
    if mode == GivenMode::Assume {
        for (i, &v) in s.cells.iter().enumerate() {
            if v != 0 {
                givens.push(Given {
                    label: format!("{}={}", cell_name(i / n, i % n), v),
                    lit: map.lit(i, v).expect("every value has a literal"),
                });
            }
        }
        // Pencil marks: each candidate struck out is a given too (`r1c2<>5`), so a position
        // whose marks lost the true value names the marks that conflict.
        for i in 0..n * n {
            let mut struck = s.struck(i);
            while struck != 0 {
                let v = struck.trailing_zeros() as u8 + 1;
                struck &= struck - 1;
                givens.push(Given {
                    label: format!("{}<>{}", cell_name(i / n, i % n), v),
                    lit: !map.lit(i, v).expect("every value has a literal"),
                });
            }
        }
    }
    Model {
        formula: f,
        answer,
        one_hot: true,
        givens,
        normal: Vec::new(),
        map,
    }
}

/// Reads the grid of `s` from an assignment of its model.
pub fn decode(s: &Sudoku, map: &SudokuMap, a: &Assignment) -> Grid {
    debug_assert_eq!(s.cells.len(), map.fixed.len(), "a map of another puzzle");
    Grid(
        map.fixed
            .iter()
            .enumerate()
            .map(|(i, &fixed)| {
                map.cell_lits(i)
                    .find(|&(_, l)| a.lit(l))
                    .map_or(fixed, |(v, _)| v)
            })
            .collect(),
    )
}

/// The cell values that positive backbone literals stand for, plus the cells fixed before
/// encoding that are not givens (singles hold in every solution); givens left out.
pub fn forced(s: &Sudoku, map: &SudokuMap, lits: &[Lit]) -> Vec<CellValue> {
    let cell = |i: usize, v: u8| CellValue {
        row: i / s.size,
        col: i % s.size,
        value: v as i64,
    };
    let by_singles = map
        .fixed
        .iter()
        .enumerate()
        .filter(|&(i, &v)| v != 0 && s.cells[i] == 0)
        .map(|(i, &v)| cell(i, v));
    let by_backbone = lits
        .iter()
        .filter(|l| l.is_positive())
        .filter_map(|l| map.var_cell.get(l.var().index()))
        .filter(|&&(i, _)| s.cells[i as usize] == 0)
        .map(|&(i, v)| cell(i as usize, v));
    by_singles.chain(by_backbone).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{Session, Varisat};
    use std::collections::BTreeSet;

    fn puzzle(line: &str, br: usize, bc: usize) -> Sudoku {
        let n = br * bc;
        let mut s = Sudoku::empty(n, br, bc);
        for (i, ch) in line.chars().enumerate() {
            s.cells[i] = ch.to_digit(10).unwrap_or(0) as u8;
        }
        s
    }

    /// Every solution (up to `max`) of the puzzle under one encoding and given mode, as grids.
    fn solutions(s: &Sudoku, mode: GivenMode, enc: Encoding, max: usize) -> BTreeSet<Vec<u8>> {
        let m = build_with(s, mode, false, enc);
        let mut session =
            Session::new(Box::new(Varisat::new()), &m.formula, m.answer.clone(), true);
        let givens: Vec<Lit> = m.givens.iter().map(|g| g.lit).collect();
        session
            .solutions(max, &givens)
            .unwrap()
            .iter()
            .map(|a| decode(s, &m.map, a).0)
            .collect()
    }

    fn every_encoding() -> Vec<Encoding> {
        let mut out = vec![Encoding::CHOSEN, Encoding::FULL];
        for singles in [false, true] {
            for cell_at_most_one in [false, true] {
                for unit_at_least_one in [false, true] {
                    for (at_most_one, peers_once) in [
                        (AtMostOne::Pairwise, false),
                        (AtMostOne::Pairwise, true),
                        (AtMostOne::Ladder, false),
                        (AtMostOne::Auto, false),
                    ] {
                        if !cell_at_most_one && !unit_at_least_one {
                            continue; // not a complete model
                        }
                        for order_by_candidates in [false, true] {
                            out.push(Encoding {
                                singles,
                                cell_at_most_one,
                                unit_at_least_one,
                                at_most_one,
                                peers_once,
                                order_by_candidates,
                            });
                        }
                    }
                }
            }
        }
        out
    }

    #[test]
    fn every_encoding_has_the_same_solutions() {
        let cases = [
            (puzzle("................", 2, 2), 288),
            (puzzle("1...............", 2, 2), 72),
            (puzzle("12..34..........", 2, 2), usize::MAX),
            (puzzle("1.........2..3..", 2, 2), usize::MAX),
            (puzzle("12.....3.....4..", 2, 2), 0),
            (
                puzzle("123456456123.........2.....5.....4..", 2, 3),
                usize::MAX,
            ),
        ];
        for (s, expected) in &cases {
            let reference = solutions(s, GivenMode::Assume, Encoding::FULL, 400);
            assert!(reference.len() < 400, "all solutions are compared");
            if *expected != usize::MAX {
                assert_eq!(reference.len(), *expected, "{}", s.to_line());
            }
            for g in &reference {
                assert_eq!(crate::sudoku::rules::check(s, &Grid(g.clone())), Ok(()));
            }
            for enc in every_encoding() {
                for mode in [GivenMode::Fold, GivenMode::Assume] {
                    let got = solutions(s, mode, enc, 400);
                    assert!(
                        got == reference,
                        "{} {enc:?} {mode:?}: {} solutions, expected {}",
                        s.to_line(),
                        got.len(),
                        reference.len()
                    );
                }
            }
        }
    }

    #[test]
    fn singles_fill_what_they_force_and_find_contradictions() {
        // 4x4: r1 = 1 2 3 _, r2 = 3 _ _ _: r1c4 is a naked single (4), then more follow.
        let s = puzzle("123.3...........", 2, 2);
        let units = s.units();
        let (values, masks) = fold_singles(&s, &units).unwrap();
        assert_eq!(&values[..4], &[1, 2, 3, 4]);
        assert_eq!(values[5], 4, "r2c2 is the only place for 4 in box 1");
        assert!(values
            .iter()
            .zip(&masks)
            .all(|(&v, &m)| (v == 0) != (m == 0)));
        // Every filled value agrees with the only solutions there are.
        for g in solutions(&s, GivenMode::Assume, Encoding::FULL, 100) {
            for (i, &v) in values.iter().enumerate() {
                assert!(v == 0 || g[i] == v);
            }
        }
        // Equal givens in a row, and a cell left without candidates: no solution.
        assert!(fold_singles(&puzzle("1..1............", 2, 2), &units).is_none());
        assert!(fold_singles(&puzzle("12.....3.....4..", 2, 2), &units).is_none());
        let m = build(&puzzle("12.....3.....4..", 2, 2), GivenMode::Fold, false);
        assert_eq!(m.formula.num_vars(), 0);
        assert_eq!(m.formula.clauses().next(), Some(&[][..]));
    }

    #[test]
    fn forced_reports_singles_and_backbone_but_not_givens() {
        let s = puzzle("123.3...........", 2, 2);
        let m = build(&s, GivenMode::Fold, false);
        let cells = forced(&s, &m.map, &[]);
        assert!(cells.contains(&CellValue {
            row: 0,
            col: 3,
            value: 4
        }));
        assert!(cells.iter().all(|c| s.cells[c.row * 4 + c.col] == 0));
    }
}
