//! Throughput of the SSE decoder and each protocol's event decoder on
//! realistic streams, in MB/s.
//!
//! A plain timed loop (no benchmark framework): build one long stream per
//! protocol (OpenAI `chat.completion.chunk` events, Anthropic Messages
//! events, Gemini `streamGenerateContent` chunks), feed it in chunks, take
//! the best of a few rounds, and print megabytes (10^6 bytes) per second.
//! Run with `cargo bench --bench sse`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use firsttoken::core::planning::plan::Protocol;
use firsttoken::core::wire::protocol::{EventDecoder, StreamEvent};
use firsttoken::core::wire::sse::{SseDecoder, SseEvent};

/// Words the fake model "says", including multi-byte text.
const WORDS: &[&str] = &[
    " The",
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
    " 巴黎",
    " is",
    " lovely",
    " in",
    " spring",
    ",",
    " isn't",
    " it",
    "?",
];

/// An OpenAI-style stream of about `target_bytes` bytes: role chunk, content
/// deltas, a keep-alive now and then, a usage chunk and `[DONE]`.
fn openai_stream(target_bytes: usize) -> Vec<u8> {
    let mut body = Vec::with_capacity(target_bytes + 1024);
    body.extend_from_slice(
        br#"data: {"id":"chatcmpl-9xYz","object":"chat.completion.chunk","created":1718000000,"model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_0aa8d3e20b","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}"#,
    );
    body.extend_from_slice(b"\n\n");
    let mut index = 0_usize;
    while body.len() < target_bytes {
        let word = WORDS[index % WORDS.len()];
        let chunk = format!(
            "data: {{\"id\":\"chatcmpl-9xYz\",\"object\":\"chat.completion.chunk\",\"created\":1718000000,\"model\":\"gpt-4o-mini-2024-07-18\",\"system_fingerprint\":\"fp_0aa8d3e20b\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"{word}\"}},\"logprobs\":null,\"finish_reason\":null}}]}}\n\n"
        );
        body.extend_from_slice(chunk.as_bytes());
        if index % 50 == 49 {
            body.extend_from_slice(b": keep-alive\n\n");
        }
        index += 1;
    }
    body.extend_from_slice(
        br#"data: {"id":"chatcmpl-9xYz","object":"chat.completion.chunk","created":1718000000,"model":"gpt-4o-mini-2024-07-18","choices":[],"usage":{"prompt_tokens":14,"completion_tokens":4242,"total_tokens":4256}}"#,
    );
    body.extend_from_slice(b"\n\ndata: [DONE]\n\n");
    body
}

