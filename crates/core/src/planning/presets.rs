//! Provider presets: the base URL, wire protocol and key habits of each
//! provider the page knows, and what is known about calling it from a browser.
//!
//! CORS decides whether a provider can be measured from this page at all: a
//! request with an `Authorization` header is preflighted, and a provider that
//! does not answer the preflight is unreachable from any web page, whatever the
//! key. The notes below say what is known (in English and Simplified Chinese)
//! and what to do when it is blocked. They describe the providers as publicly
//! reported; **Test connection** is the final word for any one setup.

use crate::base::lang::Lang;
use crate::base::origin::Origin;
use crate::planning::plan::{Plan, PlanError, Protocol};

/// Whether a provider answers browser (CORS) requests from any origin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cors {
    /// Answers cross-origin requests; the page can call it directly.
    Allowed,
    /// Known not to answer them; a proxy is needed.
    Blocked,
    /// A server the user runs, whose allowed origins the user sets.
    Configurable,
    /// Not known; try Test connection.
    Unknown,
}

/// One provider the page knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// Stable id, stored in plans as `Target::provider` (`"openai"`, `"ollama"`).
    pub id: &'static str,
    /// Display name, in English.
    pub name: &'static str,
    /// The same, as the Chinese page shows it (a brand stays as it is;
    /// "(local)" and the like are said in Chinese).
    pub name_zh: &'static str,
    /// Wire protocol.
    pub protocol: Protocol,
    /// Default base URL, without a trailing slash; empty for "Custom".
    pub base_url: &'static str,
    /// A key is required.
    pub needs_key: bool,
    /// What the key looks like or where it comes from; never a real key.
    pub key_hint: &'static str,
    /// The provider lists its models (`GET {base}/models` or the protocol's equivalent).
    pub lists_models: bool,
    /// Browser access, as known.
    pub cors: Cors,
    /// What is known about browser access and what to do, in English.
    pub cors_note_en: &'static str,
    /// The same, in Simplified Chinese.
    pub cors_note_zh: &'static str,
    /// Where to find keys and model names.
    pub docs_hint: &'static str,
}

impl Preset {
    /// The context window of `model` at this provider, input tokens, when
    /// it is known for certain ([`crate::planning::context_window`]).
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn context_window(&self, model: &str) -> Option<u32> {
        crate::planning::context_window::context_window(self.id, model)
    }

    /// The name the page shows in `lang`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn name_in(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.name,
            Lang::ZhCn => self.name_zh,
        }
    }

    /// The label a target of this preset starts with: "{name} · {model}",
    /// as the page's form names a row when its preset is picked and as the
    /// runner's `--target` names one.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn label_for(&self, model: &str) -> String {
        format!("{} · {}", self.name, model)
    }

    /// The label of a target of this preset for `model` at `base_url`: the
    /// one rule the page's form, the runner's `--target` and a plan file
    /// without a label share. "{name} · {model}", the name alone while the
    /// model is empty, and " · {host}" after it when the preset is pointed
    /// at another host than its own service's ("OpenAI · gpt-4o-mini ·
    /// 127.0.0.1:8787"), so two rows never read as the same service.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn label_at(&self, model: &str, base_url: &str) -> String {
        let model = model.trim();
        let named = if model.is_empty() {
            self.name.to_owned()
        } else {
            self.label_for(model)
        };
        let base_url = base_url.trim();
        let elsewhere = self.id != "custom"
            && self.protocol != Protocol::Demo
            && !self.base_url.is_empty()
            && !base_url.is_empty()
            && place(base_url) != place(self.base_url);
        if elsewhere {
            format!("{named} · {}", place(base_url))
        } else {
            named
        }
    }

    /// The preset points at this machine (localhost), not a hosted service.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn is_local(&self) -> bool {
        self.base_url.starts_with("http://localhost:")
            || self.base_url.starts_with("http://127.0.0.1:")
    }

    /// The origins this preset's key belongs to: its base URL's origin and
    /// any other host the provider documents for the same keys (see
    /// [`ALSO_OWNS`]). Empty for "Custom" and the demo, which own no host.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn origins(&self) -> Vec<Origin> {
        let others = ALSO_OWNS
            .iter()
            .filter(|(id, _)| *id == self.id)
            .map(|(_, url)| *url);
        std::iter::once(self.base_url)
            .chain(others)
            .filter_map(Origin::parse)
            .collect()
    }

    /// Whether `origin` is one of this preset's own hosts, where a key given
    /// for the preset (`FIRSTTOKEN_KEY_<PROVIDER>`, a key remembered for it)
    /// may go.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn owns(&self, origin: &Origin) -> bool {
        self.origins().contains(origin)
    }
}

