//! Routing configs you can paste: the routing table turned into a LiteLLM
//! router config, OpenRouter provider preferences, and plain JSON for
//! scripts. Each carries its source run and never a key.
//!
//! **LiteLLM** (`router.yaml`). One deployment per measured, eligible target,
//! grouped by model (`model_name`: the model's grouping key). `order`
//! follows the routing table: the recommended target and the targets it
//! cannot be told apart from share order 1, where LiteLLM's
//! `latency-based-routing` picks among them by the p95 of the first-token
//! times it observes itself (`ttft_percentile: 0.95`, the statistic
//! FirstToken ranks by); the others are fallbacks at order 2, 3, …, used
//! when every deployment of a lower order is cooling down after failures.
//! Each deployment's `stream_timeout` is the recommended first-token
//! timeout, in seconds, when the requests bound it. `api_key` names the
//! environment variable the runner reads the key from (`os.environ/…`).
//!
//! **OpenRouter**. Per model, a `provider` preferences object: `order` from
//! the routing table (OpenRouter provider slugs, from the targets'
//! `openrouter_provider`), `allow_fallbacks: false` when the user pins, and
//! `preferred_max_latency` (seconds) from the recommended target's measured
//! p50 and p90 (p99 from 299 requests up). It applies only to targets that
//! are OpenRouter endpoints with `openrouter_provider` set; for any other
//! model the export says why no object was written.
//!
//! **JSON**. The routing table with its reasons, ties and full order.
//!
//! **Idle.** A run with idle gaps (`idle_gaps_s`) knows after how long idle
//! a target went cold from this client. Where a routed target went cold
//! within the measured gaps, its LiteLLM deployment says so in a comment
//! and in `model_info` (`firsttoken_goes_cold_after_s`,
//! `firsttoken_keep_warm_s`), and the OpenRouter model gets a `notes` line:
//! where it goes cold, the requests that say so, and what keeps it warm.
//! A fallback (LiteLLM order 2 and on) is sent nothing until the targets
//! before it cool down, so it is idle exactly when it is needed, and its
//! note says that too. Without idle gaps the exports are as before.
//!
//! YAML is written as a fixed block structure whose every scalar is a
//! JSON string or number: a JSON string is a valid YAML double-quoted
//! scalar, so no value a plan carries (a label, a model name) can change
//! the document's structure.

use serde::Serialize;

use crate::base::calendar::iso_time;
use crate::base::document;
use crate::base::lang::Lang;
use crate::base::origin::Origin;
use crate::documents::publish::run_file_name;
use crate::documents::results::Environment;
use crate::judgement::compare::{Route, RouteStep, RoutingTable};
use crate::judgement::idle::GoesCold;
use crate::judgement::report::Report;
use crate::judgement::settings::TimeoutAdvice;
use crate::planning::key_rules::key_variable;
use crate::planning::plan::{Plan, Protocol, Target};
use crate::statistics::stats::percentile;
use crate::words::format::gap_text;

/// Version of the OpenRouter preferences document.
pub(crate) const OPENROUTER_VERSION: u32 = 1;

/// The host of OpenRouter's API.
pub(crate) const OPENROUTER_HOST: &str = "openrouter.ai";

/// Which run an export comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RunSource {
    /// The run's name, as the monitor publishes it:
    /// `YYYY-MM-DDTHH-MM-SSZ.VANTAGE`.
    pub run_id: String,
    /// When the run started, RFC 3339 UTC.
    pub started_at: String,
    /// Where it ran, when named.
    pub vantage: Option<String>,
    /// `page` or `cli`.
    pub runner: &'static str,
}

impl RunSource {
    /// The source of a run with `environment`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn of(environment: &Environment) -> Self {
        let vantage = environment.vantage.clone().filter(|v| !v.trim().is_empty());
        let file = run_file_name(
            environment.started_at_ms,
            vantage.as_deref().unwrap_or_default(),
        );
        let run_id = file
            .strip_prefix("runs/")
            .and_then(|name| name.strip_suffix(".json"))
            .unwrap_or(&file)
            .to_owned();
        Self {
            run_id,
            started_at: iso_time(environment.started_at_ms),
            vantage,
            runner: environment.runner.as_str(),
        }
    }

    /// "run 2026-12-03T05-07-09Z.fra1, started 2026-12-03T05:07:09Z,
    /// vantage fra1, measured by the cli".
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn describe(&self) -> String {
        format!(
            "run {}, started {}, vantage {}, measured by the {}",
            self.run_id,
            self.started_at,
            self.vantage.as_deref().unwrap_or("not named"),
            self.runner
        )
    }
}

