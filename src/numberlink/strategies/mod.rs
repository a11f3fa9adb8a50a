//! The Numberlink human-strategy engine: solves the way people write about solving Arukone and
//! Flow, never reading the SAT model, and only explains: every step is checked against the SAT
//! solution by the caller.
//!
//! The state ([`board`]) is what a person pencils in: the links drawn, and for every cell the
//! paths that could still run through it. Techniques, easiest first (ratings in
//! [`Technique::base`]):
//!
//! - [`local`]: *same path side by side* (flow), *only way on*, *corner*, *narrow cell*,
//!   *left empty* (nikoli), *no touching* (flow: U-turns, finished neighbours);
//! - [`paths`]: *dead end*, *out of reach*, *bottleneck* and *bridge*, on the room each path
//!   has left;
//! - [`areas`]: *sealed area* and *parity* (every cell covered: an open area with two loose
//!   ends beside it is one visit between them);
//! - [`whatif`]: *what if*: an assumption the easier techniques refute, the short ones (up to
//!   10 deductions, beside the paths drawn, then anywhere) before the long ones and the
//!   shortest of a round first, rated by its length.
//!
//! A step is written in the cell/value form of [`crate::explain::Step`]: a placement is "this
//! cell is on path k" (the path's number; 0 for a cell that stays empty under `nikoli`), an
//! elimination "this cell is not on path k", and a link joins two neighbours (with its path's
//! number, or 0 while that is not known), which [`verify_links`] holds to the solution's links.
//! With `--fallback`, a step proven by SAT draws one link of the solution.

mod areas;
pub mod board;
mod carry;
mod local;
mod memo;
mod paths;
#[cfg(test)]
mod tests;
mod whatif;

use super::{Links, Numberlink, SIDES};
use crate::draw::{Look, Picture};
use crate::explain::{Explain, ExplainOptions, Explanation, Grade, Link, Step, SOLVER_TECHNIQUE};
use crate::puzzle::CellValue;
pub use board::{Board, Contradiction, Shape, Why};

/// The techniques, easiest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Technique {
    SideBySide,
    OnlyWayOn,
    Corner,
    NarrowCell,
    LeftEmpty,
    NoTouching,
    DeadEnd,
    OutOfReach,
    Bottleneck,
    Bridge,
    SealedArea,
    Parity,
    WhatIf,
    Solver,
}

impl Technique {
    /// Every technique, easiest first.
    pub const ALL: [Technique; 14] = [
        Technique::SideBySide,
        Technique::OnlyWayOn,
        Technique::Corner,
        Technique::NarrowCell,
        Technique::LeftEmpty,
        Technique::NoTouching,
        Technique::DeadEnd,
        Technique::OutOfReach,
        Technique::Bottleneck,
        Technique::Bridge,
        Technique::SealedArea,
        Technique::Parity,
        Technique::WhatIf,
        Technique::Solver,
    ];

    /// The name players would use.
    pub fn name(self) -> &'static str {
        match self {
            Technique::SideBySide => "same path side by side",
            Technique::OnlyWayOn => "only way on",
            Technique::Corner => "corner",
            Technique::NarrowCell => "narrow cell",
            Technique::LeftEmpty => "left empty",
            Technique::NoTouching => "no touching",
            Technique::DeadEnd => "dead end",
            Technique::OutOfReach => "out of reach",
            Technique::Bottleneck => "bottleneck",
            Technique::Bridge => "bridge",
            Technique::SealedArea => "sealed area",
            Technique::Parity => "parity",
            Technique::WhatIf => "what if",
            Technique::Solver => SOLVER_TECHNIQUE,
        }
    }

    /// The rating of a step of this technique (a what-if adds to it by its length).
    pub fn base(self) -> f64 {
        match self {
            Technique::SideBySide | Technique::OnlyWayOn => 1.0,
            Technique::Corner => 1.2,
            Technique::NarrowCell | Technique::LeftEmpty => 1.5,
            Technique::NoTouching | Technique::DeadEnd => 2.0,
            Technique::OutOfReach => 2.5,
            Technique::Bottleneck | Technique::Bridge => 3.0,
            Technique::SealedArea => 3.2,
            Technique::Parity => 3.5,
            Technique::WhatIf => 4.0,
            Technique::Solver => 10.0,
        }
    }
}

/// The rating of a what-if of `len` deductions: 4.0 for one, 0.5 more each time the length
/// doubles (so 5.0 at 4, 6.0 at 16, 7.0 at 64).
pub fn what_if_rating(len: usize) -> f64 {
    let r = Technique::WhatIf.base() + 0.5 * (len.max(1) as f64).log2();
    (r * 10.0).round() / 10.0
}

