//! The sentences about a whole report (tail, slow share, intervals and
//! distinctions, timeouts, goodput, periods, first try and rate limits,
//! stream, cost), which read the report's types. Both adapters print them,
//! so the page and `firsttoken report` say the same thing about the same
//! file; the numbers in them come from [`crate::words::format`].

use crate::base::lang::Lang;
use crate::words::format::{format_duration, format_ms, format_ratio, format_usd, interval_ms};

use crate::judgement::compare::{Apart, Consistency, ModelComparison, contends, told_apart};
use crate::judgement::cost::{CostFigures, PlanCost};
use crate::judgement::delivery::{StatusFigures, StreamFigures};
use crate::judgement::population::Population;
use crate::judgement::report::{Report, SizeJudgement, TargetReport};
use crate::judgement::settings::{
    Goodput, LowerBound, TIMEOUT_MARGIN, TimeoutAdvice, requests_needed,
};
use crate::judgement::slow::{SLOW_MULTIPLE, SlowShare, one_in};
use crate::judgement::tail::ColdTail;
use crate::judgement::timeofday::PeriodComparison;
use crate::judgement::verdict::Verdict;
use crate::statistics::bootstrap::Distinction;
use crate::statistics::dependence::Resampling;
use crate::wire::ratelimit::RateLimitHeaders;
use crate::wire::stream_shape::STALL_MS;

/// Widest ratio of a slow share's "1 in N" ends that is said as a range:
/// beyond it ("1 in 14 to 1 in 2963") the rare end says nothing a reader
/// can use, and only the frequent end is said.
const PLAIN_RANGE_SPAN: u64 = 10;

/// The slow-request sentence of one target: how many requests were slower
/// than 3× the warm median, the exact interval of that share as "1 in N",
/// p95 over the median, and the p95 of the warm requests alone.
///
/// "4 of 75 requests slower than 1.24 s (3× the warm median), 1 in 8 to
/// 1 in 68; p95 is 14× the median; warm-only p95 450 ms."
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn slow_sentence(lang: Lang, slow: &SlowShare, p95_median_ratio: Option<f64>) -> String {
    let threshold = format_ms(lang, slow.threshold_ms);
    let multiple = format!("{SLOW_MULTIPLE:.0}");
    let (low, high) = slow.share_ci;
    // The share's high end is the smaller N ("1 in 8"), its low end the
    // larger ("1 in 68"). A range whose ends are more than
    // `PLAIN_RANGE_SPAN` apart ("1 in 14 to 1 in 2963", from 1 of 75) says
    // nothing the count does not: only how often it may be at most is
    // said, as for none.
    let (most, least) = (one_in(high), one_in(low));
    let least = least.filter(|&least| most.is_some_and(|most| least <= most * PLAIN_RANGE_SPAN));
    let mut sentence = match (lang, slow.slow, most, least) {
        (Lang::En, 0, Some(most), _) => format!(
            "0 of {} requests slower than {threshold} ({multiple}× the warm median); at most 1 in {most}",
            slow.of
        ),
        (Lang::En, count, Some(most), Some(least)) => format!(
            "{count} of {} requests slower than {threshold} ({multiple}× the warm median), 1 in {most} to 1 in {least}",
            slow.of
        ),
        (Lang::En, count, Some(most), None) => format!(
            "{count} of {} requests slower than {threshold} ({multiple}× the warm median); as often as 1 in {most}",
            slow.of
        ),
        (Lang::En, count, _, _) => format!(
            "{count} of {} requests slower than {threshold} ({multiple}× the warm median)",
            slow.of
        ),
        (Lang::ZhCn, 0, Some(most), _) => format!(
            "{} 个请求中没有慢于 {threshold}（热请求中位数的 {multiple} 倍）的；最多约每 {most} 个中 1 个",
            slow.of
        ),
        (Lang::ZhCn, count, Some(most), Some(least)) => format!(
            "{} 个请求中有 {count} 个慢于 {threshold}（热请求中位数的 {multiple} 倍），约每 {most} 到 {least} 个中 1 个",
            slow.of
        ),
        (Lang::ZhCn, count, Some(most), None) => format!(
            "{} 个请求中有 {count} 个慢于 {threshold}（热请求中位数的 {multiple} 倍）；最多可能约每 {most} 个中 1 个",
            slow.of
        ),
        (Lang::ZhCn, count, _, _) => format!(
            "{} 个请求中有 {count} 个慢于 {threshold}（热请求中位数的 {multiple} 倍）",
            slow.of
        ),
    };
    if let Some(ratio) = p95_median_ratio {
        let ratio = format_ratio(ratio);
        sentence.push_str(&match lang {
            Lang::En => format!("; p95 is {ratio} the median"),
            Lang::ZhCn => format!("；p95 是中位数的 {ratio}"),
        });
    }
    if let (Some(warm_p95), true) = (slow.warm_p95_ms, slow.slow > 0) {
        let warm_p95 = format_ms(lang, warm_p95);
        sentence.push_str(&match lang {
            Lang::En => format!("; warm-only p95 {warm_p95}"),
            Lang::ZhCn => format!("；只看热请求时 p95 为 {warm_p95}"),
        });
    }
    sentence.push_str(match lang {
        Lang::En => ".",
        Lang::ZhCn => "。",
    });
    sentence
}

/// Peak against off-peak by their slow shares, with Fisher's exact test:
/// "peak hours are slower: 9 of 80 requests slow at peak against 0 of 40
/// off peak (Fisher's exact test, p = 0.028)".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn period_sentence(lang: Lang, comparison: &PeriodComparison) -> String {
    let ((peak_slow, peak_n), (off_slow, off_n)) = (comparison.peak, comparison.off_peak);
    let p = format_p(comparison.p_value);
    let peak_share = peak_slow as f64 / peak_n.max(1) as f64;
    let off_share = off_slow as f64 / off_n.max(1) as f64;
    match (lang, comparison.differs(), peak_share > off_share) {
        (Lang::En, true, true) => format!(
            "peak hours are slower: {peak_slow} of {peak_n} requests slow at peak against {off_slow} of {off_n} off peak (Fisher's exact test, {p})"
        ),
        (Lang::En, true, false) => format!(
            "off-peak hours are slower: {off_slow} of {off_n} requests slow off peak against {peak_slow} of {peak_n} at peak (Fisher's exact test, {p})"
        ),
        (Lang::En, false, _) => format!(
            "peak and off-peak: {peak_slow} of {peak_n} against {off_slow} of {off_n} requests slow, no difference these requests can show (Fisher's exact test, {p})"
        ),
        (Lang::ZhCn, true, true) => format!(
            "高峰时段更慢：高峰 {peak_n} 个请求中 {peak_slow} 个慢，非高峰 {off_n} 个中 {off_slow} 个（Fisher 精确检验，{p}）"
        ),
        (Lang::ZhCn, true, false) => format!(
            "非高峰时段更慢：非高峰 {off_n} 个请求中 {off_slow} 个慢，高峰 {peak_n} 个中 {peak_slow} 个（Fisher 精确检验，{p}）"
        ),
        (Lang::ZhCn, false, _) => format!(
            "高峰与非高峰：{peak_n} 个中 {peak_slow} 个慢，对比 {off_n} 个中 {off_slow} 个，这些请求显示不出差别（Fisher 精确检验，{p}）"
        ),
    }
}

