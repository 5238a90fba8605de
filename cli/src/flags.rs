//! A plan from the command line: `--target PROVIDER:MODEL[@BASE_URL]` and
//! the plan's numbers as flags, for `run`, `check` and `plan`. The flags
//! only carry what was typed to `core`'s [`PlanFlags`], which decides the
//! defaults, the labels and the jitter and builds the page's own plan
//! document; this file saves it, prints its link and lists the presets.

use std::path::PathBuf;

use clap::Args;
use firsttoken_core::base::lang::Lang;
use firsttoken_core::base::printable::printable_lines;
use firsttoken_core::planning::key_rules::preset_key_variable;
use firsttoken_core::planning::plan::{Plan, PlanError};
use firsttoken_core::planning::plan_flags::{PlanFlags, TargetSpec};
use firsttoken_core::planning::presets::PRESETS;

use crate::error::CliError;
use crate::plan_input::load_plan;

/// The variable that names where the page lives, for `--print-link`.
pub const PAGE_URL_VARIABLE: &str = "FIRSTTOKEN_PAGE_URL";

/// The plan's flags. Every number is optional here: `core` holds the
/// defaults, so the page and the runner share them.
#[derive(Debug, Default, Args)]
pub struct PlanArgs {
    /// A target to measure: PROVIDER:MODEL, or PROVIDER:MODEL@BASE_URL for
    /// another endpoint. PROVIDER is a preset id (`firsttoken providers`),
    /// `custom` for any OpenAI-compatible server (it needs @BASE_URL), or
    /// `demo` for the built-in demo. The model keeps any `:`, `/` or `@` of
    /// its own: ollama:qwen3:8b, together:deepseek-ai/DeepSeek-V3,
    /// custom:my-model@http://localhost:8000/v1. Repeatable; targets are
    /// interleaved.
    #[arg(
        long = "target",
        short = 't',
        value_name = "PROVIDER:MODEL[@BASE_URL]",
        value_parser = parse_target,
        conflicts_with = "plan"
    )]
    pub targets: Vec<TargetSpec>,
    /// Measured requests per target [default: 100; below 75 a cold-start
    /// tail is easily missed].
    #[arg(short = 'n', long, value_name = "N", requires = "targets")]
    pub requests: Option<u32>,
    /// Warm-up requests per target, kept but left out of the statistics
    /// [default: 2].
    #[arg(long, value_name = "N", requires = "targets")]
    pub warmup: Option<u32>,
    /// Seconds between sends, across all targets [default: 5]. With
    /// --idle-gaps it spaces the warm-ups and probes only: each measured
    /// request waits its own gap.
    #[arg(long, value_name = "SECONDS", requires = "targets", value_parser = seconds)]
    pub spacing: Option<f64>,
    /// Each send moves by up to ± this many seconds [default: a fifth of
    /// the spacing]. One that is not under half the spacing is narrowed to
    /// fit, with a note.
    #[arg(long, value_name = "SECONDS", requires = "targets", value_parser = seconds)]
    pub jitter: Option<f64>,
    /// Spread the run evenly over this many hours instead of a spacing.
    #[arg(
        long,
        value_name = "H",
        requires = "targets",
        conflicts_with = "spacing"
    )]
    pub hours: Option<f64>,
    /// Seconds to wait for a first token [default: 120; cold starts last
    /// 10-90 s].
    #[arg(long, value_name = "SECONDS", requires = "targets", value_parser = seconds)]
    pub timeout: Option<f64>,
    /// The prompt sent with every request [default: a fixed short
    /// question].
    #[arg(long, value_name = "TEXT", requires = "targets")]
    pub prompt: Option<String>,
    /// Send the prompt as it is: no per-request nonce (a provider's prompt
    /// cache may then serve it).
    #[arg(long, requires = "targets")]
    pub no_nonce: bool,
    /// Upper bound on each reply's length, in tokens [default: 64].
    #[arg(long, value_name = "N", requires = "targets")]
    pub max_tokens: Option<u32>,
    /// Add the fidelity check: the basic-1 probes twice on the same
    /// schedule, judged against the first target.
    #[arg(long, requires = "targets")]
    pub fidelity: bool,
    /// Measure when the model goes cold: before each measured request a
    /// target sits idle (from this client) for one of these gaps, in
    /// seconds, each equally often in a shuffled order, e.g. 10,60,300,900
    /// [default: none; at least 15 requests per gap].
    #[arg(
        long,
        value_name = "SECONDS,...",
        value_delimiter = ',',
        num_args = 1..,
        requires = "targets",
        value_parser = seconds
    )]
    pub idle_gaps: Option<Vec<f64>>,
    /// Stop as soon as the plan's questions are decided: which target is
    /// faster, and with --fail-on whether each target meets each median,
    /// p90, p95 or p99 objective (anytime-valid tests sharing 5 %, checked
    /// after every request); -n is then the cap. A target whose questions
    /// are decided stops at its floor and the others go on. Says what was
    /// decided; exits as a completed run either way, unless --fail-on
    /// says otherwise (3, 4).
    #[arg(long, requires = "targets")]
    pub until_decided: bool,
    /// With --until-decided, the least requests per target before a
    /// decision may stop the run [default: 75; a cold-start tail needs
    /// them].
    #[arg(long, value_name = "N", requires = "until_decided")]
    pub min_requests: Option<u32>,
    /// With --until-decided, also ask whether each pair of targets is
    /// equivalent within this many percent ("10" or "10%": a typical
    /// request to one takes 90–110 % of the other's time); a pair found
    /// equivalent is decided as one found faster is. 1 to 50.
    #[arg(long, value_name = "PCT", requires = "until_decided", value_parser = percent)]
    pub equivalent_within: Option<f64>,
}

