//! Fish of every shape, for one value: k base units whose places the value must take, k cover
//! units that hold every one of those places but a few (the fins). Without fins the value leaves
//! the cover units outside the base; with fins, one of the fins may hold it instead, so only
//! the cover places that see every fin lose it.
//!
//! - finned / sashimi: rows against columns (or columns against rows), with fins (sashimi when
//!   a base row keeps one place or none once its fins are set aside);
//! - Franken: rows and boxes against columns and boxes (or columns and boxes against rows and
//!   boxes);
//! - mutant: any units against any units.
//!
//! Base units may overlap (their common places are endo fins); a base place in two cover units
//! (cannibalism) goes too when it sees every fin. Siamese fish join two fish on the same base
//! units whose eliminations differ. HoDoKu names the shapes so; its regression library checks
//! them. Cell sets are 128-bit masks, so these fish are looked for on grids up to 11x11.

use super::grid::{bit, Board, Found};
use super::rating::base;
use crate::explain::Step;
use std::collections::HashSet;

/// Which units base and cover sets may take.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shape {
    /// Rows against columns, columns against rows.
    Basic,
    /// Rows and boxes against columns and boxes (and the other way).
    Franken,
    /// Any units against any units.
    Mutant,
}

/// The most fins (exo and endo together) a fish may have.
const MAX_FINS: u32 = 5;
/// The most endo fins.
const MAX_ENDO: u32 = 2;

const SIZE_NAMES: [&str; 8] = [
    "",
    "",
    "X-Wing",
    "Swordfish",
    "Jellyfish",
    "Squirmbag",
    "Whale",
    "Leviathan",
];

/// The cells of a 128-bit set, lowest first.
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

/// One fish found.
#[derive(Clone, Debug)]
pub struct Fish {
    pub digit: u8,
    pub base: Vec<usize>,
    pub cover: Vec<usize>,
    /// Base places outside the cover, and endo fins.
    pub fins: u128,
    pub endo: u128,
    /// Every base place.
    pub body: u128,
    pub eliminations: Vec<(usize, u8)>,
}

/// What the search reads: per unit the places of the value as a cell set, and every cell's
/// peers as a set.
struct Sets {
    unit: Vec<u128>,
    peers: Vec<u128>,
    /// Every place of the value.
    all: u128,
}

fn sets(b: &Board, d: u8) -> Sets {
    let g = &b.geo;
    let unit: Vec<u128> = (0..3 * g.n)
        .map(|u| {
            b.cells_for(u, d)
                .into_iter()
                .fold(0u128, |m, i| m | (1u128 << i))
        })
        .collect();
    let peers = (0..g.n * g.n)
        .map(|i| g.peers[i].iter().fold(0u128, |m, &j| m | (1u128 << j)))
        .collect();
    let all = unit.iter().fold(0u128, |m: u128, &u| m | u);
    Sets { unit, peers, all }
}

