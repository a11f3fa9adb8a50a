//! An order for generated puzzles: the kind and its options in words, as the command line's
//! `generate` flags give them (size, difficulty, symmetry, clues...), checked with its messages
//! and turned into the kind's seeded generator ([`plan`], [`Plan::make`]): the command line,
//! the web page and the Python package generate the same puzzle for the same order and seed.

use crate::error::{Error, Result};
use crate::generate::Generated;
use crate::options::TakuzuWords;
use crate::puzzle::Kind;
use crate::sudoku::generate as sudoku_gen;
use crate::sudoku::{default_box, generate::Layout};

/// What to generate, in words (every field but `kind` optional: the kind's defaults).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Order {
    pub kind: Kind,
    /// `--size N` (N x N) or `WxH`.
    pub size: Option<(usize, usize)>,
    pub width: Option<usize>,
    pub height: Option<usize>,
    /// Sudoku: the box shape `RxC`.
    pub box_shape: Option<String>,
    /// Numberlink: `flow`, `cover` or `nikoli`.
    pub rules: Option<String>,
    /// A grade level (each kind's words), or `any`.
    pub difficulty: Option<String>,
    /// Sudoku: the symmetry of the givens.
    pub symmetry: Option<String>,
    /// No given can be removed.
    pub minimal: bool,
    /// Sudoku: `N`, `MIN-MAX` or a band (easy, medium, hard, evil).
    pub clues: Option<String>,
    /// Tries before a seed's target counts as missed.
    pub attempts: Option<usize>,
    /// Sudoku: `line` or `grid`.
    pub layout: Option<String>,
    /// Tectonic: the largest piece.
    pub max_piece: Option<usize>,
    /// Shisen-sho: only deals with one way to pair the tiles.
    pub unique: bool,
    pub takuzu: TakuzuWords,
    /// Shisen-sho rules: no lines around the board, gravity, Chinese matching.
    pub no_outline: bool,
    pub gravity: bool,
    pub chinese: bool,
}

impl Order {
    /// An order of `kind` with every option left to the kind's defaults.
    pub fn new(kind: Kind) -> Order {
        Order {
            kind,
            size: None,
            width: None,
            height: None,
            box_shape: None,
            rules: None,
            difficulty: None,
            symmetry: None,
            minimal: false,
            clues: None,
            attempts: None,
            layout: None,
            max_piece: None,
            unique: false,
            takuzu: TakuzuWords::default(),
            no_outline: false,
            gravity: false,
            chinese: false,
        }
    }
}

/// `--clues`: a range of givens, or a named band the kind defines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Clues {
    /// Fewest and most givens, both inclusive.
    Range(usize, usize),
    /// A band name (Sudoku: easy, medium, hard, evil).
    Band(String),
}

/// Parses `--clues`: `N`, `MIN-MAX`, or a band name.
pub fn parse_clues(s: &str) -> Result<Clues> {
    let t = s.trim();
    let bad = || {
        Error::Usage(format!(
            "--clues expects a number of givens (30), a range MIN-MAX (27-35) or a band name (easy, medium, hard, evil), got `{s}`"
        ))
    };
    if t.is_empty() {
        return Err(bad());
    }
    if t.chars().all(|c| c.is_ascii_alphabetic()) {
        return Ok(Clues::Band(t.to_ascii_lowercase()));
    }
    let (lo, hi) = match t.split_once('-') {
        Some((lo, hi)) => (lo.trim(), hi.trim()),
        None => (t, t),
    };
    let lo: usize = lo.parse().map_err(|_| bad())?;
    let hi: usize = hi.parse().map_err(|_| bad())?;
    if lo > hi {
        return Err(Error::Usage(format!(
            "--clues {s}: the range is empty (MIN must not be above MAX)"
        )));
    }
    Ok(Clues::Range(lo, hi))
}

