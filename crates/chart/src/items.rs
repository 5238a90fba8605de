//! What each chart shows, as plain data: the results' and the dashboard's
//! chart inputs with the rows of their number tables. Pure and native (the
//! canvas that draws them is `ui/charts.rs`), so every chart's content is
//! tested without a browser.

use crate::{
    Area, ChartError, ChartLabels, ChartStyle, DailyInput, DayPoint, DaySeriesInput, EcdfInput,
    HistogramInput, HourBucket, HourlyInput, IdleGapPoint, IdleInput, IdleSeries, PrefillInput,
    PrefillSeries, Series, SpreadInput, TimelineInput, TimelinePoint, draw_daily, draw_daily_rates,
    draw_ecdf, draw_histogram, draw_hourly, draw_idle, draw_prefill, draw_spread, draw_timeline,
};
use firsttoken_core::base::calendar::utc_day;
use firsttoken_core::base::lang::Lang;
use firsttoken_core::documents::dashboard::Dataset;
use firsttoken_core::documents::dashboard::figures::{
    DayCell, DaySeries, HourSeries, VantageRow, WindowRow, by_vantage, daily, hour_of_day,
    rolling_windows,
};
use firsttoken_core::documents::results::ResultsView;
use firsttoken_core::documents::results::vantage_name;
use firsttoken_core::judgement::prefill_report::{PrefillReport, prefill_report};
use firsttoken_core::judgement::report::Report;
use firsttoken_core::narrative::population::population_suffix;
use firsttoken_core::statistics::stats::Summary;
use firsttoken_core::words::format::{format_ms, format_pct};
use plotters::prelude::{DrawingBackend, IntoDrawingArea, SVGBackend};

/// What one canvas shows.
#[derive(Debug)]
pub enum ChartSpec {
    /// TTFT histogram of one target.
    Histogram(HistogramInput),
    /// ECDF of the targets of one model.
    Ecdf(EcdfInput),
    /// TTFT per request over the run.
    Timeline(TimelineInput),
    /// Box plot of every target.
    Spread(SpreadInput),
    /// Median and p95 per local hour of one target.
    Hourly(HourlyInput),
    /// Median and p95 per UTC hour (the dashboard's hour of day).
    HourlyUtc(HourlyInput),
    /// TTFT median and p95 per UTC day of each series.
    Daily(DailyInput),
    /// A percentage per UTC day of each series.
    DailyRates(DailyInput),
    /// TTFT against input tokens with each target's fitted line.
    Prefill(PrefillInput),
    /// Cold share by idle gap of each target, with intervals and the
    /// monotone estimate.
    Idle(IdleInput),
}

/// A chart to draw, with the rows of its number table.
#[derive(Debug)]
pub struct ChartItem {
    /// Canvas element id (stable, for tests and PNG file names).
    pub id: String,
    /// Caption above the chart.
    pub title: String,
    /// Canvas height in CSS pixels.
    pub height_px: f64,
    /// The drawing.
    pub spec: ChartSpec,
    /// Column headings of the number table.
    pub columns: Vec<String>,
    /// Rows of the number table.
    pub rows: Vec<Vec<String>>,
}

/// Draws `spec` on `area`: the one dispatch from a chart item to its
/// chart function, for the page's canvas and the runner's SVG alike.
///
/// # Errors
/// The backend's [`ChartError`].
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn draw_chart<DB: DrawingBackend>(
    spec: &ChartSpec,
    area: &Area<DB>,
    style: &ChartStyle,
    lang: Lang,
) -> Result<(), ChartError> {
    match spec {
        ChartSpec::Histogram(input) => draw_histogram(area, input, style),
        ChartSpec::Ecdf(input) => draw_ecdf(area, input, style),
        ChartSpec::Timeline(input) => draw_timeline(area, input, style).map(drop),
        ChartSpec::Spread(input) => draw_spread(area, input, style),
        ChartSpec::Hourly(input) => draw_hourly(area, input, style),
        ChartSpec::HourlyUtc(input) => {
            let style = ChartStyle {
                labels: ChartLabels {
                    hour_axis: lang.dashboard_texts().hour_utc.into(),
                    ..style.labels.clone()
                },
                ..style.clone()
            };
            draw_hourly(area, input, &style)
        }
        ChartSpec::Daily(input) => draw_daily(area, input, style),
        ChartSpec::DailyRates(input) => draw_daily_rates(area, input, style),
        ChartSpec::Prefill(input) => draw_prefill(area, input, style),
        ChartSpec::Idle(input) => draw_idle(area, input, style),
    }
}

/// `item` as an SVG document `width_px` wide (its own height), drawn by
/// the same chart code as the page's canvas: the runner's HTML report
/// inlines it. Text goes through plotters' SVG writer, which escapes it.
///
/// # Errors
/// The backend's [`ChartError`].
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn chart_svg(item: &ChartItem, width_px: u32, lang: Lang) -> Result<String, ChartError> {
    let height_px = item.height_px.round().max(1.0) as u32;
    let style = ChartStyle {
        font_family: "system-ui, sans-serif".into(),
        width_px: Some(width_px),
        labels: chart_labels(lang),
        ..ChartStyle::default()
    };
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (width_px, height_px)).into_drawing_area();
        draw_chart(&item.spec, &area, &style, lang)?;
        area.present()?;
    }
    Ok(svg)
}

