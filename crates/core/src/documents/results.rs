//! Export and import of results: the JSON document that keeps everything
//! (plan, environment, every sample) so a run can be re-analysed, compared
//! across days and places, and merged; and a CSV with one row per request
//! for spreadsheets. Columns and fields are documented in
//! `docs/statistics.md`.
//!
//! Keys are never part of either: the plan has no key field and the samples
//! carry none, so there is nothing to strip.
//!
//! Import validates once, at the boundary: a document that passes
//! [`import_json`] has finite, non-negative timings and target indexes that
//! exist in its plan, so the statistics never see NaN or a dangling index.

use serde::{Deserialize, Serialize};

use crate::base::document;
use crate::base::lang::Lang;
use crate::judgement::fidelity_score::{FidelityFigures, FidelityReason, FidelityVerdict};
use crate::judgement::report::{REPORT_SEED, build_report};
use crate::judgement::settings::{TIMEOUT_CONFIDENCE, TIMEOUT_MARGIN, TimeoutAdvice};
use crate::judgement::timeofday::{PeakZone, parse_peak_tz};
use crate::judgement::verdict::{Judgement, Verdict};
use crate::planning::fidelity::suite::Category;
use crate::planning::plan::Plan;
use crate::statistics::dependence::Resampling;
use crate::wire::ratelimit::{RateLimitHeaders, StatusCounts};
use crate::wire::sample::Sample;

mod csv;
mod import;
mod merge;

pub use csv::{CSV_COLUMNS, IDLE_GAP_COLUMN, PROMPT_SIZE_COLUMNS, export_csv};
pub use import::{ImportError, MAX_RESULTS_BYTES, import_json};
pub use merge::{MergeError, merge};

/// Results being viewed: a finished run, or imported files. The page's
/// results and the runner's HTML report draw from it.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultsView {
    /// The plan they came from.
    pub plan: Plan,
    /// Their environment.
    pub environment: Environment,
    /// Their samples.
    pub samples: std::rc::Rc<Vec<Sample>>,
}

/// The results document's version this build reads and writes.
pub const RESULTS_VERSION: u32 = 1;

/// Where and when a run happened, so results from different places and
/// days can be told apart.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Environment {
    /// The browser's `navigator.userAgent`.
    pub user_agent: String,
    /// IANA time zone name, e.g. `"Asia/Shanghai"`.
    pub time_zone: String,
    /// Minutes east of UTC when the run started (UTC+8 → 480).
    pub tz_offset_min: i32,
    /// Version of the page that measured.
    pub page_version: String,
    /// When the run started, Unix epoch ms.
    pub started_at_ms: f64,
    /// What measured: the page or the native runner. Files written before
    /// this member existed were the page's.
    #[serde(default)]
    pub runner: RunnerKind,
    /// Where the run was made, as the native runner's `--vantage` names it
    /// (`fra1`, `office`); `None` when not given (and always for the page).
    /// Imported files from different vantages are told apart by it.
    #[serde(default)]
    pub vantage: Option<String>,
    /// The plan's `peak_tz` as an offset at the run's start, minutes east
    /// of UTC, when the plan names a zone (`"Asia/Shanghai"`): resolved by
    /// the adapter that ran it, since core has no zone database. Left out
    /// when the plan names none (or an offset, which needs no resolving).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_tz_offset_min: Option<i32>,
    /// How far overruns moved the run's schedule later, in all, ms: a
    /// request still in flight when the next was due shifts the rest of
    /// the schedule instead of letting sends bunch up. `None` in files
    /// written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule_shift_ms: Option<f64>,
}

impl Environment {
    /// The offset (minutes east of UTC) in which `plan`'s peak hours and
    /// every hour-of-day figure are read: the plan's `peak_tz` when it is an
    /// offset, its resolved offset when it is a name, else the zone of the
    /// run itself. The page, `firsttoken report` and the dashboard all bin
    /// with it.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn peak_offset_min(&self, plan: &Plan) -> i32 {
        match plan.peak_tz.as_deref().and_then(parse_peak_tz) {
            Some(PeakZone::Offset(minutes)) => minutes,
            Some(PeakZone::Named(_)) => self.peak_tz_offset_min.unwrap_or(self.tz_offset_min),
            None => self.tz_offset_min,
        }
    }
}

/// Which adapter measured a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunnerKind {
    /// The page, in a browser.
    #[default]
    Page,
    /// The native runner, `firsttoken run`.
    Cli,
}

impl RunnerKind {
    /// The name used in exported documents.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Page => "page",
            Self::Cli => "cli",
        }
    }
}

