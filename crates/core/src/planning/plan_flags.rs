//! A plan from a few words: `PROVIDER:MODEL[@BASE_URL]` targets and the
//! numbers a person would type on a command line, made into the same plan
//! document the page's form makes, and read back through the one plan
//! reader ([`Plan::from_json`]), so the flags can never build a plan the
//! page would refuse or read differently.
//!
//! The decisions live here, not in the runner: how a target is spelled
//! (the provider is what comes before the first `:`, the base URL an `@`
//! followed by a scheme, so model names keep their own `:`, `/` and `@`:
//! `ollama:qwen3:8b`, `together:deepseek-ai/DeepSeek-V3`, the mock's
//! `custom:fixed@200@http://127.0.0.1:8000/v1`), what each target is
//! called (the page's label, "{preset} · {model}", and " · {host}" after it when a preset is pointed at another host), the method's defaults
//! (100 requests, 2 warm-ups, 5 s spacing with jitter, 120 s timeout, a
//! nonce against prompt caches), and what happens to a jitter too wide for
//! its spacing: it is narrowed to fit, with a note, rather than refused.

use crate::planning::plan::{DEFAULT_PROMPT, FidelityPlan, Plan, PlanError, Target};
use crate::planning::plan::{JITTER_SHARE_OF_SPACING, fitted_jitter};
use crate::planning::presets::{PRESETS, Preset, place, preset_by_id};

/// The schemes that start a base URL inside a target spec, after its `@`.
const URL_SCHEMES: [&str; 3] = ["http://", "https://", "demo://"];

/// One `--target`, as read: which preset, which model, which base URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetSpec {
    /// The preset (`custom` for any OpenAI-compatible server).
    pub preset: &'static Preset,
    /// The model name, as the provider spells it (may hold `:`, `/`, `@`).
    pub model: String,
    /// The base URL given after `@`; `None` for the preset's own.
    pub base_url: Option<String>,
}

/// Why a `--target` could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetSpecError {
    /// No `:` between a provider and a model.
    NoProvider {
        /// The spec as given.
        spec: String,
    },
    /// The provider is not a preset's id.
    UnknownProvider {
        /// The provider as given.
        provider: String,
        /// The closest preset id, when one is close.
        closest: Option<&'static str>,
    },
    /// Nothing between the `:` and the `@` (or the end).
    NoModel {
        /// The spec as given.
        spec: String,
    },
    /// `custom` with no `@BASE_URL`: it names no server.
    CustomNeedsUrl {
        /// The spec as given.
        spec: String,
    },
    /// `custom` with an `@` followed by a host but no scheme
    /// (`custom:m@localhost:8000/v1`): the server is named, its scheme is
    /// missing.
    UrlWithoutScheme {
        /// The spec as given.
        spec: String,
        /// What follows the `@`.
        url: String,
    },
}

impl std::fmt::Display for TargetSpecError {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoProvider { spec } => write!(
                f,
                "{spec:?}: expected PROVIDER:MODEL[@BASE_URL], e.g. openai:gpt-4o-mini or \
                 custom:my-model@http://localhost:8000/v1"
            ),
            Self::UnknownProvider { provider, closest } => {
                write!(f, "{provider:?} is not a provider")?;
                if let Some(closest) = closest {
                    write!(f, " (did you mean {closest}?)")?;
                }
                write!(
                    f,
                    "; `firsttoken providers` lists them, and custom:MODEL@BASE_URL names any \
                     OpenAI-compatible server"
                )
            }
            Self::NoModel { spec } => write!(
                f,
                "{spec:?}: no model after the provider, e.g. {}:MODEL",
                spec.split(':').next().unwrap_or_default()
            ),
            Self::CustomNeedsUrl { spec } => write!(
                f,
                "{spec:?}: custom needs the server's base URL, e.g. \
                 custom:my-model@http://localhost:8000/v1"
            ),
            Self::UrlWithoutScheme { spec, url } => {
                let model = spec
                    .trim()
                    .split_once(':')
                    .map_or("", |(_, rest)| rest)
                    .strip_suffix(url.as_str())
                    .unwrap_or_default();
                write!(
                    f,
                    "{spec:?}: the base URL {url:?} has no scheme: add http:// or https://, \
                     e.g. custom:{model}http://{url}"
                )
            }
        }
    }
}

