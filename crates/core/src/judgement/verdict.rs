//! The one-word answer per target, from its TTFT coefficient of variation,
//! and the caveats that must be read before it.
//!
//! CV% is used rather than p95 alone because it is scale-free: a 0.4 s model
//! and a 4 s model with the same relative spread get the same verdict, and
//! the cold-start tail that ruins latency-sensitive work shows up as a CV in
//! the hundreds long before a median moves.

use serde::{Deserialize, Serialize};

/// Fewer successful measured samples than this and the page says the figures
/// are not yet trustworthy: with 75 samples the p95 rests on about four
/// requests above it, the least that makes a tail visible.
pub const MIN_SAMPLES: usize = 75;

/// Successful measured samples a target needs before it gets any verdict.
///
/// A verdict is a CV band, and the CV of a handful of samples says almost
/// nothing: one request gives CV 0 % ("solid"), and a target with a cold
/// start in one request of ten looks steady until that request comes.
/// At 20 samples the p95 is interpolated between the 19th and 20th values and
/// a tail of about 1 in 10 has had even odds of showing twice, so the CV has
/// met the spread it is meant to judge. Below this the page, the exports and
/// the terminal say "collecting (n of 20)" instead of a verdict; from here to
/// [`settled_at`] samples the verdict is marked provisional.
pub const VERDICT_MIN_SAMPLES: usize = 20;

/// Error rate (0–1) above which a target is flagged, and at or above which
/// it cannot be the recommended provider: 5 %, one request in twenty.
pub const ERROR_RATE_THRESHOLD: f64 = 0.05;

pub use crate::base::lang::Lang;

/// How consistent a target's TTFT is, by CV% band.
///
/// Bands, lower edge included: `[0, 40)` solid; `[40, 100)` some variance;
/// `[100, 300]` cold starts; above 300 not ready.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// CV below 40 %: steady.
    Solid,
    /// CV 40–100 %: fine for latency-tolerant work.
    SomeVariance,
    /// CV 100–300 %: cold starts; judge the p95 against your needs.
    ColdStarts,
    /// CV above 300 %: not ready for latency-sensitive production.
    NotReady,
}

impl Verdict {
    /// The verdict for a CV in percent. A NaN CV (no data) is treated as the
    /// worst case rather than the best.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn from_cv_pct(cv_pct: f64) -> Self {
        if cv_pct < 40.0 {
            Self::Solid
        } else if cv_pct < 100.0 {
            Self::SomeVariance
        } else if cv_pct <= 300.0 {
            Self::ColdStarts
        } else {
            Self::NotReady
        }
    }
}

/// Where a target's verdict stands, given how many successful measured
/// samples it rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Judgement {
    /// Fewer than [`VERDICT_MIN_SAMPLES`] successful samples: no verdict.
    Collecting {
        /// Successful measured samples so far.
        n: usize,
    },
    /// Enough for a verdict, but fewer than [`settled_at`] samples: it may
    /// still change as samples arrive.
    Provisional(Verdict),
    /// The plan's sample count (or [`MIN_SAMPLES`]) is reached.
    Final(Verdict),
}

/// Successful samples from which a verdict is no longer provisional: the
/// plan's requests per target, or [`MIN_SAMPLES`] if that is smaller, and
/// never fewer than [`VERDICT_MIN_SAMPLES`].
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn settled_at(requests_per_target: u32) -> usize {
    usize::try_from(requests_per_target)
        .unwrap_or(usize::MAX)
        .clamp(VERDICT_MIN_SAMPLES, MIN_SAMPLES)
}

impl Judgement {
    /// The judgement for `n` successful samples whose TTFT CV is `cv_pct`,
    /// in a plan of `requests_per_target` measured requests per target.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn new(n: usize, cv_pct: f64, requests_per_target: u32) -> Self {
        Self::of(n, Verdict::from_cv_pct(cv_pct), requests_per_target)
    }

    /// The judgement for `n` ranked samples whose verdict would be
    /// `verdict` (see [`judge`]), in a plan of `requests_per_target`
    /// measured requests per target.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn of(n: usize, verdict: Verdict, requests_per_target: u32) -> Self {
        if n < VERDICT_MIN_SAMPLES {
            Self::Collecting { n }
        } else if n < settled_at(requests_per_target) {
            Self::Provisional(verdict)
        } else {
            Self::Final(verdict)
        }
    }

    /// The verdict, provisional or final; `None` while collecting.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn verdict(self) -> Option<Verdict> {
        match self {
            Self::Collecting { .. } => None,
            Self::Provisional(verdict) | Self::Final(verdict) => Some(verdict),
        }
    }

    /// Whether the verdict may still change.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn is_provisional(self) -> bool {
        matches!(self, Self::Provisional(_))
    }
}

