//! The Takuzu human-strategy engine: the five strategies of FWieP's binary-puzzle solver
//! (seed 001), worked on the grid of known cells, never on the SAT model. It only explains:
//! the caller checks every step against the SAT solution.
//!
//! Strategies, tried in this order, each on all rows and then all columns, and back to the
//! first after every step:
//!
//! 1. **pairs and sandwiches** — next to two equal digits goes the other digit (`00.` → `001`),
//!    and between two equal digits too (`0.0` → `010`);
//! 2. **counting** — a line that holds all its 0s (1s) gets 1s (0s) in its open cells; and when
//!    one more 0 at most fits, a 0 in an open cell that would force three 1s in a row (the rest
//!    of the line then being 1s) is ruled out, so that cell is 1 (and the same for 1s);
//! 3. **0..1 counting** — the two open cells of `0..1` (or `1..0`) hold one 0 and one 1, so they
//!    count as one of each and counting (2) runs on the rest of the line;
//! 4. **distinct lines** — a line with two open cells still needing one 0 and one 1, one of whose
//!    two fillings would equal a complete line, takes the other;
//! 5. **line completions** — every filling of a line that keeps its digits, the balance, no three
//!    in a row, and differs from the complete lines of its kind, agrees on a cell. Counted by a
//!    dynamic programme over (position, last digit, run length, number of 1s), with the
//!    complete lines subtracted exactly, so a 60-cell line costs O(60²), not 2^60.
//!
//! A step is kept only when the line it changes and every line crossing it still keep the rules
//! (the check FWieP's solver lacked at first: a step in a row once broke a column). When the
//! strategies run out, `--fallback` takes a step proven by the solver.

mod completions;

use super::{digits, Grid, Line, Orientation, Takuzu};
use crate::draw::{Look, Picture};
use crate::explain::{Explain, ExplainOptions, Explanation, Grade, Step, SOLVER_TECHNIQUE};
use crate::puzzle::{cell_name, CellValue};

/// The technique names, in the order they are tried (strategy 1 to 5).
pub const TECHNIQUES: [&str; 5] = [
    "pairs and sandwiches",
    "counting",
    "0..1 counting",
    "distinct lines",
    "line completions",
];

/// The grid being solved and what the engine knows of its lines.
pub struct Board<'a> {
    pub t: &'a Takuzu,
    pub lines: Vec<Line>,
    pub names: Vec<String>,
    /// For each cell, the lines through it.
    pub lines_of: Vec<Vec<usize>>,
    pub cells: Vec<Option<u8>>,
    /// Per line, a bit per strategy known to find nothing there since the line (or, for
    /// strategies 4 and 5, the complete lines of its family) last changed.
    quiet: Vec<u8>,
    /// The lines of each family.
    families: Vec<Vec<usize>>,
}

