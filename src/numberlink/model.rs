//! The Numberlink CNF model (see `models/numberlink.md` for the clause families and counts).
//!
//! Variables: one per pair of adjacent cells (`r1c1-r1c2`: the cells are linked); a piece per
//! cell (`r1c1=┏`, one-hot: the sides its path leaves by, one side at an endpoint, two
//! elsewhere, none for an empty cell); a path label per cell (`r1c1=3`, one-hot through
//! [`crate::cnf::vocab::IntVar`], 0 for an empty cell), carried along links. With the ends
//! folded under `flow` and `cover`, the solving model writes the label as a binary code instead
//! (`r1c1#0`…: the path's index among the paths that can reach the cell, [`LabelCode`]).
//! Detached loops satisfy these local clauses; they are cut lazily ([`loop_cuts`], the default)
//! or ruled out by order labels in the CNF itself ([`super::Loops::Exact`]). With lazy loop
//! cuts and binary labels, the flow rule between two free cells is cut lazily too
//! ([`flow_cuts`]).
//!
//! The answer variables are the pieces and the one-hot labels: a solution is its true answer
//! literals, and two models differ as solutions only when some cell's piece or path differs
//! (with the ends folded, the pieces alone: they give every label). A model with a loop is
//! refined away before anyone sees it, so a second model that only adds a loop is never
//! counted as a second solution.

use super::{Links, Loops, Numberlink, SIDES};
use crate::cnf::vocab::IntVar;
use crate::cnf::{encode, Assignment, Clause, Formula, Lit, Var};
use crate::puzzle::{cell_name, CellValue, Given, GivenMode, Model};
use std::collections::HashMap;

/// A cell's path label: fixed (a folded endpoint) or a variable (0 = empty, k = path k-1).
#[derive(Clone, Debug)]
pub enum CellLabel {
    Fixed(u32),
    Var(IntVar),
    /// A binary code ([`LabelCode::Binary`]): bits `from..from + width` of
    /// [`NumberlinkMap::code_bits`] hold, most significant first, the index of the cell's path
    /// in `domains[dom]` (its possible paths, ascending).
    Code {
        dom: u32,
        from: u32,
        width: u8,
    },
}

/// How the path labels of the cells that are not ends are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelCode {
    /// One literal per path (`r1c1=3`) and exactly-one (at-least-one when folded under `flow`
    /// and `cover`): answer literals that name each cell's path (the backbone of `--forced`,
    /// DIMACS export, Assume mode, nikoli rules).
    OneHot,
    /// Where the ends are folded under `flow` and `cover`, a binary code of `⌈log2 D_c⌉` bits
    /// (the solving model: about `4B + 1` clauses per link instead of `3D`); one-hot elsewhere.
    /// See models/numberlink.md.
    Binary,
}

/// Which variable is which link, piece and label.
#[derive(Clone, Debug)]
pub struct NumberlinkMap {
    pub width: usize,
    /// The link between a cell and its right neighbour.
    pub right: Vec<Option<Var>>,
    /// The link between a cell and the cell below.
    pub down: Vec<Option<Var>>,
    /// Each cell's pieces: arm bits with their literal (arms 0: the empty piece).
    pub pieces: Vec<Vec<(u8, Lit)>>,
    /// Each cell's path label.
    pub labels: Vec<CellLabel>,
    /// The bits of the binary labels ([`CellLabel::Code`]), cell after cell.
    pub code_bits: Vec<Lit>,
    /// The domains of the binary labels: the paths that can reach a component of cells that
    /// are not ends, ascending.
    pub domains: Vec<Vec<u32>>,
    /// In `GivenMode::Assume`: each path's given (its ends are ends of that path).
    pub path_given: Vec<Option<Lit>>,
    /// True when loops are cut lazily by [`loop_cuts`].
    pub lazy: bool,
    /// True when the flow rule between two cells with binary labels (same path ⇒ linked) is
    /// not in the CNF but cut lazily by [`flow_cuts`] (under `flow`, with lazy loop cuts).
    pub lazy_flow: bool,
    /// How many answer variables (the pieces, which come first) tell solutions apart: with
    /// the ends folded, pieces give the links, and the links and the ends' fixed labels give
    /// every label, so two models with the same pieces are one solution. In Assume mode every
    /// answer variable counts.
    pub distinct: usize,
}

impl NumberlinkMap {
    /// The link variable of cell `c` across `side` (`None` at the border).
    pub fn link(&self, p: &Numberlink, c: usize, side: u8) -> Option<Var> {
        let n = p.neighbour(c, side)?;
        match side {
            super::RIGHT => self.right[c],
            super::DOWN => self.down[c],
            super::LEFT => self.right[n],
            _ => self.down[n],
        }
    }

    /// The literal of cell `c`'s empty piece, when it may be empty.
    pub fn empty(&self, c: usize) -> Option<Lit> {
        self.pieces[c]
            .iter()
            .find(|&&(arms, _)| arms == 0)
            .map(|&(_, l)| l)
    }

    /// `cell c has label v` as a term (constant for a fixed label or a value outside the domain).
    fn label(&self, c: usize, v: u32) -> Term {
        match &self.labels[c] {
            CellLabel::Fixed(k) => {
                if *k == v {
                    Term::True
                } else {
                    Term::False
                }
            }
            CellLabel::Var(x) => x.eq(v as i32).map_or(Term::False, Term::Lit),
            CellLabel::Code { .. } => unreachable!("a binary label has no literal per path"),
        }
    }

    /// The bits of a binary label (empty for other labels).
    fn bits(&self, label: &CellLabel) -> &[Lit] {
        match *label {
            CellLabel::Code { from, width, .. } => {
                &self.code_bits[from as usize..from as usize + width as usize]
            }
            _ => &[],
        }
    }

    /// The path labels (1 and up) each cell may carry, ascending, each with its term.
    fn path_terms(&self) -> PathTerms {
        let mut terms = PathTerms {
            flat: Vec::with_capacity(self.labels.len()),
            start: Vec::with_capacity(self.labels.len() + 1),
        };
        terms.start.push(0);
        for label in &self.labels {
            let from = terms.flat.len();
            match label {
                CellLabel::Fixed(k) => terms.flat.push((*k, Term::True)),
                CellLabel::Var(x) => {
                    terms.flat.extend(
                        x.values()
                            .iter()
                            .filter(|&&(v, _)| v > 0)
                            .map(|&(v, l)| (v as u32, Term::Lit(l))),
                    );
                    // Domains are written ascending; sorted only if one was not.
                    let t = &mut terms.flat[from..];
                    if !t.is_sorted_by_key(|&(v, _)| v) {
                        crate::sort::by_key(t, |&(v, _)| v);
                    }
                }
                CellLabel::Code { .. } => {} // link clauses by `code_link`, not from terms
            }
            terms.start.push(terms.flat.len() as u32);
        }
        terms
    }
}

/// Each cell's path labels with their terms (see [`NumberlinkMap::path_terms`]), in one
/// allocation: `terms[c]` is cell `c`'s.
struct PathTerms {
    flat: Vec<(u32, Term)>,
    start: Vec<u32>,
}

impl std::ops::Index<usize> for PathTerms {
    type Output = [(u32, Term)];
    fn index(&self, c: usize) -> &[(u32, Term)] {
        &self.flat[self.start[c] as usize..self.start[c + 1] as usize]
    }
}

/// A literal or a constant, so clauses over folded cells simplify as they are written.
#[derive(Clone, Copy, Debug)]
enum Term {
    True,
    False,
    Lit(Lit),
}

impl std::ops::Not for Term {
    type Output = Term;
    fn not(self) -> Term {
        match self {
            Term::True => Term::False,
            Term::False => Term::True,
            Term::Lit(l) => Term::Lit(!l),
        }
    }
}

/// Adds the clause of `terms` (at most five): skipped when a term is true, false terms left
/// out.
fn clause(f: &mut Formula, terms: &[Term]) {
    let mut buf = [Var::from_index(0).pos(); 5];
    let mut n = 0;
    for t in terms {
        match *t {
            Term::True => return,
            Term::False => {}
            Term::Lit(l) => {
                buf[n] = l;
                n += 1;
            }
        }
    }
    f.add_clause(&buf[..n]);
}