/// The first-token timeout advice as one sentence: "4.20 s (the 95 %
/// upper bound of the p99, 2.80 s, × 1.5); it would have cut 0 of 300
/// requests", or what is missing for one.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn timeout_sentence(lang: Lang, advice: &TimeoutAdvice) -> String {
    let quantile_name = |q: f64| if q >= 0.999 { "p99.9" } else { "p99" };
    let margin = format!("{TIMEOUT_MARGIN}");
    match (lang, *advice) {
        (
            Lang::En,
            TimeoutAdvice::Recommended {
                quantile,
                bound_ms,
                timeout_ms,
                would_cut,
                of,
            },
        ) => format!(
            "{} (the 95 % upper bound of the {}, {}, × {margin}); it would have cut {would_cut} of this run's {of} requests",
            format_ms(lang, timeout_ms),
            quantile_name(quantile),
            format_ms(lang, bound_ms)
        ),
        (
            Lang::ZhCn,
            TimeoutAdvice::Recommended {
                quantile,
                bound_ms,
                timeout_ms,
                would_cut,
                of,
            },
        ) => format!(
            "{}（{} 的 95 % 置信上限 {} × {margin}）；本次 {of} 个请求中它会截断 {would_cut} 个",
            format_ms(lang, timeout_ms),
            quantile_name(quantile),
            format_ms(lang, bound_ms)
        ),
        (
            Lang::En,
            TimeoutAdvice::AtLeastPlanTimeout {
                quantile,
                plan_timeout_ms,
            },
        ) => format!(
            "more than the plan's {} timeout: the {} reaches requests that timed out; raise the timeout and measure again",
            format_ms(lang, plan_timeout_ms),
            quantile_name(quantile)
        ),
        (
            Lang::ZhCn,
            TimeoutAdvice::AtLeastPlanTimeout {
                quantile,
                plan_timeout_ms,
            },
        ) => format!(
            "超过计划的 {} 超时：{} 落在超时的请求上；请调高超时后重新测量",
            format_ms(lang, plan_timeout_ms),
            quantile_name(quantile)
        ),
        (
            lang,
            TimeoutAdvice::NeedsRequests {
                needed,
                have,
                lower,
            },
        ) => lower_bound_sentence(lang, needed, have, lower),
    }
}

/// What requests too few for the p99's bound can support, and what more
/// would add: "75 requests bound the p95: at most 6.8 s (95 % confidence),
/// so 1.5× it, 10.2 s, would have cut 0 of them; up to 1 in 20 requests
/// may still be slower than 6.8 s. The p99, a timeout's usual basis, needs
/// 299 requests (224 more)".
#[cfg_attr(target_arch = "wasm32", inline)]
fn lower_bound_sentence(
    lang: Lang,
    needed: usize,
    have: usize,
    lower: Option<LowerBound>,
) -> String {
    let more = needed.saturating_sub(have);
    let margin = format!("{TIMEOUT_MARGIN}");
    let Some(lower) = lower else {
        let p90 = requests_needed(0.90);
        return match lang {
            Lang::En => format!(
                "too few requests for any bound: the p90 needs {p90}, the p99 {needed} (this target has {have})"
            ),
            Lang::ZhCn => format!(
                "请求太少，给不出任何上限：p90 需要 {p90} 个，p99 需要 {needed} 个（这个目标只有 {have} 个）"
            ),
        };
    };
    let percent = lower.quantile * 100.0;
    let one_in = (1.0 / (1.0 - lower.quantile)).round();
    match (lang, lower.bound_ms, lower.timeout_ms) {
        (Lang::En, Some(bound), Some(timeout)) => format!(
            "{have} requests bound the p{percent:.0}: at most {} (95 % confidence), so {margin}× it, {}, would have cut {} of them; up to 1 in {one_in:.0} requests may still be slower than {}. The p99, a timeout's usual basis, needs {needed} requests ({more} more)",
            format_ms(lang, bound),
            format_ms(lang, timeout),
            lower.would_cut,
            format_ms(lang, bound),
        ),
        (Lang::ZhCn, Some(bound), Some(timeout)) => format!(
            "{have} 个请求可以给出 p{percent:.0} 的上限：在 95 % 置信度下不超过 {}，其 {margin} 倍 {} 在这些请求中会截断 {} 个；但仍可能有多达约每 {one_in:.0} 个请求中 1 个慢于 {}。作为超时常用依据的 p99 需要 {needed} 个请求（还差 {more} 个）",
            format_ms(lang, bound),
            format_ms(lang, timeout),
            lower.would_cut,
            format_ms(lang, bound),
        ),
        (Lang::En, _, _) => format!(
            "{have} requests put the p{percent:.0} at or above the plan's timeout: raise the timeout and measure again. The p99, a timeout's usual basis, needs {needed} requests ({more} more)"
        ),
        (Lang::ZhCn, _, _) => format!(
            "{have} 个请求显示 p{percent:.0} 已达到或超过计划的超时：请调高超时后重新测量。作为超时常用依据的 p99 需要 {needed} 个请求（还差 {more} 个）"
        ),
    }
}

/// "5.2 s–6.8 s", or one figure when the tail's requests round alike.
#[cfg_attr(target_arch = "wasm32", inline)]
fn tail_range(lang: Lang, tail: &ColdTail) -> String {
    let (min, max) = (format_ms(lang, tail.min_ms), format_ms(lang, tail.max_ms));
    if min == max {
        min
    } else {
        format!("{min}–{max}")
    }
}

/// [`tail_sentence`] for one target of a report. When no separate tail
/// was found, a target with slow requests says how many instead of "no
/// separate slow tail", which beside a "cold starts" verdict (or a target
/// named for its cold starts) reads as a contradiction: "1 of 75 requests
/// over 1.62 s (3× the warm median): a single slow request, too few to
/// measure a cold-start tail (how often, how long)". A cold-starts verdict
/// with no slow request says the spread is broad.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn target_tail_sentence(lang: Lang, target: &TargetReport) -> String {
    let plain = tail_sentence(lang, target.cold_tail.as_ref(), target.ttft.is_some());
    let cold_verdict = target.verdict.is_some_and(|v| v >= Verdict::ColdStarts);
    let (Some(slow), None) = (target.slow, target.cold_tail) else {
        return plain;
    };
    let threshold = format_ms(lang, slow.threshold_ms);
    let multiple = format!("{SLOW_MULTIPLE:.0}");
    let (k, n) = (slow.slow, slow.of);
    match (lang, k) {
        (_, 0) if !cold_verdict => plain,
        (Lang::En, 0) => format!(
            "{plain}: the spread is broad rather than a separate slow group; no request over {threshold} ({multiple}× the warm median)"
        ),
        (Lang::En, 1) => format!(
            "1 of {n} requests over {threshold} ({multiple}× the warm median): a single slow request, too few to measure a cold-start tail (how often, how long)"
        ),
        (Lang::En, _) => format!(
            "{k} of {n} requests over {threshold} ({multiple}× the warm median), not a group apart from the rest: no cold-start tail to measure (how often, how long)"
        ),
        (Lang::ZhCn, 0) => format!(
            "{plain}：整体分布较宽，而不是单独的一组慢请求；没有请求超过 {threshold}（热请求中位数的 {multiple} 倍）"
        ),
        (Lang::ZhCn, 1) => format!(
            "{n} 个请求中有 1 个超过 {threshold}（热请求中位数的 {multiple} 倍）：只有一个慢请求，不足以测出冷启动长尾（多常出现、持续多久）"
        ),
        (Lang::ZhCn, _) => format!(
            "{n} 个请求中有 {k} 个超过 {threshold}（热请求中位数的 {multiple} 倍），但没有与其余请求分开成组：测不出冷启动长尾（多常出现、持续多久）"
        ),
    }
}

