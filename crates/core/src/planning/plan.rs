//! The plan: what to measure and how, as the versioned JSON document users
//! save, load and share (`firsttoken_plan` version 1, see `docs/plan.md`).

use crate::base::lang::Lang;
use crate::words::plan_problem::field_problem;
pub use crate::words::plan_problem::{Found, Problem, Shape, UrlProblem};
use crate::words::refusal;
pub use crate::words::refusal::LinkProblem;
use serde::{Deserialize, Serialize};

use crate::base::document;
use crate::base::price::Price;
use crate::planning::fidelity::suite::Suite;

mod read;
mod rules;
mod sizes;
mod url;

pub(crate) use read::edit_distance;
pub use rules::{OverWindow, is_provider_slug};
pub use sizes::{cycle, requests_per_size};
pub use url::{check_base_url, normalise_base_url};

/// The plan document's version this build reads and writes.
pub const PLAN_VERSION: u32 = 1;

/// The short fixed prompt used unless the user gives their own.
pub(crate) const DEFAULT_PROMPT: &str =
    "Reply with one short sentence: what is the capital of France?";

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

/// What makes two targets the same thing to measure: the protocol, the base
/// URL and the model. The one rule both merges use: the page's import of
/// several results files and the dashboard's reading of published ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TargetIdentity<'a> {
    /// The protocol's name in plan documents (`"openai"`, …).
    pub protocol: &'a str,
    /// Endpoint base URL.
    pub base_url: &'a str,
    /// Model name as the provider spells it.
    pub model: &'a str,
}

impl Target {
    /// What makes this target the same as another ([`TargetIdentity`]).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn identity(&self) -> TargetIdentity<'_> {
        TargetIdentity {
            protocol: self.protocol.as_str(),
            base_url: &self.base_url,
            model: &self.model,
        }
    }
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
    /// Open every prompt with a per-request nonce, against prompt caching
    /// ([`crate::planning::prompt::request_nonce`]).
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
    /// zone of whoever runs the plan. See [`crate::judgement::timeofday::parse_peak_tz`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_tz: Option<String>,
    /// A TTFT budget, ms: the results say what share of requests met it
    /// (goodput) and the routing pick ranks by it. `None` (left out of the
    /// document) for no budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttft_budget_ms: Option<f64>,
    /// The fidelity check: probes sent on the same schedule, scored against
    /// a reference target ([`FidelityPlan`]). `None` (left out of the
    /// document) for latency only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fidelity: Option<FidelityPlan>,
    /// Input sizes to measure, tokens (`[128, 2048, 8192, 32768]`): each
    /// target sends a synthetic prompt of each size in turn
    /// ([`crate::planning::prompt`]), which measures TTFT by length and the
    /// provider's prefill speed. `None` (left out of the document) sends
    /// the plan's prompt alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_sizes: Option<Vec<u32>>,
    /// The input size the user's application typically sends, tokens: the
    /// routing table ranks by TTFT predicted at it. `None` (left out) for
    /// none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub typical_prompt_tokens: Option<u32>,
    /// After each first send of a long size, send the same prompt (same
    /// nonce) again at the target's next turn, to measure what the
    /// provider's prompt cache saves. Left out of the document when off.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prompt_cache_probe: bool,
    /// Idle times to measure, seconds (`[10, 60, 300, 900]`): before each
    /// measured request a target stays idle from this client for one of
    /// them, from the end of its previous request to the send, every gap
    /// equally often in a seeded shuffled order ([`crate::planning::schedule`]);
    /// the results say after how long idle it goes cold
    /// ([`crate::judgement::idle`]). `None` (left out of the document) for
    /// the plan's spacing alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle_gaps_s: Option<Vec<f64>>,
    /// The user's own typical time between requests to a model, seconds:
    /// the results give the cold share to expect there. `None` (left out)
    /// for none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub typical_gap_s: Option<f64>,
    /// What a dedicated endpoint of the model would cost, US dollars an
    /// hour: the results give the traffic above which it costs less than
    /// serverless requests kept warm. `None` (left out) for none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dedicated_usd_per_hour: Option<f64>,
    /// Stop as soon as the plan's question is decided: which target is
    /// faster, for every pair of targets, by anytime-valid tests checked
    /// after every pair of requests ([`crate::statistics::sequential`]).
    /// `requests_per_target` is then the cap. Left out of the document
    /// when off: such a plan runs exactly as before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub until_decided: bool,
    /// With `until_decided`, the least measured requests per target before
    /// a decision may stop the run; `None` (left out) for the method's 75
    /// ([`DECIDED_FLOOR`]), or the cap when that is lower.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_requests_per_target: Option<u32>,
    /// Objectives the run is judged by, each as `--fail-on` writes it
    /// (`"p95>2s"`, `"error_rate>2%"`, [`crate::planning::objectives`]).
    /// With `until_decided`, a TTFT quantile objective is a question for
    /// each target, decided as the run goes ("does it meet p95 under
    /// 2 s?"), and a target stops once its questions are; the others are
    /// judged at the run's end. Left out of the document when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objectives: Vec<String>,
    /// With `until_decided`, each pair of targets is also asked whether
    /// the two are equivalent within this many percent: whether a typical
    /// request to one takes between (100 − m) % and (100 + m) % of the
    /// time of the request beside it to the other, by the same
    /// anytime-valid range as "which is faster"
    /// ([`crate::wire::questions::Questions::equivalent`]). A pair is then
    /// decided once one is faster or the two are equivalent. 1 to 50; left
    /// out of the document when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equivalent_within_pct: Option<f64>,
}

