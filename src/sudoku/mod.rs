//! Sudoku of every size with rectangular boxes (4x4 to 25x25 and beyond): the grid and its
//! geometry here; reading the community's formats in [`format`]; the CNF model in [`model`]
//! (documented in `models/sudoku.md`); the independent rule checker in [`rules`]; drawing in
//! [`render`]; generating new puzzles in [`generate`].

pub mod format;
pub mod generate;
pub mod model;
pub mod render;
pub mod rules;
pub mod strategies;

use crate::cnf::{Assignment, Lit};
use crate::draw::{Look, Picture};
use crate::puzzle::{CellValue, GivenMode, Kind, Model, Puzzle, Style};
use crate::solver::Search;
use std::cell::RefCell;
use std::rc::Rc;

/// The largest side gridsat accepts (values are kept in a byte; 64 keeps the formats readable).
pub const MAX_SIZE: usize = 64;

/// A grid's shape: its size, box rows and box columns.
type Shape = (usize, usize, usize);
/// Units shared by the puzzles of one shape (see [`Sudoku::shared_units`]).
type SharedUnits = Rc<Vec<Vec<usize>>>;

/// What was built for the shape asked for last on a thread, kept in a `thread_local!` (units,
/// the generator's empty model): a batch of puzzles of one shape builds it once.
pub(crate) struct LastShape<T>(RefCell<Option<(Shape, Rc<T>)>>);

impl<T> LastShape<T> {
    pub(crate) const fn new() -> Self {
        LastShape(RefCell::new(None))
    }

    /// The kept value when `shape` was asked last, else `build()`'s, then kept.
    pub(crate) fn get(&self, shape: Shape, build: impl FnOnce() -> T) -> Rc<T> {
        let mut last = self.0.borrow_mut();
        match &*last {
            Some((s, kept)) if *s == shape => kept.clone(),
            _ => {
                let made = Rc::new(build());
                *last = Some((shape, made.clone()));
                made
            }
        }
    }
}

/// A Sudoku: `size` x `size` cells in boxes of `box_rows` x `box_cols`; 0 is an empty cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sudoku {
    pub size: usize,
    pub box_rows: usize,
    pub box_cols: usize,
    /// Row-major cell values, 0 for empty.
    pub cells: Vec<u8>,
    /// Pencil marks, when the puzzle came with them (a Sukaku grid, a HoDoKu library line):
    /// for every cell the values still possible (bit `v-1` for `v`), row-major. Every solution
    /// keeps them: a value a mark rules out is as good as eliminated. `None` for a plain puzzle.
    pub marks: Option<Vec<u64>>,
}

/// A filled grid, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid(pub Vec<u8>);

/// The usual box shape for a side: the most nearly square `rows x cols` with `rows <= cols`
/// (9 → 3x3, 6 → 2x3, 12 → 3x4). `None` for sides without a rectangular shape but 1xN (primes).
pub fn default_box(size: usize) -> Option<(usize, usize)> {
    let mut best = None;
    for r in 2..=size {
        if r * r > size {
            break;
        }
        if size.is_multiple_of(r) {
            best = Some((r, size / r));
        }
    }
    best
}

impl Sudoku {
    /// An empty grid of `size` with the given box shape (`rows * cols` must equal `size`).
    pub fn empty(size: usize, box_rows: usize, box_cols: usize) -> Sudoku {
        assert_eq!(box_rows * box_cols, size, "box shape must tile the grid");
        Sudoku {
            size,
            box_rows,
            box_cols,
            cells: vec![0; size * size],
            marks: None,
        }
    }

    /// The candidates pencil marks rule out in open cell `i` beyond what its units' values
    /// already do (bit `v-1` for `v`; 0 without marks): the eliminations a person made.
    pub fn struck(&self, i: usize) -> u64 {
        let Some(marks) = &self.marks else { return 0 };
        if self.cells[i] != 0 {
            return 0;
        }
        let n = self.size;
        let (r, c) = (i / n, i % n);
        let b = self.box_of(r, c);
        let seen = (0..n * n)
            .filter(|&j| self.cells[j] != 0)
            .filter(|&j| j / n == r || j % n == c || self.box_of(j / n, j % n) == b)
            .fold(0u64, |m, j| m | 1u64 << (self.cells[j] - 1));
        model::full_mask(n) & !marks[i] & !seen
    }

    /// The box number (0-based, row-major over boxes) of a cell.
    pub fn box_of(&self, row: usize, col: usize) -> usize {
        (row / self.box_rows) * (self.size / self.box_cols) + col / self.box_cols
    }

    /// The cells (as row-major indices) of every unit: rows, then columns, then boxes.
    pub fn units(&self) -> Vec<Vec<usize>> {
        let n = self.size;
        let (br, bc) = (self.box_rows, self.box_cols);
        let mut units: Vec<Vec<usize>> = Vec::with_capacity(3 * n);
        units.extend((0..n).map(|r| (r * n..(r + 1) * n).collect()));
        units.extend((0..n).map(|c| (0..n).map(|r| r * n + c).collect()));
        // Box b's first cell, then its rows of `bc` cells (as `unit_cell` orders them).
        units.extend((0..n).map(|b| {
            let first = (b / (n / bc)) * br * n + (b % (n / bc)) * bc;
            (0..br)
                .flat_map(|r| first + r * n..first + r * n + bc)
                .collect()
        }));
        units
    }

    /// [`Sudoku::units`], shared: the units of the shape asked for last on this thread are
    /// kept, so a batch of puzzles of one shape builds them once (building them was about 2%
    /// of checking an easy 9x9 Sudoku).
    pub fn shared_units(&self) -> SharedUnits {
        thread_local! {
            static LAST: LastShape<Vec<Vec<usize>>> = const { LastShape::new() };
        }
        let shape = (self.size, self.box_rows, self.box_cols);
        LAST.with(|last| last.get(shape, || self.units()))
    }

