//! Scripts: what one reply does and when, chosen by the request's model name (`name` or
//! `name@N`).
//!
//! A script is turned into a [`ReplyPlan`]: protocol-neutral beats at millisecond offsets from the
//! moment the request was read. Keeping the plan pure (no clock, no socket) lets the timing rules be
//! unit-tested, and lets each protocol render the same beats in its own JSON.
//!
//! Most scripts ignore the prompt. The fidelity scripts (`faithful`, `degraded`) read it: a
//! prompt of the app's probe suite gets that probe's answer ([`crate::fidelity`]), any other
//! prompt the `fixed` reply.

use std::fmt;

use crate::fidelity::{self, ProbeAnswer};
use crate::leaf::{PROMPT_TOKENS, splitmix64};
use crate::prefill::{Earlier, Prefill, PrefillDraw};

/// The content tokens of every successful reply, in order. They cover 2-, 3- and 4-byte UTF-8
/// characters so decoders that split characters across reads are caught.
pub const CONTENT_TOKENS: [&str; 8] = [
    "Paris", " é", " 世界", " says", " hello", " to", " you", " 🙂",
];

/// The reasoning deltas of the `reasoning` scripts, in order.
pub const REASONING_TOKENS: [&str; 3] = ["Thinking", " about", " Paris…"];

/// Gap between consecutive content tokens, ms.
pub const TOKEN_INTERVAL_MS: u64 = 20;

/// Gap between the pieces of one event under the `split` script, ms. Long enough that the pieces
/// reach the client as separate reads rather than being merged by the socket.
pub const SPLIT_PIECE_GAP_MS: u64 = 2;

/// Every script the mock knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScriptKind {
    /// First content token after a fixed delay.
    Fixed,
    /// Mostly warm (~120 ms), with a seeded share of cold starts (2500–3500 ms).
    Bimodal,
    /// Reasoning deltas (`reasoning_content` for OpenAI) before the content.
    Reasoning,
    /// As `Reasoning`, with OpenRouter's `reasoning` field for OpenAI.
    ReasoningOr,
    /// `: keep-alive` comments every 50 ms before the first token.
    Keepalive,
    /// Role-only and empty events long before the first real token.
    RoleFirst,
    /// Every event cut into several writes at awkward byte offsets (CRLF line ends).
    Split,
    /// CRLF line ends everywhere.
    Crlf,
    /// HTTP 401 with the protocol's error body.
    Http401,
    /// HTTP 429 with `Retry-After: 7` and the protocol's error body.
    Http429,
    /// HTTP 500 with the protocol's error body.
    Http500,
    /// A 200 stream whose first event is the protocol's in-stream error.
    ErrorEvent,
    /// Two content tokens, then the socket closes without the chunked terminator.
    Cut,
    /// 200 headers, then nothing until the client goes away.
    Stall,
    /// 200 `application/json` with an ordinary, non-streamed completion.
    NotSse,
    /// Prompt caching: every second request (from the second on) is a cache hit whose usage
    /// reports [`CACHED_PROMPT_TOKENS`] cached prompt tokens and whose first token comes at a
    /// quarter of the delay; the others report 0 cached tokens (Gemini: no field).
    Cached,
    /// Four tokens, a [`MID_STALL_PAUSE_MS`] pause mid-stream, then the other four: a decode
    /// stall after a fast first token.
    MidStall,
    /// A long wait, then a [`BUFFERED_REPLY_TOKENS`]-token reply in one write: a provider that
    /// generates the whole reply before sending any of it.
    Buffered,
    /// Answers the fidelity suite's probes as a perfect model would (text in short deltas,
    /// calls in the protocol's own streamed shape), with a prompt count derived from the
    /// prompt; any other prompt gets the `fixed` reply.
    Faithful,
    /// As `Faithful`, except that a fixed share of the probes (the parameter, in percent) is
    /// answered wrong, and every request reports
    /// [`fidelity::DEGRADED_EXTRA_PROMPT_TOKENS`] more prompt tokens.
    Degraded,
    /// Reads the prompt at the parameter's rate (tokens/s) before the first token, reporting
    /// the prompt's own token count ([`crate::prefill`]).
    Prefill,
    /// As `Prefill`, with a share of cold starts.
    PrefillCold,
    /// As `Prefill`, with a prompt cache: a long prompt sent again is mostly read from it.
    PrefillCached,
    /// As `Prefill`, with a prefix cache: the leading tokens a prompt shares with an earlier
    /// prompt of the same model are read from it, as llama.cpp's server does.
    PrefillPrefix,
    /// As `Prefill`, with a stream that reports no usage at all (no token counts in any
    /// protocol), as llama.cpp's OpenAI-compatible server streams unless asked.
    PrefillNoUsage,
    /// A serverless provider that scales a model to zero: warm replies while the model has
    /// traffic, and one cold start once it has been idle longer than the parameter, seconds
    /// ([`crate::idle`]); the cold start's length is the second parameter, ms.
    ScaleToZero,
}

/// The pause inside a `mid-stall` reply, ms: longer than the 2 s a stall needs.
pub const MID_STALL_PAUSE_MS: u64 = 2_500;

/// Content deltas of a `buffered` reply: more than the 20 that mark a reply buffered.
pub const BUFFERED_REPLY_TOKENS: usize = 32;

/// Prompt tokens a `cached` cache hit reports as served from the cache (of
/// [`crate::leaf::PROMPT_TOKENS`]).
pub const CACHED_PROMPT_TOKENS: u32 = 8;

