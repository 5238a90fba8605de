//! Sends a [`ReplyPlan`] on a socket at its scheduled times and records, on the mock clock, when
//! each part actually left: the ground truth the app's measurements are checked against.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crate::ground_truth::{Outcome, Recorder};
use crate::http::{self, Headers};
use crate::listener::{Disposition, POLL_INTERVAL, is_timeout};
use crate::protocol::{self, Carries, Protocol, Renderer, ReplyContext};
use crate::script::{Ending, Framing, ReplyPlan, SPLIT_PIECE_GAP_MS, TimedBeat};
use crate::sse::{self, LineEnd};

/// How long `stall` holds a connection at most.
const STALL_LIMIT: Duration = Duration::from_secs(600);

/// Headers every provider response carries: CORS (so the page can read the reply and the request
/// id) and the request id.
pub fn common_headers(request_id: Option<u64>) -> Headers {
    let mut headers: Headers = vec![
        ("Access-Control-Allow-Origin", "*".into()),
        ("Access-Control-Expose-Headers", "x-mock-request-id".into()),
    ];
    if let Some(id) = request_id {
        headers.push(("x-mock-request-id", id.to_string()));
    }
    headers
}

/// One reply in progress: the socket, the recorder and the request's identity.
pub struct ReplySender<'a> {
    /// The client connection.
    pub stream: &'a mut TcpStream,
    /// Where times are recorded.
    pub recorder: &'a Recorder,
    /// The request's id.
    pub request_id: u64,
    /// When the request had been read; all beat offsets count from here.
    pub received_at: Instant,
    /// Set when the server is stopping.
    pub shutdown: &'a AtomicBool,
}

