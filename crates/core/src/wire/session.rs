//! One run, from its start to its end, as both adapters walk it: the run
//! id and the seed, the schedule and what to send next, the time left,
//! pause, resume and stop with the run's status, and picking a run up
//! again from the samples stored of it (the page after a reload, the
//! runner after a kill).
//!
//! The page and the runner only sleep, send, store and show, through one
//! loop ([`crate::wire::run_loop`]): it asks [`RunSession::next`] what to
//! do at "now", tells the session when a request went out
//! ([`RunSession::mark_sent`]) and hands it each finished request's sample
//! ([`RunSession::on_sample`]), whose [`Step`] says what to store, the
//! progress, the time left and whether the run goes on. So the same run
//! has the same id rule, the same schedule and the same time left in both,
//! and a rule that looks at what a request measured has one place: here.
//!
//! No I/O and no clock: every instant is an epoch millisecond passed in.
//! The session is not a stored document; the page's stored run record and
//! the runner's journal header are (`documents::run`, the runner's
//! journal), and a session is built from them and written back to them.

use serde::{Deserialize, Serialize};

use crate::planning::plan::Plan;
use crate::planning::prompt::request_nonce;
use crate::planning::schedule::{Next, PlannedRequest, Runner, RunnerError, Schedule};
use crate::wire::questions::Questions;
use crate::wire::sample::Sample;

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

    /// The run is going or paused: it has requests left to send.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn is_open(self) -> bool {
        matches!(self, Self::Running | Self::Paused)
    }
}

/// The pace of this stretch of sending, for the time left: the schedule
/// alone says 0 s once requests take longer than the spacing (one is in
/// flight at a time), so how fast samples actually came counts too.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Pace {
    /// When the stretch's first request was sent (epoch ms); `None` until
    /// then, and again after a pause, so a pause's length does not slow
    /// the pace.
    since_ms: Option<f64>,
    /// Samples done since `since_ms`.
    samples: u32,
    /// Milliseconds a request, as of the last sample done; `None` before
    /// the first.
    per_request_ms: Option<f64>,
    /// A pause came: the next send starts a new stretch.
    restart: bool,
}

/// What a finished request leaves for the adapter to store and show
/// ([`RunSession::on_sample`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// `(done, total)` requests, warm-ups included.
    pub progress: (usize, usize),
    /// Milliseconds left ([`RunSession::time_left_ms`]).
    pub time_left_ms: f64,
    /// How much later than its estimate the run is ([`RunSession::late_ms`]).
    pub late_ms: f64,
    /// How far overruns moved the schedule, in all, ms.
    pub schedule_shift_ms: f64,
    /// The status to store with this sample, once per change
    /// ([`RunSession::status_to_store`]); `None`: the stored one holds.
    pub store_status: Option<RunStatus>,
    /// Why the session refused the sample, which stopped the run (a bug
    /// between the loop and the session, said, never dropped); `None` when
    /// it took it.
    pub refused: Option<RunnerError>,
}

/// A run in progress: its id, seed, schedule, status and pace.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSession {
    run_id: String,
    plan: Plan,
    started_at_ms: f64,
    seed: u64,
    status: RunStatus,
    runner: Runner,
    pace: Pace,
    /// The status the adapter last stored (see [`RunSession::status_to_store`]).
    stored_status: Option<RunStatus>,
    /// The plan's questions, with `until_decided` ([`Questions`]).
    questions: Option<Questions>,
    /// The targets whose questions are decided and which stopped sending,
    /// in the order they stopped (rebuilt by [`RunSession::replay`]).
    stopped_targets: Vec<u32>,
}

