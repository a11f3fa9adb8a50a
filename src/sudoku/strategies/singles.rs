//! Singles: a unit's last open cell (full house), a value with one place left in a unit
//! (hidden single; easier in a box than in a line), a cell with one candidate left (naked
//! single).

use super::grid::{bit, Board, Found, Geometry, House};
use super::rating::base;

/// A unit with one open cell left.
pub fn full_house(b: &Board, f: &mut Found) {
    let g = &b.geo;
    for u in 0..3 * g.n {
        let mut open = g.units[u].iter().copied().filter(|&i| b.values[i] == 0);
        if let (Some(i), None) = (open.next(), open.next()) {
            if b.masks[i].count_ones() == 1 {
                let d = b.masks[i].trailing_zeros() as u8 + 1;
                let s = b.step(
                    "full house",
                    base::FULL_HOUSE,
                    b.cells_cv(&g.units[u]),
                    &[(i, d)],
                    &[],
                    format!(
                        "{}={d} is the last open cell of {}",
                        g.cell_name(i),
                        g.unit_name(u)
                    ),
                );
                if f.push(s) {
                    return;
                }
            }
        }
    }
}

/// The single place left for `d` in unit `u`, when there is one and `d` is still missing.
pub fn hidden_single_in(b: &Board, u: usize, d: u8) -> Option<usize> {
    let p = b.places(u, d);
    (p.count_ones() == 1).then(|| b.geo.cell_at(u, p.trailing_zeros() as usize))
}

/// A value with one place left in a unit: boxes first (easier to see), then rows and columns.
pub fn hidden_single(b: &Board, f: &mut Found) {
    let g = &b.geo;
    let n = g.n;
    let order = (2 * n..3 * n).chain(0..2 * n);
    for u in order {
        for d in 1..=n as u8 {
            if let Some(i) = hidden_single_in(b, u, d) {
                let rating = if g.house(u) == House::Box {
                    base::HIDDEN_SINGLE_BOX
                } else {
                    base::HIDDEN_SINGLE_LINE
                };
                let s = b.step(
                    "hidden single",
                    rating,
                    b.cells_cv(&g.units[u]),
                    &[(i, d)],
                    &[],
                    format!(
                        "{}={d}: the only place for {d} in {}",
                        g.cell_name(i),
                        g.unit_name(u)
                    ),
                );
                if f.push(s) {
                    return;
                }
            }
        }
    }
}

/// A cell with one candidate left.
pub fn naked_single(b: &Board, f: &mut Found) {
    for i in b.open() {
        if b.masks[i].count_ones() == 1 {
            let d = b.masks[i].trailing_zeros() as u8 + 1;
            let s = b.step(
                "naked single",
                base::NAKED_SINGLE,
                b.cells_cv(&[i]),
                &[(i, d)],
                &[],
                format!(
                    "{}={d}: the only candidate left in the cell",
                    b.geo.cell_name(i)
                ),
            );
            if f.push(s) {
                return;
            }
        }
    }
}

/// After `elims` on `b`, the first hidden single they create in one of `units` (all units of
/// the eliminated cells when `units` is empty): what makes a locked candidate or a hidden
/// subset "direct" in Sudoku Explainer's sense.
pub fn created_hidden_single(
    b: &Board,
    elims: &[(usize, u8)],
    units: &[usize],
) -> Option<(usize, u8, usize)> {
    let g = &b.geo;
    let mut units: Vec<usize> = if units.is_empty() {
        elims.iter().flat_map(|&(i, _)| g.cell_units[i]).collect()
    } else {
        units.to_vec()
    };
    crate::sort::by_key(&mut units, |&u| (g.house(u) != House::Box, u));
    units.dedup();
    for u in units {
        let kind = u / g.n;
        for d in 1..=g.n as u8 {
            let before = b.places(u, d);
            if before.count_ones() < 2 {
                continue;
            }
            // The places the eliminations take away from `d` in `u`.
            let gone = elims
                .iter()
                .filter(|&&(i, e)| e == d && g.cell_units[i][kind] == u)
                .fold(0u64, |m, &(i, _)| m | (1u64 << g.cell_pos[i][kind]));
            let after = before & !gone;
            if after.count_ones() == 1 {
                let i = g.cell_at(u, after.trailing_zeros() as usize);
                debug_assert!(b.masks[i] & bit(d) != 0);
                return Some((i, d, u));
            }
        }
    }
    None
}

