//! Text that fits the terminal: lines wrapped at its width between words,
//! never inside one, each continuation under its line's own indent and two
//! spaces more, so a wrapped sentence still reads as one item.
//!
//! The width is the terminal's when standard output is one, else the
//! `COLUMNS` variable's when set; output to a pipe or a file is not wrapped
//! (a sentence stays on one line, as `grep` and a cron mail want it).
//! Chinese characters take two columns each, as the terminal draws them.

use std::io::IsTerminal;

/// The narrowest width wrapped to: below it, lines are left whole.
const MIN_WIDTH: usize = 40;

/// The width to fit standard output to, in columns; `None` to leave lines
/// whole.
pub fn stdout_width() -> Option<usize> {
    let width = if std::io::stdout().is_terminal() {
        terminal_size::terminal_size().map(|(width, _)| usize::from(width.0))
    } else {
        None
    };
    width
        .or_else(|| {
            std::env::var("COLUMNS")
                .ok()
                .and_then(|columns| columns.trim().parse().ok())
        })
        .filter(|&width| width >= MIN_WIDTH)
}

/// The terminal width of `text`.
pub fn columns(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

/// `text` with every line wider than `width` wrapped between words; the
/// text as it is without a width.
pub fn fit(text: &str, width: Option<usize>) -> String {
    let Some(width) = width else {
        return text.to_owned();
    };
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        if columns(body) <= width {
            out.push_str(line);
            continue;
        }
        let indent_len = body.len() - body.trim_start_matches(' ').len();
        let indent = &body[..indent_len];
        let hanging = format!("{indent}  ");
        let options = textwrap::Options::new(width)
            .initial_indent(indent)
            .subsequent_indent(&hanging)
            .break_words(false)
            .word_splitter(textwrap::WordSplitter::NoHyphenation)
            .word_separator(textwrap::WordSeparator::Custom(words_whole_between_spaces));
        let wrapped = textwrap::wrap(body.trim_start_matches(' '), options);
        out.push_str(&wrapped.join("\n"));
        out.push_str(end);
    }
    out
}

/// Units said after their number ("12 %", "300 ms", "5 秒"): a line never
/// starts with one, so a figure is never cut from its unit.
const UNITS: [&str; 10] = [
    "%", "ms", "s", "min", "h", "kB", "秒", "毫秒", "分钟", "小时",
];

/// `word` is a unit, punctuation after it aside.
fn is_unit(word: &str) -> bool {
    let core = word
        .trim_end()
        .trim_end_matches([',', ';', ':', '.', ')', '，', '；', '：', '。', '）']);
    UNITS.contains(&core)
}

/// The line's words by Unicode line breaking, so Chinese breaks between
/// characters, but only at a space where Latin text meets Latin text: a
/// flag (`--allowed-origins`), a URL (`https://inference.do-ai.run/v1`) or
/// a script name (`prefill@20000/m`) stays whole; and a number keeps its
/// unit ("−14 %" is one word).
fn words_whole_between_spaces(
    line: &str,
) -> Box<dyn Iterator<Item = textwrap::core::Word<'_>> + '_> {
    let found: Vec<textwrap::core::Word<'_>> = textwrap::WordSeparator::UnicodeBreakProperties
        .find_words(line)
        .collect();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let (mut start, mut end) = (0, 0);
    for (index, word) in found.iter().enumerate() {
        end += word.word.len() + word.whitespace.len();
        let latin_on_both_sides = word.whitespace.is_empty()
            && word.word.chars().last().is_some_and(|c| c.is_ascii())
            && found
                .get(index + 1)
                .and_then(|next| next.word.chars().next())
                .is_some_and(|c| c.is_ascii());
        if latin_on_both_sides {
            continue;
        }
        let after_number = spans.last().is_some_and(|&(from, to)| {
            line[from..to]
                .trim_end()
                .chars()
                .last()
                .is_some_and(|c| c.is_ascii_digit())
        });
        match spans.last_mut() {
            Some(last) if after_number && is_unit(&line[start..end]) => last.1 = end,
            _ => spans.push((start, end)),
        }
        start = end;
    }
    if start < line.len() {
        spans.push((start, line.len()));
    }
    Box::new(
        spans
            .into_iter()
            .map(|(from, to)| textwrap::core::Word::from(&line[from..to])),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_a_url_or_a_script_name_is_never_cut() {
        let text = "browser access: blocked; a proxy with --allowed-origins, or \
                    https://inference.do-ai.run/v1 through a self-hosted-proxy for prefill@20000/m";
        for width in 20..60 {
            let words: Vec<String> = fit(text, Some(width))
                .split_whitespace()
                .map(str::to_owned)
                .collect();
            for whole in [
                "--allowed-origins,",
                "https://inference.do-ai.run/v1",
                "self-hosted-proxy",
            ] {
                assert!(words.iter().any(|w| w == whole), "{width}: {words:?}");
            }
        }
        let chinese = "浏览器访问：未知——先试“测试连接”；若被拦截，请使用你自己控制的代理地址";
        assert!(
            fit(chinese, Some(20)).lines().count() > 1,
            "Chinese still breaks"
        );
    }

    #[test]
    fn a_long_line_wraps_between_words_under_its_own_indent() {
        let text = "Title\n  A: goes cold after 1 min–5 min idle: cold 0 of 20 after 10 s, \
                    0 of 20 after 1 min\nshort\n";
        let fitted = fit(text, Some(40));
        for line in fitted.lines() {
            assert!(columns(line) <= 40, "{line:?}");
        }
        assert_eq!(
            fitted,
            "Title\n  A: goes cold after 1 min–5 min idle:\n    cold 0 of 20 after 10 s, 0 of 20\n    \
             after 1 min\nshort\n"
        );
        // Every word is whole: joining the pieces gives the words back.
        let words = |t: &str| t.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(words(&fitted), words(text));
        assert_eq!(fit(text, None), text);
    }

    /// A figure keeps its unit at every width: "−14 %" never ends one line
    /// with "−14" and starts the next with "%", nor "300 ms" or "5 秒".
    #[test]
    fn a_number_is_never_cut_from_its_unit() {
        let text = "  A vs B: not decided yet after 25 pairs; typical pair, B/A: −14 % to +20 %, \
                    median 300 ms, after 10 s; 空闲 5 秒后变冷";
        for width in 40..100 {
            let fitted = fit(text, Some(width));
            for line in fitted.lines() {
                let first = line.split_whitespace().next().unwrap_or("");
                assert!(!is_unit(first), "{width}: {fitted}");
            }
            // Nothing lost or added but line breaks (Chinese breaks
            // between characters).
            let ink = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>();
            assert_eq!(ink(&fitted), ink(text), "{width}");
        }
    }

    #[test]
    fn a_word_wider_than_the_line_is_left_whole_and_chinese_counts_two_columns() {
        let long = format!("  x {}", "a".repeat(60));
        assert!(
            fit(&long, Some(40))
                .lines()
                .any(|l| l.contains(&"a".repeat(60)))
        );
        let zh =
            "  空闲 1 分钟–5 分钟后变冷：空闲 10 秒后 20 个中 0 个，空闲 1 分钟后 20 个中 0 个";
        for line in fit(zh, Some(40)).lines() {
            assert!(columns(line) <= 40, "{line:?}");
        }
    }
}
