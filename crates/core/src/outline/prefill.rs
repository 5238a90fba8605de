//! "Prompt size and prefill speed", for a run with prompt sizes: per
//! target a table with a row per size (its input tokens, requests, TTFT
//! median and p95, cold starts and verdict, or that the provider refused
//! the size), then the sentences: each target's prefill fit, refused
//! sizes, TTFT at the typical size and cache saving, and each model's
//! comparison of its targets.
//!
//! The page, the terminal report and the HTML report print this section,
//! so a size's figures are written once, here.

use super::{Block, Column, Note, Notes, Role, Row, Section, Show, Table};
use crate::base::lang::Lang;
use crate::judgement::prefill_report::{PrefillReport, TargetPrefill};
use crate::narrative::prefill::{
    PrefillLines, heading, prefill_lines, refused, size_cells, size_headings,
};

/// The section's id (its anchor on the page and in the HTML report).
pub const PREFILL_ID: &str = "prefill";

/// The section of `prefill`'s results.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn prefill_section(lang: Lang, prefill: &PrefillReport) -> Section {
    let mut section = Section::new(PREFILL_ID, "prefill", heading(lang));
    section.blocks.extend(
        prefill
            .targets
            .iter()
            .filter(|target| !target.sizes.is_empty())
            .map(|target| Block::Table(size_table(lang, target))),
    );
    let PrefillLines { targets, models } = prefill_lines(lang, prefill);
    let items: Vec<Note> = targets
        .into_iter()
        .map(|(target, label, text)| Note {
            target: Some(target),
            label,
            text,
            data: Vec::new(),
        })
        .chain(
            models
                .into_iter()
                .map(|(model, text)| Note::about_model(&model, text)),
        )
        .collect();
    section.blocks.push(Block::Notes(Notes {
        name: heading(lang),
        show: Show::Quiet,
        class: "prefill-sentences",
        items,
    }));
    section
}

/// One target's table: a row per size.
#[cfg_attr(target_arch = "wasm32", inline)]
fn size_table(lang: Lang, target: &TargetPrefill) -> Table {
    let [size, tokens, requests, median, p95, cold, verdict] = size_headings(lang);
    let columns = vec![
        Column::new(size, true).role(Role::Heading),
        Column::new(tokens, true),
        Column::new(requests, true),
        Column::new(median, true).class("median"),
        Column::new(p95, true).class("p95"),
        Column::new(cold, true),
        Column::new(verdict, false).role(Role::Verdict),
    ];
    let rows = target
        .sizes
        .iter()
        .map(|row| {
            let ttft = row.figures.ttft;
            Row {
                cells: size_cells(lang, row).to_vec(),
                values: vec![
                    Some(row.size.to_string()),
                    row.input_tokens.map(|v| v.to_string()),
                    Some(row.figures.requests.to_string()),
                    ttft.map(|t| t.median.to_string()),
                    ttft.map(|t| t.p95.to_string()),
                    None,
                    None,
                ],
                lower_bounds: Vec::new(),
                data: vec![("data-size", row.size.to_string())],
                // A refused size has no verdict: its cell says why.
                judgement: (!refused(row)).then_some(row.figures.judgement),
            }
        })
        .collect();
    Table {
        class: "prefill-sizes",
        title: Some(target.label.clone()),
        data: vec![("data-target", target.target.to_string())],
        columns,
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgement::prefill_report::prefill_report;
    use crate::planning::plan::{Plan, Target};
    use crate::planning::schedule::Schedule;
    use crate::testing::fixtures::sample;

    #[test]
    fn a_table_per_measured_target_a_row_per_size_then_every_sentence() {
        let plan = Plan {
            targets: vec![Target::demo("A", "m"), Target::demo("B", "m")],
            requests_per_target: 40,
            prompt_sizes: Some(vec![128, 4_096]),
            ..Plan::default()
        };
        // TTFT grows with the prompt, twice as fast for B.
        let samples: Vec<_> = Schedule::new(&plan, 0.0, 1)
            .requests
            .iter()
            .map(|planned| {
                let tokens = planned.sized_prompt.map_or(0, |s| s.tokens);
                let per_token = if planned.target == 0 { 0.05 } else { 0.1 };
                let ttft = 200.0 + f64::from(tokens) * per_token + f64::from(planned.seq % 5);
                let mut s = sample(
                    planned.target,
                    planned.seq,
                    planned.planned_at_ms,
                    Some(ttft),
                    planned.warmup,
                );
                s.sized_prompt = planned.sized_prompt;
                s.input_tokens = Some(tokens);
                s
            })
            .collect();
        let prefill = prefill_report(&plan, &samples, 1).expect("sized samples");
        for lang in [Lang::En, Lang::ZhCn] {
            let section = prefill_section(lang, &prefill);
            assert_eq!(section.id, PREFILL_ID);
            let tables: Vec<&Table> = section.tables().collect();
            assert_eq!(tables.len(), 2);
            for (table, target) in tables.iter().zip(&prefill.targets) {
                assert_eq!(table.title.as_deref(), Some(target.label.as_str()));
                assert_eq!(table.rows.len(), 2, "a row per size");
                for (row, size) in table.rows.iter().zip(&target.sizes) {
                    assert_eq!(row.cells.len(), table.columns.len());
                    assert_eq!(
                        row.values[3],
                        size.figures.ttft.map(|t| t.median.to_string())
                    );
                }
            }
            let said = prefill_lines(lang, &prefill);
            let Some(Block::Notes(notes)) = section.blocks.last() else {
                panic!("the sentences close the section");
            };
            assert_eq!(notes.items.len(), said.targets.len() + said.models.len());
            let listed: Vec<_> = section
                .notes()
                .into_iter()
                .map(|s| (s.target, s.label, s.text))
                .collect();
            assert_eq!(listed, said.targets);
            assert!(!said.models.is_empty(), "one model, two targets that grow");
            assert!(
                notes
                    .items
                    .iter()
                    .any(|n| n.target.is_none() && n.data == [("data-model", "m".to_owned())])
            );
        }
    }
}
