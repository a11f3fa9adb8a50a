//! The plain-text Tectonic format, for people who type puzzles, which is also the layout of the
//! abcqwq `.in` files and of puzzlekit's problem texts:
//!
//! ```text
//! # a comment
//! 5 5          <- optional: ROWS COLS
//! .3...        <- the givens: a digit, or . - _ 0 for an empty cell
//! .....
//! ..4..
//! .....
//! ...21
//!              <- a blank line (optional after a size line)
//! aaabb        <- the pieces: one name per cell, one piece per name
//! aaccc
//! ddd.c        (any character names a piece; `.` here is a piece like any other)
//! ...
//! ```
//!
//! A row is one character per cell (spaces between them are ignored), or, when it holds
//! several whitespace-separated tokens one of which is a number of two or more digits, one
//! token per cell (for pieces numbered past 9 or values above 9). Puzzles follow each other, separated by blank lines.

use super::{build, Pos};
use crate::error::InputError;
use crate::records::Item;
use crate::tectonic::Tectonic;

/// One non-blank line as cells: the text of each cell and its 1-based column.
struct Row {
    line: usize,
    cells: Vec<(String, usize)>,
    /// The row comes after a blank line (or starts the file).
    starts_block: bool,
}

fn tokens(line: &str) -> Vec<(String, usize)> {
    crate::text::tokens(line)
        .into_iter()
        .map(|(col, t)| (t.to_string(), col))
        .collect()
}

fn is_number(t: &str) -> bool {
    !t.is_empty() && t.chars().all(|c| c.is_ascii_digit())
}

fn cells_of(line: &str) -> Vec<(String, usize)> {
    let toks = tokens(line);
    if toks.len() >= 2 && toks.iter().any(|(t, _)| t.len() >= 2 && is_number(t)) {
        toks
    } else {
        line.chars()
            .enumerate()
            .filter(|(_, c)| !c.is_whitespace())
            .map(|(k, c)| (c.to_string(), k + 1))
            .collect()
    }
}

/// `ROWS COLS` on a line of its own.
fn size_line(line: &str) -> Option<(usize, usize)> {
    let t = tokens(line);
    if t.len() != 2 || !is_number(&t[0].0) || !is_number(&t[1].0) {
        return None;
    }
    let (r, c) = (t[0].0.parse().ok()?, t[1].0.parse().ok()?);
    (r >= 1 && c >= 1).then_some((r, c))
}

fn given_value(file: &str, line: usize, (t, col): &(String, usize)) -> Result<u8, InputError> {
    match t.as_str() {
        "." | "-" | "_" => return Ok(0),
        _ => {}
    }
    if is_number(t) {
        if let Ok(v) = t.parse::<u8>() {
            return Ok(v);
        }
    }
    Err(InputError::new(
        file,
        line,
        *col,
        format!("unexpected `{t}` in the givens: expected a digit, or `.` (also `-`, `_`, `0`) for an empty cell"),
    ))
}

/// Every puzzle in `text`.
pub fn parse(file: &str, text: &str) -> Result<Vec<Tectonic>, InputError> {
    crate::records::read_all(Reader::new(file), text)
}

/// Where the streaming reader is in a puzzle.
enum State {
    /// Between puzzles.
    Idle,
    /// After a size line `ROWS COLS`: its rows of givens, then of pieces (a blank line between
    /// them is optional).
    Sized {
        rows: usize,
        cols: usize,
        line: usize,
        read: Vec<Row>,
    },
    /// A grid of givens, up to a blank line.
    Givens(Vec<Row>),
    /// The grid of pieces after the givens, up to a blank line or the end.
    Pieces(Vec<Row>, Vec<Row>),
    /// A bad puzzle was reported: lines are passed over up to the next blank or size line.
    Skip,
    /// A grid of givens was reported bad: its lines are passed over up to the next blank or
    /// size line, and then the grid of pieces that follows it, told by cells that cannot be
    /// givens (a grid that can be givens starts the next puzzle).
    SkipGivens,
    /// After a bad grid of givens and a blank line: its grid of pieces, or the next puzzle.
    MaybePieces,
}

