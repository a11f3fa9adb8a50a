//! `gridsat generate sudoku` from the outside: the same seed gives the same puzzles, every
//! puzzle reads back through the Sudoku format and is unique (checked again here with
//! `puzzle::verdict`), keeps its symmetry (checked with maps written here, not the
//! generator's), its clue range, its grade and `--minimal`; targets out of reach end with a
//! message and exit code 1; bad options exit 2 with a clear message.

mod common;

use assert_cmd::Command;
use gridsat::explain::{Explain, ExplainOptions};
use gridsat::puzzle::{verdict, Solutions};
use gridsat::solver::SolverChoice;
use gridsat::sudoku::format::{parse, ReadOptions};
use gridsat::sudoku::Sudoku;

struct Run {
    stdout: String,
    stderr: String,
    code: i32,
}

fn generate(args: &[&str]) -> Run {
    let out = Command::cargo_bin("gridsat")
        .unwrap()
        .args(["generate", "sudoku", "--no-progress"])
        .args(args)
        .output()
        .unwrap();
    Run {
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// Runs a generation that must succeed and returns its output.
fn ok(args: &[&str]) -> String {
    let r = generate(args);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

/// The `# gridsat sudoku seed S givens G grade L ...` header lines: (seed, givens, level).
fn headers(text: &str) -> Vec<(u64, usize, String)> {
    text.lines()
        .filter(|l| l.starts_with("# gridsat sudoku seed"))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!((w[3], w[5], w[7]), ("seed", "givens", "grade"), "{l}");
            (
                w[4].parse().unwrap(),
                w[6].parse().unwrap(),
                w[8].to_string(),
            )
        })
        .collect()
}

/// A box shape to read with (`None`: the usual one for the size).
type BoxShape = Option<(usize, usize)>;

fn read(text: &str, box_shape: BoxShape) -> Vec<Sudoku> {
    parse("generated", text, ReadOptions { box_shape }).unwrap()
}

/// Proves a puzzle unique again, independently of the generator's session.
fn assert_unique(p: &Sudoku) {
    match verdict(p, &SolverChoice::Embedded).unwrap() {
        Solutions::Unique(_) => {}
        Solutions::Multiple(..) => panic!("several solutions: {}", p.to_line()),
        Solutions::None => panic!("no solution: {}", p.to_line()),
    }
}

/// Where a cell goes under a symmetry (written from the definitions, not the generator).
fn image(sym: &str, n: usize, r: usize, c: usize) -> (usize, usize) {
    match sym {
        "rotational" => (n - 1 - r, n - 1 - c),
        "quarter-turn" => (c, n - 1 - r),
        "mirror" => (r, n - 1 - c),
        "diagonal" => (c, r),
        _ => (r, c),
    }
}

fn assert_symmetric(p: &Sudoku, sym: &str) {
    let n = p.size;
    for r in 0..n {
        for c in 0..n {
            let (r2, c2) = image(sym, n, r, c);
            assert_eq!(
                p.cells[r * n + c] != 0,
                p.cells[r2 * n + c2] != 0,
                "{sym}: r{}c{} and r{}c{} differ in {}",
                r + 1,
                c + 1,
                r2 + 1,
                c2 + 1,
                p.to_line()
            );
        }
    }
}

fn assert_minimal(p: &Sudoku) {
    for i in (0..p.cells.len()).filter(|&i| p.cells[i] != 0) {
        let mut q = p.clone();
        q.cells[i] = 0;
        assert!(
            matches!(
                verdict(&q, &SolverChoice::Embedded).unwrap(),
                Solutions::Multiple(..)
            ),
            "given r{}c{} of {} can go",
            i / p.size + 1,
            i % p.size + 1,
            p.to_line()
        );
    }
}

#[test]
fn same_seed_same_puzzles_and_puzzle_i_uses_seed_plus_i() {
    let args = [
        "--difficulty",
        "medium",
        "--symmetry",
        "rotational",
        "--count",
        "3",
        "--seed",
        "7",
    ];
    let a = ok(&args);
    assert_eq!(a, ok(&args), "the same command gives the same output");
    let h = headers(&a);
    assert_eq!(
        h.iter().map(|x| x.0).collect::<Vec<_>>(),
        vec![7, 8, 9],
        "{a}"
    );
    // The third puzzle alone, from its own seed.
    let alone = ok(&[
        "--difficulty",
        "medium",
        "--symmetry",
        "rotational",
        "--seed",
        "9",
    ]);
    assert_eq!(read(&alone, None), read(&a, None)[2..].to_vec());
    // Its `again` line is the command that makes it.
    assert!(alone.contains(
        "# again: gridsat generate sudoku --size 9 --box 3x3 --symmetry rotational --difficulty medium --seed 9"
    ));
    assert_ne!(ok(&["--seed", "1"]), ok(&["--seed", "2"]));
}

#[test]
fn every_symmetry_is_kept_and_every_puzzle_is_unique() {
    for sym in ["none", "rotational", "quarter-turn", "mirror", "diagonal"] {
        let out = ok(&["--symmetry", sym, "--count", "3", "--seed", "11"]);
        let ps = read(&out, None);
        assert_eq!(ps.len(), 3);
        for (p, h) in ps.iter().zip(headers(&out)) {
            assert_eq!(p.size, 9);
            assert_eq!(p.clue_count(), h.1);
            assert_symmetric(p, sym);
            assert_unique(p);
        }
    }
}

#[test]
fn minimal_means_no_single_given_can_go() {
    for sym in ["none", "rotational", "diagonal"] {
        let out = ok(&[
            "--minimal",
            "--symmetry",
            sym,
            "--count",
            "2",
            "--seed",
            "3",
        ]);
        for p in read(&out, None) {
            assert_symmetric(&p, sym);
            assert_unique(&p);
            assert_minimal(&p);
        }
    }
}

#[test]
fn clue_ranges_and_bands_are_respected() {
    let cases: [(&[&str], usize, usize); 4] = [
        (&["--clues", "28-32"], 28, 32),
        (&["--clues", "easy"], 36, 45),
        (&["--clues", "hard", "--symmetry", "rotational"], 19, 26),
        (&["--clues", "28-29", "--symmetry", "quarter-turn"], 28, 29),
    ];
    for (args, lo, hi) in cases {
        let mut all = args.to_vec();
        all.extend(["--count", "4", "--seed", "5"]);
        let out = ok(&all);
        let ps = read(&out, None);
        assert_eq!(ps.len(), 4);
        for p in &ps {
            let k = p.clue_count();
            assert!((lo..=hi).contains(&k), "{args:?}: {k} givens");
            assert_unique(p);
        }
    }
    // The band 16-18 starts at 17 with the reason on standard error.
    let r = generate(&["--clues", "evil", "--attempts", "1"]);
    assert!(
        r.stderr.contains("McGuire") && r.stderr.contains("becomes 17-18"),
        "{}",
        r.stderr
    );
}

#[test]
fn difficulty_levels_are_the_grade_of_the_puzzle() {
    for level in ["easy", "medium"] {
        let out = ok(&["--difficulty", level, "--count", "3", "--seed", "21"]);
        let ps = read(&out, None);
        for (p, h) in ps.iter().zip(headers(&out)) {
            assert_eq!(h.2, level);
            let Solutions::Unique(s) = verdict(p, &SolverChoice::Embedded).unwrap() else {
                panic!("not unique")
            };
            let e = p.explain(
                &s,
                ExplainOptions {
                    fallback: true,
                    unique: true,
                },
            );
            assert_eq!(e.grade.level, level, "{}", p.to_line());
        }
    }
}

#[test]
fn json_lines_carry_the_puzzle_and_its_grade() {
    let out = ok(&["--json", "--count", "2", "--seed", "4", "--clues", "30-34"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    for (i, line) in lines.iter().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["kind"], "sudoku");
        assert_eq!(v["seed"], 4 + i as u64);
        let p = &read(v["puzzle"].as_str().unwrap(), None)[0];
        let rows: Vec<Vec<u8>> = serde_json::from_value(v["rows"].clone()).unwrap();
        assert_eq!(rows.concat(), p.cells);
        assert_eq!(v["givens"], p.clue_count());
        assert!((30..=34).contains(&p.clue_count()));
        assert!(v["grade"]["level"].is_string() && v["grade"]["rating"].is_number());
    }
}

#[test]
fn other_sizes_and_box_shapes_read_back() {
    // (size, box given on the command line, box needed to read it back)
    let cases: [(&str, Option<&str>, BoxShape); 7] = [
        ("4", None, None),
        ("6", None, None),
        ("8", None, None),
        ("8", Some("4x2"), Some((4, 2))),
        ("10", None, None),
        ("12", None, None),
        ("16", None, None),
    ];
    for (size, bx, read_box) in cases {
        let mut args = vec!["--size", size, "--count", "2", "--symmetry", "rotational"];
        if let Some(b) = bx {
            args.extend(["--box", b]);
        }
        let out = ok(&args);
        let ps = read(&out, read_box);
        assert_eq!(ps.len(), 2, "{size}: {out}");
        for p in &ps {
            assert_eq!(p.size.to_string(), size);
            if let Some((r, c)) = read_box {
                assert_eq!((p.box_rows, p.box_cols), (r, c));
            }
            assert_symmetric(p, "rotational");
            assert_unique(p);
        }
        // Sides over 9 come as grids by default; `--layout line` gives one line each.
        let n: usize = size.parse().unwrap();
        let body: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(n > 9, body.len() > 2, "{size}");
    }
    let line = ok(&["--size", "16", "--layout", "line"]);
    let p = &read(&line, None)[0];
    assert_eq!(p.size, 16);
    assert!(line.contains(&p.to_line()));
    let grid = ok(&["--size", "9", "--layout", "grid", "--count", "2"]);
    assert_eq!(read(&grid, None).len(), 2);
}

#[test]
fn a_25x25_puzzle_takes_the_fast_path() {
    let r = generate(&["--size", "25"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("stops at 313 givens"), "{}", r.stderr);
    let p = &read(&r.stdout, None)[0];
    assert_eq!((p.size, p.box_rows), (25, 5));
    assert_eq!(p.clue_count(), 313);
    assert_unique(p);
}

/// The givens plain removal left on the grid of a puzzle the low-clue search found, from its
/// note (`None`: plain removal found it).
fn plain_left(text: &str) -> Option<usize> {
    let note = "# found by the low-clue search: plain removal left ";
    let line = text.lines().find(|l| l.starts_with(note))?;
    line[note.len()..].split_whitespace().next()?.parse().ok()
}

/// Below what plain removal reaches on a grid (21 to 27 givens on 9x9), the low-clue search
/// takes over: the puzzles it finds are unique (proved again here), have exactly the givens
/// their header claims, inside the range, keep their symmetry and `--minimal`, and the same
/// seed finds the same puzzle.
#[test]
fn the_low_clue_search_reaches_what_removal_misses() {
    // (arguments, fewest, most givens, symmetry, minimal)
    let cases: [(&[&str], usize, usize, &str, bool); 4] = [
        (&["--clues", "20", "--seed", "1"], 20, 20, "none", false),
        (&["--clues", "19", "--seed", "7"], 19, 19, "none", false),
        (
            &["--clues", "19-20", "--minimal", "--seed", "1"],
            19,
            20,
            "none",
            true,
        ),
        (
            &[
                "--clues",
                "21-22",
                "--symmetry",
                "rotational",
                "--seed",
                "1",
            ],
            21,
            22,
            "rotational",
            false,
        ),
    ];
    for (args, lo, hi, sym, minimal) in cases {
        let out = ok(args);
        let left = plain_left(&out).unwrap_or_else(|| panic!("{args:?}: no search note\n{out}"));
        assert!(
            left > hi,
            "{args:?}: plain removal left {left}, in range already"
        );
        let ps = read(&out, None);
        let hs = headers(&out);
        assert_eq!((ps.len(), hs.len()), (1, 1), "{out}");
        let p = &ps[0];
        assert_eq!(p.clue_count(), hs[0].1, "{args:?}");
        assert!((lo..=hi).contains(&p.clue_count()), "{args:?}: {out}");
        assert_unique(p);
        assert_symmetric(p, sym);
        if minimal {
            assert_minimal(p);
        }
        assert_eq!(ok(args), out, "{args:?}: same seed, same puzzle");
    }
}

#[test]
fn a_target_out_of_reach_is_reported_not_looped_on() {
    let r = generate(&["--clues", "17", "--attempts", "2", "--count", "2"]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr
            .contains("puzzle 1 (seed 1): no 9x9 puzzle with 17 givens in 2 attempts"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("below about 21 givens"), "{}", r.stderr);
    // Each grid got the low-clue search: 300 moves, bounded by --attempts.
    assert!(
        r.stderr
            .contains("the low-clue search (600 moves) got down to"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("17 practically never"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("generated 0 of 2 puzzles; missed the target for seeds 1, 2"),
        "{}",
        r.stderr
    );
}

#[test]
fn bad_options_exit_2_with_a_clear_message() {
    let cases: [(&[&str], &str); 13] = [
        (&["--symmetry", "spiral"], "unknown symmetry `spiral`: expected none, rotational"),
        (&["--clues", "lots"], "unknown clue band `lots`"),
        (&["--clues", "30-2O"], "--clues expects a number of givens"),
        (&["--clues", "35-27"], "the range is empty"),
        (&["--clues", "16"], "no 9x9 Sudoku with 16 givens has a unique solution"),
        (&["--clues", "90"], "cannot have 90 givens"),
        (&["--clues", "30", "--symmetry", "quarter-turn"], "possible counts nearby: 28, 29, 32, 33"),
        (&["--difficulty", "fiendish"], "unknown difficulty `fiendish`: expected any, easy, medium, hard, expert, extreme (for a number of givens use --clues)"),
        (&["--difficulty", "evil"], "use --clues evil"),
        (&["--size", "7"], "a 7x7 Sudoku has no usual box shape; give one with --box RxC"),
        (&["--size", "10", "--box", "3x3"], "--box 3x3 does not tile a 10x10 grid"),
        (&["--width", "9"], "a Sudoku grid is square"),
        (&["--attempts", "0"], "invalid value '0' for '--attempts <N>': must be at least 1"),
    ];
    for (args, message) in cases {
        let r = generate(args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(message), "{args:?}: {}", r.stderr);
        assert_eq!(r.stdout, "", "{args:?}: nothing on standard output");
    }
    let r = generate(&["--size", "30"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("sides 4 to 25"), "{}", r.stderr);
    let r = generate(&["--layout", "table"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("expected line or grid"), "{}", r.stderr);
}

/// The generated files of `puzzles/sudoku/`: each names the command that made it, the command
/// makes the file again byte for byte (grades and ratings in the headers included, so a change
/// to the generator or the grader cannot leave them stale), and every puzzle in it is unique,
/// has the givens its header says and the symmetry its command asked.
#[test]
fn the_generated_puzzle_files_hold_what_they_say() {
    let dir = common::puzzle("sudoku");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("generated-") {
            continue;
        }
        files += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        let command = text
            .lines()
            .find(|l| l.starts_with("# made with: gridsat generate sudoku"))
            .unwrap_or_else(|| panic!("{name}: no `# made with:` line"));
        let words: Vec<&str> = command.split_whitespace().collect();
        let again = generate(&words[6..]);
        assert_eq!(again.code, 0, "{name}: {}", again.stderr);
        let body = text.split_once('\n').unwrap().1;
        assert!(
            again.stdout == body,
            "{name} is not what `{}` makes now; regenerate it:\n{}",
            &command[13..],
            again.stdout
        );
        let opt = |flag: &str| {
            words
                .iter()
                .position(|w| *w == flag)
                .map(|i| words[i + 1].to_string())
        };
        let read_box = opt("--box").map(|b| {
            let (r, c) = b.split_once('x').unwrap();
            (r.parse().unwrap(), c.parse().unwrap())
        });
        let ps = read(&text, read_box);
        let hs = headers(&text);
        assert_eq!(ps.len(), hs.len(), "{name}");
        assert!(!ps.is_empty(), "{name}");
        for (p, h) in ps.iter().zip(&hs) {
            assert_eq!(p.clue_count(), h.1, "{name}");
            if let Some(s) = opt("--size") {
                assert_eq!(p.size.to_string(), s, "{name}");
            }
            if let Some(sym) = opt("--symmetry") {
                assert_symmetric(p, &sym);
            }
            assert_unique(p);
        }
    }
    assert!(
        files >= 2,
        "expected generated-*.txt files in {}",
        dir.display()
    );
}
