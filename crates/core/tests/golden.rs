//! Golden files of every public document: the plan (indented and as a
//! `#plan=` link), the results file and its CSV, the routing table, the
//! stored run and sample, the one-shot measurement outcome and the stored
//! keys, with awkward content (non-ASCII and control characters, huge, tiny
//! and negative-zero numbers, `null`s) and the message for each kind of bad
//! input.
//!
//! Each test writes its output and compares it byte for byte with
//! the repository's `tests/golden/`, then reads the written text back and checks every value,
//! `f64`s by their bits. `GOLDEN_WRITE=1 cargo test -p firsttoken-core --test golden` rewrites
//! the files; a change to them is a change to a public format.

#![cfg(not(target_arch = "wasm32"))]
// The helpers outside `#[test]` functions are test code too.
#![allow(clippy::unwrap_used, clippy::panic)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use firsttoken_core::documents::results::{
    Environment, RunnerKind, export_csv, export_json, import_json, merge,
};
use firsttoken_core::documents::run::{RunRecord, RunStatus};
use firsttoken_core::judgement::compare::{ROUTING_VERSION, Route, RouteStep, RoutingTable};
use firsttoken_core::judgement::verdict::Verdict;
use firsttoken_core::planning::plan::{Plan, Protocol, Target};
use firsttoken_core::planning::schedule::{Runner, Schedule};
use firsttoken_core::wire::measure::Outcome;
use firsttoken_core::wire::sample::{ConnectionPhases, ErrorKind, Phase, Sample, SampleError};

fn compact<T: serde::Serialize>(value: &T) -> String {
    firsttoken_core::base::document::to_string(value)
}

fn read<T: serde::de::DeserializeOwned>(text: &str) -> T {
    firsttoken_core::base::document::from_str(text).unwrap()
}

/// Compares `actual` with `tests/golden/{name}`, or writes it there when
/// `GOLDEN_WRITE` is set.
fn golden(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/golden")
        .join(name);
    if std::env::var_os("GOLDEN_WRITE").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (GOLDEN_WRITE=1 writes it)", path.display()));
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .map_or(expected.lines().count().min(actual.lines().count()), |i| i);
        panic!(
            "{name} differs from the golden file at line {}:\n  golden: {:?}\n  now:    {:?}",
            line + 1,
            expected.lines().nth(line).unwrap_or("<end>"),
            actual.lines().nth(line).unwrap_or("<end>"),
        );
    }
}

/// Awkward text: CJK, an emoji, quotes, a backslash, a comma, a line break
/// and control characters.
const AWKWARD: &str = "深度求索 V3 · \"fast\", ok\\no 😀\n\t\u{1}\u{1f}\u{7f}é";

fn target(label: &str, protocol: Protocol, base_url: &str, provider: Option<&str>) -> Target {
    Target {
        protocol,
        provider: provider.map(str::to_owned),
        ..Target::openai(label, base_url, &format!("model-{}", label.len()))
    }
}

fn awkward_plan() -> Plan {
    Plan {
        targets: vec![
            target(
                AWKWARD,
                Protocol::OpenAi,
                "https://a.example/v1",
                Some("openai"),
            ),
            target(
                "Claude",
                Protocol::Anthropic,
                "https://api.anthropic.com",
                None,
            ),
            target(
                "Gemini",
                Protocol::Gemini,
                "https://g.example",
                Some("gemini"),
            ),
            target("Demo", Protocol::Demo, "demo://local", None),
        ],
        requests_per_target: 75,
        warmup_per_target: 0,
        spacing_s: 0.1 + 0.2,
        jitter_s: 0.0,
        spread_hours: Some(1e-6),
        timeout_s: 119.999_999_999_999_99,
        prompt: format!("{AWKWARD} — answer in one word"),
        nonce: true,
        max_tokens: 65_536,
        temperature: 1.5,
        reasoning_counts_as_first_token: true,
        peak_hours: [0, 24],
        ..Plan::default()
    }
}

