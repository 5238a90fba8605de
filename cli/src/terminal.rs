//! What a run shows while it goes: on a terminal, a progress bar with an
//! ETA and a live line per target; anywhere else (a pipe, a CI log, cron), a
//! plain line per sample, so logs stay readable.
//!
//! The figures on the live lines are `core`'s run-view row
//! ([`live_row`]), the page's: no verdict while a target is still
//! collecting samples, then a provisional one until the plan's count.

use firsttoken_core::narrative::fidelity::probe_progress;
use std::borrow::Cow;
use std::io::{IsTerminal, Write};
use std::time::Duration;
use unicode_width::UnicodeWidthStr;

use firsttoken_core::base::printable::{printable, printable_lines};
use firsttoken_core::judgement::population::Population;
use firsttoken_core::judgement::report::live_row;
use firsttoken_core::judgement::verdict::{Judgement, Lang};
use firsttoken_core::narrative::run_time::eta_text;
use firsttoken_core::planning::plan::Plan;
use firsttoken_core::wire::sample::Sample;
use firsttoken_core::words::format::format_ms;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::net::ConnectionPhases;

/// What the terminal is told about one finished request besides the
/// sample.
#[derive(Clone, Copy, Debug, Default)]
pub struct SampleNote {
    /// The connection's phases when the request opened one.
    pub opened: Option<ConnectionPhases>,
    /// `HTTP/1.1` or `HTTP/2`.
    pub http_version: Option<&'static str>,
}

/// The run's display.
pub enum Progress {
    /// A bar and a line per target, redrawn in place.
    Live(Live),
    /// One line per sample on stdout.
    Plain,
}

/// The live display's bars.
pub struct Live {
    multi: MultiProgress,
    bar: ProgressBar,
    targets: Vec<ProgressBar>,
}

impl Progress {
    /// The live display when stdout is a terminal, else plain lines.
    pub fn for_stdout(plan: &Plan, total: usize, done: usize) -> Self {
        if std::io::stdout().is_terminal() {
            Self::Live(Live::new(plan, total, done))
        } else {
            Self::Plain
        }
    }

    /// A line for the person (start, resume, warnings): above the bars, or
    /// on stdout.
    pub fn note(&self, text: &str) {
        match self {
            Self::Live(live) => {
                // Wrapped between words at the terminal's width.
                let width = crate::wrap::stdout_width();
                let _ = live
                    .multi
                    .println(crate::wrap::fit(&printable_lines(text), width));
            }
            Self::Plain => {
                // A terminal's width after the bars are gone; whole lines
                // to a pipe.
                let width = crate::wrap::stdout_width();
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "{}", crate::wrap::fit(&printable_lines(text), width));
                let _ = out.flush();
            }
        }
    }

    /// One request finished: `samples` holds every sample so far, this
    /// one last; `eta_ms` is the time left
    /// ([`RunSession::time_left_ms`](firsttoken_core::wire::session::RunSession::time_left_ms)).
    pub fn sample_done(
        &self,
        plan: &Plan,
        samples: &[Sample],
        note: SampleNote,
        (done, total): (usize, usize),
        (eta_ms, shift_ms): (f64, f64),
    ) {
        let Some(sample) = samples.last() else {
            return;
        };
        match self {
            Self::Live(live) => live.update(plan, samples, sample, done, (eta_ms, shift_ms)),
            Self::Plain => {
                let line = plain_line(plan, sample, note, done, total);
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "{line}");
                let _ = out.flush();
            }
        }
    }

    /// The run ended: the bars stay on screen, each target's line redrawn
    /// as a finished run says it ("too few to judge (7 of 20)", not
    /// "collecting": no more are coming), and later notes print below
    /// them.
    pub fn finish(&mut self, plan: &Plan, samples: &[Sample]) {
        if let Self::Live(live) = self {
            live.redraw_targets(plan, samples, true);
            live.bar.abandon();
            for target in &live.targets {
                target.abandon();
            }
        }
        *self = Self::Plain;
    }
}

