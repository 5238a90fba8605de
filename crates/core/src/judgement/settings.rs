//! From measurements to settings people deploy: a first-token timeout with
//! a measured basis, and goodput at a TTFT budget.
//!
//! # Recommended first-token timeout
//!
//! A gateway's first-token timeout should cut only requests that would not
//! have come back in useful time, and it should rest on more than the
//! slowest request someone happened to see. The rule:
//!
//! ```text
//! q     = 0.999 when n allows a bound on it, else 0.99
//! u     = the smallest rank with P(Binomial(n, q) ≤ u − 1) ≥ 0.95
//! bound = x₍ᵤ₎, a distribution-free 95 % upper confidence bound of the q-quantile
//! timeout = bound × 1.5
//! ```
//!
//! The ranks include timeouts, censored at the plan's timeout (they hold
//! the top ranks): when x₍ᵤ₎ is one of them the data only say the quantile
//! is at least the plan's timeout, and the advice is to raise it and measure
//! again. Below n = 299 (1 − 0.99ⁿ < 0.95) no order statistic bounds the
//! p99 from above, so the advice says how many requests are needed instead
//! of printing a number.
//!
//! # Goodput
//!
//! The share of measured requests that succeeded with a first token within
//! the plan's `ttft_budget_ms`: errors and timeouts are misses, requests
//! the user stopped are left out (stopping is not the provider's failure).
//! Its 95 % interval is Wilson's score interval, which stays inside 0–1 and
//! keeps its coverage near shares of 0 and 1 and at small n.

use crate::statistics::binomial::{binomial_cdf, wilson};
use crate::wire::sample::{ErrorKind, Sample};

/// The recommended timeout is the quantile's upper bound times this.
pub const TIMEOUT_MARGIN: f64 = 1.5;

/// Confidence of the quantile's upper bound.
pub const TIMEOUT_CONFIDENCE: f64 = 0.95;

/// The first-token timeout advice for one target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeoutAdvice {
    /// A number: `timeout_ms` = `bound_ms` × [`TIMEOUT_MARGIN`].
    Recommended {
        /// The quantile bounded (0.99 or 0.999).
        quantile: f64,
        /// The 95 % upper confidence bound of that quantile, ms.
        bound_ms: f64,
        /// The recommended first-token timeout, ms.
        timeout_ms: f64,
        /// Ranked requests of this run slower than it (timeouts included).
        would_cut: usize,
        /// Ranked requests.
        of: usize,
    },
    /// The bound falls on a request that timed out: the quantile is at
    /// least the plan's timeout, which is then too short to measure it.
    AtLeastPlanTimeout {
        /// The quantile bounded.
        quantile: f64,
        /// The plan's timeout, ms.
        plan_timeout_ms: f64,
    },
    /// Too few ranked requests for any upper bound of the p99.
    NeedsRequests {
        /// Requests the p99 needs.
        needed: usize,
        /// Ranked requests there are.
        have: usize,
    },
}

/// Fewest values for which the largest bounds the `q`-quantile from above
/// with [`TIMEOUT_CONFIDENCE`]: the smallest n with 1 − qⁿ ≥ 0.95.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn requests_needed(q: f64) -> usize {
    let mut n = 1usize;
    let mut q_power_n = q;
    while 1.0 - q_power_n < TIMEOUT_CONFIDENCE && n < 1_000_000 {
        n += 1;
        q_power_n *= q;
    }
    n
}

/// The advice for ranked TTFTs `sorted_ms` (ascending; the top `censored`
/// of them timeouts at `plan_timeout_ms`). Cost: O(n) per candidate rank
/// near the top, O(n · (n − u)) at worst; in practice a few ranks.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn recommended_timeout(
    sorted_ms: &[f64],
    censored: usize,
    plan_timeout_ms: f64,
) -> TimeoutAdvice {
    let n = sorted_ms.len();
    let p999_needed = requests_needed(0.999);
    let quantile = if n >= p999_needed { 0.999 } else { 0.99 };
    let needed = requests_needed(quantile);
    if n < needed {
        return TimeoutAdvice::NeedsRequests { needed, have: n };
    }
    // P(B ≤ u − 1) rises with u: walk down from the top for the smallest
    // rank that still bounds the quantile.
    let mut rank = n;
    while rank > 1 && binomial_cdf(rank - 2, n, quantile) >= TIMEOUT_CONFIDENCE {
        rank -= 1;
    }
    if rank > n.saturating_sub(censored) {
        return TimeoutAdvice::AtLeastPlanTimeout {
            quantile,
            plan_timeout_ms,
        };
    }
    let bound_ms = sorted_ms[rank - 1];
    let timeout_ms = bound_ms * TIMEOUT_MARGIN;
    let kept = sorted_ms.partition_point(|&ms| ms <= timeout_ms);
    TimeoutAdvice::Recommended {
        quantile,
        bound_ms,
        timeout_ms,
        would_cut: n - kept,
        of: n,
    }
}

