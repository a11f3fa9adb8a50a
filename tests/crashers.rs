//! Every finding of the mutation fuzzer in `../shared/crashers/` (see its README) as a
//! regression test, read in place: each run ends with a clear message or a right answer, never a
//! panic, an abort or unbounded memory (the `oom-*` inputs run under `ulimit -v 4000000`), and
//! the slow ones stop cleanly under `--timeout`. The misbehaving fake solvers are held to the
//! batch's rules: a solver past the time limit is killed with everything it started.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// `../shared/crashers/NAME`, or `None` after saying why the test skips.
fn crasher(name: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/crashers")
        .join(name);
    if p.exists() {
        Some(p)
    } else {
        common::skipped(&format!(
            "{} not found (../shared is absent); this crasher test checks nothing",
            p.display()
        ));
        None
    }
}

/// Runs gridsat with `args` under a 4 GB address-space limit.
fn run(args: &[&str]) -> (Output, Duration) {
    let started = Instant::now();
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 4000000; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_gridsat"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("gridsat runs");
    (out, started.elapsed())
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A run that ended by itself with `code` (no panic: 101, no abort: 134, no signal).
fn ends_with(out: &Output, code: i32, what: &str) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "{what}: stdout {} stderr {}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(!text(&out.stderr).contains("panicked"), "{what}");
}

#[test]
fn huge_or_odd_dimacs_headers_are_refused_and_the_satlib_trailer_is_no_empty_clause() {
    for name in [
        "panic-sat-huge-var-count.cnf",
        "oom-sat-1e9-vars.cnf",
        "hang-oom-sat-2147483648-vars.cnf",
    ] {
        let Some(f) = crasher(name) else { return };
        let (out, took) = run(&["sat", f.to_str().unwrap()]);
        ends_with(&out, 2, name);
        assert!(
            text(&out.stderr).contains(":1:1: `p cnf")
                && text(&out.stderr).contains("larger than gridsat reads"),
            "{name}: {}",
            text(&out.stderr)
        );
        assert!(took < Duration::from_secs(10), "{name} took {took:?}");
    }
    let Some(f) = crasher("wrongverdict-sat-satlib-percent-trailer.cnf") else {
        return;
    };
    let (out, _) = run(&["sat", f.to_str().unwrap()]);
    ends_with(&out, 10, "SATLIB trailer");
    assert!(text(&out.stdout).starts_with("s SATISFIABLE\n"));
}

#[test]
fn size_lines_past_the_limits_are_errors_not_panics_or_huge_allocations() {
    let cases = [
        (
            "panic-tectonic-size-line-overflow.tectonic",
            &["solve"][..],
            "a Tectonic is 1 to 1000 cells wide and high",
        ),
        (
            "panic-tectonic-size-line-overflow-fuzzed.txt",
            &["check", "--json", "--no-progress", "--forced"][..],
            "\"status\":\"error\"",
        ),
        (
            "panic-autodetect-numberlink-W-H-overflow.txt",
            &["solve", "--rules", "cover", "--json", "--no-progress"][..],
            "\"status\":\"error\"",
        ),
        (
            "oom-takuzu-janko-header.takuzu",
            &["solve"][..],
            ":1:1: a 4294967296x6 grid is larger than gridsat reads (1000 a side)",
        ),
        (
            "panic-takuzu-janko-header.takuzu",
            &["solve"][..],
            ":1:3: a 6x18446744073709551615 grid is larger than gridsat reads",
        ),
    ];
    for (name, args, says) in cases {
        let Some(f) = crasher(name) else { return };
        let mut a = args.to_vec();
        a.push(f.to_str().unwrap());
        let (out, _) = run(&a);
        ends_with(&out, 2, name);
        let both = text(&out.stdout) + &text(&out.stderr);
        assert!(both.contains(says), "{name}: {both}");
    }
    // Named as Numberlink, the W H file is Numberlink's clean error.
    let Some(f) = crasher("panic-autodetect-numberlink-W-H-overflow.txt") else {
        return;
    };
    let (out, _) = run(&["solve", "--kind", "numberlink", f.to_str().unwrap()]);
    ends_with(&out, 2, "numberlink W H");
}

#[test]
fn files_with_no_puzzle_say_so_and_cr_line_endings_are_read() {
    for (name, args) in [
        (
            "wrongexit-takuzu-solution-line-only.takuzu",
            &["solve", "--json"][..],
        ),
        (
            "wrongexit-sudoku-separator-only.txt",
            &["solve", "--json"][..],
        ),
        (
            "wrongexit-takuzu-empty-json-array.json",
            &["solve", "--kind", "takuzu", "--json"][..],
        ),
    ] {
        let Some(f) = crasher(name) else { return };
        let mut a = args.to_vec();
        a.push(f.to_str().unwrap());
        let (out, _) = run(&a);
        ends_with(&out, 2, name);
        let o: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
        assert_eq!(o["status"], "error", "{name}");
        assert!(
            o["error"].as_str().unwrap().contains("no puzzle found"),
            "{name}: {o}"
        );
    }
    // CR-only line endings: every puzzle is answered.
    let Some(f) = crasher("silentdrop-sudoku-cr-line-endings.txt") else {
        return;
    };
    let (out, _) = run(&["solve", "--json", f.to_str().unwrap()]);
    ends_with(&out, 0, "CR sudoku");
    assert_eq!(text(&out.stdout).lines().count(), 3);
    let Some(f) = crasher("wrongexit-takuzu-cr-line-endings.txt") else {
        return;
    };
    let (out, _) = run(&["solve", "--kind", "takuzu", "--json", f.to_str().unwrap()]);
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert!(
        !lines.is_empty(),
        "a CR-only Takuzu file answers its puzzles"
    );
    for l in &lines {
        let o: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_ne!(o["status"], "error", "{o}");
    }
}

