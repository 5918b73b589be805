//! Staging and production: a server runs as one, a key belongs to one.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The environment of a server, a key or a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Environment {
    /// Reports who would receive a job and delivers nothing.
    Staging,
    /// Delivers jobs to live tradespeople.
    Production,
}

impl Environment {
    /// The lowercase name used in configuration, storage and output.
    pub fn as_str(self) -> &'static str {
        match self {
            Environment::Staging => "staging",
            Environment::Production => "production",
        }
    }
}

impl fmt::Display for Environment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The text was neither `staging` nor `production`.
#[derive(Debug, thiserror::Error)]
#[error("unknown environment `{0}`: expected `staging` or `production`")]
pub struct UnknownEnvironment(pub String);

impl FromStr for Environment {
    type Err = UnknownEnvironment;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim().to_ascii_lowercase().as_str() {
            "staging" => Ok(Environment::Staging),
            "production" => Ok(Environment::Production),
            _ => Err(UnknownEnvironment(text.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environments_parse_case_insensitively_and_print_lowercase() {
        assert_eq!(
            "Staging".parse::<Environment>().unwrap(),
            Environment::Staging
        );
        assert_eq!(
            " production ".parse::<Environment>().unwrap(),
            Environment::Production
        );
        assert_eq!(Environment::Production.to_string(), "production");
        assert!("prod".parse::<Environment>().is_err());
    }
}
