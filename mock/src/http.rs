//! A small hand-written HTTP/1.1 layer: read one request (head and `Content-Length` body) at a
//! time from a keep-alive connection, and write full or chunked responses.
//!
//! Written by hand rather than taken from a framework so that every byte and every flush is under
//! the mock's control: each SSE write must leave as its own chunk, at its scheduled time.

use std::io::{self, Read, Write};
use std::time::Instant;

/// Largest request head accepted, bytes.
const MAX_HEAD_BYTES: usize = 64 * 1024;
/// Largest request body accepted, bytes.
const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// One parsed request.
#[derive(Clone, Debug)]
pub struct Request {
    /// `GET`, `POST`, `OPTIONS`, …
    pub method: String,
    /// The request target as sent: path and query.
    pub target: String,
    /// Headers with lower-case names, in arrival order.
    pub headers: Vec<(String, String)>,
    /// The body (`Content-Length` bytes).
    pub body: Vec<u8>,
    /// Whether the client allows the connection to be reused.
    pub keep_alive: bool,
    /// When the last byte of the request had been read.
    pub received_at: Instant,
}

impl Request {
    /// The path part of the target (before `?`).
    pub fn path(&self) -> &str {
        self.target
            .split_once('?')
            .map_or(self.target.as_str(), |(path, _)| path)
    }

    /// The query part of the target (after `?`), if any.
    pub fn query(&self) -> Option<&str> {
        self.target.split_once('?').map(|(_, query)| query)
    }

    /// The first header named `name` (lower-case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(header, _)| header == name)
            .map(|(_, value)| value.as_str())
    }
}

/// Why no request could be read.
#[derive(Debug)]
pub enum ReadError {
    /// The peer closed the connection before sending a byte of a new request.
    Closed,
    /// The socket failed or timed out.
    Io(io::Error),
    /// The bytes are not an HTTP/1.x request this server accepts; the message says why.
    Malformed(String),
}

impl From<io::Error> for ReadError {
    fn from(error: io::Error) -> Self {
        ReadError::Io(error)
    }
}

/// Reads successive requests from one connection, keeping bytes that arrived early (pipelining).
#[derive(Debug, Default)]
pub struct RequestReader {
    buffer: Vec<u8>,
}

impl RequestReader {
    /// A reader with an empty buffer.
    pub fn new() -> Self {
        RequestReader::default()
    }

    /// Whether bytes of a next request are already buffered.
    pub fn has_buffered(&self) -> bool {
        !self.buffer.is_empty()
    }