/// `--layout`: how puzzles are written (`None`: the kind's default for the size).
pub fn parse_layout(s: &Option<String>) -> Result<Option<Layout>> {
    s.as_deref()
        .map(|l| match l.to_ascii_lowercase().as_str() {
            "line" => Ok(Layout::Line),
            "grid" => Ok(Layout::Grid),
            other => Err(Error::Usage(format!(
                "unknown --layout `{other}`: expected line or grid"
            ))),
        })
        .transpose()
}

/// A kind's generator, set up from an [`Order`].
pub enum Plan {
    Sudoku(sudoku_gen::Options, Layout),
    Tectonic(crate::tectonic::generate::Options),
    Numberlink(crate::numberlink::generate::Options),
    Takuzu(crate::takuzu::generate::Options),
    Shisen(crate::shisen::generate::Options),
}

/// What one seed gave.
pub enum Made {
    Puzzle(Generated),
    /// The target was not reached within the attempts: why.
    Missed(String),
}

/// The kind-specific options an order gives, by the command line's flag name.
fn given_options(a: &Order) -> Vec<&'static str> {
    let t = &a.takuzu;
    [
        ("--size", a.size.is_some()),
        ("--width", a.width.is_some()),
        ("--height", a.height.is_some()),
        ("--box", a.box_shape.is_some()),
        ("--difficulty", a.difficulty.is_some()),
        ("--symmetry", a.symmetry.is_some()),
        ("--clues", a.clues.is_some()),
        ("--minimal", a.minimal),
        ("--attempts", a.attempts.is_some()),
        ("--layout", a.layout.is_some()),
        ("--max-piece", a.max_piece.is_some()),
        ("--rules", a.rules.is_some()),
        ("--distinct-lines", t.distinct_lines),
        ("--no-distinct-lines", t.no_distinct_lines),
        ("--odd-lines", t.odd_lines.is_some()),
        ("--regions", t.regions.is_some()),
        ("--distinct-encoding", t.distinct_encoding.is_some()),
        ("--unique", a.unique),
        ("--gravity", a.gravity),
        ("--chinese", a.chinese),
        ("--no-outline", a.no_outline),
    ]
    .into_iter()
    .filter(|&(_, given)| given)
    .map(|(flag, _)| flag)
    .collect()
}

/// `--size` as the side of a square (Sudoku): `WxH` only when W = H.
fn side(a: &Order) -> Result<Option<usize>> {
    match a.size {
        None => Ok(None),
        Some((w, h)) if w == h => Ok(Some(w)),
        Some((w, h)) => Err(Error::Usage(format!(
            "--size {w}x{h}: a Sudoku grid is square; give its side (--size N)"
        ))),
    }
}

/// `--difficulty`: `None` for none or `any`, else the level's index (one vocabulary and one
/// message for every kind: [`crate::generate::difficulty`]).
fn level(a: &Order) -> Result<Option<usize>> {
    match a.difficulty.as_deref() {
        None => Ok(None),
        Some(d) => crate::generate::difficulty(d).map_err(|m| {
            Error::Usage(match a.kind {
                Kind::Sudoku => format!("{m} (for a number of givens use --clues)"),
                _ => m,
            })
        }),
    }
}

/// Width and height of a board (Takuzu, Tectonic, Numberlink): `--size N` (a square) or
/// `--size WxH` (W columns, H rows), either side replaced by `--width` / `--height`; `square`
/// when none is given.
fn dims(a: &Order, square: usize) -> (usize, usize) {
    let (w, h) = a.size.unwrap_or((square, square));
    (a.width.unwrap_or(w), a.height.unwrap_or(h))
}

/// Refuses any option given that `kind`'s generator does not take (exit 2), rather than
/// silently ignoring it.
fn accept_only(kind: &str, a: &Order, accepted: &[&str]) -> Result<()> {
    match given_options(a).into_iter().find(|f| !accepted.contains(f)) {
        Some(flag) => Err(Error::Usage(format!(
            "{flag} is not available when generating {kind} puzzles (it takes {})",
            accepted.join(", ")
        ))),
        None => Ok(()),
    }
}

