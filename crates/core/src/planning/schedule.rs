//! When each request of a run is sent, and the state machine that walks a run
//! through those times: pause, resume, stop, overruns and reloads.
//!
//! Drift-free by construction: every send time is computed from the run's
//! start (`start + i × spacing + jitter_i`), never from the previous wake-up,
//! so a late timer delays one send, not all later ones.
//!
//! No bursts: when a request overruns (it is still in flight when the next
//! one was due), the rest of the schedule moves later by the overrun, and
//! no send ever comes closer to the previous one than the plan's spacing
//! minus its jitter. Sending the overdue requests back to back instead
//! would keep a cold model warm, which is exactly what the method must not
//! do. The end of the run moves later by the same amount; the runner keeps
//! the total ([`Runner::schedule_shift_ms`]) for the results.
//! Targets are interleaved round-robin so every target sees the same hours of
//! the day. Pure: times are epoch milliseconds passed in by the caller.
//!
//! **Idle gaps.** With the plan's `idle_gaps_s`, every measured latency
//! request of a target is sent after one of the gaps of idle *from this
//! client*: no sooner than that long after the end of the target's previous
//! request. Each target's gaps come in permuted blocks (every gap once per
//! block, in a seeded shuffled order), so every gap comes equally often and
//! is spread over the whole run, seeing the same hours as the others. The
//! send times then depend on when requests end, so the runner picks, among
//! each target's next request, the one due first; other targets' requests go
//! in the meantime, one at a time as always. A request can only be later
//! than its gap (another target's request still running, a pause, a reload),
//! never sooner, so a gap's idle is at least what it says. The plan's
//! spacing does not hold a gap's request back (it would stretch every gap
//! shorter than the spacing times the targets); it still spaces warm-ups
//! and probes. Each request handed out says when its target last ended
//! ([`PlannedRequest::idle_since_ms`]), so its sample records the idle it
//! really had, and the idle figures group by that.
//!
//! **A new connection where the model is warm.** Every other request of a
//! target after the shortest gap (the second, fourth, … of its own at that
//! gap) asks for a new connection ([`PlannedRequest::fresh_connection`]):
//! after the shortest gap the model is the warm reference, so the time
//! those requests take beyond the others is what a new connection costs,
//! the untimed part included (a proxy holding a connection's first
//! request), and the idle figures take that off a request that opened one
//! before judging the model ([`crate::judgement::idle`]). Chosen by the
//! request's place in the plan, never by what happened, so a resume asks
//! the same; a client that cannot choose its connections (a browser)
//! ignores it. A plan without idle gaps asks for none.

use crate::planning::fidelity::suite::{Probe, Suite};
use crate::planning::plan::Plan;
use crate::planning::prompt::{self, SizedPrompt};
use serde::{Deserialize, Serialize};

/// One request of the run, in send order.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlannedRequest {
    /// Position in the whole run, from 0.
    pub index: u32,
    /// Index of the target in the plan's `targets`.
    pub target: u32,
    /// Position within its target, warm-ups included, from 0 (as in `Sample::seq`).
    pub seq: u32,
    /// A warm-up request: sent first, kept, left out of the statistics.
    pub warmup: bool,
    /// When to send it (epoch ms).
    pub planned_at_ms: f64,
    /// The fidelity probe it sends instead of the plan's prompt; `None` for
    /// a latency request (and in run records written before probes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probe: Option<PlannedProbe>,
    /// The synthetic prompt's size (and, for a cache-probe repeat, the
    /// send it repeats) when the plan has `prompt_sizes`; `None` for the
    /// plan's prompt alone (and in run records written before sizes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sized_prompt: Option<SizedPrompt>,
    /// How long, seconds, the target stays idle from this client before
    /// this request (from the end of its previous request) when the plan
    /// has `idle_gaps_s`; `None` for warm-ups, probes, a plan without idle
    /// gaps (and in run records written before them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle_gap_s: Option<f64>,
    /// When its target's previous request ended (epoch ms), as
    /// [`Runner::next`] hands out a request with an idle gap: the sample's
    /// measured idle runs from here to its send. `None` in the plan itself,
    /// for the target's first request and without idle gaps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle_since_ms: Option<f64>,
    /// Send it on a new connection, not a kept one: every other request of
    /// its target after the plan's shortest idle gap, so the idle figures
    /// can measure what a new connection costs where the model is warm
    /// (the module doc). Only with idle gaps; a client that cannot choose
    /// (the page) ignores it. Left out of documents when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fresh_connection: bool,
}

impl PlannedRequest {
    /// How long its target has sat idle at `now_ms` (epoch ms), seconds:
    /// from [`PlannedRequest::idle_since_ms`], or the planned gap where
    /// that is unknown. The demo provider plays its scale-to-zero on this,
    /// as a real one would.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn idle_at_s(&self, now_ms: f64) -> Option<f64> {
        self.idle_since_ms
            .map(|end_ms| ((now_ms - end_ms) / 1000.0).max(0.0))
            .filter(|s| s.is_finite())
            .or(self.idle_gap_s)
    }

    /// The `seq` whose nonce this request carries: the first send's for a
    /// cache-probe repeat (the same prompt, so a cache can serve it), its
    /// own otherwise.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn nonce_seq(&self) -> u32 {
        self.sized_prompt
            .and_then(|prompt| prompt.repeat_of)
            .unwrap_or(self.seq)
    }
}

/// Which probe a planned request sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedProbe {
    /// The suite.
    pub suite: Suite,
    /// The probe's place in the suite.
    pub index: u16,
}

impl PlannedProbe {
    /// The probe itself; `None` for an index past the suite (a run record
    /// edited by hand).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn probe(self) -> Option<&'static Probe> {
        self.suite.probes().get(usize::from(self.index))
    }
}

/// Every request of a run with its planned send time.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// Requests in send order; `requests[i].index == i`.
    pub requests: Vec<PlannedRequest>,
    /// When the run starts (epoch ms); the first request is sent then.
    pub start_ms: f64,
    /// Milliseconds between consecutive planned sends, before jitter.
    pub spacing_ms: f64,
    /// Each request's jitter (ms), by index; the first is always 0.
    pub jitter_ms: Vec<f64>,
}

impl Schedule {
    /// Plans every request of `plan`, starting at `start_ms` (epoch ms).
    ///
    /// Order: warm-up rounds first, then measured rounds; within a round
    /// targets go 0, 1, …, n−1. Request i is planned at
    /// `start + i × spacing + jitter_i`, jitter uniform in ± `jitter_s` from a
    /// PRNG seeded with `seed` (same seed, same schedule). The first request
    /// has no jitter so nothing is planned before the start. Spacing is
    /// [`Plan::effective_spacing_s`] (so `spread_hours` works here too).
    ///
    /// Meant for a plan that passed [`Plan::validate`]; to keep send order
    /// whatever it is given, jitter is capped just under half the spacing and
    /// negative or non-finite values count as 0.
    ///
    /// Cost: O(requests) time and memory.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn new(plan: &Plan, start_ms: f64, seed: u64) -> Self {
        let targets = u32::try_from(plan.targets.len()).unwrap_or(u32::MAX);
        let spacing_ms = finite_non_negative(plan.effective_spacing_s()) * 1000.0;
        let jitter_cap_ms = spacing_ms * 0.499;
        let jitter_max_ms = (finite_non_negative(plan.jitter_s) * 1000.0).min(jitter_cap_ms);

