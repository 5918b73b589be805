#![forbid(unsafe_code)]
//! The backend contract of [`intake_core::Store`]: behaviour every backend
//! must show, written once as async functions over `&dyn Store` and run by
//! each store crate's tests, one named test each on a fresh store:
//!
//! ```ignore
//! // crates/store-<backend>/tests/contract.rs
//! async fn fresh_store() -> Option<(MyStore, Guard)> { /* None skips */ }
//! intake_store_contract::store_contract_tests!(fresh_store);
//! ```
//!
//! The suite is listed once, in [`store_contract_tests!`]; a test of this
//! crate fails when a contract function is missing from it. A
//! dev-dependency only (`publish = false`).

pub mod deliveries;
pub mod directory;
pub mod fixtures;
pub mod group_commit;
pub mod history;
pub mod jobs;
pub mod keys;
pub mod migration;
pub mod personal;
pub mod retention;
pub mod spam;

/// One `#[tokio::test]` per test of the suite, in a module per area of this
/// crate (`keys::a_key_reads_back_as_written`), each on a store of its own
/// from `$fresh`: an async function, beside the macro's call, answering
/// `Option<(store, guard)>` (`None` skips the test; the guard, a folder or a
/// database, lives as long as the test). The store is closed at the end.
///
/// `@names` answers the list as `"area::test"` strings, for this crate's
/// own check that nothing is left out.
#[macro_export]
macro_rules! store_contract_tests {
    ($fresh:ident) => {
        $crate::store_contract_tests!(@suite tests $fresh);
    };
    (@names) => {
        $crate::store_contract_tests!(@suite names)
    };
    (@suite $mode:ident $($fresh:ident)?) => {
        $crate::store_contract_tests! {@$mode [$($fresh)?]
            keys {
                a_key_reads_back_as_written,
                a_duplicate_key_id_is_a_conflict,
                revoking_marks_one_key_and_keeps_the_first_time,
                a_store_answers_a_ping,
            }
            directory {
                imported_trades_are_indexed_and_replaced_whole,
                stored_trades_read_back_as_imported,
                a_failed_import_writes_nothing,
                a_saved_category_tree_reads_back,
            }
            jobs {
                a_job_reads_back_whole_and_a_repeated_scope_writes_nothing,
                an_expired_idempotency_record_frees_its_scope,
                a_quarantined_submission_is_kept_and_released_once,
            }
            deliveries {
                a_production_job_leaves_one_delivery_per_recipient_and_channel,
                the_backlog_counts_pending_deliveries_and_dates_the_oldest,
                a_claim_holds_a_delivery_until_its_lease_ends,
                concurrent_claims_never_share_a_delivery,
                outcomes_apply_only_to_the_current_attempt,
                a_gone_target_takes_no_more_leads_until_retried,
                a_retried_lead_gets_a_new_retry_window,
            }
            group_commit {
                concurrent_jobs_with_their_own_scopes_are_all_written,
                concurrent_jobs_sharing_a_scope_make_one_job,
                a_job_meeting_a_held_scope_leaves_its_free_scopes_free,
                a_batch_mixes_repeats_expired_scopes_and_new_jobs,
            }
            history {
                a_new_consumer_has_no_contact_history,
                contact_history_counts_by_email_and_by_phone_from_the_window_start,
                contact_history_counts_the_same_text_only_through_other_keys,
                contact_history_ignores_the_other_environment,
                an_earlier_answer_comes_instead_of_the_history,
                the_history_comes_with_the_asked_trades_recent_leads,
            }
            personal {
                a_persons_jobs_are_found_by_email_or_by_phone_in_any_form,
                quarantined_submissions_are_removed_by_id_and_the_store_scrubbed,
            }
            retention {
                old_jobs_go_oldest_first_with_everything_written_with_them,
                every_table_stays_bounded_under_daily_purges,
            }
            spam {
                a_submission_is_confirmed_as_spam_once,
                decisions_outlive_retention_and_go_with_an_erasure,
                the_latest_stored_model_is_answered,
            }
        }
    };
    (@tests [$fresh:ident] $($area:ident { $($name:ident),* $(,)? })*) => {$(
        mod $area {$(
            #[::tokio::test]
            async fn $name() {
                let Some((store, _guard)) = super::$fresh().await else {
                    return;
                };
                $crate::$area::$name(&store).await;
                store.close().await;
            }
        )*}
    )*};
    (@names [] $($area:ident { $($name:ident),* $(,)? })*) => {
        [$($(concat!(stringify!($area), "::", stringify!($name)),)*)*]
    };
}

#[cfg(test)]
mod tests {
    /// Every public contract function of each area (an `async fn` over
    /// `&dyn Store`) is in the suite, and the suite names only those.
    #[test]
    fn the_suite_lists_every_contract_test_once() {
        let listed: Vec<&str> = store_contract_tests!(@names).to_vec();
        let sources = [
            ("keys", include_str!("keys.rs")),
            ("directory", include_str!("directory.rs")),
            ("jobs", include_str!("jobs.rs")),
            ("deliveries", include_str!("deliveries.rs")),
            ("group_commit", include_str!("group_commit.rs")),
            ("history", include_str!("history.rs")),
            ("retention", include_str!("retention.rs")),
            ("personal", include_str!("personal.rs")),
            ("spam", include_str!("spam.rs")),
        ];
        let mut defined: Vec<String> = sources
            .iter()
            .flat_map(|(area, source)| {
                source
                    .split("\npub async fn ")
                    .skip(1)
                    .filter_map(move |item| {
                        let (name, rest) = item.split_once('(')?;
                        let (parameters, _) = rest.split_once(')')?;
                        (parameters.trim().trim_end_matches(',') == "store: &dyn Store")
                            .then(|| format!("{area}::{name}"))
                    })
            })
            .collect();
        let mut sorted: Vec<String> = listed.iter().map(|name| name.to_string()).collect();
        sorted.sort();
        defined.sort();
        assert_eq!(sorted, defined);
        sorted.dedup();
        assert_eq!(sorted.len(), listed.len(), "a test is listed twice");
    }
}
