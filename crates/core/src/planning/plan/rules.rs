//! The rules a plan must keep ([`Plan::validate`]) and what may go wrong
//! with one that keeps them ([`Plan::warnings`]).

use super::sizes::{MAX_PROMPT_SIZE_TOKENS, MAX_PROMPT_SIZES, cycle, requests_per_size};
use super::url::check_base_url;
use super::{
    EQUIVALENCE_PCT, FieldError, MAX_DEDICATED_USD_PER_HOUR, MAX_FIDELITY_REPEATS, MAX_IDLE_GAP_S,
    MAX_IDLE_GAPS, MAX_MAX_TOKENS, MAX_PROMPT_CHARS, MAX_REQUESTS_PER_TARGET,
    MAX_WARMUP_PER_TARGET, MIN_REQUESTS_FOR_TAIL, MIN_REQUESTS_PER_GAP, Plan, Problem, Protocol,
    Warning, WarningKind,
};
use crate::base::order::sort_numbers;
use crate::base::peak::{is_peak, parse_peak_tz};
use crate::base::price::MAX_PRICE_PER_MTOK;
use crate::planning::context_window::context_window;
use crate::planning::objectives::parse as parse_objective;

impl Plan {
    /// Checks every rule of plan version 1 (see `docs/plan.md`).
    ///
    /// # Errors
    /// One [`FieldError`] per bad field, in field order.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut bad = |field: &str, problem: Problem| errors.push(FieldError::new(field, problem));

