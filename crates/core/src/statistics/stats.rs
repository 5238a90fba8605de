//! Descriptive statistics of one set of timings: the numbers every table,
//! verdict and chart is built from.
//!
//! The definitions are fixed here once and written in `docs/statistics.md`,
//! so a figure on the page can be recomputed by anyone with numpy:
//!
//! * percentiles interpolate linearly between the closest ranks — numpy's
//!   default `method="linear"` (Hyndman & Fan type 7);
//! * the standard deviation divides by n − 1 (`ddof=1`), and is 0 for n = 1;
//! * CV% = stddev / mean × 100.

use crate::base::order::sort_numbers;

/// Descriptive statistics of a set of values, in the values' own unit
/// (milliseconds for timings, tokens per second for decode rate).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Summary {
    /// Number of finite values summarised.
    pub n: usize,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// 50th percentile (see [`percentile`]).
    pub median: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 95th percentile.
    pub p95: f64,
    /// 99th percentile.
    pub p99: f64,
    /// Interquartile range: p75 − p25.
    pub iqr: f64,
    /// Sample standard deviation, dividing by n − 1; 0 when n = 1.
    pub stddev: f64,
    /// Coefficient of variation in percent: stddev / mean × 100; 0 when the
    /// mean is not positive (timings never are, so this only guards a zero).
    pub cv_pct: f64,
}

/// The `p`-th percentile (`p` in 0–100, clamped) of values sorted ascending,
/// by linear interpolation between the closest ranks, as numpy's default:
/// with `h = (n − 1) · p / 100`, the result is
/// `sorted[⌊h⌋] + (h − ⌊h⌋) · (sorted[⌊h⌋ + 1] − sorted[⌊h⌋])`.
///
/// Returns `None` when `sorted` is empty or `p` is NaN. The caller keeps the
/// slice sorted; an unsorted slice gives a meaningless (but finite) answer.
/// Cost: O(1).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn percentile(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() || p.is_nan() {
        return None;
    }
    let last = sorted.len() - 1;
    let rank = p.clamp(0.0, 100.0) / 100.0 * last as f64;
    // `rank` lies in [0, last], so the truncating cast is the floor.
    let low = (rank.floor() as usize).min(last);
    let high = (low + 1).min(last);
    let fraction = rank - low as f64;
    Some(lerp(sorted[low], sorted[high], fraction))
}

/// Linear interpolation written the way numpy writes it, so that results
/// agree to the last bit in most cases: from the upper end when the
/// fraction is at least one half, which keeps `lerp(a, b, 1) == b` exact.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn lerp(low: f64, high: f64, fraction: f64) -> f64 {
    let difference = high - low;
    if fraction >= 0.5 {
        high - difference * (1.0 - fraction)
    } else {
        low + difference * fraction
    }
}

/// Summarise `values` (any order). Non-finite values are ignored, since a
/// NaN has no rank. Returns `None` when no finite value is left.
/// Cost: one copy and one sort, O(n log n).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn summarize(values: &[f64]) -> Option<Summary> {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    sort_numbers(&mut sorted);
    summarize_sorted(&sorted)
}

/// [`summarize`] for values already sorted ascending and all finite, which
/// saves the copy and the sort when the caller has them (the report sorts
/// each target's TTFT once and reuses it for the tail and the bootstrap).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn summarize_sorted(sorted: &[f64]) -> Option<Summary> {
    let n = sorted.len();
    let (&min, &max) = (sorted.first()?, sorted.last()?);
    let mean = sorted.iter().sum::<f64>() / n as f64;
    let stddev = stddev_about(sorted, mean);
    let at = |p: f64| percentile(sorted, p).unwrap_or(f64::NAN);
    Some(Summary {
        n,
        min,
        max,
        mean,
        median: at(50.0),
        p90: at(90.0),
        p95: at(95.0),
        p99: at(99.0),
        iqr: at(75.0) - at(25.0),
        stddev,
        cv_pct: cv_pct(stddev, mean),
    })
}

/// Sample standard deviation (n − 1) about a known mean; 0 for fewer than
/// two values. Two passes (mean first) avoid the cancellation of the
/// sum-of-squares formula on tightly clustered timings.
#[cfg_attr(target_arch = "wasm32", inline)]
fn stddev_about(values: &[f64], mean: f64) -> f64 {
    if values.len() < 2 {
        return 0.0;
    }
    let squares: f64 = values.iter().map(|v| (v - mean) * (v - mean)).sum();
    (squares / (values.len() - 1) as f64).sqrt()
}

