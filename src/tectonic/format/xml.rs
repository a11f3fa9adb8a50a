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

use super::{build, Pos};
use crate::error::InputError;
use crate::records::Item;
use crate::tectonic::Tectonic;
use quick_xml::events::{BytesStart, Event};

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
    let n: usize = v.trim().parse().map_err(|_| {
        InputError::new(
            file,
            el.at.0,
            el.at.1,
            format!("<Puzzle {key}=\"{v}\">: expected a whole number of cells"),
        )
    })?;
    let limit = crate::tectonic::MAX_SIDE;
    if n == 0 || n > limit {
        return Err(InputError::new(
            file,
            el.at.0,
            el.at.1,
            format!("<Puzzle {key}=\"{v}\">: a Tectonic is 1 to {limit} cells wide and high"),
        ));
    }
    Ok(n)
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
    crate::records::read_all(Reader::new(file), text)
}

/// Where a scan of the text stands: outside markup, or inside a comment, CDATA section,
/// processing instruction or declaration (where `</Puzzle>` means nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scan {
    Normal,
    Comment,
    CData,
    Pi,
    Decl,
}

/// The streaming reader (see [`crate::records`]): the text is cut after each `</Puzzle>` and each
/// piece is read with quick-xml while the document's state (the root, the open puzzle) carries
/// over, so memory is bounded by one puzzle and reading is linear in the file. A bad puzzle is
/// reported and skipped to its `</Puzzle>`; malformed XML ends the file.
pub struct Reader {
    file: String,
    /// Text not read yet, starting at line `at.0`, column `at.1`.
    buf: String,
    at: Pos,
    /// How far `buf` has been scanned for a cut, and in which state.
    scanned: usize,
    scan: Scan,
    /// 0: before `<Puzzles>`, 1: inside it, 2: after it.
    depth_root: usize,
    root_at: Pos,
    open: Option<Open>,
    /// A bad puzzle: its other elements are passed over until its `</Puzzle>`.
    skipping: bool,
    /// The names of the open elements.
    stack: Vec<String>,
    /// Malformed XML was reported: the rest is not read.
    dead: bool,
    /// Where the text ends, blanks aside (for a file cut off).
    last: Pos,
    handed: usize,
}

impl Reader {
    pub fn new(file: &str) -> Reader {
        Reader {
            file: file.to_string(),
            buf: String::new(),
            at: (1, 1),
            scanned: 0,
            scan: Scan::Normal,
            depth_root: 0,
            root_at: (1, 1),
            open: None,
            skipping: false,
            stack: Vec::new(),
            dead: false,
            last: (1, 1),
            handed: 0,
        }
    }

    /// The next cut in `buf`: the byte after a `</Puzzle>` outside comments and the like.
    fn next_cut(&mut self) -> Option<usize> {
        let b = self.buf.as_bytes();
        let mut i = self.scanned;
        while i < b.len() {
            let rest = &self.buf[i..];
            let (end, next) = match self.scan {
                Scan::Comment => ("-->", Scan::Normal),
                Scan::CData => ("]]>", Scan::Normal),
                Scan::Pi => ("?>", Scan::Normal),
                Scan::Decl => (">", Scan::Normal),
                Scan::Normal => {
                    let Some(k) = rest.find('<') else {
                        i = b.len();
                        break;
                    };
                    i += k;
                    let tag = &self.buf[i..];
                    if tag.starts_with("<!--") {
                        self.scan = Scan::Comment;
                        i += 4;
                    } else if tag.starts_with("<![CDATA[") {
                        self.scan = Scan::CData;
                        i += 9;
                    } else if tag.starts_with("<?") {
                        self.scan = Scan::Pi;
                        i += 2;
                    } else if tag.starts_with("<!") {
                        self.scan = Scan::Decl;
                        i += 2;
                    } else if let Some(after) = tag.strip_prefix("</Puzzle") {
                        let name_ends = after
                            .chars()
                            .next()
                            .is_some_and(|c| c == '>' || c.is_whitespace());
                        if name_ends {
                            match after.find('>') {
                                Some(k) => {
                                    let cut = i + "</Puzzle".len() + k + 1;
                                    self.scanned = cut;
                                    return Some(cut);
                                }
                                None => break, // the tag ends on a later line
                            }
                        }
                        i += 1;
                    } else {
                        i += 1;
                    }
                    continue;
                }
            };
            match rest.find(end) {
                Some(k) => {
                    i += k + end.len();
                    self.scan = next;
                }
                None => {
                    i = b.len();
                    break;
                }
            }
        }
        self.scanned = i.min(b.len());
        None
    }

