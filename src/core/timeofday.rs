//! TODO: timeofday
