//! `firsttoken report`: the page's results view as text or JSON.
//!
//! Files are read by `core`'s importer and, when there are several, merged
//! by `core`'s merge, exactly as the page's import does; the figures are
//! `core`'s [`build_report`] with the page's bootstrap seed, so the page and
//! this command show the same numbers for the same files. Only the layout is
//! this file's own.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::PathBuf;

use firsttoken_core::base::printable::printable;
use firsttoken_core::documents::results::{self, ResultsDoc, import_json, merge};
use firsttoken_core::documents::routing_config::{
    RunSource, litellm_yaml_with_prefill, openrouter_json, routing_json,
};
use firsttoken_core::judgement::idle::{ConnectionExtra, GoesCold, IdleFigures};
use firsttoken_core::judgement::prefill::PredictionSource;
use firsttoken_core::judgement::prefill_report::{PrefillReport, prefill_report};
use firsttoken_core::judgement::report::{
    Connections, REPORT_SEED, Report, Stopping, TargetReport, build_report,
    percentile_reaches_censored,
};
use firsttoken_core::judgement::tail::ColdTail;
use firsttoken_core::judgement::verdict::{Judgement, Lang};
use firsttoken_core::narrative::ending::{decided_text, question_lines};
use firsttoken_core::narrative::sentences::{colon, labelled, report_sentences};
use firsttoken_core::outline::results::{Part, results_outline};
use firsttoken_core::outline::{Block, Section, Show, Table};
use firsttoken_core::statistics::stats::Summary;
use firsttoken_core::words::report_words::{report_heading, unknown_time};
use serde_json::{Value, json};
use unicode_width::UnicodeWidthStr;

use crate::error::CliError;
use crate::terminal::pad;

/// Version of the `report --json` document.
pub const REPORT_JSON_VERSION: u32 = 1;

/// Reads and merges results files as the page's import does.
///
/// # Errors
/// [`CliError::Input`] naming the file that cannot be read or imported, or
/// why the files cannot be merged.
pub fn load(paths: &[PathBuf]) -> Result<ResultsDoc, CliError> {
    let mut docs = Vec::with_capacity(paths.len());
    for path in paths {
        let name = path.display();
        // Refused before it is read, as import refuses it before parsing.
        if let Ok(meta) = std::fs::metadata(path)
            && meta.len() > results::MAX_RESULTS_BYTES as u64
        {
            let too_large = results::ImportError::TooLarge {
                bytes: usize::try_from(meta.len()).unwrap_or(usize::MAX),
            };
            return Err(CliError::Input(format!("{name}: {too_large}")));
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::Input(format!("{name}: cannot read it: {e}")))?;
        let doc = import_json(&text).map_err(|e| CliError::Input(format!("{name}: {e}")))?;
        docs.push(doc);
    }
    merge(&docs).map_err(|e| CliError::Input(e.to_string()))
}

/// `doc` as the terminal shows it: every text a stranger wrote into it
/// (labels, models, providers, base URLs, the user agent, the vantage and
/// time zone, probe names and error messages) with its control characters,
/// line breaks and bidirectional controls escaped, so a file cannot drive
/// the terminal or forge a line of the report. Only the text report reads
/// this copy; `--json` and `--config` write the files' values as they are
/// (JSON and YAML escape them themselves).
pub fn for_terminal(mut doc: ResultsDoc) -> ResultsDoc {
    fn escape(text: &mut String) {
        if let Cow::Owned(shown) = printable(text) {
            *text = shown;
        }
    }
    for target in &mut doc.plan.targets {
        escape(&mut target.label);
        escape(&mut target.model);
        escape(&mut target.base_url);
        target.provider.iter_mut().for_each(escape);
        target.openrouter_provider.iter_mut().for_each(escape);
    }
    if let Some(fidelity) = &mut doc.plan.fidelity {
        // Escaped as the labels are, so it still names its target.
        fidelity.reference.iter_mut().for_each(escape);
    }
    let environment = &mut doc.environment;
    escape(&mut environment.user_agent);
    escape(&mut environment.time_zone);
    escape(&mut environment.page_version);
    environment.vantage.iter_mut().for_each(escape);
    for sample in &mut doc.samples {
        sample.probe.iter_mut().for_each(escape);
        if let Some(error) = &mut sample.error {
            escape(&mut error.message);
        }
    }
    doc
}

