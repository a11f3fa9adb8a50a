//! Drawing a Sudoku grid as text: boxes separated by `|` and `-+-` lines, `.` for empty cells,
//! numbers right-aligned to the widest value on grids over 9.

use super::Sudoku;

/// The grid `values` (row-major, 0 empty) drawn in `s`'s box layout.
pub fn grid(s: &Sudoku, values: &[u8]) -> String {
    let n = s.size;
    let w = if n > 9 { 2 } else { 1 };
    let mut out = String::new();
    for r in 0..n {
        let mut line = String::new();
        for c in 0..n {
            if c > 0 {
                line.push(' ');
                if c % s.box_cols == 0 {
                    line.push_str("| ");
                }
            }
            let v = values[r * n + c];
            let cell = if v == 0 {
                ".".to_string()
            } else {
                v.to_string()
            };
            line.push_str(&format!("{cell:>w$}"));
        }
        if r > 0 && r % s.box_rows == 0 {
            let bar: String = line
                .chars()
                .map(|ch| if ch == '|' { '+' } else { '-' })
                .collect();
            out.push_str(&bar);
            out.push('\n');
        }
        out.push_str(&line);
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
