//! "When does it go cold?", for a run with idle gaps: one table row per
//! target and gap (the gap, its cold count, the cold share with its 95 %
//! interval, the TTFT median and p95, the monotone estimate), then each
//! target's sentences (where it goes cold, what keeping it warm costs),
//! then the chart of cold share by idle gap.

use super::{Block, Column, Notes, Row, Section, Show, Table};
use crate::base::lang::Lang;
use crate::judgement::report::Report;
use crate::narrative::idle::{chart_words, gap_row, idle_headings, idle_title};
use crate::narrative::sentences::ReportSentences;

/// The id of the idle chart's item (`chart::items::idle_chart_item`).
pub const IDLE_CHART: &str = "chart-idle";

/// A number as `report --json` spells it (serde_json's shortest form).
#[cfg_attr(target_arch = "wasm32", inline)]
fn json_number(value: f64) -> String {
    serde_json::Number::from_f64(value).map_or_else(String::new, |n| n.to_string())
}

/// The section of `report`, or `None` for a run without idle gaps.
/// `sentences` are the report's in `lang`
/// ([`crate::narrative::sentences::report_sentences`]).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn idle_section(lang: Lang, report: &Report, sentences: &ReportSentences) -> Option<Section> {
    let gaps: Vec<_> = report
        .targets
        .iter()
        .flat_map(|target| {
            target
                .idle
                .iter()
                .flat_map(move |idle| idle.gaps.iter().map(move |gap| (target, gap)))
        })
        .collect();
    if gaps.is_empty() {
        return None;
    }
    let [target, gap, cold, share, median, p95, connections] = idle_headings(lang);
    let columns = vec![
        Column::new(target, false),
        Column::new(gap, true),
        Column::new(cold, true),
        Column {
            wide: true,
            ..Column::new(share, true)
        },
        Column::new(median, true),
        Column::new(p95, true),
        Column::new(connections, true),
        Column::new(chart_words(lang).1, true),
    ];
    // Each row is made from its own gap: no row is matched to its figures
    // by position.
    let rows = gaps
        .into_iter()
        .map(|(target, gap)| Row {
            cells: gap_row(lang, &target.label, gap),
            values: Vec::new(),
            lower_bounds: Vec::new(),
            data: vec![
                ("data-target", target.target.to_string()),
                ("data-gap-s", json_number(gap.gap_s)),
                ("data-requests", gap.requests.to_string()),
                ("data-cold", gap.cold.to_string()),
                ("data-share", json_number(gap.share())),
                ("data-interval-low", json_number(gap.interval.0)),
                ("data-interval-high", json_number(gap.interval.1)),
                ("data-monotone-share", json_number(gap.monotone_share)),
                ("data-failed", gap.failed.to_string()),
                (
                    "data-new-connections",
                    gap.connections
                        .map_or_else(String::new, |c| c.new.to_string()),
                ),
            ],
            judgement: None,
        })
        .collect();
    let notes: Vec<_> = sentences
        .idle
        .iter()
        .chain(&sentences.idle_settings)
        .cloned()
        .collect();
    let mut section = Section::new("idle", "idle", idle_title(lang));
    section.blocks = vec![
        Block::Table(Table {
            class: "idle",
            columns,
            rows,
            ..Table::default()
        }),
        Block::Notes(Notes::of("", Show::Quiet, "idle-notes", &notes)),
        Block::Chart(IDLE_CHART),
    ];
    Some(section)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgement::idle::{IdleRequest, IdleSettings, idle_figures};
    use crate::judgement::report::build_report;
    use crate::narrative::sentences::report_sentences;
    use crate::planning::plan::{Plan, Target};
    use crate::wire::sample::TtftRank;

    fn report(idle: bool) -> Report {
        let plan = Plan {
            targets: vec![Target::demo("A", "m")],
            ..Plan::default()
        };
        let mut report = build_report(&plan, &[], 0, 1);
        if idle {
            // Warm after 10 s and 1 min, cold after 5 min in 4 of 5.
            let requests: Vec<IdleRequest> = [(10.0, 0), (60.0, 0), (300.0, 4)]
                .into_iter()
                .flat_map(|(gap_s, cold)| {
                    (0..5).map(move |i| {
                        IdleRequest::planned(
                            gap_s,
                            TtftRank::Measured(if i < cold {
                                9_000.0
                            } else {
                                300.0 + f64::from(i)
                            }),
                        )
                    })
                })
                .collect();
            report.targets[0].idle = idle_figures(&requests, 120_000.0, IdleSettings::default());
        }
        report
    }

    #[test]
    fn one_row_per_target_and_gap_with_its_raw_figures_then_the_sentences_and_the_chart() {
        let report = report(true);
        for lang in [Lang::En, Lang::ZhCn] {
            let sentences = report_sentences(&report, lang);
            let section = idle_section(lang, &report, &sentences).expect("an idle run");
            assert_eq!(
                (section.id.as_str(), section.chart()),
                ("idle", Some(IDLE_CHART))
            );
            assert_eq!(section.title, idle_title(lang));
            let tables: Vec<_> = section.tables().collect();
            let [table] = tables.as_slice() else {
                panic!("one table")
            };
            assert_eq!(table.columns.len(), 8);
            assert_eq!(table.rows.len(), 3);
            assert!(
                table
                    .rows
                    .iter()
                    .all(|r| r.cells.len() == table.columns.len())
            );
            // The figures printed and the raw ones are of the same gap.
            let last = &table.rows[2];
            assert_eq!(last.cells[0], "A");
            assert!(
                last.data.contains(&("data-gap-s", "300.0".to_owned())),
                "{:?}",
                last.data
            );
            assert!(last.data.contains(&("data-cold", "4".to_owned())));
            assert!(last.data.contains(&("data-share", "0.8".to_owned())));
            assert_eq!(
                section.notes(),
                [sentences.idle.clone(), sentences.idle_settings.clone()].concat()
            );
            assert!(!section.notes().is_empty());
        }
    }

    #[test]
    fn a_run_without_idle_gaps_has_no_section() {
        let report = report(false);
        let sentences = report_sentences(&report, Lang::En);
        assert_eq!(idle_section(Lang::En, &report, &sentences), None);
    }
}
