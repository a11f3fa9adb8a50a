//! Takuzu speed: solve + uniqueness on the puzzle-binairo.com 20x20 set and on binarypuzzle.com's
//! 6x6 very hard set (where distinct lines matter), when the shared corpus is present; the
//! generated 30x30 and 60x60 of `puzzles/takuzu/`; each with distinct lines encoded eagerly
//! (difference variables) and lazily (refine); and the strategy engine explaining 14x14 very
//! hard puzzles. Figures go to BENCHMARKS.md, section "Takuzu".

use criterion::{criterion_group, criterion_main, Criterion};
use gridsat::cnf::Assignment;
use gridsat::puzzle::GivenMode;
use gridsat::solver::{Session, SolverChoice, Verdict};
use gridsat::takuzu::format::{parse, ReadOptions};
use gridsat::takuzu::model::{build, decode, refine};
use gridsat::takuzu::strategies::explain_path;
use gridsat::takuzu::{rules, DistinctEncoding, Takuzu};

const ENCODINGS: [(&str, DistinctEncoding); 2] = [
    ("eager", DistinctEncoding::Eager),
    ("lazy", DistinctEncoding::Lazy),
];

/// Solve and prove unique; true when the unique solution passes the rule checker.
fn unique(t: &Takuzu, enc: DistinctEncoding) -> bool {
    let m = build(t, GivenMode::Fold, false, enc);
    let r = |a: &Assignment| refine(t, &m.map, a);
    let mut s = Session::new(
        SolverChoice::Embedded.backend(),
        &m.formula,
        m.answer.clone(),
        false,
    )
    .with_refine(&r);
    match s.verdict(&[]).expect("solver") {
        Verdict::Unique(a) => rules::check(t, &decode(t, &m.map, &a)).is_ok(),
        _ => false,
    }
}

fn load(path: &str, n: usize) -> Option<Vec<Takuzu>> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut v = parse(path, &text, &ReadOptions::default()).ok()?;
    v.truncate(n);
    Some(v)
}

fn benches(c: &mut Criterion) {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/corpora/takuzu/Borroot-binairo-scrapers"
    );
    for (name, file, n) in [
        ("20x20 x100", "sets2/size20level2.txt", 100),
        ("6x6 very hard x66", "sets1/size6level4.txt", 66),
    ] {
        match load(&format!("{dir}/{file}"), n) {
            Some(set) => {
                for (enc_name, enc) in ENCODINGS {
                    c.bench_function(&format!("takuzu {name} solve+unique {enc_name}"), |b| {
                        b.iter(|| assert!(set.iter().all(|t| unique(t, enc))))
                    });
                }
            }
            None => eprintln!("skipping {file}: ../shared/corpora/takuzu/ not found"),
        }
    }
    for f in ["gen-30x30.takuzu", "gen-60x60.takuzu"] {
        let own = format!("{}/puzzles/takuzu/{f}", env!("CARGO_MANIFEST_DIR"));
        let v = load(&own, 1).expect("the project's own puzzle");
        for (enc_name, enc) in ENCODINGS {
            c.bench_function(&format!("takuzu {f} solve+unique {enc_name}"), |b| {
                b.iter(|| assert!(unique(&v[0], enc)))
            });
        }
    }
    if let Some(set) = load(&format!("{dir}/sets1/size14level4.txt"), 20) {
        c.bench_function("takuzu 14x14 very hard x20 explain", |b| {
            b.iter(|| assert!(set.iter().all(|t| explain_path(t, None, false).1.solved())))
        });
    }
}

criterion_group! {
    name = takuzu;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(takuzu);
