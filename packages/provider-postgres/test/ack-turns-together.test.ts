import type { Event, EventKind, FetchedOrchestrationItem, OrchestrationItemAck } from '@duro/core';
import { describe, expect, it } from 'vitest';
import type { PostgresProvider } from '../src/index.js';
import { useTestDatabase } from './support/test-database.js';
import {
  activityOf,
  eventOf,
  externalRaised,
  FIRST_TURN,
  startedEvent,
  startOrchestration,
} from './support/turns.js';

// Duro migration 8 writes the turns of a batch ack together, one statement per table, and falls
// back to one ack_orchestration_item per turn when it cannot. These tests hold the merged writes
// to the rows the turn-by-turn acks leave, and check which way a batch went by hiding
// ack_orchestration_item: a batch that needed it then fails turn by turn.
const database = useTestDatabase();

/** A fixed clock for event payloads, so two schemas given the same turns store the same text. */
const AT_MS = 1_700_000_000_000;
const HOUR_MS = 3_600_000;

/** `eventOf` at a fixed time. */
function event(instance: string, eventId: number, kind: EventKind): Event {
  return { ...eventOf(instance, eventId, kind), timestampMs: AT_MS };
}

function externalEvent(instance: string, eventId: number, name: string): Event {
  return event(instance, eventId, { type: 'ExternalEvent', name, data: '"payload"' });
}

/** A turn of `turn`'s instance: `ack` without its lock token. */
type TurnOf = (turn: FetchedOrchestrationItem) => Omit<OrchestrationItemAck, 'lockToken'>;

const quiet: Omit<OrchestrationItemAck, 'lockToken'> = {
  executionId: 1,
  historyDelta: [],
  workerItems: [],
  orchestratorItems: [],
  metadata: FIRST_TURN,
  cancelledActivities: [],
};

/**
 * Before the batch, each instance exists: `kv` holds two key/value writes in its delta,
 * `cancel` a scheduled activity. Acknowledged one turn at a time, the same in every schema.
 */
async function prepare(provider: PostgresProvider): Promise<void> {
  for (const instance of ['timers', 'kv', 'cancel']) {
    await provider.enqueueForOrchestrator(startOrchestration(instance), null);
    const [first] = await provider.fetchOrchestrationItems(30_000, 0, null, 1);
    if (first?.item.instance !== instance) throw new Error(`could not start ${instance}`);
    const started = { ...startedEvent(instance), timestampMs: AT_MS };
    await provider.ackOrchestrationItem(first.lockToken, 1, [started], [], [], FIRST_TURN, []);
  }
  for (const instance of ['kv', 'cancel']) {
    await provider.enqueueForOrchestrator(externalRaised(instance, 'prepare'), null);
  }
  const preparing: Record<string, TurnOf> = {
    kv: (turn) => ({
      ...quiet,
      historyDelta: [
        externalEvent('kv', 2, 'prepare'),
        event('kv', 3, { type: 'KeyValueSet', key: 'kept', value: '"1"', lastUpdatedAtMs: AT_MS }),
        event('kv', 4, {
          type: 'KeyValueSet',
          key: 'dropped',
          value: '"2"',
          lastUpdatedAtMs: AT_MS,
        }),
        event('kv', 5, { type: 'KeyValueCleared', key: 'dropped' }),
      ],
      executionId: turn.item.executionId,
    }),
    cancel: () => ({
      ...quiet,
      historyDelta: [externalEvent('cancel', 2, 'prepare')],
      workerItems: [activityOf('cancel', 2)],
    }),
  };
  const claimed = await provider.fetchOrchestrationItems(30_000, 0, null, 2);
  expect(claimed).toHaveLength(2);
  await ackEach(provider, claimed, preparing);
}

/** The batch under test: each turn exercises different steps of the ack. */
const BATCH: Record<string, TurnOf> = {
  timers: () => ({
    ...quiet,
    historyDelta: [
      externalEvent('timers', 2, 'go'),
      event('timers', 3, { type: 'CustomStatusUpdated', status: 'waiting' }),
    ],
    workerItems: [activityOf('timers', 4), activityOf('timers', 5), activityOf('timers', 6)],
    orchestratorItems: [
      { type: 'TimerFired', instance: 'timers', executionId: 1, id: 7, fireAtMs: AT_MS + HOUR_MS },
    ],
    metadata: { ...FIRST_TURN, pinnedDuroxideVersion: { major: 0, minor: 1, patch: 30 } },
  }),
  kv: () => ({
    ...quiet,
    historyDelta: [externalEvent('kv', 6, 'go')],
    // A message to another instance of the batch, whose own messages are deleted meanwhile.
    orchestratorItems: [
      {
        type: 'SubOrchCompleted',
        parentInstance: 'cancel',
        parentExecutionId: 1,
        parentId: 9,
        result: '"done"',
      },
    ],
    metadata: { ...FIRST_TURN, status: 'Completed', output: '"done"' },
  }),
  cancel: () => ({
    ...quiet,
    historyDelta: [externalEvent('cancel', 3, 'go')],
    metadata: {},
    cancelledActivities: [{ instance: 'cancel', executionId: 1, activityId: 2 }],
  }),
};

