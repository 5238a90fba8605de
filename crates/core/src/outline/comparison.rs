//! The comparison of one model: its ranked table (rank, target, samples,
//! median, p95 and p99 TTFT, CV, error rate, verdict), each target's
//! verdict and its verdict at every prompt size, the caveats, which target
//! is most consistent, the best provider and how far the intervals tell
//! it apart, the rule that picked it, then each target's cold-start tail,
//! recommended first-token timeout, share within the TTFT budget and slow
//! share.
//!
//! One section per model, in the comparisons' order: the page, the
//! terminal report and the HTML report print these, so a figure (a CV, an
//! error rate, a p95 that is only a lower bound) is written once, here.

use super::{Block, Column, Note, Notes, Role, Row, Section, Sentence, Show, Table};
use crate::base::lang::Lang;
use crate::judgement::compare::ModelComparison;
use crate::judgement::report::{Connections, Report, TargetReport};
use crate::narrative::sentences::{ModelSentences, Said, caveat_line, colon, model_sentences};
use crate::wire::protocol::recorded_failure_text;
use crate::words::failure::error_kind_words;
use crate::words::format::{at_least, format_ms, format_pct, ms_or_dash};
use crate::words::report_words::{
    Phase, ReportWords, connections_opened, failure_reason_words, no_successful_samples,
};

/// The kind of a model's section (its class in HTML).
pub const MODEL_BLOCK: &str = "model-block";

/// The sections of `report`, one per model, each with the sentences made
/// from its own model ([`model_sentences`] in `lang`), so none is matched
/// to its model by position.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn comparison_sections(lang: Lang, report: &Report) -> Vec<Section> {
    report
        .models
        .iter()
        .enumerate()
        .map(|(index, model)| {
            let said = model_sentences(lang, report, model);
            model_section(lang, report, index, model, &said)
        })
        .collect()
}

/// The kind of the section of targets without a successful request.
pub const NO_SUCCESS: &str = "no-success";

/// The targets that no model's comparison holds because none of their
/// requests succeeded: how many were sent and how they failed, so a
/// target never vanishes from the results. `None` when every target has
/// a success.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn no_success_section(lang: Lang, report: &Report) -> Option<Section> {
    let w = ReportWords::of(lang);
    let items: Vec<Note> = report
        .targets
        .iter()
        .filter(|target| target.ttft.is_none())
        .map(|target| {
            let failures: Vec<String> = target
                .errors_by_kind
                .iter()
                .map(|(kind, count)| format!("{count} {}", error_kind_words(lang, *kind)))
                .collect();
            let mut text = no_successful_samples(lang, target.requests, &failures);
            if let Some(reason) = &target.failure_reason {
                text.push_str(match lang {
                    Lang::En => ": ",
                    Lang::ZhCn => "：",
                });
                text.push_str(&failure_reason_words(
                    lang,
                    &recorded_failure_text(lang, reason.kind, &reason.message, reason.status),
                    reason.count,
                    reason.of,
                    reason.retry_after_s,
                ));
            }
            Note::with_data(
                Said {
                    target: target.target,
                    label: target.label.clone(),
                    text,
                },
                vec![("data-requests", target.requests.to_string())],
            )
        })
        .collect();
    if items.is_empty() {
        return None;
    }
    let mut section = Section::new(NO_SUCCESS, NO_SUCCESS, w.no_success);
    section.blocks.push(Block::Notes(Notes {
        name: w.no_success,
        show: Show::Quiet,
        class: NO_SUCCESS,
        items,
    }));
    Some(section)
}

/// "3 opened; median DNS 1.8 ms, connect 21 ms, TLS 45 ms".
#[cfg_attr(target_arch = "wasm32", inline)]
fn connections_text(lang: Lang, c: &Connections) -> String {
    let phases: Vec<(Phase, String)> = [
        (Phase::Dns, &c.dns),
        (Phase::Connect, &c.connect),
        (Phase::Tls, &c.tls),
    ]
    .into_iter()
    .filter_map(|(phase, summary)| summary.as_ref().map(|s| (phase, format_ms(lang, s.median))))
    .collect();
    connections_opened(lang, c.opened, &phases)
}

