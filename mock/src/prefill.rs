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
//! skips reading them, and reports them as cached tokens. `prefill-prefix@R` keeps a prefix
//! cache as llama.cpp's server reuses its prompt cache: a prompt finds cached the longest run of
//! leading tokens it shares with any of the last [`PREFIX_CACHE_PROMPTS`] prompts of the same
//! model, however short, all but its last token (which a server reads again to compute the
//! first output token), skips reading them and reports them as cached tokens. It is what shows
//! whether a "fresh" prompt is fresh: any part the prompts of a run share at their start, a
//! cache like this serves. `prefill-nousage@R` draws as `prefill@R` and reports no usage at
//! all (the script, not this module, decides what a reply reports). The prompt is counted with
//! the app's own rule ([`firsttoken_core::planning::prompt::count_tokens`]) and that count is what the
//! usage reports, so a fitted rate can be checked against R. A prompt longer than [`PREFILL_CONTEXT_TOKENS`] is
//! refused as the providers refuse it: HTTP 400, "prompt is too long … context_length_exceeded".
//!
//! Draws are a pure function of the seed and the request's index, like `bimodal`'s. A draw is
//! only numbers: the script turns it into a reply ([`crate::script::Script::plan_prefill`]), so
//! this module imports nothing of the scripts and the two do not import each other.

use std::collections::{HashMap, HashSet, VecDeque};
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

/// How many earlier prompts of a model `prefill-prefix` compares a prompt with: enough for
/// every target and size of a test plan, few enough that a long run holds at most a few MB.
pub const PREFIX_CACHE_PROMPTS: usize = 32;

/// Which prefill behaviour a script has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prefill {
    /// Warm every time, no cache.
    Plain,
    /// A share of cold starts.
    Cold,
    /// A prompt cache of whole long prompts.
    Cached,
    /// A prefix cache: the longest leading run of tokens shared with an earlier prompt.
    Prefix,
}

/// What a prefill script's cache knows of a prompt before reading it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Earlier {
    /// The very same prompt came before (what `prefill-cached` looks at).
    pub repeated: bool,
    /// The most leading tokens it shares with one earlier prompt of its model (what
    /// `prefill-prefix` looks at).
    pub shared_prefix_tokens: u32,
}

/// One prefill draw: when the first token comes and what the usage reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrefillDraw {
    /// Delay to the first content token, ms.
    pub first_token_ms: u64,
    /// Whether this request drew a cold start.
    pub cold: bool,
    /// Prompt tokens served from the cache (`prefill-cached` and `prefill-prefix`; else `None`).
    pub cached_tokens: Option<u32>,
}

impl Prefill {
    /// The draw for a prompt of `prompt_tokens` read at `rate` tokens/s, for the
    /// `request_index`-th request; `earlier` is what the script's cache knows of the prompt.
    pub fn draw(
        self,
        rate: u64,
        seed: u64,
        request_index: u64,
        prompt_tokens: u32,
        earlier: Earlier,
    ) -> PrefillDraw {
        let first = splitmix64(seed ^ splitmix64(request_index ^ 0x5052_4546));
        let second = splitmix64(first);
        let third = splitmix64(second);
        let cached = match self {
            Prefill::Plain | Prefill::Cold => None,
            Prefill::Cached => Some(if earlier.repeated && prompt_tokens >= CACHE_MIN_TOKENS {
                prompt_tokens / CACHE_BLOCK_TOKENS * CACHE_BLOCK_TOKENS
            } else {
                0
            }),
            // The last token is read again even when the whole prompt matches: its output
            // is what the first reply token comes from.
            Prefill::Prefix => Some(
                earlier
                    .shared_prefix_tokens
                    .min(prompt_tokens.saturating_sub(1)),
            ),
        };
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

/// The prompts seen so far: by hash, what `prefill-cached` remembers; as token sequences, per
/// model, the last [`PREFIX_CACHE_PROMPTS`] that `prefill-prefix` compares with.
#[derive(Debug, Default)]
pub struct PromptCache {
    seen: Mutex<HashSet<u64>>,
    prefixes: Mutex<HashMap<String, VecDeque<Vec<u64>>>>,
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

    /// Records `prompt` under `model` and returns the most leading tokens it shares with one
    /// of the last [`PREFIX_CACHE_PROMPTS`] prompts recorded under `model`.
    ///
    /// Cost: O(tokens × [`PREFIX_CACHE_PROMPTS`]) time at worst, 8 bytes per token kept.
    pub fn shared_prefix(&self, model: &str, prompt: &str) -> u32 {
        let tokens: Vec<u64> = prompt_tokens(prompt).map(token_hash).collect();
        let mut prefixes = match self.prefixes.lock() {
            Ok(prefixes) => prefixes,
            Err(poisoned) => poisoned.into_inner(),
        };
        let earlier = prefixes.entry(model.to_owned()).or_default();
        let shared = earlier
            .iter()
            .map(|other| {
                other
                    .iter()
                    .zip(&tokens)
                    .take_while(|(a, b)| a == b)
                    .count()
            })
            .max()
            .unwrap_or(0);
        if earlier.len() == PREFIX_CACHE_PROMPTS {
            earlier.pop_front();
        }
        earlier.push_back(tokens);
        u32::try_from(shared).unwrap_or(u32::MAX)
    }
}

/// The tokens of `text` by [`firsttoken_core::planning::prompt::count_tokens`]'s rule, so that the prefix
/// cache and the usage count the same tokens: each run of ASCII letters and digits, and every
/// other character that is not white space. Leading white space is part of no token, as there.
pub fn prompt_tokens(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        rest = rest.trim_start();
        let first = rest.chars().next()?;
        let length = if first.is_ascii_alphanumeric() {
            rest.find(|c: char| !c.is_ascii_alphanumeric())
                .unwrap_or(rest.len())
        } else {
            first.len_utf8()
        };
        let (token, after) = rest.split_at(length);
        rest = after;
        Some(token)
    })
}

