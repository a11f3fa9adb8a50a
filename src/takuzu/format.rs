//! Reading Takuzu files in the forms the community uses:
//!
//! - **text grid**: one row per line, `0`, `1` and `.` (also `-` or `_`) for an open cell,
//!   spaces between cells allowed; blank lines separate the puzzles of a multi-puzzle file;
//! - **one line per puzzle**: row-major cells of a square grid (`0`, `1`, `.`/`-`), optionally
//!   followed by other tokens such as the solution (Borroot's binarypuzzle.com sets), or the
//!   puzzle-binairo.com task code where a letter is a run of open cells (`a` = 1 … `z` = 26;
//!   a line that marks open cells with `.` or `-` is never in that code, so a letter there is
//!   a wrong character);
//!   `WxH;cells` for a rectangle (Thilerion); `TAG:cells` for binarypuzzle.com's composite
//!   puzzles (`4x6x6:`, `8in14:`…, a following `solution:` line is skipped);
//! - **`|…|` boards** (Shlomi Fish's binary-puzzle-garden): one row per line between bars,
//!   a space for an open cell;
//! - **janko / puzzlekit**: a header `ROWS COLS`, then the rows with `-` (or `0` in the packed
//!   form) for open, `1` for a white circle (read as 0) and `2` for a black one (read as 1);
//!   janko's Binairo has no distinct-lines rule, so it is off unless asked for; the puzzlekit
//!   JSON collection `{"data": {NAME: {"problem": ...}}}` holds many;
//! - **Thilerion's JSON** array of `{"boardStr": "WxH;cells", ...}` (odd lines hold one more 1);
//! - **JSON Lines records** `{"w", "h", "givens", "rules": {...}}` as in the normalized corpus,
//!   each with its own rules.
//!
//! A block of lines is a grid when its height and width are within a factor of two of each
//! other; otherwise each line is a one-line puzzle (so 200 lines of 36 cells are 200 6x6
//! puzzles, and 6 lines of 6 cells one grid). Lines starting with `#` are comments, except a
//! rule directive `# takuzu: odd-lines=ones no-distinct-lines regions=4x6x6`, which applies to
//! the puzzles after it. A comment line also ends a grid, so generated files (a `#` line before
//! each puzzle) read as they are. Rules given on the command line win over a file's.
//!
//! Every error names the file, line and column: a wrong character, a ragged row, a one-line
//! puzzle whose length is not a square, givens that already break a rule.

use super::{rules, DistinctEncoding, OddLines, Region, Rules, Takuzu};
use crate::error::InputError;
use crate::records::Item;
use crate::text::{count_of, is_comment, tokens};
use serde_json::Value;

/// Rule options from the command line; `None` leaves the file's (or the default) choice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    pub distinct_lines: Option<bool>,
    pub odd_lines: Option<OddLines>,
    /// A composite layout (`4x6x6`, `8in14`, `6in10in14`) or an explicit region list.
    pub regions: Option<String>,
    pub encoding: Option<DistinctEncoding>,
    /// How a block of text lines that could be either is read (`--read-as`).
    pub read_as: ReadAs,
}

/// How a block of text lines that could be one grid or one puzzle per line is read
/// (`--read-as`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReadAs {
    /// One puzzle per line when every line is a square one-line puzzle of an even side (16,
    /// 36, 64... cells) and the block is not square: eight lines of 16 cells are eight 4x4
    /// puzzles, not one rare 16x8 grid; sixteen lines of 16 cells are one 16x16 grid. Any
    /// other block within a factor of two of square is one grid.
    #[default]
    Auto,
    /// One grid whenever the block's height and width are within a factor of two.
    Grid,
    /// One puzzle per line, always.
    Lines,
}

impl ReadAs {
    /// `auto`, `grid` or `lines`.
    pub fn from_name(s: &str) -> Option<ReadAs> {
        match s {
            "auto" => Some(ReadAs::Auto),
            "grid" => Some(ReadAs::Grid),
            "lines" => Some(ReadAs::Lines),
            _ => None,
        }
    }
}

/// The largest side accepted (a guard against reading a huge file as one grid).
pub const MAX_SIDE: usize = 1000;

/// Rules a file or record sets for its puzzles.
#[derive(Clone, Debug, Default)]
struct FileRules {
    distinct_lines: Option<bool>,
    odd_lines: Option<OddLines>,
    regions: Option<String>,
}

impl FileRules {
    /// `later` over `self`.
    fn over(&self, later: &FileRules) -> FileRules {
        FileRules {
            distinct_lines: later.distinct_lines.or(self.distinct_lines),
            odd_lines: later.odd_lines.or(self.odd_lines),
            regions: later.regions.clone().or(self.regions.clone()),
        }
    }
}

/// A puzzle as read: cells with where each came from, and the rules its source sets.
struct Raw {
    width: usize,
    height: usize,
    cells: Vec<Option<u8>>,
    /// (line, column) of each cell, 1-based.
    pos: Vec<(usize, usize)>,
    rules: FileRules,
    /// How an ambiguous block was read (see [`Takuzu::reading`]).
    reading: Option<String>,
}

/// A 1-based (line, column).
type Pos = (usize, usize);

/// A puzzle as read, with where it starts.
type Placed = (Raw, Pos);

/// What the text says about a cell character in the plain forms.
fn cell_char(c: char) -> Option<Option<u8>> {
    match c {
        '0' => Some(Some(0)),
        '1' => Some(Some(1)),
        '.' | '-' | '_' => Some(None),
        _ => None,
    }
}

/// The rule directive of a comment line (`# takuzu: ...`), if it is one.
fn directive_of(file: &str, ln: usize, line: &str) -> Result<Option<FileRules>, InputError> {
    let body = line.trim_start().trim_start_matches('#').trim_start();
    let Some(rest) = body.strip_prefix("takuzu:") else {
        return Ok(None);
    };
    let mut r = FileRules::default();
    for word in rest.split_whitespace() {
        let col = line.find(word).map_or(1, |b| line[..b].chars().count() + 1);
        let bad = |what: &str| InputError::new(file, ln, col, what.to_string());
        match word.split_once('=') {
            None if word == "distinct-lines" => r.distinct_lines = Some(true),
            None if word == "no-distinct-lines" => r.distinct_lines = Some(false),
            Some(("odd-lines", v)) => {
                r.odd_lines = Some(OddLines::from_name(v).ok_or_else(|| {
                    bad("odd-lines expects either, ones or zeros")
                })?)
            }
            Some(("regions", v)) => r.regions = Some(v.to_string()),
            _ => {
                return Err(bad(&format!(
                    "unknown rule `{word}` in the takuzu directive: expected distinct-lines, no-distinct-lines, odd-lines=either|ones|zeros or regions=LAYOUT"
                )))
            }
        }
    }
    Ok(Some(r))
}

/// The directive text for rules that differ from the defaults (empty when none do).
pub fn directive(r: &Rules, width: usize, height: usize) -> String {
    let mut words = Vec::new();
    if !r.distinct_lines {
        words.push("no-distinct-lines".to_string());
    }
    if r.odd_lines != OddLines::Either && (width % 2 == 1 || height % 2 == 1) {
        words.push(format!("odd-lines={}", r.odd_lines.name()));
    }
    if let Some(l) = &r.layout {
        words.push(format!("regions={l}"));
    } else if !r.regions.is_empty() {
        let list: Vec<String> = r
            .regions
            .iter()
            .map(|g| format!("{},{},{},{}", g.row, g.col, g.height, g.width))
            .collect();
        words.push(format!("regions={}", list.join("+")));
    }
    words.join(" ")
}

