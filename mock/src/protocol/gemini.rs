//! Gemini `streamGenerateContent?alt=sse`: `data: {GenerateContentResponse}` chunks with text in
//! `candidates[0].content.parts[].text`, `thought: true` parts for reasoning, `finishReason` and
//! `usageMetadata` on the last chunk; the stream simply ends with the body. A call is one
//! `functionCall` part, arguments and all: Gemini never streams a call in pieces.

use serde_json::{Value, json};

use super::{Carries, RenderedEvent, ReplyContext};
use crate::script::{Beat, CONTENT_TOKENS, REASONING_TOKENS};
use crate::sse::SseEvent;

/// Per-reply state of a Gemini chunk stream.
#[derive(Clone, Debug)]
pub struct ChunkStream {
    context: ReplyContext,
    content_deltas: u32,
    reasoning_deltas: u32,
    /// `usageMetadata.candidatesTokenCount` once the last chunk was rendered.
    pub reported_output_tokens: Option<u32>,
    /// `usageMetadata.cachedContentTokenCount` once the last chunk was rendered (Gemini sends
    /// the field only when something came from the cache).
    pub reported_cached_tokens: Option<u32>,
    /// `usageMetadata.promptTokenCount` once the last chunk was rendered.
    pub reported_prompt_tokens: Option<u32>,
}

/// The request's user turn: the last `contents` entry whose role is `user` (or unset, which
/// the API reads as the user), its text parts joined.
pub fn user_prompt(body: &Value) -> Option<String> {
    let turn = body
        .get("contents")?
        .as_array()?
        .iter()
        .rev()
        .find(|turn| {
            turn.get("role")
                .and_then(Value::as_str)
                .is_none_or(|role| role == "user")
        })?;
    Some(super::joined_texts(turn.get("parts")?.as_array()?))
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

    fn cached_tokens_to_report(&self) -> Option<u32> {
        self.context.cached_tokens.filter(|&cached| cached > 0)
    }

    fn chunk(&self, part: Value, finished: bool) -> String {
        let mut candidate = json!({ "content": { "parts": [part], "role": "model" }, "index": 0 });
        let mut chunk = json!({
            "candidates": [],
            "modelVersion": self.context.model,
            "responseId": format!("mock-{}", self.context.request_id),
        });
        if finished {
            candidate["finishReason"] = json!("STOP");
        }
        if finished && self.context.reports_usage {
            let prompt_tokens = self.context.prompt_tokens;
            let candidates_tokens = self.context.output_tokens(self.content_deltas);
            let mut usage = json!({
                "promptTokenCount": prompt_tokens,
                "candidatesTokenCount": candidates_tokens,
                "totalTokenCount": prompt_tokens
                    .saturating_add(candidates_tokens)
                    .saturating_add(self.reasoning_deltas),
            });
            if self.reasoning_deltas > 0 {
                usage["thoughtsTokenCount"] = json!(self.reasoning_deltas);
            }
            if let Some(cached) = self.cached_tokens_to_report() {
                usage["cachedContentTokenCount"] = json!(cached);
            }
            chunk["usageMetadata"] = usage;
        }
        chunk["candidates"] = json!([candidate]);
        chunk.to_string()
    }

    /// Notes what the last chunk's usage reports, for the ground truth.
    fn record_usage(&mut self) {
        if !self.context.reports_usage {
            return;
        }
        self.reported_output_tokens = Some(self.context.output_tokens(self.content_deltas));
        self.reported_cached_tokens = self.cached_tokens_to_report();
        self.reported_prompt_tokens = Some(self.context.prompt_tokens);
    }

    /// The events for one beat.
    pub fn render(&mut self, beat: Beat) -> Vec<RenderedEvent> {
        match beat {
            Beat::KeepAlive => vec![RenderedEvent::framing(SseEvent::Comment(
                "keep-alive".into(),
            ))],
            // Gemini has no opening event: the first chunk already carries text.
            Beat::Start | Beat::Finish => Vec::new(),
            Beat::Empty => vec![RenderedEvent::framing(SseEvent::data(
                self.chunk(json!({ "text": "" }), false),
            ))],
            Beat::Reasoning(index) => {
                let text = REASONING_TOKENS.get(index).copied().unwrap_or_default();
                self.reasoning_deltas += 1;
                vec![RenderedEvent {
                    event: SseEvent::data(
                        self.chunk(json!({ "text": text, "thought": true }), false),
                    ),
                    carries: Carries::Reasoning,
                }]
            }
            Beat::Content(index) => {
                self.content_deltas += 1;
                let last = index + 1 == self.context.content_tokens;
                if last {
                    self.record_usage();
                }
                let part = json!({ "text": self.context.content_text(index) });
                vec![RenderedEvent {
                    event: SseEvent::data(self.chunk(part, last)),
                    carries: Carries::Content,
                }]
            }
            // The whole call in one part, on the reply's last chunk (what Gemini sends for a
            // call: `finishReason` is `STOP`, as for text).
            Beat::ToolCall => {
                let Some(call) = self.context.call() else {
                    return Vec::new();
                };
                let part = json!({ "functionCall": { "name": call.name, "args": call.args } });
                self.record_usage();
                vec![RenderedEvent {
                    event: SseEvent::data(self.chunk(part, true)),
                    carries: Carries::Content,
                }]
            }
            Beat::ToolArguments(_) => Vec::new(),
            Beat::ErrorEvent => vec![RenderedEvent::framing(SseEvent::data(
                json!({ "error": {
                    "code": 503,
                    "message": "The model is overloaded. Please try again later.",
                    "status": "UNAVAILABLE",
                }})
                .to_string(),
            ))],
        }
    }
}

