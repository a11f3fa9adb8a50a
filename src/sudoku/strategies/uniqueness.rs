//! Techniques that rely on the puzzle having one solution (used only once SAT has proven it).
//!
//! A unique rectangle: four open cells in two rows, two columns and two boxes. If all four
//! held only a and b, the a/b swap would give a second solution, so the solution avoids that
//! "deadly pattern". Types 1-6 and the hidden rectangle read that in different ways. BUG+1:
//! when every open cell but one has two candidates and every value has two places per unit,
//! the one cell with three must take the value that would otherwise have three places.
//!
//! These only need the four cells to be open (never givens); candidates already removed from a
//! corner do not weaken the argument, so corners may miss a or b.

use super::grid::{bit, digit_list, digits, subsets, Board, Found};
use super::rating::base;

/// A rectangle's corners: A (r1,c1), B (r1,c2), C (r2,c1), D (r2,c2).
struct Rect {
    cells: [usize; 4],
    a: u8,
    b: u8,
}

impl Rect {
    fn ab(&self) -> u64 {
        bit(self.a) | bit(self.b)
    }

    fn diagonal(&self, k: usize) -> usize {
        self.cells[3 - k]
    }
}

/// Every rectangle of open cells in two boxes, with every pair a/b each corner can take one of
/// and at least two corners hold both.
fn rectangles(b: &Board, visit: &mut dyn FnMut(&Rect) -> bool) {
    let g = &b.geo;
    let n = g.n;
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            for c1 in 0..n {
                for c2 in c1 + 1..n {
                    let cells = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                    if cells.iter().any(|&i| b.values[i] != 0) {
                        continue;
                    }
                    let boxes = {
                        let mut v: Vec<usize> = cells.iter().map(|&i| g.box_of(i)).collect();
                        crate::sort::all(&mut v);
                        v.dedup();
                        v.len()
                    };
                    if boxes != 2 {
                        continue;
                    }
                    let union = cells.iter().fold(0u64, |m, &i| m | b.masks[i]);
                    let ds: Vec<u8> = digits(union).collect();
                    for (k, &a) in ds.iter().enumerate() {
                        for &bb in &ds[k + 1..] {
                            let ab = bit(a) | bit(bb);
                            let both = cells.iter().filter(|&&i| b.masks[i] & ab == ab).count();
                            if both < 2 || cells.iter().any(|&i| b.masks[i] & ab == 0) {
                                continue;
                            }
                            if visit(&Rect { cells, a, b: bb }) {
                                return;
                            }
                        }
                    }
                }
            }
        }
    }
}

fn describe(b: &Board, r: &Rect) -> String {
    format!(
        "{} ({})",
        digit_list(r.ab(), "/"),
        b.geo.cell_list(&r.cells)
    )
}

fn push(
    b: &Board,
    f: &mut Found,
    name: &str,
    rating: f64,
    r: &Rect,
    elims: &[(usize, u8)],
    why: String,
) -> bool {
    let text = format!("{name} on {} {}: {why}", describe(b, r), b.elim_text(elims));
    let pattern = b.cands_cv(&r.cells, r.ab());
    f.push(b.step(name, rating, pattern, &[], elims, text))
}

/// Types 1, 2 and 5: the corners with values beyond a/b ("roofs"); type 1 when one corner
/// has them (it loses a and b), types 2/5 when every roof's extra is the same value c (c is
/// in one of them, so it leaves every cell seeing all of them).
fn types_1_2_5(b: &Board, f: &mut Found, want: u8) {
    rectangles(b, &mut |r| {
        let ab = r.ab();
        let roofs: Vec<usize> = r
            .cells
            .iter()
            .copied()
            .filter(|&i| b.masks[i] & !ab != 0)
            .collect();
        if roofs.len() == 1 && want == 1 {
            let d = roofs[0];
            let elims = b.present(&[d], ab);
            if elims.is_empty() {
                return false;
            }
            let why = format!(
                "{} must hold something else or the rectangle is a deadly pattern",
                b.geo.cell_name(d)
            );
            return push(b, f, "unique rectangle type 1", base::UR_1, r, &elims, why);
        }
        if roofs.len() < 2 || want == 1 {
            return false;
        }
        let extra = roofs.iter().fold(0u64, |m, &i| m | (b.masks[i] & !ab));
        if extra.count_ones() != 1 {
            return false;
        }
        let adjacent = roofs.len() == 2 && b.geo.sees(roofs[0], roofs[1]);
        let (name, rating, ty) = if adjacent {
            ("unique rectangle type 2", base::UR_2, 2)
        } else {
            ("unique rectangle type 5", base::UR_5, 5)
        };
        if ty != want {
            return false;
        }
        let c = extra.trailing_zeros() as u8 + 1;
        let elims: Vec<(usize, u8)> = b
            .geo
            .seen_by_all(&roofs)
            .into_iter()
            .filter(|&j| b.has(j, c))
            .map(|j| (j, c))
            .collect();
        if elims.is_empty() {
            return false;
        }
        let why = format!("{c} is in one of {}", b.geo.cell_list(&roofs));
        push(b, f, name, rating, r, &elims, why)
    });
}

