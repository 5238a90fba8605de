//! One request at a time through the library's measurement, against every
//! mock script and protocol, checked against the mock's ground truth.

use std::time::Duration;

use firsttoken_cli::measure::{MeasureOptions, Measured, measure};
use firsttoken_cli::net::Client;
use firsttoken_cli::run::stop_signal;
use firsttoken_core::planning::plan::{Plan, Protocol, Target};
use firsttoken_core::wire::measure::Outcome;
use firsttoken_core::wire::protocol::build_request;
use firsttoken_core::wire::sample::ErrorKind;

use super::support::{PROTOCOLS, median, mock, protocol_id, quick_plan, target};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Measures `target` under `plan` `n` times on one client.
fn measure_n(client: &mut Client, target: &Target, plan: &Plan, n: usize) -> Vec<Measured> {
    runtime().block_on(async {
        let (_stop, mut stopped) = stop_signal();
        let mut all = Vec::new();
        for _ in 0..n {
            let request = build_request(target, plan, Some("sk-test"), None);
            let options = MeasureOptions {
                protocol: target.protocol,
                reasoning_counts_as_first_token: plan.reasoning_counts_as_first_token,
                timeout_s: plan.timeout_s,
                fresh_connection: false,
            };
            all.push(measure(client, &request, options, &mut stopped).await);
        }
        all
    })
}

fn one(target: &Target, timeout_s: f64) -> Outcome {
    let mut plan = quick_plan(vec![target.clone()], 1);
    plan.timeout_s = timeout_s;
    let mut client = Client::new(false);
    measure_n(&mut client, target, &plan, 1).remove(0).outcome
}

#[test]
fn every_successful_script_under_every_protocol_gives_a_first_token() {
    let mock = mock();
    for protocol in PROTOCOLS {
        for script in [
            "fixed@30",
            "bimodal@0",
            "reasoning",
            "reasoning-or",
            "keepalive",
            "role-first",
            "split",
            "crlf",
        ] {
            let outcome = one(&target(&mock, protocol, script), 10.0);
            let context = format!("{} {script}: {outcome:?}", protocol_id(protocol));
            assert_eq!(outcome.error, None, "{context}");
            assert!(outcome.ttft_ms.is_some(), "{context}");
            // Usage counts reasoning tokens too.
            assert!(outcome.output_tokens >= Some(8), "{context}");
            assert!(outcome.second_token_ms > outcome.ttft_ms, "{context}");
        }
    }
    // Every reply was read to its end: nothing is still being sent.
    let truth = mock.settled_ground_truth(Duration::from_secs(5));
    assert_eq!(truth.requests.len(), 3 * 8);
    assert!(truth.requests.iter().all(|r| r.status == 200));
}

#[test]
fn reasoning_is_timed_apart_from_the_first_content_token() {
    let mock = mock();
    for protocol in PROTOCOLS {
        mock.reset();
        let outcome = one(&target(&mock, protocol, "reasoning"), 10.0);
        let truth = mock.settled_ground_truth(Duration::from_secs(5)).requests;
        let truth = &truth[0];
        let (reasoning, ttft) = (
            outcome.first_reasoning_ms.unwrap(),
            outcome.ttft_ms.unwrap(),
        );
        // Each mark against the moment the mock sent it, within the way
        // back over loopback. Generous both ways: the mock reads its clock
        // after its write returned, and a busy machine (two cores shared by
        // a build) can delay either side by tens of milliseconds; a mark
        // taken at the wrong event is off by the script's 60 ms or more, so
        // the window stays inside that.
        let sent = |at: Option<f64>| at.unwrap() - truth.received_ms;
        for (what, measured, sent) in [
            ("reasoning", reasoning, sent(truth.first_reasoning_ms)),
            ("first token", ttft, sent(truth.first_token_ms)),
        ] {
            assert!(
                (-20.0..50.0).contains(&(measured - sent)),
                "{protocol:?}: {what} measured at {measured} ms, sent at {sent} ms"
            );
        }
        assert!(reasoning < ttft, "{protocol:?}: {reasoning} then {ttft}");
    }
}

