//! The frame of the results as text (`firsttoken report`): headings,
//! table columns and the names of the lines that hold core's sentences,
//! in each language, so `--lang zh-CN` prints Chinese around the Chinese
//! sentences rather than English. The page's own headings for the same
//! things are held to the same words by a test in `ui::model::i18n`.
//!
//! A leaf: every figure arrives as data.

use crate::base::lang::{Lang, texts};

texts! {
    /// The words around the sentences, one set per language.
    ReportWords {
        rank,
        target,
        n,
        median,
        p95,
        p99,
        cv,
        errors,
        verdict,
        note,
        intervals,
        slow,
        by_size,
        connections,
        fidelity,
        probe_replies_passed,
        tool_args,
        trigger_f1,
        prompt_tokens,
        failed_probes,
        none,
        no_success,
    }
}

const EN: ReportWords = ReportWords {
    rank: "Rank",
    target: "Target",
    n: "n",
    median: "Median",
    p95: "p95",
    p99: "p99",
    cv: "CV",
    errors: "Errors",
    verdict: "Verdict",
    note: "Note",
    intervals: "Intervals",
    slow: "Slow requests",
    by_size: "By size",
    connections: "Connections",
    fidelity: "Fidelity",
    probe_replies_passed: "Probe replies passed",
    tool_args: "Tool args",
    trigger_f1: "Trigger F1",
    prompt_tokens: "prompt_tokens",
    failed_probes: "Failed probes",
    none: "none",
    no_success: "Without a successful request",
};

const ZH_CN: ReportWords = ReportWords {
    rank: "排名",
    target: "目标",
    n: "n",
    median: "中位数",
    p95: "p95",
    p99: "p99",
    cv: "CV",
    errors: "错误率",
    verdict: "结论",
    note: "注意",
    intervals: "置信区间",
    slow: "慢请求",
    by_size: "各长度",
    connections: "连接",
    fidelity: "保真度",
    probe_replies_passed: "探针回答通过",
    tool_args: "工具参数",
    trigger_f1: "触发 F1",
    prompt_tokens: "prompt_tokens",
    failed_probes: "未通过的探针",
    none: "无",
    no_success: "没有成功请求的目标",
};

impl ReportWords {
    /// The words in `lang`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn of(lang: Lang) -> &'static Self {
        match lang {
            Lang::En => &EN,
            Lang::ZhCn => &ZH_CN,
        }
    }
}

/// The report's first line: how much it holds, when and where it was
/// measured. `started` is the start time already written out; `vantage`
/// the place the run was made from, if it names one.
///
/// "1610 samples · 5 targets · started 2026-12-03 05:07 (UTC+00) · firsttoken/0.1.0 (linux; x86_64) · from fra1"
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn report_heading(
    lang: Lang,
    (samples, targets): (usize, usize),
    started: &str,
    user_agent: &str,
    vantage: Option<&str>,
) -> String {
    match lang {
        Lang::En => format!(
            "{samples} samples · {targets} target{} · started {started} · {user_agent}{}",
            if targets == 1 { "" } else { "s" },
            vantage.map(|v| format!(" · from {v}")).unwrap_or_default()
        ),
        Lang::ZhCn => format!(
            "{samples} 个样本 · {targets} 个目标 · 开始于 {started} · {user_agent}{}",
            vantage.map(|v| format!(" · 测自 {v}")).unwrap_or_default()
        ),
    }
}

/// A start time that cannot be written out.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn unknown_time(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "at an unknown time",
        Lang::ZhCn => "时间未知",
    }
}

/// Why requests failed, in the failure's own words: "3 of 3 failed with
/// “HTTP 400 from provider: unknown model”", with a `Retry-After` when
/// one came ("; Retry-After 20 s"). `message` is the recorded error
/// message's first line said in `lang` (`recorded_failure_text`: in
/// Chinese a sentence of its own around the provider's words, so it is
/// not quoted); `count` of `of` failed measured requests said it.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn failure_reason_words(
    lang: Lang,
    message: &str,
    count: usize,
    of: usize,
    retry_after_s: Option<f64>,
) -> String {
    let retry = retry_after_s
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| crate::words::format::gap_text(lang, s));
    match lang {
        Lang::En => {
            let mut text = format!("{count} of {of} failed with “{message}”");
            if let Some(retry) = retry {
                text.push_str(&format!("; Retry-After {retry}"));
            }
            text
        }
        Lang::ZhCn => {
            let mut text = format!("{of} 个失败中有 {count} 个：{message}");
            if let Some(retry) = retry {
                text.push_str(&format!("；Retry-After {retry}"));
            }
            text
        }
    }
}

/// A target none of whose requests succeeded (said after its label): how
/// many were sent, and
/// how they failed (`failures`: "3 timeout", "2 http_status"; empty when
/// none finished).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn no_successful_samples(lang: Lang, requests: usize, failures: &[String]) -> String {
    match lang {
        Lang::En => format!(
            "no successful samples ({requests} requests; {})",
            if failures.is_empty() {
                "none finished".to_owned()
            } else {
                failures.join(", ")
            }
        ),
        Lang::ZhCn => format!(
            "没有成功的样本（{requests} 个请求；{}）",
            if failures.is_empty() {
                "没有一个完成".to_owned()
            } else {
                failures.join("，")
            }
        ),
    }
}

/// What the fidelity check ran: the suite, how many times each probe was
/// sent to each target, and the reference target's label.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn fidelity_setup(lang: Lang, suite: &str, repeats: u32, reference: Option<&str>) -> String {
    let reference = reference.unwrap_or(ReportWords::of(lang).none);
    match lang {
        Lang::En => {
            format!("Probes {suite}, each sent {repeats}× per target; reference: {reference}")
        }
        Lang::ZhCn => {
            format!("探针集 {suite}，每个探针向每个目标发送 {repeats} 次；参照：{reference}")
        }
    }
}

