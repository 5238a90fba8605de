//! The words of prompt sizes and prefill speed: plan warnings, the prefill
//! rate and its comparison between providers, the per-size table's
//! headings and what the prompt cache saves, in English and Chinese.

use crate::base::lang::Lang;
use crate::documents::dashboard::figures::DayPrefill;
use crate::judgement::prefill::{
    CacheSaving, LineProblem, NoPrediction, PredictionSource, PrefillComparison, PrefillFit,
};
use crate::judgement::prefill_report::{PrefillReport, SizeRow, TargetPrefill};
use crate::planning::plan::{Plan, WarningKind};
use crate::statistics::bootstrap::Interval;
use crate::words::format::{format_ms, format_ratio, grouped, ms_or_dash, unbroken_groups};

/// The Chinese words of the prompt-size warnings (the English ones are the
/// validator's own, with the same figures).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn warning_zh(plan: &Plan, kind: WarningKind) -> String {
    match kind {
        WarningKind::FewRequestsPerSize => format!(
            "每个长度只分到每个目标 {} 个请求中的 {} 个；每个长度少于 75 个请求时，该长度的冷启动长尾常常显示不出来\
             （请增加每个目标的请求数，或减少长度）",
            plan.requests_per_target,
            crate::planning::prompt::requests_per_size(plan).unwrap_or(0)
        ),
        WarningKind::OverContextWindow => {
            let list: Vec<String> = plan
                .sizes_over_context_window()
                .iter()
                .map(|over| {
                    let sizes: Vec<String> =
                        over.sizes.iter().map(|&s| grouped(u64::from(s))).collect();
                    format!(
                        "{}（{}，{} Token）的 {}",
                        plan.targets[over.target].label,
                        plan.targets[over.target].model,
                        grouped(u64::from(over.window)),
                        sizes.join("、")
                    )
                })
                .collect();
            format!(
                "部分长度超出模型的上下文窗口，服务商会拒绝这些请求（记为超出上下文，白白占用请求数）：{}",
                list.join("；")
            )
        }
        _ => format!(
            "长提示词有成本：整个运行中每个目标约读取 {} 个输入 Token（费用估算已计入）",
            grouped(plan.input_tokens_per_target().unwrap_or(0))
        ),
    }
}

/// A rate in tokens per second to three significant digits, thousands set
/// apart: 19 873.2 → "19 900"; "∞" when unbounded.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn format_rate(tokens_per_s: f64) -> String {
    if !tokens_per_s.is_finite() {
        return "∞".to_owned();
    }
    if tokens_per_s <= 0.0 {
        return "0".to_owned();
    }
    let magnitude = tokens_per_s.log10().floor() as i32;
    let unit = 10_f64.powi((magnitude - 2).max(0));
    grouped(((tokens_per_s / unit).round() * unit) as u64)
}

/// A rate's interval: "18 500–21 700", or "≥ 18 500" when unbounded.
#[cfg_attr(target_arch = "wasm32", inline)]
fn rate_interval(interval: &Interval) -> String {
    if interval.high.is_finite() {
        format!(
            "{}–{}",
            format_rate(interval.low),
            format_rate(interval.high)
        )
    } else {
        format!("≥ {}", format_rate(interval.low))
    }
}

/// One target's prefill fit: "prefills 20 000 tokens/s (18 500–21 700),
/// after a fixed 165 ms (150–180 ms)". A fixed part that comes out below
/// zero is no time and is not given as one: the sentence says why. An
/// interval end below zero is shown as 0, since no fixed time is less.
/// Counts estimated from the synthetic prompt are said to be.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn fit_sentence(lang: Lang, fit: &PrefillFit) -> String {
    let (open, close) = match lang {
        Lang::En => (" (", ")"),
        Lang::ZhCn => ("（", "）"),
    };
    let rate = format_rate(fit.rate_tokens_per_s);
    let interval = rate_interval(&fit.rate_interval);
    let mut sentence = if fit.fixed_is_time() {
        let fixed = format!(
            "{}{open}{}–{}{close}",
            format_ms(lang, fit.fixed_ms),
            format_ms(lang, fit.fixed_interval.low.max(0.0)),
            format_ms(lang, fit.fixed_interval.high.max(0.0))
        );
        match lang {
            Lang::En => {
                format!("prefills {rate} input tokens/s ({interval}), after a fixed {fixed}")
            }
            Lang::ZhCn => {
                format!("预填充速度 {rate} 输入 Token/秒（{interval}），固定部分 {fixed}")
            }
        }
    } else {
        match lang {
            Lang::En => format!(
                "prefills {rate} input tokens/s ({interval}); no fixed part is given: the line, \
                 carried back to an empty prompt, comes out below zero, which no time can be \
                 (TTFT grows faster at the long sizes than at the short ones)"
            ),
            Lang::ZhCn => format!(
                "预填充速度 {rate} 输入 Token/秒（{interval}）；不给出固定部分：把直线延伸到空提示词时\
                 得到小于零的值，而时间不会小于零（长提示词处 TTFT 增长得比短提示词处快）"
            ),
        }
    };
    if fit.estimated_tokens {
        sentence.push_str(estimated_words(lang));
    }
    sentence
}

