//! The Sudoku strategy engine against HoDoKu's regression library (`hodoku_reglib-1.2.txt`,
//! read in place from `../shared/corpora`): each entry is a pencil-mark position and the exact
//! eliminations (or placements) one technique must find there. Every entry counts: some
//! instance the technique finds must make exactly that deduction (or a superset of it where
//! gridsat's technique reaches further, counted separately); a fail case (`x`) must find
//! nothing; a code gridsat has no technique for is a failure. The test prints the table per
//! code and holds the total to a floor. Every step found on every entry is also held to the
//! position's SAT solution (`verify_steps`).

mod common;

use gridsat::explain::verify_steps;
use gridsat::puzzle::{verdict, Puzzle, Solutions};
use gridsat::solver::SolverChoice;
use gridsat::sudoku::format::{parse as parse_puzzles, ReadOptions};
use gridsat::sudoku::strategies::{find_all, grid::Geometry, Board};
use std::collections::BTreeMap;
use std::sync::Arc;

/// HoDoKu's technique codes (a code with its variant where the variant asks for more: chains
/// with ALS nodes) and gridsat's technique (family) names.
const CODES: &[(&str, &str)] = &[
    ("0000", "full house"),
    ("0002", "hidden single"),
    ("0003", "naked single"),
    ("0100", "pointing"),
    ("0101", "claiming"),
    ("0110", "naked pair"),
    ("0111", "naked triple"),
    ("0200", "naked pair"),
    ("0201", "naked triple"),
    ("0202", "naked quad"),
    ("0210", "hidden pair"),
    ("0211", "hidden triple"),
    ("0212", "hidden quad"),
    ("0300", "X-Wing"),
    ("0301", "Swordfish"),
    ("0302", "Jellyfish"),
    ("0310", "finned X-Wing"),
    ("0311", "finned Swordfish"),
    ("0312", "finned Jellyfish"),
    ("0320", "finned X-Wing"),
    ("0321", "finned Swordfish"),
    ("0322", "finned Jellyfish"),
    ("0400", "Skyscraper"),
    ("0401", "2-String Kite"),
    ("0402", "empty rectangle"),
    ("0403", "Turbot Fish"),
    ("0600", "unique rectangle type 1"),
    ("0601", "unique rectangle type 2"),
    ("0602", "unique rectangle type 3"),
    ("0603", "unique rectangle type 4"),
    ("0604", "unique rectangle type 5"),
    ("0605", "unique rectangle type 6"),
    ("0606", "hidden rectangle"),
    ("0610", "BUG+1"),
    ("0701", "X-Chain"),
    ("0702", "XY-Chain"),
    ("0703", "remote pair"),
    ("0706", "continuous nice loop"),
    ("0707", "discontinuous nice loop"),
    ("0708", "AIC"),
    ("0709", "grouped continuous nice loop"),
    ("0710", "grouped discontinuous nice loop"),
    ("0711", "grouped AIC"),
    ("0800", "XY-Wing"),
    ("0801", "XYZ-Wing"),
    ("0803", "W-Wing"),
    ("03111", "siamese Swordfish"),
    ("03121", "siamese Jellyfish"),
    ("03211", "siamese Swordfish"),
    ("03221", "siamese Jellyfish"),
    ("0330", "Franken X-Wing"),
    ("0331", "Franken Swordfish"),
    ("0332", "Franken Jellyfish"),
    ("0340", "Franken X-Wing"),
    ("0341", "Franken Swordfish"),
    ("03411", "siamese Franken Swordfish"),
    ("0342", "Franken Jellyfish"),
    ("03421", "siamese Franken Jellyfish"),
    ("0351", "mutant Swordfish"),
    ("0352", "mutant Jellyfish"),
    ("0361", "mutant Swordfish"),
    ("0362", "mutant Jellyfish"),
    ("03621", "siamese mutant Jellyfish"),
    ("0363", "mutant Squirmbag"),
    ("0364", "mutant Whale"),
    ("0709-2", "continuous nice loop with ALS"),
    ("0710-3", "discontinuous nice loop with ALS"),
    ("0710-4", "discontinuous nice loop with ALS"),
    ("0711-3", "AIC with ALS"),
    ("0711-4", "AIC with ALS"),
    ("0404", "dual 2-String Kite"),
    ("0405", "dual empty rectangle"),
    ("0500", "simple colors"),
    ("0501", "simple colors"),
    ("0502", "multi-colors"),
    ("0503", "multi-colors"),
    ("0607", "avoidable rectangle type 1"),
    ("0608", "avoidable rectangle type 2"),
    ("0901", "ALS-XZ"),
    ("0902", "ALS-XY-Wing"),
    ("0903", "ALS chain"),
    ("0904", "death blossom"),
    ("1101", "Sue de Coq"),
    ("1201", "template set"),
    ("1202", "template delete"),
];

