//! The Google Gemini protocol
//! (`POST {base}/v1beta/models/{model}:streamGenerateContent?alt=sse`).
//!
//! Stream shape: every event is a whole `GenerateContentResponse`; text is
//! in `candidates[0].content.parts[].text`, parts marked `thought: true`
//! are reasoning, `usageMetadata` repeats a running count, and the last
//! chunk carries a `finishReason`. There is no end marker: the body ends.
//!
//! The key goes in the `x-goog-api-key` header, never in the URL: URLs end
//! up in logs, history and error messages.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    Ask, DecodeState, HttpRequest, MalformedEvent, ModelsRequest, StreamEvent, TokenCount,
    base_url, body_text, error_value_message, misfit_member_of, tool_schema, typed_event,
};
use crate::planning::fidelity::suite::ToolChoice;
use crate::planning::plan::Target;
use crate::wire::sse::SseEvent;

/// The model name as it goes in the URL path: users may paste it with the
/// `models/` prefix the API lists it with.
#[cfg_attr(target_arch = "wasm32", inline)]
fn model_path(target: &Target) -> &str {
    let model = target.model.trim();
    model.strip_prefix("models/").unwrap_or(model)
}

/// `x-goog-api-key` when a key is given.
#[cfg_attr(target_arch = "wasm32", inline)]
fn key_headers(key: Option<&str>) -> Vec<(String, String)> {
    key.map(|key| vec![("x-goog-api-key".to_owned(), key.to_owned())])
        .unwrap_or_default()
}

/// The generateContent body: one user turn of one text part.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RequestBody<'a> {
    contents: [Content<'a>; 1],
    generation_config: GenerationConfig,
    /// Functions offered (a fidelity probe's), in one tool.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<FunctionTools<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_config: Option<ToolConfig<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FunctionTools<'a> {
    function_declarations: Vec<FunctionDeclaration<'a>>,
}

#[derive(Serialize)]
struct FunctionDeclaration<'a> {
    name: &'a str,
    description: &'a str,
    parameters: Value,
}

/// `{"functionCallingConfig": {"mode": "AUTO"|"ANY", "allowedFunctionNames"}}`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolConfig<'a> {
    function_calling_config: FunctionCallingConfig<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FunctionCallingConfig<'a> {
    mode: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    allowed_function_names: Option<[&'a str; 1]>,
}

#[derive(Serialize)]
struct Content<'a> {
    role: &'a str,
    parts: [Part<'a>; 1],
}

#[derive(Serialize)]
struct Part<'a> {
    text: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GenerationConfig {
    max_output_tokens: u32,
    temperature: f64,
}

/// `POST {base}/v1beta/models/{model}:streamGenerateContent?alt=sse`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn build_request(target: &Target, ask: &Ask<'_>, key: Option<&str>) -> HttpRequest {
    let mut headers = key_headers(key);
    headers.push(("Content-Type".to_owned(), "application/json".to_owned()));
    let (tools, choice) = ask.tools.unzip();
    let tools = tools.unwrap_or_default();
    let body = RequestBody {
        contents: [Content {
            role: "user",
            parts: [Part { text: &ask.prompt }],
        }],
        generation_config: GenerationConfig {
            max_output_tokens: ask.max_tokens,
            temperature: ask.temperature,
        },
        tools: if tools.is_empty() {
            Vec::new()
        } else {
            vec![FunctionTools {
                function_declarations: tools
                    .iter()
                    .map(|tool| FunctionDeclaration {
                        name: tool.name,
                        description: tool.description,
                        parameters: tool_schema(tool),
                    })
                    .collect(),
            }]
        },
        tool_config: choice.map(|choice| ToolConfig {
            function_calling_config: match choice {
                ToolChoice::Auto => FunctionCallingConfig {
                    mode: "AUTO",
                    allowed_function_names: None,
                },
                ToolChoice::Required => FunctionCallingConfig {
                    mode: "ANY",
                    allowed_function_names: None,
                },
                ToolChoice::Named(name) => FunctionCallingConfig {
                    mode: "ANY",
                    allowed_function_names: Some([name]),
                },
            },
        }),
    };
    HttpRequest {
        url: format!(
            "{}/v1beta/models/{}:streamGenerateContent?alt=sse",
            base_url(target),
            model_path(target)
        ),
        headers,
        body: body_text(&body),
    }
}

/// `GET {base}/v1beta/models`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn models_request(target: &Target, key: Option<&str>) -> ModelsRequest {
    ModelsRequest {
        url: format!("{}/v1beta/models", base_url(target)),
        headers: key_headers(key),
    }
}

/// `models[].name` without the `models/` prefix, keeping only models that
/// can generate content (the list also holds embedding models).
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn parse_models(body: &str) -> Vec<String> {
    let Ok(value) = serde_json::from_str::<Value>(body) else {
        return Vec::new();
    };
    value
        .get("models")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|model| {
            model
                .get("supportedGenerationMethods")
                .and_then(Value::as_array)
                .is_none_or(|methods| {
                    methods.iter().any(|method| {
                        matches!(
                            method.as_str(),
                            Some("generateContent" | "streamGenerateContent")
                        )
                    })
                })
        })
        .filter_map(|model| model.get("name").and_then(Value::as_str))
        .map(|name| name.strip_prefix("models/").unwrap_or(name).to_owned())
        .collect()
}

