//! Objectives a run can fail: `p95>2s`, `error_rate>2%`,
//! `verdict>=cold_starts`, checked against a report's figures, so a
//! scheduled job can stop (and so alert) when a provider degrades, as load
//! testers' thresholds fail a CI job.
//!
//! An objective names what crossing looks like: `p95>2s` fails a target
//! whose p95 TTFT is above 2 s. Where the report has a 95 % interval (the
//! median, the p95 and the CV), an objective fails only when the whole
//! interval lies beyond the limit: a figure whose interval still reaches
//! the limit may be there by chance, and a gate that fails on chance
//! alerts people for nothing. [`Strictness::Point`] judges the point
//! value instead. A target with no figure at all (no successful request,
//! too few for a verdict) cannot show it meets the objective and fails it.

use crate::judgement::report::{Report, TargetReport};
use crate::judgement::verdict::Verdict;
pub use crate::planning::objectives::{Crossing, Metric, ObjectiveError};
use crate::planning::objectives::{ReadLimit, parse};
use crate::planning::plan::Plan;
use crate::statistics::sequential::Decision;
use crate::wire::questions::Questions;

/// The limit, in the metric's unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// Milliseconds (written `2s` or `800ms`).
    Ms(f64),
    /// Percent (written `2%`).
    Pct(f64),
    /// A verdict.
    Verdict(Verdict),
}

/// One objective, as parsed: `metric crossing limit`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Objective {
    /// What is looked at.
    pub metric: Metric,
    /// `>` or `>=`.
    pub crossing: Crossing,
    /// The limit.
    pub limit: Limit,
}

impl std::str::FromStr for Objective {
    type Err = ObjectiveError;

    /// Reads `p95>2s`, `median >= 800ms`, `error_rate>2%`, `cv>100%`,
    /// `verdict>=cold_starts` (spaces and case do not matter), by the one
    /// reading a plan's `objectives` get too ([`crate::planning::objectives`]).
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let read = parse(text)?;
        Ok(Self {
            metric: read.metric,
            crossing: read.crossing,
            limit: match read.limit {
                ReadLimit::Ms(ms) => Limit::Ms(ms),
                ReadLimit::Pct(pct) => Limit::Pct(pct),
                ReadLimit::Verdict(rank) => Limit::Verdict(VERDICTS[rank]),
            },
        })
    }
}

/// The verdicts in the order of the names objectives read, best first.
const VERDICTS: [Verdict; 4] = [
    Verdict::Solid,
    Verdict::SomeVariance,
    Verdict::ColdStarts,
    Verdict::NotReady,
];

impl std::fmt::Display for Objective {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.metric.name(), self.crossing.symbol())?;
        match self.limit {
            Limit::Ms(ms) => f.write_str(&limit_ms_text(ms)),
            Limit::Pct(pct) => write!(f, "{pct}%"),
            Limit::Verdict(verdict) => f.write_str(verdict.as_str()),
        }
    }
}

/// Whether an interval counts, or only the point value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strictness {
    /// A figure with an interval crosses only when the whole interval does.
    Interval,
    /// The point value decides (`--strict`).
    Point,
}

/// What one objective found for one target.
#[derive(Clone, Debug, PartialEq)]
pub enum Finding {
    /// Within the objective.
    Met,
    /// The point value crosses, but the interval reaches back over the
    /// limit: not failed (only [`Strictness::Point`] fails it).
    PointOnly {
        /// The point value.
        value: f64,
        /// The interval's bounds.
        low: f64,
        /// Upper bound (∞ for "≥ low").
        high: f64,
    },
    /// Crossed.
    Crossed {
        /// The figure, in the metric's unit.
        value: Figure,
        /// The interval, when one decided.
        interval: Option<(f64, f64)>,
    },
    /// No figure to judge (no successful request, no verdict yet): fails.
    Missing,
    /// A TTFT quantile objective followed through a run until decided, by
    /// its anytime-valid test ([`crate::wire::questions`]): met
    /// ([`Decision::First`]), missed ([`Decision::Second`], which fails),
    /// or not decided when the run reached its cap ([`Decision::Open`]).
    Decided {
        /// The test's decision.
        decision: Decision,
        /// The target's measured requests it rests on.
        requests: u32,
    },
}

/// A figure, as the objective reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Figure {
    /// Milliseconds, or percent, by the metric.
    Number(f64),
    /// A verdict.
    Verdict(Verdict),
}

