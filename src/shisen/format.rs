//! Reading and writing Shisen-sho boards: a text grid, one row per line.
//!
//! - Spaced rows: each tile a token (`A`, `7`, `5p`, `S1`, `🀄`) separated by spaces, `.` for
//!   an empty cell. When no row of a board has a space, each character is a cell (`AB.C`).
//! - The Unicode mahjong tiles (U+1F000 to U+1F02B) are tiles like any other token, with or
//!   without the emoji variation selector after them.
//! - Lines starting with `#` are comments; a comment `# shisen: gravity chinese no-outline`
//!   (any of the three words) sets rules for the boards after it. Blank lines separate boards.
//!
//! Every match class must have an even number of tiles. Errors name the file, line and column.
//! [`Reader`] splits a file into boards (with their lines and rules) one line at a time, so a
//! file of many boards is read in memory bounded by its largest board.

use super::{Order, Rules, Shisen};
use crate::error::InputError;
use crate::records::{Item, PuzzleReader};

/// The largest side accepted.
pub const MAX_SIDE: usize = 200;

/// The longest token read as one tile's name.
pub const MAX_TOKEN: usize = 16;

/// Rule options given on the command line; each adds to a file's own rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions {
    pub no_outline: bool,
    pub gravity: bool,
    pub chinese: bool,
    pub order: Order,
}

/// One board of a file: its lines (1-based line number and text) and the rules its file's
/// directives set for it.
#[derive(Clone, Debug)]
pub struct Record<'a> {
    pub lines: Vec<(usize, &'a str)>,
    pub rules: Rules,
}

/// A `# shisen: ...` directive's rules, applied to `rules`; `Err` names an unknown word and
/// its column.
fn directive(line: &str, rules: &mut Rules) -> Option<Result<(), (usize, String)>> {
    let body = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = body.strip_prefix("shisen:")?;
    let offset = line.chars().count() - rest.chars().count();
    for (col, word) in crate::text::tokens(rest) {
        match word.to_ascii_lowercase().as_str() {
            "gravity" => rules.gravity = true,
            "chinese" => rules.chinese = true,
            "no-outline" => rules.outline = false,
            "outline" => rules.outline = true,
            other => {
                return Some(Err((
                    offset + col,
                    format!(
                        "unknown rule `{other}` in the shisen directive (expected gravity, chinese, no-outline)"
                    ),
                )))
            }
        }
    }
    Some(Ok(()))
}

/// The streaming reader (see [`crate::records`]): boards are blocks of lines separated by
/// blank lines, comments left out, each with the rules of the directives above it. A block
/// taller than [`MAX_SIDE`] is refused at its first line past the limit, and its other lines
/// are skipped without being kept.
pub struct Reader {
    file: String,
    opts: ReadOptions,
    rules: Rules,
    block: Vec<(usize, String)>,
    /// The block being read is too tall: skip to the next blank line.
    skipping: bool,
    handed: usize,
}

impl Reader {
    pub fn new(file: &str, opts: &ReadOptions) -> Reader {
        Reader {
            file: file.to_string(),
            opts: *opts,
            rules: Rules::default(),
            block: Vec::new(),
            skipping: false,
            handed: 0,
        }
    }

    fn flush(&mut self, out: &mut Vec<Item<Shisen>>) {
        let block = std::mem::take(&mut self.block);
        if block.is_empty() {
            return;
        }
        let rec = Record {
            lines: block.iter().map(|(n, l)| (*n, l.as_str())).collect(),
            rules: self.rules,
        };
        self.handed += 1;
        out.push(parse_record(&self.file, &rec, &self.opts));
    }
}

impl PuzzleReader for Reader {
    type Puzzle = Shisen;

