//! Drawing a Tectonic for a terminal: pieces outlined with heavy box-drawing lines (`┏━┓┃┗┛`
//! and their junctions), nothing between cells of one piece, the digits inside (`.` for an
//! empty cell). With colour, givens are bold.
//!
//! As a picture: thick piece borders, givens in black and solved digits in blue; for a step,
//! every open cell's pencil marks with the step's pattern, placements and eliminations.

use super::strategies::Board;
use super::Tectonic;
use crate::draw::{Ink, Mark, Picture, Slots, Tone};
use crate::explain::Step;
use crate::puzzle::{CellValue, Style};

/// The heavy box-drawing character with the given arms (up, down, left, right).
fn junction(up: bool, down: bool, left: bool, right: bool) -> char {
    match (up, down, left, right) {
        (false, false, false, false) => ' ',
        (true, false, false, false) => '╹',
        (false, true, false, false) => '╻',
        (false, false, true, false) => '╸',
        (false, false, false, true) => '╺',
        (true, true, false, false) => '┃',
        (false, false, true, true) => '━',
        (false, true, false, true) => '┏',
        (false, true, true, false) => '┓',
        (true, false, false, true) => '┗',
        (true, false, true, false) => '┛',
        (true, true, false, true) => '┣',
        (true, true, true, false) => '┫',
        (false, true, true, true) => '┳',
        (true, false, true, true) => '┻',
        (true, true, true, true) => '╋',
    }
}

/// The grid `values` (row-major, 0 empty) inside `t`'s pieces.
pub fn grid(t: &Tectonic, values: &[u8], style: Style) -> String {
    let labels: Vec<String> = values
        .iter()
        .map(|&v| {
            if v == 0 {
                ".".to_string()
            } else {
                v.to_string()
            }
        })
        .collect();
    let bold: Vec<bool> = t.givens.iter().map(|&g| g != 0).collect();
    draw(t, &labels, &bold, style)
}

/// Any text per cell (a digit, or the candidates left) inside `t`'s pieces, centred in cells
/// as wide as the widest label; `bold` cells are bold when colour is on.
pub fn draw(t: &Tectonic, labels: &[String], bold: &[bool], style: Style) -> String {
    let (w, h) = (t.width, t.height);
    let inner = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1) + 2;
    let piece = |r: isize, c: isize| -> Option<usize> {
        (r >= 0 && c >= 0 && (r as usize) < h && (c as usize) < w)
            .then(|| t.regions[r as usize * w + c as usize])
    };
    // A heavy line between two cells (or a cell and the outside) of different pieces.
    let wall = |a: Option<usize>, b: Option<usize>| a != b;
    let mut out = String::new();
    for k in 0..=h as isize {
        // The border line above row k.
        for j in 0..=w as isize {
            let up = k > 0 && wall(piece(k - 1, j - 1), piece(k - 1, j));
            let down = k < h as isize && wall(piece(k, j - 1), piece(k, j));
            let left = j > 0 && wall(piece(k - 1, j - 1), piece(k, j - 1));
            let right = j < w as isize && wall(piece(k - 1, j), piece(k, j));
            out.push(junction(up, down, left, right));
            if j < w as isize {
                let seg = if right { '━' } else { ' ' };
                out.extend(std::iter::repeat_n(seg, inner));
            }
        }
        trim_end(&mut out);
        out.push('\n');
        if k == h as isize {
            break;
        }
        // The cells of row k.
        for j in 0..=w as isize {
            out.push(if wall(piece(k, j - 1), piece(k, j)) {
                '┃'
            } else {
                ' '
            });
            if j < w as isize {
                let i = k as usize * w + j as usize;
                let l = &labels[i];
                let pad = inner - l.chars().count();
                let (a, b) = (pad / 2, pad - pad / 2);
                out.extend(std::iter::repeat_n(' ', a));
                if style.color && bold[i] {
                    out.push_str(&format!("\x1b[1m{l}\x1b[0m"));
                } else {
                    out.push_str(l);
                }
                out.extend(std::iter::repeat_n(' ', b));
            }
        }
        trim_end(&mut out);
        out.push('\n');
    }
    out
}

