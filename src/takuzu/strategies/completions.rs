//! Strategy 5's counting: how many fillings of one line keep its known digits, no three equal
//! side by side, and a number of 1s within bounds — per open cell and digit — by a forward and
//! a backward pass over (position, last digit, run length 1 or 2, number of 1s so far). That is
//! O(n²) for a line of n cells, where listing the fillings would be O(2^n).
//!
//! The distinct-lines rule is handled exactly: each complete line of the same kind that is
//! itself one of the counted fillings is one filling too many, subtracted cell by cell.

/// Counts saturate at `u128::MAX` (lines beyond 127 cells); a saturated count is still far
/// above the handful of complete lines ever subtracted from it.
type Count = u128;

/// For each position: `Some(d)` when every admissible filling has `d` there, else `None`.
/// `None` overall when no filling is admissible. `exclude` are complete lines the filling
/// must differ from.
pub fn forced(
    v: &[Option<u8>],
    lo: usize,
    hi: usize,
    exclude: &[Vec<u8>],
) -> Option<Vec<Option<u8>>> {
    let mut per = counts(v, lo, hi);
    let mut seen: Vec<&Vec<u8>> = Vec::new();
    for e in exclude {
        if seen.contains(&e) {
            continue;
        }
        seen.push(e);
        if is_filling(v, e, lo, hi) {
            for (p, &d) in e.iter().enumerate() {
                per[p][d as usize] -= 1;
            }
        }
    }
    if per.first().is_some_and(|c| c[0] == 0 && c[1] == 0) {
        return None;
    }
    Some(
        per.iter()
            .map(|c| match (c[0] > 0, c[1] > 0) {
                (true, false) => Some(0),
                (false, true) => Some(1),
                _ => None,
            })
            .collect(),
    )
}

/// True when `e` is one of the fillings [`counts`] counts.
fn is_filling(v: &[Option<u8>], e: &[u8], lo: usize, hi: usize) -> bool {
    if e.len() != v.len() || v.iter().zip(e).any(|(x, &y)| x.is_some_and(|x| x != y)) {
        return false;
    }
    let ones = e.iter().filter(|&&d| d == 1).count();
    (lo..=hi).contains(&ones) && !e.windows(3).any(|w| w[0] == w[1] && w[1] == w[2])
}

