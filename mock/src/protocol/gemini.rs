//! Gemini `streamGenerateContent?alt=sse`: `data: {GenerateContentResponse}` chunks with text in
//! `candidates[0].content.parts[].text`, `thought: true` parts for reasoning, `finishReason` and
//! `usageMetadata` on the last chunk; the stream simply ends with the body.

use serde_json::{Value, json};

use super::{Carries, PROMPT_TOKENS, RenderedEvent, ReplyContext};
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
            let mut usage = json!({
                "promptTokenCount": PROMPT_TOKENS,
                "candidatesTokenCount": self.content_deltas,
                "totalTokenCount": PROMPT_TOKENS + self.content_deltas + self.reasoning_deltas,
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
                let text = CONTENT_TOKENS[index % CONTENT_TOKENS.len()];
                self.content_deltas += 1;
                let last = index + 1 == self.context.content_tokens;
                if last {
                    self.reported_output_tokens = Some(self.content_deltas);
                    self.reported_cached_tokens = self.cached_tokens_to_report();
                }
                vec![RenderedEvent {
                    event: SseEvent::data(self.chunk(json!({ "text": text }), last)),
                    carries: Carries::Content,
                }]
            }
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
            "promptTokenCount": PROMPT_TOKENS,
            "candidatesTokenCount": candidates_tokens,
            "totalTokenCount": PROMPT_TOKENS + candidates_tokens,
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
            reasoning_field: ReasoningField::ReasoningContent,
            cached_tokens: None,
            content_tokens: CONTENT_TOKENS.len(),
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
    fn error_body_shape() {
        let body: Value = serde_json::from_str(&error_body(429, "quota")).unwrap();
        assert_eq!(body["error"]["code"], 429);
        assert_eq!(body["error"]["status"], "RESOURCE_EXHAUSTED");
        assert_eq!(body["error"]["message"], "quota");
    }
}
