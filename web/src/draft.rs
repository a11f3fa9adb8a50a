//! The puzzle being set on the page: a draft. A setter's board is often not yet a puzzle the
//! readers accept (a Numberlink number placed once, a Shisen-sho face three times), so the page
//! keeps a plain grid of cell tokens, the Tectonic pieces, and the rule options under the
//! command line's flag names (`box`, `rules`, `odd-lines`, `gravity`...). A draft becomes text
//! in its kind's plain format ([`Draft::text`]) and a puzzle by the library's own readers
//! ([`Draft::puzzle`]), so whatever the page checks is what `gridsat check` would read.

use gridsat::kinds::{self, AnyPuzzle, ReadOptions};
use gridsat::puzzle::{Kind, Puzzle};
use gridsat::{numberlink, sudoku, takuzu};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The largest side the page makes a new board of (the readers' own limits still apply).
pub const MAX_NEW_SIDE: usize = 100;

/// A board being set: every kind as cell tokens (`""` for an empty cell), row-major.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft {
    /// The kind's name (`sudoku`, `takuzu`, `tectonic`, `numberlink`, `shisen`).
    pub kind: String,
    pub width: usize,
    pub height: usize,
    /// Each cell's token: a Sudoku or Tectonic value, a Takuzu 0 or 1, a Numberlink label, a
    /// Shisen-sho face; `""` for an empty cell.
    pub cells: Vec<String>,
    /// Tectonic: each cell's piece (numbered from 0); empty for the other kinds.
    #[serde(default)]
    pub pieces: Vec<usize>,
    /// Rule options under the command line's flag names (`box` = `2x3`, `rules` = `nikoli`,
    /// `odd-lines` = `ones`, `regions` = `4x6x6`, `no-distinct-lines`, `gravity`, `chinese`,
    /// `no-outline` = `1`).
    #[serde(default)]
    pub flags: BTreeMap<String, String>,
}

/// The kind of a name, or a message.
pub fn kind_of(name: &str) -> Result<Kind, String> {
    Kind::from_name(name).ok_or_else(|| {
        format!("unknown kind `{name}`: expected sudoku, takuzu, tectonic, numberlink or shisen")
    })
}

/// Reading options from flags (the command line's `--box`, `--rules`, `--loops`,
/// `--odd-lines`, `--regions`, `--no-distinct-lines`, `--gravity`, `--chinese`,
/// `--no-outline`), or a message naming the bad one.
pub fn read_options(flags: &BTreeMap<String, String>) -> Result<ReadOptions, String> {
    let on = |k: &str| {
        flags
            .get(k)
            .is_some_and(|v| !matches!(v.as_str(), "" | "0" | "false"))
    };
    let mut o = ReadOptions::default();
    if let Some(b) = flags.get("box").filter(|b| !b.is_empty()) {
        let bad = || format!("box expects ROWSxCOLS like 2x3, got `{b}`");
        let (r, c) = b.split_once(['x', 'X']).ok_or_else(bad)?;
        let (r, c): (usize, usize) = (
            r.trim().parse().map_err(|_| bad())?,
            c.trim().parse().map_err(|_| bad())?,
        );
        if r == 0 || c == 0 {
            return Err(bad());
        }
        o.box_shape = Some((r, c));
    }
    if let Some(r) = flags.get("rules").filter(|r| !r.is_empty()) {
        o.rules = Some(
            numberlink::Rules::from_name(r)
                .ok_or_else(|| format!("unknown rules `{r}`: expected flow, cover or nikoli"))?,
        );
    }
    if let Some(l) = flags.get("loops").filter(|l| !l.is_empty()) {
        o.loops = numberlink::Loops::from_name(l)
            .ok_or_else(|| format!("unknown loops `{l}`: expected lazy or exact"))?;
    }
    if on("no-distinct-lines") {
        o.takuzu.distinct_lines = Some(false);
    }
    if let Some(v) = flags.get("odd-lines").filter(|v| !v.is_empty()) {
        o.takuzu.odd_lines = Some(
            takuzu::OddLines::from_name(v)
                .ok_or_else(|| format!("odd-lines expects either, ones or zeros, got `{v}`"))?,
        );
    }
    if let Some(v) = flags.get("regions").filter(|v| !v.is_empty()) {
        o.takuzu.regions = Some(v.clone());
    }
    o.shisen.gravity = on("gravity");
    o.shisen.chinese = on("chinese");
    o.shisen.no_outline = on("no-outline");
    Ok(o)
}

