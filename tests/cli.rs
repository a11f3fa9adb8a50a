//! The command line end to end on the project's own puzzles: every subcommand, every error
//! path, exit codes, JSON Lines fields, batch summaries, standard input, and the external-solver
//! backend (with `gridsat sat` as the solver, and small shell scripts as bad ones).

mod common;

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use std::path::Path;

fn gridsat() -> Command {
    let mut c = Command::cargo_bin("gridsat").expect("binary");
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn p(rel: &str) -> String {
    format!("puzzles/sudoku/{rel}")
}

fn stdout_of(args: &[&str]) -> String {
    let out = gridsat().args(args).output().expect("runs");
    String::from_utf8(out.stdout).expect("utf-8")
}

fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

/// `gridsat sat` as an external solver command.
fn self_solver() -> String {
    format!("{} sat", env!("CARGO_BIN_EXE_gridsat"))
}

/// A shell script in `dir` used as a bad external solver.
fn script(dir: &Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

#[test]
fn solve_prints_the_grid_and_says_unique() {
    gridsat()
        .args(["solve", &p("classic.txt")])
        .assert()
        .code(0)
        .stdout(contains("30 givens): unique"))
        .stdout(contains("5 3 4 | 6 7 8 | 9 1 2"));
}

#[test]
fn solve_json_lines_have_the_documented_fields() {
    let out = gridsat()
        .args(["solve", "--json", &p("9x9.txt")])
        .assert()
        .code(0)
        .stderr(contains("summary: 5 puzzles: 5 unique, 0 multiple, 0 none"))
        .get_output()
        .stdout
        .clone();
    let objs = json_lines(&String::from_utf8(out).unwrap());
    assert_eq!(objs.len(), 5);
    for (k, o) in objs.iter().enumerate() {
        assert_eq!(o["kind"], "sudoku");
        assert_eq!(o["status"], "unique");
        assert_eq!(o["index"], k + 1);
        assert!(o["time_ms"].as_f64().unwrap() >= 0.0);
        let rows = o["solution"].as_array().unwrap();
        assert_eq!(rows.len(), 9);
        for r in rows {
            let mut v: Vec<i64> = r
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap())
                .collect();
            v.sort();
            assert_eq!(v, (1..=9).collect::<Vec<_>>());
        }
    }
}

#[test]
fn solve_without_uniqueness_says_solved() {
    let out = stdout_of(&["solve", "--no-unique", "--json", &p("several.txt")]);
    let o = &json_lines(&out)[0];
    assert_eq!(o["status"], "solved");
    assert!(o["solution"].is_array());
}

#[test]
fn batch_text_output_ends_with_a_summary_line() {
    let out = stdout_of(&["solve", &p("4x4.txt")]);
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("summary: 3 puzzles: 3 unique, 0 multiple, 0 none in "),
        "{last}"
    );
    assert!(last.ends_with("puzzles/s)"), "{last}");
}

#[test]
fn several_files_and_standard_input() {
    let text = std::fs::read_to_string(common::puzzle("sudoku/classic.txt")).unwrap();
    gridsat()
        .args(["solve", "-", &p("8x8.txt")])
        .write_stdin(text)
        .assert()
        .code(0)
        .stdout(contains("<stdin> #1 (sudoku 9x9"))
        .stdout(contains("8x8.txt #2 (sudoku 8x8, boxes 2x4"))
        .stdout(contains("summary: 3 puzzles: 3 unique"));
}

#[test]
fn check_several_shows_two_solutions_where_they_differ_and_forced_cells() {
    gridsat()
        .args(["check", &p("several.txt"), "--forced"])
        .assert()
        .code(1)
        .stdout(contains("several solutions; two of them differ in"))
        .stdout(contains("forced cells ("))
        .stdout(contains("first solution:"))
        .stdout(contains("second solution:"));
    let o = &json_lines(&stdout_of(&[
        "check",
        "--json",
        "--forced",
        &p("several.txt"),
    ]))[0];
    assert_eq!(o["status"], "multiple");
    let (a, b) = (&o["solution"], &o["second_solution"]);
    let differ = o["differing_cells"].as_array().unwrap();
    assert!(!differ.is_empty());
    for cell in differ {
        let name = cell.as_str().unwrap();
        let (r, c) = name[1..].split_once('c').unwrap();
        let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
        assert_ne!(a[r - 1][c - 1], b[r - 1][c - 1], "{name}");
    }
    // Forced cells hold the same value in both solutions and are not givens.
    for f in o["forced_cells"].as_array().unwrap() {
        let f = f.as_str().unwrap();
        let (cell, v) = f.split_once('=').unwrap();
        let (r, c) = cell[1..].split_once('c').unwrap();
        let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
        let v: i64 = v.parse().unwrap();
        assert_eq!(a[r - 1][c - 1], v);
        assert_eq!(b[r - 1][c - 1], v);
    }
}

