//! The built-in demo provider's pure part: what it answers, byte by byte,
//! and when.
//!
//! The demo lets someone try the whole page (run, statistics, cold-start
//! tail, routing) without a key or a network. The page replays a
//! [`DemoReply`] through the same SSE and measurement code as a real
//! provider, so the demo exercises the real pipeline; only `fetch()` is
//! replaced. Replies are OpenAI-format SSE with delays drawn from a seeded
//! PRNG, deterministic per (model, seq, seed), so a demo run and its tests
//! are reproducible.

use serde_json::{Value, json};

use crate::planning::fidelity::suite::{Expect, Probe, Suite};

/// The demo models: id and what its latency looks like.
pub const DEMO_MODELS: &[(&str, &str)] = &[
    (
        "steady",
        "a well-served model: first token after about 0.35 s, every time",
    ),
    (
        "cold-tail",
        "usually about 0.55 s, but about 1 request in 20 hits a cold start and takes 5–7 s",
    ),
    (
        "reasoning",
        "thinks first (reasoning deltas from about 0.3 s), then answers at about 1.2 s",
    ),
    (
        "degraded",
        "fast and steady (about 0.25 s), but served differently: 9 of the 30 fidelity probes \
         answered wrong (tool-call arguments broken among them) and prompt tokens counted 23 \
         higher",
    ),
    (
        "scale-to-zero",
        "a serverless model that scales to zero: about 0.4 s while it has traffic, and a 4–6 s \
         cold start on its first request and after more than 20 s idle (a plan's idle gaps)",
    ),
];

/// The `scale-to-zero` demo releases its replica after more than this
/// much idle, seconds.
pub const DEMO_SCALE_DOWN_S: f64 = 20.0;

/// Prompt tokens the `degraded` demo adds to every count: another chat
/// template's worth.
const DEGRADED_TEMPLATE_TOKENS: u32 = 23;

/// The answer's content deltas (multi-byte text on purpose).
const CONTENT_PIECES: &[&str] = &[
    "The",
    " capital",
    " of",
    " France",
    " is",
    " Paris",
    " —",
    " la",
    " Ville",
    " Lumière",
    ".",
];

/// The reasoning deltas of the `reasoning` model.
const REASONING_PIECES: &[&str] = &[
    "The", " user", " asks", " for", " the", " capital", " of", " France", ".", " That", " is",
    " Paris", ".",
];

/// Share of `cold-tail` requests that hit a cold start.
const COLD_START_SHARE: f64 = 0.05;

/// Prompt tokens reported in the usage chunk (the default prompt's size).
const PROMPT_TOKENS: u32 = 14;

/// One piece of the body and when it arrives.
#[derive(Clone, Debug, PartialEq)]
pub struct DemoChunk {
    /// Arrival time in ms after the request was sent.
    pub at_ms: f64,
    /// The bytes of this chunk.
    pub bytes: Vec<u8>,
}

/// A whole scripted reply.
#[derive(Clone, Debug, PartialEq)]
pub struct DemoReply {
    /// HTTP status.
    pub status: u16,
    /// `Content-Type` header value.
    pub content_type: &'static str,
    /// When the response headers arrive, in ms after the request was sent.
    pub headers_at_ms: f64,
    /// Body chunks in arrival order (`at_ms` never decreases).
    pub chunks: Vec<DemoChunk>,
}

/// The simulated provider a demo request URL names: the host of
/// `demo://{behaviour}/{model}` (`steady`, `cold-tail`, …).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn behaviour_of(url: &str) -> &str {
    url.trim_start_matches("demo://")
        .split('/')
        .next()
        .unwrap_or_default()
}

/// The seed of one target's demo replies in a run seeded with `run_seed`:
/// each target of a run draws its own delays.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn target_seed(run_seed: u64, target: u32) -> u64 {
    run_seed ^ u64::from(target)
}

