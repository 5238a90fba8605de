//! Charts over UTC days, for a monitor's weeks and months of data: TTFT
//! median and p95 per day for each series (a target, or a target at one
//! vantage), and a percentage per day (error rate, availability).
//!
//! Every day with data is drawn; nothing is thinned. A day without data
//! breaks a line rather than bridging it, so a gap in the monitor shows.

use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::axis::{TickAxis, format_plain, linear_ticks, log_range, tick_ms};
use super::layout::{
    AxisPlan, Ink, LegendItem, Mark, Swatch, build_plot, diamond, draw_frame, draw_no_data,
    fitted_log_axis, labels_fit, split_legend,
};
use super::palette::series_colour;
use super::{Area, ChartError, ChartStyle};
use firsttoken_core::base::calendar::civil_from_days;
use firsttoken_core::base::order::sort_by_first;

/// Markers are drawn on each day while a series has at most this many.
const MARKERS_UP_TO_DAYS: usize = 62;

/// One day of one series.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct DayPoint {
    /// UTC day, days since 1970-01-01.
    pub day: i64,
    /// Median TTFT, ms (or the percentage, for [`draw_daily_rates`]).
    pub median_ms: Option<f64>,
    /// 95th percentile TTFT, ms (unused by [`draw_daily_rates`]).
    pub p95_ms: Option<f64>,
}

/// One line (or pair of lines) on a day chart.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DaySeriesInput {
    /// Legend label.
    pub label: String,
    /// Days in any order.
    pub days: Vec<DayPoint>,
    /// Its series colour: the target's index in the data set, so a
    /// target keeps one colour in every chart of the dashboard.
    pub colour_index: usize,
}

/// What a day chart shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DailyInput {
    /// Chart title.
    pub title: String,
    /// Y axis title for [`draw_daily_rates`] (the TTFT chart uses the
    /// labels' TTFT axis title).
    pub value_axis: String,
    /// The series, one colour each.
    pub series: Vec<DaySeriesInput>,
}

/// A series' usable days, sorted, with `value` finite and accepted.
/// `keep` is a `dyn` closure: a generic one made a copy of this function,
/// and of the sort inside it, per chart.
#[cfg_attr(target_arch = "wasm32", inline)]
fn usable_days(days: &[DayPoint], keep: &dyn Fn(f64) -> bool) -> Vec<DayPoint> {
    let ok = |v: Option<f64>| v.filter(|v| v.is_finite() && keep(*v));
    let usable: Vec<DayPoint> = days
        .iter()
        .map(|d| DayPoint {
            day: d.day,
            median_ms: ok(d.median_ms),
            p95_ms: ok(d.p95_ms),
        })
        .filter(|d| d.median_ms.is_some() || d.p95_ms.is_some())
        .collect();
    // Sorted stably by day through core's one sort of pairs, (day,
    // position) (days and positions are exact as f64), the first of a day
    // kept.
    let mut order: Vec<(f64, f64)> = usable
        .iter()
        .enumerate()
        .map(|(position, d)| (d.day as f64, position as f64))
        .collect();
    sort_by_first(&mut order);
    let mut out: Vec<DayPoint> = order
        .iter()
        .map(|&(_, position)| usable[position as usize])
        .collect();
    out.dedup_by_key(|d| d.day);
    out
}

/// Polylines through consecutive days' values (a missing day or value
/// breaks the line); x is the middle of the day.
#[cfg_attr(target_arch = "wasm32", inline)]
fn day_runs(days: &[DayPoint], value: fn(&DayPoint) -> Option<f64>) -> Vec<Vec<(f64, f64)>> {
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut previous: Option<i64> = None;
    for day in days {
        let Some(v) = value(day) else {
            previous = None;
            continue;
        };
        let point = (day.day as f64 + 0.5, v);
        match (previous, runs.last_mut()) {
            (Some(prev), Some(run)) if prev + 1 == day.day => run.push(point),
            _ => runs.push(vec![point]),
        }
        previous = Some(day.day);
    }
    runs
}

