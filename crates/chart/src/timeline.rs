//! TTFT of every request over wall-clock time, on a log TTFT axis: shows
//! whether slow requests cluster (a provider scaling to zero between bursts,
//! a bad hour) or are spread evenly, with tail requests highlighted and
//! failed requests marked with a red × along the top edge.
//!
//! The run view draws the same chart while the run is live: with fixed
//! [`TimelineAxes`] the frame is drawn once, [`draw_timeline`] returns where
//! its plot lies ([`TimelinePlot`]), and each new sample is added by
//! [`draw_timeline_points`] without redrawing the others, so an update costs
//! the same at 10 000 samples as at 10.

use std::collections::HashSet;

use plotters::prelude::*;

use super::axis::{TickAxis, format_plain, linear_ticks, log_range, tick_ms};
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
    /// Axes fixed in advance for a timeline that grows (the run view); `None`
    /// fits the axes to the points.
    pub axes: Option<TimelineAxes>,
}

/// Axes chosen before the points, so later points can be added to the same
/// frame. The drawn axes cover at least these ranges.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimelineAxes {
    /// The x axis reaches at least this long after `start_ms`, ms.
    pub elapsed_ms: f64,
    /// The TTFT axis covers at least this range, ms (low, high; both > 0).
    pub ttft_ms: (f64, f64),
}

impl TimelineAxes {
    /// Axes for a growing timeline that hold `points` (sent from
    /// `start_ms` on) and the `planned_ms` the run is expected to last, with
    /// room to spare so that new points rarely need a new frame: time
    /// rounded up to a round figure, TTFT from a quarter of the fastest to
    /// four times the slowest (200 ms–2 s before any request succeeded): a
    /// new frame is then needed only for a request four times faster or
    /// slower than any before, a handful of times in a whole run.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn around(points: &[TimelinePoint], start_ms: f64, planned_ms: f64) -> Self {
        let latest = points
            .iter()
            .map(|p| p.at_ms - start_ms)
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max);
        let elapsed = round_up(latest.max(planned_ms).max(60_000.0) * 1.05);
        let (lo, hi) = points
            .iter()
            .filter(|p| !p.error)
            .filter_map(|p| p.ttft_ms)
            .filter(|v| v.is_finite() && *v > 0.0)
            .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            });
        let ttft_ms = if hi > 0.0 {
            (lo / 4.0, hi * 4.0)
        } else {
            (200.0, 2_000.0)
        };
        Self {
            elapsed_ms: elapsed,
            ttft_ms,
        }
    }
}

/// The next figure of 1, 1.5, 2, 3, 5 or 7.5 times a power of ten at or
/// above `value` (> 0).
#[cfg_attr(target_arch = "wasm32", inline)]
fn round_up(value: f64) -> f64 {
    let scale = 10f64.powf(value.log10().floor());
    [1.0, 1.5, 2.0, 3.0, 5.0, 7.5, 10.0]
        .iter()
        .map(|m| m * scale)
        .find(|v| *v >= value)
        .unwrap_or(10.0 * scale)
}

/// Where a drawn timeline put its plot, to add points to it later with
/// [`draw_timeline_points`].
#[derive(Debug, Clone, PartialEq)]
pub struct TimelinePlot {
    start_ms: f64,
    /// Minutes per unit of the x axis (1 or 60).
    unit_min: f64,
    x: TickAxis,
    y: TickAxis,
    /// TTFT (ms) of the strip the error crosses are drawn on.
    error_y: f64,
    /// Top-left pixel of the plot within the whole drawing area.
    origin: (i32, i32),
    /// Size of the plot, pixels.
    size: (u32, u32),
}

impl TimelinePlot {
    /// Whether `point` falls inside the plot: if not, the frame must be
    /// redrawn with wider axes before it can be shown.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn covers(&self, point: &TimelinePoint) -> bool {
        let elapsed = (point.at_ms - self.start_ms) / 60_000.0 / self.unit_min;
        let x_ok = (0.0..=self.x.hi).contains(&elapsed.max(0.0));
        let y_ok = point.error
            || point.ttft_ms.is_none_or(|v| {
                !(v.is_finite() && v > 0.0) || (self.y.lo..=self.y.hi).contains(&v)
            });
        x_ok && y_ok
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn pixel(&self, elapsed: f64, ttft_ms: f64) -> (i32, i32) {
        let (width, height) = self.size;
        let px = (self.x.fraction(elapsed) * f64::from(width)).round() as i32;
        let py = ((1.0 - self.y.fraction(ttft_ms)) * f64::from(height)).round() as i32;
        (px, py)
    }
}

/// A point ready to draw: elapsed time in axis units, TTFT in ms.
struct Placed {
    elapsed: f64,
    ttft_ms: Option<f64>,
    series: usize,
    tail: bool,
    error: bool,
}