    /// Reads `self.buf[..cut]` and keeps the rest.
    fn read_piece(&mut self, cut: usize, out: &mut Vec<Item<Tectonic>>) {
        let rest = self.buf.split_off(cut);
        let piece = std::mem::replace(&mut self.buf, rest);
        let start = self.at;
        let mut cursor = Cursor::new(&piece, start);
        if !self.dead {
            self.events(&piece, &mut cursor, out);
        }
        self.at = cursor.at(piece.len());
        self.scanned = 0;
    }

    fn error(&mut self, at: Pos, m: String, out: &mut Vec<Item<Tectonic>>) {
        self.handed += 1;
        out.push(Err(InputError::new(&self.file, at.0, at.1, m)));
    }

    /// The quick-xml events of one piece, with the document's state carried over.
    fn events(&mut self, piece: &str, cursor: &mut Cursor, out: &mut Vec<Item<Tectonic>>) {
        let mut reader = quick_xml::Reader::from_str(piece);
        reader.config_mut().trim_text(true);
        reader.config_mut().expand_empty_elements = true;
        // End tags are matched here, across pieces.
        reader.config_mut().check_end_names = false;
        reader.config_mut().allow_unmatched_ends = true;
        loop {
            let before = reader.buffer_position() as usize;
            let ev = match reader.read_event() {
                Ok(ev) => ev,
                Err(e) => {
                    let at = cursor.at(reader.error_position() as usize);
                    self.error(at, format!("malformed XML: {e}"), out);
                    self.dead = true;
                    return;
                }
            };
            // The element starts at the first `<` after the previous event.
            let start = piece[before.min(piece.len())..]
                .find('<')
                .map_or(before, |k| before + k);
            let at = cursor.at(start);
            let expected = match (self.depth_root, &self.open) {
                (0, _) => "<Puzzles>",
                (1, None) => "<Puzzle width=\"..\" height=\"..\"> or </Puzzles>",
                (1, Some(_)) => "<Cell PieceNumber=\"..\" Value=\"..\"/> or </Puzzle>",
                _ => "nothing after </Puzzles>",
            };
            let unexpected = |what: String| format!("unexpected {what}: expected {expected}");
            match ev {
                Event::Eof => return,
                Event::Empty(_) => {}
                Event::Decl(_) | Event::Comment(_) | Event::PI(_) | Event::DocType(_) => {}
                Event::Text(t) => {
                    let s = String::from_utf8_lossy(t.as_ref()).into_owned();
                    if !s.trim().is_empty() && !self.skipping {
                        self.fault(at, unexpected(format!("text `{}`", s.trim())), out);
                        if self.dead {
                            return;
                        }
                    }
                }
                Event::CData(_) => {
                    if !self.skipping {
                        self.fault(at, unexpected("CDATA".into()), out);
                        if self.dead {
                            return;
                        }
                    }
                }
                Event::Start(e) => {
                    let el = match element(&self.file, &e, at) {
                        Ok(el) => el,
                        Err(err) => {
                            self.stack
                                .push(String::from_utf8_lossy(e.name().as_ref()).into_owned());
                            if !self.skipping {
                                self.puzzle_fault(err, out);
                                if self.dead {
                                    return;
                                }
                            }
                            continue;
                        }
                    };
                    self.stack.push(el.name.clone());
                    if self.skipping {
                        continue;
                    }
                    match (self.depth_root, el.name.as_str(), self.open.is_some()) {
                        (0, "Puzzles", _) => {
                            self.depth_root = 1;
                            self.root_at = at;
                        }
                        (1, "Puzzle", false) => {
                            let size = size_attr(&self.file, &el, "width")
                                .and_then(|w| size_attr(&self.file, &el, "height").map(|h| (w, h)));
                            match size {
                                Ok((width, height)) => {
                                    self.open = Some(Open {
                                        el,
                                        width,
                                        height,
                                        names: Vec::new(),
                                        values: Vec::new(),
                                        cells_at: Vec::new(),
                                    })
                                }
                                Err(err) => {
                                    self.handed += 1;
                                    out.push(Err(err));
                                    self.skipping = true;
                                }
                            }
                        }
                        (1, "Cell", true) => {
                            let p = self.open.as_mut().expect("open puzzle");
                            if let Err(err) = cell(&self.file, &el, p) {
                                self.puzzle_fault(err, out);
                            }
                        }
                        _ => {
                            self.fault(at, unexpected(format!("<{}>", el.name)), out);
                            if self.dead {
                                return;
                            }
                        }
                    }
                }
                Event::End(e) => {
                    let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                    match self.stack.pop() {
                        Some(open) if open == name => {}
                        other => {
                            let m = match other {
                                Some(open) => {
                                    format!("malformed XML: </{name}> where </{open}> was expected")
                                }
                                None => format!("malformed XML: </{name}> closes nothing"),
                            };
                            self.error(at, m, out);
                            self.dead = true;
                            return;
                        }
                    }
                    match name.as_str() {
                        "Puzzle" if self.skipping => {
                            self.skipping = false;
                            self.open = None;
                        }
                        "Puzzle" => {
                            if let Some(p) = self.open.take() {
                                let t = finish(&self.file, p);
                                self.handed += 1;
                                out.push(t);
                            }
                        }
                        "Puzzles" => self.depth_root = 2,
                        _ => {}
                    }
                }
            }
        }
    }

