//! DRAT proofs of verdicts (`--proof DIR`, `--verify-proof`, `gridsat proof`): every unique and
//! none verdict of the project's puzzles, of every kind, comes with a proof that the independent
//! checker rate accepts; tampered files are rejected; an external solver that lies is caught.
//! Tests that run rate skip with a message when it is not on the PATH (`.ci/run` installs it
//! with `cargo install rate`), as the CaDiCaL tests do without CaDiCaL.

mod common;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn gridsat() -> Command {
    Command::cargo_bin("gridsat").unwrap()
}

/// `rate` on the PATH, or `false` after printing why the test skips.
fn rate() -> bool {
    let found = std::process::Command::new("rate")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        common::skipped(
            "the DRAT checker `rate` is not on the PATH (cargo install rate); this proof test checks nothing",
        );
    }
    found
}

/// The JSON lines of a run, its standard error and its exit code.
fn run_json(args: &[&str]) -> (Vec<Value>, String, i32) {
    let out = gridsat().args(args).output().unwrap();
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let err = String::from_utf8(out.stderr).unwrap();
    (lines, err, out.status.code().unwrap_or(-1))
}

fn puzzle(rel: &str) -> String {
    common::puzzle(rel).to_str().unwrap().to_string()
}

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The clauses of a DIMACS file, as DIMACS numbers.
fn clauses(cnf: &str) -> Vec<Vec<i64>> {
    std::fs::read_to_string(cnf)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p') && !l.trim().is_empty())
        .map(|l| {
            let mut c: Vec<i64> = l.split_whitespace().map(|t| t.parse().unwrap()).collect();
            assert_eq!(c.pop(), Some(0), "{l}");
            c
        })
        .collect()
}

/// The true literals of a `.solution` file (its `v` lines).
fn model(solution: &str) -> std::collections::HashSet<i64> {
    std::fs::read_to_string(solution)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .flat_map(|l| l.split_whitespace().map(|t| t.parse::<i64>().unwrap()))
        .filter(|&n| n != 0)
        .collect()
}

#[test]
fn every_project_puzzle_has_a_proof_that_checks() {
    if !rate() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    for kind in ["sudoku", "takuzu", "tectonic", "numberlink"] {
        let (mut unique, mut none, mut multiple) = (0, 0, 0);
        // One folder per file: `large-pieces.tectonic` and `large-pieces.xml` share a stem.
        let mut dirs = Vec::new();
        for path in common::puzzle_files(kind) {
            let file = path.to_str().unwrap();
            let dir = tmp.path().join(kind).join(path.file_name().unwrap());
            let dir_s = dir.to_str().unwrap();
            let (lines, err, code) = run_json(&[
                "check",
                "--json",
                "--no-progress",
                "--proof",
                dir_s,
                "--verify-proof",
                file,
            ]);
            // A file that needs options of its own (a CSV pair, a bad example): its error is a
            // record in the batch (`"status":"error"`).
            let bad = lines.iter().any(|r| r["status"] == "error");
            if code == 2 && (bad || err.starts_with(&format!("gridsat: {file}:"))) {
                continue;
            }
            if lines.iter().any(|r| r.get("proof").is_some()) {
                dirs.push(dir_s.to_string());
            }
            assert!(code == 0 || code == 1, "{file}: exit {code}: {err}");
            for r in &lines {
                let what = format!("{file} #{}", r["index"]);
                match r["status"].as_str().unwrap() {
                    "multiple" => {
                        assert!(r.get("proof").is_none(), "{what}");
                        multiple += 1;
                        continue;
                    }
                    "unique" => unique += 1,
                    "none" => none += 1,
                    s => panic!("{what}: status {s}"),
                }
                let proof = &r["proof"];
                assert_eq!(proof["verified"], true, "{what}");
                assert_eq!(proof["checker"], "rate -d", "{what}");
                assert_eq!(proof["prover"], "varisat", "{what}");
                let cnf = proof["cnf"].as_str().unwrap();
                assert!(
                    cnf.ends_with(&format!("-{}.cnf", r["index"])),
                    "{what}: {cnf}"
                );
                assert!(
                    Path::new(proof["drat"].as_str().unwrap()).is_file(),
                    "{what}"
                );
                if r["status"] == "unique" {
                    // The solution satisfies every clause but the last, which excludes it.
                    let m = model(proof["solution"].as_str().unwrap());
                    let cs = clauses(cnf);
                    let (last, rest) = cs.split_last().unwrap();
                    assert!(
                        rest.iter().all(|c| c.iter().any(|l| m.contains(l))),
                        "{what}"
                    );
                    assert!(last.iter().all(|l| m.contains(&-l)), "{what}");
                } else {
                    assert!(proof["solution"].is_null(), "{what}");
                }
            }
        }
        assert!(
            unique > 0 && none > 0,
            "{kind}: {unique} unique, {none} none"
        );
        // The files as they are on disk check again, one line per proof.
        let out = gridsat().arg("proof").args(&dirs).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(0), "{text}");
        assert_eq!(
            text.lines()
                .filter(|l| l.contains(": verified by rate -d"))
                .count(),
            unique + none,
            "{kind}: {text}"
        );
        eprintln!("{kind}: {unique} unique and {none} none verdicts proven, {multiple} multiple");
    }
}