impl ScriptKind {
    /// All scripts, in the order they are listed to users.
    pub const ALL: [ScriptKind; 26] = [
        ScriptKind::Fixed,
        ScriptKind::Bimodal,
        ScriptKind::Reasoning,
        ScriptKind::ReasoningOr,
        ScriptKind::Keepalive,
        ScriptKind::RoleFirst,
        ScriptKind::Split,
        ScriptKind::Crlf,
        ScriptKind::Http401,
        ScriptKind::Http429,
        ScriptKind::Http500,
        ScriptKind::ErrorEvent,
        ScriptKind::Cut,
        ScriptKind::Stall,
        ScriptKind::NotSse,
        ScriptKind::Cached,
        ScriptKind::MidStall,
        ScriptKind::Buffered,
        ScriptKind::Faithful,
        ScriptKind::Degraded,
        ScriptKind::Prefill,
        ScriptKind::PrefillCold,
        ScriptKind::PrefillCached,
        ScriptKind::PrefillPrefix,
        ScriptKind::PrefillNoUsage,
        ScriptKind::ScaleToZero,
    ];

    /// The name used as a model name.
    pub fn name(self) -> &'static str {
        match self {
            ScriptKind::Fixed => "fixed",
            ScriptKind::Bimodal => "bimodal",
            ScriptKind::Reasoning => "reasoning",
            ScriptKind::ReasoningOr => "reasoning-or",
            ScriptKind::Keepalive => "keepalive",
            ScriptKind::RoleFirst => "role-first",
            ScriptKind::Split => "split",
            ScriptKind::Crlf => "crlf",
            ScriptKind::Http401 => "http-401",
            ScriptKind::Http429 => "http-429",
            ScriptKind::Http500 => "http-500",
            ScriptKind::ErrorEvent => "error-event",
            ScriptKind::Cut => "cut",
            ScriptKind::Stall => "stall",
            ScriptKind::NotSse => "not-sse",
            ScriptKind::Cached => "cached",
            ScriptKind::MidStall => "mid-stall",
            ScriptKind::Buffered => "buffered",
            ScriptKind::Faithful => "faithful",
            ScriptKind::Degraded => "degraded",
            ScriptKind::Prefill => "prefill",
            ScriptKind::PrefillCold => "prefill-cold",
            ScriptKind::PrefillCached => "prefill-cached",
            ScriptKind::PrefillPrefix => "prefill-prefix",
            ScriptKind::PrefillNoUsage => "prefill-nousage",
            ScriptKind::ScaleToZero => "scale-to-zero",
        }
    }

    /// The main parameter when no `@N` is given: the delay to the first content token (or to the
    /// error, or to the body) in ms; for `bimodal`, the cold share in percent; for `degraded`,
    /// the share of probes answered wrong in percent; for the prefill scripts, the prompt
    /// tokens read per second; for `scale-to-zero`, the idle time after which the model goes
    /// cold, seconds.
    pub fn default_parameter(self) -> u64 {
        match self {
            ScriptKind::Fixed | ScriptKind::Split | ScriptKind::Crlf | ScriptKind::NotSse => 150,
            ScriptKind::Faithful => 150,
            ScriptKind::Degraded => 30,
            ScriptKind::Cut | ScriptKind::MidStall => 150,
            ScriptKind::Buffered => 1_500,
            ScriptKind::Cached => 200,
            ScriptKind::Bimodal => 10,
            ScriptKind::Reasoning | ScriptKind::ReasoningOr => 250,
            ScriptKind::Keepalive => 300,
            ScriptKind::RoleFirst => 200,
            ScriptKind::ErrorEvent => 100,
            ScriptKind::Http401 | ScriptKind::Http429 | ScriptKind::Http500 => 0,
            ScriptKind::Stall => 0,
            ScriptKind::Prefill
            | ScriptKind::PrefillCold
            | ScriptKind::PrefillCached
            | ScriptKind::PrefillPrefix
            | ScriptKind::PrefillNoUsage => 20_000,
            ScriptKind::ScaleToZero => 60,
        }
    }
}

/// The cold start of `scale-to-zero` when the name gives no second parameter, ms.
pub const DEFAULT_COLD_START_MS: u64 = 2_500;

/// The longest idle threshold `scale-to-zero` takes, seconds: a day.
const MAX_IDLE_S: u64 = 86_400;

/// A parsed model name: which script, and its main parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Script {
    /// Which script.
    pub kind: ScriptKind,
    /// Delay in ms, cold share in percent for `bimodal`, or wrong share in percent for
    /// `degraded`; see [`ScriptKind::default_parameter`].
    pub parameter: u64,
    /// The second parameter, `name@N@M`: for `scale-to-zero`, the cold start's length, ms
    /// ([`DEFAULT_COLD_START_MS`] when not given). `None` for every other script, which takes
    /// one parameter.
    pub cold_start_ms: Option<u64>,
}

/// What a script makes of one request: the reply, and what its usage reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptedReply {
    /// The reply's beats and framing.
    pub plan: ReplyPlan,
    /// For the fidelity scripts, the probe the prompt asked and its answer.
    pub answer: Option<ProbeAnswer>,
    /// The prompt tokens the usage reports.
    pub prompt_tokens: u32,
}

/// Why a model name does not name a script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptError {
    /// No script has this name.
    Unknown(String),
    /// The part after `@` is not a number in range.
    BadParameter(String),
}

impl fmt::Display for ScriptError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptError::Unknown(name) => write!(
                formatter,
                "unknown mock script '{name}'; known scripts: {}",
                known_script_names().join(", ")
            ),
            ScriptError::BadParameter(name) => write!(
                formatter,
                "bad parameter in mock script '{name}': write name@N with N a whole number of \
                 milliseconds (for bimodal and degraded, a share in percent from 0 to 100; for \
                 scale-to-zero, name@N@M: idle seconds up to 86400, then a cold start of M ms)"
            ),
        }
    }
}

impl std::error::Error for ScriptError {}

