//! The Shisen-sho generator: a seeded random deal of four tiles per kind (as many kinds as fill
//! the board; a last kind of two when the cells are not a multiple of four), kept only when SAT
//! proves it clearable. `--difficulty` keeps deals until one has the level asked for (the
//! grade's treachery: the share of random players that get stuck); `--unique` keeps deals
//! until SAT proves the clearing pairing unique, which only small boards reach in reasonable
//! time. Every attempt draws a fresh deal from the same seeded stream, so a seed always gives
//! the same board.

use super::format;
use super::strategies::{self, LEVELS};
use super::{Rules, Shisen};
use crate::error::Result;
use crate::explain::Explain;
use crate::generate::{rng, stop_point, Generated, Rand};
use crate::puzzle::{self, Solutions};
use crate::solver::{SolverChoice, Stop};

/// KShisen's sizes (width x height).
pub const SIZES: [(usize, usize); 6] = [(14, 6), (16, 9), (18, 8), (24, 12), (26, 14), (30, 16)];

/// Deals tried per board unless `--attempts` says otherwise.
pub const DEFAULT_ATTEMPTS: usize = 100;

/// Deals tried per board with `--unique` unless `--attempts` says otherwise: about one random
/// 4x4 deal without the ring in 1,500 has a unique clearing pairing.
pub const UNIQUE_ATTEMPTS: usize = 5000;

/// The largest board generated.
pub const MAX_CELLS: usize = 40 * 40;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Options {
    pub width: usize,
    pub height: usize,
    pub rules: Rules,
    /// A level index into [`LEVELS`].
    pub difficulty: Option<usize>,
    pub attempts: usize,
    pub unique: bool,
}

impl Options {
    /// Options from the command line's values; `Err` says what does not fit.
    pub fn from_args(
        size: Option<(usize, usize)>,
        width: Option<usize>,
        height: Option<usize>,
        difficulty: Option<&str>,
        attempts: Option<usize>,
        unique: bool,
        rules: Rules,
    ) -> std::result::Result<Options, String> {
        let default = if unique { (4, 4) } else { (18, 8) };
        let (w, h) = match (size, width, height) {
            (_, Some(w), Some(h)) => (w, h),
            (Some((w, h)), None, None) => (w, h),
            (None, None, None) => default,
            _ => return Err("shisen: give --size WxH (18x8), or both --width and --height".into()),
        };
        if w == 0 || h == 0 || (w * h) % 2 == 1 || w * h > MAX_CELLS {
            return Err(format!(
                "shisen: a {w}x{h} board can not be dealt: the cells must be an even number, at most {MAX_CELLS} (KShisen's sizes: {})",
                SIZES.map(|(w, h)| format!("{w}x{h}")).join(", ")
            ));
        }
        if rules.chinese && w * h < 12 {
            return Err(format!(
                "shisen: --chinese needs room for the four seasons, the four flowers and another kind; {w}x{h} has {} cells",
                w * h
            ));
        }
        let difficulty = difficulty
            .map(|d| {
                LEVELS
                    .iter()
                    .position(|(name, _)| name.eq_ignore_ascii_case(d))
                    .ok_or_else(|| {
                        format!(
                            "shisen difficulty is {}, got `{d}`",
                            LEVELS.map(|l| l.0).join(", ")
                        )
                    })
            })
            .transpose()?;
        if attempts == Some(0) {
            return Err("--attempts must be at least 1".into());
        }
        Ok(Options {
            width: w,
            height: h,
            rules,
            difficulty,
            attempts: attempts.unwrap_or(if unique {
                UNIQUE_ATTEMPTS
            } else {
                DEFAULT_ATTEMPTS
            }),
            unique,
        })
    }

    /// The command that makes the board of `seed` again.
    pub fn command(&self, seed: u64) -> String {
        let mut s = format!(
            "gridsat generate shisen --size {}x{}",
            self.width, self.height
        );
        if self.rules.gravity {
            s.push_str(" --gravity");
        }
        if self.rules.chinese {
            s.push_str(" --chinese");
        }
        if !self.rules.outline {
            s.push_str(" --no-outline");
        }
        if self.unique {
            s.push_str(" --unique");
        }
        if let Some(d) = self.difficulty {
            s.push_str(&format!(" --difficulty {}", LEVELS[d].0));
        }
        if self.attempts
            != (if self.unique {
                UNIQUE_ATTEMPTS
            } else {
                DEFAULT_ATTEMPTS
            })
        {
            s.push_str(&format!(" --attempts {}", self.attempts));
        }
        s.push_str(&format!(" --seed {seed}"));
        s
    }
}

