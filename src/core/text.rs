//! Words and formatted numbers that both adapters print, made once so the
//! page and `firsttoken report` say the same thing about the same file.
//!
//! Durations, percentages and the sentences that come with the censoring
//! and tail-band rules live here; the older sentences are moving here one
//! by one.

use super::bootstrap::Interval;
use super::cost::{CostFigures, PlanCost};
use super::ratelimit::{RateLimitHeaders, StatusFigures};
use super::settings::{Goodput, TIMEOUT_MARGIN, TimeoutAdvice};
use super::slow::{SLOW_MULTIPLE, SlowShare, one_in};
use super::stream_shape::{STALL_MS, StreamFigures};
use super::timeofday::PeriodComparison;
use super::verdict::Lang;

/// Milliseconds for people: "850 ms", "1.24 s", "12.3 s" (毫秒 / 秒 in
/// Chinese); "–" for a value that is not finite.
pub fn format_ms(lang: Lang, ms: f64) -> String {
    let (seconds, unit_ms) = match lang {
        Lang::En => ("s", "ms"),
        Lang::ZhCn => ("秒", "毫秒"),
    };
    if !ms.is_finite() {
        return "–".to_owned();
    }
    if ms < 1000.0 {
        format!("{ms:.0} {unit_ms}")
    } else if ms < 10_000.0 {
        format!("{:.2} {seconds}", ms / 1000.0)
    } else {
        format!("{:.1} {seconds}", ms / 1000.0)
    }
}

/// A percentage with no decimals from 10 up and one below ("541 %",
/// "4.2 %"); "–" for a value that is not finite.
pub fn format_pct(value: f64) -> String {
    if !value.is_finite() {
        "–".to_owned()
    } else if value.abs() >= 10.0 {
        format!("{value:.0} %")
    } else {
        format!("{value:.1} %")
    }
}

/// A duration interval: "420 ms–560 ms", or "≥ 420 ms" when the data
/// bound it only from below (an infinite `high`).
pub fn interval_ms(lang: Lang, interval: &Interval) -> String {
    if interval.is_bounded() {
        format!(
            "{}–{}",
            format_ms(lang, interval.low),
            format_ms(lang, interval.high)
        )
    } else {
        format!("≥ {}", format_ms(lang, interval.low))
    }
}

/// "≥ " before a figure that is only a lower bound (a censored timeout
/// reaches it), nothing otherwise.
pub fn at_least(lower_bound: bool) -> &'static str {
    if lower_bound { "≥ " } else { "" }
}

/// A ratio as people say it: whole numbers from 10× up, one decimal below
/// ("34×", "2.5×").
pub fn format_ratio(ratio: f64) -> String {
    if !ratio.is_finite() {
        "–".to_owned()
    } else if ratio >= 9.95 {
        format!("{ratio:.0}×")
    } else {
        format!("{ratio:.1}×")
    }
}

