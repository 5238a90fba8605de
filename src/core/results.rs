//! TODO: results