    fn line(&mut self, ln: usize, line: &str, out: &mut Vec<Item<Shisen>>) {
        if crate::text::is_comment(line) {
            if let Some(Err((col, m))) = directive(line, &mut self.rules) {
                self.handed += 1;
                out.push(Err(InputError::new(&self.file, ln, col, m)));
            }
            return;
        }
        if line.trim().is_empty() {
            self.skipping = false;
            self.flush(out);
            return;
        }
        if self.skipping {
            return;
        }
        if self.block.len() == MAX_SIDE {
            self.block.clear();
            self.skipping = true;
            self.handed += 1;
            out.push(Err(InputError::new(
                &self.file,
                ln,
                1,
                format!("a board of at most {MAX_SIDE}x{MAX_SIDE} cells is read; this one has more rows"),
            )));
            return;
        }
        self.block.push((ln, line.to_string()));
    }

    fn end(&mut self, out: &mut Vec<Item<Shisen>>) {
        self.flush(out);
        if self.handed == 0 {
            out.push(Err(InputError::new(
                &self.file,
                1,
                1,
                "no board found (the file is empty or all comments)",
            )));
        }
    }
}

/// True for a Unicode mahjong tile (U+1F000 to U+1F02B).
pub fn is_mahjong(c: char) -> bool {
    (0x1F000..=0x1F02B).contains(&(c as u32))
}

fn is_selector(c: char) -> bool {
    c == '\u{fe0e}' || c == '\u{fe0f}'
}

/// What is wrong with a token as a tile name, if anything.
fn bad_token(t: &str) -> Option<String> {
    let core: String = t.chars().filter(|&c| !is_selector(c)).collect();
    let mut chars = core.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if is_mahjong(c) || c.is_ascii_alphanumeric() {
            return None;
        }
    }
    if core.chars().count() > MAX_TOKEN {
        return Some(format!(
            "`{t}` is too long for a tile (at most {MAX_TOKEN} characters)"
        ));
    }
    if !core.is_empty() && core.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    Some(format!(
        "`{t}` is not a tile: a tile is letters and digits (`A`, `5p`, `S1`) or a Unicode mahjong tile, `.` an empty cell"
    ))
}

/// A cell as read: its token (`None` empty) and its 1-based column.
type Row<'a> = Vec<(usize, Option<String>)>;

/// The cells of one line: tokens when `spaced`, else one cell per character (a variation
/// selector stays with the tile before it).
fn cells_of(line: &str, spaced: bool) -> Row<'_> {
    if spaced {
        return crate::text::tokens(line)
            .into_iter()
            .map(|(col, t)| (col, (t != ".").then(|| t.to_string())))
            .collect();
    }
    let mut out: Row = Vec::new();
    for (col, c) in line.chars().enumerate() {
        if c.is_whitespace() {
            continue;
        }
        if is_selector(c) {
            if let Some((_, Some(t))) = out.last_mut() {
                t.push(c);
                continue;
            }
        }
        out.push((col + 1, (c != '.').then(|| c.to_string())));
    }
    out
}

/// The face key of a token: the token without variation selectors (so `🀄` and `🀄️` are one).
fn face_key(t: &str) -> String {
    t.chars().filter(|&c| !is_selector(c)).collect()
}