/// The names of all scripts, in listing order.
pub fn known_script_names() -> Vec<&'static str> {
    ScriptKind::ALL.iter().map(|kind| kind.name()).collect()
}

/// Longest accepted delay, ms: one hour is far beyond any client timeout.
const MAX_DELAY_MS: u64 = 3_600_000;

impl Script {
    /// Parses `name`, `name@N` or, for `scale-to-zero`, `name@N@M`.
    ///
    /// # Errors
    /// [`ScriptError::Unknown`] for a name no script has, [`ScriptError::BadParameter`] when `N`
    /// is not a whole number (or above 100 for `bimodal` and `degraded`, above a day of idle
    /// seconds for `scale-to-zero`, or above an hour), or a second parameter is given to a
    /// script that takes one.
    pub fn parse(model: &str) -> Result<Script, ScriptError> {
        // `script/name` runs `script`: targets of one model (the app groups models by the part
        // after the last `/`) can then run different scripts.
        let model = model.split('/').next().unwrap_or(model);
        let (name, parameter) = match model.split_once('@') {
            Some((name, parameter)) => (name, Some(parameter)),
            None => (model, None),
        };
        let kind = ScriptKind::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
            .ok_or_else(|| ScriptError::Unknown(model.to_owned()))?;
        let bad = || ScriptError::BadParameter(model.to_owned());
        let (parameter, second) = match parameter.map(|text| text.split_once('@')) {
            None => (None, None),
            Some(None) => (parameter, None),
            Some(Some((first, second))) => (Some(first), Some(second)),
        };
        let number = |text: &str, limit: u64| {
            text.parse::<u64>()
                .ok()
                .filter(|value| *value <= limit)
                .ok_or_else(bad)
        };
        let limit = match kind {
            ScriptKind::Bimodal | ScriptKind::Degraded => 100,
            ScriptKind::ScaleToZero => MAX_IDLE_S,
            _ => MAX_DELAY_MS,
        };
        let parameter = match parameter {
            None => kind.default_parameter(),
            Some(text) => number(text, limit)?,
        };
        let cold_start_ms = match (kind, second) {
            (ScriptKind::ScaleToZero, None) => Some(DEFAULT_COLD_START_MS),
            (ScriptKind::ScaleToZero, Some(text)) => Some(number(text, MAX_DELAY_MS)?),
            (_, None) => None,
            (_, Some(_)) => return Err(bad()),
        };
        Ok(Script {
            kind,
            parameter,
            cold_start_ms,
        })
    }

    /// The canonical name, `name` or `name@N` when the parameter is not the default (and
    /// `name@N@M` when the second one is not).
    pub fn canonical_name(&self) -> String {
        let second = self.cold_start_ms.filter(|ms| *ms != DEFAULT_COLD_START_MS);
        match second {
            Some(ms) => format!("{}@{}@{ms}", self.kind.name(), self.parameter),
            None if self.parameter == self.kind.default_parameter() => self.kind.name().to_owned(),
            None => format!("{}@{}", self.kind.name(), self.parameter),
        }
    }

    /// For `scale-to-zero`, how long the model may sit idle and stay warm; `None` for the
    /// other scripts.
    pub fn scale_down_after(&self) -> Option<std::time::Duration> {
        (self.kind == ScriptKind::ScaleToZero)
            .then(|| std::time::Duration::from_secs(self.parameter))
    }

    /// The `scale-to-zero` reply to its `request_index`-th request: warm (110–130 ms, as
    /// `bimodal`'s warm replies) or, when `cold`, the same plus the cold start
    /// ([`Script::cold_start_ms`]). Other scripts get [`Script::plan`].
    pub fn plan_scale_to_zero(&self, seed: u64, request_index: u64, cold: bool) -> ReplyPlan {
        if self.kind != ScriptKind::ScaleToZero {
            return self.plan(seed, request_index);
        }
        let warm_ms = bimodal_draw(seed, request_index, 0).first_token_ms;
        let load_ms = if cold {
            self.cold_start_ms.unwrap_or(DEFAULT_COLD_START_MS)
        } else {
            0
        };
        stream_of_tokens(warm_ms + load_ms, Framing::PLAIN, Some(cold))
    }

    /// The delay to the first content token, ms: the parameter, except for `degraded`, whose
    /// parameter is a share; it keeps `faithful`'s default delay, so the two differ in answers
    /// and prompt counts only.
    fn first_token_delay_ms(&self) -> u64 {
        match self.kind {
            ScriptKind::Degraded => ScriptKind::Faithful.default_parameter(),
            _ => self.parameter,
        }
    }

    /// The reply to a request whose user message is `prompt` (`None` when the body had none):
    /// a fidelity script answers a probe of the suite with [`Script::plan_answer`], every other
    /// request gets [`Script::plan`].
    pub fn reply_to(&self, seed: u64, request_index: u64, prompt: Option<&str>) -> ScriptedReply {
        let probe = match (self.kind, prompt) {
            (ScriptKind::Faithful | ScriptKind::Degraded, Some(prompt)) => {
                fidelity::find_probe(prompt).map(|probe| (probe, prompt))
            }
            _ => None,
        };
        let extra_prompt_tokens = if self.kind == ScriptKind::Degraded {
            fidelity::DEGRADED_EXTRA_PROMPT_TOKENS
        } else {
            0
        };
        match probe {
            Some((probe, prompt)) => {
                let wrong = self.kind == ScriptKind::Degraded
                    && fidelity::wrong_probe_ids(self.parameter).contains(&probe.id);
                let answer = ProbeAnswer::new(probe, wrong);
                ScriptedReply {
                    plan: self.plan_answer(&answer),
                    prompt_tokens: fidelity::probe_prompt_tokens(prompt)
                        .saturating_add(extra_prompt_tokens),
                    answer: Some(answer),
                }
            }
            None => ScriptedReply {
                plan: self.plan(seed, request_index),
                answer: None,
                prompt_tokens: PROMPT_TOKENS + extra_prompt_tokens,
            },
        }
    }

