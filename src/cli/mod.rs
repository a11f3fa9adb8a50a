//! The command line: parse arguments, read puzzle files, run the generic verbs of
//! [`crate::puzzle`] on every puzzle, print text or JSON Lines, and choose the exit code
//! (0 solved / unique, 1 no solution or not unique, 2 bad input or usage, 3 internal error).

pub mod args;
mod batch;
mod explain;
mod export;
mod generate;
pub mod memory;
pub mod output;
pub mod picture;
mod proof;
mod repeats;
mod report;
mod shell;

use crate::error::{Error, Result};
use crate::kinds::{self, AnyPuzzle, ReadOptions};
use crate::options::{ReadWords, TakuzuWords};
use crate::puzzle::Kind;
use crate::solver::SolverChoice;
use crate::tectonic::format::csv::LayoutFile;
use args::{Cli, ColorWhen, Command, InputArgs, ReadArgs, RunArgs, TakuzuArgs};
use clap::Parser;
use std::io::{IsTerminal, Read};

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let printed = e
                .print()
                .and_then(|_| std::io::Write::flush(&mut std::io::stdout()));
            if e.use_stderr() {
                return 2;
            }
            // `--help` and `--version` go to standard output: a reader that goes away is a
            // quiet stop, any other failed write (`>/dev/full`) an error.
            return match output::written("standard output", printed) {
                Ok(_) => 0,
                Err(err) => {
                    output::say(format!("gridsat: {err}"));
                    err.exit_code()
                }
            };
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            output::say(format!("gridsat: {e}"));
            e.exit_code()
        }
    }
}

fn run(mut cli: Cli) -> Result<i32> {
    let color = cli.color;
    match &mut cli.command {
        Command::Solve(args::SolveArgs { input, .. })
        | Command::Check(args::CheckArgs { input, .. })
        | Command::Count(args::CountArgs { input, .. })
        | Command::Dimacs(args::DimacsArgs { input, .. })
        | Command::Explain(args::ExplainArgs { input, .. })
        | Command::Hint(args::ExplainArgs { input, .. })
        | Command::Grade(args::ExplainArgs { input, .. }) => standard_input_when_none(input)?,
        _ => {}
    }
    match cli.command {
        Command::Solve(a) => {
            let mode = if a.no_unique {
                report::Mode::Solve
            } else {
                report::Mode::Verdict {
                    forced: false,
                    grids: true,
                }
            };
            report::run_batch(&a.input, mode, &a.run, &a.proof, color)
        }
        Command::Check(a) => report::run_batch(
            &a.input,
            report::Mode::Verdict {
                forced: a.forced,
                grids: false,
            },
            &a.run,
            &a.proof,
            color,
        ),
        Command::Count(a) => report::run_batch(
            &a.input,
            report::Mode::Count(a.max),
            &a.run,
            &args::ProofArgs::default(),
            color,
        ),
        Command::Dimacs(a) => export::dimacs(&a),
        Command::Decode(a) => export::decode(&a, style(color)),
        Command::Explain(a) => explain::run(&a, explain::Verb::Explain, style(color)),
        Command::Hint(a) => explain::run(&a, explain::Verb::Hint, style(color)),
        Command::Grade(a) => explain::run(&a, explain::Verb::Grade, style(color)),
        Command::Generate(a) => generate::run(&a),
        Command::Sat(a) => export::sat(&a),
        Command::Proof(a) => proof::run(&a),
        Command::Completions(a) => shell::completions(&a),
        Command::Man(a) => shell::man(&a),
    }
}

/// How to draw on standard output for `--color WHEN`: `auto` colours a terminal unless
/// NO_COLOR is set to something (the no-color.org convention); `always` and `never` override it.
pub fn style(when: ColorWhen) -> crate::puzzle::Style {
    let color = match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => {
            std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    crate::puzzle::Style { color }
}

/// A command-line input as its label and text: a puzz.link URL is a puzzle itself (labelled
/// by the URL), `-` is standard input (`<stdin>`), anything else a file.
pub fn input(arg: &str) -> Result<(String, String)> {
    if is_puzzle_argument(arg) {
        return Ok((arg.to_string(), arg.to_string()));
    }
    let label = if arg == "-" { "<stdin>" } else { arg };
    Ok((label.to_string(), read_text(arg)?))
}

/// True when a command-line input is a puzzle itself and no file of that name exists: a
/// puzz.link URL, or a puzzle on one line as people paste it (16 or more cells of digits and
/// `.`, such as an 81-character Sudoku).
pub fn is_puzzle_argument(arg: &str) -> bool {
    let one_line = arg.chars().count() >= 16
        && arg
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '_'));
    (crate::url::is_url(arg) || one_line) && !std::path::Path::new(arg).exists()
}

