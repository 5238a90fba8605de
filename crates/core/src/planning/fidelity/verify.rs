//! The verifiers: one rule per kind of expected answer, and the contract
//! checks every probe reply gets. No judging model and no exact match of
//! free text: each rule reads the one part of the reply that has a single
//! right value (the last number, the one word, the JSON members, the call's
//! arguments).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::reply::ToolCall;
use super::suite::{Expect, Probe};

/// Why a probe reply failed its rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProbeFailure {
    /// The reply had no text where text was expected.
    NoAnswer,
    /// The value the rule reads is not the right one.
    WrongAnswer,
    /// More than one word where one was asked for.
    NotOneWord,
    /// The reply does not parse as a JSON object.
    NotJson,
    /// The reply is not in Chinese.
    NotChinese,
    /// A function should have been called and was not.
    MissingToolCall,
    /// No function should have been called and one was.
    UnexpectedToolCall,
    /// A function was called, but not the expected one.
    WrongTool,
    /// The call's arguments do not parse or do not fit the schema.
    InvalidArguments,
    /// The arguments fit the schema but have wrong values.
    WrongArguments,
}

impl ProbeFailure {
    /// Its name in documents.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn as_str(self) -> &'static str {
        match self {
            ProbeFailure::NoAnswer => "no_answer",
            ProbeFailure::WrongAnswer => "wrong_answer",
            ProbeFailure::NotOneWord => "not_one_word",
            ProbeFailure::NotJson => "not_json",
            ProbeFailure::NotChinese => "not_chinese",
            ProbeFailure::MissingToolCall => "missing_tool_call",
            ProbeFailure::UnexpectedToolCall => "unexpected_tool_call",
            ProbeFailure::WrongTool => "wrong_tool",
            ProbeFailure::InvalidArguments => "invalid_arguments",
            ProbeFailure::WrongArguments => "wrong_arguments",
        }
    }
}

/// A probe reply, as its sample keeps it.
#[derive(Clone, Copy, Debug)]
pub struct ProbeReply<'a> {
    /// The answer's text.
    pub answer: &'a str,
    /// The function calls.
    pub tool_calls: &'a [ToolCall],
    /// The finish or stop reason, if the stream sent one.
    pub finish_reason: Option<&'a str>,
    /// Output tokens as the provider counted them (`None` when it did not).
    pub output_tokens: Option<u32>,
}

impl<'a> ProbeReply<'a> {
    /// A reply as a sample keeps it: a missing answer or call list reads as
    /// empty, and the output count is used only when the provider gave it
    /// (a count made from deltas says nothing about `max_tokens`).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn kept(
        answer: Option<&'a str>,
        tool_calls: Option<&'a [ToolCall]>,
        finish_reason: Option<&'a str>,
        output_tokens: Option<u32>,
        tokens_estimated: bool,
    ) -> Self {
        Self {
            answer: answer.unwrap_or_default(),
            tool_calls: tool_calls.unwrap_or_default(),
            finish_reason,
            output_tokens: output_tokens.filter(|_| !tokens_estimated),
        }
    }
}

/// One probe request as the scoring reads it: which target sent which
/// probe, and what came back. Samples make these
/// ([`Sample::probe_answers`](crate::wire::sample::Sample::probe_answers)),
/// so the scoring reads no document type of its own.
#[derive(Clone, Copy, Debug)]
pub struct ProbeAnswer<'a> {
    /// Where it sits among the run's samples (the probe grid opens it).
    pub sample: usize,
    /// The target's index in the plan.
    pub target: u32,
    /// The probe's id in the plan's suite.
    pub probe: &'a str,
    /// The reply as kept; `None` when the request failed.
    pub reply: Option<ProbeReply<'a>>,
    /// The prompt's tokens as the provider counted them.
    pub prompt_tokens: Option<u32>,
}

/// The verifier's outcome for one probe reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeCheck {
    /// The reply is right by the probe's rule.
    pub passed: bool,
    /// Why not, when it is not.
    pub failure: Option<ProbeFailure>,
    /// A function was called.
    pub called: bool,
    /// Every call's arguments parsed and fit its function's schema; `None`
    /// without a call.
    pub schema_valid: Option<bool>,
    /// The stream said why it ended.
    pub finish_reason: bool,
    /// The provider's output count is within the probe's `max_tokens`;
    /// `None` when it gave no count.
    pub within_max_tokens: Option<bool>,
    /// Reasoning came inside the answer (`<think>`) instead of where the
    /// protocol puts it.
    pub reasoning_in_content: bool,
}

