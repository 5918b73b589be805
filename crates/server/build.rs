//! Builds the PostgreSQL run of the HTTP suite (`tests/api_postgres.rs`) only
//! when there is a server to run it on, so that `cargo test` on a machine
//! without PostgreSQL does not fail it (nor run the SQLite suite twice).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(intake_test_postgres)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=INTAKE_TEST_POSTGRES_URL");
    println!("cargo::rerun-if-env-changed=INTAKE_REQUIRE_POSTGRES");
    let configured = std::env::var("INTAKE_TEST_POSTGRES_URL").is_ok_and(|url| !url.is_empty());
    let required = std::env::var("INTAKE_REQUIRE_POSTGRES").as_deref() == Ok("1");
    if configured || required {
        println!("cargo::rustc-cfg=intake_test_postgres");
    }
}
