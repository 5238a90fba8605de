//! The generated suite: properties of every decision checked over random
//! plans and random runs, through [`build_report_with`], the function both
//! adapters call, instead of hand-picked cases.
//!
//! A **world** is a plan and every reply to it: 2–4 targets of one model,
//! 75–110 measured requests each, with or without prompt sizes (and a
//! typical size at, between or beyond them), the cache probe, fidelity
//! probes, warm-ups, a time-of-day split, idle gaps and a TTFT budget; the
//! replies come from a provider per target with its own median, warm noise
//! (lognormal or heavy-tailed log-t₃), cold starts, timeouts and errors,
//! and some requests are left unsent (unequal counts). An **edit** makes
//! one measured first send of one target worse: ×1.02–×100 slower (a
//! timeout past the plan's timeout), a cold start (×10–30), a timeout, an
//! error; or adds one more request to it that timed out or failed.
//!
//! # Properties
//!
//! 1. **No edit improves its target**: its slow count, its rank in its
//!    model's table, and whether it is the pick never get better; its
//!    verdict and tail band never get better either, except for a request
//!    made slower *inside* the warm cluster, which can lower a CV (the one
//!    thing a CV band cannot promise, `crate::judgement::slow`): those
//!    are counted and printed, not asserted.
//! 2. **A steady provider's headline ignores other populations**: covered
//!    by `metamorphic.rs` (plan options added around the same requests).
//! 3. **Every printed reading lies inside its printed interval, no printed
//!    duration is negative, and the text and the JSON say the same rule
//!    and pick.** Checked on every world's report in both languages.
//! 4. **No sentence denies the table beside it**: a target whose prompt
//!    cache table shows hits starting sooner than misses is never said to
//!    have "no cache effect"; each model's table ranks first the target its
//!    sentences pick; a target said to have no successful request has no
//!    median in any table. Checked with property 3. Sized worlds may give
//!    a provider a prompt cache it reports (repeats only, or, with the
//!    nonce off, first sends too).
//!
//! Left out of each case: bootstrap intervals are drawn with 8 resamples
//! (the decisions checked here read none of them; the CV's interval is
//! the only bootstrap in a report), and the outline is read for the
//! worlds, not for every edit.
//!
//! `make test` runs [`DEFAULT_CASES`] edits; `FIRSTTOKEN_GENERATED_CASES`
//! sets another count (`make test-deep` runs ten times as many). Each
//! property was seen to fail with its rule broken on purpose (docs/statistics.md
//! says which way).

#![cfg(test)]

use crate::base::failure::{ErrorKind, Phase, SampleError};
use crate::base::lang::Lang;
use crate::judgement::report::{Report, build_report_with};
use crate::judgement::verdict::Verdict;
use crate::narrative::sentences::Said;
use crate::outline::results::Part;
use crate::outline::{Block, Notes, Section, Show};
use crate::planning::plan::{FidelityPlan, Plan, Target};
use crate::planning::schedule::Schedule;
use crate::wire::sample::Sample;

/// Edits checked by `make test`.
const DEFAULT_CASES: usize = 10_000;

/// Edits per world: one world's report is shared by this many edits.
const EDITS_PER_WORLD: usize = 8;

/// Epoch ms of every run's start: a Tuesday, 09:00 UTC.
const START_MS: f64 = 1.8e12;

/// Resamples of the CV's bootstrap in each case (see the module doc).
const RESAMPLES: usize = 8;

/// One target's provider.
#[derive(Clone, Copy, Debug)]
pub(super) struct Provider {
    pub(super) median_ms: f64,
    /// Log-scale spread of the warm requests.
    pub(super) sigma: f64,
    /// Warm noise from a log-t₃ (heavy-tailed) instead of a lognormal.
    pub(super) heavy: bool,
    pub(super) cold_share: f64,
    pub(super) cold_factor: f64,
    pub(super) timeout_share: f64,
    pub(super) error_share: f64,
    /// Prefill rate, input tokens per second.
    pub(super) rate: f64,
}

