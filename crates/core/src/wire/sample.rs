//! One request's outcome: its timings or its error, exactly as it is exported
//! in the results document (`firsttoken_results` version 1).
//!
//! An error is a sample too: error rate is a signal, and a run that dropped
//! its failures would flatter the provider that fails most.

use serde::{Deserialize, Serialize};

pub use crate::base::failure::{ErrorKind, Phase, SampleError};
use crate::planning::fidelity::reply::ToolCall;
use crate::planning::fidelity::suite::Probe;
use crate::planning::fidelity::verify::{ProbeAnswer, ProbeCheck, ProbeReply, verify};
pub use crate::planning::prompt::SizedPrompt;
use crate::planning::schedule::PlannedRequest;
use crate::wire::measure::Outcome;
use crate::wire::ratelimit::RateLimitHeaders;
use crate::wire::stream_shape::StreamShape;

/// One measured request.
///
/// `planned_at_ms` and `sent_at_ms` are Unix epoch milliseconds (wall clock);
/// every other `*_ms` field is milliseconds from `t0`, the `performance.now()`
/// reading taken just before `fetch()` was called. A timing is `None` when the
/// request never reached that point (an error, or no reasoning at all).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// Index of the target in the plan's `targets`.
    pub target: u32,
    /// Position of this request within its target, warm-ups included, from 0.
    pub seq: u32,
    /// A warm-up request: kept and labelled, left out of the statistics.
    pub warmup: bool,
    /// When the scheduler meant to send it (epoch ms).
    pub planned_at_ms: f64,
    /// When it was actually sent (epoch ms); later than planned when the
    /// browser delayed the timer.
    pub sent_at_ms: f64,
    /// The tab was hidden at some point between planning and sending.
    pub hidden: bool,
    /// Response headers received (the `fetch()` promise resolved).
    pub headers_ms: Option<f64>,
    /// First body chunk arrived.
    pub first_byte_ms: Option<f64>,
    /// First reasoning / thinking delta, if the model sent any.
    pub first_reasoning_ms: Option<f64>,
    /// Time to first token: the first non-empty content delta (or the first
    /// reasoning delta when the plan counts reasoning as the first token).
    pub ttft_ms: Option<f64>,
    /// The second token-bearing delta, for time-between-tokens.
    pub second_token_ms: Option<f64>,
    /// The stream ended (or failed).
    pub total_ms: Option<f64>,
    /// Output tokens: the provider's usage count when sent, else counted deltas.
    pub output_tokens: Option<u32>,
    /// `output_tokens` was counted from deltas, not reported by the provider.
    pub tokens_estimated: bool,
    /// Why the request failed, or `None` when it succeeded.
    pub error: Option<SampleError>,
    /// Prompt tokens the provider says it served from its prompt cache (0: a
    /// reported miss); `None` when the provider did not say. Written last and
    /// read as `None` when absent: results written before it existed lack it.
    #[serde(default)]
    pub cached_tokens: Option<u32>,
    /// How long opening the request's connection took, when the request
    /// opened one and the client can see it (the native runner); `None`
    /// for a request on a reused connection and for every request the page
    /// sends (a browser does not say). Missing in older files, read as
    /// `None`.
    #[serde(default)]
    pub connection: Option<ConnectionPhases>,
    /// The response's HTTP status, when headers arrived; `None` for a
    /// request that failed before them, and in older files.
    #[serde(default)]
    pub http_status: Option<u16>,
    /// Prompt tokens as the provider counted them, cached ones included
    /// (for Anthropic: `input_tokens` + cache reads + cache writes); `None`
    /// when its usage did not say, and in older files.
    #[serde(default)]
    pub input_tokens: Option<u32>,
    /// The rate-limit headers of a refused request (a non-2xx status):
    /// `Retry-After`, `x-ratelimit-*`, `anthropic-ratelimit-*`
    /// ([`RateLimitHeaders`]). `None` for a 2xx answer, a request without
    /// headers, and in older files.
    #[serde(default)]
    pub rate_limit: Option<RateLimitHeaders>,
    /// Gaps, stalls and buffering after the first token
    /// ([`StreamShape`]); `None` without a first token, and in older files.
    #[serde(default)]
    pub stream: Option<StreamShape>,
    /// The fidelity probe this request sent (its id in the plan's suite);
    /// `None` for a latency request. A probe's prompt is not the plan's, so
    /// probe samples stay out of every latency figure. The probe members
    /// below are left out of the document when `None`, so a latency-only
    /// file reads and writes as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probe: Option<String>,
    /// A probe's answer text, at most
    /// [`crate::planning::fidelity::reply::MAX_ANSWER_CHARS`] characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// A probe's function calls, arguments as streamed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Vec<ToolCall>>,
    /// A probe reply's finish or stop reason, as the provider sent it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    /// The verifier's outcome for a probe reply, as it was when measured
    /// (readers verify again from the members above).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<ProbeCheck>,
    /// The synthetic prompt's requested size and, for a cache-probe
    /// repeat, the `seq` of the send it repeats; left out of documents for
    /// a plan without `prompt_sizes`. The analysis uses `input_tokens`,
    /// the provider's count, never the requested size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sized_prompt: Option<SizedPrompt>,
    /// The idle gap it was sent after, seconds: how long its target was
    /// planned to sit idle from this client, from the end of its previous
    /// request to this send (at least that long; see
    /// [`crate::planning::schedule`]). Left out of documents for a plan
    /// without `idle_gaps_s`, so such files read and write as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle_gap_s: Option<f64>,
    /// How long its target had in fact sat idle from this client before
    /// this send, seconds: from the end of the target's previous request
    /// to this send, on the sending client's clock. At least the planned
    /// `idle_gap_s`, more when another target's request was still in
    /// flight; the idle figures group requests by it. Only with idle gaps;
    /// left out of documents otherwise (and absent in older files, whose
    /// readers fall back on the planned gap).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle_s: Option<f64>,
    /// Whether the request went on a connection an earlier request had
    /// opened (`true`) or opened its own (`false`, its phases in
    /// `connection`); `None` when the client cannot tell (the page) and in
    /// older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reused_connection: Option<bool>,
    /// How long the client's connection to this origin had sat idle when
    /// the request was sent, seconds: the one it reused, or the one it found
    /// closed and replaced. With targets that share an origin this is
    /// shorter than the target's own idle, and the connection's window is
    /// read from it. `None` when the client kept no connection there (its
    /// first request, or the last ended mid-reply), for the page, and in
    /// older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connection_idle_s: Option<f64>,
    /// Its first attempt went on a reused connection that closed before
    /// any byte of a response came (the server's keep-alive close racing
    /// the send), so it was sent once more on a new connection, as a
    /// browser does. Its times run from the first attempt's start: the
    /// wasted attempt is in them, not hidden. Left out when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub retried: bool,
    /// The runner sent it on a new connection on purpose, as its plan
    /// asked ([`PlannedRequest::fresh_connection`]: every other request
    /// after the shortest idle gap, where the model is warm), so the idle
    /// figures can measure what a new connection costs. Left out when
    /// false: every request the page sends (a browser cannot choose its
    /// connections), and older files.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fresh_connection: bool,
}

