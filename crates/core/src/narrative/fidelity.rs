//! The fidelity check's words, in both languages: verdicts, categories,
//! failures, the one sentence per target and the note the routing table
//! adds beside a pick. It says what was seen ("answers differ from X on 7 of
//! 60 probe replies"), never why: the check cannot tell a quantized model
//! from another template or a truncated context, so it names none of them.

use crate::base::lang::Lang;
use crate::judgement::fidelity_score::{
    CellState, FidelityFigures, FidelityReason, FidelityVerdict, PassRate, TokenAgreement,
};
use crate::planning::fidelity::reply::ToolCall;
use crate::planning::fidelity::suite::Category;
use crate::planning::fidelity::verify::ProbeFailure;

/// A verdict in one word.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn verdict_word(lang: Lang, verdict: FidelityVerdict) -> &'static str {
    match (lang, verdict) {
        (Lang::En, FidelityVerdict::Reference) => "reference",
        (Lang::En, FidelityVerdict::Consistent) => "consistent",
        (Lang::En, FidelityVerdict::Differs) => "differs",
        (Lang::En, FidelityVerdict::Inconclusive) => "inconclusive",
        (Lang::En, FidelityVerdict::NoReference) => "no reference",
        (Lang::ZhCn, FidelityVerdict::Reference) => "参照",
        (Lang::ZhCn, FidelityVerdict::Consistent) => "一致",
        (Lang::ZhCn, FidelityVerdict::Differs) => "不同",
        (Lang::ZhCn, FidelityVerdict::Inconclusive) => "无定论",
        (Lang::ZhCn, FidelityVerdict::NoReference) => "无参照",
    }
}

/// A category's name.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn category_name(lang: Lang, category: Category) -> &'static str {
    match (lang, category) {
        (Lang::En, Category::Arithmetic) => "arithmetic",
        (Lang::En, Category::Counting) => "counting",
        (Lang::En, Category::Date) => "dates",
        (Lang::En, Category::Reverse) => "reversal",
        (Lang::En, Category::Json) => "JSON",
        (Lang::En, Category::OneWord) => "one word",
        (Lang::En, Category::Chinese) => "Chinese",
        (Lang::En, Category::LongContext) => "long context",
        (Lang::En, Category::ToolCall) => "tool calls",
        (Lang::En, Category::NoToolCall) => "no tool call",
        (Lang::ZhCn, Category::Arithmetic) => "算术",
        (Lang::ZhCn, Category::Counting) => "计数",
        (Lang::ZhCn, Category::Date) => "日期",
        (Lang::ZhCn, Category::Reverse) => "倒写",
        (Lang::ZhCn, Category::Json) => "JSON",
        (Lang::ZhCn, Category::OneWord) => "一词作答",
        (Lang::ZhCn, Category::Chinese) => "中文",
        (Lang::ZhCn, Category::LongContext) => "长上下文",
        (Lang::ZhCn, Category::ToolCall) => "工具调用",
        (Lang::ZhCn, Category::NoToolCall) => "不调用工具",
    }
}

/// Why a reply failed, in a few words.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn failure_text(lang: Lang, failure: ProbeFailure) -> &'static str {
    match (lang, failure) {
        (Lang::En, ProbeFailure::NoAnswer) => "no answer",
        (Lang::En, ProbeFailure::WrongAnswer) => "wrong answer",
        (Lang::En, ProbeFailure::NotOneWord) => "not one word",
        (Lang::En, ProbeFailure::NotJson) => "not a JSON object",
        (Lang::En, ProbeFailure::NotChinese) => "not in Chinese",
        (Lang::En, ProbeFailure::MissingToolCall) => "no tool call",
        (Lang::En, ProbeFailure::UnexpectedToolCall) => "called a tool it should not",
        (Lang::En, ProbeFailure::WrongTool) => "called the wrong tool",
        (Lang::En, ProbeFailure::InvalidArguments) => "arguments do not fit the schema",
        (Lang::En, ProbeFailure::WrongArguments) => "wrong argument values",
        (Lang::ZhCn, ProbeFailure::NoAnswer) => "没有回答",
        (Lang::ZhCn, ProbeFailure::WrongAnswer) => "答案错误",
        (Lang::ZhCn, ProbeFailure::NotOneWord) => "不是一个词",
        (Lang::ZhCn, ProbeFailure::NotJson) => "不是 JSON 对象",
        (Lang::ZhCn, ProbeFailure::NotChinese) => "没有用中文回答",
        (Lang::ZhCn, ProbeFailure::MissingToolCall) => "没有调用工具",
        (Lang::ZhCn, ProbeFailure::UnexpectedToolCall) => "调用了不该调用的工具",
        (Lang::ZhCn, ProbeFailure::WrongTool) => "调用了错误的工具",
        (Lang::ZhCn, ProbeFailure::InvalidArguments) => "参数不符合 schema",
        (Lang::ZhCn, ProbeFailure::WrongArguments) => "参数值错误",
    }
}

