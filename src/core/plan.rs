//! The plan: what to measure and how, as the versioned JSON document users
//! save, load and share (`firsttoken_plan` version 1, see `docs/plan.md`).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::document;
use super::peak::{is_peak, parse_peak_tz};
use super::price::Price;

/// The plan document's version this build reads and writes.
pub const PLAN_VERSION: u32 = 1;

/// The short fixed prompt used unless the user gives their own.
pub const DEFAULT_PROMPT: &str = "Reply with one short sentence: what is the capital of France?";

/// Wire protocol of a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// OpenAI-compatible chat completions (`POST {base}/chat/completions`).
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
    /// Left out of the document when there is none, so hand-made plans and
    /// links stay short.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// What the provider charges for this model, per million tokens
    /// ([`Price`]); left out of the document when none is set. Presets carry
    /// no prices: they change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<Price>,
    /// For an OpenRouter endpoint, the one upstream provider to measure (an
    /// OpenRouter provider slug such as `"deepinfra"`): each request then
    /// asks OpenRouter for that provider only, without fallbacks, so the
    /// target measures it and not OpenRouter's choice. Left out when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openrouter_provider: Option<String>,
}

/// A whole measurement plan.
///
/// Its derives read a plan embedded in another document (results, a stored
/// run); a plan document on its own goes through [`Plan::from_json`], which
/// refuses unknown members and reports every bad field at once.
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
    /// The zone `peak_hours` are in: an IANA name (`"Asia/Shanghai"`) or a
    /// UTC offset (`"+08:00"`); `None` (left out of the document) for the
    /// zone of whoever runs the plan. See [`crate::core::timeofday::parse_peak_tz`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_tz: Option<String>,
    /// A TTFT budget, ms: the results say what share of requests met it
    /// (goodput) and the routing pick ranks by it. `None` (left out of the
    /// document) for no budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttft_budget_ms: Option<f64>,
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
            peak_tz: None,
            ttft_budget_ms: None,
        }
    }
}

/// Fewer measured requests than this and a 1-in-20 cold-start tail is often
/// missed entirely (see [`Plan::warnings`]).
pub const MIN_REQUESTS_FOR_TAIL: u32 = 75;

/// Upper bound on measured requests per target. A schedule holds every
/// request in memory; this keeps a mistyped plan from exhausting a tab.
pub const MAX_REQUESTS_PER_TARGET: u32 = 100_000;

/// Upper bound on warm-up requests per target.
pub const MAX_WARMUP_PER_TARGET: u32 = 1000;

/// Upper bound on the prompt's length, in characters (Unicode scalar values).
pub const MAX_PROMPT_CHARS: usize = 20_000;

/// Upper bound on `max_tokens`.
pub const MAX_MAX_TOKENS: u32 = 65_536;

/// Why a plan document was refused. Nothing is applied when any of these is
/// returned: a plan is taken whole or not at all.
#[derive(Clone, Debug, PartialEq)]
pub enum PlanError {
    /// The text is not JSON at all. `line` and `column` count from 1.
    Json {
        /// Line of the first syntax error, from 1.
        line: usize,
        /// Column of the first syntax error, from 1.
        column: usize,
        /// What the JSON reader said.
        message: String,
    },
    /// Valid JSON, but not a FirstToken plan (no `firsttoken_plan` member).
    NotAPlan,
    /// A plan written by a newer FirstToken than this page.
    NewerVersion {
        /// The document's `firsttoken_plan`.
        found: u64,
    },
    /// `firsttoken_plan` is present but not a version number this page knows.
    BadVersion {
        /// The offending value, as JSON.
        found: String,
    },
    /// One message per bad field, in document order.
    Invalid(Vec<FieldError>),
    /// A `#plan=` link whose payload is not base64url-encoded UTF-8.
    Link(String),
}

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Json {
                line,
                column,
                message,
            } => {
                write!(
                    f,
                    "not valid JSON at line {line}, column {column}: {message}"
                )
            }
            Self::NotAPlan => f.write_str(
                "this is not a FirstToken plan (it has no \"firsttoken_plan\" member); \
                 was it a results file?",
            ),
            Self::NewerVersion { found } => write!(
                f,
                "plan version {found} is newer than this page understands ({PLAN_VERSION}); \
                 open it with a newer FirstToken"
            ),
            Self::BadVersion { found } => write!(
                f,
                "\"firsttoken_plan\" is {found}, not a plan version this page knows \
                 (it understands {PLAN_VERSION})"
            ),
            Self::Invalid(errors) => {
                let n = errors.len();
                write!(
                    f,
                    "the plan has {n} bad field{}: ",
                    if n == 1 { "" } else { "s" }
                )?;
                for (i, e) in errors.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{e}")?;
                }
                Ok(())
            }
            Self::Link(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for PlanError {}

impl PlanError {
    /// One line per problem: each bad field on its own, or the one reason.
    pub fn messages(&self) -> Vec<String> {
        match self {
            Self::Invalid(errors) => errors.iter().map(ToString::to_string).collect(),
            other => vec![other.to_string()],
        }
    }
}

/// One bad field: where it is (`targets[1].base_url`) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// Path of the field in the plan document, e.g. `targets[1].base_url`.
    pub field: String,
    /// What is wrong and what would be accepted.
    pub message: String,
}

impl FieldError {
    fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Something allowed but probably unwise; shown beside the plan, never refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarningKind {
    /// Fewer than [`MIN_REQUESTS_FOR_TAIL`] measured requests per target.
    FewRequests,
    /// No warm-up: the connection setup lands in the statistics.
    NoWarmup,
    /// Less than a second between sends.
    TightSpacing,
    /// A timeout shorter than a slow cold start.
    ShortTimeout,
    /// Temperature other than 0.
    NonZeroTemperature,
    /// Both `spread_hours` and `spacing_s` set; the spread wins.
    SpreadOverridesSpacing,
    /// Two targets share a label.
    DuplicateLabel,
    /// The run is shorter than the longer of peak and off-peak hours, so it
    /// may see only one of them.
    MissesAPeriod,
    /// `nonce` is off: the fixed prompt may be served from a provider's
    /// prompt cache.
    FixedPromptMayBeCached,
}

/// A warning about a valid plan: which field, and why it matters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// What kind of concern this is, for styling and tests.
    pub kind: WarningKind,
    /// Path of the field the warning is about.
    pub field: String,
    /// Plain words: what may go wrong.
    pub message: String,
}

