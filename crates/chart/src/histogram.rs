//! TTFT histogram of one target on a log axis: warm requests pile up on the
//! left, a cold-start tail shows as a separate hump on the right, and the
//! median and p95 are marked with labelled vertical lines.

use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{
    TickAxis, bin_index, format_plain, linear_ticks, log_bin_edges, log_range, tick_ms,
};
use super::layout::{
    AxisPlan, Ink, build_plot, draw_frame, draw_no_data, fitted_log_axis, labels_fit, text_size,
};
use super::palette::series_colour;
use super::{Area, ChartError, ChartStyle, positive_finite};

/// What the histogram shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HistogramInput {
    /// Chart title, e.g. "TTFT distribution".
    pub title: String,
    /// The target, e.g. "DigitalOcean · llama-3.3-70b"; shown under the title.
    pub series_label: String,
    /// Successful samples' TTFT, ms (non-finite and non-positive ignored).
    pub ttft_ms: Vec<f64>,
    /// Median TTFT as the statistics computed it, ms; `None` draws no line.
    pub median_ms: Option<f64>,
    /// 95th percentile TTFT, ms; `None` draws no line.
    pub p95_ms: Option<f64>,
    /// The target's series colour (its index in the report), as in the
    /// charts that show every target.
    pub colour_index: usize,
}

/// Draws the histogram of `input` onto `area`.
///
/// # Errors
/// [`ChartError::Backend`] if the backend fails to draw.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn draw_histogram<DB: DrawingBackend>(
    area: &Area<DB>,
    input: &HistogramInput,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let ink = Ink::new(area, style);
    let labels = &style.labels;
    let values = positive_finite(&input.ttft_ms);
    let subtitle = join_subtitle(
        &input.series_label,
        &format!("{} = {}", labels.sample_count, values.len()),
    );
    let body = draw_frame(area, &ink, &input.title, &subtitle)?;
    let (Some(min), Some(max)) = (
        values.iter().copied().reduce(f64::min),
        values.iter().copied().reduce(f64::max),
    ) else {
        return draw_no_data(&body, &ink, &labels.no_data);
    };

    let markers: Vec<f64> = [input.median_ms, input.p95_ms]
        .into_iter()
        .flatten()
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    let lo_value = markers.iter().copied().fold(min, f64::min);
    let hi_value = markers.iter().copied().fold(max, f64::max);
    let (lo, hi) = log_range(lo_value, hi_value);

    // 2 √n bins per decade (10 to 40), so a 0.3-decade warm hump still gets
    // several bars, and each bar at least 6 CSS px wide.
    let data_decades = (max / min).log10().max(0.05);
    let per_decade = ((values.len() as f64).sqrt() * 2.0).clamp(10.0, 40.0);
    let bins = (per_decade * data_decades).ceil().max(1.0);
    let data_share = data_decades / (hi / lo).log10();
    let max_bins_by_width = (ink.metrics.css_width * 0.85 * data_share / 6.0).max(1.0);
    let bins = bins.min(max_bins_by_width) as usize;
    let edges = log_bin_edges(min, max, bins);
    let mut counts = vec![0u32; bins];
    for v in &values {
        if let Some(count) = counts.get_mut(bin_index(&edges, *v)) {
            *count += 1;
        }
    }
    let max_count = counts.iter().copied().max().unwrap_or(1).max(1);
    // Head room for the marker labels above the tallest bar.
    let y_hi = (f64::from(max_count) * 1.3)
        .ceil()
        .max(f64::from(max_count) + 1.0);

    let x_format = |v: &f64| tick_ms(style.labels.units, *v);
    let y_format = |v: &f64| format_plain(*v, 0);
    let chart = build_plot(
        &body,
        &ink,
        AxisPlan {
            make: &|length| fitted_log_axis(&body, &ink, (lo, hi), length, true),
            format: &x_format,
            title: &labels.ttft_axis,
        },
        AxisPlan {
            make: &|length| count_axis(&body, &ink, y_hi, length),
            format: &y_format,
            title: &labels.count_axis,
        },
    )?;

    let colour = series_colour(input.colour_index, style.dark);
    let outline = ink.theme.background.stroke_width(1);
    for (index, count) in counts.iter().enumerate() {
        if *count == 0 {
            continue;
        }
        let (Some(left), Some(right)) = (edges.get(index), edges.get(index + 1)) else {
            continue;
        };
        let corners = [(*left, 0.0), (*right, f64::from(*count))];
        chart
            .plotting_area()
            .draw(&Rectangle::new(corners, colour.mix(0.85).filled()))?;
        chart
            .plotting_area()
            .draw(&Rectangle::new(corners, outline))?;
    }

    draw_markers(&chart, &ink, style, input, y_hi)
}