pub fn type_1(b: &Board, f: &mut Found) {
    types_1_2_5(b, f, 1)
}

pub fn type_2(b: &Board, f: &mut Found) {
    types_1_2_5(b, f, 2)
}

pub fn type_5(b: &Board, f: &mut Found) {
    types_1_2_5(b, f, 5)
}

/// The two roofs when exactly two corners side by side hold more than a/b.
fn side_roofs(b: &Board, r: &Rect) -> Option<(usize, usize)> {
    let ab = r.ab();
    let roofs: Vec<usize> = r
        .cells
        .iter()
        .copied()
        .filter(|&i| b.masks[i] & !ab != 0)
        .collect();
    (roofs.len() == 2 && b.geo.sees(roofs[0], roofs[1])).then(|| (roofs[0], roofs[1]))
}

/// Type 3: the two roofs' extras act as one cell that, with k-1 other cells of a unit they
/// share, makes a naked subset.
pub fn type_3(b: &Board, f: &mut Found) {
    let g = &b.geo;
    rectangles(b, &mut |r| {
        let Some((p, q)) = side_roofs(b, r) else {
            return false;
        };
        let ab = r.ab();
        let extra = (b.masks[p] | b.masks[q]) & !ab;
        if extra.count_ones() < 2 {
            return false;
        }
        for u in g.common_units(p, q) {
            let others: Vec<usize> = g.units[u]
                .iter()
                .copied()
                .filter(|&i| b.values[i] == 0 && i != p && i != q)
                .collect();
            for k in 1..=3usize {
                let mut stop = false;
                subsets(&others, k, &mut |set| {
                    let m = set.iter().fold(extra, |m, &i| m | b.masks[i]);
                    if m.count_ones() as usize != k + 1 {
                        return false;
                    }
                    // The subset's cells and the roofs may share a second unit (a line
                    // and a box): the values leave both.
                    let mut all = set.to_vec();
                    all.extend([p, q]);
                    let rest: Vec<usize> = g.cell_units[p]
                        .iter()
                        .filter(|&&v| all.iter().all(|&i| g.cell_units[i].contains(&v)))
                        .flat_map(|&v| g.units[v].iter().copied())
                        .filter(|i| b.values[*i] == 0 && !all.contains(i))
                        .collect::<std::collections::BTreeSet<usize>>()
                        .into_iter()
                        .collect();
                    let elims = b.present(&rest, m);
                    if elims.is_empty() {
                        return false;
                    }
                    let why = format!(
                        "{} and {} hold one of {}, which with {} make a naked subset {} in {}",
                        g.cell_name(p),
                        g.cell_name(q),
                        digit_list(extra, "/"),
                        g.cell_list(set),
                        digit_list(m, "/"),
                        g.unit_name(u)
                    );
                    let rating = base::UR_3 + 0.1 * k as f64;
                    stop = push(b, f, "unique rectangle type 3", rating, r, &elims, why);
                    stop
                });
                if stop {
                    return true;
                }
            }
        }
        false
    });
}

