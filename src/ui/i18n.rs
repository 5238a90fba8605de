//! The page's words in English and Simplified Chinese, which live with every
//! other sentence in `core::text` (`core::text::page`).

pub use crate::core::text::page::*;
