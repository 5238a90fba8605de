//! Test fixtures shared by every crate's tests: targets, samples and results
//! files, written as the page writes them. Built for this crate's tests and,
//! with the `fixtures` feature, for the tests of the crates that depend on it
//! (the chart, the page, the runner, the mock); never part of a release.

use crate::plan::{Plan, Protocol, Target};
use crate::results::{Environment, export_json};
use crate::sample::{ErrorKind, Phase, Sample, SampleError};

/// A target of the OpenAI protocol.
pub fn target(label: &str, base_url: &str, model: &str) -> Target {
    Target {
        label: label.into(),
        protocol: Protocol::OpenAi,
        base_url: base_url.into(),
        model: model.into(),
        provider: None,
        price: None,
        openrouter_provider: None,
    }
}

/// A sample sent at `at_ms`; `ttft_ms` `None` makes it an error.
pub fn sample(target: u32, seq: u32, at_ms: f64, ttft_ms: Option<f64>, warmup: bool) -> Sample {
    Sample {
        sized_prompt: None,
        target,
        seq,
        warmup,
        planned_at_ms: at_ms,
        sent_at_ms: at_ms,
        hidden: false,
        headers_ms: Some(10.0),
        first_byte_ms: ttft_ms,
        first_reasoning_ms: None,
        ttft_ms,
        second_token_ms: None,
        total_ms: ttft_ms.map(|t| t + 100.0),
        output_tokens: Some(5),
        tokens_estimated: false,
        cached_tokens: None,
        error: ttft_ms.is_none().then(|| SampleError {
            kind: ErrorKind::HttpStatus,
            phase: Phase::Request,
            message: "the provider answered HTTP 503".into(),
        }),
        connection: None,
        http_status: None,
        input_tokens: None,
        rate_limit: None,
        stream: None,
        probe: None,
        answer: None,
        tool_calls: None,
        finish_reason: None,
        check: None,
    }
}

/// A results file of `targets` and `samples`, as exported.
pub fn results_file(targets: Vec<Target>, samples: &[Sample]) -> String {
    let plan = Plan {
        targets,
        ..Plan::default()
    };
    let environment = Environment {
        started_at_ms: samples.first().map_or(0.0, |s| s.sent_at_ms),
        time_zone: "UTC".into(),
        ..Environment::default()
    };
    export_json(&plan, &environment, samples)
}
