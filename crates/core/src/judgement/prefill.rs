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
//! rule of [`crate::judgement::slow`] applied within each size (a 32 768-token prompt
//! is not a cold start for taking longer than a 128-token one): requests
//! over [`crate::judgement::slow::SLOW_MULTIPLE`] × the size's warm reference are not
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

use crate::base::order::{sort_by_first, sort_numbers};
use crate::judgement::slow::warm_reference;
use crate::statistics::bootstrap::{DEFAULT_RESAMPLES, Distinction, Interval, draw_index};
use crate::statistics::quantile::order_statistic_ranks;
use crate::statistics::stats::percentile;
use crate::wire::sample::Sample;

/// A size needs at least this many warm requests to enter the fit.
pub const MIN_PER_SIZE: usize = 3;

/// From this many requests a size also judges its slow requests by its own
/// spread (see [`size_groups`]): below it a quartile rests on one or two
/// requests.
const FENCE_MIN_REQUESTS: usize = 8;

/// How many interquartile ranges above the upper quartile a request of one
/// size may lie and still be warm (Tukey's far fence).
const FENCE_IQRS: f64 = 3.0;

/// One size's point in the fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SizePoint {
    /// The requested size, tokens.
    pub size: u32,
    /// Median of the input-token counts of the warm requests: the
    /// provider's, or the requested size when they are estimated.
    pub input_tokens: f64,
    /// Median TTFT of the warm requests, ms.
    pub ttft_ms: f64,
    /// 95 % bootstrap interval of that median, ms.
    pub interval: Interval,
    /// Warm requests fitted.
    pub warm: usize,
    /// Requests judged slow within the size, left out of the fit.
    pub slow: usize,
}

/// A size whose median TTFT lies off the fitted line beyond both
/// intervals: the line does not describe TTFT there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OffLine {
    /// The requested size, tokens.
    pub size: u32,
    /// The size's median TTFT, ms.
    pub median_ms: f64,
    /// The line's TTFT at the size's input count, ms.
    pub line_ms: f64,
}

/// A target's prefill fit: TTFT ≈ `fixed_ms` + input tokens ÷ rate.
#[derive(Clone, Debug, PartialEq)]
pub struct PrefillFit {
    /// Index of the target in the plan.
    pub target: u32,
    /// The fixed part, ms: what TTFT would be with an empty prompt. Below
    /// zero when the line, carried back to an empty prompt, passes under
    /// it; no time is then said (see [`PrefillFit::fixed_is_time`]).
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
    /// Sizes whose median leaves the line beyond both intervals, by size
    /// ascending: empty when the line fits.
    pub off_line: Vec<OffLine>,
    /// The input counts are the synthetic prompt's own (the provider
    /// reported none), not the provider's.
    pub estimated_tokens: bool,
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

    /// Whether TTFT grows with the prompt beyond doubt: the slope's
    /// interval is clear of 0 (so the rate's is bounded). Without it no
    /// ratio of speeds is said.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn shows_growth(&self) -> bool {
        self.rate_interval.high.is_finite() && self.rate_interval.low > 0.0
    }

    /// Whether the per-size medians stay on the line within their
    /// intervals.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn fits_line(&self) -> bool {
        self.off_line.is_empty()
    }

    /// Whether the fixed part can be said as a time: its estimate is not
    /// below zero. A negative one means the line passes under an empty
    /// prompt's TTFT, which happens when TTFT grows faster at the long
    /// sizes than at the short ones.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn fixed_is_time(&self) -> bool {
        self.fixed_ms >= 0.0
    }
}

/// Every measured size of one target, with or without a line through
/// them: what a prediction between sizes reads.
#[derive(Clone, Debug, PartialEq)]
pub struct SizeMeasure {
    /// Index of the target in the plan.
    pub target: u32,
    /// The sizes with enough warm requests, by size ascending.
    pub points: Vec<SizePoint>,
    /// The input counts are the synthetic prompt's own (see
    /// [`PrefillFit::estimated_tokens`]).
    pub estimated_tokens: bool,
    /// Each resample's median TTFT of every point: `[resample][point]`,
    /// from the same resamples as the fit's replicates.
    pub median_replicates: Vec<Vec<f64>>,
    /// The line, when two sizes or more show a positive slope.
    pub fit: Option<PrefillFit>,
}

/// Where a TTFT predicted at a given size comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredictionSource {
    /// Read from the measured sizes: the size's own median, or the
    /// straight line between the two neighbouring sizes' medians.
    Sizes,
    /// Carried beyond the measured sizes by the prefill line, which fits.
    Line,
}

