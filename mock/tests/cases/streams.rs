//! Successful streams: event sequences per protocol and timings against the ground truth.

use firsttoken_mock::protocol::Protocol;
use firsttoken_mock::raw_client::{RawClient, SseItem};
use firsttoken_mock::script::{
    CACHED_PROMPT_TOKENS, CONTENT_TOKENS, REASONING_TOKENS, bimodal_draw,
};
use firsttoken_mock::{DEFAULT_SEED, Outcome};
use serde_json::Value;
use std::time::Duration;

use super::support::*;

/// Upper slack on scheduled times: two shared cores and parallel tests, ms.
const SLACK_MS: f64 = 150.0;

fn all_content() -> String {
    CONTENT_TOKENS.concat()
}

fn event_names(exchange: &Exchange) -> Vec<String> {
    exchange
        .events()
        .into_iter()
        .map(|(name, _)| name.unwrap_or_default())
        .collect()
}

/// The checks every successful stream passes: status, content, one event per chunk, ground
/// truth times in order and close to what the client saw.
fn check_stream(
    mock: &firsttoken_mock::MockHandle,
    protocol: Protocol,
    model: &str,
    first_token_after_ms: f64,
) -> Exchange {
    let exchange = exchange(mock, protocol, model);
    let response = &exchange.response;
    assert_eq!(
        response.status,
        200,
        "{protocol:?} {model}: {}",
        response.body_text()
    );
    assert!(response.complete);
    assert!(
        response
            .header("content-type")
            .unwrap()
            .starts_with("text/event-stream")
    );
    assert_eq!(response.header("access-control-allow-origin"), Some("*"));
    let (content, _) = texts(protocol, &exchange.json_events());
    assert_eq!(content, all_content(), "{protocol:?} {model}");

    let record = exchange.record(mock);
    assert_eq!(record.protocol, protocol.name());
    assert_eq!(record.status, 200);
    assert_eq!(record.outcome, Outcome::Complete);
    assert_eq!(record.content_deltas, 8);
    let ttft_ms = after_receipt(&record, record.first_token_ms);
    assert!(
        ttft_ms >= first_token_after_ms,
        "{protocol:?} {model}: ttft {ttft_ms}"
    );
    assert!(
        ttft_ms < first_token_after_ms + SLACK_MS,
        "{protocol:?} {model}: ttft {ttft_ms}"
    );
    assert!(record.headers_ms.unwrap() <= record.first_byte_ms.unwrap());
    assert!(record.first_byte_ms.unwrap() <= record.first_token_ms.unwrap());
    // Eight tokens 20 ms apart: the last leaves at least 140 ms after the first was due.
    assert!(after_receipt(&record, record.end_ms) >= first_token_after_ms + 140.0);
    assert_eq!(record.scripted_first_token_ms, Some(first_token_after_ms));

    // The client saw the first token when the mock says it sent it (same machine, same clock).
    let seen = first_text_arrival(protocol, response, false).unwrap();
    let seen_ms = mock.clock().ms_at(seen);
    let gap_ms = (seen_ms - record.first_token_ms.unwrap()).abs();
    assert!(
        gap_ms < 50.0,
        "{protocol:?} {model}: client {seen_ms} vs mock {:?}",
        record.first_token_ms
    );
    assert!(mock.clock().ms_at(exchange.sent_at) <= record.received_ms + 1.0);
    exchange
}

#[test]
fn fixed_in_every_protocol() {
    let mock = start_mock();
    for protocol in ALL_PROTOCOLS {
        let exchange = check_stream(&mock, protocol, "fixed@40", 40.0);
        // Without split, every event (and comment) is exactly one chunk.
        assert_eq!(
            exchange.response.chunks.len(),
            exchange.items().len(),
            "{protocol:?}"
        );
        let record = exchange.record(&mock);
        assert_eq!(record.script.as_deref(), Some("fixed@40"));
        assert_eq!(record.first_reasoning_ms, None);
        assert_eq!(record.output_tokens, Some(8));
    }
}

#[test]
fn fixed_default_delay_is_150_ms() {
    let mock = start_mock();
    let exchange = check_stream(&mock, Protocol::Gemini, "fixed", 150.0);
    assert_eq!(exchange.record(&mock).script.as_deref(), Some("fixed"));
}

