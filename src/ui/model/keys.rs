//! Which key the page sends where: pure, native-tested rules behind the key
//! fields, the remembered keys and the confirmation before Start.
//!
//! A key is kept per *origin* (scheme, host, port; see
//! [`crate::core::base::origin`]), never per provider id: a shared `#plan=` link
//! names a provider and a base URL, and a stranger writes both. So a key
//! remembered for `https://api.openai.com` is offered only to targets on
//! that origin, and a link whose "OpenAI" target points elsewhere starts
//! with an empty field naming the other host.

use std::collections::BTreeMap;

use crate::core::base::origin::Origin;
use crate::core::planning::key_rules::{is_custom_host, key_origin, named_preset, needed_keys};
use crate::core::planning::plan::{Plan, Target};
use crate::core::planning::presets::preset_by_id;

/// The key slot of `target`: its origin (`https://api.openai.com`), or its
/// base URL as written when it has none a key could be bound to.
pub fn key_slot(target: &Target) -> String {
    key_origin(target).map_or_else(|| target.base_url.clone(), |origin| origin.to_string())
}

/// A remembered slot from before keys were bound to origins: a provider id
/// becomes that preset's own origin (never a custom host); anything else is
/// kept as it is.
pub fn migrate_slot(slot: &str) -> String {
    match preset_by_id(slot).and_then(|preset| Origin::parse(preset.base_url)) {
        Some(origin) => origin.to_string(),
        None => slot.to_owned(),
    }
}

/// [`migrate_slot`] over a whole remembered map; a key already stored under
/// the origin wins over one migrated to it.
pub fn migrate_keys(keys: BTreeMap<String, String>) -> BTreeMap<String, String> {
    let mut migrated: BTreeMap<String, String> = BTreeMap::new();
    for (slot, key) in &keys {
        if Origin::parse(slot).is_some() {
            migrated.insert(slot.clone(), key.clone());
        }
    }
    for (slot, key) in keys {
        if Origin::parse(&slot).is_none() {
            migrated.entry(migrate_slot(&slot)).or_insert(key);
        }
    }
    migrated
}

/// What a key field says it is for: the host in plain sight, with the
/// provider's name when the host is the provider's own, or a warning when a
/// preset target points at another host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyFor {
    /// `api.openai.com`, `127.0.0.1:8787`.
    pub host: String,
    /// The preset's name when the host is one of its own.
    pub provider: Option<String>,
    /// A preset target on a host that is not the preset's own.
    pub custom_host_of: Option<String>,
}

/// The key field's description for `target`.
pub fn key_for(target: &Target) -> KeyFor {
    let host = key_origin(target).map_or_else(|| target.base_url.clone(), |o| o.host_port());
    let preset = named_preset(target);
    if is_custom_host(target) {
        KeyFor {
            host,
            provider: None,
            custom_host_of: preset.map(|p| p.name.to_owned()),
        }
    } else {
        KeyFor {
            host,
            provider: preset
                .filter(|p| p.id != "custom")
                .map(|p| p.name.to_owned()),
            custom_host_of: None,
        }
    }
}

/// One origin a run would send a key to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyHost {
    /// The origin, as the key slot names it.
    pub origin: String,
    /// Labels of the targets that would send it.
    pub targets: Vec<String>,
}

/// The origins `plan` would send a key to (a non-empty key in `keys` for
/// the target's slot) that are not in `used`: the hosts a person must
/// confirm before a run from a link starts. Empty when nothing new would
/// receive a key.
pub fn hosts_to_confirm(
    plan: &Plan,
    keys: &BTreeMap<String, String>,
    used: &[String],
) -> Vec<KeyHost> {
    let mut hosts: Vec<KeyHost> = Vec::new();
    for target in &plan.targets {
        // No origin (the demo, a URL with none): no key leaves the page.
        if key_origin(target).is_none() {
            continue;
        }
        let slot = key_slot(target);
        let sends_key = keys.get(&slot).is_some_and(|key| !key.is_empty());
        if !sends_key || used.contains(&slot) {
            continue;
        }
        match hosts.iter_mut().find(|host| host.origin == slot) {
            Some(host) => host.targets.push(target.label.clone()),
            None => hosts.push(KeyHost {
                origin: slot,
                targets: vec![target.label.clone()],
            }),
        }
    }
    hosts
}

/// The origins `plan` sends keys to with `keys`: recorded as used on this
/// device once a run starts, so the same hosts are not asked about again.
pub fn keyed_origins(plan: &Plan, keys: &BTreeMap<String, String>) -> Vec<String> {
    let mut origins: Vec<String> = Vec::new();
    for target in &plan.targets {
        let slot = key_slot(target);
        if keys.get(&slot).is_some_and(|key| !key.is_empty()) && !origins.contains(&slot) {
            origins.push(slot);
        }
    }
    origins
}

/// Origins `plan` waits for keys for ([`needed_keys`], the runner's rule
/// too) that have none in `keys`, an empty or blank field counting as none
/// (keys are not stored unless remembered, so a resumed run asks again).
pub fn missing_keys(plan: &Plan, keys: &BTreeMap<String, String>) -> Vec<String> {
    needed_keys(plan)
        .into_iter()
        .map(|origin| origin.to_string())
        .filter(|slot| keys.get(slot).is_none_or(|key| key.trim().is_empty()))
        .collect()
}

