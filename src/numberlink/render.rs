//! Drawing a Numberlink board as text: the puzzle as a grid of labels (`.` empty), a solution as
//! the grid of path labels beside the seed's drawing (paths `┏┓┗┛┃━`, ends `╸╹╺╻`), each path in
//! its own colour when the terminal allows.
//!
//! As a picture: each path's ends as discs in its colour with its label, and a solution's
//! paths as thick lines in the same colours; a step shades the cells it rests on, draws the
//! links known so far, its new links on green cells, and strikes out the paths it rules out.

use super::{Links, Numberlink, DOWN, LEFT, RIGHT, SIDES, UP};
use crate::draw::{Disc, Mark, Picture, Point, Slots, Tone, PATH_COLOURS};
use crate::explain::Step;
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

/// Each path's colour, chosen so that paths that touch differ. With a solution, two paths
/// touch when a cell of one is beside a cell of the other; without one (the puzzle, a step),
/// when the boxes around their two ends, grown by a cell, overlap. Paths with the most
/// neighbours choose first, each the colour fewest of its coloured neighbours have (among
/// those, the one used least so far, so the whole palette is used), where cycling through the
/// colours in label order put near-identical colours side by side on boards of many paths.
pub fn path_colours(p: &Numberlink, s: Option<&Links>) -> Vec<String> {
    let w = p.width;
    let n = p.ends.len();
    let mut touch = vec![vec![false; n]; n];
    match s {
        Some(s) => {
            let mut on = vec![usize::MAX; p.cells()];
            for (k, cells) in p.paths(s).iter().enumerate() {
                for &c in cells {
                    on[c] = k;
                }
            }
            for c in 0..p.cells() {
                for side in [RIGHT, DOWN] {
                    if let Some(m) = p.neighbour(c, side) {
                        let (a, b) = (on[c], on[m]);
                        if a != b && a < n && b < n {
                            touch[a][b] = true;
                            touch[b][a] = true;
                        }
                    }
                }
            }
        }
        None => {
            let boxes: Vec<[usize; 4]> = p
                .ends
                .iter()
                .map(|&(a, b)| {
                    let (ra, ca, rb, cb) = (a / w, a % w, b / w, b % w);
                    [
                        ra.min(rb).saturating_sub(1),
                        ra.max(rb) + 1,
                        ca.min(cb).saturating_sub(1),
                        ca.max(cb) + 1,
                    ]
                })
                .collect();
            for i in 0..n {
                for j in 0..n {
                    let (a, b) = (boxes[i], boxes[j]);
                    touch[i][j] =
                        i != j && a[0] <= b[1] && b[0] <= a[1] && a[2] <= b[3] && b[2] <= a[3];
                }
            }
        }
    }
    let degree = |i: usize| touch[i].iter().filter(|&&t| t).count();
    let mut order: Vec<usize> = (0..n).collect();
    crate::sort::by_key(&mut order, |&i| std::cmp::Reverse(degree(i)));
    let mut colour: Vec<usize> = vec![usize::MAX; n];
    let mut uses = [0usize; PATH_COLOURS.len()];
    for i in order {
        let mut near = [0usize; PATH_COLOURS.len()];
        for j in (0..n).filter(|&j| touch[i][j] && colour[j] != usize::MAX) {
            near[colour[j]] += 1;
        }
        let best = (0..near.len())
            .min_by_key(|&c| (near[c], uses[c]))
            .unwrap_or(0);
        colour[i] = best;
        uses[best] += 1;
    }
    colour
        .into_iter()
        .map(|c| PATH_COLOURS[c.min(PATH_COLOURS.len() - 1)].to_string())
        .collect()
}

/// The board with every path's two ends.
fn ends(p: &Numberlink, colours: &[String]) -> Picture {
    let mut pic = Picture::new(p.height, p.width);
    pic.outline(0, 0, p.height, p.width);
    for (k, &(a, b)) in p.ends.iter().enumerate() {
        for c in [a, b] {
            pic.push(Mark::Circle {
                row: c / p.width,
                col: c % p.width,
                disc: Disc::Colour(colours[k].clone()),
                label: Some(p.labels[k].clone()),
            });
        }
    }
    pic
}

/// The puzzle (`None`: its ends) or a solution (each path a line from end to end) as a picture.
pub fn picture(p: &Numberlink, s: Option<&Links>) -> Picture {
    picture_in(p, s, &path_colours(p, s))
}

/// [`picture`] with each path in the colour given (see [`path_colours`]).
pub fn picture_in(p: &Numberlink, s: Option<&Links>, colours: &[String]) -> Picture {
    let mut pic = ends(p, colours);
    if let Some(s) = s {
        for (k, cells) in p.paths(s).iter().enumerate() {
            pic.push(Mark::Path {
                points: cells
                    .iter()
                    .map(|&c| Point::centre(c / p.width, c % p.width))
                    .collect(),
                colour: colours[k].clone(),
            });
        }
    }
    pic
}

/// What a person has pencilled in: links (arm bits) and the path (index) of each cell.
struct Pencil {
    arms: Vec<u8>,
    path: Vec<Option<usize>>,
}

impl Pencil {
    fn link(&mut self, p: &Numberlink, a: usize, b: usize, k: Option<usize>) {
        for side in SIDES {
            if p.neighbour(a, side) == Some(b) {
                self.arms[a] |= side;
                self.arms[b] |= super::opposite(side);
            }
        }
        if k.is_some() {
            self.path[a] = k;
            self.path[b] = k;
        }
    }