#[test]
fn check_none_names_the_conflicting_givens() {
    gridsat()
        .args(["check", &p("none.txt")])
        .assert()
        .code(1)
        .stdout(contains(
            "no solution; these 5 givens conflict: r1c5=6 r4c4=5 r5c4=8 r6c1=6 r8c6=6",
        ));
    let o = &json_lines(&stdout_of(&["solve", "--json", &p("none.txt")]))[0];
    assert_eq!(o["status"], "none");
    assert_eq!(o["conflicting_givens"].as_array().unwrap().len(), 5);
    assert!(
        o["solution"].is_null(),
        "solution is null, not missing: {o}"
    );
}

#[test]
fn check_unique_exits_zero_without_grids() {
    let out = stdout_of(&["check", &p("12x12.txt")]);
    assert!(out.contains("(sudoku 12x12, boxes 3x4, 48 givens): unique"));
    assert!(!out.contains('|'), "check prints no grid: {out}");
}

#[test]
fn count_counts_and_says_when_it_stopped() {
    gridsat()
        .args(["count", &p("several.txt"), "--max", "100"])
        .assert()
        .code(1)
        .stdout(contains("26 givens): 2 solutions"));
    gridsat()
        .args(["count", &p("several.txt"), "--max", "1"])
        .assert()
        .code(0)
        .stdout(contains(
            "at least 1 solution (counting stopped at --max 1)",
        ));
    let o = &json_lines(&stdout_of(&["count", "--json", &p("none.txt")]))[0];
    assert_eq!(o["status"], "none");
    assert_eq!(o["count"], 0);
}

#[test]
fn dimacs_full_and_folded_round_trip_through_decode() {
    // Puzzle 3: the one of the file that the folding (singles, locked candidates, pairs) does
    // not fill completely, so its folded model has variables (130).
    let dir = tempfile::tempdir().unwrap();
    for folded in [false, true] {
        let cnf = dir.path().join(format!("p{folded}.cnf"));
        let answer = dir.path().join(format!("p{folded}.ans"));
        let mut args = vec![
            "dimacs".to_string(),
            p("9x9.txt"),
            "--index".into(),
            "3".into(),
            "-o".into(),
            cnf.display().to_string(),
        ];
        if folded {
            args.push("--folded".into());
        }
        gridsat().args(&args).assert().code(0);
        let text = std::fs::read_to_string(&cnf).unwrap();
        assert!(text.starts_with("c gridsat DIMACS export\nc kind: sudoku\n"));
        assert!(text.contains("c var 1 r"), "variable map");
        assert_eq!(text.contains("c given "), !folded);
        let out = gridsat()
            .args(["sat", &cnf.display().to_string()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(10));
        std::fs::write(&answer, &out.stdout).unwrap();
        let mut dec = vec![
            "decode".to_string(),
            p("9x9.txt"),
            answer.display().to_string(),
            "--index".into(),
            "3".into(),
            "--json".into(),
        ];
        if folded {
            dec.push("--folded".into());
        }
        let decoded = gridsat().args(&dec).output().unwrap();
        assert_eq!(decoded.status.code(), Some(0), "{decoded:?}");
        let o = &json_lines(&String::from_utf8(decoded.stdout).unwrap())[0];
        let direct = &json_lines(&stdout_of(&["solve", "--json", &p("9x9.txt")]))[2];
        assert_eq!(o["solution"], direct["solution"]);
        assert_eq!(o["status"], "solved");
    }
}

#[test]
fn dimacs_is_never_empty_unless_asked_for_the_folded_form() {
    // An easy puzzle: the givens and their singles decide every cell, so the folded form is
    // empty; the default export is the full model with one unit clause per given.
    let full = stdout_of(&["dimacs", &p("classic.txt")]);
    assert!(full.contains("\np cnf 729 "), "{full}");
    assert_eq!(full.matches("\nc given ").count(), 30);
    let folded = stdout_of(&["dimacs", "--folded", &p("classic.txt")]);
    assert!(folded.contains("\np cnf 0 0\n"), "{folded}");
    assert!(folded.contains("the folded formula is empty"), "{folded}");
    // `--unfolded`, the option's old name, still means the default.
    assert_eq!(
        stdout_of(&["dimacs", "--unfolded", &p("classic.txt")]),
        full
    );
    gridsat()
        .args(["dimacs", "--folded", "--unfolded", &p("classic.txt")])
        .assert()
        .code(2);
}

#[test]
fn decode_refuses_a_mismatched_or_bad_answer() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("a.cnf");
    gridsat()
        .args(["dimacs", &p("9x9.txt"), "-o", &cnf.display().to_string()])
        .assert()
        .code(0);
    let ans = gridsat()
        .args(["sat", &cnf.display().to_string()])
        .output()
        .unwrap()
        .stdout;
    let answer = dir.path().join("a.ans");
    std::fs::write(&answer, &ans).unwrap();
    let answer = answer.display().to_string();
    // The answer to puzzle 1 read as puzzle 3's, or as the folded model's.
    gridsat()
        .args(["decode", &p("9x9.txt"), &answer, "--index", "3"])
        .assert()
        .code(2)
        .stderr(
            contains("does not satisfy clause")
                .or(contains("outside the formula"))
                .or(contains("does not keep the puzzle's givens")),
        );
    gridsat()
        .args(["decode", &p("9x9.txt"), &answer, "--folded", "--index", "3"])
        .assert()
        .code(2)
        .stderr(
            contains("was the CNF written by `gridsat dimacs`")
                .or(contains("is outside the formula's 130 variables")),
        );
    // Garbage, with line and column.
    let bad = dir.path().join("bad.ans");
    std::fs::write(&bad, "s SATISFIABLE\nv 1 two 0\n").unwrap();
    gridsat()
        .args(["decode", &p("9x9.txt"), &bad.display().to_string()])
        .assert()
        .code(2)
        .stderr(contains("bad.ans:2:5: `two` is not a literal"));
    // UNSAT answer: no solution, exit 1.
    let unsat = dir.path().join("unsat.ans");
    std::fs::write(&unsat, "s UNSATISFIABLE\n").unwrap();
    gridsat()
        .args(["decode", &p("9x9.txt"), &unsat.display().to_string()])
        .assert()
        .code(1)
        .stdout(contains("no solution"));
}