/// The routing table with its source, for scripts.
#[derive(Serialize)]
struct RoutingExport<'a> {
    firsttoken_routing: u32,
    source: &'a RunSource,
    routes: &'a [Route],
}

/// The routing table as JSON, with its source run.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn routing_json(table: &RoutingTable, source: &RunSource) -> String {
    document::to_string_pretty(&RoutingExport {
        firsttoken_routing: table.firsttoken_routing,
        source,
        routes: &table.routes,
    })
}

/// The recommended timeout of target `index`, seconds.
#[cfg_attr(target_arch = "wasm32", inline)]
fn stream_timeout_s(report: &Report, index: u32) -> Option<f64> {
    match report.targets.get(index as usize)?.recommended_timeout? {
        TimeoutAdvice::Recommended { timeout_ms, .. } => Some(timeout_ms / 1000.0),
        _ => None,
    }
}

/// A JSON string, which YAML reads as the same double-quoted scalar.
#[cfg_attr(target_arch = "wasm32", inline)]
fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned())
}

/// A number as YAML and JSON both read it, to the millisecond.
#[cfg_attr(target_arch = "wasm32", inline)]
fn seconds(value: f64) -> String {
    let rounded = (value * 1000.0).round() / 1000.0;
    format!("{rounded}")
}

/// LiteLLM's name for a target's model: its provider route and the model.
#[cfg_attr(target_arch = "wasm32", inline)]
fn litellm_model(target: &Target) -> Option<String> {
    let prefix = match target.protocol {
        Protocol::OpenAi => "openai",
        Protocol::Anthropic => "anthropic",
        Protocol::Gemini => "gemini",
        Protocol::Demo => return None,
    };
    Some(format!("{prefix}/{}", target.model.trim()))
}

/// What the run's idle gaps say about routing to target `index`: where it
/// went cold within the measured gaps, from how many requests, and what
/// keeps it warm ("goes cold after 1 min–5 min idle from this client (19 of
/// 20 requests cold after 5 min); a request at least every 48 s keeps it
/// warm"); `None` when the run had no idle gaps or it stayed warm.
#[cfg_attr(target_arch = "wasm32", inline)]
fn idle_note(report: &Report, index: u32) -> Option<String> {
    let idle = report.targets.get(index as usize)?.idle.as_ref()?;
    let GoesCold::After { lo_s, hi_s, .. } = idle.goes_cold else {
        return None;
    };
    let after = |s: f64| gap_text(Lang::En, s);
    let counted = idle
        .gaps
        .iter()
        .find(|g| g.gap_s == hi_s)
        .map(|g| {
            format!(
                " ({} of {} requests cold after {})",
                g.cold,
                g.requests,
                after(hi_s)
            )
        })
        .unwrap_or_default();
    let keep = match idle.keep_warm {
        Some(keep) => format!(
            "a request at least every {} keeps it warm",
            after(keep.every_s)
        ),
        None => "no measured idle kept it warm".to_owned(),
    };
    let range = if lo_s > 0.0 {
        format!("{}–{}", after(lo_s), after(hi_s))
    } else {
        format!("at most {}", after(hi_s))
    };
    Some(format!(
        "goes cold after {range} idle from this client{counted}; {keep}"
    ))
}

/// A comment line: no line break can escape it.
#[cfg_attr(target_arch = "wasm32", inline)]
fn comment(text: &str) -> String {
    let single: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    format!("# {single}\n")
}

