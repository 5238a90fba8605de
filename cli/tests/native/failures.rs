//! A run in which a target never got an answer says why, at its end and in
//! the report, in the provider's own words, and exits 5: an unknown model
//! (HTTP 400 with the provider's message) and a rate limit (429 with its
//! `Retry-After`).

use super::support::{firsttoken, mock, quick_plan, run, scratch, target, texts};

#[test]
fn a_target_that_never_answered_says_why_and_the_run_exits_5() {
    let mock = mock();
    let dir = scratch("failures");
    let results = dir.join("results.json");
    let base = format!("{}/v1", mock.base_url());
    let output = run(firsttoken()
        .arg("run")
        .arg("--target")
        .arg(format!("openai:gpt-4o-mini@{base}"))
        .arg("--target")
        .arg(format!("custom:http-429/m@{base}"))
        .arg("--target")
        .arg(format!("custom:fixed@20/m@{base}"))
        .args(["-n", "3", "--warmup", "1", "--spacing", "0.05", "-o"])
        .arg(&results));
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(5), "{stdout}\n{stderr}");
    let said = |needle: &str| {
        stdout
            .lines()
            .any(|line| line.starts_with("error: ") && line.contains(needle))
    };
    assert!(
        said("no successful request; 3 of 3 failed with “HTTP 400")
            && said("unknown mock script 'gpt-4o-mini'"),
        "{stdout}"
    );
    assert!(said("; Retry-After 7 s"), "{stdout}");
    assert!(
        !said("fixed@20"),
        "a target that answered is not named: {stdout}"
    );
    assert!(results.exists(), "the results are still written");

    for (lang, heading, reason) in [
        (
            "en",
            "Without a successful request",
            "3 of 3 failed with “HTTP 400",
        ),
        (
            "zh-CN",
            "没有成功请求的目标",
            "3 个失败中有 3 个：服务商返回 HTTP 400：",
        ),
    ] {
        let output = run(firsttoken()
            .arg("report")
            .args(["--lang", lang])
            .arg(&results));
        let (text, _) = texts(&output);
        let section = &text[text
            .find(heading)
            .unwrap_or_else(|| panic!("{lang}: {text}"))..];
        assert!(section.contains(reason), "{lang}: {section}");
        assert!(section.contains("Retry-After 7"), "{lang}: {section}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The monitor's "Run the plan" step keeps a run whose target never
/// answered (exit 5): its results and report are written for publishing,
/// and the step succeeds; any other failure still stops it.
#[test]
fn the_monitor_keeps_a_run_whose_target_never_answered() {
    use firsttoken_core::planning::plan::Protocol;
    let mock = mock();
    let dir = scratch("failures-monitor");
    let script = super::gate::step_script("monitor.yml", "Run the plan");
    super::gate::runner_in(&dir);
    let plan = quick_plan(
        vec![
            target(&mock, Protocol::OpenAi, "fixed@5"),
            target(&mock, Protocol::OpenAi, "http-500"),
        ],
        2,
    );
    std::fs::write(dir.join("monitor/plan.json"), plan.to_json_pretty()).unwrap();
    let step = || {
        std::process::Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(&dir)
            .env("VANTAGE", "loopback")
            .output()
            .unwrap()
    };
    let output = step();
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("error: openai http-500: no successful request"),
        "{stdout}"
    );
    assert!(dir.join("results-loopback.json").exists());
    assert!(dir.join("report-loopback.html").exists());

    // A plan that cannot be read is still a failed step (exit 2).
    std::fs::write(dir.join("monitor/plan.json"), "{").unwrap();
    std::fs::remove_file(dir.join("results-loopback.json")).unwrap();
    let output = step();
    assert_eq!(output.status.code(), Some(2), "{}", texts(&output).1);
    std::fs::remove_dir_all(&dir).unwrap();
}
