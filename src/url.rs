//! puzz.link / pzprjs URLs, the form puzzle people share puzzles in
//! (`https://puzz.link/p?sudoku/9/9/g1k23...`): splitting a URL into its genre, flags, size
//! and body, and pzprjs's own encodings of the body, written from pzprjs's encoders
//! (`src/variety-common/Encode.js`): numbers a cell (`Number16`), region borders (`Border`)
//! and one bit a cell (`Binary`). The kinds whose genres URLs carry read and write their
//! bodies with these; [`crate::kinds`] chooses the kind from the genre. Reading is strict where
//! pzprjs is lenient: a character pzprjs would skip is an error here, with its column.

use crate::error::InputError;

/// Where URLs are written to: puzz.link, the maintained pzprjs site.
pub const SITE: &str = "https://puzz.link/p?";

/// A pzprjs URL split into its parts, with the position of its body for error messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Url<'a> {
    /// The genre as written (`sudoku`, `numlin`), without an `_edit`/`_play` suffix.
    pub genre: &'a str,
    /// The flags field (`e` for an arukone whose cells may stay empty), empty when absent.
    pub flags: &'a str,
    pub cols: usize,
    pub rows: usize,
    /// Where the URL is: file, 1-based line, and the column of the body's first character.
    pub at: At<'a>,
    pub body: &'a str,
}

/// A place in a file: an error at `col + k` names the body's character `k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At<'a> {
    pub file: &'a str,
    pub line: usize,
    pub col: usize,
}

impl At<'_> {
    /// An error at the body's character `k` (0-based).
    pub fn error(&self, k: usize, message: impl Into<String>) -> InputError {
        InputError::new(self.file, self.line, self.col + k, message)
    }
}

/// True when a line (trimmed) is a pzprjs URL: a web address with a query (`http://`,
/// `https://`, or a bare `puzz.link/p?`, `pzv.jp/p.html?`), or just the query (`?sudoku/4/4/...`).
pub fn is_url(line: &str) -> bool {
    let t = line.trim();
    if t.is_empty() || t.contains(char::is_whitespace) {
        return false;
    }
    let lower = t.to_ascii_lowercase();
    lower.starts_with("http://")
        || lower.starts_with("https://")
        || lower.starts_with('?')
        || ["puzz.link/", "pzv.jp/", "pzprxs.vercel.app/"]
            .iter()
            .any(|h| lower.starts_with(h))
}

/// Splits the URL on line `line` of `file` (`line_text` is the whole line, the URL in it
/// trimmed) into its parts: `?[type=...&]genre[_edit|_play]/[flags/]cols/rows/body`.
pub fn split<'a>(file: &'a str, line: usize, line_text: &'a str) -> Result<Url<'a>, InputError> {
    let lead = line_text.len() - line_text.trim_start().len();
    let t = line_text.trim();
    // Columns count characters; a URL is ASCII, except in what it should not hold.
    let col_of = |byte: usize| line_text[..lead + byte].chars().count() + 1;
    let err = |byte: usize, m: String| InputError::new(file, line, col_of(byte), m);
    let Some(q) = t.find('?') else {
        return Err(err(
            0,
            "a puzz.link URL has its puzzle after a `?`, like https://puzz.link/p?sudoku/4/4/g1k23k3g".into(),
        ));
    };
    let mut start = q + 1;
    // Query parameters before the puzzle (`type=player&`), as pzprjs skips them.
    while let Some(amp) = t[start..].find('&') {
        let param = &t[start..start + amp];
        if param.contains('/') || !param.contains('=') {
            break;
        }
        start += amp + 1;
    }
    let parts: Vec<(usize, &str)> = {
        let mut v = Vec::new();
        let mut s = start;
        for (k, c) in t[start..].char_indices() {
            if c == '/' {
                v.push((s, &t[s..start + k]));
                s = start + k + 1;
            }
        }
        v.push((s, &t[s..]));
        v
    };
    let (genre_at, genre) = parts[0];
    let genre = genre
        .strip_suffix("_edit")
        .or_else(|| genre.strip_suffix("_play"))
        .unwrap_or(genre);
    if genre.starts_with("pzprv3") {
        return Err(err(
            genre_at,
            "this URL carries a whole pzprjs file (`pzprv3`); give the puzzle's plain URL (the editor's File > Export URL)".into(),
        ));
    }
    if genre.is_empty() || !genre.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(err(
            genre_at,
            format!(
                "expected the genre after `?`, like `sudoku`, found `{}`",
                parts[0].1
            ),
        ));
    }
    let mut rest = &parts[1..];
    if let Some(&(at, v)) = rest.first() {
        if v.starts_with("v:") {
            return Err(err(
                at,
                format!("`{v}`: URLs of pzprjs variants are not read (their rules differ)"),
            ));
        }
    }
    // A field that is not a number before the size is the flags field (a typo in the width
    // is not: after flags come the width and the height, two numbers).
    let mut flags = "";
    let number = |k: usize| {
        rest.get(k)
            .is_some_and(|&(_, f)| f.parse::<usize>().is_ok())
    };
    if let Some(&(_, f)) = rest.first() {
        if !f.is_empty() && !number(0) && number(1) && number(2) {
            flags = f;
            rest = &rest[1..];
        }
    }
    let size = |k: usize, what: &str| -> Result<usize, InputError> {
        let Some(&(at, s)) = rest.get(k) else {
            return Err(err(
                t.len(),
                format!("the URL ends before the puzzle's {what}"),
            ));
        };
        match s.parse::<usize>() {
            Ok(n) if n > 0 && n <= 2000 => Ok(n),
            _ => Err(err(
                at,
                format!("expected the {what} (a number of cells, 1 to 2000), found `{s}`"),
            )),
        }
    };
    let cols = size(0, "width")?;
    let rows = size(1, "height")?;
    let (body_at, body) = match rest.get(2) {
        Some(&(at, _)) => (at, t[at..].trim_end_matches('/')),
        None => (t.len(), ""),
    };
    Ok(Url {
        genre,
        flags,
        cols,
        rows,
        at: At {
            file,
            line,
            col: col_of(body_at),
        },
        body,
    })
}

