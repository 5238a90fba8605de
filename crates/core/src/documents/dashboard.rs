//! The dashboard's data: published results files (and indexes of them)
//! read into one compact, time-ordered table of measured requests.
//!
//! A year of hourly monitor runs is about half a million samples in a few
//! hundred files. Reading each file into full [`crate::wire::sample::Sample`]s and
//! merging them with [`crate::documents::results::merge`] would copy every field of
//! every sample twice; the dashboard needs only who (target, vantage), when
//! (`sent_at_ms`) and what (TTFT or an error). So a file is read straight
//! into those, with serde skipping the other fields, and the files are
//! merged the way the page's import merges them: targets matched by
//! protocol + base URL + model (identical targets within one plan matched in
//! order), and files that disagree on whether reasoning counts as the first
//! token refused. Warm-ups are counted and left out, as the statistics leave
//! them out. Every other sample is kept: no thinning.
//!
//! The vantage of a file is its `environment.vantage` (written by the native
//! runner's `--vantage`), else the one its index entry names, else empty.
//!
//! [`figures`] computes what the dashboard's views show from this table.

pub mod figures;

use serde::Deserialize;
use serde::de::IgnoredAny;
use std::fmt;

use crate::base::lang::Lang;
use crate::base::order::sort_by_first;
use crate::documents::publish::{
    INDEX_VERSION, Index, POINTS_VERSION, PointSample, PointsDoc, PointsTarget, ProbePoints,
    PromptPoints, RunEntry,
};
use crate::documents::results::{RESULTS_VERSION, vantage_name};
use crate::judgement::idle::IdleConnection;
use crate::planning::fidelity::reply::ToolCall;
use crate::planning::fidelity::verify::ProbeReply;
use crate::planning::plan::FidelityPlan;
use crate::planning::prompt::SizedPrompt;
use crate::wire::sample::{ErrorKind, Phase};

/// One measured request: everything a dashboard view needs of a sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// When it was sent, Unix epoch ms.
    pub at_ms: f64,
    /// Time to first token, ms; `None` for a failed request, the plan's
    /// timeout for a censored one.
    pub ttft_ms: Option<f64>,
    /// No first token within the timeout: a failed request that ranks at
    /// the timeout (right-censored).
    pub censored: bool,
    /// Failed before its first token for the provider's reasons: no TTFT
    /// to show, but the verdict counts it at this timeout, ms, slow, as the
    /// report's decisions do (`f32`: a timeout in ms is a whole number,
    /// and half a million points are held at once).
    pub failed_at_ms: Option<f32>,
    /// Index into [`Dataset::targets`].
    pub target: u32,
    /// Index into [`Dataset::vantages`].
    pub vantage: u32,
}

/// A target as the dashboard names and matches it.
pub(crate) type DashTarget = PointsTarget;

/// What a fetched file turned out to be.
#[derive(Debug)]
// Only on 64-bit targets: with wasm32's 4-byte usize the variants are
// close enough that the lint does not fire.
#[cfg_attr(
    not(target_arch = "wasm32"),
    expect(
        clippy::large_enum_variant,
        reason = "one value per fetched file, matched at once: a box would add an allocation \
                  and change every reader for a few hundred bytes held briefly"
    )
)]
pub enum Published {
    /// A results file or a points file: measured requests.
    Points(PointsDoc),
    /// An index of results files.
    Index(Index),
}

/// A results file as the dashboard reads it: only what it shows.
#[derive(Debug, Deserialize)]
struct PublishedRun {
    plan: RunPlan,
    environment: RunEnvironment,
    samples: Vec<RunSample>,
}

impl PublishedRun {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn into_points(self) -> PointsDoc {
        let headline = self.plan.prompt_sizes.as_ref().map(|sizes| {
            crate::judgement::population::Population::among(sizes, self.plan.typical_prompt_tokens)
        });
        let headline = headline.and_then(crate::judgement::population::Population::size);
        PointsDoc::build(
            self.environment.vantage.as_deref().unwrap_or_default(),
            self.plan.reasoning_counts_as_first_token,
            self.plan.targets,
            self.plan.timeout_s * 1000.0,
            self.plan.fidelity.as_ref().map(|fidelity| fidelity.suite),
            self.samples.iter().map(|s| PointSample {
                target: s.target,
                warmup: s.warmup,
                sent_at_ms: s.sent_at_ms,
                ttft_ms: s.ttft_ms,
                total_ms: s.total_ms,
                error: s.error.as_ref().map(|e| (e.kind, e.phase)),
                probe: s.probe.as_deref().map(|id| {
                    let reply = ProbeReply::kept(
                        s.answer.as_deref(),
                        s.tool_calls.as_deref(),
                        s.finish_reason.as_deref(),
                        s.output_tokens,
                        s.tokens_estimated,
                    );
                    (id, reply)
                }),
                sized_prompt: s.sized_prompt,
                input_tokens: s.input_tokens,
                idle_gap_s: s.idle_gap_s,
                idle_s: s.idle_s,
                reused_connection: s.reused_connection,
                setup_ms: s
                    .connection
                    .filter(|_| s.reused_connection == Some(false))
                    .map(|phases| phases.setup_ms()),
                connection_idle_s: s.connection_idle_s,
                fresh_connection: s.fresh_connection,
            }),
        )
        .with_headline(headline)
    }
}

