//! Property tests: any signed request verifies, and changing any covered part breaks it.

use std::time::Duration;

use intake_signature::{
    content_digest_header, digest_header, sign, verify, verify_head, Algorithm, Message,
    SignatureHeader, TargetForm, VerifyError, VerifyOptions,
};
use proptest::prelude::*;
use time::format_description::well_known::Rfc3339;
use time::macros::datetime;
use time::OffsetDateTime;

const NOW: OffsetDateTime = datetime!(2024-05-01 10:00:00 UTC);
const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const COVERED: [&str; 6] = [
    "(request-target)",
    "host",
    "date",
    "digest",
    "content-digest",
    "x-custom",
];

#[derive(Clone, Debug)]
struct Request {
    method: &'static str,
    path: String,
    query: Option<String>,
    host: String,
    custom: String,
    http_date: bool,
    body: Vec<u8>,
    algorithm: Algorithm,
    secret: Vec<u8>,
}

impl Request {
    fn target(&self) -> String {
        match &self.query {
            Some(q) => format!("{}?{q}", self.path),
            None => self.path.clone(),
        }
    }

    fn message(&self, target: &str, body: &[u8]) -> Message {
        let date = if self.http_date {
            httpdate::fmt_http_date(NOW.into())
        } else {
            NOW.format(&Rfc3339).unwrap()
        };
        Message::new(self.method, target)
            .header("Host", &self.host)
            .header("Date", &date)
            .header("Digest", &digest_header(body))
            .header("Content-Digest", &content_digest_header(body))
            .header("X-Custom", &self.custom)
    }

    /// Signs as a client would and sends the header as text.
    fn signed_header(&self, message: &Message) -> SignatureHeader {
        let sig = sign(message, "key-1", self.algorithm, &self.secret, &COVERED).unwrap();
        SignatureHeader::parse(&sig.to_authorization()).unwrap()
    }
}

fn request() -> impl Strategy<Value = Request> {
    (
        prop::sample::select(METHODS.to_vec()),
        prop::collection::vec("[A-Za-z0-9._~%-]{1,8}", 1..4),
        prop::option::of("[A-Za-z0-9=&%._-]{1,20}"),
        "[a-z0-9-]{1,12}\\.example",
        "[ -~]{0,30}",
        any::<bool>(),
        prop::collection::vec(any::<u8>(), 0..256),
        prop::sample::select(Algorithm::ALL.to_vec()),
        prop::collection::vec(any::<u8>(), 1..64),
    )
        .prop_map(
            |(method, segments, query, host, custom, http_date, body, algorithm, secret)| Request {
                method,
                path: format!("/{}", segments.join("/")),
                query,
                host,
                custom,
                http_date,
                body,
                algorithm,
                secret,
            },
        )
}

fn check(req: &Request, message: &Message, body: &[u8], secret: &[u8]) -> Result<(), VerifyError> {
    let original = req.message(&req.target(), &req.body);
    let header = req.signed_header(&original);
    verify(
        message,
        body,
        &header,
        Some(secret),
        &VerifyOptions::new(NOW),
    )
    .map(|_| ())
}

fn with_header(mut message: Message, name: &str, value: String) -> Message {
    for (n, v) in &mut message.headers {
        if n == name {
            *v = value.clone();
        }
    }
    message
}

