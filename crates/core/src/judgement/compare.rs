//! The same model across providers: ranked rows, how much more consistent
//! the best is than the worst, the provider to use and why — the decision
//! the whole run exists for.
//!
//! # Grouping
//!
//! Targets are grouped by [`model_key`]: the model name trimmed, lowercased,
//! and cut after its last `/`, so `deepseek-ai/DeepSeek-V3` (Together),
//! `accounts/fireworks/models/deepseek-v3` (Fireworks) and `deepseek-v3`
//! group as one model. Nothing else is rewritten: `deepseek-v3` and
//! `deepseek-v3.1` stay apart, because guessing that two spellings are the
//! same weights would be worse than showing two tables.
//!
//! # The rule for the best provider
//!
//! Among targets whose error rate is under [`ERROR_RATE_THRESHOLD`] and
//! with enough requests for a verdict: the smallest share of **slow**
//! requests — each target's own, by the rule its own row uses
//! ([`crate::judgement::slow::slow_share`]: over [`SLOW_MULTIPLE`](crate::judgement::slow::SLOW_MULTIPLE) ×
//! its own warm reference), or over the plan's TTFT budget when it sets
//! one, every timeout and every failure before the first token counted
//! slow — then the lowest p95, then the lowest median, both over every
//! request with timeouts and failures at the timeout. A point p95 of 75
//! requests rests on the four slowest, so one provider with 5 % cold
//! starts beat a clean but slightly slower one in 44 % of simulated runs;
//! the slow share counts every cold start. Errors first because a fast
//! provider that fails one request in ten is not fast. [`rule_text`] says
//! this rule in words, made from the same facts the ranking uses.
//!
//! # At the typical prompt size
//!
//! When the plan names `typical_prompt_tokens` and the run measured prompt
//! sizes, each target carries its reading there ([`TypicalTtft`]: the
//! median of every request of the sizes around it, read between them, the
//! nearest size's outside them). It ranks right after the slow share:
//! a target that goes cold is not the pick for being fast at a size, and
//! between targets that do not, the short default prompt is not what the
//! user will send. Two targets with slow shares alike and a reading each
//! are told apart by the readings' intervals alone.
//!
//! Every key is monotone: no request made worse improves it (see
//! `by_rule`), so no such request can make its target the pick.
//!
//! # Ties
//!
//! The best is **distinguishable** from another eligible target when
//! their slow shares differ by Fisher's exact test (two-sided, p < 0.05),
//! or their p95 intervals or their median intervals (distribution-free,
//! see [`crate::statistics::quantile`]) do not overlap. Otherwise
//! the two cannot be told apart with these requests, and the route says so
//! (`indistinguishable_from_best`).

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

use crate::judgement::fidelity_score::FidelityVerdict;
pub use crate::judgement::routing_words::TypicalTtft;
use crate::judgement::routing_words::{Pick, no_route_reason, pick_reason, rule_text};
use crate::judgement::slow::slow_share;
use crate::judgement::verdict::{
    ERROR_RATE_THRESHOLD, Judgement, Lang, VERDICT_MIN_SAMPLES, Verdict,
};
use crate::statistics::binomial::fisher_exact;
use crate::statistics::bootstrap::Interval;
use crate::statistics::stats::percentile;

/// Version of the routing JSON document this build writes.
pub const ROUTING_VERSION: u32 = 1;

/// The grouping key of a model name: trimmed, lowercased, and without any
/// provider or organisation prefix (everything up to the last `/`).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn model_key(model: &str) -> String {
    let trimmed = model.trim();
    let base = trimmed.rsplit('/').next().unwrap_or(trimmed);
    base.to_lowercase()
}

/// One target's figures, as the comparison needs them.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetFigures {
    /// Index of the target in the plan.
    pub target: u32,
    /// The target's label.
    pub label: String,
    /// The model name as the provider spells it.
    pub model: String,
    /// Successful measured samples.
    pub n: usize,
    /// Median TTFT, ms.
    pub median_ms: f64,
    /// p95 TTFT, ms.
    pub p95_ms: f64,
    /// CV of TTFT, percent.
    pub cv_pct: f64,
    /// Errors / measured requests, 0–1.
    pub error_rate: f64,
    /// Verdict from the CV, once there are enough samples for one.
    pub judgement: Judgement,
    /// The ranked TTFTs (ms, ascending; timeouts and failures before the
    /// first token at the plan's timeout), for the slow share and the
    /// ranking's quantiles; empty when not known, which ranks by the
    /// shown p95 and median alone.
    pub ttft_sorted_ms: Vec<f64>,
    /// How many of `ttft_sorted_ms` are timeouts or failures (the top
    /// ranks): each is slow whatever the threshold.
    pub censored: usize,
    /// The p95's 95 % interval, for telling targets apart.
    pub p95_interval: Option<Interval>,
    /// The median's 95 % interval, likewise (bounded from 8 requests on,
    /// where a p95 needs 72).
    pub median_interval: Option<Interval>,
    /// The TTFT predicted at the plan's typical prompt size, when the plan
    /// names one and the target has a prefill fit: then it ranks first.
    pub typical: Option<TypicalTtft>,
}

