//! The plan card: how many requests, warm-ups, their spacing or spread, the
//! timeout and budget, peak hours, idle gaps, the prompt and its options
//! (the sizes to measure among them), the fidelity check, and what is wrong
//! with the plan or worth a warning.

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::core::judgement::fidelity_score::FidelityVerdict;
use crate::core::narrative::fidelity::{probe_cost_text, verdict_word};
use crate::core::narrative::sentences::labelled;
use crate::ui::model::i18n::warning_text;
use crate::ui::model::state::{Action, State};

use super::{PlanCardProps, edit, toggle};

/// The plan card's fields, with the plan's errors and warnings below them.
#[component]
pub(super) fn PlanFields(props: &PlanCardProps) -> Html {
    let state = &props.page.state;
    let t = state.lang.texts();
    let form = &state.form;
    let warnings: Vec<String> = match props.validated.as_ref() {
        Ok(plan) => plan
            .warnings()
            .iter()
            .map(|w| warning_text(state.lang, plan, w))
            .collect(),
        Err(_) => Vec::new(),
    };
    let errors: Vec<String> = match props.validated.as_ref() {
        Ok(_) => Vec::new(),
        Err(error) => error.messages_in(state.lang),
    };
    let on_prompt = {
        let state = state.clone();
        Callback::from(move |e: InputEvent| {
            let mut form = state.form.clone();
            form.prompt = e.target_unchecked_into::<HtmlTextAreaElement>().value();
            state.dispatch(Action::SetForm(form));
        })
    };
    html! {
        <section class="card">
            <h2>{t.plan}</h2>
            <div class="grid">
                { number_field("plan-requests", t.requests_per_target, &form.requests_per_target, edit(state, |f, v| f.requests_per_target = v), None) }
                { number_field("plan-warmup", t.warmup_per_target, &form.warmup_per_target, edit(state, |f, v| f.warmup_per_target = v), None) }
                { number_field("plan-spacing", t.spacing_s, &form.spacing_s, edit(state, |f, v| f.spacing_s = v), None) }
                { number_field("plan-jitter", t.jitter_s, &form.jitter_s, edit(state, |f, v| f.jitter_s = v), None) }
                { number_field("plan-spread", t.spread_hours, &form.spread_hours, edit(state, |f, v| f.spread_hours = v), Some(t.spread_hint)) }
                { number_field("plan-timeout", t.timeout_s, &form.timeout_s, edit(state, |f, v| f.timeout_s = v), None) }
                { number_field("plan-ttft-budget", t.ttft_budget, &form.ttft_budget_ms, edit(state, |f, v| f.ttft_budget_ms = v), Some(t.ttft_budget_hint)) }
                { number_field("plan-max-tokens", t.max_tokens, &form.max_tokens, edit(state, |f, v| f.max_tokens = v), None) }
                { number_field("plan-temperature", t.temperature, &form.temperature, edit(state, |f, v| f.temperature = v), None) }
                { number_field("plan-peak-start", t.peak_start, &form.peak_start, edit(state, |f, v| f.peak_start = v), None) }
                { number_field("plan-peak-end", t.peak_end, &form.peak_end, edit(state, |f, v| f.peak_end = v), None) }
                <div class="field">
                    <label for="plan-peak-tz">{t.peak_tz}</label>
                    <input id="plan-peak-tz" value={form.peak_tz.clone()} oninput={edit(state, |f, v| f.peak_tz = v)} placeholder={t.peak_tz_hint} autocomplete="off" spellcheck="false" />
                </div>
            </div>
            { idle_fields(props) }
            <div class="field wide">
                <label for="plan-prompt">{t.prompt}</label>
                <textarea id="plan-prompt" rows="2" value={form.prompt.clone()} oninput={on_prompt} />
            </div>
            <div class="field check">
                <input id="plan-nonce" type="checkbox" checked={form.nonce} onchange={toggle(state, |f, v| f.nonce = v)} />
                <label for="plan-nonce">{t.nonce}</label>
            </div>
            <div class="field check">
                <input id="plan-reasoning" type="checkbox" checked={form.reasoning_counts_as_first_token} onchange={toggle(state, |f, v| f.reasoning_counts_as_first_token = v)} />
                <label for="plan-reasoning">{t.reasoning_first}</label>
            </div>
            { prompt_fields(props) }
            { fidelity_option(state) }
            <p class="hint">{t.warmup_note}</p>
            if !errors.is_empty() {
                <div class="errors" role="alert">
                    <h3>{t.plan_errors}</h3>
                    <ul>{ for errors.iter().map(|e| html! { <li>{e.clone()}</li> }) }</ul>
                </div>
            }
            if !warnings.is_empty() {
                <div class="warnings">
                    <h3>{t.warnings}</h3>
                    <ul>{ for warnings.iter().map(|w| html! { <li>{w.clone()}</li> }) }</ul>
                </div>
            }
        </section>
    }
}

