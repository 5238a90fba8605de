//! How TTFT grows with the prompt: each target's fixed part and prefill
//! rate, TTFT per size, the comparison of providers of one model on
//! prefill speed, and what a repeated prompt saves.
//!
//! # The fit
//!
//! A provider reads the whole prompt before it writes the first token, so
//! for warm requests TTFT ≈ fixed part + input tokens ÷ prefill rate. The
//! fit uses the measured first sends of each requested size (cache-probe
//! repeats, warm-ups, probes and errors left out) and, for x, the
//! **provider's** `input_tokens` count, never the requested size; a request
//! without the count is left out. Cold starts are kept out by the slow
//! rule of [`crate::slow`] applied within each size (a 32 768-token prompt
//! is not a cold start for taking longer than a 128-token one): requests
//! over [`crate::slow::SLOW_MULTIPLE`] × the size's warm reference are not
//! fitted.
//!
//! Within each size the fit takes the median input count and the median
//! warm TTFT, then a weighted Theil–Sen line through those points (the
//! slope is the median of the pairwise slopes weighted by the distance
//! between their input counts, Sievers' estimator), and the fixed part is
//! the median of `y − slope × x`. Medians keep a stray slow request from
//! moving the line; the weights let the long sizes, where prefill shows,
//! decide the slope rather than the noise between 128 and 512 tokens.
//!
//! # Intervals
//!
//! 95 % percentile-bootstrap intervals for the slope and the fixed part,
//! resampling requests within each size (the sizes rotate over the same
//! rounds, so each size is a stratum of the run), seeded and reproducible.
//! The rate's interval is the slope's, inverted; a slope interval that
//! reaches 0 leaves the rate unbounded above. docs/statistics.md gives the
//! coverage measured by `tests::prefill_fit_coverage`.
//!
//! # Comparing providers
//!
//! "B prefills 2.9× faster than A" is said only when the two rate
//! intervals are apart; the ratio's interval comes from the two targets'
//! bootstrap replicates taken in pairs (the targets are independent).
//!
//! # The prompt cache
//!
//! A cache-probe repeat sends its first send's very prompt at the next
//! round. The saving is the median of the paired differences (first send −
//! repeat) over the pairs where both succeeded, with a 95 % bootstrap
//! interval over pairs; an interval that holds 0 reads "no cache effect".

mod summary;

pub use summary::{ModelPrefill, PrefillReport, SizeRow, TargetPrefill, prefill_report};

use super::bootstrap::{DEFAULT_RESAMPLES, Distinction, Interval};
use super::quantile::order_statistic_ranks;
use super::sample::Sample;
use super::slow::warm_reference;
use super::stats::{percentile, sort_by_first};

/// A size needs at least this many warm requests to enter the fit.
pub const MIN_PER_SIZE: usize = 3;

/// One size's point in the fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SizePoint {
    /// The requested size, tokens.
    pub size: u32,
    /// Median of the provider's input-token counts, warm requests.
    pub input_tokens: f64,
    /// Median TTFT of the warm requests, ms.
    pub ttft_ms: f64,
    /// Warm requests fitted.
    pub warm: usize,
    /// Requests over the size's slow threshold, left out of the fit.
    pub slow: usize,
}

/// A target's prefill fit: TTFT ≈ `fixed_ms` + input tokens ÷ rate.
#[derive(Clone, Debug, PartialEq)]
pub struct PrefillFit {
    /// Index of the target in the plan.
    pub target: u32,
    /// The fixed part, ms: what TTFT would be with an empty prompt.
    pub fixed_ms: f64,
    /// 95 % interval of the fixed part, ms.
    pub fixed_interval: Interval,
    /// Prefill rate, input tokens per second.
    pub rate_tokens_per_s: f64,
    /// 95 % interval of the rate; `high` is infinite when the slope's
    /// interval reaches 0.
    pub rate_interval: Interval,
    /// The points fitted, by size ascending.
    pub points: Vec<SizePoint>,
    /// The slope's bootstrap replicates, ms per token (for comparisons).
    pub slope_replicates: Vec<f64>,
    /// The fixed part's bootstrap replicates, ms, each from the same
    /// resample as the slope of the same index.
    pub fixed_replicates: Vec<f64>,
}

impl PrefillFit {
    /// The fitted TTFT at `input_tokens`, ms.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn ttft_at_ms(&self, input_tokens: f64) -> f64 {
        self.fixed_ms + input_tokens * 1_000.0 / self.rate_tokens_per_s
    }

    /// The 95 % bootstrap interval of the fitted TTFT at `input_tokens`,
    /// ms: the percentiles of each resample's line there.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn ttft_at_interval(&self, input_tokens: f64) -> Option<Interval> {
        let mut at: Vec<f64> = self
            .slope_replicates
            .iter()
            .zip(&self.fixed_replicates)
            .map(|(slope, fixed)| fixed + slope * input_tokens)
            .collect();
        interval_of(&mut at)
    }
}

