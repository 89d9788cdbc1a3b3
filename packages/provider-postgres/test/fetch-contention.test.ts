import { runMigrations } from '@duro/provider-postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  enqueueStart,
  fetchItem,
  holdInstance,
  type FetchedItem,
} from './support/orchestration-calls.js';
import { useScratchSchemas } from './support/scratch-schemas.js';

const scratch = useScratchSchemas();
const LOCK_TIMEOUT_MS = 30_000;
let schemaA: string;
let schemaB: string;

beforeAll(async () => {
  schemaA = scratch.fresh('contend_a');
  schemaB = scratch.fresh('contend_b');
  await runMigrations(scratch.pool, { schema: schemaA, extensions: false });
  await runMigrations(scratch.pool, { schema: schemaB, extensions: false });
});

async function clear(schema: string): Promise<void> {
  await scratch.pool.query(`TRUNCATE "${schema}".orchestrator_queue, "${schema}".instance_locks`);
}

async function fetchOnce(schema: string): Promise<FetchedItem | undefined> {
  const client = await scratch.pool.connect();
  try {
    return await fetchItem(client, schema, Date.now(), LOCK_TIMEOUT_MS);
  } finally {
    client.release();
  }
}

describe('fetch under contention', () => {
  it('a fetch skips an instance another session holds and returns the next one with a live lease', async () => {
    await clear(schemaA);
    await enqueueStart(scratch.pool, schemaA, 'held', Date.now() - 2_000);
    await enqueueStart(scratch.pool, schemaA, 'free', Date.now() - 1_000);
    const holder = await holdInstance(scratch.pool, schemaA, 'held', 'schema-scoped');
    try {
      const item = await fetchOnce(schemaA);
      expect(item?.instanceId).toBe('free');
      expect(item?.leaseLeftMs).toBeGreaterThan(LOCK_TIMEOUT_MS - 1_000);
    } finally {
      await holder.release();
    }
    expect((await fetchOnce(schemaA))?.instanceId).toBe('held');
  });

  it('ten instances and ten concurrent fetchers: each instance is fetched exactly once', async () => {
    await clear(schemaA);
    const ids = Array.from({ length: 10 }, (_, i) => `inst-${i}`);
    for (const id of ids) await enqueueStart(scratch.pool, schemaA, id, Date.now() - 1_000);

    const items = await Promise.all(ids.map(() => fetchOnce(schemaA)));
    expect(items.map((i) => i?.instanceId).sort()).toEqual(ids);
    expect(await fetchOnce(schemaA)).toBeUndefined();
  });

  it('two schemas with the same instance ids do not interfere', async () => {
    await clear(schemaA);
    await clear(schemaB);
    const ids = Array.from({ length: 5 }, (_, i) => `shared-${i}`);
    for (const id of ids) {
      await enqueueStart(scratch.pool, schemaA, id, Date.now() - 1_000);
      await enqueueStart(scratch.pool, schemaB, id, Date.now() - 1_000);
    }
    const [inA, inB] = await Promise.all([
      Promise.all(ids.map(() => fetchOnce(schemaA))),
      Promise.all(ids.map(() => fetchOnce(schemaB))),
    ]);
    expect(inA.map((i) => i?.instanceId).sort()).toEqual(ids);
    expect(inB.map((i) => i?.instanceId).sort()).toEqual(ids);
    for (const item of [...inA, ...inB])
      expect(item?.leaseLeftMs).toBeGreaterThan(LOCK_TIMEOUT_MS - 1_000);
  });

  it('an instance held in one schema is not skipped in another schema with the same id', async () => {
    await clear(schemaA);
    await clear(schemaB);
    await enqueueStart(scratch.pool, schemaA, 'twin', Date.now() - 1_000);
    await enqueueStart(scratch.pool, schemaB, 'twin', Date.now() - 1_000);
    const holder = await holdInstance(scratch.pool, schemaA, 'twin', 'schema-scoped');
    try {
      expect(await fetchOnce(schemaA)).toBeUndefined();
      expect((await fetchOnce(schemaB))?.instanceId).toBe('twin');
    } finally {
      await holder.release();
    }
  });

  it('a renewal never moves a lease earlier, and one after an expiry fails', async () => {
    await clear(schemaA);
    await enqueueStart(scratch.pool, schemaA, 'renewed', Date.now() - 1_000);
    const item = await fetchOnce(schemaA);
    if (!item) throw new Error('nothing fetched');
    const lease = async (): Promise<number> =>
      Number(
        (
          await scratch.pool.query<{ locked_until: string }>(
            `SELECT locked_until FROM "${schemaA}".instance_locks WHERE lock_token = $1`,
            [item.lockToken],
          )
        ).rows[0]?.locked_until,
      );
    const before = await lease();
    await scratch.pool.query(`SELECT "${schemaA}".renew_orchestration_item_lock($1, $2, 1)`, [
      item.lockToken,
      Date.now(),
    ]);
    expect(await lease()).toBe(before);

    await scratch.pool.query(`UPDATE "${schemaA}".instance_locks SET locked_until = $1`, [
      Date.now() - 1,
    ]);
    await expect(
      scratch.pool.query(`SELECT "${schemaA}".renew_orchestration_item_lock($1, $2, 30)`, [
        item.lockToken,
        Date.now() - 10_000,
      ]),
    ).rejects.toThrow('Lock token invalid, expired, or already released');
  });
});