/// Draws the timeline of `input` onto `area`; returns where the plot lies,
/// or `None` when there was nothing to draw but "no data".
///
/// # Errors
/// [`ChartError::Backend`] if the backend fails to draw.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn draw_timeline<DB: DrawingBackend>(
    area: &Area<DB>,
    input: &TimelineInput,
    style: &ChartStyle,
) -> Result<Option<TimelinePlot>, ChartError> {
    let ink = Ink::new(area, style);
    let labels = &style.labels;
    let body = draw_frame(area, &ink, &input.title, "")?;

    let elapsed_min: Vec<f64> = input
        .points
        .iter()
        .map(|p| (p.at_ms - input.start_ms) / 60_000.0)
        .collect();
    let fixed_min = input.axes.map_or(0.0, |a| a.elapsed_ms / 60_000.0);
    let longest_min = elapsed_min
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .fold(fixed_min, f64::max);
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
    if placed.is_empty() && input.axes.is_none() {
        draw_no_data(&body, &ink, &labels.no_data)?;
        return Ok(None);
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
    // A growing timeline keeps its legend from the start: a legend that
    // gained an entry would move the plot under the points already drawn.
    if input.axes.is_none() && placed.iter().any(|p| p.tail && !p.error) {
        legend.push(LegendItem {
            swatch: Swatch::Ring {
                fill: ink.theme.muted,
                ring: ink.theme.text,
            },
            label: labels.tail.clone(),
        });
    }
    if input.axes.is_some() || placed.iter().any(|p| p.error) {
        legend.push(LegendItem {
            swatch: Swatch::Cross(ink.theme.alert),
            label: labels.error.clone(),
        });
    }
    let plot_area = split_legend(&body, &ink, &legend)?;

    let ttfts = placed.iter().filter(|p| !p.error).filter_map(|p| p.ttft_ms);
    let fixed_ttft = input.axes.map_or((f64::INFINITY, 0.0), |a| a.ttft_ms);
    let (min, max) = ttfts.fold(fixed_ttft, |(lo, hi), v| (lo.min(v), hi.max(v)));
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
        .fold(fixed_min / unit, f64::max)
        .max(1.0 / unit)
        * 1.02;

    let x_format = |v: &f64| format_plain(*v, 2);
    let y_format = |v: &f64| tick_ms(style.labels.units, *v);
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
    let spec = plot.as_coord_spec();
    let base = plot.get_base_pixel();
    let area_base = area.get_base_pixel();
    let placement = TimelinePlot {
        start_ms: input.start_ms,
        unit_min: unit,
        x: spec.x_spec().clone(),
        y: spec.y_spec().clone(),
        error_y,
        origin: (base.0 - area_base.0, base.1 - area_base.1),
        size: plot.dim_in_pixel(),
    };
    // Points are mapped to pixels once and drawn on the plain pixel area:
    // cheaper than letting plotters map every element again.
    draw_placed(&plot.strip_coord_spec(), &placement, &placed, &ink, style)?;
    Ok(Some(placement))
}

/// Adds `points` to a timeline drawn on `area` (the same area, size and
/// style) whose plot is `plot`, leaving what is drawn as it is. Points
/// outside the plot are clipped; check [`TimelinePlot::covers`] first.
///
/// # Errors
/// [`ChartError::Backend`] if the backend fails to draw.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn draw_timeline_points<DB: DrawingBackend>(
    area: &Area<DB>,
    plot: &TimelinePlot,
    points: &[TimelinePoint],
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let ink = Ink::new(area, style);
    let strip = area.clone().shrink(plot.origin, plot.size);
    let placed: Vec<Placed> = points
        .iter()
        .map(|p| Placed {
            elapsed: ((p.at_ms - plot.start_ms) / 60_000.0).max(0.0) / plot.unit_min,
            ttft_ms: p.ttft_ms.filter(|v| v.is_finite() && *v > 0.0),
            series: p.series,
            tail: p.tail,
            error: p.error,
        })
        .filter(|p| p.elapsed.is_finite() && (p.error || p.ttft_ms.is_some()))
        .collect();
    draw_placed(&strip, plot, &placed, &ink, style)
}

