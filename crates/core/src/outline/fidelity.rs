//! "Fidelity: the same answers?", for a run with the fidelity check: what
//! it ran (suite, repeats, reference), a row per target (its verdict, the
//! probe replies that passed, valid tool calls, trigger F1, prompt tokens
//! counted as the reference counts them), core's sentence per target, what
//! the verdicts mean, the probes each target failed, then the place of the
//! probe grid (the page's, where each cell opens its replies).
//!
//! The page, the terminal report and the HTML report print this section,
//! so a fidelity figure is written once, here.

use super::{Block, Column, Note, Notes, Role, Row, Section, Sentence, Show, Table};
use crate::base::lang::Lang;
use crate::judgement::fidelity_score::{Fidelity, FidelityFigures};
use crate::judgement::report::Report;
use crate::narrative::fidelity::{
    count_of, f1_text, failure_text, pass_rate_text, token_agreement_text, verdict_word,
};
use crate::narrative::sentences::{ReportSentences, Said};
use crate::words::report_words::{ReportWords, failed_probe, failed_probes_list, fidelity_setup};

/// The section's id (its anchor on the page and in the HTML report).
pub const FIDELITY_ID: &str = "fidelity";

/// The place of the probe grid, which only the page draws.
pub const PROBE_GRID: &str = "probe-grid";

/// The section of `report`, or `None` when the run had no fidelity check.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn fidelity_section(
    lang: Lang,
    report: &Report,
    sentences: &ReportSentences,
) -> Option<Section> {
    let fidelity = report.fidelity.as_ref()?;
    let (t, w) = (lang.texts(), ReportWords::of(lang));
    let label_of = |target: u32| {
        report
            .targets
            .get(target as usize)
            .map(|t| t.label.as_str())
    };
    let mut section = Section::new(FIDELITY_ID, "fidelity", t.fidelity_title);
    section.data = vec![
        ("data-suite", fidelity.suite.as_str().to_owned()),
        ("data-repeats", fidelity.repeats.to_string()),
    ];
    if let Some(reference) = fidelity.reference {
        section.data.push(("data-reference", reference.to_string()));
    }
    section.blocks.push(Block::Sentence(Sentence {
        name: "",
        show: Show::Quiet,
        class: "hint fidelity-setup",
        text: fidelity_setup(
            lang,
            fidelity.suite.as_str(),
            fidelity.repeats,
            fidelity.reference.and_then(label_of),
        ),
        data: Vec::new(),
    }));
    section
        .blocks
        .push(Block::Table(fidelity_table(lang, report, fidelity)));
    section.blocks.push(Block::Notes(Notes::of(
        w.fidelity,
        Show::Quiet,
        "fidelity-sentences",
        &sentences.fidelity,
    )));
    section.blocks.push(Block::Hint(t.fidelity_note.to_owned()));
    let failed: Vec<Note> = fidelity
        .targets
        .iter()
        .filter_map(|figures| {
            let probes = failed_probes(lang, figures);
            if probes.is_empty() {
                return None;
            }
            Some(Note::from(Said {
                target: figures.target,
                label: label_of(figures.target)?.to_owned(),
                text: failed_probes_list(lang, &probes),
            }))
        })
        .collect();
    if !failed.is_empty() {
        section.blocks.push(Block::Notes(Notes {
            name: w.failed_probes,
            show: Show::Lead,
            class: "failed-probes",
            items: failed,
        }));
    }
    section.blocks.push(Block::Chart(PROBE_GRID));
    Some(section)
}

/// A row per target.
#[cfg_attr(target_arch = "wasm32", inline)]
fn fidelity_table(lang: Lang, report: &Report, fidelity: &Fidelity) -> Table {
    let (t, w) = (lang.texts(), ReportWords::of(lang));
    let columns = vec![
        Column::new(t.target, false)
            .short(w.target)
            .role(Role::Heading),
        Column::new(t.fidelity, false)
            .short(w.verdict)
            .role(Role::Fidelity)
            .class("verdict-cell"),
        Column::new(t.probe_pass_rate, true)
            .short(w.probe_replies_passed)
            .wide(),
        Column::new(t.tool_calls_valid, true).short(w.tool_args),
        Column::new(t.trigger_f1, true).short(w.trigger_f1),
        Column::new(t.prompt_tokens_equal, true)
            .short(w.prompt_tokens)
            .wide(),
    ];
    let dash = || "–".to_owned();
    let rows = fidelity
        .targets
        .iter()
        .filter_map(|figures| {
            let label = report.targets.get(figures.target as usize)?.label.clone();
            let f1 = figures.trigger.and_then(|trigger| trigger.f1);
            let mut data = vec![
                ("data-target", figures.target.to_string()),
                ("data-verdict", figures.verdict.as_str().to_owned()),
                ("data-passed", figures.pass.passed.to_string()),
                ("data-replies", figures.pass.replies.to_string()),
                ("data-tool-calls", figures.tool_calls.to_string()),
                (
                    "data-tool-calls-valid",
                    figures.tool_calls_valid.to_string(),
                ),
            ];
            if let Some(f1) = f1 {
                data.push(("data-trigger-f1", f1.to_string()));
            }
            if let Some(tokens) = figures.prompt_tokens {
                data.push(("data-prompt-tokens-equal", tokens.equal.to_string()));
                data.push(("data-prompt-tokens-compared", tokens.compared.to_string()));
            }
            Some(Row {
                cells: vec![
                    label,
                    verdict_word(lang, figures.verdict).to_owned(),
                    pass_rate_text(lang, &figures.pass),
                    if figures.tool_calls == 0 {
                        dash()
                    } else {
                        count_of(lang, figures.tool_calls_valid, figures.tool_calls)
                    },
                    f1.map_or_else(dash, f1_text),
                    figures
                        .prompt_tokens
                        .map_or_else(dash, |tokens| token_agreement_text(lang, &tokens)),
                ],
                values: vec![
                    None,
                    Some(figures.verdict.as_str().to_owned()),
                    None,
                    None,
                    None,
                    None,
                ],
                lower_bounds: Vec::new(),
                data,
                judgement: None,
            })
        })
        .collect();
    Table {
        class: "fidelity-table",
        columns,
        rows,
        ..Table::default()
    }
}

