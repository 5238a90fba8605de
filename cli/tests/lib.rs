//! Native tests of the runner against the mock provider over real sockets:
//! every mock script under every protocol, timing against the mock's ground
//! truth, faults as typed error samples, and the `firsttoken` binary itself
//! (results, CSV, report, keys, Ctrl-C, publish).
//!
//! The mock runs in this process on a free loopback port; the binary is the
//! one Cargo built for these tests.

// `cfg(test)` marks the helpers as test code too, so clippy lets them unwrap like the tests do.
#[cfg(test)]
mod native {
    pub mod binary;
    pub mod decided;
    pub mod failures;
    pub mod flags;
    pub mod gate;
    pub mod html;
    pub mod idle;
    pub mod journal;
    pub mod keepalive;
    pub mod measure;
    pub mod nonce;
    pub mod prefill;
    pub mod publish;
    pub mod release;
    pub mod support;
    pub mod width;
}
