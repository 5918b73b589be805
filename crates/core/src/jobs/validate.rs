//! Checking a job as sent (DESIGN.md §3): every member, every problem at once.

use crate::categories::CategoryTree;
use crate::email::Email;
use crate::postcode::Postcode;
use intake_api::jobs::rules;
use intake_api::PreferredStartId;
use serde_json::{Map, Value};
use std::fmt;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime};

mod controls;
#[cfg(test)]
mod tests;

/// Longest description accepted, in characters.
pub const MAX_DESCRIPTION: usize = rules::DESCRIPTION_MAX_CHARS;
/// Longest name or address line accepted, in characters.
pub const MAX_SHORT_TEXT: usize = rules::SHORT_TEXT_MAX_CHARS;

/// A job whose every member passed its checks.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidatedJob {
    /// A known category id.
    pub category_id: u32,
    /// Trimmed, more than 10 characters; line breaks as LF.
    pub description: String,
    /// The homeowner's e-mail address.
    pub email: Email,
    /// The homeowner's phone number.
    pub phone: Phone,
    /// Trimmed, not blank.
    pub first_name: String,
    /// Trimmed, not blank.
    pub last_name: String,
    /// Where the job is.
    pub postcode: Postcode,
    /// The full address, when given.
    pub address: Option<ValidAddress>,
    /// When to start, when given.
    pub preferred_start: Option<ValidPreferredStart>,
}

/// A checked address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidAddress {
    /// First line.
    pub line1: String,
    /// Second line.
    pub line2: Option<String>,
    /// Third line.
    pub line3: Option<String>,
    /// Town or city.
    pub city: String,
    /// Postcode of the address.
    pub postcode: Postcode,
}

/// A checked preferred start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValidPreferredStart {
    /// One of the five options.
    pub id: PreferredStartId,
    /// The date asked for, if any.
    pub date: Option<Date>,
}

/// A phone number: an optional `+` and 5 to 15 digits, once spaces, dots,
/// hyphens and brackets are taken out (people write `07900 000 000`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Phone(String);

