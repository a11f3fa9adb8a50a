//! The independent rule checker: replays a plan move by move, written without looking at the
//! CNF models. Each move must take two tiles that are on the board where the move says, that
//! match, joined by its line (orthogonal steps, at most three straight segments, every cell
//! between the two tiles empty or on the ring when the outline is allowed), and the seed's
//! pair test ([`super::pair::joinable`]) must agree that they can be joined. With gravity the
//! tiles above each emptied cell fall after the removal ([`fall`]). At the end the board must
//! be empty.

use super::pair::{joinable, segments, Grid, Point};
use super::{Plan, Shisen};

/// Gravity: every tile of column `col` falls as far as it can (the column ends packed at the
/// bottom, tiles in the same order). `cells` is row-major, `width` wide.
pub fn fall<T: Copy>(cells: &mut [Option<T>], width: usize, col: usize) {
    let height = cells.len() / width;
    let stack: Vec<T> = (0..height)
        .rev()
        .filter_map(|r| cells[r * width + col])
        .collect();
    for r in 0..height {
        cells[r * width + col] = None;
    }
    for (k, t) in stack.into_iter().enumerate() {
        cells[(height - 1 - k) * width + col] = Some(t);
    }
}

/// Checks a plan; `Err` says which move breaks which rule.
pub fn check(p: &Shisen, plan: &Plan) -> Result<(), String> {
    let (w, h) = (p.width, p.height);
    // Which tile (by starting cell) is in each cell now.
    let mut at: Vec<Option<usize>> = (0..p.cells_len()).map(|c| p.cells[c].map(|_| c)).collect();
    let mut occupied = vec![false; at.len()];
    for (k, m) in plan.moves.iter().enumerate() {
        // Made only when a move breaks a rule.
        let name = || format!("move {} ({})", k + 1, p.move_name(m));
        let [x, y] = m.tiles;
        let [(ra, ca), (rb, cb)] = m.cells;
        if ra >= h || rb >= h || ca >= w || cb >= w {
            return Err(format!("{}: a cell is off the board", name()));
        }
        for (i, &(r, c)) in m.cells.iter().enumerate() {
            if at[r * w + c] != Some(m.tiles[i]) {
                return Err(format!(
                    "{}: the tile from {} is not at {} now",
                    name(),
                    p.cell_name(m.tiles[i]),
                    crate::puzzle::cell_name(r, c)
                ));
            }
        }
        if x == y || !p.matches(x, y) {
            return Err(format!(
                "{}: {} and {} do not match",
                name(),
                p.face_name(x),
                p.face_name(y)
            ));
        }
        for (o, t) in occupied.iter_mut().zip(&at) {
            *o = t.is_some();
        }
        let grid = Grid {
            width: w,
            height: h,
            outline: p.rules.outline,
            occupied: &occupied,
        };
        check_line(&grid, &m.path, (ra, ca), (rb, cb))
            .map_err(|why| format!("{}: {why}", name()))?;
        if !joinable(&grid, (ra, ca), (rb, cb)) {
            return Err(format!(
                "{}: the pair test finds no line between them",
                name()
            ));
        }
        at[ra * w + ca] = None;
        at[rb * w + cb] = None;
        if p.rules.gravity {
            fall(&mut at, w, ca);
            if cb != ca {
                fall(&mut at, w, cb);
            }
        }
    }
    if let Some(c) = at.iter().position(|t| t.is_some()) {
        let left = at.iter().filter(|t| t.is_some()).count();
        return Err(format!(
            "the plan leaves {} on the board (the first at {})",
            crate::text::count_of(left, "tile"),
            p.cell_name(c)
        ));
    }
    Ok(())
}