/// The demo provider's reply to request `seq` for `model` in a run seeded
/// with `seed`. Same arguments, same reply. An unknown model gets a 404
/// with an OpenAI-style error body.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn demo_reply(model: &str, seq: u32, seed: u64) -> DemoReply {
    demo_reply_after(model, seq, seed, None)
}

/// [`demo_reply`] for a request sent after `idle_gap_s` of idle (the plan's
/// idle gap, when it has one; `None` for a request at the spacing, which the
/// demo takes as no idle to speak of). Only `scale-to-zero` reads it: its
/// first request (`seq` 0) and any after more than [`DEMO_SCALE_DOWN_S`]
/// of idle meet a cold start.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn demo_reply_after(model: &str, seq: u32, seed: u64, idle_gap_s: Option<f64>) -> DemoReply {
    let mut rng = fastrand::Rng::with_seed(mix_seed(model, seq, seed));
    let mut script = Script::new(model, seq);
    match model {
        "scale-to-zero" => {
            let cold = seq == 0 || idle_gap_s.is_some_and(|gap_s| gap_s > DEMO_SCALE_DOWN_S);
            let warm_ms = lognormal(&mut rng, 400.0, 0.15);
            let load_ms = rng_range(&mut rng, 4000.0, 6000.0);
            let ttft_ms = warm_ms + if cold { load_ms } else { 0.0 };
            script.headers_at_ms = rng_range(&mut rng, 40.0, 90.0);
            script.role_chunk(script.headers_at_ms);
            script.content(&mut rng, ttft_ms, 12.0, 25.0);
        }
        "steady" => {
            let ttft_ms = lognormal(&mut rng, 350.0, 0.15);
            script.headers_at_ms = ttft_ms * rng_range(&mut rng, 0.2, 0.4);
            script.role_chunk(script.headers_at_ms);
            script.content(&mut rng, ttft_ms, 12.0, 25.0);
        }
        "cold-tail" => {
            let cold = rng.f64() < COLD_START_SHARE;
            let ttft_ms = if cold {
                rng_range(&mut rng, 5000.0, 7000.0)
            } else {
                lognormal(&mut rng, 550.0, 0.2)
            };
            // The gateway answers at once; the model is what is slow.
            script.headers_at_ms = rng_range(&mut rng, 40.0, 90.0);
            script.role_chunk(script.headers_at_ms);
            let mut keep_alive_ms = script.headers_at_ms + 1000.0;
            while keep_alive_ms < ttft_ms {
                script.push(keep_alive_ms, b": keep-alive\n\n".to_vec());
                keep_alive_ms += 1000.0;
            }
            script.content(&mut rng, ttft_ms, 12.0, 25.0);
        }
        "degraded" => {
            let ttft_ms = lognormal(&mut rng, 250.0, 0.12);
            script.headers_at_ms = ttft_ms * rng_range(&mut rng, 0.2, 0.4);
            script.role_chunk(script.headers_at_ms);
            script.content(&mut rng, ttft_ms, 10.0, 20.0);
            script.prompt_tokens += DEGRADED_TEMPLATE_TOKENS;
        }
        "reasoning" => {
            let first_reasoning_ms = lognormal(&mut rng, 300.0, 0.15);
            script.headers_at_ms = first_reasoning_ms * rng_range(&mut rng, 0.2, 0.4);
            script.role_chunk(script.headers_at_ms);
            let mut at_ms = first_reasoning_ms;
            for piece in REASONING_PIECES {
                script.delta(at_ms, "reasoning_content", piece);
                at_ms += rng_range(&mut rng, 10.0, 20.0);
            }
            let ttft_ms = at_ms + lognormal(&mut rng, 700.0, 0.15);
            script.content(&mut rng, ttft_ms, 10.0, 20.0);
        }
        _ => {
            let headers_at_ms = rng_range(&mut rng, 20.0, 40.0);
            let body = json!({
                "error": {
                    "message": (format!(
                        "the demo model `{model}` does not exist; pick one of: {}",
                        DEMO_MODELS.iter().map(|(id, _)| *id).collect::<Vec<_>>().join(", ")
                    )),
                    "type": "invalid_request_error",
                    "code": "model_not_found",
                }
            });
            return DemoReply {
                status: 404,
                content_type: "application/json",
                headers_at_ms,
                chunks: vec![DemoChunk {
                    at_ms: headers_at_ms + 1.0,
                    bytes: body.to_string().into_bytes(),
                }],
            };
        }
    }
    script.finish()
}

