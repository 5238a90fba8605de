//! `report --html`: one self-contained file, the page's tables and charts,
//! every string from the file escaped, figures equal to `report --json`'s.

use super::support::{firsttoken, run, run_scripts, scratch, texts};

const HOSTILE: &str = "<script>alert(\"x\")</script><img src=https://evil.example/x.png \
                       onerror=alert(1)>\u{202e}fdp.exe' \"";

/// Runs two mock targets and gives the first a hostile label, as a
/// stranger's file could.
fn hostile_results(dir: &std::path::Path) -> std::path::PathBuf {
    let results = run_scripts(dir, "results", &["fixed@15", "fixed@40"]);
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    doc["plan"]["targets"][0]["label"] = HOSTILE.into();
    doc["environment"]["vantage"] = "<b>office</b>".into();
    std::fs::write(&results, doc.to_string()).unwrap();
    results
}

/// The unrounded figures of target `target`'s row: n, median, p95, p99,
/// CV, error rate.
fn row_values(html: &str, target: u32) -> Vec<f64> {
    let start = html
        .find(&format!("<tr data-target=\"{target}\">"))
        .unwrap_or_else(|| panic!("no row for target {target}"));
    let row = &html[start..start + html[start..].find("</tr>").unwrap()];
    row.split("data-value=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].parse().unwrap())
        .collect()
}

#[test]
fn the_html_report_is_self_contained_escaped_and_has_the_json_s_figures() {
    let dir = scratch("html");
    let results = hostile_results(&dir);
    let html_path = dir.join("report.html");
    let output = run(firsttoken()
        .arg("report")
        .arg(&results)
        .arg("--html")
        .arg(&html_path));
    let (_, stderr) = texts(&output);
    assert!(output.status.success(), "{stderr}");
    let html = std::fs::read_to_string(&html_path).unwrap();

    // Nothing from elsewhere, nothing that runs.
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    assert!(
        html.contains("content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\"")
    );
    // Every `<` the file holds opens one of our own tags (text has its
    // `<` escaped), and no tag loads or runs anything.
    let allowed = [
        "!doctype",
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "main",
        "footer",
        "h1",
        "h2",
        "h3",
        "p",
        "section",
        "div",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "ul",
        "li",
        "b",
        "figure",
        "figcaption",
        "details",
        "summary",
        "pre",
        "svg",
        "rect",
        "line",
        "polyline",
        "polygon",
        "circle",
        "path",
        "text",
        "g",
    ];
    for tag in html.split('<').skip(1) {
        let tag = &tag[..tag.find('>').expect("every tag closes")];
        let name = tag
            .trim_start_matches('/')
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap()
            .to_ascii_lowercase();
        assert!(allowed.contains(&name.as_str()), "<{tag}>");
        let lower = tag.to_ascii_lowercase();
        for attribute in [" src=", " href=", " xlink:href=", " style=", " on"] {
            assert!(!lower.contains(attribute), "<{tag}>");
        }
    }
    assert!(!html.to_ascii_lowercase().contains("url("));
    // The hostile label is there, as text: escaped, its bidi override shown.
    assert!(
        html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=https://evil.example/x.png onerror=alert(1)&gt;\\u{202e}fdp.exe&#39; &quot;"),
        "{html}"
    );
    assert!(html.contains("&lt;b&gt;office&lt;/b&gt;"));
    assert!(!html.contains('\u{202e}'));

    // The page's charts, inline.
    let charts = html.matches("<figure class=\"chart\"").count();
    assert!(charts >= 4, "{charts} charts");
    // Each drawn twice: for wide screens and print, and laid out for a
    // phone (an SVG's text shrinks with its viewBox).
    assert_eq!(html.matches("<svg class=\"wide\" ").count(), charts);
    assert_eq!(html.matches("<svg class=\"narrow\" ").count(), charts);
    assert_eq!(html.matches("<svg ").count(), 2 * charts);
    // Every table scrolls in a box of its own.
    assert_eq!(
        html.matches("<div class=\"scroll\"").count(),
        html.matches("<table").count()
    );
    assert!(html.contains("TTFT distribution"));
    // The routing exports.
    assert!(html.contains("LiteLLM router config (YAML)"));
    assert!(html.contains("firsttoken_routing"));

    // Every figure equals report --json's, unrounded.
    let output = run(firsttoken().args(["report", "--json"]).arg(&results));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    for target in json["targets"].as_array().unwrap() {
        let index = target["target"].as_u64().unwrap() as u32;
        let ttft = &target["ttft_ms"];
        let expected: Vec<f64> = ["n", "median", "p95", "p99", "cv_pct"]
            .iter()
            .map(|k| ttft[k].as_f64().unwrap())
            .chain([target["error_rate"].as_f64().unwrap()])
            .collect();
        assert_eq!(row_values(&html, index), expected, "target {index}");
    }

    // In Chinese: the page's Chinese words, the document says so.
    let zh = dir.join("report.zh.html");
    let output = run(firsttoken()
        .arg("report")
        .arg(&results)
        .args(["--lang", "zh-CN", "--html"])
        .arg(&zh));
    assert!(output.status.success());
    let html = std::fs::read_to_string(&zh).unwrap();
    assert!(html.contains("<html lang=\"zh-CN\">"));
    assert!(
        html.contains("TTFT 分布"),
        "the charts' captions in Chinese"
    );
    assert!(html.contains("LiteLLM 路由配置（YAML）"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_html_report_goes_to_its_file_and_standard_output_stays_quiet() {
    let dir = scratch("html-quiet");
    let results = run_scripts(&dir, "results", &["fixed@15"]);
    let html_path = dir.join("report.html");
    let output = run(firsttoken()
        .arg("report")
        .arg(&results)
        .arg("--html")
        .arg(&html_path));
    let (stdout, stderr) = texts(&output);
    assert!(output.status.success(), "{stderr}");
    // The file is the report asked for: nothing on standard output, and
    // standard error says where it went.
    assert_eq!(stdout, "");
    assert_eq!(
        stderr.trim_end(),
        format!("report written to {}", html_path.display())
    );
    assert!(
        std::fs::read_to_string(&html_path)
            .unwrap()
            .contains("<table")
    );
    // Asked for beside it, the JSON still prints.
    let output = run(firsttoken()
        .arg("report")
        .arg(&results)
        .arg("--json")
        .arg("--html")
        .arg(&html_path));
    let (stdout, _) = texts(&output);
    assert!(output.status.success());
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(json["targets"].is_array());
    std::fs::remove_dir_all(&dir).unwrap();
}