/// Every fish of `size` and `shape` on every value (`each` gets them; true stops).
pub fn each_fish(b: &Board, size: usize, shape: Shape, each: &mut dyn FnMut(Fish) -> bool) {
    let g = &b.geo;
    let n = g.n;
    if n * n > 128 {
        return;
    }
    let rows: Vec<usize> = (0..n).collect();
    let cols: Vec<usize> = (n..2 * n).collect();
    let boxes: Vec<usize> = (2 * n..3 * n).collect();
    let all: Vec<usize> = (0..3 * n).collect();
    let orientations: Vec<(Vec<usize>, Vec<usize>)> = match shape {
        Shape::Basic => vec![(rows.clone(), cols.clone()), (cols, rows)],
        Shape::Franken => vec![
            (
                [rows.clone(), boxes.clone()].concat(),
                [cols.clone(), boxes.clone()].concat(),
            ),
            ([cols, boxes.clone()].concat(), [rows, boxes].concat()),
        ],
        Shape::Mutant => vec![(all.clone(), all)],
    };
    let mut seen: HashSet<(u8, Vec<usize>, Vec<usize>)> = HashSet::new();
    for d in 1..=n as u8 {
        let s = sets(b, d);
        for (base_units, cover_units) in &orientations {
            let usable: Vec<usize> = base_units
                .iter()
                .copied()
                .filter(|&u| s.unit[u] != 0)
                .collect();
            let stop = super::grid::subsets(&usable, size, &mut |base| {
                let mut body = 0u128;
                let mut endo = 0u128;
                for &u in base {
                    endo |= body & s.unit[u];
                    body |= s.unit[u];
                }
                if endo.count_ones() > MAX_ENDO {
                    return false;
                }
                // Where an elimination could still be: the value's places seeing every fin.
                let mut reach = s.all;
                for i in cells(endo) {
                    reach &= s.peers[i];
                }
                if reach == 0 {
                    return false;
                }
                let mut cover = Vec::with_capacity(size);
                let mut found = Vec::new();
                covers(
                    &s,
                    g,
                    cover_units,
                    base,
                    (body, endo),
                    0,
                    (0, reach),
                    size,
                    &mut cover,
                    &mut found,
                );
                for (cover, fins) in found {
                    let mut key_cover = cover.clone();
                    crate::sort::all(&mut key_cover);
                    if !seen.insert((d, base.to_vec(), key_cover.clone())) {
                        continue;
                    }
                    if let Some(f) = eliminations(&s, d, base, &key_cover, body, endo, fins) {
                        if each(f) {
                            return true;
                        }
                    }
                }
                false
            });
            if stop {
                return;
            }
        }
    }
}

/// Chooses cover units: the lowest base place not yet covered (nor set aside as a fin) is
/// covered by one of its units, or becomes a fin. `found` gets (covers, fins) with `size`
/// covers.
#[allow(clippy::too_many_arguments)]
fn covers(
    s: &Sets,
    g: &super::grid::Geometry,
    cover_units: &[usize],
    base: &[usize],
    (body, endo): (u128, u128),
    covered: u128,
    (fins, reach): (u128, u128),
    size: usize,
    cover: &mut Vec<usize>,
    found: &mut Vec<(Vec<usize>, u128)>,
) {
    let open = body & !covered & !fins & !endo;
    if open == 0 {
        if cover.len() == size {
            found.push((cover.clone(), (body & !covered) | endo));
        }
        return;
    }
    let i = open.trailing_zeros() as usize;
    if cover.len() < size {
        for &u in &g.cell_units[i] {
            if !cover_units.contains(&u) || base.contains(&u) || cover.contains(&u) {
                continue;
            }
            cover.push(u);
            covers(
                s,
                g,
                cover_units,
                base,
                (body, endo),
                covered | s.unit[u],
                (fins, reach),
                size,
                cover,
                found,
            );
            cover.pop();
        }
    }
    // As a fin: something must still see every fin.
    let (fins, reach) = (fins | (1u128 << i), reach & s.peers[i]);
    if (fins | endo).count_ones() <= MAX_FINS && reach != 0 {
        covers(
            s,
            g,
            cover_units,
            base,
            (body, endo),
            covered,
            (fins, reach),
            size,
            cover,
            found,
        );
    }
}

/// The eliminations of a fish: cover places outside the base, and base places in two cover
/// units (cannibalism), that see every fin.
fn eliminations(
    s: &Sets,
    d: u8,
    base: &[usize],
    cover: &[usize],
    body: u128,
    endo: u128,
    fins: u128,
) -> Option<Fish> {
    let mut union = 0u128;
    let mut twice = 0u128;
    for &u in cover {
        twice |= union & s.unit[u];
        union |= s.unit[u];
    }
    let mut target = (union & !body) | (twice & body & !fins);
    for f in cells(fins) {
        target &= s.peers[f];
    }
    if target == 0 {
        return None;
    }
    Some(Fish {
        digit: d,
        base: base.to_vec(),
        cover: cover.to_vec(),
        fins,
        endo,
        body,
        eliminations: cells(target).map(|i| (i, d)).collect(),
    })
}