/// Numbers at the edges of how floats are written: exponents both ways,
/// the smallest subnormal, a huge value (whose square, in the summary's
/// variance, still fits an `f64`), negative zero, and values
/// either side of the switch to exponent form.
const AWKWARD_NUMBERS: [f64; 14] = [
    0.0,
    -0.0,
    5e-324,
    1e-7,
    1e-6,
    0.000_001_5,
    0.1 + 0.2,
    1.0,
    123_456_789.125,
    1e20,
    1e21,
    1.234_567_890_123_456_8e25,
    1.5e150,
    1_733_000_000_000.5,
];

fn sample(target: u32, seq: u32, x: f64) -> Sample {
    Sample {
        warmup: seq == 0,
        planned_at_ms: 1_733_000_000_000.0 + f64::from(seq) * 300.0,
        sent_at_ms: 1_733_000_000_000.25 + f64::from(seq) * 300.0,
        hidden: seq % 3 == 1,
        headers_ms: Some(x),
        first_byte_ms: if seq.is_multiple_of(2) {
            Some(x * 1.5)
        } else {
            None
        },
        ttft_ms: Some(x * 2.0),
        second_token_ms: Some(x * 2.0 + 0.001),
        total_ms: Some(x * 3.0),
        output_tokens: Some(seq * 7),
        tokens_estimated: !seq.is_multiple_of(2),
        // A reported miss, a provider that does not say, and hits.
        cached_tokens: match seq % 3 {
            0 => Some(0),
            1 => None,
            _ => Some(seq * 1024),
        },
        ..Sample::measured(target, seq, x * 2.0)
    }
}

fn failed(target: u32, seq: u32, kind: ErrorKind, phase: Phase, message: &str) -> Sample {
    Sample {
        headers_ms: None,
        first_byte_ms: None,
        ttft_ms: None,
        second_token_ms: None,
        total_ms: Some(12.5),
        output_tokens: None,
        error: Some(SampleError {
            kind,
            phase,
            message: message.to_owned(),
        }),
        cached_tokens: None,
        ..sample(target, seq, 1.0)
    }
}

fn awkward_samples() -> Vec<Sample> {
    let mut samples: Vec<Sample> = AWKWARD_NUMBERS
        .iter()
        .enumerate()
        .map(|(i, &x)| sample(0, u32::try_from(i).unwrap(), x))
        .collect();
    // Target 1 has only failures; target 2 has steady samples; target 3 none.
    let kinds = [
        (ErrorKind::CorsOrNetwork, Phase::Request),
        (ErrorKind::HttpStatus, Phase::Request),
        (ErrorKind::Timeout, Phase::BeforeFirstToken),
        (ErrorKind::StreamCut, Phase::AfterFirstToken),
        (ErrorKind::MalformedStream, Phase::BeforeFirstToken),
        (ErrorKind::ProviderError, Phase::BeforeFirstToken),
        (ErrorKind::NotSse, Phase::Request),
        (ErrorKind::Aborted, Phase::AfterFirstToken),
    ];
    for (seq, (kind, phase)) in kinds.into_iter().enumerate() {
        samples.push(failed(1, u32::try_from(seq).unwrap(), kind, phase, AWKWARD));
    }
    for seq in 0..5 {
        samples.push(sample(2, seq, 100.0 + f64::from(seq) / 3.0));
    }
    // The native runner's connection phases: a looked-up TLS connection,
    // then one to an IP address over plain HTTP (no lookup, no handshake).
    let steady = samples.len() - 5;
    samples[steady].connection = Some(ConnectionPhases {
        dns_ms: Some(0.1 + 0.2),
        connect_ms: 1e-7,
        tls_ms: Some(12.5),
    });
    samples[steady + 2].connection = Some(ConnectionPhases {
        dns_ms: None,
        connect_ms: 0.0,
        tls_ms: None,
    });
    samples
}

fn environment() -> Environment {
    Environment {
        user_agent: format!("Mozilla/5.0 ({AWKWARD})"),
        time_zone: "Asia/Shanghai".to_owned(),
        tz_offset_min: -570,
        page_version: "0.1.0".to_owned(),
        started_at_ms: 1_733_000_000_000.125,
        runner: RunnerKind::Page,
        vantage: None,
        peak_tz_offset_min: None,
        schedule_shift_ms: None,
    }
}

