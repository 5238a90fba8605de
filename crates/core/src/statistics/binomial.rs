//! Binomial primitives in one place: intervals for a share `k / n`
//! (Wilson's score interval, the exact Clopper–Pearson interval), the
//! binomial distribution function, and Fisher's exact test of two shares.
//! The judgements above (slow shares, goodput, pass rates, peak hours,
//! order-statistic ranks) all ask these.

/// `P(B ≤ k)` for every k in 0..=n, B ~ Binomial(n, p), in one pass of the
/// probability recursion in log space. Cost: O(n).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn binomial_cdf_table(n: usize, p: f64) -> Vec<f64> {
    let mut table = Vec::with_capacity(n + 1);
    if p <= 0.0 || p >= 1.0 {
        let all_below = p >= 1.0;
        for k in 0..=n {
            table.push(if all_below && k < n { 0.0 } else { 1.0 });
        }
        return table;
    }
    let (ln_p, ln_q) = (p.ln(), (1.0 - p).ln());
    let mut ln_pmf = n as f64 * ln_q;
    let mut cumulative = 0.0;
    for k in 0..=n {
        if k > 0 {
            ln_pmf += ((n - k + 1) as f64).ln() - (k as f64).ln() + ln_p - ln_q;
        }
        cumulative += ln_pmf.exp();
        table.push(cumulative.min(1.0));
    }
    table
}

/// Wilson's 95 % score interval for `k` successes in `n` trials.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    // The 97.5th percentile of the standard normal.
    const Z: f64 = 1.959_963_984_540_054;
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At k = 0 (k = n) the low (high) end is exactly 0 (1) in exact
    // arithmetic; in floating point centre − half leaves about 3e-18.
    let low = if k == 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if k == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

/// Exact (Clopper–Pearson) two-sided interval of a binomial share `k / n`
/// at `confidence` (0–1): the shares under which seeing `k` or more (for
/// the low end) or `k` or fewer (for the high end) has probability
/// (1 − confidence) / 2. `(0, 1)` when `n` is 0.
///
/// Solved by bisection on the binomial distribution function, summed in
/// log space so that n in the tens of thousands stays finite.
/// Cost: O(min(k, n − k) · 60).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn clopper_pearson(k: usize, n: usize, confidence: f64) -> (f64, f64) {
    if n == 0 || k > n {
        return (0.0, 1.0);
    }
    let alpha = (1.0 - confidence.clamp(0.0, 1.0)) / 2.0;
    let low = if k == 0 {
        0.0
    } else {
        // P(X ≥ k; p) rises with p: find where it reaches α.
        bisect(|p| 1.0 - binomial_cdf(k - 1, n, p) - alpha)
    };
    let high = if k == n {
        1.0
    } else {
        // P(X ≤ k; p) falls with p: find where it drops to α.
        bisect(|p| alpha - binomial_cdf(k, n, p))
    };
    (low, high)
}

/// The root in (0, 1) of a function rising from negative to positive.
#[cfg_attr(target_arch = "wasm32", inline)]
fn bisect(f: impl Fn(f64) -> f64) -> f64 {
    let (mut low, mut high) = (0.0_f64, 1.0_f64);
    for _ in 0..60 {
        let mid = 0.5 * (low + high);
        if f(mid) < 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    0.5 * (low + high)
}

/// P(X ≤ k) for X ~ Binomial(n, p), summing from the cheaper end, each
/// term from the last by the ratio of consecutive probabilities (in log
/// space, so n in the tens of thousands stays finite). Cost: O(min(k, n − k)).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn binomial_cdf(k: usize, n: usize, p: f64) -> f64 {
    if k >= n || p <= 0.0 {
        return 1.0;
    }
    if p >= 1.0 {
        return 0.0;
    }
    let (ln_p, ln_q) = (p.ln(), (1.0 - p).ln());
    if k <= n - k {
        // P(X = 0), then P(X = i) = P(X = i − 1) · (n − i + 1) / i · p / q.
        let mut ln_pmf = n as f64 * ln_q;
        let mut sum = ln_pmf.exp();
        for i in 1..=k {
            ln_pmf += ((n - i + 1) as f64).ln() - (i as f64).ln() + ln_p - ln_q;
            sum += ln_pmf.exp();
        }
        sum.min(1.0)
    } else {
        // 1 − P(X > k), summed down from P(X = n).
        let mut ln_pmf = n as f64 * ln_p;
        let mut upper = ln_pmf.exp();
        for i in (k + 1..n).rev() {
            // P(X = i) = P(X = i + 1) · (i + 1) / (n − i) · q / p.
            ln_pmf += ((i + 1) as f64).ln() - ((n - i) as f64).ln() + ln_q - ln_p;
            upper += ln_pmf.exp();
        }
        (1.0 - upper).max(0.0)
    }
}

