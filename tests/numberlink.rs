//! Numberlink through the command line, on the project's own puzzles (`puzzles/numberlink/`):
//! every verb, every rule set, every format, and the error paths.

mod common;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn gridsat() -> Command {
    Command::cargo_bin("gridsat").expect("the gridsat binary")
}

fn puzzle(name: &str) -> String {
    common::puzzle(&format!("numberlink/{name}"))
        .to_string_lossy()
        .into_owned()
}

fn json_lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn solves_and_draws_a_flow_puzzle() {
    gridsat()
        .args(["solve", &puzzle("flow7.txt")])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "(numberlink 7x7, 7 paths, flow rules): unique",
        ))
        .stdout(predicate::str::contains("1 1 1 7 7 7 7   ┏━┓┏━━┓"));
}

#[test]
fn letters_keep_their_labels_and_are_detected_by_extension() {
    gridsat()
        .args(["solve", &puzzle("letters.flow")])
        .assert()
        .success()
        .stdout(predicate::str::contains("unique"))
        .stdout(predicate::str::contains("BBBBB   ╺━━━╸"));
}

#[test]
fn json_gives_path_numbers_and_each_path_end_to_end() {
    let out = gridsat()
        .args(["solve", "--json", &puzzle("flow7.txt")])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let r = &json_lines(&out)[0];
    assert_eq!(r["status"], "unique");
    let rows = r["solution"].as_array().unwrap();
    assert_eq!(rows.len(), 7);
    let paths = r["paths"].as_array().unwrap();
    assert_eq!(paths.len(), 7);
    let mut covered = 0;
    for p in paths {
        let n = p["number"].as_i64().unwrap();
        let cells = p["cells"].as_array().unwrap();
        covered += cells.len();
        for (i, c) in cells.iter().enumerate() {
            let (y, x) = (
                c[0].as_u64().unwrap() as usize,
                c[1].as_u64().unwrap() as usize,
            );
            assert_eq!(rows[y][x].as_i64().unwrap(), n, "cell on its path's number");
            if i > 0 {
                let (py, px) = (
                    cells[i - 1][0].as_u64().unwrap() as i64,
                    cells[i - 1][1].as_u64().unwrap() as i64,
                );
                assert_eq!(
                    (py - y as i64).abs() + (px - x as i64).abs(),
                    1,
                    "steps are orthogonal"
                );
            }
        }
    }
    assert_eq!(covered, 49, "flow covers every cell once");
}

#[test]
fn rule_sets_change_the_verdict() {
    let f = puzzle("rules.txt");
    gridsat()
        .args(["check", &f])
        .assert()
        .success()
        .stdout(predicate::str::contains("flow rules): unique"));
    gridsat()
        .args(["check", "--rules", "cover", &f])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("cover rules): several solutions"))
        .stdout(predicate::str::contains("second solution:"));
    gridsat()
        .args(["count", "--rules", "cover", &f])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("17 solutions"));
    gridsat()
        .args(["count", "--rules", "nikoli", &f])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("657 solutions"));
    gridsat()
        .args(["check", "--rules", "cover", "--forced", &f])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("forced cells"));
}

