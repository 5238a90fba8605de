//! The page's printer of the report's outline ([`crate::core::outline`]):
//! a section as a card, its tables (each row stacked into a labelled block
//! on a phone, its raw figures in `data-` attributes), its sentences, and
//! the chart core places in it. Core decides what a section holds and in
//! which order; this only lays it out, as the terminal report and
//! `report --html` do.

use std::rc::Rc;

use yew::prelude::*;
use yew::virtual_dom::VTag;

use crate::core::outline::{Section, Table};
use crate::core::report::Report;
use crate::core::text::colon;
use crate::ui::chart_items::ChartItem;
use crate::ui::charts::ChartGrid;
use crate::ui::i18n::Lang;

/// One table of a section: the first cell heads its row; a wide column's
/// cell takes a stacked block's whole width on a phone. No sideways
/// scroller: it would hide a cell pushed past the screen.
fn table_view(id: &'static str, table: &Table) -> Html {
    html! {
        <table class={classes!(id, "stack")}>
            <thead><tr>{ for table.columns.iter().map(|c| html! { <th scope="col" class={c.numeric.then_some("num")}>{c.heading}</th> }) }</tr></thead>
            <tbody>
            { for table.rows.iter().map(|row| {
                let mut tr = VTag::new("tr");
                // The raw figures, as `data-` attributes.
                for (name, value) in &row.data {
                    tr.add_attribute(name, value.clone());
                }
                tr.add_children(row.cells.iter().zip(&table.columns).enumerate().map(|(k, (cell, column))| if k == 0 {
                    html! { <th scope="row">{cell.clone()}</th> }
                } else {
                    let value = row.values.get(k).cloned().flatten();
                    let bound = row.lower_bounds.get(k).copied().unwrap_or(false).then_some("true");
                    html! { <td class={classes!(column.numeric.then_some("num"), column.wide.then_some("wide"))} data-label={column.heading} data-value={value} data-lower-bound={bound}>{cell.clone()}</td> }
                }));
                Html::from(tr)
            }) }
            </tbody>
        </table>
    }
}

/// A section: its heading, tables, sentences (each with its target's
/// label, `data-target` its index) and the chart placed in it.
pub fn section_view(lang: Lang, section: &Section, chart: Html) -> Html {
    html! {
        <section class="card" id={section.id}>
            <h2>{section.title.clone()}</h2>
            { for section.tables.iter().map(|table| table_view(section.id, table)) }
            if !section.notes.is_empty() {
                <ul class={classes!("notes", format!("{}-notes", section.id))}>
                { for section.notes.iter().map(|s| html! {
                    <li data-target={s.target.to_string()}><strong>{s.label.clone()}</strong>{colon(lang)}{s.text.clone()}</li>
                }) }
                </ul>
            }
            if let Some(hint) = &section.hint { <p class="hint">{hint.clone()}</p> }
            { chart }
        </section>
    }
}

/// "When does it go cold?": the outline's section with the chart of cold
/// share by idle gap placed in it (`chart`, made with the section once per
/// report and language by the results page).
pub fn idle_view(
    lang: Lang,
    report: &Rc<Report>,
    section: &Section,
    chart: Rc<Vec<ChartItem>>,
) -> Html {
    let layout = Rc::as_ptr(report) as usize;
    let chart = html! {
        <ChartGrid {lang} items={chart} {layout} title={""} mark="firsttoken:idle-drawn" bare=true />
    };
    section_view(lang, section, chart)
}