/// The flags that give a puzzle's rules back (what [`read_options`] reads).
pub fn flags_of(p: &AnyPuzzle) -> BTreeMap<String, String> {
    let mut f = BTreeMap::new();
    let mut set = |k: &str, v: String| {
        f.insert(k.to_string(), v);
    };
    match p {
        AnyPuzzle::Sudoku(s) => {
            if sudoku::default_box(s.size) != Some((s.box_rows, s.box_cols)) {
                set("box", format!("{}x{}", s.box_rows, s.box_cols));
            }
        }
        AnyPuzzle::Takuzu(t) => {
            for word in takuzu::format::directive(&t.rules, t.width, t.height).split_whitespace() {
                match word.split_once('=') {
                    Some((k, v)) => set(k, v.to_string()),
                    None => set(word, "1".into()),
                }
            }
        }
        AnyPuzzle::Tectonic(_) => {}
        AnyPuzzle::Numberlink(n) => {
            set("rules", n.rules.name().into());
        }
        AnyPuzzle::Shisen(s) => {
            if s.rules.gravity {
                set("gravity", "1".into());
            }
            if s.rules.chinese {
                set("chinese", "1".into());
            }
            if !s.rules.outline {
                set("no-outline", "1".into());
            }
        }
    }
    f
}

impl Draft {
    /// An empty board of a kind (Tectonic: every cell its own piece; Sudoku: `width` is the
    /// side, the boxes from the `box` flag or the usual shape).
    pub fn blank(
        kind: Kind,
        width: usize,
        height: usize,
        flags: BTreeMap<String, String>,
    ) -> Result<Draft, String> {
        let (width, height) = match kind {
            Kind::Sudoku => (width, width),
            _ => (width, height),
        };
        if width == 0 || height == 0 || width > MAX_NEW_SIDE || height > MAX_NEW_SIDE {
            return Err(format!(
                "a new board is 1 to {MAX_NEW_SIDE} cells a side, not {width}x{height}"
            ));
        }
        if kind == Kind::Sudoku {
            let (r, c) = match read_options(&flags)?.box_shape {
                Some(b) => b,
                None => sudoku::default_box(width).ok_or_else(|| {
                    format!("a {width}x{width} Sudoku needs a box shape (box ROWSxCOLS)")
                })?,
            };
            if r * c != width || !(4..=25).contains(&width) {
                return Err(format!(
                    "a Sudoku is 4x4 to 25x25 with boxes whose cells make a side: {r}x{c} boxes do not fit {width}x{width}"
                ));
            }
        }
        read_options(&flags)?;
        let cells = width * height;
        Ok(Draft {
            kind: kind.name().into(),
            width,
            height,
            cells: vec![String::new(); cells],
            pieces: if kind == Kind::Tectonic {
                (0..cells).collect()
            } else {
                Vec::new()
            },
            flags,
        })
    }

