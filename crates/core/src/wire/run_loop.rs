//! The one run loop, which the page and the runner both drive: it asks the
//! session what to do, waits, builds each request, sends it through the
//! adapter, makes its sample, redacts every key from it, hands it to the
//! session, stores it and shows it. Scheduling, pacing, resume, stop,
//! redaction and the time left exist here once; an adapter only answers
//! the few questions of [`RunAdapter`] (the clock, a wait, a send, storage
//! and the screen).
//!
//! ```text
//!        ┌──────────── RunSession::next(now) ◀──────────────┐
//!        │                                                  │
//!   WaitUntil / Paused ─▶ adapter.sleep_until ──────────────┤
//!   SendNow ─▶ mark_sent ─▶ adapter.send ─▶ Sample ─▶ redact │
//!        └─▶ on_sample(sample, now) ─▶ Step ─▶ store ─▶ show ┘
//!   Finished (or stopped) ─▶ Ended
//! ```
//!
//! No clock, no network and no storage of its own: the adapter's. So the
//! native tests drive a run of 10 000 requests with a fake adapter and a
//! fake clock in a fraction of a second.

use crate::planning::plan::Target;
use crate::planning::schedule::{Next, PlannedRequest, RunnerError};
use crate::wire::measure::Outcome;
use crate::wire::protocol::{HttpRequest, build_planned_request};
use crate::wire::sample::Sample;
use crate::wire::session::{RunSession, Step};

/// Longest single wait, ms: the loop wakes this often to notice pause,
/// stop and what else its adapter watches (a hidden tab).
pub const WAKE_EVERY_MS: f64 = 250.0;

/// One request on its way out: what the adapter needs to send it.
#[derive(Clone, Debug, PartialEq)]
pub struct Sending {
    /// The planned request.
    pub planned: PlannedRequest,
    /// Its target.
    pub target: Target,
    /// The request, its key in place.
    pub request: HttpRequest,
    /// A reasoning delta counts as the first token (the plan's rule).
    pub reasoning_counts_as_first_token: bool,
    /// The plan's timeout, seconds.
    pub timeout_s: f64,
    /// The run's seed (the demo provider's too).
    pub seed: u64,
    /// When it went out (epoch ms, the adapter's clock).
    pub sent_at_ms: f64,
}

/// What the loop needs from the place it runs in: the page (a browser tab)
/// or the runner (a process). The session is the adapter's to hold, as the
/// page's buttons act on it between the loop's awaits.
#[expect(
    async_fn_in_trait,
    reason = "both adapters drive the loop on one thread and await it there; no future is sent"
)]
pub trait RunAdapter {
    /// Acts on the run's session, or `None` when the run is gone (the page
    /// dropped it): the loop then ends at once. An adapter that watches a
    /// stop signal applies it here, before `act`.
    fn session<R>(&mut self, act: impl FnOnce(&mut RunSession) -> R) -> Option<R>;

    /// Now, epoch ms, on the clock the run is timed by.
    fn now_ms(&self) -> f64;

    /// Waits until `at_ms` (at most [`WAKE_EVERY_MS`] later than asked);
    /// it may end sooner (a stop), and the loop asks the session again.
    async fn sleep_until(&mut self, at_ms: f64);

    /// The key for target `index` (`target`), if it takes one.
    fn key(&self, index: u32, target: &Target) -> Option<String>;

    /// Every key the run holds: a reply may quote any of them, and each is
    /// redacted from every sample ([`Sample::redact_keys`], one rule).
    fn keys(&self) -> Vec<String>;

    /// Sends one request and measures it.
    async fn send(&mut self, sending: &Sending) -> Outcome;

    /// Adds what only this adapter knows to a request's sample (the tab
    /// was hidden, the connection the runner used); before redaction.
    fn annotate(&mut self, sample: &mut Sample);

    /// Stores a finished sample (and the run's status when the step says
    /// so), before it is shown.
    ///
    /// # Errors
    /// A failure that must stop the run (the runner's journal); the run
    /// then ends with [`Halt::NotStored`]. A failure the run can go on
    /// after (the page's storage) is the adapter's to say, and `Ok`.
    async fn store(&mut self, sample: &Sample, step: &Step) -> Result<(), String>;

    /// Shows a finished sample with where the run stands.
    fn show(&mut self, sample: Sample, step: &Step);
}