/// One size's warm points: (requested size, warm (input tokens, TTFT ms)
/// pairs, requests left out as slow).
pub(crate) type SizeGroup = (u32, Vec<(f64, f64)>, usize);

/// The warm points of one target, from its measured first sends.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn size_points(samples: &[Sample], target: u32) -> Vec<SizeGroup> {
    size_groups(samples.iter().filter_map(|sample| {
        let sized = sample.sized_prompt?;
        if sample.target != target
            || sample.warmup
            || sample.is_probe()
            || sized.repeat_of.is_some()
            || sample.error.is_some()
        {
            return None;
        }
        Some((
            sized.tokens,
            f64::from(sample.input_tokens?),
            sample.ttft_ms?,
        ))
    }))
}

/// The warm points of measured first sends given as (requested size,
/// provider's input tokens, TTFT ms): grouped by size ascending, each
/// size's slow requests left out by the slow rule, sizes with fewer than
/// [`MIN_PER_SIZE`] warm requests dropped. The caller has already left out
/// warm-ups, cache-probe repeats, probes and errors.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn size_groups(points: impl IntoIterator<Item = (u32, f64, f64)>) -> Vec<SizeGroup> {
    let mut by_size: Vec<(u32, Vec<(f64, f64)>)> = Vec::new();
    for (tokens, input, ttft) in points {
        // Sizes kept in ascending order as they come (a sort of the
        // groups would be one more copy of the sort in the page's wasm).
        // Points are (TTFT, input tokens) until sorted by TTFT.
        let point = (ttft, input);
        match by_size.binary_search_by_key(&tokens, |(size, _)| *size) {
            Ok(at) => by_size[at].1.push(point),
            Err(at) => by_size.insert(at, (tokens, vec![point])),
        }
    }
    by_size
        .into_iter()
        .filter_map(|(size, mut points)| {
            sort_by_first(&mut points);
            let ttfts: Vec<f64> = points.iter().map(|p| p.0).collect();
            let (reference, _) = warm_reference(&ttfts, 0)?;
            let threshold = super::slow::SLOW_MULTIPLE * reference;
            let warm: Vec<(f64, f64)> = points
                .into_iter()
                .filter(|p| p.0 <= threshold)
                .map(|(ttft, input)| (input, ttft))
                .collect();
            let slow = ttfts.len() - warm.len();
            (warm.len() >= MIN_PER_SIZE).then_some((size, warm, slow))
        })
        .collect()
}

/// Median of `values` (sorted in place); NaN for none.
#[cfg_attr(target_arch = "wasm32", inline)]
fn median(values: &mut [f64]) -> f64 {
    values.sort_unstable_by(f64::total_cmp);
    percentile(values, 50.0).unwrap_or(f64::NAN)
}

/// Sievers' weighted Theil–Sen line through `(x, y)` points: (slope,
/// intercept); `None` with fewer than two distinct x.
#[cfg_attr(target_arch = "wasm32", inline)]
fn weighted_theil_sen(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let mut slopes: Vec<(f64, f64)> = Vec::new();
    for (i, a) in points.iter().enumerate() {
        for b in &points[i + 1..] {
            let dx = b.0 - a.0;
            if dx.abs() > 0.0 {
                slopes.push(((b.1 - a.1) / dx, dx.abs()));
            }
        }
    }
    if slopes.is_empty() {
        return None;
    }
    // Ties may come in any order: the weighted median is their value.
    sort_by_first(&mut slopes);
    let total: f64 = slopes.iter().map(|s| s.1).sum();
    let mut running = 0.0;
    let mut slope = slopes[slopes.len() - 1].0;
    for (value, weight) in &slopes {
        running += weight;
        if running >= total / 2.0 {
            slope = *value;
            break;
        }
    }
    let mut residuals: Vec<f64> = points.iter().map(|p| p.1 - slope * p.0).collect();
    Some((slope, median(&mut residuals)))
}

/// The line through the per-size medians of `groups`.
#[cfg_attr(target_arch = "wasm32", inline)]
fn fit_groups(groups: &[Vec<(f64, f64)>]) -> Option<(f64, f64)> {
    let centres: Vec<(f64, f64)> = groups
        .iter()
        .map(|group| {
            let mut xs: Vec<f64> = group.iter().map(|p| p.0).collect();
            let mut ys: Vec<f64> = group.iter().map(|p| p.1).collect();
            (median(&mut xs), median(&mut ys))
        })
        .collect();
    weighted_theil_sen(&centres)
}

