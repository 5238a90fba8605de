//! The run screen (progress, per-target live figures, latest errors, pause /
//! resume / stop) and the history of runs kept on this device.

use yew::prelude::*;

use crate::browser::spawn;
use crate::core::narrative::fidelity::count_of;
use crate::core::planning::plan::Target;
use crate::core::wire::sample::{ErrorKind, SampleError};
use crate::core::words::failure::{blocked_request_text, error_kind_words};
use crate::core::words::format::at_least;
use crate::ui::components::live_timeline::LiveTimeline;
use crate::ui::components::verdict_badge::judgement_badge;
use crate::ui::hooks::render_mark::use_render_mark;
use crate::ui::model::i18n::{format_clock, format_epoch, format_ms, format_pct};
use crate::ui::model::state::page::PageProps;
use crate::ui::model::state::{Action, LATEST_SAMPLES, RunStatus};
use crate::ui::run::driver::{delete_run, open_run};

/// The run screen.
#[component]
pub fn RunPage(props: &PageProps) -> Html {
    let state = &props.state;
    let t = state.lang.texts();
    let lang = state.lang;
    // After every render: where a live update's main-thread cost ends.
    use_render_mark("firsttoken:run-rendered");
    let Some(run) = &state.run else {
        return html! { <section class="card"><p>{t.no_run}</p></section> };
    };
    let dispatch = props.dispatcher();
    let on_pause = {
        let driver = props.driver.clone();
        let dispatch = dispatch.clone();
        Callback::from(move |_| driver.pause(&dispatch))
    };
    let on_resume = {
        let driver = props.driver.clone();
        let dispatch = dispatch.clone();
        Callback::from(move |_| driver.unpause(&dispatch))
    };
    let on_stop = {
        let driver = props.driver.clone();
        Callback::from(move |_| driver.stop())
    };
    let on_results = {
        let dispatch = dispatch.clone();
        Callback::from(move |_| dispatch.emit(Action::Show(crate::ui::model::state::View::Results)))
    };
    let status = match run.status {
        RunStatus::Running => t.status_running,
        RunStatus::Paused => t.status_paused,
        RunStatus::Stopped => t.status_stopped,
        RunStatus::Finished => t.status_finished,
    };
    let active = matches!(run.status, RunStatus::Running | RunStatus::Paused);
    let percent = if run.total == 0 {
        0.0
    } else {
        f64::from(run.done) * 100.0 / f64::from(run.total)
    };
    let latest: Vec<crate::core::wire::sample::Sample> = run
        .samples
        .read(|all| all.iter().rev().take(LATEST_SAMPLES).cloned().collect());
    let labels: std::rc::Rc<Vec<String>> =
        std::rc::Rc::new(run.plan.targets.iter().map(|t| t.label.clone()).collect());
    let tz = run.environment.tz_offset_min;
    let latest_item = |sample: &crate::core::wire::sample::Sample| {
        let label = labels
            .get(sample.target as usize)
            .cloned()
            .unwrap_or_default();
        // Four times the target's running median: a cold start, marked the
        // moment it arrives.
        let median = run
            .live
            .get(sample.target as usize)
            .and_then(|row| row.median_ms);
        // A probe answers another prompt: its TTFT is no latency figure, so
        // it shows whether its reply passed instead, and is never "slow".
        let probe = sample.probe.as_deref();
        let slow = probe.is_none()
            && matches!((sample.ttft_ms, median), (Some(v), Some(m)) if sample.error.is_none() && v > 4.0 * m);
        let passed = sample.check.map(|check| check.passed);
        let result = match (&sample.error, probe, passed, sample.ttft_ms) {
            (Some(error), _, _, _) => error_kind(lang, error),
            (None, Some(_), Some(passed), _) => {
                let (mark, word) = if passed {
                    ("✓", t.reply_passed)
                } else {
                    ("✗", t.reply_failed)
                };
                html! { <span class="probe-check" role="img" aria-label={word} title={word}>{mark}</span> }
            }
            (None, Some(_), None, _) => html! { {"–"} },
            (None, None, _, Some(ms)) => html! { <span class="num">{format_ms(lang, ms)}</span> },
            (None, None, _, None) => html! { {"–"} },
        };
        let kind = match probe {
            Some(id) => format!(" · {} {id}", t.probe_short),
            None if sample.warmup => format!(" · {}", t.warmup_short),
            None => String::new(),
        };
        html! {
            <li class={classes!(sample.error.is_some().then_some("failed"), slow.then_some("slow"), sample.warmup.then_some("warmup"), probe.map(|_| "probe"), passed.map(|p| if p { "passed" } else { "not-passed" }))}
                data-target={sample.target.to_string()} data-probe={probe.map(str::to_owned)} data-passed={passed.map(|p| p.to_string())}>
                <time>{format_clock(sample.sent_at_ms, tz)}</time>
                <span class="who">{label}{kind}</span>
                {result}
            </li>
        }
    };
    let eta = run
        .eta_ms
        .map(|ms| {
            let left =
                crate::core::narrative::run_time::eta_text(lang, ms, run.schedule_shift_ms, false);
            format!(" · {} {left}", t.eta)
        })
        .unwrap_or_default();
    // Each target's probe replies so far (passed, replies), when the plan
    // checks fidelity: one pass over the log, as each reply was checked.
    let probes: Option<Vec<(usize, usize)>> = run.plan.fidelity.as_ref().map(|_| {
        run.samples.read(|samples| {
            let mut counts = vec![(0, 0); run.plan.targets.len()];
            for sample in samples {
                if let (Some(check), Some(count)) =
                    (sample.check, counts.get_mut(sample.target as usize))
                {
                    count.0 += usize::from(check.passed);
                    count.1 += 1;
                }
            }
            counts
        })
    });
    // A run until decided says, once it ended, what was decided after how
    // many requests: the runner's last line, from core.
    let decided = if active {
        None
    } else {
        run.samples
            .read(|all| crate::core::narrative::ending::until_decided_text(lang, &run.plan, all))
    };
    // While it runs, each question as it stands, with its range.
    let questions: Vec<String> = if active {
        run.samples
            .read(|all| crate::core::wire::questions::Questions::replayed(&run.plan, all))
            .map(|questions| {
                crate::core::narrative::ending::question_lines(lang, &run.plan, &questions)
            })
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    html! {
        <div class="run">
            <section class="card">
                <h2>{t.progress}{": "}<span class="run-status" data-status={run.status.as_str()}>{status}</span></h2>
                // A <progress> element, not a styled div: the CSP forbids inline styles.
                <progress id="run-progress" max={run.total.max(1).to_string()} value={run.done.to_string()} aria-label={t.progress}>{format!("{percent:.0} %")}</progress>
                <p class="progress-text" id="progress-text">{format!("{} / {}{}", run.done, run.total, eta)}</p>
                <div class="actions">
                    if run.status == RunStatus::Running { <button type="button" onclick={on_pause}>{t.pause}</button> }
                    if run.status == RunStatus::Paused { <button type="button" class="primary" onclick={on_resume}>{t.resume}</button> }
                    if active { <button type="button" class="danger" onclick={on_stop}>{t.stop}</button> }
                    if !active { <button type="button" class="primary" onclick={on_results}>{t.nav_results}</button> }
                </div>
                if run.hidden_samples > 0 { <p class="warn-line">{t.hidden_notice}</p> }
                if let Some(decided) = decided { <p id="run-decided">{decided}</p> }
                if !questions.is_empty() { <ul id="run-questions">{ for questions.into_iter().map(|q| html! { <li>{q}</li> }) }</ul> }
            </section>
            <section class="card">
                <div class="table-wrap">
                <table class="live stack" id="live-table">
                    <thead><tr>
                        <th scope="col">{t.target}</th><th scope="col" class="num">{t.done}</th><th scope="col" class="num">{t.errors}</th>
                        <th scope="col" class="num">{t.median}</th><th scope="col" class="num">{t.p95}</th><th scope="col" class="num">{t.cv}</th><th scope="col">{t.verdict}</th>
                        if probes.is_some() { <th scope="col" class="num">{t.probe_pass_rate}</th> }
                    </tr></thead>
                    <tbody>
                    { for run.plan.targets.iter().zip(&run.live).enumerate().map(|(index, (target, row))| html! {
                        <tr>
                            <th scope="row">{target.label.clone()}</th>
                            // data-label: narrow screens show each row as a labelled list.
                            <td class="num" data-label={t.done}>{format!("{} / {}", row.done, run.plan.requests_per_target)}</td>
                            <td class="num" data-label={t.errors}>{row.errors}</td>
                            <td class="num" data-label={t.median}>{row.median_ms.map(|v| format!("{}{}", at_least(row.percentile_is_lower_bound(50.0)), format_ms(lang, v))).unwrap_or_else(|| "–".into())}</td>
                            <td class="num" data-label={t.p95}>{row.p95_ms.map(|v| format!("{}{}", at_least(row.percentile_is_lower_bound(95.0)), format_ms(lang, v))).unwrap_or_else(|| "–".into())}</td>
                            <td class="num" data-label={t.cv}>{row.cv_pct.map(|v| format!("{}{}", at_least(row.censored > 0), format_pct(v))).unwrap_or_else(|| "–".into())}</td>
                            <td class="verdict-cell" data-label={t.verdict}>{judgement_badge(lang, row.judgement, !active)}</td>
                            if let Some((passed, replies)) = probes.as_ref().and_then(|counts| counts.get(index).copied()) {
                                <td class="num probes" data-label={t.probe_pass_rate} data-passed={passed.to_string()} data-replies={replies.to_string()}>{count_of(lang, passed, replies)}</td>
                            }
                        </tr>
                    }) }
                    </tbody>
                </table>
                </div>
            </section>
            <section class="card live-view">
                <div class="live-grid">
                    <LiveTimeline lang={lang} run_id={run.run_id.clone()} samples={run.samples.clone()} revision={run.revision}
                        labels={std::rc::Rc::clone(&labels)} start_ms={run.environment.started_at_ms} eta_ms={run.eta_ms} />
                    <div class="latest">
                        <h3>{t.latest_samples}</h3>
                        <p class="latest-head" aria-hidden="true"><span>{t.time}</span><span>{t.target}</span><span>{t.ttft_or_error}</span></p>
                        <ol class="latest-samples" id="latest-samples">
                            { for latest.iter().map(latest_item) }
                        </ol>
                    </div>
                </div>
            </section>
            if !run.latest_errors.is_empty() {
                <section class="card">
                    <h2>{t.latest_errors}</h2>
                    <ul class="error-list">
                        { for run.latest_errors.iter().map(|(label, error)| {
                            let target = run.plan.targets.iter().find(|t| &t.label == label);
                            html! {
                                <li><strong>{label.clone()}</strong>{" — "}{error_kind(lang, error)}{": "}{error_message(lang, error, target)}</li>
                            }
                        }) }
                    </ul>
                </section>
            }
        </div>
    }
}

/// A failure's kind in words, its exported name kept for scripts in
/// `data-kind`.
fn error_kind(lang: crate::ui::model::i18n::Lang, error: &SampleError) -> Html {
    html! { <span class="error-kind" data-kind={error.kind.as_str()}>{error_kind_words(lang, error.kind)}</span> }
}

/// A failure's message in the page's language. The stored message is
/// English; a request the browser showed no answer to is said again in
/// Chinese, with the provider's own note in Chinese.
fn error_message(
    lang: crate::ui::model::i18n::Lang,
    error: &SampleError,
    target: Option<&Target>,
) -> String {
    match (lang, error.kind) {
        (crate::ui::model::i18n::Lang::ZhCn, ErrorKind::CorsOrNetwork) => {
            let note = target
                .and_then(|t| t.provider.as_deref())
                .and_then(crate::core::planning::presets::preset_by_id)
                .map(|p| p.cors_note_zh);
            blocked_request_text(lang, note, "")
        }
        _ => error.message.clone(),
    }
}

/// A callback that reloads run `run_id` from storage and resumes it, unless
/// a run is already going.
fn resume_callback(props: &PageProps, run_id: String) -> Callback<MouseEvent> {
    let dispatch = props.dispatcher();
    let driver = props.driver.clone();
    let keys = props.state.keys.clone();
    let lang = props.state.lang;
    Callback::from(move |_| driver.resume(run_id.clone(), keys.clone(), dispatch.clone(), lang))
}

/// The offer to resume an interrupted run, shown above every screen: after a
/// reload the page opens on the setup screen, and an offer kept on the
/// history tab alone would go unseen while the run's schedule slips.
#[component]
pub fn ResumeOffer(props: &PageProps) -> Html {
    let state = &props.state;
    let t = state.lang.texts();
    let Some(offer) = state
        .resume_offer
        .as_ref()
        .filter(|_| !props.driver.is_active())
    else {
        return html! {};
    };
    html! {
        <section class="card offer" role="alert" id="resume-offer">
            <p>{t.resume_offer}</p>
            // The progress bar's count first, as the run showed it, then
            // the measured requests per target that the tables count.
            <p class="hint" id="resume-offer-progress">{format!(
                "{} · {} {} / {} {} · {} {} / {}",
                offer.labels.join(", "),
                t.done,
                offer.requests.0,
                offer.requests.1,
                t.offer_requests,
                t.offer_measured,
                offer.done,
                offer.planned
            )}</p>
            <button type="button" class="primary" id="resume-run" onclick={resume_callback(props, offer.run_id.clone())}>{t.resume_run}</button>
        </section>
    }
}

/// The history screen: runs kept on this device.
#[component]
pub fn HistoryPage(props: &PageProps) -> Html {
    let state = &props.state;
    let t = state.lang.texts();
    let dispatch = props.dispatcher();
    let tz = crate::browser::clock::tz_offset_min();
    html! {
        <div class="history">
            <section class="card">
                <h2>{t.history}</h2>
                if state.history.is_empty() { <p>{t.no_history}</p> }
                <ul class="history-list">
                { for state.history.iter().map(|entry| {
                    let open = {
                        let dispatch = dispatch.clone();
                        let run_id = entry.run_id.clone();
                        Callback::from(move |_| spawn(open_run(run_id.clone(), dispatch.clone())))
                    };
                    let delete = {
                        let dispatch = dispatch.clone();
                        let run_id = entry.run_id.clone();
                        Callback::from(move |_| spawn(delete_run(run_id.clone(), dispatch.clone())))
                    };
                    let interrupted = matches!(entry.status, RunStatus::Running | RunStatus::Paused);
                    html! {
                        <li>
                            <div>
                                <strong>{format_epoch(entry.started_at_ms, tz)}</strong>
                                {format!(" · {} {} / {} · ", t.done, entry.done, entry.planned)}
                                {entry.labels.join(", ")}
                            </div>
                            <div class="inline">
                                <button type="button" onclick={open}>{t.open}</button>
                                if interrupted { <button type="button" onclick={resume_callback(props, entry.run_id.clone())}>{t.resume_run}</button> }
                                <button type="button" class="secondary" onclick={delete}>{t.delete}</button>
                            </div>
                        </li>
                    }
                }) }
                </ul>
            </section>
        </div>
    }
}
