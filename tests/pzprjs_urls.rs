//! puzz.link / pzprjs URLs against pzprjs itself: URLs that pzprjs wrote from the project's
//! puzzles (`tests/data/pzprjs-urls.txt`, which says how they were made) read back as those
//! puzzles, gridsat writes the very same URLs, and pzprjs's own sample URLs decode to what
//! pzprjs decodes from them. Then URLs on the command line and as lines of a file.

mod common;

use assert_cmd::Command;
use gridsat::kinds::{read_any, write_solutions, AnyPuzzle, ReadOptions};
use gridsat::numberlink::{Form, Rules};
use predicates::prelude::*;
use predicates::str::contains;

fn gridsat() -> Command {
    Command::cargo_bin("gridsat").unwrap()
}

fn data() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pzprjs-urls.txt");
    std::fs::read_to_string(path).unwrap()
}

/// `FILE INDEX URL` lines: a project puzzle and the URL pzprjs made of it.
fn made_by_pzprjs() -> Vec<(String, usize, String)> {
    data()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("sample "))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].to_string(), f[1].parse().unwrap(), f[2].to_string())
        })
        .collect()
}

fn project(file: &str, index: usize) -> AnyPuzzle {
    let path = common::puzzle(file).display().to_string();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut ps = read_any(&path, &path, &text, None, &ReadOptions::default()).unwrap();
    ps.swap_remove(index - 1)
}

