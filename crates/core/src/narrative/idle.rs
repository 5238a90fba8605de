//! The words of idle time ([`crate::judgement::idle`]): after how long idle
//! a target goes cold, each gap's cold share, and what keeping it warm
//! costs, in English and Chinese. The page and `firsttoken report` both say
//! them from here.

use crate::base::lang::Lang;
use crate::judgement::idle::{
    ConnectionExtra, ConnectionIdle, GapFigures, GoesCold, IdleFigures, MIN_EXTRA_REQUESTS,
};
use crate::judgement::report::{Report, percentile_reaches_censored};
pub use crate::words::format::gap_text;
use crate::words::format::{format_ms, format_usd, grouped, significant};

/// "4 %" style share, 0–1, whole percent from 10 up and one decimal below.
#[cfg_attr(target_arch = "wasm32", inline)]
fn pct(share: f64) -> String {
    let value = share * 100.0;
    if value == 0.0 {
        "0 %".to_owned()
    } else if value >= 10.0 {
        format!("{value:.0} %")
    } else {
        format!("{} %", significant(value))
    }
}

/// "0–17 %": a share's interval.
#[cfg_attr(target_arch = "wasm32", inline)]
fn range_pct(low: f64, high: f64) -> String {
    let low = pct(low);
    format!("{}–{}", low.trim_end_matches(" %"), pct(high))
}

/// One gap's cold count: "0 of 15 after 1 s" / "1 秒后 15 个中 0 个",
/// with the failures among them when there are any ("3 of 15 after 5 s,
/// 2 of them failed").
#[cfg_attr(target_arch = "wasm32", inline)]
fn gap_count(lang: Lang, gap: &GapFigures) -> String {
    let after = gap_text(lang, gap.gap_s);
    let failed = gap.failed;
    match (lang, failed) {
        (Lang::En, 0) => format!("{} of {} after {after}", gap.cold, gap.requests),
        (Lang::En, _) => format!(
            "{} of {} after {after} ({failed} of them failed)",
            gap.cold, gap.requests
        ),
        (Lang::ZhCn, 0) => format!("空闲 {after}后 {} 个中 {} 个", gap.requests, gap.cold),
        (Lang::ZhCn, _) => format!(
            "空闲 {after}后 {} 个中 {} 个（其中 {failed} 个失败）",
            gap.requests, gap.cold
        ),
    }
}

/// Every sentence about a target's idle time, in order: where the model
/// goes cold ([`idle_sentence`]), requests that sat idle past a longer gap
/// than planned, and the connection's own window (or, where the client
/// cannot see connections, that the figures include them).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn idle_sentences(lang: Lang, idle: &IdleFigures) -> Vec<String> {
    let mut out = vec![idle_sentence(lang, idle)];
    if idle.moved > 0 {
        let late = gap_text(lang, idle.late_max_s);
        out.push(match lang {
            Lang::En if idle.moved == 1 => format!(
                "1 request sat idle longer than planned, past a longer gap, while another \
                 target's request ran ({late} longer); it counts at the longest gap its measured \
                 idle reached"
            ),
            Lang::En => format!(
                "{} requests sat idle longer than planned, past a longer gap, while another \
                 target's request ran (up to {late} longer); each counts at the longest gap its \
                 measured idle reached",
                idle.moved
            ),
            Lang::ZhCn => format!(
                "{} 个请求因其他目标的请求仍在进行，实际空闲超过了计划的更长间隔（最多多出 {late}）；\
                 每个都按实测空闲达到的最长间隔计",
                idle.moved
            ),
        });
    }
    out.extend(connection_sentence(lang, idle));
    out
}

