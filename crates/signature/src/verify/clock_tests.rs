//! The clock checks: `Date` skew, `(created)` and `(expires)`, including the negative cases
//! "date outside the skew or unparsable" of SIGNATURES.md.

use std::time::Duration;

use super::negative::{row_4, verify_a, with_header_value};
use super::tests::{job_header, job_request, opts, BODY, FULL_SIG, NOW, SECRET};
use super::*;
use crate::fixtures::{message_a, BODY_A, NOW_A};
use crate::{Algorithm, DateError, TimeSource};

#[test]
fn a_date_outside_the_skew_is_rejected_in_the_past_and_the_future() {
    for (now, offset) in [
        (NOW_A + Duration::from_secs(301), -301),
        (NOW_A - Duration::from_secs(301), 301),
    ] {
        let err = verify(
            &message_a(),
            BODY_A,
            &row_4(),
            Some(b"secret"),
            &VerifyOptions::new(now),
        );
        assert!(
            matches!(err, Err(VerifyError::DateSkew { offset_secs, .. }) if offset_secs == offset)
        );
    }
}

#[test]
fn a_smaller_configured_skew_is_honoured() {
    let opts = VerifyOptions {
        max_skew: Duration::from_secs(30),
        ..VerifyOptions::new(NOW_A + Duration::from_secs(31))
    };
    let err = verify(&message_a(), BODY_A, &row_4(), Some(b"secret"), &opts);
    assert!(matches!(
        err,
        Err(VerifyError::DateSkew {
            max_skew_secs: 30,
            ..
        })
    ));
}

#[test]
fn an_unparsable_date_is_rejected() {
    let m = with_header_value("Date", "yesterday");
    let err = verify_a(&m, BODY_A).unwrap_err();
    assert_eq!(
        err,
        VerifyError::Date(DateError {
            value: "yesterday".into()
        })
    );
    assert_eq!(err.summary(), "unparsable date");
}

#[test]
fn created_can_replace_date_and_is_checked_against_the_clock() {
    let m = Message::new("GET", "/v1/affiliate-job/jobs/42").header("Host", "api.example.com");
    let header = SignatureHeader::parse(
        "keyId=\"k\",algorithm=\"hmac-sha512\",created=1714557600,\
         headers=\"(created) (request-target) host\",signature=\"uLRZF3bbwOgT0ScqEFVaxMzrzAHvws8HBZpesNoeqlHThV7xbI+rp3iFrMbyjDMbak8Xd8Pcxp4MeXa4zkO7Nw==\"",
    )
    .unwrap();
    assert!(verify(&m, b"", &header, Some(SECRET), &opts()).is_ok());

    let later = VerifyOptions {
        now: NOW + Duration::from_secs(301),
        ..opts()
    };
    let err = verify(&m, b"", &header, Some(SECRET), &later).unwrap_err();
    assert!(
        matches!(
            err,
            VerifyError::DateSkew {
                what: TimeSource::Created,
                offset_secs: -301,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn a_created_in_the_future_is_rejected() {
    let m = job_request();
    let future = NOW.unix_timestamp() + 600;
    let sig = crate::sign_with_times(
        &m,
        "k",
        Algorithm::HmacSha256,
        SECRET,
        &["(created)"],
        Some(future),
        None,
    )
    .unwrap();
    let err = verify(&m, BODY, &sig, Some(SECRET), &opts()).unwrap_err();
    assert!(
        matches!(
            err,
            VerifyError::DateSkew {
                offset_secs: 600,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn an_expired_signature_is_rejected_and_a_current_one_accepted() {
    let m = job_request();
    let sign_until = |expires: i64| {
        crate::sign_with_times(
            &m,
            "k",
            Algorithm::HmacSha256,
            SECRET,
            &["date", "(expires)"],
            None,
            Some(expires),
        )
        .unwrap()
    };
    let now = NOW.unix_timestamp();
    assert!(verify(&m, BODY, &sign_until(now + 60), Some(SECRET), &opts()).is_ok());
    let err = verify(&m, BODY, &sign_until(now - 301), Some(SECRET), &opts()).unwrap_err();
    assert!(matches!(err, VerifyError::Expired { .. }), "{err:?}");
    assert!(err.to_string().contains("2024-05-01T09:54:59Z"), "{err}");
}

#[test]
fn the_date_skew_error_names_server_time_received_date_and_allowed_skew() {
    let opts = VerifyOptions {
        now: NOW + Duration::from_secs(3600),
        ..opts()
    };
    let err = verify(
        &job_request(),
        BODY,
        &job_header(FULL_SIG),
        Some(SECRET),
        &opts,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the Date header `2024-05-01T10:00:00.000Z` is 3600 seconds behind the server time \
         2024-05-01T11:00:00Z; the allowed skew is 300 seconds either way; sign with the current \
         time and check the client's clock"
    );
    assert_eq!(err.summary(), "date outside allowed skew");
}

#[test]
fn a_date_exactly_at_the_skew_limit_is_accepted() {
    let opts = VerifyOptions {
        now: NOW - Duration::from_secs(300),
        ..opts()
    };
    assert!(verify(
        &job_request(),
        BODY,
        &job_header(FULL_SIG),
        Some(SECRET),
        &opts
    )
    .is_ok());
}
