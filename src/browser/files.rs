//! Files in and out: downloads (exports, plans, chart PNGs), reading a file
//! the person picked, the clipboard, and the URL fragment for plan links.

use js_sys::Array;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, Url};

use super::error::BrowserError;

/// Offers `contents` as a file download named `file_name`.
///
/// # Errors
/// When the page has no document or the browser refuses the blob.
pub fn download_text(file_name: &str, mime: &str, contents: &str) -> Result<(), BrowserError> {
    let context = "prepare the download";
    let parts = Array::of1(&JsValue::from_str(contents));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|e| BrowserError::from_js(context, &e))?;
    let url =
        Url::create_object_url_with_blob(&blob).map_err(|e| BrowserError::from_js(context, &e))?;
    let result = click_link(&url, file_name);
    // The click has started the download; the object URL is no longer needed.
    let _ = Url::revoke_object_url(&url);
    result
}

/// Offers a `data:` URL (a canvas PNG) as a download named `file_name`.
///
/// # Errors
/// When the page has no document.
pub fn download_url(url: &str, file_name: &str) -> Result<(), BrowserError> {
    click_link(url, file_name)
}

fn click_link(href: &str, file_name: &str) -> Result<(), BrowserError> {
    let context = "start the download";
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| BrowserError::missing(context, "no document"))?;
    let anchor: HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| BrowserError::from_js(context, &e))?
        .unchecked_into();
    anchor.set_href(href);
    anchor.set_download(file_name);
    anchor.click();
    Ok(())
}

/// Reads a picked file as text.
///
/// # Errors
/// When the browser cannot read it.
pub async fn read_text(file: &web_sys::File) -> Result<String, BrowserError> {
    let text = JsFuture::from(file.text())
        .await
        .map_err(|e| BrowserError::from_js("read the file", &e))?;
    Ok(text.as_string().unwrap_or_default())
}

/// Copies text to the clipboard.
///
/// # Errors
/// When the clipboard is unavailable (plain http, no permission).
pub async fn copy_text(text: &str) -> Result<(), BrowserError> {
    let context = "copy to the clipboard";
    let window = web_sys::window().ok_or_else(|| BrowserError::missing(context, "no window"))?;
    let clipboard = window.navigator().clipboard();
    JsFuture::from(clipboard.write_text(text))
        .await
        .map_err(|e| BrowserError::from_js(context, &e))?;
    Ok(())
}

/// The page URL's fragment without `#` (empty when there is none).
pub fn fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .map(|h| h.trim_start_matches('#').to_owned())
        .unwrap_or_default()
}

/// The page's URL with `fragment` replacing its own (for a plan link).
pub fn url_with_fragment(fragment: &str) -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return format!("#{fragment}");
    };
    let href = location.href().unwrap_or_default();
    let base = href.split('#').next().unwrap_or_default();
    format!("{base}#{fragment}")
}

/// Drops the fragment from the address bar without reloading, once a plan
/// link has filled the form (so a reload does not refill it).
pub fn clear_fragment() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let href = window.location().href().unwrap_or_default();
    let base = href.split('#').next().unwrap_or_default().to_owned();
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&base));
    }
}

/// `navigator.userAgent`, for the results' environment.
pub fn user_agent() -> String {
    web_sys::window()
        .and_then(|w| w.navigator().user_agent().ok())
        .unwrap_or_default()
}

/// The browser's preferred languages, most preferred first.
pub fn languages() -> Vec<String> {
    let Some(navigator) = web_sys::window().map(|w| w.navigator()) else {
        return Vec::new();
    };
    let list: Vec<String> = navigator
        .languages()
        .iter()
        .filter_map(|v| v.as_string())
        .collect();
    if list.is_empty() {
        navigator.language().into_iter().collect()
    } else {
        list
    }
}
