//! The SVG text of a [`Picture`]: its marks as SVG elements in one group, in layers, with a
//! caption wrapped under the board. Every element carries a class saying what it is (`digit
//! given`, `candidate elimination`, `path`, `link strong`...), so a picture can be styled and
//! tested. Sizes are in SVG units, [`CELL`] to a cell; [`crate::draw::layout`] places pictures
//! on a sheet.

use super::{Disc, Ink, Mark, Picture, Point, Tone};
use std::fmt::Write;

/// SVG units per cell.
pub const CELL: f64 = 40.0;
/// Room around the board.
pub const PAD: f64 = 12.0;
/// The caption's font size and line height.
pub const CAPTION_SIZE: f64 = 14.0;
const CAPTION_LINE: f64 = 18.0;
/// The widest a picture grows to hold a long caption.
const CAPTION_WIDTH: f64 = 420.0;
/// About how wide a character of the font is, in ems (to wrap captions).
const CHAR_EM: f64 = 0.58;

/// The fonts named in every SVG: the one bundled for PNG and PDF first.
pub const FONT_FAMILY: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// A number for SVG: at most two decimals, no trailing zeros.
pub fn num(x: f64) -> String {
    let s = format!("{:.2}", x);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// Text made safe inside an XML element or attribute.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if (c as u32) < 0x20 && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The background colour of a highlighted cell.
fn cell_fill(t: Tone) -> &'static str {
    match t {
        Tone::Pattern => "#fff1a0",
        Tone::Placement => "#c6efc6",
        Tone::Elimination => "#ffd0d0",
        Tone::Given => "#e2e2e2",
        Tone::Differ => "#ffd59e",
        Tone::Conflict => "#ff9c9c",
    }
}

/// The colour of the disc behind a pencil mark.
fn candidate_fill(t: Tone) -> &'static str {
    match t {
        Tone::Pattern => "#a9cdff",
        Tone::Placement => "#7fd67f",
        Tone::Elimination => "#ff9a9a",
        Tone::Given => "#d0d0d0",
        Tone::Differ => "#ffc070",
        Tone::Conflict => "#ff7070",
    }
}

fn ink_colour(i: Ink) -> &'static str {
    match i {
        Ink::Given => "#000000",
        Ink::Solved => "#1f5fbf",
        Ink::Placed => "#137a2b",
    }
}

const LINK_COLOUR: &str = "#c2185b";
const STRIKE_COLOUR: &str = "#b00020";

/// Greedy word wrap to lines of at most `max` characters (a longer word stands alone).
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The board's size in SVG units, ring and padding included.
fn board_size(p: &Picture) -> (f64, f64) {
    let r = 2.0 * p.ring as f64;
    (
        (p.cols as f64 + r) * CELL + 2.0 * PAD,
        (p.rows as f64 + r) * CELL + 2.0 * PAD,
    )
}

/// The caption's lines and the width they are wrapped to.
fn caption_lines(p: &Picture) -> (Vec<String>, f64) {
    if p.caption.trim().is_empty() {
        return (Vec::new(), board_size(p).0);
    }
    let (bw, _) = board_size(p);
    let want = p.caption.chars().count() as f64 * CAPTION_SIZE * CHAR_EM + 2.0 * PAD;
    let width = bw.max(want.min(CAPTION_WIDTH));
    let max = ((width - 2.0 * PAD) / (CAPTION_SIZE * CHAR_EM))
        .floor()
        .max(8.0) as usize;
    (wrap(&p.caption, max), width)
}

/// The size of a picture in SVG units, caption included.
pub fn size(p: &Picture) -> (f64, f64) {
    let (_, bh) = board_size(p);
    let (lines, width) = caption_lines(p);
    let caption = if lines.is_empty() {
        0.0
    } else {
        lines.len() as f64 * CAPTION_LINE + 4.0
    };
    (width, bh + caption)
}

/// Where the board's top-left corner lies in a picture drawn by [`group`] at (0, 0), scale 1
/// (what [`crate::draw::layout::single`] draws), in SVG units.
pub fn board_origin(p: &Picture) -> (f64, f64) {
    let (width, _) = size(p);
    let (bw, _) = board_size(p);
    (
        (width - bw) / 2.0 + PAD + p.ring as f64 * CELL,
        PAD + p.ring as f64 * CELL,
    )
}

