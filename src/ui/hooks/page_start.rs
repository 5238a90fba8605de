//! `use_page_start`: what the page reads once, after its first paint.

use std::collections::BTreeMap;

use yew::prelude::*;

use crate::browser::files::{clear_fragment, fragment};
use crate::browser::published::query_values;
use crate::browser::spawn;
use crate::browser::storage::remembered_keys;
use crate::core::planning::plan::Plan;
use crate::core::words::notice;
use crate::ui::model::dashboard::DashboardAction;
use crate::ui::model::form::PlanForm;
use crate::ui::model::state::{Action, State};
use crate::ui::run::driver::load_history;
use crate::ui::run::lazy::{Part, open_dashboard, prefetch};

/// Once, after the first paint: the keys remembered on this device, a
/// `#plan=` link (filled into the form, then taken off the address so a
/// reload does not fill it again), a `?results=` dashboard, the runs in
/// History, and the run's part fetched in the background so Start does not
/// wait for it.
#[hook]
pub fn use_page_start(state: UseReducerHandle<State>) {
    use_effect_with((), move |_| {
        let lang = state.lang;
        let dispatch = Callback::from(move |action| state.dispatch(action));
        if let Some(json) = remembered_keys()
            && let Some(keys) =
                crate::core::base::document::read_quietly::<BTreeMap<String, String>>(&json)
        {
            dispatch.emit(Action::KeysRemembered(keys));
        }
        let fragment = fragment();
        if fragment.starts_with("plan=") {
            match Plan::from_link_fragment(&fragment) {
                Ok(plan) => {
                    dispatch.emit(Action::SetForm(PlanForm::from_plan(&plan)));
                    dispatch.emit(Action::PlanFromLink(true));
                }
                Err(error) => dispatch.emit(Action::Notice(notice::plan_link_unused(
                    lang,
                    &error.text(lang),
                ))),
            }
            clear_fragment();
        }
        // `?results=…`: the page is a dashboard of published results.
        let addresses = query_values("results");
        if !addresses.is_empty() {
            dispatch.emit(Action::Dashboard(DashboardAction::Open(addresses.clone())));
            spawn(open_dashboard(addresses, dispatch.clone()));
        }
        spawn(load_history(dispatch));
        prefetch(Part::Run);
    });
}
