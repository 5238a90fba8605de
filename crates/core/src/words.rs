//! The words layer: numbers and typed problems in words, in English and
//! Chinese, made once so the page and `firsttoken report` say the same
//! thing about the same file.
//!
//! - [`format`](mod@format): one way to format a duration, a share, a
//!   ratio, an interval and dollars;
//! - [`failure`]: a failed request in words (its kind, and what a request
//!   the browser refused to show may mean);
//! - [`refusal`]: why a plan, a link or a results file was refused, or runs
//!   could not be merged;
//! - [`plan_problem`]: what is wrong with a field of a plan;
//! - [`notice`]: the page's notices about files, storage and links;
//! - [`report_words`]: the frame of the results as text (headings, columns,
//!   line names);
//! - [`page`]: the page's labels;
//! - [`dashboard`]: the dashboard's labels and captions;
//! - [`glossary`]: one Chinese word per term, checked over every source.
//!
//! Start here: [`format::format_ms`], a duration in the reader's language,
//! and [`report_words::report_heading`], the frame of the results.

pub mod dashboard;
pub mod failure;
pub mod format;
pub mod glossary;
pub mod notice;
pub mod page;
pub mod plan_problem;
pub mod refusal;
pub mod report_words;
