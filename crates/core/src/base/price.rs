//! What a provider charges, as a plan states it (`targets[i].price`), and
//! a rough prompt count for when a provider sends none. A leaf: the plan
//! reads prices, and [`crate::judgement::cost`] turns them into costs.

use serde::{Deserialize, Serialize};

/// The most a price may be, US dollars per million tokens: a typo guard.
pub const MAX_PRICE_PER_MTOK: f64 = 100_000.0;

/// What a provider charges for one target's model, US dollars per million
/// tokens. Part of the plan (`targets[i].price`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    /// Per million input (prompt) tokens.
    pub input_per_mtok: f64,
    /// Per million output tokens.
    pub output_per_mtok: f64,
    /// Per million prompt tokens served from the provider's cache; `None`
    /// (left out) to charge them as input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_input_per_mtok: Option<f64>,
}

impl Price {
    /// The members that are not a price from 0 to [`MAX_PRICE_PER_MTOK`].
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn problems(&self) -> Vec<&'static str> {
        let check = |value: f64| value.is_finite() && (0.0..=MAX_PRICE_PER_MTOK).contains(&value);
        let mut problems = Vec::new();
        if !check(self.input_per_mtok) {
            problems.push("input_per_mtok");
        }
        if !check(self.output_per_mtok) {
            problems.push("output_per_mtok");
        }
        if self.cached_input_per_mtok.is_some_and(|v| !check(v)) {
            problems.push("cached_input_per_mtok");
        }
        problems
    }

    /// The cost in US dollars of `input` prompt tokens (`cached` of them
    /// from the cache) and `output` tokens.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn cost_usd(&self, input: u32, cached: u32, output: u32) -> f64 {
        let cached = cached.min(input);
        let cached_price = self.cached_input_per_mtok.unwrap_or(self.input_per_mtok);
        (f64::from(input - cached) * self.input_per_mtok
            + f64::from(cached) * cached_price
            + f64::from(output) * self.output_per_mtok)
            / 1e6
    }
}

/// A rough count of a prompt's tokens, for when the provider sent none:
/// characters / 4, rounded up.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn estimate_prompt_tokens(prompt: &str) -> u32 {
    u32::try_from(prompt.chars().count().div_ceil(4)).unwrap_or(u32::MAX)
}
