//! The verdict, its judgement and its caveats in words: the names and
//! sentences of [`crate::judgement::verdict`]'s types, kept with every other sentence
//! (an inherent impl may live in any module of its crate, so the methods
//! stay where callers look for them).

use crate::base::lang::Lang;
use crate::judgement::verdict::{
    Caveat, ERROR_RATE_THRESHOLD, Judgement, MIN_SAMPLES, VERDICT_MIN_SAMPLES, Verdict,
};

impl Verdict {
    /// The verdict in a word or two, for a table cell or a badge.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn short(self, lang: Lang) -> &'static str {
        match (lang, self) {
            (Lang::En, Self::Solid) => "solid",
            (Lang::En, Self::SomeVariance) => "some variance",
            (Lang::En, Self::ColdStarts) => "cold starts",
            (Lang::En, Self::NotReady) => "not ready",
            (Lang::ZhCn, Self::Solid) => "稳定",
            (Lang::ZhCn, Self::SomeVariance) => "有波动",
            (Lang::ZhCn, Self::ColdStarts) => "冷启动",
            (Lang::ZhCn, Self::NotReady) => "未就绪",
        }
    }

    /// The verdict in a sentence, with what to do about it.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn text(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Self::Solid, Lang::En) => "solid",
            (Self::Solid, Lang::ZhCn) => "稳定",
            (Self::SomeVariance, Lang::En) => "some variance — fine for latency-tolerant work",
            (Self::SomeVariance, Lang::ZhCn) => "有一定波动，适合对延迟不敏感的任务",
            (Self::ColdStarts, Lang::En) => "cold starts — judge the p95 against your needs",
            (Self::ColdStarts, Lang::ZhCn) => "存在冷启动，请对照你的需求看 p95",
            (Self::NotReady, Lang::En) => {
                "not ready for latency-sensitive production — consider a dedicated endpoint"
            }
            (Self::NotReady, Lang::ZhCn) => "不适合延迟敏感的生产环境，建议考虑专用端点",
        }
    }
}

impl Judgement {
    /// "collecting (12 of 20)" / "收集中（12 / 20）", or `None` once there is
    /// a verdict.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn collecting_text(self, lang: Lang) -> Option<String> {
        let Self::Collecting { n } = self else {
            return None;
        };
        Some(match lang {
            Lang::En => format!("collecting ({n} of {VERDICT_MIN_SAMPLES})"),
            Lang::ZhCn => format!("收集中（{n} / {VERDICT_MIN_SAMPLES}）"),
        })
    }

    /// "too few to judge (7 of 20)" / "样本不足，无法判断（7 / 20）": what a
    /// finished run (or an imported file) says of a target with fewer
    /// successful samples than a verdict needs, where no more are coming
    /// and "collecting" would say they were. `None` once there is a
    /// verdict.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn too_few_text(self, lang: Lang) -> Option<String> {
        let Self::Collecting { n } = self else {
            return None;
        };
        Some(match lang {
            Lang::En => format!("too few to judge ({n} of {VERDICT_MIN_SAMPLES})"),
            Lang::ZhCn => format!("样本不足，无法判断（{n} / {VERDICT_MIN_SAMPLES}）"),
        })
    }

    /// [`Judgement::label`] for a finished run or a file: "too few to
    /// judge (7 of 20)" where a running one says "collecting (7 of 20)".
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn finished_label(self, lang: Lang, short: bool) -> String {
        match self {
            Self::Collecting { .. } => self.too_few_text(lang).unwrap_or_default(),
            _ => self.label(lang, short),
        }
    }

    /// The judgement in words, as a table cell says it: the verdict's short
    /// name (`short`) or its full text, "(provisional)" / "（暂定）" while it
    /// may change, or "collecting (12 of 20)".
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn label(self, lang: Lang, short: bool) -> String {
        let name = |verdict: Verdict| {
            if short {
                verdict.short(lang).to_owned()
            } else {
                verdict.text(lang).to_owned()
            }
        };
        match (self, lang) {
            (Self::Final(verdict), _) => name(verdict),
            (Self::Provisional(verdict), Lang::En) => format!("{} (provisional)", name(verdict)),
            (Self::Provisional(verdict), Lang::ZhCn) => format!("{}（暂定）", name(verdict)),
            (Self::Collecting { .. }, _) => self.collecting_text(lang).unwrap_or_default(),
        }
    }
}

impl Caveat {
    /// A short sentence, with the numbers filled in.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn text(self, lang: Lang) -> String {
        let threshold_pct = ERROR_RATE_THRESHOLD * 100.0;
        match (self, lang) {
            (Self::HighErrorRate { error_rate }, Lang::En) => format!(
                "{:.1} % of requests failed (more than {threshold_pct:.0} %): the timings cover only the ones that worked",
                error_rate * 100.0
            ),
            (Self::HighErrorRate { error_rate }, Lang::ZhCn) => format!(
                "{:.1} % 的请求失败（超过 {threshold_pct:.0} %）：时延数据只反映成功的请求",
                error_rate * 100.0
            ),
            (Self::TooFewSamples { n }, Lang::En) => format!(
                "only {n} measured samples (fewer than {MIN_SAMPLES}; timeouts included): the p95 and the tail are not yet reliable"
            ),
            (Self::TooFewSamples { n }, Lang::ZhCn) => {
                format!(
                    "只有 {n} 个计入的样本（少于 {MIN_SAMPLES} 个，含超时）：p95 和长尾还不可靠"
                )
            }
            (Self::Censored { count, timeout_ms }, Lang::En) => {
                let timeout_s = timeout_ms / 1000.0;
                let requests = if count == 1 { "request" } else { "requests" };
                format!(
                    "{count} {requests} saw no first token within the {timeout_s:.0} s timeout: they count as at least {timeout_s:.0} s, so mean, stddev and CV are lower bounds (≥)"
                )
            }
            (Self::Censored { count, timeout_ms }, Lang::ZhCn) => {
                let timeout_s = timeout_ms / 1000.0;
                format!(
                    "{count} 个请求在 {timeout_s:.0} 秒超时内没有收到首个 Token：按至少 {timeout_s:.0} 秒计入，因此均值、标准差和 CV 都是下限（≥）"
                )
            }
            (Self::FailedCountAsSlow { count, timeout_ms }, Lang::En) => {
                let timeout_s = timeout_ms / 1000.0;
                let (requests, each) = if count == 1 {
                    ("request", "it counts")
                } else {
                    ("requests", "each counts")
                };
                format!(
                    "{count} {requests} failed before a first token: for the verdict, the slow count and the ranking {each} as a slow request of the whole {timeout_s:.0} s timeout; the TTFT figures describe the requests that answered"
                )
            }
            (Self::FailedCountAsSlow { count, timeout_ms }, Lang::ZhCn) => {
                let timeout_s = timeout_ms / 1000.0;
                format!(
                    "{count} 个请求在首个 Token 之前失败：判定、慢请求计数和排名中，每个都按耗时满 {timeout_s:.0} 秒超时的慢请求计；TTFT 数字只描述有回答的请求"
                )
            }
            (Self::CvAtCap { n, cap_pct }, Lang::En) => format!(
                "with {n} requests the CV cannot exceed {cap_pct:.0} %: it sits near that cap and cannot show how much worse the tail is — read the slow share and p95"
            ),
            (Self::CvAtCap { n, cap_pct }, Lang::ZhCn) => format!(
                "{n} 个请求的 CV 最多只能到 {cap_pct:.0} %：已接近上限，无法再反映长尾有多严重，请看慢请求占比和 p95"
            ),
        }
    }
}
