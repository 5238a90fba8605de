//! How a run ended for the targets that never answered: one sentence each,
//! with the failure's own reason, said at the end of a run by the runner
//! (its last lines, before exit 5) and by the page (under the run's
//! progress), from the same samples.

use crate::base::lang::Lang;
use crate::judgement::objective::{Crossing, Metric};
use crate::judgement::report::failure_reason;
use crate::narrative::sentences::Said;
use crate::planning::plan::{DECIDED_FLOOR, Plan};
use crate::statistics::sequential::Decision;
use crate::wire::protocol::recorded_failure_text;
use crate::wire::questions::Questions;
use crate::wire::sample::Sample;
use crate::words::format::format_ms;
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
/// 20 requests per target: A is faster than B (anytime-valid 95 %); p95 at
/// most 2 s: A meets it, B misses it", or "not decided after 300 requests
/// per target: A and B not told apart (anytime-valid 95 %); p95 at most
/// 2 s: A meets it, B not decided"; the targets that stopped before the
/// others, and after how many requests; with a floor below the method's
/// 75, that the tail figures rest on fewer requests. `None` for a plan that
/// does not run until decided.
///
/// The page links this: its words are pieces of a table, English then
/// Chinese, put together with `push_str` (each `format!` costs the page's
/// wasm a few hundred bytes).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn until_decided_text(lang: Lang, plan: &Plan, samples: &[Sample]) -> Option<String> {
    Questions::replayed(plan, samples).map(|questions| decided_text(lang, plan, &questions))
}

