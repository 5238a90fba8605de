//! The app's one sort.
//!
//! Each call of `sort_by` with a new element type or comparison compiles a
//! complete copy of the standard library's sort (ipnsort or driftsort with
//! their small-sort networks, 2 to 4 kB of wasm each). The page sorts f64
//! timings in several places and a handful of short lists of other things,
//! so every sort goes through [`sort_by`] here, which sorts indices behind a
//! `dyn` comparison: one copy of the sort in the page instead of a dozen.
//! Timings, sorted most and in the largest numbers, take a radix sort
//! ([`sort_f64`]) instead.

use std::cmp::Ordering;

/// Sorts `values` ascending by [`f64::total_cmp`] (so `-0.0` before `0.0`,
/// and NaNs at the ends by sign).
///
/// Timings are what the page sorts most (percentiles, ECDFs, spreads over
/// 10 000 samples), so they get a radix sort: each value becomes a `u64`
/// key whose unsigned order is `total_cmp`'s, and the keys are sorted a byte
/// at a time, skipping bytes all keys share. O(n) time, a few hundred bytes
/// of wasm, no comparison calls. Equal keys are equal bits, so stability
/// does not arise.
pub fn sort_f64(values: &mut [f64]) {
    if values.len() < 2 {
        return;
    }
    const SIGN: u64 = 1 << 63;
    // Negative: flip every bit (larger magnitude sorts lower); positive: set the sign bit.
    let mut keys: Vec<u64> = values
        .iter()
        .map(|v| {
            let bits = v.to_bits();
            if bits & SIGN == 0 { bits | SIGN } else { !bits }
        })
        .collect();
    let mut buffer = vec![0u64; keys.len()];
    for shift in (0..64).step_by(8) {
        let mut starts = [0usize; 256];
        for &key in &keys {
            starts[(key >> shift) as usize & 0xff] += 1;
        }
        if starts.contains(&keys.len()) {
            continue;
        }
        let mut total = 0;
        for start in &mut starts {
            let count = *start;
            *start = total;
            total += count;
        }
        for &key in &keys {
            let digit = (key >> shift) as usize & 0xff;
            buffer[starts[digit]] = key;
            starts[digit] += 1;
        }
        std::mem::swap(&mut keys, &mut buffer);
    }
    for (value, key) in values.iter_mut().zip(keys) {
        let bits = if key & SIGN == 0 { !key } else { key & !SIGN };
        *value = f64::from_bits(bits);
    }
}

/// Sorts `items` by `compare`, keeping the order of equal items (a stable
/// sort, like [`slice::sort_by`]).
///
/// The items themselves are not sorted: a list of their indices is, through
/// the one shared [`sort_indices`], and the items are then moved into that
/// order. Cost: O(n log n) comparisons, each through a `dyn` call, an index
/// vector of n words and at most n swaps.
pub fn sort_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> Ordering) {
    let mut order = sort_indices(items.len(), &|a, b| compare(&items[a], &items[b]));
    permute(items, &mut order);
}

/// The indices `0..len` ordered stably by `compare`, which compares the
/// items at two indices. Not generic, so the sort behind it is compiled once;
/// ties are broken by the index, which makes the (smaller) unstable sort
/// give the stable order.
fn sort_indices(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_unstable_by(|&a, &b| compare(a, b).then(a.cmp(&b)));
    order
}

/// Rearranges `items` so that position `k` holds the item that was at
/// `order[k]`, following each cycle of the permutation with swaps.
/// `order` must be a permutation of `0..items.len()`; it is left as the
/// identity.
fn permute<T>(items: &mut [T], order: &mut [usize]) {
    for start in 0..order.len() {
        let mut current = start;
        loop {
            let source = order[current];
            order[current] = current;
            if source == start {
                break;
            }
            items.swap(current, source);
            current = source;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn f64_order_matches_total_cmp() {
        let mut values = vec![
            3.0,
            -0.0,
            f64::INFINITY,
            0.0,
            -2.5,
            f64::NEG_INFINITY,
            1e-300,
        ];
        sort_f64(&mut values);
        let bits: Vec<u64> = values.iter().map(|v| v.to_bits()).collect();
        let expected: Vec<u64> = [
            f64::NEG_INFINITY,
            -2.5,
            -0.0,
            0.0,
            1e-300,
            3.0,
            f64::INFINITY,
        ]
        .iter()
        .map(|v| v.to_bits())
        .collect();
        assert_eq!(bits, expected);
    }

    #[test]
    fn sort_by_is_stable_and_handles_short_lists() {
        let mut empty: Vec<(u8, char)> = Vec::new();
        sort_by(&mut empty, |a, b| a.0.cmp(&b.0));
        assert!(empty.is_empty());

        let mut pairs = vec![(2, 'a'), (1, 'b'), (2, 'c'), (0, 'd'), (1, 'e'), (2, 'f')];
        sort_by(&mut pairs, |a, b| a.0.cmp(&b.0));
        assert_eq!(
            pairs,
            [(0, 'd'), (1, 'b'), (1, 'e'), (2, 'a'), (2, 'c'), (2, 'f')]
        );

        let mut words = vec!["b".to_owned(), "a".to_owned()];
        sort_by(&mut words, |a, b| b.cmp(a));
        assert_eq!(words, ["b", "a"]);
    }

    proptest! {
        #[test]
        fn sort_by_matches_std_stable_sort(items in prop::collection::vec((0u8..6, any::<u16>()), 0..80)) {
            let mut expected = items.clone();
            expected.sort_by_key(|a| a.0);
            let mut actual = items;
            sort_by(&mut actual, |a, b| a.0.cmp(&b.0));
            prop_assert_eq!(actual, expected);
        }

        #[test]
        fn sort_f64_matches_std(values in prop::collection::vec(
            prop_oneof![any::<f64>(), 0.0f64..10_000.0, Just(0.0), Just(-0.0), Just(f64::NAN)],
            0..600,
        )) {
            let mut expected = values.clone();
            expected.sort_by(f64::total_cmp);
            let mut actual = values;
            sort_f64(&mut actual);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            prop_assert_eq!(bits(&actual), bits(&expected));
        }
    }
}
