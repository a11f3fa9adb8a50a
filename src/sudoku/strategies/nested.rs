//! Dynamic and nested forcing chains, as Sudoku Explainer grades the hardest puzzles: an
//! assumption (a candidate true) is played out on a copy of the grid, each consequence
//! feeding the next, until the grid breaks; the candidate is then false. What a play-out may
//! use grows with its level:
//!
//! - level 0 (dynamic forcing chain, 8.5 and up): naked and hidden singles;
//! - level 1 (dynamic forcing chain +, 9.0 and up): also locked candidates and naked and
//!   hidden pairs;
//! - level 2 and 3 (nested forcing chains, 10.0 and 10.5 and up): also every candidate that a
//!   play-out one level down breaks on (a chain inside the chain).
//!
//! A step's rating is its level's base plus SE's length bonus on every consequence it needed,
//! nested ones included, so the hardest puzzles spread past 11 as in SE. The search has a
//! work budget (consequences drawn), not a clock: the library has none. Grids up to 9x9 only.

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
    NakedPair(usize, u64),
    HiddenPair(usize, u64),
    /// The candidate, assumed true, breaks the grid one level down (weight: how many
    /// consequences that took).
    Nested(usize),
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
    pub facts: Vec<Fact>,
    /// How the grid broke, if it did.
    pub broke: Option<String>,
    /// Every consequence drawn, nested ones included.
    pub weight: usize,
}

/// A grid being played out, with the values present in each unit.
struct Play {
    b: Board,
    present: Vec<u64>,
    facts: Vec<Fact>,
    weight: usize,
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
    fn new(b: &Board) -> Play {
        let g = &b.geo;
        let present = (0..3 * g.n)
            .map(|u| {
                g.units[u]
                    .iter()
                    .filter(|&&c| b.values[c] != 0)
                    .fold(0u64, |m, &c| m | bit(b.values[c]))
            })
            .collect();
        Play {
            b: b.clone(),
            present,
            facts: Vec::new(),
            weight: 0,
        }
    }

    /// Places `d` in `i`; an error when the cell no longer has it.
    fn place(&mut self, i: usize, d: u8, why: Why) -> Result<(), String> {
        let g = &self.b.geo;
        if self.b.values[i] != 0 {
            return if self.b.values[i] == d {
                Ok(())
            } else {
                Err(format!(
                    "{} would need both {} and {d}",
                    g.cell_name(i),
                    self.b.values[i]
                ))
            };
        }
        if !self.b.has(i, d) {
            return Err(format!("{} cannot take {d}", g.cell_name(i)));
        }
        for k in 0..3 {
            let u = g.cell_units[i][k];
            if self.present[u] & bit(d) != 0 {
                return Err(format!("{d} twice in {}", g.unit_name(u)));
            }
        }
        let units = g.cell_units[i];
        self.b.place(i, d);
        for u in units {
            self.present[u] |= bit(d);
        }
        self.facts.push(Fact {
            cell: i,
            digit: d,
            on: true,
            why,
        });
        self.weight += 1;
        Ok(())
    }

    fn remove(&mut self, i: usize, d: u8, why: Why) {
        if self.b.has(i, d) {
            self.b.eliminate(i, d);
            self.facts.push(Fact {
                cell: i,
                digit: d,
                on: false,
                why,
            });
            self.weight += 1;
        }
    }

    /// Singles until none is left; an error when the grid breaks.
    fn singles(&mut self) -> Result<bool, String> {
        let n = self.b.n();
        let mut any = false;
        loop {
            let mut changed = false;
            for i in 0..n * n {
                if self.b.values[i] != 0 {
                    continue;
                }
                match self.b.masks[i].count_ones() {
                    0 => return Err(format!("{} has no candidate left", self.b.geo.cell_name(i))),
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
                            return Err(format!(
                                "{d} has no place left in {}",
                                self.b.geo.unit_name(u)
                            ))
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
                                self.remove(k, d, Why::NakedPair(u, m));
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
                    for x in bits(p) {
                        let i = g.cell_at(u, x);
                        for y in digits(self.b.masks[i] & !pair) {
                            self.remove(i, y, Why::HiddenPair(u, pair));
                        }
                    }
                }
            }
        }
        self.facts.len() > before
    }

