//! A run as the page stores it (IndexedDB), enough to resume it after a
//! reload: the run's record and its status. Samples are stored one by one
//! beside it, each in the results document's sample form.

use serde::{Deserialize, Serialize};

use crate::documents::results::Environment;
use crate::planning::plan::Plan;
use crate::planning::schedule::Runner;
use crate::wire::session::RunSession;

/// Where a run stands: the session's status, stored by its name.
pub use crate::wire::session::RunStatus;

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

impl RunRecord {
    /// The record of `session`, with the `environment` it runs in: the
    /// stored form, as it always was (the session itself is not stored).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn of(session: &RunSession, environment: Environment) -> Self {
        Self {
            run_id: session.run_id().to_owned(),
            plan: session.plan().clone(),
            environment,
            status: session.status(),
            runner: session.runner().clone(),
            seed: session.seed(),
        }
    }

    /// The session this record stored, and its environment. The run's
    /// start is the environment's `started_at_ms`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn into_session(self) -> (RunSession, Environment) {
        let session = RunSession::stored(
            self.plan,
            self.run_id,
            self.environment.started_at_ms,
            self.seed,
            self.status,
            self.runner,
        );
        (session, self.environment)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::document;
    use crate::documents::results::RunnerKind;
    use crate::planning::plan::Target;
    use crate::planning::schedule::Next;

    fn environment(started_at_ms: f64) -> Environment {
        Environment {
            peak_tz_offset_min: None,
            schedule_shift_ms: None,
            user_agent: "test".to_owned(),
            time_zone: "UTC".to_owned(),
            tz_offset_min: 0,
            page_version: "0".to_owned(),
            started_at_ms,
            runner: RunnerKind::Page,
            vantage: None,
        }
    }

    /// A session written to the record and read back is the same run, and
    /// the record it writes again is the same bytes.
    #[test]
    fn a_record_holds_a_session_and_gives_it_back() {
        let plan = Plan {
            targets: vec![Target::demo("a", "m"), Target::demo("b", "m")],
            requests_per_target: 3,
            warmup_per_target: 1,
            spacing_s: 1.0,
            jitter_s: 0.2,
            ..Plan::default()
        };
        let start_ms = 1_733_000_000_000.5;
        let mut session = RunSession::start(plan, start_ms);
        let Next::SendNow(first) = session.next(start_ms) else {
            panic!("the first request is due at the start");
        };
        session.mark_sent(&first, start_ms).unwrap();
        assert_eq!(
            session
                .on_sample(
                    &crate::testing::fixtures::planned_sample(&first),
                    start_ms + 300.0
                )
                .refused,
            None
        );
        session.pause(start_ms + 400.0);
        let record = RunRecord::of(&session, environment(start_ms));
        let text = document::to_string(&record);
        let read: RunRecord = document::from_str(&text).unwrap();
        let (back, environment) = read.into_session();
        assert_eq!(back.run_id(), session.run_id());
        assert_eq!(back.seed(), session.seed());
        assert_eq!(back.started_at_ms(), start_ms);
        assert_eq!(back.status(), RunStatus::Paused);
        assert_eq!(back.runner(), session.runner());
        assert_eq!(back.plan(), session.plan());
        assert_eq!(
            document::to_string(&RunRecord::of(&back, environment)),
            text
        );
    }
}
