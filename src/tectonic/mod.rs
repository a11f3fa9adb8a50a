//! Tectonic (Suguru): a rectangle cut into pieces (regions) of any size; a piece of n cells
//! holds 1..n once each, and equal digits never touch, not even diagonally.
//!
//! The grid and its geometry live here; reading and writing the community's formats in
//! [`format`]; the CNF model in [`model`] (documented in `models/tectonic.md`); the independent
//! rule checker in [`rules`]; drawing with thick piece borders in [`render`]; the human
//! strategies in [`strategies`]; the seeded generator in [`generate`].

pub mod format;
pub mod generate;
pub mod model;
pub mod render;
pub mod rules;
pub mod strategies;

use crate::cnf::{Assignment, Lit};
use crate::draw::{Look, Picture};
use crate::puzzle::{cell_name, CellValue, GivenMode, Kind, Model, Puzzle, Style};
use crate::text::count_of;

/// The largest piece gridsat accepts (candidates are kept in a 64-bit mask).
pub const MAX_PIECE: usize = 64;
/// The largest side gridsat accepts.
pub const MAX_SIDE: usize = 1000;

/// A Tectonic puzzle. Cells are numbered row-major; 0 is an empty cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tectonic {
    pub width: usize,
    pub height: usize,
    /// The piece of every cell (row-major), numbered 0.. by first appearance.
    pub regions: Vec<usize>,
    /// The given of every cell (row-major), 0 for an empty cell.
    pub givens: Vec<u8>,
    /// The name each piece had in the input (an XML PieceNumber, a letter, a number).
    pub region_names: Vec<String>,
    /// Where the puzzle comes from (the XML `source` attribute), when known.
    pub source: Option<String>,
}

/// A filled grid, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filling(pub Vec<u8>);

/// A reason a puzzle cannot be built, at a cell (row-major index) when there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    pub cell: Option<usize>,
    /// True when the fault is in the pieces (so a format with a separate grid or file of piece
    /// names points there), false when it is in the givens.
    pub in_pieces: bool,
    pub message: String,
}

impl Invalid {
    fn piece(cell: usize, message: String) -> Invalid {
        Invalid {
            cell: Some(cell),
            in_pieces: true,
            message,
        }
    }
    fn given(cell: usize, message: String) -> Invalid {
        Invalid {
            cell: Some(cell),
            in_pieces: false,
            message,
        }
    }
}

/// The king-move neighbours of cell `i` in a `width` x `height` grid, in row-major order.
pub fn king_neighbours(width: usize, height: usize, i: usize) -> impl Iterator<Item = usize> {
    let (r, c) = ((i / width) as isize, (i % width) as isize);
    (-1isize..=1)
        .flat_map(move |dr| (-1isize..=1).map(move |dc| (dr, dc)))
        .filter(|&(dr, dc)| (dr, dc) != (0, 0))
        .filter_map(move |(dr, dc)| {
            let (y, x) = (r + dr, c + dc);
            (y >= 0 && x >= 0 && (y as usize) < height && (x as usize) < width)
                .then(|| y as usize * width + x as usize)
        })
}

/// The orthogonal neighbours of cell `i`.
pub fn orthogonal_neighbours(width: usize, height: usize, i: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (i / width, i % width);
    [
        (r > 0).then(|| i - width),
        (c > 0).then(|| i - 1),
        (c + 1 < width).then(|| i + 1),
        (r + 1 < height).then(|| i + width),
    ]
    .into_iter()
    .flatten()
}

