//! Takuzu end to end on the project's own puzzles (`puzzles/takuzu/`): every verb of the
//! command line, every collection form, the rule options, and every error path.

mod common;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn gridsat() -> Command {
    Command::cargo_bin("gridsat").expect("binary")
}

fn p(rel: &str) -> String {
    common::puzzle(&format!("takuzu/{rel}"))
        .to_string_lossy()
        .into_owned()
}

fn json_lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

const SOLUTION_6X6: &str =
    "0 0 1 1 0 1\n1 1 0 0 1 0\n0 0 1 0 1 1\n1 0 0 1 0 1\n0 1 1 0 1 0\n1 1 0 1 0 0\n";

#[test]
fn solve_prints_the_unique_solution() {
    gridsat()
        .args(["solve", &p("unique-6x6.takuzu")])
        .assert()
        .success()
        .stdout(predicate::str::contains("(takuzu 6x6, 8 givens): unique"))
        .stdout(predicate::str::contains(SOLUTION_6X6));
}

#[test]
fn every_collection_form_reads_the_same_puzzle() {
    for f in [
        "forms/oneline.takuzu",
        "forms/codec.takuzu",
        "forms/bars.takuzu",
        "forms/janko.takuzu",
        "forms/thilerion.json",
        "forms/records.jsonl",
    ] {
        let out = gridsat()
            .args(["solve", "--json", &p(f)])
            .output()
            .expect("runs");
        let first = &json_lines(&out.stdout)[0];
        assert_eq!(first["status"], "unique", "{f}");
        assert_eq!(first["kind"], "takuzu", "{f}");
        let rows: Vec<String> = first["solution"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r.as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect();
        assert_eq!(rows.concat(), SOLUTION_6X6, "{f}");
    }
}

#[test]
fn records_carry_their_own_rules() {
    let out = gridsat()
        .args(["check", "--json", &p("forms/records.jsonl")])
        .output()
        .expect("runs");
    let rs = json_lines(&out.stdout);
    assert_eq!(rs[0]["status"], "unique");
    // The second record turns the distinct-lines rule off: several solutions.
    assert_eq!(rs[1]["status"], "multiple");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn several_solutions_show_two_and_where() {
    gridsat()
        .args(["check", &p("several-6x6.takuzu")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "several solutions; two of them differ in 4 cells: r2c4 r2c5 r6c4 r6c5",
        ))
        .stdout(predicate::str::contains("second solution:"));
    gridsat()
        .args(["check", "--forced", &p("several-6x6.takuzu")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("forced cells (25):"));
    gridsat()
        .args(["count", &p("several-6x6.takuzu")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("2 solutions"));
}

#[test]
fn no_solution_names_the_conflicting_givens() {
    gridsat()
        .args(["check", &p("none-6x6.takuzu")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "no solution; these 4 givens conflict: r1c1=1 r1c3=1 r2c2=0 r3c2=0",
        ));
}

#[test]
fn distinct_lines_is_a_rule_that_can_be_turned_off() {
    let f = p("distinct-needed-6x6.takuzu");
    gridsat().args(["check", &f]).assert().success();
    gridsat()
        .args(["check", "--no-distinct-lines", &f])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "lines may repeat): several solutions",
        ));
    // `--distinct-lines` wins over a file that turns the rule off (janko's form does).
    gridsat()
        .args(["check", "--distinct-lines", &p("forms/janko.takuzu")])
        .assert()
        .success()
        .stdout(predicate::str::contains("8 givens): unique"));
    // Both encodings of the rule give the same answers.
    for enc in ["eager", "lazy"] {
        gridsat()
            .args(["check", "--distinct-encoding", enc, &f])
            .assert()
            .success();
    }
}

#[test]
fn odd_lines_rectangles_regions_and_big_grids() {
    // The odd 7x7 carries `# takuzu: odd-lines=ones`; the other readings change the answer.
    let odd = p("odd-7x7.takuzu");
    gridsat()
        .args(["check", &odd])
        .assert()
        .success()
        .stdout(predicate::str::contains("odd lines one more 1): unique"));
    let out = gridsat()
        .args(["check", "--odd-lines", "zeros", &odd])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let out = gridsat()
        .args(["solve", "--json", "--odd-lines", "either", &odd])
        .output()
        .unwrap();
    assert_ne!(json_lines(&out.stdout)[0]["status"], "none");
    for (f, desc) in [
        ("rect-10x6.takuzu", "10x6"),
        ("regions-4x6x6.takuzu", "regions 4x6x6"),
        ("gen-30x30.takuzu", "30x30"),
        ("gen-60x60.takuzu", "60x60"),
    ] {
        gridsat()
            .args(["check", &p(f)])
            .assert()
            .success()
            .stdout(predicate::str::contains(desc).and(predicate::str::contains("unique")));
    }
    // Without its regions the composite puzzle is a plain 12x12 with several solutions.
    gridsat()
        .args(["check", "--regions", "whole", &p("regions-4x6x6.takuzu")])
        .assert()
        .code(1);
}

#[test]
fn explain_hint_and_grade() {
    let f = p("unique-6x6.takuzu");
    gridsat()
        .args(["hint", &f])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "pairs and sandwiches: row 3: r3c3=1 (between the 0s at r3c2 and r3c4 goes a 1)",
        ));
    gridsat()
        .args(["explain", &f])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "solved in 26 steps; grade: medium",
        ))
        .stdout(predicate::str::contains(SOLUTION_6X6));
    let out = gridsat()
        .args(["grade", "--json", &p("levels-10x10.takuzu")])
        .output()
        .unwrap();
    let levels: Vec<String> = json_lines(&out.stdout)
        .iter()
        .map(|r| r["grade"]["level"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(levels, ["easy", "medium", "hard", "expert"]);
    // Every strategy shows up somewhere in the project's puzzles, named with its line.
    let out = gridsat()
        .args([
            "explain",
            "--json",
            &p("levels-10x10.takuzu"),
            &p("odd-7x7.takuzu"),
            &p("regions-4x6x6.takuzu"),
            &p("distinct-needed-6x6.takuzu"),
        ])
        .output()
        .unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for r in json_lines(&out.stdout) {
        assert_eq!(r["status"], "explained", "{r}");
        for s in r["steps"].as_array().unwrap() {
            seen.insert(s["technique"].as_str().unwrap().to_string());
            let text = s["text"].as_str().unwrap();
            assert!(
                text.starts_with("row ") || text.starts_with("column "),
                "{text}"
            );
        }
    }
    assert!(seen.contains("line completions"), "{seen:?}");
    assert!(seen.contains("counting"), "{seen:?}");
}

#[test]
fn fallback_finishes_what_the_strategies_cannot() {
    // The minimal 30x30 is beyond the five strategies.
    let f = p("gen-30x30.takuzu");
    gridsat()
        .args(["explain", &f])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("stuck after"));
    gridsat()
        .args(["explain", "--fallback", &f])
        .assert()
        .success()
        .stdout(predicate::str::contains("solver: "))
        .stdout(predicate::str::contains("grade: extreme"));
    gridsat()
        .args(["explain", &p("several-6x6.takuzu")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("several solutions"));
}

#[test]
fn generate_is_deterministic_and_reads_back() {
    let run = |args: &[&str]| {
        let out = gridsat().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let a = run(&[
        "generate",
        "takuzu",
        "--size",
        "8",
        "--difficulty",
        "hard",
        "--seed",
        "3",
    ]);
    assert_eq!(
        a,
        run(&[
            "generate",
            "takuzu",
            "--size",
            "8",
            "--difficulty",
            "hard",
            "--seed",
            "3"
        ])
    );
    assert!(a.starts_with("# gridsat takuzu seed 3 givens "));
    assert!(a.contains(" grade hard "), "{a}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.takuzu");
    let b = run(&[
        "generate", "takuzu", "--width", "9", "--height", "6", "--count", "2", "--seed", "5",
    ]);
    assert!(!b.contains("# takuzu:"), "default rules need no directive");
    std::fs::write(&file, &b).unwrap();
    let out = gridsat()
        .args(["check", "--json", file.to_str().unwrap()])
        .output()
        .unwrap();
    let rs = json_lines(&out.stdout);
    assert_eq!(rs.len(), 2);
    assert!(rs.iter().all(|r| r["status"] == "unique"));
    assert!(rs[0]["description"].as_str().unwrap().starts_with("9x6"));
    let j = run(&["generate", "takuzu", "--size", "6", "--json"]);
    let v: Value = serde_json::from_str(j.trim()).unwrap();
    assert_eq!(v["kind"], "takuzu");
    assert_eq!(v["rows"][0].as_array().unwrap().len(), 6);
}

#[test]
fn dimacs_and_decode_round_trip() {
    // The exported CNF holds every rule (distinct lines eagerly), so any DIMACS solver's answer
    // decodes to the solution; `--distinct-encoding lazy` leaves that rule to gridsat.
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("t.cnf");
    let ans = dir.path().join("t.ans");
    let f = p("unique-6x6.takuzu");
    gridsat()
        .args(["dimacs", "--folded", &f, "-o", cnf.to_str().unwrap()])
        .assert()
        .success();
    let text = std::fs::read_to_string(&cnf).unwrap();
    assert!(text.contains("c var 1 r1c2=1"), "{}", &text[..400]);
    assert!(text.contains("p cnf 228 695"));
    let out = gridsat()
        .args(["sat", cnf.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(10));
    std::fs::write(&ans, &out.stdout).unwrap();
    gridsat()
        .args(["decode", "--folded", &f, ans.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains(SOLUTION_6X6));
    let lazy = gridsat()
        .args(["dimacs", "--folded", "--distinct-encoding", "lazy", &f])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&lazy.stdout).contains("p cnf 128 467"));
}

#[test]
fn bad_input_names_file_line_and_column() {
    for (f, want) in [
        ("bad/wrong-char.takuzu", ":2:4: unexpected `x`"),
        ("bad/ragged.takuzu", ":3:6: a ragged row: 5 cells"),
        (
            "bad/three-in-a-row.takuzu",
            ":3:2: the givens already break a rule: three 0s side by side in row 3",
        ),
        (
            "bad/too-many.takuzu",
            ":1:6: the givens already break a rule: row 1 holds 4 0s",
        ),
        (
            "bad/equal-rows.takuzu",
            ":3:1: the givens already break a rule: rows 1 and 3 are equal",
        ),
    ] {
        gridsat()
            .args(["solve", &p(f)])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(want));
    }
    // Bad options are usage errors.
    for args in [
        vec!["--odd-lines", "two"],
        vec!["--distinct-encoding", "later"],
        vec!["--regions", "spiral"],
    ] {
        let mut cmd = gridsat();
        cmd.arg("check").args(&args).arg(p("unique-6x6.takuzu"));
        cmd.assert().code(2).stdout("");
    }
    gridsat()
        .args([
            "generate",
            "takuzu",
            "--size",
            "6",
            "--difficulty",
            "fiendish",
        ])
        .assert()
        .code(2);
}

#[test]
fn a_letter_among_open_marks_is_a_wrong_character_not_a_run() {
    // In the puzzle-binairo.com code `x` is a run of 24 open cells; a line that marks open
    // cells with `-` or `.` is not in that code, so the `x` is named where it stands.
    let line = format!("0-0-x{}\n", "-".repeat(31));
    let records = "{\"w\": 4, \"h\": 4, \"givens\": \"0.1..x..........\"}\n";
    let pretty = "{\n  \"w\": 4,\n  \"h\": 4,\n  \"givens\": \"0.1..x..........\"\n}\n";
    for (input, want) in [
        (
            line.as_str(),
            "<stdin>:1:5: unexpected `x`: expected `0`, `1` or `.`",
        ),
        (
            records,
            "<stdin>:1:34: unexpected `x`: expected `0`, `1` or `.`",
        ),
        (
            pretty,
            "<stdin>:4:19: unexpected `x`: expected `0`, `1` or `.`",
        ),
        // A grid row with open marks is a grid row, even when its letter would make a square.
        (
            ".a..\n....\n0...\n....\n",
            "<stdin>:1:2: unexpected `a`: expected `0`, `1` or `.`",
        ),
    ] {
        gridsat()
            .args(["solve", "--kind", "takuzu", "-"])
            .write_stdin(input)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(want));
    }
    // The code itself still reads: `e` is five open cells, `z` 26.
    gridsat()
        .args(["solve", "--kind", "takuzu", "-"])
        .write_stdin("1e0zc 0101\n")
        .assert()
        .stdout(predicate::str::contains("(takuzu 6x6, 2 givens)"));
}

