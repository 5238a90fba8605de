//! TTFT of every request over wall-clock time, on a log TTFT axis: shows
//! whether slow requests cluster (a provider scaling to zero between bursts,
//! a bad hour) or are spread evenly, with tail requests highlighted and
//! failed requests marked with a red × along the top edge.

use std::collections::HashSet;

use plotters::prelude::*;

use super::axis::{TickAxis, format_ms, format_plain, linear_ticks, log_range};
use super::layout::{
    AxisPlan, Ink, LegendItem, Swatch, build_plot, draw_frame, draw_no_data, fitted_log_axis,
    labels_fit, split_legend,
};
use super::palette::series_colour;
use super::{Area, ChartError, ChartStyle};

/// Runs longer than this many minutes get an hours axis.
const HOURS_AXIS_AFTER_MIN: f64 = 120.0;

/// One request on the timeline.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TimelinePoint {
    /// When the request was sent, ms since the Unix epoch.
    pub at_ms: f64,
    /// Index into [`TimelineInput::series_labels`].
    pub series: usize,
    /// Time to first token, ms; `None` when the request failed before it.
    pub ttft_ms: Option<f64>,
    /// The request is in the slow (cold-start) tail.
    pub tail: bool,
    /// The request failed.
    pub error: bool,
}

/// What the timeline shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TimelineInput {
    /// Chart title.
    pub title: String,
    /// Start of the run, ms since the Unix epoch: x = 0.
    pub start_ms: f64,
    /// Every request, in any order.
    pub points: Vec<TimelinePoint>,
    /// Legend label of each series (target).
    pub series_labels: Vec<String>,
}

/// A point ready to draw: elapsed time in axis units, TTFT in ms.
struct Placed {
    elapsed: f64,
    ttft_ms: Option<f64>,
    series: usize,
    tail: bool,
    error: bool,
}

