//! Every sentence about a whole report, put together: [`report_sentences`]
//! gathers, per model and per target, the sentences of the figures beside
//! it in this layer (the tail and slow share in [`crate::narrative::tail`],
//! intervals and distinctions in [`crate::narrative::distinction`], first
//! try, rate limits, stream and goodput in [`crate::narrative::delivery`],
//! cost in [`crate::narrative::cost`], prompt sizes in
//! [`crate::narrative::population`], periods in [`crate::narrative::period`],
//! idle gaps and fidelity), which read the report's types. Both adapters
//! print them, so the page and `firsttoken report` say the same thing about
//! the same file; the numbers in them come from [`crate::words::format`].

use crate::base::lang::Lang;
use crate::judgement::compare::ModelComparison;
use crate::judgement::report::{Report, TargetReport};
use crate::narrative::cost::cost_sentence;
use crate::narrative::delivery::{
    goodput_sentence, rate_limit_text, status_sentence, stream_sentence,
};
use crate::narrative::distinction::{
    best_provider_text, consistency_sentence, distinction_sentences,
};
use crate::narrative::period::period_sentence;
use crate::narrative::population::{by_size_sentence, population_sentence};
use crate::narrative::tail::{slow_sentence, target_tail_sentence, timeout_sentence};

/// "Label: sentence" in English, "Label：sentence" in Chinese.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn labelled(lang: Lang, label: &str, sentence: &str) -> String {
    format!("{label}{}{sentence}", colon(lang))
}

/// What stands between a name and what is said of it: ": " in English,
/// a full-width colon in Chinese.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn colon(lang: Lang) -> &'static str {
    match lang {
        Lang::En => ": ",
        Lang::ZhCn => "：",
    }
}

/// A caveat that holds for several targets: their labels, listed, then
/// the caveat. "A, B: only 13 measured samples …"; "A、B：…".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn caveat_line(lang: Lang, labels: &[String], caveat: &str) -> String {
    let separator = match lang {
        Lang::En => ", ",
        Lang::ZhCn => "、",
    };
    labelled(lang, &labels.join(separator), caveat)
}

/// The fidelity caveat of the best provider `best`, when the run checked
/// fidelity against a reference and the pick's answers differ or the
/// check is inconclusive ([`routing::best_note`]).
#[cfg_attr(target_arch = "wasm32", inline)]
fn best_fidelity_note(report: &Report, lang: Lang, best: u32) -> Option<String> {
    let reference = report.fidelity_reference()?;
    crate::judgement::routing_words::best_note(lang, report.fidelity_verdict(best)?, reference)
}

/// One sentence about one target: which target, and what is said.
#[derive(Clone, Debug, PartialEq)]
pub struct Said {
    /// The target's index in the plan.
    pub target: u32,
    /// Its label.
    pub label: String,
    /// The sentence, without the label.
    pub text: String,
}

/// Every sentence said under one model's comparison table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelSentences {
    /// The model's grouping key.
    pub model: String,
    /// Each target's verdict in words.
    pub verdicts: Vec<Said>,
    /// Each caveat once, with the labels of the targets it applies to.
    pub caveats: Vec<(Vec<String>, String)>,
    /// Most against least consistent target.
    pub consistency: Option<String>,
    /// The best provider, and the ones it cannot be told apart from.
    pub best_provider: Option<String>,
    /// The best against each other target, as far as the intervals allow.
    pub distinctions: Vec<String>,
    /// Each target's cold-start tail.
    pub tails: Vec<Said>,
    /// Each target's slow share.
    pub slow: Vec<Said>,
    /// Each target's recommended first-token timeout.
    pub timeouts: Vec<Said>,
    /// Each target's goodput at the plan's budget.
    pub goodput: Vec<Said>,
    /// In a run with prompt sizes, each target's verdict at every size,
    /// each size judged on its own ("solid at every size").
    pub by_size: Vec<Said>,
}

/// Every sentence the results say, in one language: what the page shows and
/// `firsttoken report` prints, made here once so the two cannot drift.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReportSentences {
    /// Per model, in the comparisons' order.
    pub models: Vec<ModelSentences>,
    /// Peak against off-peak, per target that has both.
    pub periods: Vec<Said>,
    /// First try and rate limits, per target with a measured request.
    pub first_try: Vec<Said>,
    /// What the last 429's headers said, per target that got one.
    pub rate_limits: Vec<Said>,
    /// Gaps, stalls and buffering, per target with streams.
    pub streams: Vec<Said>,
    /// Cost, per target with a price.
    pub costs: Vec<Said>,
    /// Where the cold share rises with idle, per target whose requests
    /// were sent after idle gaps.
    pub idle: Vec<Said>,
    /// What the idle gaps give to deploy (keep-warm pings and their cost,
    /// the cold share at the user's spacing, a dedicated endpoint's
    /// break-even), one sentence each, per target.
    pub idle_settings: Vec<Said>,
    /// The fidelity check, per target, when the plan has one.
    pub fidelity: Vec<Said>,
    /// Which requests the headline figures come from, when it is not
    /// simply every measured request of the plan's prompt (a run with
    /// prompt sizes).
    pub population: Option<String>,
}

