//! One measured request over the browser's streaming `fetch()`.
//!
//! The clock is read just before `fetch()` is called (`t0`) and again the
//! moment each promise settles, before the chunk is copied or decoded, so
//! parsing cost never enters a timing. The bytes and times then go to the
//! pure [`Measurement`] state machine in `core`, which decides what they mean.
//!
//! Every path ends in an [`Outcome`]: a CORS refusal, an HTTP error, a stalled
//! stream or a cut connection is a sample with an error, never a panic and
//! never a lost run. The stream reader is released on every path.

use std::cell::Cell;
use std::rc::Rc;

use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, ReadableStreamDefaultReader, RequestCache, RequestInit, Response};

use super::clock::now_ms;
use super::error::{BrowserError, describe_js};
use super::{demo, timer};
use crate::core::planning::plan::Protocol;
use crate::core::wire::measure::{Flow, Measurement, Outcome};
use crate::core::wire::protocol::HttpRequest;
use crate::core::wire::ratelimit::read_rate_limit;

/// Why a request was aborted, so a rejection can be told apart from a
/// network failure (the browser reports all three as a rejected promise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AbortReason {
    Timeout,
    Stopped,
}

/// A handle that stops the request in flight: "Stop" in the page calls
/// [`Abort::stop`]; the timeout calls the same controller.
#[derive(Clone)]
pub struct Abort {
    controller: AbortController,
    reason: Rc<Cell<Option<AbortReason>>>,
}

impl Abort {
    /// A fresh, unaborted handle.
    ///
    /// # Errors
    /// When the browser has no `AbortController` (every current one has).
    pub fn new() -> Result<Self, BrowserError> {
        let controller = AbortController::new()
            .map_err(|e| BrowserError::from_js("create an AbortController", &e))?;
        Ok(Self {
            controller,
            reason: Rc::new(Cell::new(None)),
        })
    }

    /// Stops the request: it becomes a sample with kind `aborted`.
    pub fn stop(&self) {
        self.abort_for(AbortReason::Stopped);
    }

    fn abort_for(&self, reason: AbortReason) {
        if self.reason.get().is_none() {
            self.reason.set(Some(reason));
            self.controller.abort();
        }
    }

    fn signal(&self) -> web_sys::AbortSignal {
        self.controller.signal()
    }
}

/// What one request needs besides the request itself.
pub struct MeasureOptions {
    /// Wire protocol, for decoding the stream.
    pub protocol: Protocol,
    /// Count the first reasoning delta as the first token.
    pub reasoning_counts_as_first_token: bool,
    /// Abort after this many seconds (a stalled stream ends here).
    pub timeout_s: f64,
    /// What is known of the provider's browser access (its preset's CORS
    /// note), said beside the possible causes when the browser shows no
    /// answer.
    pub cors_note: Option<String>,
    /// Request number, so the demo provider's reply is reproducible.
    pub seq: u32,
    /// Seed of the run, for the demo provider.
    pub seed: u64,
    /// The idle gap the request was sent after, seconds, when the plan has
    /// idle gaps (the demo's scale-to-zero target reads it).
    pub idle_gap_s: Option<f64>,
}

/// Sends `request`, reads its stream to the end and returns what happened.
pub async fn measure(request: &HttpRequest, options: &MeasureOptions, abort: &Abort) -> Outcome {
    let mut measurement =
        Measurement::new(options.protocol, options.reasoning_counts_as_first_token);
    let init = request_init(request, abort);
    let timeout_abort = abort.clone();
    let _timeout = timer::Timeout::start(options.timeout_s * 1000.0, move || {
        timeout_abort.abort_for(AbortReason::Timeout);
    });

    let t0 = now_ms();
    let promise = if options.protocol == Protocol::Demo {
        demo::fetch(
            &request.url,
            &request.body,
            options.seq,
            options.seed,
            options.idle_gap_s,
            &abort.signal(),
        )
    } else {
        fetch(&request.url, &init)
    };
    let settled = JsFuture::from(promise).await;
    let headers_ms = now_ms() - t0;

    let response = match settled {
        Ok(value) => value.unchecked_into::<Response>(),
        Err(error) => {
            match abort.reason.get() {
                Some(AbortReason::Timeout) => measurement.on_timeout(headers_ms, options.timeout_s),
                Some(AbortReason::Stopped) => measurement.on_abort(headers_ms),
                None => {
                    measurement.on_fetch_rejected(
                        headers_ms,
                        options.cors_note.as_deref(),
                        &describe_js(&error),
                    );
                }
            }
            return measurement.finish();
        }
    };

    let content_type = response.headers().get("content-type").ok().flatten();
    // Every body is read chunk by chunk, an error body too: core keeps at
    // most `ERROR_BODY_LIMIT_BYTES` of it and stops the read there, where
    // `response.text()` would hold whatever a server chose to send.
    measurement.on_headers(headers_ms, response.status(), content_type.as_deref());
    if !(200..300).contains(&response.status()) {
        // A refusal: keep what its headers say about rate limits, as far as
        // the provider lets scripts read them (core judges that from the
        // names it can see).
        let visible: Vec<(String, String)> = js_sys::try_iter(response.headers().as_ref())
            .ok()
            .flatten()
            .into_iter()
            .flatten()
            .filter_map(|entry| {
                let pair = js_sys::Array::from(&entry.ok()?);
                Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
            })
            .collect();
        measurement.on_rate_limit(read_rate_limit(
            visible
                .iter()
                .map(|(name, value)| (name.as_str(), value.as_str())),
            false,
        ));
    }
    read_stream(&response, &mut measurement, t0, options, abort).await;
    measurement.finish()
}

