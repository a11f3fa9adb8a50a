//! Sudoku speed: solve + uniqueness per puzzle on top1465 and 17-clue (read in place from
//! `../shared/corpora/sudoku/`), a batch through the same calls the CLI makes (kinds::read, then
//! puzzle::verdict on every puzzle), and the encoding alternatives of `models/sudoku.md`.
//!
//! Criterion's figure for the per-puzzle groups is the time of one puzzle, cycling through the
//! collection. The per-puzzle *median* (the targets are medians) is printed before each group:
//! every puzzle timed alone, best of three rounds.
//!
//! Run: `cargo bench --bench sudoku` (skips, saying so, when ../shared/corpora is absent).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gridsat::kinds::{self, ReadOptions};
use gridsat::puzzle::{self, GivenMode, Kind, Puzzle, Solutions};
use gridsat::solver::{Session, SolverChoice, Varisat, Verdict};
use gridsat::sudoku::{format, model, Sudoku};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn corpus(rel: &str) -> Option<String> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpora/sudoku")
        .join(rel);
    match std::fs::read_to_string(&p) {
        Ok(t) => Some(t),
        Err(_) => {
            eprintln!("SKIPPED: {} not found", p.display());
            None
        }
    }
}

fn unique(s: &Sudoku) {
    match puzzle::verdict(s, &SolverChoice::Embedded).unwrap() {
        Solutions::Unique(g) => {
            black_box(g);
        }
        _ => panic!("not unique: {}", s.to_line()),
    }
}

/// Median, mean and 90th percentile of per-puzzle times (µs), best of `rounds` per puzzle.
fn per_puzzle(ps: &[Sudoku], rounds: usize, f: impl Fn(&Sudoku)) -> (f64, f64, f64) {
    let mut best = vec![f64::MAX; ps.len()];
    for _ in 0..rounds {
        for (k, s) in ps.iter().enumerate() {
            let t = Instant::now();
            f(s);
            best[k] = best[k].min(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    let mean = best.iter().sum::<f64>() / best.len() as f64;
    best.sort_by(|a, b| a.total_cmp(b));
    (best[best.len() / 2], mean, best[best.len() * 9 / 10])
}

fn per_puzzle_groups(c: &mut Criterion) {
    for (name, file, limit) in [
        ("top1465", "tdoku_magictour_top1465.txt", usize::MAX),
        ("17-clue", "tdoku_17_clue.txt", 5000),
    ] {
        let Some(text) = corpus(file) else { continue };
        let mut ps = format::parse(file, &text, Default::default()).unwrap();
        if ps.len() > limit {
            // A deterministic spread over the whole file.
            let step = ps.len() / limit;
            ps = ps.into_iter().step_by(step).take(limit).collect();
        }
        let (median, mean, p90) = per_puzzle(&ps, 3, unique);
        eprintln!(
            "sudoku solve+unique {name} ({} puzzles): per-puzzle median {median:.0} µs, mean {mean:.0} µs, p90 {p90:.0} µs",
            ps.len()
        );
        let mut g = c.benchmark_group("sudoku solve+unique");
        g.sample_size(20).measurement_time(Duration::from_secs(8));
        let mut k = 0;
        g.bench_function(BenchmarkId::new("per puzzle", name), |b| {
            b.iter(|| {
                unique(&ps[k % ps.len()]);
                k += 1;
            })
        });
        g.finish();
    }
}

/// The same calls the CLI makes for `gridsat solve FILE`: read the file, then the verdict of
/// every puzzle (rendering and writing left out).
fn batch(c: &mut Criterion) {
    let Some(text) = corpus("tdoku_magictour_top1465.txt") else {
        return;
    };
    let n = kinds::read("top1465", &text, Kind::Sudoku, &ReadOptions::default())
        .unwrap()
        .len();
    let mut g = c.benchmark_group("sudoku batch");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("top1465 read + verdict", |b| {
        b.iter(|| {
            let ps = kinds::read("top1465", &text, Kind::Sudoku, &ReadOptions::default()).unwrap();
            for any in &ps {
                gridsat::with_puzzle!(any, p => {
                    black_box(puzzle::verdict(p, &SolverChoice::Embedded).unwrap());
                });
            }
        })
    });
    g.finish();
}

/// The encoding alternatives, each on the same puzzles (solve + uniqueness on the folded model).
fn encodings(c: &mut Criterion) {
    use model::{AtMostOne, Encoding};
    let Some(text) = corpus("tdoku_magictour_top1465.txt") else {
        return;
    };
    let ps: Vec<Sudoku> = format::parse("top1465", &text, Default::default())
        .unwrap()
        .into_iter()
        .step_by(5)
        .collect();
    let run = |enc: Encoding| {
        move |s: &Sudoku| {
            let m = model::build_with(s, GivenMode::Fold, false, enc);
            let mut session =
                Session::new(Box::new(Varisat::new()), &m.formula, m.answer.clone(), true);
            let Verdict::Unique(a) = session.verdict(&[]).unwrap() else {
                panic!("not unique")
            };
            black_box(s.decode(&m, &a));
        }
    };
    let alternatives = [
        ("chosen", Encoding::CHOSEN),
        ("first model (no singles, ladder)", Encoding::FULL),
        (
            "no singles",
            Encoding {
                singles: false,
                ..Encoding::CHOSEN
            },
        ),
        (
            "ladder",
            Encoding {
                at_most_one: AtMostOne::Ladder,
                peers_once: false,
                ..Encoding::CHOSEN
            },
        ),
        (
            "box pairs repeated",
            Encoding {
                peers_once: false,
                ..Encoding::CHOSEN
            },
        ),
        (
            "no cell at-most-one",
            Encoding {
                cell_at_most_one: false,
                ..Encoding::CHOSEN
            },
        ),
        (
            "no unit at-least-one",
            Encoding {
                unit_at_least_one: false,
                ..Encoding::CHOSEN
            },
        ),
    ];
    let mut g = c.benchmark_group("sudoku encodings top1465/5");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for (name, enc) in alternatives {
        let (median, mean, _) = per_puzzle(&ps, 2, run(enc));
        let m: (usize, usize) = ps.iter().fold((0, 0), |(v, c), s| {
            let f = model::build_with(s, GivenMode::Fold, false, enc).formula;
            (v + f.num_vars(), c + f.num_clauses())
        });
        eprintln!(
            "encoding {name}: per-puzzle median {median:.0} µs, mean {mean:.0} µs; {:.0} variables, {:.0} clauses on average",
            m.0 as f64 / ps.len() as f64,
            m.1 as f64 / ps.len() as f64
        );
        let f = run(enc);
        let mut k = 0;
        g.bench_function(name, |b| {
            b.iter(|| {
                f(&ps[k % ps.len()]);
                k += 1;
            })
        });
    }
    g.finish();
}

criterion_group!(benches, per_puzzle_groups, batch, encodings);
criterion_main!(benches);
