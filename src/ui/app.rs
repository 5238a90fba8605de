//! The root component: owns the state reducer and the run driver, starts
//! the page through its hooks (`crate::ui::hooks`: remembered keys, a
//! `#plan=` link, a dashboard, History, the parts to fetch early, the
//! document's language) and shows one of the screens. What the screens
//! share ([`PageProps`]) lives with the state, so no view imports this file.

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::browser::files::languages;
use crate::browser::storage::{remember_lang, remembered_lang};
use crate::ui::hooks::document_lang::use_document_lang;
use crate::ui::hooks::page_start::use_page_start;
use crate::ui::hooks::prefetch_results::use_prefetch_results;
use crate::ui::hooks::remember_keys::use_remember_keys;
use crate::ui::model::i18n::Lang;
use crate::ui::model::state::page::PageProps;
use crate::ui::model::state::{Action, State, View};
use crate::ui::pages::run_view::ResumeOffer;
use crate::ui::pages::setup_view::SetupPage;
use crate::ui::run::driver::Driver;
use crate::ui::run::lazy::{Part, PartPage};

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

    use_page_start(state.clone());
    use_remember_keys(state.clone());
    use_prefetch_results(state.view);
    use_document_lang(state.lang);

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
