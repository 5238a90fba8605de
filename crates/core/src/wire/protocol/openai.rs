//! The OpenAI-compatible chat completions protocol: OpenAI itself and the
//! many providers and local servers that copy it (vLLM, SGLang, llama.cpp,
//! Ollama, OpenRouter, DeepSeek, …), and the built-in demo provider.
//!
//! Stream shape: `data: {chat.completion.chunk}` events, then
//! `data: [DONE]`. The first chunk usually carries only the role, and with
//! `stream_options.include_usage` the last one carries only `usage`: neither
//! is a token.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    Ask, DecodeState, HttpRequest, MalformedEvent, Message, ModelsRequest, StreamEvent, TokenCount,
    base_url, body_text, error_value_message, misfit_member_of, tool_schema, typed_event,
};
use crate::planning::fidelity::suite::ToolChoice;
use crate::planning::plan::Target;
use crate::wire::sse::SseEvent;

/// `POST {base}/chat/completions`, with `Authorization` only when a key is
/// given (local servers take none, and an unneeded `Authorization` header
/// would force a CORS preflight).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn build_request(target: &Target, ask: &Ask<'_>, key: Option<&str>) -> HttpRequest {
    let mut headers = Vec::with_capacity(2);
    if let Some(key) = key {
        headers.push(("Authorization".to_owned(), format!("Bearer {key}")));
    }
    headers.push(("Content-Type".to_owned(), "application/json".to_owned()));
    HttpRequest {
        url: format!("{}/chat/completions", base_url(target)),
        headers,
        body: request_body(target, ask),
    }
}

/// The chat completions body.
#[derive(Serialize)]
struct RequestBody<'a> {
    model: &'a str,
    messages: [Message<'a>; 1],
    stream: bool,
    stream_options: StreamOptions,
    max_tokens: u32,
    temperature: f64,
    /// OpenRouter's provider preferences, when the target names one upstream.
    #[serde(skip_serializing_if = "Option::is_none")]
    provider: Option<ProviderPreferences<'a>>,
    /// Functions offered (a fidelity probe's).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<FunctionTool<'a>>,
    /// `"auto"`, `"required"` or `{"type":"function","function":{"name"}}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_choice: Option<Value>,
}

/// `{"type":"function","function":{name, description, parameters}}`.
#[derive(Serialize)]
struct FunctionTool<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    function: FunctionSpec<'a>,
}

#[derive(Serialize)]
struct FunctionSpec<'a> {
    name: &'a str,
    description: &'a str,
    parameters: Value,
}

/// `{"only": [slug], "allow_fallbacks": false}`: OpenRouter sends the
/// request to that provider or fails, so the target measures one upstream.
#[derive(Serialize)]
struct ProviderPreferences<'a> {
    only: [&'a str; 1],
    allow_fallbacks: bool,
}

#[derive(Serialize)]
struct StreamOptions {
    include_usage: bool,
}

/// The chat completions body: one user message, streamed, usage included.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn request_body(target: &Target, ask: &Ask<'_>) -> String {
    let (tools, choice) = ask.tools.unzip();
    body_text(&RequestBody {
        model: target.model.trim(),
        messages: [Message {
            role: "user",
            content: &ask.prompt,
        }],
        stream: true,
        stream_options: StreamOptions {
            include_usage: true,
        },
        max_tokens: ask.max_tokens,
        temperature: ask.temperature,
        tools: tools
            .unwrap_or_default()
            .iter()
            .map(|tool| FunctionTool {
                kind: "function",
                function: FunctionSpec {
                    name: tool.name,
                    description: tool.description,
                    parameters: tool_schema(tool),
                },
            })
            .collect(),
        tool_choice: choice.map(|choice| match choice {
            ToolChoice::Auto => Value::from("auto"),
            ToolChoice::Required => Value::from("required"),
            ToolChoice::Named(name) => {
                serde_json::json!({"type": "function", "function": {"name": name}})
            }
        }),
        provider: target
            .openrouter_provider
            .as_deref()
            .map(|slug| ProviderPreferences {
                only: [slug],
                allow_fallbacks: false,
            }),
    })
}

