//! Binary puzzles (Takuzu, Binairo): fill a grid with 0s and 1s so that no line has three equal
//! digits next to each other, every line is balanced, and (by default) no two rows and no two
//! columns are equal.
//!
//! The grid and its rule options live here, and the *lines* every other module works on: each
//! row and column of each region (the whole grid, or the sub-grids of binarypuzzle.com's
//! composite "special" puzzles). Reading formats in [`format`]; the CNF model in [`model`]
//! (documented in `models/takuzu.md`); the independent rule checker in [`rules`]; drawing in
//! [`render`]; the human strategies in [`strategies`]; the generator in [`generate`].

pub mod format;
pub mod generate;
pub mod model;
pub mod render;
pub mod rules;
pub mod strategies;

use crate::cnf::{Assignment, Clause, Lit};
use crate::draw::{Look, Picture};
use crate::puzzle::{CellValue, GivenMode, Kind, Model, Puzzle, Style};
use crate::text::count_of;
use serde::Serialize;

/// What a line of odd length must hold (an even line always holds as many 0s as 1s).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OddLines {
    /// As balanced as it can be: the counts of 0s and 1s differ by exactly one, either way
    /// (the default: the natural reading of "as many 0s as 1s" for an odd line).
    #[default]
    Either,
    /// One more 1 than 0 (Thilerion's collection, `--odd-lines ones`).
    Ones,
    /// One more 0 than 1 (`--odd-lines zeros`).
    Zeros,
}

impl OddLines {
    /// The option's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            OddLines::Either => "either",
            OddLines::Ones => "ones",
            OddLines::Zeros => "zeros",
        }
    }
    /// The option for a name (`either`, `ones`, `zeros`).
    pub fn from_name(s: &str) -> Option<OddLines> {
        match s.to_ascii_lowercase().as_str() {
            "either" | "balanced" => Some(OddLines::Either),
            "ones" | "ones=zeros+1" | "1" => Some(OddLines::Ones),
            "zeros" | "zeros=ones+1" | "0" => Some(OddLines::Zeros),
            _ => None,
        }
    }
}

/// How the distinct-lines rule enters the CNF (see `models/takuzu.md` for the measurement).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum DistinctEncoding {
    /// Up front: for every pair of lines of a family, difference variables and one clause.
    Eager,
    /// Only when a model repeats a line: the `refine` hook forbids that repetition.
    #[default]
    Lazy,
}

impl DistinctEncoding {
    /// The option for a name (`eager`, `lazy`).
    pub fn from_name(s: &str) -> Option<DistinctEncoding> {
        match s.to_ascii_lowercase().as_str() {
            "eager" => Some(DistinctEncoding::Eager),
            "lazy" => Some(DistinctEncoding::Lazy),
            _ => None,
        }
    }
}

/// A square or rectangular sub-grid whose rows and columns obey every rule on their own
/// (the whole grid is one; composite puzzles add sub-grids).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Region {
    pub row: usize,
    pub col: usize,
    pub height: usize,
    pub width: usize,
}

/// The rule options of a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// No two rows (no two columns) of a region are equal.
    pub distinct_lines: bool,
    /// What an odd-length line holds.
    pub odd_lines: OddLines,
    /// The regions; empty means the whole grid only.
    pub regions: Vec<Region>,
    /// The composite layout's name (`4x6x6`, `8in14`), when the regions came from one.
    pub layout: Option<String>,
    /// How the distinct-lines rule is encoded (not a rule: the same solutions either way).
    /// `None`: lazily when solving, eagerly when the CNF is written out (`dimacs`), so an
    /// exported file holds every rule.
    pub encoding: Option<DistinctEncoding>,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            distinct_lines: true,
            odd_lines: OddLines::Either,
            regions: Vec::new(),
            layout: None,
            encoding: None,
        }
    }
}

/// Which way a line runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Orientation {
    Row,
    Column,
}

/// A row or column of a region: its cells in order, and the family of lines it must differ
/// from (the same region and orientation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Row-major cell indices, in order along the line.
    pub cells: Vec<usize>,
    pub orientation: Orientation,
    /// The grid row (for a row) or column (for a column), 0-based.
    pub index: usize,
    /// The region it belongs to (index into [`Takuzu::regions`]).
    pub region: usize,
    /// Lines of the same family must all differ (when the rule is on).
    pub family: usize,
}

/// A binary puzzle: `height` rows of `width` cells, `None` for an open cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Takuzu {
    pub width: usize,
    pub height: usize,
    /// Row-major, `Some(0)`, `Some(1)` or `None`.
    pub cells: Vec<Option<u8>>,
    pub rules: Rules,
    /// How the puzzle was read when its text could be read two ways (a block of lines that is
    /// one grid or one puzzle per line, see `format::ReadAs`): said in its description.
    pub reading: Option<String>,
}

