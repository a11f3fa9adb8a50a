//! Locked candidates, where a box meets a line: a value whose places in a box all lie in one
//! row or column is removed from the rest of that line (pointing); a value whose places in a
//! line all lie in one box is removed from the rest of that box (claiming). The "direct" forms
//! (Sudoku Explainer's easier ratings) are those whose removals leave a hidden single at once.

use super::grid::{Board, Found, House};
use super::rating::base;
use super::singles::created_hidden_single;

/// One locked-candidates instance: value `d` of unit `from` confined to unit `to`.
struct Lock {
    d: u8,
    from: usize,
    to: usize,
    cells: Vec<usize>,
    elims: Vec<(usize, u8)>,
}

/// Every locked-candidates instance; `pointing` chooses box → line, else line → box.
fn locks(b: &Board, pointing: bool, visit: &mut dyn FnMut(Lock) -> bool) {
    let g = &b.geo;
    let n = g.n;
    let froms: Vec<usize> = if pointing {
        (2 * n..3 * n).collect()
    } else {
        (0..2 * n).collect()
    };
    for from in froms {
        for d in 1..=n as u8 {
            if b.places(from, d).count_ones() < 2 {
                continue;
            }
            let cells = b.cells_for(from, d);
            // The other unit kinds every place shares.
            for k in 0..3 {
                let to = g.cell_units[cells[0]][k];
                if to == from || cells.iter().any(|&i| g.cell_units[i][k] != to) {
                    continue;
                }
                if pointing == (g.house(to) == House::Box) {
                    continue;
                }
                let elims: Vec<(usize, u8)> = b
                    .cells_for(to, d)
                    .into_iter()
                    .filter(|i| !cells.contains(i))
                    .map(|i| (i, d))
                    .collect();
                if !elims.is_empty()
                    && visit(Lock {
                        d,
                        from,
                        to,
                        cells: cells.clone(),
                        elims,
                    })
                {
                    return;
                }
            }
        }
    }
}

fn text(b: &Board, l: &Lock) -> String {
    let g = &b.geo;
    format!(
        "{} in {} lies only in {} ({}), so it {}",
        l.d,
        g.unit_name(l.from),
        g.unit_name(l.to),
        g.cell_list(&l.cells),
        b.elim_text(&l.elims)
    )
}

fn find(b: &Board, f: &mut Found, pointing: bool, direct: bool) {
    let (name, rating) = match (pointing, direct) {
        (true, false) => ("pointing", base::POINTING),
        (false, false) => ("claiming", base::CLAIMING),
        (true, true) => ("direct pointing", base::DIRECT_POINTING),
        (false, true) => ("direct claiming", base::DIRECT_CLAIMING),
    };
    locks(b, pointing, &mut |l| {
        let mut placements = Vec::new();
        let mut then = String::new();
        if direct {
            // As Sudoku Explainer: the single appears in a unit of the same kind as the one
            // the value was locked in (another box for pointing, another line for claiming).
            let kind = b.geo.house(l.from);
            let units: Vec<usize> = l
                .elims
                .iter()
                .flat_map(|&(i, _)| b.geo.cell_units[i])
                .filter(|&u| b.geo.house(u) == kind && u != l.from)
                .collect();
            let Some((i, v, u)) = created_hidden_single(b, &l.elims, &units) else {
                return false;
            };
            placements.push((i, v));
            then = format!(
                "; then {}={v} is the only place for {v} in {}",
                b.geo.cell_name(i),
                b.geo.unit_name(u)
            );
        }
        let pattern = b.cands_cv(&l.cells, super::grid::bit(l.d));
        let t = text(b, &l) + &then;
        f.push(b.step(name, rating, pattern, &placements, &l.elims, t))
    });
}

/// Pointing: a box's places for a value in one line.
pub fn pointing(b: &Board, f: &mut Found) {
    find(b, f, true, false)
}

/// Claiming: a line's places for a value in one box.
pub fn claiming(b: &Board, f: &mut Found) {
    find(b, f, false, false)
}

/// Pointing that leaves a hidden single at once.
pub fn direct_pointing(b: &Board, f: &mut Found) {
    find(b, f, true, true)
}

/// Claiming that leaves a hidden single at once.
pub fn direct_claiming(b: &Board, f: &mut Found) {
    find(b, f, false, true)
}
