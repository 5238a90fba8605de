//! What the dashboard's views show, computed from the merged requests:
//! rolling windows, TTFT percentiles and error rates per UTC day, hour of
//! the day, targets compared across vantages, and the prefill rate per day
//! when the monitor measures prompt sizes.
//!
//! Percentiles are [`crate::statistics::stats::percentile`] (numpy's linear
//! method) over every successful request of the group, exactly as the
//! results view and `firsttoken report` compute them: no binning, no
//! sampling. Days and hours are UTC, so runs from vantages in different time
//! zones line up. Each function groups the requests once and sorts each
//! group's TTFTs once: O(n log n) for n requests.

use std::collections::BTreeMap;

use super::{Dataset, Point};
use crate::base::calendar::{MS_PER_DAY, utc_day};
use crate::base::order::sort_numbers;
use crate::judgement::idle::{IdleFigures, IdleRequest, IdleSettings, idle_figures};
use crate::judgement::prefill::{fit_sizes, size_groups};
use crate::judgement::report::cv_and_verdict;
use crate::judgement::verdict::{Judgement, MIN_SAMPLES};
use crate::statistics::bootstrap::{DEFAULT_RESAMPLES, Interval};
use crate::statistics::stats::percentile;
use crate::wire::sample::TtftRank;

/// Milliseconds in an hour.
pub(crate) const MS_PER_HOUR: f64 = 3_600_000.0;

/// The rolling windows the dashboard shows, in hours: 24 h, 72 h, 7 days.
pub const WINDOW_HOURS: [u32; 3] = [24, 72, 168];

/// TTFT percentiles of a group's ranked requests: successes, and timeouts
/// ranked at the timeout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Percentiles {
    /// Ranked requests.
    pub n: usize,
    /// Of them, timeouts ranked at the timeout: a percentile that reaches
    /// them is a lower bound (`crate::judgement::report::percentile_reaches_censored`).
    pub censored: usize,
    /// Median, ms.
    pub p50_ms: f64,
    /// 95th percentile, ms.
    pub p95_ms: f64,
}

/// Requests, errors and TTFT of one group.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cell {
    /// Measured requests (successes and errors).
    pub requests: usize,
    /// Failed ones.
    pub errors: usize,
    /// TTFT of the successful ones; `None` when none succeeded.
    pub ttft: Option<Percentiles>,
    /// The CV of the ranked requests, percent (a lower bound with
    /// timeouts), and the verdict, by the results' own rule
    /// ([`crate::judgement::report::cv_and_verdict`]); `None` with no
    /// ranked request. The tool's core figure, in every window.
    pub judged: Option<(f64, Judgement)>,
}

impl Cell {
    /// Failed requests / requests, in percent; `None` without requests.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn error_rate_pct(&self) -> Option<f64> {
        (self.requests > 0).then(|| self.errors as f64 * 100.0 / self.requests as f64)
    }
}

/// Collects one group's requests before its TTFTs are sorted.
#[derive(Clone, Debug, Default)]
struct Acc {
    requests: usize,
    errors: usize,
    censored: usize,
    ttft_ms: Vec<f64>,
    /// Failures before the first token, each at its file's timeout: the
    /// verdict's ranks, never the figures shown.
    failed_ms: Vec<f64>,
    /// Bit h set: some request in UTC hour h (daily groups only).
    hours_tried: u32,
    /// Bit h set: some request in UTC hour h succeeded.
    hours_answered: u32,
}

impl Acc {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn push(&mut self, point: &Point) {
        self.requests += 1;
        let hour = 1u32 << utc_hour(point.at_ms);
        self.hours_tried |= hour;
        if let Some(timeout) = point.failed_at_ms {
            // A failure before the first token: no TTFT to show, but the
            // verdict counts it at the timeout, slow.
            self.failed_ms.push(f64::from(timeout));
        }
        match point.ttft_ms {
            // A timeout failed, and ranks at the timeout all the same.
            Some(timeout) if point.censored => {
                self.errors += 1;
                self.censored += 1;
                self.ttft_ms.push(timeout);
            }
            Some(ttft) => {
                self.ttft_ms.push(ttft);
                self.hours_answered |= hour;
            }
            None => self.errors += 1,
        }
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn cell(mut self) -> Cell {
        sort_numbers(&mut self.ttft_ms);
        let sorted = &self.ttft_ms;
        // Judged as a plan of MIN_SAMPLES would be: too few below 20
        // ranked requests, provisional below 75.
        // The verdict by the report's rule: every failure before the first
        // token enters at the timeout; the CV shown is the answered ones'.
        let mut decided = sorted.clone();
        decided.extend(&self.failed_ms);
        sort_numbers(&mut decided);
        let verdict = cv_and_verdict(&decided, self.censored + self.failed_ms.len());
        let judged = cv_and_verdict(sorted, self.censored).map(|(cv_pct, shown)| {
            let verdict = verdict.map_or(shown, |(_, verdict)| verdict);
            let planned = u32::try_from(MIN_SAMPLES).unwrap_or(u32::MAX);
            (cv_pct, Judgement::of(sorted.len(), verdict, planned))
        });
        let ttft =
            percentile(sorted, 50.0)
                .zip(percentile(sorted, 95.0))
                .map(|(p50_ms, p95_ms)| Percentiles {
                    n: sorted.len(),
                    censored: self.censored,
                    p50_ms,
                    p95_ms,
                });
        Cell {
            requests: self.requests,
            errors: self.errors,
            ttft,
            judged,
        }
    }
}

/// The UTC hour (0–23) of an epoch-ms time.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn utc_hour(epoch_ms: f64) -> u32 {
    (epoch_ms.rem_euclid(MS_PER_DAY) / MS_PER_HOUR) as u32 % 24
}

