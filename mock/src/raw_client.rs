//! A raw HTTP/1.1 client over `std::net::TcpStream` for tests and benchmarks: it keeps every body
//! chunk separately with its arrival instant, so tests can check chunk boundaries (the `split`
//! script), a missing terminator (`cut`) and timings against the ground truth.
//!
//! It also holds a minimal event-stream reader for assertions; the app's real decoder lives in
//! `core::wire::sse`.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// One body chunk as received.
#[derive(Clone, Debug)]
pub struct TimedChunk {
    /// When the chunk's last byte had been read.
    pub at: Instant,
    /// The chunk data (without chunk framing).
    pub bytes: Vec<u8>,
}

/// A response with its body chunks.
#[derive(Clone, Debug)]
pub struct RawResponse {
    /// HTTP status code.
    pub status: u16,
    /// Headers with lower-case names.
    pub headers: Vec<(String, String)>,
    /// When the head had been read.
    pub head_at: Instant,
    /// Body chunks in order (one for a `Content-Length` body).
    pub chunks: Vec<TimedChunk>,
    /// Whether the body ended properly (chunked terminator, full length); false when the
    /// connection closed early.
    pub complete: bool,
}

impl RawResponse {
    /// The first header named `name` (lower-case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(header, _)| header == name)
            .map(|(_, value)| value.as_str())
    }

    /// All chunks joined.
    pub fn body(&self) -> Vec<u8> {
        self.chunks
            .iter()
            .flat_map(|chunk| chunk.bytes.iter().copied())
            .collect()
    }

    /// The body as text (lossy UTF-8).
    pub fn body_text(&self) -> String {
        String::from_utf8_lossy(&self.body()).into_owned()
    }
}

/// A client on one keep-alive connection.
#[derive(Debug)]
pub struct RawClient {
    stream: TcpStream,
    buffer: Vec<u8>,
}

fn invalid(message: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message.into())
}

