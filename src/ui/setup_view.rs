//! The setup screen: targets, keys with "Test connection", the plan form
//! with its warnings and the fidelity check's box with what it costs, and
//! plan files and links.

use std::rc::Rc;

use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::browser::files::{copy_text, download_text, read_text, url_with_fragment};
use crate::browser::spawn;
use crate::browser::storage::{
    add_used_key_origins, forget_keys, remember_keys, remembered_keys, used_key_origins,
};
use crate::core::fidelity::score::FidelityVerdict;
use crate::core::plan::{Plan, Protocol, Target};
use crate::core::presets::{PRESETS, preset_by_id};
use crate::core::protocol::{models_request, parse_models};
use crate::core::text::fidelity::{probe_cost_text, verdict_word};
use crate::core::text::labelled;
use crate::core::text::notice::{self, StorageStep};
use crate::ui::form::{PlanForm, TargetForm};
use crate::ui::i18n::{Lang, format_ms, warning_text};
use crate::ui::keys::key_slot;
use crate::ui::lazy::measure_connection;
use crate::ui::lazy::{ImportRefusal, PartUnloaded, read_results_files};
use crate::ui::state::page::PageProps;
use crate::ui::state::{Action, Connection, State};

fn input_value(e: &InputEvent) -> String {
    e.target_unchecked_into::<HtmlInputElement>().value()
}

/// A callback that edits one field of the form.
fn edit(
    state: &UseReducerHandle<State>,
    apply: impl Fn(&mut PlanForm, String) + 'static,
) -> Callback<InputEvent> {
    let state = state.clone();
    Callback::from(move |e: InputEvent| {
        let mut form = state.form.clone();
        apply(&mut form, input_value(&e));
        state.dispatch(Action::SetForm(form));
    })
}

/// [`edit`] for one member of target row `row`: `apply` sets it from the
/// typed text.
fn edit_target(
    state: &UseReducerHandle<State>,
    row: usize,
    apply: impl Fn(&mut TargetForm, String) + 'static,
) -> Callback<InputEvent> {
    edit(state, move |f, v| {
        if let Some(t) = f.targets.get_mut(row) {
            apply(t, v);
        }
    })
}

/// The text of a chosen file, or `None` after saying, in a notice, that it
/// could not be read and why.
async fn read_or_say(state: &UseReducerHandle<State>, file: &web_sys::File) -> Option<String> {
    match read_text(file).await {
        Ok(text) => Some(text),
        Err(error) => {
            state.dispatch(Action::Notice(notice::file_unreadable(
                state.lang,
                &file.name(),
                &error.to_string(),
            )));
            None
        }
    }
}

fn toggle(
    state: &UseReducerHandle<State>,
    apply: impl Fn(&mut PlanForm, bool) + 'static,
) -> Callback<Event> {
    let state = state.clone();
    Callback::from(move |e: Event| {
        let mut form = state.form.clone();
        apply(
            &mut form,
            e.target_unchecked_into::<HtmlInputElement>().checked(),
        );
        state.dispatch(Action::SetForm(form));
    })
}

fn cors_note(lang: Lang, preset: &str) -> &'static str {
    preset_by_id(preset).map_or("", |p| match lang {
        Lang::En => p.cors_note_en,
        Lang::ZhCn => p.cors_note_zh,
    })
}