/// One failed probe: its name, the reasons, and how many of its replies
/// failed. "arith-mul (wrong answer, 1 of 2)".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn failed_probe(
    lang: Lang,
    probe: &str,
    reasons: &[&str],
    failed: usize,
    replies: usize,
) -> String {
    match lang {
        Lang::En => format!("{probe} ({}, {failed} of {replies})", reasons.join(", ")),
        Lang::ZhCn => format!(
            "{probe}（{}，{replies} 个中 {failed} 个）",
            reasons.join("，")
        ),
    }
}

/// A target's failed probes ([`failed_probe`] each) on one line.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn failed_probes_list(lang: Lang, probes: &[String]) -> String {
    match lang {
        Lang::En => probes.join("; "),
        Lang::ZhCn => probes.join("；"),
    }
}

/// The connection phases of a target's requests that opened one: how many
/// opened, and the median of each phase timed (`phases`: name and the
/// duration written out).
///
/// "3 opened; median DNS 1.8 ms, connect 21 ms, TLS 45 ms".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn connections_opened(lang: Lang, opened: usize, phases: &[(Phase, String)]) -> String {
    let parts: Vec<String> = phases
        .iter()
        .map(|(phase, value)| format!("{} {value}", phase.name(lang)))
        .collect();
    match lang {
        Lang::En => format!("{opened} opened; median {}", parts.join(", ")),
        // "中位耗时：TCP 连接 21 毫秒": the frame in Chinese order.
        Lang::ZhCn => format!("新建 {opened} 个；中位耗时：{}", parts.join("，")),
    }
}

/// A phase of opening a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Resolving the host name.
    Dns,
    /// The TCP handshake.
    Connect,
    /// The TLS handshake.
    Tls,
}

impl Phase {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn name(self, lang: Lang) -> &'static str {
        match (lang, self) {
            (_, Self::Dns) => "DNS",
            (Lang::En, Self::Connect) => "connect",
            (Lang::ZhCn, Self::Connect) => "TCP 连接",
            (_, Self::Tls) => "TLS",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::lang::assert_no_english_left;

    #[test]
    fn the_chinese_frame_holds_no_english_words_of_its_own() {
        // Names that stay as they are: figures' names and a document member.
        let kept = [
            "prompt_tokens",
            "basic-1",
            "p95",
            "p99",
            "CV",
            "F1",
            "DNS",
            "TLS",
            "TCP",
            // The Chinese UI's one word for a token, as in 首 Token 延迟
            // (before "n", which is taken out of what is left).
            "Token",
            "n",
        ];
        let texts: Vec<String> = ReportWords::of(Lang::ZhCn)
            .all()
            .iter()
            .map(|w| (*w).to_owned())
            .chain([
                report_heading(Lang::ZhCn, (3, 1), "", "", Some("")),
                unknown_time(Lang::ZhCn).to_owned(),
                no_successful_samples(Lang::ZhCn, 3, &[]),
                fidelity_setup(Lang::ZhCn, "basic-1", 2, None),
                failed_probe(Lang::ZhCn, "", &["答案错误"], 1, 2),
                connections_opened(
                    Lang::ZhCn,
                    3,
                    &[
                        (Phase::Dns, String::new()),
                        (Phase::Connect, String::new()),
                        (Phase::Tls, String::new()),
                    ],
                ),
            ])
            .collect();
        for text in texts {
            assert_no_english_left(&text, &kept);
        }
    }

    #[test]
    fn the_english_frame_reads_as_before() {
        let two = ["a (x, 1 of 1)".to_owned(), "b (y, 2 of 2)".to_owned()];
        assert_eq!(
            failed_probes_list(Lang::En, &two),
            "a (x, 1 of 1); b (y, 2 of 2)"
        );
        assert_eq!(
            failed_probes_list(Lang::ZhCn, &two),
            "a (x, 1 of 1)；b (y, 2 of 2)"
        );
        assert_eq!(
            report_heading(
                Lang::En,
                (1610, 5),
                "2026-12-03 05:07 (UTC+00)",
                "firsttoken/0.1.0",
                Some("fra1")
            ),
            "1610 samples · 5 targets · started 2026-12-03 05:07 (UTC+00) · firsttoken/0.1.0 · from fra1"
        );
        assert_eq!(
            report_heading(Lang::En, (7, 1), "x", "ua", None),
            "7 samples · 1 target · started x · ua"
        );
        assert_eq!(
            no_successful_samples(Lang::En, 0, &[]),
            "no successful samples (0 requests; none finished)"
        );
        assert_eq!(
            failed_probe(Lang::En, "arith-mul", &["wrong answer"], 1, 1),
            "arith-mul (wrong answer, 1 of 1)"
        );
        assert_eq!(
            connections_opened(
                Lang::En,
                3,
                &[
                    (Phase::Dns, "1.8 ms".to_owned()),
                    (Phase::Connect, "21 ms".to_owned())
                ]
            ),
            "3 opened; median DNS 1.8 ms, connect 21 ms"
        );
        assert_eq!(
            connections_opened(
                Lang::ZhCn,
                3,
                &[
                    (Phase::Dns, "1.8 毫秒".to_owned()),
                    (Phase::Connect, "21 毫秒".to_owned())
                ]
            ),
            "新建 3 个；中位耗时：DNS 1.8 毫秒，TCP 连接 21 毫秒"
        );
        assert_eq!(
            fidelity_setup(Lang::En, "basic-1", 1, Some("reference")),
            "Probes basic-1, each sent 1× per target; reference: reference"
        );
    }
}
