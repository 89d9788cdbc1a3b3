import { runMigrations, wakeupChannel } from '@duro/provider-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ackAsPoison, enqueueStart, fetchItem } from './support/orchestration-calls.js';
import { useScratchSchemas } from './support/scratch-schemas.js';

const scratch = useScratchSchemas();
let schema: string;
let listener: pg.Client;
const received: string[] = [];
let wake: (() => void) | undefined;

beforeAll(async () => {
  schema = scratch.fresh('wakeup');
  await runMigrations(scratch.pool, { schema });
  listener = new pg.Client({ connectionString: scratch.databaseUrl });
  await listener.connect();
  listener.on('notification', (n) => {
    received.push(`${n.channel}:${n.payload ?? ''}`);
    wake?.();
  });
  await listener.query(`LISTEN ${wakeupChannel(schema, 'orchestrator')}`);
  await listener.query(`LISTEN ${wakeupChannel(schema, 'worker')}`);
});

afterAll(async () => {
  await listener.end();
});

/**
 * Sends a marker notification on the channel and returns everything received up to and
 * including it: PostgreSQL delivers notifications in commit order, so what the step before sent
 * has arrived by the time the marker does.
 */
async function receivedUntilMarker(channel: string): Promise<string[]> {
  const marker = `${channel}:marker`;
  const arrived = new Promise<void>((resolve) => {
    wake = () => {
      if (received.includes(marker)) resolve();
    };
  });
  await scratch.pool.query('SELECT pg_notify($1, $2)', [channel, 'marker']);
  await arrived;
  return received.splice(0, received.length);
}

describe('wake-up notifications', () => {
  it('a visible message sent to an orchestration notifies the orchestrator channel', async () => {
    const channel = wakeupChannel(schema, 'orchestrator');
    await enqueueStart(scratch.pool, schema, 'n-1');
    expect(await receivedUntilMarker(channel)).toEqual([`${channel}:`, `${channel}:marker`]);
  });

  it('a message due later announces when it comes due, and wakes nobody now', async () => {
    const channel = wakeupChannel(schema, 'orchestrator');
    const dueMs = Date.now() + 60_000;
    await enqueueStart(scratch.pool, schema, 'n-later', dueMs);
    const [announced, ...rest] = await receivedUntilMarker(channel);
    expect(rest).toEqual([`${channel}:marker`]);
    const announcedMs = Number(announced?.slice(`${channel}:`.length));
    // Rounded up to the millisecond, so a listener never wakes a fetch before the message is due.
    expect(announcedMs).toBeGreaterThanOrEqual(dueMs);
    expect(announcedMs).toBeLessThanOrEqual(dueMs + 1);
  });

  it('an abandon without delay and an ack that leaves waiting messages notify', async () => {
    const channel = wakeupChannel(schema, 'orchestrator');
    await scratch.pool.query(`TRUNCATE "${schema}".orchestrator_queue, "${schema}".instance_locks`);
    await enqueueStart(scratch.pool, schema, 'n-2');
    await receivedUntilMarker(channel);

    const client = await scratch.pool.connect();
    try {
      const first = await fetchItem(client, schema, Date.now(), 30_000);
      if (!first) throw new Error('nothing fetched');
      expect(await receivedUntilMarker(channel)).toEqual([`${channel}:marker`]);

      await client.query(`SELECT "${schema}".abandon_orchestration_item($1, $2)`, [
        first.lockToken,
        Date.now(),
      ]);
      expect(await receivedUntilMarker(channel)).toEqual([`${channel}:`, `${channel}:marker`]);

      const second = await fetchItem(client, schema, Date.now(), 30_000);
      if (!second) throw new Error('nothing fetched after the abandon');
      await enqueueStart(scratch.pool, schema, 'n-2');
      await receivedUntilMarker(channel);
      expect(await ackAsPoison(client, schema, second)).toBeUndefined();
      expect(await receivedUntilMarker(channel)).toEqual([`${channel}:`, `${channel}:marker`]);
    } finally {
      client.release();
    }
  });

  it('new activity work notifies the worker channel', async () => {
    const channel = wakeupChannel(schema, 'worker');
    await scratch.pool.query(`SELECT "${schema}".enqueue_worker_work($1, $2)`, [
      JSON.stringify({
        ActivityExecute: { instance: 'n-3', execution_id: 1, id: 2, name: 'A', input: '' },
      }),
      Date.now(),
    ]);
    expect(await receivedUntilMarker(channel)).toEqual([`${channel}:`, `${channel}:marker`]);
  });

  it('the database names channels exactly as wakeupChannel does', async () => {
    const names = ['public', 'Tenant_A', 'x'.repeat(53), 'y'.repeat(54), 'z'.repeat(63)];
    for (const name of names) {
      for (const queue of ['orchestrator', 'worker'] as const) {
        const row = await scratch.pool.query<{ channel: string }>(
          `SELECT "${schema}".duro_wakeup_channel($1, $2) AS channel`,
          [name, queue],
        );
        expect(row.rows[0]?.channel).toBe(wakeupChannel(name, queue));
      }
    }
  });
});
