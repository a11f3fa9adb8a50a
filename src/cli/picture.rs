//! Pictures on the command line: `--format svg|png|pdf` on solve, check, hint, explain and
//! generate, what a picture shows (`--picture`), printable pages (`--page`), Takuzu's circles
//! (`--style`) and where the files go (`--out DIR`). The verbs hand over each puzzle's pictures
//! (made by the kind through [`crate::draw`]); this module lays them out and writes them: one
//! document to standard output, or files named after the input file, the puzzle's number and
//! the step's. Nothing is written before every picture of the run is made, so a usage error
//! found late leaves no partial output.

use super::args::PictureArgs;
use crate::draw::layout::{self, Paper, Sheet};
use crate::draw::{raster, Look, Picture};
use crate::error::{Error, Result};
use crate::puzzle::Puzzle;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// The smallest cell of a puzzle printed to be solved on paper, in millimetres (puzzle books
/// use 7 to 9), and of a printed solution, only looked up.
const PUZZLE_CELL_MM: f64 = 7.0;
const SOLUTION_CELL_MM: f64 = 4.0;

/// The values of `--format` that make pictures.
pub const FORMATS: [&str; 3] = crate::draw::FORMATS;

/// True when `--format` names a picture format.
pub fn is_picture(format: &str) -> bool {
    FORMATS.contains(&format.to_ascii_lowercase().as_str())
}

/// The file type of the pictures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileType {
    Svg,
    Png,
    Pdf,
}

impl FileType {
    fn ext(self) -> &'static str {
        match self {
            FileType::Svg => "svg",
            FileType::Png => "png",
            FileType::Pdf => "pdf",
        }
    }
}

pub use crate::record::pictures::Show;

/// How pictures are put on pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pages {
    /// Printable pages of this paper.
    Paper(Paper),
    /// One page holding every picture.
    Single,
}

/// Everything the picture options ask for.
#[derive(Clone, Debug)]
pub struct Request {
    pub file_type: FileType,
    pub show: Show,
    pub pages: Option<Pages>,
    pub out: Option<PathBuf>,
    pub look: Look,
}

/// The pictures a command line asks for: `None` when `--format` is not a picture format, and
/// then none of the picture options may be given. `default` is what the verb shows by default;
/// `verb` names it in messages.
pub fn request(
    format: Option<&str>,
    a: &PictureArgs,
    default: Show,
    verb: &str,
) -> Result<Option<Request>> {
    let file_type = match format.map(|f| f.to_ascii_lowercase()) {
        Some(f) if f == "svg" => FileType::Svg,
        Some(f) if f == "png" => FileType::Png,
        Some(f) if f == "pdf" => FileType::Pdf,
        _ => {
            let given = [
                ("--picture", a.picture.is_some()),
                ("--page", a.page.is_some()),
                ("--out", a.out.is_some()),
                ("--style", a.style.is_some()),
            ];
            if let Some((flag, _)) = given.iter().find(|g| g.1) {
                return Err(Error::Usage(format!(
                    "{flag} goes with pictures: add --format svg, png or pdf"
                )));
            }
            return Ok(None);
        }
    };
    let show = match a.picture.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None => default,
        Some("puzzle") => Show::Puzzle,
        Some("solution") => Show::Solution,
        Some("both") => Show::Both,
        Some(other) => {
            return Err(Error::Usage(format!(
                "unknown --picture `{other}`: expected puzzle, solution or both"
            )))
        }
    };
    if a.picture.is_some() && matches!(verb, "explain" | "hint") {
        return Err(Error::Usage(format!(
            "--picture is not available for {verb}: its pictures show the steps"
        )));
    }
    let pages = match a.page.as_deref() {
        None => None,
        Some(s) if s.eq_ignore_ascii_case("single") => Some(Pages::Single),
        Some(s) => Some(Pages::Paper(Paper::from_name(s).ok_or_else(|| {
            Error::Usage(format!(
                "unknown --page `{s}`: expected a4, letter or single"
            ))
        })?)),
    };
    let look = match a.style.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None | Some("digits") => Look::default(),
        Some("circles") => Look { circles: true },
        Some(other) => {
            return Err(Error::Usage(format!(
                "unknown --style `{other}`: expected digits or circles (Takuzu)"
            )))
        }
    };
    Ok(Some(Request {
        file_type,
        show,
        pages,
        out: a.out.as_ref().map(PathBuf::from),
        look,
    }))
}

