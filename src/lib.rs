//! FirstToken measures time-to-first-token (TTFT) of streamed LLM replies from
//! the browser, with the user's own keys, and turns hundreds of samples into
//! the few numbers that decide where to route a model: median, p95, CV% and
//! the cold-start tail.
//!
//! One crate, data flowing one way (see `DESIGN.md` section 8):
//!
//! ```text
//! ui (Yew components, reducer) ──> browser (fetch stream, clock, timers, storage, canvas)
//!        │                                 │
//!        └─────────> core (pure Rust)  <───┘
//!                    chart (pure: draws data onto any plotters backend)
//! ```
//!
//! `core` and `chart` know nothing of the web and are tested natively; only
//! `browser` touches `web_sys`, `js_sys` and `JsValue`.

pub mod chart;
pub mod core;
pub mod ui;

#[cfg(target_arch = "wasm32")]
pub mod api;
#[cfg(target_arch = "wasm32")]
pub mod browser;
