//! Dynamic and nested forcing chains, as Sudoku Explainer grades the hardest puzzles: an
//! assumption (a candidate true) is played out on a copy of the grid, each consequence
//! feeding the next, until the grid breaks; the candidate is then false. What a play-out may
//! use grows with its level:
//!
//! - level 0 (dynamic forcing chain, 8.5 and up): naked and hidden singles;
//! - level 1 (dynamic forcing chain +, 9.0 and up): also locked candidates and naked and
//!   hidden pairs;
//! - level 2, 3 and 4 (nested forcing chains, 10.0, 10.5 and 10.5 and up): also locked
//!   candidates and pairs, and every candidate whose play-out at level 0, 1 and 3 breaks the
//!   grid (a chain inside the chain), as SE's levels add half a point each.
//!
//! Every consequence records its cause (the rule and, through the grid it started from, the
//! candidates the rule needed), so a contradiction is rated as SE rates it: its level's base
//! plus SE's length bonus on the consequences it actually needed, counted back from both
//! sides of the contradiction, plus, once each, the length of every chain inside the chain
//! that it needed. Consequences drawn but not needed neither count nor show in the text. The
//! search has a work budget (rule passes), not a clock: the library has none. Grids up to
//! 9x9 only.

use super::grid::{bit, bits, digits, Board, Found};
use super::rating::{base, length_bonus};

/// Why a consequence holds.
#[derive(Clone, Debug)]
pub enum Why {
    Assumed,
    NakedSingle,
    HiddenSingle(usize),
    /// The value's places in the first unit all lie in the second.
    Locked(usize, usize),
    /// The unit, the pair's values and its two cells.
    NakedPair(usize, u64, [usize; 2]),
    /// The unit, the pair's values and their two places.
    HiddenPair(usize, u64, [usize; 2]),
    /// The candidate, assumed true, breaks the grid one level down: that chain's length, and
    /// the candidates it needed gone (as `cell * n + value - 1`) that were there when the
    /// play-out this fact belongs to started.
    Nested(usize, Vec<u32>),
}

/// No fact: a candidate gone (or a value placed) before the play-out started.
const NONE: u32 = u32::MAX;

/// A candidate state a consequence can rest on: a cell's value placed, or a candidate gone.
#[derive(Clone, Copy)]
enum Pot {
    On(usize),
    Off(usize, u8),
}

/// How a play-out broke: the text, and the two sides of the contradiction (a candidate that
/// would be both true and false): the causes of the candidate true (`on`; the candidate
/// itself counts one), and of it false (`off`, plus `off_extra` states not among the facts).
struct Broke {
    text: String,
    on: Vec<Pot>,
    off: Vec<Pot>,
    off_extra: usize,
}

impl Broke {
    fn new(text: String, on: Vec<Pot>, off: Vec<Pot>, off_extra: usize) -> Broke {
        Broke {
            text,
            on,
            off,
            off_extra,
        }
    }
}

/// One consequence: a candidate true (placed) or false (removed).
#[derive(Clone, Debug)]
pub struct Fact {
    pub cell: usize,
    pub digit: u8,
    pub on: bool,
    pub why: Why,
}

/// What a play-out ended with.
pub struct Outcome {
    /// The facts the contradiction needed, in the order they were drawn (the assumption
    /// first); every fact drawn when the grid did not break.
    pub facts: Vec<Fact>,
    /// How the grid broke, if it did.
    pub broke: Option<String>,
    /// The contradiction's length as SE counts it: the states each side of it needed (the
    /// assumption counted on both), plus the length of each nested chain needed; 0 when the
    /// grid did not break.
    pub weight: usize,
    /// The candidates the contradiction needed gone that were already gone on the grid the
    /// play-out started from (as `cell * n + value - 1`).
    relied: Vec<u32>,
    /// How the needed facts follow from each other: (cause, consequence, whether the
    /// consequence is a placement), as (cell, value) pairs.
    pub links: Vec<(Cand, Cand, bool)>,
}

/// A candidate: (cell, value).
pub type Cand = (usize, u8);