proptest! {
    #[test]
    fn a_signed_request_verifies(req in request()) {
        let m = req.message(&req.target(), &req.body);
        let v = verify(&m, &req.body, &req.signed_header(&m), Some(&req.secret), &VerifyOptions::new(NOW));
        prop_assert_eq!(v.map(|v| v.target_form), Ok(TargetForm::Full));
    }

    #[test]
    fn the_body_in_any_pieces_verifies_as_the_body_at_once(
        req in request(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..6),
        tamper in any::<bool>(),
    ) {
        let m = req.message(&req.target(), &req.body);
        let header = req.signed_header(&m);
        let opts = VerifyOptions::new(NOW);
        let mut body = req.body.clone();
        if tamper {
            body.push(b'!');
        }
        let mut cuts: Vec<usize> = cuts.iter().map(|i| i.index(body.len() + 1)).collect();
        cuts.sort_unstable();
        let mut head = verify_head(&m, &header, Some(&req.secret), &opts).unwrap();
        let mut from = 0;
        for cut in cuts.into_iter().chain([body.len()]) {
            head.update(&body[from..cut]);
            from = cut;
        }
        prop_assert_eq!(head.finish(), verify(&m, &body, &header, Some(&req.secret), &opts));
    }

    #[test]
    fn changing_any_covered_part_fails_verification(req in request(), other in 1usize..METHODS.len()) {
        let target = req.target();
        let base = req.message(&target, &req.body);

        let i = METHODS.iter().position(|m| *m == req.method).unwrap();
        let method = Message { method: METHODS[(i + other) % METHODS.len()].into(), ..base.clone() };
        prop_assert!(check(&req, &method, &req.body, &req.secret).is_err(), "method");

        let path = Message { target: target.replacen(&req.path, &format!("{}x", req.path), 1), ..base.clone() };
        prop_assert!(check(&req, &path, &req.body, &req.secret).is_err(), "path");

        let sep = if req.query.is_some() { '&' } else { '?' };
        let query = Message { target: format!("{target}{sep}z=1"), ..base.clone() };
        prop_assert!(check(&req, &query, &req.body, &req.secret).is_err(), "query");

        let host = with_header(base.clone(), "Host", format!("{}x", req.host));
        prop_assert!(check(&req, &host, &req.body, &req.secret).is_err(), "host");

        let custom = with_header(base.clone(), "X-Custom", format!("{}!", req.custom));
        prop_assert!(check(&req, &custom, &req.body, &req.secret).is_err(), "x-custom");

        let mut body = req.body.clone();
        body.push(b'!');
        prop_assert!(check(&req, &base, &body, &req.secret).is_err(), "body");

        let mut secret = req.secret.clone();
        secret[0] ^= 1;
        prop_assert!(
            matches!(check(&req, &base, &req.body, &secret), Err(VerifyError::MacMismatch { .. })),
            "secret"
        );

        let late = VerifyOptions::new(NOW + Duration::from_secs(301));
        let header = req.signed_header(&base);
        prop_assert!(verify(&base, &req.body, &header, Some(&req.secret), &late).is_err(), "date");
    }

    #[test]
    fn a_target_relative_to_the_base_path_verifies_and_still_binds_the_path(req in request()) {
        let base_path = "/v1/affiliate-job";
        let relative = req.message(&req.target(), &req.body);
        let header = req.signed_header(&relative);
        let full = Message { target: format!("{base_path}{}", req.target()), ..relative.clone() };
        let opts = VerifyOptions { base_path: Some(base_path.into()), ..VerifyOptions::new(NOW) };
        let v = verify(&full, &req.body, &header, Some(&req.secret), &opts);
        prop_assert_eq!(v.map(|v| v.target_form), Ok(TargetForm::RelativeToBase));

        let elsewhere = Message { target: format!("{base_path}/other{}", req.target()), ..relative };
        prop_assert!(verify(&elsewhere, &req.body, &header, Some(&req.secret), &opts).is_err());
    }
}

fn header() -> impl Strategy<Value = SignatureHeader> {
    (
        "[ -~]{1,20}",
        prop::sample::select(Algorithm::ALL.to_vec()),
        prop::option::of(prop::sample::subsequence(
            COVERED.to_vec(),
            1..=COVERED.len(),
        )),
        any::<[u8; 64]>(),
        prop::option::of(any::<i64>()),
        prop::option::of(any::<i64>()),
    )
        .prop_map(
            |(key_id, algorithm, headers, mac, created, expires)| SignatureHeader {
                key_id,
                algorithm,
                default_headers: headers.is_none(),
                headers: headers
                    .unwrap_or_else(|| vec!["date"])
                    .into_iter()
                    .map(str::to_owned)
                    .collect(),
                signature: mac[..algorithm.mac_len()].to_vec(),
                created,
                expires,
            },
        )
}

proptest! {
    #[test]
    fn a_printed_header_parses_back_to_itself(h in header()) {
        prop_assert_eq!(SignatureHeader::parse(&h.to_string()), Ok(h.clone()));
        prop_assert_eq!(SignatureHeader::parse(&h.to_authorization()), Ok(h));
    }
}