/// [`until_decided_text`] of `questions` as they stand (a report's
/// [`crate::judgement::report::Stopping`]).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn decided_text(lang: Lang, plan: &Plan, questions: &Questions) -> String {
    let zh = usize::from(lang == Lang::ZhCn);
    let label = |index: u32| {
        plan.targets
            .get(index as usize)
            .map_or("?", |t| t.label.as_str())
    };
    let targets = questions.targets();
    let (mut least, mut most) = (u32::MAX, 0);
    for t in 0..targets {
        least = least.min(questions.requests(t));
        most = most.max(questions.requests(t));
    }
    least = least.min(most);
    // Stopped before the others: its own questions decided at its floor.
    let floor = plan.decided_floor();
    let early = |t: u32| questions.requests(t) < most && questions.may_stop(t, floor);
    let mut per_target = most;
    for t in 0..targets {
        if !early(t) {
            per_target = per_target.min(questions.requests(t));
        }
    }
    if questions.pairs.is_empty() && questions.objectives.is_empty() {
        return if zh == 1 {
            format!("无需判定：只有一个目标，{per_target} 个请求")
        } else {
            format!("nothing to decide: one target, {per_target} requests")
        };
    }
    let decided = questions.all_decided();
    let anytime = [" (anytime-valid 95 %)", "（随时有效 95 %）"][zh];
    let between = ["; ", "；"][zh];
    let comma = [", ", "，"][zh];
    let mut text = String::new();
    push_all(
        &mut text,
        &[
            [
                ["not decided after ", "每个目标 "],
                ["decided after ", "每个目标 "],
            ][usize::from(decided)][zh],
            &per_target.to_string(),
            [
                [" requests per target: ", " 个请求后仍未判定："],
                [" requests per target: ", " 个请求后已判定："],
            ][usize::from(decided)][zh],
        ],
    );
    let margin = questions.margin().map(margin_text);
    let margin = margin.as_deref().unwrap_or("");
    for (k, pair) in questions.pairs.iter().enumerate() {
        let (a, b) = (label(pair.first), label(pair.second));
        let equivalent = questions.equivalent(pair);
        let unanswered = !(questions.answered(pair.first) || questions.answered(pair.second));
        let (x, y, [middle, end]) = match (questions.decision(pair), equivalent) {
            (Decision::First, _) => (a, b, [[" is faster than ", ""], [" 比 ", " 快"]][zh]),
            (Decision::Second, _) => (b, a, [[" is faster than ", ""], [" 比 ", " 快"]][zh]),
            (Decision::Open, true) => (a, b, [[" and ", " are equivalent"], [" 与 ", " 相当"]][zh]),
            (Decision::Open, false) if unanswered => (
                a,
                b,
                [
                    [" and ", ": neither answered a request"],
                    [" 与 ", " 都没有成功的请求"],
                ][zh],
            ),
            (Decision::Open, false) => (
                a,
                b,
                [[" and ", " not told apart"], [" 与 ", " 未能区分"]][zh],
            ),
        };
        push_all(
            &mut text,
            &[if k > 0 { between } else { "" }, x, middle, y, end],
        );
        // With a margin, every pair says where it stands against it.
        if !margin.is_empty() && !unanswered {
            let words = match (questions.decision(pair), equivalent) {
                (Decision::Open, true) => [" within ", "，相差在 "],
                (_, true) => [", by less than ", "，差距小于 "],
                (Decision::Open, false) => [", nor shown within ", "，也未能证明相差在 "],
                (_, false) => ["", ""],
            };
            if !words[zh].is_empty() {
                push_all(
                    &mut text,
                    &[words[zh], margin, if zh == 1 { " 以内" } else { "" }],
                );
            }
        }
    }
    if !questions.pairs.is_empty() {
        text.push_str(anytime);
    }
    // One part per objective: its words, then each target's answer.
    let mut last_objective = None;
    for question in &questions.objectives {
        let share = question.share;
        if last_objective == Some(question.objective) {
            text.push_str(comma);
        } else {
            if last_objective.is_some() || !questions.pairs.is_empty() {
                text.push_str(between);
            }
            last_objective = Some(question.objective);
            push_objective(
                &mut text,
                lang,
                share.metric,
                share.crossing,
                &format_ms(lang, share.budget_ms),
            );
        }
        text.push_str(label(question.target));
        text.push_str(match questions.objective_decision(question) {
            Decision::First => [" meets it", " 达标"][zh],
            Decision::Second => [" misses it", " 未达标"][zh],
            Decision::Open => [" not decided", " 未判定"][zh],
        });
    }
    if questions.pairs.is_empty() {
        text.push_str(anytime);
    }
    let mut first_early = true;
    for t in (0..targets).filter(|&t| early(t)) {
        let head = if first_early {
            [between, ["stopped early: ", "提前停止："][zh]]
        } else {
            [comma, ""]
        };
        first_early = false;
        push_all(
            &mut text,
            &[
                head[0],
                head[1],
                label(t),
                [" after ", " 在 "][zh],
                &questions.requests(t).to_string(),
                [" requests", " 个请求后"][zh],
            ],
        );
    }
    if decided && least < DECIDED_FLOOR {
        let mut rest_on = least.to_string();
        if least < most {
            rest_on.push_str([" to ", " 到 "][zh]);
            rest_on.push_str(&most.to_string());
        }
        push_all(
            &mut text,
            &[
                between,
                ["the tail figures rest on ", "长尾数字只基于每个目标 "][zh],
                &rest_on,
                [
                    " requests per target, fewer than the ",
                    " 个请求，少于冷启动长尾所需的 ",
                ][zh],
                &DECIDED_FLOOR.to_string(),
                [" a cold-start tail needs", " 个"][zh],
            ],
        );
    }
    text
}

/// The plan's equivalence margin as said: "±10 %".
#[cfg_attr(target_arch = "wasm32", inline)]
fn margin_text(margin: f64) -> String {
    let pct = margin * 100.0;
    let number = if (pct - pct.round()).abs() < 1e-9 {
        format!("{pct:.0}")
    } else {
        format!("{pct:.1}")
    };
    format!("±{number} %")
}