/// The clause that says the input counts are the synthetic prompt's own.
#[cfg_attr(target_arch = "wasm32", inline)]
fn estimated_words(lang: Lang) -> &'static str {
    match lang {
        Lang::En => {
            "; input tokens estimated from the synthetic prompt's own count (the provider \
             reported none)"
        }
        Lang::ZhCn => "；输入 Token 数按合成提示词自身的计数估算（服务商未报告）",
    }
}

/// The lack-of-fit sentence: "TTFT does not grow in a straight line with
/// the prompt: at 2 048 and 8 192 tokens the medians (284 ms, 843 ms) lie
/// off the fitted line (410 ms, 1.1 s) beyond both intervals; …"; `None`
/// when the line fits.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn off_line_sentence(lang: Lang, fit: &PrefillFit) -> Option<String> {
    if fit.fits_line() {
        return None;
    }
    let join = |items: Vec<String>| match lang {
        Lang::En => items.join(", "),
        Lang::ZhCn => items.join("、"),
    };
    let sizes = join(
        fit.off_line
            .iter()
            .map(|o| grouped(u64::from(o.size)))
            .collect(),
    );
    let medians = join(
        fit.off_line
            .iter()
            .map(|o| format_ms(lang, o.median_ms))
            .collect(),
    );
    // A line that passes under an empty prompt's TTFT (a negative fixed
    // part) reads below 0 at a short size: no duration is negative, so
    // that point is said as where it lies, not as a time.
    let line = join(
        fit.off_line
            .iter()
            .map(|o| {
                if o.line_ms < 0.0 {
                    match lang {
                        Lang::En => "below 0 ms".to_owned(),
                        Lang::ZhCn => "低于 0 毫秒".to_owned(),
                    }
                } else {
                    format_ms(lang, o.line_ms)
                }
            })
            .collect(),
    );
    Some(match lang {
        Lang::En => format!(
            "TTFT does not grow in a straight line with the prompt: at {sizes} tokens the median \
             TTFT ({medians}) lies off the fitted line ({line}) beyond both intervals, so the rate \
             is only an average over the sizes, and TTFT between sizes is read from the \
             neighbouring sizes"
        ),
        Lang::ZhCn => format!(
            "TTFT 并不随提示词长度直线增长：在 {sizes} Token 处，TTFT 中位数（{medians}）偏离拟合直线\
             （{line}），超出两者的区间；因此速度只是各长度的平均，长度之间的 TTFT 由相邻长度读出"
        ),
    })
}

/// The sentence of a target whose TTFT does not grow with the prompt:
/// no rate and no ratio of speeds.
#[cfg_attr(target_arch = "wasm32", inline)]
fn no_growth_sentence(lang: Lang, target: &TargetPrefill) -> String {
    let ends = |row: Option<&SizeRow>| {
        row.and_then(|r| r.figures.ttft.map(|t| (r.size, t.median)))
            .map(|(size, ms)| (grouped(u64::from(size)), format_ms(lang, ms)))
    };
    let (first, last) = (ends(target.sizes.first()), ends(target.sizes.last()));
    let span = match (first, last, lang) {
        (Some((a, a_ms)), Some((b, b_ms)), Lang::En) => {
            format!(" (median {a_ms} at {a} tokens, {b_ms} at {b})")
        }
        (Some((a, a_ms)), Some((b, b_ms)), Lang::ZhCn) => {
            format!("（{a} Token 时中位数 {a_ms}，{b} Token 时 {b_ms}）")
        }
        _ => String::new(),
    };
    let mut sentence = match lang {
        Lang::En => format!(
            "TTFT does not grow with the prompt{span}: no prefill rate, and no ratio of speeds \
             with other providers"
        ),
        Lang::ZhCn => {
            format!("TTFT 未随提示词增长{span}：没有预填充速度，也不与其他服务商比较速度倍数")
        }
    };
    if target.estimated_tokens {
        sentence.push_str(estimated_words(lang));
    }
    // A cache that served the first sends too flattens the line: say so
    // rather than let "does not grow" stand against the cache hits.
    let (hits, reported) = target.cache.iter().fold((0, 0), |(h, r), c| {
        (h + c.first_sends_cached.0, r + c.first_sends_cached.1)
    });
    if reported > 0 && hits * 2 > reported {
        sentence.push_str(&match lang {
            Lang::En => format!(
                "; but the provider served {hits} of {reported} first sends from its cache (the \
                 plan's nonce is off), so this may be the cache, not the model"
            ),
            Lang::ZhCn => format!(
                "；但服务商有 {reported} 个首次发送中的 {hits} 个是从缓存返回的（计划未开启 nonce），这可能是缓存所致，而非模型本身"
            ),
        });
    }
    sentence
}

