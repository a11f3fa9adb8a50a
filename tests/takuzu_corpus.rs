//! Takuzu on the public corpora of `../shared/corpora/takuzu/` (read in place, skipped visibly
//! when absent):
//!
//! - all 12,693 normalized records solved with the verdict (and solution) they record, each
//!   under its own rules (distinct lines or not, odd lines, composite regions); the eager
//!   encoding of distinct lines on every tenth record as well;
//! - the raw collection files read in their own formats give the same givens and rules as the
//!   normalized records;
//! - the 2,125 binarypuzzle.com puzzles all explained by the five strategies without fallback,
//!   every step held to the SAT solution, and on every fifth puzzle every intermediate grid held
//!   to the independent rule checker; the grade agrees with the site's four levels on at least
//!   three puzzles in four (the confusion matrix is printed; BENCHMARKS.md records it).

mod common;

use gridsat::explain::verify_steps;
use gridsat::puzzle::{self, Puzzle, Solutions};
use gridsat::solver::SolverChoice;
use gridsat::takuzu::format::{parse, ReadOptions};
use gridsat::takuzu::strategies::{explain_path, grade, side, LEVELS};
use gridsat::takuzu::{rules, DistinctEncoding, Grid, Takuzu};
use serde_json::Value;

const RECORDS: &str = "takuzu/derived/takuzu-all.normalized.jsonl";

/// The records with the puzzles gridsat reads from them.
fn records() -> Option<Vec<(Value, Takuzu)>> {
    let text = common::corpus_text(RECORDS)?;
    let puzzles = parse(RECORDS, &text, &ReadOptions::default()).expect("records read");
    let recs: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(recs.len(), puzzles.len());
    Some(recs.into_iter().zip(puzzles).collect())
}

fn givens_string(t: &Takuzu) -> String {
    t.cells
        .iter()
        .map(|c| match c {
            Some(0) => '0',
            Some(_) => '1',
            None => '.',
        })
        .collect()
}

fn grid_string(g: &Grid) -> String {
    g.0.iter().map(|&v| (b'0' + v) as char).collect()
}

#[test]
fn every_record_has_its_recorded_verdict() {
    let Some(all) = records() else { return };
    assert_eq!(all.len(), 12_693);
    let choice = SolverChoice::Embedded;
    let (mut unique, mut multiple) = (0, 0);
    for (k, (r, t)) in all.iter().enumerate() {
        let id = format!("{} {}", r["set"], r["id"]);
        assert_eq!(givens_string(t), r["givens"].as_str().unwrap(), "{id}");
        assert_eq!(
            t.rules.distinct_lines,
            r["rules"]["unique_lines"].as_bool().unwrap(),
            "{id}"
        );
        let mut encodings = vec![t.rules.encoding];
        if k % 10 == 0 {
            encodings.push(Some(DistinctEncoding::Eager));
        }
        for enc in encodings {
            let mut t = t.clone();
            t.rules.encoding = enc;
            match puzzle::verdict(&t, &choice).expect("solver") {
                Solutions::Unique(g) => {
                    assert_eq!(r["n_solutions_verified"], 1, "{id}");
                    assert_eq!(grid_string(&g), r["solution"].as_str().unwrap(), "{id}");
                    unique += 1;
                }
                Solutions::Multiple(a, b, _) => {
                    assert_eq!(r["n_solutions_verified"], 2, "{id}");
                    assert!(t.check(&a).is_ok() && t.check(&b).is_ok() && a != b);
                    multiple += 1;
                }
                Solutions::None => panic!("{id}: no solution"),
            }
        }
    }
    eprintln!("takuzu records: {unique} unique and {multiple} multiple verdicts, all as recorded");
}

/// The records of one set, by id.
fn by_id<'a>(all: &'a [(Value, Takuzu)], set: &str) -> Vec<(&'a str, &'a Takuzu)> {
    all.iter()
        .filter(|(r, _)| r["set"] == set)
        .map(|(r, t)| (r["id"].as_str().unwrap(), t))
        .collect()
}

