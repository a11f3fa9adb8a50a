//! Templates: every way a value can still fill the grid (one cell per row, column and box, on
//! its candidates and placed cells). A template of one value that covers a cell every template
//! of another value needs is impossible and goes, until none goes. Then a cell in every
//! template of a value holds it (template set), and a candidate in no template goes (template
//! delete).

use super::grid::{bit, Board, Found};
use super::rating::base;

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

/// Every template of value `d`, as cell sets.
fn templates(b: &Board, d: u8) -> Vec<u128> {
    let g = &b.geo;
    let n = g.n;
    let allowed: Vec<u128> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| r * n + c)
                .filter(|&i| b.values[i] == d || (b.values[i] == 0 && b.has(i, d)))
                .fold(0u128, |m, i| m | (1u128 << i))
        })
        .collect();
    let mut out = Vec::new();
    #[allow(clippy::too_many_arguments)]
    fn go(
        b: &Board,
        allowed: &[u128],
        r: usize,
        cols: u64,
        boxes: u64,
        cur: u128,
        out: &mut Vec<u128>,
    ) {
        let g = &b.geo;
        if r == g.n {
            out.push(cur);
            return;
        }
        for i in cells(allowed[r]) {
            let (c, bx) = (g.col(i), g.box_of(i));
            if cols & (1 << c) != 0 || boxes & (1 << bx) != 0 {
                continue;
            }
            go(
                b,
                allowed,
                r + 1,
                cols | (1 << c),
                boxes | (1 << bx),
                cur | (1u128 << i),
                out,
            );
        }
    }
    go(b, &allowed, 0, 0, 0, 0, &mut out);
    out
}

/// Per value: the cells in every surviving template and the cells in any.
fn refined(b: &Board) -> Option<(Vec<u128>, Vec<u128>)> {
    let n = b.n();
    if n * n > 128 {
        return None;
    }
    let mut lists: Vec<Vec<u128>> = (1..=n as u8).map(|d| templates(b, d)).collect();
    let mut every: Vec<u128> = lists
        .iter()
        .map(|l| l.iter().fold(u128::MAX, |m, &t| m & t))
        .collect();
    let mut any = vec![0u128; n];
    loop {
        let mut removed = 0;
        for j in 0..n {
            every[j] = u128::MAX;
            any[j] = 0;
            let others: Vec<u128> = (0..n).filter(|&k| k != j).map(|k| every[k]).collect();
            let before = lists[j].len();
            lists[j].retain(|&t| others.iter().all(|&o| t & o == 0));
            removed += before - lists[j].len();
            for &t in &lists[j] {
                every[j] &= t;
                any[j] |= t;
            }
        }
        if removed == 0 {
            break;
        }
    }
    Some((every, any))
}

/// Template set: the cells every template of a value goes through.
pub fn set(b: &Board, f: &mut Found) {
    let Some((every, _)) = refined(b) else { return };
    for d in 1..=b.n() as u8 {
        // No template left (a broken grid) leaves the full set: nothing to say.
        if every[d as usize - 1] == u128::MAX {
            continue;
        }
        let open: Vec<usize> = cells(every[d as usize - 1])
            .filter(|&i| b.values[i] == 0)
            .collect();
        if open.is_empty() {
            continue;
        }
        let places: Vec<(usize, u8)> = open.iter().map(|&i| (i, d)).collect();
        let text = format!(
            "template set: every way {d} can still fill the grid goes through {}, so it goes there",
            b.geo.cell_list(&open)
        );
        let s = b.step(
            "template set",
            base::TEMPLATE,
            b.cands_cv(&open, bit(d)),
            &places,
            &[],
            text,
        );
        if f.push(s) {
            return;
        }
    }
}

/// Template delete: candidates no template of their value goes through.
pub fn delete(b: &Board, f: &mut Found) {
    let Some((_, any)) = refined(b) else { return };
    for d in 1..=b.n() as u8 {
        let el: Vec<(usize, u8)> = b
            .open()
            .filter(|&i| b.has(i, d) && any[d as usize - 1] & (1u128 << i) == 0)
            .map(|i| (i, d))
            .collect();
        if el.is_empty() {
            continue;
        }
        let text = format!(
            "template delete: no way {d} can still fill the grid goes through these cells, so it {}",
            b.elim_text(&el)
        );
        let s = b.step("template delete", base::TEMPLATE, vec![], &[], &el, text);
        if f.push(s) {
            return;
        }
    }
}
