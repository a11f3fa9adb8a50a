//! Command-line arguments (clap).

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Compile grid logic puzzles to SAT: solve, prove unique, export DIMACS, read a solver's answer.
#[derive(Parser, Debug)]
#[command(name = "gridsat", version, about, long_about = None, propagate_version = true)]
#[command(after_help = EXIT_CODES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// When to draw in colour: auto (when standard output is a terminal and NO_COLOR is not
    /// set), always, or never.
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
}

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

/// The help headings of the options that belong to one kind, or to pictures or proofs: each
/// command's `--help` lists the common options first, then these groups.
const SUDOKU: &str = "Sudoku options";
const TAKUZU: &str = "Takuzu options";
const TECTONIC: &str = "Tectonic options";
const NUMBERLINK: &str = "Numberlink options";
const SHISEN: &str = "Shisen-sho options";
const PICTURES: &str = "Picture options (with --format svg, png or pdf)";
const PROOFS: &str = "Proof options";

/// The exit codes, shown by `gridsat --help` and every command's `--help`.
pub const EXIT_CODES: &str = "\
Exit codes:
  0  solved: the puzzle has a unique solution (or a solution, when uniqueness is not asked)
  1  no solution, several solutions, unknown (--timeout ran out), a missed generate target,
     or explain/hint stuck
  2  bad input or usage: the message names the file, line and column
  3  internal error: a solution failed the independent rule checker (please report it)
  In a batch the exit code is the worst that happened to any puzzle.
  `gridsat sat` answers like a SAT-competition solver instead: 10 satisfiable, 20 unsatisfiable";

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve every puzzle in the files and say whether each solution is unique.
    #[command(after_help = EXIT_CODES)]
    Solve(SolveArgs),
    /// Only the verdict: unique, several solutions (two that differ, and where), or none (the
    /// givens that conflict).
    #[command(after_help = EXIT_CODES)]
    Check(CheckArgs),
    /// Count solutions, up to a limit.
    #[command(after_help = EXIT_CODES)]
    Count(CountArgs),
    /// Write a puzzle's CNF in DIMACS, with the variable map in comment lines.
    #[command(after_help = EXIT_CODES)]
    Dimacs(DimacsArgs),
    /// Read an external solver's answer to `gridsat dimacs` and print the puzzle's solution.
    #[command(after_help = EXIT_CODES)]
    Decode(DecodeArgs),
    /// Explain the whole solution path step by step, with the techniques a person would use.
    #[command(after_help = EXIT_CODES)]
    Explain(ExplainArgs),
    /// The next step only: the easiest technique that makes progress.
    #[command(after_help = EXIT_CODES)]
    Hint(ExplainArgs),
    /// How hard a puzzle is: a level and a rating from the hardest technique it needs.
    #[command(after_help = EXIT_CODES)]
    Grade(ExplainArgs),
    /// Generate puzzles with a unique solution (same --seed, same puzzles).
    Generate(GenerateArgs),
    /// Solve a DIMACS CNF file with the embedded solver, answering like a SAT-competition solver
    /// (`s SATISFIABLE`, `v` lines; exit code 10 or 20).
    #[command(after_help = "Exit codes: 10 satisfiable, 20 unsatisfiable, 2 bad input or usage")]
    Sat(SatArgs),
    /// Check proofs written by `--proof` as they are on disk: each CNF's DRAT proof with an
    /// independent checker, and a unique verdict's solution (exit 1 when one does not check).
    Proof(ProofCheckArgs),
    /// Print a completion script for a shell (bash, zsh, fish, elvish, powershell); for bash:
    /// `gridsat completions bash > ~/.local/share/bash-completion/completions/gridsat`.
    Completions(CompletionsArgs),
    /// Print the manual page (roff) generated from these options; `--dir DIR` writes one page
    /// per command there (`man ./gridsat.1` to read it).
    Man(ManArgs),
}

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write gridsat.1 and a page per command (gridsat-solve.1, ...) into this folder instead
    /// of printing gridsat.1.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<String>,
}

