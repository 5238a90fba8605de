//! Publishing one run into a monitor directory, as `firsttoken publish DIR
//! RESULTS.json` does: the whole procedure, over a [`Store`] of text files,
//! so it runs and is tested natively with an in-memory store while the
//! command line only supplies the directory.
//!
//! A run is published verbatim (the runner's file, byte for byte, so fields
//! this build does not know survive) under `runs/`, its points file is
//! written beside it, the index gains its entry, and then the retention
//! rule compacts finished days and months ([`Index::compaction_groups`]):
//! each group's files are read, merged as the page's import merges them,
//! written as one file with its points file, listed in the index instead of
//! them, and only then removed. The index is written last, so a process
//! stopped half-way leaves at worst an unlisted file, never an index that
//! lists a missing one.

use std::fmt;

use super::{
    CompactionGroup, DEFAULT_SCHEDULE_MINUTES, Index, PointsDoc, PublishError, RunEntry,
    points_file_name, run_file_name,
};
use crate::documents::results::{
    ImportError, MergeError, ResultsDoc, export_json, import_json, merge,
};

/// The index's name inside the directory.
pub const INDEX_FILE: &str = "index.json";

/// Text files under one directory, addressed by `/`-separated relative paths.
pub trait Store {
    /// The file's text, or `None` when there is no such file.
    ///
    /// # Errors
    /// A message when the file exists but cannot be read.
    fn read(&self, path: &str) -> Result<Option<String>, String>;

    /// Writes (or replaces) the file, creating directories as needed.
    ///
    /// # Errors
    /// A message when it cannot be written.
    fn write(&mut self, path: &str, text: &str) -> Result<(), String>;

    /// Removes the file; a missing file is not an error.
    ///
    /// # Errors
    /// A message when it exists and cannot be removed.
    fn remove(&mut self, path: &str) -> Result<(), String>;
}

/// Why a run was not published.
#[derive(Debug, PartialEq)]
pub enum PublishRunError {
    /// The new file is not a results file this build reads.
    Results(ImportError),
    /// A file already in the directory could not be read as results.
    Published {
        /// Its path in the directory.
        file: String,
        /// Why.
        error: ImportError,
    },
    /// The index is not an index, or already lists this run.
    Index(PublishError),
    /// Files of one period could not be merged.
    Merge(MergeError),
    /// The store refused a read, write or removal.
    Store(String),
}

impl fmt::Display for PublishRunError {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Results(error) => write!(f, "the results file was not published: {error}"),
            Self::Published { file, error } => write!(f, "{file} cannot be read: {error}"),
            Self::Index(error) => write!(f, "{error}"),
            Self::Merge(error) => write!(f, "{error}"),
            Self::Store(message) => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for PublishRunError {}

/// What a publish did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Published {
    /// Where the run went, e.g. `runs/2026-12-03T05-17-02Z.fra1.json`.
    pub file: String,
    /// Its vantage.
    pub vantage: String,
    /// Compacted files written, with how many files each replaced.
    pub compacted: Vec<(String, usize)>,
}

/// The `environment.vantage` a results file names (the native runner's
/// `--vantage`), or empty.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn vantage_of(results_text: &str) -> String {
    serde_json::from_str::<serde_json::Value>(results_text)
        .ok()
        .and_then(|doc| {
            doc.get("environment")?
                .get("vantage")?
                .as_str()
                .map(str::to_owned)
        })
        .unwrap_or_default()
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn write_points(
    store: &mut impl Store,
    file: &str,
    doc: &ResultsDoc,
    vantage: &str,
) -> Result<String, PublishRunError> {
    let points = points_file_name(file);
    store
        .write(&points, &PointsDoc::from_results(doc, vantage).to_json())
        .map_err(PublishRunError::Store)?;
    Ok(points)
}

