//! `firsttoken publish`: runs from two vantages against the mock, published
//! into a directory the page's dashboard reads.

use std::path::{Path, PathBuf};

use firsttoken_core::documents::publish::Index;
use firsttoken_core::documents::publish::directory::INDEX_FILE;
use firsttoken_core::documents::results::{export_json, import_json};
use firsttoken_core::planning::plan::Protocol;

use super::support::{firsttoken, mock, quick_plan, run, scratch, target, texts, write_plan};

/// Runs `plan` from `vantage` into `dir/<vantage>.json`, expecting exit
/// `code` (5 when a target is meant never to answer).
fn run_from(dir: &Path, plan: &Path, vantage: &str, code: i32) -> PathBuf {
    let results = dir.join(format!("{vantage}.json"));
    let output = run(firsttoken()
        .arg("run")
        .arg(plan)
        .arg("-o")
        .arg(&results)
        .arg("--vantage")
        .arg(vantage));
    assert_eq!(output.status.code(), Some(code), "{}", texts(&output).1);
    results
}

fn publish(data: &Path, results: &Path, extra: &[&str]) -> (Option<i32>, String, String) {
    let output = run(firsttoken()
        .arg("publish")
        .arg(data)
        .arg(results)
        .args(extra));
    let (stdout, stderr) = texts(&output);
    (output.status.code(), stdout, stderr)
}

fn report_json(files: &[PathBuf]) -> serde_json::Value {
    let output = run(firsttoken().arg("report").arg("--json").args(files));
    assert!(output.status.success(), "{}", texts(&output).1);
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn two_vantages_are_published_with_an_index_and_report_the_same_figures() {
    let mock = mock();
    let dir = scratch("publish");
    let plan = quick_plan(
        vec![
            target(&mock, Protocol::OpenAi, "fixed@5"),
            target(&mock, Protocol::Gemini, "http-500"),
        ],
        3,
    );
    let plan_path = write_plan(&dir, &plan);
    let runs = [
        // Exit 5: the http-500 target never answers, as it is meant to.
        run_from(&dir, &plan_path, "fra1", 5),
        run_from(&dir, &plan_path, "sgp1", 5),
    ];
    let data = dir.join("published").join("data");
    let (code, stdout, stderr) = publish(&data, &runs[0], &["--schedule-minutes", "30"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("published runs/"), "{stdout}");
    assert!(stdout.contains("(vantage fra1)"), "{stdout}");
    let (code, _, stderr) = publish(&data, &runs[1], &[]);
    assert_eq!(code, Some(0), "{stderr}");

    let index = Index::from_json(&std::fs::read_to_string(data.join(INDEX_FILE)).unwrap()).unwrap();
    assert_eq!(index.schedule_minutes, 30, "kept from the first publish");
    assert_eq!(index.runs.len(), 2);
    let mut published = Vec::new();
    for (entry, (original, vantage)) in index.runs.iter().zip(runs.iter().zip(["fra1", "sgp1"])) {
        assert_eq!(entry.vantage, vantage);
        assert_eq!(entry.samples, 6);
        assert_eq!(entry.runs, 1);
        assert_eq!(entry.targets, ["openai fixed@5", "gemini http-500"]);
        let file = data.join(&entry.file);
        // The run is published byte for byte.
        assert_eq!(
            std::fs::read(&file).unwrap(),
            std::fs::read(original).unwrap()
        );
        assert!(data.join(entry.points.as_ref().unwrap()).exists());
        published.push(file);
    }
    // What the dashboard's files say equals what the runs said.
    assert_eq!(report_json(&published), report_json(&runs));

    // The same run again is refused, and nothing changes.
    let before = std::fs::read_to_string(data.join(INDEX_FILE)).unwrap();
    let (code, _, stderr) = publish(&data, &runs[0], &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("already"), "{stderr}");
    let (code, _, stderr) = publish(&data, &plan_path, &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("not a firsttoken results file"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(data.join(INDEX_FILE)).unwrap(),
        before
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn runs_of_a_finished_month_are_compacted_without_losing_a_sample() {
    let mock = mock();
    let dir = scratch("publish-compact");
    let plan = quick_plan(vec![target(&mock, Protocol::OpenAi, "fixed@5")], 2);
    let plan_path = write_plan(&dir, &plan);
    let data = dir.join("data");
    // Two runs moved 40 days back, an hour apart: a month that is over,
    // whatever today's date.
    let mut moved = Vec::new();
    for (hour, vantage) in [(0.0, "fra1"), (1.0, "fra1")] {
        let results = run_from(&dir, &plan_path, &format!("{vantage}-{hour}"), 0);
        let mut doc = import_json(&std::fs::read_to_string(&results).unwrap()).unwrap();
        let shift_ms = -40.0 * 86_400_000.0 + hour * 3_600_000.0;
        doc.environment.started_at_ms += shift_ms;
        doc.environment.vantage = Some(vantage.to_owned());
        for sample in &mut doc.samples {
            sample.planned_at_ms += shift_ms;
            sample.sent_at_ms += shift_ms;
        }
        std::fs::write(
            &results,
            export_json(&doc.plan, &doc.environment, &doc.samples),
        )
        .unwrap();
        moved.push(results);
    }
    let (code, stdout, stderr) = publish(&data, &moved[0], &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let (code, stdout_two, stderr) = publish(&data, &moved[1], &[]);
    assert_eq!(code, Some(0), "{stderr}");
    // The first is compacted into its month at once; the second, late for
    // a period already compacted, joins that file.
    assert!(stdout.contains("compacted 1 file into months/"), "{stdout}");
    assert!(
        stdout_two.contains("compacted 2 files into months/"),
        "{stdout_two}"
    );

    let index = Index::from_json(&std::fs::read_to_string(data.join(INDEX_FILE)).unwrap()).unwrap();
    assert_eq!(index.runs.len(), 1, "{index:?}");
    let month = &index.runs[0];
    assert!(
        month.file.starts_with("months/") && month.file.ends_with(".fra1.json"),
        "{}",
        month.file
    );
    assert_eq!((month.runs, month.samples), (2, 4));
    let left: Vec<_> = std::fs::read_dir(data.join("runs"))
        .map(|entries| entries.map(|e| e.unwrap().file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "the runs were replaced: {left:?}");
    // Every sample of both runs is in the day's file.
    assert_eq!(
        report_json(&[data.join(&month.file)])["targets"],
        report_json(&moved)["targets"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
