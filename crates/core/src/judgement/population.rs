//! Which requests a figure is computed from: one population per figure.
//!
//! A run can carry requests that answer different questions: the measured
//! first sends of the plan's prompt, the first sends of each prompt size,
//! the cache-probe repeats (the same prompt again, to see the cache) and
//! the fidelity probes (other prompts altogether). Pooling any two of them
//! mixes distributions: a steady provider measured at 128 and 16 384
//! tokens has two clusters, one 20× the other, and a pooled CV of 130 %
//! reads as "cold starts" although every size on its own is solid.
//!
//! So every headline figure of a target (its TTFT statistics, verdict,
//! cold-start tail, slow count, intervals, charts and route) comes from one
//! [`Population`]: the first sends of the plan's prompt when the plan has
//! no prompt sizes, else the first sends of one size, the
//! [`headline size`](Population::headline): the size of the plan nearest the
//! plan's `typical_prompt_tokens` (on a log scale, the smaller on a tie),
//! or the smallest size when the plan names no typical size. The other
//! sizes are judged each within itself (`crate::judgement::report::SizeJudgement`),
//! never across sizes. Repeats and probes enter no TTFT figure at all.

use crate::planning::plan::Plan;
use crate::planning::schedule::PlannedRequest;
use crate::wire::sample::Sample;

/// The requests a target's headline figures are computed from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Population {
    /// The first sends of the plan's own prompt (a plan without prompt
    /// sizes): every measured latency request, fidelity probes left out.
    #[default]
    PlanPrompt,
    /// The first sends of one prompt size, input tokens as requested
    /// (cache-probe repeats and the other sizes left out).
    Size(u32),
}