    /// Applies a step as the engine did: its links (each with its path when known), then its
    /// placements (a cell on a path).
    fn apply(&mut self, p: &Numberlink, st: &Step) {
        for l in &st.links {
            let k = path_index(p, l.from.value).or_else(|| path_index(p, l.to.value));
            let at = |c: &crate::puzzle::CellValue| c.row * p.width + c.col;
            self.link(p, at(&l.from), at(&l.to), k);
        }
        for c in &st.placements {
            if let Some(k) = path_index(p, c.value) {
                self.path[c.row * p.width + c.col] = Some(k);
            }
        }
    }
}

/// The path index of a path number.
fn path_index(p: &Numberlink, number: i64) -> Option<usize> {
    p.numbers.iter().position(|&n| n as i64 == number)
}

/// One picture per step of a path from the ends, each showing the links drawn so far with the
/// step on them, then the board after the last step.
pub fn step_pictures(p: &Numberlink, steps: &[Step]) -> Vec<Picture> {
    let mut pencil = Pencil {
        arms: vec![0; p.cells()],
        path: vec![None; p.cells()],
    };
    for (k, &(a, b)) in p.ends.iter().enumerate() {
        pencil.path[a] = Some(k);
        pencil.path[b] = Some(k);
    }
    let mut out = Vec::with_capacity(steps.len() + 1);
    for st in steps {
        let mut next = Pencil {
            arms: pencil.arms.clone(),
            path: pencil.path.clone(),
        };
        next.apply(p, st);
        out.push(position(p, &next, &pencil, Some(st)));
        pencil = next;
    }
    out.push(position(p, &pencil, &pencil, None));
    out
}

/// The links of `now`; what is new since `before` is the step's and drawn on green cells;
/// cells known to be on a path but not yet linked show the path's label.
fn position(p: &Numberlink, now: &Pencil, before: &Pencil, step: Option<&Step>) -> Picture {
    let w = p.width;
    let colours = path_colours(p, None);
    let mut pic = ends(p, &colours);
    if let Some(st) = step {
        for c in &st.pattern {
            pic.push(Mark::Highlight {
                row: c.row,
                col: c.col,
                tone: Tone::Pattern,
            });
        }
        // The cells the step puts on a path, and those its new links join, are green.
        let drawn = st.links.iter().flat_map(|l| [&l.from, &l.to]);
        for c in st.placements.iter().chain(drawn) {
            pic.push(Mark::Highlight {
                row: c.row,
                col: c.col,
                tone: Tone::Placement,
            });
        }
        let slots = Slots::for_count(p.ends.len().clamp(1, 9));
        for (n, c) in st.eliminations.iter().enumerate() {
            let label = path_index(p, c.value).map_or(c.value.to_string(), |k| p.labels[k].clone());
            let before = st.eliminations[..n]
                .iter()
                .filter(|e| (e.row, e.col) == (c.row, c.col))
                .count();
            pic.push(Mark::Candidate {
                row: c.row,
                col: c.col,
                slot: before % (slots.rows * slots.cols),
                slots,
                text: label,
                tone: Some(Tone::Elimination),
                struck: true,
            });
        }
    }
    for c in 0..p.cells() {
        let Some(k) = now.path[c] else { continue };
        for side in [RIGHT, DOWN] {
            if now.arms[c] & side != 0 {
                let m = p.neighbour(c, side).expect("a link stays on the board");
                pic.push(Mark::Path {
                    points: vec![Point::centre(c / w, c % w), Point::centre(m / w, m % w)],
                    colour: colours[k].clone(),
                });
            }
        }
        let end = p.ends.iter().any(|&(a, b)| a == c || b == c);
        if now.arms[c] == 0 && !end {
            pic.push(Mark::Candidate {
                row: c / w,
                col: c % w,
                slot: 0,
                slots: Slots { rows: 1, cols: 1 },
                text: p.labels[k].clone(),
                tone: (before.path[c].is_none()).then_some(Tone::Placement),
                struck: false,
            });
        }
    }
    pic
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

    #[test]
    fn touching_paths_get_different_colours() {
        // 17 paths side by side, each a column of a 17x2 board; path 16 stands beside path 0,
        // which cycling through the 16 colours in label order would paint alike.
        let columns: Vec<usize> = std::iter::once(0).chain(2..17).chain([1]).collect();
        let ends: Vec<(usize, usize)> = columns.iter().map(|&c| (c, 17 + c)).collect();
        let mut p = Numberlink::new(17, 2, ends.clone());
        // In this order (new() sorts the paths by where they start).
        p.ends = ends;
        let s = Links {
            arms: [vec![DOWN; 17], vec![UP; 17]].concat(),
            path: (0..34)
                .map(|c| columns.iter().position(|&k| k == c % 17).unwrap() as u32 + 1)
                .collect(),
        };
        let colours = path_colours(&p, Some(&s));
        for c in 0..16 {
            let (a, b) = (s.path[c] as usize - 1, s.path[c + 1] as usize - 1);
            assert_ne!(colours[a], colours[b], "columns {c} and {}", c + 1);
        }
        // Without the solution the ends' boxes say the same here.
        assert_ne!(path_colours(&p, None)[0], path_colours(&p, None)[16]);
    }
}