/// `text`, said of `target`.
#[cfg_attr(target_arch = "wasm32", inline)]
fn said_of(target: &TargetReport, text: String) -> Said {
    Said {
        target: target.target,
        label: target.label.clone(),
        text,
    }
}

/// The label of `report`'s target `index` (empty for none).
#[cfg_attr(target_arch = "wasm32", inline)]
fn target_label(report: &Report, index: u32) -> String {
    report
        .targets
        .get(index as usize)
        .map(|t| t.label.clone())
        .unwrap_or_default()
}

/// One model's sentences, from its own figures: the comparison section
/// of each model makes its sentences here, beside its table, and
/// [`report_sentences`] lists them for every model.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn model_sentences(lang: Lang, report: &Report, model: &ModelComparison) -> ModelSentences {
    let said = said_of;
    let label_of = |index: u32| target_label(report, index);
    let members: Vec<&TargetReport> = model
        .rows
        .iter()
        .filter_map(|row| report.targets.get(row.figures.target as usize))
        .collect();
    let mut caveats: Vec<(Vec<String>, String)> = Vec::new();
    for target in &members {
        for caveat in &target.caveats {
            let text = caveat.text(lang);
            match caveats.iter_mut().find(|(_, existing)| *existing == text) {
                Some((labels, _)) => labels.push(target.label.clone()),
                None => caveats.push((vec![target.label.clone()], text)),
            }
        }
    }
    ModelSentences {
        model: model.model.clone(),
        verdicts: members
            .iter()
            .filter_map(|t| t.verdict.map(|v| said(t, v.text(lang).to_owned())))
            .collect(),
        caveats,
        consistency: model
            .consistency
            .as_ref()
            .map(|c| consistency_sentence(lang, report, c)),
        best_provider: model.best.map(|best| {
            let tied: Vec<String> = model
                .indistinguishable_from_best
                .iter()
                .map(|&i| label_of(i))
                .collect();
            let mut text = best_provider_text(lang, &label_of(best), &tied);
            text.push_str(&best_fidelity_note(report, lang, best).unwrap_or_default());
            text
        }),
        distinctions: distinction_sentences(lang, report, model),
        tails: members
            .iter()
            .map(|t| said(t, target_tail_sentence(lang, t)))
            .collect(),
        slow: members
            .iter()
            .filter_map(|t| {
                t.slow
                    .map(|slow| said(t, slow_sentence(lang, &slow, t.p95_median_ratio)))
            })
            .collect(),
        timeouts: members
            .iter()
            .filter_map(|t| {
                t.recommended_timeout
                    .map(|advice| said(t, timeout_sentence(lang, &advice)))
            })
            .collect(),
        goodput: members
            .iter()
            .filter_map(|t| t.goodput.map(|g| said(t, goodput_sentence(lang, &g))))
            .collect(),
        by_size: members
            .iter()
            .filter_map(|t| Some(said(t, by_size_sentence(lang, &t.by_size)?)))
            .collect(),
    }
}