#[test]
fn sat_answers_like_a_competition_solver() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("u.cnf");
    std::fs::write(&f, "p cnf 1 2\n1 0\n-1 0\n").unwrap();
    gridsat()
        .args(["sat", &f.display().to_string()])
        .assert()
        .code(20)
        .stdout("s UNSATISFIABLE\n");
    gridsat()
        .args(["sat", "-"])
        .write_stdin("p cnf 2 1\n-1 2 0\n")
        .assert()
        .code(10)
        .stdout(contains("s SATISFIABLE\nv "));
    gridsat()
        .args(["sat", "-"])
        .write_stdin("p cnf 2 1\n1 x 0\n")
        .assert()
        .code(2)
        .stderr(contains("-:2:3: `x` is not a literal"));
}

#[test]
fn external_solver_gives_the_same_answers() {
    let solver = self_solver();
    for file in ["9x9.txt", "several.txt", "none.txt", "6x6.txt"] {
        let a = json_lines(&stdout_of(&["check", "--json", "--forced", &p(file)]));
        let b = json_lines(&stdout_of(&[
            "check",
            "--json",
            "--forced",
            "--solver",
            &solver,
            &p(file),
        ]));
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x["status"], y["status"], "{file}");
            if x["status"] == "unique" {
                assert_eq!(x["solution"], y["solution"], "{file}");
            }
            // Both name a minimal conflicting set (minimal sets need not be the same one: the
            // external backend reports every assumption as failed, so shrinking starts elsewhere).
            assert_eq!(
                x["conflicting_givens"].is_array(),
                y["conflicting_givens"].is_array(),
                "{file}"
            );
            assert_eq!(x["forced_cells"], y["forced_cells"], "{file}");
        }
    }
}

