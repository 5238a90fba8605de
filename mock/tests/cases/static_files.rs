//! The static server over real sockets: index, MIME types, 404, prefix redirect, traversal.

use std::fs;
use std::path::PathBuf;

use firsttoken_mock::raw_client::RawClient;
use firsttoken_mock::{MockError, start_static};

fn site(name: &str) -> PathBuf {
    let root =
        std::env::temp_dir().join(format!("firsttoken-static-{name}-{}", std::process::id()));
    fs::create_dir_all(root.join("pkg")).unwrap();
    fs::write(
        root.join("index.html"),
        "<!doctype html><title>FirstToken</title>",
    )
    .unwrap();
    fs::write(root.join("pkg/app_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    fs::write(root.join("pkg/app.js"), "export default 1;").unwrap();
    // A file beside the site that traversal would reach.
    fs::write(
        root.parent().unwrap().join(format!("secret-{name}.txt")),
        "secret",
    )
    .unwrap();
    root
}

#[test]
fn serves_the_site_under_its_prefix() {
    let root = site("serve");
    let server = start_static(&root, 0, "/firsttoken/").unwrap();
    assert_eq!(
        server.url(),
        format!("http://127.0.0.1:{}/firsttoken/", server.port())
    );
    let address = format!("127.0.0.1:{}", server.port()).parse().unwrap();
    let mut client = RawClient::connect(address).unwrap();

    let index = client.request("GET", "/firsttoken/", &[], b"").unwrap();
    assert_eq!(index.status, 200);
    assert_eq!(
        index.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(index.body_text().contains("<title>FirstToken</title>"));

    let wasm = client
        .request("GET", "/firsttoken/pkg/app_bg.wasm", &[], b"")
        .unwrap();
    assert_eq!(wasm.header("content-type"), Some("application/wasm"));
    assert_eq!(wasm.body(), b"\0asm\x01\0\0\0".to_vec());

    let script = client
        .request("GET", "/firsttoken/pkg/app.js?v=2", &[], b"")
        .unwrap();
    assert_eq!(script.header("content-type"), Some("text/javascript"));

    let head = client
        .request("HEAD", "/firsttoken/pkg/app.js", &[], b"")
        .unwrap();
    assert_eq!(head.status, 200);
    assert_eq!(head.header("content-length"), Some("17"));

    let missing = client
        .request("GET", "/firsttoken/nope.js", &[], b"")
        .unwrap();
    assert_eq!(missing.status, 404);
    let outside = client
        .request("GET", "/other/index.html", &[], b"")
        .unwrap();
    assert_eq!(outside.status, 404);

    let bare = client.request("GET", "/firsttoken", &[], b"").unwrap();
    assert_eq!(bare.status, 301);
    assert_eq!(bare.header("location"), Some("/firsttoken/"));
}

#[test]
fn refuses_path_traversal() {
    let root = site("traversal");
    let server = start_static(&root, 0, "/firsttoken/").unwrap();
    let address = format!("127.0.0.1:{}", server.port()).parse().unwrap();
    let mut client = RawClient::connect(address).unwrap();
    let name = "secret-traversal.txt";
    for target in [
        format!("/firsttoken/../{name}"),
        format!("/firsttoken/pkg/../../{name}"),
        format!("/firsttoken/%2e%2e/{name}"),
        format!("/firsttoken/..%2f{name}"),
    ] {
        let response = client.request("GET", &target, &[], b"").unwrap();
        assert_eq!(response.status, 403, "{target}");
        assert!(!response.body_text().contains("secret"));
    }
}

#[test]
fn root_prefix_and_missing_directory() {
    let root = site("rootprefix");
    let server = start_static(&root, 0, "/").unwrap();
    let address = format!("127.0.0.1:{}", server.port()).parse().unwrap();
    let mut client = RawClient::connect(address).unwrap();
    let index = client.request("GET", "/", &[], b"").unwrap();
    assert_eq!(index.status, 200);
    assert!(index.body_text().contains("FirstToken"));
    let missing = start_static(&root.join("absent"), 0, "/").unwrap_err();
    assert!(matches!(missing, MockError::StaticDirMissing { .. }));
}

#[test]
fn a_gzip_sibling_is_sent_to_clients_that_accept_it() {
    let root = site("gzip");
    fs::write(root.join("data.json"), "{\"plain\": true}").unwrap();
    fs::write(root.join("data.json.gz"), b"\x1f\x8bcompressed").unwrap();
    let server = start_static(&root, 0, "/").unwrap();
    let address = format!("127.0.0.1:{}", server.port()).parse().unwrap();
    let mut client = RawClient::connect(address).unwrap();

    let plain = client.request("GET", "/data.json", &[], b"").unwrap();
    assert_eq!(plain.header("content-encoding"), None);
    assert_eq!(plain.body_text(), "{\"plain\": true}");

    let gzipped = client
        .request(
            "GET",
            "/data.json",
            &[("Accept-Encoding", "br, gzip, deflate")],
            b"",
        )
        .unwrap();
    assert_eq!(gzipped.header("content-encoding"), Some("gzip"));
    assert_eq!(gzipped.header("content-type"), Some("application/json"));
    assert_eq!(gzipped.body(), b"\x1f\x8bcompressed".to_vec());

    // A file without a sibling is sent as it is.
    let index = client
        .request("GET", "/index.html", &[("Accept-Encoding", "gzip")], b"")
        .unwrap();
    assert_eq!(index.header("content-encoding"), None);
}