    /// The draft of a puzzle read by the library, with the flags that keep its rules.
    pub fn of_puzzle(p: &AnyPuzzle) -> Draft {
        let flags = flags_of(p);
        let tok = |v: u8| if v == 0 { String::new() } else { v.to_string() };
        let (kind, width, height, cells, pieces) = match p {
            AnyPuzzle::Sudoku(s) => (
                Kind::Sudoku,
                s.size,
                s.size,
                s.cells.iter().map(|&v| tok(v)).collect(),
                Vec::new(),
            ),
            AnyPuzzle::Takuzu(t) => (
                Kind::Takuzu,
                t.width,
                t.height,
                t.cells
                    .iter()
                    .map(|c| c.map_or(String::new(), |v| v.to_string()))
                    .collect(),
                Vec::new(),
            ),
            AnyPuzzle::Tectonic(t) => (
                Kind::Tectonic,
                t.width,
                t.height,
                t.givens.iter().map(|&v| tok(v)).collect(),
                t.regions.clone(),
            ),
            AnyPuzzle::Numberlink(n) => {
                let mut cells = vec![String::new(); n.cells()];
                for (k, &(a, b)) in n.ends.iter().enumerate() {
                    cells[a] = n.labels[k].clone();
                    cells[b] = n.labels[k].clone();
                }
                (Kind::Numberlink, n.width, n.height, cells, Vec::new())
            }
            AnyPuzzle::Shisen(s) => (
                Kind::Shisen,
                s.width,
                s.height,
                (0..s.cells_len())
                    .map(|c| s.cells[c].map_or(String::new(), |f| s.faces[f].clone()))
                    .collect(),
                Vec::new(),
            ),
        };
        Draft {
            kind: kind.name().into(),
            width,
            height,
            cells,
            pieces,
            flags,
        }
    }

    pub fn kind(&self) -> Result<Kind, String> {
        kind_of(&self.kind)
    }

    /// Checks that the draft's shape holds together (a draft comes from the page).
    pub fn validate(&self) -> Result<(), String> {
        let kind = self.kind()?;
        let n = self.width * self.height;
        if self.width == 0 || self.height == 0 || self.cells.len() != n {
            return Err(format!(
                "a {}x{} board has {n} cells, not {}",
                self.width,
                self.height,
                self.cells.len()
            ));
        }
        if kind == Kind::Tectonic && (self.pieces.len() != n || self.pieces.iter().any(|&p| p >= n))
        {
            return Err("every Tectonic cell needs a piece".into());
        }
        if self
            .cells
            .iter()
            .any(|t| t.chars().any(|c| c.is_whitespace() || c == '#'))
        {
            return Err("a cell's token has a space or #".into());
        }
        read_options(&self.flags)?;
        Ok(())
    }

    /// The row-major index of a cell.
    pub fn index(&self, row: usize, col: usize) -> Result<usize, String> {
        if row < self.height && col < self.width {
            Ok(row * self.width + col)
        } else {
            Err(format!(
                "r{}c{} is off the {}x{} board",
                row + 1,
                col + 1,
                self.width,
                self.height
            ))
        }
    }

