//! The run's journal: an append-only file beside the results file that holds
//! every finished sample the moment it is finished, so a killed process
//! (`kill -9`, a power cut, an OOM kill) loses at most the request in flight
//! and `firsttoken run … --resume` continues the run.
//!
//! The results file is written only when a run ends; over a run of hours that
//! is too late. The journal is JSON Lines: the first line says which run it is
//! (plan, start, schedule seed, run id, vantage), every later line is one
//! sample exactly as `core` writes it into the results' `samples` and the
//! page into its browser storage. Each line is written with one `write` and
//! then `fsync`ed, so a crash leaves at worst a torn last line, which a resume
//! cuts off before appending.
//!
//! What a resume does with the samples is `core`'s: the header gives back
//! the run's [`RunSession`] (the same plan, start and seed, so the same
//! schedule), and [`RunSession::resume`] re-plans the requests not yet
//! done, the page's own reload logic.
//!
//! Keys never reach the journal: the plan holds none, and error messages are
//! redacted before a sample is journaled.
//!
//! [`RunSession::resume`]: firsttoken_core::wire::session::RunSession::resume

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use firsttoken_core::base::document;
use firsttoken_core::planning::plan::Plan;
use firsttoken_core::wire::sample::{ErrorKind, Sample};
use firsttoken_core::wire::session::RunSession;
use serde::{Deserialize, Serialize};

/// The journal format's version, first member of the first line.
pub const JOURNAL_VERSION: u32 = 1;

/// Which run a journal belongs to: everything needed to rebuild its
/// schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct RunHeader {
    /// The run's id (nonces are made from it, so a resumed run keeps them
    /// distinct).
    pub run_id: String,
    /// When the run started (epoch ms): the schedule's start and the
    /// results' `environment.started_at_ms`.
    pub started_at_ms: f64,
    /// The schedule's jitter seed.
    pub seed: u64,
    /// Where the run is made, as given with `--vantage`.
    pub vantage: Option<String>,
    /// The plan being run.
    pub plan: Plan,
}

impl RunHeader {
    /// The header of `session`'s run, made from `vantage`.
    pub fn of(session: &RunSession, vantage: Option<String>) -> Self {
        Self {
            run_id: session.run_id().to_owned(),
            started_at_ms: session.started_at_ms(),
            seed: session.seed(),
            vantage,
            plan: session.plan().clone(),
        }
    }

    /// The run this header names, at its start again (its samples then go
    /// to [`RunSession::resume`]).
    pub fn session(&self) -> RunSession {
        RunSession::rebuild(
            self.plan.clone(),
            self.run_id.clone(),
            self.started_at_ms,
            self.seed,
        )
    }
}

/// The first line's JSON shape.
#[derive(Serialize, Deserialize)]
struct HeaderLine {
    firsttoken_journal: u32,
    run_id: String,
    started_at_ms: f64,
    seed: u64,
    vantage: Option<String>,
    /// The plan in its plan v1 form, as `core` writes it.
    plan: serde_json::Value,
}

/// What a journal held when a run was resumed.
#[derive(Clone, Debug, PartialEq)]
pub struct Recovered {
    /// The run it belongs to.
    pub header: RunHeader,
    /// Its finished samples in the order they were journaled, without
    /// `aborted` ones (those requests were never measured and are sent
    /// again) and without repeats of a `(target, seq)`.
    pub samples: Vec<Sample>,
    /// A torn last line (the process died while writing it) was cut off.
    pub torn_tail: bool,
}

/// Why a journal could not be used.
#[derive(Debug)]
pub enum JournalError {
    /// Reading or writing the file failed.
    Io {
        /// The journal.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A fresh run found the journal of an earlier, unfinished one.
    Exists(PathBuf),
    /// `--resume` found no journal.
    Missing(PathBuf),
    /// A line that is not what a journal holds.
    Corrupt {
        /// The journal.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
}

impl std::fmt::Display for JournalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Io { path, source } => {
                write!(f, "cannot use the journal {}: {source}", path.display())
            }
            Self::Exists(path) => write!(
                f,
                "{} holds an unfinished run: continue it with --resume, or delete the file to \
                 start over",
                path.display()
            ),
            Self::Missing(path) => write!(
                f,
                "nothing to resume: there is no journal at {} (run without --resume to start)",
                path.display()
            ),
            Self::Corrupt {
                path,
                line,
                message,
            } => write!(
                f,
                "{} line {line} is not a journal line ({message}); the samples before it are \
                 intact, but this file cannot be resumed",
                path.display()
            ),
        }
    }
}

impl std::error::Error for JournalError {}

/// An open journal, appended to after every sample.
#[derive(Debug)]
pub struct Journal {
    file: File,
    path: PathBuf,
}

/// The journal beside `output`: `results.json` → `results.json.journal`.
pub fn path_for(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".journal");
    PathBuf::from(name)
}

