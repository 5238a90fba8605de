//! Loads the dashboard's files: every `?results=` address, and every file
//! an index among them lists, fetched a few at a time and read as they
//! arrive, then merged in the order the addresses and indexes give them (so
//! targets and vantages keep a stable order however the network reorders
//! the replies). A file that fails is reported with its address and reason;
//! the others are still shown.

use std::cell::RefCell;
use std::rc::Rc;

use yew::Callback;

use crate::browser::clock::{epoch_ms, performance_mark};
use crate::browser::published::{fetch_bytes, page_url, resolve};
use crate::browser::spawn;
use crate::core::documents::dashboard::{Dataset, Published, read_published};
use crate::core::documents::publish::DEFAULT_SCHEDULE_MINUTES;
use crate::core::documents::publish::PointsDoc;
use crate::ui::model::dashboard::{DashboardAction, Failure, SharedData, SourceReport};
use crate::ui::model::state::Action;

/// Files fetched at once: enough to keep a connection pool busy, few
/// enough that only a handful of undecoded bodies are held at a time.
const IN_FLIGHT: usize = 6;

/// Progress is reported every this many files (each report re-renders).
const PROGRESS_EVERY: usize = 20;

/// One results (or points) file to read.
struct Job {
    /// Absolute address.
    url: String,
    /// The vantage its index names (the file's own wins).
    vantage: String,
    /// Which `?results=` address it came from.
    source: usize,
    slot: Slot,
}

enum Slot {
    Waiting,
    Read(Result<PointsDoc, String>),
    Merged,
}

struct Loading {
    jobs: Vec<Job>,
    next: usize,
    done: usize,
    merged: usize,
    data: Dataset,
    sources: Vec<SourceReport>,
    schedule_minutes: Option<u32>,
    dispatch: Callback<Action>,
    finished: bool,
}

impl Loading {
    /// Merges the read files at the front of the queue, in order.
    fn merge_ready(&mut self) {
        while let Some(job) = self.jobs.get_mut(self.merged) {
            let slot = std::mem::replace(&mut job.slot, Slot::Merged);
            let read = match slot {
                Slot::Waiting => {
                    job.slot = Slot::Waiting;
                    return;
                }
                Slot::Read(read) => read,
                Slot::Merged => Err(String::new()),
            };
            let source = &mut self.sources[job.source];
            match read.and_then(|run| self.data.add(&run, &job.vantage).map_err(|e| e.to_string()))
            {
                Ok(requests) => {
                    source.files += 1;
                    source.requests += requests;
                }
                Err(message) => source.failures.push(Failure {
                    url: job.url.clone(),
                    message,
                }),
            }
            self.merged += 1;
        }
    }

    fn finish_if_done(&mut self) {
        if self.finished || self.merged < self.jobs.len() {
            return;
        }
        self.finished = true;
        let mut data = std::mem::take(&mut self.data);
        data.finish();
        performance_mark("firsttoken:dashboard-loaded");
        self.dispatch
            .emit(Action::Dashboard(DashboardAction::Loaded {
                sources: std::mem::take(&mut self.sources),
                data: SharedData(Rc::new(data)),
                schedule_minutes: self.schedule_minutes.unwrap_or(DEFAULT_SCHEDULE_MINUTES),
                now_ms: epoch_ms(),
            }));
    }
}

fn read_run(bytes: &[u8]) -> Result<PointsDoc, String> {
    match read_published(bytes) {
        Ok(Published::Points(run)) => Ok(run),
        Ok(Published::Index(_)) => {
            Err("this is an index; an index may list results files, not other indexes".to_owned())
        }
        Err(error) => Err(error.to_string()),
    }
}

/// Loads `addresses` (relative to the page or absolute) and dispatches the
/// dashboard's progress and, at the end, everything that loaded.
pub async fn load_dashboard(addresses: Vec<String>, dispatch: Callback<Action>) {
    let page = page_url();
    let mut jobs = Vec::new();
    let mut sources = Vec::new();
    let mut schedule_minutes: Option<u32> = None;
    // The addresses themselves first: few, and an index must be read before
    // the files it lists are known.
    for (source, address) in addresses.iter().enumerate() {
        let mut report = SourceReport {
            url: address.clone(),
            ..SourceReport::default()
        };
        let fetched = match resolve(address, &page) {
            Ok(url) => fetch_bytes(&url).await.map(|bytes| (url, bytes)),
            Err(message) => Err(message),
        };
        match fetched.and_then(|(url, bytes)| {
            read_published(&bytes)
                .map(|doc| (url, doc))
                .map_err(|e| e.to_string())
        }) {
            Ok((url, Published::Points(run))) => jobs.push(Job {
                url,
                vantage: String::new(),
                source,
                slot: Slot::Read(Ok(run)),
            }),
            Ok((url, Published::Index(index))) => {
                report.index = true;
                schedule_minutes = Some(
                    schedule_minutes
                        .map_or(index.schedule_minutes, |m| m.min(index.schedule_minutes)),
                );
                for entry in index.runs {
                    // The points file when the index names one: the same
                    // requests in a twelfth of the bytes (core::documents::publish).
                    let file = entry.points.unwrap_or(entry.file);
                    match resolve(&file, &url) {
                        Ok(file_url) => jobs.push(Job {
                            url: file_url,
                            vantage: entry.vantage,
                            source,
                            slot: Slot::Waiting,
                        }),
                        Err(message) => report.failures.push(Failure { url: file, message }),
                    }
                }
            }
            Err(message) => report.failures.push(Failure {
                url: resolve(address, &page).unwrap_or_else(|_| address.clone()),
                message,
            }),
        }
        sources.push(report);
    }
    let total = jobs.len();
    let done = jobs
        .iter()
        .filter(|j| !matches!(j.slot, Slot::Waiting))
        .count();
    let loading = Rc::new(RefCell::new(Loading {
        jobs,
        next: 0,
        done,
        merged: 0,
        data: Dataset::default(),
        sources,
        schedule_minutes,
        dispatch: dispatch.clone(),
        finished: false,
    }));
    dispatch.emit(Action::Dashboard(DashboardAction::Progress { done, total }));
    {
        let mut state = loading.borrow_mut();
        state.merge_ready();
        state.finish_if_done();
    }
    for _ in 0..IN_FLIGHT.min(total) {
        spawn(worker(Rc::clone(&loading)));
    }
}

/// Fetches and reads waiting files one after another until none is left.
async fn worker(loading: Rc<RefCell<Loading>>) {
    loop {
        let next = {
            let mut state = loading.borrow_mut();
            let found = (state.next..state.jobs.len())
                .find(|&i| matches!(state.jobs[i].slot, Slot::Waiting));
            match found {
                Some(i) => {
                    state.next = i + 1;
                    Some((i, state.jobs[i].url.clone()))
                }
                None => None,
            }
        };
        let Some((i, url)) = next else {
            return;
        };
        let read = fetch_bytes(&url).await.and_then(|bytes| read_run(&bytes));
        let mut state = loading.borrow_mut();
        state.jobs[i].slot = Slot::Read(read);
        state.done += 1;
        let (done, total) = (state.done, state.jobs.len());
        if done % PROGRESS_EVERY == 0 && done < total {
            state
                .dispatch
                .emit(Action::Dashboard(DashboardAction::Progress { done, total }));
        }
        state.merge_ready();
        state.finish_if_done();
    }
}
