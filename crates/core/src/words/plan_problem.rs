//! What is wrong with one field of a plan, as data ([`Problem`]), and its
//! words in each language. The plan's reader and rules, and the page's
//! form, say which problem a field has; this module says it, so the page in
//! Chinese explains a bad field in Chinese and the runner, in English, says
//! exactly what it always said.
//!
//! The module names nothing of the plan's own (limits arrive as data), so
//! the plan can name it without an import circle.

use crate::base::lang::Lang;

/// What is wrong with one field.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// The member's JSON has the wrong shape.
    Expected {
        /// What the member accepts.
        shape: Shape,
        /// What it holds.
        found: Found,
    },
    /// A required member is absent.
    Missing,
    /// A member named like a key (`api_key`, `token`, …): plans carry none.
    KeyLike,
    /// A member the plan version does not have, with the nearest known name.
    UnknownField {
        /// The known member within three edits, if any.
        nearest: Option<&'static str>,
    },
    /// No target at all.
    NoTargets,
    /// A target without a label.
    NoLabel,
    /// A target without a model.
    NoModel,
    /// A base URL the plan refuses.
    BaseUrl(UrlProblem),
    /// A price outside 0 to `max` dollars per million tokens.
    Price {
        /// The highest price accepted.
        max: f64,
    },
    /// `openrouter_provider` on a target that does not speak the openai protocol.
    OpenRouterNeedsOpenAi,
    /// `openrouter_provider` that is not a provider slug.
    OpenRouterSlug,
    /// A count below 1.
    AtLeastOne,
    /// More requests per target than one run takes.
    RequestsAtMost {
        /// The most accepted.
        max: u32,
    },
    /// A count above `max`.
    AtMost {
        /// The most accepted.
        max: u32,
    },
    /// A negative or non-finite number of seconds.
    NotNegativeSeconds,
    /// Jitter with no spacing to jitter.
    JitterNeedsSpacing,
    /// Jitter of half the spacing or more.
    JitterOverHalf {
        /// Half the spacing, s.
        half_s: f64,
        /// The spacing, s.
        spacing_s: f64,
        /// The spacing comes from `spread_hours`.
        from_spread: bool,
    },
    /// `spread_hours` of 0 or less.
    SpreadHours,
    /// A timeout of 0 or less.
    TimeoutPositive,
    /// An empty prompt.
    PromptEmpty,
    /// A prompt over the length limit.
    PromptLong {
        /// Its length in characters.
        chars: usize,
        /// The most accepted.
        max: usize,
    },
    /// A number outside `low`..=`high`.
    Between {
        /// The least accepted.
        low: f64,
        /// The most accepted.
        high: f64,
    },
    /// A peak hour above 24.
    PeakHour,
    /// A TTFT budget of 0 or less.
    TtftBudget,
    /// Prompt sizes empty, repeated, out of range or too many.
    PromptSizes {
        /// The largest size accepted, tokens.
        max: u32,
        /// The most sizes accepted.
        count: usize,
    },
    /// A time zone neither IANA nor an offset.
    PeakTz,
    /// Idle gaps empty, repeated, out of range or too many.
    IdleGaps {
        /// The longest gap accepted, s.
        max_s: f64,
        /// The most gaps accepted.
        count: usize,
    },
    /// Idle gaps with no warm-up: the first measured request would have no
    /// earlier request to be idle after.
    IdleGapsNeedWarmup,
    /// A fidelity reference that names no target.
    UnknownReference {
        /// The name given (at most 60 characters of it).
        label: String,
    },
    /// An objective that `--fail-on` would not take.
    Objective,
    /// The page's form: text that is not a whole number.
    NotWholeNumber {
        /// What was typed.
        text: String,
    },
    /// The page's form: text that is not a number.
    NotNumber {
        /// What was typed.
        text: String,
    },
}

