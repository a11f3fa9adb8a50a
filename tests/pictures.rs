//! Pictures end to end on the project's own puzzles: `--format svg|png|pdf` on solve, check,
//! hint, explain and generate. Every SVG is parsed as XML and must carry what it shows (a
//! digit for every given, a path per Numberlink pair, struck-out candidates and chain links
//! for steps); every PNG decodes at the size its SVG gives; a PDF has its pages.

mod common;

use assert_cmd::Command;
use predicates::prelude::*;
use quick_xml::events::Event;
use std::collections::HashMap;

fn gridsat() -> Command {
    Command::cargo_bin("gridsat").expect("binary")
}

fn p(rel: &str) -> String {
    common::puzzle(rel).to_string_lossy().into_owned()
}

/// One element of an SVG: its name, attributes and text.
#[derive(Debug, Default)]
struct El {
    name: String,
    attrs: HashMap<String, String>,
    text: String,
}

impl El {
    fn class(&self) -> &str {
        self.attrs.get("class").map_or("", String::as_str)
    }
    fn has_class(&self, c: &str) -> bool {
        self.class().split(' ').any(|x| x == c)
    }
    fn num(&self, a: &str) -> f64 {
        self.attrs[a].parse().unwrap()
    }
}

/// An element's name and attributes.
fn element(e: &quick_xml::events::BytesStart) -> El {
    El {
        name: String::from_utf8_lossy(e.name().as_ref()).into_owned(),
        attrs: e
            .attributes()
            .map(|a| {
                let a = a.expect("attribute");
                (
                    String::from_utf8_lossy(a.key.as_ref()).into_owned(),
                    a.unescape_value().expect("value").into_owned(),
                )
            })
            .collect(),
        text: String::new(),
    }
}

/// Every element of a well-formed SVG document (quick-xml refuses anything else).
fn parse(svg: &str) -> Vec<El> {
    let mut reader = quick_xml::Reader::from_str(svg);
    reader.config_mut().check_end_names = true;
    let mut out: Vec<El> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) => {
                out.push(element(&e));
                open.push(out.len() - 1);
            }
            Event::Empty(e) => out.push(element(&e)),
            Event::End(_) => {
                open.pop();
            }
            Event::Text(t) => {
                if let Some(&k) = open.last() {
                    out[k].text.push_str(&t.unescape().expect("text"));
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(
        out.first().map(|e| e.name.as_str()),
        Some("svg"),
        "the root"
    );
    assert!(open.is_empty(), "every element closed");
    out
}

fn with_class<'a>(els: &'a [El], class: &str) -> Vec<&'a El> {
    els.iter().filter(|e| e.has_class(class)).collect()
}