/// Which files, and how to read them.
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// Puzzle files (`-` for standard input; none: standard input when it is a pipe), a
    /// puzz.link URL, or a one-line puzzle itself.
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
    /// Only puzzle N of each file (1-based; `dimacs`: the puzzle written, 1 by default).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = at_least_one)]
    pub index: Option<usize>,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// How to read puzzle files: the kind and the options that change a kind's rules. Shared by
/// every command that reads puzzles (`decode` too, so it rebuilds the model `dimacs` wrote).
#[derive(Args, Debug, Clone, Default)]
pub struct ReadArgs {
    /// The puzzle kind (sudoku, takuzu, tectonic, numberlink, shisen); detected from the file's
    /// extension or content when left out.
    #[arg(long, value_name = "KIND")]
    pub kind: Option<String>,
    /// Sudoku box shape ROWSxCOLS, for sizes whose boxes are not the usual ones.
    #[arg(long = "box", value_name = "RxC", help_heading = SUDOKU)]
    pub box_shape: Option<String>,
    /// Numberlink rule set: flow (every cell covered, no path runs alongside itself; the
    /// default), cover (every cell covered) or nikoli (cells may stay empty).
    #[arg(long, value_name = "RULES", help_heading = NUMBERLINK)]
    pub rules: Option<String>,
    /// Numberlink: how detached loops are kept out: lazy (cut when a model has one; the
    /// default) or exact (order labels in the CNF; use it for `dimacs` and `decode`).
    #[arg(long, value_name = "HOW", help_heading = NUMBERLINK)]
    pub loops: Option<String>,
    #[command(flatten)]
    pub takuzu: TakuzuArgs,
    #[command(flatten)]
    pub shisen: ShisenArgs,
}

/// Shisen-sho rule options (they add to a file's own `# shisen:` rules).
#[derive(Args, Debug, Clone, Default)]
pub struct ShisenArgs {
    /// Shisen-sho: lines may not leave the board through the ring around it.
    #[arg(long, help_heading = SHISEN)]
    pub no_outline: bool,
    /// Shisen-sho: after a removal the tiles above each emptied cell fall down (KShisen's
    /// gravity mode).
    #[arg(long, help_heading = SHISEN)]
    pub gravity: bool,
    /// Shisen-sho: the four seasons match each other, and so do the four flowers.
    #[arg(long, help_heading = SHISEN)]
    pub chinese: bool,
}

/// Takuzu rule options (a file's own rules apply when these are left out).
#[derive(Args, Debug, Clone, Default)]
pub struct TakuzuArgs {
    /// Takuzu: no two rows and no two columns may be equal (the default).
    #[arg(long, conflicts_with = "no_distinct_lines", help_heading = TAKUZU)]
    pub distinct_lines: bool,
    /// Takuzu: rows and columns may repeat (janko's and some other publishers' rules).
    #[arg(long, help_heading = TAKUZU)]
    pub no_distinct_lines: bool,
    /// Takuzu: what a line of odd length holds: `either` (one digit more than the other,
    /// either way; the default), `ones` (one more 1 than 0), `zeros` (one more 0 than 1).
    #[arg(long, value_name = "MODE", help_heading = TAKUZU)]
    pub odd_lines: Option<String>,
    /// Takuzu: sub-grids that obey the rules on their own, as binarypuzzle.com's composite
    /// puzzles: `4x6x6`, `9x6x6`, `4x8x8`, `8in14`, `6in10in14`, or ROW,COL,HEIGHT,WIDTH+...
    #[arg(long, value_name = "LAYOUT", help_heading = TAKUZU)]
    pub regions: Option<String>,
    /// Takuzu: how the distinct-lines rule enters the CNF: `lazy` (added when a model repeats
    /// a line; the default) or `eager` (difference variables up front).
    #[arg(long, value_name = "HOW", help_heading = TAKUZU)]
    pub distinct_encoding: Option<String>,
    /// Takuzu: how a block of lines that could be either is read: `grid` (one grid) or `lines`
    /// (one puzzle per line); by default eight lines of 16 cells are eight 4x4 puzzles and a
    /// square block is one grid.
    #[arg(long, value_name = "HOW")]
    pub read_as: Option<String>,
}

