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
//!   to each target, sent under the same conditions by the interleaved
//!   schedule (the run's questions pair them, `crate::wire::questions`),
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
//! Each question also says *how much*, in an interval as anytime-valid as
//! its decision and never at odds with it ([`Faster::interval`], the
//! typical ratio of the two targets' TTFTs; [`Objective::interval`], the
//! share within the budget): the same bets, made against a grid of means
//! besides the decision's, reject every value outside it.
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

/// A confidence sequence for the mean `μ` of `x` in `[0, 1]`, from bets
/// against a grid of nulls, and the two-way decision read off the bets at
/// one of them.
///
/// For each null `m` of the grid, one bet against "`μ ≤ m`" (on `x`) and
/// one against "`μ ≥ m`" (the mirror: on `1 − x` against "at most
/// `1 − m`"), each at `α/2`. Each part of a bet against "at most `m`"
/// multiplies its wealth by `1 + (c/m)(x − m) = 1 − c + c·x/m`, which falls
/// as `m` rises, so the nulls rejected below `μ` are all those under some
/// point and the nulls rejected above are all those over some point. The
/// interval runs from the largest rejected lower null to the smallest
/// rejected upper null, both excluded: the grid points still standing,
/// widened to their neighbours, since `μ` may lie anywhere between two of
/// them. Its low end is wrong only if a null at or above `μ` is rejected,
/// and then (monotone in `m`) so is the grid point next above `μ`, whose
/// hypothesis is true: by Ville's inequality that bet ever rejects with a
/// chance of at most `α/2`, whatever the stopping time. The same holds
/// above, so the interval misses `μ` at any moment of the run with a chance
/// of at most `α`. With nothing rejected on a side, that end is 0 or 1.
///
/// The decision is the pair of bets at the decision's null: the first
/// side once "`μ ≤ null`" is rejected, which is exactly when the interval
/// lies above the null; the second once "`μ ≥ null`" is, exactly when it
/// lies below; open while it holds the null. The ends are read outward from
/// that null (upward while rejected, else down to the first rejection, and
/// the mirror above), so the agreement holds by construction, not only
/// through the arithmetic's monotonicity. Both bets at one null never
/// reject together: each part's log wealth is concave in its stake and 0 at
/// no stake, so a stake that gained makes every stake of the other sign
/// lose.
///
/// The interval is the one of the moment, not intersected with the earlier
/// ones: a bet's wealth may fall back under its bar, so the decision is of
/// the moment too, and a running intersection (as valid) could go on
/// saying "faster" after the decision fell back to open. Each end moves
/// with every observation the way that observation points: a higher `x`
/// raises every lower bet and lowers every upper one, so it never lowers
/// either end.
#[derive(Clone, Debug, PartialEq)]
struct BetGrid {
    /// The nulls, increasing, each strictly between 0 and 1.
    nulls: Vec<f64>,
    /// Against "`μ ≤ nulls[i]`".
    at_most: Vec<Bet>,
    /// Against "`μ ≥ nulls[i]`".
    at_least: Vec<Bet>,
    /// Where the decision's null is in `nulls`.
    decision_at: usize,
}