fn stdout_of(args: &[&str]) -> String {
    let out = gridsat().args(args).output().expect("runs");
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn a_sudoku_solution_has_every_given_in_black_and_every_other_cell_solved() {
    let svg = stdout_of(&["solve", &p("sudoku/classic.txt"), "--format", "svg"]);
    let els = parse(&svg);
    let given = with_class(&els, "given");
    let solved = with_class(&els, "solved");
    assert_eq!((given.len(), solved.len()), (30, 51));
    // The text says it is unique; the picture holds the same digits as the text answer.
    let text = stdout_of(&["solve", &p("sudoku/classic.txt")]);
    let digits: Vec<String> = text
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with('-'))
        .flat_map(|l| {
            l.split_whitespace()
                .filter(|t| *t != "|")
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .collect();
    let mut drawn: Vec<(f64, f64, String)> = given
        .iter()
        .chain(&solved)
        .map(|e| (e.num("y"), e.num("x"), e.text.clone()))
        .collect();
    drawn.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let drawn: Vec<String> = drawn.into_iter().map(|d| d.2).collect();
    assert_eq!(drawn, digits);
    // Box lines: one thick path; the frame's 4 sides and 2 + 2 lines between boxes.
    let border = with_class(&els, "border");
    assert_eq!(border.len(), 1);
    assert_eq!(border[0].attrs["d"].matches('M').count(), 8);
}

#[test]
fn every_kind_draws_a_number_for_every_given() {
    let svg = stdout_of(&["check", &p("sudoku/6x6.txt"), "--format", "svg"]);
    let els = parse(&svg);
    assert_eq!(with_class(&els, "given").len(), 11);
    assert_eq!(with_class(&els, "solved").len(), 0);
    // Takuzu: 8 givens, as digits or as circles on grey cells.
    let t = p("takuzu/unique-6x6.takuzu");
    let els = parse(&stdout_of(&["check", &t, "--format", "svg"]));
    assert_eq!(with_class(&els, "given").len(), 8);
    let els = parse(&stdout_of(&[
        "solve", &t, "--format", "svg", "--style", "circles",
    ]));
    assert_eq!(with_class(&els, "disc").len(), 36);
    assert_eq!(
        els.iter()
            .filter(|e| e.name == "rect" && e.has_class("given"))
            .count(),
        8
    );
    assert_eq!(with_class(&els, "black").len(), 18);
    // Tectonic: 8 givens, pieces drawn with thick borders.
    let els = parse(&stdout_of(&[
        "check",
        &p("tectonic/first.tectonic"),
        "--format",
        "svg",
    ]));
    let given: Vec<String> = with_class(&els, "given")
        .iter()
        .map(|e| e.text.clone())
        .collect();
    let mut sorted = given.clone();
    sorted.sort();
    assert_eq!(sorted, ["1", "1", "1", "2", "2", "4", "4", "5"]);
    assert_eq!(given.len(), 8);
    assert!(
        with_class(&els, "border")[0].attrs["d"]
            .matches('M')
            .count()
            > 4
    );
    // Numberlink: two labelled ends per path.
    let els = parse(&stdout_of(&[
        "check",
        &p("numberlink/letters.flow"),
        "--format",
        "svg",
    ]));
    let ends = with_class(&els, "end");
    let labels: Vec<&str> = with_class(&els, "label")
        .iter()
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(ends.len(), 8);
    for l in ["B", "D", "C", "A"] {
        assert_eq!(labels.iter().filter(|&&x| x == l).count(), 2, "{l}");
    }
}

#[test]
fn a_numberlink_solution_draws_one_path_per_pair_from_end_to_end() {
    let svg = stdout_of(&["solve", &p("numberlink/letters.flow"), "--format", "svg"]);
    let els = parse(&svg);
    let paths = with_class(&els, "path");
    assert_eq!(paths.len(), 4);
    let ends: Vec<(f64, f64)> = with_class(&els, "end")
        .iter()
        .map(|e| (e.num("cx"), e.num("cy")))
        .collect();
    let mut covered = 0;
    for path in &paths {
        let pts: Vec<(f64, f64)> = path.attrs["points"]
            .split(' ')
            .map(|xy| {
                let (x, y) = xy.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        assert!(ends.contains(&pts[0]) && ends.contains(pts.last().unwrap()));
        covered += pts.len();
    }
    // Flow rules: the four paths cover the 25 cells.
    assert_eq!(covered, 25);
}

#[test]
fn several_solutions_and_no_solution_are_shaded() {
    let els = parse(&stdout_of(&[
        "check",
        &p("sudoku/several.txt"),
        "--format",
        "svg",
    ]));
    assert_eq!(with_class(&els, "differ").len(), 22);
    let els = parse(&stdout_of(&[
        "check",
        &p("sudoku/several.txt"),
        "--format",
        "svg",
        "--picture",
        "solution",
    ]));
    assert_eq!(with_class(&els, "differ").len(), 44);
    assert_eq!(with_class(&els, "picture").len(), 2);
    let els = parse(&stdout_of(&[
        "check",
        &p("sudoku/none.txt"),
        "--format",
        "svg",
    ]));
    let conflict = with_class(&els, "conflict");
    assert_eq!(conflict.len(), 5);
    let caption: String = with_class(&els, "caption")
        .iter()
        .map(|e| e.text.clone())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(caption.contains("r1c5=6"), "{caption}");
}

#[test]
fn both_puts_the_puzzle_beside_its_solution() {
    let els = parse(&stdout_of(&[
        "solve",
        &p("sudoku/classic.txt"),
        "--format",
        "svg",
        "--picture",
        "both",
    ]));
    assert_eq!(with_class(&els, "picture").len(), 2);
    assert_eq!(with_class(&els, "given").len(), 60);
    assert_eq!(with_class(&els, "solved").len(), 51);
}

#[test]
fn png_decodes_at_the_size_of_its_svg() {
    let svg = stdout_of(&["solve", &p("tectonic/first.tectonic"), "--format", "svg"]);
    let root = &parse(&svg)[0];
    let (w, h) = (root.num("width"), root.num("height"));
    let png = gridsat()
        .args(["solve", &p("tectonic/first.tectonic"), "--format", "png"])
        .output()
        .unwrap();
    assert!(png.status.success());
    let img = resvg::tiny_skia::Pixmap::decode_png(&png.stdout).expect("a PNG");
    let scale = gridsat::draw::raster::png_scale(w as f32);
    assert_eq!(img.width(), (w as f32 * scale).ceil() as u32);
    assert_eq!(img.height(), (h as f32 * scale).ceil() as u32);
}

#[test]
fn hint_draws_its_step_and_explain_one_picture_per_step() {
    let svg = stdout_of(&["hint", &p("sudoku/explain-example.txt"), "--format", "svg"]);
    let els = parse(&svg);
    // hidden single: r2c9=9, drawn as a green candidate in a green cell.
    let placed = with_class(&els, "placement");
    assert!(placed.iter().any(|e| e.name == "rect"));
    assert!(placed.iter().any(|e| e.name == "text" && e.text == "9"));
    assert!(with_class(&els, "candidate").len() > 100);
    // explain: a file per step and one for the end.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_string_lossy().into_owned();
    gridsat()
        .args([
            "explain",
            &p("sudoku/explain-example.txt"),
            "--format",
            "svg",
            "--out",
            &out,
        ])
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains("solved in 56 steps"));
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 57);
    assert_eq!(names[0], "explain-example-1-end.svg");
    assert_eq!(names[1], "explain-example-1-step01.svg");
    // Step 21, the W-Wing: five links (three strong, two weak) and two struck-out 3s.
    let w = std::fs::read_to_string(dir.path().join("explain-example-1-step21.svg")).unwrap();
    let els = parse(&w);
    assert_eq!(with_class(&els, "strong").len(), 3);
    assert_eq!(with_class(&els, "weak").len(), 2);
    let struck = with_class(&els, "struck");
    assert_eq!(struck.len(), 2);
    assert!(struck.iter().all(|e| e.text == "3"));
    let caption = with_class(&els, "caption")
        .iter()
        .map(|e| e.text.clone())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(caption.starts_with("21. W-Wing"), "{caption}");
}

#[test]
fn explain_of_every_kind_draws_its_steps_on_one_page() {
    for (file, kind) in [
        ("takuzu/unique-6x6.takuzu", "takuzu"),
        ("tectonic/first.tectonic", "tectonic"),
        ("numberlink/letters.flow", "numberlink"),
        ("sudoku/explain-4x4.txt", "sudoku"),
    ] {
        let svg = stdout_of(&["explain", &p(file), "--format", "svg", "--page", "single"]);
        let els = parse(&svg);
        // One picture per step and one for the end, for every puzzle of the file.
        let json = stdout_of(&["explain", &p(file), "--json"]);
        let pictures: usize = json
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["steps"].as_array().unwrap().len() + 1
            })
            .sum();
        assert!(pictures > 2, "{kind}");
        assert_eq!(with_class(&els, "picture").len(), pictures, "{kind}");
        assert!(!with_class(&els, "placement").is_empty(), "{kind}");
    }
    // Tectonic steps strike out what a placement removes from its piece and neighbours.
    let svg = stdout_of(&["hint", &p("tectonic/first.tectonic"), "--format", "svg"]);
    assert!(!with_class(&parse(&svg), "struck").is_empty());
}

