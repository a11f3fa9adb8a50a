//! `explain`, `hint` and `grade` for Shisen-sho. SAT finds a plan; the explanation walks it
//! move by move and, at every position, asks the [`Oracle`] which of the moves playable there
//! lose the game (leave a board that can no longer be cleared). Each step is the plan's move,
//! which is safe (proven: a clearing plan contains it), with how many playable moves lose; a
//! hint is the first step. The grade measures treachery: the share of random players (each
//! move chosen uniformly among the playable ones) that get stuck, 100 players with a fixed
//! seed, so the same board always gets the same grade.

use super::play::{stuck_players, with_oracle, Oracle, Position};
use super::{Plan, Shisen};
use crate::draw::{Look, Picture};
use crate::explain::{Explain, ExplainOptions, Explanation, Grade, Step};
use crate::puzzle::CellValue;

/// The random players of the grade, and their seed.
pub const PLAYERS: usize = 100;
pub const PLAYER_SEED: u64 = 2026;

/// A step whose move was not safe by the oracle: a bug `verify` reports.
const UNPROVEN: &str = "unproven move";

/// The level names, with the highest rating (10 × the share of random players that get stuck)
/// each one takes.
pub const LEVELS: [(&str, f64); 5] = [
    ("easy", 2.0),
    ("medium", 5.0),
    ("hard", 8.0),
    ("expert", 9.5),
    ("extreme", 10.0),
];

/// The level of a rating.
pub fn level(rating: f64) -> &'static str {
    LEVELS
        .iter()
        .find(|&&(_, top)| rating <= top)
        .map_or("extreme", |&(name, _)| name)
}

/// The rating of a board: 10 × the share of [`PLAYERS`] random players that get stuck.
pub fn rating(p: &Shisen) -> f64 {
    10.0 * stuck_players(p, PLAYERS, PLAYER_SEED) as f64 / PLAYERS as f64
}

/// At most this many losing moves are named in a step.
const NAMED: usize = 4;

/// Walks a plan, one step per move, with the losing moves at each position.
fn walk(p: &Shisen, plan: &Plan, oracle: &mut Oracle) -> Vec<Step> {
    if !p.rules.gravity {
        let pairs: Vec<(usize, usize)> = plan
            .moves
            .iter()
            .map(|m| (m.tiles[0], m.tiles[1]))
            .collect();
        oracle.knows(&pairs);
    }
    let mut pos = Position::start(p);
    let mut history: Vec<(usize, usize)> = Vec::new();
    let mut steps = Vec::with_capacity(plan.moves.len());
    let w = p.width;
    for (k, m) in plan.moves.iter().enumerate() {
        let playable = pos.playable(p);
        let tiles: Vec<(usize, usize)> = playable.iter().map(|&c| pos.tiles_of(c)).collect();
        let safe = oracle.classify(&history, &tiles);
        let this = tiles
            .iter()
            .position(|&(x, y)| [x, y] == m.tiles || [y, x] == m.tiles);
        let cell = |c: usize| crate::puzzle::cell_name(c / w, c % w);
        let named = |c: &(usize, usize)| {
            let face = p.face_name(pos.at[c.0].expect("tile"));
            format!("{face} {}-{}", cell(c.0), cell(c.1))
        };
        let (technique, rating, tail) = match (&safe, this) {
            (Ok(safe), Some(i)) if safe[i] => {
                let losing: Vec<String> = playable
                    .iter()
                    .zip(safe)
                    .filter(|(_, &s)| !s)
                    .map(|(c, _)| named(c))
                    .collect();
                let n = playable.len();
                let tail = match (n, losing.len()) {
                    (1, _) => "the only playable move".to_string(),
                    (n, 0) => format!("none of the {n} playable moves loses"),
                    (n, l) => {
                        let mut list = losing[..l.min(NAMED)].join(", ");
                        if l > NAMED {
                            list.push_str(", ...");
                        }
                        let verb = if l == 1 { "loses" } else { "lose" };
                        format!("{l} of the {n} playable moves {verb}: {list}")
                    }
                };
                let technique = if losing.is_empty() {
                    "free move"
                } else {
                    "safe move"
                };
                (technique, 10.0 * losing.len() as f64 / n as f64, tail)
            }
            (Err(e), _) => (
                "safe move",
                0.0,
                format!("(the other moves not checked: {e})"),
            ),
            _ => (
                UNPROVEN,
                0.0,
                "the solver does not confirm this move".to_string(),
            ),
        };
        let mv = m.cells.map(|(r, c)| CellValue {
            row: r,
            col: c,
            value: 0,
        });
        let at = m.tiles.map(|t| CellValue {
            row: t / w,
            col: t % w,
            value: k as i64 + 1,
        });
        steps.push(Step {
            technique: technique.into(),
            rating,
            pattern: mv.to_vec(),
            placements: at.to_vec(),
            eliminations: Vec::new(),
            links: Vec::new(),
            text: format!("{technique}: {}; {tail}", p.move_name(m)),
        });
        let (x, y) = (
            m.cells[0].0 * w + m.cells[0].1,
            m.cells[1].0 * w + m.cells[1].1,
        );
        history.push((m.tiles[0], m.tiles[1]));
        pos.remove(p, x, y);
    }
    steps
}

