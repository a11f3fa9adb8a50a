//! What every kind's generator returns, and the seeded random source they share (ChaCha, so a
//! seed gives the same puzzles on every machine).

use crate::explain::Grade;
use rand::SeedableRng;
use serde::Serialize;

/// The random source for a seed.
pub fn rng(seed: u64) -> rand_chacha::ChaCha8Rng {
    rand_chacha::ChaCha8Rng::seed_from_u64(seed)
}

/// One generated puzzle.
#[derive(Clone, Debug, Serialize)]
pub struct Generated {
    pub kind: &'static str,
    /// The seed that makes this puzzle again (with `--count 1`).
    pub seed: u64,
    /// The puzzle in its kind's file format, ready to save and read back.
    pub puzzle: String,
    /// The puzzle as rows of numbers (0 for an open cell).
    pub rows: Vec<Vec<i64>>,
    /// The number of givens.
    pub givens: usize,
    /// The grade, when the kind grades its puzzles.
    pub grade: Option<Grade>,
    /// Remarks for the user (for example why a clue target was changed).
    pub notes: Vec<String>,
}

impl Generated {
    /// The text form: comment lines (`#`) with seed, givens and grade, then the puzzle.
    pub fn text(&self) -> String {
        let mut s = format!(
            "# gridsat {} seed {} givens {}",
            self.kind, self.seed, self.givens
        );
        if let Some(g) = &self.grade {
            s.push_str(&format!(" grade {} rating {:.1}", g.level, g.rating));
        }
        s.push('\n');
        for n in &self.notes {
            s.push_str(&format!("# {n}\n"));
        }
        s.push_str(&self.puzzle);
        if !self.puzzle.ends_with('\n') {
            s.push('\n');
        }
        s
    }
}
