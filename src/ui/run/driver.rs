//! The run loop: asks the pure scheduler what to do next, waits in the timer
//! worker, sends one request at a time through the measured fetch, stores
//! each sample the moment it completes and reports it to the page.
//!
//! Starting or resuming a run goes through the run's part: `Driver::start`
//! and `Driver::resume` live in `lazy.rs`, beside the split points they
//! call, so that this module (which the part holds) does not import the
//! module that loads it. The loop, the measured fetch and everything they
//! alone reach are in that part, not in the first load.
//!
//! Which run this is, what to send and when, the time left, pause, stop
//! and resuming are core's [`RunSession`]'s; this loop only sleeps, sends,
//! stores and shows. The session lives here, shared with the page's
//! buttons through an `Rc<RefCell<…>>`, because the loop and the buttons
//! act on it between each other's awaits; the page's own state only
//! mirrors it for display.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use yew::Callback;

use crate::browser::clock::{
    epoch_ms, page_hidden, performance_mark, time_zone, tz_offset_min, zone_offset_min,
};
use crate::browser::fetch_stream::{Abort, MeasureOptions, measure};
use crate::browser::files::user_agent;
use crate::browser::spawn;
use crate::browser::storage::Store;
use crate::browser::timer::sleep_ms;
use crate::browser::wake_lock::WakeLock;
use crate::core::document;
use crate::core::measure::{Measurement, Outcome};
use crate::core::plan::{Plan, Target};
use crate::core::protocol::{build_planned_request, build_request};
use crate::core::results::{Environment, RunnerKind};
use crate::core::run::RunRecord;
use crate::core::sample::Sample;
use crate::core::schedule::{Next, PlannedRequest};
use crate::core::session::RunSession;
use crate::core::text::notice::{self, StorageStep};
use crate::core::timeofday::{PeakZone, parse_peak_tz};
use crate::ui::model::i18n::Lang;
use crate::ui::model::state::{Action, HistoryEntry, ResultsView, newest_first};

/// Longest single wait, ms: the loop wakes this often to notice pause,
/// stop and a hidden tab.
const WAKE_EVERY_MS: f64 = 250.0;

/// Why [`Driver::send`] sent nothing.
enum Unsent {
    /// No run is active any more.
    NoRun,
    /// The session refused the request (or it names no target): a bug
    /// between the loop and the schedule, said and not hidden; the session
    /// is stopped.
    Refused,
}

struct ActiveRun {
    session: RunSession,
    environment: Environment,
    keys: BTreeMap<String, String>,
    abort: Option<Abort>,
}

/// Starts, pauses, resumes and stops runs; shared by the page's buttons.
#[derive(Clone, Default)]
pub struct Driver {
    active: Rc<RefCell<Option<ActiveRun>>>,
    /// A start or resume waits for the run's part: a second press of Start
    /// meanwhile must not start a second run.
    starting: Rc<Cell<bool>>,
}

impl PartialEq for Driver {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.active, &other.active)
    }
}

fn environment(started_at_ms: f64, plan: &Plan) -> Environment {
    // A named peak zone is resolved here, once, with the browser's zone
    // data; an offset needs no resolving.
    let peak_tz_offset_min = match plan.peak_tz.as_deref().and_then(parse_peak_tz) {
        Some(PeakZone::Named(name)) => zone_offset_min(&name, started_at_ms),
        _ => None,
    };
    Environment {
        peak_tz_offset_min,
        schedule_shift_ms: None,
        user_agent: user_agent(),
        time_zone: time_zone(),
        tz_offset_min: tz_offset_min(),
        page_version: env!("CARGO_PKG_VERSION").to_owned(),
        started_at_ms,
        runner: RunnerKind::Page,
        vantage: None,
    }
}

/// Sends one request of `target` with the real header set and returns what
/// came back: the connection test, and the measurement benchmark's hook.
pub async fn measure_once(
    target: &Target,
    plan: &Plan,
    key: Option<&str>,
    seq: u32,
    seed: u64,
) -> Outcome {
    let request = build_request(target, plan, key, None);
    let options = MeasureOptions {
        protocol: target.protocol,
        reasoning_counts_as_first_token: plan.reasoning_counts_as_first_token,
        timeout_s: plan.timeout_s,
        cors_note: crate::ui::model::keys::cors_note(target),
        seq,
        seed,
        idle_gap_s: None,
    };
    match Abort::new() {
        Ok(abort) => measure(&request, &options, &abort).await,
        Err(error) => {
            let mut failed = Measurement::new(target.protocol, false);
            failed.on_fetch_rejected(0.0, None, &error.to_string());
            failed.finish()
        }
    }
}

impl Driver {
    /// True while a run is going or paused, or about to start.
    pub fn is_active(&self) -> bool {
        self.starting.get() || self.active.borrow().is_some()
    }