/// A TTFT predicted at one prompt size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    /// The size, input tokens.
    pub tokens: u32,
    /// The predicted TTFT, ms.
    pub ttft_ms: f64,
    /// Its 95 % bootstrap interval, ms.
    pub interval: Interval,
    /// Where it comes from.
    pub source: PredictionSource,
}

/// Why no TTFT can be predicted at a size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoPrediction {
    /// No size has [`MIN_PER_SIZE`] warm requests.
    NothingMeasured,
    /// A measured size the reading leans on has no ranked request (every
    /// request refused as over the context window, or none sent yet).
    SizeUnanswered,
    /// The size lies outside the measured ones and no line may carry the
    /// figures there.
    Outside {
        /// The smallest measured size, tokens.
        smallest: u32,
        /// The largest measured size, tokens.
        largest: u32,
        /// Why the line cannot.
        line: LineProblem,
    },
}

/// Why a line cannot carry TTFT beyond the measured sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineProblem {
    /// Only one size was measured.
    OneSize,
    /// TTFT does not grow with the prompt beyond doubt: the line has no
    /// positive slope, or its slope's interval reaches 0.
    NoGrowth,
    /// The per-size medians leave the line.
    NotStraight,
}

impl SizeMeasure {
    /// The TTFT at `tokens` input tokens: between the measured sizes read
    /// from them (the size's median, or the straight line between the two
    /// neighbours' medians, each resample's likewise for the interval);
    /// beyond them from the prefill line, only when it fits and shows
    /// growth.
    ///
    /// Between sizes the neighbours are used rather than the line, so a
    /// TTFT that grows faster than a straight line (attention's cost at
    /// long prompts) is not predicted from a line the medians leave. The
    /// sizes are the requested ones, as `typical_prompt_tokens` is.
    ///
    /// # Errors
    ///
    /// [`NoPrediction`] says why there is none.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn predict(&self, tokens: u32) -> Result<Prediction, NoPrediction> {
        let (Some(first), Some(last)) = (self.points.first(), self.points.last()) else {
            return Err(NoPrediction::NothingMeasured);
        };
        if (first.size..=last.size).contains(&tokens) {
            let above = self.points.partition_point(|p| p.size < tokens);
            let (low, high, weight) = if self.points[above].size == tokens {
                (above, above, 0.0)
            } else {
                let (below, over) = (&self.points[above - 1], &self.points[above]);
                let weight = f64::from(tokens - below.size) / f64::from(over.size - below.size);
                (above - 1, above, weight)
            };
            let between = |a: f64, b: f64| a + (b - a) * weight;
            let mut replicates: Vec<f64> = self
                .median_replicates
                .iter()
                .map(|medians| between(medians[low], medians[high]))
                .collect();
            let interval = interval_of(&mut replicates).ok_or(NoPrediction::NothingMeasured)?;
            return Ok(Prediction {
                tokens,
                ttft_ms: between(self.points[low].ttft_ms, self.points[high].ttft_ms),
                interval,
                source: PredictionSource::Sizes,
            });
        }
        let outside = |line| NoPrediction::Outside {
            smallest: first.size,
            largest: last.size,
            line,
        };
        let fit = match &self.fit {
            Some(fit) if !fit.shows_growth() => return Err(outside(LineProblem::NoGrowth)),
            Some(fit) if fit.fits_line() => fit,
            Some(_) => return Err(outside(LineProblem::NotStraight)),
            None if self.points.len() < 2 => return Err(outside(LineProblem::OneSize)),
            None => return Err(outside(LineProblem::NoGrowth)),
        };
        let at = f64::from(tokens);
        Ok(Prediction {
            tokens,
            ttft_ms: fit.ttft_at_ms(at),
            interval: fit
                .ttft_at_interval(at)
                .ok_or(outside(LineProblem::NoGrowth))?,
            source: PredictionSource::Line,
        })
    }
}

/// One size's warm points: (requested size, warm (input tokens, TTFT ms)
/// pairs, requests left out as slow).
pub(crate) type SizeGroup = (u32, Vec<(f64, f64)>, usize);

