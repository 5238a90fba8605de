//! The metamorphic suite: relations between runs that must hold whatever
//! the data, checked on seeded simulated runs through [`build_report`],
//! the function both adapters call.
//!
//! 1. **Plan options leave a steady provider's headline alone.** The same
//!    requests of the headline population, with prompt sizes, the cache
//!    probe, fidelity probes, warm-ups or a time-of-day split added around
//!    them, give the same verdict, tail, slow count, TTFT summary and
//!    route. Each option adds requests of another population (other
//!    sizes, repeats, probes, warm-ups), drawn here from distributions far
//!    from the headline's on purpose: pooling any of them moves a figure.
//! 2. **A request made worse never improves its target.** Slower, a
//!    timeout, or one more cold start: the verdict, the slow count, the
//!    median, the p95 and the route never get better. An error in place
//!    of a request never lowers the error rate.
//!
//! Fits of prompt-size growth have their own truthfulness tests in
//! [`crate::judgement::prefill`].

#![cfg(test)]

use crate::base::failure::{ErrorKind, Phase, SampleError};
use crate::judgement::compare::ComparisonRow;
use crate::judgement::report::{REPORT_SEED, Report, TargetReport, build_report};
use crate::judgement::verdict::Verdict;
use crate::planning::plan::{FidelityPlan, Plan, Target};
use crate::planning::schedule::Schedule;
use crate::wire::sample::Sample;

/// Epoch ms of every simulated run's start: a Tuesday, 09:00 UTC.
const START_MS: f64 = 1.8e12;

/// Lognormal draws around `median_ms` with log-σ `sigma`, and a share
/// `cold` of them 8–15× slower: a provider's headline TTFTs.
fn draws(rng: &mut fastrand::Rng, n: usize, median_ms: f64, sigma: f64, cold: f64) -> Vec<f64> {
    (0..n)
        .map(|_| {
            let (u1, u2) = (1.0 - rng.f64(), rng.f64());
            let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
            let cold_factor = if rng.f64() < cold {
                8.0 + 7.0 * rng.f64()
            } else {
                1.0
            };
            median_ms * (sigma * z).exp() * cold_factor
        })
        .collect()
}

/// Three targets of one model: A steady and fast, B steady and slower,
/// C with cold starts in about 1 request in 12.
fn base_plan(requests: u32) -> Plan {
    let target = |label: &str, host: &str| Target::openai(label, host, "m");
    Plan {
        targets: vec![
            target("A", "https://a.example/v1"),
            target("B", "https://b.example/v1"),
            target("C", "https://c.example/v1"),
        ],
        requests_per_target: requests,
        warmup_per_target: 0,
        ..Plan::default()
    }
}

/// The headline TTFTs of `plan`'s three targets, `n` each, from `seed`.
fn headline_values(seed: u64, n: usize) -> Vec<Vec<f64>> {
    let mut rng = fastrand::Rng::with_seed(seed);
    vec![
        draws(&mut rng, n, 300.0, 0.15, 0.0),
        draws(&mut rng, n, 450.0, 0.15, 0.0),
        draws(&mut rng, n, 380.0, 0.2, 1.0 / 12.0),
    ]
}

/// Every request of `plan` answered: the k-th request of a target's
/// headline population gets `headline[target][k]`; every other request
/// (a warm-up, another size, a cache repeat, a fidelity probe) a TTFT from
/// its own distribution, far from the headline's, so that pooling it in
/// would show.
fn run(plan: &Plan, headline: &[Vec<f64>], seed: u64) -> Vec<Sample> {
    let population = crate::judgement::population::Population::of_plan(plan);
    let mut rng = fastrand::Rng::with_seed(seed ^ 0xA5A5);
    let mut next = vec![0usize; plan.targets.len()];
    Schedule::new(plan, START_MS, seed)
        .requests
        .iter()
        .map(|planned| {
            let target = planned.target as usize;
            let mut sample = crate::testing::fixtures::planned_sample(planned);
            let ttft_ms = if sample.warmup {
                // A warm-up meets the cold replica.
                6_000.0 + 2_000.0 * rng.f64()
            } else if sample.probe.is_some() {
                // Probes ask for longer answers on other prompts.
                1_500.0 + 4_000.0 * rng.f64()
            } else if population.contains(&sample) {
                let own = &headline[target];
                let value = own[next[target] % own.len()];
                next[target] += 1;
                value
            } else {
                match planned.sized_prompt {
                    // A cache repeat: most of the prompt cached.
                    Some(sized) if sized.repeat_of.is_some() => 120.0 + 40.0 * rng.f64(),
                    // Another size: steady, but reading the prompt takes
                    // 0.1 ms a token.
                    Some(sized) => {
                        (200.0 + 0.1 * f64::from(sized.tokens)) * (1.0 + 0.1 * rng.f64())
                    }
                    None => 300.0,
                }
            };
            sample.ttft_ms = Some(ttft_ms);
            sample.headers_ms = Some(ttft_ms * 0.6);
            sample.first_byte_ms = Some(ttft_ms * 0.9);
            sample.second_token_ms = Some(ttft_ms + 20.0);
            sample.total_ms = Some(ttft_ms + 500.0);
            sample
        })
        .collect()
}

