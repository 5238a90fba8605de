//! CORS, the listing, ground-truth, reset and health endpoints, and auth recording.

use firsttoken_mock::GroundTruth;
use firsttoken_mock::protocol::Protocol;
use firsttoken_mock::raw_client::RawClient;
use firsttoken_mock::script::known_script_names;
use serde_json::Value;
use std::time::Duration;

use super::support::*;

#[test]
fn preflight_is_answered_and_counted_apart() {
    let mock = start_mock();
    let mut client = RawClient::connect(mock.address()).unwrap();
    let response = client
        .request(
            "OPTIONS",
            "/v1/chat/completions",
            &[
                ("Origin", "http://127.0.0.1:9000"),
                ("Access-Control-Request-Method", "POST"),
                (
                    "Access-Control-Request-Headers",
                    "authorization,content-type",
                ),
            ],
            b"",
        )
        .unwrap();
    assert_eq!(response.status, 204);
    assert_eq!(response.header("access-control-allow-origin"), Some("*"));
    assert_eq!(
        response.header("access-control-allow-methods"),
        Some("GET, POST, OPTIONS")
    );
    assert_eq!(
        response.header("access-control-allow-headers"),
        Some("authorization,content-type")
    );
    assert_eq!(response.header("access-control-max-age"), Some("600"));
    assert_eq!(
        response.header("access-control-expose-headers"),
        Some("x-mock-request-id")
    );
    // The same connection then carries the real request.
    let exchange = exchange_on(&mut client, Protocol::OpenAi, "fixed@5");
    assert_eq!(
        exchange.response.header("access-control-expose-headers"),
        Some("x-mock-request-id")
    );
    let truth = mock.settled_ground_truth(Duration::from_secs(5));
    assert_eq!(truth.preflight_count, 1);
    assert_eq!(truth.requests.len(), 1);
    assert_eq!(
        truth.preflights[0].request_headers.as_deref(),
        Some("authorization,content-type")
    );
    assert!(truth.preflights[0].received_ms <= truth.requests[0].received_ms);
}

#[test]
fn models_health_ground_truth_and_reset_over_http() {
    let mock = start_mock();
    let mut client = RawClient::connect(mock.address()).unwrap();
    let health = client.request("GET", "/health", &[], b"").unwrap();
    assert_eq!((health.status, health.body_text().as_str()), (200, "ok"));

    let models = client.request("GET", "/v1/models", &[], b"").unwrap();
    let models: Value = serde_json::from_slice(&models.body()).unwrap();
    assert_eq!(models["object"], "list");
    let ids: Vec<&str> = models["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|model| model["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, known_script_names());

    exchange_on(&mut client, Protocol::Anthropic, "fixed@5");
    let truth = client
        .request("GET", "/ground-truth?settle_ms=5000", &[], b"")
        .unwrap();
    let truth: GroundTruth = serde_json::from_slice(&truth.body()).unwrap();
    assert_eq!(truth.requests.len(), 1);
    assert_eq!(truth.requests[0].auth, "x-api-key");
    assert_eq!(truth.requests[0].protocol, "anthropic");
    assert_eq!(
        truth,
        GroundTruth {
            now_ms: truth.now_ms,
            ..mock.ground_truth()
        }
    );

    let reset = client.request("POST", "/reset", &[], b"").unwrap();
    assert_eq!(reset.status, 200);
    assert!(mock.ground_truth().requests.is_empty());

    let missing = client.request("GET", "/v2/nothing", &[], b"").unwrap();
    assert_eq!(missing.status, 404);
    assert!(missing.body_text().contains("/v1/chat/completions"));
}

#[test]
fn auth_header_and_key_in_query_are_recorded_without_values() {
    let mock = start_mock();
    let openai = exchange(&mock, Protocol::OpenAi, "fixed@5");
    assert_eq!(openai.record(&mock).auth, "authorization");
    let mut client = RawClient::connect(mock.address()).unwrap();
    let response = client
        .request(
            "POST",
            "/v1beta/models/fixed@5:streamGenerateContent?alt=sse&key=AIza-secret",
            &[],
            b"{}",
        )
        .unwrap();
    assert_eq!(response.status, 200);
    let truth = mock.settled_ground_truth(Duration::from_secs(5));
    let gemini = truth.requests.last().unwrap();
    assert!(gemini.key_in_query);
    assert_eq!(gemini.auth, "none");
    // The recorded JSON never holds a header value.
    let text = serde_json::to_string(&truth).unwrap();
    assert!(!text.contains("sk-test"));
}
