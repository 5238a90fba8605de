//! One measured request, natively: the same rules as the page's
//! `browser::fetch_stream`, over the runner's own HTTP client.
//!
//! `t0` is read just before the request is handed to the client (so a
//! connection it must open is inside `headers_ms`, as in a browser), and
//! the clock is read again the moment the headers or a body frame arrive,
//! before the frame is looked at. The bytes and times then go to `core`'s
//! [`Measurement`], which decides what they mean; this file only moves them.
//!
//! Every path ends in an [`Outcome`]: a failed lookup, a refused
//! connection, an HTTP error, a stalled or cut stream is a sample with an
//! error, never a panic and never a lost run.

use std::time::Instant;

use firsttoken_core::planning::plan::Protocol;
use firsttoken_core::wire::measure::{BodyMode, ConnectFailure, Flow, Measurement, Outcome};
use firsttoken_core::wire::protocol::HttpRequest;
use firsttoken_core::wire::ratelimit::read_rate_limit;
use http_body_util::BodyExt;
use tokio::sync::watch;
use tokio::time::Instant as TokioInstant;

use crate::net::{Client, ConnectError, ConnectionPhases, SendError, describe_hyper};

// At most core's `ERROR_BODY_LIMIT_BYTES` of an error body is read (a
// provider's HTML error page can be large; the message needs its start).
use firsttoken_core::wire::measure::ERROR_BODY_LIMIT_BYTES;

/// How long the rest of a reply is read after its measurement settled,
/// so its connection can be reused; longer, and it is closed instead.
const DRAIN_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// What one request needs besides the request itself.
#[derive(Clone, Copy, Debug)]
pub struct MeasureOptions {
    /// Wire protocol, for decoding the stream.
    pub protocol: Protocol,
    /// Count the first reasoning delta as the first token.
    pub reasoning_counts_as_first_token: bool,
    /// Give up after this many seconds (a stalled stream ends here).
    pub timeout_s: f64,
    /// Open a new connection for this request even when one to its origin
    /// is kept ([`firsttoken_core::planning::schedule::PlannedRequest::fresh_connection`]).
    pub fresh_connection: bool,
}

/// The outcome and how the connection was made.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// Timings, tokens and the error, as the page records them.
    pub outcome: Outcome,
    /// The connection's phases when this request opened one.
    pub opened: Option<ConnectionPhases>,
    /// `HTTP/1.1` or `HTTP/2`, when a connection was had.
    pub http_version: Option<&'static str>,
    /// Whether the request went on a reused connection; `None` when it got
    /// no connection at all.
    pub reused: Option<bool>,
    /// A reused connection closed before answering, so the request went
    /// again on a new one ([`crate::net::Exchange::retried`]).
    pub retried: bool,
    /// How long the client's connection to the origin had sat idle
    /// ([`crate::net::Exchange::connection_idle`]), seconds.
    pub connection_idle_s: Option<f64>,
}

/// A stop signal shared by the run and its Ctrl-C handler.
pub type Stop = watch::Receiver<bool>;

/// Why waiting ended early.
enum Interrupted {
    Timeout,
    Stopped,
}

/// Waits for `future`, unless the deadline passes or the run is stopped.
async fn guarded<F: std::future::Future>(
    future: F,
    deadline: TokioInstant,
    stop: &mut Stop,
) -> Result<F::Output, Interrupted> {
    if *stop.borrow() {
        return Err(Interrupted::Stopped);
    }
    tokio::select! {
        biased;
        output = future => Ok(output),
        () = tokio::time::sleep_until(deadline) => Err(Interrupted::Timeout),
        _ = stop.wait_for(|stopped| *stopped) => Err(Interrupted::Stopped),
    }
}