#[derive(Debug, Deserialize)]
struct RunPlan {
    targets: Vec<PointsTarget>,
    #[serde(default)]
    reasoning_counts_as_first_token: bool,
    /// Where timeouts rank; a file without it ranks none.
    #[serde(default = "no_timeout")]
    timeout_s: f64,
    /// The fidelity check, whose suite verifies the probe replies.
    #[serde(default)]
    fidelity: Option<FidelityPlan>,
    /// The sizes and the typical size, which pick the headline size.
    #[serde(default)]
    prompt_sizes: Option<Vec<u32>>,
    #[serde(default)]
    typical_prompt_tokens: Option<u32>,
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn no_timeout() -> f64 {
    f64::INFINITY
}

#[derive(Debug, Deserialize)]
struct RunEnvironment {
    #[serde(default)]
    vantage: Option<String>,
}

#[derive(Debug, Deserialize)]
struct RunSample {
    target: u32,
    warmup: bool,
    sent_at_ms: f64,
    ttft_ms: Option<f64>,
    #[serde(default)]
    total_ms: Option<f64>,
    error: Option<RunError>,
    /// A fidelity probe's id: not a latency point.
    #[serde(default)]
    probe: Option<String>,
    #[serde(default)]
    answer: Option<String>,
    #[serde(default)]
    tool_calls: Option<Vec<ToolCall>>,
    #[serde(default)]
    finish_reason: Option<String>,
    #[serde(default)]
    output_tokens: Option<u32>,
    #[serde(default)]
    tokens_estimated: bool,
    /// The prompt size it was sent at, when the plan measures sizes.
    #[serde(default)]
    sized_prompt: Option<SizedPrompt>,
    #[serde(default)]
    input_tokens: Option<u32>,
    /// The idle gap it was sent after, when the plan has idle gaps.
    #[serde(default)]
    idle_gap_s: Option<f64>,
    /// The idle it had, as measured.
    #[serde(default)]
    idle_s: Option<f64>,
    /// Whether it went on a reused connection.
    #[serde(default)]
    reused_connection: Option<bool>,
    /// Its new connection's phases.
    #[serde(default)]
    connection: Option<crate::wire::sample::ConnectionPhases>,
    /// How long its connection to the origin had sat idle.
    #[serde(default)]
    connection_idle_s: Option<f64>,
    /// The runner opened its new connection on purpose.
    #[serde(default)]
    fresh_connection: bool,
}

/// What the dashboard reads of a sample's error: enough to rank it.
#[derive(Debug, Deserialize)]
struct RunError {
    kind: ErrorKind,
    phase: Phase,
}

/// Every member either kind of file has, so one pass reads either.
#[derive(Deserialize)]
struct AnyDoc {
    firsttoken_results: Option<serde_json::Value>,
    firsttoken_index: Option<serde_json::Value>,
    firsttoken_points: Option<serde_json::Value>,
    firsttoken_plan: Option<IgnoredAny>,
    plan: Option<RunPlan>,
    environment: Option<RunEnvironment>,
    samples: Option<Vec<RunSample>>,
    schedule_minutes: Option<u32>,
    runs: Option<Vec<RunEntry>>,
    vantage: Option<String>,
    reasoning_counts_as_first_token: Option<bool>,
    targets: Option<Vec<PointsTarget>>,
    warmups: Option<usize>,
    without_ttft: Option<usize>,
    timeout_ms: Option<f64>,
    censored: Option<Vec<u32>>,
    #[serde(default)]
    failed: Option<Vec<u32>>,
    #[serde(default)]
    probes: Option<Box<ProbePoints>>,
    #[serde(default)]
    prompts: Option<Box<PromptPoints>>,
    #[serde(default)]
    idle_gap_s: Option<Vec<Option<f64>>>,
    #[serde(default)]
    idle_s: Option<Vec<Option<f64>>>,
    #[serde(default)]
    reused_connection: Option<Vec<Option<bool>>>,
    #[serde(default)]
    setup_ms: Option<Vec<Option<f64>>>,
    #[serde(default)]
    connection_idle_s: Option<Vec<Option<f64>>>,
    #[serde(default)]
    fresh_connection: Option<Vec<u32>>,
    target: Option<Vec<u32>>,
    sent_at_ms: Option<Vec<f64>>,
    ttft_ms: Option<Vec<Option<f64>>>,
}

/// Only the members that say which kind of document a file is.
#[derive(Deserialize)]
struct Kind {
    firsttoken_results: Option<serde_json::Value>,
    firsttoken_index: Option<serde_json::Value>,
    firsttoken_points: Option<serde_json::Value>,
    firsttoken_plan: Option<IgnoredAny>,
}

/// Why a file could not be used.
#[derive(Clone, Debug, PartialEq)]
pub enum LoadError {
    /// Larger than [`MAX_PUBLISHED_BYTES`]: refused before parsing.
    TooLarge {
        /// The file's size, bytes.
        bytes: usize,
    },
    /// The text stops in the middle of the document: a file still being
    /// written or uploaded, or a cut-off transfer.
    Truncated,
    /// Not JSON (an HTML error page, say).
    NotJson(String),
    /// JSON, but neither a results file nor an index.
    WrongKind(&'static str),
    /// A results file or index of a version this page cannot read.
    UnsupportedVersion(String),
    /// The right kind and version, but a member is missing or malformed.
    Shape(String),
    /// A sample names a target the plan does not have, or holds a
    /// non-finite or negative time.
    BadSample(String),
    /// The file measured something else than the files before it.
    CannotMerge(&'static str),
}

impl fmt::Display for LoadError {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge { bytes } => write!(
                f,
                "the file is {} MiB; published files of up to {} MiB are read: publish with compaction (firsttoken publish), which keeps each file far smaller",
                bytes.div_ceil(1024 * 1024),
                MAX_PUBLISHED_BYTES / (1024 * 1024)
            ),
            Self::Truncated => write!(
                f,
                "the file ends in the middle of the document: it was cut off while being written or uploaded; the next publish rewrites it"
            ),
            Self::NotJson(reason) => write!(f, "the file is not JSON ({reason})"),
            Self::WrongKind(what) => {
                write!(f, "this is not a firsttoken results file or index: {what}")
            }
            Self::UnsupportedVersion(what) => write!(f, "{what} is not supported by this page"),
            Self::Shape(reason) => write!(f, "the file does not match its version: {reason}"),
            Self::BadSample(reason) => write!(f, "{reason}"),
            Self::CannotMerge(field) => write!(
                f,
                "cannot merge: the plans differ in {field}, so their ttft_ms measure different things"
            ),
        }
    }
}

impl std::error::Error for LoadError {}

#[cfg_attr(target_arch = "wasm32", inline)]
fn json_error(error: &serde_json::Error) -> LoadError {
    match error.classify() {
        serde_json::error::Category::Eof => LoadError::Truncated,
        serde_json::error::Category::Syntax => LoadError::NotJson(error.to_string()),
        _ => LoadError::Shape(error.to_string()),
    }
}

/// The largest published file (results, index or points) the dashboard
/// reads, in bytes: 128 MiB, several times a year of hourly runs as one
/// points file. A larger file is refused before it is parsed.
pub const MAX_PUBLISHED_BYTES: usize = 128 * 1024 * 1024;

/// Which kind of published document a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DocKind {
    Results,
    Index,
    Points,
}

/// The version members' verdict: which kind of file, or why none.
#[cfg_attr(target_arch = "wasm32", inline)]
fn kind_of(
    results: Option<&serde_json::Value>,
    index: Option<&serde_json::Value>,
    points: Option<&serde_json::Value>,
    plan: bool,
) -> Result<DocKind, LoadError> {
    let check = |version: &serde_json::Value, name: &str, supported: u32, kind: DocKind| {
        if version.as_u64() == Some(u64::from(supported)) {
            Ok(kind)
        } else {
            Err(LoadError::UnsupportedVersion(format!(
                "{name} version {version}"
            )))
        }
    };
    match (results, index, points) {
        (Some(v), _, _) => check(v, "firsttoken_results", RESULTS_VERSION, DocKind::Results),
        (None, Some(v), _) => check(v, "firsttoken_index", INDEX_VERSION, DocKind::Index),
        (None, None, Some(v)) => check(v, "firsttoken_points", POINTS_VERSION, DocKind::Points),
        (None, None, None) if plan => Err(LoadError::WrongKind(
            "it is a plan (open it with Load plan on the Setup screen, or run it with firsttoken run)",
        )),
        (None, None, None) => Err(LoadError::WrongKind(
            "it has no firsttoken_results or firsttoken_index member",
        )),
    }
}