/// A move's line: from `a` to `b`, orthogonal steps, at most three segments, every point
/// between them on the board or ring (`grid.inside`) and empty.
fn check_line(
    grid: &Grid,
    path: &[Point],
    a: (usize, usize),
    b: (usize, usize),
) -> Result<(), String> {
    let (a, b) = ((a.0 as i64, a.1 as i64), (b.0 as i64, b.1 as i64));
    if path.len() < 2 || path[0] != a || path[path.len() - 1] != b {
        return Err("its line does not run from one tile to the other".into());
    }
    for w in path.windows(2) {
        if (w[0].0 - w[1].0).abs() + (w[0].1 - w[1].1).abs() != 1 {
            return Err(format!(
                "its line jumps from {:?} to {:?} (steps are to a neighbouring cell)",
                w[0], w[1]
            ));
        }
    }
    if segments(path) > 3 {
        return Err(format!(
            "its line has {} straight segments (at most three: two turns)",
            segments(path)
        ));
    }
    for &q in &path[1..path.len() - 1] {
        if !grid.inside(q) {
            return Err(format!(
                "its line leaves the board at row {}, column {}{}",
                q.0 + 1,
                q.1 + 1,
                if grid.outline { "" } else { " (no outline)" }
            ));
        }
        if !grid.empty(q) {
            return Err(format!(
                "its line passes {}, which holds a tile",
                crate::puzzle::cell_name(q.0 as usize, q.1 as usize)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shisen::format::{parse, ReadOptions};
    use crate::shisen::model::plan_of;
    use crate::shisen::Move;

    fn board(text: &str) -> Shisen {
        parse("t", text, &ReadOptions::default()).unwrap().remove(0)
    }

    #[test]
    fn gravity_packs_a_column_at_the_bottom() {
        let mut cells = vec![Some(1), Some(2), None, Some(3), None, None];
        // 2 wide, 3 high: column 0 holds 1, None, None; column 1 holds 2, 3, None.
        fall(&mut cells, 2, 0);
        fall(&mut cells, 2, 1);
        assert_eq!(cells, vec![None, None, None, Some(2), Some(1), Some(3)]);
    }

    #[test]
    fn a_good_plan_passes_and_broken_plans_say_why() {
        let p = board("# shisen: no-outline\nA B B A\n");
        let good = plan_of(&p, &[(1, 2), (0, 3)]);
        assert_eq!(check(&p, &good), Ok(()));
        // The A's first: the B's are in the way.
        let bad = plan_of(&p, &[(0, 3), (1, 2)]);
        let e = check(&p, &bad).unwrap_err();
        assert!(e.starts_with("move 1 (A r1c1-r1c4)"), "{e}");
        // Not matching.
        let e = check(&p, &plan_of(&p, &[(0, 1)])).unwrap_err();
        assert!(e.contains("do not match"), "{e}");
        // A line through a tile, a line that jumps, tiles left.
        let mut m = good.clone();
        m.moves[1] = Move {
            path: vec![(0, 0), (0, 1), (0, 2), (0, 3)],
            ..m.moves[1].clone()
        };
        assert_eq!(check(&p, &m), Ok(()));
        m.moves[0].path = vec![(0, 1), (0, 2)];
        m.moves[1].path = vec![(0, 0), (0, 3)];
        assert!(check(&p, &m).unwrap_err().contains("jumps"));
        let e = check(
            &p,
            &Plan {
                moves: good.moves[..1].to_vec(),
            },
        )
        .unwrap_err();
        assert!(e.contains("leaves 2 tiles"), "{e}");
    }

    #[test]
    fn the_ring_only_with_the_outline_and_three_segments_at_most() {
        let p = board("A B B A\n");
        let over = Plan {
            moves: vec![Move {
                tiles: [0, 3],
                cells: [(0, 0), (0, 3)],
                path: vec![(0, 0), (-1, 0), (-1, 1), (-1, 2), (-1, 3), (0, 3)],
            }],
        };
        // The B's stay, but the A's line over the ring is fine.
        assert!(check(&p, &over).unwrap_err().contains("leaves 2 tiles"));
        let q = board("# shisen: no-outline\nA B B A\n");
        assert!(check(&q, &over).unwrap_err().contains("leaves the board"));
        let long = Plan {
            moves: vec![Move {
                tiles: [0, 3],
                cells: [(0, 0), (0, 3)],
                path: vec![
                    (0, 0),
                    (-1, 0),
                    (-1, -1),
                    (0, -1),
                    (1, -1),
                    (1, 0),
                    (1, 1),
                    (1, 2),
                    (1, 3),
                    (0, 3),
                ],
            }],
        };
        assert!(check(&p, &long).unwrap_err().contains("straight segments"));
    }
}