/// A puzzle after a size line whose rows are all read, handed back with the next line (a row
/// too many is an error of its own).
struct Held {
    line: usize,
    rows: usize,
    cols: usize,
    puzzle: Result<Tectonic, InputError>,
}

/// The streaming reader (see [`crate::records`]): a size line and the rows it announces, or a
/// grid of givens and the grid of pieces after it, is one puzzle. A size line starts a puzzle
/// wherever it comes (puzzles may follow each other without blank lines); after a bad puzzle
/// the reader reads on from the next blank or size line, so one bad puzzle costs only itself.
pub struct Reader {
    file: String,
    state: State,
    after_blank: bool,
    held: Option<Held>,
    handed: usize,
}

impl Reader {
    pub fn new(file: &str) -> Reader {
        Reader {
            file: file.to_string(),
            state: State::Idle,
            after_blank: true,
            held: None,
            handed: 0,
        }
    }

    fn hand(&mut self, r: Result<Tectonic, InputError>, out: &mut Vec<Item<Tectonic>>) {
        self.handed += 1;
        out.push(r);
    }

    /// A bad puzzle: its error, then lines are passed over up to the next blank or size line.
    fn fail(&mut self, line: usize, col: usize, m: String, out: &mut Vec<Item<Tectonic>>) {
        let e = InputError::new(&self.file, line, col, m);
        self.hand(Err(e), out);
        self.state = State::Skip;
    }

    fn hand_held(&mut self, out: &mut Vec<Item<Tectonic>>) {
        if let Some(h) = self.held.take() {
            self.hand(h.puzzle, out);
        }
    }

    fn assemble(
        &mut self,
        givens: &[Row],
        pieces: &[Row],
        size: Option<(usize, usize, usize)>,
        out: &mut Vec<Item<Tectonic>>,
    ) {
        let g: Vec<&Row> = givens.iter().collect();
        let p: Vec<&Row> = pieces.iter().collect();
        let t = puzzle(&self.file, &g, &p, size);
        self.hand(t, out);
    }

    /// A row of an unsized grid of givens: a cell that is no given (a title, a size line with
    /// a typo) makes the puzzle an error at once, so that the reader reads on from the next
    /// blank or size line instead of taking the next puzzle as this one's pieces.
    fn givens_row(&mut self, mut g: Vec<Row>, row: Row, out: &mut Vec<Item<Tectonic>>) {
        if let Some(e) = row
            .cells
            .iter()
            .find_map(|c| given_value(&self.file, row.line, c).err())
        {
            self.hand(Err(e), out);
            self.state = State::SkipGivens;
            return;
        }
        g.push(row);
        self.state = State::Givens(g);
    }

    /// A size line where a new puzzle may start: its puzzle, or the error of a size too large.
    fn start_sized(&mut self, ln: usize, (r, c): (usize, usize), out: &mut Vec<Item<Tectonic>>) {
        let limit = crate::tectonic::MAX_SIDE;
        if r > limit || c > limit {
            let m = format!(
                "the size line says {r}x{c}: a Tectonic is 1 to {limit} cells wide and high"
            );
            self.fail(ln, 1, m, out);
            return;
        }
        self.state = State::Sized {
            rows: r,
            cols: c,
            line: ln,
            read: Vec::with_capacity(2 * r),
        };
    }

    /// The error of a sized puzzle cut short at line `ln` (`why` says by what).
    fn short(&mut self, line: usize, rows: usize, read: &[Row], why: &str) -> InputError {
        let (what, got) = if read.len() < rows {
            ("givens", read.len())
        } else {
            ("pieces", read.len() - rows)
        };
        let at = read.last().map_or(line, |x| x.line);
        InputError::new(
            &self.file,
            at,
            1,
            format!(
                "the size line at line {line} says {rows} rows of {what}, but {why} after {got}"
            ),
        )
    }
}

