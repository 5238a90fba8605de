//! When does a model go cold? The cold-start share of one target by how
//! long it sat idle, from this client, before each request (the plan's
//! `idle_gaps_s`), and what that means for keeping it warm.
//!
//! A serverless provider keeps a warm replica of a model only while the
//! model has traffic; after a quiet spell the replica is released and the
//! next request waits for the weights to load. A run with idle gaps sends
//! every measured request after one of a few idle times, each equally
//! often, shuffled over the run, so each gap's requests say how often that
//! much idle ends in a cold start.
//!
//! - **Cold** is a request over the **cold bound**, or a timeout: the
//!   median of the requests after the **shortest** gap, the ones the
//!   design keeps warmest, times the larger of 3 and e^(4 spreads) of
//!   their log TTFT ([`cold_bound_ms`]), that one bound applied to every
//!   gap. It is fixed from that named population, not iterated as the
//!   slow rule's warm reference is: on a warm provider with heavy-tailed
//!   noise the iteration ran down to the fastest request and called warm
//!   outliers cold replicas. Why not the reference of all the target's
//!   requests, as its row has: an idle run is mostly cold by design when
//!   the model goes cold before its second gap, and with it a model cold
//!   after all but the shortest gap read "stayed warm" in about one run
//!   in four of the simulation below; with the shortest gap's, never.
//! - **Per gap**: cold of ranked requests, with an exact Clopper–Pearson
//!   95 % interval, and the gap's TTFT median and p95.
//! - **Monotone estimate**: a longer idle never makes a warm replica more
//!   likely, so P(cold | gap) is estimated non-decreasing in the gap: the
//!   weighted least-squares fit under that order (pool-adjacent-violators,
//!   [`isotonic_non_decreasing`]), with the exact interval of the requests
//!   each block pooled, so every estimate lies inside its own interval.
//! - **Goes cold after**: the first gap whose cold share is above that of
//!   all shorter gaps pooled, by Fisher's exact test at 0.05 shared among
//!   the comparisons (Bonferroni); the range is from the gap before it to
//!   it. A provider whose shortest gap is already mostly cold (the interval
//!   lies above one half) goes cold before that gap. Otherwise it stayed
//!   warm after the longest gap, with a one-sided 95 % upper bound on its
//!   cold share there.
//! - **Settings**: a keep-warm interval just under the longest idle shown
//!   to stay warm ([`KEEP_WARM_SHARE`] of it, in whole seconds, or tenths
//!   below ten seconds), its cost per day at the
//!   target's measured cost per request; the cold share to expect at the
//!   user's spacing (`typical_gap_s`), read from the gaps around it; and,
//!   with a dedicated endpoint's hourly price, the traffic above which it
//!   costs less than serverless requests with keep-warm pings.
//!
//! - **A new connection's cost**: a request that opened a connection is
//!   judged on its TTFT less its timed opening (DNS + TCP + TLS) and less
//!   what a new connection added beyond that, measured where the model is
//!   known warm: after the shortest gap, where the plan sends every other
//!   request on a new connection on purpose
//!   ([`crate::planning::schedule::PlannedRequest::fresh_connection`]),
//!   the median of those on a new connection less the median of those on
//!   a kept one ([`ConnectionExtra`]). A proxy or load balancer that holds
//!   a connection's first request costs time no client phase shows; judged
//!   on the timed phases alone, a connection that closes after 1 s read as
//!   a model that "goes cold after 0.3–2 s".
//!
//! The simulation in this module's tests measures how often the range
//! holds the true threshold, how often a provider that never goes cold
//! reads "goes cold", and how often the per-gap intervals hold the true
//! cold probability (docs/statistics.md has the figures and the command).

use crate::base::order::sort_numbers;
use crate::statistics::binomial::{clopper_pearson, fisher_exact};
use crate::statistics::stats::percentile;
use crate::wire::sample::{Sample, TtftRank};

/// Confidence of every interval here, 0–1.
pub const IDLE_CONFIDENCE: f64 = 0.95;

/// The family-wise level of the "goes cold after" comparisons: each of the
/// k − 1 comparisons of k gaps is made at this level / (k − 1).
pub const RISE_LEVEL: f64 = 0.05;

/// The keep-warm interval is this share of the longest idle shown to stay
/// warm: a ping a little before the replica could go, since idle counts
/// from the end of the last request and pings take time of their own.
pub const KEEP_WARM_SHARE: f64 = 0.8;

/// Seconds in a day.
const DAY_S: f64 = 86_400.0;

/// One measured request as the idle figures read it: the idle gap it was
/// planned after and the idle it had, s, how it enters the TTFT ranks, and
/// how it was connected.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IdleRequest {
    /// The planned idle before it, seconds.
    pub gap_s: f64,
    /// The idle it had, seconds, as measured by the client that sent it;
    /// `None` in files written before it was measured (the planned gap
    /// stands for it then).
    pub idle_s: Option<f64>,
    /// Its TTFT rank for decisions
    /// ([`crate::wire::sample::Sample::decision_rank`]: a failure before
    /// the first token at the timeout).
    pub rank: TtftRank,
    /// It failed before its first token (it ranks at the timeout, and its
    /// gap counts it apart).
    pub failed: bool,
    /// How it was connected, when the client could tell.
    pub connection: Option<IdleConnection>,
}

