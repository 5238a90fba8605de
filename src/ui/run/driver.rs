//! The page's side of core's one run loop ([`run_loop::run`]): it waits in
//! the timer worker, sends one request at a time through the measured
//! fetch, stores each sample the moment it completes and reports it to the
//! page; what to send and when is the loop's and its session's.
//!
//! Starting or resuming a run goes through the run's part: `Driver::start`
//! and `Driver::resume` live in `lazy.rs`, beside the split points they
//! call, so that this module (which the part holds) does not import the
//! module that loads it. The loop, the measured fetch and everything they
//! alone reach are in that part, not in the first load.
//!
//! Which run this is, what to send and when, the time left, pause, stop
//! and resuming are core's [`RunSession`]'s; this adapter only sleeps,
//! sends, stores and shows. The session lives here, shared with the page's
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
use crate::core::base::document;
use crate::core::documents::results::{Environment, RunnerKind};
use crate::core::documents::run::RunRecord;
use crate::core::judgement::timeofday::{PeakZone, parse_peak_tz};
use crate::core::planning::plan::{Plan, Target};
use crate::core::wire::measure::{Measurement, Outcome};
use crate::core::wire::protocol::{HttpRequest, build_request};
use crate::core::wire::run_loop::{self, RunAdapter, Sending, WAKE_EVERY_MS};
use crate::core::wire::sample::Sample;
use crate::core::wire::session::{RunSession, Step};
use crate::core::words::notice::{self, StorageStep};
use crate::ui::model::i18n::Lang;
use crate::ui::model::state::{Action, HistoryEntry, ResultsView, newest_first};

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
    measure_stoppable(&request, &options, None).await
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
        // A run until decided picks its question up where it was.
        session.replay(&samples);
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
        let mut adapter = PageAdapter {
            driver: self.clone(),
            dispatch: dispatch.clone(),
            store: None,
            storage_failed: false,
            wake_lock: WakeLock::acquire().await,
            hidden_while_waiting: false,
            hidden: false,
        };
        // Storage that fails says so, once: the run goes on in memory, and
        // the person learns that a reload would now lose it.
        match Store::open().await {
            Ok(store) => adapter.store = Some(store),
            Err(error) => adapter.say_storage_failed(StorageStep::OpeningDatabase, &error),
        }
        // The one loop (core's): the page answers its adapter's questions.
        let ended = run_loop::run(&mut adapter).await;
        drop(adapter.wake_lock.take());
        let finished = self.active.borrow_mut().take();
        if let Some(active) = finished {
            if ended.halt.is_some() {
                // The loop and the session disagreed: the run stopped, and
                // the person is told (the page's storage never halts it).
                dispatch.emit(Action::RunStoppedByError);
            }
            // The session said Finished (or it was stopped): its status is
            // the run's last.
            let status = active.session.status();
            if let Some(store) = &adapter.store {
                let record = RunRecord::of(&active.session, active.environment);
                let json = document::to_string(&record);
                if let Err(error) = store.put_run(&record.run_id, &json).await {
                    adapter.say_storage_failed(StorageStep::SavingRun, &error);
                }
            }
            dispatch.emit(Action::SetStatus(status));
            // The run is now kept: History lists it at once, not only
            // after a reload.
            load_history(dispatch.clone()).await;
        }
    }
}

/// The page's side of core's one run loop: the tab's clock and timer
/// worker, the measured fetch, IndexedDB and the page's state.
struct PageAdapter {
    driver: Driver,
    dispatch: Callback<Action>,
    store: Option<Store>,
    storage_failed: bool,
    wake_lock: Option<WakeLock>,
    /// The tab was hidden while the loop waited for the next send.
    hidden_while_waiting: bool,
    /// The tab was hidden between the request's planning and its send.
    hidden: bool,
}

impl PageAdapter {
    fn say_storage_failed(&mut self, step: StorageStep, error: &dyn std::fmt::Display) {
        if !self.storage_failed {
            self.storage_failed = true;
            self.dispatch
                .emit(Action::StorageFailed(step, error.to_string()));
        }
    }
}

impl RunAdapter for PageAdapter {
    fn session<R>(&mut self, act: impl FnOnce(&mut RunSession) -> R) -> Option<R> {
        let mut active = self.driver.active.borrow_mut();
        active.as_mut().map(|active| act(&mut active.session))
    }

    fn now_ms(&self) -> f64 {
        epoch_ms()
    }