/// Reads one board.
pub fn parse_record(file: &str, rec: &Record, opts: &ReadOptions) -> Result<Shisen, InputError> {
    let spaced = rec
        .lines
        .iter()
        .any(|(_, l)| crate::text::tokens(l).len() > 1);
    let rows: Vec<(usize, Row)> = rec
        .lines
        .iter()
        .map(|&(n, l)| (n, cells_of(l, spaced)))
        .collect();
    let (first_line, first) = &rows[0];
    let width = first.len();
    if width > MAX_SIDE || rows.len() > MAX_SIDE {
        return Err(InputError::new(
            file,
            *first_line,
            1,
            format!("a board of at most {MAX_SIDE}x{MAX_SIDE} cells is read"),
        ));
    }
    for (n, row) in &rows {
        if row.len() != width {
            let col = row.get(width).map_or_else(
                || {
                    rec.lines
                        .iter()
                        .find(|l| l.0 == *n)
                        .map_or(1, |l| l.1.chars().count() + 1)
                },
                |c| c.0,
            );
            return Err(InputError::new(
                file,
                *n,
                col,
                format!(
                    "ragged rows: this row has {} cells, the board's first row (line {first_line}) {width}",
                    row.len()
                ),
            ));
        }
        for (col, t) in row {
            if let Some(t) = t {
                if let Some(why) = bad_token(t) {
                    return Err(InputError::new(file, *n, *col, why));
                }
            }
        }
    }
    let mut rules = rec.rules;
    rules.outline &= !opts.no_outline;
    rules.gravity |= opts.gravity;
    rules.chinese |= opts.chinese;
    let mut faces: Vec<String> = Vec::new();
    let mut keys: Vec<String> = Vec::new();
    let mut cells = Vec::with_capacity(width * rows.len());
    for (_, row) in &rows {
        for (_, t) in row {
            cells.push(t.as_ref().map(|t| {
                let k = face_key(t);
                match keys.iter().position(|x| *x == k) {
                    Some(i) => i,
                    None => {
                        keys.push(k);
                        faces.push(t.clone());
                        faces.len() - 1
                    }
                }
            }));
        }
    }
    let p = Shisen {
        width,
        height: rows.len(),
        cells,
        faces,
        rules,
        order: opts.order,
    };
    let at = |c: usize| {
        let (line, row) = &rows[c / width];
        (*line, row[c % width].0)
    };
    // Every class an even number of times: the error points at the class's last tile.
    let classes = p.classes();
    let mut count: Vec<(usize, usize, usize)> = Vec::new(); // class, tiles, last cell
    for (c, k) in classes.iter().enumerate() {
        if let Some(k) = *k {
            match count.iter_mut().find(|x| x.0 == k) {
                Some(x) => {
                    x.1 += 1;
                    x.2 = c;
                }
                None => count.push((k, 1, c)),
            }
        }
    }
    if let Some(&(k, n, last)) = count.iter().find(|x| x.1 % 2 == 1) {
        let (line, col) = at(last);
        let what = if k >= p.faces.len() {
            let group = if k == p.faces.len() {
                "seasons"
            } else {
                "flowers"
            };
            format!("the {group} (which match each other under --chinese) appear")
        } else {
            format!("the tile `{}` appears", p.faces[k])
        };
        return Err(InputError::new(
            file,
            line,
            col,
            format!(
                "{what} {}; every kind must appear an even number of times to be cleared",
                if n == 1 {
                    "once".to_string()
                } else {
                    format!("{n} times")
                }
            ),
        ));
    }
    if rules.gravity {
        for c in 0..p.cells_len().saturating_sub(width) {
            if p.cells[c].is_some() && p.cells[c + width].is_none() {
                let (line, col) = at(c);
                return Err(InputError::new(
                    file,
                    line,
                    col,
                    format!(
                        "with gravity every tile rests on a tile or the floor, but {} ({}) is above the empty {}",
                        p.cell_name(c),
                        p.face_name(c),
                        p.cell_name(c + width)
                    ),
                ));
            }
        }
    }
    Ok(p)
}

/// Parses every board in `text` (the contents of `file`).
pub fn parse(file: &str, text: &str, opts: &ReadOptions) -> Result<Vec<Shisen>, InputError> {
    crate::records::read_all(Reader::new(file, opts), text)
}

