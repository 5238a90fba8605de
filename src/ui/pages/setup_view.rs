//! The setup screen: targets, keys with "Test connection", the plan form
//! with its warnings and the fidelity check's box with what it costs, and
//! plan files and links.
//!
//! One component per card, each with its props, in `setup_view/`; the rows
//! inside a card are functions of the card's state, not components of their
//! own (each component type costs the first load about 0.7 kB gzip of
//! Yew's generic component code, docs/size.md):
//!
//! | component | file | what it shows |
//! |---|---|---|
//! | [`SetupPage`] | here | the cards in order; reads the form as a plan once per change |
//! | `TargetList` | `targets.rs` | one row per target: preset, URL, model (and its list), prices |
//! | `KeysSection` | `keys.rs` | one key per host with "Test connection"; remembering keys |
//! | `PlanFields` | `schedule.rs` | the plan's numbers, prompt, options, fidelity check, errors and warnings |
//! | `PlanActions` | `actions.rs` | Start (and its confirmation of new key hosts), the plan's cost, links, plan files, importing results |
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

use crate::core::planning::plan::{Plan, PlanError, Target};
use crate::ui::model::form::{PlanForm, TargetForm};
use crate::ui::model::state::page::PageProps;
use crate::ui::model::state::{Action, State};

use actions::PlanActions;
use keys::KeysSection;
use schedule::PlanFields;
use targets::TargetList;

/// What a card that reads only the page state receives.
#[derive(Properties, PartialEq)]
struct CardProps {
    /// The page state.
    state: UseReducerHandle<State>,
}

/// What the cards that show the plan receive: the page and the form read
/// as a plan once per change (by [`SetupPage`]), or why it is not one.
#[derive(Properties)]
struct PlanCardProps {
    /// The page state and the driver that runs requests.
    page: PageProps,
    /// The form read as a plan, or why it is not one.
    validated: Rc<Result<Plan, PlanError>>,
}

impl PlanCardProps {
    /// What is wrong at the plan's member `field`, in the page's language
    /// (none while the form reads as a plan): said at that field.
    fn problems(&self, field: &str) -> Vec<String> {
        match self.validated.as_ref() {
            Ok(_) => Vec::new(),
            Err(error) => crate::ui::model::form::problems_at(error, field, self.page.state.lang),
        }
    }
}

impl PartialEq for PlanCardProps {
    fn eq(&self, other: &Self) -> bool {
        self.page == other.page && Rc::ptr_eq(&self.validated, &other.validated)
    }
}

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
        crate::ui::model::form::edit_target(f, row, |t| apply(t, v));
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

    html! {
        <div class="setup">
            <TargetList state={state.clone()} />
            <KeysSection state={state.clone()} />
            <PlanFields page={props.clone()} validated={Rc::clone(&validated)} />
            <PlanActions page={props.clone()} {validated} />
        </div>
    }
}