    /// The reply carrying a probe's `answer`: the first piece at the script's delay, the rest
    /// [`TOKEN_INTERVAL_MS`] apart, then the finish. A call opens with [`Beat::ToolCall`] and
    /// streams its fragments as [`Beat::ToolArguments`].
    pub fn plan_answer(&self, answer: &ProbeAnswer) -> ReplyPlan {
        let first_token_ms = self.first_token_delay_ms();
        let steps: Vec<Beat> = match &answer.answer {
            fidelity::Answer::Text(pieces) => (0..pieces.len()).map(Beat::Content).collect(),
            fidelity::Answer::Call(call) => std::iter::once(Beat::ToolCall)
                .chain((0..call.fragments.len()).map(Beat::ToolArguments))
                .collect(),
        };
        let last_ms = first_token_ms + steps.len().saturating_sub(1) as u64 * TOKEN_INTERVAL_MS;
        let mut beats = vec![TimedBeat::new(first_token_ms, Beat::Start)];
        beats.extend(steps.into_iter().enumerate().map(|(index, beat)| {
            TimedBeat::new(first_token_ms + index as u64 * TOKEN_INTERVAL_MS, beat)
        }));
        beats.push(TimedBeat::new(last_ms, Beat::Finish));
        ReplyPlan::stream(
            beats,
            Ending::Complete,
            Framing::PLAIN,
            Some(first_token_ms),
        )
    }

    /// The reply this script gives to its `request_index`-th request (0-based, counted per
    /// canonical script name), with `seed` driving `bimodal`'s draws. The fidelity scripts'
    /// replies to anything but a probe are `fixed`'s.
    pub fn plan(&self, seed: u64, request_index: u64) -> ReplyPlan {
        let delay_ms = self.first_token_delay_ms();
        match self.kind {
            ScriptKind::Fixed | ScriptKind::Faithful | ScriptKind::Degraded => {
                stream_of_tokens(delay_ms, Framing::PLAIN, None)
            }
            ScriptKind::Crlf => stream_of_tokens(delay_ms, Framing::CRLF, None),
            ScriptKind::Split => stream_of_tokens(delay_ms, Framing::SPLIT, None),
            ScriptKind::Bimodal => {
                let draw = bimodal_draw(seed, request_index, self.parameter);
                stream_of_tokens(draw.first_token_ms, Framing::PLAIN, Some(draw.cold))
            }
            ScriptKind::Reasoning | ScriptKind::ReasoningOr => {
                let mut beats = vec![TimedBeat::new(60, Beat::Start)];
                for (index, at_ms) in [60, 90, 120].into_iter().enumerate() {
                    beats.push(TimedBeat::new(at_ms, Beat::Reasoning(index)));
                }
                beats.extend(content_beats(delay_ms, CONTENT_TOKENS.len()));
                beats.push(TimedBeat::new(last_token_ms(delay_ms), Beat::Finish));
                ReplyPlan::stream(beats, Ending::Complete, Framing::PLAIN, Some(delay_ms))
            }
            ScriptKind::Keepalive => {
                let mut beats: Vec<TimedBeat> = (0..delay_ms)
                    .step_by(50)
                    .map(|at_ms| TimedBeat::new(at_ms, Beat::KeepAlive))
                    .collect();
                beats.extend(token_beats(delay_ms));
                ReplyPlan::stream(beats, Ending::Complete, Framing::PLAIN, Some(delay_ms))
            }
            ScriptKind::RoleFirst => {
                let mut beats = vec![
                    TimedBeat::new(10, Beat::Start),
                    TimedBeat::new(40, Beat::Empty),
                ];
                beats.extend(content_beats(delay_ms, CONTENT_TOKENS.len()));
                beats.push(TimedBeat::new(last_token_ms(delay_ms), Beat::Finish));
                ReplyPlan::stream(beats, Ending::Complete, Framing::PLAIN, Some(delay_ms))
            }
            ScriptKind::ErrorEvent => ReplyPlan::stream(
                vec![TimedBeat::new(delay_ms, Beat::ErrorEvent)],
                Ending::Complete,
                Framing::PLAIN,
                None,
            ),
            ScriptKind::Cut => {
                let mut beats = vec![TimedBeat::new(delay_ms, Beat::Start)];
                beats.extend(content_beats(delay_ms, 2));
                let cut_at_ms = delay_ms + 2 * TOKEN_INTERVAL_MS;
                ReplyPlan::stream(
                    beats,
                    Ending::Cut { at_ms: cut_at_ms },
                    Framing::PLAIN,
                    Some(delay_ms),
                )
            }
            ScriptKind::Stall => ReplyPlan::stream(Vec::new(), Ending::Stall, Framing::PLAIN, None),
            ScriptKind::NotSse => ReplyPlan::NotStreamed { delay_ms },
            ScriptKind::Cached => {
                // The first request fills the cache; after that every second one hits it.
                let hit = request_index % 2 == 1;
                let first_token_ms = if hit { delay_ms / 4 } else { delay_ms };
                let mut plan = stream_of_tokens(first_token_ms, Framing::PLAIN, None);
                if let ReplyPlan::Stream { cached_tokens, .. } = &mut plan {
                    *cached_tokens = Some(if hit { CACHED_PROMPT_TOKENS } else { 0 });
                }
                plan
            }
            ScriptKind::MidStall => {
                let mut beats = vec![TimedBeat::new(delay_ms, Beat::Start)];
                let half = CONTENT_TOKENS.len() / 2;
                beats.extend(content_beats(delay_ms, half));
                let resume_ms =
                    delay_ms + (half as u64 - 1) * TOKEN_INTERVAL_MS + MID_STALL_PAUSE_MS;
                beats.extend((half..CONTENT_TOKENS.len()).map(|index| {
                    TimedBeat::new(
                        resume_ms + (index - half) as u64 * TOKEN_INTERVAL_MS,
                        Beat::Content(index),
                    )
                }));
                let end_ms =
                    resume_ms + (CONTENT_TOKENS.len() - half - 1) as u64 * TOKEN_INTERVAL_MS;
                beats.push(TimedBeat::new(end_ms, Beat::Finish));
                ReplyPlan::stream(beats, Ending::Complete, Framing::PLAIN, Some(delay_ms))
            }
            ScriptKind::Buffered => {
                let mut beats = vec![TimedBeat::new(delay_ms, Beat::Start)];
                beats.extend(
                    (0..BUFFERED_REPLY_TOKENS)
                        .map(|index| TimedBeat::new(delay_ms, Beat::Content(index))),
                );
                beats.push(TimedBeat::new(delay_ms, Beat::Finish));
                ReplyPlan::stream(beats, Ending::Complete, Framing::BATCHED, Some(delay_ms))
            }
            ScriptKind::Http401 => ReplyPlan::HttpError {
                status: 401,
                delay_ms,
            },
            ScriptKind::Http429 => ReplyPlan::HttpError {
                status: 429,
                delay_ms,
            },
            ScriptKind::Http500 => ReplyPlan::HttpError {
                status: 500,
                delay_ms,
            },
            ScriptKind::Prefill
            | ScriptKind::PrefillCold
            | ScriptKind::PrefillCached
            | ScriptKind::PrefillPrefix
            | ScriptKind::PrefillNoUsage => {
                self.plan_prefill(seed, request_index, PROMPT_TOKENS, Earlier::default())
            }
            // Without the provider's memory of idle times, warm: the provider asks
            // `plan_scale_to_zero` with what its memory says.
            ScriptKind::ScaleToZero => self.plan_scale_to_zero(seed, request_index, false),
        }
    }