/// For each path (by index), which free cells may carry it: the free cells of a component of
/// non-endpoint cells that touches both of its ends. Returns per cell the allowed path labels.
pub fn reachable_labels(p: &Numberlink) -> Vec<Vec<u32>> {
    let (comp, allowed) = label_domains(p);
    comp.iter()
        .map(|&x| {
            if x == usize::MAX {
                Vec::new()
            } else {
                allowed[x].clone()
            }
        })
        .collect()
}

/// The components of cells that are not ends (per cell its component, `usize::MAX` at an
/// end) and, per component, the path labels (1 and up, ascending) whose two ends both touch it.
fn label_domains(p: &Numberlink) -> (Vec<usize>, Vec<Vec<u32>>) {
    let n = p.cells();
    let ep = p.endpoint_map();
    let mut comp = vec![usize::MAX; n];
    let mut ncomp = 0;
    for s in 0..n {
        if ep[s].is_some() || comp[s] != usize::MAX {
            continue;
        }
        let mut stack = vec![s];
        comp[s] = ncomp;
        while let Some(c) = stack.pop() {
            for side in SIDES {
                if let Some(m) = p.neighbour(c, side) {
                    if ep[m].is_none() && comp[m] == usize::MAX {
                        comp[m] = ncomp;
                        stack.push(m);
                    }
                }
            }
        }
        ncomp += 1;
    }
    let touching = |c: usize| -> Vec<usize> {
        SIDES
            .iter()
            .filter_map(|&s| p.neighbour(c, s))
            .filter(|&m| ep[m].is_none())
            .map(|m| comp[m])
            .collect()
    };
    let mut allowed_comps: Vec<Vec<u32>> = vec![Vec::new(); ncomp];
    for (k, &(a, b)) in p.ends.iter().enumerate() {
        let ta = touching(a);
        let mut both: Vec<usize> = touching(b).into_iter().filter(|x| ta.contains(x)).collect();
        crate::sort::all(&mut both);
        both.dedup();
        for x in both {
            allowed_comps[x].push(k as u32 + 1);
        }
    }
    (comp, allowed_comps)
}

/// The number of bits of a rank (exact loop ban): ranks go up to the number of cells.
pub fn rank_bits(cells: usize) -> usize {
    (usize::BITS - cells.max(1).leading_zeros()) as usize
}