#[test]
fn every_fault_is_a_typed_error_sample() {
    let mock = mock();
    let cases = [
        ("http-401", ErrorKind::HttpStatus),
        ("http-429", ErrorKind::HttpStatus),
        ("http-500", ErrorKind::HttpStatus),
        ("no-such-script", ErrorKind::HttpStatus),
        ("error-event", ErrorKind::ProviderError),
        ("cut", ErrorKind::StreamCut),
        ("stall", ErrorKind::Timeout),
        ("not-sse", ErrorKind::NotSse),
    ];
    for protocol in PROTOCOLS {
        for (script, kind) in cases {
            let outcome = one(&target(&mock, protocol, script), 0.5);
            let context = format!("{} {script}: {outcome:?}", protocol_id(protocol));
            let error = outcome.error.expect(&context);
            assert_eq!(error.kind, kind, "{context}");
            assert!(!error.message.is_empty(), "{context}");
        }
    }
    let outcome = one(&target(&mock, Protocol::OpenAi, "http-429"), 5.0);
    assert_eq!(outcome.http_status, Some(429));
    let headers = outcome
        .rate_limit
        .clone()
        .expect("a 429 keeps its rate-limit headers");
    assert_eq!(headers.retry_after_s, Some(7.0));
    assert_eq!(headers.remaining_requests.as_deref(), Some("0"));
    assert_eq!(headers.reset_requests.as_deref(), Some("7s"));
    assert!(headers.headers_visible);
    assert!(outcome.error.unwrap().message.contains("429"));
}

#[test]
fn a_mid_stream_stall_and_a_buffered_reply_show_in_the_stream_shape() {
    let mock = mock();
    for protocol in PROTOCOLS {
        let stalled = one(&target(&mock, protocol, "mid-stall@50"), 10.0);
        let context = format!("{} mid-stall: {stalled:?}", protocol_id(protocol));
        assert!(stalled.error.is_none(), "{context}");
        let shape = stalled.stream.expect(&context);
        assert_eq!(shape.stalls, 1, "{context}");
        // The pause: 2 500 ms between the fourth and the fifth token.
        let max = shape.max_gap_ms.unwrap();
        assert!((2_450.0..2_700.0).contains(&max), "{context}");
        assert!(!shape.buffered, "{context}");

        let buffered = one(&target(&mock, protocol, "buffered@200"), 10.0);
        let context = format!("{} buffered: {buffered:?}", protocol_id(protocol));
        assert!(buffered.error.is_none(), "{context}");
        let shape = buffered.stream.expect(&context);
        assert!(shape.buffered, "{context}");
        assert_eq!(shape.stalls, 0, "{context}");
        assert_eq!(buffered.output_tokens, Some(32), "{context}");

        let steady = one(&target(&mock, protocol, "fixed@30"), 10.0);
        let shape = steady.stream.unwrap();
        assert!(!shape.buffered && shape.stalls == 0, "{steady:?}");
        assert_eq!(steady.http_status, Some(200));
        assert!(steady.input_tokens.is_some(), "{steady:?}");
        assert_eq!(steady.rate_limit, None);
    }
}

