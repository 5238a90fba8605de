//! The page's printer of the report's outline ([`crate::core::outline`]):
//! a section as a card, its tables (each row stacked into a labelled block
//! on a phone, its raw figures in `data-` attributes), its sentences, and
//! the chart core places in it. Core decides what a section holds and in
//! which order; this only lays it out, as the terminal report and
//! `report --html` do.

use std::rc::Rc;

use yew::prelude::*;
use yew::virtual_dom::VTag;

use crate::core::judgement::report::Report;
use crate::core::narrative::sentences::colon;
use crate::core::outline::{Block, Notes, Role, Section, Sentence, Show, Table};
use crate::core::words::format::unbroken_groups;
use crate::ui::components::charts::ChartGrid;
use crate::ui::components::verdict_badge::judgement_badge;
use crate::ui::model::chart_items::ChartItem;
use crate::ui::model::i18n::Lang;

/// One table of a section: the heading column heads its row, the rank is
/// left out and a wide column's or the verdict's cell takes a stacked
/// block's whole width on a phone, where the verdict is a badge. No
/// sideways scroller: it would hide a cell pushed past the screen.
fn table_view(lang: Lang, table: &Table) -> Html {
    let heading = table.heading_column();
    let mut element = with_data(VTag::new("table"), &table.data);
    element.add_attribute("class", format!("{} stack", table.class));
    element.add_child(html! {
            <>
            <thead><tr>{ for table.columns.iter().map(|c| html! { <th scope="col" class={c.numeric.then_some("num")}>{c.heading}</th> }) }</tr></thead>
            <tbody>
            { for table.rows.iter().map(|row| {
                let mut tr = VTag::new("tr");
                // The raw figures, as `data-` attributes.
                for (name, value) in &row.data {
                    tr.add_attribute(name, value.clone());
                }
                tr.add_children(row.cells.iter().zip(&table.columns).enumerate().map(|(k, (cell, column))| if k == heading {
                    html! { <th scope="row" class={column.numeric.then_some("num")} data-value={row.values.get(k).cloned().flatten()}>{cell.clone()}</th> }
                } else {
                    let value = row.values.get(k).cloned().flatten();
                    let bound = row.lower_bounds.get(k).copied().unwrap_or(false).then_some("true");
                    let class = classes!(
                        column.numeric.then_some("num"),
                        column.wide.then_some("wide"),
                        (column.role == Role::Rank).then_some("rank"),
                        (column.role == Role::Verdict).then_some("verdict-cell"),
                        (!column.class.is_empty()).then_some(column.class),
                    );
                    let content = match (column.role, row.judgement, &value) {
                        (Role::Verdict, Some(judgement), _) => judgement_badge(lang, judgement, true),
                        (Role::Fidelity, _, Some(verdict)) => html! { <span class={classes!("fidelity-verdict", verdict.clone())}>{cell.clone()}</span> },
                        _ => html! { {cell.clone()} },
                    };
                    html! { <td {class} data-label={column.heading} data-value={value} data-lower-bound={bound}>{content}</td> }
                }));
                Html::from(tr)
            }) }
            </tbody>
            </>
    });
    html! {
        <>
        if let Some(title) = &table.title { <h3>{title.clone()}</h3> }
        {Html::from(element)}
        </>
    }
}

/// `(attribute, value)` pairs on a tag.
fn with_data(mut tag: VTag, data: &[(&'static str, String)]) -> VTag {
    for (name, value) in data {
        tag.add_attribute(name, value.clone());
    }
    tag
}

/// A list of sentences, each with its target's label (`data-target` its
/// index, its raw figures in `data-` attributes), under its name when the
/// name is a heading.
fn notes_view(lang: Lang, notes: &Notes) -> Html {
    let lead =
        (notes.show == Show::Lead).then(|| html! { <strong>{notes.name}{colon(lang)}</strong> });
    let mut list = VTag::new("ul");
    list.add_attribute("class", format!("notes {}", notes.class));
    list.add_children(notes.items.iter().map(|note| {
        let mut item = with_data(VTag::new("li"), &note.data);
        if let Some(target) = note.target {
            item.add_attribute("data-target", target.to_string());
        }
        // A grouped number ("32 768") never wraps between its groups.
        item.add_child(html! {
            <>{lead.clone()}<strong>{note.label.clone()}</strong>{colon(lang)}{unbroken_groups(&note.text)}</>
        });
        Html::from(item)
    }));
    html! {
        <>
        if notes.show == Show::Heading { <h3>{notes.name}</h3> }
        {Html::from(list)}
        </>
    }
}

/// One sentence about the section, its name a bold lead or a heading.
fn sentence_view(lang: Lang, sentence: &Sentence) -> Html {
    let mut p = with_data(VTag::new("p"), &sentence.data);
    p.add_attribute("class", format!("sentence {}", sentence.class));
    if sentence.show == Show::Lead {
        p.add_child(html! { <strong>{sentence.name}{colon(lang)}</strong> });
    }
    p.add_child(html! { {unbroken_groups(&sentence.text)} });
    html! {
        <>
        if sentence.show == Show::Heading { <h3>{sentence.name}</h3> }
        {Html::from(p)}
        </>
    }
}

/// A section as a card: its heading, then each block in order, the
/// caller's own piece (`own`: a chart it draws, or the export buttons)
/// where the outline places a chart or the exports.
pub fn section_view(lang: Lang, section: &Section, own: Html) -> Html {
    let mut card = with_data(VTag::new("section"), &section.data);
    card.add_attribute("class", format!("card {}", section.kind));
    card.add_attribute("id", section.id.clone());
    card.add_child(html! { <h2>{section.title.clone()}</h2> });
    let mut own = Some(own);
    card.add_children(section.blocks.iter().map(|block| match block {
        Block::Table(table) => table_view(lang, table),
        Block::Notes(notes) => notes_view(lang, notes),
        Block::Sentence(sentence) => sentence_view(lang, sentence),
        Block::Hint(hint) => html! { <p class="hint">{hint.clone()}</p> },
        Block::Chart(_) | Block::Exports => own.take().unwrap_or_default(),
    }));
    Html::from(card)
}

/// The chart of cold share by idle gap, where the outline's idle section
/// places it (`chart`, made with the section once per report and language
/// by the results page).
pub fn idle_chart_view(lang: Lang, report: &Rc<Report>, chart: Rc<Vec<ChartItem>>) -> Html {
    let layout = Rc::as_ptr(report) as usize;
    html! {
        <ChartGrid {lang} items={chart} {layout} title={""} mark="firsttoken:idle-drawn" bare=true />
    }
}
