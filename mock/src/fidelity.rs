//! Answers to the fidelity check's probes, for the `faithful` and `degraded` scripts.
//!
//! The app's fidelity check sends the probes of `firsttoken_core::planning::fidelity::suite` and judges
//! each reply by rule. What an end-to-end test checks there is the client, not the suite: that
//! it puts streamed text and function-call fragments back together in every protocol, reads the
//! prompt count where each protocol reports it, and scores a target that answers differently.
//! So the mock answers as a perfect model would (`faithful`), or gets a fixed set of probes
//! wrong and counts another chat template into the prompt (`degraded`), and does either the
//! same way on every repeat: two repeats that disagree are the client's doing, never the mock's.
//!
//! Replies are cut the way real servers cut them: text into deltas of a few characters that
//! split words, and a call's JSON arguments into 1–4 character fragments that split keys and
//! string values (Gemini alone sends a call whole, its arguments as an object).

use std::sync::OnceLock;

use firsttoken_core::planning::fidelity::suite::{Probe, Suite, TOOLS};
use serde_json::{Map, Value};

/// The suite whose prompts the fidelity scripts recognise.
pub const SUITE: Suite = Suite::Basic1;

/// Prompt tokens a chat template adds around the one user message, in the `faithful` count.
pub const TEMPLATE_TOKENS: u32 = 8;

/// Prompt tokens `degraded` reports on top of `faithful` on every request, probes and latency
/// requests alike: another chat template's worth, what a target that wraps the prompt in its
/// own system text shows.
pub const DEGRADED_EXTRA_PROMPT_TOKENS: u32 = 23;

/// Characters per content delta, cycled: short and uneven, so words are cut mid-way.
const TEXT_PIECE_CHARS: [usize; 4] = [2, 3, 1, 4];

/// Characters per argument fragment, cycled: 1–4 puts cuts inside keys, inside string values
/// and between a closing quote and its colon, where a decoder that parses each fragment breaks.
const ARGUMENT_FRAGMENT_CHARS: [usize; 5] = [1, 3, 2, 4, 3];

/// A reply that fails every rule of the suite: no number, not one word, not JSON, not Chinese,
/// no call. The fallback wrong answer of a probe the table below does not know.
const FAILS_EVERY_RULE: &str = "I am not sure.";

/// What a reply says, cut the way it streams.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Text, as content deltas in order.
    Text(Vec<String>),
    /// One function call.
    Call(Call),
}

/// A function call as it streams.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// The function's name.
    pub name: String,
    /// The arguments' JSON text cut into the fragments OpenAI and Anthropic stream; joined,
    /// they are the text exactly (invalid JSON included, when the answer is a broken call).
    pub fragments: Vec<String>,
    /// The arguments as Gemini sends them, a whole object: Gemini cannot send JSON text, so
    /// arguments cut off mid-JSON go out as the members that were complete.
    pub args: Value,
}

/// The answer to one probe, and what the reply's usage reports about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeAnswer {
    /// The probe answered.
    pub probe_id: &'static str,
    /// Whether this is the probe's wrong answer (`degraded`).
    pub wrong: bool,
    /// What the reply says.
    pub answer: Answer,
    /// Output tokens the usage reports: an estimate from the answer's text, never above the
    /// probe's `max_tokens`.
    pub output_tokens: u32,
}

impl ProbeAnswer {
    /// The answer to `probe`: its model answer, or its wrong answer when `wrong`.
    pub fn new(probe: &'static Probe, wrong: bool) -> Self {
        let text = if wrong {
            wrong_answer(probe.id)
        } else {
            probe.model_answer
        };
        ProbeAnswer {
            probe_id: probe.id,
            wrong,
            answer: parse_answer(text),
            output_tokens: estimate_tokens(text).clamp(1, probe.max_tokens.max(1)),
        }
    }

    /// The call, when the answer is one.
    pub fn call(&self) -> Option<&Call> {
        match &self.answer {
            Answer::Call(call) => Some(call),
            Answer::Text(_) => None,
        }
    }
}

