//! The routing table's reasons: why a provider is picked for a model, or
//! why none is, and what the fidelity check adds beside a pick. The rule
//! that picks is in [`crate::judgement::compare`]; this says what it found.

use crate::base::lang::Lang;
use crate::judgement::fidelity_score::FidelityVerdict;
use crate::judgement::verdict::{ERROR_RATE_THRESHOLD, Judgement, VERDICT_MIN_SAMPLES};
use crate::words::format::format_ms;

/// Why a model has no pick: no provider has enough samples yet
/// (`collecting`), or none that has kept its error rate under the
/// threshold.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn no_route_reason(lang: Lang, collecting: bool) -> String {
    let threshold_pct = ERROR_RATE_THRESHOLD * 100.0;
    match (lang, collecting) {
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
    }
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
    /// The plan's typical prompt size (tokens), the TTFT predicted for the
    /// pick there (ms) and whether the prefill line carried it beyond the
    /// measured sizes (else it was read from them), when the ranking went
    /// by it.
    pub typical: Option<(u32, f64, bool)>,
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
        .map(|(tokens, ms, from_line)| {
            let source = match (lang, from_line) {
                (Lang::En, true) => "from the prefill fit",
                (Lang::En, false) => "read from the measured sizes",
                (Lang::ZhCn, true) => "按预填充拟合预测",
                (Lang::ZhCn, false) => "由实测长度读出",
            };
            (
                crate::words::format::grouped(u64::from(tokens)),
                format_ms(lang, ms),
                source,
            )
        });
    let reason = match (lang, pick.only_one, &slow, typical) {
        (Lang::En, _, _, Some((tokens, ms, source))) => format!(
            "lowest TTFT predicted at the typical {tokens} input tokens ({ms}, {source}) of {eligible} providers with error rate under {threshold_pct:.0} %; CV {cv} %, {verdict_text}"
        ),
        (Lang::ZhCn, _, _, Some((tokens, ms, source))) => format!(
            "在 {eligible} 个错误率低于 {threshold_pct:.0}% 的服务商中，{source}，典型长度 {tokens} 个输入 Token 时首个 Token 最快（{ms}）；CV {cv}%，{verdict_text}"
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
            format!("唯一测量的服务商：p95 {p95}，CV {cv}%，{verdict_text}")
        }
        (Lang::ZhCn, false, Some((k, n, threshold)), None) => format!(
            "在 {eligible} 个错误率低于 {threshold_pct:.0}% 的服务商中慢请求最少（{n} 个中 {k} 个超过 {threshold}），其次 p95 最低（{p95}）；CV {cv}%，{verdict_text}"
        ),
        (Lang::ZhCn, false, None, None) => format!(
            "在 {eligible} 个错误率低于 {threshold_pct:.0}% 的服务商中 p95 最低（{p95}）；CV {cv}%，{verdict_text}"
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
