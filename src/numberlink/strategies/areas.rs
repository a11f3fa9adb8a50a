//! Open areas, where every cell must be covered (`flow`, `cover`): an area of cells no path has
//! reached yet is filled by paths that come in from loose ends around it and go out again to
//! other loose ends, two loose ends per visit. So an area with no loose end beside it, or one,
//! can not be filled; an area with exactly two is one visit that joins them (a *sealed area*):
//! both loose ends go into it, and its cells are on their path. On a checkerboard, a path
//! through the area alternates colours, so the area's count of dark cells minus light cells
//! says on which colours the visit enters and leaves (*parity*).

use super::board::{Board, Contradiction, Shape, Why};
use super::paths::Scratch;
use super::{cells_text, name, on_path, path_name, Deduction, Found, Technique};
use crate::numberlink::{Numberlink, SIDES};

/// One open area: its cells, and each loose end beside it with the cells it could enter by.
pub struct Area {
    pub cells: Vec<usize>,
    pub tips: Vec<(usize, Vec<usize>)>,
}

/// The open areas (connected by possible links) of the board, and the loose ends beside each
/// (`only`: when given, only the areas holding one of these cells). An area is left
/// unfinished (and not returned) once `most` loose ends are seen beside it: such an area says
/// nothing here. Its cells seen so far are marked, so that a search from another of its cells
/// stops when it meets them.
fn areas_upto(
    s: &Shape,
    b: &Board,
    only: Option<&[usize]>,
    most: usize,
    x: &mut Scratch,
) -> Vec<Area> {
    const UNSEEN: u8 = 0;
    const SEEN: u8 = 1;
    const CROWDED: u8 = 2;
    let n = s.cells();
    let mut seen = std::mem::take(&mut x.area);
    seen.resize(n, UNSEEN);
    let mut marked = std::mem::take(&mut x.area_marked);
    marked.clear();
    // The loose ends seen beside the area being searched, and the cells each could enter by
    // (its place in `tips`, the cell): made into the area's lists only for an area returned
    // (most areas are crowded, and need none).
    let mut tips = std::mem::take(&mut x.area_tips);
    let mut entries = std::mem::take(&mut x.area_entries);
    let mut out = Vec::new();
    let starts = only.map_or(n, |cs| cs.len());
    for i in 0..starts {
        let st = only.map_or(i, |cs| cs[i]);
        if seen[st] != UNSEEN || !b.open(s, st) || b.is_empty(s, st) {
            continue;
        }
        let mut cells = std::mem::take(&mut x.area_cells);
        cells.clear();
        cells.push(st);
        seen[st] = SEEN;
        marked.push(st);
        tips.clear();
        entries.clear();
        let mut i = 0;
        let mut crowded = false;
        while i < cells.len() && !crowded {
            let c = cells[i];
            i += 1;
            let ways = x.ways(s, b, c);
            for (side, &bit) in SIDES.iter().enumerate() {
                if ways & bit == 0 {
                    continue;
                }
                let m = s.nb[c][side] as usize;
                if b.open(s, m) {
                    match seen[m] {
                        UNSEEN => {
                            seen[m] = SEEN;
                            marked.push(m);
                            cells.push(m);
                        }
                        CROWDED => crowded = true,
                        _ => {}
                    }
                } else {
                    let j = match tips.iter().position(|&t| t == m) {
                        Some(j) => j,
                        None => {
                            tips.push(m);
                            tips.len() - 1
                        }
                    };
                    entries.push((j as u32, c as u32));
                    crowded |= tips.len() >= most;
                }
            }
        }
        if crowded {
            for &c in &cells {
                seen[c] = CROWDED;
            }
            x.area_cells = cells;
        } else {
            let tips = tips
                .iter()
                .enumerate()
                .map(|(j, &t)| {
                    let from = entries.iter().filter(|&&(e, _)| e as usize == j);
                    (t, from.map(|&(_, c)| c as usize).collect())
                })
                .collect();
            out.push(Area { cells, tips });
        }
    }
    x.area_tips = tips;
    x.area_entries = entries;
    for &c in &marked {
        seen[c] = UNSEEN;
    }
    x.area = seen;
    x.area_marked = marked;
    out
}

/// Dark minus light cells of an area.
fn imbalance(s: &Shape, cells: &[usize]) -> i64 {
    cells.iter().map(|&c| if s.dark(c) { 1 } else { -1 }).sum()
}

/// The entries of the first loose end that a single visit through the area can use: the
/// visit from `e1` to `e2` covers the area only if the colours of its two ends match the
/// area's imbalance (and, in a one-cell area, enters and leaves by that cell).
fn fitting(s: &Shape, a: &Area, d: i64, first: &[usize], second: &[usize]) -> Vec<usize> {
    let single = a.cells.len() == 1;
    first
        .iter()
        .copied()
        .filter(|&e1| {
            second.iter().any(|&e2| {
                if single {
                    e1 == e2
                } else {
                    e1 != e2 && d == i64::from(s.dark(e1)) + i64::from(s.dark(e2)) - 1
                }
            })
        })
        .collect()
}

