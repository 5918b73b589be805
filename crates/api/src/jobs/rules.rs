//! The rules a job request's members must meet, in one place: the server's
//! validation (`intake_core::jobs::validate`) applies them, and the OpenAPI
//! schema of [`JobRequest`](super::JobRequest) states them from these
//! constants, so the document cannot drift from what is accepted.
//!
//! The patterns are ECMA-262 (what OpenAPI 3.1 / JSON Schema use) and read
//! the same in the `regex` crate: ASCII classes only, no look-around.

use utoipa::openapi::schema::{
    ObjectBuilder, OneOfBuilder, Schema, SchemaFormat, SchemaType, Type,
};
use utoipa::openapi::{KnownFormat, RefOr};

/// The control characters (Unicode general category Cc: C0, DEL and C1) as
/// the body of a character class, for the patterns below.
macro_rules! controls {
    () => {
        r"\x00-\x1F\x7F-\x9F"
    };
}

/// The control characters refused in a description as it is sent: all but
/// tab, LF and CR (CR becomes LF).
macro_rules! description_controls {
    () => {
        r"\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F"
    };
}

/// The control characters a description may hold: tabs and line breaks, which
/// are part of a text (CRLF and a lone CR are stored as LF). Every other
/// control character (Unicode general category Cc, C1 included) is refused in
/// the description, and every one of them in the other text members: they
/// would reach logs, lead e-mails and the trades' own systems as they are.
pub const DESCRIPTION_CONTROLS: [char; 3] = ['\t', '\n', '\r'];

/// Fewest characters of a description, once trimmed: the specification's
/// "more than 10 characters".
pub const DESCRIPTION_MIN_CHARS: usize = 11;
/// Most characters of a description, once trimmed (the specification sets no maximum).
pub const DESCRIPTION_MAX_CHARS: usize = 5000;
/// Most characters of a name or an address line (the specification sets no maximum).
pub const SHORT_TEXT_MAX_CHARS: usize = 200;

/// The specification's phone pattern.
pub const SPEC_PHONE_PATTERN: &str = r"^\+?\d{5,15}$";
/// Characters taken out of a phone number before [`SPEC_PHONE_PATTERN`] is
/// applied: people write `07900 000 000` and `(0161) 496-0000`.
pub const PHONE_SEPARATORS: [char; 5] = [' ', '-', '.', '(', ')'];
/// What the server accepts as a phone number: [`SPEC_PHONE_PATTERN`] with
/// any [`PHONE_SEPARATORS`] anywhere.
pub const PHONE_PATTERN: &str = r"^[ .()-]*(?:\+[ .()-]*)?(?:[0-9][ .()-]*){5,15}$";

/// What the server accepts as a postcode: the specification's later,
/// case-insensitive pattern, anchored as a whole (the published one anchors
/// `^` to `GIR 0AA` only and `$` to the rest only), with any whitespace but
/// a control character (a tab, a line break) around it and between its two
/// halves.
pub const POSTCODE_PATTERN: &str = concat!(
    r"^[^\S",
    controls!(),
    r"]*(?:[Gg][Ii][Rr][^\S",
    controls!(),
    r"]*0[Aa]{2}|(?:[A-Za-z][0-9]{1,2}|[A-Za-z][A-Ha-hJ-Yj-y][0-9]{1,2}|[A-Za-z][0-9][A-Za-z]|[A-Za-z][A-Ha-hJ-Yj-y][0-9][A-Za-z]?)[^\S",
    controls!(),
    r"]*[0-9][A-Za-z]{2})[^\S",
    controls!(),
    r"]*$"
);

/// A `categoryId` sent as a string: digits, not all zeros.
pub const CATEGORY_ID_STRING_PATTERN: &str = r"^[0-9]*[1-9][0-9]*$";

/// `preferredStart.date`: a calendar date `YYYY-MM-DD`, or an RFC 3339
/// date-time whose date is kept (the specification does not state a format).
pub const DATE_PATTERN: &str = concat!(
    r"^[^\S",
    controls!(),
    r"]*[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[^",
    controls!(),
    r"][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2}))?[^\S",
    controls!(),
    r"]*$"
);

