//! "Time of day": per target, its peak and its off-peak requests (the
//! plan's peak hours, in the run's time zone), each with its request
//! count, median and p95, then the sentences that compare the two. One
//! row per target and period rather than two column groups, so on a phone
//! the rows stack into labelled blocks and the off-peak figures stay in
//! sight. Below 72 ranked requests a p95 has no upper confidence bound,
//! so it is given as what the data bound from below ("≥ x").

use super::{Block, Column, Notes, Row, Section, Show, Table};
use crate::base::lang::Lang;
use crate::judgement::report::Report;
use crate::judgement::timeofday::Period;
use crate::narrative::sentences::ReportSentences;
use crate::words::format::{at_least, ms_or_dash};

/// The section of `report`, with `sentences`' comparisons of the periods.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn time_of_day_section(lang: Lang, report: &Report, sentences: &ReportSentences) -> Section {
    let t = lang.texts();
    let row = |label: &str, word: &str, period: &Period| {
        let median = period.ttft.map(|s| s.median);
        // What the data bound from below, when the p95 has no upper bound.
        let (p95, bound) = if period.p95_is_bounded() {
            (period.ttft.map(|s| s.p95), false)
        } else {
            (period.p95_low_ms, period.p95_low_ms.is_some())
        };
        Row {
            cells: vec![
                label.to_owned(),
                word.to_owned(),
                period.requests.to_string(),
                ms_or_dash(lang, median),
                format!("{}{}", at_least(bound), ms_or_dash(lang, p95)),
            ],
            values: vec![
                None,
                None,
                None,
                median.map(|v| v.to_string()),
                p95.map(|v| v.to_string()),
            ],
            lower_bounds: vec![false, false, false, false, bound],
            data: Vec::new(),
            judgement: None,
        }
    };
    let rows = report
        .targets
        .iter()
        .flat_map(|target| {
            [
                row(&target.label, t.peak, &target.time_of_day.peak),
                row(&target.label, t.off_peak, &target.time_of_day.off_peak),
            ]
        })
        .collect();
    let mut section = Section::new("time-of-day", "time-of-day", t.time_of_day);
    section.blocks = vec![
        Block::Table(Table {
            class: "time-of-day",
            columns: vec![
                Column::new(t.target, false),
                Column::new(t.time_of_day, false),
                Column::new(t.samples, true),
                Column::new(t.median, true),
                Column::new(t.p95, true),
            ],
            rows,
            ..Table::default()
        }),
        Block::Notes(Notes::of(
            "",
            Show::Quiet,
            "time-of-day-notes",
            &sentences.periods,
        )),
    ];
    section
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgement::report::build_report;
    use crate::narrative::sentences::report_sentences;
    use crate::planning::plan::{Plan, Target};
    use crate::testing::fixtures::sample;

    #[test]
    fn a_row_per_target_and_period_and_a_p95_of_few_requests_is_a_lower_bound() {
        let plan = Plan {
            targets: vec![Target::demo("A", "m")],
            peak_hours: [0, 12],
            ..Plan::default()
        };
        // 30 requests, all within the first hour after midnight UTC: peak.
        let samples: Vec<_> = (0..30)
            .map(|i| {
                sample(
                    0,
                    i,
                    f64::from(i) * 1_000.0,
                    Some(300.0 + f64::from(i)),
                    false,
                )
            })
            .collect();
        let report = build_report(&plan, &samples, 0, 1);
        let sentences = report_sentences(&report, Lang::En);
        let section = time_of_day_section(Lang::En, &report, &sentences);
        assert_eq!(section.id, "time-of-day");
        let rows = &section.tables().next().expect("a table").rows;
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].cells[..3], ["A", "Peak", "30"]);
        // 30 ranked requests: the p95 is bounded from below only.
        assert!(rows[0].lower_bounds[4], "{:?}", rows[0]);
        assert!(rows[0].cells[4].starts_with("≥ "), "{:?}", rows[0].cells);
        assert_eq!(rows[1].cells[..3], ["A", "Off-peak", "0"]);
        assert_eq!(rows[1].cells[3], "–");
        assert!(!rows[1].lower_bounds[4]);
        assert_eq!(section.notes(), sentences.periods);
    }
}