/// The charts' own words in `lang`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn chart_labels(lang: Lang) -> ChartLabels {
    match lang {
        Lang::En => ChartLabels::default(),
        Lang::ZhCn => ChartLabels {
            ttft_axis: "TTFT（对数刻度）".into(),
            count_axis: "请求数".into(),
            share_axis: "不超过该延迟的请求（%）".into(),
            elapsed_minutes_axis: "开始后的时间（分钟）".into(),
            elapsed_hours_axis: "开始后的时间（小时）".into(),
            hour_axis: "本地时间（时）".into(),
            day_axis: "日期（UTC）".into(),
            input_tokens_axis: "输入 Token（对数刻度）".into(),
            median: "中位数".into(),
            p95: "p95".into(),
            box_range: "箱体：p25–p75".into(),
            whisker_range: "须线：p5–p95".into(),
            beyond_whiskers: "散点：超出须线".into(),
            tail: "慢速长尾".into(),
            error: "错误".into(),
            peak_hours: "高峰时段".into(),
            sample_count: "n".into(),
            idle_axis: "请求前的空闲时间（对数刻度）".into(),
            cold_share_axis: "冷启动比例".into(),
            cold_share: "冷启动比例及 95 % 区间".into(),
            monotone_estimate: "单调估计".into(),
            no_data: "无数据".into(),
            units: Lang::ZhCn,
        },
    }
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn summary_cells(lang: Lang, summary: Option<&Summary>) -> Vec<String> {
    match summary {
        Some(s) => vec![
            s.n.to_string(),
            format_ms(lang, s.min),
            format_ms(lang, s.median),
            format_ms(lang, s.p95),
            format_ms(lang, s.p99),
            format_ms(lang, s.max),
        ],
        None => vec![
            "0".into(),
            "–".into(),
            "–".into(),
            "–".into(),
            "–".into(),
            "–".into(),
        ],
    }
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn summary_columns(lang: Lang) -> Vec<String> {
    let t = lang.texts();
    let min_max = match lang {
        Lang::En => ("min", "max"),
        Lang::ZhCn => ("最小", "最大"),
    };
    vec![
        t.target.into(),
        "n".into(),
        min_max.0.into(),
        t.median.into(),
        t.p95.into(),
        t.p99.into(),
        min_max.1.into(),
    ]
}

/// Every chart of the results, in display order.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn results_chart_items(lang: Lang, results: &ResultsView, report: &Report) -> Vec<ChartItem> {
    let prefill = prefill_report(&results.plan, &results.samples, report.seed);
    results_chart_items_with(lang, results, report, prefill.as_ref())
}

