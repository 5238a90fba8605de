//! `firsttoken run`: the page's run loop, natively.
//!
//! `core`'s one run loop ([`run_loop::run`]) and its [`RunSession`] say
//! which run this is, what to send and when, and how long is left; this
//! module is the loop's adapter: the monotonic [`Clock`] waits for it;
//! [`measure`] sends one request at a time through the runner's HTTP
//! client; every finished sample goes at once into the
//! [journal](crate::journal) (synced, so `kill -9` loses at most the request
//! in flight, and `--resume` continues from there), then to the terminal,
//! and at the end (or on Ctrl-C) into the results file, written by `core`'s
//! results and CSV writers.

use std::path::{Path, PathBuf};

use firsttoken_core::base::lang::Lang;
use firsttoken_core::base::printable::printable_lines;
use firsttoken_core::documents::results::{Environment, export_csv, export_json};
use firsttoken_core::documents::run::RunStatus;
use firsttoken_core::judgement::objective::{Strictness, check_run};
use firsttoken_core::narrative::ending::question_lines;
use firsttoken_core::planning::plan::{Plan, Protocol, Target};
use firsttoken_core::statistics::sequential::Decision;
use firsttoken_core::wire::measure::Outcome;
use firsttoken_core::wire::questions::Questions;
use firsttoken_core::wire::run_loop::{self, Halt, RunAdapter, Sending};
use firsttoken_core::wire::sample::Sample;
use firsttoken_core::wire::session::{RunSession, Step};
use tokio::sync::watch;

use crate::clock::Clock;
use crate::demo::measure_demo;
use crate::environment::environment;
use crate::error::CliError;
use crate::journal::{self, Journal, JournalError, RunHeader};
use crate::keys::{Key, KeyBinding, KeyRoute, key_texts, keys_for};
use crate::measure::{MeasureOptions, Stop, measure};
use crate::net::Client;
use crate::plan_input::load_plan;
use crate::terminal::{Progress, SampleNote};

/// `firsttoken run`'s options, as parsed.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The plan: a file, `-`, or a link with `#plan=`.
    pub plan: String,
    /// The results file.
    pub output: PathBuf,
    /// Also write the CSV here.
    pub csv: Option<PathBuf>,
    /// Where the run is made (`fra1`, `office`).
    pub vantage: Option<String>,
    /// Open a new connection for every request.
    pub fresh_connections: bool,
    /// Continue the run in the output's journal.
    pub resume: bool,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Every planned request was sent.
    Completed,
    /// Stopped by Ctrl-C; the results hold what was measured.
    Stopped,
    /// Every planned request was sent, and a target got no successful
    /// one; its reason was printed.
    NoSuccess,
    /// The run ended and a target crossed one of the plan's objectives
    /// (`--fail-on`); each check was printed.
    ObjectiveCrossed,
    /// A run until decided reached its cap with an objective still not
    /// decided for a target, and none crossed.
    Undecided,
}

/// A plan ready to run: its keys looked up, its targets checked.
pub struct Prepared {
    /// The plan.
    pub plan: Plan,
    /// Each target's key, in plan order.
    pub keys: Vec<Option<Key>>,
    /// Where each key goes, said before anything is sent.
    pub routes: Vec<KeyRoute>,
}

