//! Charts as pure functions of data, generic over the plotters backend: they
//! render to SVG in native tests and onto a canvas in the page.
//!
//! Every chart takes a plain-data input defined here (not the statistics
//! types), a [`ChartStyle`] and any [`DrawingArea`], so the same code draws the
//! page's canvas, the PNG download and the SVG samples in `docs/charts/`.
//! Charts never panic on awkward data: empty input draws a "no data" message,
//! one value or all-equal values get a sensible axis, and 1 ms–120 s ranges
//! stay readable on a log axis.
//!
//! A crate of its own (`firsttoken-chart`, re-exported by the page as
//! `firsttoken::chart`): the page draws onto its canvas, and the runner's
//! HTML report draws the same [`items`] as SVG without depending on the page.
//!
//! Text is laid out from the backend's own size estimate: the canvas measures
//! it in the page; natively plotters estimates it from the font size (no font
//! files are read), which is good enough for tests and sample renders.

// A `pub` item outside the public face is an accident: it widens the face
// without saying so. Reaching one from outside its module is `pub(crate)`.
#![warn(unreachable_pub)]

pub mod axis;
mod daily;
mod ecdf;
mod histogram;
mod hourly;
mod idle;
pub mod items;
mod layout;
pub mod palette;
mod prefill;
mod spread;
mod timeline;

use firsttoken_core::base::lang::Lang;
use plotters::coord::Shift;
use plotters::drawing::{DrawingArea, DrawingAreaErrorKind};

pub use daily::{DailyInput, DayPoint, DaySeriesInput, draw_daily, draw_daily_rates};
pub use ecdf::{EcdfInput, draw_ecdf};
pub use histogram::{HistogramInput, draw_histogram};
pub use hourly::{HourBucket, HourlyInput, draw_hourly};
pub use idle::{IdleGapPoint, IdleInput, IdleSeries, draw_idle};
pub use prefill::{PrefillInput, PrefillSeries, draw_prefill};
pub use spread::{SpreadInput, draw_spread};
pub use timeline::{
    TimelineAxes, TimelineInput, TimelinePlot, TimelinePoint, draw_timeline, draw_timeline_points,
};

/// One target's TTFT samples, as one line, box or colour in a chart.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Series {
    /// Shown in legends and category labels, e.g. "DigitalOcean · llama-3.3-70b".
    pub label: String,
    /// Successful samples' time to first token, ms. Non-finite and
    /// non-positive values are ignored (a log axis cannot place them).
    pub ttft_ms: Vec<f64>,
    /// Which series colour it is drawn in: the target's index in the
    /// report, so a target keeps one colour in every chart of a screen,
    /// whatever its rank or place in this chart.
    pub colour_index: usize,
}

/// Every piece of text a chart draws that is not data, so the page can hand
/// in another language. [`Default`] is English.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartLabels {
    /// TTFT axis title; the tick labels carry their own unit (ms / s).
    pub ttft_axis: String,
    /// Histogram count axis.
    pub count_axis: String,
    /// ECDF share axis.
    pub share_axis: String,
    /// Timeline x axis when the run is shorter than two hours.
    pub elapsed_minutes_axis: String,
    /// Timeline x axis for longer runs.
    pub elapsed_hours_axis: String,
    /// Hour-of-day x axis.
    pub hour_axis: String,
    /// Day charts' x axis (the dashboard's days are UTC).
    pub day_axis: String,
    /// Prefill chart's x axis: the provider's input-token count.
    pub input_tokens_axis: String,
    /// Median marker and legend entry.
    pub median: String,
    /// 95th percentile marker and legend entry.
    pub p95: String,
    /// Spread chart: what the box shows.
    pub box_range: String,
    /// Spread chart: what the whiskers show.
    pub whisker_range: String,
    /// Spread chart: what the lone dots are.
    pub beyond_whiskers: String,
    /// Timeline: requests in the slow (cold-start) tail.
    pub tail: String,
    /// Timeline: failed requests.
    pub error: String,
    /// Hourly chart: the user's peak hours.
    pub peak_hours: String,
    /// Sample count prefix, as in "n = 100".
    pub sample_count: String,
    /// Idle chart's x axis: the idle before each request.
    pub idle_axis: String,
    /// Idle chart's y axis.
    pub cold_share_axis: String,
    /// Idle chart: what a point and its bar are.
    pub cold_share: String,
    /// Idle chart: what the step line is.
    pub monotone_estimate: String,
    /// Drawn in place of a chart that has nothing to show.
    pub no_data: String,
    /// The language of the tick labels' units ("412 ms" or "412 毫秒"),
    /// as the report's text writes them.
    pub units: Lang,
}