pub(super) fn normal(rng: &mut fastrand::Rng) -> f64 {
    let (u1, u2) = (1.0 - rng.f64(), rng.f64());
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Student's t with 3 degrees of freedom: a normal over √(χ²₃ / 3).
pub(super) fn student_t3(rng: &mut fastrand::Rng) -> f64 {
    let chi: f64 = (0..3).map(|_| normal(rng).powi(2)).sum();
    normal(rng) / (chi / 3.0).sqrt().max(1e-6)
}

pub(super) fn provider(rng: &mut fastrand::Rng) -> Provider {
    let pick = |rng: &mut fastrand::Rng, choices: &[f64]| choices[rng.usize(..choices.len())];
    Provider {
        median_ms: 150.0 + 650.0 * rng.f64(),
        sigma: pick(rng, &[0.05, 0.15, 0.3, 0.5, 0.7]),
        heavy: rng.bool(),
        cold_share: pick(rng, &[0.0, 0.0, 0.02, 0.05, 0.15]),
        cold_factor: 5.0 + 25.0 * rng.f64(),
        timeout_share: pick(rng, &[0.0, 0.0, 0.01, 0.03]),
        error_share: pick(rng, &[0.0, 0.0, 0.01, 0.04, 0.08]),
        rate: 3_000.0 + 30_000.0 * rng.f64(),
    }
}

/// A random plan (see the module doc).
pub(super) fn plan(rng: &mut fastrand::Rng) -> Plan {
    let targets = 2 + rng.usize(..3);
    let mut plan = Plan {
        targets: (0..targets)
            .map(|i| {
                let label = ["A", "B", "C", "D"][i];
                Target::openai(label, &format!("https://{label}.example/v1"), "m")
            })
            .collect(),
        requests_per_target: 75 + rng.u32(..36),
        warmup_per_target: rng.u32(..3),
        timeout_s: [30.0, 60.0, 120.0][rng.usize(..3)],
        ..Plan::default()
    };
    if rng.u8(..3) == 0 {
        let all = [128, 512, 2_048, 8_192, 16_384];
        let mut sizes: Vec<u32> = all.iter().copied().filter(|_| rng.bool()).collect();
        if sizes.len() < 2 {
            sizes = vec![128, 2_048];
        }
        plan.prompt_sizes = Some(sizes.clone());
        plan.prompt_cache_probe = rng.u8(..4) == 0;
        plan.typical_prompt_tokens = match rng.u8(..4) {
            0 => None,
            1 => Some(sizes[rng.usize(..sizes.len())]),
            2 => Some(sizes[0] + rng.u32(..sizes[sizes.len() - 1] - sizes[0])),
            _ => Some(65_536),
        };
        // Enough requests that every size has some.
        plan.requests_per_target =
            plan.requests_per_target * crate::planning::prompt::cycle(&plan).len() as u32 / 2;
    }
    if rng.u8(..8) == 0 {
        plan.fidelity = Some(FidelityPlan::basic(Some("A".to_owned())));
    }
    if rng.u8(..3) == 0 {
        plan.peak_hours = [9, 11];
    }
    if rng.u8(..5) == 0 {
        plan.idle_gaps_s = Some(vec![1.0, 10.0, 60.0]);
    }
    if rng.u8(..5) == 0 {
        plan.ttft_budget_ms = Some(500.0 + 2_000.0 * rng.f64());
    }
    if rng.bool() {
        plan.targets.reverse();
    }
    plan
}

/// `sample` made into a timeout of `timeout_ms`.
fn time_out(sample: &mut Sample, timeout_ms: f64) {
    sample.ttft_ms = None;
    sample.second_token_ms = None;
    sample.total_ms = Some(timeout_ms);
    sample.error = Some(SampleError {
        kind: ErrorKind::Timeout,
        phase: Phase::BeforeFirstToken,
        message: "no first token within the timeout".to_owned(),
    });
}

/// `sample` made into a failure before the first token.
fn fail(sample: &mut Sample) {
    sample.ttft_ms = None;
    sample.second_token_ms = None;
    sample.total_ms = Some(40.0);
    sample.error = Some(SampleError {
        kind: ErrorKind::HttpStatus,
        phase: Phase::Request,
        message: "HTTP 503 from provider".to_owned(),
    });
}

/// `sample` answered after `ttft_ms` (a timeout past `timeout_ms`).
fn answer(sample: &mut Sample, ttft_ms: f64, timeout_ms: f64) {
    if ttft_ms >= timeout_ms {
        time_out(sample, timeout_ms);
        return;
    }
    sample.error = None;
    sample.ttft_ms = Some(ttft_ms);
    sample.headers_ms = Some(ttft_ms * 0.6);
    sample.first_byte_ms = Some(ttft_ms * 0.9);
    sample.second_token_ms = Some(ttft_ms + 20.0);
    sample.total_ms = Some(ttft_ms + 400.0);
    sample.output_tokens = Some(20);
}

/// Every reply to `plan` from `providers`, some requests left unsent.
fn replies(plan: &Plan, providers: &[Provider], rng: &mut fastrand::Rng) -> Vec<Sample> {
    let timeout_ms = plan.timeout_s * 1000.0;
    let unsent = rng.u8(..3) == 0;
    let schedule = Schedule::new(plan, START_MS, rng.u64(..));
    let sent: Vec<_> = schedule
        .requests
        .iter()
        .filter(|planned| !(unsent && !planned.warmup && rng.u8(..10) == 0))
        .collect();
    sent.into_iter()
        .map(|planned| {
            let p = providers[planned.target as usize];
            let mut sample = crate::testing::fixtures::planned_sample(planned);
            let tokens = planned.sized_prompt.map_or(30, |s| s.tokens);
            sample.input_tokens = Some(tokens);
            let noise = if p.heavy {
                p.sigma * student_t3(rng)
            } else {
                p.sigma * normal(rng)
            };
            let mut ttft = (p.median_ms + f64::from(tokens) * 1_000.0 / p.rate) * noise.exp();
            if planned.sized_prompt.is_some_and(|s| s.repeat_of.is_some()) {
                ttft *= 0.5;
            }
            if sample.warmup || rng.f64() < p.cold_share {
                ttft *= p.cold_factor;
            }
            let roll = rng.f64();
            if roll < p.timeout_share {
                time_out(&mut sample, timeout_ms);
            } else if roll < p.timeout_share + p.error_share {
                fail(&mut sample);
            } else {
                answer(&mut sample, ttft, timeout_ms);
            }
            sample
        })
        .collect()
}

/// The ways one request of a target is made worse.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Edit {
    Slower(f64),
    Cold(f64),
    Timeout,
    Error,
    AddTimeout,
    AddError,
}

