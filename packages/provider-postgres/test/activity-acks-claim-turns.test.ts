import { TagFilter, type FetchedWorkItem, type WorkItem } from '@duro/core';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { CLAIM_COMMIT_WITHOUT_FLUSH_WAIT } from '../src/database/claim-commit.js';
import type { PostgresProvider } from '../src/index.js';
import { useTestDatabase } from './support/test-database.js';
import { addingInOneStatement } from './support/uncommitted-messages.js';
import { activityOf, eventOf, externalRaised, FIRST_TURN, startInstance } from './support/turns.js';

// While a batch fetch of turns waits, an activity acknowledgement of the same provider claims
// the turns its completions wake in the same statement (duro migration 16) and hands them to that
// fetch: one commit instead of the acknowledgement's and the woken fetch's, and no wait for the
// notification.
const database = useTestDatabase();

/** The procedure of an acknowledgement that claims turns. */
const CLAIMING_ACK = 'duro_ack_work_items_claiming_turns(';

/**
 * Shows `onQuery` every statement a `pg` client of this process sends (its text, and the promise
 * of its result) until the returned function is called.
 */
function watchStatements(onQuery: (text: string, result: unknown) => void): () => void {
  const original = Reflect.get(pg.Client.prototype, 'query') as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function watched(this: pg.Client, ...args: unknown[]) {
    const result = original.apply(this, args);
    const config = args[0];
    onQuery(typeof config === 'string' ? config : String((config as pg.QueryConfig).text), result);
    return result;
  } as typeof pg.Client.prototype.query;
  return () => {
    pg.Client.prototype.query = original as typeof pg.Client.prototype.query;
  };
}

/** The statements every `pg` client of this process sends, in order, while `watch` runs. */
async function statementsDuring<T>(
  watch: () => Promise<T>,
): Promise<{ result: T; sent: string[] }> {
  const sent: string[] = [];
  const stop = watchStatements((text) => sent.push(text));
  try {
    return { result: await watch(), sent };
  } finally {
    stop();
  }
}

/**
 * Starts `instance`, commits a turn scheduling `count` activities (ids 3, 4, ...), and claims
 * them; returns the claimed activities.
 */
async function runningActivities(provider: PostgresProvider, instance: string, count: number) {
  await startInstance(provider, instance);
  await provider.enqueueForOrchestrator(
    { type: 'ExternalRaised', instance, name: 'go', data: '"go"' },
    null,
  );
  const [turn] = await provider.fetchOrchestrationItems(30_000, 0, null, 1);
  if (turn === undefined) throw new Error('no turn');
  const ids = Array.from({ length: count }, (_, index) => 3 + index);
  await provider.ackOrchestrationItem(
    turn.lockToken,
    1,
    [eventOf(instance, 2, { type: 'ExternalEvent', name: 'go', data: '"go"' })],
    ids.map((id) => activityOf(instance, id)),
    [],
    FIRST_TURN,
    [],
  );
  const activities = await provider.fetchWorkItems(
    30_000,
    0,
    null,
    TagFilter.defaultOnly(),
    count,
    0,
  );
  if (activities.length !== count) throw new Error(`claimed ${activities.length} activities`);
  return activities;
}

/** Starts `instance`, commits a turn scheduling one activity, and claims that activity. */
async function runningActivity(provider: PostgresProvider, instance: string) {
  const [activity] = await runningActivities(provider, instance, 1);
  if (activity === undefined) throw new Error('no activity');
  return activity;
}

/** The id of a claimed activity. */
function activityIdOf(fetched: FetchedWorkItem): number {
  if (fetched.item.type !== 'ActivityExecute')
    throw new Error(`not an activity: ${fetched.item.type}`);
  return fetched.item.id;
}

const completionOf = (instance: string, id = 3): WorkItem => ({
  type: 'ActivityCompleted',
  instance,
  executionId: 1,
  id,
  result: '"done"',
});

/**
 * Starts a long-polling batch fetch of up to `maxItems` turns on `provider` and resolves, with
 * its promise, once its first look has come back empty and it waits.
 */
async function waitingFetch(provider: PostgresProvider, maxItems = 4) {
  const seen: { firstLook: Promise<unknown> | null } = { firstLook: null };
  const stop = watchStatements((text, result) => {
    if (seen.firstLook === null && text.includes('duro_fetch_orchestration_items(')) {
      seen.firstLook = result as Promise<unknown>;
    }
  });
  const fetch = provider.fetchOrchestrationItems(30_000, 20_000, null, maxItems);
  try {
    while (seen.firstLook === null) await new Promise((resolve) => setImmediate(resolve));
  } finally {
    stop();
  }
  await seen.firstLook;
  // What follows an empty look (the fetch starting to wait) runs before the next macrotask.
  await new Promise((resolve) => setImmediate(resolve));
  return { fetch };
}

