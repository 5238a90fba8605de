//! Test fixtures shared by every crate's tests: targets, samples and results
//! files, written as the page writes them. Built for this crate's tests and,
//! with the `fixtures` feature, for the tests of the crates that depend on it
//! (the chart, the page, the runner, the mock); never part of a release.
//!
//! `Sample` and `Target` have many members and gain more: a test that
//! typed them out in full would change with every new one. Tests start
//! from a builder here and name only what they care about, with struct
//! update syntax:
//!
//! ```
//! # use firsttoken_core::planning::plan::Target;
//! # use firsttoken_core::wire::sample::{ErrorKind, Sample};
//! let target = Target {
//!     provider: Some("deepseek".to_owned()),
//!     ..Target::openai("DeepSeek", "https://api.deepseek.com", "deepseek-chat")
//! };
//! let warmup = Sample {
//!     warmup: true,
//!     ..Sample::measured(0, 0, 420.0)
//! };
//! let timeout = Sample::failed(0, 1, ErrorKind::Timeout);
//! # let _ = (target, warmup, timeout);
//! ```

use crate::documents::results::{Environment, RunnerKind, export_json};
use crate::judgement::cost::Price;
use crate::planning::plan::{Plan, Protocol, Target};
use crate::planning::schedule::PlannedRequest;
use crate::wire::sample::{ErrorKind, Phase, Sample, SampleError};

/// When [`Sample::measured`]'s first request was planned and sent:
/// 2024-06-01T00:00:00Z, in Unix epoch ms.
pub const START_MS: f64 = 1_717_200_000_000.0;

/// Milliseconds between one `seq` and the next in [`Sample::measured`].
pub const SPACING_MS: f64 = 5_000.0;

impl Target {
    /// A target of the OpenAI protocol, with no preset, price or
    /// OpenRouter provider.
    pub fn openai(label: &str, base_url: &str, model: &str) -> Self {
        Self {
            label: label.to_owned(),
            protocol: Protocol::OpenAi,
            base_url: base_url.to_owned(),
            model: model.to_owned(),
            provider: None,
            price: None,
            openrouter_provider: None,
        }
    }

    /// A target of the Anthropic protocol, otherwise as [`Target::openai`].
    pub fn anthropic(label: &str, base_url: &str, model: &str) -> Self {
        Self {
            protocol: Protocol::Anthropic,
            ..Self::openai(label, base_url, model)
        }
    }

    /// A target of the built-in demo provider at `demo://local`.
    pub fn demo(label: &str, model: &str) -> Self {
        Self {
            protocol: Protocol::Demo,
            ..Self::openai(label, "demo://local", model)
        }
    }
}

impl Sample {
    /// A successful, measured (not warm-up) request of target `target` at
    /// position `seq`, planned and sent at [`START_MS`] + `seq` ×
    /// [`SPACING_MS`], with its first token at `ttft_ms`: headers at 0.6 ×,
    /// the first byte at 0.9 × the TTFT, the second token 20 ms after the
    /// first, the end 500 ms after it, 11 output tokens. The members added
    /// later (HTTP status, cache, connection, probes) are `None`, as in a
    /// file written before they existed.
    pub fn measured(target: u32, seq: u32, ttft_ms: f64) -> Self {
        let at_ms = START_MS + f64::from(seq) * SPACING_MS;
        Self {
            target,
            seq,
            warmup: false,
            planned_at_ms: at_ms,
            sent_at_ms: at_ms,
            hidden: false,
            headers_ms: Some(ttft_ms * 0.6),
            first_byte_ms: Some(ttft_ms * 0.9),
            first_reasoning_ms: None,
            ttft_ms: Some(ttft_ms),
            second_token_ms: Some(ttft_ms + 20.0),
            total_ms: Some(ttft_ms + 500.0),
            output_tokens: Some(11),
            tokens_estimated: false,
            error: None,
            cached_tokens: None,
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
            sized_prompt: None,
            idle_gap_s: None,
            idle_s: None,
            reused_connection: None,
            connection_idle_s: None,
            retried: false,
            fresh_connection: false,
        }
    }