/// A grid being played out, with the values present in each unit and, for every value
/// placed and candidate gone, the fact that did it.
struct Play {
    b: Board,
    /// The candidates on the grid the enclosing play-out started from (this one's own, for
    /// the outermost): causes are read against it, so a candidate gone since then is a state
    /// this play-out relied on, which the enclosing play-out accounts for (as SE's rule
    /// parents of a nested chain).
    base: Vec<u64>,
    /// The candidates when this play-out started: the inner play-outs' base.
    origin: Vec<u64>,
    present: Vec<u64>,
    facts: Vec<Fact>,
    /// Per cell: the fact that placed its value.
    on_fact: Vec<u32>,
    /// Per candidate (`cell * n + value - 1`): the fact that removed it (a placement in the
    /// cell or a peer, or a removal).
    off_fact: Vec<u32>,
}

/// The shared work budget (consequences drawn); a search stops when it runs out.
pub struct Budget(pub usize);

impl Budget {
    fn spend(&mut self, k: usize) -> bool {
        if self.0 < k {
            self.0 = 0;
            false
        } else {
            self.0 -= k;
            true
        }
    }
}

impl Play {
    fn new(b: &Board, base: &[u64]) -> Play {
        let g = &b.geo;
        let present = (0..3 * g.n)
            .map(|u| {
                g.units[u]
                    .iter()
                    .filter(|&&c| b.values[c] != 0)
                    .fold(0u64, |m, &c| m | bit(b.values[c]))
            })
            .collect();
        let n = b.n();
        Play {
            b: b.clone(),
            base: base.to_vec(),
            origin: b.masks.clone(),
            present,
            facts: Vec::new(),
            on_fact: vec![NONE; n * n],
            off_fact: vec![NONE; n * n * n],
        }
    }

    fn cand(&self, i: usize, d: u8) -> usize {
        i * self.b.n() + d as usize - 1
    }

    /// The states a placement of `d` in `i` for `why` rests on.
    fn on_causes(&self, i: usize, d: u8, why: &Why, out: &mut Vec<Pot>) {
        let g = &self.b.geo;
        match why {
            Why::NakedSingle => out.extend(digits(self.base[i] & !bit(d)).map(|e| Pot::Off(i, e))),
            Why::HiddenSingle(u) => out.extend(
                g.units[*u]
                    .iter()
                    .filter(|&&j| j != i && self.base[j] & bit(d) != 0)
                    .map(|&j| Pot::Off(j, d)),
            ),
            _ => {}
        }
    }

    /// Places `d` in `i`; an error when the cell no longer has it.
    fn place(&mut self, i: usize, d: u8, why: Why) -> Result<(), Broke> {
        let g = std::sync::Arc::clone(&self.b.geo);
        let clash = |p: &Play, text: String, off: Vec<Pot>, extra: usize| {
            let mut on = Vec::new();
            p.on_causes(i, d, &why, &mut on);
            Err(Broke::new(text, on, off, extra))
        };
        if self.b.values[i] != 0 {
            return if self.b.values[i] == d {
                Ok(())
            } else {
                let text = format!(
                    "{} would need both {} and {d}",
                    g.cell_name(i),
                    self.b.values[i]
                );
                clash(self, text, vec![Pot::On(i)], 1)
            };
        }
        if !self.b.has(i, d) {
            let text = format!("{} cannot take {d}", g.cell_name(i));
            return clash(self, text, vec![Pot::Off(i, d)], 0);
        }
        for k in 0..3 {
            let u = g.cell_units[i][k];
            if self.present[u] & bit(d) != 0 {
                let text = format!("{d} twice in {}", g.unit_name(u));
                let other = g.units[u].iter().find(|&&j| self.b.values[j] == d);
                let off = other.map(|&j| Pot::On(j)).into_iter().collect();
                return clash(self, text, off, 1);
            }
        }
        let k = self.facts.len() as u32;
        for e in digits(self.b.masks[i] & !bit(d)) {
            let x = self.cand(i, e);
            self.off_fact[x] = k;
        }
        for &j in &g.peers[i] {
            if self.b.has(j, d) {
                let x = self.cand(j, d);
                self.off_fact[x] = k;
            }
        }
        self.on_fact[i] = k;
        self.b.place(i, d);
        for u in g.cell_units[i] {
            self.present[u] |= bit(d);
        }
        self.facts.push(Fact {
            cell: i,
            digit: d,
            on: true,
            why,
        });
        Ok(())
    }