/// True when a size line could be a row of a grid `width` cells wide (two cells).
fn could_be_row(width: usize) -> bool {
    width == 2
}

impl crate::records::PuzzleReader for Reader {
    type Puzzle = Tectonic;

    fn line(&mut self, ln: usize, line: &str, out: &mut Vec<Item<Tectonic>>) {
        let line = line.trim_start_matches('\u{feff}');
        if line.trim_start().starts_with('#') {
            return;
        }
        if line.trim().is_empty() {
            self.after_blank = true;
            self.hand_held(out);
            match std::mem::replace(&mut self.state, State::Idle) {
                State::Pieces(g, p) => self.assemble(&g, &p, None, out),
                State::Sized {
                    rows, line, read, ..
                } if !read.is_empty() && read.len() != rows => {
                    // A blank line inside the rows: the puzzle is short (its other rows, if
                    // any, are passed over up to the next blank or size line).
                    let e = self.short(line, rows, &read, "a blank line comes");
                    self.hand(Err(e), out);
                    self.state = State::Skip;
                }
                State::Skip => self.state = State::Idle,
                State::SkipGivens => self.state = State::MaybePieces,
                other => self.state = other,
            }
            return;
        }
        let row = Row {
            line: ln,
            cells: cells_of(line),
            starts_block: self.after_blank,
        };
        self.after_blank = false;
        let size = size_line(line);
        if let Some(h) = self.held.take() {
            // The line after a complete sized puzzle: a size line starts the next one, a row
            // as wide as the puzzle is one row too many.
            if size.is_none() && row.cells.len() == h.cols {
                // The puzzle stands as announced (the line may be a garbled size line as well
                // as a row too many); the line is the error.
                self.hand(h.puzzle, out);
                let m = format!(
                    "a row after the {} that the size line at line {} announces",
                    2 * h.rows,
                    h.line
                );
                self.fail(ln, 1, m, out);
                return;
            }
            self.hand(h.puzzle, out);
        }
        let limit = crate::tectonic::MAX_SIDE;
        match std::mem::replace(&mut self.state, State::Idle) {
            State::Skip => match size {
                Some(rc) => self.start_sized(ln, rc, out),
                None => self.state = State::Skip,
            },
            State::SkipGivens => match size {
                Some(rc) => self.start_sized(ln, rc, out),
                None => self.state = State::SkipGivens,
            },
            State::MaybePieces => match size {
                Some(rc) => self.start_sized(ln, rc, out),
                None if row
                    .cells
                    .iter()
                    .all(|c| given_value(&self.file, row.line, c).is_ok()) =>
                {
                    self.givens_row(Vec::new(), row, out)
                }
                // The bad puzzle's grid of pieces.
                None => self.state = State::Skip,
            },
            State::Idle => match size {
                Some(rc) => self.start_sized(ln, rc, out),
                None => self.givens_row(Vec::new(), row, out),
            },
            State::Sized {
                rows,
                cols,
                line,
                mut read,
            } => {
                if let (Some(rc), false) = (size, could_be_row(cols)) {
                    let e = self.short(line, rows, &read, "the next size line comes");
                    self.hand(Err(e), out);
                    self.start_sized(ln, rc, out);
                    return;
                }
                read.push(row);
                if read.len() == 2 * rows {
                    let pieces = read.split_off(rows);
                    let g: Vec<&Row> = read.iter().collect();
                    let p: Vec<&Row> = pieces.iter().collect();
                    let puzzle = puzzle(&self.file, &g, &p, Some((rows, cols, line)));
                    self.held = Some(Held {
                        line,
                        rows,
                        cols,
                        puzzle,
                    });
                } else {
                    self.state = State::Sized {
                        rows,
                        cols,
                        line,
                        read,
                    };
                }
            }
            State::Givens(g) if size.is_some() && !could_be_row(g[0].cells.len()) => {
                let m = "this grid of givens has no grid of pieces after it: a puzzle is a grid of givens, a blank line, then a grid of piece names (one name per cell)";
                let e = InputError::new(&self.file, g[0].line, 1, m);
                self.hand(Err(e), out);
                self.start_sized(ln, size.expect("a size line"), out);
            }
            State::Pieces(g, p) if size.is_some() && !could_be_row(g[0].cells.len()) => {
                self.assemble(&g, &p, None, out);
                self.start_sized(ln, size.expect("a size line"), out);
            }
            State::Givens(g) if row.starts_block => self.state = State::Pieces(g, vec![row]),
            State::Givens(g) if g.len() < limit => self.givens_row(g, row, out),
            State::Pieces(g, mut p) if p.len() < limit => {
                p.push(row);
                self.state = State::Pieces(g, p);
            }
            State::Givens(_) | State::Pieces(..) => {
                let m = format!("a grid of more than {limit} rows: a Tectonic is 1 to {limit} cells wide and high (grids are separated by blank lines)");
                self.fail(ln, 1, m, out);
            }
        }
    }