/// How a request reached the provider: on a connection kept from an
/// earlier request, or on a new one, with what opening it cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IdleConnection {
    /// It went on a connection an earlier request had opened.
    pub reused: bool,
    /// Opening its new connection (DNS + TCP + TLS), ms, when measured.
    pub setup_ms: Option<f64>,
    /// How long the client's connection to the origin had sat idle, s
    /// ([`Sample::connection_idle_s`]); the connection's window is read
    /// by it (targets sharing an origin share its connection). `None`:
    /// the target's own idle stands for it.
    pub idle_s: Option<f64>,
    /// The client opened it on purpose, as the plan asked
    /// ([`Sample::fresh_connection`]): it measures what a new connection
    /// costs and says nothing of when the kept one closes.
    pub fresh: bool,
}

impl IdleConnection {
    /// How `sample` was connected, when its client said
    /// ([`Sample::reused_connection`]), with its measured opening cost.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn of(sample: &Sample) -> Option<Self> {
        sample.reused_connection.map(|reused| Self {
            reused,
            setup_ms: sample
                .connection
                .filter(|_| !reused)
                .map(|phases| phases.setup_ms()),
            idle_s: sample.connection_idle_s,
            fresh: sample.fresh_connection && !reused,
        })
    }
}

impl IdleRequest {
    /// A request with only a planned gap and a rank (no measured idle, no
    /// connection, not failed), as files before either were written.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn planned(gap_s: f64, rank: TtftRank) -> Self {
        Self {
            gap_s,
            idle_s: None,
            rank,
            failed: false,
            connection: None,
        }
    }
}

/// One idle gap of one target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GapFigures {
    /// The idle time before each of these requests, seconds.
    pub gap_s: f64,
    /// Ranked requests sent after this gap (first tokens and timeouts).
    pub requests: usize,
    /// Of them, cold: slow by the target's own rule, every timeout included.
    pub cold: usize,
    /// Exact (Clopper–Pearson) 95 % interval of the cold share, 0–1.
    pub interval: (f64, f64),
    /// The monotone (isotonic) estimate of P(cold | this gap), 0–1.
    pub monotone_share: f64,
    /// The exact 95 % interval of that estimate, 0–1: Clopper–Pearson on
    /// the requests the isotonic fit pooled with this gap's (its block,
    /// whose pooled share is the estimate), so the estimate lies inside.
    pub monotone_interval: (f64, f64),
    /// TTFT median of the gap's ranked requests, ms, as the model is
    /// judged: a new connection's measured cost taken off (timeouts at the
    /// timeout).
    pub median_ms: Option<f64>,
    /// TTFT p95 of the gap's ranked requests, ms, the same way.
    pub p95_ms: Option<f64>,
    /// Timeouts among them (a percentile reaching one is a lower bound),
    /// failures before the first token included.
    pub censored: usize,
    /// Of them, failed before their first token (counted cold, at the
    /// timeout, as every decision counts a failure).
    pub failed: usize,
    /// Of them, planned after a shorter gap: they sat idle at least this
    /// gap (another target's request was still running), so they count
    /// here.
    pub moved_in: usize,
    /// The median idle they had, seconds, as measured; `None` when no
    /// request of the gap measured it (older files).
    pub idle_median_s: Option<f64>,
    /// How many went on a new connection, of those that say.
    pub connections: Option<GapConnections>,
}

/// One gap's connections: how many requests had to open a new one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GapConnections {
    /// Requests that opened a new connection.
    pub new: usize,
    /// Requests that say how they were connected.
    pub of: usize,
    /// Exact (Clopper–Pearson) 95 % interval of the new share, 0–1.
    pub interval: (f64, f64),
}

impl GapFigures {
    /// Cold / requests, 0–1 (0 without requests).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn share(&self) -> f64 {
        if self.requests == 0 {
            0.0
        } else {
            self.cold as f64 / self.requests as f64
        }
    }
}

/// Where the cold share rises with idle, if it does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GoesCold {
    /// The cold share rises between `lo_s` and `hi_s` of idle: warm after
    /// `lo_s` (0 when even the shortest gap is mostly cold), cold more
    /// often after `hi_s`.
    After {
        /// The longest gap before the rise, s; 0 when the shortest gap is
        /// already mostly cold.
        lo_s: f64,
        /// The first gap whose cold share is above the shorter gaps', s.
        hi_s: f64,
        /// Fisher's exact test of that gap against the shorter ones pooled
        /// (two-sided); `None` when the shortest gap is already mostly cold.
        p_value: Option<f64>,
    },
    /// A gap is mostly cold where the shorter ones were not, but too few
    /// requests were made to tell that from chance: "may go cold after
    /// `lo_s`–`hi_s`", never "stayed warm".
    Unsure {
        /// The longest gap before the rise, s.
        lo_s: f64,
        /// The gap that was mostly cold, s.
        hi_s: f64,
        /// Fisher's exact test of that gap against the shorter ones pooled.
        p_value: f64,
    },
    /// No gap is colder than the shorter ones: after the longest gap,
    /// `cold` of `of` requests met a cold start.
    StayedWarm {
        /// The longest gap, s.
        after_s: f64,
        /// Cold requests after it.
        cold: usize,
        /// Ranked requests after it.
        of: usize,
        /// One-sided 95 % upper bound of its cold share, 0–1.
        share_at_most: f64,
    },
    /// Fewer than two gaps have a ranked request: nothing to compare.
    TooFewGaps,
}

impl GoesCold {
    /// `[lo, hi]` seconds when the share rises, for documents.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn range_s(&self) -> Option<[f64; 2]> {
        match *self {
            Self::After { lo_s, hi_s, .. } => Some([lo_s, hi_s]),
            Self::Unsure { .. } | Self::StayedWarm { .. } | Self::TooFewGaps => None,
        }
    }
}

