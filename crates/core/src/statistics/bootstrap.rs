//! Percentile-bootstrap confidence intervals for the median, the p95 and
//! the CV of one target's TTFT, so that "A beats B" is said only when the
//! samples support it.
//!
//! Samples spread over hours, or serially correlated, are resampled in
//! contiguous blocks rather than one by one ([`time_aware_intervals`]; the
//! rule is in [`crate::statistics::dependence`]).
//!
//! Seeded and reproducible: the same samples and seed give the same
//! intervals on every machine, so an exported result can be re-checked.
//!
//! Each resample is drawn as *counts* over the already sorted values rather
//! than as a new array that would have to be sorted: drawing n indices,
//! counting them, and walking the counts finds any order statistic in O(n),
//! where sorting would cost O(n log n); the same walk over the counts gives
//! the resample's mean and variance. B = 400 resamples of ~800 values take
//! about 0.6 ms natively (see `benches/report.rs`).

use crate::base::order::{sort_by_first, sort_numbers};
use crate::statistics::dependence::{Resampling, choose_resampling};
use crate::statistics::quantile::{batch_means_interval, order_statistic_interval};
use crate::statistics::stats::{cv_pct, lerp, percentile};

/// Default number of resamples.
///
/// With B = 400 each end of a 95 % interval rests on the 10 most extreme
/// resamples, so an endpoint moves by a few percent of the interval's width
/// from seed to seed — small next to the width itself, and harmless for a
/// rule that only says "better" when two intervals do not overlap at all.
/// Doubling B would halve that wobble's variance but double the cost, and
/// the whole report (12 targets × ~830 samples) must re-render in well
/// under 50 ms in the page.
pub const DEFAULT_RESAMPLES: usize = 400;

/// The most resamples of the CV's bootstrap a report draws: at B = 2 000
/// each end of the 95 % interval rests on the 50 most extreme resamples,
/// so it moves little from seed to seed.
pub const EXPORT_RESAMPLES: usize = 2000;

/// Resampled values a report's CV bootstraps may draw in all: what keeps
/// the page's re-render of a 10 000-request file within its budget.
const REPORT_DRAWS: usize = 2_000_000;

/// The resamples of the CV's bootstrap for a report of a file of
/// `samples` samples: [`EXPORT_RESAMPLES`] up to 1 000 samples, then
/// fewer, as many as 2 000 000 draws (`REPORT_DRAWS`) allow, never below
/// [`DEFAULT_RESAMPLES`].
///
/// One rule, read from the file alone, for every surface: the page, the
/// terminal, the HTML report and the exported summary make the same
/// intervals from the same file, so a sentence that chooses its words by
/// whether two intervals overlap says the same on each (the page drew 400
/// resamples and the runner 2 000, and the two could word one file
/// differently).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn report_resamples(samples: usize) -> usize {
    (REPORT_DRAWS / samples.max(1)).clamp(DEFAULT_RESAMPLES, EXPORT_RESAMPLES)
}

/// Confidence level of the intervals, in percent.
pub(crate) const CONFIDENCE_PCT: f64 = 95.0;

pub use crate::statistics::quantile::Interval;

/// 95 % intervals for one target's TTFT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Intervals {
    /// Median TTFT, ms.
    pub median_ms: Interval,
    /// p95 TTFT, ms.
    pub p95_ms: Interval,
    /// CV of TTFT, percent.
    pub cv_pct: Interval,
    /// How many resamples they rest on.
    pub resamples: usize,
    /// Single samples or blocks of consecutive ones.
    pub method: Resampling,
}

/// 95 % intervals for ranked TTFTs `ttft_in_send_order` (finite, in the
/// order the requests were sent) that were sent over `span_ms`, values at
/// or above `censored_at_ms` being censored timeouts.
///
/// When [`choose_resampling`] finds the requests independent, the median
/// and p95 get distribution-free order-statistic intervals
/// ([`crate::statistics::quantile::order_statistic_interval`]) and the CV a bootstrap
/// of single requests; otherwise the median and p95 get batch-means
/// intervals over batches of the chosen block length
/// ([`crate::statistics::quantile::batch_means_interval`]) and the CV a moving-block
/// bootstrap. A p95 from fewer than 72 independent requests has no finite
/// upper end (`high` is ∞).
///
/// Returns `None` when there is no value or `resamples` is 0.
/// Cost: O(resamples × n + n log n) time, O(n) memory.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn time_aware_intervals(
    ttft_in_send_order: &[f64],
    span_ms: f64,
    resamples: usize,
    seed: u64,
    censored_at_ms: Option<f64>,
) -> Option<Intervals> {
    let mut sorted = ttft_in_send_order.to_vec();
    sort_numbers(&mut sorted);
    let method = choose_resampling(ttft_in_send_order, span_ms);
    let mut intervals = match method {
        Resampling::Iid => bootstrap_intervals(&sorted, resamples, seed),
        Resampling::Block { length } => {
            block_bootstrap_intervals(ttft_in_send_order, length, resamples, seed)
        }
    }?;
    let (median, p95) = quantile_intervals(ttft_in_send_order, &sorted, method, censored_at_ms)?;
    intervals.median_ms = median;
    intervals.p95_ms = p95;
    Some(intervals)
}

