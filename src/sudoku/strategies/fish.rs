//! Basic fish: for one value, k rows whose places all lie in k columns (or k columns in k
//! rows) — the value then leaves those columns outside the rows. X-Wing (k = 2), Swordfish (3),
//! Jellyfish (4).

use super::grid::{bits, Board, Found};
use super::rating::base;

const NAMES: [&str; 5] = ["", "", "X-Wing", "Swordfish", "Jellyfish"];

fn rating(k: usize) -> f64 {
    [0.0, 0.0, base::X_WING, base::SWORDFISH, base::JELLYFISH][k]
}

/// Fish of size `k` on every value, rows as base sets first, then columns.
pub fn basic(b: &Board, f: &mut Found, k: usize) {
    let g = &b.geo;
    let n = g.n;
    for d in 1..=n as u8 {
        for by_rows in [true, false] {
            // Base lines: rows (units 0..n) or columns (n..2n); a line's places are the
            // indices of the crossing lines.
            let off = if by_rows { 0 } else { n };
            let cover_off = n - off;
            let lines: Vec<usize> = (0..n)
                .filter(|&l| (2..=k as u32).contains(&b.places(off + l, d).count_ones()))
                .collect();
            let stop = super::grid::subsets(&lines, k, &mut |set| {
                let cover = set.iter().fold(0u64, |m, &l| m | b.places(off + l, d));
                if cover.count_ones() as usize != k {
                    return false;
                }
                let mut elims = Vec::new();
                for c in bits(cover) {
                    for p in bits(b.places(cover_off + c, d)) {
                        if !set.contains(&p) {
                            elims.push((g.cell_at(cover_off + c, p), d));
                        }
                    }
                }
                if elims.is_empty() {
                    return false;
                }
                let mut cells = Vec::new();
                for &l in set {
                    cells.extend(b.cells_for(off + l, d));
                }
                let (base_word, cover_word) = if by_rows {
                    ("rows", "columns")
                } else {
                    ("columns", "rows")
                };
                let list = |it: &mut dyn Iterator<Item = usize>| {
                    it.map(|x| (x + 1).to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let text = format!(
                    "{} on {d} in {base_word} {} ({cover_word} {}) {}",
                    NAMES[k],
                    list(&mut set.iter().copied()),
                    list(&mut bits(cover)),
                    b.elim_text(&elims)
                );
                f.push(b.step(
                    NAMES[k],
                    rating(k),
                    b.cands_cv(&cells, super::grid::bit(d)),
                    &[],
                    &elims,
                    text,
                ))
            });
            if stop {
                return;
            }
        }
    }
}