/// Draws the timeline of `input` onto `area`.
///
/// # Errors
/// [`ChartError::Backend`] if the backend fails to draw.
pub fn draw_timeline<DB: DrawingBackend>(
    area: &Area<DB>,
    input: &TimelineInput,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let ink = Ink::new(area, style);
    let labels = &style.labels;
    let body = draw_frame(area, &ink, &input.title, "")?;

    let elapsed_min: Vec<f64> = input
        .points
        .iter()
        .map(|p| (p.at_ms - input.start_ms) / 60_000.0)
        .collect();
    let longest_min = elapsed_min
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let in_hours = longest_min > HOURS_AXIS_AFTER_MIN;
    let unit = if in_hours { 60.0 } else { 1.0 };
    let placed: Vec<Placed> = input
        .points
        .iter()
        .zip(&elapsed_min)
        .filter(|(_, minutes)| minutes.is_finite())
        .map(|(p, minutes)| Placed {
            elapsed: minutes.max(0.0) / unit,
            ttft_ms: p.ttft_ms.filter(|v| v.is_finite() && *v > 0.0),
            series: p.series,
            tail: p.tail,
            error: p.error,
        })
        .filter(|p| p.error || p.ttft_ms.is_some())
        .collect();
    if placed.is_empty() {
        return draw_no_data(&body, &ink, &labels.no_data);
    }

    let mut legend: Vec<LegendItem> = input
        .series_labels
        .iter()
        .enumerate()
        .map(|(index, label)| LegendItem {
            swatch: Swatch::Dot(series_colour(index, style.dark)),
            label: label.clone(),
        })
        .collect();
    if placed.iter().any(|p| p.tail && !p.error) {
        legend.push(LegendItem {
            swatch: Swatch::Ring {
                fill: ink.theme.muted,
                ring: ink.theme.text,
            },
            label: labels.tail.clone(),
        });
    }
    if placed.iter().any(|p| p.error) {
        legend.push(LegendItem {
            swatch: Swatch::Cross(ink.theme.alert),
            label: labels.error.clone(),
        });
    }
    let plot_area = split_legend(&body, &ink, &legend)?;

    let ttfts = placed.iter().filter(|p| !p.error).filter_map(|p| p.ttft_ms);
    let (min, max) = ttfts.fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let (lo, hi) = if max > 0.0 {
        log_range(min, max)
    } else {
        log_range(f64::NAN, f64::NAN)
    };
    // A strip above the data for the error crosses.
    let ratio = hi / lo;
    let error_y = hi * ratio.powf(0.05);
    let y_hi = hi * ratio.powf(0.1);
    let x_hi = placed
        .iter()
        .map(|p| p.elapsed)
        .fold(0.0, f64::max)
        .max(1.0 / unit)
        * 1.02;

    let x_format = |v: &f64| format_plain(*v, 2);
    let y_format = |v: &f64| format_ms(*v);
    let x_title = if in_hours {
        &labels.elapsed_hours_axis
    } else {
        &labels.elapsed_minutes_axis
    };
    let chart = build_plot(
        &plot_area,
        &ink,
        AxisPlan {
            make: &|length| elapsed_axis(&plot_area, &ink, x_hi, length),
            format: &x_format,
            title: x_title,
        },
        AxisPlan {
            make: &|length| {
                let mut axis = fitted_log_axis(&plot_area, &ink, (lo, hi), length, false);
                axis.hi = y_hi;
                axis
            },
            format: &y_format,
            title: &labels.ttft_axis,
        },
    )?;

    let plot = chart.plotting_area();
    let (width, height) = plot.dim_in_pixel();
    let spec = plot.as_coord_spec();
    let (x_spec, y_spec) = (spec.x_spec().clone(), spec.y_spec().clone());
    // Points are mapped to pixels once and drawn on the plain pixel area:
    // cheaper than letting plotters map every element again.
    let strip = plot.strip_coord_spec();
    let to_pixel = |x: f64, y: f64| {
        let px = (x_spec.fraction(x) * f64::from(width)).round() as i32;
        let py = ((1.0 - y_spec.fraction(y)) * f64::from(height)).round() as i32;
        (px, py)
    };
    // Points that would land on the same 2 × 2 pixel cell as an earlier one
    // of the same kind add nothing: skip them, so dense runs stay cheap.
    let mut seen: HashSet<u64> = HashSet::new();
    let mut first_in_cell = |(px, py): (i32, i32), series: usize, kind: u64| {
        let cell = |v: i32| u64::from((v / 2).clamp(0, 0xF_FFFF).unsigned_abs());
        let series = u64::try_from(series).unwrap_or(u64::MAX) & 0xF_FFFF;
        seen.insert(cell(px) | (cell(py) << 20) | (series << 40) | (kind << 62))
    };

    let radius = ink.metrics.dot_px;
    for p in placed.iter().filter(|p| !p.error && !p.tail) {
        if let Some(ttft) = p.ttft_ms {
            let pixel = to_pixel(p.elapsed, ttft);
            if first_in_cell(pixel, p.series, 0) {
                let colour = series_colour(p.series, style.dark).mix(0.75);
                strip.draw(&Circle::new(pixel, radius, colour.filled()))?;
            }
        }
    }
    let ring = ink.theme.text.stroke_width(ink.metrics.px(1.2).max(1));
    for p in placed.iter().filter(|p| !p.error && p.tail) {
        if let Some(ttft) = p.ttft_ms {
            let pixel = to_pixel(p.elapsed, ttft);
            if first_in_cell(pixel, p.series, 1) {
                let colour = series_colour(p.series, style.dark);
                strip.draw(&Circle::new(pixel, radius + 2, colour.filled()))?;
                strip.draw(&Circle::new(pixel, radius + 2, ring))?;
            }
        }
    }
    let cross = ink.theme.alert.stroke_width(ink.metrics.px(1.8).max(1));
    for p in placed.iter().filter(|p| p.error) {
        let pixel = to_pixel(p.elapsed, error_y);
        if first_in_cell(pixel, 0, 2) {
            strip.draw(&Cross::new(
                pixel,
                i32::try_from(radius + 2).unwrap_or(4),
                cross,
            ))?;
        }
    }
    Ok(())
}