impl RawClient {
    /// Connects to `address`, with a 30 s read timeout so a broken test fails instead of hanging.
    ///
    /// # Errors
    /// The connect error.
    pub fn connect(address: SocketAddr) -> io::Result<Self> {
        let stream = TcpStream::connect(address)?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(Duration::from_secs(30)))?;
        Ok(RawClient {
            stream,
            buffer: Vec::new(),
        })
    }

    /// The underlying socket (to change timeouts or shut it down).
    pub fn stream(&self) -> &TcpStream {
        &self.stream
    }

    /// Sends one request (adding `Host` and `Content-Length`) and returns the instant the write
    /// returned.
    ///
    /// # Errors
    /// The write error.
    pub fn send(
        &mut self,
        method: &str,
        target: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> io::Result<Instant> {
        let mut head = format!("{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        if !body.is_empty() || method == "POST" {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body);
        self.stream.write_all(&bytes)?;
        self.stream.flush()?;
        Ok(Instant::now())
    }

    /// Sends a request and reads the whole response.
    ///
    /// # Errors
    /// Socket errors and unparseable responses.
    pub fn request(
        &mut self,
        method: &str,
        target: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> io::Result<RawResponse> {
        self.send(method, target, headers, body)?;
        self.read_response(method == "HEAD")
    }

    fn fill(&mut self) -> io::Result<usize> {
        let mut chunk = [0_u8; 16 * 1024];
        let read = self.stream.read(&mut chunk)?;
        self.buffer.extend_from_slice(&chunk[..read]);
        Ok(read)
    }

    /// Reads bytes up to and including `delimiter`; `None` if the connection closed first.
    fn read_until(&mut self, delimiter: &[u8]) -> io::Result<Option<Vec<u8>>> {
        loop {
            if let Some(at) = self
                .buffer
                .windows(delimiter.len())
                .position(|window| window == delimiter)
            {
                let line: Vec<u8> = self.buffer.drain(..at + delimiter.len()).collect();
                return Ok(Some(line));
            }
            if self.fill()? == 0 {
                return Ok(None);
            }
        }
    }

    /// Reads exactly `count` bytes; `None` if the connection closed first.
    fn read_exact_buffered(&mut self, count: usize) -> io::Result<Option<Vec<u8>>> {
        while self.buffer.len() < count {
            if self.fill()? == 0 {
                return Ok(None);
            }
        }
        Ok(Some(self.buffer.drain(..count).collect()))
    }

    /// Reads a response head: status and lower-case headers.
    ///
    /// # Errors
    /// Socket errors, early close, or an unparseable head.
    pub fn read_head(&mut self) -> io::Result<(u16, Vec<(String, String)>)> {
        let head = self
            .read_until(b"\r\n\r\n")?
            .ok_or_else(|| invalid("connection closed before the response head"))?;
        let head = String::from_utf8(head).map_err(|_| invalid("response head is not UTF-8"))?;
        let mut lines = head.trim_end().split("\r\n");
        let status_line = lines.next().unwrap_or_default();
        let status = status_line
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .ok_or_else(|| invalid(format!("bad status line '{status_line}'")))?;
        let headers = lines
            .filter_map(|line| line.split_once(':'))
            .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
            .collect();
        Ok((status, headers))
    }

    /// Reads the next chunk of a chunked body: `Ok(None)` at the terminator.
    ///
    /// # Errors
    /// `UnexpectedEof` when the connection closes mid-body; bad framing as `InvalidData`.
    pub fn read_chunk(&mut self) -> io::Result<Option<TimedChunk>> {
        let size_line = self
            .read_until(b"\r\n")?
            .ok_or_else(|| io::Error::from(io::ErrorKind::UnexpectedEof))?;
        let size_text = String::from_utf8_lossy(&size_line);
        let size_text = size_text.trim().split(';').next().unwrap_or_default();
        let size = usize::from_str_radix(size_text, 16)
            .map_err(|_| invalid(format!("bad chunk size '{size_text}'")))?;
        let data = self
            .read_exact_buffered(size + 2)?
            .ok_or_else(|| io::Error::from(io::ErrorKind::UnexpectedEof))?;
        let at = Instant::now();
        if !data.ends_with(b"\r\n") {
            return Err(invalid("chunk data not followed by CRLF"));
        }
        if size == 0 {
            return Ok(None);
        }
        Ok(Some(TimedChunk {
            at,
            bytes: data[..size].to_vec(),
        }))
    }

    /// Reads a whole response after its request was sent. A chunked body that ends without its
    /// terminator yields `complete: false` instead of an error.
    ///
    /// # Errors
    /// Socket errors (including the 30 s read timeout) and unparseable responses.
    pub fn read_response(&mut self, head_only: bool) -> io::Result<RawResponse> {
        let (status, headers) = self.read_head()?;
        let mut response = RawResponse {
            status,
            headers,
            head_at: Instant::now(),
            chunks: Vec::new(),
            complete: true,
        };
        if head_only || status == 204 || status == 304 {
            return Ok(response);
        }
        if response
            .header("transfer-encoding")
            .is_some_and(|value| value.eq_ignore_ascii_case("chunked"))
        {
            loop {
                match self.read_chunk() {
                    Ok(Some(chunk)) => response.chunks.push(chunk),
                    Ok(None) => break,
                    Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => {
                        response.complete = false;
                        break;
                    }
                    Err(error) => return Err(error),
                }
            }
        } else if let Some(length) = response.header("content-length") {
            let length: usize = length
                .parse()
                .map_err(|_| invalid(format!("bad Content-Length '{length}'")))?;
            match self.read_exact_buffered(length)? {
                Some(bytes) => response.chunks.push(TimedChunk {
                    at: Instant::now(),
                    bytes,
                }),
                None => response.complete = false,
            }
        } else {
            while self.fill()? > 0 {}
            let bytes = std::mem::take(&mut self.buffer);
            response.chunks.push(TimedChunk {
                at: Instant::now(),
                bytes,
            });
        }
        Ok(response)
    }
}

/// One item of an event stream, as a test sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SseItem {
    /// A `:` comment line (text after the colon, trimmed).
    Comment(String),
    /// An event with its optional name and its `data` lines joined by `\n`.
    Event {
        /// The `event:` field.
        name: Option<String>,
        /// The data.
        data: String,
    },
}

/// Splits a whole event-stream body into comments and events (LF, CRLF or CR line ends).
pub fn parse_sse(body: &[u8]) -> Vec<SseItem> {
    let text = String::from_utf8_lossy(body)
        .replace("\r\n", "\n")
        .replace('\r', "\n");
    let mut items = Vec::new();
    for block in text.split("\n\n") {
        let mut name = None;
        let mut data: Option<String> = None;
        for line in block.lines() {
            if let Some(comment) = line.strip_prefix(':') {
                items.push(SseItem::Comment(comment.trim().to_owned()));
            } else if let Some(value) = line.strip_prefix("event:") {
                name = Some(value.trim_start().to_owned());
            } else if let Some(value) = line.strip_prefix("data:") {
                let value = value.strip_prefix(' ').unwrap_or(value);
                match &mut data {
                    Some(existing) => {
                        existing.push('\n');
                        existing.push_str(value);
                    }
                    None => data = Some(value.to_owned()),
                }
            }
        }
        if let Some(data) = data {
            items.push(SseItem::Event { name, data });
        }
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_mixed_line_ends_and_comments() {
        let body = b": keep-alive\r\n\r\nevent: ping\rdata: {}\r\rdata: a\ndata: b\n\n";
        assert_eq!(
            parse_sse(body),
            vec![
                SseItem::Comment("keep-alive".into()),
                SseItem::Event {
                    name: Some("ping".into()),
                    data: "{}".into()
                },
                SseItem::Event {
                    name: None,
                    data: "a\nb".into()
                },
            ]
        );
    }
}
