//! The results' charts: builds each chart's plain-data input from the
//! report, and draws it on a canvas sized for the screen's pixel ratio. Each
//! chart has a "Download PNG" button and its numbers in a table beside it.
//!
//! Inputs are built once per set of samples and language; a canvas is
//! redrawn only when its input changes or its width does.

use std::rc::Rc;

use plotters::prelude::IntoDrawingArea;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::browser::canvas::{
    MeasuredCanvas, canvas_by_id, css_width_px, fit_to_css_box, png_data_url,
};
use crate::browser::clock::performance_mark;
use crate::browser::files::download_url;
use crate::chart::ChartStyle;
use crate::core::judgement::prefill_report::PrefillReport;
use crate::core::judgement::report::Report;
use crate::ui::hooks::resize::use_resize_count;
use crate::ui::model::chart_items::ChartItem;
use crate::ui::model::chart_items::{chart_labels, draw_chart, results_chart_items_with};
use crate::ui::model::i18n::Lang;
use crate::ui::model::state::ResultsView;
use std::collections::BTreeMap;

/// The style of a chart on a canvas `width` device pixels wide at `ratio`
/// device pixels per CSS pixel.
pub fn chart_style(lang: Lang, width: u32, ratio: f64) -> ChartStyle {
    ChartStyle {
        font_family: "system-ui, sans-serif".into(),
        font_scale: ratio,
        // The canvas keeps a white background in both colour schemes (CSS),
        // so a chart looks the same on screen, printed and downloaded.
        dark: false,
        width_px: Some((f64::from(width) / ratio).round() as u32),
        labels: chart_labels(lang),
    }
}

/// Draws `item` on `canvas`, laid out `css_width_px` wide; returns the
/// drawing's error text.
pub fn draw_item(
    item: &ChartItem,
    canvas: HtmlCanvasElement,
    css_width_px: f64,
    lang: Lang,
) -> Result<(), String> {
    let (width, _, ratio) = fit_to_css_box(&canvas, css_width_px, item.height_px);
    let style = chart_style(lang, width, ratio);
    let backend = MeasuredCanvas::new(canvas).ok_or("the canvas has no 2D context")?;
    let area = backend.into_drawing_area();
    draw_chart(&item.spec, &area, &style, lang).map_err(|e| e.to_string())?;
    area.present().map_err(|e| format!("{e:?}"))
}

/// Props of the charts section.
#[derive(Properties, Clone)]
pub struct ChartsProps {
    /// Page language.
    pub lang: Lang,
    /// The samples.
    pub results: ResultsView,
    /// Their report.
    pub report: Rc<Report>,
    /// Their prompt-size figures, made with the report.
    pub prefill: Rc<Option<PrefillReport>>,
}

impl PartialEq for ChartsProps {
    fn eq(&self, other: &Self) -> bool {
        self.lang == other.lang && Rc::ptr_eq(&self.report, &other.report)
    }
}

/// All charts of the results, drawn after the DOM is in place.
#[component]
pub fn ChartsSection(props: &ChartsProps) -> Html {
    let items = use_memo((props.lang, Rc::as_ptr(&props.report) as usize), {
        let results = props.results.clone();
        let report = Rc::clone(&props.report);
        let prefill = Rc::clone(&props.prefill);
        let lang = props.lang;
        move |_| results_chart_items_with(lang, &results, &report, prefill.as_ref().as_ref())
    });
    html! {
        <ChartGrid lang={props.lang} {items} layout={Rc::as_ptr(&props.report) as usize}
            title={props.lang.texts().charts} mark="firsttoken:charts-drawn" />
    }
}

/// Props of a grid of charts.
#[derive(Properties, Clone)]
pub struct ChartGridProps {
    /// Page language.
    pub lang: Lang,
    /// The charts, built for this language.
    pub items: Rc<Vec<ChartItem>>,
    /// Changes when the canvases may have new widths (new data), so they are
    /// measured again; a language switch keeps it.
    pub layout: usize,
    /// Section heading.
    pub title: &'static str,
    /// Performance mark set once every chart is drawn.
    pub mark: &'static str,
    /// The charts alone, without a card and heading of their own: for a
    /// chart drawn inside a report section ([`crate::core::outline`]).
    #[prop_or_default]
    pub bare: bool,
}

