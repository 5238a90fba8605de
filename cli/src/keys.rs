//! Keys from the environment, each bound to the origins it may go to.
//!
//! A plan — perhaps a stranger's link — names both a provider and a base URL,
//! so a key chosen by the provider name alone could be carried to any host.
//! The runner therefore decides, before anything is sent, which key goes to
//! which origin (scheme, host, port; see `core::base::origin`), by these rules,
//! the first that applies winning:
//!
//! 1. `--key HOST=VARIABLE`: the key in `VARIABLE`, for that host only.
//! 2. `FIRSTTOKEN_KEY_FOR_<HOST>` (the host, and the port when it is not the
//!    default, uppercased, every other character as `_`): the same, set in
//!    the environment.
//! 3. `FIRSTTOKEN_KEY_<PROVIDER>`: only for a target on one of that preset's
//!    own hosts (`Preset::owns`).
//! 4. `FIRSTTOKEN_KEY`: only when every target still needing a key has the
//!    same origin, and never for a preset's target on another host.
//!
//! A target that needs no key (a local server's preset, a loopback address)
//! gets none unless 1–3 tie one to it. A plan that would have a key go
//! anywhere else — a preset target on a custom host while its provider's key
//! is set, `FIRSTTOKEN_KEY` across several origins — is refused (exit 2),
//! naming the target, the host and how to allow it. A key is held in
//! [`Key`], whose `Debug` prints no secret; it goes only into the request's
//! header, never into a sample, the journal, a file or the terminal.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use firsttoken_core::base::origin::{Origin, Scheme};
use firsttoken_core::planning::key_rules::{is_custom_host, key_origin, needed_key};
use firsttoken_core::planning::plan::{Plan, Target};
use firsttoken_core::planning::presets::preset_by_id;

/// The variable every target of a one-origin run falls back to.
pub use firsttoken_core::planning::key_rules::{
    FALLBACK_VARIABLE, HOST_VARIABLE_PREFIX, host_variable, provider_variable,
};

/// An API key; its `Debug` says only that there is one.
#[derive(Clone, PartialEq, Eq)]
pub struct Key(String);

impl Key {
    /// The key, for the request header only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Key(…)")
    }
}

/// The host a `--key` option names.
#[derive(Clone, Debug, PartialEq, Eq)]
enum BoundHost {
    /// Written with a scheme (`http://gpu-box:8000`): that origin exactly.
    Origin(Origin),
    /// Written without one (`api.example.com`, `localhost:8000`): that host
    /// over HTTPS, port 443 unless given, and over plain HTTP too when the
    /// host is this machine.
    Host {
        /// Lowercased host; IPv6 without brackets.
        host: String,
        /// The port, when written.
        port: Option<u16>,
        /// The host is loopback.
        loopback: bool,
    },
}

impl BoundHost {
    fn matches(&self, origin: &Origin) -> bool {
        match self {
            Self::Origin(bound) => bound == origin,
            Self::Host {
                host,
                port,
                loopback,
            } => {
                *host == origin.host
                    && port.unwrap_or(origin.scheme.default_port()) == origin.port
                    && (origin.scheme == Scheme::Https || *loopback)
            }
        }
    }
}

/// One `--key HOST=VARIABLE`: the key in `VARIABLE` goes to `HOST` only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyBinding {
    host: BoundHost,
    /// The environment variable holding the key.
    pub variable: String,
    /// The option as written, for messages.
    pub written: String,
}

impl FromStr for KeyBinding {
    type Err = String;

    /// `HOST=VARIABLE`, where HOST is `host`, `host:port` or an origin URL
    /// (`https://host:port`).
    fn from_str(text: &str) -> Result<Self, String> {
        let usage = "write --key HOST=VARIABLE, e.g. --key llm.example.com=MY_LLM_KEY or \
                     --key http://gpu-box:8000=GPU_KEY";
        let Some((host_text, variable)) = text.rsplit_once('=') else {
            return Err(format!("--key {text}: {usage}"));
        };
        let variable = variable.trim();
        if variable.is_empty()
            || !variable
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            return Err(format!(
                "--key {text}: \"{variable}\" is not an environment variable's name (letters, \
                 digits and _); the option names the variable that holds the key, never the key"
            ));
        }
        let host_text = host_text.trim();
        let host = if host_text.contains("://") {
            Origin::parse(host_text).map(BoundHost::Origin)
        } else {
            Origin::parse(&format!("https://{host_text}"))
                .filter(|_| !host_text.contains(['/', '?', '#']))
                .map(|origin| BoundHost::Host {
                    loopback: origin.is_loopback(),
                    port: (host_text.ends_with(']') || !host_text.contains(':'))
                        .then_some(())
                        .map_or(Some(origin.port), |()| None),
                    host: origin.host,
                })
        };
        let Some(host) = host else {
            return Err(format!(
                "--key {text}: \"{host_text}\" is not a host, host:port or origin \
                 (https://host:port); {usage}"
            ));
        };
        Ok(Self {
            host,
            variable: variable.to_owned(),
            written: text.to_owned(),
        })
    }
}

