//! TODO: tail