/// The verdict of one target: the worse of its CV band and its tail band
/// ([`crate::judgement::slow::tail_band`]), and never [`Verdict::Solid`] when a
/// request was slow (`slow` > 0; every timeout is slow) or a cold-start
/// tail was found.
///
/// Monotone: with the tail band of [`crate::judgement::slow`], making any request of a
/// run slow (a warm one cold, a cold one longer, a success a timeout)
/// never improves this verdict (docs/statistics.md, "Monotone verdict").
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn judge(cv_pct: f64, tail_band: Verdict, slow: usize, cold_tail_found: bool) -> Verdict {
    let worse = Verdict::from_cv_pct(cv_pct).max(tail_band);
    if slow > 0 || cold_tail_found {
        worse.max(Verdict::SomeVariance)
    } else {
        worse
    }
}

/// The largest CV% that `n` values can have (all but one equal): √n × 100.
/// A CV near it cannot grow however bad the tail gets, so it understates a
/// rare, very long cold start.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn cv_cap_pct(n: usize) -> f64 {
    (n as f64).sqrt() * 100.0
}

/// A CV at or above this share of [`cv_cap_pct`] is said to sit at its cap.
pub const CV_CAP_SHARE: f64 = 0.8;

/// Something to read before the verdict, because it limits what the
/// verdict can mean. Listed in the order they should be said.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Caveat {
    /// Requests that saw no first token within the timeout: ranked as at
    /// least the timeout, so mean, stddev and CV are lower bounds.
    Censored {
        /// How many.
        count: usize,
        /// The plan's timeout, ms.
        timeout_ms: f64,
    },
    /// Requests that failed before their first token (an HTTP error, a
    /// refused connection, a stream cut before any content): the decisions
    /// (verdict, slow count, rank) count each as a request that took the
    /// whole timeout, so that no failure can improve them; the TTFT
    /// figures shown describe the requests that answered.
    FailedCountAsSlow {
        /// How many.
        count: usize,
        /// The plan's timeout, ms.
        timeout_ms: f64,
    },
    /// The CV is within [`CV_CAP_SHARE`] of the most `n` values can show.
    CvAtCap {
        /// Ranked samples.
        n: usize,
        /// The cap, percent.
        cap_pct: f64,
    },
    /// The error rate (0–1) is above [`ERROR_RATE_THRESHOLD`]: the latency
    /// figures describe only the requests that worked.
    HighErrorRate {
        /// Errors / measured requests, 0–1.
        error_rate: f64,
    },
    /// Fewer than [`MIN_SAMPLES`] ranked samples (first tokens measured,
    /// and timeouts ranked at the timeout).
    TooFewSamples {
        /// Ranked samples.
        n: usize,
    },
}

/// The caveats for a target with `successful` successful measured samples
/// and the given error rate (0–1): a high error rate first, since it
/// changes what the other numbers mean, then too few samples.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn caveats(successful: usize, error_rate: f64) -> Vec<Caveat> {
    let mut found = Vec::new();
    if error_rate > ERROR_RATE_THRESHOLD {
        found.push(Caveat::HighErrorRate { error_rate });
    }
    if successful < MIN_SAMPLES {
        found.push(Caveat::TooFewSamples { n: successful });
    }
    found
}

/// [`caveats`], then the censoring and CV-cap caveats: `ranked` samples
/// (successes and censored timeouts) with CV `cv_pct`, `censored` of them
/// timeouts at `timeout_ms`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn caveats_with_censoring(
    ranked: usize,
    error_rate: f64,
    censored: usize,
    timeout_ms: f64,
    cv_pct: f64,
) -> Vec<Caveat> {
    let mut found = caveats(ranked, error_rate);
    if censored > 0 {
        found.push(Caveat::Censored {
            count: censored,
            timeout_ms,
        });
    }
    let cap_pct = cv_cap_pct(ranked);
    if ranked >= 2 && cv_pct >= CV_CAP_SHARE * cap_pct {
        found.push(Caveat::CvAtCap { n: ranked, cap_pct });
    }
    found
}

