//! The three wire protocols a target can speak, behind one small interface:
//! build the request, turn server-sent events into [`StreamEvent`]s, and
//! explain an error body.
//!
//! Each protocol's JSON lives in its own submodule ([`openai`],
//! [`anthropic`], [`gemini`]); nothing outside this module knows those
//! shapes, so the measurement code sees only "content", "reasoning",
//! "usage", "provider error" and "end".
//!
//! Requests carry only the headers each provider's CORS policy allows: no
//! custom `User-Agent`, nothing extra, because a header the provider does
//! not list in `Access-Control-Allow-Headers` makes the browser block the
//! request before it is sent.

pub mod anthropic;
pub mod gemini;
pub mod openai;

use std::fmt;

use std::borrow::Cow;

use crate::base::document::error_path;
use crate::base::failure::{ErrorKind, SampleError};
use crate::base::lang::Lang;
use crate::planning::fidelity::suite::{Probe, Tool, ToolChoice};
use crate::planning::plan::{Plan, Protocol, Target};
use crate::planning::schedule::PlannedRequest;
use crate::wire::demo::DEMO_MODELS;
use crate::wire::sse::SseEvent;
use crate::words::failure::{blocked_request_text, error_kind_words};
use crate::words::notice;
use serde::Serialize;
use serde_json::Value;

/// A request to send with `fetch()`; always a `POST` with a JSON body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpRequest {
    /// Full URL. Never contains a key.
    pub url: String,
    /// Header names and values, exactly as sent.
    pub headers: Vec<(String, String)>,
    /// JSON body.
    pub body: String,
}

/// A `GET` request listing a provider's models.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelsRequest {
    /// Full URL. Never contains a key.
    pub url: String,
    /// Header names and values, exactly as sent.
    pub headers: Vec<(String, String)>,
}

/// What one server-sent event meant, in protocol-neutral terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StreamEvent {
    /// A non-empty piece of the answer.
    Content(String),
    /// A non-empty piece of reasoning / thinking.
    Reasoning(String),
    /// The provider's count of output tokens so far (the last one wins).
    Usage {
        /// Output (completion) tokens.
        output_tokens: u32,
    },
    /// The provider's count of the prompt's tokens, cached ones included
    /// (the last one wins).
    PromptTokens {
        /// Prompt (input) tokens.
        tokens: u32,
    },
    /// The provider's count of prompt tokens it served from its prompt
    /// cache (the last one wins; 0 is a reported miss).
    CachedPrompt {
        /// Cached prompt tokens.
        tokens: u32,
    },
    /// The provider reported an error inside the stream; the message is
    /// the provider's own words.
    ProviderError(String),
    /// A function call starts at the stream's index `index` (OpenAI's
    /// `tool_calls[].index`, Anthropic's content block, Gemini's part).
    ToolCallStart {
        /// Which call.
        index: u32,
        /// The function's name.
        name: String,
    },
    /// A fragment of a call's JSON arguments (fragments join in order;
    /// Gemini sends them whole).
    ToolCallArguments {
        /// Which call.
        index: u32,
        /// The fragment.
        fragment: String,
    },
    /// Why the reply ended, as the protocol says it (`finish_reason`,
    /// `stop_reason`, `finishReason`).
    Finish(String),
    /// The protocol's end-of-stream marker (`[DONE]`, `message_stop`).
    End,
}

/// An event whose data could not be understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MalformedEvent {
    /// Why it could not be understood, in plain words.
    pub reason: String,
    /// The start of the event's data, for the error message.
    pub snippet: String,
}

impl MalformedEvent {
    /// A malformed-event error quoting the start of `data`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub(crate) fn new(reason: impl Into<String>, data: &str) -> Self {
        Self {
            reason: reason.into(),
            snippet: snippet(data, 80),
        }
    }
}

impl fmt::Display for MalformedEvent {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: `{}`", self.reason, self.snippet)
    }
}

impl std::error::Error for MalformedEvent {}

/// Turns one target's server-sent events into [`StreamEvent`]s, and keeps
/// track of whether the stream reached its proper end.
#[derive(Clone, Debug)]
pub struct EventDecoder {
    protocol: Protocol,
    state: DecodeState,
}

/// What a protocol's decoder remembers between events.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DecodeState {
    /// The stream said it is complete.
    pub completed: bool,
    /// Function calls seen so far (Gemini numbers its calls by order).
    pub calls: u32,
}

impl EventDecoder {
    /// A decoder for a fresh stream of `protocol` (the demo provider speaks
    /// the OpenAI format).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn new(protocol: Protocol) -> Self {
        Self {
            protocol,
            state: DecodeState::default(),
        }
    }

    /// Decodes one event, appending what it meant to `out`.
    ///
    /// # Errors
    /// [`MalformedEvent`] when the event's data is not the JSON the protocol
    /// sends. Empty (keep-alive) events are never an error.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn on_event(
        &mut self,
        event: &SseEvent,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), MalformedEvent> {
        match self.protocol {
            Protocol::OpenAi | Protocol::Demo => openai::decode_event(event, out, &mut self.state),
            Protocol::Anthropic => anthropic::decode_event(event, out, &mut self.state),
            Protocol::Gemini => gemini::decode_event(event, out, &mut self.state),
        }
    }

    /// Whether the stream said it is complete: OpenAI `[DONE]` or a
    /// `finish_reason`, Anthropic `message_stop`, Gemini a `finishReason`.
    /// A body that ends before this is a cut stream.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn completed(&self) -> bool {
        self.state.completed
    }

    /// The marker a complete stream of this protocol ends with, for messages.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn end_marker(&self) -> &'static str {
        match self.protocol {
            Protocol::OpenAi | Protocol::Demo => "`data: [DONE]` or a `finish_reason`",
            Protocol::Anthropic => "`message_stop`",
            Protocol::Gemini => "a `finishReason`",
        }
    }
}

