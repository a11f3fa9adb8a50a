//! Reading and writing Numberlink files in the forms the community uses:
//!
//! - a grid of whitespace-separated numbers, `0`, `.` or `-` for an empty cell (the seed's form,
//!   and the SAT benchmark `.in` files);
//! - a grid of characters, `.` for an empty cell and any other character an end's label
//!   (Flow puzzles: `R.G.Y`);
//! - either grid after a `W H` line, many puzzles to a file, `0 0` ending it (the multi-puzzle
//!   collections);
//! - the contest form `SIZE WxH`, `LINE_NUM n`, `LINE#k (x1,y1)-(x2,y2)` (0-based x, y), whose
//!   answer form ([`contest_answer`]) gridsat writes back.
//!
//! Headerless grids are separated by blank lines. Lines starting with `#` are comments, except
//! the rule directive `# numberlink: rules=nikoli` (as Takuzu files carry theirs), which sets the
//! rule set of the puzzles after it; `generate` writes it for rules other than `flow`, and
//! `--rules` on the command line wins over it. Every label must appear exactly twice; errors
//! name the file, line and column.

use super::{Form, Loops, Numberlink, Rules};
use crate::error::InputError;
use crate::records::Item;
use std::collections::HashMap;

/// The largest side accepted (a bigger header is far more likely a typo than a puzzle).
pub const MAX_SIDE: usize = 2000;

/// Options for reading: the rule set (`None`: the file's own, by its directive, else `flow`)
/// and the loop strategy the puzzles get.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions {
    pub rules: Option<Rules>,
    pub loops: Loops,
}

/// The word that starts a rule directive comment: `# numberlink: rules=nikoli`.
const DIRECTIVE: &str = "numberlink:";

/// The rule set a directive line sets, if the line is one.
fn directive_of(file: &str, ln: usize, line: &str) -> Result<Option<Rules>, InputError> {
    let body = line.trim_start().trim_start_matches('#').trim_start();
    let Some(rest) = body.strip_prefix(DIRECTIVE) else {
        return Ok(None);
    };
    let mut rules = None;
    for word in rest.split_whitespace() {
        let col = line.find(word).map_or(1, |b| line[..b].chars().count() + 1);
        match word.split_once('=') {
            Some(("rules", r)) if Rules::from_name(r).is_some() => rules = Rules::from_name(r),
            _ => {
                return Err(InputError::new(
                    file,
                    ln,
                    col,
                    format!("unknown `{word}` in the numberlink directive: expected rules=flow, rules=cover or rules=nikoli"),
                ))
            }
        }
    }
    Ok(rules)
}

/// The directive line for a rule set other than the default (`None` for `flow`).
pub fn directive(rules: Rules) -> Option<String> {
    (rules != Rules::default()).then(|| format!("# {DIRECTIVE} rules={}", rules.name()))
}

/// One cell as read: its label (`None` empty) and where it was (1-based line and column).
#[derive(Clone, Debug)]
struct Cell {
    label: Option<String>,
    line: usize,
    col: usize,
}

fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with('#')
}

/// Whitespace-separated tokens of a line with their 1-based columns (in characters).
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (col, (bi, c)) in line.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some((sc, sb)) = start.take() {
                out.push((sc, &line[sb..bi]));
            }
        } else if start.is_none() {
            start = Some((col + 1, bi));
        }
    }
    if let Some((sc, sb)) = start {
        out.push((sc, &line[sb..]));
    }
    out
}

/// `W H` as two positive integers, if the line is exactly that.
fn header(line: &str) -> Option<(usize, usize)> {
    let t = tokens(line);
    if t.len() != 2 {
        return None;
    }
    Some((t[0].1.parse().ok()?, t[1].1.parse().ok()?))
}

/// The width of a garbled `W H` header, when `line` is one: two tokens, the first a width, the
/// second not a height (`5 x`). No row is so unless its puzzle is two cells wide.
fn bad_header(line: &str) -> Option<usize> {
    let t = tokens(line);
    if t.len() != 2 || header(line).is_some() {
        return None;
    }
    t[0].1.parse().ok()
}

/// True when `text` looks like a Numberlink file: a contest file, or a grid or `W H` form
/// that reads as Numberlink (at least two rows, every label exactly twice).
pub fn looks_like(text: &str, complete: bool) -> bool {
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty() && !is_comment(l));
    let Some(first) = first else { return false };
    if first.trim_start().to_ascii_uppercase().starts_with("SIZE") {
        return text.to_ascii_uppercase().contains("LINE_NUM");
    }
    // The `W H` form: a header, then a row W cells wide. No other kind starts so, so the
    // file is Numberlink even when it has a mistake (and gets Numberlink's error for it).
    if let Some((w, h)) = header(first) {
        let next = text
            .lines()
            .filter(|l| !l.trim().is_empty() && !is_comment(l))
            .nth(1);
        if w >= 2 && h >= 2 && next.is_some_and(|l| l.trim().chars().count() == w) {
            return true;
        }
    }
    if label_thrice_in_first_grid(text) {
        return false;
    }
    match crate::records::reads_cleanly(Reader::new("", ReadOptions::default()), text, complete) {
        Some(ps) => ps.iter().all(|p| p.height >= 2 && p.width >= 2),
        None => false,
    }
}

/// True when the first grid of `text` (lines up to the first blank one, one cell per
/// character) holds some label three times: no Numberlink grid does (each label is on exactly
/// two cells), so detection can say no at once instead of reading, say, a whole Sudoku file
/// of 81-character lines as one grid. Grids of spaced tokens are left to the reader.
fn label_thrice_in_first_grid(text: &str) -> bool {
    let mut seen: HashMap<char, u8> = HashMap::new();
    for l in text.lines().filter(|l| !is_comment(l)) {
        let l = l.trim();
        if l.is_empty() {
            if seen.is_empty() {
                continue;
            }
            return false;
        }
        if l.contains(char::is_whitespace) {
            return false;
        }
        for ch in l.chars().filter(|&c| c != '.') {
            let n = seen.entry(ch).or_default();
            *n += 1;
            if *n == 3 {
                return true;
            }
        }
    }
    false
}