/// The Takuzu generator's options from the command line (the seed is set per puzzle).
fn takuzu_options(a: &Order) -> Result<crate::takuzu::generate::Options> {
    use crate::takuzu::generate::Options;
    accept_only(
        "takuzu",
        a,
        &[
            "--size",
            "--width",
            "--height",
            "--difficulty",
            "--minimal",
            "--distinct-lines",
            "--no-distinct-lines",
            "--odd-lines",
            "--regions",
            "--distinct-encoding",
        ],
    )?;
    let (width, height) = match (a.size, a.width, a.height) {
        (None, Some(_), None) | (None, None, Some(_)) => {
            return Err(Error::Usage(
                "takuzu: give --size N or WxH, or both --width and --height".into(),
            ))
        }
        _ => dims(a, 10),
    };
    let difficulty = level(a)?;
    let any = a.difficulty.is_some() && difficulty.is_none();
    if a.minimal && difficulty.is_some() {
        return Err(Error::Usage(
            "takuzu: --minimal and --difficulty do not go together (without --difficulty the puzzles are minimal; a level adds givens back)".into(),
        ));
    }
    let read = crate::options::takuzu_options(&a.takuzu)?;
    let mut rules = crate::takuzu::Rules {
        distinct_lines: read.distinct_lines.unwrap_or(true),
        odd_lines: read.odd_lines.unwrap_or_default(),
        encoding: read.encoding,
        ..Default::default()
    };
    if let Some(tag) = &read.regions {
        rules.regions = crate::takuzu::format::layout_regions(tag, width, height)
            .map_err(|m| Error::Usage(format!("--regions: {m}")))?;
        rules.layout = Some(tag.clone());
    }
    Ok(Options {
        width,
        height,
        rules,
        difficulty,
        // Without a level the puzzle is made for the strategies to finish, unless it must be
        // minimal or `any` unique puzzle will do.
        finish: !a.minimal && !any,
        seed: 0,
    })
}

/// The Tectonic generator's options from the command line.
pub fn tectonic_options(a: &Order) -> Result<crate::tectonic::generate::Options> {
    accept_only(
        "tectonic",
        a,
        &[
            "--size",
            "--width",
            "--height",
            "--max-piece",
            "--difficulty",
            "--minimal",
        ],
    )?;
    let (width, height) = dims(a, 8);
    let difficulty = match (&a.difficulty, level(a)?) {
        (_, Some(i)) => Some(crate::explain::LEVELS[i].to_string()),
        (Some(_), None) => Some("any".to_string()),
        (None, None) => None,
    };
    Ok(crate::tectonic::generate::Options {
        width,
        height,
        max_piece: a.max_piece.unwrap_or(5),
        difficulty,
    })
}

/// The Numberlink generator's options from the command line.
fn numberlink_options(a: &Order) -> Result<crate::numberlink::generate::Options> {
    accept_only(
        "numberlink",
        a,
        &[
            "--size",
            "--width",
            "--height",
            "--rules",
            "--minimal",
            "--difficulty",
        ],
    )?;
    use crate::numberlink::generate::Target;
    let target = match (&a.difficulty, level(a)?) {
        (_, Some(i)) => Target::Level(i),
        (Some(_), None) => Target::Unique,
        (None, None) => Target::Finish,
    };
    let rules = crate::options::numberlink_options(a.rules.as_deref(), None)?
        .0
        .unwrap_or_default();
    let (width, height) = dims(a, 7);
    Ok(crate::numberlink::generate::Options {
        width,
        height,
        rules,
        minimal: a.minimal,
        target,
    })
}

/// The Shisen-sho generator's options from the command line.
fn shisen_options(a: &Order) -> Result<crate::shisen::generate::Options> {
    accept_only(
        "shisen",
        a,
        &[
            "--size",
            "--width",
            "--height",
            "--difficulty",
            "--attempts",
            "--unique",
            "--gravity",
            "--chinese",
            "--no-outline",
        ],
    )?;
    let difficulty = level(a)?.map(|i| crate::explain::LEVELS[i]);
    crate::shisen::generate::Options::from_args(
        a.size,
        a.width,
        a.height,
        difficulty,
        a.attempts,
        a.unique,
        crate::shisen::Rules {
            outline: !a.no_outline,
            gravity: a.gravity,
            chinese: a.chinese,
        },
    )
    .map_err(Error::Usage)
}