impl std::error::Error for TargetSpecError {}

impl TargetSpec {
    /// Reads `PROVIDER:MODEL[@BASE_URL]`.
    ///
    /// The provider is what comes before the first `:`; the base URL starts
    /// at the first `@` followed by `http://` or `https://` (or `demo://`
    /// for the demo), so a model name keeps every other `:`, `/` and `@`.
    ///
    /// # Errors
    /// [`TargetSpecError`]: no provider, an unknown one, no model, or
    /// `custom` without a base URL. The base URL itself is checked with the
    /// rest of the plan.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn parse(spec: &str) -> Result<Self, TargetSpecError> {
        let trimmed = spec.trim();
        let Some((provider, rest)) = trimmed.split_once(':') else {
            return Err(TargetSpecError::NoProvider {
                spec: spec.to_owned(),
            });
        };
        let provider = provider.trim();
        let Some(preset) = preset_by_id(&provider.to_ascii_lowercase()) else {
            return Err(TargetSpecError::UnknownProvider {
                provider: provider.to_owned(),
                closest: closest_preset(provider),
            });
        };
        let (model, base_url) = match url_start(rest) {
            Some(at) => (
                rest.get(..at).unwrap_or_default(),
                rest.get(at + 1..).map(str::to_owned),
            ),
            None => (rest, None),
        };
        let model = model.trim();
        if model.is_empty() {
            return Err(TargetSpecError::NoModel {
                spec: spec.to_owned(),
            });
        }
        if preset.base_url.is_empty() && base_url.is_none() {
            return Err(match host_without_scheme(rest) {
                Some(url) => TargetSpecError::UrlWithoutScheme {
                    spec: spec.to_owned(),
                    url: url.to_owned(),
                },
                None => TargetSpecError::CustomNeedsUrl {
                    spec: spec.to_owned(),
                },
            });
        }
        Ok(Self {
            preset,
            model: model.to_owned(),
            base_url,
        })
    }

    /// The plan's target: the preset's protocol, the given base URL or the
    /// preset's, and the page's label. `custom` is written without a
    /// `provider`, as the page's form writes it.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn to_target(&self) -> Target {
        Target {
            label: self.preset.label_at(
                &self.model,
                self.base_url.as_deref().unwrap_or(self.preset.base_url),
            ),
            protocol: self.preset.protocol,
            base_url: self
                .base_url
                .clone()
                .unwrap_or_else(|| self.preset.base_url.to_owned()),
            model: self.model.clone(),
            provider: (self.preset.id != "custom").then(|| self.preset.id.to_owned()),
            price: None,
            openrouter_provider: None,
        }
    }
}

/// Where the base URL's `@` is in `MODEL[@BASE_URL]`: the first `@`
/// followed by a scheme.
#[cfg_attr(target_arch = "wasm32", inline)]
fn url_start(rest: &str) -> Option<usize> {
    rest.match_indices('@').map(|(at, _)| at).find(|&at| {
        let after = rest.get(at + 1..).unwrap_or_default().to_ascii_lowercase();
        URL_SCHEMES.iter().any(|scheme| after.starts_with(scheme))
    })
}

/// What follows the last `@` of `MODEL@…` when it reads as a server
/// written without its scheme (`localhost:8000/v1`, `gpu-box/v1`,
/// `10.0.0.5:8000`): a host with a port, a path or a dot. A model's own
/// `@` (`fixed@200`) is followed by none of them.
#[cfg_attr(target_arch = "wasm32", inline)]
fn host_without_scheme(rest: &str) -> Option<&str> {
    let (_, after) = rest.rsplit_once('@')?;
    let after = after.trim();
    let host = after.split('/').next().unwrap_or_default();
    let looks_like_server = !host.is_empty()
        && !after.contains("://")
        && (after.contains('/') || host.contains(':') || host.contains('.'));
    looks_like_server.then_some(after)
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn closest_preset(provider: &str) -> Option<&'static str> {
    let provider = provider.to_ascii_lowercase();
    PRESETS
        .iter()
        .map(|preset| {
            (
                crate::planning::plan::edit_distance(&provider, preset.id),
                preset.id,
            )
        })
        .filter(|(distance, _)| *distance <= 2)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, id)| id)
}

