//! The targets card: one row per provider endpoint × model, with its
//! preset, label, base URL, model (with the provider's list of models where
//! it has one), OpenRouter's upstream provider, prices, and what the
//! provider's browser access needs.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::browser::spawn;
use crate::core::planning::plan::{Protocol, Target, check_base_url, normalise_base_url};
use crate::core::planning::presets::{PRESETS, preset_by_id};
use crate::core::wire::protocol::{models_request, parse_models};
use crate::core::words::failure::blocked_request_text;
use crate::core::words::notice;
use crate::ui::model::form::TargetForm;
use crate::ui::model::i18n::Lang;
use crate::ui::model::keys::key_slot;
use crate::ui::model::state::{Action, State};

use super::{CardProps, edit, edit_target, to_target};

/// The targets card: every row, and "Add target", whose new row starts as
/// a copy of the last one.
#[component]
pub(super) fn TargetList(props: &CardProps) -> Html {
    let state = &props.state;
    let t = state.lang.texts();
    let form = &state.form;
    let on_add = {
        let state = state.clone();
        Callback::from(move |_| {
            let mut form = state.form.clone();
            let last = form.targets.last().cloned();
            form.targets.push(last.unwrap_or_else(TargetForm::empty));
            state.dispatch(Action::SetForm(form));
        })
    };
    html! {
        <section class="card">
            <h2>{t.targets}</h2>
            if form.targets.iter().any(|f| f.protocol == Protocol::Demo) { <p class="hint">{t.demo_note}</p> }
            { for form.targets.iter().enumerate().map(|(row, target)| target_row(state, row, target)) }
            <button type="button" onclick={on_add}>{t.add_target}</button>
        </section>
    }
}