/// Parses every puzzle in `text` (the contents of `file`).
pub fn parse(file: &str, text: &str, opts: ReadOptions) -> Result<Vec<Numberlink>, InputError> {
    crate::records::read_all(Reader::new(file, opts), text)
}

/// The form of a file, decided on its first lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileForm {
    /// `SIZE WxH` and `LINE#k` lines: one puzzle, the whole file.
    Contest,
    /// `W H` lines, each followed by the rows it announces.
    Headers,
    /// Grids separated by blank lines.
    Grids,
}

/// The streaming reader (see [`crate::records`]): a grid between blank lines, or a `W H` header
/// and the rows it announces, is one puzzle; a contest file is one puzzle.
pub struct Reader {
    file: String,
    opts: ReadOptions,
    form: Option<FileForm>,
    /// Lines seen before the form is known (it needs the first two that are not blank).
    pending: Vec<(usize, String)>,
    /// Grids: the block being read; contest: every line.
    block: crate::records::Lines,
    /// Headers: the puzzle announced (width, height, line of the header) and its rows so far.
    announced: Option<(usize, usize, usize)>,
    rows: Vec<Vec<Cell>>,
    spaced_rows: bool,
    /// After a bad puzzle: pass over lines up to the next blank line (or, in the `W H` form,
    /// the next header).
    skip_to_blank: bool,
    /// The `W H` form: the puzzle whose rows are all read (its header line, width and height),
    /// handed back with the next line (which, when it is a row too many, is an error of its own).
    held: Option<(usize, usize, usize, Result<Numberlink, InputError>)>,
    /// `0 0` was read: the rest of the file is not puzzles.
    ended: bool,
    handed: usize,
    /// The rule directives read (line, rules) that puzzles not yet handed back may start after.
    directives: Vec<(usize, Rules)>,
}

impl Reader {
    pub fn new(file: &str, opts: ReadOptions) -> Reader {
        Reader {
            file: file.to_string(),
            opts,
            form: None,
            pending: Vec::new(),
            block: Default::default(),
            announced: None,
            rows: Vec::new(),
            spaced_rows: false,
            skip_to_blank: false,
            held: None,
            ended: false,
            handed: 0,
            directives: Vec::new(),
        }
    }

    /// Hands back a puzzle that starts on line `start` (its rules: `--rules`, else the last
    /// directive before that line, else the default), or an error.
    fn hand(
        &mut self,
        start: usize,
        r: Result<Numberlink, InputError>,
        out: &mut Vec<Item<Numberlink>>,
    ) {
        self.handed += 1;
        if r.is_ok() {
            // Puzzles come back in the order they start: directives before the last one that
            // precedes this start no longer matter.
            let before = self
                .directives
                .iter()
                .filter(|&&(ln, _)| ln < start)
                .count();
            self.directives.drain(..before.saturating_sub(1));
        }
        let own = self
            .directives
            .iter()
            .rev()
            .find(|&&(ln, _)| ln < start)
            .map(|&(_, r)| r);
        out.push(r.map(|mut p| {
            p.rules = self.opts.rules.or(own).unwrap_or_default();
            p.loops = self.opts.loops;
            p
        }));
    }

    fn err(&mut self, line: usize, col: usize, m: String, out: &mut Vec<Item<Numberlink>>) {
        let e = InputError::new(&self.file, line, col, m);
        self.hand(line, Err(e), out);
    }

    /// Decides the form once the first two content lines are known (or the file ended).
    fn decide(&mut self, at_end: bool) -> Option<FileForm> {
        let content: Vec<&str> = self
            .pending
            .iter()
            .map(|(_, l)| l.as_str())
            .filter(|l| !l.trim().is_empty())
            .collect();
        let first = content.first()?;
        if first.trim_start().to_ascii_uppercase().starts_with("SIZE") {
            return Some(FileForm::Contest);
        }
        let Some((w, _)) = header(first) else {
            // A garbled first header (`5 x`) before a row that wide: the header form.
            let wide = |w: usize, l: &&str| {
                let n = tokens(l).len();
                w != 2 && (n == w || (n == 1 && l.trim().chars().count() == w))
            };
            return match (bad_header(first), content.get(1)) {
                (Some(w), Some(next)) if wide(w, next) => Some(FileForm::Headers),
                (Some(_), None) if !at_end => None,
                _ => Some(FileForm::Grids),
            };
        };
        match content.get(1) {
            None if at_end => Some(FileForm::Headers),
            None => None,
            Some(next) if tokens(next).len() != 2 || w == 2 => Some(FileForm::Headers),
            // Two headers in a row: the first puzzle is bad, the file is in the header form.
            Some(next) if header(next).is_some_and(|(a, b)| a >= 2 && b >= 2) => {
                Some(FileForm::Headers)
            }
            Some(_) => Some(FileForm::Grids),
        }
    }

    fn take(&mut self, form: FileForm, ln: usize, line: &str, out: &mut Vec<Item<Numberlink>>) {
        let blank = line.trim().is_empty();
        match form {
            FileForm::Contest => self.block.push(ln, line),
            FileForm::Grids if blank => self.flush_grid(out),
            FileForm::Grids if self.starts_headers(line) => {
                // A `W H` line where no row of the grid being read can be: the file is in the
                // header form after all (its first puzzle was bad).
                self.flush_grid(out);
                self.form = Some(FileForm::Headers);
                self.header_line(ln, line, blank, out);
            }
            FileForm::Grids if self.skip_to_blank => {}
            FileForm::Grids if self.block.len() >= MAX_SIDE => {
                self.err(
                    ln,
                    1,
                    format!("a grid of more than {MAX_SIDE} rows: each side must be 1 to {MAX_SIDE} (puzzles are separated by blank lines)"),
                    out,
                );
                self.block.take();
                self.skip_to_blank = true;
            }
            FileForm::Grids => self.block.push(ln, line),
            FileForm::Headers => self.header_line(ln, line, blank, out),
        }
    }

