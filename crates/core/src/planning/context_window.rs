//! The context windows FirstToken knows for certain: per provider preset,
//! the models whose published window (the most input tokens the model
//! takes) is fixed by name, so a plan can warn before it sends a prompt
//! size the provider will refuse.
//!
//! Only exact model ids are listed, and only where the provider's own model
//! documentation states the window for that id: an alias that moves to new
//! weights (`mistral-large-latest`, `deepseek-chat`), a router that picks
//! the serving provider (OpenRouter) or a server the user runs (vLLM,
//! Ollama) has no entry, and an unknown window warns about nothing. A
//! wrong entry would refuse a size the provider takes, so when in doubt a
//! model is left out.
//!
//! This module imports nothing, so both [`crate::planning::presets`] and the plan's
//! warnings can read it.

/// Models of one preset with a window known for certain: (model id, input
/// tokens).
type Windows = &'static [(&'static str, u32)];

/// OpenAI's published windows.
const OPENAI: Windows = &[
    ("gpt-4o", 128_000),
    ("gpt-4o-2024-05-13", 128_000),
    ("gpt-4o-2024-08-06", 128_000),
    ("gpt-4o-2024-11-20", 128_000),
    ("gpt-4o-mini", 128_000),
    ("gpt-4o-mini-2024-07-18", 128_000),
    ("gpt-4-turbo", 128_000),
    ("gpt-4.1", 1_047_576),
    ("gpt-4.1-mini", 1_047_576),
    ("gpt-4.1-nano", 1_047_576),
    ("gpt-3.5-turbo", 16_385),
];

/// Anthropic's dated model ids, 200 000 tokens without the long-context
/// beta header (which FirstToken does not send).
const ANTHROPIC: Windows = &[
    ("claude-3-haiku-20240307", 200_000),
    ("claude-3-opus-20240229", 200_000),
    ("claude-3-5-sonnet-20240620", 200_000),
    ("claude-3-5-sonnet-20241022", 200_000),
    ("claude-3-5-haiku-20241022", 200_000),
    ("claude-3-7-sonnet-20250219", 200_000),
    ("claude-sonnet-4-20250514", 200_000),
    ("claude-opus-4-20250514", 200_000),
];

/// Google's input-token limits.
const GEMINI: Windows = &[
    ("gemini-1.5-pro", 2_097_152),
    ("gemini-1.5-flash", 1_048_576),
    ("gemini-2.0-flash", 1_048_576),
    ("gemini-2.5-pro", 1_048_576),
    ("gemini-2.5-flash", 1_048_576),
];

/// Moonshot's v1 models carry their window in their name.
const MOONSHOT: Windows = &[
    ("moonshot-v1-8k", 8_192),
    ("moonshot-v1-32k", 32_768),
    ("moonshot-v1-128k", 131_072),
];

/// The context window of `model` served by preset `preset_id`, input
/// tokens; `None` when it is not known for certain. The model id is
/// compared exactly (trimmed, ASCII case ignored).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn context_window(preset_id: &str, model: &str) -> Option<u32> {
    let windows = match preset_id {
        "openai" => OPENAI,
        "anthropic" => ANTHROPIC,
        "gemini" => GEMINI,
        "moonshot-ai" | "moonshot-cn" => MOONSHOT,
        _ => return None,
    };
    let model = model.trim();
    let model = model.strip_prefix("models/").unwrap_or(model);
    windows
        .iter()
        .find(|(id, _)| id.eq_ignore_ascii_case(model))
        .map(|(_, tokens)| *tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_listed_models_of_listed_presets_have_a_window() {
        assert_eq!(context_window("openai", "gpt-4o"), Some(128_000));
        assert_eq!(context_window("openai", " GPT-4o-mini "), Some(128_000));
        assert_eq!(
            context_window("anthropic", "claude-3-5-haiku-20241022"),
            Some(200_000)
        );
        assert_eq!(
            context_window("gemini", "models/gemini-1.5-pro"),
            Some(2_097_152)
        );
        assert_eq!(context_window("moonshot-cn", "moonshot-v1-8k"), Some(8_192));
        // A near name, another preset, or a router: unknown, never guessed.
        assert_eq!(context_window("openai", "gpt-4o-audio-preview"), None);
        assert_eq!(context_window("openrouter", "openai/gpt-4o"), None);
        assert_eq!(context_window("deepseek", "deepseek-chat"), None);
        assert_eq!(context_window("", "gpt-4o"), None);
        for id in [
            "openai",
            "anthropic",
            "gemini",
            "moonshot-ai",
            "moonshot-cn",
        ] {
            assert!(
                crate::planning::presets::preset_by_id(id).is_some(),
                "{id} is a preset's id"
            );
        }
    }
}