impl<'a> Board<'a> {
    /// The board of the givens.
    pub fn new(t: &'a Takuzu) -> Board<'a> {
        let lines = t.lines();
        let names = lines.iter().map(|l| t.line_name(l)).collect();
        let mut lines_of = vec![Vec::new(); t.cells.len()];
        for (k, l) in lines.iter().enumerate() {
            for &i in &l.cells {
                lines_of[i].push(k);
            }
        }
        let mut families = vec![Vec::new(); lines.iter().map(|l| l.family + 1).max().unwrap_or(0)];
        for (k, l) in lines.iter().enumerate() {
            families[l.family].push(k);
        }
        Board {
            quiet: vec![0; lines.len()],
            t,
            lines,
            names,
            lines_of,
            cells: t.cells.clone(),
            families,
        }
    }

    /// True when every cell holds a digit.
    pub fn solved(&self) -> bool {
        self.cells.iter().all(|c| c.is_some())
    }

    fn name(&self, i: usize) -> String {
        cell_name(i / self.t.width, i % self.t.width)
    }

    /// The line's digits (None for open).
    fn values(&self, k: usize) -> Vec<Option<u8>> {
        self.lines[k].cells.iter().map(|&i| self.cells[i]).collect()
    }

    /// True when line `k` is complete.
    fn complete(&self, k: usize) -> bool {
        self.lines[k].cells.iter().all(|&i| self.cells[i].is_some())
    }

    /// The complete lines of `k`'s family other than `k`.
    fn complete_peers(&self, k: usize) -> Vec<usize> {
        if !self.t.rules.distinct_lines {
            return Vec::new();
        }
        let l = &self.lines[k];
        (0..self.lines.len())
            .filter(|&j| {
                j != k
                    && self.lines[j].family == l.family
                    && self.lines[j].cells.len() == l.cells.len()
                    && self.complete(j)
            })
            .collect()
    }

    /// Line `k` keeps the rules: no three in a row, counts within bounds, and when complete,
    /// differs from the complete lines of its family.
    fn line_ok(&self, k: usize) -> bool {
        let v = self.values(k);
        if has_three(&v) {
            return false;
        }
        let (lo, hi) = self.t.ones_range(v.len());
        let ones = v.iter().filter(|&&x| x == Some(1)).count();
        let zeros = v.iter().filter(|&&x| x == Some(0)).count();
        if ones > hi || zeros > v.len() - lo {
            return false;
        }
        if v.iter().all(|x| x.is_some()) {
            for j in self.complete_peers(k) {
                if self.values(j) == v {
                    return false;
                }
            }
        }
        true
    }

    /// True when placing `step`'s digits keeps every line through them within the rules.
    fn keeps_rules(&mut self, placements: &[(usize, u8)]) -> bool {
        let saved: Vec<Option<u8>> = placements.iter().map(|&(i, _)| self.cells[i]).collect();
        for &(i, v) in placements {
            self.cells[i] = Some(v);
        }
        let mut ok = true;
        'outer: for &(i, _) in placements {
            for &k in &self.lines_of[i] {
                if !self.line_ok(k) {
                    ok = false;
                    break 'outer;
                }
            }
        }
        for (&(i, _), s) in placements.iter().zip(saved) {
            self.cells[i] = s;
        }
        ok
    }

    /// Places a step's digits.
    pub fn apply(&mut self, step: &Step) {
        for p in &step.placements {
            self.set(p.row * self.t.width + p.col, p.value as u8);
        }
    }

    /// Places digit `v` in cell `i`, and forgets what the strategies found quiet around it.
    pub fn set(&mut self, i: usize, v: u8) {
        self.cells[i] = Some(v);
        for n in 0..self.lines_of[i].len() {
            let k = self.lines_of[i][n];
            self.quiet[k] = 0;
            if self.complete(k) {
                let fam = self.lines[k].family;
                for &j in &self.families[fam] {
                    self.quiet[j] &= 0b00111; // strategies 4 and 5 look at complete peers
                }
            }
        }
    }
}

/// True when three equal known digits sit side by side.
fn has_three(v: &[Option<u8>]) -> bool {
    v.windows(3)
        .any(|w| w[0].is_some() && w[0] == w[1] && w[1] == w[2])
}

/// The digit `0`/`1` as a character.
fn ch(v: u8) -> char {
    if v == 0 {
        '0'
    } else {
        '1'
    }
}

/// What a strategy found: the digits to place, the cells it rests on, the explanation.
struct Found {
    strategy: usize,
    rating: f64,
    line: usize,
    placements: Vec<(usize, u8)>,
    pattern: Vec<usize>,
    text: String,
}

impl Found {
    fn into_step(self, b: &Board) -> Step {
        let w = b.t.width;
        let cv = |i: usize, v: u8| CellValue {
            row: i / w,
            col: i % w,
            value: v as i64,
        };
        let places: Vec<String> = self
            .placements
            .iter()
            .map(|&(i, v)| format!("{}={v}", b.name(i)))
            .collect();
        Step {
            links: Vec::new(),
            technique: TECHNIQUES[self.strategy - 1].into(),
            rating: self.rating,
            pattern: self
                .pattern
                .iter()
                .map(|&i| cv(i, b.cells[i].unwrap_or(0)))
                .collect(),
            placements: self.placements.iter().map(|&(i, v)| cv(i, v)).collect(),
            eliminations: vec![],
            text: format!(
                "{}: {} ({})",
                b.names[self.line],
                places.join(" "),
                self.text
            ),
        }
    }
}

