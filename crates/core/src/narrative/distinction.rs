//! The sentences about what the intervals tell apart within one model: how
//! each interval was found, the best target against each other contender,
//! the best provider and its ties, and which target is the more consistent.

use crate::base::lang::Lang;
use crate::judgement::compare::{Apart, Consistency, ModelComparison, contends, told_apart};
use crate::judgement::report::{Report, TargetReport};
use crate::statistics::bootstrap::Distinction;
use crate::statistics::dependence::Resampling;
use crate::words::format::interval_ms;

/// How an interval was found, in words: "order statistics of independent
/// requests" or "batch means of consecutive requests, blocks of 28".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn resampling_text(lang: Lang, method: Resampling) -> String {
    match (lang, method) {
        (Lang::En, Resampling::Iid) => "order statistics of independent requests".into(),
        (Lang::En, Resampling::Block { length }) => {
            format!("batch means of consecutive requests, blocks of {length}")
        }
        (Lang::ZhCn, Resampling::Iid) => "按独立请求的次序统计量".into(),
        (Lang::ZhCn, Resampling::Block { length }) => {
            format!("按连续请求的批均值（每块 {length} 个）")
        }
    }
}

/// The best target of `model` against each other target that contends for
/// the pick, by the very rule that decides the route's ties
/// ([`told_apart`]), so that this line, the best-provider line and the
/// routing JSON's `distinguishable` always agree: "A is better than B (p95,
/// 95 % intervals: 412 ms–455 ms, order statistics of independent requests
/// / …)"; "A and B differ in their share of slow requests (0 of 75 against
/// 6 of 75; Fisher's exact test, p = 0.028); p95, 95 % intervals: …"; "A and
/// B differ in their medians (…)"; or "A and B are not distinguishable with
/// this many samples (…)". Nothing when the model has no pick. Both
/// adapters print these lines under each model.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn distinction_sentences(
    lang: Lang,
    report: &Report,
    model: &ModelComparison,
) -> Vec<String> {
    let target = |i: u32| report.targets.get(i as usize);
    let Some(first_row) = model.rows.first().filter(|_| model.best.is_some()) else {
        return Vec::new();
    };
    let Some(first) = target(first_row.figures.target) else {
        return Vec::new();
    };
    let Some(first_ci) = first.intervals.as_ref() else {
        return Vec::new();
    };
    model
        .rows
        .iter()
        .skip(1)
        .filter(|row| contends(row))
        .filter_map(|row| {
            let other = target(row.figures.target)?;
            let other_ci = other.intervals.as_ref()?;
            let (a, b) = (&first.label, &other.label);
            let p95s = (
                (
                    interval_ms(lang, &first_ci.p95_ms),
                    resampling_text(lang, first_ci.method),
                ),
                (
                    interval_ms(lang, &other_ci.p95_ms),
                    resampling_text(lang, other_ci.method),
                ),
            );
            let ((first_p95, first_method), (other_p95, other_method)) = p95s;
            let p95_note = match lang {
                Lang::En => format!(
                    "p95, 95 % intervals: {first_p95}, {first_method} / {other_p95}, {other_method}"
                ),
                Lang::ZhCn => format!(
                    "p95 的 95 % 置信区间：{first_p95}，{first_method} / {other_p95}，{other_method}"
                ),
            };
            let medians = (
                interval_ms(lang, &first_ci.median_ms),
                interval_ms(lang, &other_ci.median_ms),
            );
            let counts = (
                (first_row.slow, first_row.figures.ttft_sorted_ms.len()),
                (row.slow, row.figures.ttft_sorted_ms.len()),
            );
            Some(match (told_apart(first_row, row), lang) {
                (None | Some(Apart::P95), _) => {
                    let verdict = Distinction::lower_is_better(&first_ci.p95_ms, &other_ci.p95_ms);
                    match lang {
                        Lang::En => format!("{} ({p95_note})", verdict.text(a, b, lang)),
                        Lang::ZhCn => format!("{}（{p95_note}）", verdict.text(a, b, lang)),
                    }
                }
                (Some(Apart::SlowShare { p_value }), Lang::En) => {
                    let (((ka, na), (kb, nb)), p) = (counts, format_p(p_value));
                    format!(
                        "{a} and {b} differ in their share of slow requests ({ka} of {na} against {kb} of {nb}; Fisher's exact test, {p}); {p95_note}"
                    )
                }
                (Some(Apart::SlowShare { p_value }), Lang::ZhCn) => {
                    let (((ka, na), (kb, nb)), p) = (counts, format_p(p_value));
                    format!(
                        "{a} 与 {b} 的慢请求占比不同（{na} 个中 {ka} 个，对比 {nb} 个中 {kb} 个；Fisher 精确检验，{p}）；{p95_note}"
                    )
                }
                (Some(Apart::Median), Lang::En) => format!(
                    "{a} and {b} differ in their medians (95 % intervals: {} / {}), not in their p95s ({p95_note})",
                    medians.0, medians.1
                ),
                (Some(Apart::Median), Lang::ZhCn) => format!(
                    "{a} 与 {b} 的中位数不同（95 % 置信区间：{} / {}），p95 则无法区分（{p95_note}）",
                    medians.0, medians.1
                ),
                (Some(Apart::Typical), Lang::En) => format!(
                    "{a} and {b} differ in the TTFT predicted at the typical prompt size (their 95 % intervals do not overlap); {p95_note}"
                ),
                (Some(Apart::Typical), Lang::ZhCn) => format!(
                    "{a} 与 {b} 在典型提示词长度下预测的 TTFT 不同（95 % 置信区间不重叠）；{p95_note}"
                ),
            })
        })
        .collect()
}