/// A percentage as typed ("10" or "10%"); anything else is said with the
/// value as typed.
fn percent(value: &str) -> Result<f64, String> {
    value
        .trim()
        .trim_end_matches('%')
        .trim()
        .parse::<f64>()
        .map_err(|_| format!("\"{value}\" is not a percentage"))
}

/// A number of seconds as typed ("2.5"); anything else is said with the
/// value as typed, as the page says it ("\"2m\" is not a number of
/// seconds"), not as the float parser's "invalid float literal".
fn seconds(value: &str) -> Result<f64, String> {
    value
        .trim()
        .parse::<f64>()
        .map_err(|_| format!("\"{value}\" is not a number of seconds"))
}

/// Where the plan goes besides the run: a file, a page link.
#[derive(Debug, Default, Args)]
pub struct ShareArgs {
    /// Write the plan (plan v1 JSON, which the page's Load plan reads) to
    /// this file.
    #[arg(long, value_name = "PLAN.json")]
    pub save_plan: Option<PathBuf>,
    /// Print the page link that opens this plan (`#plan=…`), after the
    /// page's address from --page-url or FIRSTTOKEN_PAGE_URL.
    #[arg(long)]
    pub print_link: bool,
    /// Where the page lives, for --print-link
    /// (e.g. https://you.github.io/firsttoken/).
    #[arg(long, value_name = "URL", requires = "print_link")]
    pub page_url: Option<String>,
}

/// `--target`'s parser: core's reading of the spec.
fn parse_target(spec: &str) -> Result<TargetSpec, String> {
    TargetSpec::parse(spec).map_err(|e| e.to_string())
}

impl PlanArgs {
    /// Whether any target was given (the plan comes from the flags).
    pub fn given(&self) -> bool {
        !self.targets.is_empty()
    }

    /// The flags as core's [`PlanFlags`], defaults filled in by core.
    pub fn to_flags(&self) -> PlanFlags {
        let defaults = PlanFlags::default();
        PlanFlags {
            targets: self.targets.clone(),
            requests_per_target: self.requests.unwrap_or(defaults.requests_per_target),
            warmup_per_target: self.warmup.unwrap_or(defaults.warmup_per_target),
            spacing_s: self.spacing.unwrap_or(defaults.spacing_s),
            jitter_s: self.jitter,
            spread_hours: self.hours,
            timeout_s: self.timeout.unwrap_or(defaults.timeout_s),
            prompt: self.prompt.clone(),
            nonce: !self.no_nonce && defaults.nonce,
            max_tokens: self.max_tokens,
            fidelity: self.fidelity,
            idle_gaps_s: self.idle_gaps.clone(),
            until_decided: self.until_decided,
            min_requests_per_target: self.min_requests,
            equivalent_within_pct: self.equivalent_within,
        }
    }

