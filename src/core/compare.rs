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
//! Lowest p95 TTFT among targets whose error rate is under
//! [`ERROR_RATE_THRESHOLD`]; ties broken by the lower CV, then the lower
//! median. p95 rather than the median because a route is judged by the
//! requests that hurt, and errors first because a fast provider that fails
//! one request in ten is not fast.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

use super::verdict::{ERROR_RATE_THRESHOLD, Judgement, Lang, VERDICT_MIN_SAMPLES, Verdict};

/// Version of the routing JSON document this build writes.
pub const ROUTING_VERSION: u32 = 1;

/// The grouping key of a model name: trimmed, lowercased, and without any
/// provider or organisation prefix (everything up to the last `/`).
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
}

impl TargetFigures {
    /// Enough samples for a verdict and an error rate under the threshold:
    /// may be recommended. A target still collecting is ranked but never
    /// named the best, since the page gives it no verdict yet.
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
    pub fn ratio_text(&self) -> String {
        // 9.96 would print as "10.0×" with one decimal: switch to whole
        // numbers where the rounding would.
        if self.ratio >= 9.95 {
            format!("{:.0}×", self.ratio)
        } else {
            format!("{:.1}×", self.ratio)
        }
    }

    /// "A is 34× more consistent than B".
    pub fn text(&self, most: &str, least: &str, lang: Lang) -> String {
        let ratio = self.ratio_text();
        match lang {
            Lang::En => format!("{most} is {ratio} more consistent than {least}"),
            Lang::ZhCn => format!("{most} 的稳定性是 {least} 的 {ratio}"),
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
}

/// The ranking order: lower p95, then lower CV, then lower median.
fn by_rule(a: &TargetFigures, b: &TargetFigures) -> Ordering {
    b.eligible()
        .cmp(&a.eligible())
        .then(a.p95_ms.total_cmp(&b.p95_ms))
        .then(a.cv_pct.total_cmp(&b.cv_pct))
        .then(a.median_ms.total_cmp(&b.median_ms))
        .then(a.target.cmp(&b.target))
}

/// Group targets by model and rank each group. Models keep the order in
/// which they first appear in `figures`; targets without successful samples
/// should not be passed (they have no p95 to rank by).
pub fn compare_models(figures: &[TargetFigures]) -> Vec<ModelComparison> {
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
        .map(|(model, members)| compare_one(model, members))
        .collect()
}

fn compare_one(model: String, mut members: Vec<&TargetFigures>) -> ModelComparison {
    let mut names: Vec<String> = Vec::new();
    for member in &members {
        if !names.contains(&member.model) {
            names.push(member.model.clone());
        }
    }
    members.sort_by(|a, b| by_rule(a, b));
    let rows: Vec<ComparisonRow> = members
        .iter()
        .enumerate()
        .map(|(index, figures)| ComparisonRow {
            rank: index + 1,
            eligible: figures.eligible(),
            figures: (*figures).clone(),
        })
        .collect();
    let best = rows
        .first()
        .filter(|row| row.eligible)
        .map(|row| row.figures.target);
    ModelComparison {
        model,
        names,
        consistency: consistency(&rows),
        rows,
        best,
    }
}

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
}

impl RoutingTable {
    /// The table as compact JSON.
    pub fn to_json(&self) -> String {
        // A non-finite number is written as null.
        crate::core::document::to_string(self)
    }
}

/// A duration for a sentence: "570 ms" below a second, "6.30 s" above.
pub fn format_ms(ms: f64) -> String {
    if ms < 1000.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.2} s", ms / 1000.0)
    }
}

/// Build the routing table from the comparisons, with reasons in `lang`.
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

fn route_for(comparison: &ModelComparison, lang: Lang) -> Route {
    let candidates = comparison.rows.len();
    let threshold_pct = ERROR_RATE_THRESHOLD * 100.0;
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
        let reason = match (lang, collecting) {
            (Lang::En, true) => {
                format!("no provider has {VERDICT_MIN_SAMPLES} successful samples yet")
            }
            (Lang::ZhCn, true) => format!("还没有服务商达到 {VERDICT_MIN_SAMPLES} 个成功样本"),
            (Lang::En, false) => format!(
                "no provider with {VERDICT_MIN_SAMPLES} or more samples had an error rate under {threshold_pct:.0} %"
            ),
            (Lang::ZhCn, false) => format!(
                "样本数不少于 {VERDICT_MIN_SAMPLES} 的服务商中，没有错误率低于 {threshold_pct:.0}% 的"
            ),
        };
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
        };
    };
    let eligible = comparison.rows.iter().filter(|row| row.eligible).count();
    let (p95, cv) = (format_ms(best.p95_ms), format!("{:.0}", best.cv_pct));
    let verdict_text = match (lang, best.judgement.is_provisional()) {
        (_, false) => verdict.text(lang).to_owned(),
        (Lang::En, true) => format!("{} (provisional)", verdict.text(lang)),
        (Lang::ZhCn, true) => format!("{}（暂定）", verdict.text(lang)),
    };
    let reason = match (lang, eligible) {
        (Lang::En, 1) if candidates == 1 => {
            format!("only provider measured: p95 {p95}, CV {cv} %, {verdict_text}")
        }
        (Lang::En, _) => format!(
            "lowest p95 ({p95}) of {eligible} providers with error rate under {threshold_pct:.0} %; CV {cv} %, {verdict_text}"
        ),
        (Lang::ZhCn, 1) if candidates == 1 => {
            format!("唯一测量的服务商：p95 {p95}，CV {cv}%，{verdict_text}")
        }
        (Lang::ZhCn, _) => format!(
            "在 {eligible} 个错误率低于 {threshold_pct:.0}% 的服务商中 p95 最低（{p95}）；CV {cv}%，{verdict_text}"
        ),
    };
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
        }
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
                .starts_with("lowest p95 (1.90 s) of 3")
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
