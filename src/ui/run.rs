//! Work that outlives a render: the run loop, the dashboard's loader and
//! the split points of the lazily loaded parts.

pub(crate) mod dashboard_loader;
pub(crate) mod driver;
pub(crate) mod lazy;
