//! `firsttoken publish DIR RESULTS.json`: adds a run to a directory of
//! published results (a monitor's, served next to the page) and rewrites
//! `DIR/index.json`.
//!
//! The whole procedure (where the run goes, its points file, the index
//! entry, the retention rule that compacts finished days and months) is
//! `core`'s [`publish_run`]; this file only gives it the directory as a
//! [`Store`] and the time. Every file is written whole or not at all (a
//! temporary file beside it, synced, then renamed over it), so a scheduled
//! job killed half-way never leaves a torn file for the page to fetch; and
//! `core` writes the index last, so it never lists a file that is missing.

use std::io::Write as _;
use std::path::{Component, Path, PathBuf};

use firsttoken_core::documents::publish::directory::{
    PublishRunError, Published, Store, publish_run,
};

use crate::error::CliError;

/// A directory of published results on disk.
#[derive(Debug)]
pub struct DirectoryStore {
    root: PathBuf,
}

impl DirectoryStore {
    /// The store rooted at `root` (created on the first write).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    /// `root/path`, refusing a path that would leave the directory (`core`
    /// names only `index.json`, `runs/…`, `days/…` and `months/…`).
    fn path(&self, path: &str) -> Result<PathBuf, String> {
        let relative = Path::new(path);
        if path.is_empty()
            || relative
                .components()
                .any(|c| !matches!(c, Component::Normal(_)))
        {
            return Err(format!(
                "{path} is not a path inside the published directory"
            ));
        }
        Ok(self.root.join(relative))
    }
}

impl Store for DirectoryStore {
    fn read(&self, path: &str) -> Result<Option<String>, String> {
        let full = self.path(path)?;
        match std::fs::read_to_string(&full) {
            Ok(text) => Ok(Some(text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("cannot read {}: {e}", full.display())),
        }
    }

    fn write(&mut self, path: &str, text: &str) -> Result<(), String> {
        let full = self.path(path)?;
        let failed = |e: std::io::Error| format!("cannot write {}: {e}", full.display());
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).map_err(failed)?;
        }
        let mut temporary = full.as_os_str().to_owned();
        temporary.push(".partial");
        let temporary = PathBuf::from(temporary);
        let mut file = std::fs::File::create(&temporary).map_err(failed)?;
        file.write_all(text.as_bytes()).map_err(failed)?;
        file.sync_all().map_err(failed)?;
        std::fs::rename(&temporary, &full).map_err(failed)
    }

    fn remove(&mut self, path: &str) -> Result<(), String> {
        let full = self.path(path)?;
        match std::fs::remove_file(&full) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(format!("cannot remove {}: {e}", full.display())),
        }
    }
}

/// Publishes the results file at `results` into the directory `dir` at
/// `now_ms` (Unix epoch ms, for the retention rule), recording
/// `schedule_minutes` in the index when given.
///
/// # Errors
/// [`CliError::Input`] when the file cannot be read, is not a results file,
/// is already published, or the directory holds a file that is not what
/// its index says; [`CliError::Failed`] when the directory cannot be written.
pub fn publish(
    dir: &Path,
    results: &Path,
    now_ms: f64,
    schedule_minutes: Option<u32>,
) -> Result<Published, CliError> {
    let name = results.display();
    let text = std::fs::read_to_string(results)
        .map_err(|e| CliError::Input(format!("{name}: cannot read it: {e}")))?;
    let mut store = DirectoryStore::new(dir);
    publish_run(&mut store, &text, now_ms, schedule_minutes).map_err(|error| match error {
        PublishRunError::Store(message) => CliError::Failed(message),
        PublishRunError::Results(_) => CliError::Input(format!("{name}: {error}")),
        PublishRunError::Published { .. }
        | PublishRunError::Index(_)
        | PublishRunError::Merge(_) => CliError::Input(format!("{}: {error}", dir.display())),
    })
}

/// What the command prints: where the run went and what was compacted.
pub fn summary_text(dir: &Path, published: &Published) -> String {
    let mut text = format!(
        "published {} into {}{}",
        published.file,
        dir.display(),
        if published.vantage.is_empty() {
            String::new()
        } else {
            format!(" (vantage {})", published.vantage)
        }
    );
    for (file, replaced) in &published.compacted {
        text.push_str(&format!(
            "\ncompacted {replaced} file{} into {file}",
            if *replaced == 1 { "" } else { "s" }
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_store_stays_inside_its_directory_and_writes_whole_files() {
        let root = std::env::temp_dir().join(format!("firsttoken-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let mut store = DirectoryStore::new(&root);
        assert_eq!(store.read("index.json").unwrap(), None);
        store.write("runs/a.json", "{}").unwrap();
        assert_eq!(store.read("runs/a.json").unwrap().as_deref(), Some("{}"));
        assert!(!root.join("runs/a.json.partial").exists());
        store.remove("runs/a.json").unwrap();
        store.remove("runs/a.json").unwrap();
        assert_eq!(store.read("runs/a.json").unwrap(), None);
        for outside in ["../x.json", "/etc/passwd", "runs/../../x", ""] {
            assert!(store.write(outside, "x").is_err(), "{outside}");
            assert!(store.read(outside).is_err(), "{outside}");
        }
        std::fs::remove_dir_all(&root).unwrap();
    }
}
