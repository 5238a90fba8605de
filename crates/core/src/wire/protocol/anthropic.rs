//! The Anthropic Messages protocol (`POST {base}/v1/messages`).
//!
//! Stream shape: `message_start`, then per content block
//! `content_block_start`, `content_block_delta` (`text_delta` or
//! `thinking_delta`), `content_block_stop`; `message_delta` carries the
//! usage, `message_stop` ends it; `ping` may come at any time and `error`
//! reports a failure inside a 200 stream. Only text and thinking deltas are
//! tokens.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    Ask, DecodeState, HttpRequest, MalformedEvent, Message, ModelsRequest, StreamEvent, TokenCount,
    base_url, body_text, error_value_message, misfit_member_of, tool_schema, typed_event,
};
use crate::planning::fidelity::suite::ToolChoice;
use crate::planning::plan::Target;
use crate::wire::sse::SseEvent;

/// The API version every request names.
const ANTHROPIC_VERSION: &str = "2023-06-01";

/// The headers every request carries. Anthropic answers browser requests
/// only when `anthropic-dangerous-direct-browser-access` says the caller
/// knows the key is exposed to the page (it is the user's own key).
#[cfg_attr(target_arch = "wasm32", inline)]
fn common_headers(key: Option<&str>) -> Vec<(String, String)> {
    let mut headers = Vec::with_capacity(4);
    if let Some(key) = key {
        headers.push(("x-api-key".to_owned(), key.to_owned()));
    }
    headers.push(("anthropic-version".to_owned(), ANTHROPIC_VERSION.to_owned()));
    headers.push((
        "anthropic-dangerous-direct-browser-access".to_owned(),
        "true".to_owned(),
    ));
    headers
}

/// The Messages body: one user message, streamed.
#[derive(Serialize)]
struct RequestBody<'a> {
    model: &'a str,
    max_tokens: u32,
    temperature: f64,
    stream: bool,
    messages: [Message<'a>; 1],
    /// Functions offered (a fidelity probe's).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<ToolSpec<'a>>,
    /// `{"type":"auto"|"any"}` or `{"type":"tool","name"}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_choice: Option<Value>,
}

/// `{name, description, input_schema}`.
#[derive(Serialize)]
struct ToolSpec<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: Value,
}

/// `POST {base}/v1/messages`, streamed.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn build_request(target: &Target, ask: &Ask<'_>, key: Option<&str>) -> HttpRequest {
    let mut headers = common_headers(key);
    headers.push(("content-type".to_owned(), "application/json".to_owned()));
    let (tools, choice) = ask.tools.unzip();
    let body = RequestBody {
        model: target.model.trim(),
        max_tokens: ask.max_tokens,
        temperature: ask.temperature,
        stream: true,
        messages: [Message {
            role: "user",
            content: &ask.prompt,
        }],
        tools: tools
            .unwrap_or_default()
            .iter()
            .map(|tool| ToolSpec {
                name: tool.name,
                description: tool.description,
                input_schema: tool_schema(tool),
            })
            .collect(),
        tool_choice: choice.map(|choice| match choice {
            ToolChoice::Auto => serde_json::json!({"type": "auto"}),
            ToolChoice::Required => serde_json::json!({"type": "any"}),
            ToolChoice::Named(name) => serde_json::json!({"type": "tool", "name": name}),
        }),
    };
    HttpRequest {
        url: format!("{}/v1/messages", base_url(target)),
        headers,
        body: body_text(&body),
    }
}

/// `GET {base}/v1/models`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn models_request(target: &Target, key: Option<&str>) -> ModelsRequest {
    ModelsRequest {
        url: format!("{}/v1/models", base_url(target)),
        headers: common_headers(key),
    }
}

/// `data[].id` of a models list.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn parse_models(body: &str) -> Vec<String> {
    super::data_ids(body)
}

/// The message of an error body:
/// `{"type":"error","error":{"type":"…","message":"…"}}`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn error_body_message(body: &str) -> Option<String> {
    let value: Value = serde_json::from_str(body).ok()?;
    match value.get("error") {
        Some(error) if !error.is_null() => error_value_message(error),
        _ => value
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_owned),
    }
}