    /// The draft in its kind's plain text format, with the rule directives of the kinds that
    /// have them (Takuzu, Shisen-sho); Sudoku's box shape and Numberlink's rule set travel as
    /// flags (their text formats do not hold them).
    pub fn text(&self) -> String {
        let kind = self.kind().unwrap_or(Kind::Sudoku);
        let (w, h) = (self.width, self.height);
        let mut s = String::new();
        let on = |k: &str| {
            self.flags
                .get(k)
                .is_some_and(|v| !matches!(v.as_str(), "" | "0" | "false"))
        };
        let rows = |s: &mut String, tok: &dyn Fn(usize) -> String, sep: &str| {
            for r in 0..h {
                let row: Vec<String> = (0..w).map(|c| tok(r * w + c)).collect();
                s.push_str(row.join(sep).trim_end());
                s.push('\n');
            }
        };
        let cell = |i: usize, empty: &str| -> String {
            let t = &self.cells[i];
            if t.is_empty() {
                empty.to_string()
            } else {
                t.clone()
            }
        };
        match kind {
            Kind::Sudoku => {
                // Whitespace-separated numbers read at every size (values past 9 too).
                let width = w.to_string().len();
                rows(&mut s, &|i| format!("{:>width$}", cell(i, "0")), " ");
            }
            Kind::Takuzu => {
                let mut words = Vec::new();
                if on("no-distinct-lines") {
                    words.push("no-distinct-lines".to_string());
                }
                for k in ["odd-lines", "regions"] {
                    if let Some(v) = self.flags.get(k).filter(|v| !v.is_empty()) {
                        words.push(format!("{k}={v}"));
                    }
                }
                if !words.is_empty() {
                    s.push_str(&format!("# takuzu: {}\n", words.join(" ")));
                }
                rows(&mut s, &|i| cell(i, "."), "");
            }
            Kind::Tectonic => {
                let wide = self.cells.iter().any(|t| t.len() > 1);
                rows(&mut s, &|i| cell(i, "."), if wide { " " } else { "" });
                s.push('\n');
                let names = piece_names(&self.pieces);
                let wide = names.iter().any(|n| n.len() > 1);
                let width = names.iter().map(|n| n.len()).max().unwrap_or(1);
                rows(
                    &mut s,
                    &|i| {
                        if wide {
                            format!("{:>width$}", names[self.pieces[i]])
                        } else {
                            names[self.pieces[i]].clone()
                        }
                    },
                    if wide { " " } else { "" },
                );
            }
            Kind::Numberlink => {
                // One character a cell (the Flow form) when every label is one character and
                // not all are digits; else whitespace-separated numbers.
                let single = self.cells.iter().all(|t| t.chars().count() <= 1);
                let digits = self
                    .cells
                    .iter()
                    .all(|t| t.chars().all(|c| c.is_ascii_digit()));
                if single && !digits {
                    rows(&mut s, &|i| cell(i, "."), "");
                } else {
                    let width = self
                        .cells
                        .iter()
                        .map(|t| t.chars().count())
                        .max()
                        .unwrap_or(1);
                    rows(&mut s, &|i| format!("{:<width$}", cell(i, ".")), " ");
                }
            }
            Kind::Shisen => {
                let words: Vec<&str> = [
                    ("gravity", on("gravity")),
                    ("chinese", on("chinese")),
                    ("no-outline", on("no-outline")),
                ]
                .iter()
                .filter(|w| w.1)
                .map(|w| w.0)
                .collect();
                if !words.is_empty() {
                    s.push_str(&format!("# shisen: {}\n", words.join(" ")));
                }
                let width = self
                    .cells
                    .iter()
                    .map(|t| t.chars().count())
                    .max()
                    .unwrap_or(1);
                rows(&mut s, &|i| format!("{:<width$}", cell(i, ".")), " ");
            }
        }
        s
    }

    /// The draft read as a puzzle by the library's reader of its kind, or the reader's message.
    pub fn puzzle(&self) -> Result<AnyPuzzle, String> {
        self.validate()?;
        let kind = self.kind()?;
        let opts = read_options(&self.flags)?;
        let text = self.text();
        let mut all = kinds::read("board", &text, kind, &opts).map_err(|e| e.to_string())?;
        match all.len() {
            1 => Ok(all.remove(0)),
            0 => Err("the board is empty".into()),
            n => Err(format!("the text holds {n} puzzles, not one")),
        }
    }

    /// The description `gridsat` prints for the puzzle (`9x9, boxes 3x3`), or the reader's
    /// message.
    pub fn describe(&self) -> Result<String, String> {
        self.puzzle()
            .map(|p| gridsat::with_puzzle!(&p, q => q.describe()))
    }
}

/// Names for Tectonic pieces: one character each while there are few enough, else numbers.
fn piece_names(pieces: &[usize]) -> Vec<String> {
    const CHARS: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let n = pieces.iter().max().map_or(0, |&m| m + 1);
    if n <= CHARS.len() {
        CHARS.chars().take(n).map(|c| c.to_string()).collect()
    } else {
        (0..n).map(|k| (k + 10).to_string()).collect()
    }
}
