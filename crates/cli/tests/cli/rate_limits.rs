//! The per-key limits as `intake serve` reads them from its settings.

use crate::helpers::{client, create_key, data_dir, intake, Server};

#[tokio::test]
async fn the_rate_limit_comes_from_the_environment_and_zero_turns_it_off() {
    let (_tmp, dir) = data_dir();
    let key = create_key(&dir, "staging");
    let limited = [
        ("INTAKE_RATE_LIMIT_PER_SECOND", "1"),
        ("INTAKE_RATE_LIMIT_BURST", "1"),
    ];
    let server = Server::start(&dir, &[], &limited);
    let affiliate = client(&server, &key);
    assert!(affiliate.preferred_start_options().await.is_ok());
    let refused = affiliate.preferred_start_options().await.unwrap_err();
    assert_eq!(refused.status(), Some(429), "{refused}");
    drop(server);

    let off = [
        ("INTAKE_RATE_LIMIT_PER_SECOND", "0"),
        ("INTAKE_MAX_IN_FLIGHT_PER_KEY", "0"),
    ];
    let server = Server::start(&dir, &[], &off);
    let affiliate = client(&server, &key);
    for _ in 0..5 {
        assert!(affiliate.preferred_start_options().await.is_ok());
    }
}

#[test]
fn a_bad_limit_stops_the_server_at_start_with_its_name() {
    let (_tmp, dir) = data_dir();
    for (envs, expected) in [
        (vec![("INTAKE_RATE_LIMIT_BURST", "0")], "rate_limit_burst"),
        (
            vec![("INTAKE_RATE_LIMIT_PER_SECOND", "-1")],
            "invalid configuration: INTAKE_RATE_LIMIT_PER_SECOND: ",
        ),
        (
            vec![("INTAKE_MAX_IN_FLIGHT_PER_KEY", "2000000")],
            "max_in_flight_per_key",
        ),
    ] {
        let output = intake()
            .args(["serve", "--data-dir"])
            .arg(&dir)
            .envs(envs.iter().copied())
            .output()
            .unwrap();
        assert!(!output.status.success(), "{envs:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{envs:?}: {stderr}");
    }
}
