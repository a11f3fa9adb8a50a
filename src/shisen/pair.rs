//! The pair test of the seed (連連看遊戲原理): can two tiles be joined now by a line of at most
//! three straight segments (two turns) through empty cells? Between tile A in column `ca` and
//! tile B in column `cb`, a horizontal middle segment slides from the top border to the bottom
//! one: A goes straight up or down to the segment's row, along it to B's column, and straight
//! to B. If no row works, the same with a vertical middle segment sliding from the left border
//! to the right. Every line of at most two turns is one of these. With the outline the
//! borders are one cell outside the board, on the ring of always-empty cells around it.
//!
//! This module stands alone: the rule checker replays a plan with [`join`] and the models are
//! built from the same sweep ([`sweeps`]), but nothing here knows of either.

/// A point of the board or its ring: row and column, each from -1 to the height or width.
pub type Point = (i64, i64);

/// A position: which cells hold a tile now.
#[derive(Clone, Copy, Debug)]
pub struct Grid<'a> {
    pub width: usize,
    pub height: usize,
    /// Lines may use the ring around the board.
    pub outline: bool,
    /// Row-major: true where a tile is.
    pub occupied: &'a [bool],
}

impl Grid<'_> {
    /// True when `p` is on the board or (with the outline) the ring.
    pub fn inside(&self, (r, c): Point) -> bool {
        let (h, w) = (self.height as i64, self.width as i64);
        let lo = if self.outline { -1 } else { 0 };
        let (hi_r, hi_c) = if self.outline { (h, w) } else { (h - 1, w - 1) };
        (lo..=hi_r).contains(&r) && (lo..=hi_c).contains(&c)
    }

    /// True when `p` is inside and holds no tile (the ring is always empty).
    pub fn empty(&self, p: Point) -> bool {
        if !self.inside(p) {
            return false;
        }
        let (r, c) = p;
        if r < 0 || c < 0 || r >= self.height as i64 || c >= self.width as i64 {
            return true;
        }
        !self.occupied[r as usize * self.width + c as usize]
    }
}

/// The lines the sweep tries between `a` and `b`, as four corner points each (from `a` to the
/// middle segment, along it, to `b`): first every row from the top border to the bottom one
/// (`-1..=height` with the outline, `0..height` without), then every column.
pub fn sweeps(width: usize, height: usize, outline: bool, a: Point, b: Point) -> Vec<[Point; 4]> {
    sweep(width, height, outline, a, b).collect()
}

/// [`sweeps`] one line at a time.
fn sweep(
    width: usize,
    height: usize,
    outline: bool,
    a: Point,
    b: Point,
) -> impl Iterator<Item = [Point; 4]> {
    let (lo, hi_r, hi_c) = if outline {
        (-1, height as i64, width as i64)
    } else {
        (0, height as i64 - 1, width as i64 - 1)
    };
    let rows = (lo..=hi_r).map(move |r| [a, (r, a.1), (r, b.1), b]);
    let cols = (lo..=hi_c).map(move |c| [a, (a.0, c), (b.0, c), b]);
    rows.chain(cols)
}

/// The points of a line through `corners`, in order, each once (a corner that repeats the one
/// before it adds nothing).
pub fn trace(corners: &[Point]) -> Vec<Point> {
    let mut out: Vec<Point> = vec![corners[0]];
    for w in corners.windows(2) {
        let (mut p, q) = (w[0], w[1]);
        let step = ((q.0 - p.0).signum(), (q.1 - p.1).signum());
        while p != q {
            p = (p.0 + step.0, p.1 + step.1);
            if out.len() >= 2 && out[out.len() - 2] == p {
                // The line doubles back on itself: not a line of this shape.
                return Vec::new();
            }
            out.push(p);
        }
    }
    out
}

/// The number of straight segments of a line (0 for a single point).
pub fn segments(line: &[Point]) -> usize {
    let mut n = 0;
    let mut dir = (0, 0);
    for w in line.windows(2) {
        let d = (w[1].0 - w[0].0, w[1].1 - w[0].1);
        if d != dir {
            n += 1;
            dir = d;
        }
    }
    n
}

/// The pair test: the line of at most three segments from `a` to `b` whose cells between them
/// are all empty, fewest segments first, then the shortest (then the sweep's order); `None`
/// when there is none. `a` and `b` are board cells (row, column); whether their tiles match
/// is not this test's business.
pub fn join(g: &Grid, a: (usize, usize), b: (usize, usize)) -> Option<Vec<Point>> {
    let (a, b) = ((a.0 as i64, a.1 as i64), (b.0 as i64, b.1 as i64));
    if a == b {
        return None;
    }
    let mut best: Option<((usize, usize), [Point; 4])> = None;
    for corners in sweep(g.width, g.height, g.outline, a, b) {
        if let Some(key) = open_line(g, &corners) {
            if best.is_none_or(|(k, _)| key < k) {
                best = Some((key, corners));
            }
        }
    }
    best.map(|(_, corners)| trace(&corners))
}