/// Type 4: the roofs share a unit where a has no other place; one of them is a, so neither
/// can be b.
pub fn type_4(b: &Board, f: &mut Found) {
    let g = &b.geo;
    rectangles(b, &mut |r| {
        let Some((p, q)) = side_roofs(b, r) else {
            return false;
        };
        for (x, y) in [(r.a, r.b), (r.b, r.a)] {
            for u in g.common_units(p, q) {
                let places = b.cells_for(u, x);
                if places.len() != 2 || !places.contains(&p) || !places.contains(&q) {
                    continue;
                }
                let elims = b.present(&[p, q], bit(y));
                if elims.is_empty() {
                    continue;
                }
                let why = format!(
                    "{x} is in {} or {} (its only places in {}), so {y} would make the deadly pattern",
                    g.cell_name(p),
                    g.cell_name(q),
                    g.unit_name(u)
                );
                if push(b, f, "unique rectangle type 4", base::UR_4, r, &elims, why) {
                    return true;
                }
            }
        }
        false
    });
}

/// Type 6: two diagonal corners hold only a/b and a is locked to the rectangle in both rows
/// (or both columns): the other two corners cannot be a.
pub fn type_6(b: &Board, f: &mut Found) {
    let g = &b.geo;
    rectangles(b, &mut |r| {
        let ab = r.ab();
        for k in 0..2 {
            let (fa, fd) = (r.cells[k], r.diagonal(k));
            let (ra, rd) = (r.cells[1 - k], r.diagonal(1 - k));
            if b.masks[fa] & !ab != 0 || b.masks[fd] & !ab != 0 {
                continue;
            }
            if b.masks[ra] & !ab == 0 || b.masks[rd] & !ab == 0 {
                continue;
            }
            for x in [r.a, r.b] {
                for lines in [0usize, 1] {
                    let locked = r.cells.iter().all(|&i| {
                        let u = g.cell_units[i][lines];
                        b.cells_for(u, x).iter().all(|c| r.cells.contains(c))
                    });
                    if !locked {
                        continue;
                    }
                    let elims = b.present(&[ra, rd], bit(x));
                    if elims.is_empty() {
                        continue;
                    }
                    let why = format!(
                        "{x} lies only in the rectangle in both {}, so it fills one diagonal; {} would make it the deadly pattern",
                        if lines == 0 { "rows" } else { "columns" },
                        g.cell_list(&[ra, rd])
                    );
                    if push(b, f, "unique rectangle type 6", base::UR_6, r, &elims, why) {
                        return true;
                    }
                }
            }
        }
        false
    });
}

/// Hidden rectangle: corner A holds only a/b, and in the row and the column of the opposite
/// corner D the value a has no place outside the rectangle: D cannot be b.
pub fn hidden_rectangle(b: &Board, f: &mut Found) {
    let g = &b.geo;
    rectangles(b, &mut |r| {
        let ab = r.ab();
        for k in 0..4 {
            let (a_cell, d) = (r.cells[k], r.diagonal(k));
            if b.masks[a_cell] & !ab != 0 {
                continue;
            }
            for (x, y) in [(r.a, r.b), (r.b, r.a)] {
                let row = g.cell_units[d][0];
                let col = g.cell_units[d][1];
                let inside = |u: usize| b.cells_for(u, x).iter().all(|c| r.cells.contains(c));
                if !(inside(row) && inside(col) && b.has(d, y)) {
                    continue;
                }
                let elims = [(d, y)];
                let why = format!(
                    "{x} is locked to the rectangle in {}'s row and column, so {y} there would make the deadly pattern",
                    g.cell_name(d)
                );
                if push(
                    b,
                    f,
                    "hidden rectangle",
                    base::HIDDEN_RECTANGLE,
                    r,
                    &elims,
                    why,
                ) {
                    return true;
                }
            }
        }
        false
    });
}

