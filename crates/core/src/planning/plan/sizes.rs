//! A plan's prompt sizes: how many it may list, how large each may be,
//! which get a cache-probe repeat and the cycle of turns they make. The
//! plan's rules check them and the prompt and the schedule follow them, so
//! they live with the plan ([`crate::planning::prompt`] builds the text).

use super::Plan;

/// The smallest size that gets a cache-probe repeat: providers cache only
/// prompts at least this long (OpenAI's automatic cache and Anthropic's
/// cache breakpoints both start at 1 024 tokens), so a shorter repeat
/// would measure nothing but noise.
pub(crate) const CACHE_PROBE_MIN_TOKENS: u32 = 1_024;

/// Largest size a plan may ask for, input tokens.
pub(crate) const MAX_PROMPT_SIZE_TOKENS: u32 = 2_000_000;

/// Most sizes a plan may list.
pub(crate) const MAX_PROMPT_SIZES: usize = 16;

/// Whether a size gets a cache-probe repeat under `plan`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn probes_cache(plan: &Plan, tokens: u32) -> bool {
    plan.prompt_cache_probe && tokens >= CACHE_PROBE_MIN_TOKENS
}

/// The measured turns of one cycle of a target's requests: each size in
/// plan order, followed by its repeat when the size probes the cache. Empty
/// when the plan has no sizes.
///
/// Measured request k (0-based, probes of the fidelity check not counted)
/// of every target sends turn `k mod len`, so every size sees the same
/// hours of the run and the repeat comes at the target's next turn.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn cycle(plan: &Plan) -> Vec<(u32, bool)> {
    let mut turns = Vec::new();
    for &tokens in plan.prompt_sizes.iter().flatten() {
        turns.push((tokens, false));
        if probes_cache(plan, tokens) {
            turns.push((tokens, true));
        }
    }
    turns
}

/// Measured requests per size (first sends, repeats not counted) when each
/// target sends `plan.requests_per_target` of them; `None` without sizes.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn requests_per_size(plan: &Plan) -> Option<u32> {
    let turns = cycle(plan);
    let per_cycle = u32::try_from(turns.len()).ok().filter(|&n| n > 0)?;
    Some(plan.requests_per_target / per_cycle)
}