/// A keep-warm ping: how often, and what it costs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeepWarm {
    /// One request at least this often keeps the model warm, seconds.
    pub every_s: f64,
    /// Pings a day with no other traffic.
    pub requests_per_day: f64,
    /// Their cost a day at the target's measured cost per request, US
    /// dollars; `None` without a price.
    pub usd_per_day: Option<f64>,
}

/// The cold share to expect at the user's own spacing between requests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AtTraffic {
    /// The plan's `typical_gap_s`.
    pub gap_s: f64,
    /// The monotone estimate there, as a range `(low, high)`, 0–1: equal
    /// ends at a measured gap; between two gaps, their estimates (a longer
    /// idle is never warmer); past the longest gap, from its estimate to 1.
    pub share: (f64, f64),
    /// From the low end of the monotone estimate's 95 % interval at the
    /// gap below (or 0 before the shortest) to the high end at the gap
    /// above (or 1 past the longest), 0–1
    /// ([`GapFigures::monotone_interval`]).
    pub interval: (f64, f64),
}

/// A dedicated endpoint against serverless requests with keep-warm pings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dedicated {
    /// The plan's price of a dedicated endpoint, US dollars an hour.
    pub usd_per_hour: f64,
    /// The same a day.
    pub usd_per_day: f64,
    /// Requests a day above which the dedicated endpoint costs less than
    /// serverless at the measured cost per request (pings fill the gaps
    /// the traffic leaves, so below it they add nothing once traffic is
    /// denser than the pings); `None` without a cost per request.
    pub break_even_requests_per_day: Option<f64>,
    /// The keep-warm pings alone cost more than the dedicated endpoint.
    pub cheaper_at_any_traffic: bool,
}

/// What the user sets for the settings: their spacing, a dedicated
/// endpoint's price and the measured cost of one request.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct IdleSettings {
    /// The plan's `typical_gap_s`.
    pub typical_gap_s: Option<f64>,
    /// The plan's `dedicated_usd_per_hour`.
    pub dedicated_usd_per_hour: Option<f64>,
    /// The target's cost per successful request, US dollars.
    pub cost_per_request_usd: Option<f64>,
}

/// Everything about one target's idle gaps.
#[derive(Clone, Debug, PartialEq)]
pub struct IdleFigures {
    /// One per gap with a ranked request, by gap ascending.
    pub gaps: Vec<GapFigures>,
    /// Where the cold share rises.
    pub goes_cold: GoesCold,
    /// The bound the cold requests are over, ms ([`cold_bound_ms`]): the
    /// warm median after the shortest gap times [`IdleFigures::cold_multiple`].
    pub threshold_ms: f64,
    /// How many times the warm median a request must take to be cold: 3,
    /// or more for a provider whose warm requests spread widely.
    pub cold_multiple: f64,
    /// That shortest gap, s.
    pub reference_gap_s: f64,
    /// Cold requests over every gap.
    pub cold_starts: usize,
    /// Their median TTFT, ms: how long a cold start makes the first token
    /// wait; a lower bound when it reaches a timeout.
    pub cold_median_ms: Option<f64>,
    /// Timeouts among the cold requests.
    pub cold_censored: usize,
    /// How often to ping to keep it warm; `None` when it never went cold,
    /// or went cold already after the shortest gap.
    pub keep_warm: Option<KeepWarm>,
    /// The cold share at the plan's `typical_gap_s`, when it sets one.
    pub at_traffic: Option<AtTraffic>,
    /// The dedicated endpoint's break-even, when the plan prices one.
    pub dedicated: Option<Dedicated>,
    /// Requests that sat idle past a longer planned gap than their own and
    /// count at that one.
    pub moved: usize,
    /// The longest any request sat idle beyond its planned gap, seconds.
    pub late_max_s: f64,
    /// When the connection closes, when the requests say how they were
    /// connected; `None` when none does (the page).
    pub connection: Option<ConnectionIdle>,
}

/// The connection's own idle window, apart from the model's: after how
/// long idle a request must open a new connection, and what that costs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConnectionIdle {
    /// Where the new-connection share rises with idle, by the same test as
    /// the cold share ([`GoesCold`]: `After` reads "closes after",
    /// `StayedWarm` "stayed open after").
    pub closes: GoesCold,
    /// Every request opened its own connection (a client that does not
    /// keep them, or a server that closes each one): no window to tell.
    pub always_new: bool,
    /// Median cost of opening one (DNS + TCP + TLS), ms, over the new
    /// connections that measured it, and how many did.
    pub setup_median_ms: Option<f64>,
    /// How many new connections measured their cost.
    pub setup_of: usize,
    /// Traffic this often keeps the connection open (a cheap request or,
    /// on HTTP/2, a ping), seconds; `None` unless it closes after a gap.
    pub keep_open_every_s: Option<f64>,
    /// What a new connection added to the first token beyond its measured
    /// opening, measured after the shortest gap, and whether it was taken
    /// off before the model was judged ([`ConnectionExtra`]).
    pub extra: ConnectionExtra,
}