/// The regions of a layout: `KxSxS` (K sub-grids of SxS tiling the grid, plus the whole),
/// `AinB…` (centred squares of side A, B…, the last the whole grid), `whole`, or an explicit
/// list `ROW,COL,HEIGHT,WIDTH+…` (0-based).
pub fn layout_regions(tag: &str, width: usize, height: usize) -> Result<Vec<Region>, String> {
    let whole = Region {
        row: 0,
        col: 0,
        height,
        width,
    };
    let t = tag.trim().to_ascii_lowercase();
    if t.is_empty() || t == "whole" || t == "none" {
        return Ok(Vec::new());
    }
    if t.contains(',') {
        let mut out = Vec::new();
        for part in t.split('+') {
            let nums: Vec<usize> = part
                .split(',')
                .map(|x| x.trim().parse::<usize>())
                .collect::<Result<_, _>>()
                .map_err(|_| format!("bad region `{part}`: expected ROW,COL,HEIGHT,WIDTH"))?;
            let [row, col, h, w] = nums[..] else {
                return Err(format!(
                    "bad region `{part}`: expected ROW,COL,HEIGHT,WIDTH"
                ));
            };
            if h == 0 || w == 0 || row + h > height || col + w > width {
                return Err(format!(
                    "region `{part}` does not fit the {width}x{height} grid"
                ));
            }
            out.push(Region {
                row,
                col,
                height: h,
                width: w,
            });
        }
        return Ok(out);
    }
    let num = |s: &str| s.parse::<usize>().ok().filter(|&n| n > 0);
    let parts: Vec<&str> = t.split('x').collect();
    if let [k, s1, s2] = parts[..] {
        let (Some(k), Some(s), Some(s2)) = (num(k), num(s1), num(s2)) else {
            return Err(format!("unknown layout `{tag}`"));
        };
        if s != s2
            || !width.is_multiple_of(s)
            || !height.is_multiple_of(s)
            || (width / s) * (height / s) != k
        {
            return Err(format!(
                "layout `{tag}` needs {k} sub-grids of {s}x{s2} tiling the grid, which is {width}x{height}"
            ));
        }
        let mut out = Vec::new();
        for br in 0..height / s {
            for bc in 0..width / s {
                out.push(Region {
                    row: br * s,
                    col: bc * s,
                    height: s,
                    width: s,
                });
            }
        }
        out.push(whole);
        return Ok(out);
    }
    let sizes: Option<Vec<usize>> = t.split("in").map(num).collect();
    match sizes {
        Some(sizes) if sizes.len() >= 2 => {
            if width != height || *sizes.last().expect("two") != width {
                return Err(format!(
                    "layout `{tag}` needs a square grid of side {}, which is {width}x{height}",
                    sizes.last().expect("two")
                ));
            }
            let mut out = Vec::new();
            for &s in &sizes[..sizes.len() - 1] {
                if s > width || !(width - s).is_multiple_of(2) {
                    return Err(format!(
                        "layout `{tag}`: a {s}x{s} square cannot be centred in {width}x{width}"
                    ));
                }
                let o = (width - s) / 2;
                out.push(Region {
                    row: o,
                    col: o,
                    height: s,
                    width: s,
                });
            }
            out.push(whole);
            Ok(out)
        }
        _ => Err(format!(
            "unknown layout `{tag}`: expected KxSxS (like 4x6x6), AinB (like 8in14, 6in10in14), whole, or ROW,COL,HEIGHT,WIDTH+..."
        )),
    }
}

/// Turns a raw puzzle into a [`Takuzu`]: rules (command line over file over defaults),
/// regions, and the check that the givens break no rule yet.
fn finish(
    file: &str,
    raw: Raw,
    opts: &ReadOptions,
    at: (usize, usize),
) -> Result<Takuzu, InputError> {
    let (w, h) = (raw.width, raw.height);
    if w == 0 || h == 0 {
        return Err(InputError::new(file, at.0, at.1, "an empty grid"));
    }
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(InputError::new(
            file,
            at.0,
            at.1,
            format!("a {w}x{h} grid is larger than gridsat reads ({MAX_SIDE} a side)"),
        ));
    }
    let layout = opts.regions.clone().or(raw.rules.regions.clone());
    let regions = match &layout {
        Some(tag) => layout_regions(tag, w, h).map_err(|m| InputError::new(file, at.0, at.1, m))?,
        None => Vec::new(),
    };
    let whole_only = regions.len() == 1
        && regions[0]
            == Region {
                row: 0,
                col: 0,
                height: h,
                width: w,
            };
    let named = layout.filter(|l| !l.contains(',') && !regions.is_empty() && !whole_only);
    let rules = Rules {
        distinct_lines: opts
            .distinct_lines
            .or(raw.rules.distinct_lines)
            .unwrap_or(true),
        odd_lines: opts.odd_lines.or(raw.rules.odd_lines).unwrap_or_default(),
        regions: if whole_only { Vec::new() } else { regions },
        layout: named,
        encoding: opts.encoding,
    };
    let t = Takuzu {
        width: w,
        height: h,
        cells: raw.cells,
        rules,
        reading: raw.reading,
    };
    if let Some(v) = rules::violation(&t, &t.cells) {
        let (l, c) = raw.pos[v.cell];
        return Err(InputError::new(
            file,
            l,
            c,
            format!("the givens already break a rule: {}", v.message),
        ));
    }
    Ok(t)
}

/// Parses every puzzle in `text` (the contents of `file`).
pub fn parse(file: &str, text: &str, opts: &ReadOptions) -> Result<Vec<Takuzu>, InputError> {
    crate::records::read_all(Reader::new(file, opts), text)
}

/// The form of a file, decided on its first line that is neither blank nor a comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileForm {
    /// Text grids and one-line puzzles (blocks between blank or comment lines).
    Text,
    /// `|…|` boards.
    Bars,
    /// janko's `ROWS COLS` headers, each followed by its rows.
    Janko,
    /// One JSON record per line.
    JsonLines,
    /// One JSON document (Thilerion's array, the puzzlekit collection, a pretty-printed
    /// record): read whole, then puzzle by puzzle.
    Document,
}

/// The streaming reader (see [`crate::records`]). A text block between blank or comment lines
/// is one grid, or one puzzle per line; a block holds at most the lines a grid could have
/// (twice its width) before its lines are taken as one-line puzzles, so memory stays bounded by
/// a puzzle. A JSON document is the one form read whole.
pub struct Reader {
    file: String,
    opts: ReadOptions,
    form: Option<FileForm>,
    /// The rules that `# takuzu:` directives set so far.
    rules: FileRules,
    /// The block being read (text and bars), the janko puzzle, or the whole document.
    block: crate::records::Lines,
    /// Text: the block is one-line puzzles (no grid can be that tall, or a line is not a row).
    lines_mode: bool,
    /// janko: the rows of the puzzle announced.
    announced: Option<usize>,
    /// janko: the puzzle whose rows are all read (header line, width, height, the puzzle),
    /// handed back when the next line shows that it ends there.
    held: Option<(usize, usize, usize, Result<Placed, InputError>)>,
    /// janko: after a bad puzzle, lines are passed over up to the next header or blank line.
    skipping: bool,
    handed: usize,
}

impl Reader {
    pub fn new(file: &str, opts: &ReadOptions) -> Reader {
        Reader {
            file: file.to_string(),
            opts: opts.clone(),
            form: None,
            rules: FileRules::default(),
            block: Default::default(),
            lines_mode: false,
            announced: None,
            held: None,
            skipping: false,
            handed: 0,
        }
    }

    fn hand(&mut self, r: Result<Placed, InputError>, out: &mut Vec<Item<Takuzu>>) {
        self.handed += 1;
        out.push(r.and_then(|(raw, at)| finish(&self.file, raw, &self.opts, at)));
    }

    fn hand_all(&mut self, rs: Vec<Result<Placed, InputError>>, out: &mut Vec<Item<Takuzu>>) {
        for r in rs {
            self.hand(r, out);
        }
    }

