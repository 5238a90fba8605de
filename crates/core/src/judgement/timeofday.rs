//! TTFT by local hour of the day, and peak versus off-peak hours: shared
//! serverless capacity is busiest in working hours, and a provider that is
//! solid at night can have cold starts at noon.
//!
//! The hour is the requester's local hour, computed from the send time
//! (`sent_at_ms`, Unix epoch ms) and a fixed UTC offset passed in: core never
//! reads a clock or a time-zone database. A run that crosses a daylight
//! saving change is binned with one offset; the shift is at most an hour.
//!
//! The plan may name the zone its peak hours are in (`peak_tz`, an IANA
//! name or a UTC offset): an offset is used as it is, a name is resolved
//! to its offset by the adapter that ran the plan (the browser's `Intl`,
//! the runner's zone database) and stored with the results, so the page,
//! the terminal and the dashboard bin every request in the same zone.
//!
//! Peak and off-peak are compared by their share of slow requests with
//! Fisher's exact test, not by eye: two p95s of 40 requests each differ by
//! chance more often than not.

use crate::statistics::binomial::fisher_exact;
use crate::statistics::stats::{Summary, summarize};
use crate::wire::sample::{Sample, TtftRank};

const MS_PER_MINUTE: f64 = 60_000.0;
const MINUTES_PER_DAY: i64 = 24 * 60;

/// The local hour (0–23) of an epoch-millisecond time.
///
/// `tz_offset_min` is minutes *east* of UTC (UTC+8 → 480, UTC−5 → −300):
/// the opposite sign of JavaScript's `Date.getTimezoneOffset()`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn local_hour(epoch_ms: f64, tz_offset_min: i32) -> u8 {
    let utc_minutes = (epoch_ms / MS_PER_MINUTE).floor() as i64;
    let local_minutes = (utc_minutes + i64::from(tz_offset_min)).rem_euclid(MINUTES_PER_DAY);
    // rem_euclid keeps it in 0..1440, so the hour is in 0..24.
    (local_minutes / 60) as u8
}

use crate::base::order::sort_numbers;
pub use crate::base::peak::{PeakZone, is_peak, parse_peak_tz};

/// One hour's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct HourRow {
    /// Local hour, 0–23.
    pub hour: u8,
    /// Measured requests sent in this hour (successes and errors).
    pub requests: usize,
    /// Errors among them.
    pub errors: usize,
    /// TTFT of the successful ones, ms; `None` when all failed.
    pub ttft: Option<Summary>,
}

/// One side of the peak / off-peak split.
#[derive(Clone, Debug, PartialEq)]
pub struct Period {
    /// Measured requests sent in it.
    pub requests: usize,
    /// Errors among them.
    pub errors: usize,
    /// TTFT of the ranked ones (timeouts censored at the timeout), ms.
    pub ttft: Option<Summary>,
    /// Ranked requests slower than the target's slow threshold (3× its
    /// warm median), timeouts included.
    pub slow: usize,
    /// A distribution-free 97.5 % lower confidence bound of the p95, ms:
    /// the order statistic x₍ₗ₎ with the largest l such that
    /// P(Binomial(n, 0.95) < l) ≤ 2.5 %. What "≥ x" says when the period
    /// is too small for an upper bound.
    pub p95_low_ms: Option<f64>,
}

impl Period {
    /// Ranked requests: measured first tokens and timeouts.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn ranked(&self) -> usize {
        self.ttft.map_or(0, |t| t.n)
    }

    /// Whether the period has enough requests for its p95 to have a finite
    /// distribution-free upper confidence bound ([`MIN_FOR_P95_BOUND`]); below
    /// it the p95 is shown as "≥ x", not as a number.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn p95_is_bounded(&self) -> bool {
        self.ranked() >= MIN_FOR_P95_BOUND
    }
}

/// Fewest requests for which the largest of them is a 97.5 % upper
/// confidence bound of the p95: 1 − 0.95ⁿ ≥ 0.975 from n = 72.
pub const MIN_FOR_P95_BOUND: usize = 72;

