//! Judging a request head as hyper would, to say what hyper would not.
//!
//! Each refusal mirrors one of hyper's (1.x, `proto/h1/role.rs`): the same
//! parser with the same settings (httparse, default configuration, 100
//! header slots), the same target, method, `Transfer-Encoding` and
//! `Content-Length` rules, the same status. Anything this does not refuse is
//! handed to hyper unchanged, so a head judged here can only ever be refused
//! with a better answer, never refused where hyper would have served it.

use crate::head_limits::{MAX_HEADERS, MAX_HEADER_BYTES, MAX_URI_BYTES};
use axum::http::{HeaderValue, Method, StatusCode, Uri};

/// hyper's own caps: header lines parsed, and bytes in a request target.
const HYPER_MAX_HEADERS: usize = 100;
const HYPER_MAX_URI_BYTES: usize = u16::MAX as usize - 1;
/// The largest Content-Length hyper takes.
const HYPER_MAX_CONTENT_LENGTH: u64 = u64::MAX - 2;
/// How an HTTP/2 connection with prior knowledge begins; hyper closes those itself.
const H2_PREFACE_START: &[u8] = b"PRI * HTTP/2.0";
/// Most bytes of a client's line quoted in a detail.
const QUOTE_BYTES: usize = 60;

/// What to do with the bytes of a first head gathered so far.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Not a whole head yet, nor wrong so far: read on.
    Incomplete,
    /// A head hyper will take (or refuse for a reason not judged here).
    Fine,
    /// A head hyper would answer with an empty 400, 414 or 431.
    Malformed {
        status: StatusCode,
        detail: String,
        /// The method and path to answer for, when the request line has them.
        method: Option<String>,
        path: Option<String>,
    },
}

