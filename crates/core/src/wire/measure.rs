//! One request's measurement as a pure state machine: the browser reports
//! what happened and when, this decides what it means.
//!
//! The browser takes `performance.now()` the moment headers or a chunk
//! arrive and passes that time in *before* anything is decoded, so parsing
//! cost never enters a timing (docs/architecture.md, "Rules the layout
//! keeps"). Everything here is deterministic: the same calls give the same
//! [`Outcome`], which is what lets every path, and every split of every
//! stream, be tested natively.
//!
//! Rules, in one place:
//! - `first_byte_ms` is the first non-empty chunk; `ttft_ms` the first
//!   non-empty content delta (or the first reasoning delta when the plan
//!   says so); `second_token_ms` the next token-bearing delta after it.
//!   Role-only chunks, keep-alive comments, pings and usage-only chunks are
//!   never tokens.
//! - `output_tokens` is the provider's usage when it sends it, else the
//!   number of token-bearing deltas (content and reasoning), marked
//!   estimated.
//! - The first error wins; every later call is ignored.
//! - A body that ends before the protocol's end is a cut stream; a 2xx body
//!   without a single event is not an event stream at all; a stream that
//!   completes without any first token is an error too, because a sample
//!   without a TTFT would otherwise vanish silently from the statistics.

use crate::base::failure::{ErrorKind, Phase, SampleError};
use crate::base::lang::Lang;
use crate::planning::fidelity::reply::{Reply, Transcript};
use crate::planning::plan::Protocol;
use crate::wire::protocol::{
    EventDecoder, StreamEvent, body_message, clean_provider_message, http_error_message,
    protocol_name, snippet, status_hint,
};
use crate::wire::ratelimit::RateLimitHeaders;
use crate::wire::sse::{SseDecoder, SseEvent};
use crate::wire::stream_shape::{GapRecorder, StreamShape};
use serde::{Deserialize, Serialize};

/// How many bytes of the body start to keep for messages about a body that
/// turned out not to be an event stream.
const BODY_START_BYTES: usize = 512;

/// At most this much of an error body (a non-2xx status, or a 2xx body
/// that is not an event stream) is kept, in bytes: the message needs its
/// start, and a provider's HTML error page, or a hostile server, can send
/// any amount. Once this much arrived the body is judged and the read
/// stops, so both adapters hold at most this much whatever is sent.
pub const ERROR_BODY_LIMIT_BYTES: usize = 64 * 1024;

/// How the caller should read the body after the headers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyMode {
    /// Read it chunk by chunk and pass each to [`Measurement::on_chunk`].
    Stream,
    /// A non-2xx status: read the whole body as text and pass it to
    /// [`Measurement::on_error_body`].
    ErrorBody,
    /// A 2xx reply that is JSON or HTML, not an event stream: read the
    /// whole body as text and pass it to [`Measurement::on_error_body`].
    NotSse,
}

/// Which step of opening a connection failed, as a native client sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectFailure {
    /// The host name did not resolve.
    Dns,
    /// No TCP connection (refused, unreachable, reset before the headers).
    Connect,
    /// The TLS handshake failed.
    Tls,
}

/// Whether the caller should keep reading the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// The measurement is settled (end marker, provider error, malformed
    /// data): cancel the reader.
    Finished,
}

/// The result of one request: timings in ms from `t0`, tokens, and the
/// error if it failed. Timings reached before a failure are kept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Response headers received.
    pub headers_ms: Option<f64>,
    /// First non-empty body chunk received.
    pub first_byte_ms: Option<f64>,
    /// First reasoning delta received.
    pub first_reasoning_ms: Option<f64>,
    /// First token (see the module rules).
    pub ttft_ms: Option<f64>,
    /// The token-bearing delta after the first.
    pub second_token_ms: Option<f64>,
    /// The stream ended, or the request failed.
    pub total_ms: Option<f64>,
    /// Output tokens: provider usage, else counted deltas.
    pub output_tokens: Option<u32>,
    /// `output_tokens` was counted from deltas.
    pub tokens_estimated: bool,
    /// Why the request failed, or `None`.
    pub error: Option<SampleError>,
    /// Prompt tokens the provider says it served from its prompt cache;
    /// `None` when its usage did not say. Written after the older members
    /// and read as `None` when absent, as in [`Sample`](crate::wire::sample::Sample).
    #[serde(default)]
    pub cached_tokens: Option<u32>,
    /// The response's HTTP status, when headers arrived.
    #[serde(default)]
    pub http_status: Option<u16>,
    /// The provider's count of prompt tokens, cached ones included.
    #[serde(default)]
    pub input_tokens: Option<u32>,
    /// The rate-limit headers of a non-2xx answer, as the adapter read them
    /// ([`Measurement::on_rate_limit`]).
    #[serde(default)]
    pub rate_limit: Option<RateLimitHeaders>,
    /// Gaps, stalls and buffering after the first token.
    #[serde(default)]
    pub stream: Option<StreamShape>,
    /// What the reply said (answer, function calls, finish reason); a
    /// probe's sample keeps it, a latency sample drops it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply: Option<Reply>,
}

/// The state of one request being measured.
#[derive(Debug)]
pub struct Measurement {
    protocol: Protocol,
    reasoning_counts_as_first_token: bool,
    sse: SseDecoder,
    events: EventDecoder,
    /// Scratch buffers reused across chunks.
    sse_events: Vec<SseEvent>,
    stream_events: Vec<StreamEvent>,
    body_mode: Option<BodyMode>,
    status: Option<u16>,
    content_type: Option<String>,
    /// The first bytes of the body, for messages.
    body_start: Vec<u8>,
    headers_ms: Option<f64>,
    first_byte_ms: Option<f64>,
    first_reasoning_ms: Option<f64>,
    ttft_ms: Option<f64>,
    second_token_ms: Option<f64>,
    last_chunk_ms: Option<f64>,
    total_ms: Option<f64>,
    /// Which points were reached, kept apart from their times so that a
    /// missing time (a non-finite clock reading) never lets a later event
    /// take an earlier one's place.
    first_byte_seen: bool,
    first_reasoning_seen: bool,
    first_token_seen: bool,
    second_token_seen: bool,
    usage_tokens: Option<u32>,
    cached_tokens: Option<u32>,
    prompt_tokens: Option<u32>,
    rate_limit: Option<RateLimitHeaders>,
    gaps: GapRecorder,
    token_deltas: u32,
    reasoning_deltas: u32,
    transcript: Transcript,
    /// The outcome is decided (success or error): later calls are ignored.
    settled: bool,
    error: Option<SampleError>,
}