/// True when `text` looks like a Shisen-sho file: a Unicode mahjong tile or a `# shisen`
/// directive anywhere; or boards that read as Shisen-sho, each at least 2x2, fewer than half
/// of their cells empty, with a tile that is not a digit, a kind of four tiles or more, and not
/// a Latin square (a solved Sudoku grid of letters).
/// `complete` is false when `text` is only a file's beginning (a board it cuts off is not judged).
pub fn looks_like(text: &str, complete: bool) -> bool {
    // Mahjong tiles are outside ASCII: an ASCII text (a large Sudoku file) is passed over
    // without decoding its characters.
    if !text.is_ascii() && text.chars().any(is_mahjong) {
        return true;
    }
    if text.lines().any(|l| {
        crate::text::is_comment(l) && l.trim_start()[1..].trim_start().starts_with("shisen:")
    }) {
        return true;
    }
    // Every board below needs a tile whose name is not a number, so a text whose boards'
    // lines hold only digits, dots and spaces (a file of Sudokus on one line each, read
    // whole here as one tall board) is not Shisen-sho: said without reading its boards.
    let plain = |c: char| c.is_ascii_digit() || c == '.' || c.is_whitespace();
    if crate::records::lines(text)
        .filter(|l| !crate::text::is_comment(l))
        .all(|l| {
            // An ASCII line byte by byte, without decoding its characters.
            if l.is_ascii() {
                l.bytes().all(|b| plain(char::from(b)))
            } else {
                l.chars().all(plain)
            }
        })
    {
        return false;
    }
    let Some(boards) =
        crate::records::reads_cleanly(Reader::new("", &ReadOptions::default()), text, complete)
    else {
        return false;
    };
    boards.iter().all(|p| {
        let tiles = p.tiles().len();
        let letters = p
            .faces
            .iter()
            .any(|f| !f.chars().all(|c| c.is_ascii_digit()));
        let mut counts = vec![0usize; p.faces.len()];
        for f in p.cells.iter().flatten() {
            counts[*f] += 1;
        }
        let latin = p.width == p.height
            && p.cells.chunks(p.width).all(|row| {
                let mut fs: Vec<Option<usize>> = row.to_vec();
                crate::sort::all(&mut fs);
                fs.dedup();
                fs.len() == row.len()
            });
        p.width >= 2
            && p.height >= 2
            && tiles * 2 > p.cells_len()
            && letters
            && counts.iter().any(|&k| k >= 4)
            && !latin
    })
}

/// A board in the text format: a directive line for rules other than the default, then the
/// rows, tokens separated by spaces and padded to one width.
pub fn write(p: &Shisen) -> String {
    let mut s = String::new();
    let mut words = Vec::new();
    if p.rules.gravity {
        words.push("gravity");
    }
    if p.rules.chinese {
        words.push("chinese");
    }
    if !p.rules.outline {
        words.push("no-outline");
    }
    if !words.is_empty() {
        s.push_str(&format!("# shisen: {}\n", words.join(" ")));
    }
    let width = (0..p.cells_len())
        .map(|c| p.face_name(c).chars().count())
        .max()
        .unwrap_or(1);
    for r in 0..p.height {
        let row: Vec<String> = (0..p.width)
            .map(|c| format!("{:<width$}", p.face_name(r * p.width + c)))
            .collect();
        s.push_str(row.join(" ").trim_end());
        s.push('\n');
    }
    s
}

/// The formats `--format` writes for Shisen-sho.
pub const FORMATS: &[&str] = &["text"];

