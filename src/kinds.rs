//! Every kind in one place: options for reading, detecting a file's kind, reading a file as a
//! list of puzzles (a file of puzz.link URLs too, each line the kind its genre names), writing
//! puzzles and solutions in a format (`--format`), and [`with_puzzle!`](crate::with_puzzle) to
//! run generic code on any of them.

use crate::error::InputError;
use crate::numberlink::{self, Numberlink};
use crate::puzzle::Kind;
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

/// Every URL line of `text` (the contents of `file`), each read as the kind its genre names.
/// `kind`, when given, must be that kind.
fn read_urls(
    file: &str,
    text: &str,
    kind: Option<Kind>,
    opts: &ReadOptions,
) -> Result<Vec<AnyPuzzle>, InputError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let ln = i + 1;
        if line.trim().is_empty() || crate::text::is_comment(line) {
            continue;
        }
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
        out.push(match k {
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
            Kind::Takuzu => unreachable!("no takuzu genre is listed"),
        });
    }
    Ok(out)
}

/// The kind of a file: by its extension, else by its content.
pub fn detect(path: &str, text: &str) -> Kind {
    by_extension(path).unwrap_or_else(|| by_content(path, text))
}

/// The kind a file's extension names, if it names one.
fn by_extension(path: &str) -> Option<Kind> {
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
        _ => None,
    }
}

/// The kind a file's content looks like; Sudoku when nothing else fits.
fn by_content(path: &str, text: &str) -> Kind {
    if tectonic::format::looks_like(path, text) {
        return Kind::Tectonic;
    }
    if takuzu::format::looks_like(text) {
        return Kind::Takuzu;
    }
    if numberlink::format::looks_like(text) {
        return Kind::Numberlink;
    }
    Kind::Sudoku
}

/// Reads `text` (the contents of `path`, called `label` in messages) as `kind`, or as the kind
/// [`detect`] finds. When the kind was only guessed from the content and the file does not
/// read as that kind, the error says so and how to name the kind: a Numberlink grid with a
/// typo looks like a broken Sudoku, and a message about Sudoku rules would mislead.
pub fn read_any(
    path: &str,
    label: &str,
    text: &str,
    kind: Option<Kind>,
    opts: &ReadOptions,
) -> Result<Vec<AnyPuzzle>, InputError> {
    if is_url_file(text) {
        return read_urls(label, text, kind, opts);
    }
    if let Some(k) = kind.or_else(|| by_extension(path)) {
        return read(label, text, k, opts);
    }
    let k = by_content(path, text);
    read(label, text, k, opts).map_err(|mut e| {
        let others: Vec<&str> = Kind::ALL
            .iter()
            .filter(|&&o| o != k)
            .map(|o| o.name())
            .collect();
        let (last, rest) = others.split_last().expect("four kinds");
        e.message.push_str(&format!(
            " (read as {} because of its content; for a {} or {last} puzzle, name the kind with --kind or a file extension such as .nl, .takuzu or .tectonic)",
            k.name(),
            rest.join(", "),
        ));
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
    if is_url_file(text) {
        return read_urls(file, text, Some(kind), opts);
    }
    match kind {
        Kind::Sudoku => Ok(sudoku::format::parse(
            file,
            text,
            sudoku::format::ReadOptions {
                box_shape: opts.box_shape,
            },
        )?
        .into_iter()
        .map(AnyPuzzle::Sudoku)
        .collect()),
        Kind::Tectonic => Ok(tectonic::format::parse(file, text)?
            .into_iter()
            .map(AnyPuzzle::Tectonic)
            .collect()),
        Kind::Takuzu => Ok(takuzu::format::parse(file, text, &opts.takuzu)?
            .into_iter()
            .map(AnyPuzzle::Takuzu)
            .collect()),
        Kind::Numberlink => Ok(numberlink::format::parse(
            file,
            text,
            numberlink::format::ReadOptions {
                rules: opts.rules,
                loops: opts.loops,
            },
        )?
        .into_iter()
        .map(AnyPuzzle::Numberlink)
        .collect()),
    }
}

/// The formats `--format` writes for each kind (`solve`, `check`, `count` and `generate`).
pub fn formats(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Sudoku => sudoku::format::FORMATS,
        Kind::Takuzu => takuzu::format::FORMATS,
        Kind::Tectonic => tectonic::format::FORMATS,
        Kind::Numberlink => numberlink::format::FORMATS,
    }
}

/// What `--format` offers, kind by kind, for messages.
pub fn formats_help() -> String {
    Kind::ALL
        .iter()
        .map(|&k| format!("{}: {}", k.name(), formats(k).join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
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
        });
    }
    Ok(out)
}