/// Sudoku options from the command line, with notes for the user (an adjusted clue range).
fn sudoku_plan(a: &Order) -> Result<(Plan, Vec<String>)> {
    if a.width.is_some() || a.height.is_some() {
        return Err(Error::Usage(
            "a Sudoku grid is square: give its side with --size (and --box RxC for its boxes), not --width/--height".into(),
        ));
    }
    accept_only(
        "sudoku",
        a,
        &[
            "--size",
            "--box",
            "--difficulty",
            "--symmetry",
            "--clues",
            "--minimal",
            "--attempts",
            "--layout",
        ],
    )?;
    let boxes = a
        .box_shape
        .as_deref()
        .map(crate::options::parse_box)
        .transpose()?;
    let (size, (br, bc)) = match (side(a)?, boxes) {
        (Some(n), Some((r, c))) if r * c == n => (n, (r, c)),
        (Some(n), Some((r, c))) => {
            return Err(Error::Usage(format!(
                "--box {r}x{c} does not tile a {n}x{n} grid ({r}*{c} must be {n})"
            )))
        }
        (Some(n), None) => (
            n,
            default_box(n).ok_or_else(|| {
                Error::Usage(format!(
                    "a {n}x{n} Sudoku has no usual box shape; give one with --box RxC (ROWS*COLS = {n})"
                ))
            })?,
        ),
        (None, Some((r, c))) => (r * c, (r, c)),
        (None, None) => (9, (3, 3)),
    };
    let mut o = sudoku_gen::Options::new(size, br, bc);
    if let Some(s) = &a.symmetry {
        o.symmetry = sudoku_gen::Symmetry::from_name(s).ok_or_else(|| {
            let names: Vec<&str> = sudoku_gen::Symmetry::ALL.iter().map(|s| s.name()).collect();
            Error::Usage(format!(
                "unknown symmetry `{s}`: expected {}",
                names.join(", ")
            ))
        })?;
    }
    // `any`: every unique puzzle, as without --difficulty (the strategy engine finishes the
    // Sudoku it makes; a level is what limits them).
    if a.difficulty
        .as_deref()
        .is_some_and(|d| d.eq_ignore_ascii_case("evil"))
    {
        return Err(Error::Usage(
            "`evil` is a clue-count band (16-18 givens), not a grade: use --clues evil for the count, or --difficulty extreme for the hardest grade".into(),
        ));
    }
    o.level = level(a)?;
    if let Some(c) = &a.clues {
        o.clues = Some(match parse_clues(c)? {
            Clues::Range(lo, hi) => (lo, hi),
            Clues::Band(b) => sudoku_gen::clue_band(&b, size).ok_or_else(|| {
                let names: Vec<&str> = sudoku_gen::CLUE_BANDS.iter().map(|b| b.0).collect();
                Error::Usage(format!(
                    "unknown clue band `{b}`: expected {} or a range MIN-MAX",
                    names.join(", ")
                ))
            })?,
        });
    }
    o.minimal = a.minimal;
    if let Some(k) = a.attempts {
        o.attempts = k;
    }
    let notes = o.validate().map_err(Error::Usage)?;
    let layout = parse_layout(&a.layout)?.unwrap_or(Layout::default_for(size));
    Ok((Plan::Sudoku(o, layout), notes))
}

/// The command that makes the Sudoku of `seed` again on its own.
fn sudoku_command(o: &sudoku_gen::Options, seed: u64) -> String {
    let mut s = format!(
        "gridsat generate sudoku --size {} --box {}x{}",
        o.size, o.box_rows, o.box_cols
    );
    if o.symmetry != sudoku_gen::Symmetry::None {
        s.push_str(&format!(" --symmetry {}", o.symmetry.name()));
    }
    if let Some(l) = o.level {
        s.push_str(&format!(" --difficulty {}", sudoku_gen::LEVELS[l]));
    }
    if let Some((lo, hi)) = o.clues {
        s.push_str(&format!(" --clues {lo}-{hi}"));
    }
    if o.minimal {
        s.push_str(" --minimal");
    }
    if o.attempts != sudoku_gen::DEFAULT_ATTEMPTS {
        s.push_str(&format!(" --attempts {}", o.attempts));
    }
    s.push_str(&format!(" --seed {seed}"));
    s
}