/// The median and p95 intervals of [`time_aware_intervals`], without the
/// CV's bootstrap: order statistics for [`Resampling::Iid`], batch means
/// over blocks of the given length otherwise. `sorted` holds the values
/// of `in_send_order` ascending. Cost: O(n).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn quantile_intervals(
    in_send_order: &[f64],
    sorted: &[f64],
    method: Resampling,
    censored_at_ms: Option<f64>,
) -> Option<(Interval, Interval)> {
    let quantile = |p: f64| match method {
        Resampling::Iid => order_statistic_interval(sorted, p, censored_at_ms),
        Resampling::Block { length } => {
            batch_means_interval(in_send_order, sorted, p, length, censored_at_ms)
        }
    };
    Some((quantile(0.5)?, quantile(0.95)?))
}

/// Moving-block bootstrap 95 % intervals: each resample is ⌈n / `length`⌉
/// blocks of `length` consecutive values of `in_send_order`, each starting
/// at a uniformly drawn position, the last one cut so the resample has n
/// values. `length` is clamped to 1…n.
///
/// Returns `None` when there is no value or `resamples` is 0.
/// Cost: O(resamples × n + n log n) time, O(n) memory.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn block_bootstrap_intervals(
    in_send_order: &[f64],
    length: usize,
    resamples: usize,
    seed: u64,
) -> Option<Intervals> {
    let n = in_send_order.len();
    if n == 0 {
        return None;
    }
    let length = length.clamp(1, n);
    // Resamples are counted over the sorted values, as for single draws:
    // each position in send order knows its rank in sorted order.
    // (value, position) pairs, sorted stably by value so that equal values
    // keep their send order; positions are exact as f64 (n < 2^53). Pairs
    // go through the page's one sort of pairs, `sort_by_first`.
    let mut by_value: Vec<(f64, f64)> = in_send_order
        .iter()
        .enumerate()
        .map(|(position, &value)| (value, position as f64))
        .collect();
    sort_by_first(&mut by_value);
    let sorted: Vec<f64> = by_value.iter().map(|pair| pair.0).collect();
    let mut rank_of = vec![0usize; n];
    for (rank, &(_, position)) in by_value.iter().enumerate() {
        rank_of[position as usize] = rank;
    }
    let starts = n - length + 1;
    resample_intervals(
        &sorted,
        resamples,
        seed,
        Resampling::Block { length },
        |rng, counts| {
            let mut drawn = 0;
            while drawn < n {
                let start = draw_index(rng, starts);
                let take = length.min(n - drawn);
                for &rank in &rank_of[start..start + take] {
                    counts[rank] += 1;
                }
                drawn += take;
            }
        },
    )
}

/// Percentile-bootstrap 95 % intervals for the median, p95 and CV% of
/// `sorted` (ascending, finite), from `resamples` resamples drawn with a
/// PRNG seeded by `seed`.
///
/// Returns `None` when `sorted` is empty or `resamples` is 0.
/// Cost: O(resamples × n) time, O(n) memory.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn bootstrap_intervals(sorted: &[f64], resamples: usize, seed: u64) -> Option<Intervals> {
    let n_u64 = sorted.len() as u64;
    resample_intervals(sorted, resamples, seed, Resampling::Iid, |rng, counts| {
        draw_counts(rng, counts, n_u64);
    })
}

