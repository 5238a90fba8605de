//! The results screen: per model, the ranked comparison with verdicts, the
//! consistency ratio and the best provider; the cold-start tail of each
//! target; the routing table; time of day; charts; exports.
//!
//! The report is computed once per set of samples (`use_memo`), never per
//! render: with 10 000 samples it is the expensive part.

use std::rc::Rc;

use yew::prelude::*;

use crate::browser::clock::performance_mark;
use crate::browser::files::download_text;
use crate::core::bootstrap::Distinction;
use crate::core::compare::routing_table;
use crate::core::report::{REPORT_SEED, Report, TargetReport, build_report};
use crate::core::results::{export_csv, export_json};
use crate::core::routing_config::{RunSource, litellm_yaml, openrouter_json, routing_json};
use crate::core::stats::Summary;
use crate::core::text::{
    at_least, best_provider_text, cost_sentence, goodput_sentence, interval_ms, period_sentence,
    rate_limit_text, slow_sentence, status_sentence, stream_sentence, timeout_sentence,
};
use crate::ui::charts::ChartsSection;
use crate::ui::i18n::{Lang, format_ms, format_pct, resampling_text};
use crate::ui::state::page::PageProps;
use crate::ui::state::{Action, ResultsView};
use crate::ui::verdict_badge::judgement_badge;

/// A cell of milliseconds: the formatted figure, its raw value in
/// `data-value` (tests compare it with the export), and its column's name in
/// `data-label` (narrow screens show each row as a labelled list).
fn ms_cell(lang: Lang, label: &'static str, value: Option<f64>) -> Html {
    bounded_ms_cell(lang, label, value, false)
}

/// [`ms_cell`] for a figure that may be only a lower bound (a censored
/// timeout reaches it): shown as "≥ x", with `data-lower-bound`.
fn bounded_ms_cell(lang: Lang, label: &'static str, value: Option<f64>, lower_bound: bool) -> Html {
    match value {
        Some(v) => {
            let bound = lower_bound.then_some("true");
            html! { <td class="num" data-label={label} data-value={v.to_string()} data-lower-bound={bound}>{format!("{}{}", at_least(lower_bound), format_ms(lang, v))}</td> }
        }
        None => html! { <td class="num" data-label={label}>{"–"}</td> },
    }
}

/// "5.2 s–6.8 s", or one figure when the tail is one request (or all equal).
fn tail_range(lang: Lang, tail: &crate::core::tail::ColdTail) -> String {
    let (min, max) = (format_ms(lang, tail.min_ms), format_ms(lang, tail.max_ms));
    if min == max {
        min
    } else {
        format!("{min}–{max}")
    }
}

fn tail_sentence(lang: Lang, target: &TargetReport) -> String {
    let t = lang.texts();
    match (&target.cold_tail, &target.ttft) {
        // One slow request has no range and no median of its own.
        (Some(tail), _) if tail.count == 1 => match lang {
            Lang::En => format!(
                "{}: 1 of {} requests took {}; without it the median is {} and the p95 {}.",
                target.label,
                tail.of,
                format_ms(lang, tail.max_ms),
                format_ms(lang, tail.warm.median),
                format_ms(lang, tail.warm.p95),
            ),
            Lang::ZhCn => format!(
                "{}：{} 个请求中有 1 个用时 {}；去掉它后中位数为 {}，p95 为 {}。",
                target.label,
                tail.of,
                format_ms(lang, tail.max_ms),
                format_ms(lang, tail.warm.median),
                format_ms(lang, tail.warm.p95),
            ),
        },
        (Some(tail), _) => match lang {
            Lang::En => format!(
                "{}: {} of {} requests, about 1 in {}, took {}{}; without them the median is {} and the p95 {}.",
                target.label,
                tail.count,
                tail.of,
                tail.one_in,
                tail_range(lang, tail),
                if tail.count > 1 {
                    format!(" (median {})", format_ms(lang, tail.median_ms))
                } else {
                    String::new()
                },
                format_ms(lang, tail.warm.median),
                format_ms(lang, tail.warm.p95),
            ),
            Lang::ZhCn => format!(
                "{}：{} 个请求中有 {} 个（约每 {} 个中 1 个）用时 {}{}；去掉它们后中位数为 {}，p95 为 {}。",
                target.label,
                tail.of,
                tail.count,
                tail.one_in,
                tail_range(lang, tail),
                if tail.count > 1 {
                    format!("（中位数 {}）", format_ms(lang, tail.median_ms))
                } else {
                    String::new()
                },
                format_ms(lang, tail.warm.median),
                format_ms(lang, tail.warm.p95),
            ),
        },
        (None, Some(_)) => format!("{}: {}", target.label, t.no_tail),
        (None, None) => format!("{}: {}", target.label, t.no_data),
    }
}

