//! The fidelity scripts end to end: the app's own request for every probe of the suite goes to
//! the mock over loopback, and the reply's bytes, chunk by chunk, go through the app's own
//! measurement (SSE decoder, protocol decoder, transcript) and verifier.

use std::thread;
use std::time::Instant;

use firsttoken_core::planning::fidelity::reply::Reply;
use firsttoken_core::planning::fidelity::suite::{Expect, Probe};
use firsttoken_core::planning::fidelity::verify::{ProbeCheck, ProbeReply, verify};
use firsttoken_core::planning::plan::{Plan, Protocol, Target};
use firsttoken_core::planning::schedule::{PlannedProbe, PlannedRequest};
use firsttoken_core::wire::measure::{BodyMode, Measurement, Outcome as Measured};
use firsttoken_core::wire::protocol::{HttpRequest, build_planned_request, build_request};
use firsttoken_mock::fidelity::{
    DEGRADED_EXTRA_PROMPT_TOKENS, SUITE, probe_prompt_tokens, wrong_probe_ids,
};
use firsttoken_mock::raw_client::{RawClient, RawResponse, SseItem, parse_sse};
use firsttoken_mock::script::CONTENT_TOKENS;
use firsttoken_mock::{MockHandle, RequestRecord};
use serde_json::Value;

use super::support::start_mock;

const PROTOCOLS: [Protocol; 3] = [Protocol::OpenAi, Protocol::Anthropic, Protocol::Gemini];

/// Wrong probes of `degraded` at its default share: round(30 % × 30).
const DEFAULT_WRONG_COUNT: usize = 9;

/// Prompt tokens of `fixed` (and of the fidelity scripts' latency replies).
const FIXED_PROMPT_TOKENS: u32 = 12;

fn target(mock: &MockHandle, protocol: Protocol, script: &str) -> Target {
    Target {
        protocol,
        ..Target::openai(
            script,
            &match protocol {
                Protocol::OpenAi => format!("{}/v1", mock.base_url()),
                _ => mock.base_url(),
            },
            script,
        )
    }
}

/// The request the app sends for probe `index` of the suite.
fn probe_request(target: &Target, index: usize) -> HttpRequest {
    let planned = PlannedRequest {
        idle_gap_s: None,
        idle_since_ms: None,
        fresh_connection: false,
        sized_prompt: None,
        index: 0,
        target: 0,
        seq: 0,
        warmup: false,
        planned_at_ms: 0.0,
        probe: Some(PlannedProbe {
            suite: SUITE,
            index: u16::try_from(index).unwrap(),
        }),
    };
    build_planned_request(target, &Plan::default(), &planned, None, None)
}

/// One exchange: what the app measured, the raw reply, and the mock's record of it.
struct Exchange {
    measured: Measured,
    response: RawResponse,
    record: RequestRecord,
}

impl Exchange {
    fn reply(&self) -> &Reply {
        self.measured.reply.as_ref().unwrap()
    }

    fn check(&self, probe: &Probe) -> ProbeCheck {
        let reply = self.reply();
        verify(
            probe,
            &ProbeReply {
                answer: &reply.answer,
                tool_calls: &reply.tool_calls,
                finish_reason: reply.finish_reason.as_deref(),
                output_tokens: self.measured.output_tokens,
            },
        )
    }

    fn events(&self) -> Vec<Value> {
        parse_sse(&self.response.body())
            .into_iter()
            .filter_map(|item| match item {
                SseItem::Event { data, .. } if data != "[DONE]" => {
                    Some(serde_json::from_str(&data).unwrap())
                }
                _ => None,
            })
            .collect()
    }

    /// How many events carried a piece of the call's arguments.
    fn argument_fragments(&self, protocol: Protocol) -> usize {
        self.events()
            .iter()
            .filter(|event| match protocol {
                Protocol::OpenAi => event
                    .pointer("/choices/0/delta/tool_calls/0/function/arguments")
                    .and_then(Value::as_str)
                    .is_some_and(|fragment| !fragment.is_empty()),
                Protocol::Anthropic => event["delta"]["type"] == "input_json_delta",
                _ => event
                    .pointer("/candidates/0/content/parts/0/functionCall")
                    .is_some(),
            })
            .count()
    }
}