/// The floor on entries found (exact or superset): raised with every family added.
const FOUND_FLOOR: usize = 1100;

/// `:436 257:` → [(r3c6, 4), (r5c7, 2)] as (cell index, value).
fn cands(field: &str) -> Vec<(usize, u8)> {
    let mut v: Vec<(usize, u8)> = field
        .split_whitespace()
        .map(|t| {
            let b = t.as_bytes();
            let (d, r, c) = (b[0] - b'0', (b[1] - b'1') as usize, (b[2] - b'1') as usize);
            (r * 9 + c, d)
        })
        .collect();
    v.sort_unstable();
    v
}

struct Entry {
    code: String,
    /// The whole grid, givens and placed values (for the SAT solution).
    grid: String,
    variant: String,
    board: Board,
    elims: Vec<(usize, u8)>,
    placements: Vec<(usize, u8)>,
    line: usize,
}

fn parse(text: &str) -> Vec<Entry> {
    let geo = Arc::new(Geometry::new(9, 3, 3));
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        if !line.starts_with(':') {
            continue;
        }
        let f: Vec<&str> = line.split(':').collect();
        let (code, variant) = match f[1].split_once('-') {
            Some((c, v)) => (c.to_string(), v.to_string()),
            None => (f[1].to_string(), String::new()),
        };
        // Givens first; a value after `+` was placed while solving (avoidable rectangles
        // tell the two apart).
        let (mut givens, mut placed) = (Vec::with_capacity(81), Vec::new());
        let mut plus = false;
        for ch in f[3].chars() {
            match ch {
                '+' => {
                    plus = true;
                    continue;
                }
                '.' | '0' => givens.push(0),
                d => {
                    let v = d.to_digit(10).expect("a digit") as u8;
                    if plus {
                        placed.push((givens.len(), v));
                        givens.push(0);
                    } else {
                        givens.push(v);
                    }
                }
            }
            plus = false;
        }
        assert_eq!(givens.len(), 81, "line {}", k + 1);
        let mut board = Board::with_values(Arc::clone(&geo), &givens);
        let mut grid: Vec<u8> = givens.clone();
        for &(i, v) in &placed {
            board.place(i, v);
            grid[i] = v;
        }
        for (i, d) in cands(f[4]) {
            board.eliminate(i, d);
        }
        out.push(Entry {
            grid: grid.iter().map(|&v| char::from(b'0' + v)).collect(),
            code,
            variant,
            board,
            elims: cands(f[5]),
            placements: f.get(6).map_or(Vec::new(), |p| cands(p)),
            line: k + 1,
        });
    }
    out
}

#[derive(Default, Debug)]
struct Tally {
    name: &'static str,
    entries: usize,
    exact: usize,
    superset: usize,
    failed: Vec<usize>,
}

fn to_pairs(v: &[gridsat::puzzle::CellValue]) -> Vec<(usize, u8)> {
    let mut p: Vec<(usize, u8)> = v
        .iter()
        .map(|c| (c.row * 9 + c.col, c.value as u8))
        .collect();
    p.sort_unstable();
    p
}

/// The SAT solution of an entry's grid, as rows.
fn solution_rows(e: &Entry) -> Vec<Vec<i64>> {
    let p = parse_puzzles("reglib", &e.grid, ReadOptions::default())
        .expect("a readable grid")
        .remove(0);
    match verdict(&p, &SolverChoice::Embedded).expect("the solver runs") {
        Solutions::Unique(g) => p.rows(&g),
        _ => panic!("line {}: the grid has no unique solution", e.line),
    }
}

