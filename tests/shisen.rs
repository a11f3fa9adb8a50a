//! Shisen-sho end to end on the project's own boards (`puzzles/shisen/`): every verb of the
//! command line, every plan printed replayed move by move with the seed's pair test (here,
//! not through the CNF), the greedy-vs-verdict property, and every error path (exit code 2
//! with file, line and column).

mod common;

use assert_cmd::Command;
use gridsat::puzzle::{self, Puzzle};
use gridsat::shisen::format::{self, ReadOptions};
use gridsat::shisen::pair::{join, Grid};
use gridsat::shisen::play::greedy;
use gridsat::shisen::Shisen;
use gridsat::solver::SolverChoice;
use predicates::prelude::*;
use serde_json::Value;

fn gridsat() -> Command {
    Command::cargo_bin("gridsat").unwrap()
}

fn path(name: &str) -> String {
    common::puzzle(&format!("shisen/{name}"))
        .display()
        .to_string()
}

fn read(name: &str) -> Vec<Shisen> {
    let p = path(name);
    format::parse(
        &p,
        &std::fs::read_to_string(&p).unwrap(),
        &ReadOptions::default(),
    )
    .unwrap()
}

fn json_lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8(out.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Replays the `moves` of a `--json` answer on `p` (no gravity), with the pair test alone:
/// each move joins two tiles of one kind still on the board, its path runs from one to the
/// other through empty cells or the ring in at most three straight segments, and the board
/// ends empty. The `solution` rows number the same moves.
fn replay(p: &Shisen, answer: &Value) {
    let (w, h) = (p.width, p.height);
    let mut occupied: Vec<bool> = p.cells.iter().map(|c| c.is_some()).collect();
    let moves = answer["moves"].as_array().expect("moves");
    let rows: Vec<Vec<i64>> = serde_json::from_value(answer["solution"].clone()).unwrap();
    assert_eq!(moves.len() * 2, p.tiles().len(), "every tile leaves");
    for (k, m) in moves.iter().enumerate() {
        let t: Vec<(usize, usize)> = serde_json::from_value(m["tiles"].clone()).unwrap();
        let (a, b) = (t[0].0 * w + t[0].1, t[1].0 * w + t[1].1);
        assert!(
            occupied[a] && occupied[b],
            "move {}: a tile already gone",
            k + 1
        );
        assert_eq!(p.cells[a], p.cells[b], "move {}: two kinds", k + 1);
        for c in [a, b] {
            assert_eq!(
                rows[c / w][c % w],
                k as i64 + 1,
                "the rows number move {}",
                k + 1
            );
        }
        let grid = Grid {
            width: w,
            height: h,
            outline: p.rules.outline,
            occupied: &occupied,
        };
        assert!(join(&grid, t[0], t[1]).is_some(), "move {}: no line", k + 1);
        // The path printed: from tile to tile, orthogonal steps, empty or ring cells between,
        // at most two turns.
        let path: Vec<(i64, i64)> = serde_json::from_value(m["path"].clone()).unwrap();
        let at = |(r, c): (usize, usize)| (r as i64, c as i64);
        assert_eq!((path[0], *path.last().unwrap()), (at(t[0]), at(t[1])));
        let mut turns = 0;
        for i in 1..path.len() {
            let d = (path[i].0 - path[i - 1].0, path[i].1 - path[i - 1].1);
            assert_eq!(
                d.0.abs() + d.1.abs(),
                1,
                "move {}: a jump in the path",
                k + 1
            );
            if i >= 2 && d != (path[i - 1].0 - path[i - 2].0, path[i - 1].1 - path[i - 2].1) {
                turns += 1;
            }
            if i + 1 < path.len() {
                let (r, c) = path[i];
                let inside = r >= 0 && c >= 0 && (r as usize) < h && (c as usize) < w;
                assert!(
                    !inside || !occupied[r as usize * w + c as usize],
                    "move {}",
                    k + 1
                );
                assert!(
                    inside || p.rules.outline,
                    "move {}: the ring without outline",
                    k + 1
                );
            }
        }
        assert!(turns <= 2, "move {}: {turns} turns", k + 1);
        occupied[a] = false;
        occupied[b] = false;
    }
    assert!(occupied.iter().all(|&o| !o));
}

#[test]
fn solve_prints_plans_that_replay_under_the_pair_test() {
    for name in [
        "kshisen-14x6.shisen",
        "kshisen-18x8.shisen",
        "nikakudori-4x4.shisen",
    ] {
        let out = gridsat()
            .args(["solve", "--no-unique", "--json", &path(name)])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}");
        let answers = json_lines(&out.stdout);
        let p = read(name).remove(0);
        assert_eq!(answers[0]["status"], "solved");
        replay(&p, &answers[0]);
    }
    // The text form draws each move's line over the board.
    gridsat()
        .args(["solve", "--no-unique", &path("kshisen-14x6.shisen")])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("solved (uniqueness not checked)"))
        .stdout(predicate::str::contains("move 42:"))
        .stdout(predicate::str::contains("┌"));
}