/// What a target's headline says, for comparing two runs.
#[derive(Debug, PartialEq)]
struct Headline {
    verdict: Option<Verdict>,
    tail: bool,
    slow: Option<usize>,
    n: Option<usize>,
    median_ms: Option<f64>,
    p95_ms: Option<f64>,
    cv_pct: Option<f64>,
}

fn headline_of(target: &TargetReport) -> Headline {
    Headline {
        verdict: target.verdict,
        tail: target.cold_tail.is_some(),
        slow: target.slow.map(|s| s.slow),
        n: target.ttft.map(|t| t.n),
        median_ms: target.ttft.map(|t| t.median),
        p95_ms: target.ttft.map(|t| t.p95),
        cv_pct: target.ttft.map(|t| t.cv_pct),
    }
}

/// Each target's headline, and the route's pick with each row's slow count.
fn judged(report: &Report) -> (Vec<Headline>, Option<u32>, Vec<(u32, usize)>) {
    let rows: Vec<(u32, usize)> = report
        .models
        .iter()
        .flat_map(|m| m.rows.iter())
        .map(|row: &ComparisonRow| (row.figures.target, row.slow))
        .collect();
    (
        report.targets.iter().map(headline_of).collect(),
        report.routing.routes.first().and_then(|r| r.target),
        rows,
    )
}

/// The plan options of relation 1, each on its own and all together:
/// (name, the plan with it, its requests per target so that every
/// headline population holds `n` requests).
fn variants(n: u32) -> Vec<(&'static str, Plan)> {
    let sized = |sizes: &[u32], probe: bool| {
        let mut plan = base_plan(n);
        plan.prompt_sizes = Some(sizes.to_vec());
        plan.prompt_cache_probe = probe;
        plan.requests_per_target = n * crate::planning::prompt::cycle(&plan).len() as u32;
        plan
    };
    let mut with_probes = base_plan(n);
    with_probes.fidelity = Some(FidelityPlan::basic(Some("A".to_owned())));
    let mut with_warmups = base_plan(n);
    with_warmups.warmup_per_target = 3;
    let mut split = base_plan(n);
    split.peak_hours = [10, 14];
    // Run until decided, with its floor at the cap: the same requests are
    // sent (a run that stops sooner holds fewer, which relation 1 does not
    // compare); the question must change no figure of the report.
    let mut decided = base_plan(n);
    decided.until_decided = true;
    decided.min_requests_per_target = Some(n);
    // And asking whether the targets are equivalent within ±10 %.
    decided.equivalent_within_pct = Some(10.0);
    let mut typical = sized(&[128, 2_048, 16_384], false);
    typical.typical_prompt_tokens = Some(100);
    let mut everything = sized(&[128, 2_048, 16_384], true);
    everything.fidelity = Some(FidelityPlan::basic(Some("A".to_owned())));
    everything.warmup_per_target = 3;
    everything.peak_hours = [10, 14];
    everything.until_decided = true;
    everything.min_requests_per_target = Some(everything.requests_per_target);
    everything.equivalent_within_pct = Some(10.0);
    vec![
        ("prompt sizes", sized(&[128, 2_048, 16_384], false)),
        ("prompt sizes, typical size", typical),
        (
            "prompt sizes and the cache probe",
            sized(&[128, 4_096], true),
        ),
        ("fidelity probes", with_probes),
        ("warm-ups", with_warmups),
        ("a time-of-day split", split),
        ("run until decided", decided),
        ("all of them", everything),
    ]
}