/// The ranked table of one model.
#[cfg_attr(target_arch = "wasm32", inline)]
fn comparison_table(lang: Lang, report: &Report, model: &ModelComparison) -> Table {
    let (t, w) = (lang.texts(), ReportWords::of(lang));
    let columns = vec![
        Column::new(t.rank, true).short(w.rank).role(Role::Rank),
        Column::new(t.target, false)
            .short(w.target)
            .role(Role::Heading),
        Column::new(t.samples, true).short(w.n),
        Column::new(t.median, true).short(w.median),
        Column::new(t.p95, true).short(w.p95),
        Column::new(t.p99, true).short(w.p99),
        Column::new(t.cv, true).short(w.cv),
        Column::new(t.error_rate, true).short(w.errors),
        Column::new(t.verdict, false)
            .short(w.verdict)
            .role(Role::Verdict),
    ];
    let rows = model
        .rows
        .iter()
        .filter_map(|row| {
            let target = report.targets.get(row.figures.target as usize)?;
            let ttft = target.ttft.as_ref();
            let bounded = |value: Option<f64>, p: f64| {
                let bound = value.is_some() && target.percentile_is_lower_bound(p);
                let cell = format!("{}{}", at_least(bound), ms_or_dash(lang, value));
                (cell, value.map(|v| v.to_string()), bound)
            };
            let cv_bound = TargetReport::moments_are_lower_bounds(target);
            let figures = &row.figures;
            let timed = [
                bounded(ttft.map(|s| s.median), 50.0),
                bounded(ttft.map(|s| s.p95), 95.0),
                bounded(ttft.map(|s| s.p99), 99.0),
            ];
            let mut cells = vec![
                row.rank.to_string(),
                figures.label.clone(),
                figures.n.to_string(),
            ];
            let mut values = vec![None, None, Some(figures.n.to_string())];
            let mut lower_bounds = vec![false; 3];
            for (cell, value, bound) in timed {
                cells.push(cell);
                values.push(value);
                lower_bounds.push(bound);
            }
            cells.push(format!(
                "{}{}",
                at_least(cv_bound),
                format_pct(figures.cv_pct)
            ));
            values.push(Some(figures.cv_pct.to_string()));
            lower_bounds.push(cv_bound);
            cells.push(format_pct(figures.error_rate * 100.0));
            values.push(Some(figures.error_rate.to_string()));
            lower_bounds.push(false);
            cells.push(figures.judgement.finished_label(lang, false));
            values.push(None);
            lower_bounds.push(false);
            Some(Row {
                cells,
                values,
                lower_bounds,
                data: vec![("data-target", figures.target.to_string())],
                judgement: Some(figures.judgement),
            })
        })
        .collect();
    Table {
        class: "comparison",
        columns,
        rows,
        ..Table::default()
    }
}

