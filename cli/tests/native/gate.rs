//! `report --fail-on`: exit 3 when a target crosses an objective, naming
//! the target and the figure; 0 when every target meets every objective.

use super::support::{firsttoken, run, run_scripts, scratch, texts};

const OBJECTIVES: [&str; 6] = [
    "--fail-on",
    "p95>100ms",
    "--fail-on",
    "error_rate>2%",
    "--fail-on",
    "verdict>=cold_starts",
];

#[test]
fn a_steady_target_passes_and_a_degraded_one_exits_3_naming_target_and_figure() {
    let dir = scratch("gate");
    let steady = run_scripts(&dir, "steady", &["fixed@10"]);
    let output = run(firsttoken().arg("report").args(OBJECTIVES).arg(&steady));
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("Model: fixed@10"),
        "the report still prints"
    );
    assert!(
        stderr.contains("every target meets every objective (3 checks)"),
        "{stderr}"
    );
    assert!(!stderr.contains("FAILED"), "{stderr}");

    let degraded = run_scripts(&dir, "degraded", &["fixed@10", "fixed@150", "http-500"]);
    let output = run(firsttoken().arg("report").args(OBJECTIVES).arg(&degraded));
    let (_, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    let failed: Vec<&str> = stderr.lines().filter(|l| l.starts_with("FAILED")).collect();
    // fixed@150: every request takes 150 ms, so even the p95's lower bound
    // is above 100 ms. http-500: every request failed, so no latency and
    // no verdict to judge, and an error rate of 100 %.
    // Its p95 is the 150 ms the mock waits and whatever a busy machine
    // adds on top: read, not assumed to stay under 200 ms.
    let p95_ms = failed.iter().find_map(|l| {
        let rest =
            l.strip_prefix("FAILED p95>100 ms: Custom OpenAI-compatible · fixed@150: p95 ")?;
        l.contains("wholly above 100 ms")
            .then(|| rest.split(' ').next()?.parse::<f64>().ok())?
    });
    assert!(p95_ms.is_some_and(|p95| p95 >= 150.0), "{stderr}");
    assert!(
        failed.iter().any(|l| l
            == &"FAILED error_rate>2%: Custom OpenAI-compatible · http-500: error_rate 100 % is above 2 %"),
        "{stderr}"
    );
    assert!(
        !failed.iter().any(|l| l.contains("· fixed@10:")),
        "the steady target meets them: {stderr}"
    );
    assert!(stderr.contains("checks failed"), "{stderr}");

    // --json keeps standard output a JSON document; the verdicts go to stderr.
    let output = run(firsttoken()
        .args(["report", "--json", "--fail-on", "p95>100ms"])
        .arg(&degraded));
    assert_eq!(output.status.code(), Some(3));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["targets"].as_array().unwrap().len(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn strict_judges_the_point_value_and_a_bad_objective_is_refused() {
    let dir = scratch("gate-strict");
    let results = run_scripts(&dir, "steady", &["fixed@150"]);
    let output = run(firsttoken().args(["report", "--json"]).arg(&results));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let ttft = &json["summary"][0]["ttft"];
    let median = ttft["median"].as_f64().unwrap();
    let low = ttft["median_ci"][0].as_f64().unwrap();
    assert!(low < median, "{ttft}");
    let code = |objective: &str, strict: bool| {
        let mut command = firsttoken();
        command.args(["report", "--fail-on", objective]);
        if strict {
            command.arg("--strict");
        }
        let output = run(command.arg(&results));
        (output.status.code(), texts(&output).1)
    };
    // A limit between the interval's low end and the median: the point
    // is above it, the interval is not wholly, so only --strict fails.
    let between = format!("median>{:.4}ms", (low + median) / 2.0);
    let (held, stderr) = code(&between, false);
    assert_eq!(held, Some(0), "{stderr}");
    assert!(stderr.starts_with("held median>"), "{stderr}");
    assert!(
        stderr.contains("--strict fails on the point value"),
        "{stderr}"
    );
    assert_eq!(code(&between, true).0, Some(3));
    // Below the whole interval: both fail; above the point: neither.
    assert_eq!(code("median>100ms", false).0, Some(3));
    assert_eq!(code("median>10s", true).0, Some(0));

    for bad in [
        "p95<2s",
        "p95>2",
        "p97>2s",
        "error_rate>0.02",
        "verdict>=meh",
    ] {
        let output = run(firsttoken()
            .args(["report", "--fail-on", bad])
            .arg(&results));
        let (_, stderr) = texts(&output);
        assert_eq!(output.status.code(), Some(2), "{bad}: {stderr}");
        assert!(stderr.contains(bad), "{bad}: {stderr}");
    }
    let output = run(firsttoken().args(["report", "--strict"]).arg(&results));
    assert_eq!(output.status.code(), Some(2), "--strict needs --fail-on");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Lays out in `dir` what a monitor step finds: the built runner at
/// `target/release/firsttoken` and a `monitor/` folder.
pub fn runner_in(dir: &std::path::Path) {
    std::fs::create_dir_all(dir.join("target/release")).unwrap();
    std::os::unix::fs::symlink(
        env!("CARGO_BIN_EXE_firsttoken"),
        dir.join("target/release/firsttoken"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("monitor")).unwrap();
}

/// The `run:` script of the monitor workflow's step named `name`.
fn workflow_step_script(name: &str) -> String {
    step_script("monitor.yml", name)
}

/// The `run:` script of the step named `name` in `.github/workflows/WORKFLOW`.
pub fn step_script(workflow: &str, name: &str) -> String {
    let workflow = std::fs::read_to_string(format!(
        "{}/../.github/workflows/{workflow}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let step = workflow
        .split_once(&format!("- name: {name}\n"))
        .unwrap_or_else(|| panic!("no step {name:?}"))
        .1;
    let script = step.split_once("run: |\n").unwrap().1;
    let indent = script.len() - script.trim_start().len();
    script
        .lines()
        .take_while(|line| line.is_empty() || line.len() - line.trim_start().len() >= indent)
        .map(|line| line.get(indent..).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_monitor_workflow_fails_its_run_when_a_target_crosses_an_objective() {
    let dir = scratch("gate-workflow");
    let script = workflow_step_script("Check the objectives");
    assert!(script.contains("--fail-on"), "{script}");
    // The step's world: the built runner, the objectives and this
    // vantage's results, as the measure job leaves them.
    runner_in(&dir);
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../monitor/objectives.example"),
        dir.join("monitor/objectives"),
    )
    .unwrap();
    let step = |results: &std::path::Path| {
        std::fs::copy(results, dir.join("results-loopback.json")).unwrap();
        std::process::Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(&dir)
            .env("VANTAGE", "loopback")
            .output()
            .unwrap()
    };
    let steady = run_scripts(&dir, "steady", &["fixed@10"]);
    let output = step(&steady);
    let (_, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("every target meets every objective"),
        "{stderr}"
    );

    // The example's error_rate>10%: a provider answering 500 fails the run.
    let degraded = run_scripts(&dir, "degraded", &["fixed@10", "http-500"]);
    let output = step(&degraded);
    let (_, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("FAILED error_rate>10%: Custom OpenAI-compatible · http-500"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