/// The margins `equivalent_within_pct` accepts, percent: under 1 % no run
/// of a few hundred requests decides, and over 50 % is not "equivalent".
pub const EQUIVALENCE_PCT: (f64, f64) = (1.0, 50.0);

/// The least measured requests per target before a decided question may
/// stop a run, unless the plan says otherwise: the method's 75, which a
/// 1-in-20 cold-start tail needs.
pub const DECIDED_FLOOR: u32 = 75;

impl Plan {
    /// The least measured requests per target before a decided question
    /// may stop the run: the plan's `min_requests_per_target`, or 75, never
    /// above the cap.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn decided_floor(&self) -> u32 {
        self.min_requests_per_target
            .unwrap_or(DECIDED_FLOOR)
            .min(self.requests_per_target)
    }
}

/// The plan's `fidelity` member: which probe suite, how many times each
/// probe goes to each target, and the target the others are judged
/// against.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FidelityPlan {
    /// The versioned suite (`"basic-1"`).
    pub suite: Suite,
    /// Times each probe is sent to each target, 1 to [`MAX_FIDELITY_REPEATS`].
    pub repeats: u32,
    /// The label of the reference target; `null` for absolute rates only.
    #[serde(default)]
    pub reference: Option<String>,
}

impl FidelityPlan {
    /// `basic-1`, twice, against `reference`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn basic(reference: Option<String>) -> Self {
        Self {
            suite: Suite::Basic1,
            repeats: 2,
            reference,
        }
    }

    /// Probe requests per target.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn requests_per_target(&self) -> u32 {
        u32::try_from(self.suite.probes().len())
            .unwrap_or(u32::MAX)
            .saturating_mul(self.repeats)
    }
}

/// Upper bound on `fidelity.repeats`.
pub const MAX_FIDELITY_REPEATS: u32 = 10;

impl Default for Plan {
    #[cfg_attr(target_arch = "wasm32", inline)]
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
            fidelity: None,
            prompt_sizes: None,
            typical_prompt_tokens: None,
            prompt_cache_probe: false,
            idle_gaps_s: None,
            typical_gap_s: None,
            dedicated_usd_per_hour: None,
            until_decided: false,
            min_requests_per_target: None,
            objectives: Vec::new(),
            equivalent_within_pct: None,
        }
    }
}

/// Fewer measured requests than this and a 1-in-20 cold-start tail is often
/// missed entirely (see [`Plan::warnings`]).
pub const MIN_REQUESTS_FOR_TAIL: u32 = 75;

/// Upper bound on measured requests per target. A schedule holds every
/// request in memory; this keeps a mistyped plan from exhausting a tab.
pub(crate) const MAX_REQUESTS_PER_TARGET: u32 = 100_000;

/// Fewer measured requests than this per idle gap and a gap's cold share
/// is too loose to tell a rise (see [`Plan::warnings`]).
pub const MIN_REQUESTS_PER_GAP: u32 = 15;

/// Upper bound on the number of idle gaps.
pub const MAX_IDLE_GAPS: usize = 12;

/// Upper bound on one idle gap, and on `typical_gap_s`, seconds: a day.
pub const MAX_IDLE_GAP_S: f64 = 86_400.0;

/// Upper bound on `dedicated_usd_per_hour`: a typo guard.
pub const MAX_DEDICATED_USD_PER_HOUR: f64 = 10_000.0;

