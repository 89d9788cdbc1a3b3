import {
  TagFilter,
  type ActivityClaim,
  type OrchestrationItemAck,
  type OrchestrationItemAckOutcome,
  type WorkItemOf,
} from '@duro/core';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { PostgresProvider } from '../src/index.js';
import { wakeupChannel } from '../src/wakeup-channel.js';
import { useTestDatabase } from './support/test-database.js';
import { activityOf, eventOf, externalRaised, FIRST_TURN, startInstance } from './support/turns.js';

// Duro migration 10: a batch ack may write the activities its turns schedule already claimed for
// the caller's worker, which then runs them without a fetch. The shared validations
// (activity_claims, registered with the provider's validation suite) hold the claims to the
// contract; the tests below cover what is PostgreSQL's own: the rows' lock columns,
// wake-ups, the batch that goes turn by turn, the procedure's arguments and older schemas.

const database = useTestDatabase();

/**
 * Starts each instance, gives it an external event, claims all their turns in one batch, and
 * returns each turn's commit that records the event and schedules the given activities.
 */
async function turnsScheduling(
  provider: PostgresProvider,
  scheduled: Record<string, readonly WorkItemOf<'ActivityExecute'>[]>,
  historyOf: (instance: string) => OrchestrationItemAck['historyDelta'] = () => [],
): Promise<OrchestrationItemAck[]> {
  const instances = Object.keys(scheduled);
  for (const instance of instances) await startInstance(provider, instance);
  for (const instance of instances) {
    await provider.enqueueForOrchestrator(externalRaised(instance, 'go'), null);
  }
  const turns = await provider.fetchOrchestrationItems(30_000, 0, null, instances.length);
  expect(turns.map((turn) => turn.item.instance).sort()).toEqual([...instances].sort());
  return turns.map((turn) => {
    const instance = turn.item.instance;
    return {
      lockToken: turn.lockToken,
      executionId: 1,
      historyDelta: [
        eventOf(instance, 2, { type: 'ExternalEvent', name: 'go', data: '"payload"' }),
        ...historyOf(instance),
      ],
      workerItems: scheduled[instance] ?? [],
      orchestratorItems: [],
      metadata: FIRST_TURN,
      cancelledActivities: [],
    };
  });
}

const claimOf = (maxItems: number, lockTimeoutMs = 30_000): ActivityClaim => ({
  maxItems,
  lockTimeoutMs,
  tagFilter: TagFilter.defaultOnly(),
});

/** The activities each outcome says were claimed, as `instance#id`. */
function claimedIds(outcomes: readonly OrchestrationItemAckOutcome[]): string[][] {
  return outcomes.map((outcome) => {
    if (!outcome.ok) throw outcome.error;
    return (outcome.claimedActivities ?? []).map(({ item }) =>
      item.type === 'ActivityExecute' ? `${item.instance}#${item.id}` : item.type,
    );
  });
}

interface QueueRow {
  instance_id: string;
  activity_id: string;
  lock_token: string | null;
  locked_until: string | null;
  attempt_count: number;
}

async function workerQueue(provider: PostgresProvider): Promise<QueueRow[]> {
  return database.query<QueueRow>(
    `SELECT instance_id, activity_id, lock_token, locked_until, attempt_count
     FROM "${provider.schema}".worker_queue ORDER BY id`,
  );
}

