//! Fuzzing that stays: deterministic mutation and grammar fuzzers, seeded from the project's own
//! `puzzles/` (and small DIMACS texts for the CNF and answer readers), with an oracle for each
//! failure class:
//!
//! - every reader of every kind, detection by content, puz.link URL files, DIMACS: every input
//!   reads to puzzles or to a clean error with a line and column, without a panic, within a
//!   second; the small puzzles read are solved, and the solver's answer must pass the kind's
//!   independent rule checker (`puzzle::solve` runs it: a rejected answer is `Error::Bug`);
//! - no lost valid puzzle: a corrupted record spliced between valid ones (with the format's own
//!   separators, blank lines or none) must leave every valid one read, in order;
//! - the option parser, through the binary: random command lines from a grammar of every verb
//!   and option with edge values end with exit 0-3, without a panic or an abort.
//!
//! Each family gets `GRIDSAT_FUZZ_INPUTS` inputs (20,000 by default, 200 for the command line,
//! `GRIDSAT_FUZZ_CLI_INPUTS`), which CI runs in seconds; `GRIDSAT_FUZZ_SEED` shifts every
//! family's seed for a campaign. `docs/fuzzing.md` says what ran and what it found.

use gridsat::cnf::dimacs::{read_answer, read_cnf};
use gridsat::error::Error;
use gridsat::kinds::{self, AnyPuzzle, ReadOptions};
use gridsat::puzzle::{Kind, Puzzle, Style};
use gridsat::solver::SolverChoice;
use std::path::Path;
use std::time::{Duration, Instant};

/// xorshift64*: a small deterministic generator (the same inputs on every run).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Pieces the mutations splice in: separators, line endings, markup, and numbers at the edges
/// of what sizes can be.
const TOKENS: &[&str] = &[
    "0",
    "1",
    "2",
    "9",
    ".",
    "-",
    "_",
    " ",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "#",
    "|",
    "+",
    "=",
    "<",
    ">",
    "/",
    "\"",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    ";",
    "x",
    "a",
    "z",
    "Z",
    "é",
    "\u{feff}",
    "18446744073709551615",
    "4294967296",
    "2147483648",
    "1000000",
    "0 0\n",
    "65 65\n",
    "999 999\n",
    "SIZE 9999X9999\n",
    "LINE_NUM 99999\n",
    "LINE#1 (0,0)-(1,1)\n",
    "<Puzzle width=\"4294967296\" height=\"1\">",
    "</Puzzle>",
    "<Cell PieceNumber=\"1\" Value=\"9\"/>",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "{\"w\": 99999, \"h\": 99999}",
    "solution:",
    "# takuzu: odd-lines=ones\n",
    "# shisen: gravity chinese no-outline\n",
    "🀄",
    "\u{fe0f}",
    "p cnf 10000001 1\n",
    "p cnf 3 2\n",
    "%\n0\n",
    "s SATISFIABLE\n",
    "v 1 -2 0\n",
];

/// One mutation of `text`.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        let at = rng.below(chars.len() + 1);
        match rng.below(7) {
            0 if !chars.is_empty() => {
                let k = rng.below(chars.len());
                chars[k] = TOKENS[rng.below(TOKENS.len())]
                    .chars()
                    .next()
                    .unwrap_or('0');
            }
            1 => {
                let t: Vec<char> = TOKENS[rng.below(TOKENS.len())].chars().collect();
                chars.splice(at..at, t);
            }
            2 if !chars.is_empty() => {
                let end = (at + 1 + rng.below(40)).min(chars.len());
                chars.drain(at.min(end)..end);
            }
            3 if !chars.is_empty() => {
                // Duplicate a slice (repeated rows, puzzles, elements).
                let from = rng.below(chars.len());
                let end = (from + 1 + rng.below(200)).min(chars.len());
                let piece: Vec<char> = chars[from..end].to_vec();
                chars.splice(at..at, piece);
            }
            4 => chars.truncate(at),
            5 => {
                // Swap two lines.
                let s: String = chars.iter().collect();
                let mut lines: Vec<&str> = s.split('\n').collect();
                if lines.len() > 1 {
                    let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                    lines.swap(a, b);
                }
                chars = lines.join("\n").chars().collect();
            }
            _ => {
                let t = TOKENS[rng.below(TOKENS.len())];
                let s: String = chars.iter().collect();
                chars = s.replacen('\n', &format!("\n{t}"), 1).chars().collect();
            }
        }
    }
    chars.into_iter().collect()
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn inputs_per_family() -> usize {
    env_number("GRIDSAT_FUZZ_INPUTS", 20_000) as usize
}

