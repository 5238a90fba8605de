//! The directory of published results a monitor keeps, and its index.
//!
//! A scheduled job (`firsttoken publish DIR RESULTS.json`, see
//! `docs/monitor.md`) adds each new results file to a directory served next
//! to the page, and rewrites `DIR/index.json`: one entry per file with its
//! vantage, time range, targets and sample count. The page opened with
//! `?results=DIR/index.json` loads every file the index lists.
//!
//! **Retention.** Nothing is ever deleted. To keep the directory small (a
//! page fetches every file it lists, and each fetch costs milliseconds), the
//! runs of a UTC day are compacted into one file per vantage and day
//! (`days/YYYY-MM-DD.VANTAGE.json`) once that day is over, and the day files
//! of a month into one file per vantage and month
//! (`months/YYYY-MM.VANTAGE.json`) once that month is over: a year of hourly
//! runs from two vantages is then about 80 files instead of 17 520. A
//! compacted file is its members merged exactly as the page's import merges
//! them ([`crate::documents::results::merge`]), so it holds every sample of every run it
//! replaces, and the index lists it instead of them. A run that arrives late
//! for a period already compacted is merged into that period's file.
//!
//! **Points files.** Beside each results file, publish writes its measured
//! requests as a points file (`firsttoken_points` version 1): the targets,
//! and per request only its target, send time and TTFT (`null` for an
//! error). A results file spends about 345 bytes of JSON on a request, a
//! points file about 30, and the browser hands a page bytes at well under
//! 100 MB/s on a small machine, so a year of hourly runs (half a million
//! requests, 200 MB of results files) could not be loaded in seconds, while
//! its points files (15 MB) can. The dashboard reads a file's points file when
//! the index names one, else the results file itself; both give the same
//! figures (tested). Results files stay the record: `firsttoken report` and the
//! page's import read them. A run that measures prompt sizes adds each sized
//! request's size and input-token count (`prompts`), so the dashboard can fit
//! the prefill rate per day; a run without sizes publishes the same bytes as
//! before.
//!
//! Everything here is pure: the caller reads and writes the files, and
//! passes the time (`now_ms`) in.

pub mod directory;

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::base::calendar::{civil_from_days, iso_date, month_of, utc_clock, utc_day};
use crate::documents::results::ResultsDoc;
use crate::planning::fidelity::suite::Suite;
use crate::planning::fidelity::verify::{ProbeReply, verify};
use crate::planning::plan::Plan;
use crate::planning::prompt::SizedPrompt;
use crate::wire::sample::{ErrorKind, Phase, Sample, TtftRank, decision_rank_of, rank_of};

/// The points document's version this build reads and writes.
pub const POINTS_VERSION: u32 = 1;

/// The index document's version this build reads and writes.
pub const INDEX_VERSION: u32 = 1;

/// Minutes between scheduled runs when the index does not say (hourly).
pub const DEFAULT_SCHEDULE_MINUTES: u32 = 60;

/// `DIR/index.json`, `firsttoken_index` version 1.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Index {
    /// Document version, [`INDEX_VERSION`].
    pub firsttoken_index: u32,
    /// Minutes between scheduled runs: the page warns that the monitor is
    /// stale when the newest sample is older than three of these.
    #[serde(default = "default_schedule_minutes")]
    pub schedule_minutes: u32,
    /// Every published file, oldest first.
    pub runs: Vec<RunEntry>,
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn default_schedule_minutes() -> u32 {
    DEFAULT_SCHEDULE_MINUTES
}

impl Default for Index {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn default() -> Self {
        Self {
            firsttoken_index: INDEX_VERSION,
            schedule_minutes: DEFAULT_SCHEDULE_MINUTES,
            runs: Vec::new(),
        }
    }
}

/// One published results file, as the index lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunEntry {
    /// Path of the file relative to the index, e.g. `runs/2026-12-03T05-00-12Z.fra1.json`.
    pub file: String,
    /// Where the runs were made (`--vantage`); empty when not given.
    pub vantage: String,
    /// Send time of the earliest sample, Unix epoch ms; `None` for a file
    /// without samples.
    pub first_sample_ms: Option<f64>,
    /// Send time of the latest sample, Unix epoch ms.
    pub last_sample_ms: Option<f64>,
    /// The targets' labels, in the file's plan order.
    pub targets: Vec<String>,
    /// Every sample in the file, warm-ups and errors included.
    pub samples: usize,
    /// How many runs the file holds: 1 for a run as published, more for a
    /// compacted day.
    pub runs: u32,
    /// The file's points file (relative to the index), which the dashboard
    /// reads instead of the results file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<String>,
}