/// Peak against off-peak: their slow shares and Fisher's exact test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeriodComparison {
    /// Slow and ranked requests in peak hours.
    pub peak: (usize, usize),
    /// Slow and ranked requests off peak.
    pub off_peak: (usize, usize),
    /// Two-sided p-value of Fisher's exact test on the 2 × 2 table.
    pub p_value: f64,
}

impl PeriodComparison {
    /// The shares differ at the 5 % level.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn differs(&self) -> bool {
        self.p_value < 0.05
    }
}

impl TimeOfDay {
    /// Peak against off-peak, when both periods ranked at least one request.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn compare_periods(&self) -> Option<PeriodComparison> {
        let (peak, off) = (&self.peak, &self.off_peak);
        if peak.ranked() == 0 || off.ranked() == 0 {
            return None;
        }
        Some(PeriodComparison {
            peak: (peak.slow, peak.ranked()),
            off_peak: (off.slow, off.ranked()),
            p_value: fisher_exact(peak.slow, peak.ranked(), off.slow, off.ranked()),
        })
    }
}

/// TTFT by local hour and by peak / off-peak, for one target.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeOfDay {
    /// Hours that saw at least one request, ascending.
    pub hours: Vec<HourRow>,
    /// Requests sent in the plan's peak hours.
    pub peak: Period,
    /// The rest.
    pub off_peak: Period,
}

/// The distribution-free 97.5 % lower confidence bound of the p95 of
/// `sorted` (see [`Period::p95_low_ms`]); `None` for fewer than two
/// values, where even the smallest is above the p95 too often.
#[cfg_attr(target_arch = "wasm32", inline)]
fn p95_lower_bound(sorted: &[f64]) -> Option<f64> {
    // The largest l with P(B ≤ l − 1) ≤ 0.025, B ~ Binomial(n, 0.95),
    // makes x₍ₗ₎ ≤ p95 with 97.5 % confidence: the lower rank of the
    // order-statistic interval, found in one O(n) pass.
    let (l, _) = crate::statistics::quantile::order_statistic_ranks(sorted.len(), 0.95);
    sorted.get(l? - 1).copied()
}

