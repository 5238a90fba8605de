//! How a run ended for the targets that never answered: one sentence each,
//! with the failure's own reason, said at the end of a run by the runner
//! (its last lines, before exit 5) and by the page (under the run's
//! progress), from the same samples.

use crate::base::lang::Lang;
use crate::judgement::report::failure_reason;
use crate::narrative::sentences::Said;
use crate::planning::plan::Plan;
use crate::wire::protocol::recorded_failure_text;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::failure::{ErrorKind, Phase, SampleError};
    use crate::planning::plan::Target;
    use crate::testing::fixtures::sample;

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
