//! Pictures of puzzles, shared by every kind: a small drawing vocabulary ([`Mark`]: grid,
//! thick border, highlight, digit, candidate with strike-out, circle, path, link, tile) on a
//! board of cells ([`Picture`]), written as SVG text by [`svg`], alone, side by side or laid
//! out on printable pages ([`layout`]). Each kind's `render` module maps its puzzle, solution
//! or explanation step onto the vocabulary; this module knows nothing of the kinds. It is plain
//! Rust producing strings (no files, no fonts, no clocks), so it builds for wasm32; PNG and PDF
//! are made from the same SVG in `raster` (the `raster` feature, on with the command line).
//!
//! Coordinates are in cells: `x` across from the board's left edge, `y` down from its top edge,
//! so cell (row r, column c) spans `c..c+1` by `r..r+1`. A picture may keep a ring of cells
//! around the board ([`Picture::ring`]) for paths that leave it (Shisen-sho's moves); points
//! there have negative coordinates or coordinates past the board's size.

pub mod layout;
#[cfg(feature = "raster")]
pub mod raster;
pub mod svg;

/// The picture formats ([`svg`] text, and `raster`'s PNG and PDF), which every kind with
/// pictures offers beside its file formats.
pub const FORMATS: [&str; 3] = ["svg", "png", "pdf"];

/// A point on a board, in cells (see the module's note on coordinates).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    /// The centre of a cell.
    pub fn centre(row: usize, col: usize) -> Point {
        Point {
            x: col as f64 + 0.5,
            y: row as f64 + 0.5,
        }
    }

    /// The centre of a cell given as signed coordinates (`-1` is the ring left of or above the
    /// board).
    pub fn centre_of(row: isize, col: isize) -> Point {
        Point {
            x: col as f64 + 0.5,
            y: row as f64 + 0.5,
        }
    }

    /// Where pencil mark `slot` (0-based) sits in a cell split into `slots`.
    pub fn slot(row: usize, col: usize, slot: usize, slots: Slots) -> Point {
        let (r, c) = (slot / slots.cols, slot % slots.cols);
        Point {
            x: col as f64 + (c as f64 + 0.5) / slots.cols as f64,
            y: row as f64 + (r as f64 + 0.5) / slots.rows as f64,
        }
    }
}

/// Choices of how a picture looks that a person makes, not the kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Look {
    /// Takuzu as binarypuzzle.com's white (0) and black (1) circles instead of digits.
    pub circles: bool,
}

/// How pencil marks sit in a cell: `rows` x `cols` slots, filled row by row (value v of a
/// Sudoku in slot v-1, as players pencil them: 1 2 3 / 4 5 6 / 7 8 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slots {
    pub rows: usize,
    pub cols: usize,
}

impl Slots {
    /// Room for `n` marks: a square, or one row fewer when that is enough (6 → 2 x 3).
    pub fn for_count(n: usize) -> Slots {
        let n = n.max(1);
        let mut cols = 1;
        while cols * cols < n {
            cols += 1;
        }
        let rows = n.div_ceil(cols);
        Slots { rows, cols }
    }
}

/// What a highlighted cell or mark means. Every kind uses the same colours for the same
/// meaning, so a hint looks the same whatever the puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// The cells or candidates a step rests on.
    Pattern,
    /// What a step places.
    Placement,
    /// What a step removes.
    Elimination,
    /// A given (where givens are shown by their cell, as with Takuzu circles).
    Given,
    /// A cell where two solutions differ.
    Differ,
    /// A given that takes part in a conflict.
    Conflict,
}

impl Tone {
    /// The tone of a candidate in a step's picture: what the step places, else what it strikes
    /// out, else what its pattern rests on.
    pub fn of_candidate(placed: bool, struck: bool, pattern: bool) -> Option<Tone> {
        if placed {
            Some(Tone::Placement)
        } else if struck {
            Some(Tone::Elimination)
        } else if pattern {
            Some(Tone::Pattern)
        } else {
            None
        }
    }

    /// The word used as the SVG class.
    pub fn name(self) -> &'static str {
        match self {
            Tone::Pattern => "pattern",
            Tone::Placement => "placement",
            Tone::Elimination => "elimination",
            Tone::Given => "given",
            Tone::Differ => "differ",
            Tone::Conflict => "conflict",
        }
    }
}

/// What a digit in a cell is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    /// A given (black, bold).
    Given,
    /// Found by solving, or by an earlier step (blue).
    Solved,
    /// Placed by the step shown (green, bold).
    Placed,
}

