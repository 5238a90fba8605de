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
use std::collections::VecDeque;
use std::rc::Rc;

use crate::core::base::order::sort_by_first;
use crate::core::documents::results::Environment;
pub use crate::core::documents::run::RunStatus;
use crate::core::judgement::report::{LiveRow, live_row_for};
use crate::core::planning::plan::Plan;
use crate::core::wire::sample::{Sample, SampleError};
use crate::core::words::notice::{self, StorageStep};
use crate::ui::model::dashboard::{DashboardAction, DashboardState, reduce_dashboard};
use crate::ui::model::form::{PlanForm, demo_plan};
use crate::ui::model::i18n::Lang;
use std::collections::BTreeMap;

#[cfg(target_arch = "wasm32")]
pub mod page;

/// How many recent errors the run view lists.
pub const LATEST_ERRORS: usize = 5;

/// How many of the newest samples the run view lists beside its timeline.
pub const LATEST_SAMPLES: usize = 8;

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
    /// Published results opened with `?results=`, read-only.
    Dashboard,
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

    /// `f` applied to the samples in place, without copying them (the run
    /// view reads only the newest few per update).
    pub fn read<R>(&self, f: impl FnOnce(&[Sample]) -> R) -> R {
        f(&self.0.borrow())
    }

    /// A copy of every sample (for exports and reports, not per update).
    pub fn snapshot(&self) -> Vec<Sample> {
        self.0.borrow().clone()
    }

    fn push(&self, sample: Sample) {
        self.0.borrow_mut().push(sample);
    }

    fn of_target(&self, target: u32) -> Vec<Sample> {
        self.0
            .borrow()
            .iter()
            .filter(|s| s.target == target)
            .cloned()
            .collect()
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
    /// How far overruns have moved the schedule later, ms.
    pub schedule_shift_ms: f64,
    /// Samples sent while the tab was hidden.
    pub hidden_samples: u32,
    /// The most recent errors, newest first, with their target's label.
    pub latest_errors: VecDeque<(String, SampleError)>,
}

pub use crate::core::documents::results::ResultsView;

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
    /// Measured requests done per target, the fewest of any target
    /// (warm-ups, probes and cache repeats left out, as the live table and
    /// the results count them).
    pub done: u32,
    /// Measured requests planned per target.
    pub planned: u32,
    /// `(done, total)` requests of the whole run, warm-ups and probes
    /// included: what the run's progress bar counted.
    pub requests: (usize, usize),
}