/// The TTFT at the plan's typical size, or why there is none: "about
/// 437 ms to the first token at 4 096 input tokens (425–449 ms, between
/// the measured sizes)"; "the typical 65 536 input tokens cannot be used:
/// …".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn typical_sentence(
    lang: Lang,
    tokens: u32,
    typical: &Result<crate::judgement::prefill::Prediction, NoPrediction>,
) -> String {
    let size = grouped(u64::from(tokens));
    match typical {
        Ok(prediction) => {
            let ms = format_ms(lang, prediction.ttft_ms);
            // An interval that reaches a request censored at the timeout
            // has no upper end: only its lower one is said.
            let interval = if prediction.interval.high.is_finite() {
                format!(
                    "{}–{}",
                    format_ms(lang, prediction.interval.low),
                    format_ms(lang, prediction.interval.high)
                )
            } else {
                format!("≥ {}", format_ms(lang, prediction.interval.low))
            };
            match (lang, prediction.source) {
                (Lang::En, PredictionSource::Sizes) => format!(
                    "about {ms} to the first token at {size} input tokens ({interval}, the median \
                     of every request of the measured sizes, timeouts and failures included)"
                ),
                (Lang::En, PredictionSource::Line) => format!(
                    "about {ms} to the first token at {size} input tokens ({interval}, from the \
                     prefill line beyond the measured sizes)"
                ),
                (Lang::ZhCn, PredictionSource::Sizes) => format!(
                    "输入 {size} Token 时首个 Token 约需 {ms}（{interval}，取实测长度全部请求的中位数，含超时和失败）"
                ),
                (Lang::ZhCn, PredictionSource::Line) => format!(
                    "输入 {size} Token 时首个 Token 约需 {ms}（{interval}，由预填充直线外推到实测长度之外）"
                ),
            }
        }
        Err(NoPrediction::SizeUnanswered) => match lang {
            Lang::En => format!(
                "the typical {size} input tokens cannot be read: a measured size around it has \
                 no answered or timed-out request"
            ),
            Lang::ZhCn => format!(
                "无法读出典型长度 {size} 个输入 Token：它前后的某个实测长度没有得到回答或超时的请求"
            ),
        },
        Err(NoPrediction::NothingMeasured) => match lang {
            Lang::En => format!(
                "the typical {size} input tokens cannot be used: no size has 3 warm requests"
            ),
            Lang::ZhCn => {
                format!("无法使用典型长度 {size} 个输入 Token：没有哪个长度有 3 个热请求")
            }
        },
        Err(NoPrediction::Outside {
            smallest,
            largest,
            line,
        }) => {
            let (a, b) = (grouped(u64::from(*smallest)), grouped(u64::from(*largest)));
            let why = match (lang, line) {
                (Lang::En, LineProblem::OneSize) => "only one size was measured",
                (Lang::En, LineProblem::NoGrowth) => "TTFT does not grow with the prompt",
                (Lang::En, LineProblem::NotStraight) => {
                    "TTFT does not grow in a straight line with the prompt"
                }
                (Lang::ZhCn, LineProblem::OneSize) => "只测了一个长度",
                (Lang::ZhCn, LineProblem::NoGrowth) => "TTFT 未随提示词增长",
                (Lang::ZhCn, LineProblem::NotStraight) => "TTFT 并不随提示词长度直线增长",
            };
            match lang {
                Lang::En => format!(
                    "the typical {size} input tokens cannot be used: it lies outside the measured \
                     sizes ({a}–{b}), and no line carries TTFT there because {why}"
                ),
                Lang::ZhCn => format!(
                    "无法使用典型长度 {size} 个输入 Token：它在实测长度（{a}–{b}）之外，且{why}，无法用直线外推"
                ),
            }
        }
    }
}

