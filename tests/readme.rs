//! Every example in README.md and `docs/*.md` runs and prints what the page says it prints,
//! every link between the pages leads somewhere, and `docs/json.md` names every field `--json`
//! prints.
//!
//! Each ```` ```console ```` block holds commands (`$ ` lines) each followed by the output it
//! shows. The test runs every command with `sh` in a scratch copy of `puzzles/` (so files the
//! examples write stay out of the repository; one copy per page, so a page's examples may use
//! files its earlier examples wrote, and nothing another page wrote), with this build's
//! `gridsat` first on `PATH` and standard error merged into standard output, and compares line
//! by line after blanking timings (`0.35 s`, `1768 puzzles/s`, `"time_ms":0.2`) and ignoring
//! trailing blank lines. A line that is exactly `...` stands for any number of lines; a `…`
//! inside a line stands for any text. Exit codes are not compared (several examples show a
//! verdict that exits 1 on purpose). A failure names the page and the line of its command.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The pages whose examples run: README.md, then every `docs/*.md`, as paths relative to the
/// repository.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| {
            p.strip_prefix(root)
                .expect("inside the repository")
                .to_path_buf()
        })
        .collect();
    docs.sort();
    let mut pages = vec![PathBuf::from("README.md")];
    pages.extend(docs);
    pages
}

/// One example of a page: the command and the output lines it shows.
struct Example {
    line: usize,
    command: String,
    expected: Vec<String>,
}

fn examples(readme: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut in_console = false;
    let mut current: Option<Example> = None;
    for (i, line) in readme.lines().enumerate() {
        if !in_console {
            in_console = line.trim_end() == "```console";
            continue;
        }
        if line.starts_with("```") {
            out.extend(current.take());
            in_console = false;
        } else if let Some(cmd) = line.strip_prefix("$ ") {
            out.extend(current.take());
            current = Some(Example {
                line: i + 1,
                command: cmd.to_string(),
                expected: Vec::new(),
            });
        } else if let Some(ex) = current.as_mut() {
            ex.expected.push(line.to_string());
        }
    }
    out
}

/// Replaces a timing (a number followed by a unit of time or rate) with `T`.
fn blank_timings(line: &str) -> String {
    const UNITS: [&str; 4] = [" puzzles/s", " µs", " ms", " s"];
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_number =
            chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_alphanumeric());
        if starts_number {
            let mut j = i;
            while j < chars.len() && (chars[j].is_ascii_digit() || chars[j] == '.') {
                j += 1;
            }
            let rest: String = chars[j..].iter().collect();
            let before: String = chars[..i].iter().collect();
            let unit = UNITS.iter().find(|u| {
                rest.starts_with(*u)
                    && !rest[u.len()..]
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_alphanumeric())
            });
            if unit.is_some() || before.ends_with("\"time_ms\":") {
                out.push('T');
                i = j;
                continue;
            }
            out.extend(&chars[i..j]);
            i = j;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// Does `actual` match the pattern line `expected` (`…` matches any text)?
fn line_matches(expected: &str, actual: &str) -> bool {
    let mut parts = expected.split('…');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (k, part) in parts.iter().enumerate() {
        if k + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Do the output lines match the expected lines (`...` alone matches any lines)?
fn lines_match(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e == "..." => {
            (0..=actual.len()).any(|k| lines_match(rest, &actual[k..]))
        }
        Some((e, rest)) => {
            !actual.is_empty() && line_matches(e, &actual[0]) && lines_match(rest, &actual[1..])
        }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create scratch folder");
    for entry in std::fs::read_dir(from).expect("read puzzles") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy puzzle");
        }
    }
}

/// Runs one page's examples in a fresh scratch copy of `puzzles/`; returns how many ran and a
/// report of each that differs.
fn run_page(root: &Path, page: &Path, path_var: &str) -> (usize, Vec<String>) {
    let text = std::fs::read_to_string(root.join(page)).expect("page");
    let examples = examples(&text);
    let scratch = tempfile::tempdir().expect("scratch folder");
    copy_dir(&root.join("puzzles"), &scratch.path().join("puzzles"));
    let mut failures = Vec::new();
    for ex in &examples {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("( {}\n) 2>&1", ex.command))
            .current_dir(scratch.path())
            .env("PATH", path_var)
            .env("NO_COLOR", "1")
            .output()
            .expect("sh runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let mut actual: Vec<String> = text.lines().map(blank_timings).collect();
        while actual.last().is_some_and(|l| l.is_empty()) {
            actual.pop();
        }
        let mut expected: Vec<String> = ex.expected.iter().map(|l| blank_timings(l)).collect();
        while expected.last().is_some_and(|l| l.is_empty()) {
            expected.pop();
        }
        if !lines_match(&expected, &actual) {
            failures.push(format!(
                "{}:{}: $ {}\n--- the page shows:\n{}\n--- it prints:\n{}",
                page.display(),
                ex.line,
                ex.command,
                ex.expected.join("\n"),
                text.trim_end()
            ));
        }
    }
    (examples.len(), failures)
}