    fn remove(&mut self, i: usize, d: u8, why: Why) {
        if self.b.has(i, d) {
            self.b.eliminate(i, d);
            let x = self.cand(i, d);
            self.off_fact[x] = self.facts.len() as u32;
            self.facts.push(Fact {
                cell: i,
                digit: d,
                on: false,
                why,
            });
        }
    }

    /// A contradiction from candidates all gone (a cell's, or a value's places in a unit):
    /// the last one to go would be true (the others gone) and false.
    fn all_gone(&self, text: String, mut gone: Vec<Pot>) -> Broke {
        let when = |p: &Pot| match *p {
            Pot::Off(c, e) => self.off_fact[self.cand(c, e)].wrapping_add(1),
            Pot::On(_) => 0,
        };
        let last = (0..gone.len()).max_by_key(|&k| when(&gone[k]));
        let off = last.map(|k| vec![gone.swap_remove(k)]).unwrap_or_default();
        Broke::new(text, gone, off, 0)
    }

    /// The states fact `k` rests on directly.
    fn fact_causes(&self, k: usize, out: &mut Vec<Pot>) {
        let g = &self.b.geo;
        let n = g.n;
        let f = &self.facts[k];
        if f.on {
            return self.on_causes(f.cell, f.digit, &f.why, out);
        }
        let e = f.digit;
        match &f.why {
            Why::Locked(from, to) => {
                let to_kind = to / n;
                out.extend(
                    g.units[*from]
                        .iter()
                        .filter(|&&j| g.cell_units[j][to_kind] != *to && self.base[j] & bit(e) != 0)
                        .map(|&j| Pot::Off(j, e)),
                );
            }
            Why::NakedPair(_, m, pair) => {
                for &j in pair {
                    out.extend(digits(self.base[j] & !m).map(|x| Pot::Off(j, x)));
                }
            }
            Why::HiddenPair(u, m, places) => {
                for &j in &g.units[*u] {
                    if !places.contains(&j) {
                        out.extend(digits(self.base[j] & m).map(|x| Pot::Off(j, x)));
                    }
                }
            }
            Why::Nested(_, relied) => out.extend(
                relied
                    .iter()
                    .map(|&y| Pot::Off(y as usize / n, (y as usize % n) as u8 + 1)),
            ),
            _ => {}
        }
    }

    /// The fact that set a state (NONE when the play-out started with it).
    fn fact_of(&self, p: Pot) -> u32 {
        match p {
            Pot::On(c) => self.on_fact[c],
            Pot::Off(c, e) => self.off_fact[self.cand(c, e)],
        }
    }

    /// Walks back from `roots` through the facts' causes, marking each state once in `seen`
    /// (`on` states by cell, then `off` states by candidate) and each fact needed in `needed`;
    /// returns how many states were facts. Candidates gone before the play-out go to
    /// `relied`; nested chains add their length to `nested` the first time they are met.
    fn ancestry(&self, roots: &[Pot], seen: &mut [bool], walk: &mut Walk) -> usize {
        let g = &self.b.geo;
        let n = g.n;
        let cells = n * n;
        let mut stack: Vec<Pot> = roots.to_vec();
        let mut count = 0;
        while let Some(p) = stack.pop() {
            let k = match p {
                Pot::On(c) => {
                    if std::mem::replace(&mut seen[c], true) {
                        continue;
                    }
                    self.on_fact[c]
                }
                Pot::Off(c, e) => {
                    let x = self.cand(c, e);
                    if std::mem::replace(&mut seen[cells + x], true) {
                        continue;
                    }
                    if self.off_fact[x] == NONE {
                        walk.relied.push(x as u32);
                    }
                    self.off_fact[x]
                }
            };
            if k == NONE {
                continue;
            }
            count += 1;
            walk.needed[k as usize] = true;
            let f = &self.facts[k as usize];
            match (p, f.on) {
                (Pot::Off(..), true) => stack.push(Pot::On(f.cell)),
                (Pot::Off(..), false) => {
                    if let Why::Nested(w, _) = &f.why {
                        if !std::mem::replace(&mut walk.nested_seen[k as usize], true) {
                            walk.nested += w;
                        }
                    }
                    self.fact_causes(k as usize, &mut stack);
                }
                (Pot::On(_), _) => self.fact_causes(k as usize, &mut stack),
            }
        }
        count
    }

