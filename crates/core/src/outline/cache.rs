//! "Prompt cache", for a run whose provider reported cached prompt tokens:
//! per target, the requests with a cache figure, the hits among them and
//! the median TTFT of hits and of misses, then what the figures mean (with
//! the nonce on, that the hits are a shared prefix, not a reused prompt).

use super::{Block, Column, Row, Section, Table};
use crate::base::lang::Lang;
use crate::judgement::report::Report;
use crate::words::format::{format_pct, ms_or_dash};

/// The section of `report`, or `None` when no target's provider reported
/// a cache figure. `nonce` is the plan's.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn cache_section(lang: Lang, report: &Report, nonce: bool) -> Option<Section> {
    let t = lang.texts();
    let rows: Vec<Row> = report
        .targets
        .iter()
        .filter_map(|target| {
            let split = target.cache.as_ref()?;
            Some(Row {
                cells: vec![
                    target.label.clone(),
                    split.reported.to_string(),
                    format!("{} ({})", split.hits, format_pct(split.hit_share * 100.0)),
                    ms_or_dash(lang, split.hit_median_ms),
                    ms_or_dash(lang, split.miss_median_ms),
                ],
                values: vec![
                    None,
                    Some(split.reported.to_string()),
                    Some(split.hit_share.to_string()),
                    split.hit_median_ms.map(|v| v.to_string()),
                    split.miss_median_ms.map(|v| v.to_string()),
                ],
                lower_bounds: Vec::new(),
                data: vec![("data-target", target.target.to_string())],
                judgement: None,
            })
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    let mut section = Section::new("prompt-cache", "prompt-cache", t.prompt_cache);
    section.blocks = vec![
        Block::Table(Table {
            class: "prompt-cache",
            columns: vec![
                Column::new(t.target, false),
                Column::new(t.cache_reported, true),
                Column::new(t.cache_hits, true),
                Column::new(t.cache_hit_median, true),
                Column::new(t.cache_miss_median, true),
            ],
            rows,
            ..Table::default()
        }),
        // With the nonce on, the hits are a shared prefix, not a reused
        // prompt: the note says so instead of suggesting the nonce that
        // was on.
        Block::Hint(
            if nonce {
                t.cache_note_nonce
            } else {
                t.cache_note
            }
            .to_owned(),
        ),
    ];
    Some(section)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgement::cache::CacheSplit;
    use crate::judgement::report::build_report;
    use crate::planning::plan::{Plan, Target};

    #[test]
    fn a_row_per_target_with_a_cache_figure_and_the_note_for_the_plans_nonce() {
        let plan = Plan {
            targets: vec![Target::demo("A", "m"), Target::demo("B", "m")],
            ..Plan::default()
        };
        let mut report = build_report(&plan, &[], 0, 1);
        assert_eq!(cache_section(Lang::En, &report, false), None);
        report.targets[1].cache = Some(CacheSplit {
            reported: 20,
            hits: 5,
            hit_share: 0.25,
            hit_median_ms: Some(120.5),
            miss_median_ms: None,
        });
        let section = cache_section(Lang::En, &report, false).expect("one target reported");
        let tables: Vec<_> = section.tables().collect();
        let [table] = tables.as_slice() else {
            panic!("one table")
        };
        assert_eq!(table.rows.len(), 1);
        let row = &table.rows[0];
        assert_eq!(row.cells, ["B", "20", "5 (25 %)", "120 ms", "–"]);
        assert_eq!(row.values[2].as_deref(), Some("0.25"));
        assert_eq!(row.data, [("data-target", "1".to_owned())]);
        assert_eq!(
            section.blocks.last(),
            Some(&Block::Hint(Lang::En.texts().cache_note.to_owned()))
        );
        let with_nonce = cache_section(Lang::ZhCn, &report, true).unwrap();
        assert_eq!(
            with_nonce.blocks.last(),
            Some(&Block::Hint(Lang::ZhCn.texts().cache_note_nonce.to_owned()))
        );
        assert_eq!(with_nonce.title, "提示词缓存");
    }
}
