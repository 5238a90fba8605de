//! The accept loop and per-connection threads shared by the provider and the static server.
//!
//! One thread per connection keeps the code free of any async runtime (fast to compile) and makes
//! every scheduled write a plain `sleep` + `write` on its own thread.

use std::io::{self, ErrorKind};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::error::MockError;
use crate::http::{self, ReadError, Request, RequestReader};

/// How often idle waits look at the shutdown flag, ms.
pub(crate) const POLL_INTERVAL: Duration = Duration::from_millis(200);
/// An idle keep-alive connection is closed after this long, unless the
/// server is given its own window ([`Connections::keep_alive`]).
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(120);

/// How the server treats connections, apart from what it answers: how
/// long it keeps an idle one open, and what each new one costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connections {
    /// An idle keep-alive connection is closed this long after the last
    /// response ended, as uvicorn does after 5 s and many proxies after
    /// 60 s. A request that was already on its way when it closed is lost
    /// to the client, which must send it again on a new connection.
    pub keep_alive: Duration,
    /// Each new connection waits this long before its first request is
    /// read: the handshake a provider's TLS terminator costs, apart from
    /// any cold start of the model.
    pub connect_delay: Duration,
    /// The keep-alive close reaches the client this much later, as a FIN
    /// crosses a network: the server reads nothing more once its window
    /// ends, and a request that arrives in this time is dropped unanswered
    /// when the socket closes (a reset). On loopback the race is a few
    /// microseconds wide; this widens it to what a client 50 ms away meets.
    pub close_delay: Duration,
}

impl Default for Connections {
    /// [`IDLE_TIMEOUT`] and no delay.
    fn default() -> Self {
        Self {
            keep_alive: IDLE_TIMEOUT,
            connect_delay: Duration::ZERO,
            close_delay: Duration::ZERO,
        }
    }
}
/// A request must arrive completely within this long once it has started.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// What the connection does after a response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disposition {
    /// Read the next request if the client allows keep-alive.
    KeepAlive,
    /// Close the connection.
    Close,
}

/// Answers requests on a connection.
pub trait Handler: Send + Sync + 'static {
    /// Answers one request, writing the response to `stream`. `shutdown` turns true when the
    /// server is stopping, so long waits can end early.
    fn handle(
        &self,
        stream: &mut TcpStream,
        request: Request,
        shutdown: &AtomicBool,
    ) -> Disposition;
}

/// Resolves `host` to a loopback address.
///
/// # Errors
/// [`MockError::NotLoopback`] for anything that is not `localhost` or a loopback IP.
pub fn loopback_address(host: &str) -> Result<IpAddr, MockError> {
    let address = match host {
        "localhost" => IpAddr::V4(Ipv4Addr::LOCALHOST),
        "[::1]" => IpAddr::V6(Ipv6Addr::LOCALHOST),
        other => other
            .parse::<IpAddr>()
            .map_err(|_| MockError::NotLoopback {
                host: host.to_owned(),
            })?,
    };
    if address.is_loopback() {
        Ok(address)
    } else {
        Err(MockError::NotLoopback {
            host: host.to_owned(),
        })
    }
}

/// Binds a listener, turning "address in use" into [`MockError::PortInUse`].
///
/// # Errors
/// [`MockError::NotLoopback`], [`MockError::PortInUse`] or [`MockError::Io`].
pub fn bind(host: IpAddr, port: u16) -> Result<TcpListener, MockError> {
    if !host.is_loopback() {
        return Err(MockError::NotLoopback {
            host: host.to_string(),
        });
    }
    TcpListener::bind(SocketAddr::new(host, port)).map_err(|source| {
        if source.kind() == ErrorKind::AddrInUse {
            MockError::PortInUse { port }
        } else {
            MockError::Io {
                context: format!("binding {}", SocketAddr::new(host, port)),
                source,
            }
        }
    })
}

/// A running server; stops (and joins its accept thread) when dropped.
#[derive(Debug)]
pub struct Server {
    address: SocketAddr,
    shutdown: Arc<AtomicBool>,
    accept_thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Starts accepting on `listener`, one thread per connection.
    ///
    /// # Errors
    /// [`MockError::Io`] if the listener has no address or the thread cannot start.
    pub fn spawn(listener: TcpListener, handler: Arc<dyn Handler>) -> Result<Server, MockError> {
        Self::spawn_with(listener, handler, Connections::default())
    }

    /// [`Server::spawn`], treating connections as `connections` says.
    ///
    /// # Errors
    /// As [`Server::spawn`].
    pub fn spawn_with(
        listener: TcpListener,
        handler: Arc<dyn Handler>,
        connections: Connections,
    ) -> Result<Server, MockError> {
        let address = listener.local_addr().map_err(|source| MockError::Io {
            context: "reading the listener's address".into(),
            source,
        })?;
        let shutdown = Arc::new(AtomicBool::new(false));
        let accept_shutdown = Arc::clone(&shutdown);
        let accept_thread = thread::Builder::new()
            .name(format!("mock-accept-{}", address.port()))
            .spawn(move || accept_loop(&listener, &handler, &accept_shutdown, connections))
            .map_err(|source| MockError::Io {
                context: "starting the accept thread".into(),
                source,
            })?;
        Ok(Server {
            address,
            shutdown,
            accept_thread: Some(accept_thread),
        })
    }