/// The steps of opening a connection, each in milliseconds on the monotonic
/// clock; their sum is part of the request's `headers_ms` (they happen after
/// `t0`). They separate the network from the provider: a slow `connect_ms`
/// is the path to the provider, a slow `ttft_ms` with fast phases is the
/// provider.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConnectionPhases {
    /// Resolving the host name; `None` when the URL names an IP address
    /// (no lookup).
    pub dns_ms: Option<f64>,
    /// The TCP connect, every address tried included.
    pub connect_ms: f64,
    /// The TLS handshake; `None` for plain `http://`.
    pub tls_ms: Option<f64>,
}

impl ConnectionPhases {
    /// Opening the connection in all: DNS + TCP + TLS, ms.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn setup_ms(&self) -> f64 {
        self.dns_ms.unwrap_or(0.0) + self.connect_ms + self.tls_ms.unwrap_or(0.0)
    }
}

impl Sample {
    /// The sample of `planned`, sent at `sent_at_ms` (epoch ms), measured as
    /// `outcome`; `hidden` says the page was hidden meanwhile. Both
    /// adapters build their samples here.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn from_outcome(
        planned: &PlannedRequest,
        sent_at_ms: f64,
        hidden: bool,
        outcome: Outcome,
    ) -> Self {
        let probe = planned.probe.and_then(|planned| planned.probe());
        let reply = probe.and(outcome.reply.as_ref());
        let check = probe
            .zip(reply)
            .filter(|_| outcome.error.is_none())
            .map(|(probe, reply)| {
                verify(
                    probe,
                    &ProbeReply::kept(
                        Some(&reply.answer),
                        Some(&reply.tool_calls),
                        reply.finish_reason.as_deref(),
                        outcome.output_tokens,
                        outcome.tokens_estimated,
                    ),
                )
            });
        let reply = reply.cloned();
        Self {
            target: planned.target,
            seq: planned.seq,
            warmup: planned.warmup,
            planned_at_ms: planned.planned_at_ms,
            sent_at_ms,
            hidden,
            headers_ms: outcome.headers_ms,
            first_byte_ms: outcome.first_byte_ms,
            first_reasoning_ms: outcome.first_reasoning_ms,
            ttft_ms: outcome.ttft_ms,
            second_token_ms: outcome.second_token_ms,
            total_ms: outcome.total_ms,
            output_tokens: outcome.output_tokens,
            tokens_estimated: outcome.tokens_estimated,
            cached_tokens: outcome.cached_tokens,
            error: outcome.error,
            connection: None,
            http_status: outcome.http_status,
            input_tokens: outcome.input_tokens,
            sized_prompt: planned.sized_prompt,
            idle_gap_s: planned.idle_gap_s,
            idle_s: planned
                .idle_since_ms
                .map(|end_ms| ((sent_at_ms - end_ms) / 1000.0).max(0.0))
                .filter(|s| s.is_finite()),
            reused_connection: None,
            connection_idle_s: None,
            retried: false,
            fresh_connection: false,
            rate_limit: outcome.rate_limit,
            stream: outcome.stream,
            probe: probe.map(|probe| probe.id.to_owned()),
            answer: reply.as_ref().map(|reply| reply.answer.clone()),
            tool_calls: reply
                .as_ref()
                .map(|reply| reply.tool_calls.clone())
                .filter(|calls| !calls.is_empty()),
            finish_reason: reply.and_then(|reply| reply.finish_reason),
            check,
        }
    }

    /// Replaces each of `keys` with `[key]` wherever the provider's words
    /// are kept (the error message, a probe's answer and its call
    /// arguments), by [`redact_keys`]'s one rule. A reply is a stranger's
    /// text, and a server that echoes a key must not put it in an exported
    /// file; the page and the runner pass every key the run holds, not
    /// only the one this request sent.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn redact_keys(&mut self, keys: &[&str]) {
        let texts = self
            .error
            .as_mut()
            .map(|error| &mut error.message)
            .into_iter()
            .chain(self.answer.as_mut())
            .chain(
                self.tool_calls
                    .iter_mut()
                    .flatten()
                    .map(|call| &mut call.arguments),
            );
        for text in texts {
            *text = redact_keys(text, keys);
        }
    }

    /// A fidelity probe's request: not a latency figure.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn is_probe(&self) -> bool {
        self.probe.is_some()
    }

    /// The reply this sample kept, as the verifier reads it.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn probe_reply(&self) -> ProbeReply<'_> {
        ProbeReply::kept(
            self.answer.as_deref(),
            self.tool_calls.as_deref(),
            self.finish_reason.as_deref(),
            self.output_tokens,
            self.tokens_estimated,
        )
    }

    /// This sample's reply to `probe`, verified again from what it kept
    /// (its own `check`, which a file could forge, is never read).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn verify_probe(&self, probe: &Probe) -> ProbeCheck {
        verify(probe, &self.probe_reply())
    }

    /// Every probe request among `samples`, as the fidelity scoring reads
    /// it (a failed request has no reply).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn probe_answers(samples: &[Self]) -> impl Iterator<Item = ProbeAnswer<'_>> {
        samples.iter().enumerate().filter_map(|(index, sample)| {
            Some(ProbeAnswer {
                sample: index,
                target: sample.target,
                probe: sample.probe.as_deref()?,
                reply: sample.error.is_none().then(|| sample.probe_reply()),
                prompt_tokens: sample.input_tokens,
            })
        })
    }

    /// The measured TTFT of a non-warm-up sample whose first token came: a
    /// success, or a request that failed only *after* its first token (a
    /// stream cut mid-reply still timed its first token exactly). What the
    /// latency figures rank, beside the censored timeouts of [`Self::rank`].
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn counted_ttft_ms(&self) -> Option<f64> {
        match (&self.error, self.warmup) {
            (_, true) => None,
            (None, false) => self.ttft_ms,
            (Some(error), false) if error.phase == Phase::AfterFirstToken => self.ttft_ms,
            (Some(_), false) => None,
        }
    }

    /// How this sample enters the TTFT ranks of a plan whose timeout is
    /// `timeout_ms`.
    ///
    /// A request that never saw its first token within the timeout is not
    /// missing data: it took *at least* the timeout, so it ranks as a
    /// right-censored value there ([`TtftRank::Censored`]). That covers a
    /// `timeout` error and any other failure before the first token that
    /// came only once the timeout had passed. Every other failure (an HTTP
    /// status, CORS, a malformed stream, a stop by the user) says nothing
    /// about latency and stays out of the ranks; it counts in the error rate.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn rank(&self, timeout_ms: f64) -> TtftRank {
        rank_of(
            self.warmup,
            self.ttft_ms,
            self.total_ms,
            self.error.as_ref().map(|e| (e.kind, e.phase)),
            timeout_ms,
        )
    }

    /// How this sample enters a target's **decisions** (verdict, tail
    /// band, slow count, rank and route): as [`Sample::rank`], except that
    /// a failure before the first token enters at the timeout, censored,
    /// like a timeout. A failed request is at least as bad as the slowest
    /// answer, and a decision that left it out could improve when a slow
    /// request turned into an error (its slow count fell with it). A stop
    /// by the user and a prompt refused as over the model's context window
    /// say nothing of the provider and stay out, as they stay out of the
    /// error rate. The figures that describe a target (median, p95, CV,
    /// the cold-start tail) keep [`Sample::rank`].
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn decision_rank(&self, timeout_ms: f64) -> TtftRank {
        decision_rank_of(
            self.warmup,
            self.ttft_ms,
            self.total_ms,
            self.error.as_ref().map(|e| (e.kind, e.phase)),
            timeout_ms,
        )
    }

    /// A failure before the first token that the decisions count at the
    /// timeout: out of [`Sample::rank`], censored in
    /// [`Sample::decision_rank`].
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn failed_before_first_token(&self) -> bool {
        // Any finite timeout tells the two ranks apart the same way.
        self.rank(1.0) == TtftRank::Excluded && self.decision_rank(1.0) == TtftRank::Censored
    }

    /// Decode rate in tokens per second after the first token, when known:
    /// (tokens − 1) / (total − ttft).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn decode_rate_tps(&self) -> Option<f64> {
        let (ttft, total, tokens) = (self.ttft_ms?, self.total_ms?, self.output_tokens?);
        let span_ms = total - ttft;
        (tokens > 1 && span_ms > 0.0).then(|| f64::from(tokens - 1) * 1000.0 / span_ms)
    }
}

