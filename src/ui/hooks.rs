//! The page's own hooks: effects that more than one component needs,
//! written once (yew's `use_<thing>` habit). They run only in a browser, so
//! they are wasm32-only like the components that call them; each lands in
//! the module of the part that calls it (src/ui/lazy.rs), or in the chunk
//! the parts share when both do.

use std::cell::Cell;
use std::rc::Rc;

use yew::prelude::*;

use crate::browser::canvas::ResizeListener;
use crate::browser::clock::performance_mark;

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

/// Sets the performance mark `mark` after every render of the component
/// (its children's effects have run by then): where a re-render's
/// main-thread cost ends, for the render benchmarks (docs/render.md).
#[hook]
pub fn use_render_mark(mark: &'static str) {
    use_effect(move || performance_mark(mark));
}