impl Ink {
    /// The word used as the SVG class.
    pub fn name(self) -> &'static str {
        match self {
            Ink::Given => "given",
            Ink::Solved => "solved",
            Ink::Placed => "placed",
        }
    }
}

/// How a circle is filled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Disc {
    /// Black with a black rim (binarypuzzle.com's 1).
    Black,
    /// White with a black rim (binarypuzzle.com's 0).
    White,
    /// A colour (CSS, such as `#e6194b`) with a darker rim: Numberlink's ends.
    Colour(String),
}

/// One thing drawn on a board. The SVG writer draws them in layers whatever their order in
/// [`Picture::marks`]: highlights, tiles, the grid, borders, paths, circles, candidates,
/// digits, links.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// A cell's background.
    Highlight { row: usize, col: usize, tone: Tone },
    /// Thin lines around every cell of the board.
    Grid,
    /// A thick line along cell edges, between two grid points given as (row, col) corners:
    /// box lines, piece borders, the frame. Horizontal or vertical.
    Border {
        from: (usize, usize),
        to: (usize, usize),
    },
    /// A value in the middle of a cell.
    Digit {
        row: usize,
        col: usize,
        text: String,
        ink: Ink,
    },
    /// A pencil mark in its slot; `tone` colours a disc behind it, `struck` draws a line
    /// through it (a candidate a step removes).
    Candidate {
        row: usize,
        col: usize,
        slot: usize,
        slots: Slots,
        text: String,
        tone: Option<Tone>,
        struck: bool,
    },
    /// A disc filling most of a cell, with an optional label on it.
    Circle {
        row: usize,
        col: usize,
        disc: Disc,
        label: Option<String>,
    },
    /// A thick line through points (cell centres, possibly outside the board); the colour is
    /// any CSS colour.
    Path { points: Vec<Point>, colour: String },
    /// A chain's link between two points (usually candidates): strong links solid, weak links
    /// dashed.
    Link {
        from: Point,
        to: Point,
        strong: bool,
    },
    /// A labelled rectangle filling a cell (a Shisen-sho tile): the label large in `ink` (any
    /// CSS colour; dark brown for `None`), and `note` (empty for none) small above it.
    Tile {
        row: usize,
        col: usize,
        label: String,
        note: String,
        ink: Option<String>,
        tone: Option<Tone>,
    },
}

/// A board and what is drawn on it, with a caption underneath.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    pub rows: usize,
    pub cols: usize,
    /// Cells of room kept around the board (0 for most kinds).
    pub ring: usize,
    /// A line or two under the board (wrapped to its width); empty for none.
    pub caption: String,
    pub marks: Vec<Mark>,
}

/// Colours for paths, cycled: distinct on white and dark enough for a white label.
pub const PATH_COLOURS: [&str; 16] = [
    "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#0f9fb0", "#d61fcf", "#9a6324",
    "#808000", "#000075", "#800000", "#469990", "#c79500", "#5a5a5a", "#ff5f87", "#2e7d32",
];

/// The colour of path `k` (0-based).
pub fn path_colour(k: usize) -> String {
    PATH_COLOURS[k % PATH_COLOURS.len()].to_string()
}

impl Picture {
    /// An empty `rows` x `cols` board with its thin grid lines.
    pub fn new(rows: usize, cols: usize) -> Picture {
        Picture {
            rows,
            cols,
            ring: 0,
            caption: String::new(),
            marks: vec![Mark::Grid],
        }
    }

    pub fn push(&mut self, m: Mark) {
        self.marks.push(m);
    }

    /// The picture with this caption.
    pub fn with_caption(mut self, caption: impl Into<String>) -> Picture {
        self.caption = caption.into();
        self
    }

