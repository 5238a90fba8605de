//! Prompts of a chosen length, for measuring TTFT by input size.
//!
//! A plan with `prompt_sizes` sends, instead of its short prompt alone, a
//! synthetic prompt of about N input tokens: the nonce first (when `nonce`
//! is on, so no provider's prefix cache can serve any part of it), then
//! deterministic filler text in the language of the plan's prompt, then an
//! instruction to keep the reply short and the plan's own prompt. The
//! filler is the same for every request of a size, so two sends differ only
//! in their nonce, and a cache-probe repeat (same nonce) is the very same
//! text. Without sizes the plan's prompt goes with the nonce on the line
//! before it, for the same reason.
//!
//! The nonce ([`request_nonce`]) is `{digest}-{run_id}-{target}-{seq}`:
//! sixteen hex digits of a 64-bit digest of the other three, then the run
//! id, the target's index and the `seq` whose prompt it is, so a provider's
//! log still names the run and the request. Prefix caches (llama.cpp's
//! prompt reuse, vLLM's and SGLang's prefix caching, OpenAI's automatic
//! cache) serve the longest beginning a prompt shares with an earlier one:
//! with the run id first, every prompt of a run shared `[run-…-` and a
//! llama.cpp server reused about 26 tokens of each "fresh" prompt. The
//! digest comes first, with no bracket or other fixed mark before it, so
//! two requests differ from their first token on. A real tokenizer may cut
//! the digest into pieces of a few hex digits; two digests begin with the
//! same digit one time in 16, and then may share that one piece, never
//! more than their common leading digits (on average under 0.07 tokens).
//!
//! Sizing counts tokens with [`count_tokens`], a simple rule that real
//! tokenizers follow closely for this filler (common short words, one token
//! each with their leading space; one token per Chinese character or
//! punctuation mark). The provider's own count is what the analysis uses
//! (`Sample::input_tokens`); the requested size only names the group.

use serde::{Deserialize, Serialize};

use crate::planning::plan::Plan;
// The cycle of sizes is the plan's own (its rules check it), named here too.
pub use crate::planning::plan::{cycle, requests_per_size};

/// The nonce of a request: unique to `run_id`, `target` and `nonce_seq`
/// from its first character (see the module doc for why and for the
/// format), and the same every time for the same three, so a cache-probe
/// repeat, which carries its first send's `nonce_seq`
/// ([`crate::planning::schedule::PlannedRequest::nonce_seq`]), sends the very same
/// prompt, and a resumed run the nonces it would have sent.
///
/// The digest is SplitMix64's finaliser folded over the run id's bytes, its
/// length, the target and the seq: a pure function, no clock and no random
/// source, so both adapters make the same nonce for the same request.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn request_nonce(run_id: &str, target: u32, nonce_seq: u32) -> String {
    let digest = nonce_digest(run_id, target, nonce_seq);
    format!("{digest:016x}-{run_id}-{target}-{nonce_seq}")
}

/// The 64-bit digest that leads [`request_nonce`].
#[cfg_attr(target_arch = "wasm32", inline)]
fn nonce_digest(run_id: &str, target: u32, nonce_seq: u32) -> u64 {
    // SplitMix64's step and finaliser: every input bit reaches every output
    // bit, so requests one seq apart share no leading digit but by chance.
    let mix = |state: u64, value: u64| {
        let mut z = (state ^ value).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let state = run_id
        .bytes()
        .fold(0, |state, byte| mix(state, u64::from(byte)));
    let state = mix(state, run_id.len() as u64);
    let state = mix(state, u64::from(target));
    mix(state, u64::from(nonce_seq))
}

/// Which size of prompt a request sends, and whether it repeats an earlier
/// send of the same target (the prompt-cache probe).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SizedPrompt {
    /// The requested size, input tokens (the plan's `prompt_sizes` entry).
    pub tokens: u32,
    /// For a cache-probe repeat, the `seq` of the first send whose prompt
    /// (nonce included) it sends again; left out of documents otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat_of: Option<u32>,
}

/// Tokens of `text` by the rule the synthetic prompt is sized with and the
/// mock provider counts with: each run of ASCII letters and digits is one
/// token, and so is every other character that is not white space (a
/// punctuation mark, a Chinese character).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn count_tokens(text: &str) -> u32 {
    let mut count: u32 = 0;
    let mut in_word = false;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if !in_word {
                count = count.saturating_add(1);
                in_word = true;
            }
        } else {
            in_word = false;
            if !c.is_whitespace() {
                count = count.saturating_add(1);
            }
        }
    }
    count
}

