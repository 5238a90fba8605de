//! The vocabulary of a failed request: what went wrong ([`ErrorKind`]), how
//! far the request got ([`Phase`]) and the message ([`SampleError`]). A
//! leaf module: the measurement, the samples, the dashboard's records and
//! the adapters all name failures, and none of them is needed to say one.

use serde::{Deserialize, Serialize};

/// A classified failure, with a message a person can act on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SampleError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// How far the request got.
    pub phase: Phase,
    /// Plain words: what happened and what to do. Never contains a key.
    pub message: String,
}

/// What went wrong with a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// `fetch()` rejected with a TypeError: CORS blocked it, or the network
    /// failed. The browser does not say which.
    CorsOrNetwork,
    /// The provider answered with a non-2xx status.
    HttpStatus,
    /// No first token before the plan's timeout.
    Timeout,
    /// The connection closed before the stream's proper end.
    StreamCut,
    /// The body was SSE but its events could not be understood.
    MalformedStream,
    /// The provider sent an error event inside a 200 stream.
    ProviderError,
    /// A 2xx body that is not an event stream (e.g. a JSON or HTML page).
    NotSse,
    /// The user stopped the run while this request was in flight.
    Aborted,
    /// The provider's host name did not resolve. Only a native client can
    /// tell this apart; the page reports it as `CorsOrNetwork`.
    Dns,
    /// The TLS handshake failed. Only a native client can tell this apart;
    /// the page reports it as `CorsOrNetwork`.
    Tls,
    /// The provider refused the prompt as longer than the model's context
    /// window (HTTP 413, or the providers' "context length exceeded"
    /// errors): a size the target cannot take, not a failure of the
    /// service.
    ContextExceeded,
}

impl ErrorKind {
    /// Every kind, in declaration order.
    pub const ALL: [Self; 11] = [
        Self::CorsOrNetwork,
        Self::HttpStatus,
        Self::Timeout,
        Self::StreamCut,
        Self::MalformedStream,
        Self::ProviderError,
        Self::NotSse,
        Self::Aborted,
        Self::Dns,
        Self::Tls,
        Self::ContextExceeded,
    ];

    /// The name used in exported documents (serde's name for the variant).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::CorsOrNetwork => "cors_or_network",
            Self::HttpStatus => "http_status",
            Self::Timeout => "timeout",
            Self::StreamCut => "stream_cut",
            Self::MalformedStream => "malformed_stream",
            Self::ProviderError => "provider_error",
            Self::NotSse => "not_sse",
            Self::Aborted => "aborted",
            Self::Dns => "dns",
            Self::Tls => "tls",
            Self::ContextExceeded => "context_exceeded",
        }
    }
}

/// How far a request got before it failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Before the response headers arrived (connect, CORS, send).
    Request,
    /// Headers arrived; no content token yet.
    BeforeFirstToken,
    /// At least one content token had arrived.
    AfterFirstToken,
}

impl Phase {
    /// Every phase, in order.
    pub const ALL: [Self; 3] = [Self::Request, Self::BeforeFirstToken, Self::AfterFirstToken];

    /// The name used in exported documents (serde's name for the variant).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Request => "request",
            Self::BeforeFirstToken => "before_first_token",
            Self::AfterFirstToken => "after_first_token",
        }
    }
}

/// Whether an error reply says the prompt is longer than the model takes:
/// HTTP 413, or a 400 whose body carries one of the providers' words for it
/// (OpenAI's `context_length_exceeded`, Anthropic's "prompt is too long",
/// Gemini's "exceeds the maximum number of tokens", vLLM's "maximum
/// context length").
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn is_context_exceeded(status: u16, body: &str) -> bool {
    if status == 413 {
        return true;
    }
    if status != 400 {
        return false;
    }
    let body = body.to_lowercase();
    [
        "context_length_exceeded",
        "maximum context length",
        "context length exceeded",
        "prompt is too long",
        "exceeds the maximum number of tokens",
        "exceeds the context window",
        "too many input tokens",
    ]
    .iter()
    .any(|words| body.contains(words))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_providers_words_for_a_prompt_too_long_are_known() {
        assert!(is_context_exceeded(413, ""));
        assert!(is_context_exceeded(
            400,
            r#"{"error":{"code":"context_length_exceeded","message":"This model's maximum context length is 8192 tokens"}}"#
        ));
        assert!(is_context_exceeded(
            400,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#
        ));
        assert!(is_context_exceeded(
            400,
            "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."
        ));
        assert!(!is_context_exceeded(400, "temperature must be below 2"));
        assert!(!is_context_exceeded(500, "maximum context length"));
    }
}
