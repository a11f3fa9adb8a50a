//! Almost locked sets (ALS: N cells of one unit holding N+1 values together; a bivalue cell is
//! one). Take one value away and the rest are locked in the set.
//!
//! - ALS-XZ: two sets with a restricted common value x (every x of one sees every x of the
//!   other, so at most one set holds x): one of them is locked, so a value z of both leaves
//!   every cell that sees all the z of both. Two restricted commons (doubly linked): both sets
//!   are locked, and each one's other values leave the cells that see all of them.
//! - ALS-XY-Wing: A and B each share a restricted common with C (two different values): a value
//!   z of A and B leaves what sees all their z.
//! - ALS chain: sets one after the other, each pair with a restricted common that differs from
//!   the previous one; a value z of the first and last (not their commons) leaves what sees
//!   all their z.
//! - Death blossom: a stem cell whose every candidate d has a petal, an ALS whose d all see the
//!   stem; the stem takes one value, that petal is locked: a value z of every petal leaves what
//!   sees all their z (and the stem, when the stem holds z).

use super::grid::{bit, digit_list, digits, Board, Found};
use super::rating::base;
use std::collections::HashSet;

fn cells(mut m: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(b)
        }
    })
}

/// One almost locked set with, per value, the cells holding it and the cells seeing all of
/// them.
#[derive(Clone, Debug)]
pub struct Als {
    pub cells: u128,
    pub values: u64,
    holders: Vec<u128>,
    seen: Vec<u128>,
}

struct Ctx {
    peers: Vec<u128>,
    sets: Vec<Als>,
    /// Per value, the open cells holding it.
    hold: Vec<u128>,
}

fn context(b: &Board) -> Option<Ctx> {
    let g = &b.geo;
    let n = g.n;
    if n * n > 128 {
        return None;
    }
    let peers: Vec<u128> = (0..n * n)
        .map(|i| g.peers[i].iter().fold(0u128, |m, &j| m | (1u128 << j)))
        .collect();
    let mut hold = vec![0u128; n + 1];
    for i in b.open() {
        for d in digits(b.masks[i]) {
            hold[d as usize] |= 1u128 << i;
        }
    }
    let sets = super::grouped::almost_locked_sets(b)
        .into_iter()
        .map(|(c, m)| {
            let mut holders = vec![0u128; n + 1];
            let mut seen = vec![0u128; n + 1];
            for d in digits(m) {
                let h = c & hold[d as usize];
                holders[d as usize] = h;
                let mut s = u128::MAX;
                for i in cells(h) {
                    s &= peers[i];
                }
                seen[d as usize] = s & !c;
            }
            Als {
                cells: c,
                values: m,
                holders,
                seen,
            }
        })
        .collect();
    Some(Ctx { peers, sets, hold })
}

/// The restricted common values of two sets (that do not overlap where it matters): values of
/// both whose holders all see each other and lie outside the overlap.
fn rccs(a: &Als, c: &Als) -> u64 {
    let mut out = 0;
    for d in digits(a.values & c.values) {
        let (ha, hc) = (a.holders[d as usize], c.holders[d as usize]);
        if (ha | hc) & a.cells & c.cells != 0 {
            continue;
        }
        // Every holder in c sees every holder in a.
        if hc & !a.seen[d as usize] == 0 {
            out |= bit(d);
        }
    }
    out
}

fn als_text(b: &Board, a: &Als) -> String {
    let list: Vec<usize> = cells(a.cells).collect();
    format!(
        "{{{}}} ({})",
        b.geo.cell_list(&list).replace(", ", ","),
        digit_list(a.values, "")
    )
}

/// What z removes when it must be in one of `sets`: z in every cell that sees all their z.
fn common_z(ctx: &Ctx, sets: &[&Als], z: u8) -> u128 {
    let mut t = ctx.hold[z as usize];
    for a in sets {
        t &= a.seen[z as usize];
    }
    t
}

fn push(
    b: &Board,
    f: &mut Found,
    name: &str,
    rating: f64,
    sets: &[&Als],
    elims: Vec<(usize, u8)>,
    how: String,
) -> bool {
    let mut pattern = Vec::new();
    for a in sets {
        for i in cells(a.cells) {
            for d in digits(b.masks[i]) {
                pattern.push(b.cv(i, d));
            }
        }
    }
    let text = format!("{name}: {how} {}", b.elim_text(&elims));
    f.push(b.step(name, rating, pattern, &[], &elims, text))
}

