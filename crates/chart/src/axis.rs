//! Axis arithmetic shared by the charts: log-axis ticks at 1-2-5 steps
//! ("100 ms, 200 ms, 500 ms, 1 s"), "nice" linear ticks, log-spaced histogram
//! bins, TTFT labels with their unit, and [`TickAxis`], a plotters coordinate
//! whose ticks are exactly the ones computed here (plotters' own log axis
//! picks ticks like 158 ms, which nobody reads at a glance).

use std::ops::Range;

use firsttoken_core::base::lang::Lang;

use plotters::coord::ranged1d::{
    KeyPointHint, KeyPointWeight, NoDefaultFormatting, Ranged, ValueFormatter,
};

/// Smallest TTFT a log axis places, ms; smaller values are drawn at it.
pub(crate) const MIN_LOG_MS: f64 = 0.01;

/// Mantissa sets for log ticks, densest first. Each is tried in turn until
/// the ticks fit.
const LOG_MANTISSAS: [&[f64]; 3] = [&[1.0, 2.0, 5.0], &[1.0, 3.0], &[1.0]];

/// Formats a duration in ms for a tick or marker label: core's one
/// duration formatter ([`firsttoken_core::words::format::format_ms`]), in the units
/// the report's text uses in `lang` (`412.3` → "412 ms" or "412 毫秒",
/// `1234.0` → "1.23 s" or "1.23 秒", `0.5` → "0.5 ms").
#[must_use]
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn tick_ms(lang: Lang, ms: f64) -> String {
    firsttoken_core::words::format::format_ms(lang, ms)
}

pub use firsttoken_core::words::format::significant;

/// Formats a plain number with at most `max_decimals` decimals, trailing
/// zeros dropped (`2.50` → "2.5", `3.0` → "3").
#[must_use]
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn format_plain(value: f64, max_decimals: usize) -> String {
    trim_zeros(format!("{value:.max_decimals$}"))
}

use firsttoken_core::words::format::trim_zeros;

/// Ticks for a log axis from `lo_ms` to `hi_ms`: at most `max_ticks` values
/// of the form m × 10^k with m from the densest of {1, 2, 5}, {1, 3}, {1}
/// that fits, then every second, third… decade. When the range is too narrow
/// for two such ticks (e.g. 380–450 ms), falls back to [`linear_ticks`].
/// Returns an empty list when `max_ticks` is 0 or the range is empty.
#[must_use]
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn log_ticks(lo_ms: f64, hi_ms: f64, max_ticks: usize) -> Vec<f64> {
    if max_ticks == 0 || !(lo_ms > 0.0 && hi_ms > lo_ms && hi_ms.is_finite()) {
        return Vec::new();
    }
    let first_decade = lo_ms.log10().floor() as i32;
    let last_decade = hi_ms.log10().ceil() as i32;
    let in_range = |v: f64| v >= lo_ms * (1.0 - 1e-9) && v <= hi_ms * (1.0 + 1e-9);
    let mut fallback_to_linear = false;
    for (index, mantissas) in LOG_MANTISSAS.iter().enumerate() {
        let ticks: Vec<f64> = (first_decade..=last_decade)
            .flat_map(|decade| mantissas.iter().map(move |m| m * 10f64.powi(decade)))
            .filter(|v| in_range(*v))
            .collect();
        if index == 0 && ticks.len() < 2 {
            fallback_to_linear = true;
            break;
        }
        if ticks.len() <= max_ticks {
            return ticks;
        }
    }
    if fallback_to_linear {
        return linear_ticks(lo_ms, hi_ms, max_ticks);
    }
    // Even one tick per decade is too many: keep every `step`-th decade.
    let decades: Vec<i32> = (first_decade..=last_decade)
        .filter(|d| in_range(10f64.powi(*d)))
        .collect();
    let step = decades.len().div_ceil(max_ticks).max(1);
    decades
        .iter()
        .filter(|d| d.rem_euclid(step as i32) == 0)
        .map(|d| 10f64.powi(*d))
        .take(max_ticks)
        .collect()
}

