//! What a run costs, at prices the user states.
//!
//! Prices change, so no preset carries any: a target's optional `price`
//! says what its provider charges per million input, output and
//! cached-input tokens, in US dollars. Costs come from the providers' own
//! usage counts (`input_tokens`, `output_tokens`, `cached_tokens` on each
//! sample). When a count is missing it is estimated (input: the prompt's
//! characters / 4, rounded up; output: the counted deltas) and the figure
//! says so.
//!
//! - A request is charged when the provider answered it with a 2xx status;
//!   a refused request (429, 5xx) or one that never reached the provider
//!   costs nothing.
//! - **Run cost**: every charged request, warm-ups included (they are paid
//!   for).
//! - **Cost per successful request**: the cost of the measured requests
//!   (warm-ups left out) divided by the measured requests that succeeded:
//!   what one useful answer costs, failures' tokens included.
//! - **Before a run**: requests × (estimated prompt tokens × input price +
//!   `max_tokens` × output price). Output at `max_tokens` is an upper
//!   bound, so the estimate says "at most".

use crate::planning::plan::Plan;
use crate::wire::sample::Sample;

pub use crate::base::price::{MAX_PRICE_PER_MTOK, Price, estimate_prompt_tokens};

/// One target's cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CostFigures {
    /// The whole run's cost for this target, warm-ups included, US dollars.
    pub run_usd: f64,
    /// Measured requests' cost / measured successes; `None` without a
    /// success.
    pub per_success_usd: Option<f64>,
    /// Charged requests (a 2xx answer), warm-ups included.
    pub charged: usize,
    /// Measured requests that succeeded.
    pub successes: usize,
    /// Some count was estimated, not the provider's.
    pub estimated: bool,
}

/// The cost of one target's `samples` at `price`; `prompt` is the plan's,
/// for estimating a missing input count.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn cost_figures<'a>(
    samples: impl IntoIterator<Item = &'a Sample>,
    price: &Price,
    prompt: &str,
) -> CostFigures {
    let prompt_estimate = estimate_prompt_tokens(prompt);
    let (mut run, mut measured, mut charged, mut successes) = (0.0, 0.0, 0, 0);
    let mut estimated = false;
    for sample in samples {
        if !sample.warmup && sample.error.is_none() {
            successes += 1;
        }
        let answered = match sample.http_status {
            Some(status) => (200..300).contains(&status),
            // Older files: a request that reached its headers without an
            // HTTP error was answered.
            None => {
                sample.headers_ms.is_some()
                    && !sample
                        .error
                        .as_ref()
                        .is_some_and(|e| e.kind == crate::wire::sample::ErrorKind::HttpStatus)
            }
        };
        if !answered {
            continue;
        }
        charged += 1;
        let input = sample.input_tokens.unwrap_or_else(|| {
            estimated = true;
            prompt_estimate
        });
        let output = sample.output_tokens.unwrap_or(0);
        estimated |= sample.tokens_estimated;
        let cost = price.cost_usd(input, sample.cached_tokens.unwrap_or(0), output);
        run += cost;
        if !sample.warmup {
            measured += cost;
        }
    }
    CostFigures {
        run_usd: run,
        per_success_usd: (successes > 0).then(|| measured / successes as f64),
        charged,
        successes,
        estimated,
    }
}

/// What a plan will cost before it runs, at the prices it carries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanCost {
    /// At most this much, US dollars (every reply at `max_tokens`).
    pub at_most_usd: f64,
    /// Requests of the priced targets, warm-ups included.
    pub requests: u64,
    /// Targets without a price (left out of the sum).
    pub unpriced_targets: usize,
}

