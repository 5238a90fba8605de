//! The wire layer: requests, streams, what one request measured, and the
//! run that sends them one at a time. Bytes and times arrive as arguments
//! (the decoder takes chunks, the measurement takes "now"), so every split
//! of a stream is tested natively; the run loop ([`run_loop`]) reaches
//! the clock, the network and storage only through its adapter.
//!
//! Start here: [`protocol::build_request`] builds a request,
//! [`measure::Measurement`] is fed its reply's bytes (decoded by
//! [`sse::SseDecoder`]) and [`sample::Sample::from_outcome`] keeps what it
//! measured; [`run_loop::run`] drives a whole run over a
//! [`run_loop::RunAdapter`], with its [`session::RunSession`].

pub mod demo;
pub mod measure;
pub mod protocol;
pub mod questions;
pub mod ratelimit;
pub mod run_loop;
pub mod sample;
pub mod session;
pub mod sse;
pub mod stream_shape;
