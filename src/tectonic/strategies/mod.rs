//! The Tectonic human-strategy engine: works on pencil marks, never on the SAT model, and only
//! explains; every step is checked against the SAT solution by the caller.
//!
//! The seed's eight elimination strategies and what they generalise to, easiest first:
//!
//! | technique | the seed's strategies |
//! |---|---|
//! | placing a digit removes it from its piece and from the eight touching cells (listed as each placement's eliminations) | 1, 2 |
//! | full piece: the last open cell of a piece | 3 |
//! | hidden single: a value with one place left in its piece | 3 |
//! | naked single: a cell with one candidate left | (the seed's pencil marks) |
//! | shared neighbour: every place of a value in a piece touches a cell, so that cell is not the value | 5 (two places), 7 and 8 (three places), generalised to any number of places |
//! | naked pair, triple, quad: k cells that all see each other (same piece or touching) hold k values between them, so every cell that sees all of them loses those values | 6 (a pair in a piece), 4 and 5 (two touching cells with the same two candidates), generalised to k cells |
//! | hidden pair, triple: k values of a piece have their places in the same k cells, so those cells lose every other candidate | generalises 3 |
//!
//! | contradiction: a candidate that, followed by singles only, leaves a cell without candidates or a piece without a place for a value, is removed | 9, without guessing |
//!
//! The seed's ninth strategy tries a value of a two-candidate cell and recurses, keeping
//! whichever try solves the puzzle: a guess. The contradiction step instead removes a value
//! only when a short chain of singles (at most 40 placements, shown in the step) proves it
//! impossible. When the techniques run out, `--fallback` continues with a step proven by SAT
//! (the solution's value in the open cell with the fewest candidates).

use super::model::{bit, candidates};
use super::{render, Filling, Tectonic};
use crate::draw::{Look, Picture};
use crate::explain::{Explain, ExplainOptions, Explanation, Grade, Step, SOLVER_TECHNIQUE};
use crate::puzzle::{cell_name, CellValue, Style};

/// Pencil marks: the values placed and the values still possible in every cell.
#[derive(Clone, Debug)]
pub struct Board {
    pub values: Vec<u8>,
    /// Bit v-1 set when v is still possible (0 for a placed cell).
    pub masks: Vec<u64>,
}

/// The puzzle's shape, computed once for the engine.
struct Shape<'a> {
    t: &'a Tectonic,
    pieces: Vec<Vec<usize>>,
    /// For each cell, every other cell it sees: its piece mates and touching cells, sorted.
    peers: Vec<Vec<usize>>,
}

