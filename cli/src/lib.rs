//! `firsttoken`, FirstToken's native runner: the page's plan, measurement
//! and statistics from a terminal, a server or a scheduled job.
//!
//! One core, two adapters (docs/architecture.md). Everything that computes
//! is the page's own `core`: plan reading and validation, presets, request
//! building, the protocols, the SSE decoder, the measurement state machine,
//! the scheduler, statistics, verdicts, tails, comparison, routing, and the
//! results and CSV writers. This crate is only the native adapter:
//!
//! - [`net`]: the HTTP client, which opens and times its own connections;
//! - [`measure`]: one request, timed the moment bytes are read;
//! - [`clock`]: wall-clock times advanced by the monotonic clock;
//! - [`journal`]: every finished sample synced to disk, for `--resume`;
//! - [`keys`]: keys from the environment, refused up front when missing;
//! - [`terminal`]: the progress bar, live lines and plain log lines;
//! - [`run`], [`report`], [`check`], [`publish`]: the commands.

pub mod check;
pub mod clock;
pub mod demo;
pub mod environment;
pub mod error;
pub mod flags;
pub mod html;
pub mod journal;
pub mod keys;
pub mod measure;
pub mod net;
pub mod plan_input;
pub mod publish;
pub mod report;
pub mod run;
pub mod terminal;
pub mod wrap;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::error::CliError;
use crate::run::{RunEnd, RunOptions};
use firsttoken_core::base::lang::Lang;
use firsttoken_core::base::printable::printable_lines;
use firsttoken_core::judgement::objective::{self, Objective, Strictness};

/// Exit code after Ctrl-C: 128 + SIGINT, as shells report it.
pub const EXIT_STOPPED: u8 = 130;

/// Exit code of `report --fail-on` and `run --fail-on` when a target
/// crosses an objective.
pub const EXIT_OBJECTIVE_CROSSED: u8 = 3;

/// Exit code of `run --until-decided --fail-on` when an objective is still
/// not decided for a target at the cap and none was crossed.
pub const EXIT_UNDECIDED: u8 = 4;

/// Exit code of `run` when a target got no successful request (the
/// results are written; the reason was printed). It comes before 3 and 4.
pub const EXIT_NO_SUCCESS: u8 = 5;

const EXIT_CODES: &str = "Exit codes: 0 done; 1 a failure while working (a file could not be \
written, or `check` found a target that does not answer); 2 bad input, refused before anything \
was sent (arguments, plan, results file, missing key); 3 `report --fail-on` or `run --fail-on`: a \
target crossed an objective; 4 `run --until-decided --fail-on`: an objective was still not \
decided at the cap (and none was crossed); 5 `run`: a target got no successful request (the \
results file is still written, and the provider's reason is printed; before 3 and 4); 130 stopped \
with Ctrl-C (the results file is still written); 141 the reader of standard output went away \
(`| head`).";

const OBJECTIVES_HELP: &str = "Objectives (--fail-on, repeatable) say what failing looks like: \
median, p90, p95 or p99 TTFT above a time (p95>2s, median>=800ms), cv or error_rate above a \
percentage (error_rate>2%, cv>100%), or a verdict at least as bad as one (verdict>=cold_starts; \
solid < some_variance < cold_starts < not_ready). Intervals count: a median, p95 or CV objective \
fails only when the figure's whole 95 % interval lies above the limit, so chance alone does not \
fail a job; --strict judges the point value instead. p90, p99 and error_rate are point values. A \
target with no figure to judge (no successful request, too few for a verdict) fails. Each \
objective's outcome per target goes to standard error; any failure exits with 3.";

const RUN_OBJECTIVES_HELP: &str = "With `run`, the objectives go into the plan (its `objectives`, \
as a plan file may hold them too) and the results are judged at the end as `report --fail-on` \
judges them. With --until-decided, a median, p90, p95 or p99 objective is a question for each \
target instead, followed request by request by an anytime-valid test (p95>2s: are at least 95 % of \
its requests within 2 s? failures count as over; 5 % shared by every question of the run): a \
target stops once its questions are decided and it has its floor, and the run exits 3 when one \
was decided missed, 4 when one is still open at the cap and none crossed, 0 when every one is \
met. cv, error_rate and verdict objectives cannot be decided early: they are judged at the end, \
as `report --fail-on` judges them.";

