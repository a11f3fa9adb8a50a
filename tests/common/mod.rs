//! Helpers shared by the integration tests: where the project's own puzzles are, and the
//! public corpora of `../shared/corpora`, read in place and skipped with a visible message
//! when they are not there.
#![allow(dead_code)] // each test file uses a part

use std::path::PathBuf;

/// A file of the project's own `puzzles/` folder.
pub fn puzzle(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles")
        .join(rel)
}

/// Every puzzle file of `puzzles/<kind>/` (not its README), sorted.
pub fn puzzle_files(kind: &str) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(puzzle(kind))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_none_or(|e| e != "md"))
        .collect();
    files.sort();
    files
}

/// Says that a check cannot run here and checks nothing: `SKIPPED: {why}` on standard error
/// (shown with `--nocapture`), and the same line appended to `target/tmp/skipped.log`, which
/// `.ci/run` empties before the tests and counts after them, so a green run that checked little
/// is seen as such.
pub fn skipped(why: &str) {
    let line = format!("SKIPPED: {why}");
    eprintln!("{line}");
    if let Some(dir) = option_env!("CARGO_TARGET_TMPDIR") {
        use std::io::Write;
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(PathBuf::from(dir).join("skipped.log"));
        if let Ok(mut log) = log {
            let _ = writeln!(log, "{line}");
        }
    }
}

/// A file or folder of `../shared/corpora/`, or `None` after printing why the test skips.
/// The message goes to standard error, which `cargo test` shows for every test run with
/// `--nocapture` and which CI logs keep; the skip is also visible as the test's only output.
pub fn corpus(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpora")
        .join(rel);
    if p.exists() {
        Some(p)
    } else {
        skipped(&format!(
            "corpus file {} not found (../shared is absent); this corpus test checks nothing",
            p.display()
        ));
        None
    }
}

/// The text of a corpus file, or `None` (with the skip message).
pub fn corpus_text(rel: &str) -> Option<String> {
    let p = corpus(rel)?;
    Some(std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display())))
}

/// The command of an external DIMACS solver on the PATH (`cadical -q`), or `None` after printing
/// why the test skips. `.ci/run` installs CaDiCaL from Debian's packages.
pub fn cadical() -> Option<String> {
    let found = std::process::Command::new("cadical")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        Some("cadical -q".to_string())
    } else {
        skipped(
            "`cadical` is not on the PATH (apt-get install cadical); this external-solver test checks nothing",
        );
        None
    }
}

/// The JSON lines and exit code of `gridsat check --json --no-progress FILE [extra...]`.
pub fn check_json(file: &str, extra: &[&str]) -> (Vec<serde_json::Value>, i32) {
    let out = assert_cmd::Command::cargo_bin("gridsat")
        .unwrap()
        .args(["check", "--json", "--no-progress", file])
        .args(extra)
        .output()
        .unwrap();
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (lines, out.status.code().unwrap_or(-1))
}