    /// A bad field of the plan the flags made, said by the flag that set
    /// it and its value as given: "--idle-gaps 0,5: must list …" rather
    /// than the plan file's "idle_gaps_s: …". A field no flag sets (one the
    /// flags leave at its default) keeps its plan name.
    pub fn flag_message(&self, field: &str, message: &str) -> String {
        let number = |value: Option<f64>| value.map(|v| v.to_string());
        let count = |value: Option<u32>| value.map(|v| v.to_string());
        let given: Option<(&str, Option<String>)> = match field {
            "requests_per_target" => Some(("-n", count(self.requests))),
            "warmup_per_target" => Some(("--warmup", count(self.warmup))),
            "spacing_s" => Some(("--spacing", number(self.spacing))),
            "jitter_s" => Some(("--jitter", number(self.jitter))),
            "spread_hours" => Some(("--hours", number(self.hours))),
            "timeout_s" => Some(("--timeout", number(self.timeout))),
            "max_tokens" => Some(("--max-tokens", count(self.max_tokens))),
            "min_requests_per_target" => Some(("--min-requests", count(self.min_requests))),
            "equivalent_within_pct" => {
                Some(("--equivalent-within", number(self.equivalent_within)))
            }
            "prompt" => Some(("--prompt", None)),
            "idle_gaps_s" => Some((
                "--idle-gaps",
                self.idle_gaps.as_ref().map(|gaps| {
                    gaps.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(",")
                }),
            )),
            _ => None,
        };
        let target = field
            .strip_prefix("targets[")
            .and_then(|rest| rest.split_once(']'))
            .and_then(|(index, _)| index.parse::<usize>().ok())
            .and_then(|index| self.targets.get(index).map(|spec| (index, spec)));
        // Gaps refused for want of a warm-up: the flag that fixes it too.
        let with = match (field, self.warmup) {
            ("idle_gaps_s", Some(0)) => " with --warmup 0",
            _ => "",
        };
        match (given, target) {
            (Some((flag, Some(value))), _) => format!("{flag} {value}{with}: {message}"),
            (Some((flag, None)), _) => format!("{flag}: {message}"),
            (None, Some((index, spec))) => {
                // The base URL is not echoed: it may hold a password, the
                // very thing a base URL is refused for.
                let written = format!("{}:{}", spec.preset.id, spec.model);
                format!(
                    "--target {} (the {} target): {message}",
                    printable_lines(&written),
                    ordinal(index + 1)
                )
            }
            (None, None) => format!("{field}: {message}"),
        }
    }
}

/// "1st", "2nd", "3rd", "4th" … for the targets' places.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The plan the command runs: from the flags (with core's notes said on
/// standard error) or from the plan argument.
///
/// # Errors
/// [`CliError::Input`] for a bad plan, flags that make one, or neither.
pub fn resolve(plan: Option<&str>, args: &PlanArgs) -> Result<Plan, CliError> {
    if args.given() {
        let built = args.to_flags().build().map_err(|error| {
            let messages = match &error {
                PlanError::Invalid(fields) => fields
                    .iter()
                    .map(|field| args.flag_message(&field.field, &field.message()))
                    .collect(),
                other => other.messages(),
            };
            CliError::Input(match messages.as_slice() {
                [one] => format!("the flags' plan: {one}"),
                _ => format!(
                    "the flags' plan has {} bad fields:\n  - {}",
                    messages.len(),
                    messages.join("\n  - ")
                ),
            })
        })?;
        for note in &built.notes {
            eprintln!("note: {}", printable_lines(&note.to_string()));
        }
        return Ok(built.plan);
    }
    match plan {
        Some(argument) => load_plan(argument).map_err(|e| CliError::Input(e.to_string())),
        None => Err(CliError::Input(
            "no plan: give a plan file (or `-`, or a page link), or --target PROVIDER:MODEL, e.g. \
             --target demo:demo-llm"
                .to_owned(),
        )),
    }
}

/// The page link that opens `plan`: the page's address (from `page_url`,
/// else [`PAGE_URL_VARIABLE`]) with the plan in its fragment; just the
/// fragment when neither is set.
pub fn link(plan: &Plan, page_url: Option<&str>, env: impl Fn(&str) -> Option<String>) -> String {
    let page = page_url
        .map(str::to_owned)
        .or_else(|| env(PAGE_URL_VARIABLE))
        .map(|url| url.trim().to_owned())
        .unwrap_or_default();
    // A fragment already on the address is replaced, not doubled.
    let page = page.split('#').next().unwrap_or_default();
    format!("{page}#{}", plan.to_link_fragment())
}

/// Saves the plan and prints its link as `share` asks. The link goes to
/// `say` (standard output for `plan`, standard error for `run`, whose
/// standard output carries the measurements).
///
/// # Errors
/// [`CliError::Failed`] when the plan file cannot be written.
pub fn share(
    plan: &Plan,
    share: &ShareArgs,
    env: impl Fn(&str) -> Option<String>,
    say: impl Fn(&str),
) -> Result<(), CliError> {
    if let Some(path) = &share.save_plan {
        crate::run::write_atomically(path, &plan.to_json_pretty())?;
        eprintln!("plan written to {}", path.display());
    }
    if share.print_link {
        let text = link(plan, share.page_url.as_deref(), &env);
        if text.starts_with('#') {
            eprintln!(
                "note: the link below is the part after the page's address: put the address \
                 first (or set --page-url or {PAGE_URL_VARIABLE})"
            );
        }
        say(&text);
    }
    Ok(())
}