/// Two-sided Fisher's exact test that `a` of `n` and `c` of `m` come from
/// the same share: the probability, with the margins fixed, of a table at
/// most as likely as the one seen (the usual "sum of small p" rule, with a
/// relative tolerance of 10⁻⁷ for ties). Cost: O(n + m).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn fisher_exact(a: usize, n: usize, c: usize, m: usize) -> f64 {
    if a > n || c > m {
        return 1.0;
    }
    let total_slow = a + c;
    let total = n + m;
    // X = slow requests in the first group ~ Hypergeometric(total, total_slow, n).
    let low = total_slow.saturating_sub(m);
    let high = total_slow.min(n);
    let ln_choose = |n: usize, k: usize| -> f64 {
        let k = k.min(n - k);
        (0..k)
            .map(|i| ((n - i) as f64).ln() - ((i + 1) as f64).ln())
            .sum()
    };
    let denominator = ln_choose(total, n);
    let probability = |x: usize| {
        (ln_choose(total_slow, x) + ln_choose(total - total_slow, n - x) - denominator).exp()
    };
    let observed = probability(a);
    let p: f64 = (low..=high)
        .map(probability)
        .filter(|&q| q <= observed * (1.0 + 1e-7))
        .sum();
    p.min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_the_formula_by_hand() {
        // 97 of 100: (0.9155, 0.9897), the score-interval formula
        // evaluated separately in Python.
        let (low, high) = wilson(97, 100);
        assert!((low - 0.9155).abs() < 1e-3, "{low}");
        assert!((high - 0.9897).abs() < 1e-3, "{high}");
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        // Exact ends are exact: 0 of 75 starts at 0, 75 of 75 ends at 1.
        assert_eq!(wilson(0, 75).0, 0.0);
        assert_eq!(wilson(75, 75).1, 1.0);
        assert!(wilson(0, 75).1 > 0.0 && wilson(75, 75).0 < 1.0);
        let (low, high) = wilson(0, 20);
        assert_eq!(low, 0.0);
        assert!((high - 0.1611).abs() < 1e-3);
    }

    #[test]
    fn clopper_pearson_matches_exact_sums() {
        // Bisection on exact binomial sums in Python integers
        // (math.comb): (0.0147208, 0.1309608).
        let (low, high) = clopper_pearson(4, 75, 0.95);
        assert!((low - 0.014_720_8).abs() < 1e-6, "{low}");
        assert!((high - 0.130_960_8).abs() < 1e-6, "{high}");
        // 0 of 75: (0, 1 − 0.025^(1/75)).
        let (low, high) = clopper_pearson(0, 75, 0.95);
        assert_eq!(low, 0.0);
        assert!((high - (1.0 - 0.025_f64.powf(1.0 / 75.0))).abs() < 1e-9);
        let (low, high) = clopper_pearson(75, 75, 0.95);
        assert!((low - 0.025_f64.powf(1.0 / 75.0)).abs() < 1e-9);
        assert_eq!(high, 1.0);
        assert_eq!(clopper_pearson(0, 0, 0.95), (0.0, 1.0));
        // Large n stays finite and sensible.
        let (low, high) = clopper_pearson(500, 20_000, 0.95);
        assert!(low < 0.025 && high > 0.025 && high - low < 0.01);
    }

    #[test]
    fn fisher_exact_matches_exact_sums() {
        // Hand-checked against the hypergeometric table: 6 of 40 slow in
        // peak hours against 0 of 40 off peak. With 6 slow in all, the only
        // tables as unlikely are 6/0 and 0/6: p = 2 · C(40,6) / C(80,6).
        let p = fisher_exact(6, 40, 0, 40);
        let expected = 2.0 * 3_838_380.0 / 300_500_200.0;
        assert!((p - expected).abs() < 1e-9, "{p} vs {expected}");
        assert!(p < 0.05);
        // Equal shares: p = 1.
        assert!((fisher_exact(3, 50, 3, 50) - 1.0).abs() < 1e-9);
        // 2 of 40 against 1 of 40 is nothing the data can show.
        assert!(fisher_exact(2, 40, 1, 40) > 0.5);
        assert_eq!(fisher_exact(5, 4, 0, 4), 1.0);
    }
}
