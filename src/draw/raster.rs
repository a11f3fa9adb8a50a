//! PNG and PDF made from a picture's SVG, in Rust: resvg and tiny-skia rasterise it, svg2pdf
//! turns it into PDF pages (text as outlines). Text is set in the DejaVu Sans fonts bundled with gridsat
//! (`assets/fonts/`, an ASCII and Latin-1 subset), so a picture looks the same on every
//! machine and nothing is read from the system. Bytes in, bytes out: no files.

use resvg::{tiny_skia, usvg};
use std::sync::{Arc, OnceLock};

static REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.subset.ttf");
static BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.subset.ttf");

/// The family every picture's text is set in.
pub const FAMILY: &str = "DejaVu Sans";

/// The bundled fonts, loaded once.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    Arc::clone(DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(REGULAR.to_vec());
        db.load_font_data(BOLD.to_vec());
        db.set_sans_serif_family(FAMILY);
        Arc::new(db)
    }))
}

fn tree(svg: &str) -> Result<usvg::Tree, String> {
    let opts = usvg::Options {
        font_family: FAMILY.into(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &opts).map_err(|e| format!("cannot read the SVG: {e}"))
}

/// How many pixels a PNG has per SVG unit: twice as many for small pictures (so a 9x9
/// Sudoku is about 800 pixels wide), down to one for pictures 2000 units wide and more.
pub fn png_scale(width: f32) -> f32 {
    (2000.0 / width.max(1.0)).clamp(1.0, 2.0)
}

/// A PNG of the SVG `svg`, on white.
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    let tree = tree(svg)?;
    let size = tree.size();
    let scale = png_scale(size.width());
    let (w, h) = (
        (size.width() * scale).ceil() as u32,
        (size.height() * scale).ceil() as u32,
    );
    let mut pixmap = tiny_skia::Pixmap::new(w, h)
        .ok_or_else(|| format!("a {w}x{h} picture is too large for a PNG"))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| format!("cannot write the PNG: {e}"))
}

/// The longer side of the smallest PDF page, in points: A5's width (14.8 cm).
const MIN_PAGE_PT: f32 = 420.0;

/// One PDF document with one page per SVG, each page the size its SVG says (`210mm` for an
/// A4 sheet; pixels at 96 per inch otherwise), a small one scaled up to [`MIN_PAGE_PT`]. Text is drawn as outlines of the bundled fonts.
pub fn pdf(svgs: &[String]) -> Result<Vec<u8>, String> {
    use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref};
    use std::collections::HashMap;
    let mut alloc = Ref::new(1);
    let catalog = alloc.bump();
    let tree_ref = alloc.bump();
    let mut pdf = Pdf::new();
    let mut pages = Vec::new();
    let mut bodies = Vec::new();
    for svg in svgs {
        // Text as outlines (usvg writes it so), since svg2pdf is built without fonts.
        let outlined = tree(svg)?.to_string(&usvg::WriteOptions::default());
        let tree = tree(&outlined)?;
        let (chunk, xobject) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
            .map_err(|e| format!("cannot make the PDF: {e}"))?;
        let mut map = HashMap::new();
        let chunk = chunk.renumber(|old| *map.entry(old).or_insert_with(|| alloc.bump()));
        let xobject = map[&xobject];
        // SVG sizes are in CSS pixels (96 per inch), PDF's in points (72 per inch); a small
        // picture (a 6x5 board) is scaled up to at least MIN_PAGE_PT on its longer side, so it
        // prints at a readable size.
        let (w, h) = (tree.size().width() * 0.75, tree.size().height() * 0.75);
        let grow = (MIN_PAGE_PT / w.max(h).max(1.0)).max(1.0);
        let (w, h) = (w * grow, h * grow);
        let page = alloc.bump();
        let content = alloc.bump();
        pages.push(page);
        bodies.push((page, content, xobject, w, h, chunk));
    }
    pdf.catalog(catalog).pages(tree_ref);
    pdf.pages(tree_ref)
        .kids(pages.iter().copied())
        .count(pages.len() as i32);
    for (page, content, xobject, w, h, chunk) in bodies {
        let name = Name(b"S1");
        let mut p = pdf.page(page);
        p.media_box(Rect::new(0.0, 0.0, w, h));
        p.parent(tree_ref);
        p.contents(content);
        p.resources().x_objects().pair(name, xobject);
        p.finish();
        let mut c = Content::new();
        c.save_state();
        c.transform([w, 0.0, 0.0, h, 0.0, 0.0]);
        c.x_object(name);
        c.restore_state();
        pdf.stream(content, &c.finish());
        pdf.extend(&chunk);
    }
    Ok(pdf.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{layout, Ink, Mark, Picture};

    fn picture() -> String {
        let mut p = Picture::new(2, 2).with_caption("a 2x2 board");
        p.region_borders(|_, _| 0);
        p.push(Mark::Digit {
            row: 0,
            col: 1,
            text: "7".into(),
            ink: Ink::Given,
        });
        layout::single(&p).to_svg()
    }

    #[test]
    fn png_has_the_svg_size_times_its_scale_and_shows_the_text() {
        let svg = picture();
        let bytes = png(&svg).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        let pixmap = tiny_skia::Pixmap::decode_png(&bytes).unwrap();
        let t = tree(&svg).unwrap();
        let scale = png_scale(t.size().width());
        assert_eq!(pixmap.width(), (t.size().width() * scale).ceil() as u32);
        // The digit and the caption are drawn: dark pixels inside the top-right cell (away
        // from its borders) and under the board.
        let dark = |x0: u32, y0: u32, x1: u32, y1: u32| {
            (y0..y1)
                .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                .filter(|&(x, y)| pixmap.pixel(x, y).is_some_and(|p| p.red() < 100))
                .count()
        };
        let s = |v: f64| (v * scale as f64) as u32;
        assert!(
            dark(
                s(12.0 + 48.0),
                s(12.0 + 8.0),
                s(12.0 + 72.0),
                s(12.0 + 32.0)
            ) > 20
        );
        assert!(dark(0, s(104.0), pixmap.width(), pixmap.height()) > 20);
    }

    #[test]
    fn pdf_has_one_page_per_svg() {
        let svg = picture();
        let doc = pdf(&[svg.clone(), svg]).unwrap();
        assert!(doc.starts_with(b"%PDF-"));
        let text = String::from_utf8_lossy(&doc);
        assert!(text.contains("/Count 2"));
        assert_eq!(
            text.matches("/Type /Page\n").count()
                + text.matches("/Type /Page ").count()
                + text.matches("/Type /Page/").count(),
            2
        );
    }

    #[test]
    fn bad_svg_is_an_error() {
        assert!(png("<svg").is_err());
    }

    #[test]
    fn a_small_picture_gets_a_page_it_prints_readably_on() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><rect width="100" height="50" fill="red"/></svg>"#;
        let doc = pdf(&[svg.to_string()]).unwrap();
        let text = String::from_utf8_lossy(&doc);
        assert!(text.contains("/MediaBox [0 0 420 210]"), "{text}");
    }
}