    /// True when `line`, in a file read as grids, is a `W H` header (at least 2x2) that cannot
    /// be a row of the grid being read: none is being read, its first row is not two numbers,
    /// or its rows are not all two cells wide (a bad header before garbage, say).
    fn starts_headers(&self, line: &str) -> bool {
        let lines = &self.block.lines;
        header(line).is_some_and(|(w, h)| w >= 2 && h >= 2)
            && (lines.first().is_none_or(|first| header(first).is_none())
                || lines.iter().any(|l| tokens(l).len() != 2))
    }

    fn flush_grid(&mut self, out: &mut Vec<Item<Numberlink>>) {
        self.skip_to_blank = false;
        let block = self.block.take();
        if block.is_empty() {
            return;
        }
        let lines = block.numbered();
        let spaced = lines.iter().any(|(_, l)| tokens(l).len() > 1);
        let built = lines
            .iter()
            .map(|&(ln, l)| row_cells(&self.file, ln, l, spaced))
            .collect::<Result<Vec<_>, _>>()
            .and_then(|rows| build(&self.file, rows, form_of(spaced)));
        self.hand(block.first, built, out);
    }

    /// A line of the `W H` form. A puzzle is its header and the rows it announces; a row too
    /// many after it is an error of its own (it may as well be a garbled header). After a bad header or row the reader passes over lines up to the next header or blank
    /// line and reads on from there: one error per bad puzzle, and the puzzles after it read.
    fn header_line(&mut self, ln: usize, l: &str, blank: bool, out: &mut Vec<Item<Numberlink>>) {
        if self.ended {
            return;
        }
        if let Some((w, h, hl)) = self.announced {
            if blank {
                if !self.rows.is_empty() {
                    let m = format!(
                        "a blank line after {} of the {h} rows announced on line {hl}",
                        self.rows.len()
                    );
                    self.err(ln, 1, m, out);
                    self.announced = None;
                    self.skip_to_blank = true;
                }
                return;
            }
            // A `W H` line where a row of another width was due: this puzzle is short, and
            // the next one starts here.
            if w != 2 && (header(l).is_some() || bad_header(l).is_some()) {
                let m = format!(
                    "the puzzle announced here ({w}x{h}) has only {} before the next `WIDTH HEIGHT` line (line {ln})",
                    crate::text::count_of(self.rows.len(), "row")
                );
                self.err(hl, 1, m, out);
                self.announced = None;
                return self.header_line(ln, l, blank, out);
            }
            let spaced = tokens(l).len() > 1;
            self.spaced_rows |= spaced;
            let cells = match row_cells(&self.file, ln, l, spaced) {
                Ok(c) => c,
                Err(e) => {
                    self.announced = None;
                    self.skip_to_blank = true;
                    self.hand(ln, Err(e), out);
                    return;
                }
            };
            if cells.len() != w {
                let col = cells
                    .get(w)
                    .map_or_else(|| cells.last().map_or(1, |c| c.col + 1), |c| c.col);
                let m = format!(
                    "this row has {} cells but line {hl} announces a width of {w}",
                    cells.len()
                );
                self.announced = None;
                self.skip_to_blank = true;
                self.err(ln, col, m, out);
                return;
            }
            self.rows.push(cells);
            if self.rows.len() == h {
                self.announced = None;
                let rows = std::mem::take(&mut self.rows);
                self.held = Some((hl, w, h, build(&self.file, rows, form_of(self.spaced_rows))));
            }
            return;
        }
        if blank {
            self.hand_held(out);
            self.skip_to_blank = false;
            return;
        }
        let Some((w, h)) = header(l) else {
            let extra_row = self.held.as_ref().is_some_and(|(_, w, _, _)| {
                row_cells(&self.file, ln, l, tokens(l).len() > 1).is_ok_and(|c| c.len() == *w)
            });
            if !extra_row {
                self.hand_held(out);
            }
            if let Some((hl, _, h, r)) = self.held.take() {
                // The puzzle stands as announced (the line may be a garbled header as well as
                // a row too many); the line is the error.
                self.hand(hl, r, out);
                let m = format!(
                    "a row after the {h} that line {hl} announces: a puzzle is its `WIDTH HEIGHT` line and that many rows"
                );
                self.err(ln, 1, m, out);
                self.skip_to_blank = true;
            } else if !self.skip_to_blank || bad_header(l).is_some() {
                // (A garbled header ends the stretch passed over: it starts a bad puzzle of
                // its own.)
                self.err(
                    ln,
                    1,
                    format!(
                        "expected a `WIDTH HEIGHT` line starting the next puzzle, found `{}`",
                        l.trim()
                    ),
                    out,
                );
                self.skip_to_blank = true;
            }
            return;
        };
        self.hand_held(out);
        self.skip_to_blank = false;
        if w == 0 && h == 0 {
            self.ended = true;
            return;
        }
        if let Err(e) = check_side(&self.file, ln, w, h) {
            self.hand(ln, Err(e), out);
            self.skip_to_blank = true;
            return;
        }
        self.announced = Some((w, h, ln));
        self.rows.clear();
        self.spaced_rows = false;
    }

    /// Hands back the `W H` puzzle read last, now that it is known to end where it did.
    fn hand_held(&mut self, out: &mut Vec<Item<Numberlink>>) {
        if let Some((hl, _, _, r)) = self.held.take() {
            self.hand(hl, r, out);
        }
    }
}