/// What is wrong with a base URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UrlProblem {
    /// Nothing was entered.
    Empty,
    /// It contains whitespace.
    Spaces,
    /// The demo protocol with a URL that is not `demo://…`.
    DemoNeedsDemoUrl,
    /// `demo://…` with a protocol that is not the demo's.
    DemoUrlNeedsDemo,
    /// Neither `https://` nor `http://`.
    Scheme,
    /// No scheme at all (`localhost:8000/v1`): the host is there, its
    /// `http://` or `https://` is missing.
    NoScheme,
    /// A trailing slash.
    TrailingSlash,
    /// `user:pass@` in the authority.
    Credentials,
    /// An unclosed `[` in an IPv6 host.
    UnclosedBracket,
    /// No host name.
    NoHost,
    /// A port that is not 1–65535.
    BadPort(String),
    /// A `#…` fragment.
    Fragment,
    /// A key in the query (`key=…`).
    KeyInQuery,
    /// Any other query.
    Query,
}

/// What a member accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `u32`.
    WholeNumber,
    /// `f64`.
    Number,
    /// `Option<f64>`.
    NumberOrNull,
    /// `String`.
    Text,
    /// `Option<String>`.
    TextOrNull,
    /// A price object or null.
    Price,
    /// A fidelity object or null.
    Fidelity,
    /// One of the protocols.
    Protocol,
    /// A boolean.
    Bool,
    /// `[start, end]` hours.
    PeakHours,
    /// The targets list.
    TargetList,
    /// One target.
    TargetObject,
    /// `Option<u32>`.
    WholeNumberOrNull,
    /// `Option<Vec<u32>>`: the prompt sizes.
    TokenSizes,
    /// `Option<Vec<f64>>`: idle gaps in seconds.
    Seconds,
    /// `Vec<String>`: the objectives.
    Objectives,
}

/// What a member holds instead: short values as they are written, the rest
/// by kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// `null`, `true`, a number or a short quoted string, as written.
    Literal(String),
    /// A string of over 40 characters.
    LongString,
    /// A list.
    List,
    /// An object.
    Object,
}

