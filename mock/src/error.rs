//! Errors of starting the mock or the static server, with messages that say what to do.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why a server could not start.
#[derive(Debug)]
pub enum MockError {
    /// Another process holds the port.
    PortInUse {
        /// The port asked for.
        port: u16,
    },
    /// The host is not a loopback address; the mock never listens beyond this machine.
    NotLoopback {
        /// The host as given.
        host: String,
    },
    /// The static site directory does not exist or is not a directory.
    StaticDirMissing {
        /// The directory as given.
        dir: PathBuf,
    },
    /// Any other socket or file error, with what was being done.
    Io {
        /// What was being done, e.g. `binding 127.0.0.1:8787`.
        context: String,
        /// The underlying error.
        source: io::Error,
    },
}

impl fmt::Display for MockError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MockError::PortInUse { port } => write!(formatter, "port {port} is already in use"),
            MockError::NotLoopback { host } => write!(
                formatter,
                "refusing to listen on '{host}': the mock only binds loopback addresses \
                 (127.0.0.1, ::1, localhost)"
            ),
            MockError::StaticDirMissing { dir } => write!(
                formatter,
                "static directory '{}' does not exist or is not a directory",
                dir.display()
            ),
            MockError::Io { context, source } => write!(formatter, "{context}: {source}"),
        }
    }
}

impl std::error::Error for MockError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MockError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
