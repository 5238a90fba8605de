//! Test code: sample fixtures (also built for the other crates' tests with
//! the `fixtures` feature), hostile inputs and metamorphic properties. It
//! sits above every layer, since a test may build anything.
//!
//! Start here: `fixtures::synthetic_samples`, a deterministic run over
//! many targets, and `fixtures::sample`, one sample sent at a given time
//! (reached as `firsttoken_core::testing::fixtures` with the `fixtures`
//! feature).

#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
#[cfg(test)]
mod generated;
#[cfg(test)]
mod hostile;
#[cfg(test)]
mod metamorphic;
#[cfg(test)]
mod stopping;
