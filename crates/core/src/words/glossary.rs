//! One word per term in each language: the Chinese every printer uses for
//! the product's terms, and the variants that must not come back. The test
//! below reads every crate's sources and the Chinese docs, so a second word
//! for a term, a number glued to its "%" in Chinese, or a phrase in English
//! word order fails `cargo test`.

/// A term and its one Chinese word.
#[derive(Clone, Copy, Debug)]
pub struct Term {
    /// The English term, for the reader of this table.
    pub en: &'static str,
    /// The Chinese word every text uses.
    pub zh: &'static str,
    /// Other words for it that must not appear.
    pub not_zh: &'static [&'static str],
}

/// The glossary.
pub const GLOSSARY: &[Term] = &[
    Term {
        en: "provider",
        zh: "服务商",
        not_zh: &["供应商", "提供商"],
    },
    Term {
        en: "prompt length",
        zh: "提示词长度",
        not_zh: &["提示长度"],
    },
    Term {
        en: "later than planned",
        zh: "比计划晚",
        not_zh: &["晚于计划"],
    },
    Term {
        en: "median (of connection phases)",
        zh: "中位耗时",
        not_zh: &["中位数 连接", "中位数 DNS"],
    },
    Term {
        en: "first token",
        zh: "首个 Token",
        not_zh: &["首个token", "首个 token", "首个令牌", "第一个 Token"],
    },
];

/// Phrases no text may hold, in any language, and what to say instead.
pub const NEVER: &[(&str, &str)] = &[
    ("p = <", "p < 0.001"),
    ("(typical_gap_s)", "at your traffic of one request every …"),
    ("（typical_gap_s）", "按你的流量（每 … 一个请求）"),
];

#[cfg(test)]
mod tests {
    use super::{GLOSSARY, NEVER};
    use std::path::{Path, PathBuf};

    /// Every `.rs` file under the workspace's crates, the page and the
    /// runner, the runner's and the end-to-end tests, and the Chinese docs.
    fn sources() -> Vec<PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files = Vec::new();
        // The mock's sources hold percent-encoded bytes, not text.
        let mut dirs: Vec<PathBuf> = ["crates", "src", "cli/src", "cli/tests", "e2e/tests"]
            .iter()
            .map(|d| root.join(d))
            .collect();
        while let Some(dir) = dirs.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    if !path.ends_with("target") && !path.ends_with("node_modules") {
                        dirs.push(path);
                    }
                } else if path.extension().is_some_and(|e| e == "rs" || e == "mjs") {
                    files.push(path);
                }
            }
        }
        for doc in std::fs::read_dir(root.join("docs")).unwrap().flatten() {
            if doc.path().to_string_lossy().ends_with(".zh-CN.md") {
                files.push(doc.path());
            }
        }
        files.push(root.join("README.zh-CN.md"));
        files.retain(|f| f.exists());
        files
    }

    fn is_chinese(c: char) -> bool {
        ('\u{4e00}'..='\u{9fff}').contains(&c) || ('\u{3000}'..='\u{303f}').contains(&c)
    }

    #[test]
    fn one_chinese_word_per_term_and_a_space_before_every_percent() {
        let this_file = Path::new(file!()).file_name().unwrap().to_owned();
        let files = sources();
        assert!(files.len() > 100, "{} files read", files.len());
        let mut found = Vec::new();
        for file in &files {
            if file.file_name() == Some(this_file.as_os_str()) {
                continue;
            }
            let text = std::fs::read_to_string(file).unwrap();
            for (number, line) in text.lines().enumerate() {
                for term in GLOSSARY {
                    for variant in term.not_zh {
                        if line.contains(variant) {
                            found.push(format!(
                                "{}:{}: {variant:?} for {:?}: say {:?}",
                                file.display(),
                                number + 1,
                                term.en,
                                term.zh
                            ));
                        }
                    }
                }
                for (phrase, instead) in NEVER {
                    if line.contains(phrase) {
                        found.push(format!(
                            "{}:{}: {phrase:?}: say {instead:?}",
                            file.display(),
                            number + 1
                        ));
                    }
                }
                // "31 %" as `format_pct` writes it, in Chinese as in
                // English: never "31%" or "{cv}%" in a Chinese text.
                if line.chars().any(is_chinese) {
                    let chars: Vec<char> = line.chars().collect();
                    for pair in chars.windows(2) {
                        if pair[1] == '%' && (pair[0].is_ascii_digit() || pair[0] == '}') {
                            found.push(format!(
                                "{}:{}: a number glued to its %: {line}",
                                file.display(),
                                number + 1
                            ));
                            break;
                        }
                    }
                }
            }
        }
        assert!(found.is_empty(), "{}", found.join("\n"));
    }
}