/// Refuses, before anything is solved, a run that would make `pictures` SVG or PNG files
/// (one a page with `--page`, else one a picture) without `--out` to put them in; `exact`
/// false: at least that many (explain draws a picture per step, known only once solved).
pub fn check_room(req: &Request, pictures: usize, exact: bool) -> Result<()> {
    let several = pictures > 1 && req.pages.is_none();
    if several && req.out.is_none() && req.file_type != FileType::Pdf {
        // explain knows only a floor before solving: a step each, and the end.
        let many = if exact {
            pictures.to_string()
        } else {
            format!("at least {pictures}")
        };
        return Err(Error::Usage(format!(
            "this makes {many} {} files: give --out DIR to write them (or --format pdf for one document, or --page to put them on pages)",
            req.file_type.ext().to_uppercase()
        )));
    }
    Ok(())
}

/// Refuses pictures of a kind that has none (checked before anything is solved).
pub fn check_kind<P: Puzzle>(p: &P, look: Look) -> Result<()> {
    match p.picture(None, look) {
        Some(_) => Ok(()),
        None => Err(Error::Usage(format!(
            "--format {} is not available for {} puzzles: they have no pictures yet",
            FORMATS.join("/"),
            p.kind().name()
        ))),
    }
}

/// The name stem of pictures of an input file: its name without folder and extension.
pub fn stem(file: &str) -> String {
    if file == "<stdin>" || file == "-" {
        return "stdin".into();
    }
    Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| !s.is_empty())
        .unwrap_or("puzzle")
        .to_string()
}

/// Writes the run's pictures. `items` are (file name, pictures drawn side by side); with
/// `--page` every picture goes on the pages in order, titled `title`. `name` names the one
/// PDF or page file written to `--out`.
pub fn write(
    req: &Request,
    items: Vec<(String, Vec<Picture>)>,
    title: &str,
    name: &str,
) -> Result<()> {
    let sheets: Vec<(String, Sheet)> = match req.pages {
        None => items
            .into_iter()
            .map(|(n, pics)| (n, layout::side_by_side(&pics)))
            .collect(),
        Some(pages) => {
            let all: Vec<Picture> = items.into_iter().flat_map(|(_, p)| p).collect();
            paged(&all, pages, PUZZLE_CELL_MM, title, name)
        }
    };
    emit(req, sheets, name)
}

/// A puzzle book (`generate --page`): the puzzles on the first pages, their solutions (drawn
/// smaller) on the pages after. Without `--page`, each puzzle is one picture (with its
/// solution beside it for `--picture both`).
pub fn write_book(
    req: &Request,
    puzzles: Vec<(String, Picture, Picture)>,
    title: &str,
    name: &str,
) -> Result<()> {
    match req.pages {
        None => {
            let items = puzzles
                .into_iter()
                .map(|(n, p, s)| {
                    let pics = match req.show {
                        Show::Puzzle => vec![p],
                        Show::Solution => vec![s],
                        Show::Both => vec![p, s.with_caption("solution")],
                    };
                    (n, pics)
                })
                .collect();
            write(req, items, title, name)
        }
        Some(pages) => {
            let (ps, ss): (Vec<Picture>, Vec<Picture>) =
                puzzles.into_iter().map(|(_, p, s)| (p, s)).unzip();
            let mut sheets = Vec::new();
            if req.show != Show::Solution {
                sheets.extend(paged(
                    &ps,
                    pages,
                    PUZZLE_CELL_MM,
                    &format!("{title}: puzzles"),
                    name,
                ));
            }
            if req.show != Show::Puzzle {
                sheets.extend(paged(
                    &ss,
                    pages,
                    SOLUTION_CELL_MM,
                    &format!("{title}: solutions"),
                    &format!("{name}-solutions"),
                ));
            }
            // Page files are numbered through the whole book.
            let total = sheets.len();
            let width = total.to_string().len();
            let sheets = sheets
                .into_iter()
                .enumerate()
                .map(|(k, (_, s))| {
                    let n = if total == 1 {
                        name.to_string()
                    } else {
                        format!("{name}-page{:0width$}", k + 1)
                    };
                    (n, s)
                })
                .collect();
            emit(req, sheets, name)
        }
    }
}

