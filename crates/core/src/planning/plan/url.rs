//! Base URL rules: what a plan accepts as an endpoint, and its one
//! spelling (no trailing slash).

use super::{Protocol, UrlProblem};

/// Trims a base URL and removes trailing slashes.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn normalise_base_url(url: &str) -> String {
    url.trim().trim_end_matches('/').to_owned()
}

/// Checks one (already normalised) base URL for a protocol.
///
/// `http://` or `https://` with a host, or `demo://…` for the demo protocol;
/// no credentials, no key in the query, no fragment, no trailing slash.
///
/// # Errors
/// What is wrong (its words say what to write instead).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn check_base_url(protocol: Protocol, url: &str) -> Result<(), UrlProblem> {
    if url.is_empty() {
        return Err(UrlProblem::Empty);
    }
    if url.chars().any(char::is_whitespace) {
        return Err(UrlProblem::Spaces);
    }
    let lower = url.to_ascii_lowercase();
    let rest = if protocol == Protocol::Demo {
        match lower.strip_prefix("demo://") {
            Some(rest) => rest,
            None => return Err(UrlProblem::DemoNeedsDemoUrl),
        }
    } else if let Some(rest) = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))
    {
        rest
    } else if lower.starts_with("demo://") {
        return Err(UrlProblem::DemoUrlNeedsDemo);
    } else if !lower.contains("://") {
        // `localhost:8000/v1`: a host the person meant, written without
        // its scheme; the words say to add it rather than only what it
        // must start with.
        return Err(UrlProblem::NoScheme);
    } else {
        return Err(UrlProblem::Scheme);
    };
    if url.ends_with('/') {
        return Err(UrlProblem::TrailingSlash);
    }
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    if authority.contains('@') {
        return Err(UrlProblem::Credentials);
    }
    check_host_port(authority)?;
    let after = &rest[authority_end..];
    if after.contains('#') {
        return Err(UrlProblem::Fragment);
    }
    if let Some((_, query)) = after.split_once('?') {
        let names_a_key = query.split('&').any(|pair| {
            let name = pair.split('=').next().unwrap_or_default();
            let name = name.replace(['-', '_'], "");
            matches!(
                name.as_str(),
                "key" | "apikey" | "token" | "accesstoken" | "secret"
            )
        });
        if names_a_key {
            return Err(UrlProblem::KeyInQuery);
        }
        return Err(UrlProblem::Query);
    }
    Ok(())
}

/// Checks `host` or `host:port` (IPv6 in brackets).
#[cfg_attr(target_arch = "wasm32", inline)]
fn check_host_port(authority: &str) -> Result<(), UrlProblem> {
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        match v6.split_once(']') {
            Some((host, tail)) => (host, tail.strip_prefix(':')),
            None => return Err(UrlProblem::UnclosedBracket),
        }
    } else {
        match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return Err(UrlProblem::NoHost);
    }
    if let Some(port) = port {
        match port.parse::<u16>() {
            Ok(p) if p > 0 => {}
            _ => return Err(UrlProblem::BadPort(port.to_owned())),
        }
    }
    Ok(())
}