impl Problem {
    /// The problem in `lang`, without the field's name.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn text(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.english(),
            Lang::ZhCn => self.chinese(),
        }
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn english(&self) -> String {
        match self {
            Self::Expected { shape, found } => format!(
                "expected {}, found {}",
                shape.text(Lang::En),
                found.text(Lang::En)
            ),
            Self::Missing => "is missing".to_owned(),
            Self::KeyLike => {
                "plans never carry keys; remove this field and enter the key in the page".to_owned()
            }
            Self::UnknownField { nearest: Some(k) } => {
                format!("unknown field; did you mean \"{k}\"?")
            }
            Self::UnknownField { nearest: None } => "unknown field in plan version 1".to_owned(),
            Self::NoTargets => "add at least one target to measure".to_owned(),
            Self::NoLabel => "give the target a name".to_owned(),
            Self::NoModel => "name the model as the provider spells it".to_owned(),
            Self::BaseUrl(url) => url.text(Lang::En),
            Self::Price { max } => {
                format!("must be a price from 0 to {max} US dollars per million tokens")
            }
            Self::OpenRouterNeedsOpenAi => {
                "applies only to an OpenRouter endpoint, which speaks the openai protocol"
                    .to_owned()
            }
            Self::OpenRouterSlug => "must be an OpenRouter provider slug such as \"deepinfra\" or \
                                     \"google-vertex/us\" (letters, digits, - _ . /, at most 64)"
                .to_owned(),
            Self::AtLeastOne => "must be at least 1".to_owned(),
            Self::RequestsAtMost { max } => {
                format!("must be at most {max}; split a longer study into runs")
            }
            Self::AtMost { max } => format!("must be at most {max}"),
            Self::NotNegativeSeconds => "must be 0 or more seconds".to_owned(),
            Self::JitterNeedsSpacing => "jitter needs a spacing: with spacing 0 requests go back \
                                         to back; set jitter to 0 or add a spacing"
                .to_owned(),
            Self::JitterOverHalf {
                half_s,
                spacing_s,
                from_spread,
            } => format!(
                "must stay under half the spacing ({half_s} s {} a spacing of {spacing_s} s), \
                 or consecutive sends could swap order",
                if *from_spread {
                    "the spread gives"
                } else {
                    "with"
                }
            ),
            Self::SpreadHours => "must be more than 0 hours, or null to use spacing_s".to_owned(),
            Self::TimeoutPositive => "must be more than 0 seconds".to_owned(),
            Self::PromptEmpty => "must not be empty".to_owned(),
            Self::PromptLong { chars, max } => {
                format!("is {chars} characters; keep it to {max} at most")
            }
            Self::Between { low, high } => format!("must be between {low} and {high}"),
            Self::PeakHour => "must be an hour from 0 to 24".to_owned(),
            Self::TtftBudget => {
                "must be more than 0 milliseconds, or null for no budget".to_owned()
            }
            Self::PromptSizes { max, count } => format!(
                "must list 1 to {count} different sizes, each from 1 to {max} tokens, or be null \
                 to send the plan's prompt alone"
            ),
            Self::PeakTz => "must be an IANA time zone name such as Asia/Shanghai, or a UTC \
                             offset such as +08:00, or null for the zone of whoever runs the plan"
                .to_owned(),
            Self::IdleGaps { max_s, count } => format!(
                "must list 1 to {count} different idle times, each more than 0 and at most \
                 {max_s} seconds, or be null to send at the plan's spacing"
            ),
            Self::IdleGapsNeedWarmup => "needs at least one warm-up request per target: an idle \
                                         gap counts from the target's previous request, and the \
                                         first measured request has none without a warm-up"
                .to_owned(),
            Self::UnknownReference { label } => format!(
                "names no target: \"{label}\" is not a target's label; use one of the labels, \
                 or null for no reference"
            ),
            Self::Objective => {
                "is not an objective as --fail-on takes it, such as p95>2s or error_rate>2%"
                    .to_owned()
            }
            Self::NotWholeNumber { text } => format!("{text:?} is not a whole number"),
            Self::NotNumber { text } => format!("{text:?} is not a number"),
        }
    }

    #[cfg_attr(target_arch = "wasm32", inline)]
    fn chinese(&self) -> String {
        match self {
            Self::Expected { shape, found } => format!(
                "应为{}，实际是{}",
                spaced(shape.text(Lang::ZhCn)),
                spaced(&found.text(Lang::ZhCn))
            ),
            Self::Missing => "缺失".to_owned(),
            Self::KeyLike => {
                "计划从不携带密钥：请删除这个字段，在页面的密钥栏中填写密钥".to_owned()
            }
            Self::UnknownField { nearest: Some(k) } => {
                format!("未知字段；是不是想写 \"{k}\"？")
            }
            Self::UnknownField { nearest: None } => "计划第 1 版中没有这个字段".to_owned(),
            Self::NoTargets => "请至少添加一个要测量的目标".to_owned(),
            Self::NoLabel => "请给这个目标起个名字".to_owned(),
            Self::NoModel => "请按服务商的写法填写模型名".to_owned(),
            Self::BaseUrl(url) => url.text(Lang::ZhCn),
            Self::Price { max } => format!("必须是 0 到 {max} 美元/百万 Token 之间的价格"),
            Self::OpenRouterNeedsOpenAi => {
                "只适用于 OpenRouter 接口，而 OpenRouter 使用 openai 协议".to_owned()
            }
            Self::OpenRouterSlug => "必须是 OpenRouter 的服务商标识，例如 \"deepinfra\" 或 \
                                     \"google-vertex/us\"（字母、数字、- _ . /，最多 64 个字符）"
                .to_owned(),
            Self::AtLeastOne => "至少为 1".to_owned(),
            Self::RequestsAtMost { max } => {
                format!("最多为 {max}；更长的研究请分成几次运行")
            }
            Self::AtMost { max } => format!("最多为 {max}"),
            Self::NotNegativeSeconds => "必须是 0 秒或以上".to_owned(),
            Self::JitterNeedsSpacing => {
                "抖动需要间隔：间隔为 0 时请求一个接一个发出；请把抖动设为 0，或加上间隔".to_owned()
            }
            Self::JitterOverHalf {
                half_s,
                spacing_s,
                from_spread,
            } => format!(
                "必须小于间隔的一半（{half_s} 秒；{}间隔为 {spacing_s} 秒），否则相邻的请求可能调换顺序",
                if *from_spread {
                    "按分布时长算出的"
                } else {
                    ""
                }
            ),
            Self::SpreadHours => "必须大于 0 小时，或设为 null 以使用 spacing_s".to_owned(),
            Self::TimeoutPositive => "必须大于 0 秒".to_owned(),
            Self::PromptEmpty => "不能为空".to_owned(),
            Self::PromptLong { chars, max } => {
                format!("有 {chars} 个字符；最多 {max} 个")
            }
            Self::Between { low, high } => format!("必须在 {low} 到 {high} 之间"),
            Self::PeakHour => "必须是 0 到 24 之间的小时".to_owned(),
            Self::TtftBudget => "必须大于 0 毫秒，或设为 null 表示不设预算".to_owned(),
            Self::PromptSizes { max, count } => format!(
                "必须列出 1 到 {count} 个互不相同的长度，每个在 1 到 {max} 个 Token 之间，\
                 或设为 null 只发送计划的提示词"
            ),
            Self::PeakTz => "必须是 IANA 时区名（如 Asia/Shanghai）或 UTC 偏移（如 +08:00），\
                             或设为 null 表示使用运行者所在的时区"
                .to_owned(),
            Self::IdleGaps { max_s, count } => format!(
                "必须列出 1 到 {count} 个互不相同的空闲时长，每个大于 0 且不超过 {max_s} 秒，\
                 或设为 null 按计划的间隔发送"
            ),
            Self::IdleGapsNeedWarmup => {
                "每个目标至少需要 1 个预热请求：空闲时长从该目标的上一个请求算起，\
                                         没有预热时第一个计入统计的请求之前没有请求"
                    .to_owned()
            }
            Self::UnknownReference { label } => format!(
                "没有对应的目标：\"{label}\" 不是任何目标的名称；请使用其中一个名称，或设为 null 表示不设参照"
            ),
            Self::Objective => "不是 --fail-on 能读的达标条件，如 \"p95>2s\"".to_owned(),
            Self::NotWholeNumber { text } => format!("{text:?} 不是整数"),
            Self::NotNumber { text } => format!("{text:?} 不是数字"),
        }
    }
}

