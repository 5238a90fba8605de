//! TTFT against input tokens, both on log axes, one colour per target: each
//! target's points (the warm median of each prompt size) and its fitted
//! line, fixed part + tokens ÷ prefill rate. On log axes the line is flat
//! while the fixed part dominates and bends up to a slope of one once
//! prefill does, so where a provider's prompt starts to cost shows at a
//! glance, and a steeper provider is a slower prefill.

use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::axis::{log_range, tick_ms};
use super::layout::{
    AxisPlan, Ink, LegendItem, Swatch, build_plot, draw_frame, draw_no_data, fitted_log_axis,
    fitted_log_axis_with, split_legend,
};
use super::palette::{series_colour, series_dashed};
use super::{Area, ChartError, ChartStyle};
use firsttoken_core::words::format::grouped;

/// Points drawn along each fitted line, spaced evenly in log tokens: enough
/// for the bend to look smooth at any width.
const LINE_POINTS: usize = 64;

/// One target in the prefill chart.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PrefillSeries {
    /// Legend label, e.g. "Provider A · llama-3.3-70b".
    pub label: String,
    /// (input tokens, TTFT ms) per point; points a log axis cannot place
    /// (non-finite, ≤ 0) are left out.
    pub points: Vec<(f64, f64)>,
    /// The fit, (fixed part ms, prefill rate tokens/s), when there is one.
    pub fit: Option<(f64, f64)>,
}

/// What the prefill chart shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PrefillInput {
    /// Chart title ("" for none: the page puts it in the caption).
    pub title: String,
    /// One per target, in legend order.
    pub series: Vec<PrefillSeries>,
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn placeable(point: &(f64, f64)) -> bool {
    point.0.is_finite() && point.0 > 0.0 && point.1.is_finite() && point.1 > 0.0
}

/// A fit that draws: a finite fixed part ≥ 0 and a finite rate > 0.
#[cfg_attr(target_arch = "wasm32", inline)]
fn usable_fit(fit: Option<(f64, f64)>) -> Option<(f64, f64)> {
    fit.filter(|(fixed, rate)| {
        fixed.is_finite() && *fixed >= 0.0 && rate.is_finite() && *rate > 0.0
    })
}

