//! What the probe grid shows, as plain data: the grid's cells (targets ×
//! probes) and the replies behind a cell (the fidelity table is core's
//! outline, `core::outline::fidelity`). Pure and native (the probe grid
//! only lays it out), so what each cell says is tested without a browser.
//!
//! The figures are core's ([`Fidelity`]) and so are the words (verdicts,
//! pass rates, failures, categories, the cells' marks and the replies'
//! text): `core::narrative::fidelity`, which `firsttoken report` speaks too.

pub use crate::core::judgement::fidelity_score::CellState;
use crate::core::judgement::fidelity_score::Fidelity;
use crate::core::judgement::report::Report;
use crate::core::narrative::fidelity::{category_name, failure_text, reply_text};
use crate::core::planning::fidelity::suite::{Category, Probe};
use crate::core::wire::sample::Sample;
use crate::ui::model::i18n::Lang;

fn label_of(report: &Report, target: u32) -> &str {
    report
        .targets
        .get(target as usize)
        .map_or("", |t| t.label.as_str())
}

/// A run of neighbouring probes of one category: a heading over the grid's
/// columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CategorySpan {
    /// The category.
    pub category: Category,
    /// Its name in the page's language.
    pub name: &'static str,
    /// How many columns it covers.
    pub span: usize,
}

/// The category headings over `probes`, in order.
pub fn category_spans(lang: Lang, probes: &[Probe]) -> Vec<CategorySpan> {
    let mut spans: Vec<CategorySpan> = Vec::new();
    for probe in probes {
        match spans.last_mut() {
            Some(last) if last.category == probe.category => last.span += 1,
            _ => spans.push(CategorySpan {
                category: probe.category,
                name: category_name(lang, probe.category),
                span: 1,
            }),
        }
    }
    spans
}

/// One reply behind a cell.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplyItem {
    /// Its index in the results' samples.
    pub sample: usize,
    /// The answer, then each call as `name(arguments)`, one a line.
    pub text: String,
    /// It passed its rule.
    pub passed: bool,
    /// Why not, in a few words.
    pub failure: Option<&'static str>,
}

/// What opens under the grid when a cell is selected.
#[derive(Clone, Debug, PartialEq)]
pub struct CellDetail<'a> {
    /// The target's index.
    pub target: u32,
    /// The target's label.
    pub label: &'a str,
    /// The probe.
    pub probe: &'static Probe,
    /// Its category's name.
    pub category: &'static str,
    /// Its replies, in send order.
    pub replies: Vec<ReplyItem>,
}

