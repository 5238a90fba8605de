//! The nonce against a prefix cache: `firsttoken run` against the mock's
//! `prefill-prefix` script, which serves every prompt the longest leading
//! run of tokens it shares with an earlier prompt of its model, as
//! llama.cpp's server does. With the nonce first, no first send finds any
//! token cached, whatever its size or target; a cache-probe repeat finds
//! all of its prompt but the last token.

use firsttoken_core::plan::Protocol;
use firsttoken_core::results::ResultsDoc;

use super::support::{mock, quick_plan, run_plan, scratch, target};

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
    let plain_reports = cache_reports(&run_plan(&dir, &plain).succeeded().doc());

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
