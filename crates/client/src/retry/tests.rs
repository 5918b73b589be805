use super::*;
use intake_api::Problem;

const SECOND: Duration = Duration::from_secs(1);

fn status(status: u16, retry_after: Option<Duration>) -> Outcome {
    Outcome::Status {
        status,
        retry_after,
    }
}

fn is_retry(decision: Decision) -> bool {
    matches!(decision, Decision::Retry(_))
}

#[test]
fn the_default_policy_is_five_attempts_200ms_10s_60s() {
    let policy = RetryPolicy::default();
    assert_eq!(policy.max_attempts, 5);
    assert_eq!(policy.base_delay, Duration::from_millis(200));
    assert_eq!(policy.max_delay, Duration::from_secs(10));
    assert_eq!(policy.max_elapsed, Duration::from_secs(60));
}

#[test]
fn only_429_502_503_504_and_in_flight_409_are_retried_among_all_error_statuses() {
    let policy = RetryPolicy::default();
    for code in 400..=599 {
        for retry_after in [None, Some(SECOND)] {
            let expected =
                matches!(code, 429 | 502 | 503 | 504) || (code == 409 && retry_after.is_some());
            let decision = policy.decide(&status(code, retry_after), 1);
            assert_eq!(
                is_retry(decision),
                expected,
                "status {code}, Retry-After {retry_after:?}: {decision:?}"
            );
        }
    }
}

#[test]
fn the_documented_final_statuses_are_never_retried_even_with_retry_after() {
    let policy = RetryPolicy::default();
    for code in [400, 401, 403, 404, 413, 415, 422, 500] {
        assert_eq!(
            policy.decide(&status(code, Some(SECOND)), 1),
            Decision::GiveUp
        );
    }
}

#[test]
fn a_409_without_retry_after_is_a_key_reused_for_another_body_and_final() {
    let policy = RetryPolicy::default();
    assert_eq!(policy.decide(&status(409, None), 1), Decision::GiveUp);
    assert_eq!(
        policy.decide(&status(409, Some(Duration::ZERO)), 1),
        Decision::Retry(Duration::ZERO)
    );
}

#[test]
fn retry_after_is_honoured_exactly_below_max_delay_and_capped_above() {
    let policy = RetryPolicy::default();
    for code in [409, 429, 503] {
        assert_eq!(
            policy.decide(&status(code, Some(3 * SECOND)), 2),
            Decision::Retry(3 * SECOND)
        );
        assert_eq!(
            policy.decide(&status(code, Some(3600 * SECOND)), 2),
            Decision::Retry(policy.max_delay)
        );
    }
}

#[test]
fn transport_failures_are_retried_and_final_outcomes_are_not() {
    let policy = RetryPolicy::default();
    assert!(is_retry(policy.decide(&Outcome::Transport, 1)));
    assert_eq!(policy.decide(&Outcome::Final, 1), Decision::GiveUp);
}

#[test]
fn the_last_allowed_attempt_gives_up_whatever_the_outcome() {
    let policy = RetryPolicy {
        max_attempts: 3,
        ..RetryPolicy::default()
    };
    let retryable = [
        Outcome::Transport,
        status(503, Some(SECOND)),
        status(429, None),
    ];
    for outcome in retryable {
        assert!(is_retry(policy.decide(&outcome, 1)));
        assert!(is_retry(policy.decide(&outcome, 2)));
        assert_eq!(policy.decide(&outcome, 3), Decision::GiveUp);
        assert_eq!(policy.decide(&outcome, 4), Decision::GiveUp);
    }
}

#[test]
fn the_none_policy_never_retries() {
    let policy = RetryPolicy::none();
    assert_eq!(policy.max_attempts, 1);
    for outcome in [
        Outcome::Transport,
        status(503, Some(SECOND)),
        status(409, Some(SECOND)),
    ] {
        assert_eq!(policy.decide(&outcome, 1), Decision::GiveUp);
    }
}

#[test]
fn backoff_doubles_from_the_base_delay_up_to_max_delay() {
    let policy = RetryPolicy::default();
    let caps: Vec<_> = (1..=8).map(|attempt| policy.backoff_cap(attempt)).collect();
    let millis: Vec<_> = caps.iter().map(Duration::as_millis).collect();
    assert_eq!(millis, [200, 400, 800, 1600, 3200, 6400, 10_000, 10_000]);
    assert_eq!(policy.backoff_cap(0), policy.base_delay);
    assert_eq!(policy.backoff_cap(u32::MAX), policy.max_delay);
}

#[test]
fn a_retry_without_retry_after_waits_between_zero_and_the_backoff_cap() {
    let policy = RetryPolicy {
        max_attempts: 10,
        ..RetryPolicy::default()
    };
    for attempt in 1..=9 {
        let cap = policy.backoff_cap(attempt);
        for _ in 0..200 {
            for outcome in [Outcome::Transport, status(503, None), status(429, None)] {
                match policy.decide(&outcome, attempt) {
                    Decision::Retry(delay) => assert!(delay <= cap, "{delay:?} > {cap:?}"),
                    Decision::GiveUp => panic!("{outcome:?} must be retried"),
                }
            }
        }
    }
}

#[test]
fn jittered_backoff_is_not_a_constant() {
    let policy = RetryPolicy::default();
    let delays: std::collections::HashSet<_> = (0..50).map(|_| policy.backoff(3)).collect();
    assert!(delays.len() > 1, "full jitter draws different waits");
}

#[test]
fn a_retry_must_start_within_max_elapsed() {
    let policy = RetryPolicy::default();
    assert!(policy.within_budget(Duration::from_secs(50), Duration::from_secs(10)));
    assert!(!policy.within_budget(Duration::from_secs(55), Duration::from_secs(10)));
    assert!(!policy.within_budget(Duration::MAX, Duration::MAX));
}

#[test]
fn errors_map_to_outcomes() {
    let problem = ClientError::Problem {
        problem: Box::new(Problem::new(
            503,
            "store unavailable",
            "/v1/affiliate-job/jobs",
        )),
        retry_after: Some(SECOND),
        request_id: None,
    };
    assert_eq!(Outcome::from(&problem), status(503, Some(SECOND)));
    let proxy = ClientError::Status {
        status: 502,
        body: "<html>Bad Gateway</html>".into(),
        retry_after: None,
        request_id: None,
    };
    assert_eq!(Outcome::from(&proxy), status(502, None));
    let builder = reqwest::Client::new()
        .get("not a url")
        .build()
        .expect_err("a relative URL cannot be built");
    assert_eq!(
        Outcome::from(&ClientError::Network(builder)),
        Outcome::Final
    );
    assert_eq!(
        Outcome::from(&ClientError::Unexpected("x".into())),
        Outcome::Final
    );
    assert_eq!(
        Outcome::from(&ClientError::Config("x".into())),
        Outcome::Final
    );
}
