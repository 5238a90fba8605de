//! Shared helpers: the mock, targets and plans, the binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use firsttoken_core::documents::results::{ResultsDoc, import_json};
use firsttoken_core::planning::plan::{Plan, Protocol, Target};
use firsttoken_mock::{MockConfig, MockHandle};

/// A mock provider on a free loopback port.
pub fn mock() -> MockHandle {
    firsttoken_mock::start(MockConfig::default()).unwrap()
}

/// The base URL a target of `protocol` uses against `mock`.
pub fn base_url(mock: &MockHandle, protocol: Protocol) -> String {
    match protocol {
        Protocol::OpenAi => format!("{}/v1", mock.base_url()),
        _ => mock.base_url(),
    }
}

/// A target of `protocol` playing `script` on `mock`, labelled after both.
pub fn target(mock: &MockHandle, protocol: Protocol, script: &str) -> Target {
    Target {
        protocol,
        ..Target::openai(
            &format!("{} {script}", protocol_id(protocol)),
            &base_url(mock, protocol),
            script,
        )
    }
}

/// The plan's name for a protocol.
pub fn protocol_id(protocol: Protocol) -> &'static str {
    match protocol {
        Protocol::OpenAi => "openai",
        Protocol::Anthropic => "anthropic",
        Protocol::Gemini => "gemini",
        Protocol::Demo => "demo",
    }
}

/// The three protocols the mock speaks.
pub const PROTOCOLS: [Protocol; 3] = [Protocol::OpenAi, Protocol::Anthropic, Protocol::Gemini];

/// A quick plan: `requests` per target, no warm-up, no spacing.
pub fn quick_plan(targets: Vec<Target>, requests: u32) -> Plan {
    Plan {
        targets,
        requests_per_target: requests,
        warmup_per_target: 0,
        spacing_s: 0.0,
        jitter_s: 0.0,
        timeout_s: 10.0,
        ..Plan::default()
    }
}

/// A fresh directory for one test's files.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("firsttoken-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `plan` into `dir/plan.json`.
pub fn write_plan(dir: &Path, plan: &Plan) -> PathBuf {
    let path = dir.join("plan.json");
    std::fs::write(&path, plan.to_json_pretty()).unwrap();
    path
}

/// The `firsttoken` binary with a clean environment: no key variable
/// unless the test sets one.
pub fn firsttoken() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_firsttoken"));
    command.env_clear();
    for name in ["PATH", "HOME", "TZ", "LANG"] {
        if let Some(value) = std::env::var_os(name) {
            command.env(name, value);
        }
    }
    command
}

/// Runs the binary and returns its output.
pub fn run(command: &mut Command) -> Output {
    command.output().unwrap()
}

/// Standard output and error as text.
pub fn texts(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// What `firsttoken run` did with a plan: what it printed, how it exited,
/// and where it was told to write its results.
pub struct PlanRun {
    /// The process's output.
    pub output: Output,
    /// Standard output, as text.
    pub stdout: String,
    /// Standard error, as text.
    pub stderr: String,
    /// The results file it was given (`-o`): `dir/results.json`.
    pub results: PathBuf,
}

impl PlanRun {
    /// Asserts that the run exited 0, showing what it printed when not.
    #[track_caller]
    pub fn succeeded(self) -> Self {
        assert!(
            self.output.status.success(),
            "{}\n{}",
            self.stdout,
            self.stderr
        );
        self
    }

    /// Asserts that the run finished with exit 5: every request sent, and
    /// a target (meant to fail) got no successful one.
    pub fn finished_without_an_answer_from_some(self) -> Self {
        assert_eq!(
            self.output.status.code(),
            Some(5),
            "{}\n{}",
            self.stdout,
            self.stderr
        );
        self
    }

    /// The results document it wrote.
    pub fn doc(&self) -> ResultsDoc {
        import_json(&std::fs::read_to_string(&self.results).unwrap()).unwrap()
    }
}

/// Writes `plan` into `dir/plan.json` and runs `firsttoken run` on it with
/// `-o dir/results.json`, then the flags and environment `extra` adds.
pub fn run_plan_with(dir: &Path, plan: &Plan, extra: impl FnOnce(&mut Command)) -> PlanRun {
    let results = dir.join("results.json");
    let mut command = firsttoken();
    command
        .arg("run")
        .arg(write_plan(dir, plan))
        .arg("-o")
        .arg(&results);
    extra(&mut command);
    let output = run(&mut command);
    let (stdout, stderr) = texts(&output);
    PlanRun {
        output,
        stdout,
        stderr,
        results,
    }
}

/// [`run_plan_with`] with no other flag.
pub fn run_plan(dir: &Path, plan: &Plan) -> PlanRun {
    run_plan_with(dir, plan, |_| {})
}

/// The median of `values`.
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    firsttoken_core::base::order::sort_numbers(&mut sorted);
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// `firsttoken run` with one custom OpenAI-compatible target per script
/// on `mock`, nothing else yet.
pub fn run_command(mock: &MockHandle, scripts: &[&str]) -> Command {
    let mut command = firsttoken();
    command.arg("run");
    for script in scripts {
        command
            .arg("--target")
            .arg(format!("custom:{script}@{}/v1", mock.base_url()));
    }
    command
}

/// Runs `scripts` from flags as custom OpenAI-compatible targets on a fresh
/// mock, 20 requests each with no warm-up and no spacing, and returns the
/// results file, `{name}.json` in `dir`.
pub fn run_scripts(dir: &Path, name: &str, scripts: &[&str]) -> PathBuf {
    let mock = mock();
    let results = dir.join(format!("{name}.json"));
    let mut command = run_command(&mock, scripts);
    command
        .args([
            "-n",
            "20",
            "--warmup",
            "0",
            "--spacing",
            "0",
            "--timeout",
            "10",
        ])
        .arg("-o")
        .arg(&results);
    let output = run(&mut command);
    let (stdout, stderr) = texts(&output);
    // Exit 5 when a script fails every request (http-500): it is meant to.
    let expected = if scripts.iter().any(|s| s.starts_with("http-")) {
        5
    } else {
        0
    };
    assert_eq!(output.status.code(), Some(expected), "{stdout}\n{stderr}");
    results
}