fn target_row(props: &PageProps, row: usize, target: &TargetForm) -> Html {
    let state = &props.state;
    let t = state.lang.texts();
    let on_preset = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let id = e.target_unchecked_into::<HtmlSelectElement>().value();
            let mut form = state.form.clone();
            if let (Some(preset), Some(target)) = (preset_by_id(&id), form.targets.get_mut(row)) {
                target.preset = preset.id.to_owned();
                target.base_url = preset.base_url.to_owned();
                target.protocol = preset.protocol;
                let label = preset.label_for(&target.model);
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
        let target = target.clone();
        Callback::from(move |_| {
            let state = state.clone();
            let target = to_target(&target);
            let key = state.keys.get(&key_slot(&target)).cloned();
            spawn(async move {
                let Some(request) = models_request(&target, key.as_deref()) else {
                    return;
                };
                match crate::browser::fetch_stream::get_text(&request.url, &request.headers).await {
                    Ok((200..=299, body)) => state.dispatch(Action::ModelsListed {
                        row,
                        models: parse_models(target.protocol, &body),
                    }),
                    Ok((status, body)) => {
                        state.dispatch(Action::Notice(crate::core::protocol::http_error_text(
                            state.lang,
                            target.protocol,
                            status,
                            &body,
                        )))
                    }
                    Err(error) => state.dispatch(Action::Notice(notice::models_unlisted(
                        state.lang,
                        &error.to_string(),
                    ))),
                }
            });
        })
    };
    let list_id = format!("models-{row}");
    let models = state.listed_models.get(&row).cloned().unwrap_or_default();
    let id = |name: &str| format!("target-{row}-{name}");
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
                <input id={id("base")} value={target.base_url.clone()} oninput={on_base} spellcheck="false" />
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
                if lists_models { <button type="button" onclick={on_list}>{t.list_models}</button> }
                <button type="button" class="secondary" onclick={on_remove}>{t.remove}</button>
            </div>
            <p class="hint">{cors_note(state.lang, &target.preset)}</p>
        </fieldset>
    }
}

fn to_target(form: &TargetForm) -> Target {
    Target {
        label: form.label.clone(),
        protocol: form.protocol,
        base_url: form.base_url.trim().trim_end_matches('/').to_owned(),
        model: form.model.trim().to_owned(),
        provider: (form.preset != "custom").then(|| form.preset.clone()),
        price: None,
        openrouter_provider: None,
    }
}

fn keys_section(props: &PageProps) -> Html {
    let state = &props.state;
    let t = state.lang.texts();
    // A handful of rows: a list is enough, and a set type would add its code.
    let mut seen: Vec<String> = Vec::new();
    let slots: Vec<(String, String, TargetForm)> = state
        .form
        .targets
        .iter()
        .filter(|f| f.protocol != Protocol::Demo)
        .filter_map(|f| {
            let target = to_target(f);
            let slot = key_slot(&target);
            // The field names the host the key goes to, in plain sight; the
            // provider only when the host is its own, and a warning when a
            // preset's target points elsewhere.
            let key_for = crate::ui::keys::key_for(&target);
            let name = match (&key_for.provider, &key_for.custom_host_of) {
                (Some(provider), _) => format!("{} ({provider})", key_for.host),
                (None, Some(preset)) => {
                    format!("{} ({} {preset})", key_for.host, t.custom_host_of)
                }
                (None, None) => key_for.host.clone(),
            };
            if seen.contains(&slot) {
                return None;
            }
            seen.push(slot.clone());
            Some((slot, name, f.clone()))
        })
        .collect();
    let on_remember = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            if on {
                {
                    let json = crate::core::document::to_string(&state.keys);
                    if let Err(error) = remember_keys(&json) {
                        state.dispatch(Action::StorageFailed(
                            StorageStep::RememberingKeys,
                            error.to_string(),
                        ));
                    }
                }
            } else {
                forget_keys();
            }
            state.dispatch(Action::SetRememberKeys(on));
        })
    };
    let on_forget = {
        let state = state.clone();
        Callback::from(move |_| {
            forget_keys();
            state.dispatch(Action::ForgetKeys);
            state.dispatch(Action::Notice(state.lang.texts().keys_forgotten.to_owned()));
        })
    };
    html! {
        <section class="card">
            <h2>{t.keys}</h2>
            if slots.is_empty() { <p class="hint">{t.demo_note}</p> }
            { for slots.into_iter().map(|(slot, name, form)| key_row(props, slot, name, &form)) }
            <div class="field check">
                <input id="remember-keys" type="checkbox" checked={state.remember_keys} onchange={on_remember} />
                <label for="remember-keys">{t.remember_keys}</label>
            </div>
            <p class="hint">{t.remember_warning}</p>
            <button type="button" class="secondary" onclick={on_forget}>{t.forget_keys}</button>
        </section>
    }
}

