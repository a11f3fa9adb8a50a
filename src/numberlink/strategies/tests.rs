//! Tests of the Numberlink strategy engine on the project's puzzles: each is explained without
//! a solver step under the rule set it is unique under, every step (links included) holds to
//! the SAT solution, and the ratings and levels keep their scale.

use super::*;
use crate::numberlink::format::{self, ReadOptions};
use crate::numberlink::Rules;
use crate::puzzle::{verdict, Puzzle, Solutions};
use crate::solver::SolverChoice;

fn read(text: &str, rules: Rules) -> Numberlink {
    let opts = ReadOptions {
        rules: Some(rules),
        ..Default::default()
    };
    format::parse("t", text, opts).unwrap().remove(0)
}

fn unique(p: &Numberlink) -> Links {
    match verdict(p, &SolverChoice::Embedded).unwrap() {
        Solutions::Unique(s) => s,
        _ => panic!("{} is not unique", p.describe()),
    }
}

/// Explains `p` without the solver and checks every step; returns the steps.
fn explained(p: &Numberlink) -> Vec<Step> {
    let s = unique(p);
    let e = p.explain(&s, ExplainOptions::default());
    assert!(e.solved, "{} is stuck:\n{:?}", p.describe(), e.stuck);
    assert_eq!(p.verify(&s, &e.steps), Ok(()));
    assert!(e.steps.iter().all(|st| st.technique != SOLVER_TECHNIQUE));
    e.steps
}

#[test]
fn the_projects_puzzles_are_explained_under_each_rule_set_they_are_unique_under() {
    let flow7 = include_str!("../../../puzzles/numberlink/flow7.txt");
    let cover = include_str!("../../../puzzles/numberlink/cover6x5.txt");
    let nikoli = include_str!("../../../puzzles/numberlink/nikoli6.txt");
    for (text, rules) in [
        (flow7, Rules::Flow),
        (cover, Rules::Cover),
        (nikoli, Rules::Nikoli),
        (nikoli, Rules::Flow),
    ] {
        let steps = explained(&read(text, rules));
        // Every step draws links or changes candidates, and names the cells it uses.
        for st in &steps {
            assert!(
                !st.links.is_empty() || !st.placements.is_empty() || !st.eliminations.is_empty()
            );
            assert!(!st.pattern.is_empty() && !st.text.is_empty(), "{st:?}");
        }
    }
}

#[test]
fn a_what_if_is_rated_by_its_length_and_checked_like_any_step() {
    let p = read(
        include_str!("../../../puzzles/numberlink/whatif8.txt"),
        Rules::Flow,
    );
    let steps = explained(&p);
    let what_ifs: Vec<&Step> = steps.iter().filter(|s| s.technique == "what if").collect();
    assert!(!what_ifs.is_empty());
    for s in &what_ifs {
        assert!(s.text.starts_with("what if "), "{}", s.text);
        assert!(s.rating >= what_if_rating(1) && s.rating < 10.0);
    }
    assert_eq!(grade(&steps).level, "expert");
}

#[test]
fn a_wrong_link_is_caught() {
    let p = read(
        include_str!("../../../puzzles/numberlink/flow7.txt"),
        Rules::Flow,
    );
    let s = unique(&p);
    let mut steps = explained(&p);
    // Two neighbours the solution does not link, drawn as a link of the first step.
    let (c, m) = (0..p.cells())
        .flat_map(|c| SIDES.iter().map(move |&x| (c, x)))
        .find_map(|(c, x)| {
            let m = p.neighbour(c, x)?;
            (s.arms[c] & x == 0).then_some((c, m))
        })
        .unwrap();
    let at = |c: usize| CellValue {
        row: c / p.width,
        col: c % p.width,
        value: 0,
    };
    steps[0].links.push(crate::explain::Link {
        from: at(c),
        to: at(m),
        strong: true,
    });
    assert!(verify_links(&p, &s, &steps).is_err());
}

#[test]
fn ratings_and_levels_keep_their_scale() {
    assert_eq!(what_if_rating(1), 4.0);
    assert_eq!(what_if_rating(4), 5.0);
    assert_eq!(what_if_rating(16), 6.0);
    assert_eq!(what_if_rating(64), 7.0);
    assert_eq!(level(Technique::OnlyWayOn.base()), "easy");
    assert_eq!(level(Technique::DeadEnd.base()), "medium");
    assert_eq!(level(Technique::SealedArea.base()), "hard");
    assert_eq!(level(what_if_rating(16)), "expert");
    assert_eq!(level(what_if_rating(20)), "extreme");
    assert_eq!(level(Technique::Solver.base()), "extreme");
    for w in Technique::ALL.windows(2) {
        assert!(w[0].base() <= w[1].base(), "{:?} {:?}", w[0], w[1]);
    }
}