/// The replies of probe number `probe` (in suite order) on `target`;
/// `samples` are the ones the report was built from.
pub fn cell_detail<'a>(
    lang: Lang,
    report: &'a Report,
    samples: &[Sample],
    target: u32,
    probe: usize,
) -> Option<CellDetail<'a>> {
    let fidelity: &Fidelity = report.fidelity.as_ref()?;
    let cell = fidelity.targets.get(target as usize)?.cells.get(probe)?;
    let probe = fidelity.suite.probe(cell.probe)?;
    let replies = cell
        .samples
        .iter()
        .filter_map(|&index| {
            let sample = samples.get(index)?;
            // Verified again from what the sample kept, as the scores are.
            let check = sample.verify_probe(probe);
            Some(ReplyItem {
                sample: index,
                text: reply_text(
                    lang,
                    sample.answer.as_deref(),
                    sample.tool_calls.as_deref().unwrap_or_default(),
                ),
                passed: check.passed,
                failure: check.failure.map(|failure| failure_text(lang, failure)),
            })
        })
        .collect();
    Some(CellDetail {
        target,
        label: label_of(report, target),
        probe,
        category: category_name(lang, probe.category),
        replies,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::judgement::fidelity_score::ProbeCell;
    use crate::core::judgement::fidelity_score::TokenAgreement;
    use crate::core::judgement::report::{REPORT_SEED, build_report};
    use crate::core::narrative::fidelity::{cell_mark, cell_title, f1_text, token_agreement_text};
    use crate::core::planning::fidelity::reply::ToolCall;
    use crate::core::planning::fidelity::suite::Suite;
    use crate::core::planning::fidelity::verify::ProbeFailure;
    use crate::core::planning::plan::FidelityPlan;
    use crate::ui::model::form::demo_plan;

    fn reply(target: u32, seq: u32, probe: &str, answer: &str) -> Sample {
        Sample {
            planned_at_ms: 1.0e12,
            sent_at_ms: 1.0e12,
            headers_ms: Some(100.0),
            first_byte_ms: Some(100.0),
            second_token_ms: None,
            total_ms: Some(300.0),
            output_tokens: Some(3),
            http_status: Some(200),
            input_tokens: Some(20),
            probe: Some(probe.to_owned()),
            answer: Some(answer.to_owned()),
            finish_reason: Some("stop".to_owned()),
            ..Sample::measured(target, seq, 200.0)
        }
    }

    /// Both demo targets answer `arith-mul` twice: A right twice, B right
    /// once and wrong once; B also calls the weather tool once.
    fn report_and_samples() -> (Report, Vec<Sample>) {
        let mut plan = demo_plan(Lang::En);
        plan.fidelity = Some(FidelityPlan::basic(Some(plan.targets[0].label.clone())));
        let mut call = reply(1, 4, "tool-weather-required", "");
        call.tool_calls = Some(vec![ToolCall {
            name: "get_weather".to_owned(),
            arguments: r#"{"city":"Tokyo","unit":"fahrenheit"}"#.to_owned(),
        }]);
        let samples = vec![
            reply(0, 0, "arith-mul", "391"),
            reply(1, 0, "arith-mul", "The answer is 391."),
            reply(0, 1, "arith-mul", "391"),
            reply(1, 1, "arith-mul", "392"),
            call,
        ];
        let report = build_report(&plan, &samples, 0, REPORT_SEED);
        (report, samples)
    }

    fn cell<'a>(report: &'a Report, target: usize, probe: &str) -> &'a ProbeCell {
        let fidelity = report.fidelity.as_ref().unwrap();
        fidelity.targets[target]
            .cells
            .iter()
            .find(|c| c.probe == probe)
            .unwrap()
    }

    #[test]
    fn cells_say_pass_fail_mixed_or_none() {
        let (report, _) = report_and_samples();
        let pass = cell(&report, 0, "arith-mul");
        assert_eq!(
            (
                CellState::of(pass),
                cell_mark(pass.passed, pass.replies).as_str()
            ),
            (CellState::Pass, "✓")
        );
        let mixed = cell(&report, 1, "arith-mul");
        assert_eq!(
            (
                CellState::of(mixed),
                cell_mark(mixed.passed, mixed.replies).as_str()
            ),
            (CellState::Mixed, "1/2")
        );
        assert_eq!(CellState::Mixed.as_str(), "mixed");
        let none = cell(&report, 0, "zh-capital");
        assert_eq!(
            (
                CellState::of(none),
                cell_mark(none.passed, none.replies).as_str()
            ),
            (CellState::None, "–")
        );
        let failed = ProbeCell {
            passed: 0,
            replies: 2,
            ..none.clone()
        };
        assert_eq!(
            (
                CellState::of(&failed),
                cell_mark(failed.passed, failed.replies).as_str()
            ),
            (CellState::Fail, "✗")
        );
        assert_eq!(
            cell_title(Lang::En, "Demo B", mixed.probe, mixed.passed, mixed.replies),
            "Demo B, arith-mul: 1 of 2 passed"
        );
        assert_eq!(
            cell_title(
                Lang::ZhCn,
                "Demo B",
                mixed.probe,
                mixed.passed,
                mixed.replies
            ),
            "Demo B，arith-mul：2 个回答中通过 1 个"
        );
    }

    #[test]
    fn a_cell_opens_on_its_replies_with_the_failure_words() {
        let (report, samples) = report_and_samples();
        let probe = Suite::Basic1
            .probes()
            .iter()
            .position(|p| p.id == "arith-mul")
            .unwrap();
        let detail = cell_detail(Lang::En, &report, &samples, 1, probe).unwrap();
        assert_eq!(detail.label, "Demo B · cold starts");
        assert_eq!(detail.probe.model_answer, "391");
        assert_eq!(detail.category, "arithmetic");
        let replies: Vec<(usize, &str, bool, Option<&str>)> = detail
            .replies
            .iter()
            .map(|r| (r.sample, r.text.as_str(), r.passed, r.failure))
            .collect();
        assert_eq!(
            replies,
            vec![
                (1, "The answer is 391.", true, None),
                (
                    3,
                    "392",
                    false,
                    Some(failure_text(Lang::En, ProbeFailure::WrongAnswer))
                ),
            ]
        );
        let zh = cell_detail(Lang::ZhCn, &report, &samples, 1, probe).unwrap();
        assert_eq!(zh.replies[1].failure, Some("答案错误"));
        assert_eq!(zh.category, "算术");
    }

    #[test]
    fn a_call_reads_like_the_expected_call() {
        let (report, samples) = report_and_samples();
        let probe = Suite::Basic1
            .probes()
            .iter()
            .position(|p| p.id == "tool-weather-required")
            .unwrap();
        let detail = cell_detail(Lang::En, &report, &samples, 1, probe).unwrap();
        assert_eq!(
            detail.replies[0].text,
            r#"get_weather({"city":"Tokyo","unit":"fahrenheit"})"#
        );
        assert!(detail.replies[0].passed);
        let mut empty = samples[0].clone();
        empty.answer = Some("  ".to_owned());
        assert_eq!(
            reply_text(Lang::ZhCn, empty.answer.as_deref(), &[]),
            "（空回答）"
        );
        assert!(cell_detail(Lang::En, &report, &samples, 7, probe).is_none());
    }

    #[test]
    fn token_agreement_and_f1_read_short() {
        let tokens = TokenAgreement {
            compared: 30,
            equal: 2,
            median_difference: 23,
        };
        assert_eq!(
            token_agreement_text(Lang::En, &tokens),
            "2 of 30 (median +23)"
        );
        assert_eq!(
            token_agreement_text(Lang::ZhCn, &tokens),
            "2/30（中位差 +23）"
        );
        let same = TokenAgreement {
            equal: 30,
            median_difference: 0,
            ..tokens
        };
        assert_eq!(token_agreement_text(Lang::En, &same), "30 of 30");
        assert_eq!(f1_text(0.9333), "0.93");
    }

    #[test]
    fn categories_head_their_neighbouring_probes() {
        let spans = category_spans(Lang::En, Suite::Basic1.probes());
        assert_eq!(spans.iter().map(|s| s.span).sum::<usize>(), 30);
        assert_eq!(spans.len(), Category::ALL.len());
        assert_eq!((spans[0].name, spans[0].span), ("arithmetic", 5));
    }
}