/// Hosts a preset owns besides its base URL's, as `(preset id, origin)`:
/// only hosts the provider itself documents for the same account's keys.
/// A host added here receives that provider's key, so each needs its source.
pub const ALSO_OWNS: &[(&str, &str)] = &[
    // SiliconFlow's international accounts use api.siliconflow.com (its docs
    // hint above); the preset defaults to the .cn host.
    ("siliconflow", "https://api.siliconflow.com"),
];

const UNKNOWN_EN: &str =
    "unknown — try Test connection; if blocked, use a proxy base URL you control";
const UNKNOWN_ZH: &str =
    "未知 —— 请先点「测试连接」；若被浏览器拦截，请改用你自己控制的代理地址作为接口地址";

/// Both DashScope regions: no CORS statement, and browser apps tend to proxy them.
const DASHSCOPE_EN: &str = "unknown (several browser apps route it through a proxy) — try Test \
                            connection; if blocked, use a proxy base URL you control";
const DASHSCOPE_ZH: &str = "未知（不少网页应用通过代理转发调用）—— 请先点「测试连接」；若被拦截，\
                            请改用你自己控制的代理地址作为接口地址";

/// Every preset, in the order the page offers them: hosted providers, then
/// servers on this machine, then Custom and Demo.
pub static PRESETS: &[Preset] = &[
    Preset {
        id: "digitalocean",
        name: "DigitalOcean Serverless Inference",
        name_zh: "DigitalOcean Serverless Inference",
        protocol: Protocol::OpenAi,
        base_url: "https://inference.do-ai.run/v1",
        needs_key: true,
        key_hint: "model access key (Control Panel → Inference → Model access keys)",
        lists_models: true,
        cors: Cors::Unknown,
        cors_note_en: UNKNOWN_EN,
        cors_note_zh: UNKNOWN_ZH,
        docs_hint: "docs.digitalocean.com → Serverless Inference; model ids from GET /v1/models",
    },
    Preset {
        id: "openai",
        name: "OpenAI",
        name_zh: "OpenAI",
        protocol: Protocol::OpenAi,
        base_url: "https://api.openai.com/v1",
        needs_key: true,
        key_hint: "starts with sk-",
        lists_models: true,
        cors: Cors::Allowed,
        cors_note_en: "answers browser requests from any origin",
        cors_note_zh: "允许浏览器从任意来源直接调用",
        docs_hint: "platform.openai.com → API keys; model names from GET /v1/models",
    },
    Preset {
        id: "anthropic",
        name: "Anthropic",
        name_zh: "Anthropic",
        protocol: Protocol::Anthropic,
        base_url: "https://api.anthropic.com",
        needs_key: true,
        key_hint: "starts with sk-ant-",
        lists_models: true,
        cors: Cors::Allowed,
        cors_note_en: "allowed when the request carries anthropic-dangerous-direct-browser-access: \
                       true, which this page sends; without it the API answers 401",
        cors_note_zh: "请求需带 anthropic-dangerous-direct-browser-access: true 头（本页会自动发送），\
                       否则返回 401",
        docs_hint: "console.anthropic.com → API keys; model ids from GET /v1/models",
    },
    Preset {
        id: "gemini",
        name: "Google Gemini",
        name_zh: "Google Gemini",
        protocol: Protocol::Gemini,
        base_url: "https://generativelanguage.googleapis.com",
        needs_key: true,
        key_hint: "starts with AIza; sent as x-goog-api-key, never in the URL",
        lists_models: true,
        cors: Cors::Unknown,
        cors_note_en: "its OpenAI-compatible path is reported blocked for browsers; this preset \
                       uses the native streamGenerateContent API instead — try Test connection; \
                       if blocked, use a proxy base URL you control. A key restricted to \
                       certain websites must allow this page's address",
        cors_note_zh: "其 OpenAI 兼容接口据报会被浏览器跨域拦截；本预设使用原生 \
                       streamGenerateContent 接口 —— 请先点「测试连接」；若被拦截，请改用你自己\
                       控制的代理地址。若密钥限制了来源网站，需把本页地址加入允许列表",
        docs_hint: "aistudio.google.com → Get API key; model names from GET /v1beta/models",
    },
    Preset {
        id: "openrouter",
        name: "OpenRouter",
        name_zh: "OpenRouter",
        protocol: Protocol::OpenAi,
        base_url: "https://openrouter.ai/api/v1",
        needs_key: true,
        key_hint: "starts with sk-or-",
        lists_models: true,
        cors: Cors::Allowed,
        cors_note_en: "answers browser requests; only standard headers are allowed",
        cors_note_zh: "允许浏览器直接调用（仅限常规请求头）",
        docs_hint: "openrouter.ai/keys; model ids look like vendor/model",
    },
    Preset {
        id: "together",
        name: "Together AI",
        name_zh: "Together AI",
        protocol: Protocol::OpenAi,
        base_url: "https://api.together.xyz/v1",
        needs_key: true,
        key_hint: "API key from api.together.ai → Settings → API keys",
        lists_models: true,
        cors: Cors::Allowed,
        cors_note_en: "reported to answer browser requests",
        cors_note_zh: "据报告可被浏览器直接调用",
        docs_hint: "docs.together.ai; model ids look like vendor/model",
    },
    Preset {
        id: "fireworks",
        name: "Fireworks AI",
        name_zh: "Fireworks AI",
        protocol: Protocol::OpenAi,
        base_url: "https://api.fireworks.ai/inference/v1",
        needs_key: true,
        key_hint: "API key from fireworks.ai → Settings → API keys",
        lists_models: true,
        cors: Cors::Unknown,
        cors_note_en: UNKNOWN_EN,
        cors_note_zh: UNKNOWN_ZH,
        docs_hint: "docs.fireworks.ai; model ids look like accounts/fireworks/models/…",
    },
    Preset {
        id: "groq",
        name: "Groq",
        name_zh: "Groq",
        protocol: Protocol::OpenAi,
        base_url: "https://api.groq.com/openai/v1",
        needs_key: true,
        key_hint: "starts with gsk_",
        lists_models: true,
        cors: Cors::Allowed,
        cors_note_en: "reported to answer browser requests",
        cors_note_zh: "据报告可被浏览器直接调用",
        docs_hint: "console.groq.com/keys; model names from GET /openai/v1/models",
    },
    Preset {
        id: "deepseek",
        name: "DeepSeek",
        name_zh: "DeepSeek",
        protocol: Protocol::OpenAi,
        base_url: "https://api.deepseek.com",
        needs_key: true,
        key_hint: "starts with sk-",
        lists_models: true,
        cors: Cors::Unknown,
        cors_note_en: "reports disagree (some browser apps work, others were blocked after a \
                       policy change) — try Test connection; if blocked, use a proxy base URL \
                       you control",
        cors_note_zh: "各方报告不一（部分网页应用可用，也有在策略调整后被拦截的）—— 请先点「测试连接」；\
                       若被拦截，请改用你自己控制的代理地址作为接口地址",
        docs_hint: "platform.deepseek.com → API keys; api.deepseek.com/v1 also works",
    },
    Preset {
        id: "moonshot-ai",
        name: "Moonshot / Kimi (international, .ai)",
        name_zh: "Moonshot / Kimi（国际版，.ai）",
        protocol: Protocol::OpenAi,
        base_url: "https://api.moonshot.ai/v1",
        needs_key: true,
        key_hint: "starts with sk-; keys of the .ai platform only work on .ai",
        lists_models: true,
        cors: Cors::Unknown,
        cors_note_en: UNKNOWN_EN,
        cors_note_zh: UNKNOWN_ZH,
        docs_hint: "platform.moonshot.ai → API keys",
    },
    Preset {
        id: "moonshot-cn",
        name: "Moonshot / Kimi (China, .cn)",
        name_zh: "Moonshot / Kimi（中国，.cn）",
        protocol: Protocol::OpenAi,
        base_url: "https://api.moonshot.cn/v1",
        needs_key: true,
        key_hint: "starts with sk-; keys of the .cn platform only work on .cn",
        lists_models: true,
        cors: Cors::Unknown,
        cors_note_en: UNKNOWN_EN,
        cors_note_zh: UNKNOWN_ZH,
        docs_hint: "platform.moonshot.cn → API Key 管理",
    },
    Preset {
        id: "mistral",
        name: "Mistral AI",
        name_zh: "Mistral AI",
        protocol: Protocol::OpenAi,
        base_url: "https://api.mistral.ai/v1",
        needs_key: true,
        key_hint: "API key from console.mistral.ai → API keys",
        lists_models: true,
        cors: Cors::Allowed,
        cors_note_en: "answers browser requests with standard headers only (extra SDK headers \
                       are refused in the preflight)",
        cors_note_zh: "允许浏览器调用，但仅限常规请求头（额外的 SDK 请求头会在预检时被拒绝）",
        docs_hint: "docs.mistral.ai; model names from GET /v1/models",
    },
    Preset {
        id: "deepinfra",
        name: "DeepInfra",
        name_zh: "DeepInfra",
        protocol: Protocol::OpenAi,
        base_url: "https://api.deepinfra.com/v1/openai",
        needs_key: true,
        key_hint: "API token from deepinfra.com → Dashboard → API keys",
        lists_models: true,
        cors: Cors::Unknown,
        cors_note_en: UNKNOWN_EN,
        cors_note_zh: UNKNOWN_ZH,
        docs_hint: "deepinfra.com/docs; model ids look like vendor/model",
    },
    Preset {
        id: "cerebras",
        name: "Cerebras",
        name_zh: "Cerebras",
        protocol: Protocol::OpenAi,
        base_url: "https://api.cerebras.ai/v1",
        needs_key: true,
        key_hint: "starts with csk-",
        lists_models: true,
        cors: Cors::Unknown,
        cors_note_en: UNKNOWN_EN,
        cors_note_zh: UNKNOWN_ZH,
        docs_hint: "cloud.cerebras.ai → API keys; inference-docs.cerebras.ai",
    },
    Preset {
        id: "dashscope-intl",
        name: "Alibaba Cloud Model Studio (international)",
        name_zh: "阿里云百炼 Model Studio（国际版）",
        protocol: Protocol::OpenAi,
        base_url: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
        needs_key: true,
        key_hint: "starts with sk-; a key of the international region",
        lists_models: true,
        cors: Cors::Unknown,
        cors_note_en: DASHSCOPE_EN,
        cors_note_zh: DASHSCOPE_ZH,
        docs_hint: "Model Studio console → API keys; OpenAI-compatible mode",
    },
    Preset {
        id: "dashscope-cn",
        name: "阿里云百炼 DashScope (China)",
        name_zh: "阿里云百炼 DashScope（中国）",
        protocol: Protocol::OpenAi,
        base_url: "https://dashscope.aliyuncs.com/compatible-mode/v1",
        needs_key: true,
        key_hint: "starts with sk-; a key of the Beijing region (DASHSCOPE_API_KEY)",
        lists_models: true,
        cors: Cors::Unknown,
        cors_note_en: DASHSCOPE_EN,
        cors_note_zh: DASHSCOPE_ZH,
        docs_hint: "bailian.console.aliyun.com → API-KEY; OpenAI 兼容模式",
    },
    Preset {
        id: "zhipu",
        name: "智谱 BigModel (Zhipu)",
        name_zh: "智谱 BigModel",
        protocol: Protocol::OpenAi,
        base_url: "https://open.bigmodel.cn/api/paas/v4",
        needs_key: true,
        key_hint: "API key from open.bigmodel.cn → API keys (id.secret form)",
        lists_models: false,
        cors: Cors::Unknown,
        cors_note_en: UNKNOWN_EN,
        cors_note_zh: UNKNOWN_ZH,
        docs_hint: "open.bigmodel.cn → 开发文档; model names such as glm-…",
    },
    Preset {
        id: "siliconflow",
        name: "SiliconFlow 硅基流动",
        name_zh: "SiliconFlow 硅基流动",
        protocol: Protocol::OpenAi,
        base_url: "https://api.siliconflow.cn/v1",
        needs_key: true,
        key_hint: "starts with sk-",
        lists_models: true,
        cors: Cors::Unknown,
        cors_note_en: UNKNOWN_EN,
        cors_note_zh: UNKNOWN_ZH,
        docs_hint: "cloud.siliconflow.cn → API 密钥; international accounts use api.siliconflow.com/v1",
    },
    Preset {
        id: "volcengine",
        name: "Volcengine Ark 火山方舟",
        name_zh: "Volcengine Ark 火山方舟",
        protocol: Protocol::OpenAi,
        base_url: "https://ark.cn-beijing.volces.com/api/v3",
        needs_key: true,
        key_hint: "API key from the Ark console → API Key 管理",
        lists_models: false,
        cors: Cors::Unknown,
        cors_note_en: UNKNOWN_EN,
        cors_note_zh: UNKNOWN_ZH,
        docs_hint: "console.volcengine.com/ark; the model is a model id or an endpoint id (ep-…)",
    },
    Preset {
        id: "vllm",
        name: "vLLM (local)",
        name_zh: "vLLM（本地）",
        protocol: Protocol::OpenAi,
        base_url: "http://localhost:8000/v1",
        needs_key: false,
        key_hint: "none, unless the server was started with --api-key",
        lists_models: true,
        cors: Cors::Configurable,
        cors_note_en: "allows every origin by default; if the server was started with \
                       --allowed-origins, add this page's origin to it",
        cors_note_zh: "默认允许所有来源；若启动时指定了 --allowed-origins，请把本页的来源加进去",
        docs_hint: "vllm serve <model>; the model name is the one it serves (GET /v1/models)",
    },
    Preset {
        id: "sglang",
        name: "SGLang (local)",
        name_zh: "SGLang（本地）",
        protocol: Protocol::OpenAi,
        base_url: "http://localhost:30000/v1",
        needs_key: false,
        key_hint: "none, unless the server was started with --api-key",
        lists_models: true,
        cors: Cors::Allowed,
        cors_note_en: "the OpenAI-compatible server allows every origin",
        cors_note_zh: "其 OpenAI 兼容服务默认允许所有来源",
        docs_hint: "python -m sglang.launch_server --model-path <model> (port 30000)",
    },
    Preset {
        id: "llamacpp",
        name: "llama.cpp server (local)",
        name_zh: "llama.cpp server（本地）",
        protocol: Protocol::OpenAi,
        base_url: "http://localhost:8080/v1",
        needs_key: false,
        key_hint: "none, unless the server was started with --api-key",
        lists_models: true,
        cors: Cors::Allowed,
        cors_note_en: "llama-server allows browser requests by default; newer builds can narrow \
                       this with --cors-origins — if set, include this page's origin",
        cors_note_zh: "llama-server 默认允许浏览器跨域调用；新版本可用 --cors-origins 收紧，\
                       如已设置，请包含本页的来源",
        docs_hint: "llama-server -m <model.gguf> (port 8080)",
    },
    Preset {
        id: "ollama",
        name: "Ollama (local)",
        name_zh: "Ollama（本地）",
        protocol: Protocol::OpenAi,
        base_url: "http://localhost:11434/v1",
        needs_key: false,
        key_hint: "none",
        lists_models: true,
        cors: Cors::Configurable,
        cors_note_en: "answers only local origins by default (403 otherwise); set OLLAMA_ORIGINS \
                       to this page's origin (e.g. OLLAMA_ORIGINS=https://you.github.io) and \
                       restart Ollama",
        cors_note_zh: "默认只允许本机来源（否则返回 403）；请把环境变量 OLLAMA_ORIGINS 设为本页的来源\
                       （如 OLLAMA_ORIGINS=https://you.github.io）后重启 Ollama",
        docs_hint: "ollama pull <model>; the model name as in `ollama list`",
    },
    Preset {
        id: "lmstudio",
        name: "LM Studio (local)",
        name_zh: "LM Studio（本地）",
        protocol: Protocol::OpenAi,
        base_url: "http://localhost:1234/v1",
        needs_key: false,
        key_hint: "none, unless authentication is turned on",
        lists_models: true,
        cors: Cors::Configurable,
        cors_note_en: "turn on \"Enable CORS\" in the Developer tab's server settings (or start \
                       it with lms server start --cors)",
        cors_note_zh: "在 Developer（开发者）页的服务器设置中打开 “Enable CORS”（或用 \
                       lms server start --cors 启动）",
        docs_hint: "Developer tab → Start server (port 1234); model ids from GET /v1/models",
    },
    Preset {
        id: "custom",
        name: "Custom OpenAI-compatible",
        name_zh: "自定义（OpenAI 兼容）",
        protocol: Protocol::OpenAi,
        base_url: "",
        needs_key: true,
        key_hint: "whatever the endpoint expects as a Bearer token",
        lists_models: true,
        cors: Cors::Unknown,
        cors_note_en: UNKNOWN_EN,
        cors_note_zh: UNKNOWN_ZH,
        docs_hint: "any server speaking POST {base}/chat/completions with stream: true",
    },
    Preset {
        id: "demo",
        name: "Demo (built in)",
        name_zh: "演示（内置）",
        protocol: Protocol::Demo,
        base_url: "demo://steady",
        needs_key: false,
        key_hint: "none: runs in the page",
        lists_models: false,
        cors: Cors::Allowed,
        cors_note_en: "runs inside the page; no network, nothing to allow",
        cors_note_zh: "在页面内运行，不联网，无需跨域设置",
        docs_hint: "simulated providers for trying the page without a key: demo://steady, demo://cold-tail (about 1 in 20 requests takes 5–7 s), demo://reasoning and demo://degraded (fast, but some answers differ); any model name",
    },
];