/// The cell (row, column) under a point of a picture drawn as [`board_origin`] says, and how
/// far into it the point lies (0 to 1 across and down): what a click on the board hit. Cells of
/// the ring around the board have negative coordinates or coordinates past the board's size;
/// `None` beyond the ring.
pub fn cell_at(p: &Picture, x: f64, y: f64) -> Option<((isize, isize), (f64, f64))> {
    let (ox, oy) = board_origin(p);
    let (fx, fy) = ((x - ox) / CELL, (y - oy) / CELL);
    let (col, row) = (fx.floor(), fy.floor());
    let ring = p.ring as f64;
    let inside = |v: f64, n: usize| v >= -ring && v < n as f64 + ring;
    (inside(row, p.rows) && inside(col, p.cols))
        .then_some(((row as isize, col as isize), (fx - col, fy - row)))
}

/// Appends the picture's elements to `out` as one group drawn at (`x`, `y`), scaled by `scale`.
pub fn group(out: &mut String, p: &Picture, x: f64, y: f64, scale: f64) {
    let (width, _) = size(p);
    let (bw, bh) = board_size(p);
    // The board is centred when a long caption makes the picture wider than it.
    let ox = (width - bw) / 2.0 + PAD + p.ring as f64 * CELL;
    let oy = PAD + p.ring as f64 * CELL;
    let _ = writeln!(
        out,
        r#"<g class="picture" transform="translate({} {}) scale({})">"#,
        num(x),
        num(y),
        num(scale)
    );
    let _ = writeln!(
        out,
        r#"<g class="board" transform="translate({} {})">"#,
        num(ox),
        num(oy)
    );
    board(out, p);
    out.push_str("</g>\n");
    let (lines, _) = caption_lines(p);
    for (k, line) in lines.iter().enumerate() {
        let _ = writeln!(
            out,
            r##"<text class="caption" x="{}" y="{}" font-size="{}" text-anchor="middle" fill="#000000">{}</text>"##,
            num(width / 2.0),
            num(bh + CAPTION_SIZE + k as f64 * CAPTION_LINE),
            num(CAPTION_SIZE),
            escape(line)
        );
    }
    out.push_str("</g>\n");
}