    /// A request of target `target` at position `seq` that failed with
    /// `kind`, sent as [`Sample::measured`] sends it, with no timing and no
    /// tokens. Its phase is where `kind` usually happens: a timeout before
    /// the first token, a cut stream or an abort after it, anything else at
    /// the request.
    pub fn failed(target: u32, seq: u32, kind: ErrorKind) -> Self {
        let phase = match kind {
            ErrorKind::Timeout | ErrorKind::MalformedStream | ErrorKind::ProviderError => {
                Phase::BeforeFirstToken
            }
            ErrorKind::StreamCut | ErrorKind::Aborted => Phase::AfterFirstToken,
            _ => Phase::Request,
        };
        Self {
            headers_ms: None,
            first_byte_ms: None,
            ttft_ms: None,
            second_token_ms: None,
            total_ms: None,
            output_tokens: None,
            error: Some(SampleError {
                kind,
                phase,
                message: format!("failed: {}", kind.as_str()),
            }),
            ..Self::measured(target, seq, 0.0)
        }
    }
}

/// A sample sent at `at_ms`, as the dashboard's tests count them: a first
/// token at `ttft_ms` (headers at 10 ms, the end 100 ms later, 5 tokens),
/// or an HTTP 503 when `ttft_ms` is `None`.
pub fn sample(target: u32, seq: u32, at_ms: f64, ttft_ms: Option<f64>, warmup: bool) -> Sample {
    let outcome = match ttft_ms {
        Some(ttft_ms) => Sample {
            first_byte_ms: Some(ttft_ms),
            second_token_ms: None,
            total_ms: Some(ttft_ms + 100.0),
            ..Sample::measured(target, seq, ttft_ms)
        },
        None => Sample {
            error: Some(SampleError {
                kind: ErrorKind::HttpStatus,
                phase: Phase::Request,
                message: "the provider answered HTTP 503".into(),
            }),
            ..Sample::failed(target, seq, ErrorKind::HttpStatus)
        },
    };
    Sample {
        warmup,
        planned_at_ms: at_ms,
        sent_at_ms: at_ms,
        headers_ms: Some(10.0),
        output_tokens: Some(5),
        ..outcome
    }
}

