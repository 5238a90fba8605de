//! The page in parts. The first visit downloads the setup screen and what
//! Start needs; the run (its loop, the run and history views) and the
//! results (tables, fidelity grid, exports, charts, and the dashboard with
//! the loading of published files) are wasm modules of their own, fetched
//! when first needed (docs/size.md says what each weighs and how the split
//! is built).
//!
//! The dashboard shares the results' module: the two draw the same charts
//! and tables from the same results documents, and as two modules their
//! shared code went into three more chunk modules, which compress apart;
//! one module is 13 kB gzip less for the whole page. A dashboard visit
//! fetches the results' views with it.
//!
//! Each part is reached through one split point, a function marked
//! `#[wasm_split(module, fallible)]`: the post_build hook's splitter moves
//! the function, and all that only it reaches, into that module. Calling it
//! fetches the module once; what it returns is a plain function pointer to
//! the view, kept here, so every later render calls it without waiting.
//!
//! Yew 0.23 has no lazy component (yewstack/yew#3932), so [`PartPage`] is
//! one: a placeholder while the module is fetched, the view once it is in,
//! and, when the fetch fails (offline, a blocked request, a deploy that
//! replaced the page), a notice in the page's language with a retry. The
//! splitter's `fallible` option turns a failed fetch into an `Err` instead
//! of a panic, which would stop the whole page and a run in progress with it.
//!
//! The run itself is the run's part: starting or resuming a run, and the
//! connection test, go through split points there, so the run loop, the
//! measured fetch, the stream decoders, the demo provider and the fidelity
//! probes are not in the first load. The part is fetched right after the
//! first paint, so Start seldom waits for it. A run that cannot start
//! because the part did not arrive loses nothing (Start says so, and
//! pressing it again retries); a run that has started has all of its code
//! in, so no later load can stop it. The page's state and the runs kept on
//! this device stay in the first load, and a part that fails to arrive
//! (the results', say) loses no sample.
//!
//! Reading results files a person imports (and naming the member a file
//! gets wrong) is the results' part; reading a reply's events (and naming
//! the member of a malformed one) is the run's.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use wasm_split_helpers::SplitLoaderError;
use yew::prelude::*;

use crate::browser::spawn;
use crate::core::planning::plan::{Plan, Target};
use crate::core::wire::measure::Outcome;
use crate::core::words::notice;
use crate::ui::model::i18n::Lang;
use crate::ui::model::state::page::PageProps;
use crate::ui::model::state::{Action, ResultsView};
use crate::ui::run::driver::Driver;

/// A part's view once its module is in: a plain function, asked of the
/// module once and called on every render.
type PartView = fn(PageProps) -> Html;

/// A part's module did not arrive (the splitter's runtime logs the
/// browser's reason to the console; the page says it in its own words).
#[derive(Debug)]
pub struct PartUnloaded;

impl From<SplitLoaderError> for PartUnloaded {
    fn from(_: SplitLoaderError) -> Self {
        Self
    }
}

/// The parts of the page that load when first needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The live run view (progress, live timeline, stop).
    Run,
    /// The runs kept on this device: open, resume, delete.
    History,
    /// The results: summary, charts, tables, fidelity, exports.
    Results,
    /// The dashboard of published results (in the results' module).
    Dashboard,
}

impl Part {
    const COUNT: usize = 4;

    fn index(self) -> usize {
        match self {
            Self::Run => 0,
            Self::History => 1,
            Self::Results => 2,
            Self::Dashboard => 3,
        }
    }

    /// The view, when its module is already in.
    fn view(self) -> Option<PartView> {
        VIEWS.with(|views| views[self.index()].get())
    }