/** Acknowledges each claimed turn alone, in claim order. */
async function ackEach(
  provider: PostgresProvider,
  claimed: readonly FetchedOrchestrationItem[],
  turns: Record<string, TurnOf>,
): Promise<void> {
  for (const turn of claimed) {
    const ack = ackFor(turn, turns);
    await provider.ackOrchestrationItem(
      ack.lockToken,
      ack.executionId,
      ack.historyDelta,
      ack.workerItems,
      ack.orchestratorItems,
      ack.metadata,
      ack.cancelledActivities,
    );
  }
}

function ackFor(
  turn: FetchedOrchestrationItem,
  turns: Record<string, TurnOf>,
): OrchestrationItemAck {
  const of = turns[turn.item.instance];
  if (of === undefined) throw new Error(`no turn for ${turn.item.instance}`);
  return { lockToken: turn.lockToken, ...of(turn) };
}

/** Enqueues a `go` for each instance of `turns` and claims them, in that order. */
async function claimBatch(
  provider: PostgresProvider,
  turns: Record<string, TurnOf>,
): Promise<FetchedOrchestrationItem[]> {
  const instances = Object.keys(turns);
  for (const instance of instances) {
    await provider.enqueueForOrchestrator(externalRaised(instance, 'go'), null);
  }
  const claimed = await provider.fetchOrchestrationItems(30_000, 0, null, instances.length);
  expect(claimed.map((turn) => turn.item.instance)).toEqual(instances);
  return claimed;
}

/**
 * Every row a turn can write, without the columns that hold the time of the ack or a lock
 * token; a queue row says instead whether it is visible now and whether it is locked.
 */
async function rowsOf(schema: string): Promise<Record<string, unknown[]>> {
  const moments = ['created_at', 'updated_at', 'started_at', 'completed_at', 'visible_at'];
  const locks = ['lock_token', 'locked_until', 'locked_at'];
  const rows: Record<string, unknown[]> = {};
  for (const table of [
    'instances',
    'executions',
    'history',
    'worker_queue',
    'orchestrator_queue',
    'instance_locks',
    'kv_store',
    'kv_delta',
  ]) {
    const found = await database.query<{ row: unknown }>(
      `SELECT to_jsonb(t) - $1::text[] - $2::text[]
              || CASE WHEN to_jsonb(t) ? 'visible_at'
                      THEN jsonb_build_object('visible_now', (to_jsonb(t)->>'visible_at')::timestamptz <= now(),
                                              'locked', to_jsonb(t)->>'lock_token' IS NOT NULL)
                      ELSE '{}'::jsonb END
              || CASE WHEN to_jsonb(t) ? 'completed_at'
                      THEN jsonb_build_object('completed', to_jsonb(t)->>'completed_at' IS NOT NULL)
                      ELSE '{}'::jsonb END AS row
       FROM "${schema}".${table} t`,
      [moments, locks],
    );
    rows[table] = found.map((r) => JSON.stringify(r.row)).sort();
  }
  return rows;
}

/** Makes ack_orchestration_item unavailable in `schema`: a turn-by-turn ack then fails. */
async function hideSingleAck(schema: string): Promise<void> {
  await database.query(
    `ALTER FUNCTION "${schema}".ack_orchestration_item(text, bigint, bigint, jsonb, jsonb, jsonb, ` +
      `jsonb, jsonb) RENAME TO hidden_ack_orchestration_item`,
  );
}

async function restoreSingleAck(schema: string): Promise<void> {
  await database.query(
    `ALTER FUNCTION "${schema}".hidden_ack_orchestration_item(text, bigint, bigint, jsonb, ` +
      `jsonb, jsonb, jsonb, jsonb) RENAME TO ack_orchestration_item`,
  );
}