    /// Marks a start or resume as waiting for the run's part, or `false`
    /// when a run is going or another start already waits (a second press
    /// of Start must not start a second run). [`Self::end_waiting`] ends it.
    pub(crate) fn begin_waiting(&self) -> bool {
        if self.is_active() {
            return false;
        }
        self.starting.set(true);
        true
    }

    /// Ends the wait [`Self::begin_waiting`] began.
    pub(crate) fn end_waiting(&self) {
        self.starting.set(false);
    }

    /// Starts `plan` from now: [`Self::start`]'s work, in the run's part.
    pub(crate) fn run_new(
        &self,
        plan: Plan,
        keys: BTreeMap<String, String>,
        dispatch: Callback<Action>,
    ) {
        let now = epoch_ms();
        let environment = environment(now, &plan);
        let session = RunSession::start(plan, now);
        self.launch(session, environment, Vec::new(), keys, dispatch);
    }

    /// Reloads run `run_id` from storage and resumes it: [`Self::resume`]'s
    /// work, in the run's part (with the reading of stored samples). Keys
    /// are not kept unless remembered: when the run needs one that is not
    /// given, the setup screen asks for it, with the run's plan filled in.
    pub(crate) async fn run_stored(
        &self,
        run_id: String,
        keys: BTreeMap<String, String>,
        dispatch: Callback<Action>,
        lang: Lang,
    ) {
        if self.active.borrow().is_some() {
            return;
        }
        let Some((record, samples)) = load_run(&run_id).await else {
            return;
        };
        let missing = crate::ui::model::keys::missing_keys(&record.plan, &keys);
        if !missing.is_empty() {
            dispatch.emit(Action::SetForm(
                crate::ui::model::form::PlanForm::from_plan(&record.plan),
            ));
            dispatch.emit(Action::Show(crate::ui::model::state::View::Setup));
            dispatch.emit(Action::Notice(notice::keys_needed(lang, &missing)));
            return;
        }
        let done: Vec<(u32, u32)> = samples.iter().map(|s| (s.target, s.seq)).collect();
        let (mut session, environment) = record.into_session();
        session.resume(&done, epoch_ms());
        self.launch(session, environment, samples, keys, dispatch);
    }

    fn launch(
        &self,
        session: RunSession,
        environment: Environment,
        samples: Vec<Sample>,
        keys: BTreeMap<String, String>,
        dispatch: Callback<Action>,
    ) {
        let (_, total) = session.progress();
        let total = u32::try_from(total).unwrap_or(u32::MAX);
        dispatch.emit(Action::RunStarted {
            run_id: session.run_id().to_owned(),
            plan: session.plan().clone(),
            environment: environment.clone(),
            samples,
            total,
        });
        *self.active.borrow_mut() = Some(ActiveRun {
            session,
            environment,
            keys,
            abort: None,
        });
        let driver = self.clone();
        spawn(async move { driver.run_loop(dispatch).await });
    }

    /// Pauses after the request in flight.
    pub fn pause(&self, dispatch: &Callback<Action>) {
        if let Some(active) = self.active.borrow_mut().as_mut() {
            active.session.pause(epoch_ms());
            dispatch.emit(Action::SetStatus(active.session.status()));
        }
    }

    /// Resumes a paused run, keeping the spacing.
    pub fn unpause(&self, dispatch: &Callback<Action>) {
        if let Some(active) = self.active.borrow_mut().as_mut() {
            active.session.unpause(epoch_ms());
            dispatch.emit(Action::SetStatus(active.session.status()));
        }
    }

    /// Stops the run; the request in flight becomes an aborted sample.
    pub fn stop(&self) {
        if let Some(active) = self.active.borrow_mut().as_mut() {
            active.session.stop();
            if let Some(abort) = &active.abort {
                abort.stop();
            }
        }
    }