#[test]
fn external_solver_errors_are_clear() {
    let dir = tempfile::tempdir().unwrap();
    gridsat()
        .args(["solve", &p("9x9.txt"), "--solver", "no-such-solver-gridsat"])
        .assert()
        .code(2)
        .stderr(contains(
            "solver command `no-such-solver-gridsat` was not found",
        ));
    // A solver past the time limit: that puzzle is unknown (exit 1), and the batch goes on.
    let slow = script(dir.path(), "slow.sh", "sleep 5");
    let started = std::time::Instant::now();
    gridsat()
        .args([
            "solve",
            &p("9x9.txt"),
            "--solver",
            &slow,
            "--solver-timeout",
            "0.2",
        ])
        .assert()
        .code(1)
        .stdout(contains(
            "#5 (sudoku 9x9, boxes 3x3, 22 givens): unknown: no answer within the time limit (0.2 s;",
        ))
        .stdout(contains("summary: 5 puzzles: 0 unique, 0 multiple, 0 none, 5 unknown in"));
    assert!(
        started.elapsed().as_secs_f64() < 4.5,
        "the slow solver was not stopped"
    );
    let garbage = script(dir.path(), "garbage.sh", "echo hello; echo oops >&2");
    gridsat()
        .args(["solve", &p("9x9.txt"), "--solver", &garbage])
        .assert()
        .code(2)
        .stderr(contains("gave no usable answer"));
    let silent = script(dir.path(), "silent.sh", "echo oops >&2; exit 1");
    gridsat()
        .args(["solve", &p("9x9.txt"), "--solver", &silent])
        .assert()
        .code(2)
        .stderr(contains(
            "no `s SATISFIABLE` or `s UNSATISFIABLE` line (exit code 1); it said: oops",
        ));
    // A solver that claims SAT with a wrong model is caught.
    let liar = script(dir.path(), "liar.sh", "echo 's SATISFIABLE'; echo 'v 0'");
    gridsat()
        .args(["solve", &p("9x9.txt"), "--solver", &liar])
        .assert()
        .code(2)
        .stderr(contains("does not satisfy the formula"));
    gridsat()
        .args([
            "solve",
            &p("9x9.txt"),
            "--solver",
            "gridsat",
            "--solver-timeout=0",
        ])
        .assert()
        .code(2)
        .stderr(contains(
            "invalid value '0' for '--timeout <SECONDS>': must be more than 0 seconds",
        ));
    // `inf` would never fire: refused too.
    gridsat()
        .args(["solve", &p("9x9.txt"), "--solver-timeout", "inf"])
        .assert()
        .code(2)
        .stderr(contains("must be a finite number of seconds, got `inf`"));
}

#[test]
fn bad_input_names_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let f = dir.path().join(name);
        std::fs::write(&f, text).unwrap();
        f.display().to_string()
    };
    let classic = std::fs::read_to_string(common::puzzle("sudoku/classic.txt")).unwrap();
    let line = classic.trim();
    let cases = [
        (
            write("char.txt", &format!("# c\n{}?\n", &line[..80])),
            ":2:81: unexpected `?`",
        ),
        (
            write("short.txt", &format!("{line}\n{}\n", &line[..79])),
            ":2:1: a one-line puzzle needs a square number of cells",
        ),
        (
            write("repeat.txt", &format!("55{}\n", &line[2..])),
            ":1:2: given 5 at r1c2 repeats the 5 at r1c1 in row 1",
        ),
        (
            write("letter.txt", &format!("{}x\n", &line[..80])),
            ":1:81: `x` (value 33) is out of range for a 9x9 Sudoku",
        ),
        (write("empty.txt", "# nothing\n"), ":1:1: no puzzle found"),
        (
            write("rows.txt", "1 2 | . .\n. . | . .\n. . | .\n. . | . .\n"),
            ":3:1: this row has 3 cells but the first row of the grid has 4",
        ),
    ];
    for (file, message) in &cases {
        gridsat()
            .args(["solve", file])
            .assert()
            .code(2)
            .stderr(contains(format!("{file}{message}")));
    }
    // A bad puzzle in a batch is reported in its place, and the others are answered.
    let mixed = write("mixed.txt", &format!("{line}\n{}\n{line}\n", &line[..80]));
    gridsat()
        .args(["solve", &mixed])
        .assert()
        .code(2)
        .stdout(contains(
            "mixed.txt #1 (sudoku 9x9, boxes 3x3, 30 givens): unique",
        ))
        .stdout(contains(
            "mixed.txt #3 (sudoku 9x9, boxes 3x3, 30 givens): unique",
        ))
        .stdout(contains(
            "summary: 3 puzzles: 2 unique, 0 multiple, 0 none, 1 error in",
        ))
        .stderr(contains(
            "mixed.txt:2:1: a one-line puzzle needs a square number of cells",
        ));
    let out = gridsat()
        .args(["solve", "--json", &mixed, "no/such/file.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let objs = json_lines(&String::from_utf8(out.stdout).unwrap());
    let status: Vec<&str> = objs.iter().map(|o| o["status"].as_str().unwrap()).collect();
    assert_eq!(status, ["unique", "error", "unique", "error"]);
    assert_eq!(
        (
            objs[1]["index"].as_u64(),
            objs[1]["line"].as_u64(),
            objs[1]["col"].as_u64()
        ),
        (Some(2), Some(2), Some(1))
    );
    assert!(objs[3]["error"]
        .as_str()
        .unwrap()
        .contains("cannot read no/such/file.txt"));
}

#[test]
fn usage_errors_exit_two() {
    gridsat()
        .args(["solve", "no/such/file.txt"])
        .assert()
        .code(2)
        .stderr(contains("cannot read no/such/file.txt"));
    gridsat()
        .args(["count", "--max", "0", &p("classic.txt")])
        .assert()
        .code(2)
        .stderr(contains("must be at least 1"));
    // A line that is not text: its line and the column of its first byte that is not UTF-8.
    gridsat()
        .args(["solve", "-"])
        .write_stdin(b"53..7....\n6..1\xff95...\n".to_vec())
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("<stdin>:2:5: not text: byte 0xff is not UTF-8"));
    // A byte-order mark before the puzzle is not an error.
    let mut bom = "\u{feff}".as_bytes().to_vec();
    bom.extend(std::fs::read(p("classic.txt")).unwrap());
    gridsat()
        .args(["solve", "-"])
        .write_stdin(bom)
        .assert()
        .code(0)
        .stdout(contains("30 givens): unique"));
    gridsat()
        .args(["solve", "--kind", "chess", &p("classic.txt")])
        .assert()
        .code(2)
        .stderr(contains("unknown kind `chess`"));
    gridsat()
        .args(["solve", "--box", "3", &p("classic.txt")])
        .assert()
        .code(2)
        .stderr(contains("--box expects ROWSxCOLS like 2x3, got `3`"));
    gridsat()
        .args(["solve", "--box", "2x2", &p("classic.txt")])
        .assert()
        .code(2)
        .stderr(contains("boxes of 2x2 do not tile a 9x9 grid"));
    gridsat()
        .args(["dimacs", "--index", "9", &p("4x4.txt")])
        .assert()
        .code(2)
        .stderr(contains("holds 3 puzzles; --index 9 is out of range"));
    gridsat()
        .args(["decode", &p("4x4.txt"), "no-answer.txt"])
        .assert()
        .code(2)
        .stderr(contains("cannot read no-answer.txt"));
    gridsat().args(["solve"]).assert().code(2);
    gridsat().args(["frobnicate"]).assert().code(2);
    gridsat().arg("--help").assert().code(0);
}