/// The best provider as both adapters name it: "A", or "A (not
/// distinguishable from B, C with these requests)" when the routing pick
/// is a tie.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn best_provider_text(lang: Lang, best: &str, tied: &[String]) -> String {
    if tied.is_empty() {
        return best.to_owned();
    }
    let others = tied.join(", ");
    match lang {
        Lang::En => format!("{best} (not distinguishable from {others} with these requests)"),
        Lang::ZhCn => format!("{best}（以当前请求数无法与 {others} 区分）"),
    }
}

/// Most against least consistent target of a model: "A is 34× more
/// consistent than B" when their CVs' 95 % intervals do not overlap, else
/// both CVs and that these requests cannot tell them apart (a "1.0×" would
/// claim a difference the intervals do not show).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn consistency_sentence(
    lang: Lang,
    report: &Report,
    consistency: &Consistency,
) -> String {
    let target = |i: u32| report.targets.get(i as usize);
    let (most, least) = (
        target(consistency.most_consistent),
        target(consistency.least_consistent),
    );
    let label = |t: Option<&TargetReport>| t.map(|t| t.label.clone()).unwrap_or_default();
    let cv_interval = |t: Option<&TargetReport>| t.and_then(|t| t.intervals).map(|i| i.cv_pct);
    let apart = match (cv_interval(most), cv_interval(least)) {
        (Some(a), Some(b)) => !a.overlaps(&b),
        _ => false,
    };
    if apart {
        return consistency.text(&label(most), &label(least), lang);
    }
    let cv = |t: Option<&TargetReport>| t.and_then(|t| t.ttft).map_or(0.0, |s| s.cv_pct);
    Consistency::indistinct_text((&label(most), cv(most)), (&label(least), cv(least)), lang)
}