/// The protocol's name as people say it, for messages.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn protocol_name(protocol: Protocol) -> &'static str {
    match protocol {
        Protocol::OpenAi => "OpenAI-compatible",
        Protocol::Anthropic => "Anthropic Messages",
        Protocol::Gemini => "Gemini",
        Protocol::Demo => "demo (OpenAI-compatible)",
    }
}

/// A provider's own message made safe to show and store: one line, at most
/// 300 characters, keys redacted, lowercase-led.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn clean_provider_message(message: &str) -> String {
    let message = snippet(message, 300);
    if message.is_empty() {
        return "no message".to_owned();
    }
    lowercase_led(&redact_secrets(&message))
}

/// The prompt text actually sent: the plan's prompt, after the nonce and a
/// line break when a nonce is given. The nonce goes first because prefix
/// caches serve a prompt's longest beginning seen before: at the end it
/// left the whole prompt to the cache ([`crate::planning::prompt`] says more).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn prompt_text(plan: &Plan, nonce: Option<&str>) -> String {
    match nonce {
        Some(nonce) => format!("{nonce}\n{}", plan.prompt),
        None => plan.prompt.clone(),
    }
}

/// What one request asks, in protocol-neutral terms: each protocol module
/// writes it in its own JSON.
#[derive(Clone, Debug)]
pub(crate) struct Ask<'a> {
    /// The one user message.
    pub prompt: Cow<'a, str>,
    /// The reply's token limit.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: f64,
    /// Functions offered, and how they may be used; `None` offers none.
    pub tools: Option<(&'static [Tool], ToolChoice)>,
}

impl<'a> Ask<'a> {
    /// The plan's latency request.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub(crate) fn of_plan(plan: &'a Plan, nonce: Option<&str>) -> Self {
        Self {
            prompt: match nonce {
                Some(_) => Cow::Owned(prompt_text(plan, nonce)),
                None => Cow::Borrowed(&plan.prompt),
            },
            max_tokens: plan.max_tokens,
            temperature: plan.temperature,
            tools: None,
        }
    }

    /// A fidelity probe: its own prompt and limit, temperature 0, never a
    /// nonce (identical requests are what `prompt_tokens` compares).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub(crate) fn of_probe(probe: &Probe) -> Self {
        Self {
            prompt: probe.prompt(),
            max_tokens: probe.max_tokens,
            temperature: 0.0,
            tools: probe.tool_choice.map(|choice| (probe.tools(), choice)),
        }
    }
}

/// A function's JSON schema as a tree (the suite's schemas are tested to
/// parse).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn tool_schema(tool: &Tool) -> Value {
    serde_json::from_str(tool.parameters).unwrap_or(Value::Null)
}

/// One chat message of a request body (OpenAI and Anthropic share the shape).
#[derive(Serialize)]
pub(crate) struct Message<'a> {
    pub role: &'a str,
    pub content: &'a str,
}

/// A request body as JSON text; the bodies are plain structs of strings and
/// numbers, which always serialize.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn body_text<T: Serialize>(body: &T) -> String {
    crate::base::document::to_string(body)
}

/// `base_url` without trailing slashes (users paste them).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn base_url(target: &Target) -> &str {
    target.base_url.trim().trim_end_matches('/')
}

/// A key as it will be sent: trimmed (pasted keys often end in a newline,
/// which `fetch()` rejects as an invalid header value), `None` when blank.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn usable_key(key: Option<&str>) -> Option<&str> {
    key.map(str::trim).filter(|key| !key.is_empty())
}

/// Builds the streaming request for one sample of `target` under `plan`.
/// `key` is sent only in the provider's own header; `nonce`
/// ([`crate::planning::prompt::request_nonce`]) opens the prompt when given.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn build_request(
    target: &Target,
    plan: &Plan,
    key: Option<&str>,
    nonce: Option<&str>,
) -> HttpRequest {
    build_ask(target, &Ask::of_plan(plan, nonce), key)
}