impl TargetFigures {
    /// The `p`-th percentile (0–100) of every ranked request, failures
    /// before the first token at the timeout: what the ranking compares
    /// (the row shows the answered requests' own); the shown p95 or
    /// median when no ranks were given.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn decision_quantile(&self, p: f64) -> f64 {
        percentile(&self.ttft_sorted_ms, p).unwrap_or(if p >= 95.0 {
            self.p95_ms
        } else {
            self.median_ms
        })
    }

    /// Enough samples for a verdict and an error rate under the threshold:
    /// may be recommended. A target still collecting is ranked but never
    /// named the best, since the page gives it no verdict yet.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn eligible(&self) -> bool {
        self.n >= VERDICT_MIN_SAMPLES && self.error_rate < ERROR_RATE_THRESHOLD
    }
}

/// One row of a model's ranked table.
#[derive(Clone, Debug, PartialEq)]
pub struct ComparisonRow {
    /// 1 for the best.
    pub rank: usize,
    /// The target's figures.
    pub figures: TargetFigures,
    /// Error rate under the threshold, so it may be recommended.
    pub eligible: bool,
    /// Slow requests among the ranked ones (every timeout included), by
    /// the target's own rule or over the plan's TTFT budget: the count its
    /// own row shows.
    pub slow: usize,
    /// The threshold `slow` counts over, ms; `None` without ranked
    /// requests.
    pub slow_threshold_ms: Option<f64>,
}

/// Best versus worst CV within one model.
#[derive(Clone, Debug, PartialEq)]
pub struct Consistency {
    /// Worst CV / best CV, e.g. 710 / 21 ≈ 34.
    pub ratio: f64,
    /// The target with the lowest CV.
    pub most_consistent: u32,
    /// The target with the highest CV.
    pub least_consistent: u32,
}

impl Consistency {
    /// The ratio as people say it: whole numbers from 10× up, one decimal
    /// below ("34×", "2.5×").
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn ratio_text(&self) -> String {
        // 9.96 would print as "10.0×" with one decimal: switch to whole
        // numbers where the rounding would.
        if self.ratio >= 9.95 {
            format!("{:.0}×", self.ratio)
        } else {
            format!("{:.1}×", self.ratio)
        }
    }
}

/// All providers of one model, ranked.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelComparison {
    /// The grouping key ([`model_key`]).
    pub model: String,
    /// Every spelling of the model among the grouped targets.
    pub names: Vec<String>,
    /// Ranked rows: eligible targets first, each part ordered by p95, then
    /// CV, then median.
    pub rows: Vec<ComparisonRow>,
    /// The recommended target: the first row when it is eligible.
    pub best: Option<u32>,
    /// Best versus worst CV, when at least two targets have a positive CV.
    pub consistency: Option<Consistency>,
    /// The plan's TTFT budget, ms, when it sets one: then every target's
    /// slow requests are those over it. `None` without a budget, when each
    /// target counts by its own rule (its row's
    /// [`ComparisonRow::slow_threshold_ms`]).
    pub slow_threshold_ms: Option<f64>,
    /// Whether the best can be told apart from the runner-up (see the
    /// module doc); `true` when there is no runner-up.
    pub distinguishable: bool,
    /// Eligible targets the best cannot be told apart from.
    pub indistinguishable_from_best: Vec<u32>,
}

/// The ranking order: eligible first, then the smaller slow share, the
/// lower reading at the typical prompt size (targets with one before those
/// without), the lower p95 and the lower median, each over every ranked
/// request (timeouts and failures before the first token at the timeout).
///
/// Each key can only get worse when one of the target's requests gets
/// worse (slower, cold, a timeout, an error): the slow share by
/// [`crate::judgement::slow`]'s argument, a quantile because it is a
/// rank of values that only rise, the typical reading because it is a
/// fixed-weight sum of such quantiles, the error rate and the count of
/// answered requests because a failure only adds to the one and takes
/// from the other. So a target's place, compared key by key, can only
/// fall. The CV is not a key: a request made slower inside the warm
/// cluster can lower it.
#[cfg_attr(target_arch = "wasm32", inline)]
fn by_rule(a: (&TargetFigures, usize), b: (&TargetFigures, usize)) -> Ordering {
    let share = |(f, slow): (&TargetFigures, usize)| {
        if f.ttft_sorted_ms.is_empty() {
            0.0
        } else {
            slow as f64 / f.ttft_sorted_ms.len() as f64
        }
    };
    let ((a_fig, _), (b_fig, _)) = (a, b);
    // No prediction ranks after any: without a typical size every target
    // is equal here and the rule is the one it always was.
    let typical = |f: &TargetFigures| f.typical.map_or(f64::INFINITY, |t| t.ttft_ms);
    b_fig
        .eligible()
        .cmp(&a_fig.eligible())
        .then(share(a).total_cmp(&share(b)))
        .then(typical(a_fig).total_cmp(&typical(b_fig)))
        .then(
            a_fig
                .decision_quantile(95.0)
                .total_cmp(&b_fig.decision_quantile(95.0)),
        )
        .then(
            a_fig
                .decision_quantile(50.0)
                .total_cmp(&b_fig.decision_quantile(50.0)),
        )
        .then(a_fig.target.cmp(&b_fig.target))
}

