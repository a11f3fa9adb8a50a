//! Reading Sudoku files in the forms the community uses:
//!
//! - one puzzle per line, one character per cell (`.`, `0` or `_` empty; `1`-`9`, then `A`-`Z`
//!   for 10 and up), as in every public collection; the first whitespace-separated token whose
//!   length is a square side (16, 36, 64, 81, 100, 144, 256, 625...) is the puzzle, so rated
//!   lists (`<puzzle> <rating> ...`, `<id> <puzzle> <rating>`) read as they are;
//! - a multi-line grid, separators `|`, `-`, `+`, `=` and spaces ignored, puzzles separated by
//!   blank lines;
//! - for sides over 9, a grid of whitespace-separated numbers (`0` or `.` empty);
//! - the `quizzes,solutions` CSV of the large public datasets (a header naming the puzzle
//!   column `quizzes`, `puzzle`..., or none, and the puzzle in the first field that is one);
//! - pencil-mark positions, which keep the candidates a person has struck out
//!   ([`Sudoku::marks`]): 729-character Sukaku grids (nine characters per cell, digit `d` in
//!   place `d` when it is a candidate, `0` or `.` otherwise) and HoDoKu library lines
//!   (`:code:digits:grid with + before placed values:struck candidates as dRC ...:...`).
//!
//! Lines starting with `#` are comments. Errors name the file, line and column. Solutions and
//! puzzles are written back by [`write_solutions`] in the forms they are read in.

use super::{default_box, Sudoku, MAX_SIZE};
use crate::error::InputError;
use crate::puzzle::cell_name;
use crate::text::{is_comment, tokens};

/// Options for reading: the box shape when it should not be inferred from the side.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions {
    pub box_shape: Option<(usize, usize)>,
}

/// One cell as read, with its value and position (1-based line and column).
#[derive(Clone, Copy, Debug)]
struct Read {
    value: u32,
    line: usize,
    col: usize,
    /// The character it was read from (one-character cells), for messages.
    ch: Option<char>,
}

/// The character for a value in the one-line form.
pub fn value_char(v: u8) -> char {
    match v {
        0 => '.',
        1..=9 => (b'0' + v) as char,
        _ => (b'A' + v - 10) as char,
    }
}

fn char_value(c: char) -> Option<u32> {
    match c {
        '.' | '0' | '_' => Some(0),
        '1'..='9' => Some(c as u32 - '0' as u32),
        'A'..='Z' => Some(c as u32 - 'A' as u32 + 10),
        'a'..='z' => Some(c as u32 - 'a' as u32 + 10),
        _ => None,
    }
}

/// True when a line holds a token that could be a one-line puzzle: a square number of cell
/// characters (16, 36, 64, 81, ...).
fn has_one_line_token(line: &str) -> bool {
    line.split_whitespace()
        .any(|t| is_square_side(t.chars().count()) && t.chars().all(|c| char_value(c).is_some()))
}

fn is_square_side(len: usize) -> bool {
    let s = (len as f64).sqrt().round() as usize;
    s * s == len && (4..=MAX_SIZE).contains(&s)
}

/// Parses every puzzle in `text` (the contents of `file`).
pub fn parse(file: &str, text: &str, opts: ReadOptions) -> Result<Vec<Sudoku>, InputError> {
    crate::records::read_all(Reader::new(file, opts), text)
}

/// Which form a file is in, decided on its first line that is neither blank nor a comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// One puzzle per line (a 729-character Sukaku grid is one too).
    Lines,
    /// Grids separated by blank lines.
    Grids,
    /// HoDoKu library lines, one position each.
    Hodoku,
    /// The datasets' CSV: the puzzle in this column (`None` until the header or the first row
    /// says which).
    Csv(Option<usize>),
}

/// The streaming reader: one line is a puzzle, or a block between blank lines is a grid (see
/// [`crate::records`]). A bad grid is reported once and skipped to its end.
pub struct Reader {
    file: String,
    opts: ReadOptions,
    form: Option<Form>,
    /// The rows of the grid being read.
    rows: Vec<Vec<Read>>,
    block_start: (usize, usize),
    last_line: usize,
    /// An error was reported in this grid: its other rows are skipped.
    skipping: bool,
    /// A grid has read cleanly: lines of a square length are rows from then on.
    grids_read: bool,
    /// The first row of the grid being read is cell characters only (no separators).
    bare_first: bool,
    /// While every row of the grid being read is also a one-line puzzle that failed to read
    /// (a bad one-liner, then lines of the same length): those errors, one a row. A valid
    /// one-liner after them shows that they were one-liners, not a grid: each is then its own
    /// error, and the file is one puzzle a line from there.
    bad_lines: Option<Vec<InputError>>,
    handed: usize,
}

impl Reader {
    pub fn new(file: &str, opts: ReadOptions) -> Reader {
        Reader {
            file: file.to_string(),
            opts,
            form: None,
            rows: Vec::new(),
            block_start: (1, 1),
            last_line: 1,
            skipping: false,
            grids_read: false,
            bare_first: false,
            bad_lines: None,
            handed: 0,
        }
    }

    /// True when `line`, in a file read as grids, is rather a one-line puzzle: it holds a token
    /// of a square length, no grid has read cleanly yet, and it cannot be a row of the grid
    /// being read (none is, or the grid was bad, or its rows are of another width or wider than
    /// any Sudoku).
    fn one_liner_here(&self, line: &str) -> bool {
        let t = line.trim();
        let bare = is_square_side(t.chars().count()) && t.chars().all(|c| char_value(c).is_some());
        !self.grids_read
            && has_one_line_token(line)
            && (self.skipping
                || self.rows.is_empty()
                || self.rows[0].len() > MAX_SIZE
                || self.rows[0].len() != t.chars().count()
                || (bare && !self.bare_first))
    }