/// The message of an error body: `{"error":{"code","message","status"}}`,
/// sometimes wrapped in an array.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn error_body_message(body: &str) -> Option<String> {
    let value: Value = serde_json::from_str(body).ok()?;
    let value = match &value {
        Value::Array(items) => items.first()?.clone(),
        _ => value,
    };
    value
        .get("error")
        .filter(|error| !error.is_null())
        .and_then(error_value_message)
}

/// Decodes one event.
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
    let chunk: Chunk = typed_event(data)?;
    if let Some(error) = chunk.error.as_ref().filter(|error| !error.is_null()) {
        let message = error_value_message(error)
            .unwrap_or_else(|| "the provider sent an error object without a message".to_owned());
        out.push(StreamEvent::ProviderError(message));
        return Ok(());
    }
    match chunk.candidates.unwrap_or_default().into_iter().next() {
        Some(candidate) => {
            let parts = candidate.content.and_then(|content| content.parts);
            for part in parts.into_iter().flatten() {
                // A call comes whole, arguments as an object: numbered by
                // order, its arguments written back as JSON text.
                if let Some(call) = part.function_call {
                    let index = state.calls;
                    state.calls = state.calls.saturating_add(1);
                    out.push(StreamEvent::ToolCallStart {
                        index,
                        name: call.name.map(Cow::into_owned).unwrap_or_default(),
                    });
                    out.push(StreamEvent::ToolCallArguments {
                        index,
                        fragment: call
                            .args
                            .map_or_else(|| "{}".to_owned(), |args| args.to_string()),
                    });
                    continue;
                }
                let Some(text) = part.text.filter(|t| !t.is_empty()) else {
                    continue;
                };
                if part.thought == Some(true) {
                    out.push(StreamEvent::Reasoning(text.into_owned()));
                } else {
                    out.push(StreamEvent::Content(text.into_owned()));
                }
            }
            if let Some(reason) = candidate.finish_reason {
                if !reason.is_empty() {
                    out.push(StreamEvent::Finish(reason.into_owned()));
                }
                state.completed = true;
            }
        }
        None => {
            // A blocked prompt comes back as feedback with no candidate.
            if let Some(reason) = chunk.prompt_feedback.and_then(|f| f.block_reason) {
                out.push(StreamEvent::ProviderError(format!(
                    "the prompt was blocked ({reason})"
                )));
                return Ok(());
            }
        }
    }
    if let Some(usage) = chunk.usage_metadata {
        if let Some(tokens) = usage.candidates_token_count.0 {
            out.push(StreamEvent::Usage {
                output_tokens: tokens,
            });
        }
        if let Some(tokens) = usage.prompt_token_count.0 {
            out.push(StreamEvent::PromptTokens { tokens });
        }
        if let Some(tokens) = usage.cached_content_token_count.0 {
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

/// What a chunk's decoding reads (`GenerateContentResponse`); serde skips
/// every other member. `error` varies between servers, so it stays a tree.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Chunk<'a> {
    #[serde(borrow, default)]
    candidates: Option<Vec<Candidate<'a>>>,
    #[serde(default)]
    usage_metadata: Option<UsageMetadata>,
    #[serde(borrow, default)]
    prompt_feedback: Option<PromptFeedback<'a>>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Candidate<'a> {
    #[serde(borrow, default)]
    content: Option<ChunkContent<'a>>,
    #[serde(borrow, default)]
    finish_reason: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct ChunkContent<'a> {
    #[serde(borrow, default)]
    parts: Option<Vec<ChunkPart<'a>>>,
}

#[derive(Deserialize)]
struct ChunkPart<'a> {
    #[serde(borrow, default)]
    text: Option<Cow<'a, str>>,
    #[serde(default)]
    thought: Option<bool>,
    #[serde(rename = "functionCall", borrow, default)]
    function_call: Option<FunctionCall<'a>>,
}

/// A part's `functionCall`.
#[derive(Deserialize)]
struct FunctionCall<'a> {
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(default)]
    args: Option<Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PromptFeedback<'a> {
    #[serde(borrow, default)]
    block_reason: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct UsageMetadata {
    #[serde(default)]
    candidates_token_count: TokenCount,
    #[serde(default)]
    prompt_token_count: TokenCount,
    #[serde(default)]
    cached_content_token_count: TokenCount,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planning::plan::Plan;
    use crate::planning::plan::Protocol;
    use crate::wire::protocol::{
        build_request as build, http_error_message, models_request, parse_models as parse, tests,
    };

    fn target(model: &str) -> Target {
        tests::target(
            Protocol::Gemini,
            "https://generativelanguage.googleapis.com",
            model,
        )
    }

    fn decode(data: &[&str]) -> (Vec<StreamEvent>, bool) {
        let unnamed: Vec<(Option<&str>, &str)> = data.iter().map(|data| (None, *data)).collect();
        tests::decode_all(Protocol::Gemini, &unnamed)
    }

    #[test]
    fn key_goes_in_a_header_never_the_url() {
        let plan = Plan {
            max_tokens: 20,
            ..Plan::default()
        };
        let request = build(
            &target("models/gemini-2.5-flash"),
            &plan,
            Some("AIzaSECRET"),
            Some("x7"),
        );
        assert_eq!(
            request.url,
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
        );
        assert!(!request.url.contains("AIza"));
        assert!(!request.url.contains("key="));
        assert_eq!(
            request.headers,
            vec![
                ("x-goog-api-key".to_owned(), "AIzaSECRET".to_owned()),
                ("Content-Type".to_owned(), "application/json".to_owned()),
            ]
        );
        let body: serde_json::Value = serde_json::from_str(&request.body).unwrap();
        assert_eq!(body["contents"][0]["role"], "user");
        assert_eq!(
            body["contents"][0]["parts"][0]["text"],
            format!("x7\n{}", plan.prompt)
        );
        assert_eq!(body["generationConfig"]["maxOutputTokens"], 20);
        assert_eq!(body["generationConfig"]["temperature"], 0.0);
    }

    #[test]
    fn cached_content_token_count_is_the_cache_hit() {
        let (events, _) = decode(&[
            r#"{"candidates":[{"content":{"parts":[{"text":"Paris"}],"role":"model"},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":2100,"cachedContentTokenCount":2048,"candidatesTokenCount":1}}"#,
        ]);
        assert!(events.contains(&StreamEvent::CachedPrompt { tokens: 2048 }));
        let (miss, _) = decode(&[
            r#"{"candidates":[{"content":{"parts":[{"text":"Paris"}]}}],"usageMetadata":{"candidatesTokenCount":1}}"#,
        ]);
        assert!(
            !miss
                .iter()
                .any(|e| matches!(e, StreamEvent::CachedPrompt { .. }))
        );
    }

    #[test]
    fn thoughts_text_usage_and_finish() {
        let (events, completed) = decode(&[
            r#"{"candidates":[{"content":{"parts":[{"text":"Thinking...","thought":true}],"role":"model"}}],"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":0}}"#,
            r#"{"candidates":[{"content":{"parts":[{"text":""},{"text":"The capital"}],"role":"model"}}],"usageMetadata":{"candidatesTokenCount":2}}"#,
        ]);
        assert_eq!(
            events,
            vec![
                StreamEvent::Reasoning("Thinking...".to_owned()),
                StreamEvent::Usage { output_tokens: 0 },
                StreamEvent::PromptTokens { tokens: 9 },
                StreamEvent::Content("The capital".to_owned()),
                StreamEvent::Usage { output_tokens: 2 },
            ]
        );
        assert!(!completed);
        let (events, completed) = decode(&[
            r#"{"candidates":[{"content":{"parts":[{"text":" is Paris."}],"role":"model"},"finishReason":"STOP"}],"usageMetadata":{"candidatesTokenCount":6}}"#,
        ]);
        assert_eq!(events.len(), 3);
        assert_eq!(events[1], StreamEvent::Finish("STOP".to_owned()));
        assert!(completed);
    }

    #[test]
    fn errors_and_blocked_prompts() {
        let (events, _) = decode(&[
            r#"{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}"#,
        ]);
        assert_eq!(
            events,
            vec![StreamEvent::ProviderError(
                "The model is overloaded.".to_owned()
            )]
        );
        let (events, _) = decode(&[r#"{"promptFeedback":{"blockReason":"SAFETY"}}"#]);
        assert_eq!(
            events,
            vec![StreamEvent::ProviderError(
                "the prompt was blocked (SAFETY)".to_owned()
            )]
        );
        assert_eq!(
            http_error_message(
                Protocol::Gemini,
                400,
                r#"[{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}]"#
            ),
            "HTTP 400 from provider: API key not valid. Please pass a valid API key."
        );
    }

    #[test]
    fn models_list_drops_the_prefix_and_embedding_models() {
        let request = models_request(&target("x"), Some("k")).unwrap();
        assert_eq!(
            request.url,
            "https://generativelanguage.googleapis.com/v1beta/models"
        );
        assert_eq!(
            request.headers,
            vec![("x-goog-api-key".to_owned(), "k".to_owned())]
        );
        let body = r#"{"models":[
            {"name":"models/gemini-2.5-flash","supportedGenerationMethods":["generateContent","countTokens"]},
            {"name":"models/text-embedding-004","supportedGenerationMethods":["embedContent"]},
            {"name":"models/gemini-2.0-flash"}]}"#;
        assert_eq!(
            parse(Protocol::Gemini, body),
            vec!["gemini-2.0-flash", "gemini-2.5-flash"]
        );
    }
}