/// [`Sample::rank`] from the members it reads, for readers that keep only
/// those (the dashboard's published files): the one ranking rule.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn rank_of(
    warmup: bool,
    ttft_ms: Option<f64>,
    total_ms: Option<f64>,
    error: Option<(ErrorKind, Phase)>,
    timeout_ms: f64,
) -> TtftRank {
    if warmup {
        return TtftRank::Excluded;
    }
    let measured = match error {
        None | Some((_, Phase::AfterFirstToken)) => ttft_ms,
        Some(_) => None,
    };
    if let Some(ms) = measured.filter(|v| v.is_finite()) {
        return TtftRank::Measured(ms);
    }
    let Some((kind, phase)) = error else {
        return TtftRank::Excluded;
    };
    let lasted_past_timeout = total_ms.is_some_and(|ms| timeout_ms.is_finite() && ms >= timeout_ms);
    match kind {
        ErrorKind::Timeout => TtftRank::Censored,
        ErrorKind::Aborted => TtftRank::Excluded,
        _ if phase != Phase::AfterFirstToken && lasted_past_timeout => TtftRank::Censored,
        _ => TtftRank::Excluded,
    }
}

/// [`Sample::decision_rank`] from the members it reads, for readers that
/// keep only those (the published points): the one rule for decisions.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn decision_rank_of(
    warmup: bool,
    ttft_ms: Option<f64>,
    total_ms: Option<f64>,
    error: Option<(ErrorKind, Phase)>,
    timeout_ms: f64,
) -> TtftRank {
    match (rank_of(warmup, ttft_ms, total_ms, error, timeout_ms), error) {
        (TtftRank::Excluded, Some((kind, _)))
            if !warmup && !matches!(kind, ErrorKind::Aborted | ErrorKind::ContextExceeded) =>
        {
            TtftRank::Censored
        }
        (rank, _) => rank,
    }
}

