//! Integration tests of the mock provider over real loopback sockets, driven by the raw client
//! so every chunk boundary and timing is visible.

mod cases;
