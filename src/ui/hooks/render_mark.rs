//! `use_render_mark`: where a render's main-thread cost ends, for the
//! render benchmarks.

use yew::prelude::*;

use crate::browser::clock::performance_mark;

/// Sets the performance mark `mark` after every render of the component
/// (its children's effects have run by then): where a re-render's
/// main-thread cost ends, for the render benchmarks (docs/render.md).
#[hook]
pub fn use_render_mark(mark: &'static str) {
    use_effect(move || performance_mark(mark));
}
