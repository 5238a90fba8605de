//! "Run until decided", for a run with `until_decided`: how it ended (the
//! runner's last line and the page's, [`decided_text`]) and where each of
//! its questions stands with its anytime-valid range ([`question_lines`]),
//! from the questions replayed from the samples
//! ([`crate::judgement::report::Stopping`]).

use super::{Block, Section, Sentence};
use crate::base::lang::Lang;
use crate::judgement::report::Report;
use crate::narrative::ending::{decided_text, question_lines};

/// The section of `report`, or `None` for a run that did not ask to run
/// until decided.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn decided_section(lang: Lang, report: &Report) -> Option<Section> {
    let stopping = report.stopping.as_ref()?;
    let title = match lang {
        Lang::En => "Run until decided",
        Lang::ZhCn => "运行至有定论",
    };
    let mut section = Section::new("until-decided", "until-decided", title);
    let decided = stopping.questions.all_decided();
    section.data = vec![("data-decided", decided.to_string())];
    let sentence = |class: &'static str, text: String| {
        Block::Sentence(Sentence {
            class,
            text,
            ..Sentence::default()
        })
    };
    section.blocks.push(sentence(
        "ending",
        decided_text(lang, &stopping.plan, &stopping.questions),
    ));
    section.blocks.extend(
        question_lines(lang, &stopping.plan, &stopping.questions)
            .into_iter()
            .map(|line| sentence("question", line)),
    );
    Some(section)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgement::report::build_report;
    use crate::planning::plan::{Plan, Target};
    use crate::testing::fixtures::sample;

    /// A run until decided has the section, with the run's own last line
    /// first and one line per question; a plan that did not ask has none.
    #[test]
    fn a_run_until_decided_says_how_it_ended_in_its_report() {
        let plan = Plan {
            targets: vec![Target::demo("Fast", "m"), Target::demo("Slow", "m")],
            until_decided: true,
            min_requests_per_target: Some(20),
            ..Plan::default()
        };
        let samples: Vec<_> = (0..20)
            .flat_map(|seq| {
                [
                    sample(0, seq, 0.0, Some(100.0), false),
                    sample(1, seq, 0.0, Some(400.0), false),
                ]
            })
            .collect();
        let report = build_report(&plan, &samples, 0, 1);
        for lang in [Lang::En, Lang::ZhCn] {
            let section = decided_section(lang, &report).unwrap();
            let texts: Vec<&str> = section
                .blocks
                .iter()
                .filter_map(|block| match block {
                    Block::Sentence(sentence) => Some(sentence.text.as_str()),
                    _ => None,
                })
                .collect();
            assert_eq!(
                texts[0],
                crate::narrative::ending::until_decided_text(lang, &plan, &samples).unwrap()
            );
            assert_eq!(texts.len(), 2, "{texts:?}");
            assert_eq!(section.data, [("data-decided", "true".to_owned())]);
        }
        let plain = Plan {
            until_decided: false,
            ..plan
        };
        assert!(decided_section(Lang::En, &build_report(&plain, &samples, 0, 1)).is_none());
    }
}
