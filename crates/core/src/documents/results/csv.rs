//! The results as CSV, one row per request, for spreadsheets.

use crate::planning::plan::Plan;
use crate::wire::sample::Sample;

/// The CSV columns, in order.
pub const CSV_COLUMNS: [&str; 35] = [
    "target",
    "label",
    "model",
    "base_url",
    "seq",
    "warmup",
    "planned_at_ms",
    "sent_at_ms",
    "hidden",
    "headers_ms",
    "first_byte_ms",
    "first_reasoning_ms",
    "ttft_ms",
    "second_token_ms",
    "total_ms",
    "output_tokens",
    "tokens_estimated",
    "decode_rate_tps",
    "error_kind",
    "error_phase",
    "error_message",
    "protocol",
    "provider",
    "dns_ms",
    "connect_ms",
    "tls_ms",
    "cached_tokens",
    "http_status",
    "input_tokens",
    "retry_after_s",
    "max_gap_ms",
    "stalls",
    "buffered",
    "probe",
    "probe_passed",
];

/// The columns added after [`CSV_COLUMNS`] when any request sent a sized
/// prompt (a plan with `prompt_sizes`): the requested size, and for a
/// cache-probe repeat the `seq` of the send it repeats. A plan without
/// sizes writes exactly the columns it always did.
pub const PROMPT_SIZE_COLUMNS: [&str; 2] = ["prompt_size", "prompt_repeat_of"];

/// The column added last when any request was sent after an idle gap (a
/// plan with `idle_gaps_s`): that gap, seconds. A plan without gaps writes
/// exactly the columns it always did.
pub const IDLE_GAP_COLUMN: &str = "idle_gap_s";