impl Journal {
    /// Starts the journal of a new run at `path`, its header written and
    /// synced before the first request is sent.
    ///
    /// # Errors
    /// [`JournalError::Exists`] when a journal is already there (an
    /// unfinished run, which a new one must not overwrite); `Io` when the
    /// file cannot be created or written.
    pub fn create(path: &Path, header: &RunHeader) -> Result<Self, JournalError> {
        let file = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(path)
            .map_err(|source| match source.kind() {
                std::io::ErrorKind::AlreadyExists => JournalError::Exists(path.to_owned()),
                _ => io_error(path, source),
            })?;
        let mut journal = Self {
            file,
            path: path.to_owned(),
        };
        journal.append_line(&header_line(header))?;
        sync_directory(path);
        Ok(journal)
    }

    /// Opens the journal at `path` to continue its run: reads every intact
    /// line, cuts off a torn last one, and positions for appending.
    ///
    /// # Errors
    /// `Missing` when there is no journal, `Corrupt` when a line other than a
    /// torn last one cannot be read, `Io` when the file cannot be used.
    pub fn resume(path: &Path) -> Result<(Self, Recovered), JournalError> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|source| match source.kind() {
                std::io::ErrorKind::NotFound => JournalError::Missing(path.to_owned()),
                _ => io_error(path, source),
            })?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|source| io_error(path, source))?;
        let (recovered, intact_len) = read_lines(path, &bytes)?;
        if intact_len < bytes.len() {
            file.set_len(intact_len as u64)
                .and_then(|()| file.sync_all())
                .map_err(|source| io_error(path, source))?;
        }
        file.seek(SeekFrom::End(0))
            .map_err(|source| io_error(path, source))?;
        Ok((
            Self {
                file,
                path: path.to_owned(),
            },
            recovered,
        ))
    }

    /// Appends one finished sample and syncs it to disk before returning.
    ///
    /// Cost: one `write` and one `fdatasync`, after the sample was measured,
    /// never inside a timed request.
    ///
    /// # Errors
    /// When the write or the sync fails.
    pub fn append(&mut self, sample: &Sample) -> Result<(), JournalError> {
        self.append_line(&document::to_string(sample))
    }

    /// Where the journal is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Deletes the journal of a run whose results file is written and
    /// complete.
    ///
    /// # Errors
    /// When the file cannot be removed.
    pub fn remove(self) -> Result<(), JournalError> {
        let Self { file, path } = self;
        drop(file);
        std::fs::remove_file(&path).map_err(|source| io_error(&path, source))
    }

    fn append_line(&mut self, line: &str) -> Result<(), JournalError> {
        // One buffer, one write: a crash tears at most this line.
        let mut buffer = String::with_capacity(line.len() + 1);
        buffer.push_str(line);
        buffer.push('\n');
        self.file
            .write_all(buffer.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|source| io_error(&self.path, source))
    }
}

fn io_error(path: &Path, source: std::io::Error) -> JournalError {
    JournalError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Syncs the directory holding `path`, so the new file's name survives a
/// crash too. Best effort: some file systems refuse to open a directory.
fn sync_directory(path: &Path) {
    let directory = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if let Ok(directory) = File::open(directory) {
        let _ = directory.sync_all();
    }
}

fn header_line(header: &RunHeader) -> String {
    let line = HeaderLine {
        firsttoken_journal: JOURNAL_VERSION,
        run_id: header.run_id.clone(),
        started_at_ms: header.started_at_ms,
        seed: header.seed,
        vantage: header.vantage.clone(),
        // What core writes always parses.
        plan: serde_json::to_value(&header.plan).unwrap_or_default(),
    };
    serde_json::to_string(&line).unwrap_or_default()
}

/// Reads the journal's bytes: the recovered run and how many leading bytes
/// are intact (whole lines).
fn read_lines(path: &Path, bytes: &[u8]) -> Result<(Recovered, usize), JournalError> {
    let corrupt = |line: usize, message: String| JournalError::Corrupt {
        path: path.to_owned(),
        line,
        message,
    };
    // Only lines ended by '\n' were written whole; the rest is a torn tail.
    let intact_len = bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |last| last + 1);
    let text = std::str::from_utf8(&bytes[..intact_len])
        .map_err(|e| corrupt(1, format!("not UTF-8: {e}")))?;
    let mut lines = text.lines();
    let header = lines
        .next()
        .ok_or_else(|| corrupt(1, "the run's header line is missing".to_owned()))
        .and_then(|line| parse_header(line).map_err(|message| corrupt(1, message)))?;
    let mut samples: Vec<Sample> = Vec::new();
    for (offset, line) in lines.enumerate() {
        let sample = document::from_str::<Sample>(line)
            .map_err(|e| corrupt(offset + 2, format!("not a sample: {e}")))?;
        let aborted = sample
            .error
            .as_ref()
            .is_some_and(|e| e.kind == ErrorKind::Aborted);
        let repeated = samples
            .iter()
            .any(|s| s.target == sample.target && s.seq == sample.seq);
        if !aborted && !repeated {
            samples.push(sample);
        }
    }
    Ok((
        Recovered {
            header,
            samples,
            torn_tail: intact_len < bytes.len(),
        },
        intact_len,
    ))
}

