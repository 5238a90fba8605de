//! The probe grid: one row per target, one column per probe, each cell a
//! button that opens the replies behind it (beside a right answer and the
//! failure words) in a panel under the grid.
//!
//! The panel sits outside the grid on purpose: thirty columns scroll
//! sideways at 400 px, and anything opened inside a cell would be clipped
//! by that scrolling box or widen its column. Only the selected cell's
//! replies are read and verified (`ui::model::fidelity_items`), on selection.

use std::rc::Rc;

use yew::prelude::*;

use crate::core::judgement::report::Report;
use crate::core::narrative::fidelity::{cell_mark, cell_title};
use crate::core::wire::sample::Sample;
use crate::ui::model::fidelity_items::{CellState, category_spans, cell_detail};
use crate::ui::model::i18n::Lang;

/// What the grid needs.
#[derive(Properties)]
pub struct ProbeGridProps {
    /// The page's language.
    pub lang: Lang,
    /// The report whose fidelity check is shown.
    pub report: Rc<Report>,
    /// The samples the report was built from (the cells index them).
    pub samples: Rc<Vec<Sample>>,
}

/// The same report and samples by pointer: both are made once per set of
/// samples, and comparing 10 000 samples member by member on every render
/// of the results would cost more than drawing the grid.
impl PartialEq for ProbeGridProps {
    fn eq(&self, other: &Self) -> bool {
        self.lang == other.lang
            && Rc::ptr_eq(&self.report, &other.report)
            && Rc::ptr_eq(&self.samples, &other.samples)
    }
}

/// The grid and, once a cell is chosen, its replies.
#[component]
pub fn ProbeGrid(props: &ProbeGridProps) -> Html {
    let lang = props.lang;
    let t = lang.texts();
    // (target, probe's position in the suite) of the opened cell.
    let selected = use_state(|| None::<(u32, usize)>);
    let Some(fidelity) = &props.report.fidelity else {
        return html! {};
    };
    let probes = fidelity.suite.probes();
    let select = |target: u32, probe: usize| {
        let selected = selected.clone();
        Callback::from(move |_: MouseEvent| {
            let cell = Some((target, probe));
            selected.set(if *selected == cell { None } else { cell });
        })
    };
    let on_close = {
        let selected = selected.clone();
        Callback::from(move |_: MouseEvent| selected.set(None))
    };
    let detail = selected.and_then(|(target, probe)| {
        cell_detail(lang, &props.report, &props.samples, target, probe)
    });
    html! {
        <>
            // Focusable, so the keyboard can scroll it sideways.
            <div class="probe-grid-wrap" tabindex="0" role="region" aria-label={t.probe_grid}>
                <table class="probe-grid" id="probe-grid">
                    <thead>
                        <tr>
                            <th scope="col" rowspan="2" class="target-head">{t.target}</th>
                            { for category_spans(lang, probes).into_iter().map(|span| html! {
                                <th scope="colgroup" colspan={span.span.to_string()} class="category" data-category={span.category.as_str()}>{span.name}</th>
                            }) }
                        </tr>
                        <tr>
                            { for probes.iter().map(|probe| html! {
                                <th scope="col" class="probe-head" title={probe.question}><span>{probe.id}</span></th>
                            }) }
                        </tr>
                    </thead>
                    <tbody>
                    { for fidelity.targets.iter().map(|figures| {
                        let label = props
                            .report
                            .targets
                            .get(figures.target as usize)
                            .map(|t| t.label.clone())
                            .unwrap_or_default();
                        html! {
                            <tr data-target={figures.target.to_string()}>
                                <th scope="row">{label.clone()}</th>
                                { for figures.cells.iter().enumerate().map(|(index, cell)| {
                                    let state = CellState::of(cell);
                                    let open = *selected == Some((figures.target, index));
                                    html! {
                                        <td class={classes!("probe-cell", state.as_str())} data-probe={cell.probe} data-target={figures.target.to_string()} data-state={state.as_str()} data-passed={cell.passed.to_string()} data-replies={cell.replies.to_string()}>
                                            <button type="button" title={cell_title(lang, &label, cell.probe, cell.passed, cell.replies)} aria-expanded={open.to_string()} aria-controls="probe-detail" onclick={select(figures.target, index)}>{cell_mark(cell.passed, cell.replies)}</button>
                                        </td>
                                    }
                                }) }
                            </tr>
                        }
                    }) }
                    </tbody>
                </table>
            </div>
            if let Some(detail) = detail {
                <div class="probe-detail" id="probe-detail" data-target={detail.target.to_string()} data-probe={detail.probe.id}>
                    <div class="probe-detail-head">
                        <h4>{detail.label}{" · "}<code>{detail.probe.id}</code>{match lang {
                            Lang::En => format!(" ({})", detail.category),
                            Lang::ZhCn => format!("（{}）", detail.category),
                        }}</h4>
                        <button type="button" class="close" aria-label={t.close} title={t.close} onclick={on_close}>{"×"}</button>
                    </div>
                    <dl class="probe-facts">
                        <dt>{t.question}</dt>
                        <dd>{detail.probe.question}</dd>
                        <dt>{t.right_answer}</dt>
                        <dd><pre class="answer expected">{detail.probe.model_answer}</pre></dd>
                    </dl>
                    <h5>{t.replies}</h5>
                    <ol class="probe-replies">
                        { for detail.replies.iter().map(|reply| {
                            let (class, mark, word) = if reply.passed {
                                ("pass", "✓", t.reply_passed)
                            } else {
                                ("fail", "✗", t.reply_failed)
                            };
                            html! {
                                <li class={class} data-passed={reply.passed.to_string()} data-sample={reply.sample.to_string()}>
                                    <span class="mark" role="img" aria-label={word} title={word}>{mark}</span>
                                    <pre class="answer">{reply.text.clone()}</pre>
                                    if let Some(failure) = reply.failure {
                                        <span class="failure">{failure}</span>
                                    }
                                </li>
                            }
                        }) }
                    </ol>
                </div>
            }
        </>
    }
}