    /// What a contradiction needed: its length as SE counts it, the facts it needed (in
    /// order), and the candidates it relied on being gone from the start.
    fn needed(self, broke: Broke) -> Outcome {
        let n = self.b.n();
        let states = n * n + n * n * n;
        let mut walk = Walk {
            needed: vec![false; self.facts.len()],
            nested_seen: vec![false; self.facts.len()],
            nested: 0,
            relied: Vec::new(),
        };
        let mut seen = vec![false; states];
        let on = 1 + self.ancestry(&broke.on, &mut seen, &mut walk);
        seen.iter_mut().for_each(|x| *x = false);
        let off = broke.off_extra + self.ancestry(&broke.off, &mut seen, &mut walk);
        crate::sort::all(&mut walk.relied);
        walk.relied.dedup();
        // Each needed fact linked from the needed facts it rests on.
        let mut links = Vec::new();
        let mut causes = Vec::new();
        for k in (1..self.facts.len()).filter(|&k| walk.needed[k]) {
            causes.clear();
            self.fact_causes(k, &mut causes);
            let mut from: Vec<u32> = causes.iter().map(|&p| self.fact_of(p)).collect();
            crate::sort::all(&mut from);
            from.dedup();
            let to = &self.facts[k];
            for j in from {
                if j != NONE && walk.needed[j as usize] {
                    let f = &self.facts[j as usize];
                    links.push(((f.cell, f.digit), (to.cell, to.digit), to.on));
                }
            }
        }
        let facts = self
            .facts
            .into_iter()
            .zip(&walk.needed)
            .enumerate()
            .filter(|(k, (_, &need))| need || *k == 0)
            .map(|(_, (f, _))| f)
            .collect();
        Outcome {
            facts,
            broke: Some(broke.text),
            weight: on + off + walk.nested,
            relied: walk.relied,
            links,
        }
    }

    /// Singles until none is left; an error when the grid breaks.
    fn singles(&mut self) -> Result<bool, Broke> {
        let n = self.b.n();
        let mut any = false;
        loop {
            let mut changed = false;
            for i in 0..n * n {
                if self.b.values[i] != 0 {
                    continue;
                }
                match self.b.masks[i].count_ones() {
                    0 => return Err(self.cell_empty(i)),
                    1 => {
                        let d = self.b.masks[i].trailing_zeros() as u8 + 1;
                        self.place(i, d, Why::NakedSingle)?;
                        changed = true;
                    }
                    _ => {}
                }
            }
            for u in 0..3 * n {
                for d in 1..=n as u8 {
                    if self.present[u] & bit(d) != 0 {
                        continue;
                    }
                    let p = self.b.places(u, d);
                    match p.count_ones() {
                        0 => {
                            let text =
                                format!("{d} has no place left in {}", self.b.geo.unit_name(u));
                            let gone = self.b.geo.units[u]
                                .iter()
                                .filter(|&&j| self.base[j] & bit(d) != 0)
                                .map(|&j| Pot::Off(j, d))
                                .collect();
                            return Err(self.all_gone(text, gone));
                        }
                        1 => {
                            let i = self.b.geo.cell_at(u, p.trailing_zeros() as usize);
                            self.place(i, d, Why::HiddenSingle(u))?;
                            changed = true;
                        }
                        _ => {}
                    }
                }
            }
            if !changed {
                return Ok(any);
            }
            any = true;
        }
    }