    /// Something out of place: inside a puzzle it spoils that puzzle only; elsewhere the
    /// document's structure is lost and the rest is not read.
    fn fault(&mut self, at: Pos, m: String, out: &mut Vec<Item<Tectonic>>) {
        let e = InputError::new(&self.file, at.0, at.1, m);
        self.puzzle_fault(e, out);
    }

    fn puzzle_fault(&mut self, e: InputError, out: &mut Vec<Item<Tectonic>>) {
        self.handed += 1;
        out.push(Err(e));
        if self.open.is_some() {
            self.open = None;
            self.skipping = true;
        } else {
            self.dead = true;
        }
    }
}

impl crate::records::PuzzleReader for Reader {
    type Puzzle = Tectonic;

    fn line(&mut self, ln: usize, line: &str, out: &mut Vec<Item<Tectonic>>) {
        if self.dead {
            return;
        }
        if self.buf.is_empty() {
            self.at = (ln, 1);
        }
        if !line.trim().is_empty() {
            self.last = (ln, line.trim_end().chars().count() + 1);
        }
        self.buf.push_str(line);
        self.buf.push('\n');
        while let Some(cut) = self.next_cut() {
            self.read_piece(cut, out);
            if self.dead {
                self.buf.clear();
                return;
            }
        }
    }

    fn end(&mut self, out: &mut Vec<Item<Tectonic>>) {
        let len = self.buf.len();
        self.read_piece(len, out);
        if self.dead {
            return;
        }
        // A file cut off: report it at its end, naming the element left open.
        let open_at = match (&self.open, self.depth_root) {
            (Some(p), _) => Some(("<Puzzle>", p.el.at)),
            (None, 1) => Some(("<Puzzles>", self.root_at)),
            _ => None,
        };
        if let Some((name, (l, c))) = open_at {
            let m = format!("unexpected end of file: {name} opened at {l}:{c} is not closed");
            self.error(self.last, m, out);
            return;
        }
        if self.depth_root == 0 && self.handed == 0 {
            let m = "no <Puzzles> element: expected FWieP's XML (<Puzzles><Puzzle width height><Cell .../>...)";
            self.error((1, 1), m.into(), out);
        } else if self.handed == 0 {
            self.error((1, 1), "<Puzzles> holds no <Puzzle>".into(), out);
        }
    }
}

/// Line and column of byte offsets in a piece of text, asked for in increasing order (so a
/// whole piece costs one pass).
struct Cursor<'a> {
    text: &'a str,
    offset: usize,
    pos: Pos,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str, start: Pos) -> Cursor<'a> {
        Cursor {
            text,
            offset: 0,
            pos: start,
        }
    }

    /// The line and column of byte `to` (not before the last one asked for).
    fn at(&mut self, to: usize) -> Pos {
        let to = to.min(self.text.len()).max(self.offset);
        for c in self.text[self.offset..to].chars() {
            if c == '\n' {
                self.pos = (self.pos.0 + 1, 1);
            } else {
                self.pos.1 += 1;
            }
        }
        self.offset = to;
        self.pos
    }
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
