//! The Sudoku strategy engine against HoDoKu's regression library (`hodoku_reglib-1.2.txt`,
//! read in place from `../shared/corpora`): each entry is a pencil-mark position and the exact
//! eliminations (or placements) one technique must find there. For every technique gridsat
//! implements, some instance the engine finds must make exactly that deduction (or a superset
//! of it where gridsat's technique reaches further, counted separately).

mod common;

use gridsat::sudoku::strategies::{find_all, grid::Geometry, Board};
use std::collections::BTreeMap;
use std::sync::Arc;

/// HoDoKu's technique codes and gridsat's technique (family) names.
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
    ("0320", "sashimi X-Wing"),
    ("0321", "sashimi Swordfish"),
    ("0322", "sashimi Jellyfish"),
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
];

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
        let mut values = Vec::with_capacity(81);
        for ch in f[3].chars() {
            match ch {
                '+' => {}
                '.' | '0' => values.push(0),
                d => values.push(d.to_digit(10).expect("a digit") as u8),
            }
        }
        assert_eq!(values.len(), 81, "line {}", k + 1);
        let mut board = Board::with_values(Arc::clone(&geo), &values);
        for (i, d) in cands(f[4]) {
            board.eliminate(i, d);
        }
        out.push(Entry {
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
    unsupported: usize,
}

fn to_pairs(v: &[gridsat::puzzle::CellValue]) -> Vec<(usize, u8)> {
    let mut p: Vec<(usize, u8)> = v
        .iter()
        .map(|c| (c.row * 9 + c.col, c.value as u8))
        .collect();
    p.sort_unstable();
    p
}

#[test]
fn regression_library() {
    let Some(text) = common::corpus_text("sudoku/hodoku_reglib-1.2.txt") else {
        return;
    };
    let entries = parse(&text);
    assert!(entries.len() > 1000);
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    for e in &entries {
        let Some(&(_, name)) = CODES.iter().find(|(c, _)| *c == e.code) else {
            continue;
        };
        let t = tally.entry(e.code.clone()).or_default();
        t.name = name;
        t.entries += 1;
        let Some(steps) = find_all(&e.board, name) else {
            t.unsupported += 1;
            continue;
        };
        if e.variant == "x" {
            // A fail case: no instance may be found.
            if steps.is_empty() {
                t.exact += 1;
            } else {
                t.failed.push(e.line);
            }
            continue;
        }
        let mut best = 0; // 2 exact, 1 superset
        for s in &steps {
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
                best = 2;
                break;
            }
            if covers(&e.elims, &el) && covers(&e.placements, &pl) {
                best = 1;
            }
        }
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
    let mut report = String::from("code technique entries exact superset failed unsupported\n");
    let mut failures = Vec::new();
    for (code, t) in &tally {
        report.push_str(&format!(
            "{code} {:<32} {:>4} {:>4} {:>4} {:>4} {:>4}\n",
            t.name,
            t.entries,
            t.exact,
            t.superset,
            t.failed.len(),
            t.unsupported
        ));
        if !t.failed.is_empty() {
            failures.push(format!("{code} {}: lines {:?}", t.name, t.failed));
        }
    }
    eprintln!("{report}");
    assert!(
        failures.is_empty(),
        "reglib failures:\n{}",
        failures.join("\n")
    );
}
