//! The page's words in English and Simplified Chinese, which live with every
//! other word in core's words layer (`core::words::page`).

pub use crate::core::words::page::*;
// A plan's warning is a sentence about the plan, above the words layer
// that holds the page's labels (docs/architecture.md).
pub use crate::core::narrative::run_time::warning_text;