impl BetGrid {
    /// Bets against every null of `nulls` (increasing, each strictly
    /// between 0 and 1), the decision read at `nulls[decision_at]`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn new(nulls: Vec<f64>, decision_at: usize) -> Self {
        let at_most = nulls.iter().map(|&m| Bet::against_at_most(m)).collect();
        let at_least = nulls
            .iter()
            .map(|&m| Bet::against_at_most(1.0 - m))
            .collect();
        Self {
            nulls,
            at_most,
            at_least,
            decision_at,
        }
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn push(&mut self, x: f64) {
        for bet in &mut self.at_most {
            bet.push(x);
        }
        for bet in &mut self.at_least {
            bet.push(1.0 - x);
        }
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn count(&self) -> u32 {
        self.at_most.first().map_or(0, Bet::count)
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn decision(&self, alpha: f64) -> Decision {
        let at = self.decision_at;
        match (self.at_most.get(at), self.at_least.get(at)) {
            (Some(first), _) if first.rejects(alpha / 2.0) => Decision::First,
            (_, Some(second)) if second.rejects(alpha / 2.0) => Decision::Second,
            _ => Decision::Open,
        }
    }

    /// The interval for `μ` at level `alpha`, ends excluded unless 0 or 1.
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn interval(&self, alpha: f64) -> (f64, f64) {
        let at = self.decision_at;
        let rejects = |bets: &[Bet], i: usize| bets.get(i).is_some_and(|b| b.rejects(alpha / 2.0));
        let low = if rejects(&self.at_most, at) {
            let last = (at + 1..self.nulls.len())
                .take_while(|&i| rejects(&self.at_most, i))
                .last()
                .unwrap_or(at);
            self.nulls[last]
        } else {
            (0..at)
                .rev()
                .find(|&i| rejects(&self.at_most, i))
                .map_or(0.0, |i| self.nulls[i])
        };
        let high = if rejects(&self.at_least, at) {
            let first = (0..at)
                .rev()
                .take_while(|&i| rejects(&self.at_least, i))
                .last()
                .unwrap_or(at);
            self.nulls[first]
        } else {
            (at + 1..self.nulls.len())
                .find(|&i| rejects(&self.at_least, i))
                .map_or(1.0, |i| self.nulls[i])
        };
        (low, high)
    }
}

/// The grid of [`Faster`]'s interval above a ratio of 1, as log₂ of the
/// ratio second / first (0.02 is +1.4 %, 0.5 is +41 %, 0.9 is +87 %); below
/// it, the mirror; between, 0 (a ratio of 1, the decision's null). Steps
/// of 0.02 up to +41 %, where long runs end, then of 0.1: a wider
/// difference is decided within a few dozen pairs, while the interval is
/// wide anyway. Measured against steps of 0.005 all the way, the steps
/// widen the interval by 4–11 % (`docs/statistics.md`).
const FASTER_GRID_LOG2: [f64; 29] = [
    0.02, 0.04, 0.06, 0.08, 0.10, 0.12, 0.14, 0.16, 0.18, 0.20, 0.22, 0.24, 0.26, 0.28, 0.30, 0.32,
    0.34, 0.36, 0.38, 0.40, 0.42, 0.44, 0.46, 0.48, 0.50, 0.60, 0.70, 0.80, 0.90,
];

/// "Which of two targets is faster", bet on request pairs, and how much.
///
/// Each pair gives `x = (clip(ln(second / first), ±ln 2) / ln 2 + 1) / 2`
/// in `[0, 1]`; the decision bets against its mean being at most, or at
/// least, 1/2. The same bets against a grid of other means give the
/// interval ([`Faster::interval`]). Memory: 59 nulls, each with two bets
/// of 144 bytes and the null itself, 17.5 kB on the heap (one per pair of
/// targets in a run); each pair of requests costs 1 888 logarithms.
#[derive(Clone, Debug, PartialEq)]
pub struct Faster {
    bets: BetGrid,
}

impl Default for Faster {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn default() -> Self {
        let below = FASTER_GRID_LOG2.iter().rev().map(|u| (1.0 - u) / 2.0);
        let above = FASTER_GRID_LOG2.iter().map(|u| (1.0 + u) / 2.0);
        let nulls = below.chain([0.5]).chain(above).collect();
        Self {
            bets: BetGrid::new(nulls, FASTER_GRID_LOG2.len()),
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
        self.bets.push(x);
    }

    /// Pairs so far.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn pairs(&self) -> u32 {
        self.bets.count()
    }

    /// The decision at level `alpha` (the chance of a wrong one, at any
    /// stopping time, at most `alpha`).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn decision(&self, alpha: f64) -> Decision {
        self.bets.decision(alpha)
    }

    /// How much slower the second target is, as an interval `(low, high)`
    /// for the ratio second / first at level `alpha`: anytime-valid (it
    /// misses the true ratio at any moment of the run with a chance of at
    /// most `alpha`) and never at odds with [`Faster::decision`] at the same
    /// level: [`Decision::First`] exactly when `low ≥ 1`,
    /// [`Decision::Second`] exactly when `high ≤ 1`, open exactly when
    /// `low < 1 < high`. The ends are excluded (each is a ratio the bets
    /// rejected), except 1/2 and 2, the ends when nothing is rejected.
    ///
    /// The ratio is the *typical* one, `exp(E[clip(ln(second / first),
    /// ±ln 2)])`: the geometric mean of the pairs' TTFT ratios, each capped
    /// at 2 either way, not the ratio of the medians. For log-normal
    /// providers within 2× of each other the two are close
    /// (`docs/statistics.md` has the measured gap).
    ///
    /// The interval is of this moment, not intersected with the earlier
    /// ones: it need not narrow as pairs come. The decision is of the
    /// moment too (a bet's wealth may fall back under its bar), and a
    /// running intersection, as valid, could go on claiming a winner after
    /// the decision fell back to open. A worse request of the second target
    /// (slower, or failed) never lowers either end, now or later.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn interval(&self, alpha: f64) -> (f64, f64) {
        let (low, high) = self.bets.interval(alpha);
        let ratio = |x: f64| ((2.0 * x - 1.0) * CLIP_LOG_RATIO).exp();
        (ratio(low), ratio(high))
    }
}

