//! The results screen: per model, the ranked comparison with verdicts, the
//! consistency ratio and the best provider; the cold-start tail of each
//! target; the fidelity check and its probe grid; the routing table; time
//! of day; charts; exports.
//!
//! The report is computed once per set of samples (`use_memo`), never per
//! render: with 10 000 samples it is the expensive part.

use std::rc::Rc;

use yew::prelude::*;

use crate::browser::files::download_text;
use crate::core::outline::cache::cache_section;
use crate::core::outline::comparison::{comparison_sections, no_success_section};
use crate::core::outline::deploy::deploy_section;
use crate::core::outline::fidelity::fidelity_section;
use crate::core::outline::idle::idle_section;
use crate::core::outline::prefill::prefill_section;
use crate::core::outline::routing::routing_section;
use crate::core::outline::timeofday::time_of_day_section;
use crate::core::prefill::prefill_report;
use crate::core::report::{REPORT_SEED, Report, build_report};
use crate::core::results::{export_csv, export_json};
use crate::core::routing_config::{RunSource, litellm_yaml, openrouter_json, routing_json};
use crate::core::sample::Sample;
use crate::core::text::format::unbroken_groups;
use crate::core::text::notice;
use crate::core::text::{ReportSentences, report_sentences};
use crate::ui::components::charts::ChartsSection;
use crate::ui::components::outline_view::{idle_view, section_view};
use crate::ui::components::probe_grid::ProbeGrid;
use crate::ui::hooks::render_mark::use_render_mark;
use crate::ui::model::chart_items::idle_chart_item;
use crate::ui::model::i18n::Lang;
use crate::ui::model::state::page::PageProps;
use crate::ui::model::state::{Action, ResultsView, RunStatus};

/// Which requests the comparisons are computed from, when the plan says
/// it, then the outline's comparison of each model and the targets none
/// of whose requests succeeded.
fn comparison_tables(lang: Lang, report: &Report, sentences: &ReportSentences) -> Html {
    html! {
        <>
        if let Some(population) = &sentences.population {
            <p class="sentence population" id="population-note">{unbroken_groups(population)}</p>
        }
        { for comparison_sections(lang, report, sentences).iter().map(|section| section_view(lang, section, Html::default())) }
        { no_success_section(lang, report).map(|section| section_view(lang, &section, Html::default())).unwrap_or_default() }
        </>
    }
}

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

/// The outline's routing section with the configs made from it as
/// downloads: plain JSON, a LiteLLM router config and OpenRouter provider
/// preferences (pinned or not), each naming its source run.
#[function_component(RoutingSection)]
fn routing_card(props: &RoutingProps) -> Html {
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
    let Some(section) = routing_section(lang, report) else {
        return Html::default();
    };
    let exports = html! {
            <div class="actions">
                <button type="button" id="export-routing" onclick={on_export}>{t.export_routing}</button>
                <button type="button" id="export-litellm" onclick={on_litellm}>{t.export_litellm}</button>
                <button type="button" id="export-openrouter" onclick={on_openrouter}>{t.export_openrouter}</button>
                <label class="check"><input type="checkbox" id="pin-openrouter" checked={*pin} onchange={on_pin} />{t.pin_openrouter}</label>
            </div>
    };
    section_view(lang, &section, exports)
}

/// The outline's fidelity section with the probe grid where it places
/// it: each cell opens the replies behind it.
fn fidelity_card(
    lang: Lang,
    report: &Rc<Report>,
    sentences: &ReportSentences,
    samples: &Rc<Vec<Sample>>,
) -> Html {
    let Some(section) = fidelity_section(lang, report, sentences) else {
        return Html::default();
    };
    let t = lang.texts();
    let grid = html! {
        <>
        <h3>{t.probe_grid}</h3>
        <p class="hint">{t.probe_grid_hint}</p>
        <ProbeGrid lang={lang} report={Rc::clone(report)} samples={Rc::clone(samples)} />
        </>
    };
    section_view(lang, &section, grid)
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
    // Every sentence of the results, made by core for this language: the
    // same list `firsttoken report` prints. Made once per report and
    // language, not on every render.
    // With them, the outline's idle section and the chart placed in it (a
    // run with idle gaps).
    let said = use_memo((report.as_ref().map(|r| Rc::as_ptr(r) as usize), lang), {
        let report = report.clone();
        move |_| {
            report.as_ref().map(|r| {
                let sentences = report_sentences(r, lang);
                let idle = idle_section(lang, r, &sentences);
                let chart = Rc::new(idle_chart_item(lang, r).into_iter().collect::<Vec<_>>());
                (sentences, idle, chart)
            })
        }
    });
    let (Some(results), Some(report), Some(prefill), Some((sentences, idle, idle_chart))) =
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
            { comparison_tables(lang, &report, sentences) }
            { prefill.as_ref().as_ref().map(|p| section_view(lang, &prefill_section(lang, p), Html::default())).unwrap_or_default() }
            { cache_section(lang, &report, results.plan.nonce).map(|section| section_view(lang, &section, Html::default())).unwrap_or_default() }
            { deploy_section(lang, &report, sentences).map(|section| section_view(lang, &section, Html::default())).unwrap_or_default() }
            { idle.as_ref().map(|section| idle_view(lang, &report, section, Rc::clone(idle_chart))).unwrap_or_default() }
            { fidelity_card(lang, &report, sentences, &results.samples) }
            <RoutingSection lang={lang} report={Rc::clone(&report)} results={results.clone()} dispatch={dispatch.clone()} />
            <ChartsSection lang={lang} results={results.clone()} report={Rc::clone(&report)} prefill={Rc::clone(&prefill)} />
            { section_view(lang, &time_of_day_section(lang, &report, sentences), Html::default()) }
        </div>
    }
}