/// Builds the request of `planned`: a fidelity probe's when it sends one
/// (its own prompt, limit and functions, no nonce), the synthetic prompt
/// of its size when the plan has `prompt_sizes` (nonce first), else the
/// plan's latency request as [`build_request`]. The nonce of a cache-probe
/// repeat is its first send's ([`PlannedRequest::nonce_seq`]). Both adapters send what this returns.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn build_planned_request(
    target: &Target,
    plan: &Plan,
    planned: &PlannedRequest,
    key: Option<&str>,
    nonce: Option<&str>,
) -> HttpRequest {
    match (
        planned.probe.and_then(|probe| probe.probe()),
        planned.sized_prompt,
    ) {
        (Some(probe), _) => build_ask(target, &Ask::of_probe(probe), key),
        (None, Some(sized)) => {
            let mut ask = Ask::of_plan(plan, None);
            ask.prompt = Cow::Owned(crate::planning::prompt::synthetic_prompt(
                plan,
                sized.tokens,
                nonce,
            ));
            build_ask(target, &ask, key)
        }
        (None, None) => build_request(target, plan, key, nonce),
    }
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn build_ask(target: &Target, ask: &Ask<'_>, key: Option<&str>) -> HttpRequest {
    let key = usable_key(key);
    match target.protocol {
        Protocol::OpenAi => openai::build_request(target, ask, key),
        Protocol::Anthropic => anthropic::build_request(target, ask, key),
        Protocol::Gemini => gemini::build_request(target, ask, key),
        Protocol::Demo => HttpRequest {
            // `demo://{behaviour}/{model}`: the host picks the simulated
            // provider (steady, cold-tail, reasoning), the model is the name.
            url: format!(
                "{}/{}",
                target.base_url.trim_end_matches('/'),
                target.model.trim()
            ),
            headers: vec![("Content-Type".to_owned(), "application/json".to_owned())],
            body: openai::request_body(target, ask),
        },
    }
}

/// The request listing the provider's models, or `None` for the demo
/// provider (its models are [`DEMO_MODELS`]).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn models_request(target: &Target, key: Option<&str>) -> Option<ModelsRequest> {
    let key = usable_key(key);
    match target.protocol {
        Protocol::OpenAi => Some(openai::models_request(target, key)),
        Protocol::Anthropic => Some(anthropic::models_request(target, key)),
        Protocol::Gemini => Some(gemini::models_request(target, key)),
        Protocol::Demo => None,
    }
}

/// `data[].id` of a models list: the shape OpenAI-compatible servers and
/// Anthropic share.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn data_ids(body: &str) -> Vec<String> {
    let Ok(value) = serde_json::from_str::<Value>(body) else {
        return Vec::new();
    };
    value
        .get("data")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|model| model.get("id").and_then(Value::as_str))
        .map(str::to_owned)
        .collect()
}

/// Model ids from a models-list response body, sorted and without
/// duplicates; empty when the body is not the expected JSON. For the demo
/// provider, the demo models whatever the body.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn parse_models(protocol: Protocol, body: &str) -> Vec<String> {
    let mut models = match protocol {
        Protocol::OpenAi => openai::parse_models(body),
        Protocol::Anthropic => anthropic::parse_models(body),
        Protocol::Gemini => gemini::parse_models(body),
        Protocol::Demo => DEMO_MODELS.iter().map(|(id, _)| (*id).to_owned()).collect(),
    };
    models.sort_unstable();
    models.dedup();
    models
}

/// Explains a non-2xx reply in one line: `HTTP 401 from provider: ` and the
/// provider's own message taken from the protocol's JSON error shape, or a
/// trimmed snippet of the body. Anything that looks like a key (providers
/// echo masked keys) is replaced by `[redacted]`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn http_error_message(protocol: Protocol, status: u16, body: &str) -> String {
    http_error_text(Lang::En, protocol, status, body)
}

/// [`http_error_message`] in `lang`: the provider's own message is passed
/// through as it came.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn http_error_text(lang: Lang, protocol: Protocol, status: u16, body: &str) -> String {
    notice::provider_http_error(lang, status, &body_message(protocol, body))
}

/// What to do about an HTTP status, in a few words, when there is a rule.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn status_hint(status: u16) -> Option<&'static str> {
    status_hint_in(Lang::En, status)
}

/// [`status_hint`] in `lang`.
#[cfg_attr(target_arch = "wasm32", inline)]
fn status_hint_in(lang: Lang, status: u16) -> Option<&'static str> {
    let (en, zh) = match status {
        400 | 422 => (
            "check the model name and the plan's settings",
            "请检查模型名称和计划设置",
        ),
        401 | 403 => ("check the key for this provider", "请检查该服务商的密钥"),
        404 => (
            "check the base URL and the model name",
            "请检查基础 URL 和模型名称",
        ),
        408 | 504 => (
            "the provider timed out; retry later",
            "服务商超时，请稍后重试",
        ),
        413 => ("shorten the prompt", "请缩短提示词"),
        429 => (
            "rate limited: raise the spacing or check the account's quota",
            "被限流：请加大请求间隔或检查账户配额",
        ),
        500..=599 => ("the provider failed; retry later", "服务商出错，请稍后重试"),
        _ => return None,
    };
    Some(match lang {
        Lang::En => en,
        Lang::ZhCn => zh,
    })
}

/// A failed request said in `lang` to the person at the page (Test
/// connection): [`recorded_failure_text`], except that a request the
/// browser blocked or could not send says what to try in the page, with
/// `provider_note`, what is known of the provider's browser access, in
/// `lang`. `http_status` is the reply's status.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn failure_text(
    lang: Lang,
    error: &SampleError,
    http_status: Option<u16>,
    provider_note: Option<&str>,
) -> String {
    if lang == Lang::ZhCn && error.kind == ErrorKind::CorsOrNetwork {
        return blocked_request_text(lang, provider_note, "");
    }
    recorded_failure_text(lang, error.kind, &error.message, http_status)
}

