//! OpenAI-compatible chat completions: `data: {chunk}` events, a role-only first chunk, content in
//! `choices[0].delta.content` (a call in `delta.tool_calls`: the name first, then the arguments'
//! JSON text in fragments), an optional usage chunk with empty `choices`, then `data: [DONE]`.

use serde_json::{Value, json};

use super::{Carries, ReasoningField, RenderedEvent, ReplyContext};
use crate::script::{Beat, CONTENT_TOKENS, REASONING_TOKENS};
use crate::sse::SseEvent;

/// A fixed `created` timestamp (s): the mock never reads the wall clock, so replies are
/// byte-for-byte reproducible.
const CREATED_S: u64 = 1_700_000_000;

/// Per-reply state of an OpenAI chunk stream.
#[derive(Clone, Debug)]
pub struct ChunkStream {
    context: ReplyContext,
    content_deltas: u32,
    reasoning_deltas: u32,
    /// `usage.completion_tokens` once the usage chunk was rendered.
    pub reported_output_tokens: Option<u32>,
    /// `usage.prompt_tokens_details.cached_tokens` once the usage chunk was rendered.
    pub reported_cached_tokens: Option<u32>,
    /// `usage.prompt_tokens` once the usage chunk was rendered.
    pub reported_prompt_tokens: Option<u32>,
}

/// The request's user message: the last `messages` entry with role `user`.
pub fn user_prompt(body: &Value) -> Option<String> {
    super::last_user_message(body)
}

impl ChunkStream {
    /// A stream for one reply.
    pub fn new(context: ReplyContext) -> Self {
        ChunkStream {
            context,
            content_deltas: 0,
            reasoning_deltas: 0,
            reported_output_tokens: None,
            reported_cached_tokens: None,
            reported_prompt_tokens: None,
        }
    }

    /// Whether the stream carries usage: asked for, and a script that reports it (a server
    /// that counts nothing sends no `usage` member even when asked).
    fn sends_usage(&self) -> bool {
        self.context.include_usage && self.context.reports_usage
    }

    fn chunk(&self, choices: Value, usage: Option<Value>) -> String {
        let mut chunk = json!({
            "id": format!("chatcmpl-mock-{}", self.context.request_id),
            "object": "chat.completion.chunk",
            "created": CREATED_S,
            "model": self.context.model,
            "choices": choices,
        });
        // Like the real API: with include_usage every chunk has `usage`, null until the last.
        if self.sends_usage() {
            chunk["usage"] = usage.unwrap_or(Value::Null);
        }
        chunk.to_string()
    }

    fn delta_chunk(&self, delta: Value) -> String {
        self.chunk(
            json!([{ "index": 0, "delta": delta, "logprobs": null, "finish_reason": null }]),
            None,
        )
    }