/// "57 of 60 (95 %, 86–98 %)".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn pass_rate_text(lang: Lang, pass: &PassRate) -> String {
    let pct = |share: f64| format!("{:.0}", share * 100.0);
    match lang {
        Lang::En => format!(
            "{} of {} ({} %, {}–{} %)",
            pass.passed,
            pass.replies,
            pct(pass.rate()),
            pct(pass.low),
            pct(pass.high)
        ),
        Lang::ZhCn => format!(
            "{}/{}（{} %，{}–{} %）",
            pass.passed,
            pass.replies,
            pct(pass.rate()),
            pct(pass.low),
            pct(pass.high)
        ),
    }
}

/// Why the plan's reference judges nobody: it failed the suite itself
/// (said after its label).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn rejected_reference_sentence(lang: Lang, pass: &PassRate) -> String {
    let pass = pass_rate_text(lang, pass);
    match lang {
        Lang::En => format!(
            "set aside as the reference: it passed only {pass} of the suite's own probes, too \
             few to judge the others by, so every target is read on the suite's expectations \
             alone"
        ),
        Lang::ZhCn => format!(
            "不作为参照：它自己只通过了 {pass} 的探针，不足以评判其他目标，因此每个目标都只按探针的预期来看"
        ),
    }
}

/// One target's fidelity in one sentence, against `reference` (its label)
/// when the plan names one: what was seen, figure by figure.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn fidelity_sentence(
    lang: Lang,
    figures: &FidelityFigures,
    reference: Option<&str>,
) -> String {
    let pass = pass_rate_text(lang, &figures.pass);
    let mut parts: Vec<String> = Vec::new();
    let reference = reference.unwrap_or("–");
    match (lang, figures.verdict) {
        (Lang::En, FidelityVerdict::Reference) => {
            parts.push(format!("The reference: {pass} probe replies pass"));
        }
        (Lang::En, FidelityVerdict::NoReference) => {
            parts.push(format!("{pass} probe replies pass"));
        }
        (Lang::En, verdict) => {
            let relation = match verdict {
                FidelityVerdict::Consistent => "Consistent with",
                FidelityVerdict::Differs => "Differs from",
                _ => "Inconclusive against",
            };
            parts.push(format!("{relation} {reference}: {pass} probe replies pass"));
        }
        (Lang::ZhCn, FidelityVerdict::Reference) => {
            parts.push(format!("参照：探针回答通过 {pass}"))
        }
        (Lang::ZhCn, FidelityVerdict::NoReference) => parts.push(format!("探针回答通过 {pass}")),
        (Lang::ZhCn, verdict) => parts.push(format!(
            "与 {reference} 相比{}：探针回答通过 {pass}",
            verdict_word(Lang::ZhCn, verdict)
        )),
    }
    if let Some((differing, compared)) = figures.differing.filter(|(d, _)| *d > 0) {
        parts.push(match lang {
            Lang::En => format!(
                "answers differ from {reference} on {differing} of {compared} probe replies"
            ),
            Lang::ZhCn => format!("{compared} 个探针回答中有 {differing} 个与 {reference} 不同"),
        });
    }
    if figures.tool_calls > 0 {
        let invalid = figures.tool_calls - figures.tool_calls_valid;
        parts.push(match (lang, invalid) {
            (Lang::En, 0) => format!(
                "tool-call arguments valid in all {} calling replies",
                figures.tool_calls
            ),
            (Lang::En, _) => format!(
                "tool-call arguments invalid in {invalid} of {}",
                figures.tool_calls
            ),
            (Lang::ZhCn, 0) => format!("{} 个工具调用的参数全部有效", figures.tool_calls),
            (Lang::ZhCn, _) => format!("{} 个工具调用中 {invalid} 个参数无效", figures.tool_calls),
        });
    }
    if let Some(trigger) = figures.trigger
        && let Some(f1) = trigger.f1
    {
        let against = match (lang, trigger.against_reference) {
            (Lang::En, true) => format!("against {reference}"),
            (Lang::En, false) => "against the suite".to_owned(),
            (Lang::ZhCn, true) => format!("对照 {reference}"),
            (Lang::ZhCn, false) => "对照探针预期".to_owned(),
        };
        parts.push(match lang {
            Lang::En => format!("tool-call trigger F1 {f1:.2} {against}"),
            Lang::ZhCn => format!("工具调用触发 F1 {f1:.2}（{against}）"),
        });
    }
    if let Some(tokens) = figures.prompt_tokens {
        let differing = tokens.compared - tokens.equal;
        parts.push(match (lang, differing) {
            (Lang::En, 0) => format!(
                "prompt_tokens equal to {reference}'s on all {} probes",
                tokens.compared
            ),
            (Lang::En, _) => format!(
                "prompt_tokens differ from {reference}'s on {differing} of {} probes (median {:+})",
                tokens.compared, tokens.median_difference
            ),
            (Lang::ZhCn, 0) => format!(
                "{} 个探针的 prompt_tokens 与 {reference} 完全相同",
                tokens.compared
            ),
            (Lang::ZhCn, _) => format!(
                "{} 个探针中 {differing} 个的 prompt_tokens 与 {reference} 不同（中位差 {:+}）",
                tokens.compared, tokens.median_difference
            ),
        });
    }
    for reason in &figures.reasons {
        let said = match (lang, reason) {
            (_, FidelityReason::PassRateBelow | FidelityReason::PromptTokens) => continue,
            (Lang::En, FidelityReason::FinishReason) => format!(
                "{} replies ended without a finish reason; {reference}'s never did",
                figures.finish_missing
            ),
            (Lang::En, FidelityReason::MaxTokens) => format!(
                "{} replies ran past max_tokens; {reference}'s never did",
                figures.over_max_tokens
            ),
            (Lang::En, FidelityReason::ReasoningInContent) => format!(
                "{} replies carried reasoning inside the answer; {reference}'s never did",
                figures.reasoning_in_content
            ),
            (Lang::En, FidelityReason::TooFewReplies) => format!(
                "too few replies to judge: {} of {} planned came back",
                figures.pass.replies, figures.planned
            ),
            (Lang::En, FidelityReason::LowerButOverlapping) => {
                format!("its pass rate is below {reference}'s interval, but the intervals overlap")
            }
            (Lang::ZhCn, FidelityReason::FinishReason) => format!(
                "{} 个回答没有结束原因，{reference} 一个都没有",
                figures.finish_missing
            ),
            (Lang::ZhCn, FidelityReason::MaxTokens) => format!(
                "{} 个回答超过了 max_tokens，{reference} 一个都没有",
                figures.over_max_tokens
            ),
            (Lang::ZhCn, FidelityReason::ReasoningInContent) => format!(
                "{} 个回答把推理放进了正文，{reference} 一个都没有",
                figures.reasoning_in_content
            ),
            (Lang::ZhCn, FidelityReason::TooFewReplies) => format!(
                "回答太少，无法判断：计划 {} 个，收到 {} 个",
                figures.planned, figures.pass.replies
            ),
            (Lang::ZhCn, FidelityReason::LowerButOverlapping) => {
                format!("通过率低于 {reference} 的区间，但两个区间仍有重叠")
            }
        };
        parts.push(said);
    }
    if figures.failed_requests > 0 {
        parts.push(match lang {
            Lang::En => format!(
                "{} probe requests failed and are not counted",
                figures.failed_requests
            ),
            Lang::ZhCn => format!("{} 个探针请求失败，未计入", figures.failed_requests),
        });
    }
    match lang {
        Lang::En => format!("{}.", parts.join("; ")),
        Lang::ZhCn => format!("{}。", parts.join("；")),
    }
}

