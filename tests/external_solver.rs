//! The external-solver backend against a real SAT-competition solver (CaDiCaL, from Debian's
//! packages; `.ci/run` installs it, and these tests skip with a message without it): every
//! puzzle of `puzzles/` gets the same verdict with `--solver "cadical -q"` as with the
//! embedded solver, and the same solution when it is unique.

mod common;

use assert_cmd::Command;
use serde_json::Value;

/// The JSON lines and exit code of `gridsat check --json FILE [extra...]`.
fn check(file: &str, extra: &[&str]) -> (Vec<Value>, i32) {
    let out = Command::cargo_bin("gridsat")
        .unwrap()
        .args(["check", "--json", "--no-progress", file])
        .args(extra)
        .output()
        .unwrap();
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (lines, out.status.code().unwrap_or(-1))
}

#[test]
fn every_project_puzzle_gets_the_embedded_verdict_from_cadical() {
    let Some(solver) = common::cadical() else {
        return;
    };
    let mut puzzles = 0;
    for kind in ["sudoku", "takuzu", "tectonic", "numberlink"] {
        for path in common::puzzle_files(kind) {
            let file = path.to_str().unwrap();
            let (embedded, code) = check(file, &[]);
            if code == 2 {
                continue; // a file that needs options of its own (a CSV pair, a bad example)
            }
            let (external, code2) = check(file, &["--solver", &solver]);
            assert_eq!(code, code2, "{file}: exit codes");
            assert_eq!(embedded.len(), external.len(), "{file}");
            for (a, b) in embedded.iter().zip(&external) {
                let what = format!("{file} #{}", a["index"]);
                assert_eq!(a["status"], b["status"], "{what}");
                if a["status"] == "unique" {
                    assert_eq!(a["solution"], b["solution"], "{what}");
                }
                if a["status"] == "multiple" {
                    assert_ne!(b["solution"], b["second_solution"], "{what}");
                }
                puzzles += 1;
            }
        }
    }
    assert!(puzzles > 100, "only {puzzles} puzzles compared");
}