#[test]
fn openai_sequence_is_role_content_finish_usage_done() {
    let mock = start_mock();
    let exchange = check_stream(&mock, Protocol::OpenAi, "fixed@30", 30.0);
    let events = exchange.events();
    assert_eq!(events.last().unwrap().1, "[DONE]");
    let chunks = exchange.json_events();
    assert_eq!(chunks.len(), 1 + 8 + 1 + 1);
    assert_eq!(chunks[0]["choices"][0]["delta"]["role"], "assistant");
    assert_eq!(chunks[0]["choices"][0]["delta"]["content"], "");
    for (chunk, token) in chunks[1..9].iter().zip(CONTENT_TOKENS) {
        assert_eq!(chunk["choices"][0]["delta"]["content"], token);
        assert_eq!(chunk["object"], "chat.completion.chunk");
    }
    assert_eq!(chunks[9]["choices"][0]["finish_reason"], "stop");
    assert_eq!(chunks[10]["choices"], Value::Array(vec![]));
    assert_eq!(chunks[10]["usage"]["completion_tokens"], 8);
}

#[test]
fn openai_without_include_usage_sends_no_usage_chunk() {
    let mock = start_mock();
    let mut client = RawClient::connect(mock.address()).unwrap();
    let body = br#"{"model":"fixed@10","stream":true,"messages":[]}"#;
    let response = client
        .request(
            "POST",
            "/v1/chat/completions",
            &[("Authorization", "Bearer k")],
            body,
        )
        .unwrap();
    let text = response.body_text();
    assert!(!text.contains("usage"), "{text}");
    assert!(text.ends_with("data: [DONE]\n\n"));
    let id: u64 = response
        .header("x-mock-request-id")
        .unwrap()
        .parse()
        .unwrap();
    let record = mock.wait_for_request(id, Duration::from_secs(5)).unwrap();
    assert_eq!(record.output_tokens, None);
    assert!(record.is_settled());
}

#[test]
fn anthropic_sequence_has_the_real_event_names() {
    let mock = start_mock();
    let exchange = check_stream(&mock, Protocol::Anthropic, "fixed@30", 30.0);
    let mut expected = vec!["message_start", "content_block_start", "ping"];
    expected.extend(["content_block_delta"; 8]);
    expected.extend(["content_block_stop", "message_delta", "message_stop"]);
    assert_eq!(event_names(&exchange), expected);
    let events = exchange.json_events();
    // The `type` inside each data line matches its `event:` name.
    for ((name, _), event) in exchange.events().iter().zip(&events) {
        assert_eq!(event["type"], name.as_deref().unwrap());
    }
    assert_eq!(events[3]["delta"]["type"], "text_delta");
    assert_eq!(events[12]["usage"]["output_tokens"], 8);
    assert_eq!(events[12]["delta"]["stop_reason"], "end_turn");
}

#[test]
fn gemini_last_chunk_carries_finish_and_usage() {
    let mock = start_mock();
    let exchange = check_stream(&mock, Protocol::Gemini, "fixed@30", 30.0);
    let chunks = exchange.json_events();
    assert_eq!(chunks.len(), 8);
    for chunk in &chunks[..7] {
        assert!(chunk["candidates"][0].get("finishReason").is_none());
        assert_eq!(chunk["candidates"][0]["content"]["role"], "model");
    }
    assert_eq!(chunks[7]["candidates"][0]["finishReason"], "STOP");
    assert_eq!(chunks[7]["usageMetadata"]["candidatesTokenCount"], 8);
    assert!(!exchange.response.body_text().contains("[DONE]"));
    let record = exchange.record(&mock);
    assert_eq!(record.auth, "x-goog-api-key");
    assert!(!record.key_in_query);
    assert_eq!(
        record.path,
        "/v1beta/models/fixed@30:streamGenerateContent?alt=sse"
    );
    assert_eq!(record.model.as_deref(), Some("fixed@30"));
}

