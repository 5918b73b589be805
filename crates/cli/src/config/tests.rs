//! The settings against what README.md documents, and each section's keys
//! reaching the part of the service they set.

use super::*;
use intake_core::Environment;
use intake_server::ImageStoreLocation;
use std::collections::BTreeMap;
use std::time::Duration;

/// One row of the settings table in README.md.
struct Documented {
    key: String,
    variable: String,
    default: String,
}

/// The first `code` span of a table cell.
fn code(cell: &str) -> Option<&str> {
    let (_, rest) = cell.split_once('`')?;
    rest.split_once('`').map(|(code, _)| code)
}

/// The rows of the settings table whose first cell names a key.
fn documented() -> Vec<Documented> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md");
    let table = readme
        .split_once("Settings come in layers")
        .expect("the settings section of README.md")
        .1;
    table
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let key = code(cells.get(1)?)?;
            Some(Documented {
                key: key.to_owned(),
                variable: code(cells.get(2)?)?.to_owned(),
                default: cells.get(4)?.to_string(),
            })
        })
        .collect()
}

/// A documented default that is one literal (`300`, or `52428800` (50 MiB)).
fn literal(default: &str) -> Option<&str> {
    let value = code(default)?;
    let rest = default.strip_prefix(&format!("`{value}`"))?.trim();
    // `DATA_DIR/images` names a place relative to another setting, not a value.
    let literal = !value.contains("DATA_DIR") && (rest.is_empty() || rest.starts_with('('));
    literal.then_some(value)
}

/// A TOML line setting `key` to `value`, typed as TOML would read it.
fn toml_line(key: &str, value: &str) -> String {
    if value.parse::<i64>().is_ok() || value.parse::<f64>().is_ok() || value.parse::<bool>().is_ok()
    {
        format!("{key} = {value}\n")
    } else {
        format!("{key} = {value:?}\n")
    }
}

fn from_toml(toml: &str) -> anyhow::Result<Settings> {
    let file = Toml::string(toml);
    refuse_unknown_keys(&file, Path::new("intake.toml"), &Settings::keys())?;
    let settings = Settings::extract(&Figment::from(file))?;
    settings.validate()?;
    Ok(settings)
}

#[test]
fn every_setting_is_documented_with_its_environment_variable_and_nothing_else_is() {
    let documented = documented();
    let mut keys: Vec<&str> = documented.iter().map(|row| row.key.as_str()).collect();
    keys.sort_unstable();
    let mut known = Settings::keys();
    known.sort_unstable();
    assert_eq!(keys, known);
    for row in &documented {
        assert_eq!(row.variable, format!("INTAKE_{}", row.key.to_uppercase()));
    }
}

#[test]
fn the_documented_defaults_are_the_defaults() {
    let documented = documented();
    let literals: BTreeMap<&str, &str> = documented
        .iter()
        .filter_map(|row| Some((row.key.as_str(), literal(&row.default)?)))
        .collect();
    // Written out in a file, the documented defaults change nothing.
    let file: String = literals
        .iter()
        .map(|(key, value)| toml_line(key, value))
        .collect();
    let defaults = Settings::default();
    assert_eq!(from_toml(&file).unwrap(), defaults, "{file}");
    assert_eq!(from_toml("").unwrap(), defaults);

    // The rest are documented in words, in terms of the data dir and the listen address.
    let described: BTreeMap<&str, &str> = documented
        .iter()
        .filter(|row| !literals.contains_key(row.key.as_str()))
        .map(|row| (row.key.as_str(), row.default.as_str()))
        .collect();
    let data_dir = literals["data_dir"];
    assert_eq!(
        described.keys().copied().collect::<Vec<_>>(),
        [
            "admin_listen",
            "database_url",
            "image_store",
            "public_api_url",
            "smtp_url"
        ]
    );
    assert!(described["admin_listen"].starts_with("none"));
    assert_eq!(defaults.server.admin_listen, None);
    assert_eq!(
        code(described["database_url"])
            .unwrap()
            .replace("DATA_DIR", data_dir),
        defaults.storage.database_url()
    );
    assert_eq!(
        defaults.storage.image_store(),
        ImageStoreLocation::Local(
            code(described["image_store"])
                .unwrap()
                .replace("DATA_DIR", data_dir)
                .into()
        )
    );
    assert!(described["public_api_url"].starts_with("`http://` + listen address"));
    assert_eq!(
        defaults.delivery_config().unwrap().public_api_url,
        Some(format!("http://{}", literals["listen"]))
    );
    assert!(described["smtp_url"].starts_with("none"));
    assert_eq!(defaults.delivery.smtp_url, None);
}