/// The fitted line of `fit` from `lo` to `hi` tokens, as (tokens, ms).
#[cfg_attr(target_arch = "wasm32", inline)]
fn line_points((fixed_ms, rate): (f64, f64), lo: f64, hi: f64) -> Vec<(f64, f64)> {
    let (a, b) = (lo.log10(), hi.log10());
    (0..LINE_POINTS)
        .map(|i| {
            let tokens = 10f64.powf(a + (b - a) * i as f64 / (LINE_POINTS - 1) as f64);
            (tokens, fixed_ms + tokens * 1_000.0 / rate)
        })
        .filter(placeable)
        .collect()
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn span(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values.fold(None, |range, v| match range {
        None => Some((v, v)),
        Some((lo, hi)) => Some((f64::min(lo, v), f64::max(hi, v))),
    })
}

/// Draws `input` onto `area`: points, fitted lines, a legend per target.
///
/// # Errors
/// [`ChartError::Backend`] if the backend fails to draw.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn draw_prefill<DB: DrawingBackend>(
    area: &Area<DB>,
    input: &PrefillInput,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let ink = Ink::new(area, style);
    let labels = &style.labels;
    let body = draw_frame(area, &ink, &input.title, "")?;
    let points: Vec<Vec<(f64, f64)>> = input
        .series
        .iter()
        .map(|s| s.points.iter().copied().filter(placeable).collect())
        .collect();
    let Some((x_min, x_max)) = span(points.iter().flatten().map(|p| p.0)) else {
        return draw_no_data(&body, &ink, &labels.no_data);
    };
    let (x_lo, x_hi) = log_range(x_min, x_max);
    let lines: Vec<Vec<(f64, f64)>> = input
        .series
        .iter()
        .map(|s| usable_fit(s.fit).map_or_else(Vec::new, |fit| line_points(fit, x_min, x_max)))
        .collect();
    let y_values = points.iter().chain(&lines).flatten().map(|p| p.1);
    let (y_min, y_max) = span(y_values).unwrap_or((100.0, 1_000.0));
    let (y_lo, y_hi) = log_range(y_min, y_max);

    let legend: Vec<LegendItem> = input
        .series
        .iter()
        .enumerate()
        .map(|(index, series)| LegendItem {
            // A line only where one is drawn: a fit whose fixed part comes
            // out below zero draws none, and its legend says points.
            swatch: if usable_fit(series.fit).is_some() {
                Swatch::Line {
                    colour: series_colour(index, style.dark),
                    dashed: series_dashed(index),
                }
            } else {
                Swatch::Dot(series_colour(index, style.dark))
            },
            label: series.label.clone(),
        })
        .collect();
    let plot_area = split_legend(&body, &ink, &legend)?;

    let x_format = |v: &f64| grouped(v.round().max(0.0) as u64);
    let x_tick = |v: f64| grouped(v.round().max(0.0) as u64);
    let y_format = |v: &f64| tick_ms(style.labels.units, *v);
    let chart = build_plot(
        &plot_area,
        &ink,
        AxisPlan {
            make: &|length| {
                fitted_log_axis_with(&plot_area, &ink, (x_lo, x_hi), length, true, &x_tick)
            },
            format: &x_format,
            title: &labels.input_tokens_axis,
        },
        AxisPlan {
            make: &|length| fitted_log_axis(&plot_area, &ink, (y_lo, y_hi), length, false),
            format: &y_format,
            title: &labels.ttft_axis,
        },
    )?;

    let dot = i32::try_from(ink.metrics.dot_px + ink.metrics.px(1.5)).unwrap_or(3);
    for (index, (own_points, line)) in points.iter().zip(&lines).enumerate() {
        let colour = series_colour(index, style.dark);
        let stroke = colour.stroke_width(ink.metrics.line_px);
        if line.len() > 1 {
            if series_dashed(index) {
                let dash = f64::from(ink.metrics.px(7.0));
                chart.plotting_area().draw(&DashedPathElement::new(
                    line.clone(),
                    dash,
                    dash * 0.6,
                    stroke,
                ))?;
            } else {
                chart
                    .plotting_area()
                    .draw(&PathElement::new(line.clone(), stroke))?;
            }
        }
        for &point in own_points {
            chart
                .plotting_area()
                .draw(&Circle::new(point, dot, colour.filled()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{has_text, render_svg};

    fn target(label: &str, fixed_ms: f64, rate: f64) -> PrefillSeries {
        let sizes = [128.0, 512.0, 2_048.0, 8_192.0, 32_768.0];
        PrefillSeries {
            label: label.into(),
            points: sizes
                .iter()
                .map(|&tokens| (tokens, fixed_ms + tokens * 1_000.0 / rate))
                .collect(),
            fit: Some((fixed_ms, rate)),
        }
    }

    #[test]
    fn two_targets_draw_points_lines_legend_and_token_ticks() -> Result<(), ChartError> {
        let input = PrefillInput {
            title: "prefill".into(),
            series: vec![
                target("Provider A", 150.0, 20_000.0),
                target("Provider B", 150.0, 6_000.0),
            ],
        };
        let svg = render_svg(800, 420, |area, style| draw_prefill(area, &input, style))?;
        assert!(has_text(&svg, "Provider A"));
        assert!(has_text(&svg, "Provider B"));
        assert!(has_text(&svg, "input tokens (log scale)"));
        assert!(has_text(&svg, "TTFT (log scale)"));
        assert!(has_text(&svg, "1 000"), "token ticks set thousands apart");
        assert!(has_text(&svg, "1 s"), "TTFT ticks carry their unit");
        // Five points per target, and both fitted lines.
        assert_eq!(svg.matches("<circle").count(), 10);
        assert!(svg.contains("<polyline"));
        assert!(!has_text(&svg, "no data"));
        Ok(())
    }

    #[test]
    fn fitted_line_is_fixed_plus_tokens_over_rate() {
        let line = line_points((150.0, 20_000.0), 128.0, 32_768.0);
        assert_eq!(line.len(), LINE_POINTS);
        let (first, last) = (line[0], line[LINE_POINTS - 1]);
        assert!((first.0 - 128.0).abs() < 1e-6);
        assert!((first.1 - 156.4).abs() < 1e-9);
        assert!((last.0 - 32_768.0).abs() < 1e-6);
        assert!((last.1 - (150.0 + 1_638.4)).abs() < 1e-6);
        assert!(line.windows(2).all(|w| w[0].1 < w[1].1));
    }

    #[test]
    fn no_points_says_no_data_and_a_missing_fit_still_draws_points() -> Result<(), ChartError> {
        for input in [
            PrefillInput::default(),
            PrefillInput {
                title: String::new(),
                series: vec![PrefillSeries {
                    label: "A".into(),
                    points: vec![(f64::NAN, 300.0), (0.0, 200.0), (512.0, -1.0)],
                    fit: Some((150.0, 6_000.0)),
                }],
            },
        ] {
            let svg = render_svg(400, 300, |area, style| draw_prefill(area, &input, style))?;
            assert!(has_text(&svg, "no data"));
        }
        let input = PrefillInput {
            title: String::new(),
            series: vec![PrefillSeries {
                label: "A".into(),
                points: vec![(512.0, 300.0)],
                fit: Some((f64::NAN, 0.0)),
            }],
        };
        let svg = render_svg(400, 300, |area, style| draw_prefill(area, &input, style))?;
        // The point, and the legend's dot: no line is drawn, so the
        // legend shows none either.
        assert_eq!(svg.matches("<circle").count(), 2);
        let two_points = |fit| PrefillInput {
            title: String::new(),
            series: vec![PrefillSeries {
                label: "A".into(),
                points: vec![(512.0, 300.0), (4_096.0, 800.0)],
                fit,
            }],
        };
        let (unfitted, fitted) = (
            two_points(Some((f64::NAN, 0.0))),
            two_points(Some((150.0, 6_000.0))),
        );
        let svg = render_svg(400, 300, |area, style| draw_prefill(area, &unfitted, style))?;
        let with_line = render_svg(400, 300, |area, style| draw_prefill(area, &fitted, style))?;
        assert!(
            with_line.matches("<polyline").count() > svg.matches("<polyline").count(),
            "an unusable fit draws no line"
        );
        assert_eq!(
            svg.matches("<circle").count(),
            with_line.matches("<circle").count() + 1,
            "and its legend swatch is a dot, not a line"
        );
        Ok(())
    }
}
