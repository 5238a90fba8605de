//! The prefill scripts: a provider whose first token waits for its prompt to be read.
//!
//! `prefill@R` reads R prompt tokens per second after a fixed part:
//!
//! ```text
//! TTFT = PREFILL_FIXED_MS + uniform(0, PREFILL_FIXED_JITTER_MS)
//!        + uncached prompt tokens / R × (1 ± PREFILL_JITTER_SHARE)
//! ```
//!
//! `prefill-cold@R` adds a cold start (2.5–3.5 s) to [`PREFILL_COLD_PERCENT`] % of requests;
//! `prefill-cached@R` keeps a prompt cache: a prompt of at least [`CACHE_MIN_TOKENS`] tokens sent
//! again finds all but the tokens past its last whole [`CACHE_BLOCK_TOKENS`]-token block cached,
//! skips reading them, and reports them as cached tokens. The prompt is counted with the app's
//! own rule ([`firsttoken_core::prompt::count_tokens`]) and that count is what the usage reports,
//! so a fitted rate can be checked against R. A prompt longer than [`PREFILL_CONTEXT_TOKENS`] is
//! refused as the providers refuse it: HTTP 400, "prompt is too long … context_length_exceeded".
//!
//! Draws are a pure function of the seed and the request's index, like `bimodal`'s. A draw is
//! only numbers: the script turns it into a reply ([`crate::script::Script::plan_prefill`]), so
//! this module imports nothing of the scripts and the two do not import each other.

use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::sync::Mutex;

use crate::leaf::splitmix64;

/// The fixed part of a prefill reply's TTFT, ms.
pub const PREFILL_FIXED_MS: u64 = 150;

/// The fixed part's jitter: uniform in 0 to this many ms.
pub const PREFILL_FIXED_JITTER_MS: u64 = 30;

/// The prompt-reading time's jitter: ± this share of it.
pub const PREFILL_JITTER_SHARE: f64 = 0.05;

/// Share of `prefill-cold` requests that draw a cold start, percent.
pub const PREFILL_COLD_PERCENT: u64 = 5;

/// The longest prompt the prefill scripts take, tokens.
pub const PREFILL_CONTEXT_TOKENS: u32 = 32_768;

/// The shortest prompt `prefill-cached` caches, tokens.
pub const CACHE_MIN_TOKENS: u32 = 1_024;

/// `prefill-cached` caches prompts in blocks of this many tokens.
pub const CACHE_BLOCK_TOKENS: u32 = 128;

/// Which prefill behaviour a script has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prefill {
    /// Warm every time, no cache.
    Plain,
    /// A share of cold starts.
    Cold,
    /// A prompt cache.
    Cached,
}

/// One prefill draw: when the first token comes and what the usage reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrefillDraw {
    /// Delay to the first content token, ms.
    pub first_token_ms: u64,
    /// Whether this request drew a cold start.
    pub cold: bool,
    /// Prompt tokens served from the cache (`prefill-cached` only; else `None`).
    pub cached_tokens: Option<u32>,
}

impl Prefill {
    /// The draw for a prompt of `prompt_tokens` read at `rate` tokens/s, for the
    /// `request_index`-th request, `repeated` when the same prompt came before.
    pub fn draw(
        self,
        rate: u64,
        seed: u64,
        request_index: u64,
        prompt_tokens: u32,
        repeated: bool,
    ) -> PrefillDraw {
        let first = splitmix64(seed ^ splitmix64(request_index ^ 0x5052_4546));
        let second = splitmix64(first);
        let third = splitmix64(second);
        let cached = (self == Prefill::Cached).then(|| {
            if repeated && prompt_tokens >= CACHE_MIN_TOKENS {
                prompt_tokens / CACHE_BLOCK_TOKENS * CACHE_BLOCK_TOKENS
            } else {
                0
            }
        });
        let uncached = prompt_tokens - cached.unwrap_or(0);
        let unit = |bits: u64| (bits >> 11) as f64 / (1u64 << 53) as f64;
        let reading_ms = f64::from(uncached) * 1_000.0 / rate.max(1) as f64
            * (1.0 + PREFILL_JITTER_SHARE * (2.0 * unit(second) - 1.0));
        let cold = self == Prefill::Cold && first % 100 < PREFILL_COLD_PERCENT;
        let cold_ms = if cold { 2_500 + third % 1_001 } else { 0 };
        PrefillDraw {
            first_token_ms: PREFILL_FIXED_MS
                + first % PREFILL_FIXED_JITTER_MS
                + reading_ms.round() as u64
                + cold_ms,
            cold,
            cached_tokens: cached,
        }
    }
}

/// The error message of a prompt over the context window, in the words providers use.
pub fn context_exceeded_message(prompt_tokens: u32) -> String {
    format!(
        "prompt is too long: {prompt_tokens} tokens > {PREFILL_CONTEXT_TOKENS} maximum \
         (context_length_exceeded)"
    )
}

/// The prompts seen so far, by hash: what `prefill-cached` remembers.
#[derive(Debug, Default)]
pub struct PromptCache {
    seen: Mutex<HashSet<u64>>,
}

impl PromptCache {
    /// Records `prompt` under `script`; `true` when it was seen before.
    pub fn seen_before(&self, script: &str, prompt: &str) -> bool {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (script, prompt).hash(&mut hasher);
        let key = hasher.finish();
        match self.seen.lock() {
            Ok(mut seen) => !seen.insert(key),
            Err(poisoned) => !poisoned.into_inner().insert(key),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_time_grows_with_the_prompt_at_the_scripted_rate() {
        let short = Prefill::Plain.draw(20_000, 1, 0, 128, false);
        let long = Prefill::Plain.draw(20_000, 1, 0, 32_768, false);
        // 32 768 tokens at 20 000/s: 1 638 ms ± 5 %, after 150–180 ms.
        assert!((1_706..=1_900).contains(&long.first_token_ms), "{long:?}");
        assert!((150..=190).contains(&short.first_token_ms), "{short:?}");
        assert_eq!(long.cached_tokens, None);
    }

    #[test]
    fn a_repeated_long_prompt_is_read_from_the_cache() {
        let first = Prefill::Cached.draw(6_000, 1, 3, 8_200, false);
        let again = Prefill::Cached.draw(6_000, 1, 3, 8_200, true);
        assert_eq!(first.cached_tokens, Some(0));
        assert_eq!(again.cached_tokens, Some(8_192));
        assert!(first.first_token_ms > again.first_token_ms + 1_200);
        let cache = PromptCache::default();
        assert!(!cache.seen_before("prefill-cached", "a"));
        assert!(cache.seen_before("prefill-cached", "a"));
        assert!(!cache.seen_before("prefill", "a"));
    }

    #[test]
    fn about_one_in_twenty_cold_requests_are_cold() {
        let cold = (0..2_000)
            .filter(|&i| Prefill::Cold.draw(20_000, 9, i, 128, false).cold)
            .count();
        assert!((60..=140).contains(&cold), "{cold}");
    }
}