fn bits(x: Option<f64>) -> Option<u64> {
    x.map(f64::to_bits)
}

/// Every `f64` of a sample by its bits, so `-0.0` and `0.0` differ.
fn sample_bits(s: &Sample) -> [Option<u64>; 11] {
    let phases = s.connection;
    [
        Some(s.planned_at_ms.to_bits()),
        Some(s.sent_at_ms.to_bits()),
        bits(s.headers_ms),
        bits(s.first_byte_ms),
        bits(s.first_reasoning_ms),
        bits(s.ttft_ms),
        bits(s.second_token_ms),
        bits(s.total_ms),
        bits(phases.and_then(|p| p.dns_ms)),
        bits(phases.map(|p| p.connect_ms)),
        bits(phases.and_then(|p| p.tls_ms)),
    ]
}

fn plan_bits(p: &Plan) -> [Option<u64>; 5] {
    [
        Some(p.spacing_s.to_bits()),
        Some(p.jitter_s.to_bits()),
        bits(p.spread_hours),
        Some(p.timeout_s.to_bits()),
        Some(p.temperature.to_bits()),
    ]
}

#[test]
fn plan_document_and_link() {
    let plan = awkward_plan();
    let pretty = plan.to_json_pretty();
    golden("plan.json", &pretty);
    let link = plan.to_link_fragment();
    golden("plan-link.txt", &format!("{link}\n"));
    golden("plan-compact.json", &compact(&plan));

    for text in [
        Plan::from_json(&pretty).unwrap(),
        Plan::from_link_fragment(&format!("#{link}")).unwrap(),
    ] {
        assert_eq!(text, plan);
        assert_eq!(plan_bits(&text), plan_bits(&plan));
    }
    // The default plan (no targets, no spread) as a link too.
    golden(
        "plan-default-link.txt",
        &format!("{}\n", Plan::default().to_link_fragment()),
    );
}

#[test]
fn results_document_and_csv() {
    let plan = awkward_plan();
    let samples = awkward_samples();
    let text = export_json(&plan, &environment(), &samples);
    golden("results.json", &text);
    golden("results.csv", &export_csv(&plan, &samples));

    let doc = import_json(&text).unwrap();
    assert_eq!(doc.plan, plan);
    assert_eq!(plan_bits(&doc.plan), plan_bits(&plan));
    assert_eq!(doc.environment, environment());
    assert_eq!(doc.samples, samples);
    for (read, written) in doc.samples.iter().zip(&samples) {
        assert_eq!(sample_bits(read), sample_bits(written));
    }
    // Re-export writes the same bytes, the summary recomputed from the
    // samples: it is written for people and never read back.
    assert_eq!(export_json(&doc.plan, &doc.environment, &doc.samples), text);
    assert!(doc.summary.is_empty());

    // Merging a document with itself appends nothing new to the plan and
    // shifts every second copy's seq.
    let merged = merge(&[doc.clone(), doc]).unwrap();
    golden(
        "results-merged.json",
        &export_json(&merged.plan, &merged.environment, &merged.samples),
    );
}