    /// The bound address (with the real port when 0 was asked for).
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Blocks until the server stops (it only stops when told to, so: forever).
    pub fn wait(mut self) {
        if let Some(thread) = self.accept_thread.take() {
            let _ = thread.join();
        }
    }

    /// Stops accepting, tells connections to finish, and joins the accept thread.
    pub fn stop(&mut self) {
        self.shutdown.store(true, Ordering::SeqCst);
        if let Some(thread) = self.accept_thread.take() {
            // The accept call blocks; a connection of our own wakes it to see the flag.
            let _ = TcpStream::connect_timeout(&self.address, Duration::from_secs(1));
            let _ = thread.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

fn accept_loop(
    listener: &TcpListener,
    handler: &Arc<dyn Handler>,
    shutdown: &Arc<AtomicBool>,
    connections: Connections,
) {
    for incoming in listener.incoming() {
        if shutdown.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = incoming else { continue };
        let handler = Arc::clone(handler);
        let shutdown = Arc::clone(shutdown);
        // If the thread cannot start, the stream is dropped and the client sees a reset.
        let _ = thread::Builder::new()
            .name("mock-connection".into())
            .spawn(move || serve_connection(stream, handler.as_ref(), &shutdown, connections));
    }
}

fn serve_connection(
    mut stream: TcpStream,
    handler: &dyn Handler,
    shutdown: &AtomicBool,
    connections: Connections,
) {
    // Every SSE write must leave at once, not wait for Nagle's algorithm to batch it.
    let _ = stream.set_nodelay(true);
    if !connections.connect_delay.is_zero() {
        thread::sleep(connections.connect_delay);
    }
    let mut reader = RequestReader::new();
    loop {
        if !reader.has_buffered() && !wait_for_request(&stream, shutdown, connections.keep_alive) {
            if !connections.close_delay.is_zero() && !shutdown.load(Ordering::SeqCst) {
                // Closed for the server; the client learns of it only now.
                thread::sleep(connections.close_delay);
            }
            return;
        }
        let _ = stream.set_read_timeout(Some(REQUEST_TIMEOUT));
        match reader.read_request(&mut stream) {
            Ok(request) => {
                let keep_alive = request.keep_alive;
                let disposition = handler.handle(&mut stream, request, shutdown);
                if disposition == Disposition::Close || !keep_alive {
                    let _ = stream.shutdown(Shutdown::Both);
                    return;
                }
            }
            Err(ReadError::Malformed(message)) => {
                let _ = http::write_full(
                    &mut stream,
                    400,
                    &[
                        ("Content-Type", "text/plain; charset=utf-8".into()),
                        ("Access-Control-Allow-Origin", "*".into()),
                        ("Connection", "close".into()),
                    ],
                    message.as_bytes(),
                    true,
                );
                return;
            }
            Err(ReadError::Closed | ReadError::Io(_)) => return,
        }
    }
}

/// Waits until a request's first byte is readable; false if the peer closed, the connection
/// idled `keep_alive` (to the millisecond: the close must come when a real server's would), or
/// the server is stopping.
fn wait_for_request(stream: &TcpStream, shutdown: &AtomicBool, keep_alive: Duration) -> bool {
    let idle_since = Instant::now();
    let mut probe = [0_u8; 1];
    loop {
        let left = keep_alive.saturating_sub(idle_since.elapsed());
        if left.is_zero() || shutdown.load(Ordering::SeqCst) {
            return false;
        }
        if stream
            .set_read_timeout(Some(left.min(POLL_INTERVAL).max(Duration::from_millis(1))))
            .is_err()
        {
            return false;
        }
        match stream.peek(&mut probe) {
            Ok(0) => return false,
            Ok(_) => return true,
            Err(error) if is_timeout(&error) => {}
            Err(_) => return false,
        }
    }
}

/// Whether a read error is a read timeout (the kind differs between platforms).
pub(crate) fn is_timeout(error: &io::Error) -> bool {
    matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_hosts_are_accepted() {
        assert_eq!(
            loopback_address("127.0.0.1").unwrap(),
            IpAddr::V4(Ipv4Addr::LOCALHOST)
        );
        assert_eq!(
            loopback_address("localhost").unwrap(),
            IpAddr::V4(Ipv4Addr::LOCALHOST)
        );
        assert!(loopback_address("::1").unwrap().is_loopback());
        assert!(matches!(
            loopback_address("0.0.0.0"),
            Err(MockError::NotLoopback { .. })
        ));
        assert!(matches!(
            loopback_address("example.com"),
            Err(MockError::NotLoopback { .. })
        ));
    }

    #[test]
    fn a_taken_port_is_reported_as_in_use() {
        let taken = bind(IpAddr::V4(Ipv4Addr::LOCALHOST), 0).unwrap();
        let port = taken.local_addr().unwrap().port();
        match bind(IpAddr::V4(Ipv4Addr::LOCALHOST), port) {
            Err(MockError::PortInUse { port: reported }) => assert_eq!(reported, port),
            other => panic!("expected PortInUse, got {other:?}"),
        }
    }
}