#[test]
fn box_option_changes_the_rules() {
    // The 12x12 puzzle read with 2x6 boxes is another puzzle: its verdict changes or stays
    // consistent, but the description says which boxes were used.
    let out = stdout_of(&["check", "--box", "2x6", &p("12x12.txt")]);
    assert!(out.contains("boxes 2x6"), "{out}");
}

#[test]
fn explain_hint_and_grade_run_on_a_project_puzzle() {
    gridsat()
        .args(["hint", &p("classic.txt")])
        .assert()
        .code(0)
        .stdout(contains("r").and(contains("=")));
    gridsat()
        .args(["explain", &p("classic.txt")])
        .assert()
        .code(0)
        .stdout(contains("1. "));
    gridsat()
        .args(["grade", "--json", &p("classic.txt")])
        .assert()
        .code(0)
        .stdout(contains("\"kind\":\"sudoku\""));
}

#[test]
fn generate_errors_cleanly() {
    gridsat()
        .args(["generate", "chess"])
        .assert()
        .code(2)
        .stderr(contains("unknown kind `chess`"));
    gridsat()
        .args(["generate", "sudoku", "--count", "0"])
        .assert()
        .code(2)
        .stderr(contains(
            "invalid value '0' for '--count <COUNT>': must be at least 1",
        ));
}

#[test]
fn a_puzzle_singles_solve_folds_to_an_empty_formula_that_still_decodes() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("c.cnf").display().to_string();
    gridsat()
        .args(["dimacs", "--folded", &p("classic.txt"), "-o", &cnf])
        .assert()
        .code(0);
    assert!(std::fs::read_to_string(&cnf)
        .unwrap()
        .contains("\np cnf 0 0\n"));
    let ans = gridsat().args(["sat", &cnf]).output().unwrap();
    assert_eq!(ans.status.code(), Some(10));
    let answer = dir.path().join("c.ans");
    std::fs::write(&answer, &ans.stdout).unwrap();
    gridsat()
        .args([
            "decode",
            "--folded",
            &p("classic.txt"),
            &answer.display().to_string(),
        ])
        .assert()
        .code(0)
        .stdout(contains("5 3 4 | 6 7 8 | 9 1 2"));
    // A puzzle whose singles contradict each other folds to the empty clause; its full
    // model is unsatisfiable too.
    let none = dir.path().join("n.cnf").display().to_string();
    let path = p("none.txt");
    for form in ["--folded", "--unfolded"] {
        gridsat()
            .args(["dimacs", form, &path, "-o", &none])
            .assert()
            .code(0);
        gridsat().args(["sat", &none]).assert().code(20);
    }
}

