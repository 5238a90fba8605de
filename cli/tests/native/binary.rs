//! The `firsttoken` binary end to end: a three-protocol run, faults, the
//! report, keys, Ctrl-C.

use std::process::Stdio;
use std::time::{Duration, Instant};

use firsttoken::core::plan::{Plan, Protocol, Target};
use firsttoken::core::report::{REPORT_SEED, build_report};
use firsttoken::core::results::import_json;
use firsttoken::core::sample::ErrorKind;

use super::support::{
    PROTOCOLS, firsttoken, mock, quick_plan, run, scratch, target, texts, write_plan,
};

#[test]
fn a_three_protocol_run_writes_every_planned_sample_and_the_report_matches_core() {
    let mock = mock();
    let dir = scratch("three");
    let mut plan = quick_plan(
        PROTOCOLS
            .iter()
            .map(|p| target(&mock, *p, "fixed@15"))
            .collect(),
        4,
    );
    plan.warmup_per_target = 1;
    plan.spacing_s = 0.01;
    let plan_path = write_plan(&dir, &plan);
    let results = dir.join("results.json");
    let csv = dir.join("results.csv");
    let output = run(firsttoken()
        .arg("run")
        .arg(&plan_path)
        .arg("-o")
        .arg(&results)
        .arg("--csv")
        .arg(&csv)
        .arg("--vantage")
        .arg("loopback"));
    let (stdout, stderr) = texts(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    // Not a terminal: one plain line per sample.
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with('[')).count(),
        15,
        "{stdout}"
    );

    let doc = import_json(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(doc.plan, plan);
    assert_eq!(doc.samples.len(), 15);
    for target in 0..3 {
        let mut seqs: Vec<u32> = doc
            .samples
            .iter()
            .filter(|s| s.target == target)
            .map(|s| s.seq)
            .collect();
        seqs.sort_unstable();
        assert_eq!(seqs, [0, 1, 2, 3, 4]);
    }
    assert!(
        doc.samples
            .iter()
            .all(|s| s.error.is_none() && s.ttft_ms.is_some())
    );
    assert!(
        doc.samples
            .iter()
            .all(|s| s.sent_at_ms >= s.planned_at_ms - 1.0)
    );
    assert!(doc.environment.user_agent.starts_with("firsttoken/"));
    let csv_text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(csv_text.lines().count(), 16);

    let output = run(firsttoken().arg("report").arg("--json").arg(&results));
    assert!(output.status.success());
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let expected = build_report(
        &doc.plan,
        &doc.samples,
        doc.environment.tz_offset_min,
        REPORT_SEED,
    );
    for (shown, computed) in json["targets"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&expected.targets)
    {
        let ttft = computed.ttft.unwrap();
        assert_eq!(shown["ttft_ms"]["median"].as_f64(), Some(ttft.median));
        assert_eq!(shown["ttft_ms"]["p95"].as_f64(), Some(ttft.p95));
        assert_eq!(shown["ttft_ms"]["cv_pct"].as_f64(), Some(ttft.cv_pct));
        assert_eq!(shown["requests"].as_u64(), Some(4));
        assert_eq!(shown["warmups"].as_u64(), Some(1));
    }
    assert_eq!(json["routing"]["firsttoken_routing"].as_u64(), Some(1));

    let output = run(firsttoken().arg("report").arg(&results));
    let (stdout, _) = texts(&output);
    assert!(
        stdout.contains("Model: fixed@15") && stdout.contains("Routing"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fault_plan_turns_each_fault_into_a_typed_error_sample() {
    let mock = mock();
    let dir = scratch("faults");
    let closed_port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut targets: Vec<Target> = [
        "http-401",
        "http-500",
        "error-event",
        "cut",
        "stall",
        "not-sse",
    ]
    .iter()
    .map(|script| target(&mock, Protocol::OpenAi, script))
    .collect();
    targets.push(Target {
        label: "closed port".to_owned(),
        base_url: format!("http://127.0.0.1:{closed_port}/v1"),
        ..target(&mock, Protocol::OpenAi, "fixed")
    });
    let mut plan = quick_plan(targets, 1);
    plan.timeout_s = 0.5;
    let results = dir.join("results.json");
    let output = run(firsttoken()
        .arg("run")
        .arg(write_plan(&dir, &plan))
        .arg("-o")
        .arg(&results));
    let (stdout, stderr) = texts(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let doc = import_json(&std::fs::read_to_string(&results).unwrap()).unwrap();
    let kinds: Vec<ErrorKind> = doc
        .samples
        .iter()
        .map(|s| s.error.as_ref().unwrap().kind)
        .collect();
    assert_eq!(
        kinds,
        [
            ErrorKind::HttpStatus,
            ErrorKind::HttpStatus,
            ErrorKind::ProviderError,
            ErrorKind::StreamCut,
            ErrorKind::Timeout,
            ErrorKind::NotSse,
            ErrorKind::CorsOrNetwork,
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_target_without_a_key_is_refused_before_anything_is_sent() {
    let mock = mock();
    let dir = scratch("nokey");
    let plan = quick_plan(
        vec![
            target(&mock, Protocol::OpenAi, "fixed"),
            Target {
                label: "DeepSeek".to_owned(),
                protocol: Protocol::OpenAi,
                base_url: "https://api.deepseek.com".to_owned(),
                model: "deepseek-chat".to_owned(),
                provider: Some("deepseek".to_owned()),
            },
        ],
        1,
    );
    let results = dir.join("results.json");
    let output = run(firsttoken()
        .arg("run")
        .arg(write_plan(&dir, &plan))
        .arg("-o")
        .arg(&results));
    let (_, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("FIRSTTOKEN_KEY_DEEPSEEK"), "{stderr}");
    assert!(!results.exists());
    assert!(mock.ground_truth().requests.is_empty(), "nothing was sent");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_key_reaches_the_provider_and_nothing_else() {
    const KEY: &str = "sk-firsttoken-RECOGNISABLE-0123456789";
    let mock = mock();
    let dir = scratch("key");
    let mut targets: Vec<Target> = ["fixed@5", "http-401", "stall"]
        .iter()
        .map(|script| Target {
            provider: Some("openai".to_owned()),
            ..target(&mock, Protocol::OpenAi, script)
        })
        .collect();
    targets.push(Target {
        provider: Some("anthropic".to_owned()),
        ..target(&mock, Protocol::Anthropic, "error-event")
    });
    let mut plan = quick_plan(targets, 2);
    plan.timeout_s = 0.3;
    let results = dir.join("results.json");
    let csv = dir.join("results.csv");
    let output = run(firsttoken()
        .env("FIRSTTOKEN_KEY_OPENAI", KEY)
        .env("FIRSTTOKEN_KEY", KEY)
        .arg("run")
        .arg(write_plan(&dir, &plan))
        .arg("-o")
        .arg(&results)
        .arg("--csv")
        .arg(&csv));
    let (stdout, stderr) = texts(&output);
    assert!(output.status.success(), "{stderr}");
    let truth = mock.settled_ground_truth(Duration::from_secs(2));
    assert_eq!(truth.requests.len(), 8);
    assert!(
        truth
            .requests
            .iter()
            .all(|r| r.auth != "none" && !r.key_in_query)
    );
    let check = run(firsttoken()
        .env("FIRSTTOKEN_KEY", KEY)
        .arg("check")
        .arg(dir.join("plan.json")));
    let (check_out, check_err) = texts(&check);
    assert_eq!(
        check.status.code(),
        Some(1),
        "two of the targets fail: {check_out}"
    );
    let report = run(firsttoken().arg("report").arg(&results));
    let report_json = run(firsttoken().arg("report").arg("--json").arg(&results));
    let written = [
        std::fs::read_to_string(&results).unwrap(),
        std::fs::read_to_string(&csv).unwrap(),
    ];
    let printed = [
        stdout,
        stderr,
        check_out,
        check_err,
        texts(&report).0,
        texts(&report_json).0,
    ];
    for text in written.iter().chain(&printed) {
        assert!(!text.contains(KEY), "the key leaked: {text}");
        assert!(
            !text.contains("RECOGNISABLE"),
            "part of the key leaked: {text}"
        );
    }
    for entry in std::fs::read_dir(&dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains("RECOGNISABLE"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ctrl_c_records_the_request_in_flight_as_aborted_and_writes_the_results() {
    let mock = mock();
    let dir = scratch("ctrlc");
    let mut plan = quick_plan(vec![target(&mock, Protocol::Gemini, "stall")], 3);
    plan.timeout_s = 60.0;
    let results = dir.join("results.json");
    let mut child = firsttoken()
        .arg("run")
        .arg(write_plan(&dir, &plan))
        .arg("-o")
        .arg(&results)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the request is in flight: the mock has received it.
    let started = Instant::now();
    while mock.ground_truth().requests.is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "no request arrived"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let interrupted = Instant::now();
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let status = child.wait().unwrap();
    assert!(
        interrupted.elapsed() < Duration::from_secs(5),
        "it stopped at once"
    );
    assert_eq!(status.code(), Some(130));
    let doc = import_json(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(doc.samples.len(), 1);
    assert_eq!(
        doc.samples[0].error.as_ref().unwrap().kind,
        ErrorKind::Aborted
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_plan_from_a_link_or_stdin_and_a_bad_plan_gets_the_pages_messages() {
    let mock = mock();
    let dir = scratch("inputs");
    let plan = quick_plan(vec![target(&mock, Protocol::OpenAi, "fixed@5")], 1);
    let link = format!("http://127.0.0.1:8080/#{}", plan.to_link_fragment());
    let results = dir.join("from-link.json");
    let output = run(firsttoken().arg("run").arg(&link).arg("-o").arg(&results));
    assert!(output.status.success(), "{}", texts(&output).1);
    assert_eq!(
        import_json(&std::fs::read_to_string(&results).unwrap())
            .unwrap()
            .plan,
        plan
    );

    let mut child = firsttoken()
        .args(["run", "-", "-o"])
        .arg(dir.join("from-stdin.json"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(plan.to_json_pretty().as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());

    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"firsttoken_plan": 1, "requests_per_target": 0, "targets": []}"#,
    )
    .unwrap();
    let output = run(firsttoken().arg("run").arg(&bad));
    let (_, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(2));
    let page_messages = Plan::from_json(&std::fs::read_to_string(&bad).unwrap())
        .unwrap_err()
        .messages();
    for message in page_messages {
        assert!(stderr.contains(&message), "{stderr} lacks {message}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