/// True when [`join`] finds a line: the same sweep, stopping at the first open line.
pub fn joinable(g: &Grid, a: (usize, usize), b: (usize, usize)) -> bool {
    let (a, b) = ((a.0 as i64, a.1 as i64), (b.0 as i64, b.1 as i64));
    a != b && sweep(g.width, g.height, g.outline, a, b).any(|c| open_line(g, &c).is_some())
}

/// What [`trace`] and [`segments`] say of the line through `corners` when every point between
/// its ends is empty (`(segments, points)`), without building it: `None` for a blocked line or
/// one that doubles back.
fn open_line(g: &Grid, corners: &[Point; 4]) -> Option<(usize, usize)> {
    let (mut before, mut prev) = (None, corners[0]);
    let (mut len, mut segs, mut dir) = (1usize, 0usize, (0i64, 0i64));
    for w in corners.windows(2) {
        let (mut p, q) = (w[0], w[1]);
        let step = ((q.0 - p.0).signum(), (q.1 - p.1).signum());
        while p != q {
            p = (p.0 + step.0, p.1 + step.1);
            if before == Some(p) {
                return None;
            }
            // The point before this one is between the ends unless it is the first.
            if len > 1 && !g.empty(prev) {
                return None;
            }
            let d = (p.0 - prev.0, p.1 - prev.1);
            if d != dir {
                segs += 1;
                dir = d;
            }
            before = Some(prev);
            prev = p;
            len += 1;
        }
    }
    (len >= 2).then_some((segs, len))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid<'a>(w: usize, h: usize, outline: bool, occ: &'a [bool]) -> Grid<'a> {
        Grid {
            width: w,
            height: h,
            outline,
            occupied: occ,
        }
    }

    /// A board from rows of `#` (tile) and `.`.
    fn occ(rows: &[&str]) -> Vec<bool> {
        rows.iter()
            .flat_map(|r| r.chars().map(|c| c == '#'))
            .collect()
    }

    #[test]
    fn neighbours_straight_lines_and_corners() {
        let o = occ(&["##.#", "....", "#..#"]);
        let g = grid(4, 3, false, &o);
        // Neighbours: one segment, two points.
        assert_eq!(join(&g, (0, 0), (0, 1)).unwrap(), vec![(0, 0), (0, 1)]);
        // Across the empty middle row: an L or a U through row 1.
        let line = join(&g, (0, 1), (2, 3)).unwrap();
        assert_eq!(segments(&line), 2);
        assert_eq!(line.first(), Some(&(0, 1)));
        assert_eq!(line.last(), Some(&(2, 3)));
        // Blocked: r1c1 to r1c4 has r1c2 in the way and no ring; round via row 2 works.
        let line = join(&g, (0, 0), (0, 3)).unwrap();
        assert_eq!(segments(&line), 3);
        assert!(line.contains(&(1, 1)));
    }

    #[test]
    fn the_ring_is_used_only_with_the_outline() {
        // Two tiles at the top corners with a wall between them and below them.
        let o = occ(&["###", "###"]);
        assert!(join(&grid(3, 2, false, &o), (0, 0), (0, 2)).is_none());
        let line = join(&grid(3, 2, true, &o), (0, 0), (0, 2)).unwrap();
        assert_eq!(
            line,
            vec![(0, 0), (-1, 0), (-1, 1), (-1, 2), (0, 2)],
            "over the top"
        );
        // Corner to opposite corner of a full 2x2: every way round passes another tile.
        let o = occ(&["##", "##"]);
        assert!(join(&grid(2, 2, true, &o), (0, 0), (1, 1)).is_none());
    }

    #[test]
    fn three_segments_at_most() {
        // A spiral-ish wall: the only way needs four segments, so there is none.
        let o = occ(&[
            "#....", //
            "####.", //
            "#..#.", //
            "#.##.", //
            "#....",
        ]);
        let g = grid(5, 5, false, &o);
        // r1c1 to r3c2: round by column 5 and row 5 takes four segments, so no line.
        assert!(join(&g, (0, 0), (2, 1)).is_none());
        assert!(join(&g, (0, 0), (1, 0)).is_some());
    }

    #[test]
    fn trace_refuses_lines_that_double_back() {
        assert!(trace(&[(0, 0), (2, 0), (1, 0), (1, 1)]).is_empty());
        assert_eq!(trace(&[(0, 0), (0, 0), (0, 2), (0, 2)]).len(), 3);
    }
}