/// Reads a fetched file: a results file or an index.
///
/// One pass reads either kind. Only when that fails on a member's shape is
/// the file read again for its version members alone, so that a newer
/// version or a plan file is named as such rather than as a bad member.
///
/// # Errors
/// [`LoadError`] saying whether the file is cut off, not JSON, of another
/// kind or version, malformed, or holds an impossible sample.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn read_published(bytes: &[u8]) -> Result<Published, LoadError> {
    if bytes.len() > MAX_PUBLISHED_BYTES {
        return Err(LoadError::TooLarge { bytes: bytes.len() });
    }
    // Read as text: the page's other documents are parsed from `&str`, and
    // one reader type means one copy of serde_json's parser in the page.
    let text = std::str::from_utf8(bytes)
        .map_err(|e| LoadError::NotJson(format!("not UTF-8 text: {e}")))?;
    let doc: AnyDoc = match serde_json::from_str(text) {
        Ok(doc) => doc,
        Err(error) if error.classify() == serde_json::error::Category::Data => {
            return Err(match serde_json::from_str::<Kind>(text) {
                Ok(kind) => match kind_of(
                    kind.firsttoken_results.as_ref(),
                    kind.firsttoken_index.as_ref(),
                    kind.firsttoken_points.as_ref(),
                    kind.firsttoken_plan.is_some(),
                ) {
                    Ok(_) => LoadError::Shape(error.to_string()),
                    Err(refused) => refused,
                },
                Err(_) => LoadError::WrongKind("it is not a JSON object"),
            });
        }
        Err(error) => return Err(json_error(&error)),
    };
    let missing = |member: &str| LoadError::Shape(format!("missing field `{member}`"));
    let kind = kind_of(
        doc.firsttoken_results.as_ref(),
        doc.firsttoken_index.as_ref(),
        doc.firsttoken_points.as_ref(),
        doc.firsttoken_plan.is_some(),
    )?;
    match kind {
        DocKind::Results => {
            let run = PublishedRun {
                plan: doc.plan.ok_or_else(|| missing("plan"))?,
                environment: doc.environment.ok_or_else(|| missing("environment"))?,
                samples: doc.samples.ok_or_else(|| missing("samples"))?,
            };
            validate_run(&run)?;
            Ok(Published::Points(run.into_points()))
        }
        DocKind::Index => Ok(Published::Index(Index {
            firsttoken_index: INDEX_VERSION,
            schedule_minutes: doc
                .schedule_minutes
                .unwrap_or(crate::documents::publish::DEFAULT_SCHEDULE_MINUTES),
            runs: doc.runs.ok_or_else(|| missing("runs"))?,
        })),
        DocKind::Points => {
            let points = PointsDoc {
                firsttoken_points: POINTS_VERSION,
                vantage: doc.vantage.unwrap_or_default(),
                reasoning_counts_as_first_token: doc
                    .reasoning_counts_as_first_token
                    .ok_or_else(|| missing("reasoning_counts_as_first_token"))?,
                targets: doc.targets.ok_or_else(|| missing("targets"))?,
                warmups: doc.warmups.unwrap_or(0),
                without_ttft: doc.without_ttft.unwrap_or(0),
                target: doc.target.ok_or_else(|| missing("target"))?,
                sent_at_ms: doc.sent_at_ms.ok_or_else(|| missing("sent_at_ms"))?,
                ttft_ms: doc.ttft_ms.ok_or_else(|| missing("ttft_ms"))?,
                timeout_ms: doc.timeout_ms,
                censored: doc.censored.unwrap_or_default(),
                failed: doc.failed.unwrap_or_default(),
                probes: doc.probes,
                prompts: doc.prompts,
                idle_gap_s: doc.idle_gap_s.unwrap_or_default(),
                idle_s: doc.idle_s.unwrap_or_default(),
                reused_connection: doc.reused_connection.unwrap_or_default(),
                setup_ms: doc.setup_ms.unwrap_or_default(),
                connection_idle_s: doc.connection_idle_s.unwrap_or_default(),
                fresh_connection: doc.fresh_connection.unwrap_or_default(),
            };
            validate_points(&points)?;
            Ok(Published::Points(points))
        }
    }
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn validate_points(points: &PointsDoc) -> Result<(), LoadError> {
    if let Some(probes) = &points.probes {
        let n = probes.target.len();
        if probes.sent_at_ms.len() != n || probes.passed.len() != n {
            return Err(LoadError::Shape(format!(
                "probes.target, probes.sent_at_ms and probes.passed must be as long as each \
                 other ({n}, {}, {})",
                probes.sent_at_ms.len(),
                probes.passed.len()
            )));
        }
        let targets = points.targets.len();
        if let Some(index) = probes.target.iter().position(|&t| t as usize >= targets) {
            return Err(LoadError::BadSample(format!(
                "probes.target[{index}] is {} but the file has only {targets} targets",
                probes.target[index]
            )));
        }
        if let Some(index) = probes.sent_at_ms.iter().position(|ms| !ms.is_finite()) {
            return Err(LoadError::BadSample(format!(
                "probes.sent_at_ms[{index}] is not a finite time"
            )));
        }
    }
    let n = points.target.len();
    if let Some(prompts) = &points.prompts {
        let sized = prompts.request.len();
        if prompts.size.len() != sized || prompts.input_tokens.len() != sized {
            return Err(LoadError::Shape(format!(
                "prompts.request, prompts.size and prompts.input_tokens must be as long as each \
                 other ({sized}, {}, {})",
                prompts.size.len(),
                prompts.input_tokens.len()
            )));
        }
        if let Some(&index) = prompts
            .request
            .iter()
            .chain(&prompts.repeats)
            .find(|&&i| i as usize >= n)
        {
            return Err(LoadError::BadSample(format!(
                "prompts name request {index} but the file has only {n}"
            )));
        }
    }
    if !points.idle_gap_s.is_empty() && points.idle_gap_s.len() != n {
        return Err(LoadError::Shape(format!(
            "idle_gap_s, when given, must be as long as target ({n}, {})",
            points.idle_gap_s.len()
        )));
    }
    for (name, values) in [
        ("idle_gap_s", &points.idle_gap_s),
        ("idle_s", &points.idle_s),
        ("setup_ms", &points.setup_ms),
        ("connection_idle_s", &points.connection_idle_s),
    ] {
        if !values.is_empty() && values.len() != n {
            return Err(LoadError::Shape(format!(
                "{name}, when given, must be as long as target ({n}, {})",
                values.len()
            )));
        }
        if let Some(index) = values
            .iter()
            .position(|value| value.is_some_and(|v| !v.is_finite() || v < 0.0))
        {
            return Err(LoadError::BadSample(format!(
                "{name}[{index}] is negative or not finite"
            )));
        }
    }
    if !points.reused_connection.is_empty() && points.reused_connection.len() != n {
        return Err(LoadError::Shape(format!(
            "reused_connection, when given, must be as long as target ({n}, {})",
            points.reused_connection.len()
        )));
    }
    if points.sent_at_ms.len() != n || points.ttft_ms.len() != n {
        return Err(LoadError::Shape(format!(
            "target, sent_at_ms and ttft_ms must be as long as each other ({n}, {}, {})",
            points.sent_at_ms.len(),
            points.ttft_ms.len()
        )));
    }
    for (name, list) in [
        ("censored", &points.censored),
        ("failed", &points.failed),
        ("fresh_connection", &points.fresh_connection),
    ] {
        if let Some(index) = list.iter().find(|&&index| index as usize >= n) {
            return Err(LoadError::BadSample(format!(
                "{name} names request {index} but the file has only {n}"
            )));
        }
    }
    let has_timeout = points
        .timeout_ms
        .is_some_and(|ms| ms.is_finite() && ms > 0.0);
    for (name, list) in [("censored", &points.censored), ("failed", &points.failed)] {
        if !list.is_empty() && !has_timeout {
            return Err(LoadError::BadSample(format!(
                "{name} requests need a positive, finite timeout_ms"
            )));
        }
    }
    let targets = points.targets.len();
    for index in 0..n {
        if points.target[index] as usize >= targets {
            return Err(LoadError::BadSample(format!(
                "target[{index}] is {} but the file has only {targets} targets",
                points.target[index]
            )));
        }
        for (field, value) in [
            ("sent_at_ms", Some(points.sent_at_ms[index])),
            ("ttft_ms", points.ttft_ms[index]),
        ] {
            if let Some(value) = value.filter(|v| !v.is_finite() || *v < 0.0) {
                return Err(LoadError::BadSample(format!(
                    "{field}[{index}] is negative or not finite ({value})"
                )));
            }
        }
    }
    Ok(())
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn validate_run(run: &PublishedRun) -> Result<(), LoadError> {
    let targets = run.plan.targets.len();
    for (index, sample) in run.samples.iter().enumerate() {
        if sample.target as usize >= targets {
            return Err(LoadError::BadSample(format!(
                "samples[{index}].target is {} but the plan has only {targets} targets",
                sample.target
            )));
        }
        for (field, value) in [
            ("sent_at_ms", Some(sample.sent_at_ms)),
            ("ttft_ms", sample.ttft_ms),
        ] {
            if let Some(value) = value.filter(|v| !v.is_finite() || *v < 0.0) {
                return Err(LoadError::BadSample(format!(
                    "samples[{index}].{field} is negative or not finite ({value})"
                )));
            }
        }
    }
    Ok(())
}

/// Every loaded file's measured requests, merged.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    /// Targets in order of first appearance, matched across files.
    pub targets: Vec<DashTarget>,
    /// Vantage names in order of first appearance (`""` when a file names none).
    pub vantages: Vec<String>,
    /// Measured requests (no warm-ups), ordered by send time once
    /// [`Dataset::finish`] ran.
    pub points: Vec<Point>,
    /// Warm-up requests seen and left out.
    pub warmups: usize,
    /// Successful requests without a TTFT (none in a well-formed file), left
    /// out as the statistics leave them out.
    pub without_ttft: usize,
    /// Fidelity probe replies, when the monitor's plan checks fidelity.
    pub probes: Vec<ProbePoint>,
    /// The sized requests (also in [`Dataset::points`]), when the
    /// monitor's plan measures prompt sizes; ordered by send time once
    /// [`Dataset::finish`] ran.
    pub prompts: Vec<PromptPoint>,
    /// The requests of [`Dataset::points`] sent after an idle gap, when
    /// the monitor's plan has idle gaps (`idle_gaps_s`); empty otherwise.
    pub idle: Vec<IdlePoint>,
    reasoning_counts: Option<bool>,
}