    /// The prefill behaviour of a prefill script; `None` for the others.
    pub fn prefill(&self) -> Option<Prefill> {
        match self.kind {
            ScriptKind::Prefill => Some(Prefill::Plain),
            ScriptKind::PrefillCold => Some(Prefill::Cold),
            ScriptKind::PrefillCached => Some(Prefill::Cached),
            ScriptKind::PrefillPrefix => Some(Prefill::Prefix),
            // The very same draws as `prefill`: only what the stream reports differs.
            ScriptKind::PrefillNoUsage => Some(Prefill::Plain),
            _ => None,
        }
    }

    /// Whether the reply reports usage (token counts) at all: every script but
    /// `prefill-nousage`, whose stream carries none in any protocol, as a server that does not
    /// count (or not unless asked) sends.
    pub fn reports_usage(&self) -> bool {
        self.kind != ScriptKind::PrefillNoUsage
    }

    /// A prefill script's reply to a prompt of `prompt_tokens`, of which the script's cache
    /// knows `earlier` ([`crate::prefill`]); `fixed`'s reply for other scripts.
    pub fn plan_prefill(
        &self,
        seed: u64,
        request_index: u64,
        prompt_tokens: u32,
        earlier: Earlier,
    ) -> ReplyPlan {
        match self.prefill() {
            Some(prefill) => prefill_reply(prefill.draw(
                self.parameter,
                seed,
                request_index,
                prompt_tokens,
                earlier,
            )),
            None => stream_of_tokens(self.first_token_delay_ms(), Framing::PLAIN, None),
        }
    }
}

/// One protocol-neutral step of a streamed reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Beat {
    /// A `: keep-alive` comment.
    KeepAlive,
    /// The protocol's opening event(s): OpenAI's role-only chunk, Anthropic's `message_start`.
    Start,
    /// An event that carries no text: an empty-content delta, a `ping`, an empty Gemini part.
    Empty,
    /// The reasoning delta `REASONING_TOKENS[i]`.
    Reasoning(usize),
    /// The content delta `CONTENT_TOKENS[i % CONTENT_TOKENS.len()]` (long replies repeat them),
    /// or piece `i` of a probe's text answer.
    Content(usize),
    /// A probe's function call opens: OpenAI's first `tool_calls` delta with the name,
    /// Anthropic's `tool_use` block, Gemini's whole `functionCall` part (its last chunk).
    ToolCall,
    /// Fragment `i` of the call's JSON arguments (nothing for Gemini, which sent them whole).
    ToolArguments(usize),
    /// The closing events: finish reason, usage, `[DONE]` / `message_stop`.
    Finish,
    /// The protocol's in-stream error event.
    ErrorEvent,
}

/// A beat and when to send it, ms after the request was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimedBeat {
    /// Offset from the moment the full request was read, ms.
    pub at_ms: u64,
    /// What to send.
    pub beat: Beat,
}

impl TimedBeat {
    fn new(at_ms: u64, beat: Beat) -> Self {
        TimedBeat { at_ms, beat }
    }
}

/// How the stream ends after its last beat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The chunked terminator; the connection stays open for the next request.
    Complete,
    /// The socket closes at `at_ms` without the chunked terminator.
    Cut {
        /// Offset from the request, ms.
        at_ms: u64,
    },
    /// Nothing more is sent until the client goes away (or ten minutes pass).
    Stall,
}

/// How events are put on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Framing {
    /// CRLF instead of LF line ends.
    pub crlf: bool,
    /// Each event cut into several writes at awkward offsets.
    pub split: bool,
    /// Every event of beats due at the same time goes out in one write.
    pub batch: bool,
}