/// Singles played on bit masks without steps or a [`Board`] (building a board per try cost the
/// generator more than the solves it saved): the values, and the values each unit holds.
///
/// What the generator learns from it without a solve or a grade: a given that singles place
/// from the other givens can go with the solutions unchanged (the proof SAT would find by
/// propagation alone); and the engine grades a puzzle that singles solve at most a naked
/// single's [`base::NAKED_SINGLE`] (hidden singles alone: at most
/// [`base::HIDDEN_SINGLE_LINE`]), since a single stays available whatever easier step the
/// engine takes first, and the engine always takes the easiest step.
pub struct Singles<'g> {
    geo: &'g Geometry,
    /// Placed values, 0 open.
    pub values: Vec<u8>,
    /// The values (bit `v-1`) each unit holds.
    held: Vec<u64>,
}

impl<'g> Singles<'g> {
    /// The puzzle of `values` (0 open), which must have a solution.
    pub fn new(geo: &'g Geometry, values: &[u8]) -> Singles<'g> {
        let mut s = Singles {
            geo,
            values: vec![0; values.len()],
            held: vec![0; 3 * geo.n],
        };
        for (i, &v) in values.iter().enumerate().filter(|(_, &v)| v != 0) {
            s.place(i, v);
        }
        s
    }

    fn place(&mut self, i: usize, v: u8) {
        self.values[i] = v;
        for u in self.geo.cell_units[i] {
            self.held[u] |= bit(v);
        }
    }

    /// The candidates of open cell `i`: the values none of its units holds.
    fn candidates(&self, i: usize) -> u64 {
        let [r, c, b] = self.geo.cell_units[i];
        let full = u64::MAX >> (64 - self.geo.n);
        full & !(self.held[r] | self.held[c] | self.held[b])
    }

    /// Plays hidden singles, and naked singles too when `naked`, until none is left or cell
    /// `until` holds a value. True when `until` holds one (without `until`: when every cell
    /// does).
    pub fn play(&mut self, naked: bool, until: Option<usize>) -> bool {
        let geo = self.geo;
        if let Some(i) = until.filter(|&i| self.values[i] == 0) {
            // Most often the cell is a single at once: no sweep then.
            let m = self.candidates(i);
            if m.count_ones() == 1 {
                self.place(i, m.trailing_zeros() as u8 + 1);
                return true;
            }
            for u in geo.cell_units[i] {
                let elsewhere = geo.units[u]
                    .iter()
                    .filter(|&&j| j != i && self.values[j] == 0)
                    .fold(0, |all, &j| all | self.candidates(j));
                let only = m & !elsewhere;
                if only != 0 {
                    self.place(i, only.trailing_zeros() as u8 + 1);
                    return true;
                }
            }
        }
        let done = |s: &Singles| match until {
            Some(i) => s.values[i] != 0,
            None => s.values.iter().all(|&v| v != 0),
        };
        loop {
            let mut progress = false;
            if naked {
                for i in 0..self.values.len() {
                    if self.values[i] == 0 {
                        let m = self.candidates(i);
                        if m.count_ones() == 1 {
                            self.place(i, m.trailing_zeros() as u8 + 1);
                            progress = true;
                        }
                    }
                }
            }
            for cells in &geo.units {
                let (mut once, mut twice) = (0u64, 0u64);
                for &i in cells.iter().filter(|&&i| self.values[i] == 0) {
                    let m = self.candidates(i);
                    twice |= once & m;
                    once |= m;
                }
                let mut hidden = once & !twice;
                while hidden != 0 {
                    let v = hidden.trailing_zeros() as u8 + 1;
                    hidden &= hidden - 1;
                    let at = cells
                        .iter()
                        .copied()
                        .find(|&i| self.values[i] == 0 && self.candidates(i) & bit(v) != 0);
                    if let Some(i) = at {
                        self.place(i, v);
                        progress = true;
                    }
                }
            }
            if !progress || done(self) {
                return done(self);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::Sudoku;
    use super::*;

    fn sudoku(line: &str) -> Sudoku {
        let mut s = Sudoku::empty(9, 3, 3);
        for (i, ch) in line.chars().enumerate() {
            s.cells[i] = ch.to_digit(10).unwrap_or(0) as u8;
        }
        s
    }

    #[test]
    fn finds_each_single() {
        let s = sudoku(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        );
        let b = Board::new(&s);
        let mut f = Found::first();
        hidden_single(&b, &mut f);
        assert_eq!(f.steps[0].text, "r1c6=8: the only place for 8 in box 2");
        assert_eq!(f.steps[0].rating, 1.2);
        let mut f = Found::every();
        naked_single(&b, &mut f);
        assert_eq!(
            f.steps[0].text,
            "r5c5=5: the only candidate left in the cell"
        );
        let mut full = Board::new(&sudoku(
            "534678912672195348198342567859761423426853791713924856961537284287419635345286.79",
        ));
        let mut f = Found::first();
        full_house(&full, &mut f);
        assert_eq!(f.steps[0].text, "r9c7=1 is the last open cell of row 9");
        full.apply(&f.steps[0]);
        assert!(full.solved());
    }
}
