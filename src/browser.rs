//! The only layer that touches `web_sys`, `js_sys` and `JsValue`.
//!
//! Everything here is thin glue: it reads the clock, moves bytes and events
//! between the browser and `core`, and turns JavaScript errors into typed
//! errors at the boundary. Decisions live in `core`.

pub mod canvas;
pub mod clock;
pub mod demo;
pub mod error;
pub mod fetch_stream;
pub mod files;
pub mod published;
pub mod storage;
pub mod timer;
pub mod wake_lock;

pub use error::BrowserError;

use std::future::Future;
use std::pin::Pin;

use wasm_bindgen::JsValue;
use wasm_bindgen::closure::Closure;

/// Runs `future` to completion on the page's event loop, like
/// `wasm_bindgen_futures::spawn_local`.
///
/// The future is boxed so that the task code behind it is compiled once,
/// not once per future type: a smaller page.
pub(crate) fn spawn(future: impl Future<Output = ()> + 'static) {
    spawn_boxed(Box::pin(future));
}

fn spawn_boxed(future: Pin<Box<dyn Future<Output = ()>>>) {
    wasm_bindgen_futures::spawn_local(future);
}

/// A JavaScript function that calls `f` once and then frees it, for event
/// handlers and timers that fire once.
///
/// `f` is boxed so that wasm-bindgen's closure glue is compiled once for all
/// of them, not once per caller's closure type: a smaller page.
pub(crate) fn once_js(f: Box<dyn FnOnce()>) -> JsValue {
    Closure::once_into_js(f)
}
