//! The request as the signer and verifier see it, and the signing string built from it.

mod error;
#[cfg(test)]
mod tests;

pub use error::SigningStringError;

/// Headers that must appear at most once when signed: a second field would let a proxy and the
/// application read different values than the signature vouched for.
const SINGLE_VALUED: [&str; 6] = [
    "host",
    "date",
    "digest",
    "content-digest",
    "content-length",
    "content-type",
];

/// A request as seen by the signer/verifier. Header names are matched case-insensitively;
/// values kept in arrival order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Message {
    /// The request method, any case (`POST`).
    pub method: String,
    /// The path plus `?query`, byte-exact as on the request line (`/foo?param=value&pet=dog`).
    pub target: String,
    /// Every header field, name as received, in arrival order.
    pub headers: Vec<(String, String)>,
}

impl Message {
    /// A request with no headers.
    pub fn new(method: impl Into<String>, target: impl Into<String>) -> Self {
        Message {
            method: method.into(),
            target: target.into(),
            headers: Vec::new(),
        }
    }

    /// Adds a header field (builder style).
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.push_header(name, value);
        self
    }

    /// Adds a header field after those already present.
    pub fn push_header(&mut self, name: &str, value: &str) {
        self.headers.push((name.to_owned(), value.to_owned()));
    }

    /// The raw values of every field called `name` (ASCII case ignored), in arrival order.
    pub fn values(&self, name: &str) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// Builds the signing string for the covered names per SIGNATURES.md.
    ///
    /// `(request-target)` is the lowercased method, a space and `target` (not `self.target`, so
    /// a verifier can try the target relative to a base path). `(created)` and `(expires)` take
    /// the signature's parameters. Other names give `name: value`, trimmed of spaces and tabs,
    /// several fields joined with `, `. Lines are joined with `\n`, with no trailing newline.
    pub fn signing_string(
        &self,
        covered: &[String],
        target: &str,
        created: Option<i64>,
        expires: Option<i64>,
    ) -> Result<String, SigningStringError> {
        if covered.is_empty() {
            return Err(SigningStringError::NothingCovered);
        }
        let mut lines: Vec<String> = Vec::with_capacity(covered.len());
        for (i, name) in covered.iter().enumerate() {
            let name = name.to_ascii_lowercase();
            if covered[..i].iter().any(|n| n.eq_ignore_ascii_case(&name)) {
                return Err(SigningStringError::DuplicateCovered { name });
            }
            let line = match name.as_str() {
                "(request-target)" => format!(
                    "(request-target): {} {target}",
                    self.method.to_ascii_lowercase()
                ),
                "(created)" => pseudo(&name, "created", created)?,
                "(expires)" => pseudo(&name, "expires", expires)?,
                _ if name.starts_with('(') => {
                    return Err(SigningStringError::UnknownPseudoHeader { name });
                }
                _ => self.header_line(name)?,
            };
            lines.push(line);
        }
        Ok(lines.join("\n"))
    }

    fn header_line(&self, name: String) -> Result<String, SigningStringError> {
        let values = self.values(&name);
        if values.is_empty() {
            return Err(SigningStringError::MissingHeader { name });
        }
        if values.len() > 1 && SINGLE_VALUED.contains(&name.as_str()) {
            return Err(SigningStringError::RepeatedHeader {
                name,
                count: values.len(),
            });
        }
        let joined = values
            .iter()
            .map(|v| v.trim_matches([' ', '\t']))
            .collect::<Vec<_>>()
            .join(", ");
        Ok(format!("{name}: {joined}"))
    }
}

fn pseudo(
    name: &str,
    parameter: &'static str,
    value: Option<i64>,
) -> Result<String, SigningStringError> {
    let value = value.ok_or(SigningStringError::MissingParameter {
        name: name.to_owned(),
        parameter,
    })?;
    Ok(format!("{name}: {value}"))
}