impl UrlProblem {
    /// The problem in `lang`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn text(&self, lang: Lang) -> String {
        match (lang, self) {
            (Lang::En, Self::Empty) => {
                "enter the endpoint's base URL, e.g. https://api.openai.com/v1".to_owned()
            }
            (Lang::En, Self::Spaces) => "must not contain spaces".to_owned(),
            (Lang::En, Self::DemoNeedsDemoUrl) => "the demo protocol runs in the page: use \
                                                   demo://steady, demo://cold-tail, \
                                                   demo://reasoning or demo://degraded"
                .to_owned(),
            (Lang::En, Self::DemoUrlNeedsDemo) => {
                "demo:// works only with the demo protocol".to_owned()
            }
            (Lang::En, Self::Scheme) => {
                "must start with https:// (or http:// for a server on your network)".to_owned()
            }
            (Lang::En, Self::NoScheme) => "has no scheme: add https:// at the start (or http:// \
                                           for a server on your network), e.g. \
                                           http://localhost:8000/v1"
                .to_owned(),
            (Lang::En, Self::TrailingSlash) => "must not end with a slash".to_owned(),
            (Lang::En, Self::Credentials) => "must not contain a user name or password \
                                              (user:pass@); keys go in the key field, never in \
                                              the URL"
                .to_owned(),
            (Lang::En, Self::UnclosedBracket) => "has an unclosed [ in its host".to_owned(),
            (Lang::En, Self::NoHost) => "has no host name".to_owned(),
            (Lang::En, Self::BadPort(port)) => format!("has a bad port \"{port}\" (1–65535)"),
            (Lang::En, Self::Fragment) => "must not contain a fragment (#…)".to_owned(),
            (Lang::En, Self::KeyInQuery) => "must not carry a key in its query (key=…); keys go \
                                             in the key field, where they stay out of links and \
                                             exports"
                .to_owned(),
            (Lang::En, Self::Query) => {
                "must not contain a query (?…): request paths are appended to it".to_owned()
            }
            (Lang::ZhCn, Self::Empty) => {
                "请填写接口的基础 URL，例如 https://api.openai.com/v1".to_owned()
            }
            (Lang::ZhCn, Self::Spaces) => "不能包含空格".to_owned(),
            (Lang::ZhCn, Self::DemoNeedsDemoUrl) => "演示协议在页面内运行：请使用 demo://steady、\
                                                     demo://cold-tail、demo://reasoning 或 \
                                                     demo://degraded"
                .to_owned(),
            (Lang::ZhCn, Self::DemoUrlNeedsDemo) => "demo:// 只能用于演示协议".to_owned(),
            (Lang::ZhCn, Self::Scheme) => {
                "必须以 https:// 开头（局域网内的服务器可用 http://）".to_owned()
            }
            (Lang::ZhCn, Self::NoScheme) => {
                "缺少协议：请在开头加上 https://（局域网内的服务器可用 http://），\
                 例如 http://localhost:8000/v1"
                    .to_owned()
            }
            (Lang::ZhCn, Self::TrailingSlash) => "不能以斜杠结尾".to_owned(),
            (Lang::ZhCn, Self::Credentials) => {
                "不能包含用户名或密码（user:pass@）：密钥填在密钥栏，绝不放进 URL".to_owned()
            }
            (Lang::ZhCn, Self::UnclosedBracket) => "主机名中的 [ 没有闭合".to_owned(),
            (Lang::ZhCn, Self::NoHost) => "没有主机名".to_owned(),
            (Lang::ZhCn, Self::BadPort(port)) => format!("端口 \"{port}\" 无效（应为 1–65535）"),
            (Lang::ZhCn, Self::Fragment) => "不能包含片段（#…）".to_owned(),
            (Lang::ZhCn, Self::KeyInQuery) => {
                "查询部分不能带密钥（key=…）：密钥填在密钥栏，不会进入链接和导出文件".to_owned()
            }
            (Lang::ZhCn, Self::Query) => "不能包含查询部分（?…）：请求路径会接在它后面".to_owned(),
        }
    }
}

