//! `use_prefetch_results`: a run ends on the results, so their part is
//! fetched while the run goes on.

use yew::prelude::*;

use crate::ui::model::state::View;
use crate::ui::run::lazy::{Part, prefetch};

/// Fetches the results' part in the background once `view` is the run.
#[hook]
pub fn use_prefetch_results(view: View) {
    use_effect_with(view, |view| {
        if *view == View::Run {
            prefetch(Part::Results);
        }
    });
}