/// Dots for successful requests (ringed when in the tail), crosses for
/// failed ones, on `strip`: the plot's own pixel area.
#[cfg_attr(target_arch = "wasm32", inline)]
fn draw_placed<DB: DrawingBackend>(
    strip: &Area<DB>,
    plot: &TimelinePlot,
    placed: &[Placed],
    ink: &Ink<'_>,
    style: &ChartStyle,
) -> Result<(), ChartError> {
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
            let pixel = plot.pixel(p.elapsed, ttft);
            if first_in_cell(pixel, p.series, 0) {
                let colour = series_colour(p.series, style.dark).mix(0.75);
                strip.draw(&Circle::new(pixel, radius, colour.filled()))?;
            }
        }
    }
    let ring = ink.theme.text.stroke_width(ink.metrics.px(1.2).max(1));
    for p in placed.iter().filter(|p| !p.error && p.tail) {
        if let Some(ttft) = p.ttft_ms {
            let pixel = plot.pixel(p.elapsed, ttft);
            if first_in_cell(pixel, p.series, 1) {
                let colour = series_colour(p.series, style.dark);
                strip.draw(&Circle::new(pixel, radius + 2, colour.filled()))?;
                strip.draw(&Circle::new(pixel, radius + 2, ring))?;
            }
        }
    }
    let cross = ink.theme.alert.stroke_width(ink.metrics.px(1.8).max(1));
    for p in placed.iter().filter(|p| p.error) {
        let pixel = plot.pixel(p.elapsed, plot.error_y);
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
#[cfg_attr(target_arch = "wasm32", inline)]
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
    use crate::test_support::{has_text, render_svg, sample_ttft_ms};

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
            axes: None,
        }
    }

    #[test]
    fn short_run_uses_minutes_and_marks_tail_and_errors() -> Result<(), ChartError> {
        let input = input(200, 5_000.0, 2);
        let svg = render_svg(800, 400, |area, style| {
            draw_timeline(area, &input, style).map(drop)
        })?;
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
        let svg = render_svg(800, 400, |area, style| {
            draw_timeline(area, &input, style).map(drop)
        })?;
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
        let svg = render_svg(400, 300, |area, style| {
            draw_timeline(area, &empty, style).map(drop)
        })?;
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
        let svg = render_svg(400, 300, |area, style| {
            draw_timeline(area, &single, style).map(drop)
        })?;
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
            draw_timeline(area, &errors_only, style).map(drop)
        })?;
        assert!(has_text(&svg, "error"));
        Ok(())
    }

    #[test]
    fn a_growing_timeline_adds_points_to_the_frame_it_drew() -> Result<(), ChartError> {
        let all = input(40, 5_000.0, 2);
        let (first, later) = all.points.split_at(10);
        let live = TimelineInput {
            points: first.to_vec(),
            axes: Some(TimelineAxes {
                elapsed_ms: 40.0 * 5_000.0,
                ttft_ms: (100.0, 12_000.0),
            }),
            ..all.clone()
        };
        // Drawn in one go, and drawn as 10 points then 30 more on the same
        // frame: the same dots in the same places.
        let whole = TimelineInput {
            points: all.points.clone(),
            ..live.clone()
        };
        let at_once = render_svg(800, 400, |area, style| {
            draw_timeline(area, &whole, style).map(drop)
        })?;
        let mut plot = None;
        let grown = render_svg(800, 400, |area, style| {
            let drawn = draw_timeline(area, &live, style)?;
            let drawn = drawn.ok_or(ChartError::Backend("no plot".into()))?;
            assert!(later.iter().all(|p| drawn.covers(p)));
            draw_timeline_points(area, &drawn, later, style)?;
            plot = Some(drawn);
            Ok(())
        })?;
        fn circles(svg: &str) -> Vec<&str> {
            let mut found: Vec<&str> = svg.lines().filter(|l| l.contains("<circle")).collect();
            found.sort_unstable();
            found
        }
        assert_eq!(circles(&grown), circles(&at_once));
        assert!(has_text(&grown, "error"), "errors keep their legend entry");
        // A slower request, or one past the x axis, needs a new frame.
        let plot = plot.ok_or(ChartError::Backend("no plot".into()))?;
        let mut slow = later[0];
        slow.ttft_ms = Some(60_000.0);
        assert!(!plot.covers(&slow));
        let mut late = later[0];
        late.at_ms = START_MS + 3_600_000.0;
        assert!(!plot.covers(&late));

        // With fixed axes and no point yet: an empty frame, not "no data".
        let empty = TimelineInput {
            points: Vec::new(),
            ..live
        };
        let svg = render_svg(400, 300, |area, style| {
            assert!(draw_timeline(area, &empty, style)?.is_some());
            Ok(())
        })?;
        assert!(!has_text(&svg, "no data"));
        Ok(())
    }

    #[test]
    fn growing_axes_hold_the_points_and_the_plan_with_room() {
        let points = input(20, 5_000.0, 2).points;
        let axes = TimelineAxes::around(&points, START_MS, 30.0 * 60_000.0);
        assert_eq!(
            axes.elapsed_ms, 2_000_000.0,
            "31.5 min rounds up to 2 000 s"
        );
        let slowest = points.iter().filter_map(|p| p.ttft_ms).fold(0.0, f64::max);
        assert_eq!(axes.ttft_ms.1, slowest * 4.0);
        let none = TimelineAxes::around(&[], START_MS, 0.0);
        assert_eq!(none.ttft_ms, (200.0, 2_000.0));
        assert_eq!(none.elapsed_ms, 75_000.0);
        assert_eq!(round_up(1.0), 1.0);
        assert_eq!(round_up(1.01), 1.5);
        assert_eq!(round_up(8_000.0), 10_000.0);
    }

    #[test]
    fn ten_thousand_points_draw_and_dense_ones_are_thinned() -> Result<(), ChartError> {
        let spread_out = input(10_000, 1_000.0, 12);
        let svg = render_svg(1280, 480, |area, style| {
            draw_timeline(area, &spread_out, style).map(drop)
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
        let svg = render_svg(800, 400, |area, style| {
            draw_timeline(area, &dense, style).map(drop)
        })?;
        let circles = svg.matches("<circle").count();
        assert!(circles < 1_000, "{circles} circles: thinning expected");
        assert!(
            circles > 100,
            "{circles} circles: the run should still be visible end to end"
        );
        Ok(())
    }
}
