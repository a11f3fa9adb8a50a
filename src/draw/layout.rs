//! Placing pictures on a sheet, the unit one SVG document holds: one picture alone, several
//! side by side (a puzzle and its solution), printable pages (A4, Letter) with as many
//! pictures as fit at a size a person can still write in, or one long page holding them all.

use super::svg::{self, escape, num, CELL, FONT_FAMILY};
use super::Picture;
use std::fmt::Write;

/// A paper size for printable pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paper {
    A4,
    Letter,
}

impl Paper {
    /// The paper of a name (`a4`, `letter`).
    pub fn from_name(s: &str) -> Option<Paper> {
        match s.to_ascii_lowercase().as_str() {
            "a4" => Some(Paper::A4),
            "letter" => Some(Paper::Letter),
            _ => None,
        }
    }

    /// Width and height in millimetres.
    pub fn size_mm(self) -> (f64, f64) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }
}

/// One SVG document: pictures placed on it, and lines of text (titles, page numbers).
#[derive(Clone, Debug)]
pub struct Sheet {
    /// Size in SVG units.
    pub width: f64,
    pub height: f64,
    /// For printable pages, the physical size in millimetres (the units are then tenths of a
    /// millimetre); `None`: the units are pixels.
    pub paper_mm: Option<(f64, f64)>,
    /// Each picture with where it goes: left, top and scale.
    pub placed: Vec<(Picture, f64, f64, f64)>,
    /// Lines of text: x (centre), baseline y, font size, text.
    pub labels: Vec<(f64, f64, f64, String)>,
}

impl Sheet {
    /// The SVG document.
    pub fn to_svg(&self) -> String {
        let mut out = String::new();
        out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let (w, h) = match self.paper_mm {
            Some((w, h)) => (format!("{}mm", num(w)), format!("{}mm", num(h))),
            None => (num(self.width), num(self.height)),
        };
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" viewBox="0 0 {} {}" font-family="{FONT_FAMILY}">"#,
            num(self.width),
            num(self.height)
        );
        let _ = writeln!(
            out,
            r##"<rect class="background" width="{}" height="{}" fill="#ffffff"/>"##,
            num(self.width),
            num(self.height)
        );
        for (p, x, y, s) in &self.placed {
            svg::group(&mut out, p, *x, *y, *s);
        }
        for (x, y, size, t) in &self.labels {
            let _ = writeln!(
                out,
                r##"<text class="title" x="{}" y="{}" font-size="{}" text-anchor="middle" fill="#000000">{}</text>"##,
                num(*x),
                num(*y),
                num(*size),
                escape(t)
            );
        }
        out.push_str("</svg>\n");
        out
    }
}

/// Space between pictures, in picture units.
const GAP: f64 = 24.0;

/// One picture on its own sheet.
pub fn single(p: &Picture) -> Sheet {
    side_by_side(std::slice::from_ref(p))
}

/// Pictures in a row, tops aligned (a puzzle beside its solution).
pub fn side_by_side(pictures: &[Picture]) -> Sheet {
    let mut x = 0.0;
    let mut height: f64 = 0.0;
    let mut placed = Vec::new();
    for (k, p) in pictures.iter().enumerate() {
        if k > 0 {
            x += GAP;
        }
        let (w, h) = svg::size(p);
        placed.push((p.clone(), x, 0.0, 1.0));
        x += w;
        height = height.max(h);
    }
    Sheet {
        width: x,
        height,
        paper_mm: None,
        placed,
        labels: Vec::new(),
    }
}

/// The size of the largest picture (every picture gets a slot this big).
fn slot(pictures: &[Picture]) -> (f64, f64) {
    pictures
        .iter()
        .map(svg::size)
        .fold((1.0, 1.0), |(a, b), (w, h)| (a.max(w), b.max(h)))
}

