//! Drawing boards and plans for a terminal: each tile's face, `.` for an empty cell, and a
//! move's line drawn over the empty cells and the ring with box-drawing characters
//! (`─│┌┐└┘`). Ring rows are drawn only when a line uses them; the ring's columns are always
//! there (blank), so the board does not shift from move to move. Pictures ([`picture`],
//! [`step_pictures`]) draw the same on the shared vocabulary of [`crate::draw`]: tiles, the
//! move's line through the ring, its two tiles highlighted.

use super::pair::{join, Grid, Point};
use super::play::Position;
use super::rules::fall;
use super::{Plan, Shisen};
use crate::draw::{path_colour, Mark, Picture, Point as DrawPoint, Slots, Tone};
use crate::explain::Step;
use crate::puzzle::Style;

const PATH_COLOUR: &str = "\x1b[1;36m";
const TILE_COLOUR: &str = "\x1b[1;33m";
const RESET: &str = "\x1b[0m";

/// The piece of a line at `points[i]`: the directions to its neighbours on the line.
fn piece(points: &[Point], i: usize) -> char {
    let p = points[i];
    let dir = |q: Point| (q.0 - p.0, q.1 - p.1);
    let mut ds: Vec<(i64, i64)> = Vec::new();
    if i > 0 {
        ds.push(dir(points[i - 1]));
    }
    if i + 1 < points.len() {
        ds.push(dir(points[i + 1]));
    }
    let has = |d: (i64, i64)| ds.contains(&d);
    match (has((-1, 0)), has((1, 0)), has((0, -1)), has((0, 1))) {
        (true, true, _, _) | (true, false, false, false) | (false, true, false, false) => '│',
        (_, _, true, true) | (false, false, _, _) => '─',
        (false, true, false, true) => '┌',
        (false, true, true, false) => '┐',
        (true, false, false, true) => '└',
        (true, false, true, false) => '┘',
    }
}

