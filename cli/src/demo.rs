//! The built-in demo provider, natively: `core`'s scripted reply played
//! back on the runner's clock, through the same measurement state machine
//! a real provider's bytes go through. Only the socket is missing, as only
//! `fetch()` is replaced in the page; the same run seed gives the same
//! replies as the page's demo.

use std::time::Instant;

use firsttoken_core::wire::demo::{behaviour_of, demo_reply_to_after, target_seed};
use firsttoken_core::wire::measure::{BodyMode, Flow, Measurement};
use firsttoken_core::wire::protocol::HttpRequest;
use tokio::time::Instant as TokioInstant;

use crate::measure::{MeasureOptions, Measured, Stop};

/// Plays the demo's reply to `request` (request `seq` of target `target`
/// in a run seeded with `run_seed`, sent after `idle_gap_s` of idle when
/// the plan has idle gaps) and measures it.
pub async fn measure_demo(
    request: &HttpRequest,
    options: MeasureOptions,
    (target, seq, run_seed, idle_gap_s): (u32, u32, u64, Option<f64>),
    stop: &mut Stop,
) -> Measured {
    let reply = demo_reply_to_after(
        behaviour_of(&request.url),
        &request.body,
        seq,
        target_seed(run_seed, target),
        idle_gap_s,
    );
    let mut measurement =
        Measurement::new(options.protocol, options.reasoning_counts_as_first_token);
    let t0 = Instant::now();
    let ms = || t0.elapsed().as_secs_f64() * 1000.0;

    if !wait(t0, reply.headers_at_ms, options, &mut measurement, stop).await {
        return done(measurement);
    }
    let mode = measurement.on_headers(ms(), reply.status, Some(reply.content_type));
    let mut error_body = Vec::new();
    for chunk in &reply.chunks {
        if !wait(t0, chunk.at_ms, options, &mut measurement, stop).await {
            return done(measurement);
        }
        let at_ms = ms();
        match mode {
            BodyMode::Stream => {
                if measurement.on_chunk(at_ms, &chunk.bytes) == Flow::Finished {
                    return done(measurement);
                }
            }
            BodyMode::ErrorBody | BodyMode::NotSse => error_body.extend_from_slice(&chunk.bytes),
        }
    }
    let at_ms = ms();
    match mode {
        BodyMode::Stream => measurement.on_body_end(at_ms),
        BodyMode::ErrorBody | BodyMode::NotSse => {
            measurement.on_error_body(at_ms, &String::from_utf8_lossy(&error_body));
        }
    }
    done(measurement)
}

/// Waits until `at_ms` after `t0`; false when the timeout or a stop came
/// first (and the measurement has been told which).
async fn wait(
    t0: Instant,
    at_ms: f64,
    options: MeasureOptions,
    measurement: &mut Measurement,
    stop: &mut Stop,
) -> bool {
    let ms = || t0.elapsed().as_secs_f64() * 1000.0;
    let timeout_ms = options.timeout_s.max(0.0) * 1000.0;
    let until = TokioInstant::from_std(t0)
        + std::time::Duration::from_secs_f64(at_ms.min(timeout_ms).max(0.0) / 1000.0);
    if *stop.borrow() {
        measurement.on_abort(ms());
        return false;
    }
    tokio::select! {
        biased;
        _ = stop.wait_for(|stopped| *stopped) => {
            measurement.on_abort(ms());
            false
        }
        () = tokio::time::sleep_until(until) => {
            if at_ms > timeout_ms {
                measurement.on_timeout(ms(), options.timeout_s);
                false
            } else {
                true
            }
        }
    }
}

fn done(measurement: Measurement) -> Measured {
    Measured {
        outcome: measurement.finish(),
        opened: None,
        http_version: None,
        reused: None,
        retried: false,
        connection_idle_s: None,
    }
}