impl RunEntry {
    /// The index entry for `doc`, published as `file` from `vantage`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn describe(file: &str, vantage: &str, doc: &ResultsDoc, runs: u32) -> Self {
        let times = doc.samples.iter().map(|s| s.sent_at_ms);
        Self {
            file: file.to_owned(),
            vantage: vantage.to_owned(),
            first_sample_ms: times.clone().reduce(f64::min),
            last_sample_ms: times.reduce(f64::max),
            targets: doc.plan.targets.iter().map(|t| t.label.clone()).collect(),
            samples: doc.samples.len(),
            runs,
            points: None,
        }
    }

    /// The UTC day (days since 1970-01-01) the file belongs to: its first
    /// sample's. A run that crosses midnight stays whole in its first day.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn day(&self) -> Option<i64> {
        self.first_sample_ms.map(utc_day)
    }
}

/// A target as a points file names it: enough to match it across files as
/// the import matches targets (protocol + base URL + model) and to label it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointsTarget {
    /// The person's name for it.
    pub label: String,
    /// Wire protocol name (`openai`, `anthropic`, `gemini`).
    pub protocol: String,
    /// Endpoint base URL.
    pub base_url: String,
    /// Model name.
    pub model: String,
}

impl PointsTarget {
    /// What makes this target the same as another: the plan's one rule
    /// ([`crate::planning::plan::TargetIdentity`]).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn identity(&self) -> crate::planning::plan::TargetIdentity<'_> {
        crate::planning::plan::TargetIdentity {
            protocol: &self.protocol,
            base_url: &self.base_url,
            model: &self.model,
        }
    }
}

/// A results file's measured requests, column by column
/// (`firsttoken_points` version 1). Warm-ups are counted and left out, as
/// the statistics leave them out; so are successes without a TTFT (none in a
/// well-formed file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointsDoc {
    /// Document version, [`POINTS_VERSION`].
    pub firsttoken_points: u32,
    /// Where the runs were made; empty when not given.
    pub vantage: String,
    /// The plan's `reasoning_counts_as_first_token`: files that differ
    /// measure different things and are not merged.
    pub reasoning_counts_as_first_token: bool,
    /// The plan's targets.
    pub targets: Vec<PointsTarget>,
    /// Warm-up requests left out.
    pub warmups: usize,
    /// Successful requests without a TTFT, left out.
    pub without_ttft: usize,
    /// Per request: index into `targets`.
    pub target: Vec<u32>,
    /// Per request: send time, Unix epoch ms.
    pub sent_at_ms: Vec<f64>,
    /// Per request: TTFT in ms, `None` (`null`) for a failed request.
    pub ttft_ms: Vec<Option<f64>>,
    /// The plan's timeout, ms, when some request timed out or failed (see
    /// `censored` and `failed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<f64>,
    /// Indices (into the per-request lists) of the requests that saw no
    /// first token within the timeout: they failed (their `ttft_ms` stays
    /// `null`, as older readers expect) and rank at `timeout_ms` as
    /// right-censored TTFTs. Missing in files written before it: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub censored: Vec<u32>,
    /// Indices (into the per-request lists) of the requests that failed
    /// before their first token for the provider's reasons (not a stop,
    /// not a prompt over the context window): their `ttft_ms` stays
    /// `null`, and a dashboard's verdict counts each at `timeout_ms`, slow,
    /// as the report's decisions do
    /// ([`crate::wire::sample::Sample::decision_rank`]). Missing in files
    /// written before it: the verdict then counts none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<u32>,
    /// The fidelity probes' outcomes, when the plan checks fidelity: not
    /// latency points, so they have their own lists. Left out otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probes: Option<Box<ProbePoints>>,
    /// The prompt sizes of the sized requests, when the plan measures
    /// prompt sizes (`prompt_sizes`), so a dashboard can show the prefill
    /// rate per day. Left out otherwise: a run without sizes publishes the
    /// same bytes as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts: Option<Box<PromptPoints>>,
    /// Per request: the idle gap it was sent after, seconds, `null` for a
    /// request sent after none, when the plan has idle gaps
    /// (`idle_gaps_s`), so a dashboard can say after how long idle each
    /// target went cold per day. Left out when no request has a gap: a run
    /// without idle gaps publishes the same bytes as before, and older
    /// files read as having none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub idle_gap_s: Vec<Option<f64>>,
    /// Per request, with `idle_gap_s`: the idle it had, seconds, as the
    /// client measured it (`null` where it did not). Left out when no
    /// request measured it; older files read with none, and their planned
    /// gaps stand for it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub idle_s: Vec<Option<f64>>,
    /// Per request, with `idle_gap_s`: whether it went on a reused
    /// connection (`true`) or opened one (`false`), `null` where the client
    /// could not tell (the page). Left out when none could.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reused_connection: Vec<Option<bool>>,
    /// Per request, with `reused_connection`: what opening its new
    /// connection took (DNS + TCP + TLS), ms; `null` for a reused one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub setup_ms: Vec<Option<f64>>,
    /// Per request, with `reused_connection`: how long the client's
    /// connection to the origin had sat idle, seconds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub connection_idle_s: Vec<Option<f64>>,
    /// Indices (into the per-request lists) of the requests the runner
    /// sent on a new connection on purpose
    /// ([`crate::wire::sample::Sample::fresh_connection`]), with
    /// `reused_connection`. Left out when none was (and in older files).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fresh_connection: Vec<u32>,
}

