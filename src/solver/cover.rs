//! An exact-cover search for formulas made mostly of exactly-one groups (Sudoku's direct
//! encoding): a DPLL search without learning, as DLX-style Sudoku solvers do, behind a node
//! budget.
//!
//! Loading a formula recognises its *groups*: a clause whose literals are pairwise excluded by
//! binary clauses present (`¬a ∨ ¬b` for every pair) is "exactly one of these". Those binaries
//! are then implied by the groups and dropped; every other clause (units, the engine's guarded
//! blocking clauses, anything else) is kept with two watched literals. The state is a value per
//! literal and, per group, the members not yet false and the members true: a literal made true
//! makes the other members of its groups false; a member made false leaves its groups one
//! fewer, none left is a conflict and one left is made true. The search branches on the open
//! group with the fewest members left (a bivalue cell or a value with two places: naked and
//! hidden singles and minimum remaining values in one rule), a member true and then false, and
//! backtracks chronologically along a trail.
//!
//! A solve stops at its node budget ([`Cover::solve_limited`] answers `None`), so a board that
//! search without learning handles badly costs only the budget before a CDCL solver takes over
//! ([`super::Layered`]). A solve asked again with the same assumptions after a model, when only
//! clauses were added since (the uniqueness check's blocking clause), resumes where the last
//! one stopped: every subtree refuted stays refuted and the model found is excluded, so the
//! search goes on from the decisions whose other branch is still open. An unsatisfiable answer
//! under assumptions names all of them (no analysis). No clock, no threads: the [`Stop`] flag is
//! polled every 1,024 nodes.

use super::{Outcome, SolverError, Stop};
use crate::cnf::{Assignment, Formula, Lit};

/// A group's state: bit `i` for its member `i` not yet made false (propagated), the number
/// of those bits from [`COUNT`] up, and [`DONE`] once one of its members is true.
const DONE: u32 = 1 << 31;
/// The unit of a group's count of members left.
const COUNT: u32 = 1 << 24;
/// The members' bits of a group's state.
const BITS: u32 = COUNT - 1;
/// The most members a group may have (one bit each below [`COUNT`]).
const MAX_MEMBERS: usize = 24;

const UNKNOWN: u8 = 0;
const TRUE: u8 = 1;
const FALSE: u8 = 2;

/// Marks a queued literal whose negation, a member made false, is already propagated.
const KILLED: u32 = 1 << 31;

/// A decision whose other branch (the literal false) is still open.
const OPEN: u8 = 0;
/// The second branch of a decision: nothing left to try at this level.
const FLIPPED: u8 = 1;
/// The assumptions of the current call.
const ASSUMED: u8 = 2;

#[derive(Clone, Copy, Debug)]
struct Frame {
    trail_len: u32,
    saved_at: u32,
    lit: u32,
    kind: u8,
}

/// The exact-cover search (see the module documentation).
pub struct Cover {
    num_vars: usize,
    ok: bool,
    /// Per literal code: `UNKNOWN`, `TRUE` or `FALSE`.
    value: Vec<u8>,
    /// The groups' members, end to end; group `g` is `members[start[g]..start[g + 1]]`.
    members: Vec<u32>,
    start: Vec<u32>,
    /// Per literal code, the groups it belongs to, each as `group << 6 | place in the
    /// group`: `occ[occ_start[l]..occ_start[l + 1]]`.
    occ: Vec<u32>,
    occ_start: Vec<u32>,
    /// Per group: its members not yet false and their count, plus [`DONE`] (see [`COUNT`]).
    state: Vec<u32>,
    /// The groups' states saved at each frame, end to end (a frame is undone by copying its
    /// saved states back and clearing the values above its place on the trail).
    saved: Vec<u32>,
    /// The clauses that are not groups (their first two literals watched).
    clauses: Vec<Vec<u32>>,
    /// Per literal code: the clauses watching it (visited when it becomes false).
    watches: Vec<Vec<u32>>,
    trail: Vec<u32>,
    /// The literals made true whose consequences are still to propagate (a member made
    /// false by a group is propagated at once, not queued).
    queue: Vec<u32>,
    qhead: usize,
    /// Literals made false whose watches are still to visit.
    unwatched: Vec<u32>,
    frames: Vec<Frame>,
    /// The last call found a model and the search still stands at it.
    at_model: bool,
    assumed: Vec<Lit>,
    /// Unit clauses added above the root, asserted when a search starts from it.
    units: Vec<u32>,
    nodes: u64,
    /// Clauses recognised as groups or implied by them, and clauses in all, at loading.
    covered: usize,
    total: usize,
    stop: Option<Stop>,
}