/// [`results_chart_items`] with the prompt-size figures already made
/// (`prefill_report` of the same samples and seed): the page makes them
/// once per set of samples, not once more per language.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn results_chart_items_with(
    lang: Lang,
    results: &ResultsView,
    report: &Report,
    prefill: Option<&PrefillReport>,
) -> Vec<ChartItem> {
    let t = lang.texts();
    let plan = &results.plan;
    let mut counted: Vec<Vec<f64>> = vec![Vec::new(); plan.targets.len()];
    // The report's own population (the plan's prompt, or its headline
    // size): a chart draws exactly the requests its table counts.
    let population = report.population;
    let in_population =
        |sample: &&firsttoken_core::wire::sample::Sample| population.contains(sample);
    let named = |title: String| match population_suffix(lang, population) {
        Some(suffix) => format!("{title}{suffix}"),
        None => title,
    };
    for sample in results.samples.iter().filter(in_population) {
        if let (Some(ttft), Some(own)) = (
            sample.counted_ttft_ms(),
            counted.get_mut(sample.target as usize),
        ) {
            own.push(ttft);
        }
    }
    let label = |i: usize| {
        plan.targets
            .get(i)
            .map(|t| t.label.clone())
            .unwrap_or_default()
    };
    let series = |i: usize| Series {
        label: label(i),
        ttft_ms: counted.get(i).cloned().unwrap_or_default(),
        colour_index: i,
    };
    let summary_row = |i: usize| {
        let mut row = vec![label(i)];
        row.extend(summary_cells(
            lang,
            report.targets.get(i).and_then(|r| r.ttft.as_ref()),
        ));
        row
    };
    let mut items = Vec::new();

    for (m, model) in report.models.iter().enumerate() {
        let members: Vec<usize> = model
            .rows
            .iter()
            .map(|r| r.figures.target as usize)
            .collect();
        items.push(ChartItem {
            id: format!("chart-ecdf-{m}"),
            title: named(format!("{} — {}", t.chart_ecdf, model.names.join(" / "))),
            height_px: 340.0,
            spec: ChartSpec::Ecdf(EcdfInput {
                title: String::new(),
                series: members.iter().map(|&i| series(i)).collect(),
            }),
            columns: summary_columns(lang),
            rows: members.iter().map(|&i| summary_row(i)).collect(),
        });
    }

    if let Some(prefill) = prefill {
        items.push(prefill_chart_item(lang, prefill));
    }

    let all: Vec<usize> = (0..plan.targets.len()).collect();
    items.push(ChartItem {
        id: "chart-spread".into(),
        title: named(t.chart_spread.into()),
        height_px: (120.0 + 46.0 * all.len() as f64).min(700.0),
        spec: ChartSpec::Spread(SpreadInput {
            title: String::new(),
            series: all.iter().map(|&i| series(i)).collect(),
        }),
        columns: summary_columns(lang),
        rows: all.iter().map(|&i| summary_row(i)).collect(),
    });

    let tail_from: Vec<Option<f64>> = report
        .targets
        .iter()
        .map(|r| r.cold_tail.as_ref().map(|tail| tail.min_ms))
        .collect();
    let points: Vec<TimelinePoint> = results
        .samples
        .iter()
        .filter(in_population)
        .filter(|s| !s.warmup)
        .map(|s| {
            let tail_min = tail_from.get(s.target as usize).copied().flatten();
            TimelinePoint {
                at_ms: s.sent_at_ms,
                series: s.target as usize,
                ttft_ms: if s.error.is_some() { None } else { s.ttft_ms },
                tail: matches!((s.ttft_ms, tail_min), (Some(v), Some(min)) if v >= min),
                error: s.error.is_some(),
            }
        })
        .collect();
    let start_ms = results
        .samples
        .iter()
        .map(|s| s.sent_at_ms)
        .fold(f64::INFINITY, f64::min);
    items.push(ChartItem {
        id: "chart-timeline".into(),
        title: named(t.chart_timeline.into()),
        height_px: 340.0,
        spec: ChartSpec::Timeline(TimelineInput {
            title: String::new(),
            start_ms: if start_ms.is_finite() {
                start_ms
            } else {
                results.environment.started_at_ms
            },
            points,
            series_labels: all.iter().map(|&i| label(i)).collect(),
            axes: None,
        }),
        columns: vec![
            t.target.into(),
            "n".into(),
            t.errors.into(),
            t.cold_tail.into(),
        ],
        rows: report
            .targets
            .iter()
            .map(|r| {
                vec![
                    r.label.clone(),
                    r.requests.to_string(),
                    r.errors.to_string(),
                    r.cold_tail.as_ref().map_or_else(
                        || "–".into(),
                        |tail| format!("{} / {}", tail.count, tail.of),
                    ),
                ]
            })
            .collect(),
    });

    for (i, target) in report.targets.iter().enumerate() {
        // A target whose every request failed has no latency to draw: an
        // empty frame saying "no data" would only push the others down.
        if target.ttft.is_none() {
            continue;
        }
        items.push(ChartItem {
            id: format!("chart-histogram-{i}"),
            title: named(format!("{} — {}", t.chart_histogram, target.label)),
            height_px: 280.0,
            spec: ChartSpec::Histogram(HistogramInput {
                title: String::new(),
                series_label: target.label.clone(),
                ttft_ms: counted.get(i).cloned().unwrap_or_default(),
                median_ms: target.ttft.map(|s| s.median),
                p95_ms: target.ttft.map(|s| s.p95),
                colour_index: i,
            }),
            columns: summary_columns(lang),
            rows: vec![summary_row(i)],
        });
    }

    for (i, target) in report.targets.iter().enumerate() {
        let hours: Vec<HourBucket> = target
            .time_of_day
            .hours
            .iter()
            .filter(|h| h.requests > 0)
            .map(|h| HourBucket {
                hour: h.hour,
                n: h.ttft.map_or(0, |s| s.n),
                median_ms: h.ttft.map(|s| s.median),
                p95_ms: h.ttft.map(|s| s.p95),
            })
            .collect();
        // An hour-of-day view means something only once a run spans
        // hours: two hours of the clock, and an hour between the target's
        // first and last request (a 3-minute run across 11:00 has two
        // hours of the clock and nothing to say of them).
        let sent = results
            .samples
            .iter()
            .filter(|s| s.target as usize == i && !s.warmup)
            .map(|s| s.sent_at_ms);
        let (first, last) = sent.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), at| {
            (lo.min(at), hi.max(at))
        });
        let spans_an_hour = last - first >= 3_600_000.0;
        if hours.len() < 2 || !spans_an_hour {
            continue;
        }
        items.push(ChartItem {
            id: format!("chart-hourly-{i}"),
            title: format!("{} — {}", t.chart_hourly, target.label),
            height_px: 280.0,
            columns: vec![t.hour.into(), "n".into(), t.median.into(), t.p95.into()],
            rows: hours
                .iter()
                .map(|h| {
                    vec![
                        format!("{:02}:00", h.hour),
                        h.n.to_string(),
                        h.median_ms
                            .map_or_else(|| "–".into(), |v| format_ms(lang, v)),
                        h.p95_ms.map_or_else(|| "–".into(), |v| format_ms(lang, v)),
                    ]
                })
                .collect(),
            spec: ChartSpec::Hourly(HourlyInput {
                title: String::new(),
                hours,
                peak: plan.peak_hours,
                colour_index: i,
            }),
        });
    }
    items
}