/// The cold-start tail of a target as both adapters say it: "4 of 75
/// requests, about 1 in 19, took 5.2 s–6.8 s (median 6.1 s); without them
/// the median is 412 ms and the p95 650 ms." `has_ttft` says whether the
/// target has any ranked request (else "no data").
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn tail_sentence(lang: Lang, tail: Option<&ColdTail>, has_ttft: bool) -> String {
    match (tail, lang) {
        // One slow request has no range and no median of its own.
        (Some(tail), Lang::En) if tail.count == 1 => format!(
            "1 of {} requests took {}; without it the median is {} and the p95 {}.",
            tail.of,
            format_ms(lang, tail.max_ms),
            format_ms(lang, tail.warm.median),
            format_ms(lang, tail.warm.p95),
        ),
        (Some(tail), Lang::ZhCn) if tail.count == 1 => format!(
            "{} 个请求中有 1 个用时 {}；去掉它后中位数为 {}，p95 为 {}。",
            tail.of,
            format_ms(lang, tail.max_ms),
            format_ms(lang, tail.warm.median),
            format_ms(lang, tail.warm.p95),
        ),
        (Some(tail), Lang::En) => format!(
            "{} of {} requests, about 1 in {}, took {} (median {}); without them the median is {} \
             and the p95 {}.",
            tail.count,
            tail.of,
            tail.one_in,
            tail_range(lang, tail),
            format_ms(lang, tail.median_ms),
            format_ms(lang, tail.warm.median),
            format_ms(lang, tail.warm.p95),
        ),
        (Some(tail), Lang::ZhCn) => format!(
            "{} 个请求中有 {} 个（约每 {} 个中 1 个）用时 {}（中位数 {}）；去掉它们后中位数为 {}，p95 为 {}。",
            tail.of,
            tail.count,
            tail.one_in,
            tail_range(lang, tail),
            format_ms(lang, tail.median_ms),
            format_ms(lang, tail.warm.median),
            format_ms(lang, tail.warm.p95),
        ),
        (None, Lang::En) if has_ttft => "no separate slow tail".to_owned(),
        (None, Lang::ZhCn) if has_ttft => "没有单独的慢速长尾".to_owned(),
        (None, Lang::En) => "no data".to_owned(),
        (None, Lang::ZhCn) => "无数据".to_owned(),
    }
}

/// How an interval was found, in words: "order statistics of independent
/// requests" or "batch means of consecutive requests, blocks of 28".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn resampling_text(lang: Lang, method: Resampling) -> String {
    match (lang, method) {
        (Lang::En, Resampling::Iid) => "order statistics of independent requests".into(),
        (Lang::En, Resampling::Block { length }) => {
            format!("batch means of consecutive requests, blocks of {length}")
        }
        (Lang::ZhCn, Resampling::Iid) => "按独立请求的次序统计量".into(),
        (Lang::ZhCn, Resampling::Block { length }) => {
            format!("按连续请求的批均值（每块 {length} 个）")
        }
    }
}

/// The best target of `model` against each other target that contends for
/// the pick, by the very rule that decides the route's ties
/// ([`told_apart`]), so that this line, the best-provider line and the
/// routing JSON's `distinguishable` always agree: "A is better than B (p95,
/// 95 % intervals: 412 ms–455 ms, order statistics of independent requests
/// / …)"; "A and B differ in their share of slow requests (0 of 75 against
/// 6 of 75; Fisher's exact test, p = 0.028); p95, 95 % intervals: …"; "A and
/// B differ in their medians (…)"; or "A and B are not distinguishable with
/// this many samples (…)". Nothing when the model has no pick. Both
/// adapters print these lines under each model.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn distinction_sentences(
    lang: Lang,
    report: &Report,
    model: &ModelComparison,
) -> Vec<String> {
    let target = |i: u32| report.targets.get(i as usize);
    let Some(first_row) = model.rows.first().filter(|_| model.best.is_some()) else {
        return Vec::new();
    };
    let Some(first) = target(first_row.figures.target) else {
        return Vec::new();
    };
    let Some(first_ci) = first.intervals.as_ref() else {
        return Vec::new();
    };
    model
        .rows
        .iter()
        .skip(1)
        .filter(|row| contends(row))
        .filter_map(|row| {
            let other = target(row.figures.target)?;
            let other_ci = other.intervals.as_ref()?;
            let (a, b) = (&first.label, &other.label);
            let p95s = (
                (
                    interval_ms(lang, &first_ci.p95_ms),
                    resampling_text(lang, first_ci.method),
                ),
                (
                    interval_ms(lang, &other_ci.p95_ms),
                    resampling_text(lang, other_ci.method),
                ),
            );
            let ((first_p95, first_method), (other_p95, other_method)) = p95s;
            let p95_note = match lang {
                Lang::En => format!(
                    "p95, 95 % intervals: {first_p95}, {first_method} / {other_p95}, {other_method}"
                ),
                Lang::ZhCn => format!(
                    "p95 的 95 % 置信区间：{first_p95}，{first_method} / {other_p95}，{other_method}"
                ),
            };
            let medians = (
                interval_ms(lang, &first_ci.median_ms),
                interval_ms(lang, &other_ci.median_ms),
            );
            let counts = (
                (first_row.slow, first_row.figures.ttft_sorted_ms.len()),
                (row.slow, row.figures.ttft_sorted_ms.len()),
            );
            Some(match (told_apart(first_row, row), lang) {
                (None | Some(Apart::P95), _) => {
                    let verdict = Distinction::lower_is_better(&first_ci.p95_ms, &other_ci.p95_ms);
                    match lang {
                        Lang::En => format!("{} ({p95_note})", verdict.text(a, b, lang)),
                        Lang::ZhCn => format!("{}（{p95_note}）", verdict.text(a, b, lang)),
                    }
                }
                (Some(Apart::SlowShare { p_value }), Lang::En) => {
                    let (((ka, na), (kb, nb)), p) = (counts, format_p(p_value));
                    format!(
                        "{a} and {b} differ in their share of slow requests ({ka} of {na} against {kb} of {nb}; Fisher's exact test, {p}); {p95_note}"
                    )
                }
                (Some(Apart::SlowShare { p_value }), Lang::ZhCn) => {
                    let (((ka, na), (kb, nb)), p) = (counts, format_p(p_value));
                    format!(
                        "{a} 与 {b} 的慢请求占比不同（{na} 个中 {ka} 个，对比 {nb} 个中 {kb} 个；Fisher 精确检验，{p}）；{p95_note}"
                    )
                }
                (Some(Apart::Median), Lang::En) => format!(
                    "{a} and {b} differ in their medians (95 % intervals: {} / {}), not in their p95s ({p95_note})",
                    medians.0, medians.1
                ),
                (Some(Apart::Median), Lang::ZhCn) => format!(
                    "{a} 与 {b} 的中位数不同（95 % 置信区间：{} / {}），p95 则无法区分（{p95_note}）",
                    medians.0, medians.1
                ),
                (Some(Apart::Typical), Lang::En) => format!(
                    "{a} and {b} differ in the TTFT predicted at the typical prompt size (their 95 % intervals do not overlap); {p95_note}"
                ),
                (Some(Apart::Typical), Lang::ZhCn) => format!(
                    "{a} 与 {b} 在典型提示词长度下预测的 TTFT 不同（95 % 置信区间不重叠）；{p95_note}"
                ),
            })
        })
        .collect()
}

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