/// Which solver, and how output looks.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// One JSON object per puzzle (JSON Lines) instead of text.
    #[arg(long)]
    pub json: bool,
    /// An external DIMACS solver command instead of the embedded one (e.g. "cadical -q",
    /// "kissat"); the CNF file is appended as the last argument.
    #[arg(long, value_name = "COMMAND")]
    pub solver: Option<String>,
    /// The memory the run may use for its puzzles' models and solvers, split among the jobs: a
    /// number of megabytes or a size like 512M or 4G. A puzzle whose model would not fit is an
    /// error ("too large for the memory this run may use", exit 2) and the batch goes on.
    /// Default: half the machine's memory, within the address-space limit (ulimit -v).
    #[arg(long, value_name = "SIZE", allow_negative_numbers = true, value_parser = crate::cli::memory::parse_size)]
    pub max_memory: Option<u64>,
    /// With --solver: check every verdict that rests on the external solver's UNSATISFIABLE
    /// (unique, none, a complete count) with the embedded solver, within the same --timeout.
    /// Without it (or --proof) such a verdict is marked unverified; solutions are always
    /// checked against the clauses and the rule checker.
    #[arg(long, requires = "solver")]
    pub verify: bool,
    /// Give up on a puzzle after this many seconds (reading it, building its model, solving,
    /// uniqueness and the rest; embedded or external solver): it is reported `unknown` with the
    /// time spent, and the batch goes on.
    #[arg(long, visible_alias = "solver-timeout", value_name = "SECONDS", allow_negative_numbers = true, value_parser = time_limit)]
    pub timeout: Option<f64>,
    /// Threads that solve puzzles side by side (default and most: every core); output is the
    /// same, in the same order, whatever the number.
    #[arg(short = 'j', long, value_name = "N", allow_negative_numbers = true, value_parser = at_least_one)]
    pub jobs: Option<usize>,
    /// The embedded solver: `default` (gridsat's own small solver `lite`, then CaDiCaL for a
    /// puzzle that takes it more than 2,000 conflicts), `lite` or `varisat` alone, `cadical`
    /// (stronger on hard boards, dearer per easy puzzle), or `auto` (varisat, then CaDiCaL for
    /// a puzzle varisat has not finished within --budget).
    #[arg(long, value_name = "NAME")]
    pub backend: Option<String>,
    /// With --backend auto: seconds of varisat per puzzle before it moves to CaDiCaL
    /// (default 1; 0 moves at once, `inf` never).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = budget_seconds)]
    pub budget: Option<f64>,
    /// Never draw a progress bar (it is drawn on a terminal for long batches).
    #[arg(long)]
    pub no_progress: bool,
    /// Write the puzzles in this format instead of drawing them as text: svg, png or pdf (a
    /// picture of each; see --picture, --page, --out), or back in a file format with their
    /// solutions filled in (sudoku: line, grid, csv, sukaku, url; takuzu: text, line; tectonic:
    /// xml, text, url; numberlink: text, contest, url; a URL holds the puzzle only). The verdict
    /// lines go to standard error.
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
    #[command(flatten)]
    pub pictures: PictureArgs,
}

