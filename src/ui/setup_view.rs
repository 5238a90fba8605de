//! The setup screen: targets, keys with "Test connection", the plan form
//! with its warnings and the fidelity check's box with what it costs, and
//! plan files and links.
//!
//! One component per card, each with its props, in `setup_view/`:
//!
//! | component | file | what it shows |
//! |---|---|---|
//! | [`SetupPage`] | here | the cards in order; reads the form as a plan once per change, and starts the run |
//! | `TargetList`, `TargetRow` | `targets.rs` | one row per target: preset, URL, model (and its list), prices |
//! | `KeysSection`, `KeyRow` | `keys.rs` | one key per host, "Test connection", remembering keys |
//! | `PlanFields`, `FidelityOption` | `schedule.rs` | the plan's numbers, prompt, options, errors and warnings |
//! | `KeyHostsConfirmation`, `PlanActions` | `actions.rs` | Start (and its confirmation of new key hosts), links, plan files, importing results |
//!
//! The helpers below turn an input's event into an edit of the form, which
//! every card uses.

mod actions;
mod keys;
mod schedule;
mod targets;

use std::rc::Rc;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::browser::storage::{add_used_key_origins, remembered_keys, used_key_origins};
use crate::core::plan::Target;
use crate::ui::form::{PlanForm, TargetForm};
use crate::ui::state::page::PageProps;
use crate::ui::state::{Action, State};

use actions::{KeyHostsConfirmation, PlanActions};
use keys::KeysSection;
use schedule::PlanFields;
use targets::TargetList;

/// The text in the input an event came from.
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

/// [`edit`] for a checkbox: `apply` sets a member from whether it is ticked.
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

/// The target a row describes, as the key rules, the key fields and the
/// connection test see it (its price and OpenRouter provider play no part
/// there).
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

/// The setup screen.
#[component]
pub fn SetupPage(props: &PageProps) -> Html {
    let state = &props.state;
    let validated = use_memo(state.form.clone(), |form| form.to_plan());
    let running = props.driver.is_active();
    // Start sends keys only to hosts the person has seen named: a plan from
    // a link whose keyed targets point at hosts this device never sent a
    // key to waits for a confirmation that lists them.
    let on_start = {
        let state = state.clone();
        let driver = props.driver.clone();
        let dispatch = props.dispatcher();
        let validated = Rc::clone(&validated);
        Callback::from(move |confirmed: bool| {
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
    let plan_cost = validated
        .as_ref()
        .as_ref()
        .ok()
        .and_then(crate::core::cost::plan_cost)
        .map(|cost| crate::core::text::plan_cost_sentence(state.lang, &cost));

    html! {
        <div class="setup">
            <TargetList state={state.clone()} />
            <KeysSection state={state.clone()} />
            <PlanFields state={state.clone()} validated={Rc::clone(&validated)} />
            <KeyHostsConfirmation state={state.clone()} onstart={on_start.clone()} />
            if let Some(sentence) = plan_cost {
                <p class="sentence plan-cost" id="plan-cost">{sentence}</p>
            }
            <PlanActions state={state.clone()} {validated} {running} onstart={on_start} />
        </div>
    }
}
