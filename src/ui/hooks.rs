//! The page's hooks, one per file (yew's `use_<thing>` habit): `App`'s
//! effects and those more than one component needs. They run only in a
//! browser, so they are wasm32-only like the components that call them.
//!
//! Each is imported by its own path, not re-exported here: `App`'s start
//! reaches the lazily loaded parts, and a component importing the folder
//! would import them too (an import circle, tests/architecture.rs).

pub(crate) mod document_lang;
pub(crate) mod page_start;
pub(crate) mod prefetch_results;
pub(crate) mod remember_keys;
pub(crate) mod render_mark;
pub(crate) mod resize;
