//! Shisen-sho speed and the greedy comparison: seeded random deals (the generator's own
//! `deal`, four tiles per kind), each decided (a clearing plan, checked by the rule checker,
//! or "cannot be cleared"), timed one by one, and played by KShisen's greedy "solvable" check.
//! Figures go to BENCHMARKS.md ("Shisen-sho").
//!
//! `cargo bench --bench shisen -- [--deals N] [--size WxH] [--gravity] [--no-outline] [--first SEED]`
//! (defaults: 1,000 deals of 18x8, seeds 1 to N). Prints the median, 90th percentile and
//! maximum time to decide, how many deals are clearable, how many the greedy check clears, the
//! seeds of the deals greedy gets stuck on that gridsat clears and of those that cannot be
//! cleared. `--order cycles|ranks` decides with that model instead of the default (play search
//! and blocking cuts), `--limit SECS` stops a deal after that long (counted unknown; its time
//! is the limit). `--print SEED` writes that seed's deal as a board file instead.

use gridsat::generate::rng;
use gridsat::puzzle::{self, Puzzle};
use gridsat::shisen::generate::{deal, Options};
use gridsat::shisen::play::greedy;
use gridsat::shisen::{Order, Rules};
use gridsat::solver::{SolverChoice, SolverError, Stop};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let flag = |name: &str| args.iter().any(|a| a == name);
    let deals: u64 = value("--deals").map_or(1000, |v| v.parse().expect("--deals N"));
    let first: u64 = value("--first").map_or(1, |v| v.parse().expect("--first SEED"));
    let (w, h) = value("--size").map_or((18, 8), |v| {
        let (w, h) = v.split_once('x').expect("--size WxH");
        (w.parse().unwrap(), h.parse().unwrap())
    });
    let rules = Rules {
        outline: !flag("--no-outline"),
        gravity: flag("--gravity"),
        chinese: false,
    };
    let o = Options::from_args(Some((w, h)), None, None, None, None, false, rules)
        .expect("a size that can be dealt");
    if let Some(seed) = value("--print") {
        // One deal as a board file (how puzzles/shisen/ got its not-clearable deal).
        let p = deal(&o, &mut rng(seed.parse().expect("--print SEED")));
        print!("{}", gridsat::shisen::format::write(&p));
        return;
    }
    let order = match value("--order").as_deref() {
        None | Some("blocked") => Order::Blocked,
        Some("cycles") => Order::Cycles,
        Some("ranks") => Order::Ranks,
        Some(o) => panic!("--order {o}: expected blocked, cycles or ranks"),
    };
    let limit = value("--limit").map(|v| Duration::from_secs_f64(v.parse().expect("--limit SECS")));
    let mut unknown = Vec::new();
    let mut times = Vec::with_capacity(deals as usize);
    let mut stuck = Vec::new();
    let (mut clearable, mut greedy_cleared, mut traps) = (0, 0, Vec::new());
    for seed in first..first + deals {
        let mut p = deal(&o, &mut rng(seed));
        p.order = order;
        let stop = Stop::new();
        let (done, wait) = std::sync::mpsc::channel::<()>();
        let timer = limit.map(|l| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                if wait.recv_timeout(l).is_err() {
                    stop.raise();
                }
            })
        });
        let t = Instant::now();
        let answer = puzzle::solve(&p, &SolverChoice::Embedded.until(&stop));
        times.push(t.elapsed().as_secs_f64());
        let _ = done.send(());
        if let Some(timer) = timer {
            timer.join().unwrap();
        }
        let plan = match answer {
            Ok(plan) => plan,
            Err(gridsat::error::Error::Solver(SolverError::Stopped)) => {
                unknown.push(seed);
                continue;
            }
            Err(e) => panic!("seed {seed}: {e}"),
        };
        let g = greedy(&p).cleared;
        match plan {
            Some(plan) => {
                assert_eq!(p.check(&plan), Ok(()), "seed {seed}");
                clearable += 1;
                if !g {
                    traps.push(seed);
                }
            }
            None => {
                assert!(!g, "seed {seed}: greedy cleared a board SAT calls stuck");
                stuck.push(seed);
            }
        }
        greedy_cleared += usize::from(g);
    }
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    println!(
        "shisen {w}x{h}{}{} {order:?}: {deals} deals (seeds {first}..={}): decide median {:.3} s, p90 {:.3} s, max {:.3} s, total {:.1} s",
        if rules.gravity { " gravity" } else { "" },
        if rules.outline { "" } else { " no-outline" },
        first + deals - 1,
        at(0.5),
        at(0.9),
        at(1.0),
        times.iter().sum::<f64>()
    );
    println!(
        "clearable {clearable}, not clearable {}, unknown (over --limit) {}; greedy clears {greedy_cleared}; greedy stuck but clearable: {}",
        deals as usize - clearable - unknown.len(),
        unknown.len(),
        traps.len()
    );
    let shown: Vec<String> = traps.iter().take(20).map(|s| s.to_string()).collect();
    println!(
        "seeds greedy gets stuck on that gridsat clears (first 20): {}",
        shown.join(" ")
    );
    let shown: Vec<String> = stuck.iter().take(20).map(|s| s.to_string()).collect();
    println!(
        "seeds that cannot be cleared (first 20): {}",
        shown.join(" ")
    );
}