/// The warm points of one target, from its measured first sends, and
/// whether their input counts are estimated: when the provider reported
/// no input count on any of them (llama.cpp's OpenAI-compatible server
/// streams no usage), the synthetic prompt's own size stands in, which
/// `prompt` makes to the token by [`crate::planning::prompt::count_tokens`].
/// Otherwise only requests with the provider's count enter.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn size_points(samples: &[Sample], target: u32) -> (Vec<SizeGroup>, bool) {
    let first_sends = || {
        samples.iter().filter_map(move |sample| {
            let sized = sample.sized_prompt?;
            if sample.target != target
                || sample.warmup
                || sample.is_probe()
                || sized.repeat_of.is_some()
                || sample.error.is_some()
            {
                return None;
            }
            Some((sized.tokens, sample.input_tokens, sample.ttft_ms?))
        })
    };
    // Estimated only when there is something to estimate and the
    // provider counted none of it.
    let estimated =
        first_sends().next().is_some() && first_sends().all(|(_, input, _)| input.is_none());
    let groups = size_groups(first_sends().filter_map(|(tokens, input, ttft)| {
        let input = if estimated { Some(tokens) } else { input };
        Some((tokens, f64::from(input?), ttft))
    }));
    (groups, estimated)
}

/// The warm points of measured first sends given as (requested size,
/// input tokens, TTFT ms): grouped by size ascending, each size's slow
/// requests left out, sizes with fewer than [`MIN_PER_SIZE`] warm
/// requests dropped. The caller has already left out warm-ups, cache-probe
/// repeats, probes and errors.
///
/// Slow is judged within each size, by two rules of the size's own: over
/// [`crate::judgement::slow::SLOW_MULTIPLE`] × the size's warm reference (a
/// 32 768-token prompt is not a cold start for taking longer than a
/// 128-token one), and, from 8 requests (`FENCE_MIN_REQUESTS`), beyond
/// Tukey's far fence (upper quartile + 3 × the interquartile range). The
/// second is needed at long prompts: a cold start of 3 s on a 5 s prefill
/// stays under 3 × the median, yet lies far outside the size's spread and
/// would pull its median, and the rate, with it.
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
            let mut threshold = crate::judgement::slow::SLOW_MULTIPLE * reference;
            if ttfts.len() >= FENCE_MIN_REQUESTS
                && let (Some(q1), Some(q3)) = (percentile(&ttfts, 25.0), percentile(&ttfts, 75.0))
            {
                threshold = threshold.min(q3 + FENCE_IQRS * (q3 - q1));
            }
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
pub(crate) fn median(values: &mut [f64]) -> f64 {
    sort_numbers(values);
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

/// The (median input count, median TTFT) of each group.
#[cfg_attr(target_arch = "wasm32", inline)]
fn centres(groups: &[Vec<(f64, f64)>]) -> Vec<(f64, f64)> {
    groups
        .iter()
        .map(|group| {
            let mut xs: Vec<f64> = group.iter().map(|p| p.0).collect();
            let mut ys: Vec<f64> = group.iter().map(|p| p.1).collect();
            (median(&mut xs), median(&mut ys))
        })
        .collect()
}

/// SplitMix64's finaliser: neighbouring inputs give unrelated outputs.
#[cfg_attr(target_arch = "wasm32", inline)]
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of one size's bootstrap stream for one target: the run's
/// seed, the target, the size and the size's own requests, mixed. Every
/// target and every size draws from a stream of its own, for two reasons
/// measured in `tests::prefill_coverage_by_position`:
///
/// - The page and the runner use one fixed seed. Seeded by it alone, a
///   target's resamples picked the same ranks of its sorted requests in
///   every file, so one position's interval was narrower than another's
///   in most files, and covered less. The requests' own bits make each
///   file's resamples a fresh draw, still the same on every load.
/// - An `xor` of the index into the seed left the first target's stream
///   the seed's own, which a caller may also have used to make the data.
#[cfg_attr(target_arch = "wasm32", inline)]
fn stream_seed(seed: u64, target: u32, size: u32, warm: &[(f64, f64)]) -> u64 {
    let data = warm
        .iter()
        .fold(mix(u64::from(size)), |acc, (input, ttft)| {
            mix(acc ^ ttft.to_bits()) ^ input.to_bits()
        });
    mix(mix(seed) ^ mix(u64::from(target) << 32 | u64::from(size)) ^ data)
}

/// The prefill fit of `target` over `samples`, with `DEFAULT_RESAMPLES`
/// bootstrap resamples seeded by `seed`; `None` with fewer than two sizes
/// of [`MIN_PER_SIZE`] warm requests, or a fitted slope that is not
/// positive (TTFT that does not grow with the prompt has no prefill rate).
///
/// Cost: O(resamples × requests × log) time.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn prefill_fit(samples: &[Sample], target: u32, seed: u64) -> Option<PrefillFit> {
    prefill_measure(samples, target, seed)?.fit
}

