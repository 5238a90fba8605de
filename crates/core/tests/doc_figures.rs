//! The worked figures of the docs, computed by the code that produces them.
//!
//! Each test covers one section of docs/statistics.md, docs/methodology.md
//! (and its Chinese translation, which carries the same figures) or
//! docs/worked-example.md, and asserts every figure to the precision the
//! doc prints it with. The comment above each check quotes the sentence.
//! Figures printed by seeded simulations are not here: they come from the
//! tests named beside them in the docs.

#![cfg(not(target_arch = "wasm32"))]
// The helpers outside `#[test]` functions are test code too.
#![allow(clippy::unwrap_used, clippy::panic)]

use firsttoken_core::base::lang::Lang;
use firsttoken_core::judgement::compare::{
    Consistency, TargetFigures, compare_models, routing_table,
};
use firsttoken_core::judgement::fidelity_score::PassRate;
use firsttoken_core::judgement::report::{build_report, percentile_reaches_censored};
use firsttoken_core::judgement::settings::{
    Goodput, TimeoutAdvice, recommended_timeout, requests_needed,
};
use firsttoken_core::judgement::slow::{SlowShare, one_in, slow_share, tail_band, warm_reference};
use firsttoken_core::judgement::tail::{
    ColdTail, MAX_TAIL_SHARE, MIN_GAP_OVER_TAIL_SPACING, MIN_GAP_SPREADS, MIN_PAIR_GAP_SPREADS,
    MIN_SAMPLES_FOR_TAIL, MIN_SPREAD, MIN_TAIL_COUNT, MIN_TAIL_Z, detect_cold_tail,
};
use firsttoken_core::judgement::timeofday::{MIN_FOR_P95_BOUND, PeriodComparison};
use firsttoken_core::judgement::verdict::{
    Caveat, ERROR_RATE_THRESHOLD, Judgement, MIN_SAMPLES, VERDICT_MIN_SAMPLES, Verdict, cv_cap_pct,
    judge,
};
use firsttoken_core::narrative::delivery::goodput_sentence;
use firsttoken_core::narrative::distinction::resampling_text;
use firsttoken_core::narrative::fidelity::pass_rate_text;
use firsttoken_core::narrative::period::period_sentence;
use firsttoken_core::narrative::tail::{slow_sentence, tail_sentence, target_tail_sentence};
use firsttoken_core::planning::plan::{FidelityPlan, Plan, Target};
use firsttoken_core::statistics::binomial::{binomial_cdf, clopper_pearson, fisher_exact, wilson};
use firsttoken_core::statistics::bootstrap::EXPORT_RESAMPLES;
use firsttoken_core::statistics::dependence::{BLOCK_AFTER_SPAN_MS, Resampling};
use firsttoken_core::statistics::quantile::{
    BATCH_BLOCKS, MIN_BATCHES, order_statistic_ranks, student_t_975,
};
use firsttoken_core::statistics::stats::{percentile, summarize_sorted};
use firsttoken_core::testing::fixtures::synthetic_samples;

/// The 97.5th percentile of the standard normal.
const Z: f64 = 1.959_963_984_540_054;

/// `x` rounded to `decimals` places, as the docs print it.
fn rounded(x: f64, decimals: i32) -> f64 {
    let scale = 10_f64.powi(decimals);
    (x * scale).round() / scale
}

/// `x` rounded to the nearest ten ("near 500 %").
fn to_tens(x: f64) -> f64 {
    (x / 10.0).round() * 10.0
}

/// The CV% of `values` (any order).
fn cv(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    firsttoken_core::base::order::sort_numbers(&mut sorted);
    summarize_sorted(&sorted).unwrap().cv_pct
}

/// The verdict of ranked TTFTs `sorted` (ascending, the top `censored` of
/// them timeouts), judged as the report judges: the worse of the CV band
/// and the tail band, never "solid" with a slow request or a tail.
fn verdict(sorted: &[f64], censored: usize) -> Verdict {
    let cv_pct = summarize_sorted(sorted).unwrap().cv_pct;
    let slow = slow_share(sorted, censored);
    let band = slow.map_or(Verdict::Solid, |slow| tail_band(&slow));
    judge(
        cv_pct,
        band,
        slow.map_or(censored, |slow| slow.slow),
        detect_cold_tail(sorted).is_some(),
    )
}

/// `n` requests at 400 ms and `cold` of them at 40 s, as a run.
fn cold_starts_of_40_s(n: usize, cold: usize) -> Vec<f64> {
    let mut values = vec![400.0; n - cold];
    values.extend(std::iter::repeat_n(40_000.0, cold));
    values
}