/// The suite's probe whose prompt is exactly `prompt`, if any.
pub fn find_probe(prompt: &str) -> Option<&'static Probe> {
    // The long-context prompts are built on each call of `prompt()` (16 kB each): build them
    // once, not once per request and probe.
    static PROMPTS: OnceLock<Vec<(String, &'static Probe)>> = OnceLock::new();
    PROMPTS
        .get_or_init(|| {
            SUITE
                .probes()
                .iter()
                .map(|probe| (probe.prompt().into_owned(), probe))
                .collect()
        })
        .iter()
        .find(|(text, _)| text == prompt)
        .map(|(_, probe)| *probe)
}

/// Prompt tokens `faithful` reports for a probe's prompt: [`TEMPLATE_TOKENS`] plus
/// [`estimate_tokens`] of the prompt text. Identical requests give identical counts, which is
/// what the fidelity check compares between targets.
pub fn probe_prompt_tokens(prompt: &str) -> u32 {
    TEMPLATE_TOKENS.saturating_add(estimate_tokens(prompt))
}

/// A tokenizer's count, roughly: four ASCII characters a token, rounded up, plus one token per
/// other character (BPE vocabularies split CJK text about a character a token).
pub fn estimate_tokens(text: &str) -> u32 {
    let ascii = text.chars().filter(char::is_ascii).count();
    let other = text.chars().count() - ascii;
    u32::try_from(ascii.div_ceil(4) + other).unwrap_or(u32::MAX)
}

/// The probes `degraded@share_percent` answers wrong, in suite order: the suite ordered by a
/// fixed hash of each id, then the first round(share × probes / 100) taken. The same share
/// always picks the same probes, and a larger share picks a superset.
pub fn wrong_probe_ids(share_percent: u64) -> Vec<&'static str> {
    let probes = SUITE.probes();
    let count = (share_percent.min(100) as usize * probes.len() + 50) / 100;
    let mut ranked: Vec<&'static str> = probes.iter().map(|probe| probe.id).collect();
    ranked.sort_by_key(|id| (id_hash(id), *id));
    ranked.truncate(count);
    probes
        .iter()
        .map(|probe| probe.id)
        .filter(|id| ranked.contains(id))
        .collect()
}

/// FNV-1a of `degraded.{id}`, finished with SplitMix64 so that ids alike but for their last
/// letters still land far apart. The key's prefix was picked among a few so that the default
/// 30 % spans eight of the ten categories and both ways a call breaks (cut-off JSON, wrong
/// values): a default that exercises one verifier only would test little.
fn id_hash(id: &str) -> u64 {
    let fnv = WRONG_SET_KEY
        .bytes()
        .chain(id.bytes())
        .fold(0xCBF2_9CE4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01B3)
        });
    crate::leaf::splitmix64(fnv)
}

/// Hashed before each probe id to order the probes for `degraded`.
const WRONG_SET_KEY: &str = "degraded.";