/// Sends `request`, reads its stream to the end and returns what happened.
pub async fn measure(
    client: &mut Client,
    request: &HttpRequest,
    options: MeasureOptions,
    stop: &mut Stop,
) -> Measured {
    let mut measurement =
        Measurement::new(options.protocol, options.reasoning_counts_as_first_token);
    let timeout = std::time::Duration::from_secs_f64(options.timeout_s.max(0.0));
    let t0 = Instant::now();
    let deadline = TokioInstant::from_std(t0) + timeout;
    let ms = |at: Instant| at.saturating_duration_since(t0).as_secs_f64() * 1000.0;
    let interrupted = |measurement: &mut Measurement, why: Interrupted| {
        let at_ms = ms(Instant::now());
        match why {
            Interrupted::Timeout => measurement.on_timeout(at_ms, options.timeout_s),
            Interrupted::Stopped => measurement.on_abort(at_ms),
        }
    };

    let sent = guarded(
        client.post(
            &request.url,
            &request.headers,
            &request.body,
            options.fresh_connection,
        ),
        deadline,
        stop,
    )
    .await;
    let headers_at = Instant::now();
    let mut exchange = match sent {
        Ok(Ok(exchange)) => exchange,
        Ok(Err(error)) => {
            let (failure, detail) = match &error {
                SendError::Connect(ConnectError::Dns { .. }) => {
                    (ConnectFailure::Dns, error.to_string())
                }
                SendError::Connect(ConnectError::Tls { .. }) => {
                    (ConnectFailure::Tls, error.to_string())
                }
                _ => (ConnectFailure::Connect, error.to_string()),
            };
            measurement.on_connect_failed(ms(headers_at), failure, &detail);
            return done(measurement, None, None, (None, false, None));
        }
        Err(why) => {
            interrupted(&mut measurement, why);
            return done(measurement, None, None, (None, false, None));
        }
    };
    let opened = exchange.opened;
    let http_version = Some(exchange.protocol);
    let connected = (
        Some(opened.is_none()),
        exchange.retried,
        exchange.connection_idle.map(|idle| idle.as_secs_f64()),
    );
    let status = exchange.response.status().as_u16();
    let content_type = exchange
        .response
        .headers()
        .get(hyper::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let mode = measurement.on_headers(ms(headers_at), status, content_type.as_deref());
    if !(200..300).contains(&status) {
        // A refusal: keep what its headers say about rate limits. The
        // runner sees every header.
        let headers = exchange.response.headers();
        measurement.on_rate_limit(read_rate_limit(
            headers
                .iter()
                .filter_map(|(name, value)| Some((name.as_str(), value.to_str().ok()?))),
            true,
        ));
    }
    let body = exchange.response.body_mut();
    let mut error_body: Vec<u8> = Vec::new();
    loop {
        let frame = guarded(body.frame(), deadline, stop).await;
        // Timestamp first: looking at the frame comes after.
        let at_ms = ms(Instant::now());
        let frame = match frame {
            Ok(frame) => frame,
            Err(why) => {
                interrupted(&mut measurement, why);
                break;
            }
        };
        match frame {
            None => {
                match mode {
                    BodyMode::Stream => measurement.on_body_end(at_ms),
                    BodyMode::ErrorBody | BodyMode::NotSse => {
                        measurement.on_error_body(at_ms, &String::from_utf8_lossy(&error_body));
                    }
                }
                // Read to its end: the connection is idle and can be reused.
                client.release(&mut exchange);
                break;
            }
            Some(Err(error)) => {
                measurement.on_read_error(at_ms, &describe_hyper(&error));
                break;
            }
            Some(Ok(frame)) => {
                let Ok(bytes) = frame.into_data() else {
                    // Trailers carry no body bytes.
                    continue;
                };
                match mode {
                    BodyMode::Stream => {
                        if measurement.on_chunk(at_ms, &bytes) == Flow::Finished {
                            // Settled (the end marker, or an error event):
                            // what is left is read untimed, so the connection
                            // ends idle and can be reused.
                            if drain(body).await {
                                client.release(&mut exchange);
                            }
                            break;
                        }
                    }
                    BodyMode::ErrorBody | BodyMode::NotSse => {
                        let room = ERROR_BODY_LIMIT_BYTES.saturating_sub(error_body.len());
                        error_body.extend_from_slice(bytes.get(..room).unwrap_or(&bytes));
                        if error_body.len() >= ERROR_BODY_LIMIT_BYTES {
                            measurement.on_error_body(at_ms, &String::from_utf8_lossy(&error_body));
                            break;
                        }
                    }
                }
            }
        }
    }
    done(measurement, opened, http_version, connected)
}

/// Reads the rest of a settled reply, for at most [`DRAIN_WAIT`]; true
/// when it reached the end.
async fn drain(body: &mut hyper::body::Incoming) -> bool {
    let rest = async {
        loop {
            match body.frame().await {
                None => return true,
                Some(Ok(_)) => {}
                Some(Err(_)) => return false,
            }
        }
    };
    tokio::time::timeout(DRAIN_WAIT, rest)
        .await
        .unwrap_or(false)
}

fn done(
    measurement: Measurement,
    opened: Option<ConnectionPhases>,
    http_version: Option<&'static str>,
    (reused, retried, connection_idle_s): (Option<bool>, bool, Option<f64>),
) -> Measured {
    Measured {
        outcome: measurement.finish(),
        opened,
        http_version,
        reused,
        retried,
        connection_idle_s,
    }
}