#[test]
fn completions_and_manual_pages_come_from_the_argument_definitions() {
    let bash = stdout_of(&["completions", "bash"]);
    assert!(bash.contains("_gridsat()"), "{}", &bash[..200]);
    for word in [
        "solve",
        "generate",
        "--color",
        "--folded",
        "--no-distinct-lines",
    ] {
        assert!(bash.contains(word), "bash completion lacks {word}");
    }
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        assert!(
            stdout_of(&["completions", shell]).contains("solver-timeout"),
            "{shell}"
        );
    }
    gridsat()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(contains("possible values"));
    let page = stdout_of(&["man"]);
    assert!(page.contains(".TH gridsat 1"), "{}", &page[..200]);
    assert!(page.contains("Exit codes:"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man");
    gridsat()
        .args(["man", "--dir", &out.display().to_string()])
        .assert()
        .code(0);
    let solve = std::fs::read_to_string(out.join("gridsat-solve.1")).unwrap();
    assert!(solve.contains("\\-\\-no\\-unique") || solve.contains("no-unique"));
    assert!(out.join("gridsat.1").exists() && out.join("gridsat-generate.1").exists());
}

#[test]
fn help_and_man_name_every_kind_and_group_their_options() {
    let kinds = ["Sudoku", "Takuzu", "Tectonic", "Numberlink", "Shisen-sho"];
    let top = stdout_of(&["--help"]);
    let man = stdout_of(&["man"]).replace("\\-", "-");
    for kind in kinds {
        assert!(top.contains(kind), "--help does not name {kind}: {top}");
        assert!(man.contains(kind), "the manual page does not name {kind}");
    }
    for (args, headings) in [
        (&["generate", "--help"][..], &kinds[..]),
        // Tectonic has no option of its own when reading.
        (
            &["solve", "--help"][..],
            &["Sudoku", "Numberlink", "Takuzu", "Shisen-sho"][..],
        ),
        (
            &["check", "-h"][..],
            &["Sudoku", "Numberlink", "Takuzu", "Shisen-sho"][..],
        ),
    ] {
        let help = stdout_of(args);
        for kind in headings {
            assert!(
                help.contains(&format!("\n{kind} options:\n")),
                "{args:?} has no {kind} group: {help}"
            );
        }
        // The common options come first and hold no kind's option.
        let common = help
            .split("\nOptions:\n")
            .nth(1)
            .and_then(|rest| rest.split("\n\n").next())
            .unwrap_or_else(|| panic!("{args:?}: no Options: {help}"));
        for kind_option in [
            "--box",
            "--rules",
            "--odd-lines",
            "--no-outline",
            "--max-piece",
        ] {
            assert!(
                !common.contains(kind_option),
                "{args:?}: {kind_option} among the common options"
            );
        }
    }
}

#[test]
fn help_lists_the_exit_codes_and_color_is_checked() {
    for args in [&["--help"][..], &["solve", "--help"], &["hint", "-h"]] {
        let help = stdout_of(args);
        assert!(
            help.contains("Exit codes:") && help.contains("3  internal error"),
            "{args:?}: {help}"
        );
    }
    assert!(stdout_of(&["generate", "--help"]).contains("Exit codes: 0 every puzzle made"));
    gridsat()
        .args(["solve", "--color", "sometimes", &p("4x4.txt")])
        .assert()
        .code(2)
        .stderr(contains("possible values: auto, always, never"));
    // Colour on request even through a pipe; never, and auto off a terminal, draw plain text.
    let grids = |s: String| -> String {
        s.lines()
            .filter(|l| !l.starts_with("summary"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let always = stdout_of(&["solve", "--color", "always", &p("4x4.txt")]);
    assert!(always.contains("\u{1b}[36m"), "{always}");
    assert_eq!(
        grids(always.replace("\u{1b}[36m", "").replace("\u{1b}[0m", "")),
        grids(stdout_of(&["solve", "--color", "never", &p("4x4.txt")]))
    );
    let auto = gridsat()
        .args(["--color", "auto", "solve", &p("4x4.txt")])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&auto.stdout).contains('\u{1b}'));
}

#[test]
fn generate_writes_solutions_and_formats_for_every_kind() {
    let dir = tempfile::tempdir().unwrap();
    let save = |name: &str, text: &str| {
        let f = dir.path().join(name);
        std::fs::write(&f, text).unwrap();
        f.display().to_string()
    };
    // Sudoku: the solution as a comment line after the puzzle, which still reads as a puzzle.
    let text = stdout_of(&["generate", "sudoku", "--seed", "3", "--with-solution"]);
    let solution = text
        .lines()
        .find_map(|l| l.strip_prefix("# solution: "))
        .expect("a solution line");
    let f = save("s.txt", &text);
    assert_eq!(
        stdout_of(&["solve", "--format", "line", &f]).trim(),
        solution
    );
    // CSV: the datasets' two columns, read back as the same puzzles.
    let csv = stdout_of(&[
        "generate",
        "sudoku",
        "--seed",
        "3",
        "--count",
        "2",
        "--format",
        "csv",
        "--with-solution",
    ]);
    let f = save("s.csv", &csv);
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "quizzes,solutions");
    assert_eq!(rows.len(), 3);
    let solved = stdout_of(&["solve", "--format", "csv", &f]);
    assert_eq!(solved, csv, "the solutions column is what solve finds");
    // Every kind writes its formats, each readable again as the same puzzle.
    for (kind, format, size) in [
        ("takuzu", "line", "6"),
        ("tectonic", "url", "5"),
        ("numberlink", "url", "5"),
        ("numberlink", "contest", "5"),
        ("sudoku", "url", "6"),
    ] {
        let text = stdout_of(&[
            "generate", kind, "--size", size, "--seed", "4", "--format", format,
        ]);
        assert!(
            text.starts_with(&format!("# gridsat {kind} seed 4")),
            "{text}"
        );
        let f = save("g.txt", &text);
        let out = gridsat()
            .args(["check", "--kind", kind, &f])
            .output()
            .unwrap();
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("unique"),
            "{kind} --format {format}: {text} {out:?}"
        );
    }
    // JSON carries the solution rows.
    let o = &json_lines(&stdout_of(&[
        "generate",
        "tectonic",
        "--size",
        "5",
        "--seed",
        "2",
        "--with-solution",
        "--json",
    ]))[0];
    assert_eq!(o["solution"].as_array().map(|r| r.len()), Some(5));
    // What a kind cannot write is refused before anything is generated.
    for (args, want) in [
        (
            &["generate", "takuzu", "--format", "xml"][..],
            "--format xml is not available for takuzu puzzles",
        ),
        (
            &["generate", "tectonic", "--format", "xml", "--with-solution"],
            "FWieP XML has no place for a solution",
        ),
        (
            &["generate", "sudoku", "--format", "url", "--json"],
            "--format and --json do not go together",
        ),
    ] {
        gridsat()
            .args(args)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(contains(want));
    }
}

