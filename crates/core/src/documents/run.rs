//! A run as the page stores it (IndexedDB), enough to resume it after a
//! reload: the run's record and its status. Samples are stored one by one
//! beside it, each in the results document's sample form.

use serde::{Deserialize, Serialize};

use crate::documents::results::Environment;
use crate::planning::plan::Plan;
use crate::planning::schedule::Runner;

/// Where a run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
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

impl RunStatus {
    /// Every status, in a run's order.
    pub const ALL: [Self; 4] = [Self::Running, Self::Paused, Self::Stopped, Self::Finished];

    /// The name used in the stored record (serde's name for the variant).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Running => "running",
            Self::Paused => "paused",
            Self::Stopped => "stopped",
            Self::Finished => "finished",
        }
    }
}

/// A run as stored in IndexedDB, enough to resume it after a reload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::document;

    #[test]
    fn statuses_are_written_by_their_names() {
        for status in RunStatus::ALL {
            let text = document::to_string(&status);
            assert_eq!(text, format!("\"{}\"", status.as_str()));
            assert_eq!(document::from_str::<RunStatus>(&text).unwrap(), status);
        }
    }
}