describe('activity acknowledgements that claim the turns they wake', () => {
  it('hand the woken turn to a waiting fetch of their provider, committed with the acknowledgement', async () => {
    const provider = await database.newProvider({}, 'ack_claims');
    const other = await database.attach(provider);
    const activity = await runningActivity(provider, 'woken');

    const { fetch } = await waitingFetch(provider);
    const { sent } = await statementsDuring(async () => {
      const outcomes = await provider.ackWorkItems([
        { lockToken: activity.lockToken, completion: completionOf('woken') },
      ]);
      expect(outcomes).toEqual([{ ok: true }]);
      // Committed with the acknowledgement: another provider finds the instance held.
      expect(await other.fetchOrchestrationItems(30_000, 0, null, 4)).toEqual([]);
      return fetch;
    });
    const turns = await fetch;

    expect(turns.map((turn) => turn.item.instance)).toEqual(['woken']);
    expect(turns[0]?.item.messages).toEqual([completionOf('woken')]);
    // One statement, so no transaction stays open between round trips.
    expect(sent.filter((text) => text.includes(CLAIMING_ACK))).toHaveLength(1);
    expect(sent.filter((text) => /^\s*BEGIN/i.test(text))).toEqual([]);
    expect(sent.filter((text) => text.includes('duro_fetch_orchestration_items('))).toHaveLength(
      1, // the other provider's look
    );
    // The turn commits as any fetched turn does.
    const [turn] = turns;
    if (turn === undefined) throw new Error('no turn');
    await provider.ackOrchestrationItem(
      turn.lockToken,
      1,
      [eventOf('woken', 4, { type: 'ActivityCompleted', result: '"done"' })],
      [],
      [],
      { ...FIRST_TURN, status: 'Completed', output: '"done"' },
      [],
    );
    expect((await other.read('woken')).map((event) => event.kind.type)).toContain(
      'ActivityCompleted',
    );
  });

  it('commit alone when no fetch of their provider waits, and the turn is fetched as usual', async () => {
    const provider = await database.newProvider({}, 'ack_claims');
    const activity = await runningActivity(provider, 'alone');
    const { sent } = await statementsDuring(() =>
      provider.ackWorkItems([{ lockToken: activity.lockToken, completion: completionOf('alone') }]),
    );
    expect(sent.some((text) => text.includes(CLAIMING_ACK))).toBe(false);
    const turns = await provider.fetchOrchestrationItems(30_000, 0, null, 4);
    expect(turns.map((turn) => turn.item.messages)).toEqual([[completionOf('alone')]]);
  });
  it('leave an instance another provider holds to its holder, and the fetch takes it once released', async () => {
    const provider = await database.newProvider({}, 'ack_claims');
    const holder = await database.attach(provider);
    const activity = await runningActivity(provider, 'held');
    await provider.enqueueForOrchestrator(externalRaised('held', 'meanwhile'), null);
    const [held] = await holder.fetchOrchestrationItems(30_000, 0, null, 4);
    if (held === undefined) throw new Error('the holder claimed nothing');

    const { fetch } = await waitingFetch(provider);
    expect(
      await provider.ackWorkItems([
        { lockToken: activity.lockToken, completion: completionOf('held') },
      ]),
    ).toEqual([{ ok: true }]);
    // The holder's lease is intact: it can still give the instance back.
    await holder.abandonOrchestrationItem(held.lockToken, null, false);

    const turns = await fetch;
    expect(turns.map((turn) => turn.item.messages)).toEqual([
      [externalRaised('held', 'meanwhile'), completionOf('held')],
    ]);
  });

  it('claim no more turns than the waiting fetch asked for; the rest wait for the next fetch', async () => {
    const provider = await database.newProvider({}, 'ack_claims');
    const first = await runningActivity(provider, 'first');
    const second = await runningActivity(provider, 'second');

    const { fetch } = await waitingFetch(provider, 1);
    expect(
      await provider.ackWorkItems([
        { lockToken: first.lockToken, completion: completionOf('first') },
        { lockToken: second.lockToken, completion: completionOf('second') },
      ]),
    ).toEqual([{ ok: true }, { ok: true }]);

    expect((await fetch).map((turn) => turn.item.instance)).toEqual(['first']);
    const rest = await provider.fetchOrchestrationItems(30_000, 0, null, 4);
    expect(rest.map((turn) => turn.item.messages)).toEqual([[completionOf('second')]]);
  });

  it('commit durably even on a provider whose own claims do not wait for the flush', async () => {
    const provider = await database.newProvider({ nonDurableClaims: true }, 'ack_claims');
    const activity = await runningActivity(provider, 'durable');

    const { fetch } = await waitingFetch(provider);
    const { sent } = await statementsDuring(async () => {
      await provider.ackWorkItems([
        { lockToken: activity.lockToken, completion: completionOf('durable') },
      ]);
      return fetch;
    });

    expect((await fetch).map((turn) => turn.item.instance)).toEqual(['durable']);
    expect(sent.filter((text) => text.includes(CLAIMING_ACK))).toHaveLength(1);
    // The acknowledgement shares the claim's commit, so the claim may not relax it.
    for (const text of sent) expect(text).not.toContain(CLAIM_COMMIT_WITHOUT_FLUSH_WAIT);
  });

  it("leave a fan-out's turn to the notification while other activities of the instance remain", async () => {
    const provider = await database.newProvider({}, 'ack_claims');
    // Two activities run; the first one's acknowledgement leaves the second in the queue.
    const [first] = await runningActivities(provider, 'fan', 2);
    if (first === undefined) throw new Error('no activity');

    const { fetch } = await waitingFetch(provider);
    const { sent } = await statementsDuring(async () => {
      expect(
        await provider.ackWorkItems([
          { lockToken: first.lockToken, completion: completionOf('fan', activityIdOf(first)) },
        ]),
      ).toEqual([{ ok: true }]);
      return fetch;
    });
    // The acknowledgement claimed nothing; the fetch, woken by the completion's notification,
    // claimed the turn itself, as it did before acknowledgements could claim.
    expect((await fetch).map((turn) => turn.item.messages)).toEqual([
      [completionOf('fan', activityIdOf(first))],
    ]);
    expect(sent.filter((text) => text.includes(CLAIMING_ACK))).toHaveLength(1);
    expect(sent.filter((text) => text.includes('duro_fetch_orchestration_items('))).toHaveLength(1);
  });

  it('leave an instance to a transaction still adding a message for it; the fetch takes both once it commits', async () => {
    const provider = await database.newProvider({}, 'ack_claims');
    const activity = await runningActivity(provider, 'adding');
    // Holds the instance's shared lock until it commits (duro migration 15), as another
    // worker's acknowledgement of a sibling activity does.
    const adding = await addingInOneStatement(database, provider.schema, [
      externalRaised('adding', 'sibling'),
    ]);
    try {
      const { fetch } = await waitingFetch(provider);
      let fetched = false;
      void fetch.then(() => (fetched = true));
      expect(
        await provider.ackWorkItems([
          { lockToken: activity.lockToken, completion: completionOf('adding') },
        ]),
      ).toEqual([{ ok: true }]);
      // Neither the acknowledgement's claim nor the fetch's own look took the instance while
      // a message for it was uncommitted.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fetched).toBe(false);
      await adding.commit();
      expect((await fetch).map((turn) => turn.item.messages)).toEqual([
        [externalRaised('adding', 'sibling'), completionOf('adding')],
      ]);
    } finally {
      await adding.commit();
    }
  });

  it('still acknowledge when the claim fails, and the fetch looks for itself', async () => {
    const provider = await database.newProvider({}, 'ack_claims');
    const activity = await runningActivity(provider, 'broken');
    // A claim that fails as a whole (as a damaged claim function would).
    await database.query(
      `CREATE OR REPLACE FUNCTION "${provider.schema}".duro_claim_orchestration_turn(
         p_instance_id TEXT, p_now_ms BIGINT, p_lock_timeout_ms BIGINT,
         p_min_version_packed BIGINT, p_max_version_packed BIGINT, p_cached_instance_ids TEXT[],
         p_cached_execution_ids BIGINT[], p_cached_last_event_ids BIGINT[],
         OUT out_orchestration_name TEXT, OUT out_orchestration_version TEXT,
         OUT out_execution_id BIGINT, OUT out_history JSONB, OUT out_messages JSONB,
         OUT out_lock_token TEXT, OUT out_attempt_count INTEGER, OUT out_kv_snapshot JSONB,
         OUT out_history_after_event_id BIGINT, OUT out_history_anchor JSONB)
       AS $$ BEGIN RAISE EXCEPTION 'claim broken'; END $$ LANGUAGE plpgsql`,
    );
    const { fetch } = await waitingFetch(provider);
    // The waiting fetch is handed nothing; its own claim then fails the same way.
    const fetchFails = expect(fetch).rejects.toThrow(/claim broken/);
    const { result: outcomes, sent } = await statementsDuring(() =>
      provider.ackWorkItems([
        { lockToken: activity.lockToken, completion: completionOf('broken') },
      ]),
    );
    expect(outcomes).toEqual([{ ok: true }]);
    // The claiming statement failed as a whole; the acknowledgement then went alone.
    const acks = sent.filter(
      (text) => text.includes('worker_queue') || text.includes(CLAIMING_ACK),
    );
    expect(acks.map((text) => text.includes(CLAIMING_ACK))).toEqual([true, false]);
    const leftover = await database.query<{ n: string }>(
      `SELECT count(*) AS n FROM "${provider.schema}".orchestrator_queue WHERE instance_id = 'broken'`,
    );
    expect(leftover).toEqual([{ n: '1' }]);
    await fetchFails;
  });
});