/// For each position, the number of admissible fillings with a 0 and with a 1 there.
pub fn counts(v: &[Option<u8>], lo: usize, hi: usize) -> Vec<[Count; 2]> {
    let n = v.len();
    if n == 0 {
        return Vec::new();
    }
    let m = n + 1; // ones count 0..=n
                   // State index: ((d * 2) + (run - 1)) * m + ones.
    let idx = |d: usize, run: usize, ones: usize| ((d * 2) + (run - 1)) * m + ones;
    let size = 4 * m;
    let allowed = |p: usize, d: usize| v[p].is_none_or(|x| x as usize == d);
    // Forward: prefixes 0..=p ending in state s.
    let mut fwd = vec![vec![0 as Count; size]; n];
    for d in 0..2 {
        if allowed(0, d) {
            fwd[0][idx(d, 1, d)] = 1;
        }
    }
    for p in 1..n {
        let (prev, cur) = fwd.split_at_mut(p);
        let (prev, cur) = (&prev[p - 1], &mut cur[0]);
        for d in 0..2 {
            for run in 1..=2 {
                for ones in 0..=p {
                    let c = prev[idx(d, run, ones)];
                    if c == 0 {
                        continue;
                    }
                    for e in 0..2 {
                        if !allowed(p, e) {
                            continue;
                        }
                        let r2 = if e == d { run + 1 } else { 1 };
                        if r2 > 2 {
                            continue;
                        }
                        let s = idx(e, r2, ones + e);
                        cur[s] = cur[s].saturating_add(c);
                    }
                }
            }
        }
    }
    // Backward: the number of ways to finish from state s at p.
    let mut bwd = vec![vec![0 as Count; size]; n];
    for d in 0..2 {
        for run in 1..=2 {
            for ones in lo..=hi.min(n) {
                bwd[n - 1][idx(d, run, ones)] = 1;
            }
        }
    }
    for p in (0..n - 1).rev() {
        let (cur, next) = bwd.split_at_mut(p + 1);
        let (cur, next) = (&mut cur[p], &next[0]);
        for d in 0..2 {
            for run in 1..=2 {
                for ones in 0..=p + 1 {
                    let mut total: Count = 0;
                    for e in 0..2 {
                        if !allowed(p + 1, e) {
                            continue;
                        }
                        let r2 = if e == d { run + 1 } else { 1 };
                        if r2 > 2 || ones + e > n {
                            continue;
                        }
                        total = total.saturating_add(next[idx(e, r2, ones + e)]);
                    }
                    cur[idx(d, run, ones)] = total;
                }
            }
        }
    }
    (0..n)
        .map(|p| {
            let mut c = [0 as Count; 2];
            for (d, slot) in c.iter_mut().enumerate() {
                for run in 1..=2 {
                    for ones in 0..=p + 1 {
                        let s = idx(d, run, ones);
                        *slot = slot.saturating_add(fwd[p][s].saturating_mul(bwd[p][s]));
                    }
                }
            }
            c
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Vec<Option<u8>> {
        s.chars()
            .map(|c| match c {
                '0' => Some(0),
                '1' => Some(1),
                _ => None,
            })
            .collect()
    }

    /// Brute force over all fillings.
    fn brute(v: &[Option<u8>], lo: usize, hi: usize, exclude: &[Vec<u8>]) -> Vec<[u128; 2]> {
        let n = v.len();
        let mut out = vec![[0u128; 2]; n];
        for bits in 0..1u32 << n {
            let e: Vec<u8> = (0..n).map(|i| (bits >> i & 1) as u8).collect();
            if is_filling(v, &e, lo, hi) && !exclude.contains(&e) {
                for (p, &d) in e.iter().enumerate() {
                    out[p][d as usize] += 1;
                }
            }
        }
        out
    }

    #[test]
    fn counts_match_brute_force() {
        for s in [
            "......",
            "0.....",
            ".1..0.",
            "..1....",
            "1.......0.",
            "0..1..1..0..",
            ".........",
        ] {
            let v = parse(s);
            let n = v.len();
            for (lo, hi) in [
                (n / 2, n / 2),
                (n / 2, n.div_ceil(2)),
                (n.div_ceil(2), n.div_ceil(2)),
            ] {
                let got = counts(&v, lo, hi);
                assert_eq!(got, brute(&v, lo, hi, &[]), "{s} {lo}..{hi}");
            }
        }
    }

    #[test]
    fn exclusions_are_exact() {
        let v = parse("01....");
        // Fillings of 01.... balanced, no three: 010011, 010101, 010110, 011001, 011010, 010011…
        let all = brute(&v, 3, 3, &[]);
        let ex = vec![vec![0, 1, 0, 1, 0, 1], vec![1, 1, 1, 0, 0, 0]]; // the second is no filling
        let want = brute(&v, 3, 3, &ex);
        assert_ne!(all, want);
        let f = forced(&v, 3, 3, &ex).unwrap();
        for p in 0..6 {
            let expect = match (want[p][0] > 0, want[p][1] > 0) {
                (true, false) => Some(0),
                (false, true) => Some(1),
                _ => None,
            };
            assert_eq!(f[p], expect);
        }
        // Excluding the only filling leaves none.
        let v = parse("01011.");
        assert_eq!(forced(&v, 3, 3, &[]), Some(parse("010110")));
        assert_eq!(forced(&v, 3, 3, &[vec![0, 1, 0, 1, 1, 0]]), None);
    }

    #[test]
    fn long_lines_are_fast_and_exact_enough() {
        let mut s = ".".repeat(60);
        s.replace_range(0..2, "00");
        let v = parse(&s);
        let f = forced(&v, 30, 30, &[]).unwrap();
        assert_eq!(f[2], Some(1));
        assert_eq!(f[10], None);
        let c = counts(&parse(&".".repeat(120)), 60, 60);
        assert!(c[0][0] > 1u128 << 60);
    }
}
