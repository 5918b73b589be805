//! The names of the series recorded outside the HTTP server (issue 17), so
//! that the crate recording one and the server describing it agree. Only
//! names live here: core records nothing itself; the server's own series
//! and their descriptions are in `intake_server`'s `telemetry` module.

/// Jobs written per group commit (a histogram): one transaction and one sync each.
pub const COMMIT_BATCH_SIZE: &str = "intake_job_commit_batch_size";

/// Lead delivery attempts, by `channel` (`webhook`, `email`) and `outcome`
/// (`delivered`, `retry`, `dead`, `gone`).
pub const DELIVERIES: &str = "intake_deliveries_total";

/// Store errors met, by `kind` (see [`store_error_kind`]) and `component`
/// (`http`, `dispatcher`, `retention`, `directory`, `admin`).
pub const STORE_ERRORS: &str = "intake_store_errors_total";

/// The `kind` label of a store error: `unavailable` or `failed`; `None` for
/// a missing record or a conflict, which are answers, not errors.
pub fn store_error_kind(error: &crate::StoreError) -> Option<&'static str> {
    match error {
        crate::StoreError::Unavailable(_) => Some("unavailable"),
        crate::StoreError::Other(_) => Some("failed"),
        crate::StoreError::NotFound | crate::StoreError::Conflict(_) => None,
    }
}