impl Tectonic {
    /// Builds a puzzle from one piece name per cell and the givens (0 empty), checking every
    /// rule that input can break: the shape, connected pieces, piece sizes, values that fit
    /// their piece, and givens that already break a rule. Pieces are numbered by first
    /// appearance; `names` keeps what the input called them.
    pub fn new(
        width: usize,
        height: usize,
        names: &[String],
        givens: Vec<u8>,
        source: Option<String>,
    ) -> Result<Tectonic, Invalid> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(Invalid {
                cell: None,
                in_pieces: false,
                message: format!(
                    "a Tectonic must be 1 to {MAX_SIDE} cells wide and high, found {width}x{height}"
                ),
            });
        }
        if names.len() != width * height || givens.len() != width * height {
            return Err(Invalid {
                cell: None,
                in_pieces: false,
                message: format!(
                    "a {width}x{height} Tectonic has {} cells, found {}",
                    width * height,
                    names.len().min(givens.len())
                ),
            });
        }
        let mut region_names: Vec<String> = Vec::new();
        let mut regions = Vec::with_capacity(names.len());
        let mut index = std::collections::HashMap::new();
        for n in names {
            let k = *index.entry(n.clone()).or_insert_with(|| {
                region_names.push(n.clone());
                region_names.len() - 1
            });
            regions.push(k);
        }
        let t = Tectonic {
            width,
            height,
            regions,
            givens,
            region_names,
            source,
        };
        t.validate()?;
        Ok(t)
    }

    /// A puzzle without givens over a partition (pieces numbered 0.. by first appearance, as
    /// [`Tectonic::new`] would number them), its pieces named 1, 2, ...
    pub fn blank(width: usize, height: usize, regions: &[usize]) -> Result<Tectonic, Invalid> {
        let names: Vec<String> = regions.iter().map(|r| (r + 1).to_string()).collect();
        Tectonic::new(width, height, &names, vec![0; width * height], None)
    }

    /// The number of pieces.
    pub fn piece_count(&self) -> usize {
        self.region_names.len()
    }

    /// The cells of every piece, in row-major order.
    pub fn pieces(&self) -> Vec<Vec<usize>> {
        let mut p = vec![Vec::new(); self.piece_count()];
        for (i, &r) in self.regions.iter().enumerate() {
            p[r].push(i);
        }
        p
    }

    /// The size of every piece.
    pub fn piece_sizes(&self) -> Vec<usize> {
        let mut s = vec![0; self.piece_count()];
        for &r in &self.regions {
            s[r] += 1;
        }
        s
    }

    /// The king-move neighbours of cell `i`.
    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        king_neighbours(self.width, self.height, i)
    }

    /// The number of givens.
    pub fn clue_count(&self) -> usize {
        self.givens.iter().filter(|&&v| v != 0).count()
    }

    /// How people name a piece: `piece 7` (its name in the input).
    pub fn piece_name(&self, piece: usize) -> String {
        format!("piece {}", self.region_names[piece])
    }

    fn name(&self, i: usize) -> String {
        cell_name(i / self.width, i % self.width)
    }

    fn validate(&self) -> Result<(), Invalid> {
        let pieces = self.pieces();
        for (p, cells) in pieces.iter().enumerate() {
            if cells.len() > MAX_PIECE {
                return Err(Invalid::piece(
                    cells[0],
                    format!(
                        "{} has {} cells; gridsat handles pieces of up to {MAX_PIECE}",
                        self.piece_name(p),
                        cells.len()
                    ),
                ));
            }
            // Connected: a flood fill from the first cell must reach every cell.
            let mut seen = vec![false; cells.len()];
            let pos = |i: usize| cells.binary_search(&i).ok();
            let mut stack = vec![cells[0]];
            seen[0] = true;
            while let Some(i) = stack.pop() {
                for j in orthogonal_neighbours(self.width, self.height, i) {
                    if let Some(k) = pos(j) {
                        if !seen[k] {
                            seen[k] = true;
                            stack.push(j);
                        }
                    }
                }
            }
            if let Some(k) = seen.iter().position(|&s| !s) {
                return Err(Invalid::piece(
                    cells[k],
                    format!(
                        "{} is not connected: {} cannot be reached from {} through the piece",
                        self.piece_name(p),
                        self.name(cells[k]),
                        self.name(cells[0])
                    ),
                ));
            }
        }
        let sizes = self.piece_sizes();
        for (i, &v) in self.givens.iter().enumerate() {
            let n = sizes[self.regions[i]];
            if v as usize > n {
                return Err(Invalid::given(
                    i,
                    format!(
                        "given {v} at {} is larger than its piece ({} has {n} cell{}, so 1-{n})",
                        self.name(i),
                        self.piece_name(self.regions[i]),
                        if n == 1 { "" } else { "s" }
                    ),
                ));
            }
        }
        for (i, &v) in self.givens.iter().enumerate() {
            if v == 0 {
                continue;
            }
            for &j in &pieces[self.regions[i]] {
                if j < i && self.givens[j] == v {
                    return Err(Invalid::given(
                        i,
                        format!(
                            "given {v} at {} repeats the {v} at {} in {}",
                            self.name(i),
                            self.name(j),
                            self.piece_name(self.regions[i])
                        ),
                    ));
                }
            }
            for j in self.neighbours(i) {
                if j < i && self.givens[j] == v {
                    return Err(Invalid::given(
                        i,
                        format!(
                            "given {v} at {} touches the {v} at {}; equal digits may not touch, not even diagonally",
                            self.name(i),
                            self.name(j)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The same puzzle with other givens.
    pub fn with_givens(&self, givens: Vec<u8>) -> Tectonic {
        Tectonic {
            givens,
            ..self.clone()
        }
    }
}

impl Puzzle for Tectonic {
    type Map = model::TectonicMap;
    type Solution = Filling;

    fn kind(&self) -> Kind {
        Kind::Tectonic
    }

    fn describe(&self) -> String {
        let largest = self.piece_sizes().into_iter().max().unwrap_or(0);
        format!(
            "{}x{}, {} of up to {}, {}",
            self.width,
            self.height,
            count_of(self.piece_count(), "piece"),
            count_of(largest, "cell"),
            count_of(self.clue_count(), "given")
        )
    }

    fn model(&self, mode: GivenMode, names: bool) -> Model<Self::Map> {
        model::build(self, mode, names)
    }

    fn decode(&self, model: &Model<Self::Map>, a: &Assignment) -> Filling {
        model::decode(self, &model.map, a)
    }

    /// The givens are the filled cells, row by row; a dropped given is an empty cell, which
    /// never loses a solution.
    fn keeping(&self, keep: &[bool]) -> Option<Tectonic> {
        let mut sub = self.clone();
        let filled = sub.givens.iter_mut().filter(|v| **v != 0);
        for (v, &k) in filled.zip(keep) {
            if !k {
                *v = 0;
            }
        }
        Some(sub)
    }

    fn check(&self, s: &Filling) -> Result<(), String> {
        rules::check(self, s)
    }

    fn rows(&self, s: &Filling) -> Vec<Vec<i64>> {
        s.0.chunks(self.width)
            .map(|r| r.iter().map(|&v| v as i64).collect())
            .collect()
    }

    fn render(&self, s: Option<&Filling>, style: Style) -> String {
        render::grid(
            self,
            s.map(|g| g.0.as_slice()).unwrap_or(&self.givens),
            style,
        )
    }

    fn picture(&self, s: Option<&Filling>, _look: Look) -> Option<Picture> {
        Some(render::picture(
            self,
            s.map(|g| g.0.as_slice()).unwrap_or(&self.givens),
        ))
    }

    fn forced(&self, model: &Model<Self::Map>, lits: &[Lit]) -> Vec<CellValue> {
        model::forced(self, &model.map, lits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &str) -> Vec<String> {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .map(String::from)
            .collect()
    }

    #[test]
    fn neighbours_are_king_moves() {
        let n: Vec<usize> = king_neighbours(3, 3, 4).collect();
        assert_eq!(n, vec![0, 1, 2, 3, 5, 6, 7, 8]);
        let n: Vec<usize> = king_neighbours(3, 2, 0).collect();
        assert_eq!(n, vec![1, 3, 4]);
        let n: Vec<usize> = orthogonal_neighbours(3, 2, 5).collect();
        assert_eq!(n, vec![2, 4]);
    }

    #[test]
    fn builds_and_numbers_pieces_by_first_appearance() {
        let t = Tectonic::new(3, 2, &names("bba bca"), vec![0; 6], None).unwrap();
        assert_eq!(t.regions, vec![0, 0, 1, 0, 2, 1]);
        assert_eq!(t.region_names, vec!["b", "a", "c"]);
        assert_eq!(t.piece_sizes(), vec![3, 2, 1]);
        assert_eq!(t.pieces()[1], vec![2, 5]);
    }

    #[test]
    fn rejects_what_input_can_break() {
        let e = Tectonic::new(3, 2, &names("aba bbb"), vec![0; 6], None).unwrap_err();
        assert_eq!(e.cell, Some(2));
        assert!(e.message.contains("piece a is not connected"), "{e:?}");
        let e = Tectonic::new(3, 2, &names("aab bbb"), vec![0, 0, 0, 0, 0, 5], None).unwrap_err();
        assert!(e.message.contains("larger than its piece"), "{e:?}");
        let e = Tectonic::new(3, 2, &names("aab cbb"), vec![1, 0, 0, 0, 1, 0], None).unwrap_err();
        assert_eq!(e.cell, Some(4));
        assert!(e.message.contains("touches the 1 at r1c1"), "{e:?}");
        let e = Tectonic::new(3, 2, &names("aab bbb"), vec![0, 0, 2, 0, 0, 2], None).unwrap_err();
        assert!(
            e.message.contains("repeats the 2 at r1c3 in piece b"),
            "{e:?}"
        );
        let e = Tectonic::new(3, 2, &names("aab bb"), vec![0; 6], None).unwrap_err();
        assert_eq!(e.cell, None);
    }
}