/// Reads the plan and looks up its keys through `lookup`.
///
/// # Errors
/// A bad plan or a missing key, both before anything is sent.
pub fn prepare(
    plan_argument: &str,
    bindings: &[KeyBinding],
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<Prepared, CliError> {
    let plan = load_plan(plan_argument).map_err(|e| CliError::Input(e.to_string()))?;
    prepare_plan(plan, bindings, lookup)
}

/// Looks up the keys of an already read `plan` through `lookup`.
///
/// # Errors
/// A missing key, or one that would go to a host it is not tied to.
pub fn prepare_plan(
    plan: Plan,
    bindings: &[KeyBinding],
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<Prepared, CliError> {
    let keys = keys_for(&plan, bindings, lookup).map_err(|missing| {
        CliError::Input(
            missing
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n"),
        )
    })?;
    Ok(Prepared {
        plan,
        keys: keys.keys,
        routes: keys.routes,
    })
}

/// A stop signal and the handle that raises it.
pub fn stop_signal() -> (watch::Sender<bool>, Stop) {
    watch::channel(false)
}

/// Runs `prepared` to the end or until `stop` is raised, then writes the
/// results (and CSV).
///
/// # Errors
/// When the results file cannot be written.
pub async fn run(prepared: Prepared, options: &RunOptions, stop: Stop) -> Result<RunEnd, CliError> {
    let Prepared { plan, keys, .. } = prepared;
    let clock = Clock::start();
    let journal_path = journal::path_for(&options.output);
    // Which run this is, what is left of it and when to send it are the
    // session's (core): the page decides them by the same rules.
    let (journal, header, samples, session) = if options.resume {
        let (journal, recovered) = Journal::resume(&journal_path).map_err(journal_error)?;
        check_resumable(&recovered.header, &plan, options)?;
        let mut session = recovered.header.session();
        let done: Vec<(u32, u32)> = recovered
            .samples
            .iter()
            .map(|s| (s.target, s.seq))
            .collect();
        session.resume(&done, clock.now_ms());
        // A run until decided picks its question up where it was.
        session.replay(&recovered.samples);
        (journal, recovered.header, recovered.samples, session)
    } else {
        let session = RunSession::start(plan.clone(), clock.now_ms());
        let header = RunHeader::of(&session, options.vantage.clone());
        let journal = Journal::create(&journal_path, &header).map_err(journal_error)?;
        (journal, header, Vec::new(), session)
    };
    let environment = environment(header.started_at_ms, header.vantage.clone(), &plan);
    let client = Client::new(options.fresh_connections);

    let (done, total) = session.progress();
    let progress = Progress::for_stdout(&plan, total, done);
    for warning in plan.warnings() {
        let text = firsttoken_core::narrative::run_time::warning_text(
            firsttoken_core::base::lang::Lang::En,
            &plan,
            &warning,
        );
        progress.note(&format!("warning: {text}"));
    }
    // A file already there is replaced (a stopped run too writes what it
    // measured): said before anything is sent.
    let replaces = if options.output.exists() {
        " (replacing the file already there; -o names another)"
    } else {
        ""
    };
    progress.note(&format!(
        "running {} request{} over {} target{}; results to {}{replaces}",
        total,
        if total == 1 { "" } else { "s" },
        plan.targets.len(),
        if plan.targets.len() == 1 { "" } else { "s" },
        options.output.display()
    ));

    if options.resume {
        progress.note(&format!(
            "resuming from {}: {} samples kept",
            journal.path().display(),
            samples.len()
        ));
    }

    // The one loop (core's): the runner answers its adapter's questions.
    let mut adapter = RunnerAdapter {
        session,
        stop,
        clock,
        client,
        keys,
        journal,
        samples,
        progress,
        plan: plan.clone(),
        last: Last::default(),
        said: Said::default(),
    };
    let ended = run_loop::run(&mut adapter).await;
    let RunnerAdapter {
        session,
        journal,
        samples,
        mut progress,
        ..
    } = adapter;
    progress.finish(&plan, &samples);
    let mut environment = environment;
    environment.schedule_shift_ms = Some(session.schedule_shift_ms());
    write_results(&plan, &environment, &samples, options)?;
    // The page's sentence, from core: one voice for the same figure.
    if let Some(note) = firsttoken_core::narrative::run_time::run_end_shift_note(
        firsttoken_core::judgement::verdict::Lang::En,
        session.late_ms(),
    ) {
        progress.note(&note);
    }
    let stopped = session.status() == RunStatus::Stopped;
    match ended.halt {
        Some(Halt::Disagreed(error)) => {
            return Err(CliError::Failed(format!(
                "the run's loop and its schedule disagreed ({error}); this is a bug, please \
                 report it. The run stopped and its {} samples are in {}",
                samples.len(),
                options.output.display()
            )));
        }
        Some(Halt::NotStored(why)) => {
            return Err(CliError::Failed(format!(
                "{why}; the run stopped and its {} samples are in {}",
                samples.len(),
                options.output.display()
            )));
        }
        None => {}
    }
    if stopped {
        progress.note(&format!(
            "{} keeps the run: continue it with `firsttoken run {} -o {} --resume`",
            journal.path().display(),
            options.plan,
            options.output.display()
        ));
    } else {
        // The results file is whole and complete: the journal has served.
        journal.remove().map_err(journal_error)?;
    }
    progress.note(&format!(
        "{} samples written to {}{}",
        samples.len(),
        options.output.display(),
        options
            .csv
            .as_ref()
            .map(|csv| format!(" and {}", csv.display()))
            .unwrap_or_default()
    ));
    // A run until decided says what was decided, and when.
    if let Some(text) = firsttoken_core::narrative::ending::until_decided_text(
        firsttoken_core::base::lang::Lang::En,
        &plan,
        &samples,
    ) {
        progress.note(&text);
    }
    let unanswered = unanswered(&plan, &samples);
    for line in &unanswered {
        progress.note(line);
    }
    let objectives = if stopped || plan.objectives.is_empty() {
        None
    } else {
        Some(judge_objectives(&options.output)?)
    };
    Ok(if stopped {
        RunEnd::Stopped
    } else if !unanswered.is_empty() {
        RunEnd::NoSuccess
    } else {
        objectives.unwrap_or(RunEnd::Completed)
    })
}

/// Judges the plan's objectives on the results file as written (so exactly
/// as `report --fail-on` would judge it, and a run until decided by the
/// decisions a replay of its stored samples reaches), prints each check on
/// standard error, then what they come to; the run's end by them.
///
/// # Errors
/// When the results file cannot be read back.
fn judge_objectives(results: &Path) -> Result<RunEnd, CliError> {
    let doc = crate::report::load(&[results.to_path_buf()])?;
    let questions = Questions::replayed(&doc.plan, &doc.samples);
    let checks = check_run(
        &crate::report::report_of(&doc),
        &doc.plan,
        questions.as_ref(),
        Strictness::Interval,
    );
    for check in &checks {
        eprintln!("{}", printable_lines(&check.line()));
    }
    let failed = checks.iter().filter(|c| c.failed()).count();
    let undecided = checks.iter().filter(|c| c.undecided()).count();
    Ok(if failed > 0 {
        eprintln!(
            "{failed} of {} checks failed: a target crossed an objective (exit {})",
            checks.len(),
            crate::EXIT_OBJECTIVE_CROSSED
        );
        RunEnd::ObjectiveCrossed
    } else if undecided > 0 {
        eprintln!(
            "{undecided} of {} checks not decided after {} requests per target, the cap (exit {})",
            checks.len(),
            doc.plan.requests_per_target,
            crate::EXIT_UNDECIDED
        );
        RunEnd::Undecided
    } else {
        eprintln!(
            "every target meets every objective ({} checks)",
            checks.len()
        );
        RunEnd::Completed
    })
}

/// One line for each target none of whose measured requests succeeded,
/// with the failure's own words (core's `never_answered`, which the page
/// says at a run's end too): "error: Custom · gpt-4o-mini: no successful
/// request; 3 of 3 failed with “HTTP 400 from provider: …”". Empty when
/// every target that sent a request got an answer.
fn unanswered(plan: &Plan, samples: &[Sample]) -> Vec<String> {
    firsttoken_core::narrative::ending::never_answered(
        firsttoken_core::judgement::verdict::Lang::En,
        plan,
        samples,
    )
    .into_iter()
    .map(|said| format!("error: {}: {}", said.label, said.text))
    .collect()
}

/// Refuses to continue a journal's run with another plan or vantage.
fn check_resumable(header: &RunHeader, plan: &Plan, options: &RunOptions) -> Result<(), CliError> {
    if header.plan != *plan {
        return Err(CliError::Input(format!(
            "{} is the journal of a different plan: resume with the plan that started it, or \
             delete the journal to start over",
            journal::path_for(&options.output).display()
        )));
    }
    if let Some(vantage) = &options.vantage
        && header.vantage.as_ref() != Some(vantage)
    {
        return Err(CliError::Input(format!(
            "the run being resumed was made from vantage {}, not {vantage}",
            header.vantage.as_deref().unwrap_or("(none)")
        )));
    }
    Ok(())
}

fn journal_error(error: JournalError) -> CliError {
    match error {
        JournalError::Io { .. } => CliError::Failed(error.to_string()),
        JournalError::Exists(_) | JournalError::Missing(_) | JournalError::Corrupt { .. } => {
            CliError::Input(error.to_string())
        }
    }
}

/// What the last send learnt of its connection, for its sample and its
/// live line.
#[derive(Default)]
struct Last {
    note: SampleNote,
    reused: Option<bool>,
    retried: bool,
    connection_idle_s: Option<f64>,
    /// It was sent on a new connection on purpose.
    fresh_connection: bool,
}

/// The runner's side of core's one run loop: a monotonic clock, Ctrl-C,
/// its HTTP client (or the demo played in the process), the journal and
/// the terminal.
struct RunnerAdapter {
    session: RunSession,
    stop: Stop,
    clock: Clock,
    client: Client,
    keys: Vec<Option<Key>>,
    journal: Journal,
    samples: Vec<Sample>,
    progress: Progress,
    plan: Plan,
    last: Last,
    said: Said,
}

/// Where a run until decided's questions stood when they were last said:
/// each decision, and the least measured requests of a target.
#[derive(Default)]
struct Said {
    decisions: Vec<Decision>,
    requests: u32,
}

/// How often (in measured requests per target) a run until decided says
/// its questions again when no decision changed.
const QUESTIONS_EVERY: u32 = 25;

impl RunnerAdapter {
    /// A run until decided says its questions as they stand (core's
    /// `question_lines`) when a decision changes and every
    /// [`QUESTIONS_EVERY`] requests per target, so a person watching, or a
    /// log, sees the range narrow.
    fn say_questions(&mut self) {
        let Some(questions) = self.session.questions() else {
            return;
        };
        let decisions: Vec<Decision> = questions
            .pairs
            .iter()
            .map(|pair| questions.decision(pair))
            .chain(
                questions
                    .objectives
                    .iter()
                    .map(|question| questions.objective_decision(question)),
            )
            .collect();
        let requests = (0..questions.targets())
            .map(|t| questions.requests(t))
            .min()
            .unwrap_or(0);
        // The first request sets where they stand; nothing is said yet.
        let changed = !self.said.decisions.is_empty() && decisions != self.said.decisions;
        let due = requests > self.said.requests && requests % QUESTIONS_EVERY == 0;
        if !changed && !due {
            self.said.decisions = decisions;
            return;
        }
        self.said = Said {
            decisions,
            requests,
        };
        for line in question_lines(Lang::En, &self.plan, questions) {
            self.progress.note(&line);
        }
    }
}

impl RunAdapter for RunnerAdapter {
    fn session<R>(&mut self, act: impl FnOnce(&mut RunSession) -> R) -> Option<R> {
        if *self.stop.borrow() {
            self.session.stop();
        }
        Some(act(&mut self.session))
    }

    fn now_ms(&self) -> f64 {
        self.clock.now_ms()
    }

    async fn sleep_until(&mut self, at_ms: f64) {
        let until = tokio::time::Instant::from_std(self.clock.instant_at(at_ms));
        tokio::select! {
            () = tokio::time::sleep_until(until) => {}
            _ = self.stop.wait_for(|stopped| *stopped) => {}
        }
    }

    fn key(&self, index: u32, _: &Target) -> Option<String> {
        let key = self.keys.get(index as usize).and_then(Option::as_ref);
        key.map(|key| key.expose().to_owned())
    }

    fn keys(&self) -> Vec<String> {
        key_texts(&self.keys)
            .into_iter()
            .map(str::to_owned)
            .collect()
    }

    async fn send(&mut self, sending: &Sending) -> Outcome {
        let options = MeasureOptions {
            protocol: sending.target.protocol,
            reasoning_counts_as_first_token: sending.reasoning_counts_as_first_token,
            timeout_s: sending.timeout_s,
            fresh_connection: sending.planned.fresh_connection,
        };
        let planned = &sending.planned;
        let measured = if options.protocol == Protocol::Demo {
            // Played back in the process, as the page plays it in the tab.
            let idle_s = planned.idle_at_s(self.clock.now_ms());
            let at = (planned.target, planned.seq, sending.seed, idle_s);
            measure_demo(&sending.request, options, at, &mut self.stop).await
        } else {
            measure(&mut self.client, &sending.request, options, &mut self.stop).await
        };
        self.last = Last {
            note: SampleNote {
                opened: measured.opened,
                http_version: measured.http_version,
            },
            reused: measured.reused,
            retried: measured.retried,
            connection_idle_s: measured.connection_idle_s,
            // Only a request that reached the provider over a connection
            // this client chose says it chose a new one.
            fresh_connection: planned.fresh_connection && measured.reused.is_some(),
        };
        measured.outcome
    }

    fn annotate(&mut self, sample: &mut Sample) {
        sample.connection = self.last.note.opened;
        sample.reused_connection = self.last.reused;
        sample.retried = self.last.retried;
        sample.connection_idle_s = self.last.connection_idle_s;
        sample.fresh_connection = self.last.fresh_connection;
    }

    async fn store(&mut self, sample: &Sample, _: &Step) -> Result<(), String> {
        // Synced before anything else happens, so a kill now loses nothing
        // that was measured.
        self.journal
            .append(sample)
            .map_err(|error| error.to_string())
    }

    fn show(&mut self, sample: Sample, step: &Step) {
        self.samples.push(sample);
        let note = std::mem::take(&mut self.last.note);
        self.progress.sample_done(
            &self.plan,
            &self.samples,
            note,
            step.progress,
            (step.time_left_ms, step.late_ms),
        );
        self.say_questions();
    }
}

/// Writes the results file and the CSV, each whole or not at all.
///
/// # Errors
/// When a file cannot be written.
pub fn write_results(
    plan: &Plan,
    environment: &Environment,
    samples: &[Sample],
    options: &RunOptions,
) -> Result<(), CliError> {
    write_atomically(&options.output, &export_json(plan, environment, samples))?;
    if let Some(csv) = &options.csv {
        write_atomically(csv, &export_csv(plan, samples))?;
    }
    Ok(())
}

/// Writes `text` to a temporary file beside `path`, syncs it and renames it
/// over `path`, so a crash never leaves half a file.
///
/// # Errors
/// [`CliError::Failed`] when it cannot be written.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), CliError> {
    use std::io::Write;
    let failed =
        |e: std::io::Error| CliError::Failed(format!("cannot write {}: {e}", path.display()));
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".partial");
    let temporary = PathBuf::from(temporary);
    let mut file = std::fs::File::create(&temporary).map_err(failed)?;
    file.write_all(text.as_bytes()).map_err(failed)?;
    file.sync_all().map_err(failed)?;
    std::fs::rename(&temporary, path).map_err(failed)?;
    Ok(())
}