impl ReplySender<'_> {
    fn now_ms(&self) -> f64 {
        self.recorder.clock().now_ms()
    }

    fn sleep_until_offset(&self, offset_ms: u64) {
        // Offsets count from the request, not from the previous write, so delays never drift.
        let due = self.received_at + Duration::from_millis(offset_ms);
        let now = Instant::now();
        if due > now {
            thread::sleep(due - now);
        }
    }

    /// Sends `plan` for `protocol` and records its times.
    pub fn send(
        mut self,
        protocol: Protocol,
        plan: ReplyPlan,
        context: &ReplyContext,
    ) -> Disposition {
        match plan {
            ReplyPlan::HttpError { status, delay_ms } => {
                self.sleep_until_offset(delay_ms);
                let body = protocol::error_body(
                    protocol,
                    status,
                    protocol::scripted_error_message(status),
                );
                let mut headers = common_headers(Some(self.request_id));
                headers.push(("Content-Type", "application/json".into()));
                if status == 429 {
                    // What OpenAI sends with a 429, exposed to scripts so the page can read it.
                    headers.retain(|(name, _)| *name != "Access-Control-Expose-Headers");
                    headers.extend([
                        (
                            "Access-Control-Expose-Headers",
                            "x-mock-request-id, retry-after, x-ratelimit-remaining-requests, \
                             x-ratelimit-reset-requests"
                                .into(),
                        ),
                        ("Retry-After", "7".into()),
                        ("x-ratelimit-remaining-requests", "0".into()),
                        ("x-ratelimit-reset-requests", "7s".into()),
                    ]);
                }
                self.send_full(status, &headers, body.as_bytes(), None)
            }
            ReplyPlan::NotStreamed { delay_ms } => {
                self.sleep_until_offset(delay_ms);
                let body = protocol::complete_body(protocol, context);
                let mut headers = common_headers(Some(self.request_id));
                headers.push(("Content-Type", "application/json".into()));
                let output_tokens = protocol::count_u32(crate::script::CONTENT_TOKENS.len());
                let prompt_tokens = context.prompt_tokens;
                self.recorder.update(self.request_id, |record| {
                    record.prompt_tokens = Some(prompt_tokens);
                });
                self.send_full(200, &headers, body.as_bytes(), Some(output_tokens))
            }
            ReplyPlan::Stream {
                beats,
                ending,
                framing,
                ..
            } => {
                let renderer = Renderer::new(protocol, context.clone());
                self.send_stream(protocol, renderer, &beats, ending, framing)
            }
        }
    }

    /// A complete (non-streamed) response: head and body in one write.
    pub fn send_full(
        &mut self,
        status: u16,
        headers: &Headers,
        body: &[u8],
        output_tokens: Option<u32>,
    ) -> Disposition {
        let written = http::write_full(self.stream, status, headers, body, true);
        let sent_ms = self.now_ms();
        self.recorder.update(self.request_id, |record| {
            record.status = status;
            record.output_tokens = output_tokens;
            if written.is_ok() {
                record.headers_ms = Some(sent_ms);
                record.first_byte_ms = Some(sent_ms);
                record.outcome = Outcome::Complete;
            } else {
                record.outcome = Outcome::ClientGone;
            }
            record.end_ms = Some(sent_ms);
        });
        if written.is_ok() {
            Disposition::KeepAlive
        } else {
            Disposition::Close
        }
    }

    fn send_stream(
        &mut self,
        protocol: Protocol,
        mut renderer: Renderer,
        beats: &[TimedBeat],
        ending: Ending,
        framing: Framing,
    ) -> Disposition {
        let content_type = match protocol {
            Protocol::Gemini => "text/event-stream",
            Protocol::OpenAi | Protocol::Anthropic => "text/event-stream; charset=utf-8",
        };
        let mut headers = common_headers(Some(self.request_id));
        headers.extend([
            ("Content-Type", content_type.into()),
            ("Cache-Control", "no-cache".into()),
            ("Transfer-Encoding", "chunked".into()),
        ]);
        let head_written = http::write_head(self.stream, 200, &headers);
        let headers_ms = self.now_ms();
        self.recorder.update(self.request_id, |record| {
            record.status = 200;
            record.headers_ms = Some(headers_ms);
        });
        if head_written.is_err() {
            return self.client_gone();
        }
        let line_end = if framing.crlf {
            LineEnd::CrLf
        } else {
            LineEnd::Lf
        };
        let mut first_byte_sent = false;
        // Under `batch`, the events of beats due at one time, and what they carry.
        let mut batch: (Vec<u8>, Vec<Carries>) = (Vec::new(), Vec::new());
        for (position, timed) in beats.iter().enumerate() {
            self.sleep_until_offset(timed.at_ms);
            if framing.batch {
                for rendered in renderer.render(timed.beat) {
                    batch.0.extend(rendered.event.to_bytes(line_end));
                    batch.1.push(rendered.carries);
                }
                let last_of_time = beats
                    .get(position + 1)
                    .is_none_or(|next| next.at_ms != timed.at_ms);
                if last_of_time {
                    let (bytes, carries) = std::mem::take(&mut batch);
                    if http::write_chunk(self.stream, &bytes).is_err() {
                        return self.client_gone();
                    }
                    let sent_ms = self.now_ms();
                    self.recorder.update(self.request_id, |record| {
                        record.first_byte_ms.get_or_insert(sent_ms);
                        for carried in carries {
                            match carried {
                                Carries::Content => {
                                    record.first_token_ms.get_or_insert(sent_ms);
                                    record.content_deltas += 1;
                                }
                                Carries::Reasoning => {
                                    record.first_reasoning_ms.get_or_insert(sent_ms);
                                    record.reasoning_deltas += 1;
                                }
                                Carries::Nothing => {}
                            }
                        }
                    });
                    first_byte_sent = true;
                }
                continue;
            }
            for rendered in renderer.render(timed.beat) {
                let bytes = rendered.event.to_bytes(line_end);
                let offsets = if framing.split {
                    sse::awkward_cut_offsets(&bytes)
                } else {
                    Vec::new()
                };
                for (index, piece) in sse::cut_at(&bytes, &offsets).into_iter().enumerate() {
                    if index > 0 {
                        thread::sleep(Duration::from_millis(SPLIT_PIECE_GAP_MS));
                    }
                    if http::write_chunk(self.stream, piece).is_err() {
                        return self.client_gone();
                    }
                    if !first_byte_sent {
                        first_byte_sent = true;
                        let first_byte_ms = self.now_ms();
                        self.recorder.update(self.request_id, |record| {
                            record.first_byte_ms = Some(first_byte_ms);
                        });
                    }
                }
                // The event is only usable once its last piece is out.
                let sent_ms = self.now_ms();
                match rendered.carries {
                    Carries::Content => self.recorder.update(self.request_id, |record| {
                        record.first_token_ms.get_or_insert(sent_ms);
                        record.content_deltas += 1;
                    }),
                    Carries::Reasoning => self.recorder.update(self.request_id, |record| {
                        record.first_reasoning_ms.get_or_insert(sent_ms);
                        record.reasoning_deltas += 1;
                    }),
                    Carries::Nothing => {}
                }
            }
        }
        let output_tokens = renderer.reported_output_tokens();
        let cached_tokens = renderer.reported_cached_tokens();
        let prompt_tokens = renderer.reported_prompt_tokens();
        self.recorder.update(self.request_id, |record| {
            record.output_tokens = output_tokens;
            record.cached_tokens = cached_tokens;
            record.prompt_tokens = prompt_tokens;
        });
        match ending {
            Ending::Complete => {
                if http::write_last_chunk(self.stream).is_err() {
                    return self.client_gone();
                }
                self.finish(Outcome::Complete);
                Disposition::KeepAlive
            }
            Ending::Cut { at_ms } => {
                self.sleep_until_offset(at_ms);
                let _ = self.stream.shutdown(Shutdown::Both);
                self.finish(Outcome::Cut);
                Disposition::Close
            }
            Ending::Stall => {
                let outcome = self.hold_until_client_leaves();
                self.finish(outcome);
                Disposition::Close
            }
        }
    }

    /// Holds the connection open, sending nothing, until the client closes it (a read returns
    /// 0 or fails), the server stops, or [`STALL_LIMIT`] passes.
    fn hold_until_client_leaves(&mut self) -> Outcome {
        let started = Instant::now();
        if self.stream.set_read_timeout(Some(POLL_INTERVAL)).is_err() {
            return Outcome::ClientGone;
        }
        let mut discard = [0_u8; 1024];
        loop {
            if self.shutdown.load(Ordering::SeqCst) || started.elapsed() >= STALL_LIMIT {
                return Outcome::StallTimeout;
            }
            match self.stream.read(&mut discard) {
                Ok(0) => return Outcome::ClientGone,
                // Anything the client sends meanwhile is ignored: this reply never ends.
                Ok(_) => {}
                Err(error) if is_timeout(&error) => {}
                Err(_) => return Outcome::ClientGone,
            }
        }
    }

    fn finish(&self, outcome: Outcome) {
        let end_ms = self.now_ms();
        self.recorder.update(self.request_id, |record| {
            record.end_ms = Some(end_ms);
            record.outcome = outcome;
        });
    }

    fn client_gone(&self) -> Disposition {
        self.finish(Outcome::ClientGone);
        Disposition::Close
    }
}

/// Writes a JSON error response for a request that never reached a script (bad body, unknown
/// script) and records its status.
pub fn send_request_error(
    stream: &mut TcpStream,
    recorder: &Recorder,
    request_id: u64,
    protocol: Protocol,
    status: u16,
    message: &str,
) -> Disposition {
    let mut headers = common_headers(Some(request_id));
    headers.push(("Content-Type", "application/json".into()));
    let body = protocol::error_body(protocol, status, message);
    let written = http::write_full(stream, status, &headers, body.as_bytes(), true);
    let sent_ms = recorder.clock().now_ms();
    recorder.update(request_id, |record| {
        record.status = status;
        record.headers_ms = Some(sent_ms);
        record.first_byte_ms = Some(sent_ms);
        record.end_ms = Some(sent_ms);
        record.outcome = if written.is_ok() {
            Outcome::Complete
        } else {
            Outcome::ClientGone
        };
    });
    let _ = stream.flush();
    if written.is_ok() {
        Disposition::KeepAlive
    } else {
        Disposition::Close
    }
}