    /// The `k`-th cell of unit `u`, in the order of [`Sudoku::units`] (without allocating).
    pub fn unit_cell(&self, u: usize, k: usize) -> usize {
        let n = self.size;
        match u / n {
            0 => u * n + k,
            1 => k * n + (u - n),
            _ => {
                let b = u - 2 * n;
                let r = (b / (n / self.box_cols)) * self.box_rows + k / self.box_cols;
                let c = (b % (n / self.box_cols)) * self.box_cols + k % self.box_cols;
                r * n + c
            }
        }
    }

    /// The number of givens.
    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// The one-line form: one character per cell, `.` for empty, `1`-`9` then `A`... for 10 and up.
    pub fn to_line(&self) -> String {
        self.cells.iter().map(|&v| format::value_char(v)).collect()
    }
}

impl Puzzle for Sudoku {
    type Map = model::SudokuMap;
    type Solution = Grid;

    fn kind(&self) -> Kind {
        Kind::Sudoku
    }

    fn describe(&self) -> String {
        let mut d = format!(
            "{n}x{n}, boxes {}x{}, {}",
            self.box_rows,
            self.box_cols,
            crate::text::count_of(self.clue_count(), "given"),
            n = self.size
        );
        if self.marks.is_some() {
            let struck: u32 = (0..self.cells.len())
                .map(|i| self.struck(i).count_ones())
                .sum();
            d.push_str(&format!(
                ", pencil marks ({} struck)",
                crate::text::count_of(struck as usize, "candidate")
            ));
        }
        d
    }

    fn model(&self, mode: GivenMode, names: bool) -> Model<Self::Map> {
        model::build(self, mode, names)
    }

    /// Decisions that fill a cell, Luby restarts: a fifth fewer conflicts on hard boards.
    fn search(&self) -> Search {
        Search::Direct
    }

    fn decode(&self, model: &Model<Self::Map>, a: &Assignment) -> Grid {
        model::decode(self, &model.map, a)
    }

    /// The givens are the filled cells, row by row (then the struck pencil marks: a puzzle
    /// with marks is left to the Assume model). A dropped given is an empty cell, which never
    /// loses a solution.
    fn keeping(&self, keep: &[bool]) -> Option<Sudoku> {
        if self.marks.is_some() {
            return None;
        }
        let mut sub = self.clone();
        let filled = sub.cells.iter_mut().filter(|v| **v != 0);
        for (v, &k) in filled.zip(keep) {
            if !k {
                *v = 0;
            }
        }
        Some(sub)
    }

    fn check(&self, s: &Grid) -> Result<(), String> {
        rules::check(self, s)
    }

    fn rows(&self, s: &Grid) -> Vec<Vec<i64>> {
        s.0.chunks(self.size)
            .map(|r| r.iter().map(|&v| v as i64).collect())
            .collect()
    }

    fn render(&self, s: Option<&Grid>, style: Style) -> String {
        render::grid(
            self,
            s.map(|g| g.0.as_slice()).unwrap_or(&self.cells),
            style,
        )
    }

    fn picture(&self, s: Option<&Grid>, _look: Look) -> Option<Picture> {
        Some(render::picture(
            self,
            s.map(|g| g.0.as_slice()).unwrap_or(&self.cells),
        ))
    }

    fn forced(&self, model: &Model<Self::Map>, lits: &[Lit]) -> Vec<CellValue> {
        model::forced(self, &model.map, lits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_boxes() {
        assert_eq!(default_box(4), Some((2, 2)));
        assert_eq!(default_box(6), Some((2, 3)));
        assert_eq!(default_box(8), Some((2, 4)));
        assert_eq!(default_box(9), Some((3, 3)));
        assert_eq!(default_box(10), Some((2, 5)));
        assert_eq!(default_box(12), Some((3, 4)));
        assert_eq!(default_box(16), Some((4, 4)));
        assert_eq!(default_box(25), Some((5, 5)));
        assert_eq!(default_box(7), None);
    }

    #[test]
    fn units_cover_each_cell_three_times() {
        let s = Sudoku::empty(6, 2, 3);
        let units = s.units();
        assert_eq!(units.len(), 18);
        let mut seen = [0; 36];
        for u in &units {
            assert_eq!(u.len(), 6);
            for &c in u {
                seen[c] += 1;
            }
        }
        assert!(seen.iter().all(|&k| k == 3));
        assert_eq!(s.box_of(3, 4), 3);
        assert_eq!(units[12 + 3], vec![15, 16, 17, 21, 22, 23]);
    }

    #[test]
    fn units_are_rows_columns_and_boxes_for_every_shape() {
        for (n, br, bc) in [
            (4, 2, 2),
            (6, 2, 3),
            (6, 3, 2),
            (9, 3, 3),
            (12, 3, 4),
            (12, 4, 3),
        ] {
            let s = Sudoku::empty(n, br, bc);
            for (u, unit) in s.units().iter().enumerate() {
                let mut cells = unit.clone();
                crate::sort::all(&mut cells);
                cells.dedup();
                assert_eq!(cells.len(), n, "unit {u} of {n}x{n} ({br}x{bc})");
                let key = |c: usize| match u / n {
                    0 => c / n,
                    1 => c % n,
                    _ => s.box_of(c / n, c % n),
                };
                assert!(unit.iter().all(|&c| key(c) == u % n), "unit {u} of {n}x{n}");
            }
        }
    }
}
