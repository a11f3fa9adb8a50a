//! The candidates grid every technique reads: the geometry of a Sudoku (units, peers, names
//! in players' form: `r4c9`, `row 4`, `column 9`, `box 6`), the pencil marks with, for every
//! unit and value, the places left for it, and the helpers that turn what a technique found into
//! a [`Step`].

use super::super::Sudoku;
use crate::explain::Step;
use crate::puzzle::CellValue;
use std::sync::Arc;

/// The shape of a grid: units and how cells sit in them. Built once per puzzle and shared.
#[derive(Debug)]
pub struct Geometry {
    pub n: usize,
    pub box_rows: usize,
    pub box_cols: usize,
    /// Rows `0..n`, columns `n..2n`, boxes `2n..3n`, each as its cells (row-major indices).
    pub units: Vec<Vec<usize>>,
    /// For each cell: its row, column and box unit.
    pub cell_units: Vec<[usize; 3]>,
    /// For each cell: its place (0-based) inside its row, column and box unit.
    pub cell_pos: Vec<[usize; 3]>,
    /// For each cell: the other cells of its units.
    pub peers: Vec<Vec<usize>>,
}

/// Which kind of house a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum House {
    Row,
    Column,
    Box,
}

impl Geometry {
    pub fn new(n: usize, box_rows: usize, box_cols: usize) -> Geometry {
        let s = Sudoku::empty(n, box_rows, box_cols);
        let units = s.units();
        let mut cell_units = vec![[0; 3]; n * n];
        let mut cell_pos = vec![[0; 3]; n * n];
        for (u, cells) in units.iter().enumerate() {
            for (k, &i) in cells.iter().enumerate() {
                cell_units[i][u / n] = u;
                cell_pos[i][u / n] = k;
            }
        }
        let peers = (0..n * n)
            .map(|i| {
                let mut p: Vec<usize> = cell_units[i]
                    .iter()
                    .flat_map(|&u| units[u].iter().copied())
                    .filter(|&j| j != i)
                    .collect();
                crate::sort::all(&mut p);
                p.dedup();
                p
            })
            .collect();
        Geometry {
            n,
            box_rows,
            box_cols,
            units,
            cell_units,
            cell_pos,
            peers,
        }
    }

    /// [`Geometry::new`], shared: the geometry of the shape asked for last on this thread is
    /// kept (as [`Sudoku::shared_units`] keeps units), since grading during generation makes a
    /// board per candidate puzzle, and building the geometry each time (its peers sorted cell
    /// by cell) was 16% of the instructions of `generate sudoku --difficulty expert`.
    pub fn shared(n: usize, box_rows: usize, box_cols: usize) -> Arc<Geometry> {
        thread_local! {
            static LAST: std::cell::RefCell<Option<Arc<Geometry>>> =
                const { std::cell::RefCell::new(None) };
        }
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            match &*last {
                Some(g) if (g.n, g.box_rows, g.box_cols) == (n, box_rows, box_cols) => g.clone(),
                _ => {
                    let g = Arc::new(Geometry::new(n, box_rows, box_cols));
                    *last = Some(g.clone());
                    g
                }
            }
        })
    }

    pub fn row(&self, i: usize) -> usize {
        i / self.n
    }

    pub fn col(&self, i: usize) -> usize {
        i % self.n
    }

    /// The box number (0-based) of a cell.
    pub fn box_of(&self, i: usize) -> usize {
        self.cell_units[i][2] - 2 * self.n
    }

    /// True when two different cells share a unit.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        a != b && {
            let (ua, ub) = (&self.cell_units[a], &self.cell_units[b]);
            ua[0] == ub[0] || ua[1] == ub[1] || ua[2] == ub[2]
        }
    }

    pub fn house(&self, u: usize) -> House {
        match u / self.n {
            0 => House::Row,
            1 => House::Column,
            _ => House::Box,
        }
    }

    /// `row 4`, `column 9`, `box 6` (1-based).
    pub fn unit_name(&self, u: usize) -> String {
        let word = match self.house(u) {
            House::Row => "row",
            House::Column => "column",
            House::Box => "box",
        };
        format!("{word} {}", u % self.n + 1)
    }

    /// `r4c9`.
    pub fn cell_name(&self, i: usize) -> String {
        format!("r{}c{}", i / self.n + 1, i % self.n + 1)
    }

    /// Cell names joined by `, `.
    pub fn cell_list(&self, cells: &[usize]) -> String {
        cells
            .iter()
            .map(|&i| self.cell_name(i))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The cell at a unit's place `k`.
    pub fn cell_at(&self, u: usize, k: usize) -> usize {
        self.units[u][k]
    }

    /// The cells of a unit whose places are set in `places`.
    pub fn cells_of(&self, u: usize, places: u64) -> Vec<usize> {
        bits(places).map(|k| self.units[u][k]).collect()
    }

    /// The units both cells belong to.
    pub fn common_units(&self, a: usize, b: usize) -> Vec<usize> {
        (0..3)
            .filter(|&k| self.cell_units[a][k] == self.cell_units[b][k])
            .map(|k| self.cell_units[a][k])
            .collect()
    }

    /// The cells (other than those given) that see every cell of `cells`.
    pub fn seen_by_all(&self, cells: &[usize]) -> Vec<usize> {
        let Some((&first, rest)) = cells.split_first() else {
            return Vec::new();
        };
        self.peers[first]
            .iter()
            .copied()
            .filter(|&j| !cells.contains(&j) && rest.iter().all(|&c| self.sees(c, j)))
            .collect()
    }
}