/// "arith-mul (wrong answer, 1 of 2)" for each probe `figures`' target
/// failed at least once.
#[cfg_attr(target_arch = "wasm32", inline)]
fn failed_probes(lang: Lang, figures: &FidelityFigures) -> Vec<String> {
    figures
        .cells
        .iter()
        .filter(|cell| cell.passed < cell.replies)
        .map(|cell| {
            let mut reasons: Vec<&str> = cell
                .failures
                .iter()
                .map(|failure| failure_text(lang, *failure))
                .collect();
            reasons.dedup();
            failed_probe(
                lang,
                cell.probe,
                &reasons,
                cell.replies - cell.passed,
                cell.replies,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgement::fidelity_score::FidelityVerdict;
    use crate::judgement::report::build_report;
    use crate::narrative::sentences::report_sentences;
    use crate::planning::plan::{FidelityPlan, Plan, Target};
    use crate::wire::sample::Sample;

    fn reply(target: u32, seq: u32, probe: &str, answer: &str) -> Sample {
        Sample {
            probe: Some(probe.to_owned()),
            answer: Some(answer.to_owned()),
            finish_reason: Some("stop".to_owned()),
            input_tokens: Some(20),
            output_tokens: Some(3),
            ..Sample::measured(target, seq, 200.0)
        }
    }

    /// A answers `arith-mul` right twice, B right once and wrong once.
    fn report() -> Report {
        let plan = Plan {
            targets: vec![Target::demo("A", "m"), Target::demo("B", "m")],
            fidelity: Some(FidelityPlan::basic(Some("A".to_owned()))),
            ..Plan::default()
        };
        let samples = [
            reply(0, 0, "arith-mul", "391"),
            reply(1, 0, "arith-mul", "The answer is 391."),
            reply(0, 1, "arith-mul", "391"),
            reply(1, 1, "arith-mul", "392"),
        ];
        build_report(&plan, &samples, 0, 1)
    }

    #[test]
    fn a_row_per_target_its_sentences_the_failed_probes_then_the_grid() {
        let report = report();
        let fidelity = report.fidelity.as_ref().expect("the check");
        for lang in [Lang::En, Lang::ZhCn] {
            let sentences = report_sentences(&report, lang);
            let section = fidelity_section(lang, &report, &sentences).expect("a check");
            let table = section.tables().next().expect("the table");
            assert_eq!(table.rows.len(), 2);
            for (row, figures) in table.rows.iter().zip(&fidelity.targets) {
                assert_eq!(row.cells.len(), table.columns.len());
                assert_eq!(row.cells[1], verdict_word(lang, figures.verdict));
                assert_eq!(row.cells[2], pass_rate_text(lang, &figures.pass));
                assert_eq!(row.values[1].as_deref(), Some(figures.verdict.as_str()));
                // No tool was called: a dash, not "0 of 0".
                assert_eq!(row.cells[3], "–");
            }
            assert_eq!(fidelity.targets[0].verdict, FidelityVerdict::Reference);
            // B failed arith-mul once of twice; A failed nothing.
            let Some(Block::Notes(failed)) = section
                .blocks
                .iter()
                .find(|b| matches!(b, Block::Notes(n) if n.class == "failed-probes"))
            else {
                panic!("the failed probes");
            };
            assert_eq!(failed.items.len(), 1);
            assert_eq!(failed.items[0].target, Some(1));
            assert!(
                failed.items[0].text.contains("arith-mul"),
                "{:?}",
                failed.items
            );
            assert_eq!(section.chart(), Some(PROBE_GRID));
            assert!(section.data.contains(&("data-reference", "0".to_owned())));
        }
        let mut latency_only = report.clone();
        latency_only.fidelity = None;
        let sentences = report_sentences(&latency_only, Lang::En);
        assert!(fidelity_section(Lang::En, &latency_only, &sentences).is_none());
    }
}
