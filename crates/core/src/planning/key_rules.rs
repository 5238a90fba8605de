//! Which key goes where: the rules that tie a target to the origin its key
//! is for, decide whether it wants a key at all, and name the environment
//! variable the runner reads it from. Built on [`crate::base::origin`]'s
//! strict origins and the presets' own hosts.

use crate::base::origin::{Origin, Scheme};
use crate::planning::plan::{Plan, Protocol, Target};
use crate::planning::presets::{Preset, preset_by_id};

/// The origin a key for this target would be sent to: its base URL's origin.
///
/// `None` for the demo protocol (it runs in the page and sends nothing) and
/// for a base URL that has no origin (see [`Origin::parse`]): such a target
/// gets no key.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn key_origin(target: &Target) -> Option<Origin> {
    if target.protocol == Protocol::Demo {
        return None;
    }
    Origin::parse(&target.base_url)
}

/// The preset a target names, when it is one with hosts of its own (not
/// "custom", not the demo).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn named_preset(target: &Target) -> Option<&'static Preset> {
    target
        .provider
        .as_deref()
        .and_then(preset_by_id)
        .filter(|preset| !preset.origins().is_empty())
}

/// The target names a provider preset but its base URL is not one of that
/// preset's own hosts — the shape of a shared plan that would carry the
/// provider's key elsewhere. Such a target is shown as a custom host, and no
/// key remembered or set for the provider goes to it.
///
/// `false` for a target that names no preset, "custom" or the demo.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn is_custom_host(target: &Target) -> bool {
    named_preset(target)
        .is_some_and(|preset| !key_origin(target).is_some_and(|origin| preset.owns(&origin)))
}

/// Whether the target expects a key at all: not for the demo, a base URL on
/// this machine (loopback), or a preset that needs none (a local server's
/// preset) — unless the user ties a key to such a host explicitly.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn wants_key(target: &Target) -> bool {
    let Some(origin) = key_origin(target) else {
        return false;
    };
    if origin.is_loopback() {
        return false;
    }
    target
        .provider
        .as_deref()
        .and_then(preset_by_id)
        .is_none_or(|preset| preset.needs_key)
}

/// The origin whose key `target` waits for: its key origin when it
/// [wants a key](wants_key), else `None`. The one answer the page's key
/// fields, its resume and the runner's key lookup all ask.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn needed_key(target: &Target) -> Option<Origin> {
    key_origin(target).filter(|_| wants_key(target))
}

/// The origins the targets of `plan` wait for keys for ([`needed_key`]),
/// in plan order, each once.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn needed_keys(plan: &Plan) -> Vec<Origin> {
    let mut origins: Vec<Origin> = Vec::new();
    for origin in plan.targets.iter().filter_map(needed_key) {
        if !origins.contains(&origin) {
            origins.push(origin);
        }
    }
    origins
}

/// The variable a key for any target may come from, when the plan's
/// targets that need one share a single origin (the runner's rule).
pub const FALLBACK_VARIABLE: &str = "FIRSTTOKEN_KEY";

/// The prefix of a variable that ties a key to a host.
pub const HOST_VARIABLE_PREFIX: &str = "FIRSTTOKEN_KEY_FOR_";

