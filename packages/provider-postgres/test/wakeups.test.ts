import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from './support/test-database.js';
import { addingInOneStatement } from './support/uncommitted-messages.js';
import { externalRaised, startInstance, startOrchestration } from './support/turns.js';

const database = useTestDatabase();

// Long enough that only a wake-up (never the poll timeout or the safety-net poll) can make these
// fetches return work: a fetch that returns an item was woken by what the test did.
const NEVER_POLL = { idlePollIntervalMs: 120_000 };
const LONG_POLL_MS = 60_000;
const worker = { type: 'DefaultOnly' } as const;

function activity(instance: string) {
  return {
    type: 'ActivityExecute',
    instance,
    executionId: 1,
    id: 1,
    name: 'A',
    input: '{}',
  } as const;
}

/** Resolves once a LISTEN connection of this schema is connected, checking every 20 ms. */
async function listening(schema: string): Promise<void> {
  for (;;) {
    const rows = await database.query(
      `SELECT 1 FROM pg_stat_activity WHERE query = $1 AND state = 'idle'`,
      [`LISTEN duro_work_${schema}`],
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('waking idle fetches', () => {
  it('an idle long poll is woken by an enqueue from another provider', async () => {
    const waiting = await database.newProvider(NEVER_POLL, 'woken');
    const other = await database.attach(waiting);
    const orchestration = waiting.fetchOrchestrationItem(30_000, LONG_POLL_MS, null);
    const work = waiting.fetchWorkItem(30_000, LONG_POLL_MS, null, worker);
    await listening(waiting.schema);

    await other.enqueueForOrchestrator(startOrchestration('woken'), null);
    await other.enqueueForWorker(activity('woken'));
    expect((await orchestration)?.item.instance).toBe('woken');
    expect((await work)?.item).toMatchObject({ type: 'ActivityExecute', instance: 'woken' });
  });

  it('a delayed message wakes an idle long poll when it comes due', async () => {
    const waiting = await database.newProvider(NEVER_POLL, 'delayed');
    const other = await database.attach(waiting);
    // Scheduled by another process before the fetch waits: known from the database.
    await other.enqueueForOrchestrator(startOrchestration('scheduled-elsewhere'), 300);
    expect((await waiting.fetchOrchestrationItem(30_000, LONG_POLL_MS, null))?.item.instance).toBe(
      'scheduled-elsewhere',
    );
    // Scheduled by this provider while its fetch waits: known from its own write.
    const fetch = waiting.fetchOrchestrationItem(30_000, LONG_POLL_MS, null);
    await waiting.enqueueForOrchestrator(startOrchestration('scheduled-here'), 300);
    expect((await fetch)?.item.instance).toBe('scheduled-here');
  });

  it('a delayed message another provider writes while a fetch waits is taken when it comes due', async () => {
    const waiting = await database.newProvider(NEVER_POLL, 'announced');
    const other = await database.attach(waiting);
    // Due within the second (its plain notification wakes the fetch too early) and later.
    for (const [instance, delayMs] of [
      ['due-soon', 300],
      ['due-later', 1_500],
    ] as const) {
      const fetch = waiting.fetchOrchestrationItem(30_000, LONG_POLL_MS, null);
      await listening(waiting.schema);
      // Let the fetch look and read the queue's due times (none) before the message exists.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await other.enqueueForOrchestrator(startOrchestration(instance), delayMs);
      expect((await fetch)?.item.instance).toBe(instance);
    }
  });

  it('an idle long poll still gets work while its listening connection is down, and after', async () => {
    const waiting = await database.newProvider(NEVER_POLL, 'relisten');
    const other = await database.attach(waiting);
    const first = waiting.fetchWorkItem(30_000, LONG_POLL_MS, null, worker);
    await listening(waiting.schema);
    await database.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1`,
      [`LISTEN duro_work_${waiting.schema}`],
    );
    await other.enqueueForWorker(activity('while-down'));
    expect((await first)?.item).toMatchObject({ instance: 'while-down' });

    await listening(waiting.schema);
    const second = waiting.fetchWorkItem(30_000, LONG_POLL_MS, null, worker);
    await other.enqueueForWorker(activity('after'));
    expect((await second)?.item).toMatchObject({ instance: 'after' });
  });

  it('a message that arrives while its instance is being released wakes a fetch once it is free', async () => {
    const waiting = await database.newProvider(NEVER_POLL, 'releasing');
    const other = await database.attach(waiting);
    await other.enqueueForOrchestrator(startOrchestration('busy'), null);
    const turn = await other.fetchOrchestrationItem(30_000, 0, null);
    expect(turn?.item.instance).toBe('busy');

    // The turn's acknowledgement, held open after it released the instance and looked for
    // messages that arrived meanwhile (there were none yet).
    const acking = new pg.Client({ connectionString: database.url });
    await acking.connect();
    try {
      await acking.query('BEGIN');
      await acking.query(
        `SELECT "${waiting.schema}".ack_orchestration_item($1, $2, 1, '[]', '[]', '[]', '{}', '[]')`,
        [turn?.lockToken, Date.now()],
      );
      const fetch = waiting.fetchOrchestrationItem(30_000, LONG_POLL_MS, null);
      await listening(waiting.schema);
      // The event is sent now; before duro migration 5 it committed (and notified) at once, its
      // fetch found the instance still locked, and nothing woke a fetch again.
      const sending = other.enqueueForOrchestrator(externalRaised('busy', 'go'), null);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await acking.query('COMMIT');
      await sending;
      expect((await fetch)?.item.messages).toEqual([externalRaised('busy', 'go')]);
    } finally {
      await acking.end();
    }
    // Without a wake-up the fetch would wait out LONG_POLL_MS; this ends the test well before.
  }, 20_000);

  it('an idle instance is not claimed while a message for it is being added, and that message then wakes a fetch', async () => {
    const waiting = await database.newProvider(NEVER_POLL, 'adding');
    const other = await database.attach(waiting);
    await startInstance(other, 'idle');

    // Before duro migration 15 the claim below took the instance with the first event alone. Its
    // ack, looking for messages left for the instance, could not see the uncommitted one; when
    // that committed while the ack was being flushed, its notification found the instance still
    // locked, and nothing announced it again until the safety-net poll.
    const late = await addingInOneStatement(database, waiting.schema, [
      externalRaised('idle', 'late'),
    ]);
    try {
      await other.enqueueForOrchestrator(externalRaised('idle', 'first'), null);
      expect(await other.fetchOrchestrationItem(30_000, 0, null)).toBeNull();

      const fetch = waiting.fetchOrchestrationItem(30_000, LONG_POLL_MS, null);
      await listening(waiting.schema);
      await late.commit();
      expect((await fetch)?.item.messages).toEqual([
        externalRaised('idle', 'late'),
        externalRaised('idle', 'first'),
      ]);
    } finally {
      await late.commit();
    }
  }, 20_000);

  it('a transaction adding messages for many instances holds the locks of at most 64', async () => {
    const provider = await database.newProvider(NEVER_POLL, 'many_adds');
    const advisoryLocksOf = async (pid: number): Promise<number> => {
      const [row] = await database.query<{ held: string }>(
        `SELECT count(*) AS held FROM pg_locks WHERE pid = $1 AND locktype = 'advisory'`,
        [pid],
      );
      return Number(row?.held);
    };
    const starts = (count: number, prefix: string) =>
      Array.from({ length: count }, (_, index) => startOrchestration(`${prefix}-${index}`));

    // Both key forms of each instance, up to 64 instances per transaction.
    for (const [count, held] of [
      [3, 6],
      [64, 128],
      [1_000, 128],
    ] as const) {
      const adding = await addingInOneStatement(
        database,
        provider.schema,
        starts(count, `s${count}`),
      );
      try {
        expect(await advisoryLocksOf(adding.backendPid)).toBe(held);
      } finally {
        await adding.commit();
      }
    }
  });

  it('closing the provider ends its waiting fetches with nothing', async () => {
    const waiting = await database.newProvider(NEVER_POLL, 'closing');
    const fetch = waiting.fetchOrchestrationItem(30_000, LONG_POLL_MS, null);
    await listening(waiting.schema);
    await waiting.close();
    expect(await fetch).toBeNull();
    await expect(waiting.getQueueDepths()).rejects.toThrow(/the provider is closed/);
  });
});
