import { kvStoreBasics as basics } from './basics.js';
import { kvStoreDelta as delta } from './delta.js';
import { kvStoreLifetime as lifetime } from './lifetime.js';
import { kvStoreSnapshot as snapshot } from './snapshot.js';
import { defineValidationGroup } from '../validation-group.js';

/**
 * duroxide's `provider_validation::kv_store`: the provider materialises `KeyValueSet`,
 * `KeyValueCleared` and `KeyValuesCleared` events of each ack, serves clients the merged view,
 * hands each turn the committed snapshot, and keeps keys for the instance's whole life. The
 * validations live in four files by concern; this list keeps the Rust order.
 */
export const kvStore = defineValidationGroup('kv_store', {
  kv_set_and_get: basics.kv_set_and_get,
  kv_overwrite: basics.kv_overwrite,
  kv_clear_single: basics.kv_clear_single,
  kv_clear_all: basics.kv_clear_all,
  kv_get_nonexistent: basics.kv_get_nonexistent,
  kv_snapshot_in_fetch: snapshot.kv_snapshot_in_fetch,
  kv_snapshot_after_clear_single: snapshot.kv_snapshot_after_clear_single,
  kv_snapshot_after_clear_all: snapshot.kv_snapshot_after_clear_all,
  kv_execution_id_tracking: lifetime.kv_execution_id_tracking,
  kv_cross_execution_overwrite: lifetime.kv_cross_execution_overwrite,
  kv_cross_execution_remove_readd: lifetime.kv_cross_execution_remove_readd,
  kv_prune_preserves_overwritten: lifetime.kv_prune_preserves_overwritten,
  kv_prune_preserves_all_keys: lifetime.kv_prune_preserves_all_keys,
  kv_instance_isolation: basics.kv_instance_isolation,
  kv_delete_instance_cascades: lifetime.kv_delete_instance_cascades,
  kv_clear_nonexistent_key: basics.kv_clear_nonexistent_key,
  kv_get_unknown_instance: basics.kv_get_unknown_instance,
  kv_set_after_clear: basics.kv_set_after_clear,
  kv_empty_value: basics.kv_empty_value,
  kv_large_value: basics.kv_large_value,
  kv_special_chars_in_key: basics.kv_special_chars_in_key,
  kv_snapshot_empty: snapshot.kv_snapshot_empty,
  kv_snapshot_cross_execution: snapshot.kv_snapshot_cross_execution,
  kv_prune_current_execution_protected: lifetime.kv_prune_current_execution_protected,
  kv_delete_instance_with_children: lifetime.kv_delete_instance_with_children,
  kv_clear_isolation: basics.kv_clear_isolation,
  kv_delta_snapshot_excludes_current_execution: delta.kv_delta_snapshot_excludes_current_execution,
  kv_delta_snapshot_includes_completed_execution:
    delta.kv_delta_snapshot_includes_completed_execution,
  kv_delta_client_reads_merged: delta.kv_delta_client_reads_merged,
  kv_delta_tombstone_overrides_store: delta.kv_delta_tombstone_overrides_store,
  kv_delta_clear_all_tombstones_store: delta.kv_delta_clear_all_tombstones_store,
  kv_delta_merged_on_completion: delta.kv_delta_merged_on_completion,
  kv_delta_merged_on_can: delta.kv_delta_merged_on_can,
  kv_delta_delete_instance_cascades: delta.kv_delta_delete_instance_cascades,
  kv_delta_prune_untouched_key_survives: delta.kv_delta_prune_untouched_key_survives,
});
