//! javandiermen's CSV pair: `board.NAME.csv` holds the givens (comma-separated, empty for an
//! open cell) and `layout.NAME.csv` beside it the piece of every cell (numbers). Give gridsat
//! the board; the command line reads the layout next to it ([`layout_path`]) and hands its text
//! to the reader as a [`LayoutFile`] (the library reads no files); [`parse_pair`] takes both
//! texts directly.

use super::Pos;
use crate::error::InputError;
use crate::tectonic::Tectonic;
use std::path::{Path, PathBuf};

/// The layout that belongs to a CSV board, as the caller read it: the layout file's name (for
/// messages), and its text or why it could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutFile {
    pub file: String,
    pub text: Result<String, String>,
}

/// The layout file that belongs to a board file: `board` replaced by `layout` in the file
/// name (`board.9x5.12.l7.csv` → `layout.9x5.12.l7.csv`, `t1.board.csv` → `t1.layout.csv`).
pub fn layout_path(board: &str) -> Option<PathBuf> {
    let p = Path::new(board);
    let name = p.file_name()?.to_str()?;
    let k = name.rfind("board")?;
    let layout = format!("{}layout{}", &name[..k], &name[k + 5..]);
    Some(p.with_file_name(layout))
}

/// One CSV file as rows of (cell text, line, column).
fn rows(text: &str) -> Vec<Vec<(String, Pos)>> {
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim_start_matches('\u{feff}');
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let mut row = Vec::new();
        let mut col = 1;
        for field in line.split(',') {
            let lead = field.chars().take_while(|c| c.is_whitespace()).count();
            row.push((field.trim().to_string(), (k + 1, col + lead)));
            col += field.chars().count() + 1;
        }
        out.push(row);
    }
    out
}

/// The board in `text` (the file `file`) with its layout (the file beside it, read by the
/// caller; `None` when it gave none).
pub fn parse(
    file: &str,
    text: &str,
    layout: Option<&LayoutFile>,
) -> Result<Vec<Tectonic>, InputError> {
    let name = Path::new(file)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(file);
    if name.contains("layout") && !name.contains("board") {
        return Err(InputError::new(
            file,
            1,
            1,
            "this is a layout file: give gridsat the board file (board.NAME.csv); it reads the layout beside it",
        ));
    }
    let layout = layout.ok_or_else(|| {
        InputError::new(
            file,
            1,
            1,
            "a Tectonic CSV board needs its layout: name the files board.NAME.csv and layout.NAME.csv, side by side",
        )
    })?;
    let layout_text = layout.text.as_deref().map_err(|e| {
        InputError::new(
            file,
            1,
            1,
            format!(
                "cannot read the layout {} that belongs to this board: {e}",
                layout.file
            ),
        )
    })?;
    parse_pair(file, text, &layout.file, layout_text).map(|t| vec![t])
}