/// Each question of a run until decided as it stands, one line each, for
/// the live view (the runner's and the page's) and the report: "A vs B:
/// not decided yet after 38 pairs; B against A in a typical pair: −3 % to
/// +12 %", "A: p95 under 2 s: meets it after 60 requests; within 2 s: 96 %
/// to 100 %". The range is the anytime-valid interval at the level the
/// decision is made at ([`Questions::interval`]), so a line never says a
/// target is faster while its range holds 0: the typical pair's ratio is
/// the geometric mean of paired TTFT ratios, each capped at 2× either way.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn question_lines(lang: Lang, plan: &Plan, questions: &Questions) -> Vec<String> {
    let zh = usize::from(lang == Lang::ZhCn);
    let label = |index: u32| {
        plan.targets
            .get(index as usize)
            .map_or("?", |t| t.label.as_str())
    };
    let mut lines = Vec::new();
    for pair in &questions.pairs {
        let (a, b) = (label(pair.first), label(pair.second));
        let count = pair.faster.pairs();
        let pairs = count.to_string();
        let pairs_word = if count == 1 {
            [" pair", " 对请求"]
        } else {
            [" pairs", " 对请求"]
        };
        let (low, high) = questions.interval(pair);
        let mut line = String::new();
        push_all(&mut line, &[a, [" vs ", " 对 "][zh], b, [": ", "："][zh]]);
        let winner = match questions.decision(pair) {
            Decision::First => Some(a),
            Decision::Second => Some(b),
            Decision::Open => None,
        };
        let within = questions
            .margin()
            .filter(|_| questions.equivalent(pair))
            .map(margin_text);
        match (winner, within) {
            (Some(faster), within) => {
                push_all(
                    &mut line,
                    &[
                        faster,
                        [" faster after ", " 更快（"][zh],
                        &pairs,
                        pairs_word[zh],
                        ["", "）"][zh],
                    ],
                );
                if let Some(within) = within {
                    push_all(
                        &mut line,
                        &[[", by less than ", "，差距小于 "][zh], &within],
                    );
                }
            }
            (None, Some(within)) => push_all(
                &mut line,
                &[
                    ["equivalent within ", "相差在 "][zh],
                    &within,
                    [" after ", " 以内（"][zh],
                    &pairs,
                    pairs_word[zh],
                    ["", "）"][zh],
                ],
            ),
            (None, None) => push_all(
                &mut line,
                &[
                    ["not decided yet after ", ""][zh],
                    &pairs,
                    pairs_word[zh],
                    ["", "后尚未判定"][zh],
                ],
            ),
        }
        push_all(
            &mut line,
            &[
                ["; typical pair, ", "；典型一对 "][zh],
                b,
                "/",
                a,
                [": ", "："][zh],
            ],
        );
        // The ends at the cap of 2× either way are only bounds.
        let (low_capped, high_capped) = (low <= 0.5 + 1e-9, high >= 2.0 - 1e-9);
        let low_pct = signed_pct((low - 1.0) * 100.0);
        let high_pct = signed_pct((high - 1.0) * 100.0);
        match (low_capped, high_capped) {
            (true, true) => line.push_str(["no range yet", "尚无范围"][zh]),
            (false, true) => push_all(&mut line, &["≥ ", &low_pct]),
            (true, false) => push_all(&mut line, &["≤ ", &high_pct]),
            (false, false) => push_all(&mut line, &[&low_pct, [" to ", " 到 "][zh], &high_pct]),
        }
        lines.push(line);
    }
    for question in &questions.objectives {
        let share = question.share;
        let (low, high) = questions.objective_interval(question);
        let budget = format_ms(lang, share.budget_ms);
        let mut line = String::new();
        push_all(&mut line, &[label(question.target), [": ", "："][zh]]);
        push_objective(&mut line, lang, share.metric, share.crossing, &budget);
        let count = question.test.count();
        let taken = count.to_string();
        let requests_word = if count == 1 {
            [" request", " 个请求"]
        } else {
            [" requests", " 个请求"]
        };
        let answer = match questions.objective_decision(question) {
            Decision::First => Some([" meets it", " 达标"][zh]),
            Decision::Second => Some([" misses it", " 未达标"][zh]),
            Decision::Open => None,
        };
        match answer {
            Some(answer) => push_all(
                &mut line,
                &[
                    answer.trim_start(),
                    [", after ", "（"][zh],
                    &taken,
                    requests_word[zh],
                    ["", "）"][zh],
                ],
            ),
            None => push_all(
                &mut line,
                &[
                    ["not decided yet after ", ""][zh],
                    &taken,
                    requests_word[zh],
                    ["", "后尚未判定"][zh],
                ],
            ),
        }
        push_all(
            &mut line,
            &[
                ["; within ", "；"][zh],
                &budget,
                [": ", " 以内："][zh],
                &crate::words::format::format_pct(low * 100.0),
                [" to ", " 到 "][zh],
                &crate::words::format::format_pct(high * 100.0),
            ],
        );
        lines.push(line);
    }
    lines
}