    fn end(&mut self, out: &mut Vec<Item<Tectonic>>) {
        self.hand_held(out);
        match std::mem::replace(&mut self.state, State::Idle) {
            State::Idle | State::Skip | State::SkipGivens | State::MaybePieces => {}
            State::Sized {
                rows, line, read, ..
            } => {
                let e = self.short(line, rows, &read, "the file ends");
                self.hand(Err(e), out);
            }
            State::Givens(g) => {
                let m = "this grid of givens has no grid of pieces after it: a puzzle is a grid of givens, a blank line, then a grid of piece names (one name per cell)";
                let e = InputError::new(&self.file, g[0].line, 1, m);
                self.hand(Err(e), out);
            }
            State::Pieces(g, p) => self.assemble(&g, &p, None, out),
        }
        if self.handed == 0 {
            let m = "no puzzle found (the file is empty or all comments)";
            out.push(Err(InputError::new(&self.file, 1, 1, m)));
        }
    }
}

fn puzzle(
    file: &str,
    givens: &[&Row],
    pieces: &[&Row],
    size: Option<(usize, usize, usize)>,
) -> Result<Tectonic, InputError> {
    let width = match size {
        Some((_, c, _)) => c,
        None => givens[0].cells.len(),
    };
    let said = |hl: Option<(usize, usize, usize)>| match hl {
        Some((_, _, l)) => format!("the size line at line {l} says {width} columns"),
        None => format!("the first row of givens has {width}"),
    };
    for r in givens.iter().chain(pieces) {
        if r.cells.len() != width {
            let col = r
                .cells
                .get(width)
                .map_or_else(|| r.cells.last().map_or(1, |c| c.1 + 1), |c| c.1);
            return Err(InputError::new(
                file,
                r.line,
                col,
                format!(
                    "this row has {} but {}",
                    crate::text::count_of(r.cells.len(), "cell"),
                    said(size)
                ),
            ));
        }
    }
    if givens.len() != pieces.len() {
        let last = pieces.last().expect("a block has rows");
        return Err(InputError::new(
            file,
            last.line,
            1,
            format!(
                "the grid of pieces starting at line {} has {}, but the givens at line {} have {}",
                pieces[0].line,
                crate::text::count_of(pieces.len(), "row"),
                givens[0].line,
                givens.len()
            ),
        ));
    }
    let height = givens.len();
    let mut values = Vec::with_capacity(width * height);
    let mut givens_at: Vec<Pos> = Vec::with_capacity(width * height);
    for r in givens {
        for c in &r.cells {
            values.push(given_value(file, r.line, c)?);
            givens_at.push((r.line, c.1));
        }
    }
    let mut names = Vec::with_capacity(width * height);
    let mut pieces_at: Vec<Pos> = Vec::with_capacity(width * height);
    for r in pieces {
        for (t, col) in &r.cells {
            names.push(t.clone());
            pieces_at.push((r.line, *col));
        }
    }
    build(
        file,
        width,
        height,
        &names,
        values,
        None,
        &givens_at,
        &pieces_at,
        (givens[0].line, 1),
    )
}