/// The section of one model (`index` in the report's order).
/// Names as a list in `lang`: "a", "a and b", "a, b and c"; "a、b 和 c".
#[cfg_attr(target_arch = "wasm32", inline)]
fn list_names(lang: Lang, names: &[String]) -> String {
    let (separator, and) = match lang {
        Lang::En => (", ", " and "),
        Lang::ZhCn => ("、", " 和 "),
    };
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{}{and}{last}", rest.join(separator)),
    }
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn model_section(
    lang: Lang,
    report: &Report,
    index: usize,
    model: &ModelComparison,
    said: &ModelSentences,
) -> Section {
    let (t, w) = (lang.texts(), ReportWords::of(lang));
    let mut section = Section::new(
        format!("model-{index}"),
        MODEL_BLOCK,
        format!(
            "{}{}{}",
            t.results_for_model,
            colon(lang),
            // "a, b and c", not "a / b / c": a model's names may hold a
            // slash themselves, and a list of them read like a path.
            list_names(lang, &model.names)
        ),
    );
    section.data = vec![("data-model", model.model.clone())];
    let sentence = |name: &'static str, show: Show, class: &'static str, text: String| {
        Block::Sentence(Sentence {
            name,
            show,
            class,
            text,
            data: Vec::new(),
        })
    };
    let mut blocks = vec![
        Block::Table(comparison_table(lang, report, model)),
        Block::Notes(Notes::of(
            t.verdict,
            Show::Quiet,
            "verdicts",
            &said.verdicts,
        )),
        Block::Notes(Notes::of(w.by_size, Show::Quiet, "by-size", &said.by_size)),
    ];
    blocks.extend(said.caveats.iter().map(|(labels, text)| {
        sentence(
            w.note,
            Show::Quiet,
            "warn-line",
            caveat_line(lang, labels, text),
        )
    }));
    blocks.extend(
        said.consistency
            .iter()
            .map(|text| sentence(t.consistency, Show::Lead, "consistency", text.clone())),
    );
    blocks.extend(said.best_provider.iter().map(|text| {
        Block::Sentence(Sentence {
            name: t.best_provider,
            show: Show::Lead,
            class: "best-provider",
            text: text.clone(),
            data: vec![("data-distinguishable", model.distinguishable.to_string())],
        })
    }));
    blocks.extend(
        said.distinctions
            .iter()
            .map(|text| sentence(w.intervals, Show::Quiet, "interval", text.clone())),
    );
    blocks.push(Block::Hint(model.rule(lang)));
    blocks.push(Block::Notes(Notes::of(
        t.cold_tail,
        Show::Heading,
        "tails",
        &said.tails,
    )));
    blocks.push(Block::Notes(Notes::of(
        t.recommended_timeout,
        Show::Heading,
        "recommended-timeouts",
        &said.timeouts,
    )));
    let mut goodput = Notes::of(t.goodput, Show::Heading, "goodput", &said.goodput);
    for note in &mut goodput.items {
        if let Some(g) = note
            .target
            .and_then(|target| report.targets.get(target as usize))
            .and_then(|target| target.goodput)
        {
            note.data = vec![
                ("data-within", g.within.to_string()),
                ("data-of", g.of.to_string()),
            ];
        }
    }
    blocks.push(Block::Notes(goodput));
    blocks.push(Block::Notes(Notes::of(
        w.slow,
        Show::Quiet,
        "slow-shares",
        &said.slow,
    )));
    // The connections each target opened: a runner times them, a browser
    // does not say (its files have none, and the list is left out).
    let connections: Vec<Said> = model
        .rows
        .iter()
        .filter_map(|row| {
            let target = report.targets.get(row.figures.target as usize)?;
            Some(Said {
                target: target.target,
                label: target.label.clone(),
                text: connections_text(lang, target.connections.as_ref()?),
            })
        })
        .collect();
    blocks.push(Block::Notes(Notes::of(
        w.connections,
        Show::Heading,
        "connections",
        &connections,
    )));
    // A list with nothing to say is left out, with its name.
    blocks.retain(|block| !matches!(block, Block::Notes(notes) if notes.items.is_empty()));
    section.blocks = blocks;
    section
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgement::report::build_report;
    use crate::narrative::sentences::report_sentences;
    use crate::planning::plan::{Plan, Target};
    use crate::testing::fixtures::sample;

    #[test]
    fn a_model_s_names_read_as_a_list_not_a_path() {
        let names: Vec<String> = ["bimodal/m", "fixed@200/m", "degraded/m"]
            .iter()
            .map(|&n| n.to_owned())
            .collect();
        assert_eq!(
            list_names(Lang::En, &names),
            "bimodal/m, fixed@200/m and degraded/m"
        );
        assert_eq!(
            list_names(Lang::ZhCn, &names),
            "bimodal/m、fixed@200/m 和 degraded/m"
        );
        assert_eq!(list_names(Lang::En, &names[..1]), "bimodal/m");
    }

    #[test]
    fn the_connections_a_runner_timed_are_a_list_of_the_model_s_section() {
        let plan = Plan {
            targets: vec![Target::demo("A", "m"), Target::demo("B", "m")],
            ..Plan::default()
        };
        let samples: Vec<_> = (0..30)
            .flat_map(|i| {
                let mut a = sample(0, i, f64::from(i) * 1_000.0, Some(300.0), false);
                // The runner's first request of A opened a connection.
                if i < 2 {
                    a.connection = Some(crate::wire::sample::ConnectionPhases {
                        dns_ms: None,
                        connect_ms: 2.0 + f64::from(i),
                        tls_ms: Some(10.0),
                    });
                }
                [a, sample(1, i, f64::from(i) * 1_000.0, Some(500.0), false)]
            })
            .collect();
        let report = build_report(&plan, &samples, 0, 1);
        assert_eq!(
            report.targets[0].connections.as_ref().map(|c| c.opened),
            Some(2)
        );
        assert_eq!(
            report.targets[1].connections, None,
            "a browser's requests time none"
        );
        for (lang, said) in [
            (Lang::En, "2 opened; median connect 2.5 ms, TLS 10 ms"),
            (
                Lang::ZhCn,
                "新建 2 个；中位耗时：TCP 连接 2.5 毫秒，TLS 10 毫秒",
            ),
        ] {
            let sections = comparison_sections(lang, &report);
            let lists: Vec<&Notes> = sections[0]
                .blocks
                .iter()
                .filter_map(|b| match b {
                    Block::Notes(n) if n.class == "connections" => Some(n),
                    _ => None,
                })
                .collect();
            assert_eq!(lists.len(), 1);
            assert_eq!(lists[0].items.len(), 1, "only the target that opened one");
            assert_eq!(lists[0].items[0].target, Some(0));
            assert_eq!(lists[0].items[0].text, said);
        }
        // None timed: no list, not an empty one.
        let plain = build_report(
            &plan,
            &samples
                .iter()
                .cloned()
                .map(|mut s| {
                    s.connection = None;
                    s
                })
                .collect::<Vec<_>>(),
            0,
            1,
        );
        let sections = comparison_sections(Lang::En, &plain);
        assert!(
            !sections[0]
                .blocks
                .iter()
                .any(|b| matches!(b, Block::Notes(n) if n.class == "connections"))
        );
    }

    fn report() -> Report {
        let plan = Plan {
            targets: vec![Target::demo("A", "m"), Target::demo("B", "m")],
            ..Plan::default()
        };
        let samples: Vec<_> = (0..40)
            .flat_map(|i| {
                let slow = if i % 10 == 0 { 4_000.0 } else { 0.0 };
                [
                    sample(
                        0,
                        i,
                        f64::from(i) * 1_000.0,
                        Some(300.0 + f64::from(i % 7)),
                        false,
                    ),
                    sample(1, i, f64::from(i) * 1_000.0, Some(500.0 + slow), false),
                ]
            })
            .collect();
        build_report(&plan, &samples, 0, 1)
    }

    #[test]
    fn a_section_per_model_its_table_s_cells_the_report_s_figures() {
        let report = report();
        for lang in [Lang::En, Lang::ZhCn] {
            let sentences = report_sentences(&report, lang);
            let sections = comparison_sections(lang, &report);
            assert_eq!(sections.len(), report.models.len());
            let section = &sections[0];
            assert_eq!(
                (section.id.as_str(), section.kind),
                ("model-0", MODEL_BLOCK)
            );
            let table = section.tables().next().expect("the comparison");
            assert_eq!(table.columns.len(), 9);
            assert_eq!(table.columns[table.heading_column()].role, Role::Heading);
            assert_eq!(table.rows.len(), 2);
            for row in &table.rows {
                assert_eq!(row.cells.len(), table.columns.len());
                assert_eq!(row.values.len(), table.columns.len());
                let target = &report.targets[row.data[0].1.parse::<usize>().unwrap()];
                let ttft = target.ttft.expect("measured");
                assert_eq!(row.cells[1], target.label);
                assert_eq!(row.values[3], Some(ttft.median.to_string()));
                assert_eq!(row.values[4], Some(ttft.p95.to_string()));
                assert_eq!(row.values[6], Some(ttft.cv_pct.to_string()));
                assert_eq!(row.values[7], Some(target.error_rate.to_string()));
                assert!(row.judgement.is_some());
            }
            // Every sentence of the model is in it, once, in the page's order.
            let said = &sentences.models[0];
            let notes = section.notes();
            let expected: Vec<_> = [&said.verdicts, &said.by_size, &said.tails, &said.timeouts]
                .into_iter()
                .chain([&said.goodput, &said.slow])
                .flatten()
                .cloned()
                .collect();
            assert_eq!(notes, expected);
            let texts: Vec<&str> = section
                .blocks
                .iter()
                .filter_map(|block| match block {
                    Block::Sentence(s) => Some(s.text.as_str()),
                    _ => None,
                })
                .collect();
            for text in said
                .consistency
                .iter()
                .chain(&said.best_provider)
                .chain(&said.distinctions)
            {
                assert_eq!(texts.iter().filter(|t| **t == text).count(), 1, "{text}");
            }
            assert!(
                section
                    .blocks
                    .iter()
                    .all(|b| !matches!(b, Block::Notes(n) if n.items.is_empty()))
            );
        }
    }

    #[test]
    fn a_target_without_a_success_is_said_not_left_out() {
        assert!(no_success_section(Lang::En, &report()).is_none());
        let plan = Plan {
            targets: vec![Target::demo("A", "m"), Target::demo("Down", "m")],
            ..Plan::default()
        };
        let samples: Vec<_> = (0..5)
            .flat_map(|i| {
                let at = f64::from(i) * 1_000.0;
                [
                    sample(0, i, at, Some(300.0), false),
                    sample(1, i, at, None, false),
                ]
            })
            .collect();
        let report = build_report(&plan, &samples, 0, 1);
        for lang in [Lang::En, Lang::ZhCn] {
            let section = no_success_section(lang, &report).expect("a target without a success");
            let notes = section.notes();
            assert_eq!(notes.len(), 1);
            assert_eq!((notes[0].target, notes[0].label.as_str()), (1, "Down"));
            assert!(notes[0].text.contains('5'), "{}", notes[0].text);
            // Why, in the failure's own words.
            let why = match lang {
                Lang::En => "5 of 5 failed with “the provider answered HTTP 503”",
                // Recorded without its status: the kind alone, in Chinese.
                Lang::ZhCn => "5 个失败中有 5 个：HTTP 错误",
            };
            assert!(notes[0].text.ends_with(why), "{}", notes[0].text);
        }
        let reason = report.targets[1].failure_reason.clone().unwrap();
        assert_eq!((reason.count, reason.of, reason.status), (5, 5, None));
        assert_eq!(report.targets[0].failure_reason, None);
    }
}
