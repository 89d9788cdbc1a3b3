// The two regressions of duroxide-pg#21, reproduced at the SQL level. Each runs against our
// latest fetch_orchestration_item and against the definition it replaced (a schema migrated only
// to version 23, where fetch is the 0019-era one: lease from p_now_ms, blocking advisory lock),
// to show that the checks catch the bug they guard against.
import { setTimeout as sleep } from 'node:timers/promises';
import { runMigrations } from '@duro/provider-postgres';
import { describe, expect, it } from 'vitest';
import {
  ANY_PINNED_VERSION,
  ackAsPoison,
  enqueueStart,
  fetchItem,
  holdInstance,
  queuedMessages,
  type FetchedItem,
} from './support/orchestration-calls.js';
import { useScratchSchemas } from './support/scratch-schemas.js';

const scratch = useScratchSchemas();

const BRANCHES = [
  { branch: 'unfiltered', versionRange: undefined },
  { branch: 'version-filtered', versionRange: ANY_PINNED_VERSION },
] as const;

async function migrated(label: string, targetVersion: number): Promise<string> {
  const schema = scratch.fresh(label);
  await runMigrations(scratch.pool, { schema, targetVersion, extensions: false });
  return schema;
}

describe('stale caller timestamp', () => {
  const LOCK_TIMEOUT_MS = 5_000;

  async function staleFetchThenAck(
    targetVersion: number,
    versionRange?: typeof ANY_PINNED_VERSION,
  ) {
    const schema = await migrated('stale', targetVersion);
    await enqueueStart(scratch.pool, schema, 'stale-1', Date.now() - 20_000);
    const client = await scratch.pool.connect();
    try {
      const item = await fetchItem(
        client,
        schema,
        Date.now() - 10_000,
        LOCK_TIMEOUT_MS,
        versionRange,
      );
      if (!item) throw new Error('the fetch returned no item');
      return {
        item,
        ackError: await ackAsPoison(client, schema, item),
        left: await queuedMessages(scratch.pool, schema),
      };
    } finally {
      client.release();
    }
  }

  for (const { branch, versionRange } of BRANCHES) {
    it(`a caller timestamp 10 s stale on arrival never yields an expired lease (${branch}), and the ack commits`, async () => {
      const { item, ackError, left } = await staleFetchThenAck(26, versionRange);
      expect(item.leaseLeftMs).toBeGreaterThan(LOCK_TIMEOUT_MS - 1_000);
      expect(ackError).toBeUndefined();
      expect(left).toBe(0);
    });

    it(`the pre-fix definition fails the same check (${branch})`, async () => {
      const { item, ackError, left } = await staleFetchThenAck(23, versionRange);
      expect(item.leaseLeftMs).toBeLessThan(0);
      expect(ackError).toBe('Invalid lock token');
      expect(left).toBe(1);
    });
  }
});

describe('hot instance contention', () => {
  const LOCK_TIMEOUT_MS = 2_000;
  const DISPATCHERS = 16;
  const HOLD_MS = 4_000;
  const MAX_ATTEMPTS = 10;

  /**
   * 16 dispatchers poll one instance that another session holds for 4 s; its message is at
   * max_attempts, so the first fetch sees attempt 11 and acks it as poison, as the runtime would.
   */
  async function contend(targetVersion: number) {
    const schema = await migrated('hot', targetVersion);
    await enqueueStart(scratch.pool, schema, 'hot-1', Date.now() - 1_000);
    await scratch.pool.query(`UPDATE "${schema}".orchestrator_queue SET attempt_count = $1`, [
      MAX_ATTEMPTS,
    ]);
    const holder = await holdInstance(scratch.pool, schema, 'hot-1', 'both');
    const released = sleep(HOLD_MS).then(() => holder.release());

    const fetched: FetchedItem[] = [];
    const ackErrors: string[] = [];
    let drained = false;
    const deadline = Date.now() + HOLD_MS + 10_000;
    const dispatcher = async (): Promise<void> => {
      while (!drained && Date.now() < deadline) {
        // Like the runtime: the clock is read before a connection is taken.
        const nowMs = Date.now();
        const client = await scratch.pool.connect();
        try {
          const item = await fetchItem(client, schema, nowMs, LOCK_TIMEOUT_MS);
          if (item) {
            fetched.push(item);
            const error =
              item.attemptCount > MAX_ATTEMPTS
                ? await ackAsPoison(client, schema, item)
                : 'not poison';
            if (error === undefined) drained = true;
            else ackErrors.push(error);
          }
        } finally {
          client.release();
        }
        if (!drained) await sleep(50);
      }
    };
    await Promise.all([released, ...Array.from({ length: DISPATCHERS }, dispatcher)]);
    return { fetched, ackErrors, drained, left: await queuedMessages(scratch.pool, schema) };
  }

  it('every lease handed out has about the whole lock timeout left, the poison ack commits and the queue drains', async () => {
    const { fetched, ackErrors, drained, left } = await contend(26);
    expect(fetched.length).toBeGreaterThan(0);
    for (const item of fetched) expect(item.leaseLeftMs).toBeGreaterThan(LOCK_TIMEOUT_MS - 500);
    expect(ackErrors).toEqual([]);
    expect(drained).toBe(true);
    expect(left).toBe(0);
  });

  it('the pre-fix definition hands out an expired lease and its poison ack fails', async () => {
    const { fetched, ackErrors } = await contend(23);
    expect(fetched[0]?.leaseLeftMs).toBeLessThan(0);
    expect(ackErrors[0]).toBe('Invalid lock token');
  });
});