/// What a new connection adds to the first token beyond its timed opening
/// (DNS + TCP + TLS), measured where the model is known warm: after the
/// shortest gap, the warm reference, where the plan sends every other
/// request on a new connection on purpose. A TLS terminator, load
/// balancer or auth proxy that holds the first request of a connection
/// costs this; a client that sees no TLS phase (plain HTTP through a
/// proxy) puts its handshake here.
///
/// Why there: after a longer gap the model may be cold too, and a
/// comparison there would need to know where the model is warm, which is
/// what the figures are to find.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConnectionExtra {
    /// Measured: the median TTFT (timed opening taken off) of the shortest
    /// gap's requests on a new connection less that of its requests on a
    /// kept one, ms (it may come out below 0: noise), from `new` and
    /// `reused` requests (at least [`MIN_EXTRA_REQUESTS`] of each, timeouts
    /// left out). Taken off, when above 0, every request that opened a new
    /// connection, at every gap, before the model is judged.
    TakenOff {
        /// The extra, ms.
        ms: f64,
        /// Requests on a new connection it came from.
        new: usize,
        /// Requests on a kept connection it came from.
        reused: usize,
    },
    /// The shortest gap's requests (those not sent on a new connection on
    /// purpose) mostly had to open one: the connection closes before the
    /// shortest gap, so the warm reference already holds a new
    /// connection's cost, and nothing is taken off. `new` of `of` such
    /// requests opened one.
    InReference {
        /// Requests that had to open a new connection.
        new: usize,
        /// Requests not sent on a new connection on purpose.
        of: usize,
    },
    /// Fewer than [`MIN_EXTRA_REQUESTS`] of the shortest gap's requests on
    /// a new connection, or on a kept one (files from before the plan sent
    /// any on purpose): not measured, nothing taken off.
    NotMeasured {
        /// Requests on a new connection.
        new: usize,
        /// Requests on a kept connection.
        reused: usize,
    },
}

impl ConnectionExtra {
    /// The extra as measured, ms, when it was.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn measured_ms(&self) -> Option<f64> {
        match *self {
            Self::TakenOff { ms, .. } => Some(ms),
            Self::InReference { .. } | Self::NotMeasured { .. } => None,
        }
    }

    /// What is taken off the TTFT of each request that opened a new
    /// connection, ms: the measured extra, not below 0; 0 otherwise.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn taken_off_ms(&self) -> f64 {
        self.measured_ms()
            .filter(|ms| ms.is_finite())
            .map_or(0.0, |ms| ms.max(0.0))
    }
}

/// Each side of [`ConnectionExtra::TakenOff`] needs this many requests
/// after the shortest gap.
pub const MIN_EXTRA_REQUESTS: usize = 3;

/// One ranked request as the figures group it.
#[derive(Clone, Copy, Debug)]
struct Ranked {
    /// The gap it counts at: the longest planned gap it sat idle through.
    gap_s: f64,
    /// Its TTFT after its connection was ready, ms (timeouts at the timeout).
    ms: f64,
    censored: bool,
    failed: bool,
    /// Planned after a shorter gap than it counts at.
    moved: bool,
    /// Its measured idle, s.
    idle_s: Option<f64>,
    /// Idle beyond its planned gap, s.
    late_s: f64,
    connection: Option<IdleConnection>,
    /// The gap its connection's idle reached; `None` below the shortest.
    connection_gap_s: Option<f64>,
}

/// The planned gap a request counts at: the longest of the plan's `gaps`
/// (ascending) that its measured idle reached, never shorter than its own
/// planned gap. A request sat idle at least that long and less than the
/// next gap, so "warm after g" and "cold after g" stay true of its idle.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn counted_gap_s(gaps: &[f64], planned_s: f64, idle_s: Option<f64>) -> f64 {
    let reached = idle_s
        .filter(|s| s.is_finite())
        .and_then(|idle| gaps.iter().rev().find(|&&g| g <= idle).copied());
    reached.map_or(planned_s, |g| g.max(planned_s))
}