/// Strategy 1 on line `k`: a pair or a sandwich.
fn pairs(b: &Board, k: usize) -> Vec<Found> {
    let cells = &b.lines[k].cells;
    let v = b.values(k);
    let mut out = Vec::new();
    for p in 0..v.len().saturating_sub(2) {
        let (x, y, z) = (v[p], v[p + 1], v[p + 2]);
        let (open, d, what) = match (x, y, z) {
            (Some(a), Some(c), None) if a == c => (p + 2, a, "pair"),
            (None, Some(a), Some(c)) if a == c => (p, a, "pair"),
            (Some(a), None, Some(c)) if a == c => (p + 1, a, "sandwich"),
            _ => continue,
        };
        let known: Vec<usize> = (p..p + 3)
            .filter(|&q| q != open)
            .map(|q| cells[q])
            .collect();
        let text = if what == "pair" {
            format!(
                "next to the pair {}{} at {}-{} goes a {}",
                ch(d),
                ch(d),
                b.name(known[0]),
                b.name(known[1]),
                ch(1 - d)
            )
        } else {
            format!(
                "between the {}s at {} and {} goes a {}",
                ch(d),
                b.name(known[0]),
                b.name(known[1]),
                ch(1 - d)
            )
        };
        out.push(Found {
            strategy: 1,
            rating: 1.0,
            line: k,
            placements: vec![(cells[open], 1 - d)],
            pattern: known,
            text,
        });
    }
    out
}

/// Counting on a line whose cells `pair` are known to hold one 0 and one 1 each pair (empty for
/// strategy 2): a digit used up fills the rest; a digit with one place left excludes places.
fn counting(b: &Board, k: usize, pairs: &[(usize, usize)]) -> Vec<Found> {
    let cells = &b.lines[k].cells;
    let v = b.values(k);
    let len = v.len();
    let (lo, hi) = b.t.ones_range(len);
    let np = pairs.len();
    let in_pair = |p: usize| pairs.iter().any(|&(a, c)| p == a || p == c);
    let ones = v.iter().filter(|&&x| x == Some(1)).count() + np;
    let zeros = v.iter().filter(|&&x| x == Some(0)).count() + np;
    let others: Vec<usize> = (0..len)
        .filter(|&p| v[p].is_none() && !in_pair(p))
        .collect();
    if others.is_empty() {
        return Vec::new();
    }
    let strategy = if np == 0 { 2 } else { 3 };
    let rating = if np == 0 { 1.5 } else { 3.0 };
    let pairs_text = if np == 0 {
        String::new()
    } else {
        let list: Vec<String> = pairs
            .iter()
            .map(|&(a, c)| format!("{}-{}", b.name(cells[a]), b.name(cells[c])))
            .collect();
        format!(
            "the open pair{} {} between a 0 and a 1 hold{} one 0 and one 1, so ",
            if np > 1 { "s" } else { "" },
            list.join(", "),
            if np > 1 { "" } else { "s" }
        )
    };
    // The open pairs are part of the argument: the picture shows them with the rest.
    let pair_cells: Vec<usize> = pairs
        .iter()
        .flat_map(|&(a, c)| [cells[a], cells[c]])
        .collect();
    let mut out = Vec::new();
    for d in [0u8, 1] {
        let (have, max) = if d == 1 {
            (ones, hi)
        } else {
            (zeros, len - lo)
        };
        if have == max {
            out.push(Found {
                strategy,
                rating,
                line: k,
                placements: others.iter().map(|&p| (cells[p], 1 - d)).collect(),
                pattern: cells
                    .iter()
                    .copied()
                    .filter(|&i| b.cells[i] == Some(d))
                    .chain(pair_cells.iter().copied())
                    .collect(),
                text: format!(
                    "{pairs_text}the line holds {}; {}",
                    if max == 1 {
                        format!("its only {d}")
                    } else {
                        format!("all its {}", digits(max, d))
                    },
                    if others.len() == 1 {
                        format!("the other open cell is a {}", ch(1 - d))
                    } else {
                        format!("the other open cells are {}s", ch(1 - d))
                    }
                ),
            });
        }
    }
    for d in [0u8, 1] {
        let (have, max) = if d == 1 {
            (ones, hi)
        } else {
            (zeros, len - lo)
        };
        if have + 1 != max {
            continue;
        }
        // At most one more `d`: a `d` at p makes every other open cell (pairs aside) the other
        // digit; if that already shows three in a row, p is not `d`.
        for &p in &others {
            let mut opt = v.clone();
            for &q in &others {
                opt[q] = Some(if q == p { d } else { 1 - d });
            }
            if has_three(&opt) {
                let run = opt
                    .windows(3)
                    .position(|w| w[0].is_some() && w[0] == w[1] && w[1] == w[2])
                    .expect("three");
                out.push(Found {
                    strategy,
                    rating: if np == 0 { 2.5 } else { rating },
                    line: k,
                    placements: vec![(cells[p], 1 - d)],
                    pattern: [cells[run], cells[run + 1], cells[run + 2]]
                        .into_iter()
                        .chain(pair_cells.iter().copied())
                        .collect(),
                    text: format!(
                        "{pairs_text}one more {d} at most fits; a {d} at {} would leave {}s everywhere else and three {}s from {}",
                        b.name(cells[p]),
                        ch(1 - d),
                        ch(1 - d),
                        b.name(cells[run])
                    ),
                });
            }
        }
    }
    out
}

