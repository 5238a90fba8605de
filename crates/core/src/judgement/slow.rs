//! The slow requests of one target and the *tail band* they give the
//! verdict, built so that **making any request slow never improves the
//! verdict**: a warm request turned cold, a cold one made longer, a
//! success turned into a timeout.
//!
//! # Slow requests
//!
//! A request is **slow** when its TTFT is more than [`SLOW_MULTIPLE`] times
//! the *warm reference*, and **every timeout is slow**, whatever the
//! threshold. The warm reference is the median of the fastest n − 2k ranked
//! requests, where k is the number of slow requests (the least k for which
//! this is self-consistent; see [`slow_share`]). With no slow request it is
//! the median of the run; with k slow ones it sets aside the k slow ones
//! and as many of the fastest, so it is the median of the warm requests
//! taken half a rank low per slow request. Why not the plain median: when a
//! warm request below the median turns cold, the plain median moves up one
//! rank, the threshold with it, and a slow request just above the old
//! threshold could stop counting. The warm reference never rises when a
//! request turns slow (proof in docs/statistics.md), so the slow set only
//! grows.
//!
//! # The tail band
//!
//! CV mixes how often cold starts happen with how long they last: past the
//! frequency that maximises it, one more cold start *lowers* the CV (3 cold
//! starts of about 18 s in 75 requests at 0.4 s: CV 313 %, "not ready"; a fourth:
//! 295 %, "cold starts"). The tail band closes that hole on the data
//! itself, with no model of the tail:
//!
//! ```text
//! envelope = max over t = 0..=k of CV(the run with only its t slowest
//!            slow requests kept and the other k − t set to 0 ms)
//! band     = band(envelope)
//! ```
//!
//! The envelope is the largest CV of any run that could have become this
//! one by making slow requests slower: every slow request somewhere between
//! 0 ms and what it took, the rest as they are. That set of runs only grows
//! when a request turns slow (the slow set grows and each bound rises), so
//! the envelope never falls. CV is quasi-convex on the positive orthant, so
//! its largest value over that box is at a corner (each slow request at
//! 0 or at its own value), and an exchange argument shows the best corner
//! keeps the largest ones: k + 1 candidates, O(n). With t = k the candidate
//! is the run itself, so the band is never better than the CV band.
//!
//! The verdict is the worse of the CV band and the tail band, and never
//! "solid" once a request is slow, a request timed out or a cold-start tail
//! was found (see [`crate::judgement::verdict::judge`]).
//!
//! What it does not promise: a request made slower *within* the warm
//! cluster (say 300 ms → 450 ms at a 400 ms median) can lower the CV a
//! little and cross a band edge. No verdict that calls a steady run
//! "solid" at every scale can avoid that (docs/statistics.md has the
//! proof and the measured rate).

use crate::judgement::verdict::Verdict;
use crate::statistics::binomial::clopper_pearson;
use crate::statistics::stats::{percentile, summarize_sorted};

/// A request is slow when it took more than this many times the warm
/// median: far beyond a warm cluster's own spread (a lognormal with
/// σ = 0.3 puts one request in 5 000 there) and well short of a 10× cold
/// start.
pub const SLOW_MULTIPLE: f64 = 3.0;

/// Confidence of the slow share's interval, 0–1.
pub(crate) const SLOW_SHARE_CONFIDENCE: f64 = 0.95;

/// The slow requests of one target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlowShare {
    /// Requests slower than this count as slow, ms ([`SLOW_MULTIPLE`] × the
    /// warm reference).
    pub threshold_ms: f64,
    /// Slow requests (every timeout included).
    pub slow: usize,
    /// Ranked requests examined.
    pub of: usize,
    /// Exact 95 % interval of the slow share, 0–1: `(low, high)`.
    pub share_ci: (f64, f64),
    /// Median of the slow requests over the median of the rest (a lower
    /// bound when timeouts are among them); `None` when nothing was slow.
    pub magnitude: Option<f64>,
    /// CV% of the requests that are not slow.
    pub warm_cv_pct: Option<f64>,
    /// p95 of the requests that are not slow, ms: the provider when it is
    /// awake.
    pub warm_p95_ms: Option<f64>,
    /// The largest CV% of a run that could have become this one by making
    /// slow requests slower (see the module doc); at least the run's own CV.
    pub envelope_cv_pct: f64,
}