/// What each edit is checked against: a target's own decisions.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Decisions {
    verdict: Option<Verdict>,
    tail_band: Verdict,
    slow: usize,
    /// Its place in its model's table, 1 for the best.
    rank: usize,
    picked: bool,
}

fn decisions(report: &Report, target: u32) -> Decisions {
    let own = &report.targets[target as usize];
    let row = report
        .models
        .iter()
        .flat_map(|m| m.rows.iter())
        .find(|row| row.figures.target == target);
    Decisions {
        verdict: own.verdict,
        tail_band: own.tail_band,
        slow: own.slow.map_or(0, |s| s.slow),
        rank: row.map_or(usize::MAX, |row| row.rank),
        picked: report.models.iter().any(|m| m.best == Some(target)),
    }
}

/// Property 3 on one report, in `lang`: readings inside their intervals,
/// no negative duration anywhere in the outline, the rule and the pick
/// alike in the text and the JSON. Returns what failed, if anything.
fn printed_truthfully(plan: &Plan, samples: &[Sample], report: &Report, lang: Lang) -> Vec<String> {
    let mut wrong = Vec::new();
    for row in report.models.iter().flat_map(|m| m.rows.iter()) {
        if let Some(typical) = row.figures.typical {
            let inside =
                typical.interval.low <= typical.ttft_ms && typical.ttft_ms <= typical.interval.high;
            if !inside {
                wrong.push(format!("typical reading outside its interval: {typical:?}"));
            }
        }
    }
    for target in &report.targets {
        if let (Some(ttft), Some(intervals)) = (target.ttft, target.intervals) {
            for (name, value, interval) in [
                ("median", ttft.median, intervals.median_ms),
                ("p95", ttft.p95, intervals.p95_ms),
            ] {
                if !(interval.low <= value && value <= interval.high) {
                    wrong.push(format!("{name} {value} outside {interval:?}"));
                }
            }
        }
    }
    let routing = report.routing_in(lang);
    for (model, route) in report.models.iter().zip(&routing.routes) {
        if route.rule != model.rule(lang) {
            wrong.push(format!("rule: {} against {}", route.rule, model.rule(lang)));
        }
        if route.target != model.best {
            wrong.push(format!("pick: {:?} against {:?}", route.target, model.best));
        }
    }
    let sentences = crate::narrative::sentences::report_sentences(report, lang);
    let prefill = crate::judgement::prefill_report::prefill_report(plan, samples, report.seed);
    let outline = crate::outline::results::results_outline(
        lang,
        report,
        &sentences,
        prefill.as_ref(),
        plan.nonce,
    );
    let text = format!("{outline:?}");
    for model in &report.models {
        if !text.contains(&model.rule(lang)) {
            wrong.push("the outline does not print the rule applied".to_owned());
        }
    }
    if let Some(negative) = negative_duration(&text) {
        wrong.push(format!("a negative duration is printed: …{negative}…"));
    }
    wrong.extend(denials(report, &outline, lang));
    wrong
}