/// Group targets by model and rank each group, with no TTFT budget.
/// Models keep the order in which they first appear in `figures`; targets
/// without successful samples should not be passed (they have no p95 to
/// rank by).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn compare_models(figures: &[TargetFigures]) -> Vec<ModelComparison> {
    compare_models_with_budget(figures, None)
}

/// [`compare_models`], slow meaning "over `ttft_budget_ms`" when it is
/// given.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn compare_models_with_budget(
    figures: &[TargetFigures],
    ttft_budget_ms: Option<f64>,
) -> Vec<ModelComparison> {
    let mut groups: Vec<(String, Vec<&TargetFigures>)> = Vec::new();
    for figure in figures {
        let key = model_key(&figure.model);
        match groups.iter_mut().find(|(existing, _)| *existing == key) {
            Some((_, members)) => members.push(figure),
            None => groups.push((key, vec![figure])),
        }
    }
    groups
        .into_iter()
        .map(|(model, members)| compare_one(model, members, ttft_budget_ms))
        .collect()
}

/// The slow requests of `figures` and the threshold they are over, ms:
/// over the plan's TTFT budget when it sets one (the user's own line, the
/// same for every target), else by the target's own rule, the one its row
/// uses ([`slow_share`]: over [`SLOW_MULTIPLE`](crate::judgement::slow::SLOW_MULTIPLE) × its own warm
/// reference). Every timeout is slow whatever the threshold. A threshold
/// pooled over the model's targets would count one target's requests
/// against another's speed, and is not monotone: a request turning slow
/// raises the pooled median and can take other targets' requests off the
/// count. `None` for the threshold without ranked requests.
#[cfg_attr(target_arch = "wasm32", inline)]
fn slow_count(figures: &TargetFigures, ttft_budget_ms: Option<f64>) -> (usize, Option<f64>) {
    let timeouts = figures.censored.min(figures.ttft_sorted_ms.len());
    if let Some(budget) = ttft_budget_ms.filter(|b| b.is_finite() && *b > 0.0) {
        let kept = figures.ttft_sorted_ms.partition_point(|&ms| ms <= budget);
        let over = figures.ttft_sorted_ms.len() - kept;
        return (over.max(timeouts), Some(budget));
    }
    match slow_share(&figures.ttft_sorted_ms, timeouts) {
        Some(own) => (own.slow, Some(own.threshold_ms)),
        None => (timeouts, None),
    }
}

/// What tells two targets apart, in the order [`told_apart`] tries them:
/// the one rule behind the route's `distinguishable`, its ties and the
/// report's sentence comparing the best with each other target, so the
/// three never disagree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Apart {
    /// Their TTFT predictions at the typical prompt size have intervals
    /// apart.
    Typical,
    /// Their slow shares differ by Fisher's exact test (two-sided), with
    /// its p-value.
    SlowShare {
        /// Fisher's exact test's two-sided p-value, below 0.05.
        p_value: f64,
    },
    /// Their p95 intervals do not overlap.
    P95,
    /// Their median intervals do not overlap (their p95 intervals do).
    Median,
}

/// Whether `a` and `b` can be told apart (see the module doc), and by
/// what; `None` when these requests cannot tell them apart.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn told_apart(a: &ComparisonRow, b: &ComparisonRow) -> Option<Apart> {
    // In the ranking's order: the slow shares first, then the typical
    // reading, which alone decides between two targets that both have one.
    let (n_a, n_b) = (
        a.figures.ttft_sorted_ms.len(),
        b.figures.ttft_sorted_ms.len(),
    );
    if n_a > 0 && n_b > 0 {
        let p_value = fisher_exact(a.slow, n_a, b.slow, n_b);
        if p_value < 0.05 {
            return Some(Apart::SlowShare { p_value });
        }
    }
    if let (Some(x), Some(y)) = (a.figures.typical, b.figures.typical) {
        return (!x.interval.overlaps(&y.interval)).then_some(Apart::Typical);
    }
    let apart = |x: Option<Interval>, y: Option<Interval>| match (x, y) {
        (Some(x), Some(y)) => !x.overlaps(&y),
        _ => false,
    };
    if apart(a.figures.p95_interval, b.figures.p95_interval) {
        Some(Apart::P95)
    } else if apart(a.figures.median_interval, b.figures.median_interval) {
        Some(Apart::Median)
    } else {
        None
    }
}

/// Whether `a` and `b` can be told apart (see the module doc).
#[cfg_attr(target_arch = "wasm32", inline)]
fn distinguishable(a: &ComparisonRow, b: &ComparisonRow) -> bool {
    told_apart(a, b).is_some()
}