/// Filler words, English: common short words real tokenizers keep whole.
const FILLER_EN: &[&str] = &[
    "the", "river", "runs", "past", "a", "small", "town", "where", "people", "walk", "to", "work",
    "and", "back", "each", "day", "under", "trees", "that", "grow", "by", "old", "stone", "walls",
    "while", "birds", "sing", "in", "warm", "light", "of", "long", "summer", "evenings",
];

/// Filler characters, Chinese: common characters, one token each.
const FILLER_ZH: &[&str] = &[
    "河", "水", "流", "过", "小", "城", "人", "们", "每", "天", "走", "路", "去", "上", "班", "又",
    "回", "家", "树", "下", "石", "墙", "边", "鸟", "在", "暖", "光", "里", "唱", "歌", "长", "夏",
];

/// Whether the plan's prompt is Chinese (any CJK ideograph), which picks
/// the filler's language.
#[cfg_attr(target_arch = "wasm32", inline)]
fn is_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// The instruction between the filler and the plan's prompt.
#[cfg_attr(target_arch = "wasm32", inline)]
fn keep_short(chinese: bool) -> &'static str {
    if chinese {
        "以上文字只是填充，请忽略。只用一句话简短回答："
    } else {
        "The text above is filler for a timing test; ignore it. Answer in one short sentence:"
    }
}