/// TTFT statistics of one target, as stored in the document (ms; `cv_pct`
/// in percent).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TtftSummary {
    /// Successful measured samples.
    pub n: usize,
    /// Median, ms.
    pub median: f64,
    /// 95th percentile, ms.
    pub p95: f64,
    /// 99th percentile, ms.
    pub p99: f64,
    /// Mean, ms.
    pub mean: f64,
    /// Standard deviation (n − 1), ms.
    pub stddev: f64,
    /// CV, percent.
    pub cv_pct: f64,
    // The four interval members came after version 1 first shipped: a file
    // written before them lacks them, and reads as `None`.
    /// 95 % interval of the median, ms: `[low, high]` (order statistics
    /// for independent requests, batch means otherwise; files written before
    /// that used a bootstrap). `high` is `null` when unbounded.
    #[serde(default)]
    pub median_ci: Option<[Option<f64>; 2]>,
    /// 95 % interval of the p95, ms: `[low, high]`; `high` is `null` when
    /// the requests bound the p95 only from below (fewer than 72
    /// independent requests, or a timeout at the upper rank).
    #[serde(default)]
    pub p95_ci: Option<[Option<f64>; 2]>,
    /// How the bootstrap resampled: single requests or blocks.
    #[serde(default)]
    pub ci_method: Option<CiMethod>,
    /// Requests per block when `ci_method` is `block`.
    #[serde(default)]
    pub ci_block_length: Option<usize>,
    // The censoring members came later still; a file without them had
    // none censored (it was written when timeouts were left out).
    /// Requests ranked at the plan's timeout because no first token came
    /// within it (right-censored); they are in `n`.
    #[serde(default)]
    pub censored: usize,
    /// `mean`, `stddev` and `cv_pct` are lower bounds (some request was
    /// censored): read them as "≥".
    #[serde(default)]
    pub cv_is_lower_bound: bool,
    /// `median` reaches a censored rank: read it as "≥".
    #[serde(default)]
    pub median_is_lower_bound: bool,
    /// `p95` reaches a censored rank: read it as "≥".
    #[serde(default)]
    pub p95_is_lower_bound: bool,
    /// `p99` reaches a censored rank: read it as "≥".
    #[serde(default)]
    pub p99_is_lower_bound: bool,
    /// The requests slower than 3× the warm median, and the tail band they
    /// give the verdict; `None` in older files.
    #[serde(default)]
    pub slow: Option<SlowSummary>,
    /// p95 / median.
    #[serde(default)]
    pub p95_median_ratio: Option<f64>,
}

/// The slow requests of one target, as the summary stores them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlowSummary {
    /// Requests slower than this count as slow, ms (3× the warm median).
    pub threshold_ms: f64,
    /// Slow requests, timeouts included.
    pub count: usize,
    /// Ranked requests.
    pub of: usize,
    /// Exact (Clopper–Pearson) 95 % interval of the slow share, 0–1.
    pub share_ci: [f64; 2],
    /// The slow requests' median over the warm median.
    pub magnitude: Option<f64>,
    /// p95 of the requests at or under the threshold, ms.
    pub warm_p95: Option<f64>,
    /// The CV band these slow requests reach at their worst frequency so
    /// far; the verdict is never better than it.
    pub tail_band: Verdict,
}

/// How the bootstrap behind `median_ci` and `p95_ci` resampled (see
/// `docs/statistics.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CiMethod {
    /// Single requests, independently.
    Iid,
    /// Blocks of consecutive requests (moving-block bootstrap).
    Block,
}

/// Where a target's verdict stands in the summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VerdictStatus {
    /// Fewer than 20 successful samples: no verdict.
    Collecting,
    /// A verdict that may still change.
    Provisional,
    /// The plan's sample count (or 75) is reached.
    Final,
}

/// One target's line in the document's `summary`: a convenience for readers
/// of the file; import recomputes nothing from it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TargetSummary {
    /// Index of the target in the plan.
    pub target: u32,
    /// TTFT statistics; `None` when no measured request succeeded.
    pub ttft: Option<TtftSummary>,
    /// Failed measured requests (warm-ups not counted).
    pub errors: u32,
    /// Verdict from the CV; `None` before 20 successful samples.
    pub verdict: Option<Verdict>,
    /// Whether the verdict is there yet, provisional or final; `None` in a
    /// file written before the member existed.
    #[serde(default)]
    pub verdict_status: Option<VerdictStatus>,
    /// A first-token timeout with a measured basis, ms: the 95 % upper
    /// confidence bound of the p99 (p99.9 from 2 995 requests) × 1.5 (see
    /// `recommended_timeout`); `None` when the requests cannot bound it.
    #[serde(default)]
    pub recommended_timeout_ms: Option<f64>,
    /// The rule behind `recommended_timeout_ms`, and why there is none.
    #[serde(default)]
    pub recommended_timeout: Option<TimeoutSummary>,
    /// The share of requests within the plan's `ttft_budget_ms`; `None`
    /// without a budget.
    #[serde(default)]
    pub goodput: Option<GoodputSummary>,
    /// Status classes, first-try success and what the rate-limit headers
    /// said; `None` without a measured request, and in older files.
    #[serde(default)]
    pub status: Option<StatusSummary>,
    /// Gaps, stalls and buffering after the first token; `None` when no
    /// request carries them (older files).
    #[serde(default)]
    pub stream: Option<StreamSummary>,
    /// What the run cost at the target's `price`; `None` without a price.
    #[serde(default)]
    pub cost: Option<CostSummary>,
    /// The fidelity check's figures and verdict; left out when the plan
    /// has no check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fidelity: Option<FidelitySummary>,
}

/// One target's fidelity check, as the results file's summary carries it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FidelitySummary {
    /// `reference`, `consistent`, `differs`, `inconclusive` or `no_reference`.
    pub verdict: FidelityVerdict,
    /// Why, in order of weight.
    pub reasons: Vec<FidelityReason>,
    /// Probe replies that passed.
    pub passed: usize,
    /// Probe replies verified.
    pub replies: usize,
    /// Wilson 95 % interval of the pass rate, 0–1.
    pub pass_interval: [f64; 2],
    /// Per category: passed, replies.
    pub categories: Vec<CategorySummary>,
    /// Probe requests that failed (no reply).
    pub failed_requests: usize,
    /// Replies that called a function.
    pub tool_calls: usize,
    /// Of those, replies whose every call fit its schema.
    pub tool_calls_valid: usize,
    /// Tool-call trigger F1 (against the reference, else the suite).
    pub trigger_f1: Option<f64>,
    /// Probes whose `prompt_tokens` equal the reference's, of those compared.
    pub prompt_tokens_equal: Option<[usize; 2]>,
    /// Median `prompt_tokens` difference against the reference.
    pub prompt_tokens_median_difference: Option<i64>,
    /// Replies whose pass or fail differs from the reference's, of pairs compared.
    pub differing: Option<[usize; 2]>,
}