/// Publishes the results file `results_text` into `store` at `now_ms`
/// (Unix epoch ms, for the retention rule), recording `schedule_minutes` in
/// the index when given.
///
/// # Errors
/// [`PublishRunError`] when the file is not a results file, the run is
/// already published, a published file cannot be read or merged, or the
/// store fails. Nothing is listed in the index before it is written.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn publish_run(
    store: &mut impl Store,
    results_text: &str,
    now_ms: f64,
    schedule_minutes: Option<u32>,
) -> Result<Published, PublishRunError> {
    let doc = import_json(results_text).map_err(PublishRunError::Results)?;
    let vantage = vantage_of(results_text);
    let mut index = match store.read(INDEX_FILE).map_err(PublishRunError::Store)? {
        Some(text) => Index::from_json(&text).map_err(PublishRunError::Index)?,
        None => Index::default(),
    };
    if let Some(minutes) = schedule_minutes {
        index.schedule_minutes = minutes.max(1);
    } else if index.runs.is_empty() {
        index.schedule_minutes = DEFAULT_SCHEDULE_MINUTES;
    }
    let started = doc
        .samples
        .iter()
        .map(|s| s.sent_at_ms)
        .reduce(f64::min)
        .unwrap_or(doc.environment.started_at_ms);
    let file = run_file_name(started, &vantage);
    let mut entry = RunEntry::describe(&file, &vantage, &doc, 1);
    if index.runs.iter().any(|r| r.file == file) {
        return Err(PublishRunError::Index(PublishError::Duplicate(file)));
    }
    store
        .write(&file, results_text)
        .map_err(PublishRunError::Store)?;
    entry.points = Some(write_points(store, &file, &doc, &vantage)?);
    index.add(entry).map_err(PublishRunError::Index)?;

    let mut compacted = Vec::new();
    let mut replaced = Vec::new();
    for group in index.compaction_groups(now_ms) {
        compact(store, &mut index, &group)?;
        compacted.push((group.file.clone(), group.members.len()));
        replaced.extend(group.members.iter().filter(|m| **m != group.file).cloned());
    }
    store
        .write(INDEX_FILE, &index.to_json())
        .map_err(PublishRunError::Store)?;
    // Only now that the index no longer lists them.
    for member in &replaced {
        store.remove(member).map_err(PublishRunError::Store)?;
        store
            .remove(&points_file_name(member))
            .map_err(PublishRunError::Store)?;
    }
    Ok(Published {
        file,
        vantage,
        compacted,
    })
}

