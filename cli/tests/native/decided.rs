//! `run --until-decided`: a run as long as its questions need. Two targets
//! far apart stop at the floor with the decision said; two equally fast
//! ones run on to the cap and say nothing was told apart, unless asked
//! whether they are equivalent within a margin. With `--fail-on`,
//! an objective decided met exits 0, missed 3, and still open at the cap
//! 4; a run killed with SIGKILL and resumed stops where it should.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use firsttoken_core::base::document;
use firsttoken_core::base::lang::Lang;
use firsttoken_core::documents::results::import_json;
use firsttoken_core::narrative::ending::until_decided_text;
use firsttoken_core::wire::questions::Questions;
use firsttoken_core::wire::sample::Sample;
use firsttoken_mock::MockHandle;

use super::support::{firsttoken, mock, run, run_command, scratch, texts};

/// Runs two mock scripts until decided, `cap` requests per target at most
/// and a floor of 20; the output and the measured samples per target.
fn run_until_decided(
    name: &str,
    scripts: [&str; 2],
    cap: u32,
    extra: &[&str],
) -> (String, [usize; 2]) {
    let mock = mock();
    let dir = scratch(name);
    let results = dir.join("results.json");
    let mut command = firsttoken();
    command.arg("run");
    for script in scripts {
        command
            .arg("--target")
            .arg(format!("custom:{script}@{}/v1", mock.base_url()));
    }
    let cap = cap.to_string();
    command
        .args(["-n", cap.as_str(), "--warmup", "1", "--spacing", "0"])
        .args(["--timeout", "10", "--until-decided", "--min-requests", "20"])
        .args(extra)
        .arg("-o")
        .arg(&results);
    let output = run(&mut command);
    let (stdout, stderr) = texts(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let doc = import_json(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert!(
        doc.plan.until_decided,
        "the results keep the plan's question"
    );
    let measured = |target: u32| {
        doc.samples
            .iter()
            .filter(|s| s.target == target && !s.warmup)
            .count()
    };
    std::fs::remove_dir_all(&dir).unwrap();
    (stdout, [measured(0), measured(1)])
}

#[test]
fn two_targets_far_apart_stop_at_the_floor_and_say_which_is_faster() {
    let (stdout, measured) = run_until_decided("decided-far", ["fixed@20", "fixed@200"], 200, &[]);
    assert_eq!(measured, [20, 20], "{stdout}");
    assert!(
        stdout.contains(
            "decided after 20 requests per target: Custom OpenAI-compatible · fixed@20 is faster \
             than Custom OpenAI-compatible · fixed@200 (anytime-valid 95 %); the tail figures \
             rest on 20 requests per target, fewer than the 75 a cold-start tail needs"
        ),
        "{stdout}"
    );
}

#[test]
fn two_equally_fast_targets_run_to_the_cap_and_say_nothing_was_told_apart() {
    let (stdout, measured) = run_until_decided("decided-close", ["fixed@40", "fixed@40"], 25, &[]);
    assert_eq!(measured, [25, 25], "{stdout}");
    assert!(
        stdout.contains("not decided after 25 requests per target:"),
        "{stdout}"
    );
    assert!(
        stdout.contains("not told apart (anytime-valid 95 %)"),
        "{stdout}"
    );
}

/// With `--equivalent-within 20`, the same two equally fast targets stop
/// long before the cap, said equivalent within ±20 %, and the results
/// keep the margin.
#[test]
fn two_equally_fast_targets_with_a_margin_stop_when_shown_equivalent() {
    let (stdout, measured) = run_until_decided(
        "decided-equivalent",
        ["fixed@40", "fixed@40"],
        200,
        &["--equivalent-within", "20%"],
    );
    assert_eq!(measured[0], measured[1], "{stdout}");
    assert!(
        measured[0] >= 20 && measured[0] < 100,
        "{measured:?}\n{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "decided after {} requests per target:",
            measured[0]
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("are equivalent within ±20 % (anytime-valid 95 %)"),
        "{stdout}"
    );
}

/// `firsttoken run` on the mock with a custom target per script, no
/// warm-up, and `args`, results to `dir/results.json`.
fn run_scripts_with(dir: &Path, mock: &MockHandle, scripts: &[&str], args: &[&str]) -> Command {
    let mut command = run_command(mock, scripts);
    command
        .args(["--warmup", "0", "--timeout", "10"])
        .args(args)
        .arg("-o")
        .arg(dir.join("results.json"));
    command
}

/// Runs one script until decided with `objective`, `cap` requests at most
/// and a floor of 20: the exit code, standard output and error, and the
/// measured requests.
fn run_objective(
    name: &str,
    script: &str,
    objective: &str,
    cap: u32,
) -> (i32, String, String, usize) {
    let mock = mock();
    let dir = scratch(name);
    let cap = cap.to_string();
    let output = run(&mut run_scripts_with(
        &dir,
        &mock,
        &[script],
        &[
            "-n",
            cap.as_str(),
            "--spacing",
            "0",
            "--until-decided",
            "--min-requests",
            "20",
            "--fail-on",
            objective,
        ],
    ));
    let (stdout, stderr) = texts(&output);
    let doc = import_json(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    assert_eq!(
        doc.plan.objectives,
        [objective],
        "the plan keeps the objective"
    );
    // The line said is the one a replay of the stored samples gives.
    let said = until_decided_text(Lang::En, &doc.plan, &doc.samples).unwrap();
    assert!(stdout.contains(&said), "{said}\n{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
    (
        output.status.code().unwrap_or(-1),
        stdout,
        stderr,
        doc.samples.len(),
    )
}

/// Every request within the budget: met once the test is sure, after 134
/// requests (a p95 objective needs that many even when no request misses),
/// exit 0.
#[test]
fn an_objective_every_request_meets_is_decided_met_and_exits_0() {
    let (code, stdout, stderr, measured) =
        run_objective("objective-met", "fixed@20", "p95>500ms", 300);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert_eq!(measured, 134, "{stdout}");
    assert!(
        stdout.contains(
            "decided after 134 requests per target: p95 at most 500 ms: Custom \
             OpenAI-compatible · fixed@20 meets it (anytime-valid 95 %)"
        ),
        "{stdout}"
    );
    assert!(
        stderr.contains(
            "met p95>500 ms: Custom OpenAI-compatible · fixed@20: decided after 134 requests \
             (anytime-valid 95 %)"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("every target meets every objective (1 checks)"),
        "{stderr}"
    );
}

/// Every request over the budget: missed within a few requests, stopped at
/// the floor, exit 3.
#[test]
fn an_objective_every_request_misses_is_decided_missed_at_the_floor_and_exits_3() {
    let (code, stdout, stderr, measured) =
        run_objective("objective-missed", "fixed@200", "p95>50ms", 300);
    assert_eq!(code, 3, "{stdout}\n{stderr}");
    assert_eq!(measured, 20, "{stdout}");
    assert!(
        stdout.contains(
            "decided after 20 requests per target: p95 at most 50 ms: Custom OpenAI-compatible \
             · fixed@200 misses it (anytime-valid 95 %)"
        ),
        "{stdout}"
    );
    assert!(
        stderr.contains(
            "FAILED p95>50 ms: Custom OpenAI-compatible · fixed@200: p95 above 50 ms, decided \
             after 20 requests (anytime-valid 95 %)"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 of 1 checks failed: a target crossed an objective (exit 3)"),
        "{stderr}"
    );
}

/// One request in twenty cold (2.5 to 3.5 s) against a p95 of 1 s: the
/// share within is at the objective's bound, and the run reaches its cap
/// of 40 without a decision: exit 4.
#[test]
fn an_objective_at_its_bound_is_not_decided_at_the_cap_and_exits_4() {
    let (code, stdout, stderr, measured) =
        run_objective("objective-open", "bimodal@5", "p95>1s", 40);
    assert_eq!(code, 4, "{stdout}\n{stderr}");
    assert_eq!(measured, 40, "{stdout}");
    assert!(
        stdout.contains(
            "not decided after 40 requests per target: p95 at most 1 s: Custom \
             OpenAI-compatible · bimodal@5 not decided (anytime-valid 95 %)"
        ),
        "{stdout}"
    );
    assert!(
        stderr.contains(
            "undecided p95>1 s: Custom OpenAI-compatible · bimodal@5: not decided after 40 \
             requests (anytime-valid 95 %)"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 of 1 checks not decided after 40 requests per target, the cap (exit 4)"),
        "{stderr}"
    );
}

/// Without --until-decided, `run --fail-on` judges the results at the end
/// exactly as `report --fail-on` judges the file: the same lines, exit 3
/// or 0.
#[test]
fn without_until_decided_run_fail_on_judges_the_end_as_report_does() {
    let mock = mock();
    let dir = scratch("objective-end");
    for (script, code) in [("fixed@20", 0), ("fixed@200", 3)] {
        let output = run(&mut run_scripts_with(
            &dir,
            &mock,
            &[script],
            &[
                "-n",
                "10",
                "--spacing",
                "0",
                "--fail-on",
                "p95>100ms",
                "--fail-on",
                "error_rate>2%",
            ],
        ));
        let (stdout, stderr) = texts(&output);
        assert_eq!(output.status.code(), Some(code), "{stdout}\n{stderr}");
        let report = run(firsttoken()
            .arg("report")
            .arg(dir.join("results.json"))
            .args(["--fail-on", "p95>100ms", "--fail-on", "error_rate>2%"]));
        let (_, report_stderr) = texts(&report);
        assert_eq!(report.status.code(), Some(code), "{report_stderr}");
        let checks = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|line| line.starts_with("met ") || line.starts_with("FAILED "))
                .map(str::to_owned)
                .collect()
        };
        assert_eq!(checks(&stderr).len(), 2, "{stderr}");
        assert_eq!(checks(&stderr), checks(&report_stderr));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The samples journaled so far (the first line is the run's header).
fn journaled(path: &Path) -> Vec<Sample> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .skip(1)
        .filter_map(|line| document::from_str::<Sample>(line).ok())
        .collect()
}

/// A run until decided killed with SIGKILL after its fast target stopped,
/// then resumed from its journal: the fast target sends nothing more, the
/// two alike run to the cap, and the results and the decision said are
/// those a replay of the stored samples gives.
#[test]
fn a_run_until_decided_killed_and_resumed_stops_where_it_should() {
    let mock = mock();
    let dir = scratch("decided-kill9");
    let journal = dir.join("results.json.journal");
    let scripts = ["fixed@20", "fixed@100", "fixed@100"];
    let args = [
        "-n",
        "30",
        "--until-decided",
        "--min-requests",
        "20",
        "--spacing",
        "0.05",
    ];
    let mut child = run_scripts_with(&dir, &mock, &scripts, &args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The fast target's 20th request is the run's 58th: kill after 64.
    let started = Instant::now();
    while journaled(&journal).len() < 64 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the journal did not grow"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL: no handler runs, nothing is flushed.
    child.wait().unwrap();
    let kept = journaled(&journal);
    let count =
        |samples: &[Sample], target: u32| samples.iter().filter(|s| s.target == target).count();
    assert_eq!(
        count(&kept, 0),
        20,
        "the fast target stopped before the kill"
    );
    assert!(count(&kept, 1) < 30, "killed before the cap");

    let output = run(run_scripts_with(&dir, &mock, &scripts, &args).arg("--resume"));
    let (stdout, stderr) = texts(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains(&format!("{} samples kept", kept.len())),
        "{stdout}"
    );
    let doc = import_json(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    assert_eq!(
        &doc.samples[..kept.len()],
        kept.as_slice(),
        "kept bit for bit"
    );
    assert_eq!(
        [
            count(&doc.samples, 0),
            count(&doc.samples, 1),
            count(&doc.samples, 2)
        ],
        [20, 30, 30],
        "the fast target sent nothing after the resume"
    );
    let mut sent: Vec<(u32, u32)> = doc.samples.iter().map(|s| (s.target, s.seq)).collect();
    sent.sort_unstable();
    sent.dedup();
    assert_eq!(sent.len(), doc.samples.len(), "no request sent twice");
    // The decision said is the replay's.
    let said = until_decided_text(Lang::En, &doc.plan, &doc.samples).unwrap();
    assert!(stdout.contains(&said), "{said}\n{stdout}");
    assert!(
        said.starts_with("not decided after 30 requests per target: ")
            && said
                .contains("stopped early: Custom OpenAI-compatible · fixed@20 after 20 requests"),
        "{said}"
    );
    let questions = Questions::replayed(&doc.plan, &doc.samples).unwrap();
    assert!(questions.target_decided(0) && !questions.all_decided());
    std::fs::remove_dir_all(&dir).unwrap();
}
