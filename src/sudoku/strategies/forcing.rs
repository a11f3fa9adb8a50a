//! Forcing chains, for grids the chains of [`super::chains`] cannot crack. They follow what
//! one assumption implies and read the consequences:
//!
//! - Nishio (contradiction): assuming a candidate implies some other candidate both true and
//!   false along the links of the starting grid, so the assumption is false.
//! - Cell / unit forcing chains: every candidate of a cell (every place of a value in a unit)
//!   implies the same thing, so it holds.
//! - Dynamic forcing chains: the assumption is played out on the grid itself with singles
//!   (full house, naked and hidden singles) until the grid breaks (a cell with no candidate,
//!   a value with no place), or both candidates of a bivalue cell force the same placement.
//!
//! Implications are written `r1c2=3 => r1c5<>3 => r1c5=7`, one per line in a step's text
//! (a line break and [`CONTINUED`] before each `=>`), so a long chain reads link by link.

use super::chains::{Graph, Mode, Search, MAX_NODES};
use super::grid::{bit, digits, Board, Found};
use super::rating::{base, length_bonus};

/// `r1c2=3 => r1c5<>3 => ...` for a path whose first node is `on` (else off).
/// What starts each further line of a chain's text: it lines up under the step's text in
/// `explain`'s numbered list.
pub const CONTINUED: &str = "\n       ";

fn implications(b: &Board, gr: &Graph, path: &[u32], on: bool) -> String {
    path.iter()
        .enumerate()
        .map(|(k, &v)| {
            let is_on = (k % 2 == 0) == on;
            format!(
                "{}{}{}",
                b.geo.cell_name(gr.cell(v)),
                if is_on { "=" } else { "<>" },
                gr.digit(v)
            )
        })
        .collect::<Vec<_>>()
        .join(&format!("{CONTINUED}=> "))
}

fn node(gr: &Graph, i: usize, d: u8) -> u32 {
    (i * gr.n + d as usize - 1) as u32
}

/// Nishio: a candidate whose links on the starting grid make another candidate both true and
/// false. The shortest such pair of chains wins.
pub fn nishio(b: &Board, f: &mut Found) {
    let gr = Graph::new(b);
    let size = gr.size;
    let mut se = Search::new(size);
    // (nodes, start, y)
    let mut found: Vec<(usize, u32, u32)> = Vec::new();
    let mut cap = MAX_NODES;
    for i in b.open() {
        for d in digits(b.masks[i]) {
            let s = node(&gr, i, d);
            se.run_from(&gr, Mode::Any, s, true, cap);
            let mut best: Option<(usize, u32)> = None;
            for y in 0..size as u32 {
                if se.reached(2 * y) && se.reached(2 * y + 1) {
                    let total = se.len(2 * y) + se.len(2 * y + 1) - 1;
                    if best.is_none_or(|(t, _)| total < t) {
                        best = Some((total, y));
                    }
                }
            }
            if let Some((total, y)) = best {
                found.push((total, s, y));
                if !f.all {
                    // A shorter contradiction needs both chains shorter than this one.
                    cap = cap.min(total);
                }
            }
        }
    }
    crate::sort::all(&mut found);
    for (total, s, y) in found {
        se.run_from(&gr, Mode::Any, s, true, MAX_NODES);
        let (i, d) = (gr.cell(s), gr.digit(s));
        let to_on = se.path(2 * y + 1);
        let to_off = se.path(2 * y);
        let text = format!(
            "Nishio: {}{CONTINUED}and {},{CONTINUED}a contradiction, so {}",
            implications(b, &gr, &to_on, true),
            implications(b, &gr, &to_off, true),
            b.elim_text(&[(i, d)])
        );
        let mut pattern: Vec<_> = to_on
            .iter()
            .chain(&to_off)
            .map(|&v| b.cv(gr.cell(v), gr.digit(v)))
            .collect();
        pattern.dedup();
        let rating = base::NISHIO + length_bonus(total);
        if f.push(b.step("Nishio", rating, pattern, &[], &[(i, d)], text)) {
            return;
        }
    }
}

