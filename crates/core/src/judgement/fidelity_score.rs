//! Scoring a run's probe replies: per target the pass rate overall and per
//! category with Wilson 95 % intervals, tool-call schema validity and
//! trigger F1, the contract checks, and a verdict against the reference
//! target's own run-to-run spread.
//!
//! Every reply is verified again here from what its sample kept (answer,
//! calls, finish reason), never taken from the file's own `check`: a
//! results file from a stranger cannot claim a pass.
//!
//! The verdict is one of three, and says what it knows:
//! - **differs**: the target's pass-rate interval lies wholly below the
//!   reference's, or a contract check the reference keeps fails on the
//!   target (identical requests counted to different `prompt_tokens`,
//!   missing finish reasons, `max_tokens` overrun, reasoning inside the
//!   answer);
//! - **inconclusive**: too few replies on either side, or the target's rate
//!   falls below the reference's interval while the intervals still
//!   overlap;
//! - **consistent**: otherwise.
//!
//! A reference that fails the suite itself (its pass rate's interval wholly
//! below [`REFERENCE_FLOOR`], or no reply at all) judges nobody: every
//! target is read on the suite's own expectations ("no reference"), and
//! [`Fidelity::rejected_reference`] says which was set aside.

use serde::{Deserialize, Serialize};

use crate::base::order::sort_numbers;
use crate::planning::fidelity::suite::{Category, Expect, Suite};
use crate::planning::fidelity::verify::{ProbeAnswer, ProbeCheck, ProbeFailure, verify};
use crate::planning::plan::Plan;
use crate::statistics::binomial::wilson;

/// The verdict of one target against the reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FidelityVerdict {
    /// This target is the reference.
    Reference,
    /// Nothing seen sets it apart from the reference.
    Consistent,
    /// Its answers or its contract differ from the reference's.
    Differs,
    /// Too little to say either way.
    Inconclusive,
    /// The plan names no reference: absolute rates only.
    NoReference,
}

impl FidelityVerdict {
    /// Its name in documents.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn as_str(self) -> &'static str {
        match self {
            FidelityVerdict::Reference => "reference",
            FidelityVerdict::Consistent => "consistent",
            FidelityVerdict::Differs => "differs",
            FidelityVerdict::Inconclusive => "inconclusive",
            FidelityVerdict::NoReference => "no_reference",
        }
    }
}

/// What set a target apart, or kept its verdict open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FidelityReason {
    /// Its pass-rate interval lies below the reference's.
    PassRateBelow,
    /// Identical requests were counted to other `prompt_tokens` on most
    /// probes (another chat template or tokenizer).
    PromptTokens,
    /// Replies ended without a finish reason; the reference's never did.
    FinishReason,
    /// Replies ran past `max_tokens`; the reference's never did.
    MaxTokens,
    /// Reasoning arrived inside the answer; the reference's never did.
    ReasoningInContent,
    /// Fewer than half the planned probe replies came back.
    TooFewReplies,
    /// Its pass rate is below the reference's interval, its interval not.
    LowerButOverlapping,
}

/// A pass count with its Wilson 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PassRate {
    /// Replies that passed.
    pub passed: usize,
    /// Replies verified (requests that failed are not replies).
    pub replies: usize,
    /// Wilson 95 % interval of the share, 0–1.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
}

impl PassRate {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn of(passed: usize, replies: usize) -> Self {
        let (low, high) = wilson(passed, replies);
        Self {
            passed,
            replies,
            low,
            high,
        }
    }

    /// The share, 0–1 (0 without replies).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn rate(&self) -> f64 {
        if self.replies == 0 {
            0.0
        } else {
            self.passed as f64 / self.replies as f64
        }
    }
}

/// Whether tool calls were made when they should have been, K2 Vendor
/// Verifier's definitions: a reply *triggers* when it calls a function;
/// true positives trigger on both sides, false positives only on this
/// target, false negatives only on the other side.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TriggerF1 {
    /// Both triggered.
    pub true_positive: usize,
    /// Only this target triggered.
    pub false_positive: usize,
    /// Only the other side triggered.
    pub false_negative: usize,
    /// 2·TP / (2·TP + FP + FN); `None` when nothing triggered on either side.
    pub f1: Option<f64>,
    /// Against the reference's replies (`true`) or the suite's expectation.
    pub against_reference: bool,
}

/// `prompt_tokens` of identical requests, this target against the
/// reference.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TokenAgreement {
    /// Probes both sides counted.
    pub compared: usize,
    /// Probes counted the same.
    pub equal: usize,
    /// The median difference (this target − reference), tokens.
    pub median_difference: i64,
}