/// ALS-XZ, singly and doubly linked (sets that do not overlap).
pub fn xz(b: &Board, f: &mut Found) {
    let Some(ctx) = context(b) else { return };
    let s = &ctx.sets;
    for x in 0..s.len() {
        for y in x + 1..s.len() {
            let (a, c) = (&s[x], &s[y]);
            if a.cells & c.cells != 0 {
                continue;
            }
            let r = rccs(a, c);
            if r == 0 {
                continue;
            }
            let mut el: Vec<(usize, u8)> = Vec::new();
            for z in digits(a.values & c.values & !r) {
                for i in cells(common_z(&ctx, &[a, c], z)) {
                    el.push((i, z));
                }
            }
            let doubly = r.count_ones() >= 2;
            if doubly {
                // Both sets locked: every value of one leaves what sees all of its holders;
                // a common restricted value leaves what sees all of it in both.
                for z in digits(r) {
                    for i in cells(common_z(&ctx, &[a, c], z)) {
                        el.push((i, z));
                    }
                }
                for (one, other) in [(a, c), (c, a)] {
                    for z in digits(one.values & !r) {
                        let t = ctx.hold[z as usize] & one.seen[z as usize] & !other.cells;
                        for i in cells(t) {
                            el.push((i, z));
                        }
                    }
                }
            }
            crate::sort::all(&mut el);
            el.dedup();
            if el.is_empty() {
                continue;
            }
            let how = format!(
                "A = {}, B = {}, restricted common {}{}",
                als_text(b, a),
                als_text(b, c),
                digit_list(r, ", "),
                if doubly { " (doubly linked)" } else { "" }
            );
            let rating = base::ALS_XZ + if doubly { 0.1 } else { 0.0 };
            if push(b, f, "ALS-XZ", rating, &[a, c], el, how) {
                return;
            }
        }
    }
}

/// ALS chains of three sets and more (`min_sets`..=`max_sets`): ALS-XY-Wing for three, ALS
/// chain beyond. `overlap` lets sets share cells outside their restricted commons.
pub fn chain(b: &Board, f: &mut Found, min_sets: usize, max_sets: usize, overlap: bool) {
    let Some(ctx) = context(b) else { return };
    let s = &ctx.sets;
    let k = s.len();
    // Restricted commons between every two sets.
    let mut links: Vec<Vec<(usize, u64)>> = vec![Vec::new(); k];
    for x in 0..k {
        for y in 0..k {
            if x == y || (!overlap && s[x].cells & s[y].cells != 0) {
                continue;
            }
            if s[x].cells & !s[y].cells == 0 || s[y].cells & !s[x].cells == 0 {
                continue;
            }
            let r = rccs(&s[x], &s[y]);
            if r != 0 {
                links[x].push((y, r));
            }
        }
    }
    let mut seen: HashSet<Vec<(usize, u8)>> = HashSet::new();
    let mut path: Vec<usize> = Vec::new();
    let mut via: Vec<u8> = Vec::new();
    #[allow(clippy::too_many_arguments)]
    fn go(
        b: &Board,
        f: &mut Found,
        ctx: &Ctx,
        links: &[Vec<(usize, u64)>],
        path: &mut Vec<usize>,
        via: &mut Vec<u8>,
        used: u128,
        min_sets: usize,
        max_sets: usize,
        overlap: bool,
        seen: &mut HashSet<Vec<(usize, u8)>>,
    ) -> bool {
        let s = &ctx.sets;
        let last = *path.last().unwrap();
        if path.len() >= min_sets {
            let (a, c) = (&s[path[0]], &s[last]);
            let (first_rc, last_rc) = (via[0], *via.last().unwrap());
            let mut el = Vec::new();
            for z in digits(a.values & c.values & !bit(first_rc) & !bit(last_rc)) {
                let t = common_z(ctx, &[a, c], z) & !used;
                for i in cells(t) {
                    el.push((i, z));
                }
            }
            crate::sort::all(&mut el);
            if !el.is_empty() && seen.insert(el.clone()) {
                let sets: Vec<&Als> = path.iter().map(|&p| &s[p]).collect();
                let mut how = String::new();
                for (q, &p) in path.iter().enumerate() {
                    if q > 0 {
                        how.push_str(&format!(" -{}- ", via[q - 1]));
                    }
                    how.push_str(&als_text(b, &s[p]));
                }
                let name = if path.len() == 3 {
                    "ALS-XY-Wing"
                } else {
                    "ALS chain"
                };
                let rating = base::ALS_XZ + 0.1 * (path.len() - 1) as f64;
                if push(b, f, name, rating, &sets, el, how) {
                    return true;
                }
            }
        }
        if path.len() == max_sets {
            return false;
        }
        for &(next, r) in &links[last] {
            if path.contains(&next) || (!overlap && s[next].cells & used != 0) {
                continue;
            }
            for x in digits(r) {
                if via.last() == Some(&x) {
                    continue;
                }
                path.push(next);
                via.push(x);
                let stop = go(
                    b,
                    f,
                    ctx,
                    links,
                    path,
                    via,
                    used | s[next].cells,
                    min_sets,
                    max_sets,
                    overlap,
                    seen,
                );
                path.pop();
                via.pop();
                if stop {
                    return true;
                }
            }
        }
        false
    }
    for (start, set) in s.iter().enumerate().take(k) {
        path.clear();
        via.clear();
        path.push(start);
        if go(
            b, f, &ctx, &links, &mut path, &mut via, set.cells, min_sets, max_sets, overlap,
            &mut seen,
        ) {
            return;
        }
    }
}