/// Goodput as one sentence: "97 % within 1 s (92–99 %), 97 of 100
/// requests".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn goodput_sentence(lang: Lang, goodput: &Goodput) -> String {
    let pct = |share: f64| format!("{:.0}", share * 100.0);
    let (share, low, high) = (
        pct(goodput.share()),
        pct(goodput.interval.0),
        pct(goodput.interval.1),
    );
    let budget = format_ms(lang, goodput.budget_ms);
    let (within, of) = (goodput.within, goodput.of);
    match lang {
        Lang::En => {
            format!("{share} % within {budget} ({low}–{high} %), {within} of {of} requests")
        }
        Lang::ZhCn => {
            format!("{share} % 在 {budget} 内（{low}–{high} %），{of} 个请求中 {within} 个")
        }
    }
}

/// The best provider as both adapters name it: "A", or "A (not
/// distinguishable from B, C with these requests)" when the routing pick
/// is a tie.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn best_provider_text(lang: Lang, best: &str, tied: &[String]) -> String {
    if tied.is_empty() {
        return best.to_owned();
    }
    let others = tied.join(", ");
    match lang {
        Lang::En => format!("{best} (not distinguishable from {others} with these requests)"),
        Lang::ZhCn => format!("{best}（以当前请求数无法与 {others} 区分）"),
    }
}

/// Which requests the headline figures come from, for a run with prompt
/// sizes: "Prompt sizes: every provider's figures are the first sends at
/// 128 tokens, the smallest size …". `None` for the plan's own prompt, where
/// the headline is every measured request and needs no note.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn population_sentence(
    lang: Lang,
    population: Population,
    typical_prompt_tokens: Option<u32>,
) -> Option<String> {
    let size = population.size()?;
    let tokens = crate::words::format::grouped(u64::from(size));
    Some(match (lang, typical_prompt_tokens) {
        (Lang::En, Some(typical)) => format!(
            "Prompt sizes: every provider's figures are the first sends at {tokens} tokens, the \
             measured size nearest your typical {} tokens; each size is judged on its own, never pooled \
             with another, and cache repeats and probes are left out.",
            crate::words::format::grouped(u64::from(typical))
        ),
        (Lang::En, None) => format!(
            "Prompt sizes: every provider's figures are the first sends at {tokens} tokens, the \
             smallest size; each size is judged on its own, never pooled with another, and cache repeats \
             and probes are left out."
        ),
        (Lang::ZhCn, Some(typical)) => format!(
            "提示词长度：各服务商的数字都来自 {tokens} Token 的首次发送，这是最接近你的典型长度（{} Token）的已测长度；\
             每个长度单独评判，从不与其他长度混合，缓存重复请求和探测请求不计入。",
            crate::words::format::grouped(u64::from(typical))
        ),
        (Lang::ZhCn, None) => format!(
            "提示词长度：各服务商的数字都来自 {tokens} Token 的首次发送，这是最小的长度；\
             每个长度单独评判，从不与其他长度混合，缓存重复请求和探测请求不计入。"
        ),
    })
}

/// What a chart's title adds to name its population in a run with prompt
/// sizes: " — first sends at 128 tokens"; `None` for the plan's prompt.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn population_suffix(lang: Lang, population: Population) -> Option<String> {
    let tokens = crate::words::format::grouped(u64::from(population.size()?));
    Some(match lang {
        Lang::En => format!(" — first sends at {tokens} tokens"),
        Lang::ZhCn => format!("——{tokens} Token 的首次发送"),
    })
}

/// One target's verdict at every prompt size, each size judged on its
/// own first sends: "solid at every size", or "solid at 128 and 2 048
/// tokens; cold starts at 16 384 tokens". `None` without sizes.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn by_size_sentence(lang: Lang, by_size: &[SizeJudgement]) -> Option<String> {
    if by_size.is_empty() {
        return None;
    }
    let label = |size: &SizeJudgement| size.judgement.finished_label(lang, true);
    let first = label(&by_size[0]);
    if by_size.len() > 1 && by_size.iter().all(|size| label(size) == first) {
        return Some(match lang {
            Lang::En => format!("{first} at every size"),
            Lang::ZhCn => format!("每个长度均为{first}"),
        });
    }
    // Sizes with the same label together, in the order labels first come.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for size in by_size {
        let tokens = crate::words::format::grouped(u64::from(size.tokens));
        let name = label(size);
        match groups.iter_mut().find(|(existing, _)| *existing == name) {
            Some((_, sizes)) => sizes.push(tokens),
            None => groups.push((name, vec![tokens])),
        }
    }
    let parts: Vec<String> = groups
        .into_iter()
        .map(|(name, sizes)| match lang {
            Lang::En => {
                let list = match sizes.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} and {last}", rest.join(", "))
                    }
                    _ => sizes.join(""),
                };
                format!("{name} at {list} tokens")
            }
            Lang::ZhCn => format!("{} Token：{name}", sizes.join("、")),
        })
        .collect();
    Some(match lang {
        Lang::En => parts.join("; "),
        Lang::ZhCn => parts.join("；"),
    })
}

/// The fidelity caveat of the best provider `best`, when the run checked
/// fidelity against a reference and the pick's answers differ or the
/// check is inconclusive ([`routing::best_note`]).
#[cfg_attr(target_arch = "wasm32", inline)]
fn best_fidelity_note(report: &Report, lang: Lang, best: u32) -> Option<String> {
    let reference = report.fidelity_reference()?;
    crate::judgement::routing_words::best_note(lang, report.fidelity_verdict(best)?, reference)
}