/// Groups `points` by `key` and sums each group up.
#[cfg_attr(target_arch = "wasm32", inline)]
fn grouped<K: Ord>(points: &[Point], key: impl Fn(&Point) -> K) -> BTreeMap<K, Acc> {
    let mut groups: BTreeMap<K, Acc> = BTreeMap::new();
    for point in points {
        groups.entry(key(point)).or_default().push(point);
    }
    groups
}

/// What the dashboard's header says about the data.
#[derive(Clone, Debug, PartialEq)]
pub struct Overview {
    /// Measured requests.
    pub requests: usize,
    /// Failed ones.
    pub errors: usize,
    /// Oldest and newest send time, epoch ms.
    pub range: Option<(f64, f64)>,
}

/// The header's figures.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn overview(data: &Dataset) -> Overview {
    Overview {
        requests: data.points.len(),
        errors: data
            .points
            .iter()
            .filter(|p| p.ttft_ms.is_none() || p.censored)
            .count(),
        range: data.time_range(),
    }
}

/// Whether the monitor looks stopped: the newest sample is older than three
/// schedule periods at `now_ms`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn is_stale(newest_ms: f64, now_ms: f64, schedule_minutes: u32) -> bool {
    now_ms - newest_ms > 3.0 * f64::from(schedule_minutes.max(1)) * 60_000.0
}

/// Which of [`WINDOW_HOURS`] to show (indices, ascending): the first, and
/// each that holds more requests than the one before it. A window that
/// adds no request would repeat the one before (6 min of data would show
/// three windows alike, a gap of days two). Windows are nested and end at
/// the newest request, as in [`rolling_windows`], so "adds a request" is
/// "holds more". Empty without data.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn windows_shown(data: &Dataset) -> Vec<usize> {
    if data.points.is_empty() {
        return Vec::new();
    }
    let held = window_requests(data);
    (0..held.len())
        .filter(|&w| w == 0 || held[w] > held[w - 1])
        .collect()
}

/// The requests of every target in each of [`WINDOW_HOURS`], by the rule
/// of [`rolling_windows`]: (end − span, end].
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn window_requests(data: &Dataset) -> [usize; 3] {
    let end_ms = data.time_range().map_or(0.0, |(_, last)| last);
    WINDOW_HOURS.map(|hours| {
        let from = end_ms - f64::from(hours) * MS_PER_HOUR;
        data.points.len() - data.points.partition_point(|p| p.at_ms <= from)
    })
}

/// One target's figures over the rolling windows of [`WINDOW_HOURS`].
#[derive(Clone, Debug, PartialEq)]
pub struct WindowRow {
    /// Target index.
    pub target: u32,
    /// One cell per window, in [`WINDOW_HOURS`] order.
    pub windows: Vec<Cell>,
}

/// Each target's requests in the last 24 h, 72 h and 7 days before the
/// newest request (`end_ms`), all vantages together: windows end at the data's
/// end, not at the viewer's clock, so a stopped monitor still shows its last
/// days (the header says it is stale).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn rolling_windows(data: &Dataset) -> Vec<WindowRow> {
    let Some((_, end_ms)) = data.time_range() else {
        return Vec::new();
    };
    let mut rows: Vec<WindowRow> = (0..data.targets.len())
        .map(|t| WindowRow {
            target: u32::try_from(t).unwrap_or(u32::MAX),
            windows: Vec::new(),
        })
        .collect();
    for hours in WINDOW_HOURS {
        // (end − span, end]: the last `hours` hours, the newest request included.
        let from = end_ms - f64::from(hours) * MS_PER_HOUR;
        let start = data.points.partition_point(|p| p.at_ms <= from);
        let mut groups = grouped(&data.points[start..], |p| p.target);
        for row in &mut rows {
            row.windows.push(
                groups
                    .remove(&row.target)
                    .map(Acc::cell)
                    .unwrap_or_default(),
            );
        }
    }
    rows
}

/// One target's fidelity probe replies on one UTC day.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FidelityDay {
    /// Target index.
    pub target: u32,
    /// Days since 1970-01-01.
    pub day: i64,
    /// Replies that passed.
    pub passed: usize,
    /// Replies.
    pub replies: usize,
    /// Wilson 95 % interval of the pass rate, 0–1.
    pub interval: (f64, f64),
}

