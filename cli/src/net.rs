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
use std::time::{Duration, Instant};

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

/// How one attempt at a request failed.
enum Attempt {
    /// No byte of a response came: the connection closed under it.
    Unanswered(SendError),
    /// Anything else: the request is not sent again.
    Refused(SendError),
}

impl Attempt {
    fn into_error(self) -> SendError {
        match self {
            Self::Unanswered(error) | Self::Refused(error) => error,
        }
    }
}

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
    /// The first attempt went on a reused connection that closed before
    /// any byte of a response; this is the second, on a new connection.
    pub retried: bool,
    /// How long this client's connection to the origin had sat idle when
    /// the request was sent: the one it reused, or the one it found closed
    /// and replaced. `None` when this client kept no connection to the
    /// origin (its first request there, or the last one ended mid-reply).
    pub connection_idle: Option<Duration>,
    connection: Option<(Origin, Sender)>,
}

/// The HTTP client: a TLS configuration and the idle connections.
pub struct Client {
    tls: Arc<tokio_rustls::rustls::ClientConfig>,
    fresh_connections: bool,
    /// Send a request once more on a new connection when a reused one
    /// closed before answering (always, but for the test that shows what
    /// the race costs without it).
    retry_unanswered: bool,
    /// Each origin's idle connection and when it went idle.
    idle: HashMap<Origin, (Sender, Instant)>,
}

impl Client {
    /// A client that reuses connections, or opens a new one per request
    /// when `fresh_connections` is set.
    pub fn new(fresh_connections: bool) -> Self {
        Self {
            tls: connect::tls_config(),
            fresh_connections,
            retry_unanswered: true,
            idle: HashMap::new(),
        }
    }

    /// The same client without the retry on a closed reused connection:
    /// what the runner did before it, kept for the test that measures the
    /// requests the keep-alive race loses.
    #[doc(hidden)]
    pub fn without_retry(mut self) -> Self {
        self.retry_unanswered = false;
        self
    }

    /// Sends a POST of `body` with `headers` to `url` and waits for the
    /// response headers. Opens a connection when none is idle for the
    /// origin, or when `fresh` asks for a new one (the kept one is then
    /// closed: the new one takes its place in the pool).
    ///
    /// # Errors
    /// [`SendError`] when the URL is unusable, no connection could be
    /// opened, or the exchange failed before the headers.
    ///
    /// A request sent on a reused connection that fails before any byte of
    /// a response arrived is sent once more on a new connection, as a
    /// browser does: the server had closed the idle connection (its
    /// keep-alive window ending) while the request was on its way, so the
    /// provider never saw it. [`Exchange::retried`] says so.
    pub async fn post(
        &mut self,
        url: &str,
        headers: &[(String, String)],
        body: &str,
        fresh: bool,
    ) -> Result<Exchange, SendError> {
        let (origin, uri) = destination(url)?;
        let connection_idle = self.idle.get(&origin).map(|(_, since)| since.elapsed());
        let (sender, opened) = if fresh {
            // Closed before the new one opens, so the server is not left
            // holding two of this client's connections.
            self.idle.remove(&origin);
            self.open(&origin).await?
        } else {
            self.connection(&origin).await?
        };
        let mut exchange = match self
            .send_on(sender, opened, &origin, &uri, headers, body)
            .await
        {
            Err(Attempt::Unanswered(_)) if opened.is_none() && self.retry_unanswered => {
                let (sender, opened) = self.open(&origin).await?;
                let mut exchange = self
                    .send_on(sender, opened, &origin, &uri, headers, body)
                    .await
                    .map_err(Attempt::into_error)?;
                exchange.retried = true;
                exchange
            }
            result => result.map_err(Attempt::into_error)?,
        };
        exchange.connection_idle = connection_idle;
        Ok(exchange)
    }

    /// One attempt of a request on `sender`.
    async fn send_on(
        &mut self,
        mut sender: Sender,
        opened: Option<ConnectionPhases>,
        origin: &Origin,
        uri: &hyper::Uri,
        headers: &[(String, String)],
        body: &str,
    ) -> Result<Exchange, Attempt> {
        let request = build(uri, origin, &sender, headers, body).map_err(Attempt::Refused)?;
        let protocol = sender.protocol();
        let response = match &mut sender {
            Sender::H1(s) => s.send_request(request).await,
            Sender::H2(s) => s.send_request(request).await,
        }
        .map_err(|e| {
            let error = SendError::Http(describe_hyper(&e));
            // A response that began to arrive (a malformed status line,
            // say) was an answer: never sent twice.
            if e.is_parse() || e.is_parse_status() || e.is_user() {
                Attempt::Refused(error)
            } else {
                Attempt::Unanswered(error)
            }
        })?;
        Ok(Exchange {
            response,
            opened,
            protocol,
            retried: false,
            connection_idle: None,
            connection: Some((origin.clone(), sender)),
        })
    }

    /// Returns the exchange's connection to the pool: call it only after
    /// the body was read to its end, so the connection is idle.
    pub fn release(&mut self, exchange: &mut Exchange) {
        if let Some((origin, sender)) = exchange.connection.take()
            && !self.fresh_connections
        {
            self.idle.insert(origin, (sender, Instant::now()));
        }
    }

