//! Generating Takuzu puzzles: a random solution drawn from SAT ([`generate::random_solution`]),
//! givens removed while SAT proves the solution unique ([`generate::reduce_givens`], in a
//! random order; for a level up to hard on a grid over 1000 cells, only down to 30% of the
//! cells), then graded by the strategies. For a target level, the strategies walk the
//! puzzle and, wherever they would need a harder strategy than the level allows (or run out),
//! the cell that step fills becomes a given; a candidate whose grade then misses the target is
//! replaced by another (up to [`ATTEMPTS`]), keeping the closest. Same seed, same puzzle.

use super::strategies::{self, Board, LEVELS};
use super::{model, Grid, Rules, Takuzu};
use crate::cnf::Lit;
use crate::error::{Error, Result};
use crate::generate::{self as gen, Generated};
use crate::puzzle::{GivenMode, Puzzle};
use crate::solver::{Session, SolverChoice};
use rand::seq::SliceRandom;

/// Candidates tried for a target level before settling for the closest (3 for grids over
/// 1000 cells).
pub const ATTEMPTS: usize = 12;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Options {
    pub width: usize,
    pub height: usize,
    pub rules: Rules,
    /// A level of [`LEVELS`] (index), or any.
    pub difficulty: Option<usize>,
    /// With no level: add givens back where the strategies run out, so that they finish the
    /// puzzle (false: the minimal puzzle, whatever its grade).
    pub finish: bool,
    pub seed: u64,
}

/// The level index for a word ([`crate::generate::difficulty`]'s words; `very hard` is
/// `expert`); `None` for `any` or an unknown word.
pub fn level_index(word: &str) -> Option<usize> {
    crate::generate::difficulty(word).ok().flatten()
}

/// The highest step rating a level allows (see [`strategies::level`]).
fn max_step_rating(level: usize) -> f64 {
    [1.0, 2.5, 2.5, 9.9][level.min(3)]
}

/// The last strategy a level may use (easy: pairs and sandwiches; medium and hard: counting).
fn max_strategy(level: usize) -> usize {
    [1, 2, 2, 5][level.min(3)]
}

/// A full random solution of the empty grid and a minimal unique puzzle for it.
fn minimal(o: &Options, rng: &mut gen::Rand) -> Result<(Takuzu, Grid)> {
    let empty = Takuzu::empty(o.width, o.height, o.rules.clone());
    let m = empty.model(GivenMode::Assume, false);
    let refine = |a: &crate::cnf::Assignment| model::refine(&empty, &m.map, a);
    let mut s = Session::new(
        SolverChoice::Embedded.backend(),
        &m.formula,
        m.answer.clone(),
        false,
    )
    .with_refine(&refine);
    let decisions = (o.width * o.height).min(600);
    let Some(a) = gen::random_solution(&mut s, &m.answer, false, decisions, rng)? else {
        return Err(Error::Usage(format!(
            "a {}x{} takuzu has no solution under these rules",
            o.width, o.height
        )));
    };
    let grid = model::decode(&empty, &m.map, &a);
    let givens: Vec<Lit> = m.answer.iter().map(|&v| v.lit(a.var(v))).collect();
    let mut groups: Vec<Vec<usize>> = (0..givens.len()).map(|i| vec![i]).collect();
    groups.shuffle(rng);
    // On a big grid the last removals before minimality are the expensive solves; a level up
    // to hard adds givens back anyway, so stop at 30% of the cells there.
    let floor = match o.difficulty {
        Some(d) if d < 3 && givens.len() > 1000 => givens.len() * 3 / 10,
        _ => 0,
    };
    let kept = gen::reduce_givens(&mut s, &givens, &a, &groups, |k, _| {
        k.iter().filter(|&&x| x).count() > floor
    })?;
    let mut t = empty.clone();
    for (i, &k) in kept.iter().enumerate() {
        if k {
            t.cells[m.map.var_cell[i]] = Some(grid.0[m.map.var_cell[i]]);
        }
    }
    Ok((t, grid))
}

/// Adds givens where the strategies would need more than `level` allows (or run out).
fn ease(t: &mut Takuzu, g: &Grid, level: usize) {
    let max = max_step_rating(level);
    let mut b = Board::new(t);
    let mut added = Vec::new();
    while !b.solved() {
        match strategies::next_step_upto(&mut b, max_strategy(level)) {
            Some(s) if s.rating <= max => b.apply(&s),
            found => {
                // The cell this step would fill (or the first open cell) becomes a given.
                let harder = match found {
                    Some(s) => Some(s),
                    None => strategies::next_step(&mut b),
                };
                let i = match harder {
                    Some(s) => s.placements[0].row * t.width + s.placements[0].col,
                    None => b.cells.iter().position(|c| c.is_none()).expect("open"),
                };
                b.set(i, g.0[i]);
                added.push(i);
            }
        }
    }
    for i in added {
        t.cells[i] = Some(g.0[i]);
    }
}