/// Whether `row` takes part in the pick's ties: eligible, with enough
/// successful requests for a verdict. The others are out of the pick
/// whatever their figures.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn contends(row: &ComparisonRow) -> bool {
    row.eligible && row.figures.n >= VERDICT_MIN_SAMPLES
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn compare_one(
    model: String,
    members: Vec<&TargetFigures>,
    ttft_budget_ms: Option<f64>,
) -> ModelComparison {
    let mut names: Vec<String> = Vec::new();
    for member in &members {
        if !names.contains(&member.model) {
            names.push(member.model.clone());
        }
    }
    let thresholds: Vec<Option<f64>> = members
        .iter()
        .map(|figures| slow_count(figures, ttft_budget_ms).1)
        .collect();
    let counted: Vec<(&TargetFigures, usize)> = members
        .iter()
        .map(|figures| (*figures, slow_count(figures, ttft_budget_ms).0))
        .collect();
    // Each member's place is the number that rank before it under
    // `by_rule` (equal ones, which its last key, the target index, rules
    // out, would keep their order): the order a stable sort gives, for a
    // model's few targets, without a copy of the standard sort for this
    // comparator.
    let mut order = vec![0; counted.len()];
    for (i, &member) in counted.iter().enumerate() {
        let place = counted
            .iter()
            .enumerate()
            .filter(|&(j, &other)| match by_rule(other, member) {
                Ordering::Less => true,
                Ordering::Equal => j < i,
                Ordering::Greater => false,
            })
            .count();
        order[place] = i;
    }
    let rows: Vec<ComparisonRow> = order
        .iter()
        .enumerate()
        .map(|(index, &i)| {
            let (figures, slow) = counted[i];
            ComparisonRow {
                rank: index + 1,
                eligible: figures.eligible(),
                figures: figures.clone(),
                slow,
                slow_threshold_ms: thresholds[i],
            }
        })
        .collect();
    let best_row = rows.first().filter(|row| row.eligible);
    let best = best_row.map(|row| row.figures.target);
    let indistinguishable_from_best: Vec<u32> = best_row
        .map(|best| {
            rows.iter()
                .skip(1)
                .filter(|row| contends(row))
                .filter(|row| !distinguishable(best, row))
                .map(|row| row.figures.target)
                .collect()
        })
        .unwrap_or_default();
    let runner_up = rows.iter().skip(1).find(|row| contends(row));
    let distinguishable = match (best_row, runner_up) {
        (Some(best), Some(runner_up)) => distinguishable(best, runner_up),
        _ => true,
    };
    ModelComparison {
        model,
        names,
        consistency: consistency(&rows),
        rows,
        best,
        slow_threshold_ms: ttft_budget_ms.filter(|b| b.is_finite() && *b > 0.0),
        distinguishable,
        indistinguishable_from_best,
    }
}

impl ModelComparison {
    /// The rule this comparison's ranking applied, in words
    /// ([`rule_text`]): its TTFT budget, and the typical size when the
    /// ranking read one.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn rule(&self, lang: Lang) -> String {
        rule_text(
            lang,
            self.slow_threshold_ms,
            self.rows
                .iter()
                .find_map(|row| row.figures.typical.map(|t| t.tokens)),
        )
    }
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn consistency(rows: &[ComparisonRow]) -> Option<Consistency> {
    let measured: Vec<&TargetFigures> = rows
        .iter()
        .map(|row| &row.figures)
        .filter(|f| f.n >= 2 && f.cv_pct > 0.0)
        .collect();
    if measured.len() < 2 {
        return None;
    }
    let most = measured
        .iter()
        .min_by(|a, b| a.cv_pct.total_cmp(&b.cv_pct))?;
    let least = measured
        .iter()
        .max_by(|a, b| a.cv_pct.total_cmp(&b.cv_pct))?;
    Some(Consistency {
        ratio: least.cv_pct / most.cv_pct,
        most_consistent: most.target,
        least_consistent: least.target,
    })
}

/// The routing table: one route per model, as a JSON document
/// `{"firsttoken_routing": 1, "routes": [...]}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoutingTable {
    /// Document version, [`ROUTING_VERSION`].
    pub firsttoken_routing: u32,
    /// One route per model, in the order of the comparisons.
    pub routes: Vec<Route>,
}

/// Where to send one model, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Route {
    /// The model's grouping key.
    pub model: String,
    /// The recommended target's index, or `None` when no target qualifies.
    pub target: Option<u32>,
    /// The recommended target's label.
    pub label: Option<String>,
    /// Why, in one sentence.
    pub reason: String,
    /// Its median TTFT, ms.
    pub median_ms: Option<f64>,
    /// Its p95 TTFT, ms.
    pub p95_ms: Option<f64>,
    /// Its CV, percent.
    pub cv_pct: Option<f64>,
    /// Its error rate, 0–1.
    pub error_rate: Option<f64>,
    /// Its verdict.
    pub verdict: Option<Verdict>,
    /// How many targets of this model were compared.
    pub candidates: usize,
    /// Whether the recommended target can be told apart from the
    /// runner-up with these requests; written after version 1 first
    /// shipped, so older documents read as `true`.
    #[serde(default = "distinguishable_by_default")]
    pub distinguishable: bool,
    /// Labels of the eligible targets the recommended one cannot be told
    /// apart from (empty when it stands alone).
    #[serde(default)]
    pub indistinguishable_from_best: Vec<String>,
    /// Every compared target in the ranking's order (the recommended one
    /// first): what a fallback list follows. Empty in older documents.
    #[serde(default)]
    pub order: Vec<RouteStep>,
    /// The recommended target's fidelity verdict, when the run checked
    /// fidelity against a reference; left out otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fidelity: Option<FidelityVerdict>,
    /// The rule the ranking applied, in words ([`ModelComparison::rule`]):
    /// the same text the report prints under the table. Empty in older
    /// documents.
    #[serde(default)]
    pub rule: String,
}