/// Upper bound on warm-up requests per target.
pub(crate) const MAX_WARMUP_PER_TARGET: u32 = 1000;

/// Upper bound on the prompt's length, in characters (Unicode scalar values).
pub(crate) const MAX_PROMPT_CHARS: usize = 20_000;

/// Upper bound on `max_tokens`.
pub(crate) const MAX_MAX_TOKENS: u32 = 65_536;

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
    /// A `#plan=` link with no plan, or whose payload is not
    /// base64url-encoded UTF-8.
    Link(LinkProblem),
}

impl std::fmt::Display for PlanError {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl std::error::Error for PlanError {}

impl PlanError {
    /// One line per problem: each bad field on its own, or the one reason.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn messages(&self) -> Vec<String> {
        self.messages_in(Lang::En)
    }

    /// [`Self::messages`] in `lang`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn messages_in(&self, lang: Lang) -> Vec<String> {
        match self {
            Self::Invalid(errors) => errors.iter().map(|e| e.text(lang)).collect(),
            other => vec![other.text(lang)],
        }
    }

    /// The whole refusal on one line, in `lang` (the English is the
    /// error's `Display`, the runner's words).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Self::Json {
                line,
                column,
                message,
            } => refusal::plan_not_json(lang, *line, *column, message),
            Self::NotAPlan => refusal::plan_not_a_plan(lang),
            Self::NewerVersion { found } => refusal::plan_newer(lang, *found, PLAN_VERSION),
            Self::BadVersion { found } => refusal::plan_bad_version(lang, found, PLAN_VERSION),
            Self::Invalid(_) => refusal::plan_bad_fields(lang, &self.messages_in(lang)),
            Self::Link(problem) => problem.text(lang),
        }
    }
}

/// One bad field: where it is (`targets[1].base_url`) and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    /// Path of the field in the plan document, e.g. `targets[1].base_url`.
    pub field: String,
    /// What is wrong; its words, in each language, are core's text.
    pub problem: Problem,
}

impl FieldError {
    /// `field` has `problem`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn new(field: impl Into<String>, problem: Problem) -> Self {
        Self {
            field: field.into(),
            problem,
        }
    }

    /// What is wrong and what would be accepted, in English (the runner's
    /// words and the documents' language).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn message(&self) -> String {
        self.problem.text(Lang::En)
    }

    /// "field: what is wrong" in `lang`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn text(&self, lang: Lang) -> String {
        field_problem(lang, &self.field, &self.problem)
    }
}

impl std::fmt::Display for FieldError {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
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
    /// Prompt sizes leave fewer than [`MIN_REQUESTS_FOR_TAIL`] requests per
    /// size.
    FewRequestsPerSize,
    /// Prompt sizes: what the long prompts' input tokens add up to.
    LongPromptsCost,
    /// A prompt size above a target's known context window: the provider
    /// will refuse it.
    OverContextWindow,
    /// Idle gaps leave fewer than [`MIN_REQUESTS_PER_GAP`] requests per gap.
    FewRequestsPerGap,
    /// Idle gaps with several targets: a request may wait for another
    /// target's request still running, past its gap.
    IdleGapsShared,
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

impl Plan {
    /// The plan as indented JSON, for saving to a file.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn to_json_pretty(&self) -> String {
        document::to_string_pretty(self)
    }

    /// Trims text fields and drops trailing slashes from base URLs, so that
    /// `"https://api.openai.com/v1/"` and `"https://api.openai.com/v1"` are one
    /// endpoint. Done by [`Plan::from_json`]; forms should call it too.
    #[cfg_attr(target_arch = "wasm32", inline)]
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