#[test]
fn results_members_that_may_be_missing() {
    // Missing optional timings and a missing or null summary read as absent.
    let text = r#"{"firsttoken_results": 1,
        "plan": {"firsttoken_plan": 1, "targets": [{"label": "a", "protocol": "demo", "base_url": "demo://local", "model": "m"}],
                 "requests_per_target": 1, "warmup_per_target": 0, "spacing_s": 1, "jitter_s": 0, "spread_hours": null,
                 "timeout_s": 5, "prompt": "p", "nonce": false, "max_tokens": 8, "temperature": 0,
                 "reasoning_counts_as_first_token": false, "peak_hours": [9, 18], "future_member": [1]},
        "environment": {"user_agent": "", "time_zone": "UTC", "tz_offset_min": 0, "page_version": "0", "started_at_ms": 0},
        "samples": [{"target": 0, "seq": 0, "warmup": false, "planned_at_ms": 1e3, "sent_at_ms": 1000.0, "hidden": false,
                     "tokens_estimated": false, "ttft_ms": 12}],
        "summary": null}"#;
    let doc = import_json(text).unwrap();
    assert!(doc.summary.is_empty());
    assert_eq!(doc.samples[0].ttft_ms, Some(12.0));
    assert_eq!(doc.samples[0].headers_ms, None);
    assert_eq!(doc.samples[0].error, None);
    golden(
        "results-minimal-reexport.json",
        &export_json(&doc.plan, &doc.environment, &doc.samples),
    );
    let without_summary = text.replace(",\n        \"summary\": null", "");
    assert_ne!(without_summary, text);
    assert!(import_json(&without_summary).unwrap().summary.is_empty());
    // A summary of another shape, or naming a target the plan lacks, is
    // not read: the file says what its samples say.
    for summary in [
        r#""summary": "stale""#,
        r#""summary": [{"target": 9, "n": "x"}]"#,
    ] {
        let odd = text.replace(r#""summary": null"#, summary);
        assert_ne!(odd, text);
        let doc = import_json(&odd).unwrap();
        assert!(doc.summary.is_empty());
        assert_eq!(doc.samples[0].ttft_ms, Some(12.0));
    }
}

#[test]
fn routing_table() {
    let table = RoutingTable {
        firsttoken_routing: ROUTING_VERSION,
        routes: vec![
            Route {
                model: AWKWARD.to_owned(),
                target: Some(2),
                label: Some(AWKWARD.to_owned()),
                reason: "lowest p95 of 3 solid targets".to_owned(),
                median_ms: Some(0.1 + 0.2),
                p95_ms: Some(1e21),
                cv_pct: Some(5e-324),
                error_rate: Some(0.0),
                verdict: Some(Verdict::Solid),
                candidates: 3,
                distinguishable: false,
                indistinguishable_from_best: vec![AWKWARD.to_owned()],
                order: vec![RouteStep {
                    target: 2,
                    label: AWKWARD.to_owned(),
                    rank: 1,
                    eligible: true,
                    tied_with_best: true,
                    median_ms: 0.1 + 0.2,
                    p95_ms: 1e21,
                    error_rate: 0.0,
                    slow: 0,
                    n: 75,
                    fidelity: None,
                }],
                fidelity: None,
                rule: "Rule: \"quoted\" </script> 规则".to_owned(),
            },
            Route {
                model: "none".to_owned(),
                target: None,
                label: None,
                reason: "no target qualifies".to_owned(),
                median_ms: None,
                p95_ms: None,
                cv_pct: Some(f64::NAN),
                error_rate: Some(f64::INFINITY),
                verdict: None,
                candidates: 0,
                distinguishable: true,
                indistinguishable_from_best: Vec::new(),
                order: Vec::new(),
                fidelity: None,
                rule: String::new(),
            },
        ],
    };
    golden("routing.json", &format!("{}\n", table.to_json()));
}