/// Strategy 3 on line `k`: the open pairs of `0..1` / `1..0`, then counting.
fn known_pairs(b: &Board, k: usize) -> Vec<Found> {
    let v = b.values(k);
    let mut pairs = Vec::new();
    for p in 1..v.len().saturating_sub(2) {
        if let (Some(a), None, None, Some(c)) = (v[p - 1], v[p], v[p + 1], v[p + 2]) {
            if a != c {
                pairs.push((p, p + 1));
            }
        }
    }
    if pairs.is_empty() {
        return Vec::new();
    }
    counting(b, k, &pairs)
}

/// Strategy 4 on line `k`: two open cells needing one 0 and one 1, one filling equal to a
/// complete line.
fn distinct(b: &Board, k: usize) -> Vec<Found> {
    let cells = &b.lines[k].cells;
    let v = b.values(k);
    let open: Vec<usize> = (0..v.len()).filter(|&p| v[p].is_none()).collect();
    let (lo, hi) = b.t.ones_range(v.len());
    let ones = v.iter().filter(|&&x| x == Some(1)).count();
    if open.len() != 2 || lo != hi || ones + 1 != hi {
        return Vec::new();
    }
    let mut out = Vec::new();
    for j in b.complete_peers(k) {
        let other = b.values(j);
        let agree = (0..v.len()).all(|p| v[p].is_none() || v[p] == other[p]);
        let (x, y) = (other[open[0]], other[open[1]]);
        if agree && x != y {
            let (x, y) = (x.expect("complete"), y.expect("complete"));
            out.push(Found {
                strategy: 4,
                rating: 3.5,
                line: k,
                placements: vec![(cells[open[0]], 1 - x), (cells[open[1]], 1 - y)],
                pattern: b.lines[j].cells.clone(),
                text: format!("the other way round it would equal {}", b.names[j]),
            });
        }
    }
    out
}