impl SlowShare {
    /// The share itself, 0–1 (0 when nothing was ranked).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn share(&self) -> f64 {
        if self.of == 0 {
            0.0
        } else {
            self.slow as f64 / self.of as f64
        }
    }
}

/// The warm reference of `sorted_ms` (ascending, the top `censored` of them
/// timeouts) and the number of slow requests it gives: the least k with
/// `slow(k) ≤ k`, where `slow(k)` counts the requests over
/// [`SLOW_MULTIPLE`] × the median of the fastest n − 2k (every timeout
/// counting), that is × the order statistic of rank ⌈n/2⌉ − k.
///
/// `slow(k)` never falls as k grows (the reference only falls), so
/// iterating k ← slow(k) from 0 climbs to the least such k. When more
/// than about half the run is slow the reference stops at the fastest
/// request. Returns `None` for an empty run. Cost: O(n log n) at worst,
/// O(log n) per step.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn warm_reference(sorted_ms: &[f64], censored: usize) -> Option<(f64, usize)> {
    let n = sorted_ms.len();
    if n == 0 {
        return None;
    }
    let censored = censored.min(n);
    let median_index = n.div_ceil(2) - 1;
    let slow_over = |reference: f64| {
        let threshold = SLOW_MULTIPLE * reference;
        let over = n - sorted_ms.partition_point(|&ms| ms <= threshold);
        over.max(censored)
    };
    // A 0 ms request cannot be measured (only a hand-made file holds
    // one): the reference never descends onto it.
    let lowest = sorted_ms.partition_point(|&ms| ms <= 0.0).min(median_index);
    let mut k = 0;
    loop {
        let index = median_index - k.min(median_index - lowest);
        let reference = sorted_ms[index];
        let slow = slow_over(reference);
        if slow <= k || index == lowest {
            return Some((reference, slow));
        }
        k = slow;
    }
}

/// The slow share of `ranked_ms` (ascending; the top `censored` of them
/// timeouts ranked at the timeout), with the threshold from
/// [`warm_reference`]. The magnitude and warm CV are measured on the
/// requests that are not slow, so that they describe the warm cluster
/// however many cold starts there were. Returns `None` when there is
/// nothing to rank or no positive reference.
/// Cost: O(n) plus the interval's O(k · 60).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn slow_share(ranked_ms: &[f64], censored: usize) -> Option<SlowShare> {
    let (reference, slow_count) = warm_reference(ranked_ms, censored)?;
    if reference.is_nan() || reference <= 0.0 {
        return None;
    }
    let threshold_ms = SLOW_MULTIPLE * reference;
    let of = ranked_ms.len();
    let (warm, slow) = ranked_ms.split_at(of - slow_count);
    let warm_summary = summarize_sorted(warm);
    let warm_median = warm_summary.map_or(reference, |w| w.median);
    Some(SlowShare {
        threshold_ms,
        slow: slow_count,
        of,
        share_ci: clopper_pearson(slow_count, of, SLOW_SHARE_CONFIDENCE),
        magnitude: percentile(slow, 50.0).map(|median| median / warm_median),
        warm_cv_pct: warm_summary.map(|w| w.cv_pct),
        warm_p95_ms: percentile(warm, 95.0),
        envelope_cv_pct: envelope_cv_pct(ranked_ms, slow_count),
    })
}

/// The CV band of the envelope (see the module doc): the verdict is never
/// better than it. [`Verdict::Solid`] when nothing was slow and the run
/// itself is solid.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn tail_band(slow: &SlowShare) -> Verdict {
    Verdict::from_cv_pct(slow.envelope_cv_pct)
}

