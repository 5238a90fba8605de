//! The page's state as a value, changed only by [`Action`]s through the pure
//! [`reduce`] function, so every transition is tested natively.
//!
//! The samples of a run live in a shared, append-only [`SampleLog`] rather
//! than in the state value itself: Yew's reducer hands us an `Rc<State>` that
//! the view still holds, so a `Vec` inside it would be copied whole on every
//! sample — 10 000 copies of up to 10 000 samples over a long run. Appending
//! to a shared log and bumping `revision` keeps a live update O(1) plus the
//! one target's live row.

use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

use crate::core::plan::Plan;
use crate::core::report::{live_row, LiveRow};
use crate::core::results::Environment;
use crate::core::sample::{Sample, SampleError};
use crate::ui::form::{demo_plan, PlanForm};
use crate::ui::i18n::Lang;

/// How many recent errors the run view lists.
pub const LATEST_ERRORS: usize = 5;

/// Which screen is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Targets, keys and plan.
    Setup,
    /// The run in progress.
    Run,
    /// Tables and charts of the last run or imported results.
    Results,
    /// Runs kept on this device.
    History,
}

/// Where a run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
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

/// An append-only list of samples shared between the state and the run loop.
#[derive(Clone, Debug, Default)]
pub struct SampleLog(Rc<RefCell<Vec<Sample>>>);

impl SampleLog {
    /// A log holding `samples`.
    pub fn from_samples(samples: Vec<Sample>) -> Self {
        Self(Rc::new(RefCell::new(samples)))
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.0.borrow().len()
    }

    /// True when there is no sample yet.
    pub fn is_empty(&self) -> bool {
        self.0.borrow().is_empty()
    }

    /// A copy of every sample (for exports and reports, not per update).
    pub fn snapshot(&self) -> Vec<Sample> {
        self.0.borrow().clone()
    }

    fn push(&self, sample: Sample) {
        self.0.borrow_mut().push(sample);
    }

    fn of_target(&self, target: u32) -> Vec<Sample> {
        self.0.borrow().iter().filter(|s| s.target == target).cloned().collect()
    }
}

impl PartialEq for SampleLog {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// A run as the run view shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunView {
    /// Storage id of the run.
    pub run_id: String,
    /// The validated plan being run.
    pub plan: Plan,
    /// Browser, time zone, page version.
    pub environment: Environment,
    /// Where the run stands.
    pub status: RunStatus,
    /// Every finished sample, warm-ups and errors included.
    pub samples: SampleLog,
    /// Bumped on every new sample, so views know to redraw.
    pub revision: u64,
    /// Per-target running figures, by target index.
    pub live: Vec<LiveRow>,
    /// Requests finished and planned, warm-ups included.
    pub done: u32,
    /// Requests planned in all.
    pub total: u32,
    /// Estimated time left, ms.
    pub eta_ms: Option<f64>,
    /// Samples sent while the tab was hidden.
    pub hidden_samples: u32,
    /// The most recent errors, newest first, with their target's label.
    pub latest_errors: VecDeque<(String, SampleError)>,
}

/// Results being viewed: a finished run, or imported files.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultsView {
    /// The plan they came from.
    pub plan: Plan,
    /// Their environment.
    pub environment: Environment,
    /// Their samples.
    pub samples: Rc<Vec<Sample>>,
}

/// A run kept on this device, for the history list.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryEntry {
    /// Storage id.
    pub run_id: String,
    /// Target labels.
    pub labels: Vec<String>,
    /// Epoch ms the run started.
    pub started_at_ms: f64,
    /// Where it stands.
    pub status: RunStatus,
    /// Samples stored.
    pub samples: u32,
    /// Samples planned.
    pub total: u32,
}

/// What "Test connection" found for one provider.
#[derive(Clone, Debug, PartialEq)]
pub enum Connection {
    /// Request in flight.
    Testing,
    /// A first token arrived after this many ms.
    Ok(f64),
    /// It failed; the message says why in plain words.
    Failed(String),
}

/// The whole page state.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Page language.
    pub lang: Lang,
    /// Shown screen.
    pub view: View,
    /// The setup form.
    pub form: PlanForm,
    /// Keys by provider id, in memory only (see `remember_keys`).
    pub keys: BTreeMap<String, String>,
    /// The person opted in to keeping keys in localStorage.
    pub remember_keys: bool,
    /// "Test connection" results by provider id.
    pub connections: BTreeMap<String, Connection>,
    /// Models a provider listed, by target row.
    pub listed_models: BTreeMap<usize, Vec<String>>,
    /// The current or last run.
    pub run: Option<RunView>,
    /// Results on screen.
    pub results: Option<ResultsView>,
    /// Runs kept on this device.
    pub history: Vec<HistoryEntry>,
    /// An interrupted run the page offers to resume.
    pub resume_offer: Option<HistoryEntry>,
    /// A one-line message for the person (copied, saved, refused file…).
    pub notice: Option<String>,
}

impl State {
    /// The first screen: setup, with the demo plan filled in.
    pub fn new(lang: Lang) -> Self {
        Self {
            lang,
            view: View::Setup,
            form: PlanForm::from_plan(&demo_plan()),
            keys: BTreeMap::new(),
            remember_keys: false,
            connections: BTreeMap::new(),
            listed_models: BTreeMap::new(),
            run: None,
            results: None,
            history: Vec::new(),
            resume_offer: None,
            notice: None,
        }
    }
}