/// The sized requests of a published run, column by column: which request
/// each is, the size asked for and the input tokens the provider counted
/// (the prefill fit's x).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PromptPoints {
    /// Per sized request: its index into the file's per-request lists
    /// (`target`, `sent_at_ms`, `ttft_ms`), ascending.
    pub request: Vec<u32>,
    /// Per sized request: the requested size, tokens.
    pub size: Vec<u32>,
    /// Per sized request: the input tokens as the provider counted them,
    /// `null` when it did not say.
    pub input_tokens: Vec<Option<u32>>,
    /// Indices (into the per-request lists) of the cache-probe repeats:
    /// they send an earlier prompt again, so the prefill fit leaves them
    /// out. Left out when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub repeats: Vec<u32>,
    /// The size of the run's headline population
    /// ([`crate::judgement::population::Population::headline`]): the dashboard's TTFT
    /// figures count the first sends of this size alone, never a pool of
    /// sizes. Older files lack it; a reader takes their smallest size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headline: Option<u32>,
}

impl PromptPoints {
    /// The headline size: the file's own, or its smallest first-send
    /// size (an older file's, written before it said).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn headline_size(&self) -> Option<u32> {
        self.headline.or_else(|| {
            self.request
                .iter()
                .zip(&self.size)
                .filter(|(request, _)| !self.repeats.contains(request))
                .map(|(_, &size)| size)
                .min()
        })
    }
}

/// Each probe reply of a published run: who answered, when, and whether
/// the reply passed its rule (verified when the points were made).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProbePoints {
    /// Per reply: index into the file's `targets`.
    pub target: Vec<u32>,
    /// Per reply: send time, Unix epoch ms.
    pub sent_at_ms: Vec<f64>,
    /// Per reply: it passed.
    pub passed: Vec<bool>,
}

/// One sample as [`PointsDoc::build`] reads it: the members the conversion
/// to a point needs, from a results document's [`Sample`] or from the
/// dashboard's trimmed copy of one.
#[derive(Clone, Copy, Debug)]
pub struct PointSample<'a> {
    /// Index of its target in the plan.
    pub target: u32,
    /// A warm-up.
    pub warmup: bool,
    /// Send time, epoch ms.
    pub sent_at_ms: f64,
    /// Its TTFT, ms.
    pub ttft_ms: Option<f64>,
    /// Its total time, ms: a failure that lasted past the timeout ranks
    /// there.
    pub total_ms: Option<f64>,
    /// What failed, and when.
    pub error: Option<(ErrorKind, Phase)>,
    /// A fidelity probe's id and the reply the sample kept.
    pub probe: Option<(&'a str, ProbeReply<'a>)>,
    /// The prompt size it was sent at, when the plan measures sizes.
    pub sized_prompt: Option<SizedPrompt>,
    /// Input tokens as the provider counted them.
    pub input_tokens: Option<u32>,
    /// The idle gap it was sent after, seconds, when the plan has idle gaps.
    pub idle_gap_s: Option<f64>,
    /// The idle it had, seconds, as measured.
    pub idle_s: Option<f64>,
    /// Whether it went on a reused connection, when the client could tell.
    pub reused_connection: Option<bool>,
    /// What opening its new connection took, ms.
    pub setup_ms: Option<f64>,
    /// How long its connection to the origin had sat idle, seconds.
    pub connection_idle_s: Option<f64>,
    /// The runner opened its new connection on purpose.
    pub fresh_connection: bool,
}