#[test]
fn slow_puzzles_stop_cleanly_under_a_timeout() {
    let cases = [
        (
            "hang-numberlink-13x13-swapped-lines.txt",
            &["check", "--kind", "numberlink"][..],
        ),
        (
            "hang-numberlink-97x20-contest.txt",
            &["solve", "--kind", "numberlink"][..],
        ),
        (
            "hang-numberlink-6x65-contest.txt",
            &["check", "--kind", "numberlink"][..],
        ),
        (
            "hang-numberlink-15x10-mutated.txt",
            &["solve", "--kind", "numberlink"][..],
        ),
        (
            "hang-takuzu-60x60-one-given-changed.takuzu",
            &["solve", "--kind", "takuzu"][..],
        ),
        (
            "hang-takuzu-10x10-oddzeros-eager.txt",
            &[
                "check",
                "--kind",
                "takuzu",
                "--odd-lines",
                "zeros",
                "--distinct-encoding",
                "eager",
                "--forced",
            ][..],
        ),
    ];
    for (name, args) in cases {
        let Some(f) = crasher(name) else { return };
        let mut a = args.to_vec();
        a.extend([
            "--json",
            "--no-progress",
            "--timeout",
            "1",
            f.to_str().unwrap(),
        ]);
        let (out, took) = run(&a);
        let o: serde_json::Value = serde_json::from_str(text(&out.stdout).trim())
            .unwrap_or_else(|e| panic!("{name}: {e}: {}", text(&out.stderr)));
        let status = o["status"].as_str().unwrap();
        assert!(
            ["unknown", "none", "unique", "multiple"].contains(&status),
            "{name}: {o}"
        );
        if status == "unknown" {
            assert_eq!(o["timeout_s"], 1.0, "{name}");
            assert_eq!(out.status.code(), Some(1), "{name}");
        }
        // The limit is per puzzle; building the model and reading are not timed, so allow
        // some slack on a loaded machine.
        assert!(took < Duration::from_secs(15), "{name} took {took:?}");
    }
}

/// A fake solver from `../shared/crashers/fake-solvers`.
fn fake(name: &str) -> Option<String> {
    crasher(&format!("fake-solvers/{name}")).map(|p| p.display().to_string())
}

#[test]
fn a_hanging_solver_is_killed_with_its_children_at_the_time_limit() {
    let Some(s17) = crasher("fake-solvers/s17.txt") else {
        return;
    };
    // hang.sh is a shell whose child `sleep 1000` holds the output pipe: killing only the
    // shell left gridsat waiting for the pipe to close.
    for solver in ["hang.sh", "hang_exec.sh"] {
        let Some(cmd) = fake(solver) else { return };
        let (out, took) = run(&[
            "solve",
            "--json",
            "--solver",
            &cmd,
            "--timeout",
            "0.5",
            s17.to_str().unwrap(),
        ]);
        ends_with(&out, 1, solver);
        let o: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
        assert_eq!(o["status"], "unknown", "{solver}");
        assert!(took < Duration::from_secs(8), "{solver} took {took:?}");
    }
}

#[test]
fn solvers_that_answer_nothing_usable_are_errors_and_the_batch_goes_on() {
    let Some(s17) = crasher("fake-solvers/s17.txt") else {
        return;
    };
    let s17 = s17.to_str().unwrap();
    let classic = common::puzzle("sudoku/classic.txt");
    for (solver, says) in [
        ("garbage.sh", "gave no usable answer"),
        ("garbage10.sh", "gave no usable answer"),
        ("nov.sh", "does not satisfy the formula"),
        ("allpos.sh", "does not satisfy the formula"),
        // 300 MB of comment lines: dropped as they come, not kept.
        ("chatty.sh", "gave no usable answer"),
    ] {
        let Some(cmd) = fake(solver) else { return };
        let (out, _) = run(&[
            "solve",
            "--json",
            "-j",
            "1",
            "--solver",
            &cmd,
            s17,
            classic.to_str().unwrap(),
        ]);
        ends_with(&out, 2, solver);
        let lines: Vec<serde_json::Value> = text(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2, "{solver}: one record per puzzle");
        assert_eq!(lines[0]["status"], "error", "{solver}");
        assert!(
            lines[0]["error"].as_str().unwrap().contains(says),
            "{solver}: {}",
            lines[0]
        );
    }
}