/// The connection's window: after how long idle a request must open a new
/// connection and what that costs, apart from the model's cold starts; or,
/// for requests whose client cannot see connections, that the figures
/// include any reconnect.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn connection_sentence(lang: Lang, idle: &IdleFigures) -> Option<String> {
    let Some(connection) = idle.connection else {
        return Some(match lang {
            Lang::En => "these figures include any time spent opening a new connection after \
             idle, which a browser does not show; the firsttoken runner measures the \
             connection apart from the model"
                .to_owned(),
            Lang::ZhCn => "这些数字包含空闲后重新建立连接的时间（浏览器看不到）；firsttoken 命令行工具会把连接与模型分开测量"
                .to_owned(),
        });
    };
    let counts: Vec<String> = idle
        .gaps
        .iter()
        .filter_map(|gap| {
            let c = gap.connections?;
            let after = gap_text(lang, gap.gap_s);
            Some(match lang {
                Lang::En => format!("{} of {} after {after}", c.new, c.of),
                Lang::ZhCn => format!("空闲 {after}后 {} 个中 {} 个", c.of, c.new),
            })
        })
        .collect();
    let counts = counts.join(match lang {
        Lang::En => ", ",
        Lang::ZhCn => "，",
    });
    let cost = connection.setup_median_ms.map(|ms| {
        let ms = format_ms(lang, ms);
        let n = connection.setup_of;
        match lang {
            Lang::En => {
                format!("; opening one takes {ms} (DNS, TCP and TLS where used, median of {n})")
            }
            Lang::ZhCn => {
                format!("；建立一个连接需 {ms}（DNS、TCP 与 TLS（如有），{n} 个的中位数）")
            }
        }
    });
    let mut cost = cost.unwrap_or_default();
    let (extra, taken_off) = extra_words(lang, idle, &connection);
    cost.push_str(&extra);
    let head = match (lang, connection.closes) {
        _ if connection.always_new => match lang {
            Lang::En => {
                "every request opened a new connection (none was kept between them)".to_owned()
            }
            Lang::ZhCn => "每个请求都新建了连接（请求之间没有保留连接）".to_owned(),
        },
        (Lang::En, GoesCold::After { lo_s, hi_s, .. }) if lo_s > 0.0 => format!(
            "the connection closes after {}–{} idle",
            gap_text(lang, lo_s),
            gap_text(lang, hi_s)
        ),
        (Lang::En, GoesCold::After { hi_s, .. }) => format!(
            "the connection closes after less than {} idle",
            gap_text(lang, hi_s)
        ),
        (Lang::En, GoesCold::Unsure { lo_s, hi_s, .. }) => format!(
            "the connection may close after {}–{} idle (too few requests to be sure)",
            gap_text(lang, lo_s),
            gap_text(lang, hi_s)
        ),
        (Lang::En, GoesCold::StayedWarm { after_s, .. }) => format!(
            "the connection stayed open after {} idle",
            gap_text(lang, after_s)
        ),
        (Lang::En, GoesCold::TooFewGaps) => {
            "too few idle gaps with requests to tell when the connection closes".to_owned()
        }
        (Lang::ZhCn, GoesCold::After { lo_s, hi_s, .. }) if lo_s > 0.0 => format!(
            "连接在空闲 {}–{}后关闭",
            gap_text(lang, lo_s),
            gap_text(lang, hi_s)
        ),
        (Lang::ZhCn, GoesCold::After { hi_s, .. }) => {
            format!("连接在空闲不到 {} 就关闭", gap_text(lang, hi_s))
        }
        (Lang::ZhCn, GoesCold::Unsure { lo_s, hi_s, .. }) => format!(
            "连接可能在空闲 {}–{}后关闭（请求太少，无法确定）",
            gap_text(lang, lo_s),
            gap_text(lang, hi_s)
        ),
        (Lang::ZhCn, GoesCold::StayedWarm { after_s, .. }) => {
            format!("空闲 {}后连接仍保持打开", gap_text(lang, after_s))
        }
        (Lang::ZhCn, GoesCold::TooFewGaps) => "有请求的空闲时长太少，看不出连接何时关闭".to_owned(),
    };
    Some(match lang {
        Lang::En => format!(
            "{head}: a new connection {counts}{cost}; cold replicas, and the table's TTFT median \
             and p95, are judged on the time after the connection was ready{taken_off}"
        ),
        Lang::ZhCn => {
            format!(
                "{head}：新建连接 {counts}{cost}；冷启动和表中的 TTFT 中位数与 p95 都按连接就绪之后的时间计算{taken_off}"
            )
        }
    })
}

/// A new connection's extra beyond its timed opening is said from this
/// many ms; below it, "nothing measurable".
const NOTICEABLE_EXTRA_MS: f64 = 5.0;

/// "1 request" / "3 requests".
#[cfg_attr(target_arch = "wasm32", inline)]
fn requests_en(n: usize) -> String {
    if n == 1 {
        "1 request".to_owned()
    } else {
        format!("{n} requests")
    }
}

