//! Canvases for the charts: sized for the device's pixel ratio so lines and
//! text are sharp on high-DPI screens, and exported as PNG.

use std::cell::RefCell;
use std::collections::HashMap;

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontTransform,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use super::error::BrowserError;

/// `window.devicePixelRatio`, at least 1.
pub fn device_pixel_ratio() -> f64 {
    web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .max(1.0)
}

/// Finds a canvas by element id.
pub fn canvas_by_id(id: &str) -> Option<HtmlCanvasElement> {
    web_sys::window()?
        .document()?
        .get_element_by_id(id)?
        .dyn_into()
        .ok()
}

/// The canvas's laid-out CSS width in px (at least 280).
///
/// Reading it forces a layout when the page changed since the last one: read
/// the widths of every canvas first, then [`fit_to_css_box`] and draw each,
/// so a page of charts lays out once rather than once per chart.
pub fn css_width_px(canvas: &HtmlCanvasElement) -> f64 {
    f64::from(canvas.client_width()).max(280.0)
}

/// Sizes the canvas's backing store to `css_width_px` × `css_height_px` times
/// the device pixel ratio, sets its CSS height, and returns (width px,
/// height px, ratio). Nothing is written that already has its value, so a
/// redraw at the same size invalidates no layout.
pub fn fit_to_css_box(
    canvas: &HtmlCanvasElement,
    css_width_px: f64,
    css_height_px: f64,
) -> (u32, u32, f64) {
    let ratio = device_pixel_ratio();
    // Pixel sizes are small positive numbers; the casts cannot overflow.
    let width = (css_width_px * ratio).round() as u32;
    let height = (css_height_px * ratio).round() as u32;
    if canvas.width() != width {
        canvas.set_width(width);
    }
    if canvas.height() != height {
        canvas.set_height(height);
    }
    let style = canvas.style();
    let css_height = format!("{css_height_px}px");
    if style.get_property_value("height").ok().as_deref() != Some(css_height.as_str()) {
        let _ = style.set_property("height", &css_height);
    }
    (width, height, ratio)
}

/// The canvas as a PNG `data:` URL.
///
/// # Errors
/// When the canvas is tainted or too large to encode.
pub fn png_data_url(canvas: &HtmlCanvasElement) -> Result<String, BrowserError> {
    canvas
        .to_data_url_with_type("image/png")
        .map_err(|e| BrowserError::from_js("export the chart", &e))
}

/// How many measured text sizes [`MeasuredCanvas`] keeps between charts.
const TEXT_SIZES_KEPT: usize = 4096;

thread_local! {
    /// Measured (font, text) → (width, height) px. Charts share tick labels,
    /// legends and headings, and a redraw (a language switch, a new sample)
    /// measures the same strings again: each `measureText` is a round trip
    /// through JS with the string copied out of wasm. The page uses system
    /// fonts only, so a measured size stays right; the cache is emptied when full.
    static TEXT_SIZES: RefCell<HashMap<(String, String), (u32, u32)>> = RefCell::new(HashMap::new());
}

/// A canvas drawing backend that measures text with the canvas's own 2D
/// context (`measureText`).
///
/// Plotters on wasm32 measures every label by appending a `<span>` with a
/// `style` attribute to `<body>` and reading its size. That breaks twice here:
/// the page's CSP (`style-src 'self'`) refuses the attribute — a console
/// error per label, and a span measured in the wrong font — and each
/// measurement forces a layout of the whole results page, which with a dozen
/// charts and their tables made a redraw slow. Everything but measuring is
/// [`CanvasBackend`]'s.
pub struct MeasuredCanvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
    /// The `font` last set on the context, to skip re-parsing the same one.
    font: RefCell<String>,
    /// The fill colour this wrapper last set (rgb, alpha bits), while no
    /// inner drawing call has run since: the timeline fills thousands of
    /// dots in a few colours, and each `fillStyle` set is a string built in
    /// wasm, copied out and parsed by the canvas.
    fill: Option<(u8, u8, u8, u64)>,
    /// The text alignment and baseline this wrapper last set: a chart's
    /// labels share a few, and each set is a string copied out of wasm.
    anchor: Option<(&'static str, &'static str)>,
}

impl MeasuredCanvas {
    /// A backend drawing on `canvas`; `None` when it has no 2D context.
    pub fn new(canvas: HtmlCanvasElement) -> Option<Self> {
        let context: CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        let inner = CanvasBackend::with_canvas_object(canvas)?;
        Some(Self {
            inner,
            context,
            font: RefCell::new(String::new()),
            fill: None,
            anchor: None,
        })
    }

    /// Width and height in px of `text` in `style`: the advance width, and
    /// the font's ascent + descent (a line's height, as the DOM measured it).
    fn measure<S: BackendTextStyle>(&self, text: &str, style: &S) -> (u32, u32) {
        let size_px = style.size();
        let font = format!(
            "{} {}px {}",
            style.style().as_str(),
            size_px,
            style.family().as_str()
        );
        let key = (font, text.to_owned());
        if let Some(size) = TEXT_SIZES.with(|sizes| sizes.borrow().get(&key).copied()) {
            return size;
        }
        let size = self.measure_uncached(&key.0, text, size_px);
        TEXT_SIZES.with(|sizes| {
            let mut sizes = sizes.borrow_mut();
            if sizes.len() >= TEXT_SIZES_KEPT {
                sizes.clear();
            }
            sizes.insert(key, size);
        });
        size
    }