/// The cost of running `plan`, `None` when no target has a price.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn plan_cost(plan: &Plan) -> Option<PlanCost> {
    let per_target = u64::from(plan.requests_per_target) + u64::from(plan.warmup_per_target);
    let input = estimate_prompt_tokens(&plan.prompt);
    // The fidelity probes: each its own prompt and limit, sent `repeats` times.
    // (repeats, prompt tokens, max_tokens), one per probe.
    let probes: Vec<(u64, u32, u32)> = plan
        .fidelity
        .iter()
        .flat_map(|fidelity| {
            fidelity.suite.probes().iter().map(move |probe| {
                (
                    u64::from(fidelity.repeats),
                    estimate_prompt_tokens(&probe.prompt()),
                    probe.max_tokens,
                )
            })
        })
        .collect();
    let mut total = 0.0;
    let (mut requests, mut unpriced) = (0, 0);
    for target in &plan.targets {
        match &target.price {
            Some(price) => {
                requests += per_target;
                total += match plan.input_tokens_per_target() {
                    // Prompt sizes: the long prompts' input tokens, summed.
                    Some(tokens) => {
                        (tokens as f64 * price.input_per_mtok
                            + per_target as f64
                                * f64::from(plan.max_tokens)
                                * price.output_per_mtok)
                            / 1e6
                    }
                    None => per_target as f64 * price.cost_usd(input, 0, plan.max_tokens),
                };
                for &(repeats, input, limit) in &probes {
                    requests += repeats;
                    total += repeats as f64 * price.cost_usd(input, 0, limit);
                }
            }
            None => unpriced += 1,
        }
    }
    (requests > 0).then_some(PlanCost {
        at_most_usd: total,
        requests,
        unpriced_targets: unpriced,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::fixtures::plain_samples;
    use crate::wire::sample::{ErrorKind, Phase, SampleError};

    const PRICE: Price = Price {
        input_per_mtok: 1.0,
        output_per_mtok: 4.0,
        cached_input_per_mtok: Some(0.25),
    };

    #[test]
    fn a_request_costs_its_uncached_cached_and_output_tokens() {
        let usd = PRICE.cost_usd(1_000, 600, 500);
        assert!((usd - (400.0 * 1.0 + 600.0 * 0.25 + 500.0 * 4.0) / 1e6).abs() < 1e-15);
        let uncached_price = Price {
            cached_input_per_mtok: None,
            ..PRICE
        };
        assert!((uncached_price.cost_usd(1_000, 600, 0) - 0.001).abs() < 1e-15);
        assert!(PRICE.problems().is_empty());
        let bad = Price {
            input_per_mtok: -1.0,
            output_per_mtok: f64::NAN,
            cached_input_per_mtok: Some(1e9),
        };
        assert_eq!(bad.problems().len(), 3);
    }

    #[test]
    fn run_cost_counts_warmups_and_per_success_divides_measured_cost() {
        let mut samples = plain_samples(4);
        for s in &mut samples {
            s.http_status = Some(200);
            s.input_tokens = Some(100);
            s.output_tokens = Some(50);
            s.tokens_estimated = false;
        }
        samples[0].warmup = true;
        samples[3].http_status = Some(429);
        samples[3].error = Some(SampleError {
            kind: ErrorKind::HttpStatus,
            phase: Phase::Request,
            message: "429".to_owned(),
        });
        let figures = cost_figures(&samples, &PRICE, "prompt");
        let one = PRICE.cost_usd(100, 0, 50);
        assert_eq!(figures.charged, 3);
        assert_eq!(figures.successes, 2);
        assert!((figures.run_usd - 3.0 * one).abs() < 1e-15);
        assert!((figures.per_success_usd.unwrap() - one).abs() < 1e-15);
        assert!(!figures.estimated);

        samples[1].input_tokens = None;
        assert!(cost_figures(&samples, &PRICE, "prompt").estimated);
    }

    #[test]
    fn a_plan_costs_at_most_its_max_tokens() {
        let mut plan = Plan::default();
        plan.targets.push(crate::planning::plan::Target::openai(
            "a",
            "https://api.example.com/v1",
            "m",
        ));
        assert_eq!(plan_cost(&plan), None);
        plan.targets[0].price = Some(PRICE);
        let cost = plan_cost(&plan).unwrap();
        let per = u64::from(plan.requests_per_target + plan.warmup_per_target);
        assert_eq!(cost.requests, per);
        let one = PRICE.cost_usd(estimate_prompt_tokens(&plan.prompt), 0, plan.max_tokens);
        assert!((cost.at_most_usd - per as f64 * one).abs() < 1e-12);
        assert_eq!(estimate_prompt_tokens("abcde"), 2);

        // The fidelity check adds each probe, `repeats` times, at its own
        // prompt and limit.
        plan.fidelity = Some(crate::planning::plan::FidelityPlan::basic(None));
        let checked = plan_cost(&plan).unwrap();
        assert_eq!(checked.requests, per + 60);
        let probes: f64 = crate::planning::fidelity::suite::Suite::Basic1
            .probes()
            .iter()
            .map(|p| 2.0 * PRICE.cost_usd(estimate_prompt_tokens(&p.prompt()), 0, p.max_tokens))
            .sum();
        assert!((checked.at_most_usd - cost.at_most_usd - probes).abs() < 1e-12);
    }
}