/// A URL for `genre` (with `flags` when not empty), `cols` x `rows`, and its body.
pub fn write(genre: &str, flags: &str, cols: usize, rows: usize, body: &str) -> String {
    let flags = if flags.is_empty() {
        String::new()
    } else {
        format!("{flags}/")
    };
    format!("{SITE}{genre}/{flags}{cols}/{rows}/{body}")
}

/// A cell read from `Number16`: a number, or `?` (pzprjs's `.`: a cell whose number is not
/// given), with the body position it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Number {
    Value(u32),
    Unknown,
}

/// Reads the body from the start: each part takes what it encodes and leaves the rest.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    at: At<'a>,
    body: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(url: &Url<'a>) -> Reader<'a> {
        Reader {
            at: url.at,
            body: url.body.as_bytes(),
            pos: 0,
        }
    }

    /// The body position `k`'s error.
    pub fn error(&self, k: usize, message: impl Into<String>) -> InputError {
        let chars = String::from_utf8_lossy(&self.body[..k.min(self.body.len())])
            .chars()
            .count();
        self.at.error(chars, message)
    }

    /// True when the whole body has been read.
    pub fn done(&self) -> bool {
        self.pos >= self.body.len()
    }

    /// An error unless the whole body has been read.
    pub fn finish(&self, what: &str) -> Result<(), InputError> {
        if self.done() {
            Ok(())
        } else {
            Err(self.error(
                self.pos,
                format!(
                    "unexpected `{}` after the {what}: the URL holds more than its size needs",
                    self.char_at(self.pos)
                ),
            ))
        }
    }

    /// The character that starts at body position `k` (the body may hold what a URL should not).
    fn char_at(&self, k: usize) -> char {
        String::from_utf8_lossy(&self.body[k..])
            .chars()
            .next()
            .unwrap_or('?')
    }

    fn hex(&self, at: usize, len: usize) -> Result<u32, InputError> {
        let s = self
            .body
            .get(at..at + len)
            .ok_or_else(|| self.error(self.body.len(), "the URL ends inside a number"))?;
        let s = std::str::from_utf8(s).unwrap_or("");
        u32::from_str_radix(s, 16).map_err(|_| {
            self.error(
                at,
                format!("expected {len} hex digits after the number's prefix, found `{s}`"),
            )
        })
    }

    /// `cells` cells in pzprjs's `Number16` encoding: a hex digit is 0-15, `-` and two hex
    /// digits up to 255, `+` three (up to 4095), `=`, `%`/`@`, `*` and `$` the larger ranges,
    /// `.` a cell with an unknown number, and `g`-`z` skip 1-20 empty cells. Each cell with its
    /// body position (empty cells `None`).
    pub fn number16(&mut self, cells: usize) -> Result<Vec<Option<(Number, usize)>>, InputError> {
        let mut out = vec![None; cells];
        let mut c = 0;
        while c < cells && self.pos < self.body.len() {
            let at = self.pos;
            let ch = self.body[at];
            let (value, len) = match ch {
                b'0'..=b'9' | b'a'..=b'f' => ((ch as char).to_digit(16).map(Number::Value), 1),
                b'-' => (Some(Number::Value(self.hex(at + 1, 2)?)), 3),
                b'+' => (Some(Number::Value(self.hex(at + 1, 3)?)), 4),
                b'=' => (Some(Number::Value(self.hex(at + 1, 3)? + 4096)), 4),
                b'%' | b'@' => (Some(Number::Value(self.hex(at + 1, 3)? + 8192)), 4),
                b'*' => (Some(Number::Value(self.hex(at + 1, 4)? + 12240)), 5),
                b'$' => (Some(Number::Value(self.hex(at + 1, 5)? + 77776)), 6),
                b'.' => (Some(Number::Unknown), 1),
                b'g'..=b'z' => (None, 1),
                _ => {
                    return Err(self.error(
                        at,
                        format!(
                            "unexpected `{}` in the numbers: expected a hex digit, `-`, `+`, `.` or `g`-`z` for empty cells",
                            self.char_at(at)
                        ),
                    ))
                }
            };
            match value {
                Some(v) => {
                    out[c] = Some((v, at));
                    c += 1;
                }
                None => c += (ch - b'g') as usize + 1,
            }
            self.pos += len;
        }
        if c < cells {
            return Err(self.error(
                self.pos,
                format!("the URL ends after {c} of the {cells} cells"),
            ));
        }
        if c > cells {
            return Err(self.error(
                self.pos - 1,
                format!("this run of empty cells goes past the board's {cells} cells"),
            ));
        }
        Ok(out)
    }

    /// `count` bits, five to a base-32 character (`0`-`9`, `a`-`v`), highest bit first.
    fn bits(&mut self, count: usize, what: &str) -> Result<Vec<bool>, InputError> {
        let chars = count.div_ceil(5);
        let mut out = Vec::with_capacity(chars * 5);
        for k in 0..chars {
            let at = self.pos + k;
            let Some(&ch) = self.body.get(at) else {
                return Err(self.error(at, format!("the URL ends inside the {what}")));
            };
            let v = (ch as char)
                .to_digit(32)
                .filter(|_| !ch.is_ascii_uppercase())
                .ok_or_else(|| {
                    self.error(
                        at,
                        format!(
                            "unexpected `{}` in the {what}: expected 0-9 or a-v",
                            self.char_at(at)
                        ),
                    )
                })?;
            for w in (0..5).rev() {
                out.push(v >> w & 1 == 1);
            }
        }
        self.pos += chars;
        out.truncate(count);
        Ok(out)
    }

    /// Region borders of a `cols` x `rows` board: first the `(cols-1)*rows` borders between
    /// horizontal neighbours (row by row: between `(r, c)` and `(r, c+1)`), then the
    /// `cols*(rows-1)` between vertical neighbours (between `(r, c)` and `(r+1, c)`).
    pub fn border(&mut self, cols: usize, rows: usize) -> Result<Borders, InputError> {
        let right = self.bits((cols - 1) * rows, "region borders")?;
        let down = self.bits(cols * (rows - 1), "region borders")?;
        Ok(Borders {
            cols,
            rows,
            right,
            down,
        })
    }

    /// One bit a cell (pzprjs's `Binary`), or nothing when the body has ended (pzprjs leaves it
    /// out when no bit is set).
    pub fn binary(&mut self, cells: usize, what: &str) -> Result<Vec<bool>, InputError> {
        if self.done() {
            return Ok(vec![false; cells]);
        }
        self.bits(cells, what)
    }

    /// The body position the reader is at.
    pub fn pos(&self) -> usize {
        self.pos
    }
}