#[test]
fn a_collection_reports_unique_and_conflicting_paths() {
    gridsat()
        .args(["check", &puzzle("collection.txt")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("#1 (numberlink 5x5, 4 paths, flow rules): unique"))
        .stdout(predicate::str::contains(
            "#2 (numberlink 4x3, 2 paths, flow rules): no solution; these 3 givens conflict: covered A:r1c1-r3c1 B:r1c4-r3c4",
        ))
        .stdout(predicate::str::contains(
            "#3 (numberlink 3x3, 2 paths, flow rules): no solution; these 2 givens conflict: A:r1c2-r3c2 B:r2c1-r2c3",
        ))
        .stdout(predicate::str::contains("summary: 3 puzzles: 1 unique, 0 multiple, 2 none"));
}

#[test]
fn contest_form_gets_its_answer_written_back() {
    let f = puzzle("nikoli6.contest.txt");
    gridsat()
        .args(["solve", "--rules", "nikoli", &f])
        .assert()
        .success()
        .stdout(predicate::str::contains("nikoli rules): unique"))
        .stdout(predicate::str::contains("SIZE 6X6\n01,01,01,01,02,02\n"));
    let out = gridsat()
        .args(["solve", "--rules", "nikoli", "--json", &f])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let r = &json_lines(&out)[0];
    assert!(r["answer"].as_str().unwrap().starts_with("SIZE 6X6\n"));
    // The same puzzle as a number grid (detected by content) has the same solution.
    let out2 = gridsat()
        .args([
            "solve",
            "--rules",
            "nikoli",
            "--json",
            &puzzle("nikoli6.txt"),
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(json_lines(&out2)[0]["solution"], r["solution"]);
}

#[test]
fn explain_hint_and_grade() {
    let f = puzzle("flow7.txt");
    gridsat()
        .args(["explain", &f])
        .assert()
        .success()
        .stdout(predicate::str::contains("only way on"))
        .stdout(predicate::str::contains("solved in"));
    gridsat()
        .args(["hint", &f])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "same path side by side: r6c2 and r7c2 are both on path 6",
        ));
    gridsat()
        .args(["grade", "--json", &f])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"status\":\"graded\""));
    // Without --fallback a hard puzzle may get stuck; with it, it is solved and every
    // solver step is labelled as such.
    let out = gridsat()
        .args(["explain", "--fallback", "--json", &puzzle("rules.txt")])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let r = &json_lines(&out)[0];
    assert_eq!(r["status"], "explained");
    assert!(r["steps"].as_array().unwrap().len() >= 10);
    gridsat()
        .args(["explain", &puzzle("collection.txt")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "no solution, so nothing to explain",
        ));
}