/// The idle figures of one target's `requests` (its headline population's
/// measured requests that carry an idle gap), `timeout_ms` being the
/// plan's, where censored requests rank. Each request counts at the gap
/// its measured idle reached ([`counted_gap_s`]), and a request that
/// opened a new connection is judged cold on its TTFT less the measured
/// cost of opening it and less what a new connection adds beyond that
/// where the model is warm ([`ConnectionExtra`]), so a closed connection
/// is not read as a cold replica; the connection's own window is
/// [`IdleFigures::connection`].
/// `None` when no request carries a gap, or none after the shortest gap
/// is ranked (no warm reference).
/// Cost: O(n log n) for the sort, plus a Fisher test per gap.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn idle_figures(
    requests: &[IdleRequest],
    timeout_ms: f64,
    settings: IdleSettings,
) -> Option<IdleFigures> {
    let usable = |r: &&IdleRequest| r.gap_s.is_finite() && r.gap_s >= 0.0;
    let mut planned: Vec<f64> = requests.iter().filter(usable).map(|r| r.gap_s).collect();
    sort_numbers(&mut planned);
    planned.dedup();
    let mut ranked: Vec<Ranked> = requests
        .iter()
        .filter(usable)
        .filter_map(|r| {
            let setup_ms = r
                .connection
                .filter(|c| !c.reused)
                .and_then(|c| c.setup_ms)
                .filter(|ms| ms.is_finite() && *ms > 0.0)
                .unwrap_or(0.0);
            let (ms, censored) = match r.rank {
                TtftRank::Measured(ms) => ((ms - setup_ms).max(0.0), false),
                TtftRank::Censored => (timeout_ms, true),
                TtftRank::Excluded => return None,
            };
            let gap_s = counted_gap_s(&planned, r.gap_s, r.idle_s);
            Some(Ranked {
                gap_s,
                ms,
                censored,
                failed: r.failed,
                moved: gap_s > r.gap_s,
                idle_s: r.idle_s.filter(|s| s.is_finite()),
                late_s: r.idle_s.map_or(0.0, |idle| (idle - r.gap_s).max(0.0)),
                connection: r.connection,
                connection_gap_s: r.connection.and_then(|c| match c.idle_s {
                    Some(idle) => planned.iter().rev().find(|&&g| g <= idle).copied(),
                    None => Some(gap_s),
                }),
            })
        })
        .collect();
    let extra = connection_extra(&ranked);
    let taken_off_ms = extra.taken_off_ms();
    if taken_off_ms > 0.0 {
        for r in ranked
            .iter_mut()
            .filter(|r| !r.censored && r.connection.is_some_and(|c| !c.reused))
        {
            r.ms = (r.ms - taken_off_ms).max(0.0);
        }
    }
    ranked.sort_unstable_by(|a, b| a.gap_s.total_cmp(&b.gap_s).then(a.ms.total_cmp(&b.ms)));
    // The slow rule on the shortest gap's requests (sorted by TTFT, the
    // timeouts at the top as the rule expects them).
    let shortest_s = ranked.first()?.gap_s;
    // A request opened on a new connection on purpose measures the
    // connection, not the warm model: it stands in the reference only
    // once what the connection added is taken off (too few kept requests
    // to measure it would leave the reference holding an untimed
    // handshake, and the cold bound far above a real cold start).
    let shortest = || ranked.iter().take_while(|r| r.gap_s == shortest_s);
    let on_purpose = |r: &&Ranked| taken_off_ms <= 0.0 && r.connection.is_some_and(|c| c.fresh);
    let mut reference: Vec<f64> = if shortest().any(|r| !on_purpose(&r)) {
        shortest()
            .filter(|r| !on_purpose(r))
            .map(|r| r.ms)
            .collect()
    } else {
        shortest().map(|r| r.ms).collect()
    };
    sort_numbers(&mut reference);
    let (warm_median_ms, cold_multiple) = cold_bound(&reference)?;
    let mut figures = figures_over(&ranked, warm_median_ms * cold_multiple, settings, extra);
    figures.cold_multiple = cold_multiple;
    Some(figures)
}

/// A warm request's spread is estimated from the lower part of the
/// reference population, between these two quantiles (0–100): at and
/// below its median, which a cold start among a minority of it does not
/// move.
const SPREAD_QUANTILES: (f64, f64) = (10.0, 50.0);

/// The empty stretch, as a ratio of TTFTs, between the fast few of a
/// mostly cold reference population and the rest ([`mostly_cold_split`]).
const MOSTLY_COLD_GAP: f64 = 8.0;

/// A mostly cold reference population needs this many fast requests to
/// stand for the warm ones ([`mostly_cold_split`]).
const MIN_WARM_GROUP: usize = 2;

/// Standard-normal distance between [`SPREAD_QUANTILES`]: 1.2816.
const SPREAD_Z: f64 = 1.281_6;

/// How many warm spreads (on log TTFT) above the warm median a request
/// must lie to meet a cold replica, when that is more than
/// [`crate::judgement::slow::SLOW_MULTIPLE`]×: far enough that a warm
/// provider with heavy-tailed noise rarely crosses it (log-t₃ at scale
/// 0.5 about 1 request in 120, a lognormal at σ 0.7 about 1 in 700).
const COLD_SPREADS: f64 = 4.0;

/// Warm spreads are never taken below this (log), as the tail detector's
/// floor: jitter on a steady provider does not make a spread.
const MIN_SPREAD: f64 = 0.05;

/// The cold bound of a target's idle requests, ms, from its reference
/// population `sorted_ms` (the requests after the shortest gap, ascending,
/// timeouts at the timeout): fixed from that named population, never
/// iterated down its requests. The warm median is the population's
/// median, and the warm spread is read on log TTFT from its 10th
/// percentile to the median; a request is cold above the warm median
/// times the larger of [`crate::judgement::slow::SLOW_MULTIPLE`] and
/// e^(4 × spread). When the population is mostly cold (a
/// fast group apart from a slower majority, `mostly_cold_split`), the
/// fast group stands in for it.
///
/// Why not the slow rule's warm reference: it is iterated, "slow of slow",
/// and on a warm provider with heavy-tailed noise it ran down to the
/// fastest request (a 52 ms threshold against a 512 ms median), calling
/// warm outliers cold replicas. `None` without a positive reference.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn cold_bound_ms(sorted_ms: &[f64]) -> Option<f64> {
    cold_bound(sorted_ms).map(|(median_ms, multiple)| median_ms * multiple)
}

/// [`cold_bound_ms`] as its two parts: the warm median, ms, and the
/// multiple of it a cold request exceeds.
#[cfg_attr(target_arch = "wasm32", inline)]
fn cold_bound(sorted_ms: &[f64]) -> Option<(f64, f64)> {
    let warm = mostly_cold_split(sorted_ms).unwrap_or(sorted_ms);
    let (low, median) = (
        percentile(warm, SPREAD_QUANTILES.0)?,
        percentile(warm, SPREAD_QUANTILES.1)?,
    );
    if !(low > 0.0 && median > 0.0) {
        return None;
    }
    let spread = ((median.ln() - low.ln()) / SPREAD_Z).max(MIN_SPREAD);
    let multiple = crate::judgement::slow::SLOW_MULTIPLE.max((COLD_SPREADS * spread).exp());
    Some((median, multiple))
}

