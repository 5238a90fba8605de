//! A static file server for the built page (Trunk's `dist/`), so end-to-end tests can open it
//! under the same path prefix it has on GitHub Pages, with the MIME types browsers insist on
//! (`application/wasm` for streaming compilation, a JavaScript type for modules).

use std::fs;
use std::net::TcpStream;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::AtomicBool;

use crate::http::{self, Headers, Request};
use crate::listener::{Disposition, Handler};

/// Serves files under `root` at URLs under `prefix`.
pub struct StaticSite {
    root: PathBuf,
    prefix: String,
}

/// `prefix` with exactly one leading and one trailing slash (`""` becomes `/`).
pub fn normalize_prefix(prefix: &str) -> String {
    let trimmed = prefix.trim_matches('/');
    if trimmed.is_empty() {
        "/".to_owned()
    } else {
        format!("/{trimmed}/")
    }
}

/// The `Content-Type` for a file name's extension.
pub fn content_type_for(path: &Path) -> &'static str {
    let extension = path
        .extension()
        .and_then(|extension| extension.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match extension.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        "webmanifest" => "application/manifest+json",
        _ => "application/octet-stream",
    }
}

/// Why a URL path maps to no file.
#[derive(Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The file to send.
    File(PathBuf),
    /// The path is the prefix without its trailing slash: redirect to the prefix.
    RedirectToPrefix,
    /// Nothing there.
    NotFound,
    /// The path tries to leave the root (`..`, backslashes, NUL, a symlink out).
    Forbidden,
}

impl StaticSite {
    /// A site serving `root` (already checked to be a directory) under `prefix`.
    pub fn new(root: PathBuf, prefix: &str) -> Self {
        StaticSite {
            root,
            prefix: normalize_prefix(prefix),
        }
    }

    /// The URL prefix, with leading and trailing slash.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// Maps a URL path (without query) to a file.
    pub fn lookup(&self, url_path: &str) -> Lookup {
        if self.prefix != "/" && (url_path == "/" || url_path == self.prefix.trim_end_matches('/'))
        {
            return Lookup::RedirectToPrefix;
        }
        let Some(relative) = url_path.strip_prefix(self.prefix.as_str()) else {
            return Lookup::NotFound;
        };
        let relative = http::percent_decode(relative);
        if relative.contains('\\') || relative.contains('\0') {
            return Lookup::Forbidden;
        }
        let mut path = self.root.clone();
        for component in Path::new(&relative).components() {
            match component {
                Component::Normal(part) => path.push(part),
                Component::CurDir => {}
                Component::ParentDir | Component::RootDir | Component::Prefix(_) => {
                    return Lookup::Forbidden;
                }
            }
        }
        if path.is_dir() {
            path.push("index.html");
        }
        let Ok(canonical) = path.canonicalize() else {
            return Lookup::NotFound;
        };
        // A symlink inside the root may still point outside it.
        if !canonical.starts_with(&self.root) {
            return Lookup::Forbidden;
        }
        if canonical.is_file() {
            Lookup::File(canonical)
        } else {
            Lookup::NotFound
        }
    }
}

fn plain(status: u16, message: &str, include_body: bool, stream: &mut TcpStream) -> Disposition {
    let headers: Headers = vec![("Content-Type", "text/plain; charset=utf-8".into())];
    finish(http::write_full(
        stream,
        status,
        &headers,
        message.as_bytes(),
        include_body,
    ))
}

fn finish(written: std::io::Result<()>) -> Disposition {
    if written.is_ok() {
        Disposition::KeepAlive
    } else {
        Disposition::Close
    }
}