/// The bootstrap proper: `draw` fills the counts of one resample over
/// `sorted` (they sum to n); the statistics are read from the counts.
#[cfg_attr(target_arch = "wasm32", inline)]
fn resample_intervals(
    sorted: &[f64],
    resamples: usize,
    seed: u64,
    method: Resampling,
    mut draw: impl FnMut(&mut fastrand::Rng, &mut [u32]),
) -> Option<Intervals> {
    let n = sorted.len();
    if n == 0 || resamples == 0 {
        return None;
    }
    let mut rng = fastrand::Rng::with_seed(seed);
    // Deviations are taken from the original mean so that the one-pass
    // variance below does not cancel on tightly clustered timings.
    let centre = sorted.iter().sum::<f64>() / n as f64;
    let median_at = RankPair::new(n, 50.0);
    let p95_at = RankPair::new(n, 95.0);
    // The counts are walked once, so the ranks are visited in ascending
    // order; `slot` maps each wanted rank to its place in that order (for
    // n = 2 the p95's low rank precedes the median's high rank).
    let wanted = [median_at.low, median_at.high, p95_at.low, p95_at.high];
    // Four ranks in place by insertion: a call of the standard sort on
    // usize would put a copy of it in the page for this alone.
    let mut ranks = wanted;
    for i in 1..ranks.len() {
        let mut j = i;
        while j > 0 && ranks[j - 1] > ranks[j] {
            ranks.swap(j - 1, j);
            j -= 1;
        }
    }
    let slot = wanted.map(|rank| ranks.iter().position(|&r| r == rank).unwrap_or(0));

    let mut counts = vec![0u32; n];
    let mut medians = Vec::with_capacity(resamples);
    let mut p95s = Vec::with_capacity(resamples);
    let mut cvs = Vec::with_capacity(resamples);
    let deviations: Vec<f64> = sorted.iter().map(|v| v - centre).collect();
    for _ in 0..resamples {
        counts.fill(0);
        draw(&mut rng, &mut counts);
        let picked = order_statistics(&counts, sorted, ranks);
        let at = |i: usize| picked[slot[i]];
        medians.push(lerp(at(0), at(1), median_at.fraction));
        p95s.push(lerp(at(2), at(3), p95_at.fraction));
        // Mean and variance from the counts: one sequential pass, cheaper
        // than accumulating inside the random-access draw loop.
        let (mut sum, mut squares) = (0.0, 0.0);
        for (&count, &deviation) in counts.iter().zip(&deviations) {
            let weight = f64::from(count);
            sum += weight * deviation;
            squares += weight * deviation * deviation;
        }
        let mean = centre + sum / n as f64;
        let variance = if n > 1 {
            ((squares - sum * sum / n as f64) / (n - 1) as f64).max(0.0)
        } else {
            0.0
        };
        cvs.push(cv_pct(variance.sqrt(), mean));
    }
    let widen = match method {
        Resampling::Iid => 1.0,
        Resampling::Block { length } => few_units_widening(n / length),
    };
    let summary = crate::statistics::stats::summarize_sorted(sorted)?;
    Some(Intervals {
        median_ms: interval_of(&mut medians)?.widened(summary.median, widen),
        p95_ms: interval_of(&mut p95s)?.widened(summary.p95, widen),
        cv_pct: interval_of(&mut cvs)?.widened(summary.cv_pct, widen),
        resamples,
        method,
    })
}

/// An index drawn uniformly from `0..len` (`len` > 0), the same on every
/// platform for the same generator state.
///
/// fastrand's `usize` draws 32 bits where usize is 32 bits (the page's
/// wasm32) and 64 where it is 64 (the runner), so the same seed picked
/// other resamples in the page than in `firsttoken report`, and the two
/// printed different intervals for the same file (a prefill rate's
/// 5 830–6 150 tokens/s against 5 810–6 160). Every resampling draw in
/// core goes through here; natively it is the very draw `usize` made, so
/// the runner's figures did not move.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn draw_index(rng: &mut fastrand::Rng, len: usize) -> usize {
    rng.u64(..len as u64) as usize
}

/// Draw `n` indices uniformly from `0..n` and count them (`n` below 2³²,
/// always true for a slice of samples in the page, where usize is 32 bits). Each 64-bit
/// random number yields two indices by Lemire's multiply-shift on its
/// 32-bit halves, halving the generator calls; the bias of a 32-bit
/// reduction is below n / 2³² (under 10⁻⁵ for a million samples), far
/// beneath the bootstrap's own Monte Carlo error.
#[cfg_attr(target_arch = "wasm32", inline)]
fn draw_counts(rng: &mut fastrand::Rng, counts: &mut [u32], n: u64) {
    let index = |half: u64| ((half * n) >> 32) as usize;
    let pairs = counts.len() / 2;
    for _ in 0..pairs {
        let bits = rng.u64(..);
        counts[index(bits & 0xFFFF_FFFF)] += 1;
        counts[index(bits >> 32)] += 1;
    }
    if counts.len() % 2 == 1 {
        counts[index(rng.u64(..) >> 32)] += 1;
    }
}

/// The two closest ranks and the interpolation fraction of a percentile,
/// matching [`percentile`].
struct RankPair {
    low: usize,
    high: usize,
    fraction: f64,
}

impl RankPair {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn new(n: usize, p: f64) -> Self {
        let last = n - 1;
        let rank = p / 100.0 * last as f64;
        let low = (rank.floor() as usize).min(last);
        Self {
            low,
            high: (low + 1).min(last),
            fraction: rank - low as f64,
        }
    }
}