/// The largest CV% over the runs that keep the `t` slowest of the top
/// `slow` values of `sorted_ms` and set the other `slow − t` to 0, for
/// t = 0..=slow (percent; with `slow` = 0, the run's own CV). Sums are
/// kept as the slow values are added one by one from the largest, so the
/// whole envelope costs O(n). 0 for fewer than two values.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn envelope_cv_pct(sorted_ms: &[f64], slow: usize) -> f64 {
    let n = sorted_ms.len();
    if n < 2 {
        return 0.0;
    }
    let slow = slow.min(n);
    let (warm, tail) = sorted_ms.split_at(n - slow);
    let count = n as f64;
    let cv_pct = |sum: f64, sum_sq: f64| {
        let mean = sum / count;
        if mean <= 0.0 {
            return 0.0;
        }
        let variance = ((sum_sq - sum * mean) / (count - 1.0)).max(0.0);
        variance.sqrt() / mean * 100.0
    };
    let mut sum: f64 = warm.iter().sum();
    let mut sum_sq: f64 = warm.iter().map(|ms| ms * ms).sum();
    let mut worst = cv_pct(sum, sum_sq);
    for &ms in tail.iter().rev() {
        sum += ms;
        sum_sq += ms * ms;
        worst = worst.max(cv_pct(sum, sum_sq));
    }
    worst
}

