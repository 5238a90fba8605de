//! The built-in demo provider: a real `Response` whose body is a
//! `ReadableStream` fed by timers, so a newcomer sees a real run with no key
//! and no network, through exactly the reader and timing code a real
//! provider goes through. What it sends, and when, comes from the pure
//! [`crate::core::wire::demo`] model.

use std::cell::Cell;
use std::rc::Rc;

use js_sys::{Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{
    AbortSignal, ReadableStream, ReadableStreamDefaultController, Response, ResponseInit,
};

use super::timer::after_ms;
use crate::core::wire::demo::demo_reply_to_after;

/// A `fetch()` look-alike for `demo://{behaviour}/{model}` URLs; the
/// behaviour (`steady`, `cold-tail`, `reasoning`, `degraded`,
/// `scale-to-zero`) picks the simulated provider, the request's `body`
/// tells it which fidelity probe, if any, it is answering, and
/// `idle_gap_s` how long the target sat idle before it.
pub fn fetch(
    url: &str,
    body: &str,
    seq: u32,
    seed: u64,
    idle_gap_s: Option<f64>,
    signal: &AbortSignal,
) -> Promise {
    let behaviour = crate::core::wire::demo::behaviour_of(url);
    let reply = demo_reply_to_after(behaviour, body, seq, seed, idle_gap_s);
    let headers_ms = reply.headers_at_ms;
    let aborted = Rc::new(Cell::new(false));

    let chunks = reply.chunks;
    let stream_aborted = Rc::clone(&aborted);
    let controller_slot: Rc<std::cell::RefCell<Option<ReadableStreamDefaultController>>> =
        Rc::default();
    let start_slot = Rc::clone(&controller_slot);
    let start = Closure::once_into_js(move |controller: ReadableStreamDefaultController| {
        *start_slot.borrow_mut() = Some(controller.clone());
        let last = chunks.len();
        for (index, chunk) in chunks.into_iter().enumerate() {
            let controller = controller.clone();
            let aborted = Rc::clone(&stream_aborted);
            after_ms(chunk.at_ms, move || {
                if aborted.get() {
                    return;
                }
                let bytes = Uint8Array::from(chunk.bytes.as_slice());
                let _ = controller.enqueue_with_chunk(&bytes);
                if index + 1 == last {
                    let _ = controller.close();
                }
            });
        }
        if last == 0 {
            let _ = controller.close();
        }
    });
    let source = Object::new();
    let _ = Reflect::set(&source, &"start".into(), &start);
    let stream = ReadableStream::new_with_underlying_source(&source);

    let status = reply.status;
    let content_type = reply.content_type;
    let signal = signal.clone();
    Promise::new(&mut |resolve, reject| {
        let stream = match &stream {
            Ok(stream) => stream.clone(),
            Err(error) => {
                let _ = reject.call1(&JsValue::NULL, error);
                return;
            }
        };
        let on_abort_flag = Rc::clone(&aborted);
        let on_abort_slot = Rc::clone(&controller_slot);
        let on_abort_reject = reject.clone();
        let on_abort = super::once_js(Box::new(move || {
            on_abort_flag.set(true);
            let error = abort_error();
            if let Some(controller) = on_abort_slot.borrow().as_ref() {
                controller.error_with_e(&error);
            }
            let _ = on_abort_reject.call1(&JsValue::NULL, &error);
        }));
        let _ = signal.add_event_listener_with_callback("abort", on_abort.unchecked_ref());
        let headers_aborted = Rc::clone(&aborted);
        after_ms(headers_ms, move || {
            if headers_aborted.get() {
                return;
            }
            let init = ResponseInit::new();
            init.set_status(status);
            let headers = Object::new();
            let _ = Reflect::set(
                &headers,
                &"content-type".into(),
                &JsValue::from_str(content_type),
            );
            init.set_headers(&headers);
            match Response::new_with_opt_readable_stream_and_init(Some(&stream), &init) {
                Ok(response) => {
                    let _ = resolve.call1(&JsValue::NULL, &response);
                }
                Err(error) => {
                    let _ = reject.call1(&JsValue::NULL, &error);
                }
            }
        });
    })
}

fn abort_error() -> JsValue {
    web_sys::DomException::new_with_message_and_name("the request was aborted", "AbortError")
        .map(JsValue::from)
        .unwrap_or_else(|_| JsValue::from_str("AbortError"))
}