/// `GET {base}/models`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn models_request(target: &Target, key: Option<&str>) -> ModelsRequest {
    ModelsRequest {
        url: format!("{}/models", base_url(target)),
        headers: key
            .map(|key| vec![("Authorization".to_owned(), format!("Bearer {key}"))])
            .unwrap_or_default(),
    }
}

/// `data[].id` of a models list.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn parse_models(body: &str) -> Vec<String> {
    super::data_ids(body)
}

/// The message of an error body: `{"error": {"message"}}` (OpenAI and most
/// copies), `{"error": "text"}` (Ollama), `{"message"}` (vLLM),
/// `{"detail"}` (FastAPI servers), or an array holding one of those.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn error_body_message(body: &str) -> Option<String> {
    let value: Value = serde_json::from_str(body).ok()?;
    let value = match &value {
        Value::Array(items) => items.first()?.clone(),
        _ => value,
    };
    match value.get("error") {
        Some(error) if !error.is_null() => error_value_message(error),
        _ => ["message", "detail"]
            .iter()
            .find_map(|field| value.get(field).and_then(Value::as_str).map(str::to_owned)),
    }
}

/// Decodes one chunk event.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn decode_event(
    event: &SseEvent,
    out: &mut Vec<StreamEvent>,
    state: &mut DecodeState,
) -> Result<(), MalformedEvent> {
    let data = event.data.trim();
    if data.is_empty() {
        return Ok(());
    }
    if data == "[DONE]" {
        state.completed = true;
        out.push(StreamEvent::End);
        return Ok(());
    }
    if event.event.as_deref() == Some("error") {
        let message = error_body_message(data).unwrap_or_else(|| data.to_owned());
        out.push(StreamEvent::ProviderError(message));
        return Ok(());
    }
    // The members a chunk's decoding needs, read straight into borrowed
    // text; a chunk that does not fit is looked at as a tree for the reason.
    let chunk: Chunk = typed_event(data)?;
    if let Some(error) = chunk.error.as_ref().filter(|error| !error.is_null()) {
        let message = error_value_message(error)
            .unwrap_or_else(|| "the provider sent an error object without a message".to_owned());
        out.push(StreamEvent::ProviderError(message));
        return Ok(());
    }
    if let Some(choice) = chunk.choices.unwrap_or_default().into_iter().next() {
        if let Some(delta) = choice.delta {
            // DeepSeek and vLLM use `reasoning_content`, OpenRouter and
            // Ollama `reasoning`.
            let reasoning = [delta.reasoning_content, delta.reasoning]
                .into_iter()
                .flatten()
                .find(|text| !text.is_empty());
            if let Some(reasoning) = reasoning {
                out.push(StreamEvent::Reasoning(reasoning.into_owned()));
            }
            if let Some(content) = delta.content.filter(|text| !text.is_empty()) {
                out.push(StreamEvent::Content(content.into_owned()));
            }
            // Calls stream as `tool_calls` deltas: the first of a call names
            // it, later ones carry argument fragments cut anywhere.
            for (position, call) in delta.tool_calls.unwrap_or_default().into_iter().enumerate() {
                let index = call
                    .index
                    .unwrap_or_else(|| u32::try_from(position).unwrap_or(u32::MAX));
                let Some(function) = call.function else {
                    continue;
                };
                if let Some(name) = function.name.filter(|name| !name.is_empty()) {
                    out.push(StreamEvent::ToolCallStart {
                        index,
                        name: name.into_owned(),
                    });
                }
                if let Some(fragment) = function.arguments.filter(|text| !text.is_empty()) {
                    out.push(StreamEvent::ToolCallArguments {
                        index,
                        fragment: fragment.into_owned(),
                    });
                }
            }
        }
        match choice.finish_reason.as_deref() {
            Some("error") => out.push(StreamEvent::ProviderError(
                "the provider ended the stream with finish_reason \"error\"".to_owned(),
            )),
            Some(reason) => {
                out.push(StreamEvent::Finish(reason.to_owned()));
                state.completed = true;
            }
            None => {}
        }
    }
    if let Some(usage) = chunk.usage {
        if let Some(tokens) = usage.completion_tokens.0 {
            out.push(StreamEvent::Usage {
                output_tokens: tokens,
            });
        }
        if let Some(tokens) = usage.prompt_tokens.0 {
            out.push(StreamEvent::PromptTokens { tokens });
        }
        // OpenAI and most compatible servers: `prompt_tokens_details.cached_tokens`;
        // DeepSeek: `prompt_cache_hit_tokens`.
        let cached = usage
            .prompt_tokens_details
            .and_then(|details| details.cached_tokens.0)
            .or(usage.prompt_cache_hit_tokens.0);
        if let Some(tokens) = cached {
            out.push(StreamEvent::CachedPrompt { tokens });
        }
    }
    Ok(())
}

