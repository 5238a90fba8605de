//! Rate limits and first-try success: what the status codes of a run say,
//! and what a provider's rate-limit headers said when it refused.
//!
//! A measurement never retries: a 429 is a sample like any other, so the
//! share of requests that succeeded is the *first-try* success rate a
//! client without retries would see. When the provider refused with a
//! non-2xx status, the sample keeps the headers that say why and for how
//! long ([`RateLimitHeaders`]): `Retry-After` (seconds, or an HTTP date),
//! OpenAI's `retry-after-ms` and `x-ratelimit-remaining-*` /
//! `x-ratelimit-reset-*`, and Anthropic's `anthropic-ratelimit-*-remaining`
//! / `-reset`.
//!
//! The native runner reads every header. A page can read only the headers
//! the provider exposes to scripts (`Access-Control-Expose-Headers`); when
//! none beyond the CORS-safelisted ones was visible,
//! [`RateLimitHeaders::headers_visible`] is `false` and the results say the
//! figures could not be read, rather than that the provider sent none.

use serde::{Deserialize, Serialize};

/// A header value longer than this, or holding anything but visible ASCII,
/// is not kept: a hostile server decides what its headers say.
pub(crate) const MAX_HEADER_VALUE_CHARS: usize = 64;

/// The response headers any page may read, whatever the server exposes
/// (the Fetch standard's CORS-safelisted response-header names).
pub(crate) const CORS_SAFELISTED: [&str; 7] = [
    "cache-control",
    "content-language",
    "content-length",
    "content-type",
    "expires",
    "last-modified",
    "pragma",
];

/// The rate-limit headers of one refused request, as the results file
/// stores them on its sample (`rate_limit`). Every member is what the
/// provider sent, checked and trimmed; `None` when it was not sent or not
/// readable.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RateLimitHeaders {
    /// `Retry-After` in seconds (from delta-seconds, or from OpenAI's
    /// `retry-after-ms`).
    #[serde(default)]
    pub retry_after_s: Option<f64>,
    /// `Retry-After` as sent, when it is an HTTP date rather than seconds.
    #[serde(default)]
    pub retry_after_date: Option<String>,
    /// Requests left in the window (`x-ratelimit-remaining-requests`,
    /// `anthropic-ratelimit-requests-remaining`).
    #[serde(default)]
    pub remaining_requests: Option<String>,
    /// Tokens left in the window (`x-ratelimit-remaining-tokens`,
    /// `anthropic-ratelimit-tokens-remaining`).
    #[serde(default)]
    pub remaining_tokens: Option<String>,
    /// When the request window resets, as sent (`6m0s`, `1s`, an RFC 3339
    /// time…): `x-ratelimit-reset-requests`,
    /// `anthropic-ratelimit-requests-reset`.
    #[serde(default)]
    pub reset_requests: Option<String>,
    /// When the token window resets, as sent: `x-ratelimit-reset-tokens`,
    /// `anthropic-ratelimit-tokens-reset`.
    #[serde(default)]
    pub reset_tokens: Option<String>,
    /// The client could read response headers beyond the CORS-safelisted
    /// ones. Always `true` for the native runner; `false` on the page when
    /// the provider exposes none to scripts, in which case every member
    /// above is `None` because it could not be read, not because it was
    /// not sent.
    pub headers_visible: bool,
}

impl RateLimitHeaders {
    /// Whether any rate-limit figure was read.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn any(&self) -> bool {
        self.retry_after_s.is_some()
            || self.retry_after_date.is_some()
            || self.remaining_requests.is_some()
            || self.remaining_tokens.is_some()
            || self.reset_requests.is_some()
            || self.reset_tokens.is_some()
    }
}