    async fn run_loop(&self, dispatch: Callback<Action>) {
        // Storage that fails says so, once: the run goes on in memory, and
        // the person learns that a reload would now lose it.
        let mut storage_failed = false;
        let mut say_storage_failed = |step: StorageStep, error: &dyn std::fmt::Display| {
            if !storage_failed {
                storage_failed = true;
                dispatch.emit(Action::StorageFailed(step, error.to_string()));
            }
        };
        let store = match Store::open().await {
            Ok(store) => Some(store),
            Err(error) => {
                say_storage_failed(StorageStep::OpeningDatabase, &error);
                None
            }
        };
        let mut wake_lock = WakeLock::acquire().await;
        let mut hidden_while_waiting = false;
        loop {
            hidden_while_waiting |= page_hidden();
            if wake_lock.is_none() && !page_hidden() {
                wake_lock = WakeLock::acquire().await;
            }
            let now = epoch_ms();
            let next = match self.active.borrow_mut().as_mut() {
                Some(active) => active.session.next(now),
                None => return,
            };
            match next {
                Next::Finished => break,
                Next::Paused | Next::InFlight => sleep_ms(WAKE_EVERY_MS).await,
                Next::WaitUntil(at_ms, _) => {
                    sleep_ms((at_ms - now).clamp(0.0, WAKE_EVERY_MS)).await
                }
                Next::SendNow(planned) => {
                    let hidden = hidden_while_waiting || page_hidden();
                    hidden_while_waiting = false;
                    let sample = match self.send(&planned, hidden).await {
                        Ok((sample, disagreed)) => {
                            if disagreed {
                                dispatch.emit(Action::RunStoppedByError);
                            }
                            sample
                        }
                        Err(Unsent::NoRun) => return,
                        // Stopped: the loop ends it as a stopped run.
                        Err(Unsent::Refused) => {
                            dispatch.emit(Action::RunStoppedByError);
                            continue;
                        }
                    };
                    // The bookkeeping of a finished sample, timed by the render benchmark.
                    performance_mark("firsttoken:sample-received");
                    let (done, eta_ms, schedule_shift_ms, record_json, run_id) = {
                        let mut guard = self.active.borrow_mut();
                        let Some(active) = guard.as_mut() else { return };
                        let (done, _) = active.session.progress();
                        let eta = Some(active.session.time_left_ms(epoch_ms()));
                        let done = u32::try_from(done).unwrap_or(u32::MAX);
                        // The record (plan + schedule, ~1 MB of JSON for 10 000
                        // requests) is stored when the session says its status
                        // changed, not after every sample (that cost ~4 ms of
                        // main thread a sample).
                        let record_json = active.session.status_to_store().map(|_| {
                            document::to_string(&RunRecord::of(
                                &active.session,
                                active.environment.clone(),
                            ))
                        });
                        // Later than the estimate, as "later than planned" says.
                        let shift = active.session.late_ms();
                        (
                            done,
                            eta,
                            shift,
                            record_json,
                            active.session.run_id().to_owned(),
                        )
                    };
                    performance_mark("firsttoken:sample-serialized");
                    if let Some(store) = &store {
                        {
                            let json = document::to_string(&sample);
                            if let Err(error) = store
                                .put_sample(&run_id, sample.target, sample.seq, &json)
                                .await
                            {
                                say_storage_failed(StorageStep::SavingSample, &error);
                            }
                        }
                        if let Some(json) = record_json
                            && let Err(error) = store.put_run(&run_id, &json).await
                        {
                            say_storage_failed(StorageStep::SavingRun, &error);
                        }
                    }
                    dispatch.emit(Action::SampleDone {
                        sample,
                        done,
                        eta_ms,
                        schedule_shift_ms,
                    });
                }
            }
        }
        drop(wake_lock);
        let finished = self.active.borrow_mut().take();
        if let Some(active) = finished {
            // The session said Finished (or it was stopped): its status is
            // the run's last.
            let status = active.session.status();
            if let Some(store) = &store {
                let record = RunRecord::of(&active.session, active.environment);
                let json = document::to_string(&record);
                if let Err(error) = store.put_run(&record.run_id, &json).await {
                    say_storage_failed(StorageStep::SavingRun, &error);
                }
            }
            dispatch.emit(Action::SetStatus(status));
            // The run is now kept: History lists it at once, not only
            // after a reload.
            load_history(dispatch.clone()).await;
        }
    }

