//! How much of a target's traffic its provider served from a prompt cache.
//!
//! The method asks for a fixed prompt, and a fixed prompt is exactly what a
//! provider's prompt cache serves; a request that hits the cache skips
//! part of the prefill and has a different TTFT from one that misses. Each
//! sample records what the provider's usage said (`cached_tokens`); this
//! module turns that into the share of requests that hit and the median
//! TTFT of the hits and of the misses (each when there are any), so the mix
//! behind the target's figures is visible. With every request a hit, the
//! hits' median is the target's own: a "–" there read as if nothing had
//! been measured.

use crate::base::order::sort_numbers;
use crate::statistics::stats::percentile;
use crate::wire::sample::Sample;

/// A target's successful measured samples split by prompt-cache hits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CacheSplit {
    /// Successful measured samples whose provider reported a cache figure.
    pub reported: usize,
    /// Of them, those with `cached_tokens` > 0.
    pub hits: usize,
    /// `hits / reported`, 0–1.
    pub hit_share: f64,
    /// Median TTFT of the hits, ms; `None` without a hit.
    pub hit_median_ms: Option<f64>,
    /// Median TTFT of the misses, ms; `None` without a miss.
    pub miss_median_ms: Option<f64>,
}

/// The split of `samples` (one target's; warm-ups and failures are left
/// out here), or `None` when no counted sample reported a cache figure.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn cache_split<'a>(samples: impl IntoIterator<Item = &'a Sample>) -> Option<CacheSplit> {
    let (mut hit_ms, mut miss_ms) = (Vec::new(), Vec::new());
    for sample in samples {
        if let (Some(ttft), Some(cached)) = (sample.counted_ttft_ms(), sample.cached_tokens) {
            if cached > 0 {
                hit_ms.push(ttft);
            } else {
                miss_ms.push(ttft);
            }
        }
    }
    let (hits, reported) = (hit_ms.len(), hit_ms.len() + miss_ms.len());
    if reported == 0 {
        return None;
    }
    let median = |values: &mut Vec<f64>| {
        sort_numbers(values);
        percentile(values, 50.0)
    };
    Some(CacheSplit {
        reported,
        hits,
        hit_share: hits as f64 / reported as f64,
        hit_median_ms: median(&mut hit_ms),
        miss_median_ms: median(&mut miss_ms),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::fixtures::synthetic_samples;

    #[test]
    fn share_and_medians_of_hits_and_misses() {
        let mut samples = synthetic_samples(1, 40, 2, 3);
        for (i, sample) in samples.iter_mut().enumerate() {
            sample.error = None;
            sample.ttft_ms = Some(if i % 4 == 0 { 100.0 } else { 400.0 });
            sample.cached_tokens = Some(if i % 4 == 0 { 1024 } else { 0 });
        }
        // Warm-ups (seq 0 and 1) are not counted: 40 measured, 10 of them hits.
        let split = cache_split(&samples).unwrap();
        assert_eq!((split.reported, split.hits), (40, 10));
        assert!((split.hit_share - 0.25).abs() < 1e-12);
        assert_eq!(split.hit_median_ms, Some(100.0));
        assert_eq!(split.miss_median_ms, Some(400.0));

        // All hits: the hits' median is every request's, and there is no
        // miss to give one.
        for sample in &mut samples {
            sample.cached_tokens = Some(8);
        }
        let split = cache_split(&samples).unwrap();
        assert_eq!((split.hits, split.hit_share), (40, 1.0));
        assert_eq!(
            (split.hit_median_ms, split.miss_median_ms),
            (Some(400.0), None)
        );

        // A provider that never says: nothing to show.
        for sample in &mut samples {
            sample.cached_tokens = None;
        }
        assert_eq!(cache_split(&samples), None);
    }
}
