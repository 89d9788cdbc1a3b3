//! Every validation of duroxide 0.1.32's provider suite (`duroxide::provider_validation`), in
//! the order of its modules and files, with how each one is called.
//!
//! Most validations take the factory. The `long_polling` ones take a provider (and the
//! short-poll threshold) and apply to one polling mode only; the continue-as-new transition
//! validation takes a `duroxide_version` stamp and runs once with a stamp before the queue-race
//! fix (0.1.30) and once with one after it (0.1.31), as duroxide's own SQLite runner does.

use std::future::Future;
use std::pin::Pin;

use duroxide::provider_validation as suite;
use duroxide::provider_validations::ProviderFactory;
use napi_derive::napi;

use super::js_factory::JsProviderFactory;

/// Which providers a validation applies to.
#[napi(string_enum)]
#[derive(Clone, Copy)]
pub enum PollingRequirement {
    /// Every provider.
    Any,
    /// Only providers whose fetches wait up to their poll timeout for work.
    LongPolling,
    /// Only providers whose fetches return at once when there is no work.
    ShortPolling,
}

/// A running validation; it panics when the provider is wrong.
pub type ValidationFuture<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// One entry of the catalogue.
pub struct Validation {
    /// The Rust module, such as `instance_locking`.
    pub module: &'static str,
    /// The Rust function, such as `test_exclusive_instance_lock`.
    pub function: &'static str,
    /// The `duroxide_version` stamp argument, for the one validation that takes one.
    pub stamp: Option<&'static str>,
    pub polling: PollingRequirement,
    pub run: for<'a> fn(&'a JsProviderFactory) -> ValidationFuture<'a>,
}

impl Validation {
    /// The unique name a caller runs it by: `module::function`, plus `@stamp` when stamped.
    pub fn id(&self) -> String {
        match self.stamp {
            Some(stamp) => format!("{}::{}@{stamp}", self.module, self.function),
            None => format!("{}::{}", self.module, self.function),
        }
    }
}

macro_rules! factory {
    ($module:ident :: $function:ident) => {
        Validation {
            module: stringify!($module),
            function: stringify!($function),
            stamp: None,
            polling: PollingRequirement::Any,
            run: |factory| Box::pin(suite::$module::$function(factory)),
        }
    };
}

macro_rules! polling {
    ($function:ident, $polling:expr) => {
        Validation {
            module: "long_polling",
            function: stringify!($function),
            stamp: None,
            polling: $polling,
            run: |factory| {
                Box::pin(async move {
                    let provider = factory.create_provider().await;
                    suite::long_polling::$function(provider.as_ref()).await
                })
            },
        }
    };
    ($function:ident, $polling:expr, with_threshold) => {
        Validation {
            module: "long_polling",
            function: stringify!($function),
            stamp: None,
            polling: $polling,
            run: |factory| {
                Box::pin(async move {
                    let provider = factory.create_provider().await;
                    suite::long_polling::$function(provider.as_ref(), factory.short_poll_threshold()).await
                })
            },
        }
    };
}

macro_rules! stamped {
    ($function:ident, $stamp:literal) => {
        Validation {
            module: "race_replay",
            function: stringify!($function),
            stamp: Some($stamp),
            polling: PollingRequirement::Any,
            run: |factory| Box::pin(suite::race_replay::$function(factory, $stamp)),
        }
    };
}

