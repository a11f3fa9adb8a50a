//! Reading and writing Tectonic files in the forms people and collections use:
//!
//! - [`xml`]: FWieP's XML (`<Puzzles><Puzzle width height [source]><Cell PieceNumber Value
//!   [Options]/>...`), read and written (a solved puzzle is written back with every Value);
//! - [`grid`]: plain text, a grid of givens then a grid of piece names, optionally after a
//!   `ROWS COLS` line (that is the abcqwq `.in` layout and puzzlekit's problem text too);
//! - [`json`]: puzzlekit's dataset JSON and the normalized JSON Lines of the corpus;
//! - [`csv`]: javandiermen's `board.NAME.csv` with its `layout.NAME.csv` beside it;
//! - [`url`]: pzprjs's `suguru` URLs (puzz.link), read through [`crate::kinds`] and written.
//!
//! The format is chosen from the content. Errors name the file, line and column (for XML the
//! element), and what was expected.

pub mod csv;
pub mod grid;
pub mod json;
pub mod url;
pub mod xml;

use super::{Invalid, Tectonic};
use crate::error::InputError;
use crate::records::{Item, PuzzleReader};

/// A 1-based line and column.
pub type Pos = (usize, usize);

/// Builds a puzzle and turns an [`Invalid`] into an error at the cell's position: `givens_at`
/// for faults in the givens, `pieces_at` for faults in the pieces (the same list when a format
/// keeps both in one place), `at` for the puzzle as a whole.
#[allow(clippy::too_many_arguments)]
pub(crate) fn build(
    file: &str,
    width: usize,
    height: usize,
    names: &[String],
    givens: Vec<u8>,
    source: Option<String>,
    givens_at: &[Pos],
    pieces_at: &[Pos],
    at: Pos,
) -> Result<Tectonic, InputError> {
    Tectonic::new(width, height, names, givens, source).map_err(|e: Invalid| {
        let list = if e.in_pieces { pieces_at } else { givens_at };
        let (line, col) = e.cell.and_then(|c| list.get(c).copied()).unwrap_or(at);
        InputError::new(file, line, col, e.message)
    })
}

/// Where the content starts: the first character that is not whitespace or a byte-order mark.
fn first_char(text: &str) -> Option<char> {
    text.trim_start_matches('\u{feff}')
        .trim_start()
        .chars()
        .next()
}

/// True when a line is a row of javandiermen's board CSV: fields of digits (or empty),
/// separated by commas.
fn is_csv_row(line: &str) -> bool {
    line.contains(',')
        && line.contains(|c: char| c.is_ascii_digit())
        && line.split(',').all(|f| {
            f.trim()
                .chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == '-')
        })
}

/// True when a line is one JSON object that is not a dataset (a JSON Lines record).
fn is_json_record(line: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(line)
        .is_ok_and(|v| v.is_object() && v.get("data").is_none())
}

/// The first line that is neither blank nor a `#` comment.
fn first_line(text: &str) -> Option<&str> {
    text.lines()
        .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
}

/// Every puzzle in `text` (the contents of `file`). A javandiermen board CSV needs its layout:
/// read it with [`Reader::with_layout`].
pub fn parse(file: &str, text: &str) -> Result<Vec<Tectonic>, InputError> {
    crate::records::read_all(Reader::new(file), text)
}

/// The streaming reader of every Tectonic form (see [`crate::records`]), chosen on the first
/// line that is not blank: XML and the text grids stream puzzle by puzzle, JSON Lines line by
/// line; a JSON dataset and a CSV board (one puzzle) are read whole.
pub struct Reader {
    file: String,
    inner: Inner,
    /// The layout of a CSV board (read by the caller).
    layout: Option<csv::LayoutFile>,
}

enum Inner {
    /// The form is not known yet: the lines so far.
    Undecided(Vec<(usize, String)>),
    Xml(Box<xml::Reader>),
    Grid(grid::Reader),
    JsonLines(usize),
    /// A JSON dataset or a CSV board: every line, read at the end.
    Whole(crate::records::Lines, bool),
}

impl Reader {
    pub fn new(file: &str) -> Reader {
        Reader {
            file: file.to_string(),
            inner: Inner::Undecided(Vec::new()),
            layout: None,
        }
    }

    /// The same reader, with the layout that belongs to the file if it is a CSV board.
    pub fn with_layout(mut self, layout: Option<csv::LayoutFile>) -> Reader {
        self.layout = layout;
        self
    }

