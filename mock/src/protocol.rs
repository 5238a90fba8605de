//! The three wire protocols the mock speaks. Each submodule turns protocol-neutral [`Beat`]s into
//! events of its provider's real JSON shape; nothing outside this module knows those shapes.

pub mod anthropic;
pub mod gemini;
pub mod openai;

use serde_json::Value;

use crate::fidelity::{Answer, Call, ProbeAnswer};
use crate::script::{Beat, CONTENT_TOKENS};
use crate::sse::SseEvent;

/// Which provider API a request used (decided by its route).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// `POST /v1/chat/completions`.
    OpenAi,
    /// `POST /v1/messages`.
    Anthropic,
    /// `POST /v1beta/models/{model}:streamGenerateContent`.
    Gemini,
}

impl Protocol {
    /// The name recorded in the ground truth: `openai`, `anthropic` or `gemini`.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::OpenAi => "openai",
            Protocol::Anthropic => "anthropic",
            Protocol::Gemini => "gemini",
        }
    }
}

/// Which field carries OpenAI-style reasoning deltas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReasoningField {
    /// `reasoning_content` (DeepSeek, vLLM).
    ReasoningContent,
    /// `reasoning` (OpenRouter).
    Reasoning,
}

/// What a reply needs to know about its request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplyContext {
    /// The model name as requested (the script name).
    pub model: String,
    /// The mock's request id, also used in response ids.
    pub request_id: u64,
    /// OpenAI only: the body asked for `stream_options.include_usage`.
    pub include_usage: bool,
    /// The reply reports usage at all. `false` (`prefill-nousage`) leaves every token count
    /// out in every protocol, whatever the body asked: OpenAI's usage chunk (and the `usage`
    /// member of every chunk), Anthropic's `usage` in `message_start` and `message_delta`,
    /// Gemini's `usageMetadata`.
    pub reports_usage: bool,
    /// OpenAI only: where reasoning deltas go.
    pub reasoning_field: ReasoningField,
    /// Cached prompt tokens to report in usage (`cached` script); `None` reports no cache field.
    pub cached_tokens: Option<u32>,
    /// Content deltas in the reply: Gemini marks the last one with its finish reason.
    pub content_tokens: usize,
    /// Prompt tokens the usage reports ([`PROMPT_TOKENS`] unless a fidelity script counts them).
    pub prompt_tokens: u32,
    /// A fidelity probe's answer, which replaces the scripted content tokens.
    pub answer: Option<ProbeAnswer>,
}

impl ReplyContext {
    /// The text of content delta `index`: piece `index` of a probe's text answer, else the
    /// scripted token (long replies repeat them).
    pub fn content_text(&self, index: usize) -> &str {
        match self.answer.as_ref().map(|answer| &answer.answer) {
            Some(Answer::Text(pieces)) => pieces.get(index).map_or("", String::as_str),
            Some(Answer::Call(_)) => "",
            None => CONTENT_TOKENS[index % CONTENT_TOKENS.len()],
        }
    }

    /// The probe answer's function call, if it is one.
    pub fn call(&self) -> Option<&Call> {
        self.answer.as_ref().and_then(ProbeAnswer::call)
    }

    /// Fragment `index` of the call's arguments (`""` past the end or without a call).
    pub fn argument_fragment(&self, index: usize) -> &str {
        self.call()
            .and_then(|call| call.fragments.get(index))
            .map_or("", String::as_str)
    }

    /// Output tokens for the usage block: a probe answer's estimate, else the `counted` deltas
    /// (one token each).
    pub fn output_tokens(&self, counted: u32) -> u32 {
        self.answer
            .as_ref()
            .map_or(counted, |answer| answer.output_tokens)
    }
}

/// What an event carries, so the sender knows when the first token left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carries {
    /// Framing, keep-alive, role-only, empty, usage or error.
    Nothing,
    /// A non-empty content delta.
    Content,
    /// A non-empty reasoning (thinking) delta.
    Reasoning,
}

/// One event ready to be written, with what it carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderedEvent {
    /// The event.
    pub event: SseEvent,
    /// Whether it carries content or reasoning.
    pub carries: Carries,
}

impl RenderedEvent {
    fn framing(event: SseEvent) -> Self {
        RenderedEvent {
            event,
            carries: Carries::Nothing,
        }
    }
}

pub(crate) use crate::leaf::PROMPT_TOKENS;

/// Turns beats into events for one reply, keeping the per-reply state some protocols need
/// (Anthropic's open content block, token counts for usage).
#[derive(Clone, Debug)]
pub enum Renderer {
    /// OpenAI chat-completion chunks.
    OpenAi(openai::ChunkStream),
    /// Anthropic message events.
    Anthropic(anthropic::EventStream),
    /// Gemini `GenerateContentResponse` chunks.
    Gemini(gemini::ChunkStream),
}

impl Renderer {
    /// A renderer for one reply.
    pub fn new(protocol: Protocol, context: ReplyContext) -> Self {
        match protocol {
            Protocol::OpenAi => Renderer::OpenAi(openai::ChunkStream::new(context)),
            Protocol::Anthropic => Renderer::Anthropic(anthropic::EventStream::new(context)),
            Protocol::Gemini => Renderer::Gemini(gemini::ChunkStream::new(context)),
        }
    }

    /// The events for one beat, in write order (possibly none).
    pub fn render(&mut self, beat: Beat) -> Vec<RenderedEvent> {
        match self {
            Renderer::OpenAi(stream) => stream.render(beat),
            Renderer::Anthropic(stream) => stream.render(beat),
            Renderer::Gemini(stream) => stream.render(beat),
        }
    }