impl Verdict {
    /// The name used in documents and as a CSS class (serde's name for the variant).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Solid => "solid",
            Self::SomeVariance => "some_variance",
            Self::ColdStarts => "cold_starts",
            Self::NotReady => "not_ready",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_at_their_edges() {
        assert_eq!(Verdict::from_cv_pct(0.0), Verdict::Solid);
        assert_eq!(Verdict::from_cv_pct(39.99), Verdict::Solid);
        assert_eq!(Verdict::from_cv_pct(40.0), Verdict::SomeVariance);
        assert_eq!(Verdict::from_cv_pct(99.99), Verdict::SomeVariance);
        assert_eq!(Verdict::from_cv_pct(100.0), Verdict::ColdStarts);
        assert_eq!(Verdict::from_cv_pct(300.0), Verdict::ColdStarts);
        assert_eq!(Verdict::from_cv_pct(300.01), Verdict::NotReady);
        assert_eq!(Verdict::from_cv_pct(f64::NAN), Verdict::NotReady);
    }

    #[test]
    fn serializes_as_snake_case() {
        let all = [
            Verdict::Solid,
            Verdict::SomeVariance,
            Verdict::ColdStarts,
            Verdict::NotReady,
        ];
        let json = crate::base::document::to_string(&all);
        assert_eq!(
            json,
            r#"["solid","some_variance","cold_starts","not_ready"]"#
        );
        for verdict in all {
            assert_eq!(
                crate::base::document::to_string(&verdict),
                format!("\"{}\"", verdict.as_str())
            );
            assert!(!verdict.text(Lang::En).is_empty());
            assert!(!verdict.text(Lang::ZhCn).is_empty());
        }
        let back: Verdict = crate::base::document::from_str("\"cold_starts\"").unwrap();
        assert_eq!(back, Verdict::ColdStarts);
    }

    #[test]
    fn no_verdict_before_twenty_then_provisional_until_the_plan_or_75() {
        let cv = 10.0;
        assert_eq!(Judgement::new(0, 0.0, 100), Judgement::Collecting { n: 0 });
        assert_eq!(Judgement::new(19, cv, 100), Judgement::Collecting { n: 19 });
        assert_eq!(Judgement::new(19, cv, 100).verdict(), None);
        assert_eq!(
            Judgement::new(20, cv, 100),
            Judgement::Provisional(Verdict::Solid)
        );
        assert_eq!(
            Judgement::new(74, 500.0, 100),
            Judgement::Provisional(Verdict::NotReady)
        );
        assert_eq!(
            Judgement::new(75, cv, 100),
            Judgement::Final(Verdict::Solid)
        );
        // A plan of 30 requests settles at 30; one of 10 can only reach 20.
        assert!(Judgement::new(29, cv, 30).is_provisional());
        assert_eq!(Judgement::new(30, cv, 30), Judgement::Final(Verdict::Solid));
        assert_eq!(Judgement::new(12, cv, 10), Judgement::Collecting { n: 12 });
        assert_eq!(Judgement::new(20, cv, 10), Judgement::Final(Verdict::Solid));
        assert_eq!(settled_at(0), VERDICT_MIN_SAMPLES);
        assert_eq!(settled_at(u32::MAX), MIN_SAMPLES);
        assert_eq!(
            Judgement::new(7, cv, 100)
                .collecting_text(Lang::En)
                .as_deref(),
            Some("collecting (7 of 20)")
        );
        assert_eq!(
            Judgement::new(7, cv, 100)
                .collecting_text(Lang::ZhCn)
                .as_deref(),
            Some("收集中（7 / 20）")
        );
        assert_eq!(Judgement::new(20, cv, 100).collecting_text(Lang::En), None);
        // A finished run or a file collects nothing more: it says too few.
        let few = Judgement::new(7, cv, 100);
        assert_eq!(
            few.finished_label(Lang::En, true),
            "too few to judge (7 of 20)"
        );
        assert_eq!(
            few.finished_label(Lang::ZhCn, false),
            "样本不足，无法判断（7 / 20）"
        );
        let judged = Judgement::new(75, cv, 100);
        assert_eq!(
            judged.finished_label(Lang::En, true),
            judged.label(Lang::En, true)
        );
    }

    #[test]
    fn caveats_in_order_with_numbers() {
        assert!(caveats(75, 0.05).is_empty());
        assert_eq!(caveats(74, 0.0), vec![Caveat::TooFewSamples { n: 74 }]);
        let both = caveats(10, 0.2);
        assert_eq!(
            both,
            vec![
                Caveat::HighErrorRate { error_rate: 0.2 },
                Caveat::TooFewSamples { n: 10 }
            ]
        );
        assert_eq!(
            both[0].text(Lang::En),
            "20.0 % of requests failed (more than 5 %): the timings cover only the ones that worked"
        );
        assert!(both[1].text(Lang::En).contains("only 10 measured samples"));
        assert!(both[1].text(Lang::ZhCn).contains("10"));
    }
}