/// Every top-level member of plan version 1.
const PLAN_FIELDS: &[&str] = &[
    "firsttoken_plan",
    "targets",
    "requests_per_target",
    "warmup_per_target",
    "spacing_s",
    "jitter_s",
    "spread_hours",
    "timeout_s",
    "prompt",
    "nonce",
    "max_tokens",
    "temperature",
    "reasoning_counts_as_first_token",
    "peak_hours",
    "peak_tz",
    "ttft_budget_ms",
];

/// Every member of a target.
const TARGET_FIELDS: &[&str] = &[
    "label",
    "protocol",
    "base_url",
    "model",
    "provider",
    "price",
    "openrouter_provider",
];

/// `#plan=` payloads: base64url, written without padding, read either way.
const LINK_ENGINE: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
    &base64::alphabet::URL_SAFE,
    base64::engine::GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
);

impl Plan {
    /// Reads a plan document, checking every field once, here at the boundary.
    ///
    /// Missing optional members take their [`Plan::default`] values; text
    /// fields are trimmed and base URLs lose trailing slashes. The result has
    /// passed [`Plan::validate`].
    ///
    /// # Errors
    /// [`PlanError::Json`] for malformed JSON (with line and column),
    /// [`PlanError::NotAPlan`] for a foreign document,
    /// [`PlanError::NewerVersion`] / [`PlanError::BadVersion`] for versions
    /// this page cannot read, and [`PlanError::Invalid`] with one message per
    /// bad field. Nothing is half-applied.
    pub fn from_json(text: &str) -> Result<Self, PlanError> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            // serde_json's message ends with the position, given separately here.
            let full = e.to_string();
            let position = format!(" at line {} column {}", e.line(), e.column());
            PlanError::Json {
                line: e.line().max(1),
                column: e.column().max(1),
                message: full.strip_suffix(&position).unwrap_or(&full).to_owned(),
            }
        })?;
        let Value::Object(members) = value else {
            return Err(PlanError::NotAPlan);
        };
        let version = members.get("firsttoken_plan").ok_or(PlanError::NotAPlan)?;
        match version.as_u64() {
            Some(v) if v == u64::from(PLAN_VERSION) => {}
            Some(v) if v > u64::from(PLAN_VERSION) => {
                return Err(PlanError::NewerVersion { found: v });
            }
            _ => {
                return Err(PlanError::BadVersion {
                    found: document::to_string(version),
                });
            }
        }

        let mut reader = FieldReader::default();
        let mut plan = Self::default();
        for (name, value) in &members {
            let field = name.as_str();
            match field {
                "firsttoken_plan" => {}
                "targets" => plan.targets = reader.targets(value),
                "requests_per_target" => reader.read(field, value, &mut plan.requests_per_target),
                "warmup_per_target" => reader.read(field, value, &mut plan.warmup_per_target),
                "spacing_s" => reader.read(field, value, &mut plan.spacing_s),
                "jitter_s" => reader.read(field, value, &mut plan.jitter_s),
                "spread_hours" => reader.read(field, value, &mut plan.spread_hours),
                "timeout_s" => reader.read(field, value, &mut plan.timeout_s),
                "prompt" => reader.read(field, value, &mut plan.prompt),
                "nonce" => reader.read(field, value, &mut plan.nonce),
                "max_tokens" => reader.read(field, value, &mut plan.max_tokens),
                "temperature" => reader.read(field, value, &mut plan.temperature),
                "reasoning_counts_as_first_token" => {
                    reader.read(field, value, &mut plan.reasoning_counts_as_first_token);
                }
                "peak_hours" => reader.read(field, value, &mut plan.peak_hours),
                "peak_tz" => reader.read(field, value, &mut plan.peak_tz),
                "ttft_budget_ms" => reader.read(field, value, &mut plan.ttft_budget_ms),
                unknown => reader.unknown(unknown, PLAN_FIELDS),
            }
        }
        plan.normalise();
        let mut errors = reader.errors;
        if let Err(range_errors) = plan.validate() {
            // A field that could not be read holds a stand-in value; a range
            // message about it would be about something the person never wrote.
            let mut unread: Vec<String> = errors.iter().map(|e| e.field.clone()).collect();
            // A base URL is checked against its protocol; without a readable
            // protocol that check would be against a guess.
            let protocol_unread: Vec<String> = unread
                .iter()
                .filter_map(|f| f.strip_suffix(".protocol").map(|t| format!("{t}.base_url")))
                .collect();
            unread.extend(protocol_unread);
            errors.extend(range_errors.into_iter().filter(|e| {
                !unread.iter().any(|u| {
                    e.field == *u
                        || e.field
                            .strip_prefix(u.as_str())
                            .is_some_and(|tail| tail.starts_with('.'))
                })
            }));
        }
        if errors.is_empty() {
            Ok(plan)
        } else {
            errors.sort_by_cached_key(|e| field_order(&e.field));
            Err(PlanError::Invalid(errors))
        }
    }

    /// The plan as indented JSON, for saving to a file.
    pub fn to_json_pretty(&self) -> String {
        document::to_string_pretty(self)
    }

    /// The plan as a URL fragment payload: `plan=` followed by the compact
    /// JSON in base64url without padding. Put a `#` in front to make a link.
    /// Plans carry no keys, so neither does the link.
    pub fn to_link_fragment(&self) -> String {
        let json = document::to_string(self);
        format!(
            "plan={}",
            base64::Engine::encode(&LINK_ENGINE, json.as_bytes())
        )
    }

    /// Reads a plan from a link fragment made by [`Plan::to_link_fragment`],
    /// with or without the leading `#`. Other `&`-separated parameters are
    /// ignored.
    ///
    /// # Errors
    /// [`PlanError::Link`] when there is no `plan=` parameter or its payload
    /// is not base64url UTF-8; otherwise whatever [`Plan::from_json`] says.
    pub fn from_link_fragment(fragment: &str) -> Result<Self, PlanError> {
        let fragment = fragment.trim();
        let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
        let payload = fragment
            .split('&')
            .find_map(|part| part.strip_prefix("plan="))
            .ok_or_else(|| {
                PlanError::Link("the link has no plan in it (expected #plan=…)".to_owned())
            })?;
        let bytes = base64::Engine::decode(&LINK_ENGINE, payload.trim()).map_err(|e| {
            PlanError::Link(format!(
                "the plan link is damaged: its payload is not valid base64url ({e}); \
                 copy the whole link again"
            ))
        })?;
        let text = String::from_utf8(bytes).map_err(|_| {
            PlanError::Link(
                "the plan link is damaged: its payload is not UTF-8 text; copy the whole link again"
                    .to_owned(),
            )
        })?;
        Self::from_json(&text)
    }

    /// Trims text fields and drops trailing slashes from base URLs, so that
    /// `"https://api.openai.com/v1/"` and `"https://api.openai.com/v1"` are one
    /// endpoint. Done by [`Plan::from_json`]; forms should call it too.
    pub fn normalise(&mut self) {
        for target in &mut self.targets {
            target.label = target.label.trim().to_owned();
            target.model = target.model.trim().to_owned();
            target.base_url = normalise_base_url(&target.base_url);
            if let Some(provider) = &target.provider {
                let provider = provider.trim();
                target.provider = (!provider.is_empty()).then(|| provider.to_owned());
            }
        }
    }

    /// Total requests in the run: (warm-ups + measured) × targets.
    pub fn total_requests(&self) -> u64 {
        let per_target = u64::from(self.requests_per_target) + u64::from(self.warmup_per_target);
        per_target * self.targets.len() as u64
    }

    /// Seconds between consecutive sends: `spacing_s`, or when `spread_hours`
    /// is set, hours × 3600 / total requests.
    pub fn effective_spacing_s(&self) -> f64 {
        match self.spread_hours {
            Some(hours) => {
                let total = self.total_requests();
                if total == 0 {
                    0.0
                } else {
                    hours * 3600.0 / total as f64
                }
            }
            None => self.spacing_s,
        }
    }

    /// Checks every rule of plan version 1 (see `docs/plan.md`).
    ///
    /// # Errors
    /// One [`FieldError`] per bad field, in field order.
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut bad = |field: &str, message: String| errors.push(FieldError::new(field, message));

        if self.targets.is_empty() {
            bad("targets", "add at least one target to measure".to_owned());
        }
        for (i, target) in self.targets.iter().enumerate() {
            if target.label.trim().is_empty() {
                bad(
                    &format!("targets[{i}].label"),
                    "give the target a name".to_owned(),
                );
            }
            if let Err(message) = check_base_url(target.protocol, &target.base_url) {
                bad(&format!("targets[{i}].base_url"), message);
            }
            if target.model.trim().is_empty() {
                bad(
                    &format!("targets[{i}].model"),
                    "name the model as the provider spells it".to_owned(),
                );
            }
            if let Some(price) = &target.price {
                for (member, message) in price.problems() {
                    bad(&format!("targets[{i}].price.{member}"), message);
                }
            }
            if let Some(slug) = &target.openrouter_provider {
                if target.protocol != Protocol::OpenAi {
                    bad(
                        &format!("targets[{i}].openrouter_provider"),
                        "applies only to an OpenRouter endpoint, which speaks the openai protocol"
                            .to_owned(),
                    );
                } else if !is_provider_slug(slug) {
                    bad(
                        &format!("targets[{i}].openrouter_provider"),
                        "must be an OpenRouter provider slug such as \"deepinfra\" or \"google-vertex/us\" (letters, digits, - _ . /, at most 64)".to_owned(),
                    );
                }
            }
        }
        if self.requests_per_target < 1 {
            bad("requests_per_target", "must be at least 1".to_owned());
        } else if self.requests_per_target > MAX_REQUESTS_PER_TARGET {
            bad(
                "requests_per_target",
                format!(
                    "must be at most {MAX_REQUESTS_PER_TARGET}; split a longer study into runs"
                ),
            );
        }
        if self.warmup_per_target > MAX_WARMUP_PER_TARGET {
            bad(
                "warmup_per_target",
                format!("must be at most {MAX_WARMUP_PER_TARGET}"),
            );
        }
        if !self.spacing_s.is_finite() || self.spacing_s < 0.0 {
            bad("spacing_s", "must be 0 or more seconds".to_owned());
        }
        let spacing = self.effective_spacing_s();
        // Jitter is judged against a spacing only when that spacing is itself
        // valid; otherwise the spacing's own message says what to fix.
        let spacing_valid = self.spacing_s.is_finite()
            && self.spacing_s >= 0.0
            && self.spread_hours.is_none_or(|h| h.is_finite() && h > 0.0);
        if !self.jitter_s.is_finite() || self.jitter_s < 0.0 {
            bad("jitter_s", "must be 0 or more seconds".to_owned());
        } else if self.jitter_s > 0.0 && spacing_valid {
            let from = if self.spread_hours.is_some() {
                "the spread gives"
            } else {
                "with"
            };
            if spacing <= 0.0 {
                bad(
                    "jitter_s",
                    "jitter needs a spacing: with spacing 0 requests go back to back; \
                     set jitter to 0 or add a spacing"
                        .to_owned(),
                )
            } else if self.jitter_s >= spacing / 2.0 {
                bad(
                    "jitter_s",
                    format!(
                        "must stay under half the spacing ({} s {from} a spacing of {} s), \
                         or consecutive sends could swap order",
                        round3(spacing / 2.0),
                        round3(spacing)
                    ),
                );
            }
        }
        if self
            .spread_hours
            .is_some_and(|hours| !hours.is_finite() || hours <= 0.0)
        {
            bad(
                "spread_hours",
                "must be more than 0 hours, or null to use spacing_s".to_owned(),
            );
        }
        if !self.timeout_s.is_finite() || self.timeout_s <= 0.0 {
            bad("timeout_s", "must be more than 0 seconds".to_owned());
        }
        let prompt_chars = self.prompt.chars().count();
        if self.prompt.trim().is_empty() {
            bad("prompt", "must not be empty".to_owned());
        } else if prompt_chars > MAX_PROMPT_CHARS {
            bad(
                "prompt",
                format!("is {prompt_chars} characters; keep it to {MAX_PROMPT_CHARS} at most"),
            );
        }
        if !(1..=MAX_MAX_TOKENS).contains(&self.max_tokens) {
            bad(
                "max_tokens",
                format!("must be between 1 and {MAX_MAX_TOKENS}"),
            );
        }
        if !(0.0..=2.0).contains(&self.temperature) {
            bad("temperature", "must be between 0 and 2".to_owned());
        }
        for (i, hour) in self.peak_hours.iter().enumerate() {
            if *hour > 24 {
                bad(
                    &format!("peak_hours[{i}]"),
                    "must be an hour from 0 to 24".to_owned(),
                );
            }
        }
        if self
            .ttft_budget_ms
            .is_some_and(|ms| !ms.is_finite() || ms <= 0.0)
        {
            bad(
                "ttft_budget_ms",
                "must be more than 0 milliseconds, or null for no budget".to_owned(),
            );
        }
        if let Some(zone) = &self.peak_tz
            && parse_peak_tz(zone).is_none()
        {
            bad(
                "peak_tz",
                "must be an IANA time zone name such as Asia/Shanghai, or a UTC offset such as                  +08:00, or null for the zone of whoever runs the plan"
                    .to_owned(),
            );
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// Concerns about a valid plan; never refusals. In field order.
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
        if spacing < 1.0 {
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
        let duration_h = self.total_requests() as f64 * self.effective_spacing_s() / 3600.0;
        if peak_hours > 0.0 && duration_h < longer_period_h {
            let [start, end] = self.peak_hours;
            let length = if duration_h < 1.0 {
                format!("{} min", (duration_h * 60.0).round().max(1.0))
            } else {
                format!("{} h", round1(duration_h))
            };
            warn(
                WarningKind::MissesAPeriod,
                "spread_hours",
                format!(
                    "the run lasts about {length}, so it can miss either peak ({start}:00–{end}:00) \
                     or off-peak hours altogether and cannot compare them; spread it over at least \
                     {longer_period_h:.0} h to see both"
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
                 cache, and cache hits have a different TTFT; the nonce option adds a short \
                 random tag to each request's prompt so none can hit the cache (each sample's \
                 cached_tokens shows which did)"
                    .to_owned(),
            );
        }
        warnings
    }
}

