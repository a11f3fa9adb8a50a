//! The embedded backends against each other: every puzzle of `puzzles/` gets the same verdict
//! (and the same solution when it is unique, the same conflicting givens when there is none)
//! with `--backend cadical` and `--backend auto` as with the default varisat; and the
//! `--backend`/`--budget` usage errors.
#![cfg(feature = "cadical")]

mod common;

use assert_cmd::Command;

#[test]
fn every_project_puzzle_gets_the_same_verdict_from_every_backend() {
    let mut puzzles = 0;
    let files = ["sudoku", "takuzu", "tectonic", "numberlink"].map(common::puzzle_files);
    for path in files.iter().flatten() {
        let file = path.to_str().unwrap();
        let (varisat, code) = common::check_json(file, &[]);
        if code == 2 {
            continue; // a file that needs options of its own (a CSV pair, a bad example)
        }
        for extra in [
            &["--backend", "cadical"][..],
            &["--backend", "auto", "--budget", "0"][..],
        ] {
            let (other, code2) = common::check_json(file, extra);
            assert_eq!(code, code2, "{file} {extra:?}: exit codes");
            assert_eq!(varisat.len(), other.len(), "{file} {extra:?}");
            for (a, b) in varisat.iter().zip(&other) {
                let what = format!("{file} #{} {extra:?}", a["index"]);
                assert_eq!(a["status"], b["status"], "{what}");
                match a["status"].as_str() {
                    Some("unique") => assert_eq!(a["solution"], b["solution"], "{what}"),
                    Some("multiple") => {
                        assert_ne!(b["solution"], b["second_solution"], "{what}")
                    }
                    _ => assert_eq!(
                        a["conflicting_givens"].as_array().map(|g| g.len()),
                        b["conflicting_givens"].as_array().map(|g| g.len()),
                        "{what}"
                    ),
                }
            }
        }
        puzzles += varisat.len();
    }
    assert!(puzzles > 100, "only {puzzles} puzzles compared");
}

#[test]
fn backend_usage_errors_exit_2_with_a_message() {
    let file = common::puzzle("sudoku/classic.txt");
    let file = file.to_str().unwrap();
    for (args, says) in [
        (&["--backend", "minisat"][..], "unknown --backend `minisat`"),
        (&["--budget", "2"][..], "--budget goes with --backend auto"),
        (
            &["--backend", "cadical", "--budget", "2"][..],
            "--budget goes with --backend auto",
        ),
        (
            &["--backend", "auto", "--budget=-1"][..],
            "invalid value '-1' for '--budget <SECONDS>': must be at least 0 seconds",
        ),
        (
            &["--backend", "cadical", "--solver", "cadical -q"][..],
            "give one",
        ),
    ] {
        let out = Command::cargo_bin("gridsat")
            .unwrap()
            .args(["solve", file])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn cadical_solves_and_proves_unique() {
    let file = common::puzzle("sudoku/classic.txt");
    let out = Command::cargo_bin("gridsat")
        .unwrap()
        .args(["solve", file.to_str().unwrap(), "--backend", "cadical"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stdout).unwrap().contains("unique"));
}