/// A whole-percent share and its interval: ("96", "90", "98").
#[cfg_attr(target_arch = "wasm32", inline)]
fn share_parts(k: usize, n: usize, interval: (f64, f64)) -> (String, String, String) {
    let pct = |share: f64| format!("{:.0}", share * 100.0);
    let share = if n == 0 { 0.0 } else { k as f64 / n as f64 };
    (pct(share), pct(interval.0), pct(interval.1))
}

/// Seconds as a `Retry-After` says them: "7 s", "0.5 s".
#[cfg_attr(target_arch = "wasm32", inline)]
fn format_seconds(lang: Lang, seconds: f64) -> String {
    format_ms(lang, seconds * 1000.0)
}

/// First-try success, the 429 share and what `Retry-After` said, as one
/// sentence: "72 of 75 succeeded on the first try (96 %, 89–99 %), without
/// retries; 429 (rate limited): 3 (4 %, 1–11 %), Retry-After 7 s
/// (median), at most 7 s; other 4xx 0, 5xx 0, no status 0."
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn status_sentence(lang: Lang, status: &StatusFigures) -> String {
    let n = status.requests;
    let (ok, ok_low, ok_high) = share_parts(status.first_try_success, n, status.first_try_interval);
    let counts = &status.counts;
    let (limited, limited_low, limited_high) =
        share_parts(counts.rate_limited, n, status.rate_limited_interval);
    let retry = match (status.retry_after_median_s, status.retry_after_max_s) {
        (Some(median), Some(max)) => match lang {
            Lang::En => format!(
                ", Retry-After {} (median of {}), at most {}",
                format_seconds(lang, median),
                status.retry_after_count,
                format_seconds(lang, max)
            ),
            Lang::ZhCn => format!(
                "，Retry-After 中位数 {}（{} 次），最长 {}",
                format_seconds(lang, median),
                status.retry_after_count,
                format_seconds(lang, max)
            ),
        },
        _ => String::new(),
    };
    let hidden = if status.rate_limit_hidden > 0 {
        match lang {
            Lang::En => format!(
                " {} 429s: the provider does not let scripts read its rate-limit headers, so the \
                 page cannot show Retry-After (the firsttoken runner reads them).",
                status.rate_limit_hidden
            ),
            Lang::ZhCn => format!(
                " {} 次 429：服务商不允许网页脚本读取限流响应头，页面无法显示 Retry-After（firsttoken 命令行可以读取）。",
                status.rate_limit_hidden
            ),
        }
    } else {
        String::new()
    };
    let first = status.first_try_success;
    let (client, server, none) = (counts.client_error, counts.server_error, counts.no_status);
    match lang {
        Lang::En => format!(
            "{first} of {n} succeeded on the first try ({ok} %, {ok_low}–{ok_high} %), without \
             retries; 429 (rate limited): {} ({limited} %, {limited_low}–{limited_high} %){retry}; \
             other 4xx {client}, 5xx {server}, no status {none}.{hidden}",
            counts.rate_limited
        ),
        Lang::ZhCn => format!(
            "{n} 个请求中 {first} 个首次即成功（{ok} %，{ok_low}–{ok_high} %），不重试；429（限流）：{} 个\
             （{limited} %，{limited_low}–{limited_high} %）{retry}；其他 4xx {client} 个，5xx {server} 个，\
             无状态码 {none} 个。{hidden}",
            counts.rate_limited
        ),
    }
}

/// What the last 429's rate-limit headers said, values as the provider
/// sent them: "requests: 0 left, reset 7s; tokens: 0 left"; `None` when
/// they said nothing.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn rate_limit_text(lang: Lang, headers: &RateLimitHeaders) -> Option<String> {
    let (requests, tokens, reset_word, separator, colon) = match lang {
        Lang::En => ("requests", "tokens", "reset", ", ", ": "),
        Lang::ZhCn => ("请求", "令牌", "重置", "，", "："),
    };
    let mut parts = Vec::new();
    for (what, remaining, reset) in [
        (
            requests,
            &headers.remaining_requests,
            &headers.reset_requests,
        ),
        (tokens, &headers.remaining_tokens, &headers.reset_tokens),
    ] {
        let mut part = Vec::new();
        if let Some(remaining) = remaining {
            part.push(match lang {
                Lang::En => format!("{remaining} left"),
                Lang::ZhCn => format!("剩余 {remaining}"),
            });
        }
        if let Some(reset) = reset {
            part.push(format!("{reset_word} {reset}"));
        }
        if !part.is_empty() {
            parts.push(format!("{what}{colon}{}", part.join(separator)));
        }
    }
    if let Some(at) = &headers.retry_after_date {
        parts.push(format!("Retry-After {at}"));
    }
    (!parts.is_empty()).then(|| {
        let said = parts.join("; ");
        match lang {
            Lang::En => format!("The last 429's headers: {said}."),
            Lang::ZhCn => format!("最后一次 429 的响应头：{said}。"),
        }
    })
}

/// Gaps and stalls after the first token: "stalls (a gap over 2 s) in 1 of
/// 75 replies (1 %, 0–7 %); per-reply p95 gap: median 21 ms, p95 42 ms;
/// longest gap 2.52 s; 0 replies came all at once."
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn stream_sentence(lang: Lang, stream: &StreamFigures) -> String {
    let n = stream.requests;
    let (stalled, low, high) = share_parts(stream.stalled, n, stream.stall_interval);
    let ms = |value: Option<f64>| value.map_or_else(|| "–".to_owned(), |v| format_ms(lang, v));
    let stall = format_ms(lang, STALL_MS);
    let buffered = stream.buffered;
    match lang {
        Lang::En => format!(
            "stalls (a gap over {stall}) in {} of {n} replies ({stalled} %, {low}–{high} %); \
             per-reply p95 gap: median {}, p95 {}; longest gap {}; {buffered} of {n} replies came \
             all at once (buffered).",
            stream.stalled,
            ms(stream.gap_p95_median_ms),
            ms(stream.gap_p95_p95_ms),
            ms(stream.max_gap_ms)
        ),
        Lang::ZhCn => format!(
            "{n} 个回复中 {} 个出现停顿（间隔超过 {stall}）（{stalled} %，{low}–{high} %）；\
             每个回复的 p95 间隔：中位数 {}，p95 {}；最长间隔 {}；{n} 个回复中 {buffered} 个一次性到达（缓冲）。",
            stream.stalled,
            ms(stream.gap_p95_median_ms),
            ms(stream.gap_p95_p95_ms),
            ms(stream.max_gap_ms)
        ),
    }
}

