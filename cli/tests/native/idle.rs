//! Idle gaps through the runner against the mock's `scale-to-zero` script:
//! every measured request waits its gap after its target's last request
//! ended, the samples and the CSV say which gap, and the report finds where
//! the model goes cold, in JSON, in words and in the HTML report.

use firsttoken_core::documents::results::import_json;

use super::support::{firsttoken, mock, run, scratch, texts};

#[test]
fn a_model_that_scales_to_zero_reads_goes_cold_between_the_gaps_around_its_delay() {
    let mock = mock();
    let dir = scratch("idle");
    let results = dir.join("results.json");
    let csv = dir.join("results.csv");
    let base = format!("{}/v1", mock.base_url());
    // Cold after more than 1 s idle (a 600 ms cold start); gaps of 0.3 and
    // 1.5 s, six each.
    let output = run(firsttoken()
        .arg("run")
        .arg("--target")
        .arg(format!("custom:scale-to-zero@1@600/m@{base}"))
        .args(["-n", "12", "--warmup", "1", "--spacing", "0.2"])
        .args(["--idle-gaps", "0.3,1.5", "--timeout", "10", "-o"])
        .arg(&results)
        .arg("--csv")
        .arg(&csv));
    let (stdout, stderr) = texts(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("each idle gap gets only 6 of a target's 12 requests"),
        "{stdout}"
    );

    let doc = import_json(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(doc.plan.idle_gaps_s, Some(vec![0.3, 1.5]));
    let mut samples = doc.samples.clone();
    samples.sort_by(|a, b| a.sent_at_ms.total_cmp(&b.sent_at_ms));
    let mut counts = [0; 2];
    for pair in samples.windows(2) {
        let (before, sample) = (&pair[0], &pair[1]);
        let gap_s = sample.idle_gap_s.unwrap();
        counts[usize::from(gap_s > 1.0)] += 1;
        // Never sooner than the gap after the previous request ended.
        let idle_ms = sample.sent_at_ms - (before.sent_at_ms + before.total_ms.unwrap());
        assert!(
            idle_ms >= gap_s * 1000.0 - 5.0,
            "{idle_ms} ms after a {gap_s} s gap"
        );
        assert!(sample.error.is_none(), "{:?}", sample.error);
    }
    assert_eq!(counts, [6, 6]);
    assert_eq!(samples[0].idle_gap_s, None, "the warm-up");
    let header = std::fs::read_to_string(&csv).unwrap();
    assert!(header.lines().next().unwrap().ends_with(",idle_gap_s"));

    let output = run(firsttoken().arg("report").arg("--json").arg(&results));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let idle = &json["targets"][0]["idle"];
    assert_eq!(
        idle["goes_cold_after_s"],
        serde_json::json!([0.3, 1.5]),
        "{idle}"
    );
    assert_eq!(idle["gaps"][0]["cold"], 0, "{idle}");
    assert_eq!(idle["gaps"][1]["cold"], 6, "{idle}");
    assert_eq!(idle["gaps"][1]["requests"], 6, "{idle}");
    assert_eq!(idle["keep_warm_s"], 0.2, "{idle}");
    let high = idle["gaps"][0]["interval"][1].as_f64().unwrap();
    assert!((high - (1.0 - 0.025_f64.powf(1.0 / 6.0))).abs() < 1e-9);

    for (lang, words) in [
        // The section, as the page and the HTML report lay it out: its
        // heading, the table's heading row and a row per gap, then the
        // sentences.
        (
            "en",
            [
                "\nWhen does it go cold?\n",
                "Cold share (95 % interval)",
                "goes cold after 0.3 s–1.5 s idle",
            ],
        ),
        (
            "zh-CN",
            [
                "\n空闲多久会变冷？\n",
                "冷启动比例（95 % 区间）",
                "空闲 0.3 秒–1.5 秒后变冷",
            ],
        ),
    ] {
        let output = run(firsttoken()
            .arg("report")
            .args(["--lang", lang])
            .arg(&results));
        let (text, stderr) = texts(&output);
        assert!(output.status.success(), "{stderr}");
        for word in words {
            assert!(text.contains(word), "{lang}: {text}");
        }
        // Said once: the model's block no longer repeats the idle lines.
        assert_eq!(text.matches(words[2]).count(), 1, "{lang}: {text}");
        let section = &text[text.find(words[0]).unwrap()..];
        let section = &section[..section.find("\n\n").unwrap_or(section.len())];
        let lines = section
            .lines()
            .filter(|l| l.contains("scale-to-zero"))
            .count();
        // A row per gap (two), a sentence where it goes cold, one for the
        // connection (kept open by the mock's default window), one for the
        // keep-warm interval.
        assert_eq!(lines, 2 + 3, "{section}");
        if lang == "en" {
            println!("{section}");
        }
    }
    html_has_the_json_s_idle_figures(&results, &json);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The value of `name="…"` in `tag`.
fn attribute<'a>(tag: &'a str, name: &str) -> &'a str {
    let start = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
    let end = start + tag[start..].find('"').unwrap();
    &tag[start..end]
}

