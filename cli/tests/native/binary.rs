//! The `firsttoken` binary end to end: a three-protocol run, faults, the
//! report, keys, Ctrl-C.

use std::process::Stdio;
use std::time::{Duration, Instant};

use firsttoken_core::documents::results::{RunnerKind, import_json};
use firsttoken_core::judgement::report::{REPORT_SEED, build_report};
use firsttoken_core::planning::plan::{Plan, Protocol, Target};
use firsttoken_core::wire::sample::ErrorKind;

use super::support::{
    PROTOCOLS, firsttoken, mock, quick_plan, run, run_plan, run_plan_with, scratch, target, texts,
    write_plan,
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
    let csv = dir.join("results.csv");
    let ran = run_plan_with(&dir, &plan, |command| {
        command
            .arg("--csv")
            .arg(&csv)
            .arg("--vantage")
            .arg("loopback");
    })
    .succeeded();
    let (stdout, results) = (&ran.stdout, ran.results.clone());
    // Not a terminal: one plain line per sample.
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with('[')).count(),
        15,
        "{stdout}"
    );

    let doc = ran.doc();
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
    assert_eq!(doc.environment.runner, RunnerKind::Cli);
    assert_eq!(doc.environment.vantage.as_deref(), Some("loopback"));
    // One origin (the mock), one connection: opened by the first request,
    // reused by every other, whose phases are null.
    let opened: Vec<_> = doc.samples.iter().map(|s| s.connection).collect();
    let first = opened[0].expect("the first request opened the connection");
    assert_eq!((first.dns_ms, first.tls_ms), (None, None), "IP, plain HTTP");
    assert!(first.connect_ms.is_finite() && first.connect_ms >= 0.0);
    assert!(first.connect_ms <= doc.samples[0].headers_ms.unwrap());
    assert!(opened[1..].iter().all(Option::is_none), "{opened:?}");
    assert_eq!(stdout.matches("new connection").count(), 1, "{stdout}");
    assert_eq!(stdout.matches("reused connection").count(), 14, "{stdout}");
    let csv_text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(csv_text.lines().count(), 16);
    assert!(
        csv_text
            .lines()
            .next()
            .unwrap()
            .ends_with(",dns_ms,connect_ms,tls_ms,cached_tokens,http_status,input_tokens,retry_after_s,max_gap_ms,stalls,buffered,probe,probe_passed")
    );

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

    assert_eq!(json["environment"]["runner"], "cli");
    assert_eq!(json["environment"]["vantage"], "loopback");
    // The summary rows are the results file's, as the page exports them.
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(json["summary"], file["summary"]);
    for member in ["median_ci", "p95_ci", "ci_method", "ci_block_length"] {
        assert!(json["summary"][0]["ttft"].get(member).is_some(), "{member}");
    }
    assert!(json["summary"][0].get("verdict_status").is_some());
    let opened: Vec<&serde_json::Value> = json["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["connections"]["opened"])
        .collect();
    assert_eq!(
        opened,
        [
            &serde_json::json!(1),
            &serde_json::Value::Null,
            &serde_json::Value::Null
        ]
    );

    let output = run(firsttoken().arg("report").arg(&results));
    let (stdout, _) = texts(&output);
    assert!(
        stdout.contains("Model: fixed@15") && stdout.contains("Routing"),
        "{stdout}"
    );
    assert!(
        stdout.lines().next().unwrap().ends_with(" · from loopback"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fresh_connections_open_and_time_a_connection_for_every_request() {
    let mock = mock();
    let dir = scratch("fresh");
    let plan = quick_plan(
        PROTOCOLS
            .iter()
            .map(|p| target(&mock, *p, "fixed@5"))
            .collect(),
        2,
    );
    let ran = run_plan_with(&dir, &plan, |command| {
        command.arg("--fresh-connections");
    })
    .succeeded();
    let (stdout, results) = (&ran.stdout, ran.results.clone());
    let doc = ran.doc();
    assert_eq!(doc.samples.len(), 6);
    for sample in &doc.samples {
        let phases = sample.connection.expect("every request opened one");
        assert!(phases.connect_ms >= 0.0 && phases.connect_ms <= sample.headers_ms.unwrap());
    }
    assert_eq!(stdout.matches("new connection").count(), 6, "{stdout}");
    assert_eq!(stdout.matches("reused connection").count(), 0, "{stdout}");
    assert_eq!(doc.environment.vantage, None);

    // The report summarises each target's connection phases.
    let output = run(firsttoken().arg("report").arg("--json").arg(&results));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    for (index, shown) in json["targets"].as_array().unwrap().iter().enumerate() {
        let connections = &shown["connections"];
        assert_eq!(connections["opened"], 2);
        let connects: Vec<f64> = doc
            .samples
            .iter()
            .filter(|s| s.target as usize == index)
            .map(|s| s.connection.unwrap().connect_ms)
            .collect();
        let median = (connects[0] + connects[1]) / 2.0;
        assert_eq!(connections["connect_ms"]["median"].as_f64(), Some(median));
        assert_eq!(
            connections["dns_ms"],
            serde_json::Value::Null,
            "an IP address"
        );
        assert_eq!(connections["tls_ms"], serde_json::Value::Null, "plain HTTP");
    }
    let output = run(firsttoken().arg("report").arg(&results));
    let (text, _) = texts(&output);
    // The outline's own list under the model's table, like every other.
    assert!(
        text.contains("    openai fixed@5: 2 opened; median connect "),
        "{text}"
    );
    assert!(text.contains("  Connections\n"), "{text}");
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
    // `.invalid` never resolves (RFC 2606); not a local server, so it
    // needs a key.
    targets.push(Target {
        label: "no such host".to_owned(),
        base_url: "http://firsttoken-test.invalid/v1".to_owned(),
        ..target(&mock, Protocol::OpenAi, "fixed")
    });
    // TLS to a port that answers in plain HTTP.
    targets.push(Target {
        label: "tls to plain http".to_owned(),
        base_url: format!("https://{}/v1", plain_http_server()),
        ..target(&mock, Protocol::OpenAi, "fixed")
    });
    let mut plan = quick_plan(targets, 1);
    plan.timeout_s = 0.5;
    let ran = run_plan_with(&dir, &plan, |command| {
        command.env("FIRSTTOKEN_KEY", "sk-test");
    })
    .finished_without_an_answer_from_some();
    let (stdout, doc) = (&ran.stdout, ran.doc());
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
            ErrorKind::Dns,
            ErrorKind::Tls,
        ]
    );
    // Those that never had a connection have no phases.
    assert!(doc.samples[6..].iter().all(|s| s.connection.is_none()));
    assert!(stdout.contains("error dns (request): the provider's host name did not resolve"));
    // The report names each failure in words, never by its exported code.
    for (lang, words) in [
        (
            "en",
            [
                "1 blocked or no network",
                "1 host not found",
                "1 TLS failed",
            ],
        ),
        (
            "zh-CN",
            ["1 被拦截或网络不通", "1 域名无法解析", "1 TLS 握手失败"],
        ),
    ] {
        let output = run(firsttoken()
            .arg("report")
            .arg(&ran.results)
            .args(["--lang", lang]));
        let (text, _) = texts(&output);
        for said in words {
            assert!(text.contains(said), "{lang}: {said}: {text}");
        }
        for code in ErrorKind::ALL.map(ErrorKind::as_str) {
            assert!(
                !text.contains(&format!("1 {code}")),
                "{lang}: {code}: {text}"
            );
        }
    }
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
                provider: Some("deepseek".to_owned()),
                ..Target::openai("DeepSeek", "https://api.deepseek.com", "deepseek-chat")
            },
        ],
        1,
    );
    let ran = run_plan(&dir, &plan);
    let stderr = &ran.stderr;
    assert_eq!(ran.output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("FIRSTTOKEN_KEY_DEEPSEEK"), "{stderr}");
    assert!(!ran.results.exists());
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
    // A provider that quotes the refused key back in its error message.
    targets.push(Target {
        label: "quotes the key".to_owned(),
        base_url: format!("{}/v1", key_echoing_server()),
        ..target(&mock, Protocol::OpenAi, "fixed")
    });
    let echo_host = plan_host(&targets[4]);
    let mock_variable = host_variable_of(&targets[0]);
    let mut plan = quick_plan(targets, 2);
    plan.timeout_s = 0.3;
    let csv = dir.join("results.csv");
    // Tied to their hosts: the mock's by its variable, the echoing
    // server's by --key. The provider's own variable, also set, never goes
    // to either.
    let ran = run_plan_with(&dir, &plan, |command| {
        command
            .env("FIRSTTOKEN_KEY_OPENAI", "sk-openai-must-not-travel")
            .env(&mock_variable, KEY)
            .env("ECHO_KEY", KEY)
            .arg("--csv")
            .arg(&csv)
            .arg("--key")
            .arg(format!("{echo_host}=ECHO_KEY"));
    })
    .finished_without_an_answer_from_some();
    let (stdout, stderr, results) = (&ran.stdout, &ran.stderr, ran.results.clone());
    let truth = mock.settled_ground_truth(Duration::from_secs(2));
    assert_eq!(truth.requests.len(), 8);
    let doc = ran.doc();
    let quoted = doc
        .samples
        .iter()
        .filter(|s| s.target == 4)
        .collect::<Vec<_>>();
    assert_eq!(quoted.len(), 2);
    for sample in quoted {
        let error = sample.error.as_ref().unwrap();
        assert_eq!(error.kind, ErrorKind::HttpStatus);
        assert!(
            error.message.contains("provided: [redacted]"),
            "{}",
            error.message
        );
    }
    assert!(
        truth
            .requests
            .iter()
            .all(|r| r.auth != "none" && !r.key_in_query)
    );
    let check = run(firsttoken()
        .env(&mock_variable, KEY)
        .env("ECHO_KEY", KEY)
        .arg("check")
        .arg(dir.join("plan.json"))
        .arg("--key")
        .arg(format!("{echo_host}=ECHO_KEY")));
    let (check_out, check_err) = texts(&check);
    assert_eq!(
        check.status.code(),
        Some(1),
        "three of the targets fail: {check_out}"
    );
    let report = run(firsttoken().arg("report").arg(&results));
    let report_json = run(firsttoken().arg("report").arg("--json").arg(&results));
    let written = [
        std::fs::read_to_string(&results).unwrap(),
        std::fs::read_to_string(&csv).unwrap(),
    ];
    let printed = [
        stdout.clone(),
        stderr.clone(),
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

/// A server on loopback that answers every connection at once with a
/// plain-HTTP 400, as a plain-HTTP port answers a TLS greeting. Returns
/// its `host:port`.
fn plain_http_server() -> String {
    use std::io::Write;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for mut socket in listener.incoming().flatten() {
            let _ = socket.write_all(b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
        }
    });
    address
}