/// The LiteLLM router config (YAML) for the routing table of `report`.
///
/// # Examples
///
/// Two OpenAI-compatible providers of one model, measured (here with the
/// demo provider's `steady` and `cold-tail` replies); the exports name
/// the run they come from:
///
/// ```
/// use firsttoken_core::judgement::report::{REPORT_SEED, build_report};
/// use firsttoken_core::documents::results::{Environment, RunnerKind};
/// use firsttoken_core::documents::routing_config::{RunSource, litellm_yaml, routing_json};
/// use firsttoken_core::base::lang::Lang;
///
/// # use firsttoken_core::wire::demo::{demo_reply, target_seed};
/// # use firsttoken_core::wire::measure::Measurement;
/// # use firsttoken_core::planning::plan::Plan;
/// # use firsttoken_core::wire::sample::Sample;
/// # use firsttoken_core::planning::schedule::Schedule;
/// # // Every request of `plan` answered by the demo provider that its label names, fed
/// # // through a `Measurement` as the page and the runner feed real replies.
/// # fn measure_with_demo(plan: &Plan) -> Vec<Sample> {
/// #     let schedule = Schedule::new(plan, 1.8e12, 7);
/// #     schedule.requests.iter().map(|planned| {
/// #         let target = &plan.targets[planned.target as usize];
/// #         let seed = target_seed(7, planned.target);
/// #         let reply = demo_reply(&target.label, planned.seq, seed);
/// #         let mut measurement = Measurement::new(target.protocol, false);
/// #         measurement.on_headers(reply.headers_at_ms, reply.status, Some(reply.content_type));
/// #         for chunk in &reply.chunks {
/// #             measurement.on_chunk(chunk.at_ms, &chunk.bytes);
/// #         }
/// #         let end_ms = reply.chunks.last().map_or(reply.headers_at_ms, |c| c.at_ms);
/// #         measurement.on_body_end(end_ms);
/// #         Sample::from_outcome(planned, planned.planned_at_ms, false, measurement.finish())
/// #     }).collect()
/// # }
/// # let plan = Plan::from_json(r#"{"firsttoken_plan": 1, "requests_per_target": 30, "targets": [
/// #     {"label": "steady", "protocol": "openai", "base_url": "https://steady.example/v1", "model": "m"},
/// #     {"label": "cold-tail", "protocol": "openai", "base_url": "https://cold.example/v1", "model": "m"}]}"#)?;
/// let report = build_report(&plan, &measure_with_demo(&plan), 0, REPORT_SEED);
/// let environment = Environment {
///     started_at_ms: 1_796_274_429_000.0,
///     runner: RunnerKind::Cli,
///     vantage: Some("fra1".to_owned()),
///     ..Environment::default()
/// };
/// let source = RunSource::of(&environment);
/// assert_eq!(source.run_id, "2026-12-03T05-07-09Z.fra1");
///
/// // LiteLLM tries the recommended deployment first, the other as a
/// // fallback; a key is named by its environment variable, never written.
/// let yaml = litellm_yaml(&plan, &report, &source);
/// let at = |text: &str| yaml.find(text).unwrap_or(usize::MAX);
/// assert!(at("https://steady.example/v1") < at("order: 1"));
/// assert!(at("order: 1") < at("https://cold.example/v1"));
/// assert!(at("https://cold.example/v1") < at("order: 2"));
/// assert!(yaml.contains(r#"api_key: "os.environ/FIRSTTOKEN_KEY_FOR_STEADY_EXAMPLE""#));
///
/// // The routing table for scripts: the pick and its reason, per model.
/// let json = routing_json(&report.routing_in(Lang::En), &source);
/// let table: serde_json::Value = serde_json::from_str(&json).unwrap_or_default();
/// assert_eq!(table["routes"][0]["label"], "steady");
/// assert_eq!(table["source"]["runner"], "cli");
/// # Ok::<(), firsttoken_core::planning::plan::PlanError>(())
/// ```
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn litellm_yaml(plan: &Plan, report: &Report, source: &RunSource) -> String {
    litellm_yaml_with_prefill(plan, report, source, None)
}