/// Property 4 on one outline: the sentences that deny a table beside them
/// (see the module doc), each with what it denies.
fn denials(report: &Report, outline: &[Part], lang: Lang) -> Vec<String> {
    let sections: Vec<&Section> = outline
        .iter()
        .filter_map(|part| match part {
            Part::Section(section) => Some(section),
            _ => None,
        })
        .collect();
    let target_of = |data: &[(&str, String)]| {
        data.iter()
            .find(|(name, _)| *name == "data-target")
            .and_then(|(_, value)| value.parse::<u32>().ok())
    };
    let value =
        |values: &[Option<String>], i: usize| values.get(i)?.as_deref()?.parse::<f64>().ok();
    // Every sentence about one target, wherever it stands.
    let said_of = |target: u32| -> Vec<String> {
        sections
            .iter()
            .flat_map(|section| section.notes())
            .filter(|said| said.target == target)
            .map(|said| said.text)
            .collect()
    };
    let mut wrong = Vec::new();
    // The prompt cache's table against "no cache effect".
    let no_effect = match lang {
        Lang::En => "no cache effect",
        Lang::ZhCn => "没有显示出缓存效果",
    };
    for section in sections.iter().filter(|s| s.kind == "prompt-cache") {
        for row in section.tables().flat_map(|t| t.rows.iter()) {
            let Some(target) = target_of(&row.data) else {
                continue;
            };
            let (share, hits_ms, misses_ms) = (
                value(&row.values, 2),
                value(&row.values, 3),
                value(&row.values, 4),
            );
            let visible = matches!(
                (share, hits_ms, misses_ms),
                (Some(share), Some(hits), Some(misses)) if share >= 0.5 && hits <= 0.75 * misses
            );
            if visible {
                for text in said_of(target).iter().filter(|t| t.contains(no_effect)) {
                    wrong.push(format!(
                        "target {target}: \"{text}\" beside a cache table of hits {hits_ms:?} ms \
                         against misses {misses_ms:?} ms ({share:?} hits)"
                    ));
                }
            }
        }
    }
    // Each model's table ranks first the target its sentences pick.
    for (model, section) in report.models.iter().zip(
        sections
            .iter()
            .filter(|s| s.kind == crate::outline::comparison::MODEL_BLOCK),
    ) {
        let first = section
            .tables()
            .next()
            .and_then(|table| table.rows.first())
            .and_then(|row| target_of(&row.data));
        if let (Some(best), Some(first)) = (model.best, first)
            && best != first
        {
            wrong.push(format!(
                "the table ranks target {first} first, the sentences pick {best}"
            ));
        }
    }
    // A target without a successful request has no median in a table.
    let without: Vec<u32> = sections
        .iter()
        .filter(|s| s.kind == crate::outline::comparison::NO_SUCCESS)
        .flat_map(|s| s.notes())
        .map(|said| said.target)
        .collect();
    for section in sections
        .iter()
        .filter(|s| s.kind == crate::outline::comparison::MODEL_BLOCK)
    {
        for row in section.tables().flat_map(|t| t.rows.iter()) {
            if let Some(target) = target_of(&row.data)
                && without.contains(&target)
                && row
                    .values
                    .iter()
                    .flatten()
                    .any(|v| v.parse::<f64>().is_ok())
            {
                wrong.push(format!(
                    "target {target} is said to have no successful request beside its figures {:?}",
                    row.cells
                ));
            }
        }
    }
    wrong
}

/// The first "-12.3 ms"-like duration in `text`, with its surroundings.
fn negative_duration(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    for (at, _) in text.match_indices('-') {
        let number: String = text[at + 1..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ' ')
            .collect();
        let rest = &text[at + 1 + number.len()..];
        let preceded_by_word = at > 0 && bytes[at - 1].is_ascii_alphanumeric();
        let has_digit = number.chars().next().is_some_and(|c| c.is_ascii_digit());
        let unit = ["ms", "s ", "s,", "s)", "s;", "毫秒", "秒"]
            .iter()
            .any(|u| rest.starts_with(u));
        if has_digit && unit && !preceded_by_word && number.ends_with(' ') {
            let start = text[..at]
                .char_indices()
                .rev()
                .nth(30)
                .map_or(0, |(i, _)| i);
            let end = (at + 40).min(text.len());
            let end = (end..=text.len())
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(text.len());
            return Some(text[start..end].to_owned());
        }
    }
    None
}

/// A copy of `samples` with `edit` applied to target `target`'s measured
/// first send `index` (an index into `samples`).
fn edited(samples: &[Sample], index: usize, edit: Edit, timeout_ms: f64) -> Vec<Sample> {
    let mut out = samples.to_vec();
    let ttft = out[index].ttft_ms;
    match edit {
        Edit::Slower(factor) | Edit::Cold(factor) => {
            if let Some(ms) = ttft {
                answer(&mut out[index], ms * factor, timeout_ms);
            }
        }
        Edit::Timeout => time_out(&mut out[index], timeout_ms),
        Edit::Error => fail(&mut out[index]),
        Edit::AddTimeout | Edit::AddError => {
            let mut extra = out[index].clone();
            extra.seq = out.iter().map(|s| s.seq).max().unwrap_or(0) + 1;
            extra.sent_at_ms += 1.0;
            extra.planned_at_ms += 1.0;
            if edit == Edit::AddTimeout {
                time_out(&mut extra, timeout_ms);
            } else {
                fail(&mut extra);
            }
            out.push(extra);
        }
    }
    out
}

/// How often each property held, over `cases` edits from `seed`.
#[derive(Debug, Default)]
struct Tally {
    cases: usize,
    worlds: usize,
    slow_count_fell: usize,
    rank_rose: usize,
    became_pick: usize,
    verdict_improved: usize,
    tail_band_improved: usize,
    /// Verdict or tail band improved by a request made slower inside the
    /// warm cluster (not a promise; printed).
    within_cluster_improved: usize,
    within_cluster: usize,
    untruthful: Vec<String>,
    failures: Vec<String>,
    /// Slow counts that fell, and ranks that rose with them: the slow
    /// rule's threshold is an order statistic of the target's own
    /// requests, which a request made slower below it can raise, and which
    /// stops at the fastest request when most of the run is slow
    /// (docs/statistics.md; measured and bounded, not a promise).
    slow_rule_gaps: Vec<String>,
    /// Of those, edits that put a failure or a timeout at the top ranks.
    failures_to_the_top: usize,
}

/// What a sized world's provider does with a repeated prompt.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Cache {
    /// No cache figure reported.
    Silent,
    /// Reports `cached_tokens`: hits on the probe's repeats only.
    Repeats,
    /// Reports `cached_tokens`, and with the nonce off serves every send of
    /// a prompt seen before from its cache, first sends of later cycles
    /// too, at half the TTFT.
    Everything,
}