/// A plain-HTTP server on loopback that answers every request with a 401
/// whose message quotes the request's bearer token, as some providers do.
/// Returns its origin.
fn key_echoing_server() -> String {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for socket in listener.incoming().flatten() {
            let mut reader = BufReader::new(socket);
            let (mut token, mut length) = (String::new(), 0usize);
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
                let lower = line.to_ascii_lowercase();
                if let Some(value) = lower.strip_prefix("authorization: bearer ") {
                    token = line[line.len() - value.len()..].trim().to_owned();
                }
                if let Some(value) = lower.strip_prefix("content-length: ") {
                    length = value.trim().parse().unwrap_or(0);
                }
                line.clear();
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            let reply =
                format!("{{\"error\": {{\"message\": \"Incorrect API key provided: {token}\"}}}}");
            let _ = reader.get_mut().write_all(
                format!(
                    "HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\n\
                     content-length: {}\r\nconnection: close\r\n\r\n{reply}",
                    reply.len()
                )
                .as_bytes(),
            );
        }
    });
    origin
}

#[test]
fn ctrl_c_records_the_request_in_flight_as_aborted_and_writes_the_results() {
    const KEY: &str = "sk-firsttoken-RECOGNISABLE-stopped-0123456789";
    let mock = mock();
    let dir = scratch("ctrlc");
    let echo = Target {
        label: "quotes the key".to_owned(),
        base_url: format!("{}/v1", key_echoing_server()),
        ..target(&mock, Protocol::OpenAi, "fixed")
    };
    let echo_host = plan_host(&echo);
    let mut plan = quick_plan(vec![echo, target(&mock, Protocol::Gemini, "stall")], 3);
    plan.timeout_s = 60.0;
    let results = dir.join("results.json");
    let child = firsttoken()
        .env("ECHO_KEY", KEY)
        .arg("run")
        .arg(write_plan(&dir, &plan))
        .arg("-o")
        .arg(&results)
        .arg("--key")
        .arg(format!("{echo_host}=ECHO_KEY"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the stalled request is in flight: the mock has received it.
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
    let output = child.wait_with_output().unwrap();
    assert!(
        interrupted.elapsed() < Duration::from_secs(5),
        "it stopped at once"
    );
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(130), "{stdout}\n{stderr}");
    let doc = import_json(&std::fs::read_to_string(&results).unwrap()).unwrap();
    let kinds: Vec<ErrorKind> = doc
        .samples
        .iter()
        .map(|s| s.error.as_ref().unwrap().kind)
        .collect();
    assert_eq!(kinds, [ErrorKind::HttpStatus, ErrorKind::Aborted]);
    assert_eq!(doc.samples[1].target, 1);
    assert!(stdout.contains("error aborted"), "{stdout}");
    assert!(stdout.contains("--resume"), "{stdout}");
    // The journal is kept for --resume; neither it nor anything printed
    // holds the key, though the provider quoted it.
    let journal = std::fs::read_to_string(dir.join("results.json.journal")).unwrap();
    assert!(journal.contains("provided: [redacted]"), "{journal}");
    for text in [&journal, &stdout, &stderr] {
        assert!(!text.contains("RECOGNISABLE"), "the key leaked: {text}");
    }
    for entry in std::fs::read_dir(&dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains("RECOGNISABLE"));
    }
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

#[test]
fn every_command_has_help_and_the_exit_codes_are_as_documented() {
    let help = |args: &[&str]| {
        let output = run(firsttoken().args(args));
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        texts(&output).0
    };
    let top = help(&["--help"]);
    for word in [
        "run",
        "report",
        "check",
        "Exit codes: 0 done; 1",
        "130 stopped",
    ] {
        assert!(top.contains(word), "{word}: {top}");
    }
    let run_help = help(&["run", "--help"]);
    for word in [
        "--output <RESULTS.json>",
        "--csv <RESULTS.csv>",
        "--vantage <NAME>",
        "--fresh-connections",
        "--resume",
        "FIRSTTOKEN_KEY_<PROVIDER>",
        "--fail-on <OBJECTIVE>",
        "cannot be decided early",
        "Exit codes",
        "4 `run --until-decided --fail-on`",
    ] {
        assert!(run_help.contains(word), "{word}: {run_help}");
    }
    assert!(help(&["report", "--help"]).contains("--json"));
    assert!(help(&["check", "--help"]).contains("FIRSTTOKEN_KEY"));

    let dir = scratch("exit-codes");
    let refused = |args: &[&str], words: &str| {
        let output = run(firsttoken().current_dir(&dir).args(args));
        let (stdout, stderr) = texts(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stdout}{stderr}");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "errors go to stderr: {stdout}");
    };
    refused(&["run"], "PLAN");
    refused(
        &["run", "--target", "demo:demo-llm", "--fail-on", "p95>2"],
        "\"2\" is not a time",
    );
    refused(&["frobnicate"], "frobnicate");
    refused(&["report", "missing.json"], "missing.json: cannot read it");
    refused(&["run", "missing-plan.json"], "missing-plan.json");
    std::fs::write(
        dir.join("plan.json"),
        "{\"firsttoken_plan\": 1, \"targets\": []}",
    )
    .unwrap();
    refused(
        &["run", "plan.json", "--vantage", " "],
        "--vantage needs a name",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_slow_request_shifts_the_schedule_instead_of_bunching_the_next_sends() {
    let mock = mock();
    let dir = scratch("spacing");
    // 40 % cold starts of 2.5–3.5 s at 1 s spacing: every cold start
    // overruns two planned sends.
    let mut plan = quick_plan(vec![target(&mock, Protocol::OpenAi, "bimodal@40")], 8);
    plan.spacing_s = 1.0;
    let doc = run_plan(&dir, &plan).succeeded().doc();
    let truth = mock.ground_truth();
    assert!(
        truth.requests.iter().any(|r| r.cold == Some(true)),
        "the mock's seeded script gave no cold start"
    );
    let mut sent: Vec<f64> = doc.samples.iter().map(|s| s.sent_at_ms).collect();
    firsttoken_core::base::order::sort_numbers(&mut sent);
    for pair in sent.windows(2) {
        // Spacing 1 s, no jitter: never closer, whatever overran.
        assert!(
            pair[1] - pair[0] >= 999.0,
            "sends {:.0} ms apart",
            pair[1] - pair[0]
        );
    }
    let shift = doc.environment.schedule_shift_ms.unwrap();
    assert!(
        shift >= 1000.0,
        "a cold start of 2.5 s or more moved the schedule: {shift} ms"
    );
}

/// `host:port` of a target's base URL.
fn plan_host(target: &Target) -> String {
    firsttoken_core::base::origin::Origin::parse(&target.base_url)
        .unwrap()
        .host_port()
}

/// The `FIRSTTOKEN_KEY_FOR_<HOST>` variable of a target's host.
fn host_variable_of(target: &Target) -> String {
    let origin = firsttoken_core::base::origin::Origin::parse(&target.base_url).unwrap();
    firsttoken_cli::keys::host_variable(&origin).unwrap()
}

/// Runs `plan` with `env` and `args`, expecting a refusal before anything
/// is sent: exit 2, and no request at the mock.
fn refused(
    mock: &firsttoken_mock::MockHandle,
    name: &str,
    plan: &Plan,
    env: &[(&str, &str)],
    args: &[String],
) -> String {
    let dir = scratch(name);
    let ran = run_plan_with(&dir, plan, |command| {
        for (variable, value) in env {
            command.env(variable, value);
        }
        command.args(args);
    });
    let (stdout, stderr) = (&ran.stdout, &ran.stderr);
    assert_eq!(
        ran.output.status.code(),
        Some(2),
        "{name}: {stdout}\n{stderr}"
    );
    assert!(
        mock.ground_truth().requests.is_empty(),
        "{name}: something was sent"
    );
    assert!(!ran.results.exists());
    ran.stderr
}

#[test]
fn a_key_goes_only_to_the_host_it_was_tied_to() {
    const KEY: &str = "sk-firsttoken-bound-0123456789";
    let mock = mock();
    let mock_host = plan_host(&target(&mock, Protocol::OpenAi, "fixed"));
    // 1. A preset's key never follows the plan to another host.
    let hijack = quick_plan(
        vec![Target {
            label: "looks like OpenAI".to_owned(),
            provider: Some("openai".to_owned()),
            ..target(&mock, Protocol::OpenAi, "fixed")
        }],
        1,
    );
    let message = refused(
        &mock,
        "hijack",
        &hijack,
        &[("FIRSTTOKEN_KEY_OPENAI", KEY)],
        &[],
    );
    assert!(message.contains("target 'looks like OpenAI'"), "{message}");
    assert!(message.contains(&mock_host), "names the host: {message}");
    assert!(message.contains("--key"), "says how to allow it: {message}");
    assert!(!message.contains(KEY));

    // 2. FIRSTTOKEN_KEY is refused when the keyed targets have two origins.
    let two_hosts = quick_plan(
        vec![
            Target {
                label: "remote a".to_owned(),
                base_url: "https://a.example/v1".to_owned(),
                ..target(&mock, Protocol::OpenAi, "fixed")
            },
            Target {
                label: "remote b".to_owned(),
                base_url: "https://b.example/v1".to_owned(),
                ..target(&mock, Protocol::OpenAi, "fixed")
            },
        ],
        1,
    );
    let message = refused(
        &mock,
        "fallback",
        &two_hosts,
        &[("FIRSTTOKEN_KEY", KEY)],
        &[],
    );
    assert!(message.contains("FIRSTTOKEN_KEY"), "{message}");
    assert!(
        message.contains("a.example") && message.contains("b.example"),
        "{message}"
    );

    // 3. A --key naming a variable that is not set is refused too.
    let local = quick_plan(vec![target(&mock, Protocol::OpenAi, "fixed")], 1);
    let message = refused(
        &mock,
        "unset",
        &local,
        &[],
        &[format!("--key={mock_host}=NOT_SET_ANYWHERE")],
    );
    assert!(message.contains("NOT_SET_ANYWHERE"), "{message}");

    // 4. A loopback server needs no key and gets none, whatever is set.
    let dir = scratch("loopback");
    run_plan_with(&dir, &local, |command| {
        command
            .env("FIRSTTOKEN_KEY", KEY)
            .env("FIRSTTOKEN_KEY_OPENAI", KEY);
    })
    .succeeded();
    let truth = mock.settled_ground_truth(Duration::from_secs(2));
    assert_eq!(truth.requests.len(), 1);
    assert_eq!(truth.requests[0].auth, "none");

    // 5. Tied explicitly, it arrives, and the runner says where it goes.
    let ran = run_plan_with(&dir, &local, |command| {
        command
            .env("LOCAL_KEY", KEY)
            .arg("--key")
            .arg(format!("{mock_host}=LOCAL_KEY"));
    })
    .succeeded();
    let stderr = &ran.stderr;
    assert!(
        stderr.contains(&format!("key LOCAL_KEY goes to http://{mock_host}")),
        "{stderr}"
    );
    let truth = mock.settled_ground_truth(Duration::from_secs(2));
    assert_eq!(truth.requests.len(), 2);
    assert_eq!(truth.requests[1].auth, "authorization");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fidelity_run_finds_the_degraded_target_in_every_protocol_and_keeps_probes_out_of_latency() {
    use firsttoken_core::judgement::fidelity_score::FidelityVerdict;
    use firsttoken_core::planning::plan::FidelityPlan;
    let mock = mock();
    let dir = scratch("fidelity");
    let mut faithful = target(&mock, Protocol::OpenAi, "faithful@15");
    faithful.label = "faithful".to_owned();
    let mut degraded = target(&mock, Protocol::Anthropic, "degraded");
    degraded.label = "degraded".to_owned();
    let mut gemini = target(&mock, Protocol::Gemini, "faithful@15");
    gemini.label = "gemini".to_owned();
    let mut plan = quick_plan(vec![faithful, degraded, gemini], 3);
    plan.warmup_per_target = 1;
    plan.spacing_s = 0.01;
    plan.fidelity = Some(FidelityPlan {
        repeats: 1,
        ..FidelityPlan::basic(Some("faithful".to_owned()))
    });
    let ran = run_plan(&dir, &plan).succeeded();
    let (stdout, results) = (&ran.stdout, ran.results.clone());
    assert!(stdout.contains("probe 1 (arith-mul): passed"), "{stdout}");
    assert!(
        stdout.contains("probe 1 (arith-mul): failed (wrong_answer)"),
        "{stdout}"
    );

    let doc = ran.doc();
    assert_eq!(doc.samples.len(), 3 * (1 + 3 + 30));
    let report = build_report(&doc.plan, &doc.samples, 0, REPORT_SEED);
    // Probes answer other prompts: not one is a latency figure.
    for target in &report.targets {
        assert_eq!(target.requests, 3, "{}", target.label);
        assert_eq!(target.ttft.unwrap().n, 3);
    }
    let fidelity = report.fidelity.as_ref().unwrap();
    let verdicts: Vec<FidelityVerdict> = fidelity.targets.iter().map(|t| t.verdict).collect();
    assert_eq!(
        verdicts,
        [
            FidelityVerdict::Reference,
            FidelityVerdict::Differs,
            FidelityVerdict::Consistent
        ]
    );
    assert_eq!(fidelity.targets[1].pass.passed, 21);
    assert_eq!(
        fidelity.targets[1].prompt_tokens.unwrap().median_difference,
        23
    );
    assert_eq!(fidelity.targets[2].pass.passed, 30);

    let text = run(firsttoken().arg("report").arg(&results));
    let (report_text, stderr) = texts(&text);
    assert!(text.status.success(), "{stderr}");
    assert!(
        report_text.contains(
            "\nFidelity: the same answers?\n  Probes basic-1, each sent 1× per target; reference: faithful\n"
        ),
        "{report_text}"
    );
    assert!(
        report_text.contains(
            "Differs from faithful: 21 of 30 (70 %, 52–83 %) probe replies pass; answers differ \
         from faithful on 9 of 30 probe replies"
        ),
        "{report_text}"
    );
    assert!(report_text.contains("Failed probes: degraded: arith-mul (wrong answer, 1 of 1)"));
    assert!(!report_text.to_lowercase().contains("quantiz"));

    let json = run(firsttoken().arg("report").arg("--json").arg(&results));
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value["fidelity"]["targets"][1]["verdict"], "differs");
    assert_eq!(value["summary"][1]["fidelity"]["verdict"], "differs");
    assert_eq!(value["summary"][1]["fidelity"]["passed"], 21);
    assert_eq!(value["summary"][2]["fidelity"]["verdict"], "consistent");
}

/// A plain-HTTP server on loopback whose every answer is a 500 with a
/// message made to drive a terminal: it retitles the window, clears the
/// screen and forges a line of the report. Returns its origin.
fn hostile_error_server() -> String {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for socket in listener.incoming().flatten() {
            let mut reader = BufReader::new(socket);
            let mut length = 0usize;
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
                if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length: ") {
                    length = value.trim().parse().unwrap_or(0);
                }
                line.clear();
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            let reply = r#"{"error": {"message": "\u001b]0;pwned\u0007\u001b[2Jgone\r\n  best provider: evil \u202eplh"}}"#;
            let _ = reader.get_mut().write_all(
                format!(
                    "HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\n\
                     content-length: {}\r\nconnection: close\r\n\r\n{reply}",
                    reply.len()
                )
                .as_bytes(),
            );
        }
    });
    origin
}

