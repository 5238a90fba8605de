//! Browser tests of the `browser` layer, in headless Chromium
//! (`scripts/test-browser.sh` starts the mock provider and runs them).
//!
//! They check what only a real browser can: the streaming fetch and its
//! timestamps, CORS, aborts, the demo provider's `ReadableStream`, the timer
//! worker fallback, IndexedDB and the canvas backend the charts draw on.
#![cfg(target_arch = "wasm32")]

use firsttoken::browser::canvas::MeasuredCanvas;
use firsttoken::browser::clock::now_ms;
use firsttoken::browser::fetch_stream::{Abort, MeasureOptions, measure};
use firsttoken::browser::storage::Store;
use firsttoken::browser::timer::sleep_ms;
use firsttoken::core::planning::plan::{Plan, Protocol, Target};
use firsttoken::core::wire::measure::Outcome;
use firsttoken::core::wire::protocol::build_request;
use firsttoken::core::wire::sample::ErrorKind;
use plotters_backend::{BackendColor, DrawingBackend};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Base address of the mock provider, compiled in by the test script.
const MOCK: Option<&str> = option_env!("FIRSTTOKEN_MOCK_URL");

fn mock() -> &'static str {
    MOCK.unwrap_or("http://127.0.0.1:8787")
}

fn target(protocol: Protocol, model: &str) -> Target {
    let base_url = match protocol {
        Protocol::OpenAi => format!("{}/v1", mock()),
        Protocol::Demo => "demo://steady".to_owned(),
        _ => mock().to_owned(),
    };
    Target {
        protocol,
        ..Target::openai(model, &base_url, model)
    }
}

async fn run(target: &Target, timeout_s: f64) -> Outcome {
    let plan = Plan {
        timeout_s,
        ..Plan::default()
    };
    let request = build_request(target, &plan, Some("test-key"), None);
    let options = MeasureOptions {
        protocol: target.protocol,
        reasoning_counts_as_first_token: false,
        timeout_s,
        cors_note: Some("allow this origin on the server".to_owned()),
        seq: 0,
        seed: 7,
        idle_gap_s: None,
    };
    measure(&request, &options, &Abort::new().unwrap()).await
}

#[wasm_bindgen_test]
async fn a_fixed_delay_is_measured_within_a_few_milliseconds() {
    for protocol in [Protocol::OpenAi, Protocol::Anthropic, Protocol::Gemini] {
        let outcome = run(&target(protocol, "fixed@120"), 10.0).await;
        assert_eq!(outcome.error, None, "{protocol:?}");
        let ttft = outcome.ttft_ms.unwrap();
        assert!((120.0..180.0).contains(&ttft), "{protocol:?}: ttft {ttft}");
        assert!(outcome.headers_ms.unwrap() <= ttft);
        assert!(outcome.first_byte_ms.unwrap() <= ttft);
        assert!(outcome.second_token_ms.unwrap() > ttft);
        assert!(outcome.total_ms.unwrap() >= outcome.second_token_ms.unwrap());
        assert_eq!(outcome.output_tokens, Some(8), "{protocol:?}");
        assert!(!outcome.tokens_estimated, "{protocol:?}");
    }
}

#[wasm_bindgen_test]
async fn http_errors_carry_the_provider_message() {
    let outcome = run(&target(Protocol::OpenAi, "http-401"), 10.0).await;
    let error = outcome.error.unwrap();
    assert_eq!(error.kind, ErrorKind::HttpStatus);
    assert!(error.message.contains("401"), "{}", error.message);
    assert_eq!(outcome.ttft_ms, None);
}

#[wasm_bindgen_test]
async fn a_429_keeps_the_rate_limit_headers_the_provider_exposes() {
    let outcome = run(&target(Protocol::OpenAi, "http-429"), 10.0).await;
    assert_eq!(outcome.http_status, Some(429));
    let headers = outcome
        .rate_limit
        .expect("a 429 keeps its rate-limit headers");
    // The mock exposes them to scripts (Access-Control-Expose-Headers).
    assert!(headers.headers_visible);
    assert_eq!(headers.retry_after_s, Some(7.0));
    assert_eq!(headers.remaining_requests.as_deref(), Some("0"));
    assert_eq!(headers.reset_requests.as_deref(), Some("7s"));
    // A 401 exposes nothing beyond the safelisted headers and the request id.
    let refused = run(&target(Protocol::OpenAi, "http-401"), 10.0).await;
    let headers = refused
        .rate_limit
        .expect("a refusal records what could be read");
    assert_eq!(headers.retry_after_s, None);
}

