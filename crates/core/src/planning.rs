//! The planning layer: what to measure, where its keys go, the probes and
//! when to send. A plan is validated here once, at the boundary, and the
//! layers above read only a valid [`plan::Plan`].
//!
//! Start here: [`plan::Plan`] ([`Plan::from_json`](plan::Plan::from_json),
//! [`Plan::from_link_fragment`](plan::Plan::from_link_fragment)); then
//! [`schedule::Schedule`], when each request is sent, and its
//! [`schedule::Runner`]. [`key_rules::needed_key`] says which host gets
//! which key, [`presets::preset_by_id`] gives a preset target and
//! [`fidelity::suite::Suite`] the fidelity probes.

pub mod context_window;
pub mod fidelity;
pub mod key_rules;
pub mod objectives;
pub mod plan;
pub mod plan_flags;
pub mod presets;
pub mod prompt;
pub mod schedule;