/// Each target's probe pass rate per UTC day, by target then day; empty
/// when no loaded file checked fidelity.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn fidelity_daily(data: &Dataset) -> Vec<FidelityDay> {
    let mut counts: std::collections::BTreeMap<(u32, i64), (usize, usize)> =
        std::collections::BTreeMap::new();
    for probe in &data.probes {
        let entry = counts
            .entry((probe.target, utc_day(probe.at_ms)))
            .or_insert((0, 0));
        entry.0 += usize::from(probe.passed);
        entry.1 += 1;
    }
    counts
        .into_iter()
        .map(|((target, day), (passed, replies))| FidelityDay {
            target,
            day,
            passed,
            replies,
            interval: crate::statistics::binomial::wilson(passed, replies),
        })
        .collect()
}

/// One target's prefill rate on one UTC day.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrefillDay {
    /// Target index.
    pub target: u32,
    /// Days since 1970-01-01.
    pub day: i64,
    /// The day's sized first sends that succeeded with the provider's
    /// input-token count: the fit's candidates.
    pub requests: usize,
    /// The fitted rate, or why there is none.
    pub rate: DayPrefill,
}

/// A day's prefill rate, or why the day has none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DayPrefill {
    /// The fit of [`crate::judgement::prefill::fit_sizes`] over the day's requests.
    Fitted {
        /// Prefill rate, input tokens per second.
        rate_tokens_per_s: f64,
        /// Its 95 % bootstrap interval; `high` infinite when unbounded.
        interval: Interval,
        /// The fixed part, ms.
        fixed_ms: f64,
    },
    /// Fewer than two sizes with [`crate::judgement::prefill::MIN_PER_SIZE`] warm
    /// requests: a line needs two, so no rate is said.
    TooFew {
        /// Sizes that had enough.
        sizes: usize,
    },
    /// TTFT did not grow with the prompt that day: no prefill rate.
    NoGrowth,
}

/// Seed of the daily prefill fits' bootstraps (mixed with the day), so a
/// day's interval is the same on every load.
const PREFILL_SEED: u64 = 0x0050_5245_4649_4C4C;

/// Each target's prefill rate per UTC day, by target then day, from the
/// sized requests of [`Dataset::prompts`] at `vantage` (`None`: every
/// vantage together): the fit of `core::judgement::prefill` over each day's measured
/// first sends (cache-probe repeats and failures left out), with its 95 %
/// interval. A day with sized requests but too few warm ones at two sizes
/// says so ([`DayPrefill::TooFew`]) rather than guessing. Empty when no
/// loaded file measured prompt sizes.
///
/// Cost: one bootstrap of [`DEFAULT_RESAMPLES`] resamples per target and
/// day, O(resamples × requests × log) each.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn prefill_daily(data: &Dataset, vantage: Option<u32>) -> Vec<PrefillDay> {
    // (target, day) → the day's (size, input tokens, TTFT ms) first sends.
    type Day = Vec<(u32, f64, f64)>;
    let mut groups: BTreeMap<(u32, i64), Day> = BTreeMap::new();
    for point in &data.prompts {
        if vantage.is_some_and(|v| v != point.vantage) {
            continue;
        }
        let group = groups
            .entry((point.target, utc_day(point.at_ms)))
            .or_default();
        if point.repeat {
            continue;
        }
        if let (Some(ttft), Some(input)) = (point.ttft_ms, point.input_tokens) {
            group.push((point.size, f64::from(input), ttft));
        }
    }
    groups
        .into_iter()
        .map(|((target, day), points)| {
            let requests = points.len();
            let sizes = size_groups(points);
            let seed = PREFILL_SEED ^ u64::from_ne_bytes(day.to_ne_bytes());
            let rate = if sizes.len() < 2 {
                DayPrefill::TooFew { sizes: sizes.len() }
            } else {
                match fit_sizes(&sizes, target, seed, DEFAULT_RESAMPLES) {
                    Some(fit) => DayPrefill::Fitted {
                        rate_tokens_per_s: fit.rate_tokens_per_s,
                        interval: fit.rate_interval,
                        fixed_ms: fit.fixed_ms,
                    },
                    None => DayPrefill::NoGrowth,
                }
            };
            PrefillDay {
                target,
                day,
                requests,
                rate,
            }
        })
        .collect()
}

/// One UTC day of a series.
#[derive(Clone, Debug, PartialEq)]
pub struct DayCell {
    /// Days since 1970-01-01.
    pub day: i64,
    /// Requests, errors and TTFT percentiles of that day.
    pub cell: Cell,
    /// UTC hours of the day with at least one request.
    pub hours_tried: u32,
    /// Of those, hours in which at least one request succeeded.
    pub hours_answered: u32,
}

