//! Every kind in one place: options for reading, detecting a file's kind, reading a file as a
//! list of puzzles (a file of puzz.link URLs too, each line the kind its genre names), writing
//! puzzles and solutions in a format (`--format`), and [`with_puzzle!`](crate::with_puzzle) to
//! run generic code on any of them.

use crate::error::InputError;
use crate::numberlink::{self, Numberlink};
use crate::puzzle::Kind;
use crate::records::{Item, PuzzleReader};
use crate::shisen::{self, Shisen};
use crate::sudoku::{self, Sudoku};
use crate::takuzu::{self, Takuzu};
use crate::tectonic::{self, Tectonic};

/// A puzzle of any kind.
#[derive(Clone, Debug)]
pub enum AnyPuzzle {
    Sudoku(Sudoku),
    Takuzu(Takuzu),
    Tectonic(Tectonic),
    Numberlink(Numberlink),
    Shisen(Shisen),
}

/// Runs `$body` with `$p` bound to the concrete puzzle inside an [`AnyPuzzle`].
#[macro_export]
macro_rules! with_puzzle {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::kinds::AnyPuzzle::Sudoku($p) => $body,
            $crate::kinds::AnyPuzzle::Takuzu($p) => $body,
            $crate::kinds::AnyPuzzle::Tectonic($p) => $body,
            $crate::kinds::AnyPuzzle::Numberlink($p) => $body,
            $crate::kinds::AnyPuzzle::Shisen($p) => $body,
        }
    };
}

/// Options that change how a file is read or which rules apply, for every kind.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// Sudoku: the box shape (`--box RxC`).
    pub box_shape: Option<(usize, usize)>,
    /// Numberlink: the rule set (`--rules flow|cover|nikoli`); `None` keeps a file's own.
    pub rules: Option<numberlink::Rules>,
    /// Numberlink: how detached loops are kept out (`--loops lazy|exact`).
    pub loops: numberlink::Loops,
    /// Takuzu: the rule options (`--no-distinct-lines`, `--odd-lines`, `--regions`...).
    pub takuzu: takuzu::format::ReadOptions,
    /// Shisen-sho: the rule options (`--no-outline`, `--gravity`, `--chinese`).
    pub shisen: shisen::format::ReadOptions,
    /// Tectonic: the layout of a CSV board (`layout.NAME.csv` beside `board.NAME.csv`), read by
    /// the caller for the one file it goes with.
    pub tectonic_layout: Option<tectonic::format::csv::LayoutFile>,
}

/// The pzprjs genres gridsat reads, and the kind each is.
pub const GENRES: &[(&str, Kind)] = &[
    ("sudoku", Kind::Sudoku),
    ("suguru", Kind::Tectonic),
    ("numlin", Kind::Numberlink),
    ("arukone", Kind::Numberlink),
];

/// True when `text`'s first line that is neither blank nor a comment is a puzz.link URL: then
/// every such line must be one, and each is a puzzle of the kind its genre names.
pub fn is_url_file(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty() && !crate::text::is_comment(l))
        .is_some_and(crate::url::is_url)
}

/// Line `ln` of a file of URLs (`file` in messages), read as the kind its genre names. `kind`,
/// when given, must be that kind.
fn read_url(
    file: &str,
    ln: usize,
    line: &str,
    kind: Option<Kind>,
    opts: &ReadOptions,
) -> Result<AnyPuzzle, InputError> {
    let col = line.len() - line.trim_start().len() + 1;
    if !crate::url::is_url(line) {
        return Err(InputError::new(
            file,
            ln,
            col,
            "expected a puzz.link URL: in a file of URLs every line that is not blank or a comment is one",
        ));
    }
    let url = crate::url::split(file, ln, line)?;
    let genre_col = col + line.trim().find('?').map_or(0, |q| q + 1);
    let Some(&(_, k)) = GENRES.iter().find(|(g, _)| *g == url.genre) else {
        let names: Vec<&str> = GENRES.iter().map(|(g, _)| *g).collect();
        return Err(InputError::new(
            file,
            ln,
            genre_col,
            format!(
                "gridsat does not read pzprjs's `{}` puzzles; it reads {}",
                url.genre,
                names.join(", ")
            ),
        ));
    };
    if let Some(want) = kind.filter(|&w| w != k) {
        return Err(InputError::new(
            file,
            ln,
            genre_col,
            format!(
                "this URL is a {} puzzle ({}), but --kind {} was given",
                url.genre,
                k.name(),
                want.name()
            ),
        ));
    }
    Ok(match k {
        Kind::Sudoku => AnyPuzzle::Sudoku(sudoku::format::from_url(
            &url,
            sudoku::format::ReadOptions {
                box_shape: opts.box_shape,
            },
        )?),
        Kind::Tectonic => AnyPuzzle::Tectonic(tectonic::format::url::from_url(&url)?),
        Kind::Numberlink => AnyPuzzle::Numberlink(numberlink::format::from_url(
            &url,
            numberlink::format::ReadOptions {
                rules: opts.rules,
                loops: opts.loops,
            },
        )?),
        Kind::Takuzu | Kind::Shisen => unreachable!("no takuzu or shisen genre is listed"),
    })
}

