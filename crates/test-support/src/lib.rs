#![forbid(unsafe_code)]
//! What the test suites of the workspace share, kept out of the production
//! crates: throwaway PostgreSQL databases and a proxy that takes one away
//! ([`postgres`]), a webhook receiver ([`webhooks`]), an SMTP sink
//! ([`smtp`]), and the list of the backend contract tests
//! ([`store_contract_tests!`]). A dev-dependency only (`publish = false`).

pub mod postgres;
pub mod smtp;
pub mod webhooks;

/// One `#[tokio::test]` per test of the backend contract suite
/// (`intake_core::contract`), each on a store of its own from `$fresh`: an
/// async function answering `Option<(store, guard)>` (`None` skips the
/// test; the guard, a folder or a database, lives as long as the test).
/// The store is closed at the end. Used by each store crate's
/// `tests/contract.rs`, so that a contract test is listed once for both.
#[macro_export]
macro_rules! store_contract_tests {
    ($fresh:path) => {
        $crate::store_contract_tests!(
            @each $fresh;
            a_key_reads_back_as_written,
            a_duplicate_key_id_is_a_conflict,
            revoking_marks_one_key_and_keeps_the_first_time,
            a_store_answers_a_ping,
            imported_trades_are_indexed_and_replaced_whole,
            stored_trades_read_back_as_imported,
            a_failed_import_writes_nothing,
            a_saved_category_tree_reads_back,
            a_job_reads_back_whole_and_a_repeated_scope_writes_nothing,
            an_expired_idempotency_record_frees_its_scope,
            a_quarantined_submission_is_kept_and_released_once,
            a_production_job_leaves_one_delivery_per_recipient_and_channel,
            a_claim_holds_a_delivery_until_its_lease_ends,
            concurrent_claims_never_share_a_delivery,
            outcomes_apply_only_to_the_current_attempt,
            a_gone_target_takes_no_more_leads_until_retried,
            a_retried_lead_gets_a_new_retry_window,
            // Group commit (core::contract::group_commit).
            concurrent_jobs_with_their_own_scopes_are_all_written,
            concurrent_jobs_sharing_a_scope_make_one_job,
            a_job_meeting_a_held_scope_leaves_its_free_scopes_free,
            a_batch_mixes_repeats_expired_scopes_and_new_jobs,
            // Contact history for the spam screen (core::contract::history).
            a_new_consumer_has_no_contact_history,
            contact_history_counts_by_email_and_by_phone_from_the_window_start,
            contact_history_counts_the_same_text_only_through_other_keys,
            contact_history_ignores_the_other_environment,
            an_earlier_answer_comes_instead_of_the_history,
        );
    };
    (@each $fresh:path; $($name:ident),* $(,)?) => {$(
        #[::tokio::test]
        async fn $name() {
            let Some((store, _guard)) = $fresh().await else {
                return;
            };
            ::intake_core::contract::$name(&store).await;
            store.close().await;
        }
    )*};
}