/// TTFT against input tokens for a run with prompt sizes: per target, the
/// warm median of each size the fit used (or, without a fit, each size's
/// median) and the fitted line; the table lists the same points with the
/// fitted TTFT beside each.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn prefill_chart_item(lang: Lang, prefill: &PrefillReport) -> ChartItem {
    let (title, warm_median, fitted) = firsttoken_core::narrative::prefill::chart_words(lang);
    let headings = firsttoken_core::narrative::prefill::size_headings(lang);
    let series: Vec<PrefillSeries> = prefill
        .targets
        .iter()
        .map(|target| PrefillSeries {
            label: target.label.clone(),
            points: match &target.fit {
                Some(fit) => fit
                    .points
                    .iter()
                    .map(|p| (p.input_tokens, p.ttft_ms))
                    .collect(),
                None => target
                    .sizes
                    .iter()
                    .filter_map(|row| {
                        Some((
                            row.input_tokens.unwrap_or(f64::from(row.size)),
                            row.figures.ttft?.median,
                        ))
                    })
                    .collect(),
            },
            fit: target
                .fit
                .as_ref()
                .map(|fit| (fit.fixed_ms, fit.rate_tokens_per_s)),
        })
        .collect();
    let mut rows = Vec::new();
    for (target, own) in prefill.targets.iter().zip(&series) {
        let sizes: Vec<u32> = match &target.fit {
            Some(fit) => fit.points.iter().map(|p| p.size).collect(),
            None => target
                .sizes
                .iter()
                .filter(|row| row.figures.ttft.is_some())
                .map(|row| row.size)
                .collect(),
        };
        for (size, (tokens, ttft_ms)) in sizes.iter().zip(&own.points) {
            rows.push(vec![
                target.label.clone(),
                firsttoken_core::words::format::grouped(u64::from(*size)),
                // Counted by this client, not the provider: marked "≈".
                format!(
                    "{}{}",
                    if target.estimated_tokens { "≈ " } else { "" },
                    firsttoken_core::words::format::grouped(tokens.round().max(0.0) as u64)
                ),
                format_ms(lang, *ttft_ms),
                // No fitted TTFT from a line whose fixed part comes out
                // below zero: the sentence gives no such line either.
                target
                    .fit
                    .as_ref()
                    .filter(|fit| fit.fixed_is_time())
                    .map_or_else(
                        || "–".into(),
                        |fit| format_ms(lang, fit.ttft_at_ms(*tokens)),
                    ),
            ]);
        }
    }
    ChartItem {
        id: "chart-prefill".into(),
        title: title.into(),
        height_px: 360.0,
        spec: ChartSpec::Prefill(PrefillInput {
            title: String::new(),
            series,
        }),
        columns: vec![
            lang.texts().target.into(),
            headings[0].into(),
            headings[1].into(),
            warm_median.into(),
            fitted.into(),
        ],
        rows,
    }
}

/// Cold share by idle gap for a run with idle gaps: per target (in its
/// report colour) each gap's share with its 95 % interval and the step
/// line of the monotone estimate; the table is the idle table's rows with
/// the estimate beside each. `None` for a run without idle gaps. The page
/// draws it after its other results charts and `firsttoken report --html`
/// in its idle section.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn idle_chart_item(lang: Lang, report: &Report) -> Option<ChartItem> {
    let series: Vec<IdleSeries> = report
        .targets
        .iter()
        .enumerate()
        .filter_map(|(i, target)| {
            let idle = target.idle.as_ref()?;
            Some(IdleSeries {
                label: target.label.clone(),
                gaps: idle
                    .gaps
                    .iter()
                    .map(|gap| IdleGapPoint {
                        gap_s: gap.gap_s,
                        share: gap.share(),
                        interval: gap.interval,
                        monotone_share: gap.monotone_share,
                    })
                    .collect(),
                colour_index: i,
            })
        })
        .collect();
    if series.is_empty() {
        return None;
    }
    let (title, estimate) = firsttoken_core::narrative::idle::chart_words(lang);
    let mut columns: Vec<String> = firsttoken_core::narrative::idle::idle_headings(lang)
        .iter()
        .map(|h| (*h).to_owned())
        .collect();
    columns.push(estimate.into());
    let title = match population_suffix(lang, report.population) {
        Some(suffix) => format!("{title}{suffix}"),
        None => title.into(),
    };
    Some(ChartItem {
        id: "chart-idle".into(),
        title,
        height_px: 340.0,
        spec: ChartSpec::Idle(IdleInput {
            title: String::new(),
            series,
        }),
        columns,
        rows: firsttoken_core::narrative::idle::chart_rows(lang, report),
    })
}

/// The figures of one data set and time range, computed once.
pub struct Figures {
    /// Rolling windows.
    pub windows: Vec<WindowRow>,
    /// Per target and day.
    pub daily: Vec<DaySeries>,
    /// Per target, vantage and day.
    pub daily_by_vantage: Vec<DaySeries>,
}

impl Figures {
    /// The figures of `data`: rolling windows, and per day (per vantage too
    /// when there are several).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn of(data: &Dataset) -> Self {
        Self {
            windows: rolling_windows(data),
            daily: daily(data, false),
            daily_by_vantage: if data.vantages.len() > 1 {
                daily(data, true)
            } else {
                Vec::new()
            },
        }
    }
}

/// The figures of the chosen time range.
pub struct Ranged {
    /// Per target and vantage, by UTC hour of day.
    pub hours: Vec<HourSeries>,
    /// Per target and vantage.
    pub vantages: Vec<VantageRow>,
    /// The first UTC day of the range.
    pub from_day: i64,
}

/// What a day chart plots of a day: (median or percentage, p95).
impl Ranged {
    /// The figures of the points of `data` sent from `from_ms` on (epoch ms;
    /// −∞ for all).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn of(data: &Dataset, from_ms: f64) -> Self {
        let points = data.since(from_ms);
        Self {
            hours: hour_of_day(points),
            vantages: by_vantage(points),
            from_day: if from_ms.is_finite() {
                utc_day(from_ms)
            } else {
                i64::MIN
            },
        }
    }
}

type DayValue = dyn Fn(&DayCell) -> (Option<f64>, Option<f64>);

/// A day series cut to the time range, with `value` per day.
#[cfg_attr(target_arch = "wasm32", inline)]
fn day_points(series: &DaySeries, from_day: i64, value: &DayValue) -> Vec<DayPoint> {
    series
        .days
        .iter()
        .filter(|day| day.day >= from_day)
        .map(|day| {
            let (median_ms, p95_ms) = value(day);
            DayPoint {
                day: day.day,
                median_ms,
                p95_ms,
            }
        })
        .collect()
}

