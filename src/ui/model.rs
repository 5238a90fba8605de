//! What the page shows, as plain data: no DOM, built and tested natively.

/// The chart items the page draws, from the chart crate (the runner's HTML
/// report draws the same ones).
pub use crate::chart::items as chart_items;
pub mod dashboard;
pub mod fidelity_items;
pub mod form;
pub mod i18n;
pub mod keys;
pub mod state;