/// Gives each target of a sized plan a prompt cache (drawn from `rng`, a
/// generator of its own so the worlds before it stay as they were) and
/// writes what its provider reports into `samples`; may turn the plan's
/// nonce off.
fn with_caches(plan: &mut Plan, samples: &mut [Sample], rng: &mut fastrand::Rng) {
    if plan.prompt_sizes.is_none() {
        return;
    }
    let caches: Vec<Cache> = plan
        .targets
        .iter()
        .map(|_| [Cache::Silent, Cache::Repeats, Cache::Everything][rng.usize(..3)])
        .collect();
    if caches.contains(&Cache::Everything) && rng.bool() {
        plan.nonce = false;
    }
    let mut seen = std::collections::HashSet::new();
    for sample in samples.iter_mut().filter(|s| !s.is_probe()) {
        let Some(sized) = sample.sized_prompt else {
            continue;
        };
        let cache = caches[sample.target as usize];
        let first_seen = seen.insert((sample.target, sized.tokens));
        let hit = match cache {
            Cache::Silent => continue,
            Cache::Repeats => sized.repeat_of.is_some(),
            Cache::Everything => sized.repeat_of.is_some() || (!plan.nonce && !first_seen),
        };
        if hit && sized.repeat_of.is_none() {
            // A first send the cache served: as fast as a repeat.
            sample.ttft_ms = sample.ttft_ms.map(|ms| ms * 0.5);
        }
        sample.cached_tokens = Some(if hit { sized.tokens } else { 0 });
    }
}

fn run_suite(cases: usize, seed: u64) -> Tally {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut caching = fastrand::Rng::with_seed(seed.wrapping_add(1));
    let mut tally = Tally::default();
    while tally.cases < cases {
        let mut plan = plan(&mut rng);
        let providers: Vec<Provider> = plan.targets.iter().map(|_| provider(&mut rng)).collect();
        let mut samples = replies(&plan, &providers, &mut rng);
        with_caches(&mut plan, &mut samples, &mut caching);
        let timeout_ms = plan.timeout_s * 1000.0;
        let before = build_report_with(&plan, &samples, 0, 7, RESAMPLES);
        tally.worlds += 1;
        if tally.worlds % 4 == 1 {
            for lang in [Lang::En, Lang::ZhCn] {
                tally
                    .untruthful
                    .extend(printed_truthfully(&plan, &samples, &before, lang));
            }
        }
        for _ in 0..EDITS_PER_WORLD {
            let target = rng.u32(..plan.targets.len() as u32);
            // Any measured first send of the target: the headline's, or
            // another size's (which the typical reading may read).
            let own: Vec<usize> = samples
                .iter()
                .enumerate()
                .filter(|(_, s)| {
                    s.target == target
                        && !s.warmup
                        && !s.is_probe()
                        && s.sized_prompt.is_none_or(|p| p.repeat_of.is_none())
                })
                .map(|(i, _)| i)
                .collect();
            if own.is_empty() {
                continue;
            }
            let index = own[rng.usize(..own.len())];
            let edit = match rng.u8(..6) {
                0 => Edit::Slower(1.02 + 0.5 * rng.f64()),
                1 => Edit::Slower(1.5 + 98.5 * rng.f64()),
                2 => Edit::Cold(10.0 + 20.0 * rng.f64()),
                3 => Edit::Timeout,
                4 => Edit::Error,
                _ => {
                    if rng.bool() {
                        Edit::AddTimeout
                    } else {
                        Edit::AddError
                    }
                }
            };
            let changed = edited(&samples, index, edit, timeout_ms);
            let after = build_report_with(&plan, &changed, 0, 7, RESAMPLES);
            tally.cases += 1;
            let (b, a) = (decisions(&before, target), decisions(&after, target));
            let context = || {
                format!(
                    "world {} edit {edit:?} of target {target}: {b:?} → {a:?}",
                    tally.worlds
                )
            };
            // Inside the warm cluster: the edited request stays under its
            // target's slow threshold.
            let within = match (
                edit,
                samples[index].ttft_ms,
                before.targets[target as usize].slow,
            ) {
                (Edit::Slower(f), Some(ms), Some(slow)) => ms * f <= slow.threshold_ms,
                (Edit::Slower(_), Some(_), None) => true,
                _ => false,
            };
            tally.within_cluster += usize::from(within);
            // A failure in place of a request, or one more, goes to the top
            // ranks; counted apart in the printout.
            let to_the_top = matches!(
                edit,
                Edit::Timeout | Edit::Error | Edit::AddTimeout | Edit::AddError
            );
            if a.slow < b.slow && before.population.contains(&samples[index]) {
                tally.slow_count_fell += 1;
                tally.failures_to_the_top += usize::from(to_the_top);
                tally
                    .slow_rule_gaps
                    .push(format!("slow count fell: {}", context()));
            }
            if a.rank < b.rank {
                tally.rank_rose += 1;
                tally.failures_to_the_top += usize::from(to_the_top);
                tally
                    .slow_rule_gaps
                    .push(format!("rank rose: {}", context()));
            }
            if a.picked && !b.picked {
                tally.became_pick += 1;
                tally
                    .failures
                    .push(format!("became the pick: {}", context()));
            }
            let improved = |after: Option<Verdict>, before: Option<Verdict>| match (after, before) {
                (Some(a), Some(b)) => a < b,
                _ => false,
            };
            let verdict_better = improved(a.verdict, b.verdict);
            let band_better = a.tail_band < b.tail_band;
            if within {
                tally.within_cluster_improved += usize::from(verdict_better || band_better);
            } else {
                if verdict_better {
                    tally.verdict_improved += 1;
                    tally
                        .failures
                        .push(format!("verdict improved: {}", context()));
                }
                if band_better && before.population.contains(&samples[index]) {
                    tally.tail_band_improved += 1;
                    tally
                        .failures
                        .push(format!("tail band improved: {}", context()));
                }
            }
        }
    }
    tally
}