impl Cover {
    /// The search loaded with `f`'s clauses, its groups recognised.
    pub fn new(f: &Formula, stop: Option<Stop>) -> Cover {
        let n = f.num_vars();
        let mut c = Cover {
            num_vars: n,
            ok: true,
            value: vec![UNKNOWN; 2 * n],
            members: Vec::new(),
            start: vec![0],
            occ: Vec::new(),
            occ_start: Vec::new(),
            state: Vec::new(),
            saved: Vec::new(),
            clauses: Vec::new(),
            watches: vec![Vec::new(); 2 * n],
            trail: Vec::new(),
            queue: Vec::new(),
            qhead: 0,
            unwatched: Vec::new(),
            frames: Vec::new(),
            at_model: false,
            assumed: Vec::new(),
            units: Vec::new(),
            nodes: 0,
            covered: 0,
            total: f.num_clauses(),
            stop,
        };
        c.load(f);
        c
    }

    fn load(&mut self, f: &Formula) {
        let n2 = 2 * self.num_vars;
        // Exclusions: the binary clause `x ∨ y` says `¬x` and `¬y` are not both true.
        let mut deg = vec![0u32; n2 + 1];
        for cl in f.clauses() {
            if cl.len() == 2 {
                deg[cl[0].code() ^ 1] += 1;
                deg[cl[1].code() ^ 1] += 1;
            }
        }
        let mut ex_start = Vec::with_capacity(n2 + 1);
        let mut acc = 0u32;
        for d in &deg {
            ex_start.push(acc);
            acc += d;
        }
        let mut fill = ex_start.clone();
        let mut ex = vec![0u32; acc as usize];
        for cl in f.clauses() {
            if cl.len() == 2 {
                let (a, b) = (cl[0].code() ^ 1, cl[1].code() ^ 1);
                ex[fill[a] as usize] = b as u32;
                fill[a] += 1;
                ex[fill[b] as usize] = a as u32;
                fill[b] += 1;
            }
        }
        // Groups: clauses whose literals are pairwise excluded.
        let mut mark = vec![0u32; n2];
        let mut seen = vec![0u32; self.num_vars];
        let mut stamp = 0u32;
        let mut is_group = Vec::with_capacity(f.num_clauses());
        for cl in f.clauses() {
            // A binary clause of two negations is the exclusion of its partner (`x ∨ y`, a
            // cell with two candidates), not a group of its own.
            let mut group = cl.len() >= 2
                && cl.len() <= MAX_MEMBERS
                && !(cl.len() == 2 && cl[0].is_negative() && cl[1].is_negative());
            // A variable twice makes no group.
            stamp += 1;
            for l in cl {
                let v = l.var().index();
                group &= seen[v] != stamp;
                seen[v] = stamp;
            }
            'pairs: for i in 0..cl.len().saturating_sub(1) {
                if !group {
                    break;
                }
                stamp += 1;
                let a = cl[i].code();
                for &b in &ex[ex_start[a] as usize..ex_start[a + 1] as usize] {
                    mark[b as usize] = stamp;
                }
                for l in &cl[i + 1..] {
                    if mark[l.code()] != stamp {
                        group = false;
                        break 'pairs;
                    }
                }
            }
            if group {
                self.members.extend(cl.iter().map(|l| l.code() as u32));
                self.start.push(self.members.len() as u32);
            }
            is_group.push(group);
        }
        let groups = self.start.len() - 1;
        let mut count = vec![0u32; n2 + 1];
        for &m in &self.members {
            count[m as usize] += 1;
        }
        let mut acc = 0u32;
        for d in &count {
            self.occ_start.push(acc);
            acc += d;
        }
        let mut fill = self.occ_start.clone();
        self.occ = vec![0; acc as usize];
        for g in 0..groups {
            let ms = &self.members[self.start[g] as usize..self.start[g + 1] as usize];
            for (i, &m) in ms.iter().enumerate() {
                self.occ[fill[m as usize] as usize] = (g << 6 | i) as u32;
                fill[m as usize] += 1;
            }
        }
        self.state = (0..groups)
            .map(|g| {
                let n = self.start[g + 1] - self.start[g];
                n * COUNT + ((1u32 << n) - 1)
            })
            .collect();
        // Every other clause is kept, except a binary whose two excluded literals share a group.
        for (cl, group) in f.clauses().zip(is_group) {
            if group {
                self.covered += 1;
                continue;
            }
            if cl.len() == 2 {
                let (a, b) = (cl[0].code() ^ 1, cl[1].code() ^ 1);
                let ga = if a == b { &[][..] } else { self.groups_of(a) };
                if self
                    .groups_of(b)
                    .iter()
                    .any(|g| ga.iter().any(|h| h >> 6 == g >> 6))
                {
                    self.covered += 1;
                    continue;
                }
            }
            self.add(cl);
        }
    }

    fn groups_of(&self, l: usize) -> &[u32] {
        &self.occ[self.occ_start[l] as usize..self.occ_start[l + 1] as usize]
    }

    /// True when groups make up most of the formula loaded (nine clauses in ten or more): the
    /// formulas this search is for.
    pub fn mostly_groups(&self) -> bool {
        self.start.len() > 1 && self.covered * 10 >= self.total * 9
    }

    /// The number of variables known.
    pub fn num_vars(&self) -> usize {
        self.num_vars
    }

    fn reserve_vars(&mut self, n: usize) {
        if n <= self.num_vars {
            return;
        }
        self.value.resize(2 * n, UNKNOWN);
        self.watches.resize(2 * n, Vec::new());
        let end = *self.occ_start.last().unwrap();
        self.occ_start.resize(2 * n + 1, end);
        self.num_vars = n;
    }

    fn assign(&mut self, l: u32) {
        set(&mut self.value, &mut self.trail, l);
        self.queue.push(l);
    }

    /// Adds a clause (kept with two watched literals; groups are recognised only at loading).
    /// Added at a model, a clause it falsifies is found when the search resumes.
    pub fn add(&mut self, clause: &[Lit]) {
        let top = clause
            .iter()
            .map(|l| l.var().index() + 1)
            .max()
            .unwrap_or(0);
        self.reserve_vars(top);
        if !self.ok {
            return;
        }
        let mut c: Vec<u32> = clause.iter().map(|l| l.code() as u32).collect();
        c.sort_unstable();
        c.dedup();
        if c.windows(2).any(|w| w[0] ^ 1 == w[1]) {
            return; // a tautology
        }
        // Watch the literals not false first, then the ones made false last.
        let key = |l: u32| -> usize {
            match self.value[l as usize] {
                FALSE => self.trail.iter().rposition(|&t| t == l ^ 1).unwrap_or(0),
                _ => usize::MAX,
            }
        };
        for k in 0..c.len().min(2) {
            let best = (k..c.len()).max_by_key(|&i| key(c[i])).unwrap();
            c.swap(k, best);
        }
        let root = self.frames.is_empty();
        match c.len() {
            0 => self.ok = false,
            1 => match self.value[c[0] as usize] {
                UNKNOWN if root => self.assign(c[0]),
                FALSE if root => self.ok = false,
                // Above the root, a unit is a clause without a second watch: kept among the
                // clauses the leaves check.
                _ if !root => {
                    self.units.push(c[0]);
                    self.clauses.push(c);
                }
                _ => {}
            },
            _ => {
                let (v0, v1) = (self.value[c[0] as usize], self.value[c[1] as usize]);
                if root && v0 == FALSE {
                    self.ok = false;
                    return;
                }
                if v0 == UNKNOWN && v1 == FALSE {
                    self.assign(c[0]);
                }
                let i = self.clauses.len() as u32;
                self.watches[c[0] as usize].push(i);
                self.watches[c[1] as usize].push(i);
                self.clauses.push(c);
            }
        }
    }

    /// Propagates the queue; false at a conflict (the groups' states are then restored from
    /// a frame, so they need not be left consistent).
    fn propagate(&mut self) -> bool {
        loop {
            while self.qhead < self.queue.len() {
                let entry = self.queue[self.qhead];
                let t = (entry & !KILLED) as usize;
                self.qhead += 1;
                let Cover {
                    value,
                    trail,
                    queue,
                    unwatched,
                    watches,
                    members,
                    start,
                    occ,
                    occ_start,
                    state,
                    ..
                } = self;
                let mut g = Groups {
                    value,
                    trail,
                    queue,
                    unwatched,
                    watches,
                    members,
                    start,
                    occ,
                    occ_start,
                    state,
                };
                // `t` true: the other members of its groups false.
                let (a, b) = (g.occ_start[t] as usize, g.occ_start[t + 1] as usize);
                for k in a..b {
                    let o = g.occ[k];
                    let gi = (o >> 6) as usize;
                    let st = g.state[gi];
                    if st & DONE != 0 {
                        return false;
                    }
                    g.state[gi] = st | DONE;
                    let from = g.start[gi] as usize;
                    let mut left = st & BITS & !(1u32 << (o & 63));
                    while left != 0 {
                        let m = g.members[from + left.trailing_zeros() as usize];
                        left &= left - 1;
                        match g.value[m as usize] {
                            UNKNOWN => {
                                g.value[m as usize] = FALSE;
                                g.value[(m ^ 1) as usize] = TRUE;
                                g.trail.push(m ^ 1);
                                if g.occ_start[(m ^ 1) as usize]
                                    != g.occ_start[(m ^ 1) as usize + 1]
                                {
                                    // A negated member: its variable's groups are done too.
                                    g.queue.push(m ^ 1 | KILLED);
                                }
                                if !g.drop_member(m as usize) {
                                    return false;
                                }
                            }
                            TRUE => return false,
                            _ => {}
                        }
                    }
                }
                // `t`'s negation false (already propagated for a member made false).
                if entry & KILLED == 0 && !g.drop_member(t ^ 1) {
                    return false;
                }
            }
            let Some(f) = self.unwatched.pop() else {
                break;
            };
            if !self.visit_watches(f) {
                return false;
            }
        }
        self.queue.clear();
        self.qhead = 0;
        true
    }

    /// The clauses watching `f`, which just became false; false at a conflict.
    fn visit_watches(&mut self, f: u32) -> bool {
        if self.watches[f as usize].is_empty() {
            return true;
        }
        let mut list = std::mem::take(&mut self.watches[f as usize]);
        let mut keep = 0;
        let mut ok = true;
        let mut i = 0;
        while i < list.len() {
            let ci = list[i];
            i += 1;
            if !ok {
                list[keep] = ci;
                keep += 1;
                continue;
            }
            let c = &mut self.clauses[ci as usize];
            if c[0] == f {
                c.swap(0, 1);
            }
            let other = c[0];
            if self.value[other as usize] == TRUE {
                list[keep] = ci;
                keep += 1;
                continue;
            }
            if let Some(k) = (2..c.len()).find(|&k| self.value[c[k] as usize] != FALSE) {
                c.swap(1, k);
                let w = c[1];
                self.watches[w as usize].push(ci);
                continue;
            }
            list[keep] = ci;
            keep += 1;
            match self.value[other as usize] {
                FALSE => ok = false,
                _ => self.assign(other),
            }
        }
        list.truncate(keep);
        self.watches[f as usize] = list;
        ok
    }

    /// Unassigns the trail down to `len` entries (the groups' states are restored apart).
    fn undo(&mut self, len: usize) {
        for &t in &self.trail[len..] {
            self.value[t as usize] = UNKNOWN;
            self.value[(t ^ 1) as usize] = UNKNOWN;
        }
        self.trail.truncate(len);
        self.queue.clear();
        self.qhead = 0;
        self.unwatched.clear();
    }

    /// Back to the state saved by `fr`: its groups' states, the trail up to its place.
    fn restore(&mut self, fr: Frame) {
        let n = self.state.len();
        let at = fr.saved_at as usize;
        self.state.copy_from_slice(&self.saved[at..at + n]);
        self.undo(fr.trail_len as usize);
    }

    /// Pushes a frame that saves the current state (the trail fully propagated).
    fn push_frame(&mut self, lit: u32, kind: u8) {
        let saved_at = self.saved.len() as u32;
        self.saved.extend_from_slice(&self.state);
        self.frames.push(Frame {
            trail_len: self.trail.len() as u32,
            saved_at,
            lit,
            kind,
        });
    }

    /// Pops the last frame and restores what it saved (which stays saved for a second
    /// branch; see [`Cover::flip`]).
    fn pop_frame(&mut self) -> Option<Frame> {
        let fr = self.frames.pop()?;
        self.restore(fr);
        Some(fr)
    }

    /// The second branch of the decision `fr` just popped: its literal false, from the
    /// state `fr` saved.
    fn flip(&mut self, fr: Frame) {
        self.frames.push(Frame {
            kind: FLIPPED,
            lit: fr.lit ^ 1,
            ..fr
        });
        self.assign(fr.lit ^ 1);
    }

    fn back_to_root(&mut self) {
        if let Some(&f) = self.frames.first() {
            self.restore(f);
        }
        self.frames.clear();
        self.saved.clear();
        self.at_model = false;
    }

    /// The next branch: the first member not yet false of the open group with the fewest;
    /// when every group is settled, an unassigned literal of a clause not yet satisfied.
    /// `Err(())` when a clause is false (one a watch could not see), `Ok(None)` at a model.
    fn choose(&self) -> Result<Option<u32>, ()> {
        let mut best = DONE >> 24;
        let mut pick = usize::MAX;
        for (g, &s) in self.state.iter().enumerate() {
            if s >> 24 < best {
                best = s >> 24;
                pick = g;
                if best < 3 {
                    break;
                }
            }
        }
        if pick != usize::MAX {
            // After propagation, a member of an open group not made false is unassigned.
            let bits = self.state[pick] & BITS;
            return Ok(Some(
                self.members[self.start[pick] as usize + bits.trailing_zeros() as usize],
            ));
        }
        for c in &self.clauses {
            if c.iter().any(|&l| self.value[l as usize] == TRUE) {
                continue;
            }
            match c.iter().find(|&&l| self.value[l as usize] == UNKNOWN) {
                Some(&l) => return Ok(Some(l)),
                None => return Err(()),
            }
        }
        Ok(None)
    }

    /// Solves under `assumptions`; `Ok(None)` when the search has met `budget` nodes over
    /// every call (the state is then of no further use).
    pub fn solve_limited(
        &mut self,
        assumptions: &[Lit],
        budget: u64,
    ) -> Result<Option<Outcome>, SolverError> {
        if self.stop.as_ref().is_some_and(Stop::is_raised) {
            return Err(SolverError::Stopped);
        }
        let top = assumptions
            .iter()
            .map(|l| l.var().index() + 1)
            .max()
            .unwrap_or(0);
        self.reserve_vars(top);
        if !self.ok {
            return Ok(Some(Outcome::Unsat(Vec::new())));
        }
        let resume = self.at_model && self.assumed == assumptions;
        self.at_model = false;
        if !resume {
            self.back_to_root();
            for i in 0..self.units.len() {
                let u = self.units[i];
                match self.value[u as usize] {
                    UNKNOWN => self.assign(u),
                    FALSE => self.ok = false,
                    _ => {}
                }
            }
            self.units.clear();
            if !self.ok || !self.propagate() {
                self.ok = false;
                return Ok(Some(Outcome::Unsat(Vec::new())));
            }
            self.assumed = assumptions.to_vec();
            if !assumptions.is_empty() {
                self.push_frame(0, ASSUMED);
                let mut ok = true;
                for a in assumptions {
                    let l = a.code() as u32;
                    match self.value[l as usize] {
                        UNKNOWN => self.assign(l),
                        FALSE => ok = false,
                        _ => {}
                    }
                }
                if !ok || !self.propagate() {
                    self.back_to_root();
                    return Ok(Some(Outcome::Unsat(assumptions.to_vec())));
                }
            }
        }
        let mut conflict = false;
        loop {
            if conflict {
                // Back to the last decision whose second branch is open.
                loop {
                    let Some(fr) = self.pop_frame() else {
                        self.ok = false;
                        return Ok(Some(Outcome::Unsat(Vec::new())));
                    };
                    match fr.kind {
                        OPEN => {
                            self.nodes += 1;
                            self.flip(fr);
                            break;
                        }
                        FLIPPED => self.saved.truncate(fr.saved_at as usize),
                        _ => {
                            self.back_to_root();
                            return Ok(Some(Outcome::Unsat(assumptions.to_vec())));
                        }
                    }
                }
            }
            if !self.propagate() {
                conflict = true;
                continue;
            }
            let Ok(next) = self.choose() else {
                conflict = true;
                continue;
            };
            let Some(l) = next else {
                self.at_model = true;
                let values = (0..self.num_vars)
                    .map(|v| self.value[2 * v] == TRUE)
                    .collect();
                return Ok(Some(Outcome::Sat(Assignment::new(values))));
            };
            conflict = false;
            self.nodes += 1;
            if self.nodes >= budget {
                self.back_to_root();
                return Ok(None);
            }
            if self.nodes.is_multiple_of(1024) && self.stop.as_ref().is_some_and(Stop::is_raised) {
                return Err(SolverError::Stopped);
            }
            self.push_frame(l, OPEN);
            self.assign(l);
        }
    }
}
/// The fields a member made false touches, borrowed apart from the rest of the search.
struct Groups<'a> {
    value: &'a mut [u8],
    trail: &'a mut Vec<u32>,
    queue: &'a mut Vec<u32>,
    unwatched: &'a mut Vec<u32>,
    watches: &'a [Vec<u32>],
    members: &'a [u32],
    start: &'a [u32],
    occ: &'a [u32],
    occ_start: &'a [u32],
    state: &'a mut [u32],
}