/// Printable pages holding `pictures` in order, each page titled `title` with its number at
/// the foot. As many pictures go on a page as fit with cells at least `min_cell_mm` wide (a
/// puzzle to be solved on paper needs about 7 mm; a solution to look up, 4), then they are
/// spread evenly over the pages that takes and drawn as large as each page allows (cells at
/// most 15 mm).
pub fn pages(pictures: &[Picture], paper: Paper, min_cell_mm: f64, title: &str) -> Vec<Sheet> {
    if pictures.is_empty() {
        return Vec::new();
    }
    let (wmm, hmm) = paper.size_mm();
    // Units are tenths of a millimetre.
    let (width, height) = (wmm * 10.0, hmm * 10.0);
    let margin = 150.0;
    let title_h = 110.0;
    let foot_h = 70.0;
    let gap = 60.0;
    let (area_w, area_h) = (
        width - 2.0 * margin,
        height - 2.0 * margin - title_h - foot_h,
    );
    let (sw, sh) = slot(pictures);
    let fit = |c: usize, r: usize| -> f64 {
        let (c, r) = (c as f64, r as f64);
        ((area_w - (c - 1.0) * gap) / (c * sw)).min((area_h - (r - 1.0) * gap) / (r * sh))
    };
    let smallest = min_cell_mm * 10.0 / CELL;
    let largest = 150.0 / CELL;
    let mut capacity = 1;
    for c in 1..=12 {
        for r in 1..=16 {
            if fit(c, r) >= smallest {
                capacity = capacity.max(c * r);
            }
        }
    }
    let n = pictures.len();
    let count = n.div_ceil(capacity);
    let per = n.div_ceil(count);
    let mut best = (1, per, fit(1, per));
    for c in 1..=per {
        let r = per.div_ceil(c);
        let s = fit(c, r);
        if s > best.2 {
            best = (c, r, s);
        }
    }
    let (cols, _, scale) = best;
    let scale = scale.min(largest);
    let mut sheets = Vec::new();
    for (k, chunk) in pictures.chunks(per).enumerate() {
        let rows = chunk.len().div_ceil(cols);
        let used_cols = cols.min(chunk.len());
        let block_w = used_cols as f64 * sw * scale + (used_cols as f64 - 1.0) * gap;
        let left = margin + (area_w - block_w) / 2.0;
        let top = margin + title_h;
        let mut placed = Vec::new();
        for (i, p) in chunk.iter().enumerate() {
            let (c, r) = (i % cols, i / cols);
            let (w, _) = svg::size(p);
            let x = left + c as f64 * (sw * scale + gap) + (sw - w) * scale / 2.0;
            let y = top + r as f64 * (sh * scale + gap);
            placed.push((p.clone(), x, y, scale));
        }
        let _ = rows;
        let mut labels = vec![(width / 2.0, margin + 60.0, 60.0, title.to_string())];
        if count > 1 {
            labels.push((
                width / 2.0,
                height - margin + 20.0,
                32.0,
                format!("page {} of {count}", k + 1),
            ));
        }
        sheets.push(Sheet {
            width,
            height,
            paper_mm: Some((wmm, hmm)),
            placed,
            labels,
        });
    }
    sheets
}

/// One page as long as it needs, holding every picture in rows (for reading on a screen: an
/// explanation's steps one after the other), titled `title`.
pub fn long_page(pictures: &[Picture], title: &str) -> Sheet {
    let (sw, sh) = slot(pictures);
    let cols = ((1600.0 / (sw + GAP)).floor() as usize).clamp(1, pictures.len().max(1));
    let title_h = if title.is_empty() { 0.0 } else { 40.0 };
    let mut placed = Vec::new();
    for (i, p) in pictures.iter().enumerate() {
        let (c, r) = (i % cols, i / cols);
        let (w, _) = svg::size(p);
        placed.push((
            p.clone(),
            c as f64 * (sw + GAP) + (sw - w) / 2.0,
            title_h + r as f64 * (sh + GAP),
            1.0,
        ));
    }
    let rows = pictures.len().div_ceil(cols).max(1);
    let width = cols as f64 * (sw + GAP) - GAP;
    let mut labels = Vec::new();
    if !title.is_empty() {
        labels.push((width / 2.0, 28.0, 20.0, title.to_string()));
    }
    Sheet {
        width,
        height: title_h + rows as f64 * (sh + GAP) - GAP,
        paper_mm: None,
        placed,
        labels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nine() -> Picture {
        let mut p = Picture::new(9, 9);
        p.region_borders(|r, c| (r / 3) * 3 + c / 3);
        p
    }

    #[test]
    fn side_by_side_puts_pictures_in_a_row() {
        let s = side_by_side(&[nine(), nine()]);
        let (w, h) = svg::size(&nine());
        assert_eq!((s.width, s.height), (2.0 * w + GAP, h));
        assert_eq!(s.placed[1].1, w + GAP);
    }

    #[test]
    fn a4_pages_hold_puzzles_big_enough_to_write_in() {
        let puzzles = vec![nine(); 10];
        let sheets = pages(&puzzles, Paper::A4, 8.0, "puzzles");
        // 8 mm cells: 6 nine-by-nine boards fit a page, so 10 take two pages of 5.
        assert_eq!(sheets.len(), 2);
        assert_eq!(sheets[0].placed.len(), 5);
        for s in &sheets {
            for (_, x, y, scale) in &s.placed {
                assert!(scale * CELL >= 80.0 && *x >= 150.0 && *y >= 150.0);
                assert!(x + svg::size(&nine()).0 * scale <= 2100.0 - 150.0 + 1e-6);
            }
        }
        assert!(sheets[0]
            .to_svg()
            .contains(r#"width="210mm" height="297mm""#));
        // Solutions with 4 mm cells: all ten on one page.
        assert_eq!(pages(&puzzles, Paper::Letter, 4.0, "solutions").len(), 1);
    }

    #[test]
    fn a_long_page_holds_everything() {
        let s = long_page(&vec![nine(); 7], "steps");
        assert_eq!(s.placed.len(), 7);
        assert!(s.height > 2.0 * svg::size(&nine()).1);
    }
}
