//! TODO: presets