/// The synthetic prompt of about `tokens` input tokens (by
/// [`count_tokens`]) for `plan`, with `nonce` at the very start when given.
///
/// Never shorter than the nonce, the instruction and the plan's prompt:
/// a size below those is sent as just them.
///
/// Cost: O(tokens) time and memory.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn synthetic_prompt(plan: &Plan, tokens: u32, nonce: Option<&str>) -> String {
    let chinese = is_chinese(&plan.prompt);
    // No bracket or other mark before the nonce: it would be a leading
    // token every prompt shares (see the module doc).
    let head = nonce.map(|nonce| format!("{nonce}\n")).unwrap_or_default();
    let tail = format!("\n\n{} {}", keep_short(chinese), plan.prompt);
    let fixed = count_tokens(&head).saturating_add(count_tokens(&tail));
    let filler = tokens.saturating_sub(fixed) as usize;
    let words = if chinese { FILLER_ZH } else { FILLER_EN };
    let mut text = String::with_capacity(head.len() + tail.len() + filler * 6);
    text.push_str(&head);
    for i in 0..filler {
        // A full stop every 12 words keeps it prose-like; it counts as a
        // token, so it takes a word's place.
        let piece = if i % 12 == 11 {
            if chinese { "。" } else { "." }
        } else {
            words[i % words.len()]
        };
        if !chinese && i > 0 && i % 12 != 11 {
            text.push(' ');
        }
        text.push_str(piece);
    }
    text.push_str(&tail);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan_with(sizes: &[u32], probe: bool) -> Plan {
        Plan {
            prompt_sizes: Some(sizes.to_vec()),
            prompt_cache_probe: probe,
            ..Plan::default()
        }
    }

    #[test]
    fn the_prompt_is_sized_to_the_token_and_starts_with_the_nonce() {
        let plan = Plan::default();
        for size in [128, 2_048, 8_192, 32_768] {
            let nonce = request_nonce("run-1", 0, 7);
            let text = synthetic_prompt(&plan, size, Some(&nonce));
            assert_eq!(count_tokens(&text), size, "size {size}");
            assert!(text.starts_with(&format!("{nonce}\n")));
            assert!(text.ends_with(&plan.prompt));
            assert_eq!(text, synthetic_prompt(&plan, size, Some(&nonce)));
        }
        let chinese = Plan {
            prompt: "用一句话回答：法国的首都是哪里？".to_owned(),
            ..Plan::default()
        };
        let text = synthetic_prompt(&chinese, 4_096, None);
        assert_eq!(count_tokens(&text), 4_096);
        assert!(text.starts_with("河水流过"));
        // A size below the fixed parts sends just them.
        let tiny = synthetic_prompt(&plan, 3, None);
        assert!(count_tokens(&tiny) > 3 && tiny.ends_with(&plan.prompt));
    }

    #[test]
    fn every_request_s_nonce_differs_from_its_first_token() {
        let nonce = request_nonce("run-1764000000000", 1, 12);
        let (digest, rest) = nonce.split_at(16);
        assert!(digest.chars().all(|c| c.is_ascii_hexdigit()), "{nonce}");
        // The run id, target and seq stay readable after the digest.
        assert_eq!(rest, "-run-1764000000000-1-12");
        assert_eq!(nonce, request_nonce("run-1764000000000", 1, 12));
        // Two requests of a run, of one target or of two, or the same
        // request of another run: no leading token (by `count_tokens`, the
        // digest is one) in common, and few leading digits.
        let mut digests = std::collections::HashSet::new();
        let mut same_first_digit = 0;
        let mut previous = request_nonce("run-1", 0, 0);
        for run in ["run-1", "run-2"] {
            for target in 0..4 {
                for seq in 0..250 {
                    let nonce = request_nonce(run, target, seq);
                    assert!(digests.insert(nonce[..16].to_owned()), "{nonce}");
                    same_first_digit += usize::from(nonce[..1] == previous[..1]);
                    previous = nonce;
                }
            }
        }
        // About 1 in 16 of 2 000 neighbours by chance (125).
        assert!((60..=190).contains(&same_first_digit), "{same_first_digit}");
    }

    #[test]
    fn tokens_are_words_and_other_marks() {
        assert_eq!(count_tokens("the river, runs."), 5);
        assert_eq!(count_tokens("河水 流过"), 4);
        assert_eq!(count_tokens("  "), 0);
        assert_eq!(count_tokens("[abc-1-2]"), 7);
    }

    #[test]
    fn the_cycle_repeats_long_sizes_only_when_probing() {
        assert_eq!(cycle(&Plan::default()), vec![]);
        assert_eq!(requests_per_size(&Plan::default()), None);
        let plan = plan_with(&[128, 8_192], false);
        assert_eq!(cycle(&plan), vec![(128, false), (8_192, false)]);
        let probing = plan_with(&[128, 8_192], true);
        assert_eq!(
            cycle(&probing),
            vec![(128, false), (8_192, false), (8_192, true)]
        );
        assert_eq!(requests_per_size(&probing), Some(33));
    }

    #[test]
    fn sizes_rotate_on_the_shared_rounds_and_repeats_carry_the_first_nonce() {
        use crate::planning::plan::{Protocol, Target};
        use crate::planning::schedule::Schedule;
        use crate::wire::protocol::build_planned_request;
        let target = Target {
            label: "a".into(),
            protocol: Protocol::OpenAi,
            base_url: "https://api.example.com/v1".into(),
            model: "m".into(),
            provider: None,
            price: None,
            openrouter_provider: None,
        };
        let mut plan = plan_with(&[128, 2_048], true);
        plan.targets = vec![target.clone(), target];
        plan.requests_per_target = 6;
        plan.warmup_per_target = 1;
        plan.nonce = true;
        let schedule = Schedule::new(&plan, 0.0, 7);
        let of = |target: u32| -> Vec<Option<SizedPrompt>> {
            schedule
                .requests
                .iter()
                .filter(|r| r.target == target)
                .map(|r| r.sized_prompt)
                .collect()
        };
        let first = |tokens| {
            Some(SizedPrompt {
                tokens,
                repeat_of: None,
            })
        };
        let expected = vec![
            first(128),
            first(128),
            first(2_048),
            Some(SizedPrompt {
                tokens: 2_048,
                repeat_of: Some(2),
            }),
            first(128),
            first(2_048),
            Some(SizedPrompt {
                tokens: 2_048,
                repeat_of: Some(5),
            }),
        ];
        assert_eq!(of(0), expected);
        assert_eq!(of(1), expected, "every target, the same rounds");
        let body = |seq: u32| {
            let planned = schedule
                .requests
                .iter()
                .find(|r| r.target == 0 && r.seq == seq);
            let planned = planned.copied().unwrap();
            let nonce = request_nonce("run", 0, planned.nonce_seq());
            build_planned_request(&plan.targets[0], &plan, &planned, None, Some(&nonce)).body
        };
        assert_eq!(body(2), body(3), "the repeat sends the very same prompt");
        assert_ne!(body(2), body(5));
        assert!(body(2).contains(&format!("\"{}\\n", request_nonce("run", 0, 2))));
        // A plan without sizes plans exactly what it did.
        plan.prompt_sizes = None;
        let plain = Schedule::new(&plan, 0.0, 7);
        assert!(plain.requests.iter().all(|r| r.sized_prompt.is_none()));
    }
}
