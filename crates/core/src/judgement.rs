//! The judgement layer: what the samples say (populations, verdicts, slow
//! shares, cold tails, settings, delivery, caching, cost, time of day,
//! comparisons, the report, the routing objective, the prefill fit and the
//! fidelity scores), and the words of its verdicts, comparisons and routing
//! reasons.
//!
//! Start here: [`report::build_report`], which judges every target's
//! samples into a [`report::Report`]; [`verdict::Judgement`], a target's
//! verdict; [`prefill_report::prefill_report`], the prompt-size results;
//! [`fidelity_score::score`], the fidelity check's.

pub mod cache;
pub mod compare;
pub mod comparison_words;
pub mod cost;
pub mod delivery;
pub mod fidelity_score;
pub mod idle;
pub mod objective;
pub mod population;
pub mod prefill;
pub mod prefill_report;
pub mod report;
pub mod routing_words;
pub mod settings;
pub mod slow;
pub mod tail;
pub mod timeofday;
pub mod verdict;
pub mod verdict_words;