/// One target's fields; each edit goes through the form in the state.
fn target_row(state: &UseReducerHandle<State>, row: usize, target: &TargetForm) -> Html {
    let t = state.lang.texts();
    let on_preset = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let id = e.target_unchecked_into::<HtmlSelectElement>().value();
            let mut form = state.form.clone();
            if let (Some(preset), Some(target)) = (preset_by_id(&id), form.targets.get_mut(row)) {
                // The demo's model names only the demo's behaviour: a row
                // leaving (or joining) the demo starts with no model, and
                // its label is the provider's name alone until one is set.
                if (target.protocol == Protocol::Demo) != (preset.protocol == Protocol::Demo) {
                    target.model.clear();
                }
                target.preset = preset.id.to_owned();
                target.base_url = preset.base_url.to_owned();
                target.protocol = preset.protocol;
                let label = preset.label_at(&target.model, &target.base_url);
                form.set_target_label(row, label);
            }
            state.dispatch(Action::SetForm(form));
        })
    };
    // Through the form, so a fidelity reference naming this row follows it.
    let on_label = edit(state, move |f, v| f.set_target_label(row, v));
    let on_base = edit_target(state, row, |t, v| t.base_url = v);
    let on_model = edit_target(state, row, |t, v| t.model = v);
    let on_price_input = edit_target(state, row, |t, v| t.price_input = v);
    let on_price_output = edit_target(state, row, |t, v| t.price_output = v);
    let on_price_cached = edit_target(state, row, |t, v| t.price_cached = v);
    let on_openrouter = edit_target(state, row, |t, v| t.openrouter_provider = v);
    let via_openrouter = target.preset == "openrouter"
        || target.base_url.contains("openrouter.ai")
        || !target.openrouter_provider.is_empty();
    let priced = [
        &target.price_input,
        &target.price_output,
        &target.price_cached,
    ]
    .iter()
    .any(|f| !f.trim().is_empty());
    let on_remove = {
        let state = state.clone();
        Callback::from(move |_| {
            let mut form = state.form.clone();
            if row < form.targets.len() {
                form.targets.remove(row);
            }
            state.dispatch(Action::SetForm(form));
        })
    };
    let lists_models = preset_by_id(&target.preset).is_some_and(|p| p.lists_models);
    let on_list = {
        let state = state.clone();
        let target = to_target(target);
        Callback::from(move |_| spawn(list_models(state.clone(), row, target.clone())))
    };
    let list_id = format!("models-{row}");
    let models = state.listed_models.get(&row).cloned().unwrap_or_default();
    let unlisted = state.unlisted_models.get(&row).cloned();
    let id = |name: &str| format!("target-{row}-{name}");
    // Said at the field, where it is fixed: Start, the link and Save plan
    // stay off until it is, and the plan's list far below is easy to miss.
    let url_problem = check_base_url(target.protocol, &normalise_base_url(&target.base_url))
        .err()
        .map(|problem| problem.text(state.lang));
    html! {
        <fieldset class="target-row" key={row}>
            <legend>{format!("{} {}", t.target, row + 1)}</legend>
            <div class="field">
                <label for={id("provider")}>{t.provider}</label>
                <select id={id("provider")} onchange={on_preset}>
                    { for PRESETS.iter().map(|p| html! {
                        <option value={p.id} selected={p.id == target.preset}>{p.name_in(state.lang)}</option>
                    }) }
                </select>
            </div>
            <div class="field">
                <label for={id("label")}>{t.label}</label>
                <input id={id("label")} value={target.label.clone()} oninput={on_label} />
            </div>
            <div class="field wide">
                <label for={id("base")}>{t.base_url}</label>
                <input id={id("base")} value={target.base_url.clone()} oninput={on_base} spellcheck="false"
                    aria-invalid={url_problem.is_some().then_some("true")} aria-describedby={url_problem.is_some().then(|| id("base-problem"))} />
                if let Some(problem) = url_problem { <p class="hint status bad" id={id("base-problem")}>{problem}</p> }
            </div>
            <div class="field">
                <label for={id("model")}>{t.model}</label>
                <input id={id("model")} value={target.model.clone()} oninput={on_model} list={list_id.clone()} spellcheck="false" />
                <datalist id={list_id}>{ for models.iter().map(|m| html! { <option value={m.clone()} /> }) }</datalist>
            </div>
            if via_openrouter {
                <div class="field">
                    <label for={id("openrouter")}>{t.openrouter_provider}</label>
                    <input id={id("openrouter")} value={target.openrouter_provider.clone()} oninput={on_openrouter} spellcheck="false" placeholder="deepinfra" />
                </div>
            }
            <details class="price wide" open={priced}>
                <summary>{t.cost}</summary>
                <div class="price-fields">
                    <div class="field">
                        <label for={id("price-input")}>{t.price_input}</label>
                        <input id={id("price-input")} inputmode="decimal" value={target.price_input.clone()} oninput={on_price_input} />
                    </div>
                    <div class="field">
                        <label for={id("price-output")}>{t.price_output}</label>
                        <input id={id("price-output")} inputmode="decimal" value={target.price_output.clone()} oninput={on_price_output} />
                    </div>
                    <div class="field">
                        <label for={id("price-cached")}>{t.price_cached}</label>
                        <input id={id("price-cached")} inputmode="decimal" value={target.price_cached.clone()} oninput={on_price_cached} />
                    </div>
                </div>
                <p class="hint">{t.price_hint}</p>
            </details>
            <div class="row-actions">
                if lists_models { <button type="button" onclick={on_list} aria-describedby={unlisted.is_some().then(|| id("models-problem"))}>{t.list_models}</button> }
                <button type="button" class="secondary" onclick={on_remove}>{t.remove}</button>
            </div>
            // Said in the row it is about, and gone with the next edit: a
            // notice at the top of the page outlived the target it named
            // and, on a phone, covered the form.
            if let Some(why) = unlisted { <p class="hint status bad" id={id("models-problem")} role="alert">{why}</p> }
            <p class="hint">{cors_note(state.lang, &target.preset)}</p>
        </fieldset>
    }
}

/// Asks the target's provider for its models (with the key given for its
/// host, if any) and puts them in row `row`'s list, or says in a notice why
/// it could not.
async fn list_models(state: UseReducerHandle<State>, row: usize, target: Target) {
    let key = state.keys.get(&key_slot(&target)).cloned();
    let Some(request) = models_request(&target, key.as_deref()) else {
        return;
    };
    match crate::browser::fetch_stream::get_text(&request.url, &request.headers).await {
        Ok((200..=299, body)) => state.dispatch(Action::ModelsListed {
            row,
            models: parse_models(target.protocol, &body),
        }),
        Ok((status, body)) => state.dispatch(Action::ModelsUnlisted {
            row,
            why: crate::core::wire::protocol::http_error_text(
                state.lang,
                target.protocol,
                status,
                &body,
            ),
        }),
        Err(error) => {
            // The browser's own words ("TypeError: Failed to fetch") only in
            // English: in Chinese they would be the one English line.
            let detail = match state.lang {
                Lang::En => error.to_string(),
                Lang::ZhCn => String::new(),
            };
            let note = target
                .provider
                .as_deref()
                .map(|preset| cors_note(state.lang, preset))
                .filter(|n| !n.is_empty());
            let why = blocked_request_text(state.lang, note, &detail);
            state.dispatch(Action::ModelsUnlisted {
                row,
                why: notice::models_unlisted(state.lang, &why),
            });
        }
    }
}

fn cors_note(lang: Lang, preset: &str) -> &'static str {
    preset_by_id(preset).map_or("", |p| match lang {
        Lang::En => p.cors_note_en,
        Lang::ZhCn => p.cors_note_zh,
    })
}