    /// The events for one beat.
    pub fn render(&mut self, beat: Beat) -> Vec<RenderedEvent> {
        match beat {
            Beat::KeepAlive => vec![RenderedEvent::framing(SseEvent::Comment(
                "keep-alive".into(),
            ))],
            Beat::Start => vec![RenderedEvent::framing(SseEvent::data(
                self.delta_chunk(json!({ "role": "assistant", "content": "" })),
            ))],
            Beat::Empty => vec![RenderedEvent::framing(SseEvent::data(
                self.delta_chunk(json!({ "content": "" })),
            ))],
            Beat::Reasoning(index) => {
                let text = REASONING_TOKENS.get(index).copied().unwrap_or_default();
                self.reasoning_deltas += 1;
                // DeepSeek sends `content: null` beside `reasoning_content`; OpenRouter sends
                // an empty string beside `reasoning`. Both must be read as "no content yet".
                let delta = match self.context.reasoning_field {
                    ReasoningField::ReasoningContent => {
                        json!({ "content": null, "reasoning_content": text })
                    }
                    ReasoningField::Reasoning => json!({ "content": "", "reasoning": text }),
                };
                vec![RenderedEvent {
                    event: SseEvent::data(self.delta_chunk(delta)),
                    carries: Carries::Reasoning,
                }]
            }
            Beat::Content(index) => {
                self.content_deltas += 1;
                let delta = json!({ "content": self.context.content_text(index) });
                vec![RenderedEvent {
                    event: SseEvent::data(self.delta_chunk(delta)),
                    carries: Carries::Content,
                }]
            }
            // The first delta of a call names it and brings its id; the arguments follow in
            // later deltas of the same `index`, as the real API streams them.
            Beat::ToolCall => {
                let name = self.context.call().map_or("", |call| call.name.as_str());
                let delta = json!({ "tool_calls": [{
                    "index": 0,
                    "id": format!("call_mock_{}", self.context.request_id),
                    "type": "function",
                    "function": { "name": name, "arguments": "" },
                }]});
                vec![RenderedEvent {
                    event: SseEvent::data(self.delta_chunk(delta)),
                    carries: Carries::Content,
                }]
            }
            Beat::ToolArguments(index) => {
                let fragment = self.context.argument_fragment(index);
                let delta =
                    json!({ "tool_calls": [{ "index": 0, "function": { "arguments": fragment } }] });
                vec![RenderedEvent {
                    event: SseEvent::data(self.delta_chunk(delta)),
                    carries: Carries::Content,
                }]
            }
            Beat::Finish => {
                let reason = if self.context.call().is_some() {
                    "tool_calls"
                } else {
                    "stop"
                };
                let mut events = vec![RenderedEvent::framing(SseEvent::data(self.chunk(
                    json!([{ "index": 0, "delta": {}, "logprobs": null, "finish_reason": reason }]),
                    None,
                )))];
                if self.sends_usage() {
                    let prompt_tokens = self.context.prompt_tokens;
                    let completion_tokens = self
                        .context
                        .output_tokens(self.content_deltas + self.reasoning_deltas);
                    let mut usage = json!({
                        "prompt_tokens": prompt_tokens,
                        "completion_tokens": completion_tokens,
                        "total_tokens": prompt_tokens.saturating_add(completion_tokens),
                        "completion_tokens_details": { "reasoning_tokens": self.reasoning_deltas },
                    });
                    if let Some(cached) = self.context.cached_tokens {
                        usage["prompt_tokens_details"] = json!({ "cached_tokens": cached });
                        self.reported_cached_tokens = Some(cached);
                    }
                    events.push(RenderedEvent::framing(SseEvent::data(
                        self.chunk(json!([]), Some(usage)),
                    )));
                    self.reported_output_tokens = Some(completion_tokens);
                    self.reported_prompt_tokens = Some(prompt_tokens);
                }
                events.push(RenderedEvent::framing(SseEvent::data("[DONE]")));
                events
            }
            Beat::ErrorEvent => vec![RenderedEvent::framing(SseEvent::data(
                json!({ "error": {
                    "message": "The server had an error while processing your request (mock script error-event).",
                    "type": "server_error",
                    "param": null,
                    "code": null,
                }})
                .to_string(),
            ))],
        }
    }
}

/// OpenAI's error body: `{"error":{"message","type","param","code"}}`.
pub fn error_body(status: u16, message: &str) -> String {
    let (kind, code) = match status {
        401 => ("invalid_request_error", json!("invalid_api_key")),
        429 => ("requests", json!("rate_limit_exceeded")),
        400 | 404 => ("invalid_request_error", json!("model_not_found")),
        _ => ("server_error", Value::Null),
    };
    json!({ "error": { "message": message, "type": kind, "param": null, "code": code } })
        .to_string()
}

