//! Whether one target's samples can be resampled one by one, or must be
//! resampled in blocks of consecutive requests, and how long those blocks
//! are.
//!
//! A bootstrap that draws single requests assumes they are independent. A
//! run spread over hours is not: a provider has good and bad hours, so
//! neighbouring requests resemble each other more than distant ones, and
//! intervals from single-request resampling come out too narrow (the
//! coverage test in `bootstrap.rs` measures by how much). Drawing contiguous
//! blocks keeps that resemblance inside each block (Künsch's moving-block
//! bootstrap).
//!
//! The decision and the block length are computed on log TTFT in send
//! order: the log keeps one 20 s cold start from dominating every
//! autocorrelation.
//!
//! ```text
//! block bootstrap when   span(sent_at) > 1 h   or   r₁ > 2 / √n
//! block length  b = clamp(⌈b_PW⌉, ⌈n^⅓⌉, ⌊n / 4⌋)
//! ```
//! where r₁ is the lag-1 autocorrelation and b_PW the Politis–White
//! estimate (below).

/// Runs whose samples span more than this many ms get the block bootstrap
/// whatever their autocorrelation shows: with a handful of requests per hour
/// an hour-to-hour drift is real long before it is detectable.
pub const BLOCK_AFTER_SPAN_MS: f64 = 3_600_000.0;

/// How many standard errors (1 / √n under independence) the lag-1
/// autocorrelation must exceed to count as serial correlation: 2, about
/// the 2.3 % one-sided level.
const SERIAL_CORRELATION_Z: f64 = 2.0;

/// Fewer samples than this are always resampled singly: a block of 2 in a
/// series of 7 is no bootstrap at all.
const MIN_SAMPLES_FOR_BLOCKS: usize = 8;

/// How a bootstrap resamples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Resampling {
    /// Single samples, independently (`"iid"` in exports).
    Iid,
    /// Contiguous blocks of `length` consecutive samples in send order
    /// (`"block"` in exports).
    Block {
        /// Samples per block.
        length: usize,
    },
}

impl Resampling {
    /// The name used in exports: `"iid"` or `"block"`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Iid => "iid",
            Self::Block { .. } => "block",
        }
    }
}

/// How to resample `ttft_ms` (successful TTFTs in send order) that were sent
/// over `span_ms` (last `sent_at_ms` − first).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn choose_resampling(ttft_ms: &[f64], span_ms: f64) -> Resampling {
    let n = ttft_ms.len();
    if n < MIN_SAMPLES_FOR_BLOCKS {
        return Resampling::Iid;
    }
    let logs = centred_logs(ttft_ms);
    let correlation = autocovariances(&logs, 1);
    let r1 = match correlation.as_slice() {
        [r0, r1] if *r0 > 1e-20 => r1 / r0,
        _ => 0.0,
    };
    let serially_correlated = r1 > SERIAL_CORRELATION_Z / (n as f64).sqrt();
    if span_ms > BLOCK_AFTER_SPAN_MS || serially_correlated {
        Resampling::Block {
            length: block_length(&logs),
        }
    } else {
        Resampling::Iid
    }
}

