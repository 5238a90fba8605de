//! Box plot of every target side by side on one log TTFT axis, so the
//! typical speed (median), the spread (box) and the tail (p95 marker and the
//! lone slow requests) of all providers compare at a glance.
//!
//! Targets are rows and TTFT runs left to right: provider names stay
//! horizontal and readable even with twelve targets on a 400 px screen,
//! where vertical boxes would need rotated, clipped labels.

use std::collections::HashSet;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{TickAxis, log_range, percentile, tick_ms};
use super::layout::{
    AxisPlan, Ink, LegendItem, Swatch, build_plot, diamond, draw_frame, draw_no_data, fit_text,
    fitted_log_axis, split_legend, text_size,
};
use super::palette::{blend, series_colour};
use super::{Area, ChartError, ChartStyle, Series, sorted_series};

/// Half the height of a box, in rows.
const BOX_HALF: f64 = 0.2;
/// Half the height of a whisker cap, in rows.
const CAP_HALF: f64 = 0.12;
/// How far below its row's middle a box sits, in rows: the row's name
/// takes the upper part.
const BOX_DOWN: f64 = 0.14;
/// How far above its row's middle a row's name sits, in rows.
const LABEL_UP: f64 = 0.28;

/// What the spread chart shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpreadInput {
    /// Chart title.
    pub title: String,
    /// One box per target, top to bottom.
    pub series: Vec<Series>,
}

/// The five numbers a box is drawn from, ms.
#[derive(Debug, Clone, Copy, PartialEq)]
struct BoxStats {
    p5: f64,
    p25: f64,
    median: f64,
    p75: f64,
    p95: f64,
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn box_stats(sorted: &[f64]) -> Option<BoxStats> {
    Some(BoxStats {
        p5: percentile(sorted, 5.0)?,
        p25: percentile(sorted, 25.0)?,
        median: percentile(sorted, 50.0)?,
        p75: percentile(sorted, 75.0)?,
        p95: percentile(sorted, 95.0)?,
    })
}

/// Draws the box plot of `input` onto `area`.
///
/// # Errors
/// [`ChartError::Backend`] if the backend fails to draw.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn draw_spread<DB: DrawingBackend>(
    area: &Area<DB>,
    input: &SpreadInput,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let ink = Ink::new(area, style);
    let labels = &style.labels;
    let (rows, range) = sorted_series(&input.series);
    let body = draw_frame(area, &ink, &input.title, "")?;
    let Some((min, max)) = range else {
        return draw_no_data(&body, &ink, &labels.no_data);
    };

    let theme = &ink.theme;
    let legend = vec![
        LegendItem {
            swatch: Swatch::Block(blend(series_colour(0, style.dark), theme.background, 0.35)),
            label: labels.box_range.clone(),
        },
        LegendItem {
            swatch: Swatch::Line {
                colour: theme.text,
                dashed: false,
            },
            label: labels.median.clone(),
        },
        LegendItem {
            swatch: Swatch::Line {
                colour: theme.muted,
                dashed: false,
            },
            label: labels.whisker_range.clone(),
        },
        LegendItem {
            swatch: Swatch::Diamond(theme.text),
            label: labels.p95.clone(),
        },
        LegendItem {
            swatch: Swatch::Dot(theme.muted),
            label: labels.beyond_whiskers.clone(),
        },
    ];
    let plot_area = split_legend(&body, &ink, &legend)?;

    let count = rows.len();
    // Row i (from the top) spans count - i - 1 to count - i: its name on
    // the upper part, its box below. A name above its box gets the chart's
    // whole width, where a name beside it got two fifths and was cut.
    let centre = |row: usize| count as f64 - row as f64 - 0.5 - BOX_DOWN;