#[test]
fn examples_print_what_the_pages_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_gridsat"))
        .parent()
        .expect("binary folder")
        .to_path_buf();
    let path_var = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );

    let mut total = 0;
    let mut failures = Vec::new();
    for page in pages(root) {
        let (count, mut differ) = run_page(root, &page, &path_var);
        total += count;
        failures.append(&mut differ);
    }
    assert!(
        total >= 40,
        "expected the examples of README.md and docs/, found {total}"
    );
    assert!(
        failures.is_empty(),
        "{} of {} examples differ:\n\n{}",
        failures.len(),
        total,
        failures.join("\n\n")
    );
}

/// Every kind has its guide, `docs/<kind>.md`, and it shows
/// examples that run.
#[test]
fn every_kind_has_a_guide_with_examples() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for kind in ["sudoku", "takuzu", "tectonic", "numberlink", "shisen"] {
        let page = root.join("docs").join(format!("{kind}.md"));
        let text =
            std::fs::read_to_string(&page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
        assert!(
            examples(&text).len() >= 3,
            "{} shows fewer than 3 examples that run",
            page.display()
        );
    }
}

/// GitHub's anchor for a heading: lower case, spaces to `-`, other punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' | '-' => Some('-'),
            '_' => Some('_'),
            c if c.is_alphanumeric() => Some(c.to_lowercase().next().unwrap_or(c)),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            let heading = line.trim_start_matches('#');
            if heading.starts_with(' ') {
                out.push(anchor(heading));
            }
        }
    }
    out
}

/// The targets of a page's Markdown links `](target)` and reference definitions
/// `[name]: target` that point inside the repository (not `http…`, not `mailto:`), outside
/// code blocks.
fn local_links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_code = false;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut targets = Vec::new();
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            targets.push(after[..end].to_string());
            rest = &after[end..];
        }
        if let Some(def) = line.strip_prefix('[') {
            if let Some(at) = def.find("]: ") {
                targets.push(def[at + 3..].trim().to_string());
            }
        }
        for t in targets {
            if !t.contains("://") && !t.starts_with("mailto:") {
                out.push((i + 1, t));
            }
        }
    }
    out
}

/// The pages whose links are checked: those whose examples run, and the documents for those
/// who work on gridsat (BENCHMARKS.md, DEVELOPERS.md, `models/*.md`).
fn linked_pages(root: &Path) -> Vec<PathBuf> {
    let mut models: Vec<PathBuf> = std::fs::read_dir(root.join("models"))
        .expect("models/ folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| {
            p.strip_prefix(root)
                .expect("inside the repository")
                .to_path_buf()
        })
        .collect();
    models.sort();
    let mut all = pages(root);
    all.extend(["BENCHMARKS.md", "DEVELOPERS.md"].map(PathBuf::from));
    all.extend(models);
    all
}

#[test]
fn links_between_the_pages_lead_somewhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    for page in linked_pages(root) {
        let text = std::fs::read_to_string(root.join(&page)).expect("page");
        let dir = page.parent().unwrap_or(Path::new(""));
        for (line, target) in local_links(&text) {
            let (file, fragment) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let file_path = if file.is_empty() {
                root.join(&page)
            } else {
                root.join(dir).join(file)
            };
            if !file_path.exists() {
                broken.push(format!("{}:{line}: {target}: no such file", page.display()));
                continue;
            }
            if let Some(fragment) = fragment {
                let ok = file_path.extension().is_some_and(|e| e == "md")
                    && std::fs::read_to_string(&file_path)
                        .map(|t| anchors(&t).iter().any(|a| a == fragment))
                        .unwrap_or(false);
                if !ok {
                    broken.push(format!(
                        "{}:{line}: {target}: no heading with that anchor",
                        page.display()
                    ));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links that lead nowhere:\n{}",
        broken.join("\n")
    );
}

/// The README is a start-here page, not a manual (at most 25 KB), and BENCHMARKS.md holds the
/// current figures, not their history (at most 40 KB; the history is in git).
#[test]
fn the_readme_and_benchmarks_stay_short() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let size = |name: &str| std::fs::metadata(root.join(name)).expect(name).len();
    let readme = size("README.md");
    assert!(
        readme <= 25 * 1024,
        "README.md is {readme} bytes; keep it under 25 KB and put details in docs/"
    );
    let benchmarks = size("BENCHMARKS.md");
    assert!(
        benchmarks <= 40 * 1024,
        "BENCHMARKS.md is {benchmarks} bytes; keep it under 40 KB: replace a figure by its \
         newer measurement (git keeps the old one) instead of adding a section"
    );
}

/// Every key of an object, and of the objects inside it (in arrays too).
fn json_keys(v: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                out.insert(k.clone());
                json_keys(x, out);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| json_keys(x, out)),
        _ => {}
    }
}