impl<'a> From<&'a Sample> for PointSample<'a> {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn from(sample: &'a Sample) -> Self {
        Self {
            target: sample.target,
            warmup: sample.warmup,
            sent_at_ms: sample.sent_at_ms,
            ttft_ms: sample.ttft_ms,
            total_ms: sample.total_ms,
            error: sample.error.as_ref().map(|e| (e.kind, e.phase)),
            probe: sample.probe.as_deref().map(|id| (id, sample.probe_reply())),
            sized_prompt: sample.sized_prompt,
            input_tokens: sample.input_tokens,
            idle_gap_s: sample.idle_gap_s,
            idle_s: sample.idle_s,
            reused_connection: sample.reused_connection,
            setup_ms: sample
                .connection
                .filter(|_| sample.reused_connection == Some(false))
                .map(|phases| phases.setup_ms()),
            connection_idle_s: sample.connection_idle_s,
            fresh_connection: sample.fresh_connection,
        }
    }
}

impl PointsDoc {
    /// The points of a plan's samples: the one place that decides which
    /// samples a dashboard counts, which rank at the timeout (the one
    /// ranking rule, [`rank_of`]) and whether a probe's reply passed
    /// (verified again by the plan's `suite`; a probe that failed as a
    /// request, or that the suite does not know, is left out).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn build<'a>(
        vantage: &str,
        reasoning_counts_as_first_token: bool,
        targets: Vec<PointsTarget>,
        timeout_ms: f64,
        suite: Option<Suite>,
        samples: impl IntoIterator<Item = PointSample<'a>>,
    ) -> Self {
        let mut doc = Self {
            firsttoken_points: POINTS_VERSION,
            vantage: vantage.to_owned(),
            reasoning_counts_as_first_token,
            targets,
            warmups: 0,
            without_ttft: 0,
            target: Vec::new(),
            sent_at_ms: Vec::new(),
            ttft_ms: Vec::new(),
            timeout_ms: None,
            censored: Vec::new(),
            failed: Vec::new(),
            probes: None,
            prompts: None,
            idle_gap_s: Vec::new(),
            idle_s: Vec::new(),
            reused_connection: Vec::new(),
            setup_ms: Vec::new(),
            connection_idle_s: Vec::new(),
            fresh_connection: Vec::new(),
        };
        let mut idle_gap_s: Vec<Option<f64>> = Vec::new();
        let mut idle_s: Vec<Option<f64>> = Vec::new();
        let mut reused: Vec<Option<bool>> = Vec::new();
        let mut setup_ms: Vec<Option<f64>> = Vec::new();
        let mut connection_idle_s: Vec<Option<f64>> = Vec::new();
        let mut fresh: Vec<u32> = Vec::new();
        let usable = |value: Option<f64>| value.filter(|v| v.is_finite() && *v >= 0.0);
        for sample in samples {
            if let Some((id, reply)) = sample.probe {
                let Some(probe) = suite.and_then(|suite| suite.probe(id)) else {
                    continue;
                };
                if sample.error.is_some() {
                    continue;
                }
                let probes = doc.probes.get_or_insert_with(Box::default);
                probes.target.push(sample.target);
                probes.sent_at_ms.push(sample.sent_at_ms);
                probes.passed.push(verify(probe, &reply).passed);
                continue;
            }
            if sample.warmup {
                doc.warmups += 1;
                continue;
            }
            let ttft_ms = match (sample.error, sample.ttft_ms) {
                (Some(_), _) => None,
                (None, Some(ttft)) => Some(ttft),
                (None, None) => {
                    doc.without_ttft += 1;
                    continue;
                }
            };
            let rank = rank_of(
                sample.warmup,
                sample.ttft_ms,
                sample.total_ms,
                sample.error,
                timeout_ms,
            );
            if rank == TtftRank::Censored && timeout_ms.is_finite() {
                doc.censored
                    .push(u32::try_from(doc.target.len()).unwrap_or(u32::MAX));
                doc.timeout_ms = Some(timeout_ms);
            }
            let decision = decision_rank_of(
                sample.warmup,
                sample.ttft_ms,
                sample.total_ms,
                sample.error,
                timeout_ms,
            );
            if rank == TtftRank::Excluded
                && decision == TtftRank::Censored
                && timeout_ms.is_finite()
            {
                doc.failed
                    .push(u32::try_from(doc.target.len()).unwrap_or(u32::MAX));
                doc.timeout_ms = Some(timeout_ms);
            }
            if let Some(sized) = sample.sized_prompt {
                let request = u32::try_from(doc.target.len()).unwrap_or(u32::MAX);
                let prompts = doc.prompts.get_or_insert_with(Box::default);
                prompts.request.push(request);
                prompts.size.push(sized.tokens);
                prompts.input_tokens.push(sample.input_tokens);
                if sized.repeat_of.is_some() {
                    prompts.repeats.push(request);
                }
            }
            doc.target.push(sample.target);
            doc.sent_at_ms.push(sample.sent_at_ms);
            doc.ttft_ms.push(ttft_ms);
            idle_gap_s.push(usable(sample.idle_gap_s));
            idle_s.push(usable(sample.idle_s));
            reused.push(sample.reused_connection);
            setup_ms
                .push(usable(sample.setup_ms).filter(|_| sample.reused_connection == Some(false)));
            connection_idle_s.push(usable(sample.connection_idle_s));
            if sample.fresh_connection && sample.reused_connection == Some(false) {
                fresh.push(u32::try_from(doc.target.len() - 1).unwrap_or(u32::MAX));
            }
        }
        if idle_gap_s.iter().any(Option::is_some) {
            doc.idle_gap_s = idle_gap_s;
            if idle_s.iter().any(Option::is_some) {
                doc.idle_s = idle_s;
            }
            if reused.iter().any(Option::is_some) {
                doc.reused_connection = reused;
                doc.setup_ms = setup_ms;
                doc.connection_idle_s = connection_idle_s;
                doc.fresh_connection = fresh;
            }
        }
        doc
    }

    /// The points of a results document measured from `vantage`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn from_results(doc: &ResultsDoc, vantage: &str) -> Self {
        Self::build(
            vantage,
            doc.plan.reasoning_counts_as_first_token,
            points_targets(&doc.plan),
            doc.plan.timeout_s * 1000.0,
            doc.plan.fidelity.as_ref().map(|fidelity| fidelity.suite),
            doc.samples.iter().map(PointSample::from),
        )
        .with_headline(crate::judgement::population::Population::headline(&doc.plan).size())
    }

    /// The same points saying `size` is the headline prompt size (when
    /// they carry sized requests).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub(crate) fn with_headline(mut self, size: Option<u32>) -> Self {
        if let Some(prompts) = self.prompts.as_mut() {
            prompts.headline = size;
        }
        self
    }

    /// Compact JSON: this file is for machines.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn to_json(&self) -> String {
        // Strings, numbers and finite floats always serialise.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Measured requests it holds.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn len(&self) -> usize {
        self.target.len()
    }

    /// True when it holds none.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }
}