/// Cell and unit forcing chains: each branch (a candidate of one cell, or a place of one value
/// in one unit) is assumed true; a candidate every branch makes true (false) is placed
/// (removed). The conclusion with the fewest implications wins.
pub fn forcing_chains(b: &Board, f: &mut Found) {
    let g = &b.geo;
    let gr = Graph::new(b);
    let size = gr.size;
    let mut se = Search::new(size);
    // Branch sets: (description, start nodes).
    let mut sets: Vec<(String, Vec<u32>)> = Vec::new();
    for i in b.open() {
        let m = b.masks[i];
        if m.count_ones() >= 2 {
            let starts = digits(m).map(|d| node(&gr, i, d)).collect();
            sets.push((
                format!("cell forcing chains from {}", g.cell_name(i)),
                starts,
            ));
        }
    }
    for u in 0..3 * g.n {
        for d in 1..=g.n as u8 {
            let cells = b.cells_for(u, d);
            if cells.len() >= 3 {
                let starts = cells.iter().map(|&i| node(&gr, i, d)).collect();
                sets.push((
                    format!("unit forcing chains on {d} in {}", g.unit_name(u)),
                    starts,
                ));
            }
        }
    }
    // Best: (total nodes, set index, state).
    let mut results: Vec<(usize, usize, u32)> = Vec::new();
    let mut total = vec![0usize; 2 * size];
    let mut count = vec![0usize; 2 * size];
    let mut touched: Vec<u32> = Vec::new();
    let mut cap = MAX_NODES;
    for (k, (_, starts)) in sets.iter().enumerate() {
        for &st in &touched {
            total[st as usize] = 0;
            count[st as usize] = 0;
        }
        touched.clear();
        for (branch, &s) in starts.iter().enumerate() {
            se.run_from(&gr, Mode::Any, s, true, cap);
            for &st in se.reached_states() {
                if count[st as usize] == branch {
                    if branch == 0 {
                        touched.push(st);
                    }
                    count[st as usize] += 1;
                    total[st as usize] += se.len(st);
                }
            }
        }
        let mut best: Option<(usize, u32)> = None;
        for &st in &touched {
            if count[st as usize] != starts.len() || starts.contains(&(st / 2)) {
                continue;
            }
            let (i, d) = (gr.cell(st / 2), gr.digit(st / 2));
            let useful = if st % 2 == 1 {
                b.values[i] == 0
            } else {
                b.has(i, d)
            };
            if useful && best.is_none_or(|(t, _)| total[st as usize] < t) {
                best = Some((total[st as usize], st));
            }
        }
        if let Some((t, st)) = best {
            results.push((t, k, st));
            if !f.all {
                // A later set only matters if each of its branches is shorter than this.
                cap = cap.min(t);
            }
        }
    }
    crate::sort::all(&mut results);
    for (t, k, st) in results {
        let (what, starts) = &sets[k];
        let (i, d) = (gr.cell(st / 2), gr.digit(st / 2));
        let mut branches = Vec::new();
        let mut pattern = Vec::new();
        for &s in starts {
            se.run_from(&gr, Mode::Any, s, true, MAX_NODES);
            let path = se.path(st);
            pattern.extend(path.iter().map(|&v| b.cv(gr.cell(v), gr.digit(v))));
            branches.push(implications(b, &gr, &path, true));
        }
        let (placements, elims, result) = if st % 2 == 1 {
            (
                vec![(i, d)],
                vec![],
                format!("places {}={d}", g.cell_name(i)),
            )
        } else {
            (vec![], vec![(i, d)], b.elim_text(&[(i, d)]))
        };
        let text = format!(
            "{what}: {};{CONTINUED}every branch {result}",
            branches.join(&format!(";{CONTINUED}"))
        );
        let rating = base::FORCING_CHAINS + length_bonus(t);
        if f.push(b.step("forcing chains", rating, pattern, &placements, &elims, text)) {
            return;
        }
    }
}

/// What one assumption forces on the grid through singles: the placements in order (cell,
/// value, why), and how the grid broke, if it did. Singles are followed breadth-first from
/// what each placement changed, so the first contradiction is reached early.
fn play_out(
    b: &Board,
    i: usize,
    d: u8,
    limit: usize,
) -> (Vec<(usize, u8, String)>, Option<String>) {
    let g = &b.geo;
    let n = g.n;
    let mut t = b.clone();
    let mut present: Vec<u64> = (0..3 * n)
        .map(|u| {
            g.units[u]
                .iter()
                .filter(|&&c| t.values[c] != 0)
                .fold(0u64, |m, &c| m | bit(t.values[c]))
        })
        .collect();
    let mut done = Vec::new();
    // Pending singles: (cell, value, why).
    let mut queue: std::collections::VecDeque<(usize, u8, Option<usize>)> = Default::default();
    queue.push_back((i, d, None));
    let mut first = true;
    while let Some((c, v, why)) = queue.pop_front() {
        if t.values[c] != 0 {
            if t.values[c] == v {
                continue;
            }
            return (
                done,
                Some(format!(
                    "{} would need both {} and {v}",
                    g.cell_name(c),
                    t.values[c]
                )),
            );
        }
        if !t.has(c, v) {
            // The single came from a state that changed since; the grid re-checks below.
            continue;
        }
        if !first {
            if done.len() >= limit {
                return (done, None);
            }
            let text = match why {
                None => "naked single".to_string(),
                Some(u) => format!("hidden single in {}", g.unit_name(u)),
            };
            done.push((c, v, text));
        }
        first = false;
        let old = t.masks[c];
        let touched: Vec<usize> = g.peers[c]
            .iter()
            .copied()
            .filter(|&p| t.has(p, v))
            .collect();
        t.place(c, v);
        for k in 0..3 {
            present[g.cell_units[c][k]] |= bit(v);
        }
        // Cells that lost v: empty, or a naked single now?
        for &p in &touched {
            match t.masks[p].count_ones() {
                0 => {
                    return (
                        done,
                        Some(format!("{} has no candidate left", g.cell_name(p))),
                    )
                }
                1 => queue.push_back((p, t.masks[p].trailing_zeros() as u8 + 1, None)),
                _ => {}
            }
        }
        // Units that lost a place for some value: none left, or one?
        let mut check: Vec<(usize, u8)> = Vec::new();
        for e in digits(old & !bit(v)) {
            check.extend(g.cell_units[c].iter().map(|&u| (u, e)));
        }
        for &p in &touched {
            check.extend(g.cell_units[p].iter().map(|&u| (u, v)));
        }
        for (u, e) in check {
            if present[u] & bit(e) != 0 {
                continue;
            }
            let places = t.places(u, e);
            match places.count_ones() {
                0 => {
                    return (
                        done,
                        Some(format!("{e} has no place left in {}", g.unit_name(u))),
                    )
                }
                1 => queue.push_back((g.cell_at(u, places.trailing_zeros() as usize), e, Some(u))),
                _ => {}
            }
        }
    }
    (done, None)
}

