//! The clock a change stamps its rows with, read in Rust: the same text as SQLite's
//! SQLite's `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` (UTC, milliseconds, both from the
//! system's real-time clock), without a statement inside the writer to ask SQLite for it.

use super::types::now_ms;

const MS_PER_DAY: i64 = 86_400_000;

/// The time now, as `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` writes it.
pub(super) fn utc_now() -> String {
    utc_text(now_ms())
}

/// `ms` since the Unix epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ` (RFC 3339, UTC, milliseconds): every
/// timestamp the service stores or answers with, webhook deliveries' included.
pub fn utc_text(ms: i64) -> String {
    let (year, month, day) = civil_from_days(ms.div_euclid(MS_PER_DAY));
    let of_day = ms.rem_euclid(MS_PER_DAY);
    let (hours, minutes) = (of_day / 3_600_000, of_day / 60_000 % 60);
    let (seconds, millis) = (of_day / 1000 % 60, of_day % 1000);
    format!("{year:04}-{month:02}-{day:02}T{hours:02}:{minutes:02}:{seconds:02}.{millis:03}Z")
}

/// The Unix seconds of a time as [`utc_text`] writes it (`YYYY-MM-DDTHH:MM:SS.mmmZ`); `None`
/// for any other text.
pub(super) fn unix_seconds(text: &str) -> Option<i64> {
    let bytes = text.as_bytes();
    let ok = bytes.len() == 24
        && [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':'), (19, b'.'), (23, b'Z')]
            .iter()
            .all(|&(at, byte)| bytes[at] == byte);
    if !ok {
        return None;
    }
    let number = |from: usize, to: usize| text.get(from..to)?.parse::<i64>().ok();
    let days = days_from_civil(number(0, 4)?, number(5, 7)?, number(8, 10)?);
    Some(days * 86_400 + number(11, 13)? * 3600 + number(14, 16)? * 60 + number(17, 19)?)
}

/// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_from_march = if month > 2 { month - 3 } else { month + 9 };
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 { month_from_march + 3 } else { month_from_march - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::{Connection, RunQueryDsl, SqliteConnection};

    #[test]
    fn instants_are_written_as_sqlite_writes_them() {
        assert_eq!(utc_text(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(utc_text(951_782_400_123), "2000-02-29T00:00:00.123Z");
        assert_eq!(utc_text(1_709_251_199_500), "2024-02-29T23:59:59.500Z");
        assert_eq!(utc_text(1_795_000_000_999), "2026-11-18T11:06:40.999Z");
        assert_eq!(utc_text(4_102_444_799_999), "2099-12-31T23:59:59.999Z");
    }

    #[test]
    fn unix_milliseconds_read_as_rfc_3339() {
        assert_eq!(utc_text(0), "1970-01-01T00:00:00.000Z");
        // date -u -d @1614265330 → 2021-02-25 15:02:10
        assert_eq!(utc_text(1_614_265_330_123), "2021-02-25T15:02:10.123Z");
        // 2024-02-29 (a leap day) 23:59:59.999 = 1709251199 s
        assert_eq!(utc_text(1_709_251_199_999), "2024-02-29T23:59:59.999Z");
    }

    #[test]
    fn a_written_time_reads_back_as_its_unix_seconds() {
        for ms in [0, 951_782_400_123, 1_709_251_199_500, 1_795_000_000_999, 4_102_444_799_999] {
            assert_eq!(unix_seconds(&utc_text(ms)), Some(ms.div_euclid(1000)), "{ms}");
        }
        assert_eq!(unix_seconds("2026-11-18 11:06:40"), None);
    }

    #[test]
    fn the_clock_agrees_with_sqlites() {
        let mut conn = SqliteConnection::establish(":memory:").unwrap();
        let before = utc_now();
        let clock = diesel::dsl::sql::<diesel::sql_types::Text>("strftime('%Y-%m-%dT%H:%M:%fZ', 'now')");
        let sqlite: String = diesel::select(clock).get_result(&mut conn).unwrap();
        let after = utc_now();

        assert_eq!(sqlite.len(), before.len());
        assert!(before <= sqlite && sqlite <= after, "{before} <= {sqlite} <= {after}");
    }
}
