//! Median and p95 TTFT per local hour of the day, with the user's peak
//! hours shaded: shows whether a provider slows down (or cold-starts more)
//! when everyone else is using it. Meaningful when a run spans hours.

use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{TickAxis, log_range, tick_ms};
use super::layout::{
    AxisPlan, Ink, LegendItem, Mark, Swatch, build_plot, diamond, draw_frame, draw_no_data,
    fitted_log_axis, labels_fit, split_legend, text_size,
};
use super::palette::series_colour;
use super::{Area, ChartError, ChartStyle};

/// Statistics of the requests sent during one local hour.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct HourBucket {
    /// Local hour, 0–23 (larger values are ignored).
    pub hour: u8,
    /// Successful requests in this hour.
    pub n: usize,
    /// Median TTFT, ms.
    pub median_ms: Option<f64>,
    /// 95th percentile TTFT, ms.
    pub p95_ms: Option<f64>,
}

/// What the hour-of-day chart shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HourlyInput {
    /// Chart title.
    pub title: String,
    /// Buckets in any order; missing hours are gaps.
    pub hours: Vec<HourBucket>,
    /// Peak hours `[start, end)`, local; `start > end` wraps past midnight
    /// (`[22, 2]` is 22:00–02:00) and `start == end` shades nothing.
    pub peak: [u8; 2],
    /// The target's series colour (its index in the report) for the
    /// median line, as in the charts that show every target.
    pub colour_index: usize,
}

/// Draws the hour-of-day chart of `input` onto `area`.
///
/// # Errors
/// [`ChartError::Backend`] if the backend fails to draw.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn draw_hourly<DB: DrawingBackend>(
    area: &Area<DB>,
    input: &HourlyInput,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let ink = Ink::new(area, style);
    let labels = &style.labels;
    let body = draw_frame(area, &ink, &input.title, "")?;
    let usable = |v: Option<f64>| v.filter(|v| v.is_finite() && *v > 0.0);
    // By hour, the first bucket of an hour kept (a slot per hour, not a
    // sort: one copy of the sort fewer in the page).
    let mut by_hour = [None; 24];
    for b in input
        .hours
        .iter()
        .filter(|b| b.hour < 24 && (usable(b.median_ms).is_some() || usable(b.p95_ms).is_some()))
    {
        by_hour[usize::from(b.hour)].get_or_insert(HourBucket {
            median_ms: usable(b.median_ms),
            p95_ms: usable(b.p95_ms),
            ..*b
        });
    }
    let hours: Vec<HourBucket> = by_hour.into_iter().flatten().collect();
    let values = hours.iter().flat_map(|b| [b.median_ms, b.p95_ms]).flatten();
    let (min, max) = values.fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if hours.is_empty() || max <= 0.0 {
        return draw_no_data(&body, &ink, &labels.no_data);
    }

    let theme = &ink.theme;
    let median_colour = series_colour(input.colour_index, style.dark);
    // Each hour is drawn as a marker on its line (a dot for the median, a
    // diamond for the p95): the legend shows both, so one hour of data,
    // markers and no line, still matches it.
    let mut legend = vec![
        LegendItem {
            swatch: Swatch::Marked {
                colour: median_colour,
                dashed: false,
                mark: Mark::Dot,
            },
            label: labels.median.clone(),
        },
        LegendItem {
            swatch: Swatch::Marked {
                colour: theme.alert,
                dashed: true,
                mark: Mark::Diamond,
            },
            label: labels.p95.clone(),
        },
    ];
    // No peak window (start == end) shades nothing, so it has no legend entry.
    if !peak_spans(input.peak).is_empty() {
        legend.push(LegendItem {
            swatch: Swatch::Block(theme.band),
            label: labels.peak_hours.clone(),
        });
    }
    let plot_area = split_legend(&body, &ink, &legend)?;

    let (lo, hi) = log_range(min, max);
    // Room under the data for the per-hour sample counts.
    let y_lo = lo / (hi / lo).powf(0.12);
    let x_format = |v: &f64| format!("{:02}", (*v).round() as i64);
    let y_format = |v: &f64| tick_ms(style.labels.units, *v);
    let chart = build_plot(
        &plot_area,
        &ink,
        AxisPlan {
            make: &|length| hour_axis(&plot_area, &ink, length),
            format: &x_format,
            title: &labels.hour_axis,
        },
        AxisPlan {
            make: &|length| {
                let mut axis = fitted_log_axis(&plot_area, &ink, (lo, hi), length, false);
                axis.lo = y_lo;
                axis
            },
            format: &y_format,
            title: &labels.ttft_axis,
        },
    )?;
    let plot = chart.plotting_area();

    for (start, end) in peak_spans(input.peak) {
        let band = [(f64::from(start), y_lo), (f64::from(end), hi)];
        plot.draw(&Rectangle::new(band, theme.band.mix(0.75).filled()))?;
    }

    let m = &ink.metrics;
    let median_line = median_colour.stroke_width(m.line_px);
    let p95_line = theme.alert.stroke_width(m.line_px);
    let dash = f64::from(m.px(6.0));
    for run in consecutive_runs(&hours, |b| b.median_ms) {
        plot.draw(&PathElement::new(run, median_line))?;
    }
    for run in consecutive_runs(&hours, |b| b.p95_ms) {
        plot.draw(&DashedPathElement::new(run, dash, dash * 0.6, p95_line))?;
    }
    let (base_x, base_y) = plot.get_base_pixel();
    let strip = plot.strip_coord_spec();
    let diamond_r = i32::try_from(m.dot_px + 2).unwrap_or(4);
    for bucket in &hours {
        let x = f64::from(bucket.hour) + 0.5;
        if let Some(median) = bucket.median_ms {
            plot.draw(&Circle::new(
                (x, median),
                m.dot_px + 1,
                median_colour.filled(),
            ))?;
        }
        if let Some(p95) = bucket.p95_ms {
            let (px, py) = chart.backend_coord(&(x, p95));
            strip.draw(&diamond((px - base_x, py - base_y), diamond_r, theme.alert))?;
        }
    }

    // Sample counts along the bottom, when an hour is wide enough for them.
    let (plot_width, _) = plot.dim_in_pixel();
    let count_font = ink.small_font(theme.muted);
    let widest = hours
        .iter()
        .map(|b| text_size(&strip, &b.n.to_string(), &count_font).0)
        .max()
        .unwrap_or(0);
    if f64::from(widest) * 1.3 < f64::from(plot_width) / 24.0 {
        let font = count_font.pos(Pos::new(HPos::Center, VPos::Bottom));
        for bucket in &hours {
            let (px, py) = chart.backend_coord(&(f64::from(bucket.hour) + 0.5, y_lo));
            strip.draw_text(
                &bucket.n.to_string(),
                &font,
                (
                    px - base_x,
                    py - base_y - i32::try_from(m.px(3.0)).unwrap_or(3),
                ),
            )?;
        }
    }
    Ok(())
}