/// Columns and rows of a day chart's number table: per series, the days
/// shown, requests, errors and the range's newest day.
#[cfg_attr(target_arch = "wasm32", inline)]
fn day_table(
    lang: Lang,
    series: &[(String, &DaySeries)],
    from_day: i64,
) -> (Vec<String>, Vec<Vec<String>>) {
    let t = lang.texts();
    let d = lang.dashboard_texts();
    let columns = vec![
        t.target.into(),
        d.days.into(),
        d.requests.into(),
        t.errors.into(),
        d.availability.into(),
    ];
    let rows = series
        .iter()
        .map(|(label, s)| {
            let days: Vec<_> = s.days.iter().filter(|day| day.day >= from_day).collect();
            let requests: usize = days.iter().map(|day| day.cell.requests).sum();
            let errors: usize = days.iter().map(|day| day.cell.errors).sum();
            let tried: u32 = days.iter().map(|day| day.hours_tried).sum();
            let answered: u32 = days.iter().map(|day| day.hours_answered).sum();
            vec![
                label.clone(),
                days.len().to_string(),
                requests.to_string(),
                errors.to_string(),
                if tried > 0 {
                    format_pct(f64::from(answered) * 100.0 / f64::from(tried))
                } else {
                    "–".into()
                },
            ]
        })
        .collect();
    (columns, rows)
}