    /// The end of a text or bars block.
    fn flush(&mut self, out: &mut Vec<Item<Takuzu>>) {
        let block = self.block.take();
        let lines_mode = std::mem::take(&mut self.lines_mode);
        if block.is_empty() {
            return;
        }
        let lines = block.numbered();
        match self.form {
            Some(FileForm::Bars) => {
                let r = bars_board(&self.file, &lines);
                self.hand(r, out);
            }
            _ if !lines_mode && self.opts.read_as != ReadAs::Lines && is_grid(&lines) => {
                let ambiguous = one_liners(&lines);
                if self.opts.read_as == ReadAs::Auto
                    && ambiguous
                    && lines.len() != grid_width(&lines)
                {
                    let note = format!(
                        "one of {} lines read as one-line puzzles (--read-as grid: one {}x{} grid)",
                        lines.len(),
                        grid_width(&lines),
                        lines.len()
                    );
                    return self.hand_lines(&lines, Some(note), out);
                }
                let r = text_grid(&self.file, &lines, &self.rules).map(|(mut raw, at)| {
                    if ambiguous && self.opts.read_as == ReadAs::Auto {
                        raw.reading = Some(format!(
                            "read as one grid (--read-as lines: {} one-line puzzles)",
                            lines.len()
                        ));
                    }
                    (raw, at)
                });
                self.hand(r, out);
            }
            _ => self.hand_lines(&lines, None, out),
        }
    }

    /// Every line of a block as a one-line puzzle, each with `note` on how it was read.
    fn hand_lines(
        &mut self,
        lines: &[(usize, &str)],
        note: Option<String>,
        out: &mut Vec<Item<Takuzu>>,
    ) {
        for &(ln, l) in lines {
            if let Some(r) = one_line_row(&self.file, ln, l, &self.rules) {
                let note = note.clone();
                self.hand(
                    r.map(|(raw, at)| {
                        (
                            Raw {
                                reading: note,
                                ..raw
                            },
                            at,
                        )
                    }),
                    out,
                );
            }
        }
    }

    fn text_line(&mut self, ln: usize, line: &str, out: &mut Vec<Item<Takuzu>>) {
        if line.trim_start().starts_with('{') && is_json_record(line) {
            // A JSON record where text was read: the file is JSON Lines after all (its first
            // record was bad).
            self.flush(out);
            self.lines_mode = false;
            self.form = Some(FileForm::JsonLines);
            let r = serde_json::from_str::<Value>(line)
                .map_err(|e| json_error(&self.file, e, ln - 1))
                .and_then(|v| record(&self.file, &v, ln, line));
            return self.hand(r, out);
        }
        if is_size_header(line) {
            // No text row is two numbers: the file is in janko's form after all (its first
            // puzzle was bad).
            self.flush(out);
            self.lines_mode = false;
            self.form = Some(FileForm::Janko);
            return self.janko_line(ln, line, out);
        }
        if is_comment(line) {
            // A comment ends a grid (generated files put one before each puzzle).
            self.flush(out);
            match directive_of(&self.file, ln, line) {
                Ok(Some(d)) => self.rules = self.rules.over(&d),
                Ok(None) => {}
                Err(e) => {
                    self.handed += 1;
                    out.push(Err(e));
                }
            }
            return;
        }
        if line.trim().is_empty() {
            self.flush(out);
            return;
        }
        if self.lines_mode || self.opts.read_as == ReadAs::Lines {
            if let Some(r) = one_line_row(&self.file, ln, line, &self.rules) {
                self.hand(r, out);
            }
            return;
        }
        self.block.push(ln, line);
        let width = self.block.lines[0]
            .chars()
            .filter(|c| !c.is_whitespace())
            .count();
        if !grid_row_like(line) || self.block.len() > 2 * width {
            // Not a grid: every line of the block is a puzzle of its own.
            self.lines_mode = true;
            for (ln, l) in self.block.take().numbered() {
                if let Some(r) = one_line_row(&self.file, ln, l, &self.rules) {
                    self.hand(r, out);
                }
            }
        }
    }

    /// A line of janko's form. A puzzle is its header and the rows it announces; a row too many
    /// after it is an error of its own (it may as well be a garbled header). After a bad header or puzzle the reader passes over lines up to the next
    /// header or blank line and reads on from there.
    fn janko_line(&mut self, ln: usize, line: &str, out: &mut Vec<Item<Takuzu>>) {
        let gap = line.trim().is_empty() || is_comment(line);
        if let Some(h) = self.announced {
            let got = self.block.len() - 1;
            if gap {
                if got > 0 {
                    let m = format!(
                        "the grid ends after {got} of its {} (line {} announces them)",
                        count_of(h, "row"),
                        self.block.first
                    );
                    self.janko_error(InputError::new(&self.file, ln, 1, m), out);
                }
                return;
            }
            let width = janko_width(&self.block.lines[0]);
            if width != Some(2) && is_size_header(line) {
                let m = format!(
                    "the grid ends after {got} of its {}: line {ln} starts the next puzzle",
                    count_of(h, "row")
                );
                let e = InputError::new(&self.file, self.block.first, 1, m);
                self.janko_error(e, out);
                self.skipping = false;
                return self.janko_line(ln, line, out);
            }
            self.block.push(ln, line);
            if self.block.len() == h + 1 {
                self.announced = None;
                let block = self.block.take();
                let width = janko_width(&block.lines[0]).unwrap_or(0);
                self.held = Some((block.first, width, h, janko_puzzle(&self.file, &block)));
            }
            return;
        }
        if gap {
            self.hand_held(out);
            self.skipping = false;
            return;
        }
        match janko_header(&self.file, ln, line) {
            Ok((h, _)) => {
                self.hand_held(out);
                self.skipping = false;
                self.block.push(ln, line);
                self.announced = Some(h);
            }
            Err(e) => {
                let extra = self.held.as_ref().is_some_and(|(_, w, _, _)| {
                    let toks = tokens(line);
                    toks.len() == *w || (toks.len() == 1 && toks[0].1.chars().count() == *w)
                });
                if !extra {
                    self.hand_held(out);
                }
                if let Some((hl, _, h, r)) = self.held.take() {
                    // The puzzle stands as announced (the line may be a garbled header as well
                    // as a row too many); the line is the error.
                    self.hand(r, out);
                    let m = format!(
                        "a row after the {h} that line {hl} announces: a puzzle is its `ROWS COLS` line and that many rows"
                    );
                    self.janko_error(InputError::new(&self.file, ln, 1, m), out);
                } else if !self.skipping {
                    self.janko_error(e, out);
                }
            }
        }
    }

    /// A bad janko puzzle: its one error; lines are passed over up to the next header or
    /// blank line.
    fn janko_error(&mut self, e: InputError, out: &mut Vec<Item<Takuzu>>) {
        self.announced = None;
        self.block.take();
        self.handed += 1;
        out.push(Err(e));
        self.skipping = true;
    }

    /// Hands back the janko puzzle read last, now that it is known to end where it did.
    fn hand_held(&mut self, out: &mut Vec<Item<Takuzu>>) {
        if let Some((_, _, _, r)) = self.held.take() {
            self.hand(r, out);
        }
    }
}

/// The width a janko header line announces.
fn janko_width(header: &str) -> Option<usize> {
    let t: Vec<&str> = header.split_whitespace().collect();
    t.get(1)?.parse().ok()
}

impl crate::records::PuzzleReader for Reader {
    type Puzzle = Takuzu;