    /// The cached prompt tokens the stream's usage reported, if it reported any cache field.
    pub fn reported_cached_tokens(&self) -> Option<u32> {
        match self {
            Renderer::OpenAi(stream) => stream.reported_cached_tokens,
            Renderer::Anthropic(stream) => stream.reported_cached_tokens,
            Renderer::Gemini(stream) => stream.reported_cached_tokens,
        }
    }

    /// The output token count the stream's usage block reported, if one was sent.
    pub fn reported_output_tokens(&self) -> Option<u32> {
        match self {
            Renderer::OpenAi(stream) => stream.reported_output_tokens,
            Renderer::Anthropic(stream) => stream.reported_output_tokens,
            Renderer::Gemini(stream) => stream.reported_output_tokens,
        }
    }

    /// The prompt token count the stream's usage reported, if it sent one.
    pub fn reported_prompt_tokens(&self) -> Option<u32> {
        match self {
            Renderer::OpenAi(stream) => stream.reported_prompt_tokens,
            Renderer::Anthropic(stream) => stream.reported_prompt_tokens,
            Renderer::Gemini(stream) => stream.reported_prompt_tokens,
        }
    }
}

/// The text of the request's user message (the last one, its text parts joined), read from the
/// body the way `protocol` carries it; `None` when it has none.
pub fn user_prompt(protocol: Protocol, body: &Value) -> Option<String> {
    match protocol {
        Protocol::OpenAi => openai::user_prompt(body),
        Protocol::Anthropic => anthropic::user_prompt(body),
        Protocol::Gemini => gemini::user_prompt(body),
    }
}

/// The last `"role": "user"` entry of a `messages` list (OpenAI and Anthropic share the shape):
/// its `content` string, or the `text` of its content parts joined.
pub(crate) fn last_user_message(body: &Value) -> Option<String> {
    let message = body
        .get("messages")?
        .as_array()?
        .iter()
        .rev()
        .find(|message| message.get("role").and_then(Value::as_str) == Some("user"))?;
    match message.get("content")? {
        Value::String(text) => Some(text.clone()),
        Value::Array(parts) => Some(joined_texts(parts)),
        _ => None,
    }
}

/// The `text` members of `parts`, joined.
pub(crate) fn joined_texts(parts: &[Value]) -> String {
    parts
        .iter()
        .filter_map(|part| part.get("text").and_then(Value::as_str))
        .collect()
}

/// The JSON error body `protocol` sends with HTTP `status`, carrying `message`.
pub fn error_body(protocol: Protocol, status: u16, message: &str) -> String {
    match protocol {
        Protocol::OpenAi => openai::error_body(status, message),
        Protocol::Anthropic => anthropic::error_body(status, message),
        Protocol::Gemini => gemini::error_body(status, message),
    }
}

/// The message the `http-*` scripts put in their error body.
pub fn scripted_error_message(status: u16) -> &'static str {
    match status {
        401 => "Invalid API key (mock script http-401).",
        429 => "Rate limit reached (mock script http-429); please try again in 7s.",
        _ => "The server had an error while processing your request (mock script http-500).",
    }
}

/// The ordinary non-streamed completion body (`not-sse` script), with all content tokens.
pub fn complete_body(protocol: Protocol, context: &ReplyContext) -> String {
    match protocol {
        Protocol::OpenAi => openai::complete_body(context),
        Protocol::Anthropic => anthropic::complete_body(context),
        Protocol::Gemini => gemini::complete_body(context),
    }
}

/// All content tokens joined, as the non-streamed bodies carry them.
pub(crate) fn full_text() -> String {
    CONTENT_TOKENS.concat()
}

/// `u32` count of a small collection (token lists are at most a few items).
pub(crate) fn count_u32(count: usize) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fidelity::SUITE;
    use serde_json::json;

    #[test]
    fn the_user_message_is_read_in_each_protocols_shape() {
        let chat = json!({ "messages": [
            { "role": "system", "content": "Be brief." },
            { "role": "user", "content": "first" },
            { "role": "assistant", "content": "ok" },
            { "role": "user", "content": [{ "type": "text", "text": "Say " }, { "type": "text", "text": "hi" }] },
        ]});
        assert_eq!(
            user_prompt(Protocol::OpenAi, &chat).as_deref(),
            Some("Say hi")
        );
        assert_eq!(
            user_prompt(Protocol::Anthropic, &chat).as_deref(),
            Some("Say hi")
        );
        let gemini = json!({ "contents": [
            { "role": "user", "parts": [{ "text": "first" }] },
            { "role": "model", "parts": [{ "text": "ok" }] },
            { "parts": [{ "text": "Say " }, { "text": "hi" }] },
        ]});
        assert_eq!(
            user_prompt(Protocol::Gemini, &gemini).as_deref(),
            Some("Say hi")
        );
        assert_eq!(user_prompt(Protocol::OpenAi, &Value::Null), None);
        assert_eq!(
            user_prompt(Protocol::Gemini, &json!({ "contents": [] })),
            None
        );
    }

    #[test]
    fn a_probe_answer_replaces_the_scripted_text_and_tokens() {
        let probe = SUITE.probe("date-weekday").unwrap();
        let context = ReplyContext {
            model: "faithful".into(),
            request_id: 1,
            include_usage: true,
            reports_usage: true,
            reasoning_field: ReasoningField::ReasoningContent,
            cached_tokens: None,
            content_tokens: 4,
            prompt_tokens: 30,
            answer: Some(ProbeAnswer::new(probe, false)),
        };
        let pieces: Vec<&str> = (0..4).map(|index| context.content_text(index)).collect();
        assert_eq!(pieces, ["Sa", "tur", "d", "ay"]);
        assert_eq!(context.content_text(9), "");
        assert_eq!(context.output_tokens(99), 2);
        assert!(context.call().is_none());
        assert_eq!(context.argument_fragment(0), "");
    }
}
