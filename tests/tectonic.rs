//! Tectonic end to end on the project's own puzzles (`puzzles/tectonic/`): every format reads
//! as the same puzzle, every verb of the command line, and every error path (exit code 2 with
//! file, line and column).

mod common;

use assert_cmd::Command;
use gridsat::puzzle::{self, Puzzle, Solutions};
use gridsat::solver::SolverChoice;
use gridsat::tectonic::{format, Filling, Tectonic};
use predicates::prelude::*;
use std::path::Path;

fn gridsat() -> Command {
    Command::cargo_bin("gridsat").unwrap()
}

fn path(name: &str) -> String {
    common::puzzle(&format!("tectonic/{name}"))
        .display()
        .to_string()
}

/// The puzzles of a file, with the layout beside it for a CSV board (the library reads no
/// files: the caller hands it the layout's text).
fn read(name: &str) -> Vec<Tectonic> {
    let p = path(name);
    let layout = format::csv::layout_path(&p).map(|l| format::csv::LayoutFile {
        file: l.display().to_string(),
        text: std::fs::read_to_string(&l).map_err(|e| e.to_string()),
    });
    let reader = format::Reader::new(&p).with_layout(layout);
    gridsat::records::read_all(reader, &std::fs::read_to_string(&p).unwrap()).unwrap()
}

fn stdout(cmd: &mut Command) -> String {
    String::from_utf8(cmd.output().unwrap().stdout).unwrap()
}

/// The solution rows of the one `--json` line.
fn json_solution(out: &str) -> Vec<Vec<i64>> {
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    serde_json::from_value(v["solution"].clone()).unwrap()
}

#[test]
fn every_format_reads_as_the_same_puzzle() {
    let first = read("first.tectonic").remove(0);
    let same = |t: &Tectonic| {
        assert_eq!((t.width, t.height), (first.width, first.height));
        assert_eq!(t.regions, first.regions);
        assert_eq!(t.givens, first.givens);
    };
    same(&read("first-sized.in")[0]);
    same(&read("board.first.csv")[0]);
    same(&read("batch.jsonl")[0]);
    same(&read("dataset.json")[0]);
    let large = read("large-pieces.tectonic").remove(0);
    let large_xml = read("large-pieces.xml").remove(0);
    assert_eq!(large_xml.regions, large.regions);
    assert_eq!(large_xml.givens, large.givens);
    assert_eq!(read("dataset.json")[1].givens, large.givens);
    assert!(large.givens.iter().any(|&v| v > 5));
    assert_eq!(read("batch.jsonl").len(), 3);
}

#[test]
fn verdicts_on_the_projects_puzzles() {
    let cases = [
        ("first.tectonic", "unique"),
        ("unique.xml", "unique"),
        ("large-pieces.tectonic", "unique"),
        ("hard-7x7.tectonic", "unique"),
        ("big-20x20.tectonic", "unique"),
        ("several.tectonic", "multiple"),
        ("none.tectonic", "none"),
    ];
    for (name, want) in cases {
        for t in read(name) {
            let got = match puzzle::verdict(&t, &SolverChoice::Embedded).unwrap() {
                Solutions::Unique(s) => {
                    assert_eq!(t.check(&s), Ok(()));
                    "unique"
                }
                Solutions::Multiple(a, b, _) => {
                    assert_eq!(t.check(&a), Ok(()));
                    assert_eq!(t.check(&b), Ok(()));
                    assert_ne!(a, b);
                    "multiple"
                }
                Solutions::None => "none",
            };
            assert_eq!(got, want, "{name}");
        }
    }
}

#[test]
fn solve_draws_pieces_and_the_json_solution_passes_the_rules() {
    let f = path("first.tectonic");
    gridsat()
        .args(["solve", &f])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "(tectonic 6x5, 6 pieces of up to 5 cells, 8 givens): unique",
        ))
        .stdout(predicate::str::contains("┏━━━━━━━━━━━━━━━┳"))
        .stdout(predicate::str::contains("┃ 5   4   2   1 ┃ 3   2 ┃"));
    let out = stdout(gridsat().args(["solve", &f, "--json"]));
    let rows = json_solution(&out);
    let t = read("first.tectonic").remove(0);
    let s = Filling(rows.iter().flatten().map(|&v| v as u8).collect());
    assert_eq!(t.check(&s), Ok(()));
    assert!(out.contains("\"status\":\"unique\""));
    // Every format on the command line gives that solution.
    for name in [
        "first-sized.in",
        "board.first.csv",
        "dataset.json",
        "batch.jsonl",
    ] {
        let out = stdout(gridsat().args(["solve", &path(name), "--json"]));
        assert_eq!(json_solution(&out), rows, "{name}");
    }
}