/// Strategy 5 on line `k`: cells on which every admissible completion agrees.
fn completions(b: &Board, k: usize) -> Vec<Found> {
    let cells = &b.lines[k].cells;
    let v = b.values(k);
    if v.iter().all(|x| x.is_some()) {
        return Vec::new();
    }
    let (lo, hi) = b.t.ones_range(v.len());
    let peers: Vec<Vec<u8>> = b
        .complete_peers(k)
        .iter()
        .map(|&j| {
            b.values(j)
                .into_iter()
                .map(|x| x.expect("complete"))
                .collect()
        })
        .collect();
    let with = completions::forced(&v, lo, hi, &peers);
    let Some(with) = with else {
        return Vec::new();
    };
    let placements: Vec<(usize, u8)> = with
        .iter()
        .enumerate()
        .filter_map(|(p, &f)| {
            if v[p].is_none() {
                f.map(|d| (cells[p], d))
            } else {
                None
            }
        })
        .collect();
    if placements.is_empty() {
        return Vec::new();
    }
    // Did the distinct-lines exclusion matter? Then say which lines.
    let without = completions::forced(&v, lo, hi, &[]).unwrap_or_default();
    let needed = placements
        .iter()
        .any(|&(i, _)| without[cells.iter().position(|&c| c == i).expect("in line")].is_none());
    let mut text =
        "every filling of the line that keeps the balance and no three in a row".to_string();
    let mut pattern: Vec<usize> = cells
        .iter()
        .copied()
        .filter(|&i| b.cells[i].is_some())
        .collect();
    if needed {
        let names: Vec<String> = b
            .complete_peers(k)
            .iter()
            .filter(|&&j| {
                let o = b.values(j);
                (0..v.len()).all(|p| v[p].is_none() || v[p] == o[p])
            })
            .map(|&j| b.names[j].clone())
            .collect();
        text.push_str(&format!(" and differs from {}", names.join(", ")));
        for j in b.complete_peers(k) {
            pattern.extend(b.lines[j].cells.iter().copied());
        }
    }
    text.push_str(" agrees on these cells");
    vec![Found {
        strategy: 5,
        rating: if needed { 4.5 } else { 4.0 },
        line: k,
        placements,
        pattern,
        text,
    }]
}

/// The first step of the easiest strategy that applies and keeps every crossing line legal.
pub fn next_step(b: &mut Board) -> Option<Step> {
    next_step_upto(b, 5)
}

/// [`next_step`] with strategies 1 to `max` only.
pub fn next_step_upto(b: &mut Board, max: usize) -> Option<Step> {
    type Finder = fn(&Board, usize) -> Vec<Found>;
    let finders: [Finder; 5] = [
        pairs,
        |b, k| counting(b, k, &[]),
        known_pairs,
        distinct,
        completions,
    ];
    let order: Vec<usize> = {
        // Rows before columns, region by region as the lines are listed.
        let mut o: Vec<usize> = (0..b.lines.len())
            .filter(|&k| b.lines[k].orientation == Orientation::Row)
            .collect();
        o.extend((0..b.lines.len()).filter(|&k| b.lines[k].orientation == Orientation::Column));
        o
    };
    for (s, find) in finders.iter().enumerate().take(max) {
        for &k in &order {
            if b.quiet[k] >> s & 1 == 1 || b.complete(k) {
                continue;
            }
            let found = find(b, k);
            if found.is_empty() {
                b.quiet[k] |= 1 << s;
            }
            for f in found {
                if f.placements.is_empty() || !b.keeps_rules(&f.placements) {
                    continue;
                }
                return Some(f.into_step(b));
            }
        }
    }
    None
}

fn solver_step(b: &Board, solution: &Grid) -> Option<Step> {
    let w = b.t.width;
    // The open cell in the line with the fewest open cells.
    let k = (0..b.lines.len())
        .filter(|&k| !b.complete(k))
        .min_by_key(|&k| {
            b.lines[k]
                .cells
                .iter()
                .filter(|&&i| b.cells[i].is_none())
                .count()
        })?;
    let i = *b.lines[k].cells.iter().find(|&&i| b.cells[i].is_none())?;
    let v = solution.0[i];
    Some(Step {
        links: Vec::new(),
        technique: SOLVER_TECHNIQUE.into(),
        rating: 10.0,
        pattern: vec![],
        placements: vec![CellValue {
            row: i / w,
            col: i % w,
            value: v as i64,
        }],
        eliminations: vec![],
        text: format!(
            "{}: {}={v} (the other digit leaves no solution, proven by SAT)",
            b.names[k],
            b.name(i)
        ),
    })
}

/// The level words, easiest first: binarypuzzle.com's four (its "very hard" is `expert`),
/// then `extreme` for a puzzle the strategies cannot finish.
pub const LEVELS: [&str; 5] = crate::explain::LEVELS;

/// The rating of the "one more digit fits" counting step (strategy 2's second half).
const COUNT_EXCLUDE: f64 = 2.5;
/// Steps rated this or more are strategies 3 to 5.
const HARD: f64 = 3.0;

