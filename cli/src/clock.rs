//! The run's clock: wall-clock milliseconds that advance with the monotonic
//! clock.
//!
//! The scheduler plans send times in Unix epoch ms from the run's start, and
//! the results record them that way, as the page's do. Reading the wall
//! clock for every "now" would let an NTP step or a manual clock change move
//! every later send; here the wall clock is read once, at the start, and
//! every later time is that reading plus the monotonic time since. Planned
//! send times are therefore kept to the monotonic clock's precision however
//! long the run, and a suspended laptop resumes with the sends it missed
//! (the scheduler sends them at once, and `sent_at_ms` shows the delay).

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Epoch ms anchored once, advanced monotonically.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    origin: Instant,
    origin_epoch_ms: f64,
}

impl Clock {
    /// Anchors the clock to the wall clock now.
    pub fn start() -> Self {
        let origin = Instant::now();
        let origin_epoch_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0);
        Self {
            origin,
            origin_epoch_ms,
        }
    }

    /// Now, Unix epoch ms.
    pub fn now_ms(&self) -> f64 {
        self.origin_epoch_ms + self.origin.elapsed().as_secs_f64() * 1000.0
    }

    /// The monotonic instant at which this clock reads `epoch_ms` (now, for
    /// a time in the past).
    pub fn instant_at(&self, epoch_ms: f64) -> Instant {
        let ahead_ms = epoch_ms - self.origin_epoch_ms;
        if ahead_ms.is_finite() && ahead_ms > 0.0 {
            self.origin + Duration::from_secs_f64(ahead_ms / 1000.0)
        } else {
            self.origin
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn now_advances_with_the_monotonic_clock_and_maps_back_to_instants() {
        let clock = Clock::start();
        let a = clock.now_ms();
        std::thread::sleep(Duration::from_millis(5));
        let before = Instant::now();
        let b = clock.now_ms();
        let after = Instant::now();
        assert!(b - a >= 5.0, "{a} → {b}");
        // A time read between two instants maps back between them, and a
        // time 100 ms later to 100 ms later: bounds set by the events
        // themselves, not by how busy the machine is (f64 epoch ms hold
        // about a quarter of a microsecond, hence the 10 µs slack).
        let slack = Duration::from_micros(10);
        let at = clock.instant_at(b);
        assert!(
            before.checked_sub(slack).is_none_or(|low| at >= low) && at <= after + slack,
            "{at:?} outside {before:?}..{after:?}"
        );
        let later = clock.instant_at(b + 100.0).duration_since(at);
        assert!(
            later.abs_diff(Duration::from_millis(100)) < slack,
            "{later:?}"
        );
        assert_eq!(clock.instant_at(0.0), clock.origin);
    }
}
