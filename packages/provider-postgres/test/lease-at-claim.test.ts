import type { FetchedOrchestrationItem } from '@duro/core';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { PostgresProvider } from '../src/index.js';
import { useTestDatabase } from './support/test-database.js';
import {
  externalRaised,
  FIRST_TURN,
  startedEvent,
  startInstance,
  startOrchestration,
  eventOf,
} from './support/turns.js';

const database = useTestDatabase();

/** Milliseconds the lease of `lockToken` has left by the database clock (negative: expired). */
async function leaseLeftMs(provider: PostgresProvider, lockToken: string): Promise<number> {
  const rows = await database.query<{ left_ms: string }>(
    `SELECT locked_until - (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS left_ms ` +
      `FROM "${provider.schema}".instance_locks WHERE lock_token = $1`,
    [lockToken],
  );
  return Number(rows[0]?.left_ms ?? Number.NaN);
}

describe('the lease of a fetched orchestration item', () => {
  it('a caller clock 10 s stale never yields an expired lease, and the ack commits', async () => {
    const lockTimeoutMs = 5_000;
    const stale = await database.newProvider({ nowMs: () => Date.now() - 10_000 }, 'stale_clock');
    const onTime = await database.attach(stale);
    const instance = 'stale-clock';

    // First turn: no instance row yet (the procedure's first-turn branch).
    await stale.enqueueForOrchestrator(startOrchestration(instance), null);
    const first = await stale.fetchOrchestrationItem(lockTimeoutMs, 0, null);
    expect(first?.item.instance).toBe(instance);
    const firstToken = (first as FetchedOrchestrationItem).lockToken;
    expect(await leaseLeftMs(stale, firstToken)).toBeGreaterThan(lockTimeoutMs / 2);
    await onTime.ackOrchestrationItem(
      firstToken,
      1,
      [startedEvent(instance)],
      [],
      [],
      FIRST_TURN,
      [],
    );

    // A later turn: the instance row exists.
    await stale.enqueueForOrchestrator(externalRaised(instance, 'go'), null);
    const later = await stale.fetchOrchestrationItem(lockTimeoutMs, 0, null);
    expect(later?.item.history).toHaveLength(1);
    const laterToken = (later as FetchedOrchestrationItem).lockToken;
    expect(await leaseLeftMs(stale, laterToken)).toBeGreaterThan(lockTimeoutMs / 2);
    await onTime.ackOrchestrationItem(
      laterToken,
      1,
      [eventOf(instance, 2, { type: 'ExternalEvent', name: 'go', data: '"payload"' })],
      [],
      [],
      {},
      [],
    );

    expect((await onTime.read(instance)).map((e) => e.kind.type)).toEqual([
      'OrchestrationStarted',
      'ExternalEvent',
    ]);
  });

  it(
    'sixteen dispatchers behind an instance another session holds get live leases, the poison ' +
      'ack commits and the queue drains',
    async () => {
      const lockTimeoutMs = 2_000;
      const maxAttempts = 10;
      const provider = await database.newProvider({ poolSize: 16 }, 'hot_instance');
      const instance = 'hot-instance';
      await startInstance(provider, instance);
      await provider.enqueueForOrchestrator(externalRaised(instance, 'poison'), null);
      await database.query(
        `UPDATE "${provider.schema}".orchestrator_queue SET attempt_count = $2 WHERE instance_id = $1`,
        [instance, maxAttempts],
      );

      // Another session holds the instance for 4 s under both advisory keys a claim tries
      // (migration 0025's schema-scoped one and duroxide-pg's older one).
      const holder = new pg.Client({ connectionString: database.url });
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query(
        'SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2)), pg_advisory_xact_lock(hashtext($2))',
        [provider.schema, instance],
      );
      const released = new Promise<void>((resolve) => setTimeout(resolve, 4_000)).then(async () => {
        await holder.query('COMMIT');
        await holder.end();
      });

      const leases: number[] = [];
      let acked = false;
      const dispatcher = async (): Promise<void> => {
        while (!acked) {
          const fetched = await provider.fetchOrchestrationItem(lockTimeoutMs, 250, null);
          if (fetched === null) continue;
          leases.push(await leaseLeftMs(provider, fetched.lockToken));
          expect(fetched.attemptCount).toBeGreaterThan(maxAttempts);
          await provider.ackOrchestrationItem(
            fetched.lockToken,
            1,
            [
              eventOf(instance, 2, {
                type: 'OrchestrationFailed',
                details: {
                  type: 'Poison',
                  attemptCount: fetched.attemptCount,
                  maxAttempts,
                  messageType: { type: 'Orchestration', instance, executionId: 1 },
                  message: 'poisoned',
                },
              }),
            ],
            [],
            [],
            { status: 'Failed', output: 'poisoned' },
            [],
          );
          acked = true;
        }
      };
      await Promise.all([released, ...Array.from({ length: 16 }, dispatcher)]);

      expect(leases).toHaveLength(1);
      expect(leases[0]).toBeGreaterThan(lockTimeoutMs / 2);
      const left = await database.query<{ queued: string; locks: string; status: string }>(
        `SELECT (SELECT count(*) FROM "${provider.schema}".orchestrator_queue) AS queued, ` +
          `(SELECT count(*) FROM "${provider.schema}".instance_locks) AS locks, ` +
          `(SELECT status FROM "${provider.schema}".executions WHERE instance_id = $1) AS status`,
        [instance],
      );
      expect(left[0]).toEqual({ queued: '0', locks: '0', status: 'Failed' });
    },
  );
});