/// Light grid lines for a log axis: every integer multiple 2…9 of each
/// decade in range (only the decades themselves beyond four decades, to
/// keep the grid calm), minus the major `ticks`.
#[must_use]
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn log_minor_ticks(lo_ms: f64, hi_ms: f64, ticks: &[f64]) -> Vec<f64> {
    if !(lo_ms > 0.0 && hi_ms > lo_ms && hi_ms.is_finite()) {
        return Vec::new();
    }
    let first_decade = lo_ms.log10().floor() as i32;
    let last_decade = hi_ms.log10().ceil() as i32;
    let mantissas: &[f64] = if last_decade - first_decade > 4 {
        &[1.0]
    } else {
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]
    };
    let is_major = |v: f64| ticks.iter().any(|t| (t - v).abs() <= v * 1e-9);
    (first_decade..=last_decade)
        .flat_map(|decade| mantissas.iter().map(move |m| m * 10f64.powi(decade)))
        .filter(|v| *v >= lo_ms && *v <= hi_ms && !is_major(*v))
        .collect()
}

/// "Nice" linear ticks (steps of 1, 2 or 5 × 10^k) inside `lo..=hi`, at
/// most `max_ticks` of them (at least one step is always taken).
#[must_use]
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn linear_ticks(lo: f64, hi: f64, max_ticks: usize) -> Vec<f64> {
    if max_ticks == 0 || hi <= lo || !lo.is_finite() || !hi.is_finite() {
        return Vec::new();
    }
    let rough_step = (hi - lo) / max_ticks.max(1) as f64;
    let magnitude = 10f64.powi(rough_step.log10().floor() as i32);
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|step| ((hi - lo) / step + 1e-9).floor() + 1.0 <= max_ticks as f64)
        .unwrap_or(10.0 * magnitude);
    // The epsilons keep 0.3 / 0.1 = 2.9999999999999996 from losing a tick.
    let first = (lo / step - 1e-9).ceil();
    let last = (hi / step + 1e-9).floor();
    let count = (last - first).max(-1.0) as i64 + 1;
    // Dividing by 1 / step for fractional steps gives 0.3, not 0.30000000000000004.
    let per_unit = (1.0 / step).round();
    (0..count)
        .map(|i| first + i as f64)
        .map(|k| if step < 1.0 { k / per_unit } else { k * step })
        .collect()
}

/// The axis range for TTFT values between `min_ms` and `max_ms` on a log
/// scale: a little padding on both sides and at least a factor of 2.5
/// between the ends, so one value or all-equal values still get an axis.
/// Non-finite or non-positive inputs give 100 ms–1 s.
#[must_use]
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn log_range(min_ms: f64, max_ms: f64) -> (f64, f64) {
    if !(min_ms.is_finite() && max_ms.is_finite() && min_ms > 0.0 && max_ms >= min_ms) {
        return (100.0, 1000.0);
    }
    let (lo, hi) = (
        min_ms.max(MIN_LOG_MS).log10(),
        max_ms.max(MIN_LOG_MS).log10(),
    );
    let pad = ((hi - lo) * 0.04).max(0.02);
    let (mut lo, mut hi) = (lo - pad, hi + pad);
    let min_span = 2.5f64.log10();
    if hi - lo < min_span {
        let centre = (lo + hi) / 2.0;
        lo = centre - min_span / 2.0;
        hi = centre + min_span / 2.0;
    }
    (10f64.powf(lo).max(MIN_LOG_MS), 10f64.powf(hi))
}

/// `bins` + 1 log-spaced histogram edges from `min_ms` to `max_ms`: the
/// first edge is ≤ `min_ms` and the last ≥ `max_ms`, so every value falls in
/// a bin. Equal or invalid bounds are widened around the value; `bins` is at
/// least 1.
#[must_use]
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn log_bin_edges(min_ms: f64, max_ms: f64, bins: usize) -> Vec<f64> {
    let bins = bins.max(1);
    let (lo, hi) = if min_ms.is_finite() && max_ms.is_finite() && min_ms > 0.0 && max_ms > min_ms {
        (min_ms, max_ms)
    } else if min_ms.is_finite() && min_ms > 0.0 {
        (min_ms / 1.1, min_ms * 1.1)
    } else {
        (100.0, 1000.0)
    };
    let (log_lo, log_hi) = (lo.log10(), hi.log10());
    let step = (log_hi - log_lo) / bins as f64;
    let mut edges: Vec<f64> = (0..=bins)
        .map(|i| 10f64.powf(log_lo + step * i as f64))
        .collect();
    // Float rounding must not leave min or max outside.
    if let Some(first) = edges.first_mut() {
        *first = first.min(lo);
    }
    if let Some(last) = edges.last_mut() {
        *last = last.max(hi);
    }
    edges
}