/// The caveats of `targets`, each text once with the labels it applies to
/// (three targets with too few samples make one line, not three).
fn shared_caveats(
    targets: &[&TargetReport],
    lang: crate::core::verdict::Lang,
) -> Vec<(String, Vec<String>)> {
    let mut shared: Vec<(String, Vec<String>)> = Vec::new();
    for target in targets {
        for caveat in &target.caveats {
            let text = caveat.text(lang);
            match shared.iter_mut().find(|(existing, _)| *existing == text) {
                Some((_, labels)) => labels.push(target.label.clone()),
                None => shared.push((text, vec![target.label.clone()])),
            }
        }
    }
    shared
}

fn comparison_tables(lang: Lang, report: &Report) -> Html {
    let t = lang.texts();
    let core_lang = lang.core();
    html! {
        { for report.models.iter().map(|model| {
            let label_of = |target: u32| report.targets.get(target as usize).map(|r| r.label.clone()).unwrap_or_default();
            let best = model.best.map(&label_of);
            let members: Vec<&TargetReport> =
                model.rows.iter().filter_map(|row| report.targets.get(row.figures.target as usize)).collect();
            html! {
                <section class="card model-block" data-model={model.model.clone()}>
                    <h2>{format!("{}: {}", t.results_for_model, model.names.join(" / "))}</h2>
                    <div class="table-wrap">
                    <table class="comparison stack">
                        <thead><tr>
                            <th scope="col" class="num">{t.rank}</th><th scope="col">{t.target}</th><th scope="col" class="num">{t.samples}</th>
                            <th scope="col" class="num">{t.median}</th><th scope="col" class="num">{t.p95}</th><th scope="col" class="num">{t.p99}</th>
                            <th scope="col" class="num">{t.cv}</th><th scope="col" class="num">{t.error_rate}</th><th scope="col">{t.verdict}</th>
                        </tr></thead>
                        <tbody>
                        { for model.rows.iter().map(|row| {
                            let target = report.targets.get(row.figures.target as usize);
                            let ttft: Option<&Summary> = target.and_then(|t| t.ttft.as_ref());
                            let bound = |p: f64| target.is_some_and(|t| t.percentile_is_lower_bound(p));
                            let cv_bound = target.is_some_and(TargetReport::moments_are_lower_bounds);
                            html! {
                                <tr data-target={row.figures.target.to_string()}>
                                    <td class="num rank" data-label={t.rank}>{row.rank}</td>
                                    <th scope="row">{row.figures.label.clone()}</th>
                                    <td class="num" data-label={t.samples} data-value={row.figures.n.to_string()}>{row.figures.n}</td>
                                    { bounded_ms_cell(lang, t.median, ttft.map(|s| s.median), bound(50.0)) }
                                    { bounded_ms_cell(lang, t.p95, ttft.map(|s| s.p95), bound(95.0)) }
                                    { bounded_ms_cell(lang, t.p99, ttft.map(|s| s.p99), bound(99.0)) }
                                    <td class="num" data-label={t.cv} data-value={row.figures.cv_pct.to_string()} data-lower-bound={cv_bound.then_some("true")}>{format!("{}{}", at_least(cv_bound), format_pct(row.figures.cv_pct))}</td>
                                    <td class="num" data-label={t.error_rate} data-value={row.figures.error_rate.to_string()}>{format_pct(row.figures.error_rate * 100.0)}</td>
                                    <td class="verdict-cell" data-label={t.verdict}>{judgement_badge(lang, row.figures.judgement)}</td>
                                </tr>
                            }
                        }) }
                        </tbody>
                    </table>
                    </div>
                    <ul class="notes">
                        { for members.iter().filter_map(|target| target.verdict.map(|v| html! {
                            <li><strong>{target.label.clone()}</strong>{": "}{v.text(core_lang)}</li>
                        })) }
                    </ul>
                    { for shared_caveats(&members, core_lang).into_iter().map(|(text, labels)| html! {
                        <p class="sentence warn-line">{format!("{}: {}", labels.join(", "), text)}</p>
                    }) }
                    if let Some(consistency) = &model.consistency {
                        <p class="sentence"><strong>{t.consistency}{": "}</strong>{consistency.text(&label_of(consistency.most_consistent), &label_of(consistency.least_consistent), core_lang)}</p>
                    }
                    if let Some(best) = best {
                        <p class="sentence best-provider" data-distinguishable={model.distinguishable.to_string()}><strong>{t.best_provider}{": "}</strong>{best_provider_text(core_lang, &best, &model.indistinguishable_from_best.iter().map(|&i| label_of(i)).collect::<Vec<_>>())}</p>
                    }
                    { interval_sentences(lang, report, model) }
                    <p class="hint">{t.best_rule}</p>
                    <h3>{t.cold_tail}</h3>
                    <ul class="tails">
                        { for members.iter().map(|target| html! { <li>{tail_sentence(lang, target)}</li> }) }
                    </ul>
                    <h3>{t.recommended_timeout}</h3>
                    <ul class="notes recommended-timeouts">
                        { for members.iter().filter_map(|target| target.recommended_timeout.map(|advice| html! {
                            <li data-target={target.target.to_string()}><strong>{target.label.clone()}</strong>{match lang { Lang::En => ": ", Lang::ZhCn => "：" }}{timeout_sentence(core_lang, &advice)}</li>
                        })) }
                    </ul>
                    if members.iter().any(|target| target.goodput.is_some()) {
                        <h3>{t.goodput}</h3>
                        <ul class="notes goodput">
                            { for members.iter().filter_map(|target| target.goodput.map(|goodput| html! {
                                <li data-target={target.target.to_string()} data-within={goodput.within.to_string()} data-of={goodput.of.to_string()}><strong>{target.label.clone()}</strong>{match lang { Lang::En => ": ", Lang::ZhCn => "：" }}{goodput_sentence(core_lang, &goodput)}</li>
                            })) }
                        </ul>
                    }
                    <ul class="tails slow-shares">
                        { for members.iter().filter_map(|target| target.slow.map(|slow| html! {
                            <li data-target={target.target.to_string()}><strong>{target.label.clone()}</strong>{match lang { Lang::En => ": ", Lang::ZhCn => "：" }}{slow_sentence(core_lang, &slow, target.p95_median_ratio)}</li>
                        })) }
                    </ul>
                </section>
            }
        }) }
    }
}