impl DayCell {
    /// Start of the day, epoch ms.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn start_ms(&self) -> f64 {
        self.day as f64 * MS_PER_DAY
    }

    /// Availability: the share of the day's measured hours in which the
    /// target answered at least once, in percent. An hourly monitor's run
    /// that fails entirely is an hour the target was down.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn availability_pct(&self) -> Option<f64> {
        (self.hours_tried > 0)
            .then(|| f64::from(self.hours_answered) * 100.0 / f64::from(self.hours_tried))
    }
}

/// A target's (or a target at one vantage's) days, oldest first.
#[derive(Clone, Debug, PartialEq)]
pub struct DaySeries {
    /// Target index.
    pub target: u32,
    /// Vantage index, or `None` for all vantages together.
    pub vantage: Option<u32>,
    /// Days with at least one request.
    pub days: Vec<DayCell>,
}

/// Each target's days, all vantages together (`by_vantage` false), or each
/// target at each vantage (true).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn daily(data: &Dataset, by_vantage: bool) -> Vec<DaySeries> {
    let Some((first_ms, last_ms)) = data.time_range() else {
        return Vec::new();
    };
    let (first_day, days) = (utc_day(first_ms), utc_day(last_ms) - utc_day(first_ms) + 1);
    let days = usize::try_from(days).unwrap_or(0);
    let (targets, vantages) = extent(&data.points);
    let columns = if by_vantage { vantages } else { 1 };
    // One slot per (target, vantage or all, day): a year of six targets from
    // two vantages is a few thousand slots, filled in one pass.
    let accs = dense(&data.points, targets * columns * days, |p| {
        let column = if by_vantage { p.vantage as usize } else { 0 };
        let day = usize::try_from(utc_day(p.at_ms) - first_day).unwrap_or(usize::MAX);
        (p.target as usize * columns + column) * days + day
    });
    let mut series: Vec<DaySeries> = Vec::new();
    for (slot, acc) in accs.into_iter().enumerate() {
        if acc.requests == 0 {
            continue;
        }
        let (pair, day) = (slot / days, slot % days);
        let target = u32::try_from(pair / columns).unwrap_or(u32::MAX);
        let vantage = by_vantage.then(|| u32::try_from(pair % columns).unwrap_or(u32::MAX));
        let cell = DayCell {
            day: first_day + i64::try_from(day).unwrap_or(0),
            hours_tried: acc.hours_tried.count_ones(),
            hours_answered: acc.hours_answered.count_ones(),
            cell: acc.cell(),
        };
        match series.last_mut() {
            Some(last) if last.target == target && last.vantage == vantage => last.days.push(cell),
            _ => series.push(DaySeries {
                target,
                vantage,
                days: vec![cell],
            }),
        }
    }
    series
}

/// One target's idle figures on one UTC day: after how long idle it went
/// cold that day, from that day's requests sent after an idle gap.
#[derive(Clone, Debug, PartialEq)]
pub struct IdleDay {
    /// Target index.
    pub target: u32,
    /// Days since the epoch (UTC).
    pub day: i64,
    /// Requests of that day sent after an idle gap (every vantage).
    pub requests: usize,
    /// Their figures ([`idle_figures`], the results' own rule).
    pub figures: IdleFigures,
}

/// Per target and UTC day, the idle figures of the day's requests sent
/// after an idle gap, by target then day; empty when the data has no idle
/// gaps. A day whose requests give no warm reference is left out.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn idle_daily(data: &Dataset) -> Vec<IdleDay> {
    let mut by_day: BTreeMap<(u32, i64), (Vec<IdleRequest>, f64)> = BTreeMap::new();
    for point in &data.idle {
        let (requests, timeout_ms) = by_day
            .entry((point.target, utc_day(point.at_ms)))
            .or_insert_with(|| (Vec::new(), f64::INFINITY));
        let rank = match (point.censored, point.ttft_ms) {
            (true, Some(ms)) => {
                // Censored requests rank at their file's timeout; a day of
                // several files ranks them at the shortest.
                *timeout_ms = timeout_ms.min(ms);
                TtftRank::Censored
            }
            (false, Some(ms)) => TtftRank::Measured(ms),
            (_, None) => TtftRank::Excluded,
        };
        requests.push(IdleRequest {
            gap_s: point.gap_s,
            idle_s: point.idle_s,
            rank,
            failed: point.failed,
            connection: point.connection,
        });
    }
    by_day
        .into_iter()
        .filter_map(|((target, day), (requests, timeout_ms))| {
            let figures = idle_figures(&requests, timeout_ms, IdleSettings::default())?;
            Some(IdleDay {
                target,
                day,
                requests: figures.gaps.iter().map(|g| g.requests).sum(),
                figures,
            })
        })
        .collect()
}

/// One target at one vantage, by UTC hour of the day.
#[derive(Clone, Debug, PartialEq)]
pub struct HourSeries {
    /// Target index.
    pub target: u32,
    /// Vantage index.
    pub vantage: u32,
    /// `(hour, cell)` for the hours with requests, 0 to 23.
    pub hours: Vec<(u8, Cell)>,
}