/// Judges `head`, all the bytes of a connection so far; a head not whole
/// within `max_head_bytes` (hyper's read buffer) is too large.
pub fn judge(head: &[u8], max_head_bytes: usize) -> Verdict {
    if head.starts_with(H2_PREFACE_START) {
        return Verdict::Fine;
    }
    let mut headers = [httparse::EMPTY_HEADER; HYPER_MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    let parsed = httparse::ParserConfig::default().parse_request(&mut request, head);
    let malformed = |status, detail: String| Verdict::Malformed {
        status,
        detail,
        method: request.method.map(str::to_owned),
        path: request.path.map(str::to_owned),
    };
    match parsed {
        Ok(httparse::Status::Partial) if head.len() >= max_head_bytes => malformed(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!("The request head (request line and headers) is over {max_head_bytes} bytes and has not ended. The headers may be at most {MAX_HEADER_BYTES} bytes."),
        ),
        Ok(httparse::Status::Partial) => Verdict::Incomplete,
        Ok(httparse::Status::Complete(_)) => match complete(&request) {
            Ok(()) => Verdict::Fine,
            Err((status, detail)) => malformed(status, detail),
        },
        Err(httparse::Error::TooManyHeaders) => malformed(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!("The request has more than {HYPER_MAX_HEADERS} header lines, over the limit of {MAX_HEADERS}."),
        ),
        Err(httparse::Error::Token) if request.method.is_none() => malformed(
            StatusCode::BAD_REQUEST,
            format!("The request line `{}` does not start with a method (a token such as GET or POST) and one space.", quote(first_line(head))),
        ),
        Err(httparse::Error::Token) => malformed(
            StatusCode::BAD_REQUEST,
            format!("The request line `{}` does not have a request target of visible ASCII and one space after the method (spaces and other characters in a path or query must be percent-encoded).", quote(first_line(head))),
        ),
        Err(httparse::Error::Version) => malformed(
            StatusCode::BAD_REQUEST,
            format!("The request line `{}` does not end with the version HTTP/1.1 (or HTTP/1.0).", quote(first_line(head))),
        ),
        Err(error) => malformed(StatusCode::BAD_REQUEST, header_fault(head, error)),
    }
}

/// The checks hyper makes of a whole head after httparse.
fn complete(request: &httparse::Request<'_, '_>) -> Result<(), (StatusCode, String)> {
    let bad = |detail: String| Err((StatusCode::BAD_REQUEST, detail));
    let (Some(method), Some(path), Some(version)) = (request.method, request.path, request.version)
    else {
        return Ok(());
    };
    if path.len() > HYPER_MAX_URI_BYTES {
        return Err((
            StatusCode::URI_TOO_LONG,
            format!("The request target is {} bytes long, over the limit of {MAX_URI_BYTES}. Search parameters are short; check the query string.", path.len()),
        ));
    }
    if Method::from_bytes(method.as_bytes()).is_err() {
        return bad(format!(
            "The method `{}` is not a valid token.",
            quote(method.as_bytes())
        ));
    }
    if Uri::try_from(path.as_bytes()).is_err() {
        return bad(format!("The request target `{}` is not a valid URI: send an absolute path (`/v1/affiliate-job/jobs`) with any query, percent-encoded.", quote(path.as_bytes())));
    }
    let mut transfer_encoding = None;
    let mut content_length: Option<u64> = None;
    for header in request.headers.iter() {
        if header.name.eq_ignore_ascii_case("transfer-encoding") {
            if version == 0 {
                return bad("An HTTP/1.0 request cannot have a Transfer-Encoding header; send a Content-Length, or use HTTP/1.1.".to_owned());
            }
            transfer_encoding = Some(is_chunked(header.value));
        } else if header.name.eq_ignore_ascii_case("content-length") && transfer_encoding.is_none()
        {
            let Some(length) = digits(header.value) else {
                return bad(format!(
                    "The Content-Length `{}` is not a number of bytes (digits only, one value).",
                    quote(header.value)
                ));
            };
            if content_length.is_some_and(|first| first != length) {
                return bad(
                    "The request has Content-Length headers with different values; send one."
                        .to_owned(),
                );
            }
            if length > HYPER_MAX_CONTENT_LENGTH {
                return Err((
                    StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                    format!(
                        "The Content-Length {length} is over the largest this server can read."
                    ),
                ));
            }
            content_length = Some(length);
        }
    }
    if transfer_encoding == Some(false) {
        return bad("The request has a Transfer-Encoding whose last coding is not `chunked`; send `Transfer-Encoding: chunked`, or a Content-Length.".to_owned());
    }
    Ok(())
}

/// hyper's test: the last coding listed, in a value of visible ASCII, is `chunked`.
fn is_chunked(value: &[u8]) -> bool {
    HeaderValue::from_bytes(value)
        .ok()
        .and_then(|value| value.to_str().ok().map(str::to_owned))
        .and_then(|text| {
            text.rsplit(',')
                .next()
                .map(|last| last.trim().eq_ignore_ascii_case("chunked"))
        })
        .unwrap_or(false)
}

/// A Content-Length as hyper reads one: digits only, no sign, no list, no overflow.
fn digits(value: &[u8]) -> Option<u64> {
    if value.is_empty() {
        return None;
    }
    value.iter().try_fold(0u64, |sum, byte| {
        let digit = char::from(*byte).to_digit(10)?;
        sum.checked_mul(10)?.checked_add(u64::from(digit))
    })
}

/// What is wrong with the header lines, naming the first bad one.
fn header_fault(head: &[u8], error: httparse::Error) -> String {
    const NAME: &str = "A header line is a name (letters, digits and !#$%&'*+-.^_`|~, no spaces), a colon, then the value";
    let lines = head.split(|byte| *byte == b'\n').skip(1);
    for (number, line) in lines.enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            break;
        }
        let Some(colon) = line.iter().position(|byte| *byte == b':') else {
            return format!(
                "Header line {} (`{}`) has no colon. {NAME}.",
                number + 1,
                quote(line)
            );
        };
        let name = &line[..colon];
        if name.is_empty() || !name.iter().all(|byte| is_token(*byte)) {
            return format!(
                "Header line {} (`{}`) has no valid name before its colon. {NAME}.",
                number + 1,
                quote(line)
            );
        }
        if line[colon + 1..]
            .iter()
            .any(|byte| byte.is_ascii_control() && *byte != b'\t')
        {
            return format!(
                "The value of header line {} (`{}`) holds a control character.",
                number + 1,
                quote(line)
            );
        }
    }
    format!("The request head is malformed ({error}): each line must end with CRLF. {NAME}.")
}

fn is_token(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte)
}

fn first_line(head: &[u8]) -> &[u8] {
    let line = head
        .split(|byte| *byte == b'\n')
        .find(|line| !line.is_empty() && *line != b"\r");
    let line = line.unwrap_or_default();
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The client's bytes for a detail: printable ASCII as it is, anything else
/// as `\xNN`, at most [`QUOTE_BYTES`] bytes of it.
fn quote(bytes: &[u8]) -> String {
    let mut text: String = bytes
        .iter()
        .take(QUOTE_BYTES)
        .map(|byte| match byte {
            b' '..=b'~' if *byte != b'`' => char::from(*byte).to_string(),
            _ => format!("\\x{byte:02x}"),
        })
        .collect();
    if bytes.len() > QUOTE_BYTES {
        text.push_str("...");
    }
    text
}

#[cfg(test)]
mod tests;