/// An Anthropic Messages stream of about `target_bytes` bytes: `message_start`,
/// `content_block_start`, text deltas with a `ping` now and then,
/// `content_block_stop`, `message_delta` with usage and `message_stop`.
fn anthropic_stream(target_bytes: usize) -> Vec<u8> {
    let mut body = Vec::with_capacity(target_bytes + 1024);
    body.extend_from_slice(
        br#"event: message_start
data: {"type":"message_start","message":{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

"#,
    );
    let mut index = 0_usize;
    while body.len() < target_bytes {
        let word = WORDS[index % WORDS.len()];
        let event = format!(
            "event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{{\"type\":\"text_delta\",\"text\":\"{word}\"}}}}\n\n"
        );
        body.extend_from_slice(event.as_bytes());
        if index % 50 == 49 {
            body.extend_from_slice(b"event: ping\ndata: {\"type\": \"ping\"}\n\n");
        }
        index += 1;
    }
    body.extend_from_slice(
        br#"event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":4242}}

event: message_stop
data: {"type":"message_stop"}

"#,
    );
    body
}

/// A Gemini `streamGenerateContent?alt=sse` stream of about `target_bytes`
/// bytes: one chunk per word with its usage so far, the last with a finish
/// reason.
fn gemini_stream(target_bytes: usize) -> Vec<u8> {
    let mut body = Vec::with_capacity(target_bytes + 1024);
    let mut index = 0_usize;
    while body.len() < target_bytes {
        let word = WORDS[index % WORDS.len()];
        let chunk = format!(
            "data: {{\"candidates\": [{{\"content\": {{\"parts\": [{{\"text\": \"{word}\"}}],\"role\": \"model\"}},\"index\": 0}}],\"usageMetadata\": {{\"promptTokenCount\": 9,\"candidatesTokenCount\": {index},\"totalTokenCount\": {}}},\"modelVersion\": \"gemini-2.0-flash\"}}\r\n\r\n",
            index + 9
        );
        body.extend_from_slice(chunk.as_bytes());
        index += 1;
    }
    body.extend_from_slice(
        b"data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \".\"}],\"role\": \"model\"},\"finishReason\": \"STOP\",\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 9,\"candidatesTokenCount\": 4242,\"totalTokenCount\": 4251},\"modelVersion\": \"gemini-2.0-flash\"}\r\n\r\n",
    );
    body
}

/// Feeds `body` in `chunk_bytes` pieces; returns the number of events.
fn decode(body: &[u8], chunk_bytes: usize, events: &mut Vec<SseEvent>) -> usize {
    let mut decoder = SseDecoder::new();
    let mut count = 0;
    for chunk in body.chunks(chunk_bytes) {
        decoder.feed(chunk, events);
        count += events.len();
        events.clear();
    }
    decoder.finish(events);
    count
}

/// SSE decoding plus `protocol`'s event decoder (JSON parsing included).
fn decode_with_protocol(protocol: Protocol, body: &[u8], chunk_bytes: usize) -> usize {
    let mut decoder = SseDecoder::new();
    let mut protocol = EventDecoder::new(protocol);
    let (mut events, mut stream_events) = (Vec::new(), Vec::new());
    let mut content = 0;
    for chunk in body.chunks(chunk_bytes) {
        decoder.feed(chunk, &mut events);
        for event in events.drain(..) {
            let _ = protocol.on_event(&event, &mut stream_events);
        }
        content += stream_events
            .drain(..)
            .filter(|e| matches!(e, StreamEvent::Content(_)))
            .count();
    }
    content
}

/// Best-of-rounds throughput in MB/s of `run` over `bytes` bytes.
fn throughput_mb_s(bytes: usize, mut run: impl FnMut() -> usize) -> (f64, usize) {
    let mut best = Duration::MAX;
    let mut result = 0;
    let deadline = Instant::now() + Duration::from_secs(2);
    let mut rounds = 0;
    while rounds < 5 || (Instant::now() < deadline && rounds < 50) {
        let start = Instant::now();
        result = black_box(run());
        best = best.min(start.elapsed());
        rounds += 1;
    }
    (bytes as f64 / best.as_secs_f64() / 1e6, result)
}

fn main() {
    let body = openai_stream(8 * 1024 * 1024);
    println!("OpenAI-shaped stream: {} bytes", body.len());
    let mut events = Vec::new();
    for chunk_bytes in [64, 1024, 16 * 1024, 64 * 1024] {
        let (mb_s, count) = throughput_mb_s(body.len(), || decode(&body, chunk_bytes, &mut events));
        println!("sse decode, {chunk_bytes:>6}-byte chunks: {mb_s:8.1} MB/s ({count} events)");
    }
    for (name, protocol, body) in [
        ("openai", Protocol::OpenAi, body.clone()),
        (
            "anthropic",
            Protocol::Anthropic,
            anthropic_stream(8 * 1024 * 1024),
        ),
        ("gemini", Protocol::Gemini, gemini_stream(8 * 1024 * 1024)),
    ] {
        let (mb_s, count) = throughput_mb_s(body.len(), || {
            decode_with_protocol(protocol, &body, 16 * 1024)
        });
        println!(
            "sse + {name:<9} JSON, 16384-byte chunks: {mb_s:8.1} MB/s ({count} content deltas)"
        );
    }
}
