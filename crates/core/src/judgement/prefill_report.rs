//! Everything the results show about prompt sizes, gathered once for both
//! adapters (beside [`crate::judgement::prefill`], whose fit it reads, since
//! it judges each size with [`crate::judgement::report::build_report`],
//! which reads the fit too): per target, the prefill fit, a row per size judged as any
//! cell is judged, the sizes refused as too long, the cache savings and
//! the TTFT predicted at the plan's typical size; per model, the
//! providers compared on prefill rate.

use crate::judgement::compare::model_key;
use crate::judgement::prefill::{
    CacheSaving, NoPrediction, Prediction, PredictionSource, PrefillComparison, PrefillFit,
    cache_savings, compare_prefill, prefill_measure,
};
use crate::judgement::report::{TargetReport, build_report, typical_ttft};
use crate::planning::plan::Plan;
use crate::wire::sample::{ErrorKind, Sample};

/// One size of one target.
#[derive(Clone, Debug, PartialEq)]
pub struct SizeRow {
    /// The requested size, tokens.
    pub size: u32,
    /// Median of the provider's input-token counts at this size, when it
    /// reported them.
    pub input_tokens: Option<f64>,
    /// The size's figures as for any target: median, p95, slow share,
    /// cold-start tail, verdict (cache-probe repeats left out).
    pub figures: TargetReport,
}

/// One target's prompt-size results.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetPrefill {
    /// Index of the target in the plan.
    pub target: u32,
    /// Its label.
    pub label: String,
    /// The prefill fit; `None` with fewer than two sizes measured or a
    /// slope that is not positive.
    pub fit: Option<PrefillFit>,
    /// Two sizes or more were measured, yet TTFT does not grow with the
    /// prompt beyond doubt: the line through them has no positive slope,
    /// or its slope's interval reaches 0 ([`PrefillFit::shows_growth`]).
    /// No rate is said then, and no ratio.
    pub no_growth: bool,
    /// The input counts are the synthetic prompt's own: the provider
    /// reported none.
    pub estimated_tokens: bool,
    /// One row per size, by size ascending.
    pub sizes: Vec<SizeRow>,
    /// Sizes with requests refused as over the model's context window.
    pub refused_sizes: Vec<u32>,
    /// What a repeated prompt saved, per probed size.
    pub cache: Vec<CacheSaving>,
    /// The TTFT predicted at the plan's `typical_prompt_tokens`, ms (the
    /// point of [`TargetPrefill::typical`]).
    pub ttft_at_typical_ms: Option<f64>,
    /// The prediction at the plan's `typical_prompt_tokens`, or why there
    /// is none; `None` when the plan names no typical size.
    pub typical: Option<Result<Prediction, NoPrediction>>,
}

/// Two providers of one model compared on prefill rate.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelPrefill {
    /// The model's grouping key ([`model_key`]).
    pub model: String,
    /// The comparison of the fastest and the slowest target by rate, among
    /// those whose TTFT grows beyond doubt ([`PrefillFit::shows_growth`]).
    pub comparison: PrefillComparison,
}

/// The prompt-size results of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct PrefillReport {
    /// One per plan target, in plan order.
    pub targets: Vec<TargetPrefill>,
    /// One per model with two or more targets whose TTFT grows beyond
    /// doubt.
    pub models: Vec<ModelPrefill>,
    /// The plan's typical size, tokens.
    pub typical_prompt_tokens: Option<u32>,
}

impl PrefillReport {
    /// The label of target `index` ("" when there is none).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn label(&self, index: u32) -> &str {
        self.targets
            .iter()
            .find(|t| t.target == index)
            .map_or("", |t| t.label.as_str())
    }
}

