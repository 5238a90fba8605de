//! `run --until-decided`: a run as long as its question needs. Two targets
//! far apart stop at the floor with the decision said; two equally fast
//! ones run on to the cap and say nothing was told apart.

use firsttoken_core::documents::results::import_json;

use super::support::{firsttoken, mock, run, scratch, texts};

/// Runs two mock scripts until decided, `cap` requests per target at most
/// and a floor of 20; the output and the measured samples per target.
fn run_until_decided(name: &str, scripts: [&str; 2], cap: u32) -> (String, [usize; 2]) {
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
    let (stdout, measured) = run_until_decided("decided-far", ["fixed@20", "fixed@200"], 200);
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
    let (stdout, measured) = run_until_decided("decided-close", ["fixed@40", "fixed@40"], 25);
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