/// A token as the prefix cache keeps it: 8 bytes, whatever its length.
fn token_hash(token: &str) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    token.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_time_grows_with_the_prompt_at_the_scripted_rate() {
        let short = Prefill::Plain.draw(20_000, 1, 0, 128, Earlier::default());
        let long = Prefill::Plain.draw(20_000, 1, 0, 32_768, Earlier::default());
        // 32 768 tokens at 20 000/s: 1 638 ms ± 5 %, after 150–180 ms.
        assert!((1_706..=1_900).contains(&long.first_token_ms), "{long:?}");
        assert!((150..=190).contains(&short.first_token_ms), "{short:?}");
        assert_eq!(long.cached_tokens, None);
    }

    #[test]
    fn a_repeated_long_prompt_is_read_from_the_cache() {
        let first = Prefill::Cached.draw(6_000, 1, 3, 8_200, Earlier::default());
        let repeated = Earlier {
            repeated: true,
            shared_prefix_tokens: 8_200,
        };
        let again = Prefill::Cached.draw(6_000, 1, 3, 8_200, repeated);
        assert_eq!(first.cached_tokens, Some(0));
        assert_eq!(again.cached_tokens, Some(8_192));
        assert!(first.first_token_ms > again.first_token_ms + 1_200);
        let cache = PromptCache::default();
        assert!(!cache.seen_before("prefill-cached", "a"));
        assert!(cache.seen_before("prefill-cached", "a"));
        assert!(!cache.seen_before("prefill", "a"));
    }

    #[test]
    fn a_prompt_finds_cached_the_leading_tokens_it_shares_with_an_earlier_one() {
        let text = "  [run-1, 河水 流过]\n the river  runs. ";
        let tokens: Vec<&str> = prompt_tokens(text).collect();
        assert_eq!(
            tokens,
            [
                "[", "run", "-", "1", ",", "河", "水", "流", "过", "]", "the", "river", "runs", "."
            ]
        );
        assert_eq!(
            tokens.len() as u32,
            firsttoken_core::planning::prompt::count_tokens(text)
        );

        let cache = PromptCache::default();
        assert_eq!(cache.shared_prefix("m", "[run-1-0-5] the river runs"), 0);
        // The old run-id-first nonce: seven leading tokens shared with the first prompt.
        assert_eq!(cache.shared_prefix("m", "[run-1-0-6] the river runs"), 7);
        assert_eq!(cache.shared_prefix("m", "a3f9-run-1-0-5 the river runs"), 0);
        assert_eq!(cache.shared_prefix("m", "b7c1-run-1-0-6 the river runs"), 0);
        assert_eq!(
            cache.shared_prefix("m", "a3f9-run-1-0-5 the river runs"),
            12
        );
        assert_eq!(
            cache.shared_prefix("other", "a3f9-run-1-0-5 the river runs"),
            0
        );

        // Reused tokens are not read; the last one always is.
        let fresh = Prefill::Prefix.draw(6_000, 1, 3, 8_200, Earlier::default());
        let whole = Earlier {
            repeated: true,
            shared_prefix_tokens: 8_200,
        };
        let again = Prefill::Prefix.draw(6_000, 1, 3, 8_200, whole);
        assert_eq!(fresh.cached_tokens, Some(0));
        assert_eq!(again.cached_tokens, Some(8_199));
        assert!(fresh.first_token_ms > again.first_token_ms + 1_200);
        let short = Earlier {
            repeated: false,
            shared_prefix_tokens: 7,
        };
        let some = Prefill::Prefix.draw(6_000, 1, 3, 20, short);
        assert_eq!(some.cached_tokens, Some(7), "however short the shared part");
    }

    #[test]
    fn about_one_in_twenty_cold_requests_are_cold() {
        let cold = (0..2_000)
            .filter(|&i| {
                Prefill::Cold
                    .draw(20_000, 9, i, 128, Earlier::default())
                    .cold
            })
            .count();
        assert!((60..=140).contains(&cold), "{cold}");
    }
}
