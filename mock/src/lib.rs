//! Mock provider (to be written).
