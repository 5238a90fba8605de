//! The slow-request share of one target and the *tail band* it gives the
//! verdict, so that a verdict never improves as cold starts become more
//! frequent.
//!
//! CV mixes how often cold starts happen with how long they last. With
//! warm requests at 0.4 s and cold starts at 40 s, a 1 % cold share gives a
//! CV near 480 % ("not ready") and a 20 % share a CV near 190 % ("cold
//! starts"): past the frequency that maximises it, the CV *falls* as a
//! provider gets worse. The tail band closes that hole:
//!
//! * a request is **slow** when its TTFT is more than [`SLOW_MULTIPLE`]
//!   times the warm median (the warm cluster's median when a cold-start
//!   tail was found, else the median of every ranked request); a timeout is
//!   always slow;
//! * the slow share `k / n` gets an exact (Clopper–Pearson) 95 % interval,
//!   said as "4 of 75, 1 in 8 to 1 in 68";
//! * the **tail band** is the CV band that slow requests of this magnitude
//!   (their median over the warm median) reach at the *worst* frequency up
//!   to the one seen, computed for a two-point mixture:
//!
//! ```text
//! CV²(q) = ((1 − q)(1 + c²) + q R²) / (1 − q + q R)² − 1
//! band   = band( max CV(q′) for 0 < q′ ≤ k / n )
//! ```
//!
//! with c the warm CV and R the magnitude. Below the CV-maximising
//! frequency this is about the CV band itself; above it, the band stays
//! where the rarer tail put it. The verdict is the worse of the CV band and
//! the tail band, and never "solid" once a request timed out or a tail was
//! found (see [`super::verdict::judge`]).

use super::stats::{percentile, summarize_sorted};
use super::verdict::Verdict;

/// A request is slow when it took more than this many times the warm
/// median: far beyond a warm cluster's own spread (a lognormal with
/// σ = 0.3 puts one request in 5 000 there) and well short of a 10× cold
/// start.
pub const SLOW_MULTIPLE: f64 = 3.0;

/// Confidence of the slow share's interval, 0–1.
pub const SLOW_SHARE_CONFIDENCE: f64 = 0.95;

/// The slow requests of one target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlowShare {
    /// Requests slower than this count as slow, ms ([`SLOW_MULTIPLE`] × the
    /// warm median).
    pub threshold_ms: f64,
    /// Slow requests (timeouts included).
    pub slow: usize,
    /// Ranked requests examined.
    pub of: usize,
    /// Exact 95 % interval of the slow share, 0–1: `(low, high)`.
    pub share_ci: (f64, f64),
    /// Median of the slow requests over the median of the rest (a lower
    /// bound when timeouts are among them); `None` when nothing was slow.
    pub magnitude: Option<f64>,
    /// CV% of the requests at or under the threshold.
    pub warm_cv_pct: Option<f64>,
    /// p95 of the requests at or under the threshold, ms: the provider when
    /// it is awake.
    pub warm_p95_ms: Option<f64>,
}

impl SlowShare {
    /// The share itself, 0–1 (0 when nothing was ranked).
    pub fn share(&self) -> f64 {
        if self.of == 0 {
            0.0
        } else {
            self.slow as f64 / self.of as f64
        }
    }
}

/// The slow share of `ranked_ms` (ascending; censored timeouts ranked at
/// the timeout, so they lie at the top) given the warm median, which sets
/// the threshold. The magnitude and warm CV are then measured on the
/// requests under the threshold, so that they describe the warm cluster
/// however many cold starts pulled the overall median up. Returns `None`
/// when there is nothing to rank or no positive median.
/// Cost: O(n) plus the interval's O(k · 60).
pub fn slow_share(ranked_ms: &[f64], warm_median_ms: f64) -> Option<SlowShare> {
    if ranked_ms.is_empty() || warm_median_ms.is_nan() || warm_median_ms <= 0.0 {
        return None;
    }
    let threshold_ms = SLOW_MULTIPLE * warm_median_ms;
    let warm_count = ranked_ms.partition_point(|&ms| ms <= threshold_ms);
    let (warm, slow) = ranked_ms.split_at(warm_count);
    let of = ranked_ms.len();
    let warm_summary = summarize_sorted(warm);
    let warm_median = warm_summary.map_or(warm_median_ms, |w| w.median);
    Some(SlowShare {
        threshold_ms,
        slow: slow.len(),
        of,
        share_ci: clopper_pearson(slow.len(), of, SLOW_SHARE_CONFIDENCE),
        magnitude: percentile(slow, 50.0).map(|median| median / warm_median),
        warm_cv_pct: warm_summary.map(|w| w.cv_pct),
        warm_p95_ms: percentile(warm, 95.0),
    })
}