impl Shape {
    /// What the member accepts, in `lang`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn text(self, lang: Lang) -> &'static str {
        match (lang, self) {
            (Lang::En, Self::WholeNumber) => "a whole number from 0 to 4294967295",
            (Lang::En, Self::Number) => "a number",
            (Lang::En, Self::NumberOrNull) => "a number or null",
            (Lang::En, Self::Text) => "a string",
            (Lang::En, Self::TextOrNull) => "a string or null",
            (Lang::En, Self::Price) => {
                "a price object {\"input_per_mtok\": …, \"output_per_mtok\": …, \
                 \"cached_input_per_mtok\": … (optional)} in US dollars per million tokens, or null"
            }
            (Lang::En, Self::Fidelity) => {
                "a fidelity object {\"suite\": \"basic-1\", \"repeats\": 2, \"reference\": a \
                 target's label or null}, or null"
            }
            (Lang::En, Self::Protocol) => "one of \"openai\", \"anthropic\", \"gemini\", \"demo\"",
            (Lang::En, Self::Bool) => "true or false",
            (Lang::En, Self::PeakHours) => "two hours [start, end], each from 0 to 24",
            (Lang::En, Self::TargetList) => "a list of targets",
            (Lang::En, Self::TargetObject) => "a target object",
            (Lang::En, Self::WholeNumberOrNull) => "a whole number or null",
            (Lang::En, Self::TokenSizes) => {
                "a list of input sizes in tokens, such as [128, 2048, 8192], or null"
            }
            (Lang::En, Self::Seconds) => {
                "a list of idle times in seconds, such as [10, 60, 300, 900], or null"
            }
            (Lang::En, Self::Objectives) => "a list of objectives such as [\"p95>2s\"]",
            (Lang::ZhCn, Self::WholeNumber) => "0 到 4294967295 之间的整数",
            (Lang::ZhCn, Self::Number) => "数字",
            (Lang::ZhCn, Self::NumberOrNull) => "数字或 null",
            (Lang::ZhCn, Self::Text) => "字符串",
            (Lang::ZhCn, Self::TextOrNull) => "字符串或 null",
            (Lang::ZhCn, Self::Price) => {
                "价格对象 {\"input_per_mtok\": …, \"output_per_mtok\": …, \
                 \"cached_input_per_mtok\": …（可选）}，单位为美元/百万 Token，或 null"
            }
            (Lang::ZhCn, Self::Fidelity) => {
                "保真检查对象 {\"suite\": \"basic-1\", \"repeats\": 2, \"reference\": \
                 某个目标的名称或 null}，或 null"
            }
            (Lang::ZhCn, Self::Protocol) => "\"openai\"、\"anthropic\"、\"gemini\"、\"demo\" 之一",
            (Lang::ZhCn, Self::Bool) => "true 或 false",
            (Lang::ZhCn, Self::PeakHours) => "两个小时 [开始, 结束]，各在 0 到 24 之间",
            (Lang::ZhCn, Self::TargetList) => "目标列表",
            (Lang::ZhCn, Self::TargetObject) => "目标对象",
            (Lang::ZhCn, Self::WholeNumberOrNull) => "整数或 null",
            (Lang::ZhCn, Self::TokenSizes) => {
                "输入长度（Token）的列表，如 [128, 2048, 8192]，或 null"
            }
            (Lang::ZhCn, Self::Seconds) => "空闲时长（秒）的列表，如 [10, 60, 300, 900]，或 null",
            (Lang::ZhCn, Self::Objectives) => "达标条件的列表，如 [\"p95>2s\"]",
        }
    }
}