/// Index of the bin of `edges` (from [`log_bin_edges`]) holding `value_ms`;
/// values outside go to the first or last bin.
#[must_use]
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn bin_index(edges: &[f64], value_ms: f64) -> usize {
    let bins = edges.len().saturating_sub(1).max(1);
    let (Some(first), Some(last)) = (edges.first(), edges.last()) else {
        return 0;
    };
    let (log_lo, log_hi) = (first.log10(), last.log10());
    if log_hi <= log_lo {
        return 0;
    }
    let position = (value_ms.max(MIN_LOG_MS).log10() - log_lo) / (log_hi - log_lo) * bins as f64;
    (position.floor().max(0.0) as usize).min(bins - 1)
}

/// Percentiles for markers and boxes are the statistics' own definition
/// (numpy's linear interpolation), so a chart never disagrees with a table.
pub use firsttoken_core::statistics::stats::percentile;

/// A plotters coordinate with precomputed ticks, linear or logarithmic.
/// Major ticks get labels and bold grid lines; minor ones light lines.
#[derive(Debug, Clone, PartialEq)]
pub struct TickAxis {
    /// Low end of the axis.
    pub lo: f64,
    /// High end of the axis.
    pub hi: f64,
    /// Map values by log10 (all values must then be > 0).
    pub log: bool,
    /// Labelled ticks.
    pub major: Vec<f64>,
    /// Unlabelled light grid lines.
    pub minor: Vec<f64>,
}

impl TickAxis {
    /// A linear axis with the given ticks.
    #[must_use]
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn linear(lo: f64, hi: f64, major: Vec<f64>) -> Self {
        Self {
            lo,
            hi,
            log: false,
            major,
            minor: Vec::new(),
        }
    }

    /// A log axis; minor grid lines follow [`log_minor_ticks`].
    #[must_use]
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn log(lo: f64, hi: f64, major: Vec<f64>) -> Self {
        let minor = log_minor_ticks(lo, hi, &major);
        Self {
            lo,
            hi,
            log: true,
            major,
            minor,
        }
    }

    /// Position of `value` along the axis, 0 at `lo` and 1 at `hi`
    /// (outside for values out of range, bounded to keep pixels sane).
    #[must_use]
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn fraction(&self, value: f64) -> f64 {
        let (v, lo, hi) = if self.log {
            (
                value.max(MIN_LOG_MS).log10(),
                self.lo.max(MIN_LOG_MS).log10(),
                self.hi.max(MIN_LOG_MS).log10(),
            )
        } else {
            (value, self.lo, self.hi)
        };
        if hi <= lo || hi.is_nan() || lo.is_nan() || !v.is_finite() {
            return 0.0;
        }
        ((v - lo) / (hi - lo)).clamp(-4.0, 5.0)
    }
}

impl Ranged for TickAxis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = f64::from(limit.1 - limit.0);
        (f64::from(limit.0) + self.fraction(*value) * span).round() as i32
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        match hint.weight() {
            KeyPointWeight::Bold => self.major.clone(),
            KeyPointWeight::Any => self.minor.clone(),
        }
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}

