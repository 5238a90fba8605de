//! The three wire protocols the mock speaks. Each submodule turns protocol-neutral [`Beat`]s into
//! events of its provider's real JSON shape; nothing outside this module knows those shapes.

pub mod anthropic;
pub mod gemini;
pub mod openai;

use crate::script::Beat;
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
    /// OpenAI only: where reasoning deltas go.
    pub reasoning_field: ReasoningField,
    /// Cached prompt tokens to report in usage (`cached` script); `None` reports no cache field.
    pub cached_tokens: Option<u32>,
    /// Content deltas in the reply: Gemini marks the last one with its finish reason.
    pub content_tokens: usize,
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

/// Prompt size reported in usage blocks; the mock does not tokenize the prompt.
pub(crate) const PROMPT_TOKENS: u32 = 12;

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
    crate::script::CONTENT_TOKENS.concat()
}

/// `u32` count of a small collection (token lists are at most a few items).
pub(crate) fn count_u32(count: usize) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}
