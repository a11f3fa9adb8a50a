//! The Sudoku CNF model (see `models/sudoku.md` for the clause families, their counts and the
//! measurements behind the choices).
//!
//! Direct encoding: one variable `rXcY=V` per open cell and candidate value. With givens
//! folded ([`GivenMode::Fold`]), the givens' eliminations and then the naked and hidden singles,
//! locked candidates and pairs they imply are applied before encoding ([`fold_basics`]): cells those
//! fill get no variables, a cell's variables are its remaining candidates, and units only
//! constrain the values they still miss. This is a sound simplification (every solution of the
//! puzzle agrees with every single and every elimination), so the folded model has exactly the
//! puzzle's solutions; the SAT solver decides everything else. Clauses: each open cell takes at least one candidate; each unit holds each
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
    /// In [`GivenMode::Fold`], also fill the naked and hidden singles the givens imply, and
    /// strike the candidates locked candidates (pointing and claiming) and naked and hidden
    /// pairs rule out.
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
    let (across, bc) = (n / s.box_cols, s.box_cols);
    // The box of each cell of a row, as an offset from the first box of the row's band.
    let box_in_band: Vec<usize> = (0..n).map(|c| c / bc).collect();
    let mut row = vec![0u64; n];
    let mut col = vec![0u64; n];
    let mut bx = vec![0u64; n];
    for (r, in_row) in row.iter_mut().enumerate() {
        let band = (r / s.box_rows) * across;
        for c in 0..n {
            let v = s.cells[r * n + c];
            if v != 0 {
                let bit = 1u64 << (v - 1);
                *in_row |= bit;
                col[c] |= bit;
                bx[band + box_in_band[c]] |= bit;
            }
        }
    }
    let mut masks = vec![0u64; n * n];
    for (r, &in_row) in row.iter().enumerate() {
        let band = (r / s.box_rows) * across;
        for c in 0..n {
            let i = r * n + c;
            if s.cells[i] == 0 {
                masks[i] = full & !(in_row | col[c] | bx[band + box_in_band[c]]);
                if s.marks.is_some() {
                    masks[i] &= !s.struck(i);
                }
            }
        }
    }
    masks
}

