//! The pure heart of FirstToken: everything that computes, with bytes and
//! times passed in as arguments so it all runs and is tested natively.
//!
//! Nothing here reads a clock or touches the web: `std::time::Instant::now()`
//! panics on `wasm32-unknown-unknown`, and a clock read inside the decoder
//! would make timings depend on parsing cost.
//!
//! # Where to start
//!
//! An adapter (the page, the runner) calls a handful of entry points, each
//! with a runnable example:
//!
//! - read a plan with [`Plan::from_json`](plan::Plan::from_json), or from a
//!   `#plan=` link with [`Plan::from_link_fragment`](plan::Plan::from_link_fragment);
//! - plan its sends with [`Schedule::new`](schedule::Schedule::new), and
//!   feed each reply to a [`Measurement`](measure::Measurement) as its bytes
//!   arrive ([`on_chunk`](measure::Measurement::on_chunk), which decodes
//!   with [`SseDecoder`](sse::SseDecoder)); turn the outcome into a
//!   [`Sample`](sample::Sample) with
//!   [`Sample::from_outcome`](sample::Sample::from_outcome);
//! - judge the samples with [`build_report`](report::build_report) and put
//!   it into words with [`report_sentences`](text::report_sentences), in
//!   English or Chinese;
//! - write and read results with [`export_json`](results::export_json),
//!   [`export_csv`](results::export_csv) and
//!   [`import_json`](results::import_json), and put files together with
//!   [`merge`](results::merge);
//! - export the routing pick with [`litellm_yaml`](routing_config::litellm_yaml),
//!   [`routing_json`](routing_config::routing_json) and
//!   [`openrouter_json`](routing_config::openrouter_json).
//!
//! # Layers
//!
//! Core's folders are its layers, bottom to top; a module imports from its
//! own layer and those below, never from above, and no two modules import
//! each other round a circle (`tests/architecture.rs` reads the layers from
//! the folders and checks every import; docs/architecture.md draws them):
//!
//! 1. [`base`]: reading JSON, typed failures, origins, prices, peak hours,
//!    dates, the language;
//! 2. [`statistics`]: summaries, percentiles and intervals, resampling,
//!    binomial tools;
//! 3. [`words`]: numbers and typed problems in words;
//! 4. [`planning`]: what to measure, where its keys go, the probes and when
//!    to send;
//! 5. [`wire`]: requests, streams, what one request measured, and the run
//!    that sends them one at a time (its session and its one loop);
//! 6. [`judgement`]: what the samples say, and its words;
//! 7. [`documents`]: results, published files, the dashboard's data,
//!    routing exports, stored runs;
//! 8. [`narrative`]: the sentences about a whole report;
//! 9. [`outline`]: the report's sections as every printer lays them out;
//! 10. [`testing`]: fixtures and cross-cutting tests.
//!
//! # The other crates' face
//!
//! The layer folders are core's own layout; the page, the runner, the mock
//! and the charts name core's modules by their flat names
//! (`firsttoken_core::plan`, `firsttoken_core::text::format`), which the
//! re-exports below keep: they are the other crates' face, and moving a
//! module between layers does not change it. Inside core, code names a
//! module by its layer (`crate::planning::plan`), so that the architecture
//! test sees the import.

// A `pub` item outside the public face is an accident: it widens the face
// without saying so. Reaching one from outside its module is `pub(crate)`.
#![warn(unreachable_pub)]

pub mod base;
pub mod documents;
pub mod judgement;
pub mod narrative;
pub mod outline;
pub mod planning;
pub mod statistics;
pub mod testing;
pub mod wire;
pub mod words;

pub use base::{calendar, document, failure, order, origin, peak, price};
pub use documents::{dashboard, publish, results, routing_config, run};
pub use judgement::{
    cache, compare, cost, delivery, idle, objective, population, report, settings, slow, tail,
    timeofday, verdict,
};
pub use planning::{context_window, key_rules, plan, plan_flags, presets, prompt, schedule};
pub use statistics::{binomial, bootstrap, dependence, quantile, stats};
#[cfg(any(test, feature = "fixtures"))]
#[doc(hidden)]
pub use testing::fixtures;
pub use wire::{demo, measure, protocol, ratelimit, run_loop, sample, session, sse, stream_shape};

/// The fidelity check under its flat name: the probes, replies and
/// verifiers ([`planning::fidelity`]) with their scoring
/// ([`judgement::fidelity_score`]) as `fidelity::score`.
pub mod fidelity {
    pub use crate::judgement::fidelity_score as score;
    pub use crate::planning::fidelity::*;
}

/// The prefill fit under its flat name, with the prompt-size results that
/// judge each size ([`judgement::prefill_report`]) beside it.
pub mod prefill {
    pub use crate::judgement::prefill::*;
    pub use crate::judgement::prefill_report::{
        ModelPrefill, PrefillReport, SizeRow, TargetPrefill, prefill_report,
    };
}

/// Every word and sentence under the flat name `text`, as the page and the
/// runner name them: the language, the words layer, the words of the
/// judgement and the sentences about a whole report.
pub mod text {
    pub use crate::base::lang::{self, Lang};
    pub use crate::base::printable;
    pub use crate::judgement::{
        comparison_words as comparison, routing_words as routing, verdict_words as verdict,
    };
    pub use crate::narrative::sentences::*;
    pub use crate::narrative::{ending, fidelity, idle, prefill};
    pub use crate::words::format::{
        at_least, format_duration, format_ms, format_pct, format_ratio, format_usd, interval_ms,
        significant, trim_zeros,
    };
    pub use crate::words::{
        dashboard, failure, format, notice, page, plan_problem, refusal, report_words,
    };
}