/// A description is not blank at either end for [`DESCRIPTION_MIN_CHARS`]
/// characters (more than 10 characters from the first that is not whitespace
/// to the last), and holds no control character but tabs and line breaks
/// (CR included: CRLF and a lone CR are stored as LF).
pub const DESCRIPTION_PATTERN: &str = concat!(
    "^[^",
    description_controls!(),
    r"]*[^\s",
    controls!(),
    "][^",
    description_controls!(),
    r"]{9,}[^\s",
    controls!(),
    "][^",
    description_controls!(),
    "]*$"
);
/// Names, `address.line1` and `address.city`: something other than
/// whitespace, and no control character (not even a tab or a line break).
pub const NOT_BLANK_PATTERN: &str = concat!(
    "^[^",
    controls!(),
    r"]*[^\s",
    controls!(),
    "][^",
    controls!(),
    "]*$"
);
/// `address.line2` and `address.line3`: no control character.
pub const LINE_PATTERN: &str = concat!("^[^", controls!(), "]*$");

/// `categoryId`: a whole number from 1, or a string of digits.
pub fn category_id_schema() -> RefOr<Schema> {
    OneOfBuilder::new()
        .item(
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(1))
                .maximum(Some(u32::MAX))
                .description(Some("The category id as a JSON number (the specification's type).")),
        )
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some(CATEGORY_ID_STRING_PATTERN))
                .description(Some("The category id as a string of digits, as the specification's multipart example sends it; accepted in every job body.")),
        )
        .description(Some(
            "A category id from /api/v1/category: a JSON number, or a string of digits. It must be a known category.",
        ))
        .examples([serde_json::json!(1335)])
        .into()
}

/// `description`.
pub fn description_schema() -> RefOr<Schema> {
    text_schema(
        DESCRIPTION_MIN_CHARS,
        DESCRIPTION_MAX_CHARS,
        DESCRIPTION_PATTERN,
        "What needs doing: more than 10 characters once surrounding whitespace is trimmed (the lengths count the trimmed text). Line breaks and tabs are kept, CRLF and a lone CR stored as LF; any other control character is refused. A very short or thin description can be classified as spam.",
        Some("Boiler not working, no hot water since Monday."),
    )
}

/// `firstName`, `lastName`, `address.line1`, `address.city`.
pub fn short_text_schema() -> RefOr<Schema> {
    text_schema(
        1,
        SHORT_TEXT_MAX_CHARS,
        NOT_BLANK_PATTERN,
        "Not blank; at most 200 characters once trimmed; no control characters (tabs and line breaks included).",
        None,
    )
}

fn text_schema(
    min: usize,
    max: usize,
    pattern: &str,
    description: &str,
    example: Option<&str>,
) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(min))
        .max_length(Some(max))
        .pattern(Some(pattern))
        .description(Some(description))
        .examples(example.map(|example| serde_json::json!(example)))
        .into()
}

/// `email`.
pub fn email_schema() -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Email)))
        .max_length(Some(254))
        .description(Some(
            "The homeowner's e-mail address, a bare `local@domain.tld` (no display name, no control characters).",
        ))
        .examples([serde_json::json!("sam.jones@example.com")])
        .into()
}

/// `phone`.
pub fn phone_schema() -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(PHONE_PATTERN))
        .description(Some(format!(
            "The homeowner's phone number: `{SPEC_PHONE_PATTERN}` (an optional + and 5 to 15 digits) once spaces, hyphens, dots and brackets are removed; it is stored without them."
        )))
        .examples([serde_json::json!("07900 000000")])
        .into()
}

/// `postcode` and `address.postcode`.
pub fn postcode_schema() -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(POSTCODE_PATTERN))
        .description(Some(
            "A UK postcode, any case, with or without the space (`GIR 0AA` included); stored upper case with one space. A tab or a line break is refused, though the specification's `\\s` would allow one.",
        ))
        .examples([serde_json::json!("SW1A 1AA")])
        .into()
}

/// `preferredStart.date`.
pub fn date_schema() -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([
            Type::String,
            Type::Null,
        ]))
        .pattern(Some(DATE_PATTERN))
        .description(Some(
            "A calendar date `YYYY-MM-DD`, or an RFC 3339 date-time of which the date is kept. Absent or null: no particular date.",
        ))
        .examples([serde_json::json!("2026-12-01")])
        .into()
}

/// `address.line2`, `address.line3`.
pub fn optional_line_schema() -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .max_length(Some(SHORT_TEXT_MAX_CHARS))
        .pattern(Some(LINE_PATTERN))
        .description(Some(
            "Optional; blank or null is the same as absent; no control characters.",
        ))
        .into()
}