/// A board and its layout, both given as text.
pub fn parse_pair(
    board_file: &str,
    board: &str,
    layout_file: &str,
    layout: &str,
) -> Result<Tectonic, InputError> {
    let b = rows(board);
    let l = rows(layout);
    if b.is_empty() {
        return Err(InputError::new(board_file, 1, 1, "the board is empty"));
    }
    let width = b[0].len();
    let height = b.len();
    for (file, grid) in [(board_file, &b), (layout_file, &l)] {
        for r in grid.iter() {
            if r.len() != width {
                let (line, col) = r.get(width).map_or(r[r.len() - 1].1, |c| c.1);
                return Err(InputError::new(
                    file,
                    line,
                    col,
                    format!(
                        "this row has {}, but the board's first row has {width}",
                        crate::text::count_of(r.len(), "cell")
                    ),
                ));
            }
        }
    }
    if l.len() != height {
        let line = l.last().map_or(1, |r| r[0].1 .0);
        return Err(InputError::new(
            layout_file,
            line,
            1,
            format!(
                "the layout has {}, but the board {board_file} has {height}",
                crate::text::count_of(l.len(), "row")
            ),
        ));
    }
    let mut values = Vec::with_capacity(width * height);
    let mut givens_at = Vec::with_capacity(width * height);
    for (t, at) in b.iter().flatten() {
        let v = if t.is_empty() {
            0
        } else {
            match t.parse::<u8>() {
                Ok(v) => v,
                Err(_) => {
                    return Err(InputError::new(
                        board_file,
                        at.0,
                        at.1,
                        format!("unexpected `{t}`: expected a digit or nothing for an empty cell"),
                    ))
                }
            }
        };
        values.push(v);
        givens_at.push(*at);
    }
    let mut names = Vec::with_capacity(width * height);
    let mut pieces_at = Vec::with_capacity(width * height);
    for (t, at) in l.iter().flatten() {
        if t.is_empty() {
            return Err(InputError::new(
                layout_file,
                at.0,
                at.1,
                "an empty cell in the layout: expected the number of the cell's piece",
            ));
        }
        names.push(t.clone());
        pieces_at.push(*at);
    }
    // Faults in the pieces point into the layout file, faults in the givens into the board.
    Tectonic::new(width, height, &names, values, None).map_err(|e| {
        let (file, list) = if e.in_pieces {
            (layout_file, &pieces_at)
        } else {
            (board_file, &givens_at)
        };
        let (line, col) = e.cell.and_then(|c| list.get(c).copied()).unwrap_or((1, 1));
        InputError::new(file, line, col, e.message)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_board_and_layout_files() {
        assert_eq!(
            layout_path("dir/board.9x5.12.l7.csv"),
            Some(PathBuf::from("dir/layout.9x5.12.l7.csv"))
        );
        assert_eq!(
            layout_path("t1.board.csv"),
            Some(PathBuf::from("t1.layout.csv"))
        );
        assert_eq!(layout_path("plain.csv"), None);
    }

    #[test]
    fn reads_a_pair_and_points_errors_into_the_right_file() {
        let t = parse_pair("b", "1,,\n,,\n", "l", " 0, 0, 1\n 0, 1, 1\n").unwrap();
        assert_eq!(t.givens, vec![1, 0, 0, 0, 0, 0]);
        assert_eq!(t.regions, vec![0, 0, 1, 0, 1, 1]);
        let e = parse_pair("b", "1,,\n,,\n", "l", "0,1\n0,1\n").unwrap_err();
        assert_eq!((e.file.as_str(), e.line, e.col), ("l", 1, 3));
        let e = parse_pair("b", "1,,\n,,\n", "l", "0,0,1\n0,0,1\n0,0,1\n").unwrap_err();
        assert!(e.message.contains("3 rows"), "{}", e.message);
        let e = parse_pair("b", "1,,\n,,\n", "l", "0,1,0\n0,1,0\n").unwrap_err();
        assert_eq!((e.file.as_str(), e.line, e.col), ("l", 1, 5));
        assert!(e.message.contains("not connected"), "{}", e.message);
        let e = parse_pair("b", "1,,\n,x,\n", "l", "0,0,1\n0,1,1\n").unwrap_err();
        assert_eq!((e.file.as_str(), e.line, e.col), ("b", 2, 2));
        let e = parse_pair("b", "4,,\n,,\n", "l", "0,0,1\n0,1,1\n").unwrap_err();
        assert_eq!((e.file.as_str(), e.line, e.col), ("b", 1, 1));
        assert!(e.message.contains("larger than its piece"), "{}", e.message);
        let e = parse("dir/layout.x.csv", "0", None).unwrap_err();
        assert!(e.message.contains("layout file"), "{}", e.message);
        let unread = LayoutFile {
            file: "/nonexistent/layout.x.csv".into(),
            text: Err("No such file or directory (os error 2)".into()),
        };
        let e = parse("/nonexistent/board.x.csv", "1,", Some(&unread)).unwrap_err();
        assert_eq!((e.line, e.col), (1, 1));
        assert!(
            e.message
                .contains("cannot read the layout /nonexistent/layout.x.csv")
                && e.message.ends_with("(os error 2)"),
            "{}",
            e.message
        );
        let e = parse("board.x.csv", "1,", None).unwrap_err();
        assert!(e.message.contains("needs its layout"), "{}", e.message);
    }

    #[test]
    fn a_board_reads_with_the_layout_text_it_is_given() {
        let layout = LayoutFile {
            file: "layout.x.csv".into(),
            text: Ok(" 0, 0, 1\n 0, 1, 1\n".into()),
        };
        let ts = parse("board.x.csv", "1,,\n,,\n", Some(&layout)).unwrap();
        assert_eq!(ts.len(), 1);
        assert_eq!(ts[0].regions, vec![0, 0, 1, 0, 1, 1]);
        // Through the streaming reader, as `kinds::read` gives it the layout.
        let r = super::super::Reader::new("board.x.csv").with_layout(Some(layout));
        let ts = crate::records::read_all(r, "1,,\n,,\n").unwrap();
        assert_eq!(ts[0].givens, vec![1, 0, 0, 0, 0, 0]);
        // A layout whose rows do not match points into the layout file.
        let bad = LayoutFile {
            file: "layout.x.csv".into(),
            text: Ok("0,0\n".into()),
        };
        let e = parse("board.x.csv", "1,,\n,,\n", Some(&bad)).unwrap_err();
        assert_eq!(e.file, "layout.x.csv");
    }
}
