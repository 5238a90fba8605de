//! The routing table's reasons: why a provider is picked for a model, or
//! why none is, and what the fidelity check adds beside a pick. The rule
//! that picks is in [`crate::judgement::compare`]; this says what it found.

use crate::base::lang::Lang;
use crate::judgement::fidelity_score::FidelityVerdict;
use crate::judgement::verdict::{ERROR_RATE_THRESHOLD, Judgement, VERDICT_MIN_SAMPLES};
use crate::statistics::bootstrap::Interval;
use crate::words::format::format_ms;

/// Why a model has no pick: no provider has enough samples yet
/// (`collecting`), or none that has kept its error rate under the
/// threshold.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn no_route_reason(lang: Lang, collecting: bool) -> String {
    let threshold_pct = ERROR_RATE_THRESHOLD * 100.0;
    match (lang, collecting) {
        (Lang::En, true) => {
            format!("no provider has {VERDICT_MIN_SAMPLES} successful samples")
        }
        (Lang::ZhCn, true) => format!("没有服务商达到 {VERDICT_MIN_SAMPLES} 个成功样本"),
        (Lang::En, false) => format!(
            "no provider with {VERDICT_MIN_SAMPLES} or more samples had an error rate under {threshold_pct:.0} %"
        ),
        (Lang::ZhCn, false) => format!(
            "样本数不少于 {VERDICT_MIN_SAMPLES} 的服务商中，没有错误率低于 {threshold_pct:.0} % 的"
        ),
    }
}

/// A target's TTFT at the plan's `typical_prompt_tokens`, as the route
/// ranks by it: the median of every first send of the sizes around it
/// (timeouts and failures at the timeout), read between them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TypicalTtft {
    /// The typical size, input tokens.
    pub tokens: u32,
    /// The reading, ms: the size's median, or the straight line between
    /// the two neighbouring sizes' medians; outside the measured sizes the
    /// nearest size's median. Infinite when a median it reads is censored
    /// at the timeout.
    pub ttft_ms: f64,
    /// Its 95 % interval, ms: each median's distribution-free interval,
    /// read the same way (`high` infinite when one is unbounded).
    pub interval: Interval,
    /// The measured size the reading stands at when the typical size lies
    /// outside the measured ones (no line carries a decision beyond them).
    pub nearest: Option<u32>,
    /// The two sizes read (the same size twice at or beyond a size).
    pub sizes: (u32, u32),
}

/// What the routing rule found about its pick, for [`pick_reason`].
#[derive(Clone, Copy, Debug)]
pub struct Pick<'a> {
    /// The pick's label.
    pub label: &'a str,
    /// It is the only provider measured for the model.
    pub only_one: bool,
    /// Providers with an error rate under the threshold.
    pub eligible: usize,
    /// The pick's p95 TTFT, ms.
    pub p95_ms: f64,
    /// The pick's CV, %.
    pub cv_pct: f64,
    /// The pick's judgement (a verdict, provisional or final).
    pub judgement: Judgement,
    /// Slow requests of the pick, of its ranked requests, over the
    /// threshold (ms), when the rule ranked by slow share.
    pub slow: Option<(usize, usize, f64)>,
    /// Labels of the providers the pick cannot be told from.
    pub tied: &'a [String],
    /// The requests the pick's figures rest on.
    pub requests: usize,
    /// The pick's reading at the plan's typical prompt size, when the
    /// ranking went by it.
    pub typical: Option<TypicalTtft>,
}