/// One target in a route's ranking.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RouteStep {
    /// The target's index in the plan.
    pub target: u32,
    /// Its label.
    pub label: String,
    /// 1 for the recommended one.
    pub rank: usize,
    /// Enough successful requests and an error rate under the threshold.
    pub eligible: bool,
    /// The recommended target, or one it cannot be told apart from.
    pub tied_with_best: bool,
    /// Median TTFT, ms.
    pub median_ms: f64,
    /// p95 TTFT, ms.
    pub p95_ms: f64,
    /// Error rate, 0–1.
    pub error_rate: f64,
    /// Slow requests by the target's own rule (or over the plan's TTFT
    /// budget), timeouts included: the count its own row shows.
    pub slow: usize,
    /// Ranked requests.
    pub n: usize,
    /// Its fidelity verdict, when the run checked fidelity against a
    /// reference; left out otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fidelity: Option<FidelityVerdict>,
}

/// The ranking of `comparison` as route steps.
#[cfg_attr(target_arch = "wasm32", inline)]
fn route_steps(comparison: &ModelComparison) -> Vec<RouteStep> {
    let best = comparison
        .rows
        .first()
        .filter(|row| row.eligible)
        .map(|row| row.figures.target);
    comparison
        .rows
        .iter()
        .map(|row| RouteStep {
            target: row.figures.target,
            label: row.figures.label.clone(),
            rank: row.rank,
            eligible: row.eligible,
            tied_with_best: best == Some(row.figures.target)
                || (best.is_some()
                    && comparison
                        .indistinguishable_from_best
                        .contains(&row.figures.target)),
            median_ms: row.figures.median_ms,
            p95_ms: row.figures.p95_ms,
            error_rate: row.figures.error_rate,
            slow: row.slow,
            n: row.figures.n,
            fidelity: None,
        })
        .collect()
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn distinguishable_by_default() -> bool {
    true
}

impl RoutingTable {
    /// The table as compact JSON.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn to_json(&self) -> String {
        // A non-finite number is written as null.
        crate::base::document::to_string(self)
    }
}

