//! The dashboard screen: published results opened with `?results=`, shown
//! read-only. A header says what is shown (sources, time range, vantages,
//! requests, newest sample) and warns when the monitor looks stopped; files
//! that failed are listed with their address and reason; then the rolling
//! windows, each target from each vantage, and the charts over time.
//!
//! Figures are computed by `core::documents::dashboard::figures` once per data set (or
//! per data set and time range), never per render, so a language switch only
//! re-labels and redraws.

use crate::core::base::calendar::iso_date;
use crate::core::documents::dashboard::Dataset;
use crate::core::documents::dashboard::figures::{
    DayPrefill, IdleDay, PrefillDay, fidelity_daily, idle_daily, prefill_daily,
};
use crate::core::judgement::fidelity_score::PassRate;
use crate::core::judgement::idle::GoesCold;
use crate::core::narrative::fidelity::pass_rate_text;
use crate::core::narrative::idle::{
    connection_cell, daily_words as idle_daily_words, goes_cold_cell,
};
use crate::core::narrative::prefill::{daily_words, day_rate};
use crate::core::words::dashboard::{
    requests_line, source_line, stale_warning, utc_range, utc_time, window_counts, window_judged,
    window_latency, windows_note,
};
use std::rc::Rc;

use yew::prelude::*;

use crate::core::documents::dashboard::figures::{
    Cell, Percentiles, is_stale, overview, window_requests, windows_shown,
};
use crate::core::documents::results::vantage_name;
use crate::core::judgement::report::percentile_reaches_censored;
use crate::core::words::format::at_least;
use crate::ui::components::charts::ChartGrid;
use crate::ui::model::chart_items::{Figures, Ranged, dashboard_chart_items};
use crate::ui::model::dashboard::{DashboardAction, DashboardState, Range, SourceReport};
use crate::ui::model::i18n::{Lang, format_ms, format_pct};
use crate::ui::model::state::Action;
use crate::ui::model::state::page::PageProps;