/// The plan's numbers as a command line gives them; `None` (or the
/// [`Default`]) for the method's defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanFlags {
    /// The targets, in order.
    pub targets: Vec<TargetSpec>,
    /// Measured requests per target (default 100).
    pub requests_per_target: u32,
    /// Warm-up requests per target (default 2).
    pub warmup_per_target: u32,
    /// Seconds between sends (default 5).
    pub spacing_s: f64,
    /// ± seconds each send moves; `None` for a fifth of the spacing (of
    /// the spread's spacing when one is set), as the page's 1 s on 5 s.
    pub jitter_s: Option<f64>,
    /// Spread the run over this many hours instead of `spacing_s`.
    pub spread_hours: Option<f64>,
    /// Seconds to wait for a first token (default 120).
    pub timeout_s: f64,
    /// The prompt; `None` for the fixed default.
    pub prompt: Option<String>,
    /// Open every prompt with a per-request nonce (default on).
    pub nonce: bool,
    /// Upper bound on the reply's length; `None` for the plan's default.
    pub max_tokens: Option<u32>,
    /// Add the fidelity check: `basic-1` twice, against the first target,
    /// as the page's box does.
    pub fidelity: bool,
    /// Idle gaps to measure, seconds; `None` for none.
    pub idle_gaps_s: Option<Vec<f64>>,
    /// Stop when decided which target is faster, `requests_per_target`
    /// being the cap (the plan's `until_decided`).
    pub until_decided: bool,
    /// The floor before a decision may stop the run; `None` for 75.
    pub min_requests_per_target: Option<u32>,
    /// Also ask whether each pair is equivalent within this many percent
    /// (the plan's `equivalent_within_pct`).
    pub equivalent_within_pct: Option<f64>,
}

impl Default for PlanFlags {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn default() -> Self {
        let plan = Plan::default();
        Self {
            targets: Vec::new(),
            requests_per_target: plan.requests_per_target,
            warmup_per_target: plan.warmup_per_target,
            spacing_s: plan.spacing_s,
            jitter_s: None,
            spread_hours: None,
            timeout_s: plan.timeout_s,
            prompt: None,
            nonce: true,
            max_tokens: None,
            fidelity: false,
            idle_gaps_s: None,
            until_decided: false,
            min_requests_per_target: None,
            equivalent_within_pct: None,
        }
    }
}

/// Something the flags' plan changed or chose, said beside it.
#[derive(Clone, Debug, PartialEq)]
pub enum PlanNote {
    /// The jitter asked for (or the default) was not under half the
    /// spacing; it was narrowed to `fitted_s`.
    JitterFitted {
        /// The jitter asked for, s.
        asked_s: f64,
        /// The jitter in the plan, s.
        fitted_s: f64,
        /// The spacing between sends, s (from the spread when one is set).
        spacing_s: f64,
    },
    /// Two targets had the same label; a later one was told apart by its
    /// host (and a number when that was not enough).
    LabelNumbered {
        /// The label as numbered.
        label: String,
    },
}

impl std::fmt::Display for PlanNote {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::JitterFitted {
                asked_s,
                fitted_s,
                spacing_s,
            } => write!(
                f,
                "a jitter of {} s does not fit a spacing of {} s (it must stay under half of \
                 it): the plan uses ± {} s",
                round3(*asked_s),
                round3(*spacing_s),
                round3(*fitted_s)
            ),
            Self::LabelNumbered { label } => {
                write!(f, "two targets had the same label: one is called '{label}'")
            }
        }
    }
}

/// A plan made from flags, and what was changed to make it.
#[derive(Clone, Debug, PartialEq)]
pub struct FlagPlan {
    /// The plan, as [`Plan::from_json`] read it.
    pub plan: Plan,
    /// What was fitted or renamed on the way.
    pub notes: Vec<PlanNote>,
}

