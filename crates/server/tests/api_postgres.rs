//! The HTTP integration suite of `tests/api/`, every test on a PostgreSQL
//! database of its own (see `tests/api/helpers/backend.rs`). Compiled only
//! when `INTAKE_TEST_POSTGRES_URL` is set, or `INTAKE_REQUIRE_POSTGRES=1`
//! (then a missing server fails every test): see `build.rs`.
#![cfg(intake_test_postgres)]

include!("api/main.rs");
