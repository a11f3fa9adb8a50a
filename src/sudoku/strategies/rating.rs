//! Ratings on a scale comparable to Sudoku Explainer's (SE): a number per technique (hidden
//! single 1.2/1.5, naked single 2.3, pointing 2.6 ... chains 6.5 and up, growing with their
//! length as SE's do), a level word for a rating, and the grade of a whole path.

use crate::explain::{Grade, Step};

/// The techniques' base ratings (SE's where SE has the technique; a chain-equivalent rating
/// where SE would find the same deduction as a chain).
pub mod base {
    pub const FULL_HOUSE: f64 = 1.0;
    pub const HIDDEN_SINGLE_BOX: f64 = 1.2;
    pub const HIDDEN_SINGLE_LINE: f64 = 1.5;
    pub const DIRECT_POINTING: f64 = 1.7;
    pub const DIRECT_CLAIMING: f64 = 1.9;
    pub const DIRECT_HIDDEN_PAIR: f64 = 2.0;
    pub const NAKED_SINGLE: f64 = 2.3;
    pub const DIRECT_HIDDEN_TRIPLE: f64 = 2.5;
    pub const POINTING: f64 = 2.6;
    pub const CLAIMING: f64 = 2.8;
    pub const NAKED_PAIR: f64 = 3.0;
    pub const X_WING: f64 = 3.2;
    pub const HIDDEN_PAIR: f64 = 3.4;
    pub const NAKED_TRIPLE: f64 = 3.6;
    pub const SWORDFISH: f64 = 3.8;
    pub const HIDDEN_TRIPLE: f64 = 4.0;
    pub const XY_WING: f64 = 4.2;
    pub const XYZ_WING: f64 = 4.4;
    pub const UR_1: f64 = 4.5;
    pub const UR_2: f64 = 4.6;
    pub const UR_3: f64 = 4.6;
    pub const UR_4: f64 = 4.6;
    pub const UR_5: f64 = 4.7;
    pub const UR_6: f64 = 4.7;
    pub const HIDDEN_RECTANGLE: f64 = 4.7;
    pub const NAKED_QUAD: f64 = 5.0;
    pub const JELLYFISH: f64 = 5.2;
    pub const HIDDEN_QUAD: f64 = 5.4;
    pub const BUG_1: f64 = 5.6;
    /// A cycle (continuous nice loop) on one value, or with cell links only.
    pub const X_CYCLE: f64 = 6.5;
    /// A chain on one value (X-Chain, Skyscraper, 2-String Kite, Turbot Fish, Empty
    /// Rectangle).
    pub const X_CHAIN: f64 = 6.6;
    /// A chain through cells (XY-Chain, remote pair) or mixing cell and unit links (AIC,
    /// W-Wing), or a mixed cycle: SE's "forcing chain" base.
    pub const AIC: f64 = 7.0;
    /// A chain from a candidate to its own contradiction on the starting grid (SE's Nishio).
    pub const NISHIO: f64 = 7.5;
    /// Several chains from the candidates of one cell or the places of one value in a unit.
    pub const FORCING_CHAINS: f64 = 8.0;
    /// Chains that follow the grid as it changes (singles included) to a contradiction.
    pub const DYNAMIC_CHAIN: f64 = 8.5;
    /// Dynamic chains whose play-outs also use locked candidates and pairs (SE's "+").
    pub const DYNAMIC_PLUS: f64 = 9.0;
    /// Chains whose play-outs use chains (SE's nested forcing chains): dynamic chains inside
    /// 10.0, dynamic chains (+) inside 10.5 (SE's 0.5 a level), and nested chains (+) inside
    /// 10.5 too (beyond SE's levels; their length bonus keeps them under 12). See
    /// `nested::level_base`.
    pub const NESTED: f64 = 10.0;
    pub const NESTED_PLUS: f64 = 10.5;
    pub const NESTED_3: f64 = 10.5;
    /// Almost locked sets (ALS-XZ and up), Sue de Coq, templates: techniques SE does not have;
    /// rated beside the chains that would find the same deductions.
    pub const ALS_XZ: f64 = 7.5;
    pub const SUE_DE_COQ: f64 = 7.0;
    pub const TEMPLATE: f64 = 8.0;
    /// A step proven by the SAT solver.
    pub const SOLVER: f64 = 11.0;
}

/// SE's extra difficulty for a chain of `nodes` candidates: +0.1 each time the length passes
/// 4, 6, 8, 12, 16, 24, 32, 48 ...
pub fn length_bonus(nodes: usize) -> f64 {
    let mut bonus = 0.0;
    let mut ceil = 4;
    let mut odd = false;
    while nodes > ceil {
        bonus += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    bonus
}

/// A level word for a rating on the SE-like scale: easy (hidden singles and the direct
/// techniques, up to 2.0), medium (naked singles, locked candidates, naked pairs: up to 3.0),
/// hard (subsets, basic fish, XY/XYZ-Wings, the first unique rectangles: up to 4.6), expert
/// (quads, Jellyfish, BUG, chains of every kind: below 7.5), extreme (forcing chains and
/// beyond, and anything that needed the solver).
pub fn level(rating: f64) -> &'static str {
    match rating {
        r if r <= 2.0 => "easy",
        r if r <= 3.0 => "medium",
        r if r <= 4.6 => "hard",
        r if r < 7.5 => "expert",
        _ => "extreme",
    }
}

/// The grade of a path: the rating of its hardest step (as SE rates a puzzle), the level for
/// it, and how many steps of each technique the path took, hardest first.
pub fn grade(steps: &[Step]) -> Grade {
    crate::explain::grade_by_hardest(steps, level)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_bonus_follows_se_ceilings() {
        let got: Vec<f64> = [4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25]
            .iter()
            .map(|&k| (length_bonus(k) * 10.0).round() / 10.0)
            .collect();
        assert_eq!(
            got,
            vec![0.0, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 0.6]
        );
    }

    #[test]
    fn levels() {
        assert_eq!(level(1.2), "easy");
        assert_eq!(level(2.0), "easy");
        assert_eq!(level(2.3), "medium");
        assert_eq!(level(3.2), "hard");
        assert_eq!(level(4.6), "hard");
        assert_eq!(level(6.6), "expert");
        assert_eq!(level(7.4), "expert");
        assert_eq!(level(7.5), "extreme");
        assert_eq!(level(11.0), "extreme");
    }
}