fn played_text(b: &Board, i: usize, d: u8, done: &[(usize, u8, String)]) -> String {
    let mut parts = vec![format!("{}={d}", b.geo.cell_name(i))];
    parts.extend(
        done.iter()
            .map(|(c, v, why)| format!("{}={v} ({why})", b.geo.cell_name(*c))),
    );
    parts.join(&format!("{CONTINUED}=> "))
}

/// Dynamic forcing chains: a candidate whose singles break the grid is removed; a bivalue cell
/// whose two candidates force the same placement gives that placement. The shortest wins.
pub fn dynamic(b: &Board, f: &mut Found) {
    let g = &b.geo;
    // (placements played, text, placements, eliminations)
    type Outcome = (usize, String, Vec<(usize, u8)>, Vec<(usize, u8)>);
    let mut best: Option<Outcome> = None;
    let mut cells: Vec<usize> = b.open().collect();
    crate::sort::by_key(&mut cells, |&i| (b.masks[i].count_ones(), i));
    // Iterative deepening: short play-outs first; a longer pass only when none was enough.
    let mut cap = 8;
    while best.is_none() && cap < 8 * g.n * g.n {
        let mut limit = cap;
        cap *= 4;
        for &i in &cells {
            let mut outcomes = Vec::new();
            for d in digits(b.masks[i]) {
                let (done, broke) = play_out(b, i, d, limit);
                if let Some(why) = broke {
                    let k = done.len() + 1;
                    if best.as_ref().is_none_or(|(bk, ..)| k < *bk) {
                        limit = k;
                        let text = format!(
                            "dynamic forcing chain: {}, then {why}, so {}",
                            played_text(b, i, d, &done),
                            b.elim_text(&[(i, d)])
                        );
                        best = Some((k, text, vec![], vec![(i, d)]));
                    }
                }
                outcomes.push((d, done));
            }
            if outcomes.len() == 2 {
                let (d1, a) = &outcomes[0];
                let (d2, c) = &outcomes[1];
                for (ka, (cell, v, _)) in a.iter().enumerate() {
                    if let Some(kc) = c.iter().position(|(c2, v2, _)| c2 == cell && v2 == v) {
                        let k = ka + kc + 2;
                        if best.as_ref().is_none_or(|(bk, ..)| k < *bk) {
                            let text = format!(
                                "dynamic forcing chains from {}: {};{CONTINUED}{};{CONTINUED}both place {}={v}",
                                g.cell_name(i),
                                played_text(b, i, *d1, &a[..=ka]),
                                played_text(b, i, *d2, &c[..=kc]),
                                g.cell_name(*cell)
                            );
                            best = Some((k, text, vec![(*cell, *v)], vec![]));
                        }
                        break;
                    }
                }
            }
        }
    }
    if let Some((k, text, placements, elims)) = best {
        let rating = base::DYNAMIC_CHAIN + length_bonus(2 * k);
        let mut pattern = b.cells_cv(
            &placements
                .iter()
                .chain(&elims)
                .map(|x| x.0)
                .collect::<Vec<_>>(),
        );
        pattern.dedup();
        f.push(b.step(
            "dynamic forcing chain",
            rating,
            pattern,
            &placements,
            &elims,
            text,
        ));
    }
}
