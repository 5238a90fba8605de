//! The page as one WebAssembly module: the `firsttoken` library (its
//! `#[wasm_bindgen(start)]` entry in `ui::app`, every component, the core
//! and the charts) linked as a `cdylib` that Trunk builds (`index.html`).
//!
//! Why a crate of its own: the library is also an `rlib`, which its native
//! unit tests and its browser tests (`tests/browser.rs`) link, and Cargo
//! runs no LTO for a crate that is both (rust-lang/cargo#9672). Here the
//! whole page is one LTO unit, so LLVM inlines and drops code across the
//! core, the charts and the page as if they were one crate.
//!
//! After the build the module is cut at the split points of
//! `ui::run::lazy` (scripts/wasm_split.py); a module's code lands where
//! the functions that reach it are (docs/architecture.md, "The lazy parts
//! of the page", has the whole table):
//!
//! - **first load**: `ui::app` and its hooks, `ui::pages::setup_view`,
//!   `ui::model` (state, form, keys, words), `ui::run::lazy` and the
//!   `Driver` handle, `browser::{storage, files, clock}`, plan reading;
//! - **`run` part**: `ui::pages::run_view`, `ui::components::live_timeline`,
//!   the loop of `ui::run::driver`, `browser::{fetch_stream, demo, timer,
//!   wake_lock}`, core's run session, protocols and probes;
//! - **`results` part**: `ui::pages::{results_view, dashboard_view}`,
//!   `ui::components::{outline_view, probe_grid}`,
//!   `ui::model::fidelity_items`, `ui::run::dashboard_loader`, core's
//!   judgement, sentences, outline and documents;
//! - **a shared chunk**: what both parts reach and the first load does not
//!   (`ui::components::{verdict_badge, charts}`, `ui::hooks::resize`, the
//!   chart crate's common pieces).

pub use firsttoken::*;
