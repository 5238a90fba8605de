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
    /// must be given in its `xn--` form), and a host that ends in a number
    /// must be an IPv4 address in dotted decimal (`127.0.0.1`, not `127.1`),
    /// so no two spellings of one host can tell two different stories.
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
/// host), an empty label (`a..b`, a second trailing dot), or ends in a
/// number without being an IPv4 address in dotted decimal.
///
/// The last rule is the WHATWG URL standard's: a host whose last label is
/// a number (`127.1`, `2130706433`, `0x7f.0.0.1`, `0177.0.0.1`) is an IPv4
/// address to a browser, and the C resolver reads such forms the same way,
/// so each would be one machine under several names, and a loopback
/// address not seen as one.
#[cfg_attr(target_arch = "wasm32", inline)]
fn normalise_host_name(name: &str) -> Option<String> {
    let name = name.strip_suffix('.').unwrap_or(name);
    let valid = !name.is_empty()
        && name.split('.').all(|label| !label.is_empty())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if !valid {
        return None;
    }
    let name = name.to_ascii_lowercase();
    let last = name.rsplit('.').next().unwrap_or_default();
    let is_number = last.bytes().all(|b| b.is_ascii_digit())
        || last
            .strip_prefix("0x")
            .is_some_and(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit()));
    if is_number {
        // Only the canonical form: four decimal numbers 0–255, no leading
        // zeros (which C and older browsers read as octal).
        let address: Ipv4Addr = name.parse().ok()?;
        return (address.to_string() == name).then_some(name);
    }
    Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(url: &str) -> Origin {
        Origin::parse(url).unwrap_or_else(|| panic!("no origin in {url}"))
    }

    #[test]
    fn parses_scheme_host_and_port_with_defaults() {
        let o = origin("https://api.openai.com/v1");
        assert_eq!(o.scheme, Scheme::Https);
        assert_eq!(o.host, "api.openai.com");
        assert_eq!(o.port, 443);
        assert_eq!(origin("http://example.com").port, 80);
        assert_eq!(origin("http://localhost:8000/v1").port, 8000);
        assert_eq!(origin("https://example.com:8443").port, 8443);
    }

    #[test]
    fn spellings_of_one_origin_compare_equal() {
        let canonical = origin("https://api.openai.com");
        for url in [
            "HTTPS://API.OpenAI.com/v1",
            "https://api.openai.com:443/v1/",
            "https://api.openai.com.",
            "  https://api.openai.com?x#y  ",
            "https://api.openai.com:/v1",
        ] {
            assert_eq!(origin(url), canonical, "{url}");
        }
        assert_ne!(origin("http://api.openai.com"), canonical);
        assert_ne!(origin("https://api.openai.com:8443"), canonical);
        assert_ne!(origin("https://api.openai.com.evil.example"), canonical);
    }

    #[test]
    fn ipv6_literals_are_canonical_and_shown_in_brackets() {
        let o = origin("http://[0:0:0:0:0:0:0:1]:8787/v1");
        assert_eq!(o.host, "::1");
        assert_eq!(o.port, 8787);
        assert_eq!(o.to_string(), "http://[::1]:8787");
        assert_eq!(o.host_port(), "[::1]:8787");
        assert_eq!(
            origin("https://[2001:DB8::1]").to_string(),
            "https://[2001:db8::1]"
        );
        assert_eq!(Origin::parse("http://[::1"), None);
        assert_eq!(Origin::parse("http://[not-v6]:80"), None);
        assert_eq!(Origin::parse("http://[::1]x"), None);
    }

    #[test]
    fn refuses_userinfo_missing_schemes_and_bad_hosts_or_ports() {
        for url in [
            "api.openai.com/v1",
            "//api.openai.com",
            "ftp://example.com",
            "demo://steady",
            "https://user:pass@api.openai.com",
            "https://api.openai.com@evil.example",
            "https://",
            "https:///v1",
            "https://:443",
            "https://exa mple.com",
            "https://exa%6dple.com",
            "https://exämple.com",
            "https://a..b",
            "https://.example.com",
            "https://example.com:0",
            "https://example.com:65536",
            "https://example.com:+80",
            "https://example.com:8a",
            "",
        ] {
            assert_eq!(Origin::parse(url), None, "{url}");
        }
        // A backslash ends the authority, as browsers read it.
        assert_eq!(
            origin("https://example.com\\@evil.test").host,
            "example.com"
        );
    }

    #[test]
    fn display_shows_the_port_only_when_not_the_default() {
        assert_eq!(
            origin("https://api.openai.com/v1").to_string(),
            "https://api.openai.com"
        );
        assert_eq!(
            origin("http://localhost:80").to_string(),
            "http://localhost"
        );
        assert_eq!(
            origin("http://127.0.0.1:8787/v1").to_string(),
            "http://127.0.0.1:8787"
        );
        assert_eq!(
            origin("https://h.example:80").to_string(),
            "https://h.example:80"
        );
        assert_eq!(origin("https://h.example:80").host_port(), "h.example:80");
    }

    #[test]
    fn loopback_is_localhost_127_8_and_ipv6_one() {
        for url in [
            "http://localhost:8000",
            "http://LOCALHOST",
            "http://api.localhost",
            "http://127.0.0.1:8787",
            "http://127.1.2.3",
            "http://[::1]:9",
            "http://[::ffff:127.0.0.1]",
        ] {
            assert!(origin(url).is_loopback(), "{url}");
        }
        for url in [
            "http://10.0.0.1",
            "http://128.0.0.1",
            "http://[::2]",
            "http://localhost.example.com",
            "http://mylocalhost",
            "https://api.openai.com",
            "http://0.0.0.0",
        ] {
            assert!(!origin(url).is_loopback(), "{url}");
        }
    }

    #[test]
    fn only_http_and_https_in_any_case() {
        assert_eq!(origin("http://h.example").scheme, Scheme::Http);
        assert_eq!(origin("https://h.example").scheme, Scheme::Https);
        assert_eq!(origin("HtTpS://h.example").scheme, Scheme::Https);
        for url in [
            "ws://h.example",
            "wss://h.example",
            "file:///etc/passwd",
            "javascript://h.example/%0aalert(1)",
            "data:text/plain,x",
            "httpx://h.example",
            "https:/h.example",
            "https:h.example",
            "http//h.example",
            "h.example:443",
        ] {
            assert_eq!(Origin::parse(url), None, "{url}");
        }
    }

    #[test]
    fn default_and_explicit_ports() {
        // The default port written out is the same origin.
        assert_eq!(origin("http://h.example:80"), origin("http://h.example"));
        assert_eq!(origin("https://h.example:443"), origin("https://h.example"));
        assert_eq!(origin("https://h.example:/v1"), origin("https://h.example"));
        // The other scheme's default is another origin.
        assert_ne!(origin("http://h.example:443"), origin("https://h.example"));
        assert_eq!(origin("http://h.example:443").port, 443);
        assert_eq!(origin("https://h.example:1").port, 1);
        assert_eq!(origin("https://h.example:65535").port, 65535);
        // Leading zeros name the same port, as a browser reads them.
        assert_eq!(
            origin("https://h.example:0443"),
            origin("https://h.example")
        );
        for url in [
            "https://h.example:0",
            "https://h.example:65536",
            "https://h.example:99999999999999999999",
            "https://h.example:-1",
            "https://h.example: 443",
            "https://h.example:443:443",
            "https://h.example:0x1bb",
        ] {
            assert_eq!(Origin::parse(url), None, "{url}");
        }
    }

    #[test]
    fn an_internationalised_name_only_in_its_punycode_form() {
        // The xn-- form is a plain name, lowercased.
        let punycode = origin("https://XN--BCHER-KVA.example/v1");
        assert_eq!(punycode.host, "xn--bcher-kva.example");
        // Its Unicode spelling, a look-alike of a known host and a
        // full-width dot are refused: a browser would map them to some
        // punycode name, which a key bound to the Unicode text must not
        // silently follow.
        for url in [
            "https://bücher.example",
            "https://аpi.openai.com",
            "https://api。openai.com",
            "https://api.openai.com\u{200b}",
            "https://ａpi.openai.com",
        ] {
            assert_eq!(Origin::parse(url), None, "{url}");
        }
    }

    #[test]
    fn userinfo_in_any_form_is_refused() {
        for url in [
            "https://user:pw@api.openai.com",
            "https://user@api.openai.com",
            "https://:@api.openai.com",
            "https://@api.openai.com",
            "https://api.openai.com:443@evil.example",
            "https://user%40api.openai.com@evil.example",
            "https://api.openai.com%40evil.example",
        ] {
            assert_eq!(Origin::parse(url), None, "{url}");
        }
        // An `@` after the authority is in the path, not userinfo.
        assert_eq!(
            origin("https://api.openai.com/v1/@evil.example").host,
            "api.openai.com"
        );
    }

    #[test]
    fn one_trailing_dot_is_the_same_host_and_more_are_refused() {
        assert_eq!(
            origin("https://api.openai.com."),
            origin("https://api.openai.com")
        );
        assert_eq!(
            origin("https://api.openai.com.:443/v1"),
            origin("https://api.openai.com")
        );
        assert!(origin("http://localhost.:8000").is_loopback());
        for url in [
            "https://api.openai.com..",
            "https://.",
            "https://..",
            "https://api.openai.com.../v1",
        ] {
            assert_eq!(Origin::parse(url), None, "{url}");
        }
    }

    #[test]
    fn upper_case_is_the_same_origin_and_shown_lower() {
        let o = origin("HTTPS://API.OPENAI.COM:443/V1");
        assert_eq!(o, origin("https://api.openai.com"));
        assert_eq!(o.to_string(), "https://api.openai.com");
        assert_eq!(origin("http://[::FFFF:7F00:1]").host, "::ffff:127.0.0.1");
    }

    #[test]
    fn ipv6_only_in_brackets_and_without_a_zone() {
        assert_eq!(origin("http://[::1]:"), origin("http://[::1]"));
        assert_eq!(origin("http://[::1]").port, 80);
        assert!(origin("http://[::ffff:127.0.0.1]:8080").is_loopback());
        for url in [
            "http://::1",
            "http://::1:8080",
            "http://[fe80::1%25eth0]",
            "http://[fe80::1%eth0]",
            "http://[::1]]",
            "http://[[::1]]",
            "http://[::1]:80:80",
            "http://[127.0.0.1]",
        ] {
            assert_eq!(Origin::parse(url), None, "{url}");
        }
    }

    #[test]
    fn an_ipv4_address_only_in_its_dotted_decimal_form() {
        // Browsers and the C resolver read these as 127.0.0.1 (or another
        // address): a host that is a number must be written as the address
        // it is, or two spellings of one machine would tell two stories
        // (and a loopback address would not be seen as one).
        for url in [
            "http://127.1",
            "http://127.0.1",
            "http://2130706433",
            "http://0x7f.0.0.1",
            "http://0x7f000001",
            "http://0177.0.0.1",
            "http://127.0.0.01",
            "http://1.2.3.4.5",
            "http://256.0.0.1",
            "http://h.example.0x",
            "http://h.example.1",
        ] {
            assert_eq!(Origin::parse(url), None, "{url}");
        }
        assert_eq!(
            origin("http://127.0.0.1.:8787"),
            origin("http://127.0.0.1:8787")
        );
        assert_eq!(origin("http://10.0.0.1").host, "10.0.0.1");
        // A name with numbers in it is still a name.
        assert_eq!(origin("http://1.2.3.example").host, "1.2.3.example");
        assert_eq!(origin("http://0x7f.example").host, "0x7f.example");
    }
}
