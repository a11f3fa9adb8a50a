//! Sudoku's interchange formats on the project's own puzzles: the datasets' `quizzes,solutions`
//! CSV, 729-character pencil-mark (Sukaku) grids and HoDoKu library lines read back, pencil
//! marks that `hint` continues from, and `--format` writing solutions in the forms puzzles come in.

mod common;

use assert_cmd::Command;
use gridsat::explain::{Explain, ExplainOptions};
use gridsat::puzzle::{self, Solutions};
use gridsat::solver::SolverChoice;
use gridsat::sudoku::strategies::{grid::digits, Board};
use gridsat::sudoku::{format, Sudoku};
use predicates::prelude::*;
use predicates::str::contains;

fn gridsat() -> Command {
    Command::cargo_bin("gridsat").unwrap()
}

fn p(rel: &str) -> String {
    common::puzzle(&format!("sudoku/{rel}"))
        .display()
        .to_string()
}

fn stdout_of(args: &[&str]) -> String {
    let out = gridsat().args(args).output().expect("runs");
    String::from_utf8(out.stdout).expect("utf-8")
}

fn read(path: &str) -> Vec<Sudoku> {
    let text = std::fs::read_to_string(path).unwrap();
    format::parse(path, &text, Default::default()).unwrap()
}

/// A board's position as a 729-character Sukaku line: each cell's candidates in their places.
fn sukaku_line(b: &Board) -> String {
    let mut s = String::new();
    for i in 0..81 {
        let m = if b.values[i] != 0 {
            1u64 << (b.values[i] - 1)
        } else {
            b.masks[i]
        };
        for d in 1..=9u8 {
            s.push(if digits(m).any(|x| x == d) {
                (b'0' + d) as char
            } else {
                '.'
            });
        }
    }
    s
}

/// The same position as a HoDoKu library line: values (given or placed) and struck candidates.
fn hodoku_line(p: &Sudoku, b: &Board) -> String {
    let mut grid = String::new();
    for i in 0..81 {
        match (p.cells[i], b.values[i]) {
            (0, 0) => grid.push('.'),
            (0, v) => grid.push_str(&format!("+{v}")),
            (v, _) => grid.push((b'0' + v) as char),
        }
    }
    // Struck: candidates that no placed value in the cell's units removes.
    let after_values = Board::new(&Sudoku {
        cells: b.values.clone(),
        ..p.clone()
    });
    let mut struck = Vec::new();
    for i in 0..81 {
        if b.values[i] == 0 {
            for d in digits(after_values.masks[i] & !b.masks[i]) {
                struck.push(format!("{d}{}{}", i / 9 + 1, i % 9 + 1));
            }
        }
    }
    format!(":0000:x:{grid}:{}::", struck.join(" "))
}

#[test]
fn hint_continues_from_the_pencil_marks_a_person_left() {
    // The example's path: step 21 is a W-Wing that only eliminates. A person who made the first
    // 21 steps and saved the position gets step 22 as the next hint, not the W-Wing again.
    let puzzle = read(&p("explain-example.txt")).remove(0);
    let Solutions::Unique(solution) = puzzle::verdict(&puzzle, &SolverChoice::Embedded).unwrap()
    else {
        panic!("not unique");
    };
    let e = puzzle.explain(
        &solution,
        ExplainOptions {
            fallback: false,
            unique: true,
        },
    );
    assert!(e.steps[20].placements.is_empty() && e.steps[20].technique == "W-Wing");
    let position = |k: usize| {
        let mut b = Board::new(&puzzle);
        for s in &e.steps[..k] {
            b.apply(s);
        }
        b
    };
    for (k, file) in [
        (20, "explain-example-step20.sukaku"),
        (21, "explain-example-step21.sukaku"),
    ] {
        let b = position(k);
        let committed = std::fs::read_to_string(p(file)).unwrap();
        assert_eq!(
            committed.lines().find(|l| !l.starts_with('#')),
            Some(sukaku_line(&b).as_str()),
            "{file} is the position after {k} steps"
        );
        let hint = stdout_of(&["hint", &p(file)]);
        assert!(
            hint.ends_with(&format!("{}\n", e.steps[k].text)),
            "{file}: {hint}"
        );
        // The HoDoKu library line of that position reads the same, and so does its hint.
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("position.txt");
        std::fs::write(&lib, hodoku_line(&puzzle, &b)).unwrap();
        let from_lib = read(&lib.display().to_string()).remove(0);
        let from_sukaku = read(&p(file)).remove(0);
        assert_eq!(from_lib.cells, from_sukaku.cells);
        assert_eq!(
            Board::new(&from_lib).masks,
            Board::new(&from_sukaku).masks,
            "the same candidates"
        );
        let hint = stdout_of(&["hint", &lib.display().to_string()]);
        assert!(hint.ends_with(&format!("{}\n", e.steps[k].text)), "{hint}");
        // Explain from the position finishes the puzzle with the same solution.
        gridsat()
            .args(["explain", &p(file)])
            .assert()
            .code(0)
            .stdout(contains("solved in").and(contains("8 1 4 | 5 6 9 | 7 3 2")));
    }
}

