//! ECDF of every target of one model, overlaid on a log TTFT axis: for each
//! TTFT, the share of requests that got their first token by then. A solid
//! provider rises steeply to 100 %; a cold-start tail shows as a curve that
//! stalls at 90–95 % and only reaches the top seconds later.

use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::axis::{TickAxis, format_plain, linear_ticks, log_range, tick_ms};
use super::layout::{
    AxisPlan, Ink, LegendItem, Swatch, build_plot, draw_frame, draw_no_data, fitted_log_axis,
    split_legend,
};
use super::palette::{series_colour, series_dashed};
use super::{Area, ChartError, ChartStyle, Series, sorted_series};

/// What the ECDF chart shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EcdfInput {
    /// Chart title, e.g. "llama-3.3-70b: TTFT across providers".
    pub title: String,
    /// One curve per target, in legend order.
    pub series: Vec<Series>,
}

/// Draws the overlaid ECDFs of `input` onto `area`.
///
/// # Errors
/// [`ChartError::Backend`] if the backend fails to draw.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn draw_ecdf<DB: DrawingBackend>(
    area: &Area<DB>,
    input: &EcdfInput,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let ink = Ink::new(area, style);
    let labels = &style.labels;
    let (curves, range) = sorted_series(&input.series);
    let body = draw_frame(area, &ink, &input.title, "")?;
    let Some((min, max)) = range else {
        return draw_no_data(&body, &ink, &labels.no_data);
    };

    let legend: Vec<LegendItem> = input
        .series
        .iter()
        .enumerate()
        .map(|(index, series)| LegendItem {
            swatch: Swatch::Line {
                colour: series_colour(series.colour_index, style.dark),
                dashed: series_dashed(series.colour_index),
            },
            label: format!(
                "{} ({} = {})",
                series.label,
                labels.sample_count,
                curves.get(index).map_or(0, Vec::len)
            ),
        })
        .collect();
    let plot_area = split_legend(&body, &ink, &legend)?;

    let (lo, hi) = log_range(min, max);
    let x_format = |v: &f64| tick_ms(style.labels.units, *v);
    let y_format = |v: &f64| format!("{} %", format_plain(*v, 0));
    let chart = build_plot(
        &plot_area,
        &ink,
        AxisPlan {
            make: &|length| fitted_log_axis(&plot_area, &ink, (lo, hi), length, true),
            format: &x_format,
            title: &labels.ttft_axis,
        },
        AxisPlan {
            make: &|length| share_axis(&ink, length),
            format: &y_format,
            title: &labels.share_axis,
        },
    )?;

    let (plot_width, _) = chart.plotting_area().dim_in_pixel();
    let x_spec = chart.plotting_area().as_coord_spec().x_spec().clone();
    for (values, series) in curves.iter().zip(&input.series) {
        let points = step_points(values, lo, hi, &x_spec, plot_width);
        if points.is_empty() {
            continue;
        }
        let colour = series_colour(series.colour_index, style.dark);
        let line = colour.stroke_width(ink.metrics.line_px);
        if series_dashed(series.colour_index) {
            let dash = f64::from(ink.metrics.px(7.0));
            chart
                .plotting_area()
                .draw(&DashedPathElement::new(points, dash, dash * 0.6, line))?;
        } else {
            chart
                .plotting_area()
                .draw(&PathElement::new(points, line))?;
        }
    }
    Ok(())
}

/// 0–100 % in steps that fit `length` pixels (20 % or 25 % or 50 %).
#[cfg_attr(target_arch = "wasm32", inline)]
fn share_axis(ink: &Ink<'_>, length: u32) -> TickAxis {
    let row = ink.metrics.tick_px * 2.2;
    let max_ticks = ((f64::from(length) / row).floor() as usize).clamp(2, 6);
    let ticks = match max_ticks {
        6 => linear_ticks(0.0, 100.0, 6),
        5 => vec![0.0, 25.0, 50.0, 75.0, 100.0],
        3 | 4 => vec![0.0, 50.0, 100.0],
        _ => vec![0.0, 100.0],
    };
    TickAxis::linear(0.0, 100.0, ticks)
}

