//! Inside the stream, after the first token: gaps, stalls and buffering.
//!
//! The tail of the gap distribution is the only place a decode stall shows:
//! a reply can start fast and still stop for seconds halfway. Each request
//! keeps a summary of its own gaps ([`StreamShape`]), never every chunk, and
//! nothing here enters TTFT.
//!
//! Definitions (also in docs/statistics.md):
//! - A **gap** is the time between two consecutive arrivals of token-bearing
//!   data after the first token's arrival. Tokens that arrive in one read
//!   (one network chunk) are one arrival: their gap is not a gap.
//! - A **stall** is a gap longer than [`STALL_MS`].
//! - A reply is **buffered** when more than [`BUFFERED_TOKENS`] tokens
//!   arrived within [`BUFFERED_WINDOW_MS`] of the first: the signature of a
//!   provider that generates the whole reply and then sends it at once. A
//!   delta counts as one token, except when the whole reply arrived within
//!   the window, where the provider's own output count is used (a buffered
//!   reply may come as one large delta).

use serde::{Deserialize, Serialize};

use crate::base::order::sort_numbers;
use crate::statistics::stats::percentile;

/// A gap longer than this is a stall, ms.
pub const STALL_MS: f64 = 2_000.0;

/// The window after the first token in which a buffered reply arrives, ms.
pub const BUFFERED_WINDOW_MS: f64 = 5.0;

/// More tokens than this within [`BUFFERED_WINDOW_MS`] of the first make a
/// reply buffered.
pub const BUFFERED_TOKENS: u32 = 20;

/// At most this many gaps of one request are kept for its p95 (the count,
/// maximum and stalls stay exact past it): 512 KiB, whatever a server sends.
pub(crate) const MAX_KEPT_GAPS: usize = 65_536;

/// One request's stream after its first token, as its sample stores it
/// (`stream`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StreamShape {
    /// Gaps measured (arrivals after the first).
    pub gaps: u32,
    /// The longest gap, ms; `None` without a gap.
    pub max_gap_ms: Option<f64>,
    /// The p95 of this request's gaps, ms; `None` without a gap.
    pub p95_gap_ms: Option<f64>,
    /// Gaps longer than [`STALL_MS`].
    pub stalls: u32,
    /// The reply came all at once ([`BUFFERED_TOKENS`] within
    /// [`BUFFERED_WINDOW_MS`] of the first token).
    pub buffered: bool,
}

/// Records the arrivals of one request's tokens.
#[derive(Clone, Debug, Default)]
pub(crate) struct GapRecorder {
    first_ms: Option<f64>,
    last_ms: Option<f64>,
    gaps: Vec<f64>,
    count: u32,
    max_ms: Option<f64>,
    stalls: u32,
    in_window: u32,
}

impl GapRecorder {
    /// A token-bearing delta arrived at `t_ms` (after or with the first
    /// token). Deltas of one arrival share its time.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub(crate) fn token(&mut self, t_ms: f64) {
        if !t_ms.is_finite() {
            return;
        }
        let Some(first) = self.first_ms else {
            self.first_ms = Some(t_ms);
            self.last_ms = Some(t_ms);
            self.in_window = 1;
            return;
        };
        if t_ms - first <= BUFFERED_WINDOW_MS {
            self.in_window = self.in_window.saturating_add(1);
        }
        let last = self.last_ms.unwrap_or(first);
        if t_ms > last {
            let gap = t_ms - last;
            self.count = self.count.saturating_add(1);
            if gap > STALL_MS {
                self.stalls = self.stalls.saturating_add(1);
            }
            self.max_ms = Some(self.max_ms.map_or(gap, |max: f64| max.max(gap)));
            if self.gaps.len() < MAX_KEPT_GAPS {
                self.gaps.push(gap);
            }
            self.last_ms = Some(t_ms);
        }
    }

    /// The shape, once the stream is over; `output_tokens` is the reply's
    /// count (the provider's, else counted deltas). `None` when no token
    /// came.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub(crate) fn finish(mut self, output_tokens: Option<u32>) -> Option<StreamShape> {
        let first = self.first_ms?;
        let all_in_window = self
            .last_ms
            .is_none_or(|last| last - first <= BUFFERED_WINDOW_MS);
        let in_window = if all_in_window {
            output_tokens.unwrap_or(0).max(self.in_window)
        } else {
            self.in_window
        };
        sort_numbers(&mut self.gaps);
        Some(StreamShape {
            gaps: self.count,
            max_gap_ms: self.max_ms,
            p95_gap_ms: percentile(&self.gaps, 95.0),
            stalls: self.stalls,
            buffered: in_window > BUFFERED_TOKENS,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(times: &[f64], output_tokens: Option<u32>) -> StreamShape {
        let mut recorder = GapRecorder::default();
        for &t in times {
            recorder.token(t);
        }
        recorder.finish(output_tokens).unwrap()
    }

    #[test]
    fn a_steady_stream_has_its_gaps_and_no_stall() {
        let times: Vec<f64> = (0..50).map(|i| 300.0 + 20.0 * f64::from(i)).collect();
        let s = shape(&times, Some(50));
        assert_eq!(s.gaps, 49);
        assert_eq!(s.max_gap_ms, Some(20.0));
        assert!((s.p95_gap_ms.unwrap() - 20.0).abs() < 1e-9);
        assert_eq!(s.stalls, 0);
        assert!(!s.buffered);
    }

    #[test]
    fn a_stall_mid_stream_is_counted_and_is_the_max_gap() {
        let mut times: Vec<f64> = (0..20).map(|i| 300.0 + 10.0 * f64::from(i)).collect();
        times.extend((0..20).map(|i| 3_000.0 + 10.0 * f64::from(i)));
        let s = shape(&times, Some(40));
        assert_eq!(s.stalls, 1);
        assert!((s.max_gap_ms.unwrap() - 2_510.0).abs() < 1e-9);
        assert!(!s.buffered);
    }

    #[test]
    fn tokens_of_one_arrival_are_not_gaps_and_a_reply_at_once_is_buffered() {
        // 40 deltas in one read, after a long first-token wait.
        let s = shape(&[4_000.0; 40], Some(40));
        assert_eq!(s.gaps, 0);
        assert_eq!(s.max_gap_ms, None);
        assert!(s.buffered);
        // One large delta carrying a 300-token reply: the provider's count.
        assert!(shape(&[4_000.0], Some(300)).buffered);
        // A short reply at once is too short to tell.
        assert!(!shape(&[4_000.0; 5], Some(5)).buffered);
        // A fast provider (1 000 tokens/s) is not buffered.
        let fast: Vec<f64> = (0..100).map(|i| 100.0 + f64::from(i)).collect();
        assert!(!shape(&fast, Some(100)).buffered);
    }

    #[test]
    fn non_finite_times_are_ignored_and_no_token_is_no_shape() {
        let mut recorder = GapRecorder::default();
        recorder.token(f64::NAN);
        assert_eq!(recorder.finish(Some(3)), None);
    }
}