    /// Every rule of `level` until none applies; an error when the grid breaks.
    fn settle(&mut self, level: usize, budget: &mut Budget) -> Result<(), String> {
        loop {
            self.singles()?;
            if !budget.spend(1) {
                return Ok(());
            }
            if level >= 1 && self.basics() {
                continue;
            }
            if level >= 2 && self.nested(level - 1, budget)? {
                continue;
            }
            return Ok(());
        }
    }

    /// Removes every candidate that breaks the grid `level` down; true when one went.
    fn nested(&mut self, level: usize, budget: &mut Budget) -> Result<bool, String> {
        let mut any = false;
        let n = self.b.n();
        let mut cells: Vec<usize> = (0..n * n).filter(|&i| self.b.values[i] == 0).collect();
        cells.sort_by_key(|&i| self.b.masks[i].count_ones());
        for i in cells {
            if self.b.values[i] != 0 {
                continue;
            }
            for d in digits(self.b.masks[i]) {
                if budget.0 == 0 {
                    return Ok(any);
                }
                let out = play_out(&self.b, i, d, level, budget);
                if out.broke.is_some() {
                    self.remove(i, d, Why::Nested(out.weight));
                    self.weight += out.weight;
                    any = true;
                    if self.b.masks[i] == 0 {
                        return Err(format!("{} has no candidate left", self.b.geo.cell_name(i)));
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

/// Plays out `i = d` at `level`.
pub fn play_out(b: &Board, i: usize, d: u8, level: usize, budget: &mut Budget) -> Outcome {
    let mut p = Play::new(b);
    let broke = match p.place(i, d, Why::Assumed) {
        Err(e) => Some(e),
        Ok(()) => p.settle(level, budget).err(),
    };
    Outcome {
        facts: p.facts,
        broke,
        weight: p.weight,
    }
}

/// The base rating of a level: dynamic 8.5, dynamic + 9.0 (SE's), nested 10.0 and 10.5. The
/// nested bases are set so that, with the length bonus on top, puzzles SE rates 11.0 and up
/// (a sample of the forum's hardest, and the famous hardest) grade near SE.
pub fn level_base(level: usize) -> f64 {
    match level {
        0 => base::DYNAMIC_CHAIN,
        1 => base::DYNAMIC_PLUS,
        2 => base::NESTED,
        _ => base::NESTED_3,
    }
}

/// The technique name of a level.
pub fn level_name(level: usize) -> &'static str {
    match level {
        0 => "dynamic forcing chain",
        1 => "dynamic forcing chain (+)",
        2 => "nested forcing chain",
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
        Why::NakedPair(u, m) => format!(
            "naked pair {} in {}",
            super::grid::digit_list(*m, "/"),
            g.unit_name(*u)
        ),
        Why::HiddenPair(u, m) => format!(
            "hidden pair {} in {}",
            super::grid::digit_list(*m, "/"),
            g.unit_name(*u)
        ),
        Why::Nested(w) => format!(
            "{}={} would break the grid ({w} consequences)",
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
        2 => 3_000_000,
        _ => 6_000_000,
    }
}

/// How many contradictions a nested search (level 2 and up) compares before it takes the
/// lightest: each try is costly, and the first few found, cells with few candidates first,
/// are near the lightest of all.
const NESTED_TRIES: usize = 6;

/// Candidates a nested search found breaking the grid but did not use, with their level:
/// they still break it later on the path (play-outs only grow as candidates go), so the next
/// search at that level plays them out first instead of searching the whole grid again.
#[derive(Default)]
pub struct Leads(Vec<(usize, usize, u8)>);

/// Contradiction forcing chains at `level`: a candidate whose play-out breaks the grid is
/// removed, the lightest found (every candidate up to level 1; the first [`NESTED_TRIES`]
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
    cells.sort_by_key(|&i| (b.masks[i].count_ones(), i));
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
            if level >= 2 && broken.len() >= NESTED_TRIES {
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
    let rating = level_base(level) + length_bonus(out.weight.max(2));
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
    // The play-out's placements in order, from the assumption on: pictures draw them as a
    // chain of strong links.
    let placed: Vec<&Fact> = out.facts.iter().filter(|x| x.on).collect();
    step.links = placed
        .windows(2)
        .map(|w| crate::explain::Link {
            from: b.cv(w[0].cell, w[0].digit),
            to: b.cv(w[1].cell, w[1].digit),
            strong: true,
        })
        .collect();
    f.push(step)
}
