//! The results in order: which sections the page, the terminal report and
//! the HTML report show, and where the charts go among them. Decided here
//! once, so the three printers cannot order the results three ways.

use super::Section;
use super::cache::cache_section;
use super::comparison::{comparison_sections, no_success_section};
use super::decided::decided_section;
use super::deploy::deploy_section;
use super::fidelity::fidelity_section;
use super::idle::idle_section;
use super::prefill::prefill_section;
use super::routing::routing_section;
use super::timeofday::time_of_day_section;
use crate::base::lang::Lang;
use crate::judgement::prefill_report::PrefillReport;
use crate::judgement::report::Report;
use crate::narrative::sentences::ReportSentences;

/// One part of the results.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    /// Which requests the figures below are computed from, when it is not
    /// every measured request of the plan's prompt (core's sentence).
    Population(String),
    /// A section of the outline.
    Section(Section),
    /// The charts, which the chart crate draws from the report (on a
    /// canvas on the page, as SVG in the HTML report; a terminal has none).
    Charts,
}

/// The results of `report` in `lang`, with its `sentences`, the prompt-size
/// results of a sized run (`prefill`) and whether the plan put a nonce in
/// each prompt (`nonce`), in the order every printer shows them: which
/// requests the figures are from, each model's comparison, the targets without a success, prompt sizes, the
/// prompt cache, first try and rate limits, idle gaps, the fidelity check,
/// the routing table, the charts, the time of day.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn results_outline(
    lang: Lang,
    report: &Report,
    sentences: &ReportSentences,
    prefill: Option<&PrefillReport>,
    nonce: bool,
) -> Vec<Part> {
    let mut parts: Vec<Part> = sentences
        .population
        .iter()
        .cloned()
        .map(Part::Population)
        .collect();
    // A run until decided says first how it ended.
    parts.extend(decided_section(lang, report).map(Part::Section));
    parts.extend(
        comparison_sections(lang, report)
            .into_iter()
            .map(Part::Section),
    );
    let sections = [
        no_success_section(lang, report),
        prefill.map(|prefill| prefill_section(lang, prefill)),
        cache_section(lang, report, nonce),
        deploy_section(lang, report, sentences),
        idle_section(lang, report, sentences),
        fidelity_section(lang, report, sentences),
        routing_section(lang, report),
    ];
    parts.extend(sections.into_iter().flatten().map(Part::Section));
    parts.push(Part::Charts);
    parts.push(Part::Section(time_of_day_section(lang, report, sentences)));
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgement::report::build_report;
    use crate::narrative::sentences::report_sentences;
    use crate::planning::plan::{Plan, Target};
    use crate::testing::fixtures::sample;

    #[test]
    fn the_comparisons_come_first_the_charts_before_the_time_of_day() {
        let plan = Plan {
            targets: vec![Target::demo("A", "m")],
            ..Plan::default()
        };
        let samples: Vec<_> = (0..25)
            .map(|i| sample(0, i, f64::from(i) * 1_000.0, Some(300.0), false))
            .collect();
        let report = build_report(&plan, &samples, 0, 1);
        let sentences = report_sentences(&report, Lang::En);
        let parts = results_outline(Lang::En, &report, &sentences, None, false);
        let ids: Vec<&str> = parts
            .iter()
            .map(|part| match part {
                Part::Section(section) => section.id.as_str(),
                Part::Charts => "charts",
                Part::Population(_) => "population",
            })
            .collect();
        assert_eq!(
            ids,
            [
                "model-0",
                "deploy-figures",
                "routing",
                "charts",
                "time-of-day"
            ]
        );
    }
}
