//! Test code: sample fixtures (also built for the other crates' tests with
//! the `fixtures` feature), hostile inputs and metamorphic properties. It
//! sits above every layer, since a test may build anything.

#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
#[cfg(test)]
mod generated;
#[cfg(test)]
mod hostile;
#[cfg(test)]
mod metamorphic;
