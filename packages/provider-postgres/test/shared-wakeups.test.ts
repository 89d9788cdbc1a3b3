import { wakeupChannel } from '@duro/provider-postgres';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from './support/test-database.js';
import { FIRST_TURN, startedEvent, startOrchestration } from './support/turns.js';

const database = useTestDatabase();

// Only a wake-up (never the poll timeout, rarely the safety-net poll) makes these fetches look.
const NEVER_POLL = { idlePollIntervalMs: 120_000 };
const LONG_POLL_MS = 60_000;
const worker = { type: 'DefaultOnly' } as const;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Counts, by procedure or table, the statements this process sends about one schema: every
 * `pg` client's `query` is wrapped, and a statement counts when its text names the schema.
 */
class SchemaStatements {
  readonly #counts = new Map<string, number>();

  constructor(schema: string) {
    const original = Reflect.get(pg.Client.prototype, 'query') as (...args: unknown[]) => unknown;
    const counts = this.#counts;
    pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
      const query = args[0];
      const text = typeof query === 'string' ? query : (query as { text?: string } | null)?.text;
      const named = typeof text === 'string' ? /"([^"]+)"\.(\w+)/.exec(text) : null;
      if (named?.[1] === schema && named[2] !== undefined) {
        counts.set(named[2], (counts.get(named[2]) ?? 0) + 1);
      }
      return original.apply(this, args);
    } as typeof pg.Client.prototype.query;
  }

  of(name: string): number {
    return this.#counts.get(name) ?? 0;
  }

  /** Orchestration fetches: one turn, with or without the history tails of duro migration 2, or a batch. */
  get orchestrationFetches(): number {
    return (
      this.of('fetch_orchestration_item') +
      this.of('duro_fetch_orchestration_item') +
      this.of('duro_fetch_orchestration_items')
    );
  }

  get fetches(): number {
    return this.orchestrationFetches + this.of('fetch_work_item');
  }

  /** The due-time read is the only statement that reads the queue tables directly. */
  get dueTimeReads(): number {
    return this.of('orchestrator_queue') + this.of('worker_queue');
  }
}

/** Resolves once `count()` reaches `at least`, then after a short settle returns it. */
async function settledCount(count: () => number, atLeast: number): Promise<number> {
  while (count() < atLeast) await sleep(10);
  await sleep(300);
  return count();
}

/** Resolves once both LISTEN connections of this schema are connected. */
async function listening(schema: string): Promise<void> {
  for (;;) {
    const rows = await database.query(
      `SELECT 1 FROM pg_stat_activity WHERE query = $1 AND state = 'idle'`,
      [`LISTEN ${wakeupChannel(schema, 'worker')}`],
    );
    if (rows.length > 0) return;
    await sleep(20);
  }
}