/// The demo provider's reply to a request whose JSON body is `body`: a
/// fidelity probe's answer when the body asks one of the `basic-1` probes
/// (recognised by its prompt, as a server would see it), else
/// [`demo_reply`]. Every behaviour answers probes the way a faithful
/// server would, except `degraded`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn demo_reply_to(model: &str, body: &str, seq: u32, seed: u64) -> DemoReply {
    demo_reply_to_after(model, body, seq, seed, None)
}

/// [`demo_reply_to`] for a request sent after `idle_gap_s` of idle (see
/// [`demo_reply_after`]).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn demo_reply_to_after(
    model: &str,
    body: &str,
    seq: u32,
    seed: u64,
    idle_gap_s: Option<f64>,
) -> DemoReply {
    let prompt = serde_json::from_str::<Value>(body).ok().and_then(|body| {
        body.pointer("/messages/0/content")
            .and_then(Value::as_str)
            .map(str::to_owned)
    });
    let probe = prompt.and_then(|prompt| {
        Suite::Basic1
            .probes()
            .iter()
            .find(|probe| probe.prompt() == prompt.as_str())
    });
    match probe {
        Some(probe) if DEMO_MODELS.iter().any(|(id, _)| *id == model) => {
            probe_reply(model, probe, seq, seed)
        }
        _ => demo_reply_after(model, seq, seed, idle_gap_s),
    }
}

/// Whether the `degraded` demo answers `probe` wrong: 9 of the 30, chosen
/// by position so the same probes go wrong every time (the repeats agree,
/// as a served model's would).
#[cfg_attr(target_arch = "wasm32", inline)]
fn degraded_wrong(probe: &Probe) -> bool {
    Suite::Basic1
        .probes()
        .iter()
        .position(|p| p.id == probe.id)
        .is_some_and(|index| index % 10 == 2 || index % 10 == 5 || index % 10 == 8)
}