/// Boards written back (`solve --format`, `generate --format`): the board as given, and with a
/// solution the move at which each tile leaves as comment lines under it (so the text still
/// reads back as the same board).
pub fn write_solutions(
    format: &str,
    items: &[(&Shisen, Option<&Vec<Vec<i64>>>)],
) -> Result<String, String> {
    if format != "text" {
        return Err(format!(
            "--format {format} is not available for shisen puzzles ({})",
            FORMATS.join(", ")
        ));
    }
    let mut out = Vec::new();
    for (p, rows) in items {
        let mut s = write(p);
        if let Some(rows) = rows {
            let w = rows
                .iter()
                .flatten()
                .map(|k| k.to_string().len())
                .max()
                .unwrap_or(1);
            s.push_str("# the move at which each tile leaves:\n");
            for row in rows.iter() {
                let cells: Vec<String> = row.iter().map(|k| format!("{k:>w$}")).collect();
                s.push_str(&format!("# {}\n", cells.join(" ")));
            }
        }
        out.push(s);
    }
    Ok(out.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Shisen {
        let mut v = parse("t", text, &ReadOptions::default()).unwrap();
        assert_eq!(v.len(), 1);
        v.remove(0)
    }

    fn err(text: &str) -> InputError {
        parse("t", text, &ReadOptions::default()).unwrap_err()
    }

    #[test]
    fn spaced_and_compact_rows_read_the_same() {
        let a = one("A B .\nB A .\n");
        let b = one("AB.\nBA.\n");
        assert_eq!(a, b);
        assert_eq!((a.width, a.height), (3, 2));
        assert_eq!(a.tiles(), vec![0, 1, 3, 4]);
        assert_eq!(a.faces, vec!["A", "B"]);
    }

    #[test]
    fn mahjong_tiles_with_or_without_selectors_are_one_face() {
        let p = one("🀄 🀄\u{fe0f}\n🀅 🀅\n");
        assert_eq!(p.faces.len(), 2);
        let q = one("🀄🀄\u{fe0f}\n🀅🀅\n");
        assert_eq!(q.cells, p.cells);
    }

    #[test]
    fn boards_comments_and_directives() {
        let text = "# two boards\nAA\n\n# shisen: gravity chinese\nS1 S2\nS3 S4\n";
        let v = parse("t", text, &ReadOptions::default()).unwrap();
        assert_eq!(v.len(), 2);
        assert!(!v[0].rules.gravity && v[1].rules.gravity && v[1].rules.chinese);
        assert_eq!(v[1].class_count(), 1);
        let e = parse("t", "# shisen: sideways\nAA\n", &ReadOptions::default()).unwrap_err();
        assert_eq!((e.line, e.col), (1, 11));
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = err("A B\nA B B\n");
        assert_eq!((e.line, e.col), (2, 5));
        assert!(e.message.contains("ragged"), "{}", e.message);
        let e = err("A B\nA\n");
        assert_eq!((e.line, e.col), (2, 2));
        let e = err("A A\nB x|\n");
        assert_eq!((e.line, e.col), (2, 3));
        assert!(e.message.contains("not a tile"));
        let e = err("A A B\nB B C\n");
        assert_eq!((e.line, e.col), (2, 3));
        assert!(e.message.contains("`B` appears 3 times"), "{}", e.message);
        let e = err("# nothing\n\n");
        assert_eq!((e.line, e.col), (1, 1));
        let g = ReadOptions {
            gravity: true,
            ..Default::default()
        };
        let e = parse("t", "A .\nA B\n. B\n", &g).unwrap_err();
        assert_eq!((e.line, e.col), (2, 1));
        assert!(
            e.message.contains("r2c1 (A) is above the empty r3c1"),
            "{}",
            e.message
        );
        // The seasons are one class under --chinese, so three of them are odd.
        let c = ReadOptions {
            chinese: true,
            ..Default::default()
        };
        let e = parse("t", "S1 S2 S3\nA A .\n", &c).unwrap_err();
        assert!(e.message.contains("the seasons"), "{}", e.message);
    }

    #[test]
    fn write_reads_back() {
        let p = one("# shisen: no-outline\nAB S1\nAB S1\n");
        let text = write(&p);
        assert!(text.starts_with("# shisen: no-outline\n"));
        assert_eq!(one(&text), p);
    }

    #[test]
    fn detection_takes_boards_and_leaves_other_kinds() {
        assert!(looks_like("AABB\nCCDD\nAABB\nCCDD\n", true));
        assert!(looks_like("🀄🀄\n", true));
        assert!(looks_like("# shisen: gravity\n1 1\n", true));
        // A Numberlink letter grid: every label twice.
        assert!(!looks_like("A.B\n...\nA.B\n", true));
        // A Sudoku row of digits, a Takuzu grid.
        assert!(!looks_like("53..7....\n6..195...\n", true));
        assert!(!looks_like("0 1 .\n1 0 .\n. . .\n", true));
        // A solved 4x4 Sudoku of letters.
        assert!(!looks_like("ABCD\nCDAB\nBADC\nDCBA\n", true));
    }
}
