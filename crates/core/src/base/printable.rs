//! Text from a document or a provider, made safe to print to a terminal.
//!
//! A results file, a plan or a provider's reply is a stranger's text: a
//! label, a user agent or an error message can hold an escape sequence
//! that clears the screen, retitles the window or hides the lines after
//! it, a carriage return or line feed that forges a line of the report, or
//! a bidirectional override that shows text in another order than it is.
//! The runner prints every such text through these functions, which write
//! each of those characters as a visible escape (`\u{1b}`, `\n`,
//! `\u{202e}`) and leave everything else, Chinese and emoji included, as
//! it is. The page needs none of this: it sets text, never markup.

use std::borrow::Cow;

/// Characters that reorder the text shown around them (the Unicode
/// bidirectional controls).
#[cfg_attr(target_arch = "wasm32", inline)]
fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

#[cfg_attr(target_arch = "wasm32", inline)]
fn escaped(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    let unsafe_char = |c: char| !keep(c) && (c.is_control() || is_bidi_control(c));
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// One value (a label, a user agent, a provider's message) safe to print
/// inside a line: every control character, line breaks and tabs included,
/// and every bidirectional control is escaped.
///
/// `printable("A\u{1b}[2J")` is `A\u{1b}[2J` written out, eight visible
/// characters after the `A`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn printable(text: &str) -> Cow<'_, str> {
    escaped(text, |_| false)
}

/// Lines of output the runner composed itself, safe to print: as
/// [`printable`], but its own line feeds stay line feeds.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn printable_lines(text: &str) -> Cow<'_, str> {
    escaped(text, |c| c == '\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_text_is_left_as_it_is() {
        for text in [
            "DeepSeek V4 Pro · fra1",
            "深度求索 V3 😀 é",
            "p95 1.24 s (3× the median)",
            "",
        ] {
            assert!(matches!(printable(text), Cow::Borrowed(t) if t == text));
        }
        assert!(matches!(printable_lines("a\nb\n"), Cow::Borrowed("a\nb\n")));
    }

    #[test]
    fn escapes_line_breaks_and_reorderings_become_visible() {
        assert_eq!(printable("A\u{1b}[2J"), "A\\u{1b}[2J");
        assert_eq!(printable("x\u{1b}]0;title\u{7}"), "x\\u{1b}]0;title\\u{7}");
        assert_eq!(printable("a\nb\r\tc"), "a\\nb\\r\\tc");
        assert_eq!(printable("\u{7f}\u{9b}31m"), "\\u{7f}\\u{9b}31m");
        assert_eq!(printable("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(
            printable_lines("one\u{1b}[31m\ntwo\r"),
            "one\\u{1b}[31m\ntwo\\r"
        );
    }

    #[test]
    fn nothing_unsafe_is_left_in_any_character() {
        for code in 0..=0x2100_u32 {
            let Some(c) = char::from_u32(code) else {
                continue;
            };
            let text = c.to_string();
            let shown = printable(&text);
            assert!(
                !shown.chars().any(|c| c.is_control() || is_bidi_control(c)),
                "{code:#x} printed as {shown:?}"
            );
        }
        for c in ['\u{2066}', '\u{2069}', '\u{061c}'] {
            assert!(printable(&c.to_string()).starts_with("\\u{"));
        }
    }
}
