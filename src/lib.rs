//! FirstToken measures time-to-first-token (TTFT) of streamed LLM replies from
//! the browser, with the user's own keys, and turns hundreds of samples into
//! the few numbers that decide where to route a model: median, p95, CV% and
//! the cold-start tail.
//!
//! One pure core and two adapters, data flowing one way (see
//! docs/architecture.md). The core is its own crate, `firsttoken-core` (`crates/core`), which this
//! crate re-exports as `firsttoken::core`; this crate is the page; the native runner,
//! `firsttoken` (the `cli/` crate), is the second adapter over the same core,
//! and `mock/` is the provider the tests measure:
//!
//! ```text
//! ui (Yew components, reducer) ──> browser (fetch stream, clock, timers, storage, canvas)
//!        │                                 │
//!        └─────────> core (pure Rust)  <───┘  <── cli: firsttoken run / report / check / publish
//!                    chart (pure: draws data onto any plotters backend)
//! ```
//!
//! `core` and `chart` know nothing of the web and are tested natively; only
//! `browser` touches `web_sys`, `js_sys` and `JsValue`. Every sentence and
//! formatted number either adapter prints is made in core (`core::words`,
//! `core::narrative`), and `core` has no import circle (`tests/architecture.rs`).

pub mod ui;

/// Charts as pure functions of data, their own crate (`crates/chart`,
/// `firsttoken-chart`), shared with the runner's HTML report.
pub use firsttoken_chart as chart;

/// The pure core, its own crate (`crates/core`, `firsttoken-core`), which the
/// runner and the mock depend on without the page.
pub use firsttoken_core as core;

#[cfg(target_arch = "wasm32")]
pub mod api;
#[cfg(target_arch = "wasm32")]
pub mod browser;