        let probes = plan
            .fidelity
            .as_ref()
            .map_or(0, |fidelity| fidelity.requests_per_target());
        let rounds = plan
            .warmup_per_target
            .saturating_add(plan.requests_per_target)
            .saturating_add(probes);
        let total = usize::try_from(u64::from(rounds) * u64::from(targets)).unwrap_or(usize::MAX);
        let mut rng = fastrand::Rng::with_seed(seed);
        // Capacity capped: an unvalidated plan must not reserve gigabytes up front.
        let capacity = total.min(1 << 20);
        let mut requests = Vec::with_capacity(capacity);
        let mut jitters = Vec::with_capacity(capacity);
        let mut index: u32 = 0;
        let suite = plan.fidelity.as_ref().map(|fidelity| fidelity.suite);
        let suite_len = suite.map_or(1, |suite| suite.probes().len().max(1));
        let mut probes_sent: u32 = 0;
        // Prompt sizes rotate over the measured rounds that send no probe
        // (the rounds are shared by all targets, so every size sees the
        // same hours); a repeat names the round just before it.
        let turns = prompt::cycle(plan);
        let mut measured_rounds: usize = 0;
        let mut last_measured_seq: Option<u32> = None;
        // Idle gaps: each target's order of gaps over its latency requests,
        // from a stream of its own (the jitter's draws are untouched, so a
        // plan without gaps is planned exactly as before).
        let gap_orders: Vec<Vec<f64>> = plan
            .idle_gaps_s
            .as_deref()
            .filter(|gaps| !gaps.is_empty())
            .map(|gaps| {
                (0..targets)
                    .map(|target| {
                        idle_gap_order(
                            gaps,
                            plan.requests_per_target as usize,
                            idle_gap_seed(seed, target),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        // The shortest gap, whose every other request per target goes on
        // a new connection, counted per target.
        let shortest_gap_s = plan
            .idle_gaps_s
            .as_deref()
            .unwrap_or_default()
            .iter()
            .copied()
            .filter(|g| g.is_finite())
            .min_by(f64::total_cmp);
        let mut at_shortest = vec![0_usize; gap_orders.len()];
        let mut latency_rounds: usize = 0;
        for seq in 0..rounds {
            // After the warm-ups, probe rounds are spread evenly among the
            // measured rounds, every target sending the same probe in the
            // same round; the suite goes round once before any repeat, so
            // the repeats fall hours apart on a long run.
            let probe = suite.filter(|_| {
                seq >= plan.warmup_per_target
                    && is_probe_round(
                        seq - plan.warmup_per_target,
                        rounds - plan.warmup_per_target,
                        probes,
                    )
            });
            let probe = probe.map(|suite| {
                let index = probes_sent as usize % suite_len;
                probes_sent += 1;
                PlannedProbe {
                    suite,
                    index: u16::try_from(index).unwrap_or(u16::MAX),
                }
            });
            let sized_prompt = if turns.is_empty() || probe.is_some() {
                None
            } else if seq < plan.warmup_per_target {
                Some(SizedPrompt {
                    tokens: turns[0].0,
                    repeat_of: None,
                })
            } else {
                let (tokens, repeat) = turns[measured_rounds % turns.len()];
                measured_rounds += 1;
                let repeat_of = if repeat { last_measured_seq } else { None };
                last_measured_seq = Some(seq);
                Some(SizedPrompt { tokens, repeat_of })
            };
            let latency_round = (seq >= plan.warmup_per_target && probe.is_none()).then(|| {
                latency_rounds += 1;
                latency_rounds - 1
            });
            for target in 0..targets {
                let idle_gap_s = latency_round.and_then(|round| {
                    gap_orders
                        .get(target as usize)
                        .and_then(|order| order.get(round))
                        .copied()
                });
                let fresh_connection = match (idle_gap_s, shortest_gap_s) {
                    (Some(gap_s), Some(shortest)) if gap_s == shortest => {
                        at_shortest.get_mut(target as usize).is_some_and(|seen| {
                            *seen += 1;
                            *seen % 2 == 0
                        })
                    }
                    _ => false,
                };
                // Draw for every request, the first included, so a request's
                // jitter depends only on its index and the seed.
                let draw = (rng.f64() * 2.0 - 1.0) * jitter_max_ms;
                let jitter = if index == 0 { 0.0 } else { draw };
                requests.push(PlannedRequest {
                    index,
                    target,
                    seq,
                    warmup: seq < plan.warmup_per_target,
                    planned_at_ms: start_ms + f64::from(index) * spacing_ms + jitter,
                    probe,
                    sized_prompt,
                    idle_gap_s,
                    idle_since_ms: None,
                    fresh_connection,
                });
                jitters.push(jitter);
                index = index.saturating_add(1);
            }
        }
        Self {
            requests,
            start_ms,
            spacing_ms,
            jitter_ms: jitters,
        }
    }

    /// When the last request is planned (epoch ms), or the start if empty.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn end_ms(&self) -> f64 {
        self.requests
            .last()
            .map_or(self.start_ms, |r| r.planned_at_ms)
    }
}

/// `count` idle gaps for one target's latency requests, in send order:
/// permuted blocks, each block every gap once in a shuffled order, the last
/// block cut short (so the gaps' counts differ by at most one). Cost:
/// O(count).
#[cfg_attr(target_arch = "wasm32", inline)]
fn idle_gap_order(gaps: &[f64], count: usize, seed: u64) -> Vec<f64> {
    let mut rng = fastrand::Rng::with_seed(seed);
    // Capacity capped: an unvalidated plan must not reserve gigabytes up front.
    let mut order = Vec::with_capacity(count.min(1 << 20));
    while order.len() < count {
        let mut block = gaps.to_vec();
        rng.shuffle(&mut block);
        order.extend(block);
    }
    order.truncate(count);
    order
}

/// The seed of target `target`'s gap order: SplitMix64's mixing of the
/// schedule's seed and the target, so targets get unrelated orders.
#[cfg_attr(target_arch = "wasm32", inline)]
fn idle_gap_seed(seed: u64, target: u32) -> u64 {
    let mut z = (seed ^ 0x1D1E_6A95_0000_0000).wrapping_add(
        u64::from(target)
            .wrapping_add(1)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The number a person gives a target's request `seq` among its kind:
/// warm-ups from 1, measured requests from 1 after them (probe rounds not
/// counted), probes from 1 in the order sent. The terminal's log uses it.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn number_within_kind(plan: &Plan, seq: u32) -> u32 {
    let warmups = plan.warmup_per_target;
    if seq < warmups {
        return seq + 1;
    }
    let probes = plan
        .fidelity
        .as_ref()
        .map_or(0, |fidelity| fidelity.requests_per_target());
    let slots = plan.requests_per_target.saturating_add(probes);
    let slot = seq - warmups;
    let probes_up_to = (0..=slot)
        .filter(|&s| is_probe_round(s, slots, probes))
        .count();
    let probes_up_to = u32::try_from(probes_up_to).unwrap_or(u32::MAX);
    if is_probe_round(slot, slots, probes) {
        probes_up_to
    } else {
        slot + 1 - probes_up_to
    }
}

/// Whether round `slot` of the `slots` rounds after the warm-ups sends a
/// probe, when `probes` of them do: the rounds where `slot × probes /
/// slots` steps up, which spreads them evenly and places exactly `probes`.
#[cfg_attr(target_arch = "wasm32", inline)]
fn is_probe_round(slot: u32, slots: u32, probes: u32) -> bool {
    if probes == 0 || slots == 0 {
        return false;
    }
    let step = |s: u32| u64::from(s) * u64::from(probes) / u64::from(slots);
    step(slot + 1) > step(slot)
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn finite_non_negative(x: f64) -> f64 {
    if x.is_finite() && x > 0.0 { x } else { 0.0 }
}

/// What the caller should do now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Next {
    /// Send this request now: its planned time has come (or passed, when the
    /// previous request overran).
    SendNow(PlannedRequest),
    /// Nothing to do before this time (epoch ms); then send this request.
    WaitUntil(f64, PlannedRequest),
    /// A request is in flight; wait for it to finish ([`Runner::mark_done`]).
    InFlight,
    /// The run is paused.
    Paused,
    /// Every request is done, or the run was stopped.
    Finished,
}

/// A misuse of the runner: the caller and the runner disagree about which
/// request is due. The runner's state is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunnerError {
    /// `mark_sent` for a request that is not the next one due.
    NotDue {
        /// Index the caller named.
        index: u32,
        /// Index of the request actually due, if any.
        due: Option<u32>,
    },
    /// `mark_sent` while another request is in flight.
    AlreadyInFlight {
        /// Index of the request in flight.
        in_flight: u32,
    },
    /// `mark_done` for a request that is not in flight.
    NotInFlight {
        /// Index the caller named.
        index: u32,
    },
    /// `mark_sent` after the run was stopped.
    Stopped,
    /// A planned request that names no target of the plan.
    NoTarget {
        /// Its index in the run.
        index: u32,
    },
    /// A sample handed over that is not of the request in flight.
    SampleNotInFlight {
        /// The sample's target.
        target: u32,
        /// The sample's request number within its target.
        seq: u32,
    },
}

impl std::fmt::Display for RunnerError {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotDue {
                index,
                due: Some(due),
            } => {
                write!(f, "request {index} is not due; request {due} is next")
            }
            Self::NotDue { index, due: None } => {
                write!(f, "request {index} is not due; no request is left")
            }
            Self::AlreadyInFlight { in_flight } => {
                write!(f, "request {in_flight} is still in flight; one at a time")
            }
            Self::NotInFlight { index } => write!(f, "request {index} is not in flight"),
            Self::Stopped => f.write_str("the run was stopped"),
            Self::NoTarget { index } => write!(f, "request {index} names no target of the plan"),
            Self::SampleNotInFlight { target, seq } => write!(
                f,
                "the sample of target {target}, request {seq} is not of the request in flight"
            ),
        }
    }
}

impl std::error::Error for RunnerError {}

/// The request being sent right now.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct InFlight {
    /// Its index in the run.
    pub index: u32,
    /// When it was sent (epoch ms).
    pub sent_at_ms: f64,
}

