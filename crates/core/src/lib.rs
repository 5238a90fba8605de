//! The pure heart of FirstToken: everything that computes, with bytes and
//! times passed in as arguments so it all runs and is tested natively.
//!
//! Nothing here reads a clock or touches the web: `std::time::Instant::now()`
//! panics on `wasm32-unknown-unknown`, and a clock read inside the decoder
//! would make timings depend on parsing cost.

pub mod binomial;
pub mod bootstrap;
pub mod cache;
pub mod calendar;
pub mod compare;
pub mod cost;
pub mod dashboard;
pub mod delivery;
pub mod demo;
pub mod dependence;
pub mod document;
pub mod failure;
pub mod fidelity;
#[cfg(any(test, feature = "fixtures"))]
#[doc(hidden)]
pub mod fixtures;
pub mod key_rules;
pub mod measure;
pub mod objective;
pub mod origin;
pub mod peak;
pub mod plan;
pub mod plan_flags;
pub mod presets;
pub mod price;
pub mod protocol;
pub mod publish;
pub mod quantile;
pub mod ratelimit;
pub mod report;
pub mod results;
pub mod routing_config;
pub mod run;
pub mod sample;
pub mod schedule;
pub mod settings;
pub mod slow;
pub mod sse;
pub mod stats;
pub mod stream_shape;
pub mod tail;
pub mod text;
pub mod timeofday;
pub mod verdict;

#[cfg(test)]
mod hostile;
