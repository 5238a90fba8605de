//! Anthropic Messages streaming: named events (`message_start`, `content_block_start`, `ping`,
//! `content_block_delta`, `content_block_stop`, `message_delta`, `message_stop`, `error`), with
//! reasoning in a `thinking` block before the `text` block.

use serde_json::json;

use super::{Carries, PROMPT_TOKENS, RenderedEvent, ReplyContext};
use crate::script::{Beat, CONTENT_TOKENS, REASONING_TOKENS};
use crate::sse::SseEvent;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockKind {
    Thinking,
    Text,
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
}

fn event(name: &'static str, data: serde_json::Value) -> RenderedEvent {
    RenderedEvent::framing(SseEvent::named(name, data.to_string()))
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
        };
        events.push(event(
            "content_block_start",
            json!({ "type": "content_block_start", "index": index, "content_block": block }),
        ));
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
                let mut usage = json!({ "input_tokens": PROMPT_TOKENS, "output_tokens": 1 });
                if let Some(cached) = self.context.cached_tokens {
                    // A hit reads from the cache; a miss writes the prompt to it.
                    usage["input_tokens"] = json!(PROMPT_TOKENS - cached.min(PROMPT_TOKENS));
                    usage["cache_read_input_tokens"] = json!(cached);
                    usage["cache_creation_input_tokens"] =
                        json!(if cached == 0 { PROMPT_TOKENS } else { 0 });
                    self.reported_cached_tokens = Some(cached);
                }
                events.push(event(
                    "message_start",
                    json!({ "type": "message_start", "message": {
                        "id": format!("msg_mock_{}", self.context.request_id),
                        "type": "message",
                        "role": "assistant",
                        "model": self.context.model,
                        "content": [],
                        "stop_reason": null,
                        "stop_sequence": null,
                        "usage": usage,
                    }}),
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
                events.push(RenderedEvent {
                    event: SseEvent::named(
                        "content_block_delta",
                        json!({ "type": "content_block_delta", "index": block,
                                "delta": { "type": "thinking_delta", "thinking": text } })
                        .to_string(),
                    ),
                    carries: Carries::Reasoning,
                });
            }
            Beat::Content(index) => {
                let block = self.ensure_block(BlockKind::Text, &mut events);
                let text = CONTENT_TOKENS[index % CONTENT_TOKENS.len()];
                self.content_deltas += 1;
                events.push(RenderedEvent {
                    event: SseEvent::named(
                        "content_block_delta",
                        json!({ "type": "content_block_delta", "index": block,
                                "delta": { "type": "text_delta", "text": text } })
                        .to_string(),
                    ),
                    carries: Carries::Content,
                });
            }
            Beat::Finish => {
                self.close_block(&mut events);
                let output_tokens = self.content_deltas + self.reasoning_deltas;
                events.push(event(
                    "message_delta",
                    json!({ "type": "message_delta",
                            "delta": { "stop_reason": "end_turn", "stop_sequence": null },
                            "usage": { "output_tokens": output_tokens } }),
                ));
                events.push(event("message_stop", json!({ "type": "message_stop" })));
                self.reported_output_tokens = Some(output_tokens);
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
            "input_tokens": PROMPT_TOKENS,
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
            reasoning_field: ReasoningField::ReasoningContent,
            cached_tokens: None,
            content_tokens: CONTENT_TOKENS.len(),
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