    /// The form the lines so far decide, if they do.
    fn decide(&self, lines: &[(usize, String)], at_end: bool) -> Option<Inner> {
        let first = lines
            .iter()
            .map(|(_, l)| l.trim_start_matches('\u{feff}'))
            .find(|l| !l.trim().is_empty());
        let lead = first?.trim_start();
        if lead.starts_with('<') {
            return Some(Inner::Xml(Box::new(xml::Reader::new(&self.file))));
        }
        if lead.starts_with('{') || lead.starts_with('[') {
            // One object a line (JSON Lines), or a bad one: a line that opens and closes an
            // object, as a record does; a dataset opens on its own line or with `"data"`.
            let object = match serde_json::from_str::<serde_json::Value>(lead) {
                Ok(v) => v.is_object() && v.get("data").is_none(),
                Err(_) => lead.starts_with('{') && lead.trim_end().ends_with('}'),
            };
            return Some(if object {
                Inner::JsonLines(0)
            } else {
                Inner::Whole(Default::default(), false)
            });
        }
        let content = lines
            .iter()
            .map(|(_, l)| l.as_str())
            .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        match content {
            Some(l) if is_csv_row(l) => Some(Inner::Whole(Default::default(), true)),
            Some(_) => Some(Inner::Grid(grid::Reader::new(&self.file))),
            None if at_end => Some(Inner::Grid(grid::Reader::new(&self.file))),
            None => None,
        }
    }

    fn take(&mut self, ln: usize, line: &str, out: &mut Vec<Item<Tectonic>>) {
        match &mut self.inner {
            Inner::Undecided(_) => unreachable!("decided first"),
            Inner::Xml(r) => r.line(ln, line, out),
            Inner::Grid(r) => {
                let lead = line.trim_start();
                if lead.starts_with('{') && is_json_record(lead) {
                    // A JSON record where a text grid was read: the file is JSON Lines after
                    // all (its first record was bad).
                    let mut got = Vec::new();
                    r.end(&mut got);
                    out.extend(got.into_iter().filter(
                        |g| !matches!(g, Err(e) if e.message.starts_with("no puzzle found")),
                    ));
                    self.inner = Inner::JsonLines(1);
                    return self.take(ln, line, out);
                }
                r.line(ln, line, out)
            }
            Inner::JsonLines(n) => {
                if let Some(r) = json::json_line(&self.file, ln, line) {
                    *n += 1;
                    out.push(r);
                }
            }
            Inner::Whole(lines, _) => {
                if lines.is_empty() && ln > 1 {
                    // Keep the line numbers: the text starts at line 1.
                    for k in 1..ln {
                        lines.push(k, "");
                    }
                }
                lines.push(ln, line)
            }
        }
    }
}

impl crate::records::PuzzleReader for Reader {
    type Puzzle = Tectonic;

    fn line(&mut self, ln: usize, line: &str, out: &mut Vec<Item<Tectonic>>) {
        if let Inner::Undecided(pending) = &mut self.inner {
            pending.push((ln, line.to_string()));
            let pending = std::mem::take(pending);
            match self.decide(&pending, false) {
                Some(inner) => {
                    self.inner = inner;
                    for (ln, l) in pending {
                        self.take(ln, &l, out);
                    }
                }
                None => self.inner = Inner::Undecided(pending),
            }
            return;
        }
        self.take(ln, line, out);
    }

    fn end(&mut self, out: &mut Vec<Item<Tectonic>>) {
        if let Inner::Undecided(pending) = &mut self.inner {
            let pending = std::mem::take(pending);
            let Some(inner) = self.decide(&pending, true) else {
                out.push(Err(InputError::new(
                    &self.file,
                    1,
                    1,
                    "no puzzle found (the file is empty)",
                )));
                return;
            };
            self.inner = inner;
            for (ln, l) in pending {
                self.take(ln, &l, out);
            }
        }
        match &mut self.inner {
            Inner::Undecided(_) => {}
            Inner::Xml(r) => r.end(out),
            Inner::Grid(r) => r.end(out),
            Inner::JsonLines(0) => out.push(Err(InputError::new(
                &self.file,
                1,
                1,
                "no puzzle found (the file is empty)",
            ))),
            Inner::JsonLines(_) => {}
            Inner::Whole(lines, csv_board) => {
                let whole = lines.take();
                let text = whole.text();
                let got = if *csv_board {
                    csv::parse(&self.file, &text, self.layout.as_ref())
                } else {
                    json::dataset(&self.file, &text)
                };
                match got {
                    Ok(ps) => out.extend(ps.into_iter().map(Ok)),
                    // A file taken for a dataset or a board by a bad first line that holds JSON
                    // Lines records: each line is read as one, so the good ones are answered.
                    Err(_) if whole.lines.iter().any(|l| is_json_record(l)) => {
                        for (ln, l) in whole.numbered() {
                            out.extend(json::json_line(&self.file, ln, l));
                        }
                    }
                    Err(e) => out.push(Err(e)),
                }
            }
        }
    }
}

