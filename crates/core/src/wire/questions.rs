//! The question a plan with `until_decided` asks, followed request by
//! request: which target is faster, for every pair of targets, by the
//! anytime-valid tests of [`crate::statistics::sequential`]. The run
//! session feeds it each finished sample and stops the run once every pair
//! is decided and every target has its floor of requests; the same samples
//! in the same order give the same state, so a resumed run (or a results
//! file) replays it.
//!
//! A pair of requests is a target's `k`-th measured request and the
//! other's `k`-th (in `seq` order): the interleaved schedule sends them one
//! after the other. Warm-ups and probes are left out; a request the person stopped
//! says nothing of the provider and is left out too; any other failed
//! request counts as the slowest possible. With `k` targets there are
//! `k(k−1)/2` pairs, each tested at 5 % divided by their number, so that
//! the chance of any wrong decision stays at most 5 %.

use crate::base::failure::ErrorKind;
use crate::planning::plan::Plan;
use crate::statistics::sequential::{Decision, Faster};
use crate::wire::sample::Sample;

/// The chance of any wrong decision in a run, at any stopping time.
pub const ALPHA: f64 = 0.05;

/// One pair of targets and its test.
#[derive(Clone, Debug, PartialEq)]
pub struct PairQuestion {
    /// The first target's index in the plan.
    pub first: u32,
    /// The second's.
    pub second: u32,
    /// The test so far.
    pub faster: Faster,
    /// How many of each target's requests are paired already.
    paired: usize,
}

/// Which target is faster, for every pair, as the samples came.
#[derive(Clone, Debug, PartialEq)]
pub struct Questions {
    /// Every pair of targets, in plan order.
    pub pairs: Vec<PairQuestion>,
    /// Each target's measured TTFTs in `seq` order (`None`: failed).
    ttfts: Vec<Vec<(u32, Option<f64>)>>,
    alpha_each: f64,
}

impl Questions {
    /// The questions of `plan`, none answered; `None` when the plan does
    /// not ask to run until decided.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn of(plan: &Plan) -> Option<Self> {
        if !plan.until_decided {
            return None;
        }
        let k = u32::try_from(plan.targets.len()).unwrap_or(u32::MAX);
        let pairs: Vec<PairQuestion> = (0..k)
            .flat_map(|first| {
                (first + 1..k).map(move |second| PairQuestion {
                    first,
                    second,
                    faster: Faster::default(),
                    paired: 0,
                })
            })
            .collect();
        let alpha_each = ALPHA / pairs.len().max(1) as f64;
        Some(Self {
            pairs,
            ttfts: vec![Vec::new(); k as usize],
            alpha_each,
        })
    }

    /// The questions of `plan` after `samples`, in their order.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn replayed(plan: &Plan, samples: &[Sample]) -> Option<Self> {
        let mut questions = Self::of(plan)?;
        for sample in samples {
            questions.push(sample);
        }
        Some(questions)
    }

    /// Takes one finished request.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn push(&mut self, sample: &Sample) {
        let stopped = sample
            .error
            .as_ref()
            .is_some_and(|e| e.kind == ErrorKind::Aborted);
        if sample.warmup || sample.probe.is_some() || stopped {
            return;
        }
        let Some(ttfts) = self.ttfts.get_mut(sample.target as usize) else {
            return;
        };
        let ttft = sample.ttft_ms.filter(|_| sample.error.is_none());
        // In `seq` order, once each (a resumed run sends the request that
        // was in flight again, later).
        match ttfts.binary_search_by_key(&sample.seq, |&(seq, _)| seq) {
            Ok(at) => ttfts[at].1 = ttft,
            Err(at) => ttfts.insert(at, (sample.seq, ttft)),
        }
        for pair in &mut self.pairs {
            let (a, b) = (
                &self.ttfts[pair.first as usize],
                &self.ttfts[pair.second as usize],
            );
            while let (Some(&(_, x)), Some(&(_, y))) = (a.get(pair.paired), b.get(pair.paired)) {
                pair.faster.push(x, y);
                pair.paired += 1;
            }
        }
    }

    /// Each pair's decision so far.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn decision(&self, pair: &PairQuestion) -> Decision {
        pair.faster.decision(self.alpha_each)
    }

    /// Every pair is decided (and there is at least one).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn all_decided(&self) -> bool {
        !self.pairs.is_empty()
            && self
                .pairs
                .iter()
                .all(|pair| self.decision(pair) != Decision::Open)
    }

    /// Measured requests of target `target` taken so far.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn requests(&self, target: u32) -> u32 {
        self.ttfts
            .get(target as usize)
            .map_or(0, |t| u32::try_from(t.len()).unwrap_or(u32::MAX))
    }

    /// Every target has at least `floor` measured requests.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn every_target_has(&self, floor: u32) -> bool {
        (0..self.ttfts.len()).all(|t| self.requests(t as u32) >= floor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planning::plan::Target;
    use crate::testing::fixtures::sample;

    fn plan(targets: usize) -> Plan {
        Plan {
            targets: (0..targets)
                .map(|i| Target::demo(&format!("t{i}"), "m"))
                .collect(),
            until_decided: true,
            ..Plan::default()
        }
    }

    #[test]
    fn a_plan_that_does_not_ask_has_no_questions() {
        assert_eq!(Questions::of(&Plan::default()), None);
        assert_eq!(Questions::of(&plan(3)).unwrap().pairs.len(), 3);
        assert!(!Questions::of(&plan(1)).unwrap().all_decided());
    }

    /// Pairs are made in `seq` order whatever order the samples come in
    /// (measured `seq`s start after the warm-ups'); warm-ups,
    /// probes and stopped requests are left out; a target three times as
    /// fast is decided faster within a few dozen pairs.
    #[test]
    fn pairs_are_made_by_seq_and_a_clear_difference_is_decided() {
        let plan = plan(2);
        let mut questions = Questions::of(&plan).unwrap();
        let mut warmup = sample(0, 0, 0.0, Some(5.0), true);
        warmup.seq = 0;
        questions.push(&warmup);
        let mut stopped = sample(1, 0, 0.0, None, false);
        if let Some(error) = stopped.error.as_mut() {
            error.kind = ErrorKind::Aborted;
        }
        questions.push(&stopped);
        assert_eq!(questions.requests(0), 0);
        assert_eq!(questions.requests(1), 0);
        let mut decided_at = None;
        for seq in 0..100 {
            // The second target's sample first, now and then.
            let (a, b) = (
                sample(0, seq + 1, 0.0, Some(100.0 + f64::from(seq % 7)), false),
                sample(1, seq + 1, 0.0, Some(300.0 + f64::from(seq % 5)), false),
            );
            if seq % 3 == 0 {
                questions.push(&b);
                questions.push(&a);
            } else {
                questions.push(&a);
                questions.push(&b);
            }
            if decided_at.is_none() && questions.all_decided() {
                decided_at = Some(seq + 1);
            }
        }
        assert_eq!(questions.pairs[0].faster.pairs(), 100);
        assert_eq!(questions.decision(&questions.pairs[0]), Decision::First);
        assert!(decided_at.is_some_and(|n| n <= 20), "{decided_at:?}");
        assert!(questions.every_target_has(100));
        assert_eq!(
            Questions::replayed(&plan, &[]).unwrap().pairs[0]
                .faster
                .pairs(),
            0
        );
    }
}