#[test]
fn stored_run_sample_outcome_and_keys() {
    let plan = awkward_plan();
    let mut runner = Runner::new(Schedule::new(&plan, 1_733_000_000_000.5, 42));
    runner.mark_sent(0, 1_733_000_000_001.75).unwrap();
    runner.mark_done(0, 1_733_000_000_101.0).unwrap();
    runner.mark_sent(1, 1_733_000_000_301.0).unwrap();
    runner.pause(1_733_000_000_400.0);
    let record = RunRecord {
        run_id: format!("run-{AWKWARD}"),
        plan,
        environment: environment(),
        status: RunStatus::Paused,
        runner,
        seed: u64::MAX,
    };
    let text = compact(&record);
    golden("run-record.json", &format!("{text}\n"));
    let back: RunRecord = read(&text);
    assert_eq!(back, record);
    assert_eq!(compact(&back), text);
    for status in [
        RunStatus::Running,
        RunStatus::Paused,
        RunStatus::Stopped,
        RunStatus::Finished,
    ] {
        assert_eq!(read::<RunStatus>(&compact(&status)), status);
    }

    let mut lines = String::new();
    for sample in awkward_samples() {
        let text = compact(&sample);
        let back: Sample = read(&text);
        assert_eq!(back, sample);
        assert_eq!(sample_bits(&back), sample_bits(&sample));
        writeln!(lines, "{text}").unwrap();
    }
    golden("samples.jsonl", &lines);

    let outcome = Outcome {
        headers_ms: Some(-0.0),
        first_byte_ms: Some(1e-7),
        first_reasoning_ms: None,
        ttft_ms: Some(1.797_693_134_862_315_7e308),
        second_token_ms: Some(f64::NAN),
        total_ms: Some(1e21),
        output_tokens: Some(u32::MAX),
        tokens_estimated: true,
        error: Some(SampleError {
            kind: ErrorKind::HttpStatus,
            phase: Phase::Request,
            message: AWKWARD.to_owned(),
        }),
        cached_tokens: Some(u32::MAX),
        http_status: None,
        input_tokens: None,
        rate_limit: None,
        stream: None,
        reply: None,
    };
    golden("outcome.json", &format!("{}\n", compact(&outcome)));

    // Keys are kept per provider id as one object.
    let mut keys: BTreeMap<String, String> = BTreeMap::new();
    keys.insert("openai".to_owned(), "sk-\"quoted\"\\".to_owned());
    keys.insert("anthropic".to_owned(), "sk-ant-深度".to_owned());
    let text = compact(&keys);
    golden("keys.json", &format!("{text}\n"));
    assert_eq!(read::<BTreeMap<String, String>>(&text), keys);
}

/// Bad plan documents, one per line of the golden file with its messages.
const BAD_PLANS: &[&str] = &[
    "",
    "{",
    "{\n  \"firsttoken_plan\": 1,\n  oops\n}",
    "[1, 2]",
    "null",
    r#"{"firsttoken_results": 1}"#,
    r#"{"firsttoken_plan": 2}"#,
    r#"{"firsttoken_plan": 18446744073709551616}"#,
    r#"{"firsttoken_plan": "1"}"#,
    r#"{"firsttoken_plan": 0}"#,
    r#"{"firsttoken_plan": 1.0}"#,
    r#"{"firsttoken_plan": -1}"#,
    r#"{"firsttoken_plan": null}"#,
    r#"{"firsttoken_plan": 1, "targets": {}}"#,
    r#"{"firsttoken_plan": 1, "targets": [1, "x", null]}"#,
    r#"{"firsttoken_plan": 1, "targets": [{"label": 1, "protocol": "grpc", "base_url": [], "model": {}, "provider": 3}]}"#,
    r#"{"firsttoken_plan": 1, "targets": [{"label": "a", "protocol": "openai", "model": "m", "api_key": "sk-1", "modle": "x", "zzzzzzzz": 1}]}"#,
    r#"{"firsttoken_plan": 1, "targets": [{"label": "a", "protocol": "openai", "base_url": "ftp://x", "model": " "}]}"#,
    r#"{"firsttoken_plan": 1, "requests_per_target": -1, "warmup_per_target": 1.5, "spacing_s": "5", "jitter_s": null, "spread_hours": "x", "timeout_s": true, "prompt": 3, "nonce": "yes", "max_tokens": 1e3, "temperature": [], "reasoning_counts_as_first_token": 1, "peak_hours": [9]}"#,
    r#"{"firsttoken_plan": 1, "requests_per_target": 4294967296, "max_tokens": 99999999999999999999, "peak_hours": [9, 25], "prompt": "   "}"#,
    r#"{"firsttoken_plan": 1, "requests_per_target": 0, "warmup_per_target": 1001, "spacing_s": -1, "timeout_s": 0, "temperature": 2.5, "spread_hours": -3, "jitter_s": 1e400}"#,
    r#"{"firsttoken_plan": 1, "Authorization": "Bearer x", "spacing": 5, "colour": "blue", "targets": []}"#,
    "{\"firsttoken_plan\": 1, \"prompt\": \"a very long prompt that goes on and on and on for more than forty characters\", \"nonce\": \"a very long value that goes on and on and on past forty\"}",
    "{\"firsttoken_plan\": 1, \"prompt\": \"\\ud800\"}",
    "{\"firsttoken_plan\": 1} trailing",
    "{\"firsttoken_plan\": 1, \"firsttoken_plan\": 2}",
];