/// The cold-start tail the code finds in 71 warm requests near 430 ms and
/// four cold starts (`tail_ms`: fastest, median, slowest), with its warm
/// median and p95 set to the figures the doc's sentence prints.
fn cold_tail(tail_ms: [f64; 3], warm_median: f64, warm_p95: f64) -> ColdTail {
    let [fastest, median, slowest] = tail_ms;
    let mut values: Vec<f64> = (0..71).map(|i| 400.0 + f64::from(i)).collect();
    values.extend([fastest, median, median, slowest]);
    let mut tail = detect_cold_tail(&values).unwrap();
    assert_eq!(
        (tail.min_ms, tail.median_ms, tail.max_ms),
        (fastest, median, slowest)
    );
    tail.warm.median = warm_median;
    tail.warm.p95 = warm_p95;
    tail
}

fn target(label: &str) -> Target {
    serde_json::from_str(&format!(
        r#"{{"label": "{label}", "protocol": "openai", "base_url": "https://example.com/v1", "model": "m"}}"#
    ))
    .unwrap()
}

/// docs/statistics.md, "Which samples count", Censored figures.
#[test]
fn statistics_which_samples_count() {
    // "it is exact while ⌈h⌉ < n − censored — for the p95 of 75 requests,
    // up to 3 timeouts."
    assert!(!percentile_reaches_censored(75, 3, 95.0));
    assert!(percentile_reaches_censored(75, 4, 95.0));
}

/// docs/statistics.md, "Confidence intervals".
#[test]
fn statistics_confidence_intervals() {
    // "p95 of 75 requests: [x₍₆₇₎, x₍₇₅₎]; median of 100: [x₍₄₀₎, x₍₆₁₎]."
    assert_eq!(order_statistic_ranks(75, 0.95), (Some(67), Some(75)));
    assert_eq!(order_statistic_ranks(100, 0.5), (Some(40), Some(61)));
    // "Below 72 requests (1 − 0.95ⁿ < 0.975) the p95 has no finite upper bound".
    assert_eq!(order_statistic_ranks(71, 0.95).1, None);
    assert_eq!(order_statistic_ranks(72, 0.95).1, Some(72));
    // "averaged over consecutive batches of 3 block lengths
    // (`BATCH_BLOCKS`; at least 5 batches)"; "B = 2 000 (`EXPORT_RESAMPLES`)
    // for a file of up to 1 000 samples … never below 400".
    assert_eq!((BATCH_BLOCKS, MIN_BATCHES, EXPORT_RESAMPLES), (3, 5, 2_000));
    assert_eq!(
        (
            firsttoken_core::statistics::bootstrap::report_resamples(1_000),
            firsttoken_core::statistics::bootstrap::report_resamples(1_001),
            firsttoken_core::statistics::bootstrap::report_resamples(100_000),
        ),
        (2_000, 1_998, 400)
    );
    // "its exact coverage at n = 75 is P(67 ≤ B ≤ 74) = 96.6 %".
    let coverage = binomial_cdf(74, 75, 0.95) - binomial_cdf(66, 75, 0.95);
    assert_eq!(rounded(coverage * 100.0, 1), 96.6);
}

/// docs/statistics.md, "Intervals that respect time", Few blocks.
#[test]
fn statistics_intervals_that_respect_time() {
    // "The method is named beside each interval in the results ("batch
    // means of consecutive requests, blocks of 28")" (methodology.md §11
    // quotes it too; zh: "按连续请求的批均值（每块 28 个）").
    let blocks = Resampling::Block { length: 28 };
    assert_eq!(
        resampling_text(Lang::En, blocks),
        "batch means of consecutive requests, blocks of 28"
    );
    assert_eq!(
        resampling_text(Lang::ZhCn, blocks),
        "按连续请求的批均值（每块 28 个）"
    );
    // "the samples span more than 1 hour (`BLOCK_AFTER_SPAN_MS`)".
    assert_eq!(BLOCK_AFTER_SPAN_MS, 3_600_000.0);
    // "moved away from the point estimate by t₀.₉₇₅,ₖ₋₁ / z₀.₉₇₅
    // (26 blocks: ×1.051; 10 blocks: ×1.15)".
    assert_eq!(rounded(student_t_975(26 - 1) / Z, 3), 1.051);
    assert_eq!(rounded(student_t_975(10 - 1) / Z, 2), 1.15);
}

