//! Functions the page exports to JavaScript (`window.wasmBindings` under
//! Trunk), for scripts that drive the page: the end-to-end tests and the
//! measurement-accuracy benchmark call the very code path a run uses.

use wasm_bindgen::prelude::*;

use crate::core::plan::{Plan, Target};

/// Sends one request to `target_json` (a plan target) under `plan_json` (a
/// plan document) and resolves to the outcome as JSON: the same timings a
/// run records, from the same fetch, reader and decoder.
///
/// # Errors
/// Rejects when either document is malformed; a failed request is not an
/// error here but an outcome with its `error` set.
#[wasm_bindgen(js_name = measureOnce)]
pub async fn measure_once(
    target_json: String,
    plan_json: String,
    key: Option<String>,
    seq: u32,
) -> Result<String, JsValue> {
    let target: Target = crate::core::document::from_str(&target_json)
        .map_err(|e| JsValue::from_str(&format!("bad target: {e}")))?;
    let plan =
        Plan::from_json(&plan_json).map_err(|e| JsValue::from_str(&format!("bad plan: {e}")))?;
    let outcome = crate::ui::driver::measure_once(&target, &plan, key.as_deref(), seq, 0).await;
    Ok(crate::core::document::to_string(&outcome))
}

/// The page's version (the crate version), for result files and scripts.
#[wasm_bindgen(js_name = pageVersion)]
pub fn page_version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