/// 2: some step makes exactly the entry's deduction, 1: a step covers it, 0: none does.
fn match_entry(e: &Entry, steps: &[gridsat::explain::Step]) -> u8 {
    let mut best = 0;
    for s in steps {
        let (mut el, pl) = (to_pairs(&s.eliminations), to_pairs(&s.placements));
        // A placement removes the cell's other candidates (HoDoKu lists a discontinuous
        // nice loop that sets a value as those eliminations).
        for &(i, v) in &pl {
            for d in 1..=9u8 {
                if d != v && e.board.has(i, d) {
                    el.push((i, d));
                }
            }
        }
        el.sort_unstable();
        el.dedup();
        let covers =
            |want: &[(usize, u8)], got: &[(usize, u8)]| want.iter().all(|w| got.contains(w));
        let plain = e.elims.is_empty() && s.eliminations.is_empty();
        if (plain || el == e.elims) && covers(&e.placements, &pl) {
            return 2;
        }
        if covers(&e.elims, &el) && covers(&e.placements, &pl) {
            best = 1;
        }
    }
    best
}

#[test]
fn regression_library() {
    let Some(text) = common::corpus_text("sudoku/hodoku_reglib-1.2.txt") else {
        return;
    };
    let entries = parse(&text);
    assert_eq!(entries.len(), 1112);
    let only = std::env::var("REGLIB_CODE").ok();
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    let mut wrong = Vec::new();
    for e in &entries {
        if only.as_ref().is_some_and(|c| *c != e.code) {
            continue;
        }
        let t = tally.entry(e.code.clone()).or_default();
        t.entries += 1;
        let with_variant = format!("{}-{}", e.code, e.variant);
        let code = CODES
            .iter()
            .find(|(c, _)| *c == with_variant)
            .or_else(|| CODES.iter().find(|(c, _)| *c == e.code));
        let Some(&(_, name)) = code else {
            t.name = "(no technique)";
            t.failed.push(e.line);
            continue;
        };
        t.name = name;
        let clock = std::time::Instant::now();
        let found = find_all(&e.board, name);
        if std::env::var("REGLIB_DEBUG").is_ok() {
            eprintln!("line {} {name}: {:?}", e.line, clock.elapsed());
        }
        let Some(steps) = found else {
            // Named here, but gridsat has no such technique yet.
            t.failed.push(e.line);
            continue;
        };
        if let Err(why) = verify_steps(&solution_rows(e), &steps) {
            wrong.push(format!("line {}: {why}", e.line));
        }
        let best = if e.variant == "x" {
            // A fail case: no instance may be found.
            if steps.is_empty() {
                2
            } else {
                0
            }
        } else {
            match_entry(e, &steps)
        };
        if best < 2 && std::env::var("REGLIB_DEBUG").is_ok() {
            eprintln!("best {best} at line {}: want {:?}", e.line, e.elims);
            for s in &steps {
                eprintln!("  {}", s.text);
            }
        }
        match best {
            2 => t.exact += 1,
            1 => t.superset += 1,
            _ => t.failed.push(e.line),
        }
    }
    let mut report =
        String::from("code  technique                        entries exact superset failed\n");
    let (mut total, mut found) = (0, 0);
    for (code, t) in &tally {
        report.push_str(&format!(
            "{code:<5} {:<32} {:>7} {:>5} {:>8} {:>6}\n",
            t.name,
            t.entries,
            t.exact,
            t.superset,
            t.failed.len(),
        ));
        total += t.entries;
        found += t.exact + t.superset;
    }
    let exact: usize = tally.values().map(|t| t.exact).sum();
    report.push_str(&format!(
        "total {found} of {total} found ({exact} exact, {} superset, {} failed)\n",
        found - exact,
        total - found
    ));
    eprintln!("{report}");
    for (code, t) in &tally {
        if !t.failed.is_empty() {
            eprintln!("failed {code} {}: lines {:?}", t.name, t.failed);
        }
    }
    assert!(
        wrong.is_empty(),
        "steps against the solution:\n{}",
        wrong.join("\n")
    );
    if only.is_none() {
        assert!(
            found >= FOUND_FLOOR,
            "{found} entries found, fewer than the floor {FOUND_FLOOR}"
        );
    }
}
