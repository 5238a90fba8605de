//! Shared helpers: start a mock, send a model request in any protocol, pull text and timings out
//! of the reply.

use std::time::{Duration, Instant};

use firsttoken_mock::protocol::Protocol;
use firsttoken_mock::raw_client::{RawClient, RawResponse, SseItem, parse_sse};
use firsttoken_mock::{GroundTruth, MockConfig, MockHandle, RequestRecord};
use serde_json::{Value, json};

pub const ALL_PROTOCOLS: [Protocol; 3] = [Protocol::OpenAi, Protocol::Anthropic, Protocol::Gemini];

pub fn start_mock() -> MockHandle {
    firsttoken_mock::start(MockConfig::default()).unwrap()
}

/// Method, target, headers and body of a streaming request for `model` in `protocol`.
pub fn request_parts(
    protocol: Protocol,
    model: &str,
) -> (String, Vec<(&'static str, &'static str)>, Vec<u8>) {
    match protocol {
        Protocol::OpenAi => (
            "/v1/chat/completions".into(),
            vec![("Authorization", "Bearer sk-test"), ("Content-Type", "application/json")],
            json!({ "model": model, "stream": true, "stream_options": { "include_usage": true },
                    "messages": [{ "role": "user", "content": "Capital of France?" }] })
            .to_string()
            .into_bytes(),
        ),
        Protocol::Anthropic => (
            "/v1/messages".into(),
            vec![
                ("x-api-key", "sk-ant-test"),
                ("anthropic-version", "2023-06-01"),
                ("Content-Type", "application/json"),
            ],
            json!({ "model": model, "stream": true, "max_tokens": 16,
                    "messages": [{ "role": "user", "content": "Capital of France?" }] })
            .to_string()
            .into_bytes(),
        ),
        Protocol::Gemini => (
            format!("/v1beta/models/{model}:streamGenerateContent?alt=sse"),
            vec![("x-goog-api-key", "AIza-test"), ("Content-Type", "application/json")],
            json!({ "contents": [{ "role": "user", "parts": [{ "text": "Capital of France?" }] }] })
                .to_string()
                .into_bytes(),
        ),
    }
}

/// A reply with when its request left.
pub struct Exchange {
    pub sent_at: Instant,
    pub response: RawResponse,
}

impl Exchange {
    pub fn items(&self) -> Vec<SseItem> {
        parse_sse(&self.response.body())
    }

    pub fn events(&self) -> Vec<(Option<String>, String)> {
        self.items()
            .into_iter()
            .filter_map(|item| match item {
                SseItem::Event { name, data } => Some((name, data)),
                SseItem::Comment(_) => None,
            })
            .collect()
    }

    pub fn json_events(&self) -> Vec<Value> {
        self.events()
            .into_iter()
            .filter(|(_, data)| data != "[DONE]")
            .map(|(_, data)| serde_json::from_str(&data).unwrap())
            .collect()
    }

    pub fn request_id(&self) -> u64 {
        self.response
            .header("x-mock-request-id")
            .unwrap()
            .parse()
            .unwrap()
    }

    /// The ground truth of this request, once the mock has finished recording it.
    pub fn record(&self, mock: &MockHandle) -> RequestRecord {
        mock.wait_for_request(self.request_id(), Duration::from_secs(5))
            .unwrap()
    }
}

pub fn record(truth: &GroundTruth, id: u64) -> RequestRecord {
    truth
        .requests
        .iter()
        .find(|record| record.id == id)
        .unwrap()
        .clone()
}

/// Sends one streaming request for `model` on a fresh connection and reads the whole reply.
pub fn exchange(mock: &MockHandle, protocol: Protocol, model: &str) -> Exchange {
    let mut client = RawClient::connect(mock.address()).unwrap();
    exchange_on(&mut client, protocol, model)
}

pub fn exchange_on(client: &mut RawClient, protocol: Protocol, model: &str) -> Exchange {
    let (target, headers, body) = request_parts(protocol, model);
    let sent_at = client.send("POST", &target, &headers, &body).unwrap();
    let response = client.read_response(false).unwrap();
    Exchange { sent_at, response }
}

/// Content and reasoning text of a stream's events, read the way each protocol defines them.
pub fn texts(protocol: Protocol, events: &[Value]) -> (String, String) {
    let mut content = String::new();
    let mut reasoning = String::new();
    for event in events {
        match protocol {
            Protocol::OpenAi => {
                let delta = &event["choices"][0]["delta"];
                content.push_str(delta["content"].as_str().unwrap_or_default());
                for field in ["reasoning_content", "reasoning"] {
                    reasoning.push_str(delta[field].as_str().unwrap_or_default());
                }
            }
            Protocol::Anthropic => {
                let delta = &event["delta"];
                content.push_str(delta["text"].as_str().unwrap_or_default());
                reasoning.push_str(delta["thinking"].as_str().unwrap_or_default());
            }
            Protocol::Gemini => {
                for part in event["candidates"][0]["content"]["parts"]
                    .as_array()
                    .into_iter()
                    .flatten()
                {
                    let text = part["text"].as_str().unwrap_or_default();
                    if part["thought"] == true {
                        reasoning.push_str(text);
                    } else {
                        content.push_str(text);
                    }
                }
            }
        }
    }
    (content, reasoning)
}

/// When the client had the first non-empty content (or reasoning) text: the arrival of the
/// chunk that completed the first event carrying it.
pub fn first_text_arrival(
    protocol: Protocol,
    response: &RawResponse,
    reasoning: bool,
) -> Option<Instant> {
    let mut seen = Vec::new();
    for chunk in &response.chunks {
        seen.extend_from_slice(&chunk.bytes);
        // Only whole events count: drop any trailing partial event.
        let text = String::from_utf8_lossy(&seen).replace("\r\n", "\n");
        let Some(end) = text.rfind("\n\n") else {
            continue;
        };
        let events: Vec<Value> = parse_sse(&text.as_bytes()[..end + 2])
            .into_iter()
            .filter_map(|item| match item {
                SseItem::Event { data, .. } if data != "[DONE]" => serde_json::from_str(&data).ok(),
                _ => None,
            })
            .collect();
        let (content, thought) = texts(protocol, &events);
        if (reasoning && !thought.is_empty()) || (!reasoning && !content.is_empty()) {
            return Some(chunk.at);
        }
    }
    None
}

/// Milliseconds from the request's receipt to `at_ms`.
pub fn after_receipt(record: &RequestRecord, at_ms: Option<f64>) -> f64 {
    at_ms.unwrap() - record.received_ms
}
