import type { FetchedOrchestrationItem, OrchestrationItemAck, Provider } from '@duro/core';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from './support/test-database.js';
import { eventOf, externalRaised, FIRST_TURN, startInstance } from './support/turns.js';

// A dispatcher slot claims several turns in one round trip and commits them in another. The
// shared validations hold each turn of a batch to what a single fetch and ack promise; the tests
// below cover what is PostgreSQL's own: encoding, the procedures' arguments, the history cache,
// the window of candidates a claim reads (duro migration 4) and schemas without duro migration 3.

const database = useTestDatabase();

/** Starts `instances` and gives each a pending external event, so each has a turn to claim. */
async function instancesWithTurns(provider: Provider, instances: readonly string[]): Promise<void> {
  for (const instance of instances) await startInstance(provider, instance);
  for (const instance of instances) {
    await provider.enqueueForOrchestrator(externalRaised(instance, 'go'), null);
  }
}

/** The commit of a claimed turn that records the `ExternalEvent` it received. */
function externalEventTurn(turn: FetchedOrchestrationItem): OrchestrationItemAck {
  const instance = turn.item.instance;
  return {
    lockToken: turn.lockToken,
    executionId: 1,
    historyDelta: [
      eventOf(instance, turn.item.history.length + 1, {
        type: 'ExternalEvent',
        name: 'go',
        data: '"payload"',
      }),
    ],
    workerItems: [],
    orchestratorItems: [],
    metadata: FIRST_TURN,
    cancelledActivities: [],
  };
}

describe('turn batches', () => {
  it('a turn that cannot be encoded fails alone and is not sent', async () => {
    const provider = await database.newProvider({}, 'encode');
    await instancesWithTurns(provider, ['e-1', 'e-2']);
    const turns = await provider.fetchOrchestrationItems(30_000, 0, null, 2);
    const [good, bad] = turns.map(externalEventTurn) as [
      OrchestrationItemAck,
      OrchestrationItemAck,
    ];
    const unnumbered = {
      ...bad,
      historyDelta: bad.historyDelta.map((e) => ({ ...e, eventId: 0 })),
    };

    const outcomes = await provider.ackOrchestrationItems([good, unnumbered]);

    expect(outcomes[0]).toEqual({ ok: true });
    expect(outcomes[1]?.ok).toBe(false);
    if (outcomes[1]?.ok !== false) throw new Error('the unnumbered turn committed');
    expect(outcomes[1].error.message).toContain('event_id must be set by runtime');
    const stillLocked = await database.query(
      `SELECT 1 FROM "${provider.schema}".instance_locks WHERE lock_token = $1`,
      [bad.lockToken],
    );
    expect(stillLocked).toHaveLength(1);
  });

  it('the procedures refuse arguments that do not line up, naming what is wrong', async () => {
    const provider = await database.newProvider({}, 'procs');
    const schema = `"${provider.schema}"`;
    await expect(
      database.query(
        `SELECT * FROM ${schema}.duro_ack_orchestration_items(ARRAY['lock_a', 'lock_b'], 0, ` +
          `ARRAY[1]::bigint[], '[[]]', '[[]]', '[[]]', '[{}]', '[[]]')`,
      ),
    ).rejects.toThrow(/every argument needs one element per lock token \(2\)/);
    await expect(
      database.query(
        `SELECT * FROM ${schema}.duro_fetch_orchestration_items(0, 1000, NULL, NULL, ` +
          `'{}', '{}', '{}', 0)`,
      ),
    ).rejects.toThrow(/p_max_items must be at least 1, got 0/);
  });

  it('keeps the histories of batched turns, so the next batch reads only new events', async () => {
    const provider = await database.newProvider({}, 'cached');
    const instances = ['c-1', 'c-2'];
    await instancesWithTurns(provider, instances);
    const turns = await provider.fetchOrchestrationItems(30_000, 0, null, 2);
    await provider.ackOrchestrationItems(turns.map(externalEventTurn));
    // A reader of the stored first events would now fail; a holder does not read them.
    await database.query(
      `UPDATE "${provider.schema}".history SET event_data = '{"type":"BrokenByTest"}' ` +
        'WHERE event_id = 1',
    );
    for (const instance of instances) {
      await provider.enqueueForOrchestrator(externalRaised(instance, 'again'), null);
    }

    const next = await provider.fetchOrchestrationItems(30_000, 0, null, 2);

    expect(next).toHaveLength(2);
    for (const turn of next) {
      expect(turn.item.historyError).toBeNull();
      expect(turn.item.history.map((event) => event.kind.type)).toEqual([
        'OrchestrationStarted',
        'ExternalEvent',
      ]);
    }
  });

  it('on a schema at duroxide version 23, claims and commits one turn at a time', async () => {
    const provider = await database.newProvider({ migrateToVersion: 23 }, 'v23');
    await instancesWithTurns(provider, ['o-1', 'o-2']);

    const turns = await provider.fetchOrchestrationItems(30_000, 0, null, 5);
    expect(turns).toHaveLength(1);
    const outcomes = await provider.ackOrchestrationItems(turns.map(externalEventTurn));

    expect(outcomes).toEqual([{ ok: true }]);
    const [next] = await provider.fetchOrchestrationItems(30_000, 0, null, 5);
    expect(next?.item.instance).not.toBe(turns[0]?.item.instance);
  });
});

describe('the candidate window', () => {
  it('reads past an instance with more waiting messages than the window holds', async () => {
    const provider = await database.newProvider({}, 'window');
    for (const instance of ['w-crowded', 'w-next', 'w-last'])
      await startInstance(provider, instance);
    // Two wanted instances read a window of eight rows: all of them the crowded instance's.
    for (let message = 0; message < 10; message++) {
      await provider.enqueueForOrchestrator(externalRaised('w-crowded', `m${message}`), null);
    }
    await provider.enqueueForOrchestrator(externalRaised('w-next', 'go'), null);
    await provider.enqueueForOrchestrator(externalRaised('w-last', 'go'), null);

    const turns = await provider.fetchOrchestrationItems(30_000, 0, null, 2);

    expect(turns.map((turn) => turn.item.instance)).toEqual(['w-crowded', 'w-next']);
    expect(turns[0]?.item.messages).toHaveLength(10);
  });

  it('skips an instance another session holds, and claims the next', async () => {
    const provider = await database.newProvider({}, 'busy');
    await instancesWithTurns(provider, ['b-held', 'b-free']);
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      // What a claim or an ack of b-held in flight holds until it commits.
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [
        provider.schema,
        'b-held',
      ]);

      const turns = await provider.fetchOrchestrationItems(30_000, 0, null, 2);
      const single = await provider.fetchOrchestrationItem(30_000, 0, null);

      expect(turns.map((turn) => turn.item.instance)).toEqual(['b-free']);
      expect(single).toBeNull();
      await other.query('ROLLBACK');
      const [afterwards] = await provider.fetchOrchestrationItems(30_000, 0, null, 2);
      expect(afterwards?.item.instance).toBe('b-held');
    } finally {
      await other.end();
    }
  });
});