/// One deduction: what a technique found, before it is a [`Step`].
#[derive(Clone, Debug)]
pub struct Deduction {
    pub technique: Technique,
    /// The path the deduction is about, when there is one.
    pub path: Option<usize>,
    /// The cells the deduction uses (its pattern).
    pub at: Vec<usize>,
    /// Links to draw.
    pub links: Vec<(usize, usize)>,
    /// Cells known from now on to be on a path (or, with the empty bit, to stay empty).
    pub places: Vec<(usize, usize)>,
    /// Candidates removed: (cell, path or the empty bit).
    pub elims: Vec<(usize, usize)>,
    /// For a what-if, its length.
    pub len: usize,
    /// The step's text (written only when asked for).
    pub text: String,
}

impl Deduction {
    pub fn new(technique: Technique, path: Option<usize>, at: Vec<usize>) -> Deduction {
        Deduction {
            technique,
            path,
            at,
            links: Vec::new(),
            places: Vec::new(),
            elims: Vec::new(),
            len: 0,
            text: String::new(),
        }
    }

    pub fn rating(&self) -> f64 {
        match self.technique {
            Technique::WhatIf => what_if_rating(self.len),
            t => t.base(),
        }
    }

    /// The cells whose marks the deduction changes.
    pub fn cells_changed(&self) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for &(c, m) in &self.links {
            out.extend([c, m]);
        }
        out.extend(self.places.iter().map(|&(c, _)| c));
        out.extend(self.elims.iter().map(|&(c, _)| c));
        out
    }
}

/// What a technique returns at a place: a deduction, a contradiction, or nothing.
pub type Found = Option<Result<Deduction, Contradiction>>;

/// Applies a deduction to the board.
pub fn apply(s: &Shape, b: &mut Board, d: &Deduction) -> Result<(), Contradiction> {
    for &(c, m) in &d.links {
        b.link(s, c, m)?;
    }
    for &(c, k) in &d.places {
        b.set(c, k)?;
    }
    for &(c, k) in &d.elims {
        b.remove(c, k)?;
    }
    Ok(())
}

fn name(p: &Numberlink, c: usize) -> String {
    p.cell_name(c)
}

/// `path 3` (or `path A`): a path as the puzzle labels it.
fn path_name(p: &Numberlink, k: usize) -> String {
    format!("path {}", p.labels[k])
}

/// `path 3`, or `the path` while it is not known which.
fn on_path(p: &Numberlink, k: Option<usize>) -> String {
    k.map_or_else(|| "the path".into(), |k| path_name(p, k))
}

/// A list of cells for a text, shortened when long.
fn cells_text(p: &Numberlink, cells: &[usize]) -> String {
    const MOST: usize = 8;
    let mut names: Vec<String> = cells.iter().take(MOST).map(|&c| name(p, c)).collect();
    if cells.len() > MOST {
        names.push(format!("and {} more", cells.len() - MOST));
    }
    names.join(" ")
}

/// A contradiction in words.
fn describe_contradiction(p: &Numberlink, x: &Contradiction) -> String {
    let at = |i: usize| x.at.get(i).map_or_else(String::new, |&c| name(p, c));
    let path = x
        .path
        .map_or_else(|| "a path".to_string(), |k| path_name(p, k));
    match x.why {
        Why::Stuck => format!("{path} at {} would have no way on", at(0)),
        Why::Uncovered => format!("no path could run through {}", at(0)),
        Why::NoPath => format!("{} would have no path left", at(0)),
        Why::Apart => format!("{path} could no longer join its ends"),
        Why::Touching => format!(
            "{path} would run alongside itself at {} and {}",
            at(0),
            at(1)
        ),
        Why::BadLink => format!(
            "{} and {} would join two paths or close a loop",
            at(0),
            at(1)
        ),
        Why::Area => format!(
            "the open area at {} would have too few loose ends beside it to be filled",
            at(0)
        ),
        Why::Parity => format!(
            "the open area at {} could not be filled (its dark and light cells do not match)",
            at(0)
        ),
    }
}