/// What a new connection adds beyond its timed opening, measured after
/// the shortest gap ([`ConnectionExtra`]), as a clause after the opening's
/// cost, and what the judging of cold replicas took off with it (empty
/// when nothing).
#[cfg_attr(target_arch = "wasm32", inline)]
fn extra_words(lang: Lang, idle: &IdleFigures, connection: &ConnectionIdle) -> (String, String) {
    let after = gap_text(lang, idle.reference_gap_s);
    match connection.extra {
        ConnectionExtra::TakenOff { ms, new, reused } if ms >= NOTICEABLE_EXTRA_MS => {
            let extra = format_ms(lang, ms);
            let total = connection
                .setup_median_ms
                .map(|setup| format_ms(lang, setup + ms));
            match lang {
                Lang::En => (
                    format!(
                        "; beyond its opening a new connection held the first token {extra} \
                         longer at the median (after {after}: {new} requests on a new connection \
                         against {reused} on a kept one){}",
                        total.map_or_else(String::new, |total| format!(
                            ", so a new connection adds {total} in all"
                        ))
                    ),
                    format!(", with those {extra} taken off too"),
                ),
                Lang::ZhCn => (
                    format!(
                        "；除建立连接外，新连接还让首个 Token 的中位数晚了 {extra}（空闲 {after}后：\
                         新建连接 {new} 个对复用 {reused} 个）{}",
                        total.map_or_else(String::new, |total| format!(
                            "，所以一个新连接共增加 {total}"
                        ))
                    ),
                    format!("，并同样扣除这 {extra}"),
                ),
            }
        }
        ConnectionExtra::TakenOff { new, reused, .. } => (
            match lang {
                Lang::En => format!(
                    "; beyond its opening a new connection added nothing measurable (after \
                     {after}: {new} requests on a new connection against {reused} on a kept one)"
                ),
                Lang::ZhCn => format!(
                    "；除建立连接外，新连接没有可测的额外耗时（空闲 {after}后：新建连接 {new} 个对复用 \
                     {reused} 个）"
                ),
            },
            String::new(),
        ),
        ConnectionExtra::InReference { new, of } if !connection.always_new => (
            match lang {
                Lang::En => format!(
                    "; after {after}, {new} of {} already had to open one, so the warm reference \
                     holds a new connection's whole cost",
                    requests_en(of)
                ),
                Lang::ZhCn => format!(
                    "；空闲 {after}后已有 {of} 个中 {new} 个请求需要新建连接，热基准已包含新连接的全部开销"
                ),
            },
            String::new(),
        ),
        ConnectionExtra::NotMeasured { new, reused }
            if connection.setup_of > 0
                || idle
                    .gaps
                    .iter()
                    .any(|g| g.connections.is_some_and(|c| c.new > 0)) =>
        {
            (
                match lang {
                    Lang::En => format!(
                        "; what it adds beyond its opening was not measured (after {after}, {} \
                         on a new connection and {reused} on a kept one; {MIN_EXTRA_REQUESTS} of \
                         each are needed)",
                        requests_en(new)
                    ),
                    Lang::ZhCn => format!(
                        "；新连接在建立连接之外还增加多少未能测得（空闲 {after}后新建连接 {new} 个、复用 \
                         {reused} 个，各需至少 {MIN_EXTRA_REQUESTS} 个）"
                    ),
                },
                String::new(),
            )
        }
        ConnectionExtra::InReference { .. } | ConnectionExtra::NotMeasured { .. } => {
            (String::new(), String::new())
        }
    }
}

/// The sentence about a target's idle gaps: where it goes cold (or that it
/// stayed warm, with a bound), the cold count after each gap, what counts
/// as cold, and how long its cold starts take.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn idle_sentence(lang: Lang, idle: &IdleFigures) -> String {
    let counts: Vec<String> = idle.gaps.iter().map(|g| gap_count(lang, g)).collect();
    let (separator, cold_over) = match lang {
        Lang::En => (", ", "cold"),
        Lang::ZhCn => ("，", "冷"),
    };
    let counts = counts.join(separator);
    let threshold = format_ms(lang, idle.threshold_ms);
    let reference = gap_text(lang, idle.reference_gap_s);
    // Whole numbers from 10× up and where the multiple is one (3×).
    let whole = idle.cold_multiple >= 9.95
        || (idle.cold_multiple - idle.cold_multiple.round()).abs() < 0.05;
    let multiple = if whole {
        format!("{:.0}", idle.cold_multiple)
    } else {
        format!("{:.1}", idle.cold_multiple)
    };
    let head = match (lang, idle.goes_cold) {
        (Lang::En, GoesCold::After { lo_s, hi_s, .. }) if lo_s > 0.0 => format!(
            "goes cold after {}–{} idle",
            gap_text(lang, lo_s),
            gap_text(lang, hi_s)
        ),
        (Lang::En, GoesCold::After { hi_s, .. }) => {
            format!("goes cold after less than {} idle", gap_text(lang, hi_s))
        }
        (
            Lang::En,
            GoesCold::StayedWarm {
                after_s,
                cold: 0,
                of,
                share_at_most,
            },
        ) => format!(
            "stayed warm after {} idle in {} (cold share ≤ {})",
            gap_text(lang, after_s),
            if of == 1 {
                "its one try".to_owned()
            } else {
                format!("all {of} tries")
            },
            pct(share_at_most)
        ),
        (
            Lang::En,
            GoesCold::StayedWarm {
                after_s,
                share_at_most,
                ..
            },
        ) => format!(
            "no more cold starts after {} idle than after shorter gaps (cold share ≤ {})",
            gap_text(lang, after_s),
            pct(share_at_most)
        ),
        (Lang::En, GoesCold::Unsure { lo_s, hi_s, .. }) => format!(
            "may go cold after {}–{} idle (too few requests to be sure)",
            gap_text(lang, lo_s),
            gap_text(lang, hi_s)
        ),
        (Lang::En, GoesCold::TooFewGaps) => {
            "too few idle gaps with requests to tell where it goes cold".to_owned()
        }
        (Lang::ZhCn, GoesCold::After { lo_s, hi_s, .. }) if lo_s > 0.0 => format!(
            "空闲 {}–{}后变冷",
            gap_text(lang, lo_s),
            gap_text(lang, hi_s)
        ),
        (Lang::ZhCn, GoesCold::After { hi_s, .. }) => {
            format!("空闲不到 {} 就变冷", gap_text(lang, hi_s))
        }
        (
            Lang::ZhCn,
            GoesCold::StayedWarm {
                after_s,
                cold: 0,
                of,
                share_at_most,
            },
        ) => format!(
            "空闲 {}后 {of} 次全部保持热状态（冷启动比例 ≤ {}）",
            gap_text(lang, after_s),
            pct(share_at_most)
        ),
        (
            Lang::ZhCn,
            GoesCold::StayedWarm {
                after_s,
                share_at_most,
                ..
            },
        ) => format!(
            "空闲 {}后的冷启动不比更短的空闲多（冷启动比例 ≤ {}）",
            gap_text(lang, after_s),
            pct(share_at_most)
        ),
        (Lang::ZhCn, GoesCold::Unsure { lo_s, hi_s, .. }) => format!(
            "空闲 {}–{}后可能变冷（请求太少，无法确定）",
            gap_text(lang, lo_s),
            gap_text(lang, hi_s)
        ),
        (Lang::ZhCn, GoesCold::TooFewGaps) => "有请求的空闲时长太少，看不出何时变冷".to_owned(),
    };
    let cold_length = idle.cold_median_ms.map(|ms| {
        let at_least = if idle.cold_censored * 2 >= idle.cold_starts {
            "≥ "
        } else {
            ""
        };
        (
            format!("{at_least}{}", format_ms(lang, ms)),
            idle.cold_starts,
        )
    });
    match lang {
        Lang::En => {
            let mut text = format!(
                "{head}: {cold_over} {counts} ({cold_over}: slower than {threshold}, {multiple}× the \
                 warm median after {reference}, or timed out)"
            );
            if let Some((ms, n)) = cold_length {
                text.push_str(&format!("; cold starts take {ms} (median of {n})"));
            }
            text
        }
        Lang::ZhCn => {
            let mut text = format!(
                "{head}：{counts}为冷启动（慢于 {threshold}，即空闲 {reference}后热请求中位数的 {multiple} 倍，\
                 或超时）"
            );
            if let Some((ms, n)) = cold_length {
                text.push_str(&format!("；冷启动需 {ms}（{n} 个的中位数）"));
            }
            text
        }
    }
}

