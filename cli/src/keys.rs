//! Keys from the environment: `FIRSTTOKEN_KEY_<PROVIDER>`, else
//! `FIRSTTOKEN_KEY`.
//!
//! Keys are looked up once, before a run starts, so a target without one is
//! refused up front with the variable to set, instead of failing request by
//! request. A key is held in [`Key`], whose `Debug` prints no secret; it goes
//! only into the request's header, never into a sample, the journal, a file
//! or the terminal.

use firsttoken::core::plan::{Plan, Target};
use firsttoken::core::presets::preset_by_id;

/// The variable every target falls back to.
pub const FALLBACK_VARIABLE: &str = "FIRSTTOKEN_KEY";

/// An API key; its `Debug` says only that there is one.
#[derive(Clone, PartialEq, Eq)]
pub struct Key(String);

impl Key {
    /// The key, for the request header only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(…)")
    }
}

/// `FIRSTTOKEN_KEY_<PROVIDER>`: the provider id uppercased, `-` as `_`.
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

/// Whether a target may run without a key: a local server's preset, or a
/// base URL on this machine.
pub fn is_local(target: &Target) -> bool {
    if target
        .provider
        .as_deref()
        .and_then(preset_by_id)
        .is_some_and(|preset| !preset.needs_key)
    {
        return true;
    }
    let Ok(uri) = target.base_url.parse::<hyper::Uri>() else {
        return false;
    };
    let host = uri.host().unwrap_or_default();
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// A target with no key where one is needed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingKey {
    /// The target's label.
    pub label: String,
    /// The variables looked at, most specific first.
    pub variables: Vec<String>,
}

impl std::fmt::Display for MissingKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "target '{}' needs a key: set {}",
            self.label,
            self.variables.join(" or ")
        )
    }
}

/// The variables a target's key is read from, most specific first.
pub fn variables_for(target: &Target) -> Vec<String> {
    let mut variables = Vec::new();
    if let Some(provider) = target.provider.as_deref() {
        variables.push(provider_variable(provider));
    }
    variables.push(FALLBACK_VARIABLE.to_owned());
    variables
}

/// Each target's key, in plan order, read through `lookup` (the process
/// environment in the binary, a map in tests). An empty variable counts as
/// unset.
///
/// # Errors
/// Every target that needs a key and has none, so one message can list
/// them all.
pub fn keys_for(
    plan: &Plan,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<Vec<Option<Key>>, Vec<MissingKey>> {
    let mut keys = Vec::with_capacity(plan.targets.len());
    let mut missing = Vec::new();
    for target in &plan.targets {
        let variables = variables_for(target);
        let key = variables
            .iter()
            .find_map(|name| lookup(name).filter(|value| !value.trim().is_empty()))
            .map(|value| Key(value.trim().to_owned()));
        if key.is_none()
            && !is_local(target)
            && !missing.iter().any(|m: &MissingKey| m.label == target.label)
        {
            missing.push(MissingKey {
                label: target.label.clone(),
                variables,
            });
        }
        keys.push(key);
    }
    if missing.is_empty() {
        Ok(keys)
    } else {
        Err(missing)
    }
}

/// `text` with every occurrence of a key replaced by `[key]`: the last
/// guard before anything is written or printed (a provider may quote the
/// key it refused).
pub fn redact(text: &str, keys: &[Option<Key>]) -> String {
    let mut text = text.to_owned();
    for key in keys.iter().flatten() {
        if key.0.len() >= 4 && text.contains(&key.0) {
            text = text.replace(&key.0, "[key]");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use firsttoken::core::plan::Protocol;

    fn target(label: &str, provider: Option<&str>, base_url: &str) -> Target {
        Target {
            label: label.to_owned(),
            protocol: Protocol::OpenAi,
            base_url: base_url.to_owned(),
            model: "m".to_owned(),
            provider: provider.map(str::to_owned),
        }
    }

    fn plan(targets: Vec<Target>) -> Plan {
        Plan {
            targets,
            ..Plan::default()
        }
    }

    #[test]
    fn the_variable_is_the_provider_id_uppercased_with_dashes_as_underscores() {
        assert_eq!(provider_variable("deepseek"), "FIRSTTOKEN_KEY_DEEPSEEK");
        assert_eq!(
            provider_variable("moonshot-ai"),
            "FIRSTTOKEN_KEY_MOONSHOT_AI"
        );
    }

    #[test]
    fn the_provider_variable_wins_over_the_fallback() {
        let plan = plan(vec![
            target("a", Some("deepseek"), "https://api.deepseek.com"),
            target("b", Some("openai"), "https://api.openai.com/v1"),
        ]);
        let keys = keys_for(&plan, |name| match name {
            "FIRSTTOKEN_KEY_DEEPSEEK" => Some("sk-deep".to_owned()),
            "FIRSTTOKEN_KEY" => Some("sk-any".to_owned()),
            _ => None,
        })
        .unwrap();
        assert_eq!(keys[0].as_ref().unwrap().expose(), "sk-deep");
        assert_eq!(keys[1].as_ref().unwrap().expose(), "sk-any");
        assert_eq!(format!("{:?}", keys[0]), "Some(Key(…))");
    }

    #[test]
    fn a_missing_key_names_the_variables_and_local_servers_need_none() {
        let plan = plan(vec![
            target("DeepSeek", Some("deepseek"), "https://api.deepseek.com"),
            target("vLLM", Some("vllm"), "http://gpu-box:8000/v1"),
            target("mock", None, "http://127.0.0.1:8787/v1"),
            target("custom", None, "https://llm.example.com/v1"),
        ]);
        let missing = keys_for(&plan, |_| Some("  ".to_owned())).unwrap_err();
        let text: Vec<String> = missing.iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            [
                "target 'DeepSeek' needs a key: set FIRSTTOKEN_KEY_DEEPSEEK or FIRSTTOKEN_KEY",
                "target 'custom' needs a key: set FIRSTTOKEN_KEY",
            ]
        );
    }

    #[test]
    fn redact_replaces_every_key() {
        let keys = vec![Some(Key("sk-secret-123".to_owned())), None];
        assert_eq!(
            redact("bad key sk-secret-123 (sk-secret-123)", &keys),
            "bad key [key] ([key])"
        );
    }
}