/// Trims a base URL and removes trailing slashes.
pub fn normalise_base_url(url: &str) -> String {
    url.trim().trim_end_matches('/').to_owned()
}

/// Checks one (already normalised) base URL for a protocol.
///
/// `http://` or `https://` with a host, or `demo://…` for the demo protocol;
/// no credentials, no key in the query, no fragment, no trailing slash.
///
/// # Errors
/// A message saying what is wrong and what to write instead.
pub fn check_base_url(protocol: Protocol, url: &str) -> Result<(), String> {
    if url.is_empty() {
        return Err("enter the endpoint's base URL, e.g. https://api.openai.com/v1".to_owned());
    }
    if url.chars().any(char::is_whitespace) {
        return Err("must not contain spaces".to_owned());
    }
    let lower = url.to_ascii_lowercase();
    let rest = if protocol == Protocol::Demo {
        match lower.strip_prefix("demo://") {
            Some(rest) => rest,
            None => return Err("the demo protocol runs in the page: use demo://steady, demo://cold-tail or demo://reasoning".to_owned()),
        }
    } else if let Some(rest) = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))
    {
        rest
    } else if lower.starts_with("demo://") {
        return Err("demo:// works only with the demo protocol".to_owned());
    } else {
        return Err(
            "must start with https:// (or http:// for a server on your network)".to_owned(),
        );
    };
    if url.ends_with('/') {
        return Err("must not end with a slash".to_owned());
    }
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    if authority.contains('@') {
        return Err(
            "must not contain a user name or password (user:pass@); keys go in the key field, \
             never in the URL"
                .to_owned(),
        );
    }
    check_host_port(authority)?;
    let after = &rest[authority_end..];
    if after.contains('#') {
        return Err("must not contain a fragment (#…)".to_owned());
    }
    if let Some((_, query)) = after.split_once('?') {
        let names_a_key = query.split('&').any(|pair| {
            let name = pair.split('=').next().unwrap_or_default();
            let name = name.replace(['-', '_'], "");
            matches!(
                name.as_str(),
                "key" | "apikey" | "token" | "accesstoken" | "secret"
            )
        });
        if names_a_key {
            return Err(
                "must not carry a key in its query (key=…); keys go in the key field, where \
                 they stay out of links and exports"
                    .to_owned(),
            );
        }
        return Err("must not contain a query (?…): request paths are appended to it".to_owned());
    }
    Ok(())
}