/// The settings a target's idle gaps give: how often to ping to keep it
/// warm and what that costs, the cold share at the user's spacing, and a
/// dedicated endpoint's break-even; one sentence each, those that apply.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn idle_settings(lang: Lang, idle: &IdleFigures) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(keep) = idle.keep_warm {
        let every = gap_text(lang, keep.every_s);
        let per_day = grouped(keep.requests_per_day.round() as u64);
        out.push(match (lang, keep.usd_per_day) {
            (Lang::En, Some(usd)) => format!(
                "a request every {every} keeps the model warm: {per_day} a day with no other \
                 traffic, {} a day at the plan's prices",
                format_usd(usd)
            ),
            (Lang::En, None) => format!(
                "a request every {every} keeps the model warm: {per_day} a day with no other \
                 traffic (the plan gives this target no price)"
            ),
            (Lang::ZhCn, Some(usd)) => format!(
                "每 {every}发一个请求即可让模型保持热状态：没有其他流量时每天 {per_day} 个，按计划的价格每天 {}",
                format_usd(usd)
            ),
            (Lang::ZhCn, None) => format!(
                "每 {every}发一个请求即可让模型保持热状态：没有其他流量时每天 {per_day} 个（计划没有给这个目标定价）"
            ),
        });
    }
    if let Some(every_s) = idle.connection.and_then(|c| c.keep_open_every_s) {
        let every = gap_text(lang, every_s);
        out.push(match lang {
            Lang::En => format!(
                "traffic every {every} keeps the connection open: an HTTP/2 ping or any cheap \
                 request, no tokens needed; it spares the reconnect, not a cold replica"
            ),
            Lang::ZhCn => format!(
                "每 {every}有一次流量即可保持连接打开：HTTP/2 ping 或任何廉价请求，无需消耗 token；\
                 它省去的是重新连接，而不是冷启动"
            ),
        });
    }
    if let Some(at) = idle.at_traffic {
        let every = gap_text(lang, at.gap_s);
        let share = share_text(at.share);
        let interval = range_pct(at.interval.0, at.interval.1);
        out.push(match lang {
            Lang::En => format!(
                "at your traffic of one request every {every}, {share} of requests would meet a \
                 cold replica (95 % interval {interval}), read from the gaps around it"
            ),
            Lang::ZhCn => format!(
                "按你的流量（每 {every}一个请求），约 {share} 的请求会遇到冷启动（95 % 区间 {interval}），\
                 由前后两个空闲时长推得"
            ),
        });
    }
    if let Some(dedicated) = idle.dedicated {
        let hour = format_usd(dedicated.usd_per_hour);
        let day = format_usd(dedicated.usd_per_day);
        // Nothing to remove when no request at the user's traffic is
        // expected to meet a cold replica.
        let removes = idle
            .at_traffic
            .filter(|at| at.share.1 > 0.0)
            .map(|at| share_text(at.share));
        let text = match (lang, dedicated.break_even_requests_per_day) {
            (_, _) if dedicated.cheaper_at_any_traffic => match lang {
                Lang::En => format!(
                    "a dedicated endpoint at {hour} an hour ({day} a day) costs less than the \
                     keep-warm requests alone, whatever the traffic"
                ),
                Lang::ZhCn => format!(
                    "专用端点每小时 {hour}（每天 {day}），比单是保持热状态的请求还便宜，与流量无关"
                ),
            },
            (Lang::En, Some(requests)) => {
                let requests = requests.round() as u64;
                format!(
                    "a dedicated endpoint at {hour} an hour ({day} a day) costs less than \
                     serverless above {} request{} a day",
                    grouped(requests),
                    if requests == 1 { "" } else { "s" }
                )
            }
            (Lang::ZhCn, Some(requests)) => format!(
                "专用端点每小时 {hour}（每天 {day}），每天超过 {} 个请求时比无服务器更便宜",
                grouped(requests.round() as u64)
            ),
            (Lang::En, None) => format!(
                "a dedicated endpoint at {hour} an hour ({day} a day): the plan gives this target \
                 no price to compare it with"
            ),
            (Lang::ZhCn, None) => {
                format!("专用端点每小时 {hour}（每天 {day}）：计划没有给这个目标定价，无法比较")
            }
        };
        out.push(match (lang, removes) {
            (Lang::En, Some(share)) => format!(
                "{text}; it spares the {share} of requests that meet a cold replica at your traffic"
            ),
            (Lang::ZhCn, Some(share)) => {
                format!("{text}；在你的流量下，它能让约 {share} 遇到冷启动的请求不再等待")
            }
            (_, None) => text,
        });
    }
    out
}

