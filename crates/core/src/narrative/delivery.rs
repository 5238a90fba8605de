//! The sentences about how a target delivered its replies: first-try
//! success and the status codes, what a 429's rate-limit headers said, the
//! stream's gaps and stalls after the first token, and the goodput at the
//! plan's budget.

use crate::base::lang::Lang;
use crate::judgement::delivery::{StatusFigures, StreamFigures};
use crate::judgement::settings::Goodput;
use crate::wire::ratelimit::RateLimitHeaders;
use crate::wire::stream_shape::STALL_MS;
use crate::words::format::format_ms;

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
    // Said apart from the provider's answers: these never reached it.
    let unreached = match (lang, status.unreached) {
        (_, 0) => String::new(),
        (Lang::En, n) => format!(
            " ({n} of them never reached the provider: this client could not connect, or the \
             browser got no answer)"
        ),
        (Lang::ZhCn, n) => {
            format!("（其中 {n} 个未到达服务商：本机无法建立连接，或浏览器没有收到任何回应）")
        }
    };
    match lang {
        Lang::En => format!(
            "{first} of {n} succeeded on the first try ({ok} %, {ok_low}–{ok_high} %), without \
             retries; 429 (rate limited): {} ({limited} %, {limited_low}–{limited_high} %){retry}; \
             other 4xx {client}, 5xx {server}, no status {none}{unreached}.{hidden}",
            counts.rate_limited
        ),
        Lang::ZhCn => format!(
            "{n} 个请求中 {first} 个首次即成功（{ok} %，{ok_low}–{ok_high} %），不重试；429（限流）：{} 个\
             （{limited} %，{limited_low}–{limited_high} %）{retry}；其他 4xx {client} 个，5xx {server} 个，\
             无状态码 {none} 个{unreached}。{hidden}",
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