/// docs/statistics.md, "Cold-start tail".
#[test]
fn statistics_cold_start_tail() {
    // "on a cluster with no spread a request must still be about
    // e^(4 · 0.05) ≈ 1.22× the median to count": a pair just above 1.22×
    // a spread-free body is a tail, a pair just below is not.
    assert_eq!(rounded((MIN_TAIL_Z * MIN_SPREAD).exp(), 2), 1.22);
    // The rule's numbers: "between 2 requests and 25 %", "floored at
    // 0.05", "4 · s", "1 · s wide, or 3 · s when the tail is a pair",
    // "1.5× the widest spacing", "Fewer than 20 samples: no tail".
    assert_eq!(
        (MIN_TAIL_COUNT, MAX_TAIL_SHARE, MIN_SPREAD),
        (2, 0.25, 0.05)
    );
    assert_eq!(
        (MIN_TAIL_Z, MIN_GAP_SPREADS, MIN_PAIR_GAP_SPREADS),
        (4.0, 1.0, 3.0)
    );
    assert_eq!((MIN_GAP_OVER_TAIL_SPACING, MIN_SAMPLES_FOR_TAIL), (1.5, 20));
    let with_pair_at = |ms: f64| {
        let mut values = vec![1_000.0; 73];
        values.extend([ms, ms]);
        detect_cold_tail(&values)
    };
    assert!(with_pair_at(1_225.0).is_some());
    assert!(with_pair_at(1_218.0).is_none());
    // "`one_in` = round(of / count) ("about 1 in N")": 4 of 75 is 1 in 19.
    let mut values: Vec<f64> = (0..71).map(|i| 400.0 + i as f64).collect();
    values.extend([5_000.0, 5_800.0, 6_200.0, 7_000.0]);
    let tail = detect_cold_tail(&values).unwrap();
    assert_eq!((tail.count, tail.of, tail.one_in), (4, 75, 19));
}