/// A share given as a range `(low, high)`, 0–1: one percentage when the
/// ends meet, else the range.
#[cfg_attr(target_arch = "wasm32", inline)]
fn share_text((low, high): (f64, f64)) -> String {
    if (high - low).abs() < 1e-12 {
        pct(low)
    } else {
        range_pct(low, high)
    }
}

/// The heading of the idle section.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn idle_title(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "When does it go cold?",
        Lang::ZhCn => "空闲多久会变冷？",
    }
}

/// The idle table's column headings: target, idle, cold, share with its
/// interval, TTFT median and p95, new connections.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn idle_headings(lang: Lang) -> [&'static str; 7] {
    match lang {
        Lang::En => [
            "Target",
            "Idle before",
            "Cold",
            "Cold share (95 % interval)",
            "TTFT median",
            "TTFT p95",
            "New connection",
        ],
        Lang::ZhCn => [
            "目标",
            "之前空闲",
            "冷启动",
            "冷启动比例（95 % 区间）",
            "TTFT 中位数",
            "TTFT p95",
            "新建连接",
        ],
    }
}

/// One gap's row of the idle table, built from the gap itself: the
/// target's label, then the cells in the order of [`idle_headings`], then
/// the gap's monotone estimate ([`chart_words`]' second heading). The
/// results' table, the chart's number table and the report take their rows
/// from here, so no row is matched to its figures afterwards.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn gap_row(lang: Lang, label: &str, gap: &GapFigures) -> Vec<String> {
    let ms = |value: Option<f64>, p: f64| {
        value.map_or_else(
            || "–".to_owned(),
            |v| {
                let bound = percentile_reaches_censored(gap.requests, gap.censored, p);
                format!("{}{}", if bound { "≥ " } else { "" }, format_ms(lang, v))
            },
        )
    };
    vec![
        label.to_owned(),
        gap_text(lang, gap.gap_s),
        match (lang, gap.failed) {
            (Lang::En, 0) => format!("{} of {}", gap.cold, gap.requests),
            (Lang::En, failed) => {
                format!("{} of {} ({failed} failed)", gap.cold, gap.requests)
            }
            (Lang::ZhCn, 0) => format!("{} / {}", gap.cold, gap.requests),
            (Lang::ZhCn, failed) => {
                format!("{} / {}（{failed} 个失败）", gap.cold, gap.requests)
            }
        },
        format!(
            "{} ({})",
            pct(gap.share()),
            range_pct(gap.interval.0, gap.interval.1)
        ),
        ms(gap.median_ms, 50.0),
        ms(gap.p95_ms, 95.0),
        gap.connections.map_or_else(
            || "–".to_owned(),
            |c| match lang {
                Lang::En => format!("{} of {}", c.new, c.of),
                Lang::ZhCn => format!("{} / {}", c.new, c.of),
            },
        ),
        pct(gap.monotone_share),
    ]
}