/// Builds the model. `normal_form` adds, under nikoli rules and with the givens folded, a
/// normal form behind a selector literal (`Model::normal`); `code` chooses how labels are
/// written where the rules allow a choice ([`LabelCode`]).
///
/// **The nikoli normal form.** Any solution can be rewritten, step by step, into one where
/// (a) no path runs alongside itself and (b) no `┏` or `┓` has an empty cell on its diagonal
/// (down-right, down-left): if two cells of a path touch without being linked, link them and
/// empty the cells between (the path gets shorter); if a `┏` at `c` has an empty cell `d`
/// down-right, route the path through `d` instead of `c` (same length, the path moves down
/// and right; for `┓`, down and left). Each step raises (−length, Σ(row+col), Σrow) and keeps
/// the solution valid, so the rewriting ends, in a solution with (a) and (b). So the puzzle
/// has a solution if and only if it has one in normal form; (a) is the flow rule's clause,
/// (b) with (a) gives the corner chains of [`corner_chains`]. Not every solution is in normal
/// form, so the engine drops the selector to look for a second one.
#[allow(clippy::needless_range_loop)] // cells are indices into several arrays
pub fn build(
    p: &Numberlink,
    mode: GivenMode,
    names: bool,
    normal_form: bool,
    code: LabelCode,
) -> Model<NumberlinkMap> {
    let n = p.cells();
    let w = p.width;
    let mut f = if names {
        Formula::new()
    } else {
        Formula::without_names()
    };
    let ep = p.endpoint_map();
    let assume = mode == GivenMode::Assume;
    let nikoli = !p.rules.covers();
    let name = |c: usize| cell_name(c / w, c % w);

    // Givens (Assume): coverage first, so that conflict search tries to drop it first.
    let mut givens = Vec::new();
    let cover_given = (assume && !nikoli).then(|| {
        let v = f.named_var(|| "covered".into()).pos();
        givens.push(Given {
            label: "covered".into(),
            lit: v,
        });
        v
    });
    let path_given: Vec<Option<Lit>> = (0..p.ends.len())
        .map(|k| {
            assume.then(|| {
                let label = p.path_given_label(k);
                let v = f.named_var(|| format!("path {label}")).pos();
                givens.push(Given { label, lit: v });
                v
            })
        })
        .collect();

    // Links.
    let mut right = vec![None; n];
    let mut down = vec![None; n];
    for c in 0..n {
        if p.neighbour(c, super::RIGHT).is_some() {
            right[c] = Some(f.named_var(|| format!("{}-{}", name(c), name(c + 1))));
        }
        if p.neighbour(c, super::DOWN).is_some() {
            down[c] = Some(f.named_var(|| format!("{}-{}", name(c), name(c + w))));
        }
    }

    // Pieces.
    let fixed = |c: usize| !assume && ep[c].is_some();
    let may_be_empty = |c: usize| !fixed(c) && (nikoli || assume);
    let mut answer = Vec::new();
    let mut pieces: Vec<Vec<(u8, Lit)>> = Vec::with_capacity(n);
    for c in 0..n {
        let open = p.open_sides(c);
        let mut shapes: Vec<u8> = Vec::new();
        if ep[c].is_some() {
            shapes.extend(SIDES.iter().filter(|&&s| open & s != 0));
        }
        if !fixed(c) {
            for (i, &s) in SIDES.iter().enumerate() {
                for &t in &SIDES[i + 1..] {
                    if open & s != 0 && open & t != 0 {
                        shapes.push(s | t);
                    }
                }
            }
        }
        if may_be_empty(c) {
            shapes.push(0);
        }
        let ps: Vec<(u8, Lit)> = shapes
            .into_iter()
            .map(|arms| {
                let v = f.named_var(|| format!("{}={}", name(c), super::render::piece(arms)));
                answer.push(v);
                (arms, v.pos())
            })
            .collect();
        pieces.push(ps);
    }

    let pieces_in_answer = answer.len();

    // Labels: a fixed endpoint keeps its path; other cells the paths that can reach them.
    let binary = code == LabelCode::Binary && !assume && !nikoli;
    let (comp, domains) = if assume {
        (Vec::new(), Vec::new())
    } else {
        label_domains(p)
    };
    let mut labels = Vec::with_capacity(n);
    let mut code_bits = Vec::new();
    for c in 0..n {
        if fixed(c) {
            labels.push(CellLabel::Fixed(ep[c].expect("endpoint") as u32 + 1));
            continue;
        }
        // Folded under flow and cover, a binary code of the path's index in the component's
        // domain (models/numberlink.md says why this is enough).
        if binary {
            let from = code_bits.len() as u32;
            let width = encode::code_width(domains[comp[c]].len());
            code_bits.extend((0..width).map(|i| f.named_var(|| format!("{}#{i}", name(c))).pos()));
            labels.push(CellLabel::Code {
                dom: comp[c] as u32,
                from,
                width: width as u8,
            });
            continue;
        }
        let mut dom: Vec<i32> = Vec::new();
        if may_be_empty(c) {
            dom.push(0);
        }
        if assume {
            dom.extend(1..=p.ends.len() as i32);
        } else {
            dom.extend(domains[comp[c]].iter().map(|&k| k as i32));
        }
        let label = |v| format!("{}={}", name(c), label_name(p, v));
        // Folded under flow and cover, a label needs no at-most-one: every cell is on a path,
        // labels pass both ways along links, and a linked component that is not a loop runs
        // between two ends whose labels are fixed, so each of its cells carries exactly its
        // ends' label (a loop is cut or ruled out before any model counts). See
        // models/numberlink.md.
        let x = if !assume && !nikoli {
            IntVar::at_least_one(&mut f, dom, label)
        } else {
            IntVar::new(&mut f, dom, label)
        };
        answer.extend(x.lits().map(|l| l.var()));
        labels.push(CellLabel::Var(x));
    }
    let map_lazy = p.loops == Loops::Lazy;
    let lazy_flow = map_lazy && binary && p.rules == super::Rules::Flow;
    let map = NumberlinkMap {
        width: w,
        right,
        down,
        pieces,
        labels,
        code_bits,
        domains,
        path_given,
        lazy: map_lazy,
        lazy_flow,
        distinct: if assume {
            answer.len()
        } else {
            pieces_in_answer
        },
    };

    // Room for every clause at once, so the formula is not regrown (and copied) as it fills:
    // the label clauses below are most of the model (a cell is in at most four links, each
    // writing at most three clauses per label of either cell, mostly of three literals); a
    // cell's piece clauses (at most 7 pieces on 4 sides), corner chains and 2x2 ring
    // clause take fewer than 64 clauses of at most 8 literals. A binary label's bit writes
    // at most 5 clauses per link (two carrying it, two for a difference variable, a share of
    // the last), mostly of three literals, and at most one range clause.
    let terms = map.path_terms();
    let per_cell: usize = 2 * 3 * terms.flat.len() + 4 * 5 * map.code_bits.len();
    f.reserve(2 * per_cell + 64 * n, 2 * 3 * per_cell + 192 * n);

    // Each cell has exactly one piece; a piece and the links agree.
    let mut ps: Vec<Lit> = Vec::new();
    let mut with: Vec<Lit> = Vec::new();
    for c in 0..n {
        ps.clear();
        ps.extend(map.pieces[c].iter().map(|&(_, l)| l));
        encode::exactly_one(&mut f, &ps);
        for side in SIDES {
            let Some(e) = map.link(p, c, side) else {
                continue;
            };
            with.clear();
            with.push(e.neg());
            for &(arms, l) in &map.pieces[c] {
                if arms & side != 0 {
                    f.add_clause(&[!l, e.pos()]);
                    with.push(l);
                } else {
                    f.add_clause(&[!l, e.neg()]);
                }
            }
            f.add_clause(&with);
        }
        // Empty piece ⇔ label 0.
        if let (Some(empty), CellLabel::Var(x)) = (map.empty(c), &map.labels[c]) {
            if let Some(zero) = x.eq(0) {
                encode::equiv(&mut f, empty, zero);
            }
        }
        // A binary label's code is the index of a path in its domain.
        if let CellLabel::Code { dom, .. } = map.labels[c] {
            encode::below(
                &mut f,
                map.bits(&map.labels[c]),
                map.domains[dom as usize].len(),
            );
        }
        // Assume: a path's given makes its ends ends of that path.
        if let (true, Some(k)) = (assume, ep[c]) {
            let g = map.path_given[k].expect("given in Assume mode");
            let mut ends = vec![!g];
            for &(arms, l) in &map.pieces[c] {
                if arms.count_ones() == 1 {
                    ends.push(l);
                    f.add_clause(&[!l, g]);
                }
            }
            f.add_clause(&ends);
            clause(&mut f, &[Term::Lit(!g), map.label(c, k as u32 + 1)]);
        }
        // Coverage binds the whole puzzle: with every path given, every cell is on one.
        // (Alone it would conflict with any board its paths can not cover, and name nothing.)
        if let (Some(g), Some(empty)) = (cover_given, map.empty(c)) {
            let mut cl = vec![!g, !empty];
            cl.extend(
                map.path_given
                    .iter()
                    .map(|x| !x.expect("given in Assume mode")),
            );
            f.add_clause(&cl);
        }
    }

    // Nikoli rules, and in Assume mode the open boards of a set that leaves a given out: the
    // normal form, behind its selector.
    let normal =
        (normal_form && (nikoli || assume)).then(|| f.named_var(|| "normal form".into()).pos());
    // The Assume model the refutation search asks: a cell carries only a given path, so a
    // set of givens with the others assumed false has the labels of the puzzle that keeps it.
    if let (true, Some(_)) = (assume, normal) {
        for c in 0..n {
            for (k, g) in map.path_given.iter().enumerate() {
                let g = g.expect("given in Assume mode");
                clause(&mut f, &[!map.label(c, k as u32 + 1), Term::Lit(g)]);
            }
        }
    }
    // Under flow a path never runs alongside itself, normal form or not.
    let unless_normal = match normal {
        Some(g) if p.rules != super::Rules::Flow => Term::Lit(!g),
        _ => Term::False,
    };

    // Links carry labels; under flow (or in the normal form), same-path neighbours are linked.
    let flow = p.rules == super::Rules::Flow || normal.is_some();
    for c in 0..n {
        for side in [super::RIGHT, super::DOWN] {
            let (Some(m), Some(e)) = (p.neighbour(c, side), map.link(p, c, side)) else {
                continue;
            };
            if binary && !(fixed(c) && fixed(m)) {
                code_link(&mut f, &map, c, m, e, flow);
                continue;
            }
            let (tc, tm) = (&terms[c], &terms[m]);
            // Most links: two cells of one component (the same paths, each a label variable)
            // and no selector.
            if !matches!(unless_normal, Term::Lit(_))
                && tc.len() == tm.len()
                && tc
                    .iter()
                    .zip(tm)
                    .all(|(x, y)| x.0 == y.0 && matches!((x.1, y.1), (Term::Lit(_), Term::Lit(_))))
            {
                let e = e.pos();
                for (x, y) in tc.iter().zip(tm) {
                    let (Term::Lit(a), Term::Lit(b)) = (x.1, y.1) else {
                        continue; // checked above
                    };
                    f.add_clause(&[!e, !a, b]);
                    f.add_clause(&[!e, !b, a]);
                    if flow {
                        f.add_clause(&[!a, !b, e]);
                    }
                }
                continue;
            }
            let e = Term::Lit(e.pos());
            // Walk both ascending domains at once: each path either cell may carry.
            let (mut i, mut j) = (0, 0);
            while i < tc.len() || j < tm.len() {
                let vc = tc.get(i).map_or(u32::MAX, |t| t.0);
                let vm = tm.get(j).map_or(u32::MAX, |t| t.0);
                let v = vc.min(vm);
                let lc = if vc == v { tc[i].1 } else { Term::False };
                let lm = if vm == v { tm[j].1 } else { Term::False };
                match (e, lc, lm, unless_normal) {
                    // Most of them: two label variables, no selector.
                    (Term::Lit(e), Term::Lit(a), Term::Lit(b), Term::False) => {
                        f.add_clause(&[!e, !a, b]);
                        f.add_clause(&[!e, !b, a]);
                        if flow {
                            f.add_clause(&[!a, !b, e]);
                        }
                    }
                    _ => {
                        clause(&mut f, &[!e, !lc, lm]);
                        clause(&mut f, &[!e, !lm, lc]);
                        if flow && vc == vm {
                            clause(&mut f, &[!lc, !lm, e, unless_normal]);
                        }
                    }
                }
                i += (vc == v) as usize;
                j += (vm == v) as usize;
            }
        }
    }

    if p.rules == super::Rules::Flow {
        // In Assume mode the rule holds only with coverage and every path given.
        let guard = cover_given.map(|covered| {
            let all = f.new_var().pos();
            let mut ins = vec![covered];
            ins.extend(
                map.path_given
                    .iter()
                    .map(|g| g.expect("given in Assume mode")),
            );
            encode::and(&mut f, all, &ins);
            all
        });
        corner_chains(p, &map, &mut f, &ep, guard, false);
    }
    if let Some(g) = normal {
        corner_chains(p, &map, &mut f, &ep, Some(g), true);
        empty_cells_touch_no_path_twice(p, &map, &mut f, &terms, g);
    }

    // No 2x2 loop (a cheap start for either loop strategy).
    for c in 0..n {
        if let (Some(a), Some(b), Some(l), Some(r)) = (
            map.right[c],
            map.right.get(c + w).copied().flatten(),
            map.down[c],
            map.down.get(c + 1).copied().flatten(),
        ) {
            f.add_clause(&[a.neg(), b.neg(), l.neg(), r.neg()]);
        }
    }

    if p.loops == Loops::Exact {
        exact_loop_ban(p, &map, &mut f, &ep, assume);
    }

    Model {
        formula: f,
        answer,
        one_hot: true,
        givens,
        normal: normal.into_iter().collect(),
        map,
    }
}