/// How much of a file's beginning [`detect`] reads (the command line reads no more before it
/// knows the kind).
pub const DETECT_BYTES: usize = 1 << 20;

/// The kind of a file: by its extension, else by its content. `head` is the file's text, or
/// its first lines when `complete` is false (at least [`DETECT_BYTES`] then).
pub fn detect(path: &str, head: &str, complete: bool) -> Kind {
    by_extension(path).unwrap_or_else(|| by_content(path, head, complete))
}

/// The kind a file's extension names, if it names one.
pub fn by_extension(path: &str) -> Option<Kind> {
    let ext = std::path::Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "sudoku" | "sdk" | "ss" | "sdm" | "sukaku" => Some(Kind::Sudoku),
        "takuzu" | "binairo" | "binary" => Some(Kind::Takuzu),
        "tectonic" | "suguru" | "xml" => Some(Kind::Tectonic),
        "numberlink" | "flow" | "nl" | "arukone" => Some(Kind::Numberlink),
        "shisen" => Some(Kind::Shisen),
        _ => None,
    }
}

/// The kind a file's content looks like; Sudoku when nothing else fits.
fn by_content(path: &str, head: &str, complete: bool) -> Kind {
    if tectonic::format::looks_like(path, head, complete) {
        return Kind::Tectonic;
    }
    if takuzu::format::looks_like(head) {
        return Kind::Takuzu;
    }
    if numberlink::format::looks_like(head, complete) {
        return Kind::Numberlink;
    }
    if shisen::format::looks_like(head, complete) {
        return Kind::Shisen;
    }
    Kind::Sudoku
}

/// What an error in a file whose kind was guessed from its content adds: the guess, and how to
/// name another kind. A Numberlink grid with a typo looks like a broken Sudoku, and a message
/// about Sudoku rules alone would mislead.
pub fn guess_note(k: Kind) -> String {
    let others: Vec<&str> = Kind::ALL
        .iter()
        .filter(|&&o| o != k)
        .map(|o| o.name())
        .collect();
    let (last, rest) = others.split_last().expect("five kinds");
    format!(
        " (read as {} because of its content; for a {} or {last} puzzle, name the kind with --kind or a file extension such as .nl, .takuzu, .tectonic or .shisen)",
        k.name(),
        rest.join(", "),
    )
}

/// Reads `text` (the contents of `path`, called `label` in messages) as `kind`, or as the kind
/// [`detect`] finds (then an error says so: see [`guess_note`]).
pub fn read_any(
    path: &str,
    label: &str,
    text: &str,
    kind: Option<Kind>,
    opts: &ReadOptions,
) -> Result<Vec<AnyPuzzle>, InputError> {
    if is_url_file(text) {
        let reader = AnyReader::new(kind.unwrap_or(Kind::Sudoku), label, opts);
        let reader = if kind.is_some() {
            reader
        } else {
            reader.any_genre()
        };
        return crate::records::read_all(reader, text);
    }
    if let Some(k) = kind.or_else(|| by_extension(path)) {
        return read(label, text, k, opts);
    }
    let k = by_content(path, text, true);
    read(label, text, k, opts).map_err(|mut e| {
        e.message.push_str(&guess_note(k));
        e
    })
}

/// Reads every puzzle of `kind` in `text` (the contents of `file`); a file of URLs is read by
/// their genres, which must be `kind`.
pub fn read(
    file: &str,
    text: &str,
    kind: Kind,
    opts: &ReadOptions,
) -> Result<Vec<AnyPuzzle>, InputError> {
    crate::records::read_all(AnyReader::new(kind, file, opts), text)
}

/// The streaming reader of any kind (see [`crate::records`]): the kind's own, with its
/// puzzles as [`AnyPuzzle`], or the reader of a file of puzz.link URLs when the file's first
/// line that is neither blank nor a comment is one. A line longer than
/// [`crate::records::MAX_LINE`] is an error of its own and not read further. A new kind adds its
/// reader to [`Inner`].
pub struct AnyReader {
    file: String,
    inner: Inner,
}

/// The reader inside an [`AnyReader`].
enum Inner {
    /// Only blank and comment lines so far: a file of URLs, or of the kind.
    Undecided(Box<Undecided>),
    /// A file of puzz.link URLs, one puzzle a line, each the kind its genre names.
    Urls(UrlReader),
    Sudoku(sudoku::format::Reader),
    Takuzu(takuzu::format::Reader),
    Tectonic(tectonic::format::Reader),
    Numberlink(numberlink::format::Reader),
    Shisen(shisen::format::Reader),
}