/// The grade of a path on a grid of about `side` x `side` cells. Fitted to binarypuzzle.com's
/// four levels (see BENCHMARKS.md): a path of pairs and sandwiches only is easy (1.0);
/// counting rates 1.5 plus the number of "one more digit fits" steps per grid side, so medium
/// up to 2.0 and hard above; strategies 3 to 5 make it expert, binarypuzzle.com's very hard
/// (their step's rating, plus 0.1 for each further such step, at most 0.9 more); a solver step
/// rates 10 (extreme).
pub fn grade(steps: &[Step], side: usize) -> Grade {
    let hardest = steps.iter().max_by(|a, b| a.rating.total_cmp(&b.rating));
    let top = hardest.map_or(0.0, |s| s.rating);
    let hard_steps = steps.iter().filter(|s| s.rating >= HARD).count();
    let excludes = steps.iter().filter(|s| s.rating == COUNT_EXCLUDE).count();
    let rating = if top >= 10.0 || top <= 1.0 {
        top
    } else if top >= HARD {
        top + (0.1 * (hard_steps - 1) as f64).min(0.9)
    } else {
        (1.5 + excludes as f64 / side.max(1) as f64).min(2.9)
    };
    let mut techniques: Vec<(String, usize, f64)> = Vec::new();
    for s in steps {
        match techniques.iter_mut().find(|(t, _, _)| *t == s.technique) {
            Some(t) => {
                t.1 += 1;
                t.2 = t.2.max(s.rating);
            }
            None => techniques.push((s.technique.clone(), 1, s.rating)),
        }
    }
    crate::sort::by(&mut techniques, |a, b| b.2.total_cmp(&a.2));
    Grade {
        level: level(rating).into(),
        rating: (rating * 100.0).round() / 100.0,
        hardest: hardest.map_or("none".into(), |s| s.technique.clone()),
        techniques: techniques.into_iter().map(|(t, k, _)| (t, k)).collect(),
    }
}

/// The level word for a rating.
pub fn level(rating: f64) -> &'static str {
    match rating {
        r if r <= 1.0 => LEVELS[0],
        r if r <= 2.0 => LEVELS[1],
        r if r < HARD => LEVELS[2],
        r if r < 10.0 => LEVELS[3],
        _ => LEVELS[4],
    }
}

/// The side used for grading: the square root of the number of cells, rounded.
pub fn side(t: &Takuzu) -> usize {
    ((t.width * t.height) as f64).sqrt().round() as usize
}

/// The whole path from the givens (strategies only, or with solver steps when allowed).
pub fn explain_path<'a>(
    t: &'a Takuzu,
    solution: Option<&Grid>,
    fallback: bool,
) -> (Vec<Step>, Board<'a>) {
    let mut b = Board::new(t);
    let mut steps = Vec::new();
    while !b.solved() {
        let step = match next_step(&mut b) {
            Some(s) => s,
            None => match (fallback, solution) {
                (true, Some(sol)) => match solver_step(&b, sol) {
                    Some(s) => s,
                    None => break,
                },
                _ => break,
            },
        };
        b.apply(&step);
        steps.push(step);
    }
    (steps, b)
}

impl Explain for Takuzu {
    fn step_pictures(&self, steps: &[Step], look: Look) -> Option<Vec<Picture>> {
        Some(super::render::step_pictures(self, steps, look))
    }