/// Why a run ended before its plan did, other than a stop.
#[derive(Clone, Debug, PartialEq)]
pub enum Halt {
    /// The loop and the session disagreed (a bug): said, never dropped.
    Disagreed(RunnerError),
    /// A sample could not be stored where the run must keep it.
    NotStored(String),
}

/// How the loop ended: the session holds the status (finished or
/// stopped); `halt` says when something other than the plan or the person
/// ended it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ended {
    /// What stopped the run, if not its plan or the person.
    pub halt: Option<Halt>,
}

/// Runs the adapter's session to its end: every request it plans, one at a
/// time, until it is finished, stopped or gone.
#[cfg_attr(target_arch = "wasm32", inline)]
pub async fn run<A: RunAdapter>(adapter: &mut A) -> Ended {
    let mut halt = None;
    loop {
        let now = adapter.now_ms();
        let Some(next) = adapter.session(|session| session.next(now)) else {
            break;
        };
        let planned = match next {
            Next::Finished => break,
            Next::Paused | Next::InFlight => {
                adapter.sleep_until(now + WAKE_EVERY_MS).await;
                continue;
            }
            Next::WaitUntil(at_ms, _) => {
                adapter.sleep_until(at_ms.min(now + WAKE_EVERY_MS)).await;
                continue;
            }
            Next::SendNow(planned) => planned,
        };
        match turn(adapter, &planned).await {
            Ok(None) => {}
            Ok(Some(stop)) | Err(stop) => {
                adapter.session(RunSession::stop);
                halt = Some(stop);
            }
        }
    }
    Ended { halt }
}

/// Sends `planned`, and stores and shows its sample; `Ok(Some(halt))` when
/// the sample was kept but the run must go no further, `Err` when nothing
/// was sent.
#[cfg_attr(target_arch = "wasm32", inline)]
async fn turn<A: RunAdapter>(
    adapter: &mut A,
    planned: &PlannedRequest,
) -> Result<Option<Halt>, Halt> {
    let Some(target) = adapter.session(|session| {
        let target = session.plan().targets.get(planned.target as usize);
        target.cloned().ok_or(RunnerError::NoTarget {
            index: planned.index,
        })
    }) else {
        // Gone: the loop ends when it asks next.
        return Ok(None);
    };
    let target = target.map_err(Halt::Disagreed)?;
    let key = adapter.key(planned.target, &target);
    let sent_at_ms = adapter.now_ms();
    let Some(sending) = adapter.session(|session| {
        // Nothing is sent unless the session agrees it is the request due.
        session.mark_sent(planned, sent_at_ms)?;
        let nonce = session.nonce(planned);
        let plan = session.plan();
        let request =
            build_planned_request(&target, plan, planned, key.as_deref(), nonce.as_deref());
        Ok(Sending {
            planned: *planned,
            request,
            reasoning_counts_as_first_token: plan.reasoning_counts_as_first_token,
            timeout_s: plan.timeout_s,
            seed: session.seed(),
            sent_at_ms,
            target,
        })
    }) else {
        return Ok(None);
    };
    let sending = sending.map_err(Halt::Disagreed)?;
    let outcome = adapter.send(&sending).await;
    let ended_at_ms = adapter.now_ms();
    let mut sample = Sample::from_outcome(planned, sent_at_ms, false, outcome);
    adapter.annotate(&mut sample);
    let keys = adapter.keys();
    sample.redact_keys(&keys.iter().map(String::as_str).collect::<Vec<_>>());
    // The sample is real whatever the session says of it: it is stored and
    // shown, and a disagreement ends the run after it.
    let Some(step) = adapter.session(|session| session.on_sample(&sample, ended_at_ms)) else {
        return Ok(None);
    };
    let mut halt = step.refused.map(Halt::Disagreed);
    if let Err(why) = adapter.store(&sample, &step).await {
        halt = halt.or(Some(Halt::NotStored(why)));
    }
    adapter.show(sample, &step);
    Ok(halt)
}

#[cfg(test)]
pub(crate) mod tests {
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    use super::*;
    use crate::planning::plan::Plan;
    use crate::wire::measure::Measurement;
    use crate::wire::session::RunStatus;

    const START_MS: f64 = 1_764_000_000_000.0;

