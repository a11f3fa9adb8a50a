//! The pictures of what [`super::find`] found: a solved puzzle (the puzzle, its solution, or
//! both), two solutions with the cells where they differ shaded, a puzzle without solution with
//! its conflicting givens shaded. Each front end lays them out its own way (the command line's
//! `--format svg|png|pdf`, the web page, the Python package's `svg()`).

use super::Finding;
use crate::draw::{Look, Picture, Tone};
use crate::puzzle::Puzzle;

/// What a picture shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Show {
    Puzzle,
    Solution,
    Both,
}

/// The pictures of `finding` (none for a count).
pub fn of_finding<P: Puzzle>(
    p: &P,
    finding: &Finding<P::Solution>,
    show: Show,
    look: Look,
) -> Vec<Picture> {
    match finding {
        Finding::Solved(s) | Finding::Open(s, _) | Finding::Unique(s) => solved(p, s, show, look),
        Finding::Multiple {
            first,
            second,
            cells,
            ..
        } => several(p, first, second, cells, show, look),
        Finding::None { conflicting, .. } => unsolvable(p, conflicting, look),
        Finding::Counted { .. } => Vec::new(),
    }
}

/// A kind's picture (an empty one for a kind without pictures).
fn draw<P: Puzzle>(p: &P, s: Option<&P::Solution>, look: Look) -> Picture {
    p.picture(s, look).unwrap_or_else(|| Picture::new(0, 0))
}

/// [`draw`] for a picture shown beside the picture of solution `like` (in its colours).
fn draw_like<P: Puzzle>(p: &P, s: Option<&P::Solution>, like: &P::Solution, look: Look) -> Picture {
    p.picture_like(s, like, look)
        .unwrap_or_else(|| Picture::new(0, 0))
}

/// The pictures of a solved puzzle, side by side.
pub fn solved<P: Puzzle>(p: &P, s: &P::Solution, show: Show, look: Look) -> Vec<Picture> {
    match show {
        Show::Puzzle => vec![draw(p, None, look)],
        Show::Solution => vec![draw(p, Some(s), look)],
        Show::Both => vec![
            draw_like(p, None, s, look).with_caption("puzzle"),
            draw(p, Some(s), look).with_caption("solution"),
        ],
    }
}

/// The pictures of a puzzle with several solutions: two of them (or the puzzle) with the
/// cells where they differ shaded.
pub fn several<P: Puzzle>(
    p: &P,
    a: &P::Solution,
    b: &P::Solution,
    cells: &[(usize, usize)],
    show: Show,
    look: Look,
) -> Vec<Picture> {
    let shade = |mut pic: Picture| {
        for &(row, col) in cells {
            pic.marks.insert(
                1,
                crate::draw::Mark::Highlight {
                    row,
                    col,
                    tone: Tone::Differ,
                },
            );
        }
        pic
    };
    let puzzle = shade(draw_like(p, None, a, look));
    match show {
        Show::Puzzle => {
            vec![puzzle.with_caption("several solutions: they differ in the shaded cells")]
        }
        Show::Solution | Show::Both => {
            let mut out = Vec::new();
            if show == Show::Both {
                out.push(puzzle.with_caption("puzzle"));
            }
            out.push(shade(draw(p, Some(a), look)).with_caption("one solution"));
            out.push(
                shade(draw_like(p, Some(b), a, look))
                    .with_caption("another: they differ in the shaded cells"),
            );
            out
        }
    }
}

/// The picture of a puzzle with no solution: the conflicting givens shaded.
pub fn unsolvable<P: Puzzle>(p: &P, conflicting: &[String], look: Look) -> Vec<Picture> {
    let mut pic = draw(p, None, look);
    for g in conflicting {
        pic.highlight_named(g, Tone::Conflict);
    }
    let caption = if conflicting.is_empty() {
        "no solution (the rules have none even without givens)".to_string()
    } else {
        format!(
            "no solution: the shaded givens conflict ({})",
            conflicting.join(" ")
        )
    };
    vec![pic.with_caption(caption)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{Disc, Mark};
    use crate::numberlink::format::{parse, ReadOptions};
    use crate::solver::SolverChoice;
    use std::collections::BTreeMap;

    /// Each label's disc colour in a picture.
    fn disc_colours(pic: &Picture) -> BTreeMap<String, String> {
        pic.marks
            .iter()
            .filter_map(|m| match m {
                Mark::Circle {
                    disc: Disc::Colour(c),
                    label: Some(l),
                    ..
                } => Some((l.clone(), c.clone())),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_numberlink_path_keeps_its_colour_from_the_puzzle_to_its_solution() {
        // On this board the puzzle's own colouring (ends' boxes) and the solution's (paths that
        // touch) differ: 3 and 7 swapped colours between the two pictures of `--picture both`.
        let text = include_str!("../../puzzles/numberlink/flow7.txt");
        let p = parse("flow7.txt", text, ReadOptions::default())
            .unwrap()
            .remove(0);
        let s = crate::puzzle::solve(&p, &SolverChoice::Embedded)
            .unwrap()
            .unwrap();
        let alone = disc_colours(&draw(&p, None, Look::default()));
        let pics = solved(&p, &s, Show::Both, Look::default());
        let (puzzle, solution) = (disc_colours(&pics[0]), disc_colours(&pics[1]));
        assert_eq!(puzzle.len(), 7);
        assert_eq!(puzzle, solution);
        assert_ne!(
            alone, solution,
            "the board no longer tells the two colourings apart"
        );
    }
}