impl Live {
    fn new(plan: &Plan, total: usize, done: usize) -> Self {
        let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stdout());
        let style = ProgressStyle::with_template(
            "{bar:32.cyan/blue} {pos}/{len} requests · {elapsed_precise} elapsed · ETA {wide_msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("█▉▊▋▌▍▎▏ ");
        let bar = multi.add(ProgressBar::new(total as u64).with_style(style));
        bar.set_position(done as u64);
        bar.set_message("…");
        // A target's line is cut to the terminal's width ("…"), never
        // wrapped: a wrapped line breaks the redraw.
        let line_style = ProgressStyle::with_template("  {wide_msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        let width = label_width(plan);
        let targets = plan
            .targets
            .iter()
            .map(|target| {
                let line = multi.add(ProgressBar::new(1).with_style(line_style.clone()));
                line.set_message(format!(
                    "{}  waiting for its first sample",
                    pad(&printable(&target.label), width, false)
                ));
                line
            })
            .collect();
        // Keep the elapsed time moving between samples.
        bar.enable_steady_tick(Duration::from_millis(500));
        Self {
            multi,
            bar,
            targets,
        }
    }

    fn update(
        &self,
        plan: &Plan,
        samples: &[Sample],
        sample: &Sample,
        done: usize,
        (eta_ms, shift_ms): (f64, f64),
    ) {
        self.bar.set_position(done as u64);
        // The run session's time left (core's one rule, the page's too).
        // Slow requests moved the rest of the schedule to keep its spacing:
        // the run ends this much later than planned (core's words, the
        // page's).
        self.bar
            .set_message(eta_text(Lang::En, eta_ms.max(0.0), shift_ms, true));
        self.redraw_target(plan, samples, sample.target, false);
    }

    /// Every target's line, as [`Live::redraw_target`] draws it.
    fn redraw_targets(&self, plan: &Plan, samples: &[Sample], finished: bool) {
        for target in 0..plan.targets.len() {
            self.redraw_target(
                plan,
                samples,
                u32::try_from(target).unwrap_or(u32::MAX),
                finished,
            );
        }
    }

    /// Target `index`'s line from its samples so far.
    fn redraw_target(&self, plan: &Plan, samples: &[Sample], index: u32, finished: bool) {
        let at = index as usize;
        if let (Some(line), Some(target)) = (self.targets.get(at), plan.targets.get(at)) {
            // The requests the results will judge: the plan's prompt, or
            // its headline prompt size, weighed against the plan's count
            // for them.
            let population = Population::of_plan(plan);
            let own: Vec<&Sample> = samples
                .iter()
                .filter(|s| s.target == index && population.contains(s))
                .collect();
            if finished && own.is_empty() {
                return;
            }
            line.set_message(live_line(
                &target.label,
                label_width(plan),
                own,
                population.planned_requests(plan),
                plan.timeout_s * 1000.0,
                finished,
            ));
        }
    }
}

/// `text` padded with spaces to `width` terminal columns, on the left when
/// `right` aligns it right. A Chinese character takes two columns, so
/// lines and tables of Chinese labels line up as English ones do.
pub fn pad(text: &str, width: usize, right: bool) -> String {
    let fill = " ".repeat(width.saturating_sub(text.width()));
    if right {
        format!("{fill}{text}")
    } else {
        format!("{text}{fill}")
    }
}

fn label_width(plan: &Plan) -> usize {
    plan.targets
        .iter()
        .map(|t| printable(&t.label).width())
        .max()
        .unwrap_or(0)
        .min(40)
}

/// "DeepSeek  n 42 · 1 error · median 152 ms · p95 180 ms · CV 12 % · solid".
/// The label is the plan's, a stranger's text: it is printed escaped. A
/// `finished` run says "too few to judge (7 of 20)" where a running one
/// says "collecting (7 of 20)".
pub fn live_line<'a>(
    label: &str,
    width: usize,
    samples: impl IntoIterator<Item = &'a Sample>,
    requests_per_target: u32,
    timeout_ms: f64,
    finished: bool,
) -> String {
    let samples: Vec<&Sample> = samples.into_iter().collect();
    let row = live_row(samples.iter().copied(), requests_per_target, timeout_ms);
    let label = printable(label);
    let mut line = format!("{}  n {}", pad(&label, width, false), row.done);
    if row.errors > 0 {
        let s = if row.errors == 1 { "" } else { "s" };
        line.push_str(&format!(" · {} error{s}", row.errors));
    }
    if let (Some(median), Some(p95), Some(cv)) = (row.median_ms, row.p95_ms, row.cv_pct) {
        let at_least = |bound: bool| if bound { "≥ " } else { "" };
        line.push_str(&format!(
            " · median {}{} · p95 {}{} · CV {}{cv:.0} %",
            at_least(row.percentile_is_lower_bound(50.0)),
            format_ms(Lang::En, median),
            at_least(row.percentile_is_lower_bound(95.0)),
            format_ms(Lang::En, p95),
            at_least(row.censored > 0),
        ));
    }
    line.push_str(" · ");
    line.push_str(&if finished {
        row.judgement.finished_label(Lang::En, true)
    } else {
        judgement_text(row.judgement, true)
    });
    // The fidelity probes so far, as each was checked when it came back.
    let checks: Vec<bool> = samples
        .iter()
        .filter_map(|s| s.check.map(|check| check.passed))
        .collect();
    if !checks.is_empty() {
        line.push_str(" · ");
        line.push_str(&probe_progress(
            Lang::En,
            checks.iter().filter(|passed| **passed).count(),
            checks.len(),
        ));
    }
    line
}