/// The results view of `doc`, as the page computes it.
pub fn report_of(doc: &ResultsDoc) -> Report {
    build_report(
        &doc.plan,
        &doc.samples,
        doc.environment.peak_offset_min(&doc.plan),
        REPORT_SEED,
    )
}

/// A core figure as JSON, by its own `Serialize`: the exported names have
/// one source, the struct. Non-finite numbers become `null`.
fn value_of<T: serde::Serialize>(figure: Option<&T>) -> Value {
    figure.map_or(Value::Null, |figure| {
        serde_json::to_value(figure).unwrap_or(Value::Null)
    })
}

fn stats_json(summary: Option<&Summary>) -> Value {
    value_of(summary)
}

fn tail_json(tail: Option<&ColdTail>) -> Value {
    value_of(tail)
}

/// `{"state": "provisional", "verdict": "solid"}`; no verdict while
/// collecting.
fn judgement_json(judgement: Judgement) -> Value {
    let state = match judgement {
        Judgement::Collecting { .. } => "collecting",
        Judgement::Provisional(_) => "provisional",
        Judgement::Final(_) => "final",
    };
    json!({
        "state": state,
        "verdict": judgement.verdict().map(|v| v.as_str()),
    })
}

/// The connections a target's requests opened (core's
/// `report::Connections`), or `null` when none was timed (the page's files).
fn connections_json(connections: Option<&Connections>) -> Value {
    connections.map_or(Value::Null, |c| {
        json!({
            "opened": c.opened,
            "dns_ms": stats_json(c.dns.as_ref()),
            "connect_ms": stats_json(c.connect.as_ref()),
            "tls_ms": stats_json(c.tls.as_ref()),
        })
    })
}

/// A target's idle figures: every gap's cold share with its interval,
/// where it goes cold, and what that gives to deploy.
fn idle_json(idle: &IdleFigures) -> Value {
    let gaps: Vec<Value> = idle
        .gaps
        .iter()
        .map(|gap| {
            json!({
                "gap_s": gap.gap_s,
                "requests": gap.requests,
                "cold": gap.cold,
                "share": gap.share(),
                "interval": [gap.interval.0, gap.interval.1],
                "monotone_share": gap.monotone_share,
                "median_ms": gap.median_ms,
                "p95_ms": gap.p95_ms,
                "censored": gap.censored,
                "p95_is_lower_bound": percentile_reaches_censored(gap.requests, gap.censored, 95.0),
                "failed": gap.failed,
                "moved_in": gap.moved_in,
                "idle_median_s": gap.idle_median_s,
                "new_connections": gap.connections.map(|c| c.new),
                "connections_known": gap.connections.map(|c| c.of),
            })
        })
        .collect();
    let stayed_warm = match idle.goes_cold {
        GoesCold::StayedWarm {
            after_s,
            cold,
            of,
            share_at_most,
        } => json!({"after_s": after_s, "cold": cold, "of": of, "share_at_most": share_at_most}),
        _ => Value::Null,
    };
    let fisher_p = match idle.goes_cold {
        GoesCold::After { p_value, .. } => p_value,
        GoesCold::Unsure { p_value, .. } => Some(p_value),
        _ => None,
    };
    let unsure_between = |goes_cold: GoesCold| match goes_cold {
        GoesCold::Unsure { lo_s, hi_s, .. } => Some([lo_s, hi_s]),
        _ => None,
    };
    json!({
        "gaps": gaps,
        "goes_cold_after_s": idle.goes_cold.range_s(),
        "may_go_cold_after_s": unsure_between(idle.goes_cold),
        "fisher_p": fisher_p,
        "stayed_warm": stayed_warm,
        "threshold_ms": idle.threshold_ms,
        "reference_gap_s": idle.reference_gap_s,
        "cold_starts": idle.cold_starts,
        "cold_median_ms": idle.cold_median_ms,
        "cold_censored": idle.cold_censored,
        "keep_warm_s": idle.keep_warm.map(|k| k.every_s),
        "keep_warm": idle.keep_warm.map(|k| json!({
            "every_s": k.every_s,
            "requests_per_day": k.requests_per_day,
            "usd_per_day": k.usd_per_day,
        })),
        "at_traffic": idle.at_traffic.map(|a| json!({
            "gap_s": a.gap_s,
            "share": [a.share.0, a.share.1],
            "interval": [a.interval.0, a.interval.1],
        })),
        "moved": idle.moved,
        "late_max_s": idle.late_max_s,
        "connection": idle.connection.map(|c| json!({
            "closes_after_s": c.closes.range_s().filter(|_| !c.always_new),
            "may_close_after_s": unsure_between(c.closes),
            "stayed_open_after_s": match c.closes {
                GoesCold::StayedWarm { after_s, .. } if !c.always_new => Some(after_s),
                _ => None,
            },
            "always_new": c.always_new,
            "setup_median_ms": c.setup_median_ms,
            "setup_of": c.setup_of,
            "keep_open_every_s": c.keep_open_every_s,
            "extra_ms": c.extra.measured_ms(),
            "extra_of": match c.extra {
                ConnectionExtra::TakenOff { new, reused, .. }
                | ConnectionExtra::NotMeasured { new, reused } => Some([new, reused]),
                ConnectionExtra::InReference { .. } => None,
            },
            "extra_status": match c.extra {
                ConnectionExtra::TakenOff { .. } => "taken_off",
                ConnectionExtra::InReference { .. } => "in_reference",
                ConnectionExtra::NotMeasured { .. } => "not_measured",
            },
        })),
        "dedicated": idle.dedicated.map(|d| json!({
            "usd_per_hour": d.usd_per_hour,
            "usd_per_day": d.usd_per_day,
            "break_even_requests_per_day": d.break_even_requests_per_day,
            "cheaper_at_any_traffic": d.cheaper_at_any_traffic,
        })),
    })
}