/// A target's cost: "$0.00041 per successful request; $0.031 for the run
/// (77 charged requests)", with "some token counts were estimated" when
/// they were.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn cost_sentence(lang: Lang, cost: &CostFigures) -> String {
    let per = cost
        .per_success_usd
        .map_or_else(|| "–".to_owned(), format_usd);
    let run = format_usd(cost.run_usd);
    let charged = cost.charged;
    match (lang, cost.estimated) {
        (Lang::En, estimated) => format!(
            "{per} per successful request; {run} for the run ({charged} charged requests, \
             warm-ups included){}",
            if estimated {
                "; some token counts were estimated, not the provider's"
            } else {
                ""
            }
        ),
        (Lang::ZhCn, estimated) => format!(
            "每个成功请求 {per}；整次运行 {run}（{charged} 个计费请求，含预热）{}",
            if estimated {
                "；部分令牌数为估算，并非服务商报告"
            } else {
                ""
            }
        ),
    }
}

/// What a plan will cost before Start: "At most about $0.04 for 300
/// requests at the prices in the plan (every reply at max tokens)."
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn plan_cost_sentence(lang: Lang, cost: &PlanCost) -> String {
    let usd = format_usd(cost.at_most_usd);
    let requests = cost.requests;
    let unpriced = cost.unpriced_targets;
    match lang {
        Lang::En => format!(
            "At most about {usd} for {requests} requests at the prices in the plan (every reply \
             at max tokens){}.",
            if unpriced > 0 {
                format!("; {unpriced} targets without a price are not counted")
            } else {
                String::new()
            }
        ),
        Lang::ZhCn => format!(
            "按计划中的价格，{requests} 个请求最多约 {usd}（按每个回复都达到最大令牌数计）{}。",
            if unpriced > 0 {
                format!("；{unpriced} 个没有价格的目标未计入")
            } else {
                String::new()
            }
        ),
    }
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

/// Most against least consistent target of a model: "A is 34× more
/// consistent than B" when their CVs' 95 % intervals do not overlap, else
/// both CVs and that these requests cannot tell them apart (a "1.0×" would
/// claim a difference the intervals do not show).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn consistency_sentence(
    lang: Lang,
    report: &Report,
    consistency: &Consistency,
) -> String {
    let target = |i: u32| report.targets.get(i as usize);
    let (most, least) = (
        target(consistency.most_consistent),
        target(consistency.least_consistent),
    );
    let label = |t: Option<&TargetReport>| t.map(|t| t.label.clone()).unwrap_or_default();
    let cv_interval = |t: Option<&TargetReport>| t.and_then(|t| t.intervals).map(|i| i.cv_pct);
    let apart = match (cv_interval(most), cv_interval(least)) {
        (Some(a), Some(b)) => !a.overlaps(&b),
        _ => false,
    };
    if apart {
        return consistency.text(&label(most), &label(least), lang);
    }
    let cv = |t: Option<&TargetReport>| t.and_then(|t| t.ttft).map_or(0.0, |s| s.cv_pct);
    Consistency::indistinct_text((&label(most), cv(most)), (&label(least), cv(least)), lang)
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
    let said = |target: &TargetReport, text: String| Said {
        target: target.target,
        label: target.label.clone(),
        text,
    };
    let label_of = |index: u32| {
        report
            .targets
            .get(index as usize)
            .map(|t| t.label.clone())
            .unwrap_or_default()
    };
    let models = report
        .models
        .iter()
        .map(|model| {
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
        })
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

/// A plan warning in the page's language. The English text is the plan
/// validator's own (with its figures); the Chinese one is said per kind.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn warning_text(
    lang: Lang,
    plan: &crate::planning::plan::Plan,
    warning: &crate::planning::plan::Warning,
) -> String {
    use crate::planning::plan::WarningKind;
    if lang == Lang::En {
        return warning.message.clone();
    }
    match warning.kind {
        WarningKind::FewRequests => format!(
            "每个目标少于 75 个请求时，冷启动长尾常常显示不出来（{} 个请求时，约每 20 个中 1 个的长尾有 {:.0} % 的概率一个样本都没有）",
            plan.requests_per_target,
            0.95_f64.powf(f64::from(plan.requests_per_target)) * 100.0
        ),
        WarningKind::NoWarmup => {
            "没有预热请求：首次请求的 DNS、TLS 和跨域预检时间会计入统计".to_owned()
        }
        WarningKind::TightSpacing => format!(
            "请求间隔只有 {} 秒：服务一直保持热状态，冷启动被掩盖，部分服务商还会限制突发请求",
            plan.effective_spacing_s()
        ),
        WarningKind::ShortTimeout => {
            format!(
                "冷启动可能持续 10–90 秒；{} 秒的超时会把慢请求记为错误而不是测量它们",
                plan.timeout_s
            )
        }
        WarningKind::NonZeroTemperature => {
            "温度为 0 时每次请求的负载相同；其他取值会让回复和耗时随之变化".to_owned()
        }
        WarningKind::SpreadOverridesSpacing => {
            "同时设置了分散小时数和请求间隔：以分散小时数为准".to_owned()
        }
        WarningKind::DuplicateLabel => "有目标名称重复，结果中将难以区分".to_owned(),
        WarningKind::MissesAPeriod => {
            let [start, end] = plan.peak_hours;
            let peak = (0..24u8)
                .filter(|&h| crate::judgement::timeofday::is_peak(h, plan.peak_hours))
                .count();
            let longer = peak.max(24 - peak);
            let hours = plan.estimated_duration_s() / 3600.0;
            let length = if hours * 60.0 < 1.0 {
                format!("{:.0} 秒", (hours * 3600.0).round().max(1.0))
            } else if hours < 1.0 {
                format!("{:.0} 分钟", (hours * 60.0).round().max(1.0))
            } else {
                format!("{hours:.1} 小时")
            };
            format!(
                "这次运行{}约 {length}，可能完全错过高峰（{start}:00–{end}:00）或非高峰时段，无法比较两者；\
                 请把运行分散到至少 {longer} 小时，才能同时覆盖两者",
                if plan.duration_is_at_least() {
                    "至少"
                } else {
                    ""
                }
            )
        }
        WarningKind::FixedPromptMayBeCached => "每次请求都用同一个提示词，可能会命中服务商的提示词缓存，\
             而命中缓存的请求首个 Token 到达的时间不同；开启“每个提示词附加随机串”后，每个请求的提示词开头会加上一段该请求独有的字符，\
             任何请求都不会命中缓存（结果中每个样本的缓存 Token 数会显示哪些命中了）"
            .to_owned(),
        WarningKind::FewRequestsPerSize
        | WarningKind::LongPromptsCost
        | WarningKind::OverContextWindow => {
            crate::narrative::prefill::warning_zh(plan, warning.kind)
        }
        WarningKind::FewRequestsPerGap => format!(
            "每个空闲时长只分到每个目标 {} 个请求中的 {} 个；每个时长少于 {} 个请求时，\
             冷启动比例的区间太宽，看不出模型在空闲多久后变冷（请增加每个目标的请求数，或减少空闲时长）",
            plan.requests_per_target,
            plan.requests_per_gap().unwrap_or(0),
            crate::planning::plan::MIN_REQUESTS_PER_GAP
        ),
        WarningKind::IdleGapsShared => format!(
            "有 {} 个目标时同一时刻只有一个请求在进行，另一个目标的请求仍在进行时，请求会等过它的空闲时长\
             （发送间隔不再推迟空闲请求）；每个样本记录实际空闲时长，并按实际空闲达到的最长间隔计入，报告会说明有多少个因此移动。\
             目标的请求越慢，最短的间隔（{}）移动越多",
            plan.targets.len(),
            plan.idle_gaps_s
                .as_deref()
                .and_then(|gaps| gaps.iter().copied().reduce(f64::min))
                .map(|gap| crate::words::format::gap_text(Lang::ZhCn, gap))
                .unwrap_or_default()
        ),
    }
}

