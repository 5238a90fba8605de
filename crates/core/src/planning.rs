//! The planning layer: what to measure, where its keys go, the probes and
//! when to send. A plan is validated here once, at the boundary, and the
//! layers above read only a valid [`plan::Plan`].

pub mod context_window;
pub mod fidelity;
pub mod key_rules;
pub mod plan;
pub mod plan_flags;
pub mod presets;
pub mod prompt;
pub mod schedule;