fn target_json(target: &TargetReport) -> Value {
    let errors_by_kind: serde_json::Map<String, Value> = target
        .errors_by_kind
        .iter()
        .map(|(kind, count)| (kind.as_str().to_owned(), json!(count)))
        .collect();
    let mut value = json!({
        "target": target.target,
        "label": target.label,
        "model": target.model,
        "requests": target.requests,
        "warmups": target.warmups,
        "errors": target.errors,
        "error_rate": target.error_rate,
        "errors_by_kind": errors_by_kind,
        "ttft_ms": stats_json(target.ttft.as_ref()),
        "headers_ms": stats_json(target.headers.as_ref()),
        "total_ms": stats_json(target.total.as_ref()),
        "decode_rate_tps": stats_json(target.decode_rate.as_ref()),
        "verdict": target.verdict.map(|v| v.as_str()),
        "verdict_text": target.verdict.map(|v| v.text(Lang::En)),
        "judgement": judgement_json(target.judgement),
        "caveats": target.caveats.iter().map(|c| c.text(Lang::En)).collect::<Vec<_>>(),
        "cold_tail": tail_json(target.cold_tail.as_ref()),
        "censored": target.censored,
        "lower_bounds": {
            "median": target.percentile_is_lower_bound(50.0),
            "p95": target.percentile_is_lower_bound(95.0),
            "p99": target.percentile_is_lower_bound(99.0),
            "mean_stddev_cv": target.moments_are_lower_bounds(),
        },
        "slow": target.slow.map_or(Value::Null, |slow| json!({
            "threshold_ms": slow.threshold_ms,
            "count": slow.slow,
            "of": slow.of,
            "share_ci": [slow.share_ci.0, slow.share_ci.1],
            "magnitude": slow.magnitude,
            "warm_p95_ms": slow.warm_p95_ms,
            "tail_band": target.tail_band.as_str(),
        })),
        "p95_median_ratio": target.p95_median_ratio,
        "peak_vs_off_peak": target.time_of_day.compare_periods().map_or(Value::Null, |c| json!({
            "peak_slow": c.peak.0,
            "peak_ranked": c.peak.1,
            "off_peak_slow": c.off_peak.0,
            "off_peak_ranked": c.off_peak.1,
            "fisher_p": c.p_value,
        })),
        "connections": connections_json(target.connections.as_ref()),
        "intervals": target.intervals.map_or(Value::Null, |i| json!({
            "median_ms": i.median_ms.pair(),
            "p95_ms": i.p95_ms.pair(),
            "cv_pct": i.cv_pct.pair(),
            "resamples": i.resamples,
        })),
    });
    // Only a run with idle gaps has the member, so every other report
    // reads as it always did.
    if let (Some(idle), Value::Object(members)) = (&target.idle, &mut value) {
        members.insert("idle".to_owned(), idle_json(idle));
    }
    value
}