/// Decodes one event.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn decode_event(
    event: &SseEvent,
    out: &mut Vec<StreamEvent>,
    state: &mut DecodeState,
) -> Result<(), MalformedEvent> {
    let data = event.data.trim();
    if data.is_empty() {
        return Ok(());
    }
    let typed: Event = typed_event(data)?;
    // The data's own `type` is authoritative; the SSE event name repeats it.
    let kind = typed
        .kind
        .as_deref()
        .or(event.event.as_deref())
        .unwrap_or_default();
    match kind {
        "message_start" => {
            if let Some(usage) = typed.message.and_then(|message| message.usage) {
                push_usage(&usage, false, out);
            }
        }
        "content_block_delta" => {
            let Some(delta) = typed.delta else {
                return Ok(());
            };
            let text = |field: Option<Cow<'_, str>>| {
                field.filter(|text| !text.is_empty()).map(Cow::into_owned)
            };
            match delta.kind.as_deref() {
                Some("text_delta") => out.extend(text(delta.text).map(StreamEvent::Content)),
                Some("thinking_delta") => {
                    out.extend(text(delta.thinking).map(StreamEvent::Reasoning));
                }
                // A `tool_use` block's input streams as JSON fragments.
                Some("input_json_delta") => {
                    if let Some(fragment) = text(delta.partial_json) {
                        out.push(StreamEvent::ToolCallArguments {
                            index: typed.index.unwrap_or(0),
                            fragment,
                        });
                    }
                }
                // `signature_delta`, `citations_delta`.
                _ => {}
            }
        }
        "content_block_start" => {
            if let Some(block) = typed.content_block
                && block.kind.as_deref() == Some("tool_use")
            {
                out.push(StreamEvent::ToolCallStart {
                    index: typed.index.unwrap_or(0),
                    name: block.name.map(Cow::into_owned).unwrap_or_default(),
                });
            }
        }
        "message_delta" => {
            if let Some(reason) = typed
                .delta
                .and_then(|delta| delta.stop_reason)
                .filter(|reason| !reason.is_empty())
            {
                out.push(StreamEvent::Finish(reason.into_owned()));
            }
            if let Some(usage) = &typed.usage {
                push_usage(usage, true, out);
            }
        }
        "message_stop" => {
            state.completed = true;
            out.push(StreamEvent::End);
        }
        "error" => {
            let message = typed
                .error
                .as_ref()
                .and_then(error_value_message)
                .unwrap_or_else(|| "the provider sent an error event without a message".to_owned());
            out.push(StreamEvent::ProviderError(message));
        }
        // `content_block_stop`, `ping`, and any event
        // type added later: not tokens.
        _ => {}
    }
    Ok(())
}

/// The counts of a `usage` block: output tokens (in `message_delta`, where
/// `output` says the count is the reply's), the prompt (Anthropic splits it
/// into `input_tokens`, uncached, plus cache reads and writes: the prompt is
/// their sum) and the cache reads.
#[cfg_attr(target_arch = "wasm32", inline)]
fn push_usage(usage: &Usage, output: bool, out: &mut Vec<StreamEvent>) {
    if output && let Some(tokens) = usage.output_tokens.0 {
        out.push(StreamEvent::Usage {
            output_tokens: tokens,
        });
    }
    if let Some(input) = usage.input_tokens.0 {
        let tokens = input
            .saturating_add(usage.cache_read_input_tokens.0.unwrap_or(0))
            .saturating_add(usage.cache_creation_input_tokens.0.unwrap_or(0));
        out.push(StreamEvent::PromptTokens { tokens });
    }
    if let Some(tokens) = usage.cache_read_input_tokens.0 {
        out.push(StreamEvent::CachedPrompt { tokens });
    }
}

/// Where `data` stops fitting this protocol's event type (see
/// [`super::misfit_member`]).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn misfit_member(data: &str) -> Option<(String, String)> {
    misfit_member_of::<Event<'_>>(data)
}

/// What an event's decoding reads; serde skips every other member. `error`
/// varies between servers, so it stays a tree.
#[derive(Deserialize)]
struct Event<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    delta: Option<Delta<'a>>,
    /// The content block an event belongs to.
    #[serde(default)]
    index: Option<u32>,
    #[serde(borrow, default)]
    content_block: Option<ContentBlock<'a>>,
    #[serde(default)]
    message: Option<MessageStart>,
    #[serde(default)]
    usage: Option<Usage>,
    #[serde(default)]
    error: Option<Value>,
}

/// `content_block_delta.delta` (and `message_delta.delta`, read for nothing).
#[derive(Deserialize)]
struct Delta<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    text: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    thinking: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    partial_json: Option<Cow<'a, str>>,
    /// `message_delta.delta.stop_reason`.
    #[serde(borrow, default)]
    stop_reason: Option<Cow<'a, str>>,
}

/// `content_block_start.content_block`.
#[derive(Deserialize)]
struct ContentBlock<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
}

/// `message_start.message`.
#[derive(Deserialize)]
struct MessageStart {
    #[serde(default)]
    usage: Option<Usage>,
}

/// A `usage` block.
#[derive(Deserialize)]
struct Usage {
    #[serde(default)]
    input_tokens: TokenCount,
    #[serde(default)]
    output_tokens: TokenCount,
    #[serde(default)]
    cache_read_input_tokens: TokenCount,
    #[serde(default)]
    cache_creation_input_tokens: TokenCount,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planning::plan::Plan;
    use crate::planning::plan::Protocol;
    use crate::wire::protocol::{
        build_request as build, http_error_message, models_request, parse_models as parse, tests,
    };

    fn target() -> Target {
        tests::target(
            Protocol::Anthropic,
            "https://api.anthropic.com",
            "claude-haiku-4-5",
        )
    }