/// A probe's answer: text in a few deltas, or a call whose arguments come
/// in fragments cut at odd places.
#[cfg_attr(target_arch = "wasm32", inline)]
fn probe_reply(model: &str, probe: &Probe, seq: u32, seed: u64) -> DemoReply {
    let mut rng = fastrand::Rng::with_seed(mix_seed(probe.id, seq, seed));
    let mut script = Script::new(model, seq);
    let ttft_ms = lognormal(&mut rng, 300.0, 0.15);
    script.headers_at_ms = ttft_ms * rng_range(&mut rng, 0.2, 0.4);
    script.role_chunk(script.headers_at_ms);
    let prompt_chars = u32::try_from(probe.prompt().chars().count()).unwrap_or(u32::MAX);
    script.prompt_tokens = prompt_chars.div_ceil(4) + 8;
    let wrong = model == "degraded" && degraded_wrong(probe);
    if model == "degraded" {
        script.prompt_tokens += DEGRADED_TEMPLATE_TOKENS;
    }
    let mut at_ms = ttft_ms;
    match probe
        .model_answer
        .split_once('(')
        .filter(|_| probe.tool_choice.is_some())
    {
        Some((name, rest)) if matches!(probe.expect, Expect::Call { .. }) => {
            let arguments = rest.strip_suffix(')').unwrap_or(rest);
            let arguments = if wrong {
                // Cut short half the time, an extra member otherwise.
                if probe.id.len().is_multiple_of(2) {
                    let half = arguments.chars().count() / 2;
                    arguments.chars().take(half).collect()
                } else {
                    arguments.replacen('{', "{\"verbose\": true, ", 1)
                }
            } else {
                arguments.to_owned()
            };
            let start = json!([{ "index": 0, "delta": { "tool_calls": [{
                "index": 0, "id": format!("call_demo_{seq}"), "type": "function",
                "function": { "name": name, "arguments": "" }
            }] }, "finish_reason": null }]);
            script.event(at_ms, start, None);
            script.token_deltas += 1;
            let chars: Vec<char> = arguments.chars().collect();
            for piece in chars.chunks(3) {
                at_ms += rng_range(&mut rng, 8.0, 16.0);
                let fragment: String = piece.iter().collect();
                let delta = json!([{ "index": 0, "delta": { "tool_calls": [{
                    "index": 0, "function": { "arguments": fragment }
                }] }, "finish_reason": null }]);
                script.event(at_ms, delta, None);
                script.token_deltas += 1;
            }
            script.finish_reason = "tool_calls";
        }
        _ => {
            let answer = if wrong {
                wrong_answer(probe)
            } else {
                probe.model_answer.to_owned()
            };
            let chars: Vec<char> = answer.chars().collect();
            for piece in chars.chunks(4) {
                let text: String = piece.iter().collect();
                script.delta(at_ms, "content", &text);
                at_ms += rng_range(&mut rng, 10.0, 20.0);
            }
        }
    }
    script.finish()
}

/// A plausible wrong answer that fails `probe`'s rule.
#[cfg_attr(target_arch = "wasm32", inline)]
fn wrong_answer(probe: &Probe) -> String {
    match probe.expect {
        Expect::Integer(value) => (value + 1).to_string(),
        Expect::Json(_) => probe.model_answer.replacen('{', "", 1),
        Expect::Chinese(_) => "I am not sure.".to_owned(),
        Expect::Word(_) | Expect::NoCall(_) | Expect::Call { .. } => "Unsure".to_owned(),
    }
}

/// Builds a reply's chunks in time order.
struct Script<'a> {
    model: &'a str,
    id: String,
    headers_at_ms: f64,
    chunks: Vec<DemoChunk>,
    token_deltas: u32,
    prompt_tokens: u32,
    finish_reason: &'static str,
}

impl<'a> Script<'a> {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn new(model: &'a str, seq: u32) -> Self {
        Self {
            model,
            id: format!("chatcmpl-demo-{seq}"),
            headers_at_ms: 0.0,
            chunks: Vec::new(),
            token_deltas: 0,
            prompt_tokens: PROMPT_TOKENS,
            finish_reason: "stop",
        }
    }