fn number_field(
    id: &str,
    label: &str,
    value: &str,
    oninput: Callback<InputEvent>,
    hint: Option<&str>,
) -> Html {
    html! {
        <div class="field">
            <label for={id.to_owned()}>{label.to_owned()}</label>
            <input id={id.to_owned()} inputmode="decimal" value={value.to_owned()} {oninput} placeholder={hint.map(str::to_owned)} />
        </div>
    }
}

/// A field with what is wrong with it said under it (core's words for the
/// plan member, as a loaded file gets them), tied to the input for
/// assistive technology. `decimal` asks phones for a number pad; a list of
/// gaps needs commas and spaces, which that pad may lack.
fn checked_field(
    id: &str,
    label: &str,
    value: &str,
    decimal: bool,
    oninput: Callback<InputEvent>,
    problems: Vec<String>,
) -> Html {
    let problem_id = format!("{id}-problem");
    let bad = !problems.is_empty();
    html! {
        <div class="field">
            <label for={id.to_owned()}>{label.to_owned()}</label>
            <input id={id.to_owned()} inputmode={decimal.then_some("decimal")} value={value.to_owned()} {oninput} autocomplete="off"
                aria-invalid={bad.then_some("true")} aria-describedby={bad.then(|| problem_id.clone())} />
            if bad { <p class="hint status bad" id={problem_id}>{problems.join(" ")}</p> }
        </div>
    }
}

/// A field for a list of numbers typed between commas or spaces (which a
/// phone's number pad may lack, so it asks for none), its problems said
/// under it and the block's hint, `hint_id`, tied to it.
fn list_field(
    id: &str,
    label: &str,
    value: &str,
    placeholder: &str,
    oninput: Callback<InputEvent>,
    problems: Vec<String>,
    hint_id: &str,
) -> Html {
    let problem_id = format!("{id}-problem");
    let bad = !problems.is_empty();
    let described = if bad {
        format!("{problem_id} {hint_id}")
    } else {
        hint_id.to_owned()
    };
    html! {
        <div class="field">
            <label for={id.to_owned()}>{label.to_owned()}</label>
            <input id={id.to_owned()} value={value.to_owned()} {oninput} placeholder={placeholder.to_owned()} autocomplete="off" spellcheck="false"
                aria-invalid={bad.then_some("true")} aria-describedby={described} />
            if bad { <p class="hint status bad" id={problem_id}>{problems.join(" ")}</p> }
        </div>
    }
}

