//! Numbers for people, one way per kind: durations, percentages, ratios,
//! intervals and dollars. Every adapter formats through these, so a figure
//! reads the same in a table, a sentence, a chart tick and the terminal.

use crate::base::lang::Lang;
use crate::statistics::bootstrap::Interval;

/// Milliseconds for people, the project's one duration formatter: three
/// significant digits, trailing zeros dropped, "ms" below a second and "s"
/// from one second up ("850 ms", "56.8 ms", "1.24 s", "1.2 s", "12.3 s",
/// "120 s"; 毫秒 / 秒 in Chinese); "–" for a value that is not finite. Tables,
/// sentences, routing reasons, chart ticks and the terminal all print
/// durations through it, so "12.3 s" in a reason is "12.3 s" in the table.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn format_ms(lang: Lang, ms: f64) -> String {
    let (seconds, unit_ms) = match lang {
        Lang::En => ("s", "ms"),
        Lang::ZhCn => ("秒", "毫秒"),
    };
    if !ms.is_finite() {
        return "–".to_owned();
    }
    // 999.6 ms would round to "1000 ms": from there on it is a second.
    if ms.abs() < 999.5 {
        format!("{} {unit_ms}", significant(ms))
    } else {
        format!("{} {seconds}", significant(ms / 1000.0))
    }
}

/// `value` with three significant digits (whole numbers from 100 up),
/// trailing zeros dropped: `412.3` → "412", `56.78` → "56.8", `0.5` → "0.5".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn significant(value: f64) -> String {
    if value == 0.0 || !value.is_finite() {
        return "0".into();
    }
    let magnitude = value.abs().log10().floor() as i32;
    if magnitude >= 7 {
        // Ten million and up (in seconds, four months) is no figure a
        // measurement gives but one a hostile file can hold: written as
        // "1.2e150" rather than 151 digits that break a table or a line.
        let text = format!("{value:.2e}");
        if let Some((mantissa, exponent)) = text.split_once('e') {
            return format!("{}e{exponent}", trim_zeros(mantissa.to_owned()));
        }
    }
    let decimals = usize::try_from((2 - magnitude).max(0)).unwrap_or(0);
    trim_zeros(format!("{value:.decimals$}"))
}

/// "2.50" → "2.5", "3.0" → "3", "-0.0" → "0".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn trim_zeros(text: String) -> String {
    if text.contains('.') {
        let trimmed = text.trim_end_matches('0').trim_end_matches('.');
        if trimmed == "-0" {
            "0".into()
        } else {
            trimmed.into()
        }
    } else {
        text
    }
}

/// [`format_ms`] of a figure that may be missing: "–" for none.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn ms_or_dash(lang: Lang, value: Option<f64>) -> String {
    value.map_or_else(|| "–".to_owned(), |ms| format_ms(lang, ms))
}

/// A percentage with no decimals from 10 up and one below ("541 %",
/// "4.2 %"); "–" for a value that is not finite.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn format_pct(value: f64) -> String {
    if !value.is_finite() {
        "–".to_owned()
    } else if value.abs() >= 10.0 {
        format!("{value:.0} %")
    } else {
        format!("{value:.1} %")
    }
}

/// A duration interval: "420 ms–560 ms", or "≥ 420 ms" when the data
/// bound it only from below (an infinite `high`).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn interval_ms(lang: Lang, interval: &Interval) -> String {
    if interval.is_bounded() {
        format!(
            "{}–{}",
            format_ms(lang, interval.low),
            format_ms(lang, interval.high)
        )
    } else {
        format!("≥ {}", format_ms(lang, interval.low))
    }
}

/// "≥ " before a figure that is only a lower bound (a censored timeout
/// reaches it), nothing otherwise.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn at_least(lower_bound: bool) -> &'static str {
    if lower_bound { "≥ " } else { "" }
}

/// A ratio as people say it: whole numbers from 10× up, one decimal below
/// ("34×", "2.5×").
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn format_ratio(ratio: f64) -> String {
    if !ratio.is_finite() {
        "–".to_owned()
    } else if ratio >= 9.95 {
        format!("{ratio:.0}×")
    } else {
        format!("{ratio:.1}×")
    }
}