    fn line(&mut self, ln: usize, line: &str, out: &mut Vec<Item<Takuzu>>) {
        let form = match self.form {
            Some(f) => f,
            None if line.trim().is_empty() || is_comment(line) => {
                if is_comment(line) {
                    self.text_line(ln, line, out);
                }
                return;
            }
            None => {
                let lead = line.trim_start();
                let f = if lead.starts_with('[') {
                    FileForm::Document
                } else if lead.starts_with('{') {
                    match serde_json::from_str::<Value>(line) {
                        Ok(v) if v.is_object() && v.get("data").is_none() => FileForm::JsonLines,
                        // A bad record (it opens and closes an object on its line); a document
                        // opens on a line of its own or with `"data"`.
                        Err(_) if lead.trim_end().ends_with('}') => FileForm::JsonLines,
                        _ => FileForm::Document,
                    }
                } else if lead.starts_with('|') {
                    FileForm::Bars
                } else if is_size_header(lead) {
                    FileForm::Janko
                } else {
                    FileForm::Text
                };
                *self.form.insert(f)
            }
        };
        if matches!(form, FileForm::Bars | FileForm::Janko)
            && line.trim_start().starts_with('{')
            && is_json_record(line)
        {
            // Boards or janko puzzles decided by a bad first line (or a bad header): a JSON
            // record is read as one, and ends the puzzle being read as a blank line would.
            if form == FileForm::Janko {
                self.janko_line(ln, "", out);
            }
            self.flush(out);
            self.form = Some(FileForm::Text);
            return self.text_line(ln, line, out);
        }
        match form {
            FileForm::Text => self.text_line(ln, line, out),
            FileForm::Bars if is_comment(line) => {}
            FileForm::Bars if line.trim().is_empty() => self.flush(out),
            FileForm::Bars => self.block.push(ln, line),
            FileForm::Janko => self.janko_line(ln, line, out),
            FileForm::JsonLines if line.trim().is_empty() || is_comment(line) => {}
            FileForm::JsonLines => {
                let r = serde_json::from_str::<Value>(line)
                    .map_err(|e| json_error(&self.file, e, ln - 1))
                    .and_then(|v| record(&self.file, &v, ln, line));
                self.hand(r, out);
            }
            FileForm::Document => self.block.push(ln, line),
        }
    }

    fn end(&mut self, out: &mut Vec<Item<Takuzu>>) {
        match self.form {
            None => {}
            Some(FileForm::Text | FileForm::Bars) => self.flush(out),
            Some(FileForm::Janko) => {
                self.hand_held(out);
                if let Some(h) = self.announced.take() {
                    let got = self.block.len() - 1;
                    let m = format!("the grid ends after {got} of its {}", count_of(h, "row"));
                    let e = InputError::new(&self.file, self.block.first + got + 1, 1, m);
                    self.handed += 1;
                    out.push(Err(e));
                }
            }
            Some(FileForm::JsonLines) => {}
            Some(FileForm::Document) => {
                let doc = self.block.take();
                let text = doc.text();
                let line0 = doc.first.saturating_sub(1);
                let rs = if text.trim_start().starts_with('[') {
                    parse_thilerion(&self.file, &text, line0)
                } else {
                    parse_json_document(&self.file, &text, line0)
                };
                if rs.iter().all(|r| r.is_err()) && doc.lines.iter().any(|l| is_json_record(l)) {
                    // Taken for a document by a bad first record (one cut off, say), the file
                    // holds JSON Lines records: each line is read as one.
                    for (ln, l) in doc.numbered() {
                        if !l.trim().is_empty() && !is_comment(l) {
                            let r = serde_json::from_str::<Value>(l)
                                .map_err(|e| json_error(&self.file, e, ln - 1))
                                .and_then(|v| record(&self.file, &v, ln, l));
                            self.hand(r, out);
                        }
                    }
                } else {
                    self.hand_all(rs, out);
                }
            }
        }
        if self.handed == 0 {
            let message = match self.form {
                None => "no puzzle found (the file is empty or all comments)",
                Some(FileForm::Document) => "no puzzle found: the JSON holds no puzzle",
                Some(_) => "no puzzle found (the file holds no grid, only comments, blank lines or `solution:` lines)",
            };
            out.push(Err(InputError::new(&self.file, 1, 1, message)));
        }
    }
}

/// True when `text` looks like a Takuzu file of one of the forms above (for detection by
/// content): JSON with Takuzu fields, `|…|` boards, or lines of `0`, `1` and open marks only.
pub fn looks_like(text: &str) -> bool {
    let mut lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !is_comment(l));
    let Some(first) = lines.next() else {
        return false;
    };
    let first = first.trim_start();
    if first.starts_with('[') || first.starts_with('{') {
        return text.contains("\"boardStr\"")
            || text.contains("\"givens\"")
            || text.contains("\"Binairo\"");
    }
    if first.starts_with('|') {
        return first.trim_end().ends_with('|');
    }
    if is_size_header(first) {
        // janko: rows of `-`, `1`, `2` only.
        return lines.next().is_some_and(|row| {
            let toks: Vec<&str> = row.split_whitespace().collect();
            match toks[..] {
                [one] => one.chars().all(|c| matches!(c, '0' | '1' | '2')),
                _ => toks.iter().all(|t| matches!(*t, "-" | "1" | "2")),
            }
        });
    }
    let cell_or_space = |c: char| matches!(c, '0' | '1' | '.' | '-' | '_') || c.is_whitespace();
    // A grid row, or a one-line puzzle (with a `TAG:`/`WxH;` prefix) and more tokens.
    let plain = |l: &str| {
        let tok = l.split_whitespace().next().unwrap_or("");
        let tok = tok.split_once([':', ';']).map_or(tok, |(_, b)| b);
        l.chars().all(cell_or_space)
            || (!tok.is_empty() && tok.chars().all(cell_or_space) && tok.len() >= 4)
            || l.trim_start().starts_with("solution:")
    };
    let codec = |l: &str| {
        let tok = l.split_whitespace().next().unwrap_or("");
        tok.chars().all(|c| matches!(c, '0' | '1' | 'a'..='z'))
            && tok.chars().any(|c| c.is_ascii_lowercase())
            && tok.chars().any(|c| c == '0' || c == '1')
    };
    // Every line (of the first 200) must fit, and some digit must be there: a 4x4 Sudoku whose
    // first row is `1 . . .` is not a Takuzu.
    std::iter::once(first)
        .chain(lines)
        .take(200)
        .all(|l| plain(l) || codec(l))
        && text.contains(['0', '1'])
}

/// True when a line is one JSON object (a JSON Lines record), not a whole collection.
fn is_json_record(line: &str) -> bool {
    serde_json::from_str::<Value>(line).is_ok_and(|v| v.is_object() && v.get("data").is_none())
}

fn is_size_header(line: &str) -> bool {
    let toks: Vec<&str> = line.split_whitespace().collect();
    toks.len() == 2 && toks.iter().all(|t| t.parse::<usize>().is_ok_and(|n| n > 1))
}

/// True when a token marks open cells with `.`, `-` or `_`: then it is a plain row-major
/// string, never the puzzle-binairo.com code (where open cells are only letter runs).
fn has_open_marks(tok: &str) -> bool {
    tok.contains(['.', '-', '_'])
}

/// The cells of a one-line token: plain characters, or (in the puzzle-binairo.com code, which
/// has no `.`/`-`) a letter for a run of open cells.
fn token_cells(
    file: &str,
    ln: usize,
    col0: usize,
    tok: &str,
) -> Result<(Vec<Option<u8>>, Vec<Pos>), InputError> {
    let mut cells = Vec::new();
    let mut pos = Vec::new();
    let plain = has_open_marks(tok);
    for (k, c) in tok.chars().enumerate() {
        match (cell_char(c), c) {
            (Some(v), _) => {
                cells.push(v);
                pos.push((ln, col0 + k));
            }
            (None, _) if plain => {
                return Err(InputError::new(
                    file,
                    ln,
                    col0 + k,
                    format!("unexpected `{c}`: expected `0`, `1` or `.`/`-` for an open cell (letters stand for runs of open cells only in the puzzle-binairo.com code, which has no `.` or `-`)"),
                ))
            }
            (None, 'a'..='z') if cells.len() > MAX_SIDE * MAX_SIDE => {
                return Err(InputError::new(
                    file,
                    ln,
                    col0 + k,
                    format!("more cells than a {MAX_SIDE}x{MAX_SIDE} grid holds: gridsat reads Takuzu up to {MAX_SIDE} a side"),
                ))
            }
            (None, 'a'..='z') => {
                for _ in 0..(c as u8 - b'a' + 1) {
                    cells.push(None);
                    pos.push((ln, col0 + k));
                }
            }
            _ => {
                return Err(InputError::new(
                    file,
                    ln,
                    col0 + k,
                    format!("unexpected `{c}`: expected `0`, `1` or `.`/`-` for an open cell (or a letter a-z for a run of open cells)"),
                ))
            }
        }
    }
    Ok((cells, pos))
}

