//! The run view's timeline: TTFT of every request as it arrives, one colour
//! per target, failed requests marked, so a cold start shows the moment it
//! happens.
//!
//! A live update must stay within a few milliseconds with 10 000 samples in
//! the run (docs/render.md), and drawing 10 000 dots takes longer than that.
//! So the frame is drawn with axes that leave room to grow
//! ([`TimelineAxes::around`]) and each update only adds the new samples'
//! dots to the canvas. The whole chart is drawn again only when a sample
//! falls outside the axes (a slower cold start than any before, a run that
//! outlasts its estimate), the canvas changes width, or the language
//! changes.

use std::cell::RefCell;
use std::rc::Rc;

use plotters::prelude::IntoDrawingArea;
use yew::prelude::*;

use crate::browser::canvas::{MeasuredCanvas, canvas_by_id, css_width_px, fit_to_css_box};
use crate::chart::{
    ChartStyle, TimelineAxes, TimelineInput, TimelinePlot, TimelinePoint, draw_timeline,
    draw_timeline_points,
};
use crate::core::wire::sample::Sample;
use crate::ui::components::charts::chart_style;
use crate::ui::hooks::resize::use_resize_count;
use crate::ui::model::i18n::Lang;
use crate::ui::model::state::SampleLog;

/// Canvas element id (tests read its pixels).
const CANVAS_ID: &str = "live-timeline";

/// Canvas height, CSS pixels.
const HEIGHT_PX: f64 = 260.0;

/// Props of [`LiveTimeline`].
#[derive(Properties, PartialEq, Clone)]
pub struct LiveTimelineProps {
    /// Page language.
    pub lang: Lang,
    /// Storage id of the run: a new run starts a new drawing.
    pub run_id: String,
    /// The run's samples.
    pub samples: SampleLog,
    /// Bumped on every new sample.
    pub revision: u64,
    /// Target labels, by target index.
    pub labels: Rc<Vec<String>>,
    /// When the run started, Unix epoch ms (x = 0).
    pub start_ms: f64,
    /// Estimated time left, ms.
    pub eta_ms: Option<f64>,
}

/// What is on the canvas, so the next update knows what to add.
#[derive(Default)]
struct Drawn {
    /// The plot, once a frame is drawn.
    plot: Option<TimelinePlot>,
    /// Samples of the log already considered.
    seen: usize,
    /// What the frame was drawn for: run, language, resize count.
    key: Option<(String, Lang, u32)>,
    /// Canvas width as laid out, CSS pixels (read once per key: reading it
    /// per update would force a layout of the page every time).
    css_width: f64,
    /// Style the frame was drawn with.
    style: Option<ChartStyle>,
}

fn point(sample: &Sample) -> Option<TimelinePoint> {
    (!sample.warmup && !sample.is_probe()).then(|| TimelinePoint {
        at_ms: sample.sent_at_ms,
        series: sample.target as usize,
        ttft_ms: if sample.error.is_some() {
            None
        } else {
            sample.ttft_ms
        },
        tail: false,
        error: sample.error.is_some(),
    })
}

/// The growing TTFT timeline of the run in progress.
#[component]
pub fn LiveTimeline(props: &LiveTimelineProps) -> Html {
    let t = props.lang.texts();
    let drawn = use_mut_ref(Drawn::default);
    let resizes = use_resize_count();
    {
        let props = props.clone();
        let drawn = Rc::clone(&drawn);
        use_effect_with(
            (props.revision, props.lang, resizes, props.run_id.clone()),
            move |_| {
                if let Err(error) = update(&props, &drawn, resizes) {
                    web_sys::console::error_1(&format!("live timeline: {error}").into());
                }
            },
        );
    }
    html! {
        <figure class="chart live-chart">
            <figcaption><span>{t.live_timeline}</span></figcaption>
            <canvas id={CANVAS_ID} role="img" aria-label={t.live_timeline}></canvas>
        </figure>
    }
}

/// Adds the samples that arrived since the last update, or draws the whole
/// chart again when they do not fit the frame (or there is none).
fn update(props: &LiveTimelineProps, drawn: &RefCell<Drawn>, resizes: u32) -> Result<(), String> {
    let canvas = canvas_by_id(CANVAS_ID).ok_or("no canvas")?;
    let mut drawn = drawn.borrow_mut();
    let key = (props.run_id.clone(), props.lang, resizes);
    let (new_points, total) = props.samples.read(|all| {
        let from = drawn.seen.min(all.len());
        let points: Vec<TimelinePoint> = all[from..].iter().filter_map(point).collect();
        (points, all.len())
    });
    let fits = drawn.key.as_ref() == Some(&key)
        && drawn
            .plot
            .as_ref()
            .is_some_and(|plot| new_points.iter().all(|p| plot.covers(p)));
    if fits {
        if let (Some(plot), Some(style)) = (&drawn.plot, &drawn.style) {
            let area = MeasuredCanvas::new(canvas.clone())
                .ok_or("the canvas has no 2D context")?
                .into_drawing_area();
            draw_timeline_points(&area, plot, &new_points, style).map_err(|e| e.to_string())?;
        }
        drawn.seen = total;
        mark_drawn(&Some(canvas), total, false);
        return Ok(());
    }
    // A new frame: every point again, with axes that hold them all.
    if drawn.key.as_ref() != Some(&key) {
        drawn.css_width = css_width_px(&canvas);
    }
    let points: Vec<TimelinePoint> = props
        .samples
        .read(|all| all.iter().filter_map(point).collect());
    let latest_ms = points
        .iter()
        .map(|p| p.at_ms - props.start_ms)
        .fold(0.0, f64::max);
    let planned_ms = latest_ms + props.eta_ms.unwrap_or(0.0);
    let axes = TimelineAxes::around(&points, props.start_ms, planned_ms);
    let (width, _, ratio) = fit_to_css_box(&canvas, drawn.css_width, HEIGHT_PX);
    let style = chart_style(props.lang, width, ratio);
    let input = TimelineInput {
        title: String::new(),
        start_ms: props.start_ms,
        points,
        series_labels: props.labels.as_ref().clone(),
        axes: Some(axes),
    };
    let area = MeasuredCanvas::new(canvas.clone())
        .ok_or("the canvas has no 2D context")?
        .into_drawing_area();
    let plot = draw_timeline(&area, &input, &style).map_err(|e| e.to_string())?;
    area.present().map_err(|e| e.to_string())?;
    *drawn = Drawn {
        plot,
        seen: total,
        key: Some(key),
        css_width: drawn.css_width,
        style: Some(style),
    };
    mark_drawn(&Some(canvas), total, true);
    Ok(())
}

/// Records on the canvas how many samples it shows and how many times the
/// whole chart was drawn (`data-samples`, `data-frames`), for tests and for
/// anyone checking that updates stay incremental.
fn mark_drawn(canvas: &Option<web_sys::HtmlCanvasElement>, samples: usize, new_frame: bool) {
    let Some(canvas) = canvas else {
        return;
    };
    let _ = canvas.set_attribute("data-samples", &samples.to_string());
    if new_frame {
        let frames = canvas
            .get_attribute("data-frames")
            .and_then(|v| v.parse::<u32>().ok())
            .unwrap_or(0);
        let _ = canvas.set_attribute("data-frames", &(frames + 1).to_string());
    }
}