/// `FIRSTTOKEN_KEY_<PROVIDER>`: the provider id uppercased, `-` as `_`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn provider_variable(provider: &str) -> String {
    let id: String = provider
        .chars()
        .map(|c| {
            if c == '-' {
                '_'
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect();
    format!("{FALLBACK_VARIABLE}_{id}")
}

/// `FIRSTTOKEN_KEY_FOR_<HOST>` for an origin: its host (and port when not the
/// scheme's default) uppercased, every character but letters and digits as
/// `_` (`api.example.com` → `FIRSTTOKEN_KEY_FOR_API_EXAMPLE_COM`,
/// `localhost:8000` → `FIRSTTOKEN_KEY_FOR_LOCALHOST_8000`).
///
/// `None` for plain HTTP to another machine: a variable names no scheme, and
/// a key sent over plain HTTP crosses the network readable, so it takes an
/// explicit `--key http://HOST:PORT=VARIABLE`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn host_variable(origin: &Origin) -> Option<String> {
    if origin.scheme == Scheme::Http && !origin.is_loopback() {
        return None;
    }
    let host: String = origin
        .host_port()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    Some(format!("{HOST_VARIABLE_PREFIX}{host}"))
}

/// The environment variable the runner reads this target's key from
/// without a `--key` option: `FIRSTTOKEN_KEY_<PROVIDER>` for a preset's own
/// host, else `FIRSTTOKEN_KEY_FOR_<HOST>`; `None` for a target that takes
/// no key (the demo, a local server) or a plain-HTTP remote host. Exports
/// that name a key (the LiteLLM config) name this variable, never a key.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn key_variable(target: &Target) -> Option<String> {
    if !wants_key(target) {
        return None;
    }
    let origin = key_origin(target)?;
    match named_preset(target) {
        Some(preset) if preset.owns(&origin) => Some(provider_variable(preset.id)),
        _ => host_variable(&origin),
    }
}

