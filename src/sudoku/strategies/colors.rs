//! Colouring on one value: the value's conjugate pairs (a unit with exactly two places) join
//! cells into clusters, each cell coloured so that the two ends of a pair differ; in a cluster
//! one colour is all true, the other all false.
//!
//! - simple colours, trap: a cell that sees both colours of a cluster loses the value;
//! - simple colours, wrap: two cells of one colour see each other, so that colour is false;
//! - multi-colours 1: a colour of one cluster sees a colour of another, so one of the two other
//!   colours is true: a cell seeing both of those loses the value;
//! - multi-colours 2: a colour of one cluster sees both colours of another, so it is false.

use super::grid::{bit, Board, Found};
use super::rating::base;

/// The clusters of value `d`: each as its two colours (cell lists).
fn clusters(b: &Board, d: u8) -> Vec<[Vec<usize>; 2]> {
    let g = &b.geo;
    let n = g.n;
    let mut partner: Vec<Vec<usize>> = vec![Vec::new(); n * n];
    for u in 0..3 * n {
        let c = b.cells_for(u, d);
        if c.len() == 2 {
            partner[c[0]].push(c[1]);
            partner[c[1]].push(c[0]);
        }
    }
    let mut colour = vec![usize::MAX; n * n];
    let mut out = Vec::new();
    for start in 0..n * n {
        if partner[start].is_empty() || colour[start] != usize::MAX {
            continue;
        }
        let mut sides: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        let mut stack = vec![start];
        colour[start] = 0;
        while let Some(c) = stack.pop() {
            sides[colour[c]].push(c);
            for &p in &partner[c] {
                if colour[p] == usize::MAX {
                    colour[p] = 1 - colour[c];
                    stack.push(p);
                }
            }
        }
        crate::sort::all(&mut sides[0]);
        crate::sort::all(&mut sides[1]);
        out.push(sides);
    }
    out
}

fn sees_any(b: &Board, i: usize, set: &[usize]) -> bool {
    set.iter().any(|&j| b.geo.sees(i, j))
}

/// Cells holding `d` (outside `skip`) that see a cell of `x` and a cell of `y`.
fn seeing_both(b: &Board, d: u8, x: &[usize], y: &[usize]) -> Vec<(usize, u8)> {
    b.open()
        .filter(|&i| b.has(i, d) && sees_any(b, i, x) && sees_any(b, i, y))
        .filter(|i| !x.contains(i) && !y.contains(i))
        .map(|i| (i, d))
        .collect()
}

fn push(
    b: &Board,
    f: &mut Found,
    name: &str,
    d: u8,
    colours: &[&[usize]],
    elims: Vec<(usize, u8)>,
    why: &str,
) -> bool {
    let g = &b.geo;
    let listed: Vec<String> = colours.iter().map(|c| g.cell_list(c)).collect();
    let text = format!(
        "{name} on {d}: colours {}; {why} {}",
        listed.join(" / "),
        b.elim_text(&elims)
    );
    let cells: Vec<usize> = colours.iter().flat_map(|c| c.iter().copied()).collect();
    let s = b.step(
        name,
        base::X_CHAIN,
        b.cands_cv(&cells, bit(d)),
        &[],
        &elims,
        text,
    );
    f.push(s)
}

/// Simple colours, trap and wrap.
pub fn simple(b: &Board, f: &mut Found) {
    let g = &b.geo;
    for d in 1..=g.n as u8 {
        for [c1, c2] in clusters(b, d) {
            let mut wrap = Vec::new();
            for side in [&c1, &c2] {
                let clash = side
                    .iter()
                    .enumerate()
                    .any(|(k, &i)| side[k + 1..].iter().any(|&j| g.sees(i, j)));
                if clash {
                    wrap.extend(side.iter().map(|&i| (i, d)));
                }
            }
            if !wrap.is_empty()
                && push(
                    b,
                    f,
                    "simple colors wrap",
                    d,
                    &[&c1, &c2],
                    wrap,
                    "two cells of one colour see each other, so that colour is false:",
                )
            {
                return;
            }
            let trap = seeing_both(b, d, &c1, &c2);
            if !trap.is_empty()
                && push(
                    b,
                    f,
                    "simple colors trap",
                    d,
                    &[&c1, &c2],
                    trap,
                    "one colour is true, so a cell seeing both",
                )
            {
                return;
            }
        }
    }
}

/// Multi-colours, both kinds, on every ordered pair of clusters.
pub fn multi(b: &Board, f: &mut Found) {
    let g = &b.geo;
    let touches = |x: &[usize], y: &[usize]| x.iter().any(|&i| sees_any(b, i, y));
    for d in 1..=g.n as u8 {
        let cl = clusters(b, d);
        for (p, [a1, a2]) in cl.iter().enumerate() {
            for (q, [b1, b2]) in cl.iter().enumerate() {
                if p == q {
                    continue;
                }
                // Kind 2: a colour sees both colours of the other cluster.
                let mut el = Vec::new();
                for side in [a1, a2] {
                    let sees1 = side.iter().any(|&i| sees_any(b, i, b1));
                    let sees2 = side.iter().any(|&i| sees_any(b, i, b2));
                    if sees1 && sees2 {
                        el.extend(side.iter().map(|&i| (i, d)));
                    }
                }
                if !el.is_empty()
                    && push(
                        b,
                        f,
                        "multi-colors 2",
                        d,
                        &[a1, a2, b1, b2],
                        el,
                        "a colour sees both colours of the other cluster, so it is false:",
                    )
                {
                    return;
                }
                // Kind 1: two colours see each other; one of their partners is true.
                let mut el = Vec::new();
                for (x, other_x) in [(a1, a2), (a2, a1)] {
                    for (y, other_y) in [(b1, b2), (b2, b1)] {
                        if touches(x, y) {
                            el.extend(seeing_both(b, d, other_x, other_y));
                        }
                    }
                }
                crate::sort::all(&mut el);
                el.dedup();
                if !el.is_empty()
                    && push(b, f, "multi-colors 1", d, &[a1, a2, b1, b2], el, "two colours see each other, so one of their partners is true, and a cell seeing both")
                {
                    return;
                }
            }
        }
    }
}
