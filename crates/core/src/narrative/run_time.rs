//! The sentences about a run's own timing and its plan: the plan's
//! warnings in the page's language, the time a run has left, and how much
//! later than planned it ends when slow requests moved its schedule.

use crate::base::lang::Lang;
use crate::words::format::format_duration;

/// A plan warning in the page's language. The English text is the plan
/// validator's own (with its figures); the Chinese one is said per kind.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn warning_text(
    lang: Lang,
    plan: &crate::planning::plan::Plan,
    warning: &crate::planning::plan::Warning,
) -> String {
    use crate::planning::plan::WarningKind;
    if lang == Lang::En {
        return warning.message.clone();
    }
    match warning.kind {
        WarningKind::FewRequests => format!(
            "每个目标少于 75 个请求时，冷启动长尾常常显示不出来（{} 个请求时，约每 20 个中 1 个的长尾有 {:.0} % 的概率一个样本都没有）",
            plan.requests_per_target,
            0.95_f64.powf(f64::from(plan.requests_per_target)) * 100.0
        ),
        WarningKind::NoWarmup => {
            "没有预热请求：首次请求的 DNS、TLS 和跨域预检时间会计入统计".to_owned()
        }
        WarningKind::TightSpacing => format!(
            "请求间隔只有 {} 秒：服务一直保持热状态，冷启动被掩盖，部分服务商还会限制突发请求",
            plan.effective_spacing_s()
        ),
        WarningKind::ShortTimeout => {
            format!(
                "冷启动可能持续 10–90 秒；{} 秒的超时会把慢请求记为错误而不是测量它们",
                plan.timeout_s
            )
        }
        WarningKind::NonZeroTemperature => {
            "温度为 0 时每次请求的负载相同；其他取值会让回复和耗时随之变化".to_owned()
        }
        WarningKind::SpreadOverridesSpacing => {
            "同时设置了分散小时数和请求间隔：以分散小时数为准".to_owned()
        }
        WarningKind::DuplicateLabel => "有目标名称重复，结果中将难以区分".to_owned(),
        WarningKind::MissesAPeriod => {
            let [start, end] = plan.peak_hours;
            let peak = (0..24u8)
                .filter(|&h| crate::judgement::timeofday::is_peak(h, plan.peak_hours))
                .count();
            let longer = peak.max(24 - peak);
            let hours = plan.estimated_duration_s() / 3600.0;
            let length = if hours * 60.0 < 1.0 {
                format!("{:.0} 秒", (hours * 3600.0).round().max(1.0))
            } else if hours < 1.0 {
                format!("{:.0} 分钟", (hours * 60.0).round().max(1.0))
            } else {
                format!("{hours:.1} 小时")
            };
            format!(
                "这次运行{}约 {length}，可能完全错过高峰（{start}:00–{end}:00）或非高峰时段，无法比较两者；\
                 请把运行分散到至少 {longer} 小时，才能同时覆盖两者",
                if plan.duration_is_at_least() {
                    "至少"
                } else {
                    ""
                }
            )
        }
        WarningKind::FixedPromptMayBeCached => "每次请求都用同一个提示词，可能会命中服务商的提示词缓存，\
             而命中缓存的请求首个 Token 到达的时间不同；开启“每个提示词附加随机串”后，每个请求的提示词开头会加上一段该请求独有的字符，\
             任何请求都不会命中缓存（结果中每个样本的缓存 Token 数会显示哪些命中了）"
            .to_owned(),
        WarningKind::FewRequestsPerSize
        | WarningKind::LongPromptsCost
        | WarningKind::OverContextWindow => {
            crate::narrative::prefill::warning_zh(plan, warning.kind)
        }
        WarningKind::FewRequestsPerGap => format!(
            "每个空闲时长只分到每个目标 {} 个请求中的 {} 个；每个时长少于 {} 个请求时，\
             冷启动比例的区间太宽，看不出模型在空闲多久后变冷（请增加每个目标的请求数，或减少空闲时长）",
            plan.requests_per_target,
            plan.requests_per_gap().unwrap_or(0),
            crate::planning::plan::MIN_REQUESTS_PER_GAP
        ),
        WarningKind::IdleGapsShared => format!(
            "有 {} 个目标时同一时刻只有一个请求在进行，另一个目标的请求仍在进行时，请求会等过它的空闲时长\
             （发送间隔不再推迟空闲请求）；每个样本记录实际空闲时长，并按实际空闲达到的最长间隔计入，报告会说明有多少个因此移动。\
             目标的请求越慢，最短的间隔（{}）移动越多",
            plan.targets.len(),
            plan.idle_gaps_s
                .as_deref()
                .and_then(|gaps| gaps.iter().copied().reduce(f64::min))
                .map(|gap| crate::words::format::gap_text(Lang::ZhCn, gap))
                .unwrap_or_default()
        ),
    }
}

/// How much later than planned a run ends, when slow requests moved its
/// schedule by a second or more: "4 s later than planned: slow requests
/// moved the schedule, keeping the spacing", or only "4 s later than
/// planned" when `brief` (a terminal's progress line must fit one line);
/// `None` below a second.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn schedule_shift_text(lang: Lang, shift_ms: f64, brief: bool) -> Option<String> {
    (shift_ms >= 1000.0).then(|| {
        let by = format_duration(lang, shift_ms);
        match (lang, brief) {
            (Lang::En, true) => format!("{by} later than planned"),
            (Lang::En, false) => format!(
                "{by} later than planned: slow requests moved the schedule, keeping the spacing"
            ),
            (Lang::ZhCn, true) => format!("比计划晚 {by}"),
            (Lang::ZhCn, false) => format!("比计划晚 {by}：慢请求推迟了后续安排，以保持请求间隔"),
        }
    })
}

/// The time a run has left, and how much later than planned it ends when
/// slow requests moved its schedule: "12 min", "12 min (4 s later than
/// planned)", "12 分钟（比计划晚 4 秒）". The page's run view and the
/// terminal's progress bar both show it after their "ETA".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn eta_text(lang: Lang, eta_ms: f64, shift_ms: f64, brief: bool) -> String {
    let left = format_duration(lang, eta_ms);
    match (lang, schedule_shift_text(lang, shift_ms, brief)) {
        (_, None) => left,
        (Lang::En, Some(late)) => format!("{left} ({late})"),
        (Lang::ZhCn, Some(late)) => format!("{left}（{late}）"),
    }
}

/// What the runner says when a run ends late: "the run ended 1 min 17 s
/// later than planned: slow requests moved the schedule, keeping the
/// spacing"; `None` under a second.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn run_end_shift_note(lang: Lang, shift_ms: f64) -> Option<String> {
    schedule_shift_text(lang, shift_ms, false).map(|shift| match lang {
        Lang::En => format!("the run ended {shift}"),
        Lang::ZhCn => format!("运行结束时{shift}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_left_names_a_late_schedule_in_each_language() {
        assert_eq!(eta_text(Lang::En, 720_000.0, 0.0, true), "12 min");
        assert_eq!(
            eta_text(Lang::En, 720_000.0, 4_000.0, true),
            "12 min (4 s later than planned)"
        );
        let zh = eta_text(Lang::ZhCn, 720_000.0, 4_000.0, false);
        assert!(
            zh.starts_with("12 分钟（比计划晚 4 秒：") && zh.ends_with('）'),
            "{zh}"
        );
    }
}