impl Found {
    /// What the member holds, in `lang`.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn text(&self, lang: Lang) -> String {
        match (lang, self) {
            (_, Self::Literal(text)) => text.clone(),
            (Lang::En, Self::LongString) => "a long string".to_owned(),
            (Lang::En, Self::List) => "a list".to_owned(),
            (Lang::En, Self::Object) => "an object".to_owned(),
            (Lang::ZhCn, Self::LongString) => "一个很长的字符串".to_owned(),
            (Lang::ZhCn, Self::List) => "一个列表".to_owned(),
            (Lang::ZhCn, Self::Object) => "一个对象".to_owned(),
        }
    }
}

/// In English, as the runner and the documents say it.
impl std::fmt::Display for Problem {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

/// In English, as the runner and the documents say it.
impl std::fmt::Display for UrlProblem {
    #[cfg_attr(target_arch = "wasm32", inline)]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

/// Chinese text sets Latin words and numbers apart with a space.
#[cfg_attr(target_arch = "wasm32", inline)]
fn spaced(text: &str) -> String {
    if text.starts_with(|c: char| c.is_ascii_graphic()) {
        format!(" {text}")
    } else {
        text.to_owned()
    }
}

/// One bad field in `lang`: "targets\[0\].model: name the model as the
/// provider spells it".
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn field_problem(lang: Lang, field: &str, problem: &Problem) -> String {
    match lang {
        Lang::En => format!("{field}: {}", problem.text(lang)),
        Lang::ZhCn => format!("{field}：{}", problem.text(lang)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One of each problem; `index` below makes a new variant a compile
    /// error until it has a place here.
    fn one_of_each() -> Vec<Problem> {
        let mut problems = vec![
            Problem::Missing,
            Problem::KeyLike,
            Problem::UnknownField {
                nearest: Some("model"),
            },
            Problem::NoTargets,
            Problem::NoLabel,
            Problem::NoModel,
            Problem::Price { max: 100_000.0 },
            Problem::OpenRouterNeedsOpenAi,
            Problem::OpenRouterSlug,
            Problem::AtLeastOne,
            Problem::RequestsAtMost { max: 100_000 },
            Problem::AtMost { max: 1000 },
            Problem::NotNegativeSeconds,
            Problem::JitterNeedsSpacing,
            Problem::JitterOverHalf {
                half_s: 2.0,
                spacing_s: 4.0,
                from_spread: true,
            },
            Problem::SpreadHours,
            Problem::TimeoutPositive,
            Problem::PromptEmpty,
            Problem::PromptLong {
                chars: 20_001,
                max: 20_000,
            },
            Problem::Between {
                low: 0.0,
                high: 2.0,
            },
            Problem::PeakHour,
            Problem::TtftBudget,
            Problem::PromptSizes { max: 9, count: 2 },
            Problem::PeakTz,
            Problem::IdleGaps {
                max_s: 86_400.0,
                count: 12,
            },
            Problem::IdleGapsNeedWarmup,
            Problem::UnknownReference {
                label: "A".to_owned(),
            },
            Problem::NotWholeNumber {
                text: "lots".to_owned(),
            },
            Problem::NotNumber {
                text: "x".to_owned(),
            },
            Problem::Objective,
        ];
        for shape in SHAPES {
            for found in [
                Found::Literal("\"yes\"".to_owned()),
                Found::LongString,
                Found::List,
                Found::Object,
            ] {
                problems.push(Problem::Expected { shape, found });
            }
        }
        problems.extend(URLS.clone().map(Problem::BaseUrl));
        problems
    }

    const SHAPES: [Shape; 16] = [
        Shape::Objectives,
        Shape::WholeNumberOrNull,
        Shape::TokenSizes,
        Shape::Seconds,
        Shape::WholeNumber,
        Shape::Number,
        Shape::NumberOrNull,
        Shape::Text,
        Shape::TextOrNull,
        Shape::Price,
        Shape::Fidelity,
        Shape::Protocol,
        Shape::Bool,
        Shape::PeakHours,
        Shape::TargetList,
        Shape::TargetObject,
    ];

    static URLS: std::sync::LazyLock<[UrlProblem; 14]> = std::sync::LazyLock::new(|| {
        [
            UrlProblem::Empty,
            UrlProblem::Spaces,
            UrlProblem::DemoNeedsDemoUrl,
            UrlProblem::DemoUrlNeedsDemo,
            UrlProblem::Scheme,
            UrlProblem::NoScheme,
            UrlProblem::TrailingSlash,
            UrlProblem::Credentials,
            UrlProblem::UnclosedBracket,
            UrlProblem::NoHost,
            UrlProblem::BadPort("0".to_owned()),
            UrlProblem::Fragment,
            UrlProblem::KeyInQuery,
            UrlProblem::Query,
        ]
    });

    fn index(problem: &Problem) -> usize {
        match problem {
            Problem::Expected { .. } => 0,
            Problem::Missing => 1,
            Problem::KeyLike => 2,
            Problem::UnknownField { .. } => 3,
            Problem::NoTargets => 4,
            Problem::NoLabel => 5,
            Problem::NoModel => 6,
            Problem::BaseUrl(_) => 7,
            Problem::Price { .. } => 8,
            Problem::OpenRouterNeedsOpenAi => 9,
            Problem::OpenRouterSlug => 10,
            Problem::AtLeastOne => 11,
            Problem::RequestsAtMost { .. } => 12,
            Problem::AtMost { .. } => 13,
            Problem::NotNegativeSeconds => 14,
            Problem::JitterNeedsSpacing => 15,
            Problem::JitterOverHalf { .. } => 16,
            Problem::SpreadHours => 17,
            Problem::TimeoutPositive => 18,
            Problem::PromptEmpty => 19,
            Problem::PromptLong { .. } => 20,
            Problem::Between { .. } => 21,
            Problem::PeakHour => 22,
            Problem::TtftBudget => 23,
            Problem::PeakTz => 24,
            Problem::UnknownReference { .. } => 25,
            Problem::NotWholeNumber { .. } => 26,
            Problem::NotNumber { .. } => 27,
            Problem::PromptSizes { .. } => 28,
            Problem::IdleGaps { .. } => 29,
            Problem::IdleGapsNeedWarmup => 30,
            Problem::Objective => 31,
        }
    }

    fn is_chinese(c: char) -> bool {
        ('\u{4e00}'..='\u{9fff}').contains(&c)
    }

    #[test]
    fn every_problem_is_said_in_chinese_too() {
        let problems = one_of_each();
        let seen: std::collections::BTreeSet<usize> = problems.iter().map(index).collect();
        assert_eq!(seen.len(), 32, "a problem has no example here");
        for problem in &problems {
            let en = problem.text(Lang::En);
            let zh = problem.text(Lang::ZhCn);
            assert!(!en.chars().any(is_chinese), "{en}");
            assert!(zh.chars().any(is_chinese), "not Chinese: {zh}");
            assert_ne!(en, zh);
            // Words of English the Chinese keeps are names and values only:
            // no English word of four or more lower-case letters outside
            // quotes, code-like names (spacing_s) and URLs.
            let outside_quotes: String = zh.split('"').step_by(2).collect::<Vec<_>>().join(" ");
            for word in outside_quotes
                .split(|c: char| !(c.is_ascii_alphanumeric() || "_:/.@+-=".contains(c)))
            {
                let plain = word.chars().all(|c| c.is_ascii_lowercase());
                assert!(
                    !(plain
                        && word.len() >= 4
                        && !["null", "true", "false", "token", "openai"].contains(&word)),
                    "English word {word:?} left in: {zh}"
                );
            }
        }
    }

    #[test]
    fn the_english_reads_as_the_runner_always_printed_it() {
        assert_eq!(
            Problem::Expected {
                shape: Shape::Bool,
                found: Found::Literal("\"yes\"".to_owned()),
            }
            .to_string(),
            "expected true or false, found \"yes\""
        );
        assert_eq!(
            Problem::Between {
                low: 1.0,
                high: 65_536.0
            }
            .to_string(),
            "must be between 1 and 65536"
        );
        assert_eq!(
            Problem::Price { max: 100_000.0 }.to_string(),
            "must be a price from 0 to 100000 US dollars per million tokens"
        );
        assert_eq!(
            field_problem(Lang::En, "targets[0].model", &Problem::NoModel),
            "targets[0].model: name the model as the provider spells it"
        );
        assert_eq!(
            field_problem(Lang::ZhCn, "targets[0].model", &Problem::NoModel),
            "targets[0].model：请按服务商的写法填写模型名"
        );
        assert_eq!(
            Problem::Expected {
                shape: Shape::WholeNumber,
                found: Found::Literal("-1".to_owned()),
            }
            .text(Lang::ZhCn),
            "应为 0 到 4294967295 之间的整数，实际是 -1"
        );
    }
}
