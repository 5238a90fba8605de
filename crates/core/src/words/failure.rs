//! A failed request in words a person reads: the kind of failure as a
//! table cell says it ("blocked or no network", never the exported code
//! `cors_or_network`), and what a request the browser refused to show
//! may mean and what to try.
//!
//! A browser rejects `fetch()` with a bare `TypeError` whether the network
//! failed, the server is down, the URL is wrong or the provider's CORS
//! rules refused the page: it will not say which, by design (telling them
//! apart would let any page probe the visitor's network). So the words list
//! the causes, say what to try for each, and give what is known about the
//! provider's browser access as a fact about the provider, not as the cause.

use crate::base::failure::ErrorKind;
use crate::base::lang::Lang;

/// The kind of failure in a word or two, for a table cell or a list.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn error_kind_words(lang: Lang, kind: ErrorKind) -> &'static str {
    match (lang, kind) {
        (Lang::En, ErrorKind::CorsOrNetwork) => "blocked or no network",
        (Lang::En, ErrorKind::HttpStatus) => "HTTP error",
        (Lang::En, ErrorKind::Timeout) => "timed out",
        (Lang::En, ErrorKind::StreamCut) => "stream cut off",
        (Lang::En, ErrorKind::MalformedStream) => "unreadable stream",
        (Lang::En, ErrorKind::ProviderError) => "provider error",
        (Lang::En, ErrorKind::NotSse) => "not a stream",
        (Lang::En, ErrorKind::Aborted) => "stopped",
        (Lang::En, ErrorKind::Dns) => "host not found",
        (Lang::En, ErrorKind::Tls) => "TLS failed",
        (Lang::En, ErrorKind::ContextExceeded) => "prompt too long",
        (Lang::ZhCn, ErrorKind::CorsOrNetwork) => "被拦截或网络不通",
        (Lang::ZhCn, ErrorKind::HttpStatus) => "HTTP 错误",
        (Lang::ZhCn, ErrorKind::Timeout) => "超时",
        (Lang::ZhCn, ErrorKind::StreamCut) => "流被中断",
        (Lang::ZhCn, ErrorKind::MalformedStream) => "流无法解析",
        (Lang::ZhCn, ErrorKind::ProviderError) => "服务商报错",
        (Lang::ZhCn, ErrorKind::NotSse) => "不是事件流",
        (Lang::ZhCn, ErrorKind::Aborted) => "已停止",
        (Lang::ZhCn, ErrorKind::Dns) => "域名无法解析",
        (Lang::ZhCn, ErrorKind::Tls) => "TLS 握手失败",
        (Lang::ZhCn, ErrorKind::ContextExceeded) => "提示词超出上下文",
    }
}

/// What a request the browser refused to show may mean, and what to try:
/// the causes it cannot tell apart, then the steps, then what is known of
/// this provider's browser access (`provider_note`, a preset's note, if
/// the target has one) and the browser's own words (`detail`, e.g.
/// "TypeError: Failed to fetch"; empty for none).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn blocked_request_text(lang: Lang, provider_note: Option<&str>, detail: &str) -> String {
    let mut text = match lang {
        Lang::En => "no answer reached the page, and the browser does not say why: the network \
                     or the server may be down, the base URL may be wrong, or the provider may \
                     not let web pages call it (CORS). Try: check the base URL and that the \
                     server is up (Test connection); if the provider does not let web pages \
                     call it, use a proxy URL you control, or run the same plan with the runner \
                     (firsttoken run), which CORS does not apply to."
            .to_owned(),
        Lang::ZhCn => "页面没有收到任何响应，浏览器也不说明原因：可能是网络或服务器不通、基础 URL 写错，\
                       或服务商不允许网页直接调用（CORS）。可以这样排查：检查基础 URL 并确认服务器在运行\
                       （测试连接）；如果服务商不允许网页调用，请使用你自己掌控的代理 URL，或用命令行\
                       工具运行同一计划（firsttoken run），它不受 CORS 限制。"
            .to_owned(),
    };
    if let Some(note) = provider_note.map(str::trim).filter(|n| !n.is_empty()) {
        text.push_str(&match lang {
            Lang::En => format!(" What is known of this provider's browser access: {note}."),
            Lang::ZhCn => format!("关于该服务商的浏览器访问：{note}。"),
        });
    }
    let detail = detail.trim();
    if !detail.is_empty() {
        text.push_str(&match lang {
            Lang::En => format!(" (The browser said: {detail}.)"),
            Lang::ZhCn => format!("（浏览器的原话：{detail}。）"),
        });
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_words_and_none_is_its_code() {
        for lang in [Lang::En, Lang::ZhCn] {
            let mut seen = Vec::new();
            for kind in ErrorKind::ALL {
                let words = error_kind_words(lang, kind);
                assert!(!words.is_empty());
                assert_ne!(words, kind.as_str(), "{kind:?}");
                assert!(!words.contains('_'), "{words}");
                assert!(!seen.contains(&words), "{words} twice");
                seen.push(words);
            }
        }
    }

    #[test]
    fn a_blocked_request_lists_its_causes_and_the_provider_note_is_not_one() {
        let note = "answers browser requests from any origin";
        let text = blocked_request_text(Lang::En, Some(note), "TypeError: Failed to fetch");
        // The causes the browser cannot tell apart, and what to try.
        for said in [
            "network",
            "base URL",
            "CORS",
            "Test connection",
            "proxy",
            "firsttoken run",
        ] {
            assert!(text.contains(said), "{said}: {text}");
        }
        // The note is said as what is known of the provider, after the
        // causes, never glued on as if it were the reason.
        assert!(!text.contains(&format!("which): {note}")), "{text}");
        assert!(
            text.contains(&format!(
                "What is known of this provider's browser access: {note}."
            )),
            "{text}"
        );
        assert!(
            text.ends_with("(The browser said: TypeError: Failed to fetch.)"),
            "{text}"
        );
        assert!(!text.contains("cors_or_network"));
        let zh = blocked_request_text(Lang::ZhCn, Some("允许浏览器从任意来源直接调用"), "");
        for said in [
            "网络",
            "基础 URL",
            "CORS",
            "测试连接",
            "代理",
            "firsttoken run",
            "关于该服务商",
        ] {
            assert!(zh.contains(said), "{said}: {zh}");
        }
        assert!(!zh.contains("浏览器的原话"), "no detail, no quote: {zh}");
        assert!(!blocked_request_text(Lang::En, None, "").contains("What is known"));
    }
}
