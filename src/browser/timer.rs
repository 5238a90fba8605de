//! Waiting, in the place where hidden-tab throttling bites least.
//!
//! Chromium throttles the timers of a hidden page to once per second, and
//! after five minutes hidden to once per minute; a dedicated worker's timers
//! are not throttled that way. So waits between requests are posted to
//! `timer-worker.js` and fall back to the page's own `setTimeout` only where
//! the worker cannot start. Samples still record whether the tab was hidden
//! and when each request was really sent, so any delay that remains shows.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{MessageEvent, Worker};

use std::collections::BTreeMap;

/// Path of the worker script, relative to the page (works under a sub-path).
const WORKER_URL: &str = "timer-worker.js";

/// Waits posted to the worker, by id: resolve function and due time
/// (`now_ms()`). Rarely more than one at a time.
type Pending = Rc<RefCell<BTreeMap<u32, (Function, f64)>>>;

struct WorkerTimer {
    worker: Worker,
    pending: Pending,
    next_id: u32,
    // Kept alive as long as the worker: dropping them would detach the handlers.
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut()>,
}

thread_local! {
    static WORKER: RefCell<Option<WorkerTimer>> = RefCell::new(start_worker());
    static WORKER_FAILED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn start_worker() -> Option<WorkerTimer> {
    let worker = Worker::new(WORKER_URL).ok()?;
    let pending: Pending = Rc::default();
    let resolver = Rc::clone(&pending);
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let id = Reflect::get(&event.data(), &"id".into())
            .ok()
            .and_then(|v| v.as_f64());
        // Ids are our own small counters, so the float holds them exactly.
        if let Some((resolve, _)) = id.and_then(|id| resolver.borrow_mut().remove(&(id as u32))) {
            let _ = resolve.call0(&JsValue::NULL);
        }
    });
    // The script can fail to load (served from elsewhere, blocked): the
    // constructor does not say so, only this event does. Then every wait
    // moves to the page's timers, and so do those already posted.
    let orphans = Rc::clone(&pending);
    let on_error = Closure::<dyn FnMut()>::new(move || {
        WORKER_FAILED.with(|failed| failed.set(true));
        let now = super::clock::now_ms();
        for (resolve, due_ms) in std::mem::take(&mut *orphans.borrow_mut()).into_values() {
            set_timeout(&resolve, (due_ms - now).max(0.0));
        }
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Some(WorkerTimer {
        worker,
        pending,
        next_id: 0,
        _on_message: on_message,
        _on_error: on_error,
    })
}

/// Resolves after `ms` milliseconds.
pub async fn sleep_ms(ms: f64) {
    let promise = Promise::new(&mut |resolve, _reject| schedule(ms.max(0.0), resolve));
    let _ = JsFuture::from(promise).await;
}

fn schedule(ms: f64, resolve: Function) {
    let posted = !WORKER_FAILED.with(std::cell::Cell::get)
        && WORKER.with(|slot| {
            let mut slot = slot.borrow_mut();
            let Some(timer) = slot.as_mut() else {
                return false;
            };
            let id = timer.next_id;
            timer.next_id = timer.next_id.wrapping_add(1);
            let message = Object::new();
            let _ = Reflect::set(&message, &"id".into(), &JsValue::from(id));
            let _ = Reflect::set(&message, &"ms".into(), &JsValue::from(ms));
            let due_ms = super::clock::now_ms() + ms;
            timer
                .pending
                .borrow_mut()
                .insert(id, (resolve.clone(), due_ms));
            timer.worker.post_message(&message).is_ok()
        });
    if !posted {
        set_timeout(&resolve, ms);
    }
}

fn set_timeout(callback: &Function, ms: f64) -> Option<i32> {
    // setTimeout takes an i32 of milliseconds; our waits are far below 24 days.
    let ms = ms.clamp(0.0, f64::from(i32::MAX)) as i32;
    let global = js_sys::global();
    if let Some(window) = global.dyn_ref::<web_sys::Window>() {
        return window
            .set_timeout_with_callback_and_timeout_and_arguments_0(callback, ms)
            .ok();
    }
    global
        .dyn_ref::<web_sys::WorkerGlobalScope>()
        .and_then(|w| {
            w.set_timeout_with_callback_and_timeout_and_arguments_0(callback, ms)
                .ok()
        })
}

fn clear_timeout(handle: i32) {
    let global = js_sys::global();
    if let Some(window) = global.dyn_ref::<web_sys::Window>() {
        window.clear_timeout_with_handle(handle);
    } else if let Some(worker) = global.dyn_ref::<web_sys::WorkerGlobalScope>() {
        worker.clear_timeout_with_handle(handle);
    }
}

/// A one-shot page timer cancelled when dropped: the request timeout. It
/// runs on the page's own timers, which is fine for a deadline of seconds.
pub struct Timeout {
    handle: Option<i32>,
    _callback: Closure<dyn FnMut()>,
}

impl Timeout {
    /// Calls `on_timeout` after `ms` milliseconds unless dropped first.
    pub fn start(ms: f64, on_timeout: impl FnOnce() + 'static) -> Self {
        let mut on_timeout = Some(on_timeout);
        let callback = Closure::<dyn FnMut()>::new(move || {
            if let Some(f) = on_timeout.take() {
                f();
            }
        });
        let handle = set_timeout(callback.as_ref().unchecked_ref(), ms);
        Self {
            handle,
            _callback: callback,
        }
    }
}

impl Drop for Timeout {
    fn drop(&mut self) {
        if let Some(handle) = self.handle {
            clear_timeout(handle);
        }
    }
}

/// Runs `f` after `ms` milliseconds on the page's timers (fire and forget).
pub fn after_ms(ms: f64, f: impl FnOnce() + 'static) {
    let callback = super::once_js(Box::new(f));
    let _ = set_timeout(callback.unchecked_ref(), ms);
}
