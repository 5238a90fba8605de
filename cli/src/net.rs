//! The runner's HTTP client: hyper's connection-level API over connections
//! it opens and times itself.
//!
//! A browser hides how a request reached the provider; here every new
//! connection is opened step by step (DNS lookup, TCP connect, TLS
//! handshake), each step timed on the monotonic clock, so a sample can say
//! how much of its time was the network rather than the provider.
//!
//! Connections are kept and reused across requests as a browser does: one
//! request is in flight at a time (the scheduler's rule), so the pool is one
//! idle connection per origin. A connection goes back to the pool only after
//! its reply was read to the end; one left mid-reply (a timeout, a stop, a
//! malformed stream) is dropped, which closes it. `--fresh-connections`
//! never returns one, so every request opens its own.
//!
//! TLS is rustls with the ring provider and Mozilla's roots compiled in
//! (`webpki-roots`): no system OpenSSL, the same trust on every machine. ALPN
//! offers `h2` and `http/1.1`; the provider's choice decides the protocol.

mod connect;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::client::conn::{http1, http2};
use hyper::{Request, Response};

pub use connect::{ConnectError, ConnectionPhases, Origin};

/// Longest wait for a pooled HTTP/1.1 connection to finish the previous
/// exchange before a new one is opened instead. Normally it is ready at once
/// (its reply was read to the end); the bound only guards against a
/// connection hyper has not yet marked idle.
const POOLED_READY_WAIT: Duration = Duration::from_millis(200);

/// Why a request got no response headers.
#[derive(Debug)]
pub enum SendError {
    /// No connection could be opened.
    Connect(ConnectError),
    /// The URL cannot be requested (not http/https, no host).
    Url(String),
    /// The connection failed while sending or before the headers arrived.
    Http(String),
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Connect(error) => error.fmt(f),
            Self::Url(message) | Self::Http(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for SendError {}

/// One HTTP/1.1 or HTTP/2 connection's request handle.
enum Sender {
    H1(http1::SendRequest<Full<Bytes>>),
    H2(http2::SendRequest<Full<Bytes>>),
}

impl Sender {
    /// Whether the connection can take a request now (waiting briefly for
    /// an HTTP/1.1 connection to become idle).
    async fn ready(&mut self) -> bool {
        match self {
            Self::H1(sender) => {
                !sender.is_closed()
                    && matches!(
                        tokio::time::timeout(POOLED_READY_WAIT, sender.ready()).await,
                        Ok(Ok(()))
                    )
            }
            Self::H2(sender) => !sender.is_closed() && sender.ready().await.is_ok(),
        }
    }

    fn protocol(&self) -> &'static str {
        match self {
            Self::H1(_) => "HTTP/1.1",
            Self::H2(_) => "HTTP/2",
        }
    }
}

/// A response whose headers have arrived, and the connection it came on.
pub struct Exchange {
    /// Status, headers and the streaming body.
    pub response: Response<Incoming>,
    /// The connection's phases if this request opened it; `None` when it
    /// reused a pooled one.
    pub opened: Option<ConnectionPhases>,
    /// `HTTP/1.1` or `HTTP/2`.
    pub protocol: &'static str,
    connection: Option<(Origin, Sender)>,
}

/// The HTTP client: a TLS configuration and the idle connections.
pub struct Client {
    tls: Arc<tokio_rustls::rustls::ClientConfig>,
    fresh_connections: bool,
    idle: HashMap<Origin, Sender>,
}

impl Client {
    /// A client that reuses connections, or opens a new one per request
    /// when `fresh_connections` is set.
    pub fn new(fresh_connections: bool) -> Self {
        Self {
            tls: connect::tls_config(),
            fresh_connections,
            idle: HashMap::new(),
        }
    }