/// Checks `host` or `host:port` (IPv6 in brackets).
fn check_host_port(authority: &str) -> Result<(), String> {
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        match v6.split_once(']') {
            Some((host, tail)) => (host, tail.strip_prefix(':')),
            None => return Err("has an unclosed [ in its host".to_owned()),
        }
    } else {
        match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return Err("has no host name".to_owned());
    }
    if let Some(port) = port {
        match port.parse::<u16>() {
            Ok(p) if p > 0 => {}
            _ => return Err(format!("has a bad port \"{port}\" (1–65535)")),
        }
    }
    Ok(())
}

/// Rounds to 3 decimals for messages, so 1.6666… reads 1.667.
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Reads members one by one, collecting one error per bad member.
#[derive(Default)]
struct FieldReader {
    errors: Vec<FieldError>,
}

impl FieldReader {
    /// Reads `value` into `slot` when it has the right shape; otherwise
    /// records an error and leaves the default in place.
    fn read<T: DeserializeOwned + Expected>(&mut self, field: &str, value: &Value, slot: &mut T) {
        match T::deserialize(value) {
            Ok(v) => *slot = v,
            Err(_) => self.errors.push(FieldError::new(
                field,
                format!("expected {}, found {}", T::EXPECTED, describe(value)),
            )),
        }
    }

    fn unknown(&mut self, field: &str, known: &[&str]) {
        self.errors.push(unknown_field(field, field, known));
    }

    fn targets(&mut self, value: &Value) -> Vec<Target> {
        let Value::Array(items) = value else {
            self.errors.push(FieldError::new(
                "targets",
                format!("expected a list of targets, found {}", describe(value)),
            ));
            return Vec::new();
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| self.target(i, item))
            .collect()
    }

