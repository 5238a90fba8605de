//! The seeded simulation behind the verdict's error rates
//! (docs/statistics.md, "Fidelity"): a reference and a target answer the
//! `basic-1` suite twice; the target corrupts a share of its answers; how
//! often is it called "differs"?
//!
//! Each probe has a base pass rate, the model's own run-to-run noise: 0.99
//! for most, 0.85 for the six a model gets wrong now and then (letter and
//! vowel counts, reversals, the long-context probes). A corrupted answer is
//! wrong whatever the base draw. Print the figures with
//! `cargo test --lib fidelity_simulation -- --nocapture`.

use super::*;
use crate::planning::fidelity::reply::ToolCall;
use crate::planning::fidelity::suite::Probe;
use crate::planning::plan::{FidelityPlan, Target};
use crate::wire::sample::Sample;

/// Trials per corruption share.
const TRIALS: usize = 2_000;

fn base_pass_rate(probe: &Probe) -> f64 {
    match probe.category {
        Category::Counting | Category::Reverse | Category::LongContext
            if probe.id != "count-words" =>
        {
            0.85
        }
        _ => 0.99,
    }
}

fn plan() -> Plan {
    let target = |label: &str| Target::openai(label, "http://127.0.0.1:1", "m");
    Plan {
        targets: vec![target("reference"), target("target")],
        fidelity: Some(FidelityPlan::basic(Some("reference".to_owned()))),
        ..Plan::default()
    }
}