/// The names the text format writes for a puzzle's pieces: the input's own when each is one
/// character, else letters `a`-`z`, `A`-`Z` (up to 52 pieces), else numbers from 1.
pub fn piece_labels(t: &Tectonic) -> Vec<String> {
    let own = t
        .region_names
        .iter()
        .all(|n| n.chars().count() == 1 && !n.starts_with(|c: char| c.is_whitespace() || c == '#'));
    if own {
        return t.region_names.clone();
    }
    let letters: Vec<char> = ('a'..='z').chain('A'..='Z').collect();
    if t.piece_count() <= letters.len() {
        return (0..t.piece_count())
            .map(|k| letters[k].to_string())
            .collect();
    }
    (1..=t.piece_count()).map(|k| k.to_string()).collect()
}

fn write_grid(out: &mut String, width: usize, cells: &[String]) {
    let wide = cells.iter().any(|c| c.chars().count() > 1);
    let w = cells.iter().map(|c| c.chars().count()).max().unwrap_or(1);
    for row in cells.chunks(width) {
        let line: Vec<String> = if wide {
            row.iter().map(|c| format!("{c:>w$}")).collect()
        } else {
            row.to_vec()
        };
        out.push_str(&line.join(if wide { " " } else { "" }));
        out.push('\n');
    }
}