/// A board: `faces` per cell now (row-major), with `line` drawn over it (`ends` marked when
/// colours are on).
fn draw(
    p: &Shisen,
    faces: &[Option<usize>],
    line: &[Point],
    ends: &[(usize, usize)],
    style: Style,
) -> String {
    let (w, h) = (p.width as i64, p.height as i64);
    let cw = p
        .faces
        .iter()
        .map(|f| f.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
    let on_line = |q: Point| line.iter().position(|&x| x == q);
    let linked_right = |q: Point| match on_line(q) {
        Some(i) => {
            let r = (q.0, q.1 + 1);
            (i > 0 && line[i - 1] == r) || (i + 1 < line.len() && line[i + 1] == r)
        }
        None => false,
    };
    let ring = p.rules.outline;
    let (lo_c, hi_c) = if ring { (-1, w) } else { (0, w - 1) };
    let mut out = String::new();
    for r in -1..=h {
        let is_ring_row = r < 0 || r >= h;
        if is_ring_row && !(ring && line.iter().any(|q| q.0 == r)) {
            continue;
        }
        let mut s = String::new();
        for c in lo_c..=hi_c {
            let q = (r, c);
            let inside = r >= 0 && c >= 0 && r < h && c < w;
            let tile = if inside {
                faces[(r * w + c) as usize]
            } else {
                None
            };
            let right = linked_right(q);
            let fill = if right { '─' } else { ' ' };
            match (tile, on_line(q)) {
                (Some(f), _) => {
                    let name = &p.faces[f];
                    let pad = cw - name.chars().count();
                    let end = ends.contains(&(r as usize, c as usize));
                    if style.color && end {
                        s.push_str(TILE_COLOUR);
                        s.push_str(name);
                        s.push_str(RESET);
                    } else {
                        s.push_str(name);
                    }
                    if style.color && right {
                        s.push_str(PATH_COLOUR);
                    }
                    s.extend(std::iter::repeat_n(fill, pad + 1));
                    if style.color && right {
                        s.push_str(RESET);
                    }
                }
                (None, Some(i)) => {
                    if style.color {
                        s.push_str(PATH_COLOUR);
                    }
                    s.push(piece(line, i));
                    s.extend(std::iter::repeat_n(fill, cw));
                    if style.color {
                        s.push_str(RESET);
                    }
                }
                (None, None) => {
                    s.push(if inside { '.' } else { ' ' });
                    s.extend(std::iter::repeat_n(' ', cw));
                }
            }
        }
        out.push_str(s.trim_end());
        out.push('\n');
    }
    out
}

/// The board as given.
pub fn board(p: &Shisen) -> String {
    draw(p, &p.cells, &[], &[], Style::default())
}

/// A plan: each move's line drawn over the board as it is just before the move.
pub fn plan(p: &Shisen, plan: &Plan, style: Style) -> String {
    let w = p.width;
    let mut faces = p.cells.clone();
    let mut out = String::new();
    for (k, m) in plan.moves.iter().enumerate() {
        out.push_str(&format!("move {}: {}\n", k + 1, p.move_name(m)));
        out.push_str(&draw(p, &faces, &m.path, &m.cells, style));
        for &(r, c) in &m.cells {
            faces[r * w + c] = None;
        }
        if p.rules.gravity {
            fall(&mut faces, w, m.cells[0].1);
            fall(&mut faces, w, m.cells[1].1);
        }
    }
    if plan.moves.is_empty() {
        out.push_str("nothing to clear\n");
    }
    out
}

/// Pictures ([`crate::draw`]): the board's tiles (with the ring around it kept free for lines
/// when the outline is allowed), and for a plan each tile's move number in its corner.
pub fn picture(p: &Shisen, plan: Option<&Plan>) -> Picture {
    let at: Vec<Option<usize>> = (0..p.cells_len()).map(|c| p.cells[c].map(|_| c)).collect();
    let mut pic = tiles(p, &at, &[]);
    if let Some(plan) = plan {
        let w = p.width;
        let slots = Slots { rows: 3, cols: 3 };
        for (k, m) in plan.moves.iter().enumerate() {
            for &t in &m.tiles {
                pic.push(Mark::Candidate {
                    row: t / w,
                    col: t % w,
                    slot: 8,
                    slots,
                    text: (k + 1).to_string(),
                    tone: None,
                    struck: false,
                });
            }
        }
    }
    pic
}

/// One picture per move of an explanation: the tiles left before it, the move's two tiles
/// highlighted and its line drawn (found again with the seed's pair test on that position),
/// then the empty board after the last move.
pub fn step_pictures(p: &Shisen, steps: &[Step]) -> Vec<Picture> {
    let w = p.width;
    let mut pos = Position::start(p);
    let mut out = Vec::with_capacity(steps.len() + 1);
    for st in steps {
        let cells: Vec<(usize, usize)> = st.pattern.iter().map(|c| (c.row, c.col)).collect();
        let mut pic = tiles(p, &pos.at, &cells);
        if let [a, b] = cells[..] {
            let occupied: Vec<bool> = pos.at.iter().map(|t| t.is_some()).collect();
            let grid = Grid {
                width: w,
                height: p.height,
                outline: p.rules.outline,
                occupied: &occupied,
            };
            if let Some(line) = join(&grid, a, b) {
                let mut points: Vec<DrawPoint> = line
                    .iter()
                    .map(|&(r, c)| DrawPoint::centre_of(r as isize, c as isize))
                    .collect();
                // The line starts and ends at the tiles' edges, so their faces stay readable.
                let n = points.len();
                let edge = |from: DrawPoint, to: DrawPoint| DrawPoint {
                    x: from.x + (to.x - from.x) * 0.45,
                    y: from.y + (to.y - from.y) * 0.45,
                };
                let (first, last) = (
                    edge(points[0], points[1]),
                    edge(points[n - 1], points[n - 2]),
                );
                points[0] = first;
                points[n - 1] = last;
                pic.push(Mark::Path {
                    points,
                    colour: path_colour(2),
                });
            }
            pos.remove(p, a.0 * w + a.1, b.0 * w + b.1);
        }
        out.push(pic.with_caption(st.text.clone()));
    }
    out.push(tiles(p, &pos.at, &[]));
    out
}

/// The face of a Unicode mahjong tile (U+1F000 to U+1F02B) as the bundled fonts can draw it,
/// which have no mahjong glyphs: its number or letter, the suit's word, the suit's colour. So a
/// face reads the same in SVG, PNG and PDF (and a season still differs from a flower).
pub fn mahjong_face(name: &str) -> Option<(String, &'static str, &'static str)> {
    let mut chars = name.chars().filter(|&c| c != '\u{FE0F}');
    let k = (chars.next()? as u32).checked_sub(0x1F000)? as usize;
    if chars.next().is_some() {
        return None;
    }
    let rank = |first: usize| (k - first + 1).to_string();
    Some(match k {
        0..=3 => (["E", "S", "W", "N"][k].to_string(), "wind", "#1f3a6b"),
        4 => ("D".to_string(), "red", "#c0392b"),
        5 => ("D".to_string(), "green", "#1e7b34"),
        6 => ("D".to_string(), "white", "#5a6b7d"),
        7..=15 => (rank(7), "wan", "#b22222"),
        16..=24 => (rank(16), "bam", "#1e7b34"),
        25..=33 => (rank(25), "dot", "#1f4e9c"),
        34..=37 => (rank(34), "flower", "#8e24aa"),
        38..=41 => (rank(38), "season", "#c25a00"),
        42 => ("J".to_string(), "joker", "#3b2f1e"),
        43 => ("?".to_string(), "back", "#3b2f1e"),
        _ => return None,
    })
}

/// The mark of a tile named `name` in a cell (a mahjong tile drawn by [`mahjong_face`], any
/// other name as it is written).
pub fn tile(row: usize, col: usize, name: &str, tone: Option<Tone>) -> Mark {
    let (label, note, ink) = match mahjong_face(name) {
        Some((rank, suit, ink)) => (rank, suit.to_string(), Some(ink.to_string())),
        None => (name.to_string(), String::new(), None),
    };
    Mark::Tile {
        row,
        col,
        label,
        note,
        ink,
        tone,
    }
}

/// The tiles standing (`at`: the tile in each cell, by its starting cell), those in `marked`
/// highlighted as a step's pattern.
fn tiles(p: &Shisen, at: &[Option<usize>], marked: &[(usize, usize)]) -> Picture {
    let w = p.width;
    let mut pic = Picture::new(p.height, w);
    pic.ring = usize::from(p.rules.outline);
    for (c, t) in at.iter().enumerate() {
        if let Some(t) = *t {
            let (row, col) = (c / w, c % w);
            let tone = marked.contains(&(row, col)).then_some(Tone::Pattern);
            pic.push(tile(row, col, p.face_name(t), tone));
        }
    }
    pic
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shisen::format::{parse, ReadOptions};
    use crate::shisen::model::plan_of;

    fn board_of(text: &str) -> Shisen {
        parse("t", text, &ReadOptions::default()).unwrap().remove(0)
    }

    #[test]
    fn mahjong_tiles_are_drawn_with_faces_the_fonts_have() {
        assert_eq!(mahjong_face("🀄"), Some(("D".into(), "red", "#c0392b")));
        assert_eq!(mahjong_face("🀇").unwrap().0, "1");
        assert_eq!(mahjong_face("🀏").unwrap().0, "9");
        assert_eq!(mahjong_face("🀡").unwrap(), ("9".into(), "dot", "#1f4e9c"));
        assert_eq!(mahjong_face("🀦").unwrap().1, "season");
        assert_eq!(mahjong_face("🀢").unwrap().1, "flower");
        assert_eq!(mahjong_face("A"), None);
        assert_eq!(mahjong_face("🀄🀄"), None);
        // Every face of the mahjong board is drawn in letters the bundled fonts have.
        let board = board_of(include_str!("../../puzzles/shisen/mahjong.shisen"));
        let svg = crate::draw::layout::single(&picture(&board, None)).to_svg();
        assert!(!svg.contains('🀄'), "{svg}");
        assert!(
            svg.contains(">season<") && svg.contains(">flower<"),
            "{svg}"
        );
    }

    #[test]
    fn a_line_over_the_ring_is_drawn_with_its_corners() {
        let p = board_of("A B A\nC B C\n");
        // The A's first, over the top ring; then the B's; then the C's through the gap.
        let plan = plan_of(&p, &[(0, 2), (1, 4), (3, 5)]);
        let text = super::plan(&p, &plan, Style::default());
        let expected = "\
move 1: A r1c1-r1c3
  ┌───┐
  A B A
  C B C
move 2: B r1c2-r2c2
  . B .
  C B C
move 3: C r2c1-r2c3
  . . .
  C───C
";
        assert_eq!(text, expected);
        assert_eq!(board(&p), "  A B A\n  C B C\n");
    }
}