/// CV% = stddev / mean × 100, or 0 when the mean is not positive.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn cv_pct(stddev: f64, mean: f64) -> f64 {
    if mean > 0.0 {
        stddev / mean * 100.0
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Figures computed by numpy; see `tests/data/make_reference.py`.
    #[derive(serde::Deserialize)]
    struct Reference {
        datasets: Vec<ReferenceSet>,
    }

    #[derive(serde::Deserialize)]
    struct ReferenceSet {
        name: String,
        values: Vec<f64>,
        percentiles: Vec<[f64; 2]>,
        n: usize,
        min: f64,
        max: f64,
        mean: f64,
        median: f64,
        p90: f64,
        p95: f64,
        p99: f64,
        iqr: f64,
        stddev: f64,
        cv_pct: f64,
    }

    fn reference() -> Reference {
        let text = include_str!("../../../../tests/data/stats_reference.json");
        crate::base::document::from_str(text).unwrap()
    }

    fn close(actual: f64, expected: f64, what: &str) {
        let tolerance = 1e-12 * expected.abs().max(1.0);
        assert!(
            (actual - expected).abs() <= tolerance,
            "{what}: got {actual}, numpy says {expected}"
        );
    }

    #[test]
    fn matches_numpy_on_every_reference_set() {
        let reference = reference();
        assert!(reference.datasets.len() >= 4);
        for set in &reference.datasets {
            let summary = summarize(&set.values).unwrap();
            let name = &set.name;
            assert_eq!(summary.n, set.n, "{name} n");
            close(summary.min, set.min, &format!("{name} min"));
            close(summary.max, set.max, &format!("{name} max"));
            close(summary.mean, set.mean, &format!("{name} mean"));
            close(summary.median, set.median, &format!("{name} median"));
            close(summary.p90, set.p90, &format!("{name} p90"));
            close(summary.p95, set.p95, &format!("{name} p95"));
            close(summary.p99, set.p99, &format!("{name} p99"));
            close(summary.iqr, set.iqr, &format!("{name} iqr"));
            close(summary.stddev, set.stddev, &format!("{name} stddev"));
            close(summary.cv_pct, set.cv_pct, &format!("{name} cv"));
            let mut sorted = set.values.clone();
            crate::base::order::sort_numbers(&mut sorted);
            for [p, expected] in &set.percentiles {
                let actual = percentile(&sorted, *p).unwrap();
                close(actual, *expected, &format!("{name} p{p}"));
            }
        }
    }

    #[test]
    fn small_cases_by_hand() {
        assert_eq!(summarize(&[]), None);
        assert_eq!(summarize(&[f64::NAN]), None);
        let one = summarize(&[250.0]).unwrap();
        assert_eq!(
            (one.n, one.median, one.p99, one.stddev, one.cv_pct),
            (1, 250.0, 250.0, 0.0, 0.0)
        );
        // 1, 2, 3, 4: h = 3 · 0.9 = 2.7 → 3 + 0.7 · 1.
        assert!((percentile(&[1.0, 2.0, 3.0, 4.0], 90.0).unwrap() - 3.7).abs() < 1e-12);
        assert_eq!(percentile(&[1.0, 2.0, 3.0, 4.0], 50.0), Some(2.5));
        assert_eq!(percentile(&[1.0, 2.0], 150.0), Some(2.0));
        assert_eq!(percentile(&[1.0, 2.0], f64::NAN), None);
        assert_eq!(percentile(&[], 50.0), None);
        let ignored_nan = summarize(&[1.0, f64::NAN, 3.0]).unwrap();
        assert_eq!((ignored_nan.n, ignored_nan.mean), (2, 2.0));
    }

    proptest! {
        #[test]
        fn percentiles_are_monotone_and_bounded(
            mut values in prop::collection::vec(0.001f64..1.0e6, 1..200),
            p1 in 0.0f64..=100.0,
            p2 in 0.0f64..=100.0,
        ) {
            crate::base::order::sort_numbers(&mut values);
            let (low_p, high_p) = if p1 <= p2 { (p1, p2) } else { (p2, p1) };
            let low = percentile(&values, low_p).unwrap();
            let high = percentile(&values, high_p).unwrap();
            prop_assert!(low <= high, "p{low_p} = {low} > p{high_p} = {high}");
            prop_assert!(low >= values[0] && high <= values[values.len() - 1]);
        }

        #[test]
        fn cv_is_scale_invariant(
            values in prop::collection::vec(0.001f64..1.0e5, 2..200),
            scale in 0.001f64..1000.0,
        ) {
            let scaled: Vec<f64> = values.iter().map(|v| v * scale).collect();
            let a = summarize(&values).unwrap().cv_pct;
            let b = summarize(&scaled).unwrap().cv_pct;
            prop_assert!((a - b).abs() <= 1e-9 * a.max(1.0), "{a} vs {b}");
        }

        #[test]
        fn summary_is_ordered(values in prop::collection::vec(0.001f64..1.0e6, 1..200)) {
            let s = summarize(&values).unwrap();
            prop_assert!(s.min <= s.median && s.median <= s.p90 && s.p90 <= s.p95);
            prop_assert!(s.p95 <= s.p99 && s.p99 <= s.max && s.iqr >= 0.0);
            prop_assert!(s.mean >= s.min * (1.0 - 1e-12) && s.mean <= s.max * (1.0 + 1e-12));
        }
    }
}