/// Goodput of one target at a TTFT budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Goodput {
    /// The budget, ms.
    pub budget_ms: f64,
    /// Successful requests whose first token came within it.
    pub within: usize,
    /// Measured requests, those the user stopped left out.
    pub of: usize,
    /// Wilson 95 % interval of the share, 0–1.
    pub interval: (f64, f64),
}

impl Goodput {
    /// `within / of`, 0 when nothing was measured.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn share(&self) -> f64 {
        if self.of == 0 {
            0.0
        } else {
            self.within as f64 / self.of as f64
        }
    }
}

/// The goodput of `samples` (one target's, warm-ups skipped here) at
/// `budget_ms`; `None` without a measured request.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn goodput<'a>(
    samples: impl IntoIterator<Item = &'a Sample>,
    budget_ms: f64,
) -> Option<Goodput> {
    let (mut within, mut of) = (0, 0);
    for sample in samples.into_iter().filter(|s| !s.warmup) {
        match &sample.error {
            Some(error) if error.kind == ErrorKind::Aborted => continue,
            Some(_) => of += 1,
            None => {
                of += 1;
                within += usize::from(sample.ttft_ms.is_some_and(|ms| ms <= budget_ms));
            }
        }
    }
    (of > 0).then(|| Goodput {
        budget_ms,
        within,
        of,
        interval: wilson(within, of),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::fixtures::synthetic_samples;
    use crate::wire::sample::{Phase, SampleError};

    #[test]
    fn the_p99_needs_299_requests_and_the_p999_2995() {
        assert_eq!(requests_needed(0.99), 299);
        assert_eq!(requests_needed(0.999), 2995);
        let few: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(
            recommended_timeout(&few, 0, 120_000.0),
            TimeoutAdvice::NeedsRequests {
                needed: 299,
                have: 100
            }
        );
    }

    #[test]
    fn the_bound_is_an_order_statistic_times_the_margin() {
        // 1..=300: with n = 300 only x₍₃₀₀₎ bounds the p99 (P(B ≤ 298) =
        // 1 − 0.99³⁰⁰ − 300·0.01·0.99²⁹⁹ ≈ 0.80 < 0.95).
        let values: Vec<f64> = (1..=300).map(f64::from).collect();
        let TimeoutAdvice::Recommended {
            quantile,
            bound_ms,
            timeout_ms,
            would_cut,
            of,
        } = recommended_timeout(&values, 0, 120_000.0)
        else {
            panic!("300 values bound the p99");
        };
        assert_eq!(
            (quantile, bound_ms, timeout_ms, would_cut, of),
            (0.99, 300.0, 450.0, 0, 300)
        );
        // With 1 000 values the bound comes down from the maximum.
        let values: Vec<f64> = (1..=1000).map(f64::from).collect();
        let TimeoutAdvice::Recommended { bound_ms, .. } =
            recommended_timeout(&values, 0, 120_000.0)
        else {
            panic!("1 000 values bound the p99");
        };
        // P(B ≤ u − 1) ≥ 0.95 for B ~ Binomial(1000, 0.99) first at u = 996.
        assert!(binomial_cdf(994, 1000, 0.99) < 0.95 && binomial_cdf(995, 1000, 0.99) >= 0.95);
        assert_eq!(bound_ms, 996.0);
    }

    #[test]
    fn a_bound_on_a_timeout_says_raise_the_timeout() {
        let mut values: Vec<f64> = (1..=299).map(f64::from).collect();
        values.push(120_000.0);
        assert_eq!(
            recommended_timeout(&values, 1, 120_000.0),
            TimeoutAdvice::AtLeastPlanTimeout {
                quantile: 0.99,
                plan_timeout_ms: 120_000.0
            }
        );
    }

    #[test]
    fn goodput_counts_errors_as_misses_and_leaves_stops_out() {
        let mut samples = synthetic_samples(1, 10, 1, 3);
        for (i, sample) in samples.iter_mut().enumerate() {
            sample.error = None;
            sample.ttft_ms = Some(if i % 2 == 0 { 500.0 } else { 1500.0 });
        }
        samples[1].error = Some(SampleError {
            kind: ErrorKind::Timeout,
            phase: Phase::BeforeFirstToken,
            message: String::new(),
        });
        samples[2].error = Some(SampleError {
            kind: ErrorKind::Aborted,
            phase: Phase::BeforeFirstToken,
            message: String::new(),
        });
        let measured: Vec<&Sample> = samples.iter().filter(|s| !s.warmup).collect();
        let expected_of = measured.len() - 1;
        let expected_within = measured
            .iter()
            .filter(|s| s.error.is_none() && s.ttft_ms == Some(500.0))
            .count();
        let g = goodput(&samples, 1000.0).unwrap();
        assert_eq!((g.within, g.of), (expected_within, expected_of));
        assert!(g.interval.0 < g.share() && g.share() < g.interval.1);
        assert!(goodput(&[], 1000.0).is_none());
    }
}