impl RunSession {
    /// A new run of `plan` starting at `now_ms` (epoch ms).
    ///
    /// The run id is `run-<epoch ms>` and the seed the start instant's
    /// bits: each run jitters differently, and both are stored, so a
    /// resumed run continues the same schedule and keeps its nonces.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn start(plan: Plan, now_ms: f64) -> Self {
        let seed = now_ms.to_bits();
        let run_id = format!("run-{}", now_ms as u64);
        Self::rebuild(plan, run_id, now_ms, seed)
    }

    /// The run `run_id` of `plan`, started at `started_at_ms` with `seed`,
    /// at its start again: the same plan, start and seed give the same
    /// schedule. The runner's journal header holds these; its samples then
    /// go to [`RunSession::resume`].
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn rebuild(plan: Plan, run_id: String, started_at_ms: f64, seed: u64) -> Self {
        let runner = Runner::new(Schedule::new(&plan, started_at_ms, seed));
        Self::stored(
            plan,
            run_id,
            started_at_ms,
            seed,
            RunStatus::Running,
            runner,
        )
    }

    /// A session from a stored run: its scheduler as stored and the status
    /// it had (the page's run record holds these).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn stored(
        plan: Plan,
        run_id: String,
        started_at_ms: f64,
        seed: u64,
        status: RunStatus,
        runner: Runner,
    ) -> Self {
        Self {
            run_id,
            started_at_ms,
            seed,
            status,
            runner,
            pace: Pace::default(),
            stored_status: None,
            questions: Questions::of(&plan),
            stopped_targets: Vec::new(),
            plan,
        }
    }

    /// Picks the run up at `now_ms` after a reload or a kill: `done` holds
    /// the `(target, seq)` of every sample stored of it, in any order.
    /// Those are not sent again; the rest, the request that was in flight
    /// included (its sample was never stored), are re-planned from `now_ms`
    /// (see [`Runner::resume_after_reload`]). Resuming means going on: a
    /// run stored while paused runs again. A stopped or finished run stays
    /// as it was.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn resume(&mut self, done: &[(u32, u32)], now_ms: f64) {
        self.runner.resume_after_reload(done, now_ms);
        self.pace = Pace::default();
        if self.status.is_open() {
            self.runner.resume(now_ms);
            self.status = RunStatus::Running;
        }
    }

    /// What to do at `now_ms` (epoch ms): send a request now, wait until a
    /// time, wait for the request in flight, wait while paused, or end.
    /// When nothing is left, a running run is finished from here on.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn next(&mut self, now_ms: f64) -> Next {
        let next = self.runner.next(now_ms);
        if next == Next::Finished && self.status == RunStatus::Running {
            self.status = RunStatus::Finished;
        }
        next
    }

    /// The request `planned` (just returned by [`RunSession::next`]) went
    /// out at `now_ms`.
    ///
    /// # Errors
    /// [`RunnerError`] when it is not the request due (the session is then
    /// unchanged).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn mark_sent(&mut self, planned: &PlannedRequest, now_ms: f64) -> Result<(), RunnerError> {
        self.runner.mark_sent(planned.index, now_ms)?;
        if self.pace.since_ms.is_none() || self.pace.restart {
            self.pace = Pace {
                since_ms: Some(now_ms),
                samples: 0,
                restart: false,
                per_request_ms: self.pace.per_request_ms,
            };
        }
        Ok(())
    }

    /// The request in flight ended at `now_ms` with `sample` (measured, an
    /// error or aborted): its end moves the rest of the schedule when it
    /// overran and sets the pace for [`RunSession::time_left_ms`]; the
    /// [`Step`] says what the adapter stores and shows, and whether the run
    /// goes on. A sample that is not of the request in flight is a bug
    /// between the loop and the session: the schedule is left as it was,
    /// the run stops, and the step says why ([`Step::refused`]); the sample
    /// is still the adapter's to keep.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn on_sample(&mut self, sample: &Sample, now_ms: f64) -> Step {
        let in_flight = self
            .runner
            .in_flight_request()
            .filter(|r| (r.target, r.seq, r.warmup) == (sample.target, sample.seq, sample.warmup))
            .map(|r| r.index);
        let refused = match in_flight {
            Some(index) => self.runner.mark_done(index, now_ms).err(),
            None => Some(RunnerError::SampleNotInFlight {
                target: sample.target,
                seq: sample.seq,
            }),
        };
        if refused.is_some() {
            self.stop();
        } else {
            if let Some(since_ms) = self.pace.since_ms {
                self.pace.samples = self.pace.samples.saturating_add(1);
                self.pace.per_request_ms = Some((now_ms - since_ms) / f64::from(self.pace.samples));
            }
            if let Some(questions) = &mut self.questions {
                questions.push(sample);
            }
            self.settle();
        }
        Step {
            progress: self.progress(),
            time_left_ms: self.time_left_ms(now_ms),
            late_ms: self.late_ms(),
            schedule_shift_ms: self.schedule_shift_ms(),
            store_status: self.status_to_store(),
            refused,
        }
    }

    /// Takes the samples stored of a run being resumed into the plan's
    /// questions (in their order, as they came): the targets whose
    /// questions they decide stop again, their requests left dropped as
    /// when they were decided, and the run is finished if every question
    /// was. Nothing to do for a plan without `until_decided`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn replay(&mut self, samples: &[Sample]) {
        if self.questions.is_some() {
            self.questions = Questions::replayed(&self.plan, samples);
            self.stopped_targets.clear();
            self.settle();
        }
    }

    /// A running or paused run whose questions are all decided, with every
    /// target at its floor, is finished: nothing more is sent. Before
    /// that, a target whose own questions are decided and which has its
    /// floor stops: its requests left are dropped and the others move up
    /// ([`Runner::drop_target`]).
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn settle(&mut self) {
        let Some(questions) = &self.questions else {
            return;
        };
        if !self.status.is_open() {
            return;
        }
        let floor = self.plan.decided_floor();
        // Decided; or nothing left to learn, every open pair being of two
        // targets that never answered (the end says so, "not decided").
        if (questions.all_decided() && questions.every_target_has(floor))
            || questions.only_the_unanswered_left(floor)
        {
            self.runner.stop();
            self.status = RunStatus::Finished;
            return;
        }
        for target in 0..questions.targets() {
            if !self.stopped_targets.contains(&target) && questions.may_stop(target, floor) {
                self.stopped_targets.push(target);
                self.runner.drop_target(target);
            }
        }
    }

    /// The targets that stopped sending because their questions are
    /// decided, in the order they stopped; empty without `until_decided`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn stopped_targets(&self) -> &[u32] {
        &self.stopped_targets
    }

    /// The plan's questions so far, with `until_decided`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn questions(&self) -> Option<&Questions> {
        self.questions.as_ref()
    }

    /// Pauses at `now_ms`: the request in flight finishes, nothing follows
    /// until [`RunSession::unpause`]. Only a running run pauses.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn pause(&mut self, now_ms: f64) {
        if self.status == RunStatus::Running {
            self.runner.pause(now_ms);
            self.status = RunStatus::Paused;
            self.pace.restart = true;
        }
    }

    /// Goes on at `now_ms` after a pause, keeping the time left to each
    /// send what it was when the run paused. Only a paused run goes on.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn unpause(&mut self, now_ms: f64) {
        if self.status == RunStatus::Paused {
            self.runner.resume(now_ms);
            self.status = RunStatus::Running;
        }
    }

    /// Stops the run for good: nothing more is sent, and a request in
    /// flight may still be marked done (the adapter aborts it). A finished
    /// run stays finished.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn stop(&mut self) {
        if self.status.is_open() {
            self.runner.stop();
            self.status = RunStatus::Stopped;
        }
    }

    /// Milliseconds left at `now_ms`, the one rule both adapters show: the
    /// later of the schedule's own estimate (until the last request is due
    /// to be sent, [`Runner::eta_ms`]) and this stretch's pace (the time a
    /// request took, on average, since the first send after the start, a
    /// resume or a pause) times the requests left, the one in flight
    /// included. 0 once the run is over.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn time_left_ms(&self, now_ms: f64) -> f64 {
        if !self.status.is_open() {
            return 0.0;
        }
        let (done, total) = self.runner.progress();
        let left = total.saturating_sub(done) as f64;
        let paced_ms = self.pace.per_request_ms.map_or(0.0, |pace| pace * left);
        self.runner.eta_ms(now_ms).max(paced_ms)
    }

    /// The status the adapter should store now, once: `Some` when it
    /// changed since the last call. The stored record (the plan and the
    /// whole schedule, about 90 bytes a request) is rewritten when the
    /// status changes, not after every sample; resuming rebuilds the rest
    /// from the stored samples.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn status_to_store(&mut self) -> Option<RunStatus> {
        if self.stored_status == Some(self.status) {
            return None;
        }
        self.stored_status = Some(self.status);
        Some(self.status)
    }

    /// The nonce `planned` carries when the plan asks for one (made from
    /// the run id, so a resumed run keeps them distinct).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn nonce(&self, planned: &PlannedRequest) -> Option<String> {
        self.plan
            .nonce
            .then(|| request_nonce(&self.run_id, planned.target, planned.nonce_seq()))
    }

    /// The run's id.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    /// The plan being run.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// When the run started (epoch ms): its schedule's start.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn started_at_ms(&self) -> f64 {
        self.started_at_ms
    }

    /// The seed of the schedule's jitter and of the demo provider.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Where the run stands.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn status(&self) -> RunStatus {
        self.status
    }

    /// The scheduler (for storing it, and for what is left to send).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn runner(&self) -> &Runner {
        &self.runner
    }

    /// `(done, total)` requests, warm-ups included.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn progress(&self) -> (usize, usize) {
        self.runner.progress()
    }

    /// How far overruns moved the schedule later, in all, ms.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn schedule_shift_ms(&self) -> f64 {
        self.runner.schedule_shift_ms()
    }

    /// How much later than the plan's estimate the run stands, ms: the
    /// schedule's shift less what the estimate already counted for the
    /// requests done ([`Plan::estimated_duration_s`] counts the demo's
    /// replies at their mean length, so a demo run on its estimate is not
    /// "2 min later than planned"). This is what "later than planned"
    /// says; the stored shift stays the schedule's own.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn late_ms(&self) -> f64 {
        let (done, _) = self.progress();
        let spacing_s = self.plan.effective_spacing_s();
        let targets = self.plan.targets.len().max(1) as f64;
        let expected_extra_ms = self
            .plan
            .targets
            .iter()
            .map(|t| {
                crate::planning::plan::expected_request_s(t)
                    .map_or(0.0, |s| (s - spacing_s).max(0.0))
            })
            .sum::<f64>()
            * 1000.0
            / targets;
        (self.schedule_shift_ms() - done as f64 * expected_extra_ms).max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::document;
    use crate::planning::plan::Target;
    use crate::statistics::sequential::Decision;
    use crate::testing::fixtures::planned_sample;

    const START_MS: f64 = 1_700_000_000_123.75;

    fn plan(targets: usize, requests: u32, spacing_s: f64) -> Plan {
        Plan {
            targets: (0..targets)
                .map(|i| Target::demo(&format!("t{i}"), "m"))
                .collect(),
            requests_per_target: requests,
            warmup_per_target: 0,
            spacing_s,
            jitter_s: 0.0,
            ..Plan::default()
        }
    }

    /// Sends what is due at `now_ms`, taking `took_ms`; the request sent.
    fn send(session: &mut RunSession, now_ms: f64, took_ms: f64) -> PlannedRequest {
        let Next::SendNow(planned) = session.next(now_ms) else {
            panic!("nothing due at {now_ms}: {:?}", session.next(now_ms));
        };
        session.mark_sent(&planned, now_ms).unwrap();
        assert_eq!(
            session
                .on_sample(&planned_sample(&planned), now_ms + took_ms)
                .refused,
            None
        );
        planned
    }

    /// "Later than planned" is against the estimate the plan gave: demo
    /// replies of their expected length move the schedule (they outlast
    /// the spacing) but leave the run on its estimate, so it is not late;
    /// replies 300 ms longer than that make it late by 300 ms each.
    #[test]
    fn late_is_against_the_estimate_not_the_spacing() {
        let mut demo = plan(2, 10, 0.25);
        for target in &mut demo.targets {
            target.base_url = "demo://steady".into();
        }
        let expected_ms =
            crate::planning::plan::expected_request_s(&demo.targets[0]).unwrap() * 1000.0;
        for (took_ms, late_ms) in [(expected_ms, 0.0), (expected_ms + 300.0, 20.0 * 300.0)] {
            let mut session = RunSession::start(demo.clone(), START_MS);
            let mut now = START_MS;
            loop {
                match session.next(now) {
                    Next::SendNow(_) => {
                        send(&mut session, now, took_ms);
                        now += took_ms;
                    }
                    Next::WaitUntil(at, _) => now = at,
                    Next::Finished => break,
                    other => panic!("unexpected {other:?}"),
                }
            }
            assert!(session.schedule_shift_ms() > 5_000.0, "the schedule moved");
            // The last request's overrun moves nothing after it.
            let allowed = expected_ms + 300.0;
            assert!(
                (session.late_ms() - late_ms).abs() <= allowed,
                "{took_ms} ms a reply: {} ms late, not {late_ms}",
                session.late_ms()
            );
            let estimate_ms = demo.estimated_duration_s() * 1000.0;
            let ended_ms = now - START_MS;
            assert!(
                (ended_ms - estimate_ms - late_ms).abs() <= allowed,
                "ended {ended_ms} ms after the start, estimate {estimate_ms}"
            );
        }
        // A real provider's request time is not known: late is the shift.
        let mut real = plan(1, 5, 0.25);
        real.targets[0].protocol = crate::planning::plan::Protocol::OpenAi;
        let mut session = RunSession::start(real, START_MS);
        let mut now = START_MS;
        while let Next::SendNow(_) | Next::WaitUntil(..) = session.next(now) {
            match session.next(now) {
                Next::SendNow(_) => {
                    send(&mut session, now, 1_000.0);
                    now += 1_000.0;
                }
                Next::WaitUntil(at, _) => now = at,
                _ => unreachable!(),
            }
        }
        assert_eq!(session.late_ms(), session.schedule_shift_ms());
        assert!(session.late_ms() > 0.0);
    }

    #[test]
    fn a_new_run_takes_its_id_and_seed_from_its_start() {
        let session = RunSession::start(plan(2, 3, 1.0), START_MS);
        assert_eq!(session.run_id(), "run-1700000000123");
        assert_eq!(session.seed(), START_MS.to_bits());
        assert_eq!(session.started_at_ms(), START_MS);
        assert_eq!(session.status(), RunStatus::Running);
        assert_eq!(session.progress(), (0, 6));
        // Another instant, another run and another jitter.
        let later = RunSession::start(plan(2, 3, 1.0), START_MS + 1.0);
        assert_eq!(later.run_id(), "run-1700000000124");
        assert_ne!(later.seed(), session.seed());
        // The same start and seed give the same schedule: a rebuilt run is
        // the run.
        let rebuilt = RunSession::rebuild(
            plan(2, 3, 1.0),
            session.run_id().to_owned(),
            START_MS,
            session.seed(),
        );
        assert_eq!(rebuilt, session);
    }

    #[test]
    fn sends_go_round_robin_at_the_spacing_and_the_run_finishes() {
        let mut session = RunSession::start(plan(2, 2, 1.0), START_MS);
        let mut now = START_MS;
        let mut sent = Vec::new();
        loop {
            match session.next(now) {
                Next::SendNow(_) => {
                    let planned = send(&mut session, now, 100.0);
                    sent.push((planned.target, planned.seq, now - START_MS));
                    now += 100.0;
                }
                Next::WaitUntil(at, _) => now = at,
                Next::Finished => break,
                other => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(
            sent,
            vec![(0, 0, 0.0), (1, 0, 1000.0), (0, 1, 2000.0), (1, 1, 3000.0)]
        );
        assert_eq!(session.status(), RunStatus::Finished);
        assert_eq!(session.time_left_ms(now), 0.0);
    }

    #[test]
    fn resume_skips_stored_samples_and_sends_the_one_in_flight_again() {
        let mut session = RunSession::start(plan(2, 3, 1.0), START_MS);
        send(&mut session, START_MS, 100.0);
        send(&mut session, START_MS + 1000.0, 100.0);
        // Request 2 (target 0, seq 1) is on its way when the page goes
        // away; the record was stored at the start, so it knows nothing of
        // what was sent since.
        let stored = RunSession::start(plan(2, 3, 1.0), START_MS);
        let Next::SendNow(in_flight) = session.next(START_MS + 2000.0) else {
            panic!("request 2 is due");
        };
        session.mark_sent(&in_flight, START_MS + 2000.0).unwrap();
        assert_eq!((in_flight.target, in_flight.seq), (0, 1));

        let mut resumed = stored;
        let now = START_MS + 60_000.0;
        // The stored samples' (target, seq), in any order.
        resumed.resume(&[(1, 0), (0, 0)], now);
        assert_eq!(resumed.progress(), (2, 6));
        assert_eq!(resumed.status(), RunStatus::Running);
        let again = send(&mut resumed, now, 100.0);
        assert_eq!((again.target, again.seq), (0, 1), "the one in flight");
        let mut order = Vec::new();
        let mut at = now + 100.0;
        loop {
            match resumed.next(at) {
                Next::SendNow(_) => {
                    let planned = send(&mut resumed, at, 100.0);
                    order.push((planned.target, planned.seq));
                    at += 100.0;
                }
                Next::WaitUntil(due, _) => at = due,
                Next::Finished => break,
                other => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(
            order,
            vec![(1, 1), (0, 2), (1, 2)],
            "nothing stored is sent twice"
        );
        // The id, the seed and so the nonces are the run's own.
        assert_eq!(resumed.run_id(), session.run_id());
        assert_eq!(resumed.seed(), session.seed());
    }

    #[test]
    fn a_run_stored_while_paused_goes_on_when_resumed_and_a_stopped_one_does_not() {
        let mut paused = RunSession::start(plan(1, 3, 1.0), START_MS);
        send(&mut paused, START_MS, 100.0);
        paused.pause(START_MS + 200.0);
        let now = START_MS + 10_000.0;
        paused.resume(&[(0, 0)], now);
        assert_eq!(paused.status(), RunStatus::Running);
        assert!(matches!(paused.next(now), Next::SendNow(p) if p.seq == 1));

        let mut stopped = RunSession::start(plan(1, 3, 1.0), START_MS);
        send(&mut stopped, START_MS, 100.0);
        stopped.stop();
        stopped.resume(&[(0, 0)], now);
        assert_eq!(stopped.status(), RunStatus::Stopped);
        assert_eq!(stopped.next(now), Next::Finished);
        assert_eq!(stopped.status(), RunStatus::Stopped, "not finished");
    }

    #[test]
    fn pause_holds_the_run_unpause_keeps_the_spacing_and_stop_ends_it() {
        let mut session = RunSession::start(plan(1, 4, 1.0), START_MS);
        let Next::SendNow(first) = session.next(START_MS) else {
            panic!("the first is due at the start");
        };
        session.mark_sent(&first, START_MS).unwrap();
        // Paused with a request in flight: it finishes, nothing follows.
        session.pause(START_MS + 50.0);
        assert_eq!(session.status(), RunStatus::Paused);
        assert_eq!(
            session
                .on_sample(&planned_sample(&first), START_MS + 100.0)
                .refused,
            None
        );
        assert_eq!(session.next(START_MS + 5_000.0), Next::Paused);
        // A pause of a paused run changes nothing; an unpause of a running
        // one neither.
        session.pause(START_MS + 6_000.0);
        session.unpause(START_MS + 10_050.0);
        assert_eq!(session.status(), RunStatus::Running);
        session.unpause(START_MS + 20_000.0);
        // 950 ms were left to the next send when the run paused (due at
        // +1 000, paused at +50); they still are.
        match session.next(START_MS + 10_050.0) {
            Next::WaitUntil(at, planned) => {
                assert_eq!(at, START_MS + 11_000.0);
                assert_eq!(planned.seq, 1);
            }
            other => panic!("unexpected {other:?}"),
        }
        send(&mut session, START_MS + 11_000.0, 100.0);
        // Stopped with a request in flight: it may still end, as aborted.
        let Next::WaitUntil(at, _) = session.next(START_MS + 11_100.0) else {
            panic!("the third waits its turn");
        };
        let Next::SendNow(third) = session.next(at) else {
            panic!("the third is due");
        };
        session.mark_sent(&third, at).unwrap();
        session.stop();
        assert_eq!(session.status(), RunStatus::Stopped);
        assert_eq!(
            session
                .on_sample(&planned_sample(&third), at + 10.0)
                .refused,
            None
        );
        assert_eq!(session.next(at + 10.0), Next::Finished);
        assert_eq!(
            session.status(),
            RunStatus::Stopped,
            "stopped, not finished"
        );
        assert_eq!(session.progress(), (3, 4));
        assert_eq!(session.time_left_ms(at + 10.0), 0.0);
        // Nothing moves a stopped run: not a pause, not an unpause.
        session.pause(at + 20.0);
        session.unpause(at + 30.0);
        assert_eq!(session.status(), RunStatus::Stopped);
    }

    /// The worked example of the one rule: 10 requests 1 s apart, each
    /// taking 3 s. After the first, the schedule (moved by the overrun,
    /// request 1 now at +3 s, request 9 at +11 s) says 8 s are left; the
    /// pace says 3 s a request × 9 left = 27 s; the time left is the
    /// later, 27 s. Both adapters show this figure.
    #[test]
    fn time_left_is_the_later_of_the_schedule_and_the_pace() {
        let mut session = RunSession::start(plan(1, 10, 1.0), START_MS);
        assert_eq!(
            session.time_left_ms(START_MS),
            9_000.0,
            "the schedule alone"
        );
        send(&mut session, START_MS, 3_000.0);
        let now = START_MS + 3_000.0;
        assert_eq!(session.runner().eta_ms(now), 8_000.0);
        assert_eq!(session.time_left_ms(now), 27_000.0);

        // Fast requests: the schedule's spacing is what takes the time.
        let mut fast = RunSession::start(plan(1, 10, 1.0), START_MS);
        send(&mut fast, START_MS, 100.0);
        assert_eq!(
            fast.time_left_ms(START_MS + 100.0),
            8_900.0,
            "the last send is at +9 s"
        );

        // A pause does not slow the pace: the next stretch starts afresh.
        session.pause(now);
        session.unpause(now + 600_000.0);
        let Next::SendNow(_) = session.next(now + 600_000.0) else {
            panic!("overdue after the pause");
        };
        send(&mut session, now + 600_000.0, 1_000.0);
        let after = now + 601_000.0;
        let schedule = session.runner().eta_ms(after);
        assert_eq!(session.time_left_ms(after), schedule.max(1_000.0 * 8.0));
        assert!(session.time_left_ms(after) < 27_000.0);
    }

    #[test]
    fn the_status_is_stored_once_per_change() {
        let mut session = RunSession::start(plan(1, 3, 1.0), START_MS);
        assert_eq!(session.status_to_store(), Some(RunStatus::Running));
        assert_eq!(session.status_to_store(), None);
        session.pause(START_MS);
        session.unpause(START_MS + 1.0);
        assert_eq!(session.status_to_store(), None, "back where it was stored");
        session.stop();
        assert_eq!(session.status_to_store(), Some(RunStatus::Stopped));
        assert_eq!(session.status_to_store(), None);
    }

    #[test]
    fn nonces_come_from_the_run_id_when_the_plan_asks() {
        let mut with = plan(1, 2, 1.0);
        with.nonce = true;
        let session = RunSession::start(with, START_MS);
        let first = session.runner().remaining()[0];
        assert_eq!(
            session.nonce(&first),
            Some(request_nonce("run-1700000000123", 0, 0))
        );
        let without = RunSession::start(plan(1, 2, 1.0), START_MS);
        assert_eq!(without.nonce(&first), None);
    }

    /// A sample that is not of the request in flight is refused: the
    /// schedule stays as it was, the run stops and the step says why.
    #[test]
    fn a_sample_not_of_the_request_in_flight_is_refused_and_stops_the_run() {
        let mut session = RunSession::start(plan(2, 3, 1.0), START_MS);
        let Next::SendNow(first) = session.next(START_MS) else {
            panic!("the first request is due at the start");
        };
        session.mark_sent(&first, START_MS).unwrap();
        let mut other = planned_sample(&first);
        other.target += 1;
        let step = session.on_sample(&other, START_MS + 100.0);
        assert_eq!(
            step.refused,
            Some(RunnerError::SampleNotInFlight {
                target: other.target,
                seq: other.seq
            })
        );
        assert_eq!(step.progress, (0, 6));
        assert_eq!(session.status(), RunStatus::Stopped);
        assert_eq!(session.runner().in_flight_request(), Some(&first));
    }

    /// A plan run until decided finishes once its question is decided and
    /// every target has its floor: two targets three times apart, a floor
    /// of 20, a cap of 200. The same samples replayed into a resumed
    /// session finish it at once; a plan without `until_decided` sends all.
    #[test]
    fn a_run_until_decided_finishes_at_its_floor_once_decided() {
        let mut decided_plan = plan(2, 200, 1.0);
        decided_plan.until_decided = true;
        decided_plan.min_requests_per_target = Some(20);
        let mut session = RunSession::start(decided_plan.clone(), START_MS);
        let mut samples = Vec::new();
        let mut now = START_MS;
        while let Next::SendNow(planned) | Next::WaitUntil(_, planned) = session.next(now) {
            now = now.max(planned.planned_at_ms);
            session.mark_sent(&planned, now).unwrap();
            let mut sample = planned_sample(&planned);
            sample.ttft_ms = Some(if planned.target == 0 { 100.0 } else { 300.0 });
            now += 10.0;
            let step = session.on_sample(&sample, now);
            assert_eq!(step.refused, None);
            samples.push(sample);
        }
        assert_eq!(session.status(), RunStatus::Finished);
        assert_eq!(samples.len(), 40, "20 per target, then decided");
        assert!(session.questions().unwrap().all_decided());
        assert_eq!(session.time_left_ms(now), 0.0);

        let mut resumed = RunSession::rebuild(decided_plan, "run-1".into(), START_MS, 7);
        let done: Vec<(u32, u32)> = samples.iter().map(|s| (s.target, s.seq)).collect();
        resumed.resume(&done, now);
        resumed.replay(&samples);
        assert_eq!(resumed.status(), RunStatus::Finished);
        assert_eq!(resumed.next(now), Next::Finished);

        let mut plain = RunSession::start(plan(2, 30, 1.0), START_MS);
        plain.replay(&samples);
        assert_eq!(plain.status(), RunStatus::Running);
        assert!(plain.questions().is_none());
    }

    /// Two targets that never answer (a server down, a key refused) leave
    /// nothing to learn: a pair in which both failed is no evidence, so
    /// their question could never be decided, and the run finishes at the
    /// floor instead of sending every request of the cap; it ends "not
    /// decided", saying neither answered. One that answers beside one that
    /// does not is decided as before.
    #[test]
    fn a_run_until_decided_where_no_target_answers_ends_at_its_floor() {
        let mut decided_plan = plan(2, 200, 1.0);
        decided_plan.until_decided = true;
        decided_plan.min_requests_per_target = Some(20);
        let mut session = RunSession::start(decided_plan.clone(), START_MS);
        let (samples, _, _) = drive(&mut session, START_MS, |_, _| None, 1_000);
        assert_eq!(session.status(), RunStatus::Finished);
        assert_eq!(samples.iter().filter(|s| !s.warmup).count(), 40, "20 each");
        let questions = session.questions().unwrap();
        assert!(!questions.all_decided());
        let text = crate::narrative::ending::until_decided_text(
            crate::base::lang::Lang::En,
            &decided_plan,
            &samples,
        )
        .unwrap();
        assert!(
            text.starts_with(
                "not decided after 20 requests per target: t0 and t1: neither answered a request"
            ),
            "{text}"
        );

        let mut session = RunSession::start(decided_plan, START_MS);
        let (samples, _, _) = drive(
            &mut session,
            START_MS,
            |target, _| (target == 1).then_some(300.0),
            1_000,
        );
        assert_eq!(session.status(), RunStatus::Finished);
        assert_eq!(samples.iter().filter(|s| !s.warmup).count(), 40);
        let questions = session.questions().unwrap();
        assert_eq!(
            questions.decision(&questions.pairs[0]),
            crate::statistics::sequential::Decision::Second
        );
    }

    /// Drives `session` from `now_ms`, each request taking 10 ms with the
    /// TTFT `ttft(target, seq)`, until it finishes or `limit` samples were
    /// taken; the samples and each one's send time, and the time reached.
    fn drive(
        session: &mut RunSession,
        mut now_ms: f64,
        ttft: impl Fn(u32, u32) -> Option<f64>,
        limit: usize,
    ) -> (Vec<Sample>, Vec<f64>, f64) {
        let (mut samples, mut sent) = (Vec::new(), Vec::new());
        while samples.len() < limit {
            let (Next::SendNow(planned) | Next::WaitUntil(_, planned)) = session.next(now_ms)
            else {
                break;
            };
            now_ms = now_ms.max(planned.planned_at_ms);
            session.mark_sent(&planned, now_ms).unwrap();
            sent.push(now_ms);
            let mut sample = planned_sample(&planned);
            sample.ttft_ms = ttft(planned.target, planned.seq);
            if sample.ttft_ms.is_none() {
                sample.error = Some(crate::base::failure::SampleError {
                    kind: crate::base::failure::ErrorKind::HttpStatus,
                    phase: crate::base::failure::Phase::Request,
                    message: "503".into(),
                });
            }
            now_ms += 10.0;
            assert_eq!(session.on_sample(&sample, now_ms).refused, None);
            samples.push(sample);
        }
        (samples, sent, now_ms)
    }

    /// Target 0 three times as fast as the other two, which take turns
    /// being faster (so they are never told apart).
    fn one_fast_two_alike(target: u32, seq: u32) -> Option<f64> {
        Some(match (target, seq % 2) {
            (0, _) => 100.0,
            (1, 0) | (2, 1) => 300.0,
            _ => 330.0,
        })
    }

    fn count(samples: &[Sample], target: u32) -> usize {
        samples.iter().filter(|s| s.target == target).count()
    }

    /// A target whose questions are decided stops at its floor, its
    /// requests left dropped: the others send on at the plan's spacing,
    /// without waiting through its places, to the cap. A run killed after
    /// the stop and resumed from its stored samples drops the same target
    /// and sends exactly what the uninterrupted run sent.
    #[test]
    fn a_decided_target_stops_at_its_floor_and_a_resumed_run_stops_it_again() {
        let mut decided_plan = plan(3, 60, 1.0);
        decided_plan.until_decided = true;
        decided_plan.min_requests_per_target = Some(20);
        let mut session = RunSession::start(decided_plan.clone(), START_MS);
        let (samples, sent, _) = drive(&mut session, START_MS, one_fast_two_alike, usize::MAX);
        assert_eq!(session.status(), RunStatus::Finished);
        assert_eq!(
            [count(&samples, 0), count(&samples, 1), count(&samples, 2)],
            [20, 60, 60]
        );
        assert_eq!(session.stopped_targets(), [0]);
        assert_eq!(
            session.progress(),
            (140, 140),
            "the total shrank with the drop"
        );
        let questions = session.questions().unwrap();
        assert!(questions.target_decided(0) && !questions.all_decided());
        // After target 0's last request, every send is one spacing after
        // the one before: none of its 40 places is waited through.
        let last_of_0 = samples.iter().rposition(|s| s.target == 0).unwrap();
        assert!(
            sent[last_of_0 + 1..]
                .windows(2)
                .all(|pair| pair[1] - pair[0] == 1000.0),
            "{:?}",
            &sent[last_of_0..last_of_0 + 6]
        );
        assert!(sent.last().unwrap() - START_MS <= 140.0 * 1000.0);

        // Killed after 80 samples (target 0 stopped after its 20th, the
        // run's 58th), resumed an hour later from the stored samples.
        let mut live = RunSession::start(decided_plan.clone(), START_MS);
        let (stored, _, at) = drive(&mut live, START_MS, one_fast_two_alike, 80);
        assert_eq!(live.stopped_targets(), [0]);
        let mut resumed =
            RunSession::rebuild(decided_plan, live.run_id().into(), START_MS, live.seed());
        let done: Vec<(u32, u32)> = stored.iter().map(|s| (s.target, s.seq)).collect();
        let later = at + 3_600_000.0;
        resumed.resume(&done, later);
        resumed.replay(&stored);
        assert_eq!(resumed.stopped_targets(), [0]);
        assert_eq!(resumed.progress(), live.progress());
        let left = |session: &RunSession| -> Vec<(u32, u32)> {
            session
                .runner()
                .remaining()
                .iter()
                .map(|r| (r.target, r.seq))
                .collect()
        };
        assert_eq!(left(&resumed), left(&live));
        assert_eq!(resumed.questions(), live.questions());
        let (rest, ..) = drive(&mut resumed, later, one_fast_two_alike, usize::MAX);
        let whole: Vec<(u32, u32)> = stored
            .iter()
            .chain(&rest)
            .map(|s| (s.target, s.seq))
            .collect();
        let uninterrupted: Vec<(u32, u32)> = samples.iter().map(|s| (s.target, s.seq)).collect();
        assert_eq!(whole, uninterrupted);
        assert_eq!(resumed.status(), RunStatus::Finished);
    }

    /// With an objective, a target that meets it (and is told apart from
    /// the other) stops; the other, at the objective's bound, runs on to
    /// the cap.
    #[test]
    fn a_target_that_meets_its_objective_stops_and_one_at_its_bound_runs_on() {
        let mut decided_plan = plan(2, 400, 1.0);
        decided_plan.until_decided = true;
        decided_plan.min_requests_per_target = Some(20);
        decided_plan.objectives = vec!["p95>2s".into(), "error_rate>2%".into()];
        let mut session = RunSession::start(decided_plan, START_MS);
        let ttft = |target: u32, seq: u32| {
            Some(match target {
                0 => 300.0,
                _ if seq.is_multiple_of(20) => 2100.0,
                _ => 1900.0,
            })
        };
        let (samples, ..) = drive(&mut session, START_MS, ttft, usize::MAX);
        let stopped_at = count(&samples, 0);
        assert!((100..=200).contains(&stopped_at), "{stopped_at}");
        assert_eq!(count(&samples, 1), 400);
        assert_eq!(session.stopped_targets(), [0]);
        let questions = session.questions().unwrap();
        let decisions: Vec<Decision> = questions
            .objectives
            .iter()
            .map(|q| questions.objective_decision(q))
            .collect();
        assert_eq!(decisions, [Decision::First, Decision::Open]);
    }

    /// A plan without `until_decided` runs as it always did, objectives or
    /// not: every request of its schedule, in order, at its planned time.
    #[test]
    fn a_plan_without_until_decided_sends_its_whole_schedule_as_before() {
        let mut plain = plan(3, 30, 1.0);
        plain.jitter_s = 0.2;
        let mut with_objectives = plain.clone();
        with_objectives.objectives = vec!["p95>2s".into()];
        let schedule = Schedule::new(&plain, START_MS, START_MS.to_bits());
        let planned: Vec<(u32, u32, f64)> = schedule
            .requests
            .iter()
            .map(|r| (r.target, r.seq, r.planned_at_ms))
            .collect();
        for plan in [plain, with_objectives] {
            let mut session = RunSession::start(plan, START_MS);
            assert!(session.questions().is_none());
            let (samples, sent, _) = drive(&mut session, START_MS, one_fast_two_alike, usize::MAX);
            let made: Vec<(u32, u32, f64)> = samples
                .iter()
                .zip(&sent)
                .map(|(s, &at)| (s.target, s.seq, at))
                .collect();
            assert_eq!(made, planned);
            assert!(session.stopped_targets().is_empty());
            assert_eq!(session.status(), RunStatus::Finished);
        }
    }

    #[test]
    fn statuses_are_written_by_their_names() {
        for status in RunStatus::ALL {
            let text = document::to_string(&status);
            assert_eq!(text, format!("\"{}\"", status.as_str()));
            assert_eq!(document::from_str::<RunStatus>(&text).unwrap(), status);
        }
    }
}