/// A recorded failure (its kind, its stored message, the reply's status)
/// said in `lang`, wherever it is read: English is the stored message as
/// it is; Chinese says the failure and what to try in Chinese and keeps
/// only the provider's own words, which the stored message carries after
/// "from provider: " (a message cut short at the advice loses the advice's
/// start too). The stored message stays English, as the results file
/// keeps it.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn recorded_failure_text(
    lang: Lang,
    kind: ErrorKind,
    message: &str,
    http_status: Option<u16>,
) -> String {
    if lang == Lang::En {
        return message.to_owned();
    }
    if let (ErrorKind::HttpStatus | ErrorKind::ContextExceeded, Some(status)) = (kind, http_status)
    {
        let said = message
            .split_once(" from provider: ")
            .map_or(message, |(_, said)| said);
        // The advice after the provider's words, whole or cut short ("…").
        let advice_at = status_hint(status).and_then(|hint| {
            said.match_indices("; ").map(|(at, _)| at).find(|&at| {
                let rest = &said[at + 2..];
                rest == hint || {
                    let kept = rest.strip_suffix('…').unwrap_or("");
                    !kept.is_empty() && hint.starts_with(kept)
                }
            })
        });
        let said = advice_at.map_or(said, |at| said[..at].trim_end());
        let mut text = notice::provider_http_error(lang, status, said);
        if let Some(hint) = status_hint_in(lang, status) {
            text.push('；');
            text.push_str(hint);
        }
        return text;
    }
    let advice = match kind {
        ErrorKind::Timeout => {
            "超时内没有收到首个 Token：服务商可能正在冷启动或无法访问，请提高超时或稍后重试"
        }
        ErrorKind::StreamCut => {
            "回答结束前连接被关闭；请重试，如反复出现，是服务商或中间的代理在截断流"
        }
        ErrorKind::MalformedStream => "服务商发来的流不符合所选协议，请检查基础 URL 和协议",
        ErrorKind::NotSse => "服务商返回的不是事件流，请检查基础 URL 和模型名称",
        ErrorKind::ProviderError => "服务商在流中报告了错误，请稍后重试",
        ErrorKind::CorsOrNetwork => "请检查基础 URL 并确认服务器在运行",
        ErrorKind::Dns => "请检查基础 URL 中的主机名",
        _ => "",
    };
    let words = error_kind_words(lang, kind);
    if advice.is_empty() {
        words.to_owned()
    } else {
        format!("{words}：{advice}")
    }
}

/// The provider's error message in `body` (from the protocol's error
/// shape), else a cleaned snippet of it; lowercase-led, keys redacted.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn body_message(protocol: Protocol, body: &str) -> String {
    let extracted = match protocol {
        Protocol::OpenAi | Protocol::Demo => openai::error_body_message(body),
        Protocol::Anthropic => anthropic::error_body_message(body),
        Protocol::Gemini => gemini::error_body_message(body),
    };
    let message = extracted
        .map(|message| snippet(&message, 300))
        .filter(|message| !message.is_empty())
        .unwrap_or_else(|| body_snippet(body));
    lowercase_led(&redact_secrets(&message))
}

/// A short, one-line excerpt of an unexpected body: an HTML page's title,
/// else its first characters with whitespace collapsed.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn body_snippet(body: &str) -> String {
    let trimmed = body.trim();
    if trimmed.is_empty() {
        return "empty body".to_owned();
    }
    let lower = trimmed.to_ascii_lowercase();
    if lower.starts_with("<!doctype html") || lower.starts_with("<html") {
        let title = lower
            .find("<title>")
            .map(|start| start + "<title>".len())
            .and_then(|start| {
                lower
                    .get(start..)?
                    .find("</title>")
                    .and_then(|len| trimmed.get(start..start + len))
            })
            .map(|title| snippet(title, 120))
            .filter(|title| !title.is_empty());
        return match title {
            Some(title) => format!("an HTML page titled \"{title}\""),
            None => "an HTML page".to_owned(),
        };
    }
    snippet(trimmed, 160)
}

/// `text` on one line (whitespace collapsed), cut to at most `max_chars`
/// characters with `…` when longer.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn snippet(text: &str, max_chars: usize) -> String {
    let mut result = String::new();
    let mut chars = 0;
    for word in text.split_whitespace() {
        if !result.is_empty() {
            result.push(' ');
            chars += 1;
        }
        for c in word.chars() {
            if chars >= max_chars {
                result.push('…');
                return result;
            }
            result.push(c);
            chars += 1;
        }
    }
    result
}

/// Replaces every word that looks like a key (even a masked one) with
/// `[redacted]`, keeping the punctuation around it.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn redact_secrets(text: &str) -> String {
    let mut result = String::with_capacity(text.len());
    for (index, word) in text.split(' ').enumerate() {
        if index > 0 {
            result.push(' ');
        }
        let core = word.trim_matches(|c: char| {
            matches!(c, '.' | ',' | ';' | ':' | '"' | '\'' | '(' | ')' | '`')
        });
        if looks_like_secret(core) {
            result.push_str(&word.replacen(core, "[redacted]", 1));
        } else {
            result.push_str(word);
        }
    }
    result
}

