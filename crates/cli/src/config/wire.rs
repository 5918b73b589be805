//! How settings are written: whole seconds, milliseconds and mebibytes for
//! durations and sizes, text for addresses and names, an empty text for
//! "none". Each reader says what it expected, so an error names the problem.

use serde::de::{Deserializer, Error, Visitor};
use serde::Deserialize;
use std::fmt;
use std::net::SocketAddr;
use std::str::FromStr;
use std::time::Duration;

/// A non-negative whole number; `unit` is named when something else is found.
struct Whole(&'static str);

impl Visitor<'_> for Whole {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a whole number of {}", self.0)
    }

    fn visit_u64<E: Error>(self, value: u64) -> Result<u64, E> {
        Ok(value)
    }

    fn visit_i64<E: Error>(self, value: i64) -> Result<u64, E> {
        u64::try_from(value).map_err(|_| E::custom(format!("{value} is below 0")))
    }
}

fn whole<'de, D: Deserializer<'de>>(deserializer: D, unit: &'static str) -> Result<u64, D::Error> {
    deserializer.deserialize_u64(Whole(unit))
}

/// `*_seconds`: a duration in whole seconds.
pub mod seconds {
    use super::*;

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
        whole(deserializer, "seconds").map(Duration::from_secs)
    }
}

/// `*_days`: a duration in whole days.
pub mod days {
    use super::*;

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
        let days = whole(deserializer, "days")?;
        days.checked_mul(24 * 3600)
            .map(Duration::from_secs)
            .ok_or_else(|| {
                D::Error::custom(format!("{days} days is more than this machine can count"))
            })
    }
}

/// `*_millis`: a duration in whole milliseconds.
pub mod millis {
    use super::*;

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
        whole(deserializer, "milliseconds").map(Duration::from_millis)
    }
}

/// `*_mib`: a size in whole mebibytes, held in bytes.
pub mod mebibytes {
    use super::*;

    /// Bytes in a mebibyte.
    pub const MIB: u64 = 1024 * 1024;

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
        let mib = whole(deserializer, "mebibytes")?;
        mib.checked_mul(MIB).ok_or_else(|| {
            D::Error::custom(format!("{mib} MiB is more than this machine can count"))
        })
    }
}

/// Any type read from its text form (`FromStr`), with its own error message.
pub fn parsed<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: fmt::Display,
{
    let text = String::deserialize(deserializer)?;
    text.parse().map_err(D::Error::custom)
}

/// An address to listen on.
pub fn socket_address<'de, D: Deserializer<'de>>(deserializer: D) -> Result<SocketAddr, D::Error> {
    let text = String::deserialize(deserializer)?;
    text.parse().map_err(|_| {
        D::Error::custom(format!(
            "`{text}` is not a socket address (HOST:PORT, such as 127.0.0.1:8080)"
        ))
    })
}

/// An optional value whose absence is written as an empty text.
pub fn empty_is_none<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: fmt::Display,
{
    let text = String::deserialize(deserializer)?;
    if text.is_empty() {
        return Ok(None);
    }
    text.parse().map(Some).map_err(D::Error::custom)
}

/// An `http://` or `https://` address, without a trailing slash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpUrl(String);

impl HttpUrl {
    /// The address as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for HttpUrl {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        if text.starts_with("https://") || text.starts_with("http://") {
            Ok(HttpUrl(text.trim_end_matches('/').to_owned()))
        } else {
            Err(format!("`{text}` is not an http(s) address"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::value::{Error as ValueError, I64Deserializer, StrDeserializer};
    use serde::de::IntoDeserializer;

    fn text(value: &str) -> StrDeserializer<'_, ValueError> {
        value.into_deserializer()
    }

    #[test]
    fn a_listen_address_that_is_not_host_and_port_is_named_with_its_text() {
        let error = socket_address(text("nowhere")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "`nowhere` is not a socket address (HOST:PORT, such as 127.0.0.1:8080)"
        );
        assert_eq!(
            socket_address(text("0.0.0.0:80")).unwrap(),
            SocketAddr::from(([0, 0, 0, 0], 80))
        );
    }

    #[test]
    fn durations_and_sizes_are_whole_non_negative_numbers_of_their_unit() {
        let below: I64Deserializer<ValueError> = (-1i64).into_deserializer();
        assert_eq!(
            seconds::deserialize(below).unwrap_err().to_string(),
            "-1 is below 0"
        );
        assert_eq!(
            seconds::deserialize(text("soon")).unwrap_err().to_string(),
            "invalid type: string \"soon\", expected a whole number of seconds"
        );
        let three: I64Deserializer<ValueError> = 3i64.into_deserializer();
        assert_eq!(
            millis::deserialize(three).unwrap(),
            Duration::from_millis(3)
        );
        let two: I64Deserializer<ValueError> = 2i64.into_deserializer();
        assert_eq!(mebibytes::deserialize(two).unwrap(), 2 * mebibytes::MIB);
    }

    #[test]
    fn an_empty_text_is_none_and_anything_else_must_parse() {
        assert_eq!(empty_is_none::<_, HttpUrl>(text("")).unwrap(), None);
        assert_eq!(
            empty_is_none::<_, HttpUrl>(text("https://api.example/"))
                .unwrap()
                .unwrap()
                .as_str(),
            "https://api.example"
        );
        assert_eq!(
            empty_is_none::<_, HttpUrl>(text("ftp://x"))
                .unwrap_err()
                .to_string(),
            "`ftp://x` is not an http(s) address"
        );
    }
}
