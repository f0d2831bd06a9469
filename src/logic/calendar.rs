//! Dates for what the course writes down: a worksheet's lock time, a lab result's day.

/// The civil (proleptic Gregorian) date `(year, month, day)` of a day counted from 1970-01-01,
/// by Howard Hinnant's days-to-civil algorithm.
pub fn civil_date(days_since_1970: i64) -> (i64, i64, i64) {
    let z = days_since_1970 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Whether `ms` since 1970 lies within a JavaScript date's range (±100,000,000 days); only a
/// corrupt stored value lies beyond it.
fn in_range(ms: f64) -> bool {
    ms.is_finite() && ms.abs() <= 8.64e15
}

/// `2026-12-06` for a time in ms since 1970 (UTC); "an unknown day" beyond a date's range.
pub fn iso_date(ms: f64) -> String {
    if !in_range(ms) {
        return "an unknown day".into();
    }
    let (year, month, day) = civil_date((ms / 86_400_000.0).floor() as i64);
    format!("{year:04}-{month:02}-{day:02}")
}

/// A time in ms since 1970 as "YYYY-MM-DD HH:MM UTC"; "an unknown time" beyond a date's range.
pub fn utc_minute(ms: f64) -> String {
    if !in_range(ms) {
        return "an unknown time".into();
    }
    let minutes = (ms / 60_000.0).floor() as i64;
    let (days, minute_of_day) = (minutes.div_euclid(1440), minutes.rem_euclid(1440));
    let (year, month, day) = civil_date(days);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        minute_of_day / 60,
        minute_of_day % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_become_civil_dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(-1), (1969, 12, 31));
        // 2000 is a leap year; 1900 and 2100 are not.
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(-25_509), (1900, 2, 28));
        assert_eq!(civil_date(-25_508), (1900, 3, 1));
        assert_eq!(civil_date(47_540), (2100, 2, 28));
        assert_eq!(civil_date(47_541), (2100, 3, 1));
    }

    #[test]
    fn days_read_as_iso_dates() {
        assert_eq!(iso_date(0.0), "1970-01-01");
        assert_eq!(iso_date(951_782_400_000.0), "2000-02-29");
        assert_eq!(iso_date(1_765_000_000_000.0), "2025-12-06");
        assert_eq!(iso_date(4_102_444_799_000.0), "2099-12-31");
        assert_eq!(iso_date(f64::NAN), "an unknown day");
        assert_eq!(iso_date(-1e300), "an unknown day");
    }

    #[test]
    fn minutes_read_in_utc() {
        assert_eq!(utc_minute(0.0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_minute(-60_000.0), "1969-12-31 23:59 UTC");
        assert_eq!(utc_minute(951_782_400_000.0), "2000-02-29 00:00 UTC");
        assert_eq!(utc_minute(1_764_433_259_999.0), "2025-11-29 16:20 UTC");
        assert_eq!(utc_minute(f64::NAN), "an unknown time");
        assert_eq!(utc_minute(1e300), "an unknown time");
        assert_eq!(utc_minute(-8.64e15), "-271821-04-20 00:00 UTC");
    }
}