#[test]
fn generate_makes_a_printable_book_with_the_solutions_after_the_puzzles() {
    let out = gridsat()
        .args([
            "generate", "sudoku", "--count", "3", "--seed", "5", "--format", "pdf", "--page", "a4",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.starts_with(b"%PDF-"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("/Count 2"),
        "two pages: puzzles, then solutions"
    );
    // The same as SVG pages in a folder: puzzles first, each with its seed.
    let dir = tempfile::tempdir().unwrap();
    gridsat()
        .args([
            "generate", "sudoku", "--count", "3", "--seed", "5", "--format", "svg", "--page",
            "letter", "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let first = std::fs::read_to_string(dir.path().join("sudoku-5-7-page1.svg")).unwrap();
    let els = parse(&first);
    assert_eq!(with_class(&els, "picture").len(), 3);
    assert_eq!(with_class(&els, "solved").len(), 0);
    let captions: Vec<String> = with_class(&els, "caption")
        .iter()
        .map(|e| e.text.clone())
        .collect();
    assert!(captions[0].starts_with("1. seed 5"), "{captions:?}");
    let second = std::fs::read_to_string(dir.path().join("sudoku-5-7-page2.svg")).unwrap();
    assert_eq!(
        with_class(&parse(&second), "solved").len() + with_class(&parse(&second), "given").len(),
        3 * 81
    );
    // One generated puzzle of each kind as a picture on standard output.
    for kind in ["takuzu", "tectonic", "numberlink"] {
        let svg = stdout_of(&["generate", kind, "--size", "6", "--format", "svg"]);
        assert!(!parse(&svg).is_empty(), "{kind}");
    }
}

#[test]
fn picture_options_are_checked_before_anything_is_solved() {
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["solve", "sudoku/4x4.txt", "--format", "svg"],
            "give --out DIR",
        ),
        (
            vec!["solve", "sudoku/classic.txt", "--picture", "both"],
            "add --format svg",
        ),
        (
            vec!["solve", "sudoku/classic.txt", "--format", "svg", "--json"],
            "do not go together",
        ),
        (
            vec!["count", "sudoku/classic.txt", "--format", "svg"],
            "count draws no pictures",
        ),
        (
            vec!["grade", "sudoku/classic.txt", "--format", "svg"],
            "grade draws no pictures",
        ),
        (
            vec!["explain", "sudoku/classic.txt", "--format", "xml"],
            "expected svg, png or pdf",
        ),
        (
            vec![
                "solve",
                "sudoku/classic.txt",
                "--format",
                "svg",
                "--page",
                "a3",
            ],
            "expected a4, letter or single",
        ),
        (
            vec![
                "solve",
                "sudoku/classic.txt",
                "--format",
                "svg",
                "--picture",
                "all",
            ],
            "expected puzzle, solution or both",
        ),
        (
            vec![
                "hint",
                "sudoku/classic.txt",
                "--format",
                "svg",
                "--picture",
                "both",
            ],
            "its pictures show the steps",
        ),
        (
            vec!["explain", "sudoku/classic.txt", "--format", "svg"],
            "give --out DIR",
        ),
        (
            vec!["generate", "sudoku", "--count", "2", "--format", "png"],
            "give --out DIR",
        ),
    ];
    for (args, message) in cases {
        let args: Vec<String> = args
            .iter()
            .map(|a| if a.contains('/') { p(a) } else { a.to_string() })
            .collect();
        gridsat()
            .args(&args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(message))
            // Refused before any puzzle was solved: no verdict line.
            .stderr(predicate::str::contains(" #1 ").not());
    }
}

#[test]
fn pictures_in_a_batch_keep_the_others_when_one_puzzle_is_bad_and_are_the_same_for_any_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let classic = std::fs::read_to_string(p("sudoku/classic.txt")).unwrap();
    let line = classic.trim();
    let mixed = dir.path().join("mixed.txt");
    std::fs::write(&mixed, format!("{line}\n{}\n{line}\n", &line[..80])).unwrap();
    let mixed = mixed.to_string_lossy().into_owned();
    let mut files = Vec::new();
    for jobs in ["1", "2"] {
        let out = dir.path().join(format!("out{jobs}"));
        gridsat()
            .args(["solve", &mixed, "--format", "svg", "-j", jobs, "--out"])
            .arg(&out)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(
                "mixed.txt:2:1: a one-line puzzle needs a square number of cells",
            ))
            .stderr(predicate::str::contains("mixed.txt #3 (sudoku 9x9"));
        let mut names: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["mixed-1.svg", "mixed-3.svg"]);
        files.push(std::fs::read_to_string(out.join("mixed-3.svg")).unwrap());
    }
    assert_eq!(files[0], files[1]);
    // A puzz.link URL on the command line draws like a file; a format no kind writes names the
    // picture formats beside the file formats.
    let svg = stdout_of(&[
        "check",
        "https://puzz.link/p?sudoku/4/4/g1k23k3g",
        "--format",
        "svg",
    ]);
    assert_eq!(with_class(&parse(&svg), "given").len(), 4);
    gridsat()
        .args(["solve", &p("sudoku/4x4.txt"), "--format", "jpeg"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "--format jpeg is not available for sudoku puzzles",
        ))
        .stderr(predicate::str::contains(
            "pictures of every kind: svg, png, pdf",
        ));
}

