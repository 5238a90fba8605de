//! A screen wake lock while a run is going and the page is visible, so a
//! laptop does not sleep in the middle of an hours-long run.
//!
//! `navigator.wakeLock` is reached through `Reflect` rather than web-sys's
//! unstable bindings: it is missing in some browsers and on plain http
//! origins, and then the run simply goes on without it.

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// A held wake lock; released when dropped (the browser also releases it
/// whenever the page is hidden).
pub struct WakeLock {
    sentinel: JsValue,
}

impl WakeLock {
    /// Asks for a screen wake lock; `None` when the browser has none or refuses.
    pub async fn acquire() -> Option<Self> {
        let navigator = web_sys::window()?.navigator();
        let wake_lock = Reflect::get(&navigator, &"wakeLock".into())
            .ok()
            .filter(|v| !v.is_undefined())?;
        let request: Function = Reflect::get(&wake_lock, &"request".into())
            .ok()?
            .dyn_into()
            .ok()?;
        let promise: Promise = request
            .call1(&wake_lock, &"screen".into())
            .ok()?
            .dyn_into()
            .ok()?;
        let sentinel = JsFuture::from(promise).await.ok()?;
        Some(Self { sentinel })
    }
}

impl Drop for WakeLock {
    fn drop(&mut self) {
        if let Ok(release) = Reflect::get(&self.sentinel, &"release".into())
            && let Some(release) = release.dyn_ref::<Function>()
        {
            let _ = release.call0(&self.sentinel);
        }
    }
}
