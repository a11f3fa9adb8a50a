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
    let mut rows: Vec<Row> = Vec::new();
    let mut after_blank = true;
    for (k, line) in text.lines().enumerate() {
        let line = line.trim_start_matches('\u{feff}');
        if line.trim_start().starts_with('#') {
            continue;
        }
        if line.trim().is_empty() {
            after_blank = true;
            continue;
        }
        rows.push(Row {
            line: k + 1,
            cells: cells_of(line),
            starts_block: after_blank,
        });
        after_blank = false;
    }
    if rows.is_empty() {
        return Err(InputError::new(
            file,
            1,
            1,
            "no puzzle found (the file is empty or all comments)",
        ));
    }
    let mut out = Vec::new();
    let mut k = 0;
    while k < rows.len() {
        let first = &rows[k];
        let header = if first.starts_block {
            let line = text.lines().nth(first.line - 1).unwrap_or("");
            size_line(line).map(|s| (s, first.line))
        } else {
            None
        };
        let (givens, pieces, size) = if let Some(((r, c), hl)) = header {
            k += 1;
            let take = |k: &mut usize, what: &str| -> Result<Vec<&Row>, InputError> {
                if *k + r > rows.len() {
                    return Err(InputError::new(
                        file,
                        rows.last().map_or(hl, |x| x.line),
                        1,
                        format!("the size line at line {hl} says {r} rows of {what}, but the file ends before them"),
                    ));
                }
                let v: Vec<&Row> = rows[*k..*k + r].iter().collect();
                *k += r;
                Ok(v)
            };
            let g = take(&mut k, "givens")?;
            let p = take(&mut k, "pieces")?;
            (g, p, Some((r, c, hl)))
        } else {
            let block = |k: &mut usize| -> Vec<&Row> {
                let start = *k;
                *k += 1;
                while *k < rows.len() && !rows[*k].starts_block {
                    *k += 1;
                }
                rows[start..*k].iter().collect()
            };
            let g = block(&mut k);
            if k >= rows.len() {
                return Err(InputError::new(
                    file,
                    g[0].line,
                    1,
                    "this grid of givens has no grid of pieces after it: a puzzle is a grid of givens, a blank line, then a grid of piece names (one name per cell)",
                ));
            }
            let p = block(&mut k);
            (g, p, None)
        };
        out.push(puzzle(file, &givens, &pieces, size)?);
    }
    Ok(out)
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
