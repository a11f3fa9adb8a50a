//! Drawing a Sudoku grid as text: boxes separated by `|` and `-+-` lines, `.` for empty cells,
//! numbers right-aligned to the widest value on grids over 9. With colour, the values that were
//! not givens are drawn in cyan (as Takuzu's); either way the text reads back as a puzzle.

use super::Sudoku;
use crate::puzzle::Style;

/// The grid `values` (row-major, 0 empty) drawn in `s`'s box layout.
pub fn grid(s: &Sudoku, values: &[u8], style: Style) -> String {
    let w = if s.size > 9 { 2 } else { 1 };
    let texts: Vec<String> = values
        .iter()
        .zip(&s.cells)
        .map(|(&v, &given)| match v {
            0 => ".".into(),
            _ if style.color && given == 0 => format!("\x1b[36m{v}\x1b[0m"),
            _ => v.to_string(),
        })
        .collect();
    boxed(s.size, s.box_rows, s.box_cols, &texts, w, Align::Right)
}

/// A text without its ANSI colour sequences.
fn plain(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    let mut in_escape = false;
    for c in t.chars() {
        match (in_escape, c) {
            (false, '\x1b') => in_escape = true,
            (true, 'm') => in_escape = false,
            (true, _) => {}
            (false, _) => out.push(c),
        }
    }
    out
}

/// The width of a text on a terminal: its characters, less ANSI colour sequences.
fn visible_width(t: &str) -> usize {
    plain(t).chars().count()
}

/// Where a cell's text sits in its column.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Align {
    Left,
    Right,
}

/// Cell texts (row-major, `n`x`n`) drawn with boxes of `box_rows`x`box_cols`: each column as
/// wide as its widest text (at least `min_width`), boxes separated by `|` and `-+-` lines, no
/// trailing spaces. Shared by the solution grid and the strategy engine's pencil marks.
pub fn boxed(
    n: usize,
    box_rows: usize,
    box_cols: usize,
    texts: &[String],
    min_width: usize,
    align: Align,
) -> String {
    let width: Vec<usize> = (0..n)
        .map(|c| {
            (0..n)
                .map(|r| visible_width(&texts[r * n + c]))
                .max()
                .unwrap_or(0)
                .max(min_width)
        })
        .collect();
    let mut out = String::new();
    for r in 0..n {
        let mut line = String::new();
        for c in 0..n {
            if c > 0 {
                line.push(' ');
                if c % box_cols == 0 {
                    line.push_str("| ");
                }
            }
            let t = &texts[r * n + c];
            let pad = " ".repeat(width[c] - visible_width(t));
            match align {
                Align::Left => {
                    line.push_str(t);
                    line.push_str(&pad);
                }
                Align::Right => {
                    line.push_str(&pad);
                    line.push_str(t);
                }
            }
        }
        if r > 0 && r % box_rows == 0 {
            let bar: String = plain(&line)
                .chars()
                .map(|ch| if ch == '|' { '+' } else { '-' })
                .collect();
            out.push_str(bar.trim_end());
            out.push('\n');
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_boxes() {
        let s = Sudoku::empty(4, 2, 2);
        let values = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 0, 1];
        let text = grid(&s, &values, Style::default());
        assert_eq!(
            text,
            "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | . 1\n"
        );
    }

    #[test]
    fn colour_marks_solved_cells_and_keeps_the_columns() {
        let mut s = Sudoku::empty(4, 2, 2);
        s.cells[0] = 1;
        let values = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 0, 1];
        let text = grid(&s, &values, Style { color: true });
        assert!(text.starts_with("1 \x1b[36m2\x1b[0m | "), "{text:?}");
        let plain: String = text.replace("\x1b[36m", "").replace("\x1b[0m", "");
        assert_eq!(plain, grid(&s, &values, Style::default()));
    }
}
