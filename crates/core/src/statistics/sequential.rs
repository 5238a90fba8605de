//! Anytime-valid tests: decisions that may be checked after every request
//! and stopped on at any moment, with the error they state.
//!
//! A fixed-n interval checked again and again is wrong far more often than
//! its 5 %: each look is another chance for noise to cross the line. Here
//! each question is a pair of one-sided *tests by betting* (Waudby-Smith and
//! Ramdas, "Estimating means of bounded random variables by betting", JRSS
//! B 2024; Shafer's testing by betting): a gambler bets, request by
//! request, against the hypothesis the decision would reject, spreading its
//! wealth over fixed stakes (so a worse request never helps the side it
//! hurts). Under that hypothesis the wealth is a
//! nonnegative supermartingale, so by Ville's inequality the chance that it
//! *ever* reaches `2/α` is at most `α/2`, whenever the run stops. Two such
//! bets, one per direction, give a two-way decision whose chance of being
//! wrong at any stopping time is at most `α`.
//!
//! What is bet on is bounded, so a heavy tail or a cold start moves a bet
//! by a bounded amount:
//!
//! - **Which of two targets is faster** ([`Faster`]): pairs of requests, one
//!   to each target, sent one after the other by the interleaved schedule,
//!   and the log ratio of their TTFTs clipped to ±[`CLIP_LOG_RATIO`]. A
//!   failed request (error or timeout) counts as the slowest possible, as
//!   the verdicts count it, so a worse request never helps its target.
//!   Under "equally fast" the two requests of a pair are exchangeable, the
//!   clipped log ratio is symmetric about 0, and its mean is 0: that is the
//!   hypothesis each direction bets against. Rejecting it says that a
//!   request to one target is typically faster than the request sent beside
//!   it to the other (for providers that differ by a factor, as latency
//!   distributions do, the same order as their medians).
//! - **Whether a target meets an objective** ([`Objective`]): the share of
//!   its requests with a TTFT within a budget against a stated level. "p95
//!   under 2 s" is "at least 95 % of requests within 2 s", the same test.
//!
//! Assumptions: requests are independent given the past (the plan's spacing
//! keeps them apart; a provider whose speed drifts slowly affects both
//! requests of a pair alike, which is why the comparison is paired).
//! `docs/statistics.md` has the seeded simulation's figures and the
//! command that prints them.

/// The clip of a pair's log TTFT ratio: a factor of 2 either way. Wide
/// enough that a 20 % difference is far inside it; narrow enough that one
/// cold start or failure moves the bet by no more than a doubling would.
pub const CLIP_LOG_RATIO: f64 = std::f64::consts::LN_2;

/// The largest stake, as a share of what the hypothesis allows: betting all
/// of it can lose everything on one request; 3/4 is the usual truncation.
const MAX_STAKE: f64 = 0.75;

/// How many fixed stakes a [`Bet`] spreads its wealth over.
const STAKES: usize = 16;

/// One bet against "the mean of `x` (in `[0, 1]`) is at most `null`": the
/// wealth is split evenly over [`STAKES`] fixed stakes, from 1/16 to all of
/// [`MAX_STAKE`] of what the hypothesis allows, each bet on every
/// observation (a mixture of constant bets). Each part's wealth,
/// `Π(1 + λ(x − null))` with `λ ≥ 0`, grows with every `x`, so the whole
/// does: a lower observation (a slower request for the side it favours)
/// never raises the evidence, now or later. An adaptive stake (aGRAPA),
/// measured first, stopped sooner (a median of 35 pairs against 40 for
/// providers 20 % apart) but is not monotone by construction: a low `x`
/// lowers the stakes that follow, and lower stakes lose less on the next
/// low `x`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bet {
    null: f64,
    n: u32,
    /// Each stake's log wealth.
    log_wealths: [f64; STAKES],
}