/// A family's generator seed: its own number, shifted by `GRIDSAT_FUZZ_SEED` for a campaign.
fn family_seed(own: u64) -> u64 {
    let shift = env_number("GRIDSAT_FUZZ_SEED", 0);
    own.wrapping_add(shift.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .max(1)
}

/// The cells of a puzzle (to keep the solved ones small).
fn cells(p: &AnyPuzzle) -> usize {
    match p {
        AnyPuzzle::Sudoku(q) => q.size * q.size,
        AnyPuzzle::Takuzu(q) => q.width * q.height,
        AnyPuzzle::Tectonic(q) => q.width * q.height,
        AnyPuzzle::Numberlink(q) => q.width * q.height,
        AnyPuzzle::Shisen(q) => q.width * q.height,
    }
}

/// Puzzles this small are solved by the oracle (they take well under a millisecond or two).
const SOLVED_CELLS: usize = 100;

/// The independent-checker oracle: a small puzzle that read is solved, and the answer must pass
/// the kind's rule checker (`puzzle::solve` checks it; a rejected answer is `Error::Bug`).
fn solve_checked(p: &AnyPuzzle) -> Result<(), String> {
    // Shisen-sho's model (pairs and their routes, gravity's order) is far larger per cell.
    let limit = match p {
        AnyPuzzle::Shisen(_) => SOLVED_CELLS / 4,
        _ => SOLVED_CELLS,
    };
    if cells(p) > limit {
        return Ok(());
    }
    let r = gridsat::with_puzzle!(p, q => gridsat::puzzle::solve(q, &SolverChoice::Embedded).map(|_| ()));
    match r {
        Err(Error::Bug(m)) => Err(m),
        _ => Ok(()),
    }
}

/// What identifies a puzzle read: its kind and its givens as drawn (not its rules, which a
/// directive spliced in before it may change).
fn fingerprint(p: &AnyPuzzle) -> String {
    gridsat::with_puzzle!(p, q => format!("{:?} {}", q.kind(), q.render(None, Style { color: false })))
}

/// The project's puzzle files of a kind, as seeds.
fn seeds(kind: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles")
        .join(kind);
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).expect("puzzles folder") {
        let p = e.expect("entry").path();
        if let Ok(t) = std::fs::read_to_string(&p) {
            if t.len() < 200_000 {
                out.push((p.file_name().unwrap().to_string_lossy().into_owned(), t));
            }
        }
    }
    out.sort();
    assert!(!out.is_empty(), "no seeds for {kind}");
    out
}

/// Runs `read` on `count` mutations of the seeds; a panic or a slow input fails with the input.
fn fuzz(family: &str, seeds: &[(String, String)], seed: u64, read: impl Fn(&str, &str)) {
    let count = inputs_per_family();
    let mut rng = Rng(family_seed(seed));
    let started = Instant::now();
    for n in 0..count {
        let (name, text) = &seeds[rng.below(seeds.len())];
        let input = mutate(&mut rng, text);
        let t = Instant::now();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read(name, &input)));
        assert!(
            r.is_ok(),
            "{family} input {n} (from {name}) panicked:\n{input:?}"
        );
        if t.elapsed() >= Duration::from_secs(1) {
            // Once more, to tell a slow reader from a busy machine (the 2-core VM under load
            // stalls a thread for a second now and then).
            let again = Instant::now();
            read(name, &input);
            assert!(
                again.elapsed() < Duration::from_secs(1),
                "{family} input {n} (from {name}) took {:?}, and {:?} again:\n{input:?}",
                t.elapsed(),
                again.elapsed()
            );
        }
    }
    eprintln!(
        "fuzz {family}: {count} inputs (seed {}) in {:.2} s, no panic, none over 1 s, every small puzzle's answer passed its rule checker",
        family_seed(seed),
        started.elapsed().as_secs_f64()
    );
}