/// The sample of `planned` as the schedule sends it, before any reply:
/// its target, place, warm-up flag, send time (as planned), prompt size,
/// idle gap and probe; the caller fills in what came back.
pub fn planned_sample(planned: &PlannedRequest) -> Sample {
    let mut sample = Sample::measured(planned.target, planned.seq, 0.0);
    sample.warmup = planned.warmup;
    sample.planned_at_ms = planned.planned_at_ms;
    sample.sent_at_ms = planned.planned_at_ms;
    sample.sized_prompt = planned.sized_prompt;
    sample.idle_gap_s = planned.idle_gap_s;
    sample.probe = planned
        .probe
        .and_then(|probe| probe.probe())
        .map(|probe| probe.id.to_owned());
    sample
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

/// Synthetic samples for tests and the benchmark: `per_target` measured
/// requests (plus `warmups`) for each of `targets` targets, lognormal TTFT
/// around 400 ms with σ = 0.3, every fifth target with a 5 % cold tail 12×
/// slower, and 2 % errors. Deterministic in `seed`.
pub fn synthetic_samples(targets: u32, per_target: u32, warmups: u32, seed: u64) -> Vec<Sample> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut normal = move || {
        let (u1, u2) = (1.0 - rng.f64(), rng.f64());
        (
            (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos(),
            u2,
        )
    };
    let mut samples = Vec::new();
    for seq in 0..per_target + warmups {
        for target in 0..targets {
            let (z, uniform) = normal();
            let cold = target % 5 == 1 && uniform < 0.05;
            let ttft_ms = 400.0
                * (1.0 + f64::from(target) * 0.1)
                * (0.3 * z).exp()
                * if cold { 12.0 } else { 1.0 };
            let sent_at_ms = START_MS + f64::from(seq * targets + target) * SPACING_MS;
            let failed = (uniform * 1000.0).fract() < 0.02;
            samples.push(Sample {
                warmup: seq < warmups,
                planned_at_ms: sent_at_ms - 1.0,
                sent_at_ms,
                headers_ms: Some(ttft_ms * 0.7),
                first_byte_ms: Some(ttft_ms * 0.95),
                ttft_ms: (!failed).then_some(ttft_ms),
                second_token_ms: (!failed).then_some(ttft_ms + 25.0),
                total_ms: (!failed).then_some(ttft_ms + 600.0),
                output_tokens: (!failed).then_some(40),
                error: failed.then(|| SampleError {
                    kind: ErrorKind::HttpStatus,
                    phase: Phase::Request,
                    message: "503 service unavailable".to_owned(),
                }),
                ..Sample::measured(target, seq, ttft_ms)
            });
        }
    }
    samples
}

/// `n` successful measured requests of target 0, each with a 400 ms first
/// token and an HTTP 200, for tests that then change a few.
pub fn plain_samples(n: u32) -> Vec<Sample> {
    synthetic_samples(1, n, 0, 7)
        .into_iter()
        .map(|sample| Sample {
            error: None,
            ttft_ms: Some(400.0),
            total_ms: Some(1_000.0),
            output_tokens: Some(40),
            http_status: Some(200),
            ..sample
        })
        .collect()
}

/// Two models measured at several providers, with 320 requests a target
/// so the first-token timeouts are bounded: the fixture of the routing
/// configs' golden files and of the runner's report tests. Two targets are
/// OpenRouter endpoints measuring one upstream each; one target of the
/// second model has a price.
pub fn routing_fixture() -> (Plan, Vec<Sample>, Environment) {
    let or_target = |label: &str, slug: &str| Target {
        provider: Some("openrouter".to_owned()),
        openrouter_provider: Some(slug.to_owned()),
        ..Target::openai(
            label,
            "https://openrouter.ai/api/v1",
            "meta-llama/llama-3.3-70b-instruct",
        )
    };
    let targets = vec![
        or_target("OR · DeepInfra", "deepinfra"),
        or_target("OR · Together", "together"),
        Target {
            provider: Some("together".to_owned()),
            ..Target::openai(
                "Together direct",
                "https://api.together.xyz/v1",
                "meta-llama/Llama-3.3-70B-Instruct",
            )
        },
        Target {
            provider: Some("deepseek".to_owned()),
            price: Some(Price {
                input_per_mtok: 0.27,
                output_per_mtok: 1.1,
                cached_input_per_mtok: Some(0.07),
            }),
            ..Target::openai("DeepSeek", "https://api.deepseek.com/v1", "deepseek-chat")
        },
        Target::anthropic(
            "Anthropic-style proxy",
            "https://llm.example.com",
            "deepseek-chat",
        ),
    ];
    let plan = Plan {
        targets,
        requests_per_target: 320,
        ..Plan::default()
    };
    let samples = synthetic_samples(5, 320, 2, 2026);
    let environment = Environment {
        user_agent: "firsttoken/0.1.0 (linux; x86_64)".to_owned(),
        time_zone: "UTC".to_owned(),
        started_at_ms: 1_796_274_429_500.0,
        runner: RunnerKind::Cli,
        vantage: Some("fra1".to_owned()),
        ..Environment::default()
    };
    (plan, samples, environment)
}

/// [`routing_fixture`] as an exported results file.
pub fn routing_results() -> String {
    let (plan, samples, environment) = routing_fixture();
    format!("{}\n", export_json(&plan, &environment, &samples))
}