    fn explain(&self, solution: &Grid, opts: ExplainOptions) -> Explanation {
        let (steps, b) = explain_path(self, Some(solution), opts.fallback);
        let solved = b.solved();
        Explanation {
            grade: grade(&steps, side(self)),
            stuck: (!solved)
                .then(|| super::render::grid(self, &b.cells, crate::puzzle::Style::default())),
            steps,
            solved,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::takuzu::format::{parse, ReadOptions};
    use crate::takuzu::rules;

    fn board_line(s: &str) -> Takuzu {
        let mut t = Takuzu::empty(s.len(), 1, Default::default());
        t.rules.distinct_lines = false;
        for (i, c) in s.chars().enumerate() {
            t.cells[i] = match c {
                '0' => Some(0),
                '1' => Some(1),
                _ => None,
            };
        }
        t
    }

    fn first(t: &Takuzu) -> Option<Step> {
        let mut b = Board::new(t);
        next_step(&mut b)
    }

    #[test]
    fn each_strategy_on_a_row() {
        // A 1-row grid: the columns have one cell each and never interfere.
        let s = first(&board_line("00....")).unwrap();
        assert_eq!(s.technique, "pairs and sandwiches");
        assert_eq!(s.placements[0].col, 2);
        assert_eq!(s.placements[0].value, 1);
        let s = first(&board_line("1.1...")).unwrap();
        assert_eq!((s.placements[0].col, s.placements[0].value), (1, 0));
        assert!(s.text.starts_with("row 1: r1c2=0 (between the 1s"));
        // Counting: three 0s of six placed.
        let s = first(&board_line("0.0.0.")).unwrap();
        assert_eq!(s.technique, "pairs and sandwiches"); // 0.0 comes first
        let s = first(&board_line("0..0.0")).unwrap();
        assert_eq!(s.technique, "pairs and sandwiches"); // .0.0 has a sandwich too
        let s = first(&board_line("..0100")).unwrap();
        assert_eq!(s.technique, "counting");
        assert!(s.text.contains("holds all its 3 0s"), "{}", s.text);
        assert_eq!(s.placements.len(), 2);
    }

    #[test]
    fn counting_excludes_places() {
        // 8 cells, 1s at c1, c4, c8: one more 1 fits. A 1 at c2 would leave 0s at c3, c5,
        // c6, c7: three 0s, so c2 is 0.
        let t = board_line("1..1...1");
        let mut b = Board::new(&t);
        let found = counting(&b, 0, &[]);
        assert_eq!(found[0].placements, vec![(1, 0)]);
        let s = next_step(&mut b).unwrap();
        assert_eq!(s.technique, "counting");
        assert!(s.text.contains("one more 1 at most fits"), "{}", s.text);
    }

    #[test]
    fn known_pair_counting() {
        // `.0..1..0`: the pair c3-c4 holds one of each, so 0s count 3 of 4; a 0 at c1 would
        // leave 1s at c6 and c7 next to the 1 at c5.
        let t = board_line(".0..1..0");
        let mut b = Board::new(&t);
        assert!(counting(&b, 0, &[]).is_empty());
        let f = known_pairs(&b, 0);
        assert_eq!(f[0].placements, vec![(0, 1)]);
        assert_eq!(f[0].strategy, 3);
        assert_eq!(next_step(&mut b).unwrap().technique, "0..1 counting");
    }

    #[test]
    fn distinct_lines_and_completions() {
        let text = "0101\n10.0\n....\n....\n";
        let t = &parse("t", text, &ReadOptions::default()).unwrap()[0];
        let b = Board::new(t);
        // Row 2 `10.0` one open cell: counting places it; use a 2-open case instead.
        assert!(!counting(&b, 1, &[]).is_empty());
        let text = "0101\n0..1\n....\n....\n";
        let t = &parse("t", text, &ReadOptions::default()).unwrap()[0];
        let b = Board::new(t);
        let f = distinct(&b, 1);
        assert_eq!(f[0].placements, vec![(5, 0), (6, 1)]);
        assert!(f[0].text.contains("row 1"));
        let f = completions(&b, 1);
        assert_eq!(f[0].placements, vec![(5, 0), (6, 1)]);
        assert!(f[0].text.contains("differs from row 1"));
    }

    #[test]
    fn explains_a_puzzle_and_every_state_keeps_the_rules() {
        // `gridsat generate takuzu --size 6 --seed 1`
        let text = "0.1...\n1...1.\n.0.0..\n.0....\n..1...\n......\n";
        let t = &parse("t", text, &ReadOptions::default()).unwrap()[0];
        let (steps, b) = explain_path(t, None, false);
        assert!(b.solved(), "{steps:#?}");
        let mut cells = t.cells.clone();
        for s in &steps {
            for p in &s.placements {
                cells[p.row * 6 + p.col] = Some(p.value as u8);
            }
            assert_eq!(rules::violation(t, &cells), None, "after {}", s.text);
        }
        let g = Grid(cells.iter().map(|c| c.unwrap()).collect());
        assert_eq!(rules::check(t, &g), Ok(()));
    }
}
