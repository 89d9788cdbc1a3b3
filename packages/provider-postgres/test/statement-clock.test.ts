import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from './support/test-database.js';
import { startOrchestration } from './support/turns.js';

const database = useTestDatabase();

describe("the caller's clock of a statement", () => {
  it('is read when the statement gets its connection, not when the call waits for one', async () => {
    const provider = await database.newProvider({ poolSize: 1 }, 'clock_at_send');
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    let releasedAtMs = Number.NaN;
    try {
      await holder.query('BEGIN');
      await holder.query(
        `LOCK TABLE "${provider.schema}".orchestrator_queue IN ACCESS EXCLUSIVE MODE`,
      );
      // The start takes the pool's only connection and waits for the table; the activity,
      // enqueued once the start was sent, waits for the connection.
      const blocked = provider.enqueueForOrchestrator(startOrchestration('blocked'), null);
      await nextTurn();
      const waiting = provider.enqueueForWorker({
        type: 'ActivityExecute',
        instance: 'waiting',
        executionId: 1,
        id: 2,
        name: 'Greet',
        input: '{}',
      });
      await sleep(300);
      releasedAtMs = Date.now();
      await holder.query('COMMIT');
      await Promise.all([blocked, waiting]);
    } finally {
      await holder.end();
    }
    const createdMs = async (queue: string): Promise<number[]> =>
      (
        await database.query<{ created_ms: string }>(
          `SELECT (extract(epoch FROM created_at) * 1000)::bigint AS created_ms ` +
            `FROM "${provider.schema}".${queue}`,
        )
      ).map((row) => Number(row.created_ms));
    expect(await createdMs('worker_queue')).toEqual([
      expect.toSatisfy((ms: number) => ms >= releasedAtMs),
    ]);
    // The start was stamped when it was sent, before its wait for the table.
    expect(await createdMs('orchestrator_queue')).toEqual([
      expect.toSatisfy((ms: number) => ms < releasedAtMs),
    ]);
  });
});

describe("a statement's arguments", () => {
  it('that cannot be built fail the call and leave its connection in the pool', async () => {
    const applicationName = 'duro_unbuilt_arguments';
    const provider = await database.newProvider({ poolSize: 1, applicationName }, 'bad_args');
    const backends = async (): Promise<number[]> =>
      (
        await database.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
          [applicationName],
        )
      ).map((row) => row.pid);
    await provider.read('nothing');
    const before = await backends();
    expect(before).toHaveLength(1);

    await expect(
      provider.enqueueForOrchestrator(startOrchestration('too-far'), 1e20),
    ).rejects.toThrow('Invalid visible_at timestamp');
    await provider.read('nothing');
    expect(await backends()).toEqual(before);
  });
});
