//! The dashboard's state: what the page opened with `?results=` is loading
//! or shows, changed only through [`DashboardAction`]s by the pure
//! [`reduce_dashboard`], so its transitions are tested natively.
//!
//! The merged requests live in one `Rc<Dataset>` that is set once, when
//! every file has arrived: half a million requests are never copied by a
//! state change, and a language switch or a new time range shares them.

use std::rc::Rc;

use crate::core::documents::dashboard::Dataset;
use crate::core::documents::publish::DEFAULT_SCHEDULE_MINUTES;

/// A file that could not be used, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The absolute address of the file.
    pub url: String,
    /// What went wrong, in plain words.
    pub message: String,
}

/// What became of one `?results=` address.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceReport {
    /// The address as given in the page URL.
    pub url: String,
    /// It was an index of files.
    pub index: bool,
    /// Results files read from it (1 for a results file).
    pub files: usize,
    /// Measured requests they held (warm-ups left out).
    pub requests: usize,
    /// The address itself or files it listed that failed.
    pub failures: Vec<Failure>,
}

/// The time range the charts, the hour-of-day view and the comparison
/// across vantages cover. The rolling windows always show 24 h / 72 h / 7 d.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Range {
    /// The last 7 days of data.
    Days7,
    /// The last 30 days.
    Days30,
    /// The last 90 days.
    Days90,
    /// Everything loaded.
    #[default]
    All,
}

impl Range {
    /// Every range, in the order the selector shows them.
    pub const ALL: [Self; 4] = [Self::Days7, Self::Days30, Self::Days90, Self::All];

    /// Its length in days; `None` for everything.
    pub fn days(self) -> Option<u32> {
        match self {
            Self::Days7 => Some(7),
            Self::Days30 => Some(30),
            Self::Days90 => Some(90),
            Self::All => None,
        }
    }

    /// The first send time (epoch ms) inside the range for data ending at
    /// `end_ms`.
    pub fn from_ms(self, end_ms: f64) -> f64 {
        self.days().map_or(f64::NEG_INFINITY, |days| {
            end_ms - f64::from(days) * crate::core::base::calendar::MS_PER_DAY
        })
    }
}

/// The merged requests, shared; two are equal only when they are the same
/// allocation (comparing half a million requests per render would cost more
/// than the render).
#[derive(Clone, Debug, Default)]
pub struct SharedData(pub Rc<Dataset>);

impl PartialEq for SharedData {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl SharedData {
    /// Its address, as a memo key.
    pub fn key(&self) -> usize {
        Rc::as_ptr(&self.0) as usize
    }
}

/// The dashboard on screen.
#[derive(Clone, Debug, PartialEq)]
pub struct DashboardState {
    /// The `?results=` addresses, in order.
    pub addresses: Vec<String>,
    /// Files fetched so far and files to fetch, while loading.
    pub progress: (usize, usize),
    /// `None` while loading; then what came of each address.
    pub sources: Option<Vec<SourceReport>>,
    /// The merged requests of every file that loaded.
    pub data: SharedData,
    /// Minutes between the monitor's runs (from the index, else hourly).
    pub schedule_minutes: u32,
    /// The viewer's clock when loading ended, epoch ms: for the stale warning.
    pub loaded_at_ms: f64,
    /// Chosen time range.
    pub range: Range,
}

impl DashboardState {
    /// A dashboard about to load `addresses`.
    pub fn loading(addresses: Vec<String>) -> Self {
        Self {
            addresses,
            progress: (0, 0),
            sources: None,
            data: SharedData::default(),
            schedule_minutes: DEFAULT_SCHEDULE_MINUTES,
            loaded_at_ms: 0.0,
            range: Range::default(),
        }
    }