/// One request sent after an idle gap: what the idle figures need of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IdlePoint {
    /// When it was sent, Unix epoch ms.
    pub at_ms: f64,
    /// Index into [`Dataset::targets`].
    pub target: u32,
    /// The idle gap it was sent after, seconds.
    pub gap_s: f64,
    /// The idle it had, seconds, as measured; `None` in older files.
    pub idle_s: Option<f64>,
    /// Time to first token, ms; the plan's timeout for a censored one and
    /// for a failure before the first token (the decisions' rule);
    /// `None` for any other failure.
    pub ttft_ms: Option<f64>,
    /// No first token within the timeout, or a failure before it.
    pub censored: bool,
    /// A failure before the first token.
    pub failed: bool,
    /// How it was connected, when its client said.
    pub connection: Option<IdleConnection>,
}

/// One request sent at a prompt size: what the prefill fit needs of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PromptPoint {
    /// When it was sent, Unix epoch ms.
    pub at_ms: f64,
    /// Index into [`Dataset::targets`].
    pub target: u32,
    /// Index into [`Dataset::vantages`].
    pub vantage: u32,
    /// Time to first token, ms; `None` for a failed request (timeouts
    /// included: a censored TTFT is no point on the prefill line).
    pub ttft_ms: Option<f64>,
    /// The requested size, tokens.
    pub size: u32,
    /// Input tokens as the provider counted them.
    pub input_tokens: Option<u32>,
    /// A cache-probe repeat of an earlier prompt.
    pub repeat: bool,
}

/// One fidelity probe reply: when, who, and whether it passed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbePoint {
    /// When it was sent, Unix epoch ms.
    pub at_ms: f64,
    /// Index into [`Dataset::targets`].
    pub target: u32,
    /// It passed its rule.
    pub passed: bool,
}

