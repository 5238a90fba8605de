//! The nonce against a prefix cache: `firsttoken run` against the mock's
//! `prefill-prefix` script, which serves every prompt the longest leading
//! run of tokens it shares with an earlier prompt of its model, as
//! llama.cpp's server does. With the nonce first, no first send finds any
//! token cached, whatever its size or target; a cache-probe repeat finds
//! all of its prompt but the last token.

use firsttoken_core::documents::results::ResultsDoc;
use firsttoken_core::planning::plan::Protocol;

use super::support::{firsttoken, mock, quick_plan, run, run_plan, scratch, target, texts};

/// Each sample's prompt size (`None` for the plan's own prompt), whether it
/// is a cache-probe repeat, its input tokens and its cached tokens.
fn cache_reports(doc: &ResultsDoc) -> Vec<(Option<u32>, bool, u32, u32)> {
    doc.samples
        .iter()
        .map(|sample| {
            assert!(sample.error.is_none(), "{sample:?}");
            (
                sample.sized_prompt.map(|sized| sized.tokens),
                sample
                    .sized_prompt
                    .is_some_and(|sized| sized.repeat_of.is_some()),
                sample.input_tokens.unwrap(),
                sample.cached_tokens.unwrap(),
            )
        })
        .collect()
}

#[test]
fn no_prefix_cache_serves_any_of_a_first_send_and_a_repeat_is_served_whole() {
    let mock = mock();
    // Two targets of one model on one server share its cache, as two
    // labels for one llama.cpp server would: a prompt of either is compared
    // with the other's too.
    let model = "prefill-prefix@400000/m";
    let targets = vec![
        target(&mock, Protocol::OpenAi, model),
        target(&mock, Protocol::Anthropic, model),
    ];

    let mut sized = quick_plan(targets.clone(), 10);
    sized.warmup_per_target = 1;
    sized.nonce = true;
    sized.prompt_sizes = Some(vec![128, 2_048, 8_192]);
    sized.prompt_cache_probe = true;
    let dir = scratch("nonce-sized");
    let sized_reports = cache_reports(&run_plan(&dir, &sized).succeeded().doc());

    let mut plain = quick_plan(targets, 6);
    plain.warmup_per_target = 1;
    plain.nonce = true;
    let dir = scratch("nonce-plain");
    let plain_run = run_plan(&dir, &plain).succeeded();
    let plain_reports = cache_reports(&plain_run.doc());
    prompt_cache_section_in_text_and_html(&plain_run.results);

    let mut first_sends = 0;
    let mut repeats = 0;
    for &(size, repeat, input, cached) in sized_reports.iter().chain(&plain_reports) {
        println!("size {size:?} repeat {repeat}: {cached} of {input} input tokens cached");
        if repeat {
            repeats += 1;
            assert_eq!(
                cached,
                input - 1,
                "a repeat is served all but its last token"
            );
        } else {
            first_sends += 1;
            assert_eq!(
                cached, 0,
                "a first send (size {size:?}) shares no leading token with any earlier prompt"
            );
        }
    }
    // Every size and the plan's own prompt, of both targets, warm-ups in.
    for size in [None, Some(128), Some(2_048), Some(8_192)] {
        assert!(
            sized_reports
                .iter()
                .chain(&plain_reports)
                .filter(|report| report.0 == size && !report.1)
                .count()
                >= 4,
            "{size:?}"
        );
    }
    // Sized: per target a warm-up and two cycles of 128, 2 048, its repeat,
    // 8 192, its repeat; plain: per target a warm-up and six.
    assert_eq!((first_sends, repeats), (2 * 7 + 2 * 7, 2 * 4));
}

/// `firsttoken report` and `report --html` print the outline's "Prompt
/// cache" section for a run whose provider reported cached tokens: the
/// same rows (both targets, every counted request reported, no hit with
/// the nonce on) and the nonce's note, in the terminal's columns and as
/// an HTML table with each figure in `data-value`.
fn prompt_cache_section_in_text_and_html(results: &std::path::Path) {
    let text = run(firsttoken().arg("report").arg(results));
    let (text, stderr) = texts(&text);
    assert!(stderr.is_empty() || !stderr.contains("error"), "{stderr}");
    let start = text.find("\nPrompt cache\n").expect(&text) + 1;
    // To the next section (each starts after a blank line).
    let section = &text[start
        ..text[start..]
            .find("\n\n")
            .map_or(text.len(), |end| start + end)];
    assert!(section.contains("Samples with a cache figure"), "{section}");
    assert!(
        section.contains("This run put a nonce at the start of every prompt"),
        "{section}"
    );
    let rows: Vec<&str> = section
        .lines()
        .filter(|l| l.contains("prefill-prefix"))
        .collect();
    assert_eq!(rows.len(), 2, "{section}");
    assert!(
        rows.iter()
            .all(|row| row.contains(" 6 ") && row.contains("0 (0.0 %)")),
        "{rows:?}"
    );

    let file = results.with_file_name("report.html");
    let output = run(firsttoken()
        .arg("report")
        .arg("--html")
        .arg(&file)
        .arg(results));
    assert!(output.status.success(), "{}", texts(&output).1);
    let html = std::fs::read_to_string(&file).unwrap();
    let start = html
        .find("<section class=\"prompt-cache\">")
        .expect("the section");
    let section = &html[start..start + html[start..].find("</section>").unwrap()];
    assert_eq!(section.matches("<tr data-target=").count(), 2, "{section}");
    assert!(section.contains("data-value=\"6\""), "{section}");
    assert!(section.contains("data-value=\"0\">0 (0.0 %)"), "{section}");
    assert!(
        section.contains("<p class=\"hint\">Providers report"),
        "{section}"
    );
}
