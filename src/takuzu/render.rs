//! Drawing a Takuzu grid as text: `0`, `1` and `.` (open), separated by spaces on grids up to
//! 32 wide and packed beyond, so a 60x60 still fits a wide terminal. With colour, cells that
//! were not givens are drawn in cyan. Either way the text reads back as a puzzle.
//!
//! As a picture: the digits 0 and 1 (givens black, the rest blue), or binarypuzzle.com's
//! white (0) and black (1) circles on grey given cells; composite puzzles' sub-grids outlined.
//! A step shades the cells it rests on and draws its placements in green.

use super::strategies::Board;
use super::Takuzu;
use crate::draw::{Disc, Ink, Look, Mark, Picture, Tone};
use crate::explain::Step;
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

/// The cells `cells` (row-major) as a picture; `placed` cells are drawn as the step's.
fn draw(t: &Takuzu, cells: &[Option<u8>], placed: &[usize], look: Look) -> Picture {
    let mut p = Picture::new(t.height, t.width);
    p.outline(0, 0, t.height, t.width);
    for r in &t.rules.regions {
        p.outline(r.row, r.col, r.height, r.width);
    }
    for (i, v) in cells.iter().enumerate() {
        let (row, col) = (i / t.width, i % t.width);
        let given = t.cells[i].is_some();
        let Some(v) = *v else { continue };
        if look.circles {
            if given {
                p.push(Mark::Highlight {
                    row,
                    col,
                    tone: Tone::Given,
                });
            }
            let disc = if v == 0 { Disc::White } else { Disc::Black };
            p.push(Mark::Circle {
                row,
                col,
                disc,
                label: None,
            });
        } else {
            let ink = if given {
                Ink::Given
            } else if placed.contains(&i) {
                Ink::Placed
            } else {
                Ink::Solved
            };
            p.push(Mark::Digit {
                row,
                col,
                text: v.to_string(),
                ink,
            });
        }
    }
    p
}

/// The grid `cells` (row-major) as a picture.
pub fn picture(t: &Takuzu, cells: &[Option<u8>], look: Look) -> Picture {
    draw(t, cells, &[], look)
}

/// One picture per step of a path from the givens, each showing the grid with the step's
/// pattern shaded and its placements in green, then the grid after the last step.
pub fn step_pictures(t: &Takuzu, steps: &[Step], look: Look) -> Vec<Picture> {
    let mut b = Board::new(t);
    let mut out = Vec::with_capacity(steps.len() + 1);
    for st in steps {
        let mut cells = b.cells.clone();
        let placed: Vec<usize> = st
            .placements
            .iter()
            .map(|c| c.row * t.width + c.col)
            .collect();
        for c in &st.placements {
            cells[c.row * t.width + c.col] = Some(c.value as u8);
        }
        let mut p = draw(t, &cells, &placed, look);
        for c in &st.pattern {
            p.push(Mark::Highlight {
                row: c.row,
                col: c.col,
                tone: Tone::Pattern,
            });
        }
        for c in &st.placements {
            p.push(Mark::Highlight {
                row: c.row,
                col: c.col,
                tone: Tone::Placement,
            });
        }
        out.push(p);
        b.apply(st);
    }
    out.push(draw(t, &b.cells, &[], look));
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
