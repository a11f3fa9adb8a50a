//! Step pictures of the chain techniques: a grouped AIC (from a position of HoDoKu's
//! regression library) and a nested forcing chain (from AI Escargot's path) are drawn with
//! every link of their chain, strong links solid and weak ones dashed. With
//! `GRIDSAT_DOCS_IMAGES=DIR` the test also writes them as PNG files there (`docs/images/make.sh`
//! makes the documentation's pictures so).

mod common;

use gridsat::draw::{layout, raster, Mark, Picture};
use gridsat::explain::{Explain, ExplainOptions, Step};
use gridsat::puzzle::{verdict, Solutions};
use gridsat::solver::SolverChoice;
use gridsat::sudoku::format::{parse, ReadOptions};
use gridsat::sudoku::render::position;
use gridsat::sudoku::strategies::{find_all, Board};

/// The links a picture draws: (strong, weak).
fn links(p: &Picture) -> (usize, usize) {
    let strong = p.count(|m| matches!(m, Mark::Link { strong: true, .. }));
    let weak = p.count(|m| matches!(m, Mark::Link { strong: false, .. }));
    (strong, weak)
}

/// Writes the picture (to `GRIDSAT_DOCS_IMAGES` when set) after checking its SVG draws both
/// kinds of link the step has: (strong, weak).
fn write(p: &Picture, name: &str, kinds: (usize, usize)) {
    let svg = layout::single(p).to_svg();
    assert_eq!(svg.contains("class=\"link strong\""), kinds.0 > 0);
    assert_eq!(svg.contains("class=\"link weak\""), kinds.1 > 0);
    if let Ok(dir) = std::env::var("GRIDSAT_DOCS_IMAGES") {
        let png = raster::png(&svg).expect("a PNG");
        std::fs::write(std::path::Path::new(&dir).join(name), png).expect("written");
    }
}

fn count_links(s: &Step) -> (usize, usize) {
    let strong = s.links.iter().filter(|l| l.strong).count();
    (strong, s.links.len() - strong)
}

#[test]
fn grouped_aic_is_drawn_with_its_links() {
    let Some(text) = common::corpus_text("sudoku/hodoku_reglib-1.2.txt") else {
        return;
    };
    // The first grouped AIC entry of the library, read as a HoDoKu library line.
    let line = text.lines().find(|l| l.starts_with(":0711-1:")).unwrap();
    let s = parse("reglib", line, ReadOptions::default())
        .expect("a HoDoKu library line")
        .remove(0);
    let b = Board::new(&s);
    let steps = find_all(&b, "grouped AIC").unwrap();
    let step = steps
        .iter()
        .find(|st| st.technique == "grouped AIC")
        .expect("a chain through a group");
    let p = position(&s, &b, Some(step));
    assert_eq!(links(&p), count_links(step));
    assert!(count_links(step).1 > 0, "weak links too");
    write(&p, "sudoku-grouped-aic.png", count_links(step));
}

#[test]
fn nested_forcing_chain_is_drawn_with_its_play_out() {
    let Some(text) = common::corpus_text("sudoku/famous_hardest_with_SE.txt") else {
        return;
    };
    let line = text.lines().find(|l| l.contains("AI_Escargot")).unwrap();
    let s = parse(
        "famous",
        line.split_whitespace().next().unwrap(),
        ReadOptions::default(),
    )
    .unwrap()
    .remove(0);
    let Solutions::Unique(g) = verdict(&s, &SolverChoice::Embedded).unwrap() else {
        panic!("unique");
    };
    let e = s.explain(
        &g,
        ExplainOptions {
            fallback: false,
            unique: true,
        },
    );
    let k = e
        .steps
        .iter()
        .position(|st| st.technique == "nested forcing chain")
        .expect("a nested chain on AI Escargot's path");
    let mut b = Board::new(&s);
    for st in &e.steps[..k] {
        b.apply(st);
    }
    let step = &e.steps[k];
    // One line per consequence, the last naming the contradiction.
    assert!(step.text.lines().count() > 2, "{}", step.text);
    assert!(step
        .text
        .lines()
        .last()
        .unwrap()
        .contains("a contradiction"));
    let p = position(&s, &b, Some(step));
    assert_eq!(links(&p), count_links(step));
    assert!(!step.links.is_empty());
    write(&p, "sudoku-nested-chain.png", count_links(step));
}
