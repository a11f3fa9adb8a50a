//! The Numberlink human-strategy engine: grows paths the way people do, never reading the SAT
//! model, and only explains: every step is checked against the SAT solution by the caller.
//!
//! The state is what a person pencils in: the links drawn so far, the path each cell is known
//! to belong to, and for every other cell the paths that could still reach it. Techniques,
//! easiest first:
//!
//! - **same path side by side** (flow): two neighbours of the same path must be linked;
//! - **only way on**: a cell whose path must go on (an end, or a cell with one link) and that
//!   has exactly as many ways left as links it still needs;
//! - **corner** / **narrow cell** (every cell covered): a cell with exactly two ways left, one of
//!   them into a known path, is on that path and uses both;
//! - **no touching** (flow): a cell next to a finished cell of path k (one it is not linked to)
//!   can not be on path k;
//! - **one path can reach** : a region of open cells that only one path's loose ends can enter
//!   belongs to that path (every cell covered); paths that can not enter are struck out.
//!
//! A step is written in the cell/value form of [`crate::explain::Step`]: a placement is "this
//! cell is on path k" (the path's number), an elimination "this cell is not on path k". Steps
//! that draw links list both cells of each link, one after the other, so [`verify_links`] can
//! hold the links to the solution too (under `cover` and `nikoli` a path's cells do not fix its
//! route). With `--fallback`, a step proven by SAT draws one link of the solution.

use super::{opposite, Links, Numberlink, Rules, SIDES};
use crate::draw::{Look, Picture};
use crate::explain::{Explain, ExplainOptions, Explanation, Grade, Step, SOLVER_TECHNIQUE};
use crate::puzzle::CellValue;

/// Techniques whose placements are links, two cells at a time.
pub const LINK_TECHNIQUES: [&str; 5] = [
    "same path side by side",
    "only way on",
    "corner",
    "narrow cell",
    SOLVER_TECHNIQUE,
];

/// What a person has pencilled in.
#[derive(Clone, Debug)]
pub struct Board {
    /// Links drawn, as arm bits per cell.
    pub arms: Vec<u8>,
    /// The path (index) each cell is known to be on.
    pub path: Vec<Option<usize>>,
    /// For each cell, the paths that could still be on it.
    pub cand: Vec<Vec<bool>>,
    /// True for the cells that are ends.
    pub end: Vec<bool>,
}

struct Move {
    technique: &'static str,
    rating: f64,
    links: Vec<(usize, usize, usize)>,
    places: Vec<(usize, usize)>,
    elims: Vec<(usize, usize)>,
    pattern: Vec<usize>,
    text: String,
}

impl Board {
    /// The board before any step: ends known, other cells open to every path that can reach them.
    pub fn new(p: &Numberlink) -> Board {
        let n = p.cells();
        let k = p.ends.len();
        let reach = super::model::reachable_labels(p);
        let ep = p.endpoint_map();
        let mut cand = vec![vec![false; k]; n];
        for c in 0..n {
            match ep[c] {
                Some(e) => cand[c][e] = true,
                None => {
                    for &v in &reach[c] {
                        cand[c][v as usize - 1] = true;
                    }
                }
            }
        }
        Board {
            arms: vec![0; n],
            end: ep.iter().map(|e| e.is_some()).collect(),
            path: ep,
            cand,
        }
    }

    /// How many links a cell on a path has in the end: one at an end, two elsewhere.
    fn need(&self, _p: &Numberlink, c: usize) -> u32 {
        if self.end[c] {
            1
        } else {
            2
        }
    }

    fn full(&self, p: &Numberlink, c: usize) -> bool {
        self.arms[c].count_ones() >= self.need(p, c)
    }

    /// The cells linked to `c`, directly or through other cells (its piece of path).
    fn segment(&self, p: &Numberlink, c: usize) -> Vec<usize> {
        let mut seen = vec![c];
        let mut i = 0;
        while i < seen.len() {
            let x = seen[i];
            i += 1;
            for s in SIDES {
                if self.arms[x] & s != 0 {
                    let m = p.neighbour(x, s).expect("on board");
                    if !seen.contains(&m) {
                        seen.push(m);
                    }
                }
            }
        }
        seen
    }