/// Pictures on pages, each page named `name-pageK` (just `name` when there is one).
fn paged(
    pictures: &[Picture],
    pages: Pages,
    min_cell_mm: f64,
    title: &str,
    name: &str,
) -> Vec<(String, Sheet)> {
    let sheets = match pages {
        Pages::Paper(paper) => layout::pages(pictures, paper, min_cell_mm, title),
        Pages::Single => vec![layout::long_page(pictures, title)],
    };
    let total = sheets.len();
    let width = total.to_string().len();
    sheets
        .into_iter()
        .enumerate()
        .map(|(k, s)| {
            let n = if total == 1 {
                name.to_string()
            } else {
                format!("{name}-page{:0width$}", k + 1)
            };
            (n, s)
        })
        .collect()
}

fn io_error(what: &str, e: std::io::Error) -> Error {
    Error::Usage(format!("cannot write {what}: {e}"))
}

/// Writes the sheets: a PDF holds them all; SVG and PNG are one file each. One document goes
/// to standard output unless `--out` is given.
fn emit(req: &Request, sheets: Vec<(String, Sheet)>, pdf_name: &str) -> Result<()> {
    if sheets.is_empty() {
        return Ok(());
    }
    let ext = req.file_type.ext();
    let mut docs: Vec<(String, Vec<u8>)> = Vec::new();
    match req.file_type {
        FileType::Pdf => {
            let svgs: Vec<String> = sheets.iter().map(|(_, s)| s.to_svg()).collect();
            docs.push((
                pdf_name.to_string(),
                raster::pdf(&svgs).map_err(Error::Bug)?,
            ));
        }
        FileType::Svg => {
            for (n, s) in sheets {
                docs.push((n, s.to_svg().into_bytes()));
            }
        }
        FileType::Png => {
            for (n, s) in sheets {
                docs.push((n, raster::png(&s.to_svg()).map_err(Error::Bug)?));
            }
        }
    }
    match &req.out {
        None if docs.len() > 1 => Err(Error::Usage(format!(
            "this makes {} {} files: give --out DIR to write them (or --format pdf for one document, or --page to put them on pages)",
            docs.len(),
            ext.to_uppercase()
        ))),
        None => {
            let stdout = std::io::stdout();
            if req.file_type != FileType::Svg && stdout.is_terminal() {
                return Err(Error::Usage(format!(
                    "a {} is not text: redirect standard output to a file, or give --out DIR",
                    ext.to_uppercase()
                )));
            }
            let mut out = super::output::Stdout::new();
            out.bytes(&docs[0].1)?;
            out.finish()
        }
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| io_error(&dir.display().to_string(), e))?;
            let mut seen = std::collections::HashSet::new();
            for (n, _) in &docs {
                if !seen.insert(n.clone()) {
                    return Err(Error::Usage(format!(
                        "two pictures would both be {n}.{ext} in {}: input files with the same name? Draw them in separate runs",
                        dir.display()
                    )));
                }
            }
            for (n, bytes) in docs {
                let path = dir.join(format!("{n}.{ext}"));
                std::fs::write(&path, bytes)
                    .map_err(|e| io_error(&path.display().to_string(), e))?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_name_pictures_after_their_input() {
        assert_eq!(stem("puzzles/sudoku/classic.txt"), "classic");
        assert_eq!(stem("<stdin>"), "stdin");
        assert_eq!(stem("a/b.c.flow"), "b.c");
    }

    #[test]
    fn options_need_a_picture_format() {
        let a = PictureArgs {
            out: Some("x".into()),
            ..Default::default()
        };
        assert!(request(None, &a, Show::Puzzle, "solve").is_err());
        assert!(request(Some("xml"), &a, Show::Puzzle, "solve").is_err());
        let r = request(Some("PNG"), &a, Show::Puzzle, "solve")
            .unwrap()
            .unwrap();
        assert_eq!(r.file_type, FileType::Png);
        let bad = PictureArgs {
            page: Some("a3".into()),
            ..Default::default()
        };
        assert!(request(Some("svg"), &bad, Show::Puzzle, "solve").is_err());
        let both = PictureArgs {
            picture: Some("both".into()),
            ..Default::default()
        };
        assert!(request(Some("svg"), &both, Show::Puzzle, "hint").is_err());
    }
}