/// BUG+1 (bivalue universal grave plus one): every open cell has two candidates but one with
/// three, and every value has two places in every unit but one value in that cell's units.
pub fn bug_plus_one(b: &Board, f: &mut Found) {
    let g = &b.geo;
    let open: Vec<usize> = b.open().collect();
    let mut plus = None;
    for &i in &open {
        match b.masks[i].count_ones() {
            2 => {}
            3 if plus.is_none() => plus = Some(i),
            _ => return,
        }
    }
    let Some(x) = plus else {
        return;
    };
    let mut value = None;
    for d in digits(b.masks[x]) {
        let three = g.cell_units[x]
            .iter()
            .all(|&u| b.places(u, d).count_ones() == 3);
        if three {
            if value.is_some() {
                return;
            }
            value = Some(d);
        }
    }
    let Some(v) = value else {
        return;
    };
    for u in 0..3 * g.n {
        for d in 1..=g.n as u8 {
            let k = b.places(u, d).count_ones();
            let expect_three = d == v && g.cell_units[x].contains(&u);
            if !(k == 0 || k == 2 || (k == 3 && expect_three)) {
                return;
            }
        }
    }
    let text = format!(
        "BUG+1: every open cell but {} has two candidates and every value two places per unit, except {v} there; any other value would leave a grave with two solutions, so {}={v}",
        g.cell_name(x),
        g.cell_name(x)
    );
    f.push(b.step(
        "BUG+1",
        base::BUG_1,
        b.cells_cv(&open),
        &[(x, v)],
        &[],
        text,
    ));
}

/// Avoidable rectangles: a rectangle in two boxes whose cells were placed while solving (never
/// givens) or are still open. If the placed cells held a/b crosswise and the open ones could
/// take the other two, a and b could swap with nothing given to stop them.
///
/// - Type 1: three corners placed (a, b, b diagonal to the open corner's a-side): the open
///   corner (with two candidates) cannot take a.
/// - Type 2: two corners placed (a and b, in one box's line), the two open corners holding b
///   plus c and a plus c: one of them is c, so c leaves every cell that sees both.
fn avoidable(b: &Board, f: &mut Found, want: u8) {
    let g = &b.geo;
    let n = g.n;
    let placed = |i: usize| b.values[i] != 0 && !b.givens[i];
    let pair = |i: usize, d: u8| b.values[i] == 0 && b.has(i, d) && b.masks[i].count_ones() == 2;
    let lines = (0..n).flat_map(|r1| (0..n).flat_map(move |r2| (0..n).map(move |c1| (r1, r2, c1))));
    for (r1, r2, c1) in lines {
        for c2 in 0..n {
            for by_rows in [true, false] {
                if r1 == r2 || c1 == c2 {
                    continue;
                }
                // 11 and 12 in one box and line; 21 and 22 across from them in another box.
                let at = |r: usize, c: usize| if by_rows { r * n + c } else { c * n + r };
                let (i11, i12, i21, i22) = (at(r1, c1), at(r1, c2), at(r2, c1), at(r2, c2));
                if g.box_of(i11) != g.box_of(i12) || g.box_of(i11) == g.box_of(i21) {
                    continue;
                }
                if !placed(i11) || !placed(i12) {
                    continue;
                }
                let (a, bb) = (b.values[i11], b.values[i12]);
                let corners = [i11, i12, i21, i22];
                let mut found = Vec::new();
                if want == 1 {
                    if b.values[i21] == bb && placed(i21) && pair(i22, a) {
                        found.push(vec![(i22, a)]);
                    }
                    if b.values[i22] == a && placed(i22) && pair(i21, bb) {
                        found.push(vec![(i21, bb)]);
                    }
                } else if pair(i21, bb) && pair(i22, a) {
                    let c = (b.masks[i21] & !bit(bb)).trailing_zeros() as u8 + 1;
                    if b.has(i22, c) && c != a {
                        let el: Vec<(usize, u8)> = g
                            .seen_by_all(&[i21, i22])
                            .into_iter()
                            .filter(|&j| b.has(j, c))
                            .map(|j| (j, c))
                            .collect();
                        if !el.is_empty() {
                            found.push(el);
                        }
                    }
                }
                for el in found {
                    let name = if want == 1 {
                        "avoidable rectangle type 1"
                    } else {
                        "avoidable rectangle type 2"
                    };
                    let text = format!(
                        "{name} {a}/{bb} in {}: the placed corners are not givens, so {a} and {bb} must not be free to swap; {}",
                        g.cell_list(&corners),
                        b.elim_text(&el)
                    );
                    let rating = if want == 1 { base::UR_1 } else { base::UR_2 };
                    if f.push(b.step(name, rating, b.cells_cv(&corners), &[], &el, text)) {
                        return;
                    }
                }
            }
        }
    }
}

pub fn avoidable_type_1(b: &Board, f: &mut Found) {
    avoidable(b, f, 1)
}

pub fn avoidable_type_2(b: &Board, f: &mut Found) {
    avoidable(b, f, 2)
}
