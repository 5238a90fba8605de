//! The fit against a simulated provider that behaves as the mock's
//! `prefill` scripts do (TTFT = 150 ms + uniform 0–30 ms + input tokens ÷
//! rate × (1 ± 5 %), optional cold starts of 2.5–3.5 s, a cache that reads
//! a repeated prompt's whole 128-token blocks), on the plan's own schedule.

use super::*;
use crate::fixtures;
use crate::plan::{Plan, Protocol, Target};
use crate::schedule::Schedule;

/// How a simulated provider behaves.
#[derive(Clone, Copy)]
struct Provider {
    /// The fixed part before the jitter, ms.
    fixed_ms: f64,
    rate: f64,
    cold_share: f64,
    cache: bool,
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn plan_of(targets: usize, sizes: &[u32], requests: u32, probe: bool) -> Plan {
    let target = Target {
        label: "t".into(),
        protocol: Protocol::OpenAi,
        base_url: "https://api.example.com/v1".into(),
        model: "m".into(),
        provider: None,
        price: None,
        openrouter_provider: None,
    };
    Plan {
        targets: vec![target; targets],
        requests_per_target: requests,
        prompt_sizes: Some(sizes.to_vec()),
        prompt_cache_probe: probe,
        nonce: true,
        ..Plan::default()
    }
}

/// The samples of a run of `plan` against `providers` (one per target).
#[cfg_attr(target_arch = "wasm32", inline)]
fn simulate(plan: &Plan, providers: &[Provider], seed: u64) -> Vec<Sample> {
    let schedule = Schedule::new(plan, 0.0, seed);
    let mut rng = fastrand::Rng::with_seed(seed);
    schedule
        .requests
        .iter()
        .map(|planned| {
            let provider = providers[planned.target as usize];
            let sized = planned.sized_prompt.unwrap();
            // The provider's count: the synthetic prompt is sized to the
            // token by the count the mock uses (checked in `prompt`), and a
            // provider adds its chat template's few tokens.
            let input = sized.tokens + TEMPLATE_TOKENS;
            let cached = if provider.cache && sized.repeat_of.is_some() && input >= 1_024 {
                input / 128 * 128
            } else {
                0
            };
            let reading = f64::from(input - cached) * 1_000.0 / provider.rate
                * (1.0 + 0.05 * (2.0 * rng.f64() - 1.0));
            let cold = if rng.f64() < provider.cold_share {
                2_500.0 + rng.f64() * 1_000.0
            } else {
                0.0
            };
            let ttft = provider.fixed_ms + rng.f64() * 30.0 + reading + cold;
            let mut sample = fixtures::sample(
                planned.target,
                planned.seq,
                planned.planned_at_ms,
                Some(ttft),
                planned.warmup,
            );
            sample.sized_prompt = planned.sized_prompt;
            sample.input_tokens = Some(input);
            sample.cached_tokens = provider.cache.then_some(cached);
            sample
        })
        .collect()
}

/// Tokens a provider's chat template adds to the prompt.
const TEMPLATE_TOKENS: u32 = 7;

const SIZES: [u32; 5] = [128, 512, 2_048, 8_192, 32_768];
const A: Provider = Provider {
    fixed_ms: 150.0,
    rate: 6_000.0,
    cold_share: 0.05,
    cache: false,
};
const B: Provider = Provider {
    fixed_ms: 150.0,
    rate: 20_000.0,
    cold_share: 0.05,
    cache: true,
};

#[test]
#[cfg_attr(target_arch = "wasm32", inline)]
fn the_fit_finds_each_rate_and_says_which_prefills_faster() {
    let plan = plan_of(2, &SIZES, 400, false);
    let samples = simulate(&plan, &[A, B], 11);
    let a = prefill_fit(&samples, 0, 1).unwrap();
    let b = prefill_fit(&samples, 1, 1).unwrap();
    for (fit, truth) in [(&a, 6_000.0), (&b, 20_000.0)] {
        let error = (fit.rate_tokens_per_s / truth - 1.0).abs();
        assert!(error < 0.10, "{} vs {truth}", fit.rate_tokens_per_s);
        assert!(fit.rate_interval.low <= truth && truth <= fit.rate_interval.high);
        // The fixed part: 150 ms + the jitter's mean, 15 ms.
        assert!((fit.fixed_ms - 165.0).abs() < 30.0, "{}", fit.fixed_ms);
        assert_eq!(fit.points.len(), 5);
        // Cold starts stay out of the fit: about 1 in 20 per size.
        assert!(fit.points.iter().map(|p| p.slow).sum::<usize>() > 5);
    }
    let comparison = compare_prefill(&a, &b);
    assert_eq!(comparison.faster, Some(1));
    assert!(
        comparison.ratio_interval.low < 20.0 / 6.0 && 20.0 / 6.0 < comparison.ratio_interval.high
    );
    // Two providers at the same rate: no winner.
    let same = simulate(&plan, &[B, B], 12);
    let tie = compare_prefill(
        &prefill_fit(&same, 0, 1).unwrap(),
        &prefill_fit(&same, 1, 1).unwrap(),
    );
    assert_eq!(tie.faster, None);
}

#[test]
#[cfg_attr(target_arch = "wasm32", inline)]
fn a_repeated_prompt_saves_what_the_cache_skips_and_none_without_a_cache() {
    let plan = plan_of(2, &[128, 8_192], 300, true);
    let samples = simulate(&plan, &[A, B], 5);
    let a = cache_savings(&samples, 0);
    let b = cache_savings(&samples, 1);
    assert_eq!(a.len(), 1);
    assert!(!a[0].has_effect(), "{:?}", a[0]);
    assert_eq!(b.len(), 1);
    // 8 192 of the 8 2xx tokens cached at 20 000 tokens/s: 410 ms sooner.
    let truth = 8_192.0 * 1_000.0 / 20_000.0;
    assert!(b[0].has_effect());
    assert!(
        b[0].interval.low <= truth && truth <= b[0].interval.high,
        "{:?}",
        b[0]
    );
    assert_eq!(b[0].cached_tokens, Some(8_192.0));
    assert_eq!(b[0].size, 8_192);
}

#[test]
#[cfg_attr(target_arch = "wasm32", inline)]
fn without_sizes_there_is_no_fit() {
    let samples = vec![fixtures::sample(0, 0, 0.0, Some(100.0), false)];
    assert_eq!(prefill_fit(&samples, 0, 1), None);
    assert!(cache_savings(&samples, 0).is_empty());
}

/// The seeded simulation of docs/statistics.md ("Prefill speed"): two
/// targets of one model at 6 000 and 20 000 tokens/s, sizes 128–32 768,
/// 400 requests per target (80 per size), 5 % cold starts, over many
/// seeds: how often each rate's interval covers the truth, the largest
/// error of the point estimate, and how often "faster" is said.
#[test]
#[ignore = "a simulation for the docs: cargo test -p firsttoken-core --release --lib prefill::tests::prefill_fit_coverage -- --ignored --nocapture"]
#[cfg_attr(target_arch = "wasm32", inline)]
fn prefill_fit_coverage() {
    let runs = 1_000;
    let plan = plan_of(2, &SIZES, 400, false);
    let (mut covered_a, mut covered_b, mut faster, mut wrong) = (0, 0, 0, 0);
    let (mut worst_a, mut worst_b) = (0.0_f64, 0.0_f64);
    let (mut tie_said, mut cache_covered, mut no_effect) = (0, 0, 0);
    for seed in 0..runs {
        let samples = simulate(&plan, &[A, B], seed);
        let a = prefill_fit(&samples, 0, seed).unwrap();
        let b = prefill_fit(&samples, 1, seed).unwrap();
        covered_a += usize::from(a.rate_interval.low <= 6_000.0 && 6_000.0 <= a.rate_interval.high);
        covered_b +=
            usize::from(b.rate_interval.low <= 20_000.0 && 20_000.0 <= b.rate_interval.high);
        worst_a = worst_a.max((a.rate_tokens_per_s / 6_000.0 - 1.0).abs());
        worst_b = worst_b.max((b.rate_tokens_per_s / 20_000.0 - 1.0).abs());
        match compare_prefill(&a, &b).faster {
            Some(1) => faster += 1,
            Some(_) => wrong += 1,
            None => {}
        }
        let same = simulate(&plan, &[B, B], seed + 1_000_000);
        let tie = compare_prefill(
            &prefill_fit(&same, 0, seed).unwrap(),
            &prefill_fit(&same, 1, seed).unwrap(),
        );
        tie_said += usize::from(tie.faster.is_some());
    }
    let cache_plan = plan_of(2, &[128, 8_192], 300, true);
    let cache_runs = 200;
    for seed in 0..cache_runs {
        let samples = simulate(&cache_plan, &[A, B], seed);
        let truth = 8_192.0 * 1_000.0 / 20_000.0;
        let b = cache_savings(&samples, 1);
        cache_covered += usize::from(b[0].interval.low <= truth && truth <= b[0].interval.high);
        no_effect += usize::from(!cache_savings(&samples, 0)[0].has_effect());
    }
    let pct = |k: usize, n: u64| 100.0 * k as f64 / n as f64;
    println!("runs: {runs}");
    println!(
        "A (6 000 tokens/s): interval covers the truth in {:.1} %, worst error {:.1} %",
        pct(covered_a, runs),
        100.0 * worst_a
    );
    println!(
        "B (20 000 tokens/s): interval covers the truth in {:.1} %, worst error {:.1} %",
        pct(covered_b, runs),
        100.0 * worst_b
    );
    println!(
        "\"B prefills faster\" said in {:.1} % of runs, the wrong way in {:.1} %",
        pct(faster, runs),
        pct(wrong, runs)
    );
    println!(
        "two providers at 20 000 tokens/s: \"faster\" said in {:.1} % of runs",
        pct(tie_said, runs)
    );
    println!(
        "cache saving at 8 192 tokens (truth 410 ms): interval covers it in {:.1} % of {cache_runs} runs; no cache effect read for the provider without a cache in {:.1} %",
        pct(cache_covered, cache_runs),
        pct(no_effect, cache_runs)
    );
    assert!(pct(covered_a, runs) >= 93.0 && pct(covered_b, runs) >= 93.0);
    assert!(worst_a < 0.10 && worst_b < 0.10);
    assert_eq!(wrong, 0);
}

#[test]
#[cfg_attr(target_arch = "wasm32", inline)]
fn the_routing_ranks_by_the_ttft_predicted_at_the_typical_size_when_the_plan_names_one() {
    use crate::report::build_report;
    use crate::verdict::Lang;
    // Short prompts favour `near` (a small fixed part, a slow prefill);
    // at 32 768 tokens `far` (a large fixed part, a fast prefill) starts
    // first: about 2.3 s against 5.6 s.
    let near = Provider {
        fixed_ms: 150.0,
        rate: 6_000.0,
        cold_share: 0.0,
        cache: false,
    };
    let far = Provider {
        fixed_ms: 600.0,
        rate: 20_000.0,
        cold_share: 0.0,
        cache: false,
    };
    let mut plan = plan_of(2, &[128, 512, 2_048], 300, false);
    plan.targets[0].label = "near".into();
    plan.targets[1].label = "far".into();
    let samples = simulate(&plan, &[near, far], 7);
    let without = build_report(&plan, &samples, 0, 3);
    let route = &without.routing.routes[0];
    assert_eq!(route.target, Some(0), "{route:?}");
    assert!(
        route.reason.starts_with("fewest slow requests (0 of 300")
            && !route.reason.contains("typical"),
        "{}",
        route.reason
    );
    assert!(
        without.models[0]
            .rows
            .iter()
            .all(|r| r.figures.typical.is_none())
    );

    plan.typical_prompt_tokens = Some(32_768);
    let with = build_report(&plan, &samples, 0, 3);
    let route = &with.routing.routes[0];
    assert_eq!(route.target, Some(1), "{route:?}");
    assert!(route.distinguishable, "{route:?}");
    assert!(
        route.reason.starts_with(
            "lowest TTFT predicted at the typical 32 768 input tokens (2.25 s, from the prefill fit) \
             of 2 providers"
        ),
        "{}",
        route.reason
    );
    let typical = with.models[0].rows[0].figures.typical.unwrap();
    let truth = 600.0 + 15.0 + 32_768.0 * 1_000.0 / 20_000.0;
    assert!(
        typical.interval.low <= truth && truth <= typical.interval.high,
        "{truth} outside {typical:?}"
    );
    let zh = &with.routing_in(Lang::ZhCn).routes[0].reason;
    assert!(
        zh.contains("典型长度 32 768 个输入 token 时首个 token 最快"),
        "{zh}"
    );
    // The other figures are the same either way: only the order moved.
    assert_eq!(with.targets, without.targets);
}