/// A reader that has not yet seen a puzzle line, and the lines it holds back until it has.
struct Undecided {
    kind: Kind,
    opts: ReadOptions,
    /// URL genres must be this kind (`--kind`), or any when `None`.
    url_kind: Option<Kind>,
    held: Vec<(usize, String)>,
}

/// The reader of a file of puzz.link URLs: every line that is neither blank nor a comment is
/// one, read as the kind its genre names.
struct UrlReader {
    opts: ReadOptions,
    kind: Option<Kind>,
}

impl AnyReader {
    /// A reader of `kind` for the file called `file` in messages; a file of URLs must hold
    /// URLs of that kind (see [`AnyReader::any_genre`]).
    pub fn new(kind: Kind, file: &str, opts: &ReadOptions) -> AnyReader {
        AnyReader {
            file: file.to_string(),
            inner: Inner::Undecided(Box::new(Undecided {
                kind,
                opts: opts.clone(),
                url_kind: Some(kind),
                held: Vec::new(),
            })),
        }
    }

    /// The same reader, reading a file of URLs of any genre (the kind was not named with
    /// `--kind`, only guessed or taken from the file's extension).
    pub fn any_genre(mut self) -> AnyReader {
        if let Inner::Undecided(u) = &mut self.inner {
            u.url_kind = None;
        }
        self
    }

    /// True when the file turned out to be a file of URLs (each line names its own kind).
    pub fn reads_urls(&self) -> bool {
        matches!(self.inner, Inner::Urls(_))
    }

    /// The kind's own reader.
    fn of_kind(kind: Kind, file: &str, opts: &ReadOptions) -> Inner {
        match kind {
            Kind::Sudoku => Inner::Sudoku(sudoku::format::Reader::new(
                file,
                sudoku::format::ReadOptions {
                    box_shape: opts.box_shape,
                },
            )),
            Kind::Takuzu => Inner::Takuzu(takuzu::format::Reader::new(file, &opts.takuzu)),
            Kind::Tectonic => Inner::Tectonic(
                tectonic::format::Reader::new(file).with_layout(opts.tectonic_layout.clone()),
            ),
            Kind::Numberlink => Inner::Numberlink(numberlink::format::Reader::new(
                file,
                numberlink::format::ReadOptions {
                    rules: opts.rules,
                    loops: opts.loops,
                },
            )),
            Kind::Shisen => Inner::Shisen(shisen::format::Reader::new(file, &opts.shisen)),
        }
    }

    /// Leaves the undecided state for a file of URLs (when `urls`) or the kind's own reader,
    /// and gives it the lines held back.
    fn decide(&mut self, urls: bool, out: &mut Vec<Item<AnyPuzzle>>) {
        let Inner::Undecided(u) = &mut self.inner else {
            return;
        };
        let held = std::mem::take(&mut u.held);
        self.inner = if urls {
            Inner::Urls(UrlReader {
                opts: u.opts.clone(),
                kind: u.url_kind,
            })
        } else {
            AnyReader::of_kind(u.kind, &self.file, &u.opts)
        };
        for (ln, l) in held {
            self.line(ln, &l, out);
        }
    }
}

/// Runs a kind's reader and wraps what it hands back.
fn wrapped<P>(
    out: &mut Vec<Item<AnyPuzzle>>,
    wrap: fn(P) -> AnyPuzzle,
    run: impl FnOnce(&mut Vec<Item<P>>),
) {
    let mut got = Vec::new();
    run(&mut got);
    out.extend(got.into_iter().map(|r| r.map(wrap)));
}

impl PuzzleReader for AnyReader {
    type Puzzle = AnyPuzzle;

    fn line(&mut self, ln: usize, line: &str, out: &mut Vec<Item<AnyPuzzle>>) {
        if line.len() > crate::records::MAX_LINE {
            out.push(Err(crate::records::too_long(&self.file, ln)));
            return;
        }
        match &mut self.inner {
            Inner::Undecided(u) => {
                if line.trim().is_empty() || crate::text::is_comment(line) {
                    u.held.push((ln, line.to_string()));
                } else {
                    self.decide(crate::url::is_url(line), out);
                    self.line(ln, line, out);
                }
            }
            Inner::Urls(u) => {
                if !line.trim().is_empty() && !crate::text::is_comment(line) {
                    out.push(read_url(&self.file, ln, line, u.kind, &u.opts));
                }
            }
            Inner::Sudoku(r) => wrapped(out, AnyPuzzle::Sudoku, |o| r.line(ln, line, o)),
            Inner::Takuzu(r) => wrapped(out, AnyPuzzle::Takuzu, |o| r.line(ln, line, o)),
            Inner::Tectonic(r) => wrapped(out, AnyPuzzle::Tectonic, |o| r.line(ln, line, o)),
            Inner::Numberlink(r) => wrapped(out, AnyPuzzle::Numberlink, |o| r.line(ln, line, o)),
            Inner::Shisen(r) => wrapped(out, AnyPuzzle::Shisen, |o| r.line(ln, line, o)),
        }
    }

