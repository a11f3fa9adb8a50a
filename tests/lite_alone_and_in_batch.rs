//! A puzzle is solved the same way alone and in a batch: the lite solvers made one after
//! another on a thread take the buffers of the one dropped before (`Spare` in
//! `src/solver/lite.rs`), and only their capacity may pass on. Each of the 270 Janko Numberlink
//! puzzles (read in place from `../shared/corpora`; skipped with a message when absent) is
//! solved the way `check` does it (lazy cuts, then a second solution sought), once in a row on
//! this thread and once alone on a thread of its own: the conflicts of every solve, the cuts
//! and the models must be the same. (Issue 15 asked whether a whole-file run needed a flow cut
//! that #187 or #188 alone does not; this holds every puzzle of the file to "no".)

mod common;

use gridsat::cnf::Lit;
use gridsat::numberlink::format::{self, ReadOptions};
use gridsat::numberlink::{Numberlink, Rules};
use gridsat::puzzle::{GivenMode, Puzzle};
use gridsat::solver::{Backend, Lite, Outcome};

/// What solving `p` met: per solve, the conflicts so far, the number of cut clauses and the
/// model's answer (empty for no model).
type Trace = Vec<(u64, usize, Vec<bool>)>;

fn trace(p: &Numberlink) -> Trace {
    let model = p.model(GivenMode::Fold, false);
    let mut lite = Lite::new();
    lite.add_formula(&model.formula);
    let preferred = p.preferred(&model);
    if !preferred.is_empty() {
        lite.prefer(&preferred);
    }
    let mut out = Trace::new();
    let mut first = None;
    while out.len() < 500 {
        let answer = match lite.solve(&model.normal).unwrap() {
            Outcome::Sat(a) => a,
            Outcome::Unsat(_) => {
                out.push((lite.conflicts(), 0, Vec::new()));
                break;
            }
        };
        let cuts = p.refine(&model, &answer);
        let values: Vec<bool> = model.answer.iter().map(|&v| answer.var(v)).collect();
        out.push((lite.conflicts(), cuts.len(), values));
        for c in &cuts {
            lite.add_clause(c);
        }
        if cuts.is_empty() {
            if first.is_some() {
                break;
            }
            // The first solution: block it and look for a second (under the normal form).
            let block: Vec<Lit> = model.answer[..p.distinct(&model)]
                .iter()
                .filter(|&&v| answer.var(v))
                .map(|&v| v.neg())
                .collect();
            lite.add_clause(&block);
            first = Some(answer);
        }
    }
    out
}

#[test]
fn every_janko_puzzle_is_solved_alike_alone_and_after_the_others() {
    let Some(text) = common::corpus_text("numberlink/thomasahle_numberlink/puzzles/janko") else {
        return;
    };
    let opts = ReadOptions {
        rules: Some(Rules::Flow),
        ..Default::default()
    };
    let ps = format::parse("janko", &text, opts).unwrap();
    assert_eq!(ps.len(), 270);
    let in_a_row: Vec<Trace> = ps.iter().map(trace).collect();
    let (mut conflicts, mut cuts) = (0, 0);
    for (i, p) in ps.iter().enumerate() {
        let alone = std::thread::scope(|s| s.spawn(|| trace(p)).join().unwrap());
        assert!(in_a_row[i] == alone, "#{} is solved otherwise alone", i + 1);
        conflicts += alone.last().map_or(0, |t| t.0);
        cuts += alone.iter().map(|t| t.1).sum::<usize>();
    }
    // Enough search for a leak to show: learnt clauses and restarts on many puzzles, and
    // cuts (4,885 conflicts and 6 cuts when this was written).
    assert!(
        conflicts > 2_000 && cuts > 0,
        "{conflicts} conflicts, {cuts} cuts"
    );
}
