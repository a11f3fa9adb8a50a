//! Every example in README.md runs and prints what the README says it prints.
//!
//! Each ```` ```console ```` block holds commands (`$ ` lines) each followed by the output it
//! shows. The test runs every command with `sh` in a scratch copy of `puzzles/` (so files the
//! examples write stay out of the repository), with this build's `gridsat` first on `PATH` and
//! standard error merged into standard output, and compares line by line after blanking
//! timings (`0.35 s`, `1768 puzzles/s`, `"time_ms":0.2`) and ignoring trailing blank lines. A line that is exactly `...` stands
//! for any number of lines; a `…` inside a line stands for any text. Exit codes are not compared
//! (several examples show a verdict that exits 1 on purpose).

use std::path::Path;
use std::process::Command;

/// One README example: the command and the output lines it shows.
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

#[test]
fn readme_examples_print_what_the_readme_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let examples = examples(&readme);
    assert!(
        examples.len() >= 40,
        "expected the README's examples, found {}",
        examples.len()
    );

    let scratch = tempfile::tempdir().expect("scratch folder");
    copy_dir(&root.join("puzzles"), &scratch.path().join("puzzles"));
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_gridsat"))
        .parent()
        .expect("binary folder")
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );

    let mut failures = Vec::new();
    for ex in &examples {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("( {}\n) 2>&1", ex.command))
            .current_dir(scratch.path())
            .env("PATH", &path)
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
                "README.md:{}: $ {}\n--- the README shows:\n{}\n--- it prints:\n{}",
                ex.line,
                ex.command,
                ex.expected.join("\n"),
                text.trim_end()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} README examples differ:\n\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n\n")
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