/// The dashboard's per-day prefill section: its heading, the rate
/// column's heading and the hint under the table.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn daily_words(lang: Lang) -> (&'static str, &'static str, &'static str) {
    match lang {
        Lang::En => (
            "Prefill speed per day",
            "Prefill rate (95 % interval)",
            "Each row is one target's sized requests of one UTC day (first sends only, with the provider's input-token count): the line of TTFT over input tokens gives the rate at which the prompt is read. A fall shows the provider reading prompts more slowly; it cannot say why.",
        ),
        Lang::ZhCn => (
            "每天的预填充速度",
            "预填充速度（95 % 区间）",
            "每行是一个目标在一个 UTC 日内带提示词大小的请求（仅首次发送，按服务商报告的输入 Token 数）：TTFT 对输入 Token 数的直线给出读取提示词的速度。速度下降说明服务商读取提示词变慢了，但无法说明原因。",
        ),
    }
}

/// A day's prefill cell: "20 000 input tokens/s (18 500–21 700)", or the
/// plain words of a day with too few sizes or no growth. Groups never
/// break apart.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn day_rate(lang: Lang, rate: &DayPrefill) -> String {
    let text = match (lang, rate) {
        (
            Lang::En,
            DayPrefill::Fitted {
                rate_tokens_per_s,
                interval,
                ..
            },
        ) => format!(
            "{} input tokens/s ({})",
            format_rate(*rate_tokens_per_s),
            rate_interval(interval)
        ),
        (
            Lang::ZhCn,
            DayPrefill::Fitted {
                rate_tokens_per_s,
                interval,
                ..
            },
        ) => format!(
            "{} 输入 Token/秒（{}）",
            format_rate(*rate_tokens_per_s),
            rate_interval(interval)
        ),
        (Lang::En, DayPrefill::TooFew { sizes }) => {
            format!("too few sizes for a rate ({sizes} of 2 with enough requests)")
        }
        (Lang::ZhCn, DayPrefill::TooFew { sizes }) => {
            format!("大小太少，无法得出速度（请求足够的大小 {sizes} 个，需要 2 个）")
        }
        (Lang::En, DayPrefill::NoGrowth) => {
            "no prefill rate: TTFT did not grow with the prompt".to_owned()
        }
        (Lang::ZhCn, DayPrefill::NoGrowth) => "无预填充速度：TTFT 未随提示词增长".to_owned(),
    };
    unbroken_groups(&text)
}

/// Two providers of one model on prefill speed, ties admitted: "B
/// prefills 2.9× faster than A (2.4–3.5×)", or that these samples cannot
/// tell them apart. `label` names a target by its index.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn comparison_sentence(
    lang: Lang,
    comparison: &PrefillComparison,
    fast_label: &str,
    slow_label: &str,
) -> String {
    let ratio = format_ratio(comparison.ratio);
    let interval = format!(
        "{}–{}",
        format_ratio(comparison.ratio_interval.low).trim_end_matches('×'),
        format_ratio(comparison.ratio_interval.high)
    );
    match (lang, comparison.faster.is_some()) {
        (Lang::En, true) => {
            format!("{fast_label} prefills {ratio} faster than {slow_label} ({interval})")
        }
        (Lang::En, false) => format!(
            "{fast_label} and {slow_label} prefill at speeds these samples cannot tell apart \
             (ratio {ratio}, {interval})"
        ),
        (Lang::ZhCn, true) => {
            format!("{fast_label} 的预填充速度是 {slow_label} 的 {ratio}（{interval}）")
        }
        (Lang::ZhCn, false) => format!(
            "以当前样本量无法区分 {fast_label} 与 {slow_label} 的预填充速度（比值 {ratio}，{interval}）"
        ),
    }
}

