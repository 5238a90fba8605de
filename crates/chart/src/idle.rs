//! Cold share by idle gap, one colour per target: after each idle gap of the
//! plan (x, log seconds) the share of requests that met a cold start (y,
//! 0–100 %) as a point with its 95 % interval as a bar, and the monotone
//! estimate of P(cold | gap) as a step line. Where a line climbs is where
//! the target goes cold; a bar's length says how far one run can be trusted
//! there. The ticks are the plan's own gaps, so every point sits on one.
//!
//! Targets measured at the same gaps would hide each other's bars, so each
//! target's points are set a little apart along the log axis (the step
//! lines stay on the gaps).

use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::axis::{TickAxis, format_plain, linear_ticks, log_range};
use super::layout::{
    AxisPlan, Ink, LegendItem, Mark, Swatch, build_plot, draw_frame, draw_no_data, labels_fit,
    split_legend,
};
use super::palette::{series_colour, series_dashed};
use super::{Area, ChartError, ChartStyle};
use firsttoken_core::base::lang::Lang;
use firsttoken_core::narrative::idle::gap_text;

/// How far apart, in decades of idle, neighbouring targets' points at one
/// gap are set: enough for their bars not to touch at 400 px, little
/// enough that a point still reads as its gap's.
const DODGE_DECADES: f64 = 0.025;

/// One idle gap of one target.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct IdleGapPoint {
    /// The idle before these requests, seconds.
    pub gap_s: f64,
    /// Cold of the gap's requests, 0–1.
    pub share: f64,
    /// Its 95 % interval, 0–1.
    pub interval: (f64, f64),
    /// The monotone estimate of P(cold | gap), 0–1.
    pub monotone_share: f64,
}

/// One target in the idle chart.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IdleSeries {
    /// Legend label, e.g. "Provider A · llama-3.3-70b".
    pub label: String,
    /// Its gaps; gaps a log axis cannot place (non-finite, ≤ 0 s) or with
    /// a share outside 0–1 are left out.
    pub gaps: Vec<IdleGapPoint>,
    /// Which series colour it is drawn in (the target's index in the
    /// report, so it keeps its colour across the screen's charts).
    pub colour_index: usize,
}

/// What the idle chart shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IdleInput {
    /// Chart title ("" for none: the page puts it in the caption).
    pub title: String,
    /// One per target, in legend order.
    pub series: Vec<IdleSeries>,
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn placeable(gap: &IdleGapPoint) -> bool {
    let share = |v: f64| v.is_finite() && (0.0..=1.0).contains(&v);
    gap.gap_s.is_finite()
        && gap.gap_s > 0.0
        && share(gap.share)
        && share(gap.monotone_share)
        && share(gap.interval.0)
        && share(gap.interval.1)
}

/// An idle time as a tick label, in the units the report's text uses in
/// `lang` ("10 s", "5 min", "1.5 h"; "10 秒", "5 分钟").
#[cfg_attr(target_arch = "wasm32", inline)]
fn tick_gap(lang: Lang, seconds: f64) -> String {
    gap_text(lang, seconds)
}

/// The step line of one target's monotone estimate, in (s, %): flat from
/// each gap to the next, rising at the next.
#[cfg_attr(target_arch = "wasm32", inline)]
fn step_points(gaps: &[IdleGapPoint]) -> Vec<(f64, f64)> {
    let mut points = Vec::with_capacity(gaps.len() * 2);
    for (index, gap) in gaps.iter().enumerate() {
        let y = gap.monotone_share * 100.0;
        if index > 0 {
            points.push((gap.gap_s, points.last().map_or(y, |p: &(f64, f64)| p.1)));
        }
        points.push((gap.gap_s, y));
    }
    points
}

/// The x ticks: the gaps themselves, every `k`-th one from the shortest
/// when all of them do not fit.
#[cfg_attr(target_arch = "wasm32", inline)]
fn gap_axis<DB: DrawingBackend>(
    area: &Area<DB>,
    ink: &Ink<'_>,
    (lo, hi): (f64, f64),
    gaps: &[f64],
    length: u32,
) -> TickAxis {
    let font = ink.tick_font();
    for step in 1..=gaps.len().max(1) {
        let major: Vec<f64> = gaps.iter().copied().step_by(step).collect();
        let axis = TickAxis::log(lo, hi, major);
        if labels_fit(area, &font, &axis, length, true, &|s| {
            tick_gap(ink.units, s)
        }) {
            return axis;
        }
    }
    TickAxis::log(lo, hi, gaps.first().copied().into_iter().collect())
}