/// A reply to `probe` that passes or fails its rule.
pub(crate) fn reply_sample(target: u32, probe: &Probe, right: bool) -> Sample {
    let call = |arguments: &str| {
        probe.model_answer.split_once('(').map(|(name, _)| {
            vec![ToolCall {
                name: name.to_owned(),
                arguments: arguments.to_owned(),
            }]
        })
    };
    let (answer, tool_calls) = match (probe.expect, right) {
        (Expect::Call { .. }, true) => (
            String::new(),
            call(
                probe
                    .model_answer
                    .split_once('(')
                    .map_or("", |(_, rest)| rest.trim_end_matches(')')),
            ),
        ),
        (Expect::Call { .. }, false) => (
            String::new(),
            call(r#"{"city":"Nowhere","unit":"celsius","amount":0}"#),
        ),
        (_, true) => (probe.model_answer.to_owned(), None),
        (_, false) => ("I am not sure.".to_owned(), None),
    };
    Sample {
        planned_at_ms: 0.0,
        sent_at_ms: 0.0,
        headers_ms: Some(10.0),
        first_byte_ms: Some(11.0),
        ttft_ms: Some(20.0),
        second_token_ms: None,
        total_ms: Some(30.0),
        output_tokens: Some(4),
        http_status: Some(200),
        input_tokens: Some(40),
        probe: Some(probe.id.to_owned()),
        answer: Some(answer),
        tool_calls,
        finish_reason: Some("stop".to_owned()),
        ..Sample::measured(target, 0, 20.0)
    }
}

/// Shares of `TRIALS` trials in which a target corrupting `corrupt` of its
/// answers is called "differs", and "inconclusive".
fn verdict_shares(corrupt: f64, seed: u64) -> (f64, f64) {
    let plan = plan();
    let repeats = plan.fidelity.as_ref().map_or(1, |f| f.repeats);
    let mut rng = fastrand::Rng::with_seed(seed);
    let (mut differs, mut inconclusive) = (0, 0);
    for _ in 0..TRIALS {
        let mut samples = Vec::new();
        for _ in 0..repeats {
            for probe in Suite::Basic1.probes() {
                let base = base_pass_rate(probe);
                samples.push(reply_sample(0, probe, rng.f64() < base));
                let right = rng.f64() < base && rng.f64() >= corrupt;
                samples.push(reply_sample(1, probe, right));
            }
        }
        let fidelity =
            score(&plan, Sample::probe_answers(&samples)).unwrap_or_else(|| unreachable!());
        match fidelity.targets[1].verdict {
            FidelityVerdict::Differs => differs += 1,
            FidelityVerdict::Inconclusive => inconclusive += 1,
            _ => {}
        }
    }
    (
        differs as f64 / TRIALS as f64,
        inconclusive as f64 / TRIALS as f64,
    )
}

#[test]
fn fidelity_simulation_meets_its_bars() {
    println!(
        "fidelity: basic-1 ({} probes) x 2 repeats, {TRIALS} seeded trials per row",
        Suite::Basic1.probes().len()
    );
    println!("corrupted answers | \"differs\" | \"inconclusive\"");
    let mut shares = Vec::new();
    for (corrupt, seed) in [(0.0, 11), (0.1, 12), (0.2, 13), (0.3, 14)] {
        let (differs, inconclusive) = verdict_shares(corrupt, seed);
        println!(
            "{:>15.0} % | {:>8.1} % | {:>12.1} %",
            corrupt * 100.0,
            differs * 100.0,
            inconclusive * 100.0
        );
        shares.push(differs);
    }
    assert!(shares[0] <= 0.02, "a faithful target: {}", shares[0]);
    assert!(shares[3] >= 0.95, "30 % corrupted: {}", shares[3]);
    assert!(shares[1] <= shares[2] && shares[2] <= shares[3]);
}

#[test]
fn a_contract_break_differs_and_a_faithful_copy_is_consistent() {
    let plan = plan();
    let mut samples = Vec::new();
    for probe in Suite::Basic1.probes() {
        for _ in 0..2 {
            samples.push(reply_sample(0, probe, true));
            let mut copy = reply_sample(1, probe, true);
            copy.input_tokens = Some(52);
            samples.push(copy);
        }
    }
    let fidelity = score(&plan, Sample::probe_answers(&samples)).unwrap();
    assert_eq!(fidelity.targets[0].verdict, FidelityVerdict::Reference);
    let target = &fidelity.targets[1];
    assert_eq!(target.verdict, FidelityVerdict::Differs);
    assert_eq!(target.reasons, vec![FidelityReason::PromptTokens]);
    assert_eq!(target.prompt_tokens.unwrap().median_difference, 12);
    assert_eq!(target.pass.passed, 60);
    assert_eq!(target.differing, Some((0, 60)));
    let trigger = target.trigger.unwrap();
    assert_eq!(trigger.f1, Some(1.0));

    for sample in samples.iter_mut().filter(|s| s.target == 1) {
        sample.input_tokens = Some(40);
    }
    let fidelity = score(&plan, Sample::probe_answers(&samples)).unwrap();
    assert_eq!(fidelity.targets[1].verdict, FidelityVerdict::Consistent);
    assert!(fidelity.targets[1].reasons.is_empty());

    // A file's own `check` is never trusted: a wrong answer claiming a pass fails.
    let mut forged = samples.clone();
    for sample in forged.iter_mut().filter(|s| s.target == 1) {
        sample.answer = Some("I am not sure.".to_owned());
        sample.tool_calls = None;
        sample.check = Some(crate::planning::fidelity::verify::ProbeCheck {
            passed: true,
            failure: None,
            called: false,
            schema_valid: None,
            finish_reason: true,
            within_max_tokens: Some(true),
            reasoning_in_content: false,
        });
    }
    let fidelity = score(&plan, Sample::probe_answers(&forged)).unwrap();
    assert_eq!(fidelity.targets[1].pass.passed, 0);
    assert_eq!(fidelity.targets[1].verdict, FidelityVerdict::Differs);

    // Too few replies: inconclusive, whatever they said.
    let few: Vec<Sample> = samples.iter().take(20).cloned().collect();
    let fidelity = score(&plan, Sample::probe_answers(&few)).unwrap();
    assert_eq!(fidelity.targets[1].verdict, FidelityVerdict::Inconclusive);
}

/// The issue's run: the named reference failed every probe (a model that
/// answers something else), one target fails alike and one answers
/// right. The reference judges nobody then: no target reads "differs"
/// or "consistent" against it, each is read on the suite's own
/// expectations, and the report says which reference was set aside.
#[test]
fn a_reference_that_fails_the_suite_judges_nobody() {
    let mut plan = plan();
    plan.targets
        .push(Target::openai("right", "http://127.0.0.1:1", "m"));
    let mut samples = Vec::new();
    for probe in Suite::Basic1.probes() {
        for _ in 0..2 {
            let mut wrong = reply_sample(0, probe, false);
            wrong.input_tokens = Some(90);
            samples.push(wrong);
            samples.push(reply_sample(1, probe, false));
            samples.push(reply_sample(2, probe, true));
        }
    }
    let fidelity = score(&plan, Sample::probe_answers(&samples)).unwrap();
    assert_eq!(
        (fidelity.reference, fidelity.rejected_reference),
        (None, Some(0))
    );
    assert!(
        fidelity
            .targets
            .iter()
            .all(|t| t.verdict == FidelityVerdict::NoReference && t.reasons.is_empty()),
        "{:?}",
        fidelity
            .targets
            .iter()
            .map(|t| t.verdict)
            .collect::<Vec<_>>()
    );
    assert_eq!(fidelity.targets[2].pass.passed, 60);
    assert_eq!(fidelity.targets[0].pass.passed, 0);
}