    /// Locked candidates and naked and hidden pairs, one pass; true when something went.
    fn basics(&mut self) -> bool {
        let g = std::sync::Arc::clone(&self.b.geo);
        let n = g.n;
        let before = self.facts.len();
        // Locked candidates: a value's places in one unit inside another unit.
        for from in 0..3 * n {
            let from_kind = from / n;
            for d in 1..=n as u8 {
                let p = self.b.places(from, d);
                if p.count_ones() < 2 {
                    continue;
                }
                let first = g.cell_at(from, p.trailing_zeros() as usize);
                for k in 0..3 {
                    let to = g.cell_units[first][k];
                    if to == from
                        || (from < 2 * n) == (to < 2 * n)
                        || bits(p).any(|x| g.cell_units[g.cell_at(from, x)][k] != to)
                    {
                        continue;
                    }
                    for x in bits(self.b.places(to, d)) {
                        let j = g.cell_at(to, x);
                        if g.cell_units[j][from_kind] != from {
                            self.remove(j, d, Why::Locked(from, to));
                        }
                    }
                }
            }
        }
        // Naked pairs and hidden pairs.
        for u in 0..3 * n {
            let unit = &g.units[u];
            for (x, &i) in unit.iter().enumerate() {
                let m = self.b.masks[i];
                if self.b.values[i] != 0 || m.count_ones() != 2 {
                    continue;
                }
                for &j in &unit[x + 1..] {
                    if self.b.values[j] != 0 || self.b.masks[j] != m {
                        continue;
                    }
                    for &k in unit {
                        if k != i && k != j && self.b.values[k] == 0 {
                            for d in digits(self.b.masks[k] & m) {
                                self.remove(k, d, Why::NakedPair(u, m, [i, j]));
                            }
                        }
                    }
                }
            }
            for d in 1..=n as u8 {
                let p = self.b.places(u, d);
                if p.count_ones() != 2 || self.present[u] & bit(d) != 0 {
                    continue;
                }
                for e in d + 1..=n as u8 {
                    if self.b.places(u, e) != p || self.present[u] & bit(e) != 0 {
                        continue;
                    }
                    let pair = bit(d) | bit(e);
                    let places: Vec<usize> = bits(p).map(|x| g.cell_at(u, x)).collect();
                    for &i in &places {
                        for y in digits(self.b.masks[i] & !pair) {
                            self.remove(i, y, Why::HiddenPair(u, pair, [places[0], places[1]]));
                        }
                    }
                }
            }
        }
        self.facts.len() > before
    }

    /// Every rule of `level` until none applies; an error when the grid breaks.
    fn settle(&mut self, level: usize, budget: &mut Budget) -> Result<(), Broke> {
        loop {
            self.singles()?;
            if !budget.spend(1) {
                return Ok(());
            }
            if level >= 1 && self.basics() {
                continue;
            }
            if level >= 2 && self.nested(inner(level), budget)? {
                continue;
            }
            return Ok(());
        }
    }

    /// Removes every candidate that breaks the grid `level` down; true when one went.
    fn nested(&mut self, level: usize, budget: &mut Budget) -> Result<bool, Broke> {
        let mut any = false;
        let n = self.b.n();
        let mut cells: Vec<usize> = (0..n * n).filter(|&i| self.b.values[i] == 0).collect();
        crate::sort::by_key(&mut cells, |&i| self.b.masks[i].count_ones());
        for i in cells {
            if self.b.values[i] != 0 {
                continue;
            }
            for d in digits(self.b.masks[i]) {
                if budget.0 == 0 {
                    return Ok(any);
                }
                let out = play_out_in(&self.b, &self.origin, i, d, level, budget);
                if out.broke.is_some() {
                    self.remove(i, d, Why::Nested(out.weight, out.relied));
                    any = true;
                    if self.b.masks[i] == 0 {
                        return Err(self.cell_empty(i));
                    }
                }
            }
            if any {
                // Let the cheaper rules use it first.
                return Ok(true);
            }
        }
        Ok(any)
    }
}

/// What [`Play::ancestry`] gathers besides the count.
struct Walk {
    needed: Vec<bool>,
    nested_seen: Vec<bool>,
    nested: usize,
    relied: Vec<u32>,
}

impl Play {
    fn cell_empty(&self, i: usize) -> Broke {
        let text = format!("{} has no candidate left", self.b.geo.cell_name(i));
        let gone = digits(self.base[i]).map(|e| Pot::Off(i, e)).collect();
        self.all_gone(text, gone)
    }
}