#[wasm_bindgen_test]
async fn a_stall_mid_stream_and_a_buffered_reply_are_told_apart() {
    let stalled = run(&target(Protocol::OpenAi, "mid-stall@50"), 10.0).await;
    let shape = stalled.stream.expect("a stream shape");
    assert_eq!(shape.stalls, 1, "{shape:?}");
    assert!(!shape.buffered);
    let buffered = run(&target(Protocol::OpenAi, "buffered@100"), 10.0).await;
    let shape = buffered.stream.expect("a stream shape");
    assert!(shape.buffered, "{shape:?}");
    assert_eq!(shape.stalls, 0);
}

#[wasm_bindgen_test]
async fn a_cut_stream_is_a_stream_cut_after_the_first_token() {
    let outcome = run(&target(Protocol::OpenAi, "cut"), 10.0).await;
    let error = outcome.error.unwrap();
    assert_eq!(error.kind, ErrorKind::StreamCut, "{}", error.message);
    assert!(outcome.ttft_ms.is_some());
}

#[wasm_bindgen_test]
async fn a_stall_times_out_and_the_reader_is_released() {
    let started = now_ms();
    let outcome = run(&target(Protocol::Anthropic, "stall"), 1.0).await;
    let elapsed = now_ms() - started;
    assert_eq!(outcome.error.unwrap().kind, ErrorKind::Timeout);
    assert!((900.0..3000.0).contains(&elapsed), "took {elapsed} ms");
}

#[wasm_bindgen_test]
async fn an_unreachable_endpoint_is_cors_or_network_with_the_hint() {
    let mut unreachable = target(Protocol::OpenAi, "fixed");
    // Port 9 (discard) has no listener here: fetch rejects with a TypeError.
    unreachable.base_url = "http://127.0.0.1:9/v1".to_owned();
    let outcome = run(&unreachable, 10.0).await;
    let error = outcome.error.unwrap();
    assert_eq!(error.kind, ErrorKind::CorsOrNetwork);
    assert!(
        error.message.contains("allow this origin"),
        "{}",
        error.message
    );
}

#[wasm_bindgen_test]
async fn the_demo_provider_streams_through_the_same_reader() {
    let outcome = run(&target(Protocol::Demo, "demo-llm"), 30.0).await;
    assert_eq!(outcome.error, None);
    let ttft = outcome.ttft_ms.unwrap();
    assert!((100.0..8000.0).contains(&ttft), "ttft {ttft}");
    assert!(outcome.output_tokens.unwrap() > 1);
}

#[wasm_bindgen_test]
async fn stop_aborts_the_request_in_flight() {
    let plan = Plan::default();
    let target = target(Protocol::OpenAi, "stall");
    let request = build_request(&target, &plan, None, None);
    let abort = Abort::new().unwrap();
    let stopper = abort.clone();
    firsttoken::browser::timer::after_ms(200.0, move || stopper.stop());
    let options = MeasureOptions {
        protocol: Protocol::OpenAi,
        reasoning_counts_as_first_token: false,
        timeout_s: 30.0,
        cors_note: None,
        seq: 0,
        seed: 0,
        idle_gap_s: None,
    };
    let outcome = measure(&request, &options, &abort).await;
    assert_eq!(outcome.error.unwrap().kind, ErrorKind::Aborted);
}

#[wasm_bindgen_test]
async fn sleeping_falls_back_to_page_timers_without_the_worker_script() {
    // The test page has no timer-worker.js: the worker fails to load and
    // waits must still end, on time.
    let started = now_ms();
    sleep_ms(60.0).await;
    sleep_ms(60.0).await;
    let elapsed = now_ms() - started;
    assert!((115.0..1000.0).contains(&elapsed), "slept {elapsed} ms");
}

#[wasm_bindgen_test]
async fn samples_survive_in_indexeddb_and_are_deleted_with_their_run() {
    let store = Store::open().await.unwrap();
    let run_id = format!("test-{}", js_sys::Date::now());
    store.put_run(&run_id, "{\"run\":1}").await.unwrap();
    for seq in [2, 0, 1] {
        store
            .put_sample(&run_id, 0, seq, &format!("{{\"seq\":{seq}}}"))
            .await
            .unwrap();
    }
    store
        .put_sample(&format!("{run_id}x"), 0, 0, "{}")
        .await
        .unwrap();
    let samples = store.samples(&run_id).await.unwrap();
    assert_eq!(samples, vec!["{\"seq\":0}", "{\"seq\":1}", "{\"seq\":2}"]);
    assert!(
        store
            .runs()
            .await
            .unwrap()
            .iter()
            .any(|r| r == "{\"run\":1}")
    );
    store.delete_run(&run_id).await.unwrap();
    assert!(store.samples(&run_id).await.unwrap().is_empty());
    assert_eq!(store.samples(&format!("{run_id}x")).await.unwrap().len(), 1);
}

