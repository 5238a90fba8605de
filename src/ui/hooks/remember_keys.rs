//! `use_remember_keys`: the stored copy of the keys follows every edit.

use yew::prelude::*;

use crate::browser::storage::remember_keys;
use crate::core::words::notice::StorageStep;
use crate::ui::model::state::{Action, State};

/// Remembering is a standing choice: while it is on, the stored copy follows
/// every key edit, not only the keys present when it was ticked. A copy the
/// browser refuses to store is said in the page's notice.
#[hook]
pub fn use_remember_keys(state: UseReducerHandle<State>) {
    let remembered = state.remember_keys.then(|| state.keys.clone());
    use_effect_with(remembered, move |remembered| {
        if let Some(json) = remembered
            .as_ref()
            .map(crate::core::base::document::to_string)
            && let Err(error) = remember_keys(&json)
        {
            state.dispatch(Action::StorageFailed(
                StorageStep::RememberingKeys,
                error.to_string(),
            ));
        }
    });
}