    /// Total requests in the run: (warm-ups + measured + fidelity probes)
    /// × targets.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn total_requests(&self) -> u64 {
        let probes = self
            .fidelity
            .as_ref()
            .map_or(0, FidelityPlan::requests_per_target);
        let per_target = u64::from(self.requests_per_target)
            + u64::from(self.warmup_per_target)
            + u64::from(probes);
        per_target * self.targets.len() as u64
    }

    /// Measured requests per target after each idle gap (the fewest, when
    /// the gaps do not divide them evenly); `None` without idle gaps.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn requests_per_gap(&self) -> Option<u32> {
        let gaps = self.idle_gaps_s.as_ref().filter(|g| !g.is_empty())?;
        Some(self.requests_per_target / u32::try_from(gaps.len()).unwrap_or(u32::MAX))
    }

    /// About how long the run lasts, seconds: every request at the
    /// spacing, or, for the built-in demo, at its replies' own mean length
    /// where that is longer ([`DEMO_REQUEST_MS`]: one request is in flight
    /// at a time, so a request longer than the spacing moves the next send;
    /// the default demo plan's 321 requests are spaced 0.25 s but take
    /// about 3 min, not 1); with idle gaps, the warm-ups and probes at the
    /// spacing and then each target's own gaps one after another (the
    /// targets wait their gaps side by side; the spacing does not hold a
    /// gap's request back). A
    /// real provider's request time is not known before the run, so not
    /// counted: [`Plan::duration_is_at_least`] says when that may matter.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn estimated_duration_s(&self) -> f64 {
        let spacing_s = self.effective_spacing_s();
        let probes = self
            .fidelity
            .as_ref()
            .map_or(0, FidelityPlan::requests_per_target);
        let latency_requests =
            f64::from(self.requests_per_target) + f64::from(self.warmup_per_target);
        let spaced: f64 = self
            .targets
            .iter()
            .map(|target| {
                let (request_s, probe_s) = demo_request_s(target).unwrap_or((0.0, 0.0));
                latency_requests * spacing_s.max(request_s)
                    + f64::from(probes) * spacing_s.max(probe_s)
            })
            .sum();
        let Some(gaps) = self.idle_gaps_s.as_ref().filter(|g| !g.is_empty()) else {
            return spaced;
        };
        // The spacing holds back only the warm-ups and the probes; each
        // target's measured requests wait their own gaps, side by side.
        let mean_gap_s = gaps.iter().sum::<f64>() / gaps.len() as f64;
        let targets = self.targets.len() as f64;
        let request_s = self
            .targets
            .iter()
            .filter_map(demo_request_s)
            .map(|(request_s, _)| request_s)
            .fold(0.0, f64::max);
        let spaced_ones = f64::from(self.warmup_per_target.saturating_add(probes)) * targets;
        spaced_ones * spacing_s + f64::from(self.requests_per_target) * (mean_gap_s + request_s)
    }

    /// Whether [`Plan::estimated_duration_s`] is only a lower bound worth
    /// saying as one: a target other than the demo, whose request time is
    /// not known before the run, with requests under a second apart, where
    /// requests may well take longer than the spacing.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn duration_is_at_least(&self) -> bool {
        self.effective_spacing_s() < 1.0
            && self.targets.iter().any(|t| t.protocol != Protocol::Demo)
    }

    /// Seconds between consecutive sends: `spacing_s`, or when `spread_hours`
    /// is set, hours × 3600 / total requests.
    #[cfg_attr(target_arch = "wasm32", inline)]
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
}

/// The built-in demo's replies, mean length per behaviour (request sent to
/// the stream's end), ms, over 4 000 replies each; checked against the
/// replies themselves by `wire::demo`'s
/// `the_plan_knows_the_demo_s_request_times`, which fails when a reply
/// changes and this table does not.
pub const DEMO_REQUEST_MS: [(&str, f64); 5] = [
    ("steady", 542.0),
    ("cold-tail", 1_052.0),
    ("reasoning", 1_356.0),
    ("degraded", 404.0),
    ("scale-to-zero", 593.0),
];

/// The demo's reply to a fidelity probe, mean length, ms (every behaviour
/// answers a probe alike).
pub const DEMO_PROBE_MS: f64 = 347.0;

/// A demo target's mean request and probe times, seconds; `None` for any
/// other target.
#[cfg_attr(target_arch = "wasm32", inline)]
fn demo_request_s(target: &Target) -> Option<(f64, f64)> {
    expected_request_s(target).map(|request_s| (request_s, DEMO_PROBE_MS / 1000.0))
}

/// How long one request of `target` is expected to take, s, where that is
/// known before the run (the built-in demo); `None` for a real provider.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn expected_request_s(target: &Target) -> Option<f64> {
    if target.protocol != Protocol::Demo {
        return None;
    }
    let behaviour = target
        .base_url
        .trim()
        .trim_start_matches("demo://")
        .split('/')
        .next()
        .unwrap_or_default();
    let (_, request_ms) = DEMO_REQUEST_MS
        .iter()
        .find(|(name, _)| *name == behaviour)?;
    Some(request_ms / 1000.0)
}

impl Protocol {
    /// Every protocol, in the order forms list them.
    pub const ALL: [Self; 4] = [Self::OpenAi, Self::Anthropic, Self::Gemini, Self::Demo];

