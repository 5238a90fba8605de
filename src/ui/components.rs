//! Pieces more than one screen or section shows: props in, `Html` out.

pub(crate) mod charts;
pub(crate) mod live_timeline;
pub(crate) mod outline_view;
pub(crate) mod probe_grid;
pub(crate) mod verdict_badge;