    /// Sets the context's fill colour unless it is already `color`.
    fn set_fill(&mut self, color: BackendColor) {
        let (r, g, b) = color.rgb;
        let key = (r, g, b, color.alpha.to_bits());
        if self.fill != Some(key) {
            self.context
                .set_fill_style_str(&format!("rgba({r},{g},{b},{})", color.alpha));
            self.fill = Some(key);
        }
    }

    fn measure_uncached(&self, font: &str, text: &str, size_px: f64) -> (u32, u32) {
        if *self.font.borrow() != font {
            self.context.set_font(font);
            *self.font.borrow_mut() = font.to_owned();
        }
        let (width, height) = match self.context.measure_text(text) {
            Ok(metrics) => {
                let height =
                    metrics.font_bounding_box_ascent() + metrics.font_bounding_box_descent();
                (
                    metrics.width(),
                    if height > 0.0 { height } else { size_px * 1.2 },
                )
            }
            // No metrics (a detached context): the proportions of an average sans-serif font.
            Err(_) => (0.55 * size_px * text.chars().count() as f64, size_px * 1.2),
        };
        // Text boxes are a few hundred px at most: the casts cannot overflow.
        (width.ceil().max(0.0) as u32, height.ceil().max(0.0) as u32)
    }
}

/// The canvas backend's error type (plotters-canvas does not export its name).
type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;

impl DrawingBackend for MeasuredCanvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    // Plotters calls `ensure_prepared` before every element it draws; the
    // canvas backend's does nothing to the context, so the colour, font and
    // anchor set last stay set across it.
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.fill = None;
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.fill = None;
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.fill = None;
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.fill = None;
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        let color = style.color();
        if !fill || color.alpha == 0.0 {
            self.fill = None;
            return self.inner.draw_circle(center, radius, style, fill);
        }
        // As the inner backend fills a circle, minus re-setting an unchanged colour.
        self.set_fill(color);
        self.context.begin_path();
        let arc = self.context.arc(
            f64::from(center.0),
            f64::from(center.1),
            f64::from(radius),
            0.0,
            std::f64::consts::TAU,
        );
        if arc.is_err() {
            // Only a negative radius fails, which a u32 cannot be; should it
            // ever, the inner backend reports it in its own error type.
            self.fill = None;
            return self.inner.draw_circle(center, radius, style, fill);
        }
        self.context.fill();
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.fill = None;
        self.inner.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        if !matches!(style.transform(), FontTransform::None) {
            // Turned text (an axis title) is rare: the inner backend draws
            // it, setting its own font, colour and anchor; forget ours.
            self.font.borrow_mut().clear();
            self.fill = None;
            self.anchor = None;
            return self.inner.draw_text(text, style, pos);
        }
        // As the inner backend draws level text, minus setting again what
        // is already set: a chart's labels share a font, a colour and an
        // anchor or two.
        let anchor = style.anchor();
        let anchor = (
            match anchor.h_pos {
                HPos::Left => "start",
                HPos::Right => "end",
                HPos::Center => "center",
            },
            match anchor.v_pos {
                VPos::Top => "top",
                VPos::Center => "middle",
                VPos::Bottom => "bottom",
            },
        );
        if self.anchor != Some(anchor) {
            self.context.set_text_align(anchor.0);
            self.context.set_text_baseline(anchor.1);
            self.anchor = Some(anchor);
        }
        self.set_fill(color);
        let font = format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str()
        );
        if *self.font.borrow() != font {
            self.context.set_font(&font);
            *self.font.borrow_mut() = font;
        }
        // Like the inner backend, a failed `fillText` (it throws only for
        // a detached context) draws nothing and is not an error.
        let _ = self
            .context
            .fill_text(text, f64::from(pos.0), f64::from(pos.1));
        Ok(())
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        Ok(self.measure(text, style))
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.fill = None;
        self.inner.blit_bitmap(pos, size, src)
    }
}

/// Calls a function whenever the window is resized (a phone turned, a
/// window dragged), until dropped: charts are drawn for one width and must be
/// redrawn for another.
pub struct ResizeListener {
    on_resize: Closure<dyn FnMut()>,
}

impl ResizeListener {
    /// Starts listening; `None` outside a window.
    pub fn new(on_resize: impl FnMut() + 'static) -> Option<Self> {
        let on_resize = Closure::<dyn FnMut()>::new(on_resize);
        web_sys::window()?
            .add_event_listener_with_callback("resize", on_resize.as_ref().unchecked_ref())
            .ok()?;
        Some(Self { on_resize })
    }
}

impl Drop for ResizeListener {
    fn drop(&mut self) {
        if let Some(window) = web_sys::window() {
            let _ = window.remove_event_listener_with_callback(
                "resize",
                self.on_resize.as_ref().unchecked_ref(),
            );
        }
    }
}