/// The best target against each other one on p95, said only as far as the
/// bootstrap intervals allow: "A is better than B" needs intervals that do
/// not overlap, otherwise "not distinguishable with this many samples".
fn interval_sentences(
    lang: Lang,
    report: &Report,
    model: &crate::core::compare::ModelComparison,
) -> Html {
    let t = lang.texts();
    let target = |i: u32| report.targets.get(i as usize);
    let Some(first) = model.rows.first().and_then(|r| target(r.figures.target)) else {
        return html! {};
    };
    let Some(first_ci) = first.intervals.as_ref() else {
        return html! {};
    };
    let lines: Vec<String> = model
        .rows
        .iter()
        .skip(1)
        .filter_map(|row| target(row.figures.target))
        .filter_map(|other| {
            let other_ci = other.intervals.as_ref()?;
            let verdict = Distinction::lower_is_better(&first_ci.p95_ms, &other_ci.p95_ms);
            Some(format!(
                "{} ({} {}, {} / {}, {})",
                verdict.text(&first.label, &other.label, lang.core()),
                t.p95_interval,
                interval_ms(lang.core(), &first_ci.p95_ms),
                resampling_text(lang, first_ci.method),
                interval_ms(lang.core(), &other_ci.p95_ms),
                resampling_text(lang, other_ci.method),
            ))
        })
        .collect();
    html! {
        { for lines.into_iter().map(|line| html! { <p class="sentence interval">{line}</p> }) }
    }
}

