//! The binary: its first stdout lines, a port already in use, bad flags, non-loopback hosts.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use firsttoken_mock::raw_client::RawClient;
use firsttoken_mock::{MockConfig, MockError};

use super::support::start_mock;

const BINARY: &str = env!("CARGO_BIN_EXE_firsttoken-mock");

#[test]
fn port_in_use_is_an_error_in_the_library() {
    let mock = start_mock();
    let error = firsttoken_mock::start(MockConfig {
        port: mock.port(),
        ..MockConfig::default()
    })
    .unwrap_err();
    assert!(matches!(error, MockError::PortInUse { port } if port == mock.port()));
    assert_eq!(
        error.to_string(),
        format!("port {} is already in use", mock.port())
    );
}

#[test]
fn port_in_use_exits_2_with_a_clear_message() {
    let mock = start_mock();
    let output = Command::new(BINARY)
        .args(["--port", &mock.port().to_string()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).trim(),
        format!(
            "error: port {} is already in use; choose another with --port",
            mock.port()
        )
    );
}

#[test]
fn bad_flags_and_hosts_exit_2() {
    let output = Command::new(BINARY).arg("--bogus").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("usage: firsttoken-mock"));
    let output = Command::new(BINARY)
        .args(["--host", "0.0.0.0", "--port", "0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("only binds loopback"));
}

#[test]
fn port_zero_prints_the_urls_then_serves() {
    let site = std::env::temp_dir().join(format!("firsttoken-cli-site-{}", std::process::id()));
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(site.join("index.html"), "<p>page</p>").unwrap();
    let mut child = Command::new(BINARY)
        .args(["--port", "0", "--static-dir"])
        .arg(&site)
        .args(["--static-port", "0", "--static-prefix", "/ft/"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let second = lines.next().unwrap().unwrap();
    let result = std::panic::catch_unwind(|| {
        let base = first
            .strip_prefix("mock provider listening on http://")
            .unwrap();
        assert!(base.starts_with("127.0.0.1:"), "{first}");
        let mut client = RawClient::connect(base.parse().unwrap()).unwrap();
        let health = client.request("GET", "/health", &[], b"").unwrap();
        assert_eq!(health.body_text(), "ok");
        let page = second.strip_prefix("static site at http://").unwrap();
        let (address, path) = page.split_once('/').unwrap();
        assert_eq!(path, "ft/");
        let mut client = RawClient::connect(address.parse().unwrap()).unwrap();
        let index = client.request("GET", "/ft/", &[], b"").unwrap();
        assert_eq!(index.body_text(), "<p>page</p>");
    });
    child.kill().unwrap();
    child.wait().unwrap();
    result.unwrap();
}