#[test]
fn solve_writes_the_solved_xml_back() {
    let out = gridsat()
        .args(["solve", &path("unique.xml"), "--format", "xml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let xml = String::from_utf8(out.stdout).unwrap();
    assert!(xml.starts_with("<?xml"));
    assert!(!xml.contains("Value=\"\""));
    assert!(String::from_utf8(out.stderr).unwrap().contains("unique"));
    let solved = format::xml::parse("solved", &xml).unwrap().remove(0);
    let t = read("unique.xml").remove(0);
    assert_eq!(solved.regions, t.regions);
    assert_eq!(solved.source, t.source);
    assert_eq!(t.check(&Filling(solved.givens.clone())), Ok(()));
    // Several files, and the text format: one document, puzzles in order.
    let out = stdout(gridsat().args([
        "solve",
        &path("first.tectonic"),
        &path("large-pieces.xml"),
        "--format",
        "text",
    ]));
    let back = format::grid::parse("out", &out).unwrap();
    assert_eq!(back.len(), 2);
    assert!(back.iter().all(|t| t.clue_count() == t.width * t.height));
    // A puzzle without a unique solution is written as given.
    let out = stdout(gridsat().args(["solve", &path("several.tectonic"), "--format", "xml"]));
    let back = format::xml::parse("out", &out).unwrap().remove(0);
    assert_eq!(back.givens, read("several.tectonic")[0].givens);
}

#[test]
fn check_and_count_show_several_solutions_and_conflicts() {
    gridsat()
        .args(["check", &path("several.tectonic"), "--forced"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "several solutions; two of them differ in",
        ))
        .stdout(predicate::str::contains("forced cells ("));
    gridsat()
        .args(["count", &path("several.tectonic")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("5 solutions"));
    gridsat()
        .args(["check", &path("none.tectonic")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "no solution; these 5 givens conflict: r3c6=2 r4c1=3 r4c4=1 r4c5=4 r5c3=5",
        ));
    gridsat()
        .args(["check", &path("batch.jsonl")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "summary: 3 puzzles: 2 unique, 1 multiple, 0 none",
        ));
}

#[test]
fn explain_hint_and_grade() {
    let f = path("first.tectonic");
    gridsat()
        .args(["explain", &f])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "1. hidden single: r5c2=4: the only place for 4 in piece 6",
        ))
        .stdout(predicate::str::contains("shared neighbour: the 1 of piece 3 is in r2c2 or r2c3; r1c3 touches both, so it is not 1"))
        .stdout(predicate::str::contains("solved in 28 steps; grade: expert"));
    gridsat()
        .args(["hint", &f])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("hidden single: r5c2=4"));
    gridsat()
        .args(["grade", &path("large-pieces.tectonic")])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("easy (rating 1.2"));
    let out = stdout(gridsat().args(["explain", &path("unique.xml"), "--json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "explained");
    assert!(v["steps"].as_array().unwrap().len() > 10);
    // Beyond the techniques: stuck, with the pencil marks drawn; --fallback finishes with SAT.
    let hard = path("hard-7x7.tectonic");
    gridsat()
        .args(["explain", &hard])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("stuck after"))
        .stdout(predicate::str::contains("12345"));
    gridsat()
        .args(["explain", &hard, "--fallback"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("solver: "))
        .stdout(predicate::str::contains("grade: extreme"));
    gridsat()
        .args(["explain", &path("several.tectonic")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("several solutions"));
}

#[test]
fn generate_is_seeded_unique_and_reads_back() {
    let run = |args: &[&str]| stdout(gridsat().args(args));
    let a = run(&["generate", "tectonic", "--size", "7", "--seed", "4"]);
    assert_eq!(
        a,
        run(&["generate", "tectonic", "--size", "7", "--seed", "4"])
    );
    assert_ne!(
        a,
        run(&["generate", "tectonic", "--size", "7", "--seed", "5"])
    );
    assert!(a.starts_with("# gridsat tectonic seed 4 givens "));
    // Straight back into gridsat through standard input (the kind is found from the content).
    gridsat()
        .args(["solve", "-"])
        .write_stdin(a)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("(tectonic 7x7"))
        .stdout(predicate::str::contains("unique"));
    // A batch, rectangular, large pieces; every puzzle unique.
    let batch = run(&[
        "generate",
        "tectonic",
        "--width",
        "9",
        "--height",
        "5",
        "--max-piece",
        "6",
        "--count",
        "3",
    ]);
    let ps = format::grid::parse("batch", &batch).unwrap();
    assert_eq!(ps.len(), 3);
    for t in &ps {
        assert_eq!((t.width, t.height), (9, 5));
        assert!(t.piece_sizes().iter().all(|&n| n <= 6));
        assert!(matches!(
            puzzle::verdict(t, &SolverChoice::Embedded).unwrap(),
            Solutions::Unique(_)
        ));
    }
    let xml = run(&[
        "generate", "tectonic", "--size", "6", "--count", "2", "--format", "xml",
    ]);
    let ps = format::xml::parse("x", &xml).unwrap();
    assert_eq!(ps.len(), 2);
    assert!(ps[0]
        .source
        .as_deref()
        .unwrap()
        .starts_with("gridsat tectonic seed 1"));
    let out = stdout(gridsat().args(["generate", "tectonic", "--size", "6", "--json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["kind"], "tectonic");
    assert!(v["grade"]["level"].is_string());
}

#[test]
fn generate_rejects_what_cannot_work() {
    for args in [
        vec!["generate", "tectonic", "--max-piece", "3"],
        vec!["generate", "tectonic", "--box", "2x3"],
        vec!["generate", "tectonic", "--difficulty", "impossible"],
        vec!["generate", "tectonic", "--format", "csv"],
    ] {
        gridsat()
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::is_empty().not());
    }
}

#[test]
fn dimacs_and_an_external_solver_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("t.cnf");
    let f = path("first.tectonic");
    gridsat()
        .args(["dimacs", &f, "-o", cnf.to_str().unwrap()])
        .assert()
        .code(0);
    let text = std::fs::read_to_string(&cnf).unwrap();
    assert!(text.contains("c kind: tectonic"));
    assert!(text.contains("c given "));
    let answer = gridsat()
        .args(["sat", cnf.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(answer.status.code(), Some(10));
    let ans = dir.path().join("t.ans");
    std::fs::write(&ans, &answer.stdout).unwrap();
    gridsat()
        .args(["decode", &f, ans.to_str().unwrap()])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("┃ 5   4   2   1 ┃ 3   2 ┃"));
    let bin = assert_cmd::cargo::cargo_bin("gridsat");
    gridsat()
        .args(["solve", &f, "--solver", &format!("{} sat", bin.display())])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("unique"));
}

/// Writes `text` to a file named `name` in a fresh directory and runs `gridsat solve` on it.
fn solve_file(name: &str, text: &str) -> (tempfile::TempDir, assert_cmd::assert::Assert) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    let a = gridsat().args(["solve", p.to_str().unwrap()]).assert();
    (dir, a)
}

fn fails(name: &str, text: &str, at: &str, message: &str) {
    let (_dir, a) = solve_file(name, text);
    a.code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains(format!("{name}:{at}: ")))
        .stderr(predicate::str::contains(message));
}

const XML_HEAD: &str = "<?xml version=\"1.0\"?>\n<Puzzles>\n  <Puzzle width=\"2\" height=\"2\">\n";

#[test]
fn bad_input_names_file_line_and_column() {
    let cells = |values: &[(&str, &str)]| {
        values
            .iter()
            .map(|(p, v)| format!("    <Cell PieceNumber=\"{p}\" Value=\"{v}\" />\n"))
            .collect::<String>()
    };
    let ok = [("1", ""), ("1", ""), ("1", ""), ("1", "")];
    // Cell count, malformed XML, a value too large, touching givens, a split piece.
    fails(
        "a.xml",
        &format!("{XML_HEAD}{}  </Puzzle>\n</Puzzles>\n", cells(&ok[..3])),
        "3:3",
        "needs 4 <Cell> elements, but it has 3",
    );
    fails(
        "b.xml",
        &format!("{XML_HEAD}{}</Puzzles>\n", cells(&ok)),
        "8:1",
        "malformed XML",
    );
    fails(
        "c.xml",
        &format!(
            "{XML_HEAD}{}  </Puzzle>\n</Puzzles>\n",
            cells(&[("1", ""), ("1", ""), ("2", "3"), ("1", "")])
        ),
        "6:5",
        "larger than its piece",
    );
    fails(
        "d.xml",
        &format!(
            "{XML_HEAD}{}  </Puzzle>\n</Puzzles>\n",
            cells(&[("1", "1"), ("2", ""), ("3", ""), ("4", "1")])
        ),
        "7:5",
        "touches the 1 at r1c1",
    );
    fails(
        "e.xml",
        &format!(
            "{XML_HEAD}{}  </Puzzle>\n</Puzzles>\n",
            cells(&[("1", ""), ("2", ""), ("2", ""), ("1", "")])
        ),
        "7:5",
        "piece 1 is not connected",
    );
    fails(
        "f.xml",
        &format!(
            "{XML_HEAD}{}  </Puzzle>\n</Puzzles>\n",
            cells(&[("1", "4"), ("1", "4"), ("1", ""), ("1", "")])
        ),
        "5:5",
        "repeats the 4 at r1c1 in piece 1",
    );
    // The text format.
    fails(
        "g.tectonic",
        "..\n.x\n\naa\nbb\n",
        "2:2",
        "unexpected `x` in the givens",
    );
    fails(
        "h.tectonic",
        "...\n...\n\naba\nccc\n",
        "4:3",
        "piece a is not connected",
    );
    fails("i.tectonic", "..\n..\n", "1:1", "no grid of pieces");
    fails(
        "j.suguru",
        "3.\n..\n\naa\nbb\n",
        "1:1",
        "larger than its piece",
    );
    // JSON Lines, and a CSV board without its layout.
    fails(
        "k.jsonl",
        "{\"w\": 2, \"h\": 1, \"regions\": [0], \"givens\": \"..\"}\n",
        "1:18",
        "\"regions\" has 1 entry, but a 2x1 puzzle has 2 cells",
    );
    fails("board.l.csv", "1,\n,\n", "1:1", "cannot read the layout");
    // The format's options do not fit other kinds, nor --json.
    gridsat()
        .args([
            "solve",
            &path("first.tectonic"),
            "--format",
            "xml",
            "--json",
        ])
        .assert()
        .code(2);
    gridsat()
        .args(["solve", &path("first.tectonic"), "--format", "docx"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--format docx is not available for tectonic puzzles",
        ))
        .stderr(predicate::str::contains("tectonic: xml, text, url"));
}

#[test]
fn the_kind_is_found_by_extension_content_or_flag() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(path("first.tectonic")).unwrap();
    for name in ["p.txt", "p.suguru", "p"] {
        let p = dir.path().join(name);
        std::fs::write(&p, &text).unwrap();
        gridsat()
            .args(["check", p.to_str().unwrap()])
            .assert()
            .code(0)
            .stdout(predicate::str::contains("(tectonic 6x5"));
    }
    let p = dir.path().join("p.dat");
    std::fs::write(&p, &text).unwrap();
    gridsat()
        .args(["check", p.to_str().unwrap(), "--kind", "suguru"])
        .assert()
        .code(0);
    assert!(Path::new(&path("first.tectonic")).exists());
}