/// docs/statistics.md, "The tail band and the monotone verdict".
#[test]
fn statistics_tail_band() {
    // The verdict table (section "Verdict and caveats"): < 40 solid, 40 to
    // < 100 some variance, 100 to 300 inclusive cold starts, > 300 not
    // ready; no verdict below 20, caveats above 5 % errors and below 75.
    assert_eq!(Verdict::from_cv_pct(39.9), Verdict::Solid);
    assert_eq!(Verdict::from_cv_pct(40.0), Verdict::SomeVariance);
    assert_eq!(Verdict::from_cv_pct(100.0), Verdict::ColdStarts);
    assert_eq!(Verdict::from_cv_pct(300.0), Verdict::ColdStarts);
    assert_eq!(Verdict::from_cv_pct(300.1), Verdict::NotReady);
    assert_eq!(
        (VERDICT_MIN_SAMPLES, MIN_SAMPLES, ERROR_RATE_THRESHOLD),
        (20, 75, 0.05)
    );
    // "it is capped at √n × 100 % (866 % at n = 75)".
    assert_eq!(cv_cap_pct(75).round(), 866.0);
    // "with 0.4 s warm requests and 40 s cold starts, 1 in 100 reads 497 %
    // ("not ready") and 20 in 100 reads 191 % ("cold starts")".
    let rare = cold_starts_of_40_s(100, 1);
    let frequent = cold_starts_of_40_s(100, 20);
    assert_eq!(cv(&rare).round(), 497.0);
    assert_eq!(cv(&frequent).round(), 191.0);
    assert_eq!(Verdict::from_cv_pct(cv(&rare)), Verdict::NotReady);
    assert_eq!(Verdict::from_cv_pct(cv(&frequent)), Verdict::ColdStarts);
    // "75 requests at a 400 ms median with 3 cold starts of about 18 s
    // read CV 313 % ("not ready"); turn one more 262 ms request into an
    // 18 s cold start and the CV is 295 % ("cold starts")": the run of
    // `a_fourth_cold_start_keeps_not_ready` in crates/core/src/judgement/report.rs.
    let mut run: Vec<f64> = (0..72)
        .map(|i| 400.0 * (0.2 * 0.551 * ((i as f64 + 0.5) / (72.0 - i as f64 - 0.5)).ln()).exp())
        .collect();
    // (the 72 warm requests' median is 400 ms)
    assert_eq!(percentile(&run, 50.0).unwrap().round(), 400.0);
    run.extend([17_500.0, 18_000.0, 18_600.0]);
    assert_eq!(cv(&run).round(), 313.0);
    assert_eq!(Verdict::from_cv_pct(cv(&run)), Verdict::NotReady);
    let warm = run
        .iter()
        .position(|ms| (250.0..300.0).contains(ms))
        .unwrap();
    assert_eq!(run[warm].round(), 262.0);
    run[warm] = 18_000.0;
    firsttoken_core::base::order::sort_numbers(&mut run);
    assert_eq!(cv(&run).round(), 295.0);
    assert_eq!(Verdict::from_cv_pct(cv(&run)), Verdict::ColdStarts);
    // (and the verdict, the worse of the two bands, stays "not ready")
    assert_eq!(verdict(&run, 0), Verdict::NotReady);

    // "with 4 slow of 75 it is the 34th value instead of the warm
    // cluster's median (the 36th)".
    let mut values: Vec<f64> = (1..=71).map(|i| 400.0 + i as f64).collect();
    values.extend([5_000.0, 5_500.0, 6_000.0, 7_000.0]);
    assert_eq!(warm_reference(&values, 0), Some((values[34 - 1], 4)));
    assert_eq!(percentile(&values[..71], 50.0), Some(values[36 - 1]));

    // "said as "4 of 75, 1 in 8 to 1 in 68" (`slow.share_ci`)".
    let (low, high) = clopper_pearson(4, 75, 0.95);
    assert_eq!((one_in(high), one_in(low)), (Some(8), Some(68)));

    // "4 of 75 requests slower than 1.24 s (3× the warm median), 1 in 8 to
    // 1 in 68; p95 is 14× the median; warm-only p95 446 ms."
    let slow = SlowShare {
        threshold_ms: 1_240.0,
        slow: 4,
        of: 75,
        share_ci: (low, high),
        magnitude: None,
        warm_cv_pct: None,
        warm_p95_ms: Some(446.0),
        envelope_cv_pct: 0.0,
    };
    assert_eq!(
        slow_sentence(Lang::En, &slow, Some(14.0)),
        "4 of 75 requests slower than 1.24 s (3× the warm median), 1 in 8 to 1 in 68; \
         p95 is 14× the median; warm-only p95 446 ms."
    );

    // "1 of 40 requests over 1.25 s (3× the warm median): a single slow
    // request, too few to measure a cold-start tail (how often, how
    // long)": 39 requests at 417 ms and one at 5 s read "cold starts" (CV
    // 136 %) with no tail.
    let mut samples = synthetic_samples(1, 40, 0, 1);
    for (i, sample) in samples.iter_mut().enumerate() {
        sample.error = None;
        sample.ttft_ms = Some(if i == 17 { 5_000.0 } else { 1_250.0 / 3.0 });
        sample.total_ms = sample.ttft_ms.map(|ms| ms + 600.0);
    }
    let plan = Plan {
        targets: vec![target("A")],
        requests_per_target: 40,
        ..Plan::default()
    };
    let report = build_report(&plan, &samples, 0, 1);
    let one_slow = &report.targets[0];
    assert_eq!(one_slow.ttft.unwrap().cv_pct.round(), 136.0);
    assert_eq!(one_slow.verdict, Some(Verdict::ColdStarts));
    assert_eq!(
        target_tail_sentence(Lang::En, one_slow),
        "1 of 40 requests over 1.25 s (3× the warm median): a single slow request, too few to \
         measure a cold-start tail (how often, how long)"
    );

    // "(At 1 %, 45 % of runs of 75 simply saw no cold start: 0.99⁷⁵ = 47 %.)"
    assert_eq!((binomial_cdf(0, 75, 0.01) * 100.0).round(), 47.0);

    // Caveats: "3 requests saw no first token within the 120 s timeout:
    // they count as at least 120 s, so mean, stddev and CV are lower bounds
    // (≥)", and "with 75 requests the CV cannot exceed 866 %: it sits near
    // that cap and cannot show how much worse the tail is — read the slow
    // share and p95".
    let censored = Caveat::Censored {
        count: 3,
        timeout_ms: 120_000.0,
    };
    assert_eq!(
        censored.text(Lang::En),
        "3 requests saw no first token within the 120 s timeout: they count as at least \
         120 s, so mean, stddev and CV are lower bounds (≥)"
    );
    let at_cap = Caveat::CvAtCap {
        n: 75,
        cap_pct: cv_cap_pct(75),
    };
    assert_eq!(
        at_cap.text(Lang::En),
        "with 75 requests the CV cannot exceed 866 %: it sits near that cap and cannot \
         show how much worse the tail is — read the slow share and p95"
    );
}