/// One category's pass count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CategorySummary {
    /// The category.
    pub category: Category,
    /// Replies that passed.
    pub passed: usize,
    /// Replies verified.
    pub replies: usize,
}

impl FidelitySummary {
    /// The summary of `figures`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn of(figures: &FidelityFigures) -> Self {
        Self {
            verdict: figures.verdict,
            reasons: figures.reasons.clone(),
            passed: figures.pass.passed,
            replies: figures.pass.replies,
            pass_interval: [figures.pass.low, figures.pass.high],
            categories: figures
                .categories
                .iter()
                .map(|(category, pass)| CategorySummary {
                    category: *category,
                    passed: pass.passed,
                    replies: pass.replies,
                })
                .collect(),
            failed_requests: figures.failed_requests,
            tool_calls: figures.tool_calls,
            tool_calls_valid: figures.tool_calls_valid,
            trigger_f1: figures.trigger.and_then(|t| t.f1),
            prompt_tokens_equal: figures.prompt_tokens.map(|t| [t.equal, t.compared]),
            prompt_tokens_median_difference: figures.prompt_tokens.map(|t| t.median_difference),
            differing: figures.differing.map(|(d, of)| [d, of]),
        }
    }
}

/// Status classes and rate limits of one target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatusSummary {
    /// Measured requests (warm-ups and stopped ones left out).
    pub requests: usize,
    /// Those requests by status class.
    pub counts: StatusCounts,
    /// Requests that succeeded on their only try (a measurement never
    /// retries).
    pub first_try_success: usize,
    /// Wilson 95 % interval of the first-try success share, 0–1.
    pub first_try_interval: [f64; 2],
    /// Wilson 95 % interval of the 429 share, 0–1.
    pub rate_limited_interval: [f64; 2],
    /// 429s whose `Retry-After` could be read.
    pub retry_after_count: usize,
    /// Median `Retry-After` of those, seconds.
    pub retry_after_median_s: Option<f64>,
    /// Longest `Retry-After`, seconds.
    pub retry_after_max_s: Option<f64>,
    /// 429s whose headers the client could not read (the page, when the
    /// provider exposes none to scripts).
    pub rate_limit_hidden: usize,
    /// The rate-limit headers of the last 429 that carried any.
    pub last_rate_limit: Option<RateLimitHeaders>,
    /// Of the requests without a status, those that never reached the
    /// provider (this client could not connect); left out when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unreached: usize,
}

/// For `skip_serializing_if`: a count of none.
#[cfg_attr(target_arch = "wasm32", inline)]
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The stream after the first token, for one target.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StreamSummary {
    /// Measured requests with a stream summary.
    pub requests: usize,
    /// Those with a gap over 2 s.
    pub stalled: usize,
    /// Wilson 95 % interval of the stall rate, 0–1.
    pub stall_interval: [f64; 2],
    /// Median of the per-request p95 gap, ms.
    pub gap_p95_median_ms: Option<f64>,
    /// p95 of the per-request p95 gap, ms.
    pub gap_p95_p95_ms: Option<f64>,
    /// The longest gap, ms.
    pub max_gap_ms: Option<f64>,
    /// Replies that came all at once.
    pub buffered: usize,
}

/// What one target cost, US dollars.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CostSummary {
    /// The whole run, warm-ups included.
    pub run_usd: f64,
    /// Measured requests' cost / measured successes.
    pub per_success_usd: Option<f64>,
    /// Requests the provider answered with a 2xx (charged).
    pub charged: usize,
    /// Measured successes.
    pub successes: usize,
    /// Some token count was estimated rather than the provider's.
    pub estimated: bool,
}

/// How `recommended_timeout_ms` was found, or why it could not be.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimeoutSummary {
    /// `"upper_bound_of_quantile_times_margin"`, `"quantile_reaches_timeouts"`
    /// or `"too_few_requests"`.
    pub rule: String,
    /// The quantile bounded (0.99 or 0.999).
    pub quantile: Option<f64>,
    /// Confidence of its upper bound (0.95).
    pub confidence: f64,
    /// The margin the bound is multiplied by (1.5).
    pub margin: f64,
    /// The bound itself, ms.
    pub bound_ms: Option<f64>,
    /// This run's ranked requests slower than the recommendation.
    pub would_cut: Option<usize>,
    /// Requests a bound on the p99 needs, when there were too few.
    pub requests_needed: Option<usize>,
    /// With too few requests for the p99: the highest quantile they do
    /// bound (0.95 from 59 requests, 0.9 from 29) and its bound; absent
    /// otherwise, and from files written before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower_quantile: Option<LowerQuantileSummary>,
}

/// What requests too few for the p99's bound support
/// ([`crate::judgement::settings::LowerBound`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LowerQuantileSummary {
    /// The quantile bounded: 0.95 or 0.9.
    pub quantile: f64,
    /// Its 95 % upper confidence bound, ms; `null` when it is a timeout.
    pub bound_ms: Option<f64>,
    /// The bound's exact coverage, at least `confidence`.
    pub coverage: f64,
    /// The bound × `margin`, ms; `null` with no bound.
    pub timeout_ms: Option<f64>,
    /// This run's ranked requests slower than `timeout_ms`.
    pub would_cut: usize,
}

/// Goodput at the plan's TTFT budget.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoodputSummary {
    /// The budget, ms.
    pub budget_ms: f64,
    /// Successful requests with a first token within it.
    pub within: usize,
    /// Measured requests (stopped ones left out).
    pub of: usize,
    /// Wilson 95 % interval of the share, 0–1.
    pub interval: [f64; 2],
}