/// Why the routing rule picked `pick`: "lowest p95 (0.57 s) of 3 providers
/// with error rate under 5 %; CV 21 %, solid", or, ranked at the plan's
/// typical prompt size, "lowest TTFT predicted at the typical 4 096 input
/// tokens (231 ms, from the prefill fit) of 2 providers …", with the ties
/// said first.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn pick_reason(lang: Lang, pick: &Pick<'_>) -> String {
    let threshold_pct = ERROR_RATE_THRESHOLD * 100.0;
    let (p95, cv) = (format_ms(lang, pick.p95_ms), format!("{:.0}", pick.cv_pct));
    let verdict_text = pick.judgement.finished_label(lang, false);
    let eligible = pick.eligible;
    let slow = pick
        .slow
        .map(|(k, n, threshold_ms)| (k, n, format_ms(lang, threshold_ms)));
    let typical = pick
        .typical
        .filter(|_| !pick.only_one)
        .map(|t| typical_words(lang, &t));
    let slow_first = |slow: &Option<(usize, usize, String)>| match (lang, slow) {
        (Lang::En, Some((k, n, threshold))) => {
            format!("fewest slow requests ({k} of {n} over {threshold}), then ")
        }
        (Lang::ZhCn, Some((k, n, threshold))) => {
            format!("慢请求最少（{n} 个中 {k} 个超过 {threshold}），其次")
        }
        (_, None) => String::new(),
    };
    let reason = match (lang, pick.only_one, &slow, typical) {
        (Lang::En, _, _, Some((tokens, ms, source))) => format!(
            "{}lowest median TTFT at the typical {tokens} input tokens ({ms}, {source}) of {eligible} providers with error rate under {threshold_pct:.0} %; CV {cv} %, {verdict_text}",
            slow_first(&slow)
        ),
        (Lang::ZhCn, _, _, Some((tokens, ms, source))) => format!(
            "在 {eligible} 个错误率低于 {threshold_pct:.0} % 的服务商中，{}典型长度 {tokens} 个输入 Token 时首个 Token 中位数最低（{ms}，{source}）；CV {cv} %，{verdict_text}",
            slow_first(&slow)
        ),
        (Lang::En, true, _, None) => {
            format!("only provider measured: p95 {p95}, CV {cv} %, {verdict_text}")
        }
        (Lang::En, false, Some((k, n, threshold)), None) => format!(
            "fewest slow requests ({k} of {n} over {threshold}), then lowest p95 ({p95}), of {eligible} providers with error rate under {threshold_pct:.0} %; CV {cv} %, {verdict_text}"
        ),
        (Lang::En, false, None, None) => format!(
            "lowest p95 ({p95}) of {eligible} providers with error rate under {threshold_pct:.0} %; CV {cv} %, {verdict_text}"
        ),
        (Lang::ZhCn, true, _, None) => {
            format!("唯一测量的服务商：p95 {p95}，CV {cv} %，{verdict_text}")
        }
        (Lang::ZhCn, false, Some((k, n, threshold)), None) => format!(
            "在 {eligible} 个错误率低于 {threshold_pct:.0} % 的服务商中慢请求最少（{n} 个中 {k} 个超过 {threshold}），其次 p95 最低（{p95}）；CV {cv} %，{verdict_text}"
        ),
        (Lang::ZhCn, false, None, None) => format!(
            "在 {eligible} 个错误率低于 {threshold_pct:.0} % 的服务商中 p95 最低（{p95}）；CV {cv} %，{verdict_text}"
        ),
    };
    if pick.tied.is_empty() {
        return reason;
    }
    let (label, others, n) = (pick.label, pick.tied.join(", "), pick.requests);
    match lang {
        Lang::En => format!(
            "{label} or {others}: not distinguishable with {n} requests; by the rule, {reason}"
        ),
        Lang::ZhCn => format!("{label} 或 {others}：以 {n} 个请求无法区分；按规则，{reason}"),
    }
}

/// A typical-size reading in words: the size, the reading and where it
/// was read ("the median at 2 048 tokens", "between the medians at 2 048
/// and 8 192 tokens", "the median at 16 384 tokens, the nearest measured
/// size"), every request of those sizes counted.
#[cfg_attr(target_arch = "wasm32", inline)]
fn typical_words(lang: Lang, typical: &TypicalTtft) -> (String, String, String) {
    let grouped = |tokens: u32| crate::words::format::grouped(u64::from(tokens));
    let (low, high) = (grouped(typical.sizes.0), grouped(typical.sizes.1));
    let source = match (lang, typical.nearest, typical.sizes.0 == typical.sizes.1) {
        (Lang::En, Some(_), _) => {
            format!("the median of every request at {low} tokens, the nearest measured size")
        }
        (Lang::En, None, true) => format!("the median of every request at {low} tokens"),
        (Lang::En, None, false) => {
            format!("read between the medians of every request at {low} and {high} tokens")
        }
        (Lang::ZhCn, Some(_), _) => format!("取最接近的实测长度 {low} Token 全部请求的中位数"),
        (Lang::ZhCn, None, true) => format!("取 {low} Token 全部请求的中位数"),
        (Lang::ZhCn, None, false) => {
            format!("由 {low} 与 {high} Token 全部请求的中位数之间读出")
        }
    };
    let ms = if typical.ttft_ms.is_finite() {
        format_ms(lang, typical.ttft_ms)
    } else {
        "∞".to_owned()
    };
    (grouped(typical.tokens), ms, source)
}