/// A parse that ends in puzzles or in an error with a position inside the file.
fn read_as(kind: Option<Kind>) -> impl Fn(&str, &str) {
    move |name: &str, text: &str| {
        let r = match kind {
            Some(k) => {
                // Streamed as the command line reads: the puzzles and the errors, each in its
                // place.
                let mut reader = kinds::AnyReader::new(k, name, &ReadOptions::default());
                let items = gridsat::records::feed(&mut reader, text);
                for item in &items {
                    match item {
                        Ok(p) => {
                            if let Err(m) = solve_checked(p) {
                                panic!("an answer the rule checker rejects: {m}");
                            }
                        }
                        Err(e) => {
                            assert!(e.line >= 1 && e.col >= 1 && !e.message.is_empty(), "{e}")
                        }
                    }
                }
                return;
            }
            None => kinds::read_any(name, name, text, None, &ReadOptions::default()),
        };
        match r {
            Err(e) => {
                assert!(e.line >= 1 && e.col >= 1, "{e}");
                assert!(!e.message.is_empty());
            }
            Ok(ps) => {
                for p in ps.iter().take(4) {
                    if let Err(m) = solve_checked(p) {
                        panic!("an answer the rule checker rejects: {m}");
                    }
                }
            }
        }
    }
}

#[test]
fn sudoku_reader() {
    fuzz("sudoku", &seeds("sudoku"), 1, read_as(Some(Kind::Sudoku)));
}

#[test]
fn takuzu_reader() {
    fuzz("takuzu", &seeds("takuzu"), 2, read_as(Some(Kind::Takuzu)));
}

#[test]
fn tectonic_reader() {
    // Text grids, XML and JSON Lines (the CSV form reads a layout file beside it: not here).
    let seeds: Vec<(String, String)> = seeds("tectonic")
        .into_iter()
        .filter(|(n, _)| !n.ends_with(".csv"))
        .collect();
    fuzz("tectonic", &seeds, 3, read_as(Some(Kind::Tectonic)));
}

#[test]
fn numberlink_reader() {
    fuzz(
        "numberlink",
        &seeds("numberlink"),
        4,
        read_as(Some(Kind::Numberlink)),
    );
}

#[test]
fn shisen_reader() {
    fuzz("shisen", &seeds("shisen"), 8, read_as(Some(Kind::Shisen)));
}