/// `MM-DD`, or `YYYY-MM-DD` when the chart spans more than one year.
#[cfg_attr(target_arch = "wasm32", inline)]
fn day_label(day: i64, with_year: bool) -> String {
    let (y, m, d) = civil_from_days(day);
    if with_year {
        format!("{y:04}-{m:02}-{d:02}")
    } else {
        format!("{m:02}-{d:02}")
    }
}

/// Day ticks every 1, 2 or 7 days, 2 weeks, or 1, 2, 3, 6 or 12 months
/// (first of the month), whichever is densest and fits.
#[cfg_attr(target_arch = "wasm32", inline)]
fn day_axis<DB: DrawingBackend>(
    area: &Area<DB>,
    ink: &Ink<'_>,
    (first, last): (i64, i64),
    length: u32,
    with_year: bool,
) -> TickAxis {
    let (lo, hi) = (first as f64, (last + 1) as f64);
    let font = ink.tick_font();
    let format = |v: f64| day_label(v.round() as i64, with_year);
    let days = first..=last + 1;
    let mut candidates: Vec<Vec<f64>> = [1i64, 2, 7, 14]
        .iter()
        .map(|step| {
            days.clone()
                .filter(|d| d.rem_euclid(*step) == 0)
                .map(|d| d as f64)
                .collect()
        })
        .collect();
    for months in [1u32, 2, 3, 6, 12] {
        candidates.push(
            days.clone()
                .filter(|d| {
                    let (_, m, day) = civil_from_days(*d);
                    day == 1 && (m - 1) % months == 0
                })
                .map(|d| d as f64)
                .collect(),
        );
    }
    // A year has 366 daily ticks: measuring every label of every candidate
    // would cost hundreds of text measurements per chart. One label's width
    // rules out the candidates that cannot fit before any is measured.
    let label_width = f64::from(super::layout::text_size(area, &format(lo), &font).0).max(1.0);
    for major in candidates {
        if major.is_empty() || major.len() as f64 * label_width > f64::from(length) {
            continue;
        }
        let axis = TickAxis::linear(lo, hi, major);
        if labels_fit(area, &font, &axis, length, true, &format) {
            return axis;
        }
    }
    TickAxis::linear(lo, hi, vec![lo])
}