/// Split one target's samples by local hour and by peak window.
/// Warm-ups are left out, as everywhere in the statistics; timeouts rank
/// at `timeout_ms` ([`Sample::rank`]); a request slower than
/// `slow_threshold_ms` counts as slow in its period, and so does every
/// timeout, whatever the threshold.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn time_of_day<'a>(
    samples: impl IntoIterator<Item = &'a Sample>,
    tz_offset_min: i32,
    peak_hours: [u8; 2],
    timeout_ms: f64,
    slow_threshold_ms: f64,
) -> TimeOfDay {
    let mut ttft_by_hour: [Vec<f64>; 24] = std::array::from_fn(|_| Vec::new());
    let mut requests_by_hour = [0usize; 24];
    let mut errors_by_hour = [0usize; 24];
    let mut timeouts_by_hour = [0usize; 24];
    for sample in samples.into_iter().filter(|s| !s.warmup) {
        let hour = usize::from(local_hour(sample.sent_at_ms, tz_offset_min));
        requests_by_hour[hour] += 1;
        errors_by_hour[hour] += usize::from(sample.error.is_some());
        match sample.rank(timeout_ms) {
            TtftRank::Measured(ms) => ttft_by_hour[hour].push(ms),
            TtftRank::Censored => {
                ttft_by_hour[hour].push(timeout_ms);
                timeouts_by_hour[hour] += 1;
            }
            TtftRank::Excluded => {}
        }
    }
    let period = |peak: bool| {
        let hours = (0..24u8).filter(|&hour| is_peak(hour, peak_hours) == peak);
        let mut values = Vec::new();
        let (mut requests, mut errors, mut timeouts) = (0, 0, 0);
        for hour in hours.map(usize::from) {
            values.extend_from_slice(&ttft_by_hour[hour]);
            requests += requests_by_hour[hour];
            errors += errors_by_hour[hour];
            timeouts += timeouts_by_hour[hour];
        }
        sort_numbers(&mut values);
        // Timeouts rank at `timeout_ms`: over the threshold they are
        // already counted; under it they are slow all the same.
        let over = values.iter().filter(|&&ms| ms > slow_threshold_ms).count();
        let timeouts_under = if timeout_ms > slow_threshold_ms {
            0
        } else {
            timeouts
        };
        Period {
            requests,
            errors,
            slow: over + timeouts_under,
            p95_low_ms: p95_lower_bound(&values),
            ttft: summarize(&values),
        }
    };
    let (peak, off_peak) = (period(true), period(false));
    let hours = (0..24u8)
        .filter(|&hour| requests_by_hour[usize::from(hour)] > 0)
        .map(|hour| {
            let index = usize::from(hour);
            HourRow {
                hour,
                requests: requests_by_hour[index],
                errors: errors_by_hour[index],
                ttft: summarize(&ttft_by_hour[index]),
            }
        })
        .collect();
    TimeOfDay {
        hours,
        peak,
        off_peak,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::sample::{ErrorKind, Phase, SampleError};

    /// 2024-06-01T00:00:00Z.
    const MIDNIGHT_UTC_MS: f64 = 1_717_200_000_000.0;
    const HOUR_MS: f64 = 3_600_000.0;

    fn sample(sent_at_ms: f64, ttft_ms: f64) -> Sample {
        Sample {
            planned_at_ms: sent_at_ms,
            sent_at_ms,
            headers_ms: Some(ttft_ms / 2.0),
            first_byte_ms: Some(ttft_ms),
            second_token_ms: None,
            total_ms: Some(ttft_ms + 100.0),
            output_tokens: Some(10),
            ..Sample::measured(0, 0, ttft_ms)
        }
    }

    #[test]
    fn local_hours_with_offsets() {
        assert_eq!(local_hour(MIDNIGHT_UTC_MS, 0), 0);
        assert_eq!(local_hour(MIDNIGHT_UTC_MS, 480), 8);
        assert_eq!(local_hour(MIDNIGHT_UTC_MS, -300), 19);
        assert_eq!(local_hour(MIDNIGHT_UTC_MS + 23.5 * HOUR_MS, 330), 5); // 23:30Z in UTC+5:30
        assert_eq!(local_hour(MIDNIGHT_UTC_MS - 1.0, 0), 23);
        assert_eq!(local_hour(0.0, 0), 0);
        assert_eq!(local_hour(-1.0, 0), 23); // before 1970 still wraps
    }

    #[test]
    fn peak_windows() {
        assert!(is_peak(9, [9, 18]) && is_peak(17, [9, 18]));
        assert!(!is_peak(18, [9, 18]) && !is_peak(8, [9, 18]));
        assert!(is_peak(23, [22, 6]) && is_peak(0, [22, 6]) && is_peak(5, [22, 6]));
        assert!(!is_peak(6, [22, 6]) && !is_peak(21, [22, 6]));
        assert!(!(0..24).any(|hour| is_peak(hour, [7, 7])));
    }

    #[test]
    fn splits_by_hour_and_peak() {
        let mut samples = vec![
            sample(MIDNIGHT_UTC_MS + 1.0 * HOUR_MS, 400.0), // 09 local in UTC+8
            sample(MIDNIGHT_UTC_MS + 1.5 * HOUR_MS, 600.0), // 09
            sample(MIDNIGHT_UTC_MS + 14.0 * HOUR_MS, 300.0), // 22
        ];
        let mut failed = sample(MIDNIGHT_UTC_MS + 14.2 * HOUR_MS, 0.0);
        failed.error = Some(SampleError {
            kind: ErrorKind::Timeout,
            phase: Phase::BeforeFirstToken,
            message: String::new(),
        });
        failed.ttft_ms = None;
        samples.push(failed);
        let mut warmup = sample(MIDNIGHT_UTC_MS + 3.0 * HOUR_MS, 9000.0); // 11, left out
        warmup.warmup = true;
        samples.push(warmup);

        let split = time_of_day(&samples, 480, [9, 18], 120_000.0, 1_000.0);
        assert_eq!(
            split
                .hours
                .iter()
                .map(|h| (h.hour, h.requests, h.errors))
                .collect::<Vec<_>>(),
            vec![(9, 2, 0), (22, 2, 1)]
        );
        assert_eq!(split.hours[0].ttft.map(|s| s.median), Some(500.0));
        assert_eq!((split.peak.requests, split.peak.errors), (2, 0));
        assert_eq!((split.off_peak.requests, split.off_peak.errors), (2, 1));
        // The timeout ranks at the timeout, and is slow.
        assert_eq!(
            split.off_peak.ttft.map(|s| (s.n, s.min, s.max)),
            Some((2, 300.0, 120_000.0))
        );
        assert_eq!((split.peak.slow, split.off_peak.slow), (0, 1));
        // Same samples, peak window wrapping past midnight.
        let night = time_of_day(&samples, 480, [22, 2], 120_000.0, 1_000.0);
        assert_eq!((night.peak.requests, night.off_peak.requests), (2, 2));
        assert_eq!(night.peak.ttft.map(|s| s.min), Some(300.0));
    }

    #[test]
    fn peak_zones_read_offsets_and_names() {
        assert_eq!(parse_peak_tz("+08:00"), Some(PeakZone::Offset(480)));
        assert_eq!(parse_peak_tz("UTC-5"), Some(PeakZone::Offset(-300)));
        assert_eq!(parse_peak_tz("-0530"), Some(PeakZone::Offset(-330)));
        assert_eq!(parse_peak_tz("utc"), Some(PeakZone::Offset(0)));
        assert_eq!(parse_peak_tz("Z"), Some(PeakZone::Offset(0)));
        assert_eq!(
            parse_peak_tz("Asia/Shanghai"),
            Some(PeakZone::Named("Asia/Shanghai".to_owned()))
        );
        assert_eq!(
            parse_peak_tz("America/Argentina/Buenos_Aires"),
            Some(PeakZone::Named("America/Argentina/Buenos_Aires".to_owned()))
        );
        for bad in [
            "",
            "+15:00",
            "+08:75",
            "Shanghai",
            "/etc/passwd",
            "Asia//X",
            "Asia/<b>",
            "+8:00:00",
        ] {
            assert_eq!(parse_peak_tz(bad), None, "{bad}");
        }
    }

    #[test]
    fn periods_compare_by_slow_share_and_bound_their_p95() {
        let mut samples = Vec::new();
        for i in 0..80 {
            // 40 in peak hours (09–10 local in UTC+8), 6 of them slow.
            let slow = i < 6;
            samples.push(sample(
                MIDNIGHT_UTC_MS + 1.0 * HOUR_MS + f64::from(i) * 60_000.0 / 2.0,
                if slow { 5_000.0 } else { 400.0 },
            ));
        }
        for i in 0..40 {
            samples.push(sample(
                MIDNIGHT_UTC_MS + 14.0 * HOUR_MS + f64::from(i) * 60_000.0,
                400.0,
            ));
        }
        let split = time_of_day(&samples, 480, [9, 18], 120_000.0, 1_200.0);
        let comparison = split.compare_periods().unwrap();
        assert_eq!((comparison.peak, comparison.off_peak), ((6, 80), (0, 40)));
        assert!(!split.off_peak.p95_is_bounded());
        // 40 values (exact sums in Python): P(B ≤ 35) = 0.048 > 2.5 %,
        // P(B ≤ 34) = 0.0139 ≤ 2.5 %: the bound is x₍₃₅₎ (400 ms here).
        assert_eq!(split.off_peak.p95_low_ms, Some(400.0));
        assert_eq!(
            p95_lower_bound(&(1..=40).map(f64::from).collect::<Vec<_>>()),
            Some(35.0)
        );
        assert_eq!(p95_lower_bound(&[1.0, 2.0, 3.0]), Some(2.0));
        assert_eq!(p95_lower_bound(&[1.0]), None);
        assert!(split.peak.p95_is_bounded());
        assert!((comparison.p_value - fisher_exact(6, 80, 0, 40)).abs() < 1e-12);
    }
}
