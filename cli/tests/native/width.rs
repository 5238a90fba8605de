//! The terminal's width: `report` at 80 and 120 columns (as `COLUMNS` sets
//! it when standard output is not a terminal) fits every line, in English
//! and Chinese, breaking between words; without a width a pipe gets whole
//! lines, one sentence a line, as before.

use super::support::{firsttoken, mock, run, scratch, texts};

#[test]
fn the_report_fits_80_and_120_columns_and_a_pipe_gets_whole_lines() {
    let mock = mock();
    let dir = scratch("width");
    let results = dir.join("results.json");
    let base = format!("{}/v1", mock.base_url());
    let output = run(firsttoken()
        .arg("run")
        .arg("--target")
        .arg(format!(
            "custom:scale-to-zero@1@300/a-model-with-a-long-name@{base}"
        ))
        .arg("--target")
        .arg(format!("custom:fixed@30/m@{base}"))
        .args(["-n", "6", "--warmup", "1", "--idle-gaps", "0.2,1.2", "-o"])
        .arg(&results));
    let (stdout, stderr) = texts(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let columns = |line: &str| unicode_width::UnicodeWidthStr::width(line);
    for lang in ["en", "zh-CN"] {
        let whole = run(firsttoken()
            .env_remove("COLUMNS")
            .args(["report", "--lang", lang])
            .arg(&results));
        let (whole, _) = texts(&whole);
        assert!(
            whole.lines().any(|l| columns(l) > 120),
            "{lang}: a pipe keeps sentences whole"
        );
        for width in [80, 120] {
            let fitted = run(firsttoken()
                .env("COLUMNS", width.to_string())
                .args(["report", "--lang", lang])
                .arg(&results));
            let (fitted, _) = texts(&fitted);
            for line in fitted.lines() {
                assert!(columns(line) <= width, "{lang} at {width}: {line:?}");
            }
            // The sentences' words are all there, none cut in two: every
            // English word of the whole text is a word of the fitted one.
            let words = |text: &str| -> std::collections::BTreeSet<String> {
                text.split_whitespace()
                    .filter(|w| w.chars().all(|c| c.is_ascii_alphabetic()))
                    .map(str::to_owned)
                    .collect()
            };
            // A stacked table drops the headings of the cells that name
            // its rows: words of the whole text's padded table lines.
            let table_lines: String = whole
                .lines()
                .filter(|l| l.trim_start().contains("  "))
                .collect::<Vec<_>>()
                .join("\n");
            let headings = words(&table_lines);
            let missing: Vec<String> = words(&whole)
                .difference(&words(&fitted))
                .filter(|w| !headings.contains(*w))
                .cloned()
                .collect();
            assert!(missing.is_empty(), "{lang} at {width}: {missing:?}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
