//! TODO: protocol