/// Every measured size of `target` over `samples`, and the line through
/// them when there is one, with `DEFAULT_RESAMPLES` resamples seeded by
/// `seed`; `None` when no size has [`MIN_PER_SIZE`] warm requests.
///
/// Cost: O(resamples × requests × log) time.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn prefill_measure(samples: &[Sample], target: u32, seed: u64) -> Option<SizeMeasure> {
    let (sizes, estimated) = size_points(samples, target);
    measure_sizes(&sizes, target, seed, DEFAULT_RESAMPLES, estimated)
}

/// The prefill fit through the warm points of [`size_groups`] (with the
/// provider's input counts), labelled `target`, with `resamples`
/// bootstrap resamples seeded by `seed`; `None` as for [`prefill_fit`].
///
/// Cost: O(resamples × requests × log) time.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn fit_sizes(
    sizes: &[SizeGroup],
    target: u32,
    seed: u64,
    resamples: usize,
) -> Option<PrefillFit> {
    measure_sizes(sizes, target, seed, resamples, false)?.fit
}

/// The sizes of [`size_groups`] measured, resampled and fitted: the
/// bootstrap resamples requests within each size (the sizes rotate over
/// the same rounds, so each is a stratum of the run), each size from its
/// own stream ([`stream_seed`]); every resample yields each size's median
/// and, with two sizes or more, a line.
///
/// Cost: O(resamples × requests × log) time.
#[cfg_attr(target_arch = "wasm32", inline)]
fn measure_sizes(
    sizes: &[SizeGroup],
    target: u32,
    seed: u64,
    resamples: usize,
    estimated_tokens: bool,
) -> Option<SizeMeasure> {
    if sizes.is_empty() {
        return None;
    }
    let groups: Vec<Vec<(f64, f64)>> = sizes.iter().map(|(_, warm, _)| warm.clone()).collect();
    let mut streams: Vec<fastrand::Rng> = sizes
        .iter()
        .map(|(size, warm, _)| fastrand::Rng::with_seed(stream_seed(seed, target, *size, warm)))
        .collect();
    let mut slopes = Vec::with_capacity(resamples);
    let mut fixeds = Vec::with_capacity(resamples);
    let mut median_replicates = Vec::with_capacity(resamples);
    let mut resample: Vec<Vec<(f64, f64)>> = groups.clone();
    for _ in 0..resamples {
        for ((into, group), rng) in resample.iter_mut().zip(&groups).zip(&mut streams) {
            for slot in into.iter_mut() {
                *slot = group[draw_index(rng, group.len())];
            }
        }
        let centres = centres(&resample);
        median_replicates.push(centres.iter().map(|c| c.1).collect::<Vec<f64>>());
        if let Some((s, f)) = weighted_theil_sen(&centres) {
            slopes.push(s);
            fixeds.push(f);
        }
    }
    let points: Vec<SizePoint> = sizes
        .iter()
        .zip(centres(&groups))
        .enumerate()
        .map(|(index, ((size, warm, slow), (input_tokens, ttft_ms)))| {
            let mut at: Vec<f64> = median_replicates.iter().map(|m| m[index]).collect();
            SizePoint {
                size: *size,
                input_tokens,
                ttft_ms,
                interval: interval_of(&mut at).unwrap_or(Interval {
                    low: ttft_ms,
                    high: ttft_ms,
                }),
                warm: warm.len(),
                slow: *slow,
            }
        })
        .collect();
    let fit = line(&points, target, slopes, fixeds, estimated_tokens);
    Some(SizeMeasure {
        target,
        points,
        estimated_tokens,
        median_replicates,
        fit,
    })
}