    /// True when `c` and `m` (neighbours) may still be linked.
    fn can_link(&self, p: &Numberlink, c: usize, side: u8) -> bool {
        let Some(m) = p.neighbour(c, side) else {
            return false;
        };
        if self.arms[c] & side != 0 || self.full(p, c) || self.full(p, m) {
            return false;
        }
        let share = match (self.path[c], self.path[m]) {
            (Some(a), Some(b)) => a == b,
            (Some(a), None) => self.cand[m][a],
            (None, Some(b)) => self.cand[c][b],
            (None, None) => self.cand[c]
                .iter()
                .zip(&self.cand[m])
                .any(|(&x, &y)| x && y),
        };
        // Linking two cells of one piece of path would close a loop.
        share && !(self.arms[c] != 0 && self.arms[m] != 0 && self.segment(p, c).contains(&m))
    }

    fn link(&mut self, p: &Numberlink, c: usize, m: usize, k: usize) {
        let side = SIDES
            .iter()
            .copied()
            .find(|&s| p.neighbour(c, s) == Some(m))
            .expect("neighbours");
        self.arms[c] |= side;
        self.arms[m] |= opposite(side);
        self.place(c, k);
        self.place(m, k);
    }

    fn place(&mut self, c: usize, k: usize) {
        self.path[c] = Some(k);
        for (j, x) in self.cand[c].iter_mut().enumerate() {
            *x = j == k;
        }
    }

    /// True when every path joins its ends (and, where cells must be covered, every cell is on one).
    pub fn solved(&self, p: &Numberlink) -> bool {
        p.ends.iter().all(|&(a, b)| self.segment(p, a).contains(&b))
            && (p.rules == Rules::Nikoli || (0..p.cells()).all(|c| self.full(p, c)))
    }
}

fn name(p: &Numberlink, c: usize) -> String {
    p.cell_name(c)
}

/// Two neighbours on the same path that are not linked must be, under flow.
fn side_by_side(p: &Numberlink, b: &Board) -> Option<Move> {
    if p.rules != Rules::Flow {
        return None;
    }
    for c in 0..p.cells() {
        for side in [super::RIGHT, super::DOWN] {
            let Some(m) = p.neighbour(c, side) else {
                continue;
            };
            if let (Some(k), Some(j)) = (b.path[c], b.path[m]) {
                if k == j && b.arms[c] & side == 0 && b.can_link(p, c, side) {
                    return Some(Move {
                        technique: "same path side by side",
                        rating: 1.0,
                        links: vec![(c, m, k)],
                        places: vec![],
                        elims: vec![],
                        pattern: vec![c, m],
                        text: format!(
                            "{} and {} are both on path {} and side by side, so they are linked (a path never runs alongside itself)",
                            name(p, c),
                            name(p, m),
                            p.labels[k]
                        ),
                    });
                }
            }
        }
    }
    None
}

/// A loose end with exactly as many ways on as links it still needs.
fn only_way_on(p: &Numberlink, b: &Board) -> Option<Move> {
    for c in 0..p.cells() {
        let Some(k) = b.path[c] else { continue };
        let have = b.arms[c].count_ones();
        let need = b.need(p, c);
        if have == 0 && need == 2 {
            continue; // a cell known to be on a path but not yet reached: its route is open
        }
        if have >= need {
            continue;
        }
        let ways: Vec<usize> = SIDES
            .iter()
            .filter(|&&s| b.can_link(p, c, s))
            .filter_map(|&s| p.neighbour(c, s))
            .collect();
        if ways.len() as u32 == need - have {
            return Some(Move {
                technique: "only way on",
                rating: 1.0,
                links: ways.iter().map(|&m| (c, m, k)).collect(),
                places: vec![],
                elims: vec![],
                pattern: vec![c],
                text: format!(
                    "path {} at {} has only one way on: to {}",
                    p.labels[k],
                    name(p, c),
                    ways.iter()
                        .map(|&m| name(p, m))
                        .collect::<Vec<_>>()
                        .join(" and ")
                ),
            });
        }
    }
    None
}

/// Under covering rules, an open cell with two ways left, one into a known path, uses both.
fn narrow_cell(p: &Numberlink, b: &Board) -> Option<Move> {
    if !p.rules.covers() {
        return None;
    }
    for c in 0..p.cells() {
        if b.path[c].is_some() || b.arms[c] != 0 {
            continue;
        }
        let ways: Vec<usize> = SIDES
            .iter()
            .filter(|&&s| b.can_link(p, c, s))
            .filter_map(|&s| p.neighbour(c, s))
            .collect();
        if ways.len() != 2 {
            continue;
        }
        let Some(k) = ways.iter().find_map(|&m| b.path[m]) else {
            continue;
        };
        if ways.iter().any(|&m| b.path[m].is_some_and(|j| j != k)) {
            continue; // two different paths: not this technique's business
        }
        let corner = p.open_sides(c).count_ones() == 2;
        return Some(Move {
            technique: if corner { "corner" } else { "narrow cell" },
            rating: if corner { 1.5 } else { 2.0 },
            links: ways.iter().map(|&m| (c, m, k)).collect(),
            places: vec![],
            elims: vec![],
            pattern: vec![c],
            text: format!(
                "{} must be on a path and has only two ways left, {} and {}: path {} runs through it",
                name(p, c),
                name(p, ways[0]),
                name(p, ways[1]),
                p.labels[k]
            ),
        });
    }
    None
}