#[test]
fn shisen_draws_every_tile_its_move_numbers_and_each_moves_line() {
    // The puzzle: one tile per tile of the board, labelled with its face.
    let file = p("shisen/nikakudori-4x4.shisen");
    let text = std::fs::read_to_string(&file).unwrap();
    let faces: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .flat_map(|l| l.split_whitespace().map(str::to_string))
        .filter(|t| t != ".")
        .collect();
    let svg = stdout_of(&["solve", &file, "--format", "svg", "--picture", "puzzle"]);
    let els = parse(&svg);
    assert_eq!(with_class(&els, "tile").len(), faces.len());
    let mut labels: Vec<String> = with_class(&els, "tile-label")
        .iter()
        .map(|e| e.text.clone())
        .collect();
    let mut want = faces.clone();
    labels.sort();
    want.sort();
    assert_eq!(labels, want);
    // The solution: every tile carries the number of the move that removes it, each number
    // on exactly two tiles.
    let svg = stdout_of(&["solve", &file, "--format", "svg", "--picture", "solution"]);
    let els = parse(&svg);
    let mut numbers: Vec<usize> = with_class(&els, "candidate")
        .iter()
        .map(|e| e.text.parse().expect("a move number"))
        .collect();
    numbers.sort();
    let moves = faces.len() / 2;
    let want: Vec<usize> = (1..=moves).flat_map(|k| [k, k]).collect();
    assert_eq!(numbers, want);
    // explain: one picture per move with its two tiles marked and its line drawn, then the
    // empty board.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_string_lossy().into_owned();
    gridsat()
        .args(["explain", &file, "--format", "svg", "--out", &out])
        .assert()
        .success();
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), moves + 1, "{names:?}");
    for (k, name) in names.iter().filter(|n| n.contains("-step")).enumerate() {
        let els = parse(&std::fs::read_to_string(dir.path().join(name)).unwrap());
        assert_eq!(with_class(&els, "path").len(), 1, "{name}: one line");
        assert_eq!(
            with_class(&els, "pattern").len(),
            2,
            "{name}: its two tiles"
        );
        assert_eq!(
            with_class(&els, "tile").len(),
            faces.len() - 2 * k,
            "{name}"
        );
    }
    let end = names.iter().find(|n| n.ends_with("-end.svg")).unwrap();
    let els = parse(&std::fs::read_to_string(dir.path().join(end)).unwrap());
    assert!(with_class(&els, "tile").is_empty());
}