impl crate::records::PuzzleReader for Reader {
    type Puzzle = Numberlink;

    fn line(&mut self, ln: usize, line: &str, out: &mut Vec<Item<Numberlink>>) {
        if is_comment(line) {
            match directive_of(&self.file, ln, line) {
                Ok(Some(r)) => self.directives.push((ln, r)),
                Ok(None) => {}
                Err(e) => self.hand(ln, Err(e), out),
            }
            return;
        }
        match self.form {
            Some(f) => self.take(f, ln, line, out),
            None => {
                self.pending.push((ln, line.to_string()));
                if let Some(f) = self.decide(false) {
                    self.form = Some(f);
                    for (ln, l) in std::mem::take(&mut self.pending) {
                        self.take(f, ln, &l, out);
                    }
                }
            }
        }
    }

    fn end(&mut self, out: &mut Vec<Item<Numberlink>>) {
        if self.form.is_none() {
            match self.decide(true) {
                Some(f) => {
                    self.form = Some(f);
                    for (ln, l) in std::mem::take(&mut self.pending) {
                        self.take(f, ln, &l, out);
                    }
                }
                None => {
                    let e = InputError::new(
                        &self.file,
                        1,
                        1,
                        "no puzzle found (the file is empty or all comments)",
                    );
                    out.push(Err(e));
                    return;
                }
            }
        }
        match self.form {
            Some(FileForm::Contest) => {
                let block = self.block.take();
                match parse_contest(&self.file, &block.numbered()) {
                    Ok((start, p)) => self.hand(start, Ok(p), out),
                    Err(e) => self.hand(block.first, Err(e), out),
                }
            }
            Some(FileForm::Grids) => self.flush_grid(out),
            Some(FileForm::Headers) => {
                self.hand_held(out);
                if let Some((w, h, hl)) = self.announced.take() {
                    let m = format!(
                        "the puzzle announced here ({w}x{h}) has only {} rows before the file ends",
                        self.rows.len()
                    );
                    self.err(hl, 1, m, out);
                }
                if self.handed == 0 {
                    self.err(1, 1, "no puzzle found before `0 0`".into(), out);
                }
            }
            None => {}
        }
    }
}

/// The cells of one grid row: tokens when the row has whitespace inside, else characters.
fn row_cells(file: &str, ln: usize, line: &str, spaced: bool) -> Result<Vec<Cell>, InputError> {
    if spaced {
        tokens(line)
            .into_iter()
            .map(|(col, t)| {
                let label = match t {
                    "0" | "." | "-" => None,
                    _ => match t.parse::<u32>() {
                        Ok(n) if n > 0 => Some(n.to_string()),
                        _ => {
                            return Err(InputError::new(
                                file,
                                ln,
                                col,
                                format!(
                                    "unexpected `{t}`: expected a number, or `0` or `.` for an empty cell"
                                ),
                            ))
                        }
                    },
                };
                Ok(Cell {
                    label,
                    line: ln,
                    col,
                })
            })
            .collect()
    } else {
        let lead = line.chars().take_while(|c| c.is_whitespace()).count();
        Ok(line
            .trim()
            .chars()
            .enumerate()
            .map(|(i, ch)| Cell {
                label: (ch != '.').then(|| ch.to_string()),
                line: ln,
                col: lead + i + 1,
            })
            .collect())
    }
}

/// Builds a puzzle from its rows, checking that rows agree and every label appears twice.
fn build(file: &str, rows: Vec<Vec<Cell>>, form: Form) -> Result<Numberlink, InputError> {
    let width = rows[0].len();
    let first_line = rows[0].first().map_or(1, |c| c.line);
    for r in &rows[1..] {
        if r.len() != width {
            let (line, col) = match r.get(width) {
                Some(c) => (c.line, c.col),
                None => r.last().map_or((first_line, 1), |c| (c.line, c.col + 1)),
            };
            return Err(InputError::new(
                file,
                line,
                col,
                format!(
                    "this row has {} cells but the first row (line {first_line}) has {width}: rows must agree",
                    r.len()
                ),
            ));
        }
    }
    check_side(file, first_line, width, rows.len())?;
    let cells: Vec<Cell> = rows.into_iter().flatten().collect();
    let mut seen: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, c) in cells.iter().enumerate() {
        if let Some(l) = &c.label {
            match seen.iter_mut().find(|(x, _)| x == l) {
                Some((_, at)) => {
                    at.push(i);
                    if at.len() == 3 {
                        return Err(InputError::new(
                            file,
                            c.line,
                            c.col,
                            format!(
                                "`{l}` appears a third time: each label must appear exactly twice, at its path's two ends"
                            ),
                        ));
                    }
                }
                None => seen.push((l.clone(), vec![i])),
            }
        }
    }
    if let Some((l, at)) = seen.iter().find(|(_, at)| at.len() == 1) {
        let c = &cells[at[0]];
        return Err(InputError::new(
            file,
            c.line,
            c.col,
            format!("`{l}` appears only once: each label must appear exactly twice, at its path's two ends"),
        ));
    }
    let mut p = Numberlink::new(
        width,
        cells.len() / width,
        seen.iter().map(|(_, at)| (at[0], at[1])).collect(),
    );
    p.labels = seen.into_iter().map(|(l, _)| l).collect();
    p.form = form;
    p.sort_paths();
    Ok(p)
}

fn check_side(file: &str, line: usize, w: usize, h: usize) -> Result<(), InputError> {
    if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
        return Err(InputError::new(
            file,
            line,
            1,
            format!("a board of {w}x{h}: each side must be 1 to {MAX_SIDE}"),
        ));
    }
    Ok(())
}

fn form_of(spaced: bool) -> Form {
    if spaced {
        Form::Numbers
    } else {
        Form::Letters
    }
}

/// A puzzle with the line it starts on.
type Started = (usize, Numberlink);