/// `WxH` (as in Thilerion's `6x10;`).
fn parse_dims(s: &str) -> Option<(usize, usize)> {
    let (w, h) = s.split_once(['x', 'X'])?;
    Some((w.trim().parse().ok()?, h.trim().parse().ok()?))
}

/// One one-line puzzle from a token (with an optional `WxH;` or `TAG:` prefix).
fn one_line(
    file: &str,
    ln: usize,
    col0: usize,
    tok: &str,
    rules: &FileRules,
) -> Result<(Raw, (usize, usize)), InputError> {
    let mut rules = rules.clone();
    let mut dims = None;
    let mut body = tok;
    let mut col = col0;
    if let Some((head, rest)) = tok.split_once(';') {
        dims = Some(parse_dims(head).ok_or_else(|| {
            InputError::new(
                file,
                ln,
                col0,
                format!("`{head}` is not a size WIDTHxHEIGHT"),
            )
        })?);
        col += head.chars().count() + 1;
        body = rest;
    } else if let Some((head, rest)) = tok.split_once(':') {
        rules.regions = Some(head.to_string());
        col += head.chars().count() + 1;
        body = rest;
    }
    let (cells, pos) = token_cells(file, ln, col, body)?;
    let (w, h) = match dims {
        Some((w, h)) => {
            if w > MAX_SIDE || h > MAX_SIDE {
                return Err(InputError::new(
                    file,
                    ln,
                    col0,
                    format!("a {w}x{h} grid is larger than gridsat reads ({MAX_SIDE} a side)"),
                ));
            }
            if w * h != cells.len() {
                return Err(InputError::new(
                    file,
                    ln,
                    col,
                    format!(
                        "{w}x{h} needs {}, found {}",
                        count_of(w * h, "cell"),
                        cells.len()
                    ),
                ));
            }
            (w, h)
        }
        None => {
            let n = (cells.len() as f64).sqrt().round() as usize;
            if n * n != cells.len() || n == 0 {
                return Err(InputError::new(
                    file,
                    ln,
                    col,
                    format!(
                        "a one-line puzzle needs a square number of cells (36 for 6x6, 100 for 10x10...) or a WxH; prefix, found {}",
                        cells.len()
                    ),
                ));
            }
            (n, n)
        }
    };
    Ok((
        Raw {
            width: w,
            height: h,
            cells,
            pos,
            rules,
            reading: None,
        },
        (ln, col0),
    ))
}

/// True when a line is a grid row: one token, or tokens of one character each.
fn grid_row_like(line: &str) -> bool {
    let t = tokens(line);
    (t.len() == 1 || t.iter().all(|(_, x)| x.chars().count() == 1))
        && !line.contains([';', ':'])
        && !codec_like(line)
}

/// True for a puzzle-binairo.com task code: `0`/`1` and letters, expanding to a square.
fn codec_like(line: &str) -> bool {
    let tok = line.split_whitespace().next().unwrap_or("");
    if !tok.chars().any(|c| c.is_ascii_lowercase()) || has_open_marks(tok) {
        return false;
    }
    let mut n = 0usize;
    for c in tok.chars() {
        match c {
            'a'..='z' => n += (c as u8 - b'a' + 1) as usize,
            _ if cell_char(c).is_some() => n += 1,
            _ => return false,
        }
    }
    let s = (n as f64).sqrt().round() as usize;
    s * s == n && n >= 4
}

/// The width of a block read as a grid: the cells of its first line.
fn grid_width(block: &[(usize, &str)]) -> usize {
    block[0].1.chars().filter(|c| !c.is_whitespace()).count()
}

/// True when every line of a block is also a one-line puzzle: one token of cell characters, a
/// square number of them, of an even side of 4 or more (16, 36, 64, ... cells).
fn one_liners(block: &[(usize, &str)]) -> bool {
    block.iter().all(|(_, l)| {
        let t = tokens(l);
        let n = t.first().map_or(0, |(_, x)| x.chars().count());
        let side = (n as f64).sqrt().round() as usize;
        t.len() == 1
            && side * side == n
            && side >= 4
            && side.is_multiple_of(2)
            && t[0].1.chars().all(|c| cell_char(c).is_some())
    })
}

/// True when a block of lines is one grid: every line a row, and height and width within a
/// factor of two of each other.
fn is_grid(block: &[(usize, &str)]) -> bool {
    let h = block.len();
    let w = block[0].1.chars().filter(|c| !c.is_whitespace()).count();
    block.iter().all(|(_, l)| grid_row_like(l)) && h <= 2 * w && w <= 2 * h
}

/// A block of lines read as one grid.
fn text_grid(file: &str, block: &[(usize, &str)], rules: &FileRules) -> Result<Placed, InputError> {
    let h = block.len();
    let w = block[0].1.chars().filter(|c| !c.is_whitespace()).count();
    let mut cells = Vec::with_capacity(w * h);
    let mut pos = Vec::with_capacity(w * h);
    for &(ln, line) in block.iter() {
        let mut n = 0;
        for (k, c) in line.chars().enumerate() {
            if c.is_whitespace() {
                continue;
            }
            match cell_char(c) {
                Some(v) => {
                    cells.push(v);
                    pos.push((ln, k + 1));
                    n += 1;
                }
                None => {
                    return Err(InputError::new(
                        file,
                        ln,
                        k + 1,
                        format!("unexpected `{c}`: expected `0`, `1` or `.` for an open cell"),
                    ))
                }
            }
        }
        if n != w {
            let col = line.chars().count().min(line.len()) + 1;
            return Err(InputError::new(
                file,
                ln,
                if n > w {
                    pos[pos.len() - (n - w)].1
                } else {
                    col
                },
                format!(
                    "a ragged row: {} where the first row (line {}) has {w}",
                    count_of(n, "cell"),
                    block[0].0
                ),
            ));
        }
    }
    Ok((
        Raw {
            width: w,
            height: h,
            cells,
            pos,
            rules: rules.clone(),
            reading: None,
        },
        (block[0].0, 1),
    ))
}

/// The one-line puzzle on a line (`None` for binarypuzzle-toolkit's `solution:` line).
fn one_line_row(
    file: &str,
    ln: usize,
    line: &str,
    rules: &FileRules,
) -> Option<Result<Placed, InputError>> {
    let toks = tokens(line);
    if toks.iter().any(|(_, t)| t.starts_with("solution:")) {
        return None; // binarypuzzle-toolkit: the line after the puzzle
    }
    let is_puzzle = |t: &str| {
        let body = t.split_once([';', ':']).map_or(t, |(_, b)| b);
        !body.is_empty()
            && body
                .chars()
                .all(|c| cell_char(c).is_some() || c.is_ascii_lowercase())
    };
    let (col, tok) = toks
        .iter()
        .find(|(_, t)| is_puzzle(t))
        .or(toks.first())
        .copied()
        .expect("non-blank line has a token");
    Some(one_line(file, ln, col, tok, rules))
}

/// One of Shlomi Fish's boards: `|0 1 |` rows, a space for an open cell (boards are separated
/// by blank lines).
fn bars_board(file: &str, block: &[(usize, &str)]) -> Result<Placed, InputError> {
    let mut rows: Vec<(usize, Vec<Option<u8>>)> = Vec::new();
    for &(ln, line) in block {
        let l = line.trim_end();
        let inner = l
            .strip_prefix('|')
            .and_then(|x| x.strip_suffix('|'))
            .ok_or_else(|| {
                InputError::new(file, ln, 1, "expected a board row between bars: |0 1  10|")
            })?;
        let mut r = Vec::new();
        for (k, c) in inner.chars().enumerate() {
            r.push(match c {
                ' ' | '.' | '-' => None,
                '0' => Some(0),
                '1' => Some(1),
                _ => {
                    return Err(InputError::new(
                        file,
                        ln,
                        k + 2,
                        format!("unexpected `{c}`: expected `0`, `1` or a space for an open cell"),
                    ))
                }
            });
        }
        rows.push((ln, r));
    }
    let w = rows[0].1.len();
    let mut cells = Vec::new();
    let mut pos = Vec::new();
    for (ln, r) in rows.iter() {
        if r.len() != w {
            return Err(InputError::new(
                file,
                *ln,
                r.len().min(w) + 2,
                format!(
                    "a ragged row: {} where the first row has {w}",
                    count_of(r.len(), "cell")
                ),
            ));
        }
        for (k, &v) in r.iter().enumerate() {
            cells.push(v);
            pos.push((*ln, k + 2));
        }
    }
    Ok((
        Raw {
            width: w,
            height: rows.len(),
            cells,
            pos,
            rules: FileRules::default(),
            reading: None,
        },
        (rows[0].0, 1),
    ))
}

