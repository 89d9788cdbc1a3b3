import { expect } from 'vitest';
import { createInstance } from '../support/fixtures.js';
import { kvAllClearedEvent, kvClearedEvent, kvSetEvent } from '../support/history-events.js';
import {
  continueAsNew,
  createInstanceWithCommittedKv,
  expectKvValue,
  setKv,
  snapshotOfNextTurn,
  writeKv,
} from './turns.js';
import { adminOf } from '../support/provider-expectations.js';
import type { ValidationRun } from '../validation-group.js';

/**
 * The validations of duroxide's `kv_store.rs` about the two-table model: a running execution's
 * writes sit in a delta that clients see merged over the committed store (tombstones hiding
 * committed keys) and that is merged into the store when the execution ends. `kv-store.ts` lists
 * them in the Rust order.
 */
export const kvStoreDelta = {
  kv_delta_snapshot_excludes_current_execution: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-ds1');
    await setKv(provider, 'kv-ds1', 1, {
      eventId: 100,
      key: 'counter',
      value: '1',
      lastUpdatedAtMs: 100,
    });
    await expectKvValue(
      provider,
      'kv-ds1',
      'counter',
      '1',
      'client read should see current-execution value',
    );

    expect(
      await snapshotOfNextTurn(provider, 'kv-ds1', 1),
      'snapshot must be empty: counter was set in the current, unfinished execution',
    ).toEqual({});
  },

  kv_delta_snapshot_includes_completed_execution: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-ds2');
    await setKv(provider, 'kv-ds2', 1, {
      eventId: 100,
      key: 'counter',
      value: '5',
      lastUpdatedAtMs: 100,
    });
    await continueAsNew(provider, 'kv-ds2', 2);

    const snapshot = await snapshotOfNextTurn(provider, 'kv-ds2', 2);
    expect(snapshot.counter, 'snapshot must contain prior-execution value after CAN').toBe('5');
  },

  kv_delta_client_reads_merged: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstanceWithCommittedKv(
      provider,
      'kv-dm',
      { eventId: 100, key: 'color', value: 'red', lastUpdatedAtMs: 100 },
      { eventId: 101, key: 'size', value: 'large', lastUpdatedAtMs: 101 },
    );
    // Execution 2 starts by its first ack here, without a continue-as-new.
    await setKv(
      provider,
      'kv-dm',
      2,
      { eventId: 200, key: 'color', value: 'blue', lastUpdatedAtMs: 200 },
      { eventId: 201, key: 'shape', value: 'circle', lastUpdatedAtMs: 201 },
    );

    await expectKvValue(provider, 'kv-dm', 'color', 'blue', 'delta should override kv_store value');
    await expectKvValue(
      provider,
      'kv-dm',
      'size',
      'large',
      'kv_store value should be visible when no delta exists',
    );
    await expectKvValue(provider, 'kv-dm', 'shape', 'circle', 'delta-only key should be visible');
  },

  kv_delta_tombstone_overrides_store: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstanceWithCommittedKv(provider, 'kv-dt', {
      eventId: 100,
      key: 'temp',
      value: 'exists',
      lastUpdatedAtMs: 100,
    });
    await writeKv(provider, 'kv-dt', 2, [kvClearedEvent(200, 'kv-dt', 2, 'temp')]);

    await expectKvValue(
      provider,
      'kv-dt',
      'temp',
      null,
      'tombstone in delta must override kv_store value',
    );
  },

  kv_delta_clear_all_tombstones_store: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstanceWithCommittedKv(
      provider,
      'kv-dca',
      { eventId: 100, key: 'a', value: '1', lastUpdatedAtMs: 100 },
      { eventId: 101, key: 'b', value: '2', lastUpdatedAtMs: 101 },
    );
    await writeKv(provider, 'kv-dca', 2, [
      kvAllClearedEvent(200, 'kv-dca', 2),
      kvSetEvent(201, 'kv-dca', 2, { key: 'c', value: '3', lastUpdatedAtMs: 201 }),
    ]);

    await expectKvValue(provider, 'kv-dca', 'a', null, "clear_all must tombstone kv_store key 'a'");
    await expectKvValue(provider, 'kv-dca', 'b', null, "clear_all must tombstone kv_store key 'b'");
    await expectKvValue(provider, 'kv-dca', 'c', '3', 'key set after clear_all should be visible');
  },

  kv_delta_merged_on_completion: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstanceWithCommittedKv(provider, 'kv-dmc', {
      eventId: 100,
      key: 'result',
      value: '42',
      lastUpdatedAtMs: 100,
    });

    await expectKvValue(
      provider,
      'kv-dmc',
      'result',
      '42',
      'value should be in kv_store after completion merge',
    );
  },

  kv_delta_merged_on_can: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-dmc2');
    await setKv(
      provider,
      'kv-dmc2',
      1,
      { eventId: 100, key: 'version', value: '1', lastUpdatedAtMs: 100 },
      { eventId: 101, key: 'progress', value: '50%', lastUpdatedAtMs: 101 },
    );
    await setKv(provider, 'kv-dmc2', 1, {
      eventId: 102,
      key: 'progress',
      value: '100%',
      lastUpdatedAtMs: 102,
    });
    await continueAsNew(provider, 'kv-dmc2', 2);

    const snapshot = await snapshotOfNextTurn(provider, 'kv-dmc2', 2);
    expect(snapshot.version, 'version should carry over via kv_store after CAN merge').toBe('1');
    expect(snapshot.progress, 'latest progress value should carry over').toBe('100%');
  },

  kv_delta_delete_instance_cascades: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    await createInstance(provider, 'kv-ddel');
    await setKv(provider, 'kv-ddel', 1, {
      eventId: 100,
      key: 'data',
      value: 'important',
      lastUpdatedAtMs: 100,
    });
    await expectKvValue(provider, 'kv-ddel', 'data', 'important');

    await admin.deleteInstance('kv-ddel', true);
    await expectKvValue(
      provider,
      'kv-ddel',
      'data',
      null,
      'KV delta must be cleaned up on instance deletion',
    );
  },

  kv_delta_prune_untouched_key_survives: async ({ newProvider }) => {
    const provider = await newProvider();
    const admin = adminOf(provider);
    await createInstance(provider, 'kv-dprn');
    // Only execution 1 ever writes stale_config; execution 3 runs without touching either key.
    await setKv(provider, 'kv-dprn', 1, {
      eventId: 100,
      key: 'stale_config',
      value: 'from_exec_1',
      lastUpdatedAtMs: 100,
    });
    await continueAsNew(provider, 'kv-dprn', 2);
    await setKv(provider, 'kv-dprn', 2, {
      eventId: 200,
      key: 'other',
      value: 'unrelated',
      lastUpdatedAtMs: 200,
    });
    await continueAsNew(provider, 'kv-dprn', 3);
    await expectKvValue(provider, 'kv-dprn', 'stale_config', 'from_exec_1');
    await expectKvValue(provider, 'kv-dprn', 'other', 'unrelated');

    await admin.pruneExecutions('kv-dprn', { keepLast: 1 });
    await expectKvValue(
      provider,
      'kv-dprn',
      'stale_config',
      'from_exec_1',
      'KV key from pruned execution must survive: KV lifetime is instance-scoped',
    );
    await expectKvValue(
      provider,
      'kv-dprn',
      'other',
      'unrelated',
      'KV key from pruned execution 2 must also survive',
    );

    const snapshot = await snapshotOfNextTurn(provider, 'kv-dprn', 3);
    expect(snapshot.stale_config, 'snapshot must include untouched key from pruned execution').toBe(
      'from_exec_1',
    );
    expect(snapshot.other, 'snapshot must include key from pruned execution 2').toBe('unrelated');
  },
} satisfies Record<string, ValidationRun>;
