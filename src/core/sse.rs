//! TODO: sse