    fn finish(&mut self, out: &mut Vec<Result<Sudoku, InputError>>) {
        if !self.rows.is_empty() && !self.skipping {
            let g = finish_grid(
                &self.file,
                &self.rows,
                self.opts,
                self.block_start,
                self.last_line,
            );
            self.grids_read |= g.is_ok();
            self.hand(g, out);
        }
        self.rows.clear();
        self.skipping = false;
        self.bad_lines = None;
    }

    fn hand(&mut self, r: Result<Sudoku, InputError>, out: &mut Vec<Result<Sudoku, InputError>>) {
        self.handed += 1;
        out.push(r);
    }
}

impl crate::records::PuzzleReader for Reader {
    type Puzzle = Sudoku;

    fn line(&mut self, ln: usize, line: &str, out: &mut Vec<Result<Sudoku, InputError>>) {
        if is_comment(line) {
            return;
        }
        let blank = line.trim().is_empty();
        let off_form = match self.form {
            // ... or, while the grid so far is lines that failed as one-liners, another.
            Some(Form::Grids) => {
                self.one_liner_here(line) || (self.bad_lines.is_some() && has_one_line_token(line))
            }
            // A file taken for HoDoKu lines or CSV by its first line (a bad one, say): a plain
            // one-line puzzle is read as one.
            Some(Form::Hodoku) => !line.trim_start().starts_with(':') && has_one_line_token(line),
            Some(Form::Csv(_)) => !line.contains(',') && has_one_line_token(line),
            _ => false,
        };
        // The error of this line read as a one-line puzzle, when it was tried and failed.
        let mut as_line = None;
        if !blank && off_form {
            // A one-line puzzle where no grid has been read yet (after a title, say): the file
            // is one puzzle a line, and the block before it was no grid; when that block was
            // lines that failed as one-liners, each is its own error.
            match parse_line(&self.file, ln, line, self.opts) {
                Ok(p) => {
                    match self.bad_lines.take() {
                        Some(errors) => {
                            for e in errors {
                                self.hand(Err(e), out);
                            }
                            self.rows.clear();
                            self.skipping = false;
                        }
                        None => self.finish(out),
                    }
                    self.form = Some(Form::Lines);
                    self.hand(Ok(p), out);
                    return;
                }
                Err(e) => as_line = Some(e),
            }
        }
        let form = match self.form {
            Some(f) => f,
            None if blank => return,
            None => {
                let one_line = has_one_line_token(line);
                *self.form.insert(if line.trim_start().starts_with(':') {
                    Form::Hodoku
                } else if line.contains(',') && !line.contains(char::is_whitespace) {
                    Form::Csv(None)
                } else if one_line {
                    Form::Lines
                } else {
                    Form::Grids
                })
            }
        };
        match form {
            Form::Lines | Form::Hodoku | Form::Csv(_) if blank => {}
            Form::Lines => {
                let p = parse_line(&self.file, ln, line, self.opts);
                self.hand(p, out);
            }
            Form::Hodoku => {
                let p = parse_hodoku(&self.file, ln, line);
                self.hand(p, out);
            }
            Form::Csv(column) => match parse_csv(&self.file, ln, line, column, self.opts) {
                Ok(Csv::Header(k)) => self.form = Some(Form::Csv(Some(k))),
                Ok(Csv::Puzzle(k, p)) => {
                    self.form = Some(Form::Csv(Some(k)));
                    self.hand(Ok(*p), out);
                }
                Err(e) => self.hand(Err(e), out),
            },
            Form::Grids if blank => self.finish(out),
            Form::Grids if is_separator_line(line) || self.skipping => {}
            Form::Grids => {
                if self.rows.is_empty() {
                    self.block_start = (ln, 1);
                    self.bare_first = line.trim().chars().all(|c| char_value(c).is_some());
                    self.bad_lines = Some(Vec::new());
                }
                self.bad_lines = match (self.bad_lines.take(), as_line) {
                    (Some(mut errors), Some(e)) => {
                        errors.push(e);
                        Some(errors)
                    }
                    _ => None,
                };
                self.last_line = ln;
                match parse_row(&self.file, ln, line) {
                    Ok(row) if self.rows.len() < MAX_SIZE => self.rows.push(row),
                    Ok(_) => {
                        let e = InputError::new(
                            &self.file,
                            ln,
                            1,
                            format!("a grid of more than {MAX_SIZE} rows: a Sudoku is at most {MAX_SIZE}x{MAX_SIZE} (puzzles are separated by blank lines)"),
                        );
                        self.hand(Err(e), out);
                        self.skipping = true;
                        self.bad_lines = None;
                    }
                    Err(e) => {
                        self.hand(Err(e), out);
                        self.skipping = true;
                        self.bad_lines = None;
                    }
                }
            }
        }
    }

    fn end(&mut self, out: &mut Vec<Result<Sudoku, InputError>>) {
        self.finish(out);
        if self.handed == 0 {
            let message = match self.form {
                Some(Form::Csv(_)) => "no puzzle found (a CSV header and no rows)",
                Some(_) => "no puzzle found (the file holds only comments, blank lines and separator lines)",
                None => "no puzzle found (the file is empty or all comments)",
            };
            out.push(Err(InputError::new(&self.file, 1, 1, message)));
            self.handed += 1;
        }
    }
}

/// The puzzle on one line of a one-line file.
fn parse_line(file: &str, ln: usize, line: &str, opts: ReadOptions) -> Result<Sudoku, InputError> {
    match plain_nine(line, opts) {
        Some(s) => Ok(s),
        None => parse_line_general(file, ln, line, opts),
    }
}

