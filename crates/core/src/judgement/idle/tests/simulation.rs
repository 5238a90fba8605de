//! The three bars, measured on seeded simulated runs through the
//! very function a report uses, [`idle_figures`].
//!
//! The model: the plan's gaps 10, 60, 300 and 900 s, 20 requests after
//! each (80 per run). A warm request takes a lognormal TTFT (median 400 ms,
//! σ 0.25; in the heavy-tailed rows log-t₃ at scale 0.3 or 0.5, or a
//! lognormal at σ 0.7); a cold start adds a lognormal load (median 15 s, σ 0.6), and a
//! request past the 120 s timeout is censored there. A request after gap g
//! is cold with probability `base` (cold starts that have nothing to do with
//! idle) plus, when g is past the provider's threshold T, `after` of the
//! rest (1: the replica is always gone; below 1: other users' traffic kept
//! it warm now and then). T is drawn uniformly between two neighbouring
//! gaps, the pair chosen uniformly. An always-warm provider has no T.
//!
//! `cargo test -p firsttoken-core --release --lib idle::tests::simulation -- --ignored --nocapture`

use super::*;
use crate::judgement::slow::slow_share;

const GAPS_S: [f64; 4] = [10.0, 60.0, 300.0, 900.0];
const TIMEOUT_MS: f64 = 120_000.0;

#[derive(Clone, Copy, Debug)]
struct Scenario {
    name: &'static str,
    /// Whether the provider goes cold after some idle.
    threshold: bool,
    base: f64,
    after: f64,
    /// The warm requests' noise on log TTFT.
    warm: Warm,
}

/// How a warm request's log TTFT spreads around log 400 ms.
#[derive(Clone, Copy, Debug)]
enum Warm {
    /// Normal with this σ (a lognormal TTFT).
    LogNormal(f64),
    /// Student's t with 3 degrees of freedom at this scale: heavy tails.
    LogT3(f64),
}

impl Warm {
    fn draw(self, rng: &mut fastrand::Rng) -> f64 {
        match self {
            Self::LogNormal(sigma) => sigma * normal(rng),
            Self::LogT3(scale) => {
                let chi: f64 = (0..3).map(|_| normal(rng).powi(2)).sum();
                scale * normal(rng) / (chi / 3.0).sqrt().max(1e-9)
            }
        }
    }
}

const SCENARIOS: [Scenario; 12] = [
    Scenario {
        name: "threshold, always cold after it, no other cold starts",
        threshold: true,
        base: 0.0,
        after: 1.0,
        warm: Warm::LogNormal(0.25),
    },
    Scenario {
        name: "threshold, always cold after it, 2 % other cold starts",
        threshold: true,
        base: 0.02,
        after: 1.0,
        warm: Warm::LogNormal(0.25),
    },
    Scenario {
        name: "threshold, cold after it 70 %, 5 % other cold starts",
        threshold: true,
        base: 0.05,
        after: 0.7,
        warm: Warm::LogNormal(0.25),
    },
    Scenario {
        name: "threshold, cold after it 40 %, 2 % other cold starts",
        threshold: true,
        base: 0.02,
        after: 0.4,
        warm: Warm::LogNormal(0.25),
    },
    Scenario {
        name: "always warm, no cold starts",
        threshold: false,
        base: 0.0,
        after: 0.0,
        warm: Warm::LogNormal(0.25),
    },
    Scenario {
        name: "always warm, 2 % cold starts at any idle",
        threshold: false,
        base: 0.02,
        after: 0.0,
        warm: Warm::LogNormal(0.25),
    },
    Scenario {
        name: "always warm, 5 % cold starts at any idle",
        threshold: false,
        base: 0.05,
        after: 0.0,
        warm: Warm::LogNormal(0.25),
    },
    Scenario {
        name: "threshold, always cold after it, warm log-t3 at scale 0.3",
        threshold: true,
        base: 0.0,
        after: 1.0,
        warm: Warm::LogT3(0.3),
    },
    Scenario {
        name: "threshold, always cold after it, warm log-t3 at scale 0.5",
        threshold: true,
        base: 0.0,
        after: 1.0,
        warm: Warm::LogT3(0.5),
    },
    Scenario {
        name: "always warm, log-t3 at scale 0.3",
        threshold: false,
        base: 0.0,
        after: 0.0,
        warm: Warm::LogT3(0.3),
    },
    Scenario {
        name: "always warm, log-t3 at scale 0.5",
        threshold: false,
        base: 0.0,
        after: 0.0,
        warm: Warm::LogT3(0.5),
    },
    Scenario {
        name: "always warm, lognormal σ 0.7",
        threshold: false,
        base: 0.0,
        after: 0.0,
        warm: Warm::LogNormal(0.7),
    },
];