/// What pictures show, how they are laid out, and where they go (with `--format svg`, `png`
/// or `pdf`).
#[derive(Args, Debug, Clone, Default)]
pub struct PictureArgs {
    /// With --format svg/png/pdf: what a picture shows: puzzle, solution, or both (side by
    /// side). Default: the solution for solve, the puzzle for check and generate.
    #[arg(long, value_name = "WHAT", help_heading = PICTURES)]
    pub picture: Option<String>,
    /// With --format svg/png/pdf: lay the pictures out on pages: a4 or letter (printable, as
    /// many to a page as fit; generate puts the solutions on the pages after the puzzles), or
    /// single (one page as long as all of them need).
    #[arg(long, value_name = "SIZE", help_heading = PICTURES)]
    pub page: Option<String>,
    /// With --format svg/png/pdf: write the pictures as files in this folder (made if
    /// missing), named after the input file and the puzzle's number (and the step's, for
    /// explain). Needed when a run makes more than one SVG or PNG file; without it the one
    /// picture (or the PDF) goes to standard output.
    #[arg(long, value_name = "DIR", help_heading = PICTURES)]
    pub out: Option<String>,
    /// With --format svg/png/pdf, Takuzu: digits (0 and 1, the default) or circles
    /// (binarypuzzle.com's white 0 and black 1).
    #[arg(long, value_name = "STYLE", help_heading = PICTURES)]
    pub style: Option<String>,
}

/// DRAT proofs of the verdicts (`solve` and `check`).
#[derive(Args, Debug, Clone, Default)]
pub struct ProofArgs {
    /// Write the files that prove each "unique" and "no solution" verdict to this folder:
    /// `<stem>-<index>.cnf` (the puzzle's complete rules in DIMACS, with the variable map),
    /// `.solution` (unique) and `.drat` (a DRAT refutation of the CNF).
    #[arg(long, value_name = "DIR", help_heading = PROOFS)]
    pub proof: Option<String>,
    /// Check every proof written with an independent DRAT checker (see --checker). Proofs that
    /// an external solver wrote are always checked.
    #[arg(long, requires = "proof", help_heading = PROOFS)]
    pub verify_proof: bool,
    /// The DRAT checker: a command that takes the CNF and the proof file (appended in that
    /// order) and prints `s VERIFIED` when the proof checks. The default is rate
    /// (`cargo install rate`) with `-d`: deletions of unit clauses are ignored, as drat-trim
    /// does, which is sound and spares rate minutes on varisat's proofs; drat-trim works too.
    #[arg(long, value_name = "COMMAND", default_value = "rate -d", help_heading = PROOFS)]
    pub checker: String,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub proof: ProofArgs,
    /// Only find a solution; do not check that it is the only one.
    #[arg(long)]
    pub no_unique: bool,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub proof: ProofArgs,
    /// For a puzzle with several solutions, list the cells whose value is the same in all.
    #[arg(long)]
    pub forced: bool,
}

#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub run: RunArgs,
    /// Stop counting at this many solutions (at least 1).
    #[arg(long, default_value_t = 1000, value_name = "K", allow_negative_numbers = true, value_parser = at_least_one)]
    pub max: usize,
}

#[derive(Args, Debug)]
pub struct DimacsArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// The compact form: givens, and for Sudoku the singles they imply, folded into the model
    /// (cells they decide get no variables; an easy puzzle can fold to an empty formula). By
    /// default the full model is written, with one unit clause per given.
    #[arg(long)]
    pub folded: bool,
    /// The full model with one unit clause per given: the default (accepted for scripts
    /// written before it was).
    #[arg(long, hide = true, conflicts_with = "folded")]
    pub unfolded: bool,
    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<String>,
}