/// Death blossom: a stem cell and one petal per candidate. `overlap` lets petals share cells.
pub fn death_blossom(b: &Board, f: &mut Found, overlap: bool) {
    let Some(ctx) = context(b) else { return };
    let n = b.n();
    let s = &ctx.sets;
    for stem in b.open() {
        let m = b.masks[stem];
        if !(2..=4).contains(&m.count_ones()) {
            continue;
        }
        let sbit = 1u128 << stem;
        // Petals per stem value: sets without the stem whose d all see it.
        let petals: Vec<(u8, Vec<usize>)> = digits(m)
            .map(|d| {
                let list = (0..s.len())
                    .filter(|&k| {
                        let a = &s[k];
                        a.cells & sbit == 0
                            && a.values & bit(d) != 0
                            && a.holders[d as usize] & !ctx.peers[stem] == 0
                    })
                    .collect();
                (d, list)
            })
            .collect();
        // Per common value z: the cells that could still lose it (z of the stem: they must
        // see the stem, whose own petal for z is then not needed).
        let targets: Vec<u128> = (0..=n as u8)
            .map(|z| {
                if z == 0 {
                    0
                } else if m & bit(z) != 0 {
                    ctx.hold[z as usize] & ctx.peers[stem]
                } else {
                    ctx.hold[z as usize]
                }
            })
            .collect();
        let mut chosen: Vec<usize> = Vec::new();
        if pick(
            b,
            f,
            &ctx,
            &petals,
            stem,
            targets,
            sbit,
            overlap,
            &mut chosen,
        ) {
            return;
        }
    }
}

/// Chooses the petals one stem value after the other, narrowing each common value's targets;
/// with every petal chosen, the step removes every value's targets.
#[allow(clippy::too_many_arguments)]
fn pick(
    b: &Board,
    f: &mut Found,
    ctx: &Ctx,
    petals: &[(u8, Vec<usize>)],
    stem: usize,
    targets: Vec<u128>,
    used: u128,
    overlap: bool,
    chosen: &mut Vec<usize>,
) -> bool {
    if targets.iter().all(|&t| t & !used == 0) {
        return false;
    }
    let Some(((d, list), rest)) = petals.split_first() else {
        let mut el = Vec::new();
        for (z, &t) in targets.iter().enumerate() {
            for i in cells(t & !used) {
                el.push((i, z as u8));
            }
        }
        let sets: Vec<&Als> = chosen.iter().map(|&k| &ctx.sets[k]).collect();
        let names: Vec<String> = sets.iter().map(|a| als_text(b, a)).collect();
        let how = format!(
            "stem {} ({}), petals {}",
            b.geo.cell_name(stem),
            digit_list(b.masks[stem], ""),
            names.join(", ")
        );
        return push(b, f, "death blossom", base::ALS_XZ + 0.4, &sets, el, how);
    };
    for &k in list {
        let a = &ctx.sets[k];
        if !overlap && a.cells & used != 0 {
            continue;
        }
        let next: Vec<u128> = targets
            .iter()
            .enumerate()
            .map(|(z, &t)| {
                if z == 0 {
                    // Index 0 stands for no value (targets are indexed by value).
                    0
                } else if z as u8 == *d {
                    // The stem's own z: this petal is not needed for it.
                    t
                } else if a.values & bit(z as u8) != 0 {
                    t & a.seen[z]
                } else {
                    0
                }
            })
            .collect();
        chosen.push(k);
        let stop = pick(b, f, ctx, rest, stem, next, used | a.cells, overlap, chosen);
        chosen.pop();
        if stop {
            return true;
        }
    }
    false
}