/// The slow-request sentence of one target: how many requests were slower
/// than 3× the warm median, the exact interval of that share as "1 in N",
/// p95 over the median, and the p95 of the warm requests alone.
///
/// "4 of 75 requests slower than 1.24 s (3× the warm median), 1 in 8 to
/// 1 in 68; p95 is 14× the median; warm-only p95 450 ms."
pub fn slow_sentence(lang: Lang, slow: &SlowShare, p95_median_ratio: Option<f64>) -> String {
    let threshold = format_ms(lang, slow.threshold_ms);
    let multiple = format!("{SLOW_MULTIPLE:.0}");
    let (low, high) = slow.share_ci;
    // The share's high end is the smaller N ("1 in 8"), its low end the
    // larger ("1 in 68").
    let (most, least) = (one_in(high), one_in(low));
    let mut sentence = match (lang, slow.slow, most, least) {
        (Lang::En, 0, Some(most), _) => format!(
            "0 of {} requests slower than {threshold} ({multiple}× the warm median); at most 1 in {most}",
            slow.of
        ),
        (Lang::En, count, Some(most), Some(least)) => format!(
            "{count} of {} requests slower than {threshold} ({multiple}× the warm median), 1 in {most} to 1 in {least}",
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
/// "peak hours are slower: 6 of 80 requests slow at peak against 0 of 40
/// off peak (Fisher's exact test, p = 0.032)".
pub fn period_sentence(lang: Lang, comparison: &PeriodComparison) -> String {
    let ((peak_slow, peak_n), (off_slow, off_n)) = (comparison.peak, comparison.off_peak);
    let p = format_p(comparison.p_value);
    let peak_share = peak_slow as f64 / peak_n.max(1) as f64;
    let off_share = off_slow as f64 / off_n.max(1) as f64;
    match (lang, comparison.differs(), peak_share > off_share) {
        (Lang::En, true, true) => format!(
            "peak hours are slower: {peak_slow} of {peak_n} requests slow at peak against {off_slow} of {off_n} off peak (Fisher's exact test, p = {p})"
        ),
        (Lang::En, true, false) => format!(
            "off-peak hours are slower: {off_slow} of {off_n} requests slow off peak against {peak_slow} of {peak_n} at peak (Fisher's exact test, p = {p})"
        ),
        (Lang::En, false, _) => format!(
            "peak and off-peak: {peak_slow} of {peak_n} against {off_slow} of {off_n} requests slow, no difference these requests can show (Fisher's exact test, p = {p})"
        ),
        (Lang::ZhCn, true, true) => format!(
            "高峰时段更慢：高峰 {peak_n} 个请求中 {peak_slow} 个慢，非高峰 {off_n} 个中 {off_slow} 个（Fisher 精确检验，p = {p}）"
        ),
        (Lang::ZhCn, true, false) => format!(
            "非高峰时段更慢：非高峰 {off_n} 个请求中 {off_slow} 个慢，高峰 {peak_n} 个中 {peak_slow} 个（Fisher 精确检验，p = {p}）"
        ),
        (Lang::ZhCn, false, _) => format!(
            "高峰与非高峰：{peak_n} 个中 {peak_slow} 个慢，对比 {off_n} 个中 {off_slow} 个，这些请求显示不出差别（Fisher 精确检验，p = {p}）"
        ),
    }
}

/// The first-token timeout advice as one sentence: "4.20 s (the 95 %
/// upper bound of the p99, 2.80 s, × 1.5); it would have cut 0 of 300
/// requests", or what is missing for one.
pub fn timeout_sentence(lang: Lang, advice: &TimeoutAdvice) -> String {
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
            "{}（{} 的 95% 置信上限 {} × {margin}）；本次 {of} 个请求中它会截断 {would_cut} 个",
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
        (Lang::En, TimeoutAdvice::NeedsRequests { needed, have }) => {
            format!("needs at least {needed} requests to bound the p99 (this target has {have})")
        }
        (Lang::ZhCn, TimeoutAdvice::NeedsRequests { needed, have }) => {
            format!("至少需要 {needed} 个请求才能给出 p99 的上限（这个目标只有 {have} 个）")
        }
    }
}

/// Goodput as one sentence: "97 % within 1.00 s (92–99 %), 97 of 100
/// requests".
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
            format!("{share}% 在 {budget} 内（{low}–{high}%），{of} 个请求中 {within} 个")
        }
    }
}

/// The best provider as both adapters name it: "A", or "A (not
/// distinguishable from B, C with these requests)" when the routing pick
/// is a tie.
pub fn best_provider_text(lang: Lang, best: &str, tied: &[String]) -> String {
    if tied.is_empty() {
        return best.to_owned();
    }
    let others = tied.join(", ");
    match lang {
        Lang::En => format!("{best} (not distinguishable from {others} with these requests)"),
        Lang::ZhCn => format!("{best}（以当前请求数无法与 {others} 区分）"),
    }
}

/// A whole-percent share and its interval: ("96", "90", "98").
fn share_parts(k: usize, n: usize, interval: (f64, f64)) -> (String, String, String) {
    let pct = |share: f64| format!("{:.0}", share * 100.0);
    let share = if n == 0 { 0.0 } else { k as f64 / n as f64 };
    (pct(share), pct(interval.0), pct(interval.1))
}

/// Seconds as a `Retry-After` says them: "7 s", "0.5 s".
fn format_seconds(lang: Lang, seconds: f64) -> String {
    format_ms(lang, seconds * 1000.0)
}

/// First-try success, the 429 share and what `Retry-After` said, as one
/// sentence: "72 of 75 succeeded on the first try (96 %, 89–99 %), without
/// retries; 429 (rate limited): 3 (4 %, 1–11 %), Retry-After 7.00 s
/// (median), at most 7.00 s; other 4xx 0, 5xx 0, no status 0."
pub fn status_sentence(lang: Lang, status: &StatusFigures) -> String {
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
            "{n} 个请求中 {first} 个首次即成功（{ok}%，{ok_low}–{ok_high}%），不重试；429（限流）：{} 个\
             （{limited}%，{limited_low}–{limited_high}%）{retry}；其他 4xx {client} 个，5xx {server} 个，\
             无状态码 {none} 个。{hidden}",
            counts.rate_limited
        ),
    }
}