/// The name of generated kind `k` of `kinds`: letters while they last, then two letters.
fn kind_name(k: usize, kinds: usize) -> String {
    const UPPER: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const LOWER: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
    if kinds <= 52 {
        let c = if k < 26 { UPPER[k] } else { LOWER[k - 26] };
        (c as char).to_string()
    } else {
        format!("{}{}", UPPER[k / 26] as char, LOWER[k % 26] as char)
    }
}

/// The faces of a KShisen deal: its tile set has 42 (the 34 mahjong faces, the four seasons
/// and the four flowers).
pub const FACES: usize = 42;

/// Swaps per cell when shuffling: KShisen's default level (medium) shuffles `5 x W x H` times.
pub const SHUFFLE: usize = 5;

/// A random deal of `o`'s size, made as KShisen's `Board::newGame` makes one at its default
/// level: the cells are filled row by row in groups of four copies of one face, faces 1, 2,
/// ..., 42 and then face 1 again (a last group of two when the cells are not a multiple of
/// four), and shuffled by `5 x W x H` swaps of two random cells. Big boards therefore have
/// more copies of fewer faces (30x16: 8 or 12 of each face), as in the game. Under
/// `--chinese` the groups of faces 1 and 2 are the seasons (`S1`-`S4`) and the flowers
/// (`F1`-`F4`), one tile of each per group, as in a mahjong set.
pub fn deal(o: &Options, r: &mut Rand) -> Shisen {
    use rand::Rng;
    let (w, h) = (o.width, o.height);
    let cells = w * h;
    let groups = cells.div_ceil(4);
    let used = groups.min(FACES);
    let generic = if o.rules.chinese {
        used.saturating_sub(2)
    } else {
        used
    };
    // Face index per group position k (0-based, cycling): seasons and flowers first under
    // --chinese, one face per tile of their group.
    let mut faces: Vec<String> = Vec::new();
    let mut of_group: Vec<Vec<usize>> = Vec::with_capacity(used);
    let mut next_generic = 0;
    for k in 0..used {
        if o.rules.chinese && k < 2 {
            let prefix = if k == 0 { "S" } else { "F" };
            let at = faces.len();
            faces.extend((1..=4).map(|i| format!("{prefix}{i}")));
            of_group.push((at..at + 4).collect());
        } else {
            faces.push(kind_name(next_generic, generic.max(1)));
            next_generic += 1;
            of_group.push(vec![faces.len() - 1; 4]);
        }
    }
    let mut tiles: Vec<usize> = Vec::with_capacity(cells);
    for g in 0..groups {
        let per = 4.min(cells - tiles.len());
        tiles.extend(of_group[g % FACES.min(used)][..per].iter().copied());
    }
    for _ in 0..SHUFFLE * cells {
        let (x1, y1, x2, y2) = (
            r.gen_range(0..w),
            r.gen_range(0..h),
            r.gen_range(0..w),
            r.gen_range(0..h),
        );
        tiles.swap(y1 * w + x1, y2 * w + x2);
    }
    Shisen {
        width: w,
        height: h,
        cells: tiles.into_iter().map(Some).collect(),
        faces,
        rules: o.rules,
        order: Default::default(),
    }
}

/// Generates the board of `seed`: `Ok(Err(why))` when no deal met the target in the attempts.
pub fn generate(o: &Options, seed: u64) -> Result<std::result::Result<Generated, String>> {
    generate_until(o, seed, None)
}