/// One objective checked on one target.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// The target's index in the report.
    pub target: u32,
    /// The target's label.
    pub label: String,
    /// The objective.
    pub objective: Objective,
    /// What was found.
    pub finding: Finding,
}

impl Check {
    /// Whether this check fails the gate.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn failed(&self) -> bool {
        matches!(
            self.finding,
            Finding::Crossed { .. }
                | Finding::Missing
                | Finding::Decided {
                    decision: Decision::Second,
                    ..
                }
        )
    }

    /// Whether this check is a question a run until decided left open at
    /// its cap: neither met nor failed.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn undecided(&self) -> bool {
        matches!(
            self.finding,
            Finding::Decided {
                decision: Decision::Open,
                ..
            }
        )
    }

    /// One line: which target, which objective, which figure.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn line(&self) -> String {
        // Figures to three places, or to the limit's own when it has
        // more (a limit of 150.62 ms is judged on hundredths).
        let unit = |value: f64| match self.objective.limit {
            Limit::Ms(limit) if limit < 1000.0 && limit.fract() != 0.0 => {
                let text = limit_ms_text(limit);
                let places = text
                    .split_once('.')
                    .map_or(0, |(_, fraction)| fraction.trim_end_matches(" ms").len());
                if value < 1000.0 {
                    format!("{value:.places$} ms")
                } else {
                    ms_text(value)
                }
            }
            Limit::Ms(_) => ms_text(value),
            _ => format!("{} %", round_sig(value)),
        };
        let name = self.objective.metric.name();
        let limit = match self.objective.limit {
            Limit::Ms(ms) => limit_ms_text(ms),
            Limit::Pct(pct) => format!("{pct} %"),
            Limit::Verdict(verdict) => verdict.as_str().to_owned(),
        };
        match &self.finding {
            Finding::Met => format!("met {}: {}", self.objective, self.label),
            Finding::Decided { decision, requests } => {
                let after = format!("after {requests} requests (anytime-valid 95 %)");
                match decision {
                    Decision::First => {
                        format!("met {}: {}: decided {after}", self.objective, self.label)
                    }
                    Decision::Second => format!(
                        "FAILED {}: {}: {name} {} {limit}, decided {after}",
                        self.objective,
                        self.label,
                        self.crossing_word()
                    ),
                    Decision::Open => format!(
                        "undecided {}: {}: not decided {after}",
                        self.objective, self.label
                    ),
                }
            }
            Finding::PointOnly { value, low, high } => format!(
                "held {}: {}: {name} {} is {} {limit}, but its 95 % interval {} reaches the \
                 limit (--strict fails on the point value)",
                self.objective,
                self.label,
                unit(*value),
                self.crossing_word(),
                interval_text(*low, *high, unit),
            ),
            Finding::Crossed { value, interval } => {
                let figure = match value {
                    Figure::Number(value) => unit(*value),
                    Figure::Verdict(verdict) => verdict.as_str().to_owned(),
                };
                let mut line =
                    format!("FAILED {}: {}: {name} {figure}", self.objective, self.label);
                match interval {
                    Some((low, high)) => line.push_str(&format!(
                        ", its 95 % interval {} wholly {} {limit}",
                        interval_text(*low, *high, unit),
                        self.crossing_word()
                    )),
                    None => line.push_str(&format!(" is {} {limit}", self.crossing_word())),
                }
                line
            }
            Finding::Missing => format!(
                "FAILED {}: {}: no {name} to judge ({})",
                self.objective,
                self.label,
                match self.objective.metric {
                    Metric::Verdict => "too few successful requests for a verdict",
                    _ => "no successful request",
                }
            ),
        }
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn crossing_word(&self) -> &'static str {
        match (self.objective.crossing, self.objective.metric) {
            (Crossing::Above, Metric::Verdict) => "worse than",
            (Crossing::AtOrAbove, Metric::Verdict) => "at least as bad as",
            (Crossing::Above, _) => "above",
            (Crossing::AtOrAbove, _) => "at or above",
        }
    }
}

/// Checks every objective on every target of `report`, target by target.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn check(report: &Report, objectives: &[Objective], strictness: Strictness) -> Vec<Check> {
    report
        .targets
        .iter()
        .flat_map(|target| {
            objectives.iter().map(move |objective| Check {
                target: target.target,
                label: target.label.clone(),
                objective: *objective,
                finding: finding(target, objective, strictness),
            })
        })
        .collect()
}

