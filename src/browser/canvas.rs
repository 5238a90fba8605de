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
