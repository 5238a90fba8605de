//! Functions the page exports to JavaScript (`window.wasmBindings` under
//! Trunk), for scripts that drive the page: the end-to-end tests and the
//! measurement-accuracy benchmark call the very code path a run uses.

use wasm_bindgen::prelude::*;

/// Sends one request to `target_json` (a plan target) under `plan_json` (a
/// plan document) and resolves to the outcome as JSON: the same timings a
/// run records, from the same fetch, reader and decoder.
///
/// # Errors
/// Rejects when either document is malformed or the run's part of the page
/// does not load; a failed request is not an error here but an outcome with
/// its `error` set.
#[wasm_bindgen(js_name = measureOnce)]
pub async fn measure_once(
    target_json: String,
    plan_json: String,
    key: Option<String>,
    seq: u32,
) -> Result<String, JsValue> {
    // The readers, the fetch and the decoders are the run's part.
    let measuring = crate::ui::run::lazy::measure_documents(target_json, plan_json, key, seq)
        .await
        .map_err(|_| JsValue::from_str("the run's part of the page did not load"))?;
    measuring.await.map_err(|e| JsValue::from_str(&e))
}

/// The page's version (the crate version), for result files and scripts.
#[wasm_bindgen(js_name = pageVersion)]
pub fn page_version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