/// The files of a command: none named reads standard input when it is a pipe or a file (so
/// `echo PUZZLE | gridsat hint` works), and is a usage error at a terminal.
fn standard_input_when_none(input: &mut InputArgs) -> Result<()> {
    if input.files.is_empty() {
        if std::io::stdin().is_terminal() {
            return Err(Error::Usage(
                "no puzzle given: name FILEs (`-` for standard input), a puzz.link URL or a one-line puzzle, or pipe the puzzles in".into(),
            ));
        }
        input.files.push("-".into());
    }
    Ok(())
}

/// A file's text: the named file, or standard input for `-`.
pub fn read_text(file: &str) -> Result<String> {
    if file == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| Error::Usage(format!("cannot read standard input: {e}")))?;
        text_of("<stdin>", bytes)
    } else {
        let bytes =
            std::fs::read(file).map_err(|e| Error::Usage(format!("cannot read {file}: {e}")))?;
        text_of(file, bytes)
    }
}

/// The bytes of `name` as text, or an error naming the line and column of the first byte
/// that is not UTF-8.
fn text_of(name: &str, bytes: Vec<u8>) -> Result<String> {
    // A byte-order mark (editors on Windows write one) is not part of the puzzle.
    let bytes = match bytes.strip_prefix("\u{feff}".as_bytes()) {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let good = String::from_utf8_lossy(&e.as_bytes()[..at]);
        let line = good.matches('\n').count() + 1;
        let col = good.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Error::Usage(format!(
            "{name}:{line}:{col}: not a text file: byte 0x{:02x} is not UTF-8 (puzzle files are text)",
            e.as_bytes()[at]
        ))
    })
}

/// Parses `RxC` (as in `--box 2x3`).
pub fn parse_box(s: &str) -> Result<(usize, usize)> {
    crate::options::parse_box(s)
}

/// The kind named by `--kind`, if any.
pub fn parse_kind(kind: &Option<String>) -> Result<Option<Kind>> {
    crate::options::kind(kind.as_deref())
}

/// Reading options from the command line, for every kind.
pub fn read_options(a: &ReadArgs) -> Result<ReadOptions> {
    let mut o = crate::options::read_options(&ReadWords {
        box_shape: a.box_shape.clone(),
        rules: a.rules.clone(),
        loops: a.loops.clone(),
        takuzu: takuzu_words(&a.takuzu),
        no_outline: a.shisen.no_outline,
        gravity: a.shisen.gravity,
        chinese: a.shisen.chinese,
    })?;
    // How a Takuzu block that reads both ways is read (a reading option, not a rule).
    if let Some(s) = a.takuzu.read_as.as_deref() {
        o.takuzu.read_as = crate::takuzu::format::ReadAs::from_name(s).ok_or_else(|| {
            Error::Usage(format!("--read-as expects grid, lines or auto, got `{s}`"))
        })?;
    }
    Ok(o)
}

/// The Takuzu flags in words.
pub fn takuzu_words(a: &TakuzuArgs) -> TakuzuWords {
    TakuzuWords {
        distinct_lines: a.distinct_lines,
        no_distinct_lines: a.no_distinct_lines,
        odd_lines: a.odd_lines.clone(),
        regions: a.regions.clone(),
        distinct_encoding: a.distinct_encoding.clone(),
    }
}

/// The reading options for one input file: `opts` with the layout beside a Tectonic CSV board
/// (`layout.NAME.csv` for `board.NAME.csv`), read here since the library reads no files.
pub fn options_for(file: &str, opts: &ReadOptions) -> ReadOptions {
    let mut o = opts.clone();
    if file != "-" && !is_puzzle_argument(file) {
        o.tectonic_layout =
            crate::tectonic::format::csv::layout_path(file).map(|path| LayoutFile {
                file: path.display().to_string(),
                text: std::fs::read_to_string(&path).map_err(|e| e.to_string()),
            });
    }
    o
}