    /// Reads one target; a bad one still yields a stand-in so later targets
    /// keep their indexes in messages.
    fn target(&mut self, i: usize, value: &Value) -> Target {
        let path = format!("targets[{i}]");
        let mut target = Target {
            label: String::new(),
            protocol: Protocol::OpenAi,
            base_url: String::new(),
            model: String::new(),
            provider: None,
            price: None,
            openrouter_provider: None,
        };
        let Value::Object(members) = value else {
            self.errors.push(FieldError::new(
                path,
                format!("expected a target object, found {}", describe(value)),
            ));
            return target;
        };
        for name in ["label", "protocol", "base_url", "model"] {
            if !members.contains_key(name) {
                self.errors
                    .push(FieldError::new(format!("{path}.{name}"), "is missing"));
            }
        }
        for (name, value) in members {
            let field = format!("{path}.{name}");
            match name.as_str() {
                "label" => self.read(&field, value, &mut target.label),
                "base_url" => self.read(&field, value, &mut target.base_url),
                "model" => self.read(&field, value, &mut target.model),
                "provider" => self.read(&field, value, &mut target.provider),
                "price" => self.read(&field, value, &mut target.price),
                "openrouter_provider" => {
                    self.read(&field, value, &mut target.openrouter_provider);
                }
                "protocol" => match Protocol::deserialize(value) {
                    Ok(p) => target.protocol = p,
                    Err(_) => self.errors.push(FieldError::new(
                        field,
                        format!(
                            "expected one of {}, found {}",
                            Protocol::ALL
                                .map(|p| format!("\"{}\"", p.as_str()))
                                .join(", "),
                            describe(value)
                        ),
                    )),
                },
                other => self
                    .errors
                    .push(unknown_field(&field, other, TARGET_FIELDS)),
            }
        }
        target
    }
}

/// Sort key putting field errors in document-schema order:
/// top-level fields as listed in `PLAN_FIELDS`, targets by index then member.
fn field_order(field: &str) -> (usize, usize, usize, String) {
    let (head, tail) = match field.find(['[', '.']) {
        Some(i) => field.split_at(i),
        None => (field, ""),
    };
    let top = PLAN_FIELDS
        .iter()
        .position(|f| *f == head)
        .unwrap_or(PLAN_FIELDS.len());
    let index = tail
        .strip_prefix('[')
        .and_then(|t| t.split(']').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let member = tail.rsplit('.').next().unwrap_or_default();
    let sub = if tail.contains('.') {
        TARGET_FIELDS
            .iter()
            .position(|f| *f == member)
            .unwrap_or(TARGET_FIELDS.len())
    } else {
        0
    };
    (top, index, sub, field.to_owned())
}

/// An unknown member: key-like names get a pointed refusal, typos a hint.
fn unknown_field(path: &str, name: &str, known: &[&str]) -> FieldError {
    let lower = name.to_ascii_lowercase();
    if ["key", "token", "secret", "authorization", "password"]
        .iter()
        .any(|word| lower.contains(word))
    {
        return FieldError::new(
            path,
            "plans never carry keys; remove this field and enter the key in the page",
        );
    }
    let nearest = known
        .iter()
        .map(|k| (edit_distance(&lower, k), *k))
        .min()
        .filter(|(d, _)| *d <= 3);
    match nearest {
        Some((_, k)) => FieldError::new(path, format!("unknown field; did you mean \"{k}\"?")),
        None => FieldError::new(path, "unknown field in plan version 1"),
    }
}

/// Levenshtein distance, for "did you mean" hints on short field names.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

/// What a field's type accepts, in words.
trait Expected {
    const EXPECTED: &'static str;
}
impl Expected for u32 {
    const EXPECTED: &'static str = "a whole number from 0 to 4294967295";
}
impl Expected for f64 {
    const EXPECTED: &'static str = "a number";
}
impl Expected for Option<f64> {
    const EXPECTED: &'static str = "a number or null";
}
impl Expected for String {
    const EXPECTED: &'static str = "a string";
}
impl Expected for Option<String> {
    const EXPECTED: &'static str = "a string or null";
}
impl Expected for Option<Price> {
    const EXPECTED: &'static str = "a price object {\"input_per_mtok\": …, \"output_per_mtok\": …, \"cached_input_per_mtok\": … (optional)} in US dollars per million tokens, or null";
}
impl Expected for bool {
    const EXPECTED: &'static str = "true or false";
}
impl Expected for [u8; 2] {
    const EXPECTED: &'static str = "two hours [start, end], each from 0 to 24";
}

impl Protocol {
    /// Every protocol, in the order forms list them.
    pub const ALL: [Self; 4] = [Self::OpenAi, Self::Anthropic, Self::Gemini, Self::Demo];

    /// The name used in plan documents (serde's name for the variant).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::OpenAi => "openai",
            Self::Anthropic => "anthropic",
            Self::Gemini => "gemini",
            Self::Demo => "demo",
        }
    }
}

/// An OpenRouter provider slug: lower-case letters, digits and `-_./`, 1–64
/// characters.
pub fn is_provider_slug(slug: &str) -> bool {
    (1..=64).contains(&slug.len())
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_./".contains(&b))
}