const KEYS_HELP: &str = "Keys come from the environment and each goes only to the host it is tied \
to: --key HOST=VARIABLE or FIRSTTOKEN_KEY_FOR_<HOST> (e.g. FIRSTTOKEN_KEY_FOR_LLM_EXAMPLE_COM) for \
any host; FIRSTTOKEN_KEY_<PROVIDER> (e.g. FIRSTTOKEN_KEY_DEEPSEEK) only for that provider's own \
hosts; FIRSTTOKEN_KEY only when every target needing a key has the same origin. Local servers get \
no key unless one is tied to them. A plan that would send a key anywhere else is refused (exit 2) \
before anything is sent. Keys are never written to any file or printed.";

/// Measure time-to-first-token of LLM providers: the same plan,
/// measurement and statistics as the FirstToken page.
#[derive(Debug, Parser)]
#[command(name = "firsttoken", version, after_help = EXIT_CODES)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run a plan and write its results. The plan is a file or link, or
    /// built from --target flags.
    #[command(group(clap::ArgGroup::new("source").required(true).args(["plan", "targets"])))]
    #[command(after_help = format!("{KEYS_HELP}\n\n{OBJECTIVES_HELP}\n\n{RUN_OBJECTIVES_HELP}\n\n{EXIT_CODES}"))]
    Run {
        /// The plan: a plan v1 file, `-` for standard input, or a page link
        /// carrying `#plan=`. Or none, and --target flags instead.
        plan: Option<String>,
        #[command(flatten)]
        flags: flags::PlanArgs,
        #[command(flatten)]
        share: flags::ShareArgs,
        /// The results file (results v1 JSON). Default: firsttoken-results.json.
        #[arg(
            short = 'o',
            long = "output",
            value_name = "RESULTS.json",
            default_value = "firsttoken-results.json"
        )]
        output: PathBuf,
        /// Also write one CSV row per request here.
        #[arg(long, value_name = "RESULTS.csv")]
        csv: Option<PathBuf>,
        /// Where the run is made, e.g. `fra1` or `office`; recorded in the
        /// results so runs from several places can be told apart.
        #[arg(long, value_name = "NAME")]
        vantage: Option<String>,
        /// Open a new connection for every request instead of reusing one
        /// as a browser does.
        #[arg(long)]
        fresh_connections: bool,
        /// Continue the run whose journal (RESULTS.json.journal, written
        /// beside the results file after every sample) a killed or stopped
        /// run left behind; the plan must be the same.
        #[arg(long)]
        resume: bool,
        /// Tie the key in environment variable VARIABLE to HOST (`host`,
        /// `host:port` or `https://host:port`): it goes there and nowhere
        /// else. Repeatable.
        #[arg(long = "key", value_name = "HOST=VARIABLE")]
        keys: Vec<keys::KeyBinding>,
        /// Exit with 3 when any target crosses this objective, e.g.
        /// 'p95>2s', 'error_rate>2%', 'verdict>=cold_starts' (see below);
        /// with --until-decided, a median or pNN objective is decided as
        /// the run goes, and 4 says one was not decided at the cap.
        /// Repeatable.
        #[arg(long = "fail-on", value_name = "OBJECTIVE", value_parser = objective_text)]
        fail_on: Vec<String>,
    },
    /// Print the summary of one or more results files (several are merged
    /// as the page's import merges them), and fail (exit 3) when a target
    /// crosses an objective.
    #[command(after_help = format!("{OBJECTIVES_HELP}\n\n{EXIT_CODES}"))]
    Report {
        /// Results files written by the page or by `firsttoken run`.
        #[arg(required = true, value_name = "RESULTS.json")]
        results: Vec<PathBuf>,
        /// Print the figures as JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Print a routing config from the routing table instead: a LiteLLM
        /// router config (YAML), OpenRouter provider preferences (JSON), or
        /// the routing table with its reasons and order (JSON). It names its
        /// source run and never a key.
        #[arg(long, value_enum, value_name = "FORMAT", conflicts_with = "json")]
        config: Option<report::ConfigFormat>,
        /// With `--config openrouter`: pin the order (`allow_fallbacks: false`).
        #[arg(long, requires = "config")]
        pin: bool,
        /// The language of the report's sentences: `en` (default) or `zh-CN`,
        /// the page's own Chinese.
        #[arg(long, value_name = "LANG", default_value = "en", value_parser = parse_lang)]
        lang: Lang,
        /// Exit with 3 when any target crosses this objective, e.g.
        /// 'p95>2s', 'error_rate>2%', 'verdict>=cold_starts' (see below).
        /// A median or p95 objective fails only when its 95 % interval lies
        /// wholly above the limit. Repeatable.
        #[arg(long = "fail-on", value_name = "OBJECTIVE")]
        fail_on: Vec<Objective>,
        /// Write the report as one self-contained HTML file instead of
        /// printing it: the page's tables, sentences and charts (inline
        /// SVG), the fidelity check and the routing exports; no script,
        /// nothing loaded from anywhere. Opens from disk and prints.
        /// Standard error says where it went; --json or --config still
        /// print on standard output.
        #[arg(long, value_name = "REPORT.html")]
        html: Option<PathBuf>,
        /// With --fail-on: judge the point value, not its interval.
        #[arg(long, requires = "fail_on")]
        strict: bool,
    },
    /// Send one request per target and say what came back, as the page's
    /// "Test connection".
    #[command(group(clap::ArgGroup::new("source").required(true).args(["plan", "targets"])))]
    #[command(after_help = format!("{KEYS_HELP}\n\n{EXIT_CODES}"))]
    Check {
        /// The plan: a file, `-` for standard input, or a page link. Or
        /// none, and --target flags instead.
        plan: Option<String>,
        #[command(flatten)]
        flags: flags::PlanArgs,
        /// Tie the key in environment variable VARIABLE to HOST, as for `run`.
        #[arg(long = "key", value_name = "HOST=VARIABLE")]
        keys: Vec<keys::KeyBinding>,
    },
    /// Write a plan without running it: from --target flags (the same
    /// plan `run` would make of them), or a plan file or link to convert.
    /// Prints the plan (plan v1 JSON) unless --save-plan or --print-link
    /// says where it goes.
    #[command(group(clap::ArgGroup::new("source").required(true).args(["plan", "targets"])))]
    #[command(
        after_help = format!("Example: firsttoken plan --target deepseek:deepseek-chat --target groq:llama-3.3-70b-versatile -n 200 --save-plan plan.json --print-link\n\n{EXIT_CODES}")
    )]
    Plan {
        /// A plan file, `-` or a page link to convert (instead of --target).
        plan: Option<String>,
        #[command(flatten)]
        flags: flags::PlanArgs,
        #[command(flatten)]
        share: flags::ShareArgs,
    },
    /// List the provider presets a --target can name: id, protocol, base
    /// URL, the variable its key comes from, and what is known about
    /// calling it from the page (browser access).
    #[command(after_help = EXIT_CODES)]
    Providers {
        /// Print them as JSON.
        #[arg(long)]
        json: bool,
        /// The language of the browser-access notes: `en` or `zh-CN`.
        #[arg(long, value_name = "LANG", default_value = "en", value_parser = parse_lang)]
        lang: Lang,
    },
    /// Add a run to a directory of published results and rewrite its
    /// index.json, which the page opens as a dashboard
    /// (`?results=DIR/index.json`). Finished days and months are compacted
    /// into one file per vantage; no sample is ever dropped.
    #[command(after_help = EXIT_CODES)]
    Publish {
        /// The published directory (created when missing).
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        /// The results file to add, as `firsttoken run` wrote it.
        #[arg(value_name = "RESULTS.json")]
        results: PathBuf,
        /// Minutes between scheduled runs, recorded in the index: the page
        /// warns that the monitor looks stopped when the newest sample is
        /// older than three of these. Default: kept from the index, else 60.
        #[arg(long, value_name = "MINUTES", value_parser = clap::value_parser!(u32).range(1..))]
        schedule_minutes: Option<u32>,
    },
}

fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    // One thread: one request is in flight at a time, and a single thread
    // wakes the reader without a cross-thread hand-off.
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Failed(format!("cannot start the runtime: {e}")))
}

/// Raises `stop` on the first Ctrl-C.
fn stop_on_ctrl_c(stop: tokio::sync::watch::Sender<bool>) {
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            let _ = stop.send(true);
        }
    });
}

/// Says, before anything is sent, which key goes to which host (on
/// standard error: standard output carries the measurements).
fn say_key_routes(routes: &[keys::KeyRoute]) {
    for route in routes {
        eprintln!("{}", printable_lines(&route.to_string()));
    }
}

/// `--lang`: a BCP 47 tag the page speaks.
fn parse_lang(tag: &str) -> Result<Lang, String> {
    Lang::from_tag(tag)
        .ok_or_else(|| format!("{tag:?} is not a language of the report: use en or zh-CN"))
}

/// `run --fail-on`: an objective as `report --fail-on` reads it, kept as
/// typed (trimmed) for the plan's `objectives`.
fn objective_text(text: &str) -> Result<String, String> {
    text.parse::<Objective>()
        .map(|_| text.trim().to_owned())
        .map_err(|e| e.to_string())
}

fn env_lookup(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

fn execute(cli: Cli) -> Result<u8, CliError> {
    match cli.command {
        Command::Run {
            plan,
            flags,
            share,
            output,
            csv,
            vantage,
            fresh_connections,
            resume,
            keys,
            fail_on,
        } => {
            if vantage.as_deref().is_some_and(|v| v.trim().is_empty()) {
                return Err(CliError::Input(
                    "--vantage needs a name, e.g. --vantage fra1".to_owned(),
                ));
            }
            let mut resolved = flags::resolve(plan.as_deref(), &flags)?;
            // The objectives are the plan's: saved and linked with it, kept
            // in the results, and checked on --resume as the rest of it.
            for objective in fail_on {
                if !resolved.objectives.contains(&objective) {
                    resolved.objectives.push(objective);
                }
            }
            flags::share(&resolved, &share, env_lookup, |link| eprintln!("{link}"))?;
            let prepared = run::prepare_plan(resolved, &keys, env_lookup)?;
            say_key_routes(&prepared.routes);
            if let Some(cost) = firsttoken_core::judgement::cost::plan_cost(&prepared.plan) {
                eprintln!(
                    "{}",
                    printable_lines(&firsttoken_core::narrative::cost::plan_cost_sentence(
                        firsttoken_core::judgement::verdict::Lang::En,
                        &cost
                    ))
                );
            }
            let options = RunOptions {
                plan: plan.unwrap_or_else(|| {
                    share.save_plan.as_ref().map_or_else(
                        || "(the same --target flags)".to_owned(),
                        |saved| saved.display().to_string(),
                    )
                }),
                output,
                csv,
                vantage,
                fresh_connections,
                resume,
            };
            let end = runtime()?.block_on(async {
                let (stop, stopped) = run::stop_signal();
                stop_on_ctrl_c(stop);
                run::run(prepared, &options, stopped).await
            })?;
            Ok(match end {
                RunEnd::Completed => 0,
                RunEnd::NoSuccess => EXIT_NO_SUCCESS,
                RunEnd::Stopped => EXIT_STOPPED,
                RunEnd::ObjectiveCrossed => EXIT_OBJECTIVE_CROSSED,
                RunEnd::Undecided => EXIT_UNDECIDED,
            })
        }
        Command::Report {
            results,
            json,
            config,
            pin,
            lang,
            fail_on,
            html,
            strict,
        } => {
            let doc = report::load(&results)?;
            if let Some(path) = &html {
                // A stranger's strings, made visible and then escaped.
                let shown = report::for_terminal(doc.clone());
                let figures = report::report_of(&shown);
                run::write_atomically(path, &html::to_html(&shown, &figures, lang))?;
                eprintln!("report written to {}", path.display());
            }
            let strictness = if strict {
                Strictness::Point
            } else {
                Strictness::Interval
            };
            // Judged on the figures as the file holds them; the lines are
            // printed escaped, as the report is.
            let checks = (!fail_on.is_empty())
                .then(|| objective::check(&report::report_of(&doc), &fail_on, strictness));
            if let Some(format) = config {
                let figures = report::report_of(&doc);
                print!("{}", report::config_text(&doc, &figures, format, pin));
            } else if json {
                let figures = report::report_of(&doc);
                let text = serde_json::to_string_pretty(&report::to_json(&doc, &figures))
                    .map_err(|e| CliError::Failed(format!("cannot write the report: {e}")))?;
                println!("{text}");
            } else if html.is_none() {
                // The files are a stranger's: their texts are shown
                // escaped, never acted on by the terminal. With --html the
                // file is the report asked for, and standard error says
                // where it went (as `plan --save-plan` prints no plan).
                let doc = report::for_terminal(doc);
                let figures = report::report_of(&doc);
                // At the terminal's width, between words; whole lines to
                // a pipe.
                let width = wrap::stdout_width();
                print!(
                    "{}",
                    wrap::fit(
                        &printable_lines(&report::to_text(&doc, &figures, lang, width)),
                        width
                    )
                );
            }
            let Some(checks) = checks else {
                return Ok(0);
            };
            for check in &checks {
                eprintln!("{}", printable_lines(&check.line()));
            }
            let failed = checks.iter().filter(|c| c.failed()).count();
            if failed == 0 {
                eprintln!(
                    "every target meets every objective ({} checks)",
                    checks.len()
                );
                Ok(0)
            } else {
                eprintln!(
                    "{failed} of {} checks failed: a target crossed an objective (exit {EXIT_OBJECTIVE_CROSSED})",
                    checks.len()
                );
                Ok(EXIT_OBJECTIVE_CROSSED)
            }
        }
        Command::Check { plan, flags, keys } => {
            let resolved = flags::resolve(plan.as_deref(), &flags)?;
            let prepared = run::prepare_plan(resolved, &keys, env_lookup)?;
            say_key_routes(&prepared.routes);
            let lines = runtime()?.block_on(async {
                let (stop, mut stopped) = run::stop_signal();
                stop_on_ctrl_c(stop);
                check::check(&prepared.plan, &prepared.keys, &mut stopped).await
            });
            for line in &lines {
                println!("{}", printable_lines(&check::line_text(line)));
            }
            Ok(if lines.iter().all(|l| l.result.is_ok()) {
                0
            } else {
                1
            })
        }
        Command::Plan { plan, flags, share } => {
            let resolved = flags::resolve(plan.as_deref(), &flags)?;
            if share.save_plan.is_none() && !share.print_link {
                println!("{}", resolved.to_json_pretty());
            }
            flags::share(&resolved, &share, env_lookup, |link| println!("{link}"))?;
            Ok(0)
        }
        Command::Providers { json, lang } => {
            if json {
                let text = serde_json::to_string_pretty(&flags::providers_json())
                    .map_err(|e| CliError::Failed(format!("cannot write the list: {e}")))?;
                println!("{text}");
            } else {
                print!("{}", flags::providers_text(lang, wrap::stdout_width()));
            }
            Ok(0)
        }
        Command::Publish {
            dir,
            results,
            schedule_minutes,
        } => {
            let published = publish::publish(
                &dir,
                &results,
                clock::Clock::start().now_ms(),
                schedule_minutes,
            )?;
            println!(
                "{}",
                printable_lines(&publish::summary_text(&dir, &published))
            );
            Ok(0)
        }
    }
}

/// Exit code when the reader of standard output went away: 128 + SIGPIPE,
/// as shells report a command a closed pipe stopped.
pub const EXIT_CLOSED_PIPE: i32 = 141;

/// A reader that stops reading (`firsttoken report … | head`) closes the
/// pipe, and the next print fails. That is the reader's choice, not a
/// failure of the runner: end quietly, as other command-line tools do,
/// instead of with a panic and a backtrace. Rust ignores SIGPIPE, so the
/// failed write reaches the print macros, which panic with this message.
fn quiet_on_closed_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info.payload_as_str().unwrap_or_default();
        if message.starts_with("failed printing to std") && message.contains("Broken pipe") {
            std::process::exit(EXIT_CLOSED_PIPE);
        }
        default(info);
    }));
}

/// Parses the arguments, runs the command and returns the exit code;
/// errors go to stderr.
pub fn main_entry() -> ExitCode {
    quiet_on_closed_pipe();
    let cli = Cli::parse();
    match execute(cli) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("error: {}", printable_lines(&error.to_string()));
            ExitCode::from(error.exit_code())
        }
    }
}