fn trim_end(s: &mut String) {
    while s.ends_with(' ') {
        s.pop();
    }
}

/// The board of `t`: thin cell lines and thick piece borders.
fn board(t: &Tectonic) -> Picture {
    let mut p = Picture::new(t.height, t.width);
    p.region_borders(|r, c| t.regions[r * t.width + c]);
    p
}

/// The digits `values` (row-major, 0 empty) inside `t`'s pieces: givens black, others blue.
pub fn picture(t: &Tectonic, values: &[u8]) -> Picture {
    let mut p = board(t);
    for (i, &v) in values.iter().enumerate() {
        if v != 0 {
            let ink = if t.givens[i] != 0 {
                Ink::Given
            } else {
                Ink::Solved
            };
            p.push(Mark::Digit {
                row: i / t.width,
                col: i % t.width,
                text: v.to_string(),
                ink,
            });
        }
    }
    p
}

/// One picture per step of a path from the givens, each showing the pencil marks before the
/// step with the step drawn on them, then the position after the last step.
pub fn step_pictures(t: &Tectonic, steps: &[Step]) -> Vec<Picture> {
    let mut b = Board::new(t);
    let mut out = Vec::with_capacity(steps.len() + 1);
    for st in steps {
        out.push(position(t, &b, Some(st)));
        b.apply(st, t.width);
    }
    out.push(position(t, &b, None));
    out
}

/// The pencil marks of `b` with `step` drawn on them.
fn position(t: &Tectonic, b: &Board, step: Option<&Step>) -> Picture {
    let w = t.width;
    let mut p = board(t);
    let largest = t.pieces().iter().map(|c| c.len()).max().unwrap_or(1);
    let slots = Slots::for_count(largest);
    let none = Vec::new();
    let (pattern, placements, eliminations) = match step {
        Some(s) => (&s.pattern, &s.placements, &s.eliminations),
        None => (&none, &none, &none),
    };
    let has = |list: &Vec<CellValue>, i: usize, v: u8| {
        list.iter()
            .any(|c| c.row * w + c.col == i && c.value == v as i64)
    };
    for c in pattern {
        let i = c.row * w + c.col;
        if c.value == 0 || b.values[i] != 0 || b.masks[i] & (1 << (c.value - 1)) == 0 {
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
    for i in 0..b.values.len() {
        let (row, col) = (i / w, i % w);
        if b.values[i] != 0 {
            let ink = if t.givens[i] != 0 {
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
        for v in 1..=largest.min(64) as u8 {
            if b.masks[i] & (1u64 << (v - 1)) == 0 {
                continue;
            }
            let struck = has(eliminations, i, v);
            let tone = Tone::of_candidate(has(placements, i, v), struck, has(pattern, i, v));
            p.push(Mark::Candidate {
                row,
                col,
                slot: v as usize - 1,
                slots,
                text: v.to_string(),
                tone,
                struck,
            });
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outlines_pieces_with_heavy_lines() {
        // a a b
        // c a b
        let names: Vec<String> = "aabcab".chars().map(String::from).collect();
        let t = Tectonic::new(3, 2, &names, vec![0, 0, 2, 1, 0, 0], None).unwrap();
        let text = grid(&t, &t.givens, Style::default());
        let want = "\
┏━━━━━━━┳━━━┓
┃ .   . ┃ 2 ┃
┣━━━┓   ┃   ┃
┃ 1 ┃ . ┃ . ┃
┗━━━┻━━━┻━━━┛
";
        assert_eq!(text, want);
        let bold = grid(&t, &t.givens, Style { color: true });
        assert!(bold.contains("\x1b[1m2\x1b[0m"));
    }
}