/// Region borders of a board (see [`Reader::border`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Borders {
    pub cols: usize,
    pub rows: usize,
    /// `right[r * (cols - 1) + c]`: a border between `(r, c)` and `(r, c + 1)`.
    pub right: Vec<bool>,
    /// `down[r * cols + c]`: a border between `(r, c)` and `(r + 1, c)`.
    pub down: Vec<bool>,
}

impl Borders {
    /// The borders between cells of different regions (`region` row-major).
    pub fn of_regions(cols: usize, rows: usize, region: &[usize]) -> Borders {
        let mut right = Vec::with_capacity((cols - 1) * rows);
        for r in 0..rows {
            for c in 0..cols - 1 {
                right.push(region[r * cols + c] != region[r * cols + c + 1]);
            }
        }
        let mut down = Vec::with_capacity(cols * (rows - 1));
        for r in 0..rows - 1 {
            for c in 0..cols {
                down.push(region[r * cols + c] != region[(r + 1) * cols + c]);
            }
        }
        Borders {
            cols,
            rows,
            right,
            down,
        }
    }

    /// The regions the borders cut the board into: each cell's region, numbered 0.. in order
    /// of first appearance row by row.
    pub fn regions(&self) -> Vec<usize> {
        let (w, h) = (self.cols, self.rows);
        let mut region = vec![usize::MAX; w * h];
        let mut next = 0;
        for start in 0..w * h {
            if region[start] != usize::MAX {
                continue;
            }
            region[start] = next;
            let mut stack = vec![start];
            while let Some(i) = stack.pop() {
                let (r, c) = (i / w, i % w);
                let mut open = Vec::with_capacity(4);
                if c + 1 < w && !self.right[r * (w - 1) + c] {
                    open.push(i + 1);
                }
                if c > 0 && !self.right[r * (w - 1) + c - 1] {
                    open.push(i - 1);
                }
                if r + 1 < h && !self.down[r * w + c] {
                    open.push(i + w);
                }
                if r > 0 && !self.down[(r - 1) * w + c] {
                    open.push(i - w);
                }
                for j in open {
                    if region[j] == usize::MAX {
                        region[j] = next;
                        stack.push(j);
                    }
                }
            }
            next += 1;
        }
        region
    }
}