impl Framing {
    const PLAIN: Framing = Framing {
        crlf: false,
        split: false,
        batch: false,
    };
    const CRLF: Framing = Framing {
        crlf: true,
        split: false,
        batch: false,
    };
    // CRLF so that one cut can fall between a `\r` and its `\n`.
    const SPLIT: Framing = Framing {
        crlf: true,
        split: true,
        batch: false,
    };
    const BATCHED: Framing = Framing {
        crlf: false,
        split: false,
        batch: true,
    };
}

/// What a script does with one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplyPlan {
    /// A 200 event stream.
    Stream {
        /// Beats in time order.
        beats: Vec<TimedBeat>,
        /// How the stream ends.
        ending: Ending,
        /// Line ends and write splitting.
        framing: Framing,
        /// When the first content token is scheduled, ms after the request; `None` when the
        /// script sends no content.
        first_token_at_ms: Option<u64>,
        /// For `bimodal`: whether this request drew a cold start.
        cold: Option<bool>,
        /// For `cached`: the cached prompt tokens the usage block reports (0 for a miss);
        /// `None` for scripts that report no cache field.
        cached_tokens: Option<u32>,
    },
    /// An HTTP error status with the protocol's error body, after `delay_ms`.
    HttpError {
        /// 401, 429 or 500.
        status: u16,
        /// Delay before the response, ms.
        delay_ms: u64,
    },
    /// A 200 `application/json` non-streamed completion, after `delay_ms`.
    NotStreamed {
        /// Delay before the response, ms.
        delay_ms: u64,
    },
}

impl ReplyPlan {
    /// When the reply's last beat is due, ms after the request (the delay of an HTTP error or a
    /// non-streamed body): when the script is done with the request.
    pub fn last_beat_ms(&self) -> u64 {
        match self {
            ReplyPlan::Stream { beats, ending, .. } => {
                let last = beats.iter().map(|timed| timed.at_ms).max().unwrap_or(0);
                match ending {
                    Ending::Cut { at_ms } => last.max(*at_ms),
                    Ending::Complete | Ending::Stall => last,
                }
            }
            ReplyPlan::HttpError { delay_ms, .. } | ReplyPlan::NotStreamed { delay_ms } => {
                *delay_ms
            }
        }
    }

    fn stream(
        beats: Vec<TimedBeat>,
        ending: Ending,
        framing: Framing,
        first_token_at_ms: Option<u64>,
    ) -> Self {
        ReplyPlan::Stream {
            beats,
            ending,
            framing,
            first_token_at_ms,
            cold: None,
            cached_tokens: None,
        }
    }
}

/// The reply of a prefill draw: plain tokens from its first-token time, with its cold-start
/// mark and cached tokens.
fn prefill_reply(draw: PrefillDraw) -> ReplyPlan {
    let mut plan = stream_of_tokens_at(draw.first_token_ms, Some(draw.cold));
    if let ReplyPlan::Stream { cached_tokens, .. } = &mut plan {
        *cached_tokens = draw.cached_tokens;
    }
    plan
}

/// Eight plain content tokens from `first_token_ms`, with a cold-start mark.
fn stream_of_tokens_at(first_token_ms: u64, cold: Option<bool>) -> ReplyPlan {
    stream_of_tokens(first_token_ms, Framing::PLAIN, cold)
}

fn stream_of_tokens(first_token_ms: u64, framing: Framing, cold: Option<bool>) -> ReplyPlan {
    ReplyPlan::Stream {
        beats: token_beats(first_token_ms),
        ending: Ending::Complete,
        framing,
        first_token_at_ms: Some(first_token_ms),
        cold,
        cached_tokens: None,
    }
}

/// Start, eight content tokens from `first_token_ms`, then the finish.
fn token_beats(first_token_ms: u64) -> Vec<TimedBeat> {
    let mut beats = vec![TimedBeat::new(first_token_ms, Beat::Start)];
    beats.extend(content_beats(first_token_ms, CONTENT_TOKENS.len()));
    beats.push(TimedBeat::new(last_token_ms(first_token_ms), Beat::Finish));
    beats
}

fn content_beats(first_token_ms: u64, count: usize) -> impl Iterator<Item = TimedBeat> {
    (0..count).map(move |index| {
        TimedBeat::new(
            first_token_ms + index as u64 * TOKEN_INTERVAL_MS,
            Beat::Content(index),
        )
    })
}

fn last_token_ms(first_token_ms: u64) -> u64 {
    first_token_ms + (CONTENT_TOKENS.len() as u64 - 1) * TOKEN_INTERVAL_MS
}

/// One `bimodal` draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BimodalDraw {
    /// Delay to the first content token, ms: 110–130 warm, 2500–3500 cold.
    pub first_token_ms: u64,
    /// Whether this request is a cold start.
    pub cold: bool,
}