#[test]
fn plan_options_leave_every_headline_and_the_route_as_they_were() {
    for seed in 0..6_u64 {
        let n = 100;
        let values = headline_values(seed, n as usize);
        let base = build_report(
            &base_plan(n),
            &run(&base_plan(n), &values, seed),
            0,
            REPORT_SEED,
        );
        let (base_heads, base_pick, base_rows) = judged(&base);
        // The world is what the relation needs: A and B steady, C not.
        assert_eq!(base_heads[0].verdict, Some(Verdict::Solid), "seed {seed}");
        assert_eq!(base_heads[1].verdict, Some(Verdict::Solid), "seed {seed}");
        assert_eq!(base_pick, Some(0), "seed {seed}");
        for (name, plan) in variants(n) {
            let report = build_report(&plan, &run(&plan, &values, seed), 0, REPORT_SEED);
            let (heads, pick, rows) = judged(&report);
            assert_eq!(heads, base_heads, "seed {seed}, {name}");
            assert_eq!(pick, base_pick, "seed {seed}, {name}: the route");
            assert_eq!(
                rows, base_rows,
                "seed {seed}, {name}: the route's slow counts"
            );
        }
    }
}

#[test]
fn a_steady_sized_provider_reads_solid_at_every_size() {
    let (_, plan) = variants(100).swap_remove(0);
    let values = headline_values(3, 100);
    let report = build_report(&plan, &run(&plan, &values, 3), 0, REPORT_SEED);
    let steady = &report.targets[0];
    assert_eq!(steady.verdict, Some(Verdict::Solid));
    assert_eq!(steady.by_size.len(), 3);
    assert!(
        steady
            .by_size
            .iter()
            .all(|size| size.judgement.verdict() == Some(Verdict::Solid) && size.slow == 0),
        "{:?}",
        steady.by_size
    );
    let said =
        crate::narrative::sentences::report_sentences(&report, crate::judgement::verdict::Lang::En);
    assert_eq!(said.models[0].by_size[0].text, "solid at every size");
    assert!(
        said.population
            .as_deref()
            .is_some_and(|p| p.contains("first sends at 128 tokens")),
        "{:?}",
        said.population
    );
}

/// The ways of making request `index` of `target`'s headline worse.
#[derive(Clone, Copy, Debug)]
enum Worse {
    Slower(f64),
    Timeout,
    ColdStart,
    Error,
}

fn make_worse(sample: &mut Sample, worse: Worse, timeout_ms: f64, slow_floor_ms: f64) {
    let ttft = sample.ttft_ms.unwrap_or(0.0);
    match worse {
        // Slower, past the slow line: a request made slower *within* the
        // warm cluster can lower the CV a little, the one thing the
        // verdict does not promise (crate::judgement::slow's module doc).
        Worse::Slower(factor) => {
            sample.ttft_ms = Some((ttft * factor).max(slow_floor_ms).min(timeout_ms - 1.0));
        }
        Worse::ColdStart => sample.ttft_ms = Some((ttft * 15.0).clamp(5_000.0, timeout_ms - 1.0)),
        Worse::Timeout => {
            sample.ttft_ms = None;
            sample.total_ms = Some(timeout_ms);
            sample.error = Some(SampleError {
                kind: ErrorKind::Timeout,
                phase: Phase::BeforeFirstToken,
                message: "no first token within the timeout".to_owned(),
            });
        }
        Worse::Error => {
            sample.ttft_ms = None;
            sample.error = Some(SampleError {
                kind: ErrorKind::HttpStatus,
                phase: Phase::Request,
                message: "503 service unavailable".to_owned(),
            });
        }
    }
}