#[test]
fn proofs_are_written_for_unique_and_none_only() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let out = gridsat()
        .args(["check", "--proof", dir])
        .args(
            [
                "sudoku/classic.txt",
                "sudoku/none.txt",
                "sudoku/several.txt",
            ]
            .map(puzzle),
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[1],
        format!("proof: {dir}/classic-1.cnf {dir}/classic-1.solution {dir}/classic-1.drat (not checked; --verify-proof checks it)")
    );
    assert_eq!(
        lines[3],
        format!(
            "proof: {dir}/none-1.cnf {dir}/none-1.drat (not checked; --verify-proof checks it)"
        )
    );
    assert!(lines[4].contains("several solutions"));
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "classic-1.cnf",
            "classic-1.drat",
            "classic-1.solution",
            "none-1.cnf",
            "none-1.drat"
        ]
    );
    // The unique proof: the rules (10530 clauses), the 30 givens, the exclusion of the solution.
    let cnf = std::fs::read_to_string(tmp.path().join("classic-1.cnf")).unwrap();
    assert!(cnf.contains("c puzzle: "));
    assert!(cnf.contains("c given 5 r1c1=5\n"));
    assert!(cnf.contains("c var 729 r9c9=9\n"));
    assert!(cnf.contains("\np cnf 729 10561\n"));
    let cs = clauses(tmp.path().join("classic-1.cnf").to_str().unwrap());
    assert_eq!(cs.len(), 10561);
    assert_eq!(cs[10530], vec![5]);
    assert_eq!(cs[10560].len(), 81);
    // The none proof holds only the 5 conflicting givens.
    let cnf = std::fs::read_to_string(tmp.path().join("none-1.cnf")).unwrap();
    assert!(cnf.contains(
        "the 5 givens that conflict, as unit clauses: r1c5=6 r4c4=5 r5c4=8 r6c1=6 r8c6=6"
    ));
    assert_eq!(cnf.matches("\nc given ").count(), 5);
    // The solution file is the grid and a SAT answer, readable by any script.
    let sol = std::fs::read_to_string(tmp.path().join("classic-1.solution")).unwrap();
    assert!(sol.contains("c 5 3 4 | 6 7 8 | 9 1 2\n"));
    assert!(sol.contains("\ns SATISFIABLE\nv -1 -2 -3 -4 5 "));
    // JSON: the proof object beside the verdict; none for several solutions.
    let (lines, _, code) = run_json(&[
        "solve",
        "--json",
        "--proof",
        dir,
        &puzzle("sudoku/classic.txt"),
        &puzzle("sudoku/several.txt"),
    ]);
    assert_eq!(code, 1);
    let p = &lines[0]["proof"];
    assert_eq!(p["cnf"], format!("{dir}/classic-1.cnf"));
    assert_eq!(p["solution"], format!("{dir}/classic-1.solution"));
    assert_eq!(p["drat"], format!("{dir}/classic-1.drat"));
    assert_eq!(p["verified"], Value::Null);
    assert!(lines[1].get("proof").is_none());
}

/// The variable count of the proof CNF written under `solving` options, and of the DIMACS
/// export under `complete` options, for puzzle `rel` (stem `stem`).
fn proof_and_export_vars(rel: &str, stem: &str, solving: [&str; 2], complete: [&str; 2]) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    gridsat()
        .args(["check", "--proof", dir])
        .args(solving)
        .arg(puzzle(rel))
        .assert()
        .success();
    let cnf = std::fs::read_to_string(tmp.path().join(format!("{stem}-1.cnf"))).unwrap();
    let export = gridsat()
        .args(["dimacs"])
        .args(complete)
        .arg(puzzle(rel))
        .output()
        .unwrap();
    let export = String::from_utf8(export.stdout).unwrap();
    let vars = |t: &str| {
        let p = t.lines().find(|l| l.starts_with("p cnf")).unwrap();
        p.split_whitespace().nth(2).unwrap().to_string()
    };
    assert_eq!(vars(&cnf), vars(&export), "{rel}");
}