/// What a repeated prompt saved, said under the target's own label (the
/// label is not repeated): "at 8 192 tokens a repeated prompt starts 1.6 s
/// sooner (1.2–2.0 s)", or "no cache effect at 8 192 tokens".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn cache_line(lang: Lang, saving: &CacheSaving) -> String {
    let size = grouped(u64::from(saving.size));
    let amount = |ms: f64| format_ms(lang, ms.abs());
    let (near, far) = if saving.saving_ms >= 0.0 {
        (saving.interval.low, saving.interval.high)
    } else {
        (saving.interval.high, saving.interval.low)
    };
    let interval = format!("{}–{}", amount(near), amount(far));
    let by = amount(saving.saving_ms);
    if saving.first_sends_mostly_cached() {
        // First sends and repeats were both served from the cache: no
        // difference between them is no evidence against a cache.
        let (hits, reported) = saving.first_sends_cached;
        return match lang {
            Lang::En => format!(
                "at {size} tokens the provider served {hits} of {reported} first sends from its \
                 cache too (the plan's nonce is off), so first sends and repeats cannot show what \
                 the cache saves"
            ),
            Lang::ZhCn => format!(
                "{size} Token 时，服务商连首次发送也有 {reported} 个中 {hits} 个命中了缓存（计划未开启 nonce），\
                 首次发送与重复发送无法显示缓存节省了多少"
            ),
        };
    }
    match (lang, saving.has_effect(), saving.saving_ms >= 0.0) {
        (Lang::En, false, _) => format!("no cache effect at {size} tokens"),
        (Lang::En, true, true) => {
            format!("at {size} tokens a repeated prompt starts {by} sooner ({interval})")
        }
        (Lang::En, true, false) => {
            format!("at {size} tokens a repeated prompt starts {by} later ({interval})")
        }
        (Lang::ZhCn, false, _) => format!("{size} Token 时没有显示出缓存效果"),
        (Lang::ZhCn, true, true) => {
            format!("{size} Token 的重复提示词首个 Token 早到 {by}（{interval}）")
        }
        (Lang::ZhCn, true, false) => {
            format!("{size} Token 的重复提示词首个 Token 晚到 {by}（{interval}）")
        }
    }
}

/// The verdict cell of a size the provider refused outright (no request
/// answered, some refused as over the context window).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn refused_cell(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "refused: longer than the model's context window",
        Lang::ZhCn => "被拒绝：超出模型的上下文窗口",
    }
}

/// The per-size table's column headings: size, input tokens (the
/// provider's count), requests, median, p95, cold starts, verdict.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn size_headings(lang: Lang) -> [&'static str; 7] {
    match lang {
        Lang::En => [
            "Size",
            "Input tokens",
            "Requests",
            "TTFT median",
            "p95 TTFT",
            "Cold starts",
            "Verdict",
        ],
        Lang::ZhCn => [
            "长度",
            "输入 Token",
            "请求数",
            "TTFT 中位数",
            "p95 TTFT",
            "冷启动",
            "结论",
        ],
    }
}

/// "3 sizes refused: the prompt is longer than the model takes" for the
/// sizes a target refused as over its context window.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn refused_sentence(lang: Lang, sizes: &[u32]) -> String {
    let list: Vec<String> = sizes.iter().map(|&s| grouped(u64::from(s))).collect();
    match lang {
        Lang::En => format!(
            "refused {} tokens: the prompt is longer than this model takes (its context window)",
            list.join(", ")
        ),
        Lang::ZhCn => format!(
            "拒绝了 {} Token 的提示词：超出该模型可接受的长度（上下文窗口）",
            list.join("、")
        ),
    }
}

/// The prefill chart's caption and the headings of its number table that
/// [`size_headings`] lacks: (caption, warm median TTFT, fitted TTFT).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn chart_words(lang: Lang) -> (&'static str, &'static str, &'static str) {
    match lang {
        Lang::En => (
            "TTFT by input tokens, with each target's fitted line",
            "Warm TTFT median",
            "Fitted TTFT",
        ),
        Lang::ZhCn => (
            "TTFT 随输入 Token 的变化及各目标的拟合线",
            "热请求 TTFT 中位数",
            "拟合 TTFT",
        ),
    }
}

/// The heading of the prompt-size block.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn heading(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Prompt size and prefill speed",
        Lang::ZhCn => "提示词长度与预填充速度",
    }
}

/// One size's row as cells under [`size_headings`]: "8 192", "8 199",
/// "80", "1.52 s", "1.61 s", "4 of 80", "cold starts, judge p95".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn size_cells(lang: Lang, row: &SizeRow) -> [String; 7] {
    let [size, tokens, requests, median, p95, slow] = size_figure_cells(lang, row);
    [
        size,
        tokens,
        requests,
        median,
        p95,
        slow,
        if refused(row) {
            refused_cell(lang).to_owned()
        } else {
            row.figures.judgement.finished_label(lang, true)
        },
    ]
}