#[test]
fn takuzu_records_with_regions_under_rules_are_not_tectonic() {
    use gridsat::kinds::detect;
    use gridsat::puzzle::Kind;
    let dir = tempfile::tempdir().unwrap();
    // A plain Takuzu record, then one whose rules name regions (as the corpus's
    // kennypassenier records do): only a Tectonic record has "regions" at the top.
    let plain = r#"{"set": "t", "id": "a", "w": 4, "h": 4, "rules": {"unique_lines": true}, "givens": "01.1101001101.01"}"#;
    let regions = r#"{"set": "t", "id": "b", "w": 4, "h": 4, "rules": {"unique_lines": true, "regions": [{"row": 0, "col": 0, "size": 4}]}, "givens": "0101101.0110.001"}"#;
    let tectonic = r#"{"set": "t", "id": "c", "w": 2, "h": 1, "regions": [0, 0], "givens": "1."}"#;
    for (name, text, kind, says) in [
        (
            "both.jsonl",
            format!("{plain}\n{regions}\n"),
            Kind::Takuzu,
            "2 unique",
        ),
        (
            "regions.jsonl",
            format!("{regions}\n"),
            Kind::Takuzu,
            "(takuzu 4x4",
        ),
        (
            "tectonic.jsonl",
            format!("{tectonic}\n"),
            Kind::Tectonic,
            "(tectonic 2x1",
        ),
    ] {
        let p = dir.path().join(name);
        std::fs::write(&p, &text).unwrap();
        let p = p.to_str().unwrap();
        assert_eq!(detect(p, &text, true), kind, "{name}");
        gridsat()
            .args(["check", "--no-progress", p])
            .assert()
            .code(0)
            .stdout(predicate::str::contains(says));
    }
}