/// [`parse_line`] for any line: the puzzle is its first token of a square length.
fn parse_line_general(
    file: &str,
    ln: usize,
    line: &str,
    opts: ReadOptions,
) -> Result<Sudoku, InputError> {
    let tokens = tokens(line);
    let chosen = tokens
        .iter()
        .find(|(_, t)| is_square_side(t.chars().count()))
        .or_else(|| tokens.first())
        .copied()
        .expect("non-blank line has a token");
    let (col0, tok) = chosen;
    if is_sukaku(tok) {
        return sukaku(file, ln, col0, tok);
    }
    if tok.len() > MAX_SIZE * MAX_SIZE * 4 {
        // Far more characters than any one-line puzzle has cells: said before reading them.
        return Err(InputError::new(
            file,
            ln,
            col0,
            format!("a one-line puzzle of {} characters: a Sudoku is at most {MAX_SIZE}x{MAX_SIZE} ({} cells)", tok.len(), MAX_SIZE * MAX_SIZE),
        ));
    }
    let mut cells = Vec::with_capacity(tok.len());
    for (k, c) in tok.chars().enumerate() {
        match char_value(c) {
            Some(v) => cells.push(Read { value: v, line: ln, col: col0 + k, ch: Some(c) }),
            None => {
                return Err(InputError::new(
                    file,
                    ln,
                    col0 + k,
                    format!("unexpected `{c}`: expected a digit 1-9, a letter A-Z for 10 and up, or `.`/`0` for an empty cell"),
                ))
            }
        }
    }
    if !is_square_side(cells.len()) {
        return Err(InputError::new(
            file,
            ln,
            col0,
            format!(
                "a one-line puzzle needs a square number of cells (81 for 9x9, 16, 36, 64, 100, 144, 256, 625...), found {}",
                cells.len()
            ),
        ));
    }
    let side = (cells.len() as f64).sqrt().round() as usize;
    build(file, side, &cells, opts, (ln, col0))
}

/// The common line of the large collections, read without the general path's per-cell
/// records: exactly 81 characters, each a digit or `.`/`_`, boxes 3x3. `None` for any other
/// line, and for one with a repeated given (the general path then names it), so the result is
/// always what [`parse_line`]'s general path gives.
fn plain_nine(line: &str, opts: ReadOptions) -> Option<Sudoku> {
    const SIDE: usize = 9;
    let bytes = line.as_bytes();
    if bytes.len() != SIDE * SIDE || !matches!(opts.box_shape, None | Some((3, 3))) {
        return None;
    }
    let mut s = Sudoku::empty(SIDE, 3, 3);
    let (mut rows, mut cols, mut boxes) = ([0u16; SIDE], [0u16; SIDE], [0u16; SIDE]);
    for (i, (&b, cell)) in bytes.iter().zip(s.cells.iter_mut()).enumerate() {
        let v = match b {
            b'1'..=b'9' => b - b'0',
            b'.' | b'0' | b'_' => continue,
            _ => return None,
        };
        let (r, c) = (i / SIDE, i % SIDE);
        let (bx, bit) = ((r / 3) * 3 + c / 3, 1u16 << v);
        if (rows[r] | cols[c] | boxes[bx]) & bit != 0 {
            return None;
        }
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[bx] |= bit;
        *cell = v;
    }
    Some(s)
}

fn is_separator_line(line: &str) -> bool {
    line.chars()
        .all(|c| matches!(c, '-' | '+' | '|' | '=' | '*' | ' ' | '\t'))
}