/// Bad `#plan=` links.
const BAD_LINKS: &[&str] = &[
    "",
    "#other=1",
    "#plan=***",
    "#plan=_w",
    "#plan=e30",
    "#plan=eyJmaXJzdHRva2VuX3BsYW4iOjJ9",
];

/// Bad results documents.
const BAD_RESULTS: &[&str] = &[
    "",
    "[",
    "{\"firsttoken_results\": 1,}",
    "[]",
    "{}",
    r#"{"firsttoken_plan": 1}"#,
    r#"{"firsttoken_results": 2}"#,
    r#"{"firsttoken_results": "1"}"#,
    r#"{"firsttoken_results": 1.0}"#,
    r#"{"firsttoken_results": 1}"#,
    r#"{"firsttoken_results": 1, "plan": 3}"#,
    r#"{"firsttoken_results": 1, "plan": {}, "environment": {}, "samples": []}"#,
];

/// A valid results document with one member replaced, for shape errors.
fn results_with(replace: &str, with: &str) -> String {
    let text = export_json(&awkward_plan(), &environment(), &awkward_samples());
    assert!(text.contains(replace), "{replace}");
    text.replacen(replace, with, 1)
}

fn bad_results_variants() -> Vec<String> {
    let mut out: Vec<String> = BAD_RESULTS.iter().map(|s| (*s).to_owned()).collect();
    for (replace, with) in [
        ("\"ttft_ms\": 0.0,", "\"ttft_ms\": \"fast\","),
        ("\"ttft_ms\": 0.0,", "\"ttft_ms\": -1.0,"),
        ("\"ttft_ms\": 0.0,", "\"ttft_ms\": 1e999,"),
        ("\"seq\": 3,", "\"seq\": -3,"),
        ("\"seq\": 3,", "\"seq\": 3.5,"),
        ("\"target\": 2,", "\"target\": 7,"),
        ("\"warmup\": true,", "\"warmup\": 1,"),
        ("\"kind\": \"timeout\"", "\"kind\": \"slow\""),
        ("\"phase\": \"request\"", "\"phase\": null"),
        ("\"protocol\": \"gemini\"", "\"protocol\": \"grpc\""),
        ("\"tz_offset_min\": -570", "\"tz_offset_min\": \"UTC+8\""),
        ("\"peak_hours\": [", "\"peak_hours\": [1, "),
        ("\"samples\": [", "\"samples\": {\"a\": ["),
        ("\"user_agent\":", "\"agent\":"),
    ] {
        out.push(results_with(replace, with));
    }
    out
}

/// The summary is written for people and never read back: a file whose
/// summary says what no summary can (these edits were refused when it was
/// read) imports as the same file.
#[test]
fn a_summary_is_not_read_back() {
    let plain = import_json(&export_json(
        &awkward_plan(),
        &environment(),
        &awkward_samples(),
    ))
    .unwrap();
    for (replace, with) in [
        // Fewer than 20 samples per target: every verdict is still null.
        ("\"verdict\": null", "\"verdict\": \"great\""),
        (
            "\"verdict_status\": \"collecting\"",
            "\"verdict_status\": \"done\"",
        ),
        ("\"ci_method\": \"iid\"", "\"ci_method\": \"jackknife\""),
        (
            "\"target\": 0,\n      \"ttft\"",
            "\"target\": 99,\n      \"ttft\"",
        ),
    ] {
        let edited = import_json(&results_with(replace, with)).unwrap();
        assert_eq!(edited, plain, "{with}");
    }
}