impl PlanFlags {
    /// Builds the plan: the targets with the page's labels (a repeated
    /// label numbered, so the fidelity reference and the tables can tell
    /// them apart), the numbers, a jitter that fits the spacing, then the
    /// whole document through [`Plan::from_json`].
    ///
    /// # Errors
    /// The plan reader's [`PlanError`], one message per bad field (a bad
    /// base URL is `targets[N].base_url`).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn build(&self) -> Result<FlagPlan, PlanError> {
        let mut notes = Vec::new();
        let mut targets: Vec<Target> = Vec::with_capacity(self.targets.len());
        for spec in &self.targets {
            let mut target = spec.to_target();
            if targets.iter().any(|t| t.label == target.label) {
                // Told apart by where they are first, then by number.
                target.label = format!("{} · {}", target.label, place(&target.base_url));
                let base = target.label.clone();
                let mut n = 2;
                while targets.iter().any(|t| t.label == target.label) {
                    target.label = format!("{base} ({n})");
                    n += 1;
                }
                notes.push(PlanNote::LabelNumbered {
                    label: target.label.clone(),
                });
            }
            targets.push(target);
        }
        let defaults = Plan::default();
        let fidelity = self
            .fidelity
            .then(|| FidelityPlan::basic(targets.first().map(|t| t.label.clone())));
        let mut plan = Plan {
            targets,
            requests_per_target: self.requests_per_target,
            warmup_per_target: self.warmup_per_target,
            spacing_s: self.spacing_s,
            jitter_s: 0.0,
            spread_hours: self.spread_hours,
            timeout_s: self.timeout_s,
            prompt: self
                .prompt
                .clone()
                .unwrap_or_else(|| DEFAULT_PROMPT.to_owned()),
            nonce: self.nonce,
            max_tokens: self.max_tokens.unwrap_or(defaults.max_tokens),
            fidelity,
            idle_gaps_s: self.idle_gaps_s.clone(),
            until_decided: self.until_decided,
            min_requests_per_target: self.min_requests_per_target,
            equivalent_within_pct: self.equivalent_within_pct,
            ..defaults
        };
        let spacing_s = plan.effective_spacing_s();
        // The default is the page's share of whatever spacing the run
        // has, so it fits without a word; a typed one that does not fit
        // is narrowed, and said.
        let asked_s = self.jitter_s.unwrap_or_else(|| {
            (JITTER_SHARE_OF_SPACING * spacing_s.max(0.0) * 1000.0).floor() / 1000.0
        });
        plan.jitter_s = asked_s;
        if let Some(fitted_s) = fitted_jitter(asked_s, spacing_s) {
            plan.jitter_s = fitted_s;
            notes.push(PlanNote::JitterFitted {
                asked_s,
                fitted_s,
                spacing_s,
            });
        }
        let plan = Plan::from_json(&plan.to_json_pretty())?;
        Ok(FlagPlan { plan, notes })
    }
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planning::plan::Protocol;

    fn spec(text: &str) -> TargetSpec {
        TargetSpec::parse(text).unwrap()
    }

    #[test]
    fn model_names_keep_their_colons_slashes_and_ats() {
        let ollama = spec("ollama:qwen3:8b");
        assert_eq!(ollama.preset.id, "ollama");
        assert_eq!(ollama.model, "qwen3:8b");
        assert_eq!(ollama.base_url, None);

        let together = spec("together:deepseek-ai/DeepSeek-V3");
        assert_eq!(together.model, "deepseek-ai/DeepSeek-V3");

        let mock = spec("custom:fixed@200@http://127.0.0.1:8123/v1");
        assert_eq!(mock.preset.id, "custom");
        assert_eq!(mock.model, "fixed@200");
        assert_eq!(mock.base_url.as_deref(), Some("http://127.0.0.1:8123/v1"));

        let at_only = spec("vllm:org/model@2024@HTTPS://gpu.example.com:8000/v1");
        assert_eq!(at_only.model, "org/model@2024");
        assert_eq!(
            at_only.base_url.as_deref(),
            Some("HTTPS://gpu.example.com:8000/v1")
        );

        let demo = spec("demo:demo-llm@demo://cold-tail");
        assert_eq!(demo.model, "demo-llm");
        assert_eq!(demo.base_url.as_deref(), Some("demo://cold-tail"));
    }

    #[test]
    fn a_bad_spec_says_what_to_write() {
        let error = TargetSpec::parse("gpt-4o").unwrap_err();
        assert!(error.to_string().contains("PROVIDER:MODEL"), "{error}");
        let error = TargetSpec::parse("opneai:gpt-4o").unwrap_err();
        assert_eq!(
            error,
            TargetSpecError::UnknownProvider {
                provider: "opneai".to_owned(),
                closest: Some("openai")
            }
        );
        assert!(
            error.to_string().contains("did you mean openai?"),
            "{error}"
        );
        let error = TargetSpec::parse("openai:@https://api.openai.com/v1").unwrap_err();
        assert!(matches!(error, TargetSpecError::NoModel { .. }), "{error}");
        let error = TargetSpec::parse("custom:llama").unwrap_err();
        assert!(error.to_string().contains("base URL"), "{error}");
    }

    #[test]
    fn a_server_without_its_scheme_is_told_to_add_one() {
        // The server is named; only its scheme is missing.
        for (given, url) in [
            ("custom:m@localhost:8000/v1", "localhost:8000/v1"),
            ("custom:m@gpu-box/v1", "gpu-box/v1"),
            ("custom:fixed@200@10.0.0.5:8000", "10.0.0.5:8000"),
        ] {
            let error = TargetSpec::parse(given).unwrap_err();
            assert_eq!(
                error,
                TargetSpecError::UrlWithoutScheme {
                    spec: given.to_owned(),
                    url: url.to_owned()
                }
            );
            let text = error.to_string();
            assert!(
                text.contains("has no scheme: add http:// or https://"),
                "{text}"
            );
            assert!(!text.contains("needs the server's base URL"), "{text}");
        }
        assert_eq!(
            TargetSpec::parse("custom:m@localhost:8000/v1")
                .unwrap_err()
                .to_string(),
            "\"custom:m@localhost:8000/v1\": the base URL \"localhost:8000/v1\" has no scheme: \
             add http:// or https://, e.g. custom:m@http://localhost:8000/v1"
        );
        // A model's own @ names no server: the base URL is missing.
        assert!(matches!(
            TargetSpec::parse("custom:fixed@200").unwrap_err(),
            TargetSpecError::CustomNeedsUrl { .. }
        ));
    }

    #[test]
    fn the_flags_build_the_page_s_plan_document() {
        let flags = PlanFlags {
            targets: vec![spec("deepseek:deepseek-chat"), spec("groq:llama-3.3-70b")],
            ..PlanFlags::default()
        };
        let built = flags.build().unwrap();
        assert!(built.notes.is_empty(), "{:?}", built.notes);
        let plan = built.plan;
        assert_eq!(plan.requests_per_target, 100);
        assert_eq!(plan.warmup_per_target, 2);
        assert_eq!(plan.spacing_s, 5.0);
        assert_eq!(plan.jitter_s, 1.0);
        assert_eq!(plan.timeout_s, 120.0);
        assert!(plan.nonce);
        assert_eq!(plan.prompt, DEFAULT_PROMPT);
        let deepseek = preset_by_id("deepseek").unwrap();
        assert_eq!(
            plan.targets[0].label,
            format!("{} · deepseek-chat", deepseek.name)
        );
        assert_eq!(plan.targets[0].base_url, deepseek.base_url);
        assert_eq!(plan.targets[0].provider.as_deref(), Some("deepseek"));
        // The document reads back, from a file or a link, as the same plan.
        assert_eq!(Plan::from_json(&plan.to_json_pretty()).unwrap(), plan);
        assert_eq!(
            Plan::from_link_fragment(&plan.to_link_fragment()).unwrap(),
            plan
        );
    }

    #[test]
    fn custom_is_written_without_a_provider_and_its_url_is_normalised() {
        let flags = PlanFlags {
            targets: vec![spec("custom:m@http://localhost:8000/v1/")],
            ..PlanFlags::default()
        };
        let plan = flags.build().unwrap().plan;
        assert_eq!(plan.targets[0].provider, None);
        assert_eq!(plan.targets[0].base_url, "http://localhost:8000/v1");
        assert_eq!(plan.targets[0].protocol, Protocol::OpenAi);
    }

    #[test]
    fn a_jitter_that_does_not_fit_is_narrowed_with_a_note() {
        // The default jitter follows a short spacing without a word.
        let flags = PlanFlags {
            targets: vec![spec("demo:demo-llm")],
            spacing_s: 0.3,
            ..PlanFlags::default()
        };
        let built = flags.build().unwrap();
        assert_eq!(built.plan.jitter_s, 0.06);
        assert!(built.notes.is_empty());
        // A typed jitter that is too wide is fitted and said.
        let flags = PlanFlags {
            jitter_s: Some(1.0),
            ..flags
        };
        let built = flags.build().unwrap();
        assert_eq!(built.plan.jitter_s, 0.06);
        assert_eq!(
            built.notes,
            [PlanNote::JitterFitted {
                asked_s: 1.0,
                fitted_s: 0.06,
                spacing_s: 0.3
            }]
        );
        assert!(
            built.notes[0].to_string().contains("± 0.06 s"),
            "{}",
            built.notes[0]
        );
        // No spacing: no jitter.
        assert_eq!(fitted_jitter(1.0, 0.0), Some(0.0));
        assert_eq!(fitted_jitter(0.5, 5.0), None);
        // A spread's spacing is the one fitted to: 100 requests over 36 s.
        let flags = PlanFlags {
            targets: vec![spec("demo:demo-llm")],
            requests_per_target: 98,
            spread_hours: Some(0.01),
            ..PlanFlags::default()
        };
        let built = flags.build().unwrap();
        assert_eq!(built.plan.jitter_s, 0.072);
        assert!(built.notes.is_empty());
        let built = PlanFlags {
            jitter_s: Some(1.0),
            ..flags
        }
        .build()
        .unwrap();
        assert_eq!(built.plan.jitter_s, 0.072);
        assert!(matches!(built.notes[..], [PlanNote::JitterFitted { .. }]));
    }

    #[test]
    fn fitted_jitters_always_pass_the_plan_rule() {
        for spacing_ms in 0..3000 {
            let spacing_s = f64::from(spacing_ms) / 1000.0;
            let flags = PlanFlags {
                targets: vec![spec("demo:demo-llm")],
                spacing_s,
                jitter_s: Some(10.0),
                ..PlanFlags::default()
            };
            assert!(flags.build().is_ok(), "{spacing_s}");
        }
    }

    #[test]
    fn repeated_labels_are_numbered_and_the_fidelity_reference_is_the_first() {
        let flags = PlanFlags {
            targets: vec![
                spec("custom:m@http://localhost:8000/v1"),
                spec("custom:m@http://localhost:8001/v1"),
                spec("custom:m@http://localhost:8001/v1/"),
                spec("demo:m@demo://cold-tail"),
                spec("demo:m@demo://steady"),
            ],
            fidelity: true,
            ..PlanFlags::default()
        };
        let built = flags.build().unwrap();
        let labels: Vec<&str> = built
            .plan
            .targets
            .iter()
            .map(|t| t.label.as_str())
            .collect();
        assert_eq!(
            labels,
            [
                "Custom OpenAI-compatible · m",
                "Custom OpenAI-compatible · m · localhost:8001",
                "Custom OpenAI-compatible · m · localhost:8001 (2)",
                "Demo (built in) · m",
                "Demo (built in) · m · steady",
            ]
        );
        assert_eq!(built.notes.len(), 3);
        // A preset pointed at another host names it.
        let flags = PlanFlags {
            targets: vec![
                spec("openai:gpt-4o-mini@http://127.0.0.1:8787/v1"),
                spec("openai:gpt-4o-mini"),
            ],
            ..PlanFlags::default()
        };
        let elsewhere: Vec<String> = flags
            .build()
            .unwrap()
            .plan
            .targets
            .iter()
            .map(|t| t.label.clone())
            .collect();
        assert_eq!(
            elsewhere,
            [
                "OpenAI · gpt-4o-mini · 127.0.0.1:8787",
                "OpenAI · gpt-4o-mini"
            ]
        );
        assert_eq!(
            built.plan.fidelity,
            Some(FidelityPlan::basic(Some(labels[0].to_owned())))
        );
    }

    #[test]
    fn bad_numbers_and_urls_get_the_plan_reader_s_messages() {
        let flags = PlanFlags {
            targets: vec![spec("custom:m@http://user:secret@llm.example.com/v1")],
            requests_per_target: 0,
            timeout_s: -1.0,
            ..PlanFlags::default()
        };
        let messages = flags.build().unwrap_err().messages();
        let text = messages.join("\n");
        for field in ["targets[0].base_url", "requests_per_target", "timeout_s"] {
            assert!(text.contains(field), "{text}");
        }
        // No targets at all is the plan's own refusal.
        let error = PlanFlags::default().build().unwrap_err();
        assert!(error.to_string().contains("targets"), "{error}");
    }
}