/// The prefill fit of `target` over `samples`, with `DEFAULT_RESAMPLES`
/// bootstrap resamples seeded by `seed`; `None` with fewer than two sizes
/// of [`MIN_PER_SIZE`] warm requests, or a fitted slope that is not
/// positive (TTFT that does not grow with the prompt has no prefill rate).
///
/// Cost: O(resamples × requests × log) time.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn prefill_fit(samples: &[Sample], target: u32, seed: u64) -> Option<PrefillFit> {
    prefill_fit_with(samples, target, seed, DEFAULT_RESAMPLES)
}

/// [`prefill_fit`] with `resamples` bootstrap resamples.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn prefill_fit_with(
    samples: &[Sample],
    target: u32,
    seed: u64,
    resamples: usize,
) -> Option<PrefillFit> {
    fit_sizes(&size_points(samples, target), target, seed, resamples)
}

/// The prefill fit through the warm points of [`size_groups`] (or
/// [`size_points`]), labelled `target`, with `resamples` bootstrap
/// resamples seeded by `seed`; `None` as for [`prefill_fit`].
///
/// Cost: O(resamples × requests × log) time.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn fit_sizes(
    sizes: &[SizeGroup],
    target: u32,
    seed: u64,
    resamples: usize,
) -> Option<PrefillFit> {
    if sizes.len() < 2 {
        return None;
    }
    let groups: Vec<Vec<(f64, f64)>> = sizes.iter().map(|(_, warm, _)| warm.clone()).collect();
    let (slope, fixed) = fit_groups(&groups)?;
    if slope.is_nan() || slope <= 0.0 {
        return None;
    }
    let mut rng = fastrand::Rng::with_seed(seed ^ u64::from(target).wrapping_mul(0x9E37_79B9));
    let mut slopes = Vec::with_capacity(resamples);
    let mut fixeds = Vec::with_capacity(resamples);
    let mut resample: Vec<Vec<(f64, f64)>> = groups.clone();
    for _ in 0..resamples {
        for (into, group) in resample.iter_mut().zip(&groups) {
            for slot in into.iter_mut() {
                *slot = group[rng.usize(..group.len())];
            }
        }
        if let Some((s, f)) = fit_groups(&resample) {
            slopes.push(s);
            fixeds.push(f);
        }
    }
    let slope_interval = interval_of(&mut slopes.clone())?;
    let fixed_interval = interval_of(&mut fixeds.clone())?;
    let rate = |slope_ms_per_token: f64| {
        if slope_ms_per_token > 0.0 {
            1_000.0 / slope_ms_per_token
        } else {
            f64::INFINITY
        }
    };
    let points = sizes
        .iter()
        .map(|(size, warm, slow)| {
            let mut xs: Vec<f64> = warm.iter().map(|p| p.0).collect();
            let mut ys: Vec<f64> = warm.iter().map(|p| p.1).collect();
            SizePoint {
                size: *size,
                input_tokens: median(&mut xs),
                ttft_ms: median(&mut ys),
                warm: warm.len(),
                slow: *slow,
            }
        })
        .collect();
    Some(PrefillFit {
        target,
        fixed_ms: fixed,
        fixed_interval,
        rate_tokens_per_s: rate(slope),
        rate_interval: Interval {
            low: rate(slope_interval.high),
            high: rate(slope_interval.low),
        },
        points,
        slope_replicates: slopes,
        fixed_replicates: fixeds,
    })
}

/// The 2.5th and 97.5th percentiles of `values`.
#[cfg_attr(target_arch = "wasm32", inline)]
fn interval_of(values: &mut [f64]) -> Option<Interval> {
    values.sort_unstable_by(f64::total_cmp);
    Some(Interval {
        low: percentile(values, 2.5)?,
        high: percentile(values, 97.5)?,
    })
}

/// Two targets of one model compared on prefill rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrefillComparison {
    /// The faster target's index; `None` when the rate intervals overlap.
    pub faster: Option<u32>,
    /// The target with the higher rate's point estimate.
    pub higher: u32,
    /// The other target's index.
    pub slower: u32,
    /// Faster rate ÷ slower rate (B ÷ A when there is no winner, B the
    /// higher point estimate).
    pub ratio: f64,
    /// 95 % interval of the ratio, from paired bootstrap replicates.
    pub ratio_interval: Interval,
}