    fn decode(events: &[(&str, &str)]) -> (Vec<StreamEvent>, bool) {
        let named: Vec<(Option<&str>, &str)> = events
            .iter()
            .map(|(name, data)| (Some(*name), *data))
            .collect();
        tests::decode_all(Protocol::Anthropic, &named)
    }

    #[test]
    fn request_headers_and_body() {
        let plan = Plan {
            max_tokens: 50,
            ..Plan::default()
        };
        let request = build(&target(), &plan, Some("sk-ant-x"), None);
        assert_eq!(request.url, "https://api.anthropic.com/v1/messages");
        assert_eq!(
            request.headers,
            vec![
                ("x-api-key".to_owned(), "sk-ant-x".to_owned()),
                ("anthropic-version".to_owned(), "2023-06-01".to_owned()),
                (
                    "anthropic-dangerous-direct-browser-access".to_owned(),
                    "true".to_owned()
                ),
                ("content-type".to_owned(), "application/json".to_owned()),
            ]
        );
        let body: serde_json::Value = serde_json::from_str(&request.body).unwrap();
        assert_eq!(body["model"], "claude-haiku-4-5");
        assert_eq!(body["stream"], true);
        assert_eq!(body["max_tokens"], 50);
        assert_eq!(body["temperature"], 0.0);
        assert_eq!(body["messages"][0]["content"], plan.prompt);
    }

    #[test]
    fn cache_reads_in_message_start_or_message_delta() {
        let (events, _) = decode(&[(
            "message_start",
            r#"{"type":"message_start","message":{"id":"m","usage":{"input_tokens":4,"cache_creation_input_tokens":0,"cache_read_input_tokens":2048,"output_tokens":1}}}"#,
        )]);
        // Anthropic's `input_tokens` leaves out cache reads and writes: the
        // prompt is their sum.
        assert_eq!(
            events,
            [
                StreamEvent::PromptTokens { tokens: 2052 },
                StreamEvent::CachedPrompt { tokens: 2048 }
            ]
        );
        let (events, _) = decode(&[(
            "message_delta",
            r#"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9,"cache_read_input_tokens":0}}"#,
        )]);
        assert_eq!(
            events,
            [
                StreamEvent::Finish("end_turn".to_owned()),
                StreamEvent::Usage { output_tokens: 9 },
                StreamEvent::CachedPrompt { tokens: 0 }
            ]
        );
    }

    #[test]
    fn a_full_stream_with_thinking() {
        let (events, completed) = decode(&[
            (
                "message_start",
                r#"{"type":"message_start","message":{"id":"m","usage":{"input_tokens":10,"output_tokens":1}}}"#,
            ),
            (
                "content_block_start",
                r#"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}"#,
            ),
            ("ping", r#"{"type": "ping"}"#),
            (
                "content_block_delta",
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me"}}"#,
            ),
            (
                "content_block_delta",
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"abc"}}"#,
            ),
            (
                "content_block_stop",
                r#"{"type":"content_block_stop","index":0}"#,
            ),
            (
                "content_block_delta",
                r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":""}}"#,
            ),
            (
                "content_block_delta",
                r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Paris"}}"#,
            ),
            (
                "message_delta",
                r#"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":15}}"#,
            ),
        ]);
        assert_eq!(
            events,
            vec![
                StreamEvent::PromptTokens { tokens: 10 },
                StreamEvent::Reasoning("Let me".to_owned()),
                StreamEvent::Content("Paris".to_owned()),
                StreamEvent::Finish("end_turn".to_owned()),
                StreamEvent::Usage { output_tokens: 15 },
            ]
        );
        assert!(!completed, "message_delta is not the end");
        let (events, completed) = decode(&[("message_stop", r#"{"type":"message_stop"}"#)]);
        assert_eq!(events, vec![StreamEvent::End]);
        assert!(completed);
    }

    #[test]
    fn error_event_and_error_body() {
        let (events, _) = decode(&[(
            "error",
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
        )]);
        assert_eq!(
            events,
            vec![StreamEvent::ProviderError("Overloaded".to_owned())]
        );
        assert_eq!(
            http_error_message(
                Protocol::Anthropic,
                401,
                r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#
            ),
            "HTTP 401 from provider: invalid x-api-key"
        );
    }

    #[test]
    fn models_list() {
        let request = models_request(&target(), Some("k")).unwrap();
        assert_eq!(request.url, "https://api.anthropic.com/v1/models");
        assert!(
            request
                .headers
                .contains(&("x-api-key".to_owned(), "k".to_owned()))
        );
        let body = r#"{"data":[{"id":"claude-sonnet-4-5","type":"model"},{"id":"claude-haiku-4-5"}],"has_more":false}"#;
        assert_eq!(
            parse(Protocol::Anthropic, body),
            vec!["claude-haiku-4-5", "claude-sonnet-4-5"]
        );
    }
}