/// The line through `points` with its replicates; `None` with fewer than
/// two sizes or a slope that is not positive.
#[cfg_attr(target_arch = "wasm32", inline)]
fn line(
    points: &[SizePoint],
    target: u32,
    slopes: Vec<f64>,
    fixeds: Vec<f64>,
    estimated_tokens: bool,
) -> Option<PrefillFit> {
    if points.len() < 2 {
        return None;
    }
    let centres: Vec<(f64, f64)> = points.iter().map(|p| (p.input_tokens, p.ttft_ms)).collect();
    let (slope, fixed) = weighted_theil_sen(&centres)?;
    if slope.is_nan() || slope <= 0.0 {
        return None;
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
    let mut fit = PrefillFit {
        target,
        fixed_ms: fixed,
        fixed_interval,
        rate_tokens_per_s: rate(slope),
        rate_interval: Interval {
            low: rate(slope_interval.high),
            high: rate(slope_interval.low),
        },
        points: points.to_vec(),
        off_line: Vec::new(),
        estimated_tokens,
        slope_replicates: slopes,
        fixed_replicates: fixeds,
    };
    // The lack-of-fit check: a size whose median's interval and the
    // line's interval at that size are apart. Two 95 % intervals apart is
    // a strict test (about 1 in 200 for one size when the line holds), so
    // noise over a handful of sizes seldom raises it; a curve the medians
    // follow raises it at once.
    fit.off_line = points
        .iter()
        .filter_map(|point| {
            let line_ms = fit.ttft_at_ms(point.input_tokens);
            let band = fit.ttft_at_interval(point.input_tokens)?;
            (!band.overlaps(&point.interval)).then_some(OffLine {
                size: point.size,
                median_ms: point.ttft_ms,
                line_ms,
            })
        })
        .collect();
    Some(fit)
}

/// The 2.5th and 97.5th percentiles of `values`.
#[cfg_attr(target_arch = "wasm32", inline)]
fn interval_of(values: &mut [f64]) -> Option<Interval> {
    sort_numbers(values);
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
    /// 95 % interval of the ratio, from paired bootstrap replicates; both
    /// ends positive.
    pub ratio_interval: Interval,
}

/// Compares `a` and `b` on prefill rate, ties admitted: a winner only when
/// the rate intervals are apart. `None` when either does not show growth
/// ([`PrefillFit::shows_growth`]): a ratio of speeds needs two speeds, and
/// a slope that may be 0 or below makes the ratio's replicates cross zero.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn compare_prefill(a: &PrefillFit, b: &PrefillFit) -> Option<PrefillComparison> {
    if !a.shows_growth() || !b.shows_growth() {
        return None;
    }
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
    // Both slopes' intervals are clear of 0, yet a replicate beyond them
    // may not be: the ratio is taken over the pairs where both slopes are
    // positive, so that no end of its interval is negative.
    let mut ratios: Vec<f64> = fast
        .slope_replicates
        .iter()
        .zip(&slow.slope_replicates)
        .filter(|(f, s)| **f > 0.0 && **s > 0.0)
        .map(|(f, s)| s / f)
        .collect();
    let ratio_interval = interval_of(&mut ratios)?;
    Some(PrefillComparison {
        faster: match distinction {
            Distinction::ABetter => Some(a.target),
            Distinction::BBetter => Some(b.target),
            Distinction::NotDistinguishable => None,
        },
        higher: fast.target,
        slower: slow.target,
        ratio: fast.rate_tokens_per_s / slow.rate_tokens_per_s,
        ratio_interval,
    })
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
    /// Of the pairs' first sends that reported cached tokens, how many
    /// were served from the cache themselves: `(hits, reported)`. With
    /// most first sends hits (no `nonce`, a fixed prompt), first send and
    /// repeat are alike, and "no cache effect" would deny the hits.
    pub first_sends_cached: (usize, usize),
}

impl CacheSaving {
    /// Most first sends were cache hits themselves: the pairs compare a
    /// cached prompt with a cached prompt.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn first_sends_mostly_cached(&self) -> bool {
        let (hits, reported) = self.first_sends_cached;
        reported > 0 && hits * 2 > reported
    }
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
    // Per size: the paired differences, the repeats' cached tokens, and
    // (hits, reported) of the first sends.
    type BySize = (u32, Vec<f64>, Vec<f64>, (usize, usize));
    let mut by_size: Vec<BySize> = Vec::new();
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
        let first_hit = first.cached_tokens.map(|tokens| tokens > 0);
        let count = |(hits, reported): (usize, usize)| match first_hit {
            Some(hit) => (hits + usize::from(hit), reported + 1),
            None => (hits, reported),
        };
        // Sizes in ascending order as they come, as in `size_points`.
        match by_size.binary_search_by_key(&sized.tokens, |(size, ..)| *size) {
            Ok(at) => {
                let (_, diffs, caches, firsts) = &mut by_size[at];
                diffs.push(a - b);
                caches.extend(cached);
                *firsts = count(*firsts);
            }
            Err(at) => by_size.insert(
                at,
                (
                    sized.tokens,
                    vec![a - b],
                    cached.into_iter().collect(),
                    count((0, 0)),
                ),
            ),
        }
    }
    by_size
        .into_iter()
        .filter(|(_, diffs, ..)| diffs.len() >= MIN_CACHE_PAIRS)
        .map(|(size, mut diffs, mut caches, first_sends_cached)| {
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
                first_sends_cached,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