impl ValueFormatter<f64> for TickAxis {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn format(value: &f64) -> String {
        // Every chart sets its own label formatter; this is the fallback.
        significant(*value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn format_ms_uses_ms_below_a_second_and_s_above() {
        assert_eq!(tick_ms(Lang::En, 100.0), "100 ms");
        assert_eq!(tick_ms(Lang::En, 412.3), "412 ms");
        assert_eq!(tick_ms(Lang::En, 56.78), "56.8 ms");
        assert_eq!(tick_ms(Lang::En, 0.5), "0.5 ms");
        assert_eq!(tick_ms(Lang::En, 1000.0), "1 s");
        assert_eq!(tick_ms(Lang::En, 1234.0), "1.23 s");
        assert_eq!(tick_ms(Lang::En, 20_000.0), "20 s");
        assert_eq!(tick_ms(Lang::En, 120_000.0), "120 s");
        assert_eq!(tick_ms(Lang::ZhCn, 412.3), "412 毫秒");
        assert_eq!(tick_ms(Lang::ZhCn, 1234.0), "1.23 秒");
    }

    #[test]
    fn log_ticks_one_two_five_over_two_decades() {
        assert_eq!(
            log_ticks(90.0, 6000.0, 10),
            vec![100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0]
        );
    }

    #[test]
    fn log_ticks_thin_to_one_three_then_decades() {
        assert_eq!(
            log_ticks(90.0, 6000.0, 5),
            vec![100.0, 300.0, 1000.0, 3000.0]
        );
        assert_eq!(log_ticks(90.0, 6000.0, 3), vec![100.0, 1000.0]);
    }

    #[test]
    fn log_ticks_skip_decades_on_huge_ranges() {
        // 1 ms – 120 s is six decades; three ticks keep every second one.
        let ticks = log_ticks(0.9, 130_000.0, 3);
        assert_eq!(ticks, vec![1.0, 100.0, 10_000.0]);
    }

    #[test]
    fn log_ticks_fall_back_to_linear_on_narrow_ranges() {
        let ticks = log_ticks(380.0, 450.0, 5);
        assert!(ticks.len() >= 2, "{ticks:?}");
        assert!(ticks.iter().all(|t| (380.0..=450.0).contains(t)));
        assert_eq!(ticks, vec![380.0, 400.0, 420.0, 440.0]);
    }

    #[test]
    fn log_ticks_empty_for_empty_range_or_no_room() {
        assert!(log_ticks(100.0, 100.0, 5).is_empty());
        assert!(log_ticks(100.0, 1000.0, 0).is_empty());
        assert!(log_ticks(0.0, 1000.0, 5).is_empty());
    }

    #[test]
    fn minor_ticks_exclude_majors() {
        let majors = log_ticks(100.0, 1000.0, 10);
        let minors = log_minor_ticks(100.0, 1000.0, &majors);
        assert_eq!(minors, vec![300.0, 400.0, 600.0, 700.0, 800.0, 900.0]);
    }

    #[test]
    fn linear_ticks_are_nice() {
        assert_eq!(
            linear_ticks(0.0, 100.0, 6),
            vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        assert_eq!(
            linear_ticks(0.0, 47.0, 5),
            vec![0.0, 10.0, 20.0, 30.0, 40.0]
        );
        assert_eq!(linear_ticks(0.0, 0.3, 4), vec![0.0, 0.1, 0.2, 0.3]);
    }

    #[test]
    fn log_range_widens_single_values() {
        let (lo, hi) = log_range(400.0, 400.0);
        assert!(lo < 400.0 && hi > 400.0);
        assert!(hi / lo >= 2.49);
        assert_eq!(log_range(f64::NAN, 3.0), (100.0, 1000.0));
    }

    #[test]
    fn percentile_matches_numpy_linear() {
        let sorted = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(percentile(&sorted, 50.0), Some(2.5));
        assert_eq!(percentile(&sorted, 0.0), Some(1.0));
        assert_eq!(percentile(&sorted, 100.0), Some(4.0));
        assert!((percentile(&sorted, 95.0).unwrap_or(0.0) - 3.85).abs() < 1e-12);
        assert_eq!(percentile(&[], 50.0), None);
    }

    #[test]
    fn tick_axis_maps_log_values_evenly() {
        let axis = TickAxis::log(10.0, 1000.0, vec![10.0, 100.0, 1000.0]);
        assert_eq!(axis.map(&10.0, (0, 200)), 0);
        assert_eq!(axis.map(&100.0, (0, 200)), 100);
        assert_eq!(axis.map(&1000.0, (0, 200)), 200);
    }

    proptest! {
        #[test]
        fn bin_edges_cover_min_and_max(min in 0.01f64..200_000.0, factor in 1.0f64..1.0e4, bins in 1usize..200) {
            let max = min * factor;
            let edges = log_bin_edges(min, max, bins);
            prop_assert_eq!(edges.len(), bins + 1);
            prop_assert!(edges[0] <= min);
            prop_assert!(edges[bins] >= max);
            prop_assert!(edges.windows(2).all(|w| w[0] <= w[1]));
            prop_assert_eq!(bin_index(&edges, min), 0);
            prop_assert_eq!(bin_index(&edges, max), bins - 1);
        }

        #[test]
        fn log_ticks_stay_in_range_and_under_limit(lo in 0.1f64..100_000.0, factor in 1.01f64..1.0e6, max_ticks in 1usize..15) {
            let hi = lo * factor;
            let ticks = log_ticks(lo, hi, max_ticks);
            prop_assert!(ticks.len() <= max_ticks);
            prop_assert!(ticks.iter().all(|t| *t >= lo * 0.999_999 && *t <= hi * 1.000_001));
            prop_assert!(ticks.windows(2).all(|w| w[0] < w[1]));
        }
    }
}