/// The block length for centred log values `logs` (n ≥ 1):
/// the Politis–White (2004) automatic choice for the moving-block
/// bootstrap, with the correction of Patton, Politis and White (2009),
///
/// ```text
/// b_PW = (2 Ĝ² / D̂)^⅓ · n^⅓,   Ĝ = Σ λ(k/M) |k| R(k),   D̂ = 4/3 · (Σ λ(k/M) R(k))²
/// ```
/// over k = −M…M, with R the sample autocovariance and λ the flat-top
/// window (1 up to ½, falling linearly to 0 at 1). M = 2m̂, where m̂ is the
/// first lag after which the next K = max(5, ⌈√log₁₀ n⌉) autocorrelations
/// all lie within ±2·√(log₁₀ n / n), looked for up to ⌈√n⌉ + K.
///
/// It is then kept between ⌈n^⅓⌉ (the rate-optimal order, a floor for runs
/// whose drift is too slow to show in the autocorrelations) and ⌊n / 4⌋ (at
/// least four blocks' worth of distinct material).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn block_length(logs: &[f64]) -> usize {
    let n = logs.len();
    let nf = n as f64;
    let floor = nf.cbrt().ceil() as usize;
    let cap = (n / 4).max(1);
    let log10n = nf.log10().max(1.0);
    let k_n = 5usize.max(log10n.sqrt().ceil() as usize);
    let m_max = nf.sqrt().ceil() as usize + k_n;
    let lags = m_max.min(n.saturating_sub(1));
    let r = autocovariances(logs, lags);
    // Equal values leave only rounding noise (~1e-30): no correlation to measure.
    let Some(&r0) = r.first().filter(|&&r0| r0 > 1e-20) else {
        return floor.clamp(1, cap);
    };
    let bound = 2.0 * (log10n / nf).sqrt();
    let insignificant = |k: usize| r.get(k).is_none_or(|rk| (rk / r0).abs() < bound);
    let m_hat = (0..=lags)
        .find(|&m| (1..=k_n).all(|j| insignificant(m + j)))
        .unwrap_or(lags);
    let big_m = (2 * m_hat).min(lags);
    let (mut g, mut g0) = (0.0, r0);
    for (k, rk) in r.iter().enumerate().take(big_m + 1).skip(1) {
        let weight = flat_top(k as f64 / big_m as f64);
        // R(−k) = R(k): each lag counts twice.
        g += 2.0 * weight * k as f64 * rk;
        g0 += 2.0 * weight * rk;
    }
    let d = 4.0 / 3.0 * g0 * g0;
    let b = if d > 0.0 {
        (2.0 * g * g / d).cbrt() * nf.cbrt()
    } else {
        0.0
    };
    let b = if b.is_finite() { b.ceil() as usize } else { 0 };
    b.max(floor).clamp(1, cap)
}

/// The flat-top lag window of Politis and Romano.
#[cfg_attr(target_arch = "wasm32", inline)]
fn flat_top(t: f64) -> f64 {
    let t = t.abs();
    if t <= 0.5 {
        1.0
    } else if t <= 1.0 {
        2.0 * (1.0 - t)
    } else {
        0.0
    }
}

/// ln of each value, minus their mean. Non-positive values (never a real
/// TTFT) count as the smallest positive one rather than −∞.
#[cfg_attr(target_arch = "wasm32", inline)]
fn centred_logs(values: &[f64]) -> Vec<f64> {
    let logs: Vec<f64> = values
        .iter()
        .map(|v| v.max(f64::MIN_POSITIVE).ln())
        .collect();
    let mean = logs.iter().sum::<f64>() / logs.len().max(1) as f64;
    logs.iter().map(|v| v - mean).collect()
}

