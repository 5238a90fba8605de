//! The page: a pure state reducer and the bilingual texts (both tested
//! natively) and, on wasm32, the Yew components that wire them to the DOM.

/// The chart items the page draws, from the chart crate (the runner's HTML
/// report draws the same ones).
pub use crate::chart::items as chart_items;
pub mod dashboard;
pub mod fidelity_items;
pub mod form;
pub mod i18n;
pub mod keys;
pub mod state;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod charts;
#[cfg(target_arch = "wasm32")]
mod dashboard_loader;
#[cfg(target_arch = "wasm32")]
mod dashboard_view;
#[cfg(target_arch = "wasm32")]
pub(crate) mod driver;
#[cfg(target_arch = "wasm32")]
mod hooks;
#[cfg(target_arch = "wasm32")]
pub(crate) mod lazy;
#[cfg(target_arch = "wasm32")]
mod live_timeline;
#[cfg(target_arch = "wasm32")]
mod probe_grid;
#[cfg(target_arch = "wasm32")]
mod results_view;
#[cfg(target_arch = "wasm32")]
mod run_view;
#[cfg(target_arch = "wasm32")]
mod setup_view;
#[cfg(target_arch = "wasm32")]
mod verdict_badge;

#[cfg(target_arch = "wasm32")]
pub use app::start;