/// A file cut off: the puzzles complete before the cut are answered, then the error at the end.
fn cut_off(name: &str, text: &str, at: &str, message: &str, answered: usize) {
    let (_dir, a) = solve_file(name, text);
    let out = a
        .code(2)
        .stderr(predicate::str::contains(format!("{name}:{at}: ")))
        .stderr(predicate::str::contains(message))
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert_eq!(out.matches("): unique").count(), answered, "{out}");
}

#[test]
fn a_truncated_xml_file_answers_its_whole_puzzles_and_is_an_error_at_its_end() {
    let whole = std::fs::read_to_string(path("unique.xml")).unwrap();
    let puzzle = &whole[whole.find("  <Puzzle ").unwrap()..whole.find("</Puzzles>").unwrap()];
    let two = whole.replace(puzzle, &format!("{puzzle}{puzzle}"));
    assert_eq!(format::xml::parse("two", &two).unwrap().len(), 2);
    // `text` up to the line of byte `at` (whole lines), and where its content ends: the
    // line:column just after its last character, which is where the error points.
    let cut_at = |text: &str, at: usize| {
        let cut = text[..at][..text[..at].rfind('\n').unwrap() + 1].to_string();
        let content = cut.trim_end();
        let end = format!(
            "{}:{}",
            content.lines().count(),
            content.lines().last().unwrap().chars().count() + 1
        );
        (cut, end)
    };
    let line_of = |text: &str, at: usize| text[..at].lines().count() + 1;
    // Cut off in the middle of the second puzzle: the first is answered, the second is the
    // error (never a partial answer for a puzzle).
    let second = two.rfind("  <Puzzle ").unwrap();
    let (cut, end) = cut_at(&two, second + puzzle.len() / 2);
    cut_off(
        "cut.xml",
        &cut,
        &end,
        &format!(
            "unexpected end of file: <Puzzle> opened at {}:3 is not closed",
            line_of(&two, second)
        ),
        1,
    );
    // Cut off inside its only puzzle: the same error, not "holds no <Puzzle>".
    let first = whole.find("  <Puzzle ").unwrap();
    let (cut, end) = cut_at(&whole, first + puzzle.len() / 2);
    fails(
        "one.xml",
        &cut,
        &end,
        &format!(
            "unexpected end of file: <Puzzle> opened at {}:3 is not closed",
            line_of(&whole, first)
        ),
    );
    // Every puzzle closed but </Puzzles> missing: both answered, and the file is an error.
    let (cut, end) = cut_at(&two, two.find("</Puzzles>").unwrap());
    cut_off(
        "root.xml",
        &cut,
        &end,
        "unexpected end of file: <Puzzles> opened at 2:1 is not closed",
        2,
    );
}

