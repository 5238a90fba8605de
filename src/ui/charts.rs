//! The results' charts: builds each chart's plain-data input from the
//! report, and draws it on a canvas sized for the screen's pixel ratio. Each
//! chart has a "Download PNG" button and its numbers in a table beside it.
//!
//! Inputs are built once per set of samples and language; a canvas is
//! redrawn only when its input changes or its width does.

use std::cell::Cell;
use std::rc::Rc;

use plotters::prelude::IntoDrawingArea;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::browser::canvas::{
    MeasuredCanvas, ResizeListener, canvas_by_id, css_width_px, fit_to_css_box, png_data_url,
};
use crate::browser::clock::performance_mark;
use crate::browser::files::download_url;
use crate::chart::{
    ChartLabels, ChartStyle, DailyInput, EcdfInput, HistogramInput, HourBucket, HourlyInput,
    Series, SpreadInput, TimelineInput, TimelinePoint, draw_daily, draw_daily_rates, draw_ecdf,
    draw_histogram, draw_hourly, draw_spread, draw_timeline,
};
use crate::core::report::Report;
use crate::core::stats::Summary;
use crate::ui::i18n::{Lang, format_ms};
use crate::ui::state::ResultsView;
use std::collections::BTreeMap;

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

pub(crate) fn chart_labels(lang: Lang) -> ChartLabels {
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
            median: "中位数".into(),
            p95: "p95".into(),
            box_range: "箱体：p25–p75".into(),
            whisker_range: "须线：p5–p95".into(),
            beyond_whiskers: "散点：超出须线".into(),
            tail: "慢速长尾".into(),
            error: "错误".into(),
            peak_hours: "高峰时段".into(),
            sample_count: "n".into(),
            no_data: "无数据".into(),
        },
    }
}

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
pub fn chart_items(lang: Lang, results: &ResultsView, report: &Report) -> Vec<ChartItem> {
    let t = lang.texts();
    let plan = &results.plan;
    let mut counted: Vec<Vec<f64>> = vec![Vec::new(); plan.targets.len()];
    for sample in results.samples.iter() {
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
            title: format!("{} — {}", t.chart_ecdf, model.names.join(" / ")),
            height_px: 340.0,
            spec: ChartSpec::Ecdf(EcdfInput {
                title: String::new(),
                series: members.iter().map(|&i| series(i)).collect(),
            }),
            columns: summary_columns(lang),
            rows: members.iter().map(|&i| summary_row(i)).collect(),
        });
    }

    let all: Vec<usize> = (0..plan.targets.len()).collect();
    items.push(ChartItem {
        id: "chart-spread".into(),
        title: t.chart_spread.into(),
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
        title: t.chart_timeline.into(),
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
            title: format!("{} — {}", t.chart_histogram, target.label),
            height_px: 280.0,
            spec: ChartSpec::Histogram(HistogramInput {
                title: String::new(),
                series_label: target.label.clone(),
                ttft_ms: counted.get(i).cloned().unwrap_or_default(),
                median_ms: target.ttft.map(|s| s.median),
                p95_ms: target.ttft.map(|s| s.p95),
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
        // An hour-of-day view means something only once a run spans hours.
        if hours.len() < 2 {
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
            }),
        });
    }
    items
}

/// The style of a chart on a canvas `width` device pixels wide at `ratio`
/// device pixels per CSS pixel.
pub fn chart_style(lang: Lang, width: u32, ratio: f64) -> ChartStyle {
    ChartStyle {
        font_family: "system-ui, sans-serif".into(),
        font_scale: ratio,
        // The canvas keeps a white background in both colour schemes (CSS),
        // so a chart looks the same on screen, printed and downloaded.
        dark: false,
        width_px: Some((f64::from(width) / ratio).round() as u32),
        labels: chart_labels(lang),
    }
}

/// Draws `item` on `canvas`, laid out `css_width_px` wide; returns the
/// drawing's error text.
pub fn draw_item(
    item: &ChartItem,
    canvas: HtmlCanvasElement,
    css_width_px: f64,
    lang: Lang,
) -> Result<(), String> {
    let (width, _, ratio) = fit_to_css_box(&canvas, css_width_px, item.height_px);
    let style = chart_style(lang, width, ratio);
    let backend = MeasuredCanvas::new(canvas).ok_or("the canvas has no 2D context")?;
    let area = backend.into_drawing_area();
    let drawn = match &item.spec {
        ChartSpec::Histogram(input) => draw_histogram(&area, input, &style),
        ChartSpec::Ecdf(input) => draw_ecdf(&area, input, &style),
        ChartSpec::Timeline(input) => draw_timeline(&area, input, &style).map(drop),
        ChartSpec::Spread(input) => draw_spread(&area, input, &style),
        ChartSpec::Hourly(input) => draw_hourly(&area, input, &style),
        ChartSpec::HourlyUtc(input) => {
            let style = ChartStyle {
                labels: ChartLabels {
                    hour_axis: lang.dashboard_texts().hour_utc.into(),
                    ..style.labels.clone()
                },
                ..style.clone()
            };
            draw_hourly(&area, input, &style)
        }
        ChartSpec::Daily(input) => draw_daily(&area, input, &style),
        ChartSpec::DailyRates(input) => draw_daily_rates(&area, input, &style),
    };
    drawn.map_err(|e| format!("{e:?}"))?;
    area.present().map_err(|e| format!("{e:?}"))
}