/// Heuristic for key-like words: known key prefixes, masked keys (`***`),
/// or long runs of letters and digits.
#[cfg_attr(target_arch = "wasm32", inline)]
fn looks_like_secret(word: &str) -> bool {
    const KEY_PREFIXES: &[&str] = &[
        "sk-", "sk_", "AIza", "gsk_", "xai-", "fw_", "dop_v1_", "nvapi-", "pplx-",
    ];
    if word.is_empty() {
        return false;
    }
    if word.contains("***")
        || KEY_PREFIXES
            .iter()
            .any(|prefix| word.starts_with(prefix) && word.len() > prefix.len() + 4)
    {
        return true;
    }
    let key_charset = word
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    let has_digit = word.chars().any(|c| c.is_ascii_digit());
    let has_letter = word.chars().any(|c| c.is_ascii_alphabetic());
    key_charset && has_digit && has_letter && word.len() >= 32
}

/// `text` with its first letter lowercased, unless it starts an acronym
/// ("API", "HTTP").
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn lowercase_led(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(first), second)
            if first.is_uppercase() && !second.is_some_and(char::is_uppercase) =>
        {
            first.to_lowercase().chain(text.chars().skip(1)).collect()
        }
        _ => text.to_owned(),
    }
}

/// The provider's message inside a JSON `error` value: `error.message`, or
/// the string itself, else `error.type` / `error.status`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn error_value_message(error: &Value) -> Option<String> {
    if let Some(text) = error.as_str() {
        return Some(text.to_owned());
    }
    ["message", "msg", "detail", "type", "status", "code"]
        .iter()
        .find_map(|field| match error.get(field) {
            Some(Value::String(text)) if !text.trim().is_empty() => Some(text.clone()),
            _ => None,
        })
}

/// Parses an event's data as a JSON object.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn parse_object(data: &str) -> Result<Value, MalformedEvent> {
    match serde_json::from_str::<Value>(data) {
        Ok(value) if value.is_object() => Ok(value),
        Ok(_) => Err(MalformedEvent::new(
            "the event is JSON but not an object",
            data,
        )),
        Err(error) => Err(MalformedEvent::new(
            format!("the event is not valid JSON ({error})"),
            data,
        )),
    }
}

/// Which decoder's event type an event's data is read into: what
/// [`misfit_member`] needs to find the member that does not fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// An OpenAI-compatible chunk.
    OpenAi,
    /// An Anthropic Messages event.
    Anthropic,
    /// A Gemini chunk.
    Gemini,
}

/// Where `data` stops fitting the event type of `kind`, and serde's reason:
/// (`delta.text`, `invalid type: integer `5`, expected a string`); None when
/// it fits.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn misfit_member(kind: EventKind, data: &str) -> Option<(String, String)> {
    match kind {
        EventKind::OpenAi => openai::misfit_member(data),
        EventKind::Anthropic => anthropic::misfit_member(data),
        EventKind::Gemini => gemini::misfit_member(data),
    }
}

/// [`misfit_member`] for one event type.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn misfit_member_of<'a, T: serde::Deserialize<'a>>(
    data: &'a str,
) -> Option<(String, String)> {
    let mut deserializer = serde_json::Deserializer::from_str(data);
    T::deserialize(&mut deserializer)
        .err()
        .map(|error| (error_path(data, &error), error.to_string()))
}

/// Reads an event's data into the typed members its decoder needs (text
/// borrowed, every other member skipped). When the data does not fit, the
/// reason names the member: `` member `delta.text`: invalid type: integer
/// `5`, expected a string ``.
///
/// serde_json alone reads it, once: the runner decodes hundreds of MB/s
/// (`make bench-sse`), and the page downloads one reader per event type.
/// Only a failing event is looked at again, for the member's path, which
/// is read from the text before the error's position
/// ([`crate::base::json_path`]).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn typed_event<'a, T: serde::Deserialize<'a>>(
    data: &'a str,
) -> Result<T, MalformedEvent> {
    serde_json::from_str(data).map_err(|error| match parse_object(data) {
        Err(malformed) => malformed,
        // A JSON object that does not fit: a member of the wrong type or
        // value, or one missing.
        Ok(_) => MalformedEvent::new(
            format!(
                "member `{}` does not fit: {error}",
                error_path(data, &error)
            ),
            data,
        ),
    })
}

/// A token count in a usage block: a whole number (saturating at
/// `u32::MAX`), `null` or absent. Anything else is a wrong-typed member,
/// and the event is malformed in every protocol alike.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TokenCount(pub Option<u32>);

