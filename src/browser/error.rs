//! Typed errors for the browser boundary: a `JsValue` thrown by a web API is
//! turned into a [`BrowserError`] here, and nowhere else.

use std::fmt;

use wasm_bindgen::JsValue;

/// A web API call failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrowserError {
    /// What we were doing ("open the results database").
    pub context: &'static str,
    /// The browser's own words (`TypeError: Failed to fetch`).
    pub detail: String,
}

impl BrowserError {
    /// Wraps a thrown `JsValue` with what we were doing when it was thrown.
    pub fn from_js(context: &'static str, value: &JsValue) -> Self {
        Self {
            context,
            detail: describe_js(value),
        }
    }

    /// An error with no JavaScript value behind it (a missing `window`, say).
    pub fn missing(context: &'static str, detail: &str) -> Self {
        Self {
            context,
            detail: detail.to_owned(),
        }
    }
}

impl fmt::Display for BrowserError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "could not {}: {}", self.context, self.detail)
    }
}

impl std::error::Error for BrowserError {}

/// `name: message` of a thrown JavaScript error, or its string form.
pub fn describe_js(value: &JsValue) -> String {
    if let Some(error) = value.dyn_ref::<js_sys::Error>() {
        let name: String = error.name().into();
        let message: String = error.message().into();
        return format!("{name}: {message}");
    }
    value.as_string().unwrap_or_else(|| format!("{value:?}"))
}

/// True when a thrown value is a `TypeError`, which is how `fetch()` reports a
/// CORS refusal or a network failure without saying which.
pub fn is_type_error(value: &JsValue) -> bool {
    value.is_instance_of::<js_sys::TypeError>()
}

use wasm_bindgen::JsCast;
