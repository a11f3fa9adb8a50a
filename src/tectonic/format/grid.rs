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
    /// After a size line `ROWS COLS`: its rows of givens, then of pieces (blank lines between
    /// them are optional).
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
}

/// The streaming reader (see [`crate::records`]): a size line and the rows it announces, or a
/// grid of givens and the grid of pieces after it, is one puzzle.
pub struct Reader {
    file: String,
    state: State,
    after_blank: bool,
    /// A size or a grid past the limits: where the next puzzle starts is unknown, so the rest
    /// of the file is not read.
    dead: bool,
    handed: usize,
}

impl Reader {
    pub fn new(file: &str) -> Reader {
        Reader {
            file: file.to_string(),
            state: State::Idle,
            after_blank: true,
            dead: false,
            handed: 0,
        }
    }

    fn hand(&mut self, r: Result<Tectonic, InputError>, out: &mut Vec<Item<Tectonic>>) {
        self.handed += 1;
        out.push(r);
    }

    fn give_up(&mut self, line: usize, col: usize, m: String, out: &mut Vec<Item<Tectonic>>) {
        let e = InputError::new(&self.file, line, col, m);
        self.hand(Err(e), out);
        self.dead = true;
        self.state = State::Idle;
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
}

impl crate::records::PuzzleReader for Reader {
    type Puzzle = Tectonic;

    fn line(&mut self, ln: usize, line: &str, out: &mut Vec<Item<Tectonic>>) {
        let line = line.trim_start_matches('\u{feff}');
        if self.dead || line.trim_start().starts_with('#') {
            return;
        }
        if line.trim().is_empty() {
            self.after_blank = true;
            if let State::Pieces(..) = self.state {
                if let State::Pieces(g, p) = std::mem::replace(&mut self.state, State::Idle) {
                    self.assemble(&g, &p, None, out);
                }
            }
            return;
        }
        let row = Row {
            line: ln,
            cells: cells_of(line),
            starts_block: self.after_blank,
        };
        self.after_blank = false;
        let limit = crate::tectonic::MAX_SIDE;
        match std::mem::replace(&mut self.state, State::Idle) {
            State::Idle => match size_line(line) {
                Some((r, c)) if row.starts_block => {
                    if r > limit || c > limit {
                        let m = format!("the size line says {r}x{c}: a Tectonic is 1 to {limit} cells wide and high");
                        self.give_up(ln, 1, m, out);
                        return;
                    }
                    self.state = State::Sized {
                        rows: r,
                        cols: c,
                        line: ln,
                        read: Vec::with_capacity(2 * r),
                    };
                }
                _ => self.state = State::Givens(vec![row]),
            },
            State::Sized {
                rows,
                cols,
                line,
                mut read,
            } => {
                read.push(row);
                if read.len() == 2 * rows {
                    let pieces = read.split_off(rows);
                    self.assemble(&read, &pieces, Some((rows, cols, line)), out);
                } else {
                    self.state = State::Sized {
                        rows,
                        cols,
                        line,
                        read,
                    };
                }
            }
            State::Givens(g) if row.starts_block => self.state = State::Pieces(g, vec![row]),
            State::Givens(mut g) if g.len() < limit => {
                g.push(row);
                self.state = State::Givens(g);
            }
            State::Pieces(g, mut p) if p.len() < limit => {
                p.push(row);
                self.state = State::Pieces(g, p);
            }
            State::Givens(_) | State::Pieces(..) => {
                let m = format!("a grid of more than {limit} rows: a Tectonic is 1 to {limit} cells wide and high (grids are separated by blank lines)");
                self.give_up(ln, 1, m, out);
            }
        }
    }

    fn end(&mut self, out: &mut Vec<Item<Tectonic>>) {
        match std::mem::replace(&mut self.state, State::Idle) {
            State::Idle => {}
            State::Sized {
                rows, line, read, ..
            } => {
                let what = if read.len() < rows {
                    "givens"
                } else {
                    "pieces"
                };
                let at = read.last().map_or(line, |x| x.line);
                let m = format!("the size line at line {line} says {rows} rows of {what}, but the file ends before them");
                self.hand(Err(InputError::new(&self.file, at, 1, m)), out);
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