/// One cell of the probe grid: a probe's replies on one target.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProbeCell {
    /// The probe.
    pub probe: &'static str,
    /// Its category.
    pub category: Category,
    /// Replies that passed.
    pub passed: usize,
    /// Replies verified.
    pub replies: usize,
    /// Why the failed ones failed, in send order.
    pub failures: Vec<ProbeFailure>,
    /// Indexes of the replies' samples in the samples given, in send order.
    #[serde(skip)]
    pub samples: Vec<usize>,
}

/// What a grid cell shows of its replies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellState {
    /// Every reply passed.
    Pass,
    /// No reply passed.
    Fail,
    /// Some did, some did not.
    Mixed,
    /// No reply came back (every request failed, or none was sent yet).
    None,
}

impl CellState {
    /// The state of `cell`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn of(cell: &ProbeCell) -> Self {
        Self::of_counts(cell.passed, cell.replies)
    }

    /// The state of a cell where `passed` of `replies` passed.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn of_counts(passed: usize, replies: usize) -> Self {
        match (passed, replies) {
            (_, 0) => Self::None,
            (0, _) => Self::Fail,
            (passed, replies) if passed == replies => Self::Pass,
            _ => Self::Mixed,
        }
    }

    /// Its name in `data-state` and the cell's class.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pass => "pass",
            Self::Fail => "fail",
            Self::Mixed => "mixed",
            Self::None => "none",
        }
    }
}

/// Everything the check says about one target.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FidelityFigures {
    /// Index of the target in the plan.
    pub target: u32,
    /// Probe requests planned (suite × repeats).
    pub planned: usize,
    /// Probe requests that failed (no reply to verify).
    pub failed_requests: usize,
    /// The pass rate over every reply.
    pub pass: PassRate,
    /// Per category, in [`Category::ALL`] order, categories with replies.
    pub categories: Vec<(Category, PassRate)>,
    /// Replies that called a function.
    pub tool_calls: usize,
    /// Of those, replies whose every call fit its schema.
    pub tool_calls_valid: usize,
    /// Trigger F1 over the probes that offer functions.
    pub trigger: Option<TriggerF1>,
    /// `prompt_tokens` against the reference.
    pub prompt_tokens: Option<TokenAgreement>,
    /// Replies without a finish reason.
    pub finish_missing: usize,
    /// Replies past `max_tokens` (by the provider's own count).
    pub over_max_tokens: usize,
    /// Replies with reasoning inside the answer.
    pub reasoning_in_content: usize,
    /// Replies whose pass or fail differs from the reference's reply to
    /// the same probe and repeat, and how many pairs were compared.
    pub differing: Option<(usize, usize)>,
    /// The verdict.
    pub verdict: FidelityVerdict,
    /// Why, in order of weight; empty for consistent.
    pub reasons: Vec<FidelityReason>,
    /// The probe grid's row.
    pub cells: Vec<ProbeCell>,
}

/// The check over a whole run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fidelity {
    /// The suite the plan names.
    pub suite: Suite,
    /// Times each probe is sent per target.
    pub repeats: u32,
    /// The reference target's index, when the plan names one that exists
    /// and it passed enough of the suite's own probes to judge others by.
    pub reference: Option<u32>,
    /// The reference the plan named, when it failed the suite itself (its
    /// pass rate's 95 % interval wholly below [`REFERENCE_FLOOR`], or no
    /// reply at all): every target is then read on the suite's own
    /// expectations, and the report says why.
    pub rejected_reference: Option<u32>,
    /// One per plan target, in plan order.
    pub targets: Vec<FidelityFigures>,
}

/// A reference must be able to pass at least this share of the suite's
/// own probes (the top of its pass rate's 95 % interval) to judge other
/// targets by: a reference that fails every probe would make the only
/// correct target read "differs" and a target failing alike "consistent".
pub const REFERENCE_FLOOR: f64 = 0.5;

/// One verified reply.
struct Verified {
    sample: usize,
    probe: usize,
    occurrence: usize,
    check: ProbeCheck,
    prompt_tokens: Option<u32>,
}