/// A non-streamed `chat.completion` object.
pub fn complete_body(context: &ReplyContext) -> String {
    let completion_tokens = super::count_u32(CONTENT_TOKENS.len());
    json!({
        "id": format!("chatcmpl-mock-{}", context.request_id),
        "object": "chat.completion",
        "created": CREATED_S,
        "model": context.model,
        "choices": [{
            "index": 0,
            "message": { "role": "assistant", "content": super::full_text() },
            "logprobs": null,
            "finish_reason": "stop",
        }],
        "usage": {
            "prompt_tokens": context.prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": context.prompt_tokens.saturating_add(completion_tokens),
        },
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::PROMPT_TOKENS;

    fn context(include_usage: bool, reasoning_field: ReasoningField) -> ReplyContext {
        ReplyContext {
            model: "fixed".into(),
            request_id: 3,
            include_usage,
            reports_usage: true,
            reasoning_field,
            cached_tokens: None,
            content_tokens: CONTENT_TOKENS.len(),
            prompt_tokens: PROMPT_TOKENS,
            answer: None,
        }
    }

    fn data_json(event: &RenderedEvent) -> Value {
        match &event.event {
            SseEvent::Data { data, .. } => serde_json::from_str(data).unwrap(),
            other => panic!("not data: {other:?}"),
        }
    }

    #[test]
    fn start_is_a_role_only_chunk() {
        let mut stream = ChunkStream::new(context(false, ReasoningField::ReasoningContent));
        let events = stream.render(Beat::Start);
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].carries, Carries::Nothing);
        let chunk = data_json(&events[0]);
        assert_eq!(chunk["choices"][0]["delta"]["role"], "assistant");
        assert_eq!(chunk["choices"][0]["delta"]["content"], "");
        assert!(chunk.get("usage").is_none());
    }

    #[test]
    fn finish_with_usage_reports_the_tokens_sent() {
        let mut stream = ChunkStream::new(context(true, ReasoningField::Reasoning));
        stream.render(Beat::Reasoning(0));
        for (index, token) in CONTENT_TOKENS.iter().take(3).enumerate() {
            let events = stream.render(Beat::Content(index));
            assert_eq!(events[0].carries, Carries::Content);
            assert_eq!(
                data_json(&events[0])["choices"][0]["delta"]["content"],
                *token
            );
        }
        let events = stream.render(Beat::Finish);
        assert_eq!(events.len(), 3);
        assert_eq!(data_json(&events[0])["choices"][0]["finish_reason"], "stop");
        let usage = data_json(&events[1]);
        assert_eq!(usage["choices"], json!([]));
        assert_eq!(usage["usage"]["completion_tokens"], 4);
        assert_eq!(events[2].event, SseEvent::data("[DONE]"));
        assert_eq!(stream.reported_output_tokens, Some(4));
    }

    #[test]
    fn a_cache_hit_reports_cached_prompt_tokens_in_usage() {
        let mut stream = ChunkStream::new(ReplyContext {
            cached_tokens: Some(8),
            content_tokens: CONTENT_TOKENS.len(),
            ..context(true, ReasoningField::ReasoningContent)
        });
        let usage = data_json(&stream.render(Beat::Finish)[1]);
        assert_eq!(usage["usage"]["prompt_tokens_details"]["cached_tokens"], 8);
        assert_eq!(stream.reported_cached_tokens, Some(8));
        let mut plain = ChunkStream::new(context(true, ReasoningField::ReasoningContent));
        let usage = data_json(&plain.render(Beat::Finish)[1]);
        assert!(usage["usage"].get("prompt_tokens_details").is_none());
        assert_eq!(plain.reported_cached_tokens, None);
    }

    #[test]
    fn a_call_streams_its_name_then_argument_fragments_and_ends_with_tool_calls() {
        let probe = crate::fidelity::SUITE.probe("tool-weather-auto").unwrap();
        let answer = crate::fidelity::ProbeAnswer::new(probe, false);
        let fragments = answer.call().unwrap().fragments.len();
        let mut stream = ChunkStream::new(ReplyContext {
            prompt_tokens: 21,
            answer: Some(answer),
            ..context(true, ReasoningField::ReasoningContent)
        });
        let opening = stream.render(Beat::ToolCall);
        assert_eq!(opening[0].carries, Carries::Content);
        let call = &data_json(&opening[0])["choices"][0]["delta"]["tool_calls"][0];
        assert_eq!(call["index"], 0);
        assert_eq!(call["type"], "function");
        assert_eq!(call["id"], "call_mock_3");
        assert_eq!(call["function"]["name"], "get_weather");
        let mut arguments = String::new();
        for index in 0..fragments {
            let events = stream.render(Beat::ToolArguments(index));
            let delta = &data_json(&events[0])["choices"][0]["delta"]["tool_calls"][0];
            assert!(delta["function"].get("name").is_none());
            arguments.push_str(delta["function"]["arguments"].as_str().unwrap());
        }
        assert_eq!(arguments, r#"{"city": "Paris", "unit": "celsius"}"#);
        let finish = stream.render(Beat::Finish);
        assert_eq!(
            data_json(&finish[0])["choices"][0]["finish_reason"],
            "tool_calls"
        );
        assert_eq!(data_json(&finish[1])["usage"]["prompt_tokens"], 21);
        assert_eq!(stream.reported_prompt_tokens, Some(21));
    }

    #[test]
    fn reasoning_field_follows_the_context() {
        let mut deepseek = ChunkStream::new(context(false, ReasoningField::ReasoningContent));
        let chunk = data_json(&deepseek.render(Beat::Reasoning(1))[0]);
        assert_eq!(chunk["choices"][0]["delta"]["reasoning_content"], " about");
        let mut openrouter = ChunkStream::new(context(false, ReasoningField::Reasoning));
        let chunk = data_json(&openrouter.render(Beat::Reasoning(1))[0]);
        assert_eq!(chunk["choices"][0]["delta"]["reasoning"], " about");
    }

    #[test]
    fn error_body_shape() {
        let body: Value = serde_json::from_str(&error_body(429, "slow down")).unwrap();
        assert_eq!(body["error"]["message"], "slow down");
        assert_eq!(body["error"]["code"], "rate_limit_exceeded");
        assert!(body["error"].get("type").is_some());
    }
}