/// Plays out `i = d` at `level`.
pub fn play_out(b: &Board, i: usize, d: u8, level: usize, budget: &mut Budget) -> Outcome {
    play_out_in(b, &b.masks, i, d, level, budget)
}

/// [`play_out`] inside a play-out that started from the candidates `base`.
fn play_out_in(
    b: &Board,
    base: &[u64],
    i: usize,
    d: u8,
    level: usize,
    budget: &mut Budget,
) -> Outcome {
    let mut p = Play::new(b, base);
    let broke = match p.place(i, d, Why::Assumed) {
        Err(e) => Some(e),
        Ok(()) => p.settle(level, budget).err(),
    };
    match broke {
        Some(broke) => p.needed(broke),
        None => Outcome {
            facts: p.facts,
            broke: None,
            weight: 0,
            relied: Vec::new(),
            links: Vec::new(),
        },
    }
}

/// The base rating of a level: dynamic 8.5, dynamic + 9.0 (SE's), nested 10.0, 10.5 and
/// 10.5 (with the length bonus on top, the famous hardest grade 11.0-11.8 where SE has
/// 10.5-11.9, in nearly SE's order, and the forum's hardest, all SE 11 and up, 10.8-11.3,
/// most 11.0-11.2).
pub fn level_base(level: usize) -> f64 {
    match level {
        0 => base::DYNAMIC_CHAIN,
        1 => base::DYNAMIC_PLUS,
        2 => base::NESTED,
        3 => base::NESTED_PLUS,
        _ => base::NESTED_3,
    }
}

/// The level of the chains inside a nested chain at `level` (2 and up).
fn inner(level: usize) -> usize {
    match level {
        2 => 0,
        3 => 1,
        _ => 3,
    }
}

/// The technique name of a level.
pub fn level_name(level: usize) -> &'static str {
    match level {
        0 => "dynamic forcing chain",
        1 => "dynamic forcing chain (+)",
        2 => "nested forcing chain",
        3 => "nested forcing chain (+)",
        _ => "nested forcing chain (level 3)",
    }
}

/// One fact for a person: `r4c5=6 (hidden single in box 5)`.
pub fn fact_text(b: &Board, f: &Fact) -> String {
    let g = &b.geo;
    let what = if f.on {
        format!("{}={}", g.cell_name(f.cell), f.digit)
    } else {
        format!("{}<>{}", g.cell_name(f.cell), f.digit)
    };
    let why = match &f.why {
        Why::Assumed => "assumed".to_string(),
        Why::NakedSingle => "naked single".to_string(),
        Why::HiddenSingle(u) => format!("hidden single in {}", g.unit_name(*u)),
        Why::Locked(from, to) => format!(
            "locked: {}'s places in {} lie in {}",
            f.digit,
            g.unit_name(*from),
            g.unit_name(*to)
        ),
        Why::NakedPair(u, m, _) => format!(
            "naked pair {} in {}",
            super::grid::digit_list(*m, "/"),
            g.unit_name(*u)
        ),
        Why::HiddenPair(u, m, _) => format!(
            "hidden pair {} in {}",
            super::grid::digit_list(*m, "/"),
            g.unit_name(*u)
        ),
        Why::Nested(w, _) => format!(
            "{}={} would break the grid (a chain of {w})",
            g.cell_name(f.cell),
            f.digit
        ),
    };
    format!("{what} ({why})")
}

/// The work one search at `level` may do.
pub fn budget_for(level: usize) -> usize {
    match level {
        0 | 1 => 2_000_000,
        2 | 3 => 3_000_000,
        _ => 6_000_000,
    }
}

/// How many contradictions a nested search at level 3 and up compares before it takes the
/// lightest: each try is costly, and the first few found, cells with few candidates first,
/// are near the lightest of all. Level 2 compares every candidate, as SE does (its
/// play-outs are cheap enough).
const NESTED_TRIES: usize = 6;