#[test]
fn error_messages() {
    let mut out = String::new();
    writeln!(out, "# Plan::from_json").unwrap();
    for text in BAD_PLANS {
        let err = Plan::from_json(text).unwrap_err();
        writeln!(out, "{text:?}").unwrap();
        for line in err.messages() {
            writeln!(out, "  -> {line}").unwrap();
        }
    }
    writeln!(out, "# Plan::from_link_fragment").unwrap();
    for text in BAD_LINKS {
        let err = Plan::from_link_fragment(text).unwrap_err();
        writeln!(out, "{text:?}\n  -> {err}").unwrap();
    }
    writeln!(out, "# import_json").unwrap();
    for (i, text) in bad_results_variants().iter().enumerate() {
        let err = import_json(text).unwrap_err();
        let shown = if text.len() > 80 {
            format!("variant {i}")
        } else {
            format!("{text:?}")
        };
        writeln!(out, "{shown}\n  -> {err}").unwrap();
    }
    golden("errors.txt", &out);
}

#[test]
fn routing_configs() {
    use firsttoken_core::documents::routing_config::{
        RunSource, litellm_yaml, openrouter_json, routing_json,
    };
    use firsttoken_core::judgement::report::{REPORT_SEED, build_report};
    let (plan, samples, environment) = firsttoken_core::testing::fixtures::routing_fixture();
    let report = build_report(&plan, &samples, 0, REPORT_SEED);
    let source = RunSource::of(&environment);
    let yaml = litellm_yaml(&plan, &report, &source);
    golden("litellm-router.yaml", &yaml);
    golden(
        "openrouter.json",
        &format!("{}\n", openrouter_json(&plan, &report, &source, false)),
    );
    golden(
        "openrouter-pinned.json",
        &format!("{}\n", openrouter_json(&plan, &report, &source, true)),
    );
    golden(
        "routing-export.json",
        &format!("{}\n", routing_json(&report.routing, &source)),
    );
    // Each export names its source run. None carries a key: none is given
    // one (the YAML names the variable a key comes from, below).
    for text in [
        yaml.clone(),
        openrouter_json(&plan, &report, &source, false),
        routing_json(&report.routing, &source),
    ] {
        assert!(text.contains("2026-12-03T05-07-09Z.fra1"), "{text}");
    }
    assert!(
        yaml.contains("os.environ/FIRSTTOKEN_KEY_DEEPSEEK"),
        "{yaml}"
    );
    assert!(
        yaml.contains("os.environ/FIRSTTOKEN_KEY_FOR_LLM_EXAMPLE_COM"),
        "{yaml}"
    );
}