/// Everything that can happen to the page.
#[derive(Clone, Debug, PartialEq)]
#[expect(missing_docs, reason = "variant fields are named for what they carry; each variant says when it happens")]
pub enum Action {
    /// Switch language.
    SetLang(Lang),
    /// Show a screen.
    Show(View),
    /// Replace the form (an edit, a loaded plan or a plan link).
    SetForm(PlanForm),
    /// Set (or clear, when empty) the key of a provider.
    SetKey { provider: String, key: String },
    /// Keys were loaded from this device.
    KeysRemembered(BTreeMap<String, String>),
    /// Opt in or out of remembering keys.
    SetRememberKeys(bool),
    /// Forget every key, in memory and on the device.
    ForgetKeys,
    /// A connection test changed state.
    SetConnection { provider: String, connection: Connection },
    /// A provider listed its models for a target row.
    ModelsListed { row: usize, models: Vec<String> },
    /// A run began (or resumed with its earlier samples).
    RunStarted { run_id: String, plan: Plan, environment: Environment, samples: Vec<Sample>, total: u32 },
    /// A request finished.
    SampleDone { sample: Sample, done: u32, eta_ms: Option<f64> },
    /// The run changed status.
    SetStatus(RunStatus),
    /// Show these results.
    ShowResults(ResultsView),
    /// The history list was read.
    SetHistory(Vec<HistoryEntry>),
    /// Offer (or withdraw) resuming an interrupted run.
    OfferResume(Option<HistoryEntry>),
    /// Show a message.
    Notice(String),
    /// Hide the message.
    ClearNotice,
}

/// The next state after `action`; `None` when nothing changes, so the
/// caller can keep the same `Rc` and Yew skips the re-render.
pub fn reduce(state: &State, action: Action) -> Option<State> {
    let mut next = state.clone();
    match action {
        Action::SetLang(lang) if lang != state.lang => next.lang = lang,
        Action::SetLang(_) => return None,
        Action::Show(view) if view != state.view => next.view = view,
        Action::Show(_) => return None,
        Action::SetForm(form) if form != state.form => next.form = form,
        Action::SetForm(_) => return None,
        Action::SetKey { provider, key } => {
            let key = key.trim().to_owned();
            if key.is_empty() {
                next.keys.remove(&provider);
            } else {
                next.keys.insert(provider.clone(), key);
            }
            next.connections.remove(&provider);
        }
        Action::KeysRemembered(keys) => {
            next.remember_keys = !keys.is_empty();
            next.keys.extend(keys);
        }
        Action::SetRememberKeys(on) => next.remember_keys = on,
        Action::ForgetKeys => {
            next.keys.clear();
            next.remember_keys = false;
            next.connections.clear();
        }
        Action::SetConnection { provider, connection } => {
            next.connections.insert(provider, connection);
        }
        Action::ModelsListed { row, models } => {
            next.listed_models.insert(row, models);
        }
        Action::RunStarted { run_id, plan, environment, samples, total } => {
            let log = SampleLog::from_samples(samples);
            let live = (0..plan.targets.len())
                .map(|t| live_row(&log.of_target(u32::try_from(t).unwrap_or(u32::MAX))))
                .collect();
            let done = u32::try_from(log.len()).unwrap_or(u32::MAX);
            let hidden_samples = u32::try_from(log.snapshot().iter().filter(|s| s.hidden).count()).unwrap_or(0);
            next.run = Some(RunView {
                run_id,
                plan,
                environment,
                status: RunStatus::Running,
                samples: log,
                revision: 0,
                live,
                done,
                total,
                eta_ms: None,
                hidden_samples,
                latest_errors: VecDeque::new(),
            });
            next.view = View::Run;
            next.resume_offer = None;
        }
        Action::SampleDone { sample, done, eta_ms } => {
            let Some(run) = next.run.as_mut() else { return None };
            let target = sample.target;
            if let Some(error) = &sample.error {
                let label = run.plan.targets.get(target as usize).map(|t| t.label.clone()).unwrap_or_default();
                run.latest_errors.push_front((label, error.clone()));
                run.latest_errors.truncate(LATEST_ERRORS);
            }
            if sample.hidden {
                run.hidden_samples += 1;
            }
            run.samples.push(sample);
            if let Some(row) = run.live.get_mut(target as usize) {
                *row = live_row(&run.samples.of_target(target));
            }
            run.revision += 1;
            run.done = done;
            run.eta_ms = eta_ms;
        }
        Action::SetStatus(status) => {
            let run = next.run.as_mut()?;
            if run.status == status {
                return None;
            }
            run.status = status;
            if matches!(status, RunStatus::Finished | RunStatus::Stopped) {
                run.eta_ms = None;
                next.results = Some(ResultsView {
                    plan: run.plan.clone(),
                    environment: run.environment.clone(),
                    samples: Rc::new(run.samples.snapshot()),
                });
            }
        }
        Action::ShowResults(results) => {
            next.results = Some(results);
            next.view = View::Results;
        }
        Action::SetHistory(history) => next.history = history,
        Action::OfferResume(offer) => next.resume_offer = offer,
        Action::Notice(text) => next.notice = Some(text),
        Action::ClearNotice if state.notice.is_some() => next.notice = None,
        Action::ClearNotice => return None,
    }
    Some(next)
}