/// docs/statistics.md, "Comparison and routing".
#[test]
fn statistics_comparison_and_routing() {
    // "(below 72 requests a p95 interval has no upper end, …)"
    assert_eq!(order_statistic_ranks(71, 0.95).1, None);
    // "Consistency ratio: highest CV / lowest CV …, shown as a whole
    // number from 10× up ("34×"), one decimal below": CV 710 % over 21 %.
    let ratio = |ratio: f64| {
        Consistency {
            ratio,
            most_consistent: 0,
            least_consistent: 1,
        }
        .ratio_text()
    };
    assert_eq!(ratio(710.0 / 21.0), "34×");
    assert_eq!(ratio(2.5), "2.5×");
}

/// docs/statistics.md, "Time of day".
#[test]
fn statistics_time_of_day() {
    // "Below 72 ranked requests (`MIN_FOR_P95_BOUND`: 1 − 0.95ⁿ ≥ 0.975
    // only from n = 72)".
    assert!(1.0 - 0.95_f64.powi(71) < 0.975);
    assert!(1.0 - 0.95_f64.powi(72) >= 0.975);
    assert_eq!(MIN_FOR_P95_BOUND, 72);
    assert_eq!(order_statistic_ranks(MIN_FOR_P95_BOUND, 0.95).1, Some(72));
    // "With 0 of 40 slow off peak, 6 of 80 at peak is no difference
    // (p = 0.177); 9 of 80 is the fewest that is (p = 0.028)."
    assert_eq!(rounded(fisher_exact(6, 80, 0, 40), 3), 0.177);
    assert_eq!(rounded(fisher_exact(9, 80, 0, 40), 3), 0.028);
    assert!(fisher_exact(8, 80, 0, 40) >= 0.05);
    // "peak hours are slower: 9 of 80 requests slow at peak against 0 of 40
    // off peak (Fisher's exact test, p = 0.028)"
    let comparison = PeriodComparison {
        peak: (9, 80),
        off_peak: (0, 40),
        p_value: fisher_exact(9, 80, 0, 40),
    };
    assert_eq!(
        period_sentence(Lang::En, &comparison),
        "peak hours are slower: 9 of 80 requests slow at peak against 0 of 40 off peak \
         (Fisher's exact test, p = 0.028)"
    );
}

/// docs/statistics.md, "Settings to deploy".
#[test]
fn statistics_settings_to_deploy() {
    // "the quantile is the p99, or the p99.9 from 2 995 requests on";
    // "below 299 requests (1 − 0.99ⁿ < 0.95) no order statistic bounds the
    // p99 from above".
    assert_eq!(requests_needed(0.99), 299);
    assert_eq!(requests_needed(0.999), 2_995);
    let ranked = |n: usize| -> Vec<f64> { (0..n).map(|i| 400.0 + i as f64).collect() };
    // "the p95 from 59 requests, the p90 from 29"; below 299 the advice
    // gives the highest of them the requests bound.
    assert_eq!((requests_needed(0.95), requests_needed(0.90)), (59, 29));
    for (n, quantile) in [
        (298, Some(0.95)),
        (59, Some(0.95)),
        (58, Some(0.90)),
        (28, None),
    ] {
        let TimeoutAdvice::NeedsRequests {
            needed: 299,
            have,
            lower,
        } = recommended_timeout(&ranked(n), 0, 120_000.0)
        else {
            panic!("{n} requests do not bound the p99");
        };
        assert_eq!((have, lower.map(|l| l.quantile)), (n, quantile), "{n}");
    }
    assert!(matches!(
        recommended_timeout(&ranked(299), 0, 120_000.0),
        TimeoutAdvice::Recommended { quantile, .. } if quantile == 0.99
    ));
    assert!(matches!(
        recommended_timeout(&ranked(2_995), 0, 120_000.0),
        TimeoutAdvice::Recommended { quantile, .. } if quantile == 0.999
    ));
    // "97 % within 1 s (92–99 %), 97 of 100 requests".
    let goodput = Goodput {
        budget_ms: 1_000.0,
        within: 97,
        of: 100,
        interval: wilson(97, 100),
    };
    assert_eq!(
        goodput_sentence(Lang::En, &goodput),
        "97 % within 1 s (92–99 %), 97 of 100 requests"
    );
}

