//! Fetching published results files for the dashboard: the page's
//! `?results=` addresses, resolved against the page (or the index that lists
//! them), fetched as bytes, with each way a fetch can fail put in words.
//!
//! `fetch()` rejects a CORS refusal and an unreachable host with the same
//! bare `TypeError`; the page cannot tell them apart, but it knows whether the
//! address is on another origin, and then a refusal is the likely cause.

use js_sys::Uint8Array;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{RequestCache, RequestInit, Response, Url, UrlSearchParams};

use super::error::{describe_js, is_type_error};

/// Every value of the page URL's query parameter `name`, in order
/// (`?results=a.json&results=b.json`).
pub fn query_values(name: &str) -> Vec<String> {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let Ok(params) = UrlSearchParams::new_with_str(&search) else {
        return Vec::new();
    };
    params
        .get_all(name)
        .iter()
        .filter_map(|v| v.as_string())
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
        .collect()
}

/// The page's own address.
pub fn page_url() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

/// `address` made absolute against `base` (relative addresses are relative
/// to the page, or to the index that lists them).
///
/// # Errors
/// The browser's reason when the address is not a URL.
pub fn resolve(address: &str, base: &str) -> Result<String, String> {
    Url::new_with_base(address, base)
        .map(|url| url.href())
        .map_err(|_| "this is not a valid address".to_owned())
}

fn origin_of(url: &str) -> Option<String> {
    Url::new(url).ok().map(|u| u.origin())
}

/// Fetches `url` and returns its body.
///
/// The HTTP cache is revalidated (`no-cache`), so a dashboard left open and
/// reloaded sees the monitor's newest run rather than a stale index.
///
/// # Errors
/// A sentence saying what failed: an HTTP status (404 named as a missing
/// file), a refused or unreachable request (CORS named when the address is
/// on another origin), or a body that stopped arriving.
pub async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    let window = web_sys::window().ok_or("the page has no window")?;
    let init = RequestInit::new();
    init.set_cache(RequestCache::NoCache);
    let response = match JsFuture::from(window.fetch_with_str_and_init(url, &init)).await {
        Ok(response) => response,
        Err(error) if is_type_error(&error) => {
            let page = origin_of(&page_url());
            let there = origin_of(url);
            return Err(if there.is_some() && there != page {
                format!(
                    "the browser refused to read it: the server at {} does not allow this page's origin (CORS), or could not be reached; publish the results on the page's own site, or have that server send Access-Control-Allow-Origin",
                    there.unwrap_or_default()
                )
            } else {
                "the server could not be reached (network error)".to_owned()
            });
        }
        Err(error) => return Err(describe_js(&error)),
    };
    let response: Response = response
        .dyn_into()
        .map_err(|_| "fetch did not return a response".to_owned())?;
    let status = response.status();
    if status == 404 {
        return Err("HTTP 404: there is no file at this address (relative addresses are relative to the page, or to the index that lists them)".to_owned());
    }
    if !response.ok() {
        return Err(format!("HTTP {status} {}", response.status_text()));
    }
    let buffer = response.array_buffer().map_err(|e| describe_js(&e))?;
    let buffer = JsFuture::from(buffer).await.map_err(|e| {
        format!(
            "the transfer broke off before the end of the file ({})",
            describe_js(&e)
        )
    })?;
    Ok(Uint8Array::new(&buffer).to_vec())
}