/// US dollars: "$1.23", "$0.042", "$0.00041" (two significant digits
/// below a dollar), "$0" for nothing.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn format_usd(usd: f64) -> String {
    if !usd.is_finite() {
        return "–".to_owned();
    }
    if usd == 0.0 {
        return "$0".to_owned();
    }
    if usd >= 1.0 {
        return format!("${usd:.2}");
    }
    // Two significant digits: one more decimal than the first non-zero one.
    let decimals = (-usd.log10()).floor() as usize + 2;
    format!("${usd:.decimals$}", decimals = decimals.min(12))
}

/// A duration for an ETA or a delay: "45 s", "12 min", "3 h 20 min" (秒 /
/// 分钟 / 小时 in Chinese). The page's run view and the terminal's progress
/// line both say durations this way.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn format_duration(lang: Lang, ms: f64) -> String {
    let (seconds, minutes, hours) = match lang {
        Lang::En => ("s", "min", "h"),
        Lang::ZhCn => ("秒", "分钟", "小时"),
    };
    let total_s = (ms / 1000.0).max(0.0).round();
    if !total_s.is_finite() {
        return "–".to_owned();
    }
    if total_s < 60.0 {
        format!("{total_s:.0} {seconds}")
    } else if total_s < 3600.0 {
        format!("{:.0} {minutes}", (total_s / 60.0).round())
    } else {
        let whole_hours = (total_s / 3600.0).floor();
        let rest = ((total_s - whole_hours * 3600.0) / 60.0).round();
        format!("{whole_hours:.0} {hours} {rest:.0} {minutes}")
    }
}

/// A whole number with its thousands set apart by a space: "8 192",
/// "32 768", "512".
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn grouped(value: u64) -> String {
    let digits = value.to_string();
    let mut text = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(' ');
        }
        text.push(c);
    }
    text
}

/// `text` with each space between two digits made a no-break space
/// (U+00A0), so a grouped number ("32 768") never wraps between its
/// groups on a narrow screen.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn unbroken_groups(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut previous = '\0';
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let between_digits =
            c == ' ' && previous.is_ascii_digit() && chars.peek().is_some_and(char::is_ascii_digit);
        out.push(if between_digits { '\u{a0}' } else { c });
        previous = c;
    }
    out
}

/// An idle time, as the idle figures and the routing exports say it:
/// "0.5 s", "45 s", "5 min", "1.5 h" (秒 / 分钟 / 小时).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn gap_text(lang: Lang, seconds: f64) -> String {
    let (s, min, h) = match lang {
        Lang::En => ("s", "min", "h"),
        Lang::ZhCn => ("秒", "分钟", "小时"),
    };
    let one_decimal = |x: f64| trim_zeros(format!("{:.1}", (x * 10.0).round() / 10.0));
    if seconds < 60.0 {
        format!("{} {s}", one_decimal(seconds))
    } else if seconds < 3600.0 {
        format!("{} {min}", one_decimal(seconds / 60.0))
    } else {
        format!("{} {h}", one_decimal(seconds / 3600.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grouped_numbers_do_not_break() {
        assert_eq!(
            unbroken_groups("at 32 768 tokens, 5 of 6 (1 000–2 000)"),
            "at 32\u{a0}768 tokens, 5 of 6 (1\u{a0}000–2\u{a0}000)"
        );
        assert_eq!(
            unbroken_groups("预填充速度 198 000 输入"),
            "预填充速度 198\u{a0}000 输入"
        );
        assert_eq!(unbroken_groups(" 1 "), " 1 ");
    }

    #[test]
    fn an_absurd_figure_is_written_short() {
        assert_eq!(significant(1.2e150), "1.2e150");
        assert_eq!(significant(-3.0e9), "-3e9");
        assert_eq!(significant(9_999_999.0), "9999999");
        assert_eq!(significant(412.3), "412");
        assert_eq!(format_ms(Lang::En, 1.2e150), "1.2e147 s");
    }
}