fn from_url(url: &str) -> AnyPuzzle {
    let mut ps = read_any("url", "url", url, None, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{url}: {e}"));
    assert_eq!(ps.len(), 1);
    ps.pop().unwrap()
}

/// The genre, and the rules and form a Numberlink puzzle has in it.
fn genre(url: &str) -> &str {
    let q = &url[url.find('?').unwrap() + 1..];
    &q[..q.find('/').unwrap()]
}

fn numberlink_setting(url: &str) -> (Rules, Form) {
    match (genre(url), url.contains("arukone/e/")) {
        ("numlin", _) => (Rules::Nikoli, Form::Numbers),
        (_, true) => (Rules::Nikoli, Form::Letters),
        _ => (Rules::Cover, Form::Letters),
    }
}

fn pairs(ends: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut v: Vec<(usize, usize)> = ends.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
    v.sort_unstable();
    v
}

#[test]
fn urls_made_by_pzprjs_read_as_the_projects_puzzles() {
    let all = made_by_pzprjs();
    assert!(all.len() >= 30, "the data file lists the URLs");
    for (file, index, url) in all {
        let what = format!("{file} #{index} {url}");
        match (project(&file, index), from_url(&url)) {
            (AnyPuzzle::Sudoku(p), AnyPuzzle::Sudoku(q)) => {
                assert_eq!(p.cells, q.cells, "{what}");
                assert_eq!((p.box_rows, p.box_cols), (q.box_rows, q.box_cols), "{what}");
            }
            (AnyPuzzle::Tectonic(p), AnyPuzzle::Tectonic(q)) => {
                assert_eq!((p.width, p.height), (q.width, q.height), "{what}");
                assert_eq!(p.givens, q.givens, "{what}");
                assert_eq!(p.regions, q.regions, "{what}: the same pieces");
            }
            (AnyPuzzle::Numberlink(p), AnyPuzzle::Numberlink(q)) => {
                assert_eq!((p.width, p.height), (q.width, q.height), "{what}");
                assert_eq!(pairs(&p.ends), pairs(&q.ends), "{what}");
                assert_eq!((q.rules, q.form), numberlink_setting(&url), "{what}");
            }
            (p, q) => panic!("{what}: read as another kind: {p:?} / {q:?}"),
        }
    }
}

#[test]
fn gridsat_writes_the_urls_pzprjs_writes() {
    for (file, index, url) in made_by_pzprjs() {
        let mut p = project(&file, index);
        if let AnyPuzzle::Numberlink(n) = &mut p {
            (n.rules, n.form) = numberlink_setting(&url);
        }
        let ours = write_solutions("url", &[(&p, None)]).unwrap();
        let query = |u: &str| u.trim()[u.find('?').unwrap() + 1..].to_string();
        assert_eq!(query(&ours), query(&url), "{file} #{index}");
        assert!(ours.starts_with("https://puzz.link/p?"), "{ours}");
    }
}

#[test]
fn pzprjs_samples_decode_as_pzprjs_decodes_them() {
    let samples: Vec<String> = data()
        .lines()
        .filter_map(|l| l.strip_prefix("sample ").map(String::from))
        .collect();
    assert_eq!(samples.len(), 4);
    for s in samples {
        let f: Vec<&str> = s.split_whitespace().collect();
        let url = f[0];
        let numbers: Vec<i64> = f[2].split(',').map(|n| n.parse().unwrap()).collect();
        let given = |v: u32| if v == 0 { -1 } else { v as i64 };
        match from_url(url) {
            AnyPuzzle::Sudoku(q) => {
                let got: Vec<i64> = q.cells.iter().map(|&v| given(v as u32)).collect();
                assert_eq!(got, numbers, "{url}");
                // pzprjs's rooms are the 2x2 boxes, numbered as ours.
                let rooms: Vec<usize> = f[4].split(',').map(|n| n.parse().unwrap()).collect();
                let boxes: Vec<usize> = (0..16).map(|i| q.box_of(i / 4, i % 4)).collect();
                assert_eq!(boxes, rooms, "{url}");
            }
            AnyPuzzle::Tectonic(q) => {
                let got: Vec<i64> = q.givens.iter().map(|&v| given(v as u32)).collect();
                assert_eq!(got, numbers, "{url}");
                let rooms: Vec<usize> = f[4].split(',').map(|n| n.parse().unwrap()).collect();
                assert_eq!(q.regions, rooms, "{url}");
            }
            AnyPuzzle::Numberlink(q) => {
                let mut got = vec![-1i64; q.width * q.height];
                for (k, &(a, b)) in q.ends.iter().enumerate() {
                    got[a] = q.numbers[k] as i64;
                    got[b] = q.numbers[k] as i64;
                }
                // Paths are numbered by first appearance, as pzprjs's samples number them.
                assert_eq!(got, numbers, "{url}");
            }
            other => panic!("{url}: {other:?}"),
        }
    }
}

#[test]
fn urls_are_puzzles_on_the_command_line_and_as_lines_of_a_file() {
    // On the command line: the URL is the puzzle, and its genre the kind and rules.
    let sudoku = "https://puzz.link/p?sudoku/4/4/g1k23k3g";
    gridsat()
        .args(["solve", sudoku])
        .assert()
        .code(0)
        .stdout(contains(format!(
            "{sudoku} #1 (sudoku 4x4, boxes 2x2, 4 givens): unique"
        )));
    gridsat()
        .args(["check", "http://pzv.jp/p.html?numlin/5/5/1j2h3m1h2j3"])
        .assert()
        .stdout(contains("(numberlink 5x5, 3 paths, nikoli rules)"));
    gridsat()
        .args([
            "check",
            "--rules",
            "flow",
            "http://pzv.jp/p.html?numlin/5/5/1j2h3m1h2j3",
        ])
        .assert()
        .stdout(contains("flow rules"));
    // A file of URL lines of several genres: each its own kind.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("urls.txt");
    let urls = gridsat()
        .args([
            "solve",
            "--format",
            "url",
            &common::puzzle("sudoku/6x6.txt").display().to_string(),
            &common::puzzle("tectonic/first.tectonic")
                .display()
                .to_string(),
            &common::puzzle("numberlink/nikoli6.txt")
                .display()
                .to_string(),
        ])
        .output()
        .unwrap();
    assert_eq!(urls.status.code(), Some(0));
    let text = format!(
        "# three genres\n{}",
        String::from_utf8(urls.stdout).unwrap()
    );
    std::fs::write(&f, &text).unwrap();
    let out = gridsat()
        .args(["check", &f.display().to_string()])
        .output()
        .unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.contains("#1 (sudoku 6x6, boxes 2x3, 11 givens): unique"),
        "{out}"
    );
    assert!(
        out.contains("#2 (tectonic 6x5, 6 pieces of up to 5 cells, 8 givens): unique"),
        "{out}"
    );
    // nikoli6.txt is read under flow rules (the default), so its URL is an arukone.
    assert!(
        out.contains("#3 (numberlink 6x6, 6 paths, cover rules)"),
        "{out}"
    );
    // Written again, the URLs are the same.
    let again = gridsat()
        .args(["solve", "--format", "url", &f.display().to_string()])
        .output()
        .unwrap();
    assert_eq!(
        format!(
            "# three genres\n{}",
            String::from_utf8(again.stdout).unwrap()
        ),
        text
    );
}

