//! The root component: owns the state reducer and the run driver, reads the
//! page's starting point (language, remembered keys, a `#plan=` link, an
//! interrupted run) and shows one of the four screens. What the screens
//! share ([`PageProps`]) lives with the state, so no view imports this file.

use std::collections::BTreeMap;

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::browser::files::{clear_fragment, fragment, languages};
use crate::browser::published::query_values;
use crate::browser::spawn;
use crate::browser::storage::{remember_keys, remember_lang, remembered_keys, remembered_lang};
use crate::core::plan::Plan;
use crate::core::text::notice::{self, StorageStep};
use crate::ui::dashboard::DashboardAction;
use crate::ui::driver::{Driver, load_history};
use crate::ui::form::PlanForm;
use crate::ui::i18n::Lang;
use crate::ui::lazy::{Part, PartPage, open_dashboard, prefetch};
use crate::ui::run_view::ResumeOffer;
use crate::ui::setup_view::SetupPage;
use crate::ui::state::page::PageProps;
use crate::ui::state::{Action, State, View};

#[component]
fn App() -> Html {
    // The language chosen here before wins over the browser's preference.
    let state = use_reducer(|| {
        State::new(
            remembered_lang()
                .and_then(|tag| Lang::from_tag(&tag))
                .unwrap_or_else(|| Lang::from_browser(&languages())),
        )
    });
    let driver = use_memo((), |_| Driver::default());
    let driver: Driver = (*driver).clone();

    {
        let state = state.clone();
        use_effect_with((), move |_| {
            let lang = state.lang;
            let dispatch = {
                let state = state.clone();
                Callback::from(move |action| state.dispatch(action))
            };
            if let Some(json) = remembered_keys()
                && let Some(keys) =
                    crate::core::document::read_quietly::<BTreeMap<String, String>>(&json)
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
            // The effect runs after the first paint: fetch the run's part
            // now, in the background, so Start does not wait for it.
            prefetch(Part::Run);
        });
    }
    {
        // Remembering is a standing choice: while it is on, the stored copy
        // follows every key edit, not only the keys present when it was ticked.
        let remembered = state.remember_keys.then(|| state.keys.clone());
        let failed = state.clone();
        use_effect_with(remembered, move |remembered| {
            if let Some(json) = remembered.as_ref().map(crate::core::document::to_string)
                && let Err(error) = remember_keys(&json)
            {
                failed.dispatch(Action::StorageFailed(
                    StorageStep::RememberingKeys,
                    error.to_string(),
                ));
            }
        });
    }
    // A run ends on the results: fetch their part while the run goes on.
    use_effect_with(state.view, |view| {
        if *view == View::Run {
            prefetch(Part::Results);
        }
    });
    {
        let lang = state.lang;
        use_effect_with(lang, move |lang| {
            if let Some(root) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.document_element())
            {
                let _ = root.set_attribute("lang", lang.tag());
            }
        });
    }

    let t = state.lang.texts();
    let props = PageProps {
        state: state.clone(),
        driver,
    };
    let nav = |view: View, label: &'static str| {
        let state = state.clone();
        let current = state.view == view;
        let onclick = Callback::from(move |_| state.dispatch(Action::Show(view)));
        html! {
            <button class={classes!("tab", current.then_some("current"))} aria-current={current.then_some("page")} {onclick}>{label}</button>
        }
    };
    let set_lang = |lang: Lang, label: &'static str| {
        let current = state.lang == lang;
        let state = state.clone();
        let onclick = Callback::from(move |_| {
            remember_lang(lang.tag());
            state.dispatch(Action::SetLang(lang));
        });
        html! { <button class={classes!("lang", current.then_some("current"))} lang={lang.tag()} aria-pressed={current.to_string()} {onclick}>{label}</button> }
    };
    let clear_notice = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::ClearNotice))
    };

    html! {
        <>
            <header class="top">
                <div class="brand">
                    <h1>{"FirstToken"}</h1>
                    <p class="tagline">{t.tagline}</p>
                </div>
                <div class="langs" role="group" aria-label={t.language}>
                    { set_lang(Lang::En, "English") }
                    { set_lang(Lang::ZhCn, "中文") }
                </div>
                <nav class="tabs">
                    if state.dashboard.is_some() {
                        { nav(View::Dashboard, state.lang.dashboard_texts().nav_dashboard) }
                    }
                    { nav(View::Setup, t.nav_setup) }
                    { nav(View::Run, t.nav_run) }
                    { nav(View::Results, t.nav_results) }
                    { nav(View::History, t.nav_history) }
                </nav>
            </header>
            if let Some(notice) = &state.notice {
                <div class="notice" role="status">
                    <span>{notice}</span>
                    <button class="close" onclick={clear_notice} aria-label="×">{"×"}</button>
                </div>
            }
            <main>
                <ResumeOffer ..props.clone() />
                { match state.view {
                    View::Setup => html! { <SetupPage ..props.clone() /> },
                    View::Run => html! { <PartPage key="run" part={Part::Run} page={props.clone()} /> },
                    View::Results => html! { <PartPage key="results" part={Part::Results} page={props.clone()} /> },
                    View::History => html! { <PartPage key="history" part={Part::History} page={props.clone()} /> },
                    View::Dashboard => html! { <PartPage key="dashboard" part={Part::Dashboard} page={props.clone()} /> },
                } }
            </main>
            <footer>{t.footer}</footer>
        </>
    }
}

/// Mounts the page on `<body>`.
#[wasm_bindgen(start)]
pub fn start() {
    yew::Renderer::<App>::new().render();
}