/// One row of a grid: single characters (separators ignored), or whitespace-separated numbers
/// when any token is longer than one character.
fn parse_row(file: &str, ln: usize, line: &str) -> Result<Vec<Read>, InputError> {
    let chars: Vec<char> = line.chars().collect();
    // Tokens split on whitespace and `|`.
    let mut tokens: Vec<(usize, String)> = Vec::new();
    let mut cur = String::new();
    let mut cur_col = 0;
    for (k, &c) in chars.iter().enumerate() {
        if c.is_whitespace() || c == '|' {
            if !cur.is_empty() {
                tokens.push((cur_col, std::mem::take(&mut cur)));
            }
        } else {
            if cur.is_empty() {
                cur_col = k + 1;
            }
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        tokens.push((cur_col, cur));
    }
    let numbers = tokens
        .iter()
        .any(|(_, t)| t.len() > 1 && t.chars().all(|c| c.is_ascii_digit()));
    let mut row = Vec::new();
    if numbers {
        for (col, t) in tokens {
            if t == "." || t.chars().all(|c| c == '-' || c == '+') && t.len() > 1 {
                if t == "." {
                    row.push(Read {
                        value: 0,
                        line: ln,
                        col,
                        ch: None,
                    });
                }
                continue;
            }
            let v: u32 = t.parse().map_err(|_| {
                InputError::new(
                    file,
                    ln,
                    col,
                    format!("unexpected `{t}`: expected a number (0 or `.` for an empty cell)"),
                )
            })?;
            row.push(Read {
                value: v,
                line: ln,
                col,
                ch: None,
            });
        }
    } else {
        for (k, &c) in chars.iter().enumerate() {
            // `-` is a separator, but not as the sign of a number: `-1` is no cell value.
            let signed = c == '-'
                && chars.get(k + 1).is_some_and(|d| d.is_ascii_digit())
                && (k == 0 || chars[k - 1].is_whitespace() || chars[k - 1] == '|');
            if signed {
                return Err(InputError::new(
                    file,
                    ln,
                    k + 1,
                    "unexpected `-` before a digit: cell values are 1 and up (0 or `.` for an empty cell), never negative".to_string(),
                ));
            }
            if c.is_whitespace() || matches!(c, '|' | '-' | '+' | '=') {
                continue;
            }
            match char_value(c) {
                Some(v) => row.push(Read { value: v, line: ln, col: k + 1, ch: Some(c) }),
                None => {
                    return Err(InputError::new(
                        file,
                        ln,
                        k + 1,
                        format!("unexpected `{c}`: expected a digit 1-9, a letter A-Z for 10 and up, `.`/`0` for an empty cell, or a separator `|` `-` `+`"),
                    ))
                }
            }
        }
    }
    Ok(row)
}

fn finish_grid(
    file: &str,
    rows: &[Vec<Read>],
    opts: ReadOptions,
    start: (usize, usize),
    last_line: usize,
) -> Result<Sudoku, InputError> {
    let side = rows[0].len();
    for r in rows {
        if r.len() != side {
            let ln = r.first().map_or(start.0, |c| c.line);
            return Err(InputError::new(
                file,
                ln,
                1,
                format!(
                    "this row has {} cells but the first row of the grid has {side}",
                    r.len()
                ),
            ));
        }
    }
    if rows.len() != side {
        return Err(InputError::new(
            file,
            last_line,
            1,
            format!(
                "the grid starting at line {} has {} rows but {side} columns; a Sudoku is square",
                start.0,
                rows.len()
            ),
        ));
    }
    let cells: Vec<Read> = rows.iter().flatten().copied().collect();
    build(file, side, &cells, opts, start)
}

/// Checks the side, box shape, value range and repeated givens, and builds the puzzle.
fn build(
    file: &str,
    side: usize,
    cells: &[Read],
    opts: ReadOptions,
    at: (usize, usize),
) -> Result<Sudoku, InputError> {
    if !(4..=MAX_SIZE).contains(&side) {
        return Err(InputError::new(
            file,
            at.0,
            at.1,
            format!("a Sudoku grid is 4 to {MAX_SIZE} cells a side, this one is {side}x{side} (a one-line puzzle has a square number of characters: 16, 36, 64, 81, ...)"),
        ));
    }
    let (br, bc) = match opts.box_shape {
        Some((r, c)) if r * c == side => (r, c),
        Some((r, c)) => {
            return Err(InputError::new(
                file,
                at.0,
                at.1,
                format!("boxes of {r}x{c} do not tile a {side}x{side} grid ({r}*{c} must be {side})"),
            ))
        }
        None => default_box(side).ok_or_else(|| {
            InputError::new(
                file,
                at.0,
                at.1,
                format!("side {side} has no rectangular box shape; give one with --box RxC (1x{side} for a Latin square)"),
            )
        })?,
    };
    let mut s = Sudoku::empty(side, br, bc);
    for (i, c) in cells.iter().enumerate() {
        if c.value as usize > side {
            return Err(InputError::new(
                file,
                c.line,
                c.col,
                match c.ch {
                    Some(ch) if !ch.is_ascii_digit() => format!(
                        "`{ch}` (value {}) is out of range for a {side}x{side} Sudoku: expected 1-{}, or `.`/`0` for an empty cell",
                        c.value,
                        value_char(side as u8)
                    ),
                    _ => format!(
                        "value {} is out of range for a {side}x{side} Sudoku (1-{side})",
                        c.value
                    ),
                },
            ));
        }
        s.cells[i] = c.value as u8;
    }
    // A repeated given in a row, column or box, looked for in one pass with a mask per unit;
    // only when there is one are the units walked in order to name the first.
    let (mut rows, mut cols, mut boxes) = (vec![0u64; side], vec![0u64; side], vec![0u64; side]);
    let mut repeat = false;
    for (i, &v) in s.cells.iter().enumerate() {
        if v != 0 {
            let bit = 1u64 << (v - 1);
            let (r, c) = (i / side, i % side);
            let b = s.box_of(r, c);
            repeat |= (rows[r] | cols[c] | boxes[b]) & bit != 0;
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
    }
    if !repeat {
        return Ok(s);
    }
    let names = ["row", "column", "box"];
    // Each unit's values, checked in the order of `units()` without building them.
    let mut seen: Vec<Option<usize>> = vec![None; side + 1];
    for u in 0..3 * side {
        seen.fill(None);
        for i in (0..side).map(|k| s.unit_cell(u, k)) {
            let v = s.cells[i] as usize;
            if v == 0 {
                continue;
            }
            if let Some(j) = seen[v] {
                let c = cells[i];
                return Err(InputError::new(
                    file,
                    c.line,
                    c.col,
                    format!(
                        "given {v} at {} repeats the {v} at {} in {} {}",
                        cell_name(i / side, i % side),
                        cell_name(j / side, j % side),
                        names[u / side],
                        u % side + 1
                    ),
                ));
            }
            seen[v] = Some(i);
        }
    }
    Ok(s)
}

/// The side of a pencil-mark (Sukaku) grid: 9 (nine candidate places for each of 81 cells).
const SUKAKU_SIDE: usize = 9;

/// True when a token is a 729-character Sukaku grid: digits and `.` only (a 27x27 one-line
/// puzzle has letters for 10 and up, and a pencil-mark grid's digits sit in their places).
fn is_sukaku(tok: &str) -> bool {
    let n = SUKAKU_SIDE;
    tok.len() == n * n * n && tok.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// A Sukaku grid: each cell's nine places hold `d` where `d` is a candidate, `0` or `.` where it
/// is not. A cell with one candidate holds that value.
fn sukaku(file: &str, ln: usize, col0: usize, tok: &str) -> Result<Sudoku, InputError> {
    let n = SUKAKU_SIDE;
    let chars: Vec<char> = tok.chars().collect();
    let mut marks = vec![0u64; n * n];
    let mut cells = Vec::with_capacity(n * n);
    for (i, mark) in marks.iter_mut().enumerate() {
        for d in 0..n {
            let k = i * n + d;
            match chars[k] {
                '0' | '.' => {}
                c if c.to_digit(10) == Some(d as u32 + 1) => *mark |= 1 << d,
                c => {
                    return Err(InputError::new(
                        file,
                        ln,
                        col0 + k,
                        format!(
                            "`{c}` in place {} of {}: a pencil-mark (Sukaku) grid has each cell's candidate d in its place d, `0` or `.` elsewhere",
                            d + 1,
                            cell_name(i / n, i % n)
                        ),
                    ))
                }
            }
        }
        if *mark == 0 {
            return Err(InputError::new(
                file,
                ln,
                col0 + i * n,
                format!("{} has no candidate left", cell_name(i / n, i % n)),
            ));
        }
        let value = if mark.count_ones() == 1 {
            mark.trailing_zeros() + 1
        } else {
            0
        };
        cells.push(Read {
            value,
            line: ln,
            col: col0 + i * n + value.max(1) as usize - 1,
            ch: None,
        });
    }
    let mut s = build(file, n, &cells, ReadOptions::default(), (ln, col0))?;
    s.marks = Some(marks);
    Ok(s)
}

/// `dRC` (digit, row, column, 1-based) as a cell index and value, for HoDoKu's candidate lists.
fn hodoku_candidate(t: &str) -> Option<(usize, u8)> {
    let b = t.as_bytes();
    if b.len() != 3 || !b.iter().all(|c| (b'1'..=b'9').contains(c)) {
        return None;
    }
    let (d, r, c) = (b[0] - b'0', (b[1] - b'1') as usize, (b[2] - b'1') as usize);
    Some((r * 9 + c, d))
}

/// HoDoKu library lines: `:code:digits:values:struck:...`, where values has `+` before each
/// placed (not given) value, and struck lists the candidates already eliminated as `dRC`.
/// Every value, given or placed, is a given here; the struck candidates become pencil marks.
/// This is line `ln` of such a file.
fn parse_hodoku(file: &str, ln: usize, line: &str) -> Result<Sudoku, InputError> {
    let n = 9;
    let lead = line.len() - line.trim_start().len();
    let t = line.trim();
    // Byte offsets of the fields (every character of a valid line is ASCII).
    let mut fields: Vec<(usize, &str)> = Vec::new();
    let mut start = 0;
    for (k, c) in t.char_indices() {
        if c == ':' {
            fields.push((start, &t[start..k]));
            start = k + 1;
        }
    }
    fields.push((start, &t[start..]));
    let col_of = |byte: usize| lead + t[..byte].chars().count() + 1;
    if !t.starts_with(':') || fields.len() < 5 {
        return Err(InputError::new(
            file,
            ln,
            lead + 1,
            "expected a HoDoKu library line `:code:digits:grid:struck candidates:...` (each field after a `:`)",
        ));
    }
    let (grid_at, grid) = fields[3];
    let mut cells = Vec::with_capacity(n * n);
    let mut placed = false;
    for (k, c) in grid.char_indices() {
        let col = col_of(grid_at + k);
        match c {
            '+' => placed = true,
            _ => {
                let value = match c {
                    '.' | '0' => 0,
                    '1'..='9' => c as u32 - '0' as u32,
                    _ => {
                        return Err(InputError::new(
                            file,
                            ln,
                            col,
                            format!("unexpected `{c}` in the grid field: expected a digit 1-9, `.` or `0` for an empty cell, `+` before a placed value"),
                        ))
                    }
                };
                if placed && value == 0 {
                    return Err(InputError::new(
                        file,
                        ln,
                        col,
                        "a `+` (placed value) before an empty cell",
                    ));
                }
                placed = false;
                cells.push(Read {
                    value,
                    line: ln,
                    col,
                    ch: Some(c),
                });
            }
        }
    }
    if cells.len() != n * n {
        return Err(InputError::new(
            file,
            ln,
            col_of(grid_at),
            format!(
                "the grid field of a HoDoKu library line has 81 cells, this one {}",
                cells.len()
            ),
        ));
    }
    let mut s = build(
        file,
        n,
        &cells,
        ReadOptions::default(),
        (ln, col_of(grid_at)),
    )?;
    let mut marks = super::model::candidates(&s);
    for (i, &v) in s.cells.iter().enumerate() {
        if v != 0 {
            marks[i] = 1 << (v - 1);
        }
    }
    let (struck_at, struck) = fields[4];
    for (col, tok) in tokens(struck) {
        let at = col_of(struck_at) + col - 1;
        let Some((i, d)) = hodoku_candidate(tok) else {
            return Err(InputError::new(
                file,
                ln,
                at,
                format!("`{tok}` is not a candidate: expected digit, row and column, like 436 for 4 in r3c6"),
            ));
        };
        if s.cells[i] != 0 {
            return Err(InputError::new(
                file,
                ln,
                at,
                format!(
                    "`{tok}` strikes {d} from {}, which holds {}",
                    cell_name(i / n, i % n),
                    s.cells[i]
                ),
            ));
        }
        marks[i] &= !(1u64 << (d - 1));
        if marks[i] == 0 {
            return Err(InputError::new(
                file,
                ln,
                at,
                format!(
                    "`{tok}` strikes the last candidate of {}",
                    cell_name(i / n, i % n)
                ),
            ));
        }
    }
    s.marks = Some(marks);
    Ok(s)
}

/// Column names that hold the puzzle in the datasets' CSV files.
const PUZZLE_COLUMNS: &[&str] = &[
    "quizzes", "quiz", "puzzle", "puzzles", "question", "problem",
];

/// The fields of a CSV line with their 1-based columns (quotes around a field are dropped).
fn csv_fields(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (k, c) in line
        .char_indices()
        .chain(std::iter::once((line.len(), ',')))
    {
        if c == ',' {
            let raw = &line[start..k];
            let col = line[..start].chars().count() + 1;
            let trimmed = raw.trim();
            let field = trimmed
                .strip_prefix('"')
                .and_then(|f| f.strip_suffix('"'))
                .unwrap_or(trimmed);
            let lead =
                raw.len() - raw.trim_start().len() + usize::from(field.len() < trimmed.len());
            out.push((col + raw[..lead].chars().count(), field));
            start = k + 1;
        }
    }
    out
}

/// True when a CSV field is a one-line puzzle.
fn is_puzzle_field(f: &str) -> bool {
    is_square_side(f.chars().count()) && f.chars().all(|c| char_value(c).is_some())
}

/// What a line of a CSV file is: the header (naming the puzzle's column), or a puzzle (with
/// the column it is in).
enum Csv {
    Header(usize),
    Puzzle(usize, Box<Sudoku>),
}

/// The `quizzes,solutions` CSV of the large datasets (Kaggle's 1 and 9 million, the 3 million
/// with ratings): the puzzle is the column a header names, or the first field that is one.
/// This is line `ln` of such a file, `column` the puzzle's column when a line before said.
fn parse_csv(
    file: &str,
    ln: usize,
    line: &str,
    column: Option<usize>,
    opts: ReadOptions,
) -> Result<Csv, InputError> {
    let fields = csv_fields(line);
    let k = match column {
        Some(k) => k,
        None => {
            let named = fields
                .iter()
                .position(|(_, f)| PUZZLE_COLUMNS.contains(&f.to_ascii_lowercase().as_str()));
            if let Some(k) = named {
                return Ok(Csv::Header(k));
            }
            fields.iter().position(|(_, f)| is_puzzle_field(f)).ok_or_else(|| {
                InputError::new(
                    file,
                    ln,
                    1,
                    format!("a CSV file needs a header naming the puzzle column ({}) or a one-line puzzle in some field of its first row", PUZZLE_COLUMNS.join(", ")),
                )
            })?
        }
    };
    let Some(&(col0, field)) = fields.get(k) else {
        return Err(InputError::new(
            file,
            ln,
            line.chars().count() + 1,
            format!(
                "this row has {} fields; the puzzle is in field {}",
                fields.len(),
                k + 1
            ),
        ));
    };
    let mut cells = Vec::with_capacity(field.len());
    for (j, c) in field.chars().enumerate() {
        let Some(value) = char_value(c) else {
            return Err(InputError::new(
                file,
                ln,
                col0 + j,
                format!("unexpected `{c}` in the puzzle field: expected a digit 1-9, a letter A-Z for 10 and up, or `.`/`0` for an empty cell"),
            ));
        };
        cells.push(Read {
            value,
            line: ln,
            col: col0 + j,
            ch: Some(c),
        });
    }
    if !is_square_side(cells.len()) {
        return Err(InputError::new(
            file,
            ln,
            col0,
            format!("a one-line puzzle needs a square number of cells (81 for 9x9, 16, 36, 64, ...), found {}", cells.len()),
        ));
    }
    let side = (cells.len() as f64).sqrt().round() as usize;
    let p = build(file, side, &cells, opts, (ln, col0))?;
    Ok(Csv::Puzzle(k, Box::new(p)))
}

/// The box shape pzprjs gives a side: square boxes for a square side, 2x3 for 6 (pzprjs's
/// `sudoku` has no other); `None` for the sides it does not draw.
pub fn pzprjs_box(side: usize) -> Option<(usize, usize)> {
    let root = (side as f64).sqrt().round() as usize;
    match side {
        6 => Some((2, 3)),
        _ if root * root == side && root >= 2 => Some((root, root)),
        _ => None,
    }
}

/// A puzzle from a pzprjs `sudoku` URL (`sudoku/9/9/<Number16>`), with pzprjs's boxes.
pub fn from_url(url: &crate::url::Url, opts: ReadOptions) -> Result<Sudoku, InputError> {
    use crate::url::{Number, Reader};
    let n = url.cols;
    let at = |m: String| url.at.error(0, m);
    if url.rows != n {
        return Err(at(format!(
            "a sudoku URL is square; this one is {}x{}",
            url.cols, url.rows
        )));
    }
    let Some(boxes) = pzprjs_box(n).filter(|_| n <= MAX_SIZE) else {
        return Err(at(format!(
            "pzprjs draws sudoku boxes for sides 4, 6, 9, 16, 25 (a square, or 6), not {n}"
        )));
    };
    if let Some(b) = opts.box_shape.filter(|&b| b != boxes) {
        return Err(at(format!(
            "--box {}x{}: the URL's {n}x{n} sudoku has pzprjs's {}x{} boxes",
            b.0, b.1, boxes.0, boxes.1
        )));
    }
    let mut r = Reader::new(url);
    let cells = r.number16(n * n)?;
    r.finish("numbers")?;
    let mut read = Vec::with_capacity(n * n);
    for (i, c) in cells.iter().enumerate() {
        let (value, pos) = match *c {
            None => (0, 0),
            Some((Number::Value(v), pos)) if v >= 1 => (v, pos),
            Some((_, pos)) => {
                return Err(r.error(
                    pos,
                    format!(
                        "{} holds no digit (pzprjs's `?` or 0); a sudoku URL gives 1-{n}",
                        cell_name(i / n, i % n)
                    ),
                ))
            }
        };
        let col = url.at.col + pos;
        read.push(Read {
            value,
            line: url.at.line,
            col,
            ch: None,
        });
    }
    build(
        url.at.file,
        n,
        &read,
        ReadOptions {
            box_shape: Some(boxes),
        },
        (url.at.line, url.at.col),
    )
}

/// The puzz.link URL of a puzzle (its givens; pencil marks have no place in it).
pub fn to_url(s: &Sudoku) -> Result<String, String> {
    if pzprjs_box(s.size) != Some((s.box_rows, s.box_cols)) {
        return Err(format!(
            "--format url: pzprjs's sudoku has boxes {} only, not a {}x{} grid with {}x{} boxes",
            "2x2 (4x4), 2x3 (6x6), 3x3, 4x4, 5x5", s.size, s.size, s.box_rows, s.box_cols
        ));
    }
    let cells: Vec<Option<u32>> = s
        .cells
        .iter()
        .map(|&v| (v != 0).then_some(v as u32))
        .collect();
    Ok(crate::url::write(
        "sudoku",
        "",
        s.size,
        s.size,
        &crate::url::write_number16(&cells),
    ))
}

/// The formats [`write_solutions`] writes.
pub const FORMATS: &[&str] = &["line", "grid", "csv", "sukaku", "url"];

/// A grid's values as one line, `empty` for an open cell.
fn line_of(values: &[u8], empty: char) -> String {
    values
        .iter()
        .map(|&v| if v == 0 { empty } else { value_char(v) })
        .collect()
}

/// Puzzles written in `format`, each with its solution (rows as `Puzzle::rows` gives them) when
/// there is one, else as given: `line` (one line each), `grid` (blocks separated by blank
/// lines), `csv` (`quizzes,solutions`, the solution empty when there is none), `sukaku` (the
/// 729-character pencil-mark grid: a solution's single candidates, or the puzzle's candidates),
/// `url` (the puzz.link URL of the puzzle: a URL carries no solution).
pub fn write_solutions(
    format: &str,
    items: &[(&Sudoku, Option<&Vec<Vec<i64>>>)],
) -> Result<String, String> {
    let values = |p: &Sudoku, rows: Option<&Vec<Vec<i64>>>| -> Vec<u8> {
        match rows {
            Some(rows) => rows.iter().flatten().map(|&v| v as u8).collect(),
            None => p.cells.clone(),
        }
    };
    let mut out = String::new();
    match format {
        "line" => {
            for (p, rows) in items {
                out.push_str(&line_of(&values(p, *rows), '.'));
                out.push('\n');
            }
        }
        "grid" => {
            for (k, (p, rows)) in items.iter().enumerate() {
                if k > 0 {
                    out.push('\n');
                }
                let v = values(p, *rows);
                out.push_str(&super::render::grid(p, &v, crate::puzzle::Style::default()));
            }
        }
        "csv" => {
            out.push_str("quizzes,solutions\n");
            for (p, rows) in items {
                out.push_str(&line_of(&p.cells, '0'));
                out.push(',');
                if let Some(rows) = rows {
                    out.push_str(&line_of(&values(p, Some(rows)), '0'));
                }
                out.push('\n');
            }
        }
        "sukaku" => {
            for (p, rows) in items {
                if p.size != SUKAKU_SIDE {
                    return Err(format!(
                        "--format sukaku writes 9x9 grids only (729 characters), not {0}x{0}",
                        p.size
                    ));
                }
                let masks: Vec<u64> = match rows {
                    Some(_) => values(p, *rows).iter().map(|&v| 1u64 << (v - 1)).collect(),
                    None => {
                        let c = super::model::candidates(p);
                        p.cells
                            .iter()
                            .zip(c)
                            .map(|(&v, m)| if v == 0 { m } else { 1u64 << (v - 1) })
                            .collect()
                    }
                };
                for m in masks {
                    for d in 0..SUKAKU_SIDE {
                        out.push(if m >> d & 1 == 1 {
                            (b'1' + d as u8) as char
                        } else {
                            '.'
                        });
                    }
                }
                out.push('\n');
            }
        }
        "url" => {
            for (p, _) in items {
                out.push_str(&to_url(p)?);
                out.push('\n');
            }
        }
        other => {
            return Err(format!(
                "unknown --format {other} for sudoku: expected {}",
                FORMATS.join(", ")
            ))
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn reads_one_line_puzzles_with_comments_and_ratings() {
        let text = format!(
            "# a comment\n{LINE}\n{} 7.1 3 id\nabc012345678 {LINE} 5.4\n",
            LINE.replace('.', "0")
        );
        let ps = parse("t.txt", &text, ReadOptions::default()).unwrap();
        assert_eq!(ps.len(), 3);
        assert!(ps.iter().all(|p| p == &ps[0]));
        assert_eq!(ps[0].size, 9);
        assert_eq!(ps[0].cells[0], 5);
        assert_eq!(ps[0].to_line(), LINE);
    }

    /// What a multi-puzzle read hands back: `Ok` as its side, errors as `E<line>`.
    fn outline(text: &str) -> Vec<String> {
        crate::records::feed(&mut Reader::new("t", ReadOptions::default()), text)
            .into_iter()
            .map(|r| match r {
                Ok(p) => format!("{}", p.size),
                Err(e) => format!("E{}", e.line),
            })
            .collect()
    }

    #[test]
    fn reads_on_after_a_bad_record() {
        // A title first (one that reads as a grid row too), then one-line puzzles.
        let t = format!("Sudoku collection week 48\n{LINE}\n{LINE}\n{LINE}\n");
        assert_eq!(outline(&t), ["E1", "9", "9", "9"]);
        let t = format!("Puzzle 1\n{LINE}\n{LINE}\n");
        assert_eq!(outline(&t), ["E1", "9", "9"]);
        let t = format!("Puzzle 1\n\n{LINE}\n{LINE}\n");
        assert_eq!(outline(&t), ["E1", "9", "9"]);
        // Garbage between one-line puzzles; a bad grid between good ones.
        let t = format!("{LINE}\nnot a puzzle\n{LINE}\n");
        assert_eq!(outline(&t), ["9", "E2", "9"]);
        let grid = "1 . . .\n. . 2 .\n. 3 . .\n. . . 4\n";
        let t = format!("{grid}\n1 . . .\n. . x .\n. 3 . .\n\n{grid}\n{grid}");
        assert_eq!(outline(&t), ["4", "E8", "4", "4"]);
        // A bad 34-cell line (a grid row, as it is no one-liner), then a bad one-liner and
        // valid ones of the same length: those are one-liners, not the rows of a grid.
        let six = ".3.41.......5....1..65.2.6....2.1...";
        let t = format!(".4...3..6....3..5.942..2....4.....\n\n..54...3..6....3..5.942..2....4.....\n{six}\n{six}\n{six}\n");
        assert_eq!(outline(&t), ["E1", "E3", "6", "6", "6"]);
        let t = format!("Puzzles\n..5\n\n..54...3..6....3..5.942..2....4.....\n..54...3..6....3..5.942..2....4....4\n{six}\n");
        assert_eq!(outline(&t), ["E2", "E4", "E5", "6"]);
    }

    #[test]
    fn the_plain_nine_path_reads_a_line_as_the_general_path_does() {
        // Lines the fast path takes, and lines it must leave to the general path: a repeated
        // given (an error there), a letter, a space, a Sukaku, another length or box shape.
        let mut lines = vec![
            LINE.to_string(),
            LINE.replace('.', "0"),
            LINE.replace('.', "_"),
        ];
        lines.extend(
            std::fs::read_to_string("puzzles/sudoku/9x9.txt")
                .unwrap()
                .lines()
                .map(str::to_string),
        );
        let repeat = format!("55{}", &LINE[2..]);
        lines.extend([
            repeat.clone(),
            format!("{}5", &LINE[..80]),
            format!("{}A", &LINE[..80]),
            format!("{} ", &LINE[..80]),
            format!("{LINE} 7.1"),
            ".".repeat(81),
            LINE[..80].to_string(),
            "1".repeat(81),
        ]);
        let shapes = [None, Some((3, 3)), Some((1, 9))];
        let mut fast = 0;
        for line in &lines {
            for box_shape in shapes {
                let opts = ReadOptions { box_shape };
                let general = parse_line_general("t", 1, line, opts);
                match plain_nine(line, opts) {
                    Some(s) => {
                        fast += 1;
                        assert_eq!(general.as_ref().ok(), Some(&s), "{line} {box_shape:?}");
                    }
                    None => {
                        let both = parse_line("t", 1, line, opts);
                        assert_eq!(format!("{both:?}"), format!("{general:?}"), "{line}");
                    }
                }
            }
        }
        assert!(fast >= 6, "the fast path took {fast} lines");
        assert!(plain_nine(&repeat, ReadOptions::default()).is_none());
        assert!(parse_line("t", 1, &repeat, ReadOptions::default()).is_err());
    }

    #[test]
    fn a_negative_number_is_an_error_not_a_separator() {
        let mut text = String::from("-1 . . .\n");
        text.push_str(". . . .\n. . . .\n. . . .\n");
        let e = parse("n.txt", &text, ReadOptions::default()).unwrap_err();
        assert_eq!((e.line, e.col), (1, 1), "{e}");
        assert!(e.message.contains("never negative"), "{e}");
        // In a grid of numbers the token as a whole is refused.
        let e = parse(
            "n.txt",
            "10 -1 . . . . . . . . . .\n",
            ReadOptions::default(),
        )
        .unwrap_err();
        assert_eq!((e.line, e.col), (1, 4), "{e}");
    }

    #[test]
    fn reads_a_grid_with_separators() {
        let text = "5 3 . | . 7 . | . . .\n6 . . | 1 9 5 | . . .\n. 9 8 | . . . | . 6 .\n------+-------+------\n8 . . | . 6 . | . . 3\n4 . . | 8 . 3 | . . 1\n7 . . | . 2 . | . . 6\n------+-------+------\n. 6 . | . . . | 2 8 .\n. . . | 4 1 9 | . . 5\n. . . | . 8 . | . 7 9\n";
        let ps = parse("g.txt", text, ReadOptions::default()).unwrap();
        assert_eq!(ps.len(), 1);
        assert_eq!(ps[0].to_line(), LINE);
    }

    #[test]
    fn reads_number_grids_and_rectangular_boxes() {
        let mut text = String::new();
        for r in 0..12 {
            let row: Vec<String> = (0..12)
                .map(|c| {
                    if r == 0 && c < 2 {
                        format!("{}", c + 11)
                    } else {
                        "0".into()
                    }
                })
                .collect();
            text.push_str(&row.join(" "));
            text.push('\n');
        }
        let ps = parse("n.txt", &text, ReadOptions::default()).unwrap();
        assert_eq!((ps[0].size, ps[0].box_rows, ps[0].box_cols), (12, 3, 4));
        assert_eq!(&ps[0].cells[..3], &[11, 12, 0]);
        let ps = parse(
            "n.txt",
            &text,
            ReadOptions {
                box_shape: Some((2, 6)),
            },
        )
        .unwrap();
        assert_eq!((ps[0].box_rows, ps[0].box_cols), (2, 6));
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse(
            "f",
            &format!("#c\n{}?\n", &LINE[..80]),
            ReadOptions::default(),
        )
        .unwrap_err();
        assert_eq!((e.line, e.col), (2, 81));
        assert!(e.message.contains("unexpected `?`"), "{}", e.message);
        let e = parse(
            "f",
            &format!("{LINE}\n{}\n", &LINE[..80]),
            ReadOptions::default(),
        )
        .unwrap_err();
        assert_eq!((e.line, e.col), (2, 1));
        assert!(e.message.contains("found 80"), "{}", e.message);
        let bad = format!("55{}", &LINE[2..]);
        let e = parse("f", &bad, ReadOptions::default()).unwrap_err();
        assert_eq!((e.line, e.col), (1, 2));
        assert!(
            e.message.contains("repeats the 5 at r1c1 in row 1"),
            "{}",
            e.message
        );
        // A repeat in a column and in a box (2x2 boxes): named by the later cell of the pair.
        let e = parse("f", "1...\n....\n1...\n....\n", ReadOptions::default()).unwrap_err();
        assert_eq!((e.line, e.col), (3, 1));
        assert!(
            e.message
                .contains("at r3c1 repeats the 1 at r1c1 in column 1"),
            "{}",
            e.message
        );
        let e = parse("f", "....\n....\n..3.\n...3\n", ReadOptions::default()).unwrap_err();
        assert_eq!((e.line, e.col), (4, 4));
        assert!(
            e.message.contains("at r4c4 repeats the 3 at r3c3 in box 4"),
            "{}",
            e.message
        );
        let e = parse("f", "1...\n....\n....\n...5\n", ReadOptions::default()).unwrap_err();
        assert_eq!((e.line, e.col), (4, 4));
        assert!(e.message.contains("out of range"));
        let e = parse("f", "1...\n...\n....\n....\n", ReadOptions::default()).unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse("f", "\n# only\n", ReadOptions::default()).unwrap_err();
        assert!(e.message.contains("no puzzle"));
        let e = parse(
            "f",
            "1...\n....\n....\n....\n",
            ReadOptions {
                box_shape: Some((3, 3)),
            },
        )
        .unwrap_err();
        assert!(e.message.contains("do not tile"));
    }
}