#[derive(Properties, PartialEq)]
struct RoutingProps {
    lang: Lang,
    report: Rc<Report>,
    results: ResultsView,
}

/// The routing table and the configs made from it: plain JSON, a LiteLLM
/// router config and OpenRouter provider preferences (pinned or not), each
/// naming its source run.
#[function_component(RoutingSection)]
fn routing_section(props: &RoutingProps) -> Html {
    let (lang, report) = (props.lang, &props.report);
    let t = lang.texts();
    let pin = use_state(|| false);
    let table = routing_table(&report.models, lang.core());
    let source = RunSource::of(&props.results.environment);
    let download = |name: &'static str, mime: &'static str, text: String| {
        Callback::from(move |_| {
            let _ = download_text(name, mime, &text);
        })
    };
    let on_export = download(
        "firsttoken-routing.json",
        "application/json",
        routing_json(&table, &source),
    );
    let on_litellm = download(
        "firsttoken-litellm-router.yaml",
        "application/yaml",
        litellm_yaml(&props.results.plan, report, &source),
    );
    let on_openrouter = download(
        "firsttoken-openrouter.json",
        "application/json",
        openrouter_json(&props.results.plan, report, &source, *pin),
    );
    let on_pin = {
        let pin = pin.clone();
        Callback::from(move |event: Event| {
            let input: web_sys::HtmlInputElement = event.target_unchecked_into();
            pin.set(input.checked());
        })
    };
    html! {
        <section class="card">
            <h2>{t.routing}</h2>
            <div class="table-wrap">
            <table id="routing-table" class="stack">
                <thead><tr><th scope="col">{t.model}</th><th scope="col">{t.target}</th><th scope="col">{t.reason}</th></tr></thead>
                <tbody>
                { for table.routes.iter().map(|route| html! {
                    <tr><td data-label={t.model}>{route.model.clone()}</td><th scope="row">{route.label.clone().unwrap_or_else(|| "–".into())}</th><td class="wrap" data-label={t.reason}>{route.reason.clone()}</td></tr>
                }) }
                </tbody>
            </table>
            </div>
            <div class="actions">
                <button type="button" id="export-routing" onclick={on_export}>{t.export_routing}</button>
                <button type="button" id="export-litellm" onclick={on_litellm}>{t.export_litellm}</button>
                <button type="button" id="export-openrouter" onclick={on_openrouter}>{t.export_openrouter}</button>
                <label class="check"><input type="checkbox" id="pin-openrouter" checked={*pin} onchange={on_pin} />{t.pin_openrouter}</label>
            </div>
        </section>
    }
}