/// A plan's targets as points files name them.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn points_targets(plan: &Plan) -> Vec<PointsTarget> {
    plan.targets
        .iter()
        .map(|t| PointsTarget {
            label: t.label.clone(),
            protocol: t.protocol.as_str().to_owned(),
            base_url: t.base_url.clone(),
            model: t.model.clone(),
        })
        .collect()
}

/// Where a results file's points go: `x.json` → `x.points.json`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn points_file_name(results_file: &str) -> String {
    let stem = results_file.strip_suffix(".json").unwrap_or(results_file);
    format!("{stem}.points.json")
}

/// Why a run could not be added or an index not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PublishError {
    /// The index already lists a file of this name.
    Duplicate(String),
    /// The index file is not an index of this version.
    BadIndex(String),
}

impl fmt::Display for PublishError {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Duplicate(file) => write!(
                f,
                "{file} is already published: each run is published once (give the results file another name to publish it again)"
            ),
            Self::BadIndex(reason) => write!(f, "the index cannot be read: {reason}"),
        }
    }
}

impl std::error::Error for PublishError {}

impl Index {
    /// Reads an index document.
    ///
    /// # Errors
    /// [`PublishError::BadIndex`] when the text is not JSON, not an index or
    /// of another version.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn from_json(text: &str) -> Result<Self, PublishError> {
        let index: Self =
            serde_json::from_str(text).map_err(|e| PublishError::BadIndex(e.to_string()))?;
        if index.firsttoken_index != INDEX_VERSION {
            return Err(PublishError::BadIndex(format!(
                "firsttoken_index version {} is not supported: this build reads version {INDEX_VERSION}",
                index.firsttoken_index
            )));
        }
        Ok(index)
    }

    /// The index as indented JSON.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn to_json(&self) -> String {
        // A struct of strings and numbers always serialises.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Adds `entry`, keeping the list ordered by first sample time.
    ///
    /// # Errors
    /// [`PublishError::Duplicate`] when a file of that name is listed.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn add(&mut self, entry: RunEntry) -> Result<(), PublishError> {
        if self.runs.iter().any(|r| r.file == entry.file) {
            return Err(PublishError::Duplicate(entry.file));
        }
        self.runs.push(entry);
        self.sort();
        Ok(())
    }

    /// Lists `entry` in place of the files of `group`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn replace(&mut self, group: &CompactionGroup, entry: RunEntry) {
        self.runs.retain(|r| !group.members.contains(&r.file));
        self.runs.push(entry);
        self.sort();
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn sort(&mut self) {
        self.runs.sort_by(|a, b| {
            let at = |r: &RunEntry| r.first_sample_ms.unwrap_or(f64::NEG_INFINITY);
            at(a).total_cmp(&at(b)).then_with(|| a.file.cmp(&b.file))
        });
    }

    /// The compactions the retention rule asks for at `now_ms`: the files of
    /// each vantage and finished UTC day of the current month go into one
    /// day file, and those of each finished month into one month file. A
    /// group is returned while it still has a member other than its own
    /// compacted file (a late run, or the day files of a month that just
    /// ended). Files without samples stay as they are.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn compaction_groups(&self, now_ms: f64) -> Vec<CompactionGroup> {
        let today = utc_day(now_ms);
        let this_month = month_of(today);
        let mut groups: Vec<CompactionGroup> = Vec::new();
        for entry in &self.runs {
            let Some(day) = entry.day().filter(|d| *d < today) else {
                continue;
            };
            let (file, first_day) = if month_of(day) < this_month {
                let (y, m, _) = civil_from_days(day);
                (
                    month_file_name(y, m, &entry.vantage),
                    day - i64::from(civil_from_days(day).2) + 1,
                )
            } else {
                (day_file_name(day, &entry.vantage), day)
            };
            match groups.iter_mut().find(|g| g.file == file) {
                Some(group) => group.members.push(entry.file.clone()),
                None => groups.push(CompactionGroup {
                    vantage: entry.vantage.clone(),
                    first_day,
                    file,
                    members: vec![entry.file.clone()],
                }),
            }
        }
        // A period whose only member is its own compacted file is done.
        groups.retain(|g| g.members.iter().any(|m| *m != g.file));
        groups
    }
}