/// What the last 429's rate-limit headers said, values as the provider
/// sent them: "requests: 0 left, reset 7s; tokens: 0 left"; `None` when
/// they said nothing.
pub fn rate_limit_text(lang: Lang, headers: &RateLimitHeaders) -> Option<String> {
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
pub fn stream_sentence(lang: Lang, stream: &StreamFigures) -> String {
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
            "{n} 个回复中 {} 个出现停顿（间隔超过 {stall}）（{stalled}%，{low}–{high}%）；\
             每个回复的 p95 间隔：中位数 {}，p95 {}；最长间隔 {}；{n} 个回复中 {buffered} 个一次性到达（缓冲）。",
            stream.stalled,
            ms(stream.gap_p95_median_ms),
            ms(stream.gap_p95_p95_ms),
            ms(stream.max_gap_ms)
        ),
    }
}

/// US dollars: "$1.23", "$0.042", "$0.00041" (two significant digits
/// below a dollar), "$0" for nothing.
pub fn format_usd(usd: f64) -> String {
    if !usd.is_finite() {
        return "–".to_owned();
    }
    if usd == 0.0 {
        return "$0".to_owned();
    }
    if usd >= 1.0 {
        return format!("${usd:.2}");
    }
    // Two significant digits: one more decimal than the first non-zero one.
    let decimals = (-usd.log10()).floor() as usize + 2;
    format!("${usd:.decimals$}", decimals = decimals.min(12))
}

/// A target's cost: "$0.00041 per successful request; $0.031 for the run
/// (77 charged requests)", with "some token counts were estimated" when
/// they were.
pub fn cost_sentence(lang: Lang, cost: &CostFigures) -> String {
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

/// A p-value with two significant digits, "< 0.001" below a thousandth.
fn format_p(p: f64) -> String {
    if p < 0.001 {
        "< 0.001".to_owned()
    } else if p < 0.01 {
        format!("{p:.4}")
    } else if p < 0.1 {
        format!("{p:.3}")
    } else {
        format!("{p:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::slow::slow_share;

    #[test]
    fn status_stream_and_cost_sentences_in_both_languages() {
        use crate::core::ratelimit::{RateLimitHeaders, StatusCounts};
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
             limited): 3 (4 %, 1–11 %), Retry-After 7.00 s (median of 3), at most 20.0 s; other \
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
            "stalls (a gap over 2.00 s) in 1 of 75 replies (1 %, 0–7 %); per-reply p95 gap: \
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
        let slow = slow_share(&ranked, 415.0).unwrap();
        assert_eq!(
            slow_sentence(Lang::En, &slow, Some(14.2)),
            "4 of 75 requests slower than 1.25 s (3× the warm median), 1 in 8 to 1 in 68; \
             p95 is 14× the median; warm-only p95 446 ms."
        );
        assert_eq!(
            slow_sentence(Lang::ZhCn, &slow, None),
            "75 个请求中有 4 个慢于 1.25 秒（热请求中位数的 3 倍），约每 8 到 68 个中 1 个；\
             只看热请求时 p95 为 446 毫秒。"
        );
        let none = slow_share(&ranked[..71], 415.0).unwrap();
        assert_eq!(
            slow_sentence(Lang::En, &none, Some(1.1)),
            "0 of 71 requests slower than 1.25 s (3× the warm median); at most 1 in 20; \
             p95 is 1.1× the median."
        );
    }

    #[test]
    fn the_period_sentence_says_what_fishers_test_says() {
        let slower_at_peak = PeriodComparison {
            peak: (6, 80),
            off_peak: (0, 40),
            p_value: 0.0324,
        };
        assert_eq!(
            period_sentence(Lang::En, &slower_at_peak),
            "peak hours are slower: 6 of 80 requests slow at peak against 0 of 40 off peak \
             (Fisher's exact test, p = 0.032)"
        );
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
            "4.20 s (the 95 % upper bound of the p99, 2.80 s, × 1.5); it would have cut 0 of this run's 300 requests"
        );
        assert_eq!(
            timeout_sentence(
                Lang::En,
                &TimeoutAdvice::NeedsRequests {
                    needed: 299,
                    have: 100
                }
            ),
            "needs at least 299 requests to bound the p99 (this target has 100)"
        );
        assert!(timeout_sentence(Lang::ZhCn, &advice).contains("截断 0 个"));
        let goodput = Goodput {
            budget_ms: 1_000.0,
            within: 97,
            of: 100,
            interval: crate::core::settings::wilson(97, 100),
        };
        assert_eq!(
            goodput_sentence(Lang::En, &goodput),
            "97 % within 1.00 s (92–99 %), 97 of 100 requests"
        );
    }
}