impl Measurement {
    /// A measurement for one request of `protocol`;
    /// `reasoning_counts_as_first_token` is the plan's option.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn new(protocol: Protocol, reasoning_counts_as_first_token: bool) -> Self {
        Self {
            protocol,
            reasoning_counts_as_first_token,
            sse: SseDecoder::new(),
            events: EventDecoder::new(protocol),
            sse_events: Vec::new(),
            stream_events: Vec::new(),
            body_mode: None,
            status: None,
            content_type: None,
            body_start: Vec::new(),
            headers_ms: None,
            first_byte_ms: None,
            first_reasoning_ms: None,
            ttft_ms: None,
            second_token_ms: None,
            last_chunk_ms: None,
            total_ms: None,
            first_byte_seen: false,
            first_reasoning_seen: false,
            first_token_seen: false,
            second_token_seen: false,
            usage_tokens: None,
            cached_tokens: None,
            prompt_tokens: None,
            rate_limit: None,
            gaps: GapRecorder::default(),
            token_deltas: 0,
            reasoning_deltas: 0,
            transcript: Transcript::default(),
            settled: false,
            error: None,
        }
    }

    /// Response headers arrived at `t_ms` with `status` and the
    /// `Content-Type` header; returns how to read the body.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn on_headers(&mut self, t_ms: f64, status: u16, content_type: Option<&str>) -> BodyMode {
        let mime = content_type
            .and_then(|value| value.split(';').next())
            .map(|mime| mime.trim().to_ascii_lowercase())
            .unwrap_or_default();
        let mode = if !(200..300).contains(&status) {
            BodyMode::ErrorBody
        } else if mime == "text/html" || mime.ends_with("/json") || mime.ends_with("+json") {
            BodyMode::NotSse
        } else {
            // `text/event-stream`, but also a missing or odd content type:
            // some servers stream SSE as `text/plain`. The events decide.
            BodyMode::Stream
        };
        if !self.settled && self.status.is_none() {
            self.headers_ms = finite(t_ms);
            self.status = Some(status);
            self.content_type = content_type.map(str::to_owned);
            self.body_mode = Some(mode);
        }
        mode
    }

    /// A body chunk arrived at `t_ms` (taken before this call).
    ///
    /// # Examples
    ///
    /// The adapter reads the clock when bytes arrive and passes the time
    /// in; the measurement decides which chunk held the first token:
    ///
    /// ```
    /// use firsttoken_core::wire::measure::{BodyMode, Flow, Measurement};
    /// use firsttoken_core::planning::plan::Protocol;
    ///
    /// let mut measurement = Measurement::new(Protocol::OpenAi, false);
    /// let mode = measurement.on_headers(180.0, 200, Some("text/event-stream"));
    /// assert_eq!(mode, BodyMode::Stream);
    /// // A role-only delta is not a token; the first content delta is, even
    /// // when its line was split across two chunks.
    /// let role = br#"data: {"choices":[{"delta":{"role":"assistant"}}]}"#;
    /// measurement.on_chunk(250.0, &[&role[..], b"\n\n"].concat());
    /// measurement.on_chunk(410.0, br#"data: {"choices":[{"delta":{"cont"#);
    /// measurement.on_chunk(412.5, b"ent\":\"Hello\"}}]}\n\n");
    /// let flow = measurement.on_chunk(600.0, b"data: [DONE]\n\n");
    /// assert_eq!(flow, Flow::Finished);
    ///
    /// let outcome = measurement.finish();
    /// assert_eq!(outcome.first_byte_ms, Some(250.0));
    /// assert_eq!(outcome.ttft_ms, Some(412.5));
    /// assert_eq!(outcome.error, None);
    /// ```
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn on_chunk(&mut self, t_ms: f64, bytes: &[u8]) -> Flow {
        if self.settled {
            return Flow::Finished;
        }
        if bytes.is_empty() {
            return Flow::Continue;
        }
        let raw_t_ms = t_ms;
        let t_ms = finite(t_ms);
        if !self.first_byte_seen {
            self.first_byte_seen = true;
            self.first_byte_ms = t_ms;
        }
        self.last_chunk_ms = t_ms;
        let error_body = matches!(self.body_mode, Some(BodyMode::ErrorBody | BodyMode::NotSse));
        let keep = if error_body {
            ERROR_BODY_LIMIT_BYTES
        } else {
            BODY_START_BYTES
        };
        if self.body_start.len() < keep {
            let room = keep - self.body_start.len();
            self.body_start
                .extend_from_slice(bytes.get(..room).unwrap_or(bytes));
        }
        if error_body {
            // An error page is never a stream, even if it looks like one:
            // keep its start for the message, judged at the body's end or
            // once the limit is reached, whichever comes first.
            if self.body_start.len() >= ERROR_BODY_LIMIT_BYTES {
                self.on_body_end(raw_t_ms);
                return Flow::Finished;
            }
            return Flow::Continue;
        }
        self.sse.feed(bytes, &mut self.sse_events);
        let mut sse_events = std::mem::take(&mut self.sse_events);
        let mut flow = Flow::Continue;
        for event in sse_events.drain(..) {
            if let Err(malformed) = self.events.on_event(&event, &mut self.stream_events) {
                self.fail(
                    t_ms,
                    ErrorKind::MalformedStream,
                    format!(
                        "the stream sent an event that could not be read ({}): `{}`; check that \
                         the endpoint speaks the {} protocol",
                        malformed.reason,
                        malformed.snippet,
                        protocol_name(self.protocol)
                    ),
                );
                flow = Flow::Finished;
                break;
            }
            if self.apply_stream_events(t_ms) == Flow::Finished {
                flow = Flow::Finished;
                break;
            }
        }
        sse_events.clear();
        self.sse_events = sse_events;
        if flow == Flow::Continue && self.sse.overflowed() {
            self.fail(
                t_ms,
                ErrorKind::MalformedStream,
                format!(
                    "the stream sent a line longer than {} MiB without ending it; an event \
                     stream sends one short line per event — check that the endpoint speaks the {} \
                     protocol",
                    crate::wire::sse::MAX_LINE_BYTES / (1024 * 1024),
                    protocol_name(self.protocol)
                ),
            );
            flow = Flow::Finished;
        }
        flow
    }

    /// Acts on the decoded stream events of one SSE event.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn apply_stream_events(&mut self, t_ms: Option<f64>) -> Flow {
        let mut stream_events = std::mem::take(&mut self.stream_events);
        let mut flow = Flow::Continue;
        for event in stream_events.drain(..) {
            match event {
                StreamEvent::Content(text) if !text.is_empty() => {
                    self.token_deltas = self.token_deltas.saturating_add(1);
                    self.on_token_delta(t_ms, true);
                    self.transcript.content(&text);
                }
                // A function call is the reply's first output when the
                // model answers with one (a fidelity probe): it counts as a
                // token, or a reply made only of a call would read as empty.
                StreamEvent::ToolCallStart { index, name } => {
                    self.token_deltas = self.token_deltas.saturating_add(1);
                    self.on_token_delta(t_ms, true);
                    self.transcript.call_start(index, &name);
                }
                StreamEvent::ToolCallArguments { index, fragment } => {
                    if !fragment.is_empty() {
                        self.token_deltas = self.token_deltas.saturating_add(1);
                        self.on_token_delta(t_ms, true);
                    }
                    self.transcript.call_arguments(index, &fragment);
                }
                StreamEvent::Finish(reason) => self.transcript.finish(&reason),
                StreamEvent::Reasoning(text) if !text.is_empty() => {
                    self.token_deltas = self.token_deltas.saturating_add(1);
                    self.reasoning_deltas = self.reasoning_deltas.saturating_add(1);
                    if !self.first_reasoning_seen {
                        self.first_reasoning_seen = true;
                        self.first_reasoning_ms = t_ms;
                    }
                    self.on_token_delta(t_ms, self.reasoning_counts_as_first_token);
                }
                StreamEvent::Content(_) | StreamEvent::Reasoning(_) => {}
                StreamEvent::Usage { output_tokens } => self.usage_tokens = Some(output_tokens),
                StreamEvent::CachedPrompt { tokens } => self.cached_tokens = Some(tokens),
                StreamEvent::PromptTokens { tokens } => self.prompt_tokens = Some(tokens),
                StreamEvent::ProviderError(message) => {
                    self.fail(
                        t_ms,
                        ErrorKind::ProviderError,
                        format!(
                            "the provider reported an error inside the stream: {}",
                            clean_provider_message(&message)
                        ),
                    );
                    flow = Flow::Finished;
                    break;
                }
                StreamEvent::End => {
                    self.complete(t_ms);
                    flow = Flow::Finished;
                    break;
                }
            }
        }
        stream_events.clear();
        self.stream_events = stream_events;
        flow
    }

    /// A token-bearing delta arrived; `may_be_first` says whether this kind
    /// of delta can be the first token.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn on_token_delta(&mut self, t_ms: Option<f64>, may_be_first: bool) {
        if !self.first_token_seen {
            if may_be_first {
                self.first_token_seen = true;
                self.ttft_ms = t_ms;
            }
        } else if !self.second_token_seen {
            self.second_token_seen = true;
            self.second_token_ms = t_ms;
        }
        if self.first_token_seen
            && let Some(t_ms) = t_ms
        {
            self.gaps.token(t_ms);
        }
    }

    /// The rate-limit headers the adapter read from the response
    /// ([`crate::wire::ratelimit::read_rate_limit`]); kept on the sample
    /// only when the status was not 2xx.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn on_rate_limit(&mut self, headers: RateLimitHeaders) {
        self.rate_limit = Some(headers);
    }

    /// The reader reported the end of the body at `t_ms`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn on_body_end(&mut self, t_ms: f64) {
        if self.settled {
            return;
        }
        if matches!(self.body_mode, Some(BodyMode::ErrorBody | BodyMode::NotSse)) {
            // The caller streamed a body it was told to read as text: judge
            // it by the bytes seen.
            let body = String::from_utf8_lossy(&self.body_start).into_owned();
            self.on_error_body(t_ms, &body);
            return;
        }
        let t_ms = finite(t_ms);
        let cut_mid_event = self.sse.has_pending_data();
        self.sse.finish(&mut self.sse_events);
        self.sse_events.clear();
        if self.events.completed() {
            self.complete(t_ms);
        } else if self.sse.events_dispatched() == 0 && self.sse.comments_seen() == 0 {
            let body = String::from_utf8_lossy(&self.body_start).into_owned();
            let message = format!(
                "the reply was not an event stream ({}): {}; check the base URL and that the \
                 endpoint supports streaming",
                self.status_and_type(),
                body_message(self.protocol, &body)
            );
            self.fail(t_ms, ErrorKind::NotSse, message);
        } else {
            let place = if cut_mid_event {
                " in the middle of an event"
            } else {
                ""
            };
            let message = format!(
                "the stream ended{place} before {}: the connection was closed early; retry, and \
                 if it repeats, the provider or a proxy is cutting streams",
                self.events.end_marker()
            );
            self.fail(t_ms, ErrorKind::StreamCut, message);
        }
    }

    /// The whole body of a reply read as text (after [`BodyMode::ErrorBody`]
    /// or [`BodyMode::NotSse`]) arrived at `t_ms`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn on_error_body(&mut self, t_ms: f64, body: &str) {
        if self.settled {
            return;
        }
        let t_ms = finite(t_ms);
        match (self.body_mode, self.status) {
            (Some(BodyMode::ErrorBody), Some(status)) => {
                let mut message = http_error_message(self.protocol, status, body);
                if let Some(hint) = status_hint(status) {
                    // The provider's sentence may end in a full stop: "…7s.; rate…" reads badly.
                    let trimmed = message.trim_end().trim_end_matches(['.', ';', ':']).len();
                    message.truncate(trimmed);
                    message.push_str("; ");
                    message.push_str(hint);
                }
                let kind = if crate::base::failure::is_context_exceeded(status, body) {
                    message = format!(
                        "the prompt is longer than this model takes (its context window): {message}"
                    );
                    ErrorKind::ContextExceeded
                } else {
                    ErrorKind::HttpStatus
                };
                self.fail(t_ms, kind, message);
            }
            _ => {
                let message = format!(
                    "the provider answered {} instead of an event stream: {}; check the base URL \
                     and the model name",
                    self.status_and_type(),
                    body_message(self.protocol, body)
                );
                self.fail(t_ms, ErrorKind::NotSse, message);
            }
        }
    }

    /// `fetch()` rejected at `t_ms`: the browser refused to show an answer
    /// and does not say why. `provider_note` is what is known of the
    /// provider's browser access (its preset's note), `detail` the
    /// browser's own words; the message lists the possible causes and what
    /// to try ([`crate::words::failure::blocked_request_text`]).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn on_fetch_rejected(&mut self, t_ms: f64, provider_note: Option<&str>, detail: &str) {
        let message = crate::words::failure::blocked_request_text(Lang::En, provider_note, detail);
        self.fail(finite(t_ms), ErrorKind::CorsOrNetwork, message);
    }

    /// A native client could not reach the provider at `t_ms`: `failure`
    /// says which step of opening the connection failed (a browser cannot
    /// tell these apart and reports [`Measurement::on_fetch_rejected`]
    /// instead), `detail` is the system's words.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn on_connect_failed(&mut self, t_ms: f64, failure: ConnectFailure, detail: &str) {
        let detail = snippet(detail, 200);
        let message = match failure {
            ConnectFailure::Dns => format!(
                "the provider's host name did not resolve ({detail}); check the base URL and \
                 this machine's DNS"
            ),
            ConnectFailure::Connect => format!(
                "could not reach the provider ({detail}); check the base URL, that the server \
                 is up, and any firewall or proxy in between"
            ),
            ConnectFailure::Tls => format!(
                "the TLS handshake with the provider failed ({detail}); check that the base \
                 URL's scheme and port are right (https to a plain-HTTP port fails here) and \
                 that its certificate is valid"
            ),
        };
        let kind = match failure {
            ConnectFailure::Dns => ErrorKind::Dns,
            ConnectFailure::Connect => ErrorKind::CorsOrNetwork,
            ConnectFailure::Tls => ErrorKind::Tls,
        };
        self.fail(finite(t_ms), kind, message);
    }

    /// Reading the body failed at `t_ms` with `detail` (the browser's words).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn on_read_error(&mut self, t_ms: f64, detail: &str) {
        if self.settled {
            return;
        }
        let t_ms = finite(t_ms);
        if self.events.completed() {
            // Everything the protocol promised had arrived; only the
            // closing of the connection failed.
            self.complete(t_ms);
            return;
        }
        let message = format!(
            "the connection broke while reading the stream ({}); retry, and if it repeats, check \
             the network or any proxy in between",
            snippet(detail, 200)
        );
        self.fail(t_ms, ErrorKind::StreamCut, message);
    }

    /// The plan's timeout of `timeout_s` seconds fired at `t_ms`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn on_timeout(&mut self, t_ms: f64, timeout_s: f64) {
        let message = match self.phase() {
            Phase::Request => format!(
                "no response within {timeout_s} s: the provider may be cold-starting or \
                 unreachable; raise the timeout or retry later"
            ),
            Phase::BeforeFirstToken => format!(
                "no first token within {timeout_s} s: the provider may be cold-starting; raise \
                 the timeout or retry later"
            ),
            Phase::AfterFirstToken => format!(
                "the reply was still streaming after {timeout_s} s: it is slow or stalled; lower \
                 max tokens or raise the timeout"
            ),
        };
        self.fail(finite(t_ms), ErrorKind::Timeout, message);
    }

    /// The user stopped the run at `t_ms`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn on_abort(&mut self, t_ms: f64) {
        self.fail(
            finite(t_ms),
            ErrorKind::Aborted,
            "stopped by the user before the reply finished".to_owned(),
        );
    }

    /// Whether the first token has arrived (the timeout no longer applies).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn has_first_token(&self) -> bool {
        self.first_token_seen
    }

    /// The measured outcome. A measurement that was never settled (the
    /// caller stopped without an end, error or abort) counts as a cut
    /// stream, unless the protocol had already said it was complete.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn finish(mut self) -> Outcome {
        if !self.settled {
            if self.events.completed() {
                self.complete(self.last_chunk_ms);
            } else {
                self.fail(
                    None,
                    ErrorKind::StreamCut,
                    "the measurement stopped before the stream ended".to_owned(),
                );
            }
        }
        let (output_tokens, tokens_estimated) = match self.usage_tokens {
            Some(tokens) => (Some(tokens), false),
            None if self.token_deltas > 0 => (Some(self.token_deltas), true),
            None => (None, false),
        };
        Outcome {
            headers_ms: self.headers_ms,
            first_byte_ms: self.first_byte_ms,
            first_reasoning_ms: self.first_reasoning_ms,
            ttft_ms: self.ttft_ms,
            second_token_ms: self.second_token_ms,
            total_ms: self.total_ms,
            output_tokens,
            tokens_estimated,
            cached_tokens: self.cached_tokens,
            http_status: self.status,
            input_tokens: self.prompt_tokens,
            rate_limit: self.rate_limit.filter(|_| {
                self.status
                    .is_some_and(|status| !(200..300).contains(&status))
            }),
            stream: self.gaps.finish(output_tokens),
            error: self.error,
            reply: Some(self.transcript.into_reply()),
        }
    }

    /// How far the request got.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn phase(&self) -> Phase {
        if self.status.is_none() {
            Phase::Request
        } else if !self.first_token_seen {
            Phase::BeforeFirstToken
        } else {
            Phase::AfterFirstToken
        }
    }

    /// The stream ended properly at `t_ms`; without a first token that is
    /// still a failure.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn complete(&mut self, t_ms: Option<f64>) {
        if self.settled {
            return;
        }
        if !self.first_token_seen {
            let message = if self.reasoning_deltas > 0 {
                format!(
                    "the reply ended after {} reasoning deltas without any content: raise max \
                     tokens, or count reasoning as the first token in the plan",
                    self.reasoning_deltas
                )
            } else {
                "the reply ended without any content: check the prompt and max tokens".to_owned()
            };
            self.fail(t_ms, ErrorKind::ProviderError, message);
            return;
        }
        self.total_ms = t_ms;
        self.settled = true;
    }

    /// Records the first error; later ones are ignored.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fail(&mut self, t_ms: Option<f64>, kind: ErrorKind, message: String) {
        if self.settled {
            return;
        }
        let phase = self.phase();
        self.total_ms = t_ms;
        self.error = Some(SampleError {
            kind,
            phase,
            message,
        });
        self.settled = true;
    }

    /// "HTTP 200, application/json", for messages.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn status_and_type(&self) -> String {
        let status = self
            .status
            .map_or_else(|| "no status".to_owned(), |status| format!("HTTP {status}"));
        match self.content_type.as_deref().map(str::trim) {
            Some(content_type) if !content_type.is_empty() => {
                format!("{status}, {}", snippet(content_type, 60))
            }
            _ => format!("{status}, no content type"),
        }
    }
}