#[test]
fn reasoning_precedes_content_in_every_protocol() {
    let mock = start_mock();
    for (protocol, model) in [
        (Protocol::OpenAi, "reasoning"),
        (Protocol::OpenAi, "reasoning-or"),
        (Protocol::Anthropic, "reasoning"),
        (Protocol::Gemini, "reasoning"),
    ] {
        let exchange = check_stream(&mock, protocol, model, 250.0);
        let (_, reasoning) = texts(protocol, &exchange.json_events());
        assert_eq!(reasoning, REASONING_TOKENS.concat(), "{protocol:?} {model}");
        let record = exchange.record(&mock);
        assert_eq!(record.reasoning_deltas, 3);
        let reasoning_ms = after_receipt(&record, record.first_reasoning_ms);
        assert!(
            (60.0..60.0 + SLACK_MS).contains(&reasoning_ms),
            "{reasoning_ms}"
        );
        assert!(record.first_reasoning_ms < record.first_token_ms);
        let seen = first_text_arrival(protocol, &exchange.response, true).unwrap();
        assert!((mock.clock().ms_at(seen) - record.first_reasoning_ms.unwrap()).abs() < 50.0);
    }
    // The field name differs between the two OpenAI dialects.
    let deepseek = exchange(&mock, Protocol::OpenAi, "reasoning@60");
    assert!(
        deepseek
            .response
            .body_text()
            .contains("\"reasoning_content\":\"Thinking\"")
    );
    let openrouter = exchange(&mock, Protocol::OpenAi, "reasoning-or@60");
    let text = openrouter.response.body_text();
    assert!(text.contains("\"reasoning\":\"Thinking\"") && !text.contains("reasoning_content"));
    // Anthropic puts it in a thinking block.
    let anthropic = exchange(&mock, Protocol::Anthropic, "reasoning@60");
    let events = anthropic.json_events();
    assert_eq!(events[1]["content_block"]["type"], "thinking");
    assert_eq!(events[3]["delta"]["type"], "thinking_delta");
}

#[test]
fn keepalive_comments_come_first() {
    let mock = start_mock();
    for protocol in ALL_PROTOCOLS {
        let exchange = check_stream(&mock, protocol, "keepalive", 300.0);
        let items = exchange.items();
        let comments = items
            .iter()
            .take_while(|item| matches!(item, SseItem::Comment(_)))
            .count();
        assert_eq!(comments, 6, "{protocol:?}");
        assert_eq!(items[0], SseItem::Comment("keep-alive".into()));
        let record = exchange.record(&mock);
        // The first comment leaves at once: first byte long before the first token.
        assert!(after_receipt(&record, record.first_byte_ms) < 100.0);
    }
}

#[test]
fn role_first_sends_empty_events_long_before_the_first_token() {
    let mock = start_mock();
    for protocol in ALL_PROTOCOLS {
        let exchange = check_stream(&mock, protocol, "role-first", 200.0);
        let record = exchange.record(&mock);
        let first_byte_ms = after_receipt(&record, record.first_byte_ms);
        assert!(
            (10.0..120.0).contains(&first_byte_ms),
            "{protocol:?}: {first_byte_ms}"
        );
        let events = exchange.json_events();
        match protocol {
            Protocol::OpenAi => {
                assert_eq!(events[0]["choices"][0]["delta"]["role"], "assistant");
                assert_eq!(
                    events[1]["choices"][0]["delta"],
                    serde_json::json!({ "content": "" })
                );
            }
            Protocol::Anthropic => {
                assert_eq!(events[0]["type"], "message_start");
                assert_eq!(events[1]["type"], "ping");
            }
            Protocol::Gemini => {
                assert_eq!(
                    events[0]["candidates"][0]["content"]["parts"][0]["text"],
                    ""
                );
            }
        }
        // Those early events reach the client well before the first token does.
        let first_chunk_ms =
            mock.clock().ms_at(exchange.response.chunks[0].at) - record.received_ms;
        assert!(first_chunk_ms < 150.0, "{protocol:?}: {first_chunk_ms}");
    }
}

