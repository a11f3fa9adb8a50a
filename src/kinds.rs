//! Every kind in one place: options for reading, detecting a file's kind, reading a file as a
//! list of puzzles, and [`with_puzzle!`](crate::with_puzzle) to run generic code on any of them.

use crate::error::InputError;
use crate::puzzle::Kind;
use crate::sudoku::{self, Sudoku};
use crate::takuzu::{self, Takuzu};

/// A puzzle of any kind.
#[derive(Clone, Debug)]
pub enum AnyPuzzle {
    Sudoku(Sudoku),
    Takuzu(Takuzu),
}

/// Runs `$body` with `$p` bound to the concrete puzzle inside an [`AnyPuzzle`].
#[macro_export]
macro_rules! with_puzzle {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::kinds::AnyPuzzle::Sudoku($p) => $body,
            $crate::kinds::AnyPuzzle::Takuzu($p) => $body,
        }
    };
}

/// Options that change how a file is read or which rules apply, for every kind.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// Sudoku: the box shape (`--box RxC`).
    pub box_shape: Option<(usize, usize)>,
    /// Takuzu: the rule options (`--no-distinct-lines`, `--odd-lines`, `--regions`...).
    pub takuzu: takuzu::format::ReadOptions,
}

/// The kind of a file: by its extension, else by its content.
pub fn detect(path: &str, text: &str) -> Kind {
    let ext = std::path::Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "sudoku" | "sdk" | "ss" | "sdm" => return Kind::Sudoku,
        "takuzu" | "binairo" | "binary" => return Kind::Takuzu,
        "tectonic" | "suguru" | "xml" => return Kind::Tectonic,
        "numberlink" | "flow" | "nl" | "arukone" => return Kind::Numberlink,
        _ => {}
    }
    if takuzu::format::looks_like(text) {
        return Kind::Takuzu;
    }
    Kind::Sudoku
}

/// Reads every puzzle of `kind` in `text` (the contents of `file`).
pub fn read(
    file: &str,
    text: &str,
    kind: Kind,
    opts: &ReadOptions,
) -> Result<Vec<AnyPuzzle>, InputError> {
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
        Kind::Takuzu => Ok(takuzu::format::parse(file, text, &opts.takuzu)?
            .into_iter()
            .map(AnyPuzzle::Takuzu)
            .collect()),
        other => Err(InputError::new(
            file,
            1,
            1,
            format!("reading {} puzzles is not available yet", other.name()),
        )),
    }
}