/// One row per request, with a header row; fields are separated by commas,
/// rows end with CRLF, and text fields are quoted per RFC 4180 when they
/// contain a comma, a double quote or a line break. Missing values are
/// empty; numbers are written in their shortest exact form.
///
/// # Examples
///
/// ```
/// use firsttoken_core::documents::results::{CSV_COLUMNS, export_csv};
///
/// # use firsttoken_core::wire::demo::{behaviour_of, demo_reply, target_seed};
/// # use firsttoken_core::wire::measure::Measurement;
/// # use firsttoken_core::planning::plan::Plan;
/// # use firsttoken_core::wire::sample::Sample;
/// # use firsttoken_core::planning::schedule::Schedule;
/// # // Every request of `plan` answered by the built-in demo provider, fed
/// # // through a `Measurement` as the page and the runner feed real replies.
/// # fn measure_with_demo(plan: &Plan) -> Vec<Sample> {
/// #     let schedule = Schedule::new(plan, 1.8e12, 7);
/// #     schedule.requests.iter().map(|planned| {
/// #         let target = &plan.targets[planned.target as usize];
/// #         let seed = target_seed(7, planned.target);
/// #         let reply = demo_reply(behaviour_of(&target.base_url), planned.seq, seed);
/// #         let mut measurement = Measurement::new(target.protocol, false);
/// #         measurement.on_headers(reply.headers_at_ms, reply.status, Some(reply.content_type));
/// #         for chunk in &reply.chunks {
/// #             measurement.on_chunk(chunk.at_ms, &chunk.bytes);
/// #         }
/// #         let end_ms = reply.chunks.last().map_or(reply.headers_at_ms, |c| c.at_ms);
/// #         measurement.on_body_end(end_ms);
/// #         Sample::from_outcome(planned, planned.planned_at_ms, false, measurement.finish())
/// #     }).collect()
/// # }
/// # let plan = Plan::from_json(r#"{"firsttoken_plan": 1, "requests_per_target": 30, "targets": [
/// #     {"label": "steady", "protocol": "demo", "base_url": "demo://steady", "model": "m"},
/// #     {"label": "cold-tail", "protocol": "demo", "base_url": "demo://cold-tail", "model": "m"}]}"#)?;
/// let samples = measure_with_demo(&plan);
/// let csv = export_csv(&plan, &samples);
/// let rows: Vec<&str> = csv.split_terminator("\r\n").collect();
/// assert_eq!(rows.len(), 1 + samples.len());
/// assert_eq!(rows[0], CSV_COLUMNS.join(","));
/// // Each request's row: its target, then every timing in ms.
/// let first: Vec<&str> = rows[1].split(',').collect();
/// assert_eq!(first[..4], ["0", "steady", "m", "demo://steady"]);
/// let ttft_column = CSV_COLUMNS.iter().position(|c| *c == "ttft_ms").unwrap_or(usize::MAX);
/// let ttft_ms = first.get(ttft_column).and_then(|cell| cell.parse::<f64>().ok());
/// assert_eq!(ttft_ms, samples[0].ttft_ms);
/// # Ok::<(), firsttoken_core::planning::plan::PlanError>(())
/// ```
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn export_csv(plan: &Plan, samples: &[Sample]) -> String {
    let mut out = String::with_capacity(samples.len() * 160 + 300);
    out.push_str(&CSV_COLUMNS.join(","));
    let sized = samples.iter().any(|s| s.sized_prompt.is_some());
    if sized {
        out.push(',');
        out.push_str(&PROMPT_SIZE_COLUMNS.join(","));
    }
    let idle = samples.iter().any(|s| s.idle_gap_s.is_some());
    if idle {
        out.push(',');
        out.push_str(IDLE_GAP_COLUMN);
    }
    out.push_str("\r\n");
    for sample in samples {
        let target = plan.targets.get(sample.target as usize);
        let text = |value: Option<&str>| quote(value.unwrap_or(""));
        let number = |value: Option<f64>| value.map(|v| v.to_string()).unwrap_or_default();
        let error = sample.error.as_ref();
        let fields = [
            sample.target.to_string(),
            text(target.map(|t| t.label.as_str())),
            text(target.map(|t| t.model.as_str())),
            text(target.map(|t| t.base_url.as_str())),
            sample.seq.to_string(),
            sample.warmup.to_string(),
            sample.planned_at_ms.to_string(),
            sample.sent_at_ms.to_string(),
            sample.hidden.to_string(),
            number(sample.headers_ms),
            number(sample.first_byte_ms),
            number(sample.first_reasoning_ms),
            number(sample.ttft_ms),
            number(sample.second_token_ms),
            number(sample.total_ms),
            sample
                .output_tokens
                .map(|t| t.to_string())
                .unwrap_or_default(),
            sample.tokens_estimated.to_string(),
            number(sample.decode_rate_tps()),
            error
                .map(|e| e.kind.as_str().to_owned())
                .unwrap_or_default(),
            error
                .map(|e| e.phase.as_str().to_owned())
                .unwrap_or_default(),
            text(error.map(|e| e.message.as_str())),
            target
                .map(|t| t.protocol.as_str().to_owned())
                .unwrap_or_default(),
            text(target.and_then(|t| t.provider.as_deref())),
            number(sample.connection.and_then(|c| c.dns_ms)),
            number(sample.connection.map(|c| c.connect_ms)),
            number(sample.connection.and_then(|c| c.tls_ms)),
            sample
                .cached_tokens
                .map(|t| t.to_string())
                .unwrap_or_default(),
            sample
                .http_status
                .map(|s| s.to_string())
                .unwrap_or_default(),
            sample
                .input_tokens
                .map(|t| t.to_string())
                .unwrap_or_default(),
            number(sample.rate_limit.as_ref().and_then(|r| r.retry_after_s)),
            number(sample.stream.and_then(|s| s.max_gap_ms)),
            sample
                .stream
                .map(|s| s.stalls.to_string())
                .unwrap_or_default(),
            sample
                .stream
                .map(|s| s.buffered.to_string())
                .unwrap_or_default(),
            text(sample.probe.as_deref()),
            // Verified again from the reply the sample kept, by the plan's suite.
            sample
                .probe
                .as_deref()
                .zip(plan.fidelity.as_ref())
                .and_then(|(id, fidelity)| fidelity.suite.probe(id))
                .map(|probe| sample.verify_probe(probe).passed.to_string())
                .unwrap_or_default(),
        ];
        out.push_str(&fields.join(","));
        if sized {
            let prompt = sample.sized_prompt;
            let cell = |value: Option<u32>| value.map(|v| v.to_string()).unwrap_or_default();
            out.push(',');
            out.push_str(&cell(prompt.map(|p| p.tokens)));
            out.push(',');
            out.push_str(&cell(prompt.and_then(|p| p.repeat_of)));
        }
        if idle {
            out.push(',');
            out.push_str(&number(sample.idle_gap_s));
        }
        out.push_str("\r\n");
    }
    out
}

