import { runMigrations } from '@duro/provider-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FETCH_WORK_ITEMS } from '../src/operations/fetch-work-items.js';
import { useScratchSchemas } from './support/scratch-schemas.js';

const scratch = useScratchSchemas();
const schema = scratch.fresh('worker_plan');
const queue = `"${schema}".worker_queue`;
const LEASE_MS = 30_000;
/** Activities claimed and acknowledged since the last vacuum, as a busy minute leaves them. */
const ACKNOWLEDGED = 10_000;

/** Inserts `count` rows into the queue, visible a second ago, leased until `leasedUntil` if given. */
async function addRows(count: number, label: string, leasedUntil?: number): Promise<void> {
  await scratch.pool.query(
    `INSERT INTO ${queue} (work_item, visible_at, created_at, instance_id, execution_id,
                           activity_id, lock_token, locked_until)
     SELECT '{"ActivityExecute":{}}', now() - interval '1 second', now(), $1 || g, 1, g,
            CASE WHEN $2::bigint IS NULL THEN NULL ELSE 'lock_' || $1 || g END, $2::bigint
     FROM generate_series(1, $3::integer) AS g`,
    [label, leasedUntil ?? null, count],
  );
}

/** What the server reads for one worker fetch of four activities, planned generically. */
async function fetchFourPlan(): Promise<{ claimed: number; sharedBlocks: number }> {
  const client = new pg.Client({ connectionString: scratch.databaseUrl });
  await client.connect();
  try {
    await client.query('SET plan_cache_mode = force_generic_plan');
    await client.query(
      `PREPARE fetch_works(bigint, bigint, text, bigint, text[], text, integer, integer) AS
       ${FETCH_WORK_ITEMS.sql(`"${schema}"`, '')}`,
    );
    let last: { claimed: number; sharedBlocks: number } | undefined;
    // The first fetch marks the index entries of acknowledged rows it passes; the second shows
    // what every later fetch reads.
    for (let run = 0; run < 2; run++) {
      await client.query('BEGIN');
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: Record<string, number> }] }>(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)
         EXECUTE fetch_works(${Date.now()}, ${LEASE_MS}, NULL, ${LEASE_MS}, '{}', 'default_only', 4, 0)`,
      );
      await client.query('ROLLBACK');
      const plan = rows[0]?.['QUERY PLAN'][0].Plan;
      last = {
        claimed: plan?.['Actual Rows'] ?? 0,
        sharedBlocks: plan?.['Shared Hit Blocks'] ?? 0,
      };
    }
    if (last === undefined) throw new Error('no fetch ran');
    return last;
  } finally {
    await client.end();
  }
}

async function queuePages(): Promise<number> {
  const { rows } = await scratch.pool.query<{ pages: number }>(
    `SELECT (pg_relation_size($1) / current_setting('block_size')::int)::int AS pages`,
    [queue],
  );
  return rows[0]?.pages ?? 0;
}

describe('a worker fetch under generic plans (duro 0007)', () => {
  beforeAll(async () => {
    await runMigrations(scratch.pool, { schema });
    // No vacuum between the claims and acks below and the fetch, as within autovacuum's minute.
    await scratch.pool.query(`ALTER TABLE ${queue} SET (autovacuum_enabled = off)`);
    // The statistics of a queue that was nearly empty when it was last analyzed.
    await addRows(20, 'seed-');
    await scratch.pool.query(`ANALYZE ${queue}`);
    await scratch.pool.query(`DELETE FROM ${queue}`);
    // Each activity is inserted, claimed (a new row version) and acknowledged (deleted).
    await addRows(ACKNOWLEDGED, 'done-');
    await scratch.pool.query(`UPDATE ${queue} SET lock_token = 'lock_' || id, locked_until = $1`, [
      Date.now() + LEASE_MS,
    ]);
    await scratch.pool.query(`DELETE FROM ${queue}`);
    // Now: 60 activities being worked on, and 10 waiting.
    await addRows(60, 'running-', Date.now() + LEASE_MS);
    await addRows(10, 'ready-');
  });
  afterAll(() => scratch.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));

  it('reads the rows it claims, not those acknowledged since the last vacuum', async () => {
    const pages = await queuePages();
    // Reading the table, or the rows of its index entries, would cost at least this.
    expect(pages).toBeGreaterThan(300);
    const { claimed, sharedBlocks } = await fetchFourPlan();
    expect(claimed).toBe(4);
    expect(sharedBlocks).toBeLessThan(150);
  });

  it('reads no more with a hundred thousand activities waiting', async () => {
    await addRows(100_000, 'backlog-');
    const { claimed, sharedBlocks } = await fetchFourPlan();
    expect(claimed).toBe(4);
    expect(sharedBlocks).toBeLessThan(150);
  });

  it('still takes the rows whose lease lapsed, oldest first', async () => {
    await scratch.pool.query(
      `UPDATE ${queue} SET locked_until = $1 WHERE instance_id IN ('running-1', 'running-2')`,
      [Date.now() - 1],
    );
    const client = new pg.Client({ connectionString: scratch.databaseUrl });
    await client.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ out_lock_token: string }>(
        FETCH_WORK_ITEMS.sql(`"${schema}"`, ''),
        [Date.now(), LEASE_MS, null, LEASE_MS, [], 'default_only', 4, 0],
      );
      const { rows: taken } = await client.query<{ instance_id: string }>(
        `SELECT instance_id FROM ${queue} WHERE lock_token = ANY ($1) ORDER BY id`,
        [rows.map((r) => r.out_lock_token)],
      );
      await client.query('ROLLBACK');
      expect(taken.map((r) => r.instance_id)).toEqual([
        'running-1',
        'running-2',
        'ready-1',
        'ready-2',
      ]);
    } finally {
      await client.end();
    }
  });
});
