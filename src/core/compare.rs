//! TODO: compare
