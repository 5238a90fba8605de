//! The words of prompt sizes and prefill speed: plan warnings, the prefill
//! rate and its comparison between providers, the per-size table's
//! headings and what the prompt cache saves, in English and Chinese.

use crate::plan::{Plan, WarningKind};

/// A whole number with its thousands set apart by a space: "8 192",
/// "32 768", "512".
pub fn grouped(value: u64) -> String {
    let digits = value.to_string();
    let mut text = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            text.push(' ');
        }
        text.push(c);
    }
    text
}

/// The Chinese words of the prompt-size warnings (the English ones are the
/// validator's own, with the same figures).
pub fn warning_zh(plan: &Plan, kind: WarningKind) -> String {
    match kind {
        WarningKind::FewRequestsPerSize => format!(
            "每个长度只分到每个目标 {} 个请求中的 {} 个；每个长度少于 75 个请求时，该长度的冷启动长尾常常显示不出来\
             （请增加每个目标的请求数，或减少长度）",
            plan.requests_per_target,
            crate::prompt::requests_per_size(plan).unwrap_or(0)
        ),
        _ => format!(
            "长提示词有成本：整个运行中每个目标约读取 {} 个输入 token（费用估算已计入）",
            grouped(plan.input_tokens_per_target().unwrap_or(0))
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_set_apart() {
        assert_eq!(grouped(8_192), "8 192");
        assert_eq!(grouped(512), "512");
        assert_eq!(grouped(1_234_567), "1 234 567");
    }

    #[test]
    fn warnings_are_said_in_chinese_too() {
        let plan = Plan {
            prompt_sizes: Some(vec![128, 8_192]),
            ..Plan::default()
        };
        let kinds: Vec<WarningKind> = plan.warnings().iter().map(|w| w.kind).collect();
        assert!(kinds.contains(&WarningKind::FewRequestsPerSize));
        assert!(kinds.contains(&WarningKind::LongPromptsCost));
        let text = warning_zh(&plan, WarningKind::FewRequestsPerSize);
        assert!(text.contains("100 个请求中的 50 个"), "{text}");
        // 50 × 128 + 50 × 8 192 + 2 warm-ups × 128.
        assert!(warning_zh(&plan, WarningKind::LongPromptsCost).contains("416 256"));
        let english = plan.warnings();
        assert!(english.iter().any(|w| w.message.contains("416 256")));
    }
}