fn parse_header(line: &str) -> Result<RunHeader, String> {
    let header: HeaderLine = serde_json::from_str(line).map_err(|e| e.to_string())?;
    if header.firsttoken_journal != JOURNAL_VERSION {
        return Err(format!(
            "journal version {} is not one this firsttoken reads (it reads {JOURNAL_VERSION})",
            header.firsttoken_journal
        ));
    }
    let plan = Plan::from_json(&header.plan.to_string())
        .map_err(|e| format!("its plan: {}", e.messages().join("; ")))?;
    Ok(RunHeader {
        run_id: header.run_id,
        started_at_ms: header.started_at_ms,
        seed: header.seed,
        vantage: header.vantage,
        plan,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use firsttoken_core::planning::plan::Target;
    use firsttoken_core::wire::sample::{Phase, SampleError};

    fn header() -> RunHeader {
        RunHeader {
            run_id: "run-1764000000000".to_owned(),
            started_at_ms: 1_764_000_000_000.125,
            seed: u64::MAX - 7,
            vantage: Some("fra1".to_owned()),
            plan: Plan {
                targets: vec![Target::openai(
                    "Local «vLLM»",
                    "http://127.0.0.1:8000/v1",
                    "m",
                )],
                ..Plan::default()
            },
        }
    }

    fn sample(seq: u32, aborted: bool) -> Sample {
        Sample {
            warmup: seq == 0,
            planned_at_ms: 1_764_000_000_000.125 + f64::from(seq) * 5000.0,
            sent_at_ms: 1_764_000_000_000.5 + f64::from(seq) * 5000.0,
            headers_ms: Some(2.25),
            first_byte_ms: Some(2.5),
            ttft_ms: (!aborted).then_some(100.0 + f64::from(seq) / 3.0),
            second_token_ms: None,
            total_ms: Some(150.0),
            output_tokens: Some(8),
            error: aborted.then(|| SampleError {
                kind: ErrorKind::Aborted,
                phase: Phase::BeforeFirstToken,
                message: "stopped".to_owned(),
            }),
            ..Sample::measured(0, seq, 100.0)
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("firsttoken-journal-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("results.json.journal")
    }

    #[test]
    fn samples_come_back_bit_for_bit_without_aborted_or_repeated_ones() {
        let path = scratch("roundtrip");
        let mut journal = Journal::create(&path, &header()).unwrap();
        for s in [
            sample(0, false),
            sample(1, true),
            sample(1, false),
            sample(0, false),
        ] {
            journal.append(&s).unwrap();
        }
        drop(journal);
        let (_, recovered) = Journal::resume(&path).unwrap();
        assert_eq!(recovered.header, header());
        assert_eq!(recovered.samples, [sample(0, false), sample(1, false)]);
        assert!(!recovered.torn_tail);
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_torn_last_line_is_cut_off_before_appending() {
        let path = scratch("torn");
        let mut journal = Journal::create(&path, &header()).unwrap();
        journal.append(&sample(0, false)).unwrap();
        drop(journal);
        let whole = std::fs::read(&path).unwrap();
        let torn = document::to_string(&sample(1, false));
        std::fs::write(&path, [whole.as_slice(), &torn.as_bytes()[..20]].concat()).unwrap();

        let (mut journal, recovered) = Journal::resume(&path).unwrap();
        assert!(recovered.torn_tail);
        assert_eq!(recovered.samples, [sample(0, false)]);
        journal.append(&sample(1, false)).unwrap();
        drop(journal);
        let (_, recovered) = Journal::resume(&path).unwrap();
        assert_eq!(recovered.samples, [sample(0, false), sample(1, false)]);
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_new_run_never_overwrites_a_journal_and_resume_needs_one() {
        let path = scratch("exists");
        Journal::create(&path, &header()).unwrap();
        assert!(matches!(
            Journal::create(&path, &header()),
            Err(JournalError::Exists(_))
        ));
        let missing = path.with_extension("other");
        let error = Journal::resume(&missing).unwrap_err();
        assert!(matches!(error, JournalError::Missing(_)));
        assert!(error.to_string().contains("run without --resume"));
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_damaged_line_in_the_middle_is_refused_with_its_number() {
        let path = scratch("corrupt");
        let mut journal = Journal::create(&path, &header()).unwrap();
        journal.append(&sample(0, false)).unwrap();
        journal.append_line("{\"target\": \"zero\"}").unwrap();
        journal.append(&sample(2, false)).unwrap();
        drop(journal);
        match Journal::resume(&path) {
            Err(JournalError::Corrupt { line, .. }) => assert_eq!(line, 3),
            other => panic!("expected a corrupt line, got {other:?}"),
        }
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn the_journal_sits_beside_the_results_file() {
        assert_eq!(
            path_for(Path::new("out/results.json")),
            Path::new("out/results.json.journal")
        );
    }
}
