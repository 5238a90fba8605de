//! A run as the page stores it (IndexedDB), enough to resume it after a
//! reload: the run's record and its status. Samples are stored one by one
//! beside it, each in the results document's sample form.

use super::plan::Plan;
use super::results::Environment;
use super::schedule::Runner;

/// Where a run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunStatus {
    /// Sending requests.
    Running,
    /// Waiting for "Resume".
    Paused,
    /// Stopped by the person before the plan's end.
    Stopped,
    /// Every planned request was sent.
    Finished,
}

crate::json_enum!(RunStatus {
    Running = "running",
    Paused = "paused",
    Stopped = "stopped",
    Finished = "finished",
});

/// A run as stored in IndexedDB, enough to resume it after a reload.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRecord {
    /// Storage id.
    pub run_id: String,
    /// The plan being run.
    pub plan: Plan,
    /// Browser, time zone, page version.
    pub environment: Environment,
    /// Where it stands.
    pub status: RunStatus,
    /// The scheduler, as of the run's last change of status. Resuming needs
    /// no more: it re-plans whatever has no stored sample.
    pub runner: Runner,
    /// Seed for jitter and the demo provider.
    pub seed: u64,
}

crate::json_object!(RunRecord {
    run_id,
    plan,
    environment,
    status,
    runner,
    seed
});
