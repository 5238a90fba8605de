//! The actions under the setup form: Start (and the confirmation it asks
//! for before a key goes to a host this device never sent one to), copying
//! the plan as a link, saving and loading plan files, importing results.

use std::rc::Rc;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::browser::files::{copy_text, download_text, read_text, url_with_fragment};
use crate::browser::spawn;
use crate::browser::storage::{add_used_key_origins, remembered_keys, used_key_origins};
use crate::core::planning::plan::Plan;
use crate::core::words::notice;
use crate::ui::model::form::PlanForm;
use crate::ui::model::state::page::PageProps;
use crate::ui::model::state::{Action, State};
use crate::ui::run::lazy::{ImportRefusal, PartUnloaded, read_results_files};

use super::PlanCardProps;

/// Names the hosts a plan from a link would send keys to that this device
/// never sent one to, and waits for "Send" (`onstart` with `true`) or
/// "Cancel".
fn key_hosts_confirmation(state: &UseReducerHandle<State>, onstart: &Callback<bool>) -> Html {
    let t = state.lang.texts();
    let Some(hosts) = &state.key_hosts_to_confirm else {
        return Html::default();
    };
    let on_confirm_hosts = onstart.reform(|_| true);
    let on_cancel_hosts = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::ConfirmKeyHosts(None)))
    };
    html! {
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
}

/// What comes before Start (the new key hosts to confirm, what the plan
/// will cost), then Start and the plan's other actions, in a row that stays
/// in view at the bottom of the form.
#[component]
pub(super) fn PlanActions(props: &PlanCardProps) -> Html {
    let state = &props.page.state;
    let t = state.lang.texts();
    let validated = &props.validated;
    let running = props.page.driver.is_active();
    let on_start = {
        let page = props.page.clone();
        let validated = Rc::clone(validated);
        Callback::from(move |confirmed: bool| {
            if let Ok(plan) = validated.as_ref() {
                start_run(&page, plan, confirmed);
            }
        })
    };
    let plan_cost = validated
        .as_ref()
        .as_ref()
        .ok()
        .and_then(crate::core::judgement::cost::plan_cost)
        .map(|cost| crate::core::narrative::cost::plan_cost_sentence(state.lang, &cost));

    let on_start_confirmed = on_start.clone();
    let on_start = on_start.reform(|_| false);
    let on_copy_link = {
        let state = state.clone();
        let validated = Rc::clone(&props.validated);
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
        let validated = Rc::clone(&props.validated);
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
            spawn(load_plan(state.clone(), file));
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
            spawn(import_results(state.clone(), files));
        })
    };
    html! {
        <>
            { key_hosts_confirmation(state, &on_start_confirmed) }
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
        </>
    }
}

/// Starts a run of `plan`, unless one is under way. Keys go only to hosts
/// the person has seen named: a plan from a link whose keyed targets point
/// at hosts this device never sent a key to waits for a confirmation that
/// lists them, unless `confirmed`.
fn start_run(page: &PageProps, plan: &Plan, confirmed: bool) {
    let state = &page.state;
    if page.driver.is_active() {
        return;
    }
    // A target that needs a key and has none would only collect refusals:
    // the runner refuses such a plan (exit 2), and so does Start.
    let missing = crate::ui::model::keys::missing_keys(plan, &state.keys);
    if !missing.is_empty() {
        state.dispatch(Action::SetupNotice(notice::keys_missing_to_start(
            state.lang, &missing,
        )));
        return;
    }
    if state.plan_from_link && !confirmed {
        let mut used = used_key_origins();
        if let Some(json) = remembered_keys()
            && let Some(remembered) = crate::core::base::document::read_quietly::<
                std::collections::BTreeMap<String, String>,
            >(&json)
        {
            used.extend(crate::ui::model::keys::migrate_keys(remembered).into_keys());
        }
        let hosts = crate::ui::model::keys::hosts_to_confirm(plan, &state.keys, &used);
        if !hosts.is_empty() {
            state.dispatch(Action::ConfirmKeyHosts(Some(hosts)));
            return;
        }
    }
    let origins = crate::ui::model::keys::keyed_origins(plan, &state.keys);
    if !origins.is_empty() {
        // Best effort: a device that keeps nothing asks again next time.
        let _ = add_used_key_origins(&origins);
    }
    state.dispatch(Action::PlanFromLink(false));
    page.driver.start(
        plan.clone(),
        state.keys.clone(),
        page.dispatcher(),
        state.lang,
    );
}

/// Reads a chosen plan file into the form, or says why it was refused.
async fn load_plan(state: UseReducerHandle<State>, file: web_sys::File) {
    let Some(text) = read_or_say(&state, &file).await else {
        return;
    };
    // A file written by hand may name a preset and leave its URL out.
    match crate::core::planning::presets::plan_from_json(&text) {
        Ok(plan) => state.dispatch(Action::SetForm(PlanForm::from_plan(&plan))),
        Err(error) => state.dispatch(Action::SetupNotice(notice::file_refused(
            state.lang,
            &file.name(),
            &error.text(state.lang),
        ))),
    }
}

/// Reads chosen results files and shows them (merged when there are
/// several), or says which file was refused and why.
async fn import_results(state: UseReducerHandle<State>, files: Vec<web_sys::File>) {
    let mut texts = Vec::new();
    for file in &files {
        let Some(text) = read_or_say(&state, file).await else {
            return;
        };
        texts.push(text);
    }
    // Reading results files is the results' part of the page
    // (src/ui/run/lazy.rs): fetched now, if it is not in yet.
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
        Err(PartUnloaded) => Action::Notice(notice::part_unloaded(state.lang).to_owned()),
    };
    state.dispatch(action);
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