/// How a JSON value looks, for "expected X, found Y" messages.
fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match n.as_f64() {
            Some(x) if !n.is_u64() && !n.is_i64() => document::Number(x).to_string(),
            _ => n.to_string(),
        },
        Value::String(s) if s.chars().count() > 40 => "a long string".to_owned(),
        Value::String(s) => format!("\"{s}\""),
        Value::Array(_) => "a list".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn target(label: &str, protocol: Protocol, base_url: &str) -> Target {
        Target {
            label: label.to_owned(),
            protocol,
            base_url: base_url.to_owned(),
            model: "m".to_owned(),
            provider: None,
            price: None,
            openrouter_provider: None,
        }
    }

    fn valid_plan() -> Plan {
        Plan {
            targets: vec![
                target("A", Protocol::OpenAi, "https://api.openai.com/v1"),
                target("B", Protocol::Demo, "demo://local"),
            ],
            ..Plan::default()
        }
    }

    fn invalid(text: &str) -> Vec<FieldError> {
        match Plan::from_json(text) {
            Err(PlanError::Invalid(errors)) => errors,
            other => panic!("expected Invalid, got {other:?}"),
        }
    }

    fn fields(errors: &[FieldError]) -> Vec<&str> {
        errors.iter().map(|e| e.field.as_str()).collect()
    }

    #[test]
    fn protocols_are_written_by_their_names() {
        for protocol in Protocol::ALL {
            let text = document::to_string(&protocol);
            assert_eq!(text, format!("\"{}\"", protocol.as_str()));
            assert_eq!(document::from_str::<Protocol>(&text).unwrap(), protocol);
        }
    }

    #[test]
    fn minimal_document_takes_defaults() {
        let text = r#"{"firsttoken_plan": 1, "targets": [
            {"label": " DO ", "protocol": "openai",
             "base_url": "https://inference.do-ai.run/v1/", "model": "m"}]}"#;
        let plan = Plan::from_json(text).unwrap();
        assert_eq!(plan.requests_per_target, 100);
        assert_eq!(plan.warmup_per_target, 2);
        assert_eq!(plan.spacing_s, 5.0);
        assert_eq!(plan.timeout_s, 120.0);
        assert_eq!(plan.prompt, DEFAULT_PROMPT);
        assert_eq!(plan.targets[0].label, "DO");
        assert_eq!(plan.targets[0].base_url, "https://inference.do-ai.run/v1");
    }

    #[test]
    fn malformed_json_reports_line_and_column() {
        let err = Plan::from_json("{\n  \"firsttoken_plan\": 1,\n  oops\n}").unwrap_err();
        match &err {
            PlanError::Json {
                line,
                column,
                message,
            } => {
                assert_eq!((*line, *column), (3, 3));
                assert!(!message.contains("at line"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        assert!(
            err.to_string()
                .starts_with("not valid JSON at line 3, column 3")
        );
    }

    #[test]
    fn foreign_documents_and_versions_are_refused() {
        assert_eq!(
            Plan::from_json(r#"{"firsttoken_results": 1}"#),
            Err(PlanError::NotAPlan)
        );
        assert_eq!(Plan::from_json("[1, 2]"), Err(PlanError::NotAPlan));
        let newer = Plan::from_json(r#"{"firsttoken_plan": 2}"#).unwrap_err();
        assert_eq!(newer, PlanError::NewerVersion { found: 2 });
        assert!(
            newer
                .to_string()
                .starts_with("plan version 2 is newer than this page understands (1)")
        );
        assert_eq!(
            Plan::from_json(r#"{"firsttoken_plan": "1"}"#),
            Err(PlanError::BadVersion {
                found: "\"1\"".to_owned()
            })
        );
        assert!(matches!(
            Plan::from_json(r#"{"firsttoken_plan": 0}"#),
            Err(PlanError::BadVersion { .. })
        ));
    }

    #[test]
    fn every_bad_field_gets_one_message() {
        let text = r#"{"firsttoken_plan": 1,
            "targets": [
              {"label": "ok", "protocol": "openai", "base_url": "https://a.example/v1", "model": "m"},
              {"label": "", "protocol": "openai", "base_url": "ftp://x", "model": " "},
              {"label": "c", "protocol": "grpc", "base_url": "https://c.example", "model": "m"}
            ],
            "requests_per_target": 0,
            "warmup_per_target": 1001,
            "spacing_s": -1,
            "timeout_s": 0,
            "prompt": "   ",
            "max_tokens": 0,
            "temperature": 2.5,
            "peak_hours": [9, 25],
            "nonce": "yes"}"#;
        let errors = invalid(text);
        assert_eq!(
            fields(&errors),
            vec![
                "targets[1].label",
                "targets[1].base_url",
                "targets[1].model",
                "targets[2].protocol",
                "requests_per_target",
                "warmup_per_target",
                "spacing_s",
                "timeout_s",
                "prompt",
                "nonce",
                "max_tokens",
                "temperature",
                "peak_hours[1]",
            ]
        );
        let protocol = &errors[3].message;
        assert!(protocol.contains("\"grpc\""), "{protocol}");
        assert_eq!(
            protocol,
            "expected one of \"openai\", \"anthropic\", \"gemini\", \"demo\", found \"grpc\""
        );
        assert_eq!(errors[9].message, "expected true or false, found \"yes\"");
    }

    #[test]
    fn missing_and_unknown_target_members() {
        let text = r#"{"firsttoken_plan": 1, "targets": [
            {"label": "a", "protocol": "openai", "model": "m", "api_key": "sk-123"},
            {"label": "b", "protocol": "openai", "base_url": "https://b.example", "modle": "m"}]}"#;
        let errors = invalid(text);
        assert_eq!(
            fields(&errors),
            vec![
                "targets[0].base_url",
                "targets[0].api_key",
                "targets[1].model",
                "targets[1].modle"
            ]
        );
        assert_eq!(errors[0].message, "is missing");
        assert!(errors[1].message.contains("never carry keys"));
        assert!(
            errors[3].message.contains("did you mean \"model\""),
            "{}",
            errors[3].message
        );
    }

    #[test]
    fn unknown_top_level_field_is_named_with_a_hint() {
        let mut plan = valid_plan();
        plan.requests_per_target = 80;
        let mut value: serde_json::Value =
            serde_json::from_str(&document::to_string(&plan)).unwrap();
        value["request_per_target"] = serde_json::json!(80);
        let errors = invalid(&value.to_string());
        assert_eq!(fields(&errors), vec!["request_per_target"]);
        assert!(errors[0].message.contains("\"requests_per_target\""));
    }

    #[test]
    fn no_targets_is_refused() {
        let errors = invalid(r#"{"firsttoken_plan": 1}"#);
        assert_eq!(fields(&errors), vec!["targets"]);
        let errors = invalid(r#"{"firsttoken_plan": 1, "targets": {}}"#);
        assert_eq!(
            errors[0].message,
            "expected a list of targets, found an object"
        );
        assert_eq!(errors.len(), 1);
    }

    #[test]
    fn base_url_rules() {
        use Protocol::*;
        let ok = |p, u: &str| check_base_url(p, u).is_ok();
        assert!(ok(OpenAi, "https://api.openai.com/v1"));
        assert!(ok(OpenAi, "http://localhost:8000/v1"));
        assert!(ok(OpenAi, "http://[::1]:8080/v1"));
        assert!(ok(Anthropic, "HTTPS://API.ANTHROPIC.COM"));
        assert!(ok(Demo, "demo://local"));
        assert!(!ok(Demo, "https://x.example"));
        assert!(!ok(OpenAi, "demo://local"));
        assert!(!ok(OpenAi, "api.openai.com/v1"));
        assert!(!ok(OpenAi, "https://"));
        assert!(!ok(OpenAi, "https://x.example/v1/"));
        assert!(!ok(OpenAi, "https://x.example:0"));
        assert!(!ok(OpenAi, "https://x.example:99999"));
        assert!(!ok(OpenAi, "https://x.exa mple"));
        assert!(!ok(OpenAi, "https://x.example/#frag"));
        let creds = check_base_url(OpenAi, "https://user:sk-1@x.example/v1").unwrap_err();
        assert!(creds.contains("password"), "{creds}");
        let key = check_base_url(Gemini, "https://g.example/v1beta?key=AIza1").unwrap_err();
        assert!(key.contains("key="), "{key}");
        let key = check_base_url(OpenAi, "https://g.example/v1?a=1&API_KEY=x").unwrap_err();
        assert!(key.contains("key="), "{key}");
        let query = check_base_url(OpenAi, "https://g.example/v1?a=1").unwrap_err();
        assert!(query.contains("query"), "{query}");
    }

    #[test]
    fn jitter_must_stay_under_half_the_spacing() {
        let mut plan = valid_plan();
        plan.spacing_s = 4.0;
        plan.jitter_s = 2.0;
        let errors = plan.validate().unwrap_err();
        assert_eq!(fields(&errors), vec!["jitter_s"]);
        assert!(
            errors[0].message.contains("2 s with a spacing of 4 s"),
            "{}",
            errors[0].message
        );
        plan.jitter_s = 1.999;
        assert!(plan.validate().is_ok());
        plan.spacing_s = 0.0;
        let errors = plan.validate().unwrap_err();
        assert!(errors[0].message.contains("jitter needs a spacing"));
        plan.jitter_s = 0.0;
        assert!(plan.validate().is_ok());
    }

    #[test]
    fn jitter_is_checked_against_the_spread_spacing() {
        let mut plan = valid_plan();
        // 2 targets × 102 requests over 0.1 h: 360 s / 204 ≈ 1.765 s apart.
        plan.spread_hours = Some(0.1);
        plan.jitter_s = 1.0;
        let errors = plan.validate().unwrap_err();
        assert!(
            errors[0]
                .message
                .contains("the spread gives a spacing of 1.765 s")
        );
        plan.jitter_s = 0.5;
        assert!(plan.validate().is_ok());
        plan.spread_hours = Some(0.0);
        assert_eq!(fields(&plan.validate().unwrap_err()), vec!["spread_hours"]);
    }

    #[test]
    fn prompt_length_counts_characters_not_bytes() {
        let mut plan = valid_plan();
        plan.prompt = "字".repeat(MAX_PROMPT_CHARS);
        assert!(plan.validate().is_ok());
        plan.prompt.push('字');
        let errors = plan.validate().unwrap_err();
        assert!(errors[0].message.starts_with("is 20001 characters"));
    }

    #[test]
    fn defaults_warn_that_the_prompt_may_be_cached_and_the_run_misses_a_period() {
        let kinds: Vec<WarningKind> = valid_plan().warnings().iter().map(|w| w.kind).collect();
        assert_eq!(
            kinds,
            vec![
                WarningKind::MissesAPeriod,
                WarningKind::FixedPromptMayBeCached
            ]
        );
        // 15 h of off-peak hours (18:00–09:00) are the longer period.
        let spread = Plan {
            nonce: true,
            spread_hours: Some(15.0),
            spacing_s: 0.0,
            ..valid_plan()
        };
        assert_eq!(spread.warnings(), vec![]);
        let short = Plan {
            nonce: true,
            spread_hours: Some(14.0),
            spacing_s: 0.0,
            ..valid_plan()
        };
        let warnings = short.warnings();
        assert_eq!(warnings.len(), 1);
        assert_eq!(
            warnings[0].message,
            "the run lasts about 14 h, so it can miss either peak (9:00–18:00) or off-peak hours \
             altogether and cannot compare them; spread it over at least 15 h to see both"
        );
        // No peak hours, nothing to miss.
        let no_peak = Plan {
            nonce: true,
            peak_hours: [7, 7],
            ..valid_plan()
        };
        assert_eq!(no_peak.warnings(), vec![]);
    }

    #[test]
    fn peak_tz_is_an_offset_or_an_iana_name() {
        let mut plan = valid_plan();
        for good in ["Asia/Shanghai", "+08:00", "UTC-5"] {
            plan.peak_tz = Some(good.to_owned());
            assert!(plan.validate().is_ok(), "{good}");
        }
        plan.peak_tz = Some("Mars/Olympus Mons".to_owned());
        let errors = plan.validate().unwrap_err();
        assert_eq!(errors[0].field, "peak_tz");
        // Left out when not set, so older plans and links are unchanged.
        plan.peak_tz = None;
        assert!(!crate::core::document::to_string(&plan).contains("peak_tz"));
        let read = Plan::from_json(&crate::core::document::to_string(&plan).replace(
            "\"peak_hours\"",
            "\"peak_tz\":\"Europe/Paris\",\"peak_hours\"",
        ))
        .unwrap();
        assert_eq!(read.peak_tz.as_deref(), Some("Europe/Paris"));
    }

    #[test]
    fn small_values_warn_but_validate() {
        let mut plan = valid_plan();
        plan.targets[1].label = "A".to_owned();
        plan.requests_per_target = 20;
        plan.warmup_per_target = 0;
        plan.spacing_s = 0.5;
        plan.jitter_s = 0.1;
        plan.timeout_s = 10.0;
        plan.temperature = 0.7;
        assert!(plan.validate().is_ok());
        let warnings = plan.warnings();
        let kinds: Vec<WarningKind> = warnings.iter().map(|w| w.kind).collect();
        use WarningKind::*;
        assert_eq!(
            kinds,
            vec![
                DuplicateLabel,
                FewRequests,
                NoWarmup,
                TightSpacing,
                ShortTimeout,
                MissesAPeriod,
                NonZeroTemperature,
                FixedPromptMayBeCached
            ]
        );
        assert_eq!(warnings[7].field, "nonce");
        plan.nonce = true;
        assert_eq!(plan.warnings().len(), 7, "a nonce keeps the cache out");
        plan.nonce = false;
        plan.targets.retain(|t| t.protocol == Protocol::Demo);
        assert!(
            !plan
                .warnings()
                .iter()
                .any(|w| w.kind == FixedPromptMayBeCached),
            "the demo provider has no cache"
        );
        // 0.95^20 = 0.358…: the tail leaves no sample 36 % of the time.
        assert!(
            warnings[1].message.contains("36 %"),
            "{}",
            warnings[1].message
        );
        assert!(warnings[1].message.starts_with(
            "cold starts may not show: with fewer than 75 requests a 1-in-20 tail is often missed"
        ));
        assert!(warnings[4].message.contains("cold starts last 10–90 s"));
        assert_eq!(warnings[0].field, "targets[1].label");
    }

    #[test]
    fn spread_with_spacing_warns_which_wins() {
        let mut plan = valid_plan();
        plan.nonce = true;
        plan.spread_hours = Some(2.0);
        let warnings = plan.warnings();
        assert_eq!(warnings.len(), 2);
        assert_eq!(warnings[0].kind, WarningKind::SpreadOverridesSpacing);
        assert_eq!(warnings[1].kind, WarningKind::MissesAPeriod);
        // 7200 s / 204 requests = 35.294 s.
        assert!(
            warnings[0]
                .message
                .contains("every 35.294 s, not every 5 s")
        );
        plan.spacing_s = 0.0;
        let kinds: Vec<WarningKind> = plan.warnings().iter().map(|w| w.kind).collect();
        assert_eq!(
            kinds,
            vec![WarningKind::MissesAPeriod],
            "2 h see one period"
        );
    }

    #[test]
    fn json_round_trip() {
        let mut plan = valid_plan();
        plan.spread_hours = Some(3.0);
        plan.spacing_s = 0.0;
        plan.targets[0].provider = Some("openai".to_owned());
        assert_eq!(Plan::from_json(&plan.to_json_pretty()), Ok(plan));
    }

    #[test]
    fn link_round_trip_with_and_without_hash() {
        let plan = valid_plan();
        let fragment = plan.to_link_fragment();
        let payload = fragment.strip_prefix("plan=").unwrap();
        assert!(!payload.contains(['=', '+', '/']), "{payload}");
        assert_eq!(Plan::from_link_fragment(&fragment), Ok(plan.clone()));
        assert_eq!(
            Plan::from_link_fragment(&format!("#{fragment}")),
            Ok(plan.clone())
        );
        assert_eq!(
            Plan::from_link_fragment(&format!("#lang=zh&{fragment}")),
            Ok(plan)
        );
    }

    #[test]
    fn link_payload_is_the_compact_json() {
        let plan = valid_plan();
        let fragment = plan.to_link_fragment();
        let bytes = base64::Engine::decode(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD,
            fragment.trim_start_matches("plan="),
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(bytes).unwrap(),
            document::to_string(&plan)
        );
    }

    #[test]
    fn bad_links_are_refused_clearly() {
        let err = Plan::from_link_fragment("#plan=@@not-base64@@").unwrap_err();
        assert!(
            matches!(&err, PlanError::Link(m) if m.contains("not valid base64url")),
            "{err}"
        );
        let err = Plan::from_link_fragment("#results=abc").unwrap_err();
        assert!(
            matches!(&err, PlanError::Link(m) if m.contains("no plan")),
            "{err}"
        );
        let not_utf8 = base64::Engine::encode(&LINK_ENGINE, [0xff, 0xfe]);
        let err = Plan::from_link_fragment(&format!("plan={not_utf8}")).unwrap_err();
        assert!(
            matches!(&err, PlanError::Link(m) if m.contains("UTF-8")),
            "{err}"
        );
        let not_json = base64::Engine::encode(&LINK_ENGINE, "{nope");
        assert!(matches!(
            Plan::from_link_fragment(&format!("plan={not_json}")),
            Err(PlanError::Json { .. })
        ));
    }

    #[test]
    fn plans_have_no_key_field() {
        let json = valid_plan().to_json_pretty().to_ascii_lowercase();
        assert!(!json.contains("key"), "{json}");
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("modle", "model"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("spacing_s", "spacing_s"), 0);
    }

    #[test]
    fn the_documented_example_and_link_agree() {
        let doc = include_str!("../../docs/plan.md");
        let json_start = doc.find("```json\n").unwrap() + "```json\n".len();
        let json = &doc[json_start..json_start + doc[json_start..].find("```").unwrap()];
        let link = doc.lines().find(|l| l.starts_with("#plan=")).unwrap();
        let plan = Plan::from_json(json).unwrap();
        assert_eq!(plan.targets.len(), 2);
        // The defaults: a run of minutes sees one period of the day, and a
        // fixed prompt may be cached.
        let kinds: Vec<WarningKind> = plan.warnings().iter().map(|w| w.kind).collect();
        assert_eq!(
            kinds,
            vec![
                WarningKind::MissesAPeriod,
                WarningKind::FixedPromptMayBeCached
            ]
        );
        assert_eq!(Plan::from_link_fragment(link), Ok(plan.clone()));
        assert_eq!(format!("#{}", plan.to_link_fragment()), link);
    }

    proptest! {
        #[test]
        fn valid_plans_survive_json_and_links(
            requests in 1u32..2000,
            warmup in 0u32..=1000,
            spacing in 0.0f64..600.0,
            jitter_share in 0.0f64..0.49,
            timeout in 0.1f64..1000.0,
            max_tokens in 1u32..=65536,
            temperature in 0.0f64..=2.0,
            label in "[a-zA-Z0-9 ·中文]{1,20}",
        ) {
            let mut plan = valid_plan();
            plan.requests_per_target = requests;
            plan.warmup_per_target = warmup;
            plan.spacing_s = (spacing * 1000.0).round() / 1000.0;
            plan.jitter_s = (plan.spacing_s * jitter_share * 1000.0).floor() / 1000.0;
            plan.timeout_s = (timeout * 1000.0).round() / 1000.0;
            plan.max_tokens = max_tokens;
            // Three decimals, as a person types them: serde_json reads those
            // back exactly (its default float parser is not exact at 17 digits).
            plan.temperature = (temperature * 1000.0).round() / 1000.0;
            plan.targets[0].label = label;
            plan.normalise();
            prop_assume!(!plan.targets[0].label.is_empty());
            prop_assert_eq!(plan.validate(), Ok(()));
            prop_assert_eq!(Plan::from_json(&plan.to_json_pretty()), Ok(plan.clone()));
            prop_assert_eq!(Plan::from_link_fragment(&plan.to_link_fragment()), Ok(plan));
        }

        #[test]
        fn arbitrary_text_never_panics(text in ".{0,200}") {
            let _ = Plan::from_json(&text);
            let _ = Plan::from_link_fragment(&text);
        }
    }
}
