//! A mock LLM provider for FirstToken's end-to-end tests and accuracy benchmark.
//!
//! One process on a loopback port speaks the three streaming protocols the app measures (OpenAI
//! chat completions, Anthropic Messages, Gemini `streamGenerateContent`) with real SSE framing over
//! chunked HTTP/1.1. The model name picks a *script* ([`script`]): a delay, a cold-start mix,
//! reasoning, keep-alives, awkward framing, a fault, answers to the app's fidelity probes
//! ([`fidelity`]: right ones, or a fixed share wrong), or a model that goes cold after an idle
//! spell ([`idle`]). Every reply records, on the mock's
//! monotonic clock, when its first byte and first token actually left ([`ground_truth`]), which
//! is what the app's measured TTFT is checked against.
//!
//! It uses std threads and `std::net` only: no async runtime, so it compiles in seconds.
//!
//! ```no_run
//! let mock = firsttoken_mock::start(firsttoken_mock::MockConfig::default())?;
//! println!("OpenAI base URL: {}/v1", mock.base_url());
//! # Ok::<(), firsttoken_mock::MockError>(())
//! ```

pub mod error;
pub mod fidelity;
pub mod ground_truth;
pub mod http;
pub mod idle;
mod leaf;
pub mod listener;
pub mod prefill;
pub mod protocol;
pub mod provider;
pub mod raw_client;
pub mod reply;
pub mod script;
pub mod sse;
pub mod static_site;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

pub use error::MockError;
pub use ground_truth::{GroundTruth, MockClock, Outcome, PreflightRecord, RequestRecord};
pub use script::{Script, ScriptKind};

use ground_truth::Recorder;
use listener::Server;
use provider::Provider;
use static_site::StaticSite;

/// Seed of `bimodal`'s draws unless configured otherwise.
pub const DEFAULT_SEED: u64 = 0x5EED_F125_7700_0001;

/// Where and how the mock provider runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MockConfig {
    /// Loopback address to bind (anything else is refused).
    pub host: IpAddr,
    /// Port to bind; 0 picks a free one.
    pub port: u16,
    /// Seed of `bimodal`'s cold-start draws.
    pub seed: u64,
    /// Its keep-alive window and the cost of a new connection.
    pub connections: listener::Connections,
}

impl Default for MockConfig {
    /// `127.0.0.1`, a free port, [`DEFAULT_SEED`].
    fn default() -> Self {
        MockConfig {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            seed: DEFAULT_SEED,
            connections: listener::Connections::default(),
        }
    }
}

/// A running mock provider; it stops when dropped.
#[derive(Debug)]
pub struct MockHandle {
    server: Server,
    recorder: Recorder,
}

impl MockHandle {
    /// `http://127.0.0.1:PORT`, the base URL for Anthropic and Gemini clients; OpenAI clients
    /// append `/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.server.address())
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.server.address().port()
    }

    /// The bound address.
    pub fn address(&self) -> SocketAddr {
        self.server.address()
    }

    /// Everything recorded since start or the last reset.
    pub fn ground_truth(&self) -> GroundTruth {
        self.recorder.snapshot()
    }

    /// Like [`MockHandle::ground_truth`], after waiting up to `timeout` for every reply other
    /// than `stall` to end (a client can hold a whole reply just before its record is final).
    pub fn settled_ground_truth(&self, timeout: Duration) -> GroundTruth {
        self.recorder.settled_snapshot(timeout)
    }

    /// The record of request `id` once its reply has ended, waiting up to `timeout`; `None` if
    /// no such request was recorded.
    pub fn wait_for_request(&self, id: u64, timeout: Duration) -> Option<RequestRecord> {
        self.recorder.wait_for_request(id, timeout)
    }

    /// Clears the ground truth and the per-script request counters (like `POST /reset`).
    pub fn reset(&self) {
        self.recorder.reset();
    }

    /// The mock's clock, to place a test's own `Instant`s on the ground truth's time axis.
    pub fn clock(&self) -> MockClock {
        self.recorder.clock()
    }

    /// Blocks for as long as the server runs (the binary's main thread parks here).
    pub fn wait(self) {
        self.server.wait();
    }
}

/// Starts the mock provider.
///
/// # Errors
/// [`MockError::NotLoopback`] for a non-loopback host, [`MockError::PortInUse`] when the port is
/// taken, [`MockError::Io`] for other socket errors.
pub fn start(config: MockConfig) -> Result<MockHandle, MockError> {
    let listener = listener::bind(config.host, config.port)?;
    let recorder = Recorder::new(MockClock::start());
    let provider = Provider::new(recorder.clone(), config.seed);
    let server = Server::spawn_with(listener, Arc::new(provider), config.connections)?;
    Ok(MockHandle { server, recorder })
}

/// A running static file server; it stops when dropped.
#[derive(Debug)]
pub struct StaticHandle {
    server: Server,
    prefix: String,
}

impl StaticHandle {
    /// `http://127.0.0.1:PORT/prefix/`, the page's URL.
    pub fn url(&self) -> String {
        format!("http://{}{}", self.server.address(), self.prefix)
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.server.address().port()
    }

    /// Blocks for as long as the server runs.
    pub fn wait(self) {
        self.server.wait();
    }
}

/// Serves the files under `dir` at `http://127.0.0.1:port/prefix/` (port 0 picks a free one).
///
/// # Errors
/// As [`start_static_on`].
pub fn start_static(dir: &Path, port: u16, prefix: &str) -> Result<StaticHandle, MockError> {
    start_static_on(IpAddr::V4(Ipv4Addr::LOCALHOST), dir, port, prefix)
}

/// Serves the files under `dir` on a loopback `host`.
///
/// # Errors
/// [`MockError::StaticDirMissing`] when `dir` is not a directory, otherwise as [`start`].
pub fn start_static_on(
    host: IpAddr,
    dir: &Path,
    port: u16,
    prefix: &str,
) -> Result<StaticHandle, MockError> {
    let root = dir
        .canonicalize()
        .ok()
        .filter(|root| root.is_dir())
        .ok_or_else(|| MockError::StaticDirMissing {
            dir: dir.to_path_buf(),
        })?;
    let site = StaticSite::new(root, prefix);
    let prefix = site.prefix().to_owned();
    let listener = listener::bind(host, port)?;
    let server = Server::spawn(listener, Arc::new(site))?;
    Ok(StaticHandle { server, prefix })
}