/// Appends an objective's words: "p95 under 2 s: ", "中位数不超过 800 毫秒：".
#[cfg_attr(target_arch = "wasm32", inline)]
fn push_objective(text: &mut String, lang: Lang, metric: Metric, crossing: Crossing, budget: &str) {
    let zh = usize::from(lang == Lang::ZhCn);
    let asked = match crossing {
        Crossing::Above => [" at most ", " 不超过 "],
        Crossing::AtOrAbove => [" under ", " 低于 "],
    };
    // Chinese runs on after its own word, with a space only after a
    // Latin one ("中位数不超过", "p95 不超过").
    let (name, asked) = if metric == Metric::Median {
        (
            ["median", "中位数"][zh],
            asked[zh].trim_start_matches(|c| zh == 1 && c == ' '),
        )
    } else {
        (metric.name(), asked[zh])
    };
    push_all(text, &[name, asked, budget, [": ", "："][zh]]);
}

/// A signed whole percentage: "+12 %", "−3 %", "+0 %".
#[cfg_attr(target_arch = "wasm32", inline)]
fn signed_pct(value: f64) -> String {
    let rounded = value.round();
    if rounded < 0.0 {
        format!("−{} %", -rounded)
    } else {
        format!("+{rounded} %")
    }
}

/// Appends each of `pieces` to `text`.
#[cfg_attr(target_arch = "wasm32", inline)]
fn push_all(text: &mut String, pieces: &[&str]) {
    for piece in pieces {
        text.push_str(piece);
    }
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

    /// With a margin, two targets within it are said equivalent (and the
    /// run stops on it), one faster by less than it says both, and a pair
    /// neither told apart nor shown within it says so; in both languages,
    /// at the end and in the live lines.
    #[test]
    fn a_margin_makes_equivalent_a_decision() {
        let plan = Plan {
            targets: vec![Target::demo("A", "m"), Target::demo("B", "m")],
            until_decided: true,
            min_requests_per_target: Some(20),
            equivalent_within_pct: Some(10.0),
            ..Plan::default()
        };
        // B takes 0.98–1.02 of A's time: equivalent within ±10 %.
        let same: Vec<Sample> = (0..200)
            .flat_map(|seq| {
                let b = 300.0 * (1.0 + f64::from(seq % 5) * 0.01 - 0.02);
                [
                    sample(0, seq, 0.0, Some(300.0), false),
                    sample(1, seq, 0.0, Some(b), false),
                ]
            })
            .collect();
        let questions = Questions::replayed(&plan, &same).unwrap();
        assert!(questions.equivalent(&questions.pairs[0]));
        assert_eq!(questions.decision(&questions.pairs[0]), Decision::Open);
        assert!(questions.all_decided());
        let decided_at = (1..=same.len() / 2)
            .find(|&n| {
                Questions::replayed(&plan, &same[..2 * n])
                    .unwrap()
                    .all_decided()
            })
            .unwrap();
        let text = until_decided_text(Lang::En, &plan, &same[..2 * decided_at]).unwrap();
        assert_eq!(
            text,
            format!(
                "decided after {decided_at} requests per target: A and B are equivalent within \
                 ±10 % (anytime-valid 95 %); the tail figures rest on {decided_at} requests per \
                 target, fewer than the 75 a cold-start tail needs"
            )
        );
        assert!(
            until_decided_text(Lang::ZhCn, &plan, &same[..2 * decided_at])
                .unwrap()
                .contains("A 与 B 相当，相差在 ±10 % 以内（随时有效 95 %）")
        );
        let lines = question_lines(Lang::En, &plan, &questions);
        assert!(
            lines[0].starts_with("A vs B: equivalent within ±10 % after 200 pairs;"),
            "{lines:?}"
        );

        // B 5 % slower, steadily: faster, by less than the margin.
        let near: Vec<Sample> = (0..200)
            .flat_map(|seq| {
                [
                    sample(0, seq, 0.0, Some(300.0), false),
                    sample(1, seq, 0.0, Some(315.0), false),
                ]
            })
            .collect();
        let text = until_decided_text(Lang::En, &plan, &near).unwrap();
        assert!(
            text.contains("A is faster than B, by less than ±10 %"),
            "{text}"
        );
        // Far apart and noisy at first: neither.
        let open: Vec<Sample> = (0..20)
            .flat_map(|seq| {
                let wobble = if seq % 2 == 0 { 0.6 } else { 1.6 };
                [
                    sample(0, seq, 0.0, Some(300.0), false),
                    sample(1, seq, 0.0, Some(300.0 * wobble), false),
                ]
            })
            .collect();
        let text = until_decided_text(Lang::En, &plan, &open).unwrap();
        assert!(
            text.contains("A and B not told apart, nor shown within ±10 %"),
            "{text}"
        );
        assert!(
            until_decided_text(Lang::ZhCn, &plan, &open)
                .unwrap()
                .contains("A 与 B 未能区分，也未能证明相差在 ±10 % 以内")
        );
    }

    /// With an objective, the end says each target's answer to it, which
    /// target stopped before the others and after how many requests, and
    /// at the cap which are not decided; in both languages.
    #[test]
    fn a_run_until_decided_says_each_target_s_objective_and_who_stopped_early() {
        let plan = Plan {
            targets: vec![Target::demo("Fast", "m"), Target::demo("Slow", "m")],
            until_decided: true,
            min_requests_per_target: Some(20),
            requests_per_target: 300,
            objectives: vec!["p95>2s".into(), "error_rate>2%".into()],
            ..Plan::default()
        };
        // Slow misses the objective at once and stops at its floor; Fast
        // meets it after some 150 requests.
        let samples: Vec<Sample> = (0..200)
            .flat_map(|seq| {
                let slow = (seq < 20).then(|| sample(1, seq, 0.0, Some(3000.0), false));
                std::iter::once(sample(0, seq, 0.0, Some(300.0), false)).chain(slow)
            })
            .collect();
        assert_eq!(
            until_decided_text(Lang::En, &plan, &samples).unwrap(),
            "decided after 200 requests per target: Fast is faster than Slow (anytime-valid \
             95 %); p95 at most 2 s: Fast meets it, Slow misses it; stopped early: Slow after 20 \
             requests; the tail figures rest on 20 to 200 requests per target, fewer than the 75 \
             a cold-start tail needs"
        );
        assert_eq!(
            until_decided_text(Lang::ZhCn, &plan, &samples).unwrap(),
            "每个目标 200 个请求后已判定：Fast 比 Slow 快（随时有效 95 %）；p95 不超过 2 秒：Fast \
             达标，Slow 未达标；提前停止：Slow 在 20 个请求后；长尾数字只基于每个目标 20 到 200 \
             个请求，少于冷启动长尾所需的 75 个"
        );
        // At the cap of 60: the pair not told apart, neither objective
        // decided; `>=` reads "under".
        let mut capped = plan.clone();
        capped.objectives = vec!["median>=800ms".into()];
        let close: Vec<Sample> = (0..60u32)
            .flat_map(|seq| {
                let jitter = f64::from(seq % 3) * 10.0;
                let (a, b) = if seq.is_multiple_of(2) {
                    (700.0, 900.0)
                } else {
                    (900.0, 700.0)
                };
                [
                    sample(0, seq, 0.0, Some(a + jitter), false),
                    sample(1, seq, 0.0, Some(b - jitter), false),
                ]
            })
            .collect();
        assert_eq!(
            until_decided_text(Lang::En, &capped, &close).unwrap(),
            "not decided after 60 requests per target: Fast and Slow not told apart \
             (anytime-valid 95 %); median under 800 ms: Fast not decided, Slow not decided"
        );
        assert_eq!(
            until_decided_text(Lang::ZhCn, &capped, &close).unwrap(),
            "每个目标 60 个请求后仍未判定：Fast 与 Slow 未能区分（随时有效 95 %）；中位数低于 \
             800 毫秒：Fast 未判定，Slow 未判定"
        );
        // One target and an objective: the question is the objective.
        let solo = Plan {
            targets: vec![Target::demo("Solo", "m")],
            ..plan
        };
        let own: Vec<Sample> = samples.iter().filter(|s| s.target == 0).cloned().collect();
        assert_eq!(
            until_decided_text(Lang::En, &solo, &own).unwrap(),
            "decided after 200 requests per target: p95 at most 2 s: Solo meets it \
             (anytime-valid 95 %)"
        );
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

    /// The live lines say each question's state with its range: open with
    /// a range around 0 while few pairs are in, decided with a range on
    /// one side once clear; an objective with its share's range; in both
    /// languages, and never "faster" beside a range that holds 0.
    #[test]
    fn each_question_is_said_as_it_stands_with_its_range() {
        let plan = Plan {
            targets: vec![Target::demo("Fast", "m"), Target::demo("Slow", "m")],
            until_decided: true,
            objectives: vec!["median>2s".to_owned()],
            ..Plan::default()
        };
        let mut questions = Questions::of(&plan).unwrap();
        let lines = question_lines(Lang::En, &plan, &questions);
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert_eq!(
            lines[0],
            "Fast vs Slow: not decided yet after 0 pairs; typical pair, Slow/Fast: no range yet"
        );
        for seq in 0..100 {
            questions.push(&sample(
                0,
                seq,
                0.0,
                Some(100.0 + f64::from(seq % 9)),
                false,
            ));
            questions.push(&sample(
                1,
                seq,
                0.0,
                Some(300.0 + f64::from(seq % 7)),
                false,
            ));
            let lines = question_lines(Lang::En, &plan, &questions);
            let (low, _) = questions.interval(&questions.pairs[0]);
            assert_eq!(
                lines[0].contains("Fast faster"),
                low >= 1.0,
                "{seq}: {}",
                lines[0]
            );
        }
        let lines = question_lines(Lang::En, &plan, &questions);
        assert!(
            lines[0].starts_with(
                "Fast vs Slow: Fast faster after 100 pairs; typical pair, Slow/Fast: ≥ +"
            ),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].starts_with(
                "Fast: median at most 2 s: meets it, after 100 requests; within 2 s: "
            ),
            "{}",
            lines[1]
        );
        let zh = question_lines(Lang::ZhCn, &plan, &questions);
        assert!(
            zh[0].starts_with("Fast 对 Slow：Fast 更快（100 对请求）；典型一对 Slow/Fast：≥ +"),
            "{}",
            zh[0]
        );
        assert!(zh[2].starts_with("Slow：中位数不超过 2 秒："), "{}", zh[2]);
        assert!(
            question_lines(
                Lang::En,
                &Plan::default(),
                &Questions::of(&Plan {
                    until_decided: true,
                    ..Plan::default()
                })
                .unwrap()
            )
            .is_empty()
        );
    }
}