#[test]
fn generate_reaches_easy_and_medium() {
    for level in ["easy", "medium"] {
        for seed in ["1", "2", "3"] {
            let out = stdout(gridsat().args([
                "generate",
                "tectonic",
                "--seed",
                seed,
                "--difficulty",
                level,
            ]));
            let header = out.lines().next().unwrap();
            assert!(
                header.starts_with(&format!("# gridsat tectonic seed {seed} givens "))
                    && header.contains(&format!(" grade {level} rating ")),
                "{out}"
            );
            assert!(!out.contains("# no "), "{out}");
            // The grade command agrees, and the puzzle is unique.
            gridsat()
                .args(["grade", "-"])
                .write_stdin(out.clone())
                .assert()
                .code(0)
                .stdout(predicate::str::contains("(tectonic 8x8"))
                .stdout(predicate::str::contains(format!("): {level} (rating")));
        }
    }
}

#[test]
fn descriptions_count_in_the_singular_for_one() {
    gridsat()
        .args(["check", "-"])
        .write_stdin("1\n\na\n")
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "(tectonic 1x1, 1 piece of up to 1 cell, 1 given)",
        ));
    gridsat()
        .args(["check", &path("first.tectonic")])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "(tectonic 6x5, 6 pieces of up to 5 cells, 8 givens)",
        ));
}