/// Where `data` stops fitting this protocol's event type (see
/// [`super::misfit_member`]).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn misfit_member(data: &str) -> Option<(String, String)> {
    misfit_member_of::<Chunk<'_>>(data)
}

/// What a chunk event's decoding reads (`chat.completion.chunk`); serde
/// skips every other member. `error` varies between providers, so it stays
/// a tree.
#[derive(Deserialize)]
struct Chunk<'a> {
    #[serde(borrow)]
    choices: Option<Vec<Choice<'a>>>,
    usage: Option<Usage>,
    error: Option<Value>,
}

/// A `usage` block: OpenAI's members and DeepSeek's cache count.
#[derive(Deserialize)]
struct Usage {
    #[serde(default)]
    prompt_tokens: TokenCount,
    #[serde(default)]
    completion_tokens: TokenCount,
    #[serde(default)]
    prompt_tokens_details: Option<PromptTokensDetails>,
    #[serde(default)]
    prompt_cache_hit_tokens: TokenCount,
}

#[derive(Deserialize)]
struct PromptTokensDetails {
    #[serde(default)]
    cached_tokens: TokenCount,
}

#[derive(Deserialize)]
struct Choice<'a> {
    #[serde(borrow)]
    delta: Option<Delta<'a>>,
    #[serde(borrow)]
    finish_reason: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Delta<'a> {
    #[serde(borrow)]
    content: Option<Cow<'a, str>>,
    #[serde(borrow)]
    reasoning_content: Option<Cow<'a, str>>,
    #[serde(borrow)]
    reasoning: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    tool_calls: Option<Vec<ToolCallDelta<'a>>>,
}

/// One entry of `delta.tool_calls`.
#[derive(Deserialize)]
struct ToolCallDelta<'a> {
    #[serde(default)]
    index: Option<u32>,
    #[serde(borrow, default)]
    function: Option<FunctionDelta<'a>>,
}