/// `entries` newest first, stably (runs started at the same ms keep their
/// order), through the page's one sort of pairs ([`sort_by_first`]) of
/// (−start, position): the negated key reverses `total_cmp`'s order
/// exactly, and the results' part then uses this copy of the sort instead
/// of carrying its own.
pub fn newest_first(entries: &[HistoryEntry]) -> Vec<HistoryEntry> {
    let mut order: Vec<(f64, f64)> = entries
        .iter()
        .enumerate()
        .map(|(index, entry)| (-entry.started_at_ms, index as f64))
        .collect();
    sort_by_first(&mut order);
    order
        .iter()
        .map(|&(_, index)| entries[index as usize].clone())
        .collect()
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
#[derive(Clone, Debug)]
pub struct State {
    /// Page language.
    pub lang: Lang,
    /// Shown screen.
    pub view: View,
    /// The setup form.
    pub form: PlanForm,
    /// Keys by origin (`https://api.openai.com`, see `ui::model::keys`), in
    /// memory only (see `remember_keys`).
    pub keys: BTreeMap<String, String>,
    /// The plan in the form came from a `#plan=` link: before a key goes
    /// to a host this device has not sent one to, Start asks first.
    pub plan_from_link: bool,
    /// Hosts waiting for the person's confirmation before Start sends them
    /// a key; `None` when nothing is asked.
    pub key_hosts_to_confirm: Option<Vec<crate::ui::model::keys::KeyHost>>,
    /// Browser storage failed this session (said once, see
    /// [`Action::StorageFailed`]).
    pub storage_failed: bool,
    /// The person opted in to keeping keys in localStorage.
    pub remember_keys: bool,
    /// "Test connection" results by provider id.
    pub connections: BTreeMap<String, Connection>,
    /// Models a provider listed, by target row.
    pub listed_models: BTreeMap<usize, Vec<String>>,
    /// Why a provider's models could not be listed, by target row: said in
    /// that row, and gone with the next edit of the form.
    pub unlisted_models: BTreeMap<usize, String>,
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
    /// The notice is about the setup as it was (Start refused for a missing
    /// key, a plan file refused): the next edit of the form or a key ends it.
    pub notice_until_edit: bool,
    /// Published results opened with `?results=`.
    pub dashboard: Option<DashboardState>,
}

impl State {
    /// The first screen: setup, with the demo plan filled in.
    pub fn new(lang: Lang) -> Self {
        Self {
            lang,
            view: View::Setup,
            form: PlanForm::from_plan(&demo_plan(lang)),
            keys: BTreeMap::new(),
            plan_from_link: false,
            key_hosts_to_confirm: None,
            storage_failed: false,
            remember_keys: false,
            connections: BTreeMap::new(),
            listed_models: BTreeMap::new(),
            unlisted_models: BTreeMap::new(),
            run: None,
            results: None,
            history: Vec::new(),
            resume_offer: None,
            notice: None,
            notice_until_edit: false,
            dashboard: None,
        }
    }
}

/// A state equals only itself. [`reduce`] hands back `None` when an action
/// changes nothing, so the page keeps the same `Rc<State>`, and a new one
/// whenever anything changed: Yew's comparison of the props that hold the
/// state's handle is then a pointer comparison, where a derived one walked
/// every member (5.5 kB of the page's code, measured with `twiggy top`).
impl PartialEq for State {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl State {
    /// Ends a notice about the setup as it was (see [`State::notice_until_edit`]).
    fn end_setup_notice(&mut self) {
        if self.notice_until_edit {
            self.notice = None;
            self.notice_until_edit = false;
        }
    }
}

/// Everything that can happen to the page.
#[derive(Clone, Debug, PartialEq)]
#[expect(
    missing_docs,
    reason = "variant fields are named for what they carry; each variant says when it happens"
)]
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
    /// A plan arrived from a link (`true`), or its hosts were confirmed.
    PlanFromLink(bool),
    /// Browser storage failed (what the page was doing, and the browser's
    /// words): from now on the run lives in memory only, and the person is
    /// told once.
    StorageFailed(StorageStep, String),
    /// Ask the person to confirm these hosts before their keys are sent
    /// (`None`: close the question).
    ConfirmKeyHosts(Option<Vec<crate::ui::model::keys::KeyHost>>),
    /// Opt in or out of remembering keys.
    SetRememberKeys(bool),
    /// Forget every key, in memory and on the device.
    ForgetKeys,
    /// A connection test changed state.
    SetConnection {
        provider: String,
        connection: Connection,
    },
    /// A provider listed its models for a target row.
    ModelsListed { row: usize, models: Vec<String> },
    /// A provider's models could not be listed for a target row, and why.
    ModelsUnlisted { row: usize, why: String },
    /// A run began (or resumed with its earlier samples).
    RunStarted {
        run_id: String,
        plan: Plan,
        environment: Environment,
        samples: Vec<Sample>,
        total: u32,
    },
    /// A request finished.
    SampleDone {
        sample: Sample,
        done: u32,
        eta_ms: Option<f64>,
        /// The runner's total schedule shift so far, ms.
        schedule_shift_ms: f64,
    },
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
    /// Show a message about the setup as it is now, until the form or a key
    /// is edited.
    SetupNotice(String),
    /// The run's loop and its session disagreed (a bug): the run stopped,
    /// and the person is told why.
    RunStoppedByError,
    /// Hide the message.
    ClearNotice,
    /// Something happened to the dashboard.
    Dashboard(DashboardAction),
}