/// A janko size line `ROWS COLS`, checked against [`MAX_SIDE`] before anything is allocated.
fn janko_header(file: &str, ln: usize, line: &str) -> Result<(usize, usize), InputError> {
    let toks = tokens(line);
    let nums: Vec<Option<usize>> = toks.iter().map(|(_, t)| t.parse().ok()).collect();
    let [Some(h), Some(w)] = nums[..] else {
        return Err(InputError::new(
            file,
            ln,
            1,
            "expected a size line `ROWS COLS`",
        ));
    };
    if h == 0 || w == 0 {
        return Err(InputError::new(
            file,
            ln,
            1,
            "expected a size line `ROWS COLS`",
        ));
    }
    if h > MAX_SIDE || w > MAX_SIDE {
        let col = if h > MAX_SIDE { toks[0].0 } else { toks[1].0 };
        return Err(InputError::new(
            file,
            ln,
            col,
            format!("a {h}x{w} grid is larger than gridsat reads ({MAX_SIDE} a side)"),
        ));
    }
    Ok((h, w))
}

/// One janko puzzle: its header line and the rows it announces.
fn janko_puzzle(file: &str, block: &crate::records::Lines) -> Result<Placed, InputError> {
    let lines: Vec<&str> = block.lines.iter().map(String::as_str).collect();
    let mut got = parse_janko_lines(file, &lines, 0, block.first - 1)?;
    Ok(got.remove(0))
}

/// The janko reader over lines, with `offset` added to reported line numbers.
fn parse_janko_lines(
    file: &str,
    lines: &[&str],
    start: usize,
    offset: usize,
) -> Result<Vec<Placed>, InputError> {
    let mut out = Vec::new();
    let mut i = start;
    let rules = FileRules {
        distinct_lines: Some(false),
        ..FileRules::default()
    };
    while i < lines.len() {
        let line = lines[i];
        if line.trim().is_empty() || is_comment(line) {
            i += 1;
            continue;
        }
        let ln = i + 1 + offset;
        let (h, w) = janko_header(file, ln, line)?;
        let mut cells = Vec::with_capacity(w * h);
        let mut pos = Vec::with_capacity(w * h);
        for r in 0..h {
            let k = i + 1 + r;
            let rl = k + 1 + offset;
            let Some(row) = lines.get(k) else {
                return Err(InputError::new(
                    file,
                    rl,
                    1,
                    format!("the grid ends after {r} of its {}", count_of(h, "row")),
                ));
            };
            let toks = tokens(row);
            let packed = toks.len() == 1 && w > 1;
            let items: Vec<(usize, char)> = if packed {
                toks[0]
                    .1
                    .chars()
                    .enumerate()
                    .map(|(j, c)| (toks[0].0 + j, c))
                    .collect()
            } else {
                let mut v = Vec::new();
                for (col, t) in &toks {
                    let mut cs = t.chars();
                    match (cs.next(), cs.next()) {
                        (Some(c), None) => v.push((*col, c)),
                        _ => {
                            return Err(InputError::new(
                                file,
                                rl,
                                *col,
                                format!(
                                    "unexpected `{t}`: expected `-`, `1` (white) or `2` (black)"
                                ),
                            ))
                        }
                    }
                }
                v
            };
            if items.len() != w {
                return Err(InputError::new(
                    file,
                    rl,
                    items.get(w).map_or(row.len() + 1, |x| x.0),
                    format!(
                        "a ragged row: {} where the header says {w}",
                        count_of(items.len(), "cell")
                    ),
                ));
            }
            for (col, c) in items {
                cells.push(match c {
                    '-' | '.' => None,
                    '0' if packed => None,
                    '1' => Some(0),
                    '2' => Some(1),
                    _ => {
                        return Err(InputError::new(
                            file,
                            rl,
                            col,
                            format!("unexpected `{c}`: expected `-` (open), `1` (white, read as 0) or `2` (black, read as 1)"),
                        ))
                    }
                });
                pos.push((rl, col));
            }
        }
        out.push((
            Raw {
                width: w,
                height: h,
                cells,
                pos,
                rules: rules.clone(),
                reading: None,
            },
            (ln, 1),
        ));
        i += 1 + h;
    }
    Ok(out)
}

fn json_error(file: &str, e: serde_json::Error, line_offset: usize) -> InputError {
    InputError::new(
        file,
        e.line() + line_offset,
        e.column().max(1),
        format!("not valid JSON: {e}"),
    )
}

/// Thilerion's `pregenerated.json`: `[{"boardStr": "WxH;cells", ...}]`; odd lines hold one
/// more 1 than 0 in that collection. `line0` lines come before `text` in the file.
fn parse_thilerion(file: &str, text: &str, line0: usize) -> Vec<Result<Placed, InputError>> {
    let v: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return vec![Err(json_error(file, e, line0))],
    };
    let Value::Array(items) = v else {
        return vec![Err(InputError::new(
            file,
            line0 + 1,
            1,
            "expected a JSON array of puzzles",
        ))];
    };
    let rules = FileRules {
        odd_lines: Some(OddLines::Ones),
        ..FileRules::default()
    };
    let mut at = Cursor::new(text, line0);
    items
        .iter()
        .enumerate()
        .map(|(k, item)| {
            let Some(board) = item.get("boardStr").and_then(Value::as_str) else {
                let (l, c) = at.pos();
                return Err(InputError::new(
                    file,
                    l,
                    c,
                    format!("puzzle {} has no \"boardStr\" string", k + 1),
                ));
            };
            let (ln, col) = at.find(&format!("\"{board}\""));
            one_line(file, ln, col + 1, board, &rules)
        })
        .collect()
}

/// Where strings are in a text, searched forward from the last one found (so finding every
/// puzzle of a document in order is linear in its size).
struct Cursor<'a> {
    text: &'a str,
    offset: usize,
    line: usize,
    line_start: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str, line0: usize) -> Cursor<'a> {
        Cursor {
            text,
            offset: 0,
            line: line0 + 1,
            line_start: 0,
        }
    }

    /// The 1-based line and column of the cursor.
    fn pos(&self) -> (usize, usize) {
        let col = self.text[self.line_start..self.offset].chars().count() + 1;
        (self.line, col)
    }

    /// Moves to the next occurrence of `needle` (or stays) and returns its line and column.
    fn find(&mut self, needle: &str) -> (usize, usize) {
        if let Some(k) = self.text[self.offset..].find(needle) {
            let to = self.offset + k;
            for (i, b) in self.text[self.offset..to].bytes().enumerate() {
                if b == b'\n' {
                    self.line += 1;
                    self.line_start = self.offset + i + 1;
                }
            }
            self.offset = to;
        }
        self.pos()
    }
}

