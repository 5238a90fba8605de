//! The `scale-to-zero` script's memory: when each model last finished a reply.
//!
//! A serverless provider keeps a replica of a model only while the model has traffic; after
//! it has been idle for longer than its scale-down delay, the replica is released, and the
//! next request waits for weights to load. `scale-to-zero@N@M` plays that: a request that
//! arrives when its model has been idle longer than N s (or that is the model's first) is a
//! cold start of M ms; every other request is warm. Idle is the time from the end of the
//! model's last reply to the arrival of the request, so a reply still running keeps the model
//! warm. Models are keyed by the name as sent (`scale-to-zero@3/a` and `scale-to-zero@3/b` are
//! two models, each with its own replica), as a provider keeps a replica per model.
//!
//! The decision itself ([`goes_cold`]) is a pure function of the idle time; only the record of
//! last ends holds state, behind a lock, as the prefill scripts' prompt cache does.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Whether a request that finds its model idle for `idle` (`None`: the model never replied,
/// so no replica was ever loaded) meets a cold start, with a scale-down delay of `threshold`.
/// Idle exactly as long as the threshold is still warm: the replica goes only *after* it.
pub fn goes_cold(idle: Option<Duration>, threshold: Duration) -> bool {
    idle.is_none_or(|idle| idle > threshold)
}

/// When each model's last reply ended (or, while a reply runs, when it began).
#[derive(Debug, Default)]
pub struct IdleModels {
    last_active: Mutex<HashMap<String, Instant>>,
}

impl IdleModels {
    /// A request for `model` arrived at `at`: whether it meets a cold start with a scale-down
    /// delay of `threshold`. The caller then says when the reply ends ([`IdleModels::finish`],
    /// a time that may lie ahead): until then the model is busy, and a request arriving
    /// meanwhile is warm.
    pub fn arrive(&self, model: &str, at: Instant, threshold: Duration) -> bool {
        let mut last = self.lock();
        let idle = last
            .get(model)
            .map(|active| at.saturating_duration_since(*active));
        let active = last.entry(model.to_owned()).or_insert(at);
        if *active < at {
            *active = at;
        }
        goes_cold(idle, threshold)
    }

    /// `model`'s reply ends at `end`: its idle time counts from then.
    pub fn finish(&self, model: &str, end: Instant) {
        let mut last = self.lock();
        let active = last.entry(model.to_owned()).or_insert(end);
        if *active < end {
            *active = end;
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Instant>> {
        match self.last_active.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cold_only_after_the_threshold_and_on_the_first_request() {
        let three = Duration::from_secs(3);
        assert!(goes_cold(None, three));
        assert!(!goes_cold(Some(Duration::from_millis(2_999)), three));
        assert!(!goes_cold(Some(three), three));
        assert!(goes_cold(Some(Duration::from_millis(3_001)), three));
    }

    #[test]
    fn idle_counts_from_the_end_of_the_last_reply_per_model() {
        let models = IdleModels::default();
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let threshold = Duration::from_secs(3);
        // First request: no replica yet.
        assert!(models.arrive("m", at(0), threshold));
        models.finish("m", at(2_000));
        // 2.5 s after the reply ended (4.5 s after it began): warm.
        assert!(!models.arrive("m", at(4_500), threshold));
        models.finish("m", at(4_700));
        // 3.5 s after: cold.
        assert!(models.arrive("m", at(8_200), threshold));
        // Its reply (a cold start) is planned to end at 10.9 s.
        models.finish("m", at(10_900));
        // Another model has its own replica.
        assert!(models.arrive("n", at(8_200), threshold));
        // A request while a reply runs is warm: the model is busy until the reply ends.
        assert!(!models.arrive("m", at(9_000), threshold));
        // An end earlier than the one known does not move the clock back.
        models.finish("m", at(9_200));
        assert!(!models.arrive("m", at(13_800), threshold));
        models.finish("m", at(14_000));
        assert!(!models.arrive("m", at(17_000), threshold));
        models.finish("m", at(17_200));
        assert!(models.arrive("m", at(20_201), threshold));
    }
}