/// Props of the charts section.
#[derive(Properties, Clone)]
pub struct ChartsProps {
    /// Page language.
    pub lang: Lang,
    /// The samples.
    pub results: ResultsView,
    /// Their report.
    pub report: Rc<Report>,
}

impl PartialEq for ChartsProps {
    fn eq(&self, other: &Self) -> bool {
        self.lang == other.lang && Rc::ptr_eq(&self.report, &other.report)
    }
}

/// All charts of the results, drawn after the DOM is in place.
#[component]
pub fn ChartsSection(props: &ChartsProps) -> Html {
    let items = use_memo((props.lang, Rc::as_ptr(&props.report) as usize), {
        let results = props.results.clone();
        let report = Rc::clone(&props.report);
        let lang = props.lang;
        move |_| chart_items(lang, &results, &report)
    });
    html! {
        <ChartGrid lang={props.lang} {items} layout={Rc::as_ptr(&props.report) as usize}
            title={props.lang.texts().charts} mark="firsttoken:charts-drawn" />
    }
}

/// Props of a grid of charts.
#[derive(Properties, Clone)]
pub struct ChartGridProps {
    /// Page language.
    pub lang: Lang,
    /// The charts, built for this language.
    pub items: Rc<Vec<ChartItem>>,
    /// Changes when the canvases may have new widths (new data), so they are
    /// measured again; a language switch keeps it.
    pub layout: usize,
    /// Section heading.
    pub title: &'static str,
    /// Performance mark set once every chart is drawn.
    pub mark: &'static str,
}

impl PartialEq for ChartGridProps {
    fn eq(&self, other: &Self) -> bool {
        self.lang == other.lang
            && Rc::ptr_eq(&self.items, &other.items)
            && self.layout == other.layout
            && self.title == other.title
    }
}

/// Charts, each with a PNG download and its numbers, drawn after the DOM is
/// in place.
#[component]
pub fn ChartGrid(props: &ChartGridProps) -> Html {
    let t = props.lang.texts();
    let items = Rc::clone(&props.items);
    // Bumped when the window is resized: the canvases then have a new width.
    // (A counter in a cell, not a state: the listener outlives renders, and a
    // state handle it captured would keep adding to its first value.)
    let resized = use_memo((), |_| Cell::new(0u32));
    let redraw = use_force_update();
    {
        let resized = Rc::clone(&resized);
        use_effect_with((), move |_| {
            let listener = ResizeListener::new(move || {
                resized.set(resized.get().wrapping_add(1));
                redraw.force_update();
            });
            move || drop(listener)
        });
    }
    // Canvas widths as last laid out, for (report, resize count). Reading a
    // width right after a render forces the browser to lay out the whole
    // results page there and then (~10 ms with 30 charts), and again in the
    // frame. A language switch changes no width, so it redraws with these;
    // new results or a resize read them afresh.
    let widths = use_mut_ref(|| ((0usize, 0u32), BTreeMap::<String, f64>::new()));
    {
        let items = Rc::clone(&items);
        let lang = props.lang;
        let layout = (props.layout, resized.get());
        let mark = props.mark;
        use_effect_with((Rc::as_ptr(&items) as usize, layout), move |_| {
            let mut widths = widths.borrow_mut();
            if widths.0 != layout {
                *widths = (layout, BTreeMap::new());
            }
            // Every width first (one layout at most), then every drawing: a
            // width read after a canvas was resized would lay out again.
            let canvases: Vec<_> = items
                .iter()
                .map(|item| {
                    let canvas = canvas_by_id(&item.id)?;
                    let width = match widths.1.get(&item.id) {
                        Some(&width) => width,
                        None => {
                            let width = css_width_px(&canvas);
                            widths.1.insert(item.id.clone(), width);
                            width
                        }
                    };
                    Some((width, canvas))
                })
                .collect();
            for (item, canvas) in items.iter().zip(canvases) {
                let drawn = match canvas {
                    Some((width, canvas)) => draw_item(item, canvas, width, lang),
                    None => Err("no canvas".to_owned()),
                };
                if let Err(error) = drawn {
                    web_sys::console::error_1(&format!("chart {}: {error}", item.id).into());
                }
            }
            performance_mark(mark);
        });
    }
    html! {
        <section class="card">
            <h2>{props.title}</h2>
            <div class="chart-grid">
            { for items.iter().map(|item| {
                let id = item.id.clone();
                let on_png = Callback::from(move |_| {
                    if let Some(canvas) = canvas_by_id(&id)
                        && let Ok(url) = png_data_url(&canvas)
                    {
                        let _ = download_url(&url, &format!("firsttoken-{id}.png"));
                    }
                });
                html! {
                    <figure class="chart" key={item.id.clone()}>
                        <figcaption>
                            <span>{item.title.clone()}</span>
                            <button type="button" class="png" onclick={on_png}>{t.download_png}</button>
                        </figcaption>
                        <canvas id={item.id.clone()} role="img" aria-label={item.title.clone()}></canvas>
                        <details class="numbers">
                            <summary>{t.samples}</summary>
                            <div class="table-wrap">
                            <table>
                                <thead><tr>{ for item.columns.iter().map(|c| html! { <th scope="col">{c.clone()}</th> }) }</tr></thead>
                                <tbody>{ for item.rows.iter().map(|row| html! {
                                    <tr>{ for row.iter().map(|c| html! { <td>{c.clone()}</td> }) }</tr>
                                }) }</tbody>
                            </table>
                            </div>
                        </details>
                    </figure>
                }
            }) }
            </div>
        </section>
    }
}
