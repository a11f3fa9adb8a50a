//! Fuzzing that stays: a deterministic mutation test per parser family, seeded from the
//! project's own `puzzles/` (and small DIMACS texts for the CNF and answer readers). Each family
//! gets `GRIDSAT_FUZZ_INPUTS` mutated inputs (20,000 by default, which CI runs); every one must
//! read to puzzles or to a clean error with a line and column, without a panic and within a
//! second. `fuzz/README.md` says what ran and what it found.

use gridsat::cnf::dimacs::{read_answer, read_cnf};
use gridsat::kinds::{self, ReadOptions};
use gridsat::puzzle::Kind;
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

fn inputs_per_family() -> usize {
    std::env::var("GRIDSAT_FUZZ_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000)
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
    let mut rng = Rng(seed);
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
        assert!(
            t.elapsed() < Duration::from_secs(1),
            "{family} input {n} (from {name}) took {:?}:\n{input:?}",
            t.elapsed()
        );
    }
    eprintln!(
        "fuzz {family}: {count} inputs in {:.2} s, no panic, none over 1 s",
        started.elapsed().as_secs_f64()
    );
}

/// A parse that ends in puzzles or in an error with a position inside the file.
fn read_as(kind: Option<Kind>) -> impl Fn(&str, &str) {
    move |name: &str, text: &str| {
        let r = match kind {
            Some(k) => kinds::read(name, text, k, &ReadOptions::default()),
            None => kinds::read_any(name, name, text, None, &ReadOptions::default()),
        };
        if let Err(e) = r {
            assert!(e.line >= 1 && e.col >= 1, "{e}");
            assert!(!e.message.is_empty());
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