/// docs/statistics.md, "Fidelity".
#[test]
fn statistics_fidelity() {
    // "`planned` | probes in the suite × `repeats` (60 for `basic-1` × 2)".
    assert_eq!(FidelityPlan::basic(None).requests_per_target(), 60);
    // "Differs against A: 42 of 60 (70 %, 57–80 %) probe replies pass".
    let (low, high) = wilson(42, 60);
    let pass = PassRate {
        passed: 42,
        replies: 60,
        low,
        high,
    };
    assert_eq!(pass_rate_text(Lang::En, &pass), "42 of 60 (70 %, 57–80 %)");
}

/// docs/methodology.md (and methodology.zh-CN.md), §2 "At least 75
/// requests per target".
#[test]
fn methodology_at_least_75_requests() {
    // "the chance that none of them lands in a 1-in-20 tail is 0.95ⁿ":
    // 10 → 60 %, 20 → 36 %, 50 → 8 %, 75 → 2 %, 100 → 0.6 %.
    let none = |n: usize| binomial_cdf(0, n, 0.05) * 100.0;
    assert_eq!(none(10).round(), 60.0);
    assert_eq!(none(20).round(), 36.0);
    assert_eq!(none(50).round(), 8.0);
    assert_eq!(none(75).round(), 2.0);
    assert_eq!(rounded(none(100), 1), 0.6);
    // "At 75 requests the p95 also has about four requests above it":
    // it lies between ranks 70 and 71 (from 0), with ranks 71–74 above.
    let values: Vec<f64> = (0..75).map(f64::from).collect();
    let p95 = percentile(&values, 95.0).unwrap();
    assert_eq!(values.iter().filter(|&&ms| ms > p95).count(), 4);
}

/// docs/methodology.md (and methodology.zh-CN.md), §8 "The verdict".
#[test]
fn methodology_the_verdict() {
    // "At 20 samples the p95 is interpolated between the two slowest
    // requests".
    let values: Vec<f64> = (0..20).map(f64::from).collect();
    let p95 = percentile(&values, 95.0).unwrap();
    assert!(p95 > values[18] && p95 < values[19]);
    // "a tail of about 1 in 10 has appeared at least twice in about 6 runs
    // out of 10 (at least once in 88 %)".
    assert_eq!(((1.0 - binomial_cdf(1, 20, 0.1)) * 10.0).round(), 6.0);
    assert_eq!(((1.0 - binomial_cdf(0, 20, 0.1)) * 100.0).round(), 88.0);

    // "75 requests at 0.4 s and one cold start that outlasts a 120 s
    // timeout read "solid" with the timeout left out, and a CV of at least
    // 695 % ("not ready") with it counted."
    let warm = vec![400.0; 75];
    assert_eq!(verdict(&warm, 0), Verdict::Solid);
    let mut counted = warm.clone();
    counted.push(120_000.0);
    assert_eq!(cv(&counted).round(), 695.0);
    assert_eq!(verdict(&counted, 1), Verdict::NotReady);
    // "the p95 of 75 requests survives up to 3 timeouts"
    assert!(!percentile_reaches_censored(75, 3, 95.0));
    assert!(percentile_reaches_censored(75, 4, 95.0));

    // "it cannot exceed √n × 100 % (866 % for 75 requests)".
    assert_eq!(cv_cap_pct(75).round(), 866.0);
    // "with 0.4 s warm requests and 40 s cold starts, 1 in 100 gives a CV
    // near 500 % and 1 in 5 a CV near 190 %".
    assert_eq!(to_tens(cv(&cold_starts_of_40_s(100, 1))), 500.0);
    assert_eq!(to_tens(cv(&cold_starts_of_40_s(100, 20))), 190.0);
    assert_eq!(to_tens(cv(&cold_starts_of_40_s(200, 40))), 190.0);
    // ""4 of 75, 1 in 8 to 1 in 68"" (zh: "75 个中 4 个，约每 8 到 68 个中 1 个").
    let (low, high) = clopper_pearson(4, 75, 0.95);
    assert_eq!((one_in(high), one_in(low)), (Some(8), Some(68)));
}

/// docs/methodology.md (and methodology.zh-CN.md), §9 "The cold-start tail".
#[test]
fn methodology_the_cold_start_tail() {
    // "4 of 75 requests, about 1 in 19, took 5 s–7 s (median 6 s); without
    // them the median is 430 ms and the p95 560 ms"
    let tail = cold_tail([5_000.0, 6_000.0, 7_000.0], 430.0, 560.0);
    assert_eq!(
        tail_sentence(Lang::En, Some(&tail), true),
        "4 of 75 requests, about 1 in 19, took 5 s–7 s (median 6 s); without them the \
         median is 430 ms and the p95 560 ms."
    );
    assert_eq!(
        tail_sentence(Lang::ZhCn, Some(&tail), true),
        "75 个请求中有 4 个（约每 19 个中 1 个）用时 5 秒–7 秒（中位数 6 秒）；\
         去掉它们后中位数为 430 毫秒，p95 为 560 毫秒。"
    );
}