#[test]
fn boards_that_cannot_be_cleared_are_proven_so() {
    let out = gridsat()
        .args(["check", "--json", &path("stuck.shisen")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let answers = json_lines(&out.stdout);
    assert_eq!(answers.len(), 2);
    for a in &answers {
        assert_eq!(a["status"], "none", "{a}");
    }
    // The alternating row clears once lines may go round the board.
    let row = "A B A B\n";
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("row.shisen");
    std::fs::write(&f, row).unwrap();
    gridsat()
        .args(["check", f.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("unique"));
    gridsat()
        .args(["check", "--no-outline", f.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("no solution"));
}

#[test]
fn an_empty_board_is_cleared_by_the_empty_plan() {
    // No tiles: the plan of no moves clears it, under every rule (the page's board before the
    // first tile is drawn). Each model once said "no solution": the route model's "the first
    // move is a free pair" was the empty clause, and the position graph had no goal.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("empty.shisen");
    std::fs::write(&f, "....\n....\n").unwrap();
    let f = f.to_str().unwrap();
    for rules in [
        vec![],
        vec!["--gravity"],
        vec!["--no-outline"],
        vec!["--chinese"],
    ] {
        let out = gridsat()
            .args(["solve", "--json", f])
            .args(&rules)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{rules:?}");
        let a = &json_lines(&out.stdout)[0];
        assert_eq!(a["status"], "unique", "{rules:?}: {a}");
        assert_eq!(a["moves"], serde_json::json!([]), "{rules:?}: {a}");
        gridsat()
            .args(["count", "--max", "3", f])
            .args(&rules)
            .assert()
            .code(0)
            .stdout(predicate::str::contains(": 1 solution"));
    }
}

#[test]
fn a_unique_pairing_and_several() {
    gridsat()
        .args(["check", &path("nikakudori-4x4.shisen")])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "(shisen 4x4, 16 tiles, 4 kinds, no outline): unique",
        ));
    gridsat()
        .args(["count", "--max", "5", &path("nikakudori-4x4.shisen")])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(": 1 solution"));
    // A deal has many pairings: two that differ, and the tiles paired otherwise.
    let out = gridsat()
        .args(["check", "--json", &path("kshisen-14x6.shisen")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let a = &json_lines(&out.stdout)[0];
    assert_eq!(a["status"], "multiple");
    let cells = a["differing_cells"].as_array().unwrap();
    assert!(cells.len() >= 3, "{a}");
    gridsat()
        .args(["count", "--max", "3", &path("kshisen-14x6.shisen")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("at least 3 solutions"));
}

#[test]
fn gravity_and_chinese_rules() {
    // Gravity: the plan goes through the rule checker, which lets the tiles fall.
    let p = read("gravity-8x4.shisen").remove(0);
    assert!(p.rules.gravity);
    let plan = puzzle::solve(&p, &SolverChoice::Embedded).unwrap().unwrap();
    assert_eq!(p.check(&plan), Ok(()));
    gridsat()
        .args(["solve", "--no-unique", &path("gravity-8x4.shisen")])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "8x4, 32 tiles, 8 kinds, gravity): solved",
        ));
    // A board without gravity may not be read with it when a tile floats.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("float.shisen");
    std::fs::write(&f, "A .\nA B\n. B\n").unwrap();
    gridsat()
        .args(["check", "--gravity", f.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(":2:1:"))
        .stderr(predicate::str::contains("above the empty r3c1"));
    // Chinese: the seasons and the flowers match within their group, named or drawn.
    for name in ["chinese-6x4.shisen", "mahjong.shisen"] {
        let out = gridsat()
            .args(["solve", "--no-unique", "--json", &path(name)])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}");
        let a = &json_lines(&out.stdout)[0];
        let moves = a["moves"].as_array().unwrap();
        assert!(
            moves
                .iter()
                .any(|m| m["face"].as_str().unwrap().starts_with('S')
                    || m["face"] == "🀦"
                    || m["face"] == "🀧"),
            "{name}"
        );
    }
    // Without the rule, one season of each name is an odd count.
    let text = std::fs::read_to_string(path("chinese-6x4.shisen")).unwrap();
    let f = dir.path().join("plain.shisen");
    std::fs::write(&f, text.replace("# shisen: chinese\n", "")).unwrap();
    gridsat()
        .args(["check", f.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("appears once"));
    gridsat()
        .args(["solve", "--no-unique", "--chinese", f.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("chinese): solved"));
}

#[test]
fn greedy_never_clears_what_gridsat_calls_stuck() {
    // KShisen's check (play the first pair found) against the verdict, on every board here.
    let mut fooled = 0;
    for f in common::puzzle_files("shisen") {
        let text = std::fs::read_to_string(&f).unwrap();
        for p in format::parse("t", &text, &ReadOptions::default()).unwrap() {
            let cleared = puzzle::solve(&p, &SolverChoice::Embedded)
                .unwrap()
                .is_some();
            let g = greedy(&p).cleared;
            assert!(
                cleared || !g,
                "{}: greedy clears a stuck board",
                f.display()
            );
            fooled += usize::from(cleared && !g);
        }
    }
    // The 18x8 deal of seed 3 is one KShisen would call unsolvable and reshuffle.
    assert!(!greedy(&read("kshisen-18x8.shisen")[0]).cleared);
    assert!(fooled >= 1);
}

#[test]
fn hint_explain_and_grade() {
    gridsat()
        .args(["hint", &path("kshisen-14x6.shisen")])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "free move: P r1c1-r1c7; none of the 9 playable moves loses",
        ));
    let out = gridsat()
        .args(["explain", &path("kshisen-14x6.shisen")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("  42. "), "{text}");
    // A safe move: some playable move loses here, and the one played does not.
    let out = gridsat()
        .args(["explain", &path("chinese-6x4.shisen")])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.lines()
            .any(|l| l.contains("safe move:") && l.contains("playable moves lose")),
        "{text}"
    );
    gridsat()
        .args(["grade", &path("kshisen-14x6.shisen")])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(": hard (rating 5.4"));
    gridsat()
        .args(["hint", &path("stuck.shisen")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("no solution"));
}

#[test]
fn dimacs_and_decode_with_the_embedded_sat_solver() {
    let dir = tempfile::tempdir().unwrap();
    for (name, sat) in [("nikakudori-4x4.shisen", true), ("stuck.shisen", false)] {
        let cnf = dir.path().join("p.cnf");
        let out = gridsat().args(["dimacs", &path(name)]).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        std::fs::write(&cnf, &out.stdout).unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("c kind: shisen"));
        let ans = dir.path().join("p.ans");
        let out = gridsat()
            .args(["sat", cnf.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(if sat { 10 } else { 20 }), "{name}");
        std::fs::write(&ans, &out.stdout).unwrap();
        let d = gridsat()
            .args(["decode", &path(name), ans.to_str().unwrap()])
            .assert();
        if sat {
            d.code(0).stdout(predicate::str::contains("move 8:"));
        } else {
            d.code(1).stdout(predicate::str::contains("no solution"));
        }
    }
}

#[test]
fn generate_is_seeded_and_proven_clearable() {
    let run = |args: &[&str]| {
        let out = gridsat().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let a = run(&["generate", "shisen", "--size", "14x6", "--seed", "3"]);
    assert_eq!(
        a,
        std::fs::read_to_string(path("deal-14x6-seed3.shisen")).unwrap()
    );
    let b = run(&["generate", "shisen", "--size", "16x9", "--seed", "7"]);
    let p = format::parse("g", &b, &ReadOptions::default())
        .unwrap()
        .remove(0);
    assert_eq!((p.width, p.height, p.class_count()), (16, 9, 36));
    assert!(puzzle::solve(&p, &SolverChoice::Embedded)
        .unwrap()
        .is_some());
    let u = run(&[
        "generate",
        "shisen",
        "--unique",
        "--no-outline",
        "--seed",
        "2",
    ]);
    assert_eq!(
        u,
        std::fs::read_to_string(path("deal-4x4-unique-seed2.shisen")).unwrap()
    );
    gridsat()
        .args(["generate", "shisen", "--size", "5x5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("can not be dealt"));
    gridsat()
        .args(["generate", "shisen", "--size", "8x8", "--symmetry", "none"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--symmetry is not available when generating shisen",
        ));
    gridsat()
        .args(["generate", "sudoku", "--size", "9x6"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("a Sudoku grid is square"));
}

#[test]
fn bad_input_names_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &str)] = &[
        ("A B\nA B B\n", ":2:5:", "ragged rows"),
        ("A A B\nB B C\n", ":2:3:", "`B` appears 3 times"),
        ("A A\nB x|\n", ":2:3:", "not a tile"),
        (
            "# shisen: sideways\nA A\n",
            ":1:11:",
            "unknown rule `sideways`",
        ),
        ("# only a comment\n", ":1:1:", "no board found"),
    ];
    for (k, (text, at, what)) in cases.iter().enumerate() {
        let f = dir.path().join(format!("bad{k}.shisen"));
        std::fs::write(&f, text).unwrap();
        for verb in ["solve", "check", "hint", "dimacs"] {
            gridsat()
                .args([verb, f.to_str().unwrap()])
                .assert()
                .code(2)
                .stderr(predicate::str::contains(format!("bad{k}.shisen{at}")))
                .stderr(predicate::str::contains(*what));
        }
    }
    // In a batch a bad board is one error record between the boards that read.
    let f = dir.path().join("mixed.shisen");
    std::fs::write(&f, "A A\n\nA B\nB\n\nB B\n").unwrap();
    let out = gridsat()
        .args(["check", "--json", f.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v = json_lines(&out.stdout);
    let status: Vec<&str> = v.iter().map(|a| a["status"].as_str().unwrap()).collect();
    assert_eq!(status, ["unique", "error", "unique"]);
    assert_eq!(
        (v[1]["line"].as_u64(), v[1]["col"].as_u64()),
        (Some(4), Some(2))
    );
}

#[test]
fn detected_by_content_and_by_kind_name() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("deal.txt");
    std::fs::copy(path("kshisen-14x6.shisen"), &f).unwrap();
    gridsat()
        .args(["check", f.to_str().unwrap()])
        .assert()
        .stdout(predicate::str::contains("(shisen 14x6"));
    for alias in ["lianliankan", "nikakudori", "onet"] {
        gridsat()
            .args(["check", "--kind", alias, &path("nikakudori-4x4.shisen")])
            .assert()
            .code(0);
    }
}

#[test]
fn proofs_name_the_kinds_that_conflict() {
    // The "none" proof is about the ranks model with one given per kind (the kinds the
    // verdict names); the "unique" proof excludes the pairing found.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    gridsat()
        .args([
            "check",
            "--proof",
            out,
            &path("stuck.shisen"),
            &path("nikakudori-4x4.shisen"),
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("these 2 givens conflict: A B"));
    for f in [
        "stuck-1.cnf",
        "stuck-1.drat",
        "stuck-2.drat",
        "nikakudori-4x4-1.solution",
    ] {
        assert!(dir.path().join(f).exists(), "{f}");
    }
    let cnf = std::fs::read_to_string(dir.path().join("stuck-1.cnf")).unwrap();
    assert!(cnf.contains("c given ") && cnf.contains(" A"), "{cnf}");
}