/// The set bits of a mask, lowest first.
pub fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(b)
        }
    })
}

/// The values (1-based) of a candidate mask.
pub fn digits(m: u64) -> impl Iterator<Item = u8> {
    bits(m).map(|b| b as u8 + 1)
}

/// The bit of value `d`.
pub fn bit(d: u8) -> u64 {
    1u64 << (d - 1)
}

/// Values joined by `/` (`3/7`).
pub fn digit_list(m: u64, sep: &str) -> String {
    digits(m)
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// Pencil marks: the values placed and the candidates left in every open cell, with the places
/// left for every value in every unit kept up to date.
#[derive(Clone, Debug)]
pub struct Board {
    pub geo: Arc<Geometry>,
    /// Placed values (given or solved), 0 for open cells.
    pub values: Vec<u8>,
    /// True for a given (a value placed by [`Board::with_values`], not by a step): avoidable
    /// rectangles are made of placed values that are not givens.
    pub givens: Vec<bool>,
    /// Bit `v-1` set when `v` is still possible (0 for a placed cell).
    pub masks: Vec<u64>,
    /// `places[u * n + d - 1]`: the places (bits of the unit's cell order) left for `d` in `u`.
    places: Vec<u64>,
}

impl Board {
    /// The candidates left by the givens of `s` and, when it has them, its pencil marks.
    pub fn new(s: &Sudoku) -> Board {
        let geo = Geometry::shared(s.size, s.box_rows, s.box_cols);
        let mut b = Board::with_values(geo, &s.cells);
        for i in 0..s.cells.len() {
            for d in digits(s.struck(i)) {
                b.eliminate(i, d);
            }
        }
        b
    }

    /// The candidates left by `values` (0 open) on a known geometry.
    pub fn with_values(geo: Arc<Geometry>, values: &[u8]) -> Board {
        let n = geo.n;
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut b = Board {
            values: vec![0; n * n],
            givens: values.iter().map(|&v| v != 0).collect(),
            masks: vec![full; n * n],
            places: vec![0; 3 * n * n],
            geo,
        };
        for u in 0..3 * n {
            for d in 0..n {
                b.places[u * n + d] = full;
            }
        }
        for (i, &v) in values.iter().enumerate() {
            if v != 0 {
                b.place(i, v);
            }
        }
        b
    }

    pub fn n(&self) -> usize {
        self.geo.n
    }

    /// True when `d` is a candidate of open cell `i`.
    pub fn has(&self, i: usize, d: u8) -> bool {
        self.masks[i] & bit(d) != 0
    }

    /// The places (bits of the unit's cell order) left for `d` in unit `u`.
    pub fn places(&self, u: usize, d: u8) -> u64 {
        self.places[u * self.geo.n + d as usize - 1]
    }

    /// The cells of unit `u` where `d` can still go.
    pub fn cells_for(&self, u: usize, d: u8) -> Vec<usize> {
        self.geo.cells_of(u, self.places(u, d))
    }

    /// The open cells.
    pub fn open(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.masks.len()).filter(|&i| self.values[i] == 0)
    }

    /// Removes candidate `d` from cell `i` (no-op when it is not there).
    pub fn eliminate(&mut self, i: usize, d: u8) {
        if self.masks[i] & bit(d) == 0 {
            return;
        }
        self.masks[i] &= !bit(d);
        let n = self.geo.n;
        for k in 0..3 {
            let u = self.geo.cell_units[i][k];
            self.places[u * n + d as usize - 1] &= !(1u64 << self.geo.cell_pos[i][k]);
        }
    }

    /// Places `d` in cell `i`: its other candidates go, and `d` leaves its peers.
    pub fn place(&mut self, i: usize, d: u8) {
        for e in digits(self.masks[i]) {
            self.eliminate(i, e);
        }
        self.values[i] = d;
        let n = self.geo.n;
        for k in 0..3 {
            // The value is settled in the cell's units: no place left for it there.
            let u = self.geo.cell_units[i][k];
            self.places[u * n + d as usize - 1] = 0;
        }
        let geo = Arc::clone(&self.geo);
        for &j in &geo.peers[i] {
            self.eliminate(j, d);
        }
    }

    /// Applies a step's placements and eliminations.
    pub fn apply(&mut self, s: &Step) {
        let n = self.geo.n;
        for e in &s.eliminations {
            self.eliminate(e.row * n + e.col, e.value as u8);
        }
        for p in &s.placements {
            self.place(p.row * n + p.col, p.value as u8);
        }
    }

    /// True when every cell holds a value.
    pub fn solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// True when some open cell has no candidate or some unit has no place for a missing value.
    pub fn broken(&self) -> bool {
        let n = self.geo.n;
        if self.open().any(|i| self.masks[i] == 0) {
            return true;
        }
        (0..3 * n).any(|u| {
            let present: u64 = self.geo.units[u]
                .iter()
                .filter(|&&i| self.values[i] != 0)
                .fold(0, |m, &i| m | bit(self.values[i]));
            (1..=n as u8).any(|d| present & bit(d) == 0 && self.places(u, d) == 0)
        })
    }

    /// The pencil-mark grid for a person: placed values as they are, open cells as their
    /// candidates, columns aligned, boxes separated.
    pub fn render_candidates(&self) -> String {
        let g = &self.geo;
        let n = g.n;
        let sep = if n > 9 { "," } else { "" };
        let texts: Vec<String> = (0..n * n)
            .map(|i| {
                if self.values[i] != 0 {
                    self.values[i].to_string()
                } else {
                    digits(self.masks[i])
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join(sep)
                }
            })
            .collect();
        crate::sudoku::render::boxed(
            n,
            g.box_rows,
            g.box_cols,
            &texts,
            1,
            crate::sudoku::render::Align::Left,
        )
    }

    /// A cell-and-value in the shared explanation form.
    pub fn cv(&self, i: usize, d: u8) -> CellValue {
        CellValue {
            row: i / self.geo.n,
            col: i % self.geo.n,
            value: d as i64,
        }
    }

    /// Pattern entries for whole cells (value 0).
    pub fn cells_cv(&self, cells: &[usize]) -> Vec<CellValue> {
        cells.iter().map(|&i| self.cv(i, 0)).collect()
    }

    /// Pattern entries for every candidate of `mask` in each of `cells`.
    pub fn cands_cv(&self, cells: &[usize], mask: u64) -> Vec<CellValue> {
        cells
            .iter()
            .flat_map(|&i| digits(self.masks[i] & mask).map(move |d| self.cv(i, d)))
            .collect()
    }

    /// Every candidate of `mask` present in `cells`, as eliminations.
    pub fn present(&self, cells: &[usize], mask: u64) -> Vec<(usize, u8)> {
        let mut out = Vec::new();
        for &i in cells {
            for d in digits(self.masks[i] & mask) {
                out.push((i, d));
            }
        }
        out
    }

    /// "removes 4 from r5c3, r9c8", grouping cells that lose the same values.
    pub fn elim_text(&self, elims: &[(usize, u8)]) -> String {
        let mut per_cell: Vec<(usize, u64)> = Vec::new();
        for &(i, d) in elims {
            match per_cell.iter_mut().find(|(c, _)| *c == i) {
                Some(e) => e.1 |= bit(d),
                None => per_cell.push((i, bit(d))),
            }
        }
        let mut groups: Vec<(u64, Vec<usize>)> = Vec::new();
        for (i, m) in per_cell {
            match groups.iter_mut().find(|(gm, _)| *gm == m) {
                Some(g) => g.1.push(i),
                None => groups.push((m, vec![i])),
            }
        }
        let parts: Vec<String> = groups
            .iter()
            .map(|(m, cells)| {
                let mut cells = cells.clone();
                crate::sort::all(&mut cells);
                format!(
                    "{} from {}",
                    digit_list(*m, ", "),
                    self.geo.cell_list(&cells)
                )
            })
            .collect();
        format!("removes {}", parts.join("; "))
    }

    /// A step with sorted, de-duplicated placements and eliminations.
    pub fn step(
        &self,
        technique: &str,
        rating: f64,
        pattern: Vec<CellValue>,
        placements: &[(usize, u8)],
        eliminations: &[(usize, u8)],
        text: String,
    ) -> Step {
        let mut p = placements.to_vec();
        crate::sort::all(&mut p);
        p.dedup();
        let mut e = eliminations.to_vec();
        crate::sort::all(&mut e);
        e.dedup();
        Step {
            links: Vec::new(),
            technique: technique.into(),
            rating: (rating * 10.0).round() / 10.0,
            pattern,
            placements: p.iter().map(|&(i, d)| self.cv(i, d)).collect(),
            eliminations: e.iter().map(|&(i, d)| self.cv(i, d)).collect(),
            text,
        }
    }
}