/// Shaded hour spans for peak `[start, end)`, split at midnight.
#[cfg_attr(target_arch = "wasm32", inline)]
fn peak_spans([start, end]: [u8; 2]) -> Vec<(u8, u8)> {
    let (start, end) = (start.min(24), end.min(24));
    match start.cmp(&end) {
        std::cmp::Ordering::Less => vec![(start, end)],
        std::cmp::Ordering::Equal => Vec::new(),
        std::cmp::Ordering::Greater => [(start, 24), (0, end)]
            .into_iter()
            .filter(|(a, b)| a < b)
            .collect(),
    }
}

/// Polylines through the values of consecutive hours (a missing hour or a
/// missing value breaks the line); single points are left to the markers.
#[cfg_attr(target_arch = "wasm32", inline)]
fn consecutive_runs(
    hours: &[HourBucket],
    value: fn(&HourBucket) -> Option<f64>,
) -> Vec<Vec<(f64, f64)>> {
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut previous_hour: Option<u8> = None;
    for bucket in hours {
        let Some(v) = value(bucket) else {
            previous_hour = None;
            continue;
        };
        let point = (f64::from(bucket.hour) + 0.5, v);
        match (previous_hour, runs.last_mut()) {
            (Some(prev), Some(run)) if prev + 1 == bucket.hour => run.push(point),
            _ => runs.push(vec![point]),
        }
        previous_hour = Some(bucket.hour);
    }
    runs.retain(|run| run.len() > 1);
    runs
}