impl Dataset {
    /// Adds the requests of `points`, made from `vantage` unless the file
    /// says where itself. Returns how many requests were added.
    ///
    /// # Errors
    /// [`LoadError::CannotMerge`] when the file disagrees with the earlier
    /// ones on whether reasoning counts as the first token; nothing is added.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn add(&mut self, points: &PointsDoc, vantage: &str) -> Result<usize, LoadError> {
        let counts = points.reasoning_counts_as_first_token;
        if *self.reasoning_counts.get_or_insert(counts) != counts {
            return Err(LoadError::CannotMerge("reasoning_counts_as_first_token"));
        }
        let vantage = if points.vantage.is_empty() {
            vantage
        } else {
            points.vantage.as_str()
        };
        let vantage_index = match self.vantages.iter().position(|v| v == vantage) {
            Some(index) => index,
            None => {
                self.vantages.push(vantage.to_owned());
                self.vantages.len() - 1
            }
        };
        let vantage_index = u32::try_from(vantage_index).unwrap_or(u32::MAX);
        // As results::merge: each target of the file claims the first
        // unclaimed target of the same identity, or is appended.
        let mut claimed = vec![false; self.targets.len()];
        let mut remap = Vec::with_capacity(points.targets.len());
        for target in &points.targets {
            let found = self
                .targets
                .iter()
                .enumerate()
                .position(|(i, t)| !claimed[i] && t.identity() == target.identity());
            let index = found.unwrap_or_else(|| {
                self.targets.push(target.clone());
                claimed.push(false);
                self.targets.len() - 1
            });
            claimed[index] = true;
            remap.push(u32::try_from(index).unwrap_or(u32::MAX));
        }
        self.warmups += points.warmups;
        self.without_ttft += points.without_ttft;
        if let Some(probes) = &points.probes {
            for ((&target, &at_ms), &passed) in probes
                .target
                .iter()
                .zip(&probes.sent_at_ms)
                .zip(&probes.passed)
            {
                self.probes.push(ProbePoint {
                    at_ms,
                    target: remap.get(target as usize).copied().unwrap_or(0),
                    passed,
                });
            }
        }
        if let Some(prompts) = &points.prompts {
            let mut repeats = prompts.repeats.clone();
            repeats.sort_unstable();
            for ((&request, &size), &input_tokens) in prompts
                .request
                .iter()
                .zip(&prompts.size)
                .zip(&prompts.input_tokens)
            {
                let index = request as usize;
                // A validated file's requests index its lists.
                let (Some(&target), Some(&at_ms), Some(&ttft_ms)) = (
                    points.target.get(index),
                    points.sent_at_ms.get(index),
                    points.ttft_ms.get(index),
                ) else {
                    continue;
                };
                self.prompts.push(PromptPoint {
                    at_ms,
                    target: remap.get(target as usize).copied().unwrap_or(0),
                    vantage: vantage_index,
                    ttft_ms,
                    size,
                    input_tokens,
                    repeat: repeats.binary_search(&request).is_ok(),
                });
            }
        }
        // One population per figure: the TTFT figures count the first
        // sends of the file's headline size alone (other sizes and cache
        // repeats stay in `prompts`, for the prefill figures).
        let mut elsewhere: Vec<u32> = Vec::new();
        if let Some(prompts) = &points.prompts {
            let headline = prompts.headline_size();
            for (&request, &size) in prompts.request.iter().zip(&prompts.size) {
                if Some(size) != headline || prompts.repeats.contains(&request) {
                    elsewhere.push(request);
                }
            }
            elsewhere.sort_unstable();
        }
        self.points.reserve(points.len());
        let mut censored = points.censored.clone();
        censored.sort_unstable();
        let mut failed = points.failed.clone();
        failed.sort_unstable();
        let mut fresh = points.fresh_connection.clone();
        fresh.sort_unstable();
        for (index, ((&target, &at_ms), &ttft_ms)) in points
            .target
            .iter()
            .zip(&points.sent_at_ms)
            .zip(&points.ttft_ms)
            .enumerate()
        {
            let request = u32::try_from(index).unwrap_or(u32::MAX);
            if elsewhere.binary_search(&request).is_ok() {
                continue;
            }
            let is_censored = censored.binary_search(&request).is_ok();
            let target = remap.get(target as usize).copied().unwrap_or(0);
            let ttft_ms = if is_censored {
                points.timeout_ms
            } else {
                ttft_ms
            };
            let failed_at_ms = points
                .timeout_ms
                .filter(|_| failed.binary_search(&request).is_ok())
                .map(|ms| ms as f32);
            if let Some(&Some(gap_s)) = points.idle_gap_s.get(index) {
                let reused = points.reused_connection.get(index).copied().flatten();
                self.idle.push(IdlePoint {
                    at_ms,
                    target,
                    gap_s,
                    idle_s: points.idle_s.get(index).copied().flatten(),
                    ttft_ms: ttft_ms.or(failed_at_ms.map(f64::from)),
                    censored: is_censored || failed_at_ms.is_some(),
                    failed: failed_at_ms.is_some(),
                    connection: reused.map(|reused| IdleConnection {
                        reused,
                        setup_ms: points.setup_ms.get(index).copied().flatten(),
                        idle_s: points.connection_idle_s.get(index).copied().flatten(),
                        fresh: !reused && fresh.binary_search(&request).is_ok(),
                    }),
                });
            }
            self.points.push(Point {
                at_ms,
                ttft_ms,
                censored: is_censored,
                failed_at_ms,
                // A validated file's targets index its plan.
                target,
                vantage: vantage_index,
            });
        }
        Ok(points.len())
    }

    /// Orders the requests by send time (stable, so equal times keep file
    /// order). Files mostly arrive in time order, which the sort exploits.
    ///
    /// The sort is of (time, position) pairs, through the page's one sort
    /// of pairs ([`sort_by_first`]), and the points follow it: a sort of
    /// the points themselves is another copy of the sort in the page.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn finish(&mut self) {
        self.points = in_time_order(std::mem::take(&mut self.points), |point| point.at_ms);
        self.prompts = in_time_order(std::mem::take(&mut self.prompts), |prompt| prompt.at_ms);
    }

    /// Send time of the oldest and newest request.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn time_range(&self) -> Option<(f64, f64)> {
        Some((self.points.first()?.at_ms, self.points.last()?.at_ms))
    }

    /// The requests sent at or after `from_ms` (the points are ordered).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn since(&self, from_ms: f64) -> &[Point] {
        let start = self.points.partition_point(|p| p.at_ms < from_ms);
        &self.points[start..]
    }

    /// A target's label, with the vantage when the data has several
    /// ("DeepSeek V3 · fra1"), named in `lang` when the files named none.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn label(&self, lang: Lang, target: u32, vantage: Option<u32>) -> String {
        let label = self
            .targets
            .get(target as usize)
            .map(|t| t.label.as_str())
            .unwrap_or_default();
        match vantage.and_then(|v| self.vantages.get(v as usize)) {
            Some(name) => format!("{label} · {}", vantage_name(lang, name)),
            None => label.to_owned(),
        }
    }
}

