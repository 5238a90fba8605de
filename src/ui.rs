//! The page: a pure model of what it shows (tested natively) and, on
//! wasm32, the Yew components and hooks that wire it to the DOM.
//!
//! The modules sit side by side in `ui/`; by role:
//!
//! | role | modules | built | tested |
//! |---|---|---|---|
//! | **model**: plain data in, plain data out, no DOM | [`state`] (the reducer; `state/page.rs`, the props every screen receives, is wasm32-only), [`form`] (raw fields → a validated plan), [`keys`] (key slots, hosts to confirm), [`i18n`] (the words, from `core::text::page`), [`chart_items`] (from the chart crate), [`fidelity_items`], [`dashboard`] (the dashboard's reducer) | native and wasm32 | `cargo test -p firsttoken` |
//! | **components**: one per screen or section, `XxxProps` in, `Html` out | `app` (the root), `setup_view` (its cards in `setup_view/`), `run_view`, `live_timeline`, `results_view`, `charts`, `probe_grid`, `verdict_badge`, `dashboard_view` | wasm32 | browser and end-to-end tests |
//! | **hooks**: effects more than one component needs | `hooks` (`use_resize_count`, `use_render_mark`) | wasm32 | through the components |
//! | **runners**: work that outlives a render | `driver` (the run loop), `dashboard_loader` (fetching published files), `lazy` (the split points) | wasm32 | browser and end-to-end tests |
//!
//! What the first load carries and what comes later in a part is decided by
//! the `#[wasm_split]` functions in `lazy` alone, not by this layout: a
//! component lands in the module of the part that first reaches it
//! (docs/size.md).

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
mod outline_view;
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