    /// Adds a chunk, never earlier than the one before it.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn push(&mut self, at_ms: f64, bytes: Vec<u8>) {
        let floor_ms = self
            .chunks
            .last()
            .map_or(self.headers_at_ms, |chunk| chunk.at_ms);
        self.chunks.push(DemoChunk {
            at_ms: at_ms.max(floor_ms),
            bytes,
        });
    }

    /// Adds one `chat.completion.chunk` event.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn event(&mut self, at_ms: f64, choices: Value, usage: Option<Value>) {
        let mut chunk = json!({
            "id": (self.id.as_str()),
            "object": "chat.completion.chunk",
            "created": 0,
            "model": (self.model),
            "choices": choices,
        });
        if let (Some(usage), Value::Object(object)) = (usage, &mut chunk) {
            object.insert("usage".to_owned(), usage);
        }
        self.push(at_ms, format!("data: {chunk}\n\n").into_bytes());
    }

    /// The role-only first chunk (not a token).
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn role_chunk(&mut self, at_ms: f64) {
        let choices = json!([{ "index": 0, "delta": { "role": "assistant", "content": "" }, "finish_reason": null }]);
        self.event(at_ms, choices, None);
    }

    /// One token-bearing delta in `field` (`content` or `reasoning_content`).
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn delta(&mut self, at_ms: f64, field: &str, text: &str) {
        let choices = json!([{ "index": 0, "delta": { field: text }, "finish_reason": null }]);
        self.event(at_ms, choices, None);
        self.token_deltas += 1;
    }

    /// The answer's content deltas from `ttft_ms`, a uniform gap in
    /// `[min_gap_ms, max_gap_ms)` apart.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn content(&mut self, rng: &mut fastrand::Rng, ttft_ms: f64, min_gap_ms: f64, max_gap_ms: f64) {
        let mut at_ms = ttft_ms;
        for piece in CONTENT_PIECES {
            self.delta(at_ms, "content", piece);
            at_ms += rng_range(rng, min_gap_ms, max_gap_ms);
        }
    }

    /// Finish reason, usage and `[DONE]`, right after the last delta.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn finish(mut self) -> DemoReply {
        let last_ms = self
            .chunks
            .last()
            .map_or(self.headers_at_ms, |chunk| chunk.at_ms);
        let choices = json!([{ "index": 0, "delta": {}, "finish_reason": (self.finish_reason) }]);
        self.event(last_ms + 1.0, choices, None);
        let usage = json!({
            "prompt_tokens": (self.prompt_tokens),
            "completion_tokens": (self.token_deltas),
            "total_tokens": (self.prompt_tokens + self.token_deltas),
        });
        self.event(last_ms + 2.0, json!([]), Some(usage));
        self.push(last_ms + 2.0, b"data: [DONE]\n\n".to_vec());
        DemoReply {
            status: 200,
            content_type: "text/event-stream; charset=utf-8",
            headers_at_ms: self.headers_at_ms,
            chunks: self.chunks,
        }
    }
}

/// One 64-bit seed from (model, seq, seed): FNV-1a over the model name,
/// then a splitmix64 finaliser, so nearby inputs give unrelated streams and
/// the result is the same on every platform.
#[cfg_attr(target_arch = "wasm32", inline)]
fn mix_seed(model: &str, seq: u32, seed: u64) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in model.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let mut z = hash ^ seed.rotate_left(17) ^ u64::from(seq).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Uniform in `[low, high)`.
#[cfg_attr(target_arch = "wasm32", inline)]
fn rng_range(rng: &mut fastrand::Rng, low: f64, high: f64) -> f64 {
    low + (high - low) * rng.f64()
}

/// Log-normal with the given median and log-space standard deviation.
#[cfg_attr(target_arch = "wasm32", inline)]
fn lognormal(rng: &mut fastrand::Rng, median: f64, sigma: f64) -> f64 {
    median * (sigma * standard_normal(rng)).exp()
}

