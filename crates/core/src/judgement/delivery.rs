//! How a provider delivered, per target: the status classes and first-try
//! success of its requests with what its rate-limit headers said, and the
//! gaps, stalls and buffering inside its streams. The per-request records
//! these read are [`crate::wire::ratelimit`]'s headers and
//! [`crate::wire::stream_shape`]'s shapes, kept on each sample.
//!
//! A measurement never retries: a 429 is a sample like any other, so the
//! share of requests that succeeded is the *first-try* success rate a
//! client without retries would see.

use crate::base::order::sort_numbers;
use crate::statistics::binomial::wilson;
use crate::statistics::stats::percentile;
use crate::wire::ratelimit::{RateLimitHeaders, StatusCounts};
use crate::wire::sample::{ErrorKind, Sample};
use crate::wire::stream_shape::StreamShape;

/// The class of a request's HTTP status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StatusClass {
    /// 2xx.
    Success,
    /// 429 Too Many Requests.
    RateLimited,
    /// Another 4xx.
    ClientError,
    /// 5xx (and any other non-2xx code).
    ServerError,
    /// No status: the request failed before headers (network, CORS, a
    /// timeout), or the file predates the member.
    NoStatus,
}

/// The class of `sample`'s response.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn status_class(sample: &Sample) -> StatusClass {
    match sample.http_status {
        Some(200..=299) => StatusClass::Success,
        Some(429) => StatusClass::RateLimited,
        Some(400..=499) => StatusClass::ClientError,
        Some(_) => StatusClass::ServerError,
        // A file written before `http_status`: a success had a 2xx.
        None if sample.error.is_none() => StatusClass::Success,
        None => StatusClass::NoStatus,
    }
}

/// What one target's statuses and rate-limit headers say.
#[derive(Clone, Debug, PartialEq)]
pub struct StatusFigures {
    /// Measured requests, warm-ups and requests the user stopped left out.
    pub requests: usize,
    /// Those requests by status class.
    pub counts: StatusCounts,
    /// Requests that succeeded on their one and only try.
    pub first_try_success: usize,
    /// Wilson 95 % interval of the first-try success share, 0–1.
    pub first_try_interval: (f64, f64),
    /// Wilson 95 % interval of the 429 share, 0–1.
    pub rate_limited_interval: (f64, f64),
    /// 429s whose `Retry-After` could be read.
    pub retry_after_count: usize,
    /// Median `Retry-After` of those, seconds.
    pub retry_after_median_s: Option<f64>,
    /// Longest `Retry-After`, seconds.
    pub retry_after_max_s: Option<f64>,
    /// 429s whose headers the client could not read (a page, when the
    /// provider exposes no header to scripts).
    pub rate_limit_hidden: usize,
    /// The rate-limit headers of the last 429 that carried any.
    pub last_rate_limit: Option<RateLimitHeaders>,
    /// Of the requests without a status, those that never reached the
    /// provider: no connection could be opened (host not found, refused,
    /// TLS), or a browser gave no answer at all ([`reached_nobody`]).
    pub unreached: usize,
}

/// `sample` failed before any connection reached the provider: a network
/// failure at the request (a host not found, a refused connection, a TLS
/// handshake, or a browser's "blocked or no network"). The runner sends a
/// request once more when a kept connection closed under it, so what is
/// left here is a connection this client could not open.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn reached_nobody(sample: &Sample) -> bool {
    sample.http_status.is_none()
        && sample.error.as_ref().is_some_and(|e| {
            e.phase == crate::base::failure::Phase::Request
                && matches!(
                    e.kind,
                    ErrorKind::CorsOrNetwork | ErrorKind::Dns | ErrorKind::Tls
                )
        })
}