/// Rules of a normalized corpus record: `{"unique_lines", "odd_lines", "regions", "tag"}`.
fn record_rules(r: &Value) -> FileRules {
    let mut out = FileRules {
        distinct_lines: r.get("unique_lines").and_then(Value::as_bool),
        ..FileRules::default()
    };
    if let Some(o) = r.get("odd_lines").and_then(Value::as_str) {
        out.odd_lines = OddLines::from_name(o);
    }
    if let Some(t) = r.get("tag").and_then(Value::as_str) {
        out.regions = Some(t.to_string());
    } else if let Some(Value::Array(rs)) = r.get("regions") {
        let list: Vec<String> = rs
            .iter()
            .map(|g| {
                let n = |k: &str| g.get(k).and_then(Value::as_u64).unwrap_or(0);
                let s = g.get("size").and_then(Value::as_u64);
                let (hh, ww) = match s {
                    Some(s) => (s, s),
                    None => (n("height"), n("width")),
                };
                format!("{},{},{},{}", n("row"), n("col"), hh, ww)
            })
            .collect();
        if !list.is_empty() {
            out.regions = Some(list.join("+"));
        }
    }
    out
}

/// One JSON record `{"w", "h", "givens", "rules"}` at line `ln`.
fn record(
    file: &str,
    v: &Value,
    ln: usize,
    line: &str,
) -> Result<(Raw, (usize, usize)), InputError> {
    let Some(givens) = v.get("givens").and_then(Value::as_str) else {
        return Err(InputError::new(
            file,
            ln,
            1,
            "expected a record with a \"givens\" string (and \"w\", \"h\", \"rules\")",
        ));
    };
    let rules = v.get("rules").map(record_rules).unwrap_or_default();
    // The string after the `"givens"` key (escapes aside, where it stands in the line).
    let at = line
        .find("\"givens\"")
        .and_then(|k| line[k..].find(givens).map(|b| k + b))
        .or_else(|| line.find(givens));
    let col = at.map_or(1, |b| line[..b].chars().count() + 1);
    let w = v.get("w").and_then(Value::as_u64);
    let h = v.get("h").and_then(Value::as_u64);
    let tok = match (w, h) {
        (Some(w), Some(h)) => format!("{w}x{h};{givens}"),
        _ => givens.to_string(),
    };
    let prefix = tok.len() - givens.len();
    let (raw, _) = one_line(file, ln, col.saturating_sub(prefix).max(1), &tok, &rules)?;
    Ok((raw, (ln, 1)))
}

/// A JSON document: the puzzlekit collection, or one pretty-printed record. `line0` lines come
/// before `text` in the file.
fn parse_json_document(file: &str, text: &str, line0: usize) -> Vec<Result<Placed, InputError>> {
    let v: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return vec![Err(json_error(file, e, line0))],
    };
    if let Some(Value::Object(data)) = v.get("data") {
        let mut at = Cursor::new(text, line0);
        return data
            .iter()
            .map(|(name, item)| {
                let (l, c) = at.find(&format!("\"{name}\""));
                let Some(problem) = item.get("problem").and_then(Value::as_str) else {
                    return Err(InputError::new(file, l, c, "expected a \"problem\" string"));
                };
                let lines: Vec<&str> = problem.lines().collect();
                // Positions inside the JSON string: report the record's line, column of the cell.
                let mut got = parse_janko_lines(file, &lines, 0, l)?;
                if got.is_empty() {
                    return Err(InputError::new(file, l, c, "the \"problem\" holds no grid"));
                }
                let (mut raw, _) = got.remove(0);
                for p in raw.pos.iter_mut() {
                    *p = (l, p.1);
                }
                Ok((raw, (l, 1)))
            })
            .collect();
    }
    if v.get("givens").is_some() {
        // A pretty-printed record: report the line of its givens.
        let first = text
            .lines()
            .position(|l| l.contains("\"givens\""))
            .or_else(|| text.lines().position(|l| !l.trim().is_empty()))
            .unwrap_or(0);
        let line = text.lines().nth(first).unwrap_or("");
        return vec![record(file, &v, line0 + first + 1, line)];
    }
    vec![Err(InputError::new(
        file,
        line0 + 1,
        1,
        "expected a Takuzu record {\"w\", \"h\", \"givens\", \"rules\"} or a puzzlekit collection {\"data\": {...}}",
    ))]
}

/// The formats [`write_solutions`] writes.
pub const FORMATS: &[&str] = &["text", "line"];