/// How much later than planned a run ends, when slow requests moved its
/// schedule by a second or more: "4 s later than planned: slow requests
/// moved the schedule, keeping the spacing", or only "4 s later than
/// planned" when `brief` (a terminal's progress line must fit one line);
/// `None` below a second.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn schedule_shift_text(lang: Lang, shift_ms: f64, brief: bool) -> Option<String> {
    (shift_ms >= 1000.0).then(|| {
        let by = format_duration(lang, shift_ms);
        match (lang, brief) {
            (Lang::En, true) => format!("{by} later than planned"),
            (Lang::En, false) => format!(
                "{by} later than planned: slow requests moved the schedule, keeping the spacing"
            ),
            (Lang::ZhCn, true) => format!("比计划晚 {by}"),
            (Lang::ZhCn, false) => format!("比计划晚 {by}：慢请求推迟了后续安排，以保持请求间隔"),
        }
    })
}

/// The time a run has left, and how much later than planned it ends when
/// slow requests moved its schedule: "12 min", "12 min (4 s later than
/// planned)", "12 分钟（比计划晚 4 秒）". The page's run view and the
/// terminal's progress bar both show it after their "ETA".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn eta_text(lang: Lang, eta_ms: f64, shift_ms: f64, brief: bool) -> String {
    let left = format_duration(lang, eta_ms);
    match (lang, schedule_shift_text(lang, shift_ms, brief)) {
        (_, None) => left,
        (Lang::En, Some(late)) => format!("{left} ({late})"),
        (Lang::ZhCn, Some(late)) => format!("{left}（{late}）"),
    }
}

/// What the runner says when a run ends late: "the run ended 1 min 17 s
/// later than planned: slow requests moved the schedule, keeping the
/// spacing"; `None` under a second.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn run_end_shift_note(lang: Lang, shift_ms: f64) -> Option<String> {
    schedule_shift_text(lang, shift_ms, false).map(|shift| match lang {
        Lang::En => format!("the run ended {shift}"),
        Lang::ZhCn => format!("运行结束时{shift}"),
    })
}