#[test]
fn distinct_lines_and_no_distinct_lines_conflict() {
    for args in [
        ["--distinct-lines", "--no-distinct-lines"],
        ["--no-distinct-lines", "--distinct-lines"],
    ] {
        gridsat()
            .arg("check")
            .args(args)
            .arg(p("unique-6x6.takuzu"))
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("cannot be used with"));
    }
}

#[test]
fn counts_of_one_are_singular() {
    gridsat()
        .args(["check", "--kind", "takuzu", "-"])
        .write_stdin("1.\n..\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("(takuzu 2x2, 1 given): unique"));
    gridsat()
        .args(["explain", "--kind", "takuzu", "-"])
        .write_stdin("1.\n..\n")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "row 1: r1c2=0 (the line holds its only 1; the other open cell is a 0)",
        ));
    for (args, input, want) in [
        (
            vec![],
            "2 2\n1\n00\n",
            "<stdin>:2:2: a ragged row: 1 cell where the header says 2",
        ),
        (
            vec!["--odd-lines", "ones"],
            "0\n",
            "<stdin>:1:1: the givens already break a rule: row 1 holds one 0 but a line of 1 cell holds at most 0",
        ),
    ] {
        gridsat()
            .args(["check", "--kind", "takuzu"])
            .args(&args)
            .arg("-")
            .write_stdin(input)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(want));
    }
}
