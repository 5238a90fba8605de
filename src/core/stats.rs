//! TODO: stats