/// Puzzles written in `format`, each filled with its solution (rows of 0 and 1, as
/// `Puzzle::rows` gives them) when it has one, else as given, after their rule directive when
/// the rules are not the defaults: `text`, grids separated by blank lines; `line`, one puzzle a
/// line (`WxH;cells` for a rectangle, the layout tag before a composite puzzle's cells).
pub fn write_solutions(
    format: &str,
    items: &[(&Takuzu, Option<&Vec<Vec<i64>>>)],
) -> Result<String, String> {
    let mut out = Vec::new();
    for (t, rows) in items {
        let mut q = (*t).clone();
        if let Some(rows) = rows {
            q.cells = rows.iter().flatten().map(|&v| Some(v as u8)).collect();
        }
        out.push(match format {
            "text" => q.to_file(),
            "line" => {
                let d = directive(&q.rules, q.width, q.height);
                let mut s = if d.is_empty() {
                    String::new()
                } else {
                    format!("# takuzu: {d}\n")
                };
                let cells: String = q.to_text().lines().collect();
                match (&q.rules.layout, q.width == q.height) {
                    (Some(tag), _) => s.push_str(&format!("{tag}:{cells}\n")),
                    (None, true) => s.push_str(&format!("{cells}\n")),
                    (None, false) => s.push_str(&format!("{}x{};{cells}\n", q.width, q.height)),
                }
                s
            }
            other => {
                return Err(format!(
                    "unknown --format {other} for takuzu: expected {}",
                    FORMATS.join(", ")
                ))
            }
        });
    }
    Ok(out.join(if format == "text" { "\n" } else { "" }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Vec<Takuzu>, InputError> {
        parse("t.takuzu", text, &ReadOptions::default())
    }

    /// What a multi-puzzle read hands back: `Ok` as its size, errors as `E<line>`.
    fn outline(text: &str) -> Vec<String> {
        crate::records::outline(Reader::new("t", &ReadOptions::default()), text, |p| {
            (p.width, p.height)
        })
    }

    #[test]
    fn janko_reads_on_after_a_bad_puzzle() {
        let good = "4 4\n1 - - -\n- - 2 -\n- - - -\n- 1 - -\n";
        // A bad header, with and without blank lines between the puzzles.
        let t = format!("{good}\n4 x\n1 - - -\n- - 2 -\n\n{good}\n{good}");
        assert_eq!(outline(&t), ["4x4", "E7", "4x4", "4x4"]);
        let t = format!("{good}4 x\n1 - - -\n- - 2 -\n{good}{good}");
        assert_eq!(outline(&t), ["4x4", "E6", "4x4", "4x4"]);
        // A row too many: the puzzle as announced, and the row an error; the next one reads.
        let t = format!("{good}\n4 4\n- - - -\n- - - -\n- - - -\n- - - -\n- - - -\n\n{good}");
        assert_eq!(outline(&t), ["4x4", "4x4", "E12", "4x4"]);
        let t = format!("{good}4 4\n- - - -\n- - - -\n- - - -\n- - - -\n- - - -\n{good}");
        assert_eq!(outline(&t), ["4x4", "4x4", "E11", "4x4"]);
        // A bad first puzzle does not make the file another form.
        let t = format!("4 x\n1 - - -\n\n{good}\n{good}");
        assert_eq!(outline(&t), ["E1", "4x4", "4x4"]);
        // A bad header before JSON Lines records: they read as records (found by the splice
        // fuzzer).
        let rec = r#"{"w": 4, "h": 4, "givens": "1.........0....."}"#;
        let t = format!("65 65\n9{rec}\n\n{rec}\n{rec}\n");
        assert_eq!(outline(&t), ["E3", "4x4", "4x4"]);
        // A first record cut off (the file looks like a JSON document): the records after it.
        let t = format!("{{\"w\": 4, \"h\":\n{rec}\n\n{rec}\n");
        assert_eq!(outline(&t), ["E1", "4x4", "4x4"]);
        // A row short: at a blank line, or at the next header.
        let t = format!("{good}\n4 4\n- - - -\n- - - -\n\n{good}");
        assert_eq!(outline(&t), ["4x4", "E10", "4x4"]);
        let t = format!("{good}4 4\n- - - -\n{good}{good}");
        assert_eq!(outline(&t), ["4x4", "E6", "4x4", "4x4"]);
        // A header past the limit, and garbage between puzzles.
        let t = format!("{good}\n5000 4\n- - - -\n\n{good}\nnot a puzzle\n{good}");
        assert_eq!(outline(&t), ["4x4", "E7", "4x4", "E16", "4x4"]);
    }

    #[test]
    fn text_grids_with_blank_lines_between() {
        let ps = read("# two puzzles\n1.0.\n..1.\n\n.1..\n0 . . 1\n0...\n....\n").unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!((ps[0].width, ps[0].height), (4, 2));
        assert_eq!(ps[0].cells[0], Some(1));
        assert_eq!(ps[0].cells[2], Some(0));
        assert_eq!(ps[1].cells[4], Some(0));
        assert_eq!(ps[1].cells[7], Some(1));
        assert!(ps[0].rules.distinct_lines);
    }

    #[test]
    fn one_line_forms() {
        // Borroot sets1: `<puzzle> <solution>`, `-` open.
        let ps =
            read("\n-1----0--1--1----0------1-0------0-- 011010100101100110011001010110101001\n")
                .unwrap();
        assert_eq!(ps.len(), 1);
        assert_eq!(ps[0].width, 6);
        assert_eq!(ps[0].cells[1], Some(1));
        // puzzle-binairo.com task code: letters are runs of open cells.
        let ps = read("1e0zc 0101\n").unwrap();
        assert_eq!(ps[0].width, 6);
        assert_eq!(ps[0].cells[0], Some(1));
        assert_eq!(ps[0].cells[1], None);
        assert_eq!(ps[0].cells[6], Some(0));
        // Thilerion's `WxH;` and a composite tag.
        let ps = read("4x2;1.0.....\n").unwrap();
        assert_eq!((ps[0].width, ps[0].height), (4, 2));
        let mut line = String::from("8in14:");
        line.push_str(&".".repeat(144));
        line.push_str("\nsolution:0101\n");
        let e = read(&line).unwrap_err();
        assert!(
            e.message.contains("square grid of side 14"),
            "{}",
            e.message
        );
        let mut line = String::from("8in14:");
        line.push_str(&".".repeat(196));
        let ps = read(&line).unwrap();
        assert_eq!(ps[0].rules.regions.len(), 2);
        assert_eq!(ps[0].rules.layout.as_deref(), Some("8in14"));
    }

    #[test]
    fn other_collections() {
        let ps = read("|1  0|\n| 1  |\n|    |\n|0  1|\n").unwrap();
        assert_eq!(ps[0].cells[0], Some(1));
        assert_eq!(ps[0].cells[3], Some(0));
        let ps = read("4 4\n1 - - 2\n- - - -\n- 2 - -\n- - - -\n").unwrap();
        assert_eq!(ps[0].cells[0], Some(0));
        assert_eq!(ps[0].cells[3], Some(1));
        assert!(
            !ps[0].rules.distinct_lines,
            "janko has no distinct-lines rule"
        );
        let ps = read("4 4\n1002\n0000\n0200\n0000\n").unwrap();
        assert_eq!(ps[0].cells[3], Some(1));
        assert_eq!(ps[0].cells[1], None);
        let ps = read(r#"[{"boardStr": "3x3;1........", "width": 3}]"#).unwrap();
        assert_eq!(ps[0].rules.odd_lines, OddLines::Ones);
        let ps = read(
            "{\"w\": 4, \"h\": 2, \"rules\": {\"unique_lines\": false}, \"givens\": \"1.......\"}\n",
        )
        .unwrap();
        assert!(!ps[0].rules.distinct_lines);
        let ps = read(r#"{"data": {"a": {"problem": "2 4\n1 - - -\n- - - 2"}}}"#).unwrap();
        assert_eq!(ps[0].cells[7], Some(1));
    }

    #[test]
    fn directives_and_options() {
        let text = "# takuzu: odd-lines=ones no-distinct-lines\n1..\n...\n...\n";
        let ps = read(text).unwrap();
        assert_eq!(ps[0].rules.odd_lines, OddLines::Ones);
        assert!(!ps[0].rules.distinct_lines);
        let opts = ReadOptions {
            distinct_lines: Some(true),
            odd_lines: Some(OddLines::Zeros),
            ..ReadOptions::default()
        };
        let ps = parse("f", text, &opts).unwrap();
        assert_eq!(ps[0].rules.odd_lines, OddLines::Zeros);
        assert!(ps[0].rules.distinct_lines);
        // The file form reads back the same.
        let back = read(&ps[0].to_file()).unwrap();
        assert_eq!(back[0], ps[0]);
        let e = read("# takuzu: odd-lines=two\n1..\n").unwrap_err();
        assert_eq!((e.line, e.col), (1, 11));
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = read("10..\n1x..\n....\n....\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 2));
        assert!(e.message.contains("unexpected `x`"));
        let e = read("10..\n1..\n....\n....\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("ragged"), "{}", e.message);
        let e = read("11.1\n....\n....\n....\n").unwrap_err();
        assert_eq!((e.line, e.col), (1, 4));
        assert!(
            e.message.contains("givens already break a rule"),
            "{}",
            e.message
        );
        let e = read("1...\n1...\n1...\n....\n").unwrap_err();
        assert_eq!((e.line, e.col), (1, 1));
        assert!(e.message.contains("three 1s"));
        let e = read("0101\n0101\n....\n....\n").unwrap_err();
        assert!(
            e.message.contains("rows 1 and 2 are equal"),
            "{}",
            e.message
        );
        assert_eq!(e.line, 2);
        let e = read(&".".repeat(35)).unwrap_err();
        assert!(e.message.contains("square number"));
        let e = read("").unwrap_err();
        assert!(e.message.contains("no puzzle"));
        let e = read("{\"givens\": 3}\n").unwrap_err();
        assert_eq!(e.line, 1);
        let e = read("[{\"boardStr\": 1}").unwrap_err();
        assert!(e.message.contains("JSON"));
        // Sizes past the limit are refused before anything is multiplied or allocated.
        let e = read("{\"w\": 18446744073709551615, \"h\": 2, \"givens\": \"..\"}\n").unwrap_err();
        assert!(
            e.message.contains("larger than gridsat reads"),
            "{}",
            e.message
        );
        let e = read("4294967296 6\n").unwrap_err();
        assert_eq!((e.line, e.col), (1, 1));
        assert!(
            e.message.contains("larger than gridsat reads"),
            "{}",
            e.message
        );
    }

    #[test]
    fn layouts() {
        let r = layout_regions("4x6x6", 12, 12).unwrap();
        assert_eq!(r.len(), 5);
        assert_eq!(r[1].col, 6);
        let r = layout_regions("6in10in14", 14, 14).unwrap();
        assert_eq!(r[0].row, 4);
        assert_eq!(r[1].row, 2);
        assert_eq!(r[2].height, 14);
        assert!(layout_regions("9x6x6", 12, 12).is_err());
        assert!(layout_regions("spiral", 12, 12).is_err());
        let r = layout_regions("0,0,2,2+1,1,2,3", 4, 4).unwrap();
        assert_eq!(r[1].width, 3);
    }

    #[test]
    fn detection_by_content() {
        assert!(looks_like("1.0.\n..0.\n"));
        assert!(looks_like("|1  0|\n"));
        assert!(looks_like("a1a0b1c0a0d0a1b1e0a1a1b0a1e 0101\n"));
        assert!(looks_like("[{\"boardStr\": \"6x6;...\"}]"));
        assert!(!looks_like(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n"
        ));
        assert!(!looks_like("4 4\n1 . 2 .\n"));
        assert!(looks_like("4 4\n1 - 2 -\n"));
        assert!(looks_like(". 1 0 .\n1 . . 0\n"));
        assert!(!looks_like("1 . . .\n. . 3 .\n"), "a 4x4 Sudoku");
        assert!(looks_like("8in14:0....1\nsolution:0101\n"));
    }
}
