//! Issue 36, the readers' half: no valid puzzle lost, whatever is wrong next to it. Each case of
//! `../shared/crashers/round2/` that is about reading (lost-*, drop-*, oom-one-line-100mb,
//! oom-dev-zero, the eight one-liners that read as a 16x8 grid) runs through the binary, read in
//! place (skipping visibly when `../shared` is absent); the same faults are also built here so
//! that they are tested without it: a bad first line, a line that is not UTF-8, a short, long or
//! headerless puzzle, back-to-back puzzles, CR line endings, a byte-order mark, tabs, an endless
//! line, and one error said once for a whole file of them.

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// `../shared/crashers/round2/NAME`, or `None` after saying why the test skips.
fn round2(name: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/crashers/round2")
        .join(name);
    if p.exists() {
        Some(p)
    } else {
        common::skipped(&format!(
            "{} not found (../shared is absent); this round-2 case checks nothing",
            p.display()
        ));
        None
    }
}

/// Runs gridsat under a 1 GB address-space cap (as round 2's check.sh does), with `input` on
/// standard input when given.
fn run(args: &[&str], input: Option<&[u8]>) -> Output {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1000000; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_gridsat"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gridsat runs");
    let mut stdin = child.stdin.take().expect("stdin");
    if let Some(bytes) = input {
        // A reader that stops early closes the pipe: that is not a failure here.
        let _ = stdin.write_all(bytes);
    }
    drop(stdin);
    let out = child.wait_with_output().expect("gridsat ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert!(
        !err.contains("memory allocation"),
        "{args:?} aborted: {err}"
    );
    assert!(
        out.status.code().is_some_and(|c| (0..=3).contains(&c)),
        "{args:?} ended with {}: {err}",
        out.status
    );
    out
}

/// The JSON records of a run: (status, error line) of each.
fn records(out: &Output) -> Vec<(String, Option<u64>)> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON record");
            (
                v["status"].as_str().unwrap_or("").to_string(),
                v["line"].as_u64(),
            )
        })
        .collect()
}

fn statuses(out: &Output) -> Vec<String> {
    records(out).into_iter().map(|(s, _)| s).collect()
}

/// `solve --json` on text given on standard input, with more arguments.
fn solve_stdin(text: &[u8], args: &[&str]) -> Output {
    let mut all = vec!["solve", "-", "--json", "--no-progress"];
    all.extend_from_slice(args);
    run(&all, Some(text))
}

const LINE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

#[test]
fn round_two_lost_and_dropped_puzzles_are_answered() {
    let cases: &[(&str, &[&str], usize)] = &[
        ("lost-sudoku-bad-first-line.txt", &[], 3),
        ("lost-sudoku-invalid-utf8-last-line.txt", &[], 3),
        ("lost-tectonic-short-puzzle-then-50-valid.tectonic", &[], 50),
        ("lost-tectonic-sized-puzzles-back-to-back.tectonic", &[], 5),
        (
            "silentdrop-numberlink-WH-bad-header.txt",
            &["--kind", "numberlink"],
            3,
        ),
        (
            "silentdrop-numberlink-WH-short-puzzle.txt",
            &["--kind", "numberlink"],
            3,
        ),
        ("silentdrop-takuzu-janko-bad-header.takuzu", &[], 3),
        ("silentdrop-takuzu-janko-extra-row.takuzu", &[], 3),
    ];
    for (name, extra, valid) in cases {
        let Some(p) = round2(name) else { return };
        let p = p.display().to_string();
        let mut args = vec!["solve", p.as_str(), "--json", "--no-progress"];
        args.extend_from_slice(extra);
        let got = records(&run(&args, None));
        let unique = got.iter().filter(|(s, _)| s == "unique").count();
        assert!(unique >= *valid, "{name}: {unique} of {valid} answered");
        // Each bad puzzle is one error with its line.
        for (s, line) in &got {
            if s == "error" {
                assert!(
                    line.is_some_and(|l| l >= 1),
                    "{name}: an error without a line"
                );
            }
        }
        // (A puzzle one row long is answered as announced and its extra row is the error; a
        // comment that is not UTF-8 is no error.)
        let errors = got.len() - unique;
        assert!(errors <= 2, "{name}: {errors} errors for one bad puzzle");
    }
}

