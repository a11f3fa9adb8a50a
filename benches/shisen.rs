//! Shisen-sho speed and the greedy comparison: seeded random deals (the generator's own
//! `deal`, made as KShisen makes them), each decided (a clearing plan, checked by the rule checker,
//! or "cannot be cleared"), timed one by one, and played by KShisen's greedy "solvable" check.
//! Figures go to BENCHMARKS.md ("Shisen-sho").
//!
//! `cargo bench --bench shisen -- [--deals N] [--size WxH] [--gravity] [--no-outline] [--first SEED]`
//! (defaults: 1,000 deals of 18x8, seeds 1 to N). Prints the median, 90th percentile and
//! maximum time to decide, how many deals are clearable, how many the greedy check clears, the
//! seeds of the deals greedy gets stuck on that gridsat clears and of those that cannot be
//! cleared. `--order cycles|ranks` decides with that model instead of the default (play search
//! and blocking cuts), `--limit SECS` stops a deal after that long (counted unknown; its time
//! is the limit). `--print SEED` writes that seed's deal as a board file instead, `--write`
//! the deals of all the seeds as one file.
//!
//! `--compare` is the trust check of `models/shisen.md` ("How far the verdicts were checked"):
//! each deal is decided three ways that share nothing but the routes' pair test: the play
//! search alone (`--budget` positions, default 5,000,000), SAT alone (the blocked model with
//! its blocking cuts and none of the search's lemmas, `--limit` seconds), and, when `--brute N`
//! is given, a plain exhaustive search over positions with the seed's pair test (no routes, no
//! dominance; gives up after N positions). `--playouts N` plays N random players on each deal
//! (a deal one of them clears is clearable); `--limit 0` skips SAT. Every disagreement is
//! printed with its seed. `--verbose` prints every deal with the search's positions, and
//! `--no-locks` runs the search without its dead-lock lemmas (`shisen::locks`).

use gridsat::generate::rng;
use gridsat::puzzle::{self, GivenMode, Puzzle};
use gridsat::shisen::generate::{deal, Options};
use gridsat::shisen::play::{self, greedy, Found, Position};
use gridsat::shisen::{model, routes, Order, Rules, Shisen};
use gridsat::solver::{Outcome, Session, SolverChoice, SolverError, Stop};
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// CPU seconds this thread has used (user and system, from `/proc/thread-self/stat`, in
/// ticks of 1/100 s); 0 where that file is not there. On a shared machine a deal's CPU time says
/// more than its wall time.
fn thread_cpu() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/thread-self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which is in parentheses): state is field 3, utime 14.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |k: usize| {
        f.get(k - 3)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(14) + ticks(15)) / 100.0
}

/// Runs `f` with a stop flag raised after `limit`, if any.
fn with_limit<R>(limit: Option<Duration>, f: impl FnOnce(&Stop) -> R) -> R {
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
    let out = f(&stop);
    let _ = done.send(());
    if let Some(timer) = timer {
        timer.join().unwrap();
    }
    out
}

/// SAT alone: the blocked model (pairing, group clauses, "the first move is free") with its
/// lazy blocking cuts, none of the play search's lemmas. `Some(true)` only with a pairing
/// whose plan the rule checker accepts.
fn sat_alone(p: &Shisen, stop: &Stop) -> Option<bool> {
    let m = model::build(p, GivenMode::Fold, false, Order::Blocked);
    let refine = |a: &gridsat::cnf::Assignment| model::refine(p, &m.map, a);
    let mut s = Session::new(
        SolverChoice::Embedded.until(stop).backend(),
        &m.formula,
        m.answer.clone(),
        m.one_hot,
    )
    .with_refine(&refine);
    match s.solve(&[]) {
        Ok(Outcome::Sat(a)) => {
            let plan = model::decode(p, &m.map, &a);
            assert_eq!(p.check(&plan), Ok(()), "SAT's plan must replay");
            Some(true)
        }
        Ok(Outcome::Unsat(_)) => Some(false),
        Err(SolverError::Stopped) => None,
        Err(e) => panic!("{e}"),
    }
}

/// A plain exhaustive search with the seed's pair test ([`Position::playable`]), positions
/// remembered as the set of tiles left; `None` after `budget` positions.
fn brute(p: &Shisen, budget: usize) -> Option<bool> {
    fn go(
        p: &Shisen,
        pos: &Position,
        seen: &mut HashSet<Vec<bool>>,
        budget: usize,
    ) -> Option<bool> {
        if pos.cleared() {
            return Some(true);
        }
        if seen.len() >= budget {
            return None;
        }
        if !seen.insert(pos.at.iter().map(|t| t.is_some()).collect()) {
            return Some(false);
        }
        let mut out = Some(false);
        for (x, y) in pos.playable(p) {
            let mut next = pos.clone();
            next.remove(p, x, y);
            match go(p, &next, seen, budget) {
                Some(true) => return Some(true),
                None => out = None,
                Some(false) => {}
            }
        }
        out
    }
    go(p, &Position::start(p), &mut HashSet::new(), budget)
}

