//! The runner's errors, each with its exit code.
//!
//! Exit codes (also in `firsttoken --help`):
//! - 0: done;
//! - 1: a failure while working (a file could not be written; `check` found
//!   a target that does not answer);
//! - 2: bad input, refused before anything was sent (arguments, plan,
//!   results file, missing key);
//! - 3: `report --fail-on` or `run --fail-on`: a target crossed an
//!   objective;
//! - 4: `run --until-decided --fail-on`: an objective was still not decided
//!   at the cap, and none was crossed;
//! - 5: `run`: a target got no successful request (before 3 and 4);
//! - 130: stopped with Ctrl-C (the results file was still written).
//!
//! 1 and 2 are this error's; the others are a command's outcome
//! (`crate::EXIT_OBJECTIVE_CROSSED` and its neighbours).

/// Why a command did not succeed.
#[derive(Debug)]
pub enum CliError {
    /// Bad input, refused before anything was sent: exit 2.
    Input(String),
    /// A failure while working: exit 1.
    Failed(String),
}

impl CliError {
    /// The process exit code.
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Input(_) => 2,
            Self::Failed(_) => 1,
        }
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Input(message) | Self::Failed(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for CliError {}