/// How a vantage is shown in `lang`: its name, or "(none)" (“（未注明）”)
/// for files that named none.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn vantage_name(lang: Lang, name: &str) -> &str {
    if name.is_empty() {
        lang.dashboard_texts().no_vantage
    } else {
        name
    }
}

/// The results document, `firsttoken_results` version 1.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultsDoc {
    /// Document version, [`RESULTS_VERSION`].
    pub firsttoken_results: u32,
    /// The plan that was run.
    pub plan: Plan,
    /// Where and when.
    pub environment: Environment,
    /// Every request, warm-ups and errors included.
    pub samples: Vec<Sample>,
    /// Per-target summary, written for people reading the file and never
    /// read back: import recomputes every figure from the samples, so a
    /// summary missing, `null`, stale or of another shape changes nothing
    /// a file says. Empty after import. (Its reader was 53 kB of the page's
    /// code before wasm-opt for a member nothing used; docs/size.md.)
    #[serde(default, skip_deserializing)]
    pub summary: Vec<TargetSummary>,
}

/// The per-target summary lines for `samples` of `plan`: the same figures,
/// intervals (seeded with [`REPORT_SEED`]) and verdicts as the results view
/// shows. The page's export and the command line's `report --json` both
/// write these.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn summary_rows(plan: &Plan, samples: &[Sample]) -> Vec<TargetSummary> {
    // The time zone only moves the hour-of-day figures, which the summary
    // does not carry.
    let report = build_report(plan, samples, 0, REPORT_SEED);
    report
        .targets
        .iter()
        .map(|target| {
            let pair = |i: &crate::statistics::bootstrap::Interval| i.pair();
            let ttft = target.ttft.map(|s| TtftSummary {
                n: s.n,
                median: s.median,
                p95: s.p95,
                p99: s.p99,
                mean: s.mean,
                stddev: s.stddev,
                cv_pct: s.cv_pct,
                median_ci: target.intervals.map(|i| pair(&i.median_ms)),
                p95_ci: target.intervals.map(|i| pair(&i.p95_ms)),
                ci_method: target.intervals.map(|i| match i.method {
                    Resampling::Iid => CiMethod::Iid,
                    Resampling::Block { .. } => CiMethod::Block,
                }),
                ci_block_length: target.intervals.and_then(|i| match i.method {
                    Resampling::Iid => None,
                    Resampling::Block { length } => Some(length),
                }),
                censored: target.censored,
                cv_is_lower_bound: target.moments_are_lower_bounds(),
                median_is_lower_bound: target.percentile_is_lower_bound(50.0),
                p95_is_lower_bound: target.percentile_is_lower_bound(95.0),
                p99_is_lower_bound: target.percentile_is_lower_bound(99.0),
                slow: target.slow.map(|slow| SlowSummary {
                    threshold_ms: slow.threshold_ms,
                    count: slow.slow,
                    of: slow.of,
                    share_ci: [slow.share_ci.0, slow.share_ci.1],
                    magnitude: slow.magnitude,
                    warm_p95: slow.warm_p95_ms,
                    tail_band: target.tail_band,
                }),
                p95_median_ratio: target.p95_median_ratio,
            });
            TargetSummary {
                target: target.target,
                ttft,
                errors: u32::try_from(target.errors).unwrap_or(u32::MAX),
                verdict: target.judgement.verdict(),
                recommended_timeout_ms: match target.recommended_timeout {
                    Some(TimeoutAdvice::Recommended { timeout_ms, .. }) => Some(timeout_ms),
                    _ => None,
                },
                recommended_timeout: target.recommended_timeout.map(timeout_summary),
                goodput: target.goodput.map(|g| GoodputSummary {
                    budget_ms: g.budget_ms,
                    within: g.within,
                    of: g.of,
                    interval: [g.interval.0, g.interval.1],
                }),
                status: target.status.as_ref().map(|s| StatusSummary {
                    requests: s.requests,
                    counts: s.counts,
                    first_try_success: s.first_try_success,
                    first_try_interval: [s.first_try_interval.0, s.first_try_interval.1],
                    rate_limited_interval: [s.rate_limited_interval.0, s.rate_limited_interval.1],
                    retry_after_count: s.retry_after_count,
                    retry_after_median_s: s.retry_after_median_s,
                    retry_after_max_s: s.retry_after_max_s,
                    rate_limit_hidden: s.rate_limit_hidden,
                    last_rate_limit: s.last_rate_limit.clone(),
                    unreached: s.unreached,
                }),
                stream: target.stream.map(|s| StreamSummary {
                    requests: s.requests,
                    stalled: s.stalled,
                    stall_interval: [s.stall_interval.0, s.stall_interval.1],
                    gap_p95_median_ms: s.gap_p95_median_ms,
                    gap_p95_p95_ms: s.gap_p95_p95_ms,
                    max_gap_ms: s.max_gap_ms,
                    buffered: s.buffered,
                }),
                cost: target.cost.map(|c| CostSummary {
                    run_usd: c.run_usd,
                    per_success_usd: c.per_success_usd,
                    charged: c.charged,
                    successes: c.successes,
                    estimated: c.estimated,
                }),
                fidelity: report
                    .fidelity
                    .as_ref()
                    .and_then(|f| f.targets.get(target.target as usize))
                    .map(FidelitySummary::of),
                verdict_status: Some(match target.judgement {
                    Judgement::Collecting { .. } => VerdictStatus::Collecting,
                    Judgement::Provisional(_) => VerdictStatus::Provisional,
                    Judgement::Final(_) => VerdictStatus::Final,
                }),
            }
        })
        .collect()
}