impl<'de> serde::Deserialize<'de> for TokenCount {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let count = Option::<u64>::deserialize(deserializer)?;
        Ok(Self(count.map(|c| u32::try_from(c).unwrap_or(u32::MAX))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misfit_event_names_its_member_and_a_fitting_one_none() {
        let data = r#"{"choices":[{"delta":{"content":["not","text"]}}]}"#;
        let (path, reason) = misfit_member(EventKind::OpenAi, data).unwrap();
        assert_eq!(path, "choices[0].delta.content");
        assert!(reason.contains("invalid type: sequence"), "{reason}");
        assert_eq!(
            misfit_member(
                EventKind::OpenAi,
                r#"{"choices":[{"delta":{"content":"hi"}}]}"#
            ),
            None
        );
    }

    pub(crate) fn target(protocol: Protocol, base_url: &str, model: &str) -> Target {
        Target {
            protocol,
            ..Target::openai("t", base_url, model)
        }
    }

    /// Feeds `events` (event name, data) to a decoder for `protocol`; the
    /// stream events it emitted and whether it saw the stream's end.
    pub(crate) fn decode_all(
        protocol: Protocol,
        events: &[(Option<&str>, &str)],
    ) -> (Vec<StreamEvent>, bool) {
        let mut decoder = EventDecoder::new(protocol);
        let mut out = Vec::new();
        for (name, data) in events {
            let event = SseEvent {
                event: name.map(str::to_owned),
                data: (*data).to_owned(),
                id: None,
            };
            decoder.on_event(&event, &mut out).unwrap();
        }
        (out, decoder.completed())
    }

    /// The reason `protocol` gives for an event whose data is `data`.
    fn malformed(protocol: Protocol, name: Option<&str>, data: &str) -> String {
        let mut decoder = EventDecoder::new(protocol);
        let event = SseEvent {
            event: name.map(str::to_owned),
            data: data.to_owned(),
            id: None,
        };
        decoder
            .on_event(&event, &mut Vec::new())
            .expect_err(data)
            .reason
    }

    #[test]
    fn a_wrong_typed_member_is_malformed_naming_the_member_in_every_protocol() {
        let cases = [
            (
                Protocol::OpenAi,
                None,
                r#"{"choices":[{"delta":{"content":5}}]}"#,
                "choices[0].delta.content",
            ),
            (
                Protocol::OpenAi,
                None,
                r#"{"choices":[],"usage":{"completion_tokens":"12"}}"#,
                "usage.completion_tokens",
            ),
            (
                Protocol::Anthropic,
                Some("content_block_delta"),
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":5}}"#,
                "delta.text",
            ),
            (
                Protocol::Anthropic,
                Some("message_delta"),
                r#"{"type":"message_delta","usage":{"output_tokens":"9"}}"#,
                "usage.output_tokens",
            ),
            (
                Protocol::Gemini,
                None,
                r#"{"candidates":[{"content":{"parts":[{"text":5}]}}]}"#,
                "candidates[0].content.parts[0].text",
            ),
            (
                Protocol::Gemini,
                None,
                r#"{"candidates":[],"usageMetadata":{"candidatesTokenCount":-1}}"#,
                "usageMetadata.candidatesTokenCount",
            ),
        ];
        for (protocol, name, data, member) in cases {
            let reason = malformed(protocol, name, data);
            assert!(
                reason.contains(&format!("member `{member}`")),
                "{}: {reason}",
                protocol.as_str()
            );
        }
        // Not JSON, or JSON but not an object, says so in every protocol.
        for protocol in [Protocol::OpenAi, Protocol::Anthropic, Protocol::Gemini] {
            assert!(malformed(protocol, None, "{oops").contains("not valid JSON"));
            assert!(malformed(protocol, None, "[1]").contains("not an object"));
        }
    }

    #[test]
    fn demo_request_has_demo_url_and_no_key() {
        let request = build_request(
            &target(Protocol::Demo, "demo://steady", "demo-llm"),
            &Plan::default(),
            Some("k"),
            None,
        );
        assert_eq!(request.url, "demo://steady/demo-llm");
        assert_eq!(
            request.headers,
            vec![("Content-Type".to_owned(), "application/json".to_owned())]
        );
        let body: serde_json::Value = serde_json::from_str(&request.body).unwrap();
        assert_eq!(body["model"], "demo-llm");
        assert_eq!(body["stream"], true);
    }

    #[test]
    fn keys_are_trimmed_and_blank_keys_dropped() {
        assert_eq!(usable_key(Some("  sk-1\n")), Some("sk-1"));
        assert_eq!(usable_key(Some(" \n")), None);
        assert_eq!(usable_key(None), None);
    }

    #[test]
    fn snippet_collapses_whitespace_and_cuts() {
        assert_eq!(snippet("  a \n\t b  ", 10), "a b");
        assert_eq!(snippet("abcdef", 3), "abc…");
        assert_eq!(snippet("é€😀中", 2), "é€…");
    }

    #[test]
    fn redacts_key_like_words() {
        let text =
            "Incorrect API key provided: sk-proj-abc***wxyz. You can find it at https://x.io/keys.";
        let redacted = redact_secrets(text);
        assert_eq!(
            redacted,
            "Incorrect API key provided: [redacted]. You can find it at https://x.io/keys."
        );
        assert_eq!(
            redact_secrets("key AIzaSyA1b2c3d4e5f6 is bad"),
            "key [redacted] is bad"
        );
        assert_eq!(
            redact_secrets("token a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6 rejected"),
            "token [redacted] rejected"
        );
        assert_eq!(
            redact_secrets("model gpt-4o-mini-2024-07-18 not found"),
            "model gpt-4o-mini-2024-07-18 not found"
        );
    }

    #[test]
    fn lowercases_the_first_word_but_not_acronyms() {
        assert_eq!(lowercase_led("Invalid key"), "invalid key");
        assert_eq!(lowercase_led("API key invalid"), "API key invalid");
        assert_eq!(lowercase_led("x"), "x");
        assert_eq!(lowercase_led("É"), "é");
        assert_eq!(lowercase_led(""), "");
    }

    #[test]
    fn http_error_messages_fall_back_to_a_snippet() {
        assert_eq!(
            http_error_message(
                Protocol::OpenAi,
                502,
                "<html><head><title>502 Bad Gateway</title></head></html>"
            ),
            "HTTP 502 from provider: an HTML page titled \"502 Bad Gateway\""
        );
        assert_eq!(
            http_error_message(Protocol::Gemini, 500, "  \n"),
            "HTTP 500 from provider: empty body"
        );
        assert_eq!(
            http_error_message(Protocol::Anthropic, 503, "Service   Unavailable\n"),
            "HTTP 503 from provider: service Unavailable"
        );
        let long = "x".repeat(1000);
        assert!(
            http_error_message(Protocol::OpenAi, 500, &long)
                .chars()
                .count()
                < 200
        );
    }

    #[test]
    fn a_failure_is_said_in_chinese_quoting_only_the_providers_words() {
        // The advice left out whole, cut short, or holding "; " itself.
        for (stored, kept) in [
            (
                "HTTP 500 from provider: boom (x); the provider failed; retry later",
                "服务商返回 HTTP 500：boom (x)；服务商出错，请稍后重试",
            ),
            (
                "HTTP 400 from provider: unknown; known: a, b; check the model na…",
                "服务商返回 HTTP 400：unknown; known: a, b；请检查模型名称和计划设置",
            ),
            (
                "HTTP 400 from provider: unknown; known: a, b…",
                "服务商返回 HTTP 400：unknown; known: a, b…；请检查模型名称和计划设置",
            ),
        ] {
            let status = stored[5..8].parse().unwrap();
            assert_eq!(
                recorded_failure_text(Lang::ZhCn, ErrorKind::HttpStatus, stored, Some(status)),
                kept
            );
        }
        use crate::base::failure::Phase;
        let failed = |kind, message: &str| SampleError {
            kind,
            phase: Phase::Request,
            message: message.to_owned(),
        };
        let body = r#"{"error":{"message":"Rate limit reached; please try again in 7s."}}"#;
        let mut message = http_error_message(Protocol::OpenAi, 429, body);
        message.push_str("; ");
        message.push_str(status_hint(429).unwrap());
        let http = failed(ErrorKind::HttpStatus, &message);
        assert_eq!(failure_text(Lang::En, &http, Some(429), None), message);
        let zh = failure_text(Lang::ZhCn, &http, Some(429), None);
        assert_eq!(
            zh,
            "服务商返回 HTTP 429：rate limit reached; please try again in 7s.；被限流：请加大请求间隔或检查账户配额"
        );
        let quoted = "rate limit reached; please try again in 7s.";
        crate::base::lang::assert_no_english_left(&zh, &[quoted, "HTTP"]);
        for kind in ErrorKind::ALL {
            let text = failure_text(Lang::ZhCn, &failed(kind, "an English message"), None, None);
            crate::base::lang::assert_no_english_left(
                &text,
                &["HTTP", "TLS", "Token", "URL", "CORS", "firsttoken run"],
            );
        }
    }

    #[test]
    fn status_hints_say_what_to_do() {
        assert_eq!(status_hint(401), Some("check the key for this provider"));
        assert!(status_hint(429).is_some_and(|hint| hint.contains("rate limited")));
        assert!(status_hint(503).is_some());
        assert_eq!(status_hint(418), None);
    }

    #[test]
    fn demo_models_are_listed_without_a_request() {
        assert!(models_request(&target(Protocol::Demo, "", "steady"), None).is_none());
        let models = parse_models(Protocol::Demo, "");
        assert_eq!(models.len(), DEMO_MODELS.len());
        assert!(models.iter().any(|model| model == "steady"));
    }

    #[test]
    fn malformed_event_quotes_the_data() {
        let mut decoder = EventDecoder::new(Protocol::OpenAi);
        let mut out = Vec::new();
        let event = SseEvent {
            event: None,
            data: "{\"choices\": [".to_owned(),
            id: None,
        };
        let error = decoder.on_event(&event, &mut out).unwrap_err();
        assert!(error.to_string().contains("not valid JSON"), "{error}");
        assert!(error.to_string().contains("`{\"choices\": [`"), "{error}");
        let event = SseEvent {
            event: None,
            data: "[1, 2]".to_owned(),
            id: None,
        };
        assert!(
            decoder
                .on_event(&event, &mut out)
                .unwrap_err()
                .reason
                .contains("not an object")
        );
        assert!(out.is_empty());
    }

    /// The same function call in each protocol's own stream shape.
    fn tool_call_streams() -> [(Protocol, String); 3] {
        let openai = [
            r#"{"choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"ci"}}]},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ty\": \"Par"}}]},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"is\", \"unit\": \"celsius\"}"}}]},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
            r#"{"choices":[],"usage":{"prompt_tokens":80,"completion_tokens":18}}"#,
            "[DONE]",
        ]
        .iter()
        .map(|data| format!("data: {data}\n\n"))
        .collect::<String>();
        let anthropic = [
            ("message_start", r#"{"type":"message_start","message":{"usage":{"input_tokens":80,"output_tokens":1}}}"#),
            ("content_block_start", r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
            ("content_block_delta", r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Checking."}}"#),
            ("content_block_stop", r#"{"type":"content_block_stop","index":0}"#),
            ("content_block_start", r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}"#),
            ("content_block_delta", r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}"#),
            ("content_block_delta", r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Pa"}}"#),
            ("content_block_delta", r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"ris\", \"unit\": \"celsius\"}"}}"#),
            ("content_block_stop", r#"{"type":"content_block_stop","index":1}"#),
            ("message_delta", r#"{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":18}}"#),
            ("message_stop", r#"{"type":"message_stop"}"#),
        ]
        .iter()
        .map(|(name, data)| format!("event: {name}\ndata: {data}\n\n"))
        .collect::<String>();
        let gemini = [
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris","unit":"celsius"}}}],"role":"model"},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":80,"candidatesTokenCount":18}}"#,
        ]
        .iter()
        .map(|data| format!("data: {data}\r\n\r\n"))
        .collect::<String>();
        [
            (Protocol::OpenAi, openai),
            (Protocol::Anthropic, anthropic),
            (Protocol::Gemini, gemini),
        ]
    }

    #[test]
    fn a_streamed_tool_call_reads_back_whole_in_every_protocol_at_every_split() {
        use crate::wire::measure::Measurement;
        for (protocol, body) in tool_call_streams() {
            let bytes = body.as_bytes();
            for split in 1..=9 {
                let mut measurement = Measurement::new(protocol, false);
                measurement.on_headers(1.0, 200, Some("text/event-stream"));
                for (i, chunk) in bytes.chunks(split).enumerate() {
                    measurement.on_chunk(2.0 + i as f64, chunk);
                }
                measurement.on_body_end(1e6);
                let outcome = measurement.finish();
                assert_eq!(outcome.error, None, "{protocol:?} split {split}");
                assert_eq!(outcome.input_tokens, Some(80));
                let reply = outcome.reply.unwrap();
                assert_eq!(reply.tool_calls.len(), 1, "{protocol:?}");
                assert_eq!(reply.tool_calls[0].name, "get_weather");
                let arguments: Value =
                    serde_json::from_str(&reply.tool_calls[0].arguments).unwrap();
                assert_eq!(
                    arguments,
                    serde_json::json!({"city": "Paris", "unit": "celsius"})
                );
                let finish = match protocol {
                    Protocol::Anthropic => "tool_use",
                    Protocol::Gemini => "STOP",
                    _ => "tool_calls",
                };
                assert_eq!(reply.finish_reason.as_deref(), Some(finish));
            }
        }
    }

    #[test]
    fn a_probe_request_carries_the_functions_and_the_choice_in_each_protocol() {
        use crate::planning::fidelity::suite::Suite;
        use crate::planning::schedule::{PlannedProbe, PlannedRequest};
        let suite = Suite::Basic1;
        let index = |id: &str| {
            u16::try_from(suite.probes().iter().position(|p| p.id == id).unwrap()).unwrap()
        };
        let planned = |id: &str| PlannedRequest {
            idle_gap_s: None,
            idle_since_ms: None,
            fresh_connection: false,
            sized_prompt: None,
            index: 0,
            target: 0,
            seq: 0,
            warmup: false,
            planned_at_ms: 0.0,
            probe: Some(PlannedProbe {
                suite,
                index: index(id),
            }),
        };
        let plan = Plan::default();
        let body = |protocol, id: &str| -> Value {
            let target = target(protocol, "https://example.test", "m");
            let request =
                build_planned_request(&target, &plan, &planned(id), Some("k"), Some("nonce"));
            assert!(
                !request.body.contains("nonce"),
                "probes never carry a nonce"
            );
            serde_json::from_str(&request.body).unwrap()
        };
        let openai = body(Protocol::OpenAi, "tool-currency-named");
        assert_eq!(openai["tools"][1]["function"]["name"], "convert_currency");
        assert_eq!(openai["tools"][0]["type"], "function");
        assert_eq!(
            openai["tool_choice"]["function"]["name"],
            "convert_currency"
        );
        assert_eq!(openai["temperature"], 0.0);
        assert_eq!(
            body(Protocol::OpenAi, "tool-weather-required")["tool_choice"],
            "required"
        );
        assert_eq!(
            body(Protocol::OpenAi, "tool-weather-auto")["tool_choice"],
            "auto"
        );
        assert!(body(Protocol::OpenAi, "arith-mul").get("tools").is_none());
        assert_eq!(body(Protocol::OpenAi, "arith-mul")["max_tokens"], 64);

        let anthropic = body(Protocol::Anthropic, "tool-currency-named");
        assert_eq!(anthropic["tools"][0]["name"], "get_weather");
        assert_eq!(anthropic["tools"][0]["input_schema"]["type"], "object");
        assert_eq!(
            anthropic["tool_choice"],
            serde_json::json!({"type": "tool", "name": "convert_currency"})
        );
        assert_eq!(
            body(Protocol::Anthropic, "tool-weather-required")["tool_choice"]["type"],
            "any"
        );

        let gemini = body(Protocol::Gemini, "tool-currency-named");
        assert_eq!(
            gemini["tools"][0]["functionDeclarations"][1]["name"],
            "convert_currency"
        );
        assert_eq!(
            gemini["toolConfig"]["functionCallingConfig"],
            serde_json::json!({"mode": "ANY", "allowedFunctionNames": ["convert_currency"]})
        );
        assert_eq!(
            body(Protocol::Gemini, "no-tool-capital")["toolConfig"]["functionCallingConfig"]["mode"],
            "AUTO"
        );
        // A latency request is unchanged: the plan's prompt, with its nonce.
        let latency = PlannedRequest {
            idle_gap_s: None,
            probe: None,
            ..planned("arith-mul")
        };
        let target = target(Protocol::OpenAi, "https://example.test", "m");
        assert_eq!(
            build_planned_request(&target, &plan, &latency, None, Some("n")),
            build_request(&target, &plan, None, Some("n"))
        );
    }
}