#[test]
fn eight_lines_of_sixteen_cells_are_eight_puzzles_unless_asked() {
    let Some(p) = round2("silentdrop-takuzu-8-oneliners-read-as-16x8-grid.takuzu") else {
        return;
    };
    let p = p.display().to_string();
    let out = run(&["solve", &p, "--json", "--no-progress"], None);
    assert_eq!(statuses(&out), vec!["unique"; 8]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("one of 8 lines read as one-line puzzles (--read-as grid: one 16x8 grid)"),
        "the record says how the block was read: {text}"
    );
    let out = run(
        &["solve", &p, "--json", "--no-progress", "--read-as", "grid"],
        None,
    );
    assert_eq!(statuses(&out), ["none"]);
    let out = run(&["solve", &p, "--no-progress", "--read-as", "grid,"], None);
    assert_eq!(out.status.code(), Some(2));
    // A block of lines too short for one-line puzzles is one grid.
    let grid = "0..1\n....\n.1..\n...0\n";
    let out = solve_stdin(grid.as_bytes(), &["--kind", "takuzu"]);
    assert_eq!(statuses(&out).len(), 1);
}

#[test]
fn an_endless_line_is_an_error_at_once() {
    // 20 MB on one line (past the 16 MiB a line may have): one error, in bounded memory.
    let big = vec![b'.'; 20 << 20];
    let out = solve_stdin(&big, &[]);
    let got = records(&out);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].0, "error");
    assert!(String::from_utf8_lossy(&out.stdout).contains("a line longer than 16 MiB"));
    // /dev/zero ends: its NUL bytes are no text.
    if std::path::Path::new("/dev/zero").exists() {
        let out = run(
            &[
                "solve",
                "--kind",
                "sudoku",
                "/dev/zero",
                "--json",
                "--no-progress",
            ],
            None,
        );
        assert_eq!(statuses(&out), ["error"]);
        assert_eq!(out.status.code(), Some(2));
    }
    // A long line between good ones costs only itself.
    let mut text = format!("{LINE}\n").into_bytes();
    text.extend(vec![b'1'; 17 << 20]);
    text.extend(format!("\n{LINE}\n").bytes());
    assert_eq!(
        statuses(&solve_stdin(&text, &["--kind", "sudoku"])),
        ["unique", "error", "unique"]
    );
}

#[test]
fn a_line_that_is_not_utf8_is_one_error_in_its_place() {
    let mut text = format!("{LINE}\n").into_bytes();
    text.extend(
        b"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..7\xe9\n",
    );
    text.extend(format!("{LINE}\n# café and a Latin-1 comment: caf").bytes());
    text.extend(b"\xe9\n");
    text.extend(format!("{LINE}\n").bytes());
    let got = records(&solve_stdin(&text, &[]));
    let shape: Vec<(&str, Option<u64>)> = got.iter().map(|(s, l)| (s.as_str(), *l)).collect();
    // The comment is free text: no error for it.
    assert_eq!(
        shape,
        [
            ("unique", None),
            ("error", Some(2)),
            ("unique", None),
            ("unique", None)
        ]
    );
}