    /// Sends a POST of `body` with `headers` to `url` and waits for the
    /// response headers. Opens a connection when none is idle for the
    /// origin.
    ///
    /// # Errors
    /// [`SendError`] when the URL is unusable, no connection could be
    /// opened, or the exchange failed before the headers.
    pub async fn post(
        &mut self,
        url: &str,
        headers: &[(String, String)],
        body: &str,
    ) -> Result<Exchange, SendError> {
        let uri: hyper::Uri = url
            .parse()
            .map_err(|e| SendError::Url(format!("the URL cannot be requested ({e})")))?;
        let origin = Origin::of(&uri).map_err(SendError::Url)?;
        let (mut sender, opened) = self.connection(&origin).await?;
        let request = build(&uri, &origin, &sender, headers, body)?;
        let protocol = sender.protocol();
        let response = match &mut sender {
            Sender::H1(s) => s.send_request(request).await,
            Sender::H2(s) => s.send_request(request).await,
        }
        .map_err(|e| SendError::Http(describe_hyper(&e)))?;
        Ok(Exchange {
            response,
            opened,
            protocol,
            connection: Some((origin, sender)),
        })
    }

    /// Returns the exchange's connection to the pool: call it only after
    /// the body was read to its end, so the connection is idle.
    pub fn release(&mut self, exchange: &mut Exchange) {
        if let Some((origin, sender)) = exchange.connection.take()
            && !self.fresh_connections
        {
            self.idle.insert(origin, sender);
        }
    }

    async fn connection(
        &mut self,
        origin: &Origin,
    ) -> Result<(Sender, Option<ConnectionPhases>), SendError> {
        if let Some(mut sender) = self.idle.remove(origin)
            && sender.ready().await
        {
            return Ok((sender, None));
        }
        let (stream, phases) = connect::open(origin, &self.tls)
            .await
            .map_err(SendError::Connect)?;
        let sender = match stream {
            connect::Stream::Plain(tcp) => handshake_h1(tcp).await?,
            connect::Stream::Tls(tls) => {
                let h2 = tls.get_ref().1.alpn_protocol() == Some(b"h2");
                if h2 {
                    handshake_h2(*tls).await?
                } else {
                    handshake_h1(*tls).await?
                }
            }
        };
        Ok((sender, Some(phases)))
    }
}

async fn handshake_h1<T>(io: T) -> Result<Sender, SendError>
where
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let (sender, connection) = http1::handshake(hyper_util::rt::TokioIo::new(io))
        .await
        .map_err(|e| SendError::Http(describe_hyper(&e)))?;
    // The connection's I/O runs in its own task; it ends when the sender
    // is dropped and the exchange in flight is done.
    tokio::spawn(connection);
    Ok(Sender::H1(sender))
}

async fn handshake_h2<T>(io: T) -> Result<Sender, SendError>
where
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let (sender, connection) = http2::handshake(
        hyper_util::rt::TokioExecutor::new(),
        hyper_util::rt::TokioIo::new(io),
    )
    .await
    .map_err(|e| SendError::Http(describe_hyper(&e)))?;
    tokio::spawn(connection);
    Ok(Sender::H2(sender))
}

/// The request as the connection's protocol wants it: HTTP/1.1 takes the
/// path and a `Host` header, HTTP/2 the absolute URI (its `:authority`).
fn build(
    uri: &hyper::Uri,
    origin: &Origin,
    sender: &Sender,
    headers: &[(String, String)],
    body: &str,
) -> Result<Request<Full<Bytes>>, SendError> {
    let mut builder = Request::post(match sender {
        Sender::H1(_) => uri
            .path_and_query()
            .map_or_else(|| "/".to_owned(), |p| p.as_str().to_owned()),
        Sender::H2(_) => uri.to_string(),
    });
    if matches!(sender, Sender::H1(_)) {
        builder = builder.header(hyper::header::HOST, origin.host_header());
    }
    builder = builder.header(
        hyper::header::USER_AGENT,
        concat!("firsttoken/", env!("CARGO_PKG_VERSION")),
    );
    for (name, value) in headers {
        builder = builder.header(name.as_str(), value.as_str());
    }
    // A header value the request builder refuses (a control character in
    // a key, say) is reported without the value itself.
    builder
        .body(Full::new(Bytes::copy_from_slice(body.as_bytes())))
        .map_err(|_| {
            SendError::Url(
                "a header of the request is not valid HTTP (check the key for stray characters)"
                    .to_owned(),
            )
        })
}

/// hyper's error and its causes, in one line.
pub fn describe_hyper(error: &hyper::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
