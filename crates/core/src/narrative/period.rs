//! The sentence about the time of day: peak against off-peak hours by their
//! slow shares, as Fisher's exact test tells them apart or not.

use crate::base::lang::Lang;
use crate::judgement::timeofday::PeriodComparison;
use crate::narrative::distinction::format_p;

/// Peak against off-peak by their slow shares, with Fisher's exact test:
/// "peak hours are slower: 9 of 80 requests slow at peak against 0 of 40
/// off peak (Fisher's exact test, p = 0.028)".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn period_sentence(lang: Lang, comparison: &PeriodComparison) -> String {
    let ((peak_slow, peak_n), (off_slow, off_n)) = (comparison.peak, comparison.off_peak);
    let p = format_p(comparison.p_value);
    let peak_share = peak_slow as f64 / peak_n.max(1) as f64;
    let off_share = off_slow as f64 / off_n.max(1) as f64;
    match (lang, comparison.differs(), peak_share > off_share) {
        (Lang::En, true, true) => format!(
            "peak hours are slower: {peak_slow} of {peak_n} requests slow at peak against {off_slow} of {off_n} off peak (Fisher's exact test, {p})"
        ),
        (Lang::En, true, false) => format!(
            "off-peak hours are slower: {off_slow} of {off_n} requests slow off peak against {peak_slow} of {peak_n} at peak (Fisher's exact test, {p})"
        ),
        (Lang::En, false, _) => format!(
            "peak and off-peak: {peak_slow} of {peak_n} against {off_slow} of {off_n} requests slow, no difference these requests can show (Fisher's exact test, {p})"
        ),
        (Lang::ZhCn, true, true) => format!(
            "高峰时段更慢：高峰 {peak_n} 个请求中 {peak_slow} 个慢，非高峰 {off_n} 个中 {off_slow} 个（Fisher 精确检验，{p}）"
        ),
        (Lang::ZhCn, true, false) => format!(
            "非高峰时段更慢：非高峰 {off_n} 个请求中 {off_slow} 个慢，高峰 {peak_n} 个中 {peak_slow} 个（Fisher 精确检验，{p}）"
        ),
        (Lang::ZhCn, false, _) => format!(
            "高峰与非高峰：{peak_n} 个中 {peak_slow} 个慢，对比 {off_n} 个中 {off_slow} 个，这些请求显示不出差别（Fisher 精确检验，{p}）"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_period_sentence_says_what_fishers_test_says() {
        // The worked example of docs/statistics.md, § Time of day, from
        // the test itself: 6 of 80 against 0 of 40 is no difference
        // (p = 0.177); 9 of 80 is the fewest that is (p = 0.028).
        use crate::statistics::binomial::fisher_exact;
        let p_six = fisher_exact(6, 80, 0, 40);
        assert!((p_six - 0.177).abs() < 5e-4, "{p_six}");
        let fewest = (0..=80).find(|&a| fisher_exact(a, 80, 0, 40) < 0.05);
        assert_eq!(fewest, Some(9));
        let slower_at_peak = PeriodComparison {
            peak: (9, 80),
            off_peak: (0, 40),
            p_value: fisher_exact(9, 80, 0, 40),
        };
        assert_eq!(
            period_sentence(Lang::En, &slower_at_peak),
            "peak hours are slower: 9 of 80 requests slow at peak against 0 of 40 off peak \
             (Fisher's exact test, p = 0.028)"
        );
        let six = PeriodComparison {
            peak: (6, 80),
            off_peak: (0, 40),
            p_value: p_six,
        };
        assert!(period_sentence(Lang::En, &six).contains("no difference these requests can show"));
        let same = PeriodComparison {
            peak: (2, 40),
            off_peak: (1, 40),
            p_value: 1.0,
        };
        assert!(period_sentence(Lang::En, &same).contains("no difference these requests can show"));
        assert!(period_sentence(Lang::ZhCn, &same).contains("显示不出差别"));
    }
}