#[derive(Args, Debug)]
pub struct DecodeArgs {
    /// The puzzle file the CNF was written from.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// The solver's answer (`s SATISFIABLE` and `v` lines, or MiniSat's result file).
    #[arg(value_name = "ANSWER")]
    pub answer: String,
    #[command(flatten)]
    pub read: ReadArgs,
    /// Which puzzle of a multi-puzzle file (1-based), as given to `dimacs`.
    #[arg(long, default_value_t = 1, value_name = "N", allow_negative_numbers = true, value_parser = at_least_one)]
    pub index: usize,
    /// The CNF was written with `dimacs --folded`.
    #[arg(long)]
    pub folded: bool,
    /// The CNF is the full model (the default; accepted for scripts written before it was).
    #[arg(long, hide = true, conflicts_with = "folded")]
    pub unfolded: bool,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ProofCheckArgs {
    /// Proof formulas (`<stem>-<index>.cnf` with its `.drat` beside it), or folders of them.
    #[arg(required = true, value_name = "CNF|DIR")]
    pub files: Vec<String>,
    /// The DRAT checker: a command that takes the CNF and the proof file and prints
    /// `s VERIFIED` when the proof checks (as for `check --checker`).
    #[arg(long, value_name = "COMMAND", default_value = "rate -d")]
    pub checker: String,
}

#[derive(Args, Debug)]
pub struct SatArgs {
    /// A DIMACS CNF file (`-` for standard input).
    #[arg(value_name = "CNF")]
    pub file: String,
    /// The memory the solver may use (a number of megabytes or a size like 512M or 4G): a
    /// formula that would not fit is refused (exit 2). Default: half the machine's memory,
    /// within the address-space limit (ulimit -v).
    #[arg(long, value_name = "SIZE", allow_negative_numbers = true, value_parser = crate::cli::memory::parse_size)]
    pub max_memory: Option<u64>,
}

#[derive(Args, Debug)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// One JSON object per puzzle instead of text.
    #[arg(long)]
    pub json: bool,
    /// When the techniques run out, continue with steps proven by the SAT solver.
    #[arg(long)]
    pub fallback: bool,
    /// Never draw a progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Give up on a puzzle whose SAT verdict takes longer than this many seconds (reported
    /// `unknown`); the human techniques themselves are not timed.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = time_limit)]
    pub timeout: Option<f64>,
    /// Threads that work side by side (default and most: every core); the output is the same.
    #[arg(short = 'j', long, value_name = "N", allow_negative_numbers = true, value_parser = at_least_one)]
    pub jobs: Option<usize>,
    /// The memory the run may use for its puzzles' models and solvers, split among the jobs (as
    /// for solve).
    #[arg(long, value_name = "SIZE", allow_negative_numbers = true, value_parser = crate::cli::memory::parse_size)]
    pub max_memory: Option<u64>,
    /// Pictures instead of text (explain and hint): svg, png or pdf. explain draws one picture
    /// per step and one of the end (files in --out DIR, or pages with --page; a PDF holds
    /// them all), hint the step it gives.
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
    #[command(flatten)]
    pub pictures: PictureArgs,
}

