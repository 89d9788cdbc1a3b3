import { randomBytes } from 'node:crypto';
import { ProviderError } from '@duro/core';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PostgresProvider } from '../src/index.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { useTestDatabase } from './support/test-database.js';
import { startOrchestration } from './support/turns.js';

const database = useTestDatabase();

async function rejection(call: Promise<unknown>): Promise<ProviderError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ProviderError.isInstance(error))
    throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

/** Resolves once `condition` holds, checking every 20 ms. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('losing the connection', () => {
  it('a connection dropped mid-call is a retryable error, and the pool recovers', async () => {
    const applicationName = `duro_drop_${randomBytes(4).toString('hex')}`;
    const provider = await database.newProvider({ applicationName, poolSize: 2 }, 'dropped');
    const activity = {
      type: 'ActivityExecute',
      instance: 'dropped',
      executionId: 1,
      id: 1,
      name: 'Work',
      input: '{}',
    } as const;
    await provider.enqueueForWorker(activity);
    const fetched = await provider.fetchWorkItem(60_000, 0, null, { type: 'DefaultOnly' });
    expect(fetched).not.toBeNull();
    if (fetched === null) return;

    // Another session locks the row, so the ack waits inside PostgreSQL until its backend is
    // terminated.
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query(`SELECT 1 FROM "${provider.schema}".worker_queue FOR UPDATE`);
    const ack = rejection(provider.ackWorkItem(fetched.lockToken, null));
    await until(async () => {
      const rows = await database.query(
        `SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
        [applicationName],
      );
      return rows.length > 0;
    });
    const backends = `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`;
    await database.query(backends, [applicationName]);
    const error = await ack;
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/^ack_worker: Connection lost or refused/);
    expect(error.message).toContain('(instance dropped)');

    // Every other connection of the pool goes too; none of them may fail the next calls.
    await database.query(backends, [applicationName]);
    await until(async () => {
      const rows = await database.query(
        `SELECT 1 FROM pg_stat_activity WHERE application_name = $1`,
        [applicationName],
      );
      return rows.length === 0;
    });
    await blocker.query('COMMIT');
    await blocker.end();

    await provider.ackWorkItem(fetched.lockToken, null);
    await provider.enqueueForOrchestrator(startOrchestration('after-drop'), null);
    expect((await provider.fetchOrchestrationItem(30_000, 0, null))?.item.instance).toBe(
      'after-drop',
    );
  });

  it('an unreachable server is a retryable error, and calls succeed once it is back', async () => {
    const proxy = new TcpProxy(database.url);
    await proxy.start();
    const schema = database.newSchemaName('unreachable');
    const provider = await PostgresProvider.connectWithSchema(proxy.urlFor(database.url), schema, {
      poolSize: 2,
      connectionTimeoutMs: 5_000,
    });
    try {
      await provider.enqueueForOrchestrator(startOrchestration('unreachable'), null);

      await proxy.stop();
      const cut = await rejection(provider.getQueueDepths());
      expect(cut.retryable).toBe(true);
      const refused = await rejection(provider.getQueueDepths());
      expect(refused.retryable).toBe(true);
      expect(refused.message).toMatch(/Connection lost or refused/);
      const refusedAtConnect = await rejection(
        PostgresProvider.connectWithSchema(proxy.urlFor(database.url), schema),
      );
      expect(refusedAtConnect.retryable).toBe(true);

      await proxy.start();
      expect((await provider.getQueueDepths()).orchestratorQueue).toBe(1);
      expect((await provider.fetchOrchestrationItem(30_000, 0, null))?.item.instance).toBe(
        'unreachable',
      );
    } finally {
      await provider.close();
      await proxy.stop();
      await database.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });
});