/// A standard normal draw (Box–Muller).
#[cfg_attr(target_arch = "wasm32", inline)]
fn standard_normal(rng: &mut fastrand::Rng) -> f64 {
    // 1 − [0, 1) is (0, 1], so the logarithm is finite.
    let u1 = 1.0 - rng.f64();
    let u2 = rng.f64();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `reply` read by the real measurement, as the page reads it.
    fn measured(reply: &DemoReply) -> crate::wire::measure::Outcome {
        let mut measurement =
            crate::wire::measure::Measurement::new(crate::planning::plan::Protocol::Demo, false);
        measurement.on_headers(reply.headers_at_ms, reply.status, Some(reply.content_type));
        for chunk in &reply.chunks {
            measurement.on_chunk(chunk.at_ms, &chunk.bytes);
        }
        measurement.on_body_end(reply.chunks.last().map_or(0.0, |c| c.at_ms));
        measurement.finish()
    }

    #[test]
    fn demo_probes_are_answered_faithfully_except_by_the_degraded_demo() {
        use crate::planning::fidelity::verify::{ProbeReply, verify};
        for (model, wrong_expected, extra_tokens) in
            [("steady", 0, 0), ("cold-tail", 0, 0), ("degraded", 9, 23)]
        {
            let mut wrong = 0;
            for (seq, probe) in Suite::Basic1.probes().iter().enumerate() {
                let body = serde_json::json!({
                    "model": "demo-llm",
                    "messages": [{"role": "user", "content": probe.prompt()}],
                })
                .to_string();
                let outcome = measured(&demo_reply_to(model, &body, seq as u32, 7));
                assert_eq!(outcome.error, None, "{model} {}", probe.id);
                let reply = outcome.reply.unwrap();
                let check = verify(
                    probe,
                    &ProbeReply {
                        answer: &reply.answer,
                        tool_calls: &reply.tool_calls,
                        finish_reason: reply.finish_reason.as_deref(),
                        output_tokens: outcome.output_tokens,
                    },
                );
                wrong += usize::from(!check.passed);
                assert!(check.finish_reason);
                let chars = u32::try_from(probe.prompt().chars().count()).unwrap();
                assert_eq!(
                    outcome.input_tokens,
                    Some(chars.div_ceil(4) + 8 + extra_tokens)
                );
            }
            assert_eq!(wrong, wrong_expected, "{model}");
        }
        // Any other prompt is the latency reply, prompt tokens and all.
        let latency = measured(&demo_reply_to("degraded", "{\"messages\":[]}", 0, 7));
        assert_eq!(latency.input_tokens, Some(PROMPT_TOKENS + 23));
        assert!(latency.error.is_none());
    }
    use crate::planning::plan::Protocol;
    use crate::wire::protocol::{EventDecoder, StreamEvent, http_error_message};
    use crate::wire::sse::SseDecoder;

    /// Every stream event with the arrival time of its chunk.
    fn decode(reply: &DemoReply) -> Vec<(f64, StreamEvent)> {
        let mut sse = SseDecoder::new();
        let mut decoder = EventDecoder::new(Protocol::Demo);
        let (mut events, mut stream) = (Vec::new(), Vec::new());
        let mut timed = Vec::new();
        for chunk in &reply.chunks {
            sse.feed(&chunk.bytes, &mut events);
            for event in events.drain(..) {
                decoder.on_event(&event, &mut stream).unwrap();
            }
            timed.extend(stream.drain(..).map(|event| (chunk.at_ms, event)));
        }
        assert!(decoder.completed());
        timed
    }

    fn ttft_ms(reply: &DemoReply) -> f64 {
        decode(reply)
            .into_iter()
            .find(|(_, event)| matches!(event, StreamEvent::Content(_)))
            .map(|(at_ms, _)| at_ms)
            .unwrap()
    }

    fn median(values: &mut [f64]) -> f64 {
        crate::base::order::sort_numbers(values);
        values[values.len() / 2]
    }

    /// The plan's duration estimate knows each demo behaviour's mean
    /// reply length ([`crate::planning::plan::DEMO_REQUEST_MS`]): it holds
    /// within 5 % of 4 000 replies' mean, and the probes' within 5 % too.
    #[test]
    fn the_plan_knows_the_demo_s_request_times() {
        use crate::planning::plan::{DEMO_PROBE_MS, DEMO_REQUEST_MS};
        let length =
            |reply: &DemoReply| reply.chunks.last().map_or(reply.headers_at_ms, |c| c.at_ms);
        assert_eq!(DEMO_REQUEST_MS.len(), DEMO_MODELS.len());
        for (model, _) in DEMO_MODELS {
            let (_, table_ms) = DEMO_REQUEST_MS
                .iter()
                .find(|(name, _)| name == model)
                .unwrap_or_else(|| panic!("{model} is not in DEMO_REQUEST_MS"));
            let mean = (0..4_000)
                .map(|seq| length(&demo_reply(model, seq, 7)))
                .sum::<f64>()
                / 4_000.0;
            assert!(
                (mean / table_ms - 1.0).abs() < 0.05,
                "{model}: {mean} ms, table {table_ms}"
            );
            let probes = Suite::Basic1.probes();
            let probe_mean = (0..40)
                .flat_map(|seq| probes.iter().map(move |probe| (seq, probe)))
                .map(|(seq, probe)| length(&probe_reply(model, probe, seq, 7)))
                .sum::<f64>()
                / (40 * probes.len()) as f64;
            assert!(
                (probe_mean / DEMO_PROBE_MS - 1.0).abs() < 0.05,
                "{model}: probes {probe_mean} ms"
            );
        }
    }

    #[test]
    fn replies_are_deterministic_per_model_seq_and_seed() {
        assert_eq!(demo_reply("steady", 3, 42), demo_reply("steady", 3, 42));
        assert_ne!(demo_reply("steady", 3, 42), demo_reply("steady", 4, 42));
        assert_ne!(demo_reply("steady", 3, 42), demo_reply("steady", 3, 43));
        assert_ne!(mix_seed("steady", 0, 0), mix_seed("cold-tail", 0, 0));
    }

    #[test]
    fn chunks_arrive_in_order_after_the_headers() {
        for (model, _) in DEMO_MODELS {
            for seq in 0..50 {
                let reply = demo_reply(model, seq, 7);
                assert_eq!(reply.status, 200);
                assert!(reply.content_type.starts_with("text/event-stream"));
                assert!(reply.headers_at_ms > 0.0);
                let mut previous_ms = reply.headers_at_ms;
                for chunk in &reply.chunks {
                    assert!(chunk.at_ms >= previous_ms, "{model} {seq}");
                    previous_ms = chunk.at_ms;
                }
            }
        }
    }

    #[test]
    fn steady_bytes_decode_to_the_expected_events() {
        let events: Vec<StreamEvent> = decode(&demo_reply("steady", 1, 9))
            .into_iter()
            .map(|(_, e)| e)
            .collect();
        let text: String = events
            .iter()
            .filter_map(|event| match event {
                StreamEvent::Content(text) => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(text, "The capital of France is Paris — la Ville Lumière.");
        let deltas = events
            .iter()
            .filter(|e| matches!(e, StreamEvent::Content(_)))
            .count();
        assert_eq!(deltas, CONTENT_PIECES.len());
        let events: Vec<&StreamEvent> = events
            .iter()
            .filter(|e| !matches!(e, StreamEvent::PromptTokens { .. }))
            .collect();
        assert_eq!(
            events[events.len() - 2..],
            [
                &StreamEvent::Usage {
                    output_tokens: CONTENT_PIECES.len() as u32
                },
                &StreamEvent::End
            ]
        );
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, StreamEvent::Reasoning(_)))
        );
    }

    #[test]
    fn reasoning_model_thinks_before_answering() {
        let events = decode(&demo_reply("reasoning", 2, 9));
        let first_reasoning = events
            .iter()
            .position(|(_, e)| matches!(e, StreamEvent::Reasoning(_)))
            .unwrap();
        let first_content = events
            .iter()
            .position(|(_, e)| matches!(e, StreamEvent::Content(_)))
            .unwrap();
        assert!(first_reasoning < first_content);
        let reasoning = events
            .iter()
            .filter(|(_, e)| matches!(e, StreamEvent::Reasoning(_)))
            .count();
        assert_eq!(reasoning, REASONING_PIECES.len());
        assert!(events[first_content].0 - events[first_reasoning].0 > 300.0);
        let expected = (REASONING_PIECES.len() + CONTENT_PIECES.len()) as u32;
        assert!(events.iter().any(|(_, e)| *e
            == StreamEvent::Usage {
                output_tokens: expected
            }));
    }

    #[test]
    fn steady_ttft_centres_on_350_ms() {
        let mut ttfts: Vec<f64> = (0..2000)
            .map(|seq| ttft_ms(&demo_reply("steady", seq, 1)))
            .collect();
        let median_ms = median(&mut ttfts);
        assert!((330.0..370.0).contains(&median_ms), "median {median_ms}");
        assert!(ttfts.iter().all(|&t| (150.0..800.0).contains(&t)));
    }

    #[test]
    fn cold_tail_share_is_about_one_in_twenty() {
        let mut ttfts: Vec<f64> = (0..2000)
            .map(|seq| ttft_ms(&demo_reply("cold-tail", seq, 1)))
            .collect();
        let tail = ttfts.iter().filter(|&&t| t >= 5000.0).count();
        let share = tail as f64 / 2000.0;
        assert!((0.03..=0.07).contains(&share), "tail share {share}");
        assert!(
            ttfts
                .iter()
                .all(|&t| t < 2000.0 || (5000.0..7000.0).contains(&t))
        );
        let warm_median = median(&mut ttfts);
        assert!(
            (500.0..600.0).contains(&warm_median),
            "median {warm_median}"
        );
    }

    #[test]
    fn cold_starts_send_keep_alive_comments() {
        let cold = (0..400)
            .map(|seq| demo_reply("cold-tail", seq, 1))
            .find(|reply| ttft_ms(reply) > 5000.0)
            .unwrap();
        let comments = cold
            .chunks
            .iter()
            .filter(|chunk| chunk.bytes.starts_with(b":"))
            .count();
        assert!(comments >= 4, "{comments} keep-alives");
    }

    #[test]
    fn scale_to_zero_goes_cold_first_and_after_a_long_idle() {
        let ttft = |seq: u32, idle_gap_s: Option<f64>| {
            let reply = demo_reply_after("scale-to-zero", seq, 9, idle_gap_s);
            reply
                .chunks
                .iter()
                .find(|c| c.bytes.windows(10).any(|w| w == b"\"content\":"))
                .and_then(|_| {
                    reply
                        .chunks
                        .iter()
                        .filter(|c| !c.bytes.windows(12).any(|w| w == b"\"content\":\"\""))
                        .find(|c| c.bytes.windows(10).any(|w| w == b"\"content\":"))
                })
                .map(|c| c.at_ms)
                .unwrap()
        };
        // Its first request finds no replica.
        assert!(
            (4_000.0..7_500.0).contains(&ttft(0, None)),
            "{}",
            ttft(0, None)
        );
        for seq in 1..40 {
            assert!(ttft(seq, None) < 1_000.0, "at the spacing: warm");
            assert!(
                ttft(seq, Some(DEMO_SCALE_DOWN_S)) < 1_000.0,
                "at the delay: warm"
            );
            assert!(
                ttft(seq, Some(DEMO_SCALE_DOWN_S + 1.0)) > 4_000.0,
                "past it: cold"
            );
        }
        // The other demos do not read the idle.
        assert_eq!(
            demo_reply_after("cold-tail", 3, 9, Some(900.0)),
            demo_reply("cold-tail", 3, 9)
        );
    }

    #[test]
    fn unknown_model_gets_a_404_with_an_openai_error() {
        let reply = demo_reply("nope", 0, 0);
        assert_eq!(reply.status, 404);
        assert_eq!(reply.content_type, "application/json");
        let body = String::from_utf8(reply.chunks.concat_bytes()).unwrap();
        let message = http_error_message(Protocol::Demo, reply.status, &body);
        assert!(
            message.starts_with("HTTP 404 from provider: the demo model `nope` does not exist"),
            "{message}"
        );
    }

    trait ConcatBytes {
        fn concat_bytes(&self) -> Vec<u8>;
    }

    impl ConcatBytes for Vec<DemoChunk> {
        fn concat_bytes(&self) -> Vec<u8> {
            self.iter()
                .flat_map(|chunk| chunk.bytes.iter().copied())
                .collect()
        }
    }
}