/// What a technique found: the first instance, or every instance when `all` is set (tests
/// compare them with the regression library).
#[derive(Debug, Default)]
pub struct Found {
    pub steps: Vec<Step>,
    pub all: bool,
}

impl Found {
    pub fn first() -> Found {
        Found {
            steps: Vec::new(),
            all: false,
        }
    }

    pub fn every() -> Found {
        Found {
            steps: Vec::new(),
            all: true,
        }
    }

    /// Keeps a step that makes progress; true when the search should stop.
    pub fn push(&mut self, s: Step) -> bool {
        if !s.placements.is_empty() || !s.eliminations.is_empty() {
            self.steps.push(s);
        }
        self.done()
    }

    /// True when the first instance is found and only that was asked for.
    pub fn done(&self) -> bool {
        !self.all && !self.steps.is_empty()
    }
}

/// All `k`-element subsets of `items` (in order), passed to `f` until it returns true.
pub fn subsets<T: Copy>(items: &[T], k: usize, f: &mut dyn FnMut(&[T]) -> bool) -> bool {
    let n = items.len();
    if k > n {
        return false;
    }
    // The positions of the subset in `items`, lowest first, moved on like an odometer.
    let mut at: Vec<usize> = (0..k).collect();
    let mut cur: Vec<T> = items[..k].to_vec();
    loop {
        if f(&cur) {
            return true;
        }
        let Some(j) = (0..k).rev().find(|&j| at[j] < n - k + j) else {
            return false;
        };
        at[j] += 1;
        cur[j] = items[at[j]];
        for t in j + 1..k {
            at[t] = at[t - 1] + 1;
            cur[t] = items[at[t]];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_of_a_six() {
        let g = Geometry::new(6, 2, 3);
        assert_eq!(g.cell_units[15], [2, 6 + 3, 12 + 3]);
        assert_eq!(g.peers[0].len(), 5 + 5 + 2);
        assert!(g.sees(0, 7) && !g.sees(0, 9));
        assert_eq!(g.unit_name(12 + 3), "box 4");
        assert_eq!(g.cell_name(15), "r3c4");
    }

    #[test]
    fn places_follow_placements() {
        let s = Sudoku::empty(4, 2, 2);
        let mut b = Board::new(&s);
        b.place(0, 1);
        assert_eq!(b.places(0, 1), 0);
        assert_eq!(b.places(4, 2), 0b1110);
        assert!(!b.has(1, 1) && !b.has(4, 1) && !b.has(5, 1));
        assert_eq!(b.masks[0], 0);
        b.eliminate(1, 2);
        assert_eq!(b.places(0, 2), 0b1100);
        assert_eq!(
            b.elim_text(&[(1, 2), (2, 2), (3, 4)]),
            "removes 2 from r1c2, r1c3; 4 from r1c4"
        );
    }

    #[test]
    fn subsets_in_order() {
        let mut seen = Vec::new();
        subsets(&[1, 2, 3, 4], 2, &mut |s| {
            seen.push(s.to_vec());
            false
        });
        assert_eq!(seen.len(), 6);
        assert_eq!(seen[0], vec![1, 2]);
        assert_eq!(seen[5], vec![3, 4]);
    }
}