/// Compares `a` and `b` on prefill rate, ties admitted: a winner only when
/// the rate intervals are apart.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn compare_prefill(a: &PrefillFit, b: &PrefillFit) -> PrefillComparison {
    // Higher is better for a rate: compare the slopes' (ms per token)
    // intervals, where lower is better, through their inverses.
    let slope = |fit: &PrefillFit| Interval {
        low: 1_000.0 / fit.rate_interval.high,
        high: 1_000.0 / fit.rate_interval.low,
    };
    let distinction = Distinction::lower_is_better(&slope(a), &slope(b));
    let (fast, slow) = if b.rate_tokens_per_s >= a.rate_tokens_per_s {
        (b, a)
    } else {
        (a, b)
    };
    let mut ratios: Vec<f64> = fast
        .slope_replicates
        .iter()
        .zip(&slow.slope_replicates)
        .map(|(f, s)| s / f)
        .collect();
    let ratio_interval = interval_of(&mut ratios).unwrap_or(Interval {
        low: f64::NAN,
        high: f64::NAN,
    });
    PrefillComparison {
        faster: match distinction {
            Distinction::ABetter => Some(a.target),
            Distinction::BBetter => Some(b.target),
            Distinction::NotDistinguishable => None,
        },
        higher: fast.target,
        slower: slow.target,
        ratio: fast.rate_tokens_per_s / slow.rate_tokens_per_s,
        ratio_interval,
    }
}

/// What a repeated prompt saves at one size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CacheSaving {
    /// Index of the target in the plan.
    pub target: u32,
    /// The requested size, tokens.
    pub size: u32,
    /// Pairs where the first send and its repeat both succeeded.
    pub pairs: usize,
    /// Median of (first send − repeat) TTFT, ms: positive when the repeat
    /// starts sooner.
    pub saving_ms: f64,
    /// 95 % order-statistic interval of the saving, ms.
    pub interval: Interval,
    /// Median cached tokens the provider reported on the repeats, when it
    /// reported any.
    pub cached_tokens: Option<f64>,
}

impl CacheSaving {
    /// Whether the interval is clear of 0: a cache effect in either
    /// direction.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn has_effect(&self) -> bool {
        self.interval.low > 0.0 || self.interval.high < 0.0
    }
}

/// Pairs needed for a saving to be reported.
pub const MIN_CACHE_PAIRS: usize = 5;

/// The cache savings of `target`, by size ascending: one per size with
/// cache-probe repeats and at least [`MIN_CACHE_PAIRS`] good pairs.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn cache_savings(samples: &[Sample], target: u32) -> Vec<CacheSaving> {
    let good =
        |s: &&Sample| s.target == target && !s.warmup && s.error.is_none() && s.ttft_ms.is_some();
    let mut by_size: Vec<(u32, Vec<f64>, Vec<f64>)> = Vec::new();
    for repeat in samples.iter().filter(good) {
        let Some(sized) = repeat.sized_prompt else {
            continue;
        };
        let Some(first_seq) = sized.repeat_of else {
            continue;
        };
        let Some(first) = samples
            .iter()
            .filter(good)
            .find(|s| s.seq == first_seq && s.sized_prompt.is_some_and(|p| p.repeat_of.is_none()))
        else {
            continue;
        };
        let (Some(a), Some(b)) = (first.ttft_ms, repeat.ttft_ms) else {
            continue;
        };
        let cached = repeat.cached_tokens.map(f64::from);
        // Sizes in ascending order as they come, as in `size_points`.
        match by_size.binary_search_by_key(&sized.tokens, |(size, _, _)| *size) {
            Ok(at) => {
                let (_, diffs, caches) = &mut by_size[at];
                diffs.push(a - b);
                caches.extend(cached);
            }
            Err(at) => by_size.insert(
                at,
                (sized.tokens, vec![a - b], cached.into_iter().collect()),
            ),
        }
    }
    by_size
        .into_iter()
        .filter(|(_, diffs, _)| diffs.len() >= MIN_CACHE_PAIRS)
        .map(|(size, mut diffs, mut caches)| {
            let saving = median(&mut diffs);
            // The distribution-free interval of the median of the paired
            // differences (the binomial ranks of `quantile`): exact
            // coverage at any n, and it needs no seed.
            let (low, high) = order_statistic_ranks(diffs.len(), 0.5);
            let interval = Interval {
                low: low.map_or(f64::NEG_INFINITY, |rank| diffs[rank - 1]),
                high: high.map_or(f64::INFINITY, |rank| diffs[rank - 1]),
            };
            CacheSaving {
                target,
                size,
                pairs: diffs.len(),
                saving_ms: saving,
                interval,
                cached_tokens: (!caches.is_empty()).then(|| median(&mut caches)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