/// A run with the fidelity check: the plan's `fidelity` member, probe
/// samples with answers, calls (a key-like string and markup among the
/// arguments), finish reasons and checks, the summary's `fidelity`, and
/// the CSV's probe columns. Latency-only files above are unchanged by it.
#[test]
fn fidelity_results_document_and_csv() {
    use firsttoken_core::planning::fidelity::reply::ToolCall;
    use firsttoken_core::planning::fidelity::suite::Suite;
    use firsttoken_core::planning::plan::FidelityPlan;
    let target = |label: &str| Target::openai(label, "https://a.example/v1", "m");
    let plan = Plan {
        targets: vec![target("reference"), target("other, \"quoted\"")],
        requests_per_target: 2,
        warmup_per_target: 0,
        fidelity: Some(FidelityPlan {
            repeats: 1,
            ..FidelityPlan::basic(Some("reference".to_owned()))
        }),
        ..Plan::default()
    };
    let probe_sample =
        |target: u32, seq: u32, id: &str, answer: &str, calls: Option<Vec<ToolCall>>| {
            let mut s = sample(target, seq + 1, 10.0 + f64::from(seq));
            s.warmup = false;
            s.input_tokens = Some(40 + target * 23);
            s.probe = Some(id.to_owned());
            s.answer = Some(answer.to_owned());
            s.tool_calls = calls;
            s.finish_reason = Some(
                if s.tool_calls.is_some() {
                    "tool_calls"
                } else {
                    "stop"
                }
                .to_owned(),
            );
            let probe = Suite::Basic1.probe(id).unwrap();
            s.check = Some(s.verify_probe(probe));
            s
        };
    let call = |arguments: &str| {
        Some(vec![ToolCall {
            name: "get_weather".to_owned(),
            arguments: arguments.to_owned(),
        }])
    };
    let samples = vec![
        sample(0, 0, 5.0),
        probe_sample(0, 0, "arith-mul", "391", None),
        probe_sample(
            0,
            1,
            "tool-weather-auto",
            "",
            call(r#"{"city":"Paris","unit":"celsius"}"#),
        ),
        probe_sample(0, 2, "zh-capital", "北京。", None),
        probe_sample(1, 0, "arith-mul", "=HYPERLINK(\"x\") 392", None),
        probe_sample(1, 1, "tool-weather-auto", "", call(r#"{"city":"Par"#)),
        probe_sample(1, 2, "zh-capital", "Beijing, \"the capital\"\n", None),
    ];
    let text = export_json(&plan, &environment(), &samples);
    golden("fidelity-results.json", &text);
    golden("fidelity-results.csv", &export_csv(&plan, &samples));
    let doc = import_json(&text).unwrap();
    assert_eq!(doc.plan, plan);
    assert_eq!(doc.samples, samples);
}

/// A whole run of a plan without `until_decided` (warm-ups, jitter,
/// prompt sizes with the cache probe, three targets),
/// driven through the run session as both adapters drive it, with replies
/// made up from a seeded stream (now and then a failure, now and then one
/// that overruns the spacing). Its results file and CSV were written by the
/// session before a run could stop a target early or ask objectives: a plan
/// that asks neither still sends every request, in the same order, at the
/// same times, and its results are the same bytes.
#[test]
fn a_run_without_until_decided_gives_the_results_it_always_gave() {
    use firsttoken_core::planning::schedule::Next;
    use firsttoken_core::wire::session::RunSession;
    let plan = Plan {
        targets: vec![
            Target::openai("A", "https://a.example/v1", "m"),
            Target::openai("B", "https://b.example/v1", "m"),
            Target::openai("C", "https://c.example/v1", "m"),
        ],
        requests_per_target: 12,
        warmup_per_target: 2,
        spacing_s: 1.0,
        jitter_s: 0.2,
        prompt_sizes: Some(vec![128, 2_048]),
        prompt_cache_probe: true,
        ..Plan::default()
    };
    let start_ms = 1_733_000_000_000.5;
    let mut session = RunSession::start(plan.clone(), start_ms);
    let mut rng = fastrand::Rng::with_seed(51);
    let (mut now_ms, mut samples) = (start_ms, Vec::new());
    loop {
        let planned = match session.next(now_ms) {
            Next::SendNow(planned) => planned,
            Next::WaitUntil(at_ms, _) => {
                now_ms = at_ms;
                continue;
            }
            Next::Finished => break,
            other => panic!("unexpected {other:?}"),
        };
        session.mark_sent(&planned, now_ms).unwrap();
        let mut sample = firsttoken_core::testing::fixtures::planned_sample(&planned);
        sample.sent_at_ms = now_ms;
        let ttft_ms = 100.0 * f64::from(planned.target + 1) + 400.0 * rng.f64();
        // Every seventh reply outlasts the spacing.
        let took_ms = if samples.len() % 7 == 3 {
            1_500.0
        } else {
            ttft_ms + 150.0
        };
        if rng.u32(0..13) == 0 {
            sample.ttft_ms = None;
            sample.total_ms = Some(took_ms);
            sample.error = Some(SampleError {
                kind: ErrorKind::HttpStatus,
                phase: Phase::Request,
                message: "HTTP 503 from provider".to_owned(),
            });
        } else {
            sample.ttft_ms = Some(ttft_ms);
            sample.total_ms = Some(took_ms);
            sample.output_tokens = Some(rng.u32(5..40));
        }
        now_ms += took_ms;
        assert_eq!(session.on_sample(&sample, now_ms).refused, None);
        samples.push(sample);
    }
    assert_eq!(samples.len(), session.progress().1);
    let environment = Environment {
        schedule_shift_ms: Some(session.schedule_shift_ms()),
        ..environment()
    };
    golden(
        "run-plain.json",
        &export_json(&plan, &environment, &samples),
    );
    golden("run-plain.csv", &export_csv(&plan, &samples));
}
