//! The Numberlink generator: random paths that fill the board (no path running alongside
//! itself), their ends kept as the puzzle; SAT then decides. While the puzzle has a second
//! solution, a path on which the two differ is cut in two (two more ends, fewer ways round);
//! then neighbouring ends of two paths are joined while SAT still proves the puzzle unique and
//! (unless the target is [`Target::Unique`]) the strategy engine still finishes it within the
//! level asked, so that a person can solve every puzzle made by the techniques `explain` shows.
//! Same seed, same puzzle (ChaCha through [`crate::generate::rng`]).
//!
//! [`crate::generate::random_solution`] and [`crate::generate::reduce_givens`] do not fit here:
//! a Numberlink solution is not a model of the puzzle's CNF until its ends are chosen, and
//! removing a path's ends changes the solution rather than keeping it.

use super::{format, strategies, Form, Links, Numberlink, Rules, SIDES};
use crate::error::{Error, Result};
use crate::explain::{Explain, ExplainOptions};
use crate::generate::{rng, Generated, Rand};
use crate::puzzle::{self, Solutions};
use crate::solver::SolverChoice;
use rand::seq::SliceRandom;
use rand::Rng;

/// The largest side generated.
pub const MAX_SIDE: usize = 30;

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub width: usize,
    pub height: usize,
    pub rules: Rules,
    /// Join paths until no join keeps the puzzle unique (and within its target), else a
    /// bounded number of tries.
    pub minimal: bool,
    /// How hard the puzzle may be.
    pub target: Target,
}

/// What a puzzle made must be besides unique.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Target {
    /// The techniques finish it without a solver step, at any level (the default).
    #[default]
    Finish,
    /// Unique is enough (`--difficulty any`).
    Unique,
    /// The techniques finish it, and its grade is this level (an index in
    /// [`strategies::LEVELS`]).
    Level(usize),
}

impl Target {
    /// The highest rating a puzzle may need (None: no limit, the solver may be needed).
    fn ceiling(self) -> Option<f64> {
        match self {
            Target::Finish => Some(f64::INFINITY),
            Target::Unique => None,
            Target::Level(l) => Some(strategies::max_rating(strategies::LEVELS[l])),
        }
    }

    /// True when the techniques finish `p` within the target's ceiling.
    fn allows(self, p: &Numberlink) -> bool {
        self.ceiling()
            .is_none_or(|max| strategies::solves_within(p, max))
    }
}

/// Paths as cell lists (each at least two cells), covering the board.
pub(super) type Paths = Vec<Vec<usize>>;

/// True when `m` may extend `path` from its last cell without touching the path elsewhere.
fn may_extend(p: &Numberlink, owner: &[usize], path_id: usize, head: usize, m: usize) -> bool {
    SIDES
        .iter()
        .filter_map(|&s| p.neighbour(m, s))
        .all(|x| x == head || owner[x] != path_id)
}

