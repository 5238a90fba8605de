//! The results screen: the exports, then core's outline of the results in
//! its order (`core::outline::results`), each section printed by
//! `outline_view` with this screen's own pieces where the outline places
//! them (the idle chart, the probe grid, the routing exports), and the
//! charts.
//!
//! The report is computed once per set of samples (`use_memo`), never per
//! render: with 10 000 samples it is the expensive part.

use std::rc::Rc;

use yew::prelude::*;

use crate::browser::files::download_text;
use crate::core::documents::results::{export_csv, export_json};
use crate::core::documents::routing_config::{
    RunSource, litellm_yaml, openrouter_json, routing_json,
};
use crate::core::judgement::prefill_report::prefill_report;
use crate::core::judgement::report::{REPORT_SEED, Report, build_report};
use crate::core::narrative::sentences::report_sentences;
use crate::core::outline::Block;
use crate::core::outline::fidelity::PROBE_GRID;
use crate::core::outline::idle::IDLE_CHART;
use crate::core::outline::results::{Part, results_outline};
use crate::core::wire::sample::Sample;
use crate::core::words::format::unbroken_groups;
use crate::core::words::notice;
use crate::ui::components::charts::ChartsSection;
use crate::ui::components::outline_view::{idle_chart_view, section_view};
use crate::ui::components::probe_grid::ProbeGrid;
use crate::ui::hooks::render_mark::use_render_mark;
use crate::ui::model::chart_items::idle_chart_item;
use crate::ui::model::i18n::Lang;
use crate::ui::model::state::page::PageProps;
use crate::ui::model::state::{Action, ResultsView, RunStatus};

#[derive(Properties)]
struct RoutingProps {
    lang: Lang,
    report: Rc<Report>,
    results: ResultsView,
    /// Where a failed download is said.
    dispatch: Callback<Action>,
}

/// The report by pointer, as the charts and the probe grid compare it: it
/// is made once per set of samples with the results beside it, so a new
/// report is the only change that redraws the section (comparing the
/// report member by member cost the page 7.7 kB of code, docs/size.md).
impl PartialEq for RoutingProps {
    fn eq(&self, other: &Self) -> bool {
        self.lang == other.lang
            && Rc::ptr_eq(&self.report, &other.report)
            && Rc::ptr_eq(&self.results.samples, &other.results.samples)
            && self.dispatch == other.dispatch
    }
}

/// Offers `text` as the file `name`; a browser that refuses is said in a
/// notice.
fn save(dispatch: &Callback<Action>, lang: Lang, name: &str, mime: &str, text: &str) {
    if let Err(error) = download_text(name, mime, text) {
        dispatch.emit(Action::Notice(notice::download_failed(
            lang,
            name,
            &error.to_string(),
        )));
    }
}

/// The configs made from the routing table, as downloads where the outline
/// places the exports: plain JSON, a LiteLLM router config and OpenRouter
/// provider preferences (pinned or not), each naming its source run.
#[function_component(RoutingExports)]
fn routing_exports(props: &RoutingProps) -> Html {
    let (lang, report) = (props.lang, &props.report);
    let t = lang.texts();
    let pin = use_state(|| false);
    // Each export is written when its button is pressed, not on every render.
    type Write = fn(&Report, &ResultsView, Lang, bool) -> String;
    let download = |name: &'static str, mime: &'static str, write: Write| {
        let (report, results, pin) = (Rc::clone(report), props.results.clone(), *pin);
        let dispatch = props.dispatch.clone();
        Callback::from(move |_| {
            save(
                &dispatch,
                lang,
                name,
                mime,
                &write(&report, &results, lang, pin),
            );
        })
    };
    let on_export = download(
        "firsttoken-routing.json",
        "application/json",
        |r, v, lang, _| routing_json(&r.routing_in(lang), &RunSource::of(&v.environment)),
    );
    let on_litellm = download(
        "firsttoken-litellm-router.yaml",
        "application/yaml",
        |r, v, _, _| litellm_yaml(&v.plan, r, &RunSource::of(&v.environment)),
    );
    let on_openrouter = download(
        "firsttoken-openrouter.json",
        "application/json",
        |r, v, _, pin| openrouter_json(&v.plan, r, &RunSource::of(&v.environment), pin),
    );
    let on_pin = {
        let pin = pin.clone();
        Callback::from(move |event: Event| {
            let input: web_sys::HtmlInputElement = event.target_unchecked_into();
            pin.set(input.checked());
        })
    };
    html! {
            <div class="actions">
                <button type="button" id="export-routing" onclick={on_export}>{t.export_routing}</button>
                <button type="button" id="export-litellm" onclick={on_litellm}>{t.export_litellm}</button>
                <button type="button" id="export-openrouter" onclick={on_openrouter}>{t.export_openrouter}</button>
                <label class="check"><input type="checkbox" id="pin-openrouter" checked={*pin} onchange={on_pin} />{t.pin_openrouter}</label>
            </div>
    }
}