/// Whether the provider refused this size (context exceeded): it has no
/// figures to judge, and its verdict says why rather than "collecting
/// (0 of 20)".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn refused(row: &SizeRow) -> bool {
    row.figures.ttft.is_none()
        && row
            .figures
            .errors_by_kind
            .iter()
            .any(|(kind, _)| *kind == crate::wire::sample::ErrorKind::ContextExceeded)
}

/// [`size_cells`] but the verdict, which the page shows as its badge (or,
/// for a [`refused`] size, as [`refused_cell`]).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn size_figure_cells(lang: Lang, row: &SizeRow) -> [String; 6] {
    let figures = &row.figures;
    let ms = |value: Option<f64>| ms_or_dash(lang, value);
    let slow = figures.slow.map_or_else(
        || "–".to_owned(),
        |slow| match lang {
            Lang::En => format!("{} of {}", slow.slow, slow.of),
            Lang::ZhCn => format!("{} 个中 {} 个", slow.of, slow.slow),
        },
    );
    [
        grouped(u64::from(row.size)),
        row.input_tokens
            .map_or_else(|| "–".to_owned(), |t| grouped(t.round() as u64)),
        figures.requests.to_string(),
        ms(figures.ttft.map(|t| t.median)),
        ms(figures.ttft.map(|t| t.p95)),
        slow,
    ]
}

/// The sentences under the per-size tables: per target its fit (or why
/// there is none), its refused sizes, the TTFT at the typical size and
/// each cache saving; then per model its targets' comparison.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PrefillLines {
    /// The targets' sentences, in plan order, as (target's index in the
    /// plan, label, sentence).
    pub targets: Vec<(u32, String, String)>,
    /// Each model's comparison, as (model, sentence).
    pub models: Vec<(String, String)>,
}

/// [`PrefillLines`] as (label, sentence), the targets' first.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn lines(lang: Lang, report: &PrefillReport) -> Vec<(String, String)> {
    let PrefillLines { targets, models } = prefill_lines(lang, report);
    targets
        .into_iter()
        .map(|(_, label, text)| (label, text))
        .chain(models)
        .collect()
}