#[derive(Args, Debug, Clone)]
#[command(after_long_help = GENERATE_HELP)]
pub struct GenerateArgs {
    /// The kind of puzzle to generate (sudoku, takuzu, tectonic, numberlink, shisen).
    #[arg(value_name = "KIND")]
    pub kind: String,
    /// Side of a square grid (Sudoku: 4 to 25, default 9; others: the grid's width and height),
    /// or WIDTHxHEIGHT for a kind that takes one (shisen: 18x8).
    #[arg(long, value_name = "N|WxH", allow_negative_numbers = true)]
    pub size: Option<Size>,
    /// Width of a rectangular grid (kinds that allow one).
    #[arg(long, allow_negative_numbers = true, value_parser = at_least_one)]
    pub width: Option<usize>,
    /// Height of a rectangular grid (kinds that allow one).
    #[arg(long, allow_negative_numbers = true, value_parser = at_least_one)]
    pub height: Option<usize>,
    /// Sudoku box shape ROWSxCOLS (default: inferred from --size; --box alone sets the size).
    #[arg(long = "box", value_name = "RxC", help_heading = SUDOKU)]
    pub box_shape: Option<String>,
    /// Numberlink rule set the puzzle must be unique under: flow (default), cover or nikoli.
    #[arg(long, value_name = "RULES", help_heading = NUMBERLINK)]
    pub rules: Option<String>,
    /// Target grade level from the strategy engine, the same words for every kind: easy,
    /// medium, hard, expert, extreme (a seed that misses it prints nothing, says what came
    /// closest, exit 1). For a number of givens use --clues. Without it every Takuzu, Tectonic and
    /// Numberlink puzzle is one the kind's techniques finish; `any` keeps every unique puzzle,
    /// including those only the solver finishes.
    #[arg(long, value_name = "LEVEL")]
    pub difficulty: Option<String>,
    /// Symmetry of the givens: none, rotational (180°), quarter-turn (90°), mirror
    /// (left-right), diagonal.
    #[arg(long, help_heading = SUDOKU)]
    pub symmetry: Option<String>,
    /// How many puzzles.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = at_least_one)]
    pub count: usize,
    /// Threads that generate side by side (default and most: every core); the puzzles and
    /// their order are the same whatever the number.
    #[arg(short = 'j', long, value_name = "N", allow_negative_numbers = true, value_parser = at_least_one)]
    pub jobs: Option<usize>,
    /// Random seed (0 to 18446744073709551615): the same command with the same seed gives the
    /// same puzzles. Puzzle i of a batch uses seed + i, and each is printed with its own seed.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = seed)]
    pub seed: u64,
    /// Only minimal puzzles: no single given can be removed without losing uniqueness (with a
    /// symmetry too: a grid whose reduction is not minimal is reduced again, then replaced).
    #[arg(long)]
    pub minimal: bool,
    /// Number of givens wanted: one number, MIN-MAX, or a band (Sudoku: easy 36-45, medium
    /// 27-35, hard 19-26, evil 16-18 on 9x9, scaled by cell count on other sizes).
    #[arg(long, value_name = "MIN-MAX|BAND", help_heading = SUDOKU)]
    pub clues: Option<String>,
    /// Fresh grids tried per puzzle before its target counts as missed (default 100); also
    /// bounds the Sudoku low-clue search (300 moves per grid, 10,000 near the target).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = at_least_one)]
    pub attempts: Option<usize>,
    /// How puzzles are written: line (one line per puzzle) or grid (default: line up to 9x9,
    /// grid above).
    #[arg(long, value_name = "LAYOUT", help_heading = SUDOKU)]
    pub layout: Option<String>,
    /// Tectonic: the largest piece, in cells (4 or more; default 5).
    #[arg(long, value_name = "N", help_heading = TECTONIC, allow_negative_numbers = true, value_parser = at_least_one)]
    pub max_piece: Option<usize>,
    /// Give up on a puzzle not made within this many seconds: it is reported on standard error
    /// as a missed target (exit 1) and the batch goes on.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = time_limit)]
    pub timeout: Option<f64>,
    /// Write the puzzles in this format instead of the kind's text form: svg, png or pdf (a
    /// picture of each; with --page a4 a printable book, solutions on the pages after the
    /// puzzles), or a file format (sudoku: line, grid, csv, sukaku, url; takuzu: text, line;
    /// tectonic: xml, text, url; numberlink: text, contest, url).
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
    /// Write each puzzle's solution too: as comment lines after the puzzle (`# solution: ...`),
    /// in the solutions column of `--format csv`, or as `solution` rows in `--json`.
    #[arg(long)]
    pub with_solution: bool,
    #[command(flatten)]
    pub pictures: PictureArgs,
    /// One JSON object per puzzle instead of text.
    #[arg(long)]
    pub json: bool,
    /// Never draw a progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Shisen-sho: only boards whose clearing pairing is unique (small hand-puzzle boards).
    #[arg(long, help_heading = SHISEN)]
    pub unique: bool,
    #[command(flatten)]
    pub takuzu: TakuzuArgs,
    #[command(flatten)]
    pub shisen: ShisenArgs,
}

/// `--size`: `N` (a square) or `WxH`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    pub width: usize,
    pub height: usize,
}

impl std::str::FromStr for Size {
    type Err = String;
    fn from_str(s: &str) -> Result<Size, String> {
        let num = |t: &str| match t.trim().parse::<usize>() {
            Ok(0) => Err(format!("a side is at least 1, got `{s}`")),
            Ok(n) => Ok(n),
            Err(_) => Err(format!("expected N or WIDTHxHEIGHT like 18x8, got `{s}`")),
        };
        match s.split_once(['x', 'X']) {
            Some((w, h)) => Ok(Size {
                width: num(w)?,
                height: num(h)?,
            }),
            None => {
                let n = num(s)?;
                Ok(Size {
                    width: n,
                    height: n,
                })
            }
        }
    }
}

