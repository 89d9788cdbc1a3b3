import { TagFilter, type WorkItem } from '@duro/core';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresProvider } from '../src/index.js';
import { useTestDatabase } from './support/test-database.js';

const database = useTestDatabase();
const QUEUES = ['orchestrator_queue', 'worker_queue', 'instance_locks'];

/** How many times each queue table of `schema` was vacuumed by hand (not by autovacuum). */
async function vacuumCounts(schema: string): Promise<Record<string, number>> {
  const rows = await database.query<{ relname: string; vacuum_count: string }>(
    `SELECT relname, vacuum_count::text FROM pg_stat_user_tables
      WHERE schemaname = $1 AND relname = ANY ($2)`,
    [schema, QUEUES],
  );
  return Object.fromEntries(rows.map((r) => [r.relname, Number(r.vacuum_count)]));
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

const activity = (id: number): WorkItem => ({
  type: 'ActivityExecute',
  instance: 'vacuumed',
  executionId: 1,
  id,
  name: 'Greet',
  input: '"x"',
});

describe('queue vacuum', () => {
  const providers: PostgresProvider[] = [];
  afterAll(async () => {
    for (const provider of providers) await provider.close();
  });
  const connect = async (schema: string, queueVacuumIntervalMs: number) => {
    const provider = await PostgresProvider.connectWithSchema(database.url, schema, {
      queueVacuumIntervalMs,
    });
    providers.push(provider);
    return provider;
  };

  it('vacuums the queue tables after the provider acknowledged work, and not while it is idle', async () => {
    const schema = database.newSchemaName('vacuum');
    const provider = await connect(schema, 100);
    // Idle: three intervals pass without a vacuum.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await vacuumCounts(schema)).toEqual({
      orchestrator_queue: 0,
      worker_queue: 0,
      instance_locks: 0,
    });

    for (let id = 1; id <= 3; id++) await provider.enqueueForWorker(activity(id));
    const batch = await provider.fetchWorkItems(30_000, 0, null, TagFilter.defaultOnly(), 3, 0);
    expect(batch).toHaveLength(3);
    await provider.ackWorkItems(batch.map(({ lockToken }) => ({ lockToken, completion: null })));

    const vacuumed = await until(async () => {
      const counts = await vacuumCounts(schema);
      return QUEUES.every((table) => (counts[table] ?? 0) > 0);
    }, 5_000);
    expect(vacuumed).toBe(true);
    // And idle again: one vacuum for that work, no more.
    const after = await vacuumCounts(schema);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await vacuumCounts(schema)).toEqual(after);
  });

  it('leaves the tables to autovacuum when the interval is 0', async () => {
    const schema = database.newSchemaName('no_vacuum');
    const provider = await connect(schema, 0);
    await provider.enqueueForWorker(activity(1));
    const batch = await provider.fetchWorkItems(30_000, 0, null, TagFilter.defaultOnly(), 1, 0);
    await provider.ackWorkItems(batch.map(({ lockToken }) => ({ lockToken, completion: null })));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await vacuumCounts(schema)).worker_queue).toBe(0);
  });

  it('names the option when its value is wrong', async () => {
    await expect(
      PostgresProvider.connectWithSchema(database.url, database.newSchemaName('bad'), {
        queueVacuumIntervalMs: -1,
      }),
    ).rejects.toThrow('queueVacuumIntervalMs must be a non-negative integer, got -1');
  });
});