/// The warm requests of a reference population that is mostly cold: a
/// model that scales to zero sooner than the shortest gap meets a cold
/// replica after most of them, and their median is a cold start. Such a
/// population is a fast group of at least [`MIN_WARM_GROUP`] requests, at
/// most half of them, below an empty stretch of at least
/// [`MOSTLY_COLD_GAP`]× (the widest such stretch). A warm provider with
/// heavy-tailed noise rarely leaves one inside its fastest half; a
/// cold start that short (under 8× the warm median) is not told from it.
/// `None` otherwise.
#[cfg_attr(target_arch = "wasm32", inline)]
fn mostly_cold_split(sorted_ms: &[f64]) -> Option<&[f64]> {
    let half = sorted_ms.len() / 2;
    let (at, ratio) = (MIN_WARM_GROUP..=half)
        .filter(|&i| sorted_ms[i - 1] > 0.0)
        .map(|i| (i, sorted_ms[i] / sorted_ms[i - 1]))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    (ratio >= MOSTLY_COLD_GAP).then(|| &sorted_ms[..at])
}

/// What a new connection adds beyond its timed opening, from the
/// shortest gap's requests of `ranked` (their TTFT already less the timed
/// opening); see [`ConnectionExtra`].
#[cfg_attr(target_arch = "wasm32", inline)]
fn connection_extra(ranked: &[Ranked]) -> ConnectionExtra {
    let Some(shortest_s) = ranked.iter().map(|r| r.gap_s).min_by(f64::total_cmp) else {
        return ConnectionExtra::NotMeasured { new: 0, reused: 0 };
    };
    let (mut new_ms, mut reused_ms) = (Vec::new(), Vec::new());
    // The requests the plan left to the kept connection: whether they
    // mostly found it closed says whether it lasts the shortest gap.
    let (mut had_to_open, mut left_alone) = (0, 0);
    for r in ranked.iter().filter(|r| r.gap_s == shortest_s) {
        let Some(connection) = r.connection else {
            continue;
        };
        if !connection.fresh {
            left_alone += 1;
            had_to_open += usize::from(!connection.reused);
        }
        if !r.censored {
            if connection.reused {
                reused_ms.push(r.ms);
            } else {
                new_ms.push(r.ms);
            }
        }
    }
    if 2 * had_to_open > left_alone {
        return ConnectionExtra::InReference {
            new: had_to_open,
            of: left_alone,
        };
    }
    sort_numbers(&mut new_ms);
    sort_numbers(&mut reused_ms);
    let (new, reused) = (new_ms.len(), reused_ms.len());
    match (percentile(&new_ms, 50.0), percentile(&reused_ms, 50.0)) {
        (Some(new_median), Some(reused_median))
            if new >= MIN_EXTRA_REQUESTS && reused >= MIN_EXTRA_REQUESTS =>
        {
            ConnectionExtra::TakenOff {
                ms: new_median - reused_median,
                new,
                reused,
            }
        }
        _ => ConnectionExtra::NotMeasured { new, reused },
    }
}

