//! Drawing a Numberlink board as text: the puzzle as a grid of labels (`.` empty), a solution as
//! the grid of path labels beside the seed's drawing (paths `┏┓┗┛┃━`, ends `╸╹╺╻`), each path in
//! its own colour when the terminal allows.

use super::{Links, Numberlink, DOWN, LEFT, RIGHT, UP};
use crate::puzzle::Style;

/// The box-drawing piece for a cell's arms (`.` for an empty cell).
pub fn piece(arms: u8) -> char {
    match arms {
        0 => '.',
        UP => '╹',
        RIGHT => '╺',
        DOWN => '╻',
        LEFT => '╸',
        x if x == UP | DOWN => '┃',
        x if x == LEFT | RIGHT => '━',
        x if x == RIGHT | DOWN => '┏',
        x if x == LEFT | DOWN => '┓',
        x if x == UP | RIGHT => '┗',
        x if x == UP | LEFT => '┛',
        _ => '?',
    }
}

/// ANSI colours for paths, cycled.
const PALETTE: [u8; 12] = [31, 32, 33, 34, 35, 36, 91, 92, 93, 94, 95, 96];

fn paint(text: &str, path: u32, style: Style) -> String {
    if style.color && path > 0 {
        let code = PALETTE[(path as usize - 1) % PALETTE.len()];
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// The width of a label column.
fn label_width(p: &Numberlink) -> usize {
    p.labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(1)
}

/// One row of labels: `labels[c]` (path index + 1, 0 for `.`), right-aligned, space-separated
/// when labels are wider than one character or the puzzle is written as numbers.
fn label_row(p: &Numberlink, path: &[u32], r: usize, style: Style) -> String {
    let w = label_width(p);
    let sep = if w > 1 || p.form != super::Form::Letters {
        " "
    } else {
        ""
    };
    let cells: Vec<String> = (0..p.width)
        .map(|c| {
            let k = path[r * p.width + c];
            let text = if k == 0 {
                ".".to_string()
            } else {
                p.labels[k as usize - 1].clone()
            };
            paint(&format!("{text:>w$}"), k, style)
        })
        .collect();
    cells.join(sep)
}

/// The puzzle: its ends' labels, `.` for the other cells.
pub fn puzzle(p: &Numberlink) -> String {
    let mut path = vec![0u32; p.cells()];
    for (k, &(a, b)) in p.ends.iter().enumerate() {
        path[a] = k as u32 + 1;
        path[b] = k as u32 + 1;
    }
    let mut out = String::new();
    for r in 0..p.height {
        out.push_str(&label_row(p, &path, r, Style::default()));
        out.push('\n');
    }
    out
}

/// The drawing of `arms` alone, one character per cell (`path` colours it).
pub fn drawing_row(p: &Numberlink, arms: &[u8], path: &[u32], r: usize, style: Style) -> String {
    (0..p.width)
        .map(|c| {
            let i = r * p.width + c;
            paint(&piece(arms[i]).to_string(), path[i], style)
        })
        .collect()
}

/// A solution: the grid of path labels, and beside it the drawing.
pub fn solution(p: &Numberlink, s: &Links, style: Style) -> String {
    let mut out = String::new();
    for r in 0..p.height {
        out.push_str(&label_row(p, &s.path, r, style));
        out.push_str("   ");
        out.push_str(&drawing_row(p, &s.arms, &s.path, r, style));
        out.push('\n');
    }
    if p.form == super::Form::Contest {
        out.push_str(&super::format::contest_answer(p, s));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_the_seed_example() {
        // The seed's 5x5 example: ends 7 3 / 9 1 3 / ... drawn as ╺━━┓╻ on the first row.
        let arms = [RIGHT, LEFT | RIGHT, LEFT | RIGHT, LEFT | DOWN, DOWN];
        let row: String = arms.iter().map(|&a| piece(a)).collect();
        assert_eq!(row, "╺━━┓╻");
        assert_eq!(piece(UP | DOWN), '┃');
        assert_eq!(piece(UP | RIGHT), '┗');
        assert_eq!(piece(UP | LEFT), '┛');
        assert_eq!(piece(UP), '╹');
        assert_eq!(piece(LEFT), '╸');
    }

    #[test]
    fn solution_beside_labels_and_colour_only_when_asked() {
        let mut p = Numberlink::new(2, 1, vec![(0, 1)]);
        p.labels = vec!["A".into()];
        p.form = super::super::Form::Letters;
        let s = Links {
            arms: vec![RIGHT, LEFT],
            path: vec![1, 1],
        };
        assert_eq!(solution(&p, &s, Style::default()), "AA   ╺╸\n");
        let coloured = solution(&p, &s, Style { color: true });
        assert!(coloured.contains("\x1b[31mA\x1b[0m"));
        assert_eq!(puzzle(&p), "AA\n");
    }
}
