//! Sue de Coq: where a line meets a box, two or three open cells C hold values V (at least two
//! more values than cells). A set L of the line's other cells and a set B of the box's other
//! cells, with no value in common, make with C as many cells as values in all of them: the
//! values are then locked, those of L (and of V outside B) in the line, those of B (and of V
//! outside L) in the box, and leave the rest of each.

use super::grid::{digit_list, digits, subsets, Board, Found};
use super::rating::base;

pub fn sue_de_coq(b: &Board, f: &mut Found) {
    let g = &b.geo;
    let n = g.n;
    for bx in 2 * n..3 * n {
        for line in 0..2 * n {
            let meet: Vec<usize> = g.units[bx]
                .iter()
                .copied()
                .filter(|&i| b.values[i] == 0 && g.cell_units[i].contains(&line))
                .collect();
            if meet.len() < 2 {
                continue;
            }
            let line_rest: Vec<usize> = g.units[line]
                .iter()
                .copied()
                .filter(|&i| b.values[i] == 0 && !g.cell_units[i].contains(&bx))
                .collect();
            let box_rest: Vec<usize> = g.units[bx]
                .iter()
                .copied()
                .filter(|&i| b.values[i] == 0 && !g.cell_units[i].contains(&line))
                .collect();
            // Eliminations reach the meeting cells left out of C too.
            let open_of = |u: usize| -> Vec<usize> {
                g.units[u]
                    .iter()
                    .copied()
                    .filter(|&i| b.values[i] == 0)
                    .collect()
            };
            let (line_open, box_open) = (open_of(line), open_of(bx));
            for k in 2..=meet.len() {
                let stop = subsets(&meet, k, &mut |c| {
                    let v = c.iter().fold(0u64, |m, &i| m | b.masks[i]);
                    if (v.count_ones() as usize) < k + 2 {
                        return false;
                    }
                    for kl in 1..line_rest.len() {
                        let stop = subsets(&line_rest, kl, &mut |l| {
                            let vl = l.iter().fold(0u64, |m, &i| m | b.masks[i]);
                            if vl & v == 0 {
                                return false;
                            }
                            for kb in 1..box_rest.len() {
                                let stop = subsets(&box_rest, kb, &mut |bb| {
                                    let vb = bb.iter().fold(0u64, |m, &i| m | b.masks[i]);
                                    if vb & vl != 0 || vb & v == 0 {
                                        return false;
                                    }
                                    let all = v | vl | vb;
                                    if all.count_ones() as usize != k + kl + kb {
                                        return false;
                                    }
                                    let in_line = vl | (v & !vb);
                                    let in_box = vb | (v & !vl);
                                    let mut el = Vec::new();
                                    for &i in &line_open {
                                        if !l.contains(&i) && !c.contains(&i) {
                                            for d in digits(b.masks[i] & in_line) {
                                                el.push((i, d));
                                            }
                                        }
                                    }
                                    for &i in &box_open {
                                        if !bb.contains(&i) && !c.contains(&i) {
                                            for d in digits(b.masks[i] & in_box) {
                                                el.push((i, d));
                                            }
                                        }
                                    }
                                    if el.is_empty() {
                                        return false;
                                    }
                                    let text = format!(
                                        "Sue de Coq in {} and {}: {} ({}) with {} ({}) and {} ({}) {}",
                                        g.unit_name(line),
                                        g.unit_name(bx),
                                        g.cell_list(c),
                                        digit_list(v, ""),
                                        g.cell_list(l),
                                        digit_list(vl, ""),
                                        g.cell_list(bb),
                                        digit_list(vb, ""),
                                        b.elim_text(&el)
                                    );
                                    let cells: Vec<usize> =
                                        c.iter().chain(l).chain(bb).copied().collect();
                                    let s = b.step(
                                        "Sue de Coq",
                                        base::SUE_DE_COQ,
                                        b.cands_cv(&cells, all),
                                        &[],
                                        &el,
                                        text,
                                    );
                                    f.push(s)
                                });
                                if stop {
                                    return true;
                                }
                            }
                            false
                        });
                        if stop {
                            return true;
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
}