/// Per target: first-try success and rate limits, the stream after the
/// first token, and the cost at the plan's prices; every sentence is core's.
fn deploy_section(lang: Lang, report: &Report) -> Html {
    let t = lang.texts();
    let core_lang = lang.core();
    let colon = match lang {
        Lang::En => ": ",
        Lang::ZhCn => "：",
    };
    html! {
        <section class="card" id="deploy-figures">
            <h2>{t.first_try}</h2>
            <ul class="notes first-try">
                { for report.targets.iter().filter_map(|target| target.status.as_ref().map(|status| html! {
                    <li data-target={target.target.to_string()} data-first-try={status.first_try_success.to_string()} data-requests={status.requests.to_string()} data-rate-limited={status.counts.rate_limited.to_string()} data-retry-after-median={status.retry_after_median_s.map(|v| v.to_string())} data-rate-limit-hidden={status.rate_limit_hidden.to_string()}>
                        <strong>{target.label.clone()}</strong>{colon}{status_sentence(core_lang, status)}
                        if let Some(headers) = status.last_rate_limit.as_ref().and_then(|h| rate_limit_text(core_lang, h)) {
                            <span class="rate-limit-headers">{" "}{headers}</span>
                        }
                    </li>
                })) }
            </ul>
            if report.targets.iter().any(|target| target.stream.is_some()) {
                <h3>{t.inside_stream}</h3>
                <ul class="notes stream-shape">
                    { for report.targets.iter().filter_map(|target| target.stream.map(|stream| html! {
                        <li data-target={target.target.to_string()} data-stalled={stream.stalled.to_string()} data-requests={stream.requests.to_string()} data-buffered={stream.buffered.to_string()} data-max-gap={stream.max_gap_ms.map(|v| v.to_string())} data-gap-p95-median={stream.gap_p95_median_ms.map(|v| v.to_string())}>
                            <strong>{target.label.clone()}</strong>{colon}{stream_sentence(core_lang, &stream)}
                        </li>
                    })) }
                </ul>
            }
            if report.targets.iter().any(|target| target.cost.is_some()) {
                <h3>{t.cost}</h3>
                <ul class="notes costs">
                    { for report.targets.iter().filter_map(|target| target.cost.map(|cost| html! {
                        <li data-target={target.target.to_string()} data-run-usd={cost.run_usd.to_string()} data-per-success-usd={cost.per_success_usd.map(|v| v.to_string())}>
                            <strong>{target.label.clone()}</strong>{colon}{cost_sentence(core_lang, &cost)}
                        </li>
                    })) }
                </ul>
            }
        </section>
    }
}

/// Per target, how many requests the provider served from its prompt
/// cache, and the median TTFT of hits and misses when there are both.
/// Shown only when some provider reported a cache figure.
fn cache_section(lang: Lang, report: &Report) -> Html {
    let t = lang.texts();
    let rows: Vec<(&TargetReport, &crate::core::cache::CacheSplit)> = report
        .targets
        .iter()
        .filter_map(|target| Some((target, target.cache.as_ref()?)))
        .collect();
    if rows.is_empty() {
        return html! {};
    }
    html! {
        <section class="card" id="prompt-cache">
            <h2>{t.prompt_cache}</h2>
            <div class="table-wrap">
            <table class="stack">
                <thead><tr>
                    <th scope="col">{t.target}</th><th scope="col" class="num">{t.cache_reported}</th><th scope="col" class="num">{t.cache_hits}</th>
                    <th scope="col" class="num">{t.cache_hit_median}</th><th scope="col" class="num">{t.cache_miss_median}</th>
                </tr></thead>
                <tbody>
                { for rows.iter().map(|(target, split)| html! {
                    <tr data-target={target.target.to_string()}>
                        <th scope="row">{target.label.clone()}</th>
                        <td class="num" data-label={t.cache_reported} data-value={split.reported.to_string()}>{split.reported}</td>
                        <td class="num" data-label={t.cache_hits} data-value={split.hit_share.to_string()}>{format!("{} ({})", split.hits, format_pct(split.hit_share * 100.0))}</td>
                        { ms_cell(lang, t.cache_hit_median, split.hit_median_ms) }
                        { ms_cell(lang, t.cache_miss_median, split.miss_median_ms) }
                    </tr>
                }) }
                </tbody>
            </table>
            </div>
            <p class="hint">{t.cache_note}</p>
        </section>
    }
}