/// Sends `request` to the mock and feeds the reply, chunk by chunk with its arrival time,
/// through the app's measurement.
fn exchange(mock: &MockHandle, protocol: Protocol, request: &HttpRequest) -> Exchange {
    let path = request.url.strip_prefix(&mock.base_url()).unwrap();
    let headers: Vec<(&str, &str)> = request
        .headers
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_str()))
        .collect();
    let mut client = RawClient::connect(mock.address()).unwrap();
    let sent_at = client
        .send("POST", path, &headers, request.body.as_bytes())
        .unwrap();
    let response = client.read_response(false).unwrap();
    let ms = |at: Instant| at.duration_since(sent_at).as_secs_f64() * 1_000.0;
    let mut measurement = Measurement::new(protocol, false);
    let mode = measurement.on_headers(
        ms(response.head_at),
        response.status,
        response.header("content-type"),
    );
    assert_eq!(mode, BodyMode::Stream, "{}", response.body_text());
    for chunk in &response.chunks {
        measurement.on_chunk(ms(chunk.at), &chunk.bytes);
    }
    let end = response
        .chunks
        .last()
        .map_or(response.head_at, |chunk| chunk.at);
    measurement.on_body_end(ms(end));
    let measured = measurement.finish();
    let id: u64 = response
        .header("x-mock-request-id")
        .unwrap()
        .parse()
        .unwrap();
    let record = mock
        .wait_for_request(id, std::time::Duration::from_secs(10))
        .unwrap();
    Exchange {
        measured,
        response,
        record,
    }
}

/// Every probe of the suite in every protocol, all at once (each reply takes a few hundred ms
/// of scripted delays), in `(protocol, probe)` order.
fn ask_every_probe(mock: &MockHandle, script: &str) -> Vec<(Protocol, &'static Probe, Exchange)> {
    thread::scope(|scope| {
        let handles: Vec<_> = PROTOCOLS
            .into_iter()
            .flat_map(|protocol| {
                SUITE
                    .probes()
                    .iter()
                    .enumerate()
                    .map(move |(index, probe)| (protocol, index, probe))
            })
            .map(|(protocol, index, probe)| {
                let request = probe_request(&target(mock, protocol, script), index);
                let handle = scope.spawn(move || exchange(mock, protocol, &request));
                (protocol, probe, handle)
            })
            .collect();
        handles
            .into_iter()
            .map(|(protocol, probe, handle)| (protocol, probe, handle.join().unwrap()))
            .collect()
    })
}

/// The protocol's finish reason for a call and for text.
fn finish_reasons(protocol: Protocol) -> (&'static str, &'static str) {
    match protocol {
        Protocol::OpenAi => ("tool_calls", "stop"),
        Protocol::Anthropic => ("tool_use", "end_turn"),
        _ => ("STOP", "STOP"),
    }
}