#[test]
fn interchange_readers() {
    // Files of puzz.link URLs (every genre gridsat reads, as pzprjs made them), the datasets'
    // `quizzes,solutions` CSV, HoDoKu library lines and Numberlink's rule directive, read by
    // content as the command line reads them.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pzprjs-urls.txt");
    let urls: Vec<String> = std::fs::read_to_string(data)
        .expect("tests/data/pzprjs-urls.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().find(|t| t.starts_with("http")))
        .map(String::from)
        .collect();
    let quiz = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let answer =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let hodoku_grid: String = quiz
        .chars()
        .zip(answer.chars())
        .enumerate()
        .map(|(i, (q, a))| match (q, i % 7) {
            ('.', 0) => format!("+{a}"),
            _ => q.to_string(),
        })
        .collect();
    let seeds = vec![
        ("urls.txt".to_string(), urls.join("\n") + "\n"),
        (
            "mixed.txt".to_string(),
            format!("# genres\n{}\n{}\n", urls[0], urls[urls.len() / 2]),
        ),
        (
            "quizzes.csv".to_string(),
            format!("quizzes,solutions\n{quiz},{answer}\n{quiz},\n"),
        ),
        (
            "headless.csv".to_string(),
            format!("1,{quiz},0.5\n2,{quiz},3.1\n"),
        ),
        (
            "library.txt".to_string(),
            format!(":0000:x:{hodoku_grid}:113 423::\n:0100:5:{quiz}:::\n"),
        ),
        (
            "directive.txt".to_string(),
            "# numberlink: rules=nikoli\nA.A\n...\nB.B\n\n# numberlink: rules=cover\nAB\nAB\n"
                .to_string(),
        ),
    ];
    fuzz("interchange", &seeds, 7, read_as(None));
}

#[test]
fn detection_by_content() {
    let mut all = Vec::new();
    for k in ["sudoku", "takuzu", "tectonic", "numberlink", "shisen"] {
        all.extend(seeds(k).into_iter().map(|(n, t)| (format!("{n}.txt"), t)));
    }
    fuzz("detect", &all, 5, read_as(None));
}

#[test]
fn dimacs_and_answer_readers() {
    let seeds = vec![
        (
            "cnf".to_string(),
            "c x\np cnf 3 2\n1 -3 0\n2 3 -1 0\n".to_string(),
        ),
        (
            "satlib".to_string(),
            "p cnf 3 2\n1 -3 0\n2 3 -1 0\n%\n0\n".to_string(),
        ),
        (
            "answer".to_string(),
            "c hi\ns SATISFIABLE\nv 1 -2\nv 3 0\n".to_string(),
        ),
        ("minisat".to_string(), "SAT\n-1 2 3 0\n".to_string()),
    ];
    fuzz("dimacs", &seeds, 6, |_, text| {
        if let Ok(f) = read_cnf(text) {
            assert!(f.num_vars() <= gridsat::cnf::dimacs::MAX_VARS);
        }
        let _ = read_answer(text, 3);
    });
}

/// Valid records of one format of `kind`, each a text that reads alone as one puzzle, with the
/// separators the format allows between records (`"\n\n"`, a blank line, always; `"\n"` too
/// when records follow each other without one).
struct Records {
    kind: Kind,
    name: String,
    records: Vec<String>,
    separators: Vec<&'static str>,
}

/// The records of every seed file of `kind`: blocks between blank lines that read as one
/// puzzle each, or lines that do (files of one-line puzzles).
fn records(kind: Kind, dir: &str) -> Vec<Records> {
    let read = |text: &str| -> Vec<AnyPuzzle> {
        kinds::read("r", text, kind, &ReadOptions::default()).unwrap_or_default()
    };
    let mut out = Vec::new();
    for (name, text) in seeds(dir) {
        if name.ends_with(".csv") || name.ends_with(".json") || name.ends_with(".xml") {
            continue; // read whole, or one document: no records to splice between
        }
        let text = text.replace("\r\n", "\n");
        let mut recs = Vec::new();
        for block in text.split("\n\n") {
            let body: String = block
                .lines()
                .filter(|l| !l.trim_start().starts_with('#') && l.trim() != "0 0")
                .map(|l| format!("{l}\n"))
                .collect();
            if body.trim().is_empty() {
                continue;
            }
            match read(&body).len() {
                1 => recs.push(body),
                n if n > 1 && body.lines().all(|l| read(l).len() == 1) => {
                    recs.extend(body.lines().map(|l| format!("{l}\n")))
                }
                _ => {}
            }
        }
        if recs.len() < 2 {
            continue;
        }
        let mut separators = vec!["\n"];
        // Back to back (no blank line) where the clean file reads every record so.
        let joined: String = recs.concat();
        if read(&joined).len() == recs.len() {
            separators.push("");
        }
        out.push(Records {
            kind,
            name,
            records: recs,
            separators,
        });
    }
    out
}

/// The no-lost-puzzle oracle: `count` files of valid records with a corrupted record (a
/// mutation of one) spliced between them; every valid record must still read, in order.
/// Failures are counted and the first ones shown; the test fails when there is any.
fn splice(family: &str, sets: &[Records], seed: u64) {
    assert!(!sets.is_empty(), "no records for {family}");
    let count = inputs_per_family();
    let mut rng = Rng(family_seed(seed));
    let started = Instant::now();
    let mut lost = Vec::new();
    let mut skipped = 0;
    for n in 0..count {
        let set = &sets[rng.below(sets.len())];
        let sep = set.separators[rng.below(set.separators.len())];
        let pick = |rng: &mut Rng| set.records[rng.below(set.records.len())].clone();
        let valid: Vec<String> = (0..3).map(|_| pick(&mut rng)).collect();
        let victim = pick(&mut rng);
        let bad = mutate(&mut rng, &victim);
        // Mutations that end a file by its format's rules, or change what follows, are not
        // corruptions a reader could step over: `0 0` ends a Numberlink collection, a contest
        // `SIZE` line or a document opener makes the file another form.
        // A rule directive comment changes the rules of the puzzles after it, by design.
        let json_set = set.records[0].starts_with('{');
        if bad.split(['\n', '\r']).any(|l| {
            let t = l.trim();
            if t.starts_with('#') {
                return t.contains("takuzu:") || t.contains("shisen:") || t.contains("numberlink:");
            }
            // ... and a Numberlink `2 H` header takes the lines of two numbers after it as its
            // rows, as it must.
            let two_wide = set.kind == Kind::Numberlink && t.split_whitespace().next() == Some("2");
            two_wide
                || (set.kind == Kind::Numberlink
                    && t.split_whitespace().count() == 2
                    && t.split_whitespace().all(|x| x.parse::<u64>() == Ok(0)))
                || t.starts_with("SIZE")
                || t.starts_with('<')
                || (t.starts_with('{') && !json_set)
                || t.starts_with('[')
        }) {
            skipped += 1;
            continue;
        }
        let at = rng.below(3);
        let mut parts: Vec<String> = valid.clone();
        parts.insert(at, bad.clone());
        let text = parts
            .iter()
            .map(|p| p.trim_end_matches('\n').to_string())
            .collect::<Vec<_>>()
            .join(&format!("\n{sep}"))
            + "\n";
        let want: Vec<String> = valid
            .iter()
            .map(|v| {
                let ps =
                    kinds::read("v", v, set.kind, &ReadOptions::default()).expect("a valid record");
                fingerprint(&ps[0])
            })
            .collect();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut reader = kinds::AnyReader::new(set.kind, "s", &ReadOptions::default());
            gridsat::records::feed(&mut reader, &text)
                .into_iter()
                .filter_map(|i| i.ok())
                .map(|p| fingerprint(&p))
                .collect::<Vec<String>>()
        }));
        let got = r.unwrap_or_else(|_| panic!("{family} input {n} panicked:\n{text:?}"));
        // Every valid record, in order, among the puzzles read.
        let mut k = 0;
        for g in &got {
            if k < want.len() && *g == want[k] {
                k += 1;
            }
        }
        if k < want.len() {
            lost.push((n, set.name.clone(), text));
        }
    }
    for (n, name, text) in lost.iter().take(5) {
        eprintln!("{family} input {n} (from {name}) lost a valid puzzle:\n{text}\n---");
    }
    eprintln!(
        "fuzz {family}: {count} spliced files (seed {}; {skipped} of them passed over, their corruption changing the file's form by design) in {:.2} s, {} lost a valid puzzle",
        family_seed(seed),
        started.elapsed().as_secs_f64(),
        lost.len()
    );
    assert!(
        lost.is_empty(),
        "{family}: {} files lost a valid puzzle",
        lost.len()
    );
}

