//! The narrative layer, at the top: the sentences about a whole report
//! (tail, slow share, intervals and distinctions, timeouts, goodput,
//! periods, first try and rate limits, stream, cost), the fidelity check's,
//! the prefill fit's and the idle gaps' sentences, and how a run ended for a
//! target that never answered. They read the report's types, so
//! nothing below may name them.
//!
//! Start here: [`sentences::report_sentences`], every sentence about a
//! report ([`sentences::ReportSentences`]), in English or Chinese.

pub mod ending;
pub mod fidelity;
pub mod idle;
pub mod prefill;
pub mod sentences;
