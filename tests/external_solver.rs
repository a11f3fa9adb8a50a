//! The external-solver backend against a real SAT-competition solver (CaDiCaL, from Debian's
//! packages; `.ci/run` installs it, and these tests skip with a message without it): every
//! puzzle of `puzzles/` gets the same verdict with `--solver "cadical -q"` as with the
//! embedded solver, and the same solution when it is unique.

mod common;

#[test]
fn every_project_puzzle_gets_the_embedded_verdict_from_cadical() {
    let Some(solver) = common::cadical() else {
        return;
    };
    let mut puzzles = 0;
    for kind in ["sudoku", "takuzu", "tectonic", "numberlink"] {
        for path in common::puzzle_files(kind) {
            let file = path.to_str().unwrap();
            let (embedded, code) = common::check_json(file, &[]);
            if code == 2 {
                continue; // a file that needs options of its own (a CSV pair, a bad example)
            }
            let (external, code2) = common::check_json(file, &["--solver", &solver]);
            assert_eq!(code, code2, "{file}: exit codes");
            assert_eq!(embedded.len(), external.len(), "{file}");
            for (a, b) in embedded.iter().zip(&external) {
                let what = format!("{file} #{}", a["index"]);
                assert_eq!(a["status"], b["status"], "{what}");
                if a["status"] == "unique" {
                    assert_eq!(a["solution"], b["solution"], "{what}");
                }
                if a["status"] == "multiple" {
                    assert_ne!(b["solution"], b["second_solution"], "{what}");
                }
                puzzles += 1;
            }
        }
    }
    assert!(puzzles > 100, "only {puzzles} puzzles compared");
}