fn key_row(props: &PageProps, slot: String, name: String, form: &TargetForm) -> Html {
    let state = &props.state;
    let t = state.lang.texts();
    let needs_key = crate::core::key_rules::wants_key(&to_target(form));
    let id = format!(
        "key-{}",
        slot.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    );
    let on_key = {
        let state = state.clone();
        let slot = slot.clone();
        Callback::from(move |e: InputEvent| {
            let key = input_value(&e);
            state.dispatch(Action::SetKey {
                provider: slot.clone(),
                key,
            });
        })
    };
    let on_test = {
        let state = state.clone();
        let slot = slot.clone();
        let target = to_target(form);
        Callback::from(move |_| {
            let state = state.clone();
            let slot = slot.clone();
            let target = target.clone();
            let key = state.keys.get(&slot).cloned();
            let mut plan = Plan {
                max_tokens: 8,
                timeout_s: 30.0,
                ..Plan::default()
            };
            if let Ok(form_plan) = state.form.to_plan() {
                plan.prompt = form_plan.prompt;
            }
            state.dispatch(Action::SetConnection {
                provider: slot.clone(),
                connection: Connection::Testing,
            });
            spawn(async move {
                let lang = state.lang;
                let Ok(measuring) = measure_connection(target, plan, key, 0, 1).await else {
                    state.dispatch(Action::SetConnection {
                        provider: slot,
                        connection: Connection::Failed(notice::part_unloaded(lang).to_owned()),
                    });
                    return;
                };
                let outcome = measuring.await;
                let connection = match (outcome.error, outcome.ttft_ms) {
                    (Some(error), _) => Connection::Failed(error.message),
                    (None, Some(ttft)) => Connection::Ok(ttft),
                    (None, None) => {
                        Connection::Failed("the stream ended without a token".to_owned())
                    }
                };
                state.dispatch(Action::SetConnection {
                    provider: slot,
                    connection,
                });
            });
        })
    };
    let status = match state.connections.get(&slot) {
        Some(Connection::Testing) => html! { <span class="status">{t.testing}</span> },
        Some(Connection::Ok(ms)) => {
            html! { <span class="status ok">{format!("{} {}", t.connection_ok, format_ms(state.lang, *ms))}</span> }
        }
        Some(Connection::Failed(message)) => {
            html! { <span class="status bad">{message.clone()}</span> }
        }
        None => html! {},
    };
    let value = state.keys.get(&slot).cloned().unwrap_or_default();
    html! {
        <div class="key-row">
            <label for={id.clone()}>{format!("{} {}", t.api_key_for, name)}{ if needs_key { "" } else { " " } }
                if !needs_key { <span class="hint">{format!("({})", t.no_key_needed)}</span> }
            </label>
            <div class="inline">
                <input id={id} type="password" autocomplete="off" spellcheck="false" value={value} oninput={on_key} />
                <button type="button" onclick={on_test}>{t.test_connection}</button>
            </div>
            <div aria-live="polite">{status}</div>
        </div>
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

/// The setup screen.
#[component]
pub fn SetupPage(props: &PageProps) -> Html {
    let state = &props.state;
    let t = state.lang.texts();
    let form = &state.form;
    let validated = use_memo(form.clone(), |form| form.to_plan());
    let running = props.driver.is_active();

    let on_add = {
        let state = state.clone();
        Callback::from(move |_| {
            let mut form = state.form.clone();
            let last = form.targets.last().cloned();
            form.targets.push(last.unwrap_or_else(TargetForm::empty));
            state.dispatch(Action::SetForm(form));
        })
    };
    // Start sends keys only to hosts the person has seen named: a plan from
    // a link whose keyed targets point at hosts this device never sent a
    // key to waits for a confirmation that lists them.
    let start_run = {
        let state = state.clone();
        let driver = props.driver.clone();
        let dispatch = props.dispatcher();
        let validated = Rc::clone(&validated);
        Rc::new(move |confirmed: bool| {
            let Ok(plan) = validated.as_ref() else { return };
            if driver.is_active() {
                return;
            }
            if state.plan_from_link && !confirmed {
                let mut used = used_key_origins();
                if let Some(json) = remembered_keys()
                    && let Some(remembered) = crate::core::document::read_quietly::<
                        std::collections::BTreeMap<String, String>,
                    >(&json)
                {
                    used.extend(crate::ui::keys::migrate_keys(remembered).into_keys());
                }
                let hosts = crate::ui::keys::hosts_to_confirm(plan, &state.keys, &used);
                if !hosts.is_empty() {
                    state.dispatch(Action::ConfirmKeyHosts(Some(hosts)));
                    return;
                }
            }
            let origins = crate::ui::keys::keyed_origins(plan, &state.keys);
            if !origins.is_empty() {
                // Best effort: a device that keeps nothing asks again next time.
                let _ = add_used_key_origins(&origins);
            }
            state.dispatch(Action::PlanFromLink(false));
            driver.start(
                plan.clone(),
                state.keys.clone(),
                dispatch.clone(),
                state.lang,
            );
        })
    };
    let on_start = {
        let start_run = Rc::clone(&start_run);
        Callback::from(move |_| start_run(false))
    };
    let on_confirm_hosts = {
        let start_run = Rc::clone(&start_run);
        Callback::from(move |_| start_run(true))
    };
    let on_cancel_hosts = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::ConfirmKeyHosts(None)))
    };
    let on_copy_link = {
        let state = state.clone();
        let validated = Rc::clone(&validated);
        Callback::from(move |_| {
            let Ok(plan) = validated.as_ref() else { return };
            let link = url_with_fragment(&plan.to_link_fragment());
            let state = state.clone();
            spawn(async move {
                let message = match copy_text(&link).await {
                    Ok(()) => state.lang.texts().link_copied.to_owned(),
                    Err(_) => link,
                };
                state.dispatch(Action::Notice(message));
            });
        })
    };
    let on_save = {
        let validated = Rc::clone(&validated);
        let state = state.clone();
        Callback::from(move |_| {
            let Ok(plan) = validated.as_ref() else { return };
            let file = "firsttoken-plan.json";
            if let Err(error) = download_text(file, "application/json", &plan.to_json_pretty()) {
                state.dispatch(Action::Notice(notice::download_failed(
                    state.lang,
                    file,
                    &error.to_string(),
                )));
            }
        })
    };
    let on_load = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            input.set_value("");
            let state = state.clone();
            spawn(async move {
                let Some(text) = read_or_say(&state, &file).await else {
                    return;
                };
                match Plan::from_json(&text) {
                    Ok(plan) => state.dispatch(Action::SetForm(PlanForm::from_plan(&plan))),
                    Err(error) => state.dispatch(Action::Notice(notice::file_refused(
                        state.lang,
                        &file.name(),
                        &error.text(state.lang),
                    ))),
                }
            });
        })
    };
    let on_import = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let Some(files) = input.files() else { return };
            let files: Vec<web_sys::File> =
                (0..files.length()).filter_map(|i| files.get(i)).collect();
            input.set_value("");
            let state = state.clone();
            spawn(async move {
                let mut texts = Vec::new();
                for file in &files {
                    let Some(text) = read_or_say(&state, file).await else {
                        return;
                    };
                    texts.push(text);
                }
                // Reading results files is the results' part of the page
                // (src/ui/lazy.rs): fetched now, if it is not in yet.
                let action = match read_results_files(texts, state.lang).await {
                    Ok(Ok(results)) => Action::ShowResults(results),
                    Ok(Err(ImportRefusal::File(index, error))) => {
                        let name = files
                            .get(index)
                            .map(web_sys::File::name)
                            .unwrap_or_default();
                        Action::Notice(notice::file_refused(state.lang, &name, &error))
                    }
                    Ok(Err(ImportRefusal::Merge(error))) => Action::Notice(error),
                    Err(PartUnloaded) => {
                        Action::Notice(notice::part_unloaded(state.lang).to_owned())
                    }
                };
                state.dispatch(action);
            });
        })
    };

    let warnings: Vec<String> = match validated.as_ref() {
        Ok(plan) => plan
            .warnings()
            .iter()
            .map(|w| warning_text(state.lang, plan, w))
            .collect(),
        Err(_) => Vec::new(),
    };
    let errors: Vec<String> = match validated.as_ref() {
        Ok(_) => Vec::new(),
        Err(error) => error.messages_in(state.lang),
    };
    let plan_cost = validated
        .as_ref()
        .as_ref()
        .ok()
        .and_then(crate::core::cost::plan_cost)
        .map(|cost| crate::core::text::plan_cost_sentence(state.lang, &cost));

    html! {
        <div class="setup">
            <section class="card">
                <h2>{t.targets}</h2>
                if form.targets.iter().any(|f| f.protocol == Protocol::Demo) { <p class="hint">{t.demo_note}</p> }
                { for form.targets.iter().enumerate().map(|(row, target)| target_row(props, row, target)) }
                <button type="button" onclick={on_add}>{t.add_target}</button>
            </section>
            { keys_section(props) }
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
                <div class="field wide">
                    <label for="plan-prompt">{t.prompt}</label>
                    <textarea id="plan-prompt" rows="2" value={form.prompt.clone()} oninput={
                        let state = state.clone();
                        Callback::from(move |e: InputEvent| {
                            let mut form = state.form.clone();
                            form.prompt = e.target_unchecked_into::<HtmlTextAreaElement>().value();
                            state.dispatch(Action::SetForm(form));
                        })
                    } />
                </div>
                <div class="field check">
                    <input id="plan-nonce" type="checkbox" checked={form.nonce} onchange={toggle(state, |f, v| f.nonce = v)} />
                    <label for="plan-nonce">{t.nonce}</label>
                </div>
                <div class="field check">
                    <input id="plan-reasoning" type="checkbox" checked={form.reasoning_counts_as_first_token} onchange={toggle(state, |f, v| f.reasoning_counts_as_first_token = v)} />
                    <label for="plan-reasoning">{t.reasoning_first}</label>
                </div>
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
            if let Some(hosts) = &state.key_hosts_to_confirm {
                <section class="card confirm-hosts" id="confirm-key-hosts" role="alertdialog" aria-labelledby="confirm-key-hosts-title">
                    <h2 id="confirm-key-hosts-title">{t.confirm_hosts_title}</h2>
                    <p>{t.confirm_hosts_intro}</p>
                    <ul>
                        { for hosts.iter().map(|host| html! {
                            <li data-origin={host.origin.clone()}><strong>{host.origin.clone()}</strong>{format!(" ← {}", host.targets.join(", "))}</li>
                        }) }
                    </ul>
                    <div class="actions">
                        <button type="button" class="primary" id="confirm-key-hosts-send" onclick={on_confirm_hosts}>{t.confirm_hosts_send}</button>
                        <button type="button" id="confirm-key-hosts-cancel" onclick={on_cancel_hosts}>{t.cancel}</button>
                    </div>
                </section>
            }
            if let Some(sentence) = plan_cost {
                <p class="sentence plan-cost" id="plan-cost">{sentence}</p>
            }
            <div class="actions sticky">
                <button type="button" class="primary" id="start" onclick={on_start} disabled={validated.is_err() || running}>{t.start}</button>
                <button type="button" onclick={on_copy_link} disabled={validated.is_err()}>{t.copy_plan_link}</button>
                <button type="button" onclick={on_save} disabled={validated.is_err()}>{t.save_plan}</button>
                // Each file input comes before its label, so the label (the
                // visible button) can show the input's keyboard focus (CSS `+`).
                <input id="load-plan" class="visually-hidden" type="file" accept=".json,application/json" onchange={on_load} />
                <label class="button" for="load-plan">{t.load_plan}</label>
                <input id="import-results" class="visually-hidden" type="file" multiple=true accept=".json,application/json" onchange={on_import} />
                <label class="button" for="import-results">{t.import_results}</label>
            </div>
        </div>
    }
}
