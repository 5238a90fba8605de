//! The keys card: one key field per host a key goes to, each with "Test
//! connection", and whether keys are remembered on this device.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::browser::spawn;
use crate::browser::storage::{forget_keys, remember_keys};
use crate::core::planning::plan::{Plan, Protocol, Target};
use crate::core::wire::protocol::failure_text;
use crate::core::words::notice::{self, StorageStep};
use crate::ui::model::i18n::{Lang, format_ms};
use crate::ui::model::keys::key_slot;
use crate::ui::model::state::{Action, Connection, State};
use crate::ui::run::lazy::measure_connection;

use super::{CardProps, input_value, to_target};

/// The keys card: one row per key slot (targets sharing a host share a
/// key), "Remember on this device" and "Forget keys".
#[component]
pub(super) fn KeysSection(props: &CardProps) -> Html {
    let state = &props.state;
    let t = state.lang.texts();
    // A handful of rows: a list is enough, and a set type would add its code.
    let mut seen: Vec<String> = Vec::new();
    let slots: Vec<(String, String, Target)> = state
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
            let key_for = crate::ui::model::keys::key_for(&target);
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
            Some((slot, name, target))
        })
        .collect();
    let on_remember = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            if on {
                {
                    let json = crate::core::base::document::to_string(&state.keys);
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
            { for slots.into_iter().map(|(slot, name, target)| key_row(state, slot, &name, &target)) }
            <div class="field check">
                <input id="remember-keys" type="checkbox" checked={state.remember_keys} onchange={on_remember} />
                <label for="remember-keys">{t.remember_keys}</label>
            </div>
            <p class="hint">{t.remember_warning}</p>
            <button type="button" class="secondary" onclick={on_forget}>{t.forget_keys}</button>
        </section>
    }
}

/// One key field, its "Test connection" button and what the test said.
/// `slot` is the key's slot (`crate::ui::model::keys::key_slot`), `name` the host
/// (and provider) it goes to, `target` the first target that uses it: the
/// one "Test connection" sends.
fn key_row(state: &UseReducerHandle<State>, slot: String, name: &str, target: &Target) -> Html {
    let t = state.lang.texts();
    let needs_key = crate::core::planning::key_rules::wants_key(target);
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
        let target = target.clone();
        Callback::from(move |_| test_connection(&state, &slot, &target))
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
            // The hint in its own words after a space, in the label's text
            // too ("localhost:8000 (no key needed)").
            <label for={id.clone()}>{format!("{} {}", t.api_key_for, name)}
                if !needs_key { <span class="hint">{match state.lang {
                    Lang::En => format!(" ({})", t.no_key_needed),
                    Lang::ZhCn => format!("（{}）", t.no_key_needed),
                }}</span> }
            </label>
            <div class="inline">
                <input id={id} type="password" autocomplete="off" spellcheck="false" value={value} oninput={on_key} />
                <button type="button" onclick={on_test}>{t.test_connection}</button>
            </div>
            <div aria-live="polite">{status}</div>
        </div>
    }
}

/// Sends one short request to `target` with the key in `slot` and the
/// form's prompt, through the run's part of the page (src/ui/run/lazy.rs), and
/// puts what came back beside the key.
fn test_connection(state: &UseReducerHandle<State>, slot: &str, target: &Target) {
    let key = state.keys.get(slot).cloned();
    // An empty key for a target that needs one: said, not sent (a request
    // without it fails with the long network-failure text).
    if crate::core::planning::key_rules::wants_key(target)
        && key.as_deref().is_none_or(|k| k.trim().is_empty())
    {
        state.dispatch(Action::SetConnection {
            provider: slot.to_owned(),
            connection: Connection::Failed(notice::key_needed_to_test(state.lang).to_owned()),
        });
        return;
    }
    let mut plan = Plan {
        max_tokens: 8,
        timeout_s: 30.0,
        ..Plan::default()
    };
    if let Ok(form_plan) = state.form.to_plan() {
        plan.prompt = form_plan.prompt;
    }
    state.dispatch(Action::SetConnection {
        provider: slot.to_owned(),
        connection: Connection::Testing,
    });
    let state = state.clone();
    let slot = slot.to_owned();
    let target = target.clone();
    spawn(async move {
        let lang = state.lang;
        // The stored message is English; the person reads it in the page's language.
        let note = target
            .provider
            .as_deref()
            .and_then(crate::core::planning::presets::preset_by_id)
            .map(|p| match lang {
                Lang::En => p.cors_note_en,
                Lang::ZhCn => p.cors_note_zh,
            });
        let Ok(measuring) = measure_connection(target, plan, key, 0, 1).await else {
            state.dispatch(Action::SetConnection {
                provider: slot,
                connection: Connection::Failed(notice::part_unloaded(lang).to_owned()),
            });
            return;
        };
        let outcome = measuring.await;
        let connection = match (outcome.error, outcome.ttft_ms) {
            (Some(error), _) => {
                Connection::Failed(failure_text(lang, &error, outcome.http_status, note))
            }
            (None, Some(ttft)) => Connection::Ok(ttft),
            (None, None) => Connection::Failed(lang.texts().connection_no_token.to_owned()),
        };
        state.dispatch(Action::SetConnection {
            provider: slot,
            connection,
        });
    });
}