    fn end(&mut self, out: &mut Vec<Item<AnyPuzzle>>) {
        if let Inner::Undecided(_) = self.inner {
            // No puzzle line at all: the kind's reader says so in its words.
            self.decide(false, out);
        }
        match &mut self.inner {
            Inner::Undecided(_) | Inner::Urls(_) => {}
            Inner::Sudoku(r) => wrapped(out, AnyPuzzle::Sudoku, |o| r.end(o)),
            Inner::Takuzu(r) => wrapped(out, AnyPuzzle::Takuzu, |o| r.end(o)),
            Inner::Tectonic(r) => wrapped(out, AnyPuzzle::Tectonic, |o| r.end(o)),
            Inner::Numberlink(r) => wrapped(out, AnyPuzzle::Numberlink, |o| r.end(o)),
            Inner::Shisen(r) => wrapped(out, AnyPuzzle::Shisen, |o| r.end(o)),
        }
    }
}

/// The formats `--format` writes for each kind (`solve`, `check`, `count` and `generate`).
pub fn formats(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Sudoku => sudoku::format::FORMATS,
        Kind::Takuzu => takuzu::format::FORMATS,
        Kind::Tectonic => tectonic::format::FORMATS,
        Kind::Numberlink => numberlink::format::FORMATS,
        Kind::Shisen => shisen::format::FORMATS,
    }
}

/// What `--format` offers, kind by kind, for messages: the file formats, and the picture
/// formats of [`crate::draw`] every kind has too.
pub fn formats_help() -> String {
    let mut kinds: Vec<String> = Kind::ALL
        .iter()
        .map(|&k| format!("{}: {}", k.name(), formats(k).join(", ")))
        .collect();
    kinds.push(format!(
        "pictures of every kind: {}",
        crate::draw::FORMATS.join(", ")
    ));
    kinds.join("; ")
}

/// Puzzles written back in a file format of their kind, each with its solution (rows as
/// [`crate::puzzle::Puzzle::rows`] gives them) or, for `None`, as given: `gridsat solve
/// --format`, and `generate --format`. The one dispatch for every kind and format; every kind
/// among the puzzles must offer `format` (`Err` says which formats there are). Puzzles of one
/// kind in a row are written together (one document for XML and CSV).
pub fn write_solutions(
    format: &str,
    items: &[(&AnyPuzzle, Option<&Vec<Vec<i64>>>)],
) -> Result<String, String> {
    for (p, _) in items {
        let kind = crate::with_puzzle!(p, q => crate::puzzle::Puzzle::kind(q));
        if !formats(kind).contains(&format) {
            return Err(format!(
                "--format {format} is not available for {} puzzles ({})",
                kind.name(),
                formats_help()
            ));
        }
    }
    let mut out = String::new();
    let mut rest = items;
    while let Some((first, _)) = rest.first() {
        let same = |p: &AnyPuzzle| std::mem::discriminant(p) == std::mem::discriminant(*first);
        let run = rest.iter().take_while(|(p, _)| same(p)).count();
        let (now, later) = rest.split_at(run);
        rest = later;
        macro_rules! of {
            ($variant:ident) => {
                now.iter()
                    .filter_map(|(p, rows)| match p {
                        AnyPuzzle::$variant(q) => Some((q, *rows)),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
            };
        }
        out.push_str(&match first {
            AnyPuzzle::Sudoku(_) => sudoku::format::write_solutions(format, &of!(Sudoku))?,
            AnyPuzzle::Takuzu(_) => takuzu::format::write_solutions(format, &of!(Takuzu))?,
            AnyPuzzle::Tectonic(_) => tectonic::format::write_solutions(format, &of!(Tectonic))?,
            AnyPuzzle::Numberlink(_) => {
                numberlink::format::write_solutions(format, &of!(Numberlink))?
            }
            AnyPuzzle::Shisen(_) => shisen::format::write_solutions(format, &of!(Shisen))?,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_one_line_file_seen_in_part_is_still_sudoku() {
        // 2,500 puzzle lines without a blank line: a "grid" too tall for any Numberlink, so the
        // first MiB must not pass for one.
        let line =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";
        let head = format!("# comment\n{}", line.repeat(2500));
        assert_eq!(detect("big.txt", &head, false), Kind::Sudoku);
        assert_eq!(detect("big.txt", &head, true), Kind::Sudoku);
    }
}