/// The ECDF of ascending `values` as a step path in data coordinates, from
/// 0 % at the axis' left end to 100 % at its right end. Long series are
/// thinned to two points per pixel column (the first and last step in it),
/// which draws exactly the same picture: a 10 000-sample curve becomes at
/// most a few thousand points.
#[cfg_attr(target_arch = "wasm32", inline)]
fn step_points(
    values: &[f64],
    lo: f64,
    hi: f64,
    x_spec: &TickAxis,
    plot_width: u32,
) -> Vec<(f64, f64)> {
    let n = values.len();
    if n == 0 {
        return Vec::new();
    }
    let share = |rank: usize| 100.0 * rank as f64 / n as f64;
    let column = |v: f64| (x_spec.fraction(v) * f64::from(plot_width)).round() as i64;
    let mut points = Vec::with_capacity((2 * n + 2).min(4 * plot_width as usize + 4));
    points.push((lo, 0.0));
    let mut index = 0;
    while index < n {
        // All values in the same pixel column collapse to one vertical step.
        let value = values[index];
        let col = column(value);
        let mut end = index + 1;
        while end < n && column(values[end]) == col {
            end += 1;
        }
        points.push((value, share(index)));
        points.push((value, share(end)));
        index = end;
    }
    points.push((hi, 100.0));
    points
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{has_text, render_svg, sample_ttft_ms, series};

    #[test]
    fn typical_ecdf_has_legend_axes_and_percent_ticks() -> Result<(), ChartError> {
        let input = EcdfInput {
            title: "llama-3.3-70b".into(),
            series: vec![
                series("Provider A", sample_ttft_ms(100, 1, 0)),
                series("Provider B", sample_ttft_ms(100, 2, 19)),
            ],
        };
        let svg = render_svg(800, 420, |area, style| draw_ecdf(area, &input, style))?;
        assert!(has_text(&svg, "Provider A (n = 100)"));
        assert!(has_text(&svg, "Provider B (n = 100)"));
        assert!(has_text(&svg, "TTFT (log scale)"));
        assert!(has_text(&svg, "requests at or below (%)"));
        assert!(has_text(&svg, "100 %"));
        assert!(has_text(&svg, "0 %"));
        Ok(())
    }

    #[test]
    fn a_curve_takes_its_targets_colour_not_its_place() -> Result<(), ChartError> {
        // Listed by rank, target 3 first: it is drawn in target 3's colour.
        let input = EcdfInput {
            title: "m".into(),
            series: vec![
                Series {
                    colour_index: 3,
                    ..series("D", sample_ttft_ms(50, 1, 0))
                },
                series("A", sample_ttft_ms(50, 2, 0)),
            ],
        };
        let svg = render_svg(800, 420, |area, style| draw_ecdf(area, &input, style))?;
        let hex = |c: RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
        assert!(svg.contains(&hex(series_colour(3, false))));
        assert!(svg.contains(&hex(series_colour(0, false))));
        assert!(!svg.contains(&hex(series_colour(1, false))));
        Ok(())
    }

    #[test]
    fn empty_ecdf_says_no_data() -> Result<(), ChartError> {
        for input in [
            EcdfInput {
                title: "t".into(),
                series: vec![],
            },
            EcdfInput {
                title: "t".into(),
                series: vec![series("A", vec![]), series("B", vec![f64::NAN])],
            },
        ] {
            let svg = render_svg(400, 300, |area, style| draw_ecdf(area, &input, style))?;
            assert!(has_text(&svg, "no data"));
        }
        Ok(())
    }

    #[test]
    fn single_value_and_one_empty_series_draw() -> Result<(), ChartError> {
        let input = EcdfInput {
            title: "t".into(),
            series: vec![series("A", vec![350.0]), series("B", vec![])],
        };
        let svg = render_svg(400, 300, |area, style| draw_ecdf(area, &input, style))?;
        assert!(has_text(&svg, "A (n = 1)"));
        assert!(has_text(&svg, "B (n = 0)"));
        assert!(!has_text(&svg, "no data"));
        Ok(())
    }

    #[test]
    fn step_points_thin_long_series_but_keep_ends() {
        let mut values = sample_ttft_ms(10_000, 4, 20);
        values.push(1.0);
        values.push(120_000.0);
        firsttoken_core::base::order::sort_numbers(&mut values);
        let (lo, hi) = log_range(1.0, 120_000.0);
        let axis = TickAxis::log(lo, hi, vec![]);
        let points = step_points(&values, lo, hi, &axis, 600);
        assert!(points.len() <= 2 * 602 + 2, "{} points", points.len());
        assert_eq!(points.first(), Some(&(lo, 0.0)));
        assert_eq!(points.last(), Some(&(hi, 100.0)));
        // The curve reaches 100 % at the slowest request.
        assert!(points.contains(&(120_000.0, 100.0)));
        assert!(points.windows(2).all(|w| w[0].1 <= w[1].1));
    }

    #[test]
    fn twelve_series_get_a_legend_entry_each() -> Result<(), ChartError> {
        let input = EcdfInput {
            title: "t".into(),
            series: (0..12)
                .map(|i| series(&format!("Target {i}"), sample_ttft_ms(50, i, 10)))
                .collect(),
        };
        let svg = render_svg(400, 500, |area, style| draw_ecdf(area, &input, style))?;
        for i in 0..12 {
            assert!(
                has_text(&svg, &format!("Target {i} (n = 50)")),
                "legend entry {i}"
            );
        }
        Ok(())
    }
}