/// The idle chart's title and the heading its number table adds to the
/// idle table's: the monotone estimate drawn as the step line.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn chart_words(lang: Lang) -> (&'static str, &'static str) {
    match lang {
        Lang::En => (
            "Cold share by idle gap, with 95 % intervals and the monotone estimate",
            "Monotone estimate",
        ),
        Lang::ZhCn => (
            "各空闲时长的冷启动比例（含 95 % 区间与单调估计）",
            "单调估计",
        ),
    }
}

/// The idle chart's number table: one [`gap_row`] per target and gap
/// (headings: [`idle_headings`], then [`chart_words`]' second); empty for a
/// run without idle gaps.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn chart_rows(lang: Lang, report: &Report) -> Vec<Vec<String>> {
    report
        .targets
        .iter()
        .flat_map(|target| {
            target.idle.iter().flat_map(move |idle| {
                idle.gaps
                    .iter()
                    .map(move |gap| gap_row(lang, &target.label, gap))
            })
        })
        .collect()
}

/// The dashboard's daily idle table: its heading, its column headings
/// (day, goes cold after, requests) and the hint under it.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn daily_words(lang: Lang) -> (&'static str, [&'static str; 4], &'static str) {
    match lang {
        Lang::En => (
            "Goes cold after, per day",
            [
                "day (UTC)",
                "model goes cold after",
                "connection closes after",
                "requests after an idle gap",
            ],
            "Each day's requests sent after one of the plan's idle gaps, per target: the idle \
             range where the model's cold share rises (the results' rule, on the time after the \
             connection was ready), or the longest gap after which it stayed warm; and the same \
             for the connection, where the runner saw it.",
        ),
        Lang::ZhCn => (
            "每日：空闲多久后变冷",
            [
                "日期（UTC）",
                "模型空闲多久后变冷",
                "连接空闲多久后关闭",
                "空闲间隔后的请求",
            ],
            "每个目标每天在计划的空闲间隔之后发出的请求：模型冷启动比例上升的空闲区间（与结果页同一规则，\
             按连接就绪之后的时间），或仍保持热状态的最长间隔；连接同理（命令行工具能看到连接时）。",
        ),
    }
}

/// One day's "connection closes after" cell: the range, "≤ 10 s", "open
/// after 15 min", "new every request", or "–" where no request said how
/// it was connected (the page's).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn connection_cell(lang: Lang, idle: &IdleFigures) -> String {
    let Some(connection) = idle.connection else {
        return "–".to_owned();
    };
    if connection.always_new {
        return match lang {
            Lang::En => "new every request".to_owned(),
            Lang::ZhCn => "每个请求都新建".to_owned(),
        };
    }
    match (connection.closes, lang) {
        (GoesCold::After { lo_s, hi_s, .. }, _) if lo_s > 0.0 => {
            format!("{}–{}", gap_text(lang, lo_s), gap_text(lang, hi_s))
        }
        (GoesCold::After { hi_s, .. }, _) => format!("≤ {}", gap_text(lang, hi_s)),
        (GoesCold::Unsure { lo_s, hi_s, .. }, _) => unsure_cell(lang, lo_s, hi_s),
        (GoesCold::StayedWarm { after_s, .. }, Lang::En) => {
            format!("open after {}", gap_text(lang, after_s))
        }
        (GoesCold::StayedWarm { after_s, .. }, Lang::ZhCn) => {
            format!("空闲 {}后仍打开", gap_text(lang, after_s))
        }
        (GoesCold::TooFewGaps, Lang::En) => "too few gaps to compare".to_owned(),
        (GoesCold::TooFewGaps, Lang::ZhCn) => "可比较的间隔不足".to_owned(),
    }
}

/// A cell for a rise too few requests support: "maybe 1 s–4 s".
#[cfg_attr(target_arch = "wasm32", inline)]
fn unsure_cell(lang: Lang, lo_s: f64, hi_s: f64) -> String {
    let range = format!("{}–{}", gap_text(lang, lo_s), gap_text(lang, hi_s));
    match lang {
        Lang::En => format!("maybe {range} (too few to be sure)"),
        Lang::ZhCn => format!("可能 {range}（请求太少）"),
    }
}