/// [`litellm_yaml`], each deployment's `model_info` also carrying its
/// prefill rate and fixed part (`firsttoken_prefill_tokens_per_s`,
/// `firsttoken_prefill_fixed_s`) when the run measured prompt sizes and
/// the target has a fit.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn litellm_yaml_with_prefill(
    plan: &Plan,
    report: &Report,
    source: &RunSource,
    prefill: Option<&crate::judgement::prefill_report::PrefillReport>,
) -> String {
    let mut out = String::new();
    out += &comment("LiteLLM Router config written by FirstToken from measured first-token times.");
    out += &comment(&format!("Source: {}.", source.describe()));
    out += &comment(
        "Deployments of one model share a model_name. order follows FirstToken's routing table: \
         the recommended target and those it cannot be told apart from share order 1, where \
         latency-based routing picks by the p95 of the TTFT LiteLLM observes; order 2, 3, ... are \
         fallbacks, used when every lower order is cooling down.",
    );
    out += &comment(
        "stream_timeout is the measured first-token timeout in seconds: the 95 % upper bound of \
         the p99 (p99.9 from 2 995 requests) x 1.5.",
    );
    out += &comment("No key is written: api_key names the environment variable that holds it.");
    let mut deployments = String::new();
    let mut left_out = Vec::new();
    for route in &report.routing.routes {
        let mut order = 0;
        let mut previous_tied = false;
        for step in &route.order {
            let Some(target) = plan.targets.get(step.target as usize) else {
                continue;
            };
            let Some(model) = litellm_model(target) else {
                left_out.push(format!(
                    "{}: the demo provider is played back inside FirstToken (the page or the \
                     runner), not a server LiteLLM can call",
                    step.label
                ));
                continue;
            };
            if !step.eligible {
                left_out.push(format!(
                    "{}: not eligible (too few successful requests, or an error rate over the \
                     threshold)",
                    step.label
                ));
                continue;
            }
            // Ties share order 1; every later target gets the next order.
            if !(step.tied_with_best && previous_tied) {
                order += 1;
            }
            previous_tied = step.tied_with_best;
            deployments += &format!("  - model_name: {}\n", quoted(&route.model));
            deployments += "    litellm_params:\n";
            deployments += &format!("      model: {}\n", quoted(&model));
            deployments += &format!("      api_base: {}\n", quoted(target.base_url.trim()));
            if let Some(variable) = key_variable(target) {
                deployments += &format!(
                    "      api_key: {}\n",
                    quoted(&format!("os.environ/{variable}"))
                );
            }
            deployments += &format!("      order: {order}\n");
            match stream_timeout_s(report, step.target) {
                Some(timeout) => {
                    deployments += &format!("      stream_timeout: {}\n", seconds(timeout));
                }
                None => {
                    deployments += "      # no stream_timeout: too few requests to bound the p99\n";
                }
            }
            deployments += "    model_info:\n";
            deployments += &format!(
                "      id: {}\n",
                quoted(&format!("firsttoken-{}-t{}", source.run_id, step.target))
            );
            deployments += &format!("      firsttoken_label: {}\n", quoted(&step.label));
            deployments += &format!("      firsttoken_rank: {}\n", step.rank);
            deployments += &format!(
                "      firsttoken_ttft_median_s: {}\n",
                seconds(step.median_ms / 1000.0)
            );
            deployments += &format!(
                "      firsttoken_ttft_p95_s: {}\n",
                seconds(step.p95_ms / 1000.0)
            );
            deployments += &format!("      firsttoken_requests: {}\n", step.n);
            if let Some(idle) = report
                .targets
                .get(step.target as usize)
                .and_then(|t| t.idle.as_ref())
                && let Some([lo_s, hi_s]) = idle.goes_cold.range_s()
                && let Some(note) = idle_note(report, step.target)
            {
                deployments += &format!(
                    "      firsttoken_goes_cold_after_s: [{}, {}]\n",
                    seconds(lo_s),
                    seconds(hi_s)
                );
                if let Some(keep) = idle.keep_warm {
                    deployments +=
                        &format!("      firsttoken_keep_warm_s: {}\n", seconds(keep.every_s));
                }
                let fallback = if order > 1 {
                    "; as a fallback it is sent nothing until the deployments before it cool \
                     down, so it is idle when it is needed"
                } else {
                    ""
                };
                deployments += &format!(
                    "      {}",
                    comment(&format!("{}: {note}{fallback}.", step.label))
                );
            }
            if let Some(fit) = prefill
                .and_then(|p| p.targets.iter().find(|t| t.target == step.target))
                .and_then(|t| t.fit.as_ref())
            {
                deployments += &format!(
                    "      firsttoken_prefill_tokens_per_s: {}\n",
                    fit.rate_tokens_per_s.round()
                );
                // A fixed part below zero is not a time: left out, as the
                // report's sentence leaves it out.
                if fit.fixed_is_time() {
                    deployments += &format!(
                        "      firsttoken_prefill_fixed_s: {}\n",
                        seconds(fit.fixed_ms / 1000.0)
                    );
                }
            }
        }
    }
    for line in &left_out {
        out += &comment(&format!("Left out: {line}."));
    }
    if deployments.is_empty() {
        out += "model_list: []\n";
    } else {
        out += "model_list:\n";
        out += &deployments;
    }
    out += "router_settings:\n";
    out += "  routing_strategy: \"latency-based-routing\"\n";
    out += "  routing_strategy_args:\n";
    out += "    ttft_percentile: 0.95\n";
    out += "    lowest_latency_buffer: 0\n";
    out
}

