//! Confidence intervals for a quantile (the median, the p95) that cover
//! what they claim, without resampling.
//!
//! A percentile bootstrap of the p95 from 75 requests misses the true p95
//! *above* its interval in about 10 % of runs, even on independent data:
//! a resample cannot reach past the largest value it was drawn from. Two
//! distribution-free constructions replace it:
//!
//! * **Independent requests: order statistics.** With B ~ Binomial(n, p)
//!   the number of values below the true p-quantile ξₚ,
//!   `P(x₍ₗ₎ ≤ ξₚ < x₍ᵤ₎) = P(l ≤ B ≤ u − 1)`. The interval is
//!   `[x₍ₗ₎, x₍ᵤ₎]` with l the largest rank such that P(B ≤ l − 1) ≤ 2.5 %
//!   and u the smallest such that P(B ≤ u − 1) ≥ 97.5 % (MLPerf's early
//!   stopping uses the same binomial ranks). For the p95 of 75 requests:
//!   `[x₍₆₇₎, x₍₇₅₎]`. Below 72 requests no rank satisfies the upper
//!   condition (1 − 0.95ⁿ < 0.975): the p95 has no finite upper bound, and
//!   the interval says so with an infinite `high` (exported as `null`,
//!   shown as "≥ low").
//! * **Requests that are not independent** (a run over hours, serial
//!   correlation; see [`crate::statistics::dependence`]): a batch-means interval of
//!   Woodruff's kind. The share of requests at or below the estimate x̂ₚ is
//!   averaged over consecutive batches; the spread of those batch means,
//!   with Student's t for their number, gives an interval for that share,
//!   `p ± t·se`, and the quantiles at its ends are the interval. The batch
//!   means carry the dependence that single requests hide; the standard
//!   error is never taken below the independent one, √(p(1 − p)/n).
//!
//! Timeouts enter the ranks censored at the plan's timeout (see
//! [`crate::wire::sample::Sample::rank`]). An upper end that lands on one is
//! unbounded: the true value is only known to be above the timeout.

use crate::statistics::binomial::binomial_cdf_table;
use crate::statistics::stats::percentile;

/// A two-sided confidence interval `[low, high]`, in the statistic's unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// Lower bound.
    pub low: f64,
    /// Upper bound; ∞ when the data bound the statistic only from below
    /// (a p95 of fewer than 72 requests, or one that reaches a timeout):
    /// exported as `null`, shown as "≥ low".
    pub high: f64,
}

impl Interval {
    /// Whether the two intervals share at least one point.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn overlaps(&self, other: &Interval) -> bool {
        self.low <= other.high && other.low <= self.high
    }

    /// Whether the interval has a finite upper end.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn is_bounded(&self) -> bool {
        self.high.is_finite()
    }

    /// `[low, high]` as the results document writes it: `high` is `None`
    /// (`null`) when unbounded.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn pair(&self) -> [Option<f64>; 2] {
        [Some(self.low), self.is_bounded().then_some(self.high)]
    }
}

/// Two-sided confidence of every interval here.
pub(crate) const QUANTILE_CONFIDENCE: f64 = 0.95;

/// A batch of the batch-means interval is this many bootstrap blocks long.
/// Batch means need batches long enough that neighbouring means are nearly
/// independent, longer than the blocks a bootstrap needs: with one block
/// per batch the p95 of the hourly-regime runs was missed above its
/// interval in 4.8 % and 5.8 % of runs; with three, 3.0 % (see the coverage
/// test in `bootstrap.rs` and docs/statistics.md).
pub const BATCH_BLOCKS: usize = 3;

/// At least this many batches: fewer leave the batch means' spread, and
/// with it the interval, to chance (Student's t with 4 degrees of freedom
/// is already 2.78).
pub const MIN_BATCHES: usize = 5;

/// The 1-based ranks `(l, u)` of the order-statistic interval for the
/// `p`-quantile (0–1) of `n` independent values: `l` is `None` when no
/// rank bounds it from below, `u` when none bounds it from above.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn order_statistic_ranks(n: usize, p: f64) -> (Option<usize>, Option<usize>) {
    if n == 0 {
        return (None, None);
    }
    let alpha = (1.0 - QUANTILE_CONFIDENCE) / 2.0;
    let cdf = binomial_cdf_table(n, p);
    // P(B ≤ r − 1) for rank r is cdf[r − 1].
    let low = (1..=n).take_while(|&r| cdf[r - 1] <= alpha).last();
    let high = (1..=n).find(|&r| cdf[r - 1] >= 1.0 - alpha);
    (low, high)
}

/// The distribution-free 95 % interval of the `p`-quantile (0–1) of
/// independent values `sorted` (ascending); values at or above
/// `censored_at_ms` are censored. A missing lower rank gives 0 (a TTFT is
/// never negative); a missing or censored upper rank gives `high = ∞`.
/// `None` for no values. Cost: O(n).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn order_statistic_interval(
    sorted: &[f64],
    p: f64,
    censored_at_ms: Option<f64>,
) -> Option<Interval> {
    if sorted.is_empty() {
        return None;
    }
    let (low, high) = order_statistic_ranks(sorted.len(), p);
    let at = |rank: usize| sorted[rank - 1];
    let censored = |value: f64| censored_at_ms.is_some_and(|at| value >= at);
    Some(Interval {
        low: low.map_or(0.0, at),
        high: match high.map(at) {
            Some(value) if !censored(value) => value,
            _ => f64::INFINITY,
        },
    })
}