/// Days covered by every series together.
#[cfg_attr(target_arch = "wasm32", inline)]
fn day_span(series: &[Vec<DayPoint>]) -> Option<(i64, i64)> {
    let first = series
        .iter()
        .filter_map(|s| s.first())
        .map(|d| d.day)
        .min()?;
    let last = series
        .iter()
        .filter_map(|s| s.last())
        .map(|d| d.day)
        .max()?;
    Some((first, last))
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn years_differ((first, last): (i64, i64)) -> bool {
    civil_from_days(first).0 != civil_from_days(last + 1).0
}

/// Whether the days of `series` are few enough to be drawn as markers
/// too (then the legend shows the markers as well as the lines).
#[cfg_attr(target_arch = "wasm32", inline)]
fn with_markers(series: &[Vec<DayPoint>]) -> bool {
    series
        .iter()
        .any(|days| !days.is_empty() && days.len() <= MARKERS_UP_TO_DAYS)
}

/// A legend swatch for a line, with its marker when the chart draws them.
#[cfg_attr(target_arch = "wasm32", inline)]
fn line_swatch(colour: RGBColor, dashed: bool, mark: Mark, markers: bool) -> Swatch {
    if markers {
        Swatch::Marked {
            colour,
            dashed,
            mark,
        }
    } else {
        Swatch::Line { colour, dashed }
    }
}

/// Draws the series' lines and markers: the median solid with dots, the
/// p95 dashed with diamonds (as the hour-of-day chart draws them), so one
/// day's two points are told apart as the legend tells them.
#[cfg_attr(target_arch = "wasm32", inline)]
fn draw_lines<DB: DrawingBackend>(
    chart: &super::layout::Plot<'_, DB>,
    ink: &Ink<'_>,
    series: &[Vec<DayPoint>],
    input: &DailyInput,
    dark: bool,
) -> Result<(), ChartError> {
    let plot = chart.plotting_area();
    let m = &ink.metrics;
    let dash = f64::from(m.px(6.0));
    for (days, own) in series.iter().zip(&input.series) {
        let colour = series_colour(own.colour_index, dark);
        let line = colour.stroke_width(m.line_px);
        for run in day_runs(days, |d| d.median_ms) {
            plot.draw(&PathElement::new(run, line))?;
        }
        for run in day_runs(days, |d| d.p95_ms) {
            plot.draw(&DashedPathElement::new(run, dash, dash * 0.6, line))?;
        }
        if days.len() <= MARKERS_UP_TO_DAYS {
            let (base_x, base_y) = plot.get_base_pixel();
            let strip = plot.strip_coord_spec();
            let diamond_r = i32::try_from(m.dot_px + 2).unwrap_or(4);
            for day in days {
                let x = day.day as f64 + 0.5;
                if let Some(median) = day.median_ms {
                    plot.draw(&Circle::new((x, median), m.dot_px, colour.filled()))?;
                }
                if let Some(p95) = day.p95_ms {
                    let (px, py) = chart.backend_coord(&(x, p95));
                    strip.draw(&diamond((px - base_x, py - base_y), diamond_r, colour))?;
                }
            }
        }
    }
    Ok(())
}

/// Draws TTFT median (solid) and p95 (dashed) per UTC day for each series,
/// on a log TTFT axis.
///
/// # Errors
/// [`ChartError::Backend`] if the backend fails to draw.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn draw_daily<DB: DrawingBackend>(
    area: &Area<DB>,
    input: &DailyInput,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let ink = Ink::new(area, style);
    let labels = &style.labels;
    let body = draw_frame(area, &ink, &input.title, "")?;
    let series: Vec<Vec<DayPoint>> = input
        .series
        .iter()
        .map(|s| usable_days(&s.days, &|v| v > 0.0))
        .collect();
    let values = series
        .iter()
        .flatten()
        .flat_map(|d| [d.median_ms, d.p95_ms])
        .flatten();
    let (min, max) = values.fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let Some(span) = day_span(&series).filter(|_| max > 0.0) else {
        return draw_no_data(&body, &ink, &labels.no_data);
    };

    let muted = ink.theme.muted;
    let mut legend: Vec<LegendItem> = input
        .series
        .iter()
        .map(|s| LegendItem {
            swatch: Swatch::Block(series_colour(s.colour_index, style.dark)),
            label: s.label.clone(),
        })
        .collect();
    let markers = with_markers(&series);
    legend.push(LegendItem {
        swatch: line_swatch(muted, false, Mark::Dot, markers),
        label: labels.median.clone(),
    });
    legend.push(LegendItem {
        swatch: line_swatch(muted, true, Mark::Diamond, markers),
        label: labels.p95.clone(),
    });
    let plot_area = split_legend(&body, &ink, &legend)?;
    let (lo, hi) = log_range(min, max);
    let with_year = years_differ(span);
    let x_format = |v: &f64| day_label(v.round() as i64, with_year);
    let y_format = |v: &f64| tick_ms(style.labels.units, *v);
    let chart = build_plot(
        &plot_area,
        &ink,
        AxisPlan {
            make: &|length| day_axis(&plot_area, &ink, span, length, with_year),
            format: &x_format,
            title: &labels.day_axis,
        },
        AxisPlan {
            make: &|length| fitted_log_axis(&plot_area, &ink, (lo, hi), length, false),
            format: &y_format,
            title: &labels.ttft_axis,
        },
    )?;
    draw_lines(&chart, &ink, &series, input, style.dark)
}