/// The long help of `gridsat help generate`.
const GENERATE_HELP: &str = "\
Sudoku:
  A random full grid from the SAT solver, then givens removed one at a time (or one symmetry
  orbit at a time) while SAT still proves the solution unique. Every puzzle is unique, graded,
  and printed with its seed and the command that makes it again.

  Two ways to ask for difficulty, which can be combined:
    --difficulty LEVEL  by grade: easy, medium, hard, expert, extreme (the level `grade` gives:
                        the hardest technique the strategy engine needs; a puzzle it cannot
                        finish without the solver is extreme). Removals that would make the
                        puzzle harder than LEVEL are refused; the result must reach LEVEL.
    --clues BAND|MIN-MAX  by number of givens. Bands: easy 36-45, medium 27-35, hard 19-26,
                        evil 16-18 (9x9; scaled by cell count on other sizes). No 9x9 Sudoku
                        with 16 givens has a unique solution (McGuire et al. 2012), so a range
                        starting at 16 starts at 17 instead, and --clues 16 is refused.

  Every target has a bound: --attempts fresh grids per puzzle (default 100). A missed target
  is reported on standard error with what was seen, and the exit code is 1. Removing givens at
  random rarely gets a 9x9 puzzle below about 21 givens; when a grid's reduction stays above
  the --clues range, a low-clue search goes on with that grid (remove a given, add others back
  where another solution differs, reduce again): 300 moves per grid, 10,000 once within one
  given of the range. On 9x9 it finds 20 or 19 givens in about a second; 18 needs
  --attempts 500 or so; 17 practically never.

  --minimal: no single given can be removed. Without it, a symmetric puzzle is orbit-minimal:
  no whole orbit can go, but a single given of an orbit might.

Takuzu:
  --size N, WxH or --width W --height H (default 10x10); --difficulty easy ... extreme
  (binarypuzzle.com's levels; its very hard is expert); the Takuzu options set the rules, and are written
  into the output as a `# takuzu:` line. Without --difficulty the minimal puzzle gets givens
  back where the strategies run out, so that they finish it; --minimal or --difficulty any
  keeps the minimal puzzle.

Tectonic:
  --size N, WxH or --width W --height H (default 8x8); --max-piece N (default 5). Givens are
  removed while SAT proves the solution unique and the techniques still finish the puzzle
  (within LEVEL with --difficulty easy ... extreme; 40 tries per seed); --difficulty any keeps
  the minimal puzzle.

Numberlink:
  --size N, WxH or --width W --height H (default 7x7, up to 30x30); --rules flow, cover or
  nikoli. Paths are joined while the puzzle stays unique and the techniques finish it (within
  LEVEL with --difficulty; 200 tries per seed); --minimal joins
  until no join keeps it unique; --difficulty any keeps solver-only puzzles too.

Shisen-sho:
  --size WxH (KShisen's 14x6, 16x9, 18x8 (default), 24x12, 26x14, 30x16); --gravity,
  --chinese, --no-outline; a deal is kept when a clearing plan passes the rule checker.
  --unique keeps deals until SAT proves the clearing pairing unique (use it with --no-outline
  on small boards; default 4x4).

Every kind's guide, with examples: docs/<kind>.md in the source (docs/sudoku.md, ...).

Exit codes: 0 every puzzle made, 1 a target missed for some seed (the others are printed),
2 bad usage.

Examples:
  gridsat generate sudoku --difficulty medium --symmetry rotational --count 20 --seed 7
  gridsat generate sudoku --clues hard --minimal
  gridsat generate sudoku --size 16 --json
  gridsat generate sudoku --size 6 --box 2x3 --layout grid
  gridsat generate takuzu --size 8 --difficulty hard --seed 3
  gridsat generate tectonic --size 6 --seed 2
  gridsat generate numberlink --size 8 --difficulty expert --seed 1
  gridsat generate shisen --size 14x6 --seed 3";

/// A whole number of at least 1 (`--max`, `--jobs`, `--count`, `--index`, sizes, ...).
fn at_least_one(s: &str) -> std::result::Result<usize, String> {
    match whole_number(s)? {
        0 => Err("must be at least 1".into()),
        k => usize::try_from(k).map_err(|_| format!("must be at most {}", usize::MAX)),
    }
}

/// A whole number from 0 to 2^64 - 1, with a message that says which rule it breaks.
fn whole_number(s: &str) -> std::result::Result<u64, String> {
    let t = s.trim();
    if t.is_empty() {
        return Err("expected a whole number, got nothing".into());
    }
    if let Some(rest) = t.strip_prefix('-') {
        if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err("must not be negative".into());
        }
    }
    if !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("expected a whole number, got `{s}`"));
    }
    t.parse::<u64>()
        .map_err(|_| format!("must be at most {} (2^64 - 1)", u64::MAX))
}