fn cases_from_env(default: usize) -> usize {
    std::env::var("FIRSTTOKEN_GENERATED_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn generated_edits_rarely_move_a_decision_and_never_an_untruthful_print() {
    let cases = cases_from_env(DEFAULT_CASES);
    let started = std::time::Instant::now();
    let tally = run_suite(cases, 47);
    let pct = |k: usize, of: usize| 100.0 * k as f64 / of.max(1) as f64;
    println!(
        "generated suite: {} edits over {} worlds in {:.1} s; slow count fell {}, rank rose {}, \
         became the pick {}, verdict improved {}, tail band improved {}; inside the warm \
         cluster {} edits, verdict or tail band improved in {} ({:.2} %, not a promise); \
         edits that lowered a slow count or raised a rank: {} ({:.2} %; {} of them a failure \
         or a timeout); untruthful prints {}",
        tally.cases,
        tally.worlds,
        started.elapsed().as_secs_f64(),
        tally.slow_count_fell,
        tally.rank_rose,
        tally.became_pick,
        tally.verdict_improved,
        tally.tail_band_improved,
        tally.within_cluster,
        tally.within_cluster_improved,
        pct(tally.within_cluster_improved, tally.within_cluster),
        tally.slow_rule_gaps.len(),
        pct(tally.slow_rule_gaps.len(), tally.cases),
        tally.failures_to_the_top,
        tally.untruthful.len(),
    );
    for gap in tally.slow_rule_gaps.iter().take(3) {
        println!("  slow rule gap: {gap}");
    }
    for failure in tally.failures.iter().take(3) {
        println!("  {failure}");
    }
    // The slow rule's gaps, and what they carry into the verdict, the tail
    // band and the pick, are measured and bounded, not promised (measured:
    // docs/statistics.md). No edit made its target the pick in 10 000; in
    // 100 000, 3 did, each through a slow count that fell.
    assert!(
        pct(tally.slow_rule_gaps.len(), tally.cases) <= 0.5,
        "{:?}",
        &tally.slow_rule_gaps[..tally.slow_rule_gaps.len().min(5)]
    );
    assert!(
        pct(tally.became_pick, tally.cases) <= 0.01,
        "{:?}",
        tally.failures
    );
    assert!(
        pct(
            tally.verdict_improved + tally.tail_band_improved,
            tally.cases
        ) <= 0.02,
        "{} failures, first: {:?}",
        tally.failures.len(),
        &tally.failures[..tally.failures.len().min(5)]
    );
    assert!(
        tally.untruthful.is_empty(),
        "{:?}",
        &tally.untruthful[..tally.untruthful.len().min(5)]
    );
}

#[test]
fn the_negative_duration_scan_finds_one() {
    assert!(negative_duration("lies off the fitted line (-18.7 ms, 331 ms)").is_some());
    assert!(negative_duration("lies off the fitted line (below 0 ms, 331 ms)").is_none());
    assert!(negative_duration("128–2 048 tokens, 1.2 s–3 s").is_none());
    assert!(negative_duration("TTFT 中位数 -3 毫秒").is_some());
}

/// Two steady providers of one model measured at 128 and 2 048 tokens,
/// 80 first sends of each size: `fast` answers in `fast_ms`, `slow` in
/// `slow_ms`, both with 5 % lognormal noise.
fn sized_pair(typical: u32, fast_ms: f64, slow_ms: f64, seed: u64) -> (Plan, Vec<Sample>) {
    let mut plan = Plan {
        targets: vec![
            Target::openai("A", "https://a.example/v1", "m"),
            Target::openai("B", "https://b.example/v1", "m"),
        ],
        requests_per_target: 160,
        warmup_per_target: 0,
        prompt_sizes: Some(vec![128, 2_048]),
        typical_prompt_tokens: Some(typical),
        ..Plan::default()
    };
    plan.nonce = true;
    let steady = |median_ms| Provider {
        median_ms,
        sigma: 0.05,
        heavy: false,
        cold_share: 0.0,
        cold_factor: 1.0,
        timeout_share: 0.0,
        error_share: 0.0,
        rate: 1e9,
    };
    let mut rng = fastrand::Rng::with_seed(seed);
    let samples = replies(&plan, &[steady(fast_ms), steady(slow_ms)], &mut rng);
    (plan, samples)
}

/// The first sends of `target` at `tokens`, by index into `samples`, in
/// the order of their TTFT.
fn first_sends_at(samples: &[Sample], target: u32, tokens: u32) -> Vec<usize> {
    let mut own: Vec<usize> = (0..samples.len())
        .filter(|&i| {
            let s = &samples[i];
            s.target == target
                && s.sized_prompt
                    .is_some_and(|p| p.tokens == tokens && p.repeat_of.is_none())
        })
        .collect();
    own.sort_by(|&a, &b| {
        samples[a]
            .ttft_ms
            .unwrap_or(f64::INFINITY)
            .total_cmp(&samples[b].ttft_ms.unwrap_or(f64::INFINITY))
    });
    own
}

/// The first counterexample: three warm requests of A just above
/// its median at the typical size turned into cold starts lowered A's
/// warm-only median there and made it the pick beside "not ready". Now
/// the reading counts every request, the slow share ranks first, and A
/// stays behind B in every seed.
#[test]
fn cold_starts_at_the_typical_size_never_make_a_target_the_pick() {
    let mut a_was_the_pick = 0;
    for seed in 0..20 {
        // A and B alike: either may be the pick before.
        let (plan, samples) = sized_pair(2_048, 400.0, 400.0, seed);
        let before = build_report_with(&plan, &samples, 0, 7, RESAMPLES);
        a_was_the_pick += usize::from(before.models[0].best == Some(0));
        let own = first_sends_at(&samples, 0, 2_048);
        let mut changed = samples.clone();
        for &index in &own[own.len() / 2..own.len() / 2 + 3] {
            let ms = changed[index].ttft_ms.unwrap_or(400.0);
            answer(&mut changed[index], ms * 12.0, plan.timeout_s * 1000.0);
        }
        let after = build_report_with(&plan, &changed, 0, 7, RESAMPLES);
        assert_eq!(after.models[0].best, Some(1), "seed {seed}");
        let a = &after.targets[0];
        assert!(
            a.slow.is_some_and(|s| s.slow >= 3),
            "seed {seed}: {:?}",
            a.slow
        );
        let typical = after.models[0]
            .rows
            .iter()
            .find(|r| r.figures.target == 0)
            .and_then(|r| r.figures.typical)
            .unwrap();
        let was = before.models[0]
            .rows
            .iter()
            .find(|r| r.figures.target == 0)
            .and_then(|r| r.figures.typical)
            .unwrap();
        assert!(
            typical.ttft_ms >= was.ttft_ms,
            "seed {seed}: the reading fell"
        );
    }
    // The worlds hold both cases: A the pick before, and B.
    assert!((3..=17).contains(&a_was_the_pick), "{a_was_the_pick}");
}

/// The second counterexample: when every request at the typical
/// size timed out, the headline passed over that size and read "solid".
/// Now the size stays the headline: the target has no successful request,
/// is said in its own section, is not the pick, and no sentence reads a
/// TTFT at that size from the others.
#[test]
fn a_typical_size_that_timed_out_is_not_passed_over() {
    let (plan, samples) = sized_pair(2_048, 300.0, 400.0, 3);
    let mut changed = samples.clone();
    for index in first_sends_at(&samples, 0, 2_048) {
        time_out(&mut changed[index], plan.timeout_s * 1000.0);
    }
    let report = build_report_with(&plan, &changed, 0, 7, RESAMPLES);
    assert_eq!(
        report.population,
        crate::judgement::population::Population::Size(2_048)
    );
    let a = &report.targets[0];
    assert_ne!(a.verdict, Some(Verdict::Solid), "{:?}", a.verdict);
    assert_eq!(report.models[0].best, Some(1));
    let prefill = crate::judgement::prefill_report::prefill_report(&plan, &changed, 7).unwrap();
    for lang in [Lang::En, Lang::ZhCn] {
        let lines = crate::narrative::prefill::lines(lang, &prefill);
        let said: Vec<&String> = lines
            .iter()
            .filter(|(label, _)| label == "A")
            .map(|(_, s)| s)
            .collect();
        assert!(
            said.iter()
                .all(|s| !s.contains("about 3") && !s.contains("read from")),
            "{said:?}"
        );
    }
    let en = crate::narrative::prefill::lines(Lang::En, &prefill);
    assert!(
        en.iter()
            .any(|(label, s)| label == "A" && s.contains("at 2 048 input tokens (≥ ")),
        "{en:?}"
    );
}

/// The issue's third counterexample: the printed rule said "over 3× the
/// model's pooled median" while the route counted each target's own
/// threshold. Now the rule is made from what the ranking applies, and the
/// routing JSON carries the same text.
#[test]
fn the_printed_rule_is_the_rule_applied() {
    let (plan, samples) = sized_pair(4_096, 300.0, 400.0, 5);
    let report = build_report_with(&plan, &samples, 0, 7, RESAMPLES);
    let model = &report.models[0];
    for lang in [Lang::En, Lang::ZhCn] {
        let rule = model.rule(lang);
        assert_eq!(report.routing_in(lang).routes[0].rule, rule);
        assert!(!rule.contains("pooled") && !rule.contains("合并"), "{rule}");
    }
    let en = model.rule(Lang::En);
    assert!(
        en.contains("each target's own: over 3× its warm reference"),
        "{en}"
    );
    assert!(en.contains("the typical 4 096 input tokens"), "{en}");
    let json: serde_json::Value = serde_json::from_str(&report.routing.to_json()).unwrap();
    assert_eq!(json["routes"][0]["rule"], en);
    let budget = Plan {
        ttft_budget_ms: Some(800.0),
        typical_prompt_tokens: None,
        ..plan
    };
    let report = build_report_with(&budget, &samples, 0, 7, RESAMPLES);
    let rule = report.models[0].rule(Lang::En);
    assert!(rule.contains("over the TTFT budget of 800 ms"), "{rule}");
    assert!(!rule.contains("typical"), "{rule}");
}

/// Property 4's check at work: over sized worlds with caches, how often a
/// cache table shows an effect and a size's line says "no cache effect"
/// anyway (printed); then the same outlines made to deny their tables,
/// which the check must catch every time.
#[test]
fn a_sentence_that_denies_its_table_is_found() {
    let mut rng = fastrand::Rng::with_seed(11);
    let mut caching = fastrand::Rng::with_seed(12);
    let (mut worlds, mut visible, mut tried, mut caught) = (0, 0, 0, 0);
    while worlds < 60 {
        let mut plan = plan(&mut rng);
        if plan.prompt_sizes.is_none() {
            continue;
        }
        plan.prompt_cache_probe = true;
        let providers: Vec<Provider> = plan.targets.iter().map(|_| provider(&mut rng)).collect();
        let mut samples = replies(&plan, &providers, &mut rng);
        with_caches(&mut plan, &mut samples, &mut caching);
        let report = build_report_with(&plan, &samples, 0, 7, RESAMPLES);
        worlds += 1;
        for lang in [Lang::En, Lang::ZhCn] {
            let sentences = crate::narrative::sentences::report_sentences(&report, lang);
            let prefill =
                crate::judgement::prefill_report::prefill_report(&plan, &samples, report.seed);
            let mut outline = crate::outline::results::results_outline(
                lang,
                &report,
                &sentences,
                prefill.as_ref(),
                plan.nonce,
            );
            assert_eq!(
                denials(&report, &outline, lang),
                Vec::<String>::new(),
                "world {worlds}"
            );
            // Each target whose cache table shows an effect, said to have none.
            let shown: Vec<u32> = outline
                .iter()
                .filter_map(|part| match part {
                    Part::Section(s) if s.kind == "prompt-cache" => Some(s),
                    _ => None,
                })
                .flat_map(|s| s.tables().flat_map(|t| t.rows.clone()).collect::<Vec<_>>())
                .filter(|row| {
                    let v = |i: usize| row.values.get(i).cloned().flatten().and_then(|v| v.parse::<f64>().ok());
                    matches!((v(2), v(3), v(4)), (Some(s), Some(h), Some(m)) if s >= 0.5 && h <= 0.75 * m)
                })
                .filter_map(|row| row.data.iter().find(|(n, _)| *n == "data-target").and_then(|(_, v)| v.parse().ok()))
                .collect();
            visible += shown.len();
            // The table's rows turned round: its first is not the pick.
            if report.models.first().is_some_and(|m| m.best.is_some()) {
                let mut turned = outline.clone();
                if let Some(Part::Section(section)) = turned
                    .iter_mut()
                    .find(|p| matches!(p, Part::Section(s) if s.kind == crate::outline::comparison::MODEL_BLOCK))
                    && let Some(Block::Table(table)) =
                        section.blocks.iter_mut().find(|b| matches!(b, Block::Table(_)))
                    && table.rows.len() >= 2
                {
                    table.rows.reverse();
                    tried += 1;
                    caught += usize::from(!denials(&report, &turned, lang).is_empty());
                }
            }
            let Some(&target) = shown.first() else {
                continue;
            };
            let denial = match lang {
                Lang::En => "no cache effect at 1 024 tokens",
                Lang::ZhCn => "1 024 Token 时没有显示出缓存效果",
            };
            let mut section = Section::new("doctored", "doctored", "doctored");
            section.blocks.push(Block::Notes(Notes::of(
                "doctored",
                Show::Quiet,
                "doctored",
                &[Said {
                    target,
                    label: "X".to_owned(),
                    text: denial.to_owned(),
                }],
            )));
            outline.push(Part::Section(section));
            tried += 1;
            caught += usize::from(!denials(&report, &outline, lang).is_empty());
        }
    }
    println!(
        "denial check: {worlds} sized worlds with caches, {visible} cache tables showing an \
         effect (both languages), none denied by a real report; a made-up denial caught in \
         {caught} of {tried}"
    );
    assert!(visible >= 10, "too few cache effects to check: {visible}");
    assert_eq!(caught, tried);
}
