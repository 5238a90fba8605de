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
//! # Domains
//!
//! The modules stack in layers, bottom to top; a module imports from its
//! own layer and those below, never from above (`tests/architecture.rs`
//! holds the same table and checks every import against it). A submodule
//! sits in its parent's layer unless named here: [`text`]'s words sit
//! where their imports put them, and its sentences about whole reports at
//! the top.
//!
//! | Layer | Modules | What it holds |
//! |---|---|---|
//! | base | [`document`], [`failure`], [`origin`], [`price`], [`peak`], [`calendar`], [`text::lang`], [`text::printable`] | reading JSON, typed failures, origins, prices, peak hours, dates, the language |
//! | stats | [`stats`], [`quantile`], [`bootstrap`], [`dependence`], [`binomial`] | summaries, percentiles and intervals, resampling, binomial tools |
//! | words | [`text::format`], [`text::refusal`], [`text::plan_problem`], [`text::notice`], [`text::report_words`], [`text::page`], [`text::dashboard`] | numbers and typed problems in words |
//! | plan and probes | [`plan`], [`plan_flags`], [`presets`], [`context_window`], [`key_rules`], [`fidelity`] (its [`suite`](fidelity::suite), [`reply`](fidelity::reply), [`verify`](fidelity::verify)), [`schedule`], [`prompt`] | what to measure, where its keys go, the probes and when to send |
//! | wire | [`sse`], [`protocol`], [`measure`], [`stream_shape`], [`ratelimit`], [`demo`], [`sample`] | requests, streams and what one request measured |
//! | judgement | [`population`], [`verdict`], [`slow`], [`tail`], [`settings`], [`delivery`], [`cache`], [`cost`], [`timeofday`], [`compare`], [`report`], [`objective`], [`prefill`], [`fidelity::score`], [`text::verdict`], [`text::comparison`], [`text::routing`] | what the samples say, and its words |
//! | documents | [`results`], [`publish`], [`dashboard`], [`routing_config`], [`run`] | results, published files, the dashboard's data, routing exports, stored runs |
//! | text | [`text`], [`text::fidelity`] | the sentences about a whole report |

// A `pub` item outside the public face is an accident: it widens the face
// without saying so. Reaching one from outside its module is `pub(crate)`.
#![warn(unreachable_pub)]

pub mod binomial;
pub mod bootstrap;
pub mod cache;
pub mod calendar;
pub mod compare;
pub mod context_window;
pub mod cost;
pub mod dashboard;
pub mod delivery;
pub mod demo;
pub mod dependence;
pub mod document;
pub mod failure;
pub mod fidelity;
#[cfg(any(test, feature = "fixtures"))]
#[doc(hidden)]
pub mod fixtures;
pub mod key_rules;
pub mod measure;
pub mod objective;
pub mod origin;
pub mod peak;
pub mod plan;
pub mod plan_flags;
pub mod population;
pub mod prefill;
pub mod presets;
pub mod price;
pub mod prompt;
pub mod protocol;
pub mod publish;
pub mod quantile;
pub mod ratelimit;
pub mod report;
pub mod results;
pub mod routing_config;
pub mod run;
pub mod sample;
pub mod schedule;
pub mod settings;
pub mod slow;
pub mod sse;
pub mod stats;
pub mod stream_shape;
pub mod tail;
pub mod text;
pub mod timeofday;
pub mod verdict;

#[cfg(test)]
mod hostile;
#[cfg(test)]
mod metamorphic;