/// The CV band that slow requests of the observed magnitude reach at their
/// worst frequency up to the observed share, given the warm cluster's CV
/// (see the module doc). [`Verdict::Solid`] when nothing was slow.
pub fn tail_band(slow: &SlowShare) -> Verdict {
    let warm_cv_pct = slow.warm_cv_pct.unwrap_or(0.0);
    let Some(magnitude) = slow.magnitude.filter(|m| m.is_finite() && *m > 0.0) else {
        return Verdict::Solid;
    };
    if slow.slow == 0 {
        return Verdict::Solid;
    }
    let warm_cv = if warm_cv_pct.is_finite() {
        (warm_cv_pct / 100.0).max(0.0)
    } else {
        0.0
    };
    let share = slow.share();
    // A geometric grid from share / 10⁴ up to the share itself finds the
    // maximum of the smooth, single-peaked mixture CV closely enough for a
    // band decision.
    const STEPS: u32 = 200;
    let worst = (0..=STEPS)
        .map(|i| share * 1e-4_f64.powf(1.0 - f64::from(i) / f64::from(STEPS)))
        .map(|q| mixture_cv_pct(q, magnitude, warm_cv))
        .fold(0.0_f64, f64::max);
    Verdict::from_cv_pct(worst)
}

/// CV% of a two-point mixture: share `q` at `magnitude` × the warm mean,
/// the rest warm with coefficient of variation `warm_cv` (a fraction).
fn mixture_cv_pct(q: f64, magnitude: f64, warm_cv: f64) -> f64 {
    let mean = 1.0 - q + q * magnitude;
    let second_moment = (1.0 - q) * (1.0 + warm_cv * warm_cv) + q * magnitude * magnitude;
    let variance = second_moment / (mean * mean) - 1.0;
    variance.max(0.0).sqrt() * 100.0
}

/// Exact (Clopper–Pearson) two-sided interval of a binomial share `k / n`
/// at `confidence` (0–1): the shares under which seeing `k` or more (for
/// the low end) or `k` or fewer (for the high end) has probability
/// (1 − confidence) / 2. `(0, 1)` when `n` is 0.
///
/// Solved by bisection on the binomial distribution function, summed in
/// log space so that n in the tens of thousands stays finite.
/// Cost: O(min(k, n − k) · 60).
pub fn clopper_pearson(k: usize, n: usize, confidence: f64) -> (f64, f64) {
    if n == 0 || k > n {
        return (0.0, 1.0);
    }
    let alpha = (1.0 - confidence.clamp(0.0, 1.0)) / 2.0;
    let low = if k == 0 {
        0.0
    } else {
        // P(X ≥ k; p) rises with p: find where it reaches α.
        bisect(|p| 1.0 - binomial_cdf(k - 1, n, p) - alpha)
    };
    let high = if k == n {
        1.0
    } else {
        // P(X ≤ k; p) falls with p: find where it drops to α.
        bisect(|p| alpha - binomial_cdf(k, n, p))
    };
    (low, high)
}

