//! The page: a pure model of what it shows (tested natively) and, on
//! wasm32, the Yew components, hooks and pages that wire it to the DOM.
//!
//! Laid out as yew's examples are, one folder per role:
//!
//! | folder | holds | built | tested |
//! |---|---|---|---|
//! | [`model`] | plain data in, plain data out, no DOM: the state reducer, the setup form, the key rules, the words, the fidelity and dashboard items | native and wasm32 | `cargo test -p firsttoken` |
//! | `hooks` | effects, one `use_…` per file: the page's start, remembered keys, prefetching a part, the document's language, resize, render marks | wasm32 | through the components |
//! | `components` | pieces more than one screen or section shows: charts, the live timeline, the outline's printer, the probe grid, the verdict badge | wasm32 | browser and end-to-end tests |
//! | `pages` | one per screen: setup (its cards in `setup_view/`), run and history, results, dashboard | wasm32 | browser and end-to-end tests |
//! | `run` | work that outlives a render: the run loop (`driver`), the dashboard's loader, the lazily loaded parts' split points (`lazy`) | wasm32 | browser and end-to-end tests |
//!
//! `app` is the root: the reducer, the driver, the hooks it starts with and
//! the screen shown. What the first load carries and what comes later in a
//! part is decided by the split points in `run::lazy` alone, not by this
//! layout: a module lands in the part that first reaches it (the table in
//! docs/architecture.md, "The lazy parts of the page").

pub mod model;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod components;
#[cfg(target_arch = "wasm32")]
mod hooks;
#[cfg(target_arch = "wasm32")]
mod pages;
#[cfg(target_arch = "wasm32")]
pub(crate) mod run;

#[cfg(target_arch = "wasm32")]
pub use app::start;
