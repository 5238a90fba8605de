//! The calendar: UTC days and months of epoch-ms times, civil dates and
//! their ISO 8601 spellings, in the proleptic Gregorian calendar. Core
//! reads no clock; times come in as Unix epoch milliseconds.

/// Milliseconds in a day.
pub const MS_PER_DAY: f64 = 86_400_000.0;

/// The UTC day of an epoch-ms time, as days since 1970-01-01.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn utc_day(epoch_ms: f64) -> i64 {
    (epoch_ms / MS_PER_DAY).floor() as i64
}

/// Year, month (1–12) and day (1–31) of a day count since 1970-01-01, in
/// the proleptic Gregorian calendar (H. Hinnant's `civil_from_days`).
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `YYYY-MM-DD` of a day count since 1970-01-01.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn iso_date(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Months since year 0 of a day count: comparable across years.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn month_of(day: i64) -> i64 {
    let (y, m, _) = civil_from_days(day);
    y * 12 + i64::from(m) - 1
}

/// The UTC day of an epoch-ms time (days since 1970-01-01) and the hour,
/// minute and second within it.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn utc_clock(epoch_ms: f64) -> (i64, i64, i64, i64) {
    let day = utc_day(epoch_ms);
    let second_of_day = ((epoch_ms - day as f64 * MS_PER_DAY) / 1000.0).floor() as i64;
    (
        day,
        second_of_day / 3600,
        (second_of_day / 60) % 60,
        second_of_day % 60,
    )
}

/// An epoch-ms time as RFC 3339 UTC to the second: `2026-12-03T05:07:09Z`.
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn iso_time(epoch_ms: f64) -> String {
    let (day, h, m, s) = utc_clock(epoch_ms);
    format!("{}T{h:02}:{m:02}:{s:02}Z", iso_date(day))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times() {
        assert_eq!(iso_date(0), "1970-01-01");
        assert_eq!(iso_date(-1), "1969-12-31");
        assert_eq!(iso_date(20_516), "2026-03-04");
        assert_eq!(iso_date(11_016), "2000-02-29");
        // 2026-12-03T05:07:09.5Z
        let at = 1_796_274_429_500.0;
        assert_eq!(iso_time(at), "2026-12-03T05:07:09Z");
        assert_eq!(utc_clock(at), (utc_day(at), 5, 7, 9));
        assert_eq!(month_of(0), 1970 * 12);
    }

    #[test]
    fn civil_dates_agree_with_a_day_by_day_count() {
        // Walk from 1969-12-01 for 30 years, counting days by hand.
        let (mut y, mut m, mut d) = (1969i64, 12u32, 1u32);
        for days in -31..(30 * 366) {
            assert_eq!(civil_from_days(days), (y, m, d), "day {days}");
            let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
            let month_days = [
                31,
                if leap { 29 } else { 28 },
                31,
                30,
                31,
                30,
                31,
                31,
                30,
                31,
                30,
                31,
            ];
            d += 1;
            if d > month_days[(m - 1) as usize] {
                d = 1;
                m += 1;
                if m > 12 {
                    m = 1;
                    y += 1;
                }
            }
        }
    }
}
