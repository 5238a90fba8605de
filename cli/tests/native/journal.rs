//! The journal over a real process: `kill -9` in the middle of a run, then
//! `--resume`, against the mock over real sockets.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use firsttoken_core::base::document;
use firsttoken_core::planning::plan::Protocol;
use firsttoken_core::wire::sample::Sample;

use super::support::{
    firsttoken, mock, quick_plan, run, run_plan_with, scratch, target, texts, write_plan,
};

const KEY: &str = "sk-firsttoken-RECOGNISABLE-journal-0123456789";

/// The samples journaled so far (the first line is the run's header).
fn journaled(path: &Path) -> Vec<Sample> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .skip(1)
        .filter_map(|line| document::from_str::<Sample>(line).ok())
        .collect()
}

#[test]
fn kill_9_loses_at_most_the_request_in_flight_and_resume_finishes_the_run() {
    let mock = mock();
    let dir = scratch("kill9");
    let mut plan = quick_plan(
        vec![
            target(&mock, Protocol::OpenAi, "fixed@20"),
            target(&mock, Protocol::Anthropic, "fixed@20"),
        ],
        5,
    );
    plan.warmup_per_target = 1;
    plan.spacing_s = 0.15;
    let plan_path = write_plan(&dir, &plan);
    let results = dir.join("results.json");
    let journal = dir.join("results.json.journal");

    let mut child = firsttoken()
        .env("FIRSTTOKEN_KEY", KEY)
        .arg("run")
        .arg(&plan_path)
        .arg("-o")
        .arg(&results)
        .arg("--vantage")
        .arg("fra1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while journaled(&journal).len() < 4 {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the journal did not grow"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL: no handler runs, nothing is flushed.
    child.wait().unwrap();
    assert!(!results.exists(), "a killed run wrote no results file");

    let kept = journaled(&journal);
    let sent = mock
        .settled_ground_truth(Duration::from_millis(300))
        .requests
        .len();
    assert!(
        sent - kept.len() <= 1,
        "{sent} requests sent, {} journaled: more than the one in flight was lost",
        kept.len()
    );
    let journal_text = std::fs::read_to_string(&journal).unwrap();
    assert!(
        !journal_text.contains("RECOGNISABLE"),
        "the key reached the journal"
    );

    // A new run must not overwrite the unfinished one.
    let refused = run_plan_with(&dir, &plan, |command| {
        command.env("FIRSTTOKEN_KEY", KEY);
    });
    let stderr = &refused.stderr;
    assert_eq!(refused.output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--resume"), "{stderr}");

    let resumed = run_plan_with(&dir, &plan, |command| {
        command.env("FIRSTTOKEN_KEY", KEY).arg("--resume");
    })
    .succeeded();
    let (stdout, stderr) = (&resumed.stdout, &resumed.stderr);
    assert!(!stdout.contains("RECOGNISABLE") && !stderr.contains("RECOGNISABLE"));
    assert!(
        stdout.contains(&format!("{} samples kept", kept.len())),
        "{stdout}"
    );

    let doc = resumed.doc();
    assert_eq!(doc.plan, plan);
    // Every planned request exactly once.
    let mut done: Vec<(u32, u32)> = doc.samples.iter().map(|s| (s.target, s.seq)).collect();
    done.sort_unstable();
    let planned: Vec<(u32, u32)> = (0..2)
        .flat_map(|target| (0..6).map(move |seq| (target, seq)))
        .collect();
    assert_eq!(done, planned);
    assert!(doc.samples.iter().all(|s| s.error.is_none()));
    // The samples measured before the kill are kept bit for bit.
    assert_eq!(&doc.samples[..kept.len()], kept.as_slice());
    // A finished run's journal has served its purpose.
    assert!(!journal.exists());
    assert!(
        !std::fs::read_to_string(&results)
            .unwrap()
            .contains("RECOGNISABLE")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stopped_run_keeps_its_journal_and_resumes_only_with_its_own_plan() {
    let mock = mock();
    let dir = scratch("resume-plan");
    let mut plan = quick_plan(vec![target(&mock, Protocol::Gemini, "stall")], 2);
    plan.timeout_s = 60.0;
    let plan_path = write_plan(&dir, &plan);
    let results = dir.join("results.json");
    let child = firsttoken()
        .arg("run")
        .arg(&plan_path)
        .arg("-o")
        .arg(&results)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while mock.ground_truth().requests.is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "no request arrived"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("--resume"), "{stdout}");
    let journal = dir.join("results.json.journal");
    assert_eq!(
        journaled(&journal).len(),
        1,
        "the aborted request is journaled"
    );

    let other = dir.join("other-plan.json");
    let mut changed = plan.clone();
    changed.requests_per_target = 3;
    std::fs::write(&other, changed.to_json_pretty()).unwrap();
    let refused = run(firsttoken()
        .arg("run")
        .arg(&other)
        .arg("-o")
        .arg(&results)
        .arg("--resume"));
    let (_, stderr) = texts(&refused);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("different plan"), "{stderr}");

    let missing = run(firsttoken()
        .arg("run")
        .arg(&plan_path)
        .arg("-o")
        .arg(dir.join("never.json"))
        .arg("--resume"));
    let (_, stderr) = texts(&missing);
    assert_eq!(missing.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("nothing to resume"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