#[derive(Deserialize)]
struct FunctionDelta<'a> {
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    arguments: Option<Cow<'a, str>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planning::plan::Plan;
    use crate::planning::plan::Protocol;
    use crate::wire::protocol::{
        EventDecoder, build_request as build, models_request, parse_models as parse, tests,
    };

    fn target(base_url: &str) -> Target {
        tests::target(Protocol::OpenAi, base_url, "gpt-4o-mini")
    }

    fn decode(data: &[&str]) -> (Vec<StreamEvent>, bool) {
        let unnamed: Vec<(Option<&str>, &str)> = data.iter().map(|data| (None, *data)).collect();
        tests::decode_all(Protocol::OpenAi, &unnamed)
    }

    #[test]
    fn request_has_bearer_key_and_streaming_body() {
        let plan = Plan {
            max_tokens: 32,
            temperature: 0.0,
            ..Plan::default()
        };
        let request = build(
            &target("https://api.openai.com/v1/"),
            &plan,
            Some("sk-test"),
            Some("n1"),
        );
        assert_eq!(request.url, "https://api.openai.com/v1/chat/completions");
        assert_eq!(
            request.headers,
            vec![
                ("Authorization".to_owned(), "Bearer sk-test".to_owned()),
                ("Content-Type".to_owned(), "application/json".to_owned()),
            ]
        );
        let body: serde_json::Value = serde_json::from_str(&request.body).unwrap();
        assert_eq!(body["model"], "gpt-4o-mini");
        assert_eq!(body["messages"][0]["role"], "user");
        assert_eq!(
            body["messages"][0]["content"],
            format!("n1\n{}", plan.prompt),
            "the nonce opens the prompt, so no prefix cache serves any of it"
        );
        assert_eq!(body["stream"], true);
        assert_eq!(body["stream_options"]["include_usage"], true);
        assert_eq!(body["max_tokens"], 32);
        assert_eq!(body["temperature"], 0.0);
    }

    #[test]
    fn no_key_means_no_authorization_header() {
        let request = build(
            &target("http://localhost:8000/v1"),
            &Plan::default(),
            None,
            None,
        );
        assert_eq!(
            request.headers,
            vec![("Content-Type".to_owned(), "application/json".to_owned())]
        );
        let body: serde_json::Value = serde_json::from_str(&request.body).unwrap();
        assert_eq!(body["messages"][0]["content"], Plan::default().prompt);
    }

    #[test]
    fn role_only_empty_and_usage_only_chunks_are_not_tokens() {
        let (events, completed) = decode(&[
            r#"{"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":0,"delta":{},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":0,"delta":{"content":null}}]}"#,
            r#"{"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":12,"total_tokens":21}}"#,
            "",
        ]);
        assert_eq!(
            events,
            vec![
                StreamEvent::Usage { output_tokens: 12 },
                StreamEvent::PromptTokens { tokens: 9 }
            ]
        );
        assert!(!completed);
    }

    #[test]
    fn cached_prompt_tokens_from_openai_and_deepseek_usage() {
        let (events, _) = decode(&[
            r#"{"choices":[{"delta":{"content":"Hi"}}],"usage":null}"#,
            r#"{"choices":[],"usage":{"prompt_tokens":2006,"completion_tokens":300,"prompt_tokens_details":{"cached_tokens":1920}}}"#,
        ]);
        assert_eq!(
            events[1..],
            [
                StreamEvent::Usage { output_tokens: 300 },
                StreamEvent::PromptTokens { tokens: 2006 },
                StreamEvent::CachedPrompt { tokens: 1920 }
            ]
        );
        let (deepseek, _) = decode(&[
            r#"{"choices":[],"usage":{"prompt_tokens":64,"completion_tokens":5,"prompt_cache_hit_tokens":64,"prompt_cache_miss_tokens":0}}"#,
        ]);
        assert_eq!(deepseek[2], StreamEvent::CachedPrompt { tokens: 64 });
        let (silent, _) = decode(&[r#"{"choices":[],"usage":{"completion_tokens":5}}"#]);
        assert!(
            !silent
                .iter()
                .any(|e| matches!(e, StreamEvent::CachedPrompt { .. }))
        );
    }

    #[test]
    fn content_reasoning_finish_and_done() {
        let (events, completed) = decode(&[
            r#"{"choices":[{"delta":{"reasoning_content":"hmm"}}]}"#,
            r#"{"choices":[{"delta":{"reasoning":"so"}}]}"#,
            r#"{"choices":[{"delta":{"content":"Paris"}}]}"#,
            r#"{"choices":[{"delta":{},"finish_reason":"stop"}],"usage":null}"#,
            "[DONE]",
        ]);
        assert_eq!(
            events,
            vec![
                StreamEvent::Reasoning("hmm".to_owned()),
                StreamEvent::Reasoning("so".to_owned()),
                StreamEvent::Content("Paris".to_owned()),
                StreamEvent::Finish("stop".to_owned()),
                StreamEvent::End,
            ]
        );
        assert!(completed);
        let (_, completed_by_finish) =
            decode(&[r#"{"choices":[{"delta":{},"finish_reason":"length"}]}"#]);
        assert!(completed_by_finish);
    }

    #[test]
    fn errors_inside_the_stream() {
        let (events, _) =
            decode(&[r#"{"error":{"message":"Rate limit reached","type":"rate_limit"}}"#]);
        assert_eq!(
            events,
            vec![StreamEvent::ProviderError("Rate limit reached".to_owned())]
        );
        let (events, _) =
            decode(&[r#"{"choices":[{"delta":{"content":""},"finish_reason":"error"}]}"#]);
        assert!(
            matches!(&events[..], [StreamEvent::ProviderError(m)] if m.contains("finish_reason"))
        );

        let mut decoder = EventDecoder::new(Protocol::OpenAi);
        let mut out = Vec::new();
        let event = SseEvent {
            event: Some("error".to_owned()),
            data: "upstream gone".to_owned(),
            id: None,
        };
        decoder.on_event(&event, &mut out).unwrap();
        assert_eq!(
            out,
            vec![StreamEvent::ProviderError("upstream gone".to_owned())]
        );
    }

    #[test]
    fn a_chunk_whose_members_have_other_types_is_malformed_and_says_which() {
        let mut decoder = EventDecoder::new(Protocol::OpenAi);
        let mut out = Vec::new();
        let event = |data: &str| SseEvent {
            event: None,
            data: data.to_owned(),
            id: None,
        };
        let error = decoder
            .on_event(
                &event(r#"{"choices":[{"delta":{"content":["not","text"]}}]}"#),
                &mut out,
            )
            .unwrap_err();
        assert!(error.reason.contains("does not fit"), "{}", error.reason);
        // Natively the member namer is always installed: the reason names it.
        assert!(
            error.reason.contains("member `choices[0].delta.content`"),
            "{}",
            error.reason
        );
        assert!(
            error.reason.contains("invalid type: sequence"),
            "{}",
            error.reason
        );
        // Not JSON, or JSON but not an object, keep their own words.
        let error = decoder
            .on_event(&event("{\"choices\": ["), &mut out)
            .unwrap_err();
        assert!(error.reason.contains("not valid JSON"), "{}", error.reason);
        let error = decoder.on_event(&event("[1, 2]"), &mut out).unwrap_err();
        assert!(error.reason.contains("not an object"), "{}", error.reason);
        assert!(out.is_empty());
        // Escaped text is read as well as borrowed text.
        decoder
            .on_event(
                &event(r#"{"choices":[{"delta":{"content":"\u4f60\"ok\""}}]}"#),
                &mut out,
            )
            .unwrap();
        assert_eq!(out, vec![StreamEvent::Content("你\"ok\"".to_owned())]);
    }

    #[test]
    fn error_bodies_of_several_servers() {
        assert_eq!(
            error_body_message(
                r#"{"error":{"message":"Invalid API key","type":"invalid_request_error"}}"#
            ),
            Some("Invalid API key".to_owned())
        );
        assert_eq!(
            error_body_message(r#"{"error":"model 'x' not found"}"#),
            Some("model 'x' not found".to_owned())
        );
        assert_eq!(
            error_body_message(r#"{"object":"error","message":"bad"}"#),
            Some("bad".to_owned())
        );
        assert_eq!(
            error_body_message(r#"{"detail":"Not Found"}"#),
            Some("Not Found".to_owned())
        );
        assert_eq!(
            error_body_message(r#"[{"error":{"message":"in array"}}]"#),
            Some("in array".to_owned())
        );
        assert_eq!(error_body_message("not json"), None);
        assert_eq!(
            crate::wire::protocol::http_error_message(
                Protocol::OpenAi,
                401,
                r#"{"error":{"message":"Incorrect API key provided: sk-abc***wxyz. See docs."}}"#
            ),
            "HTTP 401 from provider: incorrect API key provided: [redacted]. See docs."
        );
    }

    #[test]
    fn models_list() {
        let request = models_request(&target("https://api.openai.com/v1"), Some("sk")).unwrap();
        assert_eq!(request.url, "https://api.openai.com/v1/models");
        assert_eq!(
            request.headers,
            vec![("Authorization".to_owned(), "Bearer sk".to_owned())]
        );
        let body =
            r#"{"object":"list","data":[{"id":"gpt-4o","object":"model"},{"id":"gpt-4o-mini"}]}"#;
        assert_eq!(parse(Protocol::OpenAi, body), vec!["gpt-4o", "gpt-4o-mini"]);
        assert!(parse(Protocol::OpenAi, "<html>").is_empty());
    }
}
