//! Sorting for the library's readers, models and strategies, with the page's module size in
//! mind. Natively these are the standard library's sorts. In WebAssembly each call of a std
//! sort compiles its own copy of driftsort or ipnsort (2-4 KB each; about 40 copies were 38 KB
//! of the page's 600 KB gzip budget, BENCHMARKS.md "The page"), so there every call sorts a list
//! of indices with one shared compiled sort, through the comparison the call passes in, and
//! then moves the elements into that order.
//!
//! The order is the same on both: [`by_key`] and [`by`] are stable, as `sort_by_key` and
//! `sort_by`; [`all`] is `sort_unstable`, for types whose equal elements are alike (integers,
//! tuples and vectors of them, derived `Ord`), where stable and unstable agree. A caller on a
//! hot path (the solver's clause handling, the Sudoku model's cell order) keeps std's sort.

use std::cmp::Ordering;

/// Sorts `v` by `key`, stably (`slice::sort_by_key`).
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_mut))]
pub fn by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    #[cfg(not(target_arch = "wasm32"))]
    v.sort_by_key(key);
    #[cfg(target_arch = "wasm32")]
    shared(v, &mut |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` with `compare`, stably (`slice::sort_by`).
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_mut))]
pub fn by<T>(v: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    #[cfg(not(target_arch = "wasm32"))]
    v.sort_by(compare);
    #[cfg(target_arch = "wasm32")]
    shared(v, &mut compare);
}

/// Sorts `v` ascending (`slice::sort_unstable`; equal elements must be alike).
pub fn all<T: Ord>(v: &mut [T]) {
    #[cfg(not(target_arch = "wasm32"))]
    v.sort_unstable();
    #[cfg(target_arch = "wasm32")]
    shared(v, &mut T::cmp);
}

/// The stable sort every call shares in WebAssembly: the order of `v`'s indices by `compare`
/// (on the stack for short slices, as in the solvers' inner loops), then the elements moved
/// into it. Compiled natively too, for its tests.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn shared<T>(v: &mut [T], compare: &mut dyn FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let mut short = [0; 16];
    let mut long = Vec::new();
    let order = if v.len() <= short.len() {
        &mut short[..v.len()]
    } else {
        long.resize(v.len(), 0);
        &mut long[..]
    };
    stable_order(order, &mut |i, j| compare(&v[i], &v[j]));
    permute(v, order);
}

/// Fills `order` with its indices sorted stably by `compare`: not generic, so compiled once.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn stable_order(order: &mut [usize], compare: &mut dyn FnMut(usize, usize) -> Ordering) {
    for (i, o) in order.iter_mut().enumerate() {
        *o = i;
    }
    order.sort_by(|&i, &j| compare(i, j));
}

/// Puts `v[order[i]]` at `i` for every `i`, following each cycle of the permutation with swaps
/// (`order` marks the places done by pointing them at themselves).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn permute<T>(v: &mut [T], order: &mut [usize]) {
    for start in 0..v.len() {
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn the_shared_sort_gives_the_std_order_stably() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for n in [0, 1, 2, 3, 5, 17, 20, 21, 64, 333, 2000] {
            // Keys with many ties, and the original place to see stability.
            let v: Vec<(u8, usize)> = (0..n).map(|i| (rng.gen_range(0..7), i)).collect();
            let mut want = v.clone();
            want.sort_by_key(|e| e.0);
            let mut got = v.clone();
            shared(&mut got, &mut |a, b| a.0.cmp(&b.0));
            assert_eq!(got, want, "n = {n}");
            let mut want = v.clone();
            want.sort_unstable();
            let mut got = v;
            shared(&mut got, &mut Ord::cmp);
            assert_eq!(got, want, "n = {n}");
        }
    }

    #[test]
    fn elements_that_are_not_copy_are_moved_not_cloned() {
        let mut v: Vec<String> = ["d", "b", "e", "a", "c", "b"].map(String::from).to_vec();
        shared(&mut v, &mut |a, b| b.cmp(a));
        assert_eq!(v, ["e", "d", "c", "b", "b", "a"]);
        let mut v = vec![vec![3, 1], vec![2], vec![], vec![2, 0]];
        by_key(&mut v, |x| x.len());
        assert_eq!(v, [vec![], vec![2], vec![3, 1], vec![2, 0]]);
        all(&mut v);
        assert_eq!(v, [vec![], vec![2], vec![2, 0], vec![3, 1]]);
    }
}
