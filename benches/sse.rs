//! Throughput of the SSE decoder on realistic OpenAI-shaped streams, in MB/s.
//!
//! A plain timed loop (no benchmark framework): build one long stream of
//! `chat.completion.chunk` events, feed it in chunks of several sizes, take
//! the best of a few rounds, and print megabytes (10^6 bytes) per second.
//! Run with `cargo bench --bench sse`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use firsttoken::core::plan::Protocol;
use firsttoken::core::protocol::{EventDecoder, StreamEvent};
use firsttoken::core::sse::{SseDecoder, SseEvent};

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

/// SSE decoding plus the OpenAI event decoder (JSON parsing included).
fn decode_with_protocol(body: &[u8], chunk_bytes: usize) -> usize {
    let mut decoder = SseDecoder::new();
    let mut protocol = EventDecoder::new(Protocol::OpenAi);
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
    let (mb_s, count) = throughput_mb_s(body.len(), || decode_with_protocol(&body, 16 * 1024));
    println!("sse + openai JSON, 16384-byte chunks: {mb_s:8.1} MB/s ({count} content deltas)");
}