    async fn connection(
        &mut self,
        origin: &Origin,
    ) -> Result<(Sender, Option<ConnectionPhases>), SendError> {
        if let Some((mut sender, _)) = self.idle.remove(origin)
            && sender.ready().await
        {
            return Ok((sender, None));
        }
        self.open(origin).await
    }

    /// Opens a new connection to `origin`, timing each step.
    async fn open(
        &mut self,
        origin: &Origin,
    ) -> Result<(Sender, Option<ConnectionPhases>), SendError> {
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

/// Where a request to `url` goes: `core`'s origin of the URL, the one its
/// key was chosen for, and the URI to send, rebuilt from that origin and the
/// URL's path and query so that the socket, the `Host` header and HTTP/2's
/// `:authority` all name that origin and nothing hyper read differently.
///
/// # Errors
/// [`SendError::Url`] when the URL has no origin (not `http`/`https`, no
/// host, user info, a bad port) or is not a valid URI.
pub fn destination(url: &str) -> Result<(Origin, hyper::Uri), SendError> {
    let origin = Origin::parse(url).ok_or_else(|| {
        SendError::Url(
            "the URL has no http:// or https:// host to send to; check the base URL".to_owned(),
        )
    })?;
    let unusable = |e: hyper::http::uri::InvalidUri| {
        SendError::Url(format!("the URL cannot be requested ({e})"))
    };
    let uri: hyper::Uri = url.trim().parse().map_err(unusable)?;
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    let uri = format!("{origin}{path}").parse().map_err(unusable)?;
    Ok((origin, uri))
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
        builder = builder.header(hyper::header::HOST, origin.host_port());
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

#[cfg(test)]
mod tests {
    use super::*;
    use firsttoken_core::base::origin::Scheme;
    use firsttoken_core::planning::key_rules::key_origin;
    use firsttoken_core::planning::plan::{Plan, Protocol, Target};
    use firsttoken_core::wire::protocol::build_request;
    use proptest::prelude::*;

    #[test]
    fn a_destination_takes_the_schemes_default_port_and_drops_ipv6_brackets() {
        let (origin, uri) = destination("https://API.DeepSeek.com./chat/completions?x=1").unwrap();
        assert_eq!((origin.scheme, origin.port), (Scheme::Https, 443));
        assert_eq!(origin.host_port(), "api.deepseek.com");
        assert_eq!(
            uri.to_string(),
            "https://api.deepseek.com/chat/completions?x=1"
        );
        let (origin, _) = destination("http://[::1]:8787/v1").unwrap();
        assert_eq!(origin.host, "::1");
        assert_eq!(origin.host_port(), "[::1]:8787");
        for url in [
            "ftp://example.com/",
            "example.com/v1",
            "https://u@example.com",
        ] {
            assert!(matches!(destination(url), Err(SendError::Url(_))), "{url}");
        }
    }

    /// A base URL as people write them: any case, IPv4, IPv6 and names
    /// (a trailing dot too), a port or none (the default written out too),
    /// a path or none, trailing slashes.
    fn base_url() -> impl Strategy<Value = String> {
        let scheme = prop_oneof![Just("https"), Just("http"), Just("HTTPS"), Just("Http")];
        let host = prop_oneof![
            "[a-zA-Z0-9]([a-zA-Z0-9-]{0,8}[a-zA-Z0-9])?(\\.[a-zA-Z0-9]{1,6}){0,3}\\.?",
            any::<[u8; 4]>().prop_map(|o| format!("{}.{}.{}.{}", o[0], o[1], o[2], o[3])),
            any::<[u16; 8]>().prop_map(|s| format!("[{}]", std::net::Ipv6Addr::from(s))),
            Just("[0:0:0:0:0:0:0:1]".to_owned()),
        ];
        let port = prop_oneof![
            Just(String::new()),
            Just(":443".to_owned()),
            Just(":80".to_owned()),
            (1u16..).prop_map(|p| format!(":{p}")),
        ];
        let path = "(/[a-zA-Z0-9._~-]{1,6}){0,3}/{0,2}";
        (scheme, host, port, path).prop_map(|(s, h, p, path)| format!("{s}://{h}{p}{path}"))
    }

    proptest! {
        /// Every base URL whose origin core accepts is sent to that very
        /// origin: the key decision and the socket agree on scheme, host and
        /// port, and so does the URI hyper sends.
        #[test]
        fn the_socket_goes_to_the_origin_the_key_was_chosen_for(
            base in base_url(),
            protocol in prop_oneof![Just(Protocol::OpenAi), Just(Protocol::Anthropic), Just(Protocol::Gemini)],
        ) {
            let target = Target {
                label: "t".to_owned(),
                protocol,
                base_url: base.clone(),
                model: "m".to_owned(),
                provider: None,
                price: None,
                openrouter_provider: None,
            };
            let Some(key_origin) = key_origin(&target) else {
                return Ok(());
            };
            let request = build_request(&target, &Plan::default(), Some("sk"), None);
            let (origin, uri) = destination(&request.url).unwrap();
            prop_assert_eq!(&origin, &key_origin);
            let https = uri.scheme_str() == Some("https");
            prop_assert_eq!(https, origin.scheme == Scheme::Https);
            let host = uri.host().unwrap().trim_start_matches('[').trim_end_matches(']');
            prop_assert_eq!(host, origin.host.as_str());
            prop_assert_eq!(uri.port_u16().unwrap_or(origin.scheme.default_port()), origin.port);
        }
    }
}