/// A p-value said whole, with two significant digits: "p = 0.028", and
/// "p < 0.001" below a thousandth (never an equals sign before "<").
#[cfg_attr(target_arch = "wasm32", inline)]
fn format_p(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".to_owned()
    } else if p < 0.01 {
        format!("p = {p:.4}")
    } else if p < 0.1 {
        format!("p = {p:.3}")
    } else {
        format!("p = {p:.2}")
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_time_left_names_a_late_schedule_in_each_language() {
        assert_eq!(eta_text(Lang::En, 720_000.0, 0.0, true), "12 min");
        assert_eq!(
            eta_text(Lang::En, 720_000.0, 4_000.0, true),
            "12 min (4 s later than planned)"
        );
        let zh = eta_text(Lang::ZhCn, 720_000.0, 4_000.0, false);
        assert!(
            zh.starts_with("12 分钟（比计划晚 4 秒：") && zh.ends_with('）'),
            "{zh}"
        );
    }

    use super::*;
    use crate::judgement::slow::slow_share;
    use crate::statistics::bootstrap::Interval;
    use crate::words::format::{at_least, format_pct};

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
            ..status
        };
        assert!(
            status_sentence(Lang::En, &hidden)
                .contains("2 429s: the provider does not let scripts read")
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
    fn the_slow_sentence_in_both_languages() {
        let mut ranked: Vec<f64> = (0..71).map(|i| 380.0 + f64::from(i)).collect();
        ranked.extend([5_000.0, 6_000.0, 7_000.0, 120_000.0]);
        let slow = slow_share(&ranked, 0).unwrap();
        assert_eq!(
            slow_sentence(Lang::En, &slow, Some(14.2)),
            "4 of 75 requests slower than 1.24 s (3× the warm median), 1 in 8 to 1 in 68; \
             p95 is 14× the median; warm-only p95 446 ms."
        );
        assert_eq!(
            slow_sentence(Lang::ZhCn, &slow, None),
            "75 个请求中有 4 个慢于 1.24 秒（热请求中位数的 3 倍），约每 8 到 68 个中 1 个；\
             只看热请求时 p95 为 446 毫秒。"
        );
        // One slow request of 75: 1 in 14 to 1 in 2963 says nothing the
        // count does not; how often it may be is said plainly.
        let mut single: Vec<f64> = (0..74).map(|i| 380.0 + f64::from(i)).collect();
        single.push(6_000.0);
        let single = slow_share(&single, 0).unwrap();
        let en = slow_sentence(Lang::En, &single, None);
        assert_eq!(
            en,
            "1 of 75 requests slower than 1.25 s (3× the warm median); as often as 1 in 14; \
             warm-only p95 449 ms."
        );
        let zh = slow_sentence(Lang::ZhCn, &single, None);
        assert!(
            zh.contains("最多可能约每 14 个中 1 个") && !zh.contains("2963"),
            "{zh}"
        );
        let none = slow_share(&ranked[..71], 0).unwrap();
        assert_eq!(
            slow_sentence(Lang::En, &none, Some(1.1)),
            "0 of 71 requests slower than 1.25 s (3× the warm median); at most 1 in 20; \
             p95 is 1.1× the median."
        );
    }

    /// The demo's "cold starts" verdict beside "no separate slow tail" is
    /// explained: one slow request is no group of its own.
    #[test]
    fn a_cold_verdict_without_a_tail_says_why() {
        use crate::judgement::report::build_report;
        use crate::planning::plan::{Plan, Target};
        use crate::testing::fixtures::synthetic_samples;
        let plan = Plan {
            targets: vec![Target::openai("B", "https://b.example/v1", "m")],
            requests_per_target: 40,
            ..Plan::default()
        };
        let mut samples = synthetic_samples(1, 40, 0, 3);
        for (i, sample) in samples.iter_mut().enumerate() {
            sample.error = None;
            sample.ttft_ms = Some(if i == 17 {
                20_000.0
            } else {
                380.0 + 2.0 * i as f64
            });
        }
        let report = build_report(&plan, &samples, 0, 1);
        let target = &report.targets[0];
        assert!(target.cold_tail.is_none());
        assert!(target.verdict >= Some(Verdict::ColdStarts));
        let en = target_tail_sentence(Lang::En, target);
        assert_eq!(
            en,
            "1 of 40 requests over 1.25 s (3× the warm median): a single slow request, too few to measure a cold-start tail (how often, how long)"
        );
        // Beside a "cold starts" verdict it never says there is no tail.
        assert!(!en.contains("no separate slow tail"), "{en}");
        let zh = target_tail_sentence(Lang::ZhCn, target);
        assert!(
            zh.starts_with("40 个请求中有 1 个超过") && !zh.contains("没有单独的慢速长尾"),
            "{zh}"
        );
        crate::base::lang::assert_no_english_left(&zh, &[]);
        // A steady target keeps the short sentence.
        for sample in &mut samples {
            sample.ttft_ms = Some(400.0);
        }
        let steady = build_report(&plan, &samples, 0, 1);
        assert_eq!(
            target_tail_sentence(Lang::En, &steady.targets[0]),
            "no separate slow tail"
        );
    }

    /// The line comparing the best with each other target, the best
    /// provider's tie note and the routing JSON's `distinguishable` say the
    /// same thing, over seeded pairs of providers that differ in their
    /// medians, their p95s, their cold starts or not at all (the p95
    /// intervals overlapping while the medians or the slow shares differ
    /// made the line say "not distinguishable" beside a route that was).
    #[test]
    fn the_intervals_line_the_best_provider_and_the_route_agree() {
        use crate::judgement::report::build_report;
        use crate::planning::plan::{Plan, Target};
        use crate::testing::fixtures::synthetic_samples;
        let target =
            |label: &str| Target::openai(label, &format!("https://{label}.example/v1"), "m");
        let plan = Plan {
            targets: vec![target("A"), target("B")],
            requests_per_target: 75,
            ..Plan::default()
        };
        let mut rng = fastrand::Rng::with_seed(0xA6EE);
        let (mut apart, mut tied) = (0, 0);
        for _ in 0..300 {
            let shift = [1.0, 1.05, 1.15, 1.4][rng.usize(..4)];
            let cold = [0.0, 0.0, 0.04, 0.12][rng.usize(..4)];
            let mut samples = synthetic_samples(2, 75, 0, rng.u64(..));
            for sample in &mut samples {
                let (u1, u2) = (1.0 - rng.f64(), rng.f64());
                let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                let median = if sample.target == 0 {
                    400.0
                } else {
                    400.0 * shift
                };
                let slow = sample.target == 1 && rng.f64() < cold;
                sample.error = None;
                sample.ttft_ms = Some(median * (0.15 * z).exp() * if slow { 12.0 } else { 1.0 });
            }
            let report = build_report(&plan, &samples, 0, 1);
            let model = &report.models[0];
            let route = &report.routing.routes[0];
            let said = report_sentences(&report, Lang::En);
            let said = &said.models[0];
            assert_eq!(route.distinguishable, model.distinguishable);
            assert_eq!(said.distinctions.len(), 1, "{said:?}");
            let line = &said.distinctions[0];
            let best = said.best_provider.as_deref().unwrap_or_default();
            let line_ties = line.contains("not distinguishable");
            let best_ties = best.contains("not distinguishable from");
            assert_eq!(line_ties, !route.distinguishable, "{line} / {best}");
            assert_eq!(best_ties, !route.distinguishable, "{line} / {best}");
            if route.distinguishable {
                apart += 1;
            } else {
                tied += 1;
            }
        }
        // Both outcomes were seen.
        assert!(apart > 30 && tied > 30, "{apart} apart, {tied} tied");
    }

    /// "1.0× more consistent" is not said when the CVs' intervals overlap;
    /// a ratio the intervals support still is.
    #[test]
    fn consistency_is_a_ratio_only_when_the_intervals_tell() {
        use crate::judgement::report::build_report;
        use crate::planning::plan::{Plan, Target};
        use crate::testing::fixtures::synthetic_samples;
        let target =
            |label: &str| Target::openai(label, &format!("https://{label}.example/v1"), "m");
        let plan = Plan {
            targets: vec![target("A"), target("B")],
            ..Plan::default()
        };
        let mut rng = fastrand::Rng::with_seed(4);
        let mut samples = synthetic_samples(2, 100, 0, 9);
        let spread = |samples: &mut Vec<crate::wire::sample::Sample>,
                      rng: &mut fastrand::Rng,
                      b_sigma: f64| {
            for sample in samples.iter_mut() {
                let sigma = if sample.target == 0 { 0.2 } else { b_sigma };
                let (u1, u2) = (1.0 - rng.f64(), rng.f64());
                let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                sample.error = None;
                sample.ttft_ms = Some(400.0 * (sigma * z).exp());
            }
        };
        spread(&mut samples, &mut rng, 0.21);
        let same = build_report(&plan, &samples, 0, 1);
        let said = report_sentences(&same, Lang::En).models[0]
            .consistency
            .clone()
            .unwrap();
        assert!(
            said.contains("not distinguishable with these requests"),
            "{said}"
        );
        assert!(!said.contains('×'), "{said}");
        let zh = report_sentences(&same, Lang::ZhCn).models[0]
            .consistency
            .clone()
            .unwrap();
        assert!(zh.contains("无法区分"), "{zh}");
        spread(&mut samples, &mut rng, 1.2);
        let apart = build_report(&plan, &samples, 0, 1);
        let said = report_sentences(&apart, Lang::En).models[0]
            .consistency
            .clone()
            .unwrap();
        assert!(
            said.starts_with("A is ") && said.ends_with("more consistent than B"),
            "{said}"
        );
    }

    #[test]
    fn the_period_sentence_says_what_fishers_test_says() {
        // The worked example of docs/statistics.md, § Time of day, from
        // the test itself: 6 of 80 against 0 of 40 is no difference
        // (p = 0.177); 9 of 80 is the fewest that is (p = 0.028).
        use crate::statistics::binomial::fisher_exact;
        let p_six = fisher_exact(6, 80, 0, 40);
        assert!((p_six - 0.177).abs() < 5e-4, "{p_six}");
        let fewest = (0..=80).find(|&a| fisher_exact(a, 80, 0, 40) < 0.05);
        assert_eq!(fewest, Some(9));
        let slower_at_peak = PeriodComparison {
            peak: (9, 80),
            off_peak: (0, 40),
            p_value: fisher_exact(9, 80, 0, 40),
        };
        assert_eq!(
            period_sentence(Lang::En, &slower_at_peak),
            "peak hours are slower: 9 of 80 requests slow at peak against 0 of 40 off peak \
             (Fisher's exact test, p = 0.028)"
        );
        let six = PeriodComparison {
            peak: (6, 80),
            off_peak: (0, 40),
            p_value: p_six,
        };
        assert!(period_sentence(Lang::En, &six).contains("no difference these requests can show"));
        let same = PeriodComparison {
            peak: (2, 40),
            off_peak: (1, 40),
            p_value: 1.0,
        };
        assert!(period_sentence(Lang::En, &same).contains("no difference these requests can show"));
        assert!(period_sentence(Lang::ZhCn, &same).contains("显示不出差别"));
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