/// docs/methodology.md (and methodology.zh-CN.md), §12 "The routing rule".
#[test]
fn methodology_the_routing_rule() {
    // "It reads as "A is 34× more consistent than B"" (CV 710 % over 21 %).
    let consistency = Consistency {
        ratio: 710.0 / 21.0,
        most_consistent: 0,
        least_consistent: 1,
    };
    assert_eq!(
        consistency.text("A", "B", Lang::En),
        "A is 34× more consistent than B"
    );
    assert_eq!(
        consistency.text("A", "B", Lang::ZhCn),
        "A 的稳定性是 B 的 34×"
    );

    // "Routing table: one row per model naming the target to use and why,
    // for example "fewest slow requests (0 of 75 over 1.26 s), then lowest
    // p95 (570 ms), of 3 providers with error rate under 5 %; CV 21 %,
    // solid"" (zh: "在 3 个错误率低于 5 % 的服务商中慢请求最少（75 个中 0 个
    // 超过 1.26 秒），其次 p95 最低（570 毫秒）；CV 21 %，稳定"): three
    // providers of one model at a pooled median of 420 ms, the best with
    // no slow request, the others with 10 of 75 each.
    let figures = |index: u32, slow: usize, p95_ms: f64, cv_pct: f64| {
        let mut ttft_sorted_ms = vec![420.0; 75 - slow];
        ttft_sorted_ms.extend(std::iter::repeat_n(5_000.0, slow));
        TargetFigures {
            target: index,
            label: format!("T{index}"),
            model: "m".to_owned(),
            n: 75,
            median_ms: 420.0,
            p95_ms,
            cv_pct,
            error_rate: 0.0,
            judgement: Judgement::Final(Verdict::from_cv_pct(cv_pct)),
            ttft_sorted_ms,
            censored: 0,
            p95_interval: None,
            median_interval: None,
            typical: None,
        }
    };
    let comparisons = compare_models(&[
        figures(0, 10, 5_000.0, 240.0),
        figures(1, 0, 570.0, 21.0),
        figures(2, 10, 5_000.0, 250.0),
    ]);
    let reason = |lang: Lang| routing_table(&comparisons, lang).routes[0].reason.clone();
    assert_eq!(
        reason(Lang::En),
        "fewest slow requests (0 of 75 over 1.26 s), then lowest p95 (570 ms), of 3 \
         providers with error rate under 5 %; CV 21 %, solid"
    );
    assert_eq!(
        reason(Lang::ZhCn),
        "在 3 个错误率低于 5 % 的服务商中慢请求最少（75 个中 0 个超过 1.26 秒），\
         其次 p95 最低（570 毫秒）；CV 21 %，稳定"
    );
}

/// docs/methodology.md (and methodology.zh-CN.md), §13 "Fidelity".
#[test]
fn methodology_fidelity() {
    // "A default plan with the check (100 measured requests and 2 warm-ups
    // per target) sends 60 probes per target: 162 requests per target."
    let plan = Plan {
        targets: vec![target("A")],
        fidelity: Some(FidelityPlan::basic(None)),
        ..Plan::default()
    };
    assert_eq!((plan.requests_per_target, plan.warmup_per_target), (100, 2));
    assert_eq!(FidelityPlan::basic(None).requests_per_target(), 60);
    assert_eq!(plan.total_requests(), 162);
    // "`basic-1` has 30" probes; "each adds 30 replies per target".
    assert_eq!(FidelityPlan::basic(None).suite.probes().len(), 30);
}

