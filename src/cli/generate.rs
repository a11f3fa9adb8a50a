//! `gridsat generate KIND`: one seeded generator per kind; puzzle i of a batch uses seed + i,
//! so any one of them can be made again alone. The options every kind shares are parsed here
//! (`--clues`, `--attempts`, `--layout`); each kind's arm turns them into its own options.
//! Options are checked before the first puzzle, so bad usage prints nothing on standard output.
//! A puzzle whose target was not reached within its attempts is reported on standard error, the
//! batch goes on, and the exit code is 1.

use super::args::GenerateArgs;
use super::{parse_box, picture, progress_bar};
use crate::draw::Picture;
use crate::error::{Error, Result};
use crate::generate::Generated;
use crate::kinds::{self, AnyPuzzle, ReadOptions};
use crate::puzzle::{self, Kind, Puzzle};
use crate::record::generated::{self, read_back, Written};
use crate::solver::SolverChoice;
use crate::sudoku::generate as sudoku_gen;
use crate::sudoku::{default_box, generate::Layout};
use std::io::Write;

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

/// A kind's generator, set up from the command line.
enum Plan {
    Sudoku(sudoku_gen::Options, Layout),
    Tectonic(crate::tectonic::generate::Options),
    Numberlink(crate::numberlink::generate::Options),
    Takuzu(crate::takuzu::generate::Options),
    Shisen(crate::shisen::generate::Options),
}

/// What one seed gave.
enum Made {
    Puzzle(Generated),
    /// The target was not reached within the attempts: why.
    Missed(String),
}

/// The kind-specific options given on the command line, by flag name.
fn given_options(a: &GenerateArgs) -> Vec<&'static str> {
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
        ("--format", a.format.is_some()),
        ("--with-solution", a.with_solution),
        ("--distinct-lines", t.distinct_lines),
        ("--no-distinct-lines", t.no_distinct_lines),
        ("--odd-lines", t.odd_lines.is_some()),
        ("--regions", t.regions.is_some()),
        ("--distinct-encoding", t.distinct_encoding.is_some()),
        ("--unique", a.unique),
        ("--gravity", a.shisen.gravity),
        ("--chinese", a.shisen.chinese),
        ("--no-outline", a.shisen.no_outline),
    ]
    .into_iter()
    .filter(|&(_, given)| given)
    .map(|(flag, _)| flag)
    .collect()
}

/// `--size` as the side of a square (every kind but Shisen-sho): `WxH` only when W = H.
fn side(a: &GenerateArgs) -> Result<Option<usize>> {
    match a.size {
        None => Ok(None),
        Some(s) if s.width == s.height => Ok(Some(s.width)),
        Some(s) => Err(Error::Usage(format!(
            "--size {}x{}: give the side of a square here (--size N), or --width and --height",
            s.width, s.height
        ))),
    }
}

/// Refuses any option given that `kind`'s generator does not take (exit 2), rather than
/// silently ignoring it.
fn accept_only(kind: &str, a: &GenerateArgs, accepted: &[&str]) -> Result<()> {
    // Every kind writes its puzzles in its formats, with or without their solutions.
    const EVERY_KIND: [&str; 2] = ["--format", "--with-solution"];
    match given_options(a)
        .into_iter()
        .find(|f| !accepted.contains(f) && !EVERY_KIND.contains(f))
    {
        Some(flag) => Err(Error::Usage(format!(
            "{flag} is not available when generating {kind} puzzles (it takes {})",
            accepted.join(", ")
        ))),
        None => Ok(()),
    }
}

