//! Splits `name="value", name="value"` into pairs, the auth-param syntax of RFC 9110 §11.2.

use super::{HeaderError, MAX_PARAMETERS};

/// One `name=value` pair; `quoted` says whether the value was a quoted string.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Param {
    pub name: String,
    pub value: String,
    pub quoted: bool,
}

/// Parses a comma-separated parameter list. Whitespace around commas and `=` is allowed, and so
/// are empty list elements (`a="1",,b="2"`), as in any HTTP list.
///
/// One pass: each step consumes what it reads. The parameter after the [`MAX_PARAMETERS`]th is
/// refused where it starts, so nothing after it is read.
pub(super) fn parse_params(input: &str) -> Result<Vec<Param>, HeaderError> {
    let mut params = Vec::new();
    let mut rest = input;
    loop {
        rest = rest.trim_start_matches(is_ows);
        if rest.is_empty() {
            return Ok(params);
        }
        if let Some(after) = rest.strip_prefix(',') {
            rest = after;
            continue;
        }
        if params.len() == MAX_PARAMETERS {
            return Err(HeaderError::TooManyParameters);
        }
        let name_end = rest
            .find(|c: char| c == '=' || c == ',' || c == '"' || is_ows(c))
            .unwrap_or(rest.len());
        let name = &rest[..name_end];
        let after_name = rest[name_end..].trim_start_matches(is_ows);
        let Some(after_eq) = after_name.strip_prefix('=').filter(|_| !name.is_empty()) else {
            return Err(HeaderError::ExpectedParameter {
                found: snippet(rest),
            });
        };
        let after_eq = after_eq.trim_start_matches(is_ows);
        let (value, quoted, after_value) = match after_eq.strip_prefix('"') {
            Some(body) => {
                let (value, after) =
                    quoted_string(body).ok_or_else(|| HeaderError::UnterminatedValue {
                        name: name.to_owned(),
                    })?;
                (value, true, after)
            }
            None => {
                let end = after_eq
                    .find(|c: char| c == ',' || is_ows(c))
                    .unwrap_or(after_eq.len());
                (after_eq[..end].to_owned(), false, &after_eq[end..])
            }
        };
        params.push(Param {
            name: name.to_owned(),
            value,
            quoted,
        });
        rest = after_value.trim_start_matches(is_ows);
        if !rest.is_empty() && !rest.starts_with(',') {
            return Err(HeaderError::ExpectedComma {
                after: name.to_owned(),
            });
        }
    }
}

/// Reads a quoted string after its opening quote, undoing `\` escapes. Returns the value and the
/// input after the closing quote, or `None` when the closing quote is missing.
fn quoted_string(body: &str) -> Option<(String, &str)> {
    let mut value = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((value, &body[i + 1..])),
            '\\' => value.push(chars.next()?.1),
            _ => value.push(c),
        }
    }
    None
}

fn is_ows(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// The start of the offending input, short enough to quote back in an error.
fn snippet(s: &str) -> String {
    let end = s.char_indices().nth(24).map_or(s.len(), |(i, _)| i);
    s[..end].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(name: &str, value: &str, quoted: bool) -> Param {
        Param {
            name: name.into(),
            value: value.into(),
            quoted,
        }
    }

    #[test]
    fn whitespace_around_commas_and_equals_is_tolerated() {
        let got = parse_params(" a = \"1\" ,\tb=\"x y\" , c=3 ").unwrap();
        assert_eq!(
            got,
            vec![p("a", "1", true), p("b", "x y", true), p("c", "3", false)]
        );
    }

    #[test]
    fn empty_list_elements_are_skipped() {
        let got = parse_params(",a=\"1\",,b=\"2\",").unwrap();
        assert_eq!(got, vec![p("a", "1", true), p("b", "2", true)]);
    }

    #[test]
    fn escapes_in_quoted_strings_are_undone() {
        let got = parse_params(r#"a="x\"y\\z""#).unwrap();
        assert_eq!(got, vec![p("a", r#"x"y\z"#, true)]);
    }

    #[test]
    fn a_missing_closing_quote_is_rejected() {
        let err = parse_params(r#"a="1",b="2"#).unwrap_err();
        assert_eq!(err, HeaderError::UnterminatedValue { name: "b".into() });
    }

    #[test]
    fn a_parameter_without_equals_is_rejected() {
        assert!(matches!(
            parse_params(r#"a="1",bogus"#),
            Err(HeaderError::ExpectedParameter { .. })
        ));
        assert!(matches!(
            parse_params(r#"="1""#),
            Err(HeaderError::ExpectedParameter { .. })
        ));
    }

    #[test]
    fn text_after_a_value_without_a_comma_is_rejected() {
        let err = parse_params(r#"a="1" b="2""#).unwrap_err();
        assert_eq!(err, HeaderError::ExpectedComma { after: "a".into() });
    }
}