/// docs/worked-example.md.
#[test]
fn worked_example() {
    // "The total is 154 = (75 + 2 warm-ups) × 2 targets."
    let plan = Plan {
        targets: vec![target("Demo A"), target("Demo B")],
        requests_per_target: 75,
        warmup_per_target: 2,
        ..Plan::default()
    };
    assert_eq!(plan.total_requests(), 154);
    // "With 75 samples, the p95 lies 30 % of the way from the 71st-fastest
    // request to the 72nd."
    let values: Vec<f64> = (0..75).map(|i| f64::from(i) * 10.0).collect();
    let p95 = percentile(&values, 95.0).unwrap();
    assert_eq!(
        rounded((p95 - values[70]) / (values[71] - values[70]), 2),
        0.3
    );
    // "With 3 or fewer cold starts, both are warm and the p95 looks
    // ordinary. With exactly 4, it falls in the empty gap between the fast
    // cluster and the 5–7 s group, at a time no request actually took.
    // With 5 or more, it lies among the cold starts."
    let p95_with = |cold: usize| {
        let mut values = vec![560.0; 75 - cold];
        values.extend(std::iter::repeat_n(6_000.0, cold));
        percentile(&values, 95.0).unwrap()
    };
    assert_eq!(p95_with(3), 560.0);
    assert!(p95_with(4) > 560.0 && p95_with(4) < 5_000.0);
    assert_eq!(p95_with(5), 6_000.0);
    // "p99 TTFT | Demo B's in the 5–7 s range once it has at least 2 cold
    // starts": the p99 of 75 reads the two slowest requests.
    let p99_with = |cold: usize| {
        let mut values = vec![560.0; 75 - cold];
        values.extend(std::iter::repeat_n(6_000.0, cold));
        percentile(&values, 99.0).unwrap()
    };
    assert!(p99_with(1) < 5_000.0);
    assert_eq!(p99_with(2), 6_000.0);
    // "In the rare run with none (the chance is 0.95⁷⁵ ≈ 2 %)".
    assert_eq!((binomial_cdf(0, 75, 0.05) * 100.0).round(), 2.0);
    // "4 of 75 requests, about 1 in 19, took 5.63 s–6.65 s (median 6.14 s);
    // without them the median is 560 ms and the p95 734 ms."
    let tail = cold_tail([5_630.0, 6_140.0, 6_650.0], 560.0, 734.0);
    assert_eq!(
        tail_sentence(Lang::En, Some(&tail), true),
        "4 of 75 requests, about 1 in 19, took 5.63 s–6.65 s (median 6.14 s); without them \
         the median is 560 ms and the p95 734 ms."
    );
}

/// docs/statistics.md, "The run's questions and when a target stops".
#[test]
fn statistics_the_runs_questions_and_when_a_target_stops() {
    use firsttoken_core::statistics::sequential::Decision;
    use firsttoken_core::testing::fixtures::sample;
    use firsttoken_core::wire::questions::{ALPHA, Questions};
    // "with `k` targets and `m` quantile objectives there are k(k−1)/2 + k·m
    // questions, each tested at 5 % divided by their number"
    let plan = |targets: usize, objective: &str| Plan {
        targets: (0..targets)
            .map(|i| Target::demo(&format!("t{i}"), "m"))
            .collect(),
        until_decided: true,
        objectives: vec![objective.to_owned(), "error_rate>2%".to_owned()],
        ..Plan::default()
    };
    let three = Questions::of(&plan(3, "p95>2s")).unwrap();
    assert_eq!(three.pairs.len() + three.objectives.len(), 3 + 3);
    assert_eq!(three.alpha_each(), ALPHA / 6.0);
    // "A median objective needs 9 requests, a p90 65, a p95 134 and a p99 687
    // when it is the run's only question (12, 81, 167 and 856 at a third of
    // 5 %, as with two targets and one objective); "misses it" needs 1 to 12
    // when every request is over."
    let needed = |targets: usize, objective: &str, ttft_ms: Option<f64>| {
        let mut questions = Questions::of(&plan(targets, objective)).unwrap();
        (1..=2_000)
            .find(|&seq| {
                questions.push(&sample(0, seq, 0.0, ttft_ms, false));
                let question = &questions.objectives[0];
                questions.objective_decision(question) != Decision::Open
            })
            .unwrap()
    };
    let objectives = ["median>1s", "p90>1s", "p95>1s", "p99>1s"];
    let met: Vec<u32> = objectives
        .iter()
        .map(|o| needed(1, o, Some(500.0)))
        .collect();
    assert_eq!(met, [9, 65, 134, 687]);
    let met_of_three: Vec<u32> = objectives
        .iter()
        .map(|o| needed(2, o, Some(500.0)))
        .collect();
    assert_eq!(met_of_three, [12, 81, 167, 856]);
    let missed: Vec<u32> = objectives
        .iter()
        .flat_map(|o| [needed(1, o, Some(1500.0)), needed(2, o, None)])
        .collect();
    assert_eq!(missed.iter().min(), Some(&1));
    assert_eq!(missed.iter().max(), Some(&12));
}