/// Merges the files of `group` into its file and lists that instead (the
/// caller removes the members once the index is written).
#[cfg_attr(target_arch = "wasm32", inline)]
fn compact(
    store: &mut impl Store,
    index: &mut Index,
    group: &CompactionGroup,
) -> Result<(), PublishRunError> {
    let mut docs = Vec::with_capacity(group.members.len());
    let mut runs = 0;
    for member in &group.members {
        let text = store
            .read(member)
            .map_err(PublishRunError::Store)?
            .ok_or_else(|| PublishRunError::Store(format!("{member} is listed but missing")))?;
        docs.push(
            import_json(&text).map_err(|error| PublishRunError::Published {
                file: member.clone(),
                error,
            })?,
        );
        runs += index
            .runs
            .iter()
            .find(|r| r.file == *member)
            .map_or(1, |r| r.runs);
    }
    let merged = merge(&docs).map_err(PublishRunError::Merge)?;
    let text = export_json(&merged.plan, &merged.environment, &merged.samples);
    store
        .write(&group.file, &text)
        .map_err(PublishRunError::Store)?;
    let mut entry = RunEntry::describe(&group.file, &group.vantage, &merged, runs);
    entry.points = Some(write_points(store, &group.file, &merged, &group.vantage)?);
    index.replace(group, entry);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::calendar::MS_PER_DAY;
    use crate::documents::dashboard::{Dataset, Published as Read, read_published};
    use crate::planning::plan::Target;
    use crate::testing::fixtures::{results_file, sample};
    use std::collections::BTreeMap;

    #[derive(Default)]
    struct Memory(BTreeMap<String, String>);

    impl Store for Memory {
        fn read(&self, path: &str) -> Result<Option<String>, String> {
            Ok(self.0.get(path).cloned())
        }
        fn write(&mut self, path: &str, text: &str) -> Result<(), String> {
            self.0.insert(path.to_owned(), text.to_owned());
            Ok(())
        }
        fn remove(&mut self, path: &str) -> Result<(), String> {
            self.0.remove(path);
            Ok(())
        }
    }

    const HOUR: f64 = 3_600_000.0;
    const DAY0: f64 = 20_000.0 * MS_PER_DAY; // 2024-10-04

    /// An hourly run of two targets from `vantage` at `at_ms`.
    fn run(at_ms: f64, vantage: &str, seed: u32) -> String {
        let samples: Vec<_> = (0..6)
            .map(|k| {
                let ttft = (k % 3 == 2).then_some(300.0 + f64::from(seed * 7 + k));
                sample(
                    k % 2,
                    k / 2,
                    at_ms + f64::from(k) * 5000.0,
                    ttft.or(Some(250.5)),
                    k < 2,
                )
            })
            .collect();
        results_file(
            vec![
                Target::openai("A", "https://a.example/v1", "m"),
                Target::openai("B", "https://b.example/v1", "m"),
            ],
            &samples,
        )
        .replacen(
            "\"vantage\": null",
            &format!("\"vantage\": \"{vantage}\""),
            1,
        )
    }

    /// Every request the directory's index leads the dashboard to, read
    /// from the points files and from the results files.
    fn dashboard(store: &Memory) -> (Dataset, Dataset) {
        let index = Index::from_json(&store.0[INDEX_FILE]).unwrap();
        let mut from_points = Dataset::default();
        let mut from_results = Dataset::default();
        for entry in &index.runs {
            for (file, data) in [
                (entry.points.clone().unwrap(), &mut from_points),
                (entry.file.clone(), &mut from_results),
            ] {
                match read_published(store.0[&file].as_bytes()).unwrap() {
                    Read::Points(points) => data.add(&points, &entry.vantage).unwrap(),
                    Read::Index(_) => panic!("{file} is an index"),
                };
            }
        }
        from_points.finish();
        from_results.finish();
        (from_points, from_results)
    }

    #[test]
    fn runs_are_published_then_compacted_without_losing_a_request() {
        let mut store = Memory::default();
        let mut published = Vec::new();
        // Three days of hourly runs from two vantages, published as they come.
        for hour in 0..72 {
            let at = DAY0 + f64::from(hour) * HOUR + 17.0 * 60_000.0;
            for vantage in ["fra1", "sgp1"] {
                published.push(run(at, vantage, hour));
                let done = publish_run(
                    &mut store,
                    published.last().unwrap(),
                    at + 120_000.0,
                    Some(60),
                )
                .unwrap();
                assert_eq!(done.vantage, vantage);
            }
        }
        let index = Index::from_json(&store.0[INDEX_FILE]).unwrap();
        assert_eq!(index.schedule_minutes, 60);
        let files: Vec<&str> = index.runs.iter().map(|r| r.file.as_str()).collect();
        // Two finished days compacted per vantage; today's 24 runs each stay single.
        assert_eq!(files.iter().filter(|f| f.starts_with("days/")).count(), 4);
        assert_eq!(files.iter().filter(|f| f.starts_with("runs/")).count(), 48);
        assert!(files.contains(&"days/2024-10-04.fra1.json"));
        assert_eq!(
            index
                .runs
                .iter()
                .find(|r| r.file == "days/2024-10-04.sgp1.json")
                .unwrap()
                .runs,
            24
        );
        // Removed once compacted: only listed files (and their points) remain.
        assert_eq!(store.0.len(), 1 + 2 * index.runs.len());

        // Every measured request of every published run, exactly once.
        let mut expected = Dataset::default();
        for text in &published {
            let vantage = vantage_of(text);
            match read_published(text.as_bytes()).unwrap() {
                Read::Points(points) => expected.add(&points, &vantage).unwrap(),
                Read::Index(_) => unreachable!(),
            };
        }
        expected.finish();
        let (from_points, from_results) = dashboard(&store);
        assert_eq!(from_points.points.len(), 72 * 2 * 4);
        assert_eq!(from_points.points, expected.points);
        assert_eq!(from_points.warmups, expected.warmups);
        assert_eq!(
            from_results.points, expected.points,
            "the results files say the same"
        );
        assert_eq!(from_points.vantages, vec!["fra1", "sgp1"]);

        // A month later: October's two day files and 24 single runs become one
        // month file per vantage.
        let late = run(DAY0 + 31.0 * MS_PER_DAY, "fra1", 99);
        let done = publish_run(&mut store, &late, DAY0 + 31.0 * MS_PER_DAY + HOUR, None).unwrap();
        assert!(
            done.compacted
                .iter()
                .any(|(f, n)| f == "months/2024-10.fra1.json" && *n == 26)
        );
        let (after, _) = dashboard(&store);
        assert_eq!(after.points.len(), expected.points.len() + 4);
    }

    #[test]
    fn bad_input_changes_nothing() {
        let mut store = Memory::default();
        let first = run(DAY0, "fra1", 1);
        publish_run(&mut store, &first, DAY0 + HOUR, None).unwrap();
        let before = store.0.clone();
        assert!(matches!(
            publish_run(&mut store, &first, DAY0 + HOUR, None),
            Err(PublishRunError::Index(PublishError::Duplicate(_)))
        ));
        assert!(matches!(
            publish_run(&mut store, "{\"firsttoken_plan\": 1}", DAY0 + HOUR, None),
            Err(PublishRunError::Results(_))
        ));
        assert_eq!(store.0, before);
        assert_eq!(vantage_of(&first), "fra1");
        assert_eq!(vantage_of("{}"), "");
    }
}