/// Draws `input` onto `area`: per target a point and a bar per gap and
/// the step line of its monotone estimate, a legend per target.
///
/// # Errors
/// [`ChartError::Backend`] if the backend fails to draw.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn draw_idle<DB: DrawingBackend>(
    area: &Area<DB>,
    input: &IdleInput,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let ink = Ink::new(area, style);
    let labels = &style.labels;
    let body = draw_frame(area, &ink, &input.title, "")?;
    let series: Vec<Vec<IdleGapPoint>> = input
        .series
        .iter()
        .map(|s| {
            let mut gaps: Vec<IdleGapPoint> = s.gaps.iter().copied().filter(placeable).collect();
            gaps.sort_by(|a, b| a.gap_s.total_cmp(&b.gap_s));
            gaps
        })
        .collect();
    let mut all_gaps: Vec<f64> = series.iter().flatten().map(|g| g.gap_s).collect();
    all_gaps.sort_by(f64::total_cmp);
    all_gaps.dedup();
    let (Some(&min), Some(&max)) = (all_gaps.first(), all_gaps.last()) else {
        return draw_no_data(&body, &ink, &labels.no_data);
    };
    // Room on both sides for the set-apart points of every target.
    let drawn = series.iter().filter(|s| !s.is_empty()).count();
    let spread = 10f64.powf(DODGE_DECADES * drawn as f64);
    let (x_lo, x_hi) = log_range(min / spread, max * spread);

    let muted = ink.theme.muted;
    let mut legend: Vec<LegendItem> = input
        .series
        .iter()
        .zip(&series)
        .filter(|(_, gaps)| !gaps.is_empty())
        .map(|(s, _)| LegendItem {
            swatch: Swatch::Marked {
                colour: series_colour(s.colour_index, style.dark),
                dashed: series_dashed(s.colour_index),
                mark: Mark::Dot,
            },
            label: s.label.clone(),
        })
        .collect();
    legend.push(LegendItem {
        swatch: Swatch::Dot(muted),
        label: labels.cold_share.clone(),
    });
    legend.push(LegendItem {
        swatch: Swatch::Line {
            colour: muted,
            dashed: false,
        },
        label: labels.monotone_estimate.clone(),
    });
    let plot_area = split_legend(&body, &ink, &legend)?;

    let x_format = |v: &f64| tick_gap(style.labels.units, *v);
    let percent = |v: f64| format!("{} %", format_plain(v, 0));
    let y_format = |v: &f64| percent(*v);
    let font = ink.tick_font();
    let chart = build_plot(
        &plot_area,
        &ink,
        AxisPlan {
            make: &|length| gap_axis(&plot_area, &ink, (x_lo, x_hi), &all_gaps, length),
            format: &x_format,
            title: &labels.idle_axis,
        },
        AxisPlan {
            make: &|length| {
                for max_ticks in (2..=6).rev() {
                    let axis = TickAxis::linear(0.0, 104.0, linear_ticks(0.0, 100.0, max_ticks));
                    if labels_fit(&plot_area, &font, &axis, length, false, &percent) {
                        return axis;
                    }
                }
                TickAxis::linear(0.0, 104.0, vec![0.0, 100.0])
            },
            format: &y_format,
            title: &labels.cold_share_axis,
        },
    )?;

    let m = &ink.metrics;
    let dot = i32::try_from(m.dot_px + m.px(1.5)).unwrap_or(3);
    let cap = i32::try_from(m.px(4.0)).unwrap_or(4);
    let mut place = 0usize;
    for (own, gaps) in input.series.iter().zip(&series) {
        if gaps.is_empty() {
            continue;
        }
        let colour = series_colour(own.colour_index, style.dark);
        let stroke = colour.stroke_width(m.line_px);
        let steps = step_points(gaps);
        if steps.len() > 1 {
            if series_dashed(own.colour_index) {
                let dash = f64::from(m.px(7.0));
                chart.plotting_area().draw(&DashedPathElement::new(
                    steps,
                    dash,
                    dash * 0.6,
                    stroke,
                ))?;
            } else {
                chart
                    .plotting_area()
                    .draw(&PathElement::new(steps, stroke))?;
            }
        }
        // Centred on the gap: the targets' offsets sum to zero.
        let offset = (place as f64 - (drawn as f64 - 1.0) / 2.0) * DODGE_DECADES;
        place += 1;
        let bar = colour.stroke_width(m.px(1.5).max(1));
        for gap in gaps {
            let x = gap.gap_s * 10f64.powf(offset);
            let (low, high) = (gap.interval.0 * 100.0, gap.interval.1 * 100.0);
            chart
                .plotting_area()
                .draw(&PathElement::new(vec![(x, low), (x, high)], bar))?;
            for end in [low, high] {
                chart.plotting_area().draw(
                    &(EmptyElement::at((x, end))
                        + PathElement::new(vec![(-cap, 0), (cap, 0)], bar)),
                )?;
            }
            chart.plotting_area().draw(&Circle::new(
                (x, gap.share * 100.0),
                dot,
                colour.filled(),
            ))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{has_text, render_svg};

    fn point(gap_s: f64, share: f64, interval: (f64, f64), monotone_share: f64) -> IdleGapPoint {
        IdleGapPoint {
            gap_s,
            share,
            interval,
            monotone_share,
        }
    }

    fn input() -> IdleInput {
        IdleInput {
            title: String::new(),
            series: vec![
                IdleSeries {
                    label: "Provider A".into(),
                    gaps: vec![
                        point(10.0, 0.0, (0.0, 0.17), 0.0),
                        point(60.0, 0.05, (0.001, 0.25), 0.05),
                        point(300.0, 0.95, (0.75, 0.999), 0.95),
                        point(900.0, 1.0, (0.83, 1.0), 1.0),
                    ],
                    colour_index: 0,
                },
                IdleSeries {
                    label: "Provider B".into(),
                    gaps: vec![
                        point(10.0, 0.0, (0.0, 0.17), 0.0),
                        point(60.0, 0.0, (0.0, 0.17), 0.0),
                        point(300.0, 0.0, (0.0, 0.17), 0.0),
                        point(900.0, 0.0, (0.0, 0.17), 0.0),
                    ],
                    colour_index: 3,
                },
            ],
        }
    }

    #[test]
    fn two_targets_draw_points_bars_steps_and_gap_ticks() -> Result<(), ChartError> {
        let input = input();
        let svg = render_svg(800, 360, |area, style| draw_idle(area, &input, style))?;
        for text in [
            "Provider A",
            "Provider B",
            "10 s",
            "1 min",
            "5 min",
            "15 min",
            "0 %",
            "100 %",
            "idle before the request (log scale)",
            "cold share",
        ] {
            assert!(has_text(&svg, text), "{text} missing");
        }
        // A point per target and gap, one legend dot per target and the
        // explaining dot.
        assert_eq!(svg.matches("<circle").count(), 8 + 2 + 1);
        // Each target's points are in its own colour (B's is the fourth).
        let colour = |c: RGBColor| format!("fill=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
        assert!(svg.contains(&colour(series_colour(3, false))));
        assert!(!has_text(&svg, "no data"));
        // Narrow screens still draw every point.
        let narrow = render_svg(400, 320, |area, style| draw_idle(area, &input, style))?;
        assert_eq!(narrow.matches("<circle").count(), 11);
        Ok(())
    }

    #[test]
    fn the_monotone_estimate_is_a_step_line_rising_at_the_gaps() {
        let gaps = input().series[0].gaps.clone();
        let steps = step_points(&gaps);
        assert_eq!(
            steps,
            vec![
                (10.0, 0.0),
                (60.0, 0.0),
                (60.0, 5.0),
                (300.0, 5.0),
                (300.0, 95.0),
                (900.0, 95.0),
                (900.0, 100.0),
            ]
        );
    }

    #[test]
    fn nothing_placeable_says_no_data_and_one_gap_draws() -> Result<(), ChartError> {
        for input in [
            IdleInput::default(),
            IdleInput {
                title: String::new(),
                series: vec![IdleSeries {
                    label: "A".into(),
                    gaps: vec![
                        point(0.0, 0.1, (0.0, 0.3), 0.1),
                        point(f64::NAN, 0.1, (0.0, 0.3), 0.1),
                        point(10.0, 1.5, (0.0, 0.3), 0.1),
                    ],
                    colour_index: 0,
                }],
            },
        ] {
            let svg = render_svg(400, 300, |area, style| draw_idle(area, &input, style))?;
            assert!(has_text(&svg, "no data"));
        }
        let one = IdleInput {
            title: String::new(),
            series: vec![IdleSeries {
                label: "A".into(),
                gaps: vec![point(30.0, 0.2, (0.05, 0.45), 0.2)],
                colour_index: 0,
            }],
        };
        let svg = render_svg(400, 300, |area, style| draw_idle(area, &one, style))?;
        assert!(!has_text(&svg, "no data"));
        assert!(has_text(&svg, "30 s"));
        Ok(())
    }
}