/// Build the routing table from the comparisons, with reasons in `lang`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn routing_table(comparisons: &[ModelComparison], lang: Lang) -> RoutingTable {
    let routes = comparisons
        .iter()
        .map(|comparison| route_for(comparison, lang))
        .collect();
    RoutingTable {
        firsttoken_routing: ROUTING_VERSION,
        routes,
    }
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn route_for(comparison: &ModelComparison, lang: Lang) -> Route {
    let candidates = comparison.rows.len();
    let best = comparison
        .rows
        .first()
        .filter(|row| row.eligible)
        .map(|row| &row.figures);
    let best = best.and_then(|figures| Some((figures, figures.judgement.verdict()?)));
    let Some((best, verdict)) = best else {
        let collecting = comparison
            .rows
            .iter()
            .all(|row| row.figures.n < VERDICT_MIN_SAMPLES);
        let reason = no_route_reason(lang, collecting);
        return Route {
            model: comparison.model.clone(),
            target: None,
            label: None,
            reason,
            median_ms: None,
            p95_ms: None,
            cv_pct: None,
            error_rate: None,
            verdict: None,
            candidates,
            distinguishable: true,
            indistinguishable_from_best: Vec::new(),
            order: route_steps(comparison),
            fidelity: None,
            rule: comparison.rule(lang),
        };
    };
    let eligible = comparison.rows.iter().filter(|row| row.eligible).count();
    let label_of = |target: u32| {
        comparison
            .rows
            .iter()
            .find(|row| row.figures.target == target)
            .map(|row| row.figures.label.clone())
            .unwrap_or_default()
    };
    let tied: Vec<String> = comparison
        .indistinguishable_from_best
        .iter()
        .map(|&target| label_of(target))
        .collect();
    let best_row = comparison.rows.first();
    let slow = match (best_row, best_row.and_then(|row| row.slow_threshold_ms)) {
        (Some(row), Some(threshold)) if !row.figures.ttft_sorted_ms.is_empty() => {
            Some((row.slow, row.figures.ttft_sorted_ms.len(), threshold))
        }
        _ => None,
    };
    let reason = pick_reason(
        lang,
        &Pick {
            label: &best.label,
            only_one: eligible == 1 && candidates == 1,
            eligible,
            p95_ms: best.p95_ms,
            cv_pct: best.cv_pct,
            judgement: best.judgement,
            slow,
            tied: &tied,
            requests: best.ttft_sorted_ms.len().max(best.n),
            typical: best.typical,
        },
    );
    Route {
        model: comparison.model.clone(),
        target: Some(best.target),
        label: Some(best.label.clone()),
        reason,
        median_ms: Some(best.median_ms),
        p95_ms: Some(best.p95_ms),
        cv_pct: Some(best.cv_pct),
        error_rate: Some(best.error_rate),
        verdict: Some(verdict),
        candidates,
        distinguishable: comparison.distinguishable,
        indistinguishable_from_best: tied,
        order: route_steps(comparison),
        rule: comparison.rule(lang),
        fidelity: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(
        target: u32,
        label: &str,
        model: &str,
        median: f64,
        p95: f64,
        cv: f64,
        errors: f64,
    ) -> TargetFigures {
        TargetFigures {
            target,
            label: label.to_owned(),
            model: model.to_owned(),
            n: 100,
            median_ms: median,
            p95_ms: p95,
            cv_pct: cv,
            error_rate: errors,
            judgement: Judgement::Final(Verdict::from_cv_pct(cv)),
            ttft_sorted_ms: Vec::new(),
            censored: 0,
            // A narrow interval: these hand-made targets differ clearly.
            p95_interval: Some(Interval {
                low: p95 * 0.99,
                high: p95 * 1.01,
            }),
            median_interval: None,
            typical: None,
        }
    }

    /// A target's figures from raw ranked TTFTs, as the report makes them.
    fn measured(target: u32, label: &str, mut values: Vec<f64>) -> TargetFigures {
        crate::base::order::sort_numbers(&mut values);
        let summary = crate::statistics::stats::summarize_sorted(&values).unwrap();
        TargetFigures {
            target,
            label: label.to_owned(),
            model: "m".to_owned(),
            n: values.len(),
            median_ms: summary.median,
            p95_ms: summary.p95,
            cv_pct: summary.cv_pct,
            error_rate: 0.0,
            judgement: Judgement::Final(Verdict::from_cv_pct(summary.cv_pct)),
            p95_interval: crate::statistics::quantile::order_statistic_interval(
                &values, 0.95, None,
            ),
            median_interval: crate::statistics::quantile::order_statistic_interval(
                &values, 0.5, None,
            ),
            ttft_sorted_ms: values,
            censored: 0,
            typical: None,
        }
    }

    /// `n` lognormal TTFTs around `median` (σ 0.25), each a cold start at
    /// 10× with probability `cold`.
    fn provider(rng: &mut fastrand::Rng, n: usize, median: f64, cold: f64) -> Vec<f64> {
        (0..n)
            .map(|_| {
                let (u1, u2) = (1.0 - rng.f64(), rng.f64());
                let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                let slow = if rng.f64() < cold { 10.0 } else { 1.0 };
                median * slow * (0.25 * z).exp()
            })
            .collect()
    }

    /// How often the routing pick chooses the worse provider, and how often
    /// it calls the two distinguishable, over seeded trials; the figures in
    /// docs/statistics.md come from here:
    /// `cargo test -p firsttoken-core --lib judgement::compare::tests::routing_picks_in_seeded_trials -- --nocapture`
    #[test]
    fn routing_picks_in_seeded_trials() {
        let trials = 2000;
        let run = |clean_median: f64, cold_median: f64, seed: u64| {
            let mut rng = fastrand::Rng::with_seed(seed);
            let (mut worse, mut told_apart, mut p95_worse) = (0, 0, 0);
            for _ in 0..trials {
                let clean = measured(0, "clean", provider(&mut rng, 75, clean_median, 0.0));
                let cold = measured(1, "cold", provider(&mut rng, 75, cold_median, 0.05));
                p95_worse += usize::from(cold.p95_ms < clean.p95_ms);
                let comparison = &compare_models(&[clean, cold])[0];
                worse += usize::from(comparison.best == Some(1));
                told_apart += usize::from(comparison.distinguishable);
            }
            let pct = |k: usize| k as f64 * 100.0 / f64::from(trials);
            (pct(worse), pct(told_apart), pct(p95_worse))
        };
        let (worse, apart, by_p95) = run(560.0, 420.0, 11);
        println!(
            "clean at 560 ms vs 420 ms with 5 % cold starts at 10×, 75 each: worse picked {worse:.1} % (by point p95 alone {by_p95:.1} %); distinguishable {apart:.1} %"
        );
        assert!(worse <= 5.0, "{worse} %");
        let (worse_same, apart_same, by_p95_same) = run(420.0, 420.0, 12);
        println!(
            "0 % vs 5 % cold starts at 10×, same warm 420 ms, 75 each: worse picked {worse_same:.1} % (by point p95 alone {by_p95_same:.1} %); distinguishable {apart_same:.1} %"
        );
        assert!(worse_same <= 2.0, "{worse_same} %");
    }

    #[test]
    fn a_tie_is_said_and_exported() {
        // Two providers from the same distribution: the pick is one of them,
        // and the route admits the other cannot be told apart.
        let mut rng = fastrand::Rng::with_seed(5);
        let a = measured(0, "A", provider(&mut rng, 75, 420.0, 0.0));
        let b = measured(1, "B", provider(&mut rng, 75, 420.0, 0.0));
        let comparisons = compare_models(&[a, b]);
        assert!(!comparisons[0].distinguishable);
        let route = &routing_table(&comparisons, Lang::En).routes[0];
        let best = route.label.clone().unwrap();
        let other = if best == "A" { "B" } else { "A" };
        assert_eq!(route.indistinguishable_from_best, vec![other.to_owned()]);
        assert!(
            route.reason.starts_with(&format!(
                "{best} or {other}: not distinguishable with 75 requests"
            )),
            "{}",
            route.reason
        );
        // A clean provider against one with 15 % cold starts: told apart.
        let clean = measured(0, "clean", provider(&mut rng, 75, 420.0, 0.0));
        let cold = measured(1, "cold", provider(&mut rng, 75, 420.0, 0.15));
        let comparisons = compare_models(&[clean, cold]);
        assert!(comparisons[0].distinguishable);
        assert_eq!(comparisons[0].best, Some(0));
        let route = &routing_table(&comparisons, Lang::ZhCn).routes[0];
        assert!(route.indistinguishable_from_best.is_empty());
        assert!(route.reason.contains("慢请求最少"), "{}", route.reason);
        // Older routing documents read as distinguishable.
        let json = route.clone();
        let text = crate::base::document::to_string(&json).replace(
            ",\"distinguishable\":true,\"indistinguishable_from_best\":[]",
            "",
        );
        let read: Route = crate::base::document::from_str(&text).unwrap();
        assert!(read.distinguishable);
    }

    /// Two models on three hosts each, like the article's tables: the best
    /// provider differs per model.
    fn seed_like() -> Vec<TargetFigures> {
        vec![
            figures(
                0,
                "DO · V3",
                "deepseek-ai/DeepSeek-V3",
                390.0,
                570.0,
                21.0,
                0.0,
            ),
            figures(
                1,
                "Together · V3",
                "deepseek-ai/DeepSeek-V3",
                550.0,
                6300.0,
                541.0,
                0.01,
            ),
            figures(
                2,
                "Fireworks · V3",
                "accounts/fireworks/models/deepseek-v3",
                420.0,
                9100.0,
                710.0,
                0.0,
            ),
            figures(
                3,
                "DO · Kimi",
                "moonshotai/Kimi-K2",
                610.0,
                14_000.0,
                989.0,
                0.0,
            ),
            figures(
                4,
                "Together · Kimi",
                "moonshotai/kimi-k2",
                700.0,
                1900.0,
                102.0,
                0.02,
            ),
            figures(5, "Groq · Kimi", "Kimi-K2 ", 300.0, 21_000.0, 1266.0, 0.0),
        ]
    }

    #[test]
    fn model_keys() {
        assert_eq!(model_key("deepseek-ai/DeepSeek-V3"), "deepseek-v3");
        assert_eq!(
            model_key("accounts/fireworks/models/deepseek-v3"),
            "deepseek-v3"
        );
        assert_eq!(model_key(" DeepSeek-V3 "), "deepseek-v3");
        assert_ne!(model_key("deepseek-v3.1"), model_key("deepseek-v3"));
    }

    #[test]
    fn seed_like_cases_pick_a_different_best_per_model() {
        let comparisons = compare_models(&seed_like());
        assert_eq!(comparisons.len(), 2);
        let (v3, kimi) = (&comparisons[0], &comparisons[1]);
        assert_eq!(v3.model, "deepseek-v3");
        assert_eq!(
            v3.names,
            vec![
                "deepseek-ai/DeepSeek-V3",
                "accounts/fireworks/models/deepseek-v3"
            ]
        );
        assert_eq!(v3.best, Some(0));
        assert_eq!(
            v3.rows.iter().map(|r| r.figures.target).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        assert_eq!(
            v3.rows.iter().map(|r| r.rank).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
        let consistency = v3.consistency.clone().unwrap();
        assert!((consistency.ratio - 710.0 / 21.0).abs() < 1e-12);
        assert_eq!(
            (consistency.most_consistent, consistency.least_consistent),
            (0, 2)
        );
        assert_eq!(consistency.ratio_text(), "34×");
        let near_ten = Consistency {
            ratio: 9.96,
            ..consistency.clone()
        };
        assert_eq!(near_ten.ratio_text(), "10×", "never \"10.0×\"");
        let small = Consistency {
            ratio: 2.54,
            ..consistency.clone()
        };
        assert_eq!(small.ratio_text(), "2.5×");
        assert_eq!(
            consistency.text("DO", "Fireworks", Lang::En),
            "DO is 34× more consistent than Fireworks"
        );

        assert_eq!(kimi.model, "kimi-k2");
        assert_eq!(kimi.best, Some(4));
        assert_eq!(
            kimi.rows
                .iter()
                .map(|r| r.figures.target)
                .collect::<Vec<_>>(),
            vec![4, 3, 5]
        );
        let consistency = kimi.consistency.clone().unwrap();
        assert_eq!(
            (consistency.most_consistent, consistency.least_consistent),
            (4, 5)
        );
        assert_eq!(consistency.ratio_text(), "12×");
    }

    #[test]
    fn errors_disqualify_and_ties_break_by_cv_then_median() {
        let mut set = seed_like();
        set[0].error_rate = 0.08; // DO V3 now fails too often.
        let v3 = &compare_models(&set)[0];
        assert_eq!(v3.best, Some(1));
        assert_eq!(
            v3.rows.last().map(|r| (r.figures.target, r.eligible)),
            Some((0, false))
        );
        // Exactly at the threshold is not "under" it.
        set[0].error_rate = ERROR_RATE_THRESHOLD;
        assert_eq!(compare_models(&set)[0].best, Some(1));

        let tie = vec![
            figures(0, "a", "m", 500.0, 900.0, 30.0, 0.0),
            figures(1, "b", "m", 450.0, 900.0, 25.0, 0.0),
            figures(2, "c", "m", 400.0, 900.0, 25.0, 0.0),
        ];
        let ranked: Vec<u32> = compare_models(&tie)[0]
            .rows
            .iter()
            .map(|r| r.figures.target)
            .collect();
        assert_eq!(ranked, vec![2, 1, 0]);
    }

    #[test]
    fn a_typical_size_ranks_by_its_reading_and_ties_by_its_intervals() {
        let typical = |ms: f64, half: f64| {
            Some(TypicalTtft {
                tokens: 8_192,
                ttft_ms: ms,
                interval: Interval {
                    low: ms - half,
                    high: ms + half,
                },
                nearest: None,
                sizes: (4_096, 16_384),
            })
        };
        let mut set = vec![
            figures(0, "short", "m", 300.0, 500.0, 20.0, 0.0),
            figures(1, "long", "m", 400.0, 700.0, 20.0, 0.0),
            figures(2, "unfitted", "m", 200.0, 300.0, 20.0, 0.0),
        ];
        let plain = &compare_models(&set)[0];
        assert_eq!(plain.best, Some(2));
        set[0].typical = typical(1_500.0, 50.0);
        set[1].typical = typical(900.0, 50.0);
        let ranked = &compare_models(&set)[0];
        let order: Vec<u32> = ranked.rows.iter().map(|r| r.figures.target).collect();
        assert_eq!(
            order,
            [1, 0, 2],
            "with slow shares alike, readings first, the rest by the rule"
        );
        assert!(ranked.distinguishable && ranked.indistinguishable_from_best.is_empty());
        let route = &routing_table(std::slice::from_ref(ranked), Lang::En).routes[0];
        assert!(
            route
                .reason
                .starts_with("lowest median TTFT at the typical 8 192 input tokens (900 ms, read between the medians of every request at 4 096 and 16 384 tokens)"),
            "{}",
            route.reason
        );
        // Overlapping predictions cannot be told apart, whatever the p95s say.
        set[0].typical = typical(1_000.0, 150.0);
        let tied = &compare_models(&set)[0];
        assert_eq!(tied.best, Some(1));
        assert_eq!(tied.indistinguishable_from_best, [0]);
        assert!(!tied.distinguishable);
    }

    #[test]
    fn routing_table_json() {
        let mut set = seed_like();
        set.push(figures(6, "Solo", "qwen3-32b", 250.0, 400.0, 12.0, 0.0));
        set.push(figures(7, "Flaky", "glm-4.6", 250.0, 400.0, 12.0, 0.5));
        let table = routing_table(&compare_models(&set), Lang::En);
        let json: serde_json::Value = serde_json::from_str(&table.to_json()).unwrap();
        assert_eq!(json["firsttoken_routing"], 1);
        let routes = json["routes"].as_array().unwrap();
        assert_eq!(routes.len(), 4);
        assert_eq!(routes[0]["model"], "deepseek-v3");
        assert_eq!(routes[0]["target"], 0);
        assert_eq!(routes[0]["label"], "DO · V3");
        assert_eq!(routes[0]["verdict"], "solid");
        assert_eq!(
            routes[0]["reason"],
            "lowest p95 (570 ms) of 3 providers with error rate under 5 %; CV 21 %, solid"
        );
        assert_eq!(routes[1]["target"], 4);
        assert_eq!(routes[1]["p95_ms"], 1900.0);
        assert!(
            routes[1]["reason"]
                .as_str()
                .unwrap()
                .starts_with("lowest p95 (1.9 s) of 3")
        );
        assert_eq!(
            routes[2]["reason"],
            "only provider measured: p95 400 ms, CV 12 %, solid"
        );
        assert_eq!(routes[3]["target"], serde_json::Value::Null);
        assert_eq!(
            routes[3]["reason"],
            "no provider with 20 or more samples had an error rate under 5 %"
        );
        let zh = routing_table(&compare_models(&set), Lang::ZhCn);
        assert!(zh.routes[0].reason.contains("p95 最低"));
    }
}