/// Checks `reply` against `probe`'s rule and the contract.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn verify(probe: &Probe, reply: &ProbeReply<'_>) -> ProbeCheck {
    let called = !reply.tool_calls.is_empty();
    let schema_valid = called.then(|| {
        reply
            .tool_calls
            .iter()
            .all(|call| typed_arguments(call).is_some())
    });
    let failure = rule(probe.expect, reply);
    ProbeCheck {
        passed: failure.is_none(),
        failure,
        called,
        schema_valid,
        finish_reason: reply.finish_reason.is_some_and(|r| !r.trim().is_empty()),
        within_max_tokens: reply.output_tokens.map(|n| n <= probe.max_tokens),
        reasoning_in_content: reply.answer.contains("<think>"),
    }
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn rule(expect: Expect, reply: &ProbeReply<'_>) -> Option<ProbeFailure> {
    match expect {
        Expect::Call { name, arguments } => {
            let Some(call) = reply.tool_calls.first() else {
                return Some(ProbeFailure::MissingToolCall);
            };
            if call.name.trim() != name {
                return Some(ProbeFailure::WrongTool);
            }
            let Some(actual) = typed_arguments(call) else {
                return Some(ProbeFailure::InvalidArguments);
            };
            let expected: Value = serde_json::from_str(arguments).unwrap_or(Value::Null);
            (!members_match(&expected, &actual, true)).then_some(ProbeFailure::WrongArguments)
        }
        _ if !reply.tool_calls.is_empty() => Some(ProbeFailure::UnexpectedToolCall),
        Expect::Integer(value) => match last_integer(reply.answer) {
            None => Some(no_text_or(reply.answer, ProbeFailure::WrongAnswer)),
            Some(found) => (found != value).then_some(ProbeFailure::WrongAnswer),
        },
        Expect::Word(words) | Expect::NoCall(words) => one_word(reply.answer, words),
        Expect::Json(members) => {
            let Some(actual) = json_object(reply.answer) else {
                return Some(no_text_or(reply.answer, ProbeFailure::NotJson));
            };
            let expected: Value = serde_json::from_str(members).unwrap_or(Value::Null);
            (!members_match(&expected, &actual, false)).then_some(ProbeFailure::WrongAnswer)
        }
        Expect::Chinese(alternatives) => {
            let text = visible(reply.answer);
            if text.trim().is_empty() {
                return Some(ProbeFailure::NoAnswer);
            }
            let han = text.chars().filter(|c| is_han(*c)).count();
            let latin = text.chars().filter(char::is_ascii_alphabetic).count();
            if han == 0 || latin > han {
                return Some(ProbeFailure::NotChinese);
            }
            (!alternatives.iter().any(|a| text.contains(a))).then_some(ProbeFailure::WrongAnswer)
        }
    }
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn no_text_or(answer: &str, failure: ProbeFailure) -> ProbeFailure {
    if visible(answer).trim().is_empty() {
        ProbeFailure::NoAnswer
    } else {
        failure
    }
}

/// The answer without a `<think>…</think>` block some servers leave in the
/// content: the rule reads the answer, the contract check reports the block.
#[cfg_attr(target_arch = "wasm32", inline)]
fn visible(answer: &str) -> &str {
    match answer.rfind("</think>") {
        Some(end) => &answer[end + "</think>".len()..],
        None => answer,
    }
}

/// The last whole number in the text; thousands separators (`8,778`) are
/// read through.
#[cfg_attr(target_arch = "wasm32", inline)]
fn last_integer(answer: &str) -> Option<i64> {
    let text = visible(answer);
    let mut last = None;
    let mut digits = String::new();
    let mut negative = false;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_digit() {
            if digits.is_empty() {
                negative = i > 0 && chars[i - 1] == '-';
            }
            digits.push(c);
        } else if c == ','
            && !digits.is_empty()
            && chars
                .get(i + 1..i + 4)
                .is_some_and(|next| next.iter().all(char::is_ascii_digit))
        {
            continue;
        } else if !digits.is_empty() {
            last = digits
                .parse::<i64>()
                .ok()
                .map(|n| if negative { -n } else { n });
            digits.clear();
        }
    }
    if !digits.is_empty() {
        last = digits
            .parse::<i64>()
            .ok()
            .map(|n| if negative { -n } else { n });
    }
    last
}

/// One word, compared without case and the punctuation and emphasis
/// models wrap words in.
#[cfg_attr(target_arch = "wasm32", inline)]
fn one_word(answer: &str, words: &[&str]) -> Option<ProbeFailure> {
    let trimmed = visible(answer)
        .trim()
        .trim_matches(|c: char| c.is_ascii_punctuation() || c.is_whitespace() || c == '。');
    if trimmed.is_empty() {
        return Some(ProbeFailure::NoAnswer);
    }
    if trimmed.split_whitespace().count() > 1 {
        return Some(ProbeFailure::NotOneWord);
    }
    let word = trimmed.to_lowercase();
    (!words.iter().any(|w| *w == word)).then_some(ProbeFailure::WrongAnswer)
}

