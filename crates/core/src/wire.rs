//! The wire layer: requests, streams and what one request measured. Bytes
//! and times arrive as arguments (the decoder takes chunks, the measurement
//! takes "now"), so every split of a stream is tested natively.

pub mod demo;
pub mod measure;
pub mod protocol;
pub mod ratelimit;
pub mod sample;
pub mod sse;
pub mod stream_shape;