/// The level index a puzzle grades at (4: the strategies cannot finish it).
fn graded(t: &Takuzu) -> (usize, crate::explain::Grade) {
    let (steps, b) = strategies::explain_path(t, None, false);
    let mut grade = strategies::grade(&steps, strategies::side(t));
    if !b.solved() {
        grade.level = LEVELS[4].into();
    }
    let lvl = LEVELS.iter().position(|&l| l == grade.level).unwrap_or(4);
    (lvl, grade)
}

/// One puzzle.
pub fn generate(o: &Options) -> Result<Generated> {
    if o.width == 0 || o.height == 0 || o.width > 200 || o.height > 200 {
        return Err(Error::Usage(
            "takuzu sizes go from 1 to 200 a side".to_string(),
        ));
    }
    let mut rng = gen::rng(o.seed);
    let mut best: Option<(usize, Takuzu, crate::explain::Grade)> = None;
    let attempts = match o.difficulty {
        None => 1,
        // Each try of a big grid costs seconds: fewer of them.
        Some(_) if o.width * o.height > 1000 => 3,
        Some(_) => ATTEMPTS,
    };
    for _ in 0..attempts {
        let (mut t, g) = minimal(o, &mut rng)?;
        if let Some(level) = o.difficulty {
            // Extreme is a minimal puzzle the strategies cannot finish: nothing to ease.
            if level < 4 {
                ease(&mut t, &g, level);
            }
        } else if o.finish {
            ease(&mut t, &g, 3);
        }
        let (lvl, grade) = graded(&t);
        let miss = o.difficulty.map_or(0, |d| lvl.abs_diff(d));
        if best.as_ref().is_none_or(|(m, _, _)| miss < *m) {
            best = Some((miss, t, grade));
        }
        if miss == 0 {
            break;
        }
    }
    let (miss, t, grade) = best.expect("one attempt");
    let mut notes = Vec::new();
    if miss > 0 {
        notes.push(format!(
            "no {} puzzle in {attempts} tries; this one grades {}",
            LEVELS[o.difficulty.unwrap_or(0)],
            grade.level
        ));
    }
    Ok(Generated {
        kind: "takuzu",
        seed: o.seed,
        puzzle: t.to_file(),
        rows: t
            .cells
            .chunks(t.width)
            .map(|r| r.iter().map(|c| c.map_or(-1, |v| v as i64)).collect())
            .collect(),
        givens: t.clue_count(),
        grade: Some(grade),
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{verdict, Solutions};
    use crate::takuzu::format::{parse, ReadOptions};

    fn opts(w: usize, h: usize, difficulty: Option<usize>, seed: u64) -> Options {
        Options {
            width: w,
            height: h,
            rules: Rules::default(),
            difficulty,
            finish: false,
            seed,
        }
    }

    #[test]
    fn generated_puzzles_are_unique_and_repeatable() {
        for (w, h) in [(6, 6), (8, 6), (7, 7)] {
            let g = generate(&opts(w, h, None, 5)).unwrap();
            let t = &parse("g", &g.puzzle, &ReadOptions::default()).unwrap()[0];
            assert_eq!((t.width, t.height), (w, h));
            assert!(matches!(
                verdict(t, &SolverChoice::Embedded).unwrap(),
                Solutions::Unique(_)
            ));
            assert_eq!(generate(&opts(w, h, None, 5)).unwrap().puzzle, g.puzzle);
        }
    }

    #[test]
    fn difficulty_targets() {
        let g = generate(&opts(8, 8, Some(0), 2)).unwrap();
        assert_eq!(g.grade.as_ref().unwrap().level, "easy", "{:?}", g.notes);
        assert_eq!(level_index("very-hard"), Some(3));
        assert_eq!(level_index("expert"), Some(3));
        assert_eq!(level_index("Hard"), Some(2));
        assert_eq!(level_index("beyond"), Some(4));
        assert_eq!(level_index("any"), None);
        assert_eq!(level_index("bogus"), None);
        // With no level the strategies finish it (givens added back where they run out).
        let g = generate(&Options {
            finish: true,
            ..opts(10, 10, None, 3)
        })
        .unwrap();
        assert_ne!(g.grade.as_ref().unwrap().level, "extreme", "{:?}", g.notes);
    }
}