#[test]
fn proofs_follow_the_complete_rules_whatever_the_solving_options() {
    // Numberlink with lazy loops and Takuzu with lazy distinct lines are solved with rules added
    // on demand; their proofs are about the complete model: order labels, difference variables.
    proof_and_export_vars(
        "numberlink/letters.flow",
        "letters",
        ["--loops", "lazy"],
        ["--loops", "exact"],
    );
    proof_and_export_vars(
        "takuzu/distinct-needed-6x6.takuzu",
        "distinct-needed-6x6",
        ["--distinct-encoding", "lazy"],
        ["--distinct-encoding", "eager"],
    );
}

#[test]
fn a_tampered_proof_is_rejected() {
    if !rate() {
        return;
    }
    // A minimal puzzle that singles do not solve: without any one given it has another solution.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let file = puzzle("sudoku/generated-9x9-minimal.txt");
    gridsat()
        .args(["check", "--proof", dir, "--verify-proof", &file])
        .assert()
        .success();
    let cnf = tmp.path().join("generated-9x9-minimal-1.cnf");
    let drat = cnf.with_extension("drat");
    let solution = cnf.with_extension("solution");
    let (cnf_text, drat_bytes, sol_text) = (
        std::fs::read_to_string(&cnf).unwrap(),
        std::fs::read(&drat).unwrap(),
        std::fs::read_to_string(&solution).unwrap(),
    );
    let check = || {
        let out = gridsat().args(["proof"]).arg(&cnf).output().unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
        )
    };
    let (code, text) = check();
    assert_eq!(code, 0, "{text}");
    let restore = || {
        std::fs::write(&cnf, &cnf_text).unwrap();
        std::fs::write(&drat, &drat_bytes).unwrap();
        std::fs::write(&solution, &sol_text).unwrap();
    };
    let rejected = |what: &str, why: &str| {
        let (code, text) = check();
        assert_eq!(code, 1, "{what}: {text}");
        assert!(
            text.contains("NOT verified") && text.contains(why),
            "{what}: {text}"
        );
        restore();
    };
    // An empty proof, a proof with a byte changed, the proof of another puzzle.
    std::fs::write(&drat, b"").unwrap();
    rejected("empty proof", "s NOT VERIFIED");
    // Every lemma added in the proof's second half gets its first literal negated (the low bit
    // of binary DRAT's first literal byte): one byte flipped at random can fall in a deletion
    // entry, which a checker may ignore, so the test would depend on which puzzle comes first.
    let flipped = negate_lemmas_after(&drat_bytes, drat_bytes.len() / 2);
    assert_ne!(
        flipped, drat_bytes,
        "the proof has lemmas in its second half"
    );
    std::fs::write(&drat, &flipped).unwrap();
    rejected("lemmas changed", "does not check");
    gridsat()
        .args([
            "check",
            "--proof",
            dir,
            &puzzle("sudoku/explain-example.txt"),
        ])
        .assert()
        .success();
    std::fs::copy(tmp.path().join("explain-example-1.drat"), &drat).unwrap();
    rejected("another puzzle's proof", "s NOT VERIFIED");
    // A given taken out of the CNF: the puzzle then has another solution, no proof can hold.
    let given = cnf_text
        .lines()
        .find_map(|l| l.strip_prefix("c given "))
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let unit = format!("\n{given} 0\n");
    assert!(cnf_text.contains(&unit));
    std::fs::write(&cnf, cnf_text.replacen(&unit, "\n", 1)).unwrap();
    rejected("a given removed", "s NOT VERIFIED");
    // The solution changed, or the exclusion clause taken out.
    std::fs::write(&solution, sol_text.replacen("v -1 ", "v 1 ", 1)).unwrap();
    rejected("solution changed", "breaks clause");
    let last = cnf_text.trim_end().rfind('\n').unwrap();
    std::fs::write(&cnf, &cnf_text[..last + 1]).unwrap();
    rejected("exclusion removed", "does not exclude");
}

