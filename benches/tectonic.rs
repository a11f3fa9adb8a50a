//! Tectonic speed: solve + uniqueness for each 15x15 puzzle of the abcqwq corpus (read in
//! place from `../shared/corpora`, skipped when absent), and generating a 30x30 puzzle, then
//! proving it unique. Figures go to BENCHMARKS.md ("Tectonic").

use criterion::{criterion_group, criterion_main, Criterion};
use gridsat::puzzle::{self, Solutions};
use gridsat::solver::SolverChoice;
use gridsat::tectonic::{format, generate, Tectonic};
use std::path::PathBuf;
use std::time::Duration;

fn corpus_15x15() -> Vec<(String, Tectonic)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpora/tectonic/abcqwq-suguru-sat/testcases");
    if !dir.exists() {
        eprintln!("SKIPPED: {} not found", dir.display());
        return Vec::new();
    }
    (221..=230)
        .map(|k| {
            let p = dir.join(format!("{k}.in"));
            let text = std::fs::read_to_string(&p).unwrap();
            let t = format::parse(&p.display().to_string(), &text)
                .unwrap()
                .remove(0);
            assert_eq!((t.width, t.height), (15, 15));
            (format!("{k}.in"), t)
        })
        .collect()
}

fn verdict(t: &Tectonic) {
    match puzzle::verdict(t, &SolverChoice::Embedded).unwrap() {
        Solutions::Unique(_) => {}
        _ => panic!("expected a unique solution"),
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("tectonic-15x15-verdict");
    for (name, t) in corpus_15x15() {
        g.bench_function(name, |b| b.iter(|| verdict(&t)));
    }
    g.finish();

    let o = generate::Options {
        width: 30,
        height: 30,
        max_piece: 5,
        difficulty: None,
    };
    let g30 = generate::generate(&o, 1).unwrap();
    let t30 = format::parse("generated", &g30.puzzle).unwrap().remove(0);
    let mut g = c.benchmark_group("tectonic-30x30");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("verdict", |b| b.iter(|| verdict(&t30)));
    g.bench_function("generate", |b| {
        b.iter(|| generate::generate(&o, 1).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
