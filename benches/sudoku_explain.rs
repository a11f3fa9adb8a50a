//! Speed of the Sudoku strategy engine (`cargo bench --bench sudoku_explain`): explaining one
//! puzzle from the project's files and the hardest of top1465, and grading the cbg set
//! (21,375 unbiased minimal puzzles; the SAT solutions are found once, outside the timing, so
//! the figure is the engine's). Criterion takes at least ten passes, so on a busy machine
//! `GRIDSAT_CBG_STEP=N` grades every N-th puzzle only (default 1: the whole set). Corpus
//! benches are skipped when `../shared/corpora` is absent.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gridsat::explain::{Explain, ExplainOptions};
use gridsat::puzzle::{verdict, Solutions};
use gridsat::solver::SolverChoice;
use gridsat::sudoku::format::{parse, ReadOptions};
use gridsat::sudoku::{Grid, Sudoku};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

const OPTS: ExplainOptions = ExplainOptions {
    fallback: true,
    unique: true,
};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: PathBuf) -> Option<Vec<Sudoku>> {
    let text = std::fs::read_to_string(&path).ok()?;
    parse(&path.display().to_string(), &text, ReadOptions::default()).ok()
}

fn solution(p: &Sudoku) -> Grid {
    match verdict(p, &SolverChoice::Embedded).expect("solver") {
        Solutions::Unique(g) => g,
        _ => panic!("not unique"),
    }
}

fn one_puzzle(c: &mut Criterion) {
    let mut g = c.benchmark_group("sudoku_explain");
    g.sample_size(20).measurement_time(Duration::from_secs(10));
    let mut cases: Vec<(String, Sudoku)> = Vec::new();
    if let Some(ps) = read(root().join("puzzles/sudoku/classic.txt")) {
        cases.push(("classic".into(), ps[0].clone()));
    }
    if let Some(ps) = read(root().join("puzzles/sudoku/explain-12x12.txt")) {
        cases.push(("12x12_forcing".into(), ps[1].clone()));
    }
    // The slowest of top1465 to explain (#205, SE-style rating 9.3, dynamic forcing chains).
    if let Some(ps) = read(root().join("../shared/corpora/sudoku/tdoku_magictour_top1465.txt")) {
        cases.push(("top1465_205".into(), ps[204].clone()));
    } else {
        eprintln!("SKIPPED: top1465 corpus absent");
    }
    for (name, p) in &cases {
        let s = solution(p);
        g.bench_function(name.as_str(), |b| b.iter(|| black_box(p.explain(&s, OPTS))));
    }
    g.finish();
}

fn grade_cbg(c: &mut Criterion) {
    let path = root().join("../shared/corpora/sudoku/cbg000_controlled_bias_21375_SER.txt");
    let Some(puzzles) = read(path) else {
        eprintln!("SKIPPED: cbg corpus absent");
        return;
    };
    let step: usize = std::env::var("GRIDSAT_CBG_STEP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
        .max(1);
    let solved: Vec<(Sudoku, Grid)> = puzzles
        .into_iter()
        .step_by(step)
        .map(|p| {
            let s = solution(&p);
            (p, s)
        })
        .collect();
    let mut g = c.benchmark_group("sudoku_grade");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(60))
        .throughput(Throughput::Elements(solved.len() as u64));
    g.bench_function(format!("cbg_every_{step}"), |b| {
        b.iter(|| {
            for (p, s) in &solved {
                black_box(p.explain(s, OPTS).grade);
            }
        })
    });
    g.finish();
}

criterion_group!(benches, one_puzzle, grade_cbg);
criterion_main!(benches);