/// Every puzzle of every file, read whole (for the commands that take one puzzle of a file:
/// `dimacs`, `decode`); batches stream through [`batch::Puzzles`] instead.
pub fn load(input: &InputArgs) -> Result<Vec<(String, Vec<AnyPuzzle>)>> {
    let kind = parse_kind(&input.read.kind)?;
    let opts = read_options(&input.read)?;
    let mut out = Vec::new();
    for file in &input.files {
        let (label, text) = self::input(file)?;
        let puzzles = kinds::read_any(file, &label, &text, kind, &options_for(file, &opts))?;
        out.push((label, puzzles));
    }
    Ok(out)
}

/// The solver chosen on the command line (its time limit is the batch's `--timeout`).
pub fn solver_choice(run: &RunArgs) -> Result<SolverChoice> {
    if let Some(b) = run.budget {
        if b.is_nan() || b < 0.0 {
            return Err(Error::Usage(format!(
                "--budget must be a number of seconds, 0 or more, got {b}"
            )));
        }
        if run.backend.as_deref() != Some("auto") {
            return Err(Error::Usage("--budget goes with --backend auto".into()));
        }
    }
    if run.backend.is_some() && run.solver.is_some() {
        return Err(Error::Usage(
            "--backend chooses an embedded solver and --solver an external one: give one".into(),
        ));
    }
    Ok(match &run.solver {
        Some(cmd) if cmd.trim().is_empty() => {
            return Err(Error::Usage("--solver needs a command".into()))
        }
        Some(cmd) => SolverChoice::Command {
            command: cmd.clone(),
            timeout: None,
        },
        None => backend_choice(run.backend.as_deref(), run.budget)?,
    })
}

/// Seconds of varisat per puzzle before `--backend auto` moves it to CaDiCaL.
pub const DEFAULT_BUDGET: f64 = 1.0;

/// The embedded solver named by `--backend`.
fn backend_choice(name: Option<&str>, budget: Option<f64>) -> Result<SolverChoice> {
    Ok(match name.map(|n| n.to_ascii_lowercase()).as_deref() {
        None | Some("default") => SolverChoice::Embedded,
        Some("varisat") => SolverChoice::Varisat,
        Some("lite") => SolverChoice::Lite,
        #[cfg(feature = "cadical")]
        Some("cadical") => SolverChoice::Cadical,
        #[cfg(feature = "cadical")]
        Some("auto") => SolverChoice::Auto {
            budget: budget.unwrap_or(DEFAULT_BUDGET),
        },
        #[cfg(not(feature = "cadical"))]
        Some("cadical" | "auto") => {
            let _ = budget;
            return Err(Error::Usage(
                "this gridsat was built without CaDiCaL (the `cadical` feature): --backend varisat is the one embedded solver".into(),
            ));
        }
        Some(other) => {
            return Err(Error::Usage(format!(
                "unknown --backend `{other}`: default, lite, varisat, cadical or auto"
            )))
        }
    })
}

/// A counter on standard error for a batch whose length is not known in advance (files are
/// read as they are solved), when it is a terminal and `--no-progress` was not given.
pub fn progress_counter(no_progress: bool) -> Option<indicatif::ProgressBar> {
    if no_progress || !std::io::stderr().is_terminal() {
        return None;
    }
    let b = indicatif::ProgressBar::new_spinner();
    b.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {pos} puzzles {per_sec}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    Some(b)
}

/// A progress bar on standard error for `total` items, when it is a terminal, the batch has
/// more than `threshold` items, and `--no-progress` was not given.
pub fn progress_bar(
    no_progress: bool,
    total: usize,
    threshold: usize,
) -> Option<indicatif::ProgressBar> {
    if no_progress || total <= threshold || !std::io::stderr().is_terminal() {
        return None;
    }
    let b = indicatif::ProgressBar::new(total as u64);
    b.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {per_sec} eta {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    Some(b)
}
