//! Canvases for the charts: sized for the device's pixel ratio so lines and
//! text are sharp on high-DPI screens, and exported as PNG.

use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

use super::error::BrowserError;

/// `window.devicePixelRatio`, at least 1.
pub fn device_pixel_ratio() -> f64 {
    web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0)
}

/// Finds a canvas by element id.
pub fn canvas_by_id(id: &str) -> Option<HtmlCanvasElement> {
    web_sys::window()?.document()?.get_element_by_id(id)?.dyn_into().ok()
}

/// Sizes the canvas's backing store to its CSS box × device pixel ratio and
/// returns (width px, height px, ratio). The CSS size stays as laid out.
pub fn fit_to_css_box(canvas: &HtmlCanvasElement, css_height_px: f64) -> (u32, u32, f64) {
    let ratio = device_pixel_ratio();
    let css_width = f64::from(canvas.client_width()).max(280.0);
    // Pixel sizes are small positive numbers; the casts cannot overflow.
    let width = (css_width * ratio).round() as u32;
    let height = (css_height_px * ratio).round() as u32;
    if canvas.width() != width {
        canvas.set_width(width);
    }
    if canvas.height() != height {
        canvas.set_height(height);
    }
    let _ = canvas.style().set_property("height", &format!("{css_height_px}px"));
    (width, height, ratio)
}

/// The canvas as a PNG `data:` URL.
///
/// # Errors
/// When the canvas is tainted or too large to encode.
pub fn png_data_url(canvas: &HtmlCanvasElement) -> Result<String, BrowserError> {
    canvas.to_data_url_with_type("image/png").map_err(|e| BrowserError::from_js("export the chart", &e))
}

/// plotters' canvas backend with text measured by the canvas itself.
///
/// plotters measures text on wasm by inserting a `<span>` with an inline
/// `style` attribute into the page, which the page's Content-Security-Policy
/// (`style-src 'self'`) blocks — the span then has no font size and every
/// label is measured wrong — and which forces a layout per label. The 2D
/// context's `measureText` needs neither. Every drawing call goes to the
/// wrapped [`plotters_canvas::CanvasBackend`] unchanged.
pub struct MeasuredCanvas {
    inner: plotters_canvas::CanvasBackend,
    context: web_sys::CanvasRenderingContext2d,
}

impl MeasuredCanvas {
    /// Wraps a canvas; `None` when it has no 2D context.
    pub fn new(canvas: HtmlCanvasElement) -> Option<Self> {
        let context = canvas.get_context("2d").ok().flatten()?.dyn_into().ok()?;
        let inner = plotters_canvas::CanvasBackend::with_canvas_object(canvas)?;
        Some(Self { inner, context })
    }
}

use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

type CanvasErrorKind = DrawingErrorKind<<plotters_canvas::CanvasBackend as DrawingBackend>::ErrorType>;

impl DrawingBackend for MeasuredCanvas {
    type ErrorType = <plotters_canvas::CanvasBackend as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), CanvasErrorKind> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), CanvasErrorKind> {
        self.inner.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), CanvasErrorKind> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Result<(), CanvasErrorKind> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), CanvasErrorKind> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, path: I, style: &S) -> Result<(), CanvasErrorKind> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), CanvasErrorKind> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), CanvasErrorKind> {
        self.inner.fill_polygon(vert, style)
    }

    fn draw_text<TStyle: BackendTextStyle>(&mut self, text: &str, style: &TStyle, pos: BackendCoord) -> Result<(), CanvasErrorKind> {
        self.inner.draw_text(text, style, pos)
    }

    fn estimate_text_size<TStyle: BackendTextStyle>(&self, text: &str, style: &TStyle) -> Result<(u32, u32), CanvasErrorKind> {
        // The same font string the canvas backend draws with.
        self.context.set_font(&format!("{} {}px {}", style.style().as_str(), style.size(), style.family().as_str()));
        let width = self.context.measure_text(text).map(|m| m.width()).unwrap_or(0.0);
        // Text height is the font size: the canvas backend anchors on it.
        Ok((width.ceil().max(0.0) as u32, style.size().ceil().max(0.0) as u32))
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, size: (u32, u32), src: &[u8]) -> Result<(), CanvasErrorKind> {
        self.inner.blit_bitmap(pos, size, src)
    }
}