#[test]
fn split_cuts_events_at_awkward_offsets() {
    let mock = start_mock();
    for protocol in ALL_PROTOCOLS {
        let exchange = check_stream(&mock, protocol, "split@30", 30.0);
        let chunks = &exchange.response.chunks;
        let items = exchange.items();
        assert!(
            chunks.len() >= 3 * items.len(),
            "{protocol:?}: {} chunks",
            chunks.len()
        );
        // A chunk ends between CR and LF, one ends inside "data:", one inside a UTF-8 char.
        assert!(chunks.iter().any(|chunk| chunk.bytes.ends_with(b"\r")));
        assert!(chunks.iter().any(|chunk| chunk.bytes.ends_with(b"da")));
        assert!(
            chunks
                .iter()
                .any(|chunk| std::str::from_utf8(&chunk.bytes).is_err())
        );
        assert!(exchange.response.body_text().contains("\r\n\r\n"));
    }
}

#[test]
fn crlf_uses_crlf_everywhere() {
    let mock = start_mock();
    for protocol in ALL_PROTOCOLS {
        let exchange = check_stream(&mock, protocol, "crlf@20", 20.0);
        let body = exchange.response.body();
        let bare_lf = body
            .iter()
            .enumerate()
            .filter(|(index, byte)| **byte == b'\n' && (*index == 0 || body[index - 1] != b'\r'))
            .count();
        assert_eq!(bare_lf, 0, "{protocol:?}");
        assert_eq!(exchange.response.chunks.len(), exchange.items().len());
    }
}

#[test]
fn bimodal_is_reproducible_and_reset_restarts_it() {
    let mock = start_mock();
    let delays = |mock: &firsttoken_mock::MockHandle| -> Vec<f64> {
        (0..4)
            .map(|_| {
                let exchange = exchange(mock, Protocol::OpenAi, "bimodal@0");
                let record = exchange.record(mock);
                assert_eq!(record.cold, Some(false));
                let ttft_ms = after_receipt(&record, record.first_token_ms);
                let scripted = record.scripted_first_token_ms.unwrap();
                assert!((110.0..=130.0).contains(&scripted));
                assert!(ttft_ms >= scripted);
                scripted
            })
            .collect()
    };
    let first_run = delays(&mock);
    let expected: Vec<f64> = (0..4)
        .map(|index| bimodal_draw(DEFAULT_SEED, index, 0).first_token_ms as f64)
        .collect();
    assert_eq!(first_run, expected);
    mock.reset();
    assert_eq!(delays(&mock), first_run);
}

#[test]
fn bimodal_cold_start_takes_seconds() {
    let mock = start_mock();
    let exchange = check_stream_cold(&mock);
    let record = exchange.record(&mock);
    assert_eq!(record.cold, Some(true));
    let ttft_ms = after_receipt(&record, record.first_token_ms);
    assert!(
        (2_500.0..3_500.0 + SLACK_MS).contains(&ttft_ms),
        "{ttft_ms}"
    );
}

fn check_stream_cold(mock: &firsttoken_mock::MockHandle) -> Exchange {
    let exchange = exchange(mock, Protocol::Anthropic, "bimodal@100");
    assert_eq!(exchange.response.status, 200);
    exchange
}

#[test]
fn keep_alive_serves_several_requests_on_one_connection() {
    let mock = start_mock();
    let mut client = RawClient::connect(mock.address()).unwrap();
    for protocol in ALL_PROTOCOLS {
        let exchange = exchange_on(&mut client, protocol, "fixed@5");
        assert_eq!(exchange.response.status, 200);
        assert!(exchange.response.complete);
    }
    let truth = mock.settled_ground_truth(Duration::from_secs(5));
    assert_eq!(truth.requests.len(), 3);
    assert!(truth.requests.iter().all(|record| record.is_settled()));
}

#[test]
fn cached_reports_hits_and_misses_in_every_protocol() {
    let mock = start_mock();
    for protocol in [Protocol::OpenAi, Protocol::Anthropic, Protocol::Gemini] {
        // The script counts requests across protocols: on a fresh mock each protocol gets a
        // miss (even index) and then a hit (odd index).
        for (hit, first_token_after_ms) in [(false, 200.0), (true, 50.0)] {
            let exchange = check_stream(&mock, protocol, "cached", first_token_after_ms);
            let events = exchange.json_events();
            let reported = match protocol {
                Protocol::OpenAi => events
                    .iter()
                    .find_map(|e| e.pointer("/usage/prompt_tokens_details/cached_tokens"))
                    .and_then(Value::as_u64),
                Protocol::Anthropic => events
                    .iter()
                    .find_map(|e| e.pointer("/message/usage/cache_read_input_tokens"))
                    .and_then(Value::as_u64),
                Protocol::Gemini => events
                    .iter()
                    .find_map(|e| e.pointer("/usageMetadata/cachedContentTokenCount"))
                    .and_then(Value::as_u64),
            };
            let expected = match (protocol, hit) {
                (_, true) => Some(u64::from(CACHED_PROMPT_TOKENS)),
                // Gemini leaves the field out when nothing came from the cache.
                (Protocol::Gemini, false) => None,
                (_, false) => Some(0),
            };
            assert_eq!(reported, expected, "{protocol:?} hit={hit}");
            let record = exchange.record(&mock);
            assert_eq!(
                record.cached_tokens.map(u64::from),
                expected,
                "{protocol:?}"
            );
        }
    }
}