/// "label · n = 100", or just the part that is not empty.
#[cfg_attr(target_arch = "wasm32", inline)]
fn join_subtitle(label: &str, count: &str) -> String {
    if label.trim().is_empty() {
        count.to_string()
    } else {
        format!("{label} · {count}")
    }
}

/// Integer count ticks from 0 to `hi` that fit `length` pixels vertically.
#[cfg_attr(target_arch = "wasm32", inline)]
fn count_axis<DB: DrawingBackend>(
    area: &Area<DB>,
    ink: &Ink<'_>,
    hi: f64,
    length: u32,
) -> TickAxis {
    let font = ink.tick_font();
    for max_ticks in (2..=8).rev() {
        let ticks: Vec<f64> = linear_ticks(0.0, hi, max_ticks)
            .into_iter()
            .filter(|v| v.fract() == 0.0)
            .collect();
        let axis = TickAxis::linear(0.0, hi, ticks);
        if labels_fit(area, &font, &axis, length, false, &|v| format_plain(v, 0)) {
            return axis;
        }
    }
    TickAxis::linear(0.0, hi, vec![0.0])
}

/// The median and p95 lines with their labels at the top of the plot. The
/// median label sits left of its line and the p95 label right of its line,
/// so they only collide when a label has to flip side at the plot's edge;
/// then the p95 label moves down a row.
#[cfg_attr(target_arch = "wasm32", inline)]
fn draw_markers<DB: DrawingBackend>(
    chart: &super::layout::Plot<'_, DB>,
    ink: &Ink<'_>,
    style: &ChartStyle,
    input: &HistogramInput,
    y_hi: f64,
) -> Result<(), ChartError> {
    let plot = chart.plotting_area();
    let strip = plot.strip_coord_spec();
    let (width, _) = strip.dim_in_pixel();
    let x_spec = plot.as_coord_spec().x_spec();
    let gap = f64::from(ink.metrics.px(4.0));
    let row_h = ink.metrics.small_px * 1.3;
    let mut placed: Vec<(f64, f64, f64)> = Vec::new(); // (left, right, row y)

    let entries = [
        (
            input.median_ms,
            &style.labels.median,
            ink.theme.text,
            false,
            true,
        ),
        (
            input.p95_ms,
            &style.labels.p95,
            ink.theme.alert,
            true,
            false,
        ),
    ];
    for (value, name, colour, dashed, prefer_left) in entries {
        let Some(value) = value.filter(|v| v.is_finite() && *v > 0.0) else {
            continue;
        };
        let line_style = colour.stroke_width(ink.metrics.line_px);
        let points = vec![(value, 0.0), (value, y_hi)];
        if dashed {
            let dash = f64::from(ink.metrics.px(6.0));
            chart.plotting_area().draw(&DashedPathElement::new(
                points,
                dash,
                dash * 0.7,
                line_style,
            ))?;
        } else {
            chart
                .plotting_area()
                .draw(&PathElement::new(points, line_style))?;
        }

        let text = format!("{name} {}", tick_ms(style.labels.units, value));
        let font = ink.small_font(colour);
        let text_w = f64::from(text_size(&strip, &text, &font).0);
        let x = x_spec.fraction(value) * f64::from(width);
        let left_span = (x - gap - text_w, x - gap);
        let right_span = (x + gap, x + gap + text_w);
        let fits = |span: (f64, f64)| span.0 >= 0.0 && span.1 <= f64::from(width);
        let (span, anchor) = match (prefer_left, fits(left_span), fits(right_span)) {
            (true, true, _) | (false, true, false) => (left_span, HPos::Right),
            _ => (right_span, HPos::Left),
        };
        let mut row_y = ink.metrics.small_px * 0.4;
        while placed
            .iter()
            .any(|(l, r, y)| (*y - row_y).abs() < 1.0 && span.0 < *r + gap && span.1 + gap > *l)
        {
            row_y += row_h;
        }
        placed.push((span.0, span.1, row_y));
        let anchor_x = if matches!(anchor, HPos::Right) {
            span.1
        } else {
            span.0
        };
        // A background plate keeps the label legible over bars and grid.
        let plate = [
            (span.0.round() as i32 - 2, row_y.round() as i32 - 1),
            (
                span.1.round() as i32 + 2,
                (row_y + ink.metrics.small_px * 1.15).round() as i32,
            ),
        ];
        strip.draw(&Rectangle::new(
            plate,
            ink.theme.background.mix(0.85).filled(),
        ))?;
        strip.draw_text(
            &text,
            &font.pos(Pos::new(anchor, VPos::Top)),
            (anchor_x.round() as i32, row_y.round() as i32),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{has_text, render_svg, sample_ttft_ms};

    fn input(ttft_ms: Vec<f64>, median_ms: Option<f64>, p95_ms: Option<f64>) -> HistogramInput {
        HistogramInput {
            title: "TTFT distribution".into(),
            series_label: "Provider A · llama-3.3-70b".into(),
            ttft_ms,
            median_ms,
            p95_ms,
            colour_index: 0,
        }
    }

    #[test]
    fn typical_histogram_has_axes_markers_and_ticks() -> Result<(), ChartError> {
        let svg = render_svg(800, 400, |area, style| {
            draw_histogram(
                area,
                &input(sample_ttft_ms(200, 1, 19), Some(420.0), Some(6300.0)),
                style,
            )
        })?;
        assert!(svg.contains("TTFT (log scale)"));
        assert!(svg.contains("requests"));
        assert!(svg.contains("median 420 ms"), "median label missing");
        assert!(svg.contains("p95 6.3 s"), "p95 label missing");
        assert!(has_text(&svg, "1 s"), "a 1 s tick is expected");
        assert!(svg.contains("n = 200"));
        assert!(svg.matches("<rect").count() > 10, "bars expected");
        Ok(())
    }

    #[test]
    fn empty_histogram_says_no_data() -> Result<(), ChartError> {
        let svg = render_svg(400, 300, |area, style| {
            draw_histogram(area, &input(vec![], None, None), style)
        })?;
        assert!(svg.contains("no data"));
        assert!(svg.contains("n = 0"));
        Ok(())
    }

    #[test]
    fn single_and_all_equal_values_draw_one_bar() -> Result<(), ChartError> {
        for values in [vec![412.0], vec![412.0; 50]] {
            let svg = render_svg(400, 300, |area, style| {
                draw_histogram(
                    area,
                    &input(values.clone(), Some(412.0), Some(412.0)),
                    style,
                )
            })?;
            assert!(svg.contains("median 412 ms"));
            assert!(svg.contains("p95 412 ms"));
            assert!(!svg.contains("no data"));
        }
        Ok(())
    }

    #[test]
    fn huge_range_and_garbage_values_draw() -> Result<(), ChartError> {
        let mut values = vec![1.0, 120_000.0, f64::NAN, -5.0, 0.0, f64::INFINITY];
        values.extend(sample_ttft_ms(10_000, 3, 25));
        let svg = render_svg(1280, 480, |area, style| {
            draw_histogram(
                area,
                &input(values.clone(), Some(430.0), Some(7000.0)),
                style,
            )
        })?;
        assert!(
            svg.contains("n = 10002"),
            "only the finite positive values count"
        );
        assert!(
            has_text(&svg, "1 ms") && has_text(&svg, "100 s"),
            "ticks at both ends of 1 ms–120 s"
        );
        Ok(())
    }

    #[test]
    fn chinese_labels_are_used() -> Result<(), ChartError> {
        let mut svg = String::new();
        {
            use plotters::prelude::{IntoDrawingArea, SVGBackend};
            let area = SVGBackend::with_string(&mut svg, (600, 360)).into_drawing_area();
            let mut style = ChartStyle::default();
            style.labels.median = "中位数".into();
            style.labels.count_axis = "请求数".into();
            draw_histogram(
                &area,
                &input(sample_ttft_ms(100, 2, 0), Some(420.0), None),
                &style,
            )?;
            area.present()?;
        }
        assert!(svg.contains("中位数 420 ms"));
        assert!(svg.contains("请求数"));
        Ok(())
    }
}
