//! TODO: demo
