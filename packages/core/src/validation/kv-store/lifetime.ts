import { createInstance, startItem } from '../support/fixtures.js';
import { kvClearedEvent, startedEvent } from '../support/history-events.js';
import {
  completeExecution,
  continueAsNew,
  createInstanceWithCommittedKv,
  expectKvValue,
  setKv,
  writeKv,
} from './turns.js';
import { TEST_ORCH_METADATA, runPokedTurn } from '../support/test-turns.js';
import { adminOf } from '../support/provider-expectations.js';
import type { ValidationRun } from '../validation-group.js';

/**
 * The validations of duroxide's `kv_store.rs` about how long keys live: across continue-as-new,
 * through pruning (keys belong to the instance, not to an execution) and until the instance or
 * its root is deleted. `kv-store.ts` lists them in the Rust order.
 */
export const kvStoreLifetime = {
  kv_execution_id_tracking: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    await createInstance(provider, 'kv-exec');
    await setKv(provider, 'kv-exec', 1, { eventId: 100, key: 'shared', value: 'from_exec_1' });
    await expectKvValue(provider, 'kv-exec', 'shared', 'from_exec_1');

    await continueAsNew(provider, 'kv-exec', 2);
    await setKv(provider, 'kv-exec', 2, { eventId: 200, key: 'shared', value: 'from_exec_2' });
    await expectKvValue(
      provider,
      'kv-exec',
      'shared',
      'from_exec_2',
      'should reflect exec 2 value',
    );

    await admin.pruneExecutions('kv-exec', { keepLast: 1 });
    await expectKvValue(
      provider,
      'kv-exec',
      'shared',
      'from_exec_2',
      'key must survive pruning because last-writer (exec 2) is not pruned',
    );
  },

  kv_cross_execution_overwrite: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-xexec');
    await setKv(provider, 'kv-xexec', 1, { eventId: 100, key: 'k', value: 'v1' });
    await expectKvValue(provider, 'kv-xexec', 'k', 'v1', 'should see value from exec 1');

    await continueAsNew(provider, 'kv-xexec', 2);
    await setKv(provider, 'kv-xexec', 2, { eventId: 200, key: 'k', value: 'v2' });
    await expectKvValue(provider, 'kv-xexec', 'k', 'v2', 'exec 2 should overwrite exec 1 value');
  },

  kv_cross_execution_remove_readd: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-xrm');
    await setKv(provider, 'kv-xrm', 1, { eventId: 100, key: 'cycle', value: 'exec1' });
    await expectKvValue(provider, 'kv-xrm', 'cycle', 'exec1');

    await continueAsNew(provider, 'kv-xrm', 2);
    await writeKv(provider, 'kv-xrm', 2, [kvClearedEvent(200, 'kv-xrm', 2, 'cycle')]);
    await expectKvValue(provider, 'kv-xrm', 'cycle', null, 'key should be cleared in exec 2');

    await continueAsNew(provider, 'kv-xrm', 3);
    await setKv(provider, 'kv-xrm', 3, { eventId: 300, key: 'cycle', value: 'exec3' });
    await expectKvValue(provider, 'kv-xrm', 'cycle', 'exec3', 'key should be re-set from exec 3');
  },

  kv_prune_preserves_overwritten: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    await createInstance(provider, 'kv-prn1');
    await setKv(provider, 'kv-prn1', 1, { eventId: 100, key: 'survive', value: 'v1' });
    await continueAsNew(provider, 'kv-prn1', 2);
    await setKv(provider, 'kv-prn1', 2, { eventId: 200, key: 'survive', value: 'v2' });

    await admin.pruneExecutions('kv-prn1', { keepLast: 1 });
    await expectKvValue(
      provider,
      'kv-prn1',
      'survive',
      'v2',
      'overwritten key must survive pruning of old execution',
    );
  },

  kv_prune_preserves_all_keys: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    await createInstance(provider, 'kv-prn2');
    await setKv(provider, 'kv-prn2', 1, { eventId: 100, key: 'orphan', value: 'survives' });
    await continueAsNew(provider, 'kv-prn2', 2);
    await setKv(provider, 'kv-prn2', 2, { eventId: 200, key: 'keeper', value: 'alive' });
    await expectKvValue(provider, 'kv-prn2', 'orphan', 'survives');
    await expectKvValue(provider, 'kv-prn2', 'keeper', 'alive');

    await admin.pruneExecutions('kv-prn2', { keepLast: 1 });
    await expectKvValue(
      provider,
      'kv-prn2',
      'orphan',
      'survives',
      'KV entries must survive execution pruning (instance-scoped lifetime)',
    );
    await expectKvValue(provider, 'kv-prn2', 'keeper', 'alive', 'exec 2 key must survive');
  },

  kv_prune_current_execution_protected: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    await createInstance(provider, 'kv-prncur');
    await setKv(provider, 'kv-prncur', 1, { eventId: 100, key: 'alive', value: 'yes' });

    await admin.pruneExecutions('kv-prncur', { keepLast: 1 });
    await expectKvValue(
      provider,
      'kv-prncur',
      'alive',
      'yes',
      'current execution KV must survive pruning',
    );
  },

  kv_delete_instance_cascades: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    // Completed, so that a delete without force is allowed.
    await createInstanceWithCommittedKv(provider, 'kv-del', {
      eventId: 100,
      key: 'doomed',
      value: 'bye',
    });
    await expectKvValue(provider, 'kv-del', 'doomed', 'bye', 'value should exist before deletion');

    await admin.deleteInstance('kv-del', false);
    await expectKvValue(
      provider,
      'kv-del',
      'doomed',
      null,
      'KV should be gone after instance deletion',
    );
  },

  kv_delete_instance_with_children: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    await createInstance(provider, 'kv-parent');
    await setKv(provider, 'kv-parent', 1, { eventId: 100, key: 'parent_key', value: 'parent_val' });
    const parent = { parentInstance: 'kv-parent', parentId: 1 };
    await runPokedTurn(
      provider,
      { ...startItem('kv-child'), ...parent },
      {
        historyDelta: [startedEvent('kv-child', 1, parent)],
        metadata: { ...TEST_ORCH_METADATA, parentInstanceId: 'kv-parent' },
      },
    );
    await setKv(provider, 'kv-child', 1, { eventId: 100, key: 'child_key', value: 'child_val' });
    await completeExecution(provider, 'kv-child', 1);
    await completeExecution(provider, 'kv-parent', 1);

    await admin.deleteInstance('kv-parent', false);
    await expectKvValue(provider, 'kv-parent', 'parent_key', null, 'parent KV should be removed');
    await expectKvValue(
      provider,
      'kv-child',
      'child_key',
      null,
      'child KV should be removed when parent is deleted',
    );
  },
} satisfies Record<string, ValidationRun>;