#[test]
fn pencil_marks_that_lost_the_true_value_are_named_as_the_conflict() {
    // Strike the solution's 3 from r7c6 as well: no solution, and the conflict names the
    // pencil marks and givens that together leave none.
    let text = std::fs::read_to_string(p("explain-example-step21.sukaku")).unwrap();
    let line = text.lines().find(|l| !l.starts_with('#')).unwrap();
    let cell = 6 * 9 + 5; // r7c6
    let mut chars: Vec<char> = line.chars().collect();
    assert_eq!(chars[cell * 9 + 2], '3');
    chars[cell * 9 + 2] = '.';
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("lost.sukaku");
    std::fs::write(&f, chars.iter().collect::<String>()).unwrap();
    // r7c6 keeps only 1, so it holds 1, and every conflict found names it. Which minimal
    // conflict is found depends on the solver: varisat's names the mark struck from r2c6, the
    // default solver's ten givens alone.
    gridsat()
        .args(["check", &f.display().to_string()])
        .assert()
        .code(1)
        .stdout(contains("no solution").and(contains("r7c6=1")));
    gridsat()
        .args(["check", &f.display().to_string(), "--backend", "varisat"])
        .assert()
        .code(1)
        .stdout(
            contains("no solution")
                .and(contains("r7c6=1"))
                .and(contains("r2c6<>3")),
        );
    // A digit out of its place, and a cell left without candidates, are errors with columns.
    chars[2] = '4';
    std::fs::write(&f, chars.iter().collect::<String>()).unwrap();
    gridsat()
        .args(["check", &f.display().to_string()])
        .assert()
        .code(2)
        .stderr(contains("lost.sukaku:1:3: `4` in place 3 of r1c1"));
    let mut empty: Vec<char> = line.chars().collect();
    for c in &mut empty[9..18] {
        *c = '.';
    }
    std::fs::write(&f, empty.iter().collect::<String>()).unwrap();
    gridsat()
        .args(["check", &f.display().to_string()])
        .assert()
        .code(2)
        .stderr(contains("lost.sukaku:1:10: r1c2 has no candidate left"));
}

#[test]
fn the_datasets_csv_reads_and_solutions_write_back_in_the_puzzles_form() {
    // `--format csv` writes the datasets' form; reading it back gives the same puzzles, and
    // its solutions column is what `solve` finds.
    let csv = stdout_of(&["solve", "--format", "csv", &p("9x9.txt")]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "quizzes,solutions");
    let originals = read(&p("9x9.txt"));
    assert_eq!(lines.len(), originals.len() + 1);
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("dataset.csv");
    std::fs::write(&f, &csv).unwrap();
    let back = read(&f.display().to_string());
    assert_eq!(
        back.iter().map(|s| &s.cells).collect::<Vec<_>>(),
        originals.iter().map(|s| &s.cells).collect::<Vec<_>>()
    );
    let line_form = stdout_of(&["solve", "--format", "line", &p("9x9.txt")]);
    for (row, sol) in lines[1..].iter().zip(line_form.lines()) {
        let (quiz, solution) = row.split_once(',').unwrap();
        assert_eq!(quiz.len(), 81);
        assert_eq!(solution, sol, "the CSV and the line form agree");
        assert!(!sol.contains('.'), "solved");
    }
    // Another dataset's header order (id,puzzle,solution,...) and quoted fields.
    let first = &originals[0];
    let quiz: String = first.to_line();
    std::fs::write(
        &f,
        format!("id,puzzle,solution,clues,difficulty\n1,\"{quiz}\",,23,2.2\n"),
    )
    .unwrap();
    assert_eq!(read(&f.display().to_string())[0].cells, first.cells);
    // A short puzzle field: line and column of the field.
    std::fs::write(&f, format!("quizzes,solutions\n{},x\n", &quiz[..80])).unwrap();
    gridsat()
        .args(["check", &f.display().to_string()])
        .assert()
        .code(2)
        .stderr(contains(
            "dataset.csv:2:1: a one-line puzzle needs a square number of cells",
        ));
    std::fs::write(&f, format!("quizzes,solutions\n{}?,x\n", &quiz[..80])).unwrap();
    gridsat()
        .args(["check", &f.display().to_string()])
        .assert()
        .code(2)
        .stderr(contains(
            "dataset.csv:2:81: unexpected `?` in the puzzle field",
        ));
}

#[test]
fn every_write_format_reads_back_as_the_solved_puzzle() {
    for file in ["4x4.txt", "6x6.txt", "9x9.txt", "16x16.txt"] {
        let solved = stdout_of(&["solve", "--format", "line", &p(file)]);
        for fmt in ["line", "grid", "csv", "sukaku"] {
            let out = gridsat()
                .args(["solve", "--format", fmt, &p(file)])
                .output()
                .unwrap();
            if fmt == "sukaku" && !file.starts_with("9x9") {
                assert_eq!(out.status.code(), Some(2), "{file}");
                assert!(String::from_utf8_lossy(&out.stderr).contains("9x9 grids only"));
                continue;
            }
            assert_eq!(out.status.code(), Some(0), "{file} {fmt}");
            let dir = tempfile::tempdir().unwrap();
            let f = dir.path().join("out.txt");
            std::fs::write(&f, &out.stdout).unwrap();
            let back = stdout_of(&["solve", "--format", "line", &f.display().to_string()]);
            assert_eq!(back, solved, "{file} --format {fmt}");
        }
    }
    // A puzzle without a unique solution is written as given.
    let several = stdout_of(&["solve", "--format", "line", &p("several.txt")]);
    assert_eq!(several.trim(), read(&p("several.txt"))[0].to_line());
    gridsat()
        .args(["solve", "--format", "xml", &p("4x4.txt")])
        .assert()
        .code(2)
        .stderr(contains(
            "--format xml is not available for sudoku puzzles (sudoku: line, grid, csv, sukaku",
        ));
}
