//! Single-digit patterns: two strong links on one value joined by a weak one (Skyscraper when
//! both links lie in parallel lines, 2-String Kite when a row link and a column link meet in a
//! box, Turbot Fish for any other such chain), and the Empty Rectangle (a box whose places for
//! the value form a cross, acting as one end of a strong link).

use super::grid::{bit, Board, Found, House};
use super::rating::base;
use crate::explain::Link;

/// Which 4-node pattern a chain A=B-C=D is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Skyscraper,
    Kite,
    Turbot,
}

/// Called with each chain's kind, cells A, B, C, D, the units of its two strong links and
/// its eliminations; returns true to stop.
type Visit<'a> = dyn FnMut(Kind, [usize; 4], [usize; 2], Vec<(usize, u8)>) -> bool + 'a;

/// Every chain A=B-C=D on `d` (strong links in `u1` and `u2`), with its eliminations.
fn four_node_chains(b: &Board, d: u8, visit: &mut Visit) {
    let g = &b.geo;
    let links: Vec<(usize, usize, usize)> = (0..3 * g.n)
        .filter(|&u| b.places(u, d).count_ones() == 2)
        .map(|u| {
            let c = b.cells_for(u, d);
            (u, c[0], c[1])
        })
        .collect();
    for (k, &(u1, p1, q1)) in links.iter().enumerate() {
        for &(u2, p2, q2) in &links[k + 1..] {
            for (a, bb) in [(p1, q1), (q1, p1)] {
                for (c, dd) in [(p2, q2), (q2, p2)] {
                    if bb == c || !g.sees(bb, c) || a == dd || a == c || bb == dd {
                        continue;
                    }
                    // The cells seeing both ends (`seen_by_all`, without its list).
                    let elims: Vec<(usize, u8)> = g.peers[a]
                        .iter()
                        .copied()
                        .filter(|&j| j != dd && g.sees(dd, j))
                        .filter(|&j| j != bb && j != c && b.has(j, d))
                        .map(|j| (j, d))
                        .collect();
                    if elims.is_empty() {
                        continue;
                    }
                    let (h1, h2) = (g.house(u1), g.house(u2));
                    let kind = if h1 == h2 && h1 != House::Box && {
                        // The base (B, C) in one crossing line; the other ends not aligned.
                        let k = if h1 == House::Row { 1 } else { 0 };
                        g.cell_units[bb][k] == g.cell_units[c][k]
                            && g.cell_units[a][k] != g.cell_units[dd][k]
                    } {
                        Kind::Skyscraper
                    } else if h1 != h2
                        && h1 != House::Box
                        && h2 != House::Box
                        && g.box_of(bb) == g.box_of(c)
                        && g.box_of(a) != g.box_of(bb)
                        && g.box_of(dd) != g.box_of(c)
                    {
                        Kind::Kite
                    } else {
                        Kind::Turbot
                    };
                    if visit(kind, [a, bb, c, dd], [u1, u2], elims) {
                        return;
                    }
                }
            }
        }
    }
}

fn find(b: &Board, f: &mut Found, want: Kind) {
    let g = &b.geo;
    let name = match want {
        Kind::Skyscraper => "Skyscraper",
        Kind::Kite => "2-String Kite",
        Kind::Turbot => "Turbot Fish",
    };
    for d in 1..=g.n as u8 {
        let mut stop = false;
        four_node_chains(b, d, &mut |kind, [a, bb, c, dd], [u1, u2], elims| {
            // A Turbot Fish search also reports the named patterns (they are Turbot Fish too).
            if kind != want && want != Kind::Turbot {
                return false;
            }
            let text = format!(
                "{name} on {d}: ({d}){}={}-{}={} (strong links in {} and {}) {}",
                g.cell_name(a),
                g.cell_name(bb),
                g.cell_name(c),
                g.cell_name(dd),
                g.unit_name(u1),
                g.unit_name(u2),
                b.elim_text(&elims)
            );
            let pattern = b.cands_cv(&[a, bb, c, dd], bit(d));
            let mut step = b.step(name, base::X_CHAIN, pattern, &[], &elims, text);
            step.links = [(a, bb, true), (bb, c, false), (c, dd, true)]
                .iter()
                .map(|&(x, y, strong)| Link {
                    from: b.cv(x, d),
                    to: b.cv(y, d),
                    strong,
                })
                .collect();
            stop = f.push(step);
            stop
        });
        if stop {
            return;
        }
    }
}

pub fn skyscraper(b: &Board, f: &mut Found) {
    find(b, f, Kind::Skyscraper)
}

pub fn two_string_kite(b: &Board, f: &mut Found) {
    find(b, f, Kind::Kite)
}

pub fn turbot_fish(b: &Board, f: &mut Found) {
    find(b, f, Kind::Turbot)
}