#[test]
fn an_unreachable_host_is_an_error_sample_naming_the_step() {
    // A port nobody listens on: bind one, note it, close it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let unreachable = Target::openai("closed", &format!("http://127.0.0.1:{port}/v1"), "fixed");
    let error = one(&unreachable, 5.0).error.unwrap();
    assert_eq!(error.kind, ErrorKind::CorsOrNetwork);
    assert!(
        error.message.contains("could not reach the provider"),
        "{}",
        error.message
    );

    let unresolvable = Target {
        base_url: "http://firsttoken-test.invalid/v1".to_owned(),
        ..unreachable.clone()
    };
    let error = one(&unresolvable, 5.0).error.unwrap();
    assert_eq!(error.kind, ErrorKind::Dns);
    assert!(
        error.message.contains("did not resolve"),
        "{}",
        error.message
    );

    // https to a server that answers in plain HTTP, as a plain-HTTP port
    // does when it gets a TLS greeting.
    let plain = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let plain_port = plain.local_addr().unwrap().port();
    std::thread::spawn(move || {
        use std::io::Write;
        if let Ok((mut socket, _)) = plain.accept() {
            let _ = socket.write_all(b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
        }
    });
    let tls_to_plain = Target {
        base_url: format!("https://127.0.0.1:{plain_port}/v1"),
        ..unreachable
    };
    let error = one(&tls_to_plain, 5.0).error.unwrap();
    assert_eq!(error.kind, ErrorKind::Tls);
    assert!(error.message.contains("TLS handshake"), "{}", error.message);
}

#[test]
fn ttft_agrees_with_the_mocks_ground_truth() {
    let mock = mock();
    let target = target(&mock, Protocol::OpenAi, "fixed@20");
    let plan = quick_plan(vec![target.clone()], 1);
    let mut client = Client::new(false);
    // The first request opens the connection; the rest reuse it.
    let measured = measure_n(&mut client, &target, &plan, 41);
    assert!(measured[0].opened.is_some());
    assert!(
        measured[1..].iter().all(|m| m.opened.is_none()),
        "the connection was reused"
    );
    let truth = mock.settled_ground_truth(Duration::from_secs(5)).requests;
    assert_eq!(truth.len(), measured.len());
    let differences: Vec<f64> = measured
        .iter()
        .zip(&truth)
        .skip(1)
        .map(|(m, t)| m.outcome.ttft_ms.unwrap() - (t.first_token_ms.unwrap() - t.received_ms))
        .collect();
    // The measurement contains the request's way to the mock and the
    // token's way back, so it is close to the truth and mostly above it.
    // Not always: the mock reads its clock once its write returned, and a
    // loaded machine can run the reader before the mock's thread gets that
    // far. The budget (≤ 1.0 ms median) is checked by `make
    // bench-accuracy-cli` on a release build; these bounds only catch a
    // broken clock or reader (one that marks the headers instead of the
    // token is 20 ms early), with room for a busy machine's delays.
    assert!(differences.iter().all(|d| *d > -10.0), "{differences:?}");
    assert!(median(&differences) > 0.0, "{differences:?}");
    let median = median(&differences);
    assert!(
        median < 15.0,
        "median TTFT − truth {median:.3} ms: {differences:?}"
    );
}

#[test]
fn fresh_connections_open_one_per_request_with_phases() {
    let mock = mock();
    let target = target(&mock, Protocol::Anthropic, "fixed@5");
    let plan = quick_plan(vec![target.clone()], 1);
    let mut client = Client::new(true);
    let measured = measure_n(&mut client, &target, &plan, 3);
    for m in &measured {
        let phases = m.opened.expect("a new connection for every request");
        // An IP literal needs no lookup; plain HTTP no TLS.
        assert_eq!((phases.dns_ms, phases.tls_ms), (None, None));
        assert!(phases.connect_ms >= 0.0 && phases.connect_ms < 1000.0);
        assert_eq!(m.http_version, Some("HTTP/1.1"));
    }
}

#[test]
fn a_host_name_is_looked_up_and_the_lookup_timed() {
    let mock = mock();
    let mut target = target(&mock, Protocol::OpenAi, "fixed@5");
    target.base_url = format!("http://localhost:{}/v1", mock.port());
    let plan = quick_plan(vec![target.clone()], 1);
    let mut client = Client::new(false);
    let measured = measure_n(&mut client, &target, &plan, 1);
    let phases = measured[0].opened.unwrap();
    assert!(phases.dns_ms.is_some_and(|ms| ms >= 0.0), "{phases:?}");
}
