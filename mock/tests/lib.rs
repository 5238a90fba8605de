//! Integration tests of the mock provider over real loopback sockets, driven by the raw client
//! so every chunk boundary and timing is visible.

// `cfg(test)` marks the helpers as test code too, so clippy lets them unwrap like the tests do.
#[cfg(test)]
mod cases;
