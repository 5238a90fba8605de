//! What every screen component receives: the state handle and the run
//! driver. It lives with the state, not in the root component, so that the
//! views and `app.rs` depend on it and on each other in one direction only
//! (`app` → views → `state`), never in a cycle.

use std::rc::Rc;

use yew::prelude::*;

use crate::browser::clock::performance_mark;
use crate::ui::model::state::{Action, State, reduce};
use crate::ui::run::driver::Driver;

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        // Where an update's main-thread cost starts (see docs/render.md).
        performance_mark("firsttoken:dispatch");
        // No change: hand back the same Rc so Yew skips the re-render.
        reduce(&self, action).map_or(self, Rc::new)
    }
}

/// What every screen receives: the state, a way to change it, the driver.
#[derive(Properties, PartialEq, Clone)]
pub struct PageProps {
    /// The page state.
    pub state: UseReducerHandle<State>,
    /// Runs requests.
    pub driver: Driver,
}

impl PageProps {
    /// A callback that dispatches actions into the reducer.
    pub fn dispatcher(&self) -> Callback<Action> {
        let state = self.state.clone();
        Callback::from(move |action| state.dispatch(action))
    }
}