/// The values at the given ascending 0-based ranks of the resample that
/// `counts` describes over `sorted`.
#[cfg_attr(target_arch = "wasm32", inline)]
fn order_statistics(counts: &[u32], sorted: &[f64], ranks: [usize; 4]) -> [f64; 4] {
    let mut picked = [0.0; 4];
    let mut next = 0;
    let mut seen = 0usize;
    for (&count, &value) in counts.iter().zip(sorted) {
        seen += count as usize;
        while next < ranks.len() && ranks[next] < seen {
            picked[next] = value;
            next += 1;
        }
        if next == ranks.len() {
            break;
        }
    }
    picked
}

/// How much wider than a normal-theory interval a Student-t one is when the
/// resample is made of `blocks` blocks: t₀.₉₇₅ with `blocks − 1` degrees of
/// freedom over z₀.₉₇₅ (the one t of [`crate::statistics::quantile::student_t_975`]).
/// A run carries about as much information as its number of blocks, and
/// the spread between a few units understates the spread of their mean as
/// it does in the method of batch means for correlated simulation output,
/// which uses the same t. 26 blocks: 1.051; 10: 1.15; 1 000: 1.001.
///
/// One block would give 0 degrees of freedom and an infinite t; the
/// widening of a zero-width interval by ∞ is NaN, so one block is widened
/// as two (t₁ = 12.706) and the interval stays a number.
#[cfg_attr(target_arch = "wasm32", inline)]
fn few_units_widening(blocks: usize) -> f64 {
    const Z: f64 = 1.959_963_984_540_054;
    crate::statistics::quantile::student_t_975(blocks.saturating_sub(1).max(1)) / Z
}

impl Interval {
    /// The interval with each end moved `factor` times as far from
    /// `estimate` (`factor` 1 leaves it as it is).
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn widened(self, estimate: f64, factor: f64) -> Self {
        Self {
            low: estimate - (estimate - self.low) * factor,
            high: estimate + (self.high - estimate) * factor,
        }
    }
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn interval_of(estimates: &mut [f64]) -> Option<Interval> {
    sort_numbers(estimates);
    let tail_pct = (100.0 - CONFIDENCE_PCT) / 2.0;
    Some(Interval {
        low: percentile(estimates, tail_pct)?,
        high: percentile(estimates, 100.0 - tail_pct)?,
    })
}

/// The outcome of comparing two targets on a lower-is-better statistic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distinction {
    /// A's interval lies wholly below B's.
    ABetter,
    /// B's interval lies wholly below A's.
    BBetter,
    /// The intervals overlap: these samples cannot tell them apart.
    NotDistinguishable,
}