/// A plausible wrong answer of each `basic-1` probe, each failing its rule a different way:
/// a near-miss number, a wrong word, JSON with a wrong value or cut off, English to a Chinese
/// question, a call whose arguments are cut off, carry a member the schema lacks, or hold a
/// wrong value, and a call where none may be made.
fn wrong_answer(probe_id: &str) -> &'static str {
    match probe_id {
        "arith-mul" => "381",
        "arith-add" => "8768",
        "arith-power" => "2048",
        "arith-word" => "12",
        "arith-sub" => "763",
        "count-letter" => "3",
        "count-words" => "8",
        "count-vowels" => "4",
        "date-days" => "3",
        "date-weekday" => "Friday",
        "reverse-latency" => "ycneatl",
        "reverse-provider" => "redivopr",
        "json-person" => r#"{"name": "Ada", "year": 1816}"#,
        "json-list" => r#"{"ok": true, "primes": [2, 3, 5]}"#,
        "json-nested" => r#"{"city": "Lyon", "country": {"code": "FR""#,
        "word-capital" => "Kyoto",
        "word-planet" => "Jupiter",
        "word-opposite" => "Cool",
        "zh-capital" => "上海",
        "zh-seasons" => "三",
        "zh-translate" => "Thank you",
        "long-code" => "7324",
        "long-cat" => "Muffin",
        "tool-weather-auto" => r#"get_weather({"city": "Paris", "un)"#,
        "tool-weather-required" => r#"get_weather({"city": "Tokyo", "unit": "celsius"})"#,
        "tool-currency-auto" => {
            r#"convert_currency({"amount": 250, "from": "EUR", "to": "USD", "date": "today"})"#
        }
        "tool-currency-named" => {
            r#"convert_currency({"amount": 1000, "from": "GBP", "to": "JPY"})"#
        }
        "tool-weather-zh" => r#"get_weather({"city": "Shanghai", "unit": "celsius"})"#,
        "no-tool-capital" => r#"get_weather({"city": "Rome", "unit": "celsius"})"#,
        "no-tool-greeting" => "Hola",
        _ => FAILS_EVERY_RULE,
    }
}

/// Reads an answer as the suite writes it: `name({arguments})` for a call of one of the
/// suite's functions, text otherwise.
fn parse_answer(text: &str) -> Answer {
    let call = TOOLS.iter().find_map(|tool| {
        text.strip_prefix(tool.name)
            .and_then(|rest| rest.strip_prefix('('))
            .and_then(|rest| rest.strip_suffix(')'))
            .map(|arguments| (tool.name, arguments))
    });
    match call {
        Some((name, arguments)) => Answer::Call(Call {
            name: name.to_owned(),
            fragments: cut(arguments, &ARGUMENT_FRAGMENT_CHARS),
            args: arguments_object(arguments),
        }),
        None => Answer::Text(cut(text, &TEXT_PIECE_CHARS)),
    }
}

/// `text` in pieces of `sizes[i % len]` characters (never inside a UTF-8 character).
fn cut(text: &str, sizes: &[usize]) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut turn = 0;
    while start < chars.len() {
        let size = sizes
            .get(turn % sizes.len().max(1))
            .copied()
            .unwrap_or(1)
            .max(1);
        let end = (start + size).min(chars.len());
        pieces.push(chars[start..end].iter().collect());
        start = end;
        turn += 1;
    }
    pieces
}

