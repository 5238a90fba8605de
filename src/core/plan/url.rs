//! Base URL rules: what a plan accepts as an endpoint, and its one
//! spelling (no trailing slash).

use super::Protocol;

/// Trims a base URL and removes trailing slashes.
pub fn normalise_base_url(url: &str) -> String {
    url.trim().trim_end_matches('/').to_owned()
}

/// Checks one (already normalised) base URL for a protocol.
///
/// `http://` or `https://` with a host, or `demo://…` for the demo protocol;
/// no credentials, no key in the query, no fragment, no trailing slash.
///
/// # Errors
/// A message saying what is wrong and what to write instead.
pub fn check_base_url(protocol: Protocol, url: &str) -> Result<(), String> {
    if url.is_empty() {
        return Err("enter the endpoint's base URL, e.g. https://api.openai.com/v1".to_owned());
    }
    if url.chars().any(char::is_whitespace) {
        return Err("must not contain spaces".to_owned());
    }
    let lower = url.to_ascii_lowercase();
    let rest = if protocol == Protocol::Demo {
        match lower.strip_prefix("demo://") {
            Some(rest) => rest,
            None => return Err("the demo protocol runs in the page: use demo://steady, demo://cold-tail, demo://reasoning or demo://degraded".to_owned()),
        }
    } else if let Some(rest) = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))
    {
        rest
    } else if lower.starts_with("demo://") {
        return Err("demo:// works only with the demo protocol".to_owned());
    } else {
        return Err(
            "must start with https:// (or http:// for a server on your network)".to_owned(),
        );
    };
    if url.ends_with('/') {
        return Err("must not end with a slash".to_owned());
    }
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    if authority.contains('@') {
        return Err(
            "must not contain a user name or password (user:pass@); keys go in the key field, \
             never in the URL"
                .to_owned(),
        );
    }
    check_host_port(authority)?;
    let after = &rest[authority_end..];
    if after.contains('#') {
        return Err("must not contain a fragment (#…)".to_owned());
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
            return Err(
                "must not carry a key in its query (key=…); keys go in the key field, where \
                 they stay out of links and exports"
                    .to_owned(),
            );
        }
        return Err("must not contain a query (?…): request paths are appended to it".to_owned());
    }
    Ok(())
}

/// Checks `host` or `host:port` (IPv6 in brackets).
fn check_host_port(authority: &str) -> Result<(), String> {
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        match v6.split_once(']') {
            Some((host, tail)) => (host, tail.strip_prefix(':')),
            None => return Err("has an unclosed [ in its host".to_owned()),
        }
    } else {
        match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return Err("has no host name".to_owned());
    }
    if let Some(port) = port {
        match port.parse::<u16>() {
            Ok(p) if p > 0 => {}
            _ => return Err(format!("has a bad port \"{port}\" (1–65535)")),
        }
    }
    Ok(())
}