/// Columns the listing fits in: every line of `firsttoken providers` is at
/// most this wide, so a terminal of 100 columns never wraps one.
pub const PROVIDERS_COLUMNS: usize = 100;

/// `firsttoken providers`: one block per preset, its id, protocol and key
/// variable on the first line, its base URL and what is known of its
/// browser access below, indented, the note wrapped between words at
/// `width`, the terminal's, or [`PROVIDERS_COLUMNS`] to a pipe (a Chinese
/// character counts two columns). A table of the five columns ran past
/// 200 characters and wrapped mid-word.
pub fn providers_text(lang: Lang, width: Option<usize>) -> String {
    let (key_word, no_key, access) = match lang {
        Lang::En => ("key", "no key", "browser access: "),
        Lang::ZhCn => ("密钥变量", "无需密钥", "浏览器访问："),
    };
    let indent = "    ";
    let mut text = String::new();
    for preset in PRESETS {
        let key = preset_key_variable(preset).map_or_else(
            || no_key.to_owned(),
            |variable| format!("{key_word} {variable}"),
        );
        let base_url = if preset.base_url.is_empty() {
            "(@BASE_URL)"
        } else {
            preset.base_url
        };
        let note = match lang {
            Lang::En => preset.cors_note_en,
            Lang::ZhCn => preset.cors_note_zh,
        };
        text.push_str(&format!(
            "{} ({}) · {key}\n{indent}{base_url}\n",
            preset.id,
            preset.protocol.as_str()
        ));
        text.push_str(&crate::wrap::fit(
            &format!("{indent}{access}{note}\n"),
            Some(width.unwrap_or(PROVIDERS_COLUMNS)),
        ));
    }
    text
}

/// `firsttoken providers --json`.
pub fn providers_json() -> serde_json::Value {
    serde_json::Value::Array(
        PRESETS
            .iter()
            .map(|preset| {
                serde_json::json!({
                    "id": preset.id,
                    "name": preset.name,
                    "protocol": preset.protocol.as_str(),
                    "base_url": preset.base_url,
                    "needs_key": preset.needs_key,
                    "key_variable": preset_key_variable(preset),
                    "browser_access": preset.cors_note_en,
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_puts_the_plan_after_the_page_s_address() {
        let plan = PlanArgs {
            targets: vec![TargetSpec::parse("demo:demo-llm").unwrap()],
            ..PlanArgs::default()
        }
        .to_flags()
        .build()
        .unwrap()
        .plan;
        let none = |_: &str| None;
        let fragment = link(&plan, None, none);
        assert!(fragment.starts_with("#plan="), "{fragment}");
        let page = link(&plan, Some("https://you.github.io/firsttoken/#old"), none);
        assert_eq!(page, format!("https://you.github.io/firsttoken/{fragment}"));
        let from_env = link(&plan, None, |name: &str| {
            (name == PAGE_URL_VARIABLE).then(|| "http://127.0.0.1:8080/".to_owned())
        });
        assert_eq!(from_env, format!("http://127.0.0.1:8080/{fragment}"));
        assert_eq!(load_plan(&page).unwrap(), plan);
    }

    #[test]
    fn the_providers_list_names_every_preset_and_its_key() {
        let text = providers_text(Lang::En, None);
        for width in [80, 120] {
            let narrow = providers_text(Lang::En, Some(width));
            assert!(
                narrow.lines().all(|l| crate::wrap::columns(l) <= width),
                "{narrow}"
            );
            let zh = providers_text(Lang::ZhCn, Some(width));
            assert!(zh.lines().all(|l| crate::wrap::columns(l) <= width), "{zh}");
        }
        // One block per preset: its first line starts at the margin, the rest indented.
        let blocks: Vec<&str> = text
            .split("\n")
            .filter(|l| !l.starts_with(' ') && !l.is_empty())
            .collect();
        assert_eq!(blocks.len(), PRESETS.len(), "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= 100), "{text}");
        assert!(text.contains("FIRSTTOKEN_KEY_DEEPSEEK"), "{text}");
        assert!(text.contains("FIRSTTOKEN_KEY_FOR_<HOST>"), "{text}");
        let ollama: String = text
            .lines()
            .skip_while(|l| !l.starts_with("ollama "))
            .enumerate()
            .take_while(|(i, l)| *i == 0 || l.starts_with(' '))
            .map(|(_, l)| format!("{l}\n"))
            .collect();
        assert!(ollama.contains("http://localhost:11434/v1"), "{ollama}");
        assert!(ollama.contains("no key"), "{ollama}");
        assert!(ollama.contains("OLLAMA_ORIGINS"), "{ollama}");
    }
}
