//! The verdict as a badge, in every view that shows one: nothing but
//! "collecting (n of 20)" before a target has enough samples ("too few to
//! judge (n of 20)" once the run is over, or in a file), and a
//! "provisional" mark until its verdict can no longer change much.

use yew::prelude::*;

use crate::core::judgement::verdict::Judgement;
use crate::ui::model::i18n::Lang;

/// The badge for `judgement`. `data-verdict` carries the machine name
/// (`collecting` or the verdict's JSON name) and `data-provisional` is set
/// on a provisional verdict, for tests and styles. `finished`: no more
/// samples are coming (a finished or stopped run, results, a file).
pub fn judgement_badge(lang: Lang, judgement: Judgement, finished: bool) -> Html {
    let t = lang.texts();
    match judgement {
        Judgement::Collecting { .. } => html! {
            <span class="verdict collecting" data-verdict="collecting" title={t.collecting_hint}>
                {if finished { judgement.finished_label(lang, true) } else { judgement.collecting_text(lang).unwrap_or_default() }}
            </span>
        },
        Judgement::Provisional(verdict) => html! {
            <span class={classes!("verdict", verdict.as_str(), "provisional")} data-verdict={verdict.as_str()} data-provisional="true" title={format!("{} — {}", verdict.text(lang), t.provisional_hint)}>
                {verdict.short(lang)}<small>{format!(" · {}", t.provisional)}</small>
            </span>
        },
        Judgement::Final(verdict) => html! {
            <span class={classes!("verdict", verdict.as_str())} data-verdict={verdict.as_str()} title={verdict.text(lang)}>
                {verdict.short(lang)}
            </span>
        },
    }
}