/// Elapsed-time ticks from 0 to `hi` whose labels fit `length` pixels.
fn elapsed_axis<DB: DrawingBackend>(
    area: &Area<DB>,
    ink: &Ink<'_>,
    hi: f64,
    length: u32,
) -> TickAxis {
    let font = ink.tick_font();
    for max_ticks in (2..=12).rev() {
        let axis = TickAxis::linear(0.0, hi, linear_ticks(0.0, hi, max_ticks));
        if labels_fit(area, &font, &axis, length, true, &|v| format_plain(v, 2)) {
            return axis;
        }
    }
    TickAxis::linear(0.0, hi, vec![0.0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::test_support::{has_text, render_svg, sample_ttft_ms};

    const START_MS: f64 = 1_750_000_000_000.0;

    fn input(count: usize, spacing_ms: f64, targets: usize) -> TimelineInput {
        let ttfts = sample_ttft_ms(count, 9, 17);
        let points = ttfts
            .iter()
            .enumerate()
            .map(|(i, ttft)| {
                let error = i % 41 == 40;
                TimelinePoint {
                    at_ms: START_MS + i as f64 * spacing_ms,
                    series: i % targets,
                    ttft_ms: if error { None } else { Some(*ttft) },
                    tail: *ttft > 3000.0,
                    error,
                }
            })
            .collect();
        TimelineInput {
            title: "TTFT over time".into(),
            start_ms: START_MS,
            points,
            series_labels: (0..targets).map(|i| format!("Target {i}")).collect(),
        }
    }

    #[test]
    fn short_run_uses_minutes_and_marks_tail_and_errors() -> Result<(), ChartError> {
        let input = input(200, 5_000.0, 2);
        let svg = render_svg(800, 400, |area, style| draw_timeline(area, &input, style))?;
        assert!(has_text(&svg, "time since start (min)"));
        assert!(has_text(&svg, "TTFT (log scale)"));
        assert!(has_text(&svg, "Target 0"));
        assert!(has_text(&svg, "Target 1"));
        assert!(has_text(&svg, "slow tail"));
        assert!(has_text(&svg, "error"));
        // Error crosses are drawn in vermillion.
        assert!(svg.contains("#D55E00"));
        Ok(())
    }

    #[test]
    fn long_run_uses_hours() -> Result<(), ChartError> {
        let input = input(300, 60_000.0, 3);
        let svg = render_svg(800, 400, |area, style| draw_timeline(area, &input, style))?;
        assert!(has_text(&svg, "time since start (h)"));
        assert!(has_text(&svg, "4"), "a 4 h tick is expected on a 5 h run");
        Ok(())
    }

    #[test]
    fn empty_and_single_and_errors_only() -> Result<(), ChartError> {
        let empty = TimelineInput {
            title: "t".into(),
            start_ms: START_MS,
            ..TimelineInput::default()
        };
        let svg = render_svg(400, 300, |area, style| draw_timeline(area, &empty, style))?;
        assert!(has_text(&svg, "no data"));

        let single = TimelineInput {
            points: vec![TimelinePoint {
                at_ms: START_MS,
                series: 0,
                ttft_ms: Some(420.0),
                tail: false,
                error: false,
            }],
            series_labels: vec!["A".into()],
            ..empty.clone()
        };
        let svg = render_svg(400, 300, |area, style| draw_timeline(area, &single, style))?;
        assert!(!has_text(&svg, "no data"));
        assert!(svg.contains("<circle"));

        let errors_only = TimelineInput {
            points: vec![TimelinePoint {
                at_ms: START_MS + 1000.0,
                series: 0,
                ttft_ms: None,
                tail: false,
                error: true,
            }],
            series_labels: vec!["A".into()],
            ..empty
        };
        let svg = render_svg(400, 300, |area, style| {
            draw_timeline(area, &errors_only, style)
        })?;
        assert!(has_text(&svg, "error"));
        Ok(())
    }

    #[test]
    fn ten_thousand_points_draw_and_dense_ones_are_thinned() -> Result<(), ChartError> {
        let spread_out = input(10_000, 1_000.0, 12);
        let svg = render_svg(1280, 480, |area, style| {
            draw_timeline(area, &spread_out, style)
        })?;
        assert!(svg.matches("<circle").count() > 1_000);

        // 10 000 equal requests one second apart share few pixel cells.
        let dense = TimelineInput {
            points: (0..10_000)
                .map(|i| TimelinePoint {
                    at_ms: START_MS + f64::from(i) * 1000.0,
                    series: 0,
                    ttft_ms: Some(400.0),
                    tail: false,
                    error: false,
                })
                .collect(),
            ..spread_out
        };
        let svg = render_svg(800, 400, |area, style| draw_timeline(area, &dense, style))?;
        let circles = svg.matches("<circle").count();
        assert!(circles < 1_000, "{circles} circles: thinning expected");
        assert!(
            circles > 100,
            "{circles} circles: the run should still be visible end to end"
        );
        Ok(())
    }
}