/// RFC 4180: quote a field containing a comma, quote, CR or LF, doubling
/// inner quotes.
#[cfg_attr(target_arch = "wasm32", inline)]
fn quote(field: &str) -> String {
    // A text cell that a spreadsheet would read as a formula (OWASP's CSV
    // injection: `=`, `+`, `-`, `@`, tab, carriage return) gets a leading
    // `'`, so it shows as text. Provider error messages and labels end up in
    // these cells, and a stranger writes both. Numbers never pass through
    // here, so a negative number stays a number.
    let guarded;
    let field = if field.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        guarded = format!("'{field}");
        guarded.as_str()
    } else {
        field
    };
    if field.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planning::prompt::SizedPrompt;

    #[test]
    fn sized_prompts_add_their_two_columns_and_only_then() {
        let plan = Plan::default();
        let mut sample = crate::testing::fixtures::sample(0, 3, 0.0, Some(900.0), false);
        let plain = export_csv(&plan, std::slice::from_ref(&sample));
        assert!(!plain.contains("prompt_size"));
        sample.sized_prompt = Some(SizedPrompt {
            tokens: 8_192,
            repeat_of: Some(2),
        });
        let sized = export_csv(&plan, &[sample]);
        let lines: Vec<&str> = sized.lines().collect();
        assert!(lines[0].ends_with(",input_tokens,retry_after_s,max_gap_ms,stalls,buffered,probe,probe_passed,prompt_size,prompt_repeat_of"));
        assert!(lines[1].ends_with(",8192,2"), "{}", lines[1]);
    }

    #[test]
    fn idle_gaps_add_their_column_last_and_only_then() {
        let plan = Plan::default();
        let warmup = crate::testing::fixtures::sample(0, 0, 0.0, Some(900.0), true);
        let mut sample = crate::testing::fixtures::sample(0, 1, 0.0, Some(900.0), false);
        let plain = export_csv(&plan, &[warmup.clone(), sample.clone()]);
        assert!(!plain.contains("idle_gap_s"));
        sample.idle_gap_s = Some(300.0);
        let idle = export_csv(&plan, &[warmup, sample.clone()]);
        let lines: Vec<&str> = idle.lines().collect();
        assert!(
            lines[0].ends_with(",probe_passed,idle_gap_s"),
            "{}",
            lines[0]
        );
        // A warm-up has no gap: an empty cell.
        assert!(lines[1].ends_with(','), "{}", lines[1]);
        assert!(lines[2].ends_with(",300"), "{}", lines[2]);
        // After the size columns when both are there.
        sample.sized_prompt = Some(crate::planning::prompt::SizedPrompt {
            tokens: 128,
            repeat_of: None,
        });
        let both = export_csv(&plan, &[sample]);
        assert!(
            both.lines()
                .next()
                .unwrap()
                .ends_with(",prompt_size,prompt_repeat_of,idle_gap_s")
        );
        assert!(both.lines().nth(1).unwrap().ends_with(",128,,300"));
    }
}
