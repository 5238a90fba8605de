//! `use_resize_count`: re-render a component when the window is resized.

use std::cell::Cell;
use std::rc::Rc;

use yew::prelude::*;

use crate::browser::canvas::ResizeListener;

/// How many times the window has been resized since the component was
/// first rendered; each resize re-renders it. A component that draws on a
/// canvas puts the count in its drawing effect's dependencies, so a phone
/// turned or a window dragged redraws at the new width.
///
/// The count wraps at `u32::MAX`: only its change matters.
#[hook]
pub fn use_resize_count() -> u32 {
    // A counter in a cell, not a state: the listener outlives renders, and a
    // state handle it captured would keep adding to its first value.
    let resized = use_memo((), |_| Cell::new(0u32));
    let redraw = use_force_update();
    {
        let resized = Rc::clone(&resized);
        use_effect_with((), move |_| {
            let listener = ResizeListener::new(move || {
                resized.set(resized.get().wrapping_add(1));
                redraw.force_update();
            });
            move || drop(listener)
        });
    }
    resized.get()
}
