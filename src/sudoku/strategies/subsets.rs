//! Subsets in one unit. Naked: k cells whose candidates together are k values, so those values
//! leave the unit's other cells (and the other unit the cells share: a locked pair/triple).
//! Hidden: k values whose places together are k cells, so those cells lose their other
//! candidates. The "direct" hidden pair/triple leaves a hidden single at once.

use super::grid::{bits, digit_list, subsets, Board, Found};
use super::rating::base;
use super::singles::created_hidden_single;

const NAKED: [&str; 5] = ["", "", "naked pair", "naked triple", "naked quad"];
const LOCKED: [&str; 4] = ["", "", "locked pair", "locked triple"];
const HIDDEN: [&str; 5] = ["", "", "hidden pair", "hidden triple", "hidden quad"];

fn naked_rating(k: usize) -> f64 {
    [
        0.0,
        0.0,
        base::NAKED_PAIR,
        base::NAKED_TRIPLE,
        base::NAKED_QUAD,
    ][k]
}

fn hidden_rating(k: usize) -> f64 {
    [
        0.0,
        0.0,
        base::HIDDEN_PAIR,
        base::HIDDEN_TRIPLE,
        base::HIDDEN_QUAD,
    ][k]
}

/// Naked subsets of size `k` (2..=4).
pub fn naked(b: &Board, f: &mut Found, k: usize) {
    let g = &b.geo;
    for u in 0..3 * g.n {
        let cells: Vec<usize> = g.units[u]
            .iter()
            .copied()
            .filter(|&i| b.values[i] == 0 && (2..=k as u32).contains(&b.masks[i].count_ones()))
            .collect();
        let stop = subsets(&cells, k, &mut |set| {
            let m = set.iter().fold(0u64, |m, &i| m | b.masks[i]);
            if m.count_ones() as usize != k {
                return false;
            }
            // Every unit all the cells share (a line and a box for a locked subset).
            let shared: Vec<usize> = (0..3)
                .map(|x| g.cell_units[set[0]][x])
                .filter(|&v| set.iter().all(|&i| g.cell_units[i].contains(&v)))
                .collect();
            // Report each subset once: from the first unit (row, column, box) it lies in.
            if shared[0] != u {
                return false;
            }
            let mut elims = Vec::new();
            let mut units_hit = 0;
            for &v in &shared {
                let before = elims.len();
                let others: Vec<usize> = g.units[v]
                    .iter()
                    .copied()
                    .filter(|i| !set.contains(i))
                    .collect();
                for (i, d) in b.present(&others, m) {
                    if !elims.contains(&(i, d)) {
                        elims.push((i, d));
                    }
                }
                units_hit += usize::from(elims.len() > before);
            }
            if elims.is_empty() {
                // Found::push would drop it: no text for it.
                return false;
            }
            let locked = k <= 3 && shared.len() == 2 && units_hit == 2;
            let name = if locked { LOCKED[k] } else { NAKED[k] };
            let where_ = shared
                .iter()
                .map(|&v| g.unit_name(v))
                .collect::<Vec<_>>()
                .join(" and ");
            let text = format!(
                "{name} {} in {where_} ({}) {}",
                digit_list(m, "/"),
                g.cell_list(set),
                b.elim_text(&elims)
            );
            f.push(b.step(name, naked_rating(k), b.cands_cv(set, m), &[], &elims, text))
        });
        if stop {
            return;
        }
    }
}

/// Hidden subsets of size `k` (2..=4); `direct` keeps only pairs/triples whose removals leave a
/// hidden single, and places it.
pub fn hidden(b: &Board, f: &mut Found, k: usize, direct: bool) {
    let g = &b.geo;
    let n = g.n;
    for u in 0..3 * n {
        let open = g.units[u].iter().filter(|&&i| b.values[i] == 0).count();
        if open <= k {
            continue;
        }
        let ds: Vec<u8> = (1..=n as u8)
            .filter(|&d| (2..=k as u32).contains(&b.places(u, d).count_ones()))
            .collect();
        let stop = subsets(&ds, k, &mut |set| {
            let places = set.iter().fold(0u64, |m, &d| m | b.places(u, d));
            if places.count_ones() as usize != k {
                return false;
            }
            let m = set.iter().fold(0u64, |m, &d| m | super::grid::bit(d));
            let cells: Vec<usize> = bits(places).map(|p| g.cell_at(u, p)).collect();
            let elims = b.present(&cells, !m);
            if elims.is_empty() {
                return false;
            }
            // A direct subset without its hidden single is no step (checked before any text).
            let single = if direct {
                match created_hidden_single(b, &elims, &[u]) {
                    Some(s) => Some(s),
                    None => return false,
                }
            } else {
                None
            };
            let mut text = format!(
                "{} {} in {} ({}) removes {} from them",
                HIDDEN[k],
                digit_list(m, "/"),
                g.unit_name(u),
                g.cell_list(&cells),
                digit_list(
                    elims
                        .iter()
                        .fold(0u64, |a, &(_, d)| a | super::grid::bit(d)),
                    ", "
                )
            );
            let mut placements = Vec::new();
            let (name, rating) = if let Some((i, v, w)) = single {
                placements.push((i, v));
                text.push_str(&format!(
                    "; then {}={v} is the only place for {v} in {}",
                    g.cell_name(i),
                    g.unit_name(w)
                ));
                if k == 2 {
                    ("direct hidden pair", base::DIRECT_HIDDEN_PAIR)
                } else {
                    ("direct hidden triple", base::DIRECT_HIDDEN_TRIPLE)
                }
            } else {
                (HIDDEN[k], hidden_rating(k))
            };
            f.push(b.step(
                name,
                rating,
                b.cands_cv(&cells, m),
                &placements,
                &elims,
                text,
            ))
        });
        if stop {
            return;
        }
    }
}