#[test]
fn generated_files_read_back_as_so_many_puzzles_for_every_kind() {
    // `generate --count 3 > FILE` then `check FILE`: three puzzles, not one grid of three
    // stacked boards (a Numberlink or Shisen-sho board has no size line to part them), and with
    // `--with-solution` a Shisen-sho deal (clearable, not unique) gets one of its clearings.
    let dir = tempfile::tempdir().unwrap();
    for kind in ["sudoku", "takuzu", "tectonic", "numberlink", "shisen"] {
        for extra in [&[][..], &["--with-solution"][..]] {
            let mut args = vec!["generate", kind, "--count", "3", "--seed", "5"];
            args.extend(extra);
            let text = stdout_of(&args);
            let f = dir.path().join(format!("{kind}.txt"));
            std::fs::write(&f, &text).unwrap();
            let out = gridsat()
                .args(["check", "--json", "--no-progress"])
                .arg(&f)
                .output()
                .unwrap();
            let reports = json_lines(&String::from_utf8_lossy(&out.stdout));
            assert_eq!(reports.len(), 3, "{kind} {extra:?}: {text}\n{out:?}");
            for r in &reports {
                assert_eq!(r["kind"], kind, "{kind} {extra:?}: {r}");
                let want: &[&str] = if kind == "shisen" {
                    &["unique", "multiple"]
                } else {
                    &["unique"]
                };
                assert!(
                    want.contains(&r["status"].as_str().unwrap_or("")),
                    "{kind} {extra:?}: {r}"
                );
            }
        }
    }
}