#[test]
fn a_strangers_text_reaches_the_terminal_escaped_and_the_files_as_it_was() {
    let mock = mock();
    let dir = scratch("hostile-text");
    let label = "A\u{1b}[31m\n  best provider: forged";
    let hostile = Target {
        label: label.to_owned(),
        base_url: format!("{}/v1", hostile_error_server()),
        ..target(&mock, Protocol::OpenAi, "fixed")
    };
    let plan = quick_plan(vec![hostile, target(&mock, Protocol::OpenAi, "fixed")], 2);
    let ran = run_plan_with(&dir, &plan, |command| {
        command.env("FIRSTTOKEN_KEY", "sk-test");
    })
    .finished_without_an_answer_from_some();
    let (stdout, stderr, results) = (&ran.stdout, &ran.stderr, ran.results.clone());
    let unsafe_char = |c: char| c.is_control() && c != '\n' || c == '\u{202e}';
    for text in [&stdout, &stderr] {
        assert!(!text.chars().any(unsafe_char), "{text:?}");
    }
    assert!(
        stdout.contains(r"A\u{1b}[31m\n  best provider: forged request 1: error"),
        "{stdout}"
    );
    // (The provider's message has its whitespace collapsed, as always.)
    assert!(
        stdout.contains(r"\u{1b}]0;pwned\u{7}\u{1b}[2Jgone best provider: evil \u{202e}plh"),
        "{stdout}"
    );
    // The file keeps what was measured, as it came.
    let doc = import_json(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(doc.plan.targets[0].label, label);
    assert!(
        doc.samples[0]
            .error
            .as_ref()
            .unwrap()
            .message
            .contains("\u{1b}[2Jgone")
    );

    for lang in ["en", "zh-CN"] {
        let output = run(firsttoken().args(["report", "--lang", lang]).arg(&results));
        let (report, stderr) = texts(&output);
        assert!(output.status.success(), "{report}\n{stderr}");
        assert!(!report.chars().any(unsafe_char), "{report:?}");
        assert!(
            report.contains(r"A\u{1b}[31m\n  best provider: forged"),
            "{report}"
        );
        // No line of the report is the forged one.
        assert!(
            !report
                .lines()
                .any(|l| l.trim_start().starts_with("best provider: forged"))
        );
    }
    // `--json` writes the values themselves; JSON escapes them.
    let output = run(firsttoken().args(["report", "--json"]).arg(&results));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(
        !String::from_utf8_lossy(&output.stdout)
            .chars()
            .any(unsafe_char)
    );
    assert_eq!(json["targets"][0]["label"], label);
    std::fs::remove_dir_all(&dir).unwrap();
}