fn read_raw(rel: &str) -> Vec<Takuzu> {
    let path = common::corpus(&format!("takuzu/{rel}")).expect("present with the records");
    let text = std::fs::read_to_string(&path).unwrap();
    parse(rel, &text, &ReadOptions::default()).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn same(a: &Takuzu, b: &Takuzu, what: &str) {
    assert_eq!((a.width, a.height), (b.width, b.height), "{what}");
    assert_eq!(givens_string(a), givens_string(b), "{what}");
    assert_eq!(a.rules, b.rules, "{what}");
}

#[test]
fn raw_collections_read_as_their_records() {
    let Some(all) = records() else { return };
    // Borroot's sets (one line per puzzle, sets2 in the task code).
    for (set, dir) in [
        ("binarypuzzle.com(sets1)", "sets1"),
        ("puzzle-binairo.com(sets2)", "sets2"),
    ] {
        let recs = by_id(&all, set);
        let mut files: Vec<&str> = recs
            .iter()
            .map(|(id, _)| id.split('#').next().unwrap())
            .collect();
        files.dedup();
        for f in files {
            let raw = read_raw(&format!("Borroot-binairo-scrapers/{dir}/{f}"));
            let mine: Vec<&&Takuzu> = recs
                .iter()
                .filter(|(id, _)| id.split('#').next() == Some(f))
                .map(|(_, t)| t)
                .collect();
            assert_eq!(raw.len(), mine.len(), "{dir}/{f}");
            for (a, b) in raw.iter().zip(mine) {
                same(a, b, &format!("{dir}/{f}"));
            }
        }
    }
    // Thilerion's JSON (odd lines hold one more 1).
    let raw = read_raw("Thilerion-takuzu-vue/pregenerated.json");
    let recs = by_id(&all, "Thilerion");
    assert_eq!(raw.len(), recs.len());
    for (a, (id, b)) in raw.iter().zip(&recs) {
        same(a, b, id);
    }
    // janko via puzzlekit: the JSON collection (keys in sorted order) and the 20x20 text.
    let raw = read_raw("puzzlekit-dataset/Binairo_dataset.json");
    let mut recs = by_id(&all, "janko(puzzlekit)");
    let big = recs
        .iter()
        .position(|(id, _)| *id == "20x20_1.txt")
        .unwrap();
    let (_, t20) = recs.remove(big);
    recs.sort_by_key(|(id, _)| *id);
    assert_eq!(raw.len(), recs.len());
    for (a, (id, b)) in raw.iter().zip(&recs) {
        same(a, b, id);
    }
    same(
        &read_raw("puzzlekit-dataset/20x20_1.txt")[0],
        t20,
        "20x20_1",
    );
    // letheed's grids, FWieP's default puzzle, kennypassenier's files (with composite tags).
    for (id, t) in by_id(&all, "letheed") {
        same(&read_raw(&format!("letheed-takuzu/grids/{id}"))[0], t, id);
    }
    let (_, fw) = by_id(&all, "fwiep")[0];
    same(
        &read_raw("fwiep-binary-solver/index-default-14x14.txt")[0],
        fw,
        "fwiep",
    );
    for (id, t) in by_id(&all, "kennypassenier(binarypuzzle.com)") {
        let raw = read_raw(&format!("kennypassenier-binary-puzzle-toolkit/corpus/{id}"));
        assert_eq!(raw.len(), 1, "{id}");
        assert_eq!(givens_string(&raw[0]), givens_string(t), "{id}");
        assert_eq!(raw[0].lines(), t.lines(), "{id}: the same regions");
    }
    // letheed's output listings: every grid in them is a solution of its puzzle.
    for n in 1..=4 {
        let puzzle = &read_raw(&format!("letheed-takuzu/grids/grid{n}"))[0];
        let outs = read_raw(&format!("letheed-takuzu/grids/output{n}"));
        assert!(!outs.is_empty());
        for o in outs {
            let g = Grid(o.cells.iter().map(|c| c.expect("full")).collect());
            assert_eq!(rules::check(puzzle, &g), Ok(()), "output{n}");
        }
    }
}

#[test]
fn shlomif_boards_read_and_complete_uniquely() {
    let Some(root) = common::corpus("takuzu/shlomif-binary-puzzle-garden/ruby/test/data/boards")
    else {
        return;
    };
    let mut files = Vec::new();
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    assert_eq!(files.len(), 44);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.to_string_lossy();
        let ps = parse(&name, &text, &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ps.len(), 1, "{name}");
        let v = puzzle::verdict(&ps[0], &SolverChoice::Embedded).unwrap();
        assert!(matches!(v, Solutions::Unique(_)), "{name}");
    }
}

#[test]
fn binarypuzzle_com_puzzles_are_explained_without_fallback() {
    let Some(all) = records() else { return };
    let recs: Vec<&(Value, Takuzu)> = all
        .iter()
        .filter(|(r, _)| r["set"] == "binarypuzzle.com(sets1)")
        .collect();
    assert_eq!(recs.len(), 2125);
    let mut matrix = [[0usize; 5]; 4];
    for (k, (r, t)) in recs.iter().enumerate() {
        let id = r["id"].as_str().unwrap();
        let solution: Vec<u8> = r["solution"]
            .as_str()
            .unwrap()
            .bytes()
            .map(|b| b - b'0')
            .collect();
        let (steps, board) = explain_path(t, None, false);
        assert!(board.solved(), "{id}: the strategies got stuck");
        let rows: Vec<Vec<i64>> = solution
            .chunks(t.width)
            .map(|row| row.iter().map(|&v| v as i64).collect())
            .collect();
        verify_steps(&rows, &steps).unwrap_or_else(|e| panic!("{id}: {e}"));
        if k % 5 == 0 {
            let mut cells = t.cells.clone();
            for s in &steps {
                for p in &s.placements {
                    cells[p.row * t.width + p.col] = Some(p.value as u8);
                }
                assert_eq!(rules::violation(t, &cells), None, "{id}: after {}", s.text);
            }
        }
        let g = grade(&steps, side(t));
        let site = r["meta"]["level"].as_u64().unwrap() as usize - 1;
        let mine = LEVELS.iter().position(|&l| l == g.level).unwrap();
        matrix[site][mine] += 1;
    }
    eprintln!("site level \\ gridsat grade: {LEVELS:?}");
    for (l, row) in matrix.iter().enumerate() {
        eprintln!("{:>9}: {row:?}", LEVELS[l]);
    }
    let agree: usize = (0..4).map(|l| matrix[l][l]).sum();
    eprintln!("agreement: {agree} of 2125");
    assert!(
        agree * 4 >= 2125 * 3,
        "grade agreement fell to {agree} of 2125"
    );
    assert_eq!(matrix.iter().map(|r| r[4]).sum::<usize>(), 0);
}