/// The grid after the givens and every naked and hidden single, locked candidate and naked and
/// hidden pair they imply: the values (givens, singles, 0 for still open) and the candidate masks of the open
/// cells (0 for a filled cell). `None` when these run into a contradiction (two equal givens in
/// a unit, an open cell without candidates, or a value with no place left in a unit): then the
/// puzzle has no solution.
///
/// Sound: a naked single (a cell with one candidate) and a hidden single (a value with one
/// place in a unit) hold in every solution, and a candidate struck by locked candidates or a
/// pair is in none, so the puzzle and the folded grid have the same solutions. Locked
/// candidates and pairs were added for speed: the whole `check` of 300 17-clue Sudokus takes
/// 0.60x the instructions with them, of 300 top1465 puzzles 0.48x (BENCHMARKS.md). Cheaper
/// techniques run first; a pass of the next runs only when they find nothing.
pub fn fold_basics(s: &Sudoku, units: &[Vec<usize>]) -> Option<(Vec<u8>, Vec<u64>)> {
    let n = s.size;
    let full = full_mask(n);
    let mut values = s.cells.clone();
    // The values each unit holds (the givens, then the singles placed), kept up to date so
    // the hidden singles' search reads only masks. Two equal givens in a unit: no solution
    // (the parser refuses them, but a puzzle built in code may have them).
    let mut placed = vec![0u64; units.len()];
    for (unit, held) in units.iter().zip(placed.iter_mut()) {
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
        *held = seen;
    }
    // The units of each cell, for removing a placed value from its peers.
    let mut cell_units = vec![[0u32; 3]; n * n];
    let mut fill = vec![0u8; n * n];
    for (u, unit) in units.iter().enumerate() {
        for &i in unit {
            cell_units[i][fill[i] as usize] = u as u32;
            fill[i] += 1;
        }
    }
    // Without pencil marks an open cell's candidates are what its three units do not hold
    // ([`candidates`], from the sums just made).
    let mut masks = if s.marks.is_some() {
        candidates(s)
    } else {
        (0..n * n)
            .map(|i| {
                let [a, b, c] = cell_units[i];
                let seen = placed[a as usize] | placed[b as usize] | placed[c as usize];
                if values[i] == 0 {
                    full & !seen
                } else {
                    0
                }
            })
            .collect()
    };
    // Work lists: open cells that may have one candidate (or none) left, and units whose
    // candidates changed since they were last searched for a hidden single (bit `HIDDEN`), for
    // locked candidates (bit `LOCKED`) and for pairs (bit `PAIRS`).
    const HIDDEN: u8 = 1;
    const PAIRS: u8 = 2;
    const LOCKED: u8 = 4;
    const ALL: u8 = HIDDEN | PAIRS | LOCKED;
    let mut naked: Vec<usize> = (0..n * n).filter(|&i| values[i] == 0).collect();
    let mut dirty = vec![ALL; units.len()];
    // Scratch for the passes below, made once.
    let mut which: Vec<usize> = Vec::with_capacity(units.len());
    let mut segments: Vec<u64> = Vec::new();
    loop {
        // Naked singles, each placement queueing the peers it leaves with one candidate.
        while let Some(i) = naked.pop() {
            if values[i] != 0 {
                continue;
            }
            let m = masks[i];
            if m & m.wrapping_sub(1) != 0 || m == 0 {
                if m == 0 {
                    return None;
                }
                continue;
            }
            values[i] = m.trailing_zeros() as u8 + 1;
            masks[i] = 0;
            for &u in &cell_units[i] {
                let u = u as usize;
                placed[u] |= m;
                dirty[u] = ALL;
                for &j in &units[u] {
                    let left = masks[j];
                    if left & m != 0 {
                        let left = left & !m;
                        masks[j] = left;
                        if left & left.wrapping_sub(1) == 0 {
                            naked.push(j);
                        }
                        for &w in &cell_units[j] {
                            dirty[w as usize] = ALL;
                        }
                    }
                }
            }
        }
        // Hidden singles in every unit that changed: each found leaves its cell with that one
        // candidate, to be placed as a naked single. (A filled cell's mask is 0, so the masks
        // alone count a value's places; a cell given its hidden single this round still counts
        // for that value only.)
        let mut found = false;
        for (u, unit) in units.iter().enumerate() {
            if dirty[u] & HIDDEN == 0 {
                continue;
            }
            dirty[u] &= !HIDDEN;
            let (mut once, mut twice) = (0u64, 0u64);
            for &i in unit {
                let m = masks[i];
                twice |= once & m;
                once |= m;
            }
            let missing = full & !placed[u];
            if missing & !once != 0 {
                return None;
            }
            let mut hidden = missing & once & !twice;
            while hidden != 0 {
                let bit = hidden & hidden.wrapping_neg();
                hidden &= hidden - 1;
                // None when an earlier value of this unit took its only cell: no solution.
                let &i = unit.iter().find(|&&i| masks[i] & bit != 0)?;
                masks[i] = bit;
                naked.push(i);
                found = true;
            }
        }
        if found {
            continue;
        }
        // A cell that lost a candidate: queued as a possible naked single, its units flagged.
        let changed = |naked: &mut Vec<usize>, dirty: &mut [u8], j: usize| {
            naked.push(j);
            for &w in &cell_units[j] {
                dirty[w as usize] = ALL;
            }
        };
        // Locked candidates, in the boxes where a box, row or column through them changed since
        // they last looked.
        let (br, bc) = (s.box_rows, s.box_cols);
        let across = n / bc;
        which.clear();
        let (mut r0, mut c0) = (0, 0);
        for b in 0..n {
            if dirty[2 * n + b] & LOCKED != 0
                || dirty[r0..r0 + br].iter().any(|&d| d & LOCKED != 0)
                || dirty[n + c0..n + c0 + bc].iter().any(|&d| d & LOCKED != 0)
            {
                which.push(b);
            }
            c0 += bc;
            if c0 == n {
                c0 = 0;
                r0 += br;
            }
        }
        for d in dirty.iter_mut() {
            *d &= !LOCKED;
        }
        debug_assert!(which.iter().all(|&b| b < across * (n / br)));
        if locked_candidates(s, &which, &mut masks, &mut segments, |j| {
            changed(&mut naked, &mut dirty, j)
        }) {
            continue;
        }
        // Pairs, in the units changed since pairs last looked at them.
        which.clear();
        for (u, d) in dirty.iter_mut().enumerate() {
            if *d & PAIRS != 0 {
                *d &= !PAIRS;
                which.push(u);
            }
        }
        if !pairs(units, &which, &mut masks, |j| {
            changed(&mut naked, &mut dirty, j)
        }) {
            return Some((values, masks));
        }
    }
}