/// The board's marks, in layers, in board coordinates (units; origin at the top-left corner).
fn board(out: &mut String, p: &Picture) {
    let c = |v: f64| num(v * CELL);
    // 1. highlights
    for m in &p.marks {
        if let Mark::Highlight { row, col, tone } = m {
            let _ = writeln!(
                out,
                r#"<rect class="highlight {}" x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
                tone.name(),
                c(*col as f64),
                c(*row as f64),
                num(CELL),
                num(CELL),
                cell_fill(*tone)
            );
        }
    }
    // 2. tiles
    for m in &p.marks {
        if let Mark::Tile {
            row,
            col,
            label,
            note,
            ink,
            tone,
        } = m
        {
            let inset = 0.06;
            // A tile covers its cell: a highlight of the cell (the cells where two solutions
            // differ) colours the tile itself, not only the rim around it.
            let tone = tone.or_else(|| {
                p.marks.iter().find_map(|h| match h {
                    Mark::Highlight {
                        row: r,
                        col: k,
                        tone,
                    } if r == row && k == col => Some(*tone),
                    _ => None,
                })
            });
            let fill = tone.map_or("#fbf3dc", cell_fill);
            let class = tone.map_or("tile".to_string(), |t| format!("tile {}", t.name()));
            let _ = writeln!(
                out,
                r##"<rect class="{}" x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{}" stroke="#7a6a50" stroke-width="1.5"/>"##,
                class,
                c(*col as f64 + inset),
                c(*row as f64 + inset),
                c(1.0 - 2.0 * inset),
                c(1.0 - 2.0 * inset),
                c(0.12),
                fill
            );
            let ink = ink.as_deref().unwrap_or("#3b2f1e");
            let centre = Point::centre(*row, *col);
            if note.is_empty() {
                let size = fit(label, 0.42, 0.8);
                text(out, "tile-label", centre, size, ink, false, label);
            } else {
                // The note above (clear of the move number in the bottom-right corner), the
                // label a little below the middle.
                let above = Point {
                    y: centre.y - 0.25,
                    ..centre
                };
                text(
                    out,
                    "tile-note",
                    above,
                    fit(note, 0.17, 0.8),
                    ink,
                    false,
                    note,
                );
                let below = Point {
                    y: centre.y + 0.08,
                    ..centre
                };
                text(
                    out,
                    "tile-label",
                    below,
                    fit(label, 0.42, 0.8),
                    ink,
                    true,
                    label,
                );
            }
        }
    }
    // 3. the grid
    if p.marks.iter().any(|m| matches!(m, Mark::Grid)) {
        let mut d = String::new();
        for r in 0..=p.rows {
            let _ = write!(d, "M0 {}H{}", c(r as f64), c(p.cols as f64));
        }
        for k in 0..=p.cols {
            let _ = write!(d, "M{} 0V{}", c(k as f64), c(p.rows as f64));
        }
        let _ = writeln!(
            out,
            r##"<path class="grid" d="{d}" fill="none" stroke="#9a9a9a" stroke-width="1"/>"##
        );
    }
    // 4. thick borders
    let mut d = String::new();
    for m in &p.marks {
        if let Mark::Border { from, to } = m {
            let _ = write!(
                d,
                "M{} {}L{} {}",
                c(from.1 as f64),
                c(from.0 as f64),
                c(to.1 as f64),
                c(to.0 as f64)
            );
        }
    }
    if !d.is_empty() {
        let _ = writeln!(
            out,
            r##"<path class="border" d="{d}" fill="none" stroke="#000000" stroke-width="3" stroke-linecap="square"/>"##
        );
    }
    // 5. paths
    for m in &p.marks {
        if let Mark::Path { points, colour } = m {
            let pts: Vec<String> = points
                .iter()
                .map(|q| format!("{},{}", c(q.x), c(q.y)))
                .collect();
            let _ = writeln!(
                out,
                r#"<polyline class="path" points="{}" fill="none" stroke="{}" stroke-width="{}" stroke-linecap="round" stroke-linejoin="round"/>"#,
                pts.join(" "),
                escape(colour),
                c(0.3)
            );
        }
    }
    // 6. circles
    for m in &p.marks {
        if let Mark::Circle {
            row,
            col,
            disc,
            label,
        } = m
        {
            let q = Point::centre(*row, *col);
            let (class, fill, rim, ink) = match disc {
                Disc::Black => ("disc black", "#111111".to_string(), "1", "#ffffff"),
                Disc::White => ("disc white", "#ffffff".to_string(), "1", "#111111"),
                Disc::Colour(col) => ("end", escape(col), "0.45", "#ffffff"),
            };
            let _ = writeln!(
                out,
                r##"<circle class="{class}" cx="{}" cy="{}" r="{}" fill="{fill}" stroke="#111111" stroke-opacity="{rim}" stroke-width="2"/>"##,
                c(q.x),
                c(q.y),
                c(0.38)
            );
            if let Some(l) = label {
                let size = fit(l, 0.42, 0.62);
                text(out, "label", q, size, ink, true, l);
            }
        }
    }
    // 7. candidates
    for m in &p.marks {
        if let Mark::Candidate {
            row,
            col,
            slot,
            slots,
            text: t,
            tone,
            struck,
        } = m
        {
            let q = Point::slot(*row, *col, *slot, *slots);
            let h = 1.0 / slots.rows.max(slots.cols) as f64;
            let size = fit(t, (0.8 * h).min(0.32), 0.8 / slots.cols as f64);
            if let Some(tone) = tone {
                let _ = writeln!(
                    out,
                    r#"<circle class="candidate-mark {}" cx="{}" cy="{}" r="{}" fill="{}"/>"#,
                    tone.name(),
                    c(q.x),
                    c(q.y),
                    c(0.46 * h),
                    candidate_fill(*tone)
                );
            }
            let class = match (tone, struck) {
                (_, true) => "candidate struck".to_string(),
                (Some(t), false) => format!("candidate {}", t.name()),
                (None, false) => "candidate".to_string(),
            };
            let ink = if *struck { STRIKE_COLOUR } else { "#333333" };
            text(out, &class, q, size, ink, false, t);
            if *struck {
                let r = 0.4 * h;
                let _ = writeln!(
                    out,
                    r#"<line class="strike" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{STRIKE_COLOUR}" stroke-width="{}" stroke-linecap="round"/>"#,
                    c(q.x - r),
                    c(q.y + r),
                    c(q.x + r),
                    c(q.y - r),
                    num((CELL * h * 0.08).max(1.2))
                );
            }
        }
    }
    // 8. digits
    for m in &p.marks {
        if let Mark::Digit {
            row,
            col,
            text: t,
            ink,
        } = m
        {
            let size = fit(t, 0.62, 0.74);
            let bold = *ink != Ink::Solved;
            text(
                out,
                &format!("digit {}", ink.name()),
                Point::centre(*row, *col),
                size,
                ink_colour(*ink),
                bold,
                t,
            );
        }
    }
    // 9. links
    for m in &p.marks {
        if let Mark::Link { from, to, strong } = m {
            let (dx, dy) = (to.x - from.x, to.y - from.y);
            let len = (dx * dx + dy * dy).sqrt();
            if len == 0.0 {
                continue;
            }
            // Ends stop short of the candidates; the line bows a little to the side so links
            // along a row or column do not run through the marks between.
            let cut = (0.12 / len).min(0.4);
            let (a, b) = (
                Point {
                    x: from.x + dx * cut,
                    y: from.y + dy * cut,
                },
                Point {
                    x: to.x - dx * cut,
                    y: to.y - dy * cut,
                },
            );
            let bow = (0.18 * len).min(0.6);
            let mid = Point {
                x: (a.x + b.x) / 2.0 - dy / len * bow,
                y: (a.y + b.y) / 2.0 + dx / len * bow,
            };
            let dash = if *strong {
                ""
            } else {
                r#" stroke-dasharray="5 4""#
            };
            let _ = writeln!(
                out,
                r#"<path class="link {}" d="M{} {}Q{} {} {} {}" fill="none" stroke="{LINK_COLOUR}" stroke-width="2"{dash}/>"#,
                if *strong { "strong" } else { "weak" },
                c(a.x),
                c(a.y),
                c(mid.x),
                c(mid.y),
                c(b.x),
                c(b.y)
            );
        }
    }
}