/// Idle time: the gaps to measure and, once there are any, the person's
/// own spacing and a dedicated endpoint's price, which the results weigh
/// the gaps against; each field's problems said at it.
fn idle_fields(props: &PlanCardProps) -> Html {
    let state = &props.page.state;
    let lang = state.lang;
    let t = lang.texts();
    let form = &state.form;
    let problems = |field: &str| props.problems(field);
    let asked = !form.idle_gaps_s.trim().is_empty()
        || !form.typical_gap_s.trim().is_empty()
        || !form.dedicated_usd_per_hour.trim().is_empty();
    html! {
        <div class="idle-option">
            <div class="grid">
                { list_field("plan-idle-gaps", t.idle_gaps, &form.idle_gaps_s, t.idle_gaps_hint, edit(state, |f, v| f.idle_gaps_s = v), problems("idle_gaps_s"), "idle-hint") }
                if asked {
                    { checked_field("plan-typical-gap", t.typical_gap, &form.typical_gap_s, true, edit(state, |f, v| f.typical_gap_s = v), problems("typical_gap_s")) }
                    { checked_field("plan-dedicated", t.dedicated_usd_per_hour, &form.dedicated_usd_per_hour, true, edit(state, |f, v| f.dedicated_usd_per_hour = v), problems("dedicated_usd_per_hour")) }
                }
            </div>
            <p class="hint" id="idle-hint">{t.idle_note}</p>
        </div>
    }
}

/// Prompt sizes: the sizes to measure TTFT at and, once there are any, the
/// person's typical size, which the routing weighs, and the cache probe,
/// which sends each long size twice; each field's problems said at it.
fn prompt_fields(props: &PlanCardProps) -> Html {
    let state = &props.page.state;
    let lang = state.lang;
    let t = lang.texts();
    let form = &state.form;
    let problems = |field: &str| props.problems(field);
    // A loaded plan may carry a typical size or the probe without sizes:
    // shown, so nothing the plan sends is out of sight.
    let asked = !form.prompt_sizes.trim().is_empty()
        || !form.typical_prompt_tokens.trim().is_empty()
        || form.prompt_cache_probe;
    html! {
        <div class="prompt-option">
            <div class="grid">
                { list_field("plan-prompt-sizes", t.prompt_sizes, &form.prompt_sizes, t.prompt_sizes_hint, edit(state, |f, v| f.prompt_sizes = v), problems("prompt_sizes"), "prompt-sizes-hint") }
                if asked {
                    { checked_field("plan-typical-prompt", t.typical_prompt_tokens, &form.typical_prompt_tokens, true, edit(state, |f, v| f.typical_prompt_tokens = v), problems("typical_prompt_tokens")) }
                }
            </div>
            if asked {
                <div class="field check">
                    <input id="plan-cache-probe" type="checkbox" checked={form.prompt_cache_probe} onchange={toggle(state, |f, v| f.prompt_cache_probe = v)} />
                    <label for="plan-cache-probe">{t.prompt_cache_probe}</label>
                </div>
            }
            <p class="hint" id="prompt-sizes-hint">{t.prompt_sizes_note}</p>
        </div>
    }
}

/// The fidelity check's box and what it is; once ticked, what it adds to
/// the run (said before Start) and the target the others are judged
/// against.
fn fidelity_option(state: &UseReducerHandle<State>) -> Html {
    let lang = state.lang;
    let t = lang.texts();
    let form = &state.form;
    let ticked = form.fidelity_plan().map(|plan| {
        let cost = probe_cost_text(
            lang,
            plan.requests_per_target(),
            form.targets.len(),
            plan.suite.as_str(),
            plan.repeats,
        );
        let reference = plan.reference.unwrap_or_else(|| {
            // A loaded plan may name none: absolute pass rates only.
            verdict_word(lang, FidelityVerdict::NoReference).to_owned()
        });
        (cost, labelled(lang, t.fidelity_reference, &reference))
    });
    html! {
        <div class="fidelity-option">
            <div class="field check">
                <input id="fidelity-check" type="checkbox" checked={form.fidelity} onchange={toggle(state, |f, v| f.fidelity = v)} aria-describedby="fidelity-hint" />
                <label for="fidelity-check">{t.fidelity_check}</label>
            </div>
            if let Some((cost, reference)) = ticked {
                <p class="hint" id="fidelity-cost">{cost}</p>
                <p class="hint" id="fidelity-reference">{reference}</p>
            }
            <p class="hint" id="fidelity-hint">{t.fidelity_hint}</p>
        </div>
    }
}