/** Whether `promise` has settled, looked at after the current macrotask. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  const pending = Symbol('pending');
  return (await Promise.race([promise, sleep(0).then(() => pending)])) !== pending;
}

function activity(instance: string, id: number, sessionId?: string) {
  return {
    type: 'ActivityExecute',
    instance,
    executionId: 1,
    id,
    name: 'A',
    input: '{}',
    ...(sessionId === undefined ? {} : { sessionId }),
  } as const;
}

const sessionOf = (ownerId: string) => ({ ownerId, lockTimeoutMs: 30_000 });

describe('idle fetches that share one provider', () => {
  it('an empty notification costs one fetch, and a burst is claimed by as many fetches as items', async () => {
    const provider = await database.newProvider(NEVER_POLL, 'burst');
    const other = await database.attach(provider);
    // Start an instance that will schedule the burst in one ack.
    await other.enqueueForOrchestrator(startOrchestration('burst'), null);
    const turn = await other.fetchOrchestrationItem(30_000, 0, null);
    expect(turn?.item.instance).toBe('burst');
    const statements = new SchemaStatements(provider.schema);

    const claimed: number[] = [];
    const fetches = Array.from({ length: 4 }, () =>
      provider.fetchWorkItem(30_000, LONG_POLL_MS, null, worker).then((fetched) => {
        if (fetched?.item.type === 'ActivityExecute') claimed.push(fetched.item.id);
        return fetched;
      }),
    );
    await listening(provider.schema);
    // Each fetch looked once, and once more when the listening connection was made.
    const initial = await settledCount(() => statements.of('fetch_work_item'), 4);
    expect(initial).toBeLessThanOrEqual(8);
    // Their waits shared one due-time read.
    expect(statements.of('worker_queue')).toBe(1);

    // A notification with nothing behind it wakes one fetch, which finds nothing.
    await database.query('SELECT pg_notify($1, $2)', [
      wakeupChannel(provider.schema, 'worker'),
      '',
    ]);
    expect(await settledCount(() => statements.of('fetch_work_item'), initial + 1)).toBe(
      initial + 1,
    );
    for (const fetch of fetches) expect(await settled(fetch)).toBe(false);

    // One ack schedules three activities: one notification, three claims.
    await other.ackOrchestrationItem(
      turn!.lockToken,
      1,
      [startedEvent('burst')],
      [activity('burst', 1), activity('burst', 2), activity('burst', 3)],
      [],
      FIRST_TURN,
      [],
    );
    expect(await settledCount(() => claimed.length, 3)).toBe(3);
    expect(claimed.sort()).toEqual([1, 2, 3]);
    await provider.close();
    expect((await Promise.all(fetches)).filter((fetched) => fetched === null)).toHaveLength(1);
  });

  it('after a batch of turns short of its size the next fetch waits for a notification; after a full one it looks', async () => {
    // Default options: the safety-net poll (5 s) does not come within this test.
    const provider = await database.newProvider({}, 'short_batch');
    const other = await database.attach(provider);
    // A waiting activity fetch connects the provider's listener, which an orchestration fetch
    // needs before it may wait without looking.
    const idleWorker = provider.fetchWorkItem(30_000, LONG_POLL_MS, null, worker);
    await listening(provider.schema);
    const instances = (turns: readonly { item: { instance: string } }[]): string[] =>
      turns.map((turn) => turn.item.instance).sort();

    // Full: three ready, two taken, so the next fetch looks at once and takes the third.
    for (const instance of ['full-1', 'full-2', 'full-3']) {
      await other.enqueueForOrchestrator(startOrchestration(instance), null);
    }
    await sleep(200); // their notifications arrive before anyone waits
    const full = await provider.fetchOrchestrationItems(30_000, LONG_POLL_MS, null, 2);
    expect(full).toHaveLength(2);
    const rest = await provider.fetchOrchestrationItems(30_000, LONG_POLL_MS, null, 8);
    expect(instances([...full, ...rest])).toEqual(['full-1', 'full-2', 'full-3']);

    // Short: two ready, eight wanted, so both are taken and nothing else was there to see.
    for (const instance of ['short-1', 'short-2']) {
      await other.enqueueForOrchestrator(startOrchestration(instance), null);
    }
    await sleep(200);
    const statements = new SchemaStatements(provider.schema);
    const short = await provider.fetchOrchestrationItems(30_000, LONG_POLL_MS, null, 8);
    expect(instances(short)).toEqual(['short-1', 'short-2']);
    const next = provider.fetchOrchestrationItems(30_000, LONG_POLL_MS, null, 8);
    await sleep(300);
    expect(statements.orchestrationFetches).toBe(1);
    expect(await settled(next)).toBe(false);
    // What comes later is announced, and the waiting fetch takes it.
    await other.enqueueForOrchestrator(startOrchestration('later'), null);
    expect(instances(await next)).toEqual(['later']);
    expect(statements.orchestrationFetches).toBe(2);
    await provider.close();
    expect(await idleWorker).toBeNull();
  });

  it('many idle fetches poll the queue as one, and a delayed message from another process is found when due', async () => {
    const pollMs = 200;
    const provider = await database.newProvider({ idlePollIntervalMs: pollMs }, 'quiet');
    const other = await database.attach(provider);
    const statements = new SchemaStatements(provider.schema);
    const fetches = Array.from({ length: 4 }, () => [
      provider.fetchOrchestrationItem(30_000, LONG_POLL_MS, null),
      provider.fetchWorkItem(30_000, LONG_POLL_MS, null, worker),
    ]).flat();
    await listening(provider.schema);
    await settledCount(() => statements.fetches, 8);

    const fetchesBefore = statements.fetches;
    const readsBefore = statements.dueTimeReads;
    const began = performance.now();
    await sleep(10 * pollMs);
    const polls = (performance.now() - began) / pollMs;
    // Each queue's safety net wakes one of its four fetches, which reads the due times again
    // when it waits; four fetches per queue each polling would send four times as much.
    expect(statements.fetches - fetchesBefore).toBeLessThanOrEqual(2 * (polls + 1));
    expect(statements.dueTimeReads - readsBefore).toBeLessThanOrEqual(2 * (polls + 1));

    // Sent by another provider: no notification now, none when it comes due, no noted time.
    await other.enqueueForOrchestrator(startOrchestration('due-elsewhere'), 300);
    const found = await Promise.race(fetches.slice(0, 8).filter((_, i) => i % 2 === 0));
    expect(found).toMatchObject({ item: { instance: 'due-elsewhere' } });
  });

  it('a delayed message this provider wrote wakes one of its idle fetches when due', async () => {
    const provider = await database.newProvider(NEVER_POLL, 'due_here');
    const statements = new SchemaStatements(provider.schema);
    const fetches = Array.from({ length: 3 }, () =>
      provider.fetchOrchestrationItem(30_000, LONG_POLL_MS, null),
    );
    await listening(provider.schema);
    await settledCount(() => statements.orchestrationFetches, 3);
    // The three waits shared one due-time read.
    expect(statements.of('orchestrator_queue')).toBe(1);

    await provider.enqueueForOrchestrator(startOrchestration('due-here'), 300);
    const found = await Promise.race(fetches);
    expect(found?.item.instance).toBe('due-here');
  });

  it('a message of a session another idle fetch holds wakes that fetch', async () => {
    const provider = await database.newProvider(NEVER_POLL, 'session');
    // Owner a claims the session's first activity, so the session is a's.
    await provider.enqueueForWorker(activity('session', 1, 'cart'));
    const first = await provider.fetchWorkItem(30_000, 0, sessionOf('a'), worker);
    expect(first?.item).toMatchObject({ id: 1, sessionId: 'cart' });
    await provider.ackWorkItem(first!.lockToken, null);

    // b waits longest, so a notification alone would wake b, which cannot take a's message.
    const fetchB = provider.fetchWorkItem(30_000, LONG_POLL_MS, sessionOf('b'), worker);
    await listening(provider.schema);
    await sleep(100);
    const fetchA = provider.fetchWorkItem(30_000, LONG_POLL_MS, sessionOf('a'), worker);
    await sleep(100);
    await provider.enqueueForWorker(activity('session', 2, 'cart'));
    expect((await fetchA)?.item).toMatchObject({ id: 2, sessionId: 'cart' });
    expect(await settled(fetchB)).toBe(false);
  });
});
