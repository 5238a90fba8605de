//! The setup form as the person typed it, and its one crossing into a
//! validated [`Plan`].
//!
//! Inputs stay strings while being edited (a half-typed "0." is not an
//! error yet); [`PlanForm::to_plan`] parses them and hands the result to
//! [`Plan::from_json`], so the form and a loaded file are validated by the
//! same code and can never disagree.
//!
//! The fidelity check is one box. Ticked on a new form it checks `basic-1`
//! twice against the first target; a loaded plan's own suite, repeats and
//! reference are kept in the form, so loading a plan and starting it sends
//! what the plan says.

use crate::core::planning::plan::{
    FidelityPlan, FieldError, Plan, PlanError, Problem, Protocol, Target,
};
use crate::ui::model::i18n::Lang;

use serde_json::{Value, json};

/// One target row of the form.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetForm {
    /// Preset id the row came from (`"demo"`, `"openai"`, `"custom"`…).
    pub preset: String,
    /// Label shown in tables and charts.
    pub label: String,
    /// Endpoint base URL.
    pub base_url: String,
    /// Model name.
    pub model: String,
    /// Wire protocol.
    pub protocol: Protocol,
    /// `price.input_per_mtok`; all three price fields empty for no price.
    pub price_input: String,
    /// `price.output_per_mtok`.
    pub price_output: String,
    /// `price.cached_input_per_mtok`; empty to charge cached input as input.
    pub price_cached: String,
    /// `openrouter_provider`; empty for none.
    pub openrouter_provider: String,
}

impl TargetForm {
    /// An empty row of the custom preset.
    pub fn empty() -> Self {
        Self {
            preset: "custom".to_owned(),
            label: String::new(),
            base_url: String::new(),
            model: String::new(),
            protocol: Protocol::OpenAi,
            price_input: String::new(),
            price_output: String::new(),
            price_cached: String::new(),
            openrouter_provider: String::new(),
        }
    }

    /// The label the form writes for this row itself: its preset's for its
    /// model at its base URL (see `Preset::label_at`); `None` for a row of
    /// no known preset.
    pub fn written_label(&self) -> Option<String> {
        crate::core::planning::presets::preset_by_id(&self.preset)
            .map(|preset| preset.label_at(&self.model, &self.base_url))
    }
}

/// Edits row `row` with `apply`. A label the form wrote itself follows the
/// edit ("OpenAI · gpt-4o-mini" becomes "OpenAI · gpt-4o-mini ·
/// 127.0.0.1:8787" when the base URL moves to another host); a label the
/// person typed stays as typed.
pub fn edit_target(form: &mut PlanForm, row: usize, apply: impl FnOnce(&mut TargetForm)) {
    let Some(target) = form.targets.get_mut(row) else {
        return;
    };
    let before = target.written_label();
    apply(target);
    let after = target.written_label();
    if let (Some(before), Some(after)) = (before, after)
        && form.targets[row].label.trim() == before
        && before != after
    {
        form.set_target_label(row, after);
    }
}

/// The plan form, every number still as typed.
#[derive(Clone, Debug, PartialEq)]
#[expect(
    missing_docs,
    reason = "each field mirrors the plan field of the same name"
)]
pub struct PlanForm {
    pub targets: Vec<TargetForm>,
    pub requests_per_target: String,
    pub warmup_per_target: String,
    pub spacing_s: String,
    pub jitter_s: String,
    pub spread_hours: String,
    pub timeout_s: String,
    pub prompt: String,
    pub nonce: bool,
    pub max_tokens: String,
    pub temperature: String,
    pub reasoning_counts_as_first_token: bool,
    pub peak_start: String,
    pub peak_end: String,
    /// `peak_tz`; empty for none.
    pub peak_tz: String,
    /// `ttft_budget_ms`; empty for none.
    pub ttft_budget_ms: String,
    /// The fidelity check is ticked.
    pub fidelity: bool,
    /// A loaded plan's fidelity settings (suite, repeats, reference),
    /// kept while the box is unticked and ticked again; `None` for
    /// `basic-1` × 2 against the first target ([`PlanForm::fidelity_plan`]).
    pub fidelity_settings: Option<FidelityPlan>,
    /// `idle_gaps_s`: seconds, separated by commas or spaces
    /// ("10, 60, 300, 900"); empty for none.
    pub idle_gaps_s: String,
    /// `typical_gap_s`; empty for none.
    pub typical_gap_s: String,
    /// `dedicated_usd_per_hour`; empty for none.
    pub dedicated_usd_per_hour: String,
    /// `prompt_sizes`: input tokens, separated by commas or spaces
    /// ("128, 1024, 8192"); empty for none.
    pub prompt_sizes: String,
    /// `typical_prompt_tokens`; empty for none.
    pub typical_prompt_tokens: String,
    /// `prompt_cache_probe`.
    pub prompt_cache_probe: bool,
    /// A loaded plan's `until_decided`, `min_requests_per_target`,
    /// `objectives` and `equivalent_within_pct`, kept (the form has no
    /// field for them yet), so a loaded plan that runs until decided still
    /// does, and asks what it asked.
    pub until_decided: (bool, Option<u32>, Vec<String>, Option<f64>),
}