/// One day's "goes cold after" cell: "1 min–5 min", "≤ 10 s" (cold
/// already after the shortest gap), "warm after 15 min (0 of 20 cold,
/// ≤ 14 %)", or that fewer than two gaps had requests.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn goes_cold_cell(lang: Lang, goes_cold: &GoesCold) -> String {
    match (*goes_cold, lang) {
        (GoesCold::After { lo_s, hi_s, .. }, _) if lo_s > 0.0 => {
            format!("{}–{}", gap_text(lang, lo_s), gap_text(lang, hi_s))
        }
        (GoesCold::After { hi_s, .. }, _) => format!("≤ {}", gap_text(lang, hi_s)),
        (GoesCold::Unsure { lo_s, hi_s, .. }, _) => unsure_cell(lang, lo_s, hi_s),
        (
            GoesCold::StayedWarm {
                after_s,
                cold,
                of,
                share_at_most,
            },
            Lang::En,
        ) => format!(
            "warm after {} ({cold} of {of} cold, ≤ {})",
            gap_text(lang, after_s),
            pct(share_at_most)
        ),
        (
            GoesCold::StayedWarm {
                after_s,
                cold,
                of,
                share_at_most,
            },
            Lang::ZhCn,
        ) => format!(
            "空闲 {}后仍热（{of} 个中 {cold} 个冷，≤ {}）",
            gap_text(lang, after_s),
            pct(share_at_most)
        ),
        (GoesCold::TooFewGaps, Lang::En) => "too few gaps to compare".to_owned(),
        (GoesCold::TooFewGaps, Lang::ZhCn) => "可比较的间隔不足".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgement::idle::{IdleRequest, IdleSettings, idle_figures};
    use crate::wire::sample::TtftRank;

    fn figures(cold_after_300: bool, settings: IdleSettings) -> IdleFigures {
        let mut requests = Vec::new();
        for (gap_s, cold) in [(10.0, 0), (60.0, 0), (300.0, 19), (900.0, 20)] {
            let cold = if cold_after_300 { cold } else { 0 };
            for i in 0..20 {
                let ms = if i < cold {
                    12_000.0 + f64::from(i)
                } else {
                    400.0 + f64::from(i)
                };
                requests.push(IdleRequest::planned(gap_s, TtftRank::Measured(ms)));
            }
        }
        idle_figures(&requests, 120_000.0, settings).unwrap()
    }

    #[test]
    fn a_rise_too_small_to_be_sure_of_says_so_and_never_stayed_warm() {
        let mut requests = Vec::new();
        for (gap_s, ms) in [(0.3, 400.0), (1.5, 12_000.0)] {
            for i in 0..3 {
                let ms = ms + f64::from(i);
                requests.push(IdleRequest::planned(gap_s, TtftRank::Measured(ms)));
            }
        }
        let idle = idle_figures(&requests, 120_000.0, IdleSettings::default()).unwrap();
        for (lang, said, cell) in [
            (
                Lang::En,
                "may go cold after 0.3 s–1.5 s idle (too few requests to be sure)",
                "maybe",
            ),
            (Lang::ZhCn, "后可能变冷（请求太少，无法确定）", "可能"),
        ] {
            let sentence = idle_sentence(lang, &idle);
            assert!(sentence.contains(said), "{sentence}");
            assert!(
                !sentence.contains("stayed") && !sentence.contains("保持热"),
                "{sentence}"
            );
            assert!(goes_cold_cell(lang, &idle.goes_cold).starts_with(cell));
        }
    }

    #[test]
    fn the_table_has_a_row_per_gap() {
        let plan = crate::planning::plan::Plan {
            targets: vec![crate::planning::plan::Target::demo("A", "m")],
            ..crate::planning::plan::Plan::default()
        };
        let mut report = crate::judgement::report::build_report(&plan, &[], 0, 1);
        report.targets[0].idle = Some(figures(true, IdleSettings::default()));
        let rows = chart_rows(Lang::En, &report);
        assert_eq!(rows.len(), 4);
        let gap = &report.targets[0].idle.as_ref().unwrap().gaps[2];
        assert_eq!(
            rows[2],
            [
                "A",
                "5 min",
                "19 of 20",
                "95 % (75–100 %)",
                "12 s",
                "12 s",
                "–",
                &pct(gap.monotone_share),
            ]
            .map(str::to_owned)
        );
        assert_eq!(rows[2].len(), idle_headings(Lang::En).len() + 1);
        assert_eq!(chart_rows(Lang::ZhCn, &report)[2][2], "19 / 20");
        assert_eq!(
            idle_headings(Lang::ZhCn).len(),
            idle_headings(Lang::En).len()
        );
    }

    #[test]
    fn gaps_read_in_the_unit_a_person_would_use() {
        assert_eq!(gap_text(Lang::En, 0.5), "0.5 s");
        assert_eq!(gap_text(Lang::En, 10.0), "10 s");
        assert_eq!(gap_text(Lang::En, 300.0), "5 min");
        assert_eq!(gap_text(Lang::En, 90.0), "1.5 min");
        assert_eq!(gap_text(Lang::En, 5_400.0), "1.5 h");
        assert_eq!(gap_text(Lang::ZhCn, 900.0), "15 分钟");
    }

    /// One request is one request: "1 request sat idle", never "1
    /// requests"; the same for a lone try and a break-even of one request.
    #[test]
    fn a_count_of_one_reads_in_the_singular() {
        let moved = |count: usize| {
            let mut requests: Vec<IdleRequest> = (0..6)
                .flat_map(|i| {
                    let ms = TtftRank::Measured(400.0 + f64::from(i));
                    [IdleRequest::planned(1.0, ms), IdleRequest::planned(6.0, ms)]
                })
                .collect();
            for request in requests.iter_mut().filter(|r| r.gap_s == 1.0).take(count) {
                request.idle_s = Some(6.5);
            }
            idle_figures(&requests, 120_000.0, IdleSettings::default()).unwrap()
        };
        let one = idle_sentences(Lang::En, &moved(1));
        assert!(
            one[1].starts_with("1 request sat idle longer than planned")
                && one[1].contains("(5.5 s longer); it counts at"),
            "{one:?}"
        );
        let two = idle_sentences(Lang::En, &moved(2));
        assert!(
            two[1].starts_with("2 requests sat idle longer than planned")
                && two[1].contains("(up to 5.5 s longer); each counts at"),
            "{two:?}"
        );
        let mut lone = moved(0);
        lone.goes_cold = GoesCold::StayedWarm {
            after_s: 6.0,
            cold: 0,
            of: 1,
            share_at_most: 0.95,
        };
        let sentence = idle_sentence(Lang::En, &lone);
        assert!(
            sentence.starts_with("stayed warm after 6 s idle in its one try (cold share ≤ 95 %)"),
            "{sentence}"
        );
        lone.dedicated = Some(crate::judgement::idle::Dedicated {
            usd_per_hour: 1.0,
            usd_per_day: 24.0,
            break_even_requests_per_day: Some(1.0),
            cheaper_at_any_traffic: false,
        });
        let settings = idle_settings(Lang::En, &lone);
        assert!(
            settings
                .iter()
                .any(|s| s.ends_with("costs less than serverless above 1 request a day")),
            "{settings:?}"
        );
        for text in one.iter().chain(&settings).chain([&sentence]) {
            assert!(
                !text.contains(" 1 requests") && !text.contains(" 1 tries"),
                "{text}"
            );
        }
    }

    #[test]
    fn the_sentences_say_where_it_goes_cold_in_both_languages() {
        let settings = IdleSettings {
            typical_gap_s: Some(120.0),
            dedicated_usd_per_hour: Some(1.0),
            cost_per_request_usd: Some(0.001),
        };
        let idle = figures(true, settings);
        assert_eq!(
            idle_sentence(Lang::En, &idle),
            "goes cold after 1 min–5 min idle: cold 0 of 20 after 10 s, 0 of 20 after 1 min, \
             19 of 20 after 5 min, 20 of 20 after 15 min (cold: slower than 1.23 s, 3× the warm \
             median after 10 s, or timed out); cold starts take 12 s (median of 39)"
        );
        let zh = idle_sentence(Lang::ZhCn, &idle);
        assert!(zh.starts_with("空闲 1 分钟–5 分钟后变冷："), "{zh}");
        assert!(zh.contains("空闲 5 分钟后 20 个中 19 个"), "{zh}");
        let en = idle_settings(Lang::En, &idle);
        assert_eq!(
            en,
            [
                "a request every 48 s keeps the model warm: 1 800 a day with no other traffic, \
                 $1.80 a day at the plan's prices",
                "at your traffic of one request every 2 min, 0–95 % of requests would meet a cold \
                 replica (95 % interval 0–100 %), read from the gaps around it",
                "a dedicated endpoint at $1.00 an hour ($24.00 a day) costs less than serverless \
                 above 24 000 requests a day; it spares the 0–95 % of requests that meet a cold \
                 replica at your traffic",
            ]
        );
        let zh = idle_settings(Lang::ZhCn, &idle);
        assert_eq!(zh.len(), 3);
        assert!(
            zh[0].contains("每天 1 800 个") && zh[2].contains("24 000"),
            "{zh:?}"
        );

        let warm = figures(false, IdleSettings::default());
        assert_eq!(
            idle_sentence(Lang::En, &warm),
            "stayed warm after 15 min idle in all 20 tries (cold share ≤ 14 %): cold 0 of 20 \
             after 10 s, 0 of 20 after 1 min, 0 of 20 after 5 min, 0 of 20 after 15 min (cold: \
             slower than 1.23 s, 3× the warm median after 10 s, or timed out)"
        );
        assert!(idle_sentence(Lang::ZhCn, &warm).starts_with("空闲 15 分钟后 20 次全部保持热状态"));
        assert!(idle_settings(Lang::En, &warm).is_empty());

        // At a traffic where no request is expected to meet a cold replica
        // the dedicated endpoint spares none, and the sentence says nothing
        // of it (it once read "removes the 0–0 % cold share").
        let mut none_cold = figures(true, settings);
        if let Some(at) = none_cold.at_traffic.as_mut() {
            at.share = (0.0, 0.0);
        }
        for lang in [Lang::En, Lang::ZhCn] {
            let words = idle_settings(lang, &none_cold);
            let dedicated = words.last().map(String::as_str).unwrap_or_default();
            assert!(
                !dedicated.contains("0 %") && !dedicated.contains("spares"),
                "{dedicated}"
            );
            assert!(!dedicated.contains("不再等待"), "{dedicated}");
        }
    }
}