/// Files of one vantage and one finished UTC day (of the current month) or
/// one finished month, to be merged into `file`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompactionGroup {
    /// Their vantage.
    pub vantage: String,
    /// The period's first UTC day, days since 1970-01-01.
    pub first_day: i64,
    /// The compacted file's name, `days/YYYY-MM-DD.VANTAGE.json` or
    /// `months/YYYY-MM.VANTAGE.json`; it may be one of the members (a late
    /// run joins an already compacted period).
    pub file: String,
    /// The files to merge, in index order (oldest first).
    pub members: Vec<String>,
}

/// Where the compacted runs of one vantage and month go.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn month_file_name(year: i64, month: u32, vantage: &str) -> String {
    format!("months/{year:04}-{month:02}.{}.json", file_safe(vantage))
}

/// A vantage name as it may appear in a file name: ASCII letters, digits,
/// `-` and `_`, anything else as `-`; empty becomes `default`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn file_safe(vantage: &str) -> String {
    let safe: String = vantage
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if safe.is_empty() {
        "default".to_owned()
    } else {
        safe
    }
}

/// Where a single run is published: `runs/YYYY-MM-DDTHH-MM-SSZ.VANTAGE.json`
/// after the run's start (UTC), so names sort by time and never clash
/// between vantages.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn run_file_name(started_at_ms: f64, vantage: &str) -> String {
    let (day, h, m, s) = utc_clock(started_at_ms);
    format!(
        "runs/{}T{h:02}-{m:02}-{s:02}Z.{}.json",
        iso_date(day),
        file_safe(vantage)
    )
}