impl Groups<'_> {
    /// `f` was made false: its groups have one member fewer (none left is a conflict, false
    /// returned; one left is made true and queued), and its watches are to be visited.
    #[inline]
    fn drop_member(&mut self, f: usize) -> bool {
        let (a, b) = (self.occ_start[f] as usize, self.occ_start[f + 1] as usize);
        for k in a..b {
            let o = self.occ[k];
            let g = (o >> 6) as usize;
            let st = self.state[g] - COUNT - (1u32 << (o & 63));
            self.state[g] = st;
            if st < 2 * COUNT {
                if st < COUNT {
                    return false;
                }
                let m =
                    self.members[self.start[g] as usize + (st & BITS).trailing_zeros() as usize];
                if self.value[m as usize] == UNKNOWN {
                    set(self.value, self.trail, m);
                    self.queue.push(m);
                }
            }
        }
        if !self.watches[f].is_empty() {
            self.unwatched.push(f as u32);
        }
        true
    }
}

fn set(value: &mut [u8], trail: &mut Vec<u32>, l: u32) {
    value[l as usize] = TRUE;
    value[(l ^ 1) as usize] = FALSE;
    trail.push(l);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::{encode, Var};
    use crate::solver::{Backend, Varisat};
    use rand::Rng;

    /// Random exactly-one groups over `vars` variables (each variable in a few groups, some
    /// members negated) plus `extra` random clauses of 2 or 3 literals.
    fn random_groups(seed: u64, vars: usize, groups: usize, extra: usize) -> Formula {
        let mut rng = crate::generate::rng(seed);
        let mut f = Formula::without_names();
        for _ in 0..vars {
            f.new_var();
        }
        for _ in 0..groups {
            let n = rng.gen_range(2..6);
            let mut ls: Vec<Lit> = Vec::new();
            while ls.len() < n {
                let v = Var::from_index(rng.gen_range(0..vars));
                if ls.iter().all(|l| l.var() != v) {
                    ls.push(v.lit(rng.gen_bool(0.8)));
                }
            }
            encode::exactly_one(&mut f, &ls);
        }
        for _ in 0..extra {
            let n = rng.gen_range(1..4);
            let c: Vec<Lit> = (0..n)
                .map(|_| Var::from_index(rng.gen_range(0..vars)).lit(rng.gen_bool(0.5)))
                .collect();
            f.add_clause(&c);
        }
        f
    }

    fn solve(c: &mut Cover, assumptions: &[Lit]) -> Outcome {
        c.solve_limited(assumptions, u64::MAX).unwrap().unwrap()
    }

    #[test]
    fn one_group_has_one_member_true() {
        let mut f = Formula::without_names();
        let ls: Vec<Lit> = (0..3).map(|_| f.new_var().pos()).collect();
        encode::exactly_one(&mut f, &ls);
        let mut c = Cover::new(&f, None);
        assert!(c.mostly_groups());
        let Outcome::Sat(m) = solve(&mut c, &[]) else {
            panic!("satisfiable")
        };
        assert!(m.satisfies(&f));
        assert_eq!(ls.iter().filter(|&&l| m.lit(l)).count(), 1);
    }

    /// Every model of `f` under `assumptions` that differ on the first `vars` variables,
    /// counted by blocking each one found (at most `max`), by the search and by varisat.
    fn count_both(f: &Formula, assumptions: &[Lit], max: usize) -> (usize, usize) {
        let mut c = Cover::new(f, None);
        let mut v = Varisat::new();
        v.add_formula(f);
        let mut counts = [0, 0];
        for (i, n) in counts.iter_mut().enumerate() {
            while *n < max {
                let out = if i == 0 {
                    solve(&mut c, assumptions)
                } else {
                    v.solve(assumptions).unwrap()
                };
                let Outcome::Sat(m) = out else {
                    if let Outcome::Unsat(core) = out {
                        assert!(core.iter().all(|l| assumptions.contains(l)));
                    }
                    break;
                };
                assert!(m.satisfies(f));
                assert!(assumptions.iter().all(|&l| m.lit(l)));
                *n += 1;
                let block: Vec<Lit> = (0..f.num_vars())
                    .map(|x| Var::from_index(x).lit(!m.var(Var::from_index(x))))
                    .collect();
                if i == 0 {
                    c.add(&block);
                } else {
                    v.add_clause(&block);
                }
            }
        }
        (counts[0], counts[1])
    }

    #[test]
    fn models_counted_as_varisat_counts_them() {
        let mut sat = 0;
        for seed in 0..300 {
            let vars = 8 + (seed as usize % 5);
            let f = random_groups(seed, vars, vars / 2 + 1, (seed as usize) % 4);
            let (a, b) = count_both(&f, &[], 300);
            assert_eq!(a, b, "seed {seed}");
            sat += usize::from(a > 0);
            let x = Var::from_index(seed as usize % vars);
            let assume = [x.lit(seed % 2 == 0), Var::from_index(0).pos()];
            let (a, b) = count_both(&f, &assume, 300);
            assert_eq!(a, b, "seed {seed} under assumptions");
        }
        assert!(sat > 50, "{sat} satisfiable");
    }

    #[test]
    fn clauses_added_between_solves_and_assumptions_that_change() {
        for seed in 0..200 {
            let vars = 12;
            let f = random_groups(seed, vars, 7, 2);
            let mut c = Cover::new(&f, None);
            let mut v = Varisat::new();
            v.add_formula(&f);
            let mut rng = crate::generate::rng(seed + 1000);
            for round in 0..8 {
                let n = rng.gen_range(0..3);
                let assume: Vec<Lit> = (0..n)
                    .map(|_| Var::from_index(rng.gen_range(0..vars)).lit(rng.gen_bool(0.5)))
                    .collect();
                let (got, want) = (solve(&mut c, &assume), v.solve(&assume).unwrap());
                match (&got, &want) {
                    (Outcome::Sat(m), Outcome::Sat(_)) => {
                        assert!(m.satisfies(&f) && assume.iter().all(|&l| m.lit(l)))
                    }
                    (Outcome::Unsat(_), Outcome::Unsat(_)) => {}
                    _ => panic!("seed {seed} round {round}: {got:?} against {want:?} {assume:?}"),
                }
                let k = rng.gen_range(1..4);
                let cl: Vec<Lit> = (0..k)
                    .map(|_| Var::from_index(rng.gen_range(0..vars)).lit(rng.gen_bool(0.5)))
                    .collect();
                c.add(&cl);
                v.add_clause(&cl);
            }
        }
    }
}