#[test]
fn numberlink_files_keep_the_rules_they_were_generated_under() {
    let text = stdout_of(&[
        "generate",
        "numberlink",
        "--size",
        "5",
        "--seed",
        "9",
        "--rules",
        "nikoli",
    ]);
    assert!(text.contains("\n# numberlink: rules=nikoli\n"), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("n.txt");
    std::fs::write(&f, &text).unwrap();
    let f = f.display().to_string();
    gridsat()
        .args(["check", &f])
        .assert()
        .code(0)
        .stdout(contains("(numberlink 5x5, 4 paths, nikoli rules): unique"));
    // Told otherwise, the command line wins.
    gridsat()
        .args(["check", "--rules", "flow", &f])
        .assert()
        .stdout(contains("flow rules"));
    // A flow puzzle carries no directive: flow is the default.
    let flow = stdout_of(&["generate", "numberlink", "--size", "5", "--seed", "9"]);
    assert!(!flow.contains("# numberlink:"), "{flow}");
}

#[test]
fn interchange_forms_stream_a_bad_record_is_an_error_in_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let f = dir.path().join(name);
        std::fs::write(&f, text).unwrap();
        f.display().to_string()
    };
    let classic = std::fs::read_to_string(common::puzzle("sudoku/classic.txt")).unwrap();
    let quiz = classic.trim();
    // A CSV row, a HoDoKu line and a URL line that do not read: each is one error record, in
    // its place, and the puzzles around it are answered.
    let cases = [
        (
            write(
                "rows.csv",
                &format!("quizzes,solutions\n{quiz},\n{}?,\n{quiz},\n", &quiz[..80]),
            ),
            ":3:81: unexpected `?` in the puzzle field",
        ),
        (
            write(
                "library.txt",
                &format!(":0000:x:{quiz}:::\n:0000:x:{quiz}:5xy::\n:0000:x:{quiz}:::\n"),
            ),
            ":2:91: `5xy` is not a candidate",
        ),
        (
            write(
                "urls.txt",
                "https://puzz.link/p?sudoku/4/4/g1k23k3g\nhttps://puzz.link/p?nurikabe/5/5/g\nhttp://pzv.jp/p.html?numlin/5/5/1j2h3m1h2j3\n",
            ),
            ":2:21: gridsat does not read pzprjs's `nurikabe` puzzles",
        ),
    ];
    for (file, message) in &cases {
        let out = gridsat()
            .args(["check", "--json", "-j", "2", file])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{file}");
        let objs = json_lines(&String::from_utf8(out.stdout).unwrap());
        let status: Vec<&str> = objs.iter().map(|o| o["status"].as_str().unwrap()).collect();
        assert_eq!(status, ["unique", "error", "unique"], "{file}");
        let error = objs[1]["error"].as_str().unwrap();
        assert!(error.contains(&format!("{file}{message}")), "{error}");
    }
    // A Numberlink rule directive applies to the puzzles after it, read as they come.
    let f = write(
        "rules.nl",
        "AB\nAB\n\n# numberlink: rules=nikoli\nA.A\n\n# numberlink: rules=bad\nAB\nAB\n",
    );
    let out = gridsat().args(["check", "--json", &f]).output().unwrap();
    let objs = json_lines(&String::from_utf8(out.stdout).unwrap());
    let what: Vec<String> = objs
        .iter()
        .map(|o| {
            o["description"]
                .as_str()
                .unwrap_or(o["status"].as_str().unwrap())
                .to_string()
        })
        .collect();
    assert!(what[0].ends_with("flow rules"), "{what:?}");
    assert!(what[1].ends_with("nikoli rules"), "{what:?}");
    assert_eq!(what[2], "error", "{what:?}");
    assert!(what[3].ends_with("nikoli rules"), "{what:?}");
}

#[test]
fn generate_with_solutions_is_the_same_for_any_jobs() {
    let args = |j: &'static str| {
        [
            "generate",
            "sudoku",
            "--size",
            "6",
            "--count",
            "4",
            "--with-solution",
            "--no-progress",
            "-j",
            j,
        ]
    };
    let one = stdout_of(&args("1"));
    assert_eq!(one.matches("# solution: ").count(), 4, "{one}");
    assert_eq!(stdout_of(&args("3")), one);
}

#[test]
fn puzzles_typed_as_people_type_them() {
    let sudoku =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    // Piped in with no FILE named.
    gridsat()
        .arg("hint")
        .write_stdin(format!("{sudoku}\n"))
        .assert()
        .code(0)
        .stdout(contains("<stdin> #1").and(contains("hidden single")));
    // The puzzle itself as the argument.
    gridsat()
        .args(["check", sudoku])
        .assert()
        .code(0)
        .stdout(contains(format!("{sudoku} #1")).and(contains("unique")));
    // A name that is no file and no puzzle is still a missing file.
    gridsat()
        .args(["check", "no-such-file.txt"])
        .assert()
        .code(2)
        .stderr(contains("cannot read no-such-file.txt"));
}

#[test]
fn index_picks_one_puzzle_of_each_file_on_every_verb() {
    let file = p("explain-12x12.txt");
    for verb in ["solve", "check", "count", "hint", "grade"] {
        let out = stdout_of(&[verb, "--index", "2", &file]);
        assert!(out.contains("#2 ("), "{verb}: {out}");
        assert!(!out.contains("#1 ("), "{verb}: {out}");
    }
    gridsat()
        .args(["check", "--index", "3", &file])
        .assert()
        .code(2)
        .stderr(contains("holds 2 puzzles; --index 3 is out of range"));
    gridsat()
        .args(["check", "--index", "0", &file])
        .assert()
        .code(2);
}