/// Walks a run through its schedule, one request in flight at a time.
///
/// Serialisable, so the page can store it and pick the run up after a reload
/// (see [`Runner::resume_after_reload`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Runner {
    /// Requests not yet done, in send order, with current planned times;
    /// `queue[cursor]` is the next to send or the one in flight.
    queue: Vec<PlannedRequest>,
    /// Position of the next request in `queue`.
    cursor: usize,
    /// Requests done before `queue` was (re)built, e.g. before a reload.
    done_before_queue: usize,
    /// Requests in the whole run.
    total: usize,
    /// Milliseconds between planned sends, before jitter.
    spacing_ms: f64,
    /// Each request's jitter (ms), by run index, reused when re-planning.
    jitter_ms: Vec<f64>,
    /// The request in flight, if any.
    in_flight: Option<InFlight>,
    /// When the run was paused (epoch ms), if it is.
    paused_at_ms: Option<f64>,
    /// The run was stopped by the user.
    stopped: bool,
    /// When the last request was sent (epoch ms). Missing in runners
    /// stored before it existed: no gap is then enforced for one send.
    #[serde(default)]
    last_sent_ms: Option<f64>,
    /// Least time between two sends, ms: the spacing minus the jitter.
    #[serde(default)]
    min_gap_ms: f64,
    /// How far overruns have moved the schedule later in all, ms.
    #[serde(default)]
    shift_ms: f64,
    /// The plan has idle gaps: each target's requests wait their gap after
    /// the end of its previous request ([`Runner::next`]). Left out of the
    /// stored runner otherwise, so a run without gaps stores as before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    idle_gaps: bool,
    /// With idle gaps, when each target's last request ended (epoch ms),
    /// by target; `None` before its first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    target_end_ms: Vec<Option<f64>>,
}

