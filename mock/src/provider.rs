//! The mock provider's routes: the three model APIs, CORS preflights, `/v1/models`, and the
//! ground-truth, reset and health endpoints.

use std::net::TcpStream;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde_json::{Value, json};

use crate::ground_truth::{Outcome, PreflightRecord, Recorder, RequestRecord};
use crate::http::{self, Request};
use crate::idle::IdleModels;
use crate::listener::{Disposition, Handler};
use firsttoken_core::planning::prompt::count_tokens;

use crate::prefill::{
    Earlier, PREFILL_CONTEXT_TOKENS, Prefill, PromptCache, context_exceeded_message,
};
use crate::protocol::{self, PROMPT_TOKENS, Protocol, ReasoningField, ReplyContext};
use crate::reply::{self, ReplySender, common_headers};
use crate::script::{ReplyPlan, Script, ScriptKind, ScriptedReply, known_script_names};

/// The routes listed in "no such route" errors.
const ROUTES: &str = "POST /v1/chat/completions, POST /v1/messages, \
    POST /v1beta/models/{model}:streamGenerateContent?alt=sse, GET /v1/models, \
    GET /ground-truth, POST /reset, GET /health";

/// The provider's request handler.
pub struct Provider {
    recorder: Recorder,
    seed: u64,
    /// The prompts the `prefill-cached` and `prefill-prefix` scripts have read.
    prompts: PromptCache,
    /// When each `scale-to-zero` model last finished a reply.
    idle: IdleModels,
}

impl Provider {
    /// A provider recording into `recorder`, drawing `bimodal` delays from `seed`.
    pub fn new(recorder: Recorder, seed: u64) -> Self {
        Provider {
            recorder,
            seed,
            prompts: PromptCache::default(),
            idle: IdleModels::default(),
        }
    }

    fn preflight(&self, stream: &mut TcpStream, request: &Request) -> Disposition {
        let request_headers = request
            .header("access-control-request-headers")
            .map(str::to_owned);
        self.recorder.push_preflight(PreflightRecord {
            path: request.target.clone(),
            received_ms: self.recorder.clock().ms_at(request.received_at),
            request_headers: request_headers.clone(),
        });
        let mut headers = common_headers(None);
        headers.extend([
            ("Access-Control-Allow-Methods", "GET, POST, OPTIONS".into()),
            ("Access-Control-Max-Age", "600".into()),
            ("Vary", "Access-Control-Request-Headers".into()),
        ]);
        if let Some(requested) = request_headers {
            headers.push(("Access-Control-Allow-Headers", requested));
        }
        // Chrome asks before a public page may reach a loopback server (Private Network Access).
        if request
            .header("access-control-request-private-network")
            .is_some()
        {
            headers.push(("Access-Control-Allow-Private-Network", "true".into()));
        }
        reply_or_close(http::write_full(stream, 204, &headers, b"", true))
    }

    fn simple(
        stream: &mut TcpStream,
        status: u16,
        content_type: &str,
        body: &[u8],
        include_body: bool,
    ) -> Disposition {
        let mut headers = common_headers(None);
        headers.push(("Content-Type", content_type.into()));
        headers.push(("Cache-Control", "no-store".into()));
        reply_or_close(http::write_full(
            stream,
            status,
            &headers,
            body,
            include_body,
        ))
    }

    fn json(stream: &mut TcpStream, status: u16, value: &Value) -> Disposition {
        Self::simple(
            stream,
            status,
            "application/json",
            value.to_string().as_bytes(),
            true,
        )
    }

    fn model_list(stream: &mut TcpStream) -> Disposition {
        let data: Vec<Value> = known_script_names()
            .into_iter()
            .map(|name| json!({ "id": name, "object": "model", "created": 0, "owned_by": "firsttoken-mock" }))
            .collect();
        Self::json(stream, 200, &json!({ "object": "list", "data": data }))
    }

