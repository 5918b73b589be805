//! The frame of the OpenAPI document; paths come from the router itself.

use intake_signature::{MAX_COVERED_HEADERS, MAX_HEADER_BYTES, MAX_PARAMETERS};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityScheme};
use utoipa::{Modify, OpenApi};

/// Title, description and the signature security scheme.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Affiliate Job Intake API",
        description = "Affiliate partners pass on a homeowner's job to the UK trades marketplace. Every affiliate request is signed with HTTP Signatures (draft-cavage, HMAC); see the `signature` security scheme.",
    ),
    modifiers(&SignatureScheme),
    tags(
        (name = "lookups", description = "Reference data an integrator needs"),
        (name = "trades", description = "Tradespeople of the marketplace"),
        (name = "jobs", description = "Homeowners' jobs passed on by affiliates"),
        (name = "operations", description = "Health of the service")
    )
)]
pub struct ApiDoc;

/// Describes the `Authorization: Signature ...` scheme.
struct SignatureScheme;

/// The scheme's description, with the header limits from the signature crate.
fn scheme_description() -> String {
    format!(
        "HTTP Signatures (draft-cavage, pre-11), HMAC.\n\n\
`Authorization: Signature keyId=\"KEY_ID\",algorithm=\"hmac-sha256\",headers=\"(request-target) host date digest content-length\",signature=\"BASE64\"` \
(the same value may be sent in a `Signature` header instead).\n\n\
- `algorithm`: `hmac-sha1`, `hmac-sha256` or `hmac-sha512`.\n\
- `headers`: the covered names in order; when absent only `date` is covered. `date` must be covered, or else `(created)` with a `created` parameter (Unix seconds, as later drafts sign); `(expires)` with `expires` is honoured too.\n\
- Signing string: for each name, `(request-target): <lowercased method> <path?query>` or `<lowercased name>: <trimmed value>`, joined by `\\n`, no trailing newline. The path may be the full path (`/v1/affiliate-job/jobs`) or relative to the base path (`/jobs`).\n\
- `signature`: Base64 of HMAC(secret, signing string), the secret taken as its UTF-8 bytes.\n\
- `Date` (or `created`): an HTTP date or an RFC 3339 timestamp within 300 seconds of the server clock.\n\
- When `digest` (`SHA-256=` or `SHA-512=`, RFC 3230) or `content-digest` (RFC 9530) is covered, it is checked against the raw body.\n\
- A key may require more coverage, e.g. `(request-target) host date digest`.\n\
- Limits: the header value at most {MAX_HEADER_BYTES} bytes, at most {MAX_PARAMETERS} parameters, at most {MAX_COVERED_HEADERS} names in `headers`; over any of them is a 401 naming the limit.\n\
- A signature that does not cover `(request-target)`, or a body that it does not cover with `digest` or `content-digest`, holds only for the first request it is sent with (method, path and query, body) until it expires (twice the allowed skew, 600 seconds): the same request again is answered as before (a job: its first answer), another request under it is a 401. Only `date` signed means two requests with the same `Date` share one signature. Cover `(request-target)` and, with a body, a digest so that each request has its own signature; such requests need nothing kept. The server keeps a bounded number of the others: over a key's share the answer is 429, at the server's cap 503, both with `Retry-After`.\n\n\
A refused signature answers 401 with `WWW-Authenticate: Signature` and a problem body whose `detail` says what to fix; on a MAC mismatch it shows the signing string the server built."
    )
}

impl Modify for SignatureScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "signature",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
                "Authorization",
                &scheme_description(),
            ))),
        );
    }
}
