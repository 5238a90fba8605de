//! The sentences about the slow share and the cold-start tail of one
//! target: how many requests were slow and how often that may be, the
//! tail's requests and the figures without them, and the first-token
//! timeout the tail's p99 (or, with too few requests, a lower quantile)
//! supports.

use crate::base::lang::Lang;
use crate::judgement::report::TargetReport;
use crate::judgement::settings::{LowerBound, TIMEOUT_MARGIN, TimeoutAdvice, requests_needed};
use crate::judgement::slow::{SLOW_MULTIPLE, SlowShare, one_in};
use crate::judgement::tail::ColdTail;
use crate::judgement::verdict::Verdict;
use crate::words::format::{format_ms, format_ratio};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgement::slow::slow_share;

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
}