/// What is known of the provider's browser access, for a request the
/// browser showed no answer to (CORS or the network): the preset's own
/// note, in English as the stored message is; `None` for a custom server.
pub fn cors_note(target: &Target) -> Option<String> {
    target
        .provider
        .as_deref()
        .and_then(crate::core::planning::presets::preset_by_id)
        .map(|p| p.cors_note_en.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blocked_request_gets_the_presets_note_or_none() {
        let mut target = target("t", Some("deepseek"), "https://api.deepseek.com/v1");
        let preset = crate::core::planning::presets::preset_by_id("deepseek").unwrap();
        assert_eq!(cors_note(&target).as_deref(), Some(preset.cors_note_en));
        target.provider = None;
        assert_eq!(cors_note(&target), None);
    }

    fn target(label: &str, provider: Option<&str>, base_url: &str) -> Target {
        Target {
            provider: provider.map(str::to_owned),
            ..Target::openai(label, base_url, "m")
        }
    }

    fn plan(targets: Vec<Target>) -> Plan {
        Plan {
            targets,
            ..Plan::default()
        }
    }

    #[test]
    fn a_key_is_kept_per_origin_not_per_provider() {
        let own = target("OpenAI", Some("openai"), "https://api.openai.com/v1");
        let elsewhere = target("OpenAI?", Some("openai"), "https://collector.example/v1");
        assert_eq!(key_slot(&own), "https://api.openai.com");
        assert_eq!(key_slot(&elsewhere), "https://collector.example");
        // A key remembered by provider id before: it moves to OpenAI's own
        // origin, so the link's other host gets nothing.
        let remembered: BTreeMap<String, String> =
            [("openai".to_owned(), "sk-old".to_owned())].into();
        let keys = migrate_keys(remembered);
        assert_eq!(
            keys.get("https://api.openai.com").map(String::as_str),
            Some("sk-old")
        );
        assert!(!keys.contains_key(&key_slot(&elsewhere)));
        assert_eq!(migrate_slot("https://gpu-box:8000"), "https://gpu-box:8000");
    }

    #[test]
    fn the_key_field_names_the_host() {
        let own = key_for(&target(
            "OpenAI",
            Some("openai"),
            "https://api.openai.com/v1",
        ));
        assert_eq!(own.host, "api.openai.com");
        assert_eq!(own.provider.as_deref(), Some("OpenAI"));
        assert_eq!(own.custom_host_of, None);
        let elsewhere = key_for(&target("x", Some("openai"), "https://collector.example/v1"));
        assert_eq!(elsewhere.host, "collector.example");
        assert_eq!(elsewhere.provider, None);
        assert_eq!(elsewhere.custom_host_of.as_deref(), Some("OpenAI"));
        let local = key_for(&target("local", None, "http://127.0.0.1:8787/v1"));
        assert_eq!(local.host, "127.0.0.1:8787");
    }

    #[test]
    fn only_new_hosts_that_would_get_a_key_are_confirmed() {
        let link = plan(vec![
            target("A", Some("openai"), "https://api.openai.com/v1"),
            target("B", None, "https://collector.example/v1"),
            target("C", None, "https://collector.example/v1"),
            target("D", None, "http://127.0.0.1:8787/v1"),
        ]);
        let keys: BTreeMap<String, String> = [
            ("https://api.openai.com".to_owned(), "sk-a".to_owned()),
            ("https://collector.example".to_owned(), "sk-b".to_owned()),
            ("http://127.0.0.1:8787".to_owned(), String::new()),
        ]
        .into();
        // OpenAI's origin was used before on this device: no friction there.
        let used = vec!["https://api.openai.com".to_owned()];
        assert_eq!(
            hosts_to_confirm(&link, &keys, &used),
            vec![KeyHost {
                origin: "https://collector.example".to_owned(),
                targets: vec!["B".to_owned(), "C".to_owned()],
            }]
        );
        // A remembered provider on its own host, used before: nothing to ask.
        let own_only = plan(vec![target(
            "A",
            Some("openai"),
            "https://api.openai.com/v1",
        )]);
        assert!(hosts_to_confirm(&own_only, &keys, &used).is_empty());
        assert_eq!(
            keyed_origins(&link, &keys),
            vec!["https://api.openai.com", "https://collector.example"]
        );
        assert_eq!(
            missing_keys(&own_only, &BTreeMap::new()),
            vec!["https://api.openai.com"]
        );
    }

    #[test]
    fn a_resumed_plan_asks_for_the_keys_the_runner_asks_for() {
        // A target without a provider on a remote host wants a key, as the
        // runner says (`keys_for` refuses the same plan without it); a local
        // server or a loopback address does not.
        let resumed = plan(vec![
            target("no provider", None, "https://llm.example.com/v1"),
            target("local", None, "http://127.0.0.1:8787/v1"),
            target("remote vLLM", Some("vllm"), "http://gpu-box:8000/v1"),
            target("DeepSeek", Some("deepseek"), "https://api.deepseek.com"),
        ]);
        let needed: Vec<String> = needed_keys(&resumed)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            missing_keys(&resumed, &BTreeMap::new()),
            vec!["https://llm.example.com", "https://api.deepseek.com"]
        );
        assert_eq!(missing_keys(&resumed, &BTreeMap::new()), needed);
        let typed: BTreeMap<String, String> =
            [("https://llm.example.com".to_owned(), "sk".to_owned())].into();
        assert_eq!(
            missing_keys(&resumed, &typed),
            vec!["https://api.deepseek.com"]
        );
        // A field typed into and cleared holds no key.
        let cleared: BTreeMap<String, String> = [
            ("https://llm.example.com".to_owned(), "sk".to_owned()),
            ("https://api.deepseek.com".to_owned(), "  ".to_owned()),
        ]
        .into();
        assert_eq!(
            missing_keys(&resumed, &cleared),
            vec!["https://api.deepseek.com"]
        );
    }
}