/// Where one variable's key goes, for the line printed before a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyRoute {
    /// The variable the key was read from.
    pub variable: String,
    /// The origin it is sent to.
    pub origin: Origin,
    /// The labels of the targets that send it.
    pub targets: Vec<String>,
}

impl fmt::Display for KeyRoute {
    /// `key FIRSTTOKEN_KEY_OPENAI goes to https://api.openai.com ('a', 'b')`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "key {} goes to {} ({})",
            self.variable,
            self.origin,
            quoted_list(&self.targets)
        )
    }
}

/// Each target's key, and where each key goes.
#[derive(Clone, Debug, Default)]
pub struct Keys {
    /// Each target's key, in plan order.
    pub keys: Vec<Option<Key>>,
    /// One line per variable and origin, in plan order.
    pub routes: Vec<KeyRoute>,
}

/// Why a plan's keys are refused, before anything is sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyRefusal {
    /// A target needs a key and none is tied to its host.
    Missing {
        /// The target's label.
        label: String,
        /// Its origin.
        origin: Origin,
        /// Variables that would give it a key, most specific first.
        variables: Vec<String>,
    },
    /// A target names a provider (or `FIRSTTOKEN_KEY` is set) but points at
    /// a host that is not the provider's, where its key must not go.
    NotTheProvidersHost {
        /// The target's label.
        label: String,
        /// The provider's id as the plan names it.
        provider: String,
        /// The target's origin, or `None` when its base URL has none.
        origin: Option<Origin>,
        /// The preset's own origins.
        owned: Vec<Origin>,
        /// The variable that is set and would have gone there.
        variable: String,
    },
    /// `FIRSTTOKEN_KEY` is set but the targets needing it have several origins.
    FallbackAcrossOrigins {
        /// Each origin with the labels of its targets.
        origins: Vec<(Origin, Vec<String>)>,
    },
    /// A `--key` names a variable that is not set.
    UnsetBinding {
        /// The option as written.
        written: String,
        /// The variable.
        variable: String,
    },
    /// Two `--key` options tie different variables to one target's host.
    AmbiguousBinding {
        /// The target's label.
        label: String,
        /// The options as written.
        written: Vec<String>,
    },
}