/// The label clauses of the link `e` between `c` and `m` when one of them (or both) has a
/// binary label (the other one then is a folded end): the link carries the code, and under
/// `flow` equal codes force the link. Two binary labels (one component: one domain): `e ⇒
/// c = m` bit by bit (`2B` clauses) and, under `flow`, `c = m ⇒ e`: the unit `e` when `B = 0`,
/// else through `B` difference variables (`2B + 1` clauses), or, when the flow rule is cut
/// lazily ([`flow_cuts`]), not at all. A binary label next to an end of path `k`: `e ⇒ ¬e` when `k`
/// is not in its domain, else `e ⇒ code = index of k` (`B` binary clauses) and, under
/// `flow`, `code = index of k ⇒ e` (one clause).
fn code_link(f: &mut Formula, map: &NumberlinkMap, c: usize, m: usize, e: Var, flow: bool) {
    match (&map.labels[c], &map.labels[m]) {
        (CellLabel::Code { dom: dc, .. }, CellLabel::Code { dom: dm, .. }) => {
            debug_assert_eq!(
                dc, dm,
                "neighbouring cells that are not ends share a component"
            );
            let (a, b) = (map.bits(&map.labels[c]), map.bits(&map.labels[m]));
            encode::equal_if(f, e.pos(), a, b);
            if flow && a.is_empty() {
                f.add_clause(&[e.pos()]); // one path only: neighbours are linked
            } else if flow && !map.lazy_flow {
                let mut some = encode::difference_lits(f, a, b);
                some.push(e.pos());
                f.add_clause(&some);
            }
        }
        (code @ CellLabel::Code { dom, .. }, &CellLabel::Fixed(k))
        | (&CellLabel::Fixed(k), code @ CellLabel::Code { dom, .. }) => {
            let bits = map.bits(code);
            match map.domains[*dom as usize].binary_search(&k) {
                Err(_) => f.add_clause(&[e.neg()]),
                Ok(v) => {
                    encode::equal_const_if(f, e.pos(), bits, v);
                    if flow {
                        encode::if_equal_const(f, bits, v, e.pos());
                    }
                }
            }
        }
        _ => unreachable!("binary labels only beside binary labels or folded ends"),
    }
}

/// The corner pieces and the diagonal step that carries each one on: `┏` looks down-right,
/// `┓` down-left, `┗` up-right, `┛` up-left.
const CORNERS: [(u8, u8, u8); 4] = [
    (super::RIGHT | super::DOWN, super::DOWN, super::RIGHT),
    (super::LEFT | super::DOWN, super::DOWN, super::LEFT),
    (super::UP | super::RIGHT, super::UP, super::RIGHT),
    (super::UP | super::LEFT, super::UP, super::LEFT),
];

/// Under `flow` a corner is the start of a diagonal chain of the same corner that ends at an
/// endpoint. A `┏` at `c` has its path in the cells right of and below `c`; the cell `d`
/// diagonally between them touches both. On that path, `d` would have to be linked to both
/// (a path never runs alongside itself), closing a 2x2 ring; so `d` is on another path, linked
/// to neither, and unless it is an end its two arms point right and down: `d` is a `┏` too.
/// Clauses: `c=┏ ⇒ d=┏` when `d` is not an end (`¬c=┏` when `d` can hold no `┏`), and the same
/// for the other three corners. They hold in every solution (they are implied, not new rules)
/// and let unit propagation do what the solver would otherwise search for: on open boards most
/// cells have no end on their diagonals and can only hold straight pieces. The clauses hold
/// only when `guard` does, if there is one: in Assume mode, coverage and every path given; for
/// the nikoli normal form, its selector.
///
/// Under nikoli rules a cell may be empty, and `nikoli` weakens the chain where the normal form
/// does not push corners (see [`build`]): `c=┗ ⇒ d=┗ ∨ d empty`, and so for `┛`.
/// The corners `┏` and `┓` keep the full chain: a normal form has no such corner whose
/// diagonal cell is empty.
fn corner_chains(
    p: &Numberlink,
    map: &NumberlinkMap,
    f: &mut Formula,
    ep: &[Option<usize>],
    guard: Option<Lit>,
    nikoli: bool,
) {
    // Each cell's corner pieces, in the order of `CORNERS`, looked up once.
    let corners: Vec<[Option<Lit>; 4]> = map
        .pieces
        .iter()
        .map(|ps| {
            let mut k = [None; 4];
            for &(arms, l) in ps {
                if let Some(i) = CORNERS.iter().position(|&(corner, _, _)| corner == arms) {
                    k[i] = Some(l);
                }
            }
            k
        })
        .collect();
    for c in 0..p.cells() {
        for (i, (corner, vertical, horizontal)) in CORNERS.into_iter().enumerate() {
            let Some(here) = corners[c][i] else {
                continue;
            };
            let d = p
                .neighbour(c, vertical)
                .and_then(|m| p.neighbour(m, horizontal))
                .expect("a corner's two neighbours exist, so the cell between them does");
            // A folded end ends the chain; in Assume mode (the normal form of a set of
            // givens) the end of a path left out is a plain cell: the chain goes on unless
            // its path is given.
            let end_given = match ep[d] {
                None => None,
                Some(k) => match (nikoli, map.path_given[k]) {
                    (true, Some(g)) => Some(g),
                    _ => continue,
                },
            };
            let weak = (nikoli && corner & super::UP != 0)
                .then(|| map.empty(d))
                .flatten();
            f.add_clause_from(
                std::iter::once(!here)
                    .chain(corners[d][i])
                    .chain(weak)
                    .chain(end_given)
                    .chain(guard.map(|g| !g)),
            );
        }
    }
}

/// The nikoli normal form (see [`build`]) around an empty cell `e`: a path that touches `e`
/// twice could go through `e` instead of the cells between, and be shorter, unless it goes
/// from one of those neighbours to the other through the fourth cell of their 2x2 block,
/// a corner pointing at `e`. That corner is a `┏` or `┓` when the two neighbours are above and
/// beside `e` (not in normal form), a `┗` or `┛` when below and beside; opposite neighbours
/// have no such cell. Clauses, for each path `k` that may reach both neighbours:
/// `e empty ∧ x=k ∧ y=k ⇒ ⊥` (opposite, or above and beside) and `⇒ z=┗` / `⇒ z=┛` (below
/// and beside, `z` the diagonal cell), all behind the selector `normal`.
fn empty_cells_touch_no_path_twice(
    p: &Numberlink,
    map: &NumberlinkMap,
    f: &mut Formula,
    terms: &PathTerms,
    normal: Lit,
) {
    use super::{DOWN, LEFT, RIGHT, UP};
    // Pairs of sides of `e`, and the corner the diagonal cell must be for the pair to be
    // allowed (0: never).
    const PAIRS: [(u8, u8, u8); 6] = [
        (LEFT, RIGHT, 0),
        (UP, DOWN, 0),
        (UP, LEFT, 0),
        (UP, RIGHT, 0),
        (DOWN, LEFT, UP | RIGHT),
        (DOWN, RIGHT, UP | LEFT),
    ];
    for e in 0..p.cells() {
        let Some(empty) = map.empty(e) else {
            continue;
        };
        for (a, b, corner) in PAIRS {
            let (Some(x), Some(y)) = (p.neighbour(e, a), p.neighbour(e, b)) else {
                continue;
            };
            let connector = if corner == 0 {
                None
            } else {
                let z = p.neighbour(x, b).expect("the fourth cell of the block");
                match map.pieces[z].iter().find(|&&(arms, _)| arms == corner) {
                    Some(&(_, l)) => Some(Term::Lit(l)),
                    None => Some(Term::False),
                }
            };
            let ty = &terms[y];
            for &(k, lx) in &terms[x] {
                let Ok(i) = ty.binary_search_by_key(&k, |t| t.0) else {
                    continue;
                };
                let c = [Term::Lit(!normal), Term::Lit(!empty), !lx, !ty[i].1];
                match connector {
                    Some(z) => clause(f, &[c[0], c[1], c[2], c[3], z]),
                    None => clause(f, &c),
                }
            }
        }
    }
}

