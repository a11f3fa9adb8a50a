//! The independent Numberlink rule checker, written from the rules, not from the CNF model:
//! links are mutual and stay on the board, an end has one link and any other cell two (or none
//! where cells may stay empty), following each path from one end reaches its other end, every
//! linked cell lies on such a path (no detached loop), and under `flow` no path runs alongside
//! itself.

use super::{opposite, Links, Numberlink, Rules, SIDES};

/// Follows the links from `start` until the path stops or comes back: the cells in order, and
/// true when it stopped at a cell with a single link (an end).
pub fn trace(p: &Numberlink, arms: &[u8], start: usize) -> (Vec<usize>, bool) {
    let mut cells = vec![start];
    let mut prev = usize::MAX;
    let mut cur = start;
    for _ in 0..p.cells() {
        let next = SIDES
            .iter()
            .filter(|&&s| arms[cur] & s != 0)
            .filter_map(|&s| p.neighbour(cur, s))
            .find(|&m| m != prev);
        match next {
            Some(m) if m != start => {
                prev = cur;
                cur = m;
                cells.push(m);
            }
            _ => break,
        }
        if arms[cur].count_ones() == 1 {
            return (cells, true);
        }
    }
    (cells, arms[cur].count_ones() == 1 && cur != start)
}

/// `Ok` when `s` is a solution of `p` under its rules; otherwise which rule breaks and where.
#[allow(clippy::needless_range_loop)] // cells are indices into several arrays
pub fn check(p: &Numberlink, s: &Links) -> Result<(), String> {
    let n = p.cells();
    if s.arms.len() != n || s.path.len() != n {
        return Err(format!(
            "the board has {} cells, expected {n}",
            s.arms.len()
        ));
    }
    let name = |c: usize| p.cell_name(c);
    let ep = p.endpoint_map();
    for c in 0..n {
        for side in SIDES {
            if s.arms[c] & side == 0 {
                continue;
            }
            match p.neighbour(c, side) {
                None => return Err(format!("{} links off the board", name(c))),
                Some(m) if s.arms[m] & opposite(side) == 0 => {
                    return Err(format!("{} links to {} but not back", name(c), name(m)))
                }
                _ => {}
            }
        }
        let deg = s.arms[c].count_ones();
        match (ep[c], deg) {
            (Some(_), 1) | (None, 2) => {}
            (None, 0) if p.rules == Rules::Nikoli => {}
            (None, 0) => {
                return Err(format!(
                    "{} is on no path, but under {} rules every cell is",
                    name(c),
                    p.rules.name()
                ))
            }
            (Some(k), d) => {
                return Err(format!(
                    "{} is an end of path {} but has {d} links",
                    name(c),
                    p.labels[k]
                ))
            }
            (None, 1) => return Err(format!("{} is a dead end", name(c))),
            (None, d) => return Err(format!("{} has {d} links: paths branch or cross", name(c))),
        }
    }
    let mut on = vec![0u32; n];
    for (k, &(a, b)) in p.ends.iter().enumerate() {
        let (cells, stopped) = trace(p, &s.arms, a);
        let last = *cells.last().expect("start");
        if !stopped || last != b {
            return Err(format!(
                "path {} from {} does not reach its other end {} (it stops at {})",
                p.labels[k],
                name(a),
                name(b),
                name(last)
            ));
        }
        for c in cells {
            on[c] = k as u32 + 1;
        }
    }
    for c in 0..n {
        if s.arms[c] != 0 && on[c] == 0 {
            return Err(format!("{} is on a loop that joins no ends", name(c)));
        }
        if s.path[c] != on[c] {
            let what = |k: u32| {
                if k == 0 {
                    "no path".to_string()
                } else {
                    format!("path {}", p.labels[k as usize - 1])
                }
            };
            return Err(format!(
                "{} is labelled {} but lies on {}",
                name(c),
                what(s.path[c]),
                what(on[c])
            ));
        }
    }
    if p.rules == Rules::Flow {
        for c in 0..n {
            for side in [super::RIGHT, super::DOWN] {
                if let Some(m) = p.neighbour(c, side) {
                    if on[c] != 0 && on[c] == on[m] && s.arms[c] & side == 0 {
                        return Err(format!(
                            "path {} runs alongside itself at {} and {}",
                            p.labels[on[c] as usize - 1],
                            name(c),
                            name(m)
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{DOWN, LEFT, RIGHT, UP};
    use super::*;

    /// 3x2, one path from r1c1 to r1c3 round the bottom (`╻.╻` over `┗━┛`): r1c2 stays
    /// empty, which only nikoli rules allow.
    fn u_board() -> (Numberlink, Links) {
        let p = Numberlink::new(3, 2, vec![(0, 2)]);
        let s = Links {
            arms: vec![DOWN, 0, DOWN, UP | RIGHT, LEFT | RIGHT, LEFT | UP],
            path: vec![1, 0, 1, 1, 1, 1],
        };
        (p, s)
    }

    #[test]
    fn empty_cells_only_under_nikoli() {
        let (mut p, s) = u_board();
        assert!(check(&p, &s).unwrap_err().contains("r1c2 is on no path"));
        p.rules = Rules::Nikoli;
        assert_eq!(check(&p, &s), Ok(()));
        assert_eq!(trace(&p, &s.arms, 0), (vec![0, 3, 4, 5, 2], true));
    }

    #[test]
    fn names_each_broken_rule() {
        let (mut p, s) = u_board();
        p.rules = Rules::Nikoli;
        let mut t = s.clone();
        t.arms[1] = DOWN; // not mutual
        assert!(check(&p, &t)
            .unwrap_err()
            .contains("links to r2c2 but not back"));
        let mut t = s.clone();
        t.path[4] = 0;
        assert!(check(&p, &t).unwrap_err().contains("labelled no path"));
        let mut t = s.clone();
        t.arms[0] = UP;
        assert!(check(&p, &t).unwrap_err().contains("off the board"));
        // A detached loop: 2x2 board, no ends at all, all linked.
        let q = Numberlink {
            rules: Rules::Nikoli,
            ..Numberlink::new(2, 2, vec![])
        };
        let ring = Links {
            arms: vec![RIGHT | DOWN, LEFT | DOWN, UP | RIGHT, UP | LEFT],
            path: vec![0; 4],
        };
        assert!(check(&q, &ring)
            .unwrap_err()
            .contains("loop that joins no ends"));
    }

    #[test]
    fn flow_forbids_running_alongside() {
        // 2x3 (w=2, h=3): one path r1c1 → r1c2 → r2c2 → r2c1 → r3c1 → r3c2: r1c1 and r2c1 touch.
        let mut p = Numberlink::new(2, 3, vec![(0, 5)]);
        let s = Links {
            arms: vec![
                RIGHT,
                LEFT | DOWN,
                RIGHT | DOWN,
                UP | LEFT,
                UP | RIGHT,
                LEFT,
            ],
            path: vec![1; 6],
        };
        assert!(check(&p, &s)
            .unwrap_err()
            .contains("runs alongside itself at r1c1 and r2c1"));
        p.rules = Rules::Cover;
        assert_eq!(check(&p, &s), Ok(()));
    }
}