/// Hour ticks every 1, 2, 3, 4 or 6 hours, whichever is densest and fits.
#[cfg_attr(target_arch = "wasm32", inline)]
fn hour_axis<DB: DrawingBackend>(area: &Area<DB>, ink: &Ink<'_>, length: u32) -> TickAxis {
    let font = ink.tick_font();
    let all_hours: Vec<f64> = (0..=24).map(f64::from).collect();
    for step in [1, 2, 3, 4, 6] {
        let major: Vec<f64> = (0..=24).step_by(step).map(f64::from).collect();
        let axis = TickAxis {
            lo: 0.0,
            hi: 24.0,
            log: false,
            minor: Vec::new(),
            major,
        };
        if labels_fit(area, &font, &axis, length, true, &|v| {
            format!("{:02}", v.round() as i64)
        }) {
            let minor = all_hours
                .iter()
                .copied()
                .filter(|h| !axis.major.contains(h))
                .collect();
            return TickAxis { minor, ..axis };
        }
    }
    TickAxis {
        lo: 0.0,
        hi: 24.0,
        log: false,
        minor: Vec::new(),
        major: vec![0.0, 12.0, 24.0],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{has_text, render_svg};

    fn bucket(hour: u8, median: f64, p95: f64) -> HourBucket {
        HourBucket {
            hour,
            n: 12,
            median_ms: Some(median),
            p95_ms: Some(p95),
        }
    }

    fn day() -> HourlyInput {
        HourlyInput {
            title: "TTFT by hour".into(),
            hours: (0..24)
                .map(|h| {
                    bucket(
                        h,
                        380.0 + f64::from(h) * 8.0,
                        900.0 + f64::from(h % 7) * 600.0,
                    )
                })
                .collect(),
            peak: [9, 18],
            colour_index: 0,
        }
    }

    #[test]
    fn full_day_has_hours_legend_and_counts() -> Result<(), ChartError> {
        let svg = render_svg(1000, 400, |area, style| draw_hourly(area, &day(), style))?;
        assert!(has_text(&svg, "local hour"));
        assert!(has_text(&svg, "peak hours"));
        assert!(has_text(&svg, "median"));
        assert!(has_text(&svg, "p95"));
        assert!(has_text(&svg, "12"), "sample counts shown at 1000 px");
        assert!(has_text(&svg, "06"));
        Ok(())
    }

    #[test]
    fn narrow_chart_thins_hour_ticks() -> Result<(), ChartError> {
        let svg = render_svg(400, 300, |area, style| draw_hourly(area, &day(), style))?;
        assert!(has_text(&svg, "00"));
        assert!(!has_text(&svg, "01"), "hourly ticks cannot fit at 400 px");
        Ok(())
    }

    #[test]
    fn empty_and_single_hour() -> Result<(), ChartError> {
        let empty = HourlyInput {
            title: "t".into(),
            hours: vec![],
            peak: [9, 17],
            colour_index: 0,
        };
        let svg = render_svg(400, 300, |area, style| draw_hourly(area, &empty, style))?;
        assert!(has_text(&svg, "no data"));
        let single = HourlyInput {
            hours: vec![bucket(14, 420.0, 420.0)],
            peak: [5, 5],
            ..empty
        };
        let svg = render_svg(400, 300, |area, style| draw_hourly(area, &single, style))?;
        assert!(!has_text(&svg, "no data"));
        assert!(
            !has_text(&svg, "peak hours"),
            "no peak window, no legend entry"
        );
        Ok(())
    }

    #[test]
    fn peak_spans_wrap_midnight() {
        assert_eq!(peak_spans([9, 17]), vec![(9, 17)]);
        assert_eq!(peak_spans([22, 2]), vec![(22, 24), (0, 2)]);
        assert_eq!(peak_spans([22, 0]), vec![(22, 24)]);
        assert!(peak_spans([5, 5]).is_empty());
    }

    #[test]
    fn runs_break_at_missing_hours() {
        let hours = vec![
            bucket(1, 1.0, 1.0),
            bucket(2, 2.0, 2.0),
            bucket(4, 4.0, 4.0),
            bucket(5, 5.0, 5.0),
            bucket(7, 7.0, 7.0),
        ];
        let runs = consecutive_runs(&hours, |b| b.median_ms);
        assert_eq!(
            runs,
            vec![vec![(1.5, 1.0), (2.5, 2.0)], vec![(4.5, 4.0), (5.5, 5.0)]]
        );
    }
}