#[test]
fn a_request_made_worse_never_improves_its_target_or_its_route() {
    let mut rng = fastrand::Rng::with_seed(37);
    let mut checked = 0;
    for seed in 0..4_u64 {
        let values = headline_values(seed, 100);
        for (name, plan) in variants(100) {
            let samples = run(&plan, &values, seed);
            let before = build_report(&plan, &samples, 0, REPORT_SEED);
            let timeout_ms = plan.timeout_s * 1000.0;
            for _ in 0..6 {
                let target = rng.u32(0..3);
                let own: Vec<usize> = samples
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| {
                        s.target == target && before.population.contains(s) && !s.warmup
                    })
                    .map(|(i, _)| i)
                    .collect();
                let index = own[rng.usize(0..own.len())];
                let worse = match rng.u8(0..4) {
                    0 => Worse::Slower(1.0 + 4.0 * rng.f64()),
                    1 => Worse::Timeout,
                    2 => Worse::ColdStart,
                    _ => Worse::Error,
                };
                let mut changed = samples.clone();
                let slow_floor_ms = before.targets[target as usize]
                    .slow
                    .map_or(0.0, |s| s.threshold_ms * 1.01);
                make_worse(&mut changed[index], worse, timeout_ms, slow_floor_ms);
                let after = build_report(&plan, &changed, 0, REPORT_SEED);
                let (b, a) = (
                    &before.targets[target as usize],
                    &after.targets[target as usize],
                );
                let context = format!("seed {seed}, {name}, target {target}, {worse:?}");
                assert!(a.error_rate >= b.error_rate, "{context}: error rate");
                let was_picked = before.routing.routes[0].target == Some(target);
                let is_picked = after.routing.routes[0].target == Some(target);
                if matches!(worse, Worse::Error) {
                    // An error leaves the latency ranks by design; what it
                    // promises is a higher error rate, checked above.
                    checked += 1;
                    continue;
                }
                assert!(
                    a.verdict >= b.verdict,
                    "{context}: verdict {:?} → {:?}",
                    b.verdict,
                    a.verdict
                );
                assert!(a.tail_band >= b.tail_band, "{context}: tail band");
                let slow = |t: &TargetReport| t.slow.map_or(0, |s| s.slow);
                assert!(slow(a) >= slow(b), "{context}: slow count");
                let (bt, at) = (b.ttft.unwrap(), a.ttft.unwrap());
                assert!(
                    at.median >= bt.median && at.p95 >= bt.p95,
                    "{context}: median or p95"
                );
                assert!(
                    !is_picked || was_picked,
                    "{context}: became the route's pick"
                );
                let row_slow = |r: &Report| {
                    r.models[0]
                        .rows
                        .iter()
                        .find(|row| row.figures.target == target)
                        .map(|row| row.slow)
                };
                assert!(
                    row_slow(&after) >= row_slow(&before),
                    "{context}: the route's slow count"
                );
                assert_eq!(
                    row_slow(&after),
                    Some(slow(a)),
                    "{context}: the route and the row agree"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 4 * 8 * 6);
}

/// The black-box figure of docs/statistics.md: how often a steady
/// provider measured at three prompt sizes reads "solid", judged as the
/// report judges it (the headline size, each size on its own) and as it
/// was judged when every size was pooled into one population.
#[test]
#[ignore = "a simulation for the docs: cargo test -p firsttoken-core --release --lib metamorphic::steady_sized_providers_in_seeded_runs -- --ignored --nocapture"]
fn steady_sized_providers_in_seeded_runs() {
    let runs = 200;
    let (mut solid, mut every_size_solid, mut pooled_solid) = (0, 0, 0);
    let mut pooled_verdicts = std::collections::BTreeMap::new();
    for seed in 0..runs {
        let (_, plan) = variants(100).swap_remove(0);
        let values = headline_values(seed, 100);
        let samples = run(&plan, &values, seed);
        let report = build_report(&plan, &samples, 0, REPORT_SEED);
        let steady = &report.targets[0];
        solid += usize::from(steady.verdict == Some(Verdict::Solid));
        every_size_solid += usize::from(
            steady
                .by_size
                .iter()
                .all(|s| s.judgement.verdict() == Some(Verdict::Solid)),
        );
        // Pooled: the same requests as one population (every first send,
        // whatever its size).
        let pooled_plan = Plan {
            prompt_sizes: None,
            ..plan.clone()
        };
        let pooled: Vec<Sample> = samples
            .iter()
            .filter(|s| s.sized_prompt.is_none_or(|p| p.repeat_of.is_none()))
            .cloned()
            .map(|mut s| {
                s.sized_prompt = None;
                s
            })
            .collect();
        let verdict = build_report(&pooled_plan, &pooled, 0, REPORT_SEED).targets[0].verdict;
        pooled_solid += usize::from(verdict == Some(Verdict::Solid));
        *pooled_verdicts.entry(format!("{verdict:?}")).or_insert(0) += 1;
    }
    let pct = |k: usize| 100.0 * k as f64 / f64::from(u32::try_from(runs).unwrap_or(1));
    println!(
        "steady provider at 128, 2 048 and 16 384 tokens, 100 first sends each, {runs} runs: \
         headline solid {:.1} %, every size solid {:.1} %; pooled as before: solid {:.1} % {pooled_verdicts:?}",
        pct(solid),
        pct(every_size_solid),
        pct(pooled_solid)
    );
    assert!(pct(solid) >= 99.0);
}