/// The areas checked in `areas` (all of them, or those holding `only`'s cells).
/// (After [`Scratch::prepare`] on this board.)
pub fn sealed_area_in(
    s: &Shape,
    b: &Board,
    say: Option<&Numberlink>,
    only: Option<&[usize]>,
    x: &mut Scratch,
) -> Found {
    if !s.rules.covers() {
        return None;
    }
    // Looking on after a few loose ends only matters for the parity of a crowded area,
    // which the steps check but a what-if leaves alone.
    let most = if say.is_some() { usize::MAX } else { 3 };
    for a in areas_upto(s, b, only, most, x) {
        let first = a.cells[0];
        let d = imbalance(s, &a.cells);
        if a.tips.len() < 2 {
            return Some(Err(Contradiction::new(Why::Area, a.cells.clone(), None)));
        }
        if a.tips.len() > 2 {
            // Each visit uses two loose ends and changes the imbalance by at most one.
            if d.unsigned_abs() as usize > a.tips.len() / 2 {
                return Some(Err(Contradiction::new(Why::Parity, a.cells.clone(), None)));
            }
            continue;
        }
        let (t1, e1) = (a.tips[0].0, &a.tips[0].1);
        let (t2, e2) = (a.tips[1].0, &a.tips[1].1);
        if b.same_piece(t1, t2) {
            return Some(Err(Contradiction::new(
                Why::Area,
                vec![first, t1, t2],
                None,
            )));
        }
        let shared: Vec<usize> = (0..s.paths)
            .filter(|&k| b.has(t1, k) && b.has(t2, k))
            .collect();
        if shared.is_empty() {
            return Some(Err(Contradiction::new(
                Why::Area,
                vec![first, t1, t2],
                None,
            )));
        }
        if d.abs() > 1 {
            return Some(Err(Contradiction::new(Why::Parity, a.cells.clone(), None)));
        }
        // The area's cells are on the path of the two loose ends.
        let mut elims = Vec::new();
        for &c in &a.cells {
            for k in b.list(c) {
                if !shared.contains(&k) {
                    elims.push((c, k));
                }
            }
        }
        let k = (shared.len() == 1).then(|| shared[0]);
        let mut pattern = vec![t1, t2];
        pattern.extend(a.cells.iter().copied());
        if !elims.is_empty() {
            let mut dd = Deduction::new(Technique::SealedArea, k, pattern);
            dd.elims = elims;
            if let Some(p) = say {
                dd.text = format!(
                    "the open area of {} at {} can only be entered from {} and {}: one path runs in by one and out by the other, so {} on {}",
                    count(a.cells.len()),
                    cells_text(p, &a.cells),
                    name(p, t1),
                    name(p, t2),
                    if a.cells.len() == 1 { "it is" } else { "its cells are" },
                    paths_text(p, &shared)
                );
            }
            return Some(Ok(dd));
        }
        // Both loose ends go in; with one way in (after parity), the link is drawn.
        let f1 = fitting(s, &a, d, e1, e2);
        let f2 = fitting(s, &a, d, e2, e1);
        if f1.is_empty() || f2.is_empty() {
            return Some(Err(Contradiction::new(Why::Parity, a.cells.clone(), None)));
        }
        let by_parity = |f: &[usize], e: &[usize]| f.len() < e.len();
        for (t, f, e) in [(t1, &f1, e1), (t2, &f2, e2)] {
            let mut e_all = e.clone();
            crate::sort::all(&mut e_all);
            e_all.dedup();
            let other_ways = b.way_count(s, t) > e_all.len();
            if f.len() != 1 || (!other_ways && !by_parity(f, &e_all)) {
                continue;
            }
            let technique = if by_parity(f, &e_all) {
                Technique::Parity
            } else {
                Technique::SealedArea
            };
            let mut dd = Deduction::new(technique, k, pattern.clone());
            dd.links.push((t, f[0]));
            if let Some(p) = say {
                let k = on_path(p, k);
                dd.text = if technique == Technique::Parity {
                    format!(
                        "the open area of {} at {} can only be filled by {} coming in from {} and going out to {}; it has {} dark and {} light cells (as on a chessboard), and a path through it alternates, so {} goes in by {}",
                        count(a.cells.len()),
                        name(p, first),
                        k,
                        name(p, t1),
                        name(p, t2),
                        a.cells.iter().filter(|&&c| s.dark(c)).count(),
                        a.cells.iter().filter(|&&c| !s.dark(c)).count(),
                        name(p, t),
                        name(p, f[0])
                    )
                } else {
                    format!(
                        "the open area of {} at {} can only be entered from {} and {}, so both go in: {} at {} goes to {}",
                        count(a.cells.len()),
                        name(p, first),
                        name(p, t1),
                        name(p, t2),
                        k,
                        name(p, t),
                        name(p, f[0])
                    )
                };
            }
            return Some(Ok(dd));
        }
    }
    None
}

/// Sealed areas and parity anywhere on the board.
pub fn sealed_area(s: &Shape, b: &Board, say: Option<&Numberlink>, x: &mut Scratch) -> Found {
    x.prepare(s, b);
    sealed_area_in(s, b, say, None, x)
}

fn count(cells: usize) -> String {
    crate::text::count_of(cells, "cell")
}

fn paths_text(p: &Numberlink, ks: &[usize]) -> String {
    let names: Vec<String> = ks.iter().map(|&k| path_name(p, k)).collect();
    names.join(" or ")
}
