//! "First try and rate limits", the settings to deploy with: per target,
//! how many requests succeeded on the first try and what the 429s said
//! (the last one's headers in the same sentence), then what happened inside
//! the stream after the first token, then the cost at the plan's prices.
//!
//! The page, the terminal report and the HTML report print this section,
//! so each figure (a Retry-After, a stall count, a cost) is placed once.

use super::{Block, Note, Notes, Section, Show};
use crate::base::lang::Lang;
use crate::judgement::report::{Report, TargetReport};
use crate::narrative::sentences::{ReportSentences, Said};

/// The section's id (its anchor on the page and in the HTML report).
pub const DEPLOY_ID: &str = "deploy-figures";

/// The section of `report` with the sentences of `sentences`, or `None`
/// when no target has a measured request.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn deploy_section(lang: Lang, report: &Report, sentences: &ReportSentences) -> Option<Section> {
    let t = lang.texts();
    let target_of = |said: &Said| report.targets.get(said.target as usize);
    let first_try: Vec<Note> = sentences
        .first_try
        .iter()
        .filter_map(|said| {
            let status = target_of(said)?.status.as_ref()?;
            let mut said = said.clone();
            if let Some(headers) = sentences
                .rate_limits
                .iter()
                .find(|s| s.target == said.target)
            {
                said.text = format!("{} {}", said.text, headers.text);
            }
            let mut data = vec![
                ("data-first-try", status.first_try_success.to_string()),
                ("data-requests", status.requests.to_string()),
                ("data-rate-limited", status.counts.rate_limited.to_string()),
                (
                    "data-rate-limit-hidden",
                    status.rate_limit_hidden.to_string(),
                ),
            ];
            if let Some(median) = status.retry_after_median_s {
                data.push(("data-retry-after-median", median.to_string()));
            }
            Some(Note::with_data(said, data))
        })
        .collect();
    if first_try.is_empty() {
        return None;
    }
    let streams = figures_notes(&sentences.streams, report, |target| {
        let stream = target.stream?;
        let mut data = vec![
            ("data-stalled", stream.stalled.to_string()),
            ("data-requests", stream.requests.to_string()),
            ("data-buffered", stream.buffered.to_string()),
        ];
        if let Some(gap) = stream.max_gap_ms {
            data.push(("data-max-gap", gap.to_string()));
        }
        if let Some(gap) = stream.gap_p95_median_ms {
            data.push(("data-gap-p95-median", gap.to_string()));
        }
        Some(data)
    });
    let costs = figures_notes(&sentences.costs, report, |target| {
        let cost = target.cost?;
        let mut data = vec![("data-run-usd", cost.run_usd.to_string())];
        if let Some(per) = cost.per_success_usd {
            data.push(("data-per-success-usd", per.to_string()));
        }
        Some(data)
    });
    let mut section = Section::new(DEPLOY_ID, "deploy", t.first_try);
    section.blocks.push(Block::Notes(Notes {
        name: t.first_try,
        show: Show::Quiet,
        class: "first-try",
        items: first_try,
    }));
    for (name, class, items) in [
        (t.inside_stream, "stream-shape", streams),
        (t.cost, "costs", costs),
    ] {
        if !items.is_empty() {
            section.blocks.push(Block::Notes(Notes {
                name,
                show: Show::Heading,
                class,
                items,
            }));
        }
    }
    Some(section)
}

/// The sentences of `said` whose target has the figures `data` gives, each
/// with those figures.
#[cfg_attr(target_arch = "wasm32", inline)]
fn figures_notes(
    said: &[Said],
    report: &Report,
    data: impl Fn(&TargetReport) -> Option<Vec<(&'static str, String)>>,
) -> Vec<Note> {
    said.iter()
        .filter_map(|s| {
            let data = data(report.targets.get(s.target as usize)?)?;
            Some(Note::with_data(s.clone(), data))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgement::report::build_report;
    use crate::narrative::sentences::report_sentences;
    use crate::planning::plan::{Plan, Target};
    use crate::testing::fixtures::sample;

    fn report() -> Report {
        let plan = Plan {
            targets: vec![Target::demo("A", "m"), Target::demo("B", "m")],
            ..Plan::default()
        };
        let samples: Vec<_> = (0..30)
            .flat_map(|i| {
                let at = f64::from(i) * 1_000.0;
                [
                    sample(0, i, at, Some(300.0), false),
                    sample(1, i, at, (i % 3 != 0).then_some(500.0), false),
                ]
            })
            .collect();
        build_report(&plan, &samples, 0, 1)
    }

    #[test]
    fn a_first_try_note_per_measured_target_with_its_figures_and_the_429_s_headers() {
        let report = report();
        for lang in [Lang::En, Lang::ZhCn] {
            let mut sentences = report_sentences(&report, lang);
            sentences.rate_limits.push(Said {
                target: 1,
                label: "B".into(),
                text: "HEADERS".into(),
            });
            let section = deploy_section(lang, &report, &sentences).expect("measured targets");
            assert_eq!(section.id, DEPLOY_ID);
            let Some(Block::Notes(notes)) = section.blocks.first() else {
                panic!("the first try comes first");
            };
            assert_eq!(notes.class, "first-try");
            assert_eq!(notes.items.len(), 2);
            for note in &notes.items {
                let target = &report.targets[note.target.unwrap() as usize];
                let status = target.status.as_ref().unwrap();
                let data = |name| {
                    note.data
                        .iter()
                        .find(|(n, _)| *n == name)
                        .map(|(_, v)| v.clone())
                };
                assert_eq!(
                    data("data-first-try"),
                    Some(status.first_try_success.to_string())
                );
                assert_eq!(data("data-requests"), Some(status.requests.to_string()));
                // The headers follow the status sentence of their target only.
                assert_eq!(note.text.ends_with(" HEADERS"), note.target == Some(1));
            }
        }
    }

    #[test]
    fn a_run_without_measured_requests_has_no_section() {
        let report = build_report(&Plan::default(), &[], 0, 1);
        let sentences = report_sentences(&report, Lang::En);
        assert!(deploy_section(Lang::En, &report, &sentences).is_none());
    }
}