    /// Reads one full request.
    ///
    /// # Errors
    /// [`ReadError::Closed`] on a clean close between requests, [`ReadError::Io`] on socket
    /// errors and timeouts, [`ReadError::Malformed`] for bytes that are not a request (including
    /// chunked request bodies, which no client of the mock sends).
    pub fn read_request(&mut self, source: &mut impl Read) -> Result<Request, ReadError> {
        let head_end = loop {
            if let Some(at) = find(&self.buffer, b"\r\n\r\n") {
                break at;
            }
            if self.buffer.len() > MAX_HEAD_BYTES {
                return Err(ReadError::Malformed("request head is too large".into()));
            }
            if self.fill(source)? == 0 {
                return Err(if self.buffer.is_empty() {
                    ReadError::Closed
                } else {
                    ReadError::Io(io::ErrorKind::UnexpectedEof.into())
                });
            }
        };
        let head = std::str::from_utf8(&self.buffer[..head_end])
            .map_err(|_| ReadError::Malformed("request head is not UTF-8".into()))?;
        let mut lines = head.split("\r\n");
        let request_line = lines.next().unwrap_or_default();
        let mut parts = request_line.split(' ');
        let (Some(method), Some(target), Some(version), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(ReadError::Malformed(format!(
                "bad request line '{request_line}'"
            )));
        };
        if !version.starts_with("HTTP/1.") || method.is_empty() || !target.starts_with('/') {
            return Err(ReadError::Malformed(format!(
                "bad request line '{request_line}'"
            )));
        }
        let mut headers = Vec::new();
        for line in lines {
            let Some((name, value)) = line.split_once(':') else {
                return Err(ReadError::Malformed(format!("bad header line '{line}'")));
            };
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
        let header = |wanted: &str| {
            headers
                .iter()
                .find(|(name, _)| name == wanted)
                .map(|(_, value)| value.as_str())
        };
        if header("transfer-encoding").is_some() {
            return Err(ReadError::Malformed(
                "chunked request bodies are not supported; send Content-Length".into(),
            ));
        }
        let body_len = match header("content-length") {
            None => 0,
            Some(text) => text
                .parse::<usize>()
                .map_err(|_| ReadError::Malformed(format!("bad Content-Length '{text}'")))?,
        };
        if body_len > MAX_BODY_BYTES {
            return Err(ReadError::Malformed("request body is too large".into()));
        }
        let connection = header("connection").map(str::to_ascii_lowercase);
        let keep_alive = if version == "HTTP/1.0" {
            connection.as_deref() == Some("keep-alive")
        } else {
            connection.as_deref() != Some("close")
        };
        let method = method.to_owned();
        let target = target.to_owned();
        let body_start = head_end + 4;
        while self.buffer.len() < body_start + body_len {
            if self.fill(source)? == 0 {
                return Err(ReadError::Io(io::ErrorKind::UnexpectedEof.into()));
            }
        }
        let received_at = Instant::now();
        let body = self.buffer[body_start..body_start + body_len].to_vec();
        self.buffer.drain(..body_start + body_len);
        Ok(Request {
            method,
            target,
            headers,
            body,
            keep_alive,
            received_at,
        })
    }

    fn fill(&mut self, source: &mut impl Read) -> io::Result<usize> {
        let mut chunk = [0_u8; 8 * 1024];
        let read = source.read(&mut chunk)?;
        self.buffer.extend_from_slice(&chunk[..read]);
        Ok(read)
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// Response headers: name and value.
pub type Headers = Vec<(&'static str, String)>;

/// The standard reason phrase of `status`.
pub fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        301 => "Moved Permanently",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        _ => "Status",
    }
}

fn head_bytes(status: u16, headers: &[(&'static str, String)]) -> Vec<u8> {
    let mut head = format!("HTTP/1.1 {status} {}\r\n", reason_phrase(status));
    for (name, value) in headers {
        head.push_str(name);
        head.push_str(": ");
        head.push_str(value);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    head.into_bytes()
}

/// Writes a status line and headers (nothing else) and flushes.
///
/// # Errors
/// The socket's write error.
pub fn write_head(
    sink: &mut impl Write,
    status: u16,
    headers: &[(&'static str, String)],
) -> io::Result<()> {
    sink.write_all(&head_bytes(status, headers))?;
    sink.flush()
}

/// Writes a complete response with `Content-Length` in one write and flushes. With
/// `include_body` false (a `HEAD` request) only the head goes out.
///
/// # Errors
/// The socket's write error.
pub fn write_full(
    sink: &mut impl Write,
    status: u16,
    headers: &[(&'static str, String)],
    body: &[u8],
    include_body: bool,
) -> io::Result<()> {
    let mut all_headers = headers.to_vec();
    all_headers.push(("Content-Length", body.len().to_string()));
    let mut bytes = head_bytes(status, &all_headers);
    if include_body {
        bytes.extend_from_slice(body);
    }
    sink.write_all(&bytes)?;
    sink.flush()
}

/// Writes `data` as one chunk of a `Transfer-Encoding: chunked` body, in a single write, and
/// flushes. Empty data is skipped (an empty chunk would end the body).
///
/// # Errors
/// The socket's write error.
pub fn write_chunk(sink: &mut impl Write, data: &[u8]) -> io::Result<()> {
    if data.is_empty() {
        return Ok(());
    }
    let mut bytes = format!("{:x}\r\n", data.len()).into_bytes();
    bytes.extend_from_slice(data);
    bytes.extend_from_slice(b"\r\n");
    sink.write_all(&bytes)?;
    sink.flush()
}

/// Writes the terminating zero-length chunk and flushes.
///
/// # Errors
/// The socket's write error.
pub fn write_last_chunk(sink: &mut impl Write) -> io::Result<()> {
    sink.write_all(b"0\r\n\r\n")?;
    sink.flush()
}

/// Decodes `%XX` escapes (as UTF-8, lossily); other bytes pass through.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let escaped = (bytes[index] == b'%')
            .then(|| bytes.get(index + 1..index + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                decoded.push(byte);
                index += 3;
            }
            None => {
                decoded.push(bytes[index]);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hands out its bytes a few at a time, like a slow socket.
    struct Trickle {
        bytes: Vec<u8>,
        position: usize,
        step: usize,
    }

    impl Read for Trickle {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            let end = (self.position + self.step)
                .min(self.bytes.len())
                .min(self.position + buffer.len());
            let count = end - self.position;
            buffer[..count].copy_from_slice(&self.bytes[self.position..end]);
            self.position = end;
            Ok(count)
        }
    }

    fn trickle(text: &str, step: usize) -> Trickle {
        Trickle {
            bytes: text.as_bytes().to_vec(),
            position: 0,
            step,
        }
    }

    #[test]
    fn reads_pipelined_requests_split_anywhere() {
        let text = "POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nX-Api-Key: k\r\n\r\nhello\
                    GET /health?x=1 HTTP/1.1\r\nConnection: close\r\n\r\n";
        for step in [1, 3, 7, 200] {
            let mut source = trickle(text, step);
            let mut reader = RequestReader::new();
            let first = reader.read_request(&mut source).unwrap();
            assert_eq!(first.method, "POST");
            assert_eq!(first.path(), "/v1/messages");
            assert_eq!(first.body, b"hello");
            assert_eq!(first.header("x-api-key"), Some("k"));
            assert!(first.keep_alive);
            let second = reader.read_request(&mut source).unwrap();
            assert_eq!(second.path(), "/health");
            assert_eq!(second.query(), Some("x=1"));
            assert!(!second.keep_alive);
            assert!(matches!(
                reader.read_request(&mut source),
                Err(ReadError::Closed)
            ));
        }
    }

    #[test]
    fn rejects_garbage_and_chunked_bodies() {
        let mut reader = RequestReader::new();
        assert!(matches!(
            reader.read_request(&mut trickle("hello\r\n\r\n", 100)),
            Err(ReadError::Malformed(_))
        ));
        let mut reader = RequestReader::new();
        let chunked = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
        assert!(matches!(
            reader.read_request(&mut trickle(chunked, 100)),
            Err(ReadError::Malformed(message)) if message.contains("Content-Length")
        ));
    }

    #[test]
    fn chunk_framing() {
        let mut out = Vec::new();
        write_chunk(&mut out, "é!".as_bytes()).unwrap();
        write_chunk(&mut out, b"").unwrap();
        write_last_chunk(&mut out).unwrap();
        assert_eq!(out, b"3\r\n\xc3\xa9!\r\n0\r\n\r\n".to_vec());
    }

    #[test]
    fn decodes_percent_escapes() {
        assert_eq!(percent_decode("fixed%4040"), "fixed@40");
        assert_eq!(percent_decode("%2e%2E/a%zz"), "../a%zz");
        assert_eq!(percent_decode("%E4%B8%96"), "世");
    }
}
