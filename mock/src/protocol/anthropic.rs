//! Anthropic Messages streaming: named events (`message_start`, `content_block_start`, `ping`,
//! `content_block_delta`, `content_block_stop`, `message_delta`, `message_stop`, `error`), with
//! reasoning in a `thinking` block before the `text` block, and a call in a `tool_use` block whose
//! input streams as `input_json_delta` fragments.

use serde_json::{Value, json};

use super::{Carries, RenderedEvent, ReplyContext};
use crate::script::{Beat, CONTENT_TOKENS, REASONING_TOKENS};
use crate::sse::SseEvent;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockKind {
    Thinking,
    Text,
    ToolUse,
}

/// Per-reply state of an Anthropic event stream.
#[derive(Clone, Debug)]
pub struct EventStream {
    context: ReplyContext,
    open_block: Option<(u32, BlockKind)>,
    next_block_index: u32,
    pinged: bool,
    content_deltas: u32,
    reasoning_deltas: u32,
    /// `usage.output_tokens` once `message_delta` was rendered.
    pub reported_output_tokens: Option<u32>,
    /// `usage.cache_read_input_tokens` once `message_start` was rendered.
    pub reported_cached_tokens: Option<u32>,
    /// The prompt count `message_start` reported (`input_tokens` plus the cache reads and
    /// writes), once rendered.
    pub reported_prompt_tokens: Option<u32>,
}

/// The request's user message: the last `messages` entry with role `user`.
pub fn user_prompt(body: &Value) -> Option<String> {
    super::last_user_message(body)
}

fn event(name: &'static str, data: serde_json::Value) -> RenderedEvent {
    RenderedEvent::framing(SseEvent::named(name, data.to_string()))
}

/// A `content_block_delta` of block `block` carrying `delta`.
fn block_delta(block: u32, delta: serde_json::Value, carries: Carries) -> RenderedEvent {
    RenderedEvent {
        event: SseEvent::named(
            "content_block_delta",
            json!({ "type": "content_block_delta", "index": block, "delta": delta }).to_string(),
        ),
        carries,
    }
}

impl EventStream {
    /// A stream for one reply.
    pub fn new(context: ReplyContext) -> Self {
        EventStream {
            context,
            open_block: None,
            next_block_index: 0,
            pinged: false,
            content_deltas: 0,
            reasoning_deltas: 0,
            reported_output_tokens: None,
            reported_cached_tokens: None,
            reported_prompt_tokens: None,
        }
    }

    /// Closes the open block (if any) and opens one of `kind`, returning the events and the
    /// index of the block now open.
    fn ensure_block(&mut self, kind: BlockKind, events: &mut Vec<RenderedEvent>) -> u32 {
        if let Some((index, open_kind)) = self.open_block {
            if open_kind == kind {
                return index;
            }
            self.close_block(events);
        }
        let index = self.next_block_index;
        self.next_block_index += 1;
        let block = match kind {
            BlockKind::Thinking => json!({ "type": "thinking", "thinking": "" }),
            BlockKind::Text => json!({ "type": "text", "text": "" }),
            BlockKind::ToolUse => json!({
                "type": "tool_use",
                "id": format!("toolu_mock_{}", self.context.request_id),
                "name": self.context.call().map_or("", |call| call.name.as_str()),
                "input": {},
            }),
        };
        let start =
            json!({ "type": "content_block_start", "index": index, "content_block": block });
        events.push(RenderedEvent {
            event: SseEvent::named("content_block_start", start.to_string()),
            // A `tool_use` block's start names the function: the client's first token when
            // the reply is a call.
            carries: if kind == BlockKind::ToolUse {
                Carries::Content
            } else {
                Carries::Nothing
            },
        });
        // The real API pings once, right after the first block opens.
        if !self.pinged {
            self.pinged = true;
            events.push(event("ping", json!({ "type": "ping" })));
        }
        self.open_block = Some((index, kind));
        index
    }

    fn close_block(&mut self, events: &mut Vec<RenderedEvent>) {
        if let Some((index, kind)) = self.open_block.take() {
            if kind == BlockKind::Thinking {
                events.push(event(
                    "content_block_delta",
                    json!({ "type": "content_block_delta", "index": index,
                            "delta": { "type": "signature_delta", "signature": "bW9jaw==" } }),
                ));
            }
            events.push(event(
                "content_block_stop",
                json!({ "type": "content_block_stop", "index": index }),
            ));
        }
    }