/// The arguments as an object: parsed whole, or, cut off, the members before the last comma
/// that still parse, or `{}`.
fn arguments_object(arguments: &str) -> Value {
    if let Ok(Value::Object(members)) = serde_json::from_str::<Value>(arguments) {
        return Value::Object(members);
    }
    let mut end = arguments.len();
    while let Some(comma) = arguments[..end].rfind(',') {
        if let Ok(Value::Object(members)) =
            serde_json::from_str::<Value>(&format!("{}}}", &arguments[..comma]))
        {
            return Value::Object(members);
        }
        end = comma;
    }
    Value::Object(Map::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use firsttoken_core::planning::fidelity::reply::ToolCall;
    use firsttoken_core::planning::fidelity::verify::{ProbeReply, verify};

    /// `answer` as the client would have put it back together, checked by the real verifier.
    fn passes(probe: &Probe, answer: &ProbeAnswer, gemini: bool) -> bool {
        let (text, calls) = match &answer.answer {
            Answer::Text(pieces) => (pieces.concat(), Vec::new()),
            Answer::Call(call) => {
                let arguments = if gemini {
                    call.args.to_string()
                } else {
                    call.fragments.concat()
                };
                (
                    String::new(),
                    vec![ToolCall {
                        name: call.name.clone(),
                        arguments,
                    }],
                )
            }
        };
        verify(
            probe,
            &ProbeReply {
                answer: &text,
                tool_calls: &calls,
                finish_reason: Some("stop"),
                output_tokens: Some(answer.output_tokens),
            },
        )
        .passed
    }

    #[test]
    fn every_probe_is_found_by_its_prompt_and_nothing_else_is() {
        for probe in SUITE.probes() {
            assert_eq!(find_probe(&probe.prompt()).map(|p| p.id), Some(probe.id));
        }
        assert!(find_probe("Say hello.").is_none());
        assert!(find_probe(&format!("{} [n1]", SUITE.probes()[0].prompt())).is_none());
    }

    #[test]
    fn right_answers_pass_and_wrong_answers_fail_in_every_shape() {
        for probe in SUITE.probes() {
            let right = ProbeAnswer::new(probe, false);
            let wrong = ProbeAnswer::new(probe, true);
            for gemini in [false, true] {
                assert!(passes(probe, &right, gemini), "{}: {right:?}", probe.id);
                assert!(!passes(probe, &wrong, gemini), "{}: {wrong:?}", probe.id);
            }
            assert_ne!(wrong_answer(probe.id), FAILS_EVERY_RULE, "{}", probe.id);
            assert!(right.output_tokens <= probe.max_tokens);
            assert!(wrong.output_tokens <= probe.max_tokens);
        }
    }

    #[test]
    fn text_is_cut_mid_word_and_multi_byte_characters_stay_whole() {
        assert_eq!(cut("Saturday", &TEXT_PIECE_CHARS), ["Sa", "tur", "d", "ay"]);
        assert_eq!(cut("不客气", &TEXT_PIECE_CHARS), ["不客", "气"]);
        assert!(cut("", &TEXT_PIECE_CHARS).is_empty());
    }

    #[test]
    fn call_arguments_stream_in_small_fragments_and_gemini_gets_an_object() {
        let probe = SUITE.probe("tool-weather-auto").unwrap();
        let right = ProbeAnswer::new(probe, false);
        let call = right.call().unwrap();
        assert_eq!(call.name, "get_weather");
        assert_eq!(
            call.fragments.concat(),
            r#"{"city": "Paris", "unit": "celsius"}"#
        );
        assert!(call.fragments.len() > 10);
        assert!(
            call.fragments
                .iter()
                .all(|f| (1..=4).contains(&f.chars().count()))
        );
        assert_eq!(
            call.args,
            serde_json::json!({"city": "Paris", "unit": "celsius"})
        );
        // Cut off: the JSON text stays broken, Gemini's object keeps the complete member.
        let wrong = ProbeAnswer::new(probe, true);
        let call = wrong.call().unwrap();
        assert_eq!(call.fragments.concat(), r#"{"city": "Paris", "un"#);
        assert_eq!(call.args, serde_json::json!({"city": "Paris"}));
        assert_eq!(arguments_object("{\"a"), serde_json::json!({}));
    }

    #[test]
    fn the_wrong_share_is_fixed_rounded_and_nested() {
        assert!(wrong_probe_ids(0).is_empty());
        assert_eq!(wrong_probe_ids(100).len(), SUITE.probes().len());
        let default = wrong_probe_ids(30);
        assert_eq!(
            default,
            [
                "arith-mul",
                "date-weekday",
                "reverse-provider",
                "json-nested",
                "word-capital",
                "zh-translate",
                "tool-weather-auto",
                "tool-currency-named",
                "no-tool-greeting",
            ]
        );
        assert_eq!(default, wrong_probe_ids(30));
        // 5 % of 30 is 1.5 probes: rounded to 2.
        assert_eq!(wrong_probe_ids(5).len(), 2);
        for share in 0..100 {
            let smaller = wrong_probe_ids(share);
            let larger = wrong_probe_ids(share + 1);
            assert!(smaller.iter().all(|id| larger.contains(id)), "{share}");
        }
    }

    #[test]
    fn token_estimates() {
        assert_eq!(estimate_tokens("391"), 1);
        assert_eq!(estimate_tokens("Saturday"), 2);
        assert_eq!(estimate_tokens("北京"), 2);
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(probe_prompt_tokens("abcde"), TEMPLATE_TOKENS + 2);
    }
}