/// A p-value said whole, with two significant digits: "p = 0.028", and
/// "p < 0.001" below a thousandth (never an equals sign before "<").
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn format_p(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".to_owned()
    } else if p < 0.01 {
        format!("p = {p:.4}")
    } else if p < 0.1 {
        format!("p = {p:.3}")
    } else {
        format!("p = {p:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrative::sentences::report_sentences;

    /// The line comparing the best with each other target, the best
    /// provider's tie note and the routing JSON's `distinguishable` say the
    /// same thing, over seeded pairs of providers that differ in their
    /// medians, their p95s, their cold starts or not at all (the p95
    /// intervals overlapping while the medians or the slow shares differ
    /// made the line say "not distinguishable" beside a route that was).
    #[test]
    fn the_intervals_line_the_best_provider_and_the_route_agree() {
        use crate::judgement::report::build_report;
        use crate::planning::plan::{Plan, Target};
        use crate::testing::fixtures::synthetic_samples;
        let target =
            |label: &str| Target::openai(label, &format!("https://{label}.example/v1"), "m");
        let plan = Plan {
            targets: vec![target("A"), target("B")],
            requests_per_target: 75,
            ..Plan::default()
        };
        let mut rng = fastrand::Rng::with_seed(0xA6EE);
        let (mut apart, mut tied) = (0, 0);
        for _ in 0..300 {
            let shift = [1.0, 1.05, 1.15, 1.4][rng.usize(..4)];
            let cold = [0.0, 0.0, 0.04, 0.12][rng.usize(..4)];
            let mut samples = synthetic_samples(2, 75, 0, rng.u64(..));
            for sample in &mut samples {
                let (u1, u2) = (1.0 - rng.f64(), rng.f64());
                let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                let median = if sample.target == 0 {
                    400.0
                } else {
                    400.0 * shift
                };
                let slow = sample.target == 1 && rng.f64() < cold;
                sample.error = None;
                sample.ttft_ms = Some(median * (0.15 * z).exp() * if slow { 12.0 } else { 1.0 });
            }
            let report = build_report(&plan, &samples, 0, 1);
            let model = &report.models[0];
            let route = &report.routing.routes[0];
            let said = report_sentences(&report, Lang::En);
            let said = &said.models[0];
            assert_eq!(route.distinguishable, model.distinguishable);
            assert_eq!(said.distinctions.len(), 1, "{said:?}");
            let line = &said.distinctions[0];
            let best = said.best_provider.as_deref().unwrap_or_default();
            let line_ties = line.contains("not distinguishable");
            let best_ties = best.contains("not distinguishable from");
            assert_eq!(line_ties, !route.distinguishable, "{line} / {best}");
            assert_eq!(best_ties, !route.distinguishable, "{line} / {best}");
            if route.distinguishable {
                apart += 1;
            } else {
                tied += 1;
            }
        }
        // Both outcomes were seen.
        assert!(apart > 30 && tied > 30, "{apart} apart, {tied} tied");
    }

    /// "1.0× more consistent" is not said when the CVs' intervals overlap;
    /// a ratio the intervals support still is.
    #[test]
    fn consistency_is_a_ratio_only_when_the_intervals_tell() {
        use crate::judgement::report::build_report;
        use crate::planning::plan::{Plan, Target};
        use crate::testing::fixtures::synthetic_samples;
        let target =
            |label: &str| Target::openai(label, &format!("https://{label}.example/v1"), "m");
        let plan = Plan {
            targets: vec![target("A"), target("B")],
            ..Plan::default()
        };
        let mut rng = fastrand::Rng::with_seed(4);
        let mut samples = synthetic_samples(2, 100, 0, 9);
        let spread = |samples: &mut Vec<crate::wire::sample::Sample>,
                      rng: &mut fastrand::Rng,
                      b_sigma: f64| {
            for sample in samples.iter_mut() {
                let sigma = if sample.target == 0 { 0.2 } else { b_sigma };
                let (u1, u2) = (1.0 - rng.f64(), rng.f64());
                let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                sample.error = None;
                sample.ttft_ms = Some(400.0 * (sigma * z).exp());
            }
        };
        spread(&mut samples, &mut rng, 0.21);
        let same = build_report(&plan, &samples, 0, 1);
        let said = report_sentences(&same, Lang::En).models[0]
            .consistency
            .clone()
            .unwrap();
        assert!(
            said.contains("not distinguishable with these requests"),
            "{said}"
        );
        assert!(!said.contains('×'), "{said}");
        let zh = report_sentences(&same, Lang::ZhCn).models[0]
            .consistency
            .clone()
            .unwrap();
        assert!(zh.contains("无法区分"), "{zh}");
        spread(&mut samples, &mut rng, 1.2);
        let apart = build_report(&plan, &samples, 0, 1);
        let said = report_sentences(&apart, Lang::En).models[0]
            .consistency
            .clone()
            .unwrap();
        assert!(
            said.starts_with("A is ") && said.ends_with("more consistent than B"),
            "{said}"
        );
    }
}
