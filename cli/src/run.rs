//! `firsttoken run`: the page's run loop, natively.
//!
//! `core`'s [`RunSession`] says which run this is, what to send and when,
//! and how long is left; the monotonic [`Clock`]
//! waits for it; [`measure`] sends one request at a time through the
//! runner's HTTP client; every finished sample goes at once into the
//! [journal](crate::journal) (synced, so `kill -9` loses at most the request
//! in flight, and `--resume` continues from there), then to the terminal,
//! and at the end (or on Ctrl-C) into the results file, written by `core`'s
//! results and CSV writers.

use std::path::{Path, PathBuf};

use firsttoken_core::plan::{Plan, Protocol};
use firsttoken_core::protocol::build_planned_request;
use firsttoken_core::results::{Environment, export_csv, export_json};
use firsttoken_core::run::RunStatus;
use firsttoken_core::sample::Sample;
use firsttoken_core::schedule::{Next, PlannedRequest};
use firsttoken_core::session::RunSession;
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
pub async fn run(
    prepared: Prepared,
    options: &RunOptions,
    mut stop: Stop,
) -> Result<RunEnd, CliError> {
    let Prepared { plan, keys, .. } = prepared;
    let clock = Clock::start();
    let journal_path = journal::path_for(&options.output);
    // Which run this is, what is left of it and when to send it are the
    // session's (core): the page decides them by the same rules.
    let (mut journal, header, mut samples, mut session) = if options.resume {
        let (journal, recovered) = Journal::resume(&journal_path).map_err(journal_error)?;
        check_resumable(&recovered.header, &plan, options)?;
        let mut session = recovered.header.session();
        let done: Vec<(u32, u32)> = recovered
            .samples
            .iter()
            .map(|s| (s.target, s.seq))
            .collect();
        session.resume(&done, clock.now_ms());
        (journal, recovered.header, recovered.samples, session)
    } else {
        let session = RunSession::start(plan.clone(), clock.now_ms());
        let header = RunHeader::of(&session, options.vantage.clone());
        let journal = Journal::create(&journal_path, &header).map_err(journal_error)?;
        (journal, header, Vec::new(), session)
    };
    let environment = environment(header.started_at_ms, header.vantage.clone(), &plan);
    let mut client = Client::new(options.fresh_connections);

    let (done, total) = session.progress();
    let mut progress = Progress::for_stdout(&plan, total, done);
    for warning in plan.warnings() {
        let text =
            firsttoken_core::text::warning_text(firsttoken_core::text::Lang::En, &plan, &warning);
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

    let mut journal_failure = None;
    // The loop and the session disagreeing is a bug: said, never dropped.
    let mut session_failure: Option<String> = None;
    loop {
        if *stop.borrow() {
            session.stop();
            break;
        }
        match session.next(clock.now_ms()) {
            Next::Finished => break,
            // The native runner never pauses and sends one request at a
            // time, so neither can happen; end rather than spin.
            Next::Paused | Next::InFlight => break,
            Next::WaitUntil(at_ms, _) => {
                let until = tokio::time::Instant::from_std(clock.instant_at(at_ms));
                tokio::select! {
                    () = tokio::time::sleep_until(until) => {}
                    _ = stop.wait_for(|stopped| *stopped) => {}
                }
            }
            Next::SendNow(planned) => {
                let sent = send(
                    &mut session,
                    &keys,
                    &planned,
                    &clock,
                    &mut client,
                    &mut stop,
                )
                .await;
                let (sample, note) = match sent {
                    Ok((sample, note, Ok(()))) => (sample, note),
                    Ok((sample, note, Err(why))) => {
                        session.stop();
                        session_failure = Some(why);
                        (sample, note)
                    }
                    Err(why) => {
                        session.stop();
                        session_failure = Some(why);
                        continue;
                    }
                };
                // Synced before anything else happens, so a kill now
                // loses nothing that was measured.
                if let Err(error) = journal.append(&sample) {
                    journal_failure = Some(error);
                    session.stop();
                }
                samples.push(sample);
                progress.sample_done(
                    &plan,
                    &samples,
                    note,
                    session.progress(),
                    (session.time_left_ms(clock.now_ms()), session.late_ms()),
                );
            }
        }
    }
    progress.finish(&plan, &samples);
    let mut environment = environment;
    environment.schedule_shift_ms = Some(session.schedule_shift_ms());
    write_results(&plan, &environment, &samples, options)?;
    // The page's sentence, from core: one voice for the same figure.
    if let Some(note) = firsttoken_core::text::run_end_shift_note(
        firsttoken_core::verdict::Lang::En,
        session.late_ms(),
    ) {
        progress.note(&note);
    }
    let stopped = session.status() == RunStatus::Stopped;
    if let Some(why) = session_failure {
        return Err(CliError::Failed(format!(
            "the run's loop and its schedule disagreed ({why}); this is a bug, please report \
             it. The run stopped and its {} samples are in {}",
            samples.len(),
            options.output.display()
        )));
    }
    if let Some(error) = journal_failure {
        return Err(CliError::Failed(format!(
            "{error}; the run stopped and its {} samples are in {}",
            samples.len(),
            options.output.display()
        )));
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
    let unanswered = unanswered(&plan, &samples);
    for line in &unanswered {
        progress.note(line);
    }
    Ok(if stopped {
        RunEnd::Stopped
    } else if unanswered.is_empty() {
        RunEnd::Completed
    } else {
        RunEnd::NoSuccess
    })
}

/// One line for each target none of whose measured requests succeeded,
/// with the failure's own words (core's `never_answered`, which the page
/// says at a run's end too): "error: Custom · gpt-4o-mini: no successful
/// request; 3 of 3 failed with “HTTP 400 from provider: …”". Empty when
/// every target that sent a request got an answer.
fn unanswered(plan: &Plan, samples: &[Sample]) -> Vec<String> {
    firsttoken_core::text::ending::never_answered(firsttoken_core::verdict::Lang::En, plan, samples)
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

/// Sends one planned request and makes its sample, with the session's
/// word on its end (`Err` when the loop and the session disagreed: the
/// sample is real and kept, and the run goes no further). `Err` outright,
/// with nothing sent, when the session refuses the request or it names no
/// target of the plan.
async fn send(
    session: &mut RunSession,
    keys: &[Option<Key>],
    planned: &PlannedRequest,
    clock: &Clock,
    client: &mut Client,
    stop: &mut Stop,
) -> Result<(Sample, SampleNote, Result<(), String>), String> {
    let plan = session.plan();
    let index = planned.target as usize;
    let key = keys.get(index).and_then(Option::as_ref).map(Key::expose);
    let nonce = session.nonce(planned);
    let options = plan.targets.get(index).map(|target| {
        (
            build_planned_request(target, plan, planned, key, nonce.as_deref()),
            MeasureOptions {
                protocol: target.protocol,
                reasoning_counts_as_first_token: plan.reasoning_counts_as_first_token,
                timeout_s: plan.timeout_s,
            },
        )
    });
    let seed = session.seed();
    let Some((request, options)) = options else {
        return Err(format!(
            "request {} names no target of the plan",
            planned.index
        ));
    };
    let sent_at_ms = clock.now_ms();
    // Nothing is sent unless the session agrees it is the request due.
    session
        .mark_sent(planned, sent_at_ms)
        .map_err(|error| error.to_string())?;
    let (outcome, (note, (reused, retried, connection_idle_s))) = {
        {
            let measured = if options.protocol == Protocol::Demo {
                // Played back in the process, as the page plays it in the tab.
                let idle_s = planned.idle_at_s(clock.now_ms());
                let at = (planned.target, planned.seq, seed, idle_s);
                measure_demo(&request, options, at, stop).await
            } else {
                measure(client, &request, options, stop).await
            };
            let note = SampleNote {
                opened: measured.opened,
                http_version: measured.http_version,
            };
            let connected = (
                measured.reused,
                measured.retried,
                measured.connection_idle_s,
            );
            (measured.outcome, (note, connected))
        }
    };
    let done = session
        .mark_done(planned, clock.now_ms())
        .map_err(|error| error.to_string());
    let mut sample = Sample::from_outcome(planned, sent_at_ms, false, outcome);
    sample.connection = note.opened;
    sample.reused_connection = reused;
    sample.retried = retried;
    sample.connection_idle_s = connection_idle_s;
    // A provider's reply is a stranger's text: a key it echoes never
    // reaches the results (core's one rule, as the page redacts).
    sample.redact_keys(&key_texts(keys));
    Ok((sample, note, done))
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