impl Phone {
    /// Parses and normalises.
    pub fn parse(text: &str) -> Option<Phone> {
        let compact: String = text
            .chars()
            .filter(|c| !rules::PHONE_SEPARATORS.contains(c))
            .collect();
        let digits = compact.strip_prefix('+').unwrap_or(&compact);
        ((5..=15).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit()))
            .then_some(Phone(compact))
    }

    /// The normalised number.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// One member that failed its check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The member, e.g. `address.city`.
    pub field: String,
    /// What is wrong and what is expected.
    pub message: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` {}", self.field, self.message)
    }
}

/// Checks a decoded JSON body against the rules and the category tree.
pub fn validate(body: &Value, tree: &CategoryTree) -> Result<ValidatedJob, Vec<FieldError>> {
    let Some(object) = body.as_object() else {
        return Err(vec![FieldError {
            field: "(body)".into(),
            message: "must be a JSON object".into(),
        }]);
    };
    let mut errors = Vec::new();
    let mut check = Checker {
        object,
        errors: &mut errors,
        prefix: "",
    };
    let category_id = check.category(tree);
    let description = check.description();
    let email = check.required_string("email").and_then(|text| {
        check.parsed(
            "email",
            Email::parse(text).ok(),
            "must be a valid e-mail address",
        )
    });
    let phone = check.required_string("phone").and_then(|text| {
        check.parsed(
            "phone",
            Phone::parse(text),
            "must be a phone number: an optional + and 5 to 15 digits",
        )
    });
    let first_name = check.text("firstName", 1, MAX_SHORT_TEXT, "must not be blank");
    let last_name = check.text("lastName", 1, MAX_SHORT_TEXT, "must not be blank");
    let postcode = check
        .required_string("postcode")
        .and_then(|text| check.postcode("postcode", text));
    let address = check.address();
    let preferred_start = check.preferred_start();
    match (
        category_id,
        description,
        email,
        phone,
        first_name,
        last_name,
        postcode,
    ) {
        (
            Some(category_id),
            Some(description),
            Some(email),
            Some(phone),
            Some(first_name),
            Some(last_name),
            Some(postcode),
        ) if errors.is_empty() => Ok(ValidatedJob {
            category_id,
            description,
            email,
            phone,
            first_name,
            last_name,
            postcode,
            address: address.flatten(),
            preferred_start: preferred_start.flatten(),
        }),
        _ => Err(errors),
    }
}

struct Checker<'a> {
    object: &'a Map<String, Value>,
    errors: &'a mut Vec<FieldError>,
    /// Put before member names in errors: `address.` inside the address.
    prefix: &'static str,
}

impl<'a> Checker<'a> {
    fn fail<T>(&mut self, field: &str, message: impl Into<String>) -> Option<T> {
        self.errors.push(FieldError {
            field: format!("{}{field}", self.prefix),
            message: message.into(),
        });
        None
    }

    /// A required string member without control characters.
    fn required_string(&mut self, field: &str) -> Option<&'a str> {
        let text = self.any_string(field)?;
        self.single_line(field, text)
    }

    /// A required string member, whatever characters it holds.
    fn any_string(&mut self, field: &str) -> Option<&'a str> {
        match self.object.get(field) {
            None | Some(Value::Null) => self.fail(field, "is required"),
            Some(Value::String(text)) => Some(text.as_str()),
            Some(_) => self.fail(field, "must be a string"),
        }
    }

    /// `text`, unless it holds a control character: the error names the
    /// character and its place, and never echoes the text.
    fn single_line<'t>(&mut self, field: &str, text: &'t str) -> Option<&'t str> {
        match controls::first(text) {
            None => Some(text),
            Some(control) => self.fail(field, control.message(controls::SINGLE_LINE)),
        }
    }

    fn parsed<T>(&mut self, field: &str, value: Option<T>, message: &str) -> Option<T> {
        match value {
            Some(value) => Some(value),
            None => self.fail(field, message),
        }
    }

    fn text(&mut self, field: &str, min: usize, max: usize, message: &str) -> Option<String> {
        let text = self.required_string(field)?;
        self.length(field, text, min, max, message)
    }

    /// The description: line breaks and tabs allowed, CRLF and CR kept as LF.
    fn description(&mut self) -> Option<String> {
        let sent = self.any_string("description")?;
        match controls::description(sent) {
            Ok(text) => self.length(
                "description",
                &text,
                rules::DESCRIPTION_MIN_CHARS,
                MAX_DESCRIPTION,
                "must be more than 10 characters once trimmed",
            ),
            Err(control) => self.fail("description", control.message(controls::DESCRIPTION)),
        }
    }

    /// `text` trimmed, if its length is within `min..=max`.
    fn length(
        &mut self,
        field: &str,
        text: &str,
        min: usize,
        max: usize,
        message: &str,
    ) -> Option<String> {
        let text = text.trim();
        let length = text.chars().count();
        if length < min {
            return self.fail(field, message);
        }
        if length > max {
            return self.fail(field, format!("must be at most {max} characters"));
        }
        Some(text.to_owned())
    }

    fn postcode(&mut self, field: &str, text: &str) -> Option<Postcode> {
        match Postcode::parse(text) {
            Ok(postcode) => Some(postcode),
            Err(error) => self.fail(field, format!("is invalid: {error}")),
        }
    }

    fn category(&mut self, tree: &CategoryTree) -> Option<u32> {
        let id = match self.object.get("categoryId") {
            None | Some(Value::Null) => return self.fail("categoryId", "is required"),
            Some(Value::Number(number)) => whole_number(number),
            Some(Value::String(text)) => {
                let text = self.single_line("categoryId", text)?;
                (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| text.parse::<u64>().ok())
                    .flatten()
            }
            Some(_) => None,
        };
        let Some(id) = id
            .and_then(|id| u32::try_from(id).ok())
            .filter(|id| *id >= 1)
        else {
            return self.fail(
                "categoryId",
                "must be a category id: a positive whole number, or a string of digits",
            );
        };
        if tree.get(id).is_none() {
            return self.fail(
                "categoryId",
                format!("{id} is not a known category; see /api/v1/category"),
            );
        }
        Some(id)
    }

    fn address(&mut self) -> Option<Option<ValidAddress>> {
        let object = match self.object.get("address") {
            None | Some(Value::Null) => return Some(None),
            Some(Value::Object(object)) => object,
            Some(_) => {
                return self.fail("address", "must be an object with line1, city and postcode")
            }
        };
        let mut inner = Checker {
            object,
            errors: &mut *self.errors,
            prefix: "address.",
        };
        let line1 = inner.text("line1", 1, MAX_SHORT_TEXT, "must not be blank");
        let line2 = inner.optional_text("line2");
        let line3 = inner.optional_text("line3");
        let city = inner.text("city", 1, MAX_SHORT_TEXT, "must not be blank");
        let postcode = inner
            .required_string("postcode")
            .and_then(|text| inner.postcode("postcode", text));
        Some(Some(ValidAddress {
            line1: line1?,
            line2: line2?,
            line3: line3?,
            city: city?,
            postcode: postcode?,
        }))
    }

    fn optional_text(&mut self, field: &str) -> Option<Option<String>> {
        match self.object.get(field) {
            None | Some(Value::Null) => Some(None),
            Some(Value::String(text)) => {
                let text = self.single_line(field, text)?;
                if text.chars().count() > MAX_SHORT_TEXT {
                    return self.fail(
                        field,
                        format!("must be at most {MAX_SHORT_TEXT} characters"),
                    );
                }
                Some(Some(text.trim().to_owned()).filter(|t| !t.is_empty()))
            }
            Some(_) => self.fail(field, "must be a string"),
        }
    }

    fn preferred_start(&mut self) -> Option<Option<ValidPreferredStart>> {
        let object = match self.object.get("preferredStart") {
            None | Some(Value::Null) => return Some(None),
            Some(Value::Object(object)) => object,
            Some(_) => {
                return self.fail(
                    "preferredStart",
                    "must be an object such as {\"id\": \"WITHIN_2_WEEKS\"}",
                )
            }
        };
        let ids = PreferredStartId::ALL
            .map(PreferredStartId::as_str)
            .join(", ");
        let id = match object.get("id") {
            Some(Value::String(text)) => {
                self.single_line("preferredStart.id", text)
                    .and_then(|text| match PreferredStartId::parse(text) {
                        Some(id) => Some(id),
                        None => self.fail(
                            "preferredStart.id",
                            format!("`{text}` is not a preferred-start option; use one of {ids}"),
                        ),
                    })
            }
            None | Some(Value::Null) => {
                self.fail("preferredStart.id", format!("is required: one of {ids}"))
            }
            Some(_) => self.fail("preferredStart.id", "must be a string"),
        };
        let date = match object.get("date") {
            None | Some(Value::Null) => Some(None),
            Some(Value::String(text)) => {
                self.single_line("preferredStart.date", text)
                    .and_then(|text| match parse_date(text) {
                        Some(date) => Some(Some(date)),
                        None => self.fail(
                            "preferredStart.date",
                            format!("`{text}` is not a date; use YYYY-MM-DD"),
                        ),
                    })
            }
            Some(_) => self.fail("preferredStart.date", "must be a string YYYY-MM-DD"),
        };
        Some(Some(ValidPreferredStart {
            id: id?,
            date: date?,
        }))
    }
}

/// The value of a JSON number that is a whole number: `1335`, and also
/// `1335.0` or `1.335e3`, which are the same number to JSON (Python's `json`
/// writes a float id that way).
fn whole_number(number: &serde_json::Number) -> Option<u64> {
    number.as_u64().or_else(|| {
        number
            .as_f64()
            .filter(|value| value.fract() == 0.0 && (0.0..=u64::MAX as f64).contains(value))
            .map(|value| value as u64)
    })
}

/// `YYYY-MM-DD`, or an RFC 3339 date-time (its calendar date is kept).
fn parse_date(text: &str) -> Option<Date> {
    let text = text.trim();
    Date::parse(text, format_description!("[year]-[month]-[day]"))
        .ok()
        .or_else(|| {
            OffsetDateTime::parse(text, &Rfc3339)
                .ok()
                .map(|at| at.date())
        })
}