#[test]
fn url_errors_name_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.txt");
    let check = |text: &str, want: &str| {
        std::fs::write(&f, text).unwrap();
        gridsat()
            .args(["check", &f.display().to_string()])
            .assert()
            .code(2)
            .stderr(contains(want));
    };
    check(
        "# a typo in the body\nhttps://puzz.link/p?sudoku/4/4/g1k2!k3g\n",
        "bad.txt:2:36: unexpected `!` in the numbers",
    );
    check(
        "https://puzz.link/p?nurikabe/5/5/g\n",
        "bad.txt:1:21: gridsat does not read pzprjs's `nurikabe` puzzles; it reads sudoku, suguru, numlin, arukone",
    );
    check(
        "https://puzz.link/p?sudoku/4/4/g1k23k3g\n1...\n",
        "bad.txt:2:1: expected a puzz.link URL",
    );
    check(
        "https://puzz.link/p?sudoku/8/8/g\n",
        "pzprjs draws sudoku boxes for sides 4, 6, 9, 16, 25",
    );
    check(
        "https://puzz.link/p?sudoku/4/4/11t\n",
        "given 1 at r1c2 repeats the 1 at r1c1 in row 1",
    );
    check(
        "https://puzz.link/p?numlin/3/3/1n\n",
        "`1` appears only once",
    );
    check(
        "https://puzz.link/p?sudoku/4/4/g1k2\n",
        "the URL ends after 8 of the 16 cells",
    );
    // A hole in a suguru board (pzprjs's empty cells).
    check(
        "https://puzz.link/p?suguru/2/2/00g1hg\n",
        "is marked outside the board",
    );
    gridsat()
        .args([
            "check",
            "--kind",
            "tectonic",
            "https://puzz.link/p?sudoku/4/4/g1k23k3g",
        ])
        .assert()
        .code(2)
        .stderr(contains(
            "this URL is a sudoku puzzle (sudoku), but --kind tectonic was given",
        ));
    // Formats a kind cannot carry in a URL are refused before anything is solved.
    gridsat()
        .args([
            "solve",
            "--format",
            "url",
            &common::puzzle("sudoku/8x8.txt").display().to_string(),
        ])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(contains("pzprjs's sudoku has boxes"));
    gridsat()
        .args([
            "solve",
            "--format",
            "url",
            &common::puzzle("takuzu/unique-6x6.takuzu")
                .display()
                .to_string(),
        ])
        .assert()
        .code(2)
        .stderr(contains("--format url is not available for takuzu puzzles"));
}

/// Prints the project's puzzles as JSON Lines for tests/data/pzprjs-make-urls.js (see the data
/// file's header): `cargo test --test pzprjs_urls -- --ignored --nocapture dump_for_pzprjs`.
#[test]
#[ignore]
fn dump_for_pzprjs() {
    let files = [
        "sudoku/4x4.txt",
        "sudoku/6x6.txt",
        "sudoku/9x9.txt",
        "sudoku/16x16.txt",
        "sudoku/25x25.txt",
        "sudoku/classic.txt",
        "sudoku/generated-16x16.txt",
        "tectonic/first.tectonic",
        "tectonic/hard-7x7.tectonic",
        "tectonic/large-pieces.tectonic",
        "tectonic/big-20x20.tectonic",
        "tectonic/unique.xml",
        "numberlink/letters.flow",
        "numberlink/flow7.txt",
        "numberlink/nikoli6.txt",
        "numberlink/collection.txt",
        "numberlink/rules.txt",
        "numberlink/cover6x5.txt",
    ];
    for file in files {
        let path = common::puzzle(file).display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let ps = read_any(&path, &path, &text, None, &ReadOptions::default()).unwrap();
        for (i, p) in ps.iter().enumerate() {
            let mut j = match p {
                AnyPuzzle::Sudoku(s) => {
                    serde_json::json!({"genre": "sudoku", "w": s.size, "h": s.size, "cells": s.cells})
                }
                AnyPuzzle::Tectonic(t) => serde_json::json!({"genre": "suguru", "w": t.width,
                    "h": t.height, "cells": t.givens, "regions": t.regions}),
                AnyPuzzle::Numberlink(n) => {
                    let mut cells = vec![0u32; n.width * n.height];
                    for (k, &(a, b)) in n.ends.iter().enumerate() {
                        cells[a] = n.numbers[k];
                        cells[b] = n.numbers[k];
                    }
                    serde_json::json!({"genre": "numlin", "w": n.width, "h": n.height, "cells": cells})
                }
                AnyPuzzle::Takuzu(_) | AnyPuzzle::Shisen(_) => continue,
            };
            j["file"] = file.into();
            j["index"] = (i + 1).into();
            println!("{j}");
        }
    }
}