/// What the best-provider line adds for a pick whose fidelity verdict
/// is `verdict` against `reference`: the same caveat as its route's
/// reason, so the headline never recommends a provider whose answers
/// differ without saying so. `None` for a consistent pick.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn best_note(lang: Lang, verdict: FidelityVerdict, reference: &str) -> Option<String> {
    match (lang, verdict) {
        (Lang::En, FidelityVerdict::Differs) => Some(format!(
            " — but its answers differ from {reference}'s in the fidelity check: check them \
             before routing to it"
        )),
        (Lang::ZhCn, FidelityVerdict::Differs) => Some(format!(
            "——但保真检查中它的回答与 {reference} 不同：路由前请先查看"
        )),
        (Lang::En, FidelityVerdict::Inconclusive) => Some(format!(
            " — the fidelity check against {reference} is inconclusive"
        )),
        (Lang::ZhCn, FidelityVerdict::Inconclusive) => {
            Some(format!("——与 {reference} 的保真检查无定论"))
        }
        _ => None,
    }
}

/// What the routing table adds beside a pick whose answers differ from the
/// reference's, so it never recommends one without saying so.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn route_note(lang: Lang, verdict: FidelityVerdict, reference: &str) -> Option<String> {
    match (lang, verdict) {
        (Lang::En, FidelityVerdict::Differs) => Some(format!(
            " Its answers differ from {reference}'s in the fidelity check: check them before \
             routing to it."
        )),
        (Lang::ZhCn, FidelityVerdict::Differs) => Some(format!(
            "但保真检查中它的回答与 {reference} 不同：路由前请先查看。"
        )),
        (Lang::En, FidelityVerdict::Inconclusive) => Some(format!(
            " The fidelity check against {reference} is inconclusive."
        )),
        (Lang::ZhCn, FidelityVerdict::Inconclusive) => {
            Some(format!("与 {reference} 的保真检查无定论。"))
        }
        _ => None,
    }
}

/// The routing rule as it was applied to one model, in words: what makes
/// a target eligible, what slow means for each (its own warm reference,
/// or the plan's TTFT budget `budget_ms`), the typical-size reading when
/// `typical_tokens` ranked, and the quantiles that break ties. Made from
/// the same constants and plan facts the ranking reads
/// ([`crate::judgement::compare`]), so the printed rule is the rule used.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn rule_text(lang: Lang, budget_ms: Option<f64>, typical_tokens: Option<u32>) -> String {
    let threshold_pct = ERROR_RATE_THRESHOLD * 100.0;
    let min = crate::judgement::verdict::VERDICT_MIN_SAMPLES;
    let multiple = crate::judgement::slow::SLOW_MULTIPLE;
    let grouped = |tokens: u32| crate::words::format::grouped(u64::from(tokens));
    match lang {
        Lang::En => {
            let slow = match budget_ms {
                Some(budget) => format!("over the TTFT budget of {}", format_ms(lang, budget)),
                None => format!("each target's own: over {multiple:.0}× its warm reference"),
            };
            let typical = typical_tokens.map_or_else(String::new, |tokens| {
                format!(
                    ", then the lowest median TTFT at the typical {} input tokens (every request \
                     of the measured sizes around it, read between them; the nearest size's \
                     outside them)",
                    grouped(tokens)
                )
            });
            format!(
                "Rule: among targets with an error rate under {threshold_pct:.0} % and at least \
                 {min} ranked requests, the fewest slow requests ({slow}; every timeout and \
                 failure before the first token counts as slow){typical}, then the lowest p95, \
                 then the lowest median (timeouts and failures ranked at the timeout); a pick \
                 the requests cannot tell apart from the runner-up says so."
            )
        }
        Lang::ZhCn => {
            let slow = match budget_ms {
                Some(budget) => format!("超过时延预算 {}", format_ms(lang, budget)),
                None => format!("各目标按自己的标准：超过其热请求参考值的 {multiple:.0} 倍"),
            };
            let typical = typical_tokens.map_or_else(String::new, |tokens| {
                format!(
                    "，再看典型长度 {} 个输入 Token 时首个 Token 的中位数最低（取其前后实测长度的全部请求，在两者之间读出；超出实测长度时取最接近的长度）",
                    grouped(tokens)
                )
            });
            format!(
                "规则：在错误率低于 {threshold_pct:.0} % 且至少有 {min} 个排序请求的目标中，先看慢请求最少（{slow}；每次超时和首个 Token 之前的失败都算慢请求）{typical}，再看 p95 最低，再看中位数最低（超时和失败按超时值排序）；若与第二名无法区分，会明确说明。"
            )
        }
    }
}