describe('turns acknowledged together (duro migration 8)', () => {
  it('leave the rows that acknowledging them one after another leaves', async () => {
    const together = await database.newProvider({}, 'together');
    const apart = await database.newProvider({}, 'apart');
    await prepare(together);
    await prepare(apart);

    await hideSingleAck(together.schema);
    const outcomes = await together.ackOrchestrationItems(
      (await claimBatch(together, BATCH)).map((turn) => ackFor(turn, BATCH)),
    );
    await restoreSingleAck(together.schema);
    await ackEach(apart, await claimBatch(apart, BATCH), BATCH);

    expect(outcomes).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    const rows = await rowsOf(together.schema);
    expect(rows).toEqual(await rowsOf(apart.schema));
    // What the turns wrote is there: `cancel`'s activity was deleted, `kv`'s delta merged.
    expect(rows['worker_queue']).toHaveLength(3);
    expect(rows['kv_store']).toHaveLength(1);
    expect(rows['kv_delta']).toHaveLength(0);
    expect(rows['instance_locks']).toHaveLength(0);
  });

  it('run no step a batch has nothing for (duro migration 17), and leave the same rows', async () => {
    const together = await database.newProvider({}, 'lean');
    const apart = await database.newProvider({}, 'leanapart');
    await prepare(together);
    await prepare(apart);
    // One activity, one completion (its key/value delta merged), and no messages, custom status
    // or pinned version; two turns name no orchestration.
    const lean: Record<string, TurnOf> = {
      timers: () => ({
        ...quiet,
        historyDelta: [externalEvent('timers', 2, 'go')],
        workerItems: [activityOf('timers', 3)],
      }),
      kv: () => ({
        ...quiet,
        historyDelta: [externalEvent('kv', 6, 'go')],
        metadata: { status: 'Completed', output: '"done"' },
      }),
      cancel: () => ({ ...quiet, historyDelta: [externalEvent('cancel', 3, 'go')], metadata: {} }),
    };
    const acks = (await claimBatch(together, lean)).map((turn) => ackFor(turn, lean));
    // A statement trigger of the schema's own sees every insert into a queue, rows or none.
    await database.query(`
      CREATE TABLE "${together.schema}".queue_inserts (queue TEXT);
      CREATE FUNCTION "${together.schema}".note_queue_insert() RETURNS TRIGGER AS $$
      BEGIN
        INSERT INTO "${together.schema}".queue_inserts VALUES (TG_TABLE_NAME);
        RETURN NULL;
      END $$ LANGUAGE plpgsql;
      CREATE TRIGGER note_insert AFTER INSERT ON "${together.schema}".orchestrator_queue
        FOR EACH STATEMENT EXECUTE FUNCTION "${together.schema}".note_queue_insert();
      CREATE TRIGGER note_insert AFTER INSERT ON "${together.schema}".worker_queue
        FOR EACH STATEMENT EXECUTE FUNCTION "${together.schema}".note_queue_insert();`);

    await hideSingleAck(together.schema);
    const outcomes = await together.ackOrchestrationItems(acks);
    await restoreSingleAck(together.schema);
    await ackEach(apart, await claimBatch(apart, lean), lean);

    expect(outcomes).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(await rowsOf(together.schema)).toEqual(await rowsOf(apart.schema));
    expect(await database.query(`SELECT queue FROM "${together.schema}".queue_inserts`)).toEqual([
      { queue: 'worker_queue' },
    ]);
  });

  it('go turn by turn when a turn writes key/value pairs', async () => {
    const provider = await database.newProvider({}, 'kvturns');
    await prepare(provider);
    const withWrite: Record<string, TurnOf> = {
      ...BATCH,
      timers: (turn) => ({
        ...(BATCH.timers as TurnOf)(turn),
        historyDelta: [
          externalEvent('timers', 2, 'go'),
          event('timers', 3, {
            type: 'KeyValueSet',
            key: 'k',
            value: '"v"',
            lastUpdatedAtMs: AT_MS,
          }),
        ],
      }),
    };
    const acks = (await claimBatch(provider, withWrite)).map((turn) => ackFor(turn, withWrite));

    await hideSingleAck(provider.schema);
    const refused = await provider.ackOrchestrationItems(acks);
    await restoreSingleAck(provider.schema);
    const outcomes = await provider.ackOrchestrationItems(acks);

    expect(refused.map((outcome) => outcome.ok)).toEqual([false, false, false]);
    expect(outcomes).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(
      await database.query(`SELECT instance_id, key, value FROM "${provider.schema}".kv_delta`),
    ).toEqual([{ instance_id: 'timers', key: 'k', value: '"v"' }]);
  });

  it('a turn that cannot be stored fails alone, and the others still commit', async () => {
    const provider = await database.newProvider({}, 'oneraises');
    await prepare(provider);
    const clashing: Record<string, TurnOf> = {
      ...BATCH,
      // Event 2 of `cancel` was stored by its preparing turn.
      cancel: (turn) => ({
        ...(BATCH.cancel as TurnOf)(turn),
        historyDelta: [externalEvent('cancel', 2, 'again')],
      }),
    };
    const claimed = await claimBatch(provider, clashing);

    const outcomes = await provider.ackOrchestrationItems(
      claimed.map((turn) => ackFor(turn, clashing)),
    );

    expect(outcomes.slice(0, 2)).toEqual([{ ok: true }, { ok: true }]);
    expect(outcomes[2]?.ok).toBe(false);
    const locks = await database.query<{ instance_id: string }>(
      `SELECT instance_id FROM "${provider.schema}".instance_locks`,
    );
    expect(locks).toEqual([{ instance_id: 'cancel' }]);
    const history = await database.query<{ instance_id: string; events: string }>(
      `SELECT instance_id, count(*)::text AS events FROM "${provider.schema}".history ` +
        'GROUP BY instance_id ORDER BY instance_id',
    );
    expect(history).toEqual([
      { instance_id: 'cancel', events: '2' },
      { instance_id: 'kv', events: '6' },
      { instance_id: 'timers', events: '3' },
    ]);
  });
});