#[test]
fn prefill_nousage_streams_no_token_count_in_any_protocol() {
    let mock = start_mock();
    for protocol in ALL_PROTOCOLS {
        // The same request index of each script, so the same draw: the times agree and only
        // the usage differs.
        let counted = exchange(&mock, protocol, "prefill@30000");
        let silent = exchange(&mock, protocol, "prefill-nousage@30000");
        let body = silent.response.body_text();
        assert_eq!(silent.response.status, 200, "{protocol:?}: {body}");
        let (content, _) = texts(protocol, &silent.json_events());
        assert_eq!(content, all_content(), "{protocol:?}");
        // Member names only: the model name itself says "nousage".
        for word in ["\"usage\"", "usageMetadata", "_tokens\"", "TokenCount"] {
            assert!(!body.contains(word), "{protocol:?} {word}: {body}");
        }
        let counted_body = counted.response.body_text();
        assert!(
            counted_body.contains("_tokens\"") || counted_body.contains("TokenCount"),
            "{protocol:?}: the plain script still reports its usage"
        );
        let (counted, silent) = (counted.record(&mock), silent.record(&mock));
        assert_eq!(silent.outcome, Outcome::Complete, "{protocol:?}");
        assert_eq!(
            (
                silent.prompt_tokens,
                silent.output_tokens,
                silent.cached_tokens
            ),
            (None, None, None),
            "{protocol:?}"
        );
        assert_eq!(counted.prompt_tokens, Some(4), "{protocol:?}");
        assert_eq!(
            silent.scripted_first_token_ms, counted.scripted_first_token_ms,
            "{protocol:?}"
        );
        assert!(silent.scripted_first_token_ms.unwrap() >= 150.0);
    }
}

#[test]
fn scale_to_zero_goes_cold_after_an_idle_spell_in_every_protocol() {
    let mock = start_mock();
    // Three protocols at once, each its own model (the mock keeps a replica per model name):
    // cold at first, warm right after, cold again after more than 1 s idle.
    std::thread::scope(|scope| {
        for protocol in ALL_PROTOCOLS {
            let mock = &mock;
            scope.spawn(move || {
                let model = format!("scale-to-zero@1@400/{}", protocol.name());
                let mut seen = Vec::new();
                for idle_ms in [0, 0, 300, 1_300, 0] {
                    std::thread::sleep(Duration::from_millis(idle_ms));
                    let exchange = exchange(mock, protocol, &model);
                    assert_eq!(exchange.response.status, 200, "{protocol:?}");
                    let (content, _) = texts(protocol, &exchange.json_events());
                    assert_eq!(content, all_content(), "{protocol:?}");
                    let record = exchange.record(mock);
                    assert_eq!(record.script.as_deref(), Some("scale-to-zero@1@400"));
                    let ttft_ms = after_receipt(&record, record.first_token_ms);
                    let scripted = record.scripted_first_token_ms.unwrap();
                    assert!(ttft_ms >= scripted && ttft_ms < scripted + SLACK_MS);
                    seen.push((record.cold.unwrap(), scripted));
                }
                let cold: Vec<bool> = seen.iter().map(|(cold, _)| *cold).collect();
                assert_eq!(cold, [true, false, false, true, false], "{protocol:?}");
                for (cold, scripted) in seen {
                    let warm = if cold { scripted - 400.0 } else { scripted };
                    assert!((110.0..=130.0).contains(&warm), "{protocol:?} {scripted}");
                }
            });
        }
    });
}