/// The easiest deduction on the board, with its text. What the step found on the board before
/// is kept in `memo` (see [`memo`]), which only looks again where the board changed.
fn next(
    p: &Numberlink,
    s: &Shape,
    b: &Board,
    memo: &mut memo::Memo,
    pending: &mut whatif::Pending,
    work: &mut whatif::Work,
) -> Option<Deduction> {
    let say = Some(p);
    let ok = |f: Found| match f {
        Some(Ok(d)) => Some(d),
        // The board agrees with the solution: a contradiction here is a bug in a technique,
        // and the step is not taken.
        Some(Err(_)) => None,
        None => None,
    };
    memo.update(s, b);
    let local = memo.local(s, b, say);
    debug_assert_eq!(
        format!("{local:?}"),
        format!("{:?}", local_scan(s, b, say)),
        "the local step kept from board to board is the whole board's"
    );
    if local.is_some() {
        return local;
    }
    // Out of reach, then bottleneck, sharing one search of each path's room.
    let (reach, cut) = memo.rooms(s, b, say);
    debug_assert_eq!(
        format!("{:?}", (&reach, &cut)),
        format!(
            "{:?}",
            paths::reach_then_bottleneck(s, b, say, &mut paths::Scratch::default())
        ),
        "the rooms kept from board to board find what the whole board's find"
    );
    let x = memo.scratch();
    let cut = match reach {
        Some(Ok(d)) => return Some(d),
        Some(Err(_)) => paths::bottleneck(s, b, say, x),
        None => cut,
    };
    if let Some(d) = ok(cut) {
        return Some(d);
    }
    let area = areas::sealed_area(s, b, say, x);
    let quiet = area.is_none();
    ok(area).or_else(|| whatif::what_if(s, b, say, pending, work, quiet))
}

/// The first deduction of the local techniques on the whole board: the first cell in index
/// order for the first scan of [`memo::SCANS`] that finds one (what [`memo::Memo::local`]
/// finds looking only where the board changed).
fn local_scan(s: &Shape, b: &Board, say: Option<&Numberlink>) -> Option<Deduction> {
    let at: Vec<local::At> = (0..s.cells()).map(|c| local::At::new(s, b, c)).collect();
    memo::SCANS.iter().find_map(|&(rule, want)| {
        at.iter().find_map(|a| match rule(s, b, a, say) {
            Some(Ok(d)) if want.is_none_or(|t| d.technique == t) => Some(d),
            _ => None,
        })
    })
}

/// A link of the solution, from a loose end when there is one (proven by SAT).
fn solver_move(p: &Numberlink, s: &Shape, b: &Board, sol: &Links) -> Option<Deduction> {
    let n = s.cells();
    let missing = |c: usize| sol.arms[c] & !b.arms[c];
    let c = (0..n)
        .filter(|&c| missing(c) != 0)
        .min_by_key(|&c| (!b.loose(s, c), c))?;
    let side = SIDES.iter().position(|&x| missing(c) & x != 0)?;
    let m = s.nb(c, side)?;
    let k = sol.path[c] as usize - 1;
    let mut d = Deduction::new(Technique::Solver, Some(k), vec![c]);
    d.links.push((c, m));
    d.text = format!(
        "{} links to {} on {}: every other way leads to a contradiction (proven by SAT)",
        name(p, c),
        name(p, m),
        path_name(p, k)
    );
    Some(d)
}

fn cv(p: &Numberlink, s: &Shape, c: usize, k: usize) -> CellValue {
    CellValue {
        row: c / p.width,
        col: c % p.width,
        value: if k == s.empty { 0 } else { p.numbers[k] as i64 },
    }
}

/// The step of a deduction, on the board it was applied to.
fn to_step(p: &Numberlink, s: &Shape, after: &Board, d: &Deduction) -> Step {
    let links = d
        .links
        .iter()
        .map(|&(c, m)| {
            let at = |x: usize| match after.path_of(s, x) {
                Some(k) => cv(p, s, x, k),
                None => CellValue {
                    row: x / p.width,
                    col: x % p.width,
                    value: 0,
                },
            };
            Link {
                from: at(c),
                to: at(m),
                strong: true,
            }
        })
        .collect();
    let mut pattern: Vec<usize> = d.at.clone();
    let mut seen = std::collections::HashSet::new();
    pattern.retain(|c| seen.insert(*c));
    Step {
        technique: d.technique.name().into(),
        rating: d.rating(),
        pattern: pattern
            .iter()
            .map(|&c| CellValue {
                row: c / p.width,
                col: c % p.width,
                value: 0,
            })
            .collect(),
        placements: d.places.iter().map(|&(c, k)| cv(p, s, c, k)).collect(),
        eliminations: d.elims.iter().map(|&(c, k)| cv(p, s, c, k)).collect(),
        links,
        text: d.text.clone(),
    }
}