/// Reads the rate-limit headers from `headers` (name, value; names in any
/// case). `all_visible` is `true` for a client that sees every header (the
/// runner); a page passes `false` and visibility is judged from what it
/// could see.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn read_rate_limit<'a>(
    headers: impl IntoIterator<Item = (&'a str, &'a str)>,
    all_visible: bool,
) -> RateLimitHeaders {
    let mut read = RateLimitHeaders {
        headers_visible: all_visible,
        ..RateLimitHeaders::default()
    };
    let mut retry_after_ms = None;
    for (name, value) in headers {
        let name = name.trim().to_ascii_lowercase();
        if !CORS_SAFELISTED.contains(&name.as_str()) {
            read.headers_visible = true;
        }
        let Some(value) = clean(value) else { continue };
        let slot = match name.as_str() {
            "retry-after" => {
                match value.parse::<f64>() {
                    Ok(seconds) if seconds.is_finite() && seconds >= 0.0 => {
                        read.retry_after_s = Some(seconds);
                    }
                    _ => read.retry_after_date = Some(value),
                }
                continue;
            }
            "retry-after-ms" => {
                retry_after_ms = value
                    .parse::<f64>()
                    .ok()
                    .filter(|ms| ms.is_finite() && *ms >= 0.0);
                continue;
            }
            "x-ratelimit-remaining-requests" | "anthropic-ratelimit-requests-remaining" => {
                &mut read.remaining_requests
            }
            "x-ratelimit-remaining-tokens" | "anthropic-ratelimit-tokens-remaining" => {
                &mut read.remaining_tokens
            }
            "x-ratelimit-reset-requests" | "anthropic-ratelimit-requests-reset" => {
                &mut read.reset_requests
            }
            "x-ratelimit-reset-tokens" | "anthropic-ratelimit-tokens-reset" => {
                &mut read.reset_tokens
            }
            _ => continue,
        };
        slot.get_or_insert(value);
    }
    if read.retry_after_s.is_none() {
        read.retry_after_s = retry_after_ms.map(|ms| ms / 1000.0);
    }
    read
}

/// A header value worth keeping: trimmed, short, visible ASCII only.
#[cfg_attr(target_arch = "wasm32", inline)]
fn clean(value: &str) -> Option<String> {
    let value = value.trim();
    (!value.is_empty()
        && value.len() <= MAX_HEADER_VALUE_CHARS
        && value.bytes().all(|b| b.is_ascii_graphic() || b == b' '))
    .then(|| value.to_owned())
}

/// Requests per status class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusCounts {
    /// 2xx responses (a 2xx stream may still have failed later).
    pub ok: usize,
    /// 429 responses.
    pub rate_limited: usize,
    /// Other 4xx responses.
    pub client_error: usize,
    /// 5xx responses.
    pub server_error: usize,
    /// No response status (network, CORS, timeout before headers).
    pub no_status: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_openai_and_anthropic_headers_and_keeps_only_clean_values() {
        let read = read_rate_limit(
            [
                ("Retry-After", "20"),
                ("x-ratelimit-remaining-requests", "0"),
                ("x-ratelimit-reset-requests", "6m0s"),
                ("x-ratelimit-remaining-tokens", "  149984 "),
                ("X-RateLimit-Reset-Tokens", "\u{1b}[31mred"),
                ("content-type", "application/json"),
            ],
            false,
        );
        assert_eq!(read.retry_after_s, Some(20.0));
        assert_eq!(read.remaining_requests.as_deref(), Some("0"));
        assert_eq!(read.reset_requests.as_deref(), Some("6m0s"));
        assert_eq!(read.remaining_tokens.as_deref(), Some("149984"));
        assert_eq!(read.reset_tokens, None, "control characters are not kept");
        assert!(read.headers_visible);

        let anthropic = read_rate_limit(
            [
                ("retry-after", "Wed, 21 Oct 2026 07:28:00 GMT"),
                ("anthropic-ratelimit-requests-remaining", "3"),
                ("anthropic-ratelimit-tokens-reset", "2026-10-21T07:28:00Z"),
            ],
            true,
        );
        assert_eq!(anthropic.retry_after_s, None);
        assert_eq!(
            anthropic.retry_after_date.as_deref(),
            Some("Wed, 21 Oct 2026 07:28:00 GMT")
        );
        assert_eq!(anthropic.remaining_requests.as_deref(), Some("3"));
        assert_eq!(
            anthropic.reset_tokens.as_deref(),
            Some("2026-10-21T07:28:00Z")
        );

        let ms = read_rate_limit([("retry-after-ms", "1500")], true);
        assert_eq!(ms.retry_after_s, Some(1.5));
        let long = "9".repeat(MAX_HEADER_VALUE_CHARS + 1);
        assert!(!read_rate_limit([("retry-after", long.as_str())], true).any());
    }

    #[test]
    fn a_page_that_sees_only_safelisted_headers_says_so() {
        let read = read_rate_limit(
            [
                ("content-type", "application/json"),
                ("cache-control", "no-store"),
            ],
            false,
        );
        assert!(!read.headers_visible);
        assert!(!read.any());
    }
}
