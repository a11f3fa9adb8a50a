//! Numberlink speed: solve + uniqueness over the 28 Flow puzzles of the corpus, with lazy loop
//! cuts (the default) and with the exact order-label model. The larger sets (Janko's 270, the
//! 40x20 and 50x50 boards) are measured with gridsat's batch summary; see BENCHMARKS.md.
//! Skips (with a message) when `../shared/corpora` is absent.

use criterion::{criterion_group, criterion_main, Criterion};
use gridsat::numberlink::format::{parse, ReadOptions};
use gridsat::numberlink::{Loops, Numberlink};
use gridsat::puzzle::{verdict, Solutions};
use gridsat::solver::SolverChoice;
use std::path::PathBuf;

fn flow_puzzles(loops: Loops) -> Option<Vec<Numberlink>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpora/numberlink/mzucker_flow_solver/puzzles");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("SKIPPED: {} not found", dir.display());
        return None;
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("entry").path())
        .filter(|p| !p.ends_with("unsolvable_cross.txt"))
        .collect();
    files.sort();
    let opts = ReadOptions {
        loops,
        ..Default::default()
    };
    Some(
        files
            .iter()
            .flat_map(|f| {
                let text = std::fs::read_to_string(f).expect("readable");
                parse(&f.to_string_lossy(), &text, opts).expect("a puzzle")
            })
            .collect(),
    )
}

fn all_unique(ps: &[Numberlink]) {
    for p in ps {
        let v = verdict(p, &SolverChoice::Embedded).expect("solver");
        assert!(matches!(v, Solutions::Unique(_)));
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("numberlink");
    g.sample_size(10);
    for (name, loops) in [("flow28_lazy", Loops::Lazy), ("flow28_exact", Loops::Exact)] {
        if let Some(ps) = flow_puzzles(loops) {
            assert_eq!(ps.len(), 28);
            g.bench_function(name, |b| b.iter(|| all_unique(&ps)));
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