/// A batch-means (Woodruff) 95 % interval of the `p`-quantile (0–1) of
/// `in_send_order`, in batches of [`BATCH_BLOCKS`] × `block` consecutive
/// values (at most n / [`MIN_BATCHES`]; see the module doc); `sorted` holds the same values ascending. Values at or above
/// `censored_at_ms` are censored. `None` for no values. Cost: O(n).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn batch_means_interval(
    in_send_order: &[f64],
    sorted: &[f64],
    p: f64,
    block: usize,
    censored_at_ms: Option<f64>,
) -> Option<Interval> {
    let n = in_send_order.len();
    if n == 0 || sorted.len() != n {
        return None;
    }
    let estimate = percentile(sorted, p * 100.0)?;
    let batch = (block * BATCH_BLOCKS).min(n / MIN_BATCHES).max(1);
    let batches = n / batch;
    let share = |values: &[f64]| {
        values.iter().filter(|&&v| v <= estimate).count() as f64 / values.len() as f64
    };
    let means: Vec<f64> = in_send_order
        .chunks_exact(batch)
        .take(batches)
        .map(share)
        .collect();
    let independent_se = (p * (1.0 - p) / n as f64).sqrt();
    let se = if means.len() >= 2 {
        let mean = means.iter().sum::<f64>() / means.len() as f64;
        let variance =
            means.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (means.len() - 1) as f64;
        (variance / means.len() as f64).sqrt()
    } else {
        f64::INFINITY
    };
    let t = student_t_975(means.len().saturating_sub(1));
    let half = t * se.max(independent_se);
    let (p_low, p_high) = (p - half, p + half);
    let low = if p_low <= 0.0 {
        0.0
    } else {
        percentile(sorted, p_low * 100.0)?
    };
    let high = if p_high >= 1.0 {
        f64::INFINITY
    } else {
        // The upper end reads ranks ⌊h⌋ and ⌈h⌉: censored if the upper one is.
        let h = (n - 1) as f64 * p_high;
        let upper_rank_value = sorted[(h.ceil() as usize).min(n - 1)];
        if censored_at_ms.is_some_and(|at| upper_rank_value >= at) {
            f64::INFINITY
        } else {
            percentile(sorted, p_high * 100.0)?
        }
    };
    Some(Interval { low, high })
}

/// The 97.5th percentile of Student's t with `df` degrees of freedom
/// (exact values below 4, the Cornish–Fisher expansion above: error under
/// 0.1 % from 4); ∞ for 0.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn student_t_975(df: usize) -> f64 {
    const Z: f64 = 1.959_963_984_540_054;
    match df {
        0 => f64::INFINITY,
        1 => 12.706,
        2 => 4.303,
        3 => 3.182,
        df => {
            let nu = df as f64;
            let (z3, z5, z7) = (Z.powi(3), Z.powi(5), Z.powi(7));
            Z + (z3 + Z) / (4.0 * nu)
                + (5.0 * z5 + 16.0 * z3 + 3.0 * Z) / (96.0 * nu * nu)
                + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * Z) / (384.0 * nu * nu * nu)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_p95_of_75_is_between_the_67th_and_the_75th() {
        assert_eq!(order_statistic_ranks(75, 0.95), (Some(67), Some(75)));
        // 1 − 0.95ⁿ ≥ 0.975 only from n = 72.
        assert_eq!(order_statistic_ranks(71, 0.95).1, None);
        assert_eq!(order_statistic_ranks(72, 0.95).1, Some(72));
        // The median of 100: the classic (40, 61).
        assert_eq!(order_statistic_ranks(100, 0.5), (Some(40), Some(61)));
        let values: Vec<f64> = (1..=75).map(f64::from).collect();
        let interval = order_statistic_interval(&values, 0.95, None).unwrap();
        assert_eq!((interval.low, interval.high), (67.0, 75.0));
        // The 75th value a timeout: the upper end is unbounded.
        let interval = order_statistic_interval(&values, 0.95, Some(75.0)).unwrap();
        assert_eq!((interval.low, interval.high), (67.0, f64::INFINITY));
        let few: Vec<f64> = (1..=40).map(f64::from).collect();
        assert!(
            order_statistic_interval(&few, 0.95, None)
                .unwrap()
                .high
                .is_infinite()
        );
    }

    #[test]
    fn the_binomial_table_matches_exact_sums() {
        // P(B ≤ 66), B ~ Binomial(75, 0.95), exact in Python integers:
        // 0.012426; P(B ≤ 67) = 0.033628.
        let table = binomial_cdf_table(75, 0.95);
        assert!((table[66] - 0.012_426).abs() < 1e-6, "{}", table[66]);
        assert!((table[67] - 0.033_628).abs() < 1e-6, "{}", table[67]);
        assert!((table[75] - 1.0).abs() < 1e-12);
    }

    #[test]
    fn batch_means_widen_with_dependence() {
        // Two halves at different levels: batches see the difference that
        // single values hide.
        let in_order: Vec<f64> = (0..100)
            .map(|i| {
                if i < 50 {
                    400.0 + f64::from(i)
                } else {
                    800.0 + f64::from(i)
                }
            })
            .collect();
        let mut sorted = in_order.clone();
        crate::base::order::sort_numbers(&mut sorted);
        let independent = order_statistic_interval(&sorted, 0.5, None).unwrap();
        let batched = batch_means_interval(&in_order, &sorted, 0.5, 4, None).unwrap();
        assert!(batched.low <= independent.low && batched.high >= independent.high);
        assert!(batch_means_interval(&[], &[], 0.5, 10, None).is_none());
    }
}
