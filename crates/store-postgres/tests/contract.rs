//! The backend contract suite of `intake-core`, run against PostgreSQL: each
//! test on its own fresh database on the server of `INTAKE_TEST_POSTGRES_URL`
//! (skipped with a note when unset, failed when `INTAKE_REQUIRE_POSTGRES=1`).

use intake_core::contract;
use intake_store_postgres::testing::TestDatabase;
use intake_store_postgres::PostgresStore;

/// A store on a database of its own, or `None` when no server is configured.
async fn fresh_store() -> Option<(PostgresStore, TestDatabase)> {
    let database = TestDatabase::from_env().await?;
    let store = PostgresStore::open(&database.url).await.unwrap();
    Some((store, database))
}

macro_rules! contract_tests {
    ($($name:ident),* $(,)?) => {$(
        #[tokio::test]
        async fn $name() {
            let Some((store, _database)) = fresh_store().await else { return };
            contract::$name(&store).await;
            store.close().await;
        }
    )*};
}

contract_tests!(
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
);

// Group commit (core::contract::group_commit).
contract_tests!(
    concurrent_jobs_with_their_own_scopes_are_all_written,
    concurrent_jobs_sharing_a_scope_make_one_job,
    a_job_meeting_a_held_scope_leaves_its_free_scopes_free,
    a_batch_mixes_repeats_expired_scopes_and_new_jobs,
);

// Contact history for the spam screen (core::contract::history).
contract_tests!(
    a_new_consumer_has_no_contact_history,
    contact_history_counts_by_email_and_by_phone_from_the_window_start,
    contact_history_counts_the_same_text_only_through_other_keys,
    contact_history_ignores_the_other_environment,
    an_earlier_answer_comes_instead_of_the_history,
);

#[tokio::test]
async fn a_database_keeps_its_keys_across_reopening() {
    let Some((store, database)) = fresh_store().await else {
        return;
    };
    let master = intake_core::MasterKey::generate();
    let new = intake_core::NewKey::generate(
        "x",
        intake_core::Environment::Staging,
        Default::default(),
        &master,
    );
    intake_core::Store::insert_key(&store, &new.key)
        .await
        .unwrap();
    store.close().await;
    let reopened = PostgresStore::open(&database.url).await.unwrap();
    let found = intake_core::Store::find_key(&reopened, &new.key.key_id)
        .await
        .unwrap();
    assert_eq!(found, Some(new.key));
    reopened.close().await;
}

#[tokio::test]
async fn a_closed_store_is_unavailable_not_an_error() {
    let Some((store, _database)) = fresh_store().await else {
        return;
    };
    store.close().await;
    assert!(matches!(
        intake_core::Store::ping(&store).await,
        Err(intake_core::StoreError::Unavailable(_))
    ));
}

#[tokio::test]
async fn an_unreachable_server_is_unavailable_within_seconds() {
    let started = std::time::Instant::now();
    // Nothing listens on port 1.
    let result = PostgresStore::open("postgres://postgres@127.0.0.1:1/postgres").await;
    assert!(
        matches!(result, Err(intake_core::StoreError::Unavailable(_))),
        "{result:?}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}
