//! The page's words in English and Simplified Chinese, which live with every
//! other sentence in `core::text` (`core::text::page`).

pub use crate::core::text::page::*;
// A plan's warning is a sentence about the plan, above the words layer
// that holds the page's labels (docs/architecture.md).
pub use crate::core::text::warning_text;