/// R(0)…R(max_lag) of centred `x`: R(k) = Σₜ xₜ·xₜ₊ₖ / n (the biased
/// estimator, which keeps the sequence positive semi-definite).
/// Cost: O(n · max_lag).
#[cfg_attr(target_arch = "wasm32", inline)]
fn autocovariances(x: &[f64], max_lag: usize) -> Vec<f64> {
    let n = x.len();
    (0..=max_lag.min(n.saturating_sub(1)))
        .map(|k| x.iter().zip(&x[k..]).map(|(a, b)| a * b).sum::<f64>() / n as f64)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn normal(rng: &mut fastrand::Rng) -> f64 {
        let (u1, u2) = (1.0 - rng.f64(), rng.f64());
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    fn independent(n: usize, seed: u64) -> Vec<f64> {
        let mut rng = fastrand::Rng::with_seed(seed);
        (0..n)
            .map(|_| 400.0 * (0.3 * normal(&mut rng)).exp())
            .collect()
    }

    /// An AR(1) series on the log scale: xₜ = φ·xₜ₋₁ + εₜ.
    fn autoregressive(n: usize, phi: f64, seed: u64) -> Vec<f64> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut x = 0.0;
        (0..n)
            .map(|_| {
                x = phi * x + 0.3 * normal(&mut rng);
                400.0 * x.exp()
            })
            .collect()
    }

    #[test]
    fn independent_samples_within_an_hour_are_resampled_singly() {
        let picked: Vec<Resampling> = (0..50)
            .map(|seed| choose_resampling(&independent(200, seed), 1_800_000.0))
            .collect();
        let singly = picked.iter().filter(|r| **r == Resampling::Iid).count();
        // The test is one-sided at about 2.3 %: a stray "correlated" run is allowed.
        assert!(
            singly >= 45,
            "{singly} of 50 independent runs resampled singly"
        );
    }

    /// How often independent requests (sent within the hour) are sent to
    /// the batch-means interval by the lag-1 test alone, and how often
    /// AR(1) runs with φ 0.3 are caught: 4 000 seeded runs per n, lognormal
    /// and log-t₃ bodies. docs/statistics.md quotes the figures.
    /// `cargo test -p firsttoken-core --lib statistics::dependence::tests::lag_one_false_alarm_rate -- --nocapture`
    #[test]
    fn lag_one_false_alarm_rate() {
        let runs = 4000;
        for n in [20, 75, 200, 1000] {
            let mut rng = fastrand::Rng::with_seed(0x1A6 + n as u64);
            let mut rate = |draw: &mut dyn FnMut(&mut fastrand::Rng) -> Vec<f64>| {
                let alarms = (0..runs)
                    .filter(|_| choose_resampling(&draw(&mut rng), 1_800_000.0) != Resampling::Iid)
                    .count();
                alarms as f64 * 100.0 / f64::from(runs)
            };
            let lognormal =
                rate(&mut |rng| (0..n).map(|_| 400.0 * (0.3 * normal(rng)).exp()).collect());
            let heavy = rate(&mut |rng| {
                (0..n)
                    .map(|_| {
                        let chi: f64 = (0..3).map(|_| normal(rng).powi(2)).sum();
                        400.0 * (0.2 * normal(rng) / (chi / 3.0).sqrt()).exp()
                    })
                    .collect()
            });
            let caught = rate(&mut |rng| {
                let mut x = 0.0;
                (0..n)
                    .map(|_| {
                        x = 0.3 * x + 0.3 * normal(rng);
                        400.0 * x.exp()
                    })
                    .collect()
            });
            println!(
                "n {n}: independent runs sent to batch means: lognormal {lognormal:.1} %, log-t3 {heavy:.1} %; AR(1) φ 0.3 caught {caught:.1} %"
            );
            assert!(
                lognormal <= 4.0 && heavy <= 4.0,
                "n {n}: {lognormal} / {heavy}"
            );
        }
    }

    #[test]
    fn a_long_span_or_serial_correlation_means_blocks() {
        assert!(matches!(
            choose_resampling(&independent(200, 1), 2.0 * BLOCK_AFTER_SPAN_MS),
            Resampling::Block { .. }
        ));
        for seed in 0..20 {
            assert!(matches!(
                choose_resampling(&autoregressive(200, 0.6, seed), 600_000.0),
                Resampling::Block { .. }
            ));
        }
        assert_eq!(choose_resampling(&[400.0; 7], 1e9), Resampling::Iid);
        assert_eq!(Resampling::Iid.as_str(), "iid");
        assert_eq!(Resampling::Block { length: 3 }.as_str(), "block");
    }

    #[test]
    fn block_length_grows_with_dependence_and_stays_in_bounds() {
        let logs = |values: &[f64]| centred_logs(values);
        let n = 800;
        let floor = (n as f64).cbrt().ceil() as usize;
        let iid = block_length(&logs(&independent(n, 3)));
        assert_eq!(iid, floor, "no dependence: the n^⅓ floor");
        let weak = block_length(&logs(&autoregressive(n, 0.5, 3)));
        let strong = block_length(&logs(&autoregressive(n, 0.9, 3)));
        assert!(
            weak >= floor && strong > weak,
            "{floor} ≤ {weak} < {strong}"
        );
        assert!(strong <= n / 4);
        assert_eq!(
            block_length(&logs(&[400.0; 40])),
            4,
            "constant: floor ⌈40^⅓⌉"
        );
        assert_eq!(block_length(&logs(&[400.0])), 1);
    }

    #[test]
    fn flat_top_window() {
        assert_eq!(flat_top(0.0), 1.0);
        assert_eq!(flat_top(0.5), 1.0);
        assert!((flat_top(0.75) - 0.5).abs() < 1e-12);
        assert_eq!(flat_top(1.0), 0.0);
        assert_eq!(flat_top(-2.0), 0.0);
    }
}
