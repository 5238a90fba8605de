//! Faults: HTTP errors, in-stream errors, cut and stalled streams, non-SSE replies, unknown
//! scripts.

use std::io::ErrorKind;
use std::net::Shutdown;
use std::time::{Duration, Instant};

use firsttoken_mock::Outcome;
use firsttoken_mock::protocol::Protocol;
use firsttoken_mock::raw_client::RawClient;
use firsttoken_mock::script::CONTENT_TOKENS;
use serde_json::Value;

use super::support::*;

fn body_json(exchange: &Exchange) -> Value {
    serde_json::from_slice(&exchange.response.body()).unwrap()
}

#[test]
fn http_errors_use_each_protocols_error_shape() {
    let mock = start_mock();
    for status in [401_u16, 429, 500] {
        for protocol in ALL_PROTOCOLS {
            let exchange = exchange(&mock, protocol, &format!("http-{status}"));
            let response = &exchange.response;
            assert_eq!(response.status, status, "{protocol:?}");
            assert_eq!(response.header("content-type"), Some("application/json"));
            assert_eq!(response.header("access-control-allow-origin"), Some("*"));
            assert_eq!(
                response.header("retry-after"),
                (status == 429).then_some("7"),
                "{protocol:?} {status}"
            );
            let body = body_json(&exchange);
            match protocol {
                Protocol::OpenAi => {
                    assert!(body["error"]["message"].as_str().unwrap().contains("http-"));
                    assert!(body["error"]["type"].is_string());
                    assert!(body["error"].get("code").is_some());
                }
                Protocol::Anthropic => {
                    assert_eq!(body["type"], "error");
                    let kind = body["error"]["type"].as_str().unwrap();
                    let expected = match status {
                        401 => "authentication_error",
                        429 => "rate_limit_error",
                        _ => "api_error",
                    };
                    assert_eq!(kind, expected);
                    assert!(body["error"]["message"].is_string());
                }
                Protocol::Gemini => {
                    assert_eq!(body["error"]["code"], status);
                    assert!(body["error"]["message"].is_string());
                    assert!(body["error"]["status"].is_string());
                }
            }
            let record = exchange.record(&mock);
            assert_eq!(record.status, status);
            assert_eq!(record.first_token_ms, None);
            assert_eq!(record.outcome, Outcome::Complete);
        }
    }
}

#[test]
fn error_event_arrives_inside_a_200_stream() {
    let mock = start_mock();
    for protocol in ALL_PROTOCOLS {
        let exchange = exchange(&mock, protocol, "error-event");
        assert_eq!(exchange.response.status, 200);
        assert!(
            exchange.response.complete,
            "the stream ends properly after the error"
        );
        let events = exchange.events();
        assert_eq!(events.len(), 1, "{protocol:?}: {events:?}");
        let (name, data) = &events[0];
        let error: Value = serde_json::from_str(data).unwrap();
        match protocol {
            Protocol::OpenAi => {
                assert_eq!(*name, None);
                assert_eq!(error["error"]["type"], "server_error");
                assert!(error["error"]["message"].is_string());
            }
            Protocol::Anthropic => {
                assert_eq!(name.as_deref(), Some("error"));
                assert_eq!(error["type"], "error");
                assert_eq!(error["error"]["type"], "overloaded_error");
                assert_eq!(error["error"]["message"], "Overloaded");
            }
            Protocol::Gemini => {
                assert_eq!(*name, None);
                assert!(error["error"]["code"].is_number());
                assert!(error["error"]["status"].is_string());
            }
        }
        let record = exchange.record(&mock);
        assert_eq!(record.first_token_ms, None);
        assert!(after_receipt(&record, record.first_byte_ms) >= 100.0);
    }
}

#[test]
fn cut_closes_the_socket_without_the_terminator() {
    let mock = start_mock();
    for protocol in ALL_PROTOCOLS {
        let exchange = exchange(&mock, protocol, "cut@20");
        assert_eq!(exchange.response.status, 200);
        assert!(!exchange.response.complete, "{protocol:?}");
        let (content, _) = texts(protocol, &exchange.json_events());
        assert_eq!(content, CONTENT_TOKENS[..2].concat());
        let record = exchange.record(&mock);
        assert_eq!(record.outcome, Outcome::Cut);
        assert_eq!(record.content_deltas, 2);
        assert_eq!(record.output_tokens, None);
        assert!(after_receipt(&record, record.first_token_ms) >= 20.0);
        assert!(record.end_ms >= record.first_token_ms);
    }
}