/// The root in (0, 1) of a function rising from negative to positive.
fn bisect(f: impl Fn(f64) -> f64) -> f64 {
    let (mut low, mut high) = (0.0_f64, 1.0_f64);
    for _ in 0..60 {
        let mid = 0.5 * (low + high);
        if f(mid) < 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    0.5 * (low + high)
}

/// P(X ≤ k) for X ~ Binomial(n, p), summing from the cheaper end, each
/// term from the last by the ratio of consecutive probabilities (in log
/// space, so n in the tens of thousands stays finite). Cost: O(min(k, n − k)).
pub fn binomial_cdf(k: usize, n: usize, p: f64) -> f64 {
    if k >= n || p <= 0.0 {
        return 1.0;
    }
    if p >= 1.0 {
        return 0.0;
    }
    let (ln_p, ln_q) = (p.ln(), (1.0 - p).ln());
    if k <= n - k {
        // P(X = 0), then P(X = i) = P(X = i − 1) · (n − i + 1) / i · p / q.
        let mut ln_pmf = n as f64 * ln_q;
        let mut sum = ln_pmf.exp();
        for i in 1..=k {
            ln_pmf += ((n - i + 1) as f64).ln() - (i as f64).ln() + ln_p - ln_q;
            sum += ln_pmf.exp();
        }
        sum.min(1.0)
    } else {
        // 1 − P(X > k), summed down from P(X = n).
        let mut ln_pmf = n as f64 * ln_p;
        let mut upper = ln_pmf.exp();
        for i in (k + 1..n).rev() {
            // P(X = i) = P(X = i + 1) · (i + 1) / (n − i) · q / p.
            ln_pmf += ((i + 1) as f64).ln() - ((n - i) as f64).ln() + ln_q - ln_p;
            upper += ln_pmf.exp();
        }
        (1.0 - upper).max(0.0)
    }
}

/// "1 in 8": a share as one request in N, N rounded; `None` for a zero share.
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
    fn clopper_pearson_matches_exact_sums() {
        // Bisection on exact binomial sums in Python integers
        // (math.comb): (0.0147208, 0.1309608).
        let (low, high) = clopper_pearson(4, 75, 0.95);
        assert!((low - 0.014_720_8).abs() < 1e-6, "{low}");
        assert!((high - 0.130_960_8).abs() < 1e-6, "{high}");
        // 0 of 75: (0, 1 − 0.025^(1/75)).
        let (low, high) = clopper_pearson(0, 75, 0.95);
        assert_eq!(low, 0.0);
        assert!((high - (1.0 - 0.025_f64.powf(1.0 / 75.0))).abs() < 1e-9);
        let (low, high) = clopper_pearson(75, 75, 0.95);
        assert!((low - 0.025_f64.powf(1.0 / 75.0)).abs() < 1e-9);
        assert_eq!(high, 1.0);
        assert_eq!(clopper_pearson(0, 0, 0.95), (0.0, 1.0));
        // "4 of 75, 1 in 8 to 1 in 68".
        assert_eq!(one_in(high_of_4_in_75()), Some(8));
        assert_eq!(one_in(clopper_pearson(4, 75, 0.95).0), Some(68));
        // Large n stays finite and sensible.
        let (low, high) = clopper_pearson(500, 20_000, 0.95);
        assert!(low < 0.025 && high > 0.025 && high - low < 0.01);
    }

    #[test]
    fn slow_share_counts_above_three_times_the_warm_median() {
        let mut ranked: Vec<f64> = (0..71).map(|i| 380.0 + f64::from(i)).collect();
        ranked.extend([5_000.0, 6_000.0, 7_000.0, 120_000.0]);
        let slow = slow_share(&ranked, 415.0).unwrap();
        assert_eq!((slow.slow, slow.of), (4, 75));
        assert_eq!(slow.threshold_ms, 1245.0);
        let magnitude = slow.magnitude.unwrap();
        assert!((magnitude - 6_500.0 / 415.0).abs() < 1e-9, "{magnitude}");
        assert!(slow.warm_p95_ms.unwrap() < 451.0);
        assert!(slow_share(&[], 400.0).is_none());
        assert!(slow_share(&[1.0], 0.0).is_none());
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
        values.sort_by(f64::total_cmp);
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
            let summary = crate::core::stats::summarize_sorted(&values).unwrap();
            assert_eq!(Verdict::from_cv_pct(summary.cv_pct), expected_cv_band);
            let slow = slow_share(&values, 400.0).unwrap();
            assert_eq!(slow.slow, cold);
            assert_eq!(tail_band(&slow), Verdict::NotReady, "{cold} cold");
        }
    }
}
