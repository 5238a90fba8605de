//! Reading a results document: refused before parsing when too large, every
//! member checked, the bad one named.

use std::fmt;

use super::{RESULTS_VERSION, ResultsDoc};
use crate::base::document;
use crate::base::lang::Lang;
use crate::words::refusal;

/// The largest results file read, in bytes: 128 MiB, about 250 000
/// samples as the page and the runner write them (about 500 bytes each).
/// A larger file is refused before it is parsed, so a hostile file cannot
/// make the page build a document the size of its memory.
pub const MAX_RESULTS_BYTES: usize = 128 * 1024 * 1024;

/// Why a results file was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ImportError {
    /// Larger than [`MAX_RESULTS_BYTES`]: refused before parsing.
    TooLarge {
        /// The file's size, bytes.
        bytes: usize,
    },
    /// Not JSON at all.
    Malformed(String),
    /// JSON, but not a FirstToken results document.
    Foreign,
    /// A results document of a version this build cannot read.
    UnsupportedVersion(String),
    /// The right version, but a field is missing or has the wrong type.
    Shape(String),
    /// A timing is non-finite or negative.
    BadNumber {
        /// Index in `samples`.
        sample: usize,
        /// The field's name.
        field: &'static str,
        /// The offending value.
        value: f64,
    },
    /// A sample names a target the plan does not have.
    TargetOutOfRange {
        /// `"samples[3].target"`.
        field: String,
        /// The index found.
        target: u32,
        /// How many targets the plan has.
        targets: usize,
    },
}

impl fmt::Display for ImportError {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl ImportError {
    /// Why the file was refused, in `lang` (the English is the error's
    /// `Display`, the runner's words).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Self::TooLarge { bytes } => refusal::results_too_large(
                lang,
                bytes.div_ceil(1024 * 1024),
                MAX_RESULTS_BYTES / (1024 * 1024),
            ),
            Self::Malformed(reason) => refusal::results_not_json(lang, reason),
            Self::Foreign => refusal::results_foreign(lang),
            Self::UnsupportedVersion(found) => {
                refusal::results_version(lang, found, RESULTS_VERSION)
            }
            Self::Shape(reason) => refusal::results_shape(lang, RESULTS_VERSION, reason),
            Self::BadNumber {
                sample,
                field,
                value,
            } => refusal::results_bad_number(lang, *sample, field, *value),
            Self::TargetOutOfRange {
                field,
                target,
                targets,
            } => refusal::results_target_out_of_range(lang, field, *target, *targets),
        }
    }
}

impl std::error::Error for ImportError {}

