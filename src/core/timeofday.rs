//! TTFT by local hour of the day, and peak versus off-peak hours: shared
//! serverless capacity is busiest in working hours, and a provider that is
//! solid at night can have cold starts at noon.
//!
//! The hour is the requester's local hour, computed from the send time
//! (`sent_at_ms`, Unix epoch ms) and a fixed UTC offset passed in: core never
//! reads a clock or a time-zone database. A run that crosses a daylight
//! saving change is binned with one offset; the shift is at most an hour.

use super::sample::Sample;
use super::stats::{Summary, summarize};

const MS_PER_MINUTE: f64 = 60_000.0;
const MINUTES_PER_DAY: i64 = 24 * 60;

/// The local hour (0–23) of an epoch-millisecond time.
///
/// `tz_offset_min` is minutes *east* of UTC (UTC+8 → 480, UTC−5 → −300):
/// the opposite sign of JavaScript's `Date.getTimezoneOffset()`.
pub fn local_hour(epoch_ms: f64, tz_offset_min: i32) -> u8 {
    let utc_minutes = (epoch_ms / MS_PER_MINUTE).floor() as i64;
    let local_minutes = (utc_minutes + i64::from(tz_offset_min)).rem_euclid(MINUTES_PER_DAY);
    // rem_euclid keeps it in 0..1440, so the hour is in 0..24.
    (local_minutes / 60) as u8
}

/// Whether `hour` lies in the peak window `[start, end)`. A window with
/// `start > end` wraps past midnight (`[22, 6)` is 22:00–05:59); `start ==
/// end` means no peak hours at all.
pub fn is_peak(hour: u8, peak_hours: [u8; 2]) -> bool {
    let [start, end] = peak_hours;
    match start.cmp(&end) {
        std::cmp::Ordering::Less => (start..end).contains(&hour),
        std::cmp::Ordering::Greater => hour >= start || hour < end,
        std::cmp::Ordering::Equal => false,
    }
}

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
    /// TTFT of the successful ones, ms.
    pub ttft: Option<Summary>,
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

/// Split one target's samples by local hour and by peak window.
/// Warm-ups are left out, as everywhere in the statistics.
pub fn time_of_day<'a>(
    samples: impl IntoIterator<Item = &'a Sample>,
    tz_offset_min: i32,
    peak_hours: [u8; 2],
) -> TimeOfDay {
    let mut ttft_by_hour: [Vec<f64>; 24] = std::array::from_fn(|_| Vec::new());
    let mut requests_by_hour = [0usize; 24];
    let mut errors_by_hour = [0usize; 24];
    for sample in samples.into_iter().filter(|s| !s.warmup) {
        let hour = usize::from(local_hour(sample.sent_at_ms, tz_offset_min));
        requests_by_hour[hour] += 1;
        if sample.error.is_some() {
            errors_by_hour[hour] += 1;
        } else if let Some(ttft_ms) = sample.ttft_ms {
            ttft_by_hour[hour].push(ttft_ms);
        }
    }
    let period = |peak: bool| {
        let hours = (0..24u8).filter(|&hour| is_peak(hour, peak_hours) == peak);
        let mut values = Vec::new();
        let (mut requests, mut errors) = (0, 0);
        for hour in hours.map(usize::from) {
            values.extend_from_slice(&ttft_by_hour[hour]);
            requests += requests_by_hour[hour];
            errors += errors_by_hour[hour];
        }
        Period {
            requests,
            errors,
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
    use crate::core::sample::{ErrorKind, Phase, SampleError};

    /// 2024-06-01T00:00:00Z.
    const MIDNIGHT_UTC_MS: f64 = 1_717_200_000_000.0;
    const HOUR_MS: f64 = 3_600_000.0;

    fn sample(sent_at_ms: f64, ttft_ms: f64) -> Sample {
        Sample {
            target: 0,
            seq: 0,
            warmup: false,
            planned_at_ms: sent_at_ms,
            sent_at_ms,
            hidden: false,
            headers_ms: Some(ttft_ms / 2.0),
            first_byte_ms: Some(ttft_ms),
            first_reasoning_ms: None,
            ttft_ms: Some(ttft_ms),
            second_token_ms: None,
            total_ms: Some(ttft_ms + 100.0),
            output_tokens: Some(10),
            tokens_estimated: false,
            cached_tokens: None,
            error: None,
            connection: None,
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

        let split = time_of_day(&samples, 480, [9, 18]);
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
        assert_eq!(
            split.off_peak.ttft.map(|s| (s.n, s.median)),
            Some((1, 300.0))
        );
        // Same samples, peak window wrapping past midnight.
        let night = time_of_day(&samples, 480, [22, 2]);
        assert_eq!((night.peak.requests, night.off_peak.requests), (2, 2));
        assert_eq!(night.peak.ttft.map(|s| s.median), Some(300.0));
    }
}
