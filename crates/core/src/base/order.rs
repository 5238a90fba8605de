//! The one order for numbers: ascending by [`f64::total_cmp`], so every
//! sort of timings, shares or estimates agrees, and a NaN (which a checked
//! figure never holds) sorts after +∞ instead of making the order depend on
//! where it stood.
//!
//! Every sort of numbers in the workspace goes through these two functions.
//! Besides saying the convention once, that keeps the page small: each
//! comparator closure is a type of its own, so each `sort_by(|a, b| …)`
//! call site would put a whole copy of the standard library's sort in the
//! page's wasm (docs/size.md).

/// Sorts `values` ascending by [`f64::total_cmp`]: −∞ … −0.0, 0.0 … +∞,
/// then NaN.
///
/// Unstable, which is no loss: two values equal under `total_cmp` have the
/// same bits.
///
/// ```
/// let mut ms = [120.0, f64::NAN, 80.5, -0.0, 0.0];
/// firsttoken_core::base::order::sort_numbers(&mut ms);
/// assert_eq!(&ms[..4], &[-0.0, 0.0, 80.5, 120.0]);
/// assert!(ms[4].is_nan());
/// ```
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn sort_numbers(values: &mut [f64]) {
    values.sort_unstable_by(f64::total_cmp);
}

/// Sorts `pairs` by their first member in the same order, stably: pairs
/// with equal first members keep their order.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn sort_by_first(pairs: &mut [(f64, f64)]) {
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_sort_by_total_order() {
        let mut values = [
            3.0,
            f64::INFINITY,
            -1.0,
            f64::NAN,
            0.0,
            -0.0,
            f64::NEG_INFINITY,
        ];
        sort_numbers(&mut values);
        let bits: Vec<u64> = values.iter().map(|v| v.to_bits()).collect();
        let expected: Vec<u64> = [f64::NEG_INFINITY, -1.0, -0.0, 0.0, 3.0, f64::INFINITY]
            .iter()
            .map(|v| v.to_bits())
            .collect();
        assert_eq!(&bits[..6], &expected[..]);
        assert!(values[6].is_nan());
    }

    #[test]
    fn pairs_sort_by_their_first_member_stably() {
        let mut pairs = [(2.0, 0.0), (1.0, 1.0), (2.0, 2.0), (1.0, 3.0), (-0.0, 4.0)];
        sort_by_first(&mut pairs);
        assert_eq!(
            pairs,
            [(-0.0, 4.0), (1.0, 1.0), (1.0, 3.0), (2.0, 0.0), (2.0, 2.0)]
        );
    }
}