    let (lo, hi) = log_range(min, max);
    let x_format = |v: &f64| tick_ms(style.labels.units, *v);
    let y_format = |_: &f64| String::new();
    let chart = build_plot(
        &plot_area,
        &ink,
        AxisPlan {
            make: &|length| fitted_log_axis(&plot_area, &ink, (lo, hi), length, true),
            format: &x_format,
            title: &labels.ttft_axis,
        },
        AxisPlan {
            make: &|_| TickAxis::linear(0.0, count as f64, (0..count).map(centre).collect()),
            format: &y_format,
            title: "",
        },
    )?;

    let plot = chart.plotting_area();
    let (plot_width, _) = plot.dim_in_pixel();
    let x_spec = plot.as_coord_spec().x_spec().clone();
    let line = |colour: RGBColor, width_px: u32| colour.stroke_width(width_px);
    let thin = ink.metrics.px(1.2).max(1);
    let thick = ink.metrics.line_px + 1;
    let dot = ink.metrics.dot_px;
    let diamond_r = i32::try_from(ink.metrics.dot_px + 3).unwrap_or(5);
    // (row, pixel column) packed in one u64: the timeline's set has that
    // type, so the page carries one copy of the set code, not two.
    let mut seen: HashSet<u64> = HashSet::new();
    let (_, base_y) = plot.get_base_pixel();
    let x = i32::try_from(ink.metrics.pad_px).unwrap_or(8);
    let left_text = |at: f64, text: &str, colour: RGBColor| {
        let font = ink
            .font(ink.metrics.tick_px, colour)
            .pos(Pos::new(HPos::Left, VPos::Center));
        let (_, py) = chart.backend_coord(&(lo, at));
        plot.strip_coord_spec()
            .draw_text(text, &font, (x, py - base_y))
    };
    for ((row, values), series) in rows.iter().enumerate().zip(&input.series) {
        let y = centre(row);
        let colour = series_colour(series.colour_index, style.dark);
        // The whole name when it fits the plot's width (nearly always);
        // only a name longer than the chart is shortened.
        let count = format!(" ({} = {})", labels.sample_count, values.len());
        let room = plot_width
            .saturating_sub(2 * x.unsigned_abs())
            .saturating_sub(text_size(&plot_area, &count, &ink.tick_font()).0);
        let name = fit_text(&plot_area, &series.label, &ink.tick_font(), room);
        left_text(y + BOX_DOWN + LABEL_UP, &(name + &count), theme.text)?;
        let Some(stats) = box_stats(values) else {
            left_text(y, &labels.no_data, theme.muted)?;
            continue;
        };
        // Lone requests beyond the whiskers, one dot per pixel column.
        for value in values.iter().filter(|v| **v < stats.p5 || **v > stats.p95) {
            // Saturates far outside the plot, where nothing is drawn anyway.
            let column = (x_spec.fraction(*value) * f64::from(plot_width)).round() as i32;
            let row_bits = u64::try_from(row).unwrap_or(u64::MAX) << 32;
            if seen.insert(row_bits | u64::from(column.cast_unsigned())) {
                plot.draw(&Circle::new((*value, y), dot, colour.mix(0.7).filled()))?;
            }
        }
        let whisker = line(theme.muted, thin);
        plot.draw(&PathElement::new(
            vec![(stats.p5, y), (stats.p25, y)],
            whisker,
        ))?;
        plot.draw(&PathElement::new(
            vec![(stats.p75, y), (stats.p95, y)],
            whisker,
        ))?;
        for cap in [stats.p5, stats.p95] {
            plot.draw(&PathElement::new(
                vec![(cap, y - CAP_HALF), (cap, y + CAP_HALF)],
                whisker,
            ))?;
        }
        let corners = [(stats.p25, y - BOX_HALF), (stats.p75, y + BOX_HALF)];
        plot.draw(&Rectangle::new(corners, colour.mix(0.35).filled()))?;
        plot.draw(&Rectangle::new(corners, line(colour, thin)))?;
        plot.draw(&PathElement::new(
            vec![(stats.median, y - BOX_HALF), (stats.median, y + BOX_HALF)],
            line(theme.text, thick),
        ))?;
        let (px, py) = chart.backend_coord(&(stats.p95, y));
        let (bx, by) = plot.get_base_pixel();
        plot.strip_coord_spec()
            .draw(&diamond((px - bx, py - by), diamond_r, theme.text))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{has_text, render_svg, sample_ttft_ms, series};

    #[test]
    fn typical_spread_labels_rows_and_explains_marks() -> Result<(), ChartError> {
        let input = SpreadInput {
            title: "TTFT by target".into(),
            series: vec![
                series("Provider A", sample_ttft_ms(100, 1, 0)),
                series("Provider B", sample_ttft_ms(100, 2, 12)),
            ],
        };
        let svg = render_svg(800, 360, |area, style| draw_spread(area, &input, style))?;
        assert!(has_text(&svg, "Provider A (n = 100)"));
        assert!(has_text(&svg, "Provider B (n = 100)"));
        assert!(has_text(&svg, "median"));
        assert!(has_text(&svg, "p95"));
        assert!(has_text(&svg, "TTFT (log scale)"));
        // One p95 diamond per row plus the legend's: the only polygons.
        assert_eq!(svg.matches("<polygon").count(), 2 + 1);
        Ok(())
    }

    #[test]
    fn empty_row_and_empty_chart() -> Result<(), ChartError> {
        let none = SpreadInput {
            title: "t".into(),
            series: vec![],
        };
        let svg = render_svg(400, 300, |area, style| draw_spread(area, &none, style))?;
        assert!(has_text(&svg, "no data"));

        let one_empty = SpreadInput {
            title: "t".into(),
            series: vec![series("A", vec![420.0]), series("B", vec![])],
        };
        let svg = render_svg(400, 300, |area, style| draw_spread(area, &one_empty, style))?;
        assert!(has_text(&svg, "A (n = 1)"));
        assert!(has_text(&svg, "B (n = 0)"));
        assert!(has_text(&svg, "no data"), "the empty row says so");
        Ok(())
    }

    #[test]
    fn box_stats_follow_linear_percentiles() {
        let sorted: Vec<f64> = (1..=101).map(f64::from).collect();
        let stats = box_stats(&sorted);
        assert_eq!(
            stats,
            Some(BoxStats {
                p5: 6.0,
                p25: 26.0,
                median: 51.0,
                p75: 76.0,
                p95: 96.0
            })
        );
        assert_eq!(box_stats(&[]), None);
    }

    #[test]
    fn a_name_above_its_box_is_whole_at_400_px() -> Result<(), ChartError> {
        // Beside its box a name got two fifths of the width: "Demo C · fa…".
        let input = SpreadInput {
            title: "t".into(),
            series: vec![
                series("Demo A · steady", vec![300.0, 320.0, 900.0]),
                series("Demo C · fast, answers differ", vec![120.0, 130.0]),
            ],
        };
        let svg = render_svg(360, 260, |area, style| draw_spread(area, &input, style))?;
        assert!(has_text(&svg, "Demo A · steady (n = 3)"));
        assert!(has_text(&svg, "Demo C · fast, answers differ (n = 2)"));
        assert!(!svg.contains('…'));
        Ok(())
    }

    #[test]
    fn long_labels_are_shortened() -> Result<(), ChartError> {
        let long = "A provider with a very long name · some-model-with-a-long-name-70b-instruct";
        let input = SpreadInput {
            title: "t".into(),
            series: vec![series(long, vec![400.0, 500.0])],
        };
        let svg = render_svg(400, 240, |area, style| draw_spread(area, &input, style))?;
        assert!(!svg.contains(long));
        assert!(svg.contains("A provider with"));
        assert!(
            svg.contains("… (n = 2)"),
            "the name is shortened, the count kept"
        );
        Ok(())
    }
}
