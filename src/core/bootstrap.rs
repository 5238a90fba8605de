//! TODO: bootstrap