    /// Every failure of every address.
    pub fn failures(&self) -> impl Iterator<Item = &Failure> {
        self.sources.iter().flatten().flat_map(|s| &s.failures)
    }
}

/// What can happen to the dashboard.
#[derive(Clone, Debug, PartialEq)]
pub enum DashboardAction {
    /// Start loading these addresses.
    Open(Vec<String>),
    /// `done` of `total` files fetched and read.
    Progress {
        /// Files read (or failed).
        done: usize,
        /// Files to read in all.
        total: usize,
    },
    /// Every file was fetched: show them.
    Loaded {
        /// What came of each address.
        sources: Vec<SourceReport>,
        /// The merged requests.
        data: SharedData,
        /// From the index, else hourly.
        schedule_minutes: u32,
        /// The viewer's clock, epoch ms.
        now_ms: f64,
    },
    /// Show another time range.
    SetRange(Range),
}

/// The dashboard after `action`; `None` when nothing changes.
pub fn reduce_dashboard(
    state: Option<&DashboardState>,
    action: DashboardAction,
) -> Option<DashboardState> {
    match action {
        DashboardAction::Open(addresses) => Some(DashboardState::loading(addresses)),
        DashboardAction::Progress { done, total } => {
            let state = state?;
            (state.sources.is_none() && state.progress != (done, total)).then(|| DashboardState {
                progress: (done, total),
                ..state.clone()
            })
        }
        DashboardAction::Loaded {
            sources,
            data,
            schedule_minutes,
            now_ms,
        } => {
            let state = state?;
            let files = sources.iter().map(|s| s.files + s.failures.len()).sum();
            Some(DashboardState {
                progress: (files, files),
                sources: Some(sources),
                data,
                schedule_minutes,
                loaded_at_ms: now_ms,
                ..state.clone()
            })
        }
        DashboardAction::SetRange(range) => {
            let state = state?;
            (state.range != range).then(|| DashboardState {
                range,
                ..state.clone()
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_then_shows_and_changes_range() {
        let open =
            reduce_dashboard(None, DashboardAction::Open(vec!["data/index.json".into()])).unwrap();
        assert!(open.sources.is_none());
        let progress = DashboardAction::Progress { done: 2, total: 5 };
        let moving = reduce_dashboard(Some(&open), progress.clone()).unwrap();
        assert_eq!(moving.progress, (2, 5));
        assert!(
            reduce_dashboard(Some(&moving), progress).is_none(),
            "no change"
        );
        let data = SharedData(Rc::new(Dataset::default()));
        let loaded = reduce_dashboard(
            Some(&moving),
            DashboardAction::Loaded {
                sources: vec![SourceReport {
                    url: "data/index.json".into(),
                    index: true,
                    files: 4,
                    requests: 240,
                    failures: vec![Failure {
                        url: "https://x/data/runs/a.json".into(),
                        message: "HTTP 404".into(),
                    }],
                }],
                data: data.clone(),
                schedule_minutes: 30,
                now_ms: 5.0,
            },
        )
        .unwrap();
        assert_eq!(loaded.progress, (5, 5));
        assert_eq!(loaded.failures().count(), 1);
        assert_eq!(loaded.data, data);
        assert!(
            reduce_dashboard(
                Some(&loaded),
                DashboardAction::Progress { done: 1, total: 5 }
            )
            .is_none(),
            "a late progress report changes nothing"
        );
        let ranged =
            reduce_dashboard(Some(&loaded), DashboardAction::SetRange(Range::Days7)).unwrap();
        assert_eq!(ranged.data, data, "a range change shares the data");
        assert_ne!(data, SharedData::default());
        assert!(reduce_dashboard(Some(&ranged), DashboardAction::SetRange(Range::Days7)).is_none());
        assert!(reduce_dashboard(None, DashboardAction::SetRange(Range::All)).is_none());
    }

    #[test]
    fn ranges_end_at_the_data() {
        let end = 100.0 * crate::core::base::calendar::MS_PER_DAY;
        assert_eq!(
            Range::Days7.from_ms(end),
            93.0 * crate::core::base::calendar::MS_PER_DAY
        );
        assert_eq!(Range::All.from_ms(end), f64::NEG_INFINITY);
    }
}