/// "1 in 8": a share as one request in N, N rounded; `None` for a zero share.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn one_in(share: f64) -> Option<u64> {
    (share > 0.0 && share.is_finite()).then(|| (1.0 / share).round().max(1.0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn high_of_4_in_75() -> f64 {
        clopper_pearson(4, 75, 0.95).1
    }

    #[test]
    fn a_share_reads_as_one_in_n() {
        // "4 of 75, 1 in 8 to 1 in 68".
        assert_eq!(one_in(high_of_4_in_75()), Some(8));
        assert_eq!(one_in(clopper_pearson(4, 75, 0.95).0), Some(68));
        assert_eq!(one_in(0.0), None);
    }

    #[test]
    fn every_timeout_is_slow_whatever_the_threshold() {
        // A 15 s median and a 30 s timeout: 3× the median is 45 s, yet the
        // three timeouts (ranked at 30 s) are slow.
        let mut ranked: Vec<f64> = (0..72).map(|i| 14_000.0 + 30.0 * f64::from(i)).collect();
        ranked.extend([30_000.0; 3]);
        let slow = slow_share(&ranked, 3).unwrap();
        assert_eq!(slow.slow, 3);
        assert!(slow.threshold_ms > 30_000.0);
        assert!(tail_band(&slow) >= Verdict::Solid);
        let none = slow_share(&ranked, 0).unwrap();
        assert_eq!(none.slow, 0);
    }

    #[test]
    fn the_warm_reference_sets_aside_the_slow_and_as_many_of_the_fastest() {
        let mut ranked: Vec<f64> = (1..=71).map(f64::from).collect();
        ranked.extend([1_000.0; 4]);
        // n 75: the median is the 38th value; with 4 slow, the 34th.
        assert_eq!(warm_reference(&ranked, 0), Some((34.0, 4)));
        assert_eq!(warm_reference(&[5.0], 0), Some((5.0, 0)));
        assert_eq!(warm_reference(&[], 0), None);
        // Two slow of five: the median of the fastest 5 − 4 is the fastest.
        assert_eq!(
            warm_reference(&[1.0, 2.0, 3.0, 50.0, 60.0], 0),
            Some((1.0, 2))
        );
        // A majority three times its own median is no tail of it.
        assert_eq!(
            warm_reference(&[1.0, 2.0, 50.0, 60.0, 70.0], 0),
            Some((50.0, 0))
        );
    }

    /// The envelope keeps the largest slow requests: checked against every
    /// subset of up to 10 slow requests set to 0.
    #[test]
    fn the_envelope_is_the_largest_cv_over_every_subset() {
        let mut rng = fastrand::Rng::with_seed(8);
        for _ in 0..300 {
            let warm = 20 + rng.usize(..60);
            let slow = 1 + rng.usize(..10);
            let mut values: Vec<f64> = (0..warm).map(|_| 300.0 + 200.0 * rng.f64()).collect();
            values.extend((0..slow).map(|_| 1_500.0 * 100.0_f64.powf(rng.f64())));
            crate::base::order::sort_numbers(&mut values);
            let n = values.len() as f64;
            let mut best = 0.0_f64;
            for mask in 0u32..(1 << slow) {
                let kept = values.iter().enumerate().map(|(i, &ms)| {
                    let tail_index = i.checked_sub(warm);
                    match tail_index {
                        Some(j) if mask & (1 << j) == 0 => 0.0,
                        _ => ms,
                    }
                });
                let (sum, sum_sq) = kept.fold((0.0, 0.0), |(s, q), ms| (s + ms, q + ms * ms));
                let mean = sum / n;
                let sd = ((sum_sq - sum * mean) / (n - 1.0)).sqrt();
                best = best.max(sd / mean * 100.0);
            }
            let envelope = envelope_cv_pct(&values, slow);
            assert!(
                (envelope - best).abs() <= 1e-9 * best,
                "{envelope} against {best}"
            );
            let own = crate::statistics::stats::summarize_sorted(&values)
                .unwrap()
                .cv_pct;
            assert!(envelope >= own - 1e-9);
        }
    }

    #[test]
    fn slow_share_counts_above_three_times_the_warm_median() {
        let mut ranked: Vec<f64> = (0..71).map(|i| 380.0 + f64::from(i)).collect();
        ranked.extend([5_000.0, 6_000.0, 7_000.0, 120_000.0]);
        let slow = slow_share(&ranked, 0).unwrap();
        assert_eq!((slow.slow, slow.of), (4, 75));
        // The median of the fastest 75 − 2·4 = 67: the 34th value, 413 ms.
        assert_eq!(slow.threshold_ms, 1239.0);
        let magnitude = slow.magnitude.unwrap();
        assert!((magnitude - 6_500.0 / 415.0).abs() < 1e-9, "{magnitude}");
        assert!(slow.warm_p95_ms.unwrap() < 451.0);
        assert!(slow_share(&[], 0).is_none());
        assert!(slow_share(&[0.0], 0).is_none());
    }

    /// Warm values spread as a lognormal with σ = 0.25 (deterministic
    /// quantiles), `cold` of them replaced by `magnitude` × the median.
    fn mixture(n: usize, cold: usize, magnitude: f64) -> Vec<f64> {
        let mut values: Vec<f64> = (0..n - cold)
            .map(|i| {
                let u = (i as f64 + 0.5) / (n - cold) as f64;
                400.0 * (0.25 * probit(u)).exp()
            })
            .collect();
        values.extend((0..cold).map(|i| 400.0 * magnitude * (1.0 + 0.01 * i as f64)));
        crate::base::order::sort_numbers(&mut values);
        values
    }

    /// Inverse of the standard normal distribution (Acklam's rational
    /// approximation; ample for building test data).
    fn probit(p: f64) -> f64 {
        let a = [
            -3.969_683_028_665_376e1,
            2.209_460_984_245_205e2,
            -2.759_285_104_469_687e2,
            1.383_577_518_672_69e2,
            -3.066_479_806_614_716e1,
            2.506_628_277_459_239,
        ];
        let b = [
            -5.447_609_879_822_406e1,
            1.615_858_368_580_409e2,
            -1.556_989_798_598_866e2,
            6.680_131_188_771_972e1,
            -1.328_068_155_288_572e1,
        ];
        let c = [
            -7.784_894_002_430_293e-3,
            -3.223_964_580_411_365e-1,
            -2.400_758_277_161_838,
            -2.549_732_539_343_734,
            4.374_664_141_464_968,
            2.938_163_982_698_783,
        ];
        let d = [
            7.784_695_709_041_462e-3,
            3.224_671_290_700_398e-1,
            2.445_134_137_142_996,
            3.754_408_661_907_416,
        ];
        let tail = |q: f64| {
            (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0)
        };
        if p < 0.02425 {
            tail((-2.0 * p.ln()).sqrt())
        } else if p > 1.0 - 0.02425 {
            -tail((-2.0 * (1.0 - p).ln()).sqrt())
        } else {
            let q = p - 0.5;
            let r = q * q;
            (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
                / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0)
        }
    }

    #[test]
    fn the_issue_example_forty_second_cold_starts() {
        // 0.4 s warm, 40 s cold: 1 % reads "not ready" by CV, 20 % only
        // "cold starts" — the tail band keeps 20 % at "not ready".
        let n = 200;
        for (cold, expected_cv_band) in [(2, Verdict::NotReady), (40, Verdict::ColdStarts)] {
            let values = mixture(n, cold, 100.0);
            let summary = crate::statistics::stats::summarize_sorted(&values).unwrap();
            assert_eq!(Verdict::from_cv_pct(summary.cv_pct), expected_cv_band);
            let slow = slow_share(&values, 0).unwrap();
            assert_eq!(slow.slow, cold);
            assert_eq!(tail_band(&slow), Verdict::NotReady, "{cold} cold");
        }
    }
}