/// The OpenRouter preferences of one model.
#[derive(Serialize)]
struct OpenRouterModel {
    /// The model's grouping key.
    model: String,
    /// The OpenRouter model id to send these preferences with.
    openrouter_model: String,
    /// The `provider` object, to put in the request body.
    provider: ProviderPreferences,
    /// What the run's idle gaps say about the ordered targets (where one
    /// goes cold and what keeps it warm); left out when they say nothing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<String>,
}

/// OpenRouter's `provider` request member.
#[derive(Serialize)]
struct ProviderPreferences {
    order: Vec<String>,
    allow_fallbacks: bool,
    #[serde(skip_serializing_if = "LatencyCutoffs::is_empty")]
    preferred_max_latency: LatencyCutoffs,
}

/// Percentile latency cutoffs, seconds.
#[derive(Serialize)]
struct LatencyCutoffs {
    #[serde(skip_serializing_if = "Option::is_none")]
    p50: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    p90: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    p99: Option<f64>,
}

impl LatencyCutoffs {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn is_empty(&self) -> bool {
        self.p50.is_none() && self.p90.is_none() && self.p99.is_none()
    }
}

/// A model no preferences object was written for, and why.
#[derive(Serialize)]
struct Skipped {
    model: String,
    reason: String,
}

#[derive(Serialize)]
struct OpenRouterExport<'a> {
    firsttoken_openrouter: u32,
    source: &'a RunSource,
    pinned: bool,
    models: Vec<OpenRouterModel>,
    skipped: Vec<Skipped>,
}

/// Whether a target is an OpenRouter endpoint measuring one upstream.
#[cfg_attr(target_arch = "wasm32", inline)]
fn openrouter_slug(target: &Target) -> Option<&str> {
    let origin = Origin::parse(&target.base_url)?;
    (origin.host == OPENROUTER_HOST && target.protocol == Protocol::OpenAi)
        .then_some(target.openrouter_provider.as_deref())
        .flatten()
}

/// A percentile of target `index`'s ranked TTFT in seconds, when it does
/// not reach a timeout.
#[cfg_attr(target_arch = "wasm32", inline)]
fn cutoff_s(report: &Report, index: u32, p: f64) -> Option<f64> {
    let target = report.targets.get(index as usize)?;
    if target.percentile_is_lower_bound(p) {
        return None;
    }
    percentile(&target.ranked_ms, p).map(|ms| (ms).round() / 1000.0)
}