/// The reply as a JSON object, a Markdown code fence around it allowed.
#[cfg_attr(target_arch = "wasm32", inline)]
fn json_object(answer: &str) -> Option<Value> {
    let mut text = visible(answer).trim();
    if let Some(inner) = text.strip_prefix("```") {
        let inner = inner.strip_prefix("json").unwrap_or(inner);
        text = inner.strip_suffix("```").unwrap_or(inner).trim();
    }
    serde_json::from_str::<Value>(text)
        .ok()
        .filter(Value::is_object)
}

/// Whether every member of `expected` is in `actual` with an equal value:
/// numbers by value, strings without case (and trimmed); with
/// `alternatives`, an array in `expected` lists accepted values.
#[cfg_attr(target_arch = "wasm32", inline)]
fn members_match(expected: &Value, actual: &Value, alternatives: bool) -> bool {
    match (expected, actual) {
        (Value::Object(expected), Value::Object(actual)) => expected.iter().all(|(key, value)| {
            actual
                .get(key)
                .is_some_and(|found| members_match(value, found, alternatives))
        }),
        (Value::Array(options), found) if alternatives && !found.is_array() => options
            .iter()
            .any(|option| members_match(option, found, alternatives)),
        (Value::Array(expected), Value::Array(actual)) => {
            expected.len() == actual.len()
                && expected
                    .iter()
                    .zip(actual)
                    .all(|(e, a)| members_match(e, a, alternatives))
        }
        (Value::String(expected), Value::String(actual)) => {
            expected.trim().to_lowercase() == actual.trim().to_lowercase()
        }
        (Value::Number(expected), Value::Number(actual)) => expected.as_f64() == actual.as_f64(),
        (expected, actual) => expected == actual,
    }
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn is_han(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}')
}

/// `get_weather`'s arguments: the schema as a type, nothing else allowed.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct WeatherArguments {
    city: String,
    unit: TemperatureUnit,
}

#[derive(Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
enum TemperatureUnit {
    Celsius,
    Fahrenheit,
}

/// `convert_currency`'s arguments.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct CurrencyArguments {
    amount: f64,
    from: String,
    to: String,
}