/// Where the compacted runs of one vantage and day go.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn day_file_name(day: i64, vantage: &str) -> String {
    format!("days/{}.{}.json", iso_date(day), file_safe(vantage))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    use crate::base::calendar::MS_PER_DAY;

    const DAY: f64 = MS_PER_DAY;

    fn entry(file: &str, vantage: &str, first_ms: f64, samples: usize) -> RunEntry {
        RunEntry {
            file: file.to_owned(),
            vantage: vantage.to_owned(),
            first_sample_ms: Some(first_ms),
            last_sample_ms: Some(first_ms + 60_000.0),
            targets: vec!["a".into()],
            samples,
            runs: 1,
            points: None,
        }
    }

    #[test]
    fn the_monitor_s_example_plan_is_a_valid_plan() {
        let text = include_str!("../../../../monitor/plan.example.json");
        let plan = crate::planning::plan::Plan::from_json(text).unwrap();
        assert!(
            plan.targets.iter().all(|t| t.provider.is_some()),
            "keys come from FIRSTTOKEN_KEY_<PROVIDER>"
        );
    }

    #[test]
    fn points_keep_every_measured_request_and_nothing_else() {
        use crate::documents::results::import_json;
        use crate::planning::plan::Target;
        use crate::testing::fixtures::{results_file, sample};
        let doc = import_json(&results_file(
            vec![
                Target::openai("A", "https://a.example/v1", "m"),
                Target::openai("B", "https://b.example/v1", "m"),
            ],
            &[
                sample(0, 0, 1000.0, Some(300.0), true),
                sample(0, 1, 2000.0, Some(310.5), false),
                sample(1, 0, 2500.25, None, false),
            ],
        ))
        .unwrap();
        let points = PointsDoc::from_results(&doc, "fra1");
        assert_eq!(points.warmups, 1);
        assert_eq!(points.target, vec![0, 1]);
        assert_eq!(points.sent_at_ms, vec![2000.0, 2500.25]);
        assert_eq!(points.ttft_ms, vec![Some(310.5), None]);
        assert_eq!(points.targets[1].protocol, "openai");
        let text = points.to_json();
        assert!(text.starts_with("{\"firsttoken_points\":1,"));
        assert!(text.contains("\"ttft_ms\":[310.5,null]"));
        assert_eq!(serde_json::from_str::<PointsDoc>(&text).unwrap(), points);
        assert_eq!(
            points_file_name("days/2026-12-01.fra1.json"),
            "days/2026-12-01.fra1.points.json"
        );
    }

    #[test]
    fn file_names() {
        // 2026-12-03T05:07:09.5Z
        let at = 1_796_274_429_500.0;
        assert_eq!(
            run_file_name(at, "fra1"),
            "runs/2026-12-03T05-07-09Z.fra1.json"
        );
        assert_eq!(
            run_file_name(at, "my office/2"),
            "runs/2026-12-03T05-07-09Z.my-office-2.json"
        );
        assert_eq!(
            run_file_name(at, ""),
            "runs/2026-12-03T05-07-09Z.default.json"
        );
        assert_eq!(
            day_file_name(utc_day(at), "sgp1"),
            "days/2026-12-03.sgp1.json"
        );
    }

    #[test]
    fn index_round_trips_and_refuses_other_versions() {
        let mut index = Index::default();
        index
            .add(entry("runs/b.json", "fra1", 2.0 * DAY, 60))
            .unwrap();
        index.add(entry("runs/a.json", "sgp1", DAY, 60)).unwrap();
        assert_eq!(index.runs[0].file, "runs/a.json", "oldest first");
        assert!(matches!(
            index.add(entry("runs/a.json", "sgp1", DAY, 60)),
            Err(PublishError::Duplicate(_))
        ));
        let text = index.to_json();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["firsttoken_index"], 1);
        assert_eq!(json["schedule_minutes"], 60);
        for field in [
            "file",
            "vantage",
            "first_sample_ms",
            "last_sample_ms",
            "targets",
            "samples",
            "runs",
        ] {
            assert!(json["runs"][0].get(field).is_some(), "{field}");
        }
        assert_eq!(Index::from_json(&text).unwrap(), index);
        let newer = text.replace("\"firsttoken_index\": 1", "\"firsttoken_index\": 2");
        assert!(
            Index::from_json(&newer)
                .unwrap_err()
                .to_string()
                .contains("version 2")
        );
        assert!(Index::from_json("{\"runs\": [").is_err());
    }

    #[test]
    fn finished_days_are_compacted_per_vantage() {
        let mut index = Index::default();
        let day0 = 20_000.0 * DAY;
        for hour in 0..3 {
            let at = day0 + f64::from(hour) * 3_600_000.0;
            for vantage in ["fra1", "sgp1"] {
                index
                    .add(entry(
                        &format!("runs/{hour}.{vantage}.json"),
                        vantage,
                        at,
                        60,
                    ))
                    .unwrap();
            }
        }
        index
            .add(entry("runs/today.fra1.json", "fra1", day0 + DAY + 5.0, 60))
            .unwrap();
        assert!(
            index.compaction_groups(day0 + DAY - 1.0).is_empty(),
            "the day is not over"
        );
        let groups = index.compaction_groups(day0 + DAY + 10.0);
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].file, "days/2024-10-04.fra1.json");
        assert_eq!(
            groups[0].members,
            vec!["runs/0.fra1.json", "runs/1.fra1.json", "runs/2.fra1.json"]
        );
        for group in &groups {
            let mut merged = entry(&group.file, &group.vantage, day0, 180);
            merged.runs = 3;
            index.replace(group, merged);
        }
        assert_eq!(index.runs.len(), 3);
        assert!(
            index.compaction_groups(day0 + DAY + 10.0).is_empty(),
            "done once"
        );
        // A late run for the compacted day joins its file.
        index
            .add(entry("runs/late.fra1.json", "fra1", day0 + 7.0, 60))
            .unwrap();
        let late = index.compaction_groups(day0 + DAY + 10.0);
        assert_eq!(late.len(), 1);
        assert_eq!(
            late[0].members,
            vec!["days/2024-10-04.fra1.json", "runs/late.fra1.json"]
        );
    }

    proptest! {
        /// The retention rule loses no sample: after compacting, the index
        /// lists exactly as many samples as before, every run of a finished
        /// day sits in a day file of its own vantage and day, and runs of
        /// the current day are untouched.
        #[test]
        fn compaction_keeps_every_sample(
            runs in prop::collection::vec((0u32..3, 0.0f64..(75.0 * DAY), 0usize..200), 0..80),
            now_day in 0u32..80,
        ) {
            let mut index = Index::default();
            for (i, (vantage, at, samples)) in runs.iter().enumerate() {
                index.add(entry(&format!("runs/{i}.json"), &format!("v{vantage}"), *at, *samples)).unwrap();
            }
            let before: usize = index.runs.iter().map(|r| r.samples).sum();
            let now_ms = f64::from(now_day) * DAY + 1.0;
            for group in index.compaction_groups(now_ms) {
                let members: Vec<RunEntry> = index.runs.iter().filter(|r| group.members.contains(&r.file)).cloned().collect();
                prop_assert!(members.iter().all(|m| m.vantage == group.vantage));
                prop_assert!(members.iter().all(|m| m.day().is_some_and(|d| d >= group.first_day && d < utc_day(now_ms))));
                let mut merged = entry(&group.file, &group.vantage, members.iter().filter_map(|m| m.first_sample_ms).fold(f64::INFINITY, f64::min), members.iter().map(|m| m.samples).sum());
                merged.runs = members.iter().map(|m| m.runs).sum();
                index.replace(&group, merged);
            }
            let after: usize = index.runs.iter().map(|r| r.samples).sum();
            prop_assert_eq!(before, after);
            let today = utc_day(now_ms);
            for run in &index.runs {
                let day = run.day().unwrap_or(today);
                let expected = if day >= today {
                    "runs/"
                } else if month_of(day) < month_of(today) {
                    "months/"
                } else {
                    "days/"
                };
                prop_assert!(run.file.starts_with(expected), "{:?} at day {}", run, today);
            }
            prop_assert!(index.compaction_groups(now_ms).is_empty());
        }
    }
}