/// Draws a percentage per UTC day for each series (the days' `median_ms`
/// holds the percentage), on a linear axis from 0 to the largest value
/// (at least 1 %, at most 100 %).
///
/// # Errors
/// [`ChartError::Backend`] if the backend fails to draw.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn draw_daily_rates<DB: DrawingBackend>(
    area: &Area<DB>,
    input: &DailyInput,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let ink = Ink::new(area, style);
    let labels = &style.labels;
    let body = draw_frame(area, &ink, &input.title, "")?;
    let series: Vec<Vec<DayPoint>> = input
        .series
        .iter()
        .map(|s| {
            let mut days = usable_days(&s.days, &|v| (0.0..=100.0).contains(&v));
            for day in &mut days {
                day.p95_ms = None;
            }
            days.retain(|d| d.median_ms.is_some());
            days
        })
        .collect();
    let Some(span) = day_span(&series) else {
        return draw_no_data(&body, &ink, &labels.no_data);
    };
    let max = series
        .iter()
        .flatten()
        .filter_map(|d| d.median_ms)
        .fold(0.0f64, f64::max);
    let hi = (max * 1.08).clamp(1.0, 100.0);

    let markers = with_markers(&series);
    let legend: Vec<LegendItem> = input
        .series
        .iter()
        .map(|s| LegendItem {
            swatch: line_swatch(
                series_colour(s.colour_index, style.dark),
                false,
                Mark::Dot,
                markers,
            ),
            label: s.label.clone(),
        })
        .collect();
    let plot_area = split_legend(&body, &ink, &legend)?;
    let with_year = years_differ(span);
    let x_format = |v: &f64| day_label(v.round() as i64, with_year);
    let y_format = |v: &f64| format!("{} %", format_plain(*v, 1));
    let font = ink.tick_font();
    let chart = build_plot(
        &plot_area,
        &ink,
        AxisPlan {
            make: &|length| day_axis(&plot_area, &ink, span, length, with_year),
            format: &x_format,
            title: &labels.day_axis,
        },
        AxisPlan {
            make: &|length| {
                for max_ticks in (2..=8).rev() {
                    let axis = TickAxis::linear(0.0, hi, linear_ticks(0.0, hi, max_ticks));
                    if labels_fit(&plot_area, &font, &axis, length, false, &|v| {
                        format!("{} %", format_plain(v, 1))
                    }) {
                        return axis;
                    }
                }
                TickAxis::linear(0.0, hi, vec![0.0])
            },
            format: &y_format,
            title: &input.value_axis,
        },
    )?;
    draw_lines(&chart, &ink, &series, input, style.dark)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{has_text, render_svg};

    const DAY: i64 = 20_000; // 2024-10-04

    fn days(n: i64, skip: i64, value: impl Fn(i64) -> f64) -> Vec<DayPoint> {
        (0..n)
            .filter(|d| *d != skip)
            .map(|d| DayPoint {
                day: DAY + d,
                median_ms: Some(value(d)),
                p95_ms: Some(value(d) * 3.0),
            })
            .collect()
    }

    fn input(n: i64) -> DailyInput {
        DailyInput {
            title: "TTFT per day".into(),
            value_axis: "error rate".into(),
            series: vec![
                DaySeriesInput {
                    label: "Acme · fra1".into(),
                    days: days(n, 3, |d| 300.0 + (d % 5) as f64 * 20.0),
                    colour_index: 0,
                },
                DaySeriesInput {
                    label: "Borealis · sgp1".into(),
                    days: days(n, -1, |d| 900.0 + (d % 3) as f64 * 50.0),
                    colour_index: 1,
                },
            ],
        }
    }

    /// One day of data is two markers per series, no line: the median a
    /// dot, the p95 a diamond, and the legend shows the same two markers
    /// (it showed a solid and a dashed line beside two alike dots).
    #[test]
    fn one_day_s_markers_match_the_legend() -> Result<(), ChartError> {
        let one = input(1);
        let svg = render_svg(800, 400, |area, style| draw_daily(area, &one, style))?;
        let series = one.series.iter().filter(|s| !s.days.is_empty()).count();
        // A diamond per series' p95 and one in the legend; a dot per
        // series' median and one in the legend.
        assert_eq!(svg.matches("<polygon").count(), series + 1, "{svg}");
        assert_eq!(svg.matches("<circle").count(), series + 1, "{svg}");
        // Over many days the markers go, and so do they in the legend.
        let long = DailyInput {
            series: vec![DaySeriesInput {
                label: "Acme".into(),
                days: days(400, -1, |_| 300.0),
                colour_index: 0,
            }],
            ..input(1)
        };
        let svg = render_svg(800, 400, |area, style| draw_daily(area, &long, style))?;
        assert_eq!(svg.matches("<polygon").count(), 0);
        assert_eq!(svg.matches("<circle").count(), 0);
        Ok(())
    }

    #[test]
    fn a_week_has_daily_ticks_legend_and_gaps() -> Result<(), ChartError> {
        let svg = render_svg(1000, 400, |area, style| draw_daily(area, &input(7), style))?;
        assert!(has_text(&svg, "day (UTC)"));
        assert!(has_text(&svg, "10-04"));
        assert!(has_text(&svg, "10-10"));
        assert!(has_text(&svg, "Acme · fra1"));
        assert!(has_text(&svg, "median"));
        assert!(has_text(&svg, "p95"));
        // The missing day splits the first series' median into two lines:
        // two runs per series and statistic... one solid polyline per run.
        let runs = day_runs(&usable_days(&input(7).series[0].days, &|v| v > 0.0), |d| {
            d.median_ms
        });
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0].len(), 3);
        Ok(())
    }

    #[test]
    fn a_year_thins_ticks_to_months_and_names_years() -> Result<(), ChartError> {
        let long = DailyInput {
            series: vec![DaySeriesInput {
                label: "a".into(),
                days: days(365, -1, |d| 200.0 + (d % 30) as f64),
                colour_index: 0,
            }],
            ..input(0)
        };
        let svg = render_svg(1200, 400, |area, style| draw_daily(area, &long, style))?;
        assert!(has_text(&svg, "2024-11-01"), "month ticks with the year");
        assert!(!has_text(&svg, "2024-10-05"));
        let narrow = render_svg(400, 300, |area, style| draw_daily(area, &long, style))?;
        assert!(!narrow.is_empty());
        Ok(())
    }

    #[test]
    fn rates_are_percent_and_empty_says_so() -> Result<(), ChartError> {
        let rates = DailyInput {
            series: vec![DaySeriesInput {
                label: "a".into(),
                days: days(10, -1, |d| (d % 4) as f64),
                colour_index: 0,
            }],
            ..input(0)
        };
        let svg = render_svg(800, 300, |area, style| {
            draw_daily_rates(area, &rates, style)
        })?;
        assert!(has_text(&svg, "0 %"));
        assert!(has_text(&svg, "error rate"));
        let empty = DailyInput::default();
        let svg = render_svg(400, 300, |area, style| draw_daily(area, &empty, style))?;
        assert!(has_text(&svg, "no data"));
        let svg = render_svg(400, 300, |area, style| {
            draw_daily_rates(area, &empty, style)
        })?;
        assert!(has_text(&svg, "no data"));
        let one = DailyInput {
            series: vec![DaySeriesInput {
                label: "a".into(),
                days: days(1, -1, |_| 0.0),
                colour_index: 0,
            }],
            ..input(0)
        };
        let svg = render_svg(400, 300, |area, style| draw_daily_rates(area, &one, style))?;
        assert!(!has_text(&svg, "no data"), "a single day of 0 % is data");
        Ok(())
    }

    #[test]
    fn labels_know_the_calendar() {
        assert_eq!(day_label(DAY, false), "10-04");
        assert_eq!(day_label(DAY, true), "2024-10-04");
        assert!(!years_differ((DAY, DAY + 80)));
        assert!(years_differ((DAY, DAY + 100)));
    }
}