#[test]
fn an_unknown_key_in_the_file_is_refused_by_name() {
    let error = from_toml("listn = \"127.0.0.1:9000\"\n").unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown setting `listn` in intake.toml (the settings are listed in README.md)"
    );
    // Sections of a future layout are keys this version does not read either.
    let error = from_toml("[server]\nlisten = \"127.0.0.1:9000\"\n").unwrap_err();
    assert!(
        error.to_string().starts_with("unknown setting `server`"),
        "{error}"
    );
}

#[test]
fn each_section_names_the_key_it_cannot_read() {
    for (line, expected) in [
        (
            "listen = \"nowhere\"",
            "`listen`: `nowhere` is not a socket address",
        ),
        (
            "environment = \"prod\"",
            "`environment`: unknown environment `prod`",
        ),
        (
            "log_format = \"xml\"",
            "`log_format`: `xml` is not one of `text`, `json`",
        ),
        (
            "idle_timeout_seconds = \"soon\"",
            "`idle_timeout_seconds`: expected a whole number of seconds",
        ),
        (
            "image_memory_budget_mib = -1",
            "`image_memory_budget_mib`: -1 is below 0",
        ),
        (
            "body_limit_bytes = 1.5",
            "`body_limit_bytes`: expected usize",
        ),
        (
            "public_base_url = \"example.com\"",
            "`public_base_url`: `example.com` is not an http(s) address",
        ),
        (
            "spam_threshold = \"high\"",
            "`spam_threshold`: expected f64",
        ),
        (
            "delivery_poll_millis = true",
            "`delivery_poll_millis`: expected a whole number of milliseconds",
        ),
        (
            "public_api_url = \"api.example\"",
            "`public_api_url`: `api.example` is not an http(s) address",
        ),
        (
            "database_url = \"mysql://root:hunter2@db/x\"",
            "`database_url`: a database URL of scheme `mysql` is not supported",
        ),
        ("image_store = \"ftp://x\"", "`image_store`:"),
        (
            "job_retention_days = 1.5",
            "`job_retention_days`: expected a whole number of days",
        ),
    ] {
        let error = format!("{:#}", from_toml(line).unwrap_err());
        let expected = format!("invalid configuration: {expected}");
        assert!(error.starts_with(&expected), "{line}: {error}");
        assert!(!error.contains("hunter2"), "{error}");
    }
}

#[test]
fn a_retention_that_would_break_what_reads_the_records_is_refused() {
    for (line, expected) in [
        (
            "job_retention_days = 6",
            "job_retention_days must be at least 7 (the fairness window), not 6",
        ),
        (
            "quarantine_retention_days = 0",
            "quarantine_retention_days must be at least 1",
        ),
        (
            "delivery_retention_days = 0",
            "delivery_retention_days must be at least 1",
        ),
        (
            "retention_interval_seconds = 0",
            "retention_interval_seconds must be at least 1",
        ),
    ] {
        let error = format!("{:#}", from_toml(line).unwrap_err());
        assert_eq!(error, expected, "{line}");
    }
    assert!(from_toml("job_retention_days = 7").is_ok());
}