/// The next state after `action`; `None` when nothing changes, so the
/// caller can keep the same `Rc` and Yew skips the re-render.
pub fn reduce(state: &State, action: Action) -> Option<State> {
    let mut next = state.clone();
    match action {
        Action::SetLang(lang) if lang != state.lang => {
            next.lang = lang;
            next.form.relabel_demo(state.lang, lang);
        }
        Action::SetLang(_) => return None,
        Action::Show(view) if view != state.view => next.view = view,
        Action::Show(_) => return None,
        Action::SetForm(form) if form != state.form => {
            next.form = form;
            next.unlisted_models.clear();
            next.end_setup_notice();
        }
        Action::SetForm(_) => return None,
        Action::SetKey { provider, key } => {
            next.end_setup_notice();
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
            // Remembered before keys were bound to origins: by provider id.
            next.keys.extend(crate::ui::model::keys::migrate_keys(keys));
        }
        Action::PlanFromLink(from_link) => {
            next.plan_from_link = from_link;
            next.key_hosts_to_confirm = None;
        }
        Action::ConfirmKeyHosts(hosts) => next.key_hosts_to_confirm = hosts,
        Action::StorageFailed(..) if state.storage_failed => return None,
        Action::StorageFailed(step, error) => {
            next.storage_failed = true;
            next.notice = Some(notice::storage_failed(state.lang, step, &error));
            next.notice_until_edit = false;
        }
        Action::SetRememberKeys(on) => next.remember_keys = on,
        Action::ForgetKeys => {
            next.keys.clear();
            next.remember_keys = false;
            next.connections.clear();
        }
        Action::SetConnection {
            provider,
            connection,
        } => {
            next.connections.insert(provider, connection);
        }
        Action::ModelsListed { row, models } => {
            next.unlisted_models.remove(&row);
            next.listed_models.insert(row, models);
        }
        Action::ModelsUnlisted { row, why } => {
            next.unlisted_models.insert(row, why);
        }
        Action::RunStarted {
            run_id,
            plan,
            environment,
            samples,
            total,
        } => {
            let log = SampleLog::from_samples(samples);
            let live = (0..plan.targets.len())
                .map(|t| live_row_for(&plan, &log.of_target(u32::try_from(t).unwrap_or(u32::MAX))))
                .collect();
            let done = u32::try_from(log.len()).unwrap_or(u32::MAX);
            let hidden_samples =
                u32::try_from(log.snapshot().iter().filter(|s| s.hidden).count()).unwrap_or(0);
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
                schedule_shift_ms: 0.0,
                hidden_samples,
                latest_errors: VecDeque::new(),
            });
            next.view = View::Run;
            next.resume_offer = None;
        }
        Action::SampleDone {
            sample,
            done,
            eta_ms,
            schedule_shift_ms,
        } => {
            let run = next.run.as_mut()?;
            let target = sample.target;
            if let Some(error) = &sample.error {
                let label = run
                    .plan
                    .targets
                    .get(target as usize)
                    .map(|t| t.label.clone())
                    .unwrap_or_default();
                run.latest_errors.push_front((label, error.clone()));
                run.latest_errors.truncate(LATEST_ERRORS);
            }
            if sample.hidden {
                run.hidden_samples += 1;
            }
            run.samples.push(sample);
            if let Some(row) = run.live.get_mut(target as usize) {
                *row = live_row_for(&run.plan, &run.samples.of_target(target));
            }
            run.revision += 1;
            run.done = done;
            run.eta_ms = eta_ms;
            run.schedule_shift_ms = schedule_shift_ms;
            run.environment.schedule_shift_ms = Some(schedule_shift_ms);
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
        Action::Notice(text) => {
            next.notice = Some(text);
            next.notice_until_edit = false;
        }
        Action::RunStoppedByError => {
            next.notice = Some(notice::run_stopped_by_error(state.lang).to_owned());
            next.notice_until_edit = false;
        }
        Action::SetupNotice(text) => {
            next.notice = Some(text);
            next.notice_until_edit = true;
        }
        Action::ClearNotice if state.notice.is_some() => next.notice = None,
        Action::ClearNotice => return None,
        Action::Dashboard(action) => {
            let opening = matches!(action, DashboardAction::Open(_));
            next.dashboard = Some(reduce_dashboard(state.dashboard.as_ref(), action)?);
            if opening {
                next.view = View::Dashboard;
            }
        }
    }
    Some(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::wire::sample::{ErrorKind, Phase};

    #[test]
    fn history_is_newest_first_and_equal_starts_keep_their_order() {
        let entry = |run_id: &str, started_at_ms: f64| HistoryEntry {
            run_id: run_id.to_owned(),
            labels: Vec::new(),
            started_at_ms,
            status: RunStatus::Finished,
            done: 0,
            planned: 0,
            requests: (0, 0),
        };
        let entries = [
            entry("a", 1.0),
            entry("b", 3.0),
            entry("c", 2.0),
            entry("d", 3.0),
            entry("e", 1.0),
        ];
        let ids: Vec<String> = newest_first(&entries)
            .into_iter()
            .map(|e| e.run_id)
            .collect();
        assert_eq!(ids, ["b", "d", "c", "a", "e"]);
    }

    fn sample(target: u32, seq: u32, ttft_ms: f64) -> Sample {
        Sample {
            warmup: seq == 0,
            planned_at_ms: 1.0e12,
            sent_at_ms: 1.0e12,
            headers_ms: Some(ttft_ms / 2.0),
            first_byte_ms: Some(ttft_ms / 2.0),
            total_ms: Some(ttft_ms + 200.0),
            output_tokens: Some(8),
            ..Sample::measured(target, seq, ttft_ms)
        }
    }

    fn started() -> State {
        let state = State::new(Lang::En);
        reduce(
            &state,
            Action::RunStarted {
                run_id: "run-1".into(),
                plan: demo_plan(Lang::En),
                environment: Environment::default(),
                samples: vec![sample(0, 0, 900.0)],
                total: 321,
            },
        )
        .unwrap()
    }

    #[test]
    fn no_op_actions_return_none_so_the_view_is_not_rerendered() {
        let state = State::new(Lang::En);
        assert_eq!(reduce(&state, Action::SetLang(Lang::En)), None);
        assert_eq!(reduce(&state, Action::Show(View::Setup)), None);
        assert_eq!(reduce(&state, Action::SetForm(state.form.clone())), None);
        assert_eq!(reduce(&state, Action::ClearNotice), None);
        assert_eq!(
            reduce(&state, Action::SetStatus(RunStatus::Paused)),
            None,
            "no run to pause"
        );
        assert!(reduce(&state, Action::SetLang(Lang::ZhCn)).is_some());
    }

    #[test]
    fn a_language_switch_rewords_the_demo_labels_but_not_a_typed_one() {
        let mut state = State::new(Lang::En);
        state.form.set_target_label(1, "My B".to_owned());
        let zh = reduce(&state, Action::SetLang(Lang::ZhCn)).unwrap();
        let labels: Vec<&str> = zh.form.targets.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(labels, ["演示 A · 稳定", "My B", "演示 C · 快，但回答不同"]);
        let plan = zh.form.to_plan().unwrap();
        assert_eq!(
            plan.fidelity.and_then(|f| f.reference).as_deref(),
            Some("演示 A · 稳定"),
            "the fidelity reference follows its target"
        );
        let en = reduce(&zh, Action::SetLang(Lang::En)).unwrap();
        assert_eq!(en.form.targets[0].label, "Demo A · steady");
        assert_eq!(
            State::new(Lang::ZhCn).form.targets[1].label,
            "演示 B · 冷启动"
        );
    }

    #[test]
    fn a_started_run_shows_the_run_view_with_its_earlier_samples() {
        let state = started();
        assert_eq!(state.view, View::Run);
        let run = state.run.as_ref().unwrap();
        // Three demo targets: 2 warm-ups, 75 requests and 30 probes each.
        assert_eq!((run.done, run.total), (1, 321));
        assert_eq!(run.samples.len(), 1);
        assert_eq!(run.live.len(), 3);
        assert_eq!(run.live[0].done, 0, "a warm-up is not a measured request");
    }

    #[test]
    fn samples_update_the_live_row_of_their_target_only() {
        let mut state = started();
        for seq in 1..=4 {
            state = reduce(
                &state,
                Action::SampleDone {
                    sample: sample(1, seq, 100.0 * f64::from(seq)),
                    done: seq + 1,
                    eta_ms: Some(1000.0),
                    schedule_shift_ms: 0.0,
                },
            )
            .unwrap();
        }
        let run = state.run.as_ref().unwrap();
        assert_eq!(run.revision, 4);
        assert_eq!(run.live[0].done, 0);
        assert_eq!(run.live[1].done, 4);
        assert_eq!(run.live[1].median_ms, Some(250.0));
        assert_eq!(run.done, 5);
    }

    #[test]
    fn ticking_the_fidelity_check_is_a_form_change_and_probes_leave_live_rows_alone() {
        let mut state = State::new(Lang::En);
        state.form.fidelity = false;
        let mut form = state.form.clone();
        form.fidelity = true;
        let ticked = reduce(&state, Action::SetForm(form.clone())).unwrap();
        assert!(ticked.form.to_plan().unwrap().fidelity.is_some());
        assert_eq!(reduce(&ticked, Action::SetForm(form)), None);

        let state = started();
        let mut probe = sample(0, 1, 120.0);
        probe.probe = Some("arith-mul".to_owned());
        probe.answer = Some("391".to_owned());
        let state = reduce(
            &state,
            Action::SampleDone {
                sample: probe,
                done: 2,
                eta_ms: None,
                schedule_shift_ms: 0.0,
            },
        )
        .unwrap();
        let run = state.run.as_ref().unwrap();
        assert_eq!(run.samples.len(), 2, "kept, for the fidelity check");
        assert_eq!(run.revision, 1);
        assert_eq!(
            (run.live[0].done, run.live[0].median_ms),
            (0, None),
            "a probe is not a latency request"
        );
    }

    #[test]
    fn errors_are_listed_newest_first_and_capped() {
        let mut state = started();
        for seq in 1..=7 {
            let mut failed = sample(0, seq, 0.0);
            failed.ttft_ms = None;
            failed.error = Some(SampleError {
                kind: ErrorKind::HttpStatus,
                phase: Phase::BeforeFirstToken,
                message: format!("HTTP 500 #{seq}"),
            });
            state = reduce(
                &state,
                Action::SampleDone {
                    sample: failed,
                    done: seq + 1,
                    eta_ms: None,
                    schedule_shift_ms: 0.0,
                },
            )
            .unwrap();
        }
        let run = state.run.as_ref().unwrap();
        assert_eq!(run.latest_errors.len(), LATEST_ERRORS);
        assert_eq!(run.latest_errors[0].1.message, "HTTP 500 #7");
        assert_eq!(run.latest_errors[0].0, "Demo A · steady");
        assert_eq!(run.live[0].errors, 7);
    }

    #[test]
    fn finishing_a_run_hands_its_samples_to_the_results() {
        let state = started();
        let state = reduce(
            &state,
            Action::SampleDone {
                sample: sample(0, 1, 300.0),
                done: 2,
                eta_ms: None,
                schedule_shift_ms: 0.0,
            },
        )
        .unwrap();
        let paused = reduce(&state, Action::SetStatus(RunStatus::Paused)).unwrap();
        assert!(paused.results.is_none(), "a paused run has no results yet");
        let finished = reduce(&paused, Action::SetStatus(RunStatus::Finished)).unwrap();
        let results = finished.results.as_ref().unwrap();
        assert_eq!(results.samples.len(), 2);
        assert_eq!(finished.run.as_ref().unwrap().eta_ms, None);
    }

    #[test]
    fn keys_are_set_cleared_and_forgotten() {
        let state = State::new(Lang::En);
        let state = reduce(
            &state,
            Action::SetKey {
                provider: "openai".into(),
                key: " sk-1 ".into(),
            },
        )
        .unwrap();
        assert_eq!(state.keys.get("openai").map(String::as_str), Some("sk-1"));
        let state = reduce(
            &state,
            Action::SetKey {
                provider: "openai".into(),
                key: "".into(),
            },
        )
        .unwrap();
        assert!(state.keys.is_empty());
        let state = reduce(
            &state,
            Action::KeysRemembered({
                let mut keys = BTreeMap::new();
                keys.insert("groq".into(), "k".into());
                keys
            }),
        )
        .unwrap();
        assert!(state.remember_keys);
        let state = reduce(&state, Action::ForgetKeys).unwrap();
        assert!(state.keys.is_empty() && !state.remember_keys);
    }

    #[test]
    fn what_is_said_about_the_setup_ends_with_the_next_edit() {
        let edited = |state: &State| {
            let mut form = state.form.clone();
            form.targets[0].base_url = "http://127.0.0.1:9/v1".into();
            reduce(state, Action::SetForm(form)).unwrap()
        };
        let keyed = |state: &State| {
            reduce(
                state,
                Action::SetKey {
                    provider: "openai".into(),
                    key: "sk-1".into(),
                },
            )
            .unwrap()
        };
        let start = State::new(Lang::En);
        // Start refused for a missing key: gone when the form or a key changes.
        let refused = reduce(&start, Action::SetupNotice("Enter the API key".into())).unwrap();
        assert_eq!(refused.notice.as_deref(), Some("Enter the API key"));
        assert_eq!(edited(&refused).notice, None);
        assert_eq!(keyed(&refused).notice, None);
        // A notice about something else stays until closed.
        let copied = reduce(&start, Action::Notice("Link copied".into())).unwrap();
        assert_eq!(edited(&copied).notice.as_deref(), Some("Link copied"));
        assert_eq!(keyed(&copied).notice.as_deref(), Some("Link copied"));
        let copied_after = reduce(&refused, Action::Notice("Link copied".into())).unwrap();
        assert_eq!(edited(&copied_after).notice.as_deref(), Some("Link copied"));
        // A row's models that could not be listed: said in the row until an
        // edit of the form or a list that worked.
        let unlisted = reduce(
            &start,
            Action::ModelsUnlisted {
                row: 0,
                why: "HTTP 401".into(),
            },
        )
        .unwrap();
        assert_eq!(unlisted.notice, None, "not a page-wide notice");
        assert_eq!(
            unlisted.unlisted_models.get(&0).map(String::as_str),
            Some("HTTP 401")
        );
        assert!(edited(&unlisted).unlisted_models.is_empty());
        let listed = reduce(
            &unlisted,
            Action::ModelsListed {
                row: 0,
                models: vec!["m".into()],
            },
        )
        .unwrap();
        assert!(listed.unlisted_models.is_empty());
    }

    #[test]
    fn a_run_stopped_by_a_disagreement_says_so_in_the_page_s_language() {
        let en = reduce(&State::new(Lang::En), Action::RunStoppedByError).unwrap();
        let said = en.notice.unwrap();
        assert!(
            said.starts_with("The run stopped: its loop and its schedule disagreed."),
            "{said}"
        );
        assert!(said.contains("bug"), "{said}");
        let zh = reduce(&State::new(Lang::ZhCn), Action::RunStoppedByError).unwrap();
        assert!(zh.notice.unwrap().starts_with("运行已停止"));
    }

    #[test]
    fn a_storage_failure_is_said_once() {
        let state = State::new(Lang::En);
        let failed = reduce(
            &state,
            Action::StorageFailed(StorageStep::SavingSample, "quota".to_owned()),
        )
        .unwrap();
        assert!(failed.storage_failed);
        let notice = failed.notice.clone().unwrap();
        assert!(notice.contains("no longer keeping this run"), "{notice}");
        assert!(notice.contains("saving a sample: quota"), "{notice}");
        assert!(
            reduce(
                &failed,
                Action::StorageFailed(StorageStep::SavingRun, "again".to_owned())
            )
            .is_none()
        );
    }
}