/// One random filling of the board with paths, or `None` when a lone cell is left over.
pub(super) fn fill(p: &Numberlink, rng: &mut Rand) -> Option<Paths> {
    let n = p.cells();
    const FREE: usize = usize::MAX;
    let mut owner = vec![FREE; n];
    let mut paths: Paths = Vec::new();
    let free_nbrs = |owner: &[usize], c: usize| {
        SIDES
            .iter()
            .filter_map(|&s| p.neighbour(c, s))
            .filter(|&m| owner[m] == FREE)
            .count()
    };
    let longest = (p.width + p.height).max(4);
    loop {
        // Start where the fewest ways are left, so that cells are not stranded.
        let free: Vec<usize> = (0..n).filter(|&c| owner[c] == FREE).collect();
        if free.is_empty() {
            break;
        }
        let fewest = free.iter().map(|&c| free_nbrs(&owner, c)).min()?;
        let starts: Vec<usize> = free
            .into_iter()
            .filter(|&c| free_nbrs(&owner, c) == fewest)
            .collect();
        let start = *starts.choose(rng)?;
        let id = paths.len();
        owner[start] = id;
        let mut path = vec![start];
        let target = rng.gen_range(2..=longest);
        while path.len() < target {
            let head = *path.last().expect("start");
            let ways: Vec<usize> = SIDES
                .iter()
                .filter_map(|&s| p.neighbour(head, s))
                .filter(|&m| owner[m] == FREE && may_extend(p, &owner, id, head, m))
                .collect();
            let Some(&m) = ways.choose(rng) else { break };
            owner[m] = id;
            path.push(m);
        }
        if path.len() == 1 {
            // A lone cell: add it to a neighbouring path's end if that keeps the rules.
            let c = start;
            let mut joined = false;
            for s in SIDES {
                let Some(m) = p.neighbour(c, s) else { continue };
                if owner[m] == FREE || owner[m] == id {
                    continue;
                }
                let q = owner[m];
                let at_end = *paths[q].last().expect("path") == m;
                let at_start = paths[q][0] == m;
                if (at_end || at_start) && may_extend(p, &owner, q, m, c) {
                    owner[c] = q;
                    if at_end {
                        paths[q].push(c);
                    } else {
                        paths[q].insert(0, c);
                    }
                    joined = true;
                    break;
                }
            }
            // Else cut a neighbouring path at its cell next to this one and hang the cell on
            // one of the halves.
            for s in SIDES {
                if joined {
                    break;
                }
                let Some(m) = p.neighbour(c, s) else { continue };
                if owner[m] == FREE || owner[m] == id {
                    continue;
                }
                let q = owner[m];
                let at = paths[q].iter().position(|&x| x == m).expect("owner");
                let whole = paths[q].clone();
                // [.. m] + c, and the rest after m; or c + [m ..], and the rest before m.
                let options = [
                    (whole[..=at].to_vec(), whole[at + 1..].to_vec(), true),
                    (whole[at..].to_vec(), whole[..at].to_vec(), false),
                ];
                for (mut with, rest, tail) in options {
                    if rest.len() < 2 {
                        continue;
                    }
                    if tail {
                        with.push(c);
                    } else {
                        with.insert(0, c);
                    }
                    if !no_touch(p, &with) {
                        continue;
                    }
                    let new_id = paths.len();
                    for &x in &rest {
                        owner[x] = new_id;
                    }
                    for &x in &with {
                        owner[x] = q;
                    }
                    paths[q] = with;
                    paths.push(rest);
                    joined = true;
                    break;
                }
            }
            if !joined {
                return None;
            }
        } else {
            paths.push(path);
        }
    }
    Some(paths)
}

/// The puzzle whose ends are the ends of `paths`.
pub(super) fn puzzle_of(w: usize, h: usize, rules: Rules, paths: &Paths) -> Numberlink {
    let mut p = Numberlink::new(
        w,
        h,
        paths
            .iter()
            .map(|q| (q[0], *q.last().expect("path")))
            .collect(),
    );
    p.rules = rules;
    p.form = Form::Numbers;
    p
}

fn verdict(p: &Numberlink) -> Result<Solutions<Links>> {
    puzzle::verdict(p, &SolverChoice::Embedded)
}

/// Cuts a path of `paths` on which `other` differs into two; false when none can be cut.
fn split(p: &Numberlink, paths: &mut Paths, other: &Links, rng: &mut Rand) -> bool {
    let mut differing: Vec<usize> = (0..paths.len())
        .filter(|&i| paths[i].len() >= 4)
        .filter(|&i| {
            let id = i as u32 + 1;
            paths[i].iter().any(|&c| other.path[c] != id)
                || (0..p.cells()).any(|c| other.path[c] == id && !paths[i].contains(&c))
        })
        .collect();
    if differing.is_empty() {
        // Any long path will do: cutting adds ends and removes ways.
        differing = (0..paths.len()).filter(|&i| paths[i].len() >= 4).collect();
    }
    let Some(&i) = differing.choose(rng) else {
        return false;
    };
    let q = paths.remove(i);
    let cut = rng.gen_range(2..=q.len() - 2);
    paths.push(q[..cut].to_vec());
    paths.push(q[cut..].to_vec());
    true
}

