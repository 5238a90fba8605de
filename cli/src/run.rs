//! `firsttoken run`: the page's run loop, natively.
//!
//! `core`'s scheduler says what to send and when; the monotonic [`Clock`]
//! waits for it; [`measure`] sends one request at a time through the
//! runner's HTTP client; every finished sample goes to the terminal and, at
//! the end (or on Ctrl-C), into the results file, written by `core`'s
//! results and CSV writers.

use std::path::{Path, PathBuf};

use firsttoken::core::plan::{Plan, Protocol};
use firsttoken::core::protocol::build_request;
use firsttoken::core::results::{Environment, export_csv, export_json};
use firsttoken::core::sample::Sample;
use firsttoken::core::schedule::{Next, PlannedRequest, Runner, Schedule};
use tokio::sync::watch;

use crate::clock::Clock;
use crate::environment::environment;
use crate::error::CliError;
use crate::keys::{Key, keys_for, redact};
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
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Every planned request was sent.
    Completed,
    /// Stopped by Ctrl-C; the results hold what was measured.
    Stopped,
}

/// A plan ready to run: its keys looked up, its targets checked.
pub struct Prepared {
    /// The plan.
    pub plan: Plan,
    /// Each target's key, in plan order.
    pub keys: Vec<Option<Key>>,
}

/// Reads the plan and looks up its keys through `lookup`.
///
/// # Errors
/// A bad plan, a demo target (it runs only in the page) or a missing key,
/// all before anything is sent.
pub fn prepare(
    plan_argument: &str,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<Prepared, CliError> {
    let plan = load_plan(plan_argument).map_err(|e| CliError::Input(e.to_string()))?;
    let demo: Vec<&str> = plan
        .targets
        .iter()
        .filter(|t| t.protocol == Protocol::Demo)
        .map(|t| t.label.as_str())
        .collect();
    if !demo.is_empty() {
        return Err(CliError::Input(format!(
            "the demo provider runs only in the page; remove {} from the plan or point it at a real \
             endpoint",
            demo.iter()
                .map(|l| format!("'{l}'"))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let keys = keys_for(&plan, lookup).map_err(|missing| {
        CliError::Input(
            missing
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n"),
        )
    })?;
    Ok(Prepared { plan, keys })
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
    let Prepared { plan, keys } = prepared;
    let clock = Clock::start();
    let started_at_ms = clock.now_ms();
    // Seeded from the clock, as the page does: each run jitters differently.
    let seed = started_at_ms.to_bits();
    let run_id = format!("run-{}", started_at_ms as u64);
    let mut runner = Runner::new(Schedule::new(&plan, started_at_ms, seed));
    let environment = environment(started_at_ms);
    let mut samples: Vec<Sample> = Vec::new();
    let mut client = Client::new(options.fresh_connections);

    let (done, total) = runner.progress();
    let mut progress = Progress::for_stdout(&plan, total, done);
    for warning in plan.warnings() {
        progress.note(&format!("warning: {}", warning.message));
    }
    progress.note(&format!(
        "running {} requests over {} target{}; results to {}",
        total,
        plan.targets.len(),
        if plan.targets.len() == 1 { "" } else { "s" },
        options.output.display()
    ));

    let mut stopped = false;
    loop {
        if *stop.borrow() {
            stopped = true;
            runner.stop();
            break;
        }
        match runner.next(clock.now_ms()) {
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
                let (sample, note) = send(
                    &plan,
                    &keys,
                    &run_id,
                    &planned,
                    &clock,
                    &mut client,
                    &mut runner,
                    &mut stop,
                )
                .await;
                samples.push(sample);
                let (done, total) = runner.progress();
                progress.sample_done(
                    &plan,
                    &samples,
                    note,
                    (done, total),
                    runner.eta_ms(clock.now_ms()),
                );
            }
        }
    }
    progress.finish();
    write_results(&plan, &environment, &samples, options)?;
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
    Ok(if stopped {
        RunEnd::Stopped
    } else {
        RunEnd::Completed
    })
}

/// Sends one planned request and makes its sample.
#[allow(
    clippy::too_many_arguments,
    reason = "one call site; the run loop's state, borrowed"
)]
async fn send(
    plan: &Plan,
    keys: &[Option<Key>],
    run_id: &str,
    planned: &PlannedRequest,
    clock: &Clock,
    client: &mut Client,
    runner: &mut Runner,
    stop: &mut Stop,
) -> (Sample, SampleNote) {
    let index = planned.target as usize;
    let key = keys.get(index).and_then(Option::as_ref).map(Key::expose);
    let nonce = plan
        .nonce
        .then(|| format!("{run_id}-{}-{}", planned.target, planned.seq));
    let options = plan.targets.get(index).map(|target| {
        (
            build_request(target, plan, key, nonce.as_deref()),
            MeasureOptions {
                protocol: target.protocol,
                reasoning_counts_as_first_token: plan.reasoning_counts_as_first_token,
                timeout_s: plan.timeout_s,
            },
        )
    });
    let sent_at_ms = clock.now_ms();
    // The runner and the loop agree on the request due (it was just
    // returned by `next`), so neither mark can fail.
    let _ = runner.mark_sent(planned.index, sent_at_ms);
    let (outcome, note) = match options {
        Some((request, options)) => {
            let measured = measure(client, &request, options, stop).await;
            let note = SampleNote {
                opened: measured.opened,
                http_version: measured.http_version,
            };
            (measured.outcome, note)
        }
        None => {
            return (
                Sample::from_outcome(planned, sent_at_ms, false, missing_target()),
                SampleNote::default(),
            );
        }
    };
    let _ = runner.mark_done(planned.index);
    let mut sample = Sample::from_outcome(planned, sent_at_ms, false, outcome);
    if let Some(error) = &mut sample.error {
        error.message = redact(&error.message, keys);
    }
    (sample, note)
}

/// The outcome for a planned request whose target is not in the plan
/// (cannot happen: the schedule is made from the plan).
fn missing_target() -> firsttoken::core::measure::Outcome {
    let mut measurement = firsttoken::core::measure::Measurement::new(Protocol::OpenAi, false);
    measurement.on_connect_failed(
        0.0,
        firsttoken::core::measure::ConnectFailure::Connect,
        "the schedule named a target the plan does not have",
    );
    measurement.finish()
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
fn write_atomically(path: &Path, text: &str) -> Result<(), CliError> {
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