/// The whole suite.
pub static VALIDATIONS: &[Validation] = &[
    // atomicity
    factory!(atomicity::test_atomicity_failure_rollback),
    factory!(atomicity::test_multi_operation_atomic_ack),
    factory!(atomicity::test_lock_released_only_on_successful_ack),
    factory!(atomicity::test_concurrent_ack_prevention),
    // bulk_deletion
    factory!(bulk_deletion::test_delete_instance_bulk_filter_combinations),
    factory!(bulk_deletion::test_delete_instance_bulk_safety_and_limits),
    factory!(bulk_deletion::test_delete_instance_bulk_completed_before_filter),
    factory!(bulk_deletion::test_delete_instance_bulk_cascades_to_children),
    // cancellation
    factory!(cancellation::test_fetch_returns_running_state_for_active_orchestration),
    factory!(cancellation::test_fetch_returns_terminal_state_when_orchestration_completed),
    factory!(cancellation::test_fetch_returns_terminal_state_when_orchestration_failed),
    factory!(cancellation::test_fetch_returns_terminal_state_when_orchestration_continued_as_new),
    factory!(cancellation::test_fetch_returns_missing_state_when_instance_deleted),
    factory!(cancellation::test_renew_returns_running_when_orchestration_active),
    factory!(cancellation::test_renew_returns_terminal_when_orchestration_completed),
    factory!(cancellation::test_renew_returns_missing_when_instance_deleted),
    factory!(cancellation::test_ack_work_item_none_deletes_without_enqueue),
    factory!(cancellation::test_cancelled_activities_deleted_from_worker_queue),
    factory!(cancellation::test_ack_work_item_fails_when_entry_deleted),
    factory!(cancellation::test_renew_fails_when_entry_deleted),
    factory!(cancellation::test_cancelling_nonexistent_activities_is_idempotent),
    factory!(cancellation::test_batch_cancellation_deletes_multiple_activities),
    factory!(cancellation::test_same_activity_in_worker_items_and_cancelled_is_noop),
    factory!(cancellation::test_orphan_activity_after_instance_force_deletion),
    // capability_filtering
    factory!(capability_filtering::test_fetch_with_filter_none_returns_any_item),
    factory!(capability_filtering::test_fetch_with_compatible_filter_returns_item),
    factory!(capability_filtering::test_fetch_with_incompatible_filter_skips_item),
    factory!(capability_filtering::test_fetch_filter_skips_incompatible_selects_compatible),
    factory!(capability_filtering::test_fetch_filter_does_not_lock_skipped_instances),
    factory!(capability_filtering::test_fetch_filter_null_pinned_version_always_compatible),
    factory!(capability_filtering::test_fetch_filter_boundary_versions),
    factory!(capability_filtering::test_pinned_version_stored_via_ack_metadata),
    factory!(capability_filtering::test_pinned_version_immutable_across_ack_cycles),
    factory!(capability_filtering::test_continue_as_new_execution_gets_own_pinned_version),
    factory!(capability_filtering::test_filter_with_empty_supported_versions_returns_nothing),
    factory!(capability_filtering::test_concurrent_filtered_fetch_no_double_lock),
    factory!(capability_filtering::test_ack_stores_pinned_version_via_metadata_update),
    factory!(capability_filtering::test_provider_updates_pinned_version_when_told),
    factory!(capability_filtering::test_fetch_corrupted_history_filtered_vs_unfiltered),
    factory!(capability_filtering::test_fetch_deserialization_error_increments_attempt_count),
    factory!(capability_filtering::test_fetch_deserialization_error_eventually_reaches_poison),
    factory!(capability_filtering::test_fetch_filter_applied_before_history_deserialization),
    factory!(capability_filtering::test_fetch_single_range_only_uses_first_range),
    factory!(capability_filtering::test_ack_appends_event_to_corrupted_history),
    // custom_status
    factory!(custom_status::test_custom_status_set),
    factory!(custom_status::test_custom_status_clear),
    factory!(custom_status::test_custom_status_none_preserves),
    factory!(custom_status::test_custom_status_version_increments),
    factory!(custom_status::test_custom_status_polling_no_change),
    factory!(custom_status::test_custom_status_nonexistent_instance),
    factory!(custom_status::test_custom_status_default_on_new_instance),
    // deletion
    factory!(deletion::test_delete_terminal_instances),
    factory!(deletion::test_delete_running_rejected_force_succeeds),
    factory!(deletion::test_delete_nonexistent_instance),
    factory!(deletion::test_delete_cleans_queues_and_locks),
    factory!(deletion::test_cascade_delete_hierarchy),
    factory!(deletion::test_force_delete_prevents_ack_recreation),
    factory!(deletion::test_list_children),
    factory!(deletion::test_delete_get_parent_id),
    factory!(deletion::test_delete_get_instance_tree),
    factory!(deletion::test_delete_instances_atomic),
    factory!(deletion::test_delete_instances_atomic_force),
    factory!(deletion::test_delete_instances_atomic_orphan_detection),
    factory!(deletion::test_stale_activity_after_delete_recreate),
    // error_handling
    factory!(error_handling::test_invalid_lock_token_on_ack),
    factory!(error_handling::test_duplicate_event_id_rejection),
    factory!(error_handling::test_missing_instance_metadata),
    factory!(error_handling::test_corrupted_serialization_data),
    factory!(error_handling::test_lock_expiration_during_ack),
    factory!(error_handling::test_read_corrupted_history_returns_error),
    factory!(error_handling::test_read_with_execution_corrupted_history_returns_error),
    // instance_creation
    factory!(instance_creation::test_instance_creation_via_metadata),
    factory!(instance_creation::test_no_instance_creation_on_enqueue),
    factory!(instance_creation::test_null_version_handling),
    factory!(instance_creation::test_sub_orchestration_instance_creation),
    // instance_locking
    factory!(instance_locking::test_exclusive_instance_lock),
    factory!(instance_locking::test_lock_token_uniqueness),
    factory!(instance_locking::test_invalid_lock_token_rejection),
    factory!(instance_locking::test_concurrent_instance_fetching),
    factory!(instance_locking::test_completions_arriving_during_lock_blocked),
    factory!(instance_locking::test_cross_instance_lock_isolation),
    factory!(instance_locking::test_message_tagging_during_lock),
    factory!(instance_locking::test_ack_only_affects_locked_messages),
    factory!(instance_locking::test_multi_threaded_lock_contention),
    factory!(instance_locking::test_multi_threaded_no_duplicate_processing),
    factory!(instance_locking::test_multi_threaded_lock_expiration_recovery),
    // kv_store
    factory!(kv_store::test_kv_set_and_get),
    factory!(kv_store::test_kv_overwrite),
    factory!(kv_store::test_kv_clear_single),
    factory!(kv_store::test_kv_clear_all),
    factory!(kv_store::test_kv_get_nonexistent),
    factory!(kv_store::test_kv_snapshot_in_fetch),
    factory!(kv_store::test_kv_snapshot_after_clear_single),
    factory!(kv_store::test_kv_snapshot_after_clear_all),
    factory!(kv_store::test_kv_execution_id_tracking),
    factory!(kv_store::test_kv_cross_execution_overwrite),
    factory!(kv_store::test_kv_cross_execution_remove_readd),
    factory!(kv_store::test_kv_prune_preserves_overwritten),
    factory!(kv_store::test_kv_prune_preserves_all_keys),
    factory!(kv_store::test_kv_instance_isolation),
    factory!(kv_store::test_kv_delete_instance_cascades),
    factory!(kv_store::test_kv_clear_nonexistent_key),
    factory!(kv_store::test_kv_get_unknown_instance),
    factory!(kv_store::test_kv_set_after_clear),
    factory!(kv_store::test_kv_empty_value),
    factory!(kv_store::test_kv_large_value),
    factory!(kv_store::test_kv_special_chars_in_key),
    factory!(kv_store::test_kv_snapshot_empty),
    factory!(kv_store::test_kv_snapshot_cross_execution),
    factory!(kv_store::test_kv_prune_current_execution_protected),
    factory!(kv_store::test_kv_delete_instance_with_children),
    factory!(kv_store::test_kv_clear_isolation),
    factory!(kv_store::test_kv_delta_snapshot_excludes_current_execution),
    factory!(kv_store::test_kv_delta_snapshot_includes_completed_execution),
    factory!(kv_store::test_kv_delta_client_reads_merged),
    factory!(kv_store::test_kv_delta_tombstone_overrides_store),
    factory!(kv_store::test_kv_delta_clear_all_tombstones_store),
    factory!(kv_store::test_kv_delta_merged_on_completion),
    factory!(kv_store::test_kv_delta_merged_on_can),
    factory!(kv_store::test_kv_delta_delete_instance_cascades),
    factory!(kv_store::test_kv_delta_prune_untouched_key_survives),
    // lock_expiration
    factory!(lock_expiration::test_lock_expires_after_timeout),
    factory!(lock_expiration::test_abandon_releases_lock_immediately),
    factory!(lock_expiration::test_lock_renewal_on_ack),
    factory!(lock_expiration::test_concurrent_lock_attempts_respect_expiration),
    factory!(lock_expiration::test_worker_lock_renewal_success),
    factory!(lock_expiration::test_worker_lock_renewal_invalid_token),
    factory!(lock_expiration::test_worker_lock_renewal_after_expiration),
    factory!(lock_expiration::test_worker_lock_renewal_extends_timeout),
    factory!(lock_expiration::test_worker_lock_renewal_after_ack),
    factory!(lock_expiration::test_abandon_work_item_releases_lock),
    factory!(lock_expiration::test_abandon_work_item_with_delay),
    factory!(lock_expiration::test_worker_ack_fails_after_lock_expiry),
    factory!(lock_expiration::test_orchestration_lock_renewal_after_expiration),
    // long_polling
    polling!(
        test_short_poll_returns_immediately,
        PollingRequirement::ShortPolling,
        with_threshold
    ),
    polling!(test_long_poll_waits_for_timeout, PollingRequirement::LongPolling),
    polling!(test_fetch_respects_timeout_upper_bound, PollingRequirement::Any),
    polling!(
        test_short_poll_work_item_returns_immediately,
        PollingRequirement::ShortPolling,
        with_threshold
    ),
    polling!(
        test_long_poll_work_item_waits_for_timeout,
        PollingRequirement::LongPolling
    ),
    // management
    factory!(management::test_list_instances),
    factory!(management::test_list_instances_by_status),
    factory!(management::test_list_executions),
    factory!(management::test_get_instance_info),
    factory!(management::test_get_execution_info),
    factory!(management::test_get_system_metrics),
    factory!(management::test_get_queue_depths),
    factory!(management::test_get_instance_stats_nonexistent),
    factory!(management::test_get_instance_stats_history),
    factory!(management::test_get_instance_stats_kv),
    factory!(management::test_get_instance_stats_carry_forward),
    factory!(management::test_get_instance_stats_kv_delta_only),
    factory!(management::test_get_instance_stats_kv_merged),
    // multi_execution
    factory!(multi_execution::test_execution_isolation),
    factory!(multi_execution::test_latest_execution_detection),
    factory!(multi_execution::test_execution_id_sequencing),
    factory!(multi_execution::test_continue_as_new_creates_new_execution),
    factory!(multi_execution::test_execution_history_persistence),
    // poison_message
    factory!(poison_message::orchestration_ignore_attempt_preserves_hidden_start),
    factory!(poison_message::orchestration_delayed_abandon_preserves_unlocked_rows),
    factory!(poison_message::orchestration_attempt_count_starts_at_one),
    factory!(poison_message::orchestration_attempt_count_increments_on_refetch),
    factory!(poison_message::worker_attempt_count_starts_at_one),
    factory!(poison_message::worker_attempt_count_increments_on_lock_expiry),
    factory!(poison_message::attempt_count_is_per_message),
    factory!(poison_message::abandon_work_item_ignore_attempt_decrements),
    factory!(poison_message::abandon_orchestration_item_ignore_attempt_decrements),
    factory!(poison_message::ignore_attempt_never_goes_negative),
    factory!(poison_message::max_attempt_count_across_message_batch),
    // prune
    factory!(prune::test_prune_options_combinations),
    factory!(prune::test_prune_safety),
    factory!(prune::test_prune_bulk),
    factory!(prune::test_prune_bulk_includes_running_instances),
    // queue_semantics
    factory!(queue_semantics::test_worker_queue_fifo_ordering),
    factory!(queue_semantics::test_worker_peek_lock_semantics),
    factory!(queue_semantics::test_worker_ack_atomicity),
    factory!(queue_semantics::test_timer_delayed_visibility),
    factory!(queue_semantics::test_lost_lock_token_handling),
    factory!(queue_semantics::test_worker_item_immediate_visibility),
    factory!(queue_semantics::test_worker_delayed_visibility_skips_future_items),
    factory!(queue_semantics::test_orphan_queue_messages_dropped),
    // race_replay
    factory!(race_replay::test_duplicate_start_preserves_pinned_handler),
    factory!(race_replay::test_continue_as_new_unregistered_backoff),
    factory!(race_replay::test_continue_as_new_poisoned_successor_is_own_execution),
    factory!(race_replay::test_continue_as_new_duplicate_start),
    stamped!(test_continue_as_new_transition_delivery, "0.1.30"),
    stamped!(test_continue_as_new_transition_delivery, "0.1.31"),
    factory!(race_replay::test_queue_race_cancellation_replay),
    factory!(race_replay::test_continue_as_new_queue_race_replay),
    factory!(race_replay::test_queue_replay_version_stamp_roundtrip),
    factory!(race_replay::test_positional_wait_race_replay),
    factory!(race_replay::test_legacy_queue_race_decision_preserved),
    // sessions
    factory!(sessions::test_non_session_items_fetchable_by_any_worker),
    factory!(sessions::test_session_item_claimable_when_no_session),
    factory!(sessions::test_session_affinity_same_worker),
    factory!(sessions::test_session_affinity_blocks_other_worker),
    factory!(sessions::test_different_sessions_different_workers),
    factory!(sessions::test_mixed_session_and_non_session_items),
    factory!(sessions::test_session_claimable_after_lock_expiry),
    factory!(sessions::test_none_session_skips_session_items),
    factory!(sessions::test_some_session_returns_all_items),
    factory!(sessions::test_renew_session_lock_active),
    factory!(sessions::test_renew_session_lock_skips_idle),
    factory!(sessions::test_renew_session_lock_no_sessions),
    factory!(sessions::test_cleanup_removes_expired_no_items),
    factory!(sessions::test_cleanup_keeps_sessions_with_pending_items),
    factory!(sessions::test_cleanup_keeps_active_sessions),
    factory!(sessions::test_ack_updates_session_last_activity),
    factory!(sessions::test_renew_work_item_updates_session_last_activity),
    factory!(sessions::test_session_items_processed_in_order),
    factory!(sessions::test_non_session_items_returned_with_session_config),
    factory!(sessions::test_shared_worker_id_any_caller_can_fetch_owned_session),
    factory!(sessions::test_concurrent_session_claim_only_one_wins),
    factory!(sessions::test_session_takeover_after_lock_expiry),
    factory!(sessions::test_cleanup_then_new_item_recreates_session),
    factory!(sessions::test_abandoned_session_item_retryable),
    factory!(sessions::test_abandoned_session_item_ignore_attempt),
    factory!(sessions::test_renew_session_lock_after_expiry_returns_zero),
    factory!(sessions::test_original_worker_reclaims_expired_session),
    factory!(sessions::test_activity_lock_expires_session_lock_valid_same_worker_refetches),
    factory!(sessions::test_session_lock_expires_new_owner_gets_redelivery),
    factory!(sessions::test_session_lock_expires_same_worker_reacquires),
    factory!(sessions::test_both_locks_expire_different_worker_claims),
    factory!(sessions::test_session_lock_expires_activity_lock_valid_ack_succeeds),
    factory!(sessions::test_session_lock_renewal_extends_past_original_timeout),
    // tag_filtering
    factory!(tag_filtering::test_default_only_fetches_untagged),
    factory!(tag_filtering::test_tags_fetches_only_matching),
    factory!(tag_filtering::test_default_and_fetches_untagged_and_matching),
    factory!(tag_filtering::test_none_filter_returns_nothing),
    factory!(tag_filtering::test_multi_tag_filter),
    factory!(tag_filtering::test_tag_round_trip_preservation),
    factory!(tag_filtering::test_any_filter_fetches_everything),
    factory!(tag_filtering::test_tag_survives_abandon_and_refetch),
    factory!(tag_filtering::test_multi_runtime_tag_isolation),
    factory!(tag_filtering::test_tag_preserved_through_ack_orchestration_item),
];
