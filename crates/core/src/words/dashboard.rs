//! The dashboard's sentences and cell texts, in both languages: the stale
//! warning, each source's line, the request count, the time range and the
//! rolling windows' cells. Made here, as every other sentence is, so the
//! words and figures have one maker.

use crate::base::calendar::civil_from_days;
use crate::base::lang::Lang;
use crate::words::format::{at_least, format_duration, format_ms, format_pct};

/// An epoch time as UTC "YYYY-MM-DD HH:MM UTC".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn utc_time(epoch_ms: f64) -> String {
    let seconds = (epoch_ms / 1000.0).floor() as i64;
    let (days, secs) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        secs / 3600,
        (secs % 3600) / 60
    )
}

/// "2026-12-01 00:05 – 2026-12-04 06:05 UTC".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn utc_range(first_ms: f64, last_ms: f64) -> String {
    let first = utc_time(first_ms);
    let first = first.strip_suffix(" UTC").unwrap_or(&first);
    format!("{first} – {}", utc_time(last_ms))
}

/// The warning of a monitor that looks stopped: the newest sample is `age_ms`
/// old, more than three schedule periods of `schedule_minutes`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn stale_warning(lang: Lang, age_ms: f64, schedule_minutes: u32) -> String {
    let age = format_duration(lang, age_ms);
    match lang {
        Lang::En => format!(
            "The monitor looks stopped: the newest sample is {age} old, more than three times its \
             schedule (every {schedule_minutes} min). Check the monitor workflow's latest runs."
        ),
        Lang::ZhCn => format!(
            "监控似乎已停止：最新样本已是 {age} 之前，超过运行周期（每 {schedule_minutes} 分钟）的三倍。\
             请检查监控工作流最近的运行记录。"
        ),
    }
}

/// One source's line: "data/index.json (index, 32 files, 499 740 requests)".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn source_line(lang: Lang, url: &str, index: bool, files: usize, requests: usize) -> String {
    match (lang, index) {
        (Lang::En, true) => format!("{url} (index, {files} files, {requests} requests)"),
        (Lang::En, false) => format!("{url} ({files} files, {requests} requests)"),
        (Lang::ZhCn, true) => format!("{url}（索引，{files} 个文件，{requests} 个请求）"),
        (Lang::ZhCn, false) => format!("{url}（{files} 个文件，{requests} 个请求）"),
    }
}

/// The header's request count: "499 740 (1 203 errors) — measured requests;
/// warm-ups left out, nothing thinned".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn requests_line(lang: Lang, requests: usize, errors: usize) -> String {
    match lang {
        Lang::En => format!(
            "{requests} ({errors} errors) — measured requests; warm-ups left out, nothing thinned"
        ),
        Lang::ZhCn => {
            format!("{requests}（错误 {errors} 个）— 已测量的请求；不含预热请求，未做抽样")
        }
    }
}

/// A rolling window's latency, each figure named: "median TTFT 420 ms ·
/// p95 ≥ 30 s" (`≥` where the percentile reaches timed-out requests).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn window_latency(
    lang: Lang,
    median_ms: f64,
    median_bound: bool,
    p95_ms: f64,
    p95_bound: bool,
) -> String {
    let median = match lang {
        Lang::En => "median TTFT",
        Lang::ZhCn => "TTFT 中位数",
    };
    format!(
        "{median} {}{} · p95 {}{}",
        at_least(median_bound),
        format_ms(lang, median_ms),
        at_least(p95_bound),
        format_ms(lang, p95_ms)
    )
}

/// A rolling window's CV and verdict: "CV 16 % · solid" (`≥` on a CV that
/// timeouts make a lower bound); `verdict` is the judgement in words, as
/// the results' table says it.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn window_judged(cv_pct: f64, cv_bound: bool, verdict: &str) -> String {
    format!(
        "CV {}{} · {verdict}",
        at_least(cv_bound),
        format_pct(cv_pct)
    )
}