/// Empty Rectangle: in a box, the places for `d` lie in one row R and one column C (with some
/// off each), so `d` is in R or in C there. A strong link on `d` in a column (row) outside the
/// box with one end in R (C) then removes `d` where its other end's line crosses C (R).
pub fn empty_rectangle(b: &Board, f: &mut Found) {
    let g = &b.geo;
    let n = g.n;
    for d in 1..=n as u8 {
        for bx in 0..n {
            let u = 2 * n + bx;
            let cells = b.cells_for(u, d);
            if cells.len() < 2 {
                continue;
            }
            let rows: Vec<usize> = g.units[u].iter().map(|&i| g.row(i)).collect();
            let cols: Vec<usize> = g.units[u].iter().map(|&i| g.col(i)).collect();
            let mut rows_u = rows.clone();
            rows_u.dedup();
            let mut cols_u = cols.clone();
            crate::sort::all(&mut cols_u);
            cols_u.dedup();
            for &r in &rows_u {
                for &c in &cols_u {
                    let in_cross = cells.iter().all(|&i| g.row(i) == r || g.col(i) == c);
                    let arm_r = cells.iter().any(|&i| g.row(i) == r && g.col(i) != c);
                    let arm_c = cells.iter().any(|&i| g.col(i) == c && g.row(i) != r);
                    if !(in_cross && arm_r && arm_c) {
                        continue;
                    }
                    // Strong links in columns outside the box with an end in row r, and in
                    // rows outside the box with an end in column c.
                    for by_col in [true, false] {
                        for line in 0..n {
                            let lu = if by_col { n + line } else { line };
                            if (by_col && cols_u.contains(&line))
                                || (!by_col && rows_u.contains(&line))
                            {
                                continue;
                            }
                            let ends = b.cells_for(lu, d);
                            if ends.len() != 2 {
                                continue;
                            }
                            for (x, y) in [(ends[0], ends[1]), (ends[1], ends[0])] {
                                let (hit, target) = if by_col {
                                    (
                                        g.row(x) == r && !rows_u.contains(&g.row(y)),
                                        g.row(y) * n + c,
                                    )
                                } else {
                                    (
                                        g.col(x) == c && !cols_u.contains(&g.col(y)),
                                        r * n + g.col(y),
                                    )
                                };
                                if !hit || !b.has(target, d) {
                                    continue;
                                }
                                let elims = [(target, d)];
                                let text = format!(
                                    "empty rectangle on {d} in {} (row {}, column {}) with the strong link {}={} in {} {}",
                                    g.unit_name(u),
                                    r + 1,
                                    c + 1,
                                    g.cell_name(x),
                                    g.cell_name(y),
                                    g.unit_name(lu),
                                    b.elim_text(&elims)
                                );
                                let mut pattern = b.cands_cv(&cells, bit(d));
                                pattern.extend(b.cands_cv(&[x, y], bit(d)));
                                if f.push(b.step(
                                    "empty rectangle",
                                    base::X_CHAIN,
                                    pattern,
                                    &[],
                                    &elims,
                                    text,
                                )) {
                                    return;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Dual 2-String Kite: two kites on one value through the same two cells of a box, removing
/// different candidates; one step makes both.
pub fn dual_two_string_kite(b: &Board, f: &mut Found) {
    let g = &b.geo;
    for d in 1..=g.n as u8 {
        type Kite = ([usize; 4], Vec<(usize, u8)>);
        let mut kites: Vec<Kite> = Vec::new();
        four_node_chains(b, d, &mut |kind, cells, _, elims| {
            if kind == Kind::Kite {
                kites.push((cells, elims));
            }
            false
        });
        for (x, (p, pe)) in kites.iter().enumerate() {
            for (q, qe) in &kites[x + 1..] {
                let same_box = (p[1] == q[1] && p[2] == q[2]) || (p[1] == q[2] && p[2] == q[1]);
                if !same_box || pe == qe {
                    continue;
                }
                let mut elims = pe.clone();
                elims.extend(qe);
                crate::sort::all(&mut elims);
                elims.dedup();
                let chain = |c: &[usize; 4]| {
                    format!(
                        "({d}){}={}-{}={}",
                        g.cell_name(c[0]),
                        g.cell_name(c[1]),
                        g.cell_name(c[2]),
                        g.cell_name(c[3])
                    )
                };
                let text = format!(
                    "dual 2-String Kite on {d}: {} and {} {}",
                    chain(p),
                    chain(q),
                    b.elim_text(&elims)
                );
                let mut cells = p.to_vec();
                cells.extend(q);
                crate::sort::all(&mut cells);
                cells.dedup();
                let pattern = b.cands_cv(&cells, bit(d));
                if f.push(b.step(
                    "dual 2-String Kite",
                    base::X_CHAIN,
                    pattern,
                    &[],
                    &elims,
                    text,
                )) {
                    return;
                }
            }
        }
    }
}

/// Dual empty rectangle: two empty rectangles on one value in the same box, removing
/// different candidates; one step makes both.
pub fn dual_empty_rectangle(b: &Board, f: &mut Found) {
    let mut all = Found::every();
    empty_rectangle(b, &mut all);
    let steps = all.steps;
    let g = &b.geo;
    let key = |s: &crate::explain::Step| {
        // The box's places come first in the pattern, the strong link's two ends last.
        let boxed = &s.pattern[..s.pattern.len() - 2];
        (
            boxed[0].value,
            g.box_of(boxed[0].row * g.n + boxed[0].col),
            boxed.to_vec(),
        )
    };
    for (x, p) in steps.iter().enumerate() {
        for q in &steps[x + 1..] {
            if key(p) != key(q) || p.eliminations == q.eliminations {
                continue;
            }
            let d = p.pattern[0].value as u8;
            let mut elims: Vec<(usize, u8)> = p
                .eliminations
                .iter()
                .chain(&q.eliminations)
                .map(|c| (c.row * g.n + c.col, c.value as u8))
                .collect();
            crate::sort::all(&mut elims);
            elims.dedup();
            let text = format!("dual empty rectangle on {d}: {}; {}", p.text, q.text);
            let mut pattern = p.pattern.clone();
            pattern.extend(q.pattern.iter().rev().take(2));
            if f.push(b.step(
                "dual empty rectangle",
                base::X_CHAIN,
                pattern,
                &[],
                &elims,
                text,
            )) {
                return;
            }
        }
    }
}