    /// The name used in plan documents (serde's name for the variant).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::OpenAi => "openai",
            Self::Anthropic => "anthropic",
            Self::Gemini => "gemini",
            Self::Demo => "demo",
        }
    }
}

/// The share of the spacing a fitted (or defaulted) jitter takes: the
/// page's own ratio (1 s of jitter on 5 s of spacing).
pub(crate) const JITTER_SHARE_OF_SPACING: f64 = 0.2;

/// The jitter to use instead of `jitter_s` when it does not fit
/// `spacing_s` (the plan's rule: under half the spacing, and none without
/// a spacing); `None` when it fits, or when either figure is not a valid
/// number (the plan's own message then says what to fix).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn fitted_jitter(jitter_s: f64, spacing_s: f64) -> Option<f64> {
    if !jitter_s.is_finite() || jitter_s <= 0.0 || !spacing_s.is_finite() || spacing_s < 0.0 {
        return None;
    }
    if jitter_s < spacing_s / 2.0 {
        return None;
    }
    // Rounded down to a millisecond, so the written plan reads back under
    // the half-spacing limit.
    Some((spacing_s * JITTER_SHARE_OF_SPACING * 1000.0).floor() / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::read::{LINK_ENGINE, edit_distance};
    use super::*;
    use proptest::prelude::*;

    fn target(label: &str, protocol: Protocol, base_url: &str) -> Target {
        Target {
            protocol,
            ..Target::openai(label, base_url, "m")
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

    /// An equivalence margin is a percentage from 1 to 50, named by its
    /// member when refused.
    #[test]
    fn an_equivalence_margin_is_one_to_fifty_percent() {
        for (pct, ok) in [
            (1.0, true),
            (10.0, true),
            (50.0, true),
            (0.5, false),
            (60.0, false),
        ] {
            let plan = Plan {
                until_decided: true,
                equivalent_within_pct: Some(pct),
                ..valid_plan()
            };
            match plan.validate() {
                Ok(()) => assert!(ok, "{pct}"),
                Err(errors) => {
                    assert!(!ok, "{pct}");
                    assert_eq!(errors[0].field, "equivalent_within_pct");
                }
            }
        }
    }

    /// The page's default demo plan (three demo targets, 75 requests and
    /// 2 warm-ups each, 0.25 s apart, the fidelity check once) does not
    /// contradict itself: no "requests 0.25 s apart keep the server warm,
    /// so cold starts hide" beside a demo that shows them, and a duration
    /// that counts the replies' own length (about 3 min, as the run takes
    /// in the page: 180-195 s) rather than the spacing's 1 min.
    #[test]
    fn the_default_demo_plan_says_how_long_it_takes() {
        let demo = |label: &str, behaviour: &str| Target {
            provider: Some("demo".to_owned()),
            ..target(label, Protocol::Demo, &format!("demo://{behaviour}"))
        };
        let plan = Plan {
            targets: vec![
                demo("A", "steady"),
                demo("B", "cold-tail"),
                demo("C", "degraded"),
            ],
            requests_per_target: 75,
            warmup_per_target: 2,
            spacing_s: 0.25,
            jitter_s: 0.05,
            fidelity: Some(FidelityPlan {
                suite: crate::planning::fidelity::suite::Suite::Basic1,
                repeats: 1,
                reference: Some("A".to_owned()),
            }),
            ..Plan::default()
        };
        assert_eq!(plan.total_requests(), 321);
        let seconds = plan.estimated_duration_s();
        assert!((170.0..200.0).contains(&seconds), "{seconds} s");
        assert!(!plan.duration_is_at_least());
        let warnings = plan.warnings();
        assert!(
            warnings.iter().all(|w| w.kind != WarningKind::TightSpacing),
            "{warnings:?}"
        );
        let period = warnings
            .iter()
            .find(|w| w.kind == WarningKind::MissesAPeriod)
            .unwrap();
        assert!(
            period.message.starts_with("the run lasts about 3 min,"),
            "{}",
            period.message
        );
        let zh = crate::narrative::run_time::warning_text(Lang::ZhCn, &plan, period);
        assert!(zh.starts_with("这次运行约 3 分钟"), "{zh}");
        // A real provider at the same spacing: it may keep its server warm,
        // and its requests' time is not known, so the duration is a floor.
        let mut real = plan.clone();
        real.targets[1] = target("B", Protocol::OpenAi, "https://api.openai.com/v1");
        assert!(real.duration_is_at_least());
        let warnings = real.warnings();
        assert!(warnings.iter().any(|w| w.kind == WarningKind::TightSpacing));
        let period = warnings
            .iter()
            .find(|w| w.kind == WarningKind::MissesAPeriod)
            .unwrap();
        assert!(
            period.message.starts_with("the run lasts at least about"),
            "{}",
            period.message
        );
        // Three requests a second apart last seconds, said in seconds.
        let short = Plan {
            targets: vec![real.targets[1].clone()],
            requests_per_target: 3,
            warmup_per_target: 0,
            spacing_s: 1.0,
            ..Plan::default()
        };
        let warnings = short.warnings();
        let period = warnings
            .iter()
            .find(|w| w.kind == WarningKind::MissesAPeriod)
            .unwrap();
        let zh = crate::narrative::run_time::warning_text(Lang::ZhCn, &short, period);
        assert!(
            period.message.starts_with("the run lasts about 3 s,")
                && zh.starts_with("这次运行约 3 秒"),
            "{} / {zh}",
            period.message
        );
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
    fn the_fidelity_member_reads_writes_and_is_checked() {
        let mut plan = valid_plan();
        // Left out of the document when there is no check: older readers and
        // golden files see the plan they always saw.
        assert!(!plan.to_json_pretty().contains("fidelity"));
        plan.fidelity = Some(FidelityPlan::basic(Some("A".to_owned())));
        let text = plan.to_json_pretty();
        assert!(text.contains("\"suite\": \"basic-1\""), "{text}");
        assert_eq!(Plan::from_json(&text).unwrap(), plan);
        assert_eq!(plan.fidelity.as_ref().unwrap().requests_per_target(), 60);

        let errors = invalid(&text.replace("\"reference\": \"A\"", "\"reference\": \"Z\""));
        assert_eq!(fields(&errors), ["fidelity.reference"]);
        let errors = invalid(&text.replace("\"repeats\": 2", "\"repeats\": 0"));
        assert_eq!(fields(&errors), ["fidelity.repeats"]);
        let errors = invalid(&text.replace("\"basic-1\"", "\"basic-9\""));
        assert_eq!(fields(&errors), ["fidelity"]);
        let errors = invalid(&text.replace("\"repeats\": 2", "\"repeats\": 2, \"judge\": \"gpt\""));
        assert_eq!(fields(&errors), ["fidelity"]);
        // No reference: absolute rates only.
        let none = text.replace("\"reference\": \"A\"", "\"reference\": null");
        assert_eq!(
            Plan::from_json(&none).unwrap().fidelity.unwrap().reference,
            None
        );
    }

    /// The objectives are left out of a plan without them, read back as
    /// written, and each is checked as `--fail-on` checks it.
    #[test]
    fn objectives_read_write_and_are_checked() {
        let mut plan = valid_plan();
        assert!(!plan.to_json_pretty().contains("objectives"));
        plan.until_decided = true;
        plan.objectives = vec![
            "p95>2s".into(),
            "Median >= 800ms".into(),
            "errors>2%".into(),
        ];
        let text = plan.to_json_pretty();
        assert_eq!(Plan::from_json(&text).unwrap(), plan);
        let compact = crate::base::document::to_string(&plan);
        let errors = invalid(&compact.replace("\"errors>2%\"", "\"p95<2s\",\"cv>1\""));
        assert_eq!(fields(&errors), ["objectives[2]", "objectives[3]"]);
        assert_eq!(
            errors[0].message(),
            "is not an objective as --fail-on takes it, such as p95>2s or error_rate>2%"
        );
        assert!(errors[0].text(Lang::ZhCn).contains("达标条件"));
        let errors = invalid(&compact.replace(
            "[\"p95>2s\",\"Median >= 800ms\",\"errors>2%\"]",
            "\"p95>2s\"",
        ));
        assert_eq!(fields(&errors), ["objectives"]);
        assert_eq!(
            errors[0].message(),
            "expected a list of objectives such as [\"p95>2s\"], found \"p95>2s\""
        );
    }

    #[test]
    fn idle_gaps_read_write_and_are_checked() {
        let mut plan = valid_plan();
        // Left out of the document when not set: older plans and links
        // are written byte for byte as before.
        let text = plan.to_json_pretty();
        assert!(
            !text.contains("idle") && !text.contains("typical_gap") && !text.contains("dedicated")
        );
        assert_eq!(plan.requests_per_gap(), None);
        plan.idle_gaps_s = Some(vec![10.0, 60.0, 300.0, 900.0]);
        plan.typical_gap_s = Some(120.0);
        plan.dedicated_usd_per_hour = Some(2.5);
        let text = plan.to_json_pretty();
        assert_eq!(Plan::from_json(&text).unwrap(), plan);
        assert_eq!(plan.requests_per_gap(), Some(25));
        // 100 requests after gaps averaging 317.5 s: about 8.8 h.
        let hours = plan.estimated_duration_s() / 3600.0;
        assert!((8.8..8.9).contains(&hours), "{hours}");

        let compact = crate::base::document::to_string(&plan);
        let errors = invalid(&compact.replace("[10.0,60.0,300.0,900.0]", "[10,10]"));
        assert_eq!(fields(&errors), ["idle_gaps_s"]);
        for bad in [
            "[]",
            "[0]",
            "[-5]",
            "[86401]",
            "[1,2,3,4,5,6,7,8,9,10,11,12,13]",
        ] {
            let errors = invalid(&compact.replace("[10.0,60.0,300.0,900.0]", bad));
            assert_eq!(fields(&errors), ["idle_gaps_s"], "{bad}");
        }
        let errors = invalid(&compact.replace("[10.0,60.0,300.0,900.0]", "\"10,60\""));
        assert_eq!(
            errors[0].message(),
            "expected a list of idle times in seconds, such as [10, 60, 300, 900], or null, \
             found \"10,60\""
        );
        assert!(errors[0].text(Lang::ZhCn).contains("空闲时长"));
        let errors =
            invalid(&compact.replace("\"warmup_per_target\":2", "\"warmup_per_target\":0"));
        assert_eq!(fields(&errors), ["idle_gaps_s"]);
        assert!(
            errors[0].message().contains("at least one warm-up"),
            "{}",
            errors[0].message()
        );
        assert!(errors[0].text(Lang::ZhCn).contains("预热"));
        let errors = invalid(&compact.replace("\"typical_gap_s\":120.0", "\"typical_gap_s\":0"));
        assert_eq!(fields(&errors), ["typical_gap_s"]);
        let errors = invalid(&compact.replace(
            "\"dedicated_usd_per_hour\":2.5",
            "\"dedicated_usd_per_hour\":-1",
        ));
        assert_eq!(fields(&errors), ["dedicated_usd_per_hour"]);

        // Fewer than 15 requests per gap: a warning, in both languages.
        plan.requests_per_target = 40;
        let warning = plan
            .warnings()
            .into_iter()
            .find(|w| w.kind == WarningKind::FewRequestsPerGap)
            .unwrap();
        assert_eq!(warning.field, "idle_gaps_s");
        assert!(
            warning.message.contains("only 10 of a target's 40"),
            "{}",
            warning.message
        );
        let zh = crate::narrative::run_time::warning_text(Lang::ZhCn, &plan, &warning);
        assert!(zh.contains("10") && zh.contains("空闲时长"), "{zh}");
        plan.requests_per_target = 60;
        assert!(
            plan.warnings()
                .iter()
                .all(|w| w.kind != WarningKind::FewRequestsPerGap)
        );

        // The spacing spaces only the warm-ups with gaps: no "requests
        // 0.3 s apart keep the server warm" when each waits its gap.
        plan.spacing_s = 0.3;
        plan.jitter_s = 0.0;
        plan.targets = vec![
            Target::openai("A", "http://127.0.0.1:1", "m"),
            Target::openai("B", "http://127.0.0.1:1", "n"),
        ];
        let kinds: Vec<WarningKind> = plan.warnings().iter().map(|w| w.kind).collect();
        assert!(!kinds.contains(&WarningKind::TightSpacing), "{kinds:?}");
        // Two targets: the warning that a request can wait past its gap,
        // naming the shortest, in both languages.
        let shared = plan
            .warnings()
            .into_iter()
            .find(|w| w.kind == WarningKind::IdleGapsShared)
            .unwrap();
        assert!(
            shared.message.contains("with 2 targets"),
            "{}",
            shared.message
        );
        let zh = crate::narrative::run_time::warning_text(Lang::ZhCn, &plan, &shared);
        assert!(zh.contains("2 个目标"), "{zh}");
        plan.idle_gaps_s = None;
        let kinds: Vec<WarningKind> = plan.warnings().iter().map(|w| w.kind).collect();
        assert!(kinds.contains(&WarningKind::TightSpacing), "{kinds:?}");
        assert!(!kinds.contains(&WarningKind::IdleGapsShared), "{kinds:?}");
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
        let protocol = &errors[3].message();
        assert!(protocol.contains("\"grpc\""), "{protocol}");
        assert_eq!(
            protocol,
            "expected one of \"openai\", \"anthropic\", \"gemini\", \"demo\", found \"grpc\""
        );
        assert_eq!(errors[9].message(), "expected true or false, found \"yes\"");
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
        assert_eq!(errors[0].message(), "is missing");
        assert!(errors[1].message().contains("never carry keys"));
        assert!(
            errors[3].message().contains("did you mean \"model\""),
            "{}",
            errors[3].message()
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
        assert!(errors[0].message().contains("\"requests_per_target\""));
    }

    #[test]
    fn no_targets_is_refused() {
        let errors = invalid(r#"{"firsttoken_plan": 1}"#);
        assert_eq!(fields(&errors), vec!["targets"]);
        let errors = invalid(r#"{"firsttoken_plan": 1, "targets": {}}"#);
        assert_eq!(
            errors[0].message(),
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
        let creds = check_base_url(OpenAi, "https://user:sk-1@x.example/v1")
            .unwrap_err()
            .to_string();
        assert!(creds.contains("password"), "{creds}");
        let key = check_base_url(Gemini, "https://g.example/v1beta?key=AIza1")
            .unwrap_err()
            .to_string();
        assert!(key.contains("key="), "{key}");
        let key = check_base_url(OpenAi, "https://g.example/v1?a=1&API_KEY=x")
            .unwrap_err()
            .to_string();
        assert!(key.contains("key="), "{key}");
        let query = check_base_url(OpenAi, "https://g.example/v1?a=1")
            .unwrap_err()
            .to_string();
        assert!(query.contains("query"), "{query}");
    }

    #[test]
    fn a_host_without_its_scheme_is_told_to_add_one() {
        use Protocol::*;
        for url in ["localhost:8000/v1", "api.openai.com/v1", "gpu-box"] {
            assert_eq!(
                check_base_url(OpenAi, url),
                Err(UrlProblem::NoScheme),
                "{url}"
            );
        }
        // Another scheme is the other problem: it must start with one of ours.
        assert_eq!(
            check_base_url(OpenAi, "ftp://x.example"),
            Err(UrlProblem::Scheme)
        );
        for lang in [Lang::En, Lang::ZhCn] {
            let text = UrlProblem::NoScheme.text(lang);
            assert!(
                text.contains("https://") && text.contains("http://"),
                "{text}"
            );
        }
        assert!(UrlProblem::NoScheme.text(Lang::En).contains("add https://"));
        assert!(
            UrlProblem::NoScheme
                .text(Lang::ZhCn)
                .contains("加上 https://")
        );
    }

    #[test]
    fn jitter_must_stay_under_half_the_spacing() {
        let mut plan = valid_plan();
        plan.spacing_s = 4.0;
        plan.jitter_s = 2.0;
        let errors = plan.validate().unwrap_err();
        assert_eq!(fields(&errors), vec!["jitter_s"]);
        assert!(
            errors[0].message().contains("2 s with a spacing of 4 s"),
            "{}",
            errors[0].message()
        );
        plan.jitter_s = 1.999;
        assert!(plan.validate().is_ok());
        plan.spacing_s = 0.0;
        let errors = plan.validate().unwrap_err();
        assert!(errors[0].message().contains("jitter needs a spacing"));
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
                .message()
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
        assert!(errors[0].message().starts_with("is 20001 characters"));
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
        assert!(!crate::base::document::to_string(&plan).contains("peak_tz"));
        let read = Plan::from_json(&crate::base::document::to_string(&plan).replace(
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
            matches!(&err, PlanError::Link(LinkProblem::NotBase64(_)))
                && err.to_string().contains("not valid base64url"),
            "{err}"
        );
        let err = Plan::from_link_fragment("#results=abc").unwrap_err();
        assert!(
            matches!(&err, PlanError::Link(LinkProblem::NoPlan))
                && err.to_string().contains("no plan"),
            "{err}"
        );
        let not_utf8 = base64::Engine::encode(&LINK_ENGINE, [0xff, 0xfe]);
        let err = Plan::from_link_fragment(&format!("plan={not_utf8}")).unwrap_err();
        assert!(
            matches!(&err, PlanError::Link(LinkProblem::NotUtf8))
                && err.to_string().contains("UTF-8"),
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
        let doc = include_str!("../../../../docs/plan.md");
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