/// The demo targets' labels in `lang`, in the demo plan's order: they are
/// the page's words, so they follow the language until the person renames
/// them.
fn demo_labels(lang: Lang) -> [&'static str; 3] {
    let t = lang.texts();
    [t.demo_steady, t.demo_cold_starts, t.demo_degraded]
}

/// The plan a newcomer finds, labelled in `lang`: three demo providers
/// serving one model, one steady, one with cold starts and one fast but
/// served differently, with the fidelity check once through against the
/// steady one, so the results show both latency and "still correct" with
/// no key.
pub fn demo_plan(lang: Lang) -> Plan {
    let demo = |label: &str, behaviour: &str| Target {
        label: label.to_owned(),
        protocol: Protocol::Demo,
        base_url: format!("demo://{behaviour}"),
        model: "demo-llm".to_owned(),
        provider: Some("demo".to_owned()),
        price: None,
        openrouter_provider: None,
    };
    let [steady, cold, degraded] = demo_labels(lang);
    Plan {
        targets: vec![
            demo(steady, "steady"),
            demo(cold, "cold-tail"),
            demo(degraded, "degraded"),
        ],
        // Once through the suite keeps the demo short; a real check repeats it.
        fidelity: Some(crate::core::planning::plan::FidelityPlan {
            repeats: 1,
            ..crate::core::planning::plan::FidelityPlan::basic(Some(steady.to_owned()))
        }),
        requests_per_target: 75,
        warmup_per_target: 2,
        spacing_s: 0.25,
        jitter_s: 0.05,
        timeout_s: 30.0,
        ..Plan::default()
    }
}

fn number(value: f64) -> String {
    // Shortest form that reads back to the same value ("5", "0.25").
    let text = format!("{value}");
    text.strip_suffix(".0").map(str::to_owned).unwrap_or(text)
}

/// What `error` says about plan member `field` alone, in `lang`, without
/// the member's name (it is said at the field, under its label); nothing
/// when the field is fine.
pub fn problems_at(error: &PlanError, field: &str, lang: Lang) -> Vec<String> {
    match error {
        PlanError::Invalid(errors) => errors
            .iter()
            .filter(|e| e.field == field)
            .map(|e| e.problem.text(lang))
            .collect(),
        _ => Vec::new(),
    }
}

/// The pieces of a typed list (idle gaps, prompt sizes), one per number:
/// commas (also Chinese ones) and spaces separate them, and empty pieces
/// ("10,,60") are no number.
fn list_pieces(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| matches!(c, ',' | '，' | '、') || c.is_whitespace())
        .filter(|piece| !piece.is_empty())
}

impl PlanForm {
    /// Renames each row still labelled as a demo target in `from` to its
    /// label in `to` (and the fidelity reference with it): a language
    /// switch re-words the page's own labels, never one the person typed.
    pub fn relabel_demo(&mut self, from: Lang, to: Lang) {
        let (from, to) = (demo_labels(from), demo_labels(to));
        let renamed: Vec<(usize, &str)> = self
            .targets
            .iter()
            .enumerate()
            .filter_map(|(row, t)| {
                let k = from.iter().position(|l| *l == t.label)?;
                Some((row, *to.get(k)?))
            })
            .collect();
        for (row, label) in renamed {
            self.set_target_label(row, label.to_owned());
        }
    }

    /// The form showing `plan`.
    pub fn from_plan(plan: &Plan) -> Self {
        Self {
            targets: plan
                .targets
                .iter()
                .map(|t| TargetForm {
                    preset: t.provider.clone().unwrap_or_else(|| "custom".to_owned()),
                    label: t.label.clone(),
                    base_url: t.base_url.clone(),
                    model: t.model.clone(),
                    protocol: t.protocol,
                    price_input: t
                        .price
                        .map(|p| number(p.input_per_mtok))
                        .unwrap_or_default(),
                    price_output: t
                        .price
                        .map(|p| number(p.output_per_mtok))
                        .unwrap_or_default(),
                    price_cached: t
                        .price
                        .and_then(|p| p.cached_input_per_mtok)
                        .map(number)
                        .unwrap_or_default(),
                    openrouter_provider: t.openrouter_provider.clone().unwrap_or_default(),
                })
                .collect(),
            requests_per_target: plan.requests_per_target.to_string(),
            warmup_per_target: plan.warmup_per_target.to_string(),
            spacing_s: number(plan.spacing_s),
            jitter_s: number(plan.jitter_s),
            spread_hours: plan.spread_hours.map(number).unwrap_or_default(),
            timeout_s: number(plan.timeout_s),
            prompt: plan.prompt.clone(),
            nonce: plan.nonce,
            max_tokens: plan.max_tokens.to_string(),
            temperature: number(plan.temperature),
            reasoning_counts_as_first_token: plan.reasoning_counts_as_first_token,
            peak_start: plan.peak_hours[0].to_string(),
            peak_end: plan.peak_hours[1].to_string(),
            peak_tz: plan.peak_tz.clone().unwrap_or_default(),
            ttft_budget_ms: plan.ttft_budget_ms.map(number).unwrap_or_default(),
            fidelity: plan.fidelity.is_some(),
            fidelity_settings: plan.fidelity.clone(),
            idle_gaps_s: plan
                .idle_gaps_s
                .iter()
                .flatten()
                .map(|&gap| number(gap))
                .collect::<Vec<_>>()
                .join(", "),
            typical_gap_s: plan.typical_gap_s.map(number).unwrap_or_default(),
            dedicated_usd_per_hour: plan.dedicated_usd_per_hour.map(number).unwrap_or_default(),
            prompt_sizes: plan
                .prompt_sizes
                .iter()
                .flatten()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            typical_prompt_tokens: plan
                .typical_prompt_tokens
                .map(|tokens| tokens.to_string())
                .unwrap_or_default(),
            prompt_cache_probe: plan.prompt_cache_probe,
            until_decided: (
                plan.until_decided,
                plan.min_requests_per_target,
                plan.objectives.clone(),
                plan.equivalent_within_pct,
            ),
        }
    }