    /// Thick borders between cells of different regions, and around the board: `region(row,
    /// col)` names each cell's region (Sudoku boxes, Tectonic pieces). Collinear pieces of
    /// border are merged into one line.
    pub fn region_borders(&mut self, region: impl Fn(usize, usize) -> usize) {
        let (h, w) = (self.rows, self.cols);
        let at = |r: isize, c: isize| -> Option<usize> {
            (r >= 0 && c >= 0 && (r as usize) < h && (c as usize) < w)
                .then(|| region(r as usize, c as usize))
        };
        // Horizontal lines: the line above row k, from column c to c + 1.
        for k in 0..=h {
            let mut start: Option<usize> = None;
            for c in 0..=w {
                let wall = c < w && at(k as isize - 1, c as isize) != at(k as isize, c as isize);
                match (wall, start) {
                    (true, None) => start = Some(c),
                    (false, Some(s)) => {
                        self.marks.push(Mark::Border {
                            from: (k, s),
                            to: (k, c),
                        });
                        start = None;
                    }
                    _ => {}
                }
            }
        }
        // Vertical lines: the line left of column k, from row r to r + 1.
        for k in 0..=w {
            let mut start: Option<usize> = None;
            for r in 0..=h {
                let wall = r < h && at(r as isize, k as isize - 1) != at(r as isize, k as isize);
                match (wall, start) {
                    (true, None) => start = Some(r),
                    (false, Some(s)) => {
                        self.marks.push(Mark::Border {
                            from: (s, k),
                            to: (r, k),
                        });
                        start = None;
                    }
                    _ => {}
                }
            }
        }
    }

    /// A thick rectangle around `height` x `width` cells from (`row`, `col`).
    pub fn outline(&mut self, row: usize, col: usize, height: usize, width: usize) {
        let (r1, c1) = (row + height, col + width);
        for (from, to) in [
            ((row, col), (row, c1)),
            ((r1, col), (r1, c1)),
            ((row, col), (r1, col)),
            ((row, c1), (r1, c1)),
        ] {
            self.marks.push(Mark::Border { from, to });
        }
    }

    /// Highlights every cell named `rXcY` in `text` (1-based, as players write them) with
    /// `tone`: conflicting givens, differing cells. Cells off the board are left out.
    pub fn highlight_named(&mut self, text: &str, tone: Tone) {
        for (row, col) in named_cells(text) {
            if row < self.rows && col < self.cols {
                self.marks.push(Mark::Highlight { row, col, tone });
            }
        }
    }

    /// How many marks of a kind the picture holds (for tests and checks).
    pub fn count(&self, pred: impl Fn(&Mark) -> bool) -> usize {
        self.marks.iter().filter(|m| pred(m)).count()
    }
}

/// The cells (0-based row, col) named `r4c9` in a text, in order.
pub fn named_cells(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let number = |mut j: usize| -> Option<(usize, usize)> {
        let start = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        (j > start).then(|| (text[start..j].parse().unwrap_or(0), j))
    };
    while i < b.len() {
        let word_start = i == 0 || !b[i - 1].is_ascii_alphanumeric();
        if b[i] == b'r' && word_start {
            if let Some((r, j)) = number(i + 1) {
                if j < b.len() && b[j] == b'c' {
                    if let Some((c, k)) = number(j + 1) {
                        if r > 0 && c > 0 {
                            out.push((r - 1, c - 1));
                        }
                        i = k;
                        continue;
                    }
                }
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_fit_the_values() {
        assert_eq!(Slots::for_count(9), Slots { rows: 3, cols: 3 });
        assert_eq!(Slots::for_count(6), Slots { rows: 2, cols: 3 });
        assert_eq!(Slots::for_count(4), Slots { rows: 2, cols: 2 });
        assert_eq!(Slots::for_count(5), Slots { rows: 2, cols: 3 });
        assert_eq!(Slots::for_count(16), Slots { rows: 4, cols: 4 });
        assert_eq!(Slots::for_count(1), Slots { rows: 1, cols: 1 });
        let p = Point::slot(0, 0, 5, Slots::for_count(9));
        assert_eq!((p.x, p.y), (2.5 / 3.0, 1.5 / 3.0));
    }

    #[test]
    fn region_borders_merge_into_lines() {
        // Two boxes side by side on a 2x4 board: the frame (4 lines) and one line between.
        let mut p = Picture::new(2, 4);
        p.region_borders(|_, c| c / 2);
        let borders: Vec<&Mark> = p
            .marks
            .iter()
            .filter(|m| matches!(m, Mark::Border { .. }))
            .collect();
        assert_eq!(borders.len(), 5);
        assert!(borders.contains(&&Mark::Border {
            from: (0, 2),
            to: (2, 2)
        }));
        assert!(borders.contains(&&Mark::Border {
            from: (0, 0),
            to: (0, 4)
        }));
    }

    #[test]
    fn cells_are_found_by_name() {
        assert_eq!(
            named_cells("r1c5=6 A:r10c2-r3c4 covered xr2c2"),
            vec![(0, 4), (9, 1), (2, 3)]
        );
        assert!(named_cells("row 4, r0c1, rc3").is_empty());
    }
}