/// OpenRouter provider preferences (JSON), per model; `pin` writes
/// `allow_fallbacks: false`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn openrouter_json(plan: &Plan, report: &Report, source: &RunSource, pin: bool) -> String {
    let mut models = Vec::new();
    let mut skipped = Vec::new();
    for route in &report.routing.routes {
        let steps: Vec<(&RouteStep, &Target, &str)> = route
            .order
            .iter()
            .filter(|step| step.eligible)
            .filter_map(|step| {
                let target = plan.targets.get(step.target as usize)?;
                Some((step, target, openrouter_slug(target)?))
            })
            .collect();
        let Some(&(first, first_target, _)) = steps.first() else {
            let any_openrouter = route
                .order
                .iter()
                .filter_map(|step| plan.targets.get(step.target as usize))
                .any(|target| {
                    Origin::parse(&target.base_url).is_some_and(|o| o.host == OPENROUTER_HOST)
                });
            let reason = if any_openrouter {
                "its OpenRouter targets name no upstream (openrouter_provider) or are not \
                 eligible: provider preferences order OpenRouter's upstream providers, so each \
                 target must measure one"
            } else {
                "no target of this model is an OpenRouter endpoint: provider preferences apply \
                 only to requests sent through OpenRouter"
            };
            skipped.push(Skipped {
                model: route.model.clone(),
                reason: reason.to_owned(),
            });
            continue;
        };
        let mut order: Vec<String> = Vec::new();
        for (_, _, slug) in &steps {
            if !order.iter().any(|s| s == slug) {
                order.push((*slug).to_owned());
            }
        }
        let notes: Vec<String> = steps
            .iter()
            .filter_map(|(step, _, slug)| {
                let note = idle_note(report, step.target)?;
                let fallback = if order.first().is_some_and(|first| first != slug) {
                    "; OpenRouter sends it requests only when the providers before it fail, so \
                     it is idle when it is needed"
                } else {
                    ""
                };
                Some(format!("{} ({slug}): {note}{fallback}.", step.label))
            })
            .collect();
        let enough_for_p99 = first.n >= crate::judgement::settings::requests_needed(0.99);
        models.push(OpenRouterModel {
            model: route.model.clone(),
            openrouter_model: first_target.model.trim().to_owned(),
            provider: ProviderPreferences {
                order,
                allow_fallbacks: !pin,
                preferred_max_latency: LatencyCutoffs {
                    p50: cutoff_s(report, first.target, 50.0),
                    p90: cutoff_s(report, first.target, 90.0),
                    p99: enough_for_p99
                        .then(|| cutoff_s(report, first.target, 99.0))
                        .flatten(),
                },
            },
            notes,
        });
    }
    document::to_string_pretty(&OpenRouterExport {
        firsttoken_openrouter: OPENROUTER_VERSION,
        source,
        pinned: pin,
        models,
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::results::RunnerKind;
    use crate::judgement::report::{REPORT_SEED, build_report};
    use crate::testing::fixtures::synthetic_samples;

    fn target(label: &str, base_url: &str, model: &str, slug: Option<&str>) -> Target {
        Target {
            openrouter_provider: slug.map(str::to_owned),
            ..Target::openai(label, base_url, model)
        }
    }

    fn environment() -> Environment {
        Environment {
            started_at_ms: 1_796_274_429_500.0,
            vantage: Some("fra1".to_owned()),
            runner: RunnerKind::Cli,
            ..Environment::default()
        }
    }

    #[test]
    fn the_source_names_the_run_as_the_monitor_publishes_it() {
        let source = RunSource::of(&environment());
        assert_eq!(source.run_id, "2026-12-03T05-07-09Z.fra1");
        assert_eq!(source.started_at, "2026-12-03T05:07:09Z");
        assert_eq!(source.runner, "cli");
    }

    /// A run of the built-in demo, made by the page or by the runner
    /// (`--target demo:…`), is left out of the LiteLLM config with words
    /// true of both: the runner plays the demo back too.
    #[test]
    fn a_demo_target_is_left_out_with_words_true_of_both_adapters() {
        let plan = Plan {
            targets: vec![Target {
                protocol: Protocol::Demo,
                provider: Some("demo".to_owned()),
                ..Target::openai("Demo", "demo://steady", "demo-llm")
            }],
            ..Plan::default()
        };
        let report = build_report(&plan, &synthetic_samples(1, 40, 0, 3), 0, REPORT_SEED);
        let yaml = litellm_yaml(&plan, &report, &RunSource::of(&environment()));
        assert!(
            yaml.contains(
                "# Left out: Demo: the demo provider is played back inside FirstToken \
                           (the page or the runner), not a server LiteLLM can call."
            ),
            "{yaml}"
        );
        assert!(!yaml.contains("only in the page"), "{yaml}");
    }

    #[test]
    fn a_hostile_label_cannot_break_the_yaml() {
        let mut plan = Plan::default();
        plan.targets.push(target(
            "evil\"\n  - model_name: injected\n# ",
            "https://api.example.com/v1",
            "m",
            None,
        ));
        let samples = synthetic_samples(1, 40, 0, 3);
        let report = build_report(&plan, &samples, 0, REPORT_SEED);
        let yaml = litellm_yaml(&plan, &report, &RunSource::of(&environment()));
        let entries = yaml
            .lines()
            .filter(|line| line.starts_with("  - model_name:"))
            .count();
        assert_eq!(entries, 1, "{yaml}");
        assert!(
            yaml.lines()
                .all(|line| !line.starts_with("  - model_name: injected"))
        );
        assert!(yaml.contains("\\n  - model_name: injected"), "{yaml}");
    }

    /// Two OpenRouter targets of one model measured after idle gaps of
    /// 10 s and 5 min; with `cold`, the first meets a 12 s cold start after
    /// every 5 min gap.
    fn idle_run(cold: bool, gaps: bool) -> (Plan, Report) {
        let mut plan = Plan::default();
        for (label, slug) in [("OR · cold", "coldish"), ("OR · warm", "warmish")] {
            plan.targets.push(target(
                label,
                "https://openrouter.ai/api/v1",
                "meta-llama/llama-3.3-70b-instruct",
                Some(slug),
            ));
        }
        let mut samples = synthetic_samples(2, 80, 0, 11);
        let mut seen = [0usize; 2];
        for sample in &mut samples {
            let own = &mut seen[sample.target as usize];
            let gap_s = [10.0, 300.0][*own % 2];
            *own += 1;
            if gaps {
                sample.idle_gap_s = Some(gap_s);
                plan.idle_gaps_s = Some(vec![10.0, 300.0]);
            }
            if cold && sample.target == 0 && gap_s == 300.0 && sample.ttft_ms.is_some() {
                sample.ttft_ms = Some(12_000.0);
                sample.total_ms = Some(12_600.0);
            }
        }
        let report = build_report(&plan, &samples, 0, REPORT_SEED);
        (plan, report)
    }

    /// A routed target that went cold within the measured gaps says where
    /// and what keeps it warm in both exports, and as a fallback that it is
    /// idle when it is needed; a target that stayed warm says nothing, and
    /// a run whose targets all stayed warm exports byte for byte what the
    /// same run without idle gaps exports.
    #[test]
    fn a_target_that_goes_cold_says_so_and_what_keeps_it_warm() {
        let source = RunSource::of(&environment());
        let (plan, report) = idle_run(true, true);
        let idle = report.targets[0].idle.as_ref().unwrap();
        assert_eq!(idle.goes_cold.range_s(), Some([10.0, 300.0]));
        let after_300 = idle.gaps[1];
        let yaml = litellm_yaml(&plan, &report, &source);
        let said = format!(
            "# OR · cold: goes cold after 10 s–5 min idle from this client ({} of {} requests \
             cold after 5 min); a request at least every 8 s keeps it warm; as a fallback it is \
             sent nothing until the deployments before it cool down, so it is idle when it is \
             needed.",
            after_300.cold, after_300.requests
        );
        assert!(yaml.contains(&said), "{yaml}");
        assert!(
            yaml.contains("      firsttoken_goes_cold_after_s: [10, 300]\n"),
            "{yaml}"
        );
        assert!(yaml.contains("      firsttoken_keep_warm_s: 8\n"), "{yaml}");
        assert_eq!(yaml.matches("goes cold").count(), 1, "{yaml}");
        assert!(lines_keep_the_block_structure(&yaml));

        let json = openrouter_json(&plan, &report, &source, false);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        let notes = value["models"][0]["notes"].as_array().unwrap();
        assert_eq!(notes.len(), 1, "{json}");
        let note = notes[0].as_str().unwrap();
        assert!(
            note.starts_with("OR · cold (coldish): goes cold after 10 s–5 min idle"),
            "{note}"
        );
        assert!(note.ends_with(
            "keeps it warm; OpenRouter sends it requests only when the providers before it \
             fail, so it is idle when it is needed."
        ));

        let (plan, warm) = idle_run(false, true);
        let (plain_plan, plain) = idle_run(false, false);
        assert!(warm.targets.iter().all(|t| t.idle.is_some()));
        assert!(plain.targets.iter().all(|t| t.idle.is_none()));
        assert_eq!(
            litellm_yaml(&plan, &warm, &source),
            litellm_yaml(&plain_plan, &plain, &source)
        );
        for pin in [false, true] {
            assert_eq!(
                openrouter_json(&plan, &warm, &source, pin),
                openrouter_json(&plain_plan, &plain, &source, pin)
            );
        }
    }

    /// Each line of the YAML is a comment, a `key: value` or a list item,
    /// at the block structure's indents: no note breaks it.
    fn lines_keep_the_block_structure(yaml: &str) -> bool {
        yaml.lines().all(|line| {
            let body = line.trim_start();
            let indent = line.len() - body.len();
            indent % 2 == 0 && (body.starts_with('#') || body.contains(": ") || body.ends_with(':'))
        })
    }

    #[test]
    fn openrouter_preferences_only_for_openrouter_targets_with_an_upstream() {
        let mut plan = Plan::default();
        for (label, slug) in [
            ("OR · deepinfra", "deepinfra"),
            ("OR · together", "together"),
        ] {
            plan.targets.push(target(
                label,
                "https://openrouter.ai/api/v1",
                "meta-llama/llama-3.3-70b-instruct",
                Some(slug),
            ));
        }
        plan.targets.push(target(
            "Direct",
            "https://api.example.com/v1",
            "other-model",
            None,
        ));
        let samples = synthetic_samples(3, 60, 0, 11);
        let report = build_report(&plan, &samples, 0, REPORT_SEED);
        let json = openrouter_json(&plan, &report, &RunSource::of(&environment()), true);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        let model = &value["models"][0];
        assert_eq!(
            model["openrouter_model"],
            "meta-llama/llama-3.3-70b-instruct"
        );
        assert_eq!(model["provider"]["allow_fallbacks"], false);
        let order: Vec<&str> = model["provider"]["order"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert_eq!(order.len(), 2);
        assert!(model["provider"]["preferred_max_latency"]["p50"].is_number());
        assert!(
            model["provider"]["preferred_max_latency"]
                .get("p99")
                .is_none()
        );
        assert_eq!(value["skipped"][0]["model"], "other-model");
        assert!(
            value["skipped"][0]["reason"]
                .as_str()
                .unwrap()
                .contains("no target of this model is an OpenRouter endpoint")
        );
        assert_eq!(value["source"]["run_id"], "2026-12-03T05-07-09Z.fra1");
    }

    /// The LiteLLM export carries each target's prefill rate, and its fixed
    /// part only where that is a time: a line that passes under an empty
    /// prompt's TTFT (fixed part below zero) gives none, as the report's
    /// sentence gives none.
    #[test]
    fn a_fixed_part_below_zero_is_left_out_of_the_litellm_export() {
        use crate::judgement::prefill::PrefillFit;
        use crate::judgement::prefill_report::{PrefillReport, TargetPrefill};
        use crate::statistics::quantile::Interval;
        let (plan, report) = idle_run(false, false);
        let fit = |target: u32, fixed_ms: f64| PrefillFit {
            target,
            fixed_ms,
            fixed_interval: Interval {
                low: fixed_ms - 10.0,
                high: fixed_ms + 10.0,
            },
            rate_tokens_per_s: 20_000.0,
            rate_interval: Interval {
                low: 18_000.0,
                high: 22_000.0,
            },
            points: Vec::new(),
            off_line: Vec::new(),
            estimated_tokens: false,
            slope_replicates: Vec::new(),
            fixed_replicates: Vec::new(),
        };
        let prefill = PrefillReport {
            targets: [(0, 150.0), (1, -40.0)]
                .into_iter()
                .map(|(target, fixed_ms)| TargetPrefill {
                    target,
                    label: plan.targets[target as usize].label.clone(),
                    fit: Some(fit(target, fixed_ms)),
                    no_growth: false,
                    estimated_tokens: false,
                    sizes: Vec::new(),
                    refused_sizes: Vec::new(),
                    cache: Vec::new(),
                    ttft_at_typical_ms: None,
                    typical: None,
                })
                .collect(),
            models: Vec::new(),
            typical_prompt_tokens: None,
        };
        let source = RunSource::of(&environment());
        let yaml = litellm_yaml_with_prefill(&plan, &report, &source, Some(&prefill));
        assert_eq!(
            yaml.matches("firsttoken_prefill_tokens_per_s: 20000")
                .count(),
            2,
            "{yaml}"
        );
        assert_eq!(
            yaml.matches("firsttoken_prefill_fixed_s:").count(),
            1,
            "{yaml}"
        );
        assert!(yaml.contains("firsttoken_prefill_fixed_s: 0.15"), "{yaml}");
        assert!(!yaml.contains("firsttoken_prefill_fixed_s: -"), "{yaml}");
        assert!(lines_keep_the_block_structure(&yaml), "{yaml}");
    }
}
