//! Drawing a Sudoku grid as text (boxes separated by `|` and `-+-` lines, `.` for empty cells,
//! numbers right-aligned to the widest value on grids over 9; with colour, the values that were
//! not givens are drawn in cyan, as Takuzu's, and either way the text reads back as a puzzle)
//! and as a picture (thick box lines, givens in black, solved values in blue; for a step, every
//! open cell's pencil marks with the step's pattern, placements, eliminations and chain links
//! drawn on them).

use super::strategies::Board;
use super::Sudoku;
use crate::draw::{Ink, Mark, Picture, Point, Slots, Tone};
use crate::explain::Step;
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

/// The empty board of `s`: thin cell lines, thick box lines and frame.
fn board(s: &Sudoku) -> Picture {
    let mut p = Picture::new(s.size, s.size);
    p.region_borders(|r, c| s.box_of(r, c));
    p
}

/// The grid `values` (row-major, 0 empty) as a picture: givens of `s` in black, the other
/// values in blue.
pub fn picture(s: &Sudoku, values: &[u8]) -> Picture {
    let mut p = board(s);
    let n = s.size;
    for (i, &v) in values.iter().enumerate() {
        if v != 0 {
            let ink = if s.cells[i] != 0 {
                Ink::Given
            } else {
                Ink::Solved
            };
            p.push(Mark::Digit {
                row: i / n,
                col: i % n,
                text: v.to_string(),
                ink,
            });
        }
    }
    p
}

/// One picture per step of a path from the givens of `s`, each showing the pencil marks
/// before the step with the step drawn on them, then the position after the last step.
pub fn step_pictures(s: &Sudoku, steps: &[Step]) -> Vec<Picture> {
    let mut b = Board::new(s);
    let mut out = Vec::with_capacity(steps.len() + 1);
    for st in steps {
        out.push(position(s, &b, Some(st)));
        b.apply(st);
    }
    out.push(position(s, &b, None));
    out
}

/// The pencil marks of `b`, with `step` drawn on them: its pattern cells shaded and pattern
/// candidates marked, its placements in green, its eliminations struck out, its links drawn.
pub fn position(s: &Sudoku, b: &Board, step: Option<&Step>) -> Picture {
    let n = s.size;
    let mut p = board(s);
    let slots = Slots::for_count(n);
    let (empty, no_links) = (Vec::new(), Vec::new());
    let (pattern, placements, eliminations, links) = match step {
        Some(st) => (&st.pattern, &st.placements, &st.eliminations, &st.links),
        None => (&empty, &empty, &empty, &no_links),
    };
    let has = |list: &Vec<crate::puzzle::CellValue>, i: usize, d: i64| {
        list.iter().any(|c| c.row * n + c.col == i && c.value == d)
    };
    for c in pattern {
        let i = c.row * n + c.col;
        if c.value == 0 || b.values[i] != 0 || !b.has(i, c.value as u8) {
            p.push(Mark::Highlight {
                row: c.row,
                col: c.col,
                tone: Tone::Pattern,
            });
        }
    }
    for c in placements {
        p.push(Mark::Highlight {
            row: c.row,
            col: c.col,
            tone: Tone::Placement,
        });
    }
    for i in 0..n * n {
        let (row, col) = (i / n, i % n);
        if b.values[i] != 0 {
            let ink = if s.cells[i] != 0 {
                Ink::Given
            } else {
                Ink::Solved
            };
            p.push(Mark::Digit {
                row,
                col,
                text: b.values[i].to_string(),
                ink,
            });
            continue;
        }
        for d in 1..=n as u8 {
            if !b.has(i, d) {
                continue;
            }
            let v = d as i64;
            let struck = has(eliminations, i, v);
            let tone = Tone::of_candidate(has(placements, i, v), struck, has(pattern, i, v));
            p.push(Mark::Candidate {
                row,
                col,
                slot: d as usize - 1,
                slots,
                text: d.to_string(),
                tone,
                struck,
            });
        }
    }
    let at = |c: &crate::puzzle::CellValue| {
        if c.value > 0 {
            Point::slot(c.row, c.col, c.value as usize - 1, slots)
        } else {
            Point::centre(c.row, c.col)
        }
    };
    for l in links {
        p.push(Mark::Link {
            from: at(&l.from),
            to: at(&l.to),
            strong: l.strong,
        });
    }
    p
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