/// The probe grid, where the outline's fidelity section places it: each
/// cell opens the replies behind it.
fn probe_grid(lang: Lang, report: &Rc<Report>, samples: &Rc<Vec<Sample>>) -> Html {
    let t = lang.texts();
    html! {
        <>
        <h3>{t.probe_grid}</h3>
        // The page's own piece, which no other printer has: `own` keeps it
        // apart from the outline's hints.
        <p class="hint own">{t.probe_grid_hint}</p>
        <ProbeGrid lang={lang} report={Rc::clone(report)} samples={Rc::clone(samples)} />
        </>
    }
}

/// The results screen.
#[component]
pub fn ResultsPage(props: &PageProps) -> Html {
    let state = &props.state;
    let lang = state.lang;
    let t = lang.texts();
    let results = state.results.clone();
    // After every render (the charts' own effect has run by then: a child's
    // effects run before its parent's): where a re-render's cost ends.
    use_render_mark("firsttoken:results-rendered");
    // After a reload nothing is open, though History may hold a finished
    // run: open the newest finished or stopped one rather than say "No
    // results yet" beside it.
    let newest_done = state
        .history
        .iter()
        .find(|e| matches!(e.status, RunStatus::Finished | RunStatus::Stopped))
        .map(|e| e.run_id.clone());
    use_effect_with((results.is_none(), newest_done), {
        let dispatch = props.dispatcher();
        move |(empty, newest): &(bool, Option<String>)| {
            if let (true, Some(run_id)) = (*empty, newest.clone()) {
                crate::browser::spawn(crate::ui::run::driver::open_run(run_id, dispatch));
            }
        }
    });
    // The report and the prompt-size figures (bootstrapped fits), made
    // together in one memo: the charts take both.
    let figures = use_memo(results.as_ref().map(|r| Rc::as_ptr(&r.samples) as usize), {
        let results = results.clone();
        move |_| {
            results.as_ref().map(|r| {
                (
                    Rc::new(build_report(
                        &r.plan,
                        &r.samples,
                        r.environment.peak_offset_min(&r.plan),
                        REPORT_SEED,
                    )),
                    Rc::new(prefill_report(&r.plan, &r.samples, REPORT_SEED)),
                )
            })
        }
    });
    let (report, prefill) = figures.as_ref().clone().unzip();
    // Every sentence of the results, made by core for this language (the
    // same list `firsttoken report` prints), the outline's parts in their
    // order and the idle chart: once per report and language, not on every
    // render.
    let nonce = results.as_ref().is_some_and(|r| r.plan.nonce);
    let said = use_memo((report.as_ref().map(|r| Rc::as_ptr(r) as usize), lang), {
        let (report, prefill) = (report.clone(), prefill.clone());
        move |_| {
            report.as_ref().zip(prefill.as_ref()).map(|(r, prefill)| {
                let sentences = report_sentences(r, lang);
                let parts = results_outline(lang, r, &sentences, prefill.as_ref().as_ref(), nonce);
                let chart = Rc::new(idle_chart_item(lang, r).into_iter().collect::<Vec<_>>());
                (parts, chart)
            })
        }
    });
    let (Some(results), Some(report), Some(prefill), Some((parts, idle_chart))) =
        (results, report, prefill, said.as_ref().as_ref())
    else {
        return html! { <section class="card"><p>{t.no_results}</p></section> };
    };
    let dispatch = props.dispatcher();
    let exporter = |kind: &'static str, results: &ResultsView| {
        let results = results.clone();
        let dispatch = dispatch.clone();
        Callback::from(move |_| {
            if kind == "json" {
                let json = export_json(&results.plan, &results.environment, &results.samples);
                save(
                    &dispatch,
                    lang,
                    "firsttoken-results.json",
                    "application/json",
                    &json,
                );
            } else {
                let csv = export_csv(&results.plan, &results.samples);
                save(&dispatch, lang, "firsttoken-results.csv", "text/csv", &csv);
            }
        })
    };
    html! {
        <div class="results">
            <div class="actions">
                <button type="button" id="export-json" onclick={exporter("json", &results)}>{t.export_json}</button>
                <button type="button" id="export-csv" onclick={exporter("csv", &results)}>{t.export_csv}</button>
            </div>
            { for parts.iter().map(|part| match part {
                Part::Section(section) => {
                    // The section's own piece, where the outline places it.
                    let own = match section.chart() {
                        Some(IDLE_CHART) => idle_chart_view(lang, &report, Rc::clone(idle_chart)),
                        Some(PROBE_GRID) => probe_grid(lang, &report, &results.samples),
                        _ if section.blocks.contains(&Block::Exports) => html! {
                            <RoutingExports lang={lang} report={Rc::clone(&report)} results={results.clone()} dispatch={dispatch.clone()} />
                        },
                        _ => Html::default(),
                    };
                    section_view(lang, section, own)
                }
                Part::Population(population) => html! {
                    <p class="sentence population" id="population-note">{unbroken_groups(population)}</p>
                },
                Part::Charts => html! {
                    <ChartsSection lang={lang} results={results.clone()} report={Rc::clone(&report)} prefill={Rc::clone(&prefill)} />
                },
            }) }
        </div>
    }
}