/// The Takuzu generator's options from the command line (the seed is set per puzzle).
fn takuzu_options(a: &GenerateArgs) -> Result<crate::takuzu::generate::Options> {
    use crate::takuzu::generate::{level_index, Options};
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
    let (width, height) = match (side(a)?, a.width, a.height) {
        (_, Some(w), Some(h)) => (w, h),
        (Some(n), w, h) => (w.unwrap_or(n), h.unwrap_or(n)),
        (None, None, None) => (10, 10),
        _ => {
            return Err(Error::Usage(
                "takuzu: give --size N, or both --width and --height".into(),
            ))
        }
    };
    let any = a.difficulty.as_deref() == Some("any");
    let difficulty = a
        .difficulty
        .as_deref()
        .filter(|_| !any)
        .map(|d| {
            level_index(d).ok_or_else(|| {
                Error::Usage(format!(
                    "takuzu difficulty is any, easy, medium, hard or very-hard, got `{d}`"
                ))
            })
        })
        .transpose()?;
    if a.minimal && difficulty.is_some() {
        return Err(Error::Usage(
            "takuzu: --minimal and --difficulty do not go together (without --difficulty the puzzles are minimal; a level adds givens back)".into(),
        ));
    }
    let read = super::takuzu_options(&a.takuzu)?;
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
fn tectonic_options(a: &GenerateArgs) -> Result<crate::tectonic::generate::Options> {
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
    let side = side(a)?.unwrap_or(8);
    Ok(crate::tectonic::generate::Options {
        width: a.width.unwrap_or(side),
        height: a.height.unwrap_or(side),
        max_piece: a.max_piece.unwrap_or(5),
        difficulty: a.difficulty.clone(),
    })
}

/// The Numberlink generator's options from the command line.
fn numberlink_options(a: &GenerateArgs) -> Result<crate::numberlink::generate::Options> {
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
    let target = crate::numberlink::generate::Target::from_word(a.difficulty.as_deref())
        .ok_or_else(|| {
            Error::Usage(format!(
                "numberlink difficulty is any, {}, got `{}`",
                crate::numberlink::strategies::LEVELS.join(", "),
                a.difficulty.as_deref().unwrap_or("")
            ))
        })?;
    let rules = super::numberlink_options(&a.rules, &None)?
        .0
        .unwrap_or_default();
    let side = side(a)?.unwrap_or(7);
    Ok(crate::numberlink::generate::Options {
        width: a.width.unwrap_or(side),
        height: a.height.unwrap_or(side),
        rules,
        minimal: a.minimal,
        target,
    })
}

/// The Shisen-sho generator's options from the command line.
fn shisen_options(a: &GenerateArgs) -> Result<crate::shisen::generate::Options> {
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
    crate::shisen::generate::Options::from_args(
        a.size.map(|s| (s.width, s.height)),
        a.width,
        a.height,
        a.difficulty.as_deref(),
        a.attempts,
        a.unique,
        crate::shisen::Rules {
            outline: !a.shisen.no_outline,
            gravity: a.shisen.gravity,
            chinese: a.shisen.chinese,
        },
    )
    .map_err(Error::Usage)
}

/// Sudoku options from the command line, with notes for the user (an adjusted clue range).
fn sudoku_plan(a: &GenerateArgs) -> Result<(Plan, Vec<String>)> {
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
    let boxes = a.box_shape.as_deref().map(parse_box).transpose()?;
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
    if let Some(d) = a
        .difficulty
        .as_ref()
        .filter(|d| !d.eq_ignore_ascii_case("any"))
    {
        let d = d.to_ascii_lowercase();
        o.level = Some(match sudoku_gen::level_rank(&d) {
            Some(l) => l,
            None if d == "evil" => {
                return Err(Error::Usage(
                    "`evil` is a clue-count band (16-18 givens), not a grade: use --clues evil for the count, or --difficulty extreme for the hardest grade".into(),
                ))
            }
            None => {
                return Err(Error::Usage(format!(
                    "unknown difficulty `{d}`: expected a grade level: {} (for a number of givens use --clues)",
                    sudoku_gen::LEVELS.join(", ")
                )))
            }
        });
    }
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

fn plan(kind: Kind, a: &GenerateArgs) -> Result<(Plan, Vec<String>)> {
    match kind {
        Kind::Sudoku => sudoku_plan(a),
        Kind::Tectonic => Ok((Plan::Tectonic(tectonic_options(a)?), Vec::new())),
        Kind::Numberlink => Ok((Plan::Numberlink(numberlink_options(a)?), Vec::new())),
        Kind::Takuzu => Ok((Plan::Takuzu(takuzu_options(a)?), Vec::new())),
        Kind::Shisen => Ok((Plan::Shisen(shisen_options(a)?), Vec::new())),
    }
}

fn one(plan: &Plan, seed: u64) -> Result<Made> {
    match plan {
        Plan::Sudoku(o, layout) => Ok(match sudoku_gen::generate(o, seed)? {
            sudoku_gen::Outcome::Found(f) => {
                let mut g = sudoku_gen::to_generated(&f, seed, *layout);
                g.notes.push(format!("again: {}", sudoku_command(o, seed)));
                Made::Puzzle(g)
            }
            sudoku_gen::Outcome::Missed(m) => Made::Missed(m.message(o)),
        }),
        Plan::Tectonic(o) => crate::tectonic::generate::generate(o, seed).map(Made::Puzzle),
        Plan::Numberlink(o) => crate::numberlink::generate::generate(*o, seed).map(Made::Puzzle),
        Plan::Takuzu(o) => {
            let o = crate::takuzu::generate::Options { seed, ..o.clone() };
            crate::takuzu::generate::generate(&o).map(Made::Puzzle)
        }
        Plan::Shisen(o) => Ok(match crate::shisen::generate::generate(o, seed)? {
            Ok(g) => Made::Puzzle(g),
            Err(why) => Made::Missed(why),
        }),
    }
}

/// The pictures of a generated puzzle (as read back, so with the rules its file carries) and
/// of its solution, which SAT finds and the rule checker passes.
fn pictures_of(kind: Kind, any: &AnyPuzzle, q: &picture::Request) -> Result<(Picture, Picture)> {
    crate::with_puzzle!(any, p => {
        picture::check_kind(p, q.look)?;
        let s = puzzle::solve(p, &SolverChoice::Embedded)?.ok_or_else(|| {
            Error::Bug(format!("a generated {} puzzle has no solution", kind.name()))
        })?;
        let draw = |s| p.picture(s, q.look).unwrap_or_else(|| Picture::new(0, 0));
        Ok((draw(None), draw(Some(&s))))
    })
}

/// What the thread that made a puzzle hands the writer: the puzzle (or why it was missed),
/// the puzzle read back when it is written in a format or with its solution, and its pictures.
type Output = (Made, Option<Written>, Option<(Picture, Picture)>);

/// Generates `--count` puzzles and prints each in its kind's file format (or JSON).
pub fn run(a: &GenerateArgs) -> Result<i32> {
    let kind = Kind::from_name(&a.kind).ok_or_else(|| {
        Error::Usage(format!(
            "unknown kind `{}`: expected sudoku, takuzu, tectonic, numberlink or shisen",
            a.kind
        ))
    })?;
    if a.count == 0 {
        return Err(Error::Usage("--count must be at least 1".into()));
    }
    // `--format`: pictures first, then the kind's file formats.
    // A printed book holds the solutions too; a picture of one puzzle shows only the puzzle.
    let default = if a.pictures.page.is_some() {
        picture::Show::Both
    } else {
        picture::Show::Puzzle
    };
    let draw = picture::request(a.format.as_deref(), &a.pictures, default, "generate")?;
    if draw.is_some() && a.with_solution {
        return Err(Error::Usage(
            "--with-solution writes solutions beside puzzles in text; pictures show them with --picture both, or on the pages after the puzzles with --page".into(),
        ));
    }
    if let Some(q) = &draw {
        picture::check_room(q, a.count)?;
    }
    if a.format.is_some() && a.json {
        return Err(Error::Usage(
            "--format and --json do not go together".into(),
        ));
    }
    if let Some(f) = a.format.as_deref().filter(|_| draw.is_none()) {
        if !kinds::formats(kind).contains(&f) {
            return Err(Error::Usage(format!(
                "--format {f} is not available for {} puzzles ({})",
                kind.name(),
                kinds::formats_help()
            )));
        }
        if f == "xml" {
            if a.with_solution {
                return Err(Error::Usage(
                    "--with-solution: FWieP XML has no place for a solution beside the givens; use --format text or --json".into(),
                ));
            }
            return crate::tectonic::generate::run_xml(&tectonic_options(a)?, a.seed, a.count);
        }
    }
    let (plan, notes) = plan(kind, a)?;
    let read_opts = ReadOptions {
        box_shape: match &plan {
            Plan::Sudoku(o, _) => Some((o.box_rows, o.box_cols)),
            _ => None,
        },
        ..ReadOptions::default()
    };
    // CSV is one document for the whole batch, written at the end.
    let document = a.format.as_deref() == Some("csv");
    let mut batch: Vec<(AnyPuzzle, Option<Vec<Vec<i64>>>)> = Vec::new();
    for n in &notes {
        eprintln!("gridsat: note: {n}");
    }
    let bar = progress_bar(a.no_progress, a.count, 1);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut missed: Vec<u64> = Vec::new();
    // Puzzles written in the kind's own text form so far: a grid of several lines is parted
    // from the one before by a blank line, so the file reads back as so many puzzles (a
    // one-line Sudoku needs none; `--format` writes its own layout).
    let mut texts = 0usize;
    // Whether the last of them ended with a blank line already (a Sudoku grid, a Tectonic board).
    let mut ended_blank = false;
    let mut drawn: Vec<(String, Picture, Picture)> = Vec::new();
    // Puzzle i uses seed + i whatever thread makes it, so the output is the same for any -j.
    let seeds = (0..a.count).map(|i| (i, a.seed.wrapping_add(i as u64)));
    // A puzzle is read back (and solved, for --with-solution or a picture of its solution) by
    // the thread that made it.
    let work = |&(_, seed): &(usize, u64)| -> Result<Output> {
        let made = one(&plan, seed)?;
        let Made::Puzzle(g) = &made else {
            return Ok((made, None, None));
        };
        if !(a.with_solution || a.format.is_some()) {
            return Ok((made, None, None));
        }
        let written = read_back(kind, g, &read_opts, a.with_solution)?;
        let pictures = match &draw {
            Some(q) => Some(pictures_of(kind, &written.0, q)?),
            None => None,
        };
        Ok((made, Some(written), pictures))
    };
    let write = |(i, seed): (usize, u64), made: Result<Output>| -> Result<bool> {
        if let Some(b) = &bar {
            b.inc(1);
        }
        let (made, written, pictures) = made?;
        let g = match made {
            Made::Puzzle(g) => g,
            Made::Missed(why) => {
                let say = || eprintln!("gridsat: puzzle {} (seed {seed}): {why}", i + 1);
                match &bar {
                    Some(b) => b.suspend(say),
                    None => say(),
                }
                missed.push(seed);
                return Ok(true);
            }
        };
        if let (Some(q), Some((puzzle, solution))) = (&draw, pictures) {
            let grade = g
                .grade
                .as_ref()
                .map_or(String::new(), |gr| format!(", {}", gr.level));
            let caption = if q.pages.is_some() {
                format!("{}. seed {}{grade}", drawn.len() + 1, g.seed)
            } else {
                format!("seed {}{grade}", g.seed)
            };
            let number = if q.pages.is_some() {
                format!("{}", drawn.len() + 1)
            } else {
                "solution".to_string()
            };
            drawn.push((
                format!("{}-{}", kind.name(), g.seed),
                puzzle.with_caption(caption),
                solution.with_caption(number),
            ));
            return Ok(true);
        }
        if !a.json && a.format.is_none() {
            let one_line = kind == Kind::Sudoku && g.puzzle.trim_end().lines().count() == 1;
            if texts > 0 && !one_line && !ended_blank {
                super::report::written(writeln!(out))?;
            }
            texts += 1;
            let solution = written.as_ref().is_some_and(|(_, rows)| rows.is_some());
            ended_blank = !solution && g.puzzle.ends_with("\n\n");
        }
        let res = match (&written, a.format.as_deref()) {
            _ if a.json => {
                let solution = written.as_ref().and_then(|(_, rows)| rows.as_ref());
                writeln!(out, "{}", generated::to_json(&g, solution))
            }
            (Some((p, rows)), _) if document => {
                batch.push((p.clone(), rows.clone()));
                Ok(())
            }
            (written, format) => {
                let text =
                    generated::to_text(&g, written.as_ref(), format).map_err(Error::Usage)?;
                write!(out, "{text}")
            }
        };
        super::report::written(res.and_then(|_| out.flush()))
    };
    super::batch::run(seeds, super::batch::jobs(a.jobs)?, work, write)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(q) = &draw {
        let title = format!("gridsat {}", kind.name());
        let name = if a.count == 1 {
            format!("{}-{}", kind.name(), a.seed)
        } else {
            format!(
                "{}-{}-{}",
                kind.name(),
                a.seed,
                a.seed.wrapping_add(a.count as u64 - 1)
            )
        };
        let _ = out.flush();
        picture::write_book(q, drawn, &title, &name)?;
    }
    if let (true, Some(f)) = (document, a.format.as_deref()) {
        let items: Vec<(&AnyPuzzle, Option<&Vec<Vec<i64>>>)> =
            batch.iter().map(|(p, rows)| (p, rows.as_ref())).collect();
        let text = kinds::write_solutions(f, &items).map_err(Error::Usage)?;
        if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                return Err(Error::Usage(format!("cannot write output: {e}")));
            }
        }
    }
    if missed.is_empty() {
        Ok(0)
    } else {
        let seeds: Vec<String> = missed.iter().map(|s| s.to_string()).collect();
        eprintln!(
            "gridsat: generated {} of {} puzzles; missed the target for seed{} {}",
            a.count - missed.len(),
            a.count,
            if missed.len() == 1 { "" } else { "s" },
            seeds.join(", ")
        );
        Ok(1)
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
}