/// The call's arguments read through its function's schema type, back as
/// JSON for comparing values; `None` when they do not parse, do not fit,
/// or the function is not one the suite offers.
#[cfg_attr(target_arch = "wasm32", inline)]
fn typed_arguments(call: &ToolCall) -> Option<Value> {
    // An empty argument string is what some servers send for `{}`; no
    // suite function takes zero arguments, so it never fits.
    let text = call.arguments.trim();
    match call.name.trim() {
        "get_weather" => serde_json::from_str::<WeatherArguments>(text)
            .ok()
            .and_then(|a| serde_json::to_value(a).ok()),
        "convert_currency" => serde_json::from_str::<CurrencyArguments>(text)
            .ok()
            .filter(|a| a.amount.is_finite())
            .and_then(|a| serde_json::to_value(a).ok()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planning::fidelity::suite::Suite;

    fn check(id: &str, answer: &str, calls: &[ToolCall]) -> ProbeCheck {
        let probe = Suite::Basic1.probe(id).unwrap();
        verify(
            probe,
            &ProbeReply {
                answer,
                tool_calls: calls,
                finish_reason: Some("stop"),
                output_tokens: Some(3),
            },
        )
    }

    fn call(name: &str, arguments: &str) -> Vec<ToolCall> {
        vec![ToolCall {
            name: name.to_owned(),
            arguments: arguments.to_owned(),
        }]
    }

    #[test]
    fn every_model_answer_passes_its_own_rule() {
        for probe in Suite::Basic1.probes() {
            let calls = match probe.expect {
                Expect::Call { name, .. } => {
                    let args = probe
                        .model_answer
                        .strip_prefix(name)
                        .and_then(|rest| rest.strip_prefix('('))
                        .and_then(|rest| rest.strip_suffix(')'))
                        .unwrap();
                    call(name, args)
                }
                _ => Vec::new(),
            };
            let answer = if calls.is_empty() {
                probe.model_answer
            } else {
                ""
            };
            let checked = check(probe.id, answer, &calls);
            assert!(checked.passed, "{}: {checked:?}", probe.id);
        }
    }

    #[test]
    fn numbers_are_read_from_the_end_of_the_answer() {
        assert!(check("arith-mul", "17 × 23 = 391.", &[]).passed);
        assert!(check("arith-add", "The sum is 8,778", &[]).passed);
        assert_eq!(
            check("arith-mul", "392", &[]).failure,
            Some(ProbeFailure::WrongAnswer)
        );
        assert_eq!(
            check("arith-mul", "  ", &[]).failure,
            Some(ProbeFailure::NoAnswer)
        );
        assert!(check("arith-mul", "<think>17*23 = 17*20+51</think>391", &[]).passed);
        assert!(check("arith-mul", "<think>x</think>391", &[]).reasoning_in_content);
    }

    #[test]
    fn one_word_allows_case_and_punctuation_but_not_a_sentence() {
        assert!(check("word-capital", "**Tokyo.**", &[]).passed);
        assert_eq!(
            check("word-capital", "The capital is Tokyo", &[]).failure,
            Some(ProbeFailure::NotOneWord)
        );
        assert_eq!(
            check("word-capital", "Kyoto", &[]).failure,
            Some(ProbeFailure::WrongAnswer)
        );
    }

    #[test]
    fn json_needs_an_object_with_the_members() {
        assert!(
            check(
                "json-person",
                "```json\n{\"name\":\"ada\",\"year\":1815.0}\n```",
                &[]
            )
            .passed
        );
        assert_eq!(
            check("json-person", "{\"name\":\"Ada\"}", &[]).failure,
            Some(ProbeFailure::WrongAnswer)
        );
        assert_eq!(
            check("json-person", "name: Ada", &[]).failure,
            Some(ProbeFailure::NotJson)
        );
        assert_eq!(
            check("json-list", "{\"ok\":true,\"primes\":[2,3,5]}", &[]).failure,
            Some(ProbeFailure::WrongAnswer)
        );
    }

    #[test]
    fn chinese_answers_must_be_chinese() {
        assert!(check("zh-capital", "北京。", &[]).passed);
        assert_eq!(
            check("zh-capital", "Beijing", &[]).failure,
            Some(ProbeFailure::NotChinese)
        );
        assert_eq!(
            check("zh-capital", "上海", &[]).failure,
            Some(ProbeFailure::WrongAnswer)
        );
    }

    #[test]
    fn tool_calls_are_checked_for_trigger_schema_and_values() {
        let right = call("get_weather", r#"{"city":"paris","unit":"celsius"}"#);
        let checked = check("tool-weather-auto", "", &right);
        assert!(checked.passed && checked.called && checked.schema_valid == Some(true));

        let extra = call(
            "get_weather",
            r#"{"city":"Paris","unit":"celsius","days":3}"#,
        );
        let checked = check("tool-weather-auto", "", &extra);
        assert_eq!(checked.failure, Some(ProbeFailure::InvalidArguments));
        assert_eq!(checked.schema_valid, Some(false));

        let bad_enum = call("get_weather", r#"{"city":"Paris","unit":"kelvin"}"#);
        assert_eq!(
            check("tool-weather-auto", "", &bad_enum).failure,
            Some(ProbeFailure::InvalidArguments)
        );
        let cut = call("get_weather", r#"{"city":"Paris","un"#);
        assert_eq!(
            check("tool-weather-auto", "", &cut).failure,
            Some(ProbeFailure::InvalidArguments)
        );
        let wrong = call("get_weather", r#"{"city":"Lyon","unit":"celsius"}"#);
        assert_eq!(
            check("tool-weather-auto", "", &wrong).failure,
            Some(ProbeFailure::WrongArguments)
        );
        let other = call(
            "convert_currency",
            r#"{"amount":1,"from":"EUR","to":"USD"}"#,
        );
        assert_eq!(
            check("tool-weather-auto", "", &other).failure,
            Some(ProbeFailure::WrongTool)
        );
        assert_eq!(
            check("tool-weather-auto", "It is sunny.", &[]).failure,
            Some(ProbeFailure::MissingToolCall)
        );
        // Alternatives: the city may be named in English or in Chinese.
        let zh = call("get_weather", r#"{"city":"北京","unit":"celsius"}"#);
        assert!(check("tool-weather-zh", "", &zh).passed);
        // A call where none may be made fails, whatever the text says.
        assert_eq!(
            check("no-tool-capital", "Rome", &right).failure,
            Some(ProbeFailure::UnexpectedToolCall)
        );
        assert!(check("no-tool-capital", "Rome.", &[]).passed);
    }

    #[test]
    fn the_contract_checks_read_the_finish_reason_and_the_token_count() {
        let probe = Suite::Basic1.probe("arith-mul").unwrap();
        let reply = ProbeReply {
            answer: "391",
            tool_calls: &[],
            finish_reason: None,
            output_tokens: Some(probe.max_tokens + 1),
        };
        let checked = verify(probe, &reply);
        assert!(checked.passed);
        assert!(!checked.finish_reason);
        assert_eq!(checked.within_max_tokens, Some(false));
    }
}