/// The grade: the share of random players that get stuck, the worst position of the path, and
/// how many moves had losing alternatives.
fn grade(p: &Shisen, steps: &[Step]) -> Grade {
    let rating = rating(p);
    let worst = steps
        .iter()
        .enumerate()
        .filter(|(_, s)| s.rating > 0.0)
        .max_by(|a, b| a.1.rating.total_cmp(&b.1.rating));
    let hardest = match worst {
        Some((k, s)) => {
            let tail = s.text.split("; ").nth(1).unwrap_or("");
            let tail = tail.split(':').next().unwrap_or(tail);
            format!("move {}: {tail}", k + 1)
        }
        // Along this plan every playable move was safe; the rating counts random players,
        // who leave the plan, so say where the traps are not.
        None if rating > 0.0 => format!(
            "no move loses along this plan, but {:.0}% of random players stray from it and get stuck",
            rating * 10.0
        ),
        None => "no move loses along this plan, and no random player got stuck".to_string(),
    };
    let mut techniques: Vec<(String, usize)> = Vec::new();
    for name in ["safe move", "free move"] {
        let n = steps.iter().filter(|s| s.technique == name).count();
        if n > 0 {
            techniques.push((name.to_string(), n));
        }
    }
    Grade {
        level: level(rating).into(),
        rating,
        hardest,
        techniques,
    }
}

impl Explain for Shisen {
    fn needs_unique(&self) -> bool {
        false
    }

    fn step_pictures(&self, steps: &[Step], _look: Look) -> Option<Vec<Picture>> {
        Some(super::render::step_pictures(self, steps))
    }

    fn explain(&self, solution: &Plan, _opts: ExplainOptions) -> Explanation {
        let steps = with_oracle(self, |o| walk(self, solution, o));
        Explanation {
            grade: grade(self, &steps),
            steps,
            solved: true,
            stuck: None,
        }
    }

    /// The steps are the plan's moves in order, each proven safe, and the plan clears the board.
    fn verify(&self, solution: &Plan, steps: &[Step]) -> Result<(), String> {
        crate::explain::verify_steps(&crate::puzzle::Puzzle::rows(self, solution), steps)?;
        if steps.len() != solution.moves.len() {
            return Err(format!(
                "{} steps for a plan of {} moves",
                steps.len(),
                solution.moves.len()
            ));
        }
        if let Some(k) = steps.iter().position(|s| s.technique == UNPROVEN) {
            return Err(format!(
                "step {}: the solver found no clearing plan with the plan's own move",
                k + 1
            ));
        }
        super::rules::check(self, solution)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle;
    use crate::shisen::format::{parse, ReadOptions};
    use crate::solver::SolverChoice;

    #[test]
    fn levels_cover_the_scale() {
        assert_eq!(level(0.0), "easy");
        assert_eq!(level(2.0), "easy");
        assert_eq!(level(4.9), "medium");
        assert_eq!(level(9.9), "extreme");
    }

    #[test]
    fn each_step_counts_the_losing_moves() {
        // No ring: A B A B over C C D D. At the start only the C's and the D's can move, and
        // neither loses; the explanation follows the plan and verifies.
        let p = parse(
            "t",
            "# shisen: no-outline\nA B A B\nC C D D\n",
            &ReadOptions::default(),
        )
        .unwrap()
        .remove(0);
        let plan = puzzle::solve(&p, &SolverChoice::Embedded).unwrap().unwrap();
        let e = p.explain(&plan, ExplainOptions::default());
        assert_eq!(e.steps.len(), 4);
        assert!(
            e.steps[0]
                .text
                .contains("none of the 2 playable moves loses"),
            "{}",
            e.steps[0].text
        );
        assert_eq!(p.verify(&plan, &e.steps), Ok(()));
        // A plan whose first move loses would not verify.
        let mut bad = e.steps.clone();
        bad[1].technique = UNPROVEN.into();
        assert!(p.verify(&plan, &bad).is_err());
    }
}