#[test]
fn generate_is_seeded_and_unique() {
    let run = || {
        gridsat()
            .args([
                "generate",
                "numberlink",
                "--width",
                "7",
                "--height",
                "5",
                "--seed",
                "4",
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let a = run();
    assert_eq!(a, run(), "same seed, same puzzle");
    let text = String::from_utf8(a).unwrap();
    assert!(text.starts_with("# gridsat numberlink seed 4 givens"));
    gridsat()
        .args(["check", "--kind", "numberlink", "-"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout(predicate::str::contains("(numberlink 7x5,"))
        .stdout(predicate::str::contains("unique"));
    gridsat()
        .args([
            "generate",
            "numberlink",
            "--size",
            "5",
            "--rules",
            "nikoli",
            "--json",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("unique under nikoli rules"));
    gridsat()
        .args(["generate", "numberlink", "--size", "31"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("2x2 to 30x30"));
}

#[test]
fn generated_puzzles_are_finished_by_the_techniques_at_the_level_asked() {
    let levels = |args: &[&str]| -> Vec<(String, bool)> {
        let mut all = vec!["generate", "numberlink", "--count", "6", "--json"];
        all.extend(args);
        let out = gridsat()
            .args(&all)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        json_lines(&out)
            .iter()
            .map(|g| {
                let solver = g["grade"]["techniques"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|t| t[0] == "solver");
                (g["grade"]["level"].as_str().unwrap().to_string(), solver)
            })
            .collect()
    };
    // By default every puzzle is finished by the techniques, under every rule set.
    for rules in ["flow", "cover", "nikoli"] {
        let made = levels(&["--rules", rules]);
        assert!(made.iter().all(|(_, solver)| !solver), "{rules}: {made:?}");
    }
    for level in ["easy", "medium", "expert"] {
        let made = levels(&["--size", "8", "--difficulty", level]);
        assert!(
            made.iter().all(|(l, solver)| l == level && !solver),
            "{level}: {made:?}"
        );
    }
    // `any` keeps every unique puzzle; an unknown word is refused.
    levels(&["--difficulty", "any"]);
    gridsat()
        .args(["generate", "numberlink", "--difficulty", "evil"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "unknown difficulty `evil`: expected any, easy",
        ));
}

#[test]
fn a_what_if_is_explained_and_its_links_listed() {
    let out = gridsat()
        .args(["explain", "--json", &puzzle("whatif8.txt")])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let r = &json_lines(&out)[0];
    assert_eq!(r["status"], "explained");
    assert_eq!(r["grade"]["level"], "expert");
    let steps = r["steps"].as_array().unwrap();
    let what_if = steps.iter().find(|s| s["technique"] == "what if").unwrap();
    assert!(what_if["text"].as_str().unwrap().starts_with("what if r"));
    assert!(!what_if["pattern"].as_array().unwrap().is_empty());
    // Steps that draw links list them, each end with its path's number (or 0).
    let link = steps
        .iter()
        .find(|s| s["technique"] == "only way on")
        .unwrap();
    assert_eq!(link["links"].as_array().unwrap().len(), 1);
    assert!(steps.iter().all(|s| s["technique"] != "solver"));
}

#[test]
fn dimacs_with_exact_loops_round_trips_through_an_external_answer() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("p.cnf");
    let ans = dir.path().join("p.ans");
    let f = puzzle("letters.flow");
    gridsat()
        .args([
            "dimacs",
            "--loops",
            "exact",
            &f,
            "-o",
            cnf.to_str().unwrap(),
        ])
        .assert()
        .success();
    let out = gridsat()
        .args(["sat", cnf.to_str().unwrap()])
        .assert()
        .code(10)
        .get_output()
        .stdout
        .clone();
    std::fs::write(&ans, out).unwrap();
    gridsat()
        .args(["decode", "--loops", "exact", &f, ans.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("BBBBB   ╺━━━╸"));
    // The external-solver path, with lazy loop cuts on top of it.
    let solver = format!("{} sat", env!("CARGO_BIN_EXE_gridsat"));
    gridsat()
        .args(["solve", "--solver", &solver, &f])
        .assert()
        .success()
        .stdout(predicate::str::contains("unique"));
}

fn bad(text: &str, want: &str) {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.nl");
    std::fs::write(&f, text).unwrap();
    gridsat()
        .args(["solve", f.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains(want));
}

/// A file whose kind is only guessed from its content: a `W H` file is Numberlink even with a
/// mistake in it, and an error after a guess says what was guessed and how to choose.
#[test]
fn a_guessed_kind_is_named_in_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("board.txt");
    std::fs::write(&f, "3 2\nA.A\nB.C\n").unwrap();
    gridsat()
        .args(["solve", f.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "board.txt:3:1: `B` appears only once",
        ))
        .stderr(predicate::str::contains(
            "read as numberlink because of its content",
        ));
    std::fs::write(&f, "1 0 0\n0 2 0\n0 0 1\n").unwrap();
    gridsat()
        .args(["solve", f.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("read as sudoku because of its content; for a takuzu, tectonic, numberlink or shisen puzzle, name the kind with --kind"));
    gridsat()
        .args(["solve", "--kind", "numberlink", f.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("`2` appears only once"))
        .stderr(predicate::str::contains("because of its content").not());
}

#[test]
fn bad_input_names_file_line_and_column() {
    bad("1 0 2\n0 0 1\n", "bad.nl:1:5: `2` appears only once");
    bad("1 0 1\n0 1 0\n", "bad.nl:2:3: `1` appears a third time");
    bad(
        "A..A\n...\n",
        "bad.nl:2:4: this row has 3 cells but the first row (line 1) has 4",
    );
    bad("1 0 x\n0 0 1\n", "bad.nl:1:5: unexpected `x`");
    bad(
        "3 2\nA.A\n",
        "bad.nl:1:1: the puzzle announced here (3x2) has only 1 rows",
    );
    bad(
        "SIZE 3X3\nLINE_NUM 1\nLINE#1 (0,0)-(3,0)\n",
        "bad.nl:3:14: (3,0) is outside",
    );
    bad(
        "SIZE 3X3\nLINE_NUM 2\nLINE#1 (0,0)-(2,0)\n",
        "LINE_NUM says 2 lines",
    );
    bad(
        "SIZE 3X3\nLINE#1 (0,0)-(1,1)\nLINE#2 (1,1)-(2,2)\n",
        "already an end of LINE#1",
    );
    gridsat()
        .args(["solve", "--rules", "strict", &puzzle("flow7.txt")])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown --rules `strict`"));
    gridsat()
        .args(["solve", "--loops", "maybe", &puzzle("flow7.txt")])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown --loops `maybe`"));
}