/// `docs/json.md` names every field that `--json` prints, for every kind and command.
#[test]
fn every_json_field_is_documented() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/json.md")).expect("docs/json.md");
    let proofs = tempfile::tempdir().expect("scratch folder");
    let proof_dir = proofs.path().display().to_string();
    let runs: &[&[&str]] = &[
        &["solve", "puzzles/sudoku/classic.txt"],
        &["check", "--forced", "puzzles/sudoku/several.txt"],
        &["check", "puzzles/sudoku/none.txt", "no-such-file.txt"],
        &["count", "--max", "100", "puzzles/sudoku/several.txt"],
        &["check", "--proof", &proof_dir, "puzzles/sudoku/classic.txt"],
        &["check", "--proof", &proof_dir, "puzzles/sudoku/none.txt"],
        &[
            "check",
            "--timeout",
            "0.001",
            "puzzles/takuzu/gen-60x60.takuzu",
        ],
        &["solve", "puzzles/numberlink/letters.flow"],
        &[
            "solve",
            "--rules",
            "nikoli",
            "puzzles/numberlink/nikoli6.contest.txt",
        ],
        &["solve", "puzzles/shisen/mahjong.shisen"],
        &["hint", "puzzles/sudoku/explain-example.txt"],
        &["grade", "puzzles/takuzu/levels-10x10.takuzu"],
        &["explain", "puzzles/numberlink/letters.flow"],
        &["explain", "puzzles/tectonic/hard-7x7.tectonic"],
        &["generate", "sudoku", "--seed", "3", "--with-solution"],
        &[
            "generate",
            "shisen",
            "--size",
            "4x4",
            "--no-outline",
            "--seed",
            "2",
        ],
    ];
    let mut keys = std::collections::BTreeSet::new();
    for args in runs {
        let out = Command::new(env!("CARGO_BIN_EXE_gridsat"))
            .args(*args)
            .args(["--json", "--no-progress"])
            .current_dir(root)
            .output()
            .expect("gridsat runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.trim().is_empty(), "{args:?} printed no JSON");
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{args:?}: not JSON: {line}: {e}"));
            json_keys(&v, &mut keys);
        }
    }
    let missing: Vec<&String> = keys
        .iter()
        .filter(|k| !doc.contains(&format!("`{k}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/json.md does not name these fields of --json output: {missing:?}"
    );
}

#[test]
fn timings_are_blanked_and_patterns_match() {
    assert_eq!(
        blank_timings("4 puzzles in 0.002 s (1768 puzzles/s), r1c2 5 steps"),
        "4 puzzles in T s (T puzzles/s), r1c2 5 steps"
    );
    assert_eq!(blank_timings("{\"time_ms\":0.289}"), "{\"time_ms\":T}");
    assert!(line_matches("{\"a\":1,…]}", "{\"a\":1,\"b\":[2]}"));
    assert!(!line_matches("{\"a\":1,…]}", "{\"a\":2,\"b\":[2]}"));
    let lines = |s: &str| s.lines().map(String::from).collect::<Vec<_>>();
    assert!(lines_match(&lines("a\n...\nd"), &lines("a\nb\nc\nd")));
    assert!(!lines_match(&lines("a\n...\nd"), &lines("a\nb\nc")));
    assert!(!lines_match(&lines("a\nb"), &lines("a\nb\nc")));
}

#[test]
fn anchors_and_links_are_read_as_github_does() {
    assert_eq!(
        anchor(" Proofs anyone can check: --proof"),
        "proofs-anyone-can-check---proof"
    );
    assert_eq!(
        anchor(" Takuzu (Binairo, binary puzzle)"),
        "takuzu-binairo-binary-puzzle"
    );
    assert_eq!(anchor(" explain, hint, grade"), "explain-hint-grade");
    let text = "see [a](docs/a.md#x) and [b](https://x.org)\n```\n[c](no.md)\n```\n[d]: e.md\n";
    assert_eq!(
        local_links(text),
        vec![(1, "docs/a.md#x".to_string()), (5, "e.md".to_string())]
    );
}
