//! How a run ended for the targets that never answered: one sentence each,
//! with the failure's own reason, said at the end of a run by the runner
//! (its last lines, before exit 5) and by the page (under the run's
//! progress), from the same samples.

use crate::base::lang::Lang;
use crate::judgement::report::failure_reason;
use crate::narrative::sentences::Said;
use crate::planning::plan::{DECIDED_FLOOR, Plan};
use crate::statistics::sequential::Decision;
use crate::wire::protocol::recorded_failure_text;
use crate::wire::questions::Questions;
use crate::wire::sample::Sample;
use crate::words::report_words::failure_reason_words;

/// Each target of `plan` that sent measured requests in `samples` and got
/// no successful one, with why: "no successful request; 3 of 3 failed with
/// “HTTP 400 from provider: …”" (Chinese: the failure said in Chinese around
/// the provider's words). Warm-ups and fidelity probes are not counted.
/// Empty when every target that sent a request got an answer.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn never_answered(lang: Lang, plan: &Plan, samples: &[Sample]) -> Vec<Said> {
    plan.targets
        .iter()
        .enumerate()
        .filter_map(|(index, target)| {
            let own: Vec<&Sample> = samples
                .iter()
                .filter(|s| s.target as usize == index && !s.warmup && s.probe.is_none())
                .collect();
            let answered = own.iter().any(|s| s.error.is_none() && s.ttft_ms.is_some());
            if own.is_empty() || answered {
                return None;
            }
            let reason = failure_reason(&own)?;
            let said = recorded_failure_text(lang, reason.kind, &reason.message, reason.status);
            let why =
                failure_reason_words(lang, &said, reason.count, reason.of, reason.retry_after_s);
            Some(Said {
                target: u32::try_from(index).unwrap_or(u32::MAX),
                label: target.label.clone(),
                text: match lang {
                    Lang::En => format!("no successful request; {why}"),
                    Lang::ZhCn => format!("没有一个请求成功；{why}"),
                },
            })
        })
        .collect()
}