/// The report as JSON: every figure the text shows, unrounded.
pub fn to_json(doc: &ResultsDoc, report: &Report) -> Value {
    let models: Vec<Value> = report
        .models
        .iter()
        .map(|model| {
            json!({
                "model": model.model,
                "names": model.names,
                "best": model.best,
                "distinguishable": model.distinguishable,
                "indistinguishable_from_best": model.indistinguishable_from_best,
                "slow_threshold_ms": model.slow_threshold_ms,
                "consistency": model.consistency.as_ref().map(|c| json!({
                    "ratio": c.ratio,
                    "most_consistent": c.most_consistent,
                    "least_consistent": c.least_consistent,
                })),
                "rows": model.rows.iter().map(|row| json!({
                    "rank": row.rank,
                    "target": row.figures.target,
                    "label": row.figures.label,
                    "n": row.figures.n,
                    "median_ms": row.figures.median_ms,
                    "p95_ms": row.figures.p95_ms,
                    "cv_pct": row.figures.cv_pct,
                    "error_rate": row.figures.error_rate,
                    "judgement": judgement_json(row.figures.judgement),
                    "eligible": row.eligible,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    // The routing table's own document, as the page exports it.
    let routing = value_of(Some(&report.routing));
    // The rows the page's export writes into the results file's `summary`
    // (figures, intervals, verdicts), from core's one writer.
    let summary = value_of(Some(&results::summary_rows(&doc.plan, &doc.samples)));
    let mut document = json!({
        "firsttoken_report": REPORT_JSON_VERSION,
        "environment": {
            "user_agent": doc.environment.user_agent,
            "time_zone": doc.environment.time_zone,
            "tz_offset_min": doc.environment.tz_offset_min,
            "started_at_ms": doc.environment.started_at_ms,
            "runner": doc.environment.runner.as_str(),
            "vantage": doc.environment.vantage,
        },
        "samples": doc.samples.len(),
        "bootstrap_seed": report.seed,
        "summary": summary,
        "targets": report.targets.iter().map(target_json).collect::<Vec<_>>(),
        "models": models,
        "routing": routing,
        "fidelity": value_of(report.fidelity.as_ref()),
    });
    // Only a run until decided has the member, so the report of any other
    // run is what it was.
    if let (Some(stopping), Some(members)) = (&report.stopping, document.as_object_mut()) {
        members.insert("stopping".to_owned(), stopping_json(stopping));
    }
    // Only a run with prompt sizes has the member, so the report of any
    // other run is what it was.
    if let (Some(prefill), Some(members)) = (
        prefill_report(&doc.plan, &doc.samples, report.seed),
        document.as_object_mut(),
    ) {
        members.insert("prefill".to_owned(), prefill_json(&prefill));
    }
    // Which requests the targets' figures come from, in a run with prompt
    // sizes (the plan's prompt otherwise, and the member left out so the
    // report of any other run is what it was), with each size judged on
    // its own.
    if let (Some(size), Some(members)) = (report.population.size(), document.as_object_mut()) {
        members.insert(
            "population".to_owned(),
            json!({
                "prompt_size": size,
                "typical_prompt_tokens": report.typical_prompt_tokens,
                "by_size": report.targets.iter().map(|t| json!({
                    "target": t.target,
                    "sizes": t.by_size.iter().map(|s| json!({
                        "size": s.tokens,
                        "ranked": s.ranked,
                        "slow": s.slow,
                        "cold_tail": s.cold_tail,
                        "judgement": judgement_json(s.judgement),
                    })).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            }),
        );
    }
    document
}

/// The `prefill` member of `report --json`.
fn prefill_json(prefill: &PrefillReport) -> Value {
    let interval = |i: &firsttoken_core::statistics::bootstrap::Interval| {
        json!([finite_or_null(i.low), finite_or_null(i.high)])
    };
    json!({
        "typical_prompt_tokens": prefill.typical_prompt_tokens,
        "targets": prefill.targets.iter().map(|t| json!({
            "target": t.target,
            "label": t.label,
            "fit": t.fit.as_ref().map(|fit| json!({
                "fixed_ms": fit.fixed_ms,
                "fixed_ms_interval": interval(&fit.fixed_interval),
                "rate_tokens_per_s": fit.rate_tokens_per_s,
                "rate_interval": interval(&fit.rate_interval),
                "off_line_sizes": fit.off_line.iter().map(|o| o.size).collect::<Vec<_>>(),
            })),
            "ttft_at_typical_ms": t.ttft_at_typical_ms,
            "ttft_at_typical_interval_ms": t.typical.as_ref()
                .and_then(|typical| typical.as_ref().ok())
                .map(|prediction| interval(&prediction.interval)),
            "ttft_at_typical_from": t.typical.as_ref()
                .and_then(|typical| typical.as_ref().ok())
                .map(|prediction| match prediction.source {
                    PredictionSource::Sizes => "sizes",
                    PredictionSource::Line => "line",
                }),
            "typical_unusable": match (&t.typical, prefill.typical_prompt_tokens) {
                (Some(Err(reason)), Some(tokens)) => json!(firsttoken_core::narrative::prefill::typical_sentence(
                    Lang::En,
                    tokens,
                    &Err(*reason),
                )),
                _ => Value::Null,
            },
            "estimated_tokens": t.estimated_tokens,
            "no_growth": t.no_growth,
            "refused_sizes": t.refused_sizes,
            "sizes": t.sizes.iter().map(|row| json!({
                "size": row.size,
                "input_tokens": row.input_tokens,
                "requests": row.figures.requests,
                "errors": row.figures.errors,
                "ttft_ms": stats_json(row.figures.ttft.as_ref()),
                "slow": row.figures.slow.map(|slow| json!({"slow": slow.slow, "of": slow.of})),
                "judgement": judgement_json(row.figures.judgement),
            })).collect::<Vec<_>>(),
            "cache": t.cache.iter().map(|c| json!({
                "size": c.size,
                "pairs": c.pairs,
                "saving_ms": c.saving_ms,
                "interval_ms": interval(&c.interval),
                "effect": c.has_effect(),
                "cached_tokens": c.cached_tokens,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "models": prefill.models.iter().map(|m| json!({
            "model": m.model,
            "faster": m.comparison.faster,
            "higher": m.comparison.higher,
            "slower": m.comparison.slower,
            "ratio": m.comparison.ratio,
            "ratio_interval": interval(&m.comparison.ratio_interval),
        })).collect::<Vec<_>>(),
    })
}

/// JSON has no infinity: an unbounded end is `null`.
fn finite_or_null(value: f64) -> Value {
    if value.is_finite() {
        json!(value)
    } else {
        Value::Null
    }
}

/// A routing config to print instead of the report (`report --config`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ConfigFormat {
    /// A LiteLLM router config (YAML).
    Litellm,
    /// OpenRouter `provider` preferences per model (JSON).
    Openrouter,
    /// The routing table with reasons, ties and order (JSON).
    Routing,
}

/// The routing config of `doc` in `format`; `pin` for OpenRouter's
/// `allow_fallbacks: false`.
pub fn config_text(doc: &ResultsDoc, report: &Report, format: ConfigFormat, pin: bool) -> String {
    let source = RunSource::of(&doc.environment);
    match format {
        ConfigFormat::Litellm => litellm_yaml_with_prefill(
            &doc.plan,
            report,
            &source,
            prefill_report(&doc.plan, &doc.samples, report.seed).as_ref(),
        ),
        ConfigFormat::Openrouter => openrouter_json(&doc.plan, report, &source, pin) + "\n",
        ConfigFormat::Routing => routing_json(&report.routing, &source) + "\n",
    }
}

/// "4 of 75 requests, about 1 in 19, took 5.10–7.00 s; without them the
/// median is 390 ms and the p95 570 ms."
/// The report as text: per model, the providers' table, consistency, best
/// provider and tails; then the routing table.
pub fn to_text(doc: &ResultsDoc, report: &Report, lang: Lang, width: Option<usize>) -> String {
    let mut out = String::new();
    let environment = &doc.environment;
    let _ = writeln!(
        out,
        "{}",
        report_heading(
            lang,
            (doc.samples.len(), report.targets.len()),
            &started_text(lang, environment.started_at_ms, environment.tz_offset_min),
            &environment.user_agent,
            environment.vantage.as_deref(),
        )
    );
    // Every sentence is core's, the same list the page shows, and the
    // results in the outline's order: the printer adds no figure.
    let sentences = report_sentences(report, lang);
    let prefill = prefill_report(&doc.plan, &doc.samples, report.seed);
    for part in results_outline(lang, report, &sentences, prefill.as_ref(), doc.plan.nonce) {
        let section = match part {
            Part::Population(population) => {
                let _ = writeln!(out, "\n{population}");
                continue;
            }
            // A terminal has no charts.
            Part::Charts => continue,
            Part::Section(section) => section,
        };
        section_text(&mut out, &section, lang, width);
    }
    out
}

/// A section of the report's outline (`core::outline`) as text: its
/// heading, then each block in order. A table has every column as wide as
/// its widest cell, under its narrow heading (numbers aligned right); a
/// list gives each sentence with its target's label, under its name when
/// the name is a heading, else after it; a chart has no place in a
/// terminal. Core decides what the section holds and in which order.
fn section_text(out: &mut String, section: &Section, lang: Lang, width: Option<usize>) {
    let _ = writeln!(out, "\n{}", section.title);
    // "name: " before a line, when the block has a name and it is neither
    // a heading printed above it nor the section's own title.
    let lead = |name: &str, show: Show| -> String {
        if name.is_empty() || show == Show::Heading || name == section.title {
            String::new()
        } else {
            format!("{name}{}", colon(lang))
        }
    };
    let indent = |show: Show| if show == Show::Heading { "    " } else { "  " };
    for block in &section.blocks {
        match block {
            Block::Table(table) => table_text(out, table, width),
            Block::Notes(notes) => {
                if notes.show == Show::Heading {
                    let _ = writeln!(out, "  {}", notes.name);
                }
                for note in &notes.items {
                    let _ = writeln!(
                        out,
                        "{}{}{}",
                        indent(notes.show),
                        lead(notes.name, notes.show),
                        labelled(lang, &note.label, &note.text)
                    );
                }
            }
            Block::Sentence(sentence) => {
                if sentence.show == Show::Heading {
                    let _ = writeln!(out, "  {}", sentence.name);
                }
                let _ = writeln!(
                    out,
                    "{}{}{}",
                    indent(sentence.show),
                    lead(sentence.name, sentence.show),
                    sentence.text
                );
            }
            Block::Hint(hint) => {
                let _ = writeln!(out, "  {hint}");
            }
            // A terminal has no chart, and its configs are
            // `report --config`.
            Block::Chart(_) | Block::Exports => {}
        }
    }
}

/// A table of the outline in padded columns, each as wide as its widest
/// cell under its narrow heading, numbers aligned right; wider than
/// `width`, each row stacked instead: its first cell, then the others
/// after their headings on one line that wraps ("median 152 ms · p95 …"),
/// so no row spills over two lines of the terminal.
fn table_text(out: &mut String, table: &Table, width: Option<usize>) {
    // A table with its own title (a target's, in a section of one table
    // per target) sits under it.
    let indent = if let Some(title) = &table.title {
        let _ = writeln!(out, "  {title}");
        "    "
    } else {
        "  "
    };
    let widths: Vec<usize> = table
        .columns
        .iter()
        .enumerate()
        .map(|(k, column)| {
            table
                .rows
                .iter()
                .filter_map(|row| row.cells.get(k))
                .map(|cell| cell.width())
                .fold(column.short.width(), usize::max)
        })
        .collect();
    let line = |cells: &mut dyn Iterator<Item = &str>| {
        let padded: Vec<String> = cells
            .zip(&table.columns)
            .zip(&widths)
            .map(|((cell, column), &width)| pad(cell, width, column.numeric))
            .collect();
        format!("{indent}{}", padded.join("  ").trim_end())
    };
    let full = indent.width() + widths.iter().sum::<usize>() + 2 * widths.len().saturating_sub(1);
    if width.is_some_and(|width| full > width) {
        // The row's name: its first cell, and a name after a rank.
        let ranked = table.columns.first().is_some_and(|c| c.numeric)
            && table.columns.get(1).is_some_and(|c| !c.numeric);
        let lead = if ranked { 2 } else { 1 };
        for row in &table.rows {
            let name: Vec<String> = row
                .cells
                .iter()
                .zip(&table.columns)
                .take(lead)
                .map(|(cell, column)| {
                    // A number alone says nothing: "Prompt size 128".
                    if column.numeric && !ranked {
                        format!("{} {cell}", column.short)
                    } else {
                        cell.clone()
                    }
                })
                .collect();
            let _ = writeln!(out, "{indent}{}", name.join(" "));
            let rest: Vec<String> = row
                .cells
                .iter()
                .zip(&table.columns)
                .skip(lead)
                .filter(|(cell, _)| !cell.is_empty())
                .map(|(cell, column)| format!("{} {cell}", column.short))
                .collect();
            if !rest.is_empty() {
                let _ = writeln!(out, "{indent}  {}", rest.join(" · "));
            }
        }
        return;
    }
    let _ = writeln!(out, "{}", line(&mut table.columns.iter().map(|c| c.short)));
    for row in &table.rows {
        let _ = writeln!(out, "{}", line(&mut row.cells.iter().map(String::as_str)));
    }
}

/// "2026-12-03 07:01 (UTC+01:00)".
pub(crate) fn started_text(lang: Lang, epoch_ms: f64, tz_offset_min: i32) -> String {
    let offset = jiff::tz::Offset::from_seconds(tz_offset_min.saturating_mul(60))
        .unwrap_or(jiff::tz::Offset::UTC);
    match jiff::Timestamp::from_millisecond(epoch_ms as i64) {
        Ok(at) => format!(
            "{} (UTC{})",
            at.to_zoned(jiff::tz::TimeZone::fixed(offset))
                .strftime("%Y-%m-%d %H:%M"),
            offset
        ),
        Err(_) => unknown_time(lang).to_owned(),
    }
}

/// How a run until decided stood at its end: decided or not, each
/// target's measured requests, the floor and the cap, each pair's
/// decision with its pairs, whether the two are equivalent within the
/// plan's margin, and the anytime-valid range of the typical TTFT ratio
/// second / first, each objective question's decision with its
/// requests and the range of the share within its budget, and the two
/// sentences the report prints.
fn stopping_json(stopping: &Stopping) -> Value {
    use firsttoken_core::statistics::sequential::Decision;
    let (plan, questions) = (&stopping.plan, &stopping.questions);
    let decision = |d: Decision| match d {
        Decision::First => "first",
        Decision::Second => "second",
        Decision::Open => "open",
    };
    json!({
        "decided": questions.all_decided(),
        "alpha": firsttoken_core::wire::questions::ALPHA,
        "alpha_each": questions.alpha_each(),
        "floor": plan.decided_floor(),
        "cap": plan.requests_per_target,
        "equivalent_within_pct": plan.equivalent_within_pct,
        "requests": (0..questions.targets()).map(|t| questions.requests(t)).collect::<Vec<_>>(),
        "pairs": questions.pairs.iter().map(|pair| {
            let (low, high) = questions.interval(pair);
            json!({
                "first": pair.first,
                "second": pair.second,
                "decision": decision(questions.decision(pair)),
                "equivalent": questions.equivalent(pair),
                "pairs": pair.faster.pairs(),
                "ratio_low": low,
                "ratio_high": high,
            })
        }).collect::<Vec<_>>(),
        "objectives": questions.objectives.iter().map(|question| {
            let (low, high) = questions.objective_interval(question);
            json!({
                "target": question.target,
                "objective": plan.objectives.get(question.objective as usize),
                "decision": decision(questions.objective_decision(question)),
                "requests": question.test.count(),
                "share_low": low,
                "share_high": high,
            })
        }).collect::<Vec<_>>(),
        "text": decided_text(Lang::En, plan, questions),
        "questions": question_lines(Lang::En, plan, questions),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use firsttoken_core::narrative::sentences::caveat_line;
    use firsttoken_core::words::report_words::ReportWords;

    /// The golden routing fixture (five targets, 320 requests each, a cold
    /// tail, prices, timeouts) and the same file with a TTFT budget.
    fn fixtures() -> Vec<ResultsDoc> {
        let doc = import_json(&firsttoken_core::testing::fixtures::routing_results()).unwrap();
        let mut budget = doc.clone();
        budget.plan.ttft_budget_ms = Some(600.0);
        vec![doc, budget]
    }

    #[test]
    fn the_page_and_the_terminal_say_the_same_sentences_in_both_languages() {
        for doc in fixtures() {
            let report = report_of(&doc);
            for lang in Lang::ALL {
                // What the page shows: core's list, which its results view
                // renders item by item (`ui/results_view.rs`).
                let said = report_sentences(&report, lang);
                let text = to_text(&doc, &report, lang, None);
                let mut expected: Vec<String> = Vec::new();
                for model in &said.models {
                    for list in [
                        &model.verdicts,
                        &model.by_size,
                        &model.tails,
                        &model.slow,
                        &model.timeouts,
                        &model.goodput,
                    ] {
                        expected.extend(list.iter().map(|s| labelled(lang, &s.label, &s.text)));
                    }
                    expected.extend(
                        model
                            .caveats
                            .iter()
                            .map(|(labels, text)| caveat_line(lang, labels, text)),
                    );
                    expected.extend(model.consistency.clone());
                    expected.extend(model.best_provider.clone());
                    expected.extend(model.distinctions.clone());
                }
                for list in [
                    &said.periods,
                    &said.first_try,
                    &said.rate_limits,
                    &said.streams,
                    &said.costs,
                    &said.idle,
                    &said.idle_settings,
                ] {
                    expected.extend(list.iter().map(|s| labelled(lang, &s.label, &s.text)));
                }
                expected.extend(
                    report
                        .routing_in(lang)
                        .routes
                        .into_iter()
                        .map(|route| route.reason),
                );
                // Every sentence, the verdicts' too, in full: the
                // terminal prints the outline the page prints.
                let missing: Vec<&String> = expected
                    .iter()
                    .filter(|sentence| !text.contains(sentence.as_str()))
                    .collect();
                assert!(
                    missing.is_empty(),
                    "{lang:?}: the terminal does not say {missing:#?}\n{text}"
                );
                assert!(
                    expected.len() > 20,
                    "the fixture says too little to test: {expected:?}"
                );
                let distinctions: usize = said.models.iter().map(|m| m.distinctions.len()).sum();
                assert!(
                    distinctions > 0,
                    "the fixture has interval distinctions to print"
                );
                if lang == Lang::ZhCn {
                    assert!(text.contains("个请求"), "{text}");
                    // The frame is Chinese too: no English line name,
                    // heading or column is left around the sentences.
                    let zh = ReportWords::of(Lang::ZhCn).all();
                    for word in ReportWords::of(Lang::En).all() {
                        if zh.contains(&word) {
                            continue; // "p95", "CV", "prompt_tokens"
                        }
                        for framed in [
                            format!("  {word}: "),
                            format!("  {word}："),
                            format!("\n{word}"),
                            format!("  {word}  "),
                        ] {
                            assert!(!text.contains(&framed), "{framed:?} in\n{text}");
                        }
                    }
                    assert!(
                        text.contains("个样本 · ") && !text.contains(" samples · "),
                        "{text}"
                    );
                }
            }
        }
    }
}
