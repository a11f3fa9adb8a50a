//! Measures how robust the Numberlink router (`src/numberlink/route.rs`) is: for each board,
//! how many of the seeds 1..=N for the order of the lines separate its lines within ROUNDS
//! rounds, in how many rounds, how many cells stay shared when they do not, and the time per
//! seed. The prices are the router's own unless set in the environment (PRESENT, GROWTH,
//! PRESENT_MAX, HISTORY; ONLY_SHARED=1 reroutes only the lines on shared cells); SHOW=1 draws
//! the last seed's routing (a letter per line, capitals at the ends, `#` a shared cell).
//!
//! ```sh
//! cargo run --release --example route_seeds -- 30 300 ../shared/corpora/numberlink/dasadc_conmgr/sample/ADC2015_QA/Q/Q07.txt
//! ```
use gridsat::numberlink::route::{negotiate, Schedule, ROUNDS};
use gridsat::numberlink::{format, Numberlink, Rules};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: route_seeds SEEDS ROUNDS FILE... (the router's own ROUNDS: {ROUNDS})");
        std::process::exit(2);
    }
    let seeds: u64 = args[1].parse().expect("SEEDS: a number");
    let rounds: usize = args[2].parse().expect("ROUNDS: a number");
    let env = |k: &str, d: f64| std::env::var(k).ok().map_or(d, |v| v.parse().expect(k));
    let d = Schedule::DEFAULT;
    let s = Schedule {
        present: env("PRESENT", d.present),
        growth: env("GROWTH", d.growth),
        present_max: env("PRESENT_MAX", d.present_max),
        history: env("HISTORY", d.history),
        only_shared: env("ONLY_SHARED", 0.0) != 0.0,
    };
    println!("{s:?}");
    for f in &args[3..] {
        let text = std::fs::read_to_string(f).expect("a readable file");
        for p in format::parse(f, &text, format::ReadOptions::default()).expect("a Numberlink file")
        {
            let p = Numberlink {
                rules: Rules::Nikoli,
                ..p
            };
            let t = Instant::now();
            let mut done = Vec::new();
            let mut shared = Vec::new();
            let mut last = None;
            for seed in 1..=seeds {
                let r = negotiate(&p, rounds, seed, &s);
                if r.shared == 0 {
                    done.push(r.rounds);
                } else {
                    shared.push(r.shared);
                }
                last = Some(r);
            }
            done.sort_unstable();
            println!(
                "{}: {} of {seeds} seeds separate the lines, in rounds {done:?}; shared cells left by the others {shared:?}; {:.1} ms a seed",
                f.rsplit('/').next().unwrap_or(f),
                done.len(),
                t.elapsed().as_secs_f64() * 1000.0 / seeds as f64
            );
            if std::env::var("SHOW").is_ok() {
                draw(&p, &last.expect("at least one seed").routes);
            }
        }
    }
}

fn draw(p: &Numberlink, routes: &[Vec<usize>]) {
    let mut on = vec![Vec::new(); p.cells()];
    for (k, r) in routes.iter().enumerate() {
        for &c in r {
            on[c].push(k);
        }
    }
    let letter = |k: usize| (b"abcdefghijklmnopqrstuvwxyz"[k % 26]) as char;
    for y in 0..p.height {
        let row: String = (0..p.width)
            .map(|x| {
                let c = y * p.width + x;
                if let Some(k) = p.ends.iter().position(|&(a, b)| a == c || b == c) {
                    letter(k).to_ascii_uppercase()
                } else {
                    match on[c].as_slice() {
                        [] => '.',
                        [k] => letter(*k),
                        _ => '#',
                    }
                }
            })
            .collect();
        println!("{row}");
    }
}
