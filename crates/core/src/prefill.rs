//! Prefill.