#[test]
fn no_lost_puzzle_sudoku() {
    splice("splice-sudoku", &records(Kind::Sudoku, "sudoku"), 11);
}

#[test]
fn no_lost_puzzle_takuzu() {
    let mut sets = records(Kind::Takuzu, "takuzu");
    sets.extend(records(Kind::Takuzu, "takuzu/forms"));
    splice("splice-takuzu", &sets, 12);
}

#[test]
fn no_lost_puzzle_tectonic() {
    splice("splice-tectonic", &records(Kind::Tectonic, "tectonic"), 13);
}

#[test]
fn no_lost_puzzle_numberlink() {
    splice(
        "splice-numberlink",
        &records(Kind::Numberlink, "numberlink"),
        14,
    );
}

#[test]
fn no_lost_puzzle_shisen() {
    splice("splice-shisen", &records(Kind::Shisen, "shisen"), 15);
}

/// Values at the edges of what each option takes.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "-1",
    "3",
    "0.001",
    "1e308",
    "inf",
    "-inf",
    "nan",
    "18446744073709551615",
    "100000000",
    "4294967297",
    "",
    "x",
    "1x1",
    "0x0",
    "3x3",
    "65",
    "9999",
    "2.5",
];

/// A random command line: a verb, an input, and options with values from [`NUMBERS`] and each
/// option's own words.
fn command_line(rng: &mut Rng, inputs: &[String]) -> Vec<String> {
    const VERBS: &[&str] = &[
        "solve", "check", "count", "explain", "hint", "grade", "dimacs", "generate", "sat",
        "decode", "proof",
    ];
    const OPTIONS: &[(&str, &[&str])] = &[
        ("--timeout", NUMBERS),
        ("-j", NUMBERS),
        ("--budget", NUMBERS),
        ("--max", NUMBERS),
        ("--index", NUMBERS),
        ("--box", NUMBERS),
        ("--size", NUMBERS),
        ("--count", NUMBERS),
        ("--seed", NUMBERS),
        (
            "--kind",
            &[
                "sudoku",
                "takuzu",
                "tectonic",
                "numberlink",
                "shisen",
                "chess",
                "",
            ],
        ),
        (
            "--backend",
            &["auto", "lite", "varisat", "cadical", "default", "none"],
        ),
        ("--rules", &["flow", "cover", "nikoli", "loose"]),
        ("--loops", &["lazy", "exact", "never"]),
        ("--odd-lines", &["either", "ones", "zeros", "odd"]),
        (
            "--regions",
            &["4x6x6", "8in14", "whole", "0,0,2,2", "99999999,0,1,1", "x"],
        ),
        ("--distinct-encoding", &["lazy", "eager", "x"]),
        ("--read-as", &["grid", "lines", "auto", "x"]),
        (
            "--format",
            &["text", "line", "grid", "url", "xml", "svg", "json", "x"],
        ),
        ("--difficulty", &["easy", "hard", "x", "1"]),
        ("--picture", &["puzzle", "solution", "both", "x"]),
        ("--color", &["always", "never", "auto", "x"]),
    ];
    const FLAGS: &[&str] = &[
        "--json",
        "--no-progress",
        "--no-unique",
        "--forced",
        "--folded",
        "--gravity",
        "--chinese",
        "--no-outline",
        "--no-distinct-lines",
        "--fallback",
        "--help",
        "--version",
    ];
    let verb = VERBS[rng.below(VERBS.len())];
    let mut args = vec![verb.to_string()];
    if verb == "generate" {
        args.push(["sudoku", "takuzu", "tectonic", "numberlink", "shisen"][rng.below(5)].into());
    } else {
        args.push(inputs[rng.below(inputs.len())].clone());
    }
    for _ in 0..rng.below(5) {
        if rng.below(3) == 0 {
            args.push(FLAGS[rng.below(FLAGS.len())].into());
        } else {
            let (opt, values) = OPTIONS[rng.below(OPTIONS.len())];
            args.push(opt.into());
            args.push(values[rng.below(values.len())].into());
        }
    }
    args
}