/// The summary of a timeout advice, its rule named.
#[cfg_attr(target_arch = "wasm32", inline)]
fn timeout_summary(advice: TimeoutAdvice) -> TimeoutSummary {
    let base = TimeoutSummary {
        rule: String::new(),
        quantile: None,
        confidence: TIMEOUT_CONFIDENCE,
        margin: TIMEOUT_MARGIN,
        bound_ms: None,
        would_cut: None,
        requests_needed: None,
        lower_quantile: None,
    };
    match advice {
        TimeoutAdvice::Recommended {
            quantile,
            bound_ms,
            would_cut,
            ..
        } => TimeoutSummary {
            rule: "upper_bound_of_quantile_times_margin".to_owned(),
            quantile: Some(quantile),
            bound_ms: Some(bound_ms),
            would_cut: Some(would_cut),
            ..base
        },
        TimeoutAdvice::AtLeastPlanTimeout { quantile, .. } => TimeoutSummary {
            rule: "quantile_reaches_timeouts".to_owned(),
            quantile: Some(quantile),
            ..base
        },
        TimeoutAdvice::NeedsRequests { needed, lower, .. } => TimeoutSummary {
            rule: "too_few_requests".to_owned(),
            requests_needed: Some(needed),
            lower_quantile: lower.map(|lower| LowerQuantileSummary {
                quantile: lower.quantile,
                bound_ms: lower.bound_ms,
                coverage: lower.coverage,
                timeout_ms: lower.timeout_ms,
                would_cut: lower.would_cut,
            }),
            ..base
        },
    }
}

/// The summary lines as pretty-printed JSON (an array of the rows that the
/// results file's `summary` holds), for scripts and the command line.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn summary_json(plan: &Plan, samples: &[Sample]) -> String {
    document::to_string_pretty(&summary_rows(plan, samples))
}

/// The results document as pretty-printed JSON, summary included.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn export_json(plan: &Plan, environment: &Environment, samples: &[Sample]) -> String {
    let doc = ResultsDoc {
        firsttoken_results: RESULTS_VERSION,
        plan: plan.clone(),
        environment: environment.clone(),
        samples: samples.to_vec(),
        summary: summary_rows(plan, samples),
    };
    to_json(&doc)
}