/// A font size (in cells) for `t`: `size`, smaller when the text would be wider than `width`.
fn fit(t: &str, size: f64, width: f64) -> f64 {
    let n = t.chars().count().max(1) as f64;
    size.min(width / (n * 0.64))
}

/// A line of text centred on `at` (board coordinates in cells), `size` in cells.
fn text(out: &mut String, class: &str, at: Point, size: f64, fill: &str, bold: bool, t: &str) {
    let weight = if bold { r#" font-weight="bold""# } else { "" };
    // The baseline sits about 0.36 em below the middle of digits and capitals.
    let _ = writeln!(
        out,
        r#"<text class="{class}" x="{}" y="{}" font-size="{}" text-anchor="middle" fill="{fill}"{weight}>{}</text>"#,
        num(at.x * CELL),
        num((at.y + 0.36 * size) * CELL),
        num(size * CELL),
        escape(t)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_names_the_cell_under_it() {
        let mut p = Picture::new(3, 4);
        let (ox, oy) = board_origin(&p);
        assert_eq!((ox, oy), (PAD, PAD));
        let at = |x: f64, y: f64| cell_at(&p, ox + x * CELL, oy + y * CELL).map(|(c, _)| c);
        assert_eq!(at(0.5, 0.5), Some((0, 0)));
        assert_eq!(at(3.9, 2.1), Some((2, 3)));
        assert_eq!(at(4.1, 0.5), None);
        assert_eq!(at(-0.1, 0.5), None);
        let (_, (fx, fy)) = cell_at(&p, ox + 1.25 * CELL, oy + 0.75 * CELL).unwrap();
        assert!((fx - 0.25).abs() < 1e-9 && (fy - 0.75).abs() < 1e-9);
        // A ring of one cell: the board moves in by a cell, and the ring is hit too.
        p.ring = 1;
        let (ox, oy) = board_origin(&p);
        assert_eq!((ox, oy), (PAD + CELL, PAD + CELL));
        assert_eq!(
            cell_at(&p, ox - 0.5 * CELL, oy + 0.5 * CELL).map(|c| c.0),
            Some((0, -1))
        );
        assert_eq!(cell_at(&p, ox - 1.5 * CELL, oy).map(|c| c.0), None);
    }

    #[test]
    fn numbers_and_text_are_written_for_xml() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(0.126), "0.13");
        assert_eq!(num(-0.001), "0");
        assert_eq!(escape(r#"a<b & "c">"#), "a&lt;b &amp; &quot;c&quot;&gt;");
    }

    #[test]
    fn captions_wrap_at_words() {
        assert_eq!(
            wrap("one two three four", 9),
            vec!["one two", "three", "four"]
        );
        assert_eq!(wrap("  ", 5), Vec::<String>::new());
        assert_eq!(wrap("unbreakable x", 4), vec!["unbreakable", "x"]);
    }

    #[test]
    fn a_long_caption_widens_a_small_board_up_to_a_limit() {
        let small = Picture::new(2, 2);
        let (w0, _) = size(&small);
        let (w1, h1) = size(&small.clone().with_caption("word ".repeat(60)));
        assert_eq!(w0, 2.0 * CELL + 2.0 * PAD);
        assert_eq!(w1, CAPTION_WIDTH);
        assert!(h1 > 2.0 * CELL + 2.0 * PAD + 3.0 * CAPTION_LINE);
    }
}
