//! `gridsat generate KIND`: one seeded generator per kind; puzzle i of a batch uses seed + i,
//! so any one of them can be made again alone. The options every kind shares are parsed here
//! (`--clues`, `--attempts`, `--layout`); each kind's arm turns them into its own options.
//! Options are checked before the first puzzle, so bad usage prints nothing on standard output.
//! A puzzle whose target was not reached within its attempts is reported on standard error, the
//! batch goes on, and the exit code is 1. So is a puzzle not made within `--timeout`: its
//! generator runs on a thread of its own, told to stop when the limit runs out (a `Stop` flag
//! its solves and attempts poll, see [`crate::generate::stop_point`]); the batch waits a
//! moment for it to end, and goes on.

use super::args::GenerateArgs;
use super::output::{say, Stdout};
use super::{picture, progress_bar};
use crate::draw::Picture;
use crate::error::{Error, Result};
use crate::kinds::{self, AnyPuzzle, ReadOptions};
use crate::order::{self, Made, Order};
use crate::puzzle::{self, Kind, Puzzle};
use crate::record::generated::{self, read_back, Written};
use crate::solver::{SolverChoice, Stop};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// How long a generator told to stop at the time limit may take to end (it polls the flag
/// between solves) before the batch goes on without waiting for it.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// Puzzle `seed` of `plan`, or a missed target when it is not made within `limit` seconds.
fn make_within(plan: &Arc<order::Plan>, seed: u64, limit: Option<f64>) -> Result<Made> {
    let Some(limit) = limit else {
        return plan.make(seed);
    };
    let (tx, rx) = mpsc::channel();
    let p = Arc::clone(plan);
    let stop = Stop::new();
    let flag = stop.clone();
    std::thread::Builder::new()
        .name(format!("generate seed {seed}"))
        .spawn(move || {
            // The receiver may be gone (the limit ran out): nothing left to tell.
            let _ = tx.send(p.make_until(seed, &flag));
        })
        .map_err(|e| Error::Usage(format!("cannot start a thread to generate: {e}")))?;
    match rx.recv_timeout(Duration::from_secs_f64(limit)) {
        Ok(made) => made,
        Err(mpsc::RecvTimeoutError::Timeout) => {
            // The generator stops at its next solve or attempt; the batch waits for it a
            // moment, so that it does not go on using a core beside the next puzzle (a step
            // that polls no flag, a grade, may outlast the grace: then it ends by itself).
            stop.raise();
            let _ = rx.recv_timeout(STOP_GRACE);
            Ok(Made::Missed(format!(
                "no puzzle within --timeout {limit} s"
            )))
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(Error::Bug(format!(
            "the generator of seed {seed} stopped without a puzzle"
        ))),
    }
}

/// The generation order of the command line's flags (see [`crate::order`]).
fn order(kind: Kind, a: &GenerateArgs) -> Order {
    Order {
        kind,
        size: a.size.map(|s| (s.width, s.height)),
        width: a.width,
        height: a.height,
        box_shape: a.box_shape.clone(),
        rules: a.rules.clone(),
        difficulty: a.difficulty.clone(),
        symmetry: a.symmetry.clone(),
        minimal: a.minimal,
        clues: a.clues.clone(),
        attempts: a.attempts,
        layout: a.layout.clone(),
        max_piece: a.max_piece,
        unique: a.unique,
        takuzu: super::takuzu_words(&a.takuzu),
        no_outline: a.shisen.no_outline,
        gravity: a.shisen.gravity,
        chinese: a.shisen.chinese,
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
        // The puzzle in its solution's colours (Numberlink's paths), as `--picture both` shows.
        let puzzle = p.picture_like(None, &s, q.look);
        let solution = p.picture(Some(&s), q.look);
        let blank = || Picture::new(0, 0);
        Ok((puzzle.unwrap_or_else(blank), solution.unwrap_or_else(blank)))
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
        picture::check_room(q, a.count, true)?;
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
            let o = order::tectonic_options(&order(kind, a))?;
            return crate::tectonic::generate::run_xml(&o, a.seed, a.count);
        }
    }
    let (plan, notes) = order::plan(&order(kind, a))?;
    let plan = Arc::new(plan);
    let read_opts = ReadOptions {
        box_shape: plan.box_shape(),
        ..ReadOptions::default()
    };
    // CSV is one document for the whole batch, written at the end.
    let document = a.format.as_deref() == Some("csv");
    let mut batch: Vec<(AnyPuzzle, Option<Vec<Vec<i64>>>)> = Vec::new();
    for n in &notes {
        say(format!("gridsat: note: {n}"));
    }
    let bar = progress_bar(a.no_progress, a.count, 1);
    let mut out = Stdout::new();
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
        let made = make_within(&plan, seed, a.timeout)?;
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
                let tell = || say(format!("gridsat: puzzle {} (seed {seed}): {why}", i + 1));
                match &bar {
                    Some(b) => b.suspend(tell),
                    None => tell(),
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
            if texts > 0 && !one_line && !ended_blank && !out.line("")? {
                return Ok(false);
            }
            texts += 1;
            let solution = written.as_ref().is_some_and(|(_, rows)| rows.is_some());
            ended_blank = !solution && g.puzzle.ends_with("\n\n");
        }
        let open = match (&written, a.format.as_deref()) {
            _ if a.json => {
                let solution = written.as_ref().and_then(|(_, rows)| rows.as_ref());
                out.line(generated::to_json(&g, solution))?
            }
            (Some((p, rows)), _) if document => {
                batch.push((p.clone(), rows.clone()));
                true
            }
            (written, format) => {
                let text =
                    generated::to_text(&g, written.as_ref(), format).map_err(Error::Usage)?;
                out.text(&text)?
            }
        };
        // Each puzzle goes out as it is made (a long batch shows its progress).
        Ok(open && out.flush()?)
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
        out.flush()?;
        picture::write_book(q, drawn, &title, &name)?;
    }
    if let (true, Some(f)) = (document, a.format.as_deref()) {
        let items: Vec<(&AnyPuzzle, Option<&Vec<Vec<i64>>>)> =
            batch.iter().map(|(p, rows)| (p, rows.as_ref())).collect();
        let text = kinds::write_solutions(f, &items).map_err(Error::Usage)?;
        out.text(&text)?;
    }
    out.finish()?;
    if missed.is_empty() {
        Ok(0)
    } else {
        let seeds: Vec<String> = missed.iter().map(|s| s.to_string()).collect();
        say(format!(
            "gridsat: generated {} of {} puzzles; missed the target for seed{} {}",
            a.count - missed.len(),
            a.count,
            if missed.len() == 1 { "" } else { "s" },
            seeds.join(", ")
        ));
        Ok(1)
    }
}