/// "The planned run adds 60 probe requests per target (basic-1, twice)":
/// what the check costs, said before Start.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn probe_cost_text(
    lang: Lang,
    per_target: u32,
    targets: usize,
    suite: &str,
    repeats: u32,
) -> String {
    let total = u64::from(per_target) * targets as u64;
    match lang {
        Lang::En => format!(
            "The fidelity check adds {per_target} short requests per target ({suite} × {repeats}), \
             {total} in all, on the same schedule."
        ),
        Lang::ZhCn => format!(
            "保真检查每个目标增加 {per_target} 个短请求（{suite} × {repeats}），共 {total} 个，按同一时间表发送。"
        ),
    }
}

/// "9 of 10" / "9/10".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn count_of(lang: Lang, part: usize, whole: usize) -> String {
    match lang {
        Lang::En => format!("{part} of {whole}"),
        Lang::ZhCn => format!("{part}/{whole}"),
    }
}

/// A trigger F1 with two decimals ("0.93"), as the sentence writes it.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn f1_text(f1: f64) -> String {
    format!("{f1:.2}")
}

/// "28 of 30 (median +23)": probes counted to the same `prompt_tokens` as
/// the reference's, and the median difference when it is not 0.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn token_agreement_text(lang: Lang, tokens: &TokenAgreement) -> String {
    let equal = count_of(lang, tokens.equal, tokens.compared);
    match (lang, tokens.median_difference) {
        (_, 0) => equal,
        (Lang::En, median) => format!("{equal} (median {median:+})"),
        (Lang::ZhCn, median) => format!("{equal}（中位差 {median:+}）"),
    }
}