    /// The events for one beat.
    pub fn render(&mut self, beat: Beat) -> Vec<RenderedEvent> {
        let mut events = Vec::new();
        match beat {
            Beat::KeepAlive => {
                events.push(RenderedEvent::framing(SseEvent::Comment(
                    "keep-alive".into(),
                )));
            }
            Beat::Start => {
                let prompt_tokens = self.context.prompt_tokens;
                let mut usage = json!({ "input_tokens": prompt_tokens, "output_tokens": 1 });
                if let Some(cached) = self.context.cached_tokens {
                    // A hit reads from the cache; a miss writes the prompt to it. Anthropic's
                    // three counts add up to the prompt, so the written tokens are not also
                    // uncached input.
                    let written = if cached == 0 { prompt_tokens } else { 0 };
                    usage["input_tokens"] =
                        json!(prompt_tokens - cached.min(prompt_tokens) - written);
                    usage["cache_read_input_tokens"] = json!(cached);
                    usage["cache_creation_input_tokens"] = json!(written);
                }
                let mut message = json!({
                    "id": format!("msg_mock_{}", self.context.request_id),
                    "type": "message",
                    "role": "assistant",
                    "model": self.context.model,
                    "content": [],
                    "stop_reason": null,
                    "stop_sequence": null,
                });
                if self.context.reports_usage {
                    message["usage"] = usage;
                    self.reported_cached_tokens = self.context.cached_tokens;
                    self.reported_prompt_tokens = Some(prompt_tokens);
                }
                events.push(event(
                    "message_start",
                    json!({ "type": "message_start", "message": message }),
                ));
            }
            Beat::Empty => {
                self.pinged = true;
                events.push(event("ping", json!({ "type": "ping" })));
            }
            Beat::Reasoning(index) => {
                let block = self.ensure_block(BlockKind::Thinking, &mut events);
                let text = REASONING_TOKENS.get(index).copied().unwrap_or_default();
                self.reasoning_deltas += 1;
                events.push(block_delta(
                    block,
                    json!({ "type": "thinking_delta", "thinking": text }),
                    Carries::Reasoning,
                ));
            }
            Beat::Content(index) => {
                let block = self.ensure_block(BlockKind::Text, &mut events);
                let text = self.context.content_text(index);
                self.content_deltas += 1;
                events.push(block_delta(
                    block,
                    json!({ "type": "text_delta", "text": text }),
                    Carries::Content,
                ));
            }
            Beat::ToolCall => {
                self.ensure_block(BlockKind::ToolUse, &mut events);
            }
            Beat::ToolArguments(index) => {
                let block = self.ensure_block(BlockKind::ToolUse, &mut events);
                let fragment = self.context.argument_fragment(index);
                events.push(block_delta(
                    block,
                    json!({ "type": "input_json_delta", "partial_json": fragment }),
                    Carries::Content,
                ));
            }
            Beat::Finish => {
                self.close_block(&mut events);
                let output_tokens = self
                    .context
                    .output_tokens(self.content_deltas + self.reasoning_deltas);
                let stop_reason = if self.context.call().is_some() {
                    "tool_use"
                } else {
                    "end_turn"
                };
                let mut delta = json!({ "type": "message_delta",
                        "delta": { "stop_reason": stop_reason, "stop_sequence": null } });
                if self.context.reports_usage {
                    delta["usage"] = json!({ "output_tokens": output_tokens });
                    self.reported_output_tokens = Some(output_tokens);
                }
                events.push(event("message_delta", delta));
                events.push(event("message_stop", json!({ "type": "message_stop" })));
            }
            Beat::ErrorEvent => events.push(event(
                "error",
                json!({ "type": "error",
                        "error": { "type": "overloaded_error", "message": "Overloaded" } }),
            )),
        }
        events
    }
}

/// Anthropic's error body: `{"type":"error","error":{"type","message"}}`.
pub fn error_body(status: u16, message: &str) -> String {
    let kind = match status {
        400 => "invalid_request_error",
        401 => "authentication_error",
        404 => "not_found_error",
        429 => "rate_limit_error",
        529 => "overloaded_error",
        _ => "api_error",
    };
    json!({ "type": "error", "error": { "type": kind, "message": message } }).to_string()
}

