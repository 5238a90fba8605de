//! Origins (scheme, host, port): what a key is bound to.
//!
//! A plan names a provider and a base URL, and both come from whoever wrote
//! the plan — possibly a stranger who shared a link. A key therefore cannot be
//! chosen by the provider id alone: a plan saying `"provider": "openai"` with
//! a base URL on another host would carry the user's OpenAI key there. Both
//! the page and the runner bind each key to the origin it was given for and
//! compare origins, never provider names, before a key leaves the machine.
//!
//! The parser here is deliberately strict and small: it accepts the base URLs
//! the plan accepts (`http`/`https`, a host, an optional port) and answers
//! `None` for anything else, so an odd URL never matches a key's origin.

use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};

/// The scheme of an origin a key can be sent to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scheme {
    /// `http://`, default port 80: a server on the user's machine or network.
    Http,
    /// `https://`, default port 443.
    Https,
}

impl Scheme {
    /// `"http"` or `"https"`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Http => "http",
            Self::Https => "https",
        }
    }

    /// The port used when a URL names none.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn default_port(self) -> u16 {
        match self {
            Self::Http => 80,
            Self::Https => 443,
        }
    }
}

/// Scheme, host and port of a URL, normalised so that two spellings of the
/// same origin compare equal (`HTTPS://API.OpenAI.com:443/v1` and
/// `https://api.openai.com` are one origin).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Origin {
    /// `http` or `https`.
    pub scheme: Scheme,
    /// Lowercased host name or IP address; an IPv6 address without its
    /// brackets, in its canonical form (`::1`); no trailing dot.
    pub host: String,
    /// The port, with the scheme's default filled in.
    pub port: u16,
}

impl Origin {
    /// The origin of a URL such as a target's base URL.
    ///
    /// `None` when the URL has no `http://` or `https://` scheme, carries a
    /// user name or password (`user:pass@host`), has an empty or malformed
    /// host, or a port outside 1–65535. Host names are lowercased and may hold
    /// ASCII letters, digits, `-`, `_` and `.` only (an internationalised name
    /// must be given in its `xn--` form), so no two spellings of one host can
    /// tell two different stories.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn parse(url: &str) -> Option<Self> {
        let url = url.trim();
        let (scheme_text, rest) = url.split_once("://")?;
        let scheme = if scheme_text.eq_ignore_ascii_case("https") {
            Scheme::Https
        } else if scheme_text.eq_ignore_ascii_case("http") {
            Scheme::Http
        } else {
            return None;
        };
        let authority_end = rest.find(['/', '?', '#', '\\']).unwrap_or(rest.len());
        let authority = &rest[..authority_end];
        if authority.contains('@') {
            return None;
        }
        let (host, port_text) = if let Some(bracketed) = authority.strip_prefix('[') {
            let (v6, tail) = bracketed.split_once(']')?;
            let address: Ipv6Addr = v6.parse().ok()?;
            let port_text = match tail {
                "" => None,
                _ => Some(tail.strip_prefix(':')?),
            };
            (address.to_string(), port_text)
        } else {
            let (name, port_text) = match authority.split_once(':') {
                Some((name, port)) => (name, Some(port)),
                None => (authority, None),
            };
            (normalise_host_name(name)?, port_text)
        };
        let port = match port_text {
            None | Some("") => scheme.default_port(),
            Some(text) if text.bytes().all(|b| b.is_ascii_digit()) => match text.parse::<u16>() {
                Ok(0) | Err(_) => return None,
                Ok(port) => port,
            },
            Some(_) => return None,
        };
        Some(Self { scheme, host, port })
    }

    /// The origin's host as a person types it: `api.openai.com`,
    /// `localhost:8000`, `[::1]:8787` (the port only when it is not the
    /// scheme's default).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn host_port(&self) -> String {
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        if self.port == self.scheme.default_port() {
            host
        } else {
            format!("{host}:{}", self.port)
        }
    }

    /// The host is this machine: `localhost` (or a name under it), any
    /// address in 127.0.0.0/8, or `::1`. A key never goes there unasked, and
    /// a server there usually needs none.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn is_loopback(&self) -> bool {
        if self.host == "localhost" || self.host.ends_with(".localhost") {
            return true;
        }
        if let Ok(v4) = self.host.parse::<Ipv4Addr>() {
            return v4.is_loopback();
        }
        if let Ok(v6) = self.host.parse::<Ipv6Addr>() {
            return v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback());
        }
        false
    }
}

impl fmt::Display for Origin {
    /// `https://api.openai.com`, `http://localhost:8000`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme.as_str(), self.host_port())
    }
}

/// A host name lowercased, with one trailing dot removed; `None` when it is
/// empty or holds anything but ASCII letters, digits, `-`, `_` and `.`
/// (percent escapes, spaces, non-ASCII letters that could imitate another
/// host).
#[cfg_attr(target_arch = "wasm32", inline)]
fn normalise_host_name(name: &str) -> Option<String> {
    let name = name.strip_suffix('.').unwrap_or(name);
    let valid = !name.is_empty()
        && !name.starts_with('.')
        && !name.contains("..")
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    valid.then(|| name.to_ascii_lowercase())
}