/// How one sample enters a target's TTFT ranks ([`Sample::rank`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TtftRank {
    /// A first token was timed: its TTFT, ms.
    Measured(f64),
    /// No first token within the timeout: at least the timeout, exact value
    /// unknown (right-censored).
    Censored,
    /// Not a latency figure: a warm-up, or a failure that says nothing
    /// about how long a first token takes.
    Excluded,
}

/// `text` with every key of `keys` replaced by `[key]`: the one rule the
/// page and the runner redact by. A key is read trimmed (as the page and
/// the key variables keep it), and one shorter than 4 characters is left
/// alone (it would blank ordinary words: "sk" in "ask").
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn redact_keys(text: &str, keys: &[&str]) -> String {
    let mut text = text.to_owned();
    for key in keys.iter().map(|key| key.trim()) {
        if key.chars().count() >= 4 && text.contains(key) {
            text = text.replace(key, "[key]");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::base::document as json;

    #[test]
    fn a_sample_is_written_with_the_documented_member_names_and_reads_back() {
        let sample = Sample {
            planned_at_ms: 1_733_000_000_000.5,
            sent_at_ms: 1_733_000_000_001.25,
            hidden: true,
            headers_ms: Some(120.5),
            first_byte_ms: Some(130.0),
            ttft_ms: Some(0.1 + 0.2),
            second_token_ms: Some(160.0),
            total_ms: Some(900.0),
            output_tokens: Some(42),
            tokens_estimated: true,
            cached_tokens: Some(1024),
            error: Some(SampleError {
                kind: ErrorKind::StreamCut,
                phase: Phase::AfterFirstToken,
                message: "the connection was closed early".to_owned(),
            }),
            connection: Some(ConnectionPhases {
                dns_ms: None,
                connect_ms: 0.25,
                tls_ms: Some(3.5),
            }),
            ..Sample::measured(1, 4, 0.0)
        };
        let text = json::to_string(&sample);
        assert_eq!(
            text,
            "{\"target\":1,\"seq\":4,\"warmup\":false,\"planned_at_ms\":1733000000000.5,\
             \"sent_at_ms\":1733000000001.25,\"hidden\":true,\"headers_ms\":120.5,\
             \"first_byte_ms\":130.0,\"first_reasoning_ms\":null,\"ttft_ms\":0.30000000000000004,\
             \"second_token_ms\":160.0,\"total_ms\":900.0,\"output_tokens\":42,\
             \"tokens_estimated\":true,\"error\":{\"kind\":\"stream_cut\",\
             \"phase\":\"after_first_token\",\"message\":\"the connection was closed early\"},\
             \"cached_tokens\":1024,\"connection\":{\"dns_ms\":null,\"connect_ms\":0.25,\"tls_ms\":3.5},\
             \"http_status\":null,\"input_tokens\":null,\"rate_limit\":null,\"stream\":null}"
        );
        assert_eq!(json::from_str::<Sample>(&text).unwrap(), sample);
        // Written before `cached_tokens` existed: read as "the provider did not say".
        let older = text.replace(",\"cached_tokens\":1024", "");
        let read = json::from_str::<Sample>(&older).unwrap();
        assert_eq!(read.cached_tokens, None);

        // A file written before the connection phases existed reads as a
        // request that opened no connection the client could see.
        let older = text.replace(
            ",\"connection\":{\"dns_ms\":null,\"connect_ms\":0.25,\"tls_ms\":3.5}",
            "",
        );
        assert_ne!(older, text);
        let read = json::from_str::<Sample>(&older).unwrap();
        assert_eq!(read.connection, None);
    }

    #[test]
    fn one_rule_redacts_every_key_of_every_shape_the_plan_accepts() {
        // Keys as a person pastes them (spaces, a newline), with the
        // characters providers use (dashes, underscores, dots, slashes,
        // base64's + and =), a non-ASCII one, and two at once.
        let keys = [
            "  sk-proj-AbC_123.xyz/+=\n",
            "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
            "clé-secrète-ü",
            "abcd",
        ];
        let text = "sk-proj-AbC_123.xyz/+= then AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY, clé-secrète-ü and abcd";
        assert_eq!(
            redact_keys(text, &keys),
            "[key] then [key], [key] and [key]"
        );
        // Shorter than 4 characters once trimmed: left alone, wherever it
        // would blank ordinary words.
        assert_eq!(redact_keys("ask a task", &["sk", " ask "]), "ask a task");
        assert_eq!(
            redact_keys("a key: éüï", &["éüï"]),
            "a key: éüï",
            "3 characters"
        );
        // An empty or blank key is no key.
        assert_eq!(redact_keys("text", &["", "   "]), "text");
        // A sample takes every key of the run, not only the one it sent.
        let mut sample = crate::testing::fixtures::sample(0, 0, 0.0, None, false);
        sample.answer = Some(format!("keys: {} and abcd", keys[1]));
        sample.redact_keys(&keys);
        assert_eq!(sample.answer.as_deref(), Some("keys: [key] and [key]"));
    }

    #[test]
    fn a_key_echoed_in_a_reply_is_redacted_wherever_the_reply_is_kept() {
        use crate::planning::fidelity::reply::ToolCall;
        let key = "sk-live-123456";
        let mut sample: Sample = crate::base::document::from_str(
            r#"{"target":0,"seq":0,"warmup":false,"planned_at_ms":0,"sent_at_ms":0,"hidden":false,
                "headers_ms":null,"first_byte_ms":null,"first_reasoning_ms":null,"ttft_ms":null,
                "second_token_ms":null,"total_ms":null,"output_tokens":null,"tokens_estimated":false,
                "error":{"kind":"provider_error","phase":"after_first_token","message":"bad key sk-live-123456"}}"#,
        )
        .unwrap();
        sample.answer = Some(format!("your key is {key}."));
        sample.tool_calls = Some(vec![ToolCall {
            name: "get_weather".to_owned(),
            arguments: format!(r#"{{"city":"{key}"}}"#),
        }]);
        sample.redact_keys(&[&format!(" {key}\n")]);
        let text = crate::base::document::to_string(&sample);
        assert!(!text.contains(key), "{text}");
        assert_eq!(sample.answer.as_deref(), Some("your key is [key]."));
        assert_eq!(sample.error.as_ref().unwrap().message, "bad key [key]");
        // Too short to be a key: nothing is touched.
        let mut short = Sample {
            answer: Some("abc".to_owned()),
            ..sample.clone()
        };
        short.redact_keys(&["ab"]);
        assert_eq!(short.answer.as_deref(), Some("abc"));
    }

    #[test]
    fn error_kinds_read_back_from_their_exported_names() {
        for kind in ErrorKind::ALL {
            let text = json::to_string(&kind);
            assert_eq!(text, format!("\"{}\"", kind.as_str()));
            assert_eq!(json::from_str::<ErrorKind>(&text).unwrap(), kind);
        }
        for phase in Phase::ALL {
            let text = json::to_string(&phase);
            assert_eq!(text, format!("\"{}\"", phase.as_str()));
            assert_eq!(json::from_str::<Phase>(&text).unwrap(), phase);
        }
    }
}