#[test]
fn a_solver_that_lies_is_caught_when_proofs_are_on() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("proofs");
    let dir = dir.to_str().unwrap();
    let liar = script(
        tmp.path(),
        "liar.sh",
        "#!/bin/sh\necho 's UNSATISFIABLE'\nexit 20\n",
    );
    let liar = liar.to_str().unwrap();
    let classic = puzzle("sudoku/classic.txt");
    // Without proofs the lie goes through (today's behaviour, the reason for proofs)...
    let out = gridsat()
        .args(["check", "--solver", liar, &classic])
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("no solution"));
    // ...with them the embedded solver finds the rules satisfiable and the verdict is refused.
    let out = gridsat()
        .args(["check", "--solver", liar, "--proof", dir, &classic])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(String::from_utf8(out.stdout).unwrap().is_empty());
    assert!(
        err.contains(&format!("solver command `{liar}` gave a wrong answer"))
            && err.contains("the rules have one"),
        "{err}"
    );
    // No file is left that looks like a proof.
    assert_eq!(std::fs::read_dir(dir).unwrap().count(), 0);
    // A liar that calls itself cadical is asked for a DRAT proof and writes none.
    let fake = tempfile::tempdir().unwrap();
    let cadical = script(
        fake.path(),
        "cadical",
        "#!/bin/sh\necho 's UNSATISFIABLE'\nexit 20\n",
    );
    let out = gridsat()
        .args(["check", "--proof", dir, &classic, "--solver"])
        .arg(&cadical)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("wrote no proof file"), "{err}");
    // One that writes a proof of nothing is caught by the checker.
    if rate() {
        script(
            fake.path(),
            "cadical",
            "#!/bin/sh\necho 0 > \"$2\"\necho 's UNSATISFIABLE'\nexit 20\n",
        );
        let out = gridsat()
            .args(["check", "--proof", dir, &classic, "--solver"])
            .arg(&cadical)
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("does not check: rate -d says `s NOT VERIFIED`"),
            "{err}"
        );
    }
}

#[test]
fn the_shared_liar_is_caught_on_the_17_clue_sudoku() {
    let Some(dir) = common::corpus("../crashers/fake-solvers") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let liar = dir.join("liar_unsat.sh");
    let out = gridsat()
        .args(["check", "--proof", tmp.path().to_str().unwrap(), "--solver"])
        .arg(&liar)
        .arg(dir.join("s17.txt"))
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("gave a wrong answer"), "{err}");
}

#[test]
fn cadical_writes_proofs_that_check() {
    let Some(solver) = common::cadical() else {
        return;
    };
    if !rate() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    for (file, status) in [
        ("sudoku/explain-example.txt", "unique"),
        ("sudoku/none.txt", "none"),
        ("takuzu/none-6x6.takuzu", "none"),
        ("tectonic/hard-7x7.tectonic", "unique"),
        ("numberlink/flow7.txt", "unique"),
    ] {
        let (lines, err, _) = run_json(&[
            "check",
            "--json",
            "--proof",
            dir,
            "--solver",
            &solver,
            &puzzle(file),
        ]);
        assert_eq!(lines.len(), 1, "{file}: {err}");
        assert_eq!(lines[0]["status"], status, "{file}");
        assert_eq!(lines[0]["proof"]["prover"], solver.as_str(), "{file}");
        assert_eq!(lines[0]["proof"]["verified"], true, "{file}");
    }
}

#[test]
fn proof_usage_errors_are_clear() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("p");
    let dir = dir.to_str().unwrap();
    let none = puzzle("sudoku/none.txt");
    // --verify-proof needs --proof; count has no proofs.
    gridsat()
        .args(["check", "--verify-proof", &none])
        .assert()
        .code(2);
    gridsat()
        .args(["count", "--proof", dir, &none])
        .assert()
        .code(2);
    // Two inputs with one stem would overwrite each other's proofs.
    let copy = tmp.path().join("none.txt");
    std::fs::copy(&none, &copy).unwrap();
    let out = gridsat()
        .args(["check", "--proof", dir, &none])
        .arg(&copy)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("would both write none-N files"), "{err}");
    // A checker that is not there.
    let out = gridsat()
        .args(["check", "--proof", dir, "--verify-proof", "--checker"])
        .args(["no-such-checker-here", &none])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("the DRAT checker `no-such-checker-here` could not be started"),
        "{err}"
    );
    // A folder that cannot be made (a file is in the way), a folder without proofs.
    let out = gridsat()
        .args(["check", "--proof", &none, &none])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("cannot create the proof folder"));
    let out = gridsat()
        .args(["proof", tmp.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("holds no .cnf file"));
}

/// A binary DRAT proof with the first literal of every added lemma that starts at or after
/// byte `from` negated. Entries are `a` or `d`, then the literals as variable-length numbers
/// (`2v` or `2v+1` for -v), then 0.
fn negate_lemmas_after(proof: &[u8], from: usize) -> Vec<u8> {
    let mut out = proof.to_vec();
    let mut i = 0;
    while i < out.len() {
        let added = out[i] == b'a';
        i += 1;
        let mut first = true;
        loop {
            let start = i;
            let mut value = 0u64;
            let mut shift = 0;
            while i < out.len() {
                let b = out[i];
                i += 1;
                value |= u64::from(b & 0x7f) << shift;
                shift += 7;
                if b < 0x80 {
                    break;
                }
            }
            if value == 0 || i >= out.len() {
                break;
            }
            if added && first && start >= from {
                out[start] ^= 1;
            }
            first = false;
        }
    }
    out
}