/// True when `text` (the file `path`) looks like a Tectonic file: FWieP's XML, Tectonic JSON,
/// a board CSV, or a text grid that reads as a valid Tectonic (givens then pieces).
pub fn looks_like(path: &str, text: &str, complete: bool) -> bool {
    match first_char(text) {
        Some('<') => text.contains("<Puzzles") || text.contains("<Puzzle "),
        Some('{') => json::looks_like(text),
        Some(_) if first_line(text).is_some_and(|l| l.contains(',')) => {
            csv::layout_path(path).is_some()
        }
        // Two grids need a blank line between them or a size line; only then try to read.
        Some(_) => {
            let blank_between = text.trim().lines().any(|l| l.trim().is_empty());
            let sized = first_line(text).is_some_and(|l| {
                let t: Vec<&str> = l.split_whitespace().collect();
                t.len() == 2 && t.iter().all(|x| x.parse::<usize>().is_ok())
            });
            (blank_between || sized)
                && crate::records::reads_cleanly(grid::Reader::new(path), text, complete)
                    .is_some_and(|ps| !ps.is_empty())
        }
        None => false,
    }
}

/// The formats [`write_solutions`] writes.
pub const FORMATS: &[&str] = &["xml", "text", "url"];

/// Puzzles written in `format` (`xml`: one document; `text`: the text form, separated by blank
/// lines; `url`: one puzz.link URL a line, the puzzle only), each with its solution's rows when
/// there is one, else as given.
pub fn write_solutions(
    format: &str,
    items: &[(&Tectonic, Option<&Vec<Vec<i64>>>)],
) -> Result<String, String> {
    let values: Vec<Vec<u8>> = items
        .iter()
        .map(|(t, rows)| match rows {
            Some(rows) => rows.iter().flatten().map(|&v| v as u8).collect(),
            None => t.givens.clone(),
        })
        .collect();
    match format {
        "xml" => {
            let pairs: Vec<(&Tectonic, &[u8])> = items
                .iter()
                .zip(&values)
                .map(|((t, _), v)| (*t, v.as_slice()))
                .collect();
            Ok(xml::write(&pairs))
        }
        "text" => Ok(items
            .iter()
            .zip(&values)
            .map(|((t, _), v)| grid::write(t, v))
            .collect::<Vec<_>>()
            .join("\n")),
        "url" => Ok(items
            .iter()
            .map(|(t, _)| url::to_url(t, &t.givens) + "\n")
            .collect()),
        other => Err(format!(
            "unknown --format {other} for tectonic: expected {}",
            FORMATS.join(", ")
        )),
    }
}

/// The 1-based line and column of byte `offset` in `text`.
pub(crate) fn line_col(text: &str, offset: usize) -> Pos {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |k| k + 1);
    (line, before[start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_of_an_offset() {
        let t = "ab\ncde\nf";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 4), (2, 2));
        assert_eq!(line_col(t, 7), (3, 1));
    }

    #[test]
    fn chooses_the_format_from_the_content() {
        let text = "\n.2\n..\n\naa\nbb\n";
        assert_eq!(parse("t", text).unwrap().len(), 1);
        assert!(looks_like("x", text, true));
        assert!(!looks_like("x", "1...\n....\n....\n...5\n", true));
        assert!(looks_like("x", "<?xml version=\"1.0\"?>\n<Puzzles>", true));
        assert!(parse("t", "  \n").is_err());
    }

    #[test]
    fn json_lines_after_a_bad_first_line_are_read() {
        // A first line that makes the file look like a dataset (`{` alone) or a CSV board (a
        // fragment of numbers and commas): the JSON Lines records after it are still read
        // (found by the splice fuzzer).
        let rec = r#"{"w": 2, "h": 1, "regions": [0, 0], "givens": ".1"}"#;
        for first in ["{", ", 0, 1, 1, 0, 2, "] {
            let text = format!("{first}\n{rec}\n{rec}\n");
            let got = crate::records::feed(&mut Reader::new("t"), &text);
            let shape: Vec<bool> = got.iter().map(|r| r.is_ok()).collect();
            assert_eq!(shape, [false, true, true], "{first}");
        }
    }
}
