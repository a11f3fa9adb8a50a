//! Sudoku generation speed: puzzles per second for each grade level and clue band at 9x9,
//! with symmetry and --minimal, and for 16x16 and 25x25. Each iteration makes a new puzzle
//! (the seed advances), so a figure is an average over many grids. Record results in
//! BENCHMARKS.md, section "Sudoku: generate".
//!
//! `cargo bench --bench sudoku_generate`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gridsat::sudoku::generate::{clue_band, generate, Options, Outcome, Symmetry, LEVELS};
use std::time::Duration;

/// Benchmarks one setting; skipped (with a note) when its first puzzle cannot be made, as
/// for a grade level the strategy engine does not produce yet.
fn bench(c: &mut Criterion, name: &str, o: Options) {
    let mut o = o;
    o.validate().expect("valid options");
    if let Outcome::Missed(m) = generate(&o, 0).expect("generate") {
        eprintln!("sudoku_generate/{name}: skipped: {}", m.message(&o));
        return;
    }
    let mut g = c.benchmark_group("sudoku_generate");
    g.throughput(Throughput::Elements(1));
    if o.size > 9 {
        g.sample_size(10);
        g.measurement_time(Duration::from_secs(if o.size > 16 { 60 } else { 20 }));
    }
    let mut seed = 0u64;
    g.bench_function(name, |b| {
        b.iter(|| {
            seed += 1;
            match generate(&o, seed).expect("generate") {
                Outcome::Found(f) => f.puzzle.clue_count(),
                Outcome::Missed(_) => 0,
            }
        })
    });
    g.finish();
}

fn nine() -> Options {
    Options::new(9, 3, 3)
}

fn by_grade(c: &mut Criterion) {
    for (l, name) in LEVELS.iter().enumerate() {
        let mut o = nine();
        o.level = Some(l);
        bench(c, &format!("9x9/grade-{name}"), o);
    }
    let mut o = nine();
    o.level = Some(1);
    o.symmetry = Symmetry::Rotational;
    bench(c, "9x9/grade-medium-rotational", o);
}

fn by_clues(c: &mut Criterion) {
    for band in ["easy", "medium", "hard"] {
        let mut o = nine();
        o.clues = clue_band(band, 9);
        bench(c, &format!("9x9/clues-{band}"), o);
    }
}

fn plain_and_minimal(c: &mut Criterion) {
    bench(c, "9x9/no-target", nine());
    let mut o = nine();
    o.minimal = true;
    bench(c, "9x9/minimal", o);
    let mut o = nine();
    o.minimal = true;
    o.symmetry = Symmetry::Rotational;
    bench(c, "9x9/minimal-rotational", o);
}

fn large(c: &mut Criterion) {
    bench(c, "16x16/no-target", Options::new(16, 4, 4));
    let mut o = Options::new(16, 4, 4);
    o.level = Some(1);
    bench(c, "16x16/grade-medium", o);
    bench(c, "25x25/no-target", Options::new(25, 5, 5));
}

criterion_group!(benches, by_grade, by_clues, plain_and_minimal, large);
criterion_main!(benches);