    /// Polls `future` to its end; the fake adapters' futures never wait
    /// (this module's and `testing::stopping`'s).
    pub(crate) fn block_on<F: Future>(future: F) -> F::Output {
        let mut future = pin!(future);
        let mut context = Context::from_waker(Waker::noop());
        loop {
            if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
                return output;
            }
        }
    }

    /// A clock that moves only when the loop sleeps or a request takes
    /// time, a provider that answers in `took_ms` and quotes the key, and
    /// a record of what was stored and shown.
    struct Fake {
        session: Option<RunSession>,
        now_ms: f64,
        took_ms: f64,
        slept_ms: f64,
        sent: Vec<Sending>,
        stored: Vec<(u32, u32, Option<RunStatus>)>,
        shown: Vec<(Sample, Step)>,
        /// Stop the run after this many samples shown.
        stop_after: Option<usize>,
        /// Storing fails from this sample on.
        store_fails_at: Option<usize>,
        /// The adapter hands the session a sample of another request.
        misreport_at: Option<usize>,
    }

    impl Fake {
        fn new(plan: Plan, took_ms: f64) -> Self {
            Self {
                session: Some(RunSession::start(plan, START_MS)),
                now_ms: START_MS,
                took_ms,
                slept_ms: 0.0,
                sent: Vec::new(),
                stored: Vec::new(),
                shown: Vec::new(),
                stop_after: None,
                store_fails_at: None,
                misreport_at: None,
            }
        }
    }

    impl RunAdapter for Fake {
        fn session<R>(&mut self, act: impl FnOnce(&mut RunSession) -> R) -> Option<R> {
            self.session.as_mut().map(act)
        }
        fn now_ms(&self) -> f64 {
            self.now_ms
        }
        async fn sleep_until(&mut self, at_ms: f64) {
            assert!(at_ms <= self.now_ms + WAKE_EVERY_MS, "one wait too long");
            self.slept_ms += (at_ms - self.now_ms).max(0.0);
            self.now_ms = self.now_ms.max(at_ms);
        }
        fn key(&self, index: u32, _: &Target) -> Option<String> {
            Some(format!("sk-key-of-target-{index}"))
        }
        fn keys(&self) -> Vec<String> {
            vec!["sk-key-of-target-0".into(), "sk-key-of-target-1".into()]
        }
        async fn send(&mut self, sending: &Sending) -> Outcome {
            self.sent.push(sending.clone());
            self.now_ms += self.took_ms;
            let mut measured = Measurement::new(sending.target.protocol, false);
            // A provider that quotes the other target's key back.
            measured.on_fetch_rejected(self.took_ms, None, "echo sk-key-of-target-1 here");
            measured.finish()
        }
        fn annotate(&mut self, sample: &mut Sample) {
            if self.misreport_at == Some(self.shown.len()) {
                sample.seq += 1;
            }
        }
        async fn store(&mut self, sample: &Sample, step: &Step) -> Result<(), String> {
            self.stored
                .push((sample.target, sample.seq, step.store_status));
            match self.store_fails_at {
                Some(at) if self.stored.len() > at => Err("disk full".into()),
                _ => Ok(()),
            }
        }
        fn show(&mut self, sample: Sample, step: &Step) {
            self.shown.push((sample, *step));
            if self.stop_after == Some(self.shown.len()) {
                self.session.as_mut().unwrap().stop();
            }
        }
    }

    fn plan(targets: usize, requests: u32, spacing_s: f64) -> Plan {
        Plan {
            targets: (0..targets)
                .map(|i| Target::openai(&format!("t{i}"), "http://127.0.0.1:1/v1", "m"))
                .collect(),
            requests_per_target: requests,
            warmup_per_target: 1,
            spacing_s,
            jitter_s: 0.0,
            ..Plan::default()
        }
    }

    /// A run of 10 000 requests, driven by the fake clock: every request
    /// is sent once, in the schedule's order and at its time, each sample
    /// is stored before it is shown, no key reaches a sample, the status
    /// is stored once per change, and the time left ends at 0. It takes a
    /// fraction of a second of test time.
    #[test]
    fn a_run_of_ten_thousand_requests_goes_through_one_loop_on_a_fake_clock() {
        let started = std::time::Instant::now();
        let mut fake = Fake::new(plan(2, 4_999, 1.0), 200.0);
        let ended = block_on(run(&mut fake));
        let took = started.elapsed();
        assert_eq!(ended, Ended::default());
        assert_eq!(fake.sent.len(), 10_000);
        assert_eq!(fake.shown.len(), 10_000);
        let session = fake.session.as_ref().unwrap();
        assert_eq!(session.status(), RunStatus::Finished);
        assert_eq!(session.progress(), (10_000, 10_000));
        // Sent at the spacing, round robin: 1 s apart, targets in turn.
        for (i, pair) in fake.sent.windows(2).enumerate() {
            let gap = pair[1].sent_at_ms - pair[0].sent_at_ms;
            assert!(
                (gap - 1000.0).abs() < 1e-6,
                "send {i}: {gap} ms after the last"
            );
            assert_ne!(pair[0].planned.target, pair[1].planned.target);
        }
        assert!(
            (fake.slept_ms - 9_999.0 * 800.0).abs() < 1e-3,
            "{}",
            fake.slept_ms
        );
        for ((stored, (sample, step)), sending) in
            fake.stored.iter().zip(&fake.shown).zip(&fake.sent)
        {
            assert_eq!((stored.0, stored.1), (sample.target, sample.seq));
            assert_eq!(sample.sent_at_ms, sending.sent_at_ms);
            assert_eq!(sample.warmup, sending.planned.warmup);
            let said = format!("{:?}", sample.error);
            assert!(!said.contains("sk-key-of-target"), "{said}");
            assert!(said.contains("echo"), "{said}");
            assert_eq!(stored.2, step.store_status);
        }
        let statuses: Vec<_> = fake.stored.iter().filter_map(|s| s.2).collect();
        assert_eq!(statuses, [RunStatus::Running]);
        assert_eq!(fake.shown.last().unwrap().1.time_left_ms, 0.0);
        assert_eq!(fake.shown.last().unwrap().1.progress, (10_000, 10_000));
        // Each request carried its own target's key.
        for sending in &fake.sent {
            let key = format!("sk-key-of-target-{}", sending.planned.target);
            assert!(
                sending
                    .request
                    .headers
                    .iter()
                    .any(|(_, value)| value.contains(&key)),
                "{:?}",
                sending.request.headers
            );
        }
        println!("10 000 requests through the loop in {took:?}");
        assert!(took.as_secs_f64() < 1.0, "{took:?}");
    }

    /// A stop between requests ends the loop with nothing more sent and the
    /// run stopped, its status stored with the sample that saw it.
    #[test]
    fn a_stop_ends_the_run_after_the_request_in_flight() {
        let mut fake = Fake::new(plan(2, 10, 0.5), 100.0);
        fake.stop_after = Some(3);
        let ended = block_on(run(&mut fake));
        assert_eq!(ended, Ended::default());
        assert_eq!(fake.sent.len(), 3);
        assert_eq!(fake.session.unwrap().status(), RunStatus::Stopped);
    }

    /// A store that fails where the run must keep its samples ends the run
    /// after that sample, which is still shown; the halt says why.
    #[test]
    fn a_sample_that_cannot_be_stored_ends_the_run_and_says_why() {
        let mut fake = Fake::new(plan(1, 10, 0.5), 100.0);
        fake.store_fails_at = Some(4);
        let ended = block_on(run(&mut fake));
        assert_eq!(ended.halt, Some(Halt::NotStored("disk full".into())));
        assert_eq!(fake.shown.len(), 5);
        assert_eq!(fake.session.unwrap().status(), RunStatus::Stopped);
    }

    /// A sample the session does not recognise as the request in flight is
    /// kept and shown, and the run ends saying the two disagreed: never a
    /// dropped error.
    #[test]
    fn a_sample_the_session_refuses_is_kept_and_the_run_ends_saying_so() {
        let mut fake = Fake::new(plan(1, 10, 0.5), 100.0);
        fake.misreport_at = Some(2);
        let ended = block_on(run(&mut fake));
        assert_eq!(
            ended.halt,
            Some(Halt::Disagreed(RunnerError::SampleNotInFlight {
                target: 0,
                seq: 3
            }))
        );
        assert_eq!(fake.shown.len(), 3);
        assert_eq!(fake.session.unwrap().status(), RunStatus::Stopped);
    }

    /// A run the adapter dropped ends the loop at once.
    #[test]
    fn a_run_that_is_gone_ends_the_loop() {
        let mut fake = Fake::new(plan(1, 10, 0.5), 100.0);
        fake.session = None;
        assert_eq!(block_on(run(&mut fake)), Ended::default());
        assert!(fake.sent.is_empty());
    }
}