#[test]
fn every_kind_reads_on_after_a_bad_record() {
    // (kind, a valid record, a bad one, the separator) with the bad one between valid ones.
    let sudoku_grid = "1 . . .\n. . 2 .\n. 3 . .\n. . . 4\n";
    let tectonic = "2 3\n1 . .\n. . .\n1 1 2\n1 2 2\n";
    let numberlink = "3 2\nA.A\nB.B\n";
    let janko = "4 4\n1 - - -\n- - 2 -\n- - - -\n- 1 - -\n";
    let shisen = "A B\nB A\n";
    let cases: &[(&str, &str, &str, &str)] = &[
        ("sudoku", &format!("{LINE}\n"), "Sudoku week 48\n", ""),
        ("sudoku", sudoku_grid, "1 . x\n. . 2 .\n", "\n"),
        ("tectonic", tectonic, "2 3\n1 . .\n. . .\n", ""),
        ("tectonic", tectonic, "2 x\n1 . .\n", ""),
        (
            "tectonic",
            tectonic,
            "2 3\n1 . .\n. . .\n1 1 2\n1 2 2\n1 2 2\n",
            "",
        ),
        ("numberlink", numberlink, "3 x\nA.A\nB.B\n", ""),
        ("numberlink", numberlink, "3 2\nA.A\n", ""),
        ("numberlink", numberlink, "junk\n", "\n"),
        ("takuzu", janko, "4 x\n1 - - -\n", ""),
        ("takuzu", janko, "4 4\n- - - -\n", "\n"),
        ("takuzu", "0..1\n....\n.1..\n...0\n", "01x\n", "\n"),
        ("shisen", shisen, "A B C\n", "\n"),
    ];
    for (kind, good, bad, sep) in cases {
        let text = format!("{good}{sep}{bad}{sep}{good}{sep}{good}");
        let out = solve_stdin(text.as_bytes(), &["--kind", kind]);
        let s = statuses(&out);
        // The three valid ones answered (a puzzle one row long is answered as announced, its
        // extra row the error).
        let answered = s.iter().filter(|x| *x != "error").count();
        assert!(
            (3..=4).contains(&answered),
            "{kind} with {bad:?}: {s:?}\n{text}"
        );
        assert!(
            s.contains(&"error".to_string()),
            "{kind} with {bad:?}: {s:?}"
        );
        // CR and CRLF line endings, a byte-order mark, tabs between cells: the same answers.
        for (what, t) in [
            ("CRLF", text.replace('\n', "\r\n")),
            ("CR", text.replace('\n', "\r")),
            ("BOM", format!("\u{feff}{text}")),
        ] {
            let again = statuses(&solve_stdin(t.as_bytes(), &["--kind", kind]));
            assert_eq!(again, s, "{kind} with {bad:?} and {what}");
        }
    }
    // Tabs between cells read as spaces do.
    let spaces = "2 3\n1 . .\n. . .\n1 1 2\n1 2 2\n".repeat(2);
    let tabs = spaces.replace(' ', "\t");
    let s = statuses(&solve_stdin(tabs.as_bytes(), &["--kind", "tectonic"]));
    assert_eq!(s.len(), 2);
    assert!(!s.contains(&"error".to_string()), "{s:?}");
    assert_eq!(
        s,
        statuses(&solve_stdin(spaces.as_bytes(), &["--kind", "tectonic"]))
    );
}

#[test]
fn bad_one_liners_before_valid_ones_are_not_read_as_a_grid() {
    // Fuzz seed 1's case: a bad 34-cell line (read as a grid row, being no one-liner), a blank
    // line, a bad 36-cell one-liner, then three valid ones of the same length. The bad 36-cell
    // line once started a 36-wide grid that swallowed the valid ones after it.
    let six = ".3.41.......5....1..65.2.6....2.1...";
    let text = format!(
        ".4...3..6....3..5.942..2....4.....\n\n..54...3..6....3..5.942..2....4.....\n{six}\n{six}\n{six}\n"
    );
    let got = records(&solve_stdin(text.as_bytes(), &["--kind", "sudoku"]));
    let shape: Vec<(&str, Option<u64>)> = got.iter().map(|(s, l)| (s.as_str(), *l)).collect();
    assert_eq!(
        shape,
        [
            ("error", Some(1)),
            ("error", Some(3)),
            ("unique", None),
            ("unique", None),
            ("unique", None)
        ]
    );
}