#[test]
fn a_what_if_copy_is_put_back_as_it_was() {
    let p = read(
        include_str!("../../../puzzles/numberlink/flow7.txt"),
        Rules::Flow,
    );
    let sol = unique(&p);
    let s = Shape::new(&p);
    let b = Board::new(&s, &p);
    let mut c = b.clone();
    c.start_log();
    // Draw the solution's links from the top row down and take paths out of cells, as a run
    // would, until the board says no.
    let mut changed = 0;
    for x in 0..s.cells() {
        for (i, m) in s.around(x) {
            if sol.arms[x] & SIDES[i] != 0 && c.link(&s, x, m).is_ok() {
                changed += 1;
            }
        }
        if x % 3 == 0 {
            let k = c.list(x)[0];
            if c.single(x).is_none() && c.remove(x, k).is_ok() {
                changed += 1;
            }
        }
    }
    assert!(changed > 20, "{changed}");
    assert_ne!(c.arms, b.arms);
    c.restore(&b);
    assert_eq!(c.arms, b.arms);
    for x in 0..s.cells() {
        assert_eq!(c.list(x), b.list(x), "cell {x}");
        assert_eq!(c.single(x), b.single(x), "cell {x}");
        assert_eq!(c.piece_size(x), b.piece_size(x), "cell {x}");
        assert_eq!(c.members(x), b.members(x), "cell {x}");
        assert_eq!(c.other_tip(x), b.other_tip(x), "cell {x}");
    }
}

/// Walks every board of the puzzles `sets` (text, rules) from the start to the solution, one
/// step of the engine at a time, and calls `at` on each board before its step (with the memo
/// the step then uses). The number of boards.
fn walk_boards(
    sets: &[(&str, Rules)],
    mut at: impl FnMut(&Numberlink, &Shape, &Board, &mut memo::Memo),
) -> usize {
    let mut boards = 0;
    for &(text, rules) in sets {
        let p = read(text, rules);
        let s = Shape::new(&p);
        let mut b = Board::new(&s, &p);
        let mut pending = whatif::Pending::default();
        let mut work = whatif::Work::new(&s);
        let mut memo = memo::Memo::default();
        while !b.solved(&s) {
            at(&p, &s, &b, &mut memo);
            boards += 1;
            let d = next(&p, &s, &b, &mut memo, &mut pending, &mut work).expect("a step");
            apply(&s, &mut b, &d).unwrap();
        }
    }
    boards
}

const WHATIF8: &str = include_str!("../../../puzzles/numberlink/whatif8.txt");

/// `puzzles/numberlink/whatif8.txt`, read: the board the what-if and carry tests start from.
pub(super) fn whatif8() -> Numberlink {
    format::parse("t", WHATIF8, ReadOptions::default())
        .unwrap()
        .remove(0)
}
const FLOW7: &str = include_str!("../../../puzzles/numberlink/flow7.txt");
const COVER6X5: &str = include_str!("../../../puzzles/numberlink/cover6x5.txt");
const NIKOLI6: &str = include_str!("../../../puzzles/numberlink/nikoli6.txt");

#[test]
fn out_of_reach_and_bottleneck_sharing_their_searches_find_what_each_finds_alone() {
    let mut found = [0; 2];
    let show = |f: &Found| format!("{f:?}");
    let sets = [
        (WHATIF8, Rules::Flow),
        (FLOW7, Rules::Flow),
        (COVER6X5, Rules::Cover),
        (NIKOLI6, Rules::Nikoli),
    ];
    let boards = walk_boards(&sets, |p, s, b, _| {
        let mut x = paths::Scratch::default();
        let alone = paths::out_of_reach(s, b, Some(p), &mut x);
        let (reach, cut) = paths::reach_then_bottleneck(s, b, Some(p), &mut x);
        assert_eq!(show(&reach), show(&alone));
        if alone.is_none() {
            let cut_alone = paths::bottleneck(s, b, Some(p), &mut x);
            assert_eq!(show(&cut), show(&cut_alone));
            found[1] += usize::from(cut.is_some());
        } else {
            found[0] += 1;
        }
    });
    assert!(
        boards > 100 && found[0] > 0 && found[1] > 0,
        "{boards} {found:?}"
    );
}

#[test]
fn what_the_step_keeps_from_board_to_board_finds_what_a_look_at_the_whole_board_finds() {
    let mut rooms = 0;
    let show = |f: &dyn std::fmt::Debug| format!("{f:?}");
    let sets = [
        (WHATIF8, Rules::Flow),
        (FLOW7, Rules::Flow),
        (COVER6X5, Rules::Cover),
        (NIKOLI6, Rules::Nikoli),
        (NIKOLI6, Rules::Flow),
    ];
    let boards = walk_boards(&sets, |p, s, b, memo| {
        memo.update(s, b);
        let kept = memo.local(s, b, Some(p));
        assert_eq!(show(&kept), show(&local_scan(s, b, Some(p))));
        if kept.is_none() {
            let whole = paths::reach_then_bottleneck(s, b, Some(p), &mut Default::default());
            assert_eq!(show(&memo.rooms(s, b, Some(p))), show(&whole));
            rooms += 1;
        }
    });
    assert!(boards > 100 && rooms >= 5, "{boards} {rooms}");
}