/// How a run with `until_decided` ended, in one sentence: "decided after
/// 20 requests per target: A is faster than B (anytime-valid 95 %)", or
/// "not decided after 300 requests per target: A and B not told apart";
/// with a floor below the method's 75, that the tail figures rest on fewer
/// requests. `None` for a plan that does not run until decided.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn until_decided_text(lang: Lang, plan: &Plan, samples: &[Sample]) -> Option<String> {
    let questions = Questions::replayed(plan, samples)?;
    let label = |index: u32| {
        plan.targets
            .get(index as usize)
            .map_or("?", |t| t.label.as_str())
    };
    let per_target = (0..u32::try_from(plan.targets.len()).unwrap_or(u32::MAX))
        .map(|t| questions.requests(t))
        .min()
        .unwrap_or(0);
    let (en, zh): (Vec<String>, Vec<String>) = questions
        .pairs
        .iter()
        .map(|pair| {
            let (a, b) = (label(pair.first), label(pair.second));
            match questions.decision(pair) {
                Decision::First => (format!("{a} is faster than {b}"), format!("{a} 比 {b} 快")),
                Decision::Second => (format!("{b} is faster than {a}"), format!("{b} 比 {a} 快")),
                Decision::Open => (
                    format!("{a} and {b} not told apart"),
                    format!("{a} 与 {b} 未能区分"),
                ),
            }
        })
        .unzip();
    let decided = questions.all_decided();
    let thin = decided && per_target < DECIDED_FLOOR;
    Some(match lang {
        Lang::En => {
            let head = if questions.pairs.is_empty() {
                return Some(format!(
                    "nothing to decide: one target, {per_target} requests"
                ));
            } else if decided {
                format!("decided after {per_target} requests per target")
            } else {
                format!("not decided after {per_target} requests per target")
            };
            let tail = if thin {
                format!(
                    "; the tail figures rest on {per_target} requests per target, fewer than the {DECIDED_FLOOR} a cold-start tail needs"
                )
            } else {
                String::new()
            };
            format!("{head}: {} (anytime-valid 95 %){tail}", en.join("; "))
        }
        Lang::ZhCn => {
            let head = if questions.pairs.is_empty() {
                return Some(format!("无需判定：只有一个目标，{per_target} 个请求"));
            } else if decided {
                format!("每个目标 {per_target} 个请求后已判定")
            } else {
                format!("每个目标 {per_target} 个请求后仍未判定")
            };
            let tail = if thin {
                format!(
                    "；长尾数字只基于每个目标 {per_target} 个请求，少于冷启动长尾所需的 {DECIDED_FLOOR} 个"
                )
            } else {
                String::new()
            };
            format!("{head}：{}（随时有效 95 %）{tail}", zh.join("；"))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::failure::{ErrorKind, Phase, SampleError};
    use crate::planning::plan::Target;
    use crate::testing::fixtures::sample;

    /// A run until decided says what was decided after how many requests,
    /// that its tail figures rest on fewer than 75 when the floor was
    /// lowered, and a run at its cap that nothing was told apart; in both
    /// languages. A plan without `until_decided` says nothing.
    #[test]
    fn a_run_until_decided_says_what_was_decided_and_when() {
        let mut plan = Plan {
            targets: vec![Target::demo("Fast", "m"), Target::demo("Slow", "m")],
            until_decided: true,
            min_requests_per_target: Some(20),
            ..Plan::default()
        };
        let far: Vec<Sample> = (0..20)
            .flat_map(|seq| {
                [
                    sample(0, seq, 0.0, Some(100.0), false),
                    sample(1, seq, 0.0, Some(400.0), false),
                ]
            })
            .collect();
        assert_eq!(
            until_decided_text(Lang::En, &plan, &far).unwrap(),
            "decided after 20 requests per target: Fast is faster than Slow (anytime-valid 95 %); \
             the tail figures rest on 20 requests per target, fewer than the 75 a cold-start tail \
             needs"
        );
        assert_eq!(
            until_decided_text(Lang::ZhCn, &plan, &far).unwrap(),
            "每个目标 20 个请求后已判定：Fast 比 Slow 快（随时有效 95 %）；长尾数字只基于每个目标 \
             20 个请求，少于冷启动长尾所需的 75 个"
        );
        let close: Vec<Sample> = (0..30)
            .flat_map(|seq| {
                let jitter = f64::from(seq % 3) * 10.0;
                [
                    sample(0, seq, 0.0, Some(200.0 + jitter), false),
                    sample(1, seq, 0.0, Some(220.0 - jitter), false),
                ]
            })
            .collect();
        assert_eq!(
            until_decided_text(Lang::En, &plan, &close).unwrap(),
            "not decided after 30 requests per target: Fast and Slow not told apart (anytime-valid \
             95 %)"
        );
        plan.until_decided = false;
        assert_eq!(until_decided_text(Lang::En, &plan, &far), None);
    }

    #[test]
    fn a_target_that_never_answered_is_said_with_its_reason_in_either_language() {
        let plan = Plan {
            targets: vec![Target::demo("Up", "m"), Target::demo("Down", "m")],
            ..Plan::default()
        };
        let mut samples: Vec<Sample> = (0..3)
            .map(|i| sample(0, i, f64::from(i) * 1_000.0, Some(300.0), false))
            .collect();
        for i in 0..3 {
            let mut failed = sample(1, i, f64::from(i) * 1_000.0, None, false);
            failed.ttft_ms = None;
            failed.http_status = Some(400);
            failed.error = Some(SampleError {
                kind: ErrorKind::HttpStatus,
                phase: Phase::BeforeFirstToken,
                message: "HTTP 400 from provider: unknown model 'x'; check the model name and \
                          the plan's settings"
                    .to_owned(),
            });
            samples.push(failed);
        }
        let en = never_answered(Lang::En, &plan, &samples);
        assert_eq!(en.len(), 1);
        assert_eq!((en[0].target, en[0].label.as_str()), (1, "Down"));
        assert_eq!(
            en[0].text,
            "no successful request; 3 of 3 failed with “HTTP 400 from provider: unknown model \
             'x'; check the model name and the plan's settings”"
        );
        let zh = never_answered(Lang::ZhCn, &plan, &samples);
        assert_eq!(
            zh[0].text,
            "没有一个请求成功；3 个失败中有 3 个：服务商返回 HTTP 400：unknown model 'x'；请检查模型名称和计划设置"
        );
        // A warm-up's failure alone says nothing: nothing measured was sent.
        let warmups: Vec<Sample> = samples
            .iter()
            .filter(|s| s.target == 1)
            .cloned()
            .map(|mut s| {
                s.warmup = true;
                s
            })
            .collect();
        assert!(never_answered(Lang::En, &plan, &warmups).is_empty());
    }
}
