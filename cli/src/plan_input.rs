//! Where a plan comes from: a plan file, standard input (`-`), or a page
//! link that carries `#plan=`. All three end in `core`'s one reader, so a bad
//! plan gets the same messages as in the page.

use std::io::Read;
use std::path::Path;

use firsttoken_core::planning::plan::{Plan, PlanError};

/// Why no plan could be read.
#[derive(Debug)]
pub enum PlanInputError {
    /// The file or standard input could not be read.
    Io {
        /// The file, or `standard input`.
        source: String,
        /// What the system said.
        detail: String,
    },
    /// The text was read but is not a valid plan.
    Plan {
        /// The file, link or `standard input`.
        source: String,
        /// What the plan reader said.
        error: PlanError,
    },
}

impl std::fmt::Display for PlanInputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Io { source, detail } => {
                write!(f, "cannot read the plan from {source}: {detail}")
            }
            Self::Plan { source, error } => {
                let messages = error.messages();
                if let [one] = messages.as_slice() {
                    write!(f, "{source}: {one}")
                } else {
                    write!(f, "{source}: the plan has {} bad fields:", messages.len())?;
                    for message in &messages {
                        write!(f, "\n  - {message}")?;
                    }
                    Ok(())
                }
            }
        }
    }
}

impl std::error::Error for PlanInputError {}

/// Reads the plan named by `argument`: `-` for standard input, a link with
/// `#plan=` (anything containing `://` or starting with `#`), or a file.
///
/// # Errors
/// [`PlanInputError`] when it cannot be read or is not a valid plan.
pub fn load_plan(argument: &str) -> Result<Plan, PlanInputError> {
    if argument == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| PlanInputError::Io {
                source: "standard input".to_owned(),
                detail: e.to_string(),
            })?;
        return parse(&text, "standard input");
    }
    if argument.contains("://") || argument.starts_with('#') || argument.contains("#plan=") {
        let fragment = argument
            .split_once('#')
            .map_or("", |(_, fragment)| fragment);
        return Plan::from_link_fragment(fragment).map_err(|error| PlanInputError::Plan {
            source: "the link".to_owned(),
            error,
        });
    }
    let path = Path::new(argument);
    let text = std::fs::read_to_string(path).map_err(|e| PlanInputError::Io {
        source: argument.to_owned(),
        detail: e.to_string(),
    })?;
    parse(&text, argument)
}

/// A plan file as written by hand: a target naming a preset gets the
/// preset's protocol, base URL and label where it leaves them out.
fn parse(text: &str, source: &str) -> Result<Plan, PlanInputError> {
    firsttoken_core::planning::presets::plan_from_json(text).map_err(|error| PlanInputError::Plan {
        source: source.to_owned(),
        error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_link_and_a_file_give_the_same_plan() {
        let plan = Plan {
            targets: vec![firsttoken_core::planning::plan::Target {
                provider: Some("deepseek".to_owned()),
                ..firsttoken_core::planning::plan::Target::openai(
                    "DeepSeek",
                    "https://api.deepseek.com",
                    "deepseek-chat",
                )
            }],
            ..Plan::default()
        };
        let link = format!(
            "https://example.github.io/firsttoken/#{}",
            plan.to_link_fragment()
        );
        let from_link = load_plan(&link).unwrap();
        let dir = std::env::temp_dir().join(format!("firsttoken-plan-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("plan.json");
        std::fs::write(&file, plan.to_json_pretty()).unwrap();
        let from_file = load_plan(file.to_str().unwrap()).unwrap();
        assert_eq!(from_link, from_file);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_link_without_a_plan_and_a_missing_file_say_so() {
        let error = load_plan("https://example.github.io/firsttoken/").unwrap_err();
        assert!(error.to_string().contains("#plan="), "{error}");
        let error = load_plan("/nonexistent/plan.json").unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("cannot read the plan from /nonexistent/plan.json"),
            "{error}"
        );
    }

    #[test]
    fn bad_fields_are_listed_one_per_line() {
        let error = parse(
            r#"{"firsttoken_plan": 1, "requests_per_target": 0, "timeout_s": -1}"#,
            "plan.json",
        )
        .unwrap_err()
        .to_string();
        assert!(error.starts_with("plan.json: the plan has"), "{error}");
        assert!(error.contains("\n  - "), "{error}");
    }
}