    /// Fetches the part's module (once; a failed fetch is not remembered, so
    /// a later call tries again) and keeps its view.
    async fn load(self) -> Result<PartView, PartUnloaded> {
        if let Some(view) = self.view() {
            return Ok(view);
        }
        let view = match self {
            Self::Run => run_view().await?,
            Self::History => history_view().await?,
            Self::Results => results_view().await?,
            Self::Dashboard => dashboard_view().await?,
        };
        VIEWS.with(|views| views[self.index()].set(Some(view)));
        if self == Self::Dashboard {
            resume_dashboard_loading().await;
        }
        Ok(view)
    }
}

thread_local! {
    /// Each part's view, once its module is in.
    static VIEWS: [Cell<Option<PartView>>; Part::COUNT] = const {
        [const { Cell::new(None) }; Part::COUNT]
    };
    /// A dashboard whose loading could not start because its module did not
    /// arrive: the addresses and where to report, for the retry.
    static DASHBOARD_WAITING: RefCell<Option<(Vec<String>, Callback<Action>)>> =
        const { RefCell::new(None) };
}

/// A split point: in the page, `#[wasm_split(part, fallible)]`, an
/// `async fn` that fetches the part's module before it runs the body. With
/// the `unsplit` feature (the browser tests: no splitter processes their
/// wasm, so the splitter's imports would stay unresolved) the same `async
/// fn` runs the body at once.
macro_rules! split_point {
    ($part:ident: $(#[$attr:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        #[cfg(not(feature = "unsplit"))]
        #[::wasm_split_helpers::wasm_split($part, fallible)]
        $(#[$attr])* $vis fn $name($($arg: $ty),*) -> $ret $body

        #[cfg(feature = "unsplit")]
        $(#[$attr])* $vis async fn $name($($arg: $ty),*) -> $ret $body
    };
}

split_point! {
    run:
    fn run_view() -> Result<PartView, PartUnloaded> {
        Ok(|props| html! { <crate::ui::pages::run_view::RunPage ..props /> })
    }
}

split_point! {
    run:
    /// Starts a run of `plan` from now (see [`Driver::start`]). The whole run
    /// loop (scheduler, measured fetch, stream decoders, the demo provider,
    /// the fidelity probes, storage of each sample) is the run's part: once
    /// a run has started, everything it needs is in.
    pub fn start_run(
        driver: Driver,
        plan: Plan,
        keys: BTreeMap<String, String>,
        dispatch: Callback<Action>,
    ) -> Result<(), PartUnloaded> {
        driver.run_new(plan, keys, dispatch);
        Ok(())
    }
}

/// A stored run's resumption, boxed: a split point cannot be `async`.
type Resuming = Pin<Box<dyn Future<Output = ()>>>;

split_point! {
    run:
    /// Reloads a stored run and resumes it where it stopped (see
    /// [`Driver::resume`]).
    pub fn resume_run(
        driver: Driver,
        run_id: String,
        keys: BTreeMap<String, String>,
        dispatch: Callback<Action>,
        lang: Lang,
    ) -> Result<Resuming, PartUnloaded> {
        Ok(Box::pin(async move {
            driver.run_stored(run_id, keys, dispatch, lang).await;
        }))
    }
}

/// The run's front door, in the first load: starting or resuming a run
/// fetches the run's part first. It lives here, with the split points it
/// calls, and not in `driver.rs`, whose loop the part holds: the driver
/// does not import the module that loads it.
impl Driver {
    /// Starts `plan` from now, once the run's part is in (it is usually
    /// in already: it is fetched right after the first paint). When the
    /// part does not arrive, nothing has started: the page says so in
    /// `lang`, and pressing Start again fetches the part again.
    pub fn start(
        &self,
        plan: Plan,
        keys: BTreeMap<String, String>,
        dispatch: Callback<Action>,
        lang: Lang,
    ) {
        let driver = self.clone();
        self.when_run_part_arrives(dispatch.clone(), lang, async move {
            start_run(driver, plan, keys, dispatch).await
        });
    }

    /// Reloads run `run_id` from storage and resumes it where it stopped,
    /// once the run's part is in; as [`Self::start`], a part that does not
    /// arrive changes nothing (the run stays stored, and its offer stays).
    pub fn resume(
        &self,
        run_id: String,
        keys: BTreeMap<String, String>,
        dispatch: Callback<Action>,
        lang: Lang,
    ) {
        let driver = self.clone();
        self.when_run_part_arrives(dispatch.clone(), lang, async move {
            resume_run(driver, run_id, keys, dispatch, lang)
                .await?
                .await;
            Ok(())
        });
    }

    fn when_run_part_arrives(
        &self,
        dispatch: Callback<Action>,
        lang: Lang,
        begin: impl Future<Output = Result<(), PartUnloaded>> + 'static,
    ) {
        if !self.begin_waiting() {
            return;
        }
        let driver = self.clone();
        spawn(async move {
            let begun = begin.await;
            driver.end_waiting();
            if let Err(PartUnloaded) = begun {
                dispatch.emit(Action::Notice(notice::part_unloaded(lang).to_owned()));
            }
        });
    }
}

/// One measured request on its way, boxed: a split point cannot be `async`.
pub type Measuring = Pin<Box<dyn Future<Output = Outcome>>>;

split_point! {
    run:
    /// Sends one request of `target` with the real header set (the
    /// connection test): [`crate::ui::run::driver::measure_once`], from the run's
    /// part, which holds the measured fetch and the stream decoders.
    pub fn measure_connection(
        target: Target,
        plan: Plan,
        key: Option<String>,
        seq: u32,
        seed: u64,
    ) -> Result<Measuring, PartUnloaded> {
        Ok(Box::pin(async move {
            crate::ui::run::driver::measure_once(&target, &plan, key.as_deref(), seq, seed).await
        }))
    }
}

/// A measured request's outcome as JSON, or why the documents it was
/// given do not read, boxed: a split point cannot be `async`.
pub type MeasuringJson = Pin<Box<dyn Future<Output = Result<String, String>>>>;

split_point! {
    run:
    /// [`crate::api::measure_once`]'s work: reads a target and a plan
    /// document, sends one request, and writes the outcome as JSON. In the
    /// run's part, with the readers of those documents that name a bad
    /// member.
    pub fn measure_documents(
        target_json: String,
        plan_json: String,
        key: Option<String>,
        seq: u32,
    ) -> Result<MeasuringJson, PartUnloaded> {
        Ok(Box::pin(async move {
            let target: Target = crate::core::base::document::from_str(&target_json)
                .map_err(|e| format!("bad target: {e}"))?;
            let plan = Plan::from_json(&plan_json).map_err(|e| format!("bad plan: {e}"))?;
            let outcome =
                crate::ui::run::driver::measure_once(&target, &plan, key.as_deref(), seq, 0).await;
            Ok(crate::core::base::document::to_string(&outcome))
        }))
    }
}

split_point! {
    run:
    fn history_view() -> Result<PartView, PartUnloaded> {
        Ok(|props| html! { <crate::ui::pages::run_view::HistoryPage ..props /> })
    }
}

split_point! {
    results:
    fn results_view() -> Result<PartView, PartUnloaded> {
        Ok(|props| html! { <crate::ui::pages::results_view::ResultsPage ..props /> })
    }
}

split_point! {
    results:
    fn dashboard_view() -> Result<PartView, PartUnloaded> {
        Ok(|props| html! { <crate::ui::pages::dashboard_view::DashboardPage ..props /> })
    }
}

/// The loading of published files, boxed: a split point cannot be `async`.
type Loading = Pin<Box<dyn Future<Output = ()>>>;

split_point! {
    results:
    fn dashboard_loading(
        addresses: Vec<String>,
        dispatch: Callback<Action>,
    ) -> Result<Loading, PartUnloaded> {
        Ok(Box::pin(crate::ui::run::dashboard_loader::load_dashboard(
            addresses, dispatch,
        )))
    }
}

/// Why results files were not opened: the file at this index was refused
/// (the reader's words), or the files could not be merged (the sentence).
pub enum ImportRefusal {
    /// The file at this index, and why, in the page's language.
    File(usize, String),
    /// The files do not merge into one run, in the page's language.
    Merge(String),
}

split_point! {
    results:
    /// Reads and merges results files (the texts of the chosen files, in
    /// order) into the results to show. In the results' part: reading a results
    /// document is needed only to show one.
    pub fn read_results_files(
        texts: Vec<String>,
        lang: Lang,
    ) -> Result<Result<ResultsView, ImportRefusal>, PartUnloaded> {
        let mut docs = Vec::with_capacity(texts.len());
        for (index, text) in texts.iter().enumerate() {
            match crate::core::documents::results::import_json(text) {
                Ok(doc) => docs.push(doc),
                Err(error) => return Ok(Err(ImportRefusal::File(index, error.text(lang)))),
            }
        }
        Ok(match crate::core::documents::results::merge(&docs) {
            Ok(doc) => Ok(ResultsView {
                plan: doc.plan,
                environment: doc.environment,
                samples: Rc::new(doc.samples),
            }),
            Err(error) => Err(ImportRefusal::Merge(error.text(lang))),
        })
    }
}

/// Loads the published results at `addresses` into the dashboard. When the
/// dashboard's module does not arrive, the loading waits for the retry that
/// the dashboard's place on the page offers.
pub async fn open_dashboard(addresses: Vec<String>, dispatch: Callback<Action>) {
    match dashboard_loading(addresses.clone(), dispatch.clone()).await {
        Ok(loading) => loading.await,
        Err(PartUnloaded) => {
            DASHBOARD_WAITING.with(|waiting| *waiting.borrow_mut() = Some((addresses, dispatch)));
        }
    }
}

async fn resume_dashboard_loading() {
    if let Some((addresses, dispatch)) =
        DASHBOARD_WAITING.with(|waiting| waiting.borrow_mut().take())
    {
        spawn(open_dashboard(addresses, dispatch));
    }
}

/// Fetches `part`'s module in the background, where a person is likely to go
/// next (the run on Start); a failure is told when the part is opened.
pub fn prefetch(part: Part) {
    if part.view().is_none() {
        spawn(async move {
            let _ = part.load().await;
        });
    }
}

/// What [`PartPage`] shows: which part, and the page's props for its view.
#[derive(Properties, PartialEq, Clone)]
pub struct PartPageProps {
    /// The part to show.
    pub part: Part,
    /// What the part's view receives.
    pub page: PageProps,
}

/// A part of the page: its view once its module is in; until then a
/// placeholder, or the notice with a retry when the fetch failed.
#[component]
pub fn PartPage(props: &PartPageProps) -> Html {
    let part = props.part;
    let lang = props.page.state.lang;
    let failed = use_state(|| None::<Part>);
    let redraw = use_force_update();
    let waiting = part.view().is_none() && *failed != Some(part);
    {
        let failed = failed.clone();
        use_effect_with((part, waiting), move |&(part, waiting)| {
            if waiting {
                spawn(async move {
                    match part.load().await {
                        Ok(_) => redraw.force_update(),
                        Err(PartUnloaded) => failed.set(Some(part)),
                    }
                });
            }
        });
    }
    if let Some(view) = part.view() {
        return view(props.page.clone());
    }
    if *failed == Some(part) {
        let retry = Callback::from(move |_| failed.set(None));
        return html! {
            <section class="part-unloaded" role="alert">
                <p>{ notice::part_unloaded(lang) }</p>
                <button class="primary" onclick={retry}>{ notice::retry_part(lang) }</button>
            </section>
        };
    }
    html! {
        <section class="part-loading" role="status" aria-busy="true">
            <p>{ notice::part_loading(lang) }</p>
        </section>
    }
}