impl Bet {
    /// A bet against a mean at most `null` (strictly between 0 and 1).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn against_at_most(null: f64) -> Self {
        Self {
            null,
            n: 0,
            log_wealths: [0.0; STAKES],
        }
    }

    /// Bets on `x` (clamped to `[0, 1]`).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn push(&mut self, x: f64) {
        let x = x.clamp(0.0, 1.0);
        let most = MAX_STAKE / self.null;
        for (k, log_wealth) in self.log_wealths.iter_mut().enumerate() {
            let stake = most * (k + 1) as f64 / STAKES as f64;
            *log_wealth += (1.0 + stake * (x - self.null)).ln();
        }
        self.n += 1;
    }

    /// The wealth so far, as a log: the evidence against the hypothesis
    /// (at least `ln(1/α)` rejects it at level `α`).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn log_wealth(&self) -> f64 {
        // The log of the parts' mean, kept finite however large they grow.
        let most = self
            .log_wealths
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        let sum: f64 = self.log_wealths.iter().map(|w| (w - most).exp()).sum();
        most + (sum / STAKES as f64).ln()
    }

    /// Observations so far.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn count(&self) -> u32 {
        self.n
    }

    /// The wealth has reached `1/alpha`: the hypothesis is rejected at
    /// level `alpha`, at this or any stopping time.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn rejects(&self, alpha: f64) -> bool {
        self.log_wealth() >= (1.0 / alpha).ln()
    }
}

/// A two-way decision from two bets, one per direction, each at `α/2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Not decided yet.
    Open,
    /// The first side (the first target is faster; the objective is met).
    First,
    /// The second side (the second target is faster; the objective is missed).
    Second,
}

/// "Which of two targets is faster", bet on request pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Faster {
    /// Bets that the first is faster (the clipped log ratio second / first
    /// has a mean above 0).
    first: Bet,
    /// Bets that the second is faster.
    second: Bet,
}

impl Default for Faster {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn default() -> Self {
        Self {
            first: Bet::against_at_most(0.5),
            second: Bet::against_at_most(0.5),
        }
    }
}

impl Faster {
    /// One pair's TTFTs in ms, `None` for a request that failed (the
    /// slowest possible).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn push(&mut self, first_ms: Option<f64>, second_ms: Option<f64>) {
        let ratio = match (first_ms, second_ms) {
            (Some(a), Some(b)) if a > 0.0 && b > 0.0 => (b / a).ln(),
            (Some(_), None) => CLIP_LOG_RATIO,
            (None, Some(_)) => -CLIP_LOG_RATIO,
            // Both failed, or a time that is no time: nothing told apart.
            _ => 0.0,
        };
        let x = (ratio.clamp(-CLIP_LOG_RATIO, CLIP_LOG_RATIO) / CLIP_LOG_RATIO + 1.0) / 2.0;
        self.first.push(x);
        self.second.push(1.0 - x);
    }

    /// Pairs so far.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn pairs(&self) -> u32 {
        self.first.count()
    }

    /// The decision at level `alpha` (the chance of a wrong one, at any
    /// stopping time, at most `alpha`).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn decision(&self, alpha: f64) -> Decision {
        decide(&self.first, &self.second, alpha)
    }
}

/// "Does a target meet its objective": at least `level` of its requests
/// within a TTFT budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Objective {
    budget_ms: f64,
    /// Bets that the share within the budget is above the level.
    meets: Bet,
    /// Bets that it is below.
    misses: Bet,
}

impl Objective {
    /// At least `level` (strictly between 0 and 1) of requests within
    /// `budget_ms`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn new(budget_ms: f64, level: f64) -> Self {
        Self {
            budget_ms,
            meets: Bet::against_at_most(level),
            misses: Bet::against_at_most(1.0 - level),
        }
    }

    /// One request's TTFT in ms, `None` when it failed (never within).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn push(&mut self, ttft_ms: Option<f64>) {
        let within = ttft_ms.is_some_and(|ms| ms <= self.budget_ms);
        let x = if within { 1.0 } else { 0.0 };
        self.meets.push(x);
        self.misses.push(1.0 - x);
    }

    /// The decision at level `alpha`: [`Decision::First`] met,
    /// [`Decision::Second`] missed.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn decision(&self, alpha: f64) -> Decision {
        decide(&self.meets, &self.misses, alpha)
    }
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn decide(first: &Bet, second: &Bet, alpha: f64) -> Decision {
    if first.rejects(alpha / 2.0) {
        Decision::First
    } else if second.rejects(alpha / 2.0) {
        Decision::Second
    } else {
        Decision::Open
    }
}

#[cfg(test)]
mod tests;
