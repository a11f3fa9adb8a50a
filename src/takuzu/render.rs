//! Drawing a Takuzu grid as text: `0`, `1` and `.` (open), separated by spaces on grids up to
//! 32 wide and packed beyond, so a 60x60 still fits a wide terminal. With colour, cells that
//! were not givens are drawn in cyan. Either way the text reads back as a puzzle.

use super::Takuzu;
use crate::puzzle::Style;

/// The grid `cells` (row-major) drawn for a terminal.
pub fn grid(t: &Takuzu, cells: &[Option<u8>], style: Style) -> String {
    let spaced = t.width <= 32;
    let mut out = String::with_capacity(cells.len() * 3);
    for r in 0..t.height {
        for c in 0..t.width {
            let i = r * t.width + c;
            if c > 0 && spaced {
                out.push(' ');
            }
            let ch = match cells[i] {
                Some(0) => '0',
                Some(_) => '1',
                None => '.',
            };
            if style.color && t.cells[i].is_none() && cells[i].is_some() {
                out.push_str("\x1b[36m");
                out.push(ch);
                out.push_str("\x1b[0m");
            } else {
                out.push(ch);
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::takuzu::Rules;

    #[test]
    fn draws_with_spaces_and_colour() {
        let mut t = Takuzu::empty(2, 2, Rules::default());
        t.cells[0] = Some(1);
        let cells = [Some(1), Some(0), None, Some(1)];
        assert_eq!(grid(&t, &cells, Style::default()), "1 0\n. 1\n");
        let colored = grid(&t, &cells, Style { color: true });
        assert!(colored.starts_with("1 \x1b[36m0\x1b[0m"));
        let wide = Takuzu::empty(40, 1, Rules::default());
        assert_eq!(grid(&wide, &[None; 40], Style::default()).len(), 41);
    }
}