/// Naked and hidden pairs, once over the units `which` (indices into `units`): two open cells
/// of a unit with the same two candidates take those two values, which leave the unit's other
/// cells (naked pair); two values whose only places in a unit are the same two cells fill
/// them, which lose every other candidate (hidden pair). `changed` hears of every cell that lost a candidate. Whether
/// anything changed.
fn pairs(
    units: &[Vec<usize>],
    which: &[usize],
    masks: &mut [u64],
    mut changed: impl FnMut(usize),
) -> bool {
    let mut any = false;
    // Each value's places in a unit, as a mask of positions (cleared unit by unit, for the
    // values that need them).
    let mut places = [0u64; 64];
    for unit in which.iter().map(|&u| &units[u]) {
        for (a, &i) in unit.iter().enumerate() {
            let m = masks[i];
            if !two_bits(m) {
                continue;
            }
            let Some(&j) = unit[a + 1..].iter().find(|&&j| masks[j] == m) else {
                continue;
            };
            for &k in unit {
                if k != i && k != j && masks[k] & m != 0 {
                    masks[k] &= !m;
                    changed(k);
                    any = true;
                }
            }
        }
        // Only values with exactly two places can make a hidden pair: counted for all values
        // at once, and most units have fewer than two such values.
        let (mut once, mut twice, mut more) = (0u64, 0u64, 0u64);
        for &i in unit {
            let m = masks[i];
            more |= twice & m;
            twice |= once & m;
            once |= m;
        }
        let two = twice & !more;
        if two & two.wrapping_sub(1) == 0 {
            continue;
        }
        let mut vs = two;
        while vs != 0 {
            places[vs.trailing_zeros() as usize] = 0;
            vs &= vs - 1;
        }
        for (a, &i) in unit.iter().enumerate() {
            let mut m = masks[i] & two;
            while m != 0 {
                places[m.trailing_zeros() as usize] |= 1 << a;
                m &= m - 1;
            }
        }
        let mut vs = two;
        while vs != 0 {
            let v = vs.trailing_zeros() as usize;
            vs &= vs - 1;
            let mut ws = vs;
            while ws != 0 {
                let w = ws.trailing_zeros() as usize;
                ws &= ws - 1;
                if places[w] == places[v] {
                    let keep = (1u64 << v) | (1u64 << w);
                    let mut at = places[v];
                    while at != 0 {
                        let i = unit[at.trailing_zeros() as usize];
                        at &= at - 1;
                        if masks[i] & !keep != 0 {
                            masks[i] &= keep;
                            changed(i);
                            any = true;
                        }
                    }
                }
            }
        }
    }
    any
}

/// Whether `m` has exactly two bits set (without a population count, which the baseline
/// x86-64 target computes in a dozen instructions).
fn two_bits(m: u64) -> bool {
    let rest = m & m.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}