impl<'a> Shape<'a> {
    fn new(t: &'a Tectonic) -> Shape<'a> {
        let pieces = t.pieces();
        let peers = (0..t.regions.len())
            .map(|i| {
                let mut p: Vec<usize> = pieces[t.regions[i]]
                    .iter()
                    .copied()
                    .filter(|&j| j != i)
                    .chain(t.neighbours(i))
                    .collect();
                crate::sort::all(&mut p);
                p.dedup();
                p
            })
            .collect();
        Shape { t, pieces, peers }
    }

    fn touch(&self, a: usize, b: usize) -> bool {
        let w = self.t.width;
        a != b && (a / w).abs_diff(b / w) <= 1 && (a % w).abs_diff(b % w) <= 1
    }

    fn sees(&self, a: usize, b: usize) -> bool {
        a != b && (self.t.regions[a] == self.t.regions[b] || self.touch(a, b))
    }

    fn cv(&self, i: usize, v: u8) -> CellValue {
        CellValue {
            row: i / self.t.width,
            col: i % self.t.width,
            value: v as i64,
        }
    }

    fn name(&self, i: usize) -> String {
        cell_name(i / self.t.width, i % self.t.width)
    }

    fn names(&self, cells: &[usize]) -> String {
        cells
            .iter()
            .map(|&i| self.name(i))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn piece(&self, i: usize) -> String {
        self.t.piece_name(self.t.regions[i])
    }
}

fn values_of(mask: u64) -> impl Iterator<Item = u8> {
    (1..=64u8).filter(move |&v| mask & bit(v) != 0)
}

fn list(mask: u64) -> String {
    values_of(mask)
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

impl Board {
    /// The pencil marks the givens leave.
    pub fn new(t: &Tectonic) -> Board {
        Board {
            values: t.givens.clone(),
            masks: candidates(t),
        }
    }

    /// True when every cell holds a value.
    pub fn solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Applies a step's placements and eliminations (`w`: the grid's width).
    pub fn apply(&mut self, s: &Step, w: usize) {
        for p in &s.placements {
            let i = p.row * w + p.col;
            self.values[i] = p.value as u8;
            self.masks[i] = 0;
        }
        for e in &s.eliminations {
            self.masks[e.row * w + e.col] &= !bit(e.value as u8);
        }
    }
}

/// A step placing `v` in `i`, with the removals that follow (from its piece and the touching
/// cells: the seed's strategies 1 and 2); the caller names the technique and says why.
fn placement(sh: &Shape, b: &Board, i: usize, v: u8) -> Step {
    let eliminations = sh.peers[i]
        .iter()
        .filter(|&&j| b.masks[j] & bit(v) != 0)
        .map(|&j| sh.cv(j, v))
        .collect();
    Step {
        links: Vec::new(),
        technique: String::new(),
        rating: 0.0,
        pattern: vec![sh.cv(i, 0)],
        placements: vec![sh.cv(i, v)],
        eliminations,
        text: String::new(),
    }
}

fn singles(sh: &Shape, b: &Board) -> Option<Step> {
    // Full piece: one open cell left.
    for (p, cells) in sh.pieces.iter().enumerate() {
        let open: Vec<usize> = cells
            .iter()
            .copied()
            .filter(|&i| b.values[i] == 0)
            .collect();
        if open.len() == 1 && b.masks[open[0]].count_ones() == 1 {
            let i = open[0];
            let v = values_of(b.masks[i]).next().expect("one candidate");
            return Some(Step {
                technique: "full piece".into(),
                rating: 1.0,
                pattern: cells.iter().map(|&j| sh.cv(j, 0)).collect(),
                text: format!(
                    "{}={v} is the last open cell of {}",
                    sh.name(i),
                    sh.t.piece_name(p)
                ),
                ..placement(sh, b, i, v)
            });
        }
    }
    // Hidden single: a value with one place in its piece.
    for (p, cells) in sh.pieces.iter().enumerate() {
        for v in 1..=cells.len() as u8 {
            if cells.iter().any(|&i| b.values[i] == v) {
                continue;
            }
            let places: Vec<usize> = cells
                .iter()
                .copied()
                .filter(|&i| b.masks[i] & bit(v) != 0)
                .collect();
            if places.len() == 1 {
                let i = places[0];
                return Some(Step {
                    technique: "hidden single".into(),
                    rating: 1.2,
                    pattern: cells.iter().map(|&j| sh.cv(j, 0)).collect(),
                    text: format!(
                        "{}={v}: the only place for {v} in {}",
                        sh.name(i),
                        sh.t.piece_name(p)
                    ),
                    ..placement(sh, b, i, v)
                });
            }
        }
    }
    // Naked single.
    for i in 0..b.values.len() {
        if b.values[i] == 0 && b.masks[i].count_ones() == 1 {
            let v = values_of(b.masks[i]).next().expect("one candidate");
            return Some(Step {
                technique: "naked single".into(),
                rating: 1.5,
                pattern: vec![sh.cv(i, 0)],
                text: format!(
                    "{}={v}: the only candidate left (its piece and the touching cells rule out the rest)",
                    sh.name(i)
                ),
                ..placement(sh, b, i, v)
            });
        }
    }
    None
}

/// Every place of a value in a piece touches a cell outside the piece: that cell is not the value.
fn shared_neighbour(sh: &Shape, b: &Board) -> Option<Step> {
    let mut best: Option<Step> = None;
    for (p, cells) in sh.pieces.iter().enumerate() {
        for v in 1..=cells.len() as u8 {
            let places: Vec<usize> = cells
                .iter()
                .copied()
                .filter(|&i| b.masks[i] & bit(v) != 0)
                .collect();
            if places.len() < 2 || cells.iter().any(|&i| b.values[i] == v) {
                continue;
            }
            let targets: Vec<usize> = sh.peers[places[0]]
                .iter()
                .copied()
                .filter(|&x| {
                    sh.t.regions[x] != p
                        && b.masks[x] & bit(v) != 0
                        && places.iter().all(|&c| sh.touch(x, c))
                })
                .collect();
            if targets.is_empty() {
                continue;
            }
            let rating = match places.len() {
                2 => 2.0,
                3 => 2.4,
                _ => 2.8,
            };
            if best.as_ref().is_some_and(|s| s.rating <= rating) {
                continue;
            }
            best = Some(Step {
                links: Vec::new(),
                technique: "shared neighbour".into(),
                rating,
                pattern: places.iter().map(|&c| sh.cv(c, v)).collect(),
                placements: vec![],
                eliminations: targets.iter().map(|&x| sh.cv(x, v)).collect(),
                text: format!(
                    "the {v} of {} is in {}; {} touch{} {}, so {} not {v}",
                    sh.t.piece_name(p),
                    if places.len() == 2 {
                        sh.names(&places).replace(' ', " or ")
                    } else {
                        format!("one of {}", sh.names(&places))
                    },
                    sh.names(&targets),
                    if targets.len() == 1 { "es" } else { "" },
                    if places.len() == 2 {
                        "both"
                    } else {
                        "all of them"
                    },
                    if targets.len() == 1 {
                        "it is"
                    } else {
                        "they are"
                    }
                ),
            });
            if rating == 2.0 {
                return best;
            }
        }
    }
    best
}

/// k cells that all see each other hold k values between them: every cell that sees all of
/// them loses those values.
fn naked_subset(sh: &Shape, b: &Board, k: usize) -> Option<Step> {
    let n = b.values.len();
    let mut clique: Vec<usize> = Vec::with_capacity(k);
    for a in 0..n {
        let ca = b.masks[a].count_ones() as usize;
        if b.values[a] != 0 || ca < 2 || ca > k {
            continue;
        }
        clique.clear();
        clique.push(a);
        if let Some(s) = extend(sh, b, k, &mut clique, b.masks[a]) {
            return Some(s);
        }
    }
    None
}

fn extend(sh: &Shape, b: &Board, k: usize, clique: &mut Vec<usize>, union: u64) -> Option<Step> {
    if clique.len() == k {
        if union.count_ones() as usize != k {
            return None;
        }
        return naked_step(sh, b, clique, union);
    }
    let last = *clique.last().expect("not empty");
    let first = clique[0];
    for &c in &sh.peers[first] {
        if c <= last || b.values[c] != 0 || b.masks[c].count_ones() < 2 {
            continue;
        }
        let u = union | b.masks[c];
        if u.count_ones() as usize > k || !clique.iter().all(|&m| sh.sees(m, c)) {
            continue;
        }
        clique.push(c);
        let found = extend(sh, b, k, clique, u);
        clique.pop();
        if found.is_some() {
            return found;
        }
    }
    None
}

fn naked_step(sh: &Shape, b: &Board, cells: &[usize], union: u64) -> Option<Step> {
    let mut eliminations = Vec::new();
    for &x in &sh.peers[cells[0]] {
        if b.values[x] != 0 || cells.contains(&x) || !cells.iter().all(|&c| sh.sees(c, x)) {
            continue;
        }
        for v in values_of(b.masks[x] & union) {
            eliminations.push(sh.cv(x, v));
        }
    }
    if eliminations.is_empty() {
        return None;
    }
    let k = cells.len();
    let (name, rating) = match k {
        2 => ("naked pair", 2.5),
        3 => ("naked triple", 3.2),
        _ => ("naked quad", 3.8),
    };
    let same_piece = cells
        .iter()
        .all(|&c| sh.t.regions[c] == sh.t.regions[cells[0]]);
    let why = if same_piece {
        format!(" in {}", sh.piece(cells[0]))
    } else {
        ", which all see each other,".to_string()
    };
    let mut hit: Vec<usize> = eliminations
        .iter()
        .map(|e| e.row * sh.t.width + e.col)
        .collect();
    hit.dedup();
    Some(Step {
        links: Vec::new(),
        technique: name.into(),
        rating,
        pattern: cells
            .iter()
            .flat_map(|&c| values_of(b.masks[c]).map(move |v| (c, v)))
            .map(|(c, v)| sh.cv(c, v))
            .collect(),
        placements: vec![],
        eliminations,
        text: format!(
            "{}{why} hold only {} between them, so {} cannot be {}",
            sh.names(cells),
            list(union),
            sh.names(&hit),
            list(union).replace(',', " or ")
        ),
    })
}

/// k values of a piece have their places in the same k cells: those cells lose every other
/// candidate.
fn hidden_subset(sh: &Shape, b: &Board, k: usize) -> Option<Step> {
    for (p, cells) in sh.pieces.iter().enumerate() {
        let open: Vec<usize> = cells
            .iter()
            .copied()
            .filter(|&i| b.values[i] == 0)
            .collect();
        if open.len() <= k {
            continue;
        }
        // Values still missing in the piece, with the cells that can take them.
        let missing: Vec<(u8, Vec<usize>)> = (1..=cells.len() as u8)
            .filter(|&v| !cells.iter().any(|&i| b.values[i] == v))
            .map(|v| {
                (
                    v,
                    open.iter()
                        .copied()
                        .filter(|&i| b.masks[i] & bit(v) != 0)
                        .collect(),
                )
            })
            .filter(|(_, places): &(u8, Vec<usize>)| places.len() >= 2 && places.len() <= k)
            .collect();
        for combo in combinations(missing.len(), k) {
            let mut place_set: Vec<usize> = combo
                .iter()
                .flat_map(|&m| missing[m].1.iter().copied())
                .collect();
            crate::sort::all(&mut place_set);
            place_set.dedup();
            if place_set.len() != k {
                continue;
            }
            let keep: u64 = combo
                .iter()
                .map(|&m| bit(missing[m].0))
                .fold(0, |a, x| a | x);
            let eliminations: Vec<CellValue> = place_set
                .iter()
                .flat_map(|&c| values_of(b.masks[c] & !keep).map(move |v| (c, v)))
                .map(|(c, v)| sh.cv(c, v))
                .collect();
            if eliminations.is_empty() {
                continue;
            }
            let (name, rating) = if k == 2 {
                ("hidden pair", 3.0)
            } else {
                ("hidden triple", 3.6)
            };
            return Some(Step {
                links: Vec::new(),
                technique: name.into(),
                rating,
                pattern: place_set
                    .iter()
                    .flat_map(|&c| values_of(b.masks[c] & keep).map(move |v| (c, v)))
                    .map(|(c, v)| sh.cv(c, v))
                    .collect(),
                placements: vec![],
                eliminations,
                text: format!(
                    "in {}, {} can only go in {}, so those cells hold nothing else",
                    sh.t.piece_name(p),
                    list(keep).replace(',', " and "),
                    sh.names(&place_set)
                ),
            });
        }
    }
    None
}

/// All k-element subsets of 0..n, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut cur = Vec::with_capacity(k);
    fn rec(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            rec(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    rec(0, n, k, &mut cur, &mut out);
    out
}

/// The longest chain of placements a contradiction step follows.
const CHAIN: usize = 40;

/// Placing `v` in `i` and following singles (naked singles in the cells that lose a
/// candidate, hidden singles in the pieces they are in): the placements made and the
/// contradiction they reach, or `None` when they reach none within [`CHAIN`] placements.
/// Only the cells and pieces a placement touches are looked at, so a trial is cheap.
fn leads_to_contradiction(
    sh: &Shape,
    b: &Board,
    i: usize,
    v: u8,
) -> Option<(Vec<(usize, u8)>, String)> {
    let mut b = b.clone();
    let mut chain: Vec<(usize, u8)> = Vec::new();
    let mut queue = std::collections::VecDeque::from([(i, v)]);
    let mut pieces: Vec<usize> = Vec::new();
    while let Some((c, w)) = queue.pop_front() {
        if b.values[c] == w {
            continue;
        }
        if b.values[c] != 0 {
            let why = format!(
                "{} would have to be both {} and {w}",
                sh.name(c),
                b.values[c]
            );
            return Some((chain, why));
        }
        if chain.len() >= CHAIN {
            return None;
        }
        b.values[c] = w;
        b.masks[c] = 0;
        chain.push((c, w));
        pieces.clear();
        pieces.push(sh.t.regions[c]);
        for &j in &sh.peers[c] {
            if b.masks[j] & bit(w) == 0 {
                continue;
            }
            b.masks[j] &= !bit(w);
            if b.masks[j] == 0 {
                let why = format!("{} would have no candidate left", sh.name(j));
                return Some((chain, why));
            }
            if b.masks[j].count_ones() == 1 {
                queue.push_back((j, values_of(b.masks[j]).next().expect("one")));
            }
            pieces.push(sh.t.regions[j]);
        }
        crate::sort::all(&mut pieces);
        pieces.dedup();
        for &p in &pieces {
            let cells = &sh.pieces[p];
            for u in 1..=cells.len() as u8 {
                if cells.iter().any(|&k| b.values[k] == u) {
                    continue;
                }
                let mut places = cells.iter().filter(|&&k| b.masks[k] & bit(u) != 0);
                match (places.next(), places.next()) {
                    (None, _) => {
                        let why = format!("{} would have no place for {u}", sh.t.piece_name(p));
                        return Some((chain, why));
                    }
                    (Some(&k), None) => queue.push_back((k, u)),
                    _ => {}
                }
            }
        }
    }
    None
}

/// A candidate that, followed by singles only, leads to a contradiction (cells with two
/// candidates first, as the seed's trial step, then three): it is removed. Unlike the seed's
/// trial this never guesses: the step is a proof by contradiction a person can follow.
fn contradiction(sh: &Shape, b: &Board) -> Option<Step> {
    for k in 2..=3 {
        for i in 0..b.values.len() {
            if b.values[i] != 0 || b.masks[i].count_ones() != k {
                continue;
            }
            for v in values_of(b.masks[i]) {
                let Some((chain, why)) = leads_to_contradiction(sh, b, i, v) else {
                    continue;
                };
                let shown: Vec<String> = chain
                    .iter()
                    .skip(1)
                    .take(6)
                    .map(|&(c, w)| format!("{}={w}", sh.name(c)))
                    .collect();
                let more = if chain.len() > 7 { ", ..." } else { "" };
                let follow = if shown.is_empty() {
                    String::new()
                } else {
                    format!(" then singles give {}{more};", shown.join(", "))
                };
                return Some(Step {
                    links: Vec::new(),
                    technique: "contradiction".into(),
                    rating: 4.5,
                    pattern: chain.iter().map(|&(c, w)| sh.cv(c, w)).collect(),
                    placements: vec![],
                    eliminations: vec![sh.cv(i, v)],
                    text: format!(
                        "if {}={v},{follow} {why}; so {} is not {v}",
                        sh.name(i),
                        sh.name(i)
                    ),
                });
            }
        }
    }
    None
}

/// The easiest step available, techniques tried from the easiest; contradiction steps only
/// when `contradictions` is set.
fn next_step(sh: &Shape, b: &Board, contradictions: bool) -> Option<Step> {
    next_step_upto(sh, b, contradictions, f64::INFINITY)
}

/// [`next_step`] trying only the techniques whose easiest step is rated at most `max` (each
/// technique's lowest rating is at least the one before it, so where this finds nothing,
/// [`next_step`] finds nothing or a step rated above `max`).
fn next_step_upto(sh: &Shape, b: &Board, contradictions: bool, max: f64) -> Option<Step> {
    let techniques: [(f64, &dyn Fn() -> Option<Step>); 8] = [
        (1.0, &|| singles(sh, b)),
        (2.0, &|| shared_neighbour(sh, b)),
        (2.5, &|| naked_subset(sh, b, 2)),
        (3.0, &|| hidden_subset(sh, b, 2)),
        (3.2, &|| naked_subset(sh, b, 3)),
        (3.6, &|| hidden_subset(sh, b, 3)),
        (3.8, &|| naked_subset(sh, b, 4)),
        (4.5, &|| {
            contradictions.then(|| contradiction(sh, b)).flatten()
        }),
    ];
    techniques
        .iter()
        .take_while(|(lowest, _)| *lowest <= max)
        .find_map(|(_, step)| step())
}

/// True when the techniques (contradiction steps included, as in [`Explain::explain`]) solve
/// `t` from its givens with no step rated above `max_rating`: then the explanation's path is
/// this one and its grade is at most the level of `max_rating`. Stops at the first harder step.
pub fn solves_within(t: &Tectonic, max_rating: f64) -> bool {
    let sh = Shape::new(t);
    let mut b = Board::new(t);
    while !b.solved() {
        match next_step_upto(&sh, &b, true, max_rating) {
            Some(s) if s.rating <= max_rating => b.apply(&s, t.width),
            _ => return false,
        }
    }
    true
}

/// The highest rating of a level word (extreme: any).
pub fn max_rating(level: &str) -> f64 {
    LEVELS
        .iter()
        .find(|&&(word, _)| word == level)
        .map_or(f64::INFINITY, |&(_, top)| top)
}

fn solver_step(sh: &Shape, b: &Board, solution: &Filling) -> Option<Step> {
    let i = (0..b.values.len())
        .filter(|&i| b.values[i] == 0)
        .min_by_key(|&i| (b.masks[i].count_ones(), i))?;
    let v = solution.0[i];
    Some(Step {
        technique: SOLVER_TECHNIQUE.into(),
        rating: 10.0,
        pattern: vec![sh.cv(i, 0)],
        text: format!(
            "{}={v}: every other candidate of the cell leads to a contradiction (proven by SAT)",
            sh.name(i)
        ),
        ..placement(sh, b, i, v)
    })
}

/// A level word for a rating on the Tectonic scale (singles 1.0-1.5, shared neighbours and
/// naked pairs up to 2.5, hidden pairs and naked triples up to 3.2, larger subsets and
/// contradictions up to 4.5, solver steps 10).
pub fn level(rating: f64) -> &'static str {
    LEVELS
        .iter()
        .find(|&&(_, top)| rating <= top)
        .map_or("extreme", |&(word, _)| word)
}

/// The level words below extreme with the highest rating each allows ([`level`] and
/// [`max_rating`] both read it).
const LEVELS: [(&str, f64); 4] = [
    ("easy", 1.5),
    ("medium", 2.5),
    ("hard", 3.2),
    ("expert", 4.5),
];

/// The grade of a path on the Tectonic scale.
pub fn grade(steps: &[Step]) -> Grade {
    crate::explain::grade_by_hardest(steps, level)
}

/// The pencil marks drawn inside the pieces: placed digits, and every open cell's candidates.
pub fn draw(t: &Tectonic, b: &Board) -> String {
    let labels: Vec<String> = b
        .values
        .iter()
        .zip(&b.masks)
        .map(|(&v, &m)| {
            if v != 0 {
                v.to_string()
            } else if m < 1 << 9 {
                list(m).replace(',', "")
            } else {
                list(m)
            }
        })
        .collect();
    let bold: Vec<bool> = b.values.iter().map(|&v| v != 0).collect();
    render::draw(t, &labels, &bold, Style::default())
}

/// The path from the givens, with or without contradiction steps (without them, only the
/// seed's strategies 1-8 and their generalisations are used).
pub fn explain_with(
    t: &Tectonic,
    solution: &Filling,
    opts: ExplainOptions,
    contradictions: bool,
) -> Explanation {
    let sh = Shape::new(t);
    let mut b = Board::new(t);
    let mut steps = Vec::new();
    while !b.solved() {
        let step = match next_step(&sh, &b, contradictions) {
            Some(s) => s,
            None if opts.fallback => match solver_step(&sh, &b, solution) {
                Some(s) => s,
                None => break,
            },
            None => break,
        };
        b.apply(&step, t.width);
        steps.push(step);
    }
    let solved = b.solved();
    Explanation {
        grade: grade(&steps),
        stuck: (!solved).then(|| draw(t, &b)),
        steps,
        solved,
    }
}

impl Explain for Tectonic {
    fn step_pictures(&self, steps: &[Step], _look: Look) -> Option<Vec<Picture>> {
        Some(render::step_pictures(self, steps))
    }

    fn explain(&self, solution: &Filling, opts: ExplainOptions) -> Explanation {
        explain_with(self, solution, opts, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::verify_steps;
    use crate::puzzle::{self, Puzzle, Solutions};
    use crate::solver::SolverChoice;
    use crate::tectonic::format::grid;

    fn explain(text: &str, fallback: bool) -> (Tectonic, Filling, Explanation) {
        let t = grid::parse("t", text).unwrap().remove(0);
        let Solutions::Unique(s) = puzzle::verdict(&t, &SolverChoice::Embedded).unwrap() else {
            panic!("unique")
        };
        let e = t.explain(
            &s,
            ExplainOptions {
                fallback,
                unique: true,
            },
        );
        verify_steps(&t.rows(&s), &e.steps).unwrap();
        (t, s, e)
    }

    #[test]
    fn solves_the_seeds_example_with_singles() {
        let (_, _, e) = explain(
            "...\n.3.\n..2\n...\n..1\n\n112\n312\n311\n334\n544\n",
            false,
        );
        assert!(e.solved);
        assert_eq!(e.grade.level, "easy");
        // The 1-cell piece is full at once.
        assert_eq!(e.steps[0].technique, "full piece");
        assert_eq!(e.steps[0].text, "r5c1=1 is the last open cell of piece 5");
    }

    #[test]
    fn shared_neighbour_removes_a_value_touching_every_place() {
        // Piece a (two cells r1c1 r1c2) must hold 2 in one of them; r2c1 and r2c2 touch both.
        let sh_t = grid::parse("t", "...\n...\n\naab\nccb\n")
            .unwrap()
            .remove(0);
        let sh = Shape::new(&sh_t);
        let b = Board::new(&sh_t);
        let s = shared_neighbour(&sh, &b).unwrap();
        assert_eq!(s.technique, "shared neighbour");
        let hit: Vec<(usize, usize, i64)> = s
            .eliminations
            .iter()
            .map(|e| (e.row, e.col, e.value))
            .collect();
        assert_eq!(hit, vec![(1, 0, 1), (1, 1, 1)]);
    }

    #[test]
    fn naked_pair_of_touching_cells() {
        // The seed's strategy 4: r1c1 and r2c2 touch diagonally and both hold {1,2}, so r1c2
        // and r2c1, which touch both, lose 1 and 2.
        let t = grid::parse("t", "..\n..\n\nab\ncd\n").unwrap().remove(0);
        let sh = Shape::new(&t);
        let mut b = Board::new(&t);
        b.masks = vec![0b011, 0b111, 0b111, 0b011];
        let s = naked_subset(&sh, &b, 2).unwrap();
        assert_eq!(s.technique, "naked pair");
        assert_eq!(
            s.text,
            "r1c1 r2c2, which all see each other, hold only 1,2 between them, so r1c2 r2c1 cannot be 1 or 2"
        );
        assert_eq!(s.eliminations.len(), 4);
    }

    /// `gridsat generate tectonic --size 7 --seed 107`: unique, and beyond the techniques.
    const HARD: &str = "3....53\n..3....\n......2\n.......\n4..2...\n3......\n......3\n\naabcddd\nabbccdd\nabbceff\naggceff\nhggeeif\nhhjjeii\nhhjjjii\n";

    #[test]
    fn stuck_without_fallback_and_solved_with_it() {
        let (_, _, e) = explain(HARD, false);
        assert!(!e.solved);
        let stuck = e.stuck.unwrap();
        assert!(stuck.contains("12345"), "{stuck}");
        assert!(e.steps.iter().any(|s| s.technique == "contradiction"));
        let (_, s, e) = explain(HARD, true);
        assert!(e.solved);
        assert_eq!(e.grade.level, "extreme");
        let solver: Vec<&Step> = e.steps.iter().filter(|s| s.by_solver()).collect();
        assert!(!solver.is_empty());
        // A solver step places the solution's value (verify_steps ran in `explain`).
        let p = &solver[0].placements[0];
        assert_eq!(s.0[p.row * 7 + p.col] as i64, p.value);
    }

    #[test]
    fn contradiction_follows_singles_to_a_dead_end() {
        let (_, _, e) = explain(HARD, false);
        let c = e
            .steps
            .iter()
            .find(|s| s.technique == "contradiction")
            .unwrap();
        assert_eq!(
            c.text,
            "if r5c6=5, then singles give r3c5=5; piece f would have no place for 5; so r5c6 is not 5"
        );
        assert_eq!(c.eliminations.len(), 1);
    }

    #[test]
    fn solving_within_a_level_follows_the_explanation() {
        for (level, max) in [
            ("easy", 1.5),
            ("medium", 2.5),
            ("hard", 3.2),
            ("expert", 4.5),
        ] {
            assert_eq!(max_rating(level), max);
            assert_eq!(super::level(max), level);
            assert_ne!(super::level(max + 0.01), level);
        }
        assert!(max_rating("extreme").is_infinite());
        // The seed's example needs singles only; HARD is beyond every technique.
        let (t, _, e) = explain(
            "...\n.3.\n..2\n...\n..1\n\n112\n312\n311\n334\n544\n",
            false,
        );
        assert_eq!(e.grade.level, "easy");
        assert!(solves_within(&t, 1.5));
        let (t, _, e) = explain(HARD, false);
        assert!(!e.solved);
        assert!(!solves_within(&t, 4.5));
        // A path whose hardest step is a contradiction (4.5): within expert, not within hard.
        let first =
            "\n.4...2\n......\n.....2\n1..14.\n..5..1\n\n111122\n133222\n433355\n444655\n466665\n";
        let (t, _, e) = explain(first, false);
        assert_eq!((e.solved, e.grade.rating), (true, 4.5));
        assert!(solves_within(&t, 4.5));
        assert!(!solves_within(&t, 3.2));
    }

    #[test]
    fn combinations_are_complete() {
        assert_eq!(combinations(4, 2).len(), 6);
        assert_eq!(combinations(5, 3)[0], vec![0, 1, 2]);
        assert!(combinations(2, 3).is_empty());
    }
}