impl Population {
    /// The headline population of `plan`: [`Population::PlanPrompt`]
    /// without prompt sizes, else the size nearest `typical_prompt_tokens`
    /// (log scale, the smaller on a tie) or, without one, the smallest.
    ///
    /// Fixed by the plan, never by which requests answered: a headline that
    /// passed over a size whose requests all failed would let a timeout
    /// lift a verdict (the last answered request at the typical size timing
    /// out moved the headline to a size that read "solid"). A size whose
    /// requests all failed stays the headline and reads as what it is: a
    /// target without a successful request, with how its requests failed.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn headline(plan: &Plan) -> Self {
        match plan.prompt_sizes.as_deref() {
            Some(sizes) if !sizes.is_empty() => Self::among(sizes, plan.typical_prompt_tokens),
            _ => Self::PlanPrompt,
        }
    }

    /// The headline population of `plan` before any sample came (the
    /// live view during a run): the same as [`Population::headline`],
    /// which the samples never move.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn of_plan(plan: &Plan) -> Self {
        Self::headline(plan)
    }

    /// The size of `sizes` nearest `typical` on a log scale (the smaller
    /// on a tie), or the smallest without `typical`;
    /// [`Population::PlanPrompt`] without sizes.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn among(sizes: &[u32], typical: Option<u32>) -> Self {
        let distance = |size: u32| match typical {
            Some(typical) => (f64::from(size.max(1)) / f64::from(typical.max(1)))
                .ln()
                .abs(),
            None => f64::from(size),
        };
        let mut best: Option<u32> = None;
        for &size in sizes {
            best = match best {
                Some(b)
                    if distance(b)
                        .total_cmp(&distance(size))
                        .then(b.cmp(&size))
                        .is_le() =>
                {
                    Some(b)
                }
                _ => Some(size),
            };
        }
        best.map_or(Self::PlanPrompt, Self::Size)
    }

    /// Whether `sample` belongs to this population. Warm-ups belong to
    /// every population (they are counted as warm-ups and enter no
    /// statistic); a fidelity probe to none; a cache-probe repeat to none
    /// (it measures the cache, not the provider's TTFT).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn contains(self, sample: &Sample) -> bool {
        if sample.is_probe() {
            return false;
        }
        if sample.warmup {
            return true;
        }
        match (self, sample.sized_prompt) {
            (Self::PlanPrompt, None) => true,
            (Self::Size(size), Some(sized)) => sized.tokens == size && sized.repeat_of.is_none(),
            _ => false,
        }
    }

    /// The prompt size, tokens, for a size population.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn size(self) -> Option<u32> {
        match self {
            Self::PlanPrompt => None,
            Self::Size(size) => Some(size),
        }
    }

    /// Whether a planned request is one of this population's measured
    /// requests (no warm-up, no probe, no cache repeat; its size when the
    /// population is one).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn counts(self, request: &PlannedRequest) -> bool {
        if request.warmup || request.probe.is_some() {
            return false;
        }
        match (self, request.sized_prompt) {
            (Self::PlanPrompt, None) => true,
            (Self::Size(size), Some(sized)) => sized.tokens == size && sized.repeat_of.is_none(),
            _ => false,
        }
    }

    /// Each target's measured requests of this population a run has done,
    /// from the requests it still has to send (`remaining`, as the run's
    /// runner holds them): the plan's count less those left. What a run's
    /// history says, in the numbers every other view uses ("75 / 75"),
    /// rather than every request sent, warm-ups and probes included ("321 /
    /// 321"); and without reading the run's samples.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn done_per_target(self, plan: &Plan, remaining: &[PlannedRequest]) -> Vec<u32> {
        let planned = self.planned_requests(plan);
        let mut left = vec![0_u32; plan.targets.len()];
        for request in remaining.iter().filter(|r| self.counts(r)) {
            if let Some(count) = left.get_mut(request.target as usize) {
                *count += 1;
            }
        }
        left.iter().map(|&l| planned.saturating_sub(l)).collect()
    }

    /// The measured requests per target the plan sends to this population:
    /// the plan's count, or its count per size.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn planned_requests(self, plan: &Plan) -> u32 {
        match self {
            Self::PlanPrompt => plan.requests_per_target,
            Self::Size(_) => {
                crate::planning::prompt::requests_per_size(plan).unwrap_or(plan.requests_per_target)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planning::prompt::SizedPrompt;

    /// A run's history counts what every other view counts: measured
    /// requests of the headline population per target, not every request
    /// sent (75 + 2 warm-ups + 30 probes per target read "321 / 321").
    #[test]
    fn a_run_s_progress_counts_measured_requests_per_target() {
        use crate::planning::fidelity::suite::Suite;
        use crate::planning::plan::{FidelityPlan, Target};
        use crate::planning::schedule::Schedule;
        let target = |label: &str| Target::openai(label, "https://x.example/v1", "m");
        let plan = Plan {
            targets: vec![target("A"), target("B"), target("C")],
            requests_per_target: 75,
            warmup_per_target: 2,
            fidelity: Some(FidelityPlan {
                suite: Suite::Basic1,
                repeats: 1,
                reference: None,
            }),
            ..Plan::default()
        };
        let schedule = Schedule::new(&plan, 0.0, 7);
        assert_eq!(schedule.requests.len(), 321);
        let population = Population::of_plan(&plan);
        assert_eq!(
            population.done_per_target(&plan, &schedule.requests),
            [0, 0, 0]
        );
        assert_eq!(population.done_per_target(&plan, &[]), [75, 75, 75]);
        // Half way: the requests left name how many each target has done.
        let half = &schedule.requests[160..];
        let done = population.done_per_target(&plan, half);
        for (index, done) in done.iter().enumerate() {
            let sent = schedule.requests[..160]
                .iter()
                .filter(|r| r.target as usize == index && population.counts(r))
                .count();
            assert_eq!(*done as usize, sent);
        }
    }
    use crate::testing::fixtures::synthetic_samples;

    fn sized(sizes: &[u32], typical: Option<u32>) -> Plan {
        Plan {
            prompt_sizes: Some(sizes.to_vec()),
            typical_prompt_tokens: typical,
            ..Plan::default()
        }
    }

    #[test]
    fn the_headline_is_the_plan_prompt_or_one_size() {
        assert_eq!(
            Population::of_plan(&Plan::default()),
            Population::PlanPrompt
        );
        let sizes = [128, 2_048, 16_384];
        assert_eq!(
            Population::of_plan(&sized(&sizes, None)),
            Population::Size(128)
        );
        assert_eq!(
            Population::of_plan(&sized(&sizes, Some(4_000))),
            Population::Size(2_048)
        );
        assert_eq!(
            Population::of_plan(&sized(&sizes, Some(100_000))),
            Population::Size(16_384)
        );
        // 512 is 4× from both 128 and 2 048: the smaller.
        assert_eq!(
            Population::of_plan(&sized(&sizes, Some(512))),
            Population::Size(128)
        );
    }

    /// A size none of whose requests answered stays the headline: the
    /// samples never move it (a timeout must not lift a verdict by moving
    /// the headline to a size that answered).
    #[test]
    fn a_size_nothing_answered_stays_the_headline() {
        let plan = sized(&[128, 65_536], Some(65_536));
        assert_eq!(Population::headline(&plan), Population::Size(65_536));
        assert_eq!(Population::of_plan(&plan), Population::Size(65_536));
    }

    #[test]
    fn probes_and_repeats_belong_to_no_population() {
        let mut samples = synthetic_samples(1, 3, 1, 5);
        let (warmup, plain) = (samples[0].clone(), samples[1].clone());
        assert!(Population::PlanPrompt.contains(&plain));
        assert!(!Population::Size(128).contains(&plain));
        assert!(Population::Size(128).contains(&warmup));
        samples[2].probe = Some("basic-1/arith".into());
        assert!(!Population::PlanPrompt.contains(&samples[2]));
        let mut repeat = plain.clone();
        repeat.sized_prompt = Some(SizedPrompt {
            tokens: 128,
            repeat_of: Some(1),
        });
        assert!(!Population::Size(128).contains(&repeat));
        repeat.sized_prompt = Some(SizedPrompt {
            tokens: 128,
            repeat_of: None,
        });
        assert!(Population::Size(128).contains(&repeat));
        assert!(!Population::Size(2_048).contains(&repeat));
    }
}