    /// Sends `planned` and makes its sample, with what went wrong between
    /// the loop and the session if anything did (the run then stops, as a
    /// stopped run does, and the person is told).
    async fn send(&self, planned: &PlannedRequest, hidden: bool) -> Result<(Sample, bool), Unsent> {
        let (request, options, abort, keys) = {
            let mut guard = self.active.borrow_mut();
            let active = guard.as_mut().ok_or(Unsent::NoRun)?;
            let refuse = |active: &mut ActiveRun| {
                active.session.stop();
                Unsent::Refused
            };
            let plan = active.session.plan();
            let Some(target) = plan.targets.get(planned.target as usize) else {
                return Err(refuse(active));
            };
            let key = active
                .keys
                .get(&crate::ui::model::keys::key_slot(target))
                .map(String::as_str);
            let nonce = active.session.nonce(planned);
            let request = build_planned_request(target, plan, planned, key, nonce.as_deref());
            let options = MeasureOptions {
                protocol: target.protocol,
                reasoning_counts_as_first_token: plan.reasoning_counts_as_first_token,
                timeout_s: plan.timeout_s,
                cors_note: crate::ui::model::keys::cors_note(target),
                seq: planned.seq,
                seed: crate::core::demo::target_seed(active.session.seed(), planned.target),
                idle_gap_s: planned.idle_at_s(epoch_ms()),
            };
            // Every key the run holds, not only this request's: a reply may
            // quote any of them (core's one rule, `sample::redact_keys`).
            let keys: Vec<String> = active.keys.values().cloned().collect();
            let Ok(abort) = Abort::new() else {
                return Err(refuse(active));
            };
            // Nothing is sent unless the session agrees it is the request due.
            if active.session.mark_sent(planned, epoch_ms()).is_err() {
                return Err(refuse(active));
            }
            active.abort = Some(abort.clone());
            (request, options, abort, keys)
        };
        let sent_at_ms = epoch_ms();
        let outcome = measure(&request, &options, &abort).await;
        let mut disagreed = false;
        if let Some(active) = self.active.borrow_mut().as_mut() {
            if active.session.mark_done(planned, epoch_ms()).is_err() {
                // The sample is real and kept; the run goes no further.
                active.session.stop();
                disagreed = true;
            }
            // Kept with the run, so the export says how far overruns moved it.
            active.environment.schedule_shift_ms = Some(active.session.schedule_shift_ms());
            active.abort = None;
        }
        let mut sample = Sample::from_outcome(planned, sent_at_ms, hidden, outcome);
        sample.redact_keys(&keys.iter().map(String::as_str).collect::<Vec<_>>());
        Ok((sample, disagreed))
    }
}

/// Reads the run history and offers to resume an interrupted run.
pub async fn load_history(dispatch: Callback<Action>) {
    let Ok(store) = Store::open().await else {
        return;
    };
    let Ok(records) = store.runs().await else {
        return;
    };
    let mut entries = Vec::new();
    for json in records {
        let Some(record) = document::read_quietly::<RunRecord>(&json) else {
            continue;
        };
        // What every other view counts: measured requests per target, from
        // what the run still had to send. A finished or stopped run's record
        // says it; an interrupted run's record is stored when its status
        // changes, not after every sample, so its stored samples say what
        // was done since (their target and seq alone are read).
        let status = record.status;
        let (mut session, environment) = record.into_session();
        if status.is_open() {
            let done: Vec<(u32, u32)> = store
                .samples(session.run_id())
                .await
                .unwrap_or_default()
                .iter()
                .filter_map(|json| document::read_quietly::<serde_json::Value>(json))
                .filter_map(|sample| {
                    let number = |name: &str| u32::try_from(sample.get(name)?.as_u64()?).ok();
                    Some((number("target")?, number("seq")?))
                })
                .collect();
            session.resume(&done, 0.0);
        }
        let plan = session.plan();
        let population = crate::core::population::Population::of_plan(plan);
        let done = population
            .done_per_target(plan, session.runner().remaining())
            .into_iter()
            .min()
            .unwrap_or(0);
        let planned = population.planned_requests(plan);
        entries.push(HistoryEntry {
            run_id: session.run_id().to_owned(),
            labels: plan.targets.iter().map(|t| t.label.clone()).collect(),
            started_at_ms: environment.started_at_ms,
            status,
            done,
            planned,
            requests: session.progress(),
        });
    }
    let entries = newest_first(&entries);
    let interrupted = entries.iter().find(|e| e.status.is_open()).cloned();
    dispatch.emit(Action::SetHistory(entries));
    dispatch.emit(Action::OfferResume(interrupted));
}

/// A stored run and its samples. Only the run's part reads stored samples
/// (opening or resuming a run), so they are read by the reader that names a
/// bad member ([`document::from_str`]), the one the results' part already
/// has for imported files: the page keeps one reader of a sample, not two
/// (a sample that does not read is skipped, as before).
pub async fn load_run(run_id: &str) -> Option<(RunRecord, Vec<Sample>)> {
    let store = Store::open().await.ok()?;
    let records = store.runs().await.ok()?;
    let record = records
        .iter()
        .filter_map(|json| document::read_quietly::<RunRecord>(json))
        .find(|r| r.run_id == run_id)?;
    let samples = store
        .samples(run_id)
        .await
        .ok()?
        .iter()
        .filter_map(|json| document::from_str::<Sample>(json).ok())
        .collect();
    Some((record, samples))
}

/// Opens a stored run's results.
pub async fn open_run(run_id: String, dispatch: Callback<Action>) {
    if let Some((record, samples)) = load_run(&run_id).await {
        dispatch.emit(Action::ShowResults(ResultsView {
            plan: record.plan,
            environment: record.environment,
            samples: Rc::new(samples),
        }));
    }
}

/// Deletes a stored run and refreshes the history.
pub async fn delete_run(run_id: String, dispatch: Callback<Action>) {
    if let Ok(store) = Store::open().await {
        let _ = store.delete_run(&run_id).await;
    }
    load_history(dispatch).await;
}