/// Scores every probe reply in `answers` by the plan's suite; `None` when
/// the plan has no fidelity check.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn score<'a>(
    plan: &Plan,
    answers: impl IntoIterator<Item = ProbeAnswer<'a>>,
) -> Option<Fidelity> {
    let settings = plan.fidelity.as_ref()?;
    let suite = settings.suite;
    let probes = suite.probes();
    let reference = settings
        .reference
        .as_deref()
        .and_then(|label| plan.targets.iter().position(|t| t.label == label));
    let planned = probes.len() * settings.repeats as usize;

    let mut verified: Vec<Vec<Verified>> = (0..plan.targets.len()).map(|_| Vec::new()).collect();
    let mut failed = vec![0usize; plan.targets.len()];
    let mut seen: Vec<Vec<usize>> = vec![vec![0; probes.len()]; plan.targets.len()];
    for answer in answers {
        let target = answer.target as usize;
        let (Some(own), Some(probe)) = (
            verified.get_mut(target),
            probes.iter().position(|p| p.id == answer.probe),
        ) else {
            continue;
        };
        let Some(reply) = answer.reply else {
            failed[target] += 1;
            continue;
        };
        let occurrence = seen[target][probe];
        seen[target][probe] += 1;
        own.push(Verified {
            sample: answer.sample,
            probe,
            occurrence,
            check: verify(&probes[probe], &reply),
            prompt_tokens: answer.prompt_tokens,
        });
    }

    // A reference that fails the suite itself judges nobody.
    let named = reference;
    let reference = reference.filter(|&r| {
        let own = figures_of(suite, &verified[r], None, planned, failed[r]);
        own.pass.replies > 0 && own.pass.high >= REFERENCE_FLOOR
    });
    let rejected_reference = named.filter(|_| reference.is_none());
    let targets = (0..plan.targets.len())
        .map(|target| {
            let own = &verified[target];
            let against = reference
                .filter(|&r| r != target)
                .map(|r| verified[r].as_slice());
            let mut figures = figures_of(suite, own, against, planned, failed[target]);
            figures.target = u32::try_from(target).unwrap_or(u32::MAX);
            figures.verdict = match reference {
                None => FidelityVerdict::NoReference,
                Some(r) if r == target => FidelityVerdict::Reference,
                Some(r) => {
                    let reference_figures =
                        figures_of(suite, &verified[r], None, planned, failed[r]);
                    let (verdict, reasons) = judge(&figures, &reference_figures, planned);
                    figures.reasons = reasons;
                    verdict
                }
            };
            figures
        })
        .collect();
    Some(Fidelity {
        suite,
        repeats: settings.repeats,
        reference: reference.and_then(|r| u32::try_from(r).ok()),
        rejected_reference: rejected_reference.and_then(|r| u32::try_from(r).ok()),
        targets,
    })
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn figures_of(
    suite: Suite,
    own: &[Verified],
    reference: Option<&[Verified]>,
    planned: usize,
    failed_requests: usize,
) -> FidelityFigures {
    let probes = suite.probes();
    let passed = own.iter().filter(|v| v.check.passed).count();
    let categories = Category::ALL
        .iter()
        .filter_map(|&category| {
            let of: Vec<&Verified> = own
                .iter()
                .filter(|v| probes[v.probe].category == category)
                .collect();
            (!of.is_empty()).then(|| {
                (
                    category,
                    PassRate::of(of.iter().filter(|v| v.check.passed).count(), of.len()),
                )
            })
        })
        .collect();
    let cells = probes
        .iter()
        .enumerate()
        .map(|(index, probe)| {
            let of: Vec<&Verified> = own.iter().filter(|v| v.probe == index).collect();
            ProbeCell {
                probe: probe.id,
                category: probe.category,
                passed: of.iter().filter(|v| v.check.passed).count(),
                replies: of.len(),
                failures: of.iter().filter_map(|v| v.check.failure).collect(),
                samples: of.iter().map(|v| v.sample).collect(),
            }
        })
        .collect();
    let tool_calls = own.iter().filter(|v| v.check.called).count();
    let tool_calls_valid = own
        .iter()
        .filter(|v| v.check.schema_valid == Some(true))
        .count();
    FidelityFigures {
        target: 0,
        planned,
        failed_requests,
        pass: PassRate::of(passed, own.len()),
        categories,
        tool_calls,
        tool_calls_valid,
        trigger: trigger_f1(suite, own, reference),
        prompt_tokens: reference.and_then(|reference| token_agreement(own, reference)),
        finish_missing: own.iter().filter(|v| !v.check.finish_reason).count(),
        over_max_tokens: own
            .iter()
            .filter(|v| v.check.within_max_tokens == Some(false))
            .count(),
        reasoning_in_content: own.iter().filter(|v| v.check.reasoning_in_content).count(),
        differing: reference.map(|reference| {
            let pairs: Vec<(bool, bool)> = own
                .iter()
                .filter_map(|v| {
                    reference
                        .iter()
                        .find(|r| r.probe == v.probe && r.occurrence == v.occurrence)
                        .map(|r| (v.check.passed, r.check.passed))
                })
                .collect();
            (pairs.iter().filter(|(a, b)| a != b).count(), pairs.len())
        }),
        verdict: FidelityVerdict::NoReference,
        reasons: Vec::new(),
        cells,
    }
}

/// Trigger F1 over the probes that offer functions: against the
/// reference's reply to the same probe and repeat when there is one, else
/// against what the suite expects.
#[cfg_attr(target_arch = "wasm32", inline)]
fn trigger_f1(suite: Suite, own: &[Verified], reference: Option<&[Verified]>) -> Option<TriggerF1> {
    let probes = suite.probes();
    let mut counts = (0, 0, 0);
    let mut any = false;
    for v in own.iter().filter(|v| probes[v.probe].tool_choice.is_some()) {
        let other = match reference {
            Some(reference) => match reference
                .iter()
                .find(|r| r.probe == v.probe && r.occurrence == v.occurrence)
            {
                Some(r) => r.check.called,
                None => continue,
            },
            None => matches!(probes[v.probe].expect, Expect::Call { .. }),
        };
        any = true;
        match (v.check.called, other) {
            (true, true) => counts.0 += 1,
            (true, false) => counts.1 += 1,
            (false, true) => counts.2 += 1,
            (false, false) => {}
        }
    }
    any.then(|| {
        let (tp, fp, fn_) = counts;
        let denominator = 2 * tp + fp + fn_;
        TriggerF1 {
            true_positive: tp,
            false_positive: fp,
            false_negative: fn_,
            f1: (denominator > 0).then(|| (2 * tp) as f64 / denominator as f64),
            against_reference: reference.is_some(),
        }
    })
}

/// `prompt_tokens` per probe (the first reply's count), compared where both
/// sides counted.
#[cfg_attr(target_arch = "wasm32", inline)]
fn token_agreement(own: &[Verified], reference: &[Verified]) -> Option<TokenAgreement> {
    let first = |replies: &[Verified], probe: usize| {
        replies
            .iter()
            .filter(|v| v.probe == probe)
            .find_map(|v| v.prompt_tokens)
    };
    // Each probe once, in the order its first reply comes (the differences
    // are sorted below, so the order does not matter), and the differences
    // as f64 (exact: they are below 2³³) through the f64 sort the page
    // already has: a sort of integers would add a copy of its own.
    let mut differences: Vec<f64> = Vec::new();
    for (index, reply) in own.iter().enumerate() {
        let probe = reply.probe;
        if own[..index].iter().any(|v| v.probe == probe) {
            continue;
        }
        if let (Some(a), Some(b)) = (first(own, probe), first(reference, probe)) {
            differences.push(f64::from(a) - f64::from(b));
        }
    }
    if differences.is_empty() {
        return None;
    }
    let equal = differences.iter().filter(|d| **d == 0.0).count();
    sort_numbers(&mut differences);
    Some(TokenAgreement {
        compared: differences.len(),
        equal,
        median_difference: differences[differences.len() / 2] as i64,
    })
}

/// Fewest compared probes for a `prompt_tokens` disagreement to count.
const MIN_TOKEN_PROBES: usize = 3;

#[cfg_attr(target_arch = "wasm32", inline)]
fn judge(
    target: &FidelityFigures,
    reference: &FidelityFigures,
    planned: usize,
) -> (FidelityVerdict, Vec<FidelityReason>) {
    let mut differs = Vec::new();
    if target.pass.replies > 0
        && reference.pass.replies > 0
        && target.pass.high < reference.pass.low
    {
        differs.push(FidelityReason::PassRateBelow);
    }
    if let Some(tokens) = target.prompt_tokens
        && tokens.compared >= MIN_TOKEN_PROBES
        && tokens.equal * 2 < tokens.compared
    {
        differs.push(FidelityReason::PromptTokens);
    }
    if target.finish_missing > 0 && reference.finish_missing == 0 {
        differs.push(FidelityReason::FinishReason);
    }
    if target.over_max_tokens > 0 && reference.over_max_tokens == 0 {
        differs.push(FidelityReason::MaxTokens);
    }
    if target.reasoning_in_content > 0 && reference.reasoning_in_content == 0 {
        differs.push(FidelityReason::ReasoningInContent);
    }
    if !differs.is_empty() {
        return (FidelityVerdict::Differs, differs);
    }
    let enough = |f: &FidelityFigures| f.pass.replies * 2 >= planned.max(1);
    if !enough(target) || !enough(reference) {
        return (
            FidelityVerdict::Inconclusive,
            vec![FidelityReason::TooFewReplies],
        );
    }
    if target.pass.rate() < reference.pass.low {
        return (
            FidelityVerdict::Inconclusive,
            vec![FidelityReason::LowerButOverlapping],
        );
    }
    (FidelityVerdict::Consistent, Vec::new())
}

#[cfg(test)]
mod simulation;