/// A time as stored: `None` for NaN or infinity, so no sample ever holds
/// one.
#[cfg_attr(target_arch = "wasm32", inline)]
fn finite(t_ms: f64) -> Option<f64> {
    t_ms.is_finite().then_some(t_ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::demo::demo_reply;
    use proptest::prelude::*;

    const ROLE: &str = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n";
    const HELLO: &str = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"},\"finish_reason\":null}]}\n\n";
    const WORLD: &str = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo ☃\"},\"finish_reason\":null}]}\n\n";
    const STOP: &str =
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n";
    const USAGE: &str =
        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":7}}\n\n";
    const DONE: &str = "data: [DONE]\n\n";

    fn started(protocol: Protocol, reasoning_first: bool) -> Measurement {
        let mut measurement = Measurement::new(protocol, reasoning_first);
        let mode = measurement.on_headers(50.0, 200, Some("text/event-stream; charset=utf-8"));
        assert_eq!(mode, BodyMode::Stream);
        measurement
    }

    /// Feeds `chunks` at their times, then ends the body at `end_ms`
    /// unless a chunk finished the measurement.
    fn run(protocol: Protocol, chunks: &[(f64, &[u8])], end_ms: f64) -> Outcome {
        let mut measurement = started(protocol, false);
        for (t_ms, bytes) in chunks {
            if measurement.on_chunk(*t_ms, bytes) == Flow::Finished {
                return measurement.finish();
            }
        }
        measurement.on_body_end(end_ms);
        measurement.finish()
    }

    fn kind(outcome: &Outcome) -> Option<ErrorKind> {
        outcome.error.as_ref().map(|error| error.kind)
    }

    fn message(outcome: &Outcome) -> &str {
        outcome
            .error
            .as_ref()
            .map_or("", |error| error.message.as_str())
    }

    #[test]
    fn openai_stream_timings_and_usage() {
        let mut measurement = started(Protocol::OpenAi, false);
        assert_eq!(measurement.on_chunk(100.0, ROLE.as_bytes()), Flow::Continue);
        assert_eq!(
            measurement.on_chunk(150.0, b": keep-alive\n\n"),
            Flow::Continue
        );
        assert!(!measurement.has_first_token());
        assert_eq!(
            measurement.on_chunk(250.0, HELLO.as_bytes()),
            Flow::Continue
        );
        assert!(measurement.has_first_token());
        assert_eq!(
            measurement.on_chunk(262.5, WORLD.as_bytes()),
            Flow::Continue
        );
        assert_eq!(
            measurement.on_chunk(270.0, format!("{STOP}{USAGE}").as_bytes()),
            Flow::Continue
        );
        assert_eq!(measurement.on_chunk(280.0, DONE.as_bytes()), Flow::Finished);
        let outcome = measurement.finish();
        assert_eq!(
            outcome,
            Outcome {
                headers_ms: Some(50.0),
                first_byte_ms: Some(100.0),
                first_reasoning_ms: None,
                ttft_ms: Some(250.0),
                second_token_ms: Some(262.5),
                total_ms: Some(280.0),
                output_tokens: Some(7),
                tokens_estimated: false,
                cached_tokens: None,
                error: None,
                http_status: Some(200),
                input_tokens: Some(5),
                rate_limit: None,
                stream: Some(StreamShape {
                    gaps: 1,
                    max_gap_ms: Some(12.5),
                    p95_gap_ms: Some(12.5),
                    stalls: 0,
                    buffered: false,
                }),
                reply: Some(Reply {
                    answer: "Hello ☃".to_owned(),
                    tool_calls: Vec::new(),
                    finish_reason: Some("stop".to_owned()),
                }),
            }
        );
    }

    #[test]
    fn without_usage_tokens_are_counted_and_marked_estimated() {
        let body = format!("{ROLE}{HELLO}{WORLD}{DONE}");
        let outcome = run(Protocol::OpenAi, &[(100.0, body.as_bytes())], 200.0);
        assert_eq!(outcome.error, None);
        assert_eq!(
            (outcome.output_tokens, outcome.tokens_estimated),
            (Some(2), true)
        );
        assert_eq!(
            (outcome.ttft_ms, outcome.second_token_ms),
            (Some(100.0), Some(100.0))
        );
    }

    #[test]
    fn every_two_way_split_of_an_openai_stream_times_the_right_chunk() {
        let body = format!("{ROLE}: ping\n\n{HELLO}{WORLD}{STOP}{USAGE}{DONE}");
        let bytes = body.as_bytes();
        // The first content event is dispatched by the blank line ending it.
        let first_token_at = ROLE.len() + ": ping\n\n".len() + HELLO.len();
        for cut in 0..=bytes.len() {
            let (first, second) = bytes.split_at(cut);
            let outcome = run(Protocol::OpenAi, &[(100.0, first), (200.0, second)], 300.0);
            assert_eq!(outcome.error, None, "cut {cut}");
            let expected_ttft = if cut >= first_token_at { 100.0 } else { 200.0 };
            assert_eq!(outcome.ttft_ms, Some(expected_ttft), "cut {cut}");
            let expected_first_byte = if cut == 0 { 200.0 } else { 100.0 };
            assert_eq!(
                outcome.first_byte_ms,
                Some(expected_first_byte),
                "cut {cut}"
            );
            assert_eq!(outcome.output_tokens, Some(7), "cut {cut}");
            assert_eq!(
                outcome.total_ms,
                Some(if cut == bytes.len() { 100.0 } else { 200.0 })
            );
        }
    }

    #[test]
    fn every_three_way_split_gives_the_same_result() {
        let body = format!("{ROLE}{HELLO}\r\n{WORLD}{USAGE}{DONE}").replace("\n\n", "\r\n\r\n");
        let bytes = body.as_bytes();
        let whole = run(Protocol::OpenAi, &[(100.0, bytes)], 300.0);
        assert_eq!(whole.error, None);
        for a in (0..=bytes.len()).step_by(3) {
            for b in (a..=bytes.len()).step_by(7) {
                let chunks = [
                    (100.0, &bytes[..a]),
                    (100.0, &bytes[a..b]),
                    (100.0, &bytes[b..]),
                ];
                assert_eq!(run(Protocol::OpenAi, &chunks, 300.0), whole, "cuts {a} {b}");
            }
        }
    }

    #[test]
    fn reasoning_is_first_token_only_when_the_plan_says_so() {
        let thinking = "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"hmm\"}}]}\n\n";
        for (reasoning_first, expected_ttft, expected_second) in
            [(false, 300.0, 310.0), (true, 100.0, 300.0)]
        {
            let mut measurement = started(Protocol::OpenAi, reasoning_first);
            measurement.on_chunk(90.0, ROLE.as_bytes());
            measurement.on_chunk(100.0, thinking.as_bytes());
            measurement.on_chunk(300.0, HELLO.as_bytes());
            measurement.on_chunk(310.0, WORLD.as_bytes());
            assert_eq!(measurement.on_chunk(320.0, DONE.as_bytes()), Flow::Finished);
            let outcome = measurement.finish();
            assert_eq!(outcome.first_reasoning_ms, Some(100.0));
            assert_eq!(outcome.ttft_ms, Some(expected_ttft));
            assert_eq!(outcome.second_token_ms, Some(expected_second));
            assert_eq!(outcome.output_tokens, Some(3));
        }
    }

    #[test]
    fn reasoning_without_content_is_an_error_that_says_what_to_do() {
        let thinking = "data: {\"choices\":[{\"delta\":{\"reasoning\":\"hmm\"}}]}\n\n";
        let body = format!("{thinking}{thinking}{STOP}{DONE}");
        let outcome = run(Protocol::OpenAi, &[(100.0, body.as_bytes())], 200.0);
        assert_eq!(kind(&outcome), Some(ErrorKind::ProviderError));
        assert!(
            message(&outcome).contains("2 reasoning deltas without any content"),
            "{}",
            message(&outcome)
        );
        assert!(message(&outcome).contains("raise max tokens"));
        assert_eq!(outcome.first_reasoning_ms, Some(100.0));
        let empty = run(
            Protocol::OpenAi,
            &[(100.0, format!("{ROLE}{DONE}").as_bytes())],
            200.0,
        );
        assert!(message(&empty).starts_with("the reply ended without any content"));
        assert_eq!(empty.error.unwrap().phase, Phase::BeforeFirstToken);
    }

    #[test]
    fn finish_reason_without_done_is_complete_but_a_bare_end_is_a_cut() {
        let complete = run(
            Protocol::OpenAi,
            &[(100.0, format!("{HELLO}{STOP}").as_bytes())],
            150.0,
        );
        assert_eq!(complete.error, None);
        assert_eq!(complete.total_ms, Some(150.0));

        let cut = run(
            Protocol::OpenAi,
            &[(100.0, format!("{ROLE}{HELLO}").as_bytes())],
            150.0,
        );
        assert_eq!(kind(&cut), Some(ErrorKind::StreamCut));
        let error = cut.error.as_ref().unwrap();
        assert_eq!(error.phase, Phase::AfterFirstToken);
        assert!(
            error
                .message
                .starts_with("the stream ended before `data: [DONE]`"),
            "{}",
            error.message
        );
        assert_eq!(cut.ttft_ms, Some(100.0));
        assert_eq!(cut.total_ms, Some(150.0));

        let mid_event = run(
            Protocol::OpenAi,
            &[(100.0, format!("{HELLO}data: {{\"cho").as_bytes())],
            150.0,
        );
        assert!(message(&mid_event).starts_with("the stream ended in the middle of an event"));

        let before_first = run(Protocol::OpenAi, &[(100.0, ROLE.as_bytes())], 150.0);
        assert_eq!(before_first.error.unwrap().phase, Phase::BeforeFirstToken);
    }

    #[test]
    fn comments_only_is_a_cut_not_a_foreign_body() {
        let outcome = run(Protocol::OpenAi, &[(100.0, b": keep-alive\n\n")], 150.0);
        assert_eq!(kind(&outcome), Some(ErrorKind::StreamCut));
    }

    #[test]
    fn a_2xx_body_without_events_is_not_sse() {
        let body = br#"{"error":{"message":"Model is loading"}}"#;
        let mut measurement = Measurement::new(Protocol::OpenAi, false);
        assert_eq!(
            measurement.on_headers(40.0, 200, Some("text/plain")),
            BodyMode::Stream
        );
        assert_eq!(measurement.on_chunk(60.0, body), Flow::Continue);
        measurement.on_body_end(70.0);
        let outcome = measurement.finish();
        assert_eq!(kind(&outcome), Some(ErrorKind::NotSse));
        assert_eq!(
            message(&outcome),
            "the reply was not an event stream (HTTP 200, text/plain): model is loading; check the \
             base URL and that the endpoint supports streaming"
        );
        assert_eq!(outcome.total_ms, Some(70.0));
        let empty = run(Protocol::Gemini, &[], 80.0);
        assert_eq!(kind(&empty), Some(ErrorKind::NotSse));
        assert!(message(&empty).contains("empty body"));
        assert_eq!(empty.first_byte_ms, None);
    }

    #[test]
    fn json_or_html_content_type_is_read_as_text() {
        for content_type in [
            "application/json",
            "text/html; charset=UTF-8",
            "application/problem+json",
        ] {
            let mut measurement = Measurement::new(Protocol::OpenAi, false);
            assert_eq!(
                measurement.on_headers(40.0, 200, Some(content_type)),
                BodyMode::NotSse
            );
            measurement.on_error_body(55.0, "<html><title>Sign in</title></html>");
            let outcome = measurement.finish();
            assert_eq!(kind(&outcome), Some(ErrorKind::NotSse));
            assert!(
                message(&outcome).contains(content_type),
                "{}",
                message(&outcome)
            );
            assert_eq!(outcome.total_ms, Some(55.0));
        }
        let mut measurement = Measurement::new(Protocol::OpenAi, false);
        measurement.on_headers(40.0, 200, Some("text/html"));
        measurement.on_error_body(55.0, "<html><title>Sign in</title></html>");
        assert!(message(&measurement.finish()).contains("an HTML page titled \"Sign in\""));
    }

    #[test]
    fn http_errors_quote_the_provider_and_say_what_to_do() {
        let mut measurement = Measurement::new(Protocol::Anthropic, false);
        assert_eq!(
            measurement.on_headers(80.0, 401, Some("application/json")),
            BodyMode::ErrorBody
        );
        measurement.on_error_body(
            90.0,
            r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
        );
        let outcome = measurement.finish();
        let error = outcome.error.unwrap();
        assert_eq!(error.kind, ErrorKind::HttpStatus);
        assert_eq!(error.phase, Phase::BeforeFirstToken);
        assert_eq!(
            error.message,
            "HTTP 401 from provider: invalid x-api-key; check the key for this provider"
        );
        assert_eq!(
            (outcome.headers_ms, outcome.total_ms),
            (Some(80.0), Some(90.0))
        );

        // A caller that streams the error body anyway gets the same verdict.
        let mut streamed = Measurement::new(Protocol::OpenAi, false);
        streamed.on_headers(80.0, 429, None);
        streamed.on_chunk(85.0, br#"{"error":{"message":"Rate limit exceeded"}}"#);
        streamed.on_body_end(90.0);
        assert_eq!(
            message(&streamed.finish()),
            "HTTP 429 from provider: rate limit exceeded; rate limited: raise the spacing or \
             check the account's quota"
        );

        // A provider sentence ending in a full stop joins the hint cleanly.
        let mut stop = Measurement::new(Protocol::OpenAi, false);
        stop.on_headers(80.0, 429, Some("application/json"));
        stop.on_error_body(90.0, r#"{"error":{"message":"Please try again in 7s."}}"#);
        assert_eq!(
            message(&stop.finish()),
            "HTTP 429 from provider: please try again in 7s; rate limited: raise the spacing or \
             check the account's quota"
        );

        // An error status is an error even when its body looks like a stream.
        let mut sse_error = Measurement::new(Protocol::OpenAi, false);
        assert_eq!(
            sse_error.on_headers(80.0, 404, Some("text/event-stream")),
            BodyMode::ErrorBody
        );
        assert_eq!(
            sse_error.on_chunk(85.0, format!("{HELLO}{DONE}").as_bytes()),
            Flow::Continue
        );
        sse_error.on_body_end(90.0);
        let outcome = sse_error.finish();
        assert_eq!(kind(&outcome), Some(ErrorKind::HttpStatus));
        assert_eq!(outcome.ttft_ms, None);
        assert!(message(&outcome).starts_with("HTTP 404 from provider: data: {"));
    }

    #[test]
    fn malformed_data_quotes_a_snippet_and_stops() {
        let mut measurement = started(Protocol::OpenAi, false);
        measurement.on_chunk(100.0, HELLO.as_bytes());
        assert_eq!(
            measurement.on_chunk(120.0, b"data: {\"choices\": oops}\n\n"),
            Flow::Finished
        );
        let outcome = measurement.finish();
        let error = outcome.error.unwrap();
        assert_eq!(error.kind, ErrorKind::MalformedStream);
        assert_eq!(error.phase, Phase::AfterFirstToken);
        assert!(
            error.message.contains("`{\"choices\": oops}`"),
            "{}",
            error.message
        );
        assert!(error.message.contains("OpenAI-compatible protocol"));
        assert_eq!(outcome.total_ms, Some(120.0));
    }

    #[test]
    fn provider_error_events_stop_the_stream() {
        let mut measurement = started(Protocol::Anthropic, false);
        let body = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
        assert_eq!(measurement.on_chunk(100.0, body.as_bytes()), Flow::Finished);
        let error = measurement.finish().error.unwrap();
        assert_eq!(error.kind, ErrorKind::ProviderError);
        assert_eq!(error.phase, Phase::BeforeFirstToken);
        assert_eq!(
            error.message,
            "the provider reported an error inside the stream: overloaded"
        );
    }

    #[test]
    fn anthropic_stream_ends_on_message_stop() {
        let body = concat!(
            "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"output_tokens\":1}}}\n\n",
            "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0}\n\n",
            "event: ping\ndata: {\"type\": \"ping\"}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"Paris\"}}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\".\"}}\n\n",
            "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
            "event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":3}}\n\n",
            "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
        )
        .as_bytes();
        let paris = body.windows(5).position(|w| w == b"Paris").unwrap();
        // The event is dispatched by the blank line that ends it.
        let token_at = paris + body[paris..].windows(2).position(|w| w == b"\n\n").unwrap() + 2;
        for cut in 0..=body.len() {
            let (first, second) = body.split_at(cut);
            let outcome = run(
                Protocol::Anthropic,
                &[(100.0, first), (200.0, second)],
                300.0,
            );
            assert_eq!(outcome.error, None, "cut {cut}");
            assert_eq!(outcome.output_tokens, Some(3));
            assert!(!outcome.tokens_estimated);
            let first_token_in_first_chunk = cut >= token_at;
            assert_eq!(
                outcome.ttft_ms == Some(100.0),
                first_token_in_first_chunk,
                "cut {cut}"
            );
        }
        let without_stop = &body
            [..body.len() - "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n".len()];
        let outcome = run(Protocol::Anthropic, &[(100.0, without_stop)], 300.0);
        assert_eq!(kind(&outcome), Some(ErrorKind::StreamCut));
        assert!(message(&outcome).contains("`message_stop`"));
    }

    #[test]
    fn gemini_ends_with_the_body_after_a_finish_reason() {
        let first = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"The\"}]}}],\"usageMetadata\":{\"candidatesTokenCount\":1}}\r\n\r\n";
        let last = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\" end\"}]},\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"candidatesTokenCount\":4}}\r\n\r\n";
        let mut measurement = started(Protocol::Gemini, false);
        assert_eq!(
            measurement.on_chunk(100.0, first.as_bytes()),
            Flow::Continue
        );
        assert_eq!(measurement.on_chunk(120.0, last.as_bytes()), Flow::Continue);
        measurement.on_body_end(125.0);
        let outcome = measurement.finish();
        assert_eq!(outcome.error, None);
        assert_eq!(
            (outcome.ttft_ms, outcome.second_token_ms, outcome.total_ms),
            (Some(100.0), Some(120.0), Some(125.0))
        );
        assert_eq!(
            (outcome.output_tokens, outcome.tokens_estimated),
            (Some(4), false)
        );

        let cut = run(Protocol::Gemini, &[(100.0, first.as_bytes())], 130.0);
        assert_eq!(kind(&cut), Some(ErrorKind::StreamCut));
        assert!(message(&cut).contains("`finishReason`"));
        assert_eq!(cut.output_tokens, Some(1));

        // A read error after the finish reason loses nothing.
        let mut late_error = started(Protocol::Gemini, false);
        late_error.on_chunk(100.0, format!("{first}{last}").as_bytes());
        late_error.on_read_error(140.0, "network error");
        let outcome = late_error.finish();
        assert_eq!((outcome.error, outcome.total_ms), (None, Some(140.0)));
    }

    #[test]
    fn a_line_that_never_ends_is_malformed_in_bounded_memory() {
        for first in ["", HELLO] {
            let mut measurement = started(Protocol::OpenAi, false);
            if !first.is_empty() {
                measurement.on_chunk(50.0, first.as_bytes());
            }
            // 64 KiB chunks of `data: xxxx…` with no newline: past 4 MiB the
            // decoder gives up and keeps nothing.
            let mut chunk = b"data: ".to_vec();
            chunk.resize(64 * 1024, b'x');
            let mut flow = Flow::Continue;
            let mut sent = 0usize;
            while flow == Flow::Continue && sent < 100 * 1024 * 1024 {
                flow = measurement.on_chunk(100.0, &chunk);
                sent += chunk.len();
            }
            assert_eq!(flow, Flow::Finished);
            assert!(
                sent <= crate::wire::sse::MAX_LINE_BYTES + chunk.len(),
                "{sent}"
            );
            let outcome = measurement.finish();
            let error = outcome.error.unwrap();
            assert_eq!(error.kind, ErrorKind::MalformedStream);
            assert!(
                error.message.contains("longer than 4 MiB"),
                "{}",
                error.message
            );
            let expected_phase = if first.is_empty() {
                Phase::BeforeFirstToken
            } else {
                Phase::AfterFirstToken
            };
            assert_eq!(error.phase, expected_phase);
        }
    }

    #[test]
    fn an_error_body_is_judged_from_its_first_64_kib() {
        let mut measurement = Measurement::new(Protocol::OpenAi, false);
        assert_eq!(
            measurement.on_headers(40.0, 500, Some("text/html")),
            BodyMode::ErrorBody
        );
        let page = format!("<html>{}", "x".repeat(1024));
        let mut flow = Flow::Continue;
        let mut sent = 0;
        while flow == Flow::Continue && sent < 10 * 1024 * 1024 {
            flow = measurement.on_chunk(50.0, page.as_bytes());
            sent += page.len();
        }
        assert_eq!(flow, Flow::Finished);
        assert!(sent < ERROR_BODY_LIMIT_BYTES + page.len() + 1);
        let error = measurement.finish().error.unwrap();
        assert_eq!(error.kind, ErrorKind::HttpStatus);
        assert!(error.message.len() < 1000, "{}", error.message);
    }

    #[test]
    fn read_errors_are_cuts() {
        let mut measurement = started(Protocol::OpenAi, false);
        measurement.on_chunk(100.0, HELLO.as_bytes());
        measurement.on_read_error(150.0, "TypeError: network error");
        let outcome = measurement.finish();
        let error = outcome.error.unwrap();
        assert_eq!(
            (error.kind, error.phase),
            (ErrorKind::StreamCut, Phase::AfterFirstToken)
        );
        assert!(error.message.starts_with(
            "the connection broke while reading the stream (TypeError: network error)"
        ));
        assert_eq!(outcome.total_ms, Some(150.0));
    }

    #[test]
    fn a_failed_connection_names_its_step_and_keeps_the_systems_words() {
        for (failure, kind, words) in [
            (ConnectFailure::Dns, ErrorKind::Dns, "did not resolve"),
            (
                ConnectFailure::Connect,
                ErrorKind::CorsOrNetwork,
                "could not reach the provider",
            ),
            (ConnectFailure::Tls, ErrorKind::Tls, "TLS handshake"),
        ] {
            let mut measurement = Measurement::new(Protocol::OpenAi, false);
            measurement.on_connect_failed(3.5, failure, "connection  refused\n(os error 111)");
            let outcome = measurement.finish();
            let error = outcome.error.unwrap();
            assert_eq!((error.kind, error.phase), (kind, Phase::Request));
            assert!(error.message.contains(words), "{}", error.message);
            assert!(
                error
                    .message
                    .contains("(connection refused (os error 111))"),
                "{}",
                error.message
            );
            assert_eq!(outcome.total_ms, Some(3.5));
        }
    }

    #[test]
    fn fetch_rejection_is_cors_or_network_before_headers() {
        let mut measurement = Measurement::new(Protocol::OpenAi, false);
        measurement.on_fetch_rejected(
            12.0,
            Some("answers browser requests from any origin"),
            "TypeError: Failed to fetch",
        );
        let outcome = measurement.finish();
        let error = outcome.error.unwrap();
        assert_eq!(
            (error.kind, error.phase),
            (ErrorKind::CorsOrNetwork, Phase::Request)
        );
        assert_eq!(
            error.message,
            crate::words::failure::blocked_request_text(
                Lang::En,
                Some("answers browser requests from any origin"),
                "TypeError: Failed to fetch"
            )
        );
        assert_eq!((outcome.headers_ms, outcome.total_ms), (None, Some(12.0)));
    }

    #[test]
    fn timeouts_name_the_phase() {
        let mut before_headers = Measurement::new(Protocol::OpenAi, false);
        before_headers.on_timeout(120_000.0, 120.0);
        let error = before_headers.finish().error.unwrap();
        assert_eq!(
            (error.kind, error.phase),
            (ErrorKind::Timeout, Phase::Request)
        );
        assert!(error.message.starts_with("no response within 120 s"));

        let mut before_token = started(Protocol::OpenAi, false);
        before_token.on_chunk(100.0, ROLE.as_bytes());
        before_token.on_timeout(120_000.0, 120.0);
        let outcome = before_token.finish();
        let error = outcome.error.unwrap();
        assert_eq!(
            (error.kind, error.phase),
            (ErrorKind::Timeout, Phase::BeforeFirstToken)
        );
        assert_eq!(
            error.message,
            "no first token within 120 s: the provider may be cold-starting; raise the timeout or \
             retry later"
        );
        assert_eq!(
            (outcome.first_byte_ms, outcome.total_ms),
            (Some(100.0), Some(120_000.0))
        );

        let mut after_token = started(Protocol::OpenAi, false);
        after_token.on_chunk(100.0, HELLO.as_bytes());
        after_token.on_timeout(2_500.0, 2.5);
        let error = after_token.finish().error.unwrap();
        assert_eq!(error.phase, Phase::AfterFirstToken);
        assert!(error.message.contains("after 2.5 s"));
    }

    #[test]
    fn the_first_error_wins() {
        let mut measurement = started(Protocol::OpenAi, false);
        measurement.on_timeout(1_000.0, 1.0);
        assert_eq!(
            measurement.on_chunk(1_100.0, HELLO.as_bytes()),
            Flow::Finished
        );
        measurement.on_read_error(1_200.0, "x");
        measurement.on_body_end(1_300.0);
        measurement.on_error_body(1_300.0, "x");
        measurement.on_fetch_rejected(1_300.0, None, "x");
        measurement.on_abort(1_400.0);
        let outcome = measurement.finish();
        assert_eq!(kind(&outcome), Some(ErrorKind::Timeout));
        assert_eq!(
            (outcome.ttft_ms, outcome.first_byte_ms, outcome.total_ms),
            (None, None, Some(1_000.0))
        );

        let mut done = started(Protocol::OpenAi, false);
        done.on_chunk(100.0, format!("{HELLO}{DONE}").as_bytes());
        done.on_abort(200.0);
        let outcome = done.finish();
        assert_eq!((outcome.error, outcome.total_ms), (None, Some(100.0)));
    }

    #[test]
    fn abort_and_unfinished_measurements() {
        let mut aborted = started(Protocol::OpenAi, false);
        aborted.on_chunk(100.0, HELLO.as_bytes());
        aborted.on_abort(130.0);
        let error = aborted.finish().error.unwrap();
        assert_eq!(
            (error.kind, error.phase),
            (ErrorKind::Aborted, Phase::AfterFirstToken)
        );

        let mut unfinished = started(Protocol::OpenAi, false);
        unfinished.on_chunk(100.0, HELLO.as_bytes());
        let outcome = unfinished.finish();
        assert_eq!(kind(&outcome), Some(ErrorKind::StreamCut));
        assert_eq!(outcome.total_ms, None);
    }

    #[test]
    fn empty_chunks_and_non_finite_times_are_harmless() {
        let mut measurement = started(Protocol::OpenAi, false);
        assert_eq!(measurement.on_chunk(90.0, b""), Flow::Continue);
        measurement.on_chunk(f64::NAN, HELLO.as_bytes());
        measurement.on_chunk(110.0, WORLD.as_bytes());
        measurement.on_chunk(f64::INFINITY, DONE.as_bytes());
        let outcome = measurement.finish();
        assert_eq!(outcome.first_byte_ms, None);
        assert_eq!(outcome.error, None);
        assert_eq!(outcome.ttft_ms, None);
        assert_eq!(outcome.second_token_ms, Some(110.0));
        assert_eq!(outcome.total_ms, None);
    }

    #[test]
    fn demo_replies_measure_to_their_script() {
        for (model, _) in crate::wire::demo::DEMO_MODELS {
            for seq in 0..20 {
                let reply = demo_reply(model, seq, 5);
                let mut measurement = Measurement::new(Protocol::Demo, false);
                measurement.on_headers(reply.headers_at_ms, reply.status, Some(reply.content_type));
                let first_content_ms = reply
                    .chunks
                    .iter()
                    .find(|chunk| {
                        chunk.bytes.windows(10).any(|w| w == b"\"content\":")
                            && !chunk.bytes.windows(12).any(|w| w == b"\"content\":\"\"")
                    })
                    .map(|chunk| chunk.at_ms);
                let mut finished_at = None;
                for chunk in &reply.chunks {
                    if measurement.on_chunk(chunk.at_ms, &chunk.bytes) == Flow::Finished {
                        finished_at = Some(chunk.at_ms);
                        break;
                    }
                }
                let last_ms = reply.chunks.last().map(|chunk| chunk.at_ms);
                let outcome = measurement.finish();
                assert_eq!(outcome.error, None, "{model} {seq}");
                assert_eq!(outcome.ttft_ms, first_content_ms, "{model} {seq}");
                assert_eq!(finished_at, last_ms);
                assert_eq!(outcome.total_ms, last_ms);
                assert!(!outcome.tokens_estimated);
            }
        }
    }

    /// One call a browser could make.
    #[derive(Clone, Debug)]
    enum Call {
        Headers(u16, Option<String>),
        Chunk(Vec<u8>),
        BodyEnd,
        ErrorBody(String),
        Rejected,
        ReadError,
        Timeout,
        Abort,
    }

    fn call() -> impl Strategy<Value = Call> {
        let chunk_bytes = prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..40),
            prop_oneof![
                Just(ROLE),
                Just(HELLO),
                Just(WORLD),
                Just(STOP),
                Just(USAGE),
                Just(DONE),
                Just("data: {\"type\":\"message_stop\"}\n\n"),
                Just("data: {\"candidates\":[{\"finishReason\":\"STOP\"}]}\n\n"),
                Just("data: {\"error\":{\"message\":\"x\"}}\n\n"),
                Just("data: {\n\n"),
                Just("\r\n"),
                Just(": c\n"),
            ]
            .prop_map(|text| text.as_bytes().to_vec()),
        ];
        prop_oneof![
            1 => (100_u16..600, proptest::option::of("[a-z/+;= -]{0,24}")).prop_map(|(s, c)| Call::Headers(s, c)),
            6 => chunk_bytes.prop_map(Call::Chunk),
            1 => Just(Call::BodyEnd),
            1 => ".{0,40}".prop_map(Call::ErrorBody),
            1 => Just(Call::Rejected),
            1 => Just(Call::ReadError),
            1 => Just(Call::Timeout),
            1 => Just(Call::Abort),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        #[test]
        fn any_call_sequence_never_panics_and_settles_once(
            protocol in prop_oneof![Just(Protocol::OpenAi), Just(Protocol::Anthropic), Just(Protocol::Gemini), Just(Protocol::Demo)],
            reasoning_first in any::<bool>(),
            calls in proptest::collection::vec(call(), 0..24),
        ) {
            let mut measurement = Measurement::new(protocol, reasoning_first);
            let mut settled_error = None;
            for (index, call) in calls.into_iter().enumerate() {
                let t_ms = index as f64 * 10.0;
                match call {
                    Call::Headers(status, content_type) => { measurement.on_headers(t_ms, status, content_type.as_deref()); }
                    Call::Chunk(bytes) => { measurement.on_chunk(t_ms, &bytes); }
                    Call::BodyEnd => measurement.on_body_end(t_ms),
                    Call::ErrorBody(body) => measurement.on_error_body(t_ms, &body),
                    Call::Rejected => measurement.on_fetch_rejected(t_ms, None, "hint"),
                    Call::ReadError => measurement.on_read_error(t_ms, "detail"),
                    Call::Timeout => measurement.on_timeout(t_ms, 1.0),
                    Call::Abort => measurement.on_abort(t_ms),
                }
                // Once an error is recorded it never changes.
                if settled_error.is_none() {
                    settled_error = measurement.error.clone();
                } else {
                    prop_assert_eq!(&measurement.error, &settled_error);
                }
            }
            let outcome = measurement.finish();
            if settled_error.is_some() {
                prop_assert_eq!(&outcome.error, &settled_error);
            }
            // A success always has its first token and its end time.
            if outcome.error.is_none() {
                prop_assert!(outcome.ttft_ms.is_some());
                prop_assert!(outcome.total_ms.is_some());
            }
            if let Some(error) = &outcome.error {
                prop_assert!(!error.message.is_empty());
            }
        }
    }
}
