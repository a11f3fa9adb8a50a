//! Drawing a Tectonic for a terminal: pieces outlined with heavy box-drawing lines (`┏━┓┃┗┛`
//! and their junctions), nothing between cells of one piece, the digits inside (`.` for an
//! empty cell). With colour, givens are bold.

use super::Tectonic;
use crate::puzzle::Style;

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
