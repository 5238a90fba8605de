//! TODO: schedule