/// The sentences of `report` in `lang`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn prefill_lines(lang: Lang, report: &PrefillReport) -> PrefillLines {
    let mut lines = PrefillLines::default();
    for target in &report.targets {
        let mut push = |text: String| {
            lines
                .targets
                .push((target.target, target.label.clone(), text));
        };
        match &target.fit {
            _ if target.no_growth => push(no_growth_sentence(lang, target)),
            Some(fit) => {
                push(fit_sentence(lang, fit));
                if let Some(sentence) = off_line_sentence(lang, fit) {
                    push(sentence);
                }
            }
            None => push(match lang {
                Lang::En => {
                    "no prefill fit: it needs two sizes with 3 warm requests each".to_owned()
                }
                Lang::ZhCn => "无法拟合预填充速度：需要至少两个长度各有 3 个热请求".to_owned(),
            }),
        }
        if !target.refused_sizes.is_empty() {
            push(refused_sentence(lang, &target.refused_sizes));
        }
        if let (Some(typical), Some(tokens)) = (&target.typical, report.typical_prompt_tokens) {
            push(typical_sentence(lang, tokens, typical));
        }
        for saving in &target.cache {
            push(cache_line(lang, saving));
        }
    }
    for model in &report.models {
        let comparison = &model.comparison;
        let slow = report.label(comparison.slower).to_owned();
        let fast = report.label(comparison.higher).to_owned();
        lines.models.push((
            model.model.clone(),
            comparison_sentence(lang, comparison, &fast, &slow),
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_s_prefill_cell_reads_in_both_languages() {
        let fitted = DayPrefill::Fitted {
            rate_tokens_per_s: 19_873.2,
            interval: Interval {
                low: 18_512.0,
                high: 21_688.0,
            },
            fixed_ms: 165.0,
        };
        assert_eq!(
            day_rate(Lang::En, &fitted),
            "19\u{a0}900 input tokens/s (18\u{a0}500–21\u{a0}700)"
        );
        assert_eq!(
            day_rate(Lang::ZhCn, &fitted),
            "19\u{a0}900 输入 Token/秒（18\u{a0}500–21\u{a0}700）"
        );
        let unbounded = DayPrefill::Fitted {
            rate_tokens_per_s: 5_000.0,
            interval: Interval {
                low: 1_200.0,
                high: f64::INFINITY,
            },
            fixed_ms: 100.0,
        };
        assert_eq!(
            day_rate(Lang::En, &unbounded),
            "5\u{a0}000 input tokens/s (≥ 1\u{a0}200)"
        );
        assert_eq!(
            day_rate(Lang::En, &DayPrefill::TooFew { sizes: 1 }),
            "too few sizes for a rate (1 of 2 with enough requests)"
        );
        assert!(day_rate(Lang::ZhCn, &DayPrefill::TooFew { sizes: 0 }).contains("0 个"));
        assert!(day_rate(Lang::En, &DayPrefill::NoGrowth).starts_with("no prefill rate"));
        assert!(day_rate(Lang::ZhCn, &DayPrefill::NoGrowth).starts_with("无预填充速度"));
        let (en, zh) = (daily_words(Lang::En), daily_words(Lang::ZhCn));
        assert_eq!(en.0, "Prefill speed per day");
        assert_eq!(zh.0, "每天的预填充速度");
        assert_ne!(en.2, zh.2);
    }

    #[test]
    fn thousands_are_set_apart() {
        assert_eq!(grouped(8_192), "8 192");
        assert_eq!(grouped(512), "512");
        assert_eq!(grouped(1_234_567), "1 234 567");
        assert_eq!(format_rate(19_873.2), "19 900");
        assert_eq!(format_rate(6_012.0), "6 010");
        assert_eq!(format_rate(f64::INFINITY), "∞");
    }

    #[test]
    fn the_sentences_say_faster_only_with_a_winner() {
        let interval = |low, high| Interval { low, high };
        let mut comparison = PrefillComparison {
            faster: Some(1),
            higher: 1,
            slower: 0,
            ratio: 2.93,
            ratio_interval: interval(2.41, 3.52),
        };
        assert_eq!(
            comparison_sentence(Lang::En, &comparison, "B", "A"),
            "B prefills 2.9× faster than A (2.4–3.5×)"
        );
        comparison.faster = None;
        assert!(comparison_sentence(Lang::En, &comparison, "B", "A").contains("cannot tell"));
        assert!(comparison_sentence(Lang::ZhCn, &comparison, "B", "A").contains("无法区分"));
        let saving = CacheSaving {
            target: 1,
            size: 8_192,
            pairs: 30,
            saving_ms: 1_600.0,
            interval: interval(1_200.0, 2_000.0),
            cached_tokens: Some(8_192.0),
            first_sends_cached: (0, 30),
        };
        let none = CacheSaving {
            saving_ms: 10.0,
            interval: interval(-30.0, 40.0),
            ..saving
        };
        // Under the target's own label the sentence does not name it again.
        assert_eq!(
            cache_line(Lang::En, &saving),
            "at 8 192 tokens a repeated prompt starts 1.6 s sooner (1.2 s–2 s)"
        );
        assert_eq!(
            cache_line(Lang::En, &none),
            "no cache effect at 8 192 tokens"
        );
        assert_eq!(
            cache_line(Lang::ZhCn, &saving),
            "8 192 Token 的重复提示词首个 Token 早到 1.6 秒（1.2 秒–2 秒）"
        );
        assert_eq!(
            cache_line(Lang::ZhCn, &none),
            "8 192 Token 时没有显示出缓存效果"
        );
        // First sends that were hits themselves: no "no cache effect"
        // beside a table of cache hits.
        let both_cached = CacheSaving {
            first_sends_cached: (6, 7),
            ..none
        };
        for lang in [Lang::En, Lang::ZhCn] {
            let line = cache_line(lang, &both_cached);
            assert!(
                !line.contains("no cache effect") && !line.contains("没有显示出缓存效果"),
                "{line}"
            );
            assert!(line.contains('6') && line.contains('7'), "{line}");
        }
    }

    #[test]
    fn a_refused_size_s_row_says_it_was_refused_and_the_lines_name_no_label_twice() {
        use crate::judgement::prefill_report::prefill_report;
        use crate::planning::plan::Target;
        use crate::planning::prompt::SizedPrompt;
        use crate::testing::fixtures::sample;
        use crate::wire::sample::{ErrorKind, Sample};
        let plan = Plan {
            targets: vec![Target::openai("fast", "https://a.example/v1", "m")],
            prompt_sizes: Some(vec![128, 65_536]),
            prompt_cache_probe: true,
            requests_per_target: 40,
            ..Plan::default()
        };
        let sized = |mut s: Sample, tokens: u32, repeat_of: Option<u32>| {
            s.sized_prompt = Some(SizedPrompt { tokens, repeat_of });
            s.input_tokens = s.error.is_none().then_some(tokens);
            s
        };
        let mut samples = Vec::new();
        for round in 0..20u32 {
            let at = f64::from(round) * 1_000.0;
            samples.push(sized(
                sample(0, round * 3, at, Some(300.0), false),
                128,
                None,
            ));
            samples.push(sized(
                Sample::failed(0, round * 3 + 1, ErrorKind::ContextExceeded),
                65_536,
                None,
            ));
            // A repeat of the 128-token prompt that saves nothing.
            samples.push(sized(
                sample(
                    0,
                    round * 3 + 2,
                    at + 500.0,
                    Some(300.0 + f64::from(round % 3)),
                    false,
                ),
                128,
                Some(round * 3),
            ));
        }
        let report = prefill_report(&plan, &samples, 1).unwrap();
        let rows = &report.targets[0].sizes;
        assert_eq!(rows.len(), 2);
        for (lang, words) in [
            (Lang::En, "refused: longer than the model's context window"),
            (Lang::ZhCn, "被拒绝：超出模型的上下文窗口"),
        ] {
            assert_eq!(size_cells(lang, &rows[1])[6], words);
            assert_ne!(size_cells(lang, &rows[0])[6], words);
        }
        let lines = lines(Lang::En, &report);
        assert!(
            lines.contains(&(
                "fast".to_owned(),
                "no cache effect at 128 tokens".to_owned()
            )),
            "{lines:?}"
        );
        assert!(
            lines
                .iter()
                .all(|(label, sentence)| !sentence.contains(label.as_str())),
            "{lines:?}"
        );
    }

    #[test]
    fn a_size_over_a_known_context_window_is_warned_about_in_both_languages() {
        use crate::planning::plan::Target;
        let preset = |label: &str, provider: &str, model: &str| Target {
            provider: Some(provider.to_owned()),
            ..Target::openai(label, "https://api.example.com/v1", model)
        };
        let mut plan = Plan {
            targets: vec![
                preset("A", "openai", "gpt-4o"),
                preset("K", "moonshot-cn", "moonshot-v1-32k"),
                // A model whose window is not known for certain: no word.
                preset("D", "deepseek", "deepseek-chat"),
                Target::openai("C", "https://api.example.com/v1", "gpt-4o"),
            ],
            prompt_sizes: Some(vec![8_192, 65_536, 262_144]),
            ..Plan::default()
        };
        let over = plan.sizes_over_context_window();
        assert_eq!(
            over.iter()
                .map(|o| (o.target, o.window, o.sizes.clone()))
                .collect::<Vec<_>>(),
            [
                (0, 128_000, vec![262_144]),
                (1, 32_768, vec![65_536, 262_144])
            ]
        );
        let warning = plan
            .warnings()
            .into_iter()
            .find(|w| w.kind == WarningKind::OverContextWindow)
            .unwrap();
        assert_eq!(warning.field, "prompt_sizes");
        assert!(
            warning.message.ends_with(
                "A (gpt-4o, 128 000 tokens) at 262 144; K (moonshot-v1-32k, 32 768 tokens) at \
                 65 536, 262 144"
            ),
            "{}",
            warning.message
        );
        let zh = warning_zh(&plan, WarningKind::OverContextWindow);
        assert!(
            zh.contains("上下文窗口")
                && zh.contains("K（moonshot-v1-32k，32 768 Token）的 65 536、262 144"),
            "{zh}"
        );
        // Sizes within every known window: no warning.
        plan.prompt_sizes = Some(vec![128, 8_192]);
        assert!(plan.sizes_over_context_window().is_empty());
        assert!(
            plan.warnings()
                .iter()
                .all(|w| w.kind != WarningKind::OverContextWindow)
        );
    }

    #[test]
    fn warnings_are_said_in_chinese_too() {
        let plan = Plan {
            prompt_sizes: Some(vec![128, 8_192]),
            ..Plan::default()
        };
        let kinds: Vec<WarningKind> = plan.warnings().iter().map(|w| w.kind).collect();
        assert!(kinds.contains(&WarningKind::FewRequestsPerSize));
        assert!(kinds.contains(&WarningKind::LongPromptsCost));
        let text = warning_zh(&plan, WarningKind::FewRequestsPerSize);
        assert!(text.contains("100 个请求中的 50 个"), "{text}");
        // 50 × 128 + 50 × 8 192 + 2 warm-ups × 128.
        assert!(warning_zh(&plan, WarningKind::LongPromptsCost).contains("416 256"));
        let english = plan.warnings();
        assert!(english.iter().any(|w| w.message.contains("416 256")));
    }
}
