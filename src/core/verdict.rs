//! TODO: verdict