/// The grid of an [`Objective`]'s interval, as shares within the budget,
/// finer near 1 where objectives are set; the objective's level is added.
const OBJECTIVE_GRID: [f64; 30] = [
    0.01, 0.02, 0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50, 0.55, 0.60, 0.65, 0.70,
    0.75, 0.80, 0.85, 0.90, 0.92, 0.94, 0.95, 0.96, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999,
];

/// "Does a target meet its objective": at least `level` of its requests
/// within a TTFT budget, and the share within it. Memory: up to 31 nulls,
/// about 9 kB on the heap; each request costs up to 992 logarithms.
#[derive(Clone, Debug, PartialEq)]
pub struct Objective {
    budget_ms: f64,
    /// Bets on the share within the budget; the decision's null is the
    /// level.
    bets: BetGrid,
}

impl Objective {
    /// At least `level` (strictly between 0 and 1) of requests within
    /// `budget_ms`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn new(budget_ms: f64, level: f64) -> Self {
        let mut nulls = OBJECTIVE_GRID.to_vec();
        let at = nulls.partition_point(|&m| m < level);
        if nulls.get(at) != Some(&level) {
            nulls.insert(at, level);
        }
        Self {
            budget_ms,
            bets: BetGrid::new(nulls, at),
        }
    }

    /// One request's TTFT in ms, `None` when it failed (never within).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn push(&mut self, ttft_ms: Option<f64>) {
        let within = ttft_ms.is_some_and(|ms| ms <= self.budget_ms);
        self.bets.push(if within { 1.0 } else { 0.0 });
    }

    /// Requests taken so far.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn count(&self) -> u32 {
        self.bets.count()
    }

    /// The decision at level `alpha`: [`Decision::First`] met,
    /// [`Decision::Second`] missed.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn decision(&self, alpha: f64) -> Decision {
        self.bets.decision(alpha)
    }

    /// The share of requests within the budget, as an interval
    /// `(low, high)` at level `alpha`: anytime-valid, and met
    /// ([`Decision::First`]) exactly when `low ≥ level`, missed exactly when
    /// `high ≤ level`, open exactly when `low < level < high`. The ends are
    /// excluded (each a share the bets rejected), except 0 and 1.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn interval(&self, alpha: f64) -> (f64, f64) {
        self.bets.interval(alpha)
    }
}

#[cfg(test)]
mod tests;