/// `(x,y)` with its 1-based column in the line.
fn point(s: &str) -> Option<(usize, usize)> {
    let s = s.trim().strip_prefix('(')?.strip_suffix(')')?;
    let (x, y) = s.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

fn parse_contest(file: &str, lines: &[(usize, &str)]) -> Result<Started, InputError> {
    let mut size: Option<(usize, usize, usize)> = None;
    let mut declared: Option<(usize, usize)> = None;
    let mut paths: Vec<(u32, usize, usize, usize)> = Vec::new(); // number, a, b, line
    let mut owner: std::collections::HashMap<usize, (u32, usize)> = Default::default();
    for &(ln, l) in lines {
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        let col0 = l.len() - l.trim_start().len() + 1;
        let upper = t.to_ascii_uppercase();
        if let Some(rest) = upper.strip_prefix("SIZE") {
            let bad = || {
                InputError::new(
                    file,
                    ln,
                    col0,
                    format!("expected `SIZE WxH` (like `SIZE 10X10`), found `{t}`"),
                )
            };
            let (w, h) = rest.trim().split_once('X').ok_or_else(bad)?;
            let (w, h): (usize, usize) = (
                w.trim().parse().map_err(|_| bad())?,
                h.trim().parse().map_err(|_| bad())?,
            );
            check_side(file, ln, w, h)?;
            size = Some((w, h, ln));
        } else if let Some(rest) = upper.strip_prefix("LINE_NUM") {
            let n = rest.trim().parse().map_err(|_| {
                InputError::new(
                    file,
                    ln,
                    col0,
                    format!("expected `LINE_NUM n`, found `{t}`"),
                )
            })?;
            declared = Some((n, ln));
        } else if let Some(rest) = upper.strip_prefix("LINE#") {
            let bad = || {
                InputError::new(
                    file,
                    ln,
                    col0,
                    format!("expected `LINE#k (x1,y1)-(x2,y2)`, found `{t}`"),
                )
            };
            let (num, pts) = rest
                .split_once(|c: char| c.is_whitespace())
                .ok_or_else(bad)?;
            let num: u32 = num.trim().parse().map_err(|_| bad())?;
            let (a, b) = pts
                .split_once(")-(")
                .or_else(|| pts.trim().split_once(") ("))
                .ok_or_else(bad)?;
            let (a, b) = (
                point(&format!("{a})")).ok_or_else(bad)?,
                point(&format!("({b}")).ok_or_else(bad)?,
            );
            let Some((w, h, _)) = size else {
                return Err(InputError::new(
                    file,
                    ln,
                    col0,
                    "a LINE before the SIZE line",
                ));
            };
            if num == 0 {
                return Err(InputError::new(file, ln, col0, "line numbers start at 1"));
            }
            if let Some(&(_, _, _, other)) = paths.iter().find(|p| p.0 == num) {
                return Err(InputError::new(
                    file,
                    ln,
                    col0,
                    format!("LINE#{num} is given twice (also on line {other})"),
                ));
            }
            // The column of each point's `(`, so an error points at the point itself.
            let opens: Vec<usize> = t
                .char_indices()
                .filter(|&(_, c)| c == '(')
                .map(|(i, _)| col0 + t[..i].chars().count())
                .collect();
            let (col_a, col_b) = (
                opens.first().copied().unwrap_or(col0),
                opens.get(1).copied().unwrap_or(col0),
            );
            let mut cell = |(x, y): (usize, usize), col: usize| -> Result<usize, InputError> {
                if x >= w || y >= h {
                    return Err(InputError::new(
                        file,
                        ln,
                        col,
                        format!(
                            "({x},{y}) is outside the {w}x{h} board (x 0-{}, y 0-{})",
                            w - 1,
                            h - 1
                        ),
                    ));
                }
                let c = y * w + x;
                if let Some(&(other, oln)) = owner.get(&c) {
                    return Err(InputError::new(
                        file,
                        ln,
                        col,
                        format!("({x},{y}) is already an end of LINE#{other} (line {oln})"),
                    ));
                }
                owner.insert(c, (num, ln));
                Ok(c)
            };
            let (ca, cb) = (cell(a, col_a)?, cell(b, col_b)?);
            paths.push((num, ca, cb, ln));
        } else {
            return Err(InputError::new(
                file,
                ln,
                col0,
                format!("expected `SIZE`, `LINE_NUM` or `LINE#k`, found `{t}`"),
            ));
        }
    }
    let (w, h, _) = size.expect("the first line is SIZE");
    if let Some((n, ln)) = declared {
        if n != paths.len() {
            return Err(InputError::new(
                file,
                ln,
                1,
                format!("LINE_NUM says {n} lines but the file gives {}", paths.len()),
            ));
        }
    }
    let mut p = Numberlink::new(w, h, Vec::new());
    p.ends = paths.iter().map(|&(_, a, b, _)| (a, b)).collect();
    p.labels = paths.iter().map(|&(n, ..)| n.to_string()).collect();
    p.form = Form::Contest;
    p.sort_paths();
    let start = lines
        .iter()
        .find(|(_, l)| !l.trim().is_empty())
        .map_or(1, |&(ln, _)| ln);
    Ok((start, p))
}

/// The puzzle written back in its own form, after its rule directive when its rules are not
/// the default (the contest form has its own conventions and gets none).
pub fn write(p: &Numberlink) -> String {
    let grid = |p: &Numberlink| match directive(p.rules) {
        Some(d) => format!("{d}\n{}", super::render::puzzle(p)),
        None => super::render::puzzle(p),
    };
    match p.form {
        Form::Contest => {
            let mut s = format!("SIZE {}X{}\nLINE_NUM {}\n", p.width, p.height, p.ends.len());
            let mut order: Vec<usize> = (0..p.ends.len()).collect();
            crate::sort::by_key(&mut order, |&k| p.numbers[k]);
            for k in order {
                let (a, b) = p.ends[k];
                s.push_str(&format!(
                    "LINE#{} ({},{})-({},{})\n",
                    p.numbers[k],
                    a % p.width,
                    a / p.width,
                    b % p.width,
                    b / p.width
                ));
            }
            s
        }
        Form::Letters | Form::Numbers => grid(p),
    }
}

/// The rule set a pzprjs genre means: `numlin` is Nikoli's Numberlink (cells may stay empty);
/// `arukone` must pass every cell, unless its `e` flag lets cells stay empty. pzprjs has no
/// "no path alongside itself" rule, so `arukone` is `cover`.
pub fn url_rules(genre: &str, flags: &str) -> Rules {
    match genre {
        "arukone" if !flags.contains('e') => Rules::Cover,
        _ => Rules::Nikoli,
    }
}

/// Arukone's letter for a number: `A`-`Z` for 1-26, `a`-`z` for 27-52 (as pzprjs draws them).
fn arukone_letter(n: u32) -> Option<char> {
    match n {
        1..=26 => Some((b'A' + (n - 1) as u8) as char),
        27..=52 => Some((b'a' + (n - 27) as u8) as char),
        _ => None,
    }
}

/// A puzzle from a pzprjs `numlin` or `arukone` URL: its ends in `Number16`, labels as pzprjs
/// shows them (numbers for `numlin`, letters for `arukone`), rules by the genre ([`url_rules`])
/// unless `opts` names some.
pub fn from_url(url: &crate::url::Url, opts: ReadOptions) -> Result<Numberlink, InputError> {
    use crate::url::{Number, Reader};
    let (w, h) = (url.cols, url.rows);
    let letters = url.genre == "arukone";
    let mut r = Reader::new(url);
    let cells = r.number16(w * h)?;
    r.finish("numbers")?;
    let mut rows: Vec<Vec<Cell>> = Vec::with_capacity(h);
    for y in 0..h {
        let mut row = Vec::with_capacity(w);
        for x in 0..w {
            let (label, col) = match cells[y * w + x] {
                None => (None, url.at.col),
                Some((Number::Value(n), pos)) if n >= 1 => {
                    let label = if letters {
                        arukone_letter(n).map(String::from).ok_or_else(|| {
                            r.error(pos, format!("arukone's letters go up to 52 (z), found {n}"))
                        })?
                    } else {
                        n.to_string()
                    };
                    (Some(label), url.at.col + pos)
                }
                Some((_, pos)) => {
                    return Err(r.error(
                        pos,
                        format!(
                            "r{}c{} is an end without its number (pzprjs's `?` or 0)",
                            y + 1,
                            x + 1
                        ),
                    ))
                }
            };
            row.push(Cell {
                label,
                line: url.at.line,
                col,
            });
        }
        rows.push(row);
    }
    check_side(url.at.file, url.at.line, w, h)?;
    let form = if letters {
        Form::Letters
    } else {
        Form::Numbers
    };
    let mut p = build(url.at.file, rows, form)?;
    if letters {
        // The letters' own numbers (A = 1, a = 27), so the URL is written again as it came.
        p.numbers = p
            .labels
            .iter()
            .map(|l| {
                let c = l.chars().next().expect("a letter");
                match c {
                    'A'..='Z' => c as u32 - 'A' as u32 + 1,
                    _ => c as u32 - 'a' as u32 + 27,
                }
            })
            .collect();
    }
    p.rules = opts.rules.unwrap_or(url_rules(url.genre, url.flags));
    p.loops = opts.loops;
    Ok(p)
}

/// The puzz.link URL of a puzzle: `numlin` under nikoli rules, `arukone` under cover and
/// flow (pzprjs checks only that every cell is passed: its arukone has no flow rule), and
/// `arukone` with its `e` flag for a puzzle of letters under nikoli rules. The ends carry the
/// paths' numbers (a letter puzzle's are 1, 2... by first appearance); arukone shows them as
/// letters, 1-52, so a puzzle of numbers above 52 is renumbered there.
pub fn to_url(p: &Numberlink) -> Result<String, String> {
    let (genre, flags) = match (p.rules, p.form) {
        (Rules::Nikoli, Form::Letters) => ("arukone", "e"),
        (Rules::Nikoli, _) => ("numlin", ""),
        _ => ("arukone", ""),
    };
    let mut values = p.numbers.clone();
    if genre == "arukone" && values.iter().any(|&n| n > 52) {
        if values.len() > 52 {
            return Err(format!(
                "--format url: an arukone URL holds up to 52 letters, this puzzle has {} paths",
                values.len()
            ));
        }
        values = (1..=values.len() as u32).collect();
    }
    let mut cells = vec![None; p.width * p.height];
    for (k, &(a, b)) in p.ends.iter().enumerate() {
        cells[a] = Some(values[k]);
        cells[b] = Some(values[k]);
    }
    Ok(crate::url::write(
        genre,
        flags,
        p.width,
        p.height,
        &crate::url::write_number16(&cells),
    ))
}

/// The formats [`write_solutions`] writes.
pub const FORMATS: &[&str] = &["text", "contest", "url"];

/// Puzzles written in `format`, each solved when it has a solution (rows of path numbers, 0
/// for an empty cell, as `Puzzle::rows` gives them), else as given: `text`, the puzzle's own
/// grid form with every cell of a path holding the path's label (blocks separated by blank
/// lines); `contest`, the ADC answer form (`SIZE WxH`, rows of two-digit path numbers) for a
/// solution and the contest problem form for a puzzle without one; `url`, the puzzle's
/// puzz.link URL (a URL carries no solution).
pub fn write_solutions(
    format: &str,
    items: &[(&Numberlink, Option<&Vec<Vec<i64>>>)],
) -> Result<String, String> {
    let mut out = Vec::new();
    for (p, rows) in items {
        let path: Option<Vec<u32>> =
            rows.map(|rows| rows.iter().flatten().map(|&k| k as u32).collect());
        out.push(match (format, path) {
            ("text", None) => write(p),
            ("text", Some(path)) => {
                let mut q = (*p).clone();
                q.form = match p.form {
                    Form::Contest => Form::Numbers,
                    f => f,
                };
                let label = |k: u32| -> String {
                    match (k, q.form) {
                        (0, Form::Letters) => ".".into(),
                        (0, _) => "0".into(),
                        (k, Form::Letters) => q.labels[k as usize - 1].clone(),
                        (k, _) => q.numbers[k as usize - 1].to_string(),
                    }
                };
                let mut s = directive(q.rules).map_or(String::new(), |d| d + "\n");
                for row in path.chunks(q.width) {
                    let cells: Vec<String> = row.iter().map(|&k| label(k)).collect();
                    s.push_str(&cells.join(if q.form == Form::Letters { "" } else { " " }));
                    s.push('\n');
                }
                s
            }
            ("contest", None) => {
                let mut q = (*p).clone();
                q.form = Form::Contest;
                write(&q)
            }
            ("url", _) => to_url(p)? + "\n",
            ("contest", Some(path)) => contest_answer(
                p,
                &super::Links {
                    arms: vec![0; path.len()],
                    path,
                },
            ),
            (other, _) => {
                return Err(format!(
                    "unknown --format {other} for numberlink: expected {}",
                    FORMATS.join(", ")
                ))
            }
        });
    }
    Ok(out.join(if format == "url" { "" } else { "\n" }))
}

/// The contest answer: `SIZE WxH`, then each row as comma-separated two-digit path numbers
/// (`00` for an empty cell).
pub fn contest_answer(p: &Numberlink, s: &super::Links) -> String {
    let mut out = format!("SIZE {}X{}\n", p.width, p.height);
    for row in s.path.chunks(p.width) {
        let cells: Vec<String> = row
            .iter()
            .map(|&k| {
                let n = if k == 0 { 0 } else { p.numbers[k as usize - 1] };
                format!("{n:02}")
            })
            .collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Numberlink {
        let mut ps = parse("t", text, ReadOptions::default()).unwrap();
        assert_eq!(ps.len(), 1);
        ps.pop().unwrap()
    }

    fn err(text: &str) -> InputError {
        parse("t", text, ReadOptions::default()).unwrap_err()
    }

    #[test]
    fn reads_number_grids_with_their_own_numbers() {
        let p = one("# the seed's form\n5 0 0 5\n0 7 . 0\n7 0 0 0\n");
        assert_eq!((p.width, p.height), (4, 3));
        assert_eq!(p.ends, vec![(0, 3), (5, 8)]);
        assert_eq!(p.numbers, vec![5, 7]);
        assert_eq!(p.form, Form::Numbers);
        assert_eq!(write(&p), "5 . . 5\n. 7 . .\n7 . . .\n");
    }

    #[test]
    fn a_directive_sets_the_rules_of_the_puzzles_after_it() {
        let text = "AB\nAB\n\n# numberlink: rules=nikoli\nA.A\n\n# numberlink: rules=cover\nA\nA\n";
        let ps = parse("t", text, ReadOptions::default()).unwrap();
        let rules: Vec<Rules> = ps.iter().map(|p| p.rules).collect();
        assert_eq!(rules, vec![Rules::Flow, Rules::Nikoli, Rules::Cover]);
        // The command line wins.
        let opts = ReadOptions {
            rules: Some(Rules::Flow),
            ..Default::default()
        };
        assert!(parse("t", text, opts)
            .unwrap()
            .iter()
            .all(|p| p.rules == Rules::Flow));
        // Written back with the directive, so it reads back under the same rules.
        assert_eq!(write(&ps[1]), "# numberlink: rules=nikoli\nA.A\n");
        assert_eq!(write(&ps[0]), "AB\nAB\n");
        let e = err("# numberlink: rules=loose\nAA\n");
        assert_eq!((e.line, e.col), (1, 15), "{e}");
        assert!(e.message.contains("rules=nikoli"), "{e}");
    }

    #[test]
    fn reads_letter_grids_numbered_by_first_appearance() {
        let p = one("R.G.Y\n..B.O\n.....\n.G.Y.\n.RBO.\n");
        assert_eq!(p.labels, vec!["R", "G", "Y", "B", "O"]);
        assert_eq!(p.numbers, vec![1, 2, 3, 4, 5]);
        assert_eq!(p.ends[0], (0, 21));
        assert_eq!(p.form, Form::Letters);
        assert_eq!(write(&p), "R.G.Y\n..B.O\n.....\n.G.Y.\n.RBO.\n");
    }

    #[test]
    fn reads_the_multi_puzzle_header_form() {
        let ps = parse(
            "t",
            "# two puzzles\n\n3 2\nA0A\nB0B\n\n2 2\n1 1\n2 2\n0 0\nignored after the end\n",
            ReadOptions::default(),
        )
        .unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].labels, vec!["A", "0", "B"]);
        assert_eq!((ps[1].width, ps[1].height), (2, 2));
        assert_eq!(ps[1].numbers, vec![1, 2]);
    }

    /// What a multi-puzzle read hands back: `Ok` as its width, errors as `E<line>`.
    fn outline(text: &str) -> Vec<String> {
        crate::records::outline(Reader::new("t", ReadOptions::default()), text, |p| {
            (p.width, p.height)
        })
    }

    #[test]
    fn the_header_form_reads_on_after_a_bad_puzzle() {
        let good = "3 2\nA.A\nB.B\n";
        // A bad header: one error, and the puzzles after it read (no blank lines at all).
        let t = format!("{good}3 x\nA.A\nB.B\n{good}{good}0 0\n");
        assert_eq!(outline(&t), ["3x2", "E4", "3x2", "3x2"]);
        // A puzzle one row short, followed at once by the next header.
        let t = format!("{good}3 2\nA.A\n{good}{good}");
        assert_eq!(outline(&t), ["3x2", "E4", "3x2", "3x2"]);
        // One row long: the puzzle as announced, and the row after it is an error (it may be a
        // garbled header as well); the next one reads.
        let t = format!("{good}3 2\nA.A\nB.B\nC.C\n{good}\n{good}");
        assert_eq!(outline(&t), ["3x2", "3x2", "E7", "3x2", "3x2"]);
        // A row of the wrong width, a blank line inside a puzzle, a header past the limit,
        // garbage between puzzles.
        let t = format!("{good}3 2\nA..A\nB.B\n{good}3 2\nA.A\n\nB.B\n{good}9999 2\nA\n{good}junk\nmore\n{good}");
        assert_eq!(
            outline(&t),
            ["3x2", "E5", "3x2", "E12", "3x2", "E17", "3x2", "E22", "3x2"]
        );
        // A first header of height 0 before a line of two tokens (read as a grid of two
        // columns at first): the next header starts the header form (found by the splice
        // fuzzer).
        let t = format!("4 0\nLINE_NUM 9\nA..B\n{good}{good}");
        assert_eq!(outline(&t), ["E2", "3x2", "3x2"]);
        // Two garbled headers back to back (the stress run's case), first in the file or not,
        // and one after a puzzle a row short: an error each.
        let bad = "3 x\nA.A\nB.B\n";
        let t = format!("{good}{bad}{bad}{good}");
        assert_eq!(outline(&t), ["3x2", "E4", "E7", "3x2"]);
        let t = format!("# numberlink: rules=flow\n{bad}{bad}{good}{good}");
        assert_eq!(outline(&t), ["E2", "E5", "3x2", "3x2"]);
        let t = format!("{good}3 2\nA.A\n{bad}{good}");
        assert_eq!(outline(&t), ["3x2", "E4", "E6", "3x2"]);
    }

    #[test]
    fn reads_and_writes_the_contest_form() {
        let text = "SIZE 4X3\nLINE_NUM 2\nLINE#2 (0,0)-(3,0)\nLINE#1 (1,1)-(1,2)\n";
        let p = one(text);
        assert_eq!(p.form, Form::Contest);
        assert_eq!(p.numbers, vec![2, 1]);
        assert_eq!(p.ends, vec![(0, 3), (5, 9)]);
        assert_eq!(
            write(&p),
            "SIZE 4X3\nLINE_NUM 2\nLINE#1 (1,1)-(1,2)\nLINE#2 (0,0)-(3,0)\n"
        );
        let s = super::super::Links {
            arms: vec![0; 12],
            path: vec![1, 1, 1, 1, 0, 2, 0, 0, 0, 2, 0, 0],
        };
        assert_eq!(
            contest_answer(&p, &s),
            "SIZE 4X3\n02,02,02,02\n00,01,00,00\n00,01,00,00\n"
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = err("1 0 2\n0 0 1\n");
        assert_eq!((e.line, e.col), (1, 5));
        assert!(e.message.contains("`2` appears only once"), "{e}");
        let e = err("1 0 1\n0 1 0\n");
        assert_eq!((e.line, e.col), (2, 3));
        assert!(e.message.contains("third time"), "{e}");
        let e = err("A..A\n...\n");
        assert_eq!((e.line, e.col), (2, 4));
        assert!(e.message.contains("rows must agree"), "{e}");
        let e = err("1 0 x\n0 0 1\n");
        assert_eq!((e.line, e.col), (1, 5));
        assert!(e.message.contains("expected a number"), "{e}");
        let e = err("3 2\nA.A\n.B\n");
        assert_eq!((e.line, e.col), (3, 3));
        let e = err("3 3\nA.A\n...\n");
        assert!(e.message.contains("only 2 rows"), "{e}");
        let e = err("SIZE 3X3\nLINE_NUM 1\nLINE#1 (0,0)-(3,0)\n");
        assert_eq!((e.line, e.col), (3, 14), "the column of the point's `(`");
        assert!(e.message.contains("outside"), "{e}");
        let e = err("SIZE 3X3\nLINE_NUM 2\nLINE#1 (0,0)-(2,0)\n");
        assert!(e.message.contains("LINE_NUM says 2"), "{e}");
        let e = err("SIZE 3X3\nLINE#1 (0,0)-(2,0)\nLINE#2 (0,0)-(2,2)\n");
        assert_eq!((e.line, e.col), (3, 8));
        assert!(e.message.contains("already an end of LINE#1"), "{e}");
        let e = err("# nothing\n");
        assert!(e.message.contains("no puzzle"));
    }

    #[test]
    fn detection() {
        assert!(looks_like(
            "SIZE 3X3\nLINE_NUM 1\nLINE#1 (0,0)-(2,0)\n",
            true
        ));
        assert!(looks_like("R.G\n.RG\n", true));
        assert!(looks_like(
            "8 8\n1......1\n........\n........\n........\n........\n........\n........\n2......2\n",
            true
        ));
        assert!(!looks_like(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n",
            true
        ));
        assert!(!looks_like("1 0 1\n0 1 0\n", true));
        assert!(!looks_like("0101\n1010\n", true));
        // The quick no: a label three times in the first grid (comments are not grid lines,
        // a blank line ends the grid, spaced grids go to the reader).
        assert!(label_thrice_in_first_grid("R.G\n# R\n.RG\nR..\n"));
        assert!(!label_thrice_in_first_grid(
            "R.G\n# R R R\n.RG\n\nR.G\n.RG\n"
        ));
        assert!(!label_thrice_in_first_grid("1 . 1\n1 . .\n"));
        assert!(looks_like("R.G\n# R R R\n.RG\n\nR.G\n.RG\n", true));
    }
}