/// `--seed`: any whole number a u64 holds.
fn seed(s: &str) -> std::result::Result<u64, String> {
    whole_number(s)
}

/// The longest time limit accepted, in seconds (about 31 years): longer is no limit, which is
/// what leaving the option out says.
pub const MAX_SECONDS: f64 = 1e9;

/// A number of seconds: finite, at least `least` (and more than it when `strict`), at most
/// [`MAX_SECONDS`].
fn seconds(s: &str, least: f64, strict: bool) -> std::result::Result<f64, String> {
    let t = s.trim();
    let x: f64 = t
        .parse()
        .map_err(|_| format!("expected a number of seconds like 2.5, got `{s}`"))?;
    let low = if strict { x <= least } else { x < least };
    if x.is_nan() {
        Err(format!("must be a number of seconds, got `{s}`"))
    } else if x.is_infinite() {
        Err(format!(
            "must be a finite number of seconds, got `{s}` (leave the option out for no limit)"
        ))
    } else if low {
        Err(format!(
            "must be {} {least} seconds, got {x}",
            if strict { "more than" } else { "at least" }
        ))
    } else if x > MAX_SECONDS {
        Err(format!(
            "must be at most {MAX_SECONDS:e} seconds (leave the option out for no limit)"
        ))
    } else {
        Ok(x)
    }
}

/// `--timeout`: more than 0 seconds.
fn time_limit(s: &str) -> std::result::Result<f64, String> {
    seconds(s, 0.0, true)
}

/// `--budget`: 0 seconds or more; `inf` (or anything above [`MAX_SECONDS`]) is a budget that
/// never runs out.
fn budget_seconds(s: &str) -> std::result::Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x > MAX_SECONDS => Ok(f64::INFINITY),
        _ => seconds(s, 0.0, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_checked_at_their_edges() {
        assert_eq!(at_least_one("1"), Ok(1));
        assert_eq!(at_least_one(" 7 "), Ok(7));
        for bad in ["0", "-1", "", "x", "1.5", "18446744073709551616", "+-3"] {
            assert!(at_least_one(bad).is_err(), "{bad}");
        }
        assert_eq!(at_least_one("-1").unwrap_err(), "must not be negative");
        assert_eq!(seed("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(seed("0"), Ok(0));
        assert!(seed("-1").is_err());
        assert_eq!(time_limit("2.5"), Ok(2.5));
        for bad in [
            "0", "-1", "inf", "-inf", "nan", "NaN", "", "1e300", "1e10", "abc",
        ] {
            assert!(time_limit(bad).is_err(), "{bad}");
        }
        assert_eq!(budget_seconds("0"), Ok(0.0));
        assert_eq!(budget_seconds("inf"), Ok(f64::INFINITY));
        assert_eq!(budget_seconds("1e300"), Ok(f64::INFINITY));
        for bad in ["-0.5", "-inf", "nan", "", "1s"] {
            assert!(budget_seconds(bad).is_err(), "{bad}");
        }
    }
}
