//! FWieP's Tectonic XML, read and written with quick-xml:
//!
//! ```xml
//! <Puzzles>
//!   <Puzzle width="3" height="5" source="where it comes from">
//!     <Cell PieceNumber="1" Value="" />
//!     <Cell PieceNumber="1" Value="3" Options="245" />
//!     ...                        (width * height cells, row-major)
//!   </Puzzle>
//! </Puzzles>
//! ```
//!
//! Wider than the seed's XSD on purpose: `<Puzzles>` may hold several puzzles, and a Value may
//! exceed 5 when its piece is large enough. `PieceNumber` defaults to 1 and `Value` to empty,
//! as in the XSD. `Options` (the seed solver's pencil marks) is checked for form and otherwise
//! not used: gridsat works out candidates itself. Errors name the element with its line and
//! column. [`write`] writes puzzles back (solved or not) in the same form; a puzzle the seed's
//! XSD accepts is written with the XSD reference, so the seed's own tools can read it.

use super::{build, line_col, Pos};
use crate::error::InputError;
use crate::tectonic::Tectonic;
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

/// The attributes of an element, unescaped, with the element's name and position.
struct Element {
    name: String,
    at: Pos,
    attrs: Vec<(String, String)>,
}

impl Element {
    fn get(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

fn element(file: &str, e: &BytesStart, at: Pos) -> Result<Element, InputError> {
    let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
    let mut attrs = Vec::new();
    for a in e.attributes() {
        let a = a.map_err(|err| {
            InputError::new(
                file,
                at.0,
                at.1,
                format!("malformed XML in <{name}>: {err}"),
            )
        })?;
        let key = String::from_utf8_lossy(a.key.as_ref()).into_owned();
        let value = a.unescape_value().map_err(|err| {
            InputError::new(
                file,
                at.0,
                at.1,
                format!("malformed XML in attribute {key} of <{name}>: {err}"),
            )
        })?;
        attrs.push((key, value.into_owned()));
    }
    Ok(Element { name, at, attrs })
}

/// A puzzle being read.
struct Open {
    el: Element,
    width: usize,
    height: usize,
    names: Vec<String>,
    values: Vec<u8>,
    cells_at: Vec<Pos>,
}

fn size_attr(file: &str, el: &Element, key: &str) -> Result<usize, InputError> {
    let v = el.get(key).ok_or_else(|| {
        InputError::new(
            file,
            el.at.0,
            el.at.1,
            format!("<Puzzle> needs a {key} attribute (a whole number of cells)"),
        )
    })?;
    v.trim().parse().map_err(|_| {
        InputError::new(
            file,
            el.at.0,
            el.at.1,
            format!("<Puzzle {key}=\"{v}\">: expected a whole number of cells"),
        )
    })
}

fn cell(file: &str, el: &Element, p: &mut Open) -> Result<(), InputError> {
    let err = |m: String| InputError::new(file, el.at.0, el.at.1, m);
    let n = p.values.len();
    if n == p.width * p.height {
        return Err(err(format!(
            "one <Cell> too many: the <Puzzle> at line {} is {}x{}, so it has {}",
            p.el.at.0,
            p.width,
            p.height,
            crate::text::count_of(p.width * p.height, "cell")
        )));
    }
    let piece = el.get("PieceNumber").unwrap_or("1").trim();
    if piece.is_empty() || !piece.chars().all(|c| c.is_ascii_digit()) {
        return Err(err(format!(
            "<Cell PieceNumber=\"{piece}\">: expected a whole number"
        )));
    }
    // "01" and "1" name the same piece.
    let piece = piece.trim_start_matches('0');
    let piece = if piece.is_empty() { "0" } else { piece };
    let value = el.get("Value").unwrap_or("").trim();
    let v = if value.is_empty() {
        0
    } else {
        match value.parse::<u8>() {
            Ok(v) if v >= 1 => v,
            _ => {
                return Err(err(format!(
                    "<Cell Value=\"{value}\">: expected empty or a digit from 1 to the piece's size"
                )))
            }
        }
    };
    if let Some(o) = el.get("Options") {
        if o.is_empty() || !o.chars().all(|c| ('1'..='9').contains(&c)) {
            return Err(err(format!(
                "<Cell Options=\"{o}\">: expected the candidates as digits, like 245"
            )));
        }
    }
    for (k, _) in &el.attrs {
        if !matches!(k.as_str(), "PieceNumber" | "Value" | "Options") {
            return Err(err(format!(
                "<Cell> has an unknown attribute {k}: expected PieceNumber, Value or Options"
            )));
        }
    }
    p.names.push(piece.to_string());
    p.values.push(v);
    p.cells_at.push(el.at);
    Ok(())
}

fn finish(file: &str, p: Open) -> Result<Tectonic, InputError> {
    let want = p.width * p.height;
    if p.values.len() != want {
        return Err(InputError::new(
            file,
            p.el.at.0,
            p.el.at.1,
            format!(
                "this <Puzzle> is {}x{}, so it needs {}, but it has {}",
                p.width,
                p.height,
                crate::text::count_of(want, "<Cell> element"),
                p.values.len()
            ),
        ));
    }
    let source = p.el.get("source").map(str::to_string);
    build(
        file,
        p.width,
        p.height,
        &p.names,
        p.values,
        source,
        &p.cells_at,
        &p.cells_at,
        p.el.at,
    )
}

/// Every puzzle of an XML document.
pub fn parse(file: &str, text: &str) -> Result<Vec<Tectonic>, InputError> {
    let mut reader = Reader::from_str(text);
    reader.config_mut().trim_text(true);
    reader.config_mut().expand_empty_elements = true;
    let mut out = Vec::new();
    // 0: before <Puzzles>, 1: inside it, 2: after it.
    let mut depth_root = 0;
    let mut root_at: Pos = (1, 1);
    let mut open: Option<Open> = None;
    loop {
        let before = reader.buffer_position() as usize;
        let ev = reader.read_event().map_err(|e| {
            let (l, c) = line_col(text, reader.error_position() as usize);
            InputError::new(file, l, c, format!("malformed XML: {e}"))
        })?;
        // The element starts at the first `<` after the previous event.
        let start = text[before.min(text.len())..]
            .find('<')
            .map_or(before, |k| before + k);
        let at = line_col(text, start);
        let unexpected = |what: String, expected: &str| {
            InputError::new(
                file,
                at.0,
                at.1,
                format!("unexpected {what}: expected {expected}"),
            )
        };
        let expected = match (depth_root, &open) {
            (0, _) => "<Puzzles>",
            (1, None) => "<Puzzle width=\"..\" height=\"..\"> or </Puzzles>",
            (1, Some(_)) => "<Cell PieceNumber=\"..\" Value=\"..\"/> or </Puzzle>",
            _ => "nothing after </Puzzles>",
        };
        match ev {
            Event::Eof => {
                // A file cut off: report it at its end, naming the element left open.
                let open_at = match (&open, depth_root) {
                    (Some(p), _) => Some(("<Puzzle>", p.el.at)),
                    (None, 1) => Some(("<Puzzles>", root_at)),
                    _ => None,
                };
                if let Some((name, (l, c))) = open_at {
                    let (el, ec) = line_col(text, text.trim_end().len());
                    return Err(InputError::new(
                        file,
                        el,
                        ec,
                        format!("unexpected end of file: {name} opened at {l}:{c} is not closed"),
                    ));
                }
                break;
            }
            // Expanded into Start and End by the reader's configuration.
            Event::Empty(_) => {}
            Event::Decl(_) | Event::Comment(_) | Event::PI(_) | Event::DocType(_) => {}
            Event::Text(t) => {
                let s = String::from_utf8_lossy(t.as_ref()).into_owned();
                if !s.trim().is_empty() {
                    return Err(unexpected(format!("text `{}`", s.trim()), expected));
                }
            }
            Event::CData(_) => return Err(unexpected("CDATA".into(), expected)),
            Event::Start(e) => {
                let el = element(file, &e, at)?;
                match (depth_root, el.name.as_str(), open.is_some()) {
                    (0, "Puzzles", _) => {
                        depth_root = 1;
                        root_at = at;
                    }
                    (1, "Puzzle", false) => {
                        let width = size_attr(file, &el, "width")?;
                        let height = size_attr(file, &el, "height")?;
                        open = Some(Open {
                            el,
                            width,
                            height,
                            names: Vec::new(),
                            values: Vec::new(),
                            cells_at: Vec::new(),
                        });
                    }
                    (1, "Cell", true) => {
                        cell(file, &el, open.as_mut().expect("open puzzle"))?;
                    }
                    _ => return Err(unexpected(format!("<{}>", el.name), expected)),
                }
            }
            Event::End(e) => {
                let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                close(file, &name, &mut depth_root, &mut open, &mut out)?;
            }
        }
    }
    if depth_root == 0 {
        return Err(InputError::new(
            file,
            1,
            1,
            "no <Puzzles> element: expected FWieP's XML (<Puzzles><Puzzle width height><Cell .../>...)",
        ));
    }
    if out.is_empty() {
        return Err(InputError::new(file, 1, 1, "<Puzzles> holds no <Puzzle>"));
    }
    Ok(out)
}

fn close(
    file: &str,
    name: &str,
    depth_root: &mut usize,
    open: &mut Option<Open>,
    out: &mut Vec<Tectonic>,
) -> Result<(), InputError> {
    match name {
        "Puzzle" => {
            if let Some(p) = open.take() {
                out.push(finish(file, p)?);
            }
        }
        "Puzzles" => *depth_root = 2,
        _ => {}
    }
    Ok(())
}

fn escape(s: &str) -> String {
    quick_xml::escape::escape(s).into_owned()
}

/// The PieceNumber of every piece: the input's own when they are all numbers, else 1, 2, ...
fn piece_numbers(t: &Tectonic) -> Vec<String> {
    if t.region_names
        .iter()
        .all(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    {
        t.region_names.clone()
    } else {
        (1..=t.piece_count()).map(|k| k.to_string()).collect()
    }
}

/// Puzzles as one XML document, each with `values` (row-major, 0 empty: the givens, or a
/// solution) as its Values. With one puzzle whose values are all 1-5 the document carries the
/// seed's XSD reference.
pub fn write(items: &[(&Tectonic, &[u8])]) -> String {
    let xsd = items.len() == 1 && items[0].1.iter().all(|&v| v <= 5);
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    if xsd {
        s.push_str("<Puzzles xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n  xsi:noNamespaceSchemaLocation=\"TectonicPuzzles.xsd\">\n");
    } else {
        s.push_str("<Puzzles>\n");
    }
    for (t, values) in items {
        s.push_str(&format!(
            "\n  <Puzzle width=\"{}\" height=\"{}\"",
            t.width, t.height
        ));
        if let Some(src) = t.source.as_deref().filter(|x| !x.is_empty()) {
            s.push_str(&format!(" source=\"{}\"", escape(src)));
        }
        s.push_str(">\n");
        let numbers = piece_numbers(t);
        for (i, &r) in t.regions.iter().enumerate() {
            let v = if values[i] == 0 {
                String::new()
            } else {
                values[i].to_string()
            };
            s.push_str(&format!(
                "    <Cell PieceNumber=\"{}\" Value=\"{v}\" />\n",
                numbers[r]
            ));
        }
        s.push_str("  </Puzzle>\n");
    }
    s.push_str("\n</Puzzles>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Puzzles xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:noNamespaceSchemaLocation="TectonicPuzzles.xsd">
  <Puzzle height="5" width="3">
    <Cell PieceNumber="1" Value="" />
    <Cell PieceNumber="1" Value="" />
    <Cell PieceNumber="2" Value="" />
    <Cell PieceNumber="3" Value="" />
    <Cell PieceNumber="1" Value="3" />
    <Cell PieceNumber="2" Value="" />
    <Cell PieceNumber="3" Value="" />
    <Cell PieceNumber="1" Value="" />
    <Cell PieceNumber="1" Value="2" />
    <Cell PieceNumber="3" Value="" />
    <Cell PieceNumber="3" Value="" />
    <Cell PieceNumber="4" Value="" />
    <Cell PieceNumber="5" Value="" />
    <Cell PieceNumber="4" Value="" />
    <Cell PieceNumber="4" Value="1" Options="1" />
  </Puzzle>
</Puzzles>
"#;

    #[test]
    fn reads_the_seeds_example_and_writes_it_back() {
        let ps = parse("s.xml", SEED).unwrap();
        assert_eq!(ps.len(), 1);
        let t = &ps[0];
        assert_eq!((t.width, t.height), (3, 5));
        assert_eq!(t.region_names, vec!["1", "2", "3", "4", "5"]);
        assert_eq!(t.givens[4], 3);
        let text = write(&[(t, &t.givens)]);
        assert!(text.contains("TectonicPuzzles.xsd"));
        assert_eq!(&parse("w.xml", &text).unwrap()[0], t);
        // Two puzzles, one with a value above 5: no XSD reference, both read back.
        let mut big = t.clone();
        big.source = Some("a & b".into());
        let text = write(&[(t, &t.givens), (&big, &[6; 15])]);
        assert!(!text.contains("xsd"));
        assert!(text.contains("source=\"a &amp; b\""));
        let e = parse("w.xml", &text).unwrap_err();
        assert!(e.message.contains("larger than its piece"), "{}", e.message);
    }

    #[test]
    fn errors_name_the_element() {
        let cut = SEED.replace("    <Cell PieceNumber=\"5\" Value=\"\" />\n", "");
        let e = parse("f", &cut).unwrap_err();
        assert_eq!((e.line, e.col), (4, 3));
        assert!(
            e.message
                .contains("needs 15 <Cell> elements, but it has 14"),
            "{}",
            e.message
        );
        let extra = SEED.replace(
            "  </Puzzle>",
            "    <Cell PieceNumber=\"4\" Value=\"\" />\n  </Puzzle>",
        );
        let e = parse("f", &extra).unwrap_err();
        assert_eq!((e.line, e.col), (20, 5));
        assert!(e.message.contains("one <Cell> too many"), "{}", e.message);
        let bad = SEED.replace(
            "PieceNumber=\"5\" Value=\"\"",
            "PieceNumber=\"5\" Value=\"x\"",
        );
        let e = parse("f", &bad).unwrap_err();
        assert_eq!((e.line, e.col), (17, 5));
        let split = SEED.replace(
            "<Cell PieceNumber=\"3\" Value=\"\" />\n    <Cell PieceNumber=\"4\" Value=\"\" />",
            "<Cell PieceNumber=\"3\" Value=\"\" />\n    <Cell PieceNumber=\"2\" Value=\"\" />",
        );
        let e = parse("f", &split).unwrap_err();
        assert!(
            e.message.contains("piece 2 is not connected"),
            "{}",
            e.message
        );
        assert_eq!((e.line, e.col), (16, 5));
        let touch = SEED.replacen(
            "PieceNumber=\"3\" Value=\"\"",
            "PieceNumber=\"3\" Value=\"3\"",
            1,
        );
        let e = parse("f", &touch).unwrap_err();
        assert!(e.message.contains("touches the 3 at r2c1"), "{}", e.message);
        assert_eq!((e.line, e.col), (9, 5));
        let e = parse("f", &SEED.replace("</Puzzle>\n", "")).unwrap_err();
        assert!(e.message.starts_with("malformed XML"), "{}", e.message);
        let e = parse("f", "<Puzzles>\n  <Grid/>\n</Puzzles>").unwrap_err();
        assert_eq!((e.line, e.col), (2, 3));
        assert!(e.message.contains("unexpected <Grid>"), "{}", e.message);
        let e = parse("f", "<Puzzles><Puzzle width=\"3\"/></Puzzles>").unwrap_err();
        assert!(e.message.contains("height"), "{}", e.message);
        let e = parse("f", "<Puzzles></Puzzles>").unwrap_err();
        assert!(e.message.contains("no <Puzzle>"), "{}", e.message);
    }

    #[test]
    fn a_file_cut_off_is_an_error_at_its_end() {
        // Cut inside the only puzzle: at the end of the last line, naming the open <Puzzle>.
        let end = SEED
            .find("    <Cell PieceNumber=\"3\" Value=\"\" />\n    <Cell PieceNumber=\"4\"")
            .unwrap();
        let e = parse("f", &SEED[..end]).unwrap_err();
        assert_eq!((e.line, e.col), (14, 38));
        assert_eq!(
            e.message,
            "unexpected end of file: <Puzzle> opened at 4:3 is not closed"
        );
        // Every puzzle closed, but no </Puzzles>.
        let e = parse("f", &SEED.replace("</Puzzles>\n", "")).unwrap_err();
        assert_eq!((e.line, e.col), (20, 12));
        assert_eq!(
            e.message,
            "unexpected end of file: <Puzzles> opened at 2:1 is not closed"
        );
        // Cut inside a <Cell> tag.
        let e = parse("f", &SEED[..end + 20]).unwrap_err();
        assert!(e.message.starts_with("malformed XML"), "{}", e.message);
    }
}