impl Default for ChartLabels {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn default() -> Self {
        Self {
            ttft_axis: "TTFT (log scale)".into(),
            count_axis: "requests".into(),
            share_axis: "requests at or below (%)".into(),
            elapsed_minutes_axis: "time since start (min)".into(),
            elapsed_hours_axis: "time since start (h)".into(),
            hour_axis: "local hour".into(),
            day_axis: "day (UTC)".into(),
            input_tokens_axis: "input tokens (log scale)".into(),
            median: "median".into(),
            p95: "p95".into(),
            box_range: "box: p25–p75".into(),
            whisker_range: "whiskers: p5–p95".into(),
            beyond_whiskers: "dots: beyond".into(),
            tail: "slow tail".into(),
            error: "error".into(),
            peak_hours: "peak hours".into(),
            sample_count: "n".into(),
            idle_axis: "idle before the request (log scale)".into(),
            cold_share_axis: "cold share".into(),
            cold_share: "cold share, 95 % interval".into(),
            monotone_estimate: "monotone estimate".into(),
            no_data: "no data".into(),
            units: Lang::En,
        }
    }
}

/// How a chart looks; the data decides what it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartStyle {
    /// CSS font family, e.g. "system-ui, sans-serif".
    pub font_family: String,
    /// Device pixels per CSS pixel (the page passes `devicePixelRatio`):
    /// every font size, line width and margin is multiplied by it, so a 2×
    /// canvas looks like the 1× one, only crisper.
    pub font_scale: f64,
    /// Light text on a dark background.
    pub dark: bool,
    /// Width of the chart in CSS pixels, which decides font sizes and how
    /// many ticks fit. `None` = the drawing area's width / `font_scale`.
    pub width_px: Option<u32>,
    /// Text drawn by the charts (English by default).
    pub labels: ChartLabels,
}

impl Default for ChartStyle {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn default() -> Self {
        Self {
            font_family: "sans-serif".into(),
            font_scale: 1.0,
            dark: false,
            width_px: None,
            labels: ChartLabels::default(),
        }
    }
}

/// A chart could not be drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChartError {
    /// The backend refused a drawing call (canvas gone, SVG writer failed);
    /// the message is the backend's.
    Backend(String),
}

impl std::fmt::Display for ChartError {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Backend(message) => write!(f, "chart drawing failed: {message}"),
        }
    }
}

impl std::error::Error for ChartError {}

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for ChartError {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn from(error: DrawingAreaErrorKind<E>) -> Self {
        Self::Backend(error.to_string())
    }
}

/// The drawing area type every chart function takes.
pub type Area<DB> = DrawingArea<DB, Shift>;

/// Keeps the values a log axis can place: finite and above zero.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn positive_finite(values: &[f64]) -> Vec<f64> {
    values
        .iter()
        .copied()
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect()
}

/// Each series' placeable values, sorted ascending, and the range they span
/// together (`None` when no series has a value): the start of every chart
/// that draws several targets on one log axis.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn sorted_series(series: &[Series]) -> (Vec<Vec<f64>>, Option<(f64, f64)>) {
    let sorted: Vec<Vec<f64>> = series
        .iter()
        .map(|series| {
            let mut values = positive_finite(&series.ttft_ms);
            firsttoken_core::base::order::sort_numbers(&mut values);
            values
        })
        .collect();
    let min = sorted
        .iter()
        .filter_map(|s| s.first())
        .copied()
        .reduce(f64::min);
    let max = sorted
        .iter()
        .filter_map(|s| s.last())
        .copied()
        .reduce(f64::max);
    let range = min.zip(max);
    (sorted, range)
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Shared helpers for the chart tests: render to an SVG string.
    use super::{Area, ChartError, ChartStyle, Series};
    use plotters::prelude::{IntoDrawingArea, SVGBackend};

    /// Renders `draw` onto a `width` × `height` SVG and returns the document.
    pub(crate) fn render_svg<F>(width: u32, height: u32, draw: F) -> Result<String, ChartError>
    where
        F: FnOnce(&Area<SVGBackend<'_>>, &ChartStyle) -> Result<(), ChartError>,
    {
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
            draw(&area, &ChartStyle::default())?;
            area.present()?;
        }
        Ok(svg)
    }

    /// Whether the SVG has a text element reading exactly `text` (the SVG
    /// backend writes each text on its own line).
    pub(crate) fn has_text(svg: &str, text: &str) -> bool {
        svg.contains(&format!("\n{text}\n</text>"))
    }

    /// A series labelled `label`.
    pub(crate) fn series(label: &str, ttft_ms: Vec<f64>) -> Series {
        Series {
            label: label.into(),
            ttft_ms,
            colour_index: 0,
        }
    }

    /// A deterministic sample: mostly 300–600 ms with a cold-start tail of
    /// 5–9 s in every `tail_every`-th request.
    pub(crate) fn sample_ttft_ms(n: usize, seed: u64, tail_every: usize) -> Vec<f64> {
        let mut rng = fastrand::Rng::with_seed(seed);
        (0..n)
            .map(|i| {
                if tail_every > 0 && i % tail_every == tail_every - 1 {
                    5_000.0 + rng.f64() * 4_000.0
                } else {
                    // Roughly log-normal around 420 ms.
                    let z = rng.f64() + rng.f64() + rng.f64() - 1.5;
                    420.0 * (0.35 * z).exp()
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod samples;
