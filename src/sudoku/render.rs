//! Drawing a Sudoku grid as text: boxes separated by `|` and `-+-` lines, `.` for empty cells,
//! numbers right-aligned to the widest value on grids over 9.

use super::Sudoku;

/// The grid `values` (row-major, 0 empty) drawn in `s`'s box layout.
pub fn grid(s: &Sudoku, values: &[u8]) -> String {
    let w = if s.size > 9 { 2 } else { 1 };
    let texts: Vec<String> = values
        .iter()
        .map(|&v| if v == 0 { ".".into() } else { v.to_string() })
        .collect();
    boxed(s.size, s.box_rows, s.box_cols, &texts, w, Align::Right)
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
                .map(|r| texts[r * n + c].chars().count())
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
            let (t, w) = (&texts[r * n + c], width[c]);
            match align {
                Align::Left => line.push_str(&format!("{t:<w$}")),
                Align::Right => line.push_str(&format!("{t:>w$}")),
            }
        }
        if r > 0 && r % box_rows == 0 {
            let bar: String = line
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
        let text = grid(&s, &[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 0, 1]);
        assert_eq!(
            text,
            "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | . 1\n"
        );
    }
}