        if self.targets.is_empty() {
            bad("targets", Problem::NoTargets);
        }
        for (i, target) in self.targets.iter().enumerate() {
            if target.label.trim().is_empty() {
                bad(&format!("targets[{i}].label"), Problem::NoLabel);
            }
            if let Err(problem) = check_base_url(target.protocol, &target.base_url) {
                bad(&format!("targets[{i}].base_url"), Problem::BaseUrl(problem));
            }
            if target.model.trim().is_empty() {
                bad(&format!("targets[{i}].model"), Problem::NoModel);
            }
            if let Some(price) = &target.price {
                for member in price.problems() {
                    bad(
                        &format!("targets[{i}].price.{member}"),
                        Problem::Price {
                            max: MAX_PRICE_PER_MTOK,
                        },
                    );
                }
            }
            if let Some(slug) = &target.openrouter_provider {
                if target.protocol != Protocol::OpenAi {
                    bad(
                        &format!("targets[{i}].openrouter_provider"),
                        Problem::OpenRouterNeedsOpenAi,
                    );
                } else if !is_provider_slug(slug) {
                    bad(
                        &format!("targets[{i}].openrouter_provider"),
                        Problem::OpenRouterSlug,
                    );
                }
            }
        }
        if self.requests_per_target < 1 {
            bad("requests_per_target", Problem::AtLeastOne);
        } else if self.requests_per_target > MAX_REQUESTS_PER_TARGET {
            bad(
                "requests_per_target",
                Problem::RequestsAtMost {
                    max: MAX_REQUESTS_PER_TARGET,
                },
            );
        }
        if self.min_requests_per_target == Some(0) {
            bad("min_requests_per_target", Problem::AtLeastOne);
        }
        if self
            .equivalent_within_pct
            .is_some_and(|pct| !(EQUIVALENCE_PCT.0..=EQUIVALENCE_PCT.1).contains(&pct))
        {
            bad(
                "equivalent_within_pct",
                Problem::Between {
                    low: EQUIVALENCE_PCT.0,
                    high: EQUIVALENCE_PCT.1,
                },
            );
        }
        if self.warmup_per_target > MAX_WARMUP_PER_TARGET {
            bad(
                "warmup_per_target",
                Problem::AtMost {
                    max: MAX_WARMUP_PER_TARGET,
                },
            );
        }
        if !self.spacing_s.is_finite() || self.spacing_s < 0.0 {
            bad("spacing_s", Problem::NotNegativeSeconds);
        }
        let spacing = self.effective_spacing_s();
        // Jitter is judged against a spacing only when that spacing is itself
        // valid; otherwise the spacing's own message says what to fix.
        let spacing_valid = self.spacing_s.is_finite()
            && self.spacing_s >= 0.0
            && self.spread_hours.is_none_or(|h| h.is_finite() && h > 0.0);
        if !self.jitter_s.is_finite() || self.jitter_s < 0.0 {
            bad("jitter_s", Problem::NotNegativeSeconds);
        } else if self.jitter_s > 0.0 && spacing_valid {
            if spacing <= 0.0 {
                bad("jitter_s", Problem::JitterNeedsSpacing)
            } else if self.jitter_s >= spacing / 2.0 {
                bad(
                    "jitter_s",
                    Problem::JitterOverHalf {
                        half_s: round3(spacing / 2.0),
                        spacing_s: round3(spacing),
                        from_spread: self.spread_hours.is_some(),
                    },
                );
            }
        }
        if self
            .spread_hours
            .is_some_and(|hours| !hours.is_finite() || hours <= 0.0)
        {
            bad("spread_hours", Problem::SpreadHours);
        }
        if !self.timeout_s.is_finite() || self.timeout_s <= 0.0 {
            bad("timeout_s", Problem::TimeoutPositive);
        }
        let prompt_chars = self.prompt.chars().count();
        if self.prompt.trim().is_empty() {
            bad("prompt", Problem::PromptEmpty);
        } else if prompt_chars > MAX_PROMPT_CHARS {
            bad(
                "prompt",
                Problem::PromptLong {
                    chars: prompt_chars,
                    max: MAX_PROMPT_CHARS,
                },
            );
        }
        if !(1..=MAX_MAX_TOKENS).contains(&self.max_tokens) {
            bad(
                "max_tokens",
                Problem::Between {
                    low: 1.0,
                    high: f64::from(MAX_MAX_TOKENS),
                },
            );
        }
        if !(0.0..=2.0).contains(&self.temperature) {
            bad(
                "temperature",
                Problem::Between {
                    low: 0.0,
                    high: 2.0,
                },
            );
        }
        for (i, hour) in self.peak_hours.iter().enumerate() {
            if *hour > 24 {
                bad(&format!("peak_hours[{i}]"), Problem::PeakHour);
            }
        }
        if self
            .ttft_budget_ms
            .is_some_and(|ms| !ms.is_finite() || ms <= 0.0)
        {
            bad("ttft_budget_ms", Problem::TtftBudget);
        }
        if let Some(zone) = &self.peak_tz
            && parse_peak_tz(zone).is_none()
        {
            bad("peak_tz", Problem::PeakTz);
        }
        if let Some(sizes) = &self.prompt_sizes {
            let mut distinct = sizes.clone();
            distinct.sort_unstable();
            distinct.dedup();
            if sizes.is_empty()
                || sizes.len() > MAX_PROMPT_SIZES
                || distinct.len() != sizes.len()
                || sizes
                    .iter()
                    .any(|&size| !(1..=MAX_PROMPT_SIZE_TOKENS).contains(&size))
            {
                bad(
                    "prompt_sizes",
                    Problem::PromptSizes {
                        max: MAX_PROMPT_SIZE_TOKENS,
                        count: MAX_PROMPT_SIZES,
                    },
                );
            }
        }
        if self
            .typical_prompt_tokens
            .is_some_and(|tokens| !(1..=MAX_PROMPT_SIZE_TOKENS).contains(&tokens))
        {
            bad(
                "typical_prompt_tokens",
                Problem::Between {
                    low: 1.0,
                    high: f64::from(MAX_PROMPT_SIZE_TOKENS),
                },
            );
        }
        if let Some(gaps) = &self.idle_gaps_s {
            let mut distinct = gaps.clone();
            sort_numbers(&mut distinct);
            distinct.dedup();
            if gaps.is_empty()
                || gaps.len() > MAX_IDLE_GAPS
                || distinct.len() != gaps.len()
                || gaps
                    .iter()
                    .any(|&gap| !(gap.is_finite() && gap > 0.0 && gap <= MAX_IDLE_GAP_S))
            {
                bad(
                    "idle_gaps_s",
                    Problem::IdleGaps {
                        max_s: MAX_IDLE_GAP_S,
                        count: MAX_IDLE_GAPS,
                    },
                );
            } else if self.warmup_per_target == 0 {
                bad("idle_gaps_s", Problem::IdleGapsNeedWarmup);
            }
        }
        if self
            .typical_gap_s
            .is_some_and(|gap| !(gap.is_finite() && (1.0..=MAX_IDLE_GAP_S).contains(&gap)))
        {
            bad(
                "typical_gap_s",
                Problem::Between {
                    low: 1.0,
                    high: MAX_IDLE_GAP_S,
                },
            );
        }
        if self.dedicated_usd_per_hour.is_some_and(|usd| {
            !(usd.is_finite() && (0.0..=MAX_DEDICATED_USD_PER_HOUR).contains(&usd))
        }) {
            bad(
                "dedicated_usd_per_hour",
                Problem::Between {
                    low: 0.0,
                    high: MAX_DEDICATED_USD_PER_HOUR,
                },
            );
        }
        if let Some(fidelity) = &self.fidelity {
            if !(1..=MAX_FIDELITY_REPEATS).contains(&fidelity.repeats) {
                bad(
                    "fidelity.repeats",
                    Problem::Between {
                        low: 1.0,
                        high: f64::from(MAX_FIDELITY_REPEATS),
                    },
                );
            }
            if let Some(reference) = &fidelity.reference
                && !self
                    .targets
                    .iter()
                    .any(|t| t.label.trim() == reference.trim())
            {
                bad(
                    "fidelity.reference",
                    Problem::UnknownReference {
                        label: reference.chars().take(60).collect(),
                    },
                );
            }
        }
        for (i, objective) in self.objectives.iter().enumerate() {
            if parse_objective(objective).is_err() {
                bad(&format!("objectives[{i}]"), Problem::Objective);
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// Concerns about a valid plan; never refusals. In field order.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn warnings(&self) -> Vec<Warning> {
        let mut warnings = Vec::new();
        let mut warn = |kind, field: &str, message: String| {
            warnings.push(Warning {
                kind,
                field: field.to_owned(),
                message,
            });
        };
        for (i, target) in self.targets.iter().enumerate() {
            let label = target.label.trim();
            let first = self.targets.iter().position(|t| t.label.trim() == label);
            if !label.is_empty() && first != Some(i) {
                warn(
                    WarningKind::DuplicateLabel,
                    &format!("targets[{i}].label"),
                    format!(
                        "\"{label}\" is also the label of target {}; results will be hard to \
                         tell apart",
                        first.map_or(0, |f| f + 1)
                    ),
                );
            }
        }
        let n = self.requests_per_target;
        if n < MIN_REQUESTS_FOR_TAIL {
            // Chance that a 1-in-20 tail leaves no sample at all among n requests.
            let missed_pct = 0.95_f64.powf(f64::from(n)) * 100.0;
            warn(
                WarningKind::FewRequests,
                "requests_per_target",
                format!(
                    "cold starts may not show: with fewer than {MIN_REQUESTS_FOR_TAIL} requests a \
                     1-in-20 tail is often missed (with {n}, it leaves no sample at all {:.0} % \
                     of the time)",
                    missed_pct
                ),
            );
        }
        if self.warmup_per_target == 0 {
            warn(
                WarningKind::NoWarmup,
                "warmup_per_target",
                "with no warm-up, the first request's DNS, TLS and CORS preflight land in the \
                 statistics"
                    .to_owned(),
            );
        }
        if self.spread_hours.is_some() && self.spacing_s > 0.0 {
            warn(
                WarningKind::SpreadOverridesSpacing,
                "spacing_s",
                format!(
                    "both spread and spacing are set; the spread wins: one request every {} s, \
                     not every {} s",
                    round3(self.effective_spacing_s()),
                    round3(self.spacing_s)
                ),
            );
        }
        let spacing = self.effective_spacing_s();
        // The demo has no server to keep warm (its cold starts come at
        // random whatever the spacing), so a plan of demo targets alone is
        // not warned that cold starts hide.
        // With idle gaps the spacing spaces only the warm-ups and probes;
        // every measured request waits its gap, so nothing stays warm by it.
        let gaps = self.idle_gaps_s.as_ref().is_some_and(|g| !g.is_empty());
        if spacing < 1.0 && !gaps && self.targets.iter().any(|t| t.protocol != Protocol::Demo) {
            let field = if self.spread_hours.is_some() {
                "spread_hours"
            } else {
                "spacing_s"
            };
            warn(
                WarningKind::TightSpacing,
                field,
                format!(
                    "requests {} s apart keep the server warm, so cold starts hide, and some \
                     providers rate-limit bursts",
                    round3(spacing)
                ),
            );
        }
        if self.timeout_s < 30.0 {
            warn(
                WarningKind::ShortTimeout,
                "timeout_s",
                format!(
                    "cold starts last 10–90 s; a {} s timeout turns the slow ones into errors \
                     instead of measuring them",
                    round3(self.timeout_s)
                ),
            );
        }
        let peak_hours = (0..24u8).filter(|&h| is_peak(h, self.peak_hours)).count() as f64;
        let longer_period_h = peak_hours.max(24.0 - peak_hours);
        let duration_h = self.estimated_duration_s() / 3600.0;
        if peak_hours > 0.0 && duration_h < longer_period_h {
            let [start, end] = self.peak_hours;
            // Seconds under a minute: a 3-request run lasts "about 11 s",
            // not "about 1 min".
            let length = if duration_h * 60.0 < 1.0 {
                format!("{} s", (duration_h * 3600.0).round().max(1.0))
            } else if duration_h < 1.0 {
                format!("{} min", (duration_h * 60.0).round().max(1.0))
            } else {
                format!("{} h", round1(duration_h))
            };
            warn(
                WarningKind::MissesAPeriod,
                "spread_hours",
                format!(
                    "the run lasts {}about {length}, so it can miss either peak ({start}:00–{end}:00) \
                     or off-peak hours altogether and cannot compare them; spread it over at least \
                     {longer_period_h:.0} h to see both",
                    if self.duration_is_at_least() {
                        "at least "
                    } else {
                        ""
                    }
                ),
            );
        }
        if self.temperature != 0.0 {
            warn(
                WarningKind::NonZeroTemperature,
                "temperature",
                "temperature 0 keeps the workload the same from request to request; other \
                 values vary the reply and with it the timing"
                    .to_owned(),
            );
        }
        // The demo provider runs in the page and caches nothing.
        if !self.nonce && self.targets.iter().any(|t| t.protocol != Protocol::Demo) {
            warn(
                WarningKind::FixedPromptMayBeCached,
                "nonce",
                "the same prompt on every request may be served from the provider's prompt \
                 cache, and cache hits have a different TTFT; the nonce option opens each \
                 request's prompt with a short tag of its own so none can hit the cache (each \
                 sample's cached_tokens shows which did)"
                    .to_owned(),
            );
        }
        if let Some(per_size) = requests_per_size(self)
            && per_size < MIN_REQUESTS_FOR_TAIL
        {
            warn(
                WarningKind::FewRequestsPerSize,
                "prompt_sizes",
                format!(
                    "each size gets only {per_size} of a target's {n} requests; with fewer than \
                     {MIN_REQUESTS_FOR_TAIL} per size a size's cold-start tail is often missed \
                     (raise requests_per_target or list fewer sizes)"
                ),
            );
        }
        let over = self.sizes_over_context_window();
        if !over.is_empty() {
            let list: Vec<String> = over
                .iter()
                .map(|over| {
                    let sizes: Vec<String> = over
                        .sizes
                        .iter()
                        .map(|&s| crate::words::format::grouped(u64::from(s)))
                        .collect();
                    format!(
                        "{} ({}, {} tokens) at {}",
                        self.targets[over.target].label,
                        self.targets[over.target].model,
                        crate::words::format::grouped(u64::from(over.window)),
                        sizes.join(", ")
                    )
                })
                .collect();
            warn(
                WarningKind::OverContextWindow,
                "prompt_sizes",
                format!(
                    "some sizes are longer than the model's context window, so the provider will \
                     refuse them (each is counted as context exceeded and spends its requests): {}",
                    list.join("; ")
                ),
            );
        }
        if let Some(per_gap) = self.requests_per_gap()
            && per_gap < MIN_REQUESTS_PER_GAP
        {
            warn(
                WarningKind::FewRequestsPerGap,
                "idle_gaps_s",
                format!(
                    "each idle gap gets only {per_gap} of a target's {n} requests; with fewer \
                     than {MIN_REQUESTS_PER_GAP} per gap a gap's cold share is too loose to show \
                     where the model goes cold (raise requests_per_target or list fewer gaps)"
                ),
            );
        }
        if let Some(shortest) = self
            .idle_gaps_s
            .as_deref()
            .and_then(|gaps| gaps.iter().copied().reduce(f64::min))
            && self.targets.len() > 1
        {
            warn(
                WarningKind::IdleGapsShared,
                "idle_gaps_s",
                format!(
                    "with {} targets one request is in flight at a time, so a request can wait \
                     past its gap while another target's request runs (the spacing no longer \
                     holds a gap's request back); each sample records the idle it really had and \
                     counts at the longest gap that idle reached, and the report says how many \
                     moved. The shortest gap, {}, moves most when the targets' requests take \
                     longer",
                    self.targets.len(),
                    crate::words::format::gap_text(crate::base::lang::Lang::En, shortest)
                ),
            );
        }
        if let Some(tokens) = self.input_tokens_per_target() {
            warn(
                WarningKind::LongPromptsCost,
                "prompt_sizes",
                format!(
                    "long prompts cost: each target reads about {} input tokens over the run \
                     (the cost estimate counts them)",
                    crate::words::format::grouped(tokens)
                ),
            );
        }
        warnings
    }

    /// The prompt sizes above each target's context window, for the targets
    /// of a preset whose model's window is known for certain
    /// ([`crate::planning::context_window`]); empty without sizes.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn sizes_over_context_window(&self) -> Vec<OverWindow> {
        let Some(sizes) = &self.prompt_sizes else {
            return Vec::new();
        };
        self.targets
            .iter()
            .enumerate()
            .filter_map(|(target, t)| {
                let window = context_window(t.provider.as_deref()?, &t.model)?;
                let over: Vec<u32> = sizes.iter().copied().filter(|&s| s > window).collect();
                (!over.is_empty()).then_some(OverWindow {
                    target,
                    window,
                    sizes: over,
                })
            })
            .collect()
    }

    /// Input tokens one target sends over the run when the plan has prompt
    /// sizes (warm-ups included, by the requested sizes); `None` without.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn input_tokens_per_target(&self) -> Option<u64> {
        let turns = cycle(self);
        if turns.is_empty() {
            return None;
        }
        let measured: u64 = (0..self.requests_per_target)
            .map(|k| u64::from(turns[k as usize % turns.len()].0))
            .sum();
        let warmups = u64::from(self.warmup_per_target) * u64::from(turns[0].0);
        Some(measured + warmups)
    }
}

/// A target whose model takes fewer input tokens than some of the plan's
/// prompt sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverWindow {
    /// Index of the target in the plan.
    pub target: usize,
    /// Its model's context window, input tokens.
    pub window: u32,
    /// The plan's sizes above it.
    pub sizes: Vec<u32>,
}

/// Rounds to 3 decimals for messages, so 1.6666… reads 1.667.
#[cfg_attr(target_arch = "wasm32", inline)]
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// An OpenRouter provider slug: lower-case letters, digits and `-_./`, 1–64
/// characters.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn is_provider_slug(slug: &str) -> bool {
    (1..=64).contains(&slug.len())
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_./".contains(&b))
}