/// Writes a document, indented. A non-finite number is written as `null`
/// (and refused on import).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn to_json(doc: &ResultsDoc) -> String {
    document::to_string_pretty(doc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planning::plan::Target;
    use crate::wire::sample::{ConnectionPhases, ErrorKind, Phase, SampleError};
    use proptest::prelude::*;

    fn plan() -> Plan {
        Plan {
            targets: vec![
                Target::openai(
                    "DO, \"fast\"",
                    "https://inference.do-ai.run/v1",
                    "deepseek-v3",
                ),
                Target::openai(
                    "Together",
                    "https://api.together.xyz/v1",
                    "deepseek-ai/DeepSeek-V3",
                ),
            ],
            ..Plan::default()
        }
    }

    fn sample(target: u32, seq: u32, ttft_ms: f64) -> Sample {
        Sample {
            sent_at_ms: 1_717_200_000_003.25 + f64::from(seq) * 5000.0,
            ..Sample::measured(target, seq, ttft_ms)
        }
    }

    fn failed(target: u32, seq: u32, message: &str) -> Sample {
        Sample {
            ttft_ms: None,
            second_token_ms: None,
            total_ms: None,
            first_byte_ms: None,
            output_tokens: None,
            error: Some(SampleError {
                kind: ErrorKind::HttpStatus,
                phase: Phase::Request,
                message: message.to_owned(),
            }),
            ..sample(target, seq, 0.0)
        }
    }

    fn environment() -> Environment {
        Environment {
            user_agent: "Mozilla/5.0".to_owned(),
            time_zone: "Asia/Shanghai".to_owned(),
            tz_offset_min: 480,
            page_version: "0.1.0".to_owned(),
            started_at_ms: 1_717_200_000_000.0,
            runner: RunnerKind::Page,
            vantage: None,
            peak_tz_offset_min: None,
            schedule_shift_ms: None,
        }
    }

    #[test]
    fn export_has_the_version_1_names() {
        let samples = vec![
            sample(0, 0, 400.0),
            sample(0, 1, 600.0),
            failed(1, 0, "429 too many requests"),
        ];
        let json: serde_json::Value =
            serde_json::from_str(&export_json(&plan(), &environment(), &samples)).unwrap();
        assert_eq!(json["firsttoken_results"], 1);
        assert_eq!(json["plan"]["firsttoken_plan"], 1);
        for field in [
            "user_agent",
            "time_zone",
            "tz_offset_min",
            "page_version",
            "started_at_ms",
            "runner",
            "vantage",
        ] {
            assert!(
                json["environment"].get(field).is_some(),
                "environment.{field}"
            );
        }
        assert_eq!(json["environment"]["runner"], "page");
        assert_eq!(json["environment"]["vantage"], serde_json::Value::Null);
        assert_eq!(json["samples"][0]["connection"], serde_json::Value::Null);
        assert_eq!(json["samples"].as_array().map(Vec::len), Some(3));
        let summary = &json["summary"];
        assert_eq!(summary[0]["target"], 0);
        assert_eq!(summary[0]["ttft"]["n"], 2);
        assert_eq!(summary[0]["ttft"]["median"], 500.0);
        assert_eq!(summary[0]["errors"], 0);
        // Two samples: no verdict yet.
        assert_eq!(summary[0]["verdict"], serde_json::Value::Null);
        assert_eq!(summary[0]["verdict_status"], "collecting");
        for field in ["p95", "p99", "mean", "stddev", "cv_pct"] {
            assert!(summary[0]["ttft"][field].is_number(), "ttft.{field}");
        }
        for field in ["median_ci", "p95_ci"] {
            let pair = summary[0]["ttft"][field].as_array().unwrap();
            assert_eq!(pair.len(), 2, "ttft.{field}");
            assert!(pair[0].is_number());
            // Two requests bound neither quantile from above: `null`.
            assert_eq!(pair[1], serde_json::Value::Null, "ttft.{field}");
        }
        assert_eq!(summary[0]["ttft"]["ci_method"], "iid");
        assert_eq!(
            summary[0]["ttft"]["ci_block_length"],
            serde_json::Value::Null
        );
        assert_eq!(summary[1]["ttft"], serde_json::Value::Null);
        assert_eq!(summary[1]["errors"], 1);
        assert!(
            !export_json(&plan(), &environment(), &samples)
                .to_lowercase()
                .contains("key")
        );
    }

    #[test]
    fn the_summary_carries_the_report_s_intervals_method_and_verdict() {
        use crate::judgement::report::{REPORT_SEED, build_report};
        use crate::testing::fixtures::synthetic_samples;
        // Two targets' requests 5 s apart, 402 each: 67 minutes, so their
        // intervals come from blocks.
        let plan = plan();
        let samples = synthetic_samples(2, 400, 2, 4);
        let rows = summary_rows(&plan, &samples);
        let report = build_report(&plan, &samples, 0, REPORT_SEED);
        for (row, target) in rows.iter().zip(&report.targets) {
            let ttft = row.ttft.unwrap();
            let intervals = target.intervals.unwrap();
            assert_eq!(ttft.median_ci, Some(intervals.median_ms.pair()));
            assert_eq!(ttft.p95_ci, Some(intervals.p95_ms.pair()));
            assert_eq!(ttft.ci_method, Some(CiMethod::Block));
            assert!(ttft.ci_block_length.is_some_and(|b| b >= 4));
            assert_eq!(row.verdict, target.verdict);
            assert_eq!(row.verdict_status, Some(VerdictStatus::Final));
        }
        let printed: serde_json::Value =
            serde_json::from_str(&summary_json(&plan, &samples)).unwrap();
        assert_eq!(printed[0]["ttft"]["ci_method"], "block");
        assert_eq!(printed[1]["verdict_status"], "final");
        // A file's summary is never read back: a file written before these
        // fields existed re-exports with them, recomputed from its samples.
        let mut older: serde_json::Value =
            serde_json::from_str(&export_json(&plan, &environment(), &samples)).unwrap();
        for row in older["summary"].as_array_mut().unwrap() {
            let ttft = row["ttft"].as_object_mut().unwrap();
            for field in ["median_ci", "p95_ci", "ci_method", "ci_block_length"] {
                ttft.remove(field);
            }
            row.as_object_mut().unwrap().remove("verdict_status");
        }
        let doc = import_json(&older.to_string()).unwrap();
        assert!(doc.summary.is_empty());
        let again: serde_json::Value =
            serde_json::from_str(&export_json(&doc.plan, &doc.environment, &doc.samples)).unwrap();
        assert_eq!(again["summary"][0]["ttft"]["ci_method"], "block");
        assert_eq!(again["summary"], serde_json::to_value(&rows).unwrap());
    }

    #[test]
    fn import_refuses_bad_documents_naming_the_field() {
        let good = export_json(&plan(), &environment(), &[sample(1, 0, 400.0)]);
        assert!(import_json(&good).is_ok());
        let refuse = |text: &str| import_json(text).unwrap_err().to_string();
        assert!(refuse("{not json").starts_with("the file is not valid json"));
        assert!(refuse(r#"{"firsttoken_plan": 1}"#).contains("no firsttoken_results field"));
        assert!(refuse(r#"{"firsttoken_results": 2}"#).contains("version 2 is not supported"));
        assert!(
            refuse(r#"{"firsttoken_results": "1"}"#).contains("version \"1\" is not supported")
        );
        assert!(refuse(r#"{"firsttoken_results": 1}"#).contains("missing field `plan`"));
        let edit = |from: &str, to: &str| {
            assert!(good.contains(from), "{from}");
            refuse(&good.replacen(from, to, 1))
        };
        assert_eq!(
            edit("\"ttft_ms\": 400.0", "\"ttft_ms\": -400.0"),
            "samples[0].ttft_ms is negative (-400)"
        );
        assert_eq!(
            edit("\"target\": 1,\n", "\"target\": 7,\n"),
            "samples[0].target is 7 but the plan has only 2 targets"
        );
        assert!(
            edit("\"ttft_ms\": 400.0", "\"ttft_ms\": 1e999")
                .starts_with("the file is not valid json")
        );
        assert!(
            edit("\"total_ms\": 900.0", "\"total_ms\": \"fast\"")
                .contains("does not match version 1")
        );
    }

    #[test]
    fn connection_phases_and_the_runner_are_read_back_checked_and_in_the_csv() {
        let mut opened = sample(0, 0, 400.0);
        opened.connection = Some(ConnectionPhases {
            dns_ms: Some(1.5),
            connect_ms: 0.25,
            tls_ms: Some(12.75),
        });
        let mut literal_ip = sample(0, 1, 410.0);
        literal_ip.connection = Some(ConnectionPhases {
            dns_ms: None,
            connect_ms: 0.5,
            tls_ms: None,
        });
        let reused = sample(0, 2, 420.0);
        let samples = [opened, literal_ip, reused];
        let native = Environment {
            runner: RunnerKind::Cli,
            vantage: Some("fra1".to_owned()),
            peak_tz_offset_min: None,
            schedule_shift_ms: None,
            ..environment()
        };
        let text = export_json(&plan(), &native, &samples);
        assert!(text.contains("\"runner\": \"cli\",\n    \"vantage\": \"fra1\""));
        let doc = import_json(&text).unwrap();
        assert_eq!(doc.environment, native);
        assert_eq!(doc.samples, samples);

        // A page file written before these members existed.
        let older = export_json(&plan(), &environment(), &samples[2..])
            .replace(",\n    \"runner\": \"page\",\n    \"vantage\": null", "")
            .replace(",\n      \"connection\": null", "");
        assert!(!older.contains("runner") && !older.contains("connection"));
        let doc = import_json(&older).unwrap();
        assert_eq!(doc.environment.runner, RunnerKind::Page);
        assert_eq!(doc.environment.vantage, None);
        assert_eq!(doc.samples[0].connection, None);

        assert_eq!(
            import_json(&text.replacen("\"connect_ms\": 0.25", "\"connect_ms\": -0.25", 1))
                .unwrap_err()
                .to_string(),
            "samples[0].connection.connect_ms is negative (-0.25)"
        );

        let csv = export_csv(&plan(), &samples);
        let rows: Vec<Vec<&str>> = csv
            .lines()
            .map(|line| line.rsplitn(13, ',').skip(9).collect::<Vec<_>>())
            .collect();
        assert_eq!(rows[0][..3], ["tls_ms", "connect_ms", "dns_ms"]);
        assert_eq!(rows[1][..3], ["12.75", "0.25", "1.5"]);
        assert_eq!(rows[2][..3], ["", "0.5", ""]);
        assert_eq!(rows[3][..3], ["", "", ""]);
    }

    #[test]
    fn targets_from_different_vantages_are_told_apart() {
        let from = |vantage: Option<&str>, ttft_ms: f64| {
            let environment = Environment {
                runner: RunnerKind::Cli,
                vantage: vantage.map(str::to_owned),
                peak_tz_offset_min: None,
                schedule_shift_ms: None,
                ..environment()
            };
            import_json(&export_json(
                &plan(),
                &environment,
                &[sample(0, 0, ttft_ms), sample(1, 0, ttft_ms + 1.0)],
            ))
            .unwrap()
        };
        let fra1 = from(Some("fra1"), 400.0);
        let sgp1 = from(Some("sgp1"), 600.0);
        let fra1_again = from(Some("fra1"), 410.0);

        // One vantage: the same targets, labels as they were.
        let same = merge(&[fra1.clone(), fra1_again.clone()]).unwrap();
        assert_eq!(same.plan.targets, plan().targets);
        assert_eq!(same.environment.vantage.as_deref(), Some("fra1"));

        let merged = merge(&[fra1, sgp1, fra1_again, from(None, 500.0)]).unwrap();
        let labels: Vec<&str> = merged
            .plan
            .targets
            .iter()
            .map(|t| t.label.as_str())
            .collect();
        let [a, b] = [&plan().targets[0].label, &plan().targets[1].label];
        assert_eq!(
            labels,
            [
                format!("{a} · fra1"),
                format!("{b} · fra1"),
                format!("{a} · sgp1"),
                format!("{b} · sgp1"),
                format!("{a} · (none)"),
                format!("{b} · (none)"),
            ]
        );
        assert_eq!(merged.environment.vantage, None);
        // Each vantage keeps its own samples: fra1's two runs together.
        let ttft_of = |target: u32| -> Vec<f64> {
            merged
                .samples
                .iter()
                .filter(|s| s.target == target)
                .filter_map(|s| s.ttft_ms)
                .collect()
        };
        assert_eq!(ttft_of(0), [400.0, 410.0]);
        assert_eq!(ttft_of(2), [600.0]);
        assert_eq!(ttft_of(4), [500.0]);
        assert_eq!(merged.summary.len(), 6);
    }

    #[test]
    fn a_merge_keeps_the_fidelity_check_of_any_member() {
        use crate::planning::plan::FidelityPlan;
        let latency = import_json(&export_json(
            &plan(),
            &environment(),
            &[sample(0, 0, 400.0)],
        ))
        .unwrap();
        let mut checked_plan = plan();
        checked_plan.fidelity = Some(FidelityPlan::basic(None));
        let checked = import_json(&export_json(
            &checked_plan,
            &environment(),
            &[sample(0, 0, 410.0)],
        ))
        .unwrap();
        let merged = merge(&[latency, checked]).unwrap();
        assert_eq!(merged.plan.fidelity, Some(FidelityPlan::basic(None)));
    }

    #[test]
    fn merge_two_days_by_target_identity() {
        let day_one = import_json(&export_json(
            &plan(),
            &environment(),
            &[
                sample(0, 0, 400.0),
                sample(1, 0, 700.0),
                sample(0, 1, 410.0),
            ],
        ))
        .unwrap();
        // Day two lists the targets the other way round, plus a new one.
        let mut plan_two = plan();
        plan_two.targets.reverse();
        plan_two.targets.push(Target::openai(
            "Fireworks",
            "https://api.fireworks.ai/inference/v1",
            "deepseek-v3",
        ));
        let environment_two = Environment {
            started_at_ms: 1_717_000_000_000.0,
            ..environment()
        };
        let day_two = import_json(&export_json(
            &plan_two,
            &environment_two,
            &[
                sample(0, 0, 800.0),
                sample(1, 0, 420.0),
                sample(2, 0, 300.0),
            ],
        ))
        .unwrap();

        let merged = merge(&[day_one, day_two]).unwrap();
        assert_eq!(merged.plan.targets.len(), 3);
        assert_eq!(merged.plan.targets[2].label, "Fireworks");
        assert_eq!(merged.environment.started_at_ms, 1_717_000_000_000.0);
        let placed: Vec<(u32, u32, Option<f64>)> = merged
            .samples
            .iter()
            .map(|s| (s.target, s.seq, s.ttft_ms))
            .collect();
        assert_eq!(
            placed,
            vec![
                (0, 0, Some(400.0)),
                (1, 0, Some(700.0)),
                (0, 1, Some(410.0)),
                (1, 1, Some(800.0)),
                (0, 2, Some(420.0)),
                (2, 0, Some(300.0))
            ]
        );
        assert_eq!(
            merged
                .summary
                .iter()
                .map(|s| s.ttft.map(|t| t.n))
                .collect::<Vec<_>>(),
            vec![Some(3), Some(2), Some(1)]
        );

        assert_eq!(merge(&[]), Err(MergeError::Empty));
        let mut reasoning = merged.clone();
        reasoning.plan.reasoning_counts_as_first_token = true;
        assert!(
            merge(&[merged, reasoning])
                .unwrap_err()
                .to_string()
                .contains("reasoning_counts_as_first_token")
        );
    }

    #[test]
    fn csv_rows_and_quoting() {
        let mut cached = sample(0, 0, 400.0);
        cached.cached_tokens = Some(1024);
        let samples = vec![
            cached,
            failed(1, 1, "rate limited, \"slow down\"\nretry later"),
        ];
        let csv = export_csv(&plan(), &samples);
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(lines[0], CSV_COLUMNS.join(","));
        assert_eq!(
            lines[1],
            "0,\"DO, \"\"fast\"\"\",deepseek-v3,https://inference.do-ai.run/v1,0,false,1717200000000,1717200000003.25,false,\
             240,360,,400,420,900,11,false,20,,,,openai,,,,,1024,,,,,,,,"
        );
        assert!(lines[2].starts_with("1,Together,deepseek-ai/DeepSeek-V3,"));
        assert!(lines[2].contains(
            ",http_status,request,\"rate limited, \"\"slow down\"\"\nretry later\",openai,,"
        ));
        assert!(
            lines[2].ends_with(",openai,,,,,,,,,,,,,"),
            "no cache figure, no connection, no status or stream: empty"
        );
        assert_eq!(csv.matches("\r\n").count(), 3);
    }

    #[test]
    fn csv_text_cells_never_start_a_formula() {
        let mut hostile = plan();
        hostile.targets[0].label = "=HYPERLINK(\"http://evil.example\",\"x\")".to_owned();
        hostile.targets[1].label = "@SUM(A1)".to_owned();
        let mut negative = sample(0, 0, 400.0);
        negative.headers_ms = Some(-0.0);
        let samples = vec![
            negative,
            failed(1, 1, "-2+3 from the provider"),
            failed(1, 2, "\tcmd"),
        ];
        let csv = export_csv(&hostile, &samples);
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert!(
            lines[1].starts_with("0,\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\","),
            "{}",
            lines[1]
        );
        assert!(lines[2].starts_with("1,'@SUM(A1),"), "{}", lines[2]);
        assert!(
            lines[2].contains(",'-2+3 from the provider,"),
            "{}",
            lines[2]
        );
        assert!(lines[3].contains(",'\tcmd,"), "{}", lines[3]);
        // A number is not a text cell: `-0` stays a number.
        assert!(lines[1].contains(",-0,"), "{}", lines[1]);
    }

    fn timing() -> impl Strategy<Value = Option<f64>> {
        prop::option::of(prop_oneof![
            0.0f64..200_000.0,
            (0u64..1 << 52).prop_map(|bits| f64::from_bits(bits | (1023 << 52)) * 37.0)
        ])
    }

    proptest! {
        #[test]
        fn export_import_round_trips_every_sample_bit_exact(
            raw in prop::collection::vec((0u32..2, 0u32..500, any::<bool>(), 0.0f64..2.0e12, timing(), timing(), timing(), prop::option::of(0u32..5000)), 0..40)
        ) {
            let samples: Vec<Sample> = raw
                .into_iter()
                .map(|(target, seq, warmup, sent_at_ms, headers, ttft, total, tokens)| Sample {
                    warmup,
                    planned_at_ms: sent_at_ms / 3.0,
                    sent_at_ms,
                    hidden: warmup,
                    headers_ms: headers,
                    first_byte_ms: ttft.map(|v| v / 7.0),
                    first_reasoning_ms: headers.map(|v| v * 1.1),
                    ttft_ms: ttft,
                    second_token_ms: ttft.map(|v| v + 0.1),
                    total_ms: total,
                    output_tokens: tokens,
                    tokens_estimated: !warmup,
                    cached_tokens: tokens.filter(|t| t % 3 == 0).map(|t| t / 3),
                    ..Sample::measured(target, seq, 0.0)
                })
                .collect();
            let doc = import_json(&export_json(&plan(), &environment(), &samples)).unwrap();
            prop_assert_eq!(doc.samples.len(), samples.len());
            for (back, original) in doc.samples.iter().zip(&samples) {
                prop_assert_eq!(back, original);
                prop_assert_eq!(back.sent_at_ms.to_bits(), original.sent_at_ms.to_bits());
                prop_assert_eq!(back.ttft_ms.map(f64::to_bits), original.ttft_ms.map(f64::to_bits));
                prop_assert_eq!(back.first_byte_ms.map(f64::to_bits), original.first_byte_ms.map(f64::to_bits));
            }
            prop_assert_eq!(doc.plan, plan());
        }
    }
}
