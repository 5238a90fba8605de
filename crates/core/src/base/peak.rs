//! Peak hours and the zone they are read in: what a plan's `peak_hours`
//! and `peak_tz` mean. A leaf, so the plan reads them without reaching the
//! time-of-day statistics.

/// Whether `hour` lies in the peak window `[start, end)`. A window with
/// `start > end` wraps past midnight (`[22, 6)` is 22:00–05:59); `start ==
/// end` means no peak hours at all.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn is_peak(hour: u8, peak_hours: [u8; 2]) -> bool {
    let [start, end] = peak_hours;
    match start.cmp(&end) {
        std::cmp::Ordering::Less => (start..end).contains(&hour),
        std::cmp::Ordering::Greater => hour >= start || hour < end,
        std::cmp::Ordering::Equal => false,
    }
}

/// The zone a plan's peak hours are read in (`peak_tz`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeakZone {
    /// A fixed offset, minutes east of UTC (`"+08:00"`, `"UTC-5"`, `"Z"`).
    Offset(i32),
    /// An IANA zone name (`"Asia/Shanghai"`), resolved by the adapter.
    Named(String),
}

/// Reads a `peak_tz`: a UTC offset (`Z`, `UTC`, `GMT`, `+08:00`, `-0530`,
/// `+8`, `UTC+8`, `UTC-05:30`; at most ±14 h) or an IANA name (`Area/City`
/// made of letters, digits, `_`, `-`, `+` and `/`, at most 64 bytes).
/// `None` for anything else.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn parse_peak_tz(text: &str) -> Option<PeakZone> {
    let text = text.trim();
    let upper = text.to_ascii_uppercase();
    let rest = upper
        .strip_prefix("UTC")
        .or_else(|| upper.strip_prefix("GMT"))
        .unwrap_or(&upper);
    if rest.is_empty() || rest == "Z" {
        return (!text.is_empty()).then_some(PeakZone::Offset(0));
    }
    if let Some(minutes) = parse_offset(rest) {
        return Some(PeakZone::Offset(minutes));
    }
    let named = text.len() <= 64
        && text.contains('/')
        && !text.starts_with('/')
        && !text.ends_with('/')
        && !text.contains("//")
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '+' | '/'))
        && text.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
    named.then(|| PeakZone::Named(text.to_owned()))
}

/// `+08:00`, `-0530`, `+8` → minutes east of UTC; at most 14 hours.
#[cfg_attr(target_arch = "wasm32", inline)]
fn parse_offset(text: &str) -> Option<i32> {
    let (sign, digits) = match text.as_bytes().first()? {
        b'+' => (1, &text[1..]),
        b'-' => (-1, &text[1..]),
        _ => return None,
    };
    let (hours, minutes) = match digits.split_once(':') {
        Some((h, m)) => (h, m),
        None if digits.len() == 4 => digits.split_at(2),
        None => (digits, "0"),
    };
    let all_digits = |part: &str| {
        !part.is_empty() && part.len() <= 2 && part.bytes().all(|b| b.is_ascii_digit())
    };
    if !all_digits(hours) || !all_digits(minutes) {
        return None;
    }
    let (hours, minutes): (i32, i32) = (hours.parse().ok()?, minutes.parse().ok()?);
    (minutes < 60 && hours * 60 + minutes <= 14 * 60).then_some(sign * (hours * 60 + minutes))
}