    async fn sleep_until(&mut self, at_ms: f64) {
        self.hidden_while_waiting |= page_hidden();
        if self.wake_lock.is_none() && !page_hidden() {
            self.wake_lock = WakeLock::acquire().await;
        }
        sleep_ms((at_ms - epoch_ms()).clamp(0.0, WAKE_EVERY_MS)).await;
    }

    fn key(&self, _: u32, target: &Target) -> Option<String> {
        let active = self.driver.active.borrow();
        let keys = &active.as_ref()?.keys;
        keys.get(&crate::ui::model::keys::key_slot(target)).cloned()
    }

    fn keys(&self) -> Vec<String> {
        let active = self.driver.active.borrow();
        active
            .as_ref()
            .map_or_else(Vec::new, |active| active.keys.values().cloned().collect())
    }

    async fn send(&mut self, sending: &Sending) -> Outcome {
        self.hidden = std::mem::take(&mut self.hidden_while_waiting) || page_hidden();
        let planned = &sending.planned;
        let options = MeasureOptions {
            protocol: sending.target.protocol,
            reasoning_counts_as_first_token: sending.reasoning_counts_as_first_token,
            timeout_s: sending.timeout_s,
            cors_note: crate::ui::model::keys::cors_note(&sending.target),
            seq: planned.seq,
            seed: crate::core::wire::demo::target_seed(sending.seed, planned.target),
            idle_gap_s: planned.idle_at_s(epoch_ms()),
        };
        measure_stoppable(&sending.request, &options, Some(&self.driver)).await
    }

    fn annotate(&mut self, sample: &mut Sample) {
        sample.hidden = self.hidden;
    }

    async fn store(&mut self, sample: &Sample, step: &Step) -> Result<(), String> {
        // The bookkeeping of a finished sample, timed by the render benchmark.
        performance_mark("firsttoken:sample-received");
        // The record (plan + schedule, ~1 MB of JSON for 10 000 requests) is
        // stored when the session says its status changed, not after every
        // sample (that cost ~4 ms of main thread a sample).
        let (record_json, run_id) = {
            let mut guard = self.driver.active.borrow_mut();
            let Some(active) = guard.as_mut() else {
                return Ok(());
            };
            // Kept with the run, so the export says how far overruns moved it.
            active.environment.schedule_shift_ms = Some(step.schedule_shift_ms);
            let record_json = step.store_status.map(|_| {
                document::to_string(&RunRecord::of(&active.session, active.environment.clone()))
            });
            (record_json, active.session.run_id().to_owned())
        };
        performance_mark("firsttoken:sample-serialized");
        let Some(store) = &self.store else {
            return Ok(());
        };
        let json = document::to_string(sample);
        let saved_sample = store
            .put_sample(&run_id, sample.target, sample.seq, &json)
            .await;
        let saved_run = match record_json {
            Some(json) => store.put_run(&run_id, &json).await,
            None => Ok(()),
        };
        if let Err(error) = saved_sample {
            self.say_storage_failed(StorageStep::SavingSample, &error);
        }
        if let Err(error) = saved_run {
            self.say_storage_failed(StorageStep::SavingRun, &error);
        }
        Ok(())
    }

    fn show(&mut self, sample: Sample, step: &Step) {
        let (done, _) = step.progress;
        self.dispatch.emit(Action::SampleDone {
            sample,
            done: u32::try_from(done).unwrap_or(u32::MAX),
            eta_ms: Some(step.time_left_ms),
            // Later than the estimate, as "later than planned" says.
            schedule_shift_ms: step.late_ms,
        });
    }
}

/// Sends `request` and measures it; while it is in flight, `driver`'s Stop
/// aborts it. One function for a run's requests and Test connection.
async fn measure_stoppable(
    request: &HttpRequest,
    options: &MeasureOptions,
    driver: Option<&Driver>,
) -> Outcome {
    let abort = match Abort::new() {
        Ok(abort) => abort,
        Err(error) => {
            let mut failed = Measurement::new(options.protocol, false);
            failed.on_fetch_rejected(0.0, None, &error.to_string());
            return failed.finish();
        }
    };
    let keep = |abort: Option<Abort>| {
        if let Some(driver) = driver
            && let Some(active) = driver.active.borrow_mut().as_mut()
        {
            active.abort = abort;
        }
    };
    keep(Some(abort.clone()));
    let outcome = measure(request, options, &abort).await;
    keep(None);
    outcome
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
        let population = crate::core::judgement::population::Population::of_plan(plan);
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
