//! Which keys exist, learnt from the section types themselves, and errors
//! that name the key where the person who set it will look for it.

use figment::error::Kind;
use figment::Source;
use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use std::cell::Cell;

/// The keys a section reads, as serde derives them from its fields: the only
/// list of settings there is.
pub fn of<T: DeserializeOwned>() -> &'static [&'static str] {
    let fields = Cell::new(&[][..]);
    // The probe stops every section at its first call, which names its fields.
    let _ = T::deserialize(Probe(&fields));
    fields.get()
}

/// A deserializer that notes the field names it is asked for and stops.
struct Probe<'a>(&'a Cell<&'static [&'static str]>);

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("a section is a struct"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.set(fields);
        Err(de::Error::custom("noted"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

/// How a setting is named where it was set: its key in the file, its
/// `INTAKE_*` variable, or its flag.
fn place(error: &figment::Error, flag: fn(&str) -> Option<&'static str>) -> String {
    let key = error.path.join(".");
    let Some(metadata) = &error.metadata else {
        return format!("`{key}`");
    };
    match &metadata.source {
        Some(Source::File(file)) => format!("`{key}` in {}", file.display()),
        _ if metadata.name.contains("environment variable") => {
            format!("INTAKE_{}", key.to_ascii_uppercase())
        }
        _ if metadata.name.ends_with("FlagOverrides") => match flag(&key) {
            Some(flag) => flag.to_owned(),
            None => format!("`{key}`"),
        },
        _ => format!("`{key}`"),
    }
}

/// What is wrong, in words.
fn problem(kind: &Kind) -> String {
    match kind {
        Kind::InvalidType(found, expected) => format!("expected {expected}, found {found}"),
        Kind::UnknownVariant(found, expected) => {
            let expected: Vec<String> = expected.iter().map(|name| format!("`{name}`")).collect();
            format!("`{found}` is not one of {}", expected.join(", "))
        }
        other => other.to_string(),
    }
}

/// One line per error, each naming its key and its problem, such as
/// "INTAKE_LISTEN: `foo` is not a socket address (…)".
pub fn describe(error: figment::Error, flag: fn(&str) -> Option<&'static str>) -> anyhow::Error {
    let lines: Vec<String> = error
        .into_iter()
        .map(|error| format!("{}: {}", place(&error, flag), problem(&error.kind)))
        .collect();
    anyhow::anyhow!(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Section {
        first: u32,
        #[serde(rename = "second_seconds")]
        second: String,
    }

    #[test]
    fn a_section_names_its_keys_as_written() {
        assert_eq!(super::of::<Section>(), ["first", "second_seconds"]);
    }
}