    /// A request on one of the three model routes.
    fn model_request(
        &self,
        stream: &mut TcpStream,
        request: &Request,
        protocol: Protocol,
        model_from_path: Option<String>,
        shutdown: &AtomicBool,
    ) -> Disposition {
        let request_id = self.recorder.next_id();
        let body: Result<Value, String> = if request.body.is_empty() {
            Ok(Value::Null)
        } else {
            serde_json::from_slice(&request.body)
                .map_err(|error| format!("request body is not valid JSON: {error}"))
        };
        let model = model_from_path.or_else(|| {
            body.as_ref()
                .ok()
                .and_then(|body| body.get("model"))
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
        self.recorder.push_request(RequestRecord {
            id: request_id,
            protocol: protocol.name().into(),
            path: request.target.clone(),
            model: model.clone(),
            script: None,
            auth: auth_header(request).into(),
            key_in_query: request
                .query()
                .is_some_and(|query| query.split('&').any(|pair| pair.starts_with("key="))),
            received_ms: self.recorder.clock().ms_at(request.received_at),
            headers_ms: None,
            first_byte_ms: None,
            first_token_ms: None,
            first_reasoning_ms: None,
            end_ms: None,
            scripted_first_token_ms: None,
            cold: None,
            output_tokens: None,
            cached_tokens: None,
            prompt_tokens: None,
            probe: None,
            probe_answered_wrong: None,
            content_deltas: 0,
            reasoning_deltas: 0,
            status: 0,
            outcome: Outcome::InProgress,
        });
        let fail = |stream: &mut TcpStream, message: &str| {
            reply::send_request_error(stream, &self.recorder, request_id, protocol, 400, message)
        };
        let body = match body {
            Ok(body) => body,
            Err(message) => return fail(stream, &message),
        };
        let Some(model) = model else {
            return fail(
                stream,
                "request has no model; name a mock script as the model, e.g. \"fixed\"",
            );
        };
        let script = match Script::parse(&model) {
            Ok(script) => script,
            Err(error) => return fail(stream, &error.to_string()),
        };
        let canonical = script.canonical_name();
        let index = self.recorder.next_script_index(&canonical);
        let prompt = protocol::user_prompt(protocol, &body);
        let reply = match script.prefill() {
            Some(prefill) => {
                let prompt_tokens = prompt.as_deref().map_or(PROMPT_TOKENS, count_tokens);
                if prompt_tokens > PREFILL_CONTEXT_TOKENS {
                    self.recorder.update(request_id, |record| {
                        record.script = Some(canonical.clone());
                        record.prompt_tokens = Some(prompt_tokens);
                    });
                    let message = context_exceeded_message(prompt_tokens);
                    return reply::send_request_error(
                        stream,
                        &self.recorder,
                        request_id,
                        protocol,
                        400,
                        &message,
                    );
                }
                let text = prompt.as_deref().unwrap_or_default();
                let earlier = Earlier {
                    repeated: prefill == Prefill::Cached
                        && self.prompts.seen_before(&canonical, text),
                    // Keyed by the model as sent: a server's cache is per model, and
                    // `prefill-prefix@R/m` and `prefill-prefix@R/n` are two models.
                    shared_prefix_tokens: if prefill == Prefill::Prefix {
                        self.prompts.shared_prefix(&model, text)
                    } else {
                        0
                    },
                };
                ScriptedReply {
                    plan: script.plan_prefill(self.seed, index, prompt_tokens, earlier),
                    answer: None,
                    prompt_tokens,
                }
            }
            None => match script.scale_down_after() {
                Some(threshold) => {
                    // Keyed by the model as sent: a provider keeps a replica per model.
                    let cold = self.idle.arrive(&model, request.received_at, threshold);
                    let plan = script.plan_scale_to_zero(self.seed, index, cold);
                    let end = request.received_at + Duration::from_millis(plan.last_beat_ms());
                    self.idle.finish(&model, end);
                    ScriptedReply {
                        plan,
                        answer: None,
                        prompt_tokens: PROMPT_TOKENS,
                    }
                }
                None => script.reply_to(self.seed, index, prompt.as_deref()),
            },
        };
        let ScriptedReply {
            plan,
            answer,
            prompt_tokens,
        } = reply;
        let (scripted_first_token_ms, cold, cached_tokens) = match &plan {
            ReplyPlan::Stream {
                first_token_at_ms,
                cold,
                cached_tokens,
                ..
            } => (first_token_at_ms.map(|ms| ms as f64), *cold, *cached_tokens),
            _ => (None, None, None),
        };
        self.recorder.update(request_id, |record| {
            record.script = Some(canonical);
            record.scripted_first_token_ms = scripted_first_token_ms;
            record.cold = cold;
            record.probe = answer.as_ref().map(|answer| answer.probe_id.to_owned());
            record.probe_answered_wrong = answer.as_ref().map(|answer| answer.wrong);
        });
        let context = ReplyContext {
            model,
            request_id,
            include_usage: body
                .pointer("/stream_options/include_usage")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            reports_usage: script.reports_usage(),
            reasoning_field: if script.kind == ScriptKind::ReasoningOr {
                ReasoningField::Reasoning
            } else {
                ReasoningField::ReasoningContent
            },
            cached_tokens,
            content_tokens: match answer.as_ref().map(|answer| &answer.answer) {
                Some(crate::fidelity::Answer::Text(pieces)) => pieces.len(),
                Some(crate::fidelity::Answer::Call(_)) => 0,
                None if script.kind == ScriptKind::Buffered => crate::script::BUFFERED_REPLY_TOKENS,
                None => crate::script::CONTENT_TOKENS.len(),
            },
            prompt_tokens,
            answer,
        };
        let sender = ReplySender {
            stream,
            recorder: &self.recorder,
            request_id,
            received_at: request.received_at,
            shutdown,
        };
        sender.send(protocol, plan, &context)
    }
}

/// Which credential header arrived (never its value).
fn auth_header(request: &Request) -> &'static str {
    ["authorization", "x-api-key", "x-goog-api-key"]
        .into_iter()
        .find(|name| request.header(name).is_some())
        .unwrap_or("none")
}

/// The model named in a Gemini path `/v1beta/models/{model}:streamGenerateContent`.
fn gemini_model(path: &str) -> Option<String> {
    let rest = path.strip_prefix("/v1beta/models/")?;
    let (model, method) = rest.rsplit_once(':')?;
    (method == "streamGenerateContent" && !model.is_empty()).then(|| http::percent_decode(model))
}

/// `?settle_ms=N` on `/ground-truth`: wait up to N ms (at most a minute) for replies to end.
fn settle_ms(request: &Request) -> Option<u64> {
    request
        .query()?
        .split('&')
        .find_map(|pair| pair.strip_prefix("settle_ms="))
        .and_then(|value| value.parse::<u64>().ok())
        .map(|wait_ms| wait_ms.min(60_000))
}

fn reply_or_close(written: std::io::Result<()>) -> Disposition {
    if written.is_ok() {
        Disposition::KeepAlive
    } else {
        Disposition::Close
    }
}

impl Handler for Provider {
    fn handle(
        &self,
        stream: &mut TcpStream,
        request: Request,
        shutdown: &AtomicBool,
    ) -> Disposition {
        let path = request.path().to_owned();
        match (request.method.as_str(), path.as_str()) {
            ("OPTIONS", _) => self.preflight(stream, &request),
            ("GET" | "HEAD", "/health") => Self::simple(
                stream,
                200,
                "text/plain; charset=utf-8",
                b"ok",
                request.method == "GET",
            ),
            ("GET", "/ground-truth") => {
                let snapshot = match settle_ms(&request) {
                    Some(wait_ms) => self
                        .recorder
                        .settled_snapshot(Duration::from_millis(wait_ms)),
                    None => self.recorder.snapshot(),
                };
                match serde_json::to_value(&snapshot) {
                    Ok(value) => Self::json(stream, 200, &value),
                    Err(error) => Self::json(
                        stream,
                        500,
                        &json!({ "error": { "message": error.to_string() } }),
                    ),
                }
            }
            ("POST", "/reset") => {
                self.recorder.reset();
                Self::json(stream, 200, &json!({ "reset": true }))
            }
            ("GET", "/v1/models") => Self::model_list(stream),
            ("POST", "/v1/chat/completions") => {
                self.model_request(stream, &request, Protocol::OpenAi, None, shutdown)
            }
            ("POST", "/v1/messages") => {
                self.model_request(stream, &request, Protocol::Anthropic, None, shutdown)
            }
            ("POST", gemini_path) if gemini_model(gemini_path).is_some() => {
                let model = gemini_model(gemini_path);
                self.model_request(stream, &request, Protocol::Gemini, model, shutdown)
            }
            (method, other) => Self::json(
                stream,
                404,
                &json!({ "error": {
                    "message": format!("no route for {method} {other}; routes: {ROUTES}"),
                    "type": "not_found",
                }}),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gemini_model_comes_from_the_path() {
        assert_eq!(
            gemini_model("/v1beta/models/fixed%4040:streamGenerateContent").as_deref(),
            Some("fixed@40")
        );
        assert_eq!(
            gemini_model("/v1beta/models/reasoning:streamGenerateContent").as_deref(),
            Some("reasoning")
        );
        assert_eq!(gemini_model("/v1beta/models/fixed:generateContent"), None);
        assert_eq!(gemini_model("/v1beta/models/:streamGenerateContent"), None);
    }
}