describe('activities a batch ack writes claimed (duro migration 10)', () => {
  it("writes each claimed row with its lock token, a lease from the statement's clock and one attempt", async () => {
    const provider = await database.newProvider({}, 'claimrows');
    const acks = await turnsScheduling(provider, {
      'a-1': [
        activityOf('a-1', 3),
        activityOf('a-1', 4, { sessionId: 's-1' }),
        activityOf('a-1', 5),
      ],
    });
    const beforeMs = Date.now();

    const outcomes = await provider.ackOrchestrationItems(acks, claimOf(5));

    const afterMs = Date.now();
    expect(claimedIds(outcomes)).toEqual([['a-1#3', 'a-1#5']]);
    const tokens = new Map(
      outcomes.flatMap((outcome) =>
        outcome.ok ? (outcome.claimedActivities ?? []).map((c) => [c.lockToken, c] as const) : [],
      ),
    );
    const rows = await workerQueue(provider);
    expect(rows.map((row) => row.lock_token !== null)).toEqual([true, false, true]);
    for (const row of rows) {
      if (row.lock_token === null) {
        expect(row).toMatchObject({ locked_until: null, attempt_count: 0 });
        continue;
      }
      expect(tokens.get(row.lock_token)?.item).toMatchObject({
        instance: row.instance_id,
        id: Number(row.activity_id),
      });
      expect(row.attempt_count).toBe(1);
      expect(Number(row.locked_until)).toBeGreaterThanOrEqual(beforeMs + 30_000);
      expect(Number(row.locked_until)).toBeLessThanOrEqual(afterMs + 30_000);
    }
  });

  it('wakes workers only for the activities it left unclaimed', async () => {
    const provider = await database.newProvider({}, 'claimwake');
    const listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    const channel = wakeupChannel(provider.schema, 'worker');
    const received: string[] = [];
    listener.on('notification', (n) => received.push(n.payload ?? ''));
    await listener.query(`LISTEN ${channel}`);
    /** Everything the channel got before a marker sent now. */
    const drain = async (): Promise<string[]> => {
      await database.query('SELECT pg_notify($1, $2)', [channel, 'marker']);
      while (!received.includes('marker')) await new Promise((r) => setTimeout(r, 5));
      return received.splice(0, received.length);
    };
    try {
      const all = await turnsScheduling(provider, { 'w-1': [activityOf('w-1', 3)] });
      await drain();
      await provider.ackOrchestrationItems(all, claimOf(1));
      expect(await drain()).toEqual(['marker']);

      const some = await turnsScheduling(provider, {
        'w-2': [activityOf('w-2', 3), activityOf('w-2', 4)],
      });
      await drain();
      await provider.ackOrchestrationItems(some, claimOf(1));
      expect(await drain()).toEqual(['', 'marker']);
    } finally {
      await listener.end();
    }
  });

  it('claims nothing when the batch goes turn by turn, and the activities wait for a fetch', async () => {
    const provider = await database.newProvider({}, 'claimsingle');
    // A turn that writes key/value pairs sends its batch turn by turn (duro migration 8).
    const acks = await turnsScheduling(provider, { 'k-1': [activityOf('k-1', 4)] }, (instance) => [
      eventOf(instance, 3, { type: 'KeyValueSet', key: 'k', value: '"v"', lastUpdatedAtMs: 1 }),
    ]);

    const outcomes = await provider.ackOrchestrationItems(acks, claimOf(5));

    expect(outcomes).toEqual([{ ok: true }]);
    expect(await workerQueue(provider)).toEqual([
      {
        instance_id: 'k-1',
        activity_id: '4',
        lock_token: null,
        locked_until: null,
        attempt_count: 0,
      },
    ]);
    const fetched = await provider.fetchWorkItems(30_000, 0, null, TagFilter.defaultOnly(), 5, 0);
    expect(fetched).toHaveLength(1);
  });

  it('the procedure refuses a lock token for an activity of a session, naming the argument', async () => {
    const provider = await database.newProvider({}, 'claimrefuse');
    const schema = `"${provider.schema}"`;
    const item = {
      ActivityExecute: {
        instance: 'r-1',
        execution_id: 1,
        id: 3,
        name: 'Work',
        input: '3',
        session_id: 's-1',
      },
    };
    await expect(
      database.query(
        `SELECT * FROM ${schema}.duro_ack_orchestration_items_claiming(
           ARRAY['lock_x'], 0, ARRAY[1]::bigint[], '[[]]', $1::jsonb, '[[]]', '[{}]', '[[]]',
           '[["lock_y"]]', 1000)`,
        [JSON.stringify([[item]])],
      ),
    ).rejects.toThrow(/p_activity_lock_tokens .*no token for an activity of a session/);
  });
});

describe('a provider on a schema whose ledger stops before duro migration 10', () => {
  it('ignores the claim and leaves every activity to a fetch', async () => {
    const migrated = await database.newProvider({}, 'claimold');
    await database.query(`DELETE FROM "${migrated.schema}"._duro_migrations WHERE version >= 10`);
    const provider = await database.attach(migrated);
    const acks = await turnsScheduling(provider, { 'o-1': [activityOf('o-1', 3)] });

    const outcomes = await provider.ackOrchestrationItems(acks, claimOf(5));

    expect(outcomes).toEqual([{ ok: true }]);
    expect((await workerQueue(provider))[0]?.lock_token).toBeNull();
  });
});