impl Takuzu {
    /// About how many clauses the eager distinct-lines rule takes (`2n+1` per pair of equal-length
    /// lines, models/takuzu.md), without building it: `dimacs` refuses what it cannot write.
    pub fn eager_distinct_clauses(&self) -> u64 {
        if !self.rules.distinct_lines {
            return 0;
        }
        let (w, h) = (self.width as u64, self.height as u64);
        let pairs = |n: u64| n * n.saturating_sub(1) / 2;
        pairs(h) * (2 * w + 1) + pairs(w) * (2 * h + 1)
    }
}

/// A filled grid, row-major 0/1.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid(pub Vec<u8>);

/// `n` copies of the digit `d` in words: `one 0`, `3 1s`, `0 0s`.
pub fn digits(n: usize, d: u8) -> String {
    if n == 1 {
        format!("one {d}")
    } else {
        format!("{n} {d}s")
    }
}

/// The number of 1s a line of `len` cells may hold: an inclusive range.
pub fn ones_range(len: usize, odd: OddLines) -> (usize, usize) {
    if len.is_multiple_of(2) {
        (len / 2, len / 2)
    } else {
        match odd {
            OddLines::Either => (len / 2, len / 2 + 1),
            OddLines::Ones => (len / 2 + 1, len / 2 + 1),
            OddLines::Zeros => (len / 2, len / 2),
        }
    }
}

impl Takuzu {
    /// An empty grid with the given rules.
    pub fn empty(width: usize, height: usize, rules: Rules) -> Takuzu {
        Takuzu {
            width,
            height,
            cells: vec![None; width * height],
            rules,
            reading: None,
        }
    }

    /// The regions: the explicit ones, or the whole grid.
    pub fn regions(&self) -> Vec<Region> {
        if self.rules.regions.is_empty() {
            vec![Region {
                row: 0,
                col: 0,
                height: self.height,
                width: self.width,
            }]
        } else {
            self.rules.regions.clone()
        }
    }

    /// Every line: for each region its rows, then its columns.
    pub fn lines(&self) -> Vec<Line> {
        let mut out = Vec::new();
        for (k, g) in self.regions().iter().enumerate() {
            for r in g.row..g.row + g.height {
                out.push(Line {
                    cells: (g.col..g.col + g.width)
                        .map(|c| r * self.width + c)
                        .collect(),
                    orientation: Orientation::Row,
                    index: r,
                    region: k,
                    family: 2 * k,
                });
            }
            for c in g.col..g.col + g.width {
                out.push(Line {
                    cells: (g.row..g.row + g.height)
                        .map(|r| r * self.width + c)
                        .collect(),
                    orientation: Orientation::Column,
                    index: c,
                    region: k,
                    family: 2 * k + 1,
                });
            }
        }
        out
    }

    /// The name people use for a line: `row 3`, `column 5`, and for a line of a sub-grid
    /// `row 3 of the 6x6 at r1c7`.
    pub fn line_name(&self, l: &Line) -> String {
        let what = match l.orientation {
            Orientation::Row => "row",
            Orientation::Column => "column",
        };
        let g = self.regions()[l.region];
        if g.row == 0 && g.col == 0 && g.height == self.height && g.width == self.width {
            format!("{what} {}", l.index + 1)
        } else {
            format!(
                "{what} {} of the {}x{} at {}",
                l.index + 1,
                g.height,
                g.width,
                crate::puzzle::cell_name(g.row, g.col)
            )
        }
    }

    /// The number of 1s a line may hold (inclusive range).
    pub fn ones_range(&self, len: usize) -> (usize, usize) {
        ones_range(len, self.rules.odd_lines)
    }

    /// The number of givens.
    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|c| c.is_some()).count()
    }

    /// The grid as rows of `0`, `1` and `.`, one line per row.
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity((self.width + 1) * self.height);
        for r in 0..self.height {
            for c in 0..self.width {
                s.push(match self.cells[r * self.width + c] {
                    Some(0) => '0',
                    Some(_) => '1',
                    None => '.',
                });
            }
            s.push('\n');
        }
        s
    }

    /// The file form: a rule directive comment when the rules are not the defaults, then the
    /// grid. Reading it back gives the same puzzle.
    pub fn to_file(&self) -> String {
        let mut s = String::new();
        let d = format::directive(&self.rules, self.width, self.height);
        if !d.is_empty() {
            s.push_str(&format!("# takuzu: {d}\n"));
        }
        s.push_str(&self.to_text());
        s
    }
}

impl Puzzle for Takuzu {
    type Map = model::TakuzuMap;
    type Solution = Grid;

    fn kind(&self) -> Kind {
        Kind::Takuzu
    }

