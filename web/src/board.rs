//! The board the setter edits: the draft drawn by its kind's own picture (or, while the draft is
//! not yet a puzzle the reader accepts, by the same vocabulary from its cells), with what the
//! page lays over it: the cursor, cells two solutions differ in, conflicting givens, true
//! candidate counts, selected Shisen-sho tiles and a removal's line. Also the other way: which
//! cell a click on the picture hit ([`hit`]).

use crate::draft::Draft;
use gridsat::draw::{
    layout, path_colour, svg as svgw, Disc, Ink, Look, Mark, Picture, Point, Slots, Tone,
};
use gridsat::kinds::AnyPuzzle;
use gridsat::puzzle::{Kind, Puzzle};
use gridsat::with_puzzle;
use serde::Deserialize;

/// What the page lays over the board.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Overlay {
    /// The selected cell.
    pub cursor: Option<(usize, usize)>,
    /// Cells where two solutions differ.
    pub differ: Vec<(usize, usize)>,
    /// Givens that take part in a conflict.
    pub conflict: Vec<(usize, usize)>,
    /// How many values some solution puts in each cell (0 for a given), drawn small.
    pub counts: Option<Vec<Vec<i64>>>,
    /// Shisen-sho: tiles picked.
    pub selected: Vec<(usize, usize)>,
    /// Shisen-sho: the line of the last removal (row, column; -1 and the size are the ring).
    pub path: Vec<(i64, i64)>,
}

/// The draft's picture: its puzzle's (`parsed`, when the reader accepts it) or one drawn from
/// its cells.
pub fn picture(d: &Draft, parsed: Option<&AnyPuzzle>) -> Picture {
    match parsed {
        Some(p) => {
            with_puzzle!(p, q => q.picture(None, Look::default())).unwrap_or_else(|| plain(d))
        }
        None => plain(d),
    }
}

/// A draft the reader does not accept yet, drawn from its cells in each kind's manner.
fn plain(d: &Draft) -> Picture {
    let kind = d.kind().unwrap_or(Kind::Sudoku);
    let (w, h) = (d.width, d.height);
    let mut pic = Picture::new(h, w);
    match kind {
        Kind::Sudoku => {
            let (br, bc) = crate::draft::read_options(&d.flags)
                .ok()
                .and_then(|o| o.box_shape)
                .or_else(|| gridsat::sudoku::default_box(w))
                .unwrap_or((1, w));
            pic.region_borders(|r, c| (r / br) * w + c / bc.max(1));
        }
        Kind::Tectonic => {
            let pieces = d.pieces.clone();
            pic.region_borders(move |r, c| pieces.get(r * w + c).copied().unwrap_or(0));
        }
        // The ring around the board is kept for lines, as the kind's own pictures keep it.
        Kind::Shisen => pic.ring = usize::from(!d.flags.contains_key("no-outline")),
        _ => pic.outline(0, 0, h, w),
    }
    let mut labels: Vec<&str> = Vec::new();
    for (i, t) in d.cells.iter().enumerate() {
        if t.is_empty() {
            continue;
        }
        let (row, col) = (i / w, i % w);
        match kind {
            Kind::Numberlink => {
                let k = labels.iter().position(|l| l == t).unwrap_or_else(|| {
                    labels.push(t);
                    labels.len() - 1
                });
                pic.push(Mark::Circle {
                    row,
                    col,
                    disc: Disc::Colour(path_colour(k)),
                    label: Some(t.clone()),
                });
            }
            Kind::Shisen => pic.push(gridsat::shisen::render::tile(row, col, t, None)),
            _ => pic.push(Mark::Digit {
                row,
                col,
                text: t.clone(),
                ink: Ink::Given,
            }),
        }
    }
    pic
}

/// The picture with the overlay on it.
pub fn overlaid(d: &Draft, parsed: Option<&AnyPuzzle>, o: &Overlay) -> Picture {
    let mut pic = picture(d, parsed);
    let inside = |&(r, c): &(usize, usize)| r < d.height && c < d.width;
    for (cells, tone) in [(&o.differ, Tone::Differ), (&o.conflict, Tone::Conflict)] {
        for &(row, col) in cells.iter().filter(|c| inside(c)) {
            pic.marks.insert(1, Mark::Highlight { row, col, tone });
        }
    }
    if let Some(counts) = &o.counts {
        let slots = Slots { rows: 3, cols: 3 };
        for (row, line) in counts.iter().enumerate().take(d.height) {
            for (col, &n) in line.iter().enumerate().take(d.width) {
                if n > 0 && d.cells[row * d.width + col].is_empty() {
                    pic.push(Mark::Candidate {
                        row,
                        col,
                        slot: 0,
                        slots,
                        text: n.to_string(),
                        tone: (n == 1).then_some(Tone::Placement),
                        struck: false,
                    });
                }
            }
        }
    }
    for &(row, col) in o.selected.iter().filter(|c| inside(c)) {
        // A picked tile is drawn again on top, in the pattern's tone.
        let name = &d.cells[row * d.width + col];
        pic.push(gridsat::shisen::render::tile(
            row,
            col,
            name,
            Some(Tone::Pattern),
        ));
    }
    if o.path.len() >= 2 {
        pic.push(Mark::Path {
            points: o
                .path
                .iter()
                .map(|&(r, c)| Point::centre_of(r as isize, c as isize))
                .collect(),
            colour: "#d62728".into(),
        });
    }
    pic
}

/// The board's SVG with the overlay, and the cursor as a frame around its cell.
pub fn svg(d: &Draft, o: &Overlay, parsed: &AnyPuzzle) -> String {
    svg_of(d, o, Some(parsed))
}

/// [`svg`] for a draft that may not be a puzzle yet.
pub fn svg_of(d: &Draft, o: &Overlay, parsed: Option<&AnyPuzzle>) -> String {
    let pic = overlaid(d, parsed, o);
    let mut s = layout::single(&pic).to_svg();
    if let Some((row, col)) = o.cursor.filter(|&(r, c)| r < d.height && c < d.width) {
        let (ox, oy) = svgw::board_origin(&pic);
        let cell = svgw::CELL;
        let frame = format!(
            r##"<rect class="cursor" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#1f6feb" stroke-width="4" rx="3"/>
"##,
            svgw::num(ox + col as f64 * cell + 2.0),
            svgw::num(oy + row as f64 * cell + 2.0),
            svgw::num(cell - 4.0),
            svgw::num(cell - 4.0)
        );
        if let Some(end) = s.rfind("</svg>") {
            s.insert_str(end, &frame);
        }
    }
    s
}

/// The cell a point of the board's SVG (in its own units) falls in, with which side of the cell
/// it is nearest to (`up`, `down`, `left`, `right`) and how near (0 at the edge, 0.5 at the
/// centre). Cells of Shisen-sho's ring count as off the board (`None`).
pub fn hit(d: &Draft, parsed: Option<&AnyPuzzle>, x: f64, y: f64) -> Option<serde_json::Value> {
    let pic = picture(d, parsed);
    let ((row, col), (fx, fy)) = svgw::cell_at(&pic, x, y)?;
    if row < 0 || col < 0 || row as usize >= d.height || col as usize >= d.width {
        return None;
    }
    let sides = [
        ("left", fx),
        ("right", 1.0 - fx),
        ("up", fy),
        ("down", 1.0 - fy),
    ];
    let (side, near) = sides
        .iter()
        .copied()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap_or(("left", 0.5));
    Some(serde_json::json!({ "row": row, "col": col, "side": side, "edge": near }))
}