/// Joins two paths whose ends are neighbours (keeping the rules), if any pair is left to try.
fn joins(p: &Numberlink, paths: &Paths) -> Vec<(usize, bool, usize, bool)> {
    let mut out = Vec::new();
    let ends = |q: &Vec<usize>| [(q[0], false), (*q.last().expect("path"), true)];
    for i in 0..paths.len() {
        for j in i + 1..paths.len() {
            for (a, at_a) in ends(&paths[i]) {
                for (b, at_b) in ends(&paths[j]) {
                    if SIDES.iter().any(|&s| p.neighbour(a, s) == Some(b)) {
                        out.push((i, at_a, j, at_b));
                    }
                }
            }
        }
    }
    out
}

fn join(paths: &Paths, (i, at_a, j, at_b): (usize, bool, usize, bool)) -> Paths {
    let mut a = paths[i].clone();
    let mut b = paths[j].clone();
    if !at_a {
        a.reverse();
    }
    if at_b {
        b.reverse();
    }
    a.extend(b);
    let mut out: Paths = paths
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != i && k != j)
        .map(|(_, q)| q.clone())
        .collect();
    out.push(a);
    out
}

/// True when no cell of a path touches a cell of the same path it is not linked to.
fn no_touch(p: &Numberlink, q: &[usize]) -> bool {
    q.iter().enumerate().all(|(i, &c)| {
        SIDES.iter().filter_map(|&s| p.neighbour(c, s)).all(|m| {
            match q.iter().position(|&x| x == m) {
                Some(j) => j + 1 == i || i + 1 == j,
                None => true,
            }
        })
    })
}

/// Tries per seed: fresh fillings of the board.
const ATTEMPTS: usize = 200;

/// One puzzle of the given shape and rules, unique by SAT and within its [`Target`]. For a
/// level no filling reaches in [`ATTEMPTS`] tries, the closest puzzle found, with a note.
pub fn generate(opts: Options, seed: u64) -> Result<Generated> {
    let (w, h) = (opts.width, opts.height);
    if !(2..=MAX_SIDE).contains(&w) || !(2..=MAX_SIDE).contains(&h) {
        return Err(Error::Usage(format!(
            "numberlink boards are generated from 2x2 to {MAX_SIDE}x{MAX_SIDE}, not {w}x{h}"
        )));
    }
    let mut rng = rng(seed);
    let shape = puzzle_of(w, h, opts.rules, &Vec::new());
    let mut closest: Option<(usize, Generated)> = None;
    for _attempt in 0..ATTEMPTS {
        let Some(mut paths) = fill(&shape, &mut rng) else {
            continue;
        };
        // Cut paths until SAT proves the puzzle unique.
        let mut unique = None;
        for _ in 0..4 * w * h {
            let p = puzzle_of(w, h, opts.rules, &paths);
            match verdict(&p)? {
                Solutions::Unique(s) => {
                    unique = Some((p, s));
                    break;
                }
                Solutions::Multiple(_, b, _) => {
                    let first = reorder(&p, &paths);
                    paths = first;
                    if !split(&p, &mut paths, &b, &mut rng) {
                        break;
                    }
                }
                Solutions::None => break,
            }
        }
        let Some((mut p, mut s)) = unique else {
            continue;
        };
        if !opts.target.allows(&p) {
            continue;
        }
        // Join neighbouring ends while the puzzle stays unique and within its target (for a
        // level, as far as it goes: joins make a puzzle harder).
        let mut tries = if opts.minimal || matches!(opts.target, Target::Level(_)) {
            usize::MAX
        } else {
            2 * paths.len()
        };
        let mut candidates = joins(&p, &paths);
        candidates.shuffle(&mut rng);
        while let Some(j) = candidates.pop() {
            if tries == 0 {
                break;
            }
            tries -= 1;
            let joined = join(&paths, j);
            if !no_touch(&p, joined.last().expect("joined")) {
                continue;
            }
            let q = puzzle_of(w, h, opts.rules, &joined);
            if let Solutions::Unique(t) = verdict(&q)? {
                if !opts.target.allows(&q) {
                    continue;
                }
                paths = joined;
                p = q;
                s = t;
                candidates = joins(&p, &paths);
                candidates.shuffle(&mut rng);
            }
        }
        let e = p.explain(
            &s,
            ExplainOptions {
                fallback: true,
                unique: true,
            },
        );
        let mut rows = vec![vec![0i64; w]; h];
        for (k, &(a, b)) in p.ends.iter().enumerate() {
            rows[a / w][a % w] = p.numbers[k] as i64;
            rows[b / w][b % w] = p.numbers[k] as i64;
        }
        let how = match opts.target {
            Target::Unique => "",
            _ => ", finished by the techniques",
        };
        let level = strategies::LEVELS
            .iter()
            .position(|&l| l == e.grade.level)
            .unwrap_or(strategies::LEVELS.len());
        let g = Generated {
            kind: "numberlink",
            seed,
            puzzle: format::write(&p),
            rows,
            givens: 2 * p.ends.len(),
            grade: Some(e.grade),
            notes: vec![format!(
                "{} paths, unique under {} rules{how}",
                p.ends.len(),
                opts.rules.name()
            )],
        };
        let Target::Level(want) = opts.target else {
            return Ok(g);
        };
        if level == want {
            return Ok(g);
        }
        if closest
            .as_ref()
            .is_none_or(|(d, _)| level.abs_diff(want) < *d)
        {
            closest = Some((level.abs_diff(want), g));
        }
    }
    match (closest, opts.target) {
        (Some((_, mut g)), Target::Level(want)) => {
            let got = g.grade.as_ref().map_or("", |x| x.level.as_str()).to_string();
            g.notes.push(format!(
                "no {} puzzle in {ATTEMPTS} tries; this one is {got}",
                strategies::LEVELS[want]
            ));
            Ok(g)
        }
        _ => Err(Error::Usage(format!(
            "no {w}x{h} numberlink puzzle {} found from seed {seed} in {ATTEMPTS} tries; try another seed",
            match opts.target {
                Target::Unique => "with a unique solution",
                _ => "that the techniques finish",
            }
        ))),
    }
}