#[test]
fn two_bad_numberlink_headers_back_to_back_are_two_errors() {
    // The stress run's case: corrupted `W H` records next to each other, first in the file
    // (after the rule directive) and between valid ones.
    let good = "3 2\nA.A\nB.B\n";
    let bad = "3 x\nA.A\nB.B\n";
    for (text, want) in [
        (
            format!("# numberlink: rules=flow\n{bad}{bad}{good}{good}"),
            vec![
                ("error", Some(2)),
                ("error", Some(5)),
                ("unique", None),
                ("unique", None),
            ],
        ),
        (
            format!("{good}{bad}{bad}{good}"),
            vec![
                ("unique", None),
                ("error", Some(4)),
                ("error", Some(7)),
                ("unique", None),
            ],
        ),
    ] {
        let got = records(&solve_stdin(text.as_bytes(), &["--kind", "numberlink"]));
        let shape: Vec<(&str, Option<u64>)> = got.iter().map(|(s, l)| (s.as_str(), *l)).collect();
        assert_eq!(shape, want, "{text}");
    }
}

#[test]
fn a_file_bad_the_same_way_throughout_is_said_once() {
    // 300 Numberlink letter grids read as Sudoku: one error printed, then the count.
    let text = "R.G.Y..B.O......G.Y..RBO.\n".repeat(300);
    let out = run(
        &["check", "-", "--kind", "sudoku", "--no-progress"],
        Some(text.as_bytes()),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(
        err.contains("the same error on 299 more puzzles (lines 2 to 300)"),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(2));
    // JSON keeps a record per puzzle, for scripts.
    let out = run(
        &["check", "-", "--kind", "sudoku", "--json", "--no-progress"],
        Some(text.as_bytes()),
    );
    assert_eq!(statuses(&out).len(), 300);
}

#[test]
fn a_puzzle_from_a_slow_pipe_is_answered_before_the_next_comes() {
    // A producer that writes one puzzle and waits: its answer comes out before the next puzzle
    // is written (no chunk waiting to fill, no output buffer holding it), on one thread or two.
    for jobs in ["1", "2"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gridsat"))
            .args(["check", "-", "--kind", "sudoku", "--json", "--no-progress"])
            .args(["-j", jobs])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("gridsat runs");
        let mut stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for l in std::io::BufReader::new(stdout).lines() {
                if tx.send(l.unwrap_or_default()).is_err() {
                    break;
                }
            }
        });
        for k in 1..=3 {
            writeln!(stdin, "{LINE}").expect("gridsat reads");
            stdin.flush().expect("flushed");
            // Generous: the answer takes milliseconds; without it, this waits forever.
            let got = rx
                .recv_timeout(std::time::Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("-j {jobs}: answer {k} held while the pipe is open"));
            assert!(got.contains("\"unique\""), "{got}");
        }
        drop(stdin);
        assert_eq!(child.wait().expect("gridsat ends").code(), Some(0));
    }
}

#[test]
fn long_lines_without_end_to_their_puzzle_are_read_in_bounded_memory() {
    // 40 lines of 1 MB, no blank line: no kind's puzzle is that, and reading them all into one
    // record took more than the 1 GB cap (Numberlink, Tectonic, Sudoku aborted). Now the lines
    // past the kind's budget are one error, and reading goes on after the next blank line.
    let long = format!("1{}2\n", ".".repeat(1_000_000)).repeat(40);
    for kind in ["sudoku", "takuzu", "tectonic", "numberlink", "shisen"] {
        let out = solve_stdin(long.as_bytes(), &["--kind", kind]);
        assert_eq!(out.status.code(), Some(2), "{kind}");
        assert!(statuses(&out).iter().all(|s| s == "error"), "{kind}");
    }
    // After the over-long stretch and a blank line, a valid puzzle is answered.
    let text = format!(
        "{}\n{LINE}\n",
        format!("1{}2\n", ".".repeat(300_000)).repeat(5)
    );
    let got = statuses(&solve_stdin(text.as_bytes(), &["--kind", "sudoku"]));
    assert_eq!(got.last().map(String::as_str), Some("unique"), "{got:?}");
}
