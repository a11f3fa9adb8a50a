//! Sudoku on public collections, read in place from `../shared/corpora/sudoku/` (skipped with a
//! visible message when absent): every puzzle of top1465 and a deterministic sample of 2,000
//! 17-clue puzzles solved, checked and unique; the first 500 of serg's benchmark reported as
//! having several solutions. Timing is not asserted here (see benches/sudoku.rs).

mod common;

use gridsat::puzzle::{self, Puzzle, Solutions};
use gridsat::solver::SolverChoice;
use gridsat::sudoku::{format, Sudoku};

fn read(rel: &str) -> Option<Vec<Sudoku>> {
    let text = common::corpus_text(rel)?;
    Some(format::parse(rel, &text, Default::default()).unwrap())
}

fn assert_unique(name: &str, ps: &[Sudoku]) {
    for (k, s) in ps.iter().enumerate() {
        match puzzle::verdict(s, &SolverChoice::Embedded).unwrap() {
            Solutions::Unique(g) => {
                assert_eq!(s.check(&g), Ok(()), "{name} #{}", k + 1);
                for (i, &v) in s.cells.iter().enumerate() {
                    assert!(v == 0 || g.0[i] == v, "{name} #{}: given changed", k + 1);
                }
            }
            other => panic!("{name} #{}: {}: not unique: {other:?}", k + 1, s.to_line()),
        }
    }
}

#[test]
fn top1465_every_puzzle_unique() {
    let Some(ps) = read("sudoku/tdoku_magictour_top1465.txt") else {
        return;
    };
    assert_eq!(ps.len(), 1465);
    assert_unique("top1465", &ps);
}

#[test]
fn seventeen_clue_sample_unique() {
    let Some(ps) = read("sudoku/tdoku_17_clue.txt") else {
        return;
    };
    assert!(ps.len() > 40_000);
    // Every k-th puzzle, so the sample spreads over the whole file.
    let step = ps.len() / 2000;
    let sample: Vec<Sudoku> = ps.into_iter().step_by(step).take(2000).collect();
    assert_eq!(sample.len(), 2000);
    assert!(sample.iter().all(|s| s.clue_count() == 17));
    assert_unique("17-clue", &sample);
}

#[test]
fn serg_benchmark_first_500_have_several_solutions() {
    let Some(mut ps) = read("sudoku/tdoku_serg_benchmark.txt") else {
        return;
    };
    ps.truncate(500);
    assert_eq!(ps.len(), 500);
    for (k, s) in ps.iter().enumerate() {
        match puzzle::verdict(s, &SolverChoice::Embedded).unwrap() {
            Solutions::Multiple(a, b, cells) => {
                assert_eq!(s.check(&a), Ok(()));
                assert_eq!(s.check(&b), Ok(()));
                assert!(!cells.is_empty(), "serg #{}", k + 1);
            }
            other => panic!("serg #{}: expected several solutions, got {other:?}", k + 1),
        }
    }
}
