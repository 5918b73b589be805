//! Parsing the `Date` header: HTTP dates and RFC 3339 / ISO-8601 timestamps.

use time::format_description::well_known::{Iso8601, Rfc3339};
use time::macros::format_description;
use time::{OffsetDateTime, PrimitiveDateTime};

/// A `Date` header that is neither an HTTP date nor an RFC 3339 timestamp.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the Date header `{value}` is not a date this server understands; send an HTTP date such as \
     `Sun, 05 Jan 2014 21:31:40 GMT` or an RFC 3339 timestamp with a zone such as \
     `2024-05-01T10:00:00.000Z`"
)]
pub struct DateError {
    /// The value received.
    pub value: String,
}

/// Parses a `Date` value: an HTTP date (IMF-fixdate, RFC 850 or asctime, RFC 9110 §5.6.7) or an
/// RFC 3339 / ISO-8601 timestamp with `Z` or an offset (what JavaScript's
/// `new Date().toISOString()` gives). A timestamp without a zone is rejected as ambiguous.
///
/// The day-of-week of an IMF-fixdate is not checked: it adds nothing, and the draft's own
/// examples carry a wrong one (`Tue, 07 Jun 2014` was a Saturday).
pub fn parse_date(value: &str) -> Result<OffsetDateTime, DateError> {
    let trimmed = value.trim_matches([' ', '\t']);
    if let Ok(t) = httpdate::parse_http_date(trimmed) {
        return Ok(OffsetDateTime::from(t));
    }
    if let Some(t) = fixdate_any_weekday(trimmed) {
        return Ok(t);
    }
    OffsetDateTime::parse(trimmed, &Rfc3339)
        .or_else(|_| OffsetDateTime::parse(trimmed, &Iso8601::DEFAULT))
        .map_err(|_| DateError {
            value: value.to_owned(),
        })
}

/// IMF-fixdate (`Sat, 07 Jun 2014 20:51:35 GMT`) with any weekday name.
fn fixdate_any_weekday(value: &str) -> Option<OffsetDateTime> {
    let (weekday, rest) = value.split_once(", ")?;
    const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    if !DAYS.contains(&weekday) {
        return None;
    }
    let format = format_description!(
        "[day] [month repr:short] [year repr:full] [hour]:[minute]:[second] GMT"
    );
    let t = PrimitiveDateTime::parse(rest, format).ok()?.assume_utc();
    // Keep httpdate's range, so both paths accept the same years.
    (1970..=9999).contains(&t.year()).then_some(t)
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn an_imf_fixdate_parses() {
        let t = parse_date("Sun, 05 Jan 2014 21:31:40 GMT").unwrap();
        assert_eq!(t, datetime!(2014-01-05 21:31:40 UTC));
    }

    #[test]
    fn an_imf_fixdate_with_a_wrong_weekday_still_parses() {
        let t = parse_date("Tue, 07 Jun 2014 20:51:35 GMT").unwrap();
        assert_eq!(t, datetime!(2014-06-07 20:51:35 UTC));
    }

    #[test]
    fn an_rfc_850_date_parses() {
        let t = parse_date("Sunday, 05-Jan-14 21:31:40 GMT").unwrap();
        assert_eq!(t, datetime!(2014-01-05 21:31:40 UTC));
    }

    #[test]
    fn an_asctime_date_parses() {
        let t = parse_date("Sun Jan  5 21:31:40 2014").unwrap();
        assert_eq!(t, datetime!(2014-01-05 21:31:40 UTC));
    }

    #[test]
    fn a_javascript_iso_string_parses() {
        let t = parse_date("2024-05-01T10:00:00.000Z").unwrap();
        assert_eq!(t, datetime!(2024-05-01 10:00:00 UTC));
    }

    #[test]
    fn an_rfc_3339_offset_is_applied() {
        let t = parse_date("2024-05-01T11:00:00+01:00").unwrap();
        assert_eq!(t, datetime!(2024-05-01 10:00:00 UTC));
        let t = parse_date("2024-05-01T08:30:00.5-01:30").unwrap();
        assert_eq!(t, datetime!(2024-05-01 10:00:00.5 UTC));
    }

    #[test]
    fn surrounding_whitespace_is_ignored() {
        assert!(parse_date("  2024-05-01T10:00:00Z\t").is_ok());
    }

    #[test]
    fn a_timestamp_without_a_zone_is_rejected() {
        assert!(parse_date("2024-05-01T10:00:00").is_err());
    }

    #[test]
    fn garbage_is_rejected_with_examples_of_accepted_forms() {
        for bad in [
            "",
            "yesterday",
            "1714557600",
            "Sun, 32 Jan 2014 21:31:40 GMT",
            "Foo, 05 Jan 2014 21:31:40 GMT",
        ] {
            let err = parse_date(bad).unwrap_err();
            assert_eq!(err.value, bad);
            assert!(err.to_string().contains("2024-05-01T10:00:00.000Z"));
        }
    }
}