/// `'a', 'b'`.
fn quoted_list(labels: &[String]) -> String {
    labels
        .iter()
        .map(|l| format!("'{l}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How to tie a key to this origin: `--key HOST=VARIABLE` (with the scheme
/// when plain HTTP) and, where one exists, the variable.
fn how_to_tie(origin: &Origin) -> String {
    let flag = if origin.scheme == Scheme::Https {
        format!("--key {}=VARIABLE", origin.host_port())
    } else {
        format!("--key {origin}=VARIABLE")
    };
    match host_variable(origin) {
        Some(variable) => format!("{flag} or set {variable}"),
        None => flag,
    }
}

impl fmt::Display for KeyRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing {
                label,
                origin,
                variables,
            } => {
                write!(f, "target '{label}' needs a key for {origin}: ")?;
                if !variables.is_empty() {
                    write!(f, "set {}, or ", variables.join(" or "))?;
                }
                write!(f, "tie one to the host with {}", how_to_tie(origin))
            }
            Self::NotTheProvidersHost {
                label,
                provider,
                origin,
                owned,
                variable,
            } => {
                let name = preset_by_id(provider).map_or(provider.as_str(), |p| p.name);
                let hosts: Vec<String> = owned.iter().map(ToString::to_string).collect();
                let own = if hosts.is_empty() {
                    format!("{name} has no host of its own")
                } else {
                    format!("{name}'s own host is {}", hosts.join(" or "))
                };
                match origin {
                    Some(origin) => write!(
                        f,
                        "target '{label}' names provider {provider} but sends to {origin}, a \
                         custom host ({own}): {variable} is never sent there. To send a key to \
                         {}, tie one to it with {}; or remove \"provider\" from the target",
                        origin.host_port(),
                        how_to_tie(origin)
                    ),
                    None => write!(
                        f,
                        "target '{label}' names provider {provider} but its base URL has no \
                         origin a key can be tied to ({own}): {variable} is never sent there"
                    ),
                }
            }
            Self::FallbackAcrossOrigins { origins } => {
                let listed: Vec<String> = origins
                    .iter()
                    .map(|(origin, labels)| format!("{origin} ({})", quoted_list(labels)))
                    .collect();
                let ties: Vec<String> = origins.iter().map(|(o, _)| how_to_tie(o)).collect();
                write!(
                    f,
                    "{FALLBACK_VARIABLE} is sent only when every target that needs a key has \
                     the same origin, and this plan's go to {}. Tie a key to each host instead: \
                     {}",
                    listed.join(", "),
                    ties.join("; ")
                )
            }
            Self::UnsetBinding { written, variable } => write!(
                f,
                "--key {written}: {variable} is not set (or is empty); set it to the key for \
                 that host"
            ),
            Self::AmbiguousBinding { label, written } => write!(
                f,
                "target '{label}': several --key options tie different variables to its host \
                 ({}); keep one",
                written
                    .iter()
                    .map(|w| format!("--key {w}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// A variable's value, trimmed; empty counts as unset.
fn read(lookup: &impl Fn(&str) -> Option<String>, name: &str) -> Option<Key> {
    lookup(name)
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty())
        .map(Key)
}

/// What rules 1–3 give one target.
enum Specific {
    /// A key tied to its host or its preset, from this variable.
    Key(Key, String),
    /// A refusal.
    Refused(KeyRefusal),
    /// Nothing specific: rule 4 or no key.
    Nothing,
}

fn specific_key(
    target: &Target,
    origin: Option<&Origin>,
    bindings: &[KeyBinding],
    lookup: &impl Fn(&str) -> Option<String>,
) -> Specific {
    if let Some(origin) = origin {
        let matching: Vec<&KeyBinding> =
            bindings.iter().filter(|b| b.host.matches(origin)).collect();
        if let Some(first) = matching.first() {
            if matching.iter().any(|b| b.variable != first.variable) {
                return Specific::Refused(KeyRefusal::AmbiguousBinding {
                    label: target.label.clone(),
                    written: matching.iter().map(|b| b.written.clone()).collect(),
                });
            }
            return match read(lookup, &first.variable) {
                Some(key) => Specific::Key(key, first.variable.clone()),
                None => Specific::Refused(KeyRefusal::UnsetBinding {
                    written: first.written.clone(),
                    variable: first.variable.clone(),
                }),
            };
        }
        if let Some(variable) = host_variable(origin)
            && let Some(key) = read(lookup, &variable)
        {
            return Specific::Key(key, variable);
        }
    }
    let Some(provider) = target.provider.as_deref() else {
        return Specific::Nothing;
    };
    let variable = provider_variable(provider);
    let Some(key) = read(lookup, &variable) else {
        return Specific::Nothing;
    };
    let owned = preset_by_id(provider)
        .map(|p| p.origins())
        .unwrap_or_default();
    match origin {
        Some(origin) if owned.contains(origin) => Specific::Key(key, variable),
        _ => Specific::Refused(KeyRefusal::NotTheProvidersHost {
            label: target.label.clone(),
            provider: provider.to_owned(),
            origin: origin.cloned(),
            owned,
            variable,
        }),
    }
}

/// Each target's key, in plan order, by the rules in this module's
/// documentation, read through `lookup` (the process environment in the
/// binary, a map in tests). An empty variable counts as unset.
///
/// # Errors
/// Every refusal, so one message can list them all; nothing has been sent.
pub fn keys_for(
    plan: &Plan,
    bindings: &[KeyBinding],
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<Keys, Vec<KeyRefusal>> {
    let mut keys: Vec<Option<(Key, String)>> = Vec::with_capacity(plan.targets.len());
    let mut refusals = Vec::new();
    // Targets left for FIRSTTOKEN_KEY, by origin.
    let mut fallback: BTreeMap<Origin, Vec<usize>> = BTreeMap::new();
    let fallback_key = read(&lookup, FALLBACK_VARIABLE);
    for (index, target) in plan.targets.iter().enumerate() {
        let origin = key_origin(target);
        match specific_key(target, origin.as_ref(), bindings, &lookup) {
            Specific::Key(key, variable) => {
                keys.push(Some((key, variable)));
                continue;
            }
            Specific::Refused(refusal) => refusals.push(refusal),
            Specific::Nothing => {
                if let Some(origin) = needed_key(target) {
                    if !is_custom_host(target) {
                        fallback.entry(origin).or_default().push(index);
                    } else if fallback_key.is_some() {
                        refusals.push(KeyRefusal::NotTheProvidersHost {
                            label: target.label.clone(),
                            provider: target.provider.clone().unwrap_or_default(),
                            owned: target
                                .provider
                                .as_deref()
                                .and_then(preset_by_id)
                                .map(|p| p.origins())
                                .unwrap_or_default(),
                            origin: Some(origin),
                            variable: FALLBACK_VARIABLE.to_owned(),
                        });
                    } else {
                        refusals.push(KeyRefusal::Missing {
                            label: target.label.clone(),
                            origin,
                            variables: Vec::new(),
                        });
                    }
                }
            }
        }
        keys.push(None);
    }
    match (&fallback_key, fallback.len()) {
        (_, 0) => {}
        (Some(key), 1) => {
            for indices in fallback.values() {
                for &index in indices {
                    keys[index] = Some((key.clone(), FALLBACK_VARIABLE.to_owned()));
                }
            }
        }
        (Some(_), _) => refusals.push(KeyRefusal::FallbackAcrossOrigins {
            origins: fallback
                .iter()
                .map(|(origin, indices)| {
                    (
                        origin.clone(),
                        indices
                            .iter()
                            .map(|&i| plan.targets[i].label.clone())
                            .collect(),
                    )
                })
                .collect(),
        }),
        (None, many) => {
            // In plan order, so the message reads as the plan does.
            let mut waiting: Vec<(usize, &Origin)> = fallback
                .iter()
                .flat_map(|(origin, indices)| indices.iter().map(move |&i| (i, origin)))
                .collect();
            waiting.sort_by_key(|(index, _)| *index);
            for (index, origin) in waiting {
                {
                    let target = &plan.targets[index];
                    let mut variables = Vec::new();
                    if let Some(provider) = target.provider.as_deref() {
                        variables.push(provider_variable(provider));
                    }
                    if many == 1 {
                        variables.push(FALLBACK_VARIABLE.to_owned());
                    }
                    refusals.push(KeyRefusal::Missing {
                        label: target.label.clone(),
                        origin: origin.clone(),
                        variables,
                    });
                }
            }
        }
    }
    refusals.dedup();
    if !refusals.is_empty() {
        return Err(refusals);
    }
    let mut routes: Vec<KeyRoute> = Vec::new();
    for (target, entry) in plan.targets.iter().zip(&keys) {
        let (Some((_, variable)), Some(origin)) = (entry, key_origin(target)) else {
            continue;
        };
        match routes
            .iter_mut()
            .find(|r| r.variable == *variable && r.origin == origin)
        {
            Some(route) => route.targets.push(target.label.clone()),
            None => routes.push(KeyRoute {
                variable: variable.clone(),
                origin,
                targets: vec![target.label.clone()],
            }),
        }
    }
    Ok(Keys {
        keys: keys.into_iter().map(|e| e.map(|(key, _)| key)).collect(),
        routes,
    })
}

/// Every key of a run, as text for core's one redaction rule.
pub fn key_texts(keys: &[Option<Key>]) -> Vec<&str> {
    keys.iter().flatten().map(|key| key.0.as_str()).collect()
}

/// `text` with every occurrence of a key replaced by `[key]`: the last
/// guard before anything is written or printed (a provider may quote the
/// key it refused), by core's one rule (`sample::redact_keys`).
pub fn redact(text: &str, keys: &[Option<Key>]) -> String {
    firsttoken_core::wire::sample::redact_keys(text, &key_texts(keys))
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        }
    }

    fn binding(text: &str) -> KeyBinding {
        text.parse().unwrap()
    }

    fn exposed(keys: &Keys) -> Vec<Option<&str>> {
        keys.keys
            .iter()
            .map(|k| k.as_ref().map(Key::expose))
            .collect()
    }

    fn refusals(result: Result<Keys, Vec<KeyRefusal>>) -> Vec<String> {
        result
            .unwrap_err()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn variable_names() {
        assert_eq!(provider_variable("deepseek"), "FIRSTTOKEN_KEY_DEEPSEEK");
        assert_eq!(
            provider_variable("moonshot-ai"),
            "FIRSTTOKEN_KEY_MOONSHOT_AI"
        );
        let host = |url: &str| host_variable(&Origin::parse(url).unwrap());
        assert_eq!(
            host("https://llm.my-corp.example/v1").as_deref(),
            Some("FIRSTTOKEN_KEY_FOR_LLM_MY_CORP_EXAMPLE")
        );
        assert_eq!(
            host("https://llm.example.com:8443").as_deref(),
            Some("FIRSTTOKEN_KEY_FOR_LLM_EXAMPLE_COM_8443")
        );
        assert_eq!(
            host("http://localhost:8000/v1").as_deref(),
            Some("FIRSTTOKEN_KEY_FOR_LOCALHOST_8000")
        );
        assert_eq!(
            host("http://[::1]:8787").as_deref(),
            Some("FIRSTTOKEN_KEY_FOR____1__8787")
        );
        // Plain HTTP to another machine takes an explicit --key with its scheme.
        assert_eq!(host("http://gpu-box:8000"), None);
    }

    #[test]
    fn key_options_parse_hosts_ports_and_origins() {
        let origin = |url: &str| Origin::parse(url).unwrap();
        let b = binding("LLM.example.com=MY_KEY");
        assert_eq!(b.variable, "MY_KEY");
        assert!(b.host.matches(&origin("https://llm.example.com/v1")));
        assert!(!b.host.matches(&origin("http://llm.example.com")));
        assert!(!b.host.matches(&origin("https://llm.example.com:8443")));
        assert!(!b.host.matches(&origin("https://evil.llm.example.com")));
        let b = binding("llm.example.com:8443=K");
        assert!(b.host.matches(&origin("https://llm.example.com:8443")));
        assert!(!b.host.matches(&origin("https://llm.example.com")));
        let b = binding("localhost:8000=K");
        assert!(b.host.matches(&origin("http://localhost:8000/v1")));
        assert!(b.host.matches(&origin("https://localhost:8000")));
        let b = binding("[::1]=K");
        assert!(b.host.matches(&origin("http://[::1]")));
        assert!(b.host.matches(&origin("https://[::1]")));
        let b = binding("http://gpu-box:8000=K");
        assert!(b.host.matches(&origin("http://gpu-box:8000/v1")));
        assert!(!b.host.matches(&origin("https://gpu-box:8000")));
        for bad in [
            "llm.example.com",
            "llm.example.com=",
            "llm.example.com=sk-abc",
            "=K",
            "user@llm.example.com=K",
            "llm.example.com/v1=K",
            "ftp://llm.example.com=K",
            "llm.example.com:99999=K",
        ] {
            assert!(bad.parse::<KeyBinding>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_provider_key_goes_to_its_own_host_and_the_fallback_to_one_origin() {
        let p = plan(vec![
            target("a", Some("deepseek"), "https://api.deepseek.com"),
            target("b", Some("openai"), "https://api.openai.com/v1"),
            target("c", Some("openai"), "https://API.openai.com:443/v1"),
        ]);
        let keys = keys_for(
            &p,
            &[],
            env(&[
                ("FIRSTTOKEN_KEY_DEEPSEEK", "sk-deep"),
                ("FIRSTTOKEN_KEY", "sk-any"),
            ]),
        )
        .unwrap();
        assert_eq!(
            exposed(&keys),
            [Some("sk-deep"), Some("sk-any"), Some("sk-any")]
        );
        assert_eq!(format!("{:?}", keys.keys[0]), "Some(Key(…))");
        let routes: Vec<String> = keys.routes.iter().map(ToString::to_string).collect();
        assert_eq!(
            routes,
            [
                "key FIRSTTOKEN_KEY_DEEPSEEK goes to https://api.deepseek.com ('a')",
                "key FIRSTTOKEN_KEY goes to https://api.openai.com ('b', 'c')",
            ]
        );
    }

    #[test]
    fn a_provider_key_is_refused_for_a_custom_host() {
        let p = plan(vec![
            target("ok", Some("deepseek"), "https://api.deepseek.com"),
            target("evil", Some("deepseek"), "https://collector.example/v1"),
            target("local", Some("deepseek"), "http://127.0.0.1:8787/v1"),
        ]);
        let lookup = env(&[("FIRSTTOKEN_KEY_DEEPSEEK", "sk-deep")]);
        assert_eq!(
            refusals(keys_for(&p, &[], &lookup)),
            [
                "target 'evil' names provider deepseek but sends to https://collector.example, \
                 a custom host (DeepSeek's own host is https://api.deepseek.com): \
                 FIRSTTOKEN_KEY_DEEPSEEK is never sent there. To send a key to \
                 collector.example, tie one to it with --key collector.example=VARIABLE or set \
                 FIRSTTOKEN_KEY_FOR_COLLECTOR_EXAMPLE; or remove \"provider\" from the target",
                "target 'local' names provider deepseek but sends to http://127.0.0.1:8787, a \
                 custom host (DeepSeek's own host is https://api.deepseek.com): \
                 FIRSTTOKEN_KEY_DEEPSEEK is never sent there. To send a key to 127.0.0.1:8787, \
                 tie one to it with --key http://127.0.0.1:8787=VARIABLE or set \
                 FIRSTTOKEN_KEY_FOR_127_0_0_1_8787; or remove \"provider\" from the target",
            ]
        );
        // Tied explicitly, each host gets its own key, and the provider's
        // key still goes only to its own host.
        let lookup = env(&[
            ("FIRSTTOKEN_KEY_DEEPSEEK", "sk-deep"),
            ("COLLECTOR", "sk-collector"),
            ("FIRSTTOKEN_KEY_FOR_127_0_0_1_8787", "sk-local"),
        ]);
        let keys = keys_for(&p, &[binding("collector.example=COLLECTOR")], &lookup).unwrap();
        assert_eq!(
            exposed(&keys),
            [Some("sk-deep"), Some("sk-collector"), Some("sk-local")]
        );
    }

    #[test]
    fn the_fallback_is_refused_across_origins_and_for_custom_hosts() {
        let lookup = env(&[("FIRSTTOKEN_KEY", "sk-any")]);
        let p = plan(vec![
            target("a", Some("openai"), "https://api.openai.com/v1"),
            target("b", None, "https://llm.example.com/v1"),
            target("c", None, "https://llm.example.com/v2"),
        ]);
        assert_eq!(
            refusals(keys_for(&p, &[], &lookup)),
            [
                "FIRSTTOKEN_KEY is sent only when every target that needs a key has the same \
                 origin, and this plan's go to https://api.openai.com ('a'), \
                 https://llm.example.com ('b', 'c'). Tie a key to each host instead: --key \
                 api.openai.com=VARIABLE or set FIRSTTOKEN_KEY_FOR_API_OPENAI_COM; --key \
                 llm.example.com=VARIABLE or set FIRSTTOKEN_KEY_FOR_LLM_EXAMPLE_COM"
            ]
        );
        // With the OpenAI target keyed by its provider, one origin is left.
        let lookup = env(&[
            ("FIRSTTOKEN_KEY", "sk-any"),
            ("FIRSTTOKEN_KEY_OPENAI", "sk-oa"),
        ]);
        let keys = keys_for(&p, &[], &lookup).unwrap();
        assert_eq!(
            exposed(&keys),
            [Some("sk-oa"), Some("sk-any"), Some("sk-any")]
        );
        // A single custom-host target never takes the fallback.
        let p = plan(vec![target(
            "x",
            Some("openai"),
            "https://collector.example/v1",
        )]);
        let lookup = env(&[("FIRSTTOKEN_KEY", "sk-any")]);
        let text = refusals(keys_for(&p, &[], &lookup));
        assert_eq!(text.len(), 1);
        assert!(
            text[0].contains("FIRSTTOKEN_KEY is never sent there"),
            "{text:?}"
        );
    }

    #[test]
    fn local_servers_and_loopback_get_no_key_unless_tied() {
        let p = plan(vec![
            target("vLLM", Some("vllm"), "http://localhost:8000/v1"),
            target("remote vLLM", Some("vllm"), "http://gpu-box:8000/v1"),
            target("mock", None, "http://127.0.0.1:8787/v1"),
            target("hosted", None, "https://llm.example.com/v1"),
        ]);
        let keys = keys_for(&p, &[], env(&[("FIRSTTOKEN_KEY", "sk-any")])).unwrap();
        assert_eq!(exposed(&keys), [None, None, None, Some("sk-any")]);
        let lookup = env(&[
            ("FIRSTTOKEN_KEY", "sk-any"),
            ("FIRSTTOKEN_KEY_VLLM", "sk-vllm"),
            ("GPU", "sk-gpu"),
        ]);
        let keys = keys_for(&p, &[binding("http://gpu-box:8000=GPU")], lookup).unwrap();
        assert_eq!(
            exposed(&keys),
            [Some("sk-vllm"), Some("sk-gpu"), None, Some("sk-any")]
        );
    }

    #[test]
    fn a_missing_key_says_how_to_give_one() {
        let p = plan(vec![
            target("DeepSeek", Some("deepseek"), "https://api.deepseek.com"),
            target("vLLM", Some("vllm"), "http://gpu-box:8000/v1"),
            target("mock", None, "http://127.0.0.1:8787/v1"),
            target("plain", None, "http://llm.example.com/v1"),
        ]);
        assert_eq!(
            refusals(keys_for(&p, &[], env(&[("FIRSTTOKEN_KEY", "  ")]))),
            [
                "target 'DeepSeek' needs a key for https://api.deepseek.com: set \
                 FIRSTTOKEN_KEY_DEEPSEEK, or tie one to the host with --key \
                 api.deepseek.com=VARIABLE or set FIRSTTOKEN_KEY_FOR_API_DEEPSEEK_COM",
                "target 'plain' needs a key for http://llm.example.com: tie one to the host \
                 with --key http://llm.example.com=VARIABLE",
            ]
        );
        let p = plan(vec![target("one", None, "https://llm.example.com/v1")]);
        assert_eq!(
            refusals(keys_for(&p, &[], env(&[]))),
            [
                "target 'one' needs a key for https://llm.example.com: set FIRSTTOKEN_KEY, or \
                 tie one to the host with --key llm.example.com=VARIABLE or set \
                 FIRSTTOKEN_KEY_FOR_LLM_EXAMPLE_COM"
            ]
        );
    }

    #[test]
    fn the_runner_asks_for_exactly_the_keys_core_says_a_plan_needs() {
        // The page's resume asks for the same origins (`ui::model::keys::missing_keys`).
        let p = plan(vec![
            target("no provider", None, "https://llm.example.com/v1"),
            target("local", None, "http://127.0.0.1:8787/v1"),
            target("remote vLLM", Some("vllm"), "http://gpu-box:8000/v1"),
            target("DeepSeek", Some("deepseek"), "https://api.deepseek.com"),
        ]);
        let missing: Vec<Origin> = keys_for(&p, &[], env(&[]))
            .unwrap_err()
            .into_iter()
            .filter_map(|refusal| match refusal {
                KeyRefusal::Missing { origin, .. } => Some(origin),
                _ => None,
            })
            .collect();
        assert_eq!(
            missing,
            firsttoken_core::planning::key_rules::needed_keys(&p)
        );
        assert_eq!(missing.len(), 2);
    }

    #[test]
    fn key_options_must_name_a_set_variable_and_agree() {
        let p = plan(vec![target("one", None, "https://llm.example.com/v1")]);
        assert_eq!(
            refusals(keys_for(&p, &[binding("llm.example.com=NOPE")], env(&[]))),
            [
                "--key llm.example.com=NOPE: NOPE is not set (or is empty); set it to the key for \
              that host"
            ]
        );
        let both = [
            binding("llm.example.com=A"),
            binding("https://llm.example.com:443=B"),
        ];
        let text = refusals(keys_for(&p, &both, env(&[("A", "a"), ("B", "b")])));
        assert!(text[0].contains("several --key options"), "{text:?}");
        // An option for a host the plan does not use is harmless.
        let keys = keys_for(
            &p,
            &[binding("other.example=NOPE"), binding("llm.example.com=A")],
            env(&[("A", "sk-a")]),
        )
        .unwrap();
        assert_eq!(exposed(&keys), [Some("sk-a")]);
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
