//! Wings: short patterns of bivalue cells. XY-Wing (a pivot x/y seeing pincers x/z and y/z:
//! z leaves every cell that sees both pincers), XYZ-Wing (pivot x/y/z: z leaves the cells that
//! see all three), W-Wing (two x/y cells joined by a strong link on x: y leaves the cells that
//! see both).

use super::grid::{bit, digits, Board, Found};
use super::rating::{base, length_bonus};

fn pair_text(b: &Board, i: usize) -> String {
    format!(
        "{} ({})",
        b.geo.cell_name(i),
        super::grid::digit_list(b.masks[i], "/")
    )
}

/// XY-Wing (`with_z` false) or XYZ-Wing (`with_z` true).
fn wing(b: &Board, f: &mut Found, with_z: bool) {
    let g = &b.geo;
    let pivot_size = if with_z { 3 } else { 2 };
    for p in b.open() {
        let pm = b.masks[p];
        if pm.count_ones() != pivot_size {
            continue;
        }
        let pincers: Vec<usize> = g.peers[p]
            .iter()
            .copied()
            .filter(|&j| {
                let m = b.masks[j];
                m.count_ones() == 2
                    && if with_z {
                        m & pm == m
                    } else {
                        (m & pm).count_ones() == 1
                    }
            })
            .collect();
        for (k, &a) in pincers.iter().enumerate() {
            for &c in &pincers[k + 1..] {
                let (am, cm) = (b.masks[a], b.masks[c]);
                if am == cm {
                    continue;
                }
                let z = am & cm;
                if z.count_ones() != 1 {
                    continue;
                }
                let ok = if with_z {
                    (am | cm) == pm && pm & z != 0
                } else {
                    pm & z == 0 && (am | cm) & !z == pm
                };
                if !ok {
                    continue;
                }
                let d = z.trailing_zeros() as u8 + 1;
                let pattern_cells: Vec<usize> = if with_z { vec![p, a, c] } else { vec![a, c] };
                let elims: Vec<(usize, u8)> = g
                    .seen_by_all(&pattern_cells)
                    .into_iter()
                    .filter(|&j| j != p && b.has(j, d))
                    .map(|j| (j, d))
                    .collect();
                if elims.is_empty() {
                    continue;
                }
                let (name, rating) = if with_z {
                    ("XYZ-Wing", base::XYZ_WING)
                } else {
                    ("XY-Wing", base::XY_WING)
                };
                let text = format!(
                    "{name}: pivot {} with pincers {}, {} {}",
                    pair_text(b, p),
                    pair_text(b, a),
                    pair_text(b, c),
                    b.elim_text(&elims)
                );
                let s = b.step(name, rating, b.cells_cv(&[p, a, c]), &[], &elims, text);
                if f.push(s) {
                    return;
                }
            }
        }
    }
}

pub fn xy_wing(b: &Board, f: &mut Found) {
    wing(b, f, false)
}

pub fn xyz_wing(b: &Board, f: &mut Found) {
    wing(b, f, true)
}

/// W-Wing: two cells with the same two candidates x/y that do not see each other, and a unit
/// where x has exactly two places, one seen by each cell: one of the cells is y.
pub fn w_wing(b: &Board, f: &mut Found) {
    let g = &b.geo;
    let bivalue: Vec<usize> = b.open().filter(|&i| b.masks[i].count_ones() == 2).collect();
    let rating = base::AIC + length_bonus(6);
    let mut best: Option<(usize, crate::explain::Step)> = None;
    for (k, &a) in bivalue.iter().enumerate() {
        for &c in &bivalue[k + 1..] {
            if b.masks[a] != b.masks[c] || g.sees(a, c) {
                continue;
            }
            let m = b.masks[a];
            for x in digits(m) {
                let y = (m & !bit(x)).trailing_zeros() as u8 + 1;
                let elims: Vec<(usize, u8)> = g
                    .seen_by_all(&[a, c])
                    .into_iter()
                    .filter(|&j| b.has(j, y))
                    .map(|j| (j, y))
                    .collect();
                if elims.is_empty() {
                    continue;
                }
                for u in 0..3 * g.n {
                    let ends = b.cells_for(u, x);
                    if ends.len() != 2 || ends.contains(&a) || ends.contains(&c) {
                        continue;
                    }
                    let (e, h) = if g.sees(a, ends[0]) && g.sees(c, ends[1]) {
                        (ends[0], ends[1])
                    } else if g.sees(a, ends[1]) && g.sees(c, ends[0]) {
                        (ends[1], ends[0])
                    } else {
                        continue;
                    };
                    let text = format!(
                        "W-Wing: {} and {} joined by the strong link on {x} in {}: ({y}={x}){}-{}={}-({x}={y}){} {}",
                        pair_text(b, a),
                        pair_text(b, c),
                        g.unit_name(u),
                        g.cell_name(a),
                        g.cell_name(e),
                        g.cell_name(h),
                        g.cell_name(c),
                        b.elim_text(&elims)
                    );
                    let mut pattern = b.cands_cv(&[a, c], m);
                    pattern.extend(b.cands_cv(&[e, h], bit(x)));
                    let mut s = b.step("W-Wing", rating, pattern, &[], &elims, text);
                    s.links = [
                        ((a, y), (a, x), true),
                        ((a, x), (e, x), false),
                        ((e, x), (h, x), true),
                        ((h, x), (c, x), false),
                        ((c, x), (c, y), true),
                    ]
                    .iter()
                    .map(|&((i, u), (j, v), strong)| crate::explain::Link {
                        from: b.cv(i, u),
                        to: b.cv(j, v),
                        strong,
                    })
                    .collect();
                    if f.all {
                        f.push(s);
                        break;
                    }
                    // The first mode keeps the W-Wing that removes the most.
                    if best.as_ref().is_none_or(|(k, _)| elims.len() > *k) {
                        best = Some((elims.len(), s));
                    }
                    break;
                }
            }
        }
    }
    if let Some((_, s)) = best {
        f.push(s);
    }
}
