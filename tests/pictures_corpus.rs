//! Pictures of public collections (`../shared/corpora`, read in place; skipped with a visible
//! message when absent): every puzzle of a collection drawn as SVG is well-formed XML and
//! carries a digit for every given (Tectonic) or two ends for every path (Numberlink).

mod common;

use assert_cmd::Command;
use quick_xml::events::Event;

fn gridsat() -> Command {
    Command::cargo_bin("gridsat").expect("binary")
}

/// The class attribute of every element of a well-formed SVG (quick-xml refuses anything else),
/// with the element's text.
fn classes(svg: &str) -> Vec<(String, String)> {
    let mut reader = quick_xml::Reader::from_str(svg);
    reader.config_mut().check_end_names = true;
    let mut out: Vec<(String, String)> = Vec::new();
    let mut depth = 0usize;
    let mut open: Vec<Option<usize>> = Vec::new();
    loop {
        let ev = reader.read_event().expect("well-formed XML");
        let class = |e: &quick_xml::events::BytesStart| {
            e.try_get_attribute("class")
                .expect("attribute")
                .map(|a| a.unescape_value().expect("value").into_owned())
                .unwrap_or_default()
        };
        match ev {
            Event::Start(e) => {
                out.push((class(&e), String::new()));
                open.push(Some(out.len() - 1));
                depth += 1;
            }
            Event::Empty(e) => out.push((class(&e), String::new())),
            Event::End(_) => {
                open.pop();
                depth -= 1;
            }
            Event::Text(t) => {
                if let Some(Some(k)) = open.last() {
                    out[*k].1.push_str(&t.unescape().expect("text"));
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(depth, 0, "every element closed");
    out
}

/// Runs `check --format svg --out DIR` on `file` and returns the SVGs, in puzzle order.
fn draw_all(file: &std::path::Path, kind: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    gridsat()
        .args([
            "check",
            "--kind",
            kind,
            "--format",
            "svg",
            "--no-progress",
            "--out",
        ])
        .arg(dir.path())
        .arg(file)
        .assert()
        .code(predicates::ord::le(1));
    let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
    let mut out = Vec::new();
    for i in 1.. {
        let path = dir.path().join(format!("{stem}-{i}.svg"));
        match std::fs::read_to_string(&path) {
            Ok(svg) => out.push(svg),
            Err(_) => break,
        }
    }
    out
}

#[test]
fn every_tectonic_of_the_corpora_is_drawn_with_its_givens() {
    let Some(path) = common::corpus("tectonic/derived/tectonic-all.normalized.jsonl") else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let records: Vec<serde_json::Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let svgs = draw_all(&path, "tectonic");
    assert_eq!(svgs.len(), records.len());
    for (r, svg) in records.iter().zip(&svgs) {
        let givens: Vec<char> = r["givens"]
            .as_str()
            .unwrap()
            .chars()
            .filter(|&c| c != '.')
            .collect();
        let mut drawn: Vec<char> = classes(svg)
            .into_iter()
            .filter(|(c, _)| c == "digit given")
            .flat_map(|(_, t)| t.chars().collect::<Vec<_>>())
            .collect();
        let mut want = givens.clone();
        want.sort_unstable();
        drawn.sort_unstable();
        assert_eq!(drawn, want, "{}", r["id"]);
    }
}

#[test]
fn every_flow_puzzle_is_drawn_with_two_ends_per_path() {
    let Some(dir) = common::corpus("numberlink/mzucker_flow_solver/puzzles") else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(files.len() >= 20);
    for f in files {
        let labels: std::collections::HashSet<char> = std::fs::read_to_string(&f)
            .unwrap()
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '.')
            .collect();
        let svgs = draw_all(&f, "numberlink");
        assert_eq!(svgs.len(), 1, "{}", f.display());
        let ends = classes(&svgs[0]).iter().filter(|(c, _)| c == "end").count();
        assert_eq!(ends, 2 * labels.len(), "{}", f.display());
    }
}