/// Checks the links a step list draws against a solution: the two cells of each are
/// neighbours that the solution links, on the path the link names (when it names one).
pub fn verify_links(p: &Numberlink, s: &Links, steps: &[Step]) -> Result<(), String> {
    for (i, st) in steps.iter().enumerate() {
        for l in &st.links {
            let (a, m) = (&l.from, &l.to);
            let (c, d) = (a.row * p.width + a.col, m.row * p.width + m.col);
            for (x, v) in [(c, a.value), (d, m.value)] {
                let on = s.path.get(x).map(|&k| k as usize);
                if v != 0
                    && on
                        .and_then(|k| k.checked_sub(1))
                        .map(|k| p.numbers[k] as i64)
                        != Some(v)
                {
                    return Err(format!(
                        "step {} ({}) draws a link of path {v} through {}, which the solution does not: {}",
                        i + 1,
                        st.technique,
                        p.cell_name(x),
                        st.text
                    ));
                }
            }
            let linked = SIDES
                .iter()
                .any(|&x| p.neighbour(c, x) == Some(d) && s.arms[c] & x != 0);
            if !linked {
                return Err(format!(
                    "step {} ({}) links {} and {}, which the solution does not: {}",
                    i + 1,
                    st.technique,
                    p.cell_name(c),
                    p.cell_name(d),
                    st.text
                ));
            }
        }
    }
    Ok(())
}

/// The levels, easiest first.
pub const LEVELS: [&str; 5] = crate::explain::LEVELS;

/// The highest rating of each level below extreme.
const LEVEL_TOPS: [f64; 4] = [1.2, 2.0, 3.5, 6.0];

/// A level word for a rating.
pub fn level(rating: f64) -> &'static str {
    LEVEL_TOPS
        .iter()
        .position(|&top| rating <= top)
        .map_or(LEVELS[4], |i| LEVELS[i])
}

/// The highest rating a level allows (infinite for extreme).
pub fn max_rating(level: &str) -> f64 {
    match LEVELS.iter().position(|&l| l == level) {
        Some(i) if i < LEVEL_TOPS.len() => LEVEL_TOPS[i],
        _ => f64::INFINITY,
    }
}

/// The grade of a path: its hardest step, and how many steps of each technique.
pub fn grade(steps: &[Step]) -> Grade {
    crate::explain::grade_by_hardest(steps, level)
}

/// The board as a person would have it when stuck: known paths and the links drawn.
pub fn draw(p: &Numberlink, s: &Shape, b: &Board) -> String {
    let path: Vec<u32> = (0..s.cells())
        .map(|c| b.path_of(s, c).map_or(0, |k| k as u32 + 1))
        .collect();
    let l = Links {
        arms: b.arms.clone(),
        path,
    };
    let mut q = p.clone();
    q.form = super::Form::Numbers;
    super::render::solution(&q, &l, Default::default())
}

/// The explanation, and the board where it ended.
pub fn solve(p: &Numberlink, solution: Option<&Links>, max: f64) -> (Vec<Step>, Board, Shape) {
    let s = Shape::new(p);
    let mut b = Board::new(&s, p);
    let mut steps = Vec::new();
    let mut pending = whatif::Pending::default();
    let mut work = whatif::Work::new(&s);
    let mut memo = memo::Memo::default();
    while !b.solved(&s) {
        let d = match next(p, &s, &b, &mut memo, &mut pending, &mut work) {
            Some(d) if d.rating() <= max => d,
            _ => match solution.and_then(|sol| solver_move(p, &s, &b, sol)) {
                Some(d) => d,
                None => break,
            },
        };
        let before = (
            b.arms.clone(),
            (0..s.cells()).map(|c| b.count(c)).sum::<u32>(),
        );
        if apply(&s, &mut b, &d).is_err() {
            break;
        }
        let after = (
            b.arms.clone(),
            (0..s.cells()).map(|c| b.count(c)).sum::<u32>(),
        );
        if before == after {
            break; // a deduction that changes nothing would repeat for ever
        }
        steps.push(to_step(p, &s, &b, &d));
    }
    (steps, b, s)
}

/// True when the techniques solve the puzzle with no step rated above `max`.
pub fn solves_within(p: &Numberlink, max: f64) -> bool {
    let (_, b, s) = solve(p, None, max);
    b.solved(&s)
}

impl Explain for Numberlink {
    fn step_pictures(&self, steps: &[Step], _look: Look) -> Option<Vec<Picture>> {
        Some(super::render::step_pictures(self, steps))
    }

    fn verify(&self, solution: &Links, steps: &[Step]) -> Result<(), String> {
        crate::explain::verify_steps(&crate::puzzle::Puzzle::rows(self, solution), steps)?;
        verify_links(self, solution, steps)
    }

    fn explain(&self, solution: &Links, opts: ExplainOptions) -> Explanation {
        let (steps, b, s) = solve(self, opts.fallback.then_some(solution), f64::INFINITY);
        let solved = b.solved(&s);
        Explanation {
            grade: grade(&steps),
            stuck: (!solved).then(|| draw(self, &s, &b)),
            steps,
            solved,
        }
    }
}