/// `paths` in the puzzle's path order (by first end, row by row), so path ids match labels.
fn reorder(p: &Numberlink, paths: &Paths) -> Paths {
    p.ends
        .iter()
        .map(|&(a, b)| {
            let q = paths
                .iter()
                .find(|q| q[0] == a || q[0] == b)
                .expect("a path per pair of ends");
            q.clone()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Puzzle;

    #[test]
    fn fills_cover_the_board_without_self_touch() {
        let shape = puzzle_of(7, 5, Rules::Flow, &Vec::new());
        let mut r = rng(3);
        let paths = (0..20).find_map(|_| fill(&shape, &mut r)).expect("a fill");
        let mut seen = [0; 35];
        for q in &paths {
            assert!(q.len() >= 2);
            assert!(no_touch(&shape, q));
            for &c in q {
                seen[c] += 1;
            }
        }
        assert!(seen.iter().all(|&k| k == 1));
    }

    #[test]
    fn generated_puzzles_are_unique_and_follow_the_seed() {
        for rules in [Rules::Flow, Rules::Cover, Rules::Nikoli] {
            let opts = Options {
                width: 6,
                height: 5,
                rules,
                minimal: false,
                target: Target::Unique,
            };
            let g = generate(opts, 7).unwrap();
            assert_eq!(g.puzzle, generate(opts, 7).unwrap().puzzle);
            let mut p = format::parse("g", &g.puzzle, Default::default())
                .unwrap()
                .pop()
                .unwrap();
            p.rules = rules;
            assert!(matches!(verdict(&p).unwrap(), Solutions::Unique(_)));
            assert_eq!(g.givens, 2 * p.ends.len());
            assert_eq!(
                p.describe(),
                format!("6x5, {} paths, {} rules", p.ends.len(), rules.name())
            );
        }
    }
}