/// `window.fetch` or, in a worker, the worker's own.
fn fetch(url: &str, init: &RequestInit) -> js_sys::Promise {
    let global = js_sys::global();
    if let Some(window) = global.dyn_ref::<web_sys::Window>() {
        return window.fetch_with_str_and_init(url, init);
    }
    match global.dyn_ref::<web_sys::WorkerGlobalScope>() {
        Some(worker) => worker.fetch_with_str_and_init(url, init),
        None => js_sys::Promise::reject(&JsValue::from(js_sys::TypeError::new("no fetch here"))),
    }
}

fn request_init(request: &HttpRequest, abort: &Abort) -> RequestInit {
    let init = RequestInit::new();
    init.set_method("POST");
    // `no-store`: a cached reply would time the cache, not the provider.
    init.set_cache(RequestCache::NoStore);
    init.set_mode(web_sys::RequestMode::Cors);
    init.set_signal(Some(&abort.signal()));
    init.set_body(&JsValue::from_str(&request.body));
    let headers = js_sys::Object::new();
    for (name, value) in &request.headers {
        // Setting a property on a fresh plain object cannot fail.
        let _ = Reflect::set(
            &headers,
            &JsValue::from_str(name),
            &JsValue::from_str(value),
        );
    }
    init.set_headers(&headers);
    init
}

/// Cancels and releases the reader however the read loop ends, so a dropped
/// future (the user navigated away mid-run) never leaves the body locked.
struct ReaderGuard {
    reader: ReadableStreamDefaultReader,
    drained: bool,
}

impl Drop for ReaderGuard {
    fn drop(&mut self) {
        if !self.drained {
            // cancel() returns a promise we have no reason to wait on, but it
            // rejects when the stream was aborted (Stop, timeout): awaiting it
            // in a detached task handles that rejection, so the page reports no
            // "uncaught (in promise)" error.
            let cancelled = JsFuture::from(self.reader.cancel());
            super::spawn(async move {
                let _ = cancelled.await;
            });
        }
        self.reader.release_lock();
    }
}

async fn read_stream(
    response: &Response,
    measurement: &mut Measurement,
    t0: f64,
    options: &MeasureOptions,
    abort: &Abort,
) {
    let Some(body) = response.body() else {
        measurement.on_body_end(now_ms() - t0);
        return;
    };
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut guard = ReaderGuard {
        reader,
        drained: false,
    };
    loop {
        let read = JsFuture::from(guard.reader.read()).await;
        // Timestamp first: copying and decoding come after.
        let at_ms = now_ms() - t0;
        let result = match read {
            Ok(result) => result,
            Err(error) => {
                settle_read_error(measurement, at_ms, &error, options, abort);
                return;
            }
        };
        let done = Reflect::get(&result, &"done".into())
            .ok()
            .and_then(|d| d.as_bool());
        if done == Some(true) {
            guard.drained = true;
            measurement.on_body_end(at_ms);
            return;
        }
        let chunk = Reflect::get(&result, &"value".into()).unwrap_or(JsValue::UNDEFINED);
        let bytes = chunk
            .dyn_ref::<Uint8Array>()
            .map(Uint8Array::to_vec)
            .unwrap_or_default();
        if measurement.on_chunk(at_ms, &bytes) == Flow::Finished {
            return;
        }
    }
}

fn settle_read_error(
    measurement: &mut Measurement,
    at_ms: f64,
    error: &JsValue,
    options: &MeasureOptions,
    abort: &Abort,
) {
    match abort.reason.get() {
        Some(AbortReason::Timeout) => measurement.on_timeout(at_ms, options.timeout_s),
        Some(AbortReason::Stopped) => measurement.on_abort(at_ms),
        None => measurement.on_read_error(at_ms, &describe_js(error)),
    }
}

/// A plain GET (a provider's model list): status and body text.
///
/// # Errors
/// When `fetch()` rejects (CORS or network) or the body cannot be read.
pub async fn get_text(
    url: &str,
    headers: &[(String, String)],
) -> Result<(u16, String), BrowserError> {
    let context = "reach the provider";
    let init = RequestInit::new();
    init.set_method("GET");
    init.set_cache(RequestCache::NoStore);
    let header_object = js_sys::Object::new();
    for (name, value) in headers {
        let _ = Reflect::set(
            &header_object,
            &JsValue::from_str(name),
            &JsValue::from_str(value),
        );
    }
    init.set_headers(&header_object);
    let response: Response = JsFuture::from(fetch(url, &init))
        .await
        .map_err(|e| BrowserError::from_js(context, &e))?
        .unchecked_into();
    let text_promise = response
        .text()
        .map_err(|e| BrowserError::from_js(context, &e))?;
    let text = JsFuture::from(text_promise)
        .await
        .map_err(|e| BrowserError::from_js(context, &e))?;
    Ok((response.status(), text.as_string().unwrap_or_default()))
}
