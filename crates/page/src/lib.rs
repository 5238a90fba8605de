//! The page as one WebAssembly module: the `firsttoken` library (its
//! `#[wasm_bindgen(start)]` entry in `ui::app`, every component, the core
//! and the charts) linked as a `cdylib` that Trunk builds (`index.html`).
//!
//! Why a crate of its own: the library is also an `rlib`, which its native
//! unit tests and its browser tests (`tests/browser.rs`) link, and Cargo
//! runs no LTO for a crate that is both (rust-lang/cargo#9672). Here the
//! whole page is one LTO unit, so LLVM inlines and drops code across the
//! core, the charts and the page as if they were one crate.

pub use firsttoken::*;