/// The verdict as the page says it: none while collecting, marked while
/// provisional. `short` gives the verdict's name ("cold starts") rather
/// than its sentence, for a line that must fit a terminal.
pub fn judgement_text(judgement: Judgement, short: bool) -> String {
    judgement.label(Lang::En, short)
}

fn ms(value: f64) -> String {
    format!("{value:.1} ms")
}

/// One sample as a log line.
pub fn plain_line(
    plan: &Plan,
    sample: &Sample,
    note: SampleNote,
    done: usize,
    total: usize,
) -> String {
    // The label, the probe's name and the provider's message are a
    // stranger's text: printed escaped.
    let label = plan
        .targets
        .get(sample.target as usize)
        .map_or(Cow::Borrowed("?"), |t| printable(&t.label));
    // Warm-ups come first in a target's `seq`; measured requests count
    // from 1 after them, as the plan's counts do.
    let number = firsttoken_core::planning::schedule::number_within_kind(plan, sample.seq);
    let kind = match (&sample.probe, sample.warmup) {
        (Some(probe), _) => format!("probe {number} ({})", printable(probe)),
        (None, true) => format!("warm-up {number}"),
        (None, false) => format!("request {number}"),
    };
    // In a run with prompt sizes, which size this request sent, and
    // whether it repeated an earlier prompt for the cache probe: each size
    // is judged on its own, so a line without it cannot be read.
    let size = sample.sized_prompt.map(|sized| {
        let tokens = firsttoken_core::words::format::grouped(u64::from(sized.tokens));
        match sized.repeat_of {
            Some(_) => format!(" at {tokens} tokens (cache repeat)"),
            None => format!(" at {tokens} tokens"),
        }
    });
    let mut line = format!(
        "[{done}/{total}] {label} {kind}{}:",
        size.unwrap_or_default()
    );
    if let Some(check) = &sample.check {
        let verdict = match (check.passed, check.failure) {
            (true, _) => " passed,".to_owned(),
            (false, Some(failure)) => format!(" failed ({}),", failure.as_str()),
            (false, None) => " failed,".to_owned(),
        };
        line.push_str(&verdict);
    }
    match &sample.error {
        Some(error) => {
            line.push_str(&format!(
                " error {} ({}): {}",
                error.kind.as_str(),
                error.phase.as_str(),
                printable(&error.message)
            ));
        }
        None => {
            if let Some(ttft) = sample.ttft_ms {
                line.push_str(&format!(" ttft {}", ms(ttft)));
            }
            if let Some(headers) = sample.headers_ms {
                line.push_str(&format!(", headers {}", ms(headers)));
            }
            if let Some(total) = sample.total_ms {
                line.push_str(&format!(", total {}", ms(total)));
            }
            if let Some(tokens) = sample.output_tokens {
                line.push_str(&format!(", {tokens} tokens"));
            }
        }
    }
    match note.opened {
        Some(phases) => {
            line.push_str(" · new connection");
            if let Some(version) = note.http_version {
                line.push_str(&format!(" ({version})"));
            }
            if let Some(dns) = phases.dns_ms {
                line.push_str(&format!(", dns {}", ms(dns)));
            }
            line.push_str(&format!(", connect {}", ms(phases.connect_ms)));
            if let Some(tls) = phases.tls_ms {
                line.push_str(&format!(", tls {}", ms(tls)));
            }
        }
        None if note.http_version.is_some() => line.push_str(" · reused connection"),
        None => {}
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use firsttoken_core::planning::plan::Target;
    use firsttoken_core::wire::sample::{ConnectionPhases, ErrorKind, Phase, SampleError};

    fn plan() -> Plan {
        Plan {
            targets: vec![Target {
                provider: Some("deepseek".to_owned()),
                ..Target::openai(
                    "DeepSeek V4 Pro",
                    "https://api.deepseek.com",
                    "deepseek-v4-pro",
                )
            }],
            warmup_per_target: 2,
            ..Plan::default()
        }
    }

    fn sample(seq: u32, ttft_ms: f64) -> Sample {
        Sample {
            warmup: seq < 2,
            planned_at_ms: 0.0,
            sent_at_ms: 0.0,
            headers_ms: Some(ttft_ms / 2.0),
            first_byte_ms: Some(ttft_ms / 2.0),
            second_token_ms: None,
            total_ms: Some(ttft_ms * 2.0),
            output_tokens: Some(8),
            ..Sample::measured(0, seq, ttft_ms)
        }
    }

    #[test]
    fn a_plain_line_numbers_requests_after_the_warm_ups_and_says_how_it_connected() {
        let opened = SampleNote {
            opened: Some(ConnectionPhases {
                dns_ms: Some(1.25),
                connect_ms: 20.0,
                tls_ms: Some(41.5),
            }),
            http_version: Some("HTTP/2"),
        };
        assert_eq!(
            plain_line(&plan(), &sample(0, 412.0), opened, 1, 102),
            "[1/102] DeepSeek V4 Pro warm-up 1: ttft 412.0 ms, headers 206.0 ms, total 824.0 ms, \
             8 tokens · new connection (HTTP/2), dns 1.2 ms, connect 20.0 ms, tls 41.5 ms"
        );
        let reused = SampleNote {
            opened: None,
            http_version: Some("HTTP/2"),
        };
        assert!(
            plain_line(&plan(), &sample(2, 400.0), reused, 3, 102)
                .starts_with("[3/102] DeepSeek V4 Pro request 1: ttft 400.0 ms")
        );
        let mut failed = sample(5, 0.0);
        failed.error = Some(SampleError {
            kind: ErrorKind::Dns,
            phase: Phase::Request,
            message: "the provider's host name did not resolve".to_owned(),
        });
        assert_eq!(
            plain_line(&plan(), &failed, SampleNote::default(), 6, 102),
            "[6/102] DeepSeek V4 Pro request 4: error dns (request): the provider's host name did \
             not resolve"
        );
    }

    #[test]
    fn a_live_line_shows_no_verdict_while_collecting() {
        let samples: Vec<Sample> = (0..7)
            .map(|seq| sample(seq, 400.0 + f64::from(seq)))
            .collect();
        let line = live_line("DeepSeek", 10, &samples, 100, 120_000.0, false);
        assert!(
            line.starts_with("DeepSeek    n 5 · median 404 ms"),
            "{line}"
        );
        assert!(line.ends_with("collecting (5 of 20)"), "{line}");
        // A finished run's line: no more are coming.
        let done = live_line("DeepSeek", 10, &samples, 100, 120_000.0, true);
        assert!(done.ends_with("too few to judge (5 of 20)"), "{done}");
        // Probe replies are not latency: they show as their own count.
        let mut with_probes = samples.clone();
        for (seq, passed) in [(7, true), (8, false), (9, true)] {
            let mut probe = sample(seq, 300.0);
            probe.probe = Some("arith-mul".to_owned());
            probe.check = Some(firsttoken_core::planning::fidelity::verify::ProbeCheck {
                passed,
                failure: None,
                called: false,
                schema_valid: None,
                finish_reason: true,
                within_max_tokens: Some(true),
                reasoning_in_content: false,
            });
            with_probes.push(probe);
        }
        let line = live_line("DeepSeek", 10, &with_probes, 100, 120_000.0, false);
        assert!(
            line.starts_with("DeepSeek    n 5 · median 404 ms"),
            "{line}"
        );
        assert!(
            line.ends_with("collecting (5 of 20) · probes 2 of 3 passed"),
            "{line}"
        );
        let samples: Vec<Sample> = (0..32)
            .map(|seq| sample(seq, 400.0 + f64::from(seq % 3)))
            .collect();
        let line = live_line("DeepSeek", 8, &samples, 100, 120_000.0, false);
        assert!(line.ends_with("· solid (provisional)"), "{line}");
        // A Chinese label takes two columns a character: padded to the
        // same screen width as "DeepSeek".
        let line = live_line("深度求索", 8, &samples, 100, 120_000.0, false);
        assert!(line.starts_with("深度求索  n 30 ·"), "{line}");
        assert_eq!(eta_text(Lang::En, 3_725_000.0, 0.0, true), "1 h 2 min");
    }
}