    /// The fidelity check the form asks for, `None` when unticked: the
    /// kept settings, or `basic-1` × 2 against the first target. A kept
    /// reference that no longer names a target (its row was removed) falls
    /// back to the first target, so removing a row never leaves a plan that
    /// cannot start; a kept `null` reference stays `null`.
    pub fn fidelity_plan(&self) -> Option<FidelityPlan> {
        if !self.fidelity {
            return None;
        }
        let first = self.targets.first().map(|t| t.label.trim().to_owned());
        let mut settings = self
            .fidelity_settings
            .clone()
            .unwrap_or_else(|| FidelityPlan::basic(first.clone()));
        if let Some(reference) = &settings.reference
            && !self
                .targets
                .iter()
                .any(|t| t.label.trim() == reference.trim())
        {
            settings.reference = first;
        }
        Some(settings)
    }

    /// Sets row `row`'s label to `label`. A kept fidelity reference that
    /// named the row follows the rename, unless another row still carries
    /// the old label (an added row starts as a copy of the last one).
    pub fn set_target_label(&mut self, row: usize, label: String) {
        let Some(old) = self.targets.get(row).map(|t| t.label.trim().to_owned()) else {
            return;
        };
        let still_named = self
            .targets
            .iter()
            .enumerate()
            .any(|(i, t)| i != row && t.label.trim() == old);
        if let Some(settings) = self.fidelity_settings.as_mut()
            && settings.reference.as_deref().map(str::trim) == Some(old.as_str())
            && !still_named
        {
            settings.reference = Some(label.trim().to_owned());
        }
        if let Some(target) = self.targets.get_mut(row) {
            target.label = label;
        }
    }