/// Order labels: each cell on a path but not an end has a linked neighbour (its parent) of a
/// smaller rank. A loop has no end, so its cell of smallest rank would have no parent.
#[allow(clippy::needless_range_loop)] // cells are indices into several arrays
fn exact_loop_ban(
    p: &Numberlink,
    map: &NumberlinkMap,
    f: &mut Formula,
    ep: &[Option<usize>],
    assume: bool,
) {
    let n = p.cells();
    let bits = rank_bits(n);
    let rank: Vec<Vec<Lit>> = (0..n)
        .map(|_| (0..bits).map(|_| f.new_var().pos()).collect())
        .collect();
    for c in 0..n {
        if !assume && ep[c].is_some() {
            continue; // a folded end needs no parent
        }
        let mut need: Clause = Vec::new();
        if let Some(empty) = map.empty(c) {
            need.push(empty);
        }
        if let (true, Some(k)) = (assume, ep[c]) {
            need.push(map.path_given[k].expect("given"));
        }
        for side in SIDES {
            let (Some(m), Some(e)) = (p.neighbour(c, side), map.link(p, c, side)) else {
                continue;
            };
            let parent = f.new_var().pos();
            f.add_clause(&[!parent, e.pos()]);
            encode::less_than_if(f, parent, &rank[m], &rank[c]);
            need.push(parent);
        }
        f.add_clause(&need);
    }
}

/// A label value as people write it: the path's label, `.` for empty.
fn label_name(p: &Numberlink, v: i32) -> String {
    if v == 0 {
        ".".into()
    } else {
        p.labels[v as usize - 1].clone()
    }
}

/// Where a second solution must be when `first` is the only one in the nikoli normal form
/// (see [`build`]). Take any other solution and rewrite it into normal form: it ends at
/// `first`, and the last step starts from a solution that differs from `first` only in cells
/// `first` leaves empty, plus at most one path cell of `first`, which that solution leaves
/// empty (a shortcut adds no cell; a corner pushed or a path routed through an empty cell
/// adds one). So: every path cell of `first` keeps its path or is empty, and at most one is
/// empty (`cnf::encode::at_most_one`).
pub fn near(map: &NumberlinkMap, first: &Assignment, f: &mut Formula) {
    let mut left = Vec::new();
    for l in &map.labels {
        let CellLabel::Var(x) = l else {
            continue;
        };
        let v = x.value(first).expect("one value per cell");
        if v == 0 {
            continue;
        }
        let keep = x.eq(v).expect("its own value");
        if let Some(empty) = x.eq(0) {
            f.add_clause(&[keep, empty]);
        }
        left.push(!keep);
    }
    encode::at_most_one(f, &left);
}

/// The arms of every cell in an assignment (read from the links).
pub fn arms(p: &Numberlink, map: &NumberlinkMap, a: &Assignment) -> Vec<u8> {
    (0..p.cells())
        .map(|c| {
            SIDES
                .iter()
                .filter(|&&s| map.link(p, c, s).is_some_and(|e| a.var(e)))
                .fold(0, |m, &s| m | s)
        })
        .collect()
}

/// Reads the board from an assignment.
pub fn decode(p: &Numberlink, map: &NumberlinkMap, a: &Assignment) -> Links {
    let path = map
        .labels
        .iter()
        .map(|l| match l {
            CellLabel::Fixed(k) => *k,
            CellLabel::Var(x) => x.value(a).unwrap_or(0) as u32,
            CellLabel::Code { dom, .. } => {
                let v = map
                    .bits(l)
                    .iter()
                    .fold(0, |v, &b| 2 * v + usize::from(a.lit(b)));
                map.domains[*dom as usize].get(v).copied().unwrap_or(0)
            }
        })
        .collect();
    Links {
        arms: arms(p, map, a),
        path,
    }
}

/// Lazy flow cuts (when [`NumberlinkMap::lazy_flow`]): for each pair of neighbouring cells
/// with binary labels that the model leaves unlinked with equal codes (one path), the clause
/// `link ∨ code(c) ≠ v ∨ code(m) ≠ v` for that code `v`: under `flow` two cells of one path
/// are linked, so it holds in every solution, and the model breaks it. Clauses of `2B + 1`
/// literals and no new variable; see models/numberlink.md ("The flow rule, lazily").
pub fn flow_cuts(p: &Numberlink, map: &NumberlinkMap, a: &Assignment) -> Vec<Clause> {
    let mut cuts = Vec::new();
    if !map.lazy_flow {
        return cuts;
    }
    for c in 0..p.cells() {
        let CellLabel::Code { .. } = map.labels[c] else {
            continue;
        };
        for side in [super::RIGHT, super::DOWN] {
            let (Some(m), Some(e)) = (p.neighbour(c, side), map.link(p, c, side)) else {
                continue;
            };
            if a.var(e) || !matches!(map.labels[m], CellLabel::Code { .. }) {
                continue;
            }
            let (bc, bm) = (map.bits(&map.labels[c]), map.bits(&map.labels[m]));
            if bc.iter().zip(bm).all(|(&x, &y)| a.lit(x) == a.lit(y)) {
                let mut cut: Clause = vec![e.pos()];
                cut.extend(bc.iter().chain(bm).map(|&b| if a.lit(b) { !b } else { b }));
                cuts.push(cut);
            }
        }
    }
    cuts
}

/// Lazy loop cuts: for each detached loop in the model (a set `S` of linked cells with no end),
/// clauses that forbid every closed structure on `S`: a cell of `S` that is on a path needs a
/// link leaving `S`, or an end inside `S` (only possible in Assume mode, through its path's
/// given). With every cell covered this is one clause, the links around `S`.
pub fn loop_cuts(p: &Numberlink, map: &NumberlinkMap, a: &Assignment) -> Vec<Clause> {
    if !map.lazy {
        return Vec::new();
    }
    let n = p.cells();
    let arms = arms(p, map, a);
    let ep = p.endpoint_map();
    let mut seen = vec![false; n];
    let mut cuts = Vec::new();
    for s in 0..n {
        if arms[s] == 0 || seen[s] {
            continue;
        }
        let mut comp = vec![s];
        seen[s] = true;
        let mut i = 0;
        while i < comp.len() {
            let c = comp[i];
            i += 1;
            for side in SIDES {
                if arms[c] & side != 0 {
                    let m = p.neighbour(c, side).expect("arm inside the board");
                    if !seen[m] {
                        seen[m] = true;
                        comp.push(m);
                    }
                }
            }
        }
        if comp.iter().any(|&c| arms[c].count_ones() == 1) {
            continue; // a path between two ends
        }
        let mut inside = vec![false; n];
        for &c in &comp {
            inside[c] = true;
        }
        let mut base: Clause = Vec::new();
        for &c in &comp {
            for side in SIDES {
                if let Some(m) = p.neighbour(c, side) {
                    if !inside[m] {
                        base.push(map.link(p, c, side).expect("link").pos());
                    }
                }
            }
            if let Some(k) = ep[c] {
                if let Some(g) = map.path_given[k] {
                    base.push(g);
                }
            }
        }
        if comp.iter().any(|&c| map.empty(c).is_none()) {
            cuts.push(base);
        } else {
            for &c in &comp {
                let mut cl = base.clone();
                cl.push(map.empty(c).expect("empty piece"));
                cuts.push(cl);
            }
        }
    }
    cuts
}