/// Bits five to a base-32 character, highest first (the last character padded with zeros).
fn write_bits(bits: &[bool]) -> String {
    bits.chunks(5)
        .map(|chunk| {
            let v = chunk
                .iter()
                .enumerate()
                .fold(0u32, |v, (k, &b)| v | (u32::from(b) << (4 - k)));
            std::char::from_digit(v, 32).expect("five bits")
        })
        .collect()
}

/// The `Border` encoding of `b` (see [`Reader::border`]).
pub fn write_border(b: &Borders) -> String {
    format!("{}{}", write_bits(&b.right), write_bits(&b.down))
}

/// One number in `Number16`.
fn write_number(n: u32) -> String {
    match n {
        0..=15 => format!("{n:x}"),
        16..=255 => format!("-{n:x}"),
        256..=4095 => format!("+{n:x}"),
        4096..=8191 => format!("={:03x}", n - 4096),
        8192..=12239 => format!("@{:03x}", n - 8192),
        12240..=77775 => format!("*{:04x}", n - 12240),
        _ => format!("${:05x}", n - 77776),
    }
}

/// Cells in `Number16` (`None` empty), empty runs of up to 20 as `g`-`z`, as pzprjs writes them.
pub fn write_number16(cells: &[Option<u32>]) -> String {
    let mut out = String::new();
    let mut empty = 0;
    for cell in cells {
        match cell {
            None => {
                empty += 1;
                if empty == 20 {
                    out.push('z');
                    empty = 0;
                }
            }
            Some(n) => {
                if empty > 0 {
                    out.push(std::char::from_digit(15 + empty, 36).expect("a run"));
                    empty = 0;
                }
                out.push_str(&write_number(*n));
            }
        }
    }
    if empty > 0 {
        out.push(std::char::from_digit(15 + empty, 36).expect("a run"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url<'_> {
        split("t", 1, s).unwrap()
    }

    #[test]
    fn splits_every_form_of_address() {
        for s in [
            "https://puzz.link/p?sudoku/4/4/g1k23k3g",
            "http://pzv.jp/p.html?sudoku/4/4/g1k23k3g",
            "puzz.link/p?sudoku_edit/4/4/g1k23k3g/",
            "?type=player&sudoku/4/4/g1k23k3g",
        ] {
            let u = url(s);
            assert_eq!(
                (u.genre, u.flags, u.cols, u.rows, u.body),
                ("sudoku", "", 4, 4, "g1k23k3g"),
                "{s}"
            );
            assert!(is_url(s), "{s}");
        }
        let u = url("https://puzz.link/p?arukone/e/5/4/1g2");
        assert_eq!((u.genre, u.flags, u.cols, u.rows), ("arukone", "e", 5, 4));
        assert_eq!(u.at.col, "https://puzz.link/p?arukone/e/5/4/".len() + 1);
        assert!(!is_url("1...4..."));
        assert!(!is_url("https://puzz.link/p?sudoku/4/4/g1 k"));
    }

    #[test]
    fn split_errors_name_the_column() {
        let e = split("f", 3, "  https://puzz.link/p?sudoku/x/4/g").unwrap_err();
        assert_eq!((e.line, e.col), (3, 30), "{e}");
        assert!(e.message.contains("the width"), "{e}");
        let e = split("f", 1, "https://puzz.link/p?sudoku/4").unwrap_err();
        assert!(e.message.contains("ends before the puzzle's height"), "{e}");
        let e = split("f", 1, "https://puzz.link/p?v:x/sudoku/4/4/g").unwrap_err();
        assert!(e.message.contains("genre"), "{e}");
        let e = split("f", 1, "https://puzz.link/p?pzprv3/sudoku/4").unwrap_err();
        assert!(e.message.contains("pzprv3"), "{e}");
    }

    #[test]
    fn number16_reads_and_writes_as_pzprjs_does() {
        // pzprjs's own test URL for sudoku (test/script/sudoku.js) and larger numbers.
        let u = url("?sudoku/4/4/g1k23k3g");
        let cells = Reader::new(&u).number16(16).unwrap();
        let values: Vec<Option<u32>> = cells
            .iter()
            .map(|c| {
                c.map(|(n, _)| match n {
                    Number::Value(v) => v,
                    Number::Unknown => 0,
                })
            })
            .collect();
        assert_eq!(
            values,
            [
                None,
                Some(1),
                None,
                None,
                None,
                None,
                None,
                Some(2),
                Some(3),
                None,
                None,
                None,
                None,
                None,
                Some(3),
                None
            ]
        );
        assert_eq!(write_number16(&values), "g1k23k3g");
        let big = [
            Some(16),
            Some(255),
            Some(256),
            Some(4096),
            Some(9000),
            Some(20000),
            Some(100000),
        ];
        let text = write_number16(&big);
        assert_eq!(text, "-10-ff+100=000@328*1e50$056d0");
        let u = Url {
            body: &text,
            ..u.clone()
        };
        let back: Vec<Option<u32>> = Reader::new(&u)
            .number16(7)
            .unwrap()
            .iter()
            .map(|c| {
                c.and_then(|(n, _)| match n {
                    Number::Value(v) => Some(v),
                    Number::Unknown => None,
                })
            })
            .collect();
        assert_eq!(back, big);
        // 25 empty cells: a full run of 20 (`z`), then 5 (`k`).
        assert_eq!(write_number16(&[None; 25]), "zk");
    }

    #[test]
    fn number16_errors_point_at_the_character() {
        let u = url("https://puzz.link/p?sudoku/4/4/g1k2!k3g");
        let e = Reader::new(&u).number16(16).unwrap_err();
        assert_eq!(e.col, u.at.col + 4, "{e}");
        let u = url("?sudoku/4/4/g1k2");
        assert!(Reader::new(&u)
            .number16(16)
            .unwrap_err()
            .message
            .contains("ends after 8 of the 16 cells"));
        let u = url("?sudoku/4/4/zz");
        assert!(Reader::new(&u)
            .number16(16)
            .unwrap_err()
            .message
            .contains("goes past"));
    }

    #[test]
    fn borders_read_write_and_make_regions() {
        // pzprjs's own suguru test URL (test/script/suguru.js): borders, then numbers.
        let u = url("?suguru/5/5/cih47bs73m3g5p1g2g");
        let mut r = Reader::new(&u);
        let b = r.border(5, 5).unwrap();
        assert_eq!(write_border(&b), "cih47bs7");
        let regions = b.regions();
        assert_eq!(Borders::of_regions(5, 5, &regions), b);
        // What pzprjs's room manager makes of it (numbered as pzprjs lists its rooms).
        let pzprjs = [
            0, 0, 1, 2, 2, 0, 0, 3, 3, 3, 0, 3, 3, 4, 4, 5, 5, 5, 4, 4, 5, 5, 6, 6, 6,
        ];
        assert_eq!(regions, pzprjs);
        assert_eq!(r.pos(), 8);
        let nums = r.number16(25).unwrap();
        assert!(r.done());
        let given: Vec<(usize, Number)> = nums
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|(n, _)| (i, n)))
            .collect();
        use Number::Value as V;
        assert_eq!(
            given,
            [(0, V(3)), (8, V(3)), (10, V(5)), (21, V(1)), (23, V(2))]
        );
    }
}