/// The `bimodal` delay of the `request_index`-th request: a pure function of the seed and the
/// index, so a run is reproducible and a test can predict every draw.
pub fn bimodal_draw(seed: u64, request_index: u64, cold_share_percent: u64) -> BimodalDraw {
    let first = splitmix64(seed ^ splitmix64(request_index));
    let second = splitmix64(first);
    // 10 000 buckets resolve shares to 0.01 %; the share is whole percent.
    let cold = first % 10_000 < cold_share_percent * 100;
    let first_token_ms = if cold {
        2_500 + second % 1_001
    } else {
        110 + second % 21
    };
    BimodalDraw {
        first_token_ms,
        cold,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_content_ms(plan: &ReplyPlan) -> Option<u64> {
        match plan {
            ReplyPlan::Stream { beats, .. } => beats
                .iter()
                .find(|timed| matches!(timed.beat, Beat::Content(_)))
                .map(|timed| timed.at_ms),
            _ => None,
        }
    }

    #[test]
    fn parses_names_and_overrides() {
        let fixed = Script::parse("fixed").unwrap();
        assert_eq!(fixed.kind, ScriptKind::Fixed);
        assert_eq!(fixed.parameter, 150);
        assert_eq!(fixed.canonical_name(), "fixed");
        let fast = Script::parse("fixed@40").unwrap();
        assert_eq!(fast.parameter, 40);
        assert_eq!(fast.canonical_name(), "fixed@40");
        assert_eq!(
            Script::parse("reasoning-or").unwrap().kind,
            ScriptKind::ReasoningOr
        );
        assert_eq!(Script::parse("bimodal@20").unwrap().parameter, 20);
    }

    #[test]
    fn every_listed_name_parses_back() {
        for kind in ScriptKind::ALL {
            assert_eq!(Script::parse(kind.name()).unwrap().kind, kind);
        }
    }

    #[test]
    fn unknown_and_bad_names_explain_themselves() {
        let unknown = Script::parse("gpt-4o").unwrap_err();
        let message = unknown.to_string();
        assert!(message.starts_with("unknown mock script 'gpt-4o'; known scripts: fixed, "));
        assert!(message.contains("not-sse"));
        assert!(matches!(
            Script::parse("fixed@soon"),
            Err(ScriptError::BadParameter(_))
        ));
        assert!(matches!(
            Script::parse("bimodal@101"),
            Err(ScriptError::BadParameter(_))
        ));
        assert!(matches!(
            Script::parse("degraded@101"),
            Err(ScriptError::BadParameter(_))
        ));
    }

    #[test]
    fn fidelity_scripts_answer_probes_and_reply_to_anything_else_like_fixed() {
        let faithful = Script::parse("faithful").unwrap();
        let degraded = Script::parse("degraded").unwrap();
        assert_eq!((faithful.parameter, degraded.parameter), (150, 30));
        let fixed = Script::parse("fixed").unwrap().plan(1, 0);
        for script in [faithful, degraded] {
            let latency = script.reply_to(1, 0, Some("Say hello."));
            assert_eq!(latency.plan, fixed);
            assert_eq!(latency.answer, None);
        }
        assert_eq!(faithful.reply_to(1, 0, None).prompt_tokens, PROMPT_TOKENS);
        assert_eq!(
            degraded.reply_to(1, 0, None).prompt_tokens,
            PROMPT_TOKENS + fidelity::DEGRADED_EXTRA_PROMPT_TOKENS
        );

        let probe = fidelity::SUITE.probe("tool-currency-auto").unwrap();
        let prompt = probe.prompt();
        let reply = faithful.reply_to(1, 0, Some(&prompt));
        let answer = reply.answer.clone().unwrap();
        assert_eq!(answer.probe_id, "tool-currency-auto");
        assert_eq!(reply.prompt_tokens, fidelity::probe_prompt_tokens(&prompt));
        let ReplyPlan::Stream {
            beats,
            first_token_at_ms,
            ..
        } = &reply.plan
        else {
            panic!("not a stream: {reply:?}");
        };
        assert_eq!(*first_token_at_ms, Some(150));
        assert_eq!(beats[1], TimedBeat::new(150, Beat::ToolCall));
        let fragments = answer.call().unwrap().fragments.len();
        assert_eq!(
            beats
                .iter()
                .filter(|t| matches!(t.beat, Beat::ToolArguments(_)))
                .count(),
            fragments
        );
        assert_eq!(beats.last().unwrap().beat, Beat::Finish);
        // The same request gets the same reply, whatever the counter and seed.
        assert_eq!(faithful.reply_to(9, 7, Some(&prompt)), reply);
        assert_eq!(
            degraded.reply_to(1, 0, Some(&prompt)).prompt_tokens,
            reply.prompt_tokens + fidelity::DEGRADED_EXTRA_PROMPT_TOKENS
        );
    }

    #[test]
    fn fixed_sends_eight_tokens_twenty_ms_apart() {
        let plan = Script::parse("fixed@40").unwrap().plan(1, 0);
        let ReplyPlan::Stream { beats, ending, .. } = &plan else {
            panic!("not a stream: {plan:?}");
        };
        let content: Vec<u64> = beats
            .iter()
            .filter(|timed| matches!(timed.beat, Beat::Content(_)))
            .map(|timed| timed.at_ms)
            .collect();
        assert_eq!(content, vec![40, 60, 80, 100, 120, 140, 160, 180]);
        assert_eq!(*ending, Ending::Complete);
        assert_eq!(beats.last().unwrap().beat, Beat::Finish);
    }

    #[test]
    fn reasoning_comes_before_content() {
        let plan = Script::parse("reasoning").unwrap().plan(1, 0);
        let ReplyPlan::Stream { beats, .. } = &plan else {
            panic!("not a stream");
        };
        let reasoning: Vec<u64> = beats
            .iter()
            .filter(|timed| matches!(timed.beat, Beat::Reasoning(_)))
            .map(|timed| timed.at_ms)
            .collect();
        assert_eq!(reasoning, vec![60, 90, 120]);
        assert_eq!(first_content_ms(&plan), Some(250));
    }

    #[test]
    fn keepalive_comments_every_fifty_ms_until_the_first_token() {
        let plan = Script::parse("keepalive").unwrap().plan(1, 0);
        let ReplyPlan::Stream { beats, .. } = &plan else {
            panic!("not a stream");
        };
        let comments: Vec<u64> = beats
            .iter()
            .filter(|timed| timed.beat == Beat::KeepAlive)
            .map(|timed| timed.at_ms)
            .collect();
        assert_eq!(comments, vec![0, 50, 100, 150, 200, 250]);
        assert_eq!(first_content_ms(&plan), Some(300));
    }

    #[test]
    fn cut_sends_two_tokens_then_cuts() {
        let plan = Script::parse("cut").unwrap().plan(1, 0);
        let ReplyPlan::Stream { beats, ending, .. } = &plan else {
            panic!("not a stream");
        };
        let count = beats
            .iter()
            .filter(|timed| matches!(timed.beat, Beat::Content(_)))
            .count();
        assert_eq!(count, 2);
        assert_eq!(*ending, Ending::Cut { at_ms: 190 });
    }

    #[test]
    fn beats_are_in_time_order_for_every_script() {
        for kind in ScriptKind::ALL {
            if let ReplyPlan::Stream { beats, .. } = (Script {
                kind,
                parameter: kind.default_parameter(),
                cold_start_ms: None,
            })
            .plan(7, 3)
            {
                assert!(
                    beats.windows(2).all(|pair| pair[0].at_ms <= pair[1].at_ms),
                    "{kind:?}"
                );
            }
        }
    }

    #[test]
    fn bimodal_is_reproducible_and_near_its_share() {
        let draws: Vec<BimodalDraw> = (0..2_000)
            .map(|index| bimodal_draw(42, index, 10))
            .collect();
        let again: Vec<BimodalDraw> = (0..2_000)
            .map(|index| bimodal_draw(42, index, 10))
            .collect();
        assert_eq!(draws, again);
        let cold = draws.iter().filter(|draw| draw.cold).count();
        assert!((150..=250).contains(&cold), "cold starts: {cold} of 2000");
        for draw in &draws {
            if draw.cold {
                assert!((2_500..=3_500).contains(&draw.first_token_ms));
            } else {
                assert!((110..=130).contains(&draw.first_token_ms));
            }
        }
        // Another seed gives another sequence.
        let other: Vec<BimodalDraw> = (0..2_000)
            .map(|index| bimodal_draw(43, index, 10))
            .collect();
        assert_ne!(draws, other);
    }

    #[test]
    fn bimodal_share_extremes() {
        assert!((0..500).all(|index| !bimodal_draw(1, index, 0).cold));
        assert!((0..500).all(|index| bimodal_draw(1, index, 100).cold));
    }

    #[test]
    fn prefill_nousage_draws_as_prefill_and_alone_reports_no_usage() {
        let plain = Script::parse("prefill@30000").unwrap();
        let silent = Script::parse("prefill-nousage@30000").unwrap();
        assert_eq!(silent.canonical_name(), "prefill-nousage@30000");
        for index in 0..50 {
            assert_eq!(
                silent.plan_prefill(7, index, 8_192, Earlier::default()),
                plain.plan_prefill(7, index, 8_192, Earlier::default()),
            );
        }
        assert!(!silent.reports_usage());
        assert!(
            ScriptKind::ALL
                .into_iter()
                .filter(|&kind| kind != ScriptKind::PrefillNoUsage)
                .all(|kind| Script::parse(kind.name()).unwrap().reports_usage())
        );
    }

    #[test]
    fn scale_to_zero_takes_an_idle_threshold_and_a_cold_start() {
        let default = Script::parse("scale-to-zero").unwrap();
        assert_eq!(default.parameter, 60);
        assert_eq!(default.cold_start_ms, Some(DEFAULT_COLD_START_MS));
        assert_eq!(default.canonical_name(), "scale-to-zero");
        let short = Script::parse("scale-to-zero@3/m").unwrap();
        assert_eq!(
            short.scale_down_after(),
            Some(std::time::Duration::from_secs(3))
        );
        assert_eq!(short.canonical_name(), "scale-to-zero@3");
        let both = Script::parse("scale-to-zero@3@1500/m").unwrap();
        assert_eq!((both.parameter, both.cold_start_ms), (3, Some(1_500)));
        assert_eq!(both.canonical_name(), "scale-to-zero@3@1500");
        assert_eq!(
            Script::parse(&both.canonical_name()).unwrap(),
            both,
            "the canonical name parses back"
        );
        // A second parameter only where a script takes one; numbers in range.
        for bad in [
            "fixed@40@2",
            "scale-to-zero@86401",
            "scale-to-zero@3@",
            "scale-to-zero@3@x",
            "scale-to-zero@3@3600001",
            "scale-to-zero@@1500",
        ] {
            assert!(
                matches!(Script::parse(bad), Err(ScriptError::BadParameter(_))),
                "{bad}"
            );
        }
        assert_eq!(Script::parse("fixed@40").unwrap().cold_start_ms, None);
        assert_eq!(Script::parse("fixed").unwrap().scale_down_after(), None);

        // Warm as bimodal's warm replies; cold adds the cold start, and says so.
        for index in 0..50 {
            let warm = both.plan_scale_to_zero(7, index, false);
            let cold = both.plan_scale_to_zero(7, index, true);
            let warm_ms = first_content_ms(&warm).unwrap();
            assert!((110..=130).contains(&warm_ms), "{warm_ms}");
            assert_eq!(first_content_ms(&cold), Some(warm_ms + 1_500));
            assert!(matches!(
                warm,
                ReplyPlan::Stream {
                    cold: Some(false),
                    ..
                }
            ));
            assert!(matches!(
                cold,
                ReplyPlan::Stream {
                    cold: Some(true),
                    ..
                }
            ));
            assert_eq!(cold.last_beat_ms(), warm_ms + 1_500 + 7 * TOKEN_INTERVAL_MS);
        }
        // Without the provider's memory the reply is warm.
        assert_eq!(both.plan(7, 3), both.plan_scale_to_zero(7, 3, false));
    }

    #[test]
    fn http_scripts_plan_their_status() {
        assert_eq!(
            Script::parse("http-429").unwrap().plan(1, 0),
            ReplyPlan::HttpError {
                status: 429,
                delay_ms: 0
            }
        );
    }
}