/// The generator an order asks for, checked before anything is made (an option the kind does
/// not take is refused rather than ignored), with notes for the user (an adjusted clue range).
pub fn plan(a: &Order) -> Result<(Plan, Vec<String>)> {
    match a.kind {
        Kind::Sudoku => sudoku_plan(a),
        Kind::Tectonic => Ok((Plan::Tectonic(tectonic_options(a)?), Vec::new())),
        Kind::Numberlink => Ok((Plan::Numberlink(numberlink_options(a)?), Vec::new())),
        Kind::Takuzu => Ok((Plan::Takuzu(takuzu_options(a)?), Vec::new())),
        Kind::Shisen => Ok((Plan::Shisen(shisen_options(a)?), Vec::new())),
    }
}

impl Plan {
    /// The Sudoku box shape the puzzles are read back with (`None` for the other kinds).
    pub fn box_shape(&self) -> Option<(usize, usize)> {
        match self {
            Plan::Sudoku(o, _) => Some((o.box_rows, o.box_cols)),
            _ => None,
        }
    }

    /// The puzzle of `seed` (the same on every machine), or why the target was missed.
    pub fn make(&self, seed: u64) -> Result<Made> {
        make(self, seed)
    }
}

/// The index of a level word (`None` for `any`).
fn level_of(word: &str) -> Option<usize> {
    crate::explain::LEVELS.iter().position(|&l| l == word)
}

/// One rule for every kind when the level asked for is not reached (docs/levels.md): nothing
/// is printed for that seed, a message says what came closest, and the run exits 1. A puzzle
/// printed is always of the level asked for; it carries the command that makes it again.
fn at_level(mut g: Generated, want: Option<usize>, again: String) -> Made {
    if let (Some(w), Some(grade)) = (want, &g.grade) {
        let want = crate::explain::LEVELS[w];
        if grade.level != want {
            // The kind's note says how many tries it made ("no expert puzzle in 40 tries; ...").
            let tries = g
                .notes
                .iter()
                .find_map(|n| n.strip_prefix(&format!("no {want} puzzle in ")))
                .and_then(|n| n.split(';').next())
                .map_or(String::new(), |t| format!(" in {t}"));
            return Made::Missed(format!(
                "no {want} puzzle{tries}; the closest was {} (rating {:.1}); try another --seed",
                grade.level, grade.rating
            ));
        }
    }
    g.notes.push(format!("again: {again}"));
    Made::Puzzle(g)
}

/// `--size N` for a square, `--size WxH` otherwise.
fn size_flag(w: usize, h: usize) -> String {
    if w == h {
        format!("--size {w}")
    } else {
        format!("--size {w}x{h}")
    }
}

fn tectonic_command(o: &crate::tectonic::generate::Options, seed: u64) -> String {
    let mut s = format!("gridsat generate tectonic {}", size_flag(o.width, o.height));
    if o.max_piece != 5 {
        s.push_str(&format!(" --max-piece {}", o.max_piece));
    }
    if let Some(d) = &o.difficulty {
        s.push_str(&format!(" --difficulty {d}"));
    }
    s + &format!(" --seed {seed}")
}

fn numberlink_command(o: &crate::numberlink::generate::Options, seed: u64) -> String {
    use crate::numberlink::generate::Target;
    let mut s = format!(
        "gridsat generate numberlink {}",
        size_flag(o.width, o.height)
    );
    if o.rules != crate::numberlink::Rules::default() {
        s.push_str(&format!(" --rules {}", o.rules.name()));
    }
    if o.minimal {
        s.push_str(" --minimal");
    }
    match o.target {
        Target::Finish => {}
        Target::Unique => s.push_str(" --difficulty any"),
        Target::Level(i) => s.push_str(&format!(" --difficulty {}", crate::explain::LEVELS[i])),
    }
    s + &format!(" --seed {seed}")
}