impl PartialEq for ChartGridProps {
    fn eq(&self, other: &Self) -> bool {
        self.lang == other.lang
            && Rc::ptr_eq(&self.items, &other.items)
            && self.layout == other.layout
            && self.title == other.title
            && self.bare == other.bare
    }
}

/// Charts, each with a PNG download and its numbers, drawn after the DOM is
/// in place.
#[component]
pub fn ChartGrid(props: &ChartGridProps) -> Html {
    let t = props.lang.texts();
    let items = Rc::clone(&props.items);
    // Bumped when the window is resized: the canvases then have a new width.
    let resizes = use_resize_count();
    // Canvas widths as last laid out, for (report, resize count). Reading a
    // width right after a render forces the browser to lay out the whole
    // results page there and then (~10 ms with 30 charts), and again in the
    // frame. A language switch changes no width, so it redraws with these;
    // new results or a resize read them afresh.
    let widths = use_mut_ref(|| ((0usize, 0u32), BTreeMap::<String, f64>::new()));
    {
        let items = Rc::clone(&items);
        let lang = props.lang;
        let layout = (props.layout, resizes);
        let mark = props.mark;
        use_effect_with((Rc::as_ptr(&items) as usize, layout), move |_| {
            let mut widths = widths.borrow_mut();
            if widths.0 != layout {
                *widths = (layout, BTreeMap::new());
            }
            // Every width first (one layout at most), then every drawing: a
            // width read after a canvas was resized would lay out again.
            let canvases: Vec<_> = items
                .iter()
                .map(|item| {
                    let canvas = canvas_by_id(&item.id)?;
                    let width = match widths.1.get(&item.id) {
                        Some(&width) => width,
                        None => {
                            let width = css_width_px(&canvas);
                            widths.1.insert(item.id.clone(), width);
                            width
                        }
                    };
                    Some((width, canvas))
                })
                .collect();
            for (item, canvas) in items.iter().zip(canvases) {
                let drawn = match canvas {
                    Some((width, canvas)) => draw_item(item, canvas, width, lang),
                    None => Err("no canvas".to_owned()),
                };
                if let Err(error) = drawn {
                    web_sys::console::error_1(&format!("chart {}: {error}", item.id).into());
                }
            }
            performance_mark(mark);
        });
    }
    let grid = html! {
            <div class={classes!("chart-grid", props.bare.then_some("in-section"))}>
            { for items.iter().map(|item| {
                let id = item.id.clone();
                let on_png = Callback::from(move |_| {
                    if let Some(canvas) = canvas_by_id(&id)
                        && let Ok(url) = png_data_url(&canvas)
                    {
                        let _ = download_url(&url, &format!("firsttoken-{id}.png"));
                    }
                });
                html! {
                    <figure class="chart" key={item.id.clone()}>
                        <figcaption>
                            <span>{item.title.clone()}</span>
                            <button type="button" class="png" onclick={on_png}>{t.download_png}</button>
                        </figcaption>
                        <canvas id={item.id.clone()} role="img" aria-label={item.title.clone()}></canvas>
                        <details class="numbers">
                            <summary>{t.samples}</summary>
                            <div class="table-wrap">
                            <table>
                                <thead><tr>{ for item.columns.iter().map(|c| html! { <th scope="col">{c.clone()}</th> }) }</tr></thead>
                                <tbody>{ for item.rows.iter().map(|row| html! {
                                    <tr>{ for row.iter().map(|c| html! { <td>{c.clone()}</td> }) }</tr>
                                }) }</tbody>
                            </table>
                            </div>
                        </details>
                    </figure>
                }
            }) }
            </div>
    };
    if props.bare {
        return grid;
    }
    html! {
        <section class="card">
            <h2>{props.title}</h2>
            { grid }
        </section>
    }
}