/// The dashboard, or nothing when the page was not opened with `?results=`.
#[component]
pub fn DashboardPage(props: &PageProps) -> Html {
    let Some(dashboard) = props.state.dashboard.clone() else {
        return html! {};
    };
    let lang = props.state.lang;
    let d = lang.dashboard_texts();
    let Some(sources) = dashboard.sources.clone() else {
        let (done, total) = dashboard.progress;
        return html! {
            <section class="card dashboard-loading" aria-busy="true">
                <h2>{d.loading}</h2>
                <progress max={total.max(1).to_string()} value={done.to_string()}></progress>
                <p id="dashboard-progress">{format!("{done} / {total} {}", d.files_read)}</p>
            </section>
        };
    };
    let on_range = {
        let dispatch = props.dispatcher();
        Callback::from(move |range| {
            dispatch.emit(Action::Dashboard(DashboardAction::SetRange(range)))
        })
    };
    html! {
        <div class="dashboard">
            <DashboardHeader {lang} dashboard={dashboard.clone()} sources={sources.clone()} />
            <Failures {lang} {sources} />
            if !dashboard.data.0.points.is_empty() {
                <DashboardBody {lang} {dashboard} {on_range} />
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct HeaderProps {
    lang: Lang,
    dashboard: DashboardState,
    sources: Vec<SourceReport>,
}

/// Sources, time range, vantages, requests, newest sample, stale warning.
#[component]
fn DashboardHeader(props: &HeaderProps) -> Html {
    let lang = props.lang;
    let d = lang.dashboard_texts();
    let data = &props.dashboard.data.0;
    let seen = overview(data);
    let source_line = |s: &SourceReport| source_line(lang, &s.url, s.index, s.files, s.requests);
    let range = seen
        .range
        .map(|(first, last)| utc_range(first, last))
        .unwrap_or_else(|| "–".into());
    let vantages: Vec<&str> = data
        .vantages
        .iter()
        .map(|v| vantage_name(lang, v))
        .collect();
    let stale = seen.range.and_then(|(_, last)| {
        is_stale(
            last,
            props.dashboard.loaded_at_ms,
            props.dashboard.schedule_minutes,
        )
        .then(|| {
            stale_warning(
                lang,
                props.dashboard.loaded_at_ms - last,
                props.dashboard.schedule_minutes,
            )
        })
    });
    html! {
        <section class="card dashboard-header">
            <h2>{d.title}<span class="hint">{" · "}{d.read_only}</span></h2>
            if let Some(warning) = stale {
                <p class="stale warn-line" role="alert" id="dashboard-stale">{warning}</p>
            }
            <dl class="facts">
                <dt>{d.sources}</dt>
                <dd id="dashboard-sources"><ul>{ for props.sources.iter().map(|s| html! { <li>{source_line(s)}</li> }) }</ul></dd>
                <dt>{d.time_range}</dt><dd id="dashboard-range">{range}</dd>
                <dt>{d.vantages}</dt><dd id="dashboard-vantages">{vantages.join(", ")}</dd>
                <dt>{d.requests}</dt>
                <dd id="dashboard-requests" data-value={seen.requests.to_string()} data-errors={seen.errors.to_string()}>
                    {requests_line(lang, seen.requests, seen.errors)}
                </dd>
                <dt>{d.last_sample}</dt>
                <dd id="dashboard-newest" data-value={seen.range.map(|r| r.1.to_string()).unwrap_or_default()}>
                    {seen.range.map(|(_, last)| utc_time(last)).unwrap_or_else(|| "–".into())}
                </dd>
            </dl>
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct FailuresProps {
    lang: Lang,
    sources: Vec<SourceReport>,
}

/// Every file that failed, with its address and why.
#[component]
fn Failures(props: &FailuresProps) -> Html {
    let d = props.lang.dashboard_texts();
    let failures: Vec<_> = props.sources.iter().flat_map(|s| &s.failures).collect();
    let nothing = props.sources.iter().all(|s| s.files == 0);
    if failures.is_empty() && !nothing {
        return html! {};
    }
    html! {
        <section class="card load-errors" role="alert">
            if nothing {
                <p class="warn-line">{d.no_data_loaded}</p>
            }
            if !failures.is_empty() {
                <h2>{d.failed_files}</h2>
                <ul>
                { for failures.iter().map(|f| html! {
                    <li class="load-error" data-url={f.url.clone()}><code>{f.url.clone()}</code>{": "}{f.message.clone()}</li>
                }) }
                </ul>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct BodyProps {
    lang: Lang,
    dashboard: DashboardState,
    on_range: Callback<Range>,
}

/// One of the dashboard's tables per target and day: a card with its
/// heading, a table of `columns` (heading, a number or not) whose rows
/// stack into labelled blocks on a phone, and the hint under it.
fn daily_table(
    id: &'static str,
    heading: &'static str,
    columns: &[(&'static str, bool)],
    rows: Html,
    hint: &'static str,
) -> Html {
    html! {
        <section class="card" {id}>
            <h2>{heading}</h2>
            <div class="table-wrap">
            <table class="stack">
                <thead><tr>{ for columns.iter().map(|&(h, number)| html! { <th scope="col" class={number.then_some("num")}>{h}</th> }) }</tr></thead>
                <tbody>{ rows }</tbody>
            </table>
            </div>
            <p class="hint">{hint}</p>
        </section>
    }
}

/// Each target's probe pass rate per day, when the monitor checks
/// fidelity; nothing otherwise.
fn fidelity_days(lang: Lang, data: &Dataset) -> Html {
    let days = fidelity_daily(data);
    if days.is_empty() {
        return Html::default();
    }
    let (t, d) = (lang.texts(), lang.dashboard_texts());
    let rows = html! {
        { for days.iter().map(|day| {
            let pass = PassRate { passed: day.passed, replies: day.replies, low: day.interval.0, high: day.interval.1 };
            html! {
                <tr data-target={data.label(lang, day.target, None)} data-day={iso_date(day.day)} data-passed={day.passed.to_string()} data-replies={day.replies.to_string()}>
                    <th scope="row">{data.label(lang, day.target, None)}</th>
                    <td class="full" data-label={d.day}>{iso_date(day.day)}</td>
                    <td class="num full" data-label={t.probe_pass_rate}>{pass_rate_text(lang, &pass)}</td>
                </tr>
            }
        }) }
    };
    daily_table(
        "fidelity-days",
        d.fidelity_days,
        &[(t.target, false), (d.day, false), (t.probe_pass_rate, true)],
        rows,
        d.fidelity_days_hint,
    )
}

/// Each target's prefill rate per UTC day, for a monitor of sized
/// requests; nothing otherwise. The raw rate and interval ride in data
/// attributes for tests.
fn prefill_days(lang: Lang, data: &Dataset, days: &[PrefillDay]) -> Html {
    if days.is_empty() {
        return Html::default();
    }
    let (t, d) = (lang.texts(), lang.dashboard_texts());
    let (heading, rate_heading, hint) = daily_words(lang);
    let rows = html! {
        { for days.iter().map(|day| {
            let (kind, rate, low, high) = match day.rate {
                DayPrefill::Fitted { rate_tokens_per_s, interval, .. } => ("fitted", Some(rate_tokens_per_s.to_string()), Some(interval.low.to_string()), Some(interval.high.to_string())),
                DayPrefill::TooFew { .. } => ("too-few", None, None, None),
                DayPrefill::NoGrowth => ("no-growth", None, None, None),
            };
            html! {
                <tr data-target={data.label(lang, day.target, None)} data-day={iso_date(day.day)} data-kind={kind}
                    data-rate={rate} data-low={low} data-high={high} data-requests={day.requests.to_string()}>
                    <th scope="row">{data.label(lang, day.target, None)}</th>
                    <td class="full" data-label={d.day}>{iso_date(day.day)}</td>
                    <td class="num wrap" data-label={rate_heading}>{day_rate(lang, &day.rate)}</td>
                </tr>
            }
        }) }
    };
    daily_table(
        "prefill-days",
        heading,
        &[(t.target, false), (d.day, false), (rate_heading, true)],
        rows,
        hint,
    )
}

/// Each target's "goes cold after" per UTC day, for a monitor whose plan
/// has idle gaps; nothing otherwise. The range and the kind ride in data
/// attributes for tests.
fn idle_days(lang: Lang, data: &Dataset, days: &[IdleDay]) -> Html {
    if days.is_empty() {
        return Html::default();
    }
    let t = lang.texts();
    let (
        heading,
        [
            day_heading,
            cold_heading,
            connection_heading,
            requests_heading,
        ],
        hint,
    ) = idle_daily_words(lang);
    let rows = html! {
        { for days.iter().map(|day| {
            let (kind, lo, hi) = match day.figures.goes_cold {
                GoesCold::After { lo_s, hi_s, .. } => ("after", Some(lo_s.to_string()), Some(hi_s.to_string())),
                GoesCold::Unsure { lo_s, hi_s, .. } => ("unsure", Some(lo_s.to_string()), Some(hi_s.to_string())),
                GoesCold::StayedWarm { after_s, .. } => ("stayed-warm", Some(after_s.to_string()), None),
                GoesCold::TooFewGaps => ("too-few", None, None),
            };
            let label = data.label(lang, day.target, None);
            html! {
                <tr data-target={label.clone()} data-day={iso_date(day.day)} data-kind={kind}
                    data-lo={lo} data-hi={hi} data-requests={day.requests.to_string()}>
                    <th scope="row">{label}</th>
                    <td class="full" data-label={day_heading}>{iso_date(day.day)}</td>
                    <td class="wrap" data-label={cold_heading}>{goes_cold_cell(lang, &day.figures.goes_cold)}</td>
                    <td class="wrap" data-label={connection_heading}>{connection_cell(lang, &day.figures)}</td>
                    <td class="num" data-label={requests_heading}>{day.requests}</td>
                </tr>
            }
        }) }
    };
    daily_table(
        "idle-days",
        heading,
        &[
            (t.target, false),
            (day_heading, false),
            (cold_heading, false),
            (connection_heading, false),
            (requests_heading, true),
        ],
        rows,
        hint,
    )
}

/// A cell of milliseconds, with its raw value in `data-value`; "≥ x" (and
/// `data-lower-bound`) for a percentile that timeouts reach.
fn bounded_ms_cell(lang: Lang, label: &'static str, value: Option<f64>, lower_bound: bool) -> Html {
    match value {
        Some(v) => {
            let bound = lower_bound.then_some("true");
            html! { <td class="num" data-label={label} data-value={v.to_string()} data-lower-bound={bound}>{format!("{}{}", at_least(lower_bound), format_ms(lang, v))}</td> }
        }
        None => html! { <td class="num" data-label={label}>{"–"}</td> },
    }
}

/// Whether the `p`-th percentile of `percentiles` reaches a timeout's rank.
fn reaches_timeouts(percentiles: Option<&Percentiles>, p: f64) -> bool {
    percentiles.is_some_and(|q| percentile_reaches_censored(q.n, q.censored, p))
}

fn count_cell(label: &'static str, value: usize) -> Html {
    html! { <td class="num" data-label={label} data-value={value.to_string()}>{value}</td> }
}

fn rate_cell(label: &'static str, cell: &Cell) -> Html {
    match cell.error_rate_pct() {
        Some(pct) => {
            html! { <td class="num" data-label={label} data-value={pct.to_string()}>{format_pct(pct)}</td> }
        }
        None => html! { <td class="num" data-label={label}>{"–"}</td> },
    }
}

/// One target's rolling window: "median · p95" over "n of requests · error
/// rate", with the raw figures in data attributes for tests.
fn window_cell(lang: Lang, window: usize, label: &'static str, cell: &Cell) -> Html {
    let n = cell.ttft.map_or(0, |p| p.n);
    let latency = cell.ttft.map_or_else(
        || "–".to_owned(),
        |p| {
            window_latency(
                lang,
                p.p50_ms,
                reaches_timeouts(Some(&p), 50.0),
                p.p95_ms,
                reaches_timeouts(Some(&p), 95.0),
            )
        },
    );
    let counts = window_counts(n, cell.requests, cell.error_rate_pct());
    // The tool's core figure: the CV and the verdict, by the results' rule.
    let judged = cell.judged.map(|(cv_pct, judgement)| {
        let bound = cell.ttft.is_some_and(|p| p.censored > 0);
        window_judged(cv_pct, bound, &judgement.finished_label(lang, true))
    });
    html! {
        <td class="num window" data-label={label} data-window={window.to_string()}
            data-requests={cell.requests.to_string()} data-n={n.to_string()}
            data-median={cell.ttft.map(|p| p.p50_ms.to_string())} data-p95={cell.ttft.map(|p| p.p95_ms.to_string())}
            data-cv={cell.judged.map(|(cv, _)| cv.to_string())}>
            <span class="latency">{latency}</span>
            if let Some(judged) = judged { <span class="counts judged">{judged}</span> }
            <span class="counts">{counts}</span>
        </td>
    }
}

/// Why the rolling windows missing from `shown` are not shown, or `None`
/// when all are: they hold the same requests as the window before them.
fn windows_hidden_note(
    lang: Lang,
    data: &Dataset,
    shown: &[usize],
    names: [&'static str; 3],
) -> Option<String> {
    let hidden: Vec<&str> = (0..names.len())
        .filter(|w| !shown.contains(w))
        .map(|w| names[w])
        .collect();
    // Every hidden window repeats the last shown one before it; with three
    // windows that is one window for all of them.
    let first_hidden = (0..names.len()).find(|w| !shown.contains(w))?;
    let same_as = *shown.iter().filter(|&&w| w < first_hidden).max()?;
    let requests = window_requests(data)[same_as];
    let all_within = data
        .time_range()
        .filter(|_| requests == data.points.len())
        .map(|(first, last)| last - first);
    Some(windows_note(
        lang,
        &hidden,
        names[same_as],
        requests,
        all_within,
    ))
}

#[component]
fn DashboardBody(props: &BodyProps) -> Html {
    let lang = props.lang;
    let t = lang.texts();
    let d = lang.dashboard_texts();
    let data = Rc::clone(&props.dashboard.data.0);
    let key = props.dashboard.data.key();
    let range = props.dashboard.range;
    let figures = use_memo(key, {
        let data = Rc::clone(&data);
        move |_| Figures::of(&data)
    });
    // Every range's figures at once, when the data arrives: the smaller
    // ranges are subsets of "all", so this costs about a third more than
    // "all" alone, and a range change then only re-renders and redraws.
    let by_range = use_memo(key, {
        let data = Rc::clone(&data);
        move |_| {
            let end = data.time_range().map_or(0.0, |(_, last)| last);
            Range::ALL.map(|range| Rc::new(Ranged::of(&data, range.from_ms(end))))
        }
    });
    let ranged = by_range
        .iter()
        .zip(Range::ALL)
        .find(|(_, r)| *r == range)
        .map(|(ranged, _)| Rc::clone(ranged))
        .unwrap_or_else(|| Rc::clone(&by_range[by_range.len() - 1]));
    let prefill = use_memo(key, {
        let data = Rc::clone(&data);
        move |_| prefill_daily(&data, None)
    });
    let idle = use_memo(key, {
        let data = Rc::clone(&data);
        move |_| idle_daily(&data)
    });
    let items = use_memo((lang, key, range), {
        let data = Rc::clone(&data);
        let figures = Rc::clone(&figures);
        let ranged = Rc::clone(&ranged);
        move |_| dashboard_chart_items(lang, &data, &figures, &ranged)
    });

    let range_button = |choice: Range, label: &'static str| {
        let on_range = props.on_range.clone();
        let current = choice == range;
        let onclick = Callback::from(move |_| on_range.emit(choice));
        html! { <button type="button" class={classes!("range", current.then_some("current"))} aria-pressed={current.to_string()} {onclick}>{label}</button> }
    };
    // Only the windows that differ: for 6 min of data, one, not three alike;
    // a note names the others and the requests they would repeat.
    let window_names = [d.window_24h, d.window_72h, d.window_7d];
    let shown = windows_shown(&data);
    let note = windows_hidden_note(lang, &data, &shown, window_names);
    html! {
        <>
        <section class="card windows">
            <h2>{d.windows}</h2>
            <div class="table-wrap">
            <table class="stack windows-table">
                <thead><tr>
                    <th scope="col">{t.target}</th>
                    { for shown.iter().map(|&w| html! { <th scope="col" class="num">{window_names[w]}</th> }) }
                </tr></thead>
                <tbody>
                { for figures.windows.iter().map(|row| html! {
                    <tr data-target={row.target.to_string()}>
                        <th scope="row">{data.label(lang, row.target, None)}</th>
                        { for shown.iter().filter_map(|&w| row.windows.get(w).map(|cell| window_cell(lang, w, window_names[w], cell))) }
                    </tr>
                }) }
                </tbody>
            </table>
            </div>
            <p class="hint">{d.window_hint}</p>
            if let Some(note) = note { <p class="hint" id="windows-note">{note}</p> }
        </section>
        <section class="card range-picker">
            <span>{d.range}</span>
            <div class="ranges" role="group" aria-label={d.range}>
                { range_button(Range::Days7, d.range_7d) }
                { range_button(Range::Days30, d.range_30d) }
                { range_button(Range::Days90, d.range_90d) }
                { range_button(Range::All, d.range_all) }
            </div>
        </section>
        <section class="card vantage-comparison">
            <h2>{d.comparison}</h2>
            <div class="table-wrap">
            <table class="stack by-vantage">
                <thead><tr>
                    <th scope="col">{t.target}</th><th scope="col">{d.vantage}</th><th scope="col" class="num">{d.requests}</th>
                    <th scope="col" class="num">{"n"}</th><th scope="col" class="num">{t.median}</th><th scope="col" class="num">{t.p95}</th>
                    <th scope="col" class="num">{t.errors}</th><th scope="col" class="num">{t.error_rate}</th>
                </tr></thead>
                <tbody>
                { for ranged.vantages.iter().map(|row| {
                    let vantage = data.vantages.get(row.vantage as usize).cloned().unwrap_or_default();
                    html! {
                        <tr data-target={data.label(lang, row.target, None)} data-vantage={vantage.clone()}>
                            <th scope="row">{data.label(lang, row.target, None)}</th>
                            <td data-label={d.vantage}>{vantage_name(lang, &vantage).to_owned()}</td>
                            { count_cell(d.requests, row.cell.requests) }
                            { count_cell("n", row.cell.ttft.map_or(0, |p| p.n)) }
                            { bounded_ms_cell(lang, t.median, row.cell.ttft.map(|p| p.p50_ms), reaches_timeouts(row.cell.ttft.as_ref(), 50.0)) }
                            { bounded_ms_cell(lang, t.p95, row.cell.ttft.map(|p| p.p95_ms), reaches_timeouts(row.cell.ttft.as_ref(), 95.0)) }
                            { count_cell(t.errors, row.cell.errors) }
                            { rate_cell(t.error_rate, &row.cell) }
                        </tr>
                    }
                }) }
                </tbody>
            </table>
            </div>
        </section>
        { fidelity_days(lang, &data) }
        { prefill_days(lang, &data, &prefill) }
        { idle_days(lang, &data, &idle) }
        <ChartGrid {lang} {items} layout={key} title={d.charts} mark="firsttoken:dashboard-drawn" />
        </>
    }
}