fn takuzu_command(o: &crate::takuzu::generate::Options) -> String {
    let r = &o.rules;
    let mut s = format!("gridsat generate takuzu {}", size_flag(o.width, o.height));
    if !r.distinct_lines {
        s.push_str(" --no-distinct-lines");
    }
    if r.odd_lines != crate::takuzu::OddLines::default() {
        s.push_str(&format!(" --odd-lines {}", r.odd_lines.name()));
    }
    if let Some(tag) = &r.layout {
        s.push_str(&format!(" --regions {tag}"));
    }
    match o.difficulty {
        Some(i) => s.push_str(&format!(" --difficulty {}", crate::explain::LEVELS[i])),
        None if !o.finish => s.push_str(" --difficulty any"),
        None => {}
    }
    s + &format!(" --seed {}", o.seed)
}

fn make(plan: &Plan, seed: u64) -> Result<Made> {
    match plan {
        Plan::Sudoku(o, layout) => Ok(match sudoku_gen::generate(o, seed)? {
            sudoku_gen::Outcome::Found(f) => {
                let mut g = sudoku_gen::to_generated(&f, seed, *layout);
                g.notes.push(format!("again: {}", sudoku_command(o, seed)));
                Made::Puzzle(g)
            }
            sudoku_gen::Outcome::Missed(m) => Made::Missed(m.message(o)),
        }),
        Plan::Tectonic(o) => {
            let want = o.difficulty.as_deref().and_then(level_of);
            let g = crate::tectonic::generate::generate(o, seed)?;
            Ok(at_level(g, want, tectonic_command(o, seed)))
        }
        Plan::Numberlink(o) => {
            let want = match o.target {
                crate::numberlink::generate::Target::Level(i) => Some(i),
                _ => None,
            };
            let g = crate::numberlink::generate::generate(*o, seed)?;
            Ok(at_level(g, want, numberlink_command(o, seed)))
        }
        Plan::Takuzu(o) => {
            let o = crate::takuzu::generate::Options { seed, ..o.clone() };
            let g = crate::takuzu::generate::generate(&o)?;
            Ok(at_level(g, o.difficulty, takuzu_command(&o)))
        }
        Plan::Shisen(o) => Ok(match crate::shisen::generate::generate(o, seed)? {
            Ok(g) => Made::Puzzle(g),
            Err(why) => Made::Missed(why),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clue_options_parse() {
        assert_eq!(parse_clues("30").unwrap(), Clues::Range(30, 30));
        assert_eq!(parse_clues(" 27-35 ").unwrap(), Clues::Range(27, 35));
        assert_eq!(parse_clues("Evil").unwrap(), Clues::Band("evil".into()));
        for bad in ["", "3O", "35-27", "-5", "1-2-3", "x-3"] {
            assert!(parse_clues(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_layout(&Some("GRID".into())).unwrap(),
            Some(Layout::Grid)
        );
        assert!(parse_layout(&Some("table".into())).is_err());
    }

    #[test]
    fn an_order_is_checked_and_makes_the_same_puzzle_for_a_seed() {
        let mut o = Order::new(Kind::Sudoku);
        o.size = Some((4, 4));
        let (plan, notes) = plan(&o).unwrap();
        assert!(notes.is_empty());
        assert_eq!(plan.box_shape(), Some((2, 2)));
        let (Made::Puzzle(a), Made::Puzzle(b)) = (plan.make(7).unwrap(), plan.make(7).unwrap())
        else {
            panic!("a 4x4 Sudoku is always made")
        };
        assert_eq!((a.puzzle.as_str(), a.seed), (b.puzzle.as_str(), 7));
        o.max_piece = Some(4);
        let e = super::plan(&o).err().unwrap().to_string();
        assert!(
            e.contains("--max-piece is not available when generating sudoku"),
            "{e}"
        );
    }
}