/// `items` ordered by `at` (stable: equal times keep their order), through
/// the page's one sort of pairs ([`sort_by_first`]) of (time, position):
/// a sort of the items themselves would be another copy of the sort.
#[cfg_attr(target_arch = "wasm32", inline)]
fn in_time_order<T>(items: Vec<T>, at: impl Fn(&T) -> f64) -> Vec<T> {
    let mut order: Vec<(f64, f64)> = items
        .iter()
        .enumerate()
        .map(|(position, item)| (at(item), position as f64))
        .collect();
    sort_by_first(&mut order);
    let mut items: Vec<Option<T>> = items.into_iter().map(Some).collect();
    order
        .iter()
        .filter_map(|&(_, position)| items[position as usize].take())
        .collect()
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::results::{import_json, merge};
    use crate::planning::plan::Target;
    use crate::planning::prompt::SizedPrompt;
    use crate::testing::fixtures::*;
    use crate::wire::sample::{Sample, SampleError};

    fn read_run(text: &str) -> PointsDoc {
        match read_published(text.as_bytes()) {
            Ok(Published::Points(run)) => run,
            other => panic!("not a results file: {other:?}"),
        }
    }

    #[test]
    fn probe_replies_are_published_apart_and_read_back_as_a_daily_pass_rate() {
        use crate::documents::results::{Environment, export_json};
        use crate::planning::fidelity::suite::Suite;
        use crate::planning::plan::{FidelityPlan, Plan};
        const DAY_MS: f64 = 86_400_000.0;
        let plan = Plan {
            targets: vec![Target::openai("A", "https://a.example/v1", "m")],
            fidelity: Some(FidelityPlan::basic(None)),
            ..Plan::default()
        };
        let probe = Suite::Basic1.probe("arith-mul").unwrap();
        let reply = |at_ms: f64, answer: &str| {
            let mut s = sample(0, 1, at_ms, Some(300.0), false);
            s.probe = Some(probe.id.to_owned());
            s.answer = Some(answer.to_owned());
            s.finish_reason = Some("stop".to_owned());
            // A forged check is never read: the reply is verified again.
            s.check = None;
            s
        };
        let samples = vec![
            sample(0, 0, DAY_MS, Some(400.0), false),
            reply(DAY_MS + 1.0, "391"),
            reply(DAY_MS + 2.0, "392"),
            reply(2.0 * DAY_MS + 1.0, "391"),
        ];
        let text = export_json(&plan, &Environment::default(), &samples);
        let run = read_run(&text);
        assert_eq!(run.target.len(), 1, "a probe is not a latency point");
        let probes = run.probes.clone().unwrap();
        assert_eq!(probes.passed, [true, false, true]);
        // Points files carry them and read back the same; bad shapes are refused.
        assert_eq!(read_run(&run.to_json()), run);
        let broken = run
            .to_json()
            .replace("\"passed\":[true,false,true]", "\"passed\":[true]");
        assert!(matches!(
            read_published(broken.as_bytes()),
            Err(LoadError::Shape(_))
        ));
        let mut data = Dataset::default();
        data.add(&run, "").unwrap();
        let days = super::figures::fidelity_daily(&data);
        assert_eq!(
            days.iter()
                .map(|d| (d.day, d.passed, d.replies))
                .collect::<Vec<_>>(),
            [(1, 1, 2), (2, 1, 1)]
        );
        // A latency-only file has none, and its points file no member.
        let plain = read_run(&results_file(plan.targets.clone(), &samples[..1]));
        assert!(plain.probes.is_none() && !plain.to_json().contains("probes"));
    }

    /// A day of requests from a provider that behaves as the mock's
    /// `prefill` scripts do: TTFT = 200 ms + uniform 0–30 ms + input tokens
    /// ÷ `rate` × (1 ± 5 %), a cold start of 3 s one time in 20, and a
    /// cache that serves a repeated prompt in 200 ms.
    fn prefill_day(
        target: u32,
        rate: f64,
        day: f64,
        sizes: &[u32],
        rng: &mut fastrand::Rng,
    ) -> Vec<Sample> {
        const DAY_MS: f64 = 86_400_000.0;
        let mut samples = Vec::new();
        for round in 0..15u32 {
            for (i, &size) in sizes.iter().enumerate() {
                let seq = round * 10 + u32::try_from(i).unwrap() * 2;
                let at_ms = day * DAY_MS + f64::from(seq) * 60_000.0 + f64::from(target);
                let input = size + 7;
                let reading =
                    f64::from(input) * 1_000.0 / rate * (1.0 + 0.05 * (2.0 * rng.f64() - 1.0));
                let cold = if rng.f64() < 0.05 { 3_000.0 } else { 0.0 };
                let mut first = sample(
                    target,
                    seq,
                    at_ms,
                    Some(200.0 + rng.f64() * 30.0 + reading + cold),
                    false,
                );
                first.sized_prompt = Some(SizedPrompt {
                    tokens: size,
                    repeat_of: None,
                });
                first.input_tokens = Some(input);
                samples.push(first);
                if size >= 4_096 {
                    let mut repeat = sample(target, seq + 1, at_ms + 30_000.0, Some(200.0), false);
                    repeat.sized_prompt = Some(SizedPrompt {
                        tokens: size,
                        repeat_of: Some(seq),
                    });
                    repeat.input_tokens = Some(input);
                    samples.push(repeat);
                }
            }
        }
        samples
    }

    /// The sizes [`prefill_day`]'s plans measure.
    const PREFILL_SIZES: [u32; 4] = [128, 1_024, 4_096, 16_384];

    /// Two targets of one model measured at [`PREFILL_SIZES`] with the cache
    /// probe on: the plan of the prefill-per-day tests.
    fn sized_plan() -> crate::planning::plan::Plan {
        crate::planning::plan::Plan {
            targets: vec![
                Target::openai("A", "https://a.example/v1", "m"),
                Target::openai("B", "https://b.example/v1", "m"),
            ],
            prompt_sizes: Some(PREFILL_SIZES.to_vec()),
            prompt_cache_probe: true,
            ..crate::planning::plan::Plan::default()
        }
    }

    #[test]
    fn the_prefill_rate_per_day_covers_the_truth_and_says_when_a_day_has_too_few() {
        use crate::documents::results::{Environment, export_json};
        use figures::{DayPrefill, prefill_daily};
        let plan = sized_plan();
        let mut rng = fastrand::Rng::with_seed(32);
        let day0 = 20_000.0;
        let mut samples = Vec::new();
        for day in 0..3 {
            let day = day0 + f64::from(day);
            samples.extend(prefill_day(0, 6_000.0, day, &PREFILL_SIZES, &mut rng));
            samples.extend(prefill_day(1, 20_000.0, day, &PREFILL_SIZES, &mut rng));
        }
        // A fourth day measured one size only: no line through one point.
        samples.extend(prefill_day(0, 6_000.0, day0 + 3.0, &[128], &mut rng));
        samples.sort_by(|a, b| a.sent_at_ms.total_cmp(&b.sent_at_ms));
        let text = export_json(&plan, &Environment::default(), &samples);
        let from_results = read_run(&text);
        let prompts = from_results.prompts.as_deref().unwrap();
        assert_eq!(
            prompts.request.len(),
            samples.len(),
            "every request is sized"
        );
        assert_eq!(prompts.repeats.len(), 15 * 2 * 3 * 2, "two sizes repeated");
        // The points file carries them and reads back the same.
        let points = read_run(&from_results.to_json());
        assert_eq!(points, from_results);
        let mut data = Dataset::default();
        data.add(&points, "").unwrap();
        data.finish();
        // One population per figure: the TTFT figures count the first sends
        // of the headline size (the smallest, 128 tokens) alone, 15 a day
        // per target on three days for two targets and on a fourth for one.
        assert_eq!(prompts.headline, Some(128));
        assert_eq!(data.points.len(), 15 * 2 * 3 + 15);
        assert_eq!(data.prompts.len(), samples.len(), "every size for the fits");
        // A file written before it named its headline reads the same.
        let mut older = points.clone();
        if let Some(prompts) = older.prompts.as_mut() {
            prompts.headline = None;
        }
        assert!(!older.to_json().contains("headline"));
        let mut old_data = Dataset::default();
        old_data.add(&older, "").unwrap();
        old_data.finish();
        assert_eq!(old_data.points, data.points);
        let days = prefill_daily(&data, None);
        assert_eq!(days.len(), 7);
        for day in days.iter().filter(|d| d.day < 20_003) {
            let truth = if day.target == 0 { 6_000.0 } else { 20_000.0 };
            let DayPrefill::Fitted {
                rate_tokens_per_s,
                interval,
                ..
            } = day.rate
            else {
                panic!("{day:?}");
            };
            assert!(
                interval.low <= truth && truth <= interval.high,
                "{truth} outside {interval:?} on {day:?}"
            );
            assert!((rate_tokens_per_s / truth - 1.0).abs() < 0.15, "{day:?}");
            assert_eq!(day.requests, 60, "first sends only");
        }
        assert_eq!((days[3].target, days[3].day), (0, 20_003));
        assert_eq!(days[3].rate, DayPrefill::TooFew { sizes: 1 });
        assert_eq!(prefill_daily(&data, Some(1)), Vec::new(), "no such vantage");
        // Bad shapes are refused.
        let json = points.to_json();
        let cut = json.replacen("\"size\":[128,", "\"size\":[", 1);
        assert_ne!(cut, json);
        assert!(matches!(
            read_published(cut.as_bytes()),
            Err(LoadError::Shape(_))
        ));
        let beyond = json.replacen("\"request\":[0,", "\"request\":[9999,", 1);
        assert_ne!(beyond, json);
        assert!(matches!(
            read_published(beyond.as_bytes()),
            Err(LoadError::BadSample(_))
        ));
        // A run without sizes has no such member, and no daily rate.
        let plain = read_run(&results_file(
            plan.targets.clone(),
            &[sample(0, 0, 1.0, Some(2.0), false)],
        ));
        assert!(plain.prompts.is_none() && !plain.to_json().contains("prompts"));
    }

    /// How often a day's interval covers the truth, over seeds: the figure
    /// docs/statistics.md gives.
    #[test]
    #[ignore = "a simulation for the docs: cargo test -p firsttoken-core --release --lib dashboard::tests::prefill_daily_coverage -- --ignored --nocapture"]
    fn prefill_daily_coverage() {
        use crate::documents::results::{Environment, export_json};
        use figures::{DayPrefill, prefill_daily};
        let plan = sized_plan();
        let (mut days, mut covered, mut worst) = (0u32, 0u32, 0.0_f64);
        for seed in 0..500 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut samples = prefill_day(0, 6_000.0, 20_000.0, &PREFILL_SIZES, &mut rng);
            samples.extend(prefill_day(1, 20_000.0, 20_000.0, &PREFILL_SIZES, &mut rng));
            samples.sort_by(|a, b| a.sent_at_ms.total_cmp(&b.sent_at_ms));
            let mut data = Dataset::default();
            data.add(
                &read_run(&export_json(&plan, &Environment::default(), &samples)),
                "",
            )
            .unwrap();
            data.finish();
            for day in prefill_daily(&data, None) {
                let truth = if day.target == 0 { 6_000.0 } else { 20_000.0 };
                let DayPrefill::Fitted {
                    rate_tokens_per_s,
                    interval,
                    ..
                } = day.rate
                else {
                    panic!("{day:?}");
                };
                days += 1;
                covered += u32::from(interval.low <= truth && truth <= interval.high);
                worst = worst.max((rate_tokens_per_s / truth - 1.0).abs());
            }
        }
        let pct = 100.0 * f64::from(covered) / f64::from(days);
        println!(
            "{days} target-days of 15 first sends per size: interval covers the truth in {pct:.1} %, worst error {:.1} %",
            100.0 * worst
        );
        assert!(pct >= 90.0);
    }

    #[test]
    fn timeouts_rank_at_the_timeout_in_published_files_and_points() {
        let a = Target::openai("A", "https://a.example/v1", "m");
        let mut samples: Vec<Sample> = (0..20)
            .map(|i| sample(0, i, 1000.0 + f64::from(i), Some(400.0), false))
            .collect();
        let mut timed_out = sample(0, 20, 2000.0, None, false);
        timed_out.error = Some(SampleError {
            kind: ErrorKind::Timeout,
            phase: Phase::BeforeFirstToken,
            message: "no first token within 120 s".into(),
        });
        samples.push(timed_out);
        // A 503 stays a plain error.
        samples.push(sample(0, 21, 2001.0, None, false));
        let text = results_file(vec![a], &samples);
        let from_results = read_run(&text);
        assert_eq!(from_results.censored, vec![20]);
        assert_eq!(from_results.timeout_ms, Some(120_000.0));
        assert_eq!(
            from_results.ttft_ms[20], None,
            "older readers see a failure"
        );
        // The points file carries it, and reads back the same.
        let points = read_run(&from_results.to_json());
        assert_eq!(points, from_results);
        let mut data = Dataset::default();
        data.add(&points, "").unwrap();
        data.finish();
        let cell = &super::figures::by_vantage(&data.points)[0].cell;
        assert_eq!((cell.requests, cell.errors), (22, 2));
        let ttft = cell.ttft.unwrap();
        assert_eq!((ttft.n, ttft.censored), (21, 1));
        // The 503 is published as a failure the verdict counts at the
        // timeout, as the report's decisions count it; its TTFT stays null.
        assert_eq!(from_results.failed, vec![21]);
        assert_eq!(from_results.ttft_ms[21], None);
        let report = crate::judgement::report::build_report(
            &crate::planning::plan::Plan {
                targets: vec![Target::openai("A", "https://a.example/v1", "m")],
                requests_per_target: 22,
                warmup_per_target: 0,
                ..crate::planning::plan::Plan::default()
            },
            &samples,
            0,
            crate::judgement::report::REPORT_SEED,
        );
        assert_eq!(
            cell.judged.map(|(_, judgement)| judgement.verdict()),
            Some(report.targets[0].verdict),
            "the dashboard's verdict is the report's"
        );
        // An older points file without the members reads as before.
        let older = from_results.to_json().replace(
            ",\"timeout_ms\":120000.0,\"censored\":[20],\"failed\":[21]",
            "",
        );
        assert_ne!(older, from_results.to_json());
        assert!(read_run(&older).censored.is_empty());
        // Indices out of range, or censoring without a timeout, are refused.
        let bad = from_results
            .to_json()
            .replace("\"censored\":[20]", "\"censored\":[99]");
        assert!(matches!(
            read_published(bad.as_bytes()),
            Err(LoadError::BadSample(_))
        ));
        let no_timeout = from_results
            .to_json()
            .replace("\"timeout_ms\":120000.0,", "");
        assert!(matches!(
            read_published(no_timeout.as_bytes()),
            Err(LoadError::BadSample(_))
        ));
    }

    #[test]
    fn merges_as_the_import_merges() {
        let a = Target::openai("A", "https://a.example/v1", "m");
        let b = Target::openai("B", "https://b.example/v1", "m");
        let day1 = results_file(
            vec![a.clone(), b.clone()],
            &[
                sample(0, 0, 1000.0, Some(300.0), true),
                sample(0, 1, 2000.0, Some(310.0), false),
                sample(1, 0, 2500.0, None, false),
            ],
        );
        // The second file lists the targets the other way round, plus a third.
        let c = Target::openai("C", "https://c.example/v1", "m");
        let day2 = results_file(
            vec![b, a, c],
            &[
                sample(0, 0, 500.0, Some(700.0), false),
                sample(1, 0, 3000.0, Some(320.0), false),
                sample(2, 0, 3500.0, Some(200.0), false),
            ],
        );
        let mut data = Dataset::default();
        assert_eq!(data.add(&read_run(&day1), "fra1").unwrap(), 2);
        assert_eq!(data.add(&read_run(&day2), "sgp1").unwrap(), 3);
        data.finish();
        assert_eq!(data.warmups, 1);
        assert_eq!(data.vantages, vec!["fra1", "sgp1"]);
        let seen: Vec<(f64, Option<f64>, u32, u32)> = data
            .points
            .iter()
            .map(|p| (p.at_ms, p.ttft_ms, p.target, p.vantage))
            .collect();
        assert_eq!(
            seen,
            vec![
                (500.0, Some(700.0), 1, 1),
                (2000.0, Some(310.0), 0, 0),
                (2500.0, None, 1, 0),
                (3000.0, Some(320.0), 0, 1),
                (3500.0, Some(200.0), 2, 1),
            ]
        );
        // The same targets, in the same order, as the import's merge.
        let merged = merge(&[import_json(&day1).unwrap(), import_json(&day2).unwrap()]).unwrap();
        let labels: Vec<&str> = merged
            .plan
            .targets
            .iter()
            .map(|t| t.label.as_str())
            .collect();
        let ours: Vec<&str> = data.targets.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, ours);
        assert_eq!(data.label(Lang::En, 1, Some(1)), "B · sgp1");
        assert_eq!(data.label(Lang::En, 1, None), "B");
        assert_eq!(data.since(2500.0).len(), 3);
        assert_eq!(data.time_range(), Some((500.0, 3500.0)));
    }

    #[test]
    fn the_file_s_own_vantage_wins() {
        let text = results_file(
            vec![Target::openai("A", "https://a.example/v1", "m")],
            &[sample(0, 0, 1.0, Some(2.0), false)],
        )
        .replacen("\"vantage\": null", "\"vantage\": \"office\"", 1);
        let mut data = Dataset::default();
        data.add(&read_run(&text), "from-index").unwrap();
        assert_eq!(data.vantages, vec!["office"]);
    }

    #[test]
    fn bad_files_are_named_for_what_is_wrong() {
        let good = results_file(
            vec![Target::openai("A", "https://a.example/v1", "m")],
            &[sample(0, 0, 1.0, Some(2.0), false)],
        );
        let refuse = |text: &str| read_published(text.as_bytes()).unwrap_err();
        assert_eq!(refuse(&good[..good.len() / 2]), LoadError::Truncated);
        assert_eq!(refuse(""), LoadError::Truncated);
        assert!(matches!(
            refuse("<!DOCTYPE html><p>404</p>"),
            LoadError::NotJson(_)
        ));
        assert!(matches!(refuse("[1, 2]"), LoadError::WrongKind(_)));
        // A plan is pointed to where plans open (the Setup screen's Load
        // plan, or the runner): the page has no "plan page".
        let plan = refuse(r#"{"firsttoken_plan": 1, "targets": []}"#).to_string();
        assert!(
            plan.contains("Load plan on the Setup screen") && !plan.contains("plan page"),
            "{plan}"
        );
        assert!(
            refuse(r#"{"hello": 1}"#)
                .to_string()
                .contains("firsttoken_results")
        );
        assert!(
            refuse(&good.replacen("\"firsttoken_results\": 1", "\"firsttoken_results\": 2", 1))
                .to_string()
                .contains("version 2")
        );
        assert!(
            refuse(r#"{"firsttoken_index": 3, "runs": []}"#)
                .to_string()
                .contains("version 3")
        );
        assert!(matches!(
            refuse(r#"{"firsttoken_results": 1}"#),
            LoadError::Shape(_)
        ));
        assert!(
            refuse(&good.replacen("\"ttft_ms\": 2.0", "\"ttft_ms\": -2.0", 1))
                .to_string()
                .contains("samples[0].ttft_ms")
        );
        assert!(
            refuse(&good.replacen("\"target\": 0,\n", "\"target\": 4,\n", 1))
                .to_string()
                .contains("only 1 targets")
        );
        let index = r#"{"firsttoken_index": 1, "runs": []}"#;
        assert!(matches!(
            read_published(index.as_bytes()),
            Ok(Published::Index(_))
        ));
    }

    #[test]
    fn a_points_file_gives_the_same_data_as_its_results_file() {
        use crate::documents::publish::PointsDoc;
        use crate::documents::results::import_json;
        let text = results_file(
            vec![
                Target::openai("A", "https://a.example/v1", "m"),
                Target::openai("B", "https://b.example/v1", "m"),
            ],
            &[
                sample(0, 0, 1000.0, Some(300.0), true),
                sample(1, 0, 1500.125, Some(0.1 + 0.2), false),
                sample(0, 1, 2000.0, None, false),
            ],
        );
        let points = PointsDoc::from_results(&import_json(&text).unwrap(), "fra1").to_json();
        let mut from_results = Dataset::default();
        from_results.add(&read_run(&text), "fra1").unwrap();
        let mut from_points = Dataset::default();
        from_points
            .add(&read_run(&points), "ignored: the file names its vantage")
            .unwrap();
        assert_eq!(from_points, from_results);
        assert_eq!(
            from_points.points[0].ttft_ms,
            Some(0.1 + 0.2),
            "bit for bit"
        );

        let refuse = |text: &str| read_published(text.as_bytes()).unwrap_err().to_string();
        assert!(
            refuse(&points.replacen("\"target\":[1,0]", "\"target\":[1]", 1))
                .contains("as long as")
        );
        assert!(
            refuse(&points.replacen("\"target\":[1,0]", "\"target\":[1,2]", 1))
                .contains("target[1] is 2")
        );
        assert!(
            refuse(&points.replacen("\"firsttoken_points\":1", "\"firsttoken_points\":9", 1))
                .contains("version 9")
        );
    }

    #[test]
    fn files_measuring_different_things_are_refused() {
        let good = results_file(
            vec![Target::openai("A", "https://a.example/v1", "m")],
            &[sample(0, 0, 1.0, Some(2.0), false)],
        );
        let reasoning = good.replacen(
            "\"reasoning_counts_as_first_token\": false",
            "\"reasoning_counts_as_first_token\": true",
            1,
        );
        assert_ne!(good, reasoning);
        let mut data = Dataset::default();
        data.add(&read_run(&good), "").unwrap();
        assert_eq!(
            data.add(&read_run(&reasoning), ""),
            Err(LoadError::CannotMerge("reasoning_counts_as_first_token"))
        );
        assert_eq!(data.points.len(), 1, "nothing of the refused file");
    }
}
