//! The interchange formats on the public collections (`../shared/corpora`, read in place; each
//! test skips with a visible message when they are absent): every puzzle of every file gridsat
//! reads goes out as a puzz.link URL and comes back the same puzzle (Sudoku also through the
//! datasets' CSV and Sukaku pencil marks), and HoDoKu's regression library reads as the same
//! pencil-mark positions its own format describes.

mod common;

use gridsat::kinds::{read, write_solutions, AnyPuzzle, ReadOptions};
use gridsat::numberlink::Rules;
use gridsat::puzzle::Kind;
use gridsat::sudoku::model;
use gridsat::sudoku::strategies::{grid::Geometry, Board};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Every file under `dir`, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The same puzzle, as far as a URL can carry it.
fn same(a: &AnyPuzzle, b: &AnyPuzzle) -> bool {
    match (a, b) {
        (AnyPuzzle::Sudoku(p), AnyPuzzle::Sudoku(q)) => {
            p.cells == q.cells && (p.box_rows, p.box_cols) == (q.box_rows, q.box_cols)
        }
        (AnyPuzzle::Tectonic(p), AnyPuzzle::Tectonic(q)) => {
            (p.width, p.height, &p.givens, &p.regions) == (q.width, q.height, &q.givens, &q.regions)
        }
        (AnyPuzzle::Numberlink(p), AnyPuzzle::Numberlink(q)) => {
            // pzprjs has no flow rule: a flow puzzle goes out as an arukone, read under cover.
            let rules = match p.rules {
                Rules::Flow => Rules::Cover,
                r => r,
            };
            (p.width, p.height, &p.ends, rules) == (q.width, q.height, &q.ends, q.rules)
        }
        _ => false,
    }
}

/// Reads every file of `dir` that reads as `kind` and sends each puzzle through `--format
/// url` and back. Returns (files read, puzzles round-tripped, puzzles a URL cannot hold).
fn url_round_trips(dir: &Path, kind: Kind) -> (usize, usize, usize) {
    let (mut read_files, mut trips, mut refused) = (0, 0, 0);
    for f in files(dir) {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let name = f.display().to_string();
        // Files that are not puzzles of this kind (answers, notes, pictures) do not read.
        let Ok(puzzles) = read(&name, &text, kind, &ReadOptions::default()) else {
            continue;
        };
        read_files += 1;
        for (i, p) in puzzles.iter().enumerate() {
            let url = match write_solutions("url", &[(p, None)]) {
                Ok(u) => u,
                Err(_) => {
                    refused += 1; // a size pzprjs has no boxes for, more than 52 arukone letters
                    continue;
                }
            };
            let short: String = url.chars().take(120).collect();
            let back = read("url", &url, kind, &ReadOptions::default())
                .unwrap_or_else(|e| panic!("{name} #{}: {short}...: {e}", i + 1));
            assert!(same(p, &back[0]), "{name} #{}: {short}...", i + 1);
            trips += 1;
        }
    }
    (read_files, trips, refused)
}

#[test]
fn every_tectonic_and_numberlink_puzzle_round_trips_through_its_url() {
    for (rel, kind, at_least) in [
        ("tectonic", Kind::Tectonic, 400),
        ("numberlink", Kind::Numberlink, 500),
    ] {
        let Some(dir) = common::corpus(rel) else {
            return;
        };
        let (f, n, refused) = url_round_trips(&dir, kind);
        eprintln!("{rel}: {n} puzzles from {f} files round-trip through their URLs; {refused} a URL cannot hold");
        assert!(n >= at_least, "{rel}: only {n} puzzles");
    }
}

#[test]
fn every_sudoku_round_trips_through_url_csv_and_sukaku() {
    let Some(dir) = common::corpus("sudoku") else {
        return;
    };
    let (f, n, refused) = url_round_trips(&dir, Kind::Sudoku);
    eprintln!("sudoku: {n} puzzles from {f} files round-trip through their URLs; {refused} a URL cannot hold");
    assert!(n > 100_000, "only {n} puzzles");
    // The datasets' CSV and Sukaku grids, on the 17-clue census.
    let path = dir.join("tdoku_17_clue.txt").display().to_string();
    let text = std::fs::read_to_string(&path).unwrap();
    let puzzles = read(&path, &text, Kind::Sudoku, &ReadOptions::default()).unwrap();
    for fmt in ["csv", "sukaku"] {
        let items: Vec<(&AnyPuzzle, Option<&Vec<Vec<i64>>>)> =
            puzzles.iter().map(|p| (p, None)).collect();
        let out = write_solutions(fmt, &items).unwrap();
        let back = read(fmt, &out, Kind::Sudoku, &ReadOptions::default()).unwrap();
        assert_eq!(back.len(), puzzles.len(), "{fmt}");
        for (a, b) in puzzles.iter().zip(&back) {
            let (AnyPuzzle::Sudoku(a), AnyPuzzle::Sudoku(b)) = (a, b) else {
                panic!("{fmt}: not a sudoku");
            };
            if fmt == "csv" {
                assert_eq!(a.cells, b.cells, "{fmt}");
                continue;
            }
            // Sukaku: the pencil marks are the candidates the givens leave (a given is its
            // value's mark), and a cell with one candidate reads back holding it.
            let mut marks = model::candidates(a);
            for (m, &v) in marks.iter_mut().zip(&a.cells) {
                if v != 0 {
                    *m = 1 << (v - 1);
                }
            }
            assert_eq!(b.marks.as_ref(), Some(&marks));
            for (i, (&x, &y)) in a.cells.iter().zip(&b.cells).enumerate() {
                assert!(x == y || (x == 0 && marks[i] == 1 << (y - 1)), "cell {i}");
            }
        }
        eprintln!(
            "sudoku: {} 17-clue puzzles round-trip through --format {fmt}",
            puzzles.len()
        );
    }
}

#[test]
fn hodoku_library_lines_read_as_the_positions_they_describe() {
    let Some(text) = common::corpus_text("sudoku/hodoku_reglib-1.2.txt") else {
        return;
    };
    let positions = read("reglib", &text, Kind::Sudoku, &ReadOptions::default()).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with(':')).collect();
    assert_eq!(positions.len(), lines.len());
    assert!(lines.len() > 1000);
    let geo = Arc::new(Geometry::new(9, 3, 3));
    for (p, line) in positions.iter().zip(&lines) {
        let AnyPuzzle::Sudoku(p) = p else {
            panic!("not a sudoku")
        };
        // The library's own reading: values (+ before placed ones), then struck candidates.
        let f: Vec<&str> = line.split(':').collect();
        let values: Vec<u8> = f[3]
            .chars()
            .filter(|&c| c != '+')
            .map(|c| c.to_digit(10).unwrap_or(0) as u8)
            .collect();
        let mut want = Board::with_values(Arc::clone(&geo), &values);
        for t in f[4].split_whitespace() {
            let b = t.as_bytes();
            let (d, r, c) = (b[0] - b'0', (b[1] - b'1') as usize, (b[2] - b'1') as usize);
            want.eliminate(r * 9 + c, d);
        }
        assert_eq!(p.cells, values, "{line}");
        assert_eq!(Board::new(p).masks, want.masks, "{line}");
    }
    eprintln!(
        "hodoku: {} library lines read as their pencil-mark positions",
        lines.len()
    );
}