/// Why some rolling windows are not shown: `hidden` (the windows' names,
/// as the table heads them) hold the same `requests` as the window
/// `same_as`, so they would repeat its column. `all_within_ms` is the data's
/// whole span when those are every request loaded: "All 66 requests fall
/// within the last 6 min: the last 72 hours and the last 7 days hold the same
/// ones as the last 24 hours, so they are not shown."
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn windows_note(
    lang: Lang,
    hidden: &[&str],
    same_as: &str,
    requests: usize,
    all_within_ms: Option<f64>,
) -> String {
    // Rounded up to the unit it is said in, so "within the last 6 min" is
    // true of 5 min 40 s, and 6 min 10 s says 7 min.
    let span = all_within_ms.map(|ms| {
        let unit_ms = if ms < 60_000.0 { 1_000.0 } else { 60_000.0 };
        format_duration(lang, (ms / unit_ms).ceil() * unit_ms)
    });
    match lang {
        Lang::En => {
            let names = hidden
                .iter()
                .map(|name| format!("the {name}"))
                .collect::<Vec<_>>()
                .join(" and ");
            let (verb, pronoun) = if hidden.len() == 1 {
                ("holds", "it is")
            } else {
                ("hold", "they are")
            };
            match span {
                Some(span) => format!(
                    "All {requests} requests fall within the last {span}: {names} {verb} the same ones as the {same_as}, so {pronoun} not shown."
                ),
                None => {
                    let mut sentence = format!(
                        "{names} {verb} the same {requests} requests as the {same_as}, so {pronoun} not shown."
                    );
                    sentence[..1].make_ascii_uppercase();
                    sentence
                }
            }
        }
        Lang::ZhCn => {
            let names = hidden.join("和");
            match span {
                Some(span) => format!(
                    "全部 {requests} 个请求都在最近 {span}内：{names}包含的请求与{same_as}完全相同，故不列出。"
                ),
                None => format!("{names}包含的 {requests} 个请求与{same_as}完全相同，故不列出。"),
            }
        }
    }
}

/// A rolling window's counts: "n 71 / 75 · 5.3 %" (successes of requests,
/// error rate).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn window_counts(n: usize, requests: usize, error_rate_pct: Option<f64>) -> String {
    format!(
        "n {n} / {requests} · {}",
        error_rate_pct.map_or_else(|| "–".into(), format_pct)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dashboard_texts_read_in_both_languages() {
        assert_eq!(utc_time(0.0), "1970-01-01 00:00 UTC");
        assert_eq!(
            utc_range(0.0, 86_400_000.0 + 3_660_000.0),
            "1970-01-01 00:00 – 1970-01-02 01:01 UTC"
        );
        let en = stale_warning(Lang::En, 5.0 * 3_600_000.0, 60);
        assert!(
            en.contains("every 60 min") && en.starts_with("The monitor looks stopped"),
            "{en}"
        );
        let zh = stale_warning(Lang::ZhCn, 5.0 * 3_600_000.0, 60);
        assert!(zh.contains("每 60 分钟"), "{zh}");
        assert_eq!(
            source_line(Lang::En, "data/index.json", true, 3, 90),
            "data/index.json (index, 3 files, 90 requests)"
        );
        assert_eq!(
            source_line(Lang::ZhCn, "a.json", false, 1, 30),
            "a.json（1 个文件，30 个请求）"
        );
        assert!(requests_line(Lang::En, 90, 2).starts_with("90 (2 errors) — "));
        assert_eq!(window_counts(71, 75, Some(5.33)), "n 71 / 75 · 5.3 %");
        assert_eq!(window_counts(0, 0, None), "n 0 / 0 · –");
        // The median is named, not only the p95.
        assert_eq!(
            window_latency(Lang::En, 420.0, false, 30_000.0, true),
            "median TTFT 420 ms · p95 ≥ 30 s"
        );
        assert!(window_latency(Lang::ZhCn, 420.0, false, 900.0, false).starts_with("TTFT 中位数"));
        assert_eq!(window_judged(16.2, false, "solid"), "CV 16 % · solid");
        assert_eq!(
            windows_note(
                Lang::En,
                &["last 72 hours", "last 7 days"],
                "last 24 hours",
                66,
                Some(5.5 * 60_000.0)
            ),
            "All 66 requests fall within the last 6 min: the last 72 hours and the last 7 days hold the same ones as the last 24 hours, so they are not shown."
        );
        assert_eq!(
            windows_note(Lang::En, &["last 72 hours"], "last 24 hours", 480, None),
            "The last 72 hours holds the same 480 requests as the last 24 hours, so it is not shown."
        );
        assert_eq!(
            windows_note(
                Lang::ZhCn,
                &["最近 72 小时", "最近 7 天"],
                "最近 24 小时",
                66,
                Some(6.0 * 60_000.0)
            ),
            "全部 66 个请求都在最近 6 分钟内：最近 72 小时和最近 7 天包含的请求与最近 24 小时完全相同，故不列出。"
        );
    }
}