/// `t` in the text format, with `values` (row-major, 0 empty) as its givens: the grid of
/// givens, a blank line, the grid of pieces.
pub fn write(t: &Tectonic, values: &[u8]) -> String {
    let mut out = String::new();
    let digits: Vec<String> = values
        .iter()
        .map(|&v| if v == 0 { ".".into() } else { v.to_string() })
        .collect();
    write_grid(&mut out, t.width, &digits);
    out.push('\n');
    let labels = piece_labels(t);
    let names: Vec<String> = t.regions.iter().map(|&r| labels[r].clone()).collect();
    write_grid(&mut out, t.width, &names);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = "# the seed's example\n...\n.3.\n..2\n...\n..1\n\n112\n312\n311\n334\n544\n";

    #[test]
    fn reads_the_typed_form_and_writes_it_back() {
        let ps = parse("t", SEED).unwrap();
        assert_eq!(ps.len(), 1);
        let t = &ps[0];
        assert_eq!((t.width, t.height), (3, 5));
        assert_eq!(t.givens[4], 3);
        assert_eq!(t.piece_sizes(), vec![5, 2, 4, 3, 1]);
        let text = write(t, &t.givens);
        assert_eq!(text, "...\n.3.\n..2\n...\n..1\n\n112\n312\n311\n334\n544\n");
        assert_eq!(&parse("t", &text).unwrap()[0], t);
    }

    #[test]
    fn reads_sized_numbered_files_and_several_puzzles() {
        // abcqwq style: size line, givens (0 empty), pieces numbered past 9, no blank line.
        let text = "2 3\n1 0 0\n0 0 0\n10 10 11\n10 11 11\n\n2 3\n- - -\n- - -\n\n1 1 2\n1 2 2\n";
        let ps = parse("t", text).unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].region_names, vec!["10", "11"]);
        assert_eq!(ps[0].givens[0], 1);
        assert_eq!(ps[1].regions, ps[0].regions);
        // Written back with numbers (more than one character each).
        let back = write(&ps[0], &ps[0].givens);
        assert_eq!(back, "1..\n...\n\naab\nabb\n");
        let mut many = String::new();
        for _ in 0..3 {
            many.push_str(&back);
            many.push('\n');
        }
        assert_eq!(parse("t", &many).unwrap().len(), 3);
    }

    /// What a multi-puzzle read hands back: `Ok` as its size, errors as `E<line>`.
    fn outline(text: &str) -> Vec<String> {
        crate::records::outline(Reader::new("t"), text, |p| (p.width, p.height))
    }

    #[test]
    fn reads_on_after_a_bad_puzzle() {
        let good = "2 3\n1 . .\n. . .\n1 1 2\n1 2 2\n";
        // Back to back without blank lines.
        assert_eq!(outline(&good.repeat(3)), ["3x2", "3x2", "3x2"]);
        // One row short, then a blank line, or the next size line at once.
        let t = format!("{good}\n2 3\n1 . .\n. . .\n1 1 2\n\n{good}\n{good}");
        assert_eq!(outline(&t), ["3x2", "E10", "3x2", "3x2"]);
        let t = format!("{good}2 3\n1 . .\n. . .\n1 1 2\n{good}{good}");
        assert_eq!(outline(&t), ["3x2", "E9", "3x2", "3x2"]);
        // One row long: the puzzle as announced, and the row an error; the next one reads.
        let t = format!("{good}2 3\n1 . .\n. . .\n1 1 2\n1 2 2\n1 2 2\n{good}");
        assert_eq!(outline(&t), ["3x2", "3x2", "E11", "3x2"]);
        // A bad size line, a size past the limit, garbage between puzzles, a blank line
        // inside the rows.
        let t = format!("{good}2 x\n1 . .\n\n{good}99999 3\n. . .\n{good}\njunk\n\n{good}2 3\n1 . .\n\n. . .\n1 1 2\n1 2 2\n{good}");
        assert_eq!(
            outline(&t),
            ["3x2", "E6", "3x2", "E14", "3x2", "E22", "3x2", "E30", "3x2"]
        );
    }

    #[test]
    fn writes_numbers_for_many_pieces_and_large_values() {
        let names: Vec<String> = (0..60).map(|k| k.to_string()).collect();
        let t = Tectonic::new(60, 1, &names, vec![0; 60], None).unwrap();
        let text = write(&t, &t.givens);
        assert!(text.contains(" 9 10 11"), "{text}");
        assert_eq!(parse("t", &text).unwrap()[0].regions, t.regions);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("f", "..\n.x\n\naa\nbb\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 2));
        assert!(e.message.contains("unexpected `x`"), "{}", e.message);
        let e = parse("f", "...\n..\n\naaa\nbbb\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 3));
        let e = parse("f", "..\n..\n").unwrap_err();
        assert!(e.message.contains("no grid of pieces"), "{}", e.message);
        let e = parse("f", "..\n..\n\naa\nbb\ncc\n").unwrap_err();
        assert!(e.message.contains("has 3 rows"), "{}", e.message);
        // A piece in two parts: the error points into the grid of pieces.
        let e = parse("f", "...\n...\n\naba\nccc\n").unwrap_err();
        assert_eq!((e.line, e.col), (4, 3));
        assert!(e.message.contains("not connected"), "{}", e.message);
        // A value too large for its piece, and givens that touch: into the givens.
        let e = parse("f", "3.\n..\n\naa\nbb\n").unwrap_err();
        assert_eq!((e.line, e.col), (1, 1));
        assert!(e.message.contains("larger than its piece"), "{}", e.message);
        let e = parse("f", "1.\n.1\n\naa\nbb\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 2));
        let e = parse("f", "3 2\n..\n..\n").unwrap_err();
        assert!(e.message.contains("file ends"), "{}", e.message);
        let e = parse("f", "# nothing\n").unwrap_err();
        assert!(e.message.contains("no puzzle"));
    }
}
