/**
 * The migration files of duroxide-pg 0.1.38 (`migrations/*.sql` of the crate), by version. The
 * duroxide track must use exactly these numbers and names: a duroxide-pg binary refuses a schema
 * whose ledger holds a version it does not bundle, so a number of our own would lock Rust
 * processes out. When duroxide-pg adds a migration, add it here with its file name.
 */
export const DUROXIDE_PG_MIGRATIONS: ReadonlyMap<number, string> = new Map([
  [1, '0001_initial_schema.sql'],
  [2, '0002_create_stored_procedures.sql'],
  [3, '0003_add_attempt_count.sql'],
  [4, '0004_update_stored_procedures_for_attempt_count.sql'],
  [5, '0005_add_visible_at_to_worker_queue.sql'],
  [6, '0006_use_rust_timestamps.sql'],
  [7, '0007_add_execution_state_support.sql'],
  [8, '0008_remove_execution_state.sql'],
  [9, '0009_add_activity_cancellation_support.sql'],
  [10, '0010_add_deletion_and_pruning_support.sql'],
  [11, '0011_fix_cancellation_ordering.sql'],
  [12, '0012_require_timestamps.sql'],
  [13, '0013_add_capability_filtering.sql'],
  [14, '0014_add_session_support.sql'],
  [15, '0015_add_custom_status.sql'],
  [16, '0016_add_activity_tags.sql'],
  [17, '0017_retry_orchestration_fetch_on_contention.sql'],
  [18, '0018_add_kv_store.sql'],
  [19, '0019_add_kv_last_updated.sql'],
  [20, '0020_add_kv_delta.sql'],
  [21, '0021_add_get_instance_stats.sql'],
  [23, '0023_partial_secondary_indexes.sql'],
  [25, '0025_fetch_orchestration_lease_at_claim.sql'],
  [26, '0026_serialize_orchestration_lock_mutations.sql'],
]);
