//! The narrative layer, at the top: the sentences about a whole report,
//! one module per figure they are about (the tail and slow share with the
//! timeout advice, intervals and distinctions, first try, rate limits,
//! stream and goodput, cost, prompt sizes, periods) and the one that puts
//! them together, the sentences about a run's own timing and its plan's
//! warnings, the fidelity check's, the prefill fit's and the idle gaps'
//! sentences, and how a run ended for a target that never answered. They
//! read the report's types, so nothing below may name them.
//!
//! Start here: [`sentences::report_sentences`], every sentence about a
//! report ([`sentences::ReportSentences`]), in English or Chinese.

pub mod cost;
pub mod delivery;
pub mod distinction;
pub mod ending;
pub mod fidelity;
pub mod idle;
pub mod period;
pub mod population;
pub mod prefill;
pub mod run_time;
pub mod sentences;
pub mod tail;