/// The preset with this id, if any.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn preset_by_id(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

/// Reads a plan file as a person may write it by hand: a target that names
/// a preset's `provider` and leaves out its `protocol`, `base_url` or
/// `label` gets the preset's, as the page's form and `--target` fill them
/// (the label as "DeepSeek · deepseek-chat"), instead of being refused for
/// members the preset already knows. A member that is written is kept.
/// Then the document is read as any plan is.
///
/// # Errors
/// Whatever [`Plan::from_json`] says of the completed document; a text
/// that is not a JSON object is read as given, so its errors name its own
/// lines.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn plan_from_json(text: &str) -> Result<Plan, PlanError> {
    use serde_json::Value;
    let Ok(Value::Object(mut members)) = serde_json::from_str::<Value>(text) else {
        return Plan::from_json(text);
    };
    let mut filled = false;
    if let Some(Value::Array(targets)) = members.get_mut("targets") {
        for target in targets.iter_mut() {
            let Value::Object(target) = target else {
                continue;
            };
            let Some(preset) = target
                .get("provider")
                .and_then(Value::as_str)
                .and_then(|id| preset_by_id(id.trim()))
            else {
                continue;
            };
            let mut fill = |name: &str, value: String| {
                if !target.contains_key(name) {
                    target.insert(name.to_owned(), Value::String(value));
                    filled = true;
                }
            };
            fill("protocol", preset.protocol.as_str().to_owned());
            if !preset.base_url.is_empty() {
                fill("base_url", preset.base_url.to_owned());
            }
            if let Some(model) = target.get("model").and_then(Value::as_str) {
                let base_url = target
                    .get("base_url")
                    .and_then(Value::as_str)
                    .unwrap_or(preset.base_url);
                let label = preset.label_at(model, base_url);
                if !target.contains_key("label") {
                    target.insert("label".to_owned(), Value::String(label));
                    filled = true;
                }
            }
        }
    }
    if filled {
        Plan::from_json(&Value::Object(members).to_string())
    } else {
        Plan::from_json(text)
    }
}