#[wasm_bindgen_test]
fn filled_circles_keep_their_colour_around_other_drawing() {
    let (canvas, context) = canvas(40, 10);
    let mut backend = MeasuredCanvas::new(canvas).unwrap();
    let red = BackendColor {
        alpha: 1.0,
        rgb: (255, 0, 0),
    };
    let blue = BackendColor {
        alpha: 1.0,
        rgb: (0, 0, 255),
    };
    // Two dots in one colour (the second reuses the fill style), a square
    // drawn by the inner backend in another, then a dot in the first again:
    // it must not inherit the square's colour.
    backend.draw_circle((5, 5), 3, &red, true).unwrap();
    backend.draw_circle((15, 5), 3, &red, true).unwrap();
    backend.draw_rect((20, 0), (29, 9), &blue, true).unwrap();
    backend.draw_circle((35, 5), 3, &red, true).unwrap();
    let pixel = |x: f64| {
        let data = context.get_image_data(x, 5.0, 1.0, 1.0).unwrap().data();
        (data[0], data[1], data[2], data[3])
    };
    assert_eq!(pixel(5.0), (255, 0, 0, 255));
    assert_eq!(pixel(15.0), (255, 0, 0, 255));
    assert_eq!(pixel(25.0), (0, 0, 255, 255));
    assert_eq!(pixel(35.0), (255, 0, 0, 255));
    assert_eq!(pixel(10.0).3, 0, "between the dots stays clear");
}

/// A canvas of `width` × `height` px and its 2D context.
fn canvas(
    width: u32,
    height: u32,
) -> (
    web_sys::HtmlCanvasElement,
    web_sys::CanvasRenderingContext2d,
) {
    let document = web_sys::window().unwrap().document().unwrap();
    let canvas: web_sys::HtmlCanvasElement = document
        .create_element("canvas")
        .unwrap()
        .dyn_into()
        .unwrap();
    canvas.set_width(width);
    canvas.set_height(height);
    let context = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    (canvas, context)
}

/// Labels in two fonts, three colours and several anchors, turned text,
/// dots and filled boxes between them: what a chart draws.
fn draw_labels<DB: DrawingBackend>(backend: &mut DB) {
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    use plotters::style::{FontTransform, IntoFont, RGBColor, TextStyle};
    let small = ("sans-serif", 12).into_font();
    let bold = ("sans-serif", 15)
        .into_font()
        .style(plotters::style::FontStyle::Bold);
    let colours = [
        RGBColor(20, 20, 20),
        RGBColor(200, 30, 30),
        RGBColor(30, 90, 200),
    ];
    let anchors = [
        Pos::new(HPos::Left, VPos::Top),
        Pos::new(HPos::Center, VPos::Center),
        Pos::new(HPos::Right, VPos::Bottom),
    ];
    for i in 0..12_i32 {
        let font = if i % 4 == 3 {
            bold.clone()
        } else {
            small.clone()
        };
        let style = TextStyle::from(font)
            .color(&colours[(i % 3) as usize])
            .pos(anchors[(i / 2 % 3) as usize]);
        let style = if i == 7 {
            style.transform(FontTransform::Rotate270)
        } else {
            style
        };
        let (x, y) = (20 + (i % 4) * 70, 20 + (i / 4) * 40);
        backend
            .draw_text(&format!("{} ms · 毫秒 {i}", i * 125), &style, (x, y))
            .unwrap();
        let dot = BackendColor {
            alpha: 0.75,
            rgb: (30, 90, 200),
        };
        backend.ensure_prepared().unwrap();
        backend
            .draw_circle((x + 30, y + 12), 3, &dot, true)
            .unwrap();
        if i % 5 == 0 {
            let grey = BackendColor {
                alpha: 1.0,
                rgb: (120, 120, 120),
            };
            backend
                .draw_rect((x, y + 20), (x + 10, y + 25), &grey, true)
                .unwrap();
        }
    }
}

#[wasm_bindgen_test]
fn labels_drawn_with_their_settings_kept_look_as_the_canvas_backend_draws_them() {
    let (plain_canvas, plain) = canvas(300, 140);
    let (kept_canvas, kept) = canvas(300, 140);
    draw_labels(&mut plotters_canvas::CanvasBackend::with_canvas_object(plain_canvas).unwrap());
    draw_labels(&mut MeasuredCanvas::new(kept_canvas).unwrap());
    let pixels = |context: &web_sys::CanvasRenderingContext2d| {
        context
            .get_image_data(0.0, 0.0, 300.0, 140.0)
            .unwrap()
            .data()
            .0
    };
    let (plain, kept) = (pixels(&plain), pixels(&kept));
    let inked = plain.chunks(4).filter(|p| p[3] > 0).count();
    assert!(inked > 2_000, "the labels drew something: {inked} px");
    let differing = plain
        .chunks(4)
        .zip(kept.chunks(4))
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(differing, 0, "{differing} of {inked} inked px differ");
}