/// The mark in a probe-grid cell: ✓ (every reply passed), ✗ (none),
/// "1/2" (some), "–" (no reply).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn cell_mark(passed: usize, replies: usize) -> String {
    match CellState::of_counts(passed, replies) {
        CellState::None => "–".to_owned(),
        CellState::Fail => "✗".to_owned(),
        CellState::Pass => "✓".to_owned(),
        CellState::Mixed => format!("{passed}/{replies}"),
    }
}

/// A grid cell's accessible name: "Demo A, arith-mul: 1 of 2 passed".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn cell_title(lang: Lang, label: &str, probe: &str, passed: usize, replies: usize) -> String {
    match lang {
        Lang::En => format!(
            "{label}, {probe}: {} passed",
            count_of(lang, passed, replies)
        ),
        Lang::ZhCn => format!("{label}，{probe}：{replies} 个回答中通过 {passed} 个"),
    }
}

/// A reply as the grid opens it: the answer, then each call as
/// `name(arguments)` (the form of a probe's right answer), one a line; a
/// reply with neither says so.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn reply_text(lang: Lang, answer: Option<&str>, calls: &[ToolCall]) -> String {
    let mut lines: Vec<String> = Vec::new();
    if let Some(answer) = answer.filter(|a| !a.trim().is_empty()) {
        lines.push(answer.to_owned());
    }
    for call in calls {
        lines.push(format!("{}({})", call.name, call.arguments));
    }
    if lines.is_empty() {
        match lang {
            Lang::En => "(an empty reply)".to_owned(),
            Lang::ZhCn => "（空回答）".to_owned(),
        }
    } else {
        lines.join("\n")
    }
}

/// A run's probe replies so far, for a live line: "probes 21 of 30 passed".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn probe_progress(lang: Lang, passed: usize, replies: usize) -> String {
    match lang {
        Lang::En => format!("probes {passed} of {replies} passed"),
        Lang::ZhCn => format!("探针通过 {passed}/{replies}"),
    }
}
