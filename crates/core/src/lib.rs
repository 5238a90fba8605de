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
//! - read a plan with [`Plan::from_json`](planning::plan::Plan::from_json),
//!   or from a `#plan=` link with
//!   [`Plan::from_link_fragment`](planning::plan::Plan::from_link_fragment);
//! - plan its sends with [`Schedule::new`](planning::schedule::Schedule::new),
//!   and feed each reply to a [`Measurement`](wire::measure::Measurement) as
//!   its bytes arrive ([`on_chunk`](wire::measure::Measurement::on_chunk),
//!   which decodes with [`SseDecoder`](wire::sse::SseDecoder)); turn the
//!   outcome into a [`Sample`](wire::sample::Sample) with
//!   [`Sample::from_outcome`](wire::sample::Sample::from_outcome);
//! - judge the samples with [`build_report`](judgement::report::build_report)
//!   and put it into words with
//!   [`report_sentences`](narrative::sentences::report_sentences), in
//!   English or Chinese;
//! - write and read results with
//!   [`export_json`](documents::results::export_json),
//!   [`export_csv`](documents::results::export_csv) and
//!   [`import_json`](documents::results::import_json), and put files
//!   together with [`merge`](documents::results::merge);
//! - export the routing pick with
//!   [`litellm_yaml`](documents::routing_config::litellm_yaml),
//!   [`routing_json`](documents::routing_config::routing_json) and
//!   [`openrouter_json`](documents::routing_config::openrouter_json).
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
//! # One path per module
//!
//! Each module has one public path, its layer's:
//! `firsttoken_core::planning::plan`, `firsttoken_core::words::format`,
//! `firsttoken_core::judgement::fidelity_score`. The root re-exports no
//! module under a second name. Core names a module by that path
//! (`crate::planning::plan`), so that the architecture test sees the
//! import, and the page, the runner, the mock and the charts name it by the
//! same path.

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