impl Distinction {
    /// Compare two intervals of a statistic where lower is better (latency,
    /// p95, CV). Only non-overlapping intervals make a winner.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn lower_is_better(a: &Interval, b: &Interval) -> Self {
        if a.high < b.low {
            Self::ABetter
        } else if b.high < a.low {
            Self::BBetter
        } else {
            Self::NotDistinguishable
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::lang::Lang;
    use crate::statistics::stats::summarize_sorted;

    /// The page (wasm32) and the runner draw the same resamples from the
    /// same seed: every resampling draw in core's code goes through
    /// [`draw_index`], which draws 64 bits on every platform, never through
    /// fastrand's `usize`, whose draw follows the pointer width. Natively
    /// `draw_index` is the draw `usize` made, so the runner's figures stay.
    #[test]
    fn resampling_draws_are_the_same_on_every_platform() {
        let (mut a, mut b) = (fastrand::Rng::with_seed(9), fastrand::Rng::with_seed(9));
        for len in [1, 2, 7, 75, 1_000, 1 << 20] {
            for _ in 0..100 {
                assert_eq!(draw_index(&mut a, len), b.u64(..len as u64) as usize);
            }
        }
        // No code outside tests and simulations draws with `usize`: its
        // wasm32 draw differs from the native one.
        fn walk(dir: &std::path::Path, found: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, found);
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                // Test modules and test-only files are not in the page.
                let code = text.split("#[cfg(test)]").next().unwrap_or_default();
                let test_only = text.starts_with("#![cfg(test)]")
                    || text.contains("\n#![cfg(test)]")
                    || path.ends_with("tests.rs")
                    || path.components().any(|c| c.as_os_str() == "tests");
                if !test_only && code.contains(".usize(") {
                    found.push(path.display().to_string());
                }
            }
        }
        let mut found = Vec::new();
        walk(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut found,
        );
        assert!(
            found.is_empty(),
            "draws whose result follows the platform: {found:?}"
        );
    }

    fn lognormal(rng: &mut fastrand::Rng, median: f64, sigma: f64, n: usize) -> Vec<f64> {
        let mut values: Vec<f64> = (0..n)
            .map(|_| {
                let (u1, u2) = (1.0 - rng.f64(), rng.f64());
                let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                median * (sigma * z).exp()
            })
            .collect();
        crate::base::order::sort_numbers(&mut values);
        values
    }

    #[test]
    fn reproducible_and_contains_the_estimate() {
        let values = lognormal(&mut fastrand::Rng::with_seed(7), 400.0, 0.3, 200);
        let a = bootstrap_intervals(&values, DEFAULT_RESAMPLES, 42).unwrap();
        let b = bootstrap_intervals(&values, DEFAULT_RESAMPLES, 42).unwrap();
        assert_eq!(a, b);
        let c = bootstrap_intervals(&values, DEFAULT_RESAMPLES, 43).unwrap();
        assert_ne!(a, c);
        let summary = summarize_sorted(&values).unwrap();
        for (interval, estimate) in [
            (a.median_ms, summary.median),
            (a.p95_ms, summary.p95),
            (a.cv_pct, summary.cv_pct),
        ] {
            assert!(
                interval.low < estimate && estimate < interval.high,
                "{interval:?} vs {estimate}"
            );
        }
        // The median of a lognormal(σ = 0.3) sample of 200 has a standard
        // error near 1.25 · 0.3 / √200 ≈ 2.7 %: the interval is ~±5 %.
        let width = (a.median_ms.high - a.median_ms.low) / summary.median;
        assert!(width > 0.04 && width < 0.2, "relative width {width}");
    }

    #[test]
    fn coverage_near_nominal() {
        // True median 400 ms; a 95 % interval should miss it in about 5 % of
        // independent samples. Accept 85–99 % coverage over 200 trials.
        let mut rng = fastrand::Rng::with_seed(99);
        let covered = (0..200)
            .filter(|&trial| {
                let values = lognormal(&mut rng, 400.0, 0.4, 100);
                let intervals = bootstrap_intervals(&values, DEFAULT_RESAMPLES, trial).unwrap();
                intervals.median_ms.low <= 400.0 && 400.0 <= intervals.median_ms.high
            })
            .count();
        assert!((170..=198).contains(&covered), "covered {covered} of 200");
    }

    /// One run of the regime-switching model: `hours` hours, `per_hour`
    /// requests an hour, log TTFT = ln 400 ms + aₕ + ε with an hourly level
    /// aₕ ~ N(0, 0.3²) drawn afresh every hour (a good or a bad hour) and
    /// ε ~ N(0, 0.3²) per request. Marginally log TTFT ~ N(ln 400, 0.18), so
    /// the true median is 400 ms and the true p95 400·exp(1.6449·√0.18) ms;
    /// but the requests of one hour share their level, so a run holds about
    /// as much information as its number of hours, not of requests.
    fn regime_switching_run(rng: &mut fastrand::Rng, hours: usize, per_hour: usize) -> Vec<f64> {
        let mut normal = || {
            let (u1, u2) = (1.0 - rng.f64(), rng.f64());
            (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
        };
        let mut values = Vec::with_capacity(hours * per_hour);
        for _ in 0..hours {
            let level = 0.3 * normal();
            for _ in 0..per_hour {
                values.push(400.0 * (level + 0.3 * normal()).exp());
            }
        }
        values
    }

    /// Runs per scenario in the coverage test.
    const TRIALS: usize = 1000;

    /// Coverage of nominal 95 % intervals over `TRIALS` runs of the
    /// regime-switching model, in percent: `[median, p95]` for single-sample
    /// resampling, the same for [`time_aware_intervals`], and the median
    /// block length it chose.
    fn regime_coverage(hours: usize, per_hour: usize, seed: u64) -> ([f64; 2], [f64; 2], usize) {
        let true_median = 400.0;
        let true_p95 = 400.0 * (1.644_853_626_951_472_2 * 0.18f64.sqrt()).exp();
        let span_ms = (hours * 3_600_000) as f64;
        let mut rng = fastrand::Rng::with_seed(seed);
        let (mut iid, mut block, mut lengths) = ([0usize; 2], [0usize; 2], Vec::new());
        let covers = |i: &Intervals| {
            [
                usize::from(i.median_ms.low <= true_median && true_median <= i.median_ms.high),
                usize::from(i.p95_ms.low <= true_p95 && true_p95 <= i.p95_ms.high),
            ]
        };
        for trial in 0..TRIALS as u64 {
            let run = regime_switching_run(&mut rng, hours, per_hour);
            let mut sorted = run.clone();
            crate::base::order::sort_numbers(&mut sorted);
            let single = bootstrap_intervals(&sorted, DEFAULT_RESAMPLES, trial).unwrap();
            let aware =
                time_aware_intervals(&run, span_ms, DEFAULT_RESAMPLES, trial, None).unwrap();
            let Resampling::Block { length } = aware.method else {
                panic!("a run of {hours} h must be resampled in blocks");
            };
            lengths.push(length);
            for (count, hit) in iid.iter_mut().zip(covers(&single)) {
                *count += hit;
            }
            for (count, hit) in block.iter_mut().zip(covers(&aware)) {
                *count += hit;
            }
        }
        lengths.sort_unstable();
        let pct = |counts: [usize; 2]| counts.map(|c| c as f64 * 100.0 / TRIALS as f64);
        (pct(iid), pct(block), lengths[lengths.len() / 2])
    }

    /// The figures in docs/statistics.md ("Intervals that respect time")
    /// come from this test: `cargo test --release --lib regime -- --nocapture`
    /// prints them.
    #[test]
    fn block_intervals_cover_regime_switching_data_where_single_draws_do_not() {
        // 720 requests, one every 4 min over two days: 48 hourly regimes.
        let (iid, block, length) = regime_coverage(48, 15, 2024);
        // The same number of requests over one day: only 24 regimes.
        let (iid_day, block_day, length_day) = regime_coverage(24, 30, 2025);
        println!(
            "coverage of nominal 95 % intervals, {TRIALS} runs each, hourly regimes (median / p95):\n\
             48 h × 15: single samples {:.1} % / {:.1} %; blocks {:.1} % / {:.1} % (median block {length})\n\
             24 h × 30: single samples {:.1} % / {:.1} %; blocks {:.1} % / {:.1} % (median block {length_day})",
            iid[0], iid[1], block[0], block[1], iid_day[0], iid_day[1], block_day[0], block_day[1],
        );
        assert!(block[0] >= 90.0, "block median coverage {:.1} %", block[0]);
        // Single draws take 720 requests for independent when they carry
        // about as much as 48 hours: their intervals are far too narrow.
        assert!(iid[0] < 75.0, "iid median coverage {:.1} %", iid[0]);
        assert!(iid[1] < 80.0, "iid p95 coverage {:.1} %", iid[1]);
        // With half as many regimes blocks still cover far better than single
        // draws, though short of nominal (docs/statistics.md says so).
        assert!(
            block_day[0] > iid_day[0] + 25.0,
            "{block_day:?} vs {iid_day:?}"
        );
        assert!(block[1] > iid[1] + 20.0 && block_day[1] > iid_day[1] + 20.0);
    }

    /// The p-quantile of a mixture: share `1 − cold` lognormal(400 ms, σ)
    /// and `cold` lognormal(400 ms × `magnitude`, σ), by bisection.
    fn mixture_quantile(p: f64, sigma: f64, cold: f64, magnitude: f64) -> f64 {
        let phi = |z: f64| 0.5 * (1.0 + erf(z / std::f64::consts::SQRT_2));
        let cdf = |x: f64| {
            (1.0 - cold) * phi((x / 400.0).ln() / sigma)
                + cold * phi((x / (400.0 * magnitude)).ln() / sigma)
        };
        let (mut low, mut high) = (1.0_f64, 1e7_f64);
        for _ in 0..200 {
            let mid = (low * high).sqrt();
            if cdf(mid) < p {
                low = mid;
            } else {
                high = mid;
            }
        }
        (low * high).sqrt()
    }

    /// The error function (Abramowitz and Stegun 7.1.26, error < 1.5e-7).
    fn erf(x: f64) -> f64 {
        let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
        let y = 1.0
            - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736)
                * t
                + 0.254_829_592)
                * t
                * (-x * x).exp();
        if x >= 0.0 { y } else { -y }
    }

    /// `[coverage, missed below, missed above]` in percent of the median
    /// and the p95 intervals of [`time_aware_intervals`] over `trials` runs
    /// drawn by `draw` (values in send order, their span in ms).
    fn quantile_coverage(
        trials: u64,
        true_median: f64,
        true_p95: f64,
        mut draw: impl FnMut(&mut fastrand::Rng) -> (Vec<f64>, f64),
    ) -> [[f64; 3]; 2] {
        let mut rng = fastrand::Rng::with_seed(trials ^ 0xC0FE);
        let mut counts = [[0u64; 3]; 2];
        for _ in 0..trials {
            let (run, span_ms) = draw(&mut rng);
            let mut sorted = run.clone();
            crate::base::order::sort_numbers(&mut sorted);
            let method = choose_resampling(&run, span_ms);
            let (median, p95) = quantile_intervals(&run, &sorted, method, None).unwrap();
            for (count, (interval, truth)) in counts
                .iter_mut()
                .zip([(median, true_median), (p95, true_p95)])
            {
                let slot = if truth < interval.low {
                    1
                } else if truth > interval.high {
                    2
                } else {
                    0
                };
                count[slot] += 1;
            }
        }
        counts.map(|c| c.map(|k| k as f64 * 100.0 / trials as f64))
    }

    /// Coverage of the median and p95 intervals, 2 000 seeded trials per
    /// case; the figures in docs/statistics.md come from here:
    /// `cargo test -p firsttoken-core --lib statistics::bootstrap::tests::quantile_intervals_cover -- --nocapture`
    #[test]
    fn quantile_intervals_cover_what_they_claim() {
        const TRIALS: u64 = 2000;
        let lognormal_p95 = |sigma: f64| 400.0 * (1.644_853_626_951_472_2 * sigma).exp();
        let iid = |n: usize, sigma: f64, cold: f64, magnitude: f64| {
            move |rng: &mut fastrand::Rng| {
                let values = (0..n)
                    .map(|_| {
                        let (u1, u2) = (1.0 - rng.f64(), rng.f64());
                        let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                        let slow = if rng.f64() < cold { magnitude } else { 1.0 };
                        400.0 * slow * (sigma * z).exp()
                    })
                    .collect();
                // Ten minutes: short enough to count as independent.
                (values, 600_000.0)
            }
        };
        let regime_p95 = 400.0 * (1.644_853_626_951_472_2 * 0.18f64.sqrt()).exp();
        let cases: [(&str, [[f64; 3]; 2]); 5] = [
            (
                "iid lognormal σ 0.4, n 75",
                quantile_coverage(TRIALS, 400.0, lognormal_p95(0.4), iid(75, 0.4, 0.0, 1.0)),
            ),
            (
                "iid lognormal σ 0.4, n 100",
                quantile_coverage(TRIALS, 400.0, lognormal_p95(0.4), iid(100, 0.4, 0.0, 1.0)),
            ),
            (
                "iid σ 0.3 with a 5 % tail at 10×, n 75",
                quantile_coverage(
                    TRIALS,
                    mixture_quantile(0.5, 0.3, 0.05, 10.0),
                    mixture_quantile(0.95, 0.3, 0.05, 10.0),
                    iid(75, 0.3, 0.05, 10.0),
                ),
            ),
            (
                "hourly regimes, 48 h × 15",
                quantile_coverage(TRIALS, 400.0, regime_p95, |rng| {
                    (regime_switching_run(rng, 48, 15), 48.0 * 3_600_000.0)
                }),
            ),
            (
                "hourly regimes, 24 h × 30",
                quantile_coverage(TRIALS, 400.0, regime_p95, |rng| {
                    (regime_switching_run(rng, 24, 30), 24.0 * 3_600_000.0)
                }),
            ),
        ];
        for (name, [median, p95]) in &cases {
            println!(
                "{name}: p95 covered {:.1} % (missed below {:.1} %, above {:.1} %); median covered {:.1} % (below {:.1} %, above {:.1} %)",
                p95[0], p95[1], p95[2], median[0], median[1], median[2]
            );
        }
        for (name, [median, p95]) in &cases {
            let p95_bar = if name.starts_with("hourly") {
                90.0
            } else {
                93.0
            };
            assert!(p95[0] >= p95_bar, "{name}: p95 coverage {:.1} %", p95[0]);
            assert!(p95[2] <= 4.0, "{name}: p95 missed above in {:.1} %", p95[2]);
            assert!(
                median[2] <= 4.0,
                "{name}: median missed above in {:.1} %",
                median[2]
            );
            assert!(
                median[0] >= 93.0,
                "{name}: median coverage {:.1} %",
                median[0]
            );
        }
    }

    #[test]
    fn block_resampling_keeps_the_values_and_their_order() {
        let values = lognormal(&mut fastrand::Rng::with_seed(5), 400.0, 0.3, 50);
        // Length 1 is single-sample resampling under another name: intervals
        // of the same statistics, a little different draws.
        let blocks = block_bootstrap_intervals(&values, 1, DEFAULT_RESAMPLES, 3).unwrap();
        let single = bootstrap_intervals(&values, DEFAULT_RESAMPLES, 3).unwrap();
        assert_eq!(blocks.method, Resampling::Block { length: 1 });
        assert_eq!(single.method, Resampling::Iid);
        assert!(blocks.median_ms.overlaps(&single.median_ms));
        // One block as long as the run redraws the run itself every time.
        let whole = block_bootstrap_intervals(&values, 50, 100, 3).unwrap();
        let summary = summarize_sorted(&values).unwrap();
        assert_eq!(
            (whole.median_ms.low, whole.median_ms.high),
            (summary.median, summary.median)
        );
        assert_eq!(whole.method, Resampling::Block { length: 50 });
        assert_eq!(block_bootstrap_intervals(&[], 3, 100, 1), None);
        // Within an hour and independent: single draws.
        let shuffled: Vec<f64> = {
            let mut rng = fastrand::Rng::with_seed(8);
            let mut v = values.clone();
            rng.shuffle(&mut v);
            v
        };
        let aware = time_aware_intervals(&shuffled, 600_000.0, 100, 1, None).unwrap();
        assert_eq!(aware.method, Resampling::Iid);
    }

    #[test]
    fn widening_follows_student_t() {
        // t₀.₉₇₅ for 25, 9 and 4 degrees of freedom: 2.0595, 2.2622, 2.7764.
        for (blocks, t) in [(26, 2.0595), (10, 2.2622), (5, 2.7764)] {
            let got = few_units_widening(blocks) * 1.959_964;
            assert!((got - t).abs() < 0.003 * t, "{blocks} blocks: {got} vs {t}");
        }
        assert!((few_units_widening(100_000) - 1.0).abs() < 1e-4);
        assert_eq!(few_units_widening(1), 12.706 / 1.959_963_984_540_054);
    }

    #[test]
    fn degenerate_inputs() {
        assert_eq!(bootstrap_intervals(&[], 400, 1), None);
        assert_eq!(bootstrap_intervals(&[1.0], 0, 1), None);
        let one = bootstrap_intervals(&[250.0], 50, 1).unwrap();
        assert_eq!(
            one.median_ms,
            Interval {
                low: 250.0,
                high: 250.0
            }
        );
        assert_eq!(
            one.cv_pct,
            Interval {
                low: 0.0,
                high: 0.0
            }
        );
        // n = 2: every resample is {a,a}, {a,b} or {b,b}; the bounds must be
        // values a percentile of such resamples can take.
        let two = bootstrap_intervals(&[100.0, 200.0], 400, 1).unwrap();
        assert_eq!((two.median_ms.low, two.median_ms.high), (100.0, 200.0));
        assert_eq!((two.p95_ms.low, two.p95_ms.high), (100.0, 200.0));
    }

    #[test]
    fn order_statistics_walks_counts() {
        // Resample {10, 10, 30, 40, 40, 40} over sorted [10, 20, 30, 40].
        let picked = order_statistics(&[2, 0, 1, 3], &[10.0, 20.0, 30.0, 40.0], [0, 2, 3, 5]);
        assert_eq!(picked, [10.0, 30.0, 40.0, 40.0]);
    }

    #[test]
    fn distinction_only_without_overlap() {
        let fast = Interval {
            low: 380.0,
            high: 420.0,
        };
        let slow = Interval {
            low: 500.0,
            high: 900.0,
        };
        let touching = Interval {
            low: 420.0,
            high: 600.0,
        };
        assert_eq!(
            Distinction::lower_is_better(&fast, &slow),
            Distinction::ABetter
        );
        assert_eq!(
            Distinction::lower_is_better(&slow, &fast),
            Distinction::BBetter
        );
        assert_eq!(
            Distinction::lower_is_better(&fast, &touching),
            Distinction::NotDistinguishable
        );
        assert_eq!(
            Distinction::NotDistinguishable.text("A", "B", Lang::En),
            "A and B are not distinguishable with this many samples"
        );
        assert_eq!(
            Distinction::BBetter.text("A", "B", Lang::En),
            "B is better than A"
        );
    }

    #[test]
    fn tells_apart_clearly_different_targets_only() {
        let mut rng = fastrand::Rng::with_seed(5);
        let a = lognormal(&mut rng, 400.0, 0.2, 100);
        let b = lognormal(&mut rng, 600.0, 0.2, 100);
        let a2 = lognormal(&mut rng, 405.0, 0.2, 100);
        let ia = bootstrap_intervals(&a, DEFAULT_RESAMPLES, 1).unwrap();
        let ib = bootstrap_intervals(&b, DEFAULT_RESAMPLES, 2).unwrap();
        let ia2 = bootstrap_intervals(&a2, DEFAULT_RESAMPLES, 3).unwrap();
        assert_eq!(
            Distinction::lower_is_better(&ia.median_ms, &ib.median_ms),
            Distinction::ABetter
        );
        assert_eq!(
            Distinction::lower_is_better(&ia.median_ms, &ia2.median_ms),
            Distinction::NotDistinguishable
        );
    }
}