/// Candidates a nested search found breaking the grid but did not use, with their level:
/// they still break it later on the path (play-outs only grow as candidates go), so the next
/// search at that level plays them out first instead of searching the whole grid again.
#[derive(Default)]
pub struct Leads(Vec<(usize, usize, u8)>);

/// Contradiction forcing chains at `level`: a candidate whose play-out breaks the grid is
/// removed, the lightest found (every candidate up to level 2; the first [`NESTED_TRIES`]
/// found above).
pub fn contradiction(b: &Board, f: &mut Found, level: usize) {
    contradiction_with(b, f, level, &mut Leads::default());
}

/// [`contradiction`], trying `leads` of the level first (from level 2 on): the lightest of
/// those still breaking the grid is taken without a search; a search leaves what else it
/// found in `leads`.
pub fn contradiction_with(b: &Board, f: &mut Found, level: usize, leads: &mut Leads) {
    // Larger grids keep the simpler chains: these play-outs grow too costly there (their
    // last resort stays the solver's step).
    if b.n() > 9 {
        return;
    }
    let mut budget = Budget(budget_for(level));
    let mut best: Option<(usize, usize, u8, Outcome)> = None;
    if level >= 2 && !f.all {
        leads.0.retain(|&(l, i, d)| l != level || b.has(i, d));
        for &(_, i, d) in leads.0.iter().filter(|x| x.0 == level) {
            let out = play_out(b, i, d, level, &mut budget);
            if out.broke.is_some() && best.as_ref().is_none_or(|(w, ..)| out.weight < *w) {
                best = Some((out.weight, i, d, out));
            }
        }
        if let Some((_, i, d, out)) = best {
            leads.0.retain(|&x| x != (level, i, d));
            push(b, f, level, i, d, out);
            return;
        }
        budget = Budget(budget_for(level));
    }
    let mut cells: Vec<usize> = b.open().collect();
    crate::sort::by_key(&mut cells, |&i| (b.masks[i].count_ones(), i));
    let mut broken = Vec::new();
    'cells: for &i in &cells {
        for d in digits(b.masks[i]) {
            if budget.0 == 0 {
                break 'cells;
            }
            let out = play_out(b, i, d, level, &mut budget);
            if out.broke.is_none() {
                continue;
            }
            broken.push((level, i, d));
            if best.as_ref().is_none_or(|(w, ..)| out.weight < *w) {
                best = Some((out.weight, i, d, out));
            }
            if f.all {
                push(b, f, level, i, d, best.take().unwrap().3);
                continue;
            }
            if level >= 3 && broken.len() >= NESTED_TRIES {
                break 'cells;
            }
        }
    }
    if let Some((_, i, d, out)) = best {
        if level >= 2 {
            broken.retain(|&x| x != (level, i, d));
            leads.0.extend(broken);
        }
        push(b, f, level, i, d, out);
    }
}

fn push(b: &Board, f: &mut Found, level: usize, i: usize, d: u8, out: Outcome) -> bool {
    let g = &b.geo;
    let name = level_name(level);
    let rating = level_base(level) + length_bonus(out.weight.saturating_sub(2));
    let mut lines = vec![format!("{name}: {}={d}", g.cell_name(i))];
    for fact in out.facts.iter().skip(1) {
        lines.push(format!("=> {}", fact_text(b, fact)));
    }
    let last = lines.len() - 1;
    lines[last].push_str(&format!(
        ", then {}: a contradiction, so {}",
        out.broke.as_deref().unwrap_or("?"),
        b.elim_text(&[(i, d)])
    ));
    let text = lines.join(super::forcing::CONTINUED);
    let mut pattern = vec![b.cv(i, d)];
    pattern.extend(
        out.facts
            .iter()
            .skip(1)
            .filter(|x| x.on)
            .map(|x| b.cv(x.cell, x.digit)),
    );
    let mut step = b.step(name, rating, pattern, &[], &[(i, d)], text);
    // Each needed consequence linked from what it rests on: a placement by a strong link, a
    // removal by a weak one.
    step.links = out
        .links
        .iter()
        .map(|&((c, d), (c2, d2), strong)| crate::explain::Link {
            from: b.cv(c, d),
            to: b.cv(c2, d2),
            strong,
        })
        .collect();
    f.push(step)
}