/// The figures of `ranked` (by gap, then TTFT), cold being over
/// `threshold_ms` or censored; `extra` is what was taken off the requests
/// on a new connection, for [`ConnectionIdle::extra`].
#[cfg_attr(target_arch = "wasm32", inline)]
fn figures_over(
    ranked: &[Ranked],
    threshold_ms: f64,
    settings: IdleSettings,
    extra: ConnectionExtra,
) -> IdleFigures {
    let reference_gap_s = ranked.first().map_or(0.0, |r| r.gap_s);
    let is_cold = |r: &Ranked| r.censored || r.ms > threshold_ms;

    let mut gaps: Vec<GapFigures> = Vec::new();
    for group in ranked.chunk_by(|a, b| a.gap_s == b.gap_s) {
        let sorted: Vec<f64> = group.iter().map(|r| r.ms).collect();
        let cold = group.iter().filter(|r| is_cold(r)).count();
        let mut idle: Vec<f64> = group.iter().filter_map(|r| r.idle_s).collect();
        sort_numbers(&mut idle);
        let gap_s = group[0].gap_s;
        // A request's connection counts at the gap its connection's own
        // idle reached, which another target on the same origin may have
        // cut short; one opened on purpose says nothing of when the kept
        // one closes.
        let known: Vec<bool> = ranked
            .iter()
            .filter(|r| r.connection_gap_s == Some(gap_s))
            .filter_map(|r| r.connection.filter(|c| !c.fresh).map(|c| !c.reused))
            .collect();
        let new = known.iter().filter(|&&new| new).count();
        gaps.push(GapFigures {
            gap_s: group[0].gap_s,
            requests: group.len(),
            cold,
            interval: clopper_pearson(cold, group.len(), IDLE_CONFIDENCE),
            monotone_share: 0.0,
            monotone_interval: (0.0, 1.0),
            median_ms: percentile(&sorted, 50.0),
            p95_ms: percentile(&sorted, 95.0),
            censored: group.iter().filter(|r| r.censored).count(),
            failed: group.iter().filter(|r| r.failed).count(),
            moved_in: group.iter().filter(|r| r.moved).count(),
            idle_median_s: percentile(&idle, 50.0),
            connections: (!known.is_empty()).then(|| GapConnections {
                new,
                of: known.len(),
                interval: clopper_pearson(new, known.len(), IDLE_CONFIDENCE),
            }),
        });
    }
    let shares: Vec<f64> = gaps.iter().map(GapFigures::share).collect();
    let weights: Vec<f64> = gaps.iter().map(|g| g.requests as f64).collect();
    for (gap, fitted) in gaps
        .iter_mut()
        .zip(isotonic_non_decreasing(&shares, &weights))
    {
        gap.monotone_share = fitted;
    }
    // Each block of gaps the fit pooled (one fitted value) gets the exact
    // interval of its pooled requests: the interval of the estimate it
    // prints, not of a single gap's raw share.
    for block in gaps.chunk_by_mut(|a, b| a.monotone_share == b.monotone_share) {
        let cold: usize = block.iter().map(|g| g.cold).sum();
        let requests: usize = block.iter().map(|g| g.requests).sum();
        let interval = clopper_pearson(cold, requests, IDLE_CONFIDENCE);
        for gap in block {
            gap.monotone_interval = interval;
        }
    }

    let mut cold_sorted: Vec<(f64, bool)> = ranked
        .iter()
        .filter(|r| is_cold(r))
        .map(|r| (r.ms, r.censored))
        .collect();
    cold_sorted.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let cold_values: Vec<f64> = cold_sorted.iter().map(|(ms, _)| *ms).collect();

    let goes_cold = goes_cold(&gaps);
    let keep_warm = match goes_cold {
        GoesCold::After { lo_s, .. } if lo_s > 0.0 => {
            let every_s = keep_every_s(lo_s);
            let requests_per_day = DAY_S / every_s;
            Some(KeepWarm {
                every_s,
                requests_per_day,
                usd_per_day: settings
                    .cost_per_request_usd
                    .map(|usd| usd * requests_per_day),
            })
        }
        _ => None,
    };
    let at_traffic = settings
        .typical_gap_s
        .filter(|t| t.is_finite() && *t >= 0.0)
        .and_then(|t| at_traffic(&gaps, t));
    let dedicated = settings
        .dedicated_usd_per_hour
        .filter(|usd| usd.is_finite() && *usd >= 0.0)
        .map(|usd_per_hour| {
            let usd_per_day = usd_per_hour * 24.0;
            let ping_usd = keep_warm.and_then(|k| k.usd_per_day).unwrap_or(0.0);
            Dedicated {
                usd_per_hour,
                usd_per_day,
                break_even_requests_per_day: settings
                    .cost_per_request_usd
                    .filter(|usd| *usd > 0.0)
                    .map(|usd| usd_per_day / usd),
                cheaper_at_any_traffic: keep_warm.is_some() && ping_usd >= usd_per_day,
            }
        });
    let connection = connection_idle(ranked, &gaps, extra);
    IdleFigures {
        cold_starts: cold_values.len(),
        cold_median_ms: percentile(&cold_values, 50.0),
        cold_censored: cold_sorted.iter().filter(|(_, c)| *c).count(),
        gaps,
        goes_cold,
        threshold_ms,
        cold_multiple: crate::judgement::slow::SLOW_MULTIPLE,
        reference_gap_s,
        keep_warm,
        at_traffic,
        dedicated,
        moved: ranked.iter().filter(|r| r.moved).count(),
        late_max_s: ranked.iter().map(|r| r.late_s).fold(0.0, f64::max),
        connection,
    }
}

/// A keep-warm interval just under `lo_s`, the longest idle shown to
/// stay warm: [`KEEP_WARM_SHARE`] of it, in whole seconds, or tenths below
/// ten seconds.
#[cfg_attr(target_arch = "wasm32", inline)]
fn keep_every_s(lo_s: f64) -> f64 {
    if lo_s * KEEP_WARM_SHARE >= 10.0 {
        (lo_s * KEEP_WARM_SHARE).floor()
    } else {
        ((lo_s * KEEP_WARM_SHARE * 10.0).floor() / 10.0).max(0.1)
    }
}

/// The connection's window, from the gaps' new-connection counts and the
/// measured costs of the new connections; `None` when no request says how
/// it was connected.
#[cfg_attr(target_arch = "wasm32", inline)]
fn connection_idle(
    ranked: &[Ranked],
    gaps: &[GapFigures],
    extra: ConnectionExtra,
) -> Option<ConnectionIdle> {
    let tallies: Vec<Tally> = gaps
        .iter()
        .filter_map(|g| {
            g.connections.map(|c| Tally {
                gap_s: g.gap_s,
                hits: c.new,
                of: c.of,
            })
        })
        .collect();
    if tallies.is_empty() {
        return None;
    }
    let mut setups: Vec<f64> = ranked
        .iter()
        .filter_map(|r| r.connection)
        .filter(|c| !c.reused)
        .filter_map(|c| c.setup_ms)
        .filter(|ms| ms.is_finite() && *ms >= 0.0)
        .collect();
    sort_numbers(&mut setups);
    let always_new = tallies.iter().all(|t| t.hits == t.of);
    let closes = if always_new {
        GoesCold::TooFewGaps
    } else {
        rise(&tallies)
    };
    let keep_open_every_s = match closes {
        GoesCold::After { lo_s, .. } if lo_s > 0.0 => Some(keep_every_s(lo_s)),
        _ => None,
    };
    Some(ConnectionIdle {
        extra,
        closes,
        always_new,
        setup_median_ms: percentile(&setups, 50.0),
        setup_of: setups.len(),
        keep_open_every_s,
    })
}

