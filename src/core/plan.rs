//! The plan: what to measure and how, as the versioned JSON document users
//! save, load and share (`firsttoken_plan` version 1, see `docs/plan.md`).

use serde::{Deserialize, Serialize};

/// The plan document's version this build reads and writes.
pub const PLAN_VERSION: u32 = 1;

/// The short fixed prompt used unless the user gives their own.
pub const DEFAULT_PROMPT: &str = "Reply with one short sentence: what is the capital of France?";

/// Wire protocol of a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// OpenAI-compatible chat completions (`POST {base}/chat/completions`).
    #[serde(rename = "openai")]
    OpenAi,
    /// Anthropic Messages (`POST {base}/v1/messages`).
    Anthropic,
    /// Google Gemini `streamGenerateContent?alt=sse`.
    Gemini,
    /// The built-in demo provider: runs in the page, no network, no key.
    Demo,
}

/// One thing to measure: a provider endpoint × a model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Target {
    /// What the person calls it ("DO · DeepSeek V4 Pro").
    pub label: String,
    /// How to talk to it.
    pub protocol: Protocol,
    /// Endpoint base URL, without a trailing slash.
    pub base_url: String,
    /// Model name as the provider spells it.
    pub model: String,
    /// Preset id this target came from (`"openai"`, `"ollama"`, …), if any:
    /// keys are kept per provider, so two targets of one provider share one key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
}

/// A whole measurement plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// Document version; always [`PLAN_VERSION`].
    pub firsttoken_plan: u32,
    /// What to measure, interleaved round-robin.
    pub targets: Vec<Target>,
    /// Measured requests per target, warm-ups not included.
    pub requests_per_target: u32,
    /// Warm-up requests per target, sent first, kept but not counted.
    pub warmup_per_target: u32,
    /// Seconds between consecutive sends (across all targets).
    pub spacing_s: f64,
    /// Each send moves by a uniform random offset in ± `jitter_s` seconds.
    pub jitter_s: f64,
    /// Spread the whole run evenly over this many hours instead of `spacing_s`.
    pub spread_hours: Option<f64>,
    /// Give up on a request with no first token after this many seconds.
    pub timeout_s: f64,
    /// The fixed prompt sent with every request.
    pub prompt: String,
    /// Append a per-request nonce to the prompt, against prompt caching.
    pub nonce: bool,
    /// Upper bound on the reply's length.
    pub max_tokens: u32,
    /// Sampling temperature; 0 for a reproducible workload.
    pub temperature: f64,
    /// Count the first reasoning delta as the first token.
    pub reasoning_counts_as_first_token: bool,
    /// Local hours `[start, end)` counted as peak for the time-of-day split.
    pub peak_hours: [u8; 2],
}

impl Default for Plan {
    fn default() -> Self {
        Self {
            firsttoken_plan: PLAN_VERSION,
            targets: Vec::new(),
            requests_per_target: 100,
            warmup_per_target: 2,
            spacing_s: 5.0,
            jitter_s: 1.0,
            spread_hours: None,
            timeout_s: 120.0,
            prompt: DEFAULT_PROMPT.to_owned(),
            nonce: false,
            max_tokens: 64,
            temperature: 0.0,
            reasoning_counts_as_first_token: false,
            peak_hours: [9, 18],
        }
    }
}