/// Where a base URL points, in a few characters: its host (and port),
/// or the demo's behaviour.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn place(base_url: &str) -> String {
    if let Some(behaviour) = base_url.strip_prefix("demo://") {
        return behaviour.to_owned();
    }
    Origin::parse(base_url).map_or_else(|| base_url.to_owned(), |origin| origin.host_port())
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_hand_written_target_naming_a_preset_is_filled_from_it() {
        let plan = plan_from_json(
            r#"{"firsttoken_plan": 1, "targets": [
                {"provider": "deepseek", "model": "deepseek-chat"},
                {"provider": "groq", "model": "llama-3.3-70b", "label": "Mine",
                 "base_url": "https://proxy.example.com/openai/v1"},
                {"provider": "openai", "model": "gpt-4o-mini",
                 "base_url": "http://127.0.0.1:8787/v1"}]}"#,
        )
        .unwrap();
        let deepseek = preset_by_id("deepseek").unwrap();
        let filled = &plan.targets[0];
        assert_eq!(filled.base_url, deepseek.base_url);
        assert_eq!(filled.protocol, deepseek.protocol);
        assert_eq!(filled.label, deepseek.label_for("deepseek-chat"));
        assert_eq!(filled.provider.as_deref(), Some("deepseek"));
        // Pointed at another host, the label says which (one rule with the
        // page's form and the runner's `--target`).
        assert_eq!(
            plan.targets[2].label,
            "OpenAI · gpt-4o-mini · 127.0.0.1:8787"
        );
        // What is written is kept.
        assert_eq!(plan.targets[1].label, "Mine");
        assert_eq!(
            plan.targets[1].base_url,
            "https://proxy.example.com/openai/v1"
        );
        // Nothing to fill from: the plan's own messages, lines and all.
        let Err(PlanError::Invalid(fields)) = plan_from_json(
            r#"{"firsttoken_plan": 1, "targets": [{"provider": "nope", "model": "m"}]}"#,
        ) else {
            panic!("an unknown provider fills nothing");
        };
        assert!(fields.iter().any(|f| f.field == "targets[0].base_url"));
        assert!(matches!(
            plan_from_json("{\n  \"firsttoken_plan\": 1,\n  oops\n}"),
            Err(PlanError::Json { line: 3, .. })
        ));
        // A custom target names no server: its base URL is still asked for.
        let Err(PlanError::Invalid(fields)) = plan_from_json(
            r#"{"firsttoken_plan": 1, "targets": [{"provider": "custom", "model": "m"}]}"#,
        ) else {
            panic!("custom has no base URL to give");
        };
        assert_eq!(
            fields.iter().map(|f| f.field.as_str()).collect::<Vec<_>>(),
            ["targets[0].base_url"]
        );
    }

    #[test]
    fn the_chinese_names_say_their_qualifiers_in_chinese() {
        for preset in PRESETS {
            let zh = preset.name_in(Lang::ZhCn);
            for english in [
                "local",
                "built in",
                "international",
                "China",
                "Custom",
                "compatible",
            ] {
                assert!(!zh.contains(english), "{zh}");
            }
            assert!(!zh.contains('('), "{zh}: Chinese brackets in Chinese");
            assert_eq!(preset.name_in(Lang::En), preset.name);
        }
        let demo = preset_by_id("demo").map(|p| p.name_in(Lang::ZhCn));
        assert_eq!(demo, Some("演示（内置）"));
    }

    use super::*;
    use crate::planning::plan::{check_base_url, normalise_base_url};
    use std::collections::BTreeSet;

    #[test]
    fn every_base_url_passes_plan_validation() {
        for preset in PRESETS.iter().filter(|p| p.id != "custom") {
            assert_eq!(
                check_base_url(preset.protocol, preset.base_url),
                Ok(()),
                "{}: {}",
                preset.id,
                preset.base_url
            );
            assert_eq!(
                normalise_base_url(preset.base_url),
                preset.base_url,
                "{}",
                preset.id
            );
        }
        assert_eq!(preset_by_id("custom").map(|p| p.base_url), Some(""));
    }

    #[test]
    fn ids_are_unique_and_found() {
        let ids: BTreeSet<&str> = PRESETS.iter().map(|p| p.id).collect();
        assert_eq!(ids.len(), PRESETS.len());
        for preset in PRESETS {
            assert_eq!(preset_by_id(preset.id), Some(preset));
        }
        assert_eq!(preset_by_id("nope"), None);
    }

    #[test]
    fn local_presets_need_no_key() {
        let local: Vec<&str> = PRESETS
            .iter()
            .filter(|p| p.is_local())
            .map(|p| p.id)
            .collect();
        assert_eq!(
            local,
            vec!["vllm", "sglang", "llamacpp", "ollama", "lmstudio"]
        );
        for preset in PRESETS
            .iter()
            .filter(|p| p.is_local() || p.protocol == Protocol::Demo)
        {
            assert!(!preset.needs_key, "{}", preset.id);
        }
        for preset in PRESETS
            .iter()
            .filter(|p| !p.is_local() && p.protocol != Protocol::Demo)
        {
            assert!(preset.needs_key, "{}", preset.id);
        }
    }

    #[test]
    fn the_required_endpoints_are_there() {
        let url = |id| preset_by_id(id).map(|p| p.base_url);
        assert_eq!(url("digitalocean"), Some("https://inference.do-ai.run/v1"));
        assert_eq!(url("anthropic"), Some("https://api.anthropic.com"));
        assert_eq!(
            url("gemini"),
            Some("https://generativelanguage.googleapis.com")
        );
        assert_eq!(url("moonshot-ai"), Some("https://api.moonshot.ai/v1"));
        assert_eq!(url("moonshot-cn"), Some("https://api.moonshot.cn/v1"));
        assert_eq!(url("zhipu"), Some("https://open.bigmodel.cn/api/paas/v4"));
        assert_eq!(
            url("volcengine"),
            Some("https://ark.cn-beijing.volces.com/api/v3")
        );
        assert_eq!(url("demo"), Some("demo://steady"));
        assert_eq!(
            preset_by_id("anthropic").map(|p| p.protocol),
            Some(Protocol::Anthropic)
        );
        assert_eq!(
            preset_by_id("gemini").map(|p| p.protocol),
            Some(Protocol::Gemini)
        );
    }

    #[test]
    fn every_note_is_written_in_both_languages() {
        for preset in PRESETS {
            assert!(
                !preset.cors_note_en.is_empty() && !preset.cors_note_zh.is_empty(),
                "{}",
                preset.id
            );
            let cjk = |c: &char| ('\u{4e00}'..='\u{9fff}').contains(c);
            assert!(
                !preset.cors_note_en.chars().any(|c| cjk(&c)),
                "{}: Chinese in English",
                preset.id
            );
            assert!(
                preset.cors_note_zh.chars().any(|c| cjk(&c)),
                "{}: no Chinese",
                preset.id
            );
            if preset.cors == Cors::Unknown {
                assert!(
                    preset.cors_note_en.contains("Test connection"),
                    "{}",
                    preset.id
                );
            }
        }
    }

    #[test]
    fn key_hints_hold_no_key() {
        for preset in PRESETS {
            // Hints name a prefix at most; nothing that looks like a real key.
            assert!(preset.key_hint.len() < 80, "{}", preset.id);
            assert!(
                !preset
                    .key_hint
                    .split_whitespace()
                    .any(|w| w.len() > 20 && !w.contains('.')),
                "{}",
                preset.id
            );
        }
    }
}