/// Under flow, an open cell next to a finished cell of path k that is not linked to it is
/// not on path k.
fn no_touching(p: &Numberlink, b: &Board) -> Option<Move> {
    if p.rules != Rules::Flow {
        return None;
    }
    for c in 0..p.cells() {
        if b.path[c].is_some() {
            continue;
        }
        for side in SIDES {
            let Some(x) = p.neighbour(c, side) else {
                continue;
            };
            let Some(k) = b.path[x] else { continue };
            if b.cand[c][k] && b.full(p, x) && b.arms[x] & opposite(side) == 0 {
                return Some(Move {
                    technique: "no touching",
                    rating: 2.5,
                    links: vec![],
                    places: vec![],
                    elims: vec![(c, k)],
                    pattern: vec![x],
                    text: format!(
                        "{} is not on path {}: it would touch {}, which is finished and not linked to it",
                        name(p, c),
                        p.labels[k],
                        name(p, x)
                    ),
                });
            }
        }
    }
    None
}

/// Regions of open cells and the paths whose loose ends can enter them.
fn one_path_reaches(p: &Numberlink, b: &Board) -> Option<Move> {
    let n = p.cells();
    let mut region = vec![usize::MAX; n];
    for s in 0..n {
        if b.path[s].is_some() || region[s] != usize::MAX {
            continue;
        }
        let mut cells = vec![s];
        region[s] = s;
        let mut i = 0;
        let mut entering: Vec<usize> = Vec::new();
        while i < cells.len() {
            let c = cells[i];
            i += 1;
            for side in SIDES {
                let Some(m) = p.neighbour(c, side) else {
                    continue;
                };
                match b.path[m] {
                    None => {
                        if region[m] == usize::MAX {
                            region[m] = s;
                            cells.push(m);
                        }
                    }
                    Some(k) => {
                        if b.can_link(p, m, opposite(side)) && !entering.contains(&k) {
                            entering.push(k);
                        }
                    }
                }
            }
        }
        entering.sort_unstable();
        let elims: Vec<(usize, usize)> = cells
            .iter()
            .flat_map(|&c| {
                b.cand[c]
                    .iter()
                    .enumerate()
                    .filter(|&(k, &x)| x && !entering.contains(&k))
                    .map(move |(k, _)| (c, k))
            })
            .collect();
        let list = |ks: &[usize]| {
            ks.iter()
                .map(|&k| p.labels[k].clone())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if p.rules.covers() && entering.len() == 1 {
            let k = entering[0];
            return Some(Move {
                technique: "one path can reach",
                rating: 3.0,
                links: vec![],
                places: cells.iter().map(|&c| (c, k)).collect(),
                elims: vec![],
                pattern: cells.clone(),
                text: format!(
                    "only path {} can enter the {} open cell{} at {}: {} on it",
                    p.labels[k],
                    cells.len(),
                    if cells.len() == 1 { "" } else { "s" },
                    name(p, cells[0]),
                    if cells.len() == 1 {
                        "it is"
                    } else {
                        "they are all"
                    }
                ),
            });
        }
        if !elims.is_empty() {
            let mut struck: Vec<usize> = elims.iter().map(|&(_, k)| k).collect();
            struck.sort_unstable();
            struck.dedup();
            return Some(Move {
                technique: "one path can reach",
                rating: 3.0,
                links: vec![],
                places: vec![],
                elims,
                pattern: cells.clone(),
                text: format!(
                    "the open region at {} can only be entered by path{} {}: path{} {} can not reach it",
                    name(p, cells[0]),
                    if entering.len() == 1 { "" } else { "s" },
                    list(&entering),
                    if struck.len() == 1 { "" } else { "s" },
                    list(&struck)
                ),
            });
        }
    }
    None
}

/// A link of the solution, from a loose end when there is one (proven by SAT).
fn solver_move(p: &Numberlink, b: &Board, s: &Links) -> Option<Move> {
    let n = p.cells();
    let missing = |c: usize| s.arms[c] & !b.arms[c];
    let c = (0..n)
        .filter(|&c| missing(c) != 0)
        .min_by_key(|&c| (b.path[c].is_none(), c))?;
    let side = SIDES.iter().copied().find(|&x| missing(c) & x != 0)?;
    let m = p.neighbour(c, side)?;
    let k = s.path[c] as usize - 1;
    Some(Move {
        technique: SOLVER_TECHNIQUE,
        rating: 10.0,
        links: vec![(c, m, k)],
        places: vec![],
        elims: vec![],
        pattern: vec![c],
        text: format!(
            "{} links to {} on path {}: every other way leads to a contradiction (proven by SAT)",
            name(p, c),
            name(p, m),
            p.labels[k]
        ),
    })
}

fn cv(p: &Numberlink, c: usize, k: usize) -> CellValue {
    CellValue {
        row: c / p.width,
        col: c % p.width,
        value: p.numbers[k] as i64,
    }
}

fn apply(p: &Numberlink, b: &mut Board, mv: &Move) -> Step {
    let mut placements = Vec::new();
    for &(c, m, k) in &mv.links {
        b.link(p, c, m, k);
        placements.push(cv(p, c, k));
        placements.push(cv(p, m, k));
    }
    for &(c, k) in &mv.places {
        b.place(c, k);
        placements.push(cv(p, c, k));
    }
    for &(c, k) in &mv.elims {
        b.cand[c][k] = false;
    }
    Step {
        links: Vec::new(),
        technique: mv.technique.into(),
        rating: mv.rating,
        pattern: mv
            .pattern
            .iter()
            .map(|&c| CellValue {
                row: c / p.width,
                col: c % p.width,
                value: 0,
            })
            .collect(),
        placements,
        eliminations: mv.elims.iter().map(|&(c, k)| cv(p, c, k)).collect(),
        text: mv.text.clone(),
    }
}

/// Checks the links a step list draws against a solution: every link technique's placements
/// come in pairs of neighbouring cells that the solution links.
pub fn verify_links(p: &Numberlink, s: &Links, steps: &[Step]) -> Result<(), String> {
    for (i, st) in steps.iter().enumerate() {
        if !LINK_TECHNIQUES.contains(&st.technique.as_str()) {
            continue;
        }
        for pair in st.placements.chunks(2) {
            let [a, m] = pair else {
                return Err(format!(
                    "step {} ({}) draws half a link",
                    i + 1,
                    st.technique
                ));
            };
            let (c, d) = (a.row * p.width + a.col, m.row * p.width + m.col);
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

/// A level word for a rating.
pub fn level(rating: f64) -> &'static str {
    match rating {
        r if r <= 1.0 => "easy",
        r if r <= 2.0 => "medium",
        r if r <= 3.0 => "hard",
        _ => "extreme",
    }
}

/// The grade of a path: its hardest step, and how many steps of each technique.
pub fn grade(steps: &[Step]) -> Grade {
    crate::explain::grade_by_hardest(steps, level)
}

/// The board as a person would have it when stuck: known paths and the links drawn.
pub fn draw(p: &Numberlink, b: &Board) -> String {
    let path: Vec<u32> = b
        .path
        .iter()
        .map(|k| k.map_or(0, |k| k as u32 + 1))
        .collect();
    let s = Links {
        arms: b.arms.clone(),
        path,
    };
    let mut q = p.clone();
    q.form = super::Form::Numbers;
    super::render::solution(&q, &s, Default::default())
}

/// The techniques in order, easiest first.
fn next_move(p: &Numberlink, b: &Board) -> Option<Move> {
    side_by_side(p, b)
        .or_else(|| only_way_on(p, b))
        .or_else(|| narrow_cell(p, b))
        .or_else(|| no_touching(p, b))
        .or_else(|| one_path_reaches(p, b))
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
        let mut b = Board::new(self);
        let mut steps = Vec::new();
        while !b.solved(self) {
            let mv = match next_move(self, &b) {
                Some(mv) => mv,
                None if opts.fallback => match solver_move(self, &b, solution) {
                    Some(mv) => mv,
                    None => break,
                },
                None => break,
            };
            steps.push(apply(self, &mut b, &mv));
        }
        let solved = b.solved(self);
        Explanation {
            grade: grade(&steps),
            stuck: (!solved).then(|| draw(self, &b)),
            steps,
            solved,
        }
    }
}
