//! The only layer that touches `web_sys`, `js_sys` and `JsValue`.