    /// Parses and validates the form.
    ///
    /// # Errors
    /// One message per field that is not a number or breaks a plan rule.
    pub fn to_plan(&self) -> Result<Plan, PlanError> {
        let mut errors = Vec::new();
        let mut num = |field: &str, text: &str, whole: bool| -> Value {
            let trimmed = text.trim();
            if whole {
                if let Ok(v) = trimmed.parse::<u64>() {
                    return Value::from(v);
                }
                errors.push(FieldError::new(
                    field,
                    Problem::NotWholeNumber {
                        text: text.to_owned(),
                    },
                ));
            } else {
                match trimmed.parse::<f64>() {
                    Ok(v) if v.is_finite() => return Value::from(v),
                    _ => errors.push(FieldError::new(
                        field,
                        Problem::NotNumber {
                            text: text.to_owned(),
                        },
                    )),
                }
            }
            Value::Null
        };
        let requests = num("requests_per_target", &self.requests_per_target, true);
        let warmup = num("warmup_per_target", &self.warmup_per_target, true);
        let spacing = num("spacing_s", &self.spacing_s, false);
        let jitter = num("jitter_s", &self.jitter_s, false);
        let spread = if self.spread_hours.trim().is_empty() {
            Value::Null
        } else {
            num("spread_hours", &self.spread_hours, false)
        };
        let timeout = num("timeout_s", &self.timeout_s, false);
        let max_tokens = num("max_tokens", &self.max_tokens, true);
        let temperature = num("temperature", &self.temperature, false);
        let peak_start = num("peak_hours[0]", &self.peak_start, true);
        let peak_end = num("peak_hours[1]", &self.peak_end, true);
        let ttft_budget = if self.ttft_budget_ms.trim().is_empty() {
            Value::Null
        } else {
            num("ttft_budget_ms", &self.ttft_budget_ms, false)
        };
        // A list with a piece that is no number names that piece; the
        // plan's own rule (how many, how long, all different) says the rest.
        let idle_gaps = if self.idle_gaps_s.trim().is_empty() {
            Value::Null
        } else {
            list_pieces(&self.idle_gaps_s)
                .map(|piece| num("idle_gaps_s", piece, false))
                .collect()
        };
        let typical_gap = if self.typical_gap_s.trim().is_empty() {
            Value::Null
        } else {
            num("typical_gap_s", &self.typical_gap_s, false)
        };
        let dedicated = if self.dedicated_usd_per_hour.trim().is_empty() {
            Value::Null
        } else {
            num(
                "dedicated_usd_per_hour",
                &self.dedicated_usd_per_hour,
                false,
            )
        };
        // Sizes are whole tokens; as for the gaps, a piece that is none is
        // named and the plan's own rule says the rest.
        let prompt_sizes = if self.prompt_sizes.trim().is_empty() {
            Value::Null
        } else {
            list_pieces(&self.prompt_sizes)
                .map(|piece| num("prompt_sizes", piece, true))
                .collect()
        };
        let typical_prompt = if self.typical_prompt_tokens.trim().is_empty() {
            Value::Null
        } else {
            num("typical_prompt_tokens", &self.typical_prompt_tokens, true)
        };
        let mut prices = Vec::with_capacity(self.targets.len());
        for (i, t) in self.targets.iter().enumerate() {
            let fields = [&t.price_input, &t.price_output, &t.price_cached];
            if fields.iter().all(|f| f.trim().is_empty()) {
                prices.push(Value::Null);
                continue;
            }
            let input = num(
                &format!("targets[{i}].price.input_per_mtok"),
                &t.price_input,
                false,
            );
            let output = num(
                &format!("targets[{i}].price.output_per_mtok"),
                &t.price_output,
                false,
            );
            let mut price = json!({ "input_per_mtok": input, "output_per_mtok": output });
            if !t.price_cached.trim().is_empty() {
                price["cached_input_per_mtok"] = num(
                    &format!("targets[{i}].price.cached_input_per_mtok"),
                    &t.price_cached,
                    false,
                );
            }
            prices.push(price);
        }
        if !errors.is_empty() {
            return Err(PlanError::Invalid(errors));
        }
        let targets: Vec<Value> = self
            .targets
            .iter()
            .zip(prices)
            .map(|(t, price)| {
                let mut target = json!({
                    "label": t.label.trim(),
                    "protocol": t.protocol,
                    "base_url": t.base_url.trim(),
                    "model": t.model.trim(),
                });
                if t.preset != "custom" {
                    target["provider"] = Value::from(t.preset.clone());
                }
                if !price.is_null() {
                    target["price"] = price;
                }
                if !t.openrouter_provider.trim().is_empty() {
                    target["openrouter_provider"] = Value::from(t.openrouter_provider.trim());
                }
                target
            })
            .collect();
        let document = json!({
            "firsttoken_plan": (crate::core::planning::plan::PLAN_VERSION),
            "targets": targets,
            "requests_per_target": requests,
            "warmup_per_target": warmup,
            "spacing_s": spacing,
            "jitter_s": jitter,
            "spread_hours": spread,
            "timeout_s": timeout,
            "prompt": (self.prompt.as_str()),
            "nonce": (self.nonce),
            "max_tokens": max_tokens,
            "temperature": temperature,
            "reasoning_counts_as_first_token": (self.reasoning_counts_as_first_token),
            "peak_hours": [peak_start, peak_end],
            "peak_tz": (Some(self.peak_tz.trim()).filter(|zone| !zone.is_empty())),
            "ttft_budget_ms": ttft_budget,
            "fidelity": (self.fidelity_plan()),
            "prompt_sizes": prompt_sizes,
            "typical_prompt_tokens": typical_prompt,
            "prompt_cache_probe": (self.prompt_cache_probe),
            "idle_gaps_s": idle_gaps,
            "typical_gap_s": typical_gap,
            "dedicated_usd_per_hour": dedicated,
            "until_decided": (self.until_decided.0),
            "min_requests_per_target": (self.until_decided.1),
            "objectives": (self.until_decided.2),
            "equivalent_within_pct": (self.until_decided.3),
        });
        Plan::from_json(&crate::core::base::document::to_string(&document))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::base::lang::Lang;

    #[test]
    fn a_label_the_form_wrote_follows_the_base_url_and_model_and_a_typed_one_stays() {
        let openai = TargetForm {
            preset: "openai".into(),
            label: "OpenAI · gpt-4o-mini".into(),
            base_url: "https://api.openai.com/v1".into(),
            model: "gpt-4o-mini".into(),
            protocol: Protocol::OpenAi,
            ..TargetForm::empty()
        };
        let mut form = PlanForm::from_plan(&Plan::default());
        form.targets = vec![openai.clone()];
        edit_target(&mut form, 0, |t| {
            t.base_url = "http://127.0.0.1:8787/v1".into()
        });
        assert_eq!(
            form.targets[0].label,
            "OpenAI · gpt-4o-mini · 127.0.0.1:8787"
        );
        edit_target(&mut form, 0, |t| t.model = "gpt-4o".into());
        assert_eq!(form.targets[0].label, "OpenAI · gpt-4o · 127.0.0.1:8787");
        edit_target(&mut form, 0, |t| {
            t.base_url = "https://api.openai.com/v1".into()
        });
        assert_eq!(form.targets[0].label, "OpenAI · gpt-4o");
        // Typed by the person: kept whatever the row points at.
        form.set_target_label(0, "Mine".into());
        edit_target(&mut form, 0, |t| {
            t.base_url = "http://127.0.0.1:8787/v1".into()
        });
        assert_eq!(form.targets[0].label, "Mine");
        // The runner's `--target` names the same row the same way.
        let flags = crate::core::planning::plan_flags::TargetSpec::parse(
            "openai:gpt-4o@http://127.0.0.1:8787/v1",
        )
        .unwrap()
        .to_target();
        let mut form = PlanForm::from_plan(&Plan::default());
        form.targets = vec![openai];
        edit_target(&mut form, 0, |t| {
            t.model = "gpt-4o".into();
            t.base_url = "http://127.0.0.1:8787/v1".into();
        });
        assert_eq!(form.targets[0].label, flags.label);
    }

    #[test]
    fn prices_and_an_openrouter_upstream_round_trip_and_half_a_price_is_an_error() {
        let mut form = PlanForm::from_plan(&demo_plan(Lang::En));
        form.targets[0].price_input = "0.27".to_owned();
        form.targets[0].price_output = "1.1".to_owned();
        form.targets[1].protocol = Protocol::OpenAi;
        form.targets[1].preset = "openrouter".to_owned();
        form.targets[1].base_url = "https://openrouter.ai/api/v1".to_owned();
        form.targets[1].openrouter_provider = " deepinfra ".to_owned();
        let plan = form.to_plan().unwrap();
        let price = plan.targets[0].price.unwrap();
        assert_eq!((price.input_per_mtok, price.output_per_mtok), (0.27, 1.1));
        assert_eq!(price.cached_input_per_mtok, None);
        assert_eq!(
            plan.targets[1].openrouter_provider.as_deref(),
            Some("deepinfra")
        );
        assert_eq!(PlanForm::from_plan(&plan), {
            let mut expected = form.clone();
            expected.targets[1].openrouter_provider = "deepinfra".to_owned();
            expected
        });

        form.targets[0].price_output = String::new();
        let errors = form.to_plan().unwrap_err().messages();
        assert!(
            errors
                .iter()
                .any(|e| e.contains("targets[0].price.output_per_mtok")),
            "{errors:?}"
        );
        form.targets[0].price_output = "-1".to_owned();
        let errors = form.to_plan().unwrap_err().messages();
        assert!(
            errors.iter().any(|e| e.contains("output_per_mtok")),
            "{errors:?}"
        );
    }

    #[test]
    fn the_demo_plan_round_trips_through_the_form() {
        let plan = demo_plan(Lang::En);
        let form = PlanForm::from_plan(&plan);
        assert_eq!(form.spacing_s, "0.25");
        assert_eq!(form.to_plan().unwrap(), plan);
    }

    #[test]
    fn a_ticked_fidelity_check_is_basic_1_twice_against_the_first_target() {
        let mut latency_only = demo_plan(Lang::En);
        latency_only.fidelity = None;
        let mut form = PlanForm::from_plan(&latency_only);
        assert!(!form.fidelity);
        assert_eq!(form.to_plan().unwrap().fidelity, None);
        form.fidelity = true;
        let plan = form.to_plan().unwrap();
        assert_eq!(
            plan.fidelity,
            Some(FidelityPlan::basic(Some("Demo A · steady".to_owned())))
        );
        // The plan shows as ticked, and comes back the same.
        let shown = PlanForm::from_plan(&plan);
        assert!(shown.fidelity);
        assert_eq!(shown.to_plan().unwrap(), plan);
        // Unticked: latency only.
        form.fidelity = false;
        assert_eq!(form.to_plan().unwrap().fidelity, None);
    }

    #[test]
    fn a_loaded_plans_fidelity_keeps_its_reference_and_repeats() {
        let mut plan = demo_plan(Lang::En);
        plan.fidelity = Some(FidelityPlan {
            repeats: 3,
            ..FidelityPlan::basic(Some("Demo B · cold starts".to_owned()))
        });
        let mut form = PlanForm::from_plan(&plan);
        assert!(form.fidelity);
        assert_eq!(form.to_plan().unwrap(), plan);

        // Unticked and ticked again: the same settings.
        form.fidelity = false;
        assert_eq!(form.to_plan().unwrap().fidelity, None);
        form.fidelity = true;
        assert_eq!(form.to_plan().unwrap(), plan);

        // The reference follows its row's rename.
        form.set_target_label(1, "Demo B".to_owned());
        let renamed = form.to_plan().unwrap();
        let fidelity = renamed.fidelity.unwrap();
        assert_eq!(fidelity.reference.as_deref(), Some("Demo B"));
        assert_eq!(fidelity.repeats, 3);
        assert_eq!(renamed.targets[1].label, "Demo B");

        // Its row removed: the first target becomes the reference.
        form.targets.remove(1);
        let fidelity = form.to_plan().unwrap().fidelity.unwrap();
        assert_eq!(fidelity.reference.as_deref(), Some("Demo A · steady"));
        assert_eq!(fidelity.repeats, 3);

        // No reference (absolute rates only) stays none.
        plan.fidelity = Some(FidelityPlan::basic(None));
        assert_eq!(PlanForm::from_plan(&plan).to_plan().unwrap(), plan);
    }

    #[test]
    fn a_rename_leaves_the_reference_while_another_row_keeps_its_label() {
        let mut plan = demo_plan(Lang::En);
        plan.fidelity = Some(FidelityPlan::basic(Some("Demo A · steady".to_owned())));
        let mut form = PlanForm::from_plan(&plan);
        // "Add target" copies the last row, label included.
        form.targets.push(form.targets[0].clone());
        form.set_target_label(2, "Demo C".to_owned());
        assert_eq!(
            form.fidelity_plan().unwrap().reference.as_deref(),
            Some("Demo A · steady")
        );
        assert_eq!(form.targets[2].label, "Demo C");
    }

    #[test]
    fn non_numbers_are_named_by_field() {
        let mut form = PlanForm::from_plan(&demo_plan(Lang::En));
        form.requests_per_target = "lots".into();
        form.timeout_s = "".into();
        let error = form.to_plan().unwrap_err();
        let errors = error.messages();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert_eq!(
            errors[0],
            "requests_per_target: \"lots\" is not a whole number"
        );
        assert!(errors[1].starts_with("timeout_s"));
        // The page in Chinese says it in Chinese.
        assert_eq!(
            error.messages_in(Lang::ZhCn),
            [
                "requests_per_target：\"lots\" 不是整数",
                "timeout_s：\"\" 不是数字"
            ]
        );
    }

    #[test]
    fn plan_rules_come_from_the_plan_validator() {
        let mut form = PlanForm::from_plan(&demo_plan(Lang::En));
        form.targets.clear();
        let errors = form.to_plan().unwrap_err().messages();
        assert!(errors.iter().any(|e| e.contains("targets")), "{errors:?}");
    }

    /// The demo plan measuring idle gaps of 1, 2 and 4 s.
    fn idle_plan() -> Plan {
        Plan {
            idle_gaps_s: Some(vec![1.0, 2.0, 4.0]),
            typical_gap_s: Some(2.5),
            dedicated_usd_per_hour: Some(1.5),
            ..demo_plan(Lang::En)
        }
    }

    #[test]
    fn idle_gaps_typical_gap_and_dedicated_price_round_trip() {
        let plan = idle_plan();
        let form = PlanForm::from_plan(&plan);
        assert_eq!(form.idle_gaps_s, "1, 2, 4");
        assert_eq!(form.typical_gap_s, "2.5");
        assert_eq!(form.dedicated_usd_per_hour, "1.5");
        assert_eq!(form.to_plan().unwrap(), plan);
        // Through the link and a saved file, as a person shares them.
        let linked = Plan::from_link_fragment(&plan.to_link_fragment()).unwrap();
        assert_eq!(PlanForm::from_plan(&linked), form);
        let saved = Plan::from_json(&plan.to_json_pretty()).unwrap();
        assert_eq!(PlanForm::from_plan(&saved), form);
    }

    #[test]
    fn idle_gaps_are_read_between_commas_and_spaces_in_either_language() {
        let mut form = PlanForm::from_plan(&demo_plan(Lang::En));
        for typed in [
            "10, 60, 300, 900",
            "10,60,300,900",
            "10 60 300 900",
            "10，60、300 , 900,",
        ] {
            form.idle_gaps_s = typed.to_owned();
            assert_eq!(
                form.to_plan().unwrap().idle_gaps_s,
                Some(vec![10.0, 60.0, 300.0, 900.0]),
                "{typed}"
            );
        }
        form.idle_gaps_s = "0.5, 90".to_owned();
        assert_eq!(form.to_plan().unwrap().idle_gaps_s, Some(vec![0.5, 90.0]));
    }

    #[test]
    fn empty_idle_fields_leave_the_plan_as_it_was() {
        let plan = demo_plan(Lang::En);
        let mut form = PlanForm::from_plan(&plan);
        assert_eq!(
            (
                form.idle_gaps_s.as_str(),
                form.typical_gap_s.as_str(),
                form.dedicated_usd_per_hour.as_str()
            ),
            ("", "", "")
        );
        form.idle_gaps_s = "  ".to_owned();
        form.typical_gap_s = " ".to_owned();
        let read = form.to_plan().unwrap();
        assert_eq!(read, plan);
        let json = read.to_json_pretty();
        for member in ["idle_gaps_s", "typical_gap_s", "dedicated_usd_per_hour"] {
            assert!(!json.contains(member), "{member} in {json}");
        }
        assert_eq!(json, plan.to_json_pretty());
    }

    #[test]
    fn idle_field_errors_are_the_plan_readers_in_both_languages() {
        let fields = |error: &PlanError| -> Vec<String> {
            match error {
                PlanError::Invalid(errors) => errors.iter().map(|e| e.field.clone()).collect(),
                other => panic!("{other:?}"),
            }
        };
        let mut form = PlanForm::from_plan(&idle_plan());
        // A piece that is no number is named.
        form.idle_gaps_s = "1, 2 mins, 4".to_owned();
        let error = form.to_plan().unwrap_err();
        assert_eq!(fields(&error), ["idle_gaps_s"]);
        assert_eq!(error.messages(), ["idle_gaps_s: \"mins\" is not a number"]);
        assert_eq!(
            error.messages_in(Lang::ZhCn),
            ["idle_gaps_s：\"mins\" 不是数字"]
        );
        // A repeated, zero or too long gap: the plan's own rule, worded as
        // a loaded file's.
        for typed in ["1, 1", "0, 2", "1, 100000"] {
            form.idle_gaps_s = typed.to_owned();
            let error = form.to_plan().unwrap_err();
            let mut document = idle_plan();
            document.idle_gaps_s = Some(list_pieces(typed).map(|p| p.parse().unwrap()).collect());
            let from_file = Plan::from_json(&document.to_json_pretty()).unwrap_err();
            assert_eq!(fields(&error), ["idle_gaps_s"], "{typed}");
            for lang in [Lang::En, Lang::ZhCn] {
                assert_eq!(
                    error.messages_in(lang),
                    from_file.messages_in(lang),
                    "{typed}"
                );
            }
        }
        assert!(error_text(&form, Lang::ZhCn).contains("互不相同的空闲时长"));
        form.idle_gaps_s = "1, 2, 4".to_owned();
        form.typical_gap_s = "0".to_owned();
        form.dedicated_usd_per_hour = "-1".to_owned();
        let error = form.to_plan().unwrap_err();
        assert_eq!(fields(&error), ["typical_gap_s", "dedicated_usd_per_hour"]);
        form.typical_gap_s = "a minute".to_owned();
        form.dedicated_usd_per_hour = "$2".to_owned();
        let error = form.to_plan().unwrap_err();
        assert_eq!(
            error.messages(),
            [
                "typical_gap_s: \"a minute\" is not a number",
                "dedicated_usd_per_hour: \"$2\" is not a number"
            ]
        );
    }

    #[test]
    fn a_fields_problems_are_said_at_it_without_its_name() {
        let mut form = PlanForm::from_plan(&idle_plan());
        form.typical_gap_s = "x".to_owned();
        let error = form.to_plan().unwrap_err();
        let at = |field, lang| problems_at(&error, field, lang);
        assert_eq!(at("typical_gap_s", Lang::En), ["\"x\" is not a number"]);
        assert_eq!(at("typical_gap_s", Lang::ZhCn), ["\"x\" 不是数字"]);
        assert!(at("idle_gaps_s", Lang::En).is_empty());
        form.typical_gap_s = "60".to_owned();
        form.idle_gaps_s = "1, 1".to_owned();
        let error = form.to_plan().unwrap_err();
        let gaps = problems_at(&error, "idle_gaps_s", Lang::ZhCn);
        assert_eq!(gaps.len(), 1);
        assert!(
            gaps[0].starts_with("必须列出 1 到 12 个互不相同的空闲时长"),
            "{gaps:?}"
        );
        assert!(problems_at(&error, "dedicated_usd_per_hour", Lang::En).is_empty());
        // A refusal of the whole document is no field's.
        assert!(problems_at(&PlanError::NotAPlan, "idle_gaps_s", Lang::En).is_empty());
    }

    fn error_text(form: &PlanForm, lang: Lang) -> String {
        form.to_plan().unwrap_err().messages_in(lang).join("\n")
    }

    /// The demo plan measuring prompt sizes of 128 and 2 048 tokens.
    fn sized_plan() -> Plan {
        Plan {
            prompt_sizes: Some(vec![128, 2048]),
            typical_prompt_tokens: Some(1024),
            prompt_cache_probe: true,
            nonce: true,
            ..demo_plan(Lang::En)
        }
    }

    #[test]
    fn a_loaded_plans_prompt_sizes_are_kept() {
        let plan = sized_plan();
        let form = PlanForm::from_plan(&plan);
        assert_eq!(form.prompt_sizes, "128, 2048");
        assert_eq!(form.typical_prompt_tokens, "1024");
        assert!(form.prompt_cache_probe);
        assert_eq!(form.to_plan().unwrap(), plan);
        // Through the link and a saved file, as a person shares them.
        let linked = Plan::from_link_fragment(&plan.to_link_fragment()).unwrap();
        assert_eq!(PlanForm::from_plan(&linked), form);
        let saved = Plan::from_json(&plan.to_json_pretty()).unwrap();
        assert_eq!(PlanForm::from_plan(&saved), form);
        // Edited in the form, the plan says what was typed.
        let mut edited = form.clone();
        edited.prompt_sizes = "128 8192 32768".to_owned();
        edited.typical_prompt_tokens = " 4096 ".to_owned();
        edited.prompt_cache_probe = false;
        let read = edited.to_plan().unwrap();
        assert_eq!(read.prompt_sizes, Some(vec![128, 8192, 32768]));
        assert_eq!(read.typical_prompt_tokens, Some(4096));
        assert!(!read.prompt_cache_probe);
    }

    #[test]
    fn prompt_sizes_are_read_between_commas_and_spaces_in_either_language() {
        let mut form = PlanForm::from_plan(&demo_plan(Lang::En));
        for typed in [
            "128, 1024, 8192",
            "128,1024,8192",
            "128 1024 8192",
            "128，1024、8192 ,",
        ] {
            form.prompt_sizes = typed.to_owned();
            assert_eq!(
                form.to_plan().unwrap().prompt_sizes,
                Some(vec![128, 1024, 8192]),
                "{typed}"
            );
        }
    }

    #[test]
    fn a_loaded_plan_that_runs_until_decided_still_does() {
        let mut plan = demo_plan(Lang::En);
        plan.until_decided = true;
        plan.min_requests_per_target = Some(20);
        plan.objectives = vec!["p95>2s".into()];
        plan.equivalent_within_pct = Some(10.0);
        assert_eq!(PlanForm::from_plan(&plan).to_plan().unwrap(), plan);
        let plain = demo_plan(Lang::En);
        let json = PlanForm::from_plan(&plain)
            .to_plan()
            .unwrap()
            .to_json_pretty();
        assert!(!json.contains("until_decided"), "{json}");
        assert!(!json.contains("min_requests_per_target"), "{json}");
        assert!(!json.contains("objectives"), "{json}");
        assert!(!json.contains("equivalent_within_pct"), "{json}");
    }

    #[test]
    fn empty_prompt_fields_leave_the_plan_as_it_was() {
        let plan = demo_plan(Lang::En);
        let mut form = PlanForm::from_plan(&plan);
        assert_eq!(
            (
                form.prompt_sizes.as_str(),
                form.typical_prompt_tokens.as_str(),
                form.prompt_cache_probe
            ),
            ("", "", false)
        );
        form.prompt_sizes = " ".to_owned();
        form.typical_prompt_tokens = "  ".to_owned();
        let read = form.to_plan().unwrap();
        assert_eq!(read, plan);
        let json = read.to_json_pretty();
        for member in [
            "prompt_sizes",
            "typical_prompt_tokens",
            "prompt_cache_probe",
        ] {
            assert!(!json.contains(member), "{member} in {json}");
        }
    }

    #[test]
    fn prompt_field_errors_name_the_field_and_the_text_in_both_languages() {
        let mut form = PlanForm::from_plan(&sized_plan());
        form.prompt_sizes = "128, 2k".to_owned();
        form.typical_prompt_tokens = "1.5".to_owned();
        let error = form.to_plan().unwrap_err();
        assert_eq!(
            error.messages(),
            [
                "prompt_sizes: \"2k\" is not a whole number",
                "typical_prompt_tokens: \"1.5\" is not a whole number"
            ]
        );
        assert_eq!(
            error.messages_in(Lang::ZhCn),
            [
                "prompt_sizes：\"2k\" 不是整数",
                "typical_prompt_tokens：\"1.5\" 不是整数"
            ]
        );
        assert_eq!(
            problems_at(&error, "prompt_sizes", Lang::En),
            ["\"2k\" is not a whole number"]
        );
        // A repeated, zero or too large size, or a typical size out of
        // range: the plan's own rule, worded as a loaded file's.
        form.typical_prompt_tokens = "1024".to_owned();
        for typed in ["128, 128", "0, 128", "128, 3000000"] {
            form.prompt_sizes = typed.to_owned();
            let error = form.to_plan().unwrap_err();
            let document = Plan {
                prompt_sizes: Some(list_pieces(typed).map(|p| p.parse().unwrap()).collect()),
                ..sized_plan()
            };
            let from_file = Plan::from_json(&document.to_json_pretty()).unwrap_err();
            for lang in [Lang::En, Lang::ZhCn] {
                assert_eq!(
                    error.messages_in(lang),
                    from_file.messages_in(lang),
                    "{typed}"
                );
            }
            assert!(
                problems_at(&error, "prompt_sizes", Lang::ZhCn)[0]
                    .starts_with("必须列出 1 到 16 个互不相同的长度"),
                "{typed}"
            );
        }
        form.prompt_sizes = "128, 2048".to_owned();
        form.typical_prompt_tokens = "0".to_owned();
        let error = form.to_plan().unwrap_err();
        assert_eq!(
            problems_at(&error, "typical_prompt_tokens", Lang::En),
            ["must be between 1 and 2000000"]
        );
        assert!(problems_at(&error, "prompt_sizes", Lang::En).is_empty());
    }

    #[test]
    fn an_empty_spread_means_spacing() {
        let mut form = PlanForm::from_plan(&demo_plan(Lang::En));
        form.spread_hours = " ".into();
        assert_eq!(form.to_plan().unwrap().spread_hours, None);
        form.spread_hours = "6".into();
        assert_eq!(form.to_plan().unwrap().spread_hours, Some(6.0));
    }
}
