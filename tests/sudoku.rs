//! Sudoku on the project's own puzzles of every size: the SAT model against the independent
//! rule checker (unique, several, none), forced cells, and conflicting givens that are minimal.

mod common;

use gridsat::cnf::Lit;
use gridsat::puzzle::{self, GivenMode, Puzzle, Solutions};
use gridsat::solver::{Session, SolverChoice, Varisat, Verdict};
use gridsat::sudoku::{format, model, rules, Grid, Sudoku};

fn read(rel: &str) -> Vec<Sudoku> {
    let path = common::puzzle(&format!("sudoku/{rel}"));
    let text = std::fs::read_to_string(&path).unwrap();
    format::parse(&path.display().to_string(), &text, Default::default()).unwrap()
}

const EMBEDDED: SolverChoice = SolverChoice::Embedded;

#[test]
fn every_size_is_unique_and_passes_the_checker() {
    let sizes = [
        ("4x4.txt", 4, (2, 2)),
        ("6x6.txt", 6, (2, 3)),
        ("8x8.txt", 8, (2, 4)),
        ("9x9.txt", 9, (3, 3)),
        ("classic.txt", 9, (3, 3)),
        ("10x10.txt", 10, (2, 5)),
        ("12x12.txt", 12, (3, 4)),
        ("16x16.txt", 16, (4, 4)),
        ("25x25.txt", 25, (5, 5)),
    ];
    for (file, n, boxes) in sizes {
        for s in read(file) {
            assert_eq!((s.size, (s.box_rows, s.box_cols)), (n, boxes), "{file}");
            let Solutions::Unique(g) = puzzle::verdict(&s, &EMBEDDED).unwrap() else {
                panic!("{file}: not unique");
            };
            assert_eq!(rules::check(&s, &g), Ok(()));
            // The givens are kept, and the unfolded model (givens as assumptions) agrees.
            for (i, &v) in s.cells.iter().enumerate() {
                assert!(v == 0 || g.0[i] == v);
            }
            let m = s.model(GivenMode::Assume, false);
            let lits: Vec<Lit> = m.givens.iter().map(|x| x.lit).collect();
            let mut session =
                Session::new(Box::new(Varisat::new()), &m.formula, m.answer.clone(), true);
            let Verdict::Unique(a) = session.verdict(&lits).unwrap() else {
                panic!("{file}: unfolded model not unique");
            };
            assert_eq!(s.decode(&m, &a), g, "{file}");
        }
    }
}

#[test]
fn several_gives_two_checked_solutions_that_differ_where_it_says() {
    let s = &read("several.txt")[0];
    let Solutions::Multiple(a, b, cells) = puzzle::verdict(s, &EMBEDDED).unwrap() else {
        panic!("several.txt should have several solutions");
    };
    assert_eq!(rules::check(s, &a), Ok(()));
    assert_eq!(rules::check(s, &b), Ok(()));
    assert!(!cells.is_empty());
    for i in 0..81 {
        assert_eq!(cells.contains(&(i / 9, i % 9)), a.0[i] != b.0[i]);
    }
    assert_eq!(puzzle::count(s, &EMBEDDED, 100).unwrap().len(), 2);
}

#[test]
fn forced_cells_are_the_cells_all_solutions_share() {
    let s = &read("several.txt")[0];
    let all = puzzle::count(s, &EMBEDDED, 100).unwrap();
    let forced = puzzle::forced(s, &EMBEDDED).unwrap().unwrap();
    // Independently: the open cells whose value is the same in every solution.
    let mut expected: Vec<(usize, usize, i64)> = (0..81)
        .filter(|&i| s.cells[i] == 0 && all.iter().all(|g| g.0[i] == all[0].0[i]))
        .map(|i| (i / 9, i % 9, all[0].0[i] as i64))
        .collect();
    expected.sort();
    let got: Vec<(usize, usize, i64)> = forced.iter().map(|c| (c.row, c.col, c.value)).collect();
    assert_eq!(got, expected);
    assert!(!got.is_empty());
}

#[test]
fn none_has_no_solution_and_a_minimal_conflicting_set() {
    let s = &read("none.txt")[0];
    assert!(matches!(
        puzzle::verdict(s, &EMBEDDED).unwrap(),
        Solutions::None
    ));
    let labels = puzzle::conflicts(s, &EMBEDDED).unwrap().unwrap();
    assert_eq!(labels.len(), 5, "{labels:?}");
    // Keep only the conflicting givens: still no solution. Drop any one of them: a solution.
    let keep = |drop: Option<usize>| {
        let mut t = Sudoku::empty(9, 3, 3);
        for (k, l) in labels.iter().enumerate() {
            if Some(k) == drop {
                continue;
            }
            let (cell, v) = l.split_once('=').unwrap();
            let (r, c) = cell[1..].split_once('c').unwrap();
            let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
            assert_eq!(
                s.cells[(r - 1) * 9 + c - 1],
                v.parse::<u8>().unwrap(),
                "a given"
            );
            t.cells[(r - 1) * 9 + c - 1] = v.parse().unwrap();
        }
        t
    };
    assert!(puzzle::solve(&keep(None), &EMBEDDED).unwrap().is_none());
    for k in 0..labels.len() {
        let g = puzzle::solve(&keep(Some(k)), &EMBEDDED)
            .unwrap()
            .expect("a solution");
        assert_eq!(rules::check(&keep(Some(k)), &g), Ok(()));
    }
    // Every given is legal on its own: the parser accepted the file.
    assert_eq!(
        puzzle::conflicts(&read("9x9.txt")[0], &EMBEDDED).unwrap(),
        None
    );
}

#[test]
fn the_checker_rejects_what_the_model_would_never_produce() {
    let s = &read("9x9.txt")[0];
    let Some(g) = puzzle::solve(s, &EMBEDDED).unwrap() else {
        panic!()
    };
    // Swapping two values of a row keeps the row a permutation but breaks a column or a given.
    let mut bad = g.0.clone();
    bad.swap(0, 1);
    assert!(rules::check(s, &Grid(bad)).is_err());
}

#[test]
fn folded_and_full_models_agree_on_every_project_puzzle() {
    for file in [
        "4x4.txt",
        "6x6.txt",
        "8x8.txt",
        "9x9.txt",
        "several.txt",
        "none.txt",
        "10x10.txt",
    ] {
        for s in read(file) {
            let mut answers = Vec::new();
            for enc in [model::Encoding::CHOSEN, model::Encoding::FULL] {
                let m = model::build_with(&s, GivenMode::Fold, false, enc);
                let mut session =
                    Session::new(Box::new(Varisat::new()), &m.formula, m.answer.clone(), true);
                let mut sols: Vec<Vec<u8>> = session
                    .solutions(10, &[])
                    .unwrap()
                    .iter()
                    .map(|a| model::decode(&s, &m.map, a).0)
                    .collect();
                sols.sort();
                answers.push(sols);
            }
            assert_eq!(answers[0], answers[1], "{file}");
        }
    }
}