/// The sentences of `report` in `lang`.
///
/// # Examples
///
/// The same report in English and in Chinese: the same verdicts, each
/// sentence about the same target, in its own words.
///
/// ```
/// use firsttoken_core::judgement::report::{REPORT_SEED, build_report};
/// use firsttoken_core::base::lang::Lang;
/// use firsttoken_core::narrative::sentences::report_sentences;
///
/// # use firsttoken_core::wire::demo::{behaviour_of, demo_reply, target_seed};
/// # use firsttoken_core::wire::measure::Measurement;
/// # use firsttoken_core::planning::plan::Plan;
/// # use firsttoken_core::wire::sample::Sample;
/// # use firsttoken_core::planning::schedule::Schedule;
/// # // Every request of `plan` answered by the built-in demo provider, fed
/// # // through a `Measurement` as the page and the runner feed real replies.
/// # fn measure_with_demo(plan: &Plan) -> Vec<Sample> {
/// #     let schedule = Schedule::new(plan, 1.8e12, 7);
/// #     schedule.requests.iter().map(|planned| {
/// #         let target = &plan.targets[planned.target as usize];
/// #         let seed = target_seed(7, planned.target);
/// #         let reply = demo_reply(behaviour_of(&target.base_url), planned.seq, seed);
/// #         let mut measurement = Measurement::new(target.protocol, false);
/// #         measurement.on_headers(reply.headers_at_ms, reply.status, Some(reply.content_type));
/// #         for chunk in &reply.chunks {
/// #             measurement.on_chunk(chunk.at_ms, &chunk.bytes);
/// #         }
/// #         let end_ms = reply.chunks.last().map_or(reply.headers_at_ms, |c| c.at_ms);
/// #         measurement.on_body_end(end_ms);
/// #         Sample::from_outcome(planned, planned.planned_at_ms, false, measurement.finish())
/// #     }).collect()
/// # }
/// # let plan = Plan::from_json(r#"{"firsttoken_plan": 1, "requests_per_target": 30, "targets": [
/// #     {"label": "steady", "protocol": "demo", "base_url": "demo://steady", "model": "m"},
/// #     {"label": "cold-tail", "protocol": "demo", "base_url": "demo://cold-tail", "model": "m"}]}"#)?;
/// let report = build_report(&plan, &measure_with_demo(&plan), 0, REPORT_SEED);
/// let english = report_sentences(&report, Lang::En);
/// let chinese = report_sentences(&report, Lang::ZhCn);
///
/// let verdicts = |sentences: &firsttoken_core::narrative::sentences::ReportSentences| -> Vec<String> {
///     sentences.models[0].verdicts.iter().map(|said| said.text.clone()).collect()
/// };
/// // The demo's `cold-tail` had its cold starts in these 30 requests.
/// assert_eq!(
///     verdicts(&english),
///     ["solid", "cold starts — judge the p95 against your needs"]
/// );
/// assert_eq!(verdicts(&chinese), ["稳定", "存在冷启动，请对照你的需求看 p95"]);
/// assert_eq!(english.models[0].verdicts[0].label, "steady");
/// # Ok::<(), firsttoken_core::planning::plan::PlanError>(())
/// ```
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn report_sentences(report: &Report, lang: Lang) -> ReportSentences {
    let said = said_of;
    let label_of = |index: u32| target_label(report, index);
    let models = report
        .models
        .iter()
        .map(|model| model_sentences(lang, report, model))
        .collect();
    let targets = &report.targets;
    ReportSentences {
        models,
        periods: targets
            .iter()
            .filter_map(|t| {
                let comparison = t.time_of_day.compare_periods()?;
                Some(said(t, period_sentence(lang, &comparison)))
            })
            .collect(),
        first_try: targets
            .iter()
            .filter_map(|t| t.status.as_ref().map(|s| said(t, status_sentence(lang, s))))
            .collect(),
        rate_limits: targets
            .iter()
            .filter_map(|t| {
                let headers = t.status.as_ref()?.last_rate_limit.as_ref()?;
                Some(said(t, rate_limit_text(lang, headers)?))
            })
            .collect(),
        streams: targets
            .iter()
            .filter_map(|t| t.stream.map(|s| said(t, stream_sentence(lang, &s))))
            .collect(),
        costs: targets
            .iter()
            .filter_map(|t| t.cost.map(|c| said(t, cost_sentence(lang, &c))))
            .collect(),
        idle: targets
            .iter()
            .flat_map(|t| {
                t.idle
                    .iter()
                    .flat_map(|idle| crate::narrative::idle::idle_sentences(lang, idle))
                    .map(|text| said(t, text))
            })
            .collect(),
        idle_settings: targets
            .iter()
            .flat_map(|t| {
                t.idle
                    .iter()
                    .flat_map(|idle| crate::narrative::idle::idle_settings(lang, idle))
                    .map(|text| said(t, text))
            })
            .collect(),
        fidelity: report
            .fidelity
            .iter()
            .flat_map(|fidelity| {
                let reference = fidelity.reference.map(label_of);
                let rejected = fidelity.rejected_reference.and_then(|r| {
                    let figures = fidelity.targets.get(r as usize)?;
                    let target = targets.get(r as usize)?;
                    Some(said(
                        target,
                        crate::narrative::fidelity::rejected_reference_sentence(
                            lang,
                            &figures.pass,
                        ),
                    ))
                });
                rejected
                    .into_iter()
                    .chain(fidelity.targets.iter().filter_map(move |figures| {
                        let target = targets.get(figures.target as usize)?;
                        Some(said(
                            target,
                            crate::narrative::fidelity::fidelity_sentence(
                                lang,
                                figures,
                                reference.as_deref(),
                            ),
                        ))
                    }))
            })
            .collect(),
        population: population_sentence(lang, report.population, report.typical_prompt_tokens),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgement::cost::{CostFigures, PlanCost};
    use crate::judgement::delivery::{StatusFigures, StreamFigures};
    use crate::judgement::settings::{Goodput, TimeoutAdvice};
    use crate::narrative::cost::plan_cost_sentence;
    use crate::statistics::bootstrap::Interval;
    use crate::words::format::{
        at_least, format_ms, format_pct, format_ratio, format_usd, interval_ms,
    };

    #[test]
    fn status_stream_and_cost_sentences_in_both_languages() {
        use crate::wire::ratelimit::{RateLimitHeaders, StatusCounts};
        let status = StatusFigures {
            requests: 75,
            counts: StatusCounts {
                ok: 72,
                rate_limited: 3,
                ..StatusCounts::default()
            },
            first_try_success: 72,
            first_try_interval: (0.89, 0.99),
            rate_limited_interval: (0.01, 0.11),
            retry_after_count: 3,
            retry_after_median_s: Some(7.0),
            retry_after_max_s: Some(20.0),
            rate_limit_hidden: 0,
            last_rate_limit: Some(RateLimitHeaders {
                remaining_requests: Some("0".to_owned()),
                reset_requests: Some("6m0s".to_owned()),
                headers_visible: true,
                ..RateLimitHeaders::default()
            }),
            unreached: 0,
        };
        assert_eq!(
            status_sentence(Lang::En, &status),
            "72 of 75 succeeded on the first try (96 %, 89–99 %), without retries; 429 (rate \
             limited): 3 (4 %, 1–11 %), Retry-After 7 s (median of 3), at most 20 s; other \
             4xx 0, 5xx 0, no status 0."
        );
        assert!(status_sentence(Lang::ZhCn, &status).starts_with("75 个请求中 72 个首次即成功"));
        let headers = status.last_rate_limit.as_ref().unwrap();
        assert_eq!(
            rate_limit_text(Lang::En, headers).unwrap(),
            "The last 429's headers: requests: 0 left, reset 6m0s."
        );
        assert_eq!(
            rate_limit_text(Lang::ZhCn, headers).unwrap(),
            "最后一次 429 的响应头：请求：剩余 0，重置 6m0s。"
        );
        let hidden = StatusFigures {
            rate_limit_hidden: 2,
            ..status.clone()
        };
        assert!(
            status_sentence(Lang::En, &hidden)
                .contains("2 429s: the provider does not let scripts read")
        );
        // Requests that never reached the provider are said apart from
        // its answers.
        let unreached = StatusFigures {
            counts: StatusCounts {
                no_status: 3,
                ..status.counts
            },
            unreached: 2,
            ..status.clone()
        };
        assert!(status_sentence(Lang::En, &unreached).ends_with(
            "no status 3 (2 of them never reached the provider: this client could not \
             connect, or the browser got no answer)."
        ));
        assert!(
            status_sentence(Lang::ZhCn, &unreached)
                .contains("无状态码 3 个（其中 2 个未到达服务商")
        );

        let stream = StreamFigures {
            requests: 75,
            stalled: 1,
            stall_interval: (0.002, 0.072),
            gap_p95_median_ms: Some(21.0),
            gap_p95_p95_ms: Some(42.0),
            max_gap_ms: Some(2_520.0),
            buffered: 0,
        };
        assert_eq!(
            stream_sentence(Lang::En, &stream),
            "stalls (a gap over 2 s) in 1 of 75 replies (1 %, 0–7 %); per-reply p95 gap: \
             median 21 ms, p95 42 ms; longest gap 2.52 s; 0 of 75 replies came all at once \
             (buffered)."
        );
        assert!(stream_sentence(Lang::ZhCn, &stream).contains("最长间隔 2.52 秒"));

        let cost = CostFigures {
            run_usd: 0.0312,
            per_success_usd: Some(0.000_41),
            charged: 77,
            successes: 75,
            estimated: true,
        };
        assert_eq!(
            cost_sentence(Lang::En, &cost),
            "$0.00041 per successful request; $0.031 for the run (77 charged requests, warm-ups \
             included); some token counts were estimated, not the provider's"
        );
        assert!(cost_sentence(Lang::ZhCn, &cost).starts_with("每个成功请求 $0.00041"));
        let plan = PlanCost {
            at_most_usd: 0.04,
            requests: 300,
            unpriced_targets: 0,
        };
        assert_eq!(
            plan_cost_sentence(Lang::En, &plan),
            "At most about $0.040 for 300 requests at the prices in the plan (every reply at max \
             tokens)."
        );
    }

    #[test]
    fn dollars_have_two_significant_digits_below_one() {
        assert_eq!(format_usd(0.0), "$0");
        assert_eq!(format_usd(1.234), "$1.23");
        assert_eq!(format_usd(0.0423), "$0.042");
        assert_eq!(format_usd(0.000_414), "$0.00041");
        assert_eq!(format_usd(0.5), "$0.50");
    }

    #[test]
    fn durations_percentages_and_ratios() {
        assert_eq!(format_ms(Lang::En, 849.6), "850 ms");
        assert_eq!(format_ms(Lang::En, 1235.0), "1.24 s");
        assert_eq!(format_ms(Lang::ZhCn, 12_345.0), "12.3 秒");
        assert_eq!(format_ms(Lang::En, f64::NAN), "–");
        assert_eq!(format_pct(541.2), "541 %");
        assert_eq!(format_pct(4.25), "4.2 %");
        assert_eq!(format_ratio(34.2), "34×");
        assert_eq!(format_ratio(9.96), "10×");
        assert_eq!(format_ratio(2.46), "2.5×");
        assert_eq!(at_least(true), "≥ ");
        assert_eq!(at_least(false), "");
        let bounded = Interval {
            low: 420.0,
            high: 560.0,
        };
        assert_eq!(interval_ms(Lang::En, &bounded), "420 ms–560 ms");
        let open = Interval {
            low: 420.0,
            high: f64::INFINITY,
        };
        assert_eq!(interval_ms(Lang::ZhCn, &open), "≥ 420 毫秒");
    }

    #[test]
    fn timeout_and_goodput_sentences() {
        let advice = TimeoutAdvice::Recommended {
            quantile: 0.99,
            bound_ms: 2_800.0,
            timeout_ms: 4_200.0,
            would_cut: 0,
            of: 300,
        };
        assert_eq!(
            timeout_sentence(Lang::En, &advice),
            "4.2 s (the 95 % upper bound of the p99, 2.8 s, × 1.5); it would have cut 0 of this run's 300 requests"
        );
        // Too few for the p99: what 75 requests support (the p95's bound
        // with its confidence) and what more would add, never only "needs
        // at least 299 requests".
        let mut ranked: Vec<f64> = (0..74).map(|i| 400.0 + f64::from(i)).collect();
        ranked.push(6_800.0);
        let advice_75 = crate::judgement::settings::recommended_timeout(&ranked, 0, 120_000.0);
        assert_eq!(
            timeout_sentence(Lang::En, &advice_75),
            "75 requests bound the p95: at most 6.8 s (95 % confidence), so 1.5× it, 10.2 s, \
             would have cut 0 of them; up to 1 in 20 requests may still be slower than 6.8 s. \
             The p99, a timeout's usual basis, needs 299 requests (224 more)"
        );
        let zh = timeout_sentence(Lang::ZhCn, &advice_75);
        assert!(
            zh.starts_with("75 个请求可以给出 p95 的上限：在 95 % 置信度下不超过 6.8 秒")
                && zh.ends_with("p99 需要 299 个请求（还差 224 个）"),
            "{zh}"
        );
        crate::base::lang::assert_no_english_left(&zh, &["p95", "p99"]);
        // A p95 bound on a timeout, and too few for any bound.
        let censored = crate::judgement::settings::recommended_timeout(&ranked, 1, 6_800.0);
        assert!(
            timeout_sentence(Lang::En, &censored)
                .starts_with("75 requests put the p95 at or above the plan's timeout"),
        );
        assert_eq!(
            timeout_sentence(
                Lang::En,
                &crate::judgement::settings::recommended_timeout(&ranked[..20], 0, 120_000.0)
            ),
            "too few requests for any bound: the p90 needs 29, the p99 299 (this target has 20)"
        );
        assert!(timeout_sentence(Lang::ZhCn, &advice).contains("截断 0 个"));
        let goodput = Goodput {
            budget_ms: 1_000.0,
            within: 97,
            of: 100,
            interval: crate::statistics::binomial::wilson(97, 100),
        };
        assert_eq!(
            goodput_sentence(Lang::En, &goodput),
            "97 % within 1 s (92–99 %), 97 of 100 requests"
        );
    }
}