impl Runner {
    /// A runner at the start of `schedule`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn new(schedule: Schedule) -> Self {
        let max_jitter_ms = schedule
            .jitter_ms
            .iter()
            .fold(0.0_f64, |max, jitter| max.max(jitter.abs()));
        let idle_gaps = schedule.requests.iter().any(|r| r.idle_gap_s.is_some());
        let targets = schedule
            .requests
            .iter()
            .map(|r| r.target as usize + 1)
            .max()
            .unwrap_or(0);
        Self {
            idle_gaps,
            target_end_ms: if idle_gaps {
                vec![None; targets]
            } else {
                Vec::new()
            },
            last_sent_ms: None,
            min_gap_ms: (schedule.spacing_ms - max_jitter_ms).max(0.0),
            shift_ms: 0.0,
            total: schedule.requests.len(),
            queue: schedule.requests,
            cursor: 0,
            done_before_queue: 0,
            spacing_ms: schedule.spacing_ms,
            jitter_ms: schedule.jitter_ms,
            in_flight: None,
            paused_at_ms: None,
            stopped: false,
        }
    }

    /// What to do at `now_ms` (epoch ms). Does not change the runner.
    ///
    /// A request is due at its planned time (moved by any overrun, see
    /// [`Runner::mark_done`]), but never sooner than the spacing minus the
    /// jitter after the previous send.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn next(&self, now_ms: f64) -> Next {
        if self.stopped {
            return Next::Finished;
        }
        if self.in_flight.is_some() {
            return Next::InFlight;
        }
        if self.paused_at_ms.is_some() {
            return Next::Paused;
        }
        if self.idle_gaps {
            let Some((position, due)) = self.idle_choice() else {
                return Next::Finished;
            };
            let mut request = self.queue[position];
            request.planned_at_ms = due;
            request.idle_since_ms = request.idle_gap_s.and(
                self.target_end_ms
                    .get(request.target as usize)
                    .copied()
                    .flatten(),
            );
            return if now_ms >= due {
                Next::SendNow(request)
            } else {
                Next::WaitUntil(due, request)
            };
        }
        match self.queue.get(self.cursor) {
            None => Next::Finished,
            Some(request) => {
                let due = self.due_ms(request);
                if now_ms >= due {
                    Next::SendNow(*request)
                } else {
                    Next::WaitUntil(due, *request)
                }
            }
        }
    }

    /// When `request` may be sent: its planned time, or the least gap after
    /// the previous send, whichever is later.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn due_ms(&self, request: &PlannedRequest) -> f64 {
        match self.last_sent_ms {
            Some(last) => request.planned_at_ms.max(last + self.min_gap_ms),
            None => request.planned_at_ms,
        }
    }

    /// With idle gaps, the request to send next and when: among each
    /// target's next request (the first of its own in the queue), the one
    /// due first, the earlier in the plan on a tie. A request with a gap is
    /// due that long after its target's last request ended (at its planned
    /// time before any ended); warm-ups and probes at their planned time,
    /// no sooner than the least gap after the previous send. `None` when
    /// nothing is left. Cost: the queue up to the last target's next
    /// request.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn idle_choice(&self) -> Option<(usize, f64)> {
        let after_last = self
            .last_sent_ms
            .map_or(f64::NEG_INFINITY, |last| last + self.min_gap_ms);
        let targets = self.target_end_ms.len();
        let mut seen = vec![false; targets];
        let mut found = 0;
        let mut best: Option<(usize, f64)> = None;
        for (position, request) in self.queue.iter().enumerate().skip(self.cursor) {
            let target = request.target as usize;
            if target < targets {
                if seen[target] {
                    continue;
                }
                seen[target] = true;
                found += 1;
            }
            let end = self.target_end_ms.get(target).copied().flatten();
            // A request with a gap waits for its own target's idle only:
            // the least gap between sends is the spacing's rule for a
            // fixed schedule, and kept here it stretched every short gap
            // to the spacing times the targets (1 s gaps sat 6 s idle at
            // a 5 s spacing with two targets). One request is still in
            // flight at a time, so another target's request can only make
            // a gap longer, and the sample measures by how much.
            let due = match (request.idle_gap_s, end) {
                (Some(gap_s), Some(end)) => end + gap_s * 1000.0,
                _ => request.planned_at_ms.max(after_last),
            };
            if best.is_none_or(|(_, best_due)| due < best_due) {
                best = Some((position, due));
            }
            if found == targets {
                break;
            }
        }
        best
    }

    /// How far overruns have moved the schedule later, in all, ms (pauses
    /// not counted: they move it by the user's choice).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn schedule_shift_ms(&self) -> f64 {
        self.shift_ms
    }

    /// Records that request `index` was sent at `now_ms` (epoch ms).
    ///
    /// A paused run may still send the request that was already due (the
    /// caller may have been mid-send); the schedule is only ever a plan.
    ///
    /// # Errors
    /// [`RunnerError`] when `index` is not the next request, another is in
    /// flight, or the run was stopped. Nothing changes then.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn mark_sent(&mut self, index: u32, now_ms: f64) -> Result<(), RunnerError> {
        if self.stopped {
            return Err(RunnerError::Stopped);
        }
        if let Some(in_flight) = self.in_flight {
            return Err(RunnerError::AlreadyInFlight {
                in_flight: in_flight.index,
            });
        }
        if self.idle_gaps {
            // The request due is the runner's choice, not the queue's next:
            // it moves to the cursor, the others keep their order.
            let choice = self.idle_choice();
            let due = choice.map(|(position, _)| self.queue[position].index);
            let Some((position, due_ms)) = choice.filter(|_| due == Some(index)) else {
                return Err(RunnerError::NotDue { index, due });
            };
            let mut request = self.queue.remove(position);
            request.planned_at_ms = due_ms;
            self.queue.insert(self.cursor, request);
        }
        let due = self.queue.get(self.cursor).map(|r| r.index);
        if due != Some(index) {
            return Err(RunnerError::NotDue { index, due });
        }
        self.in_flight = Some(InFlight {
            index,
            sent_at_ms: now_ms,
        });
        self.last_sent_ms = Some(now_ms);
        Ok(())
    }

    /// Records that request `index` finished at `now_ms` (epoch ms), with a
    /// sample or an error. If it finished after the next request was due,
    /// it overran: every request not yet sent moves later by the overrun, so
    /// the spacing after it is kept instead of sending the overdue ones back
    /// to back.
    ///
    /// # Errors
    /// [`RunnerError::NotInFlight`] when `index` is not the request in flight.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn mark_done(&mut self, index: u32, now_ms: f64) -> Result<(), RunnerError> {
        match self.in_flight {
            Some(in_flight) if in_flight.index == index => {
                self.in_flight = None;
                if self.idle_gaps {
                    // Idle counts from here; the gaps, not a fixed plan, set
                    // the times, so there is no overrun to carry.
                    let target = self.queue.get(self.cursor).map(|r| r.target as usize);
                    if let Some(end) = target.and_then(|t| self.target_end_ms.get_mut(t)) {
                        *end = Some(now_ms);
                    }
                    self.cursor += 1;
                    return Ok(());
                }
                self.cursor += 1;
                let overrun = self
                    .queue
                    .get(self.cursor)
                    .map_or(0.0, |next| now_ms - next.planned_at_ms);
                if overrun > 0.0 && overrun.is_finite() {
                    for request in self.queue.iter_mut().skip(self.cursor) {
                        request.planned_at_ms += overrun;
                    }
                    self.shift_ms += overrun;
                }
                Ok(())
            }
            _ => Err(RunnerError::NotInFlight { index }),
        }
    }

    /// Pauses the run at `now_ms`. A request in flight finishes normally.
    /// Pausing a paused run changes nothing.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn pause(&mut self, now_ms: f64) {
        if self.paused_at_ms.is_none() && !self.stopped {
            self.paused_at_ms = Some(now_ms);
        }
    }

    /// Resumes at `now_ms`, moving every request not yet sent later by the
    /// pause's length, so the time left to each send is what it was when the
    /// run paused. Resuming a running run changes nothing.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn resume(&mut self, now_ms: f64) {
        let Some(paused_at) = self.paused_at_ms.take() else {
            return;
        };
        let shift_ms = (now_ms - paused_at).max(0.0);
        let first_unsent = self.cursor + usize::from(self.in_flight.is_some());
        for request in self.queue.iter_mut().skip(first_unsent) {
            request.planned_at_ms += shift_ms;
        }
    }

    /// Stops the run for good: [`Runner::next`] says `Finished` from now on.
    /// A request in flight may still be marked done.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn stop(&mut self) {
        self.stopped = true;
        self.paused_at_ms = None;
    }

    /// Picks the run up after a reload: `done` holds the `(target, seq)` of
    /// every request whose sample was stored, in any order. The rest, in their original
    /// order, are re-planned from `now_ms`: the first at once, the others at
    /// the plan's spacing with their original jitter. A request that was in
    /// flight when the page went away is sent again. A paused run stays
    /// paused (from `now_ms`); a stopped run stays stopped.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn resume_after_reload(&mut self, done: &[(u32, u32)], now_ms: f64) {
        // A sorted list searched by halves rather than a set: the shared sort
        // is already in the page, a set type would add its own code.
        let mut done = done.to_vec();
        done.sort_unstable();
        let remaining: Vec<PlannedRequest> = self
            .queue
            .iter()
            .copied()
            .filter(|r| done.binary_search(&(r.target, r.seq)).is_err())
            .collect();
        self.done_before_queue = self.total - remaining.len();
        // With idle gaps, a target whose last end is unknown (a request was
        // in flight when the page went away, or the runner was rebuilt) is
        // idle from now: its next gap is at least as long as planned.
        if self.idle_gaps {
            let lost = self
                .in_flight
                .and_then(|flight| self.queue.iter().find(|r| r.index == flight.index))
                .map(|r| r.target as usize);
            for (target, end) in self.target_end_ms.iter_mut().enumerate() {
                if end.is_none() || lost == Some(target) {
                    *end = Some(now_ms);
                }
            }
        }
        self.queue = remaining;
        self.cursor = 0;
        self.replan_from(0, now_ms);
        self.in_flight = None;
        if self.paused_at_ms.is_some() {
            self.paused_at_ms = Some(now_ms);
        }
    }

    /// Drops every request of target `target` not yet sent (a run until
    /// decided whose questions about it are answered): the run's total
    /// shrinks by as many, and the requests left move up into the dropped
    /// ones' places, so the run does not wait through them. The next
    /// request keeps the time the next send was due; each after it follows
    /// at the plan's spacing with its own jitter, as after a reload. The
    /// request in flight is not touched. Dropping a target with nothing
    /// left changes nothing, so dropping again (a resumed run replaying its
    /// samples) is harmless.
    ///
    /// Cost: O(requests left).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn drop_target(&mut self, target: u32) {
        let first_unsent = self.cursor + usize::from(self.in_flight.is_some());
        let Some(due_ms) = self.queue.get(first_unsent).map(|r| r.planned_at_ms) else {
            return;
        };
        let before = self.queue.len();
        let mut position = 0;
        self.queue.retain(|request| {
            position += 1;
            position <= first_unsent || request.target != target
        });
        let dropped = before - self.queue.len();
        if dropped == 0 {
            return;
        }
        self.total -= dropped;
        self.replan_from(first_unsent, due_ms);
    }

    /// Plans the queue's requests from position `first` on again: the
    /// first at `from_ms`, each after it the plan's spacing later, with its
    /// own jitter (after a reload, and after a target was dropped).
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn replan_from(&mut self, first: usize, from_ms: f64) {
        for (k, request) in self.queue.iter_mut().skip(first).enumerate() {
            let jitter = if k == 0 {
                0.0
            } else {
                usize::try_from(request.index)
                    .ok()
                    .and_then(|i| self.jitter_ms.get(i))
                    .copied()
                    .unwrap_or(0.0)
            };
            request.planned_at_ms = from_ms + k as f64 * self.spacing_ms + jitter;
        }
    }

    /// `(done, total)` requests, warm-ups included.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn progress(&self) -> (usize, usize) {
        (self.done_before_queue + self.cursor, self.total)
    }

    /// Milliseconds from `now_ms` until the last request is due to be sent
    /// (its own duration is not known, so not counted). While paused the
    /// clock stands still: this is the time left once resumed. 0 when
    /// nothing is left to send.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn eta_ms(&self, now_ms: f64) -> f64 {
        if self.stopped {
            return 0.0;
        }
        let first_unsent = self.cursor + usize::from(self.in_flight.is_some());
        let Some(last) = self.queue.get(first_unsent..).and_then(<[_]>::last) else {
            return 0.0;
        };
        let reference_ms = self.paused_at_ms.unwrap_or(now_ms);
        if self.idle_gaps {
            return self.idle_eta_ms(first_unsent, reference_ms);
        }
        (last.planned_at_ms - reference_ms).max(0.0)
    }

    /// [`Runner::eta_ms`] with idle gaps: each target still waits its
    /// remaining gaps one after another from its last end (or `now_ms`),
    /// targets side by side; the latest of them, and never less than the
    /// least gap between the warm-ups and probes left. Cost: O(requests left).
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn idle_eta_ms(&self, first_unsent: usize, now_ms: f64) -> f64 {
        let rest = self.queue.get(first_unsent..).unwrap_or_default();
        let mut waits_ms = vec![0.0; self.target_end_ms.len()];
        for request in rest {
            if let Some(wait) = waits_ms.get_mut(request.target as usize) {
                *wait += request.idle_gap_s.unwrap_or(0.0) * 1000.0;
            }
        }
        let latest = waits_ms
            .iter()
            .zip(&self.target_end_ms)
            .map(|(wait, end)| end.unwrap_or(now_ms).max(now_ms) + wait - now_ms)
            .fold(0.0_f64, f64::max);
        // The least gap between sends holds back warm-ups and probes only.
        let spaced = rest.iter().filter(|r| r.idle_gap_s.is_none()).count();
        latest.max(spaced.saturating_sub(1) as f64 * self.min_gap_ms)
    }

    /// Requests not yet done, in send order, with their current planned times
    /// (the first may be in flight).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn remaining(&self) -> &[PlannedRequest] {
        self.queue.get(self.cursor..).unwrap_or_default()
    }

    /// The request in flight, if any.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn in_flight(&self) -> Option<InFlight> {
        self.in_flight
    }

    /// The planned request in flight, if any (it sits at the cursor).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn in_flight_request(&self) -> Option<&PlannedRequest> {
        self.in_flight.and(self.queue.get(self.cursor))
    }

    /// The run is paused.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn is_paused(&self) -> bool {
        self.paused_at_ms.is_some()
    }

    /// The run was stopped by the user (rather than running to the end).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn was_stopped(&self) -> bool {
        self.stopped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planning::plan::Target;
    use proptest::prelude::*;

    const START_MS: f64 = 1_700_000_000_000.0;

    fn plan(targets: usize, warmup: u32, requests: u32, spacing_s: f64, jitter_s: f64) -> Plan {
        Plan {
            targets: (0..targets)
                .map(|i| Target::demo(&format!("t{i}"), "m"))
                .collect(),
            requests_per_target: requests,
            warmup_per_target: warmup,
            spacing_s,
            jitter_s,
            ..Plan::default()
        }
    }

    fn order(schedule: &Schedule) -> Vec<(u32, u32, bool)> {
        schedule
            .requests
            .iter()
            .map(|r| (r.target, r.seq, r.warmup))
            .collect()
    }

    /// Runs a whole run, each request taking `duration_ms(index)`; returns
    /// (index, planned_at_ms, sent_at_ms) of every send.
    fn drive(
        runner: &mut Runner,
        mut now_ms: f64,
        duration_ms: impl Fn(u32) -> f64,
    ) -> Vec<(u32, f64, f64)> {
        let mut sends = Vec::new();
        loop {
            match runner.next(now_ms) {
                Next::SendNow(r) => {
                    runner.mark_sent(r.index, now_ms).unwrap();
                    sends.push((r.index, r.planned_at_ms, now_ms));
                    now_ms += duration_ms(r.index);
                    runner.mark_done(r.index, now_ms).unwrap();
                }
                Next::WaitUntil(t, _) => {
                    assert!(t > now_ms);
                    now_ms = t;
                }
                Next::Finished => return sends,
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    #[test]
    fn one_target_is_evenly_spaced_from_the_start() {
        let s = Schedule::new(&plan(1, 0, 4, 5.0, 0.0), START_MS, 1);
        let times: Vec<f64> = s
            .requests
            .iter()
            .map(|r| r.planned_at_ms - START_MS)
            .collect();
        assert_eq!(times, vec![0.0, 5000.0, 10000.0, 15000.0]);
        assert_eq!(
            order(&s),
            vec![(0, 0, false), (0, 1, false), (0, 2, false), (0, 3, false)]
        );
        assert_eq!(s.end_ms() - START_MS, 15000.0);
    }

    #[test]
    fn warmups_go_first_then_rounds_interleave() {
        let s = Schedule::new(&plan(3, 2, 2, 1.0, 0.0), START_MS, 1);
        assert_eq!(
            order(&s),
            vec![
                (0, 0, true),
                (1, 0, true),
                (2, 0, true),
                (0, 1, true),
                (1, 1, true),
                (2, 1, true),
                (0, 2, false),
                (1, 2, false),
                (2, 2, false),
                (0, 3, false),
                (1, 3, false),
                (2, 3, false),
            ]
        );
        for (i, r) in s.requests.iter().enumerate() {
            assert_eq!(r.index as usize, i);
            assert_eq!(r.planned_at_ms, START_MS + i as f64 * 1000.0);
        }
    }

    #[test]
    fn jitter_is_seeded_bounded_and_zero_for_the_first() {
        let p = plan(2, 2, 50, 5.0, 1.0);
        let a = Schedule::new(&p, START_MS, 42);
        assert_eq!(a, Schedule::new(&p, START_MS, 42));
        assert_ne!(a.jitter_ms, Schedule::new(&p, START_MS, 43).jitter_ms);
        assert_eq!(a.requests[0].planned_at_ms, START_MS);
        for r in &a.requests {
            let offset = r.planned_at_ms - (START_MS + f64::from(r.index) * 5000.0);
            assert!(offset.abs() <= 1000.0, "{offset}");
        }
        // Jitter is spread over the whole ± range, not stuck at one value.
        let max = a.jitter_ms.iter().copied().fold(f64::MIN, f64::max);
        let min = a.jitter_ms.iter().copied().fold(f64::MAX, f64::min);
        assert!(max > 800.0 && min < -800.0, "{min}..{max}");
    }

    #[test]
    fn jitter_stays_in_bounds_over_many_seeds() {
        let p = plan(3, 1, 20, 2.0, 0.9);
        for seed in 0..500 {
            let s = Schedule::new(&p, START_MS, seed);
            for r in &s.requests {
                let offset = r.planned_at_ms - (START_MS + f64::from(r.index) * 2000.0);
                assert!(offset.abs() <= 900.0, "seed {seed}: {offset}");
                assert!(r.planned_at_ms >= START_MS);
            }
        }
    }

    #[test]
    fn too_much_jitter_is_capped_to_keep_order() {
        // Not a valid plan (jitter ≥ spacing / 2), but the order must hold.
        let s = Schedule::new(&plan(1, 0, 200, 1.0, 5.0), START_MS, 7);
        assert!(s.jitter_ms.iter().all(|j| j.abs() < 500.0));
        assert!(
            s.requests
                .windows(2)
                .all(|w| w[0].planned_at_ms < w[1].planned_at_ms)
        );
    }

    #[test]
    fn spread_over_hours_sets_the_spacing() {
        let mut p = plan(2, 2, 98, 5.0, 0.0);
        p.spread_hours = Some(2.0);
        let s = Schedule::new(&p, START_MS, 1);
        // 2 targets × 100 requests over 7200 s: one every 36 s.
        assert_eq!(s.spacing_ms, 36_000.0);
        assert_eq!(s.requests.len(), 200);
        assert_eq!(s.end_ms() - START_MS, 199.0 * 36_000.0);
    }

    #[test]
    fn runner_waits_sends_and_finishes() {
        let mut runner = Runner::new(Schedule::new(&plan(1, 0, 2, 5.0, 0.0), START_MS, 1));
        assert_eq!(runner.progress(), (0, 2));
        let Next::SendNow(first) = runner.next(START_MS) else {
            panic!()
        };
        assert_eq!(first.index, 0);
        runner.mark_sent(0, START_MS).unwrap();
        assert_eq!(runner.next(START_MS + 100.0), Next::InFlight);
        assert_eq!(
            runner.mark_sent(1, START_MS + 100.0),
            Err(RunnerError::AlreadyInFlight { in_flight: 0 })
        );
        assert_eq!(
            runner.mark_done(1, START_MS + 100.0),
            Err(RunnerError::NotInFlight { index: 1 })
        );
        runner.mark_done(0, START_MS + 300.0).unwrap();
        assert_eq!(runner.progress(), (1, 2));
        match runner.next(START_MS + 400.0) {
            Next::WaitUntil(t, r) => {
                assert_eq!(t, START_MS + 5000.0);
                assert_eq!(r.index, 1);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(runner.eta_ms(START_MS + 400.0), 4600.0);
        assert_eq!(
            runner.mark_sent(0, START_MS + 5000.0),
            Err(RunnerError::NotDue {
                index: 0,
                due: Some(1)
            })
        );
        runner.mark_sent(1, START_MS + 5000.0).unwrap();
        runner.mark_done(1, START_MS + 5300.0).unwrap();
        assert_eq!(runner.next(START_MS + 6000.0), Next::Finished);
        assert_eq!(runner.progress(), (2, 2));
        assert_eq!(runner.eta_ms(START_MS + 6000.0), 0.0);
        assert!(!runner.was_stopped());
    }

    #[test]
    fn an_overrun_shifts_the_rest_of_the_schedule_instead_of_bursting() {
        let schedule = Schedule::new(&plan(1, 0, 6, 5.0, 0.0), START_MS, 1);
        let mut runner = Runner::new(schedule.clone());
        // Request 1 is a 12 s cold start sent at 5 s: request 2 (planned at
        // 10 s) goes the moment it finishes at 17 s, and every later request
        // keeps its 5 s spacing from there: no two sends 0.2 s apart.
        let sends = drive(
            &mut runner,
            START_MS,
            |i| if i == 1 { 12_000.0 } else { 200.0 },
        );
        let sent: Vec<f64> = sends.iter().map(|s| s.2 - START_MS).collect();
        assert_eq!(
            sent,
            vec![0.0, 5000.0, 17_000.0, 22_000.0, 27_000.0, 32_000.0]
        );
        assert_eq!(runner.schedule_shift_ms(), 7000.0);
        // The sent requests carry their shifted planned times.
        assert_eq!(sends[3].1 - START_MS, 22_000.0);
        assert_eq!(
            schedule.requests[3].planned_at_ms - START_MS,
            15_000.0,
            "the schedule itself is unchanged"
        );
    }

    #[test]
    fn the_end_moves_later_and_the_eta_says_so() {
        let mut runner = Runner::new(Schedule::new(&plan(1, 0, 4, 5.0, 0.0), START_MS, 1));
        assert_eq!(runner.eta_ms(START_MS), 15_000.0);
        runner.mark_sent(0, START_MS).unwrap();
        runner.mark_done(0, START_MS + 9_000.0).unwrap();
        // 4 s over the next send: the last send moves from 15 s to 19 s.
        assert_eq!(runner.schedule_shift_ms(), 4_000.0);
        assert_eq!(runner.eta_ms(START_MS + 9_000.0), 10_000.0);
    }

    #[test]
    fn pause_and_resume_keep_the_spacing() {
        let mut runner = Runner::new(Schedule::new(&plan(2, 0, 2, 5.0, 0.0), START_MS, 1));
        runner.mark_sent(0, START_MS).unwrap();
        runner.pause(START_MS + 1000.0);
        assert_eq!(runner.next(START_MS + 1500.0), Next::InFlight);
        runner.mark_done(0, START_MS + 1500.0).unwrap();
        assert_eq!(runner.next(START_MS + 1500.0), Next::Paused);
        assert!(runner.is_paused());
        // While paused, the ETA stands still: 14 s left at the pause.
        assert_eq!(runner.eta_ms(START_MS + 1000.0), 14_000.0);
        assert_eq!(runner.eta_ms(START_MS + 50_000.0), 14_000.0);
        runner.pause(START_MS + 20_000.0); // a second pause changes nothing
        runner.resume(START_MS + 61_000.0);
        // 60 s paused: 4 s were left to request 1, 4 s are left after resuming.
        match runner.next(START_MS + 61_000.0) {
            Next::WaitUntil(t, r) => {
                assert_eq!(r.index, 1);
                assert_eq!(t - START_MS, 65_000.0);
            }
            other => panic!("{other:?}"),
        }
        let planned: Vec<f64> = runner
            .remaining()
            .iter()
            .map(|r| r.planned_at_ms - START_MS)
            .collect();
        assert_eq!(planned, vec![65_000.0, 70_000.0, 75_000.0]);
        runner.resume(START_MS + 70_000.0); // resuming a running run changes nothing
        assert_eq!(runner.remaining()[0].planned_at_ms - START_MS, 65_000.0);
    }

    #[test]
    fn pause_during_flight_does_not_move_the_request_in_flight() {
        let mut runner = Runner::new(Schedule::new(&plan(1, 0, 3, 5.0, 0.0), START_MS, 1));
        runner.mark_sent(0, START_MS).unwrap();
        runner.pause(START_MS + 100.0);
        runner.resume(START_MS + 1100.0);
        assert_eq!(runner.remaining()[0].planned_at_ms, START_MS);
        assert_eq!(runner.remaining()[1].planned_at_ms, START_MS + 6000.0);
    }

    #[test]
    fn stop_finishes_the_run() {
        let mut runner = Runner::new(Schedule::new(&plan(1, 0, 3, 5.0, 0.0), START_MS, 1));
        runner.mark_sent(0, START_MS).unwrap();
        runner.stop();
        assert_eq!(runner.next(START_MS), Next::Finished);
        runner.mark_done(0, START_MS + 100.0).unwrap();
        assert_eq!(
            runner.mark_sent(1, START_MS + 5000.0),
            Err(RunnerError::Stopped)
        );
        assert_eq!(runner.progress(), (1, 3));
        assert_eq!(runner.eta_ms(START_MS), 0.0);
        assert!(runner.was_stopped());
    }

    #[test]
    fn reload_replans_the_rest_from_now_in_order() {
        let schedule = Schedule::new(&plan(2, 1, 3, 5.0, 1.0), START_MS, 9);
        let mut runner = Runner::new(schedule.clone());
        let _ = drive_some(&mut runner, 3);
        runner.mark_sent(3, START_MS + 15_000.0).unwrap(); // lost in the reload
        // The stored runner comes back; storage has samples for 0, 1, 2.
        let mut runner: Runner =
            crate::base::document::from_str(&crate::base::document::to_string(&runner)).unwrap();
        let done: Vec<(u32, u32)> = schedule.requests[..3]
            .iter()
            .map(|r| (r.target, r.seq))
            .collect();
        let now = START_MS + 3_600_000.0;
        runner.resume_after_reload(&done, now);
        assert_eq!(runner.progress(), (3, 8));
        assert_eq!(runner.in_flight(), None);
        let rest = runner.remaining();
        let indexes: Vec<u32> = rest.iter().map(|r| r.index).collect();
        assert_eq!(indexes, vec![3, 4, 5, 6, 7]);
        assert_eq!(rest[0].planned_at_ms, now);
        for (k, r) in rest.iter().enumerate().skip(1) {
            let expected = now + k as f64 * 5000.0 + schedule.jitter_ms[r.index as usize];
            assert_eq!(r.planned_at_ms, expected);
        }
        assert_eq!(runner.next(now), Next::SendNow(rest[0]));
        let sends = drive(&mut runner, now, |_| 100.0);
        assert_eq!(sends.len(), 5);
        assert_eq!(runner.progress(), (8, 8));
    }

    /// A dropped target sends nothing more and the others move up into its
    /// places: the next send keeps its time, each after it follows at the
    /// spacing (with its own jitter), so no slot of the dropped target is
    /// waited through. The request in flight is not touched, the total
    /// shrinks, and dropping again changes nothing.
    #[test]
    fn a_dropped_target_sends_no_more_and_the_others_move_up() {
        let schedule = Schedule::new(&plan(3, 0, 4, 5.0, 1.0), START_MS, 3);
        let mut runner = Runner::new(schedule.clone());
        let _ = drive_some(&mut runner, 4);
        // Target 1's second request (index 4) is in flight.
        let Next::SendNow(in_flight) = runner.next(f64::MAX) else {
            panic!("request 4 is due");
        };
        assert_eq!((in_flight.index, in_flight.target), (4, 1));
        let sent_ms = in_flight.planned_at_ms;
        runner.mark_sent(4, sent_ms).unwrap();
        let due_ms = runner.remaining()[1].planned_at_ms;
        runner.drop_target(0);
        assert_eq!(runner.progress(), (4, 10), "target 0's two left go");
        assert_eq!(runner.in_flight_request(), Some(&in_flight));
        let rest: Vec<(u32, u32)> = runner.remaining()[1..]
            .iter()
            .map(|r| (r.target, r.seq))
            .collect();
        assert_eq!(rest, [(2, 1), (1, 2), (2, 2), (1, 3), (2, 3)]);
        for (k, r) in runner.remaining()[1..].iter().enumerate() {
            let jitter = if k == 0 {
                0.0
            } else {
                schedule.jitter_ms[r.index as usize]
            };
            assert_eq!(r.planned_at_ms, due_ms + k as f64 * 5000.0 + jitter);
        }
        let before = runner.clone();
        runner.drop_target(0);
        assert_eq!(runner, before, "dropping again changes nothing");
        runner.mark_done(4, sent_ms + 100.0).unwrap();
        let sends = drive(&mut runner, sent_ms + 100.0, |_| 100.0);
        assert_eq!(sends.len(), 5);
        assert!(
            sends
                .iter()
                .all(|&(index, ..)| schedule.requests[index as usize].target != 0)
        );
        // The last send comes four spacings after the drop's next, not
        // six: no slot of target 0 is waited through.
        let last_ms = sends.last().map(|&(_, _, sent)| sent).unwrap();
        assert!(
            last_ms - due_ms <= 4.0 * 5000.0 + 1000.0,
            "{}",
            last_ms - due_ms
        );
        assert_eq!(runner.progress(), (10, 10));
        assert_eq!(runner.next(last_ms), Next::Finished);
    }

    #[test]
    fn reload_with_gaps_skips_exactly_the_stored_ones() {
        let schedule = Schedule::new(&plan(2, 0, 3, 5.0, 0.0), START_MS, 1);
        let mut runner = Runner::new(schedule);
        let done = [(1, 1), (0, 0)];
        runner.pause(START_MS);
        runner.resume_after_reload(&done, START_MS + 10.0);
        let rest: Vec<(u32, u32)> = runner
            .remaining()
            .iter()
            .map(|r| (r.target, r.seq))
            .collect();
        assert_eq!(rest, vec![(1, 0), (0, 1), (0, 2), (1, 2)]);
        assert_eq!(runner.progress(), (2, 6));
        // Paused before the reload, still paused after it.
        assert_eq!(runner.next(START_MS + 10.0), Next::Paused);
    }

    fn gap_plan(targets: usize, requests: u32, gaps: &[f64]) -> Plan {
        Plan {
            idle_gaps_s: Some(gaps.to_vec()),
            ..plan(targets, 1, requests, 1.0, 0.2)
        }
    }

    #[test]
    fn every_gap_comes_equally_often_spread_over_the_run() {
        let gaps = [10.0, 60.0, 300.0, 900.0];
        let schedule = Schedule::new(&gap_plan(3, 40, &gaps), START_MS, 7);
        let mut orders = Vec::new();
        for target in 0..3 {
            let own: Vec<&PlannedRequest> = schedule
                .requests
                .iter()
                .filter(|r| r.target == target)
                .collect();
            assert_eq!(own[0].idle_gap_s, None, "a warm-up has no gap");
            let order: Vec<f64> = own[1..].iter().map(|r| r.idle_gap_s.unwrap()).collect();
            assert_eq!(order.len(), 40);
            // Every block of four holds each gap once: equally often, and
            // spread evenly over the run.
            for block in order.chunks(4) {
                let mut sorted = block.to_vec();
                crate::base::order::sort_numbers(&mut sorted);
                assert_eq!(sorted, gaps);
            }
            orders.push(order);
        }
        assert_ne!(orders[0], orders[1], "each target its own shuffle");
        // Seeded: the same seed, the same orders; another, others.
        let again = Schedule::new(&gap_plan(3, 40, &gaps), START_MS, 7);
        assert_eq!(again.requests, schedule.requests);
        let other = Schedule::new(&gap_plan(3, 40, &gaps), START_MS, 8);
        assert_ne!(other.requests, schedule.requests);
        // A count the gaps do not divide: counts differ by at most one.
        let uneven = Schedule::new(&gap_plan(1, 10, &gaps), START_MS, 7);
        let mut counts = [0; 4];
        for r in uneven.requests.iter().filter(|r| !r.warmup) {
            counts[gaps.iter().position(|g| Some(*g) == r.idle_gap_s).unwrap()] += 1;
        }
        assert!(counts.iter().all(|&c| c == 2 || c == 3), "{counts:?}");
        // Without gaps, the schedule (jitter draws included) is the same as
        // before, and so is the runner it makes.
        let plain = plan(3, 1, 40, 1.0, 0.2);
        let without = Schedule::new(&plain, START_MS, 7);
        assert!(without.requests.iter().all(|r| r.idle_gap_s.is_none()));
        assert_eq!(without.jitter_ms, schedule.jitter_ms);
        let stored = crate::base::document::to_string(&Runner::new(without));
        assert!(
            !stored.contains("idle") && !stored.contains("target_end"),
            "{stored}"
        );
    }

    /// Every other request of each target after the shortest gap asks for
    /// a new connection, by its place in the plan (so a resume asks the
    /// same); no other request does, and a plan without idle gaps asks for
    /// none and stores as before.
    #[test]
    fn every_other_request_after_the_shortest_gap_asks_for_a_new_connection() {
        let gaps = [60.0, 10.0, 300.0, 900.0];
        let schedule = Schedule::new(&gap_plan(3, 40, &gaps), START_MS, 7);
        for target in 0..3 {
            let shortest: Vec<bool> = schedule
                .requests
                .iter()
                .filter(|r| r.target == target && r.idle_gap_s == Some(10.0))
                .map(|r| r.fresh_connection)
                .collect();
            assert_eq!(shortest.len(), 10);
            let alternating: Vec<bool> = (0..10).map(|i| i % 2 == 1).collect();
            assert_eq!(shortest, alternating, "target {target}");
        }
        assert!(
            schedule
                .requests
                .iter()
                .filter(|r| r.idle_gap_s != Some(10.0))
                .all(|r| !r.fresh_connection),
            "only the shortest gap's requests"
        );
        let again = Schedule::new(&gap_plan(3, 40, &gaps), START_MS, 7);
        assert_eq!(again.requests, schedule.requests);
        // The runner hands the flag out with the request.
        let mut runner = Runner::new(schedule.clone());
        let mut fresh_handed = 0;
        for _ in 0..schedule.requests.len() {
            let Next::SendNow(r) = runner.next(f64::MAX) else {
                panic!("every request is due at the end of time");
            };
            assert_eq!(
                r.fresh_connection,
                schedule.requests[r.index as usize].fresh_connection
            );
            fresh_handed += usize::from(r.fresh_connection);
            runner.mark_sent(r.index, r.planned_at_ms).unwrap();
            runner.mark_done(r.index, r.planned_at_ms + 100.0).unwrap();
        }
        assert_eq!(fresh_handed, 15);

        let plain = plan(3, 1, 40, 1.0, 0.2);
        let without = Schedule::new(&plain, START_MS, 7);
        assert!(without.requests.iter().all(|r| !r.fresh_connection));
        let stored = crate::base::document::to_string(&Runner::new(without));
        assert!(!stored.contains("fresh"), "{stored}");
    }

    #[test]
    fn each_request_waits_its_gap_after_its_target_s_last_end() {
        // Two targets, gaps of 10 and 30 s; each request takes 2 s.
        let gap_plan = gap_plan(2, 6, &[10.0, 30.0]);
        let schedule = Schedule::new(&gap_plan, START_MS, 3);
        let mut runner = Runner::new(schedule.clone());
        let sends = drive(&mut runner, START_MS, |_| 2_000.0);
        assert_eq!(sends.len(), schedule.requests.len());
        assert_eq!(runner.progress(), (14, 14));
        let mut last_end: [Option<f64>; 2] = [None; 2];
        for (index, planned, sent) in &sends {
            let request = schedule.requests[*index as usize];
            let target = request.target as usize;
            match (request.idle_gap_s, last_end[target]) {
                (Some(gap_s), Some(end)) => {
                    let idle_ms = sent - end;
                    // Never sooner than the gap; later only when the other
                    // target's request was running.
                    assert!(idle_ms >= gap_s * 1000.0 - 1e-6, "{index}: {idle_ms}");
                    assert!(
                        idle_ms <= gap_s * 1000.0 + 2_000.0 + 1e-6,
                        "{index}: {idle_ms}"
                    );
                    assert!((planned - (end + gap_s * 1000.0)).abs() < 1e-6);
                }
                (None, _) => assert!(request.warmup),
                (Some(_), None) => panic!("a measured request before its warm-up"),
            }
            last_end[target] = Some(sent + 2_000.0);
        }
        // Each target's requests go in their own order; sends never overlap.
        for target in 0..2 {
            let seqs: Vec<u32> = sends
                .iter()
                .map(|s| schedule.requests[s.0 as usize])
                .filter(|r| r.target == target)
                .map(|r| r.seq)
                .collect();
            assert_eq!(seqs, (0..7).collect::<Vec<_>>());
        }
        assert!(sends.windows(2).all(|w| w[1].2 >= w[0].2 + 2_000.0));
        // Each target waits 3 × 10 + 3 × 30 s, side by side with the other.
        let span_s = (sends.last().unwrap().2 - START_MS) / 1000.0;
        assert!((120.0..150.0).contains(&span_s), "{span_s}");
        assert_eq!(runner.schedule_shift_ms(), 0.0);
    }

    #[test]
    fn the_eta_counts_the_gaps_left_and_a_reload_counts_idle_from_then() {
        let gap_plan = gap_plan(1, 4, &[10.0, 20.0]);
        let schedule = Schedule::new(&gap_plan, START_MS, 1);
        let mut runner = Runner::new(schedule.clone());
        // The warm-up, then the gaps one after another: 2 × 10 + 2 × 20 s.
        assert_eq!(runner.eta_ms(START_MS), 60_000.0);
        let _ = drive_some(&mut runner, 2);
        let now = START_MS + 20_000.0;
        let left: f64 = schedule.requests[2..]
            .iter()
            .map(|r| r.idle_gap_s.unwrap() * 1000.0)
            .sum();
        // From the last end (10.1 s or later) the gaps still to wait.
        let end = schedule.requests[1].planned_at_ms;
        let end = runner.target_end_ms[0].unwrap_or(end);
        assert_eq!(runner.eta_ms(now), end.max(now) + left - now);
        // A reload: the run record reads back, the request in flight is
        // lost, and idle counts from the reload.
        let next = match runner.next(f64::MAX) {
            Next::SendNow(r) => r,
            other => panic!("{other:?}"),
        };
        runner.mark_sent(next.index, now).unwrap();
        let mut runner: Runner =
            crate::base::document::from_str(&crate::base::document::to_string(&runner)).unwrap();
        let done: Vec<(u32, u32)> = schedule.requests[..2]
            .iter()
            .map(|r| (r.target, r.seq))
            .collect();
        let reload = START_MS + 3_600_000.0;
        runner.resume_after_reload(&done, reload);
        match runner.next(reload) {
            Next::WaitUntil(at, r) => {
                assert_eq!(r.index, next.index);
                assert_eq!(at, reload + r.idle_gap_s.unwrap() * 1000.0);
            }
            other => panic!("{other:?}"),
        }
        // A runner rebuilt from the schedule (the runner's --resume) too.
        let mut rebuilt = Runner::new(schedule);
        rebuilt.resume_after_reload(&done, reload);
        assert!(matches!(rebuilt.next(reload), Next::WaitUntil(at, _) if at > reload));
        // Only the request due may be marked sent.
        let other = next.index + 1;
        assert!(matches!(
            rebuilt.mark_sent(other, reload),
            Err(RunnerError::NotDue { .. })
        ));
    }

    /// Sends and finishes `n` requests, each on time and taking 100 ms.
    fn drive_some(runner: &mut Runner, n: usize) -> Vec<u32> {
        let mut sent = Vec::new();
        for _ in 0..n {
            let r = match runner.next(f64::MAX) {
                Next::SendNow(r) => r,
                other => panic!("{other:?}"),
            };
            runner.mark_sent(r.index, r.planned_at_ms).unwrap();
            runner.mark_done(r.index, r.planned_at_ms + 100.0).unwrap();
            sent.push(r.index);
        }
        sent
    }

    proptest! {
        /// Whatever the requests take, consecutive sends are never closer
        /// than the spacing minus the jitter; when none overruns, every
        /// request goes exactly at its planned time.
        #[test]
        fn sends_keep_their_spacing_after_any_overrun(
            targets in 1usize..4,
            requests in 2u32..25,
            spacing in 0.5f64..10.0,
            jitter_share in 0.0f64..0.45,
            durations in prop::collection::vec(0.0f64..3.0, 100),
            seed in any::<u64>(),
        ) {
            let p = plan(targets, 0, requests, spacing, spacing * jitter_share);
            let schedule = Schedule::new(&p, START_MS, seed);
            let max_jitter = schedule.jitter_ms.iter().fold(0.0_f64, |m, j| m.max(j.abs()));
            let min_gap = schedule.spacing_ms - max_jitter;
            // Durations from 0 to 3 spacings: many overruns.
            let mut runner = Runner::new(schedule.clone());
            let sends = drive(&mut runner, START_MS, |i| durations[i as usize % 100] * spacing * 1000.0);
            prop_assert_eq!(sends.len(), schedule.requests.len());
            for pair in sends.windows(2) {
                prop_assert!(pair[1].2 - pair[0].2 >= min_gap - 1e-3, "{pair:?} gap under {min_gap}");
            }
            prop_assert!(runner.schedule_shift_ms() >= 0.0);
            // Requests much shorter than the least gap never overrun.
            let mut quick = Runner::new(schedule.clone());
            let sends = drive(&mut quick, START_MS, |_| 0.0);
            for (index, _, sent) in &sends {
                let planned = schedule.requests[*index as usize].planned_at_ms;
                let previous = index.checked_sub(1).map(|i| schedule.requests[i as usize].planned_at_ms);
                // Only two neighbouring jitters that pull together may hold a
                // send back, by the least gap.
                let held = previous.map_or(planned, |prev| planned.max(prev + min_gap));
                prop_assert!((sent - held).abs() <= 1e-3 || (sent - planned).abs() <= 1e-3);
            }
            prop_assert_eq!(quick.schedule_shift_ms(), 0.0);
        }

        /// With idle gaps, whatever the requests take, every request waits
        /// at least its gap after its target's last end and no longer than
        /// the request in flight when it fell due keeps it waiting (the
        /// spacing never stretches a gap); warm-ups keep the least gap
        /// between sends; and each request handed out says when its
        /// target last ended, so its sample measures the idle it had.
        #[test]
        fn idle_gaps_are_never_cut_short(
            targets in 1usize..4,
            requests in 1u32..12,
            durations in prop::collection::vec(0.0f64..40_000.0, 64),
            seed in any::<u64>(),
        ) {
            let p = Plan {
                idle_gaps_s: Some(vec![1.0, 15.0, 4.0]),
                ..plan(targets, 1, requests, 2.0, 0.4)
            };
            let schedule = Schedule::new(&p, START_MS, seed);
            let mut runner = Runner::new(schedule.clone());
            let duration = |i: u32| durations[i as usize % 64];
            let mut handed = Vec::new();
            let mut now = START_MS;
            loop {
                match runner.next(now) {
                    Next::SendNow(r) => {
                        runner.mark_sent(r.index, now).unwrap();
                        handed.push((r, now));
                        now += duration(r.index);
                        runner.mark_done(r.index, now).unwrap();
                    }
                    Next::WaitUntil(t, _) => now = t,
                    Next::Finished => break,
                    other => panic!("unexpected {other:?}"),
                }
            }
            prop_assert_eq!(handed.len(), schedule.requests.len());
            let mut last_end = vec![None; targets];
            let mut previous_end: Option<f64> = None;
            for (position, (request, sent)) in handed.iter().enumerate() {
                let target = request.target as usize;
                prop_assert_eq!(request.idle_gap_s.is_none(), request.warmup);
                if request.warmup && position > 0 {
                    prop_assert!(sent - handed[position - 1].1 >= 1_600.0 - 1e-6);
                }
                if let (Some(gap_s), Some(end)) = (request.idle_gap_s, last_end[target]) {
                    prop_assert_eq!(request.idle_since_ms, Some(end));
                    let due = end + gap_s * 1000.0;
                    prop_assert!(*sent >= due - 1e-6);
                    // Sent the moment it was due, or the moment the request
                    // in flight then ended.
                    let waited_for = previous_end.filter(|&e| e > due);
                    prop_assert!(
                        (*sent - due).abs() < 1e-6
                            || waited_for.is_some_and(|e| (*sent - e).abs() < 1e-6),
                        "sent {} due {} previous end {:?}", sent, due, previous_end
                    );
                }
                let end = sent + duration(request.index);
                last_end[target] = Some(end);
                previous_end = Some(end);
            }
        }

        #[test]
        fn every_request_appears_once_in_order(
            targets in 1usize..6,
            warmup in 0u32..4,
            requests in 1u32..30,
            spacing in 0.0f64..20.0,
            jitter_share in 0.0f64..0.5,
            seed in any::<u64>(),
        ) {
            let p = plan(targets, warmup, requests, spacing, spacing * jitter_share);
            let s = Schedule::new(&p, START_MS, seed);
            let total = targets * (warmup + requests) as usize;
            prop_assert_eq!(s.requests.len(), total);
            let pairs: std::collections::BTreeSet<(u32, u32)> = s.requests.iter().map(|r| (r.target, r.seq)).collect();
            prop_assert_eq!(pairs.len(), total);
            for r in &s.requests {
                prop_assert!((r.target as usize) < targets);
                prop_assert!(r.seq < warmup + requests);
                prop_assert_eq!(r.warmup, r.seq < warmup);
                let ideal = START_MS + f64::from(r.index) * spacing * 1000.0;
                // Epoch milliseconds near 1.7e12 are spaced 2.4e-4 ms apart
                // as f64s: allow a few of those steps of rounding.
                prop_assert!((r.planned_at_ms - ideal).abs() <= spacing * jitter_share * 1000.0 + 1e-3);
            }
            prop_assert_eq!(s.requests[0].planned_at_ms, START_MS);
            prop_assert!(s.requests.windows(2).all(|w| w[0].planned_at_ms <= w[1].planned_at_ms));
            // Warm-ups of every target come before any measured request.
            let first_measured = s.requests.iter().position(|r| !r.warmup).unwrap_or(total);
            prop_assert!(s.requests[first_measured..].iter().all(|r| !r.warmup));
        }

        #[test]
        fn sends_never_precede_their_plan_and_follow_overruns(
            durations in proptest::collection::vec(0.0f64..30_000.0, 24),
            seed in any::<u64>(),
        ) {
            let schedule = Schedule::new(&plan(3, 2, 6, 5.0, 2.0), START_MS, seed);
            let mut runner = Runner::new(schedule.clone());
            let sends = drive(&mut runner, START_MS, |i| durations[i as usize]);
            prop_assert_eq!(sends.len(), 24);
            let mut finished_ms = START_MS;
            let mut shift_ms = 0.0;
            for (k, (index, planned, sent)) in sends.iter().enumerate() {
                prop_assert_eq!(*index as usize, k);
                let original = schedule.requests[k].planned_at_ms;
                // Never before its plan, never while another is in flight;
                // its plan moved by exactly the overruns so far.
                prop_assert!(*sent >= original && *sent >= finished_ms);
                if finished_ms > original + shift_ms {
                    shift_ms = finished_ms - original;
                }
                prop_assert!((planned - (original + shift_ms)).abs() < 1e-6);
                finished_ms = sent + durations[k];
            }
            prop_assert!((runner.schedule_shift_ms() - shift_ms).abs() < 1e-6);
        }
    }

    #[test]
    fn probe_rounds_come_after_the_warmups_spread_evenly_and_the_same_for_every_target() {
        use crate::planning::plan::FidelityPlan;
        let mut with_probes = plan(3, 2, 100, 1.0, 0.2);
        with_probes.fidelity = Some(FidelityPlan::basic(Some("t0".to_owned())));
        let schedule = Schedule::new(&with_probes, 0.0, 9);
        let per_target = 2 + 100 + 60;
        assert_eq!(schedule.requests.len(), 3 * per_target);
        let suite = Suite::Basic1.probes().len();
        for target in 0..3 {
            let own: Vec<&PlannedRequest> = schedule
                .requests
                .iter()
                .filter(|r| r.target == target)
                .collect();
            assert_eq!(own.len(), per_target);
            assert!(own[..2].iter().all(|r| r.warmup && r.probe.is_none()));
            let probes: Vec<u16> = own
                .iter()
                .filter_map(|r| r.probe.map(|p| p.index))
                .collect();
            assert_eq!(probes.len(), 60);
            // The suite once, in order, then again.
            let expected: Vec<u16> = (0..2)
                .flat_map(|_| 0..u16::try_from(suite).unwrap())
                .collect();
            assert_eq!(probes, expected);
            // Spread: never two probe rounds in a row (60 among 160 slots).
            assert!(
                own.windows(2)
                    .all(|w| !(w[0].probe.is_some() && w[1].probe.is_some()))
            );
            // The last measured request is not left to the end of the run.
            assert!(own.last().is_some_and(|r| r.probe.is_some()));
            // The numbers people see count each kind from 1.
            let numbers: Vec<(bool, u32)> = own
                .iter()
                .filter(|r| !r.warmup)
                .map(|r| (r.probe.is_some(), number_within_kind(&with_probes, r.seq)))
                .collect();
            let measured: Vec<u32> = numbers.iter().filter(|n| !n.0).map(|n| n.1).collect();
            let probe_numbers: Vec<u32> = numbers.iter().filter(|n| n.0).map(|n| n.1).collect();
            assert_eq!(measured, (1..=100).collect::<Vec<_>>());
            assert_eq!(probe_numbers, (1..=60).collect::<Vec<_>>());
        }
        // Every round sends one kind to every target.
        for round in schedule.requests.chunks(3) {
            assert!(
                round
                    .iter()
                    .all(|r| r.probe == round[0].probe && r.seq == round[0].seq)
            );
        }
        // Without the check, the schedule is exactly as before.
        let plain = plan(3, 2, 100, 1.0, 0.2);
        assert!(
            Schedule::new(&plain, 0.0, 9)
                .requests
                .iter()
                .all(|r| r.probe.is_none())
        );
        assert_eq!(Schedule::new(&plain, 0.0, 9).requests.len(), 3 * 102);
    }
}