/// A lock at the start, confirmed with the seed's pair test alone: on a board where only the
/// sealed tiles `sealed` (cells) stand, no tile of them joins any tile of its class. Then no
/// tile of them can ever go first (with them all standing, every line is at least as blocked),
/// so the board cannot be cleared. True when confirmed.
fn lock_holds(p: &Shisen, sealed: &[usize]) -> bool {
    let w = p.width;
    let mut occupied = vec![false; p.cells_len()];
    for &c in sealed {
        occupied[c] = true;
    }
    let grid = gridsat::shisen::pair::Grid {
        width: w,
        height: p.height,
        outline: p.rules.outline,
        occupied: &occupied,
    };
    !sealed.is_empty()
        && sealed.iter().all(|&x| {
            (0..p.cells_len()).all(|y| {
                let (Some(_), Some(_)) = (p.cells[x], p.cells[y]) else {
                    return true;
                };
                x == y
                    || !p.matches(x, y)
                    || gridsat::shisen::pair::join(&grid, (x / w, x % w), (y / w, y % w)).is_none()
            })
        })
}

/// `--compare`: the three verdicts of every deal, and the disagreements. `(budget, locks)`:
/// the play search's positions, and whether it uses its dead-lock lemmas.
fn compare(
    o: &Options,
    seeds: &[u64],
    limit: Option<Duration>,
    (budget, locks): (usize, bool),
    brute_budget: Option<usize>,
    playouts: usize,
    verbose: bool,
) {
    let mut cleared_by_players = 0;
    let (mut locked_at_start, mut lock_confirmed) = (0, 0);
    let verdict = |v: Option<bool>| match v {
        Some(true) => "clearable",
        Some(false) => "not clearable",
        None => "undecided",
    };
    // [play][sat] counts, each index 0 not clearable, 1 clearable, 2 undecided.
    let mut table = [[0usize; 3]; 3];
    let mut brute_table = [[0usize; 3]; 3];
    let mut bad = Vec::new();
    let ix = |v: Option<bool>| v.map_or(2, usize::from);
    // Counts play's verdict against another engine's, and notes a disagreement.
    let compare = |table: &mut [[usize; 3]; 3],
                   bad: &mut Vec<String>,
                   seed: u64,
                   by_play: Option<bool>,
                   other: Option<bool>,
                   name: &str| {
        table[ix(by_play)][ix(other)] += 1;
        if by_play.is_some() && other.is_some() && by_play != other {
            bad.push(format!(
                "seed {seed}: play {}, {name} {}",
                verdict(by_play),
                verdict(other)
            ));
        }
    };
    for &seed in seeds {
        let p = deal(o, &mut rng(seed));
        let r = routes::build(&p);
        let t = Instant::now();
        let mut search = play::Search::new(&p, &r, 0, 0);
        search.locks = locks;
        let found = if p.rules.gravity {
            Found::Unknown
        } else {
            search.decide(&mut routes::Counters::new(&r), r.tiles.len(), budget)
        };
        let by_play = match found {
            Found::Plan(_) => Some(true),
            Found::Dead => Some(false),
            Found::Unknown => None,
        };
        let play_time = t.elapsed().as_secs_f64();
        if by_play == Some(false) {
            let classes = routes::classes(&p, &r);
            let sealed =
                gridsat::shisen::locks::sealed_tiles(&r, &classes, &routes::Counters::new(&r));
            let cells: Vec<usize> = sealed.iter().map(|&t| r.tiles[t]).collect();
            if !cells.is_empty() {
                locked_at_start += 1;
                if lock_holds(&p, &cells) {
                    lock_confirmed += 1;
                } else {
                    bad.push(format!(
                        "seed {seed}: the lock at the start fails the pair test"
                    ));
                }
            }
        }
        let searched = format!(
            "{} pairs, {} routes over {} tiles; {} positions, {} found locked ({} fixpoints, {} by a lock kept), {} remembered dead",
            r.pairs.len(),
            r.pairs.iter().map(|c| c.routes.len()).sum::<usize>(),
            r.pairs.iter().flat_map(|c| &c.routes).map(Vec::len).sum::<usize>(),
            search.nodes(),
            search.locked,
            search.sealed.computed,
            search.sealed.reused,
            search.memo()
        );
        if playouts > 0 {
            let stuck = play::stuck_players(&p, playouts, seed);
            if stuck < playouts && by_play == Some(false) {
                bad.push(format!(
                    "seed {seed}: play not clearable, {} random players cleared it",
                    playouts - stuck
                ));
            }
            cleared_by_players += usize::from(stuck < playouts);
        }
        let by_sat = if limit.is_some_and(|l| l.is_zero()) {
            None
        } else {
            with_limit(limit, |stop| sat_alone(&p, stop))
        };
        compare(&mut table, &mut bad, seed, by_play, by_sat, "SAT");
        if let Some(b) = brute_budget {
            let by_brute = brute(&p, b);
            compare(
                &mut brute_table,
                &mut bad,
                seed,
                by_play,
                by_brute,
                "brute force",
            );
        }
        if !by_play.unwrap_or(true) || verbose {
            println!(
                "seed {seed}: play {} ({play_time:.3} s; {searched}), SAT alone {}",
                verdict(by_play),
                verdict(by_sat)
            );
        }
    }
    let names = ["not clearable", "clearable", "undecided"];
    println!(
        "compare {}x{}, {} seeds from {}: play (rows) against SAT alone (columns: {names:?})",
        o.width,
        o.height,
        seeds.len(),
        seeds[0]
    );
    for (k, row) in table.iter().enumerate() {
        println!("  play {:>13}: {row:?}", names[k]);
    }
    if brute_budget.is_some() {
        println!("play (rows) against brute force (columns)");
        for (k, row) in brute_table.iter().enumerate() {
            println!("  play {:>13}: {row:?}", names[k]);
        }
    }
    if playouts > 0 {
        println!("deals some of {playouts} random players cleared: {cleared_by_players}");
    }
    println!(
        "deals locked at the start: {locked_at_start}, the lock confirmed by the pair test alone: {lock_confirmed}"
    );
    println!("disagreements: {}", bad.len());
    for b in bad {
        println!("  {b}");
    }
}

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
    if flag("--write") {
        // Seeds `--first` to `--first + --deals - 1` as one file of boards (the files the
        // comparison with the plain search of `benches/shisen_dfs.rs` reads).
        for seed in first..first + deals {
            let p = deal(&o, &mut rng(seed));
            println!("# seed {seed}\n{}", gridsat::shisen::format::write(&p));
        }
        return;
    }
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
    if flag("--compare") {
        let budget = value("--budget").map_or(5_000_000, |v| v.parse().expect("--budget N"));
        let brute_budget = value("--brute").map(|v| v.parse().expect("--brute N"));
        let seeds: Vec<u64> = match value("--seeds") {
            Some(list) => list
                .split(',')
                .map(|s| s.parse().expect("--seeds 1,2,3"))
                .collect(),
            None => (first..first + deals).collect(),
        };
        let playouts = value("--playouts").map_or(0, |v| v.parse().expect("--playouts N"));
        compare(
            &o,
            &seeds,
            limit,
            (budget, !flag("--no-locks")),
            brute_budget,
            playouts,
            flag("--verbose"),
        );
        return;
    }
    let mut unknown = Vec::new();
    let mut times = Vec::with_capacity(deals as usize);
    let mut cpus: Vec<(f64, u64)> = Vec::with_capacity(deals as usize);
    let mut stuck = Vec::new();
    let (mut clearable, mut greedy_cleared, mut traps) = (0, 0, Vec::new());
    for seed in first..first + deals {
        let mut p = deal(&o, &mut rng(seed));
        p.order = order;
        let t = Instant::now();
        let cpu = thread_cpu();
        let answer = with_limit(limit, |stop| {
            puzzle::solve(&p, &SolverChoice::Embedded.until(stop))
        });
        times.push(t.elapsed().as_secs_f64());
        cpus.push((thread_cpu() - cpu, seed));
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
    cpus.sort_by(|a, b| b.0.total_cmp(&a.0));
    let cpu_at = |q: f64| cpus[((cpus.len() - 1) as f64 * (1.0 - q)).round() as usize].0;
    let slowest: Vec<String> = cpus
        .iter()
        .take(5)
        .map(|(t, s)| format!("{s} ({t:.2} s)"))
        .collect();
    println!(
        "CPU per deal: median {:.3} s, p90 {:.3} s, max {:.2} s, total {:.1} s; slowest: {}",
        cpu_at(0.5),
        cpu_at(0.9),
        cpu_at(1.0),
        cpus.iter().map(|c| c.0).sum::<f64>(),
        slowest.join(", ")
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
    let shown: Vec<String> = stuck.iter().map(|s| s.to_string()).collect();
    println!("seeds that cannot be cleared: {}", shown.join(" "));
    let shown: Vec<String> = unknown.iter().map(|s| s.to_string()).collect();
    println!("seeds undecided within --limit: {}", shown.join(" "));
}