/// Google's error body: `{"error":{"code","message","status"}}`.
pub fn error_body(status: u16, message: &str) -> String {
    let status_name = match status {
        400 => "INVALID_ARGUMENT",
        401 => "UNAUTHENTICATED",
        403 => "PERMISSION_DENIED",
        404 => "NOT_FOUND",
        429 => "RESOURCE_EXHAUSTED",
        503 => "UNAVAILABLE",
        _ => "INTERNAL",
    };
    json!({ "error": { "code": status, "message": message, "status": status_name } }).to_string()
}

/// A non-streamed `GenerateContentResponse`.
pub fn complete_body(context: &ReplyContext) -> String {
    let candidates_tokens = super::count_u32(CONTENT_TOKENS.len());
    json!({
        "candidates": [{
            "content": { "parts": [{ "text": super::full_text() }], "role": "model" },
            "finishReason": "STOP",
            "index": 0,
        }],
        "usageMetadata": {
            "promptTokenCount": context.prompt_tokens,
            "candidatesTokenCount": candidates_tokens,
            "totalTokenCount": context.prompt_tokens.saturating_add(candidates_tokens),
        },
        "modelVersion": context.model,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ReasoningField;

    fn data_json(event: &RenderedEvent) -> Value {
        match &event.event {
            SseEvent::Data { data, .. } => serde_json::from_str(data).unwrap(),
            other => panic!("not data: {other:?}"),
        }
    }

    #[test]
    fn thoughts_then_text_with_usage_on_the_last_chunk() {
        let mut stream = ChunkStream::new(ReplyContext {
            model: "reasoning".into(),
            request_id: 9,
            include_usage: false,
            reports_usage: true,
            reasoning_field: ReasoningField::ReasoningContent,
            cached_tokens: None,
            content_tokens: CONTENT_TOKENS.len(),
            prompt_tokens: crate::protocol::PROMPT_TOKENS,
            answer: None,
        });
        assert!(stream.render(Beat::Start).is_empty());
        let thought = data_json(&stream.render(Beat::Reasoning(0))[0]);
        assert_eq!(
            thought["candidates"][0]["content"]["parts"][0]["thought"],
            true
        );
        let mut last = Value::Null;
        for index in 0..CONTENT_TOKENS.len() {
            let events = stream.render(Beat::Content(index));
            assert_eq!(events[0].carries, Carries::Content);
            last = data_json(&events[0]);
            if index + 1 < CONTENT_TOKENS.len() {
                assert!(last["candidates"][0].get("finishReason").is_none());
            }
        }
        assert_eq!(last["candidates"][0]["finishReason"], "STOP");
        assert_eq!(last["usageMetadata"]["candidatesTokenCount"], 8);
        assert_eq!(last["usageMetadata"]["thoughtsTokenCount"], 1);
        assert!(stream.render(Beat::Finish).is_empty());
        assert_eq!(stream.reported_output_tokens, Some(8));
    }

    #[test]
    fn a_call_is_one_function_call_part_on_the_last_chunk() {
        let probe = crate::fidelity::SUITE.probe("tool-weather-zh").unwrap();
        let mut stream = ChunkStream::new(ReplyContext {
            model: "faithful".into(),
            request_id: 2,
            include_usage: false,
            reports_usage: true,
            reasoning_field: ReasoningField::ReasoningContent,
            cached_tokens: None,
            content_tokens: 0,
            prompt_tokens: 17,
            answer: Some(crate::fidelity::ProbeAnswer::new(probe, false)),
        });
        let events = stream.render(Beat::ToolCall);
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].carries, Carries::Content);
        let chunk = data_json(&events[0]);
        let call = &chunk["candidates"][0]["content"]["parts"][0]["functionCall"];
        assert_eq!(call["name"], "get_weather");
        assert_eq!(
            call["args"],
            json!({ "city": "Beijing", "unit": "celsius" })
        );
        assert_eq!(chunk["candidates"][0]["finishReason"], "STOP");
        assert_eq!(chunk["usageMetadata"]["promptTokenCount"], 17);
        assert!(stream.render(Beat::ToolArguments(0)).is_empty());
        assert!(stream.render(Beat::Finish).is_empty());
        assert_eq!(stream.reported_prompt_tokens, Some(17));
    }

    #[test]
    fn error_body_shape() {
        let body: Value = serde_json::from_str(&error_body(429, "quota")).unwrap();
        assert_eq!(body["error"]["code"], 429);
        assert_eq!(body["error"]["status"], "RESOURCE_EXHAUSTED");
        assert_eq!(body["error"]["message"], "quota");
    }
}
