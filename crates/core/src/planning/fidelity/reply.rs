//! What a reply said, beyond its timings: the answer's text, the function
//! calls with their streamed arguments put back together, and how it
//! ended. The measurement fills a [`Transcript`] from the protocol's stream
//! events; a probe's sample keeps it, capped, for its verifier and for the
//! person reading the results.

use serde::{Deserialize, Serialize};

/// Characters of an answer kept on a sample; longer answers are cut and
/// marked. A probe's right answer is a few words; 4 000 characters is more
/// than any probe's `max_tokens` lets a reply reach.
pub const MAX_ANSWER_CHARS: usize = 4_000;

/// Characters of one call's arguments kept.
pub(crate) const MAX_ARGUMENT_CHARS: usize = 4_000;

/// Function calls kept per reply.
pub(crate) const MAX_TOOL_CALLS: usize = 8;

/// One function call of a reply.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The function's name, as the model wrote it.
    pub name: String,
    /// Its arguments: the JSON text as streamed, fragments joined.
    pub arguments: String,
}

/// A reply's text, calls and ending, as they streamed in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    /// The answer's content deltas joined, at most [`MAX_ANSWER_CHARS`].
    pub answer: String,
    /// Characters of answer dropped past the cap.
    pub answer_cut: bool,
    answer_chars: usize,
    /// Calls by the stream's own index (OpenAI's `index`, Anthropic's
    /// content block, Gemini's part order).
    calls: Vec<(u32, ToolCall)>,
    /// The protocol's finish or stop reason, as sent (`"stop"`,
    /// `"tool_calls"`, `"end_turn"`, `"STOP"`, …).
    pub finish_reason: Option<String>,
}

impl Transcript {
    /// Appends a piece of the answer.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn content(&mut self, text: &str) {
        if self.answer_cut {
            return;
        }
        for c in text.chars() {
            if self.answer_chars >= MAX_ANSWER_CHARS {
                self.answer_cut = true;
                return;
            }
            self.answer.push(c);
            self.answer_chars += 1;
        }
    }

    /// A call starts (or is named) at stream index `index`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn call_start(&mut self, index: u32, name: &str) {
        if let Some((_, call)) = self.calls.iter_mut().find(|(i, _)| *i == index) {
            if call.name.is_empty() {
                call.name = cap(name, MAX_ARGUMENT_CHARS);
            }
            return;
        }
        if self.calls.len() < MAX_TOOL_CALLS {
            self.calls.push((
                index,
                ToolCall {
                    name: cap(name, MAX_ARGUMENT_CHARS),
                    arguments: String::new(),
                },
            ));
        }
    }

    /// A fragment of the arguments of the call at `index` (a call not yet
    /// started is started without a name).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn call_arguments(&mut self, index: u32, fragment: &str) {
        if !self.calls.iter().any(|(i, _)| *i == index) {
            self.call_start(index, "");
        }
        if let Some((_, call)) = self.calls.iter_mut().find(|(i, _)| *i == index) {
            let room = MAX_ARGUMENT_CHARS.saturating_sub(call.arguments.chars().count());
            call.arguments.extend(fragment.chars().take(room));
        }
    }

    /// The stream's finish reason (the last one wins).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn finish(&mut self, reason: &str) {
        self.finish_reason = Some(cap(reason, 64));
    }

    /// The calls, in the order they started.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn tool_calls(&self) -> Vec<ToolCall> {
        self.calls.iter().map(|(_, call)| call.clone()).collect()
    }

    /// What the reply said, for its outcome.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn into_reply(self) -> Reply {
        Reply {
            tool_calls: self.tool_calls(),
            answer: self.answer,
            finish_reason: self.finish_reason,
        }
    }
}

/// What a finished reply said: its answer, its calls and its finish reason.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    /// The answer's text, capped.
    pub answer: String,
    /// The function calls.
    pub tool_calls: Vec<ToolCall>,
    /// The finish or stop reason, as sent.
    pub finish_reason: Option<String>,
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn cap(text: &str, max_chars: usize) -> String {
    text.chars().take(max_chars).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragments_join_per_call_index_and_answers_are_capped() {
        let mut transcript = Transcript::default();
        transcript.call_start(1, "get_weather");
        transcript.call_arguments(1, "{\"ci");
        transcript.call_arguments(0, "{}");
        transcript.call_arguments(1, "ty\":\"Paris\"}");
        transcript.call_start(1, "ignored");
        let calls = transcript.tool_calls();
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0].name, "get_weather");
        assert_eq!(calls[0].arguments, "{\"city\":\"Paris\"}");
        assert_eq!(calls[1].name, "");

        transcript.content(&"中".repeat(MAX_ANSWER_CHARS + 10));
        assert_eq!(transcript.answer.chars().count(), MAX_ANSWER_CHARS);
        assert!(transcript.answer_cut);
        for index in 0..20 {
            transcript.call_start(10 + index, "f");
        }
        assert_eq!(transcript.tool_calls().len(), MAX_TOOL_CALLS);
    }
}