#[test]
fn every_key_reaches_the_setting_it_names() {
    let settings = from_toml(
        r#"
        listen = "0.0.0.0:9000"
        admin_listen = "127.0.0.1:9090"
        environment = "Production"
        max_skew_seconds = 60
        shutdown_grace_seconds = 5
        request_timeout_seconds = 40
        directory_refresh_seconds = 7
        log_format = "json"
        demo_data = false
        dispatcher = false
        header_read_timeout_seconds = 11
        idle_timeout_seconds = 12
        body_read_timeout_seconds = 13
        max_connections = 14
        body_limit_bytes = 2048
        multipart_body_limit_bytes = 60000000
        body_budget_bytes = 70000000
        image_memory_budget_mib = 1000
        image_budget_wait_seconds = 15
        rate_limit_per_second = 16
        rate_limit_burst = 17
        max_in_flight_per_key = 18
        public_base_url = "https://trades.example/"
        idempotency_ttl_seconds = 3600
        max_recipients = 5
        spam_threshold = 2.5
        job_retention_days = 30
        quarantine_retention_days = 20
        delivery_retention_days = 10
        retention_interval_seconds = 60
        smtp_url = "smtp://127.0.0.1:2525"
        mail_from = "leads@trades.example"
        public_api_url = "https://api.example/"
        image_url_ttl_seconds = 120
        delivery_retry_window_seconds = 600
        delivery_retry_base_millis = 250
        delivery_timeout_seconds = 4
        delivery_lease_seconds = 9
        delivery_poll_millis = 100
        delivery_per_trade = 3
        data_dir = "/srv/intake"
        database_url = "postgres://intake@db/intake"
        image_store = "s3://bucket/photos"
        migrate_on_start = false
        "#,
    )
    .unwrap();
    assert_eq!(settings.server.log_format, crate::logging::LogFormat::Json);
    assert_eq!(
        settings.server.admin_listen,
        Some("127.0.0.1:9090".parse().unwrap())
    );
    assert!(!settings.server.demo_data);
    assert_eq!(
        settings.storage.database_url(),
        "postgres://intake@db/intake"
    );
    assert_eq!(
        settings.storage.image_store().to_string(),
        "s3://bucket/photos"
    );
    assert!(!settings.storage.migrate_on_start);

    let config = settings.server_config().unwrap();
    let seconds = Duration::from_secs;
    assert_eq!(config.environment, Environment::Production);
    assert_eq!(
        (
            config.max_skew,
            config.shutdown_grace,
            config.request_timeout,
            config.directory_refresh
        ),
        (seconds(60), seconds(5), seconds(40), seconds(7))
    );
    assert!(!config.dispatcher);
    let connections = &config.connections;
    assert_eq!(
        (
            connections.header_read_timeout,
            connections.idle_timeout,
            connections.body_read_timeout
        ),
        (seconds(11), seconds(12), seconds(13))
    );
    assert_eq!(connections.max_connections, 14);
    assert_eq!(
        (
            config.body_limit,
            config.multipart_body_limit,
            config.body_budget
        ),
        (2048, 60_000_000, 70_000_000)
    );
    assert_eq!(config.image_memory_budget, 1000 * 1024 * 1024);
    assert_eq!(config.image_budget_wait, seconds(15));
    assert_eq!(
        (
            config.rate_limit_per_second,
            config.rate_limit_burst,
            config.max_in_flight_per_key
        ),
        (16, 17, 18)
    );
    assert_eq!(config.public_base_url, "https://trades.example");
    assert_eq!(config.idempotency_ttl, seconds(3600));
    assert_eq!(config.max_recipients, 5);
    assert_eq!(config.spam_threshold, 2.5);
    let day = |days: u64| seconds(days * 86_400);
    assert_eq!(
        config.retention,
        intake_server::retention::RetentionPolicy {
            jobs: day(30),
            quarantine: day(20),
            deliveries: day(10),
            interval: seconds(60),
        }
    );

    let delivery = &config.delivery;
    assert!(delivery.smtp.is_some());
    assert_eq!(
        delivery.public_api_url.as_deref(),
        Some("https://api.example")
    );
    assert_eq!(delivery.image_url_ttl, seconds(120));
    assert_eq!(delivery.retry.window, seconds(600));
    assert_eq!(delivery.retry.base, Duration::from_millis(250));
    assert_eq!(
        (delivery.timeout, delivery.lease, delivery.shutdown_grace),
        (seconds(4), seconds(9), seconds(5))
    );
    assert_eq!(delivery.poll_interval, Duration::from_millis(100));
    assert_eq!(delivery.per_trade_concurrency, 3);
}

/// deploy/intake.toml, the sample configuration docs/deploy.md points at.
const SAMPLE: &str = include_str!("../../../../deploy/intake.toml");

#[test]
fn the_sample_configuration_names_every_setting_at_its_default() {
    // Every key, set on a line of its own, so an operator finds each one there.
    let set: Vec<&str> = SAMPLE
        .lines()
        .filter_map(|line| line.split_once('=').map(|(key, _)| key.trim()))
        .filter(|key| !key.starts_with('#'))
        .collect();
    let mut keys = Settings::keys();
    keys.sort_unstable();
    let mut sorted = set.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, keys, "deploy/intake.toml sets each setting once");
    // Loaded as a file (unknown keys refused, every value checked), it
    // changes nothing: what it says are the defaults.
    assert_eq!(from_toml(SAMPLE).unwrap(), Settings::default());
}