/// [`generate`], ending with [`crate::solver::SolverError::Stopped`] soon after `stop` is
/// raised (see [`crate::generate::stop_point`]).
pub fn generate_until(
    o: &Options,
    seed: u64,
    stop: Option<&Stop>,
) -> Result<std::result::Result<Generated, String>> {
    // Stopping inside a solve too (a big gravity board's can be long).
    let solver = match stop {
        Some(s) => SolverChoice::Embedded.until(s),
        None => SolverChoice::Embedded,
    };
    let mut r = rng(seed);
    let mut stuck = 0;
    let mut several = 0;
    let mut other_level = 0;
    for attempt in 1..=o.attempts {
        stop_point(stop)?;
        let p = deal(o, &mut r);
        let plan = if o.unique {
            match puzzle::verdict(&p, &solver)? {
                Solutions::Unique(s) => s,
                Solutions::Multiple(..) => {
                    several += 1;
                    continue;
                }
                Solutions::None => {
                    stuck += 1;
                    continue;
                }
            }
        } else {
            match puzzle::solve(&p, &solver)? {
                Some(s) => s,
                None => {
                    stuck += 1;
                    continue;
                }
            }
        };
        if let Some(d) = o.difficulty {
            if strategies::level(strategies::rating(&p)) != LEVELS[d].0 {
                other_level += 1;
                continue;
            }
        }
        let e = p.explain(&plan, Default::default());
        let mut notes = vec![format!(
            "clearable (its plan passed the rule checker){}; deal {attempt} of this seed ({stuck} before it could not be cleared)",
            if o.unique { ", with a unique pairing proven by SAT" } else { "" }
        )];
        notes.push(format!("again: {}", o.command(seed)));
        let tiles = p.tiles().len();
        return Ok(Ok(Generated {
            kind: "shisen",
            seed,
            puzzle: format::write(&p),
            rows: p
                .cells
                .chunks(p.width)
                .map(|row| row.iter().map(|f| f.map_or(0, |f| f as i64 + 1)).collect())
                .collect(),
            givens: tiles,
            grade: Some(e.grade),
            notes,
        }));
    }
    let mut why = format!(
        "no {}x{} deal in {} attempts",
        o.width, o.height, o.attempts
    );
    if o.unique {
        why.push_str(" with a unique clearing pairing");
    }
    if let Some(d) = o.difficulty {
        why.push_str(&format!(" at level {}", LEVELS[d].0));
    }
    why.push_str(&format!(
        " ({stuck} could not be cleared, {several} had several pairings, {other_level} had another level); try more --attempts{}",
        if o.unique { " or a smaller board" } else { "" }
    ));
    if o.unique && o.rules.outline {
        why.push_str(
            "; with the ring around the board, four tiles of a kind can nearly always be paired two ways: try --no-outline",
        );
    }
    Ok(Err(why))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(size: (usize, usize), rules: Rules) -> Options {
        Options::from_args(Some(size), None, None, None, None, false, rules).unwrap()
    }

    #[test]
    fn deals_have_four_of_a_kind_and_follow_the_seed() {
        let o = opts((18, 8), Rules::default());
        let p = deal(&o, &mut rng(3));
        assert_eq!(p.faces.len(), 36);
        assert_eq!(p.class_count(), 36);
        let mut counts = [0; 36];
        for f in p.cells.iter().flatten() {
            counts[*f] += 1;
        }
        assert!(counts.iter().all(|&c| c == 4));
        assert_eq!(p, deal(&o, &mut rng(3)));
        assert_ne!(p, deal(&o, &mut rng(4)));
        // 30x16: KShisen's 42 faces, 12 copies of faces 1-36 and 8 of the rest; --chinese:
        // seasons and flowers.
        let big = deal(&opts((30, 16), Rules::default()), &mut rng(1));
        assert_eq!(big.class_count(), 42);
        let mut counts = [0; 42];
        for f in big.cells.iter().flatten() {
            counts[*f] += 1;
        }
        assert!(counts[..36].iter().all(|&c| c == 12) && counts[36..].iter().all(|&c| c == 8));
        let c = Rules {
            chinese: true,
            ..Rules::default()
        };
        let ch = deal(&opts((6, 4), c), &mut rng(1));
        assert_eq!(ch.class_count(), 6);
        assert!(ch.faces.contains(&"S4".to_string()) && ch.faces.contains(&"F1".to_string()));
    }

    #[test]
    fn bad_sizes_and_levels_are_refused() {
        let r = Rules::default();
        assert!(Options::from_args(Some((3, 3)), None, None, None, None, false, r).is_err());
        assert!(Options::from_args(None, Some(6), None, None, None, false, r).is_err());
        assert!(Options::from_args(None, None, None, Some("fiendish"), None, false, r).is_err());
        let o = Options::from_args(None, None, None, Some("Hard"), None, true, r).unwrap();
        assert_eq!((o.width, o.height, o.difficulty), (4, 4, Some(2)));
    }

    #[test]
    fn generated_boards_are_clearable_and_read_back() {
        let o = opts((8, 4), Rules::default());
        let g = generate(&o, 7).unwrap().unwrap();
        let p = format::parse("g", &g.puzzle, &Default::default())
            .unwrap()
            .remove(0);
        assert!(puzzle::solve(&p, &SolverChoice::Embedded)
            .unwrap()
            .is_some());
        assert_eq!(g.givens, 32);
        let again = generate(&o, 7).unwrap().unwrap();
        assert_eq!(g.puzzle, again.puzzle);
    }
}