/// `report --html`, in both languages, has the idle section: its table's
/// rows carry the very numbers `report --json` prints (gap, requests,
/// cold, share, interval, monotone share), then core's sentences and the
/// chart; the model's block no longer repeats the idle lines.
fn html_has_the_json_s_idle_figures(results: &std::path::Path, json: &serde_json::Value) {
    let gaps = json["targets"][0]["idle"]["gaps"].as_array().unwrap();
    for (lang, title, said) in [
        (
            "en",
            "When does it go cold?",
            "goes cold after 0.3 s–1.5 s idle",
        ),
        ("zh-CN", "空闲多久会变冷？", "空闲 0.3 秒–1.5 秒后变冷"),
    ] {
        let file = results.with_file_name(format!("report-{lang}.html"));
        let output = run(firsttoken()
            .arg("report")
            .args(["--lang", lang, "--html"])
            .arg(&file)
            .arg(results));
        let (_, stderr) = texts(&output);
        assert!(output.status.success(), "{stderr}");
        let html = std::fs::read_to_string(&file).unwrap();
        let start = html
            .find("<section class=\"idle\">")
            .expect("an idle section");
        let section = &html[start..start + html[start..].find("</section>").unwrap()];
        assert!(section.contains(title), "{lang}: {section}");
        assert!(section.contains(said), "{lang}: {section}");
        assert_eq!(
            html.matches(said).count(),
            1,
            "{lang}: the idle sentence is said once"
        );
        assert_eq!(
            section.matches("<svg").count(),
            2,
            "the chart, wide and narrow"
        );
        assert!(section.contains("id=\"chart-idle\""));
        let rows: Vec<&str> = section
            .split("<tr data-target=")
            .skip(1)
            .map(|row| &row[..row.find('>').unwrap()])
            .collect();
        assert_eq!(rows.len(), gaps.len(), "{lang}: a row per gap");
        for (row, gap) in rows.iter().zip(gaps) {
            let number = |name: &str| attribute(row, name).parse::<f64>().unwrap();
            assert_eq!(number("data-gap-s"), gap["gap_s"].as_f64().unwrap());
            assert_eq!(number("data-requests"), gap["requests"].as_f64().unwrap());
            assert_eq!(number("data-cold"), gap["cold"].as_f64().unwrap());
            assert_eq!(number("data-share"), gap["share"].as_f64().unwrap());
            assert_eq!(
                number("data-interval-low"),
                gap["interval"][0].as_f64().unwrap()
            );
            assert_eq!(
                number("data-interval-high"),
                gap["interval"][1].as_f64().unwrap()
            );
            assert_eq!(
                number("data-monotone-share"),
                gap["monotone_share"].as_f64().unwrap()
            );
        }
    }
}