#[test]
fn stall_sends_headers_then_nothing_until_the_client_leaves() {
    let mock = start_mock();
    for protocol in ALL_PROTOCOLS {
        let mut client = RawClient::connect(mock.address()).unwrap();
        let (target, headers, body) = request_parts(protocol, "stall");
        client.send("POST", &target, &headers, &body).unwrap();
        let (status, response_headers) = client.read_head().unwrap();
        assert_eq!(status, 200);
        assert!(
            response_headers
                .iter()
                .any(|(name, _)| name == "x-mock-request-id")
        );
        client
            .stream()
            .set_read_timeout(Some(Duration::from_millis(400)))
            .unwrap();
        let error = client.read_chunk().unwrap_err();
        assert!(
            matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut),
            "{error}"
        );
        let id: u64 = response_headers
            .iter()
            .find(|(name, _)| name == "x-mock-request-id")
            .unwrap()
            .1
            .parse()
            .unwrap();
        assert_eq!(
            record(&mock.ground_truth(), id).outcome,
            Outcome::InProgress
        );
        client.stream().shutdown(Shutdown::Both).unwrap();
        drop(client);
        // The mock notices within its poll interval.
        let waited_from = Instant::now();
        let record = mock.wait_for_request(id, Duration::from_secs(5)).unwrap();
        assert_eq!(
            record.outcome,
            Outcome::ClientGone,
            "stall never noticed the client leaving"
        );
        assert!(waited_from.elapsed() < Duration::from_secs(2));
        assert_eq!(record.first_byte_ms, None);
        assert!(record.end_ms.unwrap() - record.received_ms >= 400.0);
    }
}

#[test]
fn not_sse_is_an_ordinary_json_completion() {
    let mock = start_mock();
    for protocol in ALL_PROTOCOLS {
        let exchange = exchange(&mock, protocol, "not-sse@10");
        let response = &exchange.response;
        assert_eq!(response.status, 200);
        assert_eq!(response.header("content-type"), Some("application/json"));
        assert!(response.header("transfer-encoding").is_none());
        let body = body_json(&exchange);
        let text = match protocol {
            Protocol::OpenAi => body["choices"][0]["message"]["content"].clone(),
            Protocol::Anthropic => body["content"][0]["text"].clone(),
            Protocol::Gemini => body["candidates"][0]["content"]["parts"][0]["text"].clone(),
        };
        assert_eq!(text, CONTENT_TOKENS.concat());
        let record = exchange.record(&mock);
        assert_eq!(record.first_token_ms, None);
        assert!(after_receipt(&record, record.first_byte_ms) >= 10.0);
    }
}

#[test]
fn unknown_script_is_a_400_that_lists_the_scripts() {
    let mock = start_mock();
    for protocol in ALL_PROTOCOLS {
        let exchange = exchange(&mock, protocol, "gpt-4o");
        assert_eq!(exchange.response.status, 400);
        let text = exchange.response.body_text();
        assert!(
            text.contains("unknown mock script 'gpt-4o'; known scripts: fixed, bimodal"),
            "{text}"
        );
        assert!(serde_json::from_str::<Value>(&text).is_ok());
        let record = exchange.record(&mock);
        assert_eq!(record.status, 400);
        assert_eq!(record.script, None);
        assert_eq!(record.model.as_deref(), Some("gpt-4o"));
    }
}

#[test]
fn a_body_without_model_or_json_is_refused() {
    let mock = start_mock();
    let mut client = RawClient::connect(mock.address()).unwrap();
    let response = client
        .request("POST", "/v1/chat/completions", &[], b"{\"stream\":true}")
        .unwrap();
    assert_eq!(response.status, 400);
    assert!(response.body_text().contains("no model"));
    let response = client
        .request("POST", "/v1/messages", &[], b"not json")
        .unwrap();
    assert_eq!(response.status, 400);
    assert!(response.body_text().contains("not valid JSON"));
    let truth = mock.settled_ground_truth(Duration::from_secs(5));
    assert_eq!(truth.requests.len(), 2);
    assert_eq!(truth.requests[0].auth, "none");
}