/// The cells whose path is the same in every solution (positive backbone label literals),
/// ends left out; value 0 is a cell that stays empty in every solution.
pub fn forced(p: &Numberlink, map: &NumberlinkMap, lits: &[Lit]) -> Vec<CellValue> {
    let mut by_var: HashMap<Var, (usize, u32)> = HashMap::new();
    for (c, l) in map.labels.iter().enumerate() {
        if let CellLabel::Var(x) = l {
            for &(v, lit) in x.values() {
                by_var.insert(lit.var(), (c, v as u32));
            }
        }
    }
    let ep = p.endpoint_map();
    lits.iter()
        .filter(|l| l.is_positive())
        .filter_map(|l| by_var.get(&l.var()))
        .filter(|&&(c, _)| ep[c].is_none())
        .map(|&(c, v)| CellValue {
            row: c / p.width,
            col: c % p.width,
            value: if v == 0 {
                0
            } else {
                p.numbers[v as usize - 1] as i64
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{Rules, RIGHT};
    use super::*;
    use crate::generate::rng;
    use crate::puzzle::{self, Puzzle, Solutions};
    use crate::solver::SolverChoice;
    use rand::seq::SliceRandom;

    /// Counts solutions by brute force, from the rules alone: route each path in turn along
    /// every simple path between its ends, then check coverage and (flow) no running alongside.
    fn brute(p: &Numberlink) -> usize {
        fn simple_paths(
            p: &Numberlink,
            blocked: &[bool],
            cur: usize,
            goal: usize,
            seen: &mut Vec<usize>,
            out: &mut Vec<Vec<usize>>,
        ) {
            if cur == goal {
                out.push(seen.clone());
                return;
            }
            for s in SIDES {
                if let Some(m) = p.neighbour(cur, s) {
                    if (m == goal || !blocked[m]) && !seen.contains(&m) {
                        seen.push(m);
                        simple_paths(p, blocked, m, goal, seen, out);
                        seen.pop();
                    }
                }
            }
        }
        fn go(
            p: &Numberlink,
            k: usize,
            used: &mut Vec<bool>,
            routes: &mut Vec<Vec<usize>>,
        ) -> usize {
            if k == p.ends.len() {
                if p.rules.covers() && used.iter().any(|&u| !u) {
                    return 0;
                }
                let touch = routes.iter().any(|r| {
                    r.iter().enumerate().any(|(i, &c)| {
                        r.iter().enumerate().any(|(j, &d)| {
                            i + 1 < j && SIDES.iter().any(|&s| p.neighbour(c, s) == Some(d))
                        })
                    })
                });
                return usize::from(p.rules != Rules::Flow || !touch);
            }
            let (a, b) = p.ends[k];
            let mut blocked = used.clone();
            for &(x, y) in &p.ends {
                blocked[x] = true;
                blocked[y] = true;
            }
            let mut all = Vec::new();
            simple_paths(p, &blocked, a, b, &mut vec![a], &mut all);
            let mut total = 0;
            for r in all {
                for &c in &r {
                    used[c] = true;
                }
                routes.push(r);
                total += go(p, k + 1, used, routes);
                let r = routes.pop().expect("pushed");
                for &c in &r {
                    used[c] = false;
                }
            }
            total
        }
        go(p, 0, &mut vec![false; p.cells()], &mut Vec::new())
    }

    /// A small board (3x3 to 4x4 by `trial`) with `paths` pairs of ends on random cells.
    fn random_board(r: &mut crate::generate::Rand, trial: usize, paths: usize) -> Numberlink {
        let (w, h) = [(3, 3), (4, 3), (3, 4), (4, 4)][trial % 4];
        let mut cells: Vec<usize> = (0..w * h).collect();
        cells.shuffle(r);
        let ends = (0..paths)
            .map(|i| (cells[2 * i], cells[2 * i + 1]))
            .collect();
        Numberlink::new(w, h, ends)
    }

    #[test]
    fn counts_match_brute_force_under_every_rule_set_and_loop_strategy() {
        // Small boards with random ends: the model's count (lazy loop cuts or order labels)
        // must equal the count of real solutions. A model that only adds a detached loop
        // would inflate it.
        let mut r = rng(11);
        let mut nonzero = 0;
        for trial in 0..24 {
            let base = random_board(&mut r, trial, 1 + trial % 3);
            for rules in [Rules::Flow, Rules::Cover, Rules::Nikoli] {
                for loops in [Loops::Lazy, Loops::Exact] {
                    let p = Numberlink {
                        rules,
                        loops,
                        ..base.clone()
                    };
                    let want = brute(&p);
                    let got = puzzle::count(&p, &SolverChoice::Embedded, 100_000)
                        .unwrap()
                        .len();
                    assert_eq!(got, want, "{:?} {rules:?} {loops:?}", p.ends);
                    nonzero += usize::from(want > 0);
                    // The verdict and one solution (found first in the nikoli normal form).
                    let verdict = puzzle::verdict(&p, &SolverChoice::Embedded).unwrap();
                    let kind = match verdict {
                        Solutions::None => 0,
                        Solutions::Unique(_) => 1,
                        Solutions::Multiple(..) => 2,
                    };
                    assert_eq!(kind, want.min(2), "{:?} {rules:?} {loops:?}", p.ends);
                    let one = puzzle::solve(&p, &SolverChoice::Embedded).unwrap();
                    assert_eq!(one.is_some(), want > 0, "{:?} {rules:?}", p.ends);
                }
            }
        }
        assert!(nonzero > 30, "the trials should mostly have solutions");
    }

    #[test]
    fn corner_chains_keep_every_flow_solution_folded_or_assumed() {
        // The corner-chain clauses are implied by the flow rules, so they must not lose a
        // solution: the count of the folded model, and of the Assume model with every given
        // assumed, equal the brute-force count. Boards up to 5x5: the ends of a random filling
        // of the board with paths (a flow solution exists; usually just one), and random ends
        // with 1 to 3 paths (rarely solvable; some unsolvable ones are checked too).
        let count_assumed = |p: &Numberlink| {
            let m = p.model(GivenMode::Assume, false);
            let refine = |a: &Assignment| p.refine(&m, a);
            let all: Vec<Lit> = m.givens.iter().map(|g| g.lit).collect();
            crate::solver::Session::new(
                SolverChoice::Embedded.backend(),
                &m.formula,
                m.answer.clone(),
                m.one_hot,
            )
            .with_refine(&refine)
            .into_solutions(100_000, &all)
            .unwrap()
            .len()
        };
        let mut r = rng(5);
        let mut solvable = 0;
        for trial in 0..1500 {
            let (w, h) = [(4, 4), (5, 4), (4, 5), (5, 5)][trial % 4];
            let shape = Numberlink::new(w, h, Vec::new());
            let filled = if trial % 10 == 0 {
                super::super::generate::fill(&shape, &mut r)
            } else {
                None
            };
            let p = match filled {
                Some(paths) => super::super::generate::puzzle_of(w, h, Rules::Flow, &paths),
                None => {
                    let mut cells: Vec<usize> = (0..w * h).collect();
                    cells.shuffle(&mut r);
                    let k = 1 + trial % 3;
                    let ends = (0..k).map(|i| (cells[2 * i], cells[2 * i + 1])).collect();
                    Numberlink::new(w, h, ends)
                }
            };
            let want = brute(&p);
            if want == 0 && trial % 20 != 1 {
                continue;
            }
            let folded = puzzle::count(&p, &SolverChoice::Embedded, 100_000).unwrap();
            assert_eq!(folded.len(), want, "{w}x{h} {:?}", p.ends);
            assert_eq!(count_assumed(&p), want, "assumed {w}x{h} {:?}", p.ends);
            solvable += usize::from(want > 0);
        }
        // Flow solutions of boards this small are nearly always unique.
        assert!(solvable >= 150, "only {solvable} solvable boards");
    }

    #[test]
    fn binary_labels_count_what_one_hot_labels_count() {
        // The solving model (binary labels under flow and cover, ends folded) and the one-hot
        // model must have the same solutions, decoded to the same paths, on random boards:
        // filled ones (solvable) and random ends (mostly not), lazy and exact loops.
        let all = |p: &Numberlink, code: LabelCode| -> Vec<Vec<u32>> {
            let m = build(p, GivenMode::Fold, false, true, code);
            let refine = |a: &Assignment| p.refine(&m, a);
            let mut paths: Vec<Vec<u32>> = crate::solver::Session::new(
                SolverChoice::Embedded.backend(),
                &m.formula,
                m.answer.clone(),
                m.one_hot,
            )
            .with_distinct(m.map.distinct)
            .with_refine(&refine)
            .into_solutions(10_000, &[])
            .unwrap()
            .iter()
            .map(|a| {
                let s = decode(p, &m.map, a);
                assert_eq!(p.check(&s), Ok(()), "{code:?} {:?}", p.ends);
                s.path
                    .iter()
                    .zip(&s.arms)
                    .map(|(&k, &a)| k * 16 + a as u32)
                    .collect()
            })
            .collect();
            crate::sort::all(&mut paths);
            paths
        };
        let mut r = rng(17);
        let mut solutions = 0;
        for trial in 0..240 {
            let (w, h) = [(4, 4), (5, 4), (5, 5), (6, 5)][trial % 4];
            let shape = Numberlink::new(w, h, Vec::new());
            let filled = (trial % 3 == 0)
                .then(|| super::super::generate::fill(&shape, &mut r))
                .flatten();
            let base = match filled {
                Some(paths) => super::super::generate::puzzle_of(w, h, Rules::Flow, &paths),
                None => {
                    let mut cells: Vec<usize> = (0..w * h).collect();
                    cells.shuffle(&mut r);
                    let k = 1 + trial % 4;
                    let ends = (0..k).map(|i| (cells[2 * i], cells[2 * i + 1])).collect();
                    Numberlink::new(w, h, ends)
                }
            };
            for rules in [Rules::Flow, Rules::Cover] {
                let loops = [Loops::Lazy, Loops::Exact][trial / 4 % 2];
                let p = Numberlink {
                    rules,
                    loops,
                    ..base.clone()
                };
                let binary = all(&p, LabelCode::Binary);
                assert_eq!(binary, all(&p, LabelCode::OneHot), "{rules:?} {:?}", p.ends);
                solutions += binary.len();
            }
        }
        assert!(solutions >= 100, "only {solutions} solutions");
        // The solving model really is the binary one, and smaller.
        let p = Numberlink::new(4, 4, vec![(0, 3), (4, 7), (8, 11), (12, 15)]);
        let binary = build(&p, GivenMode::Fold, false, true, LabelCode::Binary);
        let one_hot = build(&p, GivenMode::Fold, false, true, LabelCode::OneHot);
        assert!(binary
            .map
            .labels
            .iter()
            .all(|l| !matches!(l, CellLabel::Var(_))));
        assert!(binary.formula.num_clauses() < one_hot.formula.num_clauses());
    }

    #[test]
    fn nikoli_normal_form_keeps_a_solution_and_the_verdict() {
        // The normal form may drop solutions but never all of them, and the verdict (found
        // first in the normal form, then without it) must match the real count. Boards up to
        // 5x4 with 1 to 5 paths at random ends: none, one or several solutions.
        let mut r = rng(23);
        let mut seen = [0; 3];
        for trial in 0..800 {
            let (w, h) = [(4, 4), (5, 4), (4, 3), (3, 5)][trial % 4];
            let mut cells: Vec<usize> = (0..w * h).collect();
            cells.shuffle(&mut r);
            let k = 1 + trial % 5;
            let ends = (0..k).map(|i| (cells[2 * i], cells[2 * i + 1])).collect();
            let p = Numberlink {
                rules: Rules::Nikoli,
                ..Numberlink::new(w, h, ends)
            };
            let want = brute(&p).min(2);
            let got = match puzzle::verdict(&p, &SolverChoice::Embedded).unwrap() {
                Solutions::None => 0,
                Solutions::Unique(_) => 1,
                Solutions::Multiple(..) => 2,
            };
            assert_eq!(got, want, "{w}x{h} {:?}", p.ends);
            let one = puzzle::solve(&p, &SolverChoice::Embedded).unwrap();
            assert_eq!(one.is_some(), want > 0, "{w}x{h} {:?}", p.ends);
            seen[want] += 1;
        }
        // Unique ones are rare at random (a path with room beside it can make a detour).
        assert!(
            seen[0] >= 100 && seen[1] >= 5 && seen[2] >= 100,
            "none/unique/several: {seen:?}"
        );
    }

    #[test]
    fn a_loop_beside_the_solution_is_not_a_second_solution() {
        // 4x3 under nikoli: ends side by side at the top; the solution links them and
        // leaves the rest empty or detours. The empty 4x2 below fits a detached ring,
        // which the local clauses allow: the verdict must still count real solutions only.
        let p = Numberlink {
            rules: Rules::Nikoli,
            ..Numberlink::new(2, 3, vec![(0, 1)])
        };
        // Real solutions: direct link, or the detours r1c1-r2c1-r2c2-r1c2 and via row 3.
        let sols = puzzle::count(&p, &SolverChoice::Embedded, 100).unwrap();
        assert_eq!(sols.len(), brute(&p));
        assert_eq!(sols.len(), 3);
        // Under flow the 2x3 board has exactly one solution; with a ring below the direct
        // link possible in the local clauses, uniqueness still holds.
        let q = Numberlink::new(2, 3, vec![(0, 1), (2, 4)]);
        let q = Numberlink {
            rules: Rules::Cover,
            ..q
        };
        assert!(matches!(
            puzzle::verdict(&q, &SolverChoice::Embedded).unwrap(),
            Solutions::Unique(_)
        ));
    }

    #[test]
    fn the_flow_rule_between_free_cells_is_cut_where_a_model_breaks_it() {
        // With binary labels, "two neighbouring cells of one path are linked" between free
        // cells is not in the CNF under flow: `flow_cuts` adds it where a model breaks it. On
        // each board, every model found with loop cuts alone is either a flow solution or
        // breaks the rule, and then `flow_cuts` names a clause; the flow solutions are the
        // brute-force count. rules.txt (1 solution under flow, 17 under cover; the corner
        // chains leave no other model), then random boards up to 6x6.
        let mut boards = vec![Numberlink::new(
            6,
            6,
            vec![(0, 10), (5, 13), (9, 16), (27, 31), (29, 35)],
        )];
        let mut r = rng(17);
        for trial in 0..400 {
            let (w, h) = [(4, 4), (5, 4), (5, 5), (6, 5)][trial % 4];
            let mut cells: Vec<usize> = (0..w * h).collect();
            cells.shuffle(&mut r);
            let k = 1 + trial % 4;
            let ends = (0..k).map(|i| (cells[2 * i], cells[2 * i + 1])).collect();
            boards.push(Numberlink::new(w, h, ends));
        }
        let mut broken = 0;
        for p in &boards {
            let m = p.model(GivenMode::Fold, false);
            assert!(m.map.lazy_flow);
            let loops_only = |a: &Assignment| loop_cuts(p, &m.map, a);
            let all = crate::solver::Session::new(
                SolverChoice::Embedded.backend(),
                &m.formula,
                m.answer.clone(),
                m.one_hot,
            )
            .with_distinct(p.distinct(&m))
            .with_refine(&loops_only)
            .into_solutions(100_000, &[])
            .unwrap();
            let mut kept = 0;
            for a in &all {
                let breaks = p.check(&decode(p, &m.map, a)).is_err();
                assert_eq!(breaks, !flow_cuts(p, &m.map, a).is_empty(), "{:?}", p.ends);
                kept += usize::from(!breaks);
                broken += usize::from(breaks);
            }
            assert_eq!(kept, brute(p), "{:?}", p.ends);
            assert_eq!(
                puzzle::count(p, &SolverChoice::Embedded, 100_000)
                    .unwrap()
                    .len(),
                kept
            );
        }
        // Search rarely meets such a model (none on these boards; one solve of the 270 Janko
        // puzzles), so the cut is also checked on the 17 cover solutions of rules.txt, written
        // as assignments of the flow model: those with two free cells of one path side by side
        // and unlinked get cuts they falsify (the rule beside an end is in the CNF), the
        // others none.
        let p = &boards[0];
        let m = p.model(GivenMode::Fold, false);
        let cover = Numberlink {
            rules: Rules::Cover,
            ..p.clone()
        };
        let sols = puzzle::count(&cover, &SolverChoice::Embedded, 100).unwrap();
        let mut cut = 0;
        for s in &sols {
            let mut values = vec![false; m.formula.num_vars()];
            for c in 0..p.cells() {
                for (side, link) in [(RIGHT, m.map.right[c]), (super::super::DOWN, m.map.down[c])] {
                    if let Some(e) = link {
                        values[e.index()] = s.arms[c] & side != 0;
                    }
                }
                if let CellLabel::Code { dom, .. } = m.map.labels[c] {
                    let bits = m.map.bits(&m.map.labels[c]);
                    let v = m.map.domains[dom as usize]
                        .binary_search(&s.path[c])
                        .expect("the cell's path is in its domain");
                    for (i, b) in bits.iter().enumerate() {
                        values[b.var().index()] = (v >> (bits.len() - 1 - i)) & 1 == 1;
                    }
                }
            }
            let a = Assignment::new(values);
            let cuts = flow_cuts(p, &m.map, &a);
            let free = |c: usize| matches!(m.map.labels[c], CellLabel::Code { .. });
            let breaks = (0..p.cells()).any(|c| {
                [RIGHT, super::super::DOWN].into_iter().any(|side| {
                    p.neighbour(c, side).is_some_and(|n| {
                        free(c) && free(n) && s.path[c] == s.path[n] && s.arms[c] & side == 0
                    })
                })
            });
            assert_eq!(!cuts.is_empty(), breaks);
            assert!(!breaks || p.check(s).is_err());
            for c in &cuts {
                assert!(c.iter().all(|&l| !a.lit(l)), "a cut the model keeps: {c:?}");
            }
            cut += usize::from(!cuts.is_empty());
        }
        assert_eq!((sols.len(), cut), (17, 8));
        assert_eq!(
            broken, 0,
            "a model broke the rule here: update the comment above"
        );
    }

    #[test]
    fn the_assume_model_under_a_set_of_givens_is_the_puzzle_that_keeps_them() {
        // The warm refutation search asks one Assume model under each set of givens, with the
        // normal form's selector when the set leaves a given out. On random small boards under
        // every rule set, for every set of givens, one warm session (its loop cuts kept from
        // set to set) must answer as brute force on the puzzle that keeps them (`keeping`):
        // with the givens left out assumed false, and left free.
        use crate::solver::{Outcome, Session};
        let mut r = rng(38);
        let mut sets = 0;
        for trial in 0..120 {
            let rules = [Rules::Flow, Rules::Cover, Rules::Nikoli][trial % 3];
            let p = Numberlink {
                rules,
                ..random_board(&mut r, trial, 2 + trial % 3)
            };
            let m = p.model(GivenMode::Assume, false);
            assert_eq!(m.normal.len(), 1, "the normal form's selector");
            let refine = |a: &Assignment| p.refine(&m, a);
            let mut s = Session::new(
                SolverChoice::Embedded.backend(),
                &m.formula,
                m.answer.clone(),
                m.one_hot,
            )
            .with_refine(&refine);
            let n = m.givens.len();
            for bits in 0..1u32 << n {
                let keep: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
                let want = brute(&p.keeping(&keep).expect("numberlink keeps")) > 0;
                for free in [false, true] {
                    let mut lits: Vec<Lit> = (0..n)
                        .filter(|&i| keep[i] || !free)
                        .map(|i| m.givens[i].lit.var().lit(keep[i]))
                        .collect();
                    if keep.contains(&false) {
                        lits.extend(&m.normal);
                    }
                    let got = match s.solve(&lits).unwrap() {
                        Outcome::Sat(a) => {
                            assert!(lits.iter().all(|&l| a.lit(l)));
                            true
                        }
                        Outcome::Unsat(core) => {
                            assert!(core.iter().all(|l| lits.contains(l)));
                            false
                        }
                    };
                    assert_eq!(
                        got, want,
                        "{:?} {rules:?} keep {keep:?} free {free}",
                        p.ends
                    );
                }
                sets += 1;
            }
        }
        assert!(sets > 1000, "{sets} sets");
    }

    #[test]
    fn conflicting_givens_conflict_and_are_minimal_by_brute_force() {
        // Random small boards without a solution, under every rule set: the named givens
        // (coverage, paths) must have no solution by brute force on their own (the puzzle
        // that keeps them: `keeping`, an open board unless every given is named), and
        // without any one of them the rest must have one. This checks the search (the
        // Assume model under assumptions, and the kept puzzles solved folded) against the
        // rules alone.
        let mut r = rng(37);
        let mut checked = 0;
        for trial in 0..400 {
            let rules = [Rules::Flow, Rules::Cover, Rules::Nikoli][trial % 3];
            let p = Numberlink {
                rules,
                ..random_board(&mut r, trial, 2 + trial % 3)
            };
            if brute(&p) > 0 {
                assert_eq!(
                    puzzle::conflicts(&p, &SolverChoice::Embedded).unwrap(),
                    None
                );
                continue;
            }
            let names = puzzle::conflicts(&p, &SolverChoice::Embedded)
                .unwrap()
                .expect("no solution");
            let labels = crate::puzzle::given_labels(&p);
            let keep: Vec<bool> = labels.iter().map(|l| names.contains(l)).collect();
            let sub = |keep: &[bool]| p.keeping(keep).expect("numberlink keeps");
            assert_eq!(brute(&sub(&keep)), 0, "{:?} {rules:?}: {names:?}", p.ends);
            for i in (0..keep.len()).filter(|&i| keep[i]) {
                let mut less = keep.clone();
                less[i] = false;
                assert!(
                    brute(&sub(&less)) > 0,
                    "{:?} {rules:?}: {names:?} without {}",
                    p.ends,
                    labels[i]
                );
            }
            checked += 1;
        }
        assert!(checked > 60, "{checked} boards without a solution");
    }

    #[test]
    fn decoded_solutions_pass_the_checker_and_conflicts_name_paths() {
        let p = Numberlink::new(3, 2, vec![(0, 2), (3, 5)]);
        let s = puzzle::solve(&p, &SolverChoice::Embedded).unwrap().unwrap();
        assert_eq!(s.arms[0], RIGHT);
        assert_eq!(p.rows(&s), vec![vec![1, 1, 1], vec![2, 2, 2]]);
        // Two paths that must cross: both givens conflict.
        let x = Numberlink::new(3, 3, vec![(1, 7), (3, 5)]);
        let c = puzzle::conflicts(&x, &SolverChoice::Embedded)
            .unwrap()
            .unwrap();
        assert_eq!(c, vec!["1:r1c2-r3c2", "2:r2c1-r2c3"]);
        // One path corner to corner on 3x3 can cover every cell, but not without running
        // alongside itself: under flow, coverage and the path conflict.
        let y = Numberlink::new(3, 3, vec![(0, 2)]);
        let c = puzzle::conflicts(&y, &SolverChoice::Embedded)
            .unwrap()
            .unwrap();
        assert_eq!(c, vec!["covered", "1:r1c1-r1c3"]);
        let y = Numberlink {
            rules: Rules::Cover,
            ..y
        };
        assert!(puzzle::solve(&y, &SolverChoice::Embedded)
            .unwrap()
            .is_some());
        // Forced cells of a puzzle with several solutions: the ends' neighbours here.
        let z = Numberlink {
            rules: Rules::Nikoli,
            ..Numberlink::new(3, 1, vec![(0, 2)])
        };
        let f = puzzle::forced(&z, &SolverChoice::Embedded)
            .unwrap()
            .unwrap();
        assert_eq!(
            f,
            vec![CellValue {
                row: 0,
                col: 1,
                value: 1
            }]
        );
    }
}
