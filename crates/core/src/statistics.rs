//! The statistics layer: summaries, percentiles and their intervals,
//! resampling and binomial tools, over plain numbers (it knows no sample,
//! no target and no plan).
//!
//! Start here: [`stats::summarize`] and its [`stats::Summary`] (the
//! median, the p95 and the spread of a list of timings);
//! [`quantile::Interval`] and [`bootstrap::time_aware_intervals`], the
//! intervals around them; [`binomial::wilson`] and
//! [`binomial::fisher_exact`], for shares; [`sequential::Faster`] and
//! [`sequential::Objective`], decisions that may be checked after every
//! request.

pub mod binomial;
pub mod bootstrap;
pub mod dependence;
pub mod quantile;
pub mod sequential;
pub mod stats;
