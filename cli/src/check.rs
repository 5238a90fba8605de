//! `firsttoken check`: one request per target, with the page's "Test
//! connection" diagnosis (minus CORS, which does not apply outside a
//! browser).

use firsttoken_core::base::lang::Lang;
use firsttoken_core::planning::plan::{Plan, Protocol};
use firsttoken_core::wire::protocol::build_request;
use firsttoken_core::words::format::format_ms;

use crate::demo::measure_demo;
use crate::keys::{Key, redact};
use crate::measure::{MeasureOptions, Stop, measure};
use crate::net::Client;

/// What the check found for one target.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckLine {
    /// The target's label.
    pub label: String,
    /// TTFT in ms when a first token arrived, else the diagnosis.
    pub result: Result<f64, String>,
}

/// Sends one short request per target, as "Test connection" does: 8 tokens
/// at most, a 30 s timeout, the plan's prompt.
pub async fn check(plan: &Plan, keys: &[Option<Key>], stop: &mut Stop) -> Vec<CheckLine> {
    let probe = Plan {
        max_tokens: 8,
        timeout_s: 30.0,
        prompt: plan.prompt.clone(),
        ..Plan::default()
    };
    let mut client = Client::new(false);
    let mut lines = Vec::with_capacity(plan.targets.len());
    for (index, target) in plan.targets.iter().enumerate() {
        let key = keys.get(index).and_then(Option::as_ref).map(Key::expose);
        let request = build_request(target, &probe, key, None);
        let options = MeasureOptions {
            protocol: target.protocol,
            reasoning_counts_as_first_token: plan.reasoning_counts_as_first_token,
            timeout_s: probe.timeout_s,
            fresh_connection: false,
        };
        let measured = if target.protocol == Protocol::Demo {
            // The built-in demo answers in the process, as in the page.
            let at = (u32::try_from(index).unwrap_or(u32::MAX), 0, 0, None);
            measure_demo(&request, options, at, stop).await
        } else {
            measure(&mut client, &request, options, stop).await
        };
        let outcome = measured.outcome;
        let result = match (outcome.error, outcome.ttft_ms) {
            (Some(error), _) => Err(redact(&error.message, keys)),
            (None, Some(ttft_ms)) => Ok(ttft_ms),
            (None, None) => Err("the stream ended without a token".to_owned()),
        };
        lines.push(CheckLine {
            label: target.label.clone(),
            result,
        });
    }
    lines
}

/// "DeepSeek: Connected: first token after 412 ms" or the diagnosis.
pub fn line_text(line: &CheckLine) -> String {
    match &line.result {
        Ok(ttft_ms) => format!(
            "{}: Connected: first token after {}",
            line.label,
            format_ms(Lang::En, *ttft_ms)
        ),
        Err(message) => format!("{}: {message}", line.label),
    }
}