/// The status figures of one target's `samples` (warm-ups and stopped
/// requests skipped here); `None` without a measured request.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn status_figures<'a>(
    samples: impl IntoIterator<Item = &'a Sample>,
) -> Option<StatusFigures> {
    let mut counts = StatusCounts::default();
    let (mut requests, mut first_try_success, mut hidden, mut unreached) = (0, 0, 0, 0);
    let mut retry_after = Vec::new();
    let mut last_rate_limit = None;
    for sample in samples {
        let stopped = sample
            .error
            .as_ref()
            .is_some_and(|e| e.kind == ErrorKind::Aborted);
        if sample.warmup || stopped {
            continue;
        }
        requests += 1;
        if sample.error.is_none() {
            first_try_success += 1;
        }
        match status_class(sample) {
            StatusClass::Success => counts.ok += 1,
            StatusClass::RateLimited => {
                counts.rate_limited += 1;
                match &sample.rate_limit {
                    Some(headers) if !headers.headers_visible => hidden += 1,
                    Some(headers) => {
                        retry_after.extend(headers.retry_after_s);
                        if headers.any() {
                            last_rate_limit = Some(headers.clone());
                        }
                    }
                    None => {}
                }
            }
            StatusClass::ClientError => counts.client_error += 1,
            StatusClass::ServerError => counts.server_error += 1,
            StatusClass::NoStatus => {
                counts.no_status += 1;
                unreached += usize::from(reached_nobody(sample));
            }
        }
    }
    if requests == 0 {
        return None;
    }
    sort_numbers(&mut retry_after);
    Some(StatusFigures {
        requests,
        counts,
        first_try_success,
        first_try_interval: wilson(first_try_success, requests),
        rate_limited_interval: wilson(counts.rate_limited, requests),
        retry_after_count: retry_after.len(),
        retry_after_median_s: crate::statistics::stats::percentile(&retry_after, 50.0),
        retry_after_max_s: retry_after.last().copied(),
        rate_limit_hidden: hidden,
        last_rate_limit,
        unreached,
    })
}

/// What one target's streams looked like.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StreamFigures {
    /// Measured requests with a stream summary.
    pub requests: usize,
    /// Those with at least one stall.
    pub stalled: usize,
    /// Wilson 95 % interval of the stall rate, 0–1.
    pub stall_interval: (f64, f64),
    /// Median of the per-request p95 gap, ms.
    pub gap_p95_median_ms: Option<f64>,
    /// p95 of the per-request p95 gap, ms.
    pub gap_p95_p95_ms: Option<f64>,
    /// The longest gap of the run, ms.
    pub max_gap_ms: Option<f64>,
    /// Buffered replies.
    pub buffered: usize,
}

