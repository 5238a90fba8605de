//! Merging results documents: the same plan run on several days, or from
//! several vantages.

use std::fmt;

use super::{RESULTS_VERSION, ResultsDoc, summary_rows, vantage_name};
use crate::base::lang::Lang;
use crate::wire::sample::Sample;
use crate::words::refusal;

/// Why documents could not be merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// Nothing to merge.
    Empty,
    /// The runs measured different things under the same name.
    DifferentMeasure(&'static str),
}

impl fmt::Display for MergeError {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl MergeError {
    /// Why the runs were not merged, in `lang` (the English is the error's
    /// `Display`).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Self::Empty => refusal::merge_empty(lang),
            Self::DifferentMeasure(field) => refusal::merge_different_measure(lang, field),
        }
    }
}

impl std::error::Error for MergeError {}

/// Merge documents, e.g. the same plan run on two days.
///
/// Targets are matched by protocol + base URL + model; a target only one
/// document has is appended, and sample target indexes are remapped to the
/// merged plan. Repeated identical targets within one plan are matched in
/// order. `seq` is shifted so (target, seq) stays unique. The plan settings
/// and environment are the first document's, with the earliest
/// `started_at_ms`; the summary is recomputed.
///
/// **Vantages.** When the documents come from more than one vantage
/// (`environment.vantage`, a document without one counting as its own), a
/// target is matched only within its vantage and its label names it
/// ("DeepSeek V4 Pro · fra1" against "DeepSeek V4 Pro · sgp1"): the time
/// to the first token includes the path to the provider, so the same
/// endpoint seen from two places is two things to compare, in every table,
/// chart, comparison and routing table drawn from the merged document. The
/// merged environment then names no vantage (the labels do).
///
/// # Errors
///
/// [`MergeError::Empty`] for no documents; [`MergeError::DifferentMeasure`]
/// when the plans disagree on whether reasoning counts as the first token.
///
/// # Examples
///
/// The page's Import of two files, the same plan run from two places:
///
/// ```
/// use firsttoken_core::documents::results::{Environment, export_json, import_json, merge};
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
/// let file_from = |vantage: &str, started_at_ms: f64| {
///     let environment = Environment {
///         started_at_ms,
///         vantage: Some(vantage.to_owned()),
///         ..Environment::default()
///     };
///     export_json(&plan, &environment, &measure_with_demo(&plan))
/// };
/// let fra1 = import_json(&file_from("fra1", 1.8e12))?;
/// let sgp1 = import_json(&file_from("sgp1", 1.8e12 + 3_600_000.0))?;
///
/// let merged = merge(&[fra1, sgp1])?;
/// // Seen from two places, each endpoint is two things to compare.
/// let labels: Vec<&str> = merged.plan.targets.iter().map(|t| t.label.as_str()).collect();
/// assert_eq!(labels, ["steady · fra1", "cold-tail · fra1", "steady · sgp1", "cold-tail · sgp1"]);
/// assert_eq!(merged.environment.started_at_ms, 1.8e12);
/// assert_eq!(merged.samples.len(), 2 * measure_with_demo(&plan).len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn merge(docs: &[ResultsDoc]) -> Result<ResultsDoc, MergeError> {
    let first = docs.first().ok_or(MergeError::Empty)?;
    let counts_reasoning = first.plan.reasoning_counts_as_first_token;
    if docs
        .iter()
        .any(|d| d.plan.reasoning_counts_as_first_token != counts_reasoning)
    {
        return Err(MergeError::DifferentMeasure(
            "reasoning_counts_as_first_token",
        ));
    }
    let mut plan = first.plan.clone();
    plan.targets.clear();
    // The probe replies of any document are verified by its suite: the
    // merged plan keeps the first fidelity check found, so a day that began
    // without one does not orphan the probes of its later runs.
    if plan.fidelity.is_none() {
        plan.fidelity = docs.iter().find_map(|d| d.plan.fidelity.clone());
    }
    let mut environment = first.environment.clone();
    let mut samples: Vec<Sample> = Vec::new();
    let mut next_seq: Vec<u32> = Vec::new();
    let several_vantages = docs
        .iter()
        .any(|d| d.environment.vantage != first.environment.vantage);
    if several_vantages {
        environment.vantage = None;
    }
    // The vantage each merged target was seen from (when there are several).
    let mut target_vantage: Vec<Option<&str>> = Vec::new();

    for doc in docs {
        environment.started_at_ms = environment.started_at_ms.min(doc.environment.started_at_ms);
        let vantage = doc.environment.vantage.as_deref();
        let mut claimed = vec![false; plan.targets.len()];
        let mut remap = Vec::with_capacity(doc.plan.targets.len());
        for target in &doc.plan.targets {
            let found = plan
                .targets
                .iter()
                .enumerate()
                .position(|(index, existing)| {
                    !claimed[index]
                        && existing.identity() == target.identity()
                        && (!several_vantages || target_vantage[index] == vantage)
                });
            let index = match found {
                Some(index) => index,
                None => {
                    let mut target = target.clone();
                    if several_vantages {
                        target.label = format!(
                            "{} · {}",
                            target.label,
                            // A label in a file, which speaks English.
                            vantage_name(Lang::En, vantage.unwrap_or_default())
                        );
                    }
                    plan.targets.push(target);
                    target_vantage.push(vantage);
                    claimed.push(false);
                    next_seq.push(0);
                    plan.targets.len() - 1
                }
            };
            claimed[index] = true;
            remap.push(index);
        }
        let base_seq = next_seq.clone();
        for sample in &doc.samples {
            // Samples of a validated document always index their plan.
            let Some(&index) = remap.get(sample.target as usize) else {
                continue;
            };
            let mut moved = sample.clone();
            moved.target = u32::try_from(index).unwrap_or(u32::MAX);
            moved.seq = base_seq[index].saturating_add(sample.seq);
            next_seq[index] = next_seq[index].max(moved.seq.saturating_add(1));
            samples.push(moved);
        }
    }
    let summary = summary_rows(&plan, &samples);
    Ok(ResultsDoc {
        firsttoken_results: RESULTS_VERSION,
        plan,
        environment,
        samples,
        summary,
    })
}