/// One gap's count of an event (a cold replica, a new connection).
#[derive(Clone, Copy, Debug)]
struct Tally {
    gap_s: f64,
    hits: usize,
    of: usize,
}

/// Where the cold share of `gaps` (ascending) rises; see the module doc.
#[cfg_attr(target_arch = "wasm32", inline)]
fn goes_cold(gaps: &[GapFigures]) -> GoesCold {
    let tallies: Vec<Tally> = gaps
        .iter()
        .map(|g| Tally {
            gap_s: g.gap_s,
            hits: g.cold,
            of: g.requests,
        })
        .collect();
    rise(&tallies)
}

/// Where the share of an event rises over `tallies` (by gap ascending):
/// the first gap above all shorter gaps pooled by Fisher's exact test at
/// [`RISE_LEVEL`] shared among the comparisons; before the shortest when
/// that one is mostly hits already; unsure when a gap is mostly hits above
/// mostly-miss shorter gaps but the test cannot tell it from chance (3 of 3
/// against 0 of 3); otherwise no rise, with a one-sided bound at the
/// longest gap.
#[cfg_attr(target_arch = "wasm32", inline)]
fn rise(tallies: &[Tally]) -> GoesCold {
    let tallies: Vec<Tally> = tallies.iter().copied().filter(|t| t.of > 0).collect();
    let (Some(shortest), Some(longest)) = (tallies.first(), tallies.last()) else {
        return GoesCold::TooFewGaps;
    };
    if tallies.len() < 2 {
        return GoesCold::TooFewGaps;
    }
    if clopper_pearson(shortest.hits, shortest.of, IDLE_CONFIDENCE).0 > 0.5 {
        return GoesCold::After {
            lo_s: 0.0,
            hi_s: shortest.gap_s,
            p_value: None,
        };
    }
    let level = RISE_LEVEL / (tallies.len() - 1) as f64;
    let (mut hits_below, mut of_below) = (0, 0);
    // The first gap mostly cold above mostly warm shorter ones that the
    // test could not tell from chance.
    let mut unsure = None;
    for pair in tallies.windows(2) {
        let (before, gap) = (&pair[0], &pair[1]);
        hits_below += before.hits;
        of_below += before.of;
        // Higher than every shorter gap together, and not by chance.
        let higher = gap.hits * of_below > hits_below * gap.of;
        if higher {
            let p = fisher_exact(gap.hits, gap.of, hits_below, of_below);
            if p < level {
                return GoesCold::After {
                    lo_s: before.gap_s,
                    hi_s: gap.gap_s,
                    p_value: Some(p),
                };
            }
            let mostly = |hits: usize, of: usize| 2 * hits > of;
            if unsure.is_none() && mostly(gap.hits, gap.of) && !mostly(hits_below, of_below) {
                unsure = Some(GoesCold::Unsure {
                    lo_s: before.gap_s,
                    hi_s: gap.gap_s,
                    p_value: p,
                });
            }
        }
    }
    if let Some(unsure) = unsure {
        return unsure;
    }
    GoesCold::StayedWarm {
        after_s: longest.gap_s,
        cold: longest.hits,
        of: longest.of,
        // A two-sided 90 % interval's upper end is the one-sided 95 % bound.
        share_at_most: clopper_pearson(longest.hits, longest.of, 1.0 - 2.0 * 0.05).1,
    }
}

/// The cold share at a spacing of `gap_s` between the user's requests,
/// from the monotone estimates and intervals of the gaps around it.
#[cfg_attr(target_arch = "wasm32", inline)]
fn at_traffic(gaps: &[GapFigures], gap_s: f64) -> Option<AtTraffic> {
    if gaps.is_empty() {
        return None;
    }
    // The gaps at or below and at or above the spacing.
    let below = gaps.iter().rev().find(|g| g.gap_s <= gap_s);
    let above = gaps.iter().find(|g| g.gap_s >= gap_s);
    let share = (
        below.map_or(0.0, |g| g.monotone_share),
        above.map_or(1.0, |g| g.monotone_share),
    );
    // The intervals of the same monotone estimates, so the range said
    // lies inside the interval said with it.
    let interval = (
        below.map_or(0.0, |g| g.monotone_interval.0),
        above.map_or(1.0, |g| g.monotone_interval.1),
    );
    Some(AtTraffic {
        gap_s,
        share,
        interval,
    })
}

/// The non-decreasing sequence closest to `values` in weighted least
/// squares (the isotonic regression), by pool-adjacent-violators: walk left
/// to right, and while the last block's mean is above the new one, merge
/// them into one block at their weighted mean. Weights must be positive.
/// Cost: O(n).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn isotonic_non_decreasing(values: &[f64], weights: &[f64]) -> Vec<f64> {
    // (weighted mean, total weight, values pooled)
    let mut blocks: Vec<(f64, f64, usize)> = Vec::with_capacity(values.len());
    for (&value, &weight) in values.iter().zip(weights) {
        let mut block = (value, weight.max(f64::MIN_POSITIVE), 1);
        while let Some(&last) = blocks.last() {
            if last.0 <= block.0 {
                break;
            }
            blocks.pop();
            let total = last.1 + block.1;
            block = (
                (last.0 * last.1 + block.0 * block.1) / total,
                total,
                last.2 + block.2,
            );
        }
        blocks.push(block);
    }
    blocks
        .iter()
        .flat_map(|&(mean, _, count)| std::iter::repeat_n(mean, count))
        .collect()
}

#[cfg(test)]
mod tests;