/// The name of a fish as HoDoKu gives it.
pub fn name(b: &Board, f: &Fish) -> String {
    let g = &b.geo;
    let k = f.base.len();
    let size = SIZE_NAMES.get(k).copied().unwrap_or("fish");
    let lines = |units: &[usize]| -> (bool, bool, bool) {
        (
            units.iter().any(|&u| u < g.n),
            units.iter().any(|&u| (g.n..2 * g.n).contains(&u)),
            units.iter().any(|&u| u >= 2 * g.n),
        )
    };
    let (br, bc, bb) = lines(&f.base);
    let (cr, cc, cb) = lines(&f.cover);
    let shape = if (br || cc) && (bc || cr) {
        "mutant "
    } else if bb || cb {
        "Franken "
    } else {
        ""
    };
    if f.fins == 0 {
        return format!("{shape}{size}");
    }
    // Sashimi: a base line left with one place or none once the fins are set aside.
    let sashimi = shape.is_empty()
        && f.base.iter().any(|&u| {
            let places = g.units[u]
                .iter()
                .filter(|&&i| f.body & (1u128 << i) != 0 && f.fins & (1u128 << i) == 0)
                .count();
            places <= 1
        });
    let kind = if sashimi { "sashimi" } else { "finned" };
    format!("{kind} {shape}{size}")
}

fn units(b: &Board, us: &[usize]) -> String {
    us.iter()
        .map(|&u| b.geo.unit_name(u))
        .collect::<Vec<_>>()
        .join(", ")
}

fn rating(f: &Fish, shape: Shape) -> f64 {
    let k = f.base.len();
    let plain = match k {
        2 => base::X_WING,
        3 => base::SWORDFISH,
        _ => base::JELLYFISH,
    };
    let fins = if f.fins == 0 { 0.0 } else { 0.2 };
    let extra = match shape {
        Shape::Basic => 0.0,
        Shape::Franken => 0.3,
        Shape::Mutant => 0.6,
    };
    plain + fins + extra + 0.2 * k.saturating_sub(4) as f64
}

/// The step of a fish.
pub fn to_step(b: &Board, f: &Fish, shape: Shape) -> Step {
    let name = name(b, f);
    let fins: Vec<usize> = cells(f.fins).collect();
    let fin_text = if fins.is_empty() {
        String::new()
    } else {
        format!(" fins {};", b.geo.cell_list(&fins))
    };
    let text = format!(
        "{name} on {}: base {}; cover {};{fin_text} {}",
        f.digit,
        units(b, &f.base),
        units(b, &f.cover),
        b.elim_text(&f.eliminations)
    );
    let body: Vec<usize> = cells(f.body).collect();
    b.step(
        &name,
        rating(f, shape),
        b.cands_cv(&body, bit(f.digit)),
        &[],
        &f.eliminations,
        text,
    )
}

/// Fish of one size and shape with at least one fin (finned and sashimi for [`Shape::Basic`]),
/// or any fish for the other shapes.
pub fn find(b: &Board, f: &mut Found, size: usize, shape: Shape) {
    each_fish(b, size, shape, &mut |fish| {
        if shape == Shape::Basic && fish.fins == 0 {
            return false;
        }
        let s = to_step(b, &fish, shape);
        f.push(s)
    });
}

/// Siamese fish: two fish of one value on the same base units with different eliminations,
/// shown as one step that makes both.
pub fn siamese(b: &Board, f: &mut Found, size: usize, shape: Shape) {
    let mut all: Vec<Fish> = Vec::new();
    each_fish(b, size, shape, &mut |fish| {
        if fish.fins != 0 {
            all.push(fish);
        }
        false
    });
    for (x, p) in all.iter().enumerate() {
        for q in &all[x + 1..] {
            if p.digit != q.digit || p.base != q.base || p.eliminations == q.eliminations {
                continue;
            }
            let mut el = p.eliminations.clone();
            el.extend(&q.eliminations);
            crate::sort::all(&mut el);
            el.dedup();
            let name = format!("siamese {}", name(b, p));
            let text = format!(
                "{name} on {}: base {}; covers {} and {}; {}",
                p.digit,
                units(b, &p.base),
                units(b, &p.cover),
                units(b, &q.cover),
                b.elim_text(&el)
            );
            let body: Vec<usize> = cells(p.body).collect();
            let s = b.step(
                &name,
                rating(p, shape),
                b.cands_cv(&body, bit(p.digit)),
                &[],
                &el,
                text,
            );
            if f.push(s) {
                return;
            }
        }
    }
}