#[test]
fn faithful_passes_every_probe_in_every_protocol_the_same_way_twice() {
    let mock = start_mock();
    let first = ask_every_probe(&mock, "faithful");
    let again = ask_every_probe(&mock, "faithful");
    assert_eq!(first.len(), 3 * SUITE.probes().len());
    for ((protocol, probe, exchange), (_, _, repeat)) in first.iter().zip(&again) {
        let context = format!("{protocol:?} {}", probe.id);
        let measured = &exchange.measured;
        assert_eq!(measured.error, None, "{context}");
        assert!(measured.ttft_ms.is_some(), "{context}");
        let check = exchange.check(probe);
        assert!(check.passed, "{context}: {check:?} {:?}", exchange.reply());
        assert!(check.finish_reason, "{context}");
        assert_eq!(check.within_max_tokens, Some(true), "{context}");
        assert!(!measured.tokens_estimated, "{context}: usage was reported");

        let is_call = matches!(probe.expect, Expect::Call { .. });
        let (call_reason, text_reason) = finish_reasons(*protocol);
        let reason = if is_call { call_reason } else { text_reason };
        assert_eq!(
            exchange.reply().finish_reason.as_deref(),
            Some(reason),
            "{context}"
        );
        assert_eq!(
            exchange.reply().tool_calls.len(),
            usize::from(is_call),
            "{context}"
        );

        // The prompt count is a function of the prompt, where each protocol reports it.
        let prompt_tokens = probe_prompt_tokens(&probe.prompt());
        assert_eq!(measured.input_tokens, Some(prompt_tokens), "{context}");
        assert_eq!(
            exchange.record.prompt_tokens,
            Some(prompt_tokens),
            "{context}"
        );
        assert_eq!(
            exchange.record.probe.as_deref(),
            Some(probe.id),
            "{context}"
        );
        assert_eq!(
            exchange.record.probe_answered_wrong,
            Some(false),
            "{context}"
        );
        assert_eq!(
            exchange.record.output_tokens, measured.output_tokens,
            "{context}"
        );

        // OpenAI and Anthropic stream a call's arguments in pieces; Gemini sends it whole.
        if is_call {
            let fragments = exchange.argument_fragments(*protocol);
            match protocol {
                Protocol::Gemini => assert_eq!(fragments, 1, "{context}"),
                _ => assert!(fragments > 1, "{context}: {fragments} fragments"),
            }
        }

        // Two repeats agree, answer and count alike.
        assert_eq!(repeat.reply(), exchange.reply(), "{context}");
        assert_eq!(
            repeat.measured.input_tokens, measured.input_tokens,
            "{context}"
        );
    }
}

#[test]
fn degraded_fails_its_fixed_share_and_counts_a_bigger_prompt() {
    let mock = start_mock();
    let expected_wrong = wrong_probe_ids(30);
    assert_eq!(expected_wrong.len(), DEFAULT_WRONG_COUNT);
    let first = ask_every_probe(&mock, "degraded");
    let again = ask_every_probe(&mock, "degraded");
    for protocol in PROTOCOLS {
        let mut failed = Vec::new();
        for ((_, probe, exchange), (_, _, repeat)) in first
            .iter()
            .zip(&again)
            .filter(|((p, _, _), _)| *p == protocol)
        {
            let context = format!("{protocol:?} {}", probe.id);
            assert_eq!(exchange.measured.error, None, "{context}");
            let check = exchange.check(probe);
            if !check.passed {
                failed.push(probe.id);
            }
            assert!(check.finish_reason, "{context}");
            assert_eq!(
                exchange.record.probe_answered_wrong,
                Some(expected_wrong.contains(&probe.id)),
                "{context}"
            );
            assert_eq!(
                exchange.measured.input_tokens,
                Some(probe_prompt_tokens(&probe.prompt()) + DEGRADED_EXTRA_PROMPT_TOKENS),
                "{context}"
            );
            assert_eq!(repeat.reply(), exchange.reply(), "{context}");
            assert_eq!(repeat.check(probe), check, "{context}");
        }
        assert_eq!(failed, expected_wrong, "{protocol:?}");
    }
}

#[test]
fn latency_requests_get_the_fixed_reply_and_degraded_counts_more_prompt() {
    let mock = start_mock();
    let plan = Plan::default();
    for protocol in PROTOCOLS {
        for (script, prompt_tokens) in [
            ("fixed", FIXED_PROMPT_TOKENS),
            ("faithful", FIXED_PROMPT_TOKENS),
            (
                "degraded",
                FIXED_PROMPT_TOKENS + DEGRADED_EXTRA_PROMPT_TOKENS,
            ),
        ] {
            let context = format!("{protocol:?} {script}");
            let request = build_request(&target(&mock, protocol, script), &plan, None, Some("n7"));
            let exchange = exchange(&mock, protocol, &request);
            assert_eq!(exchange.measured.error, None, "{context}");
            assert_eq!(
                exchange.reply().answer,
                CONTENT_TOKENS.concat(),
                "{context}"
            );
            assert_eq!(
                exchange.measured.input_tokens,
                Some(prompt_tokens),
                "{context}"
            );
            assert_eq!(exchange.record.probe, None, "{context}");
            assert_eq!(exchange.record.content_deltas, 8, "{context}");
            assert_eq!(
                exchange.record.scripted_first_token_ms,
                Some(150.0),
                "{context}"
            );
        }
    }
}