impl Handler for StaticSite {
    fn handle(&self, stream: &mut TcpStream, request: Request, _: &AtomicBool) -> Disposition {
        let include_body = request.method != "HEAD";
        if request.method != "GET" && request.method != "HEAD" {
            return plain(405, "only GET and HEAD are served", true, stream);
        }
        match self.lookup(request.path()) {
            Lookup::File(path) => match fs::read(&path) {
                Ok(bytes) => {
                    let mut headers: Headers = vec![
                        ("Content-Type", content_type_for(&path).into()),
                        // Tests rebuild the page between runs; never serve a stale copy.
                        ("Cache-Control", "no-cache".into()),
                    ];
                    // As a static host compresses (GitHub Pages gzips JSON): a
                    // `NAME.gz` beside the file is sent instead, to a client
                    // that accepts gzip.
                    let accepts_gzip = request.header("accept-encoding").is_some_and(|value| {
                        value.split(',').any(|e| e.trim().starts_with("gzip"))
                    });
                    let mut gzipped = path.clone().into_os_string();
                    gzipped.push(".gz");
                    let bytes = match fs::read(&gzipped) {
                        Ok(compressed) if accepts_gzip => {
                            headers.push(("Content-Encoding", "gzip".into()));
                            headers.push(("Vary", "Accept-Encoding".into()));
                            compressed
                        }
                        _ => bytes,
                    };
                    finish(http::write_full(
                        stream,
                        200,
                        &headers,
                        &bytes,
                        include_body,
                    ))
                }
                Err(_) => plain(404, "not found", include_body, stream),
            },
            Lookup::RedirectToPrefix => {
                let headers: Headers = vec![("Location", self.prefix.clone())];
                finish(http::write_full(stream, 301, &headers, b"", include_body))
            }
            Lookup::NotFound => plain(404, "not found", include_body, stream),
            Lookup::Forbidden => plain(403, "path leaves the site root", include_body, stream),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> (StaticSite, PathBuf) {
        let root =
            std::env::temp_dir().join(format!("firsttoken-static-unit-{}", std::process::id()));
        fs::create_dir_all(root.join("assets")).unwrap();
        fs::write(root.join("index.html"), "<p>hi</p>").unwrap();
        fs::write(root.join("assets/app.wasm"), b"\0asm").unwrap();
        let root = root.canonicalize().unwrap();
        (StaticSite::new(root.clone(), "firsttoken"), root)
    }

    #[test]
    fn prefixes_are_normalized() {
        assert_eq!(normalize_prefix("/firsttoken/"), "/firsttoken/");
        assert_eq!(normalize_prefix("firsttoken"), "/firsttoken/");
        assert_eq!(normalize_prefix(""), "/");
        assert_eq!(normalize_prefix("/"), "/");
    }

    #[test]
    fn lookups() {
        let (site, root) = site();
        assert_eq!(site.prefix(), "/firsttoken/");
        assert_eq!(
            site.lookup("/firsttoken/"),
            Lookup::File(root.join("index.html"))
        );
        assert_eq!(
            site.lookup("/firsttoken/assets/app.wasm"),
            Lookup::File(root.join("assets/app.wasm"))
        );
        assert_eq!(site.lookup("/firsttoken"), Lookup::RedirectToPrefix);
        assert_eq!(site.lookup("/"), Lookup::RedirectToPrefix);
        assert_eq!(site.lookup("/other/index.html"), Lookup::NotFound);
        assert_eq!(site.lookup("/firsttoken/missing.js"), Lookup::NotFound);
        assert_eq!(site.lookup("/firsttoken/../etc/passwd"), Lookup::Forbidden);
        assert_eq!(site.lookup("/firsttoken/%2e%2e/secret"), Lookup::Forbidden);
        assert_eq!(
            site.lookup("/firsttoken/a%5c..%5csecret"),
            Lookup::Forbidden
        );
    }

    #[test]
    fn content_types() {
        assert_eq!(content_type_for(Path::new("a.wasm")), "application/wasm");
        assert_eq!(content_type_for(Path::new("a.js")), "text/javascript");
        assert_eq!(
            content_type_for(Path::new("index.HTML")),
            "text/html; charset=utf-8"
        );
        assert_eq!(
            content_type_for(Path::new("blob")),
            "application/octet-stream"
        );
    }
}