fn time_of_day_section(lang: Lang, report: &Report) -> Html {
    let t = lang.texts();
    let period = |p: &crate::core::timeofday::Period| {
        // Below 72 requests a p95 has no upper confidence bound: say only
        // what the data bound from below.
        let p95 = if p.p95_is_bounded() {
            ms_cell(lang, t.p95, p.ttft.map(|s| s.p95))
        } else {
            bounded_ms_cell(lang, t.p95, p.p95_low_ms, true)
        };
        html! {
            <>
                <td class="num">{p.requests}</td>
                { ms_cell(lang, t.median, p.ttft.map(|s| s.median)) }
                { p95 }
            </>
        }
    };
    let core_lang = lang.core();
    let sentences: Vec<(String, String)> = report
        .targets
        .iter()
        .filter_map(|target| {
            let comparison = target.time_of_day.compare_periods()?;
            Some((
                target.label.clone(),
                period_sentence(core_lang, &comparison),
            ))
        })
        .collect();
    html! {
        <section class="card">
            <h2>{t.time_of_day}</h2>
            <div class="table-wrap">
            <table id="time-of-day">
                <thead>
                    <tr><th scope="col" rowspan="2">{t.target}</th><th scope="colgroup" colspan="3">{t.peak}</th><th scope="colgroup" colspan="3">{t.off_peak}</th></tr>
                    <tr>
                        <th scope="col" class="num">{t.samples}</th><th scope="col" class="num">{t.median}</th><th scope="col" class="num">{t.p95}</th>
                        <th scope="col" class="num">{t.samples}</th><th scope="col" class="num">{t.median}</th><th scope="col" class="num">{t.p95}</th>
                    </tr>
                </thead>
                <tbody>
                { for report.targets.iter().map(|target| html! {
                    <tr><th scope="row">{target.label.clone()}</th>{ period(&target.time_of_day.peak) }{ period(&target.time_of_day.off_peak) }</tr>
                }) }
                </tbody>
            </table>
            </div>
            <ul class="notes period-tests">
                { for sentences.into_iter().map(|(label, sentence)| html! {
                    <li><strong>{label}</strong>{match lang { Lang::En => ": ", Lang::ZhCn => "：" }}{sentence}</li>
                }) }
            </ul>
        </section>
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
    use_effect(|| performance_mark("firsttoken:results-rendered"));
    let report = use_memo(results.as_ref().map(|r| Rc::as_ptr(&r.samples) as usize), {
        let results = results.clone();
        move |_| {
            results.as_ref().map(|r| {
                Rc::new(build_report(
                    &r.plan,
                    &r.samples,
                    r.environment.peak_offset_min(&r.plan),
                    REPORT_SEED,
                ))
            })
        }
    });
    let (Some(results), Some(report)) = (results, report.as_ref().clone()) else {
        return html! { <section class="card"><p>{t.no_results}</p></section> };
    };
    let dispatch = props.dispatcher();
    let exporter = |kind: &'static str, results: &ResultsView| {
        let results = results.clone();
        let dispatch = dispatch.clone();
        Callback::from(move |_| {
            let outcome = if kind == "json" {
                let json = export_json(&results.plan, &results.environment, &results.samples);
                download_text("firsttoken-results.json", "application/json", &json)
            } else {
                let csv = export_csv(&results.plan, &results.samples);
                download_text("firsttoken-results.csv", "text/csv", &csv)
            };
            if let Err(error) = outcome {
                dispatch.emit(Action::Notice(error.to_string()));
            }
        })
    };
    html! {
        <div class="results">
            <div class="actions">
                <button type="button" id="export-json" onclick={exporter("json", &results)}>{t.export_json}</button>
                <button type="button" id="export-csv" onclick={exporter("csv", &results)}>{t.export_csv}</button>
            </div>
            { comparison_tables(lang, &report) }
            { cache_section(lang, &report) }
            { deploy_section(lang, &report) }
            <RoutingSection lang={lang} report={Rc::clone(&report)} results={results.clone()} />
            <ChartsSection lang={lang} results={results.clone()} report={Rc::clone(&report)} />
            { time_of_day_section(lang, &report) }
        </div>
    }
}
