//! Opening one connection, step by step, each step timed: DNS lookup, TCP
//! connect, TLS handshake. A failure says which step failed, so a DNS
//! failure, a refused connection and a certificate problem become different
//! error samples.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Instant;

use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls::pki_types::ServerName;
use tokio_rustls::rustls::{ClientConfig, RootCertStore};

/// Where a connection goes: `core`'s origin (scheme, host, port), the
/// very value a key is bound to, so the socket cannot open anywhere but the
/// origin the key decision named.
pub use firsttoken_core::base::origin::Origin;
use firsttoken_core::base::origin::Scheme;

/// How long opening a connection took, step by step, in ms: `core`'s
/// type, so the phases go into the sample as they are.
pub use firsttoken_core::wire::sample::ConnectionPhases;

/// Which step of opening a connection failed, with the system's words.
#[derive(Debug)]
pub enum ConnectError {
    /// The host name did not resolve.
    Dns {
        /// The host.
        host: String,
        /// What the resolver said.
        detail: String,
    },
    /// No address accepted a TCP connection.
    Connect {
        /// `host:port`.
        address: String,
        /// What the last attempt said.
        detail: String,
    },
    /// The TLS handshake failed (certificate, protocol, a plain-HTTP port).
    Tls {
        /// The host.
        host: String,
        /// What rustls said.
        detail: String,
    },
}

impl std::fmt::Display for ConnectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Dns { host, detail } => write!(f, "could not resolve {host}: {detail}"),
            Self::Connect { address, detail } => {
                write!(f, "could not connect to {address}: {detail}")
            }
            Self::Tls { host, detail } => {
                write!(f, "the TLS handshake with {host} failed: {detail}")
            }
        }
    }
}

impl std::error::Error for ConnectError {}

/// An open connection, before HTTP.
pub enum Stream {
    /// Plain TCP (`http`).
    Plain(TcpStream),
    /// TLS over TCP (`https`); boxed, it is large.
    Tls(Box<TlsStream<TcpStream>>),
}

/// The TLS configuration: Mozilla's roots, ring, ALPN `h2` then `http/1.1`.
pub fn tls_config() -> Arc<ClientConfig> {
    let roots = RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    // The ring provider supports the default protocol versions, so this
    // cannot fail; should a future rustls disagree, fall back to its own
    // defaults rather than refuse to run.
    let builder = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap_or_else(|_| ClientConfig::builder());
    let mut config = builder.with_root_certificates(roots).with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Arc::new(config)
}

fn ms_since(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

/// Opens a connection to `origin`, timing each step.
///
/// # Errors
/// [`ConnectError`] naming the step that failed.
pub async fn open(
    origin: &Origin,
    tls: &Arc<ClientConfig>,
) -> Result<(Stream, ConnectionPhases), ConnectError> {
    let (addresses, dns_ms) = match origin.host.parse::<IpAddr>() {
        Ok(ip) => (vec![SocketAddr::new(ip, origin.port)], None),
        Err(_) => {
            let started = Instant::now();
            let found = tokio::net::lookup_host((origin.host.as_str(), origin.port))
                .await
                .map_err(|e| ConnectError::Dns {
                    host: origin.host.clone(),
                    detail: e.to_string(),
                })?;
            let addresses: Vec<SocketAddr> = found.collect();
            let dns_ms = ms_since(started);
            if addresses.is_empty() {
                return Err(ConnectError::Dns {
                    host: origin.host.clone(),
                    detail: "no address found".to_owned(),
                });
            }
            (addresses, Some(dns_ms))
        }
    };

    let started = Instant::now();
    let mut last_error = None;
    let mut tcp = None;
    for address in &addresses {
        match TcpStream::connect(address).await {
            Ok(stream) => {
                tcp = Some(stream);
                break;
            }
            Err(error) => last_error = Some(error),
        }
    }
    let Some(tcp) = tcp else {
        return Err(ConnectError::Connect {
            address: format!("{}:{}", origin.host, origin.port),
            detail: last_error.map_or_else(|| "no address to try".to_owned(), |e| e.to_string()),
        });
    };
    let connect_ms = ms_since(started);
    // Small SSE writes must not wait for Nagle's algorithm on our side
    // either (the request goes out in one write, but be explicit).
    let _ = tcp.set_nodelay(true);

    if origin.scheme == Scheme::Http {
        let phases = ConnectionPhases {
            dns_ms,
            connect_ms,
            tls_ms: None,
        };
        return Ok((Stream::Plain(tcp), phases));
    }
    let started = Instant::now();
    let server_name = ServerName::try_from(origin.host.clone()).map_err(|e| ConnectError::Tls {
        host: origin.host.clone(),
        detail: e.to_string(),
    })?;
    let stream = TlsConnector::from(Arc::clone(tls))
        .connect(server_name, tcp)
        .await
        .map_err(|e| ConnectError::Tls {
            host: origin.host.clone(),
            detail: e.to_string(),
        })?;
    let phases = ConnectionPhases {
        dns_ms,
        connect_ms,
        tls_ms: Some(ms_since(started)),
    };
    Ok((Stream::Tls(Box::new(stream)), phases))
}