/// The prompt-size results of `samples` under `plan`; `None` when no
/// sample carries a size (a plan without `prompt_sizes`). Seeded by `seed`.
///
/// Cost: one [`build_report`] per size plus the fits' bootstraps.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn prefill_report(plan: &Plan, samples: &[Sample], seed: u64) -> Option<PrefillReport> {
    if samples.iter().all(|s| s.sized_prompt.is_none()) {
        return None;
    }
    let mut sizes: Vec<u32> = samples
        .iter()
        .filter_map(|s| s.sized_prompt.map(|p| p.tokens))
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    let per_size_plan = Plan {
        requests_per_target: crate::planning::prompt::requests_per_size(plan)
            .unwrap_or(plan.requests_per_target),
        ..plan.clone()
    };
    // A report per size, repeats left out: they measure the cache.
    let by_size: Vec<(u32, Vec<TargetReport>)> = sizes
        .iter()
        .map(|&size| {
            let of_size: Vec<Sample> = samples
                .iter()
                .filter(|s| {
                    s.sized_prompt
                        .is_some_and(|p| p.tokens == size && p.repeat_of.is_none())
                })
                .cloned()
                .collect();
            // The size's own plan: its population is this size alone,
            // weighed against the requests the plan sends to it.
            let plan_of_size = Plan {
                prompt_sizes: Some(vec![size]),
                prompt_cache_probe: false,
                ..per_size_plan.clone()
            };
            (size, build_report(&plan_of_size, &of_size, 0, seed).targets)
        })
        .collect();
    let targets: Vec<TargetPrefill> = plan
        .targets
        .iter()
        .enumerate()
        .map(|(index, target)| {
            let index = u32::try_from(index).unwrap_or(u32::MAX);
            let measure = prefill_measure(samples, index, seed);
            // Between the measured sizes the section says the route's own
            // reading (every request of the sizes around the typical one,
            // a timeout or a failure at the timeout), so it never reads
            // across a size whose requests all failed; beyond them, where
            // no line decides, it says what the prefill line would carry.
            let reading = typical_ttft(plan, samples, index);
            let typical = plan.typical_prompt_tokens.map(|tokens| match reading {
                Some(reading) if reading.nearest.is_none() => Ok(Prediction {
                    tokens,
                    ttft_ms: reading.ttft_ms,
                    interval: reading.interval,
                    source: PredictionSource::Sizes,
                }),
                _ => measure
                    .as_ref()
                    .map_or(Err(NoPrediction::NothingMeasured), |m| m.predict(tokens))
                    .and_then(|prediction| match prediction.source {
                        PredictionSource::Line => Ok(prediction),
                        PredictionSource::Sizes => Err(NoPrediction::SizeUnanswered),
                    }),
            });
            let no_growth = measure.as_ref().is_some_and(|m| {
                m.points.len() >= 2 && !m.fit.as_ref().is_some_and(PrefillFit::shows_growth)
            });
            let estimated_tokens = measure.as_ref().is_some_and(|m| m.estimated_tokens);
            let fit = measure.and_then(|m| m.fit);
            let rows = by_size
                .iter()
                .filter_map(|(size, reports)| {
                    let figures = reports.get(index as usize)?.clone();
                    (figures.requests > 0).then(|| SizeRow {
                        size: *size,
                        input_tokens: input_median(samples, index, *size),
                        figures,
                    })
                })
                .collect();
            let refused_sizes = by_size
                .iter()
                .filter(|(_, reports)| {
                    reports.get(index as usize).is_some_and(|r| {
                        r.errors_by_kind
                            .iter()
                            .any(|(kind, _)| *kind == ErrorKind::ContextExceeded)
                    })
                })
                .map(|(size, _)| *size)
                .collect();
            TargetPrefill {
                target: index,
                label: target.label.clone(),
                ttft_at_typical_ms: typical
                    .and_then(|t| t.ok())
                    .map(|prediction| prediction.ttft_ms),
                typical,
                fit,
                no_growth,
                estimated_tokens,
                sizes: rows,
                refused_sizes,
                cache: cache_savings(samples, index),
            }
        })
        .collect();
    let mut models: Vec<ModelPrefill> = Vec::new();
    let mut keys: Vec<String> = plan.targets.iter().map(|t| model_key(&t.model)).collect();
    keys.dedup();
    let mut seen: Vec<String> = Vec::new();
    for key in keys {
        if seen.contains(&key) {
            continue;
        }
        seen.push(key.clone());
        let fits: Vec<&PrefillFit> = targets
            .iter()
            .filter(|t| model_key(&plan.targets[t.target as usize].model) == key)
            .filter_map(|t| t.fit.as_ref())
            .filter(|fit| fit.shows_growth())
            .collect();
        if fits.len() < 2 {
            continue;
        }
        // The first of the slowest and the last of the fastest, in target
        // order, as a stable sort by rate would put them at its ends.
        let (mut slowest, mut fastest) = (fits[0], fits[0]);
        for fit in &fits[1..] {
            if fit
                .rate_tokens_per_s
                .total_cmp(&slowest.rate_tokens_per_s)
                .is_lt()
            {
                slowest = fit;
            }
            if fit
                .rate_tokens_per_s
                .total_cmp(&fastest.rate_tokens_per_s)
                .is_ge()
            {
                fastest = fit;
            }
        }
        if let Some(comparison) = compare_prefill(slowest, fastest) {
            models.push(ModelPrefill {
                model: key,
                comparison,
            });
        }
    }
    Some(PrefillReport {
        targets,
        models,
        typical_prompt_tokens: plan.typical_prompt_tokens,
    })
}

/// Median of the provider's input counts for `target` at `size`.
#[cfg_attr(target_arch = "wasm32", inline)]
fn input_median(samples: &[Sample], target: u32, size: u32) -> Option<f64> {
    let mut counts: Vec<f64> = samples
        .iter()
        .filter(|s| {
            s.target == target
                && s.sized_prompt
                    .is_some_and(|p| p.tokens == size && p.repeat_of.is_none())
        })
        .filter_map(|s| s.input_tokens.map(f64::from))
        .collect();
    (!counts.is_empty()).then(|| crate::judgement::prefill::median(&mut counts))
}