    fn describe(&self) -> String {
        let mut d = format!(
            "{}x{}, {}",
            self.width,
            self.height,
            count_of(self.clue_count(), "given")
        );
        if !self.rules.distinct_lines {
            d.push_str(", lines may repeat");
        }
        if self.width % 2 == 1 || self.height % 2 == 1 {
            d.push_str(match self.rules.odd_lines {
                OddLines::Either => ", odd lines off by one",
                OddLines::Ones => ", odd lines one more 1",
                OddLines::Zeros => ", odd lines one more 0",
            });
        }
        if let Some(l) = &self.rules.layout {
            d.push_str(&format!(", regions {l}"));
        } else if !self.rules.regions.is_empty() {
            d.push_str(&format!(
                ", {}",
                count_of(self.rules.regions.len(), "region")
            ));
        }
        if let Some(r) = &self.reading {
            d.push_str(&format!(", {r}"));
        }
        d
    }

    fn model(&self, mode: GivenMode, names: bool) -> Model<Self::Map> {
        let encoding = self.rules.encoding.unwrap_or(DistinctEncoding::Lazy);
        model::build(self, mode, names, encoding)
    }

    /// An external solver needs distinct lines in the clauses: eager unless asked otherwise.
    fn export_model(&self, mode: GivenMode) -> Model<Self::Map> {
        let encoding = self.rules.encoding.unwrap_or(DistinctEncoding::Eager);
        model::build(self, mode, true, encoding)
    }

    /// Distinct lines eager (difference variables in the clauses), whatever was asked.
    fn complete_model(&self) -> Model<Self::Map> {
        model::build(self, GivenMode::Assume, true, DistinctEncoding::Eager)
    }

    fn decode(&self, model: &Model<Self::Map>, a: &Assignment) -> Grid {
        model::decode(self, &model.map, a)
    }

    fn refine(&self, model: &Model<Self::Map>, a: &Assignment) -> Vec<Clause> {
        model::refine(self, &model.map, a)
    }

    // No `keeping`: a Takuzu's conflicting givens are found on the Assume model. Solving each
    // trial folded was slower on dense boards (a 60x60 with 1,422 givens: 62 s of CPU against
    // 28 s; BENCHMARKS.md, "Refutation").

    fn check(&self, s: &Grid) -> Result<(), String> {
        rules::check(self, s)
    }

    fn rows(&self, s: &Grid) -> Vec<Vec<i64>> {
        s.0.chunks(self.width)
            .map(|r| r.iter().map(|&v| v as i64).collect())
            .collect()
    }

    fn render(&self, s: Option<&Grid>, style: Style) -> String {
        let cells: Vec<Option<u8>> = match s {
            Some(g) => g.0.iter().map(|&v| Some(v)).collect(),
            None => self.cells.clone(),
        };
        render::grid(self, &cells, style)
    }

    fn picture(&self, s: Option<&Grid>, look: Look) -> Option<Picture> {
        let cells: Vec<Option<u8>> = match s {
            Some(g) => g.0.iter().map(|&v| Some(v)).collect(),
            None => self.cells.clone(),
        };
        Some(render::picture(self, &cells, look))
    }

    fn forced(&self, model: &Model<Self::Map>, lits: &[Lit]) -> Vec<CellValue> {
        model::forced(self, &model.map, lits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ones_ranges() {
        assert_eq!(ones_range(6, OddLines::Either), (3, 3));
        assert_eq!(ones_range(7, OddLines::Either), (3, 4));
        assert_eq!(ones_range(7, OddLines::Ones), (4, 4));
        assert_eq!(ones_range(7, OddLines::Zeros), (3, 3));
    }

    #[test]
    fn lines_of_a_rectangle_and_of_regions() {
        let t = Takuzu::empty(6, 4, Rules::default());
        let ls = t.lines();
        assert_eq!(ls.len(), 10);
        assert_eq!(ls[1].cells, vec![6, 7, 8, 9, 10, 11]);
        assert_eq!(ls[4].cells, vec![0, 6, 12, 18]);
        assert_eq!(t.line_name(&ls[5]), "column 2");
        let rules = Rules {
            regions: vec![
                Region {
                    row: 1,
                    col: 1,
                    height: 2,
                    width: 2,
                },
                Region {
                    row: 0,
                    col: 0,
                    height: 4,
                    width: 4,
                },
            ],
            ..Rules::default()
        };
        let t = Takuzu::empty(4, 4, rules);
        let ls = t.lines();
        assert_eq!(ls.len(), 12);
        assert_eq!(ls[0].cells, vec![5, 6]);
        assert_eq!(ls[2].cells, vec![5, 9]);
        assert_eq!(t.line_name(&ls[0]), "row 2 of the 2x2 at r2c2");
        assert_eq!(ls[4].family, 2);
    }
}
