import { expect } from 'vitest';
import { createInstance } from '../support/fixtures.js';
import { kvAllClearedEvent, kvClearedEvent } from '../support/history-events.js';
import {
  completeExecution,
  continueAsNew,
  createInstanceWithCommittedKv,
  setKv,
  snapshotOfNextTurn,
  writeKv,
} from './turns.js';
import type { ValidationRun } from '../validation-group.js';

/**
 * The validations of duroxide's `kv_store.rs` about the key-value snapshot a fetched turn
 * carries: the committed state of finished executions, never the running one's writes.
 * `kv-store.ts` lists them in the Rust order.
 */
export const kvStoreSnapshot = {
  kv_snapshot_in_fetch: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstanceWithCommittedKv(
      provider,
      'kv-fetch',
      { eventId: 100, key: 'x', value: '10' },
      { eventId: 101, key: 'y', value: '20' },
    );

    expect(await snapshotOfNextTurn(provider, 'kv-fetch', 1)).toEqual({ x: '10', y: '20' });
  },

  kv_snapshot_after_clear_single: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-fclr1');
    await setKv(
      provider,
      'kv-fclr1',
      1,
      { eventId: 100, key: 'keep', value: 'yes' },
      { eventId: 101, key: 'remove', value: 'bye' },
    );
    await writeKv(provider, 'kv-fclr1', 1, [kvClearedEvent(102, 'kv-fclr1', 1, 'remove')]);
    await completeExecution(provider, 'kv-fclr1', 1);

    expect(await snapshotOfNextTurn(provider, 'kv-fclr1', 1)).toEqual({ keep: 'yes' });
  },

  kv_snapshot_after_clear_all: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-fclra');
    await setKv(
      provider,
      'kv-fclra',
      1,
      { eventId: 100, key: 'a', value: '1' },
      { eventId: 101, key: 'b', value: '2' },
    );
    await writeKv(provider, 'kv-fclra', 1, [kvAllClearedEvent(102, 'kv-fclra', 1)]);

    expect(await snapshotOfNextTurn(provider, 'kv-fclra', 1), 'expected empty snapshot').toEqual(
      {},
    );
  },

  kv_snapshot_empty: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-sempty');
    expect(
      await snapshotOfNextTurn(provider, 'kv-sempty', 1),
      'expected empty snapshot for fresh instance',
    ).toEqual({});
  },

  kv_snapshot_cross_execution: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-scross');
    await setKv(provider, 'kv-scross', 1, { eventId: 100, key: 'A', value: 'from_exec1' });
    // The continue-as-new commits A; B, written by the running execution 2, stays in its delta.
    await continueAsNew(provider, 'kv-scross', 2);
    await setKv(provider, 'kv-scross', 2, { eventId: 200, key: 'B', value: 'from_exec2' });

    expect(
      await snapshotOfNextTurn(provider, 'kv-scross', 2),
      'snapshot should only contain prior-execution state',
    ).toEqual({ A: 'from_exec1' });
  },
} satisfies Record<string, ValidationRun>;