/// Read a results document.
///
/// # Errors
///
/// [`ImportError`] when the text is not JSON, is not a results document, has
/// another version, lacks a field, holds a non-finite or negative time, or
/// names a target index the plan does not have. The message names the field.
///
/// # Examples
///
/// What the page's Export and the runner write, Import reads back whole
/// (the summary, written for people, is not read: every export writes it
/// afresh); a file that is not a results document is refused, in words:
///
/// ```
/// use firsttoken_core::documents::results::{Environment, ImportError, export_json, import_json};
/// use firsttoken_core::base::lang::Lang;
///
/// # use firsttoken_core::wire::demo::{behaviour_of, demo_reply, target_seed};
/// # use firsttoken_core::wire::measure::Measurement;
/// # use firsttoken_core::planning::plan::Plan;
/// # use firsttoken_core::wire::sample::Sample;
/// # use firsttoken_core::planning::schedule::Schedule;
/// # // Every request of `plan` answered by the built-in demo provider, fed
/// # // through a `Measurement` as the page and the runner feed real replies.
/// # fn measure_with_demo(plan: &Plan) -> Vec<Sample> {
/// #     let schedule = Schedule::new(plan, 1.8e12, 7);
/// #     schedule.requests.iter().map(|planned| {
/// #         let target = &plan.targets[planned.target as usize];
/// #         let seed = target_seed(7, planned.target);
/// #         let reply = demo_reply(behaviour_of(&target.base_url), planned.seq, seed);
/// #         let mut measurement = Measurement::new(target.protocol, false);
/// #         measurement.on_headers(reply.headers_at_ms, reply.status, Some(reply.content_type));
/// #         for chunk in &reply.chunks {
/// #             measurement.on_chunk(chunk.at_ms, &chunk.bytes);
/// #         }
/// #         let end_ms = reply.chunks.last().map_or(reply.headers_at_ms, |c| c.at_ms);
/// #         measurement.on_body_end(end_ms);
/// #         Sample::from_outcome(planned, planned.planned_at_ms, false, measurement.finish())
/// #     }).collect()
/// # }
/// # let plan = Plan::from_json(r#"{"firsttoken_plan": 1, "requests_per_target": 30, "targets": [
/// #     {"label": "steady", "protocol": "demo", "base_url": "demo://steady", "model": "m"},
/// #     {"label": "cold-tail", "protocol": "demo", "base_url": "demo://cold-tail", "model": "m"}]}"#)?;
/// let samples = measure_with_demo(&plan);
/// let environment = Environment { started_at_ms: 1.8e12, ..Environment::default() };
/// let text = export_json(&plan, &environment, &samples);
///
/// let doc = import_json(&text)?;
/// assert_eq!(doc.plan, plan);
/// assert_eq!(doc.samples, samples);
/// assert!(doc.summary.is_empty());
/// assert_eq!(export_json(&doc.plan, &doc.environment, &doc.samples), text);
///
/// let Err(foreign) = import_json(r#"{"firsttoken_plan": 1}"#) else { panic!() };
/// assert_eq!(foreign, ImportError::Foreign);
/// assert!(foreign.text(Lang::En).starts_with("this is not a firsttoken results file"));
/// assert!(foreign.text(Lang::ZhCn).starts_with("这不是 FirstToken 结果文件"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn import_json(text: &str) -> Result<ResultsDoc, ImportError> {
    if text.len() > MAX_RESULTS_BYTES {
        return Err(ImportError::TooLarge { bytes: text.len() });
    }
    // The typed read is the one pass a good file takes; only when it fails
    // is the text looked at as a tree, to tell a foreign document or another
    // version from a bad member.
    let shape = match document::from_str::<ResultsDoc>(text) {
        Ok(doc) if doc.firsttoken_results == RESULTS_VERSION => {
            validate(&doc)?;
            return Ok(doc);
        }
        Ok(doc) => {
            return Err(ImportError::UnsupportedVersion(
                doc.firsttoken_results.to_string(),
            ));
        }
        Err(e) => e,
    };
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ImportError::Malformed(e.to_string()))?;
    let version = value
        .get("firsttoken_results")
        .ok_or(ImportError::Foreign)?;
    if version.as_u64() != Some(u64::from(RESULTS_VERSION)) {
        return Err(ImportError::UnsupportedVersion(document::to_string(
            version,
        )));
    }
    Err(ImportError::Shape(shape.to_string()))
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn validate(doc: &ResultsDoc) -> Result<(), ImportError> {
    let targets = doc.plan.targets.len();
    let in_range = |field: String, target: u32| {
        if (target as usize) < targets {
            Ok(())
        } else {
            Err(ImportError::TargetOutOfRange {
                field,
                target,
                targets,
            })
        }
    };
    for (index, sample) in doc.samples.iter().enumerate() {
        in_range(format!("samples[{index}].target"), sample.target)?;
        let timings = [
            ("planned_at_ms", Some(sample.planned_at_ms)),
            ("sent_at_ms", Some(sample.sent_at_ms)),
            ("headers_ms", sample.headers_ms),
            ("first_byte_ms", sample.first_byte_ms),
            ("first_reasoning_ms", sample.first_reasoning_ms),
            ("ttft_ms", sample.ttft_ms),
            ("second_token_ms", sample.second_token_ms),
            ("total_ms", sample.total_ms),
            (
                "connection.dns_ms",
                sample.connection.and_then(|c| c.dns_ms),
            ),
            (
                "connection.connect_ms",
                sample.connection.map(|c| c.connect_ms),
            ),
            (
                "connection.tls_ms",
                sample.connection.and_then(|c| c.tls_ms),
            ),
        ];
        for (field, value) in timings {
            if let Some(value) = value.filter(|v| !v.is_finite() || *v < 0.0) {
                return Err(ImportError::BadNumber {
                    sample: index,
                    field,
                    value,
                });
            }
        }
    }
    Ok(())
}