/// Every chart of the dashboard, in display order.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn dashboard_chart_items(
    lang: Lang,
    data: &Dataset,
    figures: &Figures,
    ranged: &Ranged,
) -> Vec<ChartItem> {
    let t = lang.texts();
    let d = lang.dashboard_texts();
    let from_day = ranged.from_day;
    let mut items = Vec::new();
    let labelled: Vec<(String, &DaySeries)> = figures
        .daily
        .iter()
        .map(|s| (data.label(lang, s.target, None), s))
        .collect();
    let day_series = |value: &DayValue| {
        labelled
            .iter()
            .map(|(label, s)| DaySeriesInput {
                label: label.clone(),
                days: day_points(s, from_day, value),
                colour_index: s.target as usize,
            })
            .collect::<Vec<_>>()
    };
    let (columns, rows) = day_table(lang, &labelled, from_day);
    let height = |series: usize| 330.0 + 18.0 * (series as f64 / 3.0).ceil();
    items.push(ChartItem {
        id: "chart-daily".into(),
        title: d.chart_daily.into(),
        height_px: height(labelled.len()),
        spec: ChartSpec::Daily(DailyInput {
            title: String::new(),
            value_axis: String::new(),
            series: day_series(&|day| {
                (
                    day.cell.ttft.map(|p| p.p50_ms),
                    day.cell.ttft.map(|p| p.p95_ms),
                )
            }),
        }),
        columns: columns.clone(),
        rows: rows.clone(),
    });
    items.push(ChartItem {
        id: "chart-errors".into(),
        title: d.chart_errors.into(),
        height_px: height(labelled.len()) - 30.0,
        spec: ChartSpec::DailyRates(DailyInput {
            title: String::new(),
            value_axis: d.axis_error_rate.into(),
            series: day_series(&|day| (day.cell.error_rate_pct(), None)),
        }),
        columns: columns.clone(),
        rows: rows.clone(),
    });
    items.push(ChartItem {
        id: "chart-availability".into(),
        title: d.chart_availability.into(),
        height_px: height(labelled.len()) - 30.0,
        spec: ChartSpec::DailyRates(DailyInput {
            title: String::new(),
            value_axis: d.axis_availability.into(),
            series: day_series(&|day| (day.availability_pct(), None)),
        }),
        columns,
        rows,
    });

    // The same target from each vantage.
    for target in 0..data.targets.len() {
        let target = u32::try_from(target).unwrap_or(u32::MAX);
        let of_target: Vec<(String, &DaySeries)> = figures
            .daily_by_vantage
            .iter()
            .filter(|s| s.target == target)
            .map(|s| {
                let vantage = s.vantage.and_then(|v| data.vantages.get(v as usize));
                (
                    vantage_name(lang, vantage.map_or("", String::as_str)).to_owned(),
                    s,
                )
            })
            .collect();
        if of_target.len() < 2 {
            continue;
        }
        let (columns, rows) = day_table(lang, &of_target, from_day);
        items.push(ChartItem {
            id: format!("chart-vantages-{target}"),
            title: format!("{} — {}", d.chart_vantages, data.label(lang, target, None)),
            height_px: 320.0,
            spec: ChartSpec::Daily(DailyInput {
                title: String::new(),
                value_axis: String::new(),
                series: of_target
                    .iter()
                    .enumerate()
                    .map(|(vantage, (label, s))| DaySeriesInput {
                        label: label.clone(),
                        // Each line is a vantage here, not a target.
                        colour_index: vantage,
                        days: day_points(s, from_day, &|day| {
                            (
                                day.cell.ttft.map(|p| p.p50_ms),
                                day.cell.ttft.map(|p| p.p95_ms),
                            )
                        }),
                    })
                    .collect(),
            }),
            columns,
            rows,
        });
    }

    for series in &ranged.hours {
        let hours: Vec<HourBucket> = series
            .hours
            .iter()
            .map(|(hour, cell)| HourBucket {
                hour: *hour,
                n: cell.ttft.map_or(0, |p| p.n),
                median_ms: cell.ttft.map(|p| p.p50_ms),
                p95_ms: cell.ttft.map(|p| p.p95_ms),
            })
            .collect();
        let label = if data.vantages.len() > 1 {
            data.label(lang, series.target, Some(series.vantage))
        } else {
            data.label(lang, series.target, None)
        };
        items.push(ChartItem {
            id: format!("chart-hour-{}-{}", series.target, series.vantage),
            title: format!("{} — {label}", d.chart_hour),
            height_px: 280.0,
            columns: vec![
                t.hour.into(),
                "n".into(),
                t.median.into(),
                t.p95.into(),
                t.error_rate.into(),
            ],
            rows: series
                .hours
                .iter()
                .map(|(hour, cell)| {
                    vec![
                        format!("{hour:02}:00"),
                        cell.ttft.map_or(0, |p| p.n).to_string(),
                        cell.ttft
                            .map_or_else(|| "–".into(), |p| format_ms(lang, p.p50_ms)),
                        cell.ttft
                            .map_or_else(|| "–".into(), |p| format_ms(lang, p.p95_ms)),
                        cell.error_rate_pct().map_or_else(|| "–".into(), format_pct),
                    ]
                })
                .collect(),
            spec: ChartSpec::HourlyUtc(HourlyInput {
                title: String::new(),
                hours,
                peak: [0, 0],
                colour_index: series.target as usize,
            }),
        });
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use firsttoken_core::documents::dashboard::{Published, read_published};
    use firsttoken_core::documents::results::Environment;
    use firsttoken_core::judgement::report::{REPORT_SEED, build_report};
    use firsttoken_core::planning::plan::{Plan, Target};
    use firsttoken_core::testing::fixtures::{results_file, sample, synthetic_samples};
    use std::rc::Rc;

    /// Two targets of one model at 20 000 and 6 000 tokens/s after 150 ms,
    /// 12 requests per size, every size 0–40 ms of jitter.
    fn sized_results() -> (ResultsView, Report) {
        let plan = Plan {
            targets: vec![
                Target::openai("Fast", "https://a.example/v1", "m"),
                Target::openai("Slow", "https://b.example/v1", "m"),
            ],
            prompt_sizes: Some(vec![128, 1_024, 8_192, 32_768]),
            ..Plan::default()
        };
        let mut samples = Vec::new();
        let mut seq = 0;
        for round in 0..12u32 {
            for size in [128u32, 1_024, 8_192, 32_768] {
                for (t, rate) in [(0u32, 20_000.0), (1, 6_000.0)] {
                    let jitter = f64::from((round * 7 + size % 13) % 40);
                    let ttft = 150.0 + jitter + f64::from(size) * 1_000.0 / rate;
                    let mut s = sample(t, seq, f64::from(seq) * 1_000.0, Some(ttft), false);
                    s.sized_prompt = Some(firsttoken_core::planning::prompt::SizedPrompt {
                        tokens: size,
                        repeat_of: None,
                    });
                    s.input_tokens = Some(size);
                    samples.push(s);
                    seq += 1;
                }
            }
        }
        let report = build_report(&plan, &samples, 0, REPORT_SEED);
        let results = ResultsView {
            plan,
            environment: Environment::default(),
            samples: Rc::new(samples),
        };
        (results, report)
    }

    #[test]
    fn a_run_with_sizes_gets_the_prefill_chart_and_one_without_does_not() {
        let (results, report) = sized_results();
        let items = results_chart_items(Lang::En, &results, &report);
        let prefill = items.iter().find(|i| i.id == "chart-prefill").unwrap();
        let ChartSpec::Prefill(input) = &prefill.spec else {
            panic!("not the prefill chart")
        };
        assert_eq!(input.series.len(), 2);
        let core = prefill_report(&results.plan, &results.samples, report.seed).unwrap();
        for (series, target) in input.series.iter().zip(&core.targets) {
            let fit = target.fit.as_ref().unwrap();
            assert_eq!(series.fit, Some((fit.fixed_ms, fit.rate_tokens_per_s)));
            assert_eq!(series.points.len(), 4);
        }
        let (fast, slow) = (input.series[0].fit.unwrap(), input.series[1].fit.unwrap());
        assert!((fast.1 / 20_000.0 - 1.0).abs() < 0.1, "{fast:?}");
        assert!((slow.1 / 6_000.0 - 1.0).abs() < 0.1, "{slow:?}");
        assert_eq!(prefill.rows.len(), 8);
        assert!(
            prefill
                .rows
                .iter()
                .all(|r| r.len() == prefill.columns.len())
        );
        assert_eq!(prefill.rows[3][1], "32 768");
        let svg = chart_svg(prefill, 720, Lang::ZhCn).unwrap();
        assert!(svg.contains("输入 Token（对数刻度）"));
        assert_eq!(svg.matches("<circle").count(), 8);

        // The same run with each sample changed by `change`.
        let changed = |change: fn(&mut firsttoken_core::wire::sample::Sample)| ResultsView {
            samples: Rc::new(
                results
                    .samples
                    .iter()
                    .cloned()
                    .map(|mut s| {
                        change(&mut s);
                        s
                    })
                    .collect(),
            ),
            ..results.clone()
        };
        let plain = changed(|s| s.sized_prompt = None);
        let items = results_chart_items(Lang::En, &plain, &report);
        assert!(items.iter().all(|i| i.id != "chart-prefill"));

        // No input count from the provider: the table's sizes are this
        // client's own count, marked "≈".
        let counted = changed(|s| s.input_tokens = None);
        let items = results_chart_items(Lang::En, &counted, &report);
        let prefill = items.iter().find(|i| i.id == "chart-prefill").unwrap();
        assert!(
            prefill.rows.iter().all(|r| r[2].starts_with("≈ ")),
            "{:?}",
            prefill.rows
        );
    }

    #[test]
    fn a_chinese_charts_ticks_speak_the_texts_units() {
        let (results, report) = sized_results();
        let mut with_ms = 0;
        for item in results_chart_items(Lang::ZhCn, &results, &report) {
            let svg = chart_svg(&item, 720, Lang::ZhCn).unwrap();
            // plotters writes a label's text on its own line.
            let labels: Vec<&str> = svg.lines().filter(|l| !l.starts_with('<')).collect();
            assert!(
                !labels
                    .iter()
                    .any(|l| l.ends_with(" ms") || l.ends_with(" s")),
                "{}: an English unit on a Chinese chart: {labels:?}",
                item.id
            );
            with_ms += usize::from(
                labels
                    .iter()
                    .any(|l| l.ends_with(" 毫秒") || l.ends_with(" 秒")),
            );
        }
        assert!(with_ms >= 3, "{with_ms} charts with 毫秒 / 秒 ticks");
        for item in results_chart_items(Lang::En, &results, &report) {
            let svg = chart_svg(&item, 720, Lang::En).unwrap();
            assert!(!svg.contains("毫秒"), "{}", item.id);
        }
    }

    #[test]
    fn every_chart_draws_the_requests_its_table_counts() {
        // A sized run (four sizes) and the same run with fidelity probes
        // and a cache repeat of every request mixed in: each TTFT chart
        // draws exactly the headline population's requests, as many as
        // the table's n, and names the size.
        let (results, report) = sized_results();
        let mut samples: Vec<_> = results.samples.iter().cloned().collect();
        let extra: Vec<_> = samples
            .iter()
            .map(|s| {
                let mut repeat = s.clone();
                repeat.ttft_ms = Some(5.0);
                repeat.sized_prompt =
                    s.sized_prompt
                        .map(|p| firsttoken_core::planning::prompt::SizedPrompt {
                            repeat_of: Some(s.seq),
                            ..p
                        });
                let mut probe = s.clone();
                probe.ttft_ms = Some(9_000.0);
                probe.sized_prompt = None;
                probe.probe = Some("basic-1/arith".into());
                [repeat, probe]
            })
            .collect();
        samples.extend(extra.into_iter().flatten());
        let mixed = ResultsView {
            samples: Rc::new(samples.clone()),
            ..results.clone()
        };
        let mixed_report = build_report(&mixed.plan, &samples, 0, REPORT_SEED);
        assert_eq!(
            mixed_report.targets, report.targets,
            "repeats and probes change no figure"
        );
        for (view, report) in [(&results, &report), (&mixed, &mixed_report)] {
            let items = results_chart_items(Lang::En, view, report);
            let n = |i: usize| report.targets[i].ttft.map_or(0, |t| t.n);
            assert_eq!(n(0), 12, "one size's first sends");
            for item in &items {
                let drawn: Vec<usize> = match &item.spec {
                    ChartSpec::Ecdf(input) => {
                        input.series.iter().map(|s| s.ttft_ms.len()).collect()
                    }
                    ChartSpec::Spread(input) => {
                        input.series.iter().map(|s| s.ttft_ms.len()).collect()
                    }
                    ChartSpec::Histogram(input) => vec![input.ttft_ms.len()],
                    ChartSpec::Timeline(input) => (0..2)
                        .map(|t| input.points.iter().filter(|p| p.series == t).count())
                        .collect(),
                    _ => continue,
                };
                assert!(drawn.iter().all(|&d| d == n(0)), "{}: {drawn:?}", item.id);
                assert!(
                    item.title.ends_with("first sends at 128 tokens"),
                    "{}",
                    item.title
                );
            }
        }
    }

    #[test]
    fn the_results_charts_follow_the_report() {
        let plan = Plan {
            targets: vec![
                Target::openai("A", "https://a.example/v1", "m"),
                Target::openai("B", "https://b.example/v1", "m"),
                Target::openai("C", "https://c.example/v1", "other"),
            ],
            ..Plan::default()
        };
        let mut samples = synthetic_samples(3, 40, 1, 5);
        // C never answers: no latency to draw.
        for s in samples.iter_mut().filter(|s| s.target == 2) {
            s.ttft_ms = None;
            s.error = Some(firsttoken_core::wire::sample::SampleError {
                kind: firsttoken_core::wire::sample::ErrorKind::HttpStatus,
                phase: firsttoken_core::wire::sample::Phase::Request,
                message: "HTTP 500".into(),
            });
        }
        let results = ResultsView {
            plan: plan.clone(),
            environment: Environment::default(),
            samples: Rc::new(samples.clone()),
        };
        let report = build_report(&plan, &samples, 0, REPORT_SEED);
        let items = results_chart_items(Lang::En, &results, &report);
        let ids: Vec<&str> = items.iter().map(|i| i.id.as_str()).collect();
        assert!(
            ids.contains(&"chart-spread") && ids.contains(&"chart-timeline"),
            "{ids:?}"
        );
        assert!(ids.contains(&"chart-histogram-0") && ids.contains(&"chart-histogram-1"));
        assert!(
            !ids.contains(&"chart-histogram-2"),
            "no histogram without a success"
        );
        // Synthetic samples are 5 s apart: under an hour, no hour-of-day chart.
        assert!(
            !ids.iter().any(|id| id.starts_with("chart-hourly")),
            "{ids:?}"
        );
        let ecdf = items
            .iter()
            .find(|i| i.id.starts_with("chart-ecdf"))
            .unwrap();
        assert_eq!(ecdf.rows.len(), 2, "the ECDF of model m has A and B");
        assert_eq!(ecdf.columns.len(), ecdf.rows[0].len());
        let spread = items.iter().find(|i| i.id == "chart-spread").unwrap();
        assert_eq!(spread.rows[2][1], "0", "C: no ranked request");
        // The number tables speak the page's language.
        let zh = results_chart_items(Lang::ZhCn, &results, &report);
        assert!(
            zh[0].columns.contains(&"最小".to_owned()),
            "{:?}",
            zh[0].columns
        );
        assert_eq!(chart_labels(Lang::ZhCn).day_axis, "日期（UTC）");
    }

    /// The hour-of-day chart needs an hour between a target's first and
    /// last request, not only two hours of the clock: a 3-minute run across
    /// 11:00 gets none, the same requests spread over two hours get one.
    #[test]
    fn an_hour_of_day_chart_only_for_requests_an_hour_apart() {
        let plan = Plan {
            targets: vec![Target::openai("A", "https://a.example/v1", "m")],
            ..Plan::default()
        };
        let hourly = |step_ms: f64| {
            let mut samples = synthetic_samples(1, 40, 0, 5);
            // From 10:58 UTC on a day, `step_ms` apart.
            let start = 1_700_000_000_000.0 - 1_700_000_000_000.0 % 3_600_000.0 + 58.0 * 60_000.0;
            for (k, s) in samples.iter_mut().enumerate() {
                s.sent_at_ms = start + k as f64 * step_ms;
            }
            let results = ResultsView {
                plan: plan.clone(),
                environment: Environment::default(),
                samples: Rc::new(samples.clone()),
            };
            let report = build_report(&plan, &samples, 0, REPORT_SEED);
            let clock_hours = report.targets[0]
                .time_of_day
                .hours
                .iter()
                .filter(|h| h.requests > 0)
                .count();
            let drawn = results_chart_items(Lang::En, &results, &report)
                .iter()
                .any(|i| i.id.starts_with("chart-hourly"));
            (clock_hours, drawn)
        };
        assert_eq!(hourly(4_500.0), (2, false), "3 minutes across the hour");
        assert_eq!(hourly(180_000.0), (3, true), "two hours");
    }

    #[test]
    fn a_target_has_its_index_colour_in_every_chart_whatever_its_rank() {
        let plan = Plan {
            targets: vec![
                Target::openai("Slow", "https://a.example/v1", "m"),
                Target::openai("Fast", "https://b.example/v1", "m"),
            ],
            ..Plan::default()
        };
        // Target 0 gets the slower data, so the ECDF (in rank order)
        // lists target 1 first.
        let mut samples = synthetic_samples(2, 40, 1, 5);
        for s in &mut samples {
            s.target = 1 - s.target;
        }
        let results = ResultsView {
            plan: plan.clone(),
            environment: Environment::default(),
            samples: Rc::new(samples.clone()),
        };
        let report = build_report(&plan, &samples, 0, REPORT_SEED);
        let items = results_chart_items(Lang::En, &results, &report);
        let index = |label: &str| plan.targets.iter().position(|t| t.label == label);
        let ecdf = items.iter().find(|i| i.id == "chart-ecdf-0").unwrap();
        let ChartSpec::Ecdf(ecdf) = &ecdf.spec else {
            panic!("not the ECDF")
        };
        assert_eq!(ecdf.series[0].label, "Fast", "the ECDF lists by rank");
        let mut drawn = 0;
        for item in &items {
            let coloured: Vec<(&str, usize)> = match &item.spec {
                ChartSpec::Ecdf(EcdfInput { series, .. })
                | ChartSpec::Spread(SpreadInput { series, .. }) => series
                    .iter()
                    .map(|s| (s.label.as_str(), s.colour_index))
                    .collect(),
                ChartSpec::Histogram(input) => {
                    vec![(input.series_label.as_str(), input.colour_index)]
                }
                ChartSpec::Timeline(input) => input
                    .points
                    .iter()
                    .map(|p| (input.series_labels[p.series].as_str(), p.series))
                    .collect(),
                _ => continue,
            };
            for (label, colour) in coloured {
                assert_eq!(Some(colour), index(label), "{}: {label}", item.id);
                drawn += 1;
            }
        }
        assert!(drawn > 4, "{drawn}");
    }

    #[test]
    fn the_dashboard_charts_cover_days_vantages_and_hours() {
        let a = Target::openai("A", "https://a.example/v1", "m");
        let day_ms = 86_400_000.0;
        let samples: Vec<_> = (0..48)
            .map(|i| {
                sample(
                    0,
                    i,
                    1_796_000_000_000.0 + f64::from(i) * day_ms / 24.0,
                    Some(400.0 + f64::from(i)),
                    false,
                )
            })
            .collect();
        let text = results_file(vec![a], &samples);
        let Ok(Published::Points(points)) = read_published(text.as_bytes()) else {
            panic!("a results file");
        };
        let mut data = Dataset::default();
        data.add(&points, "fra1").unwrap();
        data.add(&points, "sgp1").unwrap();
        let figures = Figures::of(&data);
        let ranged = Ranged::of(&data, f64::NEG_INFINITY);
        let items = dashboard_chart_items(Lang::En, &data, &figures, &ranged);
        let ids: Vec<&str> = items.iter().map(|i| i.id.as_str()).collect();
        for id in [
            "chart-daily",
            "chart-errors",
            "chart-availability",
            "chart-vantages-0",
        ] {
            assert!(ids.contains(&id), "{id} in {ids:?}");
        }
        assert!(
            ids.iter().any(|id| id.starts_with("chart-hour-0-")),
            "{ids:?}"
        );
        let daily = &items[0];
        assert_eq!(daily.rows.len(), 1);
        assert_eq!(daily.rows[0][2], "96", "two vantages × 48 requests");
        let vantages = items.iter().find(|i| i.id == "chart-vantages-0").unwrap();
        let names: Vec<&str> = vantages.rows.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(names, ["fra1", "sgp1"]);
    }
}