/// The stream figures of one target's `samples`: measured requests (no
/// warm-ups, none the user stopped) that carry a [`StreamShape`]. `None`
/// when none does (older files, or no first token at all).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn stream_figures<'a>(
    samples: impl IntoIterator<Item = &'a Sample>,
) -> Option<StreamFigures> {
    let shapes: Vec<StreamShape> = samples
        .into_iter()
        .filter(|s| !s.warmup)
        .filter(|s| {
            !s.error
                .as_ref()
                .is_some_and(|e| e.kind == ErrorKind::Aborted)
        })
        .filter_map(|s| s.stream)
        .collect();
    if shapes.is_empty() {
        return None;
    }
    let stalled = shapes.iter().filter(|s| s.stalls > 0).count();
    let mut p95s: Vec<f64> = shapes.iter().filter_map(|s| s.p95_gap_ms).collect();
    sort_numbers(&mut p95s);
    Some(StreamFigures {
        requests: shapes.len(),
        stalled,
        stall_interval: wilson(stalled, shapes.len()),
        gap_p95_median_ms: percentile(&p95s, 50.0),
        gap_p95_p95_ms: percentile(&p95s, 95.0),
        max_gap_ms: shapes
            .iter()
            .filter_map(|s| s.max_gap_ms)
            .max_by(f64::total_cmp),
        buffered: shapes.iter().filter(|s| s.buffered).count(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::fixtures::plain_samples;
    use crate::wire::sample::{Phase, SampleError};

    fn refused(mut sample: Sample, status: u16, retry_after_s: Option<f64>) -> Sample {
        sample.http_status = Some(status);
        sample.ttft_ms = None;
        sample.error = Some(SampleError {
            kind: ErrorKind::HttpStatus,
            phase: Phase::Request,
            message: format!("HTTP {status}"),
        });
        sample.rate_limit = Some(RateLimitHeaders {
            retry_after_s,
            headers_visible: true,
            ..RateLimitHeaders::default()
        });
        sample
    }

    #[test]
    fn counts_classes_first_try_success_and_retry_after() {
        let mut samples = plain_samples(20);
        for s in &mut samples {
            s.http_status = Some(200);
        }
        samples[0] = refused(samples[0].clone(), 429, Some(20.0));
        samples[1] = refused(samples[1].clone(), 429, Some(2.0));
        samples[2] = refused(samples[2].clone(), 429, None);
        samples[3] = refused(samples[3].clone(), 503, None);
        samples[4] = refused(samples[4].clone(), 401, None);
        samples[5].http_status = None;
        samples[5].error = Some(SampleError {
            kind: ErrorKind::Timeout,
            phase: Phase::Request,
            message: "timeout".to_owned(),
        });
        samples[6].error = Some(SampleError {
            kind: ErrorKind::Aborted,
            phase: Phase::BeforeFirstToken,
            message: "stopped".to_owned(),
        });
        samples[7].warmup = true;
        // Never reached the provider: a host not found, a refused
        // connection. A timeout before headers did reach it.
        for (at, kind) in [(8, ErrorKind::Dns), (9, ErrorKind::CorsOrNetwork)] {
            samples[at].http_status = None;
            samples[at].error = Some(SampleError {
                kind,
                phase: Phase::Request,
                message: "no connection".to_owned(),
            });
        }
        let figures = status_figures(&samples).unwrap();
        assert_eq!(figures.requests, 18);
        assert_eq!(
            figures.counts,
            StatusCounts {
                ok: 10,
                rate_limited: 3,
                client_error: 1,
                server_error: 1,
                no_status: 3
            }
        );
        assert_eq!(figures.unreached, 2);
        assert_eq!(figures.first_try_success, 10);
        assert_eq!(figures.retry_after_count, 2);
        assert_eq!(figures.retry_after_median_s, Some(11.0));
        assert_eq!(figures.retry_after_max_s, Some(20.0));
        let (low, high) = figures.first_try_interval;
        assert!(low < 10.0 / 18.0 && 10.0 / 18.0 < high);
    }

    #[test]
    fn a_429_the_page_could_not_read_is_counted_as_hidden() {
        let mut samples = plain_samples(3);
        samples[0] = refused(samples[0].clone(), 429, None);
        samples[0].rate_limit = Some(RateLimitHeaders::default());
        let figures = status_figures(&samples).unwrap();
        assert_eq!(figures.rate_limit_hidden, 1);
        assert_eq!(figures.retry_after_count, 0);
        assert_eq!(figures.last_rate_limit, None);
    }

    #[test]
    fn a_target_reports_stall_rate_gap_percentiles_and_buffered_share() {
        let mut samples = plain_samples(10);
        for (i, sample) in samples.iter_mut().enumerate() {
            let stalls = u32::from(i < 2);
            sample.stream = Some(StreamShape {
                gaps: 30,
                max_gap_ms: Some(if stalls > 0 { 2_500.0 } else { 40.0 }),
                p95_gap_ms: Some(10.0 * (i as f64 + 1.0)),
                stalls,
                buffered: i == 9,
            });
        }
        samples[0].warmup = true;
        let figures = stream_figures(&samples).unwrap();
        assert_eq!(figures.requests, 9);
        assert_eq!(figures.stalled, 1);
        assert_eq!(figures.buffered, 1);
        assert_eq!(figures.gap_p95_median_ms, Some(60.0));
        assert_eq!(figures.max_gap_ms, Some(2_500.0));
        assert_eq!(stream_figures(&plain_samples(1)), None);
    }
}