/// Groups `points` into `groups` dense slots by `slot` (each below
/// `groups`): one pass and no map lookups, for the views recomputed when
/// the time range changes.
#[cfg_attr(target_arch = "wasm32", inline)]
fn dense(points: &[Point], groups: usize, slot: impl Fn(&Point) -> usize) -> Vec<Acc> {
    let mut accs = vec![Acc::default(); groups];
    for point in points {
        if let Some(acc) = accs.get_mut(slot(point)) {
            acc.push(point);
        }
    }
    accs
}

/// How many targets and vantages the points name (largest index + 1).
#[cfg_attr(target_arch = "wasm32", inline)]
fn extent(points: &[Point]) -> (usize, usize) {
    points.iter().fold((0, 0), |(t, v), p| {
        (t.max(p.target as usize + 1), v.max(p.vantage as usize + 1))
    })
}

/// Each target at each vantage by UTC hour, over `points` (a time range of
/// the data).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn hour_of_day(points: &[Point]) -> Vec<HourSeries> {
    let (targets, vantages) = extent(points);
    let accs = dense(points, targets * vantages * 24, |p| {
        (p.target as usize * vantages + p.vantage as usize) * 24 + utc_hour(p.at_ms) as usize
    });
    let mut series: Vec<HourSeries> = Vec::new();
    for (slot, acc) in accs.into_iter().enumerate() {
        if acc.requests == 0 {
            continue;
        }
        let (pair, hour) = (slot / 24, (slot % 24) as u8);
        let (target, vantage) = (
            u32::try_from(pair / vantages).unwrap_or(u32::MAX),
            u32::try_from(pair % vantages).unwrap_or(u32::MAX),
        );
        let cell = acc.cell();
        match series.last_mut() {
            Some(last) if last.target == target && last.vantage == vantage => {
                last.hours.push((hour, cell));
            }
            _ => series.push(HourSeries {
                target,
                vantage,
                hours: vec![(hour, cell)],
            }),
        }
    }
    series
}

/// One target seen from one vantage.
#[derive(Clone, Debug, PartialEq)]
pub struct VantageRow {
    /// Target index.
    pub target: u32,
    /// Vantage index.
    pub vantage: u32,
    /// Its requests over the range.
    pub cell: Cell,
}