/// The variable a target of `preset` at the preset's own base URL takes
/// its key from, for lists of presets: `FIRSTTOKEN_KEY_<PROVIDER>`, or
/// `FIRSTTOKEN_KEY_FOR_<HOST>` for "custom", whose host is the user's;
/// `None` for a preset that takes no key (a local server, the demo).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn preset_key_variable(preset: &Preset) -> Option<String> {
    if preset.base_url.is_empty() {
        return preset
            .needs_key
            .then(|| format!("{HOST_VARIABLE_PREFIX}<HOST>"));
    }
    let target = Target {
        label: preset.name.to_owned(),
        protocol: preset.protocol,
        base_url: preset.base_url.to_owned(),
        model: String::new(),
        provider: Some(preset.id.to_owned()),
        price: None,
        openrouter_provider: None,
    };
    key_variable(&target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_preset_names_the_variable_its_key_comes_from() {
        let variable = |id: &str| preset_key_variable(preset_by_id(id).unwrap());
        assert_eq!(
            variable("deepseek").as_deref(),
            Some("FIRSTTOKEN_KEY_DEEPSEEK")
        );
        assert_eq!(
            variable("custom").as_deref(),
            Some("FIRSTTOKEN_KEY_FOR_<HOST>")
        );
        assert_eq!(variable("ollama"), None);
        assert_eq!(variable("demo"), None);
    }
    use crate::base::origin::*;
    use crate::planning::presets::PRESETS;

    fn origin(url: &str) -> Origin {
        Origin::parse(url).unwrap_or_else(|| panic!("no origin in {url}"))
    }

    fn target(provider: Option<&str>, protocol: Protocol, base_url: &str) -> Target {
        Target {
            protocol,
            provider: provider.map(str::to_owned),
            ..Target::openai("t", base_url, "m")
        }
    }

    #[test]
    fn every_preset_with_a_host_owns_its_base_url_origin() {
        for preset in PRESETS {
            match Origin::parse(preset.base_url) {
                Some(o) => {
                    assert!(preset.owns(&o), "{}", preset.id);
                    assert!(preset.origins().contains(&o), "{}", preset.id);
                }
                None => assert!(preset.origins().is_empty(), "{}", preset.id),
            }
        }
        let openai = preset_by_id("openai").unwrap();
        assert!(!openai.owns(&origin("https://api.openai.com.evil.example")));
        assert!(!openai.owns(&origin("http://api.openai.com")));
        assert!(!openai.owns(&origin("https://api.deepseek.com")));
        // A preset may own more than one host.
        let siliconflow = preset_by_id("siliconflow").unwrap();
        assert!(siliconflow.owns(&origin("https://api.siliconflow.cn/v1")));
        assert!(siliconflow.owns(&origin("https://api.siliconflow.com/v1")));
        assert!(preset_by_id("custom").unwrap().origins().is_empty());
        assert!(preset_by_id("demo").unwrap().origins().is_empty());
    }

    #[test]
    fn key_origin_is_the_base_urls_origin_and_none_for_the_demo() {
        let t = target(
            Some("openai"),
            Protocol::OpenAi,
            "https://API.openai.com/v1",
        );
        assert_eq!(key_origin(&t), Some(origin("https://api.openai.com")));
        let demo = target(Some("demo"), Protocol::Demo, "demo://steady");
        assert_eq!(key_origin(&demo), None);
        // Even a demo-protocol target that names an http URL sends nothing.
        let odd = target(None, Protocol::Demo, "https://api.openai.com");
        assert_eq!(key_origin(&odd), None);
    }

    #[test]
    fn a_preset_on_another_host_is_a_custom_host() {
        let own = target(
            Some("openai"),
            Protocol::OpenAi,
            "https://api.openai.com/v1",
        );
        assert!(!is_custom_host(&own));
        let elsewhere = target(Some("openai"), Protocol::OpenAi, "https://evil.example/v1");
        assert!(is_custom_host(&elsewhere));
        let lookalike = target(
            Some("deepseek"),
            Protocol::OpenAi,
            "https://api.deepseek.com.evil.example",
        );
        assert!(is_custom_host(&lookalike));
        let http = target(
            Some("deepseek"),
            Protocol::OpenAi,
            "http://api.deepseek.com",
        );
        assert!(is_custom_host(&http));
        let unparsable = target(
            Some("openai"),
            Protocol::OpenAi,
            "https://user@api.openai.com",
        );
        assert!(is_custom_host(&unparsable));
        let remote_vllm = target(Some("vllm"), Protocol::OpenAi, "http://gpu-box:8000/v1");
        assert!(is_custom_host(&remote_vllm));
        // No preset, "custom", an unknown id or the demo: not a preset's custom host.
        for provider in [None, Some("custom"), Some("no-such-preset")] {
            let t = target(provider, Protocol::OpenAi, "https://llm.example.com/v1");
            assert!(!is_custom_host(&t), "{provider:?}");
        }
        let demo = target(Some("demo"), Protocol::Demo, "demo://cold-tail");
        assert!(!is_custom_host(&demo));
    }

    #[test]
    fn loopback_keyless_presets_and_the_demo_want_no_key() {
        let wants = |provider, protocol, url| wants_key(&target(provider, protocol, url));
        assert!(wants(
            Some("openai"),
            Protocol::OpenAi,
            "https://api.openai.com/v1"
        ));
        assert!(wants(None, Protocol::OpenAi, "https://llm.example.com/v1"));
        assert!(wants(
            Some("openai"),
            Protocol::OpenAi,
            "https://evil.example/v1"
        ));
        assert!(!wants(None, Protocol::OpenAi, "http://127.0.0.1:8787/v1"));
        assert!(!wants(
            Some("openai"),
            Protocol::OpenAi,
            "http://localhost:8787/v1"
        ));
        assert!(!wants(
            Some("vllm"),
            Protocol::OpenAi,
            "http://gpu-box:8000/v1"
        ));
        assert!(!wants(Some("demo"), Protocol::Demo, "demo://steady"));
        assert!(!wants(None, Protocol::OpenAi, "not a url"));
    }

    #[test]
    fn a_plan_needs_each_wanted_origin_once_in_plan_order() {
        let plan = Plan {
            targets: vec![
                target(None, Protocol::OpenAi, "https://llm.example.com/v1"),
                target(
                    Some("openai"),
                    Protocol::OpenAi,
                    "https://api.openai.com/v1",
                ),
                target(None, Protocol::OpenAi, "https://LLM.example.com:443/v2"),
                target(None, Protocol::OpenAi, "http://127.0.0.1:8787/v1"),
                target(Some("demo"), Protocol::Demo, "demo://steady"),
            ],
            ..Plan::default()
        };
        assert_eq!(
            needed_keys(&plan),
            vec![
                origin("https://llm.example.com"),
                origin("https://api.openai.com")
            ]
        );
        assert_eq!(needed_key(&plan.targets[3]), None);
    }
}
