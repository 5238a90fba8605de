//! Clocks: the monotonic `performance.now()` for timings and the wall clock
//! `Date.now()` for when a request was planned and sent.
//!
//! Browsers coarsen `performance.now()` (to 100 µs in Chromium without
//! cross-origin isolation, more in some others); TTFT is in tens of
//! milliseconds or more, so the coarsening stays far below what we report.

use wasm_bindgen::JsCast;

/// Milliseconds on the monotonic clock, sub-millisecond where the browser
/// allows. Falls back to `Date.now()` outside a window or worker.
pub fn now_ms() -> f64 {
    let global = js_sys::global();
    if let Some(window) = global.dyn_ref::<web_sys::Window>()
        && let Some(performance) = window.performance()
    {
        return performance.now();
    }
    if let Some(worker) = global.dyn_ref::<web_sys::DedicatedWorkerGlobalScope>()
        && let Some(performance) = worker.performance()
    {
        return performance.now();
    }
    js_sys::Date::now()
}

/// Unix epoch milliseconds (wall clock).
pub fn epoch_ms() -> f64 {
    js_sys::Date::now()
}

/// The page is hidden (background tab, minimised window): timers may be
/// throttled, so samples sent now are flagged.
pub fn page_hidden() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.visibility_state() == web_sys::VisibilityState::Hidden)
}

/// Minutes to add to UTC to get local time (the opposite sign of
/// `Date.getTimezoneOffset()`).
pub fn tz_offset_min() -> i32 {
    let offset = -js_sys::Date::new_0().get_timezone_offset();
    // Offsets are whole minutes within ±14 h, so the cast is exact.
    offset.round() as i32
}

/// The IANA time zone name (`Europe/Paris`), when the browser says.
pub fn time_zone() -> String {
    let options = js_sys::Intl::DateTimeFormat::new(&js_sys::Array::new(), &js_sys::Object::new())
        .resolved_options();
    js_sys::Reflect::get(&options, &"timeZone".into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// The offset of the IANA zone `name` at `epoch_ms`, minutes east of UTC,
/// from the browser's own zone data (`Intl.DateTimeFormat` with
/// `timeZoneName: "longOffset"`, which formats as `GMT+08:00`); `None` when
/// the browser does not know the zone.
pub fn zone_offset_min(name: &str, epoch_ms: f64) -> Option<i32> {
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"timeZone".into(), &name.into()).ok()?;
    js_sys::Reflect::set(&options, &"timeZoneName".into(), &"longOffset".into()).ok()?;
    let locales = js_sys::Array::of1(&"en-US".into());
    // An unknown zone makes the constructor throw a RangeError;
    // `Reflect.construct` hands it back as an `Err` rather than letting the
    // exception unwind through the module.
    let format = js_sys::Reflect::construct(
        &js_sys::Intl::DateTimeFormat::new(&js_sys::Array::new(), &js_sys::Object::new())
            .constructor(),
        &js_sys::Array::of2(&locales, &options),
    )
    .ok()?;
    let format: js_sys::Intl::DateTimeFormat = format.into();
    let parts = format.format_to_parts(&js_sys::Date::new(&epoch_ms.into()));
    parts.iter().find_map(|part| {
        let kind = js_sys::Reflect::get(&part, &"type".into())
            .ok()?
            .as_string()?;
        if kind != "timeZoneName" {
            return None;
        }
        let value = js_sys::Reflect::get(&part, &"value".into())
            .ok()?
            .as_string()?;
        match crate::core::judgement::timeofday::parse_peak_tz(&value)? {
            crate::core::judgement::timeofday::PeakZone::Offset(minutes) => Some(minutes),
            crate::core::judgement::timeofday::PeakZone::Named(_) => None,
        }
    })
}

/// Records a User Timing mark named `name` (`performance.mark`), so a
/// profiler or the render benchmark (`e2e/bench/render.mjs`) can time the
/// page's own steps: a dispatch, a render, charts drawn.
///
/// The previous mark of the same name is cleared first: a long run marks
/// every sample, and the timeline buffer would otherwise grow with it. A
/// `PerformanceObserver` still receives every mark.
pub fn performance_mark(name: &str) {
    let Some(performance) = web_sys::window().and_then(|w| w.performance()) else {
        return;
    };
    performance.clear_marks_with_mark_name(name);
    // A mark only fails for a name reserved by Navigation Timing; ours are not.
    let _ = performance.mark(name);
}
