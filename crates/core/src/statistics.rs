//! The statistics layer: summaries, percentiles and their intervals,
//! resampling and binomial tools, over plain numbers (it knows no sample,
//! no target and no plan).

pub mod binomial;
pub mod bootstrap;
pub mod dependence;
pub mod quantile;
pub mod stats;