fn normal(rng: &mut fastrand::Rng) -> f64 {
    let (u1, u2) = (1.0 - rng.f64(), rng.f64());
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// One run's requests: `per_gap` after each of the plan's gaps, each warm
/// (`warm` noise around 400 ms) or, with probability `cold(gap)`, a cold
/// start on top (a lognormal load around 15 s), censored at the timeout.
fn draw_requests(
    rng: &mut fastrand::Rng,
    per_gap: usize,
    warm: Warm,
    cold: impl Fn(f64) -> f64,
) -> Vec<IdleRequest> {
    let mut requests = Vec::with_capacity(GAPS_S.len() * per_gap);
    for &gap_s in &GAPS_S {
        for _ in 0..per_gap {
            let warm_ms = 400.0 * warm.draw(rng).exp();
            let ms = if rng.f64() < cold(gap_s) {
                warm_ms + 15_000.0 * (0.6 * normal(rng)).exp()
            } else {
                warm_ms
            };
            let rank = if ms >= TIMEOUT_MS {
                TtftRank::Censored
            } else {
                TtftRank::Measured(ms)
            };
            requests.push(IdleRequest::planned(gap_s, rank));
        }
    }
    requests
}

/// What one scenario's runs came to.
#[derive(Debug, Default)]
struct Tally {
    runs: usize,
    /// Runs that read "goes cold after".
    goes_cold: usize,
    /// Of them, the range held the true threshold.
    range_holds: usize,
    /// Gap × run cells whose interval held the true cold probability.
    covered: usize,
    cells: usize,
    /// Runs whose range was one of the plan's neighbouring pairs, by how
    /// far it missed (for the printout).
    missed_low: usize,
    missed_high: usize,
}

fn simulate(scenario: Scenario, runs: usize, per_gap: usize, seed: u64) -> Tally {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut tally = Tally {
        runs,
        ..Tally::default()
    };
    for _ in 0..runs {
        let threshold_s = scenario.threshold.then(|| {
            let pair = rng.usize(0..GAPS_S.len() - 1);
            GAPS_S[pair] + rng.f64() * (GAPS_S[pair + 1] - GAPS_S[pair])
        });
        let truth = |gap_s: f64| {
            let past = threshold_s.is_some_and(|t| gap_s > t);
            scenario.base + (1.0 - scenario.base) * if past { scenario.after } else { 0.0 }
        };
        let requests = draw_requests(&mut rng, per_gap, scenario.warm, truth);
        let Some(idle) = idle_figures(&requests, TIMEOUT_MS, IdleSettings::default()) else {
            continue;
        };
        for gap in &idle.gaps {
            // Every estimate lies inside the interval printed with it.
            assert!(
                gap.monotone_interval.0 <= gap.monotone_share
                    && gap.monotone_share <= gap.monotone_interval.1,
                "{gap:?}"
            );
            let p = truth(gap.gap_s);
            tally.cells += 1;
            tally.covered += usize::from(gap.interval.0 <= p && p <= gap.interval.1);
        }
        if let Some([lo, hi]) = idle.goes_cold.range_s() {
            tally.goes_cold += 1;
            if let Some(t) = threshold_s {
                if lo <= t && t <= hi {
                    tally.range_holds += 1;
                } else if hi < t {
                    tally.missed_low += 1;
                } else {
                    tally.missed_high += 1;
                }
            }
        }
    }
    tally
}

fn pct(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// What `measure` found, for the bars.
#[derive(Debug, Default)]
struct Measured {
    /// Range held %, threshold scenarios always cold past it.
    held: Vec<f64>,
    /// "Goes cold" %, always-warm scenarios with lognormal σ 0.25 noise
    /// (some with idle-free cold starts).
    warm_reads_cold: Vec<f64>,
    /// "Goes cold" %, always-warm scenarios with heavy or wide warm noise
    /// and no cold starts at all.
    heavy_reads_cold: Vec<f64>,
    /// Per-gap coverage %, scenarios with log-t₃ warm noise.
    heavy_coverage: Vec<f64>,
    /// Coverage % over every cell of the scenarios with lognormal σ 0.25
    /// warm noise (the bar of the first idle work).
    coverage: f64,
}

/// Runs every scenario; prints one line each.
fn measure(runs: usize, per_gap: usize) -> Measured {
    let mut measured = Measured::default();
    let (mut covered, mut cells) = (0, 0);
    for (index, scenario) in SCENARIOS.into_iter().enumerate() {
        let tally = simulate(scenario, runs, per_gap, 0x1D1E_0000 + index as u64);
        let coverage = pct(tally.covered, tally.cells);
        let heavy = !matches!(scenario.warm, Warm::LogNormal(sigma) if sigma < 0.5);
        if !heavy {
            covered += tally.covered;
            cells += tally.cells;
        }
        if matches!(scenario.warm, Warm::LogT3(_)) {
            measured.heavy_coverage.push(coverage);
        }
        if scenario.threshold {
            let holds = pct(tally.range_holds, tally.runs);
            println!(
                "{}, {per_gap} per gap, {runs} runs: range holds the threshold {holds:.1} % \
                 (reads goes cold {:.1} %, range below it {:.1} %, above it {:.1} %); \
                 per-gap intervals cover {coverage:.1} %",
                scenario.name,
                pct(tally.goes_cold, tally.runs),
                pct(tally.missed_low, tally.runs),
                pct(tally.missed_high, tally.runs),
            );
            if scenario.after == 1.0 {
                measured.held.push(holds);
            }
        } else {
            let reads = pct(tally.goes_cold, tally.runs);
            println!(
                "{}, {per_gap} per gap, {runs} runs: reads goes cold {reads:.1} %; per-gap \
                 intervals cover {coverage:.1} %",
                scenario.name
            );
            if heavy {
                measured.heavy_reads_cold.push(reads);
            } else {
                measured.warm_reads_cold.push(reads);
            }
        }
    }
    measured.coverage = pct(covered, cells);
    println!(
        "scenarios with lognormal σ 0.25 warm noise: per-gap intervals cover {:.1} % of {cells} \
         gap × run cells",
        measured.coverage
    );
    measured
}

/// The bars of `measured`, with `margin` percentage points for the
/// sampling error of fewer runs.
fn assert_bars(measured: &Measured, margin: f64) {
    assert!(measured.held.iter().all(|&h| h >= 90.0), "{measured:?}");
    assert!(
        measured.warm_reads_cold.iter().all(|&w| w <= 5.0),
        "{measured:?}"
    );
    assert!(
        measured.heavy_reads_cold.iter().all(|&w| w <= 1.0 + margin),
        "{measured:?}"
    );
    // Not the 93 %: a warm log-t₃ outlier at 20–40× the median is
    // indistinguishable from a cold start one request at a time, and a
    // bound far enough out to keep every gap of 20 free of them (about
    // 26× at scale 0.5) misses half the simulated cold starts. Measured
    // 70.5–89.0 % at 2 000 runs (docs/statistics.md); this keeps it from
    // falling unseen.
    assert!(
        measured.heavy_coverage.iter().all(|&c| c >= 65.0 - margin),
        "{measured:?}"
    );
    assert!(measured.coverage >= 93.0, "{measured:?}");
}

/// A model cold after every gap, the shortest included (it scales to zero
/// sooner than any gap of the plan), 80 % of requests: how often the
/// reading is "goes cold before the shortest gap".
fn cold_at_every_gap(runs: usize, per_gap: usize, warm: Warm) -> f64 {
    let scenario = Scenario {
        name: "cold 80 % after every gap",
        threshold: false,
        base: 0.8,
        after: 0.0,
        warm,
    };
    let mut rng = fastrand::Rng::with_seed(0x1D1E_00C0);
    let mut before_shortest = 0;
    for _ in 0..runs {
        let requests = draw_requests(&mut rng, per_gap, scenario.warm, |_| scenario.base);
        let reads =
            idle_figures(&requests, TIMEOUT_MS, IdleSettings::default()).map(|idle| idle.goes_cold);
        before_shortest += usize::from(matches!(
            reads,
            Some(GoesCold::After { lo_s, .. }) if lo_s == 0.0
        ));
    }
    let share = pct(before_shortest, runs);
    println!(
        "{} ({warm:?}), {per_gap} per gap, {runs} runs: reads goes cold before the shortest gap \
         {share:.1} %",
        scenario.name
    );
    share
}

/// The bars at 20 requests per gap, 2 000 runs per scenario; prints the
/// figures in docs/statistics.md.
#[test]
#[ignore = "a seeded simulation of 24 000 runs; run it in release with --ignored --nocapture"]
fn idle_gaps_meet_their_bars_in_seeded_runs() {
    assert_bars(&measure(2_000, 20), 0.0);
    cold_at_every_gap(2_000, 20, Warm::LogNormal(0.25));
    // With fewer requests per gap, for the docs.
    measure(2_000, 10);
}

/// The same bars on fewer runs, so every test run checks them; the margin
/// is the sampling error of 300 runs.
#[test]
fn idle_gaps_meet_their_bars_in_a_few_seeded_runs() {
    assert_bars(&measure(300, 20), 1.0);
}

/// What the rule would read with the reference of all the target's
/// requests (its row's slow threshold) instead of the shortest gap's: the
/// comparison docs/statistics.md gives for the choice.
#[test]
#[ignore = "a seeded simulation; run it in release with --ignored --nocapture"]
fn the_rows_reference_misses_thresholds_below_the_second_gap() {
    let scenario = SCENARIOS[1];
    let mut rng = fastrand::Rng::with_seed(0x1D1E_0001);
    let runs = 2_000;
    let (mut held, mut held_by_pair) = (0, [(0, 0); 3]);
    for _ in 0..runs {
        let pair = rng.usize(0..GAPS_S.len() - 1);
        let t = GAPS_S[pair] + rng.f64() * (GAPS_S[pair + 1] - GAPS_S[pair]);
        let mut ranked = Vec::new();
        let mut censored = 0;
        for &gap_s in &GAPS_S {
            for _ in 0..20 {
                let warm_ms = 400.0 * (0.25 * normal(&mut rng)).exp();
                let p = scenario.base + (1.0 - scenario.base) * f64::from(u8::from(gap_s > t));
                let ms = if rng.f64() < p {
                    warm_ms + 15_000.0 * (0.6 * normal(&mut rng)).exp()
                } else {
                    warm_ms
                };
                censored += usize::from(ms >= TIMEOUT_MS);
                ranked.push(Ranked {
                    gap_s,
                    ms: ms.min(TIMEOUT_MS),
                    censored: ms >= TIMEOUT_MS,
                    failed: false,
                    moved: false,
                    idle_s: None,
                    late_s: 0.0,
                    connection: None,
                    connection_gap_s: None,
                });
            }
        }
        let mut sorted: Vec<f64> = ranked.iter().map(|r| r.ms).collect();
        crate::base::order::sort_numbers(&mut sorted);
        let row = slow_share(&sorted, censored).unwrap().threshold_ms;
        ranked.sort_unstable_by(|a, b| a.gap_s.total_cmp(&b.gap_s).then(a.ms.total_cmp(&b.ms)));
        let extra = ConnectionExtra::NotMeasured { new: 0, reused: 0 };
        let idle = figures_over(&ranked, row, IdleSettings::default(), extra);
        held_by_pair[pair].1 += 1;
        if idle
            .goes_cold
            .range_s()
            .is_some_and(|[lo, hi]| lo <= t && t <= hi)
        {
            held += 1;
            held_by_pair[pair].0 += 1;
        }
    }
    let by_pair: Vec<String> = held_by_pair
        .iter()
        .zip(GAPS_S.windows(2))
        .map(|((h, n), w)| format!("{}–{} s {:.1} %", w[0], w[1], pct(*h, *n)))
        .collect();
    println!(
        "{} with the row's reference, 20 per gap, {runs} runs: range holds the threshold \
         {:.1} % ({})",
        scenario.name,
        pct(held, runs),
        by_pair.join(", ")
    );
}

/// What the runs of a provider with a connection window came to.
#[derive(Debug, Default)]
struct ConnectionTally {
    /// Runs that read "the model goes cold after".
    model_cold: usize,
    /// Of them, the range held the model's true threshold.
    model_holds: usize,
    /// Runs whose connection range held the true keep-alive window.
    connection_holds: usize,
    /// Runs that took a measured extra off the requests on a new
    /// connection, and the error of what they took off, ms.
    taken_off: usize,
    extra_errors_ms: Vec<f64>,
}

/// The provider and client of [`connection_window`].
#[derive(Clone, Copy, Debug)]
struct Window {
    /// The model goes cold after its own threshold too.
    model_threshold: bool,
    /// The client measures the handshake and says how each request was
    /// connected (the runner); otherwise it says nothing (the page).
    phases: bool,
    /// A new connection's first request is also held 100–300 ms (drawn
    /// per run) that no timed phase shows: a proxy, a load balancer.
    untimed: bool,
    /// Every other request after the shortest gap goes on a new connection
    /// on purpose (the runner's plan does; the page cannot choose).
    experiment: bool,
}

impl Window {
    fn name(self) -> String {
        let model = if self.model_threshold {
            "model threshold and connection window"
        } else {
            "model never cold, connection window"
        };
        let client = match (self.phases, self.experiment) {
            (false, _) => "handshake unseen (page)",
            (true, true) => "handshake measured, new connections on purpose after the shortest gap",
            (true, false) => "handshake measured, no new connection on purpose",
        };
        let untimed = if self.untimed {
            ", 100-300 ms untimed per new connection"
        } else {
            ""
        };
        format!("{model}{untimed}, {client}")
    }
}

/// A fast provider (warm TTFT lognormal around 60 ms, σ 0.25) behind a
/// server that closes a connection idle longer than C, C drawn between
/// two neighbouring gaps; a new connection costs a lognormal 200 ms
/// (σ 0.3) of handshake, inside the TTFT as a client times it, and with
/// `untimed` a further U × lognormal(σ 0.1) the client cannot time, U
/// drawn per run between 100 and 300 ms. With `model_threshold`, the
/// model also goes cold after its own T (drawn the same way,
/// independently), adding a 15 s load.
fn connection_window(runs: usize, per_gap: usize, window: Window) -> ConnectionTally {
    let mut rng = fastrand::Rng::with_seed(
        0x1D1E_0C0C
            + u64::from(window.model_threshold) * 2
            + u64::from(window.phases)
            + u64::from(window.untimed) * 4
            + u64::from(window.experiment) * 8,
    );
    let mut tally = ConnectionTally::default();
    let between = |rng: &mut fastrand::Rng| {
        let pair = rng.usize(0..GAPS_S.len() - 1);
        GAPS_S[pair] + rng.f64() * (GAPS_S[pair + 1] - GAPS_S[pair])
    };
    for _ in 0..runs {
        let window_s = between(&mut rng);
        let threshold_s = window.model_threshold.then(|| between(&mut rng));
        let untimed_ms = if window.untimed {
            100.0 + 200.0 * rng.f64()
        } else {
            0.0
        };
        let mut requests = Vec::new();
        for &gap_s in &GAPS_S {
            for i in 0..per_gap {
                let warm_ms = 60.0 * (0.25 * normal(&mut rng)).exp();
                let fresh = window.experiment && gap_s == GAPS_S[0] && i % 2 == 1;
                let new = fresh || gap_s > window_s;
                let setup_ms = 200.0 * (0.3 * normal(&mut rng)).exp();
                let held_ms = untimed_ms * (0.1 * normal(&mut rng)).exp();
                let cold = threshold_s.is_some_and(|t| gap_s > t);
                let ms = warm_ms
                    + if new { setup_ms + held_ms } else { 0.0 }
                    + if cold {
                        15_000.0 * (0.6 * normal(&mut rng)).exp()
                    } else {
                        0.0
                    };
                requests.push(IdleRequest {
                    connection: window.phases.then_some(IdleConnection {
                        reused: !new,
                        setup_ms: new.then_some(setup_ms),
                        idle_s: Some(gap_s),
                        fresh,
                    }),
                    ..IdleRequest::planned(gap_s, TtftRank::Measured(ms.min(TIMEOUT_MS)))
                });
            }
        }
        let Some(idle) = idle_figures(&requests, TIMEOUT_MS, IdleSettings::default()) else {
            continue;
        };
        if let Some([lo, hi]) = idle.goes_cold.range_s() {
            tally.model_cold += 1;
            tally.model_holds += usize::from(threshold_s.is_some_and(|t| lo <= t && t <= hi));
        }
        if let Some(connection) = idle.connection {
            tally.connection_holds += usize::from(
                connection
                    .closes
                    .range_s()
                    .is_some_and(|[lo, hi]| lo <= window_s && window_s <= hi),
            );
            if let ConnectionExtra::TakenOff { ms, .. } = connection.extra {
                tally.taken_off += 1;
                tally.extra_errors_ms.push(ms - untimed_ms);
            }
        }
    }
    crate::base::order::sort_numbers(&mut tally.extra_errors_ms);
    let errors = if tally.extra_errors_ms.is_empty() {
        String::new()
    } else {
        let at = |p: f64| percentile(&tally.extra_errors_ms, p).unwrap_or(f64::NAN);
        format!(
            "; extra taken off in {:.1} % of runs, its error median {:.1} ms (5th-95th \
             percentile {:.1} to {:.1} ms)",
            pct(tally.taken_off, runs),
            at(50.0),
            at(5.0),
            at(95.0)
        )
    };
    println!(
        "{}, {per_gap} per gap, {runs} runs: model reads goes cold {:.1} % (range holds its \
         threshold {:.1} %); connection range holds the window {:.1} %{errors}",
        window.name(),
        pct(tally.model_cold, runs),
        pct(tally.model_holds, runs),
        pct(tally.connection_holds, runs),
    );
    tally
}

/// The rows of [`connection_window`]: the runner with and without the
/// untimed cost, the runner without the experiment (what it read before
/// it), and the page.
const WINDOWS: [Window; 8] = [
    Window {
        model_threshold: false,
        phases: true,
        untimed: false,
        experiment: true,
    },
    Window {
        model_threshold: true,
        phases: true,
        untimed: false,
        experiment: true,
    },
    Window {
        model_threshold: false,
        phases: true,
        untimed: true,
        experiment: true,
    },
    Window {
        model_threshold: true,
        phases: true,
        untimed: true,
        experiment: true,
    },
    Window {
        model_threshold: false,
        phases: true,
        untimed: true,
        experiment: false,
    },
    Window {
        model_threshold: true,
        phases: true,
        untimed: true,
        experiment: false,
    },
    Window {
        model_threshold: false,
        phases: false,
        untimed: false,
        experiment: false,
    },
    Window {
        model_threshold: true,
        phases: false,
        untimed: false,
        experiment: false,
    },
];

/// A provider that only drops connections is not said to go cold when the
/// client measures its connections, and the connection's range holds its
/// window; with a model threshold too, each range holds its own. That
/// holds when a new connection also costs 100–300 ms no timed phase shows,
/// measured after the shortest gap where the model is warm and taken off;
/// without that measurement such a provider read "goes cold" in most runs.
/// Without connections (the page) the reconnect reads as a cold replica,
/// which is why the page's section says its figures include reconnects.
#[test]
fn a_connection_window_is_told_from_a_cold_model() {
    let runs = 300;
    let [
        only,
        both,
        untimed_only,
        untimed_both,
        unmeasured_only,
        _,
        unseen,
        unseen_both,
    ] = WINDOWS.map(|window| connection_window(runs, 20, window));
    assert_eq!(only.model_cold, 0, "{only:?}");
    assert!(pct(only.connection_holds, runs) >= 95.0, "{only:?}");
    assert!(pct(both.model_holds, runs) >= 90.0, "{both:?}");
    assert!(
        pct(untimed_only.model_cold, runs) <= 5.0,
        "{untimed_only:?}"
    );
    assert!(
        pct(untimed_only.connection_holds, runs) >= 95.0,
        "{untimed_only:?}"
    );
    assert!(
        pct(untimed_both.model_holds, runs) >= pct(both.model_holds, runs) - 2.0,
        "{untimed_both:?}"
    );
    assert!(
        pct(unmeasured_only.model_cold, runs) > 50.0,
        "{unmeasured_only:?}"
    );
    assert!(pct(unseen.model_cold, runs) > 50.0, "{unseen:?}");
    assert_eq!(unseen_both.taken_off, 0);
}

/// The same at 2 000 runs each, for docs/statistics.md.
#[test]
#[ignore = "a seeded simulation; run it in release with --ignored --nocapture"]
fn a_connection_window_is_told_from_a_cold_model_in_2000_runs() {
    for window in WINDOWS {
        connection_window(2_000, 20, window);
    }
}