/// Locked candidates, once over the boxes `which`: a value whose candidates in a box all lie in one
/// row (or column) leaves the rest of that row (pointing), and a value whose candidates in a
/// row (or column) all lie in one box leaves the rest of that box (claiming). `changed` hears
/// of every cell that lost a candidate. Whether anything changed.
///
/// Sound on a grid whose placed values are already struck from their peers' masks (as
/// [`fold_basics`] keeps it): a value missing from a box has its place among the box's
/// candidates, so a box's candidates of it in one row put it in that row.
fn locked_candidates(
    s: &Sudoku,
    which: &[usize],
    masks: &mut [u64],
    segments: &mut Vec<u64>,
    mut changed: impl FnMut(usize),
) -> bool {
    let n = s.size;
    let (br, bc) = (s.box_rows, s.box_cols);
    // Boxes across and down; each row split into `across` segments of `bc` cells (one per box
    // it crosses), each column into `down` segments of `br` cells: the candidates of each.
    // Row `r`'s segment `k` is `row_seg[r * across + k]`; column `c`'s segment `k` is
    // `col_seg[k * n + c]` (band by band, so a row of masks adds to a band's in one sweep).
    let (across, down) = (n / bc, n / br);
    segments.clear();
    segments.resize(n * across + n * down, 0);
    let (row_seg, col_seg) = segments.split_at_mut(n * across);
    for (r, (segs, row)) in row_seg
        .chunks_exact_mut(across)
        .zip(masks.chunks_exact(n))
        .enumerate()
    {
        for (seg, cells) in segs.iter_mut().zip(row.chunks_exact(bc)) {
            *seg = cells.iter().fold(0, |m, &x| m | x);
        }
        let band = &mut col_seg[(r / br) * n..(r / br + 1) * n];
        for (seg, &x) in band.iter_mut().zip(row) {
            *seg |= x;
        }
    }
    // Segments are not updated by this pass's strikes: they may only hold more candidates than
    // the cells still do, which can hide a lock, never invent one (on a grid that still has a
    // solution).
    let mut any = false;
    let mut strike = |masks: &mut [u64], j: usize, gone: u64| {
        if masks[j] & gone != 0 {
            masks[j] &= !gone;
            changed(j);
            any = true;
        }
    };
    for &b in which {
        let (band_r, band_c) = (b / across, b % across);
        let (rows, cols) = (
            band_r * br..(band_r + 1) * br,
            band_c * bc..(band_c + 1) * bc,
        );
        // The box's rows: a row's segment in the box against the box's other rows and the
        // row's other segments.
        for r in rows.clone() {
            let line = &row_seg[r * across..(r + 1) * across];
            let inside = line[band_c];
            let mut rest_of_box = 0;
            for o in rows.clone() {
                if o != r {
                    rest_of_box |= row_seg[o * across + band_c];
                }
            }
            let mut rest_of_line = 0;
            for (k, &seg) in line.iter().enumerate() {
                if k != band_c {
                    rest_of_line |= seg;
                }
            }
            let pointing = inside & !rest_of_box & rest_of_line;
            if pointing != 0 {
                for c in (0..cols.start).chain(cols.end..n) {
                    strike(masks, r * n + c, pointing);
                }
            }
            let claiming = inside & !rest_of_line & rest_of_box;
            if claiming != 0 {
                for o in rows.clone() {
                    if o != r {
                        for c in cols.clone() {
                            strike(masks, o * n + c, claiming);
                        }
                    }
                }
            }
        }
        // The box's columns, the same way.
        for c in cols.clone() {
            let inside = col_seg[band_r * n + c];
            let mut rest_of_box = 0;
            for o in cols.clone() {
                if o != c {
                    rest_of_box |= col_seg[band_r * n + o];
                }
            }
            let mut rest_of_line = 0;
            for k in 0..down {
                if k != band_r {
                    rest_of_line |= col_seg[k * n + c];
                }
            }
            let pointing = inside & !rest_of_box & rest_of_line;
            if pointing != 0 {
                for r in (0..rows.start).chain(rows.end..n) {
                    strike(masks, r * n + c, pointing);
                }
            }
            let claiming = inside & !rest_of_line & rest_of_box;
            if claiming != 0 {
                for o in cols.clone() {
                    if o != c {
                        for r in rows.clone() {
                            strike(masks, r * n + o, claiming);
                        }
                    }
                }
            }
        }
    }
    any
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
    let units = s.shared_units();
    let (fixed, masks): (Vec<u8>, Vec<u64>) = match mode {
        GivenMode::Fold if enc.singles => match fold_basics(s, &units) {
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
        let (first, count) = map.cell_vars[i];
        ls.clear();
        ls.extend((first..first + count).map(|x| Var::from_index(x as usize).pos()));
        f.add_clause(&ls);
        if enc.cell_at_most_one {
            at_most_one(&mut f, &ls, enc.at_most_one);
        }
    }
    // Each unit holds each value it still misses exactly once (at least once if chosen).
    let pairwise_boxes = enc.peers_once && enc.at_most_one == AtMostOne::Pairwise;
    // The unit's cells that have candidate v (their place in the unit, and their literal),
    // value by value: v's are `by_value[(v - 1) * n..]`, `count[v - 1]` of them.
    let mut by_value: Vec<(u32, Lit)> = vec![(0, Var::from_index(0).pos()); n * n];
    let mut count: Vec<usize> = vec![0; n];
    // The row and column in its box of a box's `k`th cell (as [`Sudoku::units`] lists them,
    // row by row): without a division per pair of cells.
    let in_box: Vec<(usize, usize)> = (0..n).map(|k| (k / s.box_cols, k % s.box_cols)).collect();
    for (u, unit) in units.iter().enumerate() {
        let is_box = u >= 2 * n;
        let mut placed: u64 = 0;
        count.fill(0);
        for (k, &i) in unit.iter().enumerate() {
            if map.fixed[i] != 0 {
                placed |= 1u64 << (map.fixed[i] - 1);
            }
            let (first, vars) = map.cell_vars[i];
            for x in first as usize..(first + vars) as usize {
                let v = map.var_cell[x].1 as usize - 1;
                by_value[v * n + count[v]] = (k as u32, Var::from_index(x).pos());
                count[v] += 1;
            }
        }
        for (v, &len) in count.iter().enumerate() {
            if placed >> v & 1 == 1 {
                continue;
            }
            let group = &by_value[v * n..v * n + len];
            ls.clear();
            ls.extend(group.iter().map(|&(_, l)| l));
            if enc.unit_at_least_one {
                f.add_clause(&ls);
            }
            if is_box && pairwise_boxes {
                // "Not both" for two cells of the box in different rows and columns; pairs in
                // one row or column already have their clause from that unit.
                encode::at_most_one_pairwise_where(&mut f, &ls, |a, b| {
                    let (x, y) = (in_box[group[a].0 as usize], in_box[group[b].0 as usize]);
                    x.0 != y.0 && x.1 != y.1
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
        let (values, masks) = fold_basics(&s, &units).unwrap();
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
        assert!(fold_basics(&puzzle("1..1............", 2, 2), &units).is_none());
        assert!(fold_basics(&puzzle("12.....3.....4..", 2, 2), &units).is_none());
        let m = build(&puzzle("12.....3.....4..", 2, 2), GivenMode::Fold, false);
        assert_eq!(m.formula.num_vars(), 0);
        assert_eq!(m.formula.clauses().next(), Some(&[][..]));
    }

    #[test]
    fn folding_keeps_every_solution_of_random_grids() {
        // Random givens on 4x4 (2x2 boxes) and 6x6 (2x3 and 3x2 boxes): whatever the fold
        // fills or strikes agrees with every solution, and it finds no solution only when
        // there is none.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let (mut struck, mut checked) = (0, 0);
        for (br, bc, givens, tries) in
            [(2, 2, 2..=6, 300), (2, 3, 8..=14, 150), (3, 2, 8..=14, 150)]
        {
            let n = br * bc;
            for _ in 0..tries {
                let mut s = Sudoku::empty(n, br, bc);
                for _ in 0..rng.gen_range(givens.clone()) {
                    let i = rng.gen_range(0..n * n);
                    s.cells[i] = rng.gen_range(1..=n as u8);
                }
                let all = solutions(&s, GivenMode::Assume, Encoding::FULL, 500);
                if all.len() == 500 {
                    continue; // too many to compare
                }
                checked += 1;
                match fold_basics(&s, &s.units()) {
                    None => assert!(all.is_empty(), "{}", s.to_line()),
                    Some((values, masks)) => {
                        for g in &all {
                            for i in 0..n * n {
                                if values[i] != 0 {
                                    assert_eq!(g[i], values[i], "{}", s.to_line());
                                } else {
                                    assert!(masks[i] >> (g[i] - 1) & 1 == 1, "{}", s.to_line());
                                }
                            }
                        }
                        let plain = candidates(&s);
                        struck += (0..n * n)
                            .filter(|&i| values[i] == 0 && masks[i] != plain[i])
                            .count();
                    }
                }
            }
        }
        assert!(checked > 400, "{checked} grids compared");
        assert!(
            struck > 0,
            "the folding struck candidates in some open cells"
        );
    }

    #[test]
    fn locked_candidates_strike_the_rest_of_the_line() {
        // 4x4, box 1 = r1c1 r1c2 r2c1 r2c2. Givens r2c1 = 1, r2c2 = 2 put the box's 3 and 4 in
        // row 1 (pointing), so r1c3 and r1c4 cannot be 3 or 4: they are 1 and 2.
        let s = puzzle("....12..........", 2, 2);
        let mut masks = candidates(&s);
        assert_eq!(masks[2], 0b1111);
        assert!(locked_candidates(
            &s,
            &[0, 1, 2, 3],
            &mut masks,
            &mut Vec::new(),
            |_| {}
        ));
        assert_eq!(masks[2], 0b0011);
        assert_eq!(masks[3], 0b0011);
    }

    #[test]
    fn two_bits_is_a_population_count_of_two() {
        let words =
            (0u64..1 << 12).chain((0..64).flat_map(|a| (0..64).map(move |b| 1u64 << a | 1 << b)));
        for m in words.chain([u64::MAX, u64::MAX - 1, 3 << 62, 1 << 63]) {
            assert_eq!(two_bits(m), m.count_ones() == 2, "{m:#x}");
        }
    }

    #[test]
    fn pairs_strike_naked_and_hidden_pairs() {
        // A row of 4x4 as one unit: cells 0 and 1 both {1, 2} (naked pair) strike 1 and 2
        // from cells 2 and 3.
        let unit = vec![vec![0, 1, 2, 3]];
        let mut masks = vec![0b0011, 0b0011, 0b0111, 0b1011];
        assert!(pairs(&unit, &[0], &mut masks, |_| {}));
        assert_eq!(masks, vec![0b0011, 0b0011, 0b0100, 0b1000]);
        // A unit of six: values 3 and 4 only in cells 0 and 1 (hidden pair, and no naked
        // one): those cells keep just 3 and 4.
        let six = vec![(0..6).collect::<Vec<usize>>()];
        let mut masks = vec![0b001101, 0b001111, 0b110011, 0b110011, 0b110001, 0b110010];
        let mut heard = Vec::new();
        assert!(pairs(&six, &[0], &mut masks, |i| heard.push(i)));
        assert_eq!(
            masks,
            vec![0b001100, 0b001100, 0b110011, 0b110011, 0b110001, 0b110010]
        );
        assert_eq!(heard, vec![0, 1]);
        // Nothing to do: no change reported.
        let mut masks = vec![0b0011, 0b0110, 0b1100, 0b1001];
        assert!(!pairs(&unit, &[0], &mut masks, |_| {}));
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