/// A non-streamed `message` object.
pub fn complete_body(context: &ReplyContext) -> String {
    json!({
        "id": format!("msg_mock_{}", context.request_id),
        "type": "message",
        "role": "assistant",
        "model": context.model,
        "content": [{ "type": "text", "text": super::full_text() }],
        "stop_reason": "end_turn",
        "stop_sequence": null,
        "usage": {
            "input_tokens": context.prompt_tokens,
            "output_tokens": super::count_u32(CONTENT_TOKENS.len()),
        },
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ReasoningField;

    fn stream() -> EventStream {
        EventStream::new(ReplyContext {
            model: "reasoning".into(),
            request_id: 1,
            include_usage: false,
            reports_usage: true,
            reasoning_field: ReasoningField::ReasoningContent,
            cached_tokens: None,
            content_tokens: CONTENT_TOKENS.len(),
            prompt_tokens: crate::protocol::PROMPT_TOKENS,
            answer: None,
        })
    }

    fn names(events: &[RenderedEvent]) -> Vec<&'static str> {
        events
            .iter()
            .map(|rendered| match &rendered.event {
                SseEvent::Data { name, .. } => name.unwrap_or("(none)"),
                SseEvent::Comment(_) => "(comment)",
            })
            .collect()
    }

    #[test]
    fn thinking_then_text_blocks_in_the_real_order() {
        let mut stream = stream();
        let mut all = stream.render(Beat::Start);
        all.extend(stream.render(Beat::Reasoning(0)));
        all.extend(stream.render(Beat::Reasoning(1)));
        all.extend(stream.render(Beat::Content(0)));
        all.extend(stream.render(Beat::Content(1)));
        all.extend(stream.render(Beat::Finish));
        assert_eq!(
            names(&all),
            vec![
                "message_start",
                "content_block_start",
                "ping",
                "content_block_delta",
                "content_block_delta",
                "content_block_delta", // signature
                "content_block_stop",
                "content_block_start",
                "content_block_delta",
                "content_block_delta",
                "content_block_stop",
                "message_delta",
                "message_stop",
            ]
        );
        let carried: Vec<Carries> = all.iter().map(|rendered| rendered.carries).collect();
        assert_eq!(
            carried.iter().filter(|c| **c == Carries::Reasoning).count(),
            2
        );
        assert_eq!(
            carried.iter().filter(|c| **c == Carries::Content).count(),
            2
        );
        assert_eq!(stream.reported_output_tokens, Some(4));
    }

    #[test]
    fn a_call_is_a_tool_use_block_of_input_json_deltas_stopped_by_tool_use() {
        let probe = crate::fidelity::SUITE.probe("tool-currency-named").unwrap();
        let answer = crate::fidelity::ProbeAnswer::new(probe, false);
        let fragments = answer.call().unwrap().fragments.len();
        let mut stream = EventStream::new(ReplyContext {
            prompt_tokens: 40,
            answer: Some(answer),
            ..stream().context
        });
        let mut all = stream.render(Beat::Start);
        all.extend(stream.render(Beat::ToolCall));
        for index in 0..fragments {
            all.extend(stream.render(Beat::ToolArguments(index)));
        }
        all.extend(stream.render(Beat::Finish));
        let data: Vec<serde_json::Value> = all
            .iter()
            .map(|rendered| match &rendered.event {
                SseEvent::Data { data, .. } => serde_json::from_str(data).unwrap(),
                SseEvent::Comment(_) => panic!("a comment"),
            })
            .collect();
        assert_eq!(data[0]["message"]["usage"]["input_tokens"], 40);
        assert_eq!(data[1]["content_block"]["type"], "tool_use");
        assert_eq!(data[1]["content_block"]["name"], "convert_currency");
        assert_eq!(data[1]["content_block"]["input"], serde_json::json!({}));
        assert_eq!(all[1].carries, Carries::Content);
        let partial: String = data
            .iter()
            .filter(|event| event["delta"]["type"] == "input_json_delta")
            .map(|event| event["delta"]["partial_json"].as_str().unwrap())
            .collect();
        assert_eq!(partial, r#"{"amount": 1000, "from": "JPY", "to": "GBP"}"#);
        let names = names(&all);
        assert_eq!(
            names[names.len() - 3..],
            ["content_block_stop", "message_delta", "message_stop"]
        );
        assert_eq!(data[data.len() - 2]["delta"]["stop_reason"], "tool_use");
        assert_eq!(stream.reported_prompt_tokens, Some(40));
    }

    #[test]
    fn error_event_is_overloaded() {
        let events = stream().render(Beat::ErrorEvent);
        let SseEvent::Data { name, data } = &events[0].event else {
            panic!("not data");
        };
        assert_eq!(*name, Some("error"));
        let body: serde_json::Value = serde_json::from_str(data).unwrap();
        assert_eq!(body["error"]["type"], "overloaded_error");
    }

    #[test]
    fn auth_error_body() {
        let body: serde_json::Value = serde_json::from_str(&error_body(401, "bad key")).unwrap();
        assert_eq!(body["type"], "error");
        assert_eq!(body["error"]["type"], "authentication_error");
        assert_eq!(body["error"]["message"], "bad key");
    }
}