/// The option parser through the binary: every command line ends by itself with exit 0-3,
/// without a panic or an abort (under a 2 GB address-space cap and a 30-second watch).
#[test]
fn option_parser() {
    let count = env_number("GRIDSAT_FUZZ_CLI_INPUTS", 200) as usize;
    let bin = env!("CARGO_BIN_EXE_gridsat");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let inputs: Vec<String> = [
        "sudoku/4x4.txt",
        "sudoku/9x9.txt",
        "takuzu/unique-6x6.takuzu",
        "tectonic/first.tectonic",
        "numberlink/flow7.txt",
        "shisen/nikakudori-4x4.shisen",
    ]
    .iter()
    .map(|f| root.join(f).display().to_string())
    .collect();
    let mut rng = Rng(family_seed(16));
    let started = Instant::now();
    let scratch = std::env::temp_dir().join(format!("gridsat-fuzz-cli-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch folder");
    let mut failed = Vec::new();
    for n in 0..count {
        let args = command_line(&mut rng, &inputs);
        let mut child = std::process::Command::new("bash")
            .arg("-c")
            .arg("ulimit -v 2000000; exec \"$0\" \"$@\" --no-progress >/dev/null 2>\"$GRIDSAT_FUZZ_ERR\"")
            .arg(bin)
            .args(&args)
            .env("GRIDSAT_FUZZ_ERR", scratch.join("err"))
            .current_dir(&scratch)
            .spawn()
            .expect("run gridsat");
        let t = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().expect("wait") {
                break Some(s);
            }
            if t.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        let err = std::fs::read_to_string(scratch.join("err")).unwrap_or_default();
        let shown = args.join(" ");
        let first_line = |what: &str| {
            let l = err.lines().find(|l| l.contains(what)).unwrap_or("");
            format!("input {n}: gridsat {shown}: {l}")
        };
        // Every failure is counted (the first ones shown), so that a campaign says how many.
        if err.contains("panicked at") {
            failed.push(first_line("panicked"));
        } else if err.contains("memory allocation of") {
            failed.push(first_line("memory allocation of"));
        } else if let Some(status) = status {
            if !status.code().is_some_and(|c| (0..=3).contains(&c)) {
                failed.push(format!("input {n}: gridsat {shown} ended with {status}"));
            }
        } else {
            failed.push(format!("input {n}: gridsat {shown} ran over 30 s"));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    for f in failed.iter().take(10) {
        eprintln!("{f}");
    }
    eprintln!(
        "fuzz options: {count} command lines (seed {}) in {:.2} s, {} of them panicked, aborted, ran over 30 s or ended outside exit 0-3",
        family_seed(16),
        started.elapsed().as_secs_f64(),
        failed.len()
    );
    assert!(failed.is_empty(), "{} command lines failed", failed.len());
}