/// Checks a run's objectives (the plan's `objectives`) on every target of
/// `report`, target by target: with the `questions` of a run until decided,
/// each TTFT quantile objective by the decision its anytime-valid test
/// reached ([`Finding::Decided`]); every other objective, and all of them
/// without `questions`, on the report's figures as [`check`] judges them.
/// An objective that does not read is left out (a plan read through
/// [`Plan::from_json`](crate::planning::plan::Plan::from_json) has none).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn check_run(
    report: &Report,
    plan: &Plan,
    questions: Option<&Questions>,
    strictness: Strictness,
) -> Vec<Check> {
    let objectives: Vec<(u32, Objective)> = (0u32..)
        .zip(&plan.objectives)
        .filter_map(|(index, text)| Some((index, text.parse().ok()?)))
        .collect();
    report
        .targets
        .iter()
        .flat_map(|target| {
            objectives.iter().map(move |(index, objective)| {
                let decided = questions.and_then(|questions| {
                    let question = questions
                        .objectives
                        .iter()
                        .find(|q| q.target == target.target && q.objective == *index)?;
                    Some(Finding::Decided {
                        decision: questions.objective_decision(question),
                        requests: questions.requests(target.target),
                    })
                });
                Check {
                    target: target.target,
                    label: target.label.clone(),
                    objective: *objective,
                    finding: decided.unwrap_or_else(|| finding(target, objective, strictness)),
                }
            })
        })
        .collect()
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn finding(target: &TargetReport, objective: &Objective, strictness: Strictness) -> Finding {
    let crossing = objective.crossing;
    let limit = match objective.limit {
        Limit::Verdict(limit) => {
            return match target.verdict {
                None => Finding::Missing,
                Some(verdict)
                    if verdict > limit || (crossing == Crossing::AtOrAbove && verdict == limit) =>
                {
                    Finding::Crossed {
                        value: Figure::Verdict(verdict),
                        interval: None,
                    }
                }
                Some(_) => Finding::Met,
            };
        }
        Limit::Ms(limit) | Limit::Pct(limit) => limit,
    };
    if objective.metric == Metric::ErrorRate {
        let value = target.error_rate * 100.0;
        return if target.requests == 0 {
            Finding::Missing
        } else if crossing.crosses(value, limit) {
            Finding::Crossed {
                value: Figure::Number(value),
                interval: None,
            }
        } else {
            Finding::Met
        };
    }
    let Some(ttft) = target.ttft else {
        return Finding::Missing;
    };
    let (value, interval) = match objective.metric {
        Metric::Median => (ttft.median, target.intervals.map(|i| i.median_ms)),
        Metric::P95 => (ttft.p95, target.intervals.map(|i| i.p95_ms)),
        Metric::Cv => (ttft.cv_pct, target.intervals.map(|i| i.cv_pct)),
        Metric::P90 => (ttft.p90, None),
        Metric::P99 => (ttft.p99, None),
        Metric::ErrorRate | Metric::Verdict => return Finding::Met,
    };
    if !crossing.crosses(value, limit) {
        return Finding::Met;
    }
    match (strictness, interval) {
        (Strictness::Interval, Some(interval)) if !crossing.crosses(interval.low, limit) => {
            Finding::PointOnly {
                value,
                low: interval.low,
                high: interval.high,
            }
        }
        (Strictness::Interval, Some(interval)) => Finding::Crossed {
            value: Figure::Number(value),
            interval: Some((interval.low, interval.high)),
        },
        _ => Finding::Crossed {
            value: Figure::Number(value),
            interval: None,
        },
    }
}

/// A limit as it was given, never rounded: `2 s`, `1.5 s`, `150.9 ms`.
#[cfg_attr(target_arch = "wasm32", inline)]
fn limit_ms_text(ms: f64) -> String {
    let trim = |text: String| {
        if text.contains('.') {
            text.trim_end_matches('0').trim_end_matches('.').to_owned()
        } else {
            text
        }
    };
    if ms >= 1000.0 {
        format!("{} s", trim(format!("{:.6}", ms / 1000.0)))
    } else {
        format!("{} ms", trim(format!("{ms:.3}")))
    }
}

/// `2 s`, `850 ms`: a figure as people read it, to three figures.
#[cfg_attr(target_arch = "wasm32", inline)]
fn ms_text(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{} s", round_sig(ms / 1000.0))
    } else {
        format!("{} ms", round_sig(ms))
    }
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn interval_text(low: f64, high: f64, unit: impl Fn(f64) -> String) -> String {
    if high.is_finite() {
        format!("{}–{}", unit(low), unit(high))
    } else {
        format!("≥ {}", unit(low))
    }
}

/// Three significant figures at most, without trailing zeros.
#[cfg_attr(target_arch = "wasm32", inline)]
fn round_sig(value: f64) -> String {
    let text = if value.abs() >= 100.0 {
        format!("{value:.0}")
    } else if value.abs() >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    };
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgement::report::build_report;
    use crate::planning::objectives::VERDICT_NAMES;
    use crate::planning::plan::{Plan, Target};
    use crate::testing::fixtures::plain_samples;
    use crate::wire::sample::{ErrorKind, Phase, Sample, SampleError};

    fn objective(text: &str) -> Objective {
        text.parse().unwrap()
    }

    #[test]
    fn objectives_read_with_their_units() {
        assert_eq!(
            objective("p95>2s"),
            Objective {
                metric: Metric::P95,
                crossing: Crossing::Above,
                limit: Limit::Ms(2000.0)
            }
        );
        assert_eq!(objective(" Median >= 800ms ").limit, Limit::Ms(800.0));
        assert_eq!(objective("median>=800ms").crossing, Crossing::AtOrAbove);
        assert_eq!(objective("error_rate>2%").limit, Limit::Pct(2.0));
        assert_eq!(
            objective("verdict>=cold_starts").limit,
            Limit::Verdict(Verdict::ColdStarts)
        );
        assert_eq!(
            objective("verdict>some-variance").limit,
            Limit::Verdict(Verdict::SomeVariance)
        );
        for (text, round_trip) in [
            ("p95>2s", "p95>2 s"),
            ("p50>=1.5s", "median>=1.5 s"),
            ("cv>100%", "cv>100%"),
            ("median>150.9ms", "median>150.9 ms"),
            ("p99>2500ms", "p99>2.5 s"),
            ("verdict>=not_ready", "verdict>=not_ready"),
        ] {
            assert_eq!(objective(text).to_string(), round_trip);
        }
    }

    #[test]
    fn the_verdict_names_objectives_read_are_the_verdicts_own() {
        for (name, verdict) in VERDICT_NAMES.iter().zip(VERDICTS) {
            assert_eq!(*name, verdict.as_str());
            assert_eq!(
                objective(&format!("verdict>{name}")).limit,
                Limit::Verdict(verdict)
            );
        }
        assert!(VERDICTS.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn a_bad_objective_says_what_to_write() {
        let error = |text: &str| text.parse::<Objective>().unwrap_err();
        assert_eq!(error("p95 2s"), ObjectiveError::NoComparison);
        assert_eq!(
            error("p97>2s"),
            ObjectiveError::UnknownMetric("p97".to_owned())
        );
        assert_eq!(error("p95<2s"), ObjectiveError::Below);
        assert_eq!(error("p95>2"), ObjectiveError::BadTime("2".to_owned()));
        assert_eq!(error("p95>-2s"), ObjectiveError::BadTime("-2s".to_owned()));
        assert_eq!(
            error("p95>nans"),
            ObjectiveError::BadTime("nans".to_owned())
        );
        assert_eq!(
            error("error_rate>0.02"),
            ObjectiveError::BadPercent("0.02".to_owned())
        );
        assert_eq!(
            error("verdict>=bad"),
            ObjectiveError::BadVerdict("bad".to_owned())
        );
        for e in [error("p95 2s"), error("p95>2"), error("verdict>=bad")] {
            assert!(
                e.to_string().contains("e.g.") || e.to_string().contains("use"),
                "{e}"
            );
        }
    }

    fn plan(requests: u32) -> Plan {
        Plan {
            targets: vec![Target::openai("A", "https://a.example.com/v1", "m")],
            requests_per_target: requests,
            warmup_per_target: 0,
            spacing_s: 5.0,
            jitter_s: 0.0,
            ..Plan::default()
        }
    }

    /// A report of one target whose TTFTs are `ttfts`, then `errors`
    /// failed requests, sent 5 s apart.
    fn report(ttfts: &[f64], errors: usize) -> Report {
        let n = ttfts.len() + errors;
        let mut samples = plain_samples(n as u32);
        for (sample, ttft) in samples.iter_mut().zip(ttfts) {
            sample.ttft_ms = Some(*ttft);
        }
        for sample in samples.iter_mut().skip(ttfts.len()) {
            sample.ttft_ms = None;
            sample.total_ms = None;
            sample.error = Some(SampleError {
                kind: ErrorKind::HttpStatus,
                phase: Phase::Request,
                message: "503".to_owned(),
            });
        }
        build_report(&plan(n as u32), &samples, 0, 7)
    }

    #[test]
    fn a_p95_fails_only_when_its_interval_lies_wholly_above_the_limit() {
        // 100 requests around 1 s with a few at 2.1 s: the p95 is just above
        // 2 s, but its interval reaches well below.
        let ttfts: Vec<f64> = spread(900.0, 100)
            .into_iter()
            .map(|v| if v >= 994.0 { 2100.0 } else { v })
            .collect();
        let report = report(&ttfts, 0);
        let p95 = report.targets[0].ttft.unwrap().p95;
        let interval = report.targets[0].intervals.unwrap().p95_ms;
        assert!(p95 > 2000.0 && interval.low < 2000.0, "{p95} {interval:?}");
        let objectives = [objective("p95>2s")];
        let checks = check(&report, &objectives, Strictness::Interval);
        assert!(
            matches!(checks[0].finding, Finding::PointOnly { .. }),
            "{checks:?}"
        );
        assert!(!checks[0].failed());
        assert!(
            checks[0]
                .line()
                .starts_with("held p95>2 s: A: p95 2.1 s is above 2 s"),
            "{}",
            checks[0].line()
        );
        // --strict: the point value decides.
        let strict = check(&report, &objectives, Strictness::Point);
        assert!(strict[0].failed(), "{strict:?}");

        // Every request slow: the whole interval is above, and it fails.
        let slow = spread(3000.0, 100);
        let checks = check(&report_of(&slow), &objectives, Strictness::Interval);
        assert!(checks[0].failed(), "{checks:?}");
        let line = checks[0].line();
        assert!(
            line.starts_with("FAILED p95>2 s: A: p95 3.09 s, its 95 % interval 3.0"),
            "{line}"
        );
        assert!(line.ends_with("wholly above 2 s"), "{line}");

        // Well under: met.
        let fast = spread(300.0, 100);
        let checks = check(&report_of(&fast), &objectives, Strictness::Interval);
        assert_eq!(checks[0].finding, Finding::Met);
    }

    fn report_of(ttfts: &[f64]) -> Report {
        report(ttfts, 0)
    }

    /// `n` values from `base` to `base + n - 1` ms, in a scrambled order
    /// (no trend over the run, so the requests read as independent).
    fn spread(base: f64, n: u32) -> Vec<f64> {
        (0..n).map(|i| base + f64::from((i * 37) % n)).collect()
    }

    #[test]
    fn a_median_follows_the_same_rule_and_a_few_requests_leave_intervals_open() {
        // 100 requests from 1.955 to 2.054 s: the median is above 2 s, its
        // interval is not wholly.
        let report = report_of(&spread(1955.0, 100));
        let checks = check(&report, &[objective("median>2s")], Strictness::Interval);
        assert!(
            matches!(checks[0].finding, Finding::PointOnly { .. }),
            "{checks:?}"
        );
        let checks = check(&report, &[objective("median>1.9s")], Strictness::Interval);
        assert!(checks[0].failed(), "{checks:?}");
        // Ten requests: a p95 of fewer than 72 has no upper bound, so its
        // lower bound decides.
        let report = report_of(&spread(2500.0, 10));
        let p95 = report.targets[0].intervals.unwrap().p95_ms;
        assert!(p95.high.is_infinite(), "{p95:?}");
        let checks = check(&report, &[objective("p95>2s")], Strictness::Interval);
        assert!(checks[0].failed(), "{checks:?}");
        assert!(
            checks[0].line().contains("interval ≥ "),
            "{}",
            checks[0].line()
        );
    }

    /// A run until decided judges its quantile objectives by the decisions
    /// of their anytime-valid tests (met, missed, or not decided at the
    /// cap) and the others on the report's figures; without the run's
    /// questions every objective is judged on the figures.
    #[test]
    fn a_run_s_quantile_objectives_are_judged_by_their_decisions() {
        let plan = Plan {
            targets: vec![
                Target::openai("A", "https://a.example.com/v1", "m"),
                Target::openai("B", "https://b.example.com/v1", "m"),
            ],
            until_decided: true,
            min_requests_per_target: Some(20),
            warmup_per_target: 0,
            objectives: vec!["p95>2s".into(), "error_rate>2%".into()],
            ..Plan::default()
        };
        let run = |a: u32, b: u32| -> Vec<Sample> {
            let mut samples = plain_samples(a + b);
            for (i, sample) in samples.iter_mut().enumerate() {
                let i = i as u32;
                let (target, seq, ms) = if i < a {
                    (0, i, 300.0 + f64::from(i % 7))
                } else {
                    (1, i - a, 3000.0 + f64::from(i % 5))
                };
                (sample.target, sample.seq, sample.ttft_ms) = (target, seq, Some(ms));
            }
            samples
        };
        let samples = run(200, 20);
        let report = build_report(&plan, &samples, 0, 7);
        let questions = Questions::replayed(&plan, &samples);
        let checks = check_run(&report, &plan, questions.as_ref(), Strictness::Interval);
        let lines: Vec<String> = checks.iter().map(Check::line).collect();
        assert_eq!(
            lines,
            [
                "met p95>2 s: A: decided after 200 requests (anytime-valid 95 %)",
                "met error_rate>2%: A",
                "FAILED p95>2 s: B: p95 above 2 s, decided after 20 requests (anytime-valid 95 %)",
                "met error_rate>2%: B",
            ]
        );
        let failed: Vec<bool> = checks.iter().map(Check::failed).collect();
        assert_eq!(failed, [false, false, true, false]);
        assert!(checks.iter().all(|c| !c.undecided()));

        // Thirty requests of A: too few to decide a p95 it meets.
        let samples = run(30, 30);
        let report = build_report(&plan, &samples, 0, 7);
        let questions = Questions::replayed(&plan, &samples);
        let checks = check_run(&report, &plan, questions.as_ref(), Strictness::Interval);
        assert!(checks[0].undecided() && !checks[0].failed(), "{checks:?}");
        assert_eq!(
            checks[0].line(),
            "undecided p95>2 s: A: not decided after 30 requests (anytime-valid 95 %)"
        );
        // Without the run's questions, the figures judge, as `report` does.
        let plain = check_run(&report, &plan, None, Strictness::Interval);
        assert_eq!(
            plain,
            check(
                &report,
                &[objective("p95>2s"), objective("error_rate>2%")],
                Strictness::Interval
            )
        );
        assert_eq!(plain[0].finding, Finding::Met);
        assert!(plain[2].failed());
    }

    #[test]
    fn error_rates_and_verdicts_are_point_values_and_no_figure_fails() {
        let fast = spread(300.0, 98);
        let with_errors = report(&fast, 2);
        let checks = check(
            &with_errors,
            &[
                objective("error_rate>2%"),
                objective("error_rate>=2%"),
                objective("verdict>=cold_starts"),
            ],
            Strictness::Interval,
        );
        let failed: Vec<bool> = checks.iter().map(Check::failed).collect();
        // Two failures before the first token count as slow requests of
        // the whole timeout for the verdict: a failure never improves it.
        assert_eq!(failed, [false, true, true], "{checks:?}");
        assert_eq!(
            checks[1].line(),
            "FAILED error_rate>=2%: A: error_rate 2 % is at or above 2 %"
        );

        // Cold starts: one request in ten takes 8 s.
        let cold: Vec<f64> = (0..100)
            .map(|i| {
                if i % 10 == 3 {
                    8000.0
                } else {
                    400.0 + f64::from(i)
                }
            })
            .collect();
        let checks = check(
            &report_of(&cold),
            &[objective("verdict>=cold_starts")],
            Strictness::Interval,
        );
        assert!(checks[0].failed(), "{checks:?}");
        assert!(
            checks[0].line().contains("at least as bad as cold_starts"),
            "{}",
            checks[0].line()
        );

        // Every request failed: no latency to judge, which fails.
        let all_failed = report(&[], 5);
        let checks = check(
            &all_failed,
            &[objective("p95>2s"), objective("verdict>=not_ready")],
            Strictness::Interval,
        );
        assert!(
            checks.iter().all(|c| c.finding == Finding::Missing),
            "{checks:?}"
        );
        assert!(
            checks[0].line().contains("no successful request"),
            "{}",
            checks[0].line()
        );
    }
}