/// Each target at each vantage over `points`, ordered by target then
/// vantage: the comparison across vantages of the same target.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn by_vantage(points: &[Point]) -> Vec<VantageRow> {
    let (targets, vantages) = extent(points);
    dense(points, targets * vantages, |p| {
        p.target as usize * vantages + p.vantage as usize
    })
    .into_iter()
    .enumerate()
    .filter(|(_, acc)| acc.requests > 0)
    .map(|(slot, acc)| VantageRow {
        target: u32::try_from(slot / vantages).unwrap_or(u32::MAX),
        vantage: u32::try_from(slot % vantages).unwrap_or(u32::MAX),
        cell: acc.cell(),
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::dashboard::DashTarget;
    use crate::statistics::stats::summarize;
    use proptest::prelude::*;

    const H: f64 = MS_PER_HOUR;
    const DAY0: f64 = 20_000.0 * MS_PER_DAY;

    fn dataset(points: Vec<Point>, targets: usize, vantages: usize) -> Dataset {
        let mut data = Dataset {
            targets: (0..targets)
                .map(|i| DashTarget {
                    label: format!("t{i}"),
                    protocol: "openai".into(),
                    base_url: format!("https://{i}.example"),
                    model: "m".into(),
                })
                .collect(),
            vantages: (0..vantages).map(|v| format!("v{v}")).collect(),
            points,
            ..Dataset::default()
        };
        data.finish();
        data
    }

    /// Published points of one target over two UTC days, sent after idle
    /// gaps of 10 s and 5 min: the first day it goes cold after 5 min idle
    /// (a 12 s first token), the second it stays warm. They go through the
    /// points file (its `idle_gap_s` column) and the dashboard's reader.
    #[test]
    fn a_day_s_requests_after_idle_gaps_say_when_it_went_cold() {
        use crate::documents::dashboard::{Published, read_published};
        use crate::documents::publish::{PointSample, PointsDoc};
        let sample = |i: u32, day: f64, gap_s: Option<f64>, ttft_ms: f64| PointSample {
            target: 0,
            warmup: false,
            sent_at_ms: DAY0 + day * MS_PER_DAY + f64::from(i) * 60_000.0,
            ttft_ms: Some(ttft_ms),
            total_ms: Some(ttft_ms + 100.0),
            error: None,
            probe: None,
            sized_prompt: None,
            input_tokens: None,
            idle_gap_s: gap_s,
            idle_s: None,
            reused_connection: None,
            setup_ms: None,
            connection_idle_s: None,
            fresh_connection: false,
        };
        let target = DashTarget {
            label: "t0".into(),
            protocol: "openai".into(),
            base_url: "https://0.example".into(),
            model: "m".into(),
        };
        let mut samples = Vec::new();
        for i in 0..40u32 {
            let gap_s = [10.0, 300.0][i as usize % 2];
            let first = if gap_s > 60.0 { 12_000.0 } else { 400.0 };
            samples.push(sample(i, 0.0, Some(gap_s), first));
            samples.push(sample(i, 1.0, Some(gap_s), 400.0 + f64::from(i)));
        }
        let points = PointsDoc::build("", false, vec![target.clone()], 60_000.0, None, samples);
        let json = points.to_json();
        assert!(
            json.contains("\"idle_gap_s\":[10.0,10.0,300.0,300.0,"),
            "{json}"
        );
        let Ok(Published::Points(read)) = read_published(json.as_bytes()) else {
            panic!("the points read back");
        };
        assert_eq!(read, points);
        let mut data = Dataset::default();
        data.add(&read, "").unwrap();
        data.finish();
        assert_eq!(data.idle.len(), 80);
        let days = idle_daily(&data);
        assert_eq!(days.len(), 2);
        assert_eq!(days[0].day, 20_000);
        assert_eq!(days[0].requests, 40);
        assert_eq!(days[0].figures.goes_cold.range_s(), Some([10.0, 300.0]));
        assert!(matches!(
            days[1].figures.goes_cold,
            crate::judgement::idle::GoesCold::StayedWarm {
                cold: 0,
                of: 20,
                ..
            }
        ));
        assert_eq!(
            crate::narrative::idle::goes_cold_cell(
                crate::base::lang::Lang::En,
                &days[0].figures.goes_cold
            ),
            "10 s–5 min"
        );

        // Without idle gaps: no column in the file, no idle points, no days.
        let plain: Vec<PointSample<'_>> = (0..40u32)
            .map(|i| sample(i, 0.0, None, 400.0 + f64::from(i)))
            .collect();
        let points = PointsDoc::build("", false, vec![target], 60_000.0, None, plain);
        assert!(!points.to_json().contains("idle_gap_s"));
        let mut data = Dataset::default();
        data.add(&points, "").unwrap();
        assert!(data.idle.is_empty());
        assert!(idle_daily(&data).is_empty());
    }

    /// A request the runner sent on a new connection on purpose is said so
    /// in the points file (`fresh_connection`, by index) and read back
    /// into the idle points; a file without any leaves the column out.
    #[test]
    fn a_new_connection_opened_on_purpose_is_published_and_read_back() {
        use crate::documents::dashboard::{Published, read_published};
        use crate::documents::publish::{PointSample, PointsDoc};
        let sample = |i: u32, reused: bool, fresh: bool| PointSample {
            target: 0,
            warmup: false,
            sent_at_ms: DAY0 + f64::from(i) * 60_000.0,
            ttft_ms: Some(400.0),
            total_ms: Some(500.0),
            error: None,
            probe: None,
            sized_prompt: None,
            input_tokens: None,
            idle_gap_s: Some(10.0),
            idle_s: Some(10.0),
            reused_connection: Some(reused),
            setup_ms: (!reused).then_some(30.0),
            connection_idle_s: Some(10.0),
            fresh_connection: fresh,
        };
        let target = DashTarget {
            label: "t0".into(),
            protocol: "openai".into(),
            base_url: "https://0.example".into(),
            model: "m".into(),
        };
        let samples = [
            sample(0, true, false),
            sample(1, false, true),
            sample(2, false, false),
            sample(3, false, true),
        ];
        let points = PointsDoc::build("", false, vec![target.clone()], 60_000.0, None, samples);
        let json = points.to_json();
        assert!(json.contains("\"fresh_connection\":[1,3]"), "{json}");
        let Ok(Published::Points(read)) = read_published(json.as_bytes()) else {
            panic!("the points read back");
        };
        assert_eq!(read, points);
        let mut data = Dataset::default();
        data.add(&read, "").unwrap();
        let fresh: Vec<bool> = data
            .idle
            .iter()
            .map(|p| p.connection.unwrap().fresh)
            .collect();
        assert_eq!(fresh, [false, true, false, true]);

        // A day of a model that never goes cold behind a server closing
        // connections idle 1 s and holding each new one's first request
        // 200 ms: half the requests after 0.3 s on a new connection on
        // purpose. The daily table reads the connection's window, and the
        // model warm, as the report does.
        let day: Vec<PointSample<'_>> = (0..20u32)
            .map(|i| {
                let gap_s = [0.3, 2.0][i as usize % 2];
                let fresh = gap_s < 1.0 && i % 4 == 2;
                let new = fresh || gap_s > 1.0;
                PointSample {
                    ttft_ms: Some(20.0 + f64::from(i % 5) * 0.3 + if new { 200.2 } else { 0.0 }),
                    idle_gap_s: Some(gap_s),
                    idle_s: Some(gap_s),
                    connection_idle_s: Some(gap_s),
                    ..sample(i, !new, fresh)
                }
            })
            .collect();
        let points = PointsDoc::build("", false, vec![target.clone()], 60_000.0, None, day);
        let Ok(Published::Points(read)) = read_published(points.to_json().as_bytes()) else {
            panic!("the points read back");
        };
        let mut data = Dataset::default();
        data.add(&read, "").unwrap();
        data.finish();
        let days = idle_daily(&data);
        let en = crate::base::lang::Lang::En;
        assert!(
            crate::narrative::idle::goes_cold_cell(en, &days[0].figures.goes_cold)
                .starts_with("warm after 2 s"),
            "{:?}",
            days[0].figures
        );
        assert_eq!(
            crate::narrative::idle::connection_cell(en, &days[0].figures),
            "0.3 s–2 s"
        );
        let none = PointsDoc::build(
            "",
            false,
            vec![target],
            60_000.0,
            None,
            [sample(0, true, false), sample(1, false, false)],
        );
        assert!(!none.to_json().contains("fresh"));
    }

    fn point(at_ms: f64, ttft_ms: Option<f64>, target: u32, vantage: u32) -> Point {
        Point {
            censored: false,
            failed_at_ms: None,
            at_ms,
            ttft_ms,
            target,
            vantage,
        }
    }

    #[test]
    fn rolling_windows_end_at_the_newest_request() {
        let end = DAY0 + 10.0 * MS_PER_DAY;
        let data = dataset(
            vec![
                point(end, Some(100.0), 0, 0),
                point(end - 23.0 * H, Some(300.0), 0, 0),
                point(end - 24.0 * H, Some(999.0), 0, 0), // just outside 24 h
                point(end - 50.0 * H, None, 0, 1),
                point(end - 100.0 * H, Some(500.0), 0, 0),
                point(end - 169.0 * H, Some(1.0), 0, 0), // outside 7 d
                point(end - 2.0 * H, None, 1, 0),
            ],
            2,
            2,
        );
        let rows = rolling_windows(&data);
        let t0 = &rows[0].windows;
        assert_eq!((t0[0].requests, t0[0].errors), (2, 0));
        assert_eq!(t0[0].ttft.unwrap().p50_ms, 200.0);
        assert_eq!((t0[1].requests, t0[1].errors), (4, 1));
        assert_eq!(t0[2].requests, 5);
        assert_eq!(t0[2].ttft.unwrap().n, 4);
        let t1 = &rows[1].windows;
        assert_eq!(t1[0].ttft, None);
        assert_eq!(t1[0].error_rate_pct(), Some(100.0));
        assert!(rolling_windows(&Dataset::default()).is_empty());
        // Every window carries the CV and the verdict, judged as the
        // results judge: two ranked requests are too few.
        let (cv, judgement) = t0[0].judged.unwrap();
        assert!((cv - 70.7).abs() < 0.1, "{cv}");
        assert_eq!(judgement, Judgement::Collecting { n: 2 });
        assert_eq!(t1[0].judged, None);
    }

    /// Windows that would repeat the one before are not shown: 6 min of
    /// data is one window, not three alike; 30 h are two, 4 days three. A
    /// request exactly 24 h before the newest is outside the 24 h window
    /// (it is (end − 24 h, end]), so it makes a second window; and a gap of
    /// days leaves out the window it makes no different.
    #[test]
    fn windows_longer_than_the_data_are_not_shown() {
        let end = DAY0 + 10.0 * MS_PER_DAY;
        let of_ages = |ages_h: &[f64]| {
            let points = ages_h
                .iter()
                .rev()
                .map(|age| point(end - age * H, Some(100.0), 0, 0))
                .collect();
            windows_shown(&dataset(points, 1, 1))
        };
        assert_eq!(of_ages(&[0.1, 0.0]), vec![0]);
        assert_eq!(of_ages(&[24.0 - 1e-6, 0.0]), vec![0]);
        assert_eq!(of_ages(&[24.0, 0.0]), vec![0, 1]);
        assert_eq!(of_ages(&[30.0, 0.0]), vec![0, 1]);
        assert_eq!(of_ages(&[96.0, 30.0, 0.0]), vec![0, 1, 2]);
        // Nothing between 1 h and 100 h old: the 72 h window adds nothing.
        assert_eq!(of_ages(&[100.0, 1.0, 0.0]), vec![0, 2]);
        assert_eq!(of_ages(&[400.0, 100.0, 30.0, 0.0]), vec![0, 1, 2]);
        assert_eq!(windows_shown(&Dataset::default()), Vec::<usize>::new());
        // The windows shown hold different requests, each more than the last.
        let data = dataset(
            vec![
                point(end - 30.0 * H, None, 0, 1),
                point(end, Some(1.0), 0, 0),
            ],
            1,
            1,
        );
        assert_eq!(window_requests(&data), [1, 2, 2]);
        // And the verdict matches the results' for the same requests.
        let steady: Vec<Point> = (0..80)
            .map(|i| {
                point(
                    end - f64::from(i) * 60_000.0,
                    Some(400.0 + f64::from(i % 7)),
                    0,
                    0,
                )
            })
            .collect();
        let steady = dataset(steady, 1, 1);
        let (_, judgement) = rolling_windows(&steady)[0].windows[0].judged.unwrap();
        assert_eq!(
            judgement,
            Judgement::Final(crate::judgement::verdict::Verdict::Solid)
        );
    }

    #[test]
    fn days_count_hours_answered() {
        let mut points = Vec::new();
        for hour in 0..24 {
            let at = DAY0 + f64::from(hour) * H + 60_000.0;
            // Hours 3 and 4: every request fails; hour 5: one of two fails.
            let down = hour == 3 || hour == 4;
            points.push(point(at, if down { None } else { Some(400.0) }, 0, 0));
            points.push(point(
                at + 1.0,
                if down || hour == 5 { None } else { Some(600.0) },
                0,
                0,
            ));
        }
        points.push(point(DAY0 + MS_PER_DAY + 5.0, Some(700.0), 0, 0));
        let data = dataset(points, 1, 1);
        let series = daily(&data, false);
        assert_eq!(series.len(), 1);
        let day = &series[0].days[0];
        assert_eq!((day.cell.requests, day.cell.errors), (48, 5));
        assert_eq!((day.hours_tried, day.hours_answered), (24, 22));
        assert!((day.availability_pct().unwrap() - 22.0 / 24.0 * 100.0).abs() < 1e-9);
        // 22 answers of 400 ms and 21 of 600 ms: the median is the 22nd.
        assert_eq!(day.cell.ttft.unwrap().p50_ms, 400.0);
        assert_eq!(series[0].days[1].day, day.day + 1);
        assert_eq!(day.start_ms(), DAY0);
    }

    #[test]
    fn hours_and_vantages_split_the_same_target() {
        let data = dataset(
            vec![
                point(DAY0 + 9.0 * H, Some(100.0), 0, 0),
                point(DAY0 + 9.5 * H, Some(300.0), 0, 1),
                point(DAY0 + MS_PER_DAY + 9.1 * H, Some(200.0), 0, 0),
                point(DAY0 + 23.9 * H, None, 0, 0),
            ],
            1,
            2,
        );
        let hours = hour_of_day(&data.points);
        assert_eq!(hours.len(), 2);
        assert_eq!(hours[0].vantage, 0);
        assert_eq!(hours[0].hours.len(), 2);
        assert_eq!(hours[0].hours[0].0, 9);
        assert_eq!(hours[0].hours[0].1.ttft.unwrap().p50_ms, 150.0);
        assert_eq!(hours[0].hours[1].0, 23);
        let rows = by_vantage(&data.points);
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].cell.requests, rows[0].cell.errors), (3, 1));
        assert_eq!(rows[1].cell.ttft.unwrap().p95_ms, 300.0);
        let split = daily(&data, true);
        assert_eq!(split.len(), 2);
        assert_eq!(split[0].vantage, Some(0));
        assert_eq!(split[0].days.len(), 2);
    }

    #[test]
    fn staleness_is_three_periods() {
        let newest = DAY0;
        assert!(!is_stale(newest, newest + 3.0 * H, 60));
        assert!(is_stale(newest, newest + 3.0 * H + 1.0, 60));
        assert!(!is_stale(newest, newest + 80.0 * 60_000.0, 30));
        assert!(is_stale(newest, newest + 91.0 * 60_000.0, 30));
    }

    proptest! {
        /// Every group's figures equal the statistics module's over the same
        /// requests: nothing is lost, thinned or binned, whatever the split.
        #[test]
        fn groups_agree_with_the_statistics_and_lose_nothing(
            raw in prop::collection::vec((0.0f64..(9.0 * MS_PER_DAY), prop::option::of(1.0f64..60_000.0), 0u32..3, 0u32..2), 0..400)
        ) {
            let points: Vec<Point> = raw.iter().map(|&(at, ttft, t, v)| point(DAY0 + at, ttft, t, v)).collect();
            let data = dataset(points, 3, 2);
            for split in [false, true] {
                let series = daily(&data, split);
                let total: usize = series.iter().flat_map(|s| &s.days).map(|d| d.cell.requests).sum();
                prop_assert_eq!(total, data.points.len());
                for s in &series {
                    for day in &s.days {
                        let values: Vec<f64> = data.points.iter()
                            .filter(|p| p.target == s.target && s.vantage.is_none_or(|v| v == p.vantage) && utc_day(p.at_ms) == day.day)
                            .filter_map(|p| p.ttft_ms).collect();
                        let expected = summarize(&values);
                        prop_assert_eq!(day.cell.ttft.map(|t| (t.n, t.p50_ms, t.p95_ms)), expected.map(|e| (e.n, e.median, e.p95)));
                        prop_assert!(day.hours_answered <= day.hours_tried);
                    }
                }
            }
            let rows = by_vantage(&data.points);
            prop_assert_eq!(rows.iter().map(|r| r.cell.requests).sum::<usize>(), data.points.len());
            let hours = hour_of_day(&data.points);
            prop_assert_eq!(hours.iter().flat_map(|h| &h.hours).map(|(_, c)| c.requests).sum::<usize>(), data.points.len());
        }
    }
}
